"""Rankings of the classes of a confusion matrix, for reading it (Erbani et al. 2024,
Sections VI-VII).

The test-training ranking orders rows by prevalence in the test labels and columns by
prevalence in the training labels (Section VI-A); in the matrix so reordered the values are
expected to decrease to the right and downwards: a diagonal entry is expected to be higher
than the next one, and an off-diagonal entry, diagonal entries ignored, higher than the one
to its right or below it, so the cells higher than the cell before them stand out. The F1
ranking disorder ``Delta`` (eq. 52) measures how differently two matrices rank the classes
by F1-score.
"""

import numpy as np

from .._core.confusion import class_counts
from .._core.matrix_checks import check_confusion_matrix
from .._core.params import ARRAY, quoted, validate_params
from .._core.targets import check_target_set


@validate_params({"y_test": [ARRAY], "y_train": [None, ARRAY], "labels": [None, ARRAY]})
def prevalence_ranking(y_test, y_train=None, *, labels=None):
    """Test-training ranking of the classes (Section VI-A).

    Rows are ordered by prevalence in the test labels and columns by
    prevalence in the training labels, most common first, so that in a
    matrix reordered this way values are expected to decrease to the right
    and downwards; entries that break this order stand out.

    Parameters
    ----------
    y_test : array-like or sparse matrix
        Test labels: 1-D class labels, or 2-D indicator or soft labels.
    y_train : array-like or sparse matrix, default=None
        Training labels of the same kind; without them both orders follow
        ``y_test``.
    labels : array-like, default=None
        The classes to rank (1-D targets: class labels; 2-D: column indices),
        as in :func:`transport_confusion_matrix`. By default all classes,
        sorted.

    Returns
    -------
    row_order : ndarray of int
        Positions into the labels, by decreasing test prevalence.
    column_order : ndarray of int
        Positions into the labels, by decreasing training prevalence.
        Ties keep label order.

    See Also
    --------
    prevalence_ranking_breaks : The cells that break this ranking.
    f1_ranking_disorder : How differently two matrices rank the classes by F1.
    TransportConfusionMatrixDisplay : ``order="test-training"`` draws the ranked matrix.

    Notes
    -----
    Prevalence is the number of instances carrying the class for 1-D and
    multi-label targets, and the total mass of the class for soft labels.

    References
    ----------
    J. Erbani, P.-É. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access 12, 2024, doi:10.1109/ACCESS.2024.3507199: Section VI-A
    (the test-training ranking).

    Examples
    --------
    >>> from sklearn_confusion_ext import prevalence_ranking
    >>> rows, columns = prevalence_ranking(["a", "b", "b", "c"], ["c", "c", "a", "b", "c"])
    >>> rows, columns
    (array([1, 0, 2]), array([2, 0, 1]))
    >>> matrix = [[1, 0, 0], [0, 2, 0], [0, 0, 1]]
    >>> import numpy as np
    >>> np.asarray(matrix)[np.ix_(rows, columns)]
    array([[0, 0, 2],
           [0, 1, 0],
           [1, 0, 0]])
    """
    named = {"y_test": y_test} if y_train is None else {"y_test": y_test, "y_train": y_train}
    target_set = check_target_set(named, labels)
    selection = target_set.selection
    if selection is None:
        selection = np.arange(len(target_set.classes))
    orders = []
    for mass in target_set.masses:
        largest = mass.max()  # the ranking is scale-free: sums of mass / largest stay finite
        if largest > 0:
            mass = mass / largest
        prevalence = np.asarray(mass.sum(axis=0)).ravel()[selection]
        orders.append(np.argsort(-prevalence, kind="stable"))
    return orders[0], orders[-1]


@validate_params({"matrix": [ARRAY], "row_order": [None, ARRAY], "column_order": [None, ARRAY]},
                 renamed={"confusion_matrix": "matrix"})
