"""Classification measures of Gosgens et al., "Good Classification Measures and How to Find
Them", NeurIPS 2021: Generalized Means GM_r, Symmetric Balanced Accuracy, Correlation
Distance and Confusion Entropy.

Each formula has one implementation, on a confusion matrix (the ``*_from_confusion``
functions); the ``y_true, y_pred`` functions build the matrix (the classic one for 1-D
labels, the transport-based one for 2-D targets) and call it. Classes absent from both
labelings are dropped first, so listing an unused class in ``labels=`` changes nothing.
Singularities are resolved as Appendix B of the paper says, never into NaN.
"""

import numpy as np

from ._core.confusion import class_counts
from ._core.params import validate_params
from ._core.validation import check_confusion_matrix, check_counted
from ._scores import binary_matrix
from ._transport import transport_confusion


@validate_params()
def generalized_means_from_confusion(matrix, *, r=1.0, average="binary"):
    """Generalized Means measure GM_r of a confusion matrix (Definition 10).

    For a binary matrix with positive class 1,
    ``GM_r = (n c11 - a1 b1) / ((a1^r a0^r + b1^r b0^r) / 2)^(1/r)``, where ``a`` and ``b``
    are the true (row) and predicted (column) class sizes. ``r = 0`` is the exact limit,
    the geometric mean, which gives Matthews' correlation (Statement 2); ``r = -1`` gives
    ``BA(C) + BA(C^T) - 1``. Values lie in [-1, 1]; higher is better.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.
    r : float, default=1.0
        Exponent of the generalized mean in the denominator.
    average : {"binary", "micro", "macro", "weighted", "symmetric_weighted"}, \
            default="binary"
        "binary" needs a 2 x 2 matrix (class 1 positive). Otherwise the one-vs-all binary
        matrices of Section 2 are summed ("micro") or their GM_r averaged equally
        ("macro") or by true class size ("weighted"), over the classes present in either
        labeling. "symmetric_weighted" (beyond the paper) weights each class by its mean
        size ``(a_i + b_i) / 2n`` and scores 0 a one-vs-all problem in which a labeling is
        constant (see Notes): it keeps the constant baseline and the monotonicity that
        "macro" and "weighted" lose.

    Returns
    -------
    float

    Notes
    -----
    Singularities (Appendix B): when exactly one labeling puts every element in one class
    the value is 0 (constant baseline); when both do, 1 if they agree and -1 otherwise.

    The paper's argument that macro and weighted averaging keep the constant baseline and
    monotonicity overlooks one-vs-all problems in which a class is absent from one labeling:
    ``y_true = [2, 2]``, ``y_pred = [0, 1]`` gives the problem of class 2 both labelings
    constant and different (-1), so that random predictions of sizes (1, 1, 0) score -1/3
    in macro average, and a prediction that removes a class altogether changes the number
    of classes averaged. "symmetric_weighted" avoids both: its weights vanish for a class
    absent from both labelings (no jump when a class disappears), and a one-vs-all problem
    with a constant labeling (a class filling one labeling and absent from the other
    included) scores its baseline 0. :func:`audit_measure` finds it keeps every property
    macro averaging is said to keep (maximal agreement, symmetry, class symmetry,
    monotonicity, constant baseline) on three classes.

    Examples
    --------
    >>> from sklearn_confusion_ext import generalized_means_from_confusion
    >>> round(generalized_means_from_confusion([[5, 1], [2, 2]]), 4)
    0.3556
    >>> round(generalized_means_from_confusion([[5, 1], [2, 2]], r=0), 4)  # Matthews
    0.3563
    """
    matrix, r = _check_matrix(matrix), float(r)
    if average == "binary":
        if matrix.shape != (2, 2):
            raise ValueError(
                f"average='binary' needs a 2 x 2 matrix; got {matrix.shape[0]} classes. "
                "Choose average='micro', 'macro' or 'weighted'."
            )
        return _bounded(_binary_generalized_means(*_binary_cells(matrix), r))
    matrix = _present_classes(matrix)
    n, n_classes = matrix.sum(), matrix.shape[0]
    tp, fp, fn, tn = class_counts(matrix)
    if average == "micro":
        correct = tp.sum()
        return _bounded(_binary_generalized_means(
            correct, n - correct, n - correct, (n_classes - 2) * n + correct, r))
    scores = _binary_generalized_means(tp, fn, fp, tn, r)
    if average == "symmetric_weighted":
        true_sizes, pred_sizes = tp + fn, tp + fp
        unary = np.count_nonzero(true_sizes) == 1 or np.count_nonzero(pred_sizes) == 1
        constant = unary | (true_sizes == 0) | (pred_sizes == 0)
        scores = np.where(constant & (n_classes > 1), 0.0, scores)
        return _bounded(np.average(scores, weights=true_sizes + pred_sizes))
    weights = tp + fn if average == "weighted" else np.ones(n_classes)
    return _bounded(np.average(scores, weights=weights))


