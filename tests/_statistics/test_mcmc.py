"""The MCMC machinery of the Bayesian hierarchical test (``_statistics/mcmc.py``): truncated
draws, the slice sampler and the effective sample size against their closed forms."""

import numpy as np
import pytest
from scipy import stats

from sklearn_confusion_ext._statistics import mcmc


@pytest.mark.parametrize("shape, rate, low, high", [
    (4.5, 2.0, 0.0, np.inf),       # untruncated
    (4.5, 2.0, 0.5, 1.5),          # around the mode
    (0.5, 1.0, 1e-6, 1e-3),        # far in the lower tail (a constant data set's floor)
    (1.0, 1.0, 20.0, np.inf),      # far in the upper tail
    (4.5, 0.01, 0.0, 3.0)])        # the lower tail of a wide gamma
def test_truncated_gamma_draws_follow_the_truncated_distribution(shape, rate, low, high):
    rng = np.random.default_rng(0)
    n = 4000
    draws = mcmc._truncated_gamma(np.full(n, shape), np.full(n, rate), low, high, rng)
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
    draws = mcmc._truncated_normal(np.full(n, mean), np.full(n, sd), low, high, rng)
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
        x = mcmc._slice(log_density, x, rng, width)
    assert stats.kstest(x, target.cdf).pvalue > 0.001
    # and from a bad start it reaches the target
    x = np.full(2000, -3.0)
    for _ in range(30):
        x = mcmc._slice(log_density, x, rng, 1.0)
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
    assert mcmc._ess(chains) / (4 * n) == pytest.approx((1 - phi) / (1 + phi),
                                                                rel=0.1)
    assert mcmc._ess(rng.standard_normal((4, 5000))) == pytest.approx(20000, rel=0.1)
    rhat, _ = mcmc._diagnostics(chains)
    assert rhat < 1.01
    stuck = chains + 3 * np.arange(4)[:, None]  # chains that disagree
    assert mcmc._diagnostics(stuck)[0] > 1.5
