"""The most-confused class pairs of a confusion matrix, as a ranked table.

Beyond a few dozen classes a confusion matrix cannot be read cell by cell; what a person
looks for is the short list of its largest off-diagonal cells: which true class is most
often taken for which other. This is what scikit-learn users keep asking for (its issue
15696, pull request 18706). Every matrix of this library (classic, transport-based, MLCM)
is read the same way: a pair is an off-diagonal cell ``(true i, predicted j)``, directed
(``i`` taken for ``j`` and ``j`` for ``i`` are two pairs).
"""

from collections import namedtuple
from numbers import Real

import numpy as np

from .._core.frames import frame_class_names
from .._core.matrix_checks import check_class_names, check_confusion_matrix
from .._core.params import (
    ARRAY,
    NON_NEGATIVE_INT,
    NORMALIZE,
    POSITIVE_INT,
    Interval,
    validate_params,
)
from .._core.results import Result, _result, _Table

ConfusedPair = namedtuple(
    "ConfusedPair", ["true", "predicted", "count", "fraction_of_true",
                     "fraction_of_predicted"])
ConfusedPair.__doc__ = """One confused pair: the true class, the class it was taken for, the
cell's value, and the cell as a fraction of the true class's row and of the predicted
class's column."""


@_result(kw_only=True, parameters={
    **{name: [ARRAY] for name in ("true", "predicted", "count", "fraction_of_true",
                                  "fraction_of_predicted")},
    "normalize": NORMALIZE, "n_confused": [NON_NEGATIVE_INT],
    "total_confused": [Interval(Real, 0, None)]})
class ConfusedPairsResult(Result):
    """The most-confused class pairs of a confusion matrix, ranked (see
    :func:`most_confused_pairs`).

    Iterating gives one ``ConfusedPair`` named tuple per pair, best ranked first;
    ``to_frame()`` gives the table as a pandas DataFrame.

    Attributes
    ----------
    true, predicted : ndarray
        The true class of each pair and the class it was predicted as.
    count : ndarray of float
        The cell ``c_ij``.
    fraction_of_true : ndarray of float
        ``c_ij / a_i``: the share of true class ``i`` predicted as ``j`` (the cell of the
        matrix normalized with ``normalize="true"``).
    fraction_of_predicted : ndarray of float
        ``c_ij / b_j``: the share of the predictions ``j`` whose true class is ``i``
        (``normalize="pred"``).
    normalize : {None, "true", "pred", "all"}
        What ranks the pairs (None and "all": ``count``).
    n_confused : int
        The number of nonzero off-diagonal cells of the matrix (pairs not shown beyond
        ``top`` included).
    total_confused : float
        The sum of the off-diagonal cells, the errors of the matrix.

    See Also
    --------
    most_confused_pairs : Builds it.

    Examples
    --------
    >>> from sklearn_confusion_ext import most_confused_pairs
    >>> result = most_confused_pairs([[5, 3, 0], [1, 6, 0], [0, 2, 9]],
    ...                              display_labels=["cat", "dog", "fox"], top=2)
    >>> [(pair.true, pair.predicted, pair.count) for pair in result]
    [('cat', 'dog', 3.0), ('fox', 'dog', 2.0)]
    """

    true: np.ndarray
    predicted: np.ndarray
    count: np.ndarray
    fraction_of_true: np.ndarray
    fraction_of_predicted: np.ndarray
    normalize: object = None
    n_confused: int = 0
    total_confused: float = 0.0

    def __iter__(self):
        return (ConfusedPair(*row) for row in zip(
            self.true.tolist(), self.predicted.tolist(), self.count.tolist(),
            self.fraction_of_true.tolist(), self.fraction_of_predicted.tolist()))

    def __len__(self):
        return len(self.count)

    def __getitem__(self, index):
        return list(self)[index]

    def _summary(self):
        return [("shown", len(self)), ("n_confused", self.n_confused),
                ("total_confused", self.total_confused), ("normalize", self.normalize)]

    def _table(self):
        return _Table("rank", range(1, len(self) + 1), {
            "true": list(self.true), "predicted": list(self.predicted),
            "count": self.count, "fraction_of_true": self.fraction_of_true,
            "fraction_of_predicted": self.fraction_of_predicted})


@validate_params({"matrix": [ARRAY], "display_labels": [None, ARRAY],
                  "top": [None, POSITIVE_INT], "normalize": NORMALIZE},
                 renamed={"confusion": "matrix"})
