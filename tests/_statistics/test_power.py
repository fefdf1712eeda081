"""The power of McNemar's tests in closed form, against brute-force enumeration and simulation
of the library's own tests; the simulated power of the bootstrap and the corrected t-test."""

import itertools
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_confusion_ext import (
    bootstrap_power,
    compare_cv_scores,
    compare_scores,
    corrected_ttest_power,
    mcnemar_power,
    mcnemar_test,
    minimum_detectable_difference,
    required_sample_size,
)
from sklearn_confusion_ext._statistics.power import simulate_discordant_counts

TESTS = [{"exact": True}, {"exact": "mid-p"}, {"exact": False},
         {"exact": False, "correction": True}]
ONE_SIDED = [{"exact": True, "alternative": "greater"}, {"exact": True, "alternative": "less"},
             {"exact": "mid-p", "alternative": "greater"},
             {"exact": "mid-p", "alternative": "less"}]


def enumerated_power(n, difference, discordance, alpha=0.05, exact=True, correction=False,
                     alternative="two-sided"):
    """The power by brute force: every table of n instances, weighed by its multinomial
    probability, tested with mcnemar_test itself."""
    only_a, only_b = (discordance + difference) / 2, (discordance - difference) / 2
    power = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for b, c in itertools.product(range(n + 1), repeat=2):
            if b + c > n:
                continue
            probability = stats.multinomial.pmf([b, c, n - b - c], n,
                                                [only_a, only_b, 1 - discordance])
            table = [[n - b - c, b], [c, 0]]
            pvalue = mcnemar_test(table, exact=exact, correction=correction,
                                  alternative=alternative).pvalue
            power += probability * (pvalue <= alpha)
    return power


# Fault caught: a wrong rejection region (an off-by-one edge, the centre of Edwards'
# correction, a one-sided tail on the wrong side, mid-p read as exact).
@pytest.mark.parametrize("options", TESTS + ONE_SIDED)
@pytest.mark.parametrize("n, difference, discordance, alpha",
                         [(12, 0.2, 0.5, 0.05), (9, -0.1, 0.6, 0.3), (15, 0.0, 0.4, 0.1),
                          (7, 0.3, 0.3, 0.6), (8, 0.1, 0.5, 0.7)])
def test_closed_form_equals_enumeration(options, n, difference, discordance, alpha):
    expected = enumerated_power(n, difference, discordance, alpha, **options)
    assert mcnemar_power(n, difference, discordance=discordance, alpha=alpha, **options) == \
        pytest.approx(expected, abs=1e-10)


# Fault caught: the truncation of the D sum keeping too few terms, or the sum over D
# weighed wrongly (the power of a sure rejection must be 1).
def test_large_n_and_limits():
    assert mcnemar_power(10 ** 7, 0.002, discordance=0.1) == pytest.approx(1.0, abs=1e-9)
    assert mcnemar_power(10 ** 7, 0.0, discordance=0.1) <= 0.05
    assert mcnemar_power(10 ** 7, 0.0, discordance=0.1, exact=False) == pytest.approx(
        0.05, abs=2e-3)
    # D = 0 always: the test never rejects (mid-p one-sided: its p-value 1/2)
    assert mcnemar_power(100, 0.0, discordance=0.0) == 0.0
    assert mcnemar_power(100, 0.0, discordance=0.0, exact="mid-p", alternative="greater",
                         alpha=0.6) == 1.0
    # every discordant pair favours a: the exact test rejects where D >= 6
    assert mcnemar_power(50, 0.2, discordance=0.2) == pytest.approx(stats.binom.sf(5, 50, 0.2))


# Fault caught: the size above alpha (a region reaching the centre), a sign error in the
# direction of the one-sided tests.
@pytest.mark.parametrize("options", TESTS[:2] + ONE_SIDED)
def test_difference_zero_gives_the_size(options):
    for n in (10, 101, 1000):
        assert mcnemar_power(n, 0.0, discordance=0.2, **options) <= 0.05 + 1e-12
    if options.get("alternative") == "greater":
        assert mcnemar_power(500, 0.05, discordance=0.2, **options) > 0.5
        assert mcnemar_power(500, -0.05, discordance=0.2, **options) < 0.05


