"""Bar charts comparing how two confusion matrices rank the classes by F1-score."""

import numpy as np

from .._core.params import validate_params
from .._core.validation import check_confusion_matrix
from .._reading import _f1_scores, f1_ranking_disorder
from .docs import fill_doc
from .layout import panel_axes, set_class_ticks, short_names
from .matplotlib_check import check_matplotlib

# Up to this many classes the bars stand (names below them); above, they lie (names beside
# them, written horizontally).
_MAX_CLASSES_STANDING = 10

_DOCS = {"panels": """\
ax : sequence of two matplotlib Axes, Figure or SubFigure, default=None
    Where to draw the two panels: two Axes (left, right), or a Figure or SubFigure that
    is filled with them; a single Axes raises ``ValueError``. By default a new figure
    sized to the number of classes (at most 12 x 10 inches).
figsize : tuple of two floats, default=None
    Size in inches of the new figure (not with ``ax``).""",
}


class RankingComparisonDisplay:
    """F1 re-ordering bar charts of two confusion matrices (Erbani et al. 2024, Figures 6-7).

    Left: ``matrix_a``'s F1-scores in the order of ``matrix_b``'s ranking; right: the
    converse. Ordered charts mean the two matrices rank the classes alike; the titles give
    the F1 ranking disorder Delta of eq. (52).

    Parameters
    ----------
    f1_a, f1_b : ndarray of shape (n_classes,)
        Per-class F1-scores of the two matrices.
    names : tuple of str, default=("A", "B")
        Names of the two matrices, in the titles.
    display_labels : list, default=None
        Class names; class indices by default.

    Attributes
    ----------
    f1_a, f1_b : ndarray of shape (n_classes,)
        The F1-scores drawn.
    delta_ab, delta_ba : float
        The F1 ranking disorders (set by :meth:`from_matrices`; in the titles).
    figure_ : matplotlib Figure
        The figure drawn on.
    axes_ : ndarray of two matplotlib Axes
        The two panels. Up to 10 classes the bars stand, class names below them; above,
        the bars lie, class names beside them, the highest-ranked class on top.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import RankingComparisonDisplay
    >>> a = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
    >>> b = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
    >>> display = RankingComparisonDisplay.from_matrices(a, b, names=("TCM", "MLCM"))
    >>> round(display.delta_ab, 3)
    113.537
    """

    @validate_params("RankingComparisonDisplay")
    def __init__(self, f1_a, f1_b, *, names=("A", "B"), display_labels=None):
        self.f1_a, self.f1_b = np.asarray(f1_a), np.asarray(f1_b)
        self.names, self.display_labels = tuple(names), display_labels

    @classmethod
    @validate_params()
    @fill_doc(_DOCS)
    def from_matrices(cls, matrix_a, matrix_b, *, names=("A", "B"), display_labels=None,
                      ax=None, figsize=None):
        """Compare two confusion matrices over the same classes, then plot.

        Parameters
        ----------
        matrix_a, matrix_b : array-like of shape (n_classes, n_classes)
            The two confusion matrices, rows true and columns predicted classes.
        names : tuple of two str, default=("A", "B")
            Names of the two matrices, in the titles.
        display_labels : list of str, default=None
            Class names; class indices by default.
        %(panels)s

        Returns
        -------
        display : RankingComparisonDisplay
            With ``f1_a``, ``f1_b``, ``delta_ab``, ``delta_ba``, ``figure_`` and ``axes_``.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import RankingComparisonDisplay
        >>> a = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
        >>> b = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
        >>> display = RankingComparisonDisplay.from_matrices(
        ...     a, b, names=("TCM", "MLCM"), display_labels=["x", "y", "z"])
        >>> [tick.get_text() for tick in display.axes_[0].get_xticklabels()]
        ['y', 'z', 'x']
        """
        if len(names) != 2:
            raise ValueError(f"names must hold two names; got {names!r}.")
        first = check_confusion_matrix(matrix_a, "matrix_a")
        second = check_confusion_matrix(matrix_b, "matrix_b")
        display = cls(_f1_scores(first), _f1_scores(second), names=names,
                      display_labels=display_labels)
        display.delta_ab = f1_ranking_disorder(first, second)
        display.delta_ba = f1_ranking_disorder(second, first)
        return display.plot(ax=ax, figsize=figsize)

    @validate_params()
    @fill_doc(_DOCS)
    def plot(self, *, ax=None, figsize=None):
        """Draw the two re-ordered bar charts.

        Parameters
        ----------
        %(panels)s

        Returns
        -------
        self
            With ``figure_`` and ``axes_`` (the two panels).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_confusion_ext import RankingComparisonDisplay
        >>> display = RankingComparisonDisplay([0.9, 0.5, 0.7], [0.8, 0.6, 0.4])
        >>> display = display.plot(figsize=(6, 3))
        >>> [tick.get_text() for tick in display.axes_[1].get_xticklabels()]
        ['0', '2', '1']
        >>> fig = plt.figure()
        >>> left, right = fig.subfigures(1, 2)
        >>> display = display.plot(ax=right)  # a SubFigure takes both panels
        >>> len(right.axes), len(left.axes)
        (2, 0)
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        n_classes = len(self.f1_a)
        labels = ([str(k) for k in range(n_classes)] if self.display_labels is None
                  else [str(name) for name in self.display_labels])
        if len(labels) != n_classes:
            raise ValueError(f"display_labels has {len(labels)} names for {n_classes} "
                             f"classes; pass {n_classes} names.")
        standing = n_classes <= _MAX_CLASSES_STANDING
        longest = max(len(label) for label in short_names(labels))
        size = ((min(max(8, 0.5 * n_classes + 5), 12), 3.5 + 0.07 * longest) if standing
                else (min(8 + 0.1 * longest, 12), min(1.5 + 0.22 * n_classes, 10)))
        fig, axes = panel_axes(ax, 2, "A ranked by B, B ranked by A", figsize, size,
                               lambda container: container.subplots(1, 2).ravel())
        (name_a, name_b) = self.names
        panels = ((self.f1_a, np.argsort(-self.f1_b, kind="stable"), name_a, name_b,
                   getattr(self, "delta_ab", None)),
                  (self.f1_b, np.argsort(-self.f1_a, kind="stable"), name_b, name_a,
                   getattr(self, "delta_ba", None)))
        for k, (panel, (scores, order, shown, ranking, delta)) in enumerate(zip(axes, panels)):
            names = [labels[i] for i in order]
            if standing:
                panel.bar(np.arange(n_classes), scores[order], color="tab:blue")
                set_class_ticks(panel, "x", names)
                panel.set(ylabel="F1-score" if k == 0 else "", ylim=(0, 1.05))
            else:
                panel.barh(np.arange(n_classes), scores[order], color="tab:blue")
                set_class_ticks(panel, "y", names)
                panel.set(xlabel="F1-score", xlim=(0, 1.05), ylim=(n_classes - 0.5, -0.5))
            title = f"F1 of {shown}, ranked by {ranking}"
            panel.set_title(title if delta is None else f"{title}\nDelta = {delta:.1f}",
                            fontsize="medium")
        self.figure_, self.axes_ = fig, np.asarray(axes, dtype=object)
        return self
