"""The Bayesian hierarchical test of two models over several data sets (Corani, Benavoli,
Demsar, Mangili and Zaffalon, Machine Learning 2017): the sampler's parts against their
closed forms, the whole posterior against the authors' Stan model (baycomp's, where pystan
runs), and the test's properties (orientation, invariances, clear cases, reproducibility,
errors)."""

import warnings

import numpy as np
import pytest
from scipy import integrate, stats

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._statistics import across_datasets as hierarchical


def _folds(n_datasets=8, n_folds=10, shift=0.02, spread=0.01, noise=0.01, seed=0):
    """Two models' fold scores on several data sets: b's level per data set, a = b plus a
    per-data-set difference (mean ``shift``, spread ``spread``) plus fold noise."""
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.6, 0.9, (n_datasets, 1)) + rng.normal(0, 0.02, (n_datasets, n_folds))
    a = (b + rng.normal(shift, spread, (n_datasets, 1))
         + rng.normal(0, noise, (n_datasets, n_folds)))
    return a, b


def _test(a, b, **kwargs):
    kwargs = {"n_train": 9, "n_test": 1, "random_state": 0, **kwargs}
    return sce.bayesian_hierarchical_test(a, b, **kwargs)


# --- The sampler's parts -------------------------------------------------------------------


@pytest.mark.parametrize("t", [1e-3, 0.5, 3.0, 20.0, 100.0, 1000.0])
def test_prior_of_the_degrees_of_freedom_integrates_alpha_and_beta_out(t):
    # nu - 1 ~ Gamma(alpha, rate beta), alpha ~ U(1, 2), beta ~ U(0.01, 0.1)
    (a0, a1), (b0, b1) = hierarchical.HIERARCHICAL_ALPHA, hierarchical.HIERARCHICAL_BETA
    density = integrate.dblquad(lambda beta, alpha: stats.gamma.pdf(t, alpha, scale=1 / beta),
                                a0, a1, b0, b1, epsabs=0, epsrel=1e-11)[0] / (
        (a1 - a0) * (b1 - b0))
    assert hierarchical._log_prior_df(np.array([t]))[0] == pytest.approx(np.log(density),
                                                                        abs=1e-9)
    # the tabulated form the sampler reads (log scale, Jacobian included)
    u = np.log(t)
    assert hierarchical._log_prior_log_df(np.array([u]))[0] == pytest.approx(
        np.log(density) + u, abs=1e-4)


@pytest.mark.parametrize("shape, rate, low, high", [
    (4.5, 2.0, 0.0, np.inf),       # untruncated
    (4.5, 2.0, 0.5, 1.5),          # around the mode
    (0.5, 1.0, 1e-6, 1e-3),        # far in the lower tail (a constant data set's floor)
    (1.0, 1.0, 20.0, np.inf),      # far in the upper tail
    (4.5, 0.01, 0.0, 3.0)])        # the lower tail of a wide gamma
def test_truncated_gamma_draws_follow_the_truncated_distribution(shape, rate, low, high):
    rng = np.random.default_rng(0)
    n = 4000
    draws = hierarchical._truncated_gamma(np.full(n, shape), np.full(n, rate), low, high, rng)
    assert ((draws >= low) & (draws <= high)).all()
    distribution = stats.gamma(shape, scale=1 / rate)
    lo, hi = distribution.cdf(low), distribution.cdf(high)
    lo_s, hi_s = distribution.sf(low), distribution.sf(high)

    def cdf(x):  # on whichever tail is accurate
        if lo_s < 0.5:
            return (lo_s - distribution.sf(x)) / (lo_s - hi_s)
        return (distribution.cdf(x) - lo) / (hi - lo)

    assert stats.kstest(draws, cdf).pvalue > 0.01


@pytest.mark.parametrize("mean, sd, low, high", [
    (0.0, 1.0, -1.0, 2.0), (5.0, 1.0, -1.0, 1.0), (-5.0, 0.5, -1.0, 1.0), (0.3, 0.01, -1, 1)])
def test_truncated_normal_draws_follow_the_truncated_distribution(mean, sd, low, high):
    rng = np.random.default_rng(1)
    n = 4000
    draws = hierarchical._truncated_normal(np.full(n, mean), np.full(n, sd), low, high, rng)
    assert ((draws >= low) & (draws <= high)).all()
    reference = stats.truncnorm((low - mean) / sd, (high - mean) / sd, loc=mean, scale=sd)
    assert stats.kstest(draws, reference.cdf).pvalue > 0.01