def test_monotone_in_difference_and_symmetric():
    differences = np.linspace(0, 0.1, 11)
    powers = [mcnemar_power(400, d, discordance=0.1) for d in differences]
    assert np.all(np.diff(powers) > 0)
    assert mcnemar_power(400, -0.03, discordance=0.1) == pytest.approx(
        mcnemar_power(400, 0.03, discordance=0.1))
    assert mcnemar_power(5000, 0.02, discordance=0.1, exact="mid-p") > mcnemar_power(
        5000, 0.02, discordance=0.1)


def test_minimum_detectable_difference():
    mdd = minimum_detectable_difference(1000, discordance=0.1)
    assert mcnemar_power(1000, mdd, discordance=0.1) >= 0.8
    assert mcnemar_power(1000, mdd - 1e-4, discordance=0.1) < 0.8
    assert minimum_detectable_difference(1000, discordance=0.1, alternative="less") < 0
    assert minimum_detectable_difference(4000, discordance=0.1) < mdd
    with pytest.warns(RuntimeWarning, match="No difference reaches power"):
        assert np.isnan(minimum_detectable_difference(5, discordance=0.1))


def test_required_sample_size():
    n = required_sample_size(0.02, discordance=0.1)
    assert all(mcnemar_power(m, 0.02, discordance=0.1) >= 0.8 for m in range(n, n + 30))
    assert mcnemar_power(n - 1, 0.02, discordance=0.1) < 0.8
    # the sawtooth: small n, exact test; the answer holds the power over its window
    n = required_sample_size(0.3, discordance=0.5, power=0.9)
    assert all(mcnemar_power(m, 0.3, discordance=0.5) >= 0.9 for m in range(n, n + 15))
    assert required_sample_size(-0.02, discordance=0.1) == required_sample_size(
        0.02, discordance=0.1)
    with pytest.raises(ValueError, match="'difference'"):
        required_sample_size(0.0, discordance=0.1)
    with pytest.raises(ValueError, match="'greater' needs a positive"):
        required_sample_size(-0.02, discordance=0.1, alternative="greater")


@pytest.mark.parametrize("call", [
    lambda: mcnemar_power(100, 0.2, discordance=0.1),
    lambda: minimum_detectable_difference(100, discordance=0.1, exact=False, alternative="less"),
    lambda: bootstrap_power(100, -0.3, discordance=0.2)])
def test_bad_designs_name_the_argument(call):
    with pytest.raises(ValueError, match="difference|alternative"):
        call()


def test_validation_names_argument_and_value():
    with pytest.raises(ValueError, match="'discordance'.*1.5"):
        mcnemar_power(100, 0.0, discordance=1.5)
    with pytest.raises(ValueError, match="'n_samples'.*0"):
        mcnemar_power(0, 0.0, discordance=0.1)
    with pytest.raises(TypeError, match="'n_samples'"):
        mcnemar_power(10.5, 0.0, discordance=0.1)


def test_discordant_counts_generator():
    rng = np.random.default_rng(0)
    b, c = simulate_discordant_counts(rng, 1000, 0.02, 0.1, 20000)
    assert np.mean(b + c) == pytest.approx(100, rel=0.01)
    assert np.mean(b - c) == pytest.approx(20, rel=0.03)


# Fault caught: the bootstrap p-value on the wrong side, or not shifted to the null.
def test_bootstrap_power_near_mcnemar():
    result = bootstrap_power(1000, 0.02, discordance=0.1, n_simulations=600, n_resamples=199,
                             random_state=0)
    closed = mcnemar_power(1000, 0.02, discordance=0.1, exact=False)
    assert abs(result.power - closed) < 4 * result.standard_error + 0.03
    size = bootstrap_power(1000, 0.0, discordance=0.1, n_simulations=600, n_resamples=199,
                           random_state=1)
    assert size.power < 0.05 + 3 * np.sqrt(0.05 * 0.95 / 600)
    assert result.low <= result.power <= result.high
    same = bootstrap_power(1000, 0.02, discordance=0.1, n_simulations=600, n_resamples=199,
                           random_state=0)
    assert same == result
    assert "PowerResult(power=" in repr(result)
    assert result.to_frame() is not None


