"""The classic measures of Table 1 of Gosgens et al. (NeurIPS 2021), singularities resolved as
their Appendix B says: accuracy, balanced accuracy, Cohen's kappa, F-beta, Jaccard and the
multiclass Matthews correlation.

Each is read off a confusion matrix (the ``*_from_confusion`` functions), so that the property
audit and the inconsistency tables see the paper's definitions, never a NaN. Where
scikit-learn's own ``y_true, y_pred`` function differs from the paper (balanced accuracy drops
the classes absent from ``y_true``; kappa and Matthews' correlation are NaN or 0 where the
paper resolves a singularity), a ``y_true, y_pred`` form of the same name builds the matrix
and calls the matrix-level function. The shared pieces (the checked unit-total matrix, the
absent classes dropped, ``c_ii / a_i = b_i / n`` when ``a_i = 0``, the binary cells) live in
:mod:`._measures`.
"""

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ._core.confusion import class_counts
from ._core.params import quoted, validate_params
from ._core.user_warnings import warn
from ._core.validation import check_confusion_matrix
from ._measures import (
    _binary_cells,
    _bounded,
    _check_matrix,
    _confusion,
    _constant_and_different,
    _constant_labelings,
    _correlation,
    _present_classes,
    _resolved_ratio,
)
from ._scores import accuracy_from_confusion as _accuracy
from ._scores import fbeta_terms
from ._transport import transport_confusion


@validate_params()
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

    Examples
    --------
    >>> from sklearn_confusion_ext import accuracy_from_confusion
    >>> accuracy_from_confusion([[5, 1], [2, 2]])
    0.7
    """
    return _accuracy(_check_matrix(matrix))


@validate_params()
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


@validate_params()
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


@validate_params()
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


@validate_params()
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


@validate_params()
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

    Examples
    --------
    >>> from sklearn_confusion_ext import matthews_corrcoef_from_confusion
    >>> round(matthews_corrcoef_from_confusion([[5, 1], [2, 2]]), 4)
    0.3563
    >>> matthews_corrcoef_from_confusion([[0, 1, 0], [0, 0, 1], [2, 0, 0]])  # Appendix C.1
    -0.5
    """
    return float(_correlation(_check_matrix(matrix)))


# The parameters that scikit-learn's functions of the same names take, with the same meaning
# and default, come first (drop-in replacement); this library's own follow.
_TARGETS_DOC = """    y_true, y_pred : array-like or sparse matrix
        1-D class labels, or (an extension of the paper) 2-D multi-label indicators or soft
        labels, whose confusion matrix is then the transport-based one
        (:func:`transport_confusion_matrix`, "none" class included)."""
_OWN_DOC = """    labels : array-like, default=None
        Classes to keep, as in :func:`transport_confusion_matrix`; a listed class absent
        from both targets changes nothing.
    weighting : {"uniform", "true", "pred"} or callable, default="uniform"
        Instance weights of the transport confusion matrix of 2-D targets (no effect on
        1-D labels)."""


