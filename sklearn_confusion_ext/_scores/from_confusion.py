"""Every score read off a confusion matrix: the ``*_from_confusion`` formulas.

One home for the formulas, whatever built the matrix (TCM, MLCM, the classic matrix, a
:class:`ConfusionAccumulator`):

- the readings of Erbani et al. (2024), eqs. (36)-(43) for the TCM, and Heydarian et al.
  (2022), eqs. (2)-(7) and (15)-(18) for the MLCM: per-class counts, precision, recall,
  F-beta and support (:func:`precision_recall_fscore_support_from_confusion`), taken from
  the full matrix, then the classes asked for with ``labels=`` kept, as
  :mod:`sklearn.metrics` does;
- the classic measures of Table 1 of Gosgens et al. (NeurIPS 2021), their singularities
  resolved as its Appendix B says: accuracy, balanced accuracy, Cohen's kappa, F-beta,
  Jaccard and the multiclass Matthews correlation;
- the same paper's other measures: Generalized Means GM_r (Definition 10), Symmetric
  Balanced Accuracy, Correlation Distance (Statement 4) and Confusion Entropy (Wei et al.
  2010), and the one-vs-all averaging of a binary measure (Section 2).

The ``y_true, y_pred`` faces that build a matrix and call these live in
:mod:`.from_predictions`; the reports in :mod:`.reports`.
"""

import contextvars
import math
from numbers import Real

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core.arrays import to_numpy
from .._core.confusion import Confusion, class_counts, every_class
from .._core.labels import check_column_selection, check_label_list, common_integer_labels
from .._core.matrix_checks import check_confusion_matrix
from .._core.params import (
    ARRAY,
    AVERAGES,
    BETA,
    BOOLEAN,
    CALLABLE,
    INCLUDE_NONE,
    ZERO_DIVISION,
    Interval,
    Options,
    quoted,
    validate_params,
)
from .._core.user_warnings import warn

# --- The readings of any built matrix (Erbani et al. 2024; Heydarian et al. 2022) -------


def reported_classes(confusion, include_none):
    """Positions (into the full matrix) of the classes that get their own row.

    The "none" class joins only when ``include_none`` is True, or when it is
    "auto" and some instance had an empty label (its row has mass).
    """
    selection = confusion.selection
    if not confusion.has_none:
        return selection
    if include_none == "auto":
        include_none = bool(confusion.matrix[-1].sum() > 0)
    return selection if include_none else selection[:-1]


def confusion_for_labels(confusion, labels):
    """``labels=`` of a score function, applied to the full confusion built without it.

    As scikit-learn's scores (not its ``confusion_matrix``) read ``labels``, a listed class
    may be absent from ``y_true`` or from both targets, even every listed class (a
    cross-validation fold without a rare class): its counts are zero. Absent classes share
    one appended zero row and column, so the matrix grows by one whatever ``labels`` holds.
    2-D targets take column indices (column names, for named DataFrame columns). Returns the
    confusion with ``labels`` selected and the names of the selected classes (None: the
    matrix's own labels).
    """
    if labels is None:
        return confusion, None
    if hasattr(labels, "__dlpack__") and not isinstance(labels, np.ndarray):
        labels = to_numpy(labels)
    has_none = confusion.has_none
    classes = confusion.display_labels[:len(confusion.display_labels) - has_none]
    parts = {"n_samples": confusion.n_samples, "n_skipped": confusion.n_skipped,
             "namespace": confusion.namespace, "true_classes": confusion.true_classes}
    if confusion.true_classes is None:
        selection = check_column_selection(labels, len(classes), classes)
        return Confusion.from_parts(confusion.matrix, classes, selection, has_none,
                                    **parts), None
    present = np.asarray(classes)
    listed = check_label_list(labels, present)
    listed, present = common_integer_labels({"labels": listed, "the targets": present})
    # The matrix's classes are sorted for 1-D labels, and for labels beside scores (the
    # columns are the classes in sorted order; named by a DataFrame's header, maybe not).
    order = np.argsort(present, kind="stable")
    position = order[np.minimum(np.searchsorted(present[order], listed), len(present) - 1)]
    found = present[position] == listed
    if found.all():
        return Confusion.from_parts(confusion.matrix, classes, position, False, **parts), None
    n_classes = len(present)
    matrix = np.zeros((n_classes + 1, n_classes + 1))
    matrix[:n_classes, :n_classes] = confusion.matrix
    selection = np.where(found, position, n_classes)
    absent = listed[~found][0]
    return (Confusion.from_parts(matrix, [*classes, absent], selection, False, **parts),
            [str(label) for label in listed])