@pytest.mark.parametrize("width", [0.2, 1.0, 30.0])
def test_slice_sampler_leaves_its_target_invariant(width):
    # 10,000 independent chains started at the target's draws stay distributed as the
    # target after 5 slice updates, whatever the width (stepping out and shrinkage), on a
    # bounded support (log density -inf outside)
    rng = np.random.default_rng(2)
    target = stats.truncnorm(-np.inf, (1.5 - 1.0) / 0.7, loc=1.0, scale=0.7)

    def log_density(x):
        return np.where(x <= 1.5, target.logpdf(np.minimum(x, 1.5)), -np.inf)

    x = target.rvs(10000, random_state=rng)
    for _ in range(5):
        x = hierarchical._slice(log_density, x, rng, width)
    assert stats.kstest(x, target.cdf).pvalue > 0.001
    # and from a bad start it reaches the target
    x = np.full(2000, -3.0)
    for _ in range(30):
        x = hierarchical._slice(log_density, x, rng, 1.0)
    assert stats.kstest(x, target.cdf).pvalue > 0.01


def test_effective_sample_size_of_an_autoregressive_chain():
    # AR(1) with coefficient phi: ESS / N = (1 - phi) / (1 + phi)
    rng = np.random.default_rng(3)
    phi, n = 0.5, 20000
    chains = np.empty((4, n))
    chains[:, 0] = rng.standard_normal(4) / np.sqrt(1 - phi ** 2)
    noise = rng.standard_normal((4, n))
    for t in range(1, n):
        chains[:, t] = phi * chains[:, t - 1] + noise[:, t]
    assert hierarchical._ess(chains) / (4 * n) == pytest.approx((1 - phi) / (1 + phi),
                                                                rel=0.1)
    assert hierarchical._ess(rng.standard_normal((4, 5000))) == pytest.approx(20000, rel=0.1)
    rhat, _ = hierarchical._diagnostics(chains)
    assert rhat < 1.01
    stuck = chains + 3 * np.arange(4)[:, None]  # chains that disagree
    assert hierarchical._diagnostics(stuck)[0] > 1.5


def test_collapsed_likelihood_is_the_correlated_normal_integrated_over_delta():
    # The sampler reads a data set through its mean and sum of squares: the correlated
    # normal likelihood x ~ MVN(delta 1, sigma^2 M) integrated against delta ~ N(mu0, w)
    # is, as a function of (sigma, mu0, w), proportional to sigma^-(n-1)
    # exp(-S / (2 sigma^2 (1 - rho))) N(xbar; mu0, sigma^2 c / n + w), c = 1 + (n-1) rho.
    rng = np.random.default_rng(4)
    n, rho = 5, 0.2
    x = rng.normal(0.3, 1.0, n)
    m = (1 - rho) * np.eye(n) + rho

    def exact(sigma, mu0, w):
        return integrate.quad(lambda d: stats.multivariate_normal.pdf(
            x, np.full(n, d), sigma ** 2 * m) * stats.norm.pdf(d, mu0, np.sqrt(w)),
            -30, 30, points=[x.mean(), mu0], limit=400, epsabs=0)[0]

    def collapsed(sigma, mu0, w):
        squares = ((x - x.mean()) ** 2).sum()
        c = 1 + (n - 1) * rho
        return (sigma ** -(n - 1) * np.exp(-squares / (2 * sigma ** 2 * (1 - rho)))
                * stats.norm.pdf(x.mean(), mu0, np.sqrt(sigma ** 2 * c / n + w)))

    cases = [(0.5, 0.0, 0.3), (1.0, 1.0, 0.01), (2.0, -0.5, 2.0), (0.8, 0.3, 1e-4)]
    ratios = [exact(*case) / collapsed(*case) for case in cases]
    assert np.allclose(ratios, ratios[0], rtol=1e-6)


# --- Against the authors' Stan model (baycomp) ---------------------------------------------

# Three cases drawn as in the oracle runs: (seed, data sets, folds, shift, spread, rope).
ORACLE_CASES = [(0, 8, 10, 0.01, 0.01, 0.01), (1, 15, 10, 0.003, 0.01, 0.005),
                (2, 5, 5, 0.0, 0.0, 0.01)]