# Fault caught: the correction dropped (the naive t), or the closed form's scale wrong.
@pytest.mark.parametrize("correlation", [None, 0.05, 0.3])
def test_corrected_ttest_simulation_matches_closed_form(correlation):
    result = corrected_ttest_power(0.01, 0.02, n_folds=30, correlation=correlation,
                                   n_simulations=4000, random_state=0)
    assert abs(result.power - result.closed_form) < 4 * result.standard_error + 1e-3
    level = corrected_ttest_power(0.0, 0.02, n_folds=30, n_simulations=4000, random_state=1)
    assert level.closed_form == pytest.approx(0.05)
    assert abs(level.power - 0.05) < 4 * level.standard_error


@pytest.mark.slow
def test_closed_form_against_the_library_mcnemar_on_simulated_data():
    """2,000 simulated test sets, each tested by mcnemar_test (and by compare_scores'
    McNemar method on the indicators for a subset); the rejection rates agree with the
    closed form within Monte Carlo error."""
    rng = np.random.default_rng(2026)
    n, difference, discordance = 500, 0.03, 0.12
    b, c = simulate_discordant_counts(rng, n, difference, discordance, 2000)
    for options in TESTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rejected = [mcnemar_test([[n - i - j, i], [j, 0]], **options).pvalue <= 0.05
                        for i, j in zip(b, c)]
        closed = mcnemar_power(n, difference, discordance=discordance, **options)
        error = np.sqrt(closed * (1 - closed) / 2000)
        assert abs(np.mean(rejected) - closed) < 4 * error
    # from paired correctness indicators, through compare_scores(method="mcnemar")
    hits = 0
    for _ in range(300):
        cell = rng.choice(3, size=n, p=[(discordance + difference) / 2,
                                        (discordance - difference) / 2, 1 - discordance])
        y_true = np.zeros(n, dtype=int)
        y_a, y_b = np.where(cell == 1, 1, 0), np.where(cell == 0, 1, 0)
        hits += compare_scores(y_true, y_a, y_b, method="mcnemar").pvalue <= 0.05
    closed = mcnemar_power(n, difference, discordance=discordance)
    assert abs(hits / 300 - closed) < 4 * np.sqrt(closed * (1 - closed) / 300)


@pytest.mark.slow
def test_bootstrap_power_against_compare_scores():
    rng = np.random.default_rng(7)
    n, difference, discordance = 300, 0.04, 0.15
    hits = 0
    for seed in range(200):
        cell = rng.choice(3, size=n, p=[(discordance + difference) / 2,
                                        (discordance - difference) / 2, 1 - discordance])
        y_true = np.zeros(n, dtype=int)
        y_a, y_b = np.where(cell == 1, 1, 0), np.where(cell == 0, 1, 0)
        hits += compare_scores(y_true, y_a, y_b, scoring="accuracy", n_resamples=199,
                               random_state=seed).pvalue <= 0.05
    result = bootstrap_power(n, difference, discordance=discordance, n_simulations=2000,
                             n_resamples=199, random_state=0)
    spread = np.sqrt(result.power * (1 - result.power) * (1 / 200 + 1 / 2000))
    assert abs(hits / 200 - result.power) < 4 * spread


@pytest.mark.slow
def test_corrected_ttest_power_against_compare_cv_scores():
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(500):
        d = 0.01 + 0.02 * (np.sqrt(0.1) * rng.standard_normal() +
                           np.sqrt(0.9) * rng.standard_normal(30))
        base = np.full(30, 0.8)
        hits += compare_cv_scores(base + d, base, n_train=9, n_test=1).pvalue <= 0.05
    closed = corrected_ttest_power(0.01, 0.02, n_folds=30, n_simulations=10).closed_form
    assert abs(hits / 500 - closed) < 4 * np.sqrt(closed * (1 - closed) / 500)
