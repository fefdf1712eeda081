"""The ``y_true, y_pred`` faces of the scores: each builds its matrix and reads it.

The drop-in replacements of scikit-learn's functions (:func:`balanced_accuracy_score`,
:func:`cohen_kappa_score`, :func:`matthews_corrcoef`, as Gosgens et al. (NeurIPS 2021)
define them), the measures of the same paper (:func:`generalized_means_score`, ...), and
the scores of the transport-based confusion matrix (Erbani et al. 2024, Section V) and of
the multi-label confusion matrix (Heydarian et al. 2022, Section III-C; NTL/NPL is one more
class, "none"). Each builds the matrix with
:func:`~sklearn_confusion_ext._matrices.transport.transport_confusion` or
:func:`~sklearn_confusion_ext._matrices.mlcm.mlcm_confusion` and reads it with the formulas
of :mod:`.from_confusion` (the classic matrix for 1-D labels, the transport-based one for
2-D targets). Where scikit-learn's own function differs from the paper (balanced accuracy
drops the classes absent from ``y_true``; kappa and Matthews' correlation are NaN or 0
where the paper resolves a singularity), the docstring says so.
"""

from numbers import Real

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core.confusion import Confusion
from .._core.matrix_checks import check_counted
from .._core.params import (
    ARRAY,
    AVERAGES,
    BETA,
    BOOLEAN,
    INCLUDE_NONE,
    MLCM,
    TARGETS,
    TRANSPORT,
    WEIGHTING,
    ZERO_DIVISION,
    Interval,
    Label,
    NaN,
    Options,
    Refused,
    validate_params,
)
from .._core.user_warnings import warn
from .._matrices.mlcm import mlcm_confusion
from .._matrices.transport import transport_confusion
from .from_confusion import (
    _present_classes,
    _weighted_kappa,
    balanced_accuracy_from_confusion,
    binary_matrix,
    cohen_kappa_from_confusion,
    confusion_entropy_from_confusion,
    confusion_for_labels,
    correlation_distance_from_confusion,
    diagonal_fraction,
    generalized_means_from_confusion,
    matthews_corrcoef_from_confusion,
    multilabel_counts_from_confusion,
    precision_recall_fscore_from_confusion,
    symmetric_balanced_accuracy_from_confusion,
)

# The keywords of every y_true, y_pred face of a measure.
MEASURE_SCORE = {**TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                 "weighting": WEIGHTING}


# --- Drop-in replacements of scikit-learn's (Gosgens et al. 2021, Table 1) -------------


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


@validate_params({**MEASURE_SCORE, "adjusted": [BOOLEAN]})
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

    See Also
    --------
    balanced_accuracy_from_confusion : The formula, of a matrix.
    symmetric_balanced_accuracy_score : Its symmetric form.
    sklearn.metrics.balanced_accuracy_score : scikit-learn's.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (BA) and Appendix B.

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


@validate_params({
    **MEASURE_SCORE, "weights": [None, Options("linear", "quadratic")],
    "replace_undefined_by": [NaN(), Interval(Real, -1, 1)]},
    aliases={"y1": "y_true", "y2": "y_pred"})
def cohen_kappa_score(y_true, y_pred, *, labels=None, weights=None, sample_weight=None,
                      replace_undefined_by=np.nan, weighting="uniform"):
    """Cohen's kappa of predictions, as Gosgens et al. (2021) define it.

    Builds the confusion matrix and calls :func:`cohen_kappa_from_confusion`. It equals
    :func:`sklearn.metrics.cohen_kappa_score` except when both labelings put every element
    in the same class: perfect agreement, 1 here (the paper's resolution), where
    scikit-learn returns ``replace_undefined_by`` (NaN by default).

    A drop-in replacement of scikit-learn's: its parameters (``labels``, ``weights``,
    ``sample_weight``, ``replace_undefined_by``) come first, with the same meaning and
    default; this library's follow. The two targets are named ``y_true, y_pred``, and
    scikit-learn's names ``y1=``, ``y2=`` are taken too (by position they are the same).

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

    See Also
    --------
    cohen_kappa_from_confusion : The formula, of a matrix.
    matthews_corrcoef : The multiclass Matthews correlation.
    sklearn.metrics.cohen_kappa_score : scikit-learn's.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (kappa) and Appendix B.

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


@validate_params(MEASURE_SCORE)
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

    See Also
    --------
    matthews_corrcoef_from_confusion : The formula, of a matrix.
    generalized_means_score : GM_0 is the binary correlation.
    sklearn.metrics.matthews_corrcoef : scikit-learn's.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (CC) and Appendix B.

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


# --- Generalized Means and friends (Gosgens et al. 2021) ------------------------------


@validate_params({
    **MEASURE_SCORE, "r": [Interval(Real, None, None)],
    "average": [Options("binary", *AVERAGES, "symmetric_weighted")], "pos_label": [Label()]})
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

    See Also
    --------
    generalized_means_from_confusion : The formula, of a matrix.
    symmetric_balanced_accuracy_score : SBA, ``GM_-1`` rescaled.
    matthews_corrcoef : GM_0 of binary labels.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Definition 10 and Statement 2.

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


@validate_params(MEASURE_SCORE)
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

    See Also
    --------
    symmetric_balanced_accuracy_from_confusion : The formula, of a matrix.
    balanced_accuracy_score : The balanced accuracy it symmetrizes.
    generalized_means_score : GM_r of the same paper.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Table 1 (SBA) and Statement 2.

    Examples
    --------
    >>> from sklearn_confusion_ext import symmetric_balanced_accuracy_score
    >>> symmetric_balanced_accuracy_score([0, 0, 1, 1, 2], [0, 1, 1, 1, 2])
    0.861111111111111
    """
    confusion = _confusion(y_true, y_pred, labels, sample_weight, weighting)
    return symmetric_balanced_accuracy_from_confusion(confusion.selected())