@validate_params()
def symmetric_balanced_accuracy_from_confusion(matrix):
    """Symmetric Balanced Accuracy of a confusion matrix (Table 1, Statement 2).

    ``SBA = (1 / 2m) sum_i (c_ii / a_i + c_ii / b_i)``, the mean of the balanced accuracy
    of the matrix and of its transpose; natively multiclass. Values lie in [0, 1]; higher
    is better. A term ``c_ii / a_i`` with ``a_i = 0`` becomes ``b_i / n`` (and
    ``c_ii / b_i`` with ``b_i = 0`` becomes ``a_i / n``), as Appendix B says; when both
    labelings put everything in one class each, the value is 1 if they agree and 0 (the
    minimal agreement) if not.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import symmetric_balanced_accuracy_from_confusion
    >>> round(symmetric_balanced_accuracy_from_confusion([[5, 1], [2, 2]]), 4)
    0.6786
    """
    matrix = _present_classes(_check_matrix(matrix))
    if _constant_and_different(matrix):
        return 0.0
    n, tp = matrix.sum(), np.diag(matrix)
    true_sizes, pred_sizes = matrix.sum(axis=1), matrix.sum(axis=0)
    recall = _resolved_ratio(tp, true_sizes, pred_sizes / n)
    precision = _resolved_ratio(tp, pred_sizes, true_sizes / n)
    return float((recall + precision).sum() / (2 * matrix.shape[0]))


@validate_params()
def correlation_distance_from_confusion(matrix, *, form="angle", average="multiclass"):
    """Correlation Distance of a confusion matrix (Statement 4), CD or CD'.

    CC is the multiclass Matthews correlation of Table 1. ``form="angle"`` gives
    ``CD = arccos(CC) / pi``, in [0, 1]: 0 for perfect agreement, 1/2 for a constant
    prediction; ``form="chord"`` gives ``CD' = sqrt(2 (1 - CC))``, in [0, 2]. Both are
    distances between the centered one-hot labelings (the angle between them and the
    length of the chord between them as unit vectors); lower is better. Neither has an
    exact constant baseline; CD approximates it to second order, CD' to first order only
    (Statement 6).

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.
    form : {"angle", "chord"}, default="angle"
        CD (the angle, scaled to [0, 1]) or CD' (the chord).
    average : {"multiclass", "micro", "macro", "weighted"}, default="multiclass"
        "multiclass" transforms the multiclass CC; the others transform the CC of each
        one-vs-all binary matrix and average, as Table 13 of the paper does ("micro" the
        summed binary matrix, "macro" equally, "weighted" by true class size).

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import correlation_distance_from_confusion
    >>> round(correlation_distance_from_confusion([[5, 1], [2, 2]]), 4)
    0.384
    >>> round(correlation_distance_from_confusion([[5, 1], [2, 2]], form="chord"), 4)
    1.1346
    >>> correlation_distance_from_confusion([[3, 0], [0, 4]])
    0.0
    """
    matrix = _check_matrix(matrix)
    if average == "multiclass":
        return float(_distance(_correlation(matrix), form))
    matrix = _present_classes(matrix)
    n, n_classes = matrix.sum(), matrix.shape[0]
    if n_classes == 1:
        return float(_distance(1.0, form))
    tp, fp, fn, tn = class_counts(matrix)
    if average == "micro":
        correct = tp.sum()
        return float(_distance(_binary_generalized_means(
            correct, n - correct, n - correct, (n_classes - 2) * n + correct, 0.0), form))
    distances = _distance(_binary_generalized_means(tp, fn, fp, tn, 0.0), form)
    weights = tp + fn if average == "weighted" else np.ones(n_classes)
    return float(np.average(distances, weights=weights))