@validate_params()
def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False, labels=None,
                            weighting="uniform"):
    """Balanced accuracy of predictions, as Gosgens et al. (2021) define it.

    Builds the confusion matrix and calls :func:`balanced_accuracy_from_confusion`: the mean
    recall over every class present in ``y_true`` or ``y_pred``, a class absent from
    ``y_true`` counting with its predicted share ``b_i / n`` (Appendix B). It equals
    :func:`sklearn.metrics.balanced_accuracy_score` when every predicted class occurs in
    ``y_true``; scikit-learn drops the others, which costs the measure its constant baseline.

    A drop-in replacement of scikit-learn's: its parameters (``sample_weight``,
    ``adjusted``) come first, with the same meaning and default; this library's follow.

    Parameters
    ----------
{targets}
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    adjusted : bool, default=False
        Adjust for chance, as scikit-learn does: ``(BA - 1/m) / (1 - 1/m)`` over the ``m``
        classes counted, so that random predictions score 0 and perfect ones 1. With one
        class only (both labelings put everything in it: perfect agreement) the value is 1.
{own}

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.metrics import balanced_accuracy_score as sklearn_balanced_accuracy
    >>> from sklearn_confusion_ext import balanced_accuracy_score
    >>> balanced_accuracy_score([0, 0, 1, 1], [0, 1, 1, 1])
    0.75
    >>> balanced_accuracy_score([0, 0, 1, 1], [0, 1, 1, 1], adjusted=True)
    0.5
    >>> y_true, y_pred = [0, 0, 0, 0], [0, 0, 1, 2]  # classes 1 and 2 never true
    >>> balanced_accuracy_score(y_true, y_pred), sklearn_balanced_accuracy(y_true, y_pred)
    (0.3333333333333333, 0.5)
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    matrix = confusion.selected()
    score = balanced_accuracy_from_confusion(matrix)
    if not adjusted:
        return score
    n_classes = _present_classes(np.asarray(matrix, dtype=np.float64)).shape[0]
    if n_classes == 1:
        return 1.0
    chance = 1.0 / n_classes
    return float((score - chance) / (1.0 - chance))


@validate_params()
def cohen_kappa_score(y_true, y_pred, *, labels=None, weights=None, sample_weight=None,
                      replace_undefined_by=np.nan, weighting="uniform"):
    """Cohen's kappa of predictions, as Gosgens et al. (2021) define it.

    Builds the confusion matrix and calls :func:`cohen_kappa_from_confusion`. It equals
    :func:`sklearn.metrics.cohen_kappa_score` except when both labelings put every element
    in the same class: perfect agreement, 1 here (the paper's resolution), where
    scikit-learn returns ``replace_undefined_by`` (NaN by default).

    A drop-in replacement of scikit-learn's: its parameters (``labels``, ``weights``,
    ``sample_weight``, ``replace_undefined_by``) come first, with the same meaning and
    default; this library's follow. The two targets are named ``y_true, y_pred`` (scikit-learn
    names them ``y1, y2``): pass them by position.

    Parameters
    ----------
{targets}
    labels : array-like, default=None
        Classes to keep, in this order (the order ``weights`` reads), as in
        :func:`transport_confusion_matrix`.
    weights : {{None, "linear", "quadratic"}}, default=None
        Weighted kappa, as scikit-learn's: the disagreement between the classes at
        positions ``i`` and ``j`` of ``labels`` (sorted classes by default) weighs
        ``|i - j|`` ("linear") or ``(i - j)**2`` ("quadratic"); None: every disagreement
        weighs 1. Only for 1-D labels (2-D targets add an unordered "none" class).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    replace_undefined_by : np.nan or float in [-1, 1], default=np.nan
        The value where kappa is undefined: no instance is counted (``labels`` that no
        prediction has, weights all zero), with an ``UndefinedMetricWarning``, as
        scikit-learn does. Where both labelings put everything in the same class the
        paper's resolution holds (1, perfect agreement).
    weighting : {{"uniform", "true", "pred"}} or callable, default="uniform"
        Instance weights of the transport confusion matrix of 2-D targets (no effect on
        1-D labels).

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import cohen_kappa_score
    >>> round(cohen_kappa_score([0, 0, 1, 1, 2], [0, 1, 1, 1, 2]), 4)
    0.6875
    >>> round(cohen_kappa_score([0, 0, 1, 1, 2], [0, 1, 1, 1, 2], weights="quadratic"), 4)
    0.8
    >>> cohen_kappa_score([1, 1, 1], [1, 1, 1])
    1.0
    """
    confusion = transport_confusion(y_true, y_pred, labels=labels, weighting=weighting,
                                    sample_weight=sample_weight, empty="null_class")
    matrix = np.asarray(confusion.selected(), dtype=np.float64)
    if weights is not None and confusion.has_none:
        raise ValueError(
            f"weights={weights!r} weighs a disagreement by the distance between the positions "
            "of two classes in labels; 2-D targets add a 'none' class that has no position "
            "among them. Use weights with 1-D class labels, or weights=None.")
    if not matrix.sum() > 0:
        warn(
            "No instance of y_true and y_pred is counted (labels, sample_weight): "
            "cohen_kappa_score is undefined and set to replace_undefined_by="
            f"{replace_undefined_by!r}.", UndefinedMetricWarning)
        return float(replace_undefined_by)
    if weights is None:
        return cohen_kappa_from_confusion(matrix)
    return _weighted_kappa(matrix, weights)


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


@validate_params()
def matthews_corrcoef(y_true, y_pred, *, sample_weight=None, labels=None, weighting="uniform"):
    """Multiclass Matthews correlation CC of predictions, as Gosgens et al. (2021) define it.

    Builds the confusion matrix and calls :func:`matthews_corrcoef_from_confusion`. It equals
    :func:`sklearn.metrics.matthews_corrcoef` except when both labelings put every element in
    one class each: 1 (same class) or -1 (different classes) here, 0 there.

    A drop-in replacement of scikit-learn's: its parameter ``sample_weight`` comes first,
    this library's follow.

    Parameters
    ----------
{targets}
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
{own}

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn_confusion_ext import matthews_corrcoef
    >>> round(matthews_corrcoef([0, 0, 1, 1, 2], [0, 1, 1, 1, 2]), 4)
    0.735
    >>> matthews_corrcoef([1, 1, 1], [0, 0, 0])
    -1.0
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    return matthews_corrcoef_from_confusion(confusion.selected())


balanced_accuracy_score.__doc__ = balanced_accuracy_score.__doc__.format(
    targets=_TARGETS_DOC, own=_OWN_DOC)
cohen_kappa_score.__doc__ = cohen_kappa_score.__doc__.format(targets=_TARGETS_DOC)
matthews_corrcoef.__doc__ = matthews_corrcoef.__doc__.format(
    targets=_TARGETS_DOC, own=_OWN_DOC)


@validate_params()
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