@pytest.mark.slow
@pytest.mark.parametrize("seed, n_datasets, n_folds, shift, spread, rope", ORACLE_CASES)
def test_probabilities_agree_with_baycomps_stan_model(seed, n_datasets, n_folds, shift, spread,
                                                      rope, tmp_path, monkeypatch):
    pytest.importorskip("stan")  # pystan 3, which baycomp's HierarchicalTest runs
    baycomp = pytest.importorskip("baycomp")
    monkeypatch.chdir(tmp_path)  # baycomp caches its last sample in the working directory
    a, b = _folds(n_datasets, n_folds, shift, spread, noise=0.015, seed=seed)
    samples = baycomp.HierarchicalTest.sample(a, b, rope, runs=1, nsamples=10000, chains=4)
    theirs = np.bincount(np.argmax(samples, axis=1), minlength=3) / len(samples)
    ours = _test(a, b, n_train=n_folds - 1, rope=rope, n_samples=5000)
    # baycomp's x is model a: its left region is "a better"
    assert np.allclose([ours.p_a_better, ours.p_rope, ours.p_b_better], theirs, atol=0.03)
    assert np.allclose(ours.next_dataset, samples.mean(axis=0), atol=0.03)


# --- Properties ------------------------------------------------------------------------------

# Monte Carlo tolerance of a probability from 4 chains x 1,000 draws (an effective sample
# size of about a thousand or more): four standard errors at p = 1/2.
MC = 4 * 0.5 / np.sqrt(1000)


def _probabilities(result):
    return np.array([result.p_a_better, result.p_rope, result.p_b_better])


def test_swapping_the_models_swaps_the_probabilities():
    a, b = _folds(shift=0.005, spread=0.01, seed=5)
    forward = _test(a, b, rope=0.005, n_samples=1000)
    backward = _test(b, a, rope=0.005, n_samples=1000)
    # the same draws, mirrored: the sampler is symmetric in the sign of the differences
    assert np.allclose(_probabilities(backward), _probabilities(forward)[::-1], atol=MC)
    assert np.allclose(backward.next_dataset, forward.next_dataset[::-1], atol=MC)
    assert np.allclose(backward.shrunken, -forward.shrunken, atol=2e-3)
    # losses: greater_is_better=False reads -a, -b
    losses = _test(-a, -b, rope=0.005, n_samples=1000, greater_is_better=False)
    assert np.array_equal(_probabilities(losses), _probabilities(forward))


def test_permuting_the_datasets_permutes_the_estimates_only():
    a, b = _folds(n_datasets=10, shift=0.005, spread=0.01, seed=6)
    order = np.random.default_rng(0).permutation(10)
    first = _test(a, b, rope=0.005, n_samples=1000)
    permuted = _test(a[order], b[order], rope=0.005, n_samples=1000)
    assert np.allclose(_probabilities(permuted), _probabilities(first), atol=MC)
    assert np.allclose(permuted.shrunken, first.shrunken[order], atol=2e-3)
    assert np.array_equal(permuted.observed, first.observed[order])


def test_a_clear_winner_and_equivalent_models():
    a, b = _folds(shift=0.05, spread=0.005, noise=0.01, seed=7)
    clear = _test(a, b, rope=0.01, n_samples=1000)
    assert clear.p_a_better > 0.99 and clear.next_dataset[0] > 0.95
    assert clear.mean_difference[0] > 0.99
    assert (clear.dataset_probabilities[:, 0] > 0.95).all()
    # the same model twice, up to fold noise: practically equivalent within 2 points
    rng = np.random.default_rng(8)
    b = rng.uniform(0.6, 0.9, (10, 1)) + rng.normal(0, 0.02, (10, 10))
    same = _test(b + rng.normal(0, 0.003, (10, 10)), b, rope=0.02, n_samples=1000)
    assert same.p_rope > 0.95 and same.mean_difference[1] > 0.99


def test_shrinkage_pulls_the_datasets_towards_their_mean():
    a, b = _folds(n_datasets=12, shift=0.01, spread=0.002, noise=0.03, seed=9)
    result = _test(a, b, n_samples=1000)
    centre = result.draws["mu0"].mean()
    # every data set's estimate lies between its own mean and the overall mean
    assert (np.abs(result.shrunken - centre) < np.abs(result.observed - centre)).all()
    assert result.shrunken.std() < 0.5 * result.observed.std()


def test_reproducible_with_random_state_and_unpacks():
    a, b = _folds(seed=10)
    first = _test(a, b, rope=0.01, n_samples=200, burn_in=100)
    again = _test(a, b, rope=0.01, n_samples=200, burn_in=100)
    assert np.array_equal(first.samples, again.samples)
    assert np.array_equal(first.draws["delta"], again.draws["delta"])
    other = _test(a, b, rope=0.01, n_samples=200, burn_in=100, random_state=1)
    assert not np.array_equal(first.samples, other.samples)
    p_a_better, p_rope, p_b_better = first
    assert (p_a_better, p_rope, p_b_better) == (first.p_a_better, first.p_rope,
                                                first.p_b_better)
    assert p_a_better + p_rope + p_b_better == pytest.approx(1.0)
    no_rope = _test(a, b, n_samples=200, burn_in=100)
    assert len(no_rope) == 2 and no_rope.p_rope == 0.0
    assert no_rope.samples.shape == (800, 3) and first.draws["delta"].shape == (800, 8)


