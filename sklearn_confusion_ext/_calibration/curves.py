"""The reliability curve and the expected calibration error.

:func:`reliability_curve` bins the predicted probabilities and gives, per bin, their mean,
the observed frequency of the class, the bin's (weighted) count and Wilson's confidence band
of the frequency; it equals :func:`sklearn.calibration.calibration_curve` on binary targets.
:func:`expected_calibration_error` summarizes the same bins: the weighted mean of
``|frequency - confidence|`` (L1), its root mean square (L2), its largest value (max), and
Kumar, Liang and Ma's (2019) debiased L2 estimator.
"""

from numbers import Integral

import numpy as np

from .._core.bounds import wilson
from .._core.config import check_result_size
from .._core.params import (
    ARRAY,
    BOOLEAN,
    CONFIDENCE_LEVEL,
    Interval,
    Label,
    Options,
    validate_params,
)
from .._core.probabilities import checked_probabilities
from .._core.results import Result, _result, interval_method
from .bins import STRATEGIES, binned, classwise_binned, curves, warn_no_weight

TARGETS = ("binary", "top_label", "classwise")
NORMS = ("l1", "l2", "max")
N_BINS = [Interval(Integral, 1, None)]
_FEWER_BINS = "Ask for fewer bins (n_bins=)"


def _checked_bins(owner, n_bins, n_curves):
    """Refuse, before allocating, bins beyond the memory budget (a few float64 arrays of
    ``n_bins`` per curve)."""
    check_result_size(owner, (n_curves, int(n_bins), 8),
                      f"{n_curves} curve(s) of {n_bins} bins", _FEWER_BINS)


def _n_curves(data, target):
    return data.prob.shape[1] if target == "classwise" and not data.one_dimensional else (
        2 if target == "classwise" else 1)


@_result(kw_only=True, parameters={
    "prob_true": [ARRAY], "prob_pred": [ARRAY], "bin_count": [ARRAY],
    "n_effective": [ARRAY], "low": [ARRAY], "high": [ARRAY], "bin_index": [ARRAY],
    "class_label": [ARRAY], "bin_edges": [ARRAY], "target": [Options(*TARGETS)],
    "strategy": [Options(*STRATEGIES)], "confidence_level": [CONFIDENCE_LEVEL]})
class ReliabilityCurveResult(Result):
    """Result of :func:`reliability_curve`: one row per non-empty bin (per class, for
    ``target="classwise"``).

    Unpacks as ``prob_true, prob_pred``, the two arrays
    :func:`sklearn.calibration.calibration_curve` returns; ``confidence_interval()`` gives
    the band, ``to_frame()`` a row per bin.

    Attributes
    ----------
    prob_true : ndarray of shape (n_rows,)
        The observed frequency of the class in each bin (weighted by ``sample_weight``).
    prob_pred : ndarray of shape (n_rows,)
        The mean predicted probability in each bin (weighted).
    bin_count : ndarray of shape (n_rows,)
        The bin's total weight: its number of instances without ``sample_weight``.
    n_effective : ndarray of shape (n_rows,)
        Kish's effective number of instances of the bin, ``sum(w) ** 2 / sum(w ** 2)``
        (``bin_count`` without weights): the trials of its band.
    low, high : ndarray of shape (n_rows,)
        The ends of the band of ``prob_true``: Wilson's interval at ``confidence_level``
        of ``prob_true * n_effective`` successes in ``n_effective`` trials (with Brown, Cai
        and DasGupta's ends near 0 and 1: ``[0, high]`` at a frequency of 0, ``[low, 1]``
        at 1, never a point).
    bin_index : ndarray of int of shape (n_rows,)
        The position of each row's bin among the ``n_bins`` (empty bins are dropped, so
        the positions may skip).
    class_label : ndarray of shape (n_rows,)
        The class each row is about: the positive class (``"binary"``), the class
        (``"classwise"``), or None (``"top_label"``: the class predicted, whichever it is).
    bin_edges : ndarray of shape (n_bins + 1,) or (n_classes, n_bins + 1)
        The edges of the bins; one row per class for ``target="classwise"``.
    target, strategy : str
        What the curve reads and how the bins were made.
    confidence_level : float
        The level of the band.

    See Also
    --------
    reliability_curve : The function that returns it.

    Examples
    --------
    >>> from sklearn_confusion_ext import reliability_curve
    >>> curve = reliability_curve([0, 0, 1, 1, 1], [0.1, 0.3, 0.6, 0.8, 0.9], n_bins=2)
    >>> prob_true, prob_pred = curve
    >>> prob_true.tolist(), prob_pred.round(3).tolist(), curve.bin_count.tolist()
    ([0.0, 1.0], [0.2, 0.767], [2.0, 3.0])
    >>> low, high = curve.confidence_interval()
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.0, 0.439], [0.822, 1.0])
    """

    _unpacked = ("prob_true", "prob_pred")

    prob_true: np.ndarray
    prob_pred: np.ndarray
    bin_count: np.ndarray
    n_effective: np.ndarray
    low: np.ndarray
    high: np.ndarray
    bin_index: np.ndarray
    class_label: np.ndarray
    bin_edges: np.ndarray
    target: str
    strategy: str
    confidence_level: float

    confidence_interval = interval_method()
    _summary_fields = ("target", "strategy", "confidence_level")
    _table_index, _table_index_name = "bin_index", "bin"

    def _table(self):
        from .._core.results import _Table

        columns = {} if self.target != "classwise" else {"class": self.class_label}
        columns.update({"prob_pred": self.prob_pred, "prob_true": self.prob_true,
                        "low": self.low, "high": self.high, "bin_count": self.bin_count,
                        "n_effective": self.n_effective})
        return _Table("bin", self.bin_index, columns)