def _distance(correlation, form):
    """CD = arccos(CC) / pi or CD' = sqrt(2 (1 - CC)) of correlations in [-1, 1].

    Both are ill-conditioned at ``CC = +-1`` (a rounding error of 1e-16 there becomes 1e-8):
    a correlation within 1e-13 of +-1, which takes about 10^13 elements to reach exactly, is
    taken as +-1, so that perfect agreement gives exactly 0.
    """
    correlation = np.clip(correlation, -1.0, 1.0)
    correlation = np.where(np.abs(correlation) > 1 - 1e-13, np.sign(correlation), correlation)
    if form == "angle":
        return np.arccos(correlation) / np.pi
    return np.sqrt(2 * (1 - correlation))


@validate_params()
def confusion_entropy_from_confusion(matrix, *, formula="filled"):
    """Confusion Entropy of Wei et al. (2010), as Table 1 writes it, its hole filled.

    ``CE = -(1 / 2n) sum_{i != j} (c_ji log_{2m-2}(c_ji / (a_j + b_j))
    + c_ij log_{2m-2}(c_ij / (a_j + b_j)))``, with ``0 log 0 = 0``: the mean, weighted by
    ``(a_j + b_j) / 2n``, of each class's entropy ``CE_j`` of its misclassifications. Lower
    is better; 0 means perfect agreement, and only that.

    The formula alone also gives 0 to some wrong predictions: a class ``j`` whose elements
    (true or predicted) all lie in *one* misclassified cell has ``c / (a_j + b_j) = 1``, an
    entropy of 0, as if it were predicted perfectly. That happens for a class absent from
    one labeling and misclassified one way only (``[[0, 0, 0], [0, 1, 0], [1, 0, 0]]``, or
    labels ``[0, 1, 2, 3]`` predicted ``[0, 1, 2, 4]``); the proof of maximal agreement in
    Appendix C.1 misses it. Rule: such a class gets ``CE_j = 1``, the entropy of a class
    whose elements are all misclassified, spread evenly over its ``2m - 2`` cells (the
    binary ``[[0, k], [k, 0]]``, for instance). Every other class keeps Table 1's term; a
    class present in both labelings is never such a class, so CE is unchanged wherever every
    class is (all the labelings of Section 5 of the paper). With two classes, two constant
    labelings on different classes get 1.

    The rule does change values the paper prints where a class is absent from one labeling:
    Appendix C.3's ``CE(A, B) = CE(B, C) = 0.387`` for ``A = (1, 1, 0)``, ``B = (1, 1, 1)``,
    ``C = (1, 0, 1)`` becomes 0.554, and with ``CE(A, C) = 1`` its counterexample to the
    triangle inequality (``1 > 0.387 + 0.387``) no longer holds (``1 < 0.554 + 0.554``).
    ``formula="table_1"`` computes Table 1's formula as printed, hole included, and
    reproduces the appendix.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.
    formula : {"filled", "table_1"}, default="filled"
        "filled" gives a class whose whole mass is one misclassified cell the entropy 1;
        "table_1" keeps Table 1's term for it (0, as if it were predicted perfectly), the
        values printed in the paper's appendices.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import confusion_entropy_from_confusion
    >>> confusion_entropy_from_confusion([[0, 6], [6, 0]])
    1.0
    >>> confusion_entropy_from_confusion([[0, 0, 0], [0, 1, 0], [1, 0, 0]])  # not 0
    0.5

    Appendix C.3's ``CE(A, B)``, with the hole filled and as printed:

    >>> round(confusion_entropy_from_confusion([[0, 1], [0, 2]]), 3)
    0.554
    >>> round(confusion_entropy_from_confusion([[0, 1], [0, 2]], formula="table_1"), 3)
    0.387
    """
    matrix = _present_classes(_check_matrix(matrix))
    n_classes = matrix.shape[0]
    if n_classes < 2:
        return 0.0
    sizes = matrix.sum(axis=1) + matrix.sum(axis=0)
    off = ~np.eye(n_classes, dtype=bool)
    # Terms c_ji log(c_ji / (a_j + b_j)) and c_ij log(c_ij / (a_j + b_j)), i != j.
    column_scale = np.broadcast_to(sizes[None, :], matrix.shape)
    entropy = _xlogy_ratio(matrix.T, column_scale) + _xlogy_ratio(matrix, column_scale)
    total = -np.where(off, entropy, 0.0).sum(axis=0) / np.log(2 * n_classes - 2)
    if formula == "table_1":
        return float(total.sum() / (2 * matrix.sum()) + 0.0)
    # Classes whose whole mass is one misclassified cell: entropy 1 (their weight a_j + b_j).
    off_matrix = np.where(off, matrix, 0.0)
    one_cell = (np.diag(matrix) == 0) & (
        (off_matrix.max(axis=0) == sizes) | (off_matrix.max(axis=1) == sizes))
    total = np.where(one_cell, sizes, total)
    return float(total.sum() / (2 * matrix.sum()) + 0.0)


