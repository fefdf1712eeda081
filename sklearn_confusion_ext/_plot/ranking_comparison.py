"""Bar charts comparing how confusion matrices rank the classes by F1-score."""

from collections.abc import Mapping
from string import ascii_uppercase

import numpy as np

from .._core.docs import fill_doc
from .._core.matrix_checks import check_confusion_matrix
from .._core.params import ARRAY, check_params, quoted, validate_params
from .._core.renames import RenamedAttributes, renamed_constructor
from .._reading.rankings import _f1_scores, f1_ranking_disorder
from .data_checks import display_array
from .declarations import FIGSIZE, PANELS_AX
from .layout import bounding_axes, panel_axes, set_class_ticks, short_names
from .matplotlib_check import check_matplotlib

# Up to this many classes the bars stand (names below them); above, they lie (names beside
# them, written horizontally).
_MAX_CLASSES_STANDING = 10

_DOCS = {"panels": """\
ax : matplotlib Axes, sequence of Axes, Figure or SubFigure, default=None
    Where to draw the panels: one Axes is the box they are drawn in (hidden, and kept as
    ``bounding_ax_``, as scikit-learn's ``PartialDependenceDisplay`` does); two Axes
    (left, right) for two matrices, ``k * k`` Axes (row by row) for the grid of ``k``
    matrices, or a Figure or SubFigure that is filled with them; another number of Axes
    raises ``ValueError``. By default a new figure
    sized to the number of classes and matrices (at most 12 x 10 inches for two, 14 x 14
    for a grid).
figsize : tuple of two floats, default=None
    Size in inches of the new figure (not with ``ax``).""",
}