def test_result_shows_its_datasets():
    pandas = pytest.importorskip("pandas")
    a, b = _folds(n_datasets=3, seed=11)
    names = ["iris", "wine", "a data set with a rather long name"]
    frame_a = pandas.DataFrame(a, index=names)
    result = _test(frame_a, b, rope=0.01, n_samples=200, burn_in=100,
                   names=("forest", "tree"))
    assert result.datasets == tuple(names) and result.models == ("forest", "tree")
    frame = result.to_frame()
    assert frame.index.tolist() == names
    assert np.allclose(frame["shrunken"], result.shrunken)
    assert np.allclose(frame[["p_a_better", "p_rope", "p_b_better"]],
                       result.dataset_probabilities)
    text = repr(result)
    assert text.startswith("BayesianHierarchicalResult(p_a_better=") and "wine" in text
    assert "<table>" in result._repr_html_()


def test_rho_follows_the_fold_sizes():
    a, b = _folds(n_datasets=4, seed=12)
    result = _test(a, b, n_train=[9, 9, 4, 4], n_test=[1, 1, 1, 1], n_samples=200,
                   burn_in=100)
    assert np.allclose(result.rho, [0.1, 0.1, 0.2, 0.2])
    # a larger correlation of the folds widens each data set's posterior
    narrow = _test(a, b, n_train=99, n_test=1, n_samples=1000)
    wide = _test(a, b, n_train=1, n_test=1, n_samples=1000)
    assert (wide.shrunken_std > narrow.shrunken_std).all()


# --- Errors and warnings ---------------------------------------------------------------------


@pytest.mark.parametrize("change, message", [
    (lambda a, b: (np.where(np.eye(8, 10, dtype=bool), np.nan, a), b), "scores_a has nan"),
    (lambda a, b: (a, b[:, :9]), "same folds"),
    (lambda a, b: (a[:1], b[:1]), "at least 2 data sets"),
    (lambda a, b: (a[:, :1], b[:, :1]), "at least 2 folds"),
    (lambda a, b: (a[0], b[0]), "scores_a must be 2-D"),
    (lambda a, b: (a, np.where(np.eye(8, 10, dtype=bool), np.inf, b)), "scores_b has inf"),
    (lambda a, b: (b + 0.01, b), "no spread over the folds of any data set")])
def test_bad_tables_are_refused_before_sampling(change, message, monkeypatch):
    monkeypatch.setattr(hierarchical, "_sample_hierarchical", None)  # never reached
    a, b = _folds(seed=13)
    with pytest.raises(ValueError, match=message):
        _test(*change(a, b))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"rope": -0.01}, ValueError, "'rope' parameter"),
    ({"n_train": None, "n_test": None}, ValueError, "pass n_train and n_test"),
    ({"n_train": [9, 9], "n_test": 1}, ValueError, "n_train must be one number or one per"),
    ({"n_train": 9, "n_test": [1, 1, 1, 1, 1, 1, 1, -1]}, ValueError, "positive sizes"),
    ({"n_samples": 10}, ValueError, "'n_samples' parameter"),
    ({"n_chains": 0}, ValueError, "'n_chains' parameter"),
    ({"names": ("a", "b", "c")}, ValueError, "names must name the two models"),
    ({"random_state": -1}, ValueError, "'random_state' parameter")])
def test_bad_options_are_refused_before_sampling(kwargs, error, message, monkeypatch):
    monkeypatch.setattr(hierarchical, "_sample_hierarchical", None)
    a, b = _folds(seed=14)
    with pytest.raises(error, match=message):
        _test(a, b, **kwargs)


def test_a_dataset_without_spread_warns_and_is_pinned_at_its_difference():
    a, b = _folds(shift=0.01, spread=0.005, seed=15)
    a[0] = b[0] + 0.02  # the same difference on every fold
    a[1] = b[1]  # the same scores on every fold
    with pytest.warns(RuntimeWarning, match=r"2 data set\(s\) do not vary"):
        result = _test(a, b, rope=0.005, n_samples=1000)
    assert result.shrunken[0] == pytest.approx(0.02, abs=2e-3)
    assert result.shrunken[1] == pytest.approx(0.0, abs=2e-3)
    assert result.rhat < 1.05


def test_chains_that_have_not_mixed_warn():
    a, b = _folds(seed=16)
    with pytest.warns(RuntimeWarning, match="the chains have not mixed"):
        _test(a, b, n_samples=100, burn_in=0, n_chains=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _test(a, b, n_samples=1000)
