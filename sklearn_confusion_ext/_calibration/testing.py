"""Tests of calibration: is the gap between the probabilities and the outcomes more than
chance?

:func:`calibration_test` gives Spiegelhalter's (1986) z test for the probabilities of two
classes (a closed form, a normal p-value), and for any number of classes a resampled test,
Brocker and Smith's (2007) consistency resampling: outcomes drawn from the predicted
probabilities themselves (what a calibrated model's outcomes would be), the calibration
error recomputed on each draw. The draws are vectorized: one uniform per instance and
resample, the class found by the inverse of the cumulative probabilities, resamples drawn in
blocks of bounded memory; no loop runs over the instances.
"""

from numbers import Integral, Real

import numpy as np
from scipy import special
from sklearn.exceptions import UndefinedMetricWarning

from .._core.config import check_result_size
from .._core.params import (
    ARRAY,
    N_RESAMPLES,
    RANDOM_STATE,
    VERBOSE,
    Interval,
    Label,
    NaN,
    Options,
    validate_params,
)
from .._core.probabilities import checked_probabilities
from .._core.resampling import Progress
from .._core.results import Result, _result
from .._core.user_warnings import warn
from .bins import STRATEGIES, bin_edges, curves
from .curves import N_BINS, _checked_bins, _n_curves

METHODS = ("auto", "spiegelhalter", "resampled")
# The values of one block of draws (resamples times instances): 16 MiB of uniforms.
_BLOCK_VALUES = 1 << 21
# scipy.stats.permutation_test's tolerance: a resampled statistic within this relative
# distance of the observed one counts as at least as large (the same configuration of
# outcomes may sum its weights in another order).
_TIES = 1e-14


@_result(kw_only=True, parameters={
    "statistic": [Interval(Real, None, None), Options(np.inf, -np.inf), NaN()],
    "pvalue": [Interval(Real, 0, 1), NaN()], "method": [Options("spiegelhalter", "resampled")],
    "target": [Options("binary", "top_label", "classwise")], "n_bins": [None, *N_BINS],
    "strategy": [None, Options(*STRATEGIES)],
    "n_resamples": [None, Interval(Integral, 1, None)], "null_distribution": [None, ARRAY]})
class CalibrationTestResult(Result):
    """Result of :func:`calibration_test`.

    Unpacks like scipy's results: ``statistic, pvalue = calibration_test(...)``; the
    other fields are attributes.

    Attributes
    ----------
    statistic : float
        Spiegelhalter's z (``method="spiegelhalter"``), or the L2 calibration error of the
        bins (``"resampled"``: :func:`expected_calibration_error` with ``norm="l2"`` and
        the same ``target``, ``n_bins`` and ``strategy``).
    pvalue : float
        The two-sided normal p-value of z, or the resampled p-value
        ``(1 + #{T* >= T}) / (n_resamples + 1)``.
    method : {"spiegelhalter", "resampled"}
        The test made.
    target : {"binary", "top_label", "classwise"}
        What was tested: the positive class's probability (Spiegelhalter), the top
        label's confidence, or every class's probability.
    n_bins : int or None
        The bins of the resampled statistic (None for Spiegelhalter's).
    strategy : {"uniform", "quantile"} or None
        How those bins were made.
    n_resamples : int or None
        The outcomes drawn from the probabilities (None for Spiegelhalter's).
    null_distribution : ndarray of shape (n_resamples,) or None
        The statistic of each draw, as ``scipy.stats.permutation_test`` gives it.

    See Also
    --------
    calibration_test : The function that returns it.

    Examples
    --------
    >>> from sklearn_confusion_ext import calibration_test
    >>> result = calibration_test([0, 1, 1, 0, 1], [0.2, 0.7, 0.9, 0.4, 0.6])
    >>> statistic, pvalue = result
    >>> round(statistic, 3), round(pvalue, 3), result.method
    (-1.171, 0.242, 'spiegelhalter')
    """

    statistic: float
    pvalue: float
    method: str
    target: str
    n_bins: int = None
    strategy: str = None
    n_resamples: int = None
    null_distribution: np.ndarray = None

    _unpacked = ("statistic", "pvalue")

    def _summary(self):
        shown = [("method", self.method), ("statistic", self.statistic),
                 ("pvalue", self.pvalue), ("target", self.target)]
        if self.method == "resampled":
            shown += [("n_bins", self.n_bins), ("strategy", self.strategy),
                      ("n_resamples", self.n_resamples)]
        return shown