def multilabel_counts_from_confusion(confusion, include_none="auto", true_negatives="rest"):
    """One ``[[TN, FP], [FN, TP]]`` per reported class, shaped like scikit-learn's.

    ``true_negatives="rest"`` counts everything outside the class's row and
    column (scikit-learn, TCM eq. 36); ``"diagonal"`` the other diagonal cells
    only (MLCM eq. 16).
    """
    tp, fp, fn, tn = class_counts(confusion.matrix)
    if true_negatives == "diagonal":
        tn = tp.sum() - tp
    classes = reported_classes(confusion, include_none)
    return np.stack([tn, fp, fn, tp], axis=1)[classes].reshape(-1, 2, 2)


def diagonal_fraction(matrix, normalize=True):
    """The accuracy's arithmetic on an unchecked matrix (:func:`accuracy_from_confusion` is
    the public score): diagonal mass over total mass (Erbani et al. 2024, eq. 43), 0.0 with
    a warning on an empty matrix; ``normalize=False`` gives the diagonal mass. For the
    faces that built the matrix themselves and for resampled matrices."""
    if not normalize:
        return float(np.trace(matrix))
    largest = matrix.max(initial=0.0)
    if largest == 0:
        warn("Accuracy is ill-defined on an empty matrix and is set to 0.0.",
             UndefinedMetricWarning)
        return 0.0
    scaled = matrix / largest  # sums of masses near the largest float stay finite
    # The diagonal's sum may round above the whole sum's: a score is never above 1.
    return min(float(np.trace(scaled) / scaled.sum()), 1.0)


def precision_recall_fscore_from_confusion(confusion, *, beta=1.0, average=None,
                                           zero_division="warn", include_none="auto",
                                           classes=None, warn_for=None):
    """Precision, recall, F-beta and support read off a confusion (equations 37-42).

    Parameters
    ----------
    confusion : Confusion
        The full matrix and the selected classes.
    beta : float
        Weight of recall in the F-score.
    average : {None, "micro", "macro", "weighted"}
        ``None`` returns per-class arrays; "micro" pools the counts of the
        reported classes (the "none" class always included); "macro" and
        "weighted" average the per-class scores, equally or by support.
    zero_division : {"warn", 0.0, 1.0, np.nan}
        Value of a score whose denominator is zero; "warn" gives 0.0 and an
        ``UndefinedMetricWarning``.
    include_none : {"auto", True, False}
        Whether the "none" class gets its own row (see :func:`reported_classes`).
    classes : ndarray of int, default=None
        Overrides the reported classes (positions in the full matrix).
    warn_for : tuple of int, default=None
        The scores (0 precision, 1 recall, 2 F-beta) whose undefined values warn with
        ``zero_division="warn"``: a scorer of one score warns of that score only, as
        scikit-learn's ``f1_score`` warns of the F-score and not of the precision. None:
        :data:`WARN_FOR`'s (all three, unless a scorer set it around its call).

    Returns
    -------
    precision, recall, fbeta, support
        Arrays for ``average=None``; floats and ``None`` support otherwise.
    """
    # TP, the true mass (row sums) and the predicted mass (column sums) of every class: as
    # scikit-learn, F-beta's denominator is beta^2 * true + predicted.
    matrix = confusion.matrix
    counts = np.array([matrix.diagonal(), matrix.sum(axis=1), matrix.sum(axis=0)])
    if classes is None:
        classes = reported_classes(confusion, include_none)
    # Every class in order (the common case): the counts as they are.
    tp, true_sum, pred_sum = counts if classes is every_class(len(matrix)) else \
        counts[:, classes]
    support = true_sum
    if average == "micro":
        tp, true_sum, pred_sum = counts[:, confusion.selection].sum(axis=1, keepdims=True)
    f_numerator, f_denominator = fbeta_terms(tp, true_sum, pred_sum, beta)
    scores = _ratios(np.array([tp, tp, f_numerator]),
                     np.array([pred_sum, true_sum, f_denominator]), zero_division,
                     warn_for)
    if average is None:
        return (*scores, support)
    if average == "micro":
        return (*scores[:, 0].tolist(), None)
    return (*_averages(scores, support if average == "weighted" else None, zero_division),
            None)


def fbeta_terms(tp, true_sum, pred_sum, beta):
    """Numerator and denominator of F-beta from the true positives and the true and
    predicted masses (arrays alike): as scikit-learn, ``(1 + beta^2) tp`` over
    ``beta^2 true + predicted``. Beyond ``beta = 1e75`` both are divided through by
    ``1 + beta^2`` (its products overflow): F-beta is recall to the last digit, and 0
    where only predicted mass is left (a class with no true mass)."""
    beta2 = float(beta) * float(beta)  # inf beyond 1.3e154, without an overflow warning
    if beta2 == 1.0:  # F1: 1.0 * true_sum is true_sum
        return 2.0 * tp, true_sum + pred_sum
    if beta2 <= 1e150:
        return (1 + beta2) * tp, beta2 * true_sum + pred_sum
    return tp, np.where(true_sum == 0, pred_sum, true_sum + pred_sum / (1 + beta2))