_TARGET_PARAMS = {"y_true": [ARRAY], "y_prob": [ARRAY], "labels": [None, ARRAY],
                  "sample_weight": [None, ARRAY]}


@validate_params({**_TARGET_PARAMS, "n_bins": N_BINS, "strategy": [Options(*STRATEGIES)],
                  "target": [Options(*TARGETS)], "pos_label": [None, Label()],
                  "confidence_level": [CONFIDENCE_LEVEL]})
def reliability_curve(y_true, y_prob, *, n_bins=10, strategy="uniform", target="binary",
                      pos_label=None, labels=None, sample_weight=None,
                      confidence_level=0.95):
    """The reliability curve of probabilities: observed frequency against the mean
    predicted probability, per bin, with a confidence band.

    The probabilities are binned, and each bin gives the mean probability predicted and
    the frequency of the class observed; a calibrated classifier's points lie on the
    diagonal. The bins are scikit-learn's: ``n_bins`` equal-width bins of [0, 1]
    (``strategy="uniform"``) or bins at the quantiles of the probabilities
    (``"quantile"``: about as many instances in each), an instance on an inner edge in the
    bin below it; empty bins are dropped, as
    :func:`sklearn.calibration.calibration_curve` drops them, which this equals on binary
    targets. Each bin's band is Wilson's interval of its frequency, its trials the bin's
    effective number of instances under ``sample_weight`` (Kish's), with Brown, Cai and
    DasGupta's ends at the bounds: a bin of no positives has the band ``[0, high]``,
    never a point.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true class labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        The probability of the positive class (1-D; two classes), or a classifier's
        ``predict_proba``: the probability of each class, the columns the classes in
        sorted order (a classifier's ``classes_``). Rows that
        do not sum to 1 are divided by their sums, with a warning.
    n_bins : int, default=10
        The number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins, or bins at the quantiles of the probabilities read (of the
        instances, not of their weights, as scikit-learn).
    target : {"binary", "top_label", "classwise"}, default="binary"
        What is binned: the positive class's probability against whether the instance is
        of it (``"binary"``: a 1-D ``y_prob`` or two columns); the largest probability
        against whether its class is right (``"top_label"``, the confidence of the
        prediction); each class's probability against the class, one curve per class
        (``"classwise"``).
    pos_label : int, float, bool or str, default=None
        The positive class of ``target="binary"``: by default 1 for a 1-D ``y_prob`` of
        the classes {0, 1} or {-1, 1} (scikit-learn's rule; other classes need it, or
        ``labels``, whose last class it then is), the last column's class for 2-D.
    labels : array-like, default=None
        The classes: every class of the columns of a 2-D ``y_prob``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused; for a 1-D ``y_prob``,
        the two classes (the positive one last).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    confidence_level : float, default=0.95
        The level of each bin's band.

    Returns
    -------
    ReliabilityCurveResult
        ``prob_true``, ``prob_pred``, ``bin_count``, ``low``, ``high`` per non-empty bin;
        unpacks as ``prob_true, prob_pred``.

    See Also
    --------
    expected_calibration_error : The bins' distance to the diagonal in one number.
    brier_score_decomposition : The Brier score's reliability, resolution and
        uncertainty.
    sklearn.calibration.calibration_curve : scikit-learn's curve, without counts nor
        bands, which this equals.

    References
    ----------
    .. [1] Niculescu-Mizil, A. and Caruana, R. (2005). "Predicting Good Probabilities
       With Supervised Learning". ICML, Section 4.
    .. [2] Brocker, J. and Smith, L. A. (2007). "Increasing the Reliability of
       Reliability Diagrams". Weather and Forecasting, 22(3), 651-661.
    .. [3] Brown, L. D., Cai, T. T. and DasGupta, A. (2001). "Interval Estimation for a
       Binomial Proportion". Statistical Science, 16(2), 101-133.

    Examples
    --------
    >>> from sklearn_confusion_ext import reliability_curve
    >>> y_true = [0, 0, 0, 0, 1, 1, 1, 1, 1]
    >>> y_prob = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]
    >>> curve = reliability_curve(y_true, y_prob, n_bins=3)
    >>> prob_true, prob_pred = curve
    >>> prob_true.tolist(), prob_pred.round(3).tolist()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    >>> curve.bin_count.tolist(), curve.low.round(3).tolist()
    ([3.0, 2.0, 4.0], [0.0, 0.026, 0.51])
    """
    owner = "reliability_curve"
    data = checked_probabilities(owner, y_true, y_prob, labels=labels, pos_label=pos_label,
                                 sample_weight=sample_weight, top_label=target == "top_label",
                                 keep_float32=True)
    n_curves = _n_curves(data, target)
    _checked_bins(owner, n_bins, n_curves)
    n_bins = int(n_bins)
    alpha = 1.0 - float(confidence_level)
    parts, edges = [], []
    for class_label, confidence, outcome in curves(data, target):
        bins = binned(confidence, outcome, data.sample_weight, n_bins, strategy)
        edges.append(bins.edges)
        low, high, _ = wilson(bins.frequency * bins.effective, bins.effective, alpha)
        labels_of_rows = np.empty(bins.index.size, dtype=object)
        labels_of_rows[:] = [class_label] * bins.index.size
        parts.append((bins.frequency, bins.mean_confidence, bins.weight, bins.effective,
                      low, high, bins.index, labels_of_rows))
    if data.sample_weight is not None and not any(part[0].size for part in parts):
        warn_no_weight(owner)
    columns = [np.concatenate([part[j] for part in parts]) for j in range(8)]
    class_label = columns[7]
    if target != "top_label":  # the classes' own dtype
        class_label = np.asarray(class_label.tolist(), dtype=data.classes.dtype) \
            if class_label.size else np.empty(0, dtype=data.classes.dtype)
    return ReliabilityCurveResult(
        prob_true=columns[0], prob_pred=columns[1], bin_count=columns[2],
        n_effective=columns[3], low=columns[4], high=columns[5],
        bin_index=columns[6].astype(np.intp), class_label=class_label,
        bin_edges=np.stack(edges) if target == "classwise" else edges[0],
        target=target, strategy=strategy, confidence_level=float(confidence_level))