def most_confused_pairs(matrix, *, display_labels=None, top=10, normalize=None):
    """The most-confused class pairs of a confusion matrix, as a ranked table.

    The off-diagonal cells ``(true i, predicted j)`` of the matrix, largest first: the
    classes most often taken for one another, which is what a matrix of a few dozen classes
    or more is read for. Pairs are directed (``i`` taken for ``j`` is not ``j`` for ``i``);
    zero cells are left out. Ties keep the matrix's order (row, then column).

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        A confusion matrix, rows true classes, columns predicted classes: counts, or the
        weighted or fractional matrix of any builder of this library (a labelled
        DataFrame names the classes). Formerly ``confusion``, which still works with a
        ``FutureWarning``.
    display_labels : array-like of shape (n_classes,), default=None
        Names of the classes, in the matrix's order; default ``0 .. n_classes - 1``.
        Distinct, as printed (``1`` and ``"1"`` are one name), as the reports' names.
    top : int or None, default=10
        The most pairs returned; None: every nonzero off-diagonal cell.
    normalize : {None, "true", "pred", "all"}, default=None
        What ranks the pairs, as ``normalize=`` of :func:`sklearn.metrics.confusion_matrix`
        names it: None or "all", the cell itself; "true", its share of the true class
        (``c_ij / a_i``: the classes each class is most often taken for, small classes
        counting as much as large ones); "pred", its share of the predicted class
        (``c_ij / b_j``). Every ranking gives the three values.

    Returns
    -------
    ConfusedPairsResult
        Iterates as ``ConfusedPair`` named tuples ``(true, predicted, count,
        fraction_of_true, fraction_of_predicted)``; ``to_frame()`` gives a DataFrame; its
        repr prints the table.

    Raises
    ------
    ValueError
        When ``display_labels`` repeat a name, or the errors (the off-diagonal cells) total
        beyond the float64 range (about 1.8e308: divide the matrix by a constant). Cells
        that large are otherwise read as any: the fractions are exact.

    See Also
    --------
    sklearn.metrics.confusion_matrix : The matrix of 1-D labels.
    transport_confusion_matrix : The matrix of multi-label and soft targets.
    ConfusedPairsResult : The result.
    prevalence_ranking_breaks : The cells that break the test-training ranking.

    Examples
    --------
    >>> from sklearn.metrics import confusion_matrix
    >>> from sklearn_confusion_ext import most_confused_pairs
    >>> y_true = ["cat", "cat", "cat", "dog", "dog", "fox", "fox", "fox"]
    >>> y_pred = ["cat", "dog", "dog", "dog", "cat", "fox", "fox", "dog"]
    >>> labels = ["cat", "dog", "fox"]
    >>> result = most_confused_pairs(confusion_matrix(y_true, y_pred, labels=labels),
    ...                              display_labels=labels)
    >>> result
    ConfusedPairsResult(shown=3, n_confused=3, total_confused=4.0, normalize=None)
    rank  true  predicted  count  fraction_of_true  fraction_of_predicted
    1      cat        dog      2            0.6667                   0.50
    2      dog        cat      1            0.5000                   0.50
    3      fox        dog      1            0.3333                   0.25
    >>> result[0]
    ConfusedPair(true='cat', predicted='dog', count=2.0, fraction_of_true=0.6666666666666666, \
fraction_of_predicted=0.5)
    >>> most_confused_pairs(confusion_matrix(y_true, y_pred, labels=labels),
    ...                     display_labels=labels, normalize="true", top=1)[0].true
    'cat'
    """
    frame = matrix
    matrix = check_confusion_matrix(matrix, "matrix")
    if display_labels is None:
        display_labels = frame_class_names(frame, "matrix")
    names = np.asarray(check_class_names(display_labels, matrix.shape[0], "display_labels",
                                       "The pairs are keyed by class name"), dtype=object)
    rows, columns = np.nonzero(matrix * (1 - np.eye(matrix.shape[0], dtype=bool)))
    counts = matrix[rows, columns]
    of_true = _shares(matrix, rows, columns, axis=1)
    of_predicted = _shares(matrix, rows, columns, axis=0)
    total_confused = _total(counts)
    if not np.isfinite(total_confused):
        raise ValueError("The off-diagonal cells of matrix (its errors) total beyond the "
                         "float64 range; divide matrix by a constant (the pairs' ranking "
                         "and fractions do not change).")
    key = {"true": of_true, "pred": of_predicted}.get(normalize, counts)
    order = np.argsort(-key, kind="stable")[:top]
    return ConfusedPairsResult(
        true=names[rows[order]], predicted=names[columns[order]],
        count=counts[order].astype(np.float64), fraction_of_true=of_true[order],
        fraction_of_predicted=of_predicted[order], normalize=normalize,
        n_confused=int(len(counts)), total_confused=total_confused)


def _shares(matrix, rows, columns, axis):
    """Each cell ``(rows, columns)`` as a fraction of its row's (``axis=1``) or column's
    (``axis=0``) total. Each row (column) is first scaled by a power of two to a largest
    cell in [0.5, 1): exact, so the fractions are those of the plain sums, and totals of
    cells near the float64 maximum no longer overflow (their fractions were 0)."""
    _, exponents = np.frexp(matrix.max(axis=axis, keepdims=True))
    scaled = np.ldexp(matrix, -exponents)
    totals = scaled.sum(axis=axis)
    return scaled[rows, columns] / totals[rows if axis == 1 else columns]  # nonzero: a cell


def _total(values):
    """The sum of non-negative ``values``, summed scaled by a power of two: infinite only
    where the sum itself is beyond the float64 range (no NumPy overflow warning)."""
    if not len(values):
        return 0.0
    _, exponent = np.frexp(values.max())
    with np.errstate(over="ignore"):
        return float(np.ldexp(np.ldexp(values, -exponent).sum(), exponent))
