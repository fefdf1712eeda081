"""Scores of the multi-label confusion matrix (Heydarian et al. 2022, Section III-C).

Thin public wrappers: each builds the MLCM with
:func:`~sklearn_confusion_ext._mlcm.mlcm_confusion` and reads it with the
matrix-level functions of :mod:`sklearn_confusion_ext._scores`. NTL/NPL is one
more class, "none", as in the paper and its authors' code.
"""

from ._core.params import validate_params
from ._mlcm import _MLCM_METHODS, mlcm_confusion
from ._scores import (
    check_target_names,
    classification_report_from_confusion,
    multilabel_counts_from_confusion,
    precision_recall_fscore_from_confusion,
    report_intervals,
    report_row_names,
)


@validate_params()
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


@validate_params()
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


@validate_params()
def mlcm_classification_report(y_true, y_pred, *, labels=None, target_names=None,
                               sample_weight=None, digits=2, output_dict=False,
                               zero_division="warn", include_none="auto", method="heydarian",
                               confidence_level=None, interval_method="percentile",
                               n_resamples=999, random_state=None, verbose=0):
    """Per-class and averaged scores of the MLCM, laid out as the paper's Table 12.

    One row per class (precision, recall, F1-score, weight = the MLCM row
    sum), then ``micro avg``, ``macro avg`` and ``weighted avg``. With
    ``confidence_level``, every precision, recall and F1 gets its bootstrap
    interval.

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, method
        As in :func:`mlcm`.
    target_names : list of str, default=None
        Display names of the classes, in order. The "none" class of multi-label
        targets is named "none", or by one more name at the end of the list.
    digits : int, default=2
        Digits of the floats in the text report.
    output_dict : bool, default=False
        Return a dict of dicts instead of text. With ``confidence_level``, each
        score ``s`` of a row has ``"s_low"`` and ``"s_high"`` beside it
        (``"precision_low"``, ``"precision_high"``, ``"recall_low"``, ...,
        ``"f1-score_high"``).
    zero_division, include_none
        As in :func:`mlcm_precision_recall_fscore_support`.
    confidence_level : float in (0, 1), at most 1 - 2**-52, default=None
        If set, an interval of every score at this level, printed
        ``0.50 [0.36, 0.63]``: one pass of ``n_resamples`` resamples of the
        instances (instance weights; on 1-D labels without ``sample_weight``,
        the confusion cells), all the report's scores read off each resampled
        MLCM, as :func:`score_confidence_interval` with the same ``method`` and
        ``n_resamples`` draws them. ``None``: no intervals.
    interval_method : {"percentile", "basic", "bca", "bayesian"}, default="percentile"
        How the intervals are made, as in :func:`transport_classification_report`.
    n_resamples : int, default=999
        Resamples (or posterior draws) of the intervals.
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the resampling (with ``confidence_level``).
    verbose : int, default=0
        Progress of the resampling on standard error (with ``confidence_level``), as in
        :func:`score_confidence_interval`.

    Returns
    -------
    str or dict

    Examples
    --------
    >>> from sklearn_confusion_ext import mlcm_classification_report
    >>> y_true = [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    >>> y_pred = [[1, 0, 1], [0, 1, 0], [0, 0, 1]]
    >>> print(mlcm_classification_report(y_true, y_pred, target_names=["cat", "dog", "fox"]))
                  precision    recall  f1-score    weight
    <BLANKLINE>
             cat       1.00      1.00      1.00         1
             dog       1.00      0.50      0.67         2
             fox       0.50      1.00      0.67         1
    <BLANKLINE>
       micro avg       0.75      0.75      0.75         4
       macro avg       0.83      0.83      0.78         4
    weighted avg       0.88      0.75      0.75         4
    <BLANKLINE>

    With 90 % intervals, on these instances repeated ten times:

    >>> report = mlcm_classification_report(y_true * 10, y_pred * 10, confidence_level=0.9,
    ...                                     random_state=0, output_dict=True)
    >>> [round(report["micro avg"][key], 3) for key in ("f1-score", "f1-score_low",
    ...                                                 "f1-score_high")]
    [0.75, 0.682, 0.833]
    >>> [round(report["1"][key], 3) for key in ("recall", "recall_low", "recall_high")]
    [0.5, 0.318, 0.685]
    """
    check_target_names(target_names, labels)
    confusion = mlcm_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                               method=method)
    report_row_names(confusion, target_names, include_none)  # before the resampling
    intervals = None
    if confidence_level is not None:
        intervals = report_intervals(
            y_true, y_pred, sample_weight, confusion, confusion, _MLCM_METHODS[method], {},
            zero_division=zero_division, include_none=include_none,
            confidence_level=confidence_level, method=interval_method,
            n_resamples=n_resamples, random_state=random_state, verbose=verbose)
    return classification_report_from_confusion(
        confusion, target_names=target_names, digits=digits, output_dict=output_dict,
        zero_division=zero_division, include_none=include_none, support_name="weight",
        accuracy_row=False, intervals=intervals)