@validate_params({**MEASURE_SCORE, "form": [Options("angle", "chord")],
                  "average": [Options("multiclass", *AVERAGES)]})
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

    See Also
    --------
    correlation_distance_from_confusion : The formula, of a matrix.
    matthews_corrcoef : The correlation it transforms.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification
    Measures and How to Find Them", Advances in Neural Information Processing Systems 34
    (NeurIPS 2021): Statements 4 and 6.

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


@validate_params({**MEASURE_SCORE, "formula": [Options("filled", "table_1")]})
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

    See Also
    --------
    confusion_entropy_from_confusion : The formula, of a matrix.
    correlation_distance : Another distance of the same paper.

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


# --- The transport-based confusion matrix (Erbani et al. 2024) ------------------------


@validate_params({**TRANSPORT, "include_none": INCLUDE_NONE})
def transport_multilabel_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                                          sample_weight=None, empty="null_class",
                                          include_none="auto"):
    """Per-class ``[[TN, FP], [FN, TP]]`` read off the transport confusion matrix.

    Definition 2 and eq. (36) of Erbani et al. (2024): TP is the diagonal
    entry of the class, FN the rest of its row, FP the rest of its column and
    TN everything else, summed over instances with the chosen weighting. On 1-D
    labels this equals :func:`sklearn.metrics.multilabel_confusion_matrix`.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty
        As in :func:`transport_confusion_matrix`.
    include_none : {"auto", True, False}, default="auto"
        Whether the "none" class of 2-D targets gets its own 2 x 2 matrix:
        "auto" includes it when some instance has an empty label.

    Returns
    -------
    ndarray of shape (n_labels, 2, 2)

    See Also
    --------
    transport_confusion_matrix : The matrix these counts are read off.
    mlcm_multilabel_confusion_matrix : The MLCM's counts.
    sklearn.metrics.multilabel_confusion_matrix : scikit-learn's, which this equals on labels.

    References
    ----------
    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: Definition 2
    and eq. (36).

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_multilabel_confusion_matrix
    >>> transport_multilabel_confusion_matrix([0, 1, 1], [0, 1, 0])
    array([[[1., 1.],
            [0., 1.]],
    <BLANKLINE>
           [[1., 0.],
            [1., 1.]]])
    """
    confusion, _ = confusion_for_labels(transport_confusion(
        y_true, y_pred, labels=None, weighting=weighting, sample_weight=sample_weight,
        empty=empty, column_labels=labels), labels)
    return multilabel_counts_from_confusion(confusion, include_none)


@validate_params({
    **TRANSPORT, "beta": BETA, "pos_label": [Label()],
    "average": [None, Options("binary", *AVERAGES), Refused("samples", (
        "scikit-learn's 'samples' averages each instance's precision and recall of its "
        "label set; the instance's transport plan has one agreement, its diagonal mass, "
        "which is its precision and its recall alike, so a 'samples' average would give "
        "one number for three scores that scikit-learn's gives apart. The mean of that "
        "agreement over the instances is transport_accuracy_score; scikit-learn's "
        "per-instance scores of 0/1 indicators are "
        "sklearn.metrics.precision_recall_fscore_support(..., average='samples').")),
    ], "zero_division": ZERO_DIVISION, "include_none": INCLUDE_NONE})