def _calibration_error(bins, norm, debiased):
    """The error of one curve's bins (NaN where no bin has weight)."""
    if bins.weight.size == 0:
        return np.nan
    share = bins.weight / bins.weight.sum()
    gap = bins.frequency - bins.mean_confidence
    if norm == "l1":
        return float(share @ np.abs(gap))
    if norm == "max":
        return float(np.abs(gap).max())
    squares = gap * gap
    if debiased:
        # Kumar, Liang and Ma (2019): the squared gap less the variance of the bin's
        # frequency, freq (1 - freq) / (n - 1), n its effective count; a bin of fewer than
        # two instances adds nothing (their code's rule).
        frequency = bins.frequency
        usable = (bins.count >= 2) & (bins.effective > 1)
        variance = np.where(usable, frequency * (1 - frequency)
                            / np.where(usable, bins.effective - 1, 1.0), 0.0)
        squares = np.where(usable, squares - variance, 0.0)
        return float(np.sqrt(max(float(share @ squares), 0.0)))
    return float(np.sqrt(share @ squares))


@validate_params({**_TARGET_PARAMS, "n_bins": N_BINS, "strategy": [Options(*STRATEGIES)],
                  "target": [Options("top_label", "classwise")],
                  "norm": [Options(*NORMS)], "debiased": [BOOLEAN]})
