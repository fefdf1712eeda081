"""Calibration in the large, class by class: the prevalence the probabilities predict
against the prevalence observed.

The soft (transport) confusion matrix of labels against probabilities holds in row ``i``
the probabilities the instances of class ``i`` gave each class: its column sums over the
total are the mean probability of each class (probabilistic classify and count), its row
sums over the total the classes' prevalences. A calibrated model predicts the prevalences
right; :func:`calibration_in_the_large` compares the two vectors with a quantification
error of the library (Sebastiani 2020) and gives bootstrap intervals of the error and of
each class's difference, from the library's resampler of instance weights.
"""

import warnings
from numbers import Integral, Real

import numpy as np

from .._core.bounds import percentile_interval
from .._core.params import (
    ARRAY,
    CONFIDENCE_LEVEL,
    N_RESAMPLES,
    RANDOM_STATE,
    VERBOSE,
    Interval,
    NaN,
    Options,
    validate_params,
)
from .._core.probabilities import checked_probabilities
from .._core.resampling import Progress, instance_weights
from .._core.results import Result, _result, interval_method
from .._matrices.transport import transport_confusion_matrix
from .._quantification import errors as quantification_errors
from .._quantification.evaluation import _EVALUATED_ERRORS

MEASURES = _EVALUATED_ERRORS  # evaluate_quantifier's errors, by their function names
# Entries of one slice of the one-hot labels (8 MiB).
_ONE_HOT_ENTRIES = 1 << 20
_VALUE = [Interval(Real, None, None), NaN(), Options(np.inf)]


@_result(kw_only=True, parameters={
    "class_names": [ARRAY], "true_prevalence": [ARRAY], "predicted_prevalence": [ARRAY],
    "difference": [ARRAY], "difference_low": [None, ARRAY], "difference_high": [None, ARRAY],
    "measure": [Options(*MEASURES)], "error": _VALUE, "low": [None, *_VALUE],
    "high": [None, *_VALUE],
    "eps": [None, Interval(Real, 0, None, closed="neither")],
    "confidence_level": [None, CONFIDENCE_LEVEL],
    "method": [None, Options("percentile", "bayesian")],
    "n_resamples": [None, Interval(Integral, 1, None)]})
class CalibrationInTheLargeResult(Result):
    """Result of :func:`calibration_in_the_large`: one row per class.

    ``to_frame()`` gives the table (true and predicted prevalence, their difference and
    its interval per class); the summary line gives the quantification error between the
    two vectors with its interval, ``confidence_interval()`` its ends.

    Attributes
    ----------
    class_names : ndarray of shape (n_classes,)
        The classes, in the order of the columns of ``y_prob``.
    true_prevalence : ndarray of shape (n_classes,)
        Each class's (weighted) share of the instances: the row sums of the soft matrix
        over its total.
    predicted_prevalence : ndarray of shape (n_classes,)
        Each class's mean probability: the column sums of the soft matrix over its total
        (probabilistic classify and count).
    difference : ndarray of shape (n_classes,)
        ``predicted_prevalence - true_prevalence``: positive where the model predicts the
        class too often.
    difference_low, difference_high : ndarray of shape (n_classes,) or None
        The interval of each difference (None without ``confidence_level``).
    measure : str
        The quantification error, a function of ``sklearn_confusion_ext.quantification``
        named as it is (``"absolute_error"``, ``"kl_divergence"``, ...).
    error : float
        ``measure(true_prevalence, predicted_prevalence)``; lower is better, 0 when every
        class's prevalence is predicted right.
    low, high : float or None
        Its interval (None without ``confidence_level``).
    eps : float or None
        The smoothing the measure was given.
    confidence_level : float or None
        The level of the intervals.
    method : {"percentile", "bayesian"} or None
        How the intervals were made.
    n_resamples : int or None
        The resamples behind them.

    See Also
    --------
    calibration_in_the_large : The function that returns it.

    Examples
    --------
    >>> from sklearn_confusion_ext import calibration_in_the_large
    >>> result = calibration_in_the_large([0, 1, 1, 2], [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1],
    ...                                   [0.4, 0.4, 0.2], [0.1, 0.1, 0.8]],
    ...                                   confidence_level=None)
    >>> result.predicted_prevalence.round(3).tolist(), result.true_prevalence.round(3).tolist()
    ([0.325, 0.375, 0.3], [0.25, 0.5, 0.25])
    >>> round(result.error, 4)
    0.0833
    """

    class_names: np.ndarray
    true_prevalence: np.ndarray
    predicted_prevalence: np.ndarray
    difference: np.ndarray
    measure: str
    error: float
    difference_low: np.ndarray = None
    difference_high: np.ndarray = None
    low: float = None
    high: float = None
    eps: float = None
    confidence_level: float = None
    method: str = None
    n_resamples: int = None

    confidence_interval = interval_method()
    _table_index, _table_index_name = "class_names", "class"

    @property
    def _table_columns(self):
        shown = ("true_prevalence", "predicted_prevalence", "difference")
        return shown if self.difference_low is None else (
            *shown, "difference_low", "difference_high")

    def _summary(self):
        shown = [("measure", self.measure), ("error", self.error)]
        if self.confidence_level is not None:
            shown += [("low", self.low), ("high", self.high),
                      ("confidence_level", self.confidence_level), ("method", self.method)]
        return shown