@validate_params()
def generalized_means_score(y_true, y_pred, *, r=1.0, average="binary", pos_label=1,
                            labels=None, sample_weight=None, weighting="uniform"):
    """Generalized Means measure GM_r of predictions (Gosgens et al. 2021, Definition 10).

    Builds the confusion matrix and calls :func:`generalized_means_from_confusion`.
    ``r = 0`` is Matthews' correlation (:func:`sklearn.metrics.matthews_corrcoef` on binary
    labels), ``r = -1`` the Symmetric Balanced Accuracy rescaled to [-1, 1].

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        1-D class labels, or (an extension of the paper) 2-D multi-label indicators or
        soft labels, whose confusion matrix is then the transport-based one
        (:func:`transport_confusion_matrix`, "none" class included).
    r : float, default=1.0
        Exponent of the generalized mean.
    average : {"binary", "micro", "macro", "weighted", "symmetric_weighted"}, \
            default="binary"
        "binary" reports ``pos_label`` of 1-D targets with at most two classes and raises
        ``ValueError`` otherwise, as scikit-learn does; the others average the one-vs-all
        binary problems (see :func:`generalized_means_from_confusion`; "symmetric_weighted"
        keeps the constant baseline and monotonicity that "macro" and "weighted" lose).
    pos_label : int, float, bool or str, default=1
        The positive class for ``average="binary"``.
    labels : array-like, default=None
        Classes to keep, as in :func:`transport_confusion_matrix`.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    weighting : {"uniform", "true", "pred"} or callable, default="uniform"
        Instance weights of the transport confusion matrix of 2-D targets (no effect on
        1-D labels).

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import generalized_means_score
    >>> y_true = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    >>> y_pred = [0, 0, 0, 0, 0, 1, 1, 1, 0, 0]
    >>> round(generalized_means_score(y_true, y_pred), 4)
    0.3556
    >>> round(generalized_means_score(y_true, y_pred, r=0), 4)  # matthews_corrcoef
    0.3563

    A class absent from ``y_true`` costs macro averaging its constant baseline (random
    predictions score -1/3 here, not 0); "symmetric_weighted" keeps it:

    >>> round(generalized_means_score([2, 2], [0, 1], average="macro"), 4)
    -0.3333
    >>> generalized_means_score([2, 2], [0, 1], average="symmetric_weighted")
    0.0
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    if average != "binary":
        return generalized_means_from_confusion(confusion.selected(), r=r, average=average)
    return generalized_means_from_confusion(binary_matrix(confusion, pos_label), r=r)


@validate_params()
def symmetric_balanced_accuracy_score(y_true, y_pred, *, labels=None, sample_weight=None,
                                      weighting="uniform"):
    """Symmetric Balanced Accuracy of predictions (Gosgens et al. 2021, Table 1).

    The mean of the balanced accuracy of the predictions and of the balanced accuracy
    with the two labelings swapped; natively multiclass, in [0, 1], higher is better.
    Builds the confusion matrix and calls
    :func:`symmetric_balanced_accuracy_from_confusion`.

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, weighting
        As in :func:`generalized_means_score`.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import symmetric_balanced_accuracy_score
    >>> symmetric_balanced_accuracy_score([0, 0, 1, 1, 2], [0, 1, 1, 1, 2])
    0.861111111111111
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    return symmetric_balanced_accuracy_from_confusion(confusion.selected())