def expected_calibration_error(y_true, y_prob, *, n_bins=15, strategy="uniform",
                               target="top_label", norm="l1", debiased=False, labels=None,
                               sample_weight=None):
    """The expected calibration error (ECE): how far the reliability curve lies from the
    diagonal, in one number.

    In the bins of :func:`reliability_curve`, with ``f_b`` the observed frequency,
    ``c_b`` the mean probability and ``p_b`` the share of the weight of bin ``b``:

    - ``norm="l1"``: ``sum_b p_b |f_b - c_b|``, the ECE (Naeini et al. 2015, Guo et al.
      2017);
    - ``norm="l2"``: ``sqrt(sum_b p_b (f_b - c_b) ** 2)``, the root-mean-square error;
    - ``norm="max"``: ``max_b |f_b - c_b|`` over the non-empty bins, the maximum
      calibration error (MCE).

    ``target="top_label"`` bins the largest probability of each instance against whether
    its class is right (the confidence of the prediction, as torchmetrics'
    ``MulticlassCalibrationError``); ``"classwise"`` averages over the classes the error
    of each class's probability against the class, one vs rest (the marginal, or
    classwise, ECE). A 1-D ``y_prob`` is the positive class's probability of two classes.

    The binned error is biased upwards, the more so the fewer instances per bin: each
    bin's squared gap holds the variance of its frequency. ``debiased=True`` gives Kumar,
    Liang and Ma's (2019) estimator of the L2 error, which subtracts it,
    ``sqrt(max(0, sum_b p_b [(f_b - c_b) ** 2 - f_b (1 - f_b) / (n_b - 1)]))`` with
    ``n_b`` the bin's (effective, under weights) number of instances, bins of fewer than
    two instances adding nothing.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true class labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        The probability of the positive class (1-D: of 1 for the classes {0, 1} or
        {-1, 1}, else of ``labels[-1]``), or a classifier's ``predict_proba``, its columns
        the classes in sorted order (a classifier's ``classes_``).
    n_bins : int, default=15
        The number of bins (torchmetrics' default).
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins, or bins at the quantiles of the probabilities binned
        (equal-mass bins).
    target : {"top_label", "classwise"}, default="top_label"
        The top label's confidence, or the mean of the classes' one-vs-rest errors.
    norm : {"l1", "l2", "max"}, default="l1"
        How the bins' gaps are summarized.
    debiased : bool, default=False
        Kumar, Liang and Ma's debiased estimator; with ``norm="l2"`` only.
    labels : array-like, default=None
        The classes: every class of the columns of a 2-D ``y_prob``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused; for a 1-D ``y_prob``,
        the two classes, the positive one last.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        The error, in [0, 1]; NaN with an ``UndefinedMetricWarning`` where every weight
        is zero.

    See Also
    --------
    reliability_curve : The bins themselves, with their bands.
    brier_score_decomposition : The reliability term of the Brier score.
    score_confidence_interval : Its interval: pass ``scoring=expected_calibration_error``.

    References
    ----------
    .. [1] Naeini, M. P., Cooper, G. F. and Hauskrecht, M. (2015). "Obtaining Well
       Calibrated Probabilities Using Bayesian Binning". AAAI.
    .. [2] Guo, C., Pleiss, G., Sun, Y. and Weinberger, K. Q. (2017). "On Calibration
       of Modern Neural Networks". ICML.
    .. [3] Kumar, A., Liang, P. and Ma, T. (2019). "Verified Uncertainty Calibration".
       NeurIPS, Section 5 (the debiased estimator).

    Examples
    --------
    >>> from sklearn_confusion_ext import expected_calibration_error
    >>> y_true = [0, 1, 1, 0, 1, 1]
    >>> y_prob = [[0.9, 0.1], [0.2, 0.8], [0.4, 0.6], [0.3, 0.7], [0.1, 0.9], [0.5, 0.5]]
    >>> round(expected_calibration_error(y_true, y_prob, n_bins=5), 4)
    0.1333
    >>> round(expected_calibration_error(y_true, y_prob, n_bins=5, norm="max"), 4)
    0.25
    """
    owner = "expected_calibration_error"
    if debiased and norm != "l2":
        raise ValueError(f"expected_calibration_error: debiased=True is Kumar, Liang and "
                         f"Ma's estimator of the L2 error; got norm={norm!r}. Pass "
                         "norm='l2', or debiased=False.")
    data = checked_probabilities(owner, y_true, y_prob, labels=labels,
                                 sample_weight=sample_weight, top_label=target == "top_label",
                                 keep_float32=True)
    _checked_bins(owner, n_bins, _n_curves(data, target))
    # every class's bins in one compiled read of the probabilities where it applies
    per_class = classwise_binned(data, int(n_bins), strategy) if target == "classwise" \
        else None
    if per_class is None:
        per_class = (binned(confidence, outcome, data.sample_weight, int(n_bins), strategy)
                     for _, confidence, outcome in curves(data, target))
    errors = [_calibration_error(bins, norm, debiased) for bins in per_class]
    if np.isnan(errors).any():
        warn_no_weight(owner)
        return float("nan")
    return float(np.mean(errors))