def _soft_matrix(data):
    """The soft (transport) matrix of the labels against the probabilities, over the
    classes in the order of ``y_prob``'s columns."""
    n_classes = len(data.classes)
    prob = data.prob
    if data.one_dimensional:  # the two classes' columns, in the classes' order
        prob = np.column_stack([1 - prob, prob] if data.positive == 1 else [prob, 1 - prob])
    with warnings.catch_warnings():  # the rows were checked (and warned) as y_prob's: a
        # float32 predict_proba was warned as "y_pred's rows do not sum to 1" here
        warnings.filterwarnings("ignore", message="y_pred's rows do not sum to 1")
        return transport_confusion_matrix(data.codes, prob, labels=np.arange(n_classes),
                                          sample_weight=data.sample_weight)


def _resampled_prevalences(data, weights):
    """``(true, predicted)`` prevalences under each row of instance ``weights`` (times
    ``sample_weight``), shape ``(n_rows, n_classes)``: products of the weights with the
    probabilities and the one-hot labels, no copy of the probabilities."""
    if data.sample_weight is not None:
        weights *= data.sample_weight  # the block is the caller's, drawn anew each time
    n, n_classes = weights.shape[1], len(data.classes)
    # the class sums: products with the one-hot labels, built a slice of instances at a
    # time (a dense product is faster than a sparse one; no (n, C) array is held)
    true = np.zeros((len(weights), n_classes))
    step = max(1, _ONE_HOT_ENTRIES // n_classes)
    for start in range(0, n, step):
        codes = data.codes[start:start + step]
        one_hot = np.zeros((codes.shape[0], n_classes))
        one_hot[np.arange(codes.shape[0]), codes] = 1.0
        true += weights[:, start:start + step] @ one_hot
    totals = true.sum(axis=1)
    if data.one_dimensional:
        positive = weights @ data.prob
        predicted = np.empty((len(weights), 2))
        predicted[:, data.positive], predicted[:, 1 - data.positive] = positive, \
            totals - positive
    else:  # rows not summing to 1 read divided by their sums (their weights divided: no
        # copy of the probabilities); they were read as given, refused as p_pred's
        predicted = (weights if data.norms is None else weights / data.norms) @ data.prob
    with np.errstate(invalid="ignore", divide="ignore"):
        return true / totals[:, None], predicted / totals[:, None]


@validate_params({"y_true": [ARRAY], "y_prob": [ARRAY], "measure": [Options(*MEASURES)],
                  "eps": [Options("auto"), *quantification_errors.EPS],
                  "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                  "confidence_level": [None, CONFIDENCE_LEVEL],
                  "method": [Options("percentile", "bayesian")],
                  "n_resamples": N_RESAMPLES,
                  "random_state": RANDOM_STATE, "verbose": VERBOSE})
def calibration_in_the_large(y_true, y_prob, *, measure="absolute_error", eps="auto",
                             labels=None, sample_weight=None, confidence_level=0.95,
                             method="percentile", n_resamples=9999, random_state=None,
                             verbose=0):
    """Calibration in the large, class by class: the prevalence the probabilities predict
    against the prevalence observed, with a quantification error and its interval.

    The soft (transport) confusion matrix ``M`` of the labels against the probabilities
    (:func:`transport_confusion_matrix`) holds in ``M[i, j]`` the probability of class
    ``j`` summed over the instances of class ``i``. Its column sums over its total are the
    predicted prevalences, ``q_j = sum_n w_n p_nj / sum_n w_n`` (probabilistic classify and
    count: the mean probability of each class), its row sums over its total the true
    prevalences ``pi_i``. A calibrated model predicts every class's prevalence right
    (``E[q_j] = pi_j``); the converse does not hold (a model that gives every instance the
    prevalences is calibrated in the large, and useless). The two vectors are compared by
    a quantification error of ``sklearn_confusion_ext.quantification`` (Sebastiani
    2020), ``measure(pi, q)``, and by each class's difference ``q_j - pi_j``.

    The intervals are the bootstrap's over instances (``method="percentile"``) or the
    Bayesian bootstrap's (``"bayesian"``), equal-tailed, from the library's resampler of
    instance weights (the draws of :func:`score_confidence_interval`): each resample's
    prevalences are products of its weights with the probabilities and the labels.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true class labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        The probability of the positive class (1-D: two classes), or a classifier's
        ``predict_proba``, its columns the classes in sorted order (a
        classifier's ``classes_``).
    measure : str, default="absolute_error"
        The quantification error, by its function's name: ``"absolute_error"`` (AE),
        ``"normalized_absolute_error"``, ``"relative_absolute_error"`` (RAE),
        ``"normalized_relative_absolute_error"``, ``"squared_error"``,
        ``"normalized_squared_error"``, ``"discordance_ratio"``, ``"kl_divergence"``
        (KLD), ``"normalized_kl_divergence"``, ``"pearson_divergence"``,
        ``"normalized_pearson_divergence"``.
    eps : float, "auto" or None, default="auto"
        The smoothing of the measures that smooth (eq. 6 of the paper): ``"auto"`` is the
        paper's ``1 / (2 n_samples)``; None smooths nothing (RAE and KLD then fail on a
        prevalence of 0).
    labels : array-like, default=None
        The classes: every class of the columns of a 2-D ``y_prob``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused; for a 1-D ``y_prob``,
        the two classes, the positive one last.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: every sum is weighted.
    confidence_level : float or None, default=0.95
        The level of the intervals; None computes none (their ends are None).
    method : {"percentile", "bayesian"}, default="percentile"
        The bootstrap's percentile interval, or the Bayesian bootstrap's.
    n_resamples : int, default=9999
        Resamples of the instances.
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the resamples (as :func:`score_confidence_interval`'s).
    verbose : int, default=0
        Progress of the resampling on standard error.

    Returns
    -------
    CalibrationInTheLargeResult
        The per-class table (``to_frame()``) and the error with its interval.

    See Also
    --------
    calibration_test : Whether the probabilities are calibrated instance by instance.
    reliability_curve : Calibration bin by bin.
    transport_confusion_matrix : The soft matrix whose sums these are.
    evaluate_quantifier : The same errors over the samples of a protocol.

    References
    ----------
    .. [1] Sebastiani, F. (2020). "Evaluation Measures for Quantification: An Axiomatic
       Approach". Information Retrieval Journal, 23, 255-288 (the measures, and the
       smoothing of eq. 6).
    .. [2] Bella, A., Ferri, C., Hernandez-Orallo, J. and Ramirez-Quintana, M. J. (2010).
       "Quantification via Probability Estimators". ICDM (probabilistic classify and
       count).
    .. [3] Van Calster, B. et al. (2016). "A calibration hierarchy for risk models was
       defined: from utopia to empirical data". Journal of Clinical Epidemiology, 74,
       167-176 (calibration in the large, the "mean" calibration).

    Examples
    --------
    >>> from sklearn_confusion_ext import calibration_in_the_large
    >>> y_true = ["a", "b", "b", "c", "a", "b"]
    >>> y_prob = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6],
    ...           [0.5, 0.4, 0.1], [0.3, 0.3, 0.4]]
    >>> result = calibration_in_the_large(y_true, y_prob, n_resamples=999,
    ...                                   random_state=0)
    >>> result.to_frame()[["true_prevalence", "predicted_prevalence"]].round(3)
           true_prevalence  predicted_prevalence
    class
    a                0.333                 0.333
    b                0.500                 0.400
    c                0.167                 0.267
    >>> round(result.error, 4), round(result.low, 4), round(result.high, 4)
    (0.0667, 0.0222, 0.2889)
    """
    owner = "calibration_in_the_large"
    data = checked_probabilities(owner, y_true, y_prob, labels=labels,
                                 sample_weight=sample_weight)
    if data.one_dimensional and len(data.classes) < 2:
        raise ValueError(f"{owner}: y_true holds one class only, and a 1-D y_prob is the "
                         "probability of one class of two; pass labels= naming both "
                         "classes (the positive one last).")
    weights = data.sample_weight
    if weights is not None and not weights.any():
        raise ValueError(f"{owner}: sample_weight sums to 0; prevalences need a positive "
                         "total weight.")
    matrix = _soft_matrix(data)
    total = matrix.sum()
    true, predicted = matrix.sum(axis=1) / total, matrix.sum(axis=0) / total
    n_samples = data.codes.shape[0]
    eps = 1 / (2 * n_samples) if eps == "auto" else eps
    function = getattr(quantification_errors, measure)
    error = float(function(true, predicted, eps=eps))
    low = high = difference_low = difference_high = None
    if confidence_level is not None:
        rng = np.random.default_rng(random_state)
        progress = Progress(verbose, n_resamples, owner)
        errors, differences = [], []
        for block in progress.track(instance_weights(
                rng, n_samples, int(n_resamples), method == "bayesian",
                owner=owner, reuse=True)):
            true_r, predicted_r = _resampled_prevalences(data, block)
            drawn = np.isfinite(true_r).all(axis=1)  # a resample of weight 0 is NaN
            values = np.full(len(block), np.nan)
            if drawn.any():
                values[drawn] = function(true_r[drawn], predicted_r[drawn], eps=eps,
                                         aggregate=None)
            errors.append(values)
            differences.append(predicted_r - true_r)
        progress.close()
        alpha = 1 - float(confidence_level)
        low, high = map(float, percentile_interval(np.concatenate(errors), alpha))
        difference_low, difference_high = percentile_interval(np.concatenate(differences),
                                                              alpha)
    return CalibrationInTheLargeResult(
        class_names=np.asarray(data.classes), true_prevalence=true,
        predicted_prevalence=predicted, difference=predicted - true,
        difference_low=difference_low, difference_high=difference_high,
        measure=measure, error=error, low=low, high=high,
        eps=None if eps is None else float(eps),
        confidence_level=None if confidence_level is None else float(confidence_level),
        method=None if confidence_level is None else method,
        n_resamples=None if confidence_level is None else int(n_resamples))
