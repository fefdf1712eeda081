"""Dirichlet posteriors of confusion rows (Barranco-Chamorro and Carrillo-Garcia 2021)."""

import warnings

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import ConfusionPosterior, dirichlet_posterior

LAND_USE = np.array([[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]])
IBD = np.array([[37, 1, 15], [6, 19, 26], [15, 3, 77]])
IBD_STEP_2 = np.array([[42, 1, 10], [22, 22, 7], [34, 10, 51]])  # Table 30

# Tables 10-13: mean, variance, sd of each row of the Land use posterior.
LAND_USE_SUMMARIES = [
    [[0.8354430, 0.0017185, 0.0414545], [0.0886076, 0.0010095, 0.0317719],
     [0.0126582, 0.0001562, 0.0124990], [0.0632911, 0.0007411, 0.0272225]],
    [[0.0467290, 0.0004125, 0.0203090], [0.7663551, 0.0016579, 0.0407175],
     [0.1121495, 0.0009220, 0.0303638], [0.0747664, 0.0006405, 0.0253085]],
    [[0.1932773, 0.0012993, 0.0360464], [0.0504202, 0.0003990, 0.0199746],
     [0.7226891, 0.0016701, 0.0408666], [0.0336134, 0.0002707, 0.0164529]],
    [[0.1724138, 0.0009773, 0.0312620], [0.0620690, 0.0003987, 0.0199685],
     [0.1379310, 0.0008144, 0.0285381], [0.6275862, 0.0016008, 0.0400104]],
]
# Tables 15-18: equal-tailed 2.5 % and 97.5 % quantiles, then HPD bounds.
LAND_USE_INTERVALS = [
    [[0.7466787, 0.9081616, 0.7530619, 0.9129924], [0.0368469, 0.1599464, 0.0316868, 0.1517275],
     [0.0003245, 0.0461924, 0.0000000, 0.0376786], [0.0211397, 0.1261276, 0.0162449, 0.1172020]],
    [[0.0154910, 0.0938056, 0.0118001, 0.0869559], [0.6820994, 0.8411858, 0.6856855, 0.8442327],
     [0.0598832, 0.1780965, 0.0559003, 0.1725756], [0.0331458, 0.1313375, 0.0291373, 0.1251047]],
    [[0.1277553, 0.2685539, 0.1246560, 0.2648023], [0.0188861, 0.0961158, 0.0153899, 0.0900707],
     [0.6392494, 0.7990403, 0.6418989, 0.8013868], [0.0093120, 0.0725024, 0.0062365, 0.0660927]],
    [[0.1156159, 0.2377609, 0.1129042, 0.2344728], [0.0289745, 0.1065309, 0.0258846, 0.1018195],
     [0.0869472, 0.1983572, 0.0840294, 0.1946674], [0.5476286, 0.7042094, 0.5488392, 0.7053518]],
]
# Tables 27-29 and 31-33 (after Table 30): mean, variance, sd per row.
IBD_SUMMARIES = [
    [[0.6785714, 0.0038265, 0.0618590], [0.0357143, 0.0006042, 0.0245803],
     [0.2857143, 0.0035804, 0.0598363]],
    [[0.1296296, 0.0020514, 0.0452921], [0.3703704, 0.0042399, 0.0651147],
     [0.5000000, 0.0045455, 0.0674200]],
    [[0.1632653, 0.0013799, 0.0371470], [0.0408163, 0.0003955, 0.0198861],
     [0.7959184, 0.0016407, 0.0405059]],
]
IBD_STEP_2_SUMMARIES = [
    [[0.7339450, 0.0017752, 0.0421329], [0.0275229, 0.0002433, 0.0155988],
     [0.2385321, 0.0016512, 0.0406352]],
    [[0.2761905, 0.0018859, 0.0434274], [0.4000000, 0.0022642, 0.0475831],
     [0.3238095, 0.0020656, 0.0454492]],
    [[0.2590674, 0.0009894, 0.0314554], [0.0725389, 0.0003468, 0.0186223],
     [0.6683938, 0.0011425, 0.0338008]],
]
# Tables A1-A3.
IBD_INTERVALS = [
    [[0.5518703, 0.7931919, 0.5564379, 0.7971693], [0.0044345, 0.0971910, 0.0008478, 0.0837975],
     [0.1762997, 0.4096195, 0.1716235, 0.4040643]],
    [[0.0547901, 0.2302899, 0.0477798, 0.2195273], [0.2478722, 0.5019668, 0.2448073, 0.4985839],
     [0.3683954, 0.6316046, 0.3683954, 0.6316046]],
    [[0.0973247, 0.2421973, 0.0933429, 0.2370862], [0.0113483, 0.0877318, 0.0076403, 0.0800716],
     [0.7111385, 0.8692713, 0.7155517, 0.8728854]],
]


