"""The Dirichlet posterior of a row of a confusion matrix on the triangle of three classes
(Barranco-Chamorro and Carrillo-Garcia 2021, Figures 1-3)."""

from numbers import Real

import numpy as np

from .._core.docs import fill_doc
from .._core.params import (
    ALLOW_FRACTIONAL,
    ARRAY,
    PRIOR_NAMES,
    TARGETS,
    Interval,
    NumberArray,
    Options,
    quoted,
    validate_params,
)
from .._core.renames import RenamedAttributes
from .._matrices.transport import transport_confusion
from .._statistics.posterior import dirichlet_logpdf, dirichlet_mode, dirichlet_posterior
from .data_checks import display_array
from .declarations import FIGSIZE, PANELS_AX
from .layout import bounding_axes, panel_axes, short_names
from .matplotlib_check import check_matplotlib
from .posterior_intervals import class_positions

# Posterior draws that place the boundaries of the highest-density regions: the mass of a
# region drawn is its level within about 0.002 (three standard errors at level 0.5).
_N_DRAWS = 100_000
# Subdivisions of each side of the triangle in the grid the density is evaluated on.
_GRID = 150
# At most this many panels side by side; more wrap onto further lines.
_MAX_COLUMNS = 3
# Corners of the triangle: the first vertex at the bottom left, the second at the bottom
# right, the third at the top.
_CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]])

_DOCS = {"drawing": """\
levels : array-like of float, default=(0.5, 0.8, 0.95)
    Posterior masses of the highest-density regions drawn, each in (0, 1): the smallest
    region of the triangle holding that share of the posterior. Nested and shaded, darker
    inside; their boundaries are the density's contour lines, labeled with the mass.
ax : matplotlib Axes, sequence of Axes, Figure or SubFigure, default=None
    Where to draw: one Axes is the box the panels are drawn in (hidden, and kept as
    ``bounding_ax_``, as scikit-learn's ``PartialDependenceDisplay`` does), or the panel
    itself for one row; one Axes per panel, or a Figure or SubFigure filled with the
    panels. By default a new figure with up to three panels
    side by side.
figsize : tuple of two floats, default=None
    Size in inches of the new figure (not with ``ax``).""",
    "building": """\
prior : float, {"uniform", "perks"} or array-like of shape (n_classes, n_classes), \
default=1.0
    Dirichlet prior, as in :func:`dirichlet_posterior` (1: the paper's uniform prior).
rows : "auto" or array-like of int or str, default="auto"
    The actual classes (by position or display name) whose posterior is drawn, one panel
    each. "auto": every class at a vertex, so all three rows of a three-class matrix.
classes : array-like of two or three int or str, default=None
    The predicted classes at the vertices, by position or display name. Three classes:
    in the order given (bottom left, bottom right, top). Two classes: the other classes
    are merged into the third vertex, "other classes", whose probability is the sum of
    theirs; by the aggregation property of the Dirichlet distribution the three then
    follow ``Dirichlet(alpha_a, alpha_b, sum of the others)`` exactly. A matrix of more
    than three classes needs ``classes`` with two classes (a ``ValueError`` says so); by
    default the three classes of a three-class matrix.""",
}


# What both constructors take besides their counts: the prior, the panels, the drawing.
_BUILDING = {
    "prior": [Interval(Real, 0, None, closed="neither"), PRIOR_NAMES, NumberArray()],
    "rows": [Options("auto"), ARRAY], "classes": [None, ARRAY],
    "display_labels": [None, ARRAY], "levels": [ARRAY], **PANELS_AX, **FIGSIZE}