# The scores of precision_recall_fscore_from_confusion, in order, and the mass whose absence
# leaves each undefined (the words of scikit-learn's warnings).
_UNDEFINED = (("Precision", "predicted"), ("Recall", "true"), ("F-score", "true nor predicted"))


# The scores whose undefined values warn, where the caller that knows (a scorer of one
# score) is above a public function that has no warn_for: set around the call.
WARN_FOR = contextvars.ContextVar("warn_for", default=(0, 1, 2))


def _ratios(numerators, denominators, zero_division, warn_for=None):
    """Precision, recall and F-beta per class (rows: ``_UNDEFINED``'s order, one array
    operation for the three); a zero denominator gives ``zero_division``, and with "warn"
    0.0 and one warning per score, as scikit-learn warns."""
    if denominators.all():  # every score defined (the common case): no masks
        result = np.divide(numerators, denominators)
        return np.minimum(result, 1.0, out=result)  # rounding never exceeds 1
    undefined = denominators == 0
    value = np.nan if zero_division == "warn" else float(zero_division)
    defined = ~undefined
    result = np.divide(numerators, denominators, out=np.full(numerators.shape, value),
                       where=defined)
    np.minimum(result, 1.0, out=result, where=defined)
    if zero_division == "warn":
        result[undefined] = 0.0
        warn_for = WARN_FOR.get() if warn_for is None else warn_for
        for k, ((metric, side), missing) in enumerate(zip(_UNDEFINED, undefined)):
            if k in warn_for and missing.any():
                warn(f"{metric} is ill-defined and being set to 0.0 in "
                     f"{np.count_nonzero(missing)} class(es) with no {side} mass. Use "
                     "`zero_division` to control this behavior.", UndefinedMetricWarning)
    return result


def _averages(scores, weights, zero_division):
    """Average of each row's defined (non-nan) scores, as floats, by ``weights`` (None:
    equal); equal weights when theirs are all zero, as scikit-learn averages (a "weighted"
    average over classes absent from ``y_true``)."""
    if weights is None:  # each row's mean: its sum over its count, as NumPy's mean
        n_scores, sums = scores.shape[1], scores.sum(axis=1).tolist()
        # Scores lie in [0, 1] or are NaN: a row sums to NaN where it holds a NaN.
        if not any(map(math.isnan, sums)):
            return [min(total / n_scores, 1.0) for total in sums]
    if np.isnan(scores).any():
        weights = np.ones(scores.shape[1]) if weights is None else weights
        return [_average(row, weights, zero_division) for row in scores]
    if weights.sum() == 0:
        means = scores.sum(axis=1)
        means /= scores.shape[1]
        return np.minimum(means, 1.0, out=means).tolist()
    return np.minimum(scores @ weights / weights.sum(), 1.0).tolist()


def _average(scores, weights, zero_division):
    defined = ~np.isnan(scores)
    if not defined.any():
        return 0.0 if zero_division == "warn" else float(zero_division)
    scores, weights = scores[defined], weights[defined]
    total = weights.sum()
    if total == 0:
        return min(float(scores.mean()), 1.0)
    return min(float(scores @ weights / total), 1.0)


@validate_params({
    "matrix": [ARRAY], "labels": [None, ARRAY], "beta": BETA,
    "average": [None, Options(*AVERAGES)], "zero_division": ZERO_DIVISION,
    "none_class": [BOOLEAN], "include_none": INCLUDE_NONE}, renamed={"confusion": "matrix"})
