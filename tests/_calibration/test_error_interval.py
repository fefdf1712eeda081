"""The interval of the expected calibration error: the norm bound of the bins' gaps.

The estimate it is centred on is the function's own (every norm, target, strategy and
weighting); each resampled error is the function's on the resample's instance weights; the
interval holds the estimate, reaches 0 for a calibrated model and not for a clearly
miscalibrated one; its coverage, at a calibrated and a miscalibrated model, is at least
nominal less the simulation's error (the user guide's table: benchmarks/coverage_calibration.py).
"""

from functools import partial

import numpy as np
import pytest
from scipy.special import expit, logit

from sklearn_confusion_ext import (
    compare_scores,
    expected_calibration_error,
    score_confidence_interval,
)
from sklearn_confusion_ext._calibration.error_interval import (
    calibration_error_interval,
    calibration_error_params,
)
from sklearn_confusion_ext._core.resampling import instance_weights, quiet_progress
from sklearn_confusion_ext.exceptions import DegenerateIntervalWarning


def _binary(n, slope, seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.001, 0.999, size=n)
    y = (rng.random(n) < expit(slope * logit(p))).astype(int)
    return y, np.c_[1 - p, p]


def _three_classes(n, seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 3))
    prob = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    y = (rng.random((n, 1)) > np.cumsum(prob, axis=1)[:, :-1]).sum(axis=1)
    return y, prob


KEYWORDS = [{}, {"norm": "l2"}, {"norm": "max"}, {"target": "classwise"},
            {"strategy": "quantile", "n_bins": 7}, {"target": "classwise", "norm": "max"}]


@pytest.mark.parametrize("keywords", KEYWORDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_the_resampled_errors_are_the_function_on_the_resampled_weights(keywords, weighted):
    y, prob = _three_classes(120, 0)
    weights = np.random.default_rng(1).uniform(0.5, 2.0, size=len(y)) if weighted else None
    params = calibration_error_params(expected_calibration_error, keywords)
    low, high, errors = calibration_error_interval(
        y, prob, params, weights, 0.95, 5, np.random.default_rng(7), None, quiet_progress(),
        "test")
    drawn = next(instance_weights(np.random.default_rng(7), len(y), 5, False, 1, "test"))
    for row, resampled in zip(drawn, errors):
        total = row if weights is None else row * weights
        assert resampled == pytest.approx(
            expected_calibration_error(y, prob, sample_weight=total, **keywords), abs=1e-12)
    estimate = expected_calibration_error(y, prob, sample_weight=weights, **keywords)
    assert 0 <= low <= estimate <= high <= 1


def test_the_interval_reaches_zero_for_a_calibrated_model_only():
    y, prob = _binary(2000, 1.0, 3)
    calibrated = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                           n_resamples=999, random_state=0)
    assert calibrated.method == "norm_bound"
    assert calibrated.low == 0.0 < calibrated.estimate < calibrated.high
    y, prob = _binary(2000, 0.5, 3)
    miscalibrated = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                              n_resamples=999, random_state=0)
    assert 0.05 < miscalibrated.low < miscalibrated.estimate < miscalibrated.high < 0.2
    # Python floats, as every interval's ends (NumPy 2 printed np.float64(0.017))
    assert {type(value) for value in (miscalibrated.estimate,
                                      *miscalibrated.confidence_interval())} == {float}


def test_a_partial_binding_keywords_is_the_same_score():
    y, prob = _three_classes(200, 4)
    one = score_confidence_interval(y, prob, scoring=expected_calibration_error, norm="l2",
                                    n_bins=8, n_resamples=199, random_state=1)
    two = score_confidence_interval(y, prob, n_resamples=199, random_state=1,
                                    scoring=partial(expected_calibration_error, norm="l2"),
                                    n_bins=8)
    assert (one.estimate, one.low, one.high) == (two.estimate, two.low, two.high)


def test_the_debiased_estimate_is_reported_inside_the_plug_in_bound():
    y, prob = _binary(500, 1.0, 5)
    result = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                       norm="l2", debiased=True, n_resamples=299,
                                       random_state=0)
    assert result.estimate == expected_calibration_error(y, prob, norm="l2", debiased=True)
    assert result.low <= result.estimate <= result.high


