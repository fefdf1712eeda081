"""The Brier score in its parts: Murphy's (1973) reliability, resolution and uncertainty,
and Stephenson, Coelho and Jolliffe's (2008) within-bin terms, which make the parts add up
to the score exactly."""

from numbers import Real

import numpy as np

from .._core.params import ARRAY, Interval, Label, validate_params
from .._core.probabilities import checked_probabilities
from .._core.results import Result, _result
from .bins import binned, curves, warn_no_weight
from .curves import N_BINS, _checked_bins

_PARTS = ("brier", "reliability", "resolution", "uncertainty", "within_bin_variance",
          "within_bin_covariance")
_REAL = [Interval(Real, None, None)]


@_result(kw_only=True, parameters={**{name: _REAL for name in _PARTS}, "n_bins": N_BINS,
                     "classes": [ARRAY]})
class BrierDecompositionResult(Result):
    """Result of :func:`brier_score_decomposition`.

    ``reliability - resolution + uncertainty + within_bin_variance -
    within_bin_covariance`` equals ``brier`` (to rounding).

    Attributes
    ----------
    brier : float
        The Brier score, as :func:`sklearn.metrics.brier_score_loss` gives it: the mean
        squared difference between the positive class's probability and the outcome for
        two classes, the mean over instances of the sum over classes for more.
    reliability : float
        Murphy's reliability (lower is better): the weighted mean over the bins of the
        squared gap between the mean probability and the observed frequency.
    resolution : float
        Murphy's resolution (higher is better): the weighted mean over the bins of the
        squared gap between the bin's frequency and the overall frequency.
    uncertainty : float
        ``o (1 - o)`` of the overall frequency ``o``: the Brier score of always
        predicting it (summed over the classes for more than two).
    within_bin_variance : float
        The weighted variance of the probabilities around their bin's mean (Stephenson et
        al. 2008): what the bins' means hide.
    within_bin_covariance : float
        Twice the weighted covariance, within the bins, of the probabilities and the
        outcomes (Stephenson et al. 2008).
    n_bins : int
        The number of equal-width bins.
    classes : ndarray
        The classes decomposed: the positive class for two, every class for more.

    See Also
    --------
    brier_score_decomposition : The function that returns it.

    Examples
    --------
    >>> from sklearn_confusion_ext import brier_score_decomposition
    >>> parts = brier_score_decomposition([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], n_bins=2)
    >>> round(parts.brier, 4), round(parts.reliability, 3), round(parts.resolution, 4)
    (0.0925, 0.076, 0.25)
    """

    brier: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    n_bins: int
    classes: np.ndarray

    _summary_fields = _PARTS


def _parts(confidence, outcome, sample_weight, n_bins):
    """The six parts of one curve (one class against the others), as weighted means."""
    bins = binned(confidence, outcome, sample_weight, n_bins, "uniform")
    weights = np.ones(confidence.shape[0]) if sample_weight is None else sample_weight
    total = bins.weight.sum()
    if total == 0:
        return np.full(6, np.nan)
    share = bins.weight / total
    outcome = outcome.astype(np.float64)
    base_rate = float(weights @ outcome) / total
    mean_confidence, frequency = bins.mean_confidence, bins.frequency
    position = np.maximum(bins.of_instance, 0)  # dropped bins hold zero weight only
    deviation = confidence - mean_confidence[position]
    residual = outcome - frequency[position]
    error = confidence - outcome
    return np.array([
        float(weights @ (error * error)) / total,
        float(share @ (mean_confidence - frequency) ** 2),
        float(share @ (frequency - base_rate) ** 2),
        base_rate * (1 - base_rate),
        float(weights @ (deviation * deviation)) / total,
        2 * float(weights @ (deviation * residual)) / total])


@validate_params({"y_true": [ARRAY], "y_prob": [ARRAY], "n_bins": N_BINS,
                  "pos_label": [None, Label()], "labels": [None, ARRAY],
                  "sample_weight": [None, ARRAY]})
