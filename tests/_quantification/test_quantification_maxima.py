"""Maxima of the quantification errors (Sebastiani 2020, eq. 2, 7, 10, 15, 18), the measures
normalized by them, weighted averaging across samples (Section 5.3), the natural protocol's
spread, and the paper's examples read literally (Example 1, IND)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_confusion_ext import (
    absolute_error,
    discordance_ratio,
    kl_divergence,
    max_normalized_kl_divergence,
    max_quantification_error,
    normalized_absolute_error,
    normalized_kl_divergence,
    normalized_pearson_divergence,
    normalized_relative_absolute_error,
    normalized_squared_error,
    pearson_divergence,
    prevalence_protocol_samples,
    relative_absolute_error,
    squared_error,
)

MEASURES = [absolute_error, normalized_absolute_error, relative_absolute_error,
            normalized_relative_absolute_error, squared_error, normalized_squared_error,
            discordance_ratio, kl_divergence, normalized_kl_divergence, pearson_divergence,
            max_normalized_kl_divergence, normalized_pearson_divergence]
EPS_B1 = 1 / 2_000_000  # Appendix B.1 assumes a sample of 1,000,000 (footnote 19)


# --- the maxima against the paper's printed numbers ----------------------------------------

# Appendix B.1: each row is the perverse estimator of its p, so the row's values are z_D(p).
B1 = {  # p: AE, RAE, SE, DR, KLD, NKLD
    (0.01, 0.99): (0.9900, 49.9975, 0.9801, 0.9950, 14.3076, 0.9999),
    (0.49, 0.51): (0.5100, 1.0204, 0.2601, 0.7550, 6.7065, 0.9975),
}


@pytest.mark.parametrize("p", list(B1))
def test_maxima_reproduce_appendix_b1(p):
    measures = [absolute_error, relative_absolute_error, squared_error, discordance_ratio,
                kl_divergence, normalized_kl_divergence]
    for measure, printed in zip(measures, B1[p]):
        # Appendix B truncates some values (NKLD 0.9999 for 0.9999988): tolerance 1e-4.
        assert max_quantification_error(measure, p, eps=EPS_B1) == pytest.approx(
            printed, abs=1e-4), measure.__name__
    # The normalized measures reach 1 there (NRAE and NKLD just below, being smoothed).
    for measure in (normalized_absolute_error, normalized_squared_error,
                    max_normalized_kl_divergence, normalized_pearson_divergence):
        assert max_quantification_error(measure, p, eps=EPS_B1) == pytest.approx(1, abs=1e-12)
    assert max_quantification_error(normalized_relative_absolute_error, p,
                                    eps=EPS_B1) == pytest.approx(1, abs=1e-4)


def test_pearson_maximum_of_appendix_b1_by_eq_17():
    # The PD column of Appendix B does not follow eq. (17) (NOTES_ON_PAPERS.md): it prints
    # 980100.0004 and 260100.0001; eq. (17) with the smoothing of eq. (6) gives these.
    z = max_quantification_error(pearson_divergence, [[0.01, 0.99], [0.49, 0.51]], eps=EPS_B1)
    lo, hi = EPS_B1 / (1 + 2 * EPS_B1), (1 + EPS_B1) / (1 + 2 * EPS_B1)
    ps = (np.array([[0.01, 0.99], [0.49, 0.51]]) + EPS_B1) / (1 + 2 * EPS_B1)
    expected = ((ps[:, 0] - hi) ** 2 / hi + (ps[:, 1] - lo) ** 2 / lo) / 2
    np.testing.assert_allclose(z, expected, rtol=1e-12)
    np.testing.assert_allclose(z, [980100.0004, 260100.0001], rtol=1e-6)


def test_kl_maximum_and_values_of_footnote_18():
    # |sigma| = 1000, p(c1) = 0.01: "KLD ranges on [0, 7.46]", and three quantifiers score
    # 4.78e-07, 4.53e-05 and 3.02e-03.
    eps = 1 / 2000
    assert round(max_quantification_error(kl_divergence, [0.01, 0.99], eps=eps), 2) == 7.46
    for q, printed in ((0.0101, 4.78e-07), (0.0110, 4.53e-05), (0.0200, 3.02e-03)):
        assert kl_divergence([0.01, 0.99], [q, 1 - q], eps=eps) == pytest.approx(
            printed, rel=2e-3)


def _smooth(p, eps):
    return (eps + p) / (eps * p.shape[-1] + 1)


def test_closed_forms_of_eq_2_7_10(rng):
    for _ in range(50):
        n = int(rng.integers(2, 7))
        p = rng.dirichlet(np.ones(n))
        c = np.argmin(p)
        z_ae = 2 * (1 - p[c]) / n  # eq. (2)
        z_rae = (n - 1 + (1 - p[c]) / p[c]) / n  # eq. (7)
        z_se = ((1 - p[c]) ** 2 + (np.delete(p, c) ** 2).sum()) / n  # eq. (10)
        assert max_quantification_error(absolute_error, p) == pytest.approx(z_ae, rel=1e-12)
        assert max_quantification_error(relative_absolute_error, p) == pytest.approx(
            z_rae, rel=1e-12)
        assert max_quantification_error(squared_error, p) == pytest.approx(z_se, rel=1e-12)


def test_eq_15_and_18_are_first_order_approximations(rng):
    # Eq. (15) and (18) write the smoothed perverse estimator as 1 - (|C| - 1) eps and eps
    # (and eq. 18 drops the square of its first term); eq. (6) gives (1 + eps) / (1 + |C|
    # eps) and eps / (1 + |C| eps). The library computes the latter: they agree to ~|C| eps.
    for _ in range(50):
        n = int(rng.integers(2, 6))
        eps = 1 / (2 * int(rng.integers(100, 100_000)))
        p = rng.dirichlet(np.ones(n))
        ps = _smooth(p, eps)
        c = np.argmin(ps)
        others = np.delete(np.arange(n), c)
        top = 1 - (n - 1) * eps
        eq15 = ps[c] * np.log(ps[c] / top) + (ps[others] * np.log(ps[others] / eps)).sum()
        eq18 = ((top - ps[c]) ** 2 / top + ((ps[others] - eps) ** 2 / eps).sum()) / n
        assert max_quantification_error(kl_divergence, p, eps=eps) == pytest.approx(
            eq15, rel=2 * n * eps)
        assert max_quantification_error(pearson_divergence, p, eps=eps) == pytest.approx(
            eq18, rel=4 * n * eps)


# --- the maxima against brute force over the simplex ---------------------------------------

def _simplex_grid(n_classes):
    if n_classes == 2:
        t = np.linspace(0, 1, 4001)
        return np.column_stack([t, 1 - t])
    a, b = (v.ravel() for v in np.meshgrid(np.linspace(0, 1, 401), np.linspace(0, 1, 401)))
    keep = a + b <= 1
    return np.column_stack([a[keep], b[keep], np.clip(1 - a[keep] - b[keep], 0, None)])


GRIDS = {n: _simplex_grid(n) for n in (2, 3)}


@settings(max_examples=40, deadline=None)
@given(n_classes=st.sampled_from([2, 3]), seed=st.integers(0, 2**32 - 1),
       concentration=st.sampled_from([0.2, 1.0, 5.0]), zero=st.booleans(),
       eps=st.sampled_from([1e-4, 1e-3, 1e-2, 0.2, 3.0]))
def test_maxima_against_brute_force_over_the_simplex(n_classes, seed, concentration, zero, eps):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(n_classes, concentration))
    if zero:  # a class absent from the sample: the smoothing keeps everything finite
        p[rng.integers(n_classes)] = 0
        p /= p.sum()
    grid = GRIDS[n_classes]
    for measure in MEASURES:
        z = max_quantification_error(measure, p, eps=eps)
        values = measure(np.tile(p, (len(grid), 1)), grid, eps=eps, aggregate=None)
        assert values.max() <= z * (1 + 1e-9) + 1e-15, measure.__name__
        assert values.max() >= z * (1 - 1e-4), measure.__name__


def test_smoothed_discordance_ratio_peaks_off_the_vertices():
    # With smoothing, the largest DR splits the mass over the two rarest classes (in
    # proportion to the square roots of their smoothed prevalences), beyond every vertex.
    p, eps = np.array([0.86, 0.0424, 0.0976]), 0.2
    vertices = max(discordance_ratio(p, q, eps=eps) for q in np.eye(3))
    z = max_quantification_error(discordance_ratio, p, eps=eps)
    ps = _smooth(p, eps)
    low = eps / (1 + 3 * eps)
    mass = 1 - low
    split = mass * np.sqrt(ps[1:]) / np.sqrt(ps[1:]).sum()
    best = np.array([low, *split])  # a smoothed prediction: x >= low, summing to 1
    q = (best * (1 + 3 * eps) - eps)  # the prediction that smooths to it
    assert q.min() >= -1e-12 and q.sum() == pytest.approx(1)
    assert z == pytest.approx(discordance_ratio(p, np.clip(q, 0, None), eps=eps), rel=1e-9)
    assert z > vertices + 0.03


def test_maxima_of_many_samples_and_checks():
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    z = max_quantification_error(absolute_error, p)
    np.testing.assert_allclose(z, [2 * 0.8 / 3, 2 * 0.9 / 3])
    assert max_quantification_error(normalized_kl_divergence, [0.3, 0.7]) == 1.0  # supremum
    with pytest.raises(ValueError, match="largest kl_divergence is infinite.*pass eps="):
        max_quantification_error(kl_divergence, [0.3, 0.7])
    with pytest.raises(ValueError, match="largest pearson_divergence is infinite"):
        max_quantification_error(pearson_divergence, [0.3, 0.7])
    with pytest.raises(ValueError, match="error must be one of the measures of this module"):
        max_quantification_error(np.mean, [0.3, 0.7])
    with pytest.raises(ValueError, match="p_true must sum to 1"):
        max_quantification_error(absolute_error, [0.3, 0.6])


# --- the measures normalized by their maxima -----------------------------------------------

@pytest.mark.parametrize("normalized, measure", [
    (max_normalized_kl_divergence, kl_divergence),
    (normalized_pearson_divergence, pearson_divergence)])
def test_normalized_by_the_maximum(normalized, measure, rng):
    p, q = rng.dirichlet(np.ones(4), size=30), rng.dirichlet(np.ones(4), size=30)
    eps = 1e-3
    values = normalized(p, q, eps=eps, aggregate=None)
    np.testing.assert_allclose(
        values, measure(p, q, eps=eps, aggregate=None)
        / max_quantification_error(measure, p, eps=eps), rtol=1e-12)
    assert ((values >= 0) & (values <= 1)).all()
    perverse = np.eye(4)[np.argmin(p, axis=1)]
    np.testing.assert_allclose(normalized(p, perverse, eps=eps, aggregate=None), 1.0)
    assert normalized(p[0], p[0], eps=eps) == 0.0
    with pytest.raises(ValueError, match="infinite without smoothing.*pass eps="):
        normalized(p, q)


def test_normalized_maximum_under_huge_smoothing_is_zero_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="largest error is 0"):
        assert normalized_pearson_divergence([0.2, 0.8], [0.9, 0.1], eps=1e300) == 0.0


# --- weighted averaging across samples (Section 5.3) ---------------------------------------

@pytest.mark.parametrize("measure, eps", [
    (absolute_error, None), (relative_absolute_error, 1e-3), (squared_error, None),
    (discordance_ratio, 1e-3), (kl_divergence, 1e-3), (normalized_kl_divergence, 1e-3),
    (pearson_divergence, 1e-3)])
def test_weighted_average_weighs_samples_by_the_inverse_maximum(measure, eps, rng):
    p, q = rng.dirichlet(np.ones(3), size=40), rng.dirichlet(np.ones(3), size=40)
    each = measure(p, q, eps=eps, aggregate=None)
    z = max_quantification_error(measure, p, eps=eps)
    expected = (each / z).sum() / (1 / z).sum()
    assert measure(p, q, eps=eps, aggregate="weighted") == pytest.approx(expected, rel=1e-12)
    # unlike the mean: a sample with a small range weighs more
    assert measure(p, q, eps=eps, aggregate="weighted") != pytest.approx(
        measure(p, q, eps=eps), rel=1e-6)


def test_weighted_average_of_measures_with_max_is_the_mean(rng):
    p, q = rng.dirichlet(np.ones(3), size=20), rng.dirichlet(np.ones(3), size=20)
    for measure in (normalized_absolute_error, normalized_squared_error):
        assert measure(p, q, aggregate="weighted") == pytest.approx(measure(p, q), rel=1e-12)
    for measure in (max_normalized_kl_divergence, normalized_pearson_divergence):
        assert measure(p, q, eps=1e-3, aggregate="weighted") == pytest.approx(
            measure(p, q, eps=1e-3), rel=1e-12)
    # unsmoothed NKLD: its supremum is 1 for every p
    assert normalized_kl_divergence(p, q, aggregate="weighted") == pytest.approx(
        normalized_kl_divergence(p, q), rel=1e-12)


def test_weighted_average_of_two_samples_by_hand():
    # AE's maxima: 2 (1 - 0.1) / 2 = 0.9 and 2 (1 - 0.5) / 2 = 0.5; errors 0.1 and 0.2.
    p = [[0.1, 0.9], [0.5, 0.5]]
    q = [[0.2, 0.8], [0.7, 0.3]]
    assert absolute_error(p, q, aggregate="weighted") == pytest.approx(
        (0.1 / 0.9 + 0.2 / 0.5) / (1 / 0.9 + 1 / 0.5))
    assert absolute_error(p[0], q[0], aggregate="weighted") == pytest.approx(0.1)


def test_weighted_average_needs_finite_maxima():
    p = [[0.1, 0.9], [0.5, 0.5]]
    with pytest.raises(ValueError, match="aggregate='weighted'.*largest KLD is infinite"):
        kl_divergence(p, p, aggregate="weighted")
    with pytest.raises(ValueError, match="largest PD is infinite"):
        pearson_divergence(p, [[0.2, 0.8], [0.4, 0.6]], aggregate="weighted")
    with pytest.warns(UndefinedMetricWarning, match="weight 0"):
        assert kl_divergence(p, [[0.2, 0.8], [0.4, 0.6]], eps=1e300,
                             aggregate="weighted") == 0.0


# --- the natural protocol: prevalences vary as under sampling ------------------------------

def _shares(y, samples):
    return np.array([np.mean(y[s] == 1) for s in samples])


def test_natural_protocol_default_spread_is_binomial():
    # The case reported: five samples of a 70/30 pool all came out 0.7/0.3.
    y = np.array([0] * 70 + [1] * 30)
    five = _shares(y, prevalence_protocol_samples(y, n_samples=5, random_state=0))
    assert len(set(five.tolist())) > 1
    shares = _shares(y, prevalence_protocol_samples(y, n_samples=4000, random_state=1))
    binomial = 0.3 * 0.7 / 100
    assert shares.mean() == pytest.approx(0.3, abs=4 * np.sqrt(binomial / 4000))
    # the sample variance of 4000 shares is within 15 % of binomial's (about 6 sd)
    assert shares.var(ddof=1) == pytest.approx(binomial, rel=0.15)


def test_natural_protocol_smaller_samples_spread_is_hypergeometric():
    y = np.array([0] * 70 + [1] * 30)
    samples = list(prevalence_protocol_samples(y, n_samples=4000, sample_size=50,
                                               random_state=2))
    assert all(len(np.unique(s)) == 50 for s in samples)  # without replacement
    shares = _shares(y, samples)
    hypergeometric = 0.3 * 0.7 / 50 * (100 - 50) / (100 - 1)
    assert shares.var(ddof=1) == pytest.approx(hypergeometric, rel=0.15)
    assert shares.var(ddof=1) < 0.7 * 0.3 * 0.7 / 50  # not the binomial spread


def test_natural_protocol_larger_samples_are_drawn_with_replacement():
    y = np.array([0] * 7 + [1] * 3)
    samples = list(prevalence_protocol_samples(y, n_samples=2000, sample_size=40,
                                               random_state=3))
    shares = _shares(y, samples)
    assert shares.var(ddof=1) == pytest.approx(0.3 * 0.7 / 40, rel=0.15)


# --- the paper's examples read literally ---------------------------------------------------

def test_example_1_breaks_relativity_for_rae_read_literally():
    # Example 1 (Section 3.1): REL asks D(p', p_hat') > D(p'', p_hat''); with c3 and c4
    # mispredicted too, RAE gives 0.4137 < 0.4167. Hence the audit's binary reading.
    first = relative_absolute_error([0.15, 0.35, 0.40, 0.10], [0.10, 0.55, 0.30, 0.05])
    second = relative_absolute_error([0.20, 0.30, 0.40, 0.10], [0.15, 0.50, 0.30, 0.05])
    assert round(first, 4) == 0.4137 and round(second, 4) == 0.4167
    assert first < second
    # In the binary form (the other classes exact) RAE does enjoy it:
    assert relative_absolute_error([0.15, 0.35, 0.40, 0.10], [0.10, 0.40, 0.40, 0.10]) > \
        relative_absolute_error([0.20, 0.30, 0.40, 0.10], [0.15, 0.35, 0.40, 0.10])


def test_independence_read_literally_fails_for_absolute_error():
    # Property 8 lets both predictions miss the classes outside C1 = {c1, c2} alike: AE ties
    # on the whole codeframe but not on the projections, so "<= iff <=" fails.
    p = np.array([0.25, 0.25, 0.5])
    first, second = np.array([0.4, 0.4, 0.2]), np.array([0.25, 0.55, 0.2])
    assert absolute_error(p, first) == pytest.approx(absolute_error(p, second))
    project = slice(0, 2)
    on_c1 = [absolute_error(p[project] / 0.5, q[project] / 0.8) for q in (first, second)]
    assert on_c1[0] == pytest.approx(0.0) and on_c1[1] == pytest.approx(0.1875)


def test_nas_and_nss_coincide_with_nae_and_nse_in_the_binary_case(rng):
    # Eq. (4) and (12): "it is easy to show that in this case it coincides with NAE / NSE".
    for _ in range(30):
        p, q = rng.dirichlet(np.ones(2)), rng.dirichlet(np.ones(2))
        c = int(rng.integers(2))
        nas = abs(p[c] - q[c]) / max(p[c], 1 - p[c])
        assert normalized_absolute_error(p, q) == pytest.approx(nas, rel=1e-12)
        assert normalized_squared_error(p, q) == pytest.approx(nas ** 2, rel=1e-12)


def test_no_warning_in_ordinary_use(rng):
    p, q = rng.dirichlet(np.ones(3), size=10), rng.dirichlet(np.ones(3), size=10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for measure in MEASURES:
            measure(p, q, eps=1e-3, aggregate="weighted")


@pytest.mark.parametrize("measure", [normalized_squared_error, max_normalized_kl_divergence,
                                     normalized_pearson_divergence])
def test_audit_of_the_measures_beyond_table_1(measure):
    # The user guide's rows for NSE (the paper: "the same properties that NAE enjoys") and
    # for KLD and PD over their maxima: MAX gained, IMP still lost.
    from sklearn_confusion_ext import audit_quantification_measure

    result = audit_quantification_measure(lambda p, q: measure(p, q, eps=1e-12),
                                          n_trials=300, random_state=0)
    expected = "YYYYYNNY" if measure is normalized_squared_error else "YYYYNNNY"
    assert [result[name] for name in result] == [mark == "Y" for mark in expected]