class PosteriorSimplexDisplay(RenamedAttributes):
    """Posterior of a row of a confusion matrix on the triangle (Barranco-Chamorro 2021).

    Row ``k`` of a confusion matrix (actual class ``k``) has a Dirichlet posterior over
    ``(P[predicted j | actual k])_j``. With three predicted classes every such vector is a
    point of a triangle, each corner the certainty of one prediction: the display draws
    the posterior's highest-density regions there, one panel per actual class, as the
    paper's Figures 1-3 draw its three rows of the IBD matrix (Section 5.3.2). A
    concentrated posterior near the corner of its own class means reliable predictions;
    one drawn toward another corner, a confusion with that class. The posterior mean
    (a dot) and mode (a cross) are marked and written under each triangle.

    Parameters
    ----------
    alpha : array-like of shape (n_panels, 3)
        Positive Dirichlet parameters of each panel's row over the three vertices: the
        rows are actual classes, the columns the predicted classes at the vertices.
    display_labels : list of str, default=None
        The name of each panel's actual class (each row of ``alpha``), in its title;
        panel indices by default. (``row_labels``, its former name, works with a
        ``FutureWarning`` until 0.2.)
    column_labels : list of str, default=None
        The names of the three vertices (the predicted classes, the columns of
        ``alpha``), "0", "1", "2" by default; as the matrix Displays name the columns of
        their matrix. (``vertex_labels``, its former name, works with a ``FutureWarning``
        until 0.2.)

    Attributes
    ----------
    alpha : ndarray of shape (n_panels, 3)
        The parameters drawn.
    display_labels, column_labels : list of str or None
        The names given (``row_labels`` and ``vertex_labels`` read them with a
        ``FutureWarning`` until 0.2).
    mean_, mode_ : ndarray of shape (n_panels, 3)
        The posterior mean and mode of each panel (:meth:`ConfusionPosterior.mean` and
        :meth:`ConfusionPosterior.mode`).
    levels_ : ndarray of shape (n_levels,)
        The masses of the regions drawn, increasing.
    log_density_levels_ : ndarray of shape (n_panels, n_levels)
        The log densities bounding those regions: the region of mass ``levels_[i]`` of
        panel ``k`` is where the log density is at least ``log_density_levels_[k, i]``.
    figure_ : matplotlib Figure
        The figure drawn on.
    axes_ : ndarray of matplotlib Axes
        One Axes per panel.
    bounding_ax_ : matplotlib Axes or None
        The one Axes given as ``ax`` for several panels, hidden; None otherwise.
    contours_ : list of matplotlib ContourSet
        The filled regions of each panel.

    See Also
    --------
    dirichlet_posterior : The posterior drawn.
    PosteriorIntervalDisplay : Every row's posterior means and intervals.
    ComparisonSimplexDisplay : The posterior of a comparison of two models, on a triangle.

    Notes
    -----
    The density is exact (no kernel estimate from draws, as the paper's figures used);
    the level bounding the region of mass ``p`` is the ``1 - p`` quantile of the density
    at 100,000 draws of the posterior with a fixed seed, so the picture is reproducible
    and each region holds its mass within about 0.002. A posterior much narrower than the
    triangle (thousands of counts in the row) is drawn on a finer grid around its draws,
    and reads as a small spot near its mean. The uniform density ``Dirichlet(1, 1, 1)``
    (a row without counts under the uniform prior) has no highest-density region: the
    whole triangle is shaded as the largest region and the panel says so.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 4 (the Dirichlet posterior of a row) and Section 5.3.2, Figures 1-3 (the
       posteriors of the IBD matrix's rows on the triangle).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import PosteriorSimplexDisplay
    >>> display = PosteriorSimplexDisplay([[38, 2, 16]], display_labels=["nonIBD"],
    ...                                   column_labels=["nonIBD", "UC", "CD"]).plot()
    >>> display.mode_.round(4)  # the mode of the paper's Figure 1
    array([[0.6981, 0.0189, 0.283 ]])
    """

    _renamed_fields = {"row_labels": "display_labels", "vertex_labels": "column_labels"}

    @validate_params({"alpha": [ARRAY], "display_labels": [None, ARRAY],
                      "column_labels": [None, ARRAY]}, renamed=_renamed_fields)
    def __init__(self, alpha, *, display_labels=None, column_labels=None):
        alpha = np.atleast_2d(display_array(alpha, "alpha", ndim=None,
                                            what="Dirichlet parameters"))
        if alpha.ndim != 2 or alpha.shape[1] != 3:
            raise ValueError(f"alpha must hold the three Dirichlet parameters of each panel, "
                             f"shape (n_panels, 3); got shape {alpha.shape}.")
        if (alpha <= 0).any():
            where = tuple(int(i) for i in np.argwhere(alpha <= 0)[0])
            raise ValueError(f"alpha must hold positive Dirichlet parameters; got "
                             f"{alpha[where]:.6g} at {where}.")
        self.alpha = alpha
        self.display_labels, self.column_labels = display_labels, column_labels

    @classmethod
    @validate_params({"matrix": [ARRAY], "allow_fractional": ALLOW_FRACTIONAL, **_BUILDING},
                     renamed={"confusion": "matrix"})
    @fill_doc(_DOCS)
    def from_confusion(cls, matrix, *, prior=1.0, rows="auto", classes=None,
                       display_labels=None, levels=(0.5, 0.8, 0.95), ax=None, figsize=None,
                       allow_fractional="warn"):
        """Posterior of rows of a confusion matrix (:func:`dirichlet_posterior`), then plot.

        Parameters
        ----------
        matrix : array-like of shape (n_classes, n_classes)
            Counts, rows actual and columns predicted classes (at least three classes);
            ``confusion``, its former name, works with a ``FutureWarning`` until 0.2.
        %(building)s
        display_labels : array-like of str, default=None
            Class names; class indices by default.
        %(drawing)s
        allow_fractional : {"warn", True, False}, default="warn"
            As in :func:`dirichlet_posterior`: warn, refuse (False) or accept (True) a
            ``matrix`` that does not look like counts (normalized rows, say).

        Returns
        -------
        display : PosteriorSimplexDisplay
            With ``alpha``, ``mean_``, ``mode_``, ``figure_`` and ``axes_``.

        See Also
        --------
        PosteriorSimplexDisplay.from_predictions : From predictions.
        PosteriorIntervalDisplay.from_confusion : Every row's means and intervals.

        References
        ----------
        .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
           with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
           Section 4 (the Dirichlet posterior of a row) and Section 5.3.2, Figures 1-3 (the
           posteriors of the IBD matrix's rows on the triangle).

        Examples
        --------
        The paper's Figures 1-3: the three rows of the IBD matrix with the uniform prior.

        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import PosteriorSimplexDisplay
        >>> ibd = [[37, 1, 15], [6, 19, 26], [15, 3, 77]]
        >>> display = PosteriorSimplexDisplay.from_confusion(
        ...     ibd, display_labels=["nonIBD", "UC", "CD"])
        >>> [ax.get_title() for ax in display.axes_]
        ['actual nonIBD', 'actual UC', 'actual CD']
        >>> display.mode_[2].round(4)  # the mode of Figure 3
        array([0.1579, 0.0316, 0.8105])

        Four classes: two predicted classes, the others merged into the third vertex.

        >>> land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
        >>> display = PosteriorSimplexDisplay.from_confusion(land_use, classes=[0, 3], rows=[3])
        >>> display.alpha, display.column_labels
        (array([[25., 91., 29.]]), ['0', '3', 'other classes'])
        """
        posterior = dirichlet_posterior(matrix, prior=prior, display_labels=display_labels,
                                        allow_fractional=allow_fractional)
        return cls._from_alpha(posterior.alpha, rows, classes, posterior.display_labels,
                               levels, ax, figsize)

    @classmethod
    @validate_params({**TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                      **_BUILDING})
    @fill_doc(_DOCS)
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None, prior=1.0,
                         rows="auto", classes=None, display_labels=None,
                         levels=(0.5, 0.8, 0.95), ax=None, figsize=None):
        """Posterior of rows of the confusion matrix of predictions, then plot.

        The counts are the confusion matrix of 1-D class labels (for 2-D targets, the
        transport confusion matrix, whose pseudo-counts of ``N`` instances are taken as
        counts, as ``allow_fractional=True`` of :func:`dirichlet_posterior` does; its none
        class, of instances without any class, is a class of the matrix only when some
        instance has no class).

        Parameters
        ----------
        y_true : array-like or sparse matrix
            Ground truth: 1-D class labels, or a 2-D indicator or soft-label matrix.
        y_pred : array-like or sparse matrix
            Predictions, of the same kind as ``y_true``.
        labels : array-like of shape (n_classes,), default=None
            The classes of the matrix, in order (default: those that occur, sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the instances.
        %(building)s
        display_labels : array-like of str, default=None
            Class names; the class labels by default.
        %(drawing)s

        Returns
        -------
        display : PosteriorSimplexDisplay

        See Also
        --------
        PosteriorSimplexDisplay.from_confusion : From a matrix of counts.
        transport_confusion_matrix : The counts of 2-D targets.

        References
        ----------
        .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
           with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
           Section 4 (the Dirichlet posterior of a row) and Section 5.3.2, Figures 1-3 (the
           posteriors of the IBD matrix's rows on the triangle).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import PosteriorSimplexDisplay
        >>> y_true = ["cat", "cat", "cat", "dog", "dog", "fox", "fox", "fox"]
        >>> y_pred = ["cat", "cat", "dog", "dog", "dog", "fox", "cat", "fox"]
        >>> display = PosteriorSimplexDisplay.from_predictions(y_true, y_pred, rows=["fox"])
        >>> display.alpha, display.column_labels
        (array([[2., 1., 3.]]), ['cat', 'dog', 'fox'])
        """
        confusion = transport_confusion(y_true, y_pred, labels=labels, weighting="uniform",
                                        sample_weight=sample_weight, empty="null_class")
        matrix, found = confusion.selected(), confusion.selected_labels()
        if confusion.has_none and not (matrix[-1].any() or matrix[:, -1].any()):
            matrix, found = matrix[:-1, :-1], found[:-1]  # no instance without a class
        names = found if display_labels is None else display_labels
        # Pseudo-counts of N instances (soft labels, weights): counts on purpose.
        posterior = dirichlet_posterior(matrix, prior=prior, allow_fractional=True)
        return cls._from_alpha(posterior.alpha, rows, classes, names, levels, ax, figsize)

    @classmethod
    def _from_alpha(cls, alpha, rows, classes, display_labels, levels, ax, figsize):
        """The Display of the rows ``rows`` of a posterior's ``alpha`` over ``classes``."""
        n_classes = alpha.shape[0]
        names = ([str(k) for k in range(n_classes)] if display_labels is None
                 else [str(name) for name in display_labels])
        if len(names) != n_classes:
            raise ValueError(f"display_labels has {len(names)} names for {n_classes} "
                             f"classes; pass {n_classes} names.")
        if n_classes == 2:
            raise ValueError("The posterior of a row of two classes is a Beta distribution "
                             "on a segment, not on a triangle: draw it with "
                             "PosteriorIntervalDisplay.")
        if classes is None:
            if n_classes > 3:
                raise ValueError(
                    f"The triangle shows three predicted classes and the matrix has "
                    f"{n_classes}: pass classes=[a, b], two predicted classes (positions "
                    "or names); the other classes are merged into the third vertex.")
            classes = [0, 1, 2]
        vertices = class_positions(classes, names, "classes")
        if len(set(vertices)) != len(vertices) or len(vertices) not in (2, 3):
            raise ValueError(f"classes names two or three different predicted classes; got "
                             f"{quoted(list(classes))}.")
        if len(vertices) == 3 and n_classes > 3:
            raise ValueError(
                f"classes names three of the {n_classes} classes: the vertices must hold "
                "all of a row's probability. Name two classes; the others are merged into "
                "the third vertex.")
        rest = [j for j in range(n_classes) if j not in vertices]
        if len(rest) == 1:  # two classes named of three: the third is the remaining one
            vertices, rest = vertices + rest, []
        columns = alpha[:, vertices[:2]]
        columns = np.column_stack([columns, alpha[:, vertices[2]] if len(vertices) == 3
                                   else alpha[:, rest].sum(axis=1)])
        third = names[vertices[2]] if len(vertices) == 3 else "other classes"
        if isinstance(rows, str):  # "auto": the actual classes at the vertices
            rows = list(vertices)
        else:
            rows = class_positions(rows, names, "rows")
        if not rows:
            raise ValueError("rows names no class: pass at least one actual class.")
        display = cls(columns[rows], display_labels=[names[k] for k in rows],
                      column_labels=[names[vertices[0]], names[vertices[1]], third])
        return display.plot(levels=levels, ax=ax, figsize=figsize)

    @validate_params({"levels": [ARRAY], **PANELS_AX, **FIGSIZE})
    @fill_doc(_DOCS)
    def plot(self, *, levels=(0.5, 0.8, 0.95), ax=None, figsize=None):
        """Draw the highest-density regions of each panel's posterior on the triangle.

        Parameters
        ----------
        %(drawing)s

        Returns
        -------
        self
            With ``figure_``, ``axes_``, ``contours_``, ``mean_``, ``mode_``, ``levels_``
            and ``log_density_levels_``.

        See Also
        --------
        PosteriorSimplexDisplay.from_confusion : Compute the posterior, then draw it.
        PosteriorSimplexDisplay.from_predictions : From predictions.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_confusion_ext import PosteriorSimplexDisplay
        >>> display = PosteriorSimplexDisplay([[7, 20, 27]], display_labels=["UC"],
        ...                                   column_labels=["nonIBD", "UC", "CD"])
        >>> fig, ax = plt.subplots()
        >>> display = display.plot(levels=[0.5, 0.95], ax=ax)
        >>> display.levels_
        array([0.5 , 0.95])
        >>> display.mode_.round(4)  # the mode of the paper's Figure 2
        array([[0.1176, 0.3725, 0.5098]])
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        levels = np.sort(np.asarray(levels, dtype=float).ravel())
        if levels.size == 0 or not ((levels > 0) & (levels < 1)).all():
            raise ValueError(f"levels must be posterior masses in (0, 1); got "
                             f"{levels.tolist()}.")
        if len(np.unique(levels)) != levels.size:
            raise ValueError(f"levels must be different masses; got {levels.tolist()}.")
        n_panels = self.alpha.shape[0]
        vertex_labels = (["0", "1", "2"] if self.column_labels is None
                         else [str(name) for name in self.column_labels])
        row_labels = ([str(k) for k in range(n_panels)] if self.display_labels is None
                      else [str(name) for name in self.display_labels])
        for what, found, expected in (("column_labels", vertex_labels, 3),
                                      ("display_labels", row_labels, n_panels)):
            if len(found) != expected:
                raise ValueError(f"{what} has {len(found)} names for {expected}; pass "
                                 f"{expected} names.")
        n_columns = min(n_panels, _MAX_COLUMNS)
        n_lines = -(-n_panels // n_columns)
        fig, axes = panel_axes(
            ax, n_panels, f"{n_panels} triangle(s)", figsize,
            (min(3.6 * n_columns + 0.4, 12), min(3.4 * n_lines + 0.3, 10)),
            lambda container: _grid_of_panels(container, n_panels, n_columns, n_lines))
        self.bounding_ax_ = bounding_axes(ax, n_panels)
        self.levels_ = levels
        self.mean_ = self.alpha / self.alpha.sum(axis=1, keepdims=True)
        self.mode_ = dirichlet_mode(self.alpha)
        self.log_density_levels_ = np.empty((n_panels, levels.size))
        self.contours_ = []
        for k, panel in enumerate(axes):
            draws = _draws(self.alpha[k])
            thresholds = _log_density_levels(draws, self.alpha[k], levels)
            self.log_density_levels_[k] = thresholds
            self.contours_.append(self._draw_panel(panel, k, draws, thresholds,
                                                   vertex_labels, row_labels[k]))
        _legend(axes[0], levels)
        if ax is None:
            fig.suptitle("Posterior of P[predicted | actual] on the triangle of the predicted "
                         "classes", fontsize="medium")
        self.figure_, self.axes_ = fig, np.asarray(axes, dtype=object)
        return self

    def _draw_panel(self, ax, k, draws, thresholds, vertex_labels, row_label):
        """One triangle: the nested regions, their boundaries, the mean and the mode."""
        import matplotlib.tri as mtri
        from matplotlib import colormaps

        points = _grid_points(draws)
        log_density = dirichlet_logpdf(points, self.alpha[k])
        finite = log_density[np.isfinite(log_density)]
        low = min(finite.min() if finite.size else np.inf, thresholds.min())
        high = max(finite.max() if finite.size else -np.inf, thresholds.max())
        # one unit beyond, or more where one is below their rounding: parameters of 1e300
        # give log densities of 1e287 (all rounding), where low - 1 == low
        low, high = low - max(1.0, 1e-9 * abs(low)), high + max(1.0, 1e-9 * abs(high))
        log_density = np.nan_to_num(log_density, nan=high, posinf=high, neginf=low)
        xy = points @ _CORNERS
        triangulation = mtri.Triangulation(xy[:, 0], xy[:, 1])
        increasing = thresholds[::-1]  # the largest mass has the lowest density
        colors = colormaps["Blues"](np.linspace(0.3, 0.85, len(increasing)))
        filled = ax.tricontourf(triangulation, log_density, levels=[*increasing, high],
                                colors=colors)
        ax.tricontour(triangulation, log_density, levels=list(increasing), colors="0.15",
                      linewidths=0.6, linestyles="solid")
        if np.ptp(self.alpha[k]) == 0 and self.alpha[k, 0] == 1:
            ax.text(0.5, 0.12, "uniform density:\nno region is denser", ha="center",
                    va="center", fontsize="x-small")
        _draw_triangle(ax, vertex_labels)
        mean, mode = self.mean_[k] @ _CORNERS, self.mode_[k] @ _CORNERS
        ax.plot(*mean, "o", color="tab:orange", markersize=3.5, markeredgecolor="black",
                markeredgewidth=0.5, zorder=5)
        ax.plot(*mode, "x", color="tab:red", markersize=4, markeredgewidth=1.2, zorder=5)
        ax.set_title(f"actual {short_names([row_label])[0]}", fontsize="medium")
        ax.text(0.5, -0.13, _caption(vertex_labels, self.mean_[k], self.mode_[k]),
                ha="center", va="top", fontsize="x-small", family="monospace")
        return filled


def _caption(vertex_labels, mean, mode):
    """The mean and the mode of a panel, one line per predicted class, named: the
    numbers of a triangle's point say nothing without the corners they belong to."""
    names = short_names(vertex_labels)
    width = max(map(len, names))
    return "\n".join([f"{'':{width}}   mean   mode"] + [
        f"{name:>{width}}  {m:.3f}  {o:.3f}" for name, m, o in zip(names, mean, mode)])