def _summaries(posterior):
    return np.stack([posterior.mean(), posterior.var(), posterior.std()], axis=-1)


def _intervals(posterior):
    return np.stack([*posterior.credible_interval(0.95),
                     *posterior.credible_interval(0.95, method="hpd")], axis=-1)


def test_land_use_tables_10_to_18():
    posterior = dirichlet_posterior(LAND_USE, prior=1.0)  # the paper's prior
    np.testing.assert_allclose(posterior.alpha, LAND_USE + 1)
    np.testing.assert_allclose(_summaries(posterior), LAND_USE_SUMMARIES, atol=5.1e-8)
    np.testing.assert_allclose(_intervals(posterior), LAND_USE_INTERVALS, atol=5.1e-8)
    # Table 14 prints the means transposed (columns are the actual classes).
    table_14 = [[0.835, 0.047, 0.193, 0.172], [0.089, 0.766, 0.05, 0.062],
                [0.013, 0.112, 0.723, 0.138], [0.063, 0.075, 0.034, 0.628]]
    np.testing.assert_allclose(posterior.mean().T, table_14, atol=5.1e-4)
    # Remark 4: the mode of the FallenLeaf row.
    np.testing.assert_allclose(posterior.mode()[0], [0.867, 0.080, 0.000, 0.053], atol=5.1e-4)


def test_ibd_tables_27_to_33_and_a1_to_a4():
    posterior = dirichlet_posterior(IBD, prior="uniform", display_labels=["nonIBD", "UC", "CD"])
    np.testing.assert_allclose(_summaries(posterior), IBD_SUMMARIES, atol=5.1e-8)
    np.testing.assert_allclose(_intervals(posterior), IBD_INTERVALS, atol=5.1e-8)
    # Modes quoted in Section 5.3.2 (the CD row is printed as 0.1579, 0.0316, 0.8106,
    # summing to 1.0001: its 76/94 = 0.81053 is off by one in the last digit).
    np.testing.assert_allclose(posterior.mode(), [[0.6981, 0.0189, 0.2830],
                                                  [0.1176, 0.3725, 0.5098],
                                                  [0.1579, 0.0316, 0.8106]], atol=1e-4)
    step_2 = posterior.update(IBD_STEP_2)
    np.testing.assert_allclose(step_2.alpha, IBD + 1 + IBD_STEP_2)
    np.testing.assert_allclose(_summaries(step_2), IBD_STEP_2_SUMMARIES, atol=5.1e-8)
    assert (step_2.std() < posterior.std()).all()
    assert step_2.display_labels == ["nonIBD", "UC", "CD"]
    # Table A4: Perks prior, means printed transposed.
    perks = dirichlet_posterior(IBD, prior="perks")
    np.testing.assert_allclose(perks.alpha, IBD + 1 / 3)
    table_a4 = [[0.691, 0.122, 0.16], [0.025, 0.372, 0.035], [0.284, 0.506, 0.806]]
    np.testing.assert_allclose(perks.mean().T, table_a4, atol=5.1e-4)


