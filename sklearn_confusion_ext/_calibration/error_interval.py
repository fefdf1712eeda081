"""The confidence interval of the expected calibration error, honest at a calibrated model.

The binned calibration error is a norm of the bins' gaps, and its estimate is biased
upwards: each gap holds the noise of its bin, and a norm of noise is positive. A bootstrap
resample holds that noise twice, so the resampled errors lie above the estimate, which lies
above the error itself: percentile, basic and BCa intervals then miss a calibrated model's
error of 0 every time (0 % coverage at 1,000 instances in simulation, where 95 % is asked).

What is resampled here is linear instead, the gaps themselves. In bin ``b`` of a curve, the
weighted gap ``c_b = sum_i w_i (y_i - p_i) [i in b] / sum_i w_i`` is a mean over
instances, and the L1 error is ``sum_b |c_b|`` (the L2 and max errors are norms of the
gaps ``c_b / s_b``, ``s_b`` the bin's share of the weight). For any norm, the triangle
inequality bounds the estimate's error by the norm of the gaps' errors:
``| ||c_hat|| - ||c|| | <= ||c_hat - c||``, and the bootstrap gives the law of the right
side (the resampled ``||c* - c_hat||``), which it estimates consistently because the gaps
are means. The interval is ``[estimate - q, estimate + q]`` cut at 0 and 1, ``q`` the
quantile of ``||c* - c_hat||`` at the confidence level: it holds the error with at least
that probability, and 0 exactly when the data do not tell the model from a calibrated one.

For the L1 error a bin whose gap is clearly apart from 0 (more than ``sqrt(log n)``
standard errors: Andrews and Soares's (2010) moment selection) has a known sign, and its
part of the error moves with its gap linearly: those bins enter the bound by their signed
sum, the others by their norm, which narrows the interval of a clearly miscalibrated model
to about the width of a normal interval while keeping the bound.

With a few instances a bin the bootstrap's law of the gaps' errors is too narrow (89 %
coverage of a calibrated model's 0 at 100 instances in 10 bins). The calibrated model's own
law is exact there: outcomes drawn from the probabilities themselves (Broecker and Smith's
consistency resampling, :mod:`.testing`'s draws) give the gaps' errors of a calibrated
model with these probabilities. The bound is the larger of the two quantiles. The bins are
those of the data (quantile bins: their edges are kept in every resample).
"""

import functools
import inspect

import numpy as np
import scipy.sparse as sp

from .._core.bounds import wilson
from .._core.config import check_result_size
from .._core.probabilities import checked_probabilities
from .._core.resampling import group_weights, instance_weights
from .._core.user_warnings import DegenerateIntervalWarning, warn
from .bins import binned, curves
from .curves import expected_calibration_error
from .testing import FixedBins, drawn_sums

# Values (rows x instances) of one block of uniforms of the outcomes drawn from the
# probabilities: 16 MiB.
_DRAW_VALUES = 1 << 21

_DEFAULTS = {name: parameter.default for name, parameter in inspect.signature(
    expected_calibration_error).parameters.items() if parameter.kind is parameter.KEYWORD_ONLY
    and name != "sample_weight"}


def calibration_error_params(scoring, score_params):
    """The keywords of :func:`~.curves.expected_calibration_error` (defaults filled in)
    where ``scoring`` is it (or a ``functools.partial`` of it binding keywords), else
    None; a keyword it does not take raises, naming it."""
    keywords = {}
    if isinstance(scoring, functools.partial) and not scoring.args:
        scoring, keywords = scoring.func, dict(scoring.keywords)
    if scoring is not expected_calibration_error:
        return None
    keywords.update(score_params)
    unknown = sorted(set(keywords) - set(_DEFAULTS))
    if unknown:
        raise TypeError(f"score_confidence_interval: expected_calibration_error takes no "
                        f"keyword {unknown[0]!r}; it takes {sorted(_DEFAULTS)}.")
    return {**_DEFAULTS, **keywords}