def precision_recall_fscore_support_from_confusion(matrix, *, labels=None, beta=1.0,
                                                   average=None, zero_division="warn",
                                                   none_class=False, include_none="auto"):
    """Precision, recall, F-beta and support of a confusion matrix.

    For a matrix built elsewhere or in pieces, such as
    :meth:`ConfusionAccumulator.result`: recall of class ``k`` is the diagonal
    cell over row ``k``, precision over column ``k`` (Erbani et al. 2024,
    eqs. 37-42; Heydarian et al. 2022, eqs. 2-7). On the full matrix this
    returns what :func:`transport_precision_recall_fscore_support` and
    :func:`mlcm_precision_recall_fscore_support` return on the instances.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Rows are true classes, columns predicted classes; non-negative. (Its former name
        ``confusion`` works until 0.2, with a ``FutureWarning``.)
    labels : array-like of int, default=None
        Row indices of the classes to report, in that order (the "none" class,
        with ``none_class``, is not listed: it follows ``include_none``). The
        counts are read from the whole matrix, as the one-shot functions read
        them, so pass a matrix over every class.
    beta : float, default=1.0
        Weight of recall in the F-score. Beyond 1e75 the F-score is computed divided
        through by ``1 + beta^2``: recall to the last digit (0 for a class with predicted
        mass and no true mass).
    average : {None, "micro", "macro", "weighted"}, default=None
        ``None`` returns per-class arrays; "micro" pools the counts of the
        reported classes ("none" included); "macro" averages per-class scores
        equally, "weighted" by support.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score whose denominator is zero; "warn" gives 0.0 with an
        ``UndefinedMetricWarning``.
    none_class : bool, default=False
        Whether the last row and column is the "none" class of 2-D targets
        (the TCM's empty labels, MLCM's NTL/NPL, the MLCT's "unknown").
    include_none : {"auto", True, False}, default="auto"
        With ``none_class``: whether "none" gets its own entry and joins the
        macro and weighted averages ("auto": when its row has mass).

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        Row sums of the reported classes; ``None`` when ``average`` is set.

    See Also
    --------
    transport_precision_recall_fscore_support : The same from the TCM of targets.
    mlcm_precision_recall_fscore_support : The same from the MLCM of targets.
    fbeta_from_confusion : F-beta with Table 1's singularities resolved.
    ConfusionAccumulator : A matrix built in pieces.

    References
    ----------
    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: Definition 3,
    eqs. (37)-(42).

    M. Heydarian, T. E. Doyle, R. Samavi, "MLCM: Multi-Label Confusion Matrix", IEEE
    Access 10 (2022), doi:10.1109/ACCESS.2022.3151048: eqs. (2)-(7).

    Examples
    --------
    >>> from sklearn_confusion_ext import (
    ...     ConfusionAccumulator, precision_recall_fscore_support_from_confusion)
    >>> accumulator = ConfusionAccumulator("mlcm")
    >>> accumulator.update([[1, 1, 0], [0, 1, 0]], [[1, 0, 0], [0, 1, 1]]).update(
    ...     [[0, 0, 1]], [[0, 0, 1]])
    ConfusionAccumulator('mlcm'): 3 samples seen, classes_=[0, 1, 2]
    >>> precision, recall, f1, weight = precision_recall_fscore_support_from_confusion(
    ...     accumulator.result(), none_class=True)
    >>> precision, recall.round(3)
    (array([1. , 1. , 0.5]), array([1.   , 0.333, 1.   ]))
    """
    matrix = check_confusion_matrix(matrix, "matrix", min_classes=1 + bool(none_class))
    n_classes = matrix.shape[0] - bool(none_class)
    selection = None if labels is None else check_column_selection(labels, n_classes)
    return precision_recall_fscore_from_confusion(
        Confusion.from_parts(matrix, range(n_classes), selection, bool(none_class)),
        beta=beta, average=average, zero_division=zero_division, include_none=include_none)


def binary_matrix(confusion, pos_label):
    """The 2 x 2 matrix (negative, positive) that ``average="binary"`` reads.

    scikit-learn's rule: 1-D targets of at most two classes; ``pos_label`` must be one of
    them only when two are present. With one class present that is not ``pos_label``,
    every instance is negative and the positive class is empty (its scores then follow
    ``zero_division``), as a cross-validation fold with one class gives.
    """
    classes = confusion.display_labels
    if confusion.has_none or len(classes) > 2:
        kind = "multilabel or soft" if confusion.has_none else "multiclass"
        raise ValueError(f"Target is {kind} but average='binary'; choose another average "
                         "setting.")
    positive = [i for i, label in enumerate(classes) if label == pos_label]
    if not positive and len(classes) == 2:
        raise ValueError(f"pos_label={pos_label!r} is not a valid label; it should be one "
                         f"of {list(classes)}.")
    matrix = np.zeros((2, 2))
    if positive:
        order = [i for i in range(len(classes)) if i != positive[0]] + positive
        matrix[2 - len(order):, 2 - len(order):] = confusion.matrix[np.ix_(order, order)]
    else:
        matrix[0, 0] = confusion.matrix.sum()
    return matrix


# --- The classic measures of Table 1 (Gosgens et al. 2021) ----------------------------