def spiegelhalter_z(outcome, prob, sample_weight=None):
    """``(z, pvalue)`` of Spiegelhalter's test of positive-class probabilities ``prob``
    against boolean ``outcome``; under weights, each term weighted (see
    :func:`calibration_test`)."""
    y = outcome.astype(np.float64)
    terms = (y - prob) * (1 - 2 * prob)
    variances = (1 - 2 * prob) ** 2 * prob * (1 - prob)
    if sample_weight is not None:
        largest = sample_weight.max(initial=0.0)
        w = sample_weight / largest if largest > 0 else sample_weight  # no overflow
        numerator, variance = float(w @ terms), float((w * w) @ variances)
    else:
        numerator, variance = float(terms.sum()), float(variances.sum())
    if variance > 0:
        z = numerator / np.sqrt(variance)
    elif numerator != 0:  # probabilities of 0, 1/2 and 1 only, and an outcome of
        z = np.copysign(np.inf, numerator)  # probability 0 under calibration
        warn("calibration_test: every probability is 0, 1/2 or 1 (or of weight 0), and an "
             "outcome contradicts one of 0 or 1, which a calibrated model never gives: "
             f"Spiegelhalter's statistic has no variance; z = {z} and the p-value is 0, "
             "exactly.")
    else:  # the statistic is 0 whatever the outcomes: P(|Z| >= 0) = 1, exactly
        warn("calibration_test: every probability is 0, 1/2 or 1 (or of weight 0) and no "
             "outcome contradicts one of 0 or 1: Spiegelhalter's statistic is 0 whatever "
             "the outcomes, so it cannot tell; z = 0 and the p-value is 1.")
        return 0.0, 1.0
    return float(z), float(2 * special.ndtr(-abs(z)))


class FixedBins:
    """The fixed part of the resampled statistic: each curve's bin of each instance, and
    per bin the weight and the expected outcome (the weighted sum of the probabilities),
    which do not change from draw to draw (only the outcomes do)."""

    def __init__(self, confidences, sample_weight, n_bins, strategy):
        n = confidences[0].shape[0]
        self.n_bins = n_bins
        dtype = np.uint8 if n_bins <= 256 else np.uint16 if n_bins <= 65536 else np.intp
        self.ids = np.empty((len(confidences), n), dtype=dtype)  # 1 byte an entry
        weight = np.empty((len(confidences), n_bins))
        expected = np.empty_like(weight)
        for k, confidence in enumerate(confidences):
            edges = bin_edges(confidence, n_bins, strategy)
            ids = np.searchsorted(edges[1:-1], confidence)
            self.ids[k] = ids
            if sample_weight is None:
                weight[k] = np.bincount(ids, minlength=n_bins)
                expected[k] = np.bincount(ids, weights=confidence, minlength=n_bins)
            else:
                weight[k] = np.bincount(ids, weights=sample_weight, minlength=n_bins)
                expected[k] = np.bincount(ids, weights=sample_weight * confidence,
                                          minlength=n_bins)
        self.weight, self.expected = weight, expected
        self.total = weight[0].sum()

    def statistic(self, observed):
        """The L2 calibration error of the observed outcome sums ``observed``, shape
        ``(n_resamples, n_curves, n_bins)``: per curve ``sqrt(sum_b p_b (f_b - c_b)^2)``
        with ``p_b`` the bin's share of the weight, averaged over the curves (as
        :func:`expected_calibration_error` reads them)."""
        kept = self.weight > 0
        gap = np.where(kept, observed - self.expected, 0.0)
        squares = gap * gap / np.where(kept, self.weight, 1.0)
        return np.sqrt(squares.sum(axis=2) / self.total).mean(axis=1)


