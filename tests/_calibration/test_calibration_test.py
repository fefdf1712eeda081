"""calibration_test: Spiegelhalter's z against a loop over the instances and its Brier-score
form, the resampled test's statistic against expected_calibration_error, its draws against
a loop drawing each instance's class, and the type I error and power of both by simulation
(slow)."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._calibration import testing
from sklearn_confusion_ext._core.probabilities import checked_probabilities


def calibrated_binary(n, rng):
    p = rng.random(n)
    return (rng.random(n) < p).astype(int), p


def calibrated_multiclass(n, n_classes, rng):
    prob = rng.dirichlet(np.ones(n_classes), n)
    u = rng.random(n)
    y = (u[:, None] >= prob.cumsum(axis=1)[:, :-1]).sum(axis=1)
    return y, prob


def hand_z(y, p, w=None):
    """Spiegelhalter's z written out, one instance at a time."""
    w = np.ones(len(y)) if w is None else w
    numerator = variance = 0.0
    for yi, pi, wi in zip(y, p, w):
        numerator += wi * (yi - pi) * (1 - 2 * pi)
        variance += wi * wi * (1 - 2 * pi) ** 2 * pi * (1 - pi)
    return numerator / math.sqrt(variance)


# --- Spiegelhalter ----------------------------------------------------------------------------


def test_spiegelhalter_equals_a_loop_and_the_brier_form():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    p = rng.random(200)
    z, pvalue = sce.calibration_test(y, p)
    assert z == pytest.approx(hand_z(y, p), rel=1e-12)
    # the Brier score less its expectation under calibration, over its standard deviation
    brier_form = ((((y - p) ** 2) - p * (1 - p)).sum()
                  / np.sqrt(((1 - 2 * p) ** 2 * p * (1 - p)).sum()))
    assert z == pytest.approx(brier_form, rel=1e-12)
    assert pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)


def test_spiegelhalter_reads_the_positive_class_in_every_input_form():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 50)
    p = rng.random(50)
    expected = sce.calibration_test(y, p)
    two = sce.calibration_test(y, np.column_stack([1 - p, p]))
    named = sce.calibration_test(np.array(["no", "yes"])[y], p, pos_label="yes")
    flipped = sce.calibration_test(y, 1 - p, pos_label=0)
    for result in (two, named):
        assert tuple(result) == pytest.approx(tuple(expected), rel=1e-12)
    # the other class's probability: the same |z| (terms change sign with 1 - 2p)
    assert flipped.statistic == pytest.approx(expected.statistic, rel=1e-12)


def test_spiegelhalter_does_not_depend_on_the_order_of_the_instances():
    rng = np.random.default_rng(10)
    y, p = calibrated_binary(70, rng)
    w = rng.random(70)
    order = rng.permutation(70)
    assert tuple(sce.calibration_test(y[order], p[order], sample_weight=w[order])) == \
        pytest.approx(tuple(sce.calibration_test(y, p, sample_weight=w)), rel=1e-12)


def test_spiegelhalter_weights_are_weighted_terms():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 60)
    p = rng.random(60)
    w = rng.random(60) * 3
    z, _ = sce.calibration_test(y, p, sample_weight=w)
    assert z == pytest.approx(hand_z(y, p, w), rel=1e-12)
    assert sce.calibration_test(y, p, sample_weight=7 * w).statistic == pytest.approx(z)
    assert tuple(sce.calibration_test(y, p, sample_weight=np.ones(60))) == pytest.approx(
        tuple(sce.calibration_test(y, p)))


def test_spiegelhalter_undefined_and_certain_cases():
    with pytest.warns(UserWarning, match="cannot tell"):
        z, pvalue = sce.calibration_test([0, 1, 1], [0.5, 0.5, 1.0])
    assert (z, pvalue) == (0.0, 1.0)
    with pytest.warns(UserWarning, match="contradicts one of 0 or 1"):
        z, pvalue = sce.calibration_test([0, 1, 1], [0.5, 0.0, 1.0])  # y=1 at p=0
    assert z == math.inf and pvalue == 0.0