@validate_params({"matrix": [ARRAY]})
def accuracy_from_confusion(matrix):
    """Accuracy of a confusion matrix: the fraction of elements on its diagonal (Table 1).

    ``Acc = sum_i c_ii / n``; in [0, 1], higher is better. It has no singularity; it equals
    :func:`sklearn.metrics.accuracy_score` on the labelings of the matrix.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.

    Returns
    -------
    float

    See Also
    --------
    balanced_accuracy_from_confusion : The mean recall, absent classes resolved.
    cohen_kappa_from_confusion : Accuracy corrected for chance.
    fbeta_from_confusion : F-beta, binary or averaged.
    jaccard_from_confusion : Jaccard, binary or averaged.
    matthews_corrcoef_from_confusion : The multiclass Matthews correlation.
    transport_accuracy_score : The accuracy of the TCM of targets.
    sklearn.metrics.accuracy_score : scikit-learn's, of labels.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (Acc).

    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: eq. (43).

    Examples
    --------
    >>> from sklearn_confusion_ext import accuracy_from_confusion
    >>> accuracy_from_confusion([[5, 1], [2, 2]])
    0.7
    """
    return diagonal_fraction(_check_matrix(matrix))


@validate_params({"matrix": [ARRAY]})
def balanced_accuracy_from_confusion(matrix):
    """Balanced accuracy of a confusion matrix, as Table 1 and Appendix B define it.

    ``BA = (1 / m) sum_i c_ii / a_i``, the mean recall over the ``m`` classes present in
    either labeling; in [0, 1], higher is better. A class absent from the true labeling
    (``a_i = 0``) counts with ``c_ii / a_i = b_i / n``, its expected recall under random
    predictions (Appendix B), so that the measure keeps its constant baseline ``1 / m``;
    when both labelings put everything in one class each, the value is 1 if the classes
    agree and 0 (minimal agreement) if not.

    :func:`sklearn.metrics.balanced_accuracy_score` instead averages over the classes present
    in ``y_true`` only, and so has no constant baseline: a prediction that invents a class
    absent from ``y_true`` scores differently.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.

    Returns
    -------
    float

    See Also
    --------
    accuracy_from_confusion : The fraction on the diagonal.
    cohen_kappa_from_confusion : Accuracy corrected for chance.
    fbeta_from_confusion : F-beta, binary or averaged.
    jaccard_from_confusion : Jaccard, binary or averaged.
    matthews_corrcoef_from_confusion : The multiclass Matthews correlation.
    balanced_accuracy_score : The same of labels and predictions.
    symmetric_balanced_accuracy_from_confusion : Its symmetric form.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (BA) and Appendix B (its singularities).

    Examples
    --------
    >>> from sklearn_confusion_ext import balanced_accuracy_from_confusion
    >>> round(balanced_accuracy_from_confusion([[5, 1], [2, 2]]), 4)
    0.6667
    >>> m = [[2, 1, 0], [0, 3, 1], [0, 0, 0]]  # class 2 never true: 2/3, 3/4 and 1/7
    >>> round(balanced_accuracy_from_confusion(m), 4)
    0.5198
    """
    matrix = _present_classes(_check_matrix(matrix))
    if _constant_and_different(matrix):
        return 0.0
    n = matrix.sum()
    recall = _resolved_ratio(np.diag(matrix), matrix.sum(axis=1), matrix.sum(axis=0) / n)
    return float(recall.mean())


@validate_params({"matrix": [ARRAY]})
def cohen_kappa_from_confusion(matrix):
    """Cohen's kappa of a confusion matrix (Table 1), its singularity resolved.

    ``kappa = (n sum_i c_ii - sum_i a_i b_i) / (n^2 - sum_i a_i b_i)``: accuracy corrected
    for chance; at most 1, higher is better. The denominator vanishes only when both
    labelings put every element in the same class, which is perfect agreement: the value is
    then 1 (Appendix B's maximal-agreement resolution), where
    :func:`sklearn.metrics.cohen_kappa_score` returns NaN.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.

    Returns
    -------
    float

    See Also
    --------
    accuracy_from_confusion : The fraction on the diagonal.
    balanced_accuracy_from_confusion : The mean recall, absent classes resolved.
    fbeta_from_confusion : F-beta, binary or averaged.
    jaccard_from_confusion : Jaccard, binary or averaged.
    matthews_corrcoef_from_confusion : The multiclass Matthews correlation.
    cohen_kappa_score : The same of labels and predictions, weighted or not.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (kappa) and Appendix B.

    Examples
    --------
    >>> from sklearn_confusion_ext import cohen_kappa_from_confusion
    >>> round(cohen_kappa_from_confusion([[5, 1], [2, 2]]), 4)
    0.3478
    >>> cohen_kappa_from_confusion([[4, 0], [0, 0]])
    1.0
    """
    matrix = _check_matrix(matrix)
    n, chance = matrix.sum(), matrix.sum(axis=1) @ matrix.sum(axis=0)
    if n * n - chance <= 0:
        return 1.0
    if any(_constant_labelings(_present_classes(matrix))):
        return 0.0
    return _bounded((n * np.trace(matrix) - chance) / (n * n - chance))