def _curve_columns(data, params):
    """Per instance, its column (curve * n_bins + bin) in each curve and its weighted gap
    ``w (y - p)`` there; and the bins of each curve (:class:`~.bins.Bins`)."""
    n_bins, strategy = int(params["n_bins"]), params["strategy"]
    sample_weight = data.sample_weight
    columns, gaps, all_bins, confidences = [], [], [], []
    for position, (_, confidence, outcome) in enumerate(curves(data, params["target"])):
        bins = binned(confidence, outcome, sample_weight, n_bins, strategy)
        columns.append(bins.ids + position * n_bins)
        gap = outcome - confidence
        gaps.append(gap if sample_weight is None else sample_weight * gap)
        all_bins.append(bins)
        confidences.append(confidence)
    return np.stack(columns, axis=1), np.stack(gaps, axis=1), all_bins, confidences


def _wilson_box(all_bins, norm, alpha):
    """``(low, high)``: the least and the largest error of the curves whose every bin's
    frequency lies in its Wilson interval (the reliability curve's band), where no
    resampled gap varies (probabilities of 0 and 1, every one right)."""
    lows, highs = [], []
    for bins in all_bins:
        share = bins.weight / bins.weight.sum()
        low, high, _ = wilson(bins.frequency * bins.effective, bins.effective, alpha)
        mean = bins.mean_confidence
        near = np.maximum(np.maximum(low - mean, mean - high), 0.0)
        far = np.maximum(np.abs(low - mean), np.abs(high - mean))
        if norm == "l1":
            lows.append(share @ near), highs.append(share @ far)
        elif norm == "max":
            lows.append(near.max()), highs.append(far.max())
        else:
            lows.append(np.sqrt(share @ near ** 2)), highs.append(np.sqrt(share @ far ** 2))
    return float(np.mean(lows)), float(np.mean(highs))


def _norms(weight, gap, total, norm, n_curves, n_bins, signs=None):
    """The error (mean over curves of each curve's norm) of ``weight`` and ``gap`` (rows:
    resamples; columns: curve * n_bins + bin), the resamples' weight ``total``; with
    ``signs`` the L1 bound's selected form (``gap`` the gaps' errors)."""
    shares = gap / total[:, None]
    shape = (len(total), n_curves, n_bins)
    if norm == "l1":
        if signs is None:
            return np.abs(shares).reshape(shape).sum(axis=2).mean(axis=1)
        known = signs != 0
        linear = np.abs((shares[:, known] * signs[known]).reshape(len(total), -1).sum(axis=1))
        return (linear + np.abs(shares[:, ~known]).sum(axis=1)) / n_curves
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = np.where(weight > 0, gap / np.where(weight > 0, weight, 1.0), 0.0)
    if norm == "max":
        return np.abs(scaled).reshape(shape).max(axis=2).mean(axis=1)
    return np.sqrt((weight / total[:, None] * scaled ** 2).reshape(shape).sum(axis=2)
                   ).mean(axis=1)