def _grid_of_panels(container, n_panels, n_columns, n_lines):
    """``n_panels`` Axes, ``n_columns`` to a line; the unused places of the last line are
    removed."""
    axes = container.subplots(n_lines, n_columns, squeeze=False).ravel()
    for extra in axes[n_panels:]:
        extra.remove()
    return axes[:n_panels]


def _draws(alpha):
    """Posterior draws of one row, with the fixed seed that makes the picture reproducible.

    Parameters all below 1e-6 put the mass at the vertices (NumPy's sampler does not
    return for them); draws are kept off the boundary's exact zeros by rounding, which
    ``dirichlet_logpdf`` reads as infinite densities."""
    rng = np.random.default_rng(0)
    if alpha.max() < 1e-6:
        return np.eye(3)[rng.choice(3, size=_N_DRAWS, p=alpha / alpha.sum())]
    return rng.dirichlet(alpha, _N_DRAWS)


def _log_density_levels(draws, alpha, levels):
    """The log density bounding each highest-density region (``levels`` increasing, the
    result decreasing): the region of mass ``p`` is where the density exceeds its
    ``1 - p`` quantile over the posterior's draws. Infinite densities (draws on the
    boundary where a parameter is below 1) are capped above the finite ones."""
    log_density = dirichlet_logpdf(draws, alpha)
    log_density[np.isnan(log_density)] = np.inf  # a corner: infinite along one side
    finite = log_density[np.isfinite(log_density)]
    cap = finite.max() + 1 if finite.size else 0.0
    thresholds = np.quantile(np.minimum(log_density, cap), 1 - levels)
    # Contour levels must differ: ties (a flat density, as the uniform Dirichlet(1, 1, 1))
    # are split by the least steps, the larger mass keeping the lower level.
    for i in range(len(thresholds) - 2, -1, -1):
        step = 1e-9 * max(1.0, abs(thresholds[i + 1]))
        thresholds[i] = max(thresholds[i], thresholds[i + 1] + step)
    return thresholds