def _weighted_kappa(matrix, weights):
    """Cohen's weighted kappa ``1 - sum w c / sum w e`` (``e`` the chance matrix of the
    marginals), the singularity resolved as the unweighted one's: the chance disagreement
    vanishes only when both labelings put everything in the same class (1)."""
    matrix = _check_matrix(matrix)
    n_classes = matrix.shape[0]
    positions = np.arange(n_classes, dtype=np.float64)
    distance = np.abs(positions[:, None] - positions[None, :])
    weight = distance if weights == "linear" else distance ** 2
    expected = np.outer(matrix.sum(axis=1), matrix.sum(axis=0)) / matrix.sum()
    chance = float((weight * expected).sum())
    if chance <= 0:
        return 1.0
    if any(_constant_labelings(_present_classes(matrix))):
        return 0.0
    return _bounded(1.0 - float((weight * matrix).sum()) / chance)


@validate_params({"matrix": [ARRAY], "beta": BETA,
                  "average": [Options("binary", *AVERAGES)]})
def fbeta_from_confusion(matrix, *, beta=1.0, average="binary"):
    """F-beta measure of a confusion matrix (Table 1), binary or averaged.

    ``F_beta = (1 + beta^2) c11 / ((1 + beta^2) c11 + beta^2 c10 + c01)`` with class 1
    positive; in [0, 1], higher is better. When no element is positive in either labeling
    the value is 1 (maximal agreement, Appendix B), as scikit-learn's ``zero_division=1``.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.
    beta : float, default=1.0
        Weight of recall (``c11 / a1``) against precision (``c11 / b1``). Beyond 1e75
        (``beta^2`` beyond 1e150) F-beta is computed divided through by ``1 + beta^2``:
        recall to the last digit, and 0 where only false positives are left.
    average : {"binary", "micro", "macro", "weighted"}, default="binary"
        "binary" needs a 2 x 2 matrix (class 1 positive). Otherwise the one-vs-all binary
        matrices of Section 2 of the paper, over the classes present in either labeling,
        are summed ("micro": then ``F = sum_i c_ii / n``, the accuracy) or their F-beta
        averaged equally ("macro") or by true class size ("weighted").

    Returns
    -------
    float

    See Also
    --------
    accuracy_from_confusion : The fraction on the diagonal.
    balanced_accuracy_from_confusion : The mean recall, absent classes resolved.
    cohen_kappa_from_confusion : Accuracy corrected for chance.
    jaccard_from_confusion : Jaccard, binary or averaged.
    matthews_corrcoef_from_confusion : The multiclass Matthews correlation.
    precision_recall_fscore_support_from_confusion : Per-class scores of any matrix.
    averaged_binary_measure : Any binary measure averaged over one-vs-all problems.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (F_beta), Section 2 (averaging) and Appendix B.

    Examples
    --------
    >>> from sklearn_confusion_ext import fbeta_from_confusion
    >>> round(fbeta_from_confusion([[5, 1], [2, 2]]), 4)
    0.5714
    >>> round(fbeta_from_confusion([[5, 1], [2, 2]], beta=2), 4)
    0.5263
    >>> round(fbeta_from_confusion([[5, 1, 0], [2, 2, 1], [0, 0, 3]], average="macro"), 4)
    0.7088
    """
    def fbeta(tp, fn, fp):
        numerator, denominator = fbeta_terms(tp, tp + fn, tp + fp, beta)
        return _resolved_ratio(numerator, denominator, 1.0)

    return _binary_or_averaged(matrix, average, fbeta)


@validate_params({"matrix": [ARRAY], "average": [Options("binary", *AVERAGES)]})
def jaccard_from_confusion(matrix, *, average="binary"):
    """Jaccard measure of a confusion matrix (Table 1), binary or averaged.

    ``J = c11 / (c11 + c10 + c01)`` with class 1 positive; in [0, 1], higher is better, and
    ``1 - J`` is a distance. When no element is positive in either labeling the value is 1
    (maximal agreement, Appendix B), as scikit-learn's ``zero_division=1``.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.
    average : {"binary", "micro", "macro", "weighted"}, default="binary"
        As in :func:`fbeta_from_confusion` ("micro" gives ``sum_i c_ii / (2 n - sum_i c_ii)``).

    Returns
    -------
    float

    See Also
    --------
    accuracy_from_confusion : The fraction on the diagonal.
    balanced_accuracy_from_confusion : The mean recall, absent classes resolved.
    cohen_kappa_from_confusion : Accuracy corrected for chance.
    fbeta_from_confusion : F-beta, binary or averaged.
    matthews_corrcoef_from_confusion : The multiclass Matthews correlation.
    averaged_binary_measure : Any binary measure averaged over one-vs-all problems.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (J), Section 2 (averaging) and Appendix B.

    Examples
    --------
    >>> from sklearn_confusion_ext import jaccard_from_confusion
    >>> jaccard_from_confusion([[5, 1], [2, 2]])
    0.4
    >>> jaccard_from_confusion([[5, 0], [0, 0]])  # no positive anywhere
    1.0
    """
    def jaccard(tp, fn, fp):
        return _resolved_ratio(tp, tp + fn + fp, 1.0)

    return _binary_or_averaged(matrix, average, jaccard)