def _observed_sums(bins, outcomes, sample_weight):
    """The weighted outcome of each curve's bins on the data, shape (1, n_curves, n_bins)."""
    sums = np.empty((1, len(outcomes), bins.n_bins))
    for k, outcome in enumerate(outcomes):
        weights = outcome.astype(np.float64) if sample_weight is None else \
            np.where(outcome, sample_weight, 0.0)
        sums[0, k] = np.bincount(bins.ids[k], weights=weights, minlength=bins.n_bins)
    return sums


def drawn_sums(bins, confidences, uniforms, sample_weight, categorical):
    """The weighted outcome of each curve's bins under each row of ``uniforms`` (one
    uniform per instance): ``categorical``, the class drawn is the first whose cumulative
    probability exceeds the uniform (the inverse of the distribution function, the
    cumulative sums built one class at a time, never as an (n, C) array); otherwise the
    one curve's outcome is ``uniform < probability``."""
    n_rows, n = uniforms.shape
    n_curves, n_bins = bins.ids.shape[0], bins.n_bins
    if categorical:
        drawn = np.zeros((n_rows, n), dtype=np.intp)
        cumulative = np.zeros(n)
        for confidence in confidences[:-1]:  # the last class takes what is left
            cumulative += confidence
            drawn += uniforms >= cumulative
        codes = bins.ids[drawn, np.arange(n)].astype(np.intp)
        codes += drawn * n_bins
        weights = None if sample_weight is None else np.broadcast_to(sample_weight,
                                                                    (n_rows, n))
    else:
        success = uniforms < confidences[0]
        codes = bins.ids[0].astype(np.intp)[None, :]
        weights = success.astype(np.float64) if sample_weight is None else \
            np.where(success, sample_weight, 0.0)
        codes = np.broadcast_to(codes, (n_rows, n))
    cells = n_curves * n_bins
    codes = codes + (cells * np.arange(n_rows))[:, None]
    counts = np.bincount(codes.ravel(), weights=None if weights is None else
                         np.ascontiguousarray(weights).ravel(), minlength=n_rows * cells)
    return counts.reshape(n_rows, n_curves, n_bins)