def test_spiegelhalter_refuses_more_than_two_classes():
    y, prob = calibrated_multiclass(30, 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="method='resampled'"):
        sce.calibration_test(y, prob, method="spiegelhalter")
    assert sce.calibration_test(y, prob, n_resamples=19).method == "resampled"  # auto


def test_result_unpacks_and_shows():
    result = sce.calibration_test([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.3])
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)
    assert "spiegelhalter" in repr(result) and result.null_distribution is None
    assert list(result.to_frame().columns)[:3] == ["method", "statistic", "pvalue"]


# --- Consistency resampling -------------------------------------------------------------------


@pytest.mark.parametrize("target", ["classwise", "top_label"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_resampled_statistic_is_the_l2_calibration_error(target, strategy, weighted):
    rng = np.random.default_rng(3)
    y, prob = calibrated_multiclass(300, 4, rng)
    w = rng.random(300) if weighted else None
    result = sce.calibration_test(y, prob, target=target, strategy=strategy, n_bins=7,
                                  n_resamples=99, sample_weight=w, random_state=0)
    assert result.statistic == pytest.approx(sce.expected_calibration_error(
        y, prob, target=target, strategy=strategy, n_bins=7, norm="l2", sample_weight=w),
        rel=1e-12)
    null = result.null_distribution
    assert null.shape == (99,)
    assert result.pvalue == (1 + np.count_nonzero(null >= result.statistic * (1 - 1e-14))) / 100


def test_resampled_binary_reads_both_classes():
    rng = np.random.default_rng(4)
    y, p = calibrated_binary(200, rng)
    one = sce.calibration_test(y, p, method="resampled", n_resamples=50, random_state=1)
    two = sce.calibration_test(y, np.column_stack([1 - p, p]), method="resampled",
                               n_resamples=50, random_state=1)
    assert one.statistic == pytest.approx(sce.expected_calibration_error(
        y, p, target="classwise", norm="l2", n_bins=10), rel=1e-12)
    np.testing.assert_allclose(one.null_distribution, two.null_distribution, rtol=1e-12)


def test_draws_are_each_instances_class_by_a_loop():
    """The vectorized draw (inverse CDF, one uniform per instance) against a loop: the
    class of instance i is the first k whose cumulative probability exceeds u."""
    rng = np.random.default_rng(5)
    y, prob = calibrated_multiclass(40, 3, rng)
    data = checked_probabilities("t", y, prob)
    confidences = [prob[:, k] for k in range(3)]
    bins = testing.FixedBins(confidences, None, 4, "uniform")
    uniforms = rng.random((6, 40))
    sums = testing.drawn_sums(bins, confidences, uniforms, None, True)
    for r in range(6):
        expected = np.zeros((3, 4))
        for i in range(40):
            k = 0
            while k < 2 and uniforms[r, i] >= prob[i, :k + 1].sum():
                k += 1
            expected[k, bins.ids[k, i]] += 1
        np.testing.assert_array_equal(sums[r], expected)
    assert data.prob.shape == (40, 3)


def test_draws_follow_the_probabilities():
    """Over many draws each bin's outcome sum averages to its expected sum."""
    rng = np.random.default_rng(6)
    y, prob = calibrated_multiclass(200, 3, rng)
    confidences = [prob[:, k] for k in range(3)]
    bins = testing.FixedBins(confidences, None, 5, "uniform")
    sums = testing.drawn_sums(bins, confidences, rng.random((4000, 200)), None, True)
    np.testing.assert_allclose(sums.mean(axis=0), bins.expected, atol=0.25)


def test_resampled_is_reproducible_whatever_the_blocks(monkeypatch):
    y, prob = calibrated_multiclass(500, 3, np.random.default_rng(7))
    first = sce.calibration_test(y, prob, n_resamples=60, random_state=3)
    monkeypatch.setattr(testing, "_BLOCK_VALUES", 1200)  # blocks of 2 resamples
    second = sce.calibration_test(y, prob, n_resamples=60, random_state=3)
    np.testing.assert_array_equal(first.null_distribution, second.null_distribution)
    assert first.pvalue == second.pvalue


def test_resampled_verbose_and_zero_weights(capsys):
    y, prob = calibrated_multiclass(50, 3, np.random.default_rng(8))
    sce.calibration_test(y, prob, n_resamples=20, verbose=2, random_state=0)
    assert "calibration_test: resample 20/20" in capsys.readouterr().err
    with pytest.warns(UndefinedMetricWarning, match="zero everywhere"):
        result = sce.calibration_test(y, prob, n_resamples=20, sample_weight=np.zeros(50))
    assert math.isnan(result.statistic) and math.isnan(result.pvalue)


def test_refuses_bad_options():
    with pytest.raises(ValueError, match="method"):
        sce.calibration_test([0, 1], [0.2, 0.8], method="hosmer")
    with pytest.raises(ValueError, match="n_bins"):
        sce.calibration_test([0, 1], [0.2, 0.8], method="resampled", n_bins=0)


# --- Type I error and power (the table of the user guide) ---------------------------------


def rejection_rate(pvalues, alpha=0.05):
    return float(np.mean(np.asarray(pvalues) <= alpha))


def binomial_tolerance(n_repeats, alpha=0.05):
    return 3 * math.sqrt(alpha * (1 - alpha) / n_repeats)  # three standard errors


@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 1000, 10000])
def test_spiegelhalter_type_one_error(n):
    rng = np.random.default_rng(n)
    repeats = 10000
    pvalues = [sce.calibration_test(*calibrated_binary(n, rng)).pvalue for _ in range(repeats)]
    assert abs(rejection_rate(pvalues) - 0.05) <= binomial_tolerance(repeats)


