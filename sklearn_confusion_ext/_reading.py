"""Guidelines for reading confusion matrices (Erbani et al. 2024, Sections VI-VII).

The test-training ranking orders rows by prevalence in the test labels and
columns by prevalence in the training labels (Section VI-A); the F1 ranking
disorder ``Delta`` (eq. 52) measures how differently two matrices rank the
classes by F1-score.
"""

import numpy as np

from ._core.confusion import class_counts
from ._core.params import validate_params
from ._core.validation import check_confusion_matrix, check_target_set


@validate_params()
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

    Notes
    -----
    Prevalence is the number of instances carrying the class for 1-D and
    multi-label targets, and the total mass of the class for soft labels.

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


@validate_params()
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

    Notes
    -----
    The F1-score of a class with no true and no predicted mass is taken as 0,
    without warning; ``Delta`` is 0 when every F1-score of ``matrix_a`` is 0.
    Ties in ``matrix_b``'s F1-scores keep class order.

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