@validate_params()
def correlation_distance(y_true, y_pred, *, labels=None, sample_weight=None,
                         weighting="uniform", form="angle", average="multiclass"):
    """Correlation Distance ``arccos(CC) / pi`` (or CD') of predictions (Statement 4).

    CC is the multiclass Matthews correlation. A distance: lower is better. Builds the
    confusion matrix and calls :func:`correlation_distance_from_confusion`.

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, weighting
        As in :func:`generalized_means_score`.
    form : {"angle", "chord"}, default="angle"
        CD = arccos(CC) / pi, or CD' = sqrt(2 (1 - CC)).
    average : {"multiclass", "micro", "macro", "weighted"}, default="multiclass"
        The multiclass CC, or an average over the one-vs-all binary problems.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import correlation_distance
    >>> correlation_distance([0, 1, 2, 2], [0, 1, 2, 2])
    0.0
    >>> correlation_distance([0, 1, 0, 1], [1, 0, 1, 0])
    1.0
    >>> correlation_distance([0, 1, 0, 1], [1, 0, 1, 0], form="chord")
    2.0
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    return correlation_distance_from_confusion(confusion.selected(), form=form,
                                               average=average)


@validate_params()
def confusion_entropy(y_true, y_pred, *, labels=None, sample_weight=None,
                      weighting="uniform", formula="filled"):
    """Confusion Entropy of predictions (Wei et al. 2010, as Table 1 of Gosgens et al.).

    Zero for perfect predictions; lower is better. Builds the confusion matrix and calls
    :func:`confusion_entropy_from_confusion`.

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, weighting
        As in :func:`generalized_means_score`.
    formula : {"filled", "table_1"}, default="filled"
        "table_1": Table 1's formula as printed, which scores 0 a class whose whole mass is
        one misclassified cell (see :func:`confusion_entropy_from_confusion`).

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import confusion_entropy
    >>> confusion_entropy([0, 0, 1, 1], [0, 0, 1, 1])
    0.0
    >>> confusion_entropy([0, 1] * 6, [1, 0] * 6)
    1.0
    >>> round(confusion_entropy([1, 1, 0], [1, 1, 1], formula="table_1"), 3)  # App. C.3
    0.387
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    return confusion_entropy_from_confusion(confusion.selected(), formula=formula)


def _confusion(y_true, y_pred, labels, sample_weight, weighting):
    confusion = transport_confusion(y_true, y_pred, labels=labels, weighting=weighting,
                                    sample_weight=sample_weight, empty="null_class")
    check_counted(confusion.selected(), labels, sample_weight)
    return confusion


def _binary_cells(matrix):
    return matrix[1, 1], matrix[1, 0], matrix[0, 1], matrix[0, 0]


def _binary_generalized_means(tp, fn, fp, tn, r):
    """GM_r of binary cells (arrays allowed), singularities resolved (Appendix B)."""
    tp, fn, fp, tn = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64)
                                           for x in (tp, fn, fp, tn)))
    n = tp + fn + fp + tn
    true_spread = (tp + fn) * (fp + tn)  # a1 a0
    pred_spread = (tp + fp) * (fn + tn)  # b1 b0
    defined = (true_spread > 0) & (pred_spread > 0)
    numerator = n * tp - (tp + fn) * (tp + fp)
    denominator = _generalized_mean(np.where(defined, true_spread, 1.0),
                                    np.where(defined, pred_spread, 1.0), r)
    value = np.divide(numerator, denominator, out=np.zeros_like(n), where=defined)
    # Both labelings constant: maximal agreement if they agree, minimal otherwise.
    both_constant = (true_spread == 0) & (pred_spread == 0)
    agree = (tp + tn) == n
    value = np.where(both_constant, np.where(agree, 1.0, -1.0), value)
    return value