class RankingComparisonDisplay(RenamedAttributes):
    """F1 re-ordering bar charts of confusion matrices (Erbani et al. 2024, Figures 6-7).

    Two matrices: left, the first matrix's F1-scores in the order of the second's ranking;
    right, the converse. Ordered charts mean the two matrices rank the classes alike; the
    titles give the F1 ranking disorder Delta of eq. (52).

    ``k`` matrices (``f1_b=None``, :meth:`from_confusion` of three or more): the ``k x k`` grid of
    Figures 6 and 7, panel ``(i, j)`` the F1-scores of matrix ``i`` in the order of
    matrix ``j``'s ranking, with ``Delta(M_i, M_j)`` in each off-diagonal panel; the
    diagonal shows each matrix's own F1-scores, sorted.

    Parameters
    ----------
    f1_a : ndarray of shape (n_classes,) or (n_matrices, n_classes)
        Per-class F1-scores of the first matrix; or, with ``f1_b=None``, those of every
        matrix, one row each (at least two rows).
    f1_b : ndarray of shape (n_classes,), default=None
        Per-class F1-scores of the second matrix.
    models : sequence of str, default=None
        Names of the matrices (the models they are of), in the titles; "A", "B", ... by
        default. (``names``, its former name, works with a ``FutureWarning`` until 0.2.)
    display_labels : list, default=None
        Class names; class indices by default.

    Attributes
    ----------
    models : tuple of str
        The matrices' names (``names`` reads it with a ``FutureWarning`` until 0.2).
    f1_a, f1_b : ndarray
        The F1-scores as given (``f1_b`` None for a grid).
    f1_scores : ndarray of shape (n_matrices, n_classes)
        The F1-scores of every matrix, one row each.
    delta_ab, delta_ba : float
        The F1 ranking disorders of two matrices (set by :meth:`from_confusion` of two
        matrices; in the titles).
    deltas : ndarray of shape (n_matrices, n_matrices)
        ``deltas[i, j]`` is ``Delta(M_i, M_j)`` (set by :meth:`from_confusion`; in the
        grid's panels).
    figure_ : matplotlib Figure
        The figure drawn on.
    axes_ : ndarray of matplotlib Axes
        The two panels, or the ``(k, k)`` grid of panels. With two matrices, up to 10
        classes the bars stand, class names below them; above, the bars lie, class names
        beside them, the highest-ranked class on top. In a grid the bars stand, class
        names below them up to 10 classes.
    bounding_ax_ : matplotlib Axes or None
        The one Axes given as ``ax`` for several panels, hidden; None otherwise.

    See Also
    --------
    f1_ranking_disorder : Delta of two matrices.
    TransportConfusionMatrixDisplay : The matrices themselves.
    ClassDistributionDisplay : The class distributions behind the rankings.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Section VII-C (the F1-score criterion, the ranking
       disorder Delta of eq. (52)) and Figures 6 and 7.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import RankingComparisonDisplay
    >>> a = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
    >>> b = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
    >>> display = RankingComparisonDisplay.from_confusion([a, b], models=("TCM", "MLCM"))
    >>> round(display.delta_ab, 3)
    113.537

    Three matrices, every pair:

    >>> c = [[6, 3, 1], [2, 6, 2], [1, 1, 8]]
    >>> display = RankingComparisonDisplay.from_confusion({"a": a, "b": b, "c": c})
    >>> display.axes_.shape, display.deltas.round(1)
    ((3, 3), array([[  0. , 113.5,  58.2],
           [ 78.2,   0. ,  78.2],
           [ 43.6,  54.1,   0. ]]))
    """

    _renamed_fields = {"names": "models"}
    # The former constructors: the pair and the grid are from_confusion's.
    _renamed_constructors = {"from_matrices": "from_confusion",
                             "from_matrices_pairwise": "from_confusion"}

    @validate_params({"f1_a": [ARRAY], "f1_b": [None, ARRAY], "models": [None, ARRAY],
                      "display_labels": [None, ARRAY]}, renamed=_renamed_fields)
    def __init__(self, f1_a, f1_b=None, *, models=None, display_labels=None):
        self.f1_a = display_array(f1_a, "f1_a", ndim=None,
                                  bounds=(0, 1), what="F1-scores")
        self.f1_b = None if f1_b is None else display_array(f1_b, "f1_b", ndim=None,
                                                            bounds=(0, 1), what="F1-scores")
        if self.f1_b is None:
            if self.f1_a.ndim != 2 or self.f1_a.shape[0] < 2:
                raise ValueError(f"Without f1_b, f1_a must hold the F1-scores of at least "
                                 f"two matrices, one row each; got shape {self.f1_a.shape}.")
            self.f1_scores = self.f1_a
        else:
            if self.f1_a.shape != self.f1_b.shape or self.f1_a.ndim != 1:
                raise ValueError(f"f1_a and f1_b must be 1-D arrays of the same length; got "
                                 f"shapes {self.f1_a.shape} and {self.f1_b.shape}.")
            self.f1_scores = np.stack([self.f1_a, self.f1_b])
        n_matrices = len(self.f1_scores)
        if models is None:
            models = (ascii_uppercase[:n_matrices] if n_matrices <= len(ascii_uppercase)
                      else [f"M{k + 1}" for k in range(n_matrices)])
        self.models, self.display_labels = tuple(str(name) for name in models), display_labels
        if len(self.models) != n_matrices:
            raise ValueError(f"models must hold {n_matrices} names, one per matrix; got "
                             f"{len(self.models)}.")

    @classmethod
    @validate_params({"matrices": [ARRAY, dict], "models": [None, ARRAY],
                      "display_labels": [None, ARRAY], **PANELS_AX, **FIGSIZE},
                     renamed={"names": "models"})
    @fill_doc(_DOCS)
    def from_confusion(cls, matrices, *, models=None, display_labels=None, ax=None,
                       figsize=None):
        """Compare how confusion matrices rank the classes by F1-score, then plot.

        Two matrices: the two re-ordered bar charts, each matrix's F1-scores in the order of
        the other's ranking, with the F1 ranking disorders Delta of eq. (52) of Erbani et
        al. (2024) in the titles. Three or more: the grid of Figures 6 and 7, panel
        ``(i, j)`` the F1-scores of matrix ``i`` in the order of matrix ``j``'s ranking
        (decreasing F1-scores), with ``Delta(M_i, M_j)`` in the panel; the diagonal panels
        are each matrix's own F1-scores, sorted.

        Parameters
        ----------
        matrices : sequence of array-like of shape (n_classes, n_classes), or dict
            At least two confusion matrices over the same classes, rows true and
            columns predicted classes; a dict maps each matrix's name to it.
        models : sequence of str, default=None
            Names of the matrices (not with a dict, whose keys are the names); "A",
            "B", ... by default. (``names``, its former name, works with a
            ``FutureWarning`` until 0.2.)
        display_labels : list of str, default=None
            Class names; class indices by default.
        %(panels)s

        Returns
        -------
        display : RankingComparisonDisplay
            With ``f1_scores``, ``deltas``, ``figure_`` and ``axes_`` (two panels, or the
            grid); of two matrices, ``f1_a``, ``f1_b``, ``delta_ab`` and ``delta_ba``.

        See Also
        --------
        f1_ranking_disorder : Delta of two matrices.
        prevalence_ranking_breaks : Where a matrix ordered by prevalence breaks its order.
        TransportConfusionMatrixDisplay : The matrices themselves, with
            ``order="test-training"``.
        ClassDistributionDisplay : The class distributions behind the rankings.

        References
        ----------
        .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E., and Nurbakova, D. (2024).
           Confusion matrices: a unified theory. IEEE Access 12, Section VII-B, eq. (52),
           Figures 6 and 7.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import (RankingComparisonDisplay,
        ...                                    transport_confusion_matrix)
        >>> a = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
        >>> b = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
        >>> display = RankingComparisonDisplay.from_confusion(
        ...     [a, b], models=("TCM", "MLCM"), display_labels=["x", "y", "z"])
        >>> [tick.get_text() for tick in display.axes_[0].get_xticklabels()]
        ['y', 'z', 'x']

        Three weightings of one prediction, every pair:

        >>> y_true = [[1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1]]
        >>> y_pred = [[1, 0, 0], [0, 1, 1], [0, 0, 1], [1, 1, 1]]
        >>> matrices = {weighting: transport_confusion_matrix(
        ...     y_true, y_pred, weighting=weighting, empty="error")
        ...     for weighting in ("uniform", "true", "pred")}
        >>> display = RankingComparisonDisplay.from_confusion(matrices)
        >>> display.models, display.deltas.shape
        (('uniform', 'true', 'pred'), (3, 3))
        """
        return cls._from_matrices(matrices, models, display_labels, ax, figsize,
                                  grid=None)

    @classmethod
    def _from_matrices(cls, matrices, models, display_labels, ax, figsize, *, grid):
        """The Display of ``matrices``: the pair of charts, or the grid (``grid=None``:
        the grid of three matrices or more)."""
        if isinstance(matrices, Mapping):
            if models is not None:
                raise ValueError("models are the keys of the matrices' dict; pass a list of "
                                 "matrices to name them with models=.")
            models, matrices = list(matrices.keys()), list(matrices.values())
        if isinstance(matrices, np.ndarray) and matrices.ndim == 3:
            matrices = list(matrices)
        if isinstance(matrices, (str, bytes)) or not hasattr(matrices, "__len__") \
                or len(matrices) < 2:
            raise ValueError("matrices must hold at least two confusion matrices (a list, "
                             "or a dict of name: matrix).")
        checked = [check_confusion_matrix(matrix, f"matrices[{k}]")
                   for k, matrix in enumerate(matrices)]
        if len({matrix.shape for matrix in checked}) > 1:
            raise ValueError(f"matrices must be over the same classes; got shapes "
                             f"{[matrix.shape for matrix in checked]}.")
        if grid is None:
            grid = len(checked) > 2
        if not grid:
            if len(checked) != 2:
                raise ValueError(f"The pair of charts compares two matrices; got "
                                 f"{len(checked)}.")
            first, second = checked
            display = cls(_f1_scores(first), _f1_scores(second), models=models,
                          display_labels=display_labels)
            display.delta_ab = f1_ranking_disorder(first, second)
            display.delta_ba = f1_ranking_disorder(second, first)
            display.deltas = np.array([[0.0, display.delta_ab], [display.delta_ba, 0.0]])
            return display.plot(ax=ax, figsize=figsize)
        display = cls(np.stack([_f1_scores(matrix) for matrix in checked]), models=models,
                      display_labels=display_labels)
        display.deltas = np.array([[0.0 if i == j else f1_ranking_disorder(first, second)
                                    for j, second in enumerate(checked)]
                                   for i, first in enumerate(checked)])
        return display.plot(ax=ax, figsize=figsize)

    # Deprecated: two matrices as two arguments (the pair of charts), and every pair in a
    # grid (also of two matrices).
    from_matrices = renamed_constructor(
        "from_matrices", "from_confusion",
        lambda matrix_a, matrix_b, *, names=("A", "B"), display_labels=None, ax=None,
        figsize=None: (([matrix_a, matrix_b],), {"models": _two_names(names),
                                                  "display_labels": display_labels,
                                                  "ax": ax, "figsize": figsize}))
    from_matrices_pairwise = renamed_constructor(
        "from_matrices_pairwise", "from_confusion", target="_grid")

    @classmethod
    def _grid(cls, matrices, *, names=None, display_labels=None, ax=None, figsize=None):
        """The grid of every pair, of two matrices too (the former
        ``from_matrices_pairwise``), its arguments checked as ``from_confusion``'s."""
        keywords = {"matrices": matrices, "models": names, "display_labels": display_labels,
                    "ax": ax, "figsize": figsize}
        check_params(f"{cls.__name__}.from_matrices_pairwise", keywords,
                     cls.from_confusion.parameter_constraints)
        return cls._from_matrices(matrices, names, display_labels, ax, figsize, grid=True)

    @validate_params({**PANELS_AX, **FIGSIZE})
    @fill_doc(_DOCS)
    def plot(self, *, ax=None, figsize=None):
        """Draw the two re-ordered bar charts, or the grid of every pair.

        Parameters
        ----------
        %(panels)s

        Returns
        -------
        self
            With ``figure_`` and ``axes_`` (the two panels, or the grid).

        See Also
        --------
        RankingComparisonDisplay.from_confusion : Read the F1-scores off matrices, then draw.

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
        n_classes = self.f1_scores.shape[1]
        labels = ([str(k) for k in range(n_classes)] if self.display_labels is None
                  else [str(name) for name in self.display_labels])
        if len(labels) != n_classes:
            raise ValueError(f"display_labels has {len(labels)} names for {n_classes} "
                             f"classes; pass {n_classes} names.")
        if self.f1_b is None:
            return self._plot_grid(labels, ax, figsize)
        standing = n_classes <= _MAX_CLASSES_STANDING
        longest = max(len(label) for label in short_names(labels))
        size = ((min(max(8, 0.5 * n_classes + 5), 12), 3.5 + 0.07 * longest) if standing
                else (min(8 + 0.1 * longest, 12), min(1.5 + 0.22 * n_classes, 10)))
        fig, axes = panel_axes(ax, 2, "A ranked by B, B ranked by A", figsize, size,
                               lambda container: container.subplots(1, 2).ravel())
        self.bounding_ax_ = bounding_axes(ax, 2)
        (name_a, name_b) = self.models
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

    def _plot_grid(self, labels, ax, figsize):
        """The ``k x k`` grid: panel ``(i, j)`` is matrix ``i``'s F1-scores ranked by
        matrix ``j``; matrices name the rows (left) and the rankings the columns (top)."""
        k, n_classes = self.f1_scores.shape
        named = n_classes <= _MAX_CLASSES_STANDING
        longest = max(len(label) for label in short_names(labels)) if named else 0
        side = min(1.0 + (2.2 + 0.06 * longest if named else 1.9) * k, 14)
        fig, axes = panel_axes(ax, k * k, f"a grid of {k} x {k}", figsize, (side, side),
                               lambda container: container.subplots(k, k).ravel())
        self.bounding_ax_ = bounding_axes(ax, k * k)
        deltas = getattr(self, "deltas", None)
        orders = [np.argsort(-scores, kind="stable") for scores in self.f1_scores]
        for index, panel in enumerate(axes):
            i, j = divmod(index, k)
            order = orders[j]
            panel.bar(np.arange(n_classes), self.f1_scores[i][order],
                      color="tab:blue" if i != j else "tab:gray", width=0.8)
            panel.set_ylim(0, 1.05)
            panel.set_xlim(-0.6, n_classes - 0.4)
            if named:
                set_class_ticks(panel, "x", [labels[c] for c in order])
            else:
                panel.set_xticks([])
            if j:
                panel.tick_params(axis="y", labelleft=False)
            else:
                panel.set_ylabel(f"F1 of {self.models[i]}")
            if i == 0:
                panel.set_title(f"ranked by {self.models[j]}", fontsize="medium")
            if deltas is not None and i != j:
                panel.text(0.97, 0.95, f"\u0394 = {deltas[i, j]:.1f}",
                           transform=panel.transAxes, ha="right", va="top",
                           fontsize="small", bbox={"facecolor": "white", "alpha": 0.8,
                                                   "edgecolor": "none", "pad": 1.5})
        self.figure_ = fig
        self.axes_ = np.asarray(axes, dtype=object).reshape(k, k)
        return self


def _two_names(names):
    """The names of the former ``from_matrices``: two."""
    if names is None or len(names) != 2:
        raise ValueError(f"names must hold two names; got {quoted(names)}.")
    return names