def prevalence_ranking_breaks(matrix, *, row_order=None, column_order=None):
    """Cells that break the test-training ranking of Section VI-A (Erbani et al. 2024).

    In the matrix reordered by ``row_order`` (test prevalence) and ``column_order``
    (training prevalence), as :func:`prevalence_ranking` returns them, the paper expects
    "for diagonal entries, entry ``i`` [...] higher than entry ``i + 1``. For off-diagonal
    entries, ignoring diagonal ones, an entry ``ij`` [...] higher than the one to its
    right or below it". A cell breaks the ranking when it is strictly higher than the cell
    before it:

    - a diagonal cell (true class = predicted class), than the diagonal cell of the row
      above it (the diagonal read in the row order);
    - an off-diagonal cell, than the nearest off-diagonal cell to its left in its row, or
      above it in its column (diagonal cells are skipped).

    As the paper warns, a break does not tell which of the two cells is off: the cell may
    be too high, or the one before it too low; both are returned.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Non-negative confusion matrix, rows true and columns predicted classes, in the
        classes' order (before ranking). Formerly ``confusion_matrix``, which still works
        with a ``FutureWarning``.
    row_order : array-like of int, default=None
        The rows in test-prevalence order (a permutation of the class positions, e.g.
        the first output of :func:`prevalence_ranking`). None: the matrix's order.
    column_order : array-like of int, default=None
        The columns in training-prevalence order. None: ``row_order``.

    Returns
    -------
    cells : ndarray of shape (n_breaks, 2)
        ``(true class, predicted class)`` positions, in ``matrix``, of the cells
        higher than the cell before them, in reading order of the ranked matrix (a cell
        higher than both its left and its upper neighbour appears twice).
    previous : ndarray of shape (n_breaks, 2)
        The position of the cell before each one, which it exceeds.

    See Also
    --------
    prevalence_ranking : The test-training ranking.
    TransportConfusionMatrixDisplay : ``order="test-training"`` draws the ranked matrix.
    f1_ranking_disorder : How differently two matrices rank the classes by F1.

    References
    ----------
    J. Erbani, P.-É. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access 12, 2024, doi:10.1109/ACCESS.2024.3507199: Section VI-A.

    Examples
    --------
    >>> from sklearn_confusion_ext import prevalence_ranking_breaks
    >>> matrix = [[50, 9, 4],
    ...           [6, 30, 7],
    ...           [2, 1, 12]]
    >>> cells, previous = prevalence_ranking_breaks(matrix)
    >>> cells.tolist(), previous.tolist()
    ([[1, 2], [1, 2]], [[0, 2], [1, 0]])

    Cell (1, 2), class 1 taken for class 2, is higher than (0, 2) above it and than
    (1, 0) on its left (the diagonal cell (1, 1) is skipped).
    """
    matrix = check_confusion_matrix(matrix, "matrix")
    n_classes = matrix.shape[0]
    rows = _order(row_order, "row_order", n_classes)
    columns = rows if column_order is None else _order(column_order, "column_order",
                                                       n_classes)
    ranked = matrix[np.ix_(rows, columns)]
    off_diagonal = rows[:, None] != columns[None, :]
    # Each pair: (ranked position of the cell, ranked position of the cell before it).
    pairs = []
    diagonal = matrix[rows, rows]
    for a in np.flatnonzero(diagonal[1:] > diagonal[:-1]) + 1:
        pairs.append(((a, _position(columns, rows[a])),
                      (a - 1, _position(columns, rows[a - 1]))))
    for along_rows in (True, False):
        values, mask = (ranked, off_diagonal) if along_rows else (ranked.T, off_diagonal.T)
        for line in range(n_classes):
            positions = np.flatnonzero(mask[line])
            line_values = values[line, positions]
            for t in np.flatnonzero(line_values[1:] > line_values[:-1]) + 1:
                cell, before = (line, positions[t]), (line, positions[t - 1])
                if not along_rows:
                    cell, before = cell[::-1], before[::-1]
                pairs.append((cell, before))
    pairs.sort(key=lambda pair: (*pair[0], *pair[1]))
    cells = np.array([(rows[a], columns[b]) for (a, b), _ in pairs], dtype=np.intp)
    previous = np.array([(rows[a], columns[b]) for _, (a, b) in pairs], dtype=np.intp)
    return cells.reshape(-1, 2), previous.reshape(-1, 2)


def _order(order, name, n_classes):
    """``order`` checked as a permutation of ``range(n_classes)``, or the identity."""
    if order is None:
        return np.arange(n_classes)
    order = np.asarray(order)
    if order.ndim != 1 or order.dtype.kind not in "iu" or \
            not np.array_equal(np.sort(order), np.arange(n_classes)):
        raise ValueError(f"{name} must be a permutation of the {n_classes} class positions "
                         f"0..{n_classes - 1}; got {quoted(order)}.")
    return order


def _position(order, value):
    return int(np.flatnonzero(order == value)[0])


@validate_params({"matrix_a": [ARRAY], "matrix_b": [ARRAY]})
def f1_ranking_disorder(matrix_a, matrix_b):
    """F1 ranking disorder ``Delta(M_a, M_b)`` of equation (52).

    Rank the classes by decreasing F1-score of ``matrix_b``, read the
    F1-scores of ``matrix_a`` in that order, and measure how far they are
    from sorted: ``1000 * |F1^{a,a} - F1^{a,b}|_1 / (C |F1^{a,a}|_1)``, where
    ``F1^{a,a}`` is ``matrix_a``'s F1-scores in decreasing order. Zero when
    both matrices rank the classes alike; not symmetric.

    Parameters
    ----------
    matrix_a, matrix_b : array-like of shape (n_classes, n_classes)
        Confusion matrices over the same classes (rows true, columns
        predicted), e.g. built with different weightings or methods.

    Returns
    -------
    float

    See Also
    --------
    prevalence_ranking : The test-training ranking of the classes.
    RankingComparisonDisplay : Draws the F1 rankings of several matrices.

    Notes
    -----
    The F1-score of a class with no true and no predicted mass is taken as 0,
    without warning; ``Delta`` is 0 when every F1-score of ``matrix_a`` is 0.
    Ties in ``matrix_b``'s F1-scores keep class order.

    References
    ----------
    J. Erbani, P.-É. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access 12, 2024, doi:10.1109/ACCESS.2024.3507199: equation (52),
    Section VII-C.

    Examples
    --------
    >>> from sklearn_confusion_ext import f1_ranking_disorder
    >>> a = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
    >>> b = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
    >>> round(f1_ranking_disorder(a, b), 3)
    113.537
    >>> f1_ranking_disorder(a, a)
    0.0
    """
    f1_a = _f1_scores(check_confusion_matrix(matrix_a, "matrix_a"))
    f1_b = _f1_scores(check_confusion_matrix(matrix_b, "matrix_b"))
    if f1_a.shape != f1_b.shape:
        raise ValueError(
            f"matrix_a and matrix_b must have the same shape; got {len(f1_a)} and "
            f"{len(f1_b)} classes."
        )
    sorted_a = np.sort(f1_a)[::-1]
    total = sorted_a.sum()
    if total == 0:
        return 0.0
    a_by_b = f1_a[np.argsort(-f1_b, kind="stable")]
    return float(1000 * np.abs(sorted_a - a_by_b).sum() / (len(f1_a) * total))


def _f1_scores(matrix):
    tp, fp, fn, _ = class_counts(matrix)
    denominator = 2 * tp + fp + fn
    return np.divide(2 * tp, denominator, out=np.zeros_like(tp), where=denominator > 0)