@pytest.mark.slow
def test_weighted_spiegelhalter_type_one_error():
    rng = np.random.default_rng(11)
    repeats = 5000
    pvalues = []
    for _ in range(repeats):
        y, p = calibrated_binary(1000, rng)
        pvalues.append(sce.calibration_test(y, p, sample_weight=rng.exponential(size=1000))
                       .pvalue)
    assert abs(rejection_rate(pvalues) - 0.05) <= binomial_tolerance(repeats)


@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 1000])
@pytest.mark.parametrize("target", ["classwise", "top_label"])
def test_resampled_type_one_error(n, target):
    rng = np.random.default_rng(n + len(target))
    repeats = 1500
    pvalues = [sce.calibration_test(*calibrated_multiclass(n, 3, rng), target=target,
                                    n_resamples=199, random_state=rng).pvalue
               for _ in range(repeats)]
    assert abs(rejection_rate(pvalues) - 0.05) <= binomial_tolerance(repeats)


@pytest.mark.slow
def test_power_against_overconfident_probabilities():
    """Outcomes drawn from p, the model reporting p sharpened (p ** 2, renormalized)."""
    rng = np.random.default_rng(12)
    spiegelhalter, resampled = [], []
    for _ in range(200):
        y, p = calibrated_binary(300, rng)
        sharp = p ** 2 / (p ** 2 + (1 - p) ** 2)
        spiegelhalter.append(sce.calibration_test(y, sharp).pvalue)
        y, prob = calibrated_multiclass(300, 3, rng)
        sharp = prob ** 2 / (prob ** 2).sum(axis=1, keepdims=True)
        resampled.append(sce.calibration_test(y, sharp, n_resamples=199,
                                              random_state=rng).pvalue)
    assert rejection_rate(spiegelhalter) > 0.5
    assert rejection_rate(resampled) > 0.5


def test_no_warning_on_ordinary_data():
    y, prob = calibrated_multiclass(100, 3, np.random.default_rng(9))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sce.calibration_test(y, prob, n_resamples=19, random_state=0)
        sce.calibration_test(*calibrated_binary(100, np.random.default_rng(9)))