def test_hpd_is_the_shortest_interval_with_the_mass(rng):
    from scipy import stats

    posterior = ConfusionPosterior(rng.uniform(0.5, 30, size=(3, 3)))
    lower, upper = posterior.credible_interval(0.9, method="hpd")
    a = posterior.alpha
    b = a.sum(axis=1, keepdims=True) - a
    mass = stats.beta.cdf(upper, a, b) - stats.beta.cdf(lower, a, b)
    np.testing.assert_allclose(mass, 0.9, atol=1e-9)
    equal_lower, equal_upper = posterior.credible_interval(0.9)
    assert (upper - lower <= equal_upper - equal_lower + 1e-12).all()
    # Boundary: a decreasing density starts at exactly 0.
    edge_lower, _ = ConfusionPosterior([[1, 40], [3, 3]]).credible_interval(method="hpd")
    assert edge_lower[0, 0] == 0.0


def test_samples_converge_to_the_mean():
    posterior = dirichlet_posterior(IBD)
    samples = posterior.rvs(size=20000, random_state=0)
    assert samples.shape == (20000, 3, 3)
    np.testing.assert_allclose(samples.sum(axis=2), 1.0)
    np.testing.assert_allclose(samples.mean(axis=0), posterior.mean(), atol=4 * posterior.std()
                               .max() / np.sqrt(20000))
    np.testing.assert_allclose(samples.var(axis=0), posterior.var(), rtol=0.1)
    np.testing.assert_array_equal(posterior.rvs(3, random_state=1), posterior.rvs(3, 1))


def test_prob_confusion_exceeds_against_monte_carlo():
    posterior = dirichlet_posterior(IBD)
    samples = posterior.rvs(size=200000, random_state=2)
    for i, j in [(1, 2), (2, 1), (0, 2), (0, 1)]:
        exact = posterior.prob_confusion_exceeds(i, j)
        monte_carlo = np.mean(samples[:, i, j] > samples[:, j, i])
        assert exact == pytest.approx(monte_carlo, abs=0.005)
        assert exact + posterior.prob_confusion_exceeds(j, i) == pytest.approx(1.0, abs=1e-9)
    # UC is mistaken for CD far more often than the reverse (Table 24: 26 against 3 of 95).
    assert posterior.prob_confusion_exceeds(1, 2) > 0.99


def test_mode_at_the_boundary_and_fractional_pseudo_counts():
    posterior = ConfusionPosterior([[0.5, 0.5], [0.3, 0.9]])
    np.testing.assert_array_equal(posterior.mode(), [[1.0, 0.0], [0.0, 1.0]])
    fractional = dirichlet_posterior([[2.5, 0.25], [1.75, 3.0]], prior=0.5,
                                     allow_fractional=True)
    np.testing.assert_allclose(fractional.alpha, [[3.0, 0.75], [2.25, 3.5]])
    with pytest.warns(UserWarning, match="3 of its 4 non-zero cells are not whole numbers"):
        dirichlet_posterior([[2.5, 0.25], [1.75, 3.0]], prior=0.5)