def _bounded(value, low=-1.0, high=1.0):
    """A score as a float, rounding past its bounds clipped (1.0000000000000002 is 1)."""
    return float(np.clip(value, low, high))


def _generalized_mean(x, y, r):
    """``((x^r + y^r) / 2)^(1/r)`` for positive ``x``, ``y``, continuous through ``r = 0``.

    With ``L = ln x``, ``M = ln y``: ``ln mean = (L + M) / 2 + ln cosh(r (L - M) / 2) / r``,
    whose second term vanishes smoothly as ``r -> 0`` (the geometric mean).
    """
    log_x, log_y = np.log(x), np.log(y)
    center = (log_x + log_y) / 2
    if r == 0:
        return np.exp(center)
    z = np.abs(r * (log_x - log_y) / 2)
    log_cosh = np.where(z < 20, np.log(np.cosh(np.minimum(z, 20))), z - np.log(2))
    return np.exp(center + log_cosh / r)


def _correlation(matrix):
    """Multiclass Matthews correlation (Table 1), singularities resolved (Appendix B)."""
    matrix = _present_classes(matrix)
    true_constant, pred_constant = _constant_labelings(matrix)
    if true_constant and pred_constant:
        return 1.0 if matrix.shape[0] == 1 else -1.0
    if true_constant or pred_constant:
        return 0.0
    n = matrix.sum()
    true_sizes, pred_sizes = matrix.sum(axis=1), matrix.sum(axis=0)
    true_spread = n * n - (true_sizes ** 2).sum()
    pred_spread = n * n - (pred_sizes ** 2).sum()
    if true_spread <= 0 or pred_spread <= 0:
        # A labeling constant but for subnormal masses: its spread rounds to 0.
        return 0.0
    numerator = n * np.trace(matrix) - true_sizes @ pred_sizes
    return float(np.clip(numerator / np.sqrt(true_spread * pred_spread), -1.0, 1.0))


def _constant_labelings(matrix):
    """Whether the true and the predicted labeling put every element in one class, read off
    which marginals are nonzero, never off a spread ``n^2 - sum a_i^2`` that rounding leaves
    nonzero."""
    return (np.count_nonzero(matrix.sum(axis=1)) == 1,
            np.count_nonzero(matrix.sum(axis=0)) == 1)


def _constant_and_different(matrix):
    """Both labelings constant, on different classes (all mass in one off-diagonal cell)."""
    return (matrix.shape[0] == 2 and np.count_nonzero(matrix) == 1
            and np.trace(matrix) == 0)


def _resolved_ratio(tp, sizes, fallback):
    """``tp / sizes``, with ``fallback`` where the class is empty (Appendix B)."""
    fallback = np.broadcast_to(np.asarray(fallback, dtype=np.float64), np.shape(tp)).copy()
    return np.divide(tp, sizes, out=fallback, where=sizes > 0)


def _xlogy_ratio(counts, scale):
    """``c log(c / s)`` with ``0 log 0 = 0``, as ``c (log c - log s)``: ``c / s`` may
    underflow to 0 for subnormal counts, their logarithms do not."""
    positive = counts > 0
    return np.where(positive, counts * (np.log(np.where(positive, counts, 1))
                                        - np.log(np.where(positive, scale, 1))), 0.0)


def _present_classes(matrix):
    """Drop the classes absent from both labelings (zero row and zero column)."""
    present = (matrix.sum(axis=0) + matrix.sum(axis=1)) > 0
    return matrix[np.ix_(present, present)]


def _check_matrix(matrix):
    """The checked matrix scaled by a power of two to a largest cell in [1/2, 1): every
    measure here is a ratio of counts, and the scale keeps the products of marginals finite
    whatever the counts' scale. A power of two scales exactly, so integer counts keep their
    exact sums and products (a scale to total 1 rounded them: the multiclass correlation of a
    constant labeling came out 6.7e-9, not 0)."""
    matrix = check_confusion_matrix(matrix, "matrix", nonzero=True)
    return np.ldexp(matrix, -int(np.frexp(matrix.max())[1]))
