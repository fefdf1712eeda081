"""Scores of the transport-based confusion matrix (Erbani et al. 2024, Section V).

Thin public wrappers: each builds the TCM with
:func:`~sklearn_confusion_ext._transport.transport_confusion` and reads it with
the matrix-level functions of :mod:`sklearn_confusion_ext._scores`.
"""

import numpy as np

from ._core.confusion import Confusion
from ._core.params import validate_params
from ._core.user_warnings import warn
from ._scores import (
    accuracy_from_confusion,
    binary_matrix,
    check_target_names,
    classification_report_from_confusion,
    confusion_for_labels,
    multilabel_counts_from_confusion,
    precision_recall_fscore_from_confusion,
    report_intervals,
    report_row_names,
)
from ._transport import TRANSPORT, transport_confusion


@validate_params()
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


@validate_params()
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


@validate_params()
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
    return accuracy_from_confusion(confusion.selected(), normalize)


@validate_params()
def transport_classification_report(y_true, y_pred, *, labels=None, target_names=None,
                                    weighting="uniform", sample_weight=None, digits=2,
                                    output_dict=False, zero_division="warn",
                                    empty="null_class", include_none="auto",
                                    confidence_level=None, interval_method="percentile",
                                    n_resamples=999, random_state=None, verbose=0):
    """Text report of the transport-based precision, recall and F1 per class.

    Laid out like :func:`sklearn.metrics.classification_report` and equal to
    it on 1-D labels. Supports are the weighted true masses of each class
    (printed as integers when they all are). With ``confidence_level``, every
    precision, recall and F1 (and the accuracy) gets its bootstrap interval.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty
        As in :func:`transport_confusion_matrix`.
    target_names : list of str, default=None
        Display names of the classes, in order. The "none" class of multi-label
        targets is named "none", or by one more name at the end of the list.
    digits : int, default=2
        Digits of the floats in the text report.
    output_dict : bool, default=False
        Return a dict ``{class: {"precision": ..., "recall": ..., "f1-score":
        ..., "support": ...}, "accuracy": ..., "macro avg": {...},
        "weighted avg": {...}}`` instead of text. With ``confidence_level``,
        each score ``s`` of a row has ``"s_low"`` and ``"s_high"`` beside it
        (``"precision_low"``, ``"precision_high"``, ``"recall_low"``, ...,
        ``"f1-score_high"``), and the accuracy has ``"accuracy_low"`` and
        ``"accuracy_high"`` beside it.
    zero_division, include_none
        As in :func:`transport_precision_recall_fscore_support`.
    confidence_level : float in (0, 1), at most 1 - 2**-52, default=None
        If set, an interval of every score at this level, printed
        ``0.50 [0.36, 0.63]``: one pass of ``n_resamples`` resamples of the
        instances, all the report's scores read off each resampled matrix (on
        1-D labels without ``sample_weight``, resampled confusion cells), as
        :func:`score_confidence_interval` with the same ``method`` and
        ``n_resamples`` draws them. ``None``: no intervals.
    interval_method : {"percentile", "basic", "bca", "bayesian"}, default="percentile"
        How the intervals are made from the resamples, as in
        :func:`score_confidence_interval`'s ``method`` ("bayesian": on 1-D labels the
        Dirichlet posterior of the cells without a prior, otherwise the Bayesian
        bootstrap). An interval that would be a point (a class 100 % right: every
        resample agrees) is Wilson's score interval of its trials instead, with a
        :class:`~sklearn_confusion_ext.exceptions.DegenerateIntervalWarning` (the user
        guide's "At the boundary").
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
    >>> from sklearn_confusion_ext import transport_classification_report
    >>> print(transport_classification_report(["a", "b", "b"], ["a", "b", "a"]))
                  precision    recall  f1-score   support
    <BLANKLINE>
               a       0.50      1.00      0.67         1
               b       1.00      0.50      0.67         2
    <BLANKLINE>
        accuracy                           0.67         3
       macro avg       0.75      0.75      0.67         3
    weighted avg       0.83      0.67      0.67         3
    <BLANKLINE>

    With 95 % intervals:

    >>> y_true, y_pred = [0, 0, 1, 1, 2, 2] * 20, [0, 1, 1, 1, 2, 0] * 20
    >>> print(transport_classification_report(y_true, y_pred, confidence_level=0.95,
    ...                                       random_state=0))
                          precision            recall          f1-score   support
    <BLANKLINE>
               0  0.50 [0.34, 0.65] 0.50 [0.34, 0.64] 0.50 [0.35, 0.62]        40
               1  0.67 [0.55, 0.79] 1.00 [0.91, 1.00] 0.80 [0.71, 0.88]        40
               2  1.00 [0.84, 1.00] 0.50 [0.33, 0.66] 0.67 [0.50, 0.79]        40
    <BLANKLINE>
        accuracy                                      0.67 [0.57, 0.74]       120
       macro avg  0.72 [0.63, 0.80] 0.67 [0.58, 0.74] 0.66 [0.57, 0.73]       120
    weighted avg  0.72 [0.63, 0.80] 0.67 [0.57, 0.74] 0.66 [0.56, 0.74]       120
    <BLANKLINE>
    >>> report = transport_classification_report(
    ...     y_true, y_pred, confidence_level=0.95, random_state=0, output_dict=True)
    >>> [round(report["0"][key], 3) for key in ("f1-score", "f1-score_low", "f1-score_high")]
    [0.5, 0.353, 0.617]
    >>> round(report["accuracy_low"], 3), round(report["accuracy_high"], 3)
    (0.575, 0.742)
    """
    check_target_names(target_names, labels)
    full = transport_confusion(y_true, y_pred, labels=None, weighting=weighting,
                               sample_weight=sample_weight, empty=empty, column_labels=labels)
    confusion, class_names = confusion_for_labels(full, labels)
    report_row_names(confusion, target_names, include_none, class_names)  # before the work
    intervals = None
    if confidence_level is not None:
        intervals = report_intervals(
            y_true, y_pred, sample_weight, full, confusion, TRANSPORT,
            {"weighting": weighting, "empty": empty}, column_labels=labels,
            zero_division=zero_division, include_none=include_none,
            confidence_level=confidence_level, method=interval_method,
            n_resamples=n_resamples, random_state=random_state, verbose=verbose)
    return classification_report_from_confusion(
        confusion, target_names=target_names, digits=digits, output_dict=output_dict,
        zero_division=zero_division, include_none=include_none, class_names=class_names,
        intervals=intervals)