@pytest.mark.parametrize("call, match", [
    (lambda: dirichlet_posterior([[1, 2, 3]]), "square"),
    (lambda: dirichlet_posterior([[1, -2], [3, 4]]), "non-negative"),
    (lambda: dirichlet_posterior([[1, np.inf], [3, 4]]), "finite"),
    (lambda: dirichlet_posterior(IBD, prior=np.ones((2, 2))), "shape"),
    (lambda: dirichlet_posterior(IBD, prior=[[1, 1, 1], [1, 0, 1], [1, 1, 1]]),
     "finite positive"),
    (lambda: dirichlet_posterior(IBD).update(np.ones((2, 2))), "shape"),
    (lambda: dirichlet_posterior(IBD).prob_confusion_exceeds(1, 1), "different"),
    (lambda: dirichlet_posterior(IBD).prob_confusion_exceeds(0, 3),
     r"j must be a class position in \[0, 3\); got 3"),
    (lambda: dirichlet_posterior(IBD, display_labels=["a"]),
     "display_labels has 1 names for 3 classes"),
    (lambda: ConfusionPosterior(np.ones((2, 2)), ["a", "b", "c"]),
     "display_labels has 3 names for 2 classes"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, error, match", [
    (lambda: dirichlet_posterior(IBD, prior=0), ValueError,
     r"'prior' parameter of dirichlet_posterior must be a finite real number > 0, one of "
     r"\{'uniform', 'perks'\} or an array-like.*; got 0"),
    (lambda: dirichlet_posterior(IBD, prior=-1.0), ValueError, r"'prior' parameter"),
    (lambda: dirichlet_posterior(IBD, prior="jeffreys"), ValueError,
     r"'prior' parameter of dirichlet_posterior .* got 'jeffreys'"),
    (lambda: dirichlet_posterior(IBD).credible_interval(1.5), ValueError,
     r"'level' parameter of ConfusionPosterior.credible_interval must be a finite real number "
     r"in \(0, 1\); got 1.5"),
    (lambda: dirichlet_posterior(IBD).credible_interval(0.0), ValueError, r"'level' parameter"),
    (lambda: dirichlet_posterior(IBD).credible_interval(method="central"), ValueError,
     r"'method' parameter of ConfusionPosterior.credible_interval"),
    (lambda: dirichlet_posterior(IBD).rvs(size=0), ValueError,
     r"'size' parameter of ConfusionPosterior.rvs must be an integer >= 1; got 0"),
    (lambda: dirichlet_posterior(IBD).rvs(size=2.0), TypeError, r"'size' parameter"),
    (lambda: dirichlet_posterior(IBD).rvs(random_state=-1), ValueError,
     r"'random_state' parameter of ConfusionPosterior.rvs"),
    (lambda: dirichlet_posterior(IBD).prob_confusion_exceeds(-1, 2), ValueError,
     r"'i' parameter of ConfusionPosterior.prob_confusion_exceeds must be an integer >= 0"),
    (lambda: dirichlet_posterior(IBD).prob_confusion_exceeds(0, True), TypeError,
     r"'j' parameter of ConfusionPosterior.prob_confusion_exceeds"),
    (lambda: ConfusionPosterior(IBD, display_labels="abc"), TypeError,
     r"'display_labels' parameter of ConfusionPosterior must be None or an array-like"),
])
def test_invalid_parameters_name_the_callable_and_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_numpy_scalars_are_accepted():
    posterior = dirichlet_posterior(IBD)
    level = np.float32(0.9)
    for method in ("equal-tailed", "hpd"):
        expected = posterior.credible_interval(float(level), method=method)
        np.testing.assert_array_equal(posterior.credible_interval(level, method=method),
                                      expected)
        np.testing.assert_allclose(expected, posterior.credible_interval(0.9, method=method),
                                   atol=1e-6)
    samples = posterior.rvs(size=np.int64(3), random_state=np.int64(5))
    assert samples.shape == (3, 3, 3)
    np.testing.assert_array_equal(samples, posterior.rvs(size=3, random_state=5))
    assert posterior.prob_confusion_exceeds(np.int64(1), np.int32(2)) == \
        posterior.prob_confusion_exceeds(1, 2)
    np.testing.assert_array_equal(dirichlet_posterior(IBD, prior=np.float32(0.5)).alpha,
                                  IBD + 0.5)


def test_display_labels_and_the_deprecated_labels():
    names = ["nonIBD", "UC", "CD"]
    posterior = dirichlet_posterior(IBD, display_labels=names)
    assert posterior.display_labels == names and "nonIBD" in repr(posterior)
    assert ConfusionPosterior(IBD + 1, names).display_labels == names  # positional, as before
    with pytest.warns(FutureWarning, match="labels was renamed display_labels in 0.1 and will "
                      "be removed in 0.2"):
        old = dirichlet_posterior(IBD, labels=names)
    assert old.display_labels == names
    np.testing.assert_array_equal(old.alpha, posterior.alpha)
    with pytest.warns(FutureWarning, match="renamed display_labels"):
        assert ConfusionPosterior(IBD + 1, labels=names).display_labels == names
    with pytest.warns(FutureWarning, match="renamed display_labels"):
        assert posterior.labels == names  # the attribute too, read-only
    with pytest.raises(AttributeError):
        posterior.labels = ["a", "b", "c"]
    for call in (lambda: dirichlet_posterior(IBD, display_labels=names, labels=names),
                 lambda: ConfusionPosterior(IBD + 1, names, labels=names)):
        with pytest.raises(ValueError, match="Pass display_labels only"):
            call()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # display_labels does not warn, nor does update
        assert posterior.update(IBD).display_labels == names


def test_deprecation_warnings_point_at_the_callers_line():
    with pytest.warns(FutureWarning, match="renamed display_labels") as record:
        posterior = dirichlet_posterior(IBD, labels=["a", "b", "c"])
    with pytest.warns(FutureWarning, match="renamed display_labels") as attribute:
        assert posterior.labels == ["a", "b", "c"]
    assert [w.filename for w in (*record, *attribute)] == [__file__] * 2


@pytest.mark.parametrize("confusion", [
    [[90000, 1000], [1200, 80000]],
    [[9_000_000, 10_000_000], [9_990_000, 1]],
    [[1, 1], [3, 2]],
    [[10_000_000, 12], [13, 10_000_000]],
    [[0, 40], [7, 9_000_000]],
])
def test_prob_confusion_exceeds_with_large_counts(confusion):
    posterior = dirichlet_posterior(confusion, prior=1.0)
    samples = posterior.rvs(size=200000, random_state=3)
    exact = posterior.prob_confusion_exceeds(1, 0)
    monte_carlo = np.mean(samples[:, 1, 0] > samples[:, 0, 1])
    error = np.sqrt(max(exact * (1 - exact), 1e-12) / 200000)
    assert exact == pytest.approx(monte_carlo, abs=4 * error + 1e-9)
    assert exact + posterior.prob_confusion_exceeds(0, 1) == pytest.approx(1.0, abs=1e-9)
    if confusion[0][0] == 90000:
        assert exact > 1 - 1e-9  # was 4e-50 with quad over [0, 1]


def test_tiny_priors_and_huge_counts_stay_finite():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tiny = dirichlet_posterior([[5, 0], [0, 3]], prior=1e-300)
        huge = dirichlet_posterior([[1e154, 1e154], [3, 1e154]])
        for posterior in (tiny, huge):
            for method in ("equal-tailed", "hpd"):
                lower, upper = posterior.credible_interval(method=method)
                assert np.isfinite(lower).all() and np.isfinite(upper).all()
                assert (lower <= upper).all()
            for value in (posterior.mean(), posterior.var(), posterior.mode(),
                          posterior.rvs(5, random_state=0)):
                assert np.isfinite(value).all()
    # The mass of Beta(1e-300, 5) sits at 0, that of Beta(5, 1e-300) at 1.
    lower, upper = tiny.credible_interval()
    np.testing.assert_allclose(lower, [[1, 0], [0, 1]], atol=1e-300)
    np.testing.assert_allclose(upper, [[1, 0], [0, 1]], atol=1e-300)
    np.testing.assert_allclose(huge.var()[0], 1 / (4 * (2e154 + 1)), rtol=1e-12)
    # Beta(1e154, 3) sits at 1, Beta(3, 1e154) near 3 / 1e154.
    lower, upper = huge.credible_interval()
    assert lower[1, 1] == upper[1, 1] == 1.0
    assert 1e-155 < lower[1, 0] < 3e-154 < upper[1, 0] < 1e-153
    np.testing.assert_array_equal(tiny.rvs(4, random_state=1)[:, 0], [[1, 0]] * 4)


def _logit_beta_draws(rng, a, b, size):
    """Logits of Beta(a, b) draws computed from log-gammas: exact for tiny parameters,
    where the draws themselves round to 0 or 1 and tie."""
    log_a = np.log(rng.gamma(a + 1, size=size)) + np.log(rng.random(size)) / a
    log_b = np.log(rng.gamma(b + 1, size=size)) + np.log(rng.random(size)) / b
    return log_a - log_b


@pytest.mark.parametrize("prior", [0.1, 0.01, 1e-3, 1e-5])
@pytest.mark.parametrize("confusion", [[[0, 5], [0, 0]], [[3, 0], [0, 2]],
                                       [[0.025, 0.019], [0.015, 0.008]], [[1, 2], [0, 7]]])
def test_prob_confusion_exceeds_with_tiny_parameters_against_log_space_monte_carlo(
        confusion, prior):
    # Parameters below 1 put the mass within 1e-300 of 0 and 1: quadrature on the density
    # gave NaN, and on rounded quantiles the two directions summed to 0.5-0.9.
    posterior = dirichlet_posterior(confusion, prior=prior, allow_fractional=True)
    forward = posterior.prob_confusion_exceeds(0, 1)
    assert forward + posterior.prob_confusion_exceeds(1, 0) == pytest.approx(1, abs=1e-6)
    alpha, rng = posterior.alpha, np.random.default_rng(0)
    x = _logit_beta_draws(rng, alpha[0, 1], alpha[0].sum() - alpha[0, 1], 200_000)
    y = _logit_beta_draws(rng, alpha[1, 0], alpha[1].sum() - alpha[1, 0], 200_000)
    assert forward == pytest.approx(np.mean(x > y), abs=0.006)


def test_default_prior_covers_a_perfect_class_at_forty_classes():
    # 10 of 10 right at 40 classes: prior 1 per cell adds 39 pseudo-errors (mean 0.2, an
    # interval far below 1); the default, Perks' 1/C, reaches the bound with a width.
    perfect = np.diag([10] * 40)
    posterior = dirichlet_posterior(perfect)
    np.testing.assert_allclose(posterior.alpha, perfect + 1 / 40)
    assert posterior.mean()[0, 0] == pytest.approx(10.025 / 11)
    lower, upper = posterior.credible_interval(0.95)
    assert upper[0, 0] == 1.0 and 0.6 < lower[0, 0] < 0.9
    assert lower[0, 1] == 0.0 and upper[0, 1] > 0.0  # a cell never predicted
    paper_lower, paper_upper = dirichlet_posterior(perfect, prior=1.0).credible_interval(0.95)
    assert paper_upper[0, 0] < 0.5 and paper_lower[0, 1] > 0
    # The highest-density interval of a perfect row reaches 1 as well (four classes: the
    # HPD of every cell of 40 classes takes seconds).
    lower, upper = dirichlet_posterior(np.diag([10] * 4)).credible_interval(method="hpd")
    assert upper[0, 0] == 1.0 and lower[0, 0] < 0.9
    assert lower[0, 1] == 0.0 and upper[0, 1] > 0.0
    # The demo's class 89 of 89 right at ten classes: 0.909 [0.845, 0.957] under prior 1.
    paper = dirichlet_posterior(np.diag([89] * 10), prior=1.0)
    assert paper.credible_interval(0.95)[1][0, 0] == pytest.approx(0.9571416, abs=1e-7)
    lower, upper = dirichlet_posterior(np.diag([89] * 10)).credible_interval(0.95)
    assert (lower[0, 0], upper[0, 0]) == (pytest.approx(0.9617296, abs=1e-7), 1.0)


def test_equal_tailed_interval_reaches_a_bound_where_the_density_is_infinite():
    # Brown, Cai and DasGupta's rule: the end at the bound moves to it, the other end is
    # still the (1 + level) / 2 or (1 - level) / 2 quantile.
    from scipy import stats

    posterior = dirichlet_posterior([[12, 0, 0], [2, 9, 1], [0, 3, 7]], prior=0.25)
    lower, upper = posterior.credible_interval(0.9)
    a = posterior.alpha
    b = a.sum(axis=1, keepdims=True) - a
    plain_lower, plain_upper = stats.beta.ppf(0.05, a, b), stats.beta.ppf(0.95, a, b)
    assert (a < 1).sum() == 3 and (b < 1).sum() == 1  # the empty cells; the perfect row
    np.testing.assert_allclose(lower, np.where(a < 1, 0.0, plain_lower), rtol=1e-12)
    np.testing.assert_allclose(upper, np.where(b < 1, 1.0, plain_upper), rtol=1e-12)
    assert (lower[a < 1] == 0).all() and upper[0, 0] == 1.0
    # A prior of 1 per cell: no parameter below 1, the plain quantiles (the paper's).
    paper = dirichlet_posterior([[12, 0, 0], [2, 9, 1], [0, 3, 7]], prior=1.0)
    a = paper.alpha
    b = a.sum(axis=1, keepdims=True) - a
    np.testing.assert_allclose(paper.credible_interval(0.9),
                               [stats.beta.ppf(0.05, a, b), stats.beta.ppf(0.95, a, b)],
                               rtol=1e-12)


def _exact_coverage(prior, n_classes, n, rate, cell):
    """Coverage of the 95 % equal-tailed interval of cell (0, cell) of a row of n
    instances, rate on the diagonal and the rest spread evenly: the sum over the cell's
    counts of their binomial probabilities where the interval holds the truth."""
    from scipy import stats

    truth = rate if cell == 0 else (1 - rate) / (n_classes - 1)
    covered = 0.0
    for count in range(n + 1):
        matrix = np.eye(n_classes)
        matrix[0] = 0
        matrix[0, cell] = count
        matrix[0, 1 - cell] += n - count
        lower, upper = dirichlet_posterior(matrix, prior=prior).credible_interval(0.95)
        if lower[0, cell] <= truth <= upper[0, cell]:
            covered += stats.binom.pmf(count, n, truth)
    return covered


@pytest.mark.parametrize("rate", [0.97, 0.99, 1.0])
def test_default_prior_covers_rows_near_perfect_and_the_papers_does_not(rate):
    # Exact coverage at 10 classes, rows of 30 (the table in the user guide:
    # benchmarks/coverage_dirichlet_prior.py); prior 1 per cell covered 0 %.
    assert _exact_coverage("perks", 10, 30, rate, cell=0) >= 0.93
    assert _exact_coverage(1.0, 10, 30, rate, cell=0) < 0.01
    assert _exact_coverage("perks", 10, 30, rate, cell=2) >= 0.96


def test_score_distribution_of_the_posterior():
    posterior = sce.dirichlet_posterior([[37, 1, 15], [6, 19, 26], [15, 3, 77]])
    draws = posterior.score_distribution("f1_macro", size=2000, random_state=0)
    matrix = np.array([[37, 1, 15], [6, 19, 26], [15, 3, 77]]) + 1.0
    f1 = np.mean(2 * np.diag(matrix) / (matrix.sum(axis=0) + matrix.sum(axis=1)))
    assert draws.shape == (2000,) and abs(draws.mean() - f1) < 0.01
    by_callable = posterior.score_distribution(sce.symmetric_balanced_accuracy_from_confusion,
                                               size=50, random_state=0)
    named = posterior.score_distribution("symmetric_balanced_accuracy", size=50,
                                         random_state=0)
    np.testing.assert_allclose(by_callable, named)
    with pytest.raises(ValueError, match="scoring must be one of"):
        posterior.score_distribution("f2")


@pytest.mark.parametrize("method", ["equal-tailed", "hpd"])
def test_credible_interval_is_a_named_pair(method):
    interval = dirichlet_posterior(IBD).credible_interval(0.9, method=method)
    low, high = interval
    assert interval._fields == ("low", "high")
    assert interval.low is low and interval.high is high and low.shape == high.shape == (3, 3)
    assert np.all(low <= high)