@validate_params({"matrix": [ARRAY]})
def matthews_corrcoef_from_confusion(matrix):
    """Matthews correlation CC of a confusion matrix, multiclass (Table 1).

    ``CC = (n sum_i c_ii - sum_i a_i b_i) / sqrt((n^2 - sum_i b_i^2) (n^2 - sum_i a_i^2))``,
    the binary coefficient on a 2 x 2 matrix; in [-1, 1], higher is better. Singularities
    (Appendix B): 0 when exactly one labeling puts every element in one class (constant
    baseline), 1 when both do on the same class and -1 on different classes, where
    :func:`sklearn.metrics.matthews_corrcoef` returns 0. Its one-vs-all averages are
    :func:`generalized_means_from_confusion` with ``r=0``.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.

    Returns
    -------
    float

    See Also
    --------
    accuracy_from_confusion : The fraction on the diagonal.
    balanced_accuracy_from_confusion : The mean recall, absent classes resolved.
    cohen_kappa_from_confusion : Accuracy corrected for chance.
    fbeta_from_confusion : F-beta, binary or averaged.
    jaccard_from_confusion : Jaccard, binary or averaged.
    matthews_corrcoef : The same of labels and predictions.
    generalized_means_from_confusion : GM_0, its one-vs-all averages.
    correlation_distance_from_confusion : Distances read off it.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (CC), Statement 2 and Appendix B.

    Examples
    --------
    >>> from sklearn_confusion_ext import matthews_corrcoef_from_confusion
    >>> round(matthews_corrcoef_from_confusion([[5, 1], [2, 2]]), 4)
    0.3563
    >>> matthews_corrcoef_from_confusion([[0, 1, 0], [0, 0, 1], [2, 0, 0]])  # Appendix C.1
    -0.5
    """
    return float(_correlation(_check_matrix(matrix)))


@validate_params({"matrix": [ARRAY], "binary_measure": [CALLABLE],
                  "average": [Options("micro", "macro", "weighted")]})
def averaged_binary_measure(matrix, binary_measure, *, average="macro"):
    """A binary measure of one-vs-all problems, averaged over the classes (Section 2).

    Gosgens et al. (2021) extend a binary measure ``M(TP, FN, FP, TN)`` to ``m`` classes by
    averaging: "micro" sums the ``m`` one-vs-all binary matrices, ``TP = sum_i c_ii``,
    ``FN = FP = n - TP``, ``TN = (m - 2) n + TP``, and computes ``M`` once; "macro" averages
    the ``m`` values ``M(c_ii, a_i - c_ii, b_i - c_ii, n - a_i - b_i + c_ii)`` equally;
    "weighted" by the true class sizes ``a_i``. Every class of the matrix counts (``m`` is
    its size), as in Appendix C.6, so its counterexamples reproduce; drop unused classes
    first to average over the classes present. The library's own averages
    (``average=`` of :func:`fbeta_from_confusion`, :func:`generalized_means_from_confusion`
    ...) average over the classes present in either labeling.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Confusion matrix, rows true classes, columns predicted classes.
    binary_measure : callable
        ``binary_measure(tp, fn, fp, tn) -> float``, called with the four cells of a binary
        confusion matrix as floats.
    average : {"micro", "macro", "weighted"}, default="macro"
        How the one-vs-all problems are combined.

    Returns
    -------
    float

    See Also
    --------
    fbeta_from_confusion : F-beta, averaged over the classes present.
    generalized_means_from_confusion : GM_r, averaged likewise.
    audit_measure : Which properties a measure keeps.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Section 2 (averaging) and Appendix C.6.

    Examples
    --------
    Appendix C.6: macro averaging of ``1{TP + TN > 0}``, which has minimal agreement in the
    binary case, loses it (two zero-diagonal matrices score 1 and 2/3):

    >>> from sklearn_confusion_ext import averaged_binary_measure
    >>> def some_agreement(tp, fn, fp, tn):
    ...     return float(tp + tn > 0)
    >>> averaged_binary_measure([[0, 1, 0], [0, 0, 1], [1, 1, 0]], some_agreement)
    1.0
    >>> round(averaged_binary_measure([[0, 0, 1], [0, 0, 1], [1, 1, 0]], some_agreement), 4)
    0.6667
    >>> averaged_binary_measure([[0, 0, 1], [0, 0, 1], [1, 1, 0]], some_agreement,
    ...                         average="micro")
    1.0
    """
    matrix = check_confusion_matrix(matrix, "matrix", nonzero=True)
    n, n_classes = float(matrix.sum()), matrix.shape[0]
    tp, fp, fn, tn = class_counts(matrix)
    if average == "micro":
        correct = float(tp.sum())
        cells = [(correct, n - correct, n - correct, (n_classes - 2) * n + correct)]
    else:
        cells = list(zip(*(x.tolist() for x in (tp, fn, fp, tn))))
    values = []
    for index, four in enumerate(cells):
        value = binary_measure(*four)
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise TypeError(
                f"binary_measure must return a number; got {quoted(value)} for the cells "
                f"(tp, fn, fp, tn) = {four} of class {index}.") from None
        values.append(value)
    if average == "micro":
        return values[0]
    weights = tp + fn if average == "weighted" else np.ones(n_classes)
    return float(np.average(values, weights=weights))


