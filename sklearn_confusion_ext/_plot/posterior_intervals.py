"""The Dirichlet posteriors of the rows of a confusion matrix: a matrix view of the posterior
means and their intervals, and forest plots of chosen rows."""

from numbers import Real

import numpy as np

from .._core.docs import fill_doc
from .._core.params import (
    ALLOW_FRACTIONAL,
    ARRAY,
    PROBABILITY_LEVEL,
    Interval,
    NumberArray,
    Options,
    quoted,
    validate_params,
)
from .._core.renames import RenamedAttributes
from .._statistics.posterior import dirichlet_posterior
from .data_checks import display_array, ordered_bounds, same_shape
from .declarations import FIGSIZE, PANELS_AX
from .layout import bounding_axes, panel_axes, set_class_ticks, short_names
from .matplotlib_check import check_matplotlib
from .value_format import format_values

# Up to this many classes, rows="auto" draws a forest panel per actual class; above, the
# matrix view.
_MAX_CLASSES_FOREST = 6
# Up to this many classes the matrix view writes each cell's mean and interval half-width;
# above, it draws each interval as a segment inside its cell.
_MAX_CLASSES_WITH_VALUES = 10

_DOCS = {"panels": """\
rows : "auto" or array-like of int or str, default="auto"
    The actual classes (rows of the matrix, by position or by display name) that get a
    forest panel: each predicted class's posterior mean with its credible interval.
    "auto": every row up to 6 classes, and no matrix view; above 6 classes the matrix
    view alone. Given rows are drawn below the matrix view (an empty list: the matrix
    view alone). The matrix view is a heat map of the posterior means of
    ``P[predicted | actual]``; up to 10 classes each cell reads the mean and, below it,
    half the width of its interval. The panels are stacked in one column, predicted
    classes along x.
ax : matplotlib Axes, sequence of Axes, Figure or SubFigure, default=None
    Where to draw. A Figure or SubFigure is filled with the panels; one Axes is the box
    they are drawn in (hidden, and kept as ``bounding_ax_``, as scikit-learn's
    ``PartialDependenceDisplay`` does), or the panel itself when one panel is drawn; else
    one Axes per panel (the matrix view first, then one per forest row). By default a new
    figure, sized to the classes and the panels (at most 12 x 10 inches); another number
    of Axes raises ``ValueError``.
figsize : tuple of two floats, default=None
    Size in inches of the new figure (not with ``ax``).""",
}


