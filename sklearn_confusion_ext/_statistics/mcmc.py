"""Markov chain Monte Carlo machinery, in NumPy and SciPy: a vectorized slice sampler,
exact draws of truncated normal and gamma distributions, and the convergence diagnostics
of several chains (the rank-normalized split R-hat and the bulk effective sample size).

Nothing here knows a model: :mod:`.hierarchical` builds its Gibbs sampler from these
pieces. Every function updates or reads many independent entries (chains, data sets) at
once.
"""

import math

import numpy as np
from scipy import special, stats

# Convergence warnings (Vehtari, Gelman, Simpson, Carpenter and Buerkner 2021): the
# rank-normalized split R-hat above this, or a bulk effective sample size below this many
# draws per chain.
RHAT_LIMIT = 1.01
ESS_PER_CHAIN = 100
# The most steps the slice sampler's interval steps out, both sides together (Neal 2003's
# m, split at random between the two sides).
_SLICE_STEPS = 100


def _slice(log_density, x, rng, width, max_steps=_SLICE_STEPS):
    """One slice-sampling update (Neal 2003, stepping out then shrinkage) of every entry of
    ``x`` at once; ``log_density(x)`` gives each entry's log density given the others (the
    entries are conditionally independent), ``-inf`` outside its support."""
    level = log_density(x) - rng.standard_exponential(x.shape)
    left = x - width * rng.random(x.shape)
    right = left + width
    steps_left = np.floor(max_steps * rng.random(x.shape))
    steps_right = max_steps - 1 - steps_left
    for end, steps, sign in ((left, steps_left, -width), (right, steps_right, width)):
        active = steps > 0
        while active.any():
            active &= log_density(end) > level
            end += sign * active
            steps -= active
            active &= steps > 0
    new = x.copy()
    todo = np.ones(x.shape, dtype=bool)
    while True:
        proposal = left + (right - left) * rng.random(x.shape)
        accepted = todo & (log_density(proposal) > level)
        new[accepted] = proposal[accepted]
        todo &= ~accepted
        if not todo.any():
            return new
        below = todo & (proposal < x)
        above = todo & ~below
        left[below], right[above] = proposal[below], proposal[above]


def _truncated_normal(mean, sd, low, high, rng):
    """Draws of ``N(mean, sd^2)`` truncated to ``[low, high]``, by the inverse distribution
    function (on the lower tail, where it is accurate)."""
    a, b = (low - mean) / sd, (high - mean) / sd
    flip = a > 0  # both bounds in the upper tail: draw the mirror image from the lower one
    a, b = np.where(flip, -b, a), np.where(flip, -a, b)
    p_low, p_high = special.ndtr(a), special.ndtr(b)
    z = np.clip(special.ndtri(p_low + (p_high - p_low) * rng.random(np.shape(mean))), a, b)
    return mean + np.where(flip, -z, z) * sd



def _truncated_gamma(shape, rate, low, high, rng):
    """Draws of ``Gamma(shape, rate)`` truncated to ``[low, high]``: an untruncated draw
    where it falls inside, else one by the inverse distribution function (on the tail where
    the incomplete gamma function is accurate); together, exact draws."""
    shape, rate, low, high = np.broadcast_arrays(shape, rate, low, high)
    x = rng.gamma(shape, 1 / rate)
    outside = (x < low) | (x > high)
    if outside.any():
        a, r = shape[outside], rate[outside]
        lo, hi = r * low[outside], r * high[outside]
        u = rng.random(a.size)
        with np.errstate(invalid="ignore", over="ignore"):
            lower_tail = special.gammainc(a, lo) < 0.5
            p_lo, p_hi = special.gammainc(a, lo), special.gammainc(a, hi)
            q_lo, q_hi = special.gammaincc(a, lo), special.gammaincc(a, hi)
            drawn = np.where(lower_tail, special.gammaincinv(a, p_lo + u * (p_hi - p_lo)),
                             special.gammainccinv(a, q_hi + u * (q_lo - q_hi)))
        x[outside] = np.clip(drawn, lo, hi) / r
    return x



# --- Convergence diagnostics --------------------------------------------------------------


def _split(draws):
    """``(n_chains, n_draws)`` draws as ``(2 n_chains, n_draws // 2)``: each chain's halves."""
    half = draws.shape[1] // 2
    return np.concatenate([draws[:, :half], draws[:, draws.shape[1] - half:]])


def _rank_normal(draws):
    """The draws replaced by the normal scores of their ranks over all chains (Vehtari et
    al. 2021, eq. 14), ties averaged."""
    ranks = stats.rankdata(draws, method="average").reshape(draws.shape)
    return special.ndtri((ranks - 0.375) / (draws.size + 0.25))


def _rhat(chains):
    """The split R-hat of ``(n_chains, n_draws)`` draws (Gelman et al., BDA3, eq. 11.4)."""
    n = chains.shape[1]
    within = chains.var(axis=1, ddof=1).mean()
    between = n * chains.mean(axis=1).var(ddof=1)
    if within == 0:
        return 1.0 if between == 0 else math.inf
    return math.sqrt(((n - 1) / n * within + between / n) / within)


def _ess(chains):
    """The effective sample size of ``(n_chains, n_draws)`` draws: Geyer's initial
    monotone sequence estimator over the chains' autocorrelations, as in Stan (Vehtari et
    al. 2021, Section 3.2)."""
    m, n = chains.shape
    centred = chains - chains.mean(axis=1, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, size, axis=1)
    autocovariance = np.fft.irfft(spectrum * np.conj(spectrum), size, axis=1)[:, :n] / n
    chain_variance = autocovariance[:, 0] * n / (n - 1)
    within = chain_variance.mean()
    pooled = (n - 1) / n * within + (chains.mean(axis=1).var(ddof=1) if m > 1 else 0.0)
    if pooled == 0:
        return float(m * n)
    rho = 1 - (within - autocovariance.mean(axis=0)) / pooled
    rho[0] = 1.0
    pairs = rho[:n - n % 2].reshape(-1, 2).sum(axis=1)
    positive = np.flatnonzero(pairs <= 0)
    pairs = pairs[:positive[0]] if positive.size else pairs
    pairs = np.minimum.accumulate(pairs)
    tau = max(-1 + 2 * pairs.sum(), 1 / math.log10(m * n))
    return float(m * n / tau)


def _diagnostics(draws):
    """``(rhat, ess)`` of ``(n_chains, n_draws)`` draws: the rank-normalized split R-hat, the
    larger of the draws' and of their folded distances to the median (Vehtari et al. 2021,
    Section 4.2), and the bulk effective sample size."""
    split = _split(draws)
    bulk = _rank_normal(split)
    folded = _rank_normal(np.abs(split - np.median(split)))
    return max(_rhat(bulk), _rhat(folded)), _ess(bulk)



def _worst(monitored):
    """The largest R-hat and the smallest effective sample size of the monitored draws."""
    values = np.array([_diagnostics(chains) for chains in monitored])
    return values[:, 0].max(), values[:, 1].min()