def _binary_or_averaged(matrix, average, binary_measure):
    """A binary measure of ``(tp, fn, fp)`` on a 2 x 2 matrix (class 1 positive) or averaged
    over the one-vs-all matrices of the present classes (Section 2 of the paper)."""
    matrix = _check_matrix(matrix)
    if average == "binary":
        if matrix.shape != (2, 2):
            raise ValueError(
                f"average='binary' needs a 2 x 2 matrix; got {matrix.shape[0]} classes. "
                "Choose average='micro', 'macro' or 'weighted'.")
        tp, fn, fp, _ = _binary_cells(matrix)
        return float(binary_measure(np.array([tp]), np.array([fn]), np.array([fp]))[0])
    matrix = _present_classes(matrix)
    tp, fp, fn, _ = class_counts(matrix)
    if average == "micro":
        correct = np.array([tp.sum()])
        wrong = matrix.sum() - correct
        return float(binary_measure(correct, wrong, wrong)[0])
    weights = tp + fn if average == "weighted" else np.ones_like(tp)
    return float(np.average(binary_measure(tp, fn, fp), weights=weights))


# --- Generalized Means and friends (Gosgens et al. 2021) ------------------------------


@validate_params({
    "matrix": [ARRAY], "r": [Interval(Real, None, None)],
    "average": [Options("binary", *AVERAGES, "symmetric_weighted")]})
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

    See Also
    --------
    symmetric_balanced_accuracy_from_confusion : The mean of BA and BA of the transpose.
    correlation_distance_from_confusion : CD and CD', distances from the correlation.
    confusion_entropy_from_confusion : Wei et al.'s entropy of the misclassifications.
    generalized_means_score : The same of labels and predictions.
    matthews_corrcoef_from_confusion : GM_0 of a binary matrix.

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

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Definition 10, Statement 2, Section 2 (averaging) and Appendix B.

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


@validate_params({"matrix": [ARRAY]})
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

    See Also
    --------
    generalized_means_from_confusion : GM_r, binary or averaged.
    correlation_distance_from_confusion : CD and CD', distances from the correlation.
    confusion_entropy_from_confusion : Wei et al.'s entropy of the misclassifications.
    symmetric_balanced_accuracy_score : The same of labels and predictions.
    balanced_accuracy_from_confusion : The balanced accuracy it symmetrizes.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (SBA), Statement 2 and Appendix B.

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


@validate_params({
    "matrix": [ARRAY], "form": [Options("angle", "chord")],
    "average": [Options("multiclass", *AVERAGES)]})
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

    See Also
    --------
    generalized_means_from_confusion : GM_r, binary or averaged.
    symmetric_balanced_accuracy_from_confusion : The mean of BA and BA of the transpose.
    confusion_entropy_from_confusion : Wei et al.'s entropy of the misclassifications.
    correlation_distance : The same of labels and predictions.
    matthews_corrcoef_from_confusion : The correlation it transforms.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Statements 4 and 6, and Table 13 (averages).

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


@validate_params({
    "matrix": [ARRAY], "formula": [Options("filled", "table_1")]})
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

    See Also
    --------
    generalized_means_from_confusion : GM_r, binary or averaged.
    symmetric_balanced_accuracy_from_confusion : The mean of BA and BA of the transpose.
    correlation_distance_from_confusion : CD and CD', distances from the correlation.
    confusion_entropy : The same of labels and predictions.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (CE) and Appendix C.3.

    J.-M. Wei, X.-J. Yuan, Q.-H. Hu, S.-Q. Wang, "A novel measure for evaluating
    classifiers", Expert Systems with Applications 37(5), 3799-3809 (2010): the
    confusion entropy.

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