def _resampled(data, target, n_bins, strategy, n_resamples, rng, progress):
    """``(statistic, pvalue, null_distribution)`` of the consistency resampling test."""
    read = curves(data, target)
    confidences = [confidence for _, confidence, _ in read]
    outcomes = [outcome for _, _, outcome in read]
    check_result_size("calibration_test", (n_resamples,),
                      f"a null distribution of n_resamples={n_resamples} values",
                      "Pass fewer n_resamples")
    weights = data.sample_weight
    if weights is not None:
        largest = weights.max(initial=0.0)
        weights = weights / largest if largest > 0 else weights
        if largest == 0:
            warn("calibration_test: sample_weight is zero everywhere, so no bin holds any "
                 "weight and the test is undefined; the statistic and the p-value are "
                 "NaN.", UndefinedMetricWarning)
            return float("nan"), float("nan"), np.full(n_resamples, np.nan)
    bins = FixedBins(confidences, weights, n_bins, strategy)
    observed = float(bins.statistic(_observed_sums(bins, outcomes, weights))[0])
    n = confidences[0].shape[0]
    rows = max(1, min(n_resamples, _BLOCK_VALUES // max(n, 1)))
    null = np.empty(n_resamples)
    for start in range(0, n_resamples, rows):
        stop = min(n_resamples, start + rows)
        uniforms = rng.random((stop - start, n))  # one stream: the same whatever the blocks
        null[start:stop] = bins.statistic(drawn_sums(bins, confidences, uniforms, weights,
                                                      target == "classwise"))
        progress.update(stop - start)
    at_least = int(np.count_nonzero(null >= observed - _TIES * abs(observed)))
    return observed, (1 + at_least) / (n_resamples + 1), null


@validate_params({"y_true": [ARRAY], "y_prob": [ARRAY], "method": [Options(*METHODS)],
                  "target": [Options("classwise", "top_label")], "n_bins": N_BINS,
                  "strategy": [Options(*STRATEGIES)],
                  "n_resamples": N_RESAMPLES, "labels": [None, ARRAY],
                  "pos_label": [None, Label()], "sample_weight": [None, ARRAY],
                  "random_state": RANDOM_STATE, "verbose": VERBOSE})
def calibration_test(y_true, y_prob, *, method="auto", target="classwise", n_bins=10,
                     strategy="uniform", n_resamples=9999, labels=None, pos_label=None,
                     sample_weight=None, random_state=None, verbose=0):
    """A test of calibration: Spiegelhalter's z for two classes, or consistency resampling
    for any number.

    The null hypothesis is that the probabilities are calibrated: each instance's class
    is drawn from its predicted probabilities.

    - ``method="spiegelhalter"`` (two classes): with ``p_i`` the positive class's
      probability and ``y_i`` the outcome (1 for the positive class),

      .. code-block:: text

          z = sum_i (y_i - p_i) (1 - 2 p_i) / sqrt(sum_i (1 - 2 p_i)^2 p_i (1 - p_i))

      the Brier score less its expectation under calibration, over its standard
      deviation (Spiegelhalter 1986); the p-value is two-sided, ``2 Phi(-|z|)``. A
      positive z: the probabilities are further from the outcomes than calibration
      allows. Probabilities of 1/2 add nothing (their squared error is 1/4 whatever the
      outcome). Where every probability is 0, 1/2 or 1 the statistic cannot vary: z is
      0 and the p-value 1 (exactly, with a warning) unless an outcome of probability 0
      occurred (then ``z = +-inf`` and the p-value is 0, exactly too).
    - ``method="resampled"`` (any number of classes): Brocker and Smith's (2007)
      consistency resampling. The statistic ``T`` is the L2 calibration error of the bins,
      :func:`expected_calibration_error` with ``norm="l2"`` (``target="classwise"``: the
      mean over the classes of each class's error one vs rest; ``"top_label"``: the
      confidence of the prediction). Each of ``n_resamples`` draws replaces every outcome
      by one drawn from the instance's own probabilities (``y*_i ~ Categorical(p_i)``)
      and recomputes ``T*`` in the same bins (the bins read the probabilities only, which
      do not change), and ``pvalue = (1 + #{T* >= T}) / (n_resamples + 1)``. The bins'
      own noise is in every ``T*`` too, so the test is exact at any bin size, up to the
      resampling.
    - ``method="auto"``: Spiegelhalter's for two classes (a 1-D ``y_prob`` or two
      columns), the resampled test otherwise.

    The classwise statistic is the default because calibration of a vector of
    probabilities is about every class: the top label's confidence may be right while
    the probabilities of the other classes are not.

    Under ``sample_weight`` each instance stays one observation with a weight (an
    importance or survey weight, known, not random): Spiegelhalter's sums weigh each term,
    ``z = sum_i w_i t_i / sqrt(sum_i w_i^2 v_i)`` (``t_i`` and ``v_i`` the term and its
    variance above), the variance of a weighted sum of independent terms; z does not
    change when every weight is multiplied by one number, and equal weights give the
    unweighted z. The resampled test draws each instance's outcome and weights the bins'
    sums. Integer weights are therefore not repeated rows here: repeating a row would add
    independent outcomes, which the data do not hold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true class labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        The probability of the positive class (1-D), or a classifier's
        ``predict_proba``, its columns the classes in sorted order (a
        classifier's ``classes_``). Rows that do not sum to 1 are divided by their sums, with
        a warning.
    method : {"auto", "spiegelhalter", "resampled"}, default="auto"
        The test.
    target : {"classwise", "top_label"}, default="classwise"
        What the resampled statistic bins (as in :func:`expected_calibration_error`).
    n_bins : int, default=10
        The bins of the resampled statistic.
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins or bins at the quantiles of the probabilities.
    n_resamples : int, default=9999
        The draws of the resampled test.
    labels : array-like, default=None
        The classes: every class of the columns of a 2-D ``y_prob``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused; for a 1-D ``y_prob``,
        the two classes, the positive one last.
    pos_label : int, float, bool or str, default=None
        The positive class of Spiegelhalter's test: by default 1 for a 1-D ``y_prob`` of
        {0, 1} or {-1, 1} (scikit-learn's rule), the last column's class for 2-D.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights, each instance one weighted observation (see above).
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the draws of the resampled test (one stream: the same draws whatever the
        memory per block).
    verbose : int, default=0
        Progress of the resampled test on standard error (as
        :func:`score_confidence_interval`'s).

    Returns
    -------
    CalibrationTestResult
        ``statistic, pvalue = result``; ``method``, ``null_distribution`` and the bins as
        attributes.

    See Also
    --------
    expected_calibration_error : The resampled test's statistic.
    reliability_curve : Where the gaps are, bin by bin, with their bands.
    calibration_in_the_large : Predicted against true prevalence, class by class.

    References
    ----------
    .. [1] Spiegelhalter, D. J. (1986). "Probabilistic prediction in patient management
       and clinical trials". Statistics in Medicine, 5(5), 421-433 (the z statistic, as
       R's ``rms::val.prob`` reports it, "S:z" and "S:p").
    .. [2] Brocker, J. and Smith, L. A. (2007). "Increasing the Reliability of
       Reliability Diagrams". Weather and Forecasting, 22(3), 651-661 (consistency
       resampling).
    .. [3] Phipson, B. and Smyth, G. K. (2010). "Permutation P-values Should Never Be
       Zero". Statistical Applications in Genetics and Molecular Biology, 9(1) (the
       ``(1 + #) / (n_resamples + 1)`` p-value).

    Examples
    --------
    >>> from sklearn_confusion_ext import calibration_test
    >>> y_true = [0, 0, 1, 1, 1, 0, 1, 0]
    >>> y_prob = [0.1, 0.3, 0.7, 0.8, 0.6, 0.2, 0.9, 0.4]
    >>> z, pvalue = calibration_test(y_true, y_prob)
    >>> round(z, 3), round(pvalue, 3)
    (-1.421, 0.155)
    >>> y_true = [0, 1, 2, 2, 1, 0, 2, 1]
    >>> y_prob = [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4],
    ...           [0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.1, 0.7], [0.3, 0.5, 0.2]]
    >>> result = calibration_test(y_true, y_prob, n_bins=5, n_resamples=999,
    ...                           random_state=0)
    >>> result.method, round(result.statistic, 3), round(result.pvalue, 2)
    ('resampled', 0.265, 0.59)
    """
    owner = "calibration_test"
    data = checked_probabilities(owner, y_true, y_prob, labels=labels, pos_label=pos_label,
                                 sample_weight=sample_weight)
    two = data.one_dimensional or data.prob.shape[1] == 2
    if method == "auto":
        method = "spiegelhalter" if two else "resampled"
    if method == "spiegelhalter":
        if not two:
            raise ValueError(f"calibration_test: method='spiegelhalter' tests the "
                             f"probability of one class of two, but y_prob has "
                             f"{data.prob.shape[1]} columns; use method='resampled'.")
        (_, prob, outcome), = curves(data, "binary")
        z, pvalue = spiegelhalter_z(outcome, prob, data.sample_weight)
        return CalibrationTestResult(statistic=z, pvalue=pvalue, method="spiegelhalter",
                                     target="binary")
    _checked_bins(owner, n_bins, _n_curves(data, target))
    progress = Progress(verbose, n_resamples, owner)
    statistic, pvalue, null = _resampled(data, target, int(n_bins), strategy,
                                         int(n_resamples), np.random.default_rng(random_state),
                                         progress)
    progress.close()
    return CalibrationTestResult(statistic=statistic, pvalue=pvalue, method="resampled",
                                 target=target, n_bins=int(n_bins), strategy=strategy,
                                 n_resamples=int(n_resamples), null_distribution=null)