def _grid_points(draws):
    """Barycentric points where the density is evaluated: a lattice of the triangle, and
    a finer one over the box of the draws when they fill little of it (a concentrated
    posterior), without duplicates."""
    lattice = _lattice(np.zeros(3), 1.0, _GRID)
    low, high = np.quantile(draws, [0.0005, 0.9995], axis=0)
    width = float((high - low).max())
    if width < 0.3:
        pad = 0.25 * width + 1e-12
        corner = np.maximum(low - pad, 0)
        lattice = np.vstack([lattice, _lattice(corner, width + 2 * pad, 80)])
    inside = (lattice >= 0).all(axis=1) & (lattice[:, :2].sum(axis=1) <= 1)
    lattice = lattice[inside]
    lattice[:, 2] = np.maximum(1 - lattice[:, 0] - lattice[:, 1], 0)
    return np.unique(lattice.round(15), axis=0)


def _lattice(corner, side, n):
    """Points ``corner + side * (i, j, .) / n`` with ``i + j <= n`` (the third coordinate
    is set by the caller)."""
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = (i + j) <= n
    points = np.zeros((int(keep.sum()), 3))
    points[:, 0] = corner[0] + side * i[keep] / n
    points[:, 1] = corner[1] + side * j[keep] / n
    return points


def _draw_triangle(ax, vertex_labels):
    """The triangle's sides, faint lines where a probability is 0.2, 0.4, 0.6 or 0.8, and
    each vertex's name beside it."""
    ax.fill(*_CORNERS.T, facecolor="none", edgecolor="black", linewidth=1, zorder=4)
    for value in (0.2, 0.4, 0.6, 0.8):
        for j in range(3):  # the line where the probability of vertex j is `value`
            ends = np.full((2, 3), 0.0)
            ends[:, j] = value
            ends[0, (j + 1) % 3] = 1 - value
            ends[1, (j + 2) % 3] = 1 - value
            ax.plot(*(ends @ _CORNERS).T, color="0.6", linewidth=0.4, alpha=0.6, zorder=1)
    # The names below the bottom corners run inward, within the panel (20 characters at
    # most each, side by side); the top corner's is centered above it.
    names = short_names(vertex_labels)
    ax.text(-0.1, -0.03, names[0], ha="left", va="top", fontsize="small")
    ax.text(1.1, -0.03, names[1], ha="right", va="top", fontsize="small")
    ax.text(*_CORNERS[2] + [0, 0.03], names[2], ha="center", va="bottom", fontsize="small")
    ax.set(xlim=(-0.3, 1.3), ylim=(-0.3, 0.95))
    ax.set_aspect("equal")
    ax.axis("off")


def _legend(ax, levels):
    """The regions' masses and the two markers, in the empty upper left of the panel."""
    from matplotlib import colormaps
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    colors = colormaps["Blues"](np.linspace(0.3, 0.85, len(levels)))[::-1]
    handles = [Patch(facecolor=color, edgecolor="0.15", linewidth=0.5,
                     label=f"{level:.0%} region") for color, level in zip(colors, levels)]
    handles += [Line2D([], [], marker="o", color="tab:orange", markeredgecolor="black",
                       markeredgewidth=0.5, markersize=4, linestyle="", label="mean"),
                Line2D([], [], marker="x", color="tab:red", markeredgewidth=1.2,
                       markersize=5, linestyle="", label="mode")]
    ax.legend(handles=handles, loc="upper left", fontsize="x-small", frameon=False,
              handlelength=1.2, borderaxespad=0.0)