def brier_score_decomposition(y_true, y_prob, *, n_bins=10, pos_label=None, labels=None,
                              sample_weight=None):
    """The Brier score in its parts: reliability, resolution, uncertainty and the
    within-bin terms.

    With the probabilities in ``n_bins`` equal-width bins, Murphy's (1973) decomposition
    reads the Brier score as ``reliability - resolution + uncertainty``: how far each
    bin's mean probability lies from its observed frequency (lower is better), how far
    the bins' frequencies lie from the overall one (higher is better: the probabilities
    tell the instances apart), and the variance of the outcome (of the data, not of the
    model). Binning replaces each probability by its bin's mean, so the three parts add up
    to the Brier score only up to two within-bin terms (Stephenson, Coelho and Jolliffe
    2008), both given here::

        brier == (reliability - resolution + uncertainty
                  + within_bin_variance - within_bin_covariance)

    For two classes (a 1-D ``y_prob``, or two columns) the parts are those of the positive
    class's probability, and ``brier`` is
    :func:`sklearn.metrics.brier_score_loss`'s; for more, each part is the sum over the
    classes of the part of the class's probability against the class (one vs rest), and
    ``brier`` is scikit-learn's multiclass Brier score, the sum over classes, unscaled
    (scikit-learn's ``scale_by_half="auto"``: halved for two classes, not for more).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true class labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        The probability of the positive class (1-D), or a classifier's
        ``predict_proba``, its columns the classes in sorted order (a
        classifier's ``classes_``).
    n_bins : int, default=10
        The number of equal-width bins of [0, 1] (an instance on an inner edge in the bin
        below it, as :func:`reliability_curve`).
    pos_label : int, float, bool or str, default=None
        The positive class of two: by default 1 for a 1-D ``y_prob`` of {0, 1} or
        {-1, 1} (scikit-learn's rule), the last column's class for 2-D.
    labels : array-like, default=None
        The classes: every class of the columns of a 2-D ``y_prob``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused; for a 1-D ``y_prob``,
        the two classes, the positive one last.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: every mean is weighted.

    Returns
    -------
    BrierDecompositionResult
        ``brier`` and its parts; NaN with an ``UndefinedMetricWarning`` where every
        weight is zero.

    See Also
    --------
    reliability_curve : The bins whose gaps make the reliability.
    expected_calibration_error : The bins' gaps in one number.
    sklearn.metrics.brier_score_loss : scikit-learn's Brier score, which ``brier`` equals.

    References
    ----------
    .. [1] Murphy, A. H. (1973). "A New Vector Partition of the Probability Score".
       Journal of Applied Meteorology, 12(4), 595-600.
    .. [2] Stephenson, D. B., Coelho, C. A. S. and Jolliffe, I. T. (2008). "Two Extra
       Components in the Brier Score Decomposition". Weather and Forecasting, 23(4),
       752-757.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import brier_score_loss
    >>> from sklearn_confusion_ext import brier_score_decomposition
    >>> y_true = [0, 1, 1, 0, 1, 1, 0, 1]
    >>> y_prob = [0.1, 0.9, 0.8, 0.35, 0.6, 0.7, 0.3, 0.95]
    >>> parts = brier_score_decomposition(y_true, y_prob, n_bins=5)
    >>> round(parts.brier, 6), round(brier_score_loss(y_true, y_prob), 6)
    (0.065625, 0.065625)
    >>> total = (parts.reliability - parts.resolution + parts.uncertainty
    ...          + parts.within_bin_variance - parts.within_bin_covariance)
    >>> bool(np.isclose(total, parts.brier, rtol=0, atol=1e-15))
    True
    """
    owner = "brier_score_decomposition"
    data = checked_probabilities(owner, y_true, y_prob, labels=labels, pos_label=pos_label,
                                 sample_weight=sample_weight)
    two = data.one_dimensional or data.prob.shape[1] == 2
    read = curves(data, "binary" if two else "classwise")
    _checked_bins(owner, n_bins, len(read))
    parts = sum(_parts(confidence, outcome, data.sample_weight, int(n_bins))
                for _, confidence, outcome in read)
    if np.isnan(parts).any():
        warn_no_weight(owner)
    classes = np.asarray([class_label for class_label, _, _ in read],
                         dtype=data.classes.dtype)
    return BrierDecompositionResult(**dict(zip(_PARTS, map(float, parts))), n_bins=int(n_bins),
                                    classes=classes)