def transport_precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None,
                                              pos_label=1, average=None,
                                              weighting="uniform", sample_weight=None,
                                              zero_division="warn", empty="null_class",
                                              include_none="auto"):
    """Precision, recall, F-beta and support from the transport confusion matrix.

    Definition 3 of Erbani et al. (2024), eqs. (37)-(42): recall of class
    ``k`` is ``TCM_kk`` over row ``k``, precision ``TCM_kk`` over column
    ``k``. Return conventions follow
    :func:`sklearn.metrics.precision_recall_fscore_support`, which this equals
    on 1-D labels.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty
        As in :func:`transport_confusion_matrix`.
    beta : float, default=1.0
        Weight of recall in the F-score.
    pos_label : int, float, bool or str, default=1
        The class reported by ``average="binary"``.
    average : {None, "binary", "micro", "macro", "weighted"}, default=None
        ``None`` returns per-class arrays. "binary" reports ``pos_label`` of
        1-D targets with at most two classes. "micro" pools the counts of the
        reported classes (for the whole matrix all three scores equal the
        accuracy), "macro" averages per-class scores equally, "weighted" by
        support. The "none" class always counts in "micro".
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score whose denominator is zero; "warn" gives 0.0 with an
        ``UndefinedMetricWarning``. ``np.nan`` scores are left out of averages.
    include_none : {"auto", True, False}, default="auto"
        Whether the "none" class of 2-D targets gets its own entry and joins
        the macro and weighted averages: "auto" when some label is empty.

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        Weighted true mass of each class (row sums of the matrix); ``None``
        when ``average`` is set.

    See Also
    --------
    transport_accuracy_score : The accuracy of the same matrix.
    transport_classification_report : The same scores as a report.
    mlcm_precision_recall_fscore_support : The MLCM's.
    precision_recall_fscore_support_from_confusion : The same of a built matrix.
    sklearn.metrics.precision_recall_fscore_support : scikit-learn's, which this equals on labels.

    References
    ----------
    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: Definition 3,
    eqs. (37)-(42).

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_precision_recall_fscore_support
    >>> y_true = [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    >>> y_pred = [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    >>> p, r, f, s = transport_precision_recall_fscore_support(y_true, y_pred)
    >>> p.round(3), r.round(3), s
    (array([0.5  , 1.   , 0.667]), array([1.   , 0.333, 1.   ]), array([0.5, 1.5, 1. ]))
    >>> transport_precision_recall_fscore_support(y_true, y_pred, average="micro")[:3]
    (0.6666666666666666, 0.6666666666666666, 0.6666666666666666)
    """
    if average != "binary" and pos_label != 1:
        warn(f"pos_label={pos_label!r} is not used: it picks the reported class only with "
             f"average='binary' (got average={average!r}). To report that class alone, "
             f"pass labels=[{pos_label!r}].")
    confusion = transport_confusion(y_true, y_pred, labels=None, weighting=weighting,
                                    sample_weight=sample_weight, empty=empty,
                                    column_labels=labels)
    if average != "binary":
        confusion, _ = confusion_for_labels(confusion, labels)
        return precision_recall_fscore_from_confusion(
            confusion, beta=beta, average=average, zero_division=zero_division,
            include_none=include_none)
    binary = Confusion.from_parts(binary_matrix(confusion, pos_label), (0, 1), None, False)
    precision, recall, fscore, _ = precision_recall_fscore_from_confusion(
        binary, beta=beta, average=None, zero_division=zero_division, classes=np.array([1]))
    return float(precision[0]), float(recall[0]), float(fscore[0]), None


@validate_params({**TRANSPORT, "normalize": [BOOLEAN]})
def transport_accuracy_score(y_true, y_pred, *, normalize=True, labels=None,
                             weighting="uniform", sample_weight=None, empty="null_class"):
    """Accuracy of the transport confusion matrix: diagonal mass over total mass.

    Eqs. (40) and (43) of Erbani et al. (2024): the weighted share of mass the
    model put in the right class. Equals :func:`sklearn.metrics.accuracy_score`
    on 1-D labels. With ``labels=``, the accuracy of the selected sub-matrix.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty
        As in :func:`transport_confusion_matrix`.
    normalize : bool, default=True
        If False, return the diagonal mass (the weighted number of correct
        instances on 1-D labels) instead of the fraction.

    Returns
    -------
    float

    See Also
    --------
    transport_precision_recall_fscore_support : Per-class scores of the same matrix.
    accuracy_from_confusion : The accuracy of a built matrix.
    sklearn.metrics.accuracy_score : scikit-learn's, which this equals on labels.

    References
    ----------
    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: eqs. (40) and
    (43).

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_accuracy_score
    >>> transport_accuracy_score([0, 1, 2, 2], [0, 2, 2, 1])
    0.5
    >>> transport_accuracy_score([[1, 1, 0]], [[1, 0, 1]])
    0.5
    """
    confusion = transport_confusion(y_true, y_pred, labels=labels, weighting=weighting,
                                    sample_weight=sample_weight, empty=empty)
    return diagonal_fraction(confusion.selected(), normalize)