class PosteriorIntervalDisplay(RenamedAttributes):
    """Posterior of each actual class's row of a confusion matrix (Barranco-Chamorro 2021).

    Row ``k`` of a confusion matrix has a Dirichlet posterior over
    ``P[predicted j | actual k]``. The display shows the posterior means and their credible
    intervals as a matrix view (a heat map, for many classes) and as forest plots of
    chosen rows (each predicted class's mean with its interval).

    Parameters
    ----------
    mean, low, high : ndarray of shape (n_classes, n_classes)
        Posterior means and interval bounds, rows actual classes. (``lower`` and
        ``upper``, their former names, work with a ``FutureWarning`` until 0.2.)
    display_labels : list, default=None
        Class names; class indices by default.

    Attributes
    ----------
    mean, low, high : ndarray of shape (n_classes, n_classes)
        The values drawn (``lower`` and ``upper`` read ``low`` and ``high`` with a
        ``FutureWarning`` until 0.2).
    figure_ : matplotlib Figure
        The figure drawn on.
    axes_ : ndarray of matplotlib Axes
        The panels: the matrix view first when it is drawn, then one per forest row.
    bounding_ax_ : matplotlib Axes or None
        The one Axes given as ``ax`` for several panels, hidden; None otherwise.

    See Also
    --------
    dirichlet_posterior : The posterior drawn.
    PosteriorSimplexDisplay : A row's posterior on the triangle of three classes.
    ScoreIntervalDisplay : Intervals of per-class scores.
    TransportConfusionMatrixDisplay : The matrix itself.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 4 (the Dirichlet-multinomial posterior of each row, its mean and HPD and
       equal-tailed intervals) and Table A2 (the intervals of the IBD matrix).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import PosteriorIntervalDisplay
    >>> display = PosteriorIntervalDisplay.from_confusion(
    ...     [[37, 1, 15], [6, 19, 26], [15, 3, 77]], prior="uniform",
    ...     display_labels=["nonIBD", "UC", "CD"])
    >>> round(float(display.high[1, 2]), 4)  # Table A2, HPD upper bound of P[CD | UC]
    0.6316
    """

    _renamed_fields = {"lower": "low", "upper": "high"}

    @validate_params({"mean": [ARRAY], "low": [ARRAY], "high": [ARRAY],
                      "display_labels": [None, ARRAY]}, renamed=_renamed_fields)
    def __init__(self, *, mean, low, high, display_labels=None):
        self.mean, self.low, self.high = (
            display_array(values, name, ndim=2, square=True, bounds=(0, 1),
                          what="probabilities")
            for name, values in (("mean", mean), ("low", low), ("high", high)))
        same_shape({"mean": self.mean, "low": self.low, "high": self.high})
        ordered_bounds(self.low, self.high, "low", "high")
        self.display_labels = display_labels

    @classmethod
    @validate_params({
        "matrix": [ARRAY],
        "prior": [Interval(Real, 0, None, closed="neither"), Options("uniform", "perks"),
                  NumberArray()],
        "level": [PROBABILITY_LEVEL], "method": [Options("hpd", "equal-tailed")],
        "display_labels": [None, ARRAY], "rows": [Options("auto"), ARRAY], **PANELS_AX,
        **FIGSIZE, "allow_fractional": ALLOW_FRACTIONAL}, renamed={"confusion": "matrix"})
    @fill_doc(_DOCS)
    def from_confusion(cls, matrix, *, prior="perks", level=0.95, method="hpd",
                       display_labels=None, rows="auto", ax=None, figsize=None,
                       allow_fractional="warn"):
        """Posterior of a confusion matrix (:func:`dirichlet_posterior`), then plot.

        Parameters
        ----------
        matrix : array-like of shape (n_classes, n_classes)
            Counts, rows actual and columns predicted classes (``confusion``, its former
            name, works with a ``FutureWarning`` until 0.2).
        prior : float, {"uniform", "perks"} or array-like, default="perks"
            Dirichlet prior, as in :func:`dirichlet_posterior` (1 or "uniform": the
            paper's).
        level : float, default=0.95
            Posterior mass of each interval, in (0, 1).
        method : {"hpd", "equal-tailed"}, default="hpd"
            Highest posterior density or equal-tailed intervals, as in
            :meth:`ConfusionPosterior.credible_interval`.
        display_labels : list of str, default=None
            Class names; class indices by default.
        %(panels)s
        allow_fractional : {"warn", True, False}, default="warn"
            As in :func:`dirichlet_posterior`: warn, refuse (False) or accept (True) a
            ``matrix`` that does not look like counts (normalized rows, say).

        Returns
        -------
        display : PosteriorIntervalDisplay
            With ``mean``, ``low``, ``high``, ``figure_`` and ``axes_``.

        See Also
        --------
        ConfusionPosterior.credible_interval : The intervals drawn.
        PosteriorIntervalDisplay.plot : Draw posterior means and intervals computed elsewhere.
        PosteriorSimplexDisplay.from_confusion : A row's posterior on the triangle.

        References
        ----------
        .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
           with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
           Section 4 (the Dirichlet-multinomial posterior of each row, its mean and HPD and
           equal-tailed intervals) and Table A2 (the intervals of the IBD matrix).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import PosteriorIntervalDisplay
        >>> display = PosteriorIntervalDisplay.from_confusion([[8, 2], [1, 9]], level=0.9)
        >>> display.mean.round(3)  # Perks' prior: 1/2 per cell
        array([[0.773, 0.227],
               [0.136, 0.864]])
        >>> [ax.get_title() for ax in display.axes_]
        ['actual 0', 'actual 1']

        Forty classes: the matrix view, with the forest plot of two rows.

        >>> import numpy as np
        >>> counts = np.eye(40) * 30 + np.random.default_rng(0).integers(0, 3, (40, 40))
        >>> display = PosteriorIntervalDisplay.from_confusion(counts, rows=[0, 7])
        >>> [ax.get_title() for ax in display.axes_[1:]]
        ['actual 0', 'actual 7']
        >>> bool(display.figure_.get_size_inches().max() <= 12)
        True
        """
        posterior = dirichlet_posterior(matrix, prior=prior, display_labels=display_labels,
                                        allow_fractional=allow_fractional)
        low, high = posterior.credible_interval(level, method=method)
        display = cls(mean=posterior.mean(), low=low, high=high,
                      display_labels=posterior.display_labels)
        return display.plot(rows=rows, ax=ax, figsize=figsize)

    @validate_params({"rows": [Options("auto"), ARRAY], **PANELS_AX, **FIGSIZE})
    @fill_doc(_DOCS)
    def plot(self, *, rows="auto", ax=None, figsize=None):
        """Draw the matrix view and the forest panels.

        Parameters
        ----------
        %(panels)s

        Returns
        -------
        self
            With ``figure_`` and ``axes_`` (the panels).

        See Also
        --------
        PosteriorIntervalDisplay.from_confusion : Compute the posterior, then draw it.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_confusion_ext import PosteriorIntervalDisplay
        >>> display = PosteriorIntervalDisplay(
        ...     mean=[[0.8, 0.2], [0.3, 0.7]], low=[[0.6, 0.1], [0.1, 0.5]],
        ...     high=[[0.9, 0.4], [0.5, 0.9]], display_labels=["cat", "dog"])
        >>> display = display.plot(figsize=(6, 2))
        >>> [ax.get_title() for ax in display.axes_]
        ['actual cat', 'actual dog']
        >>> fig, (left, right) = plt.subplots(1, 2)
        >>> display = display.plot(rows=["dog"], ax=[left, right])
        >>> [text.get_text() for text in left.texts]
        ['0.80\\n±0.15', '0.20\\n±0.15', '0.30\\n±0.20', '0.70\\n±0.20']
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        n_classes = self.mean.shape[0]
        names = ([str(k) for k in range(n_classes)] if self.display_labels is None
                 else [str(name) for name in self.display_labels])
        if len(names) != n_classes:
            raise ValueError(f"display_labels has {len(names)} names for {n_classes} "
                             f"classes; pass {n_classes} names.")
        matrix_view, forest_rows = self._panels(rows, names)
        n_panels = matrix_view + len(forest_rows)
        what = ", ".join((["the matrix view"] if matrix_view else [])
                         + ([f"{len(forest_rows)} forest rows"] if forest_rows else []))

        fig, axes = panel_axes(ax, n_panels, what, figsize,
                               _default_size(n_classes, matrix_view, len(forest_rows)),
                               lambda container: _one_column(container, n_classes, matrix_view,
                                                            len(forest_rows)))
        self.bounding_ax_ = bounding_axes(ax, n_panels)
        arranged = ax is None or self.bounding_ax_ is not None  # one column of our own
        if matrix_view:
            self._draw_matrix(axes[0], names, axes if arranged else axes[:1])
        # One scale for the forest panels, up to a little above their highest bound.
        top = min(1.0, 1.1 * float(self.high[forest_rows].max())) if forest_rows else 1.0
        for panel, k in zip(axes[matrix_view:], forest_rows):
            self._draw_forest(panel, k, names, top or 1.0)
        for panel in axes[:-1] if arranged else []:  # one column: names at the bottom
            panel.tick_params(axis="x", labelbottom=False)
            panel.set_xlabel("")
        self.figure_, self.axes_ = fig, np.asarray(axes, dtype=object)
        return self

    def _panels(self, rows, names):
        """Whether the matrix view is drawn (1 or 0), and the positions of the forest rows."""
        n_classes = len(names)
        if isinstance(rows, str):  # "auto"
            small = n_classes <= _MAX_CLASSES_FOREST
            return int(not small), (list(range(n_classes)) if small else [])
        return 1, class_positions(rows, names, "rows")

    def _draw_matrix(self, ax, names, colorbar_axes):
        """The heat map of the posterior means; up to 10 classes, with each cell's half
        interval width."""
        n_classes = len(names)
        image = ax.imshow(self.mean, cmap="Blues", vmin=0, vmax=max(self.mean.max(), 1e-12),
                          interpolation="nearest", aspect="auto")
        ax.figure.colorbar(image, ax=list(colorbar_axes), label="posterior mean",
                           shrink=0.9, aspect=30)
        dark = self.mean > 0.6 * self.mean.max()
        if n_classes <= _MAX_CLASSES_WITH_VALUES:
            means = format_values(self.mean, decimals=2)
            halves = format_values((self.high - self.low) / 2, decimals=2)
            for (i, j), mean in np.ndenumerate(means):
                ax.text(j, i, f"{mean}\n\u00b1{halves[i, j]}", ha="center", va="center",
                        fontsize="small" if n_classes > 5 else "medium",
                        color="white" if dark[i, j] else "black")
            title = "Posterior mean of P[predicted | actual] \u00b1 half its interval"
        else:
            title = "Posterior mean of P[predicted | actual]"
        ax.set_title(title, fontsize="medium")
        ax.set(xlabel="Predicted class", ylabel="Actual class")
        set_class_ticks(ax, "x", names)
        set_class_ticks(ax, "y", names)

    def _draw_forest(self, ax, k, names, top):
        """The forest plot of row ``k``: each predicted class's mean and interval, predicted
        classes along x (under the matrix view's columns)."""
        positions = np.arange(len(names))
        errors = np.vstack([self.mean[k] - self.low[k], self.high[k] - self.mean[k]])
        ax.errorbar(positions, self.mean[k], yerr=np.maximum(errors, 0), fmt="o",
                    markersize=3 if len(names) > 20 else 5, capsize=2)
        set_class_ticks(ax, "x", names)
        ax.set(ylim=(0, top), xlim=(-0.5, len(names) - 0.5), xlabel="Predicted class",
               ylabel="P[pred. | actual]")
        ax.set_title(f"actual {short_names(names)[k]}", fontsize="medium")
        ax.grid(axis="y", alpha=0.3)


def _cell_size(n_classes):
    """Inches per class along an axis: room for two lines of values up to 10 classes."""
    return 0.6 if n_classes <= _MAX_CLASSES_WITH_VALUES else min(0.35, 8 / n_classes)


def _default_size(n_classes, matrix_view, n_forests):
    """Width and height of a new figure (at most 12 x 10 inches): the class names, the
    matrix view's cells and colorbar, 1.5 inches per forest panel."""
    names = 1.8  # the class names beside and below the panels
    width = names + 1.2 + max(n_classes * _cell_size(n_classes), 3.5)
    height = names + 0.5 + matrix_view * n_classes * _cell_size(n_classes) + 1.5 * n_forests
    return min(width, 12), min(height, 10)


def _one_column(container, n_classes, matrix_view, n_forests):
    """The panels, one above the other: the matrix view, then the forest panels."""
    heights = [n_classes * _cell_size(n_classes)] * matrix_view + [1.2] * n_forests
    return container.subplots(len(heights), 1, squeeze=False, sharex=True,
                              height_ratios=heights).ravel()


def class_positions(values, names, what):
    """The positions of the classes ``values`` names, by position or by display name
    (``what``, the parameter, names them in the error)."""
    positions = []
    for value in np.ravel(np.asarray(values, dtype=object)):
        if isinstance(value, str) and value in names:
            positions.append(names.index(value))
        elif (isinstance(value, (int, np.integer)) and not isinstance(value, bool)
              and 0 <= value < len(names)):
            positions.append(int(value))
        else:
            noun = "the actual classes" if what == "rows" else "classes"
            raise ValueError(f"{what} names {noun} by position (0 to {len(names) - 1}) or "
                             f"by display name; got {quoted(value)}.")
    return positions