def test_groups_are_resampled_as_units():
    y, prob = _binary(300, 1.0, 6)
    groups = np.repeat(np.arange(30), 10)
    result = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                       groups=groups, n_resamples=199, random_state=0)
    alone = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                      n_resamples=199, random_state=0)
    assert result.estimate == alone.estimate and result.high != alone.high


@pytest.mark.parametrize("method", ["percentile", "basic", "bca", "bayesian", "analytic"])
def test_other_methods_are_refused_with_the_reason(method):
    y, prob = _binary(50, 1.0, 0)
    with pytest.raises(ValueError, match="method='norm_bound'.*biased upwards"):
        score_confidence_interval(y, prob, scoring=expected_calibration_error, method=method)


def test_the_norm_bound_is_the_calibration_error_s_only():
    with pytest.raises(ValueError, match="method='norm_bound' is the interval of the "
                                         "calibration error"):
        score_confidence_interval([0, 1, 1], [0, 1, 0], scoring="tcm_accuracy",
                                  method="norm_bound")


def test_a_keyword_the_error_does_not_take_is_named():
    with pytest.raises(TypeError, match="takes no keyword 'average'"):
        score_confidence_interval([0, 1], [[0.4, 0.6], [0.3, 0.7]],
                                  scoring=expected_calibration_error, average="macro")
    with pytest.raises(ValueError, match="prior="):
        score_confidence_interval([0, 1], [[0.4, 0.6], [0.3, 0.7]],
                                  scoring=expected_calibration_error, prior=1.0)


def _coverage(slope, n, truth, repeats=300):
    hits = 0
    for seed in range(repeats):
        y, prob = _binary(n, slope, 1000 + seed)
        result = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                           n_bins=10, target="classwise", n_resamples=299,
                                           random_state=seed)
        hits += result.low <= truth <= result.high
    return hits / repeats


def _true_ece(slope):
    p = np.linspace(0, 1, 2_000_001)[1:-1]
    ids = np.clip(np.ceil(p * 10).astype(int) - 1, 0, 9)
    return np.abs(np.bincount(ids, expit(slope * logit(p)) - p, 10)).sum() / p.size


@pytest.mark.slow
@pytest.mark.parametrize("slope", [1.0, 0.8, 0.5])
@pytest.mark.parametrize("n", [100, 300])
def test_coverage_is_at_least_nominal_less_the_simulation_error(slope, n):
    # 300 test sets: a coverage of 95 % is seen below 0.91 with probability under 0.2 %;
    # the BCa interval of the same error covered 0 % (slope 1 and 0.8) at these sizes, the
    # bootstrap half of the bound alone 89 % (slope 1, 100 instances in 10 bins)
    assert _coverage(slope, n, _true_ece(slope)) >= 0.91


@pytest.mark.slow
def test_coverage_of_a_calibrated_model_with_few_instances_per_bin():
    # 1,000 test sets of 100 instances in 10 bins: 95 % is seen below 0.925 with
    # probability under 0.1 %; the bootstrap half of the bound alone gives about 0.90
    assert _coverage(1.0, 100, 0.0, repeats=1000) >= 0.925


def test_a_paired_comparison_of_calibration_errors_is_refused_with_the_way_out():
    y, prob = _binary(100, 1.0, 0)
    with pytest.raises(ValueError, match="no honest paired interval.*neg_brier_score"):
        compare_scores(y, prob, prob[::-1], scoring=expected_calibration_error)


@pytest.mark.parametrize("y, prob", [([1] * 5, [0.9] * 5), ([1], [0.7]),
                                     ([0, 1, 1], [0.2, 0.8, 0.8])])
def test_bins_whose_outcomes_are_alike_still_get_an_interval(y, prob):
    # every resample's gaps are the data's (a bootstrap bound of 0): the outcomes drawn
    # from the probabilities (the calibrated model's law) still move them
    result = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                       n_resamples=199, random_state=0)
    assert result.low == 0.0 < result.estimate < result.high <= 1.0


@pytest.mark.parametrize("y, prob", [([1] * 5, [1.0] * 5), ([0, 1], [0.0, 1.0])])
def test_certain_and_right_gives_the_band_s_interval_not_a_point(y, prob):
    # probabilities of 0 and 1, all right: no resample of either kind moves a gap
    with pytest.warns(DegenerateIntervalWarning, match="single point"):
        result = score_confidence_interval(y, prob, scoring=expected_calibration_error,
                                           n_resamples=199, random_state=0)
    assert result.low == result.estimate == 0.0 < 0.4 < result.high < 1.0