# --- The multi-label confusion matrix (Heydarian et al. 2022) -------------------------


@validate_params(MLCM)
def mlcm_multilabel_confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None,
                                     method="heydarian"):
    """Per-class ``[[TN, FP], [FN, TP]]`` read off the MLCM (equations 15-18).

    TP is the diagonal cell of the class, FN the rest of its row, FP the rest
    of its column, and TN, as the paper defines it (eq. 16), the sum of the
    *other diagonal cells*: the instances correctly given other classes. This
    differs from scikit-learn's one-vs-rest TN (everything outside the row and
    column). The last entry is the "none" class (NTL row / NPL column).

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, method
        As in :func:`mlcm`.

    Returns
    -------
    ndarray of shape (n_labels + 1, 2, 2)

    See Also
    --------
    mlcm : The matrix these counts are read off.
    transport_multilabel_confusion_matrix : The TCM's one-vs-rest counts.

    References
    ----------
    M. Heydarian, T. E. Doyle, R. Samavi, "MLCM: Multi-Label Confusion Matrix", IEEE
    Access 10 (2022), doi:10.1109/ACCESS.2022.3151048: eqs. (15)-(18).

    Examples
    --------
    >>> from sklearn_confusion_ext import mlcm_multilabel_confusion_matrix
    >>> counts = mlcm_multilabel_confusion_matrix([[1, 0], [1, 1]], [[0, 1], [1, 1]])
    >>> counts[0]
    array([[1., 0.],
           [1., 1.]])
    """
    confusion = mlcm_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                               method=method)
    return multilabel_counts_from_confusion(confusion, include_none=True,
                                            true_negatives="diagonal")


@validate_params({
    **MLCM, "beta": BETA, "average": [None, Options(*AVERAGES), Refused("samples", (
        "the MLCM counts each instance in the cells of its category (Heydarian et al.: "
        "labels right, missed, extra), spread over its labels and the none class; the "
        "paper defines precision and recall of classes, not of instances. scikit-learn's "
        "per-instance scores of the same 0/1 indicators are "
        "sklearn.metrics.precision_recall_fscore_support(..., average='samples').")),
    ], "zero_division": ZERO_DIVISION, "include_none": INCLUDE_NONE})
def mlcm_precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None,
                                         average=None, sample_weight=None,
                                         zero_division="warn", include_none="auto",
                                         method="heydarian"):
    """Precision, recall, F-beta and weight of each class from the MLCM (equations 2-7).

    Recall of class ``k`` is its diagonal cell over its row sum, precision the
    diagonal cell over its column sum. As in the paper and its authors' code,
    NTL/NPL is one more class, "none": the micro average pools all classes
    (so micro precision = micro recall = trace / total), and "none" gets its
    own entry and joins the macro and weighted averages only when its NTL row
    has mass. Returns follow :func:`sklearn.metrics.precision_recall_fscore_support`.

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, method
        As in :func:`mlcm`.
    beta : float, default=1.0
        Weight of recall in the F-score.
    average : {None, "micro", "macro", "weighted"}, default=None
        ``None`` returns per-class arrays; "weighted" weighs by the MLCM row
        sums (the paper's "weight"). "binary" has no MLCM meaning and raises.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score whose denominator is zero; "warn" gives 0.0 with an
        ``UndefinedMetricWarning``.
    include_none : {"auto", True, False}, default="auto"
        Whether "none" gets its own entry: "auto" when the NTL row has mass.

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        The MLCM row sums (the paper's "weight"); ``None`` when ``average`` is set.

    See Also
    --------
    mlcm_classification_report : The same scores as a report.
    transport_precision_recall_fscore_support : The TCM's.
    precision_recall_fscore_support_from_confusion : The same of a built matrix.

    References
    ----------
    M. Heydarian, T. E. Doyle, R. Samavi, "MLCM: Multi-Label Confusion Matrix", IEEE
    Access 10 (2022), doi:10.1109/ACCESS.2022.3151048: eqs. (2)-(7) and Table 1.

    Examples
    --------
    Table 1 of Heydarian et al. (2022): micro 0.4286, macro P/R/F1
    0.5028/0.5303/0.3972.

    >>> from sklearn_confusion_ext import mlcm_precision_recall_fscore_support
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> [round(v, 4) for v in mlcm_precision_recall_fscore_support(
    ...     y_true, y_pred, average="macro")[:3]]
    [0.5028, 0.5303, 0.3972]
    """
    confusion = mlcm_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                               method=method)
    return precision_recall_fscore_from_confusion(
        confusion, beta=beta, average=average, zero_division=zero_division,
        include_none=include_none)