def calibration_error_interval(y_true, y_prob, params, sample_weight, confidence_level,
                               n_resamples, rng, groups, progress, owner, n_jobs=None):
    """``(low, high, distribution)``: the norm bound's interval of the calibration error of
    :func:`~.curves.expected_calibration_error` with ``params`` (its keywords, defaults
    filled in), and the resampled errors; ``progress`` counts ``2 * n_resamples`` draws
    (the bootstrap's, then the calibrated model's)."""
    check_result_size(owner, (2, n_resamples),
                      f"two distributions of n_resamples={n_resamples} values",
                      "Pass fewer n_resamples")
    data = checked_probabilities(owner, y_true, y_prob, labels=params.get("labels"),
                                 sample_weight=sample_weight)
    columns, gaps, all_bins, confidences = _curve_columns(data, params)
    n_samples, n_curves = columns.shape
    size = n_curves * int(params["n_bins"])
    check_result_size(owner, (n_samples, n_curves, 3),
                      f"the bins of {n_curves} curve(s) for {n_samples} instances",
                      "Pass target='top_label', or fewer instances")
    rows = np.repeat(np.arange(n_samples), n_curves)
    weights_of = np.ones(n_samples) if data.sample_weight is None else data.sample_weight
    membership = sp.csr_matrix((np.repeat(weights_of, n_curves), (rows, columns.ravel())),
                               shape=(n_samples, size))
    gap_terms = sp.csr_matrix((gaps.ravel(), (rows, columns.ravel())),
                              shape=(n_samples, size))
    weight = np.asarray(membership.sum(axis=0)).ravel()
    gap = np.asarray(gap_terms.sum(axis=0)).ravel()
    total = np.array([weights_of.sum()])
    norm, n_bins = params["norm"], int(params["n_bins"])
    signs = None
    if norm == "l1":  # the bins whose gap's sign is known (moment selection)
        # the delta method's standard error of each weighted gap, a ratio of two sums
        # over every instance: sum_i w_i^2 (z_i - c_b)^2 / W^2, z_i = (y_i - p_i) [i in b]
        share = gap / total[0]
        squares = np.asarray(gap_terms.multiply(gap_terms).sum(axis=0)).ravel()
        cross = np.asarray(gap_terms.multiply(membership).sum(axis=0)).ravel()
        spread = np.sqrt(np.maximum(squares - 2 * share * cross
                                    + share ** 2 * (weights_of @ weights_of), 0.0)) / total[0]
        kappa = np.sqrt(np.log(max(n_samples, 3)))
        signs = np.where(np.abs(share) > kappa * spread, np.sign(share), 0.0)
    estimate = _norms(weight[None], gap[None], total, norm, n_curves, n_bins)[0]
    draws = (instance_weights(rng, n_samples, n_resamples, False, 3 * size, owner, n_jobs,
                              reuse=True) if groups is None else
             group_weights(rng, groups, n_resamples, False, 3 * size, owner, n_jobs))
    bounds, errors = [], []
    for block in progress.track(draws):
        resampled_total = block @ weights_of
        resampled_weight = np.asarray((membership.T @ block.T).T)
        resampled_gap = np.asarray((gap_terms.T @ block.T).T)
        errors.append(_norms(resampled_weight, resampled_gap, resampled_total, norm,
                             n_curves, n_bins))
        # the gaps' errors, each resample's gaps against the data's
        error_of_gaps = resampled_gap - resampled_total[:, None] * gap / total[0]
        if norm == "l1":
            bounds.append(_norms(resampled_weight, error_of_gaps, resampled_total, norm,
                                 n_curves, n_bins, signs))
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                moved = np.where(resampled_weight > 0, resampled_gap / np.where(
                    resampled_weight > 0, resampled_weight, 1.0), gap / np.where(
                        weight > 0, weight, 1.0))
            bounds.append(_norms(np.broadcast_to(weight, moved.shape),
                                 (moved - gap / np.where(weight > 0, weight, 1.0)) * weight,
                                 np.broadcast_to(total, len(moved)), norm, n_curves,
                                 n_bins))
    # the calibrated model's own law of the gaps' errors: exact where the model is
    # calibrated, where the bootstrap of a few instances per bin covers too little (89 %
    # at 100 instances in 10 bins); the larger of the two quantiles bounds the error
    fixed = FixedBins(confidences, data.sample_weight, n_bins, params["strategy"])
    per_block = max(1, min(n_resamples, _DRAW_VALUES // max(n_samples, 1)))
    calibrated = []
    for start in range(0, n_resamples, per_block):  # one stream, whatever the blocks
        uniforms = rng.random((min(per_block, n_resamples - start), n_samples))
        drawn = drawn_sums(fixed, confidences, uniforms, data.sample_weight,
                           params["target"] == "classwise") - fixed.expected
        drawn = drawn.reshape(len(uniforms), -1)
        calibrated.append(_norms(np.broadcast_to(weight, drawn.shape), drawn,
                                 np.broadcast_to(total, len(drawn)), norm, n_curves, n_bins))
        progress.update(len(uniforms))
    bound = max(np.quantile(np.concatenate(bounds), confidence_level),
                np.quantile(np.concatenate(calibrated), confidence_level))
    low, high = max(estimate - bound, 0.0), min(estimate + bound, 1.0)
    if bound <= 16 * np.finfo(float).eps * max(estimate, 1.0) and confidence_level > 1e-9:
        box_low, box_high = _wilson_box(all_bins, norm, 1 - confidence_level)
        warn(f"{owner}: the interval of the calibration error is a single point "
             f"({estimate:.4g}): its bins' gaps do not vary in any resample (probabilities "
             "of 0 and 1, every one right); its interval is that of the curves within the "
             "bins' Wilson intervals instead (the reliability curve's band).",
             DegenerateIntervalWarning)
        low, high = min(low, box_low), max(high, box_high)
    return low, high, np.concatenate(errors)
