"""The Bayesian hierarchical test of two models over several data sets, from their folds.

Corani, Benavoli, Demsar, Mangili and Zaffalon ("Statistical comparison of classifiers
through Bayesian hierarchical modelling", Machine Learning 106, 2017): from every fold's
score on every data set, the correlated t-test's model on each data set, the data sets'
differences drawn from a Student t, sampled by Markov chain Monte Carlo in NumPy and SciPy
(the sampler's pieces and its diagnostics: :mod:`.mcmc`).
"""

import functools
import math
from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np
from scipy import special

from .._core.config import check_result_size
from .._core.params import (
    ARRAY,
    BOOLEAN,
    NON_NEGATIVE_INT,
    POSITIVE_INT,
    RANDOM_STATE,
    Interval,
    Options,
    quoted,
    validate_params,
)
from .._core.results import Result, _result, _shown, _Table
from .._core.user_warnings import warn
from .cross_validated import FOLD_SIZE, fold_sizes
from .dataset_scores import N_DRAWS, PROBABILITIES, ROPE, _two_models, _winning_shares
from .mcmc import ESS_PER_CHAIN, RHAT_LIMIT, _slice, _truncated_gamma, _truncated_normal, _worst

# --- The Bayesian hierarchical test ---------------------------------------------------------
#
# Corani, Benavoli, Demsar, Mangili and Zaffalon, "Statistical comparison of classifiers
# through Bayesian hierarchical modelling", Machine Learning 106 (2017) 1817-1837, Section 3,
# with the priors of the authors' published Stan model (baycomp's hierarchical-t-test.stan).
# On the standardized differences z (divided by the mean of the data sets' standard
# deviations over folds):
#
#   z_i | delta_i, sigma_i ~ MVN(delta_i 1, sigma_i^2 M_i),  M_i = (1 - rho_i) I + rho_i 1 1'
#   delta_i ~ t_nu(mu0, sigma0),                sigma_i ~ U(sigma_low_i, 1000 s_within)
#   mu0 ~ U(-max|z|, max|z|),                    sigma0 ~ U(0, 1000 s_among)
#   nu - 1 ~ Gamma(alpha, beta) (shape, rate),  alpha ~ U(1, 2), beta ~ U(0.01, 0.1)
#
# M_i has the eigenvalue c_i = 1 + (n - 1) rho_i along 1 and 1 - rho_i across it, so the
# likelihood of data set i depends on its mean zbar_i and its sum of squares S_i only:
# -2 log L = 2 n log sigma_i + S_i / (sigma_i^2 (1 - rho_i)) + n (zbar_i - delta_i)^2 /
# (sigma_i^2 c_i) + constants.
#
# The sampler is a partially collapsed Gibbs sampler (van Dyk and Park 2008), every chain in
# step, vectorized over data sets; the Student t is a scale mixture of normals,
# delta_i | lambda_i ~ N(mu0, sigma0^2 / lambda_i), lambda_i ~ Gamma(nu / 2, rate nu / 2):
#
#   1. sigma_i | mu0, sigma0, lambda_i  (delta_i integrated out: zbar_i ~ N(mu0, sigma_i^2
#      c_i / n + sigma0^2 / lambda_i)), slice sampling on log sigma_i;
#   2. sigma0 | mu0, sigma, lambda  (delta integrated out), slice sampling on log sigma0;
#   3. mu0 | sigma0, sigma, lambda  (delta integrated out): a normal truncated to its bounds;
#   4. delta_i | everything: normal;
#   5. nu | delta, mu0, sigma0  (lambda integrated out: the t density; alpha and beta
#      integrated out of the prior: see _log_prior_df), slice sampling on log(nu - 1);
#   6. lambda_i | delta_i, mu0, sigma0, nu: Gamma((nu + 1) / 2, rate (nu + r_i^2) / 2).
#
# Steps 1-3 are a Gibbs sampler of the marginal posterior of (sigma, sigma0, mu0) given
# lambda, step 4 completes the joint draw; steps 5-6 draw (nu, lambda) jointly. No step
# conditions on delta when it is stale, so the posterior is the stationary distribution.

HIERARCHICAL_ALPHA = (1.0, 2.0)
HIERARCHICAL_BETA = (0.01, 0.1)
# The upper bounds of sigma_i and sigma0: this many times the standard deviation within
# the data sets (mean over data sets) and among their means (the authors' choice).
HIERARCHICAL_SCALE_BOUND = 1000.0
# A data set whose differences have no spread has sigma_i bounded below by this fraction of
# the smallest standard deviation of the other data sets (its posterior is improper else).
CONSTANT_FLOOR = 0.1
# The former names of the keywords (one release of grace).
RENAMED = {"names": "models", "n_samples": "n_draws"}
# The slice sampler's intervals, on the log scales: their width before tuning, and after it,
# this many times the spread of the tuning draws (not below the minimum).
_SLICE_WIDTH = 1.0
_SLICE_FACTOR = 3.0
_SLICE_MIN_WIDTH = 0.01
_TUNING_DRAWS = 50
# Gauss-Legendre nodes integrating the prior of nu over alpha (exact to rounding).
_LEGENDRE = np.polynomial.legendre.leggauss(16)


def _log_prior_df(t):
    """The log prior density of ``t = nu - 1`` with ``alpha`` and ``beta`` integrated out.

    ``t ~ Gamma(alpha, rate beta)`` with ``alpha ~ U(a0, a1)`` and ``beta ~ U(b0, b1)``;
    integrating the rate, ``int_b0^b1 Gamma(t; alpha, beta) d beta = alpha t^-2
    [P(alpha + 1, b1 t) - P(alpha + 1, b0 t)]`` (``P`` the regularized lower incomplete
    gamma function), and the shape by Gauss-Legendre quadrature.
    """
    (a0, a1), (b0, b1) = HIERARCHICAL_ALPHA, HIERARCHICAL_BETA
    nodes, weights = _LEGENDRE
    alpha = (a0 + (a1 - a0) * (nodes + 1) / 2)[:, None]
    t = np.asarray(t, dtype=float)
    low, high = b0 * t.ravel()[None, :], b1 * t.ravel()[None, :]
    shape = alpha + 1
    upper = low > shape  # both in the upper tail: the difference of upper tails is exact
    with np.errstate(invalid="ignore"):
        mass = np.where(upper, special.gammaincc(shape, low) - special.gammaincc(shape, high),
                        special.gammainc(shape, high) - special.gammainc(shape, low))
    integral = (weights[:, None] * alpha * mass).sum(axis=0) * (a1 - a0) / 2
    with np.errstate(divide="ignore"):
        log_density = np.log(integral) - 2 * np.log(t.ravel()) - math.log(
            (a1 - a0) * (b1 - b0))
    return log_density.reshape(t.shape)


# The prior of log(nu - 1) tabulated once on this grid (linear interpolation, error below
# 1e-5 in the log density); computed exactly outside it.
_DF_GRID = (-20.0, 11.0, 6201)


@functools.cache
def _df_prior_table():
    grid = np.linspace(*_DF_GRID)
    return grid, _log_prior_df(np.exp(grid))


def _log_prior_log_df(u):
    """The log prior density of ``u = log(nu - 1)`` (the Jacobian ``t`` included)."""
    grid, table = _df_prior_table()
    inside = (u >= grid[0]) & (u <= grid[-1])
    if inside.all():
        return np.interp(u, grid, table) + u
    return np.where(inside, np.interp(u, grid, table), _log_prior_df(np.exp(u))) + u



class _HierarchicalData:
    """The standardized differences' sufficient statistics and the priors' bounds."""

    def __init__(self, differences, rho):
        n_datasets, n_folds = differences.shape
        spread = differences.std(axis=1)
        self.scale = float(spread.mean())
        z = differences / self.scale
        self.n = n_folds
        self.mean = z.mean(axis=1)
        self.squares = ((z - self.mean[:, None]) ** 2).sum(axis=1)
        self.rho = rho
        self.along = 1 + (n_folds - 1) * rho  # the eigenvalue of M along 1
        self.across = 1 - rho
        within = spread / self.scale
        among = float(self.mean.std())
        self.sigma_high = HIERARCHICAL_SCALE_BOUND * float(within.mean())
        self.sigma0_high = HIERARCHICAL_SCALE_BOUND * (among if among > 0 else 1.0)
        self.mu0_bound = float(np.abs(z).max())
        constant = _constant_rows(differences)
        floor = CONSTANT_FLOOR * within[~constant].min() if constant.any() else 0.0
        self.sigma_low = np.where(constant, floor, 0.0)


def _constant_rows(differences):
    """Which data sets' differences have no spread over the folds (up to rounding)."""
    return np.ptp(differences, axis=1) <= 1e-12 * np.maximum(1.0, np.abs(differences).max(
        axis=1))



def _sample_hierarchical(data, n_chains, n_samples, burn_in, rng):
    """The kept draws of ``mu0``, ``sigma0``, ``nu`` (each ``(n_chains, n_samples)``) and
    ``delta`` (``(n_chains, n_samples, n_datasets)``), on the standardized scale
    (``n_samples`` draws kept per chain: the test's ``n_draws``)."""
    n, q = data.n, data.mean.size
    zbar, squares = data.mean[None, :], data.squares[None, :]
    along_n = data.along[None, :] / n
    precision_low = 1 / data.sigma_high ** 2
    with np.errstate(divide="ignore"):
        precision_high = (1 / data.sigma_low ** 2)[None, :]
    # Dispersed starting points: the chains' disagreement is what R-hat measures.
    among = max(float(data.mean.std()), 1e-3)
    mu0 = np.clip(data.mean.mean() + among * rng.standard_normal(n_chains),
                  -data.mu0_bound, data.mu0_bound)
    sigma0 = np.minimum(among * np.exp(rng.uniform(-1, 1, n_chains)), data.sigma0_high / 2)
    delta = zbar + np.sqrt(data.squares / (n * (n - 1)) + 1e-6)[None, :] * (
        rng.standard_normal((n_chains, q)))
    nu = 1 + rng.gamma(1.5, 1 / 0.055, n_chains)
    lam = rng.gamma(nu[:, None] / 2, 2 / nu[:, None], (n_chains, q))
    kept = {"mu0": np.empty((n_chains, n_samples)), "sigma0": np.empty((n_chains, n_samples)),
            "nu": np.empty((n_chains, n_samples)),
            "delta": np.empty((n_chains, n_samples, q))}
    log_sigma0_high = math.log(data.sigma0_high)
    # The slice widths of log sigma0 and log(nu - 1), set to the spread of the first half
    # of the burn-in (fixed before the draws kept: the chain stays exact).
    widths = [_SLICE_WIDTH, 2 * _SLICE_WIDTH]
    tuning = np.empty((2, n_chains, burn_in // 2))
    for step in range(burn_in + n_samples):
        if step == burn_in // 2 and step >= _TUNING_DRAWS:
            widths = [max(_SLICE_FACTOR * float(np.std(values)), _SLICE_MIN_WIDTH)
                      for values in tuning]
        # 1. sigma_i given delta_i: 1 / sigma_i^2 is a truncated gamma
        quadratic = squares / data.across + n * (zbar - delta) ** 2 / data.along
        sigma = 1 / np.sqrt(_truncated_gamma((n - 1) / 2, quadratic / 2, precision_low,
                                             precision_high, rng))
        centred = (zbar - mu0[:, None]) ** 2
        # 2. sigma0, delta integrated out
        known = sigma ** 2 * along_n

        def log_sigma0(u, known=known, centred=centred, lam=lam):
            v = known + np.exp(2 * u)[:, None] / lam
            density = u + (-0.5 * np.log(v) - centred / (2 * v)).sum(axis=1)
            return np.where(u <= log_sigma0_high, density, -np.inf)

        sigma0 = np.exp(_slice(log_sigma0, np.log(sigma0), rng, widths[0]))
        # 3. mu0, delta integrated out
        precision = 1 / (known + (sigma0 ** 2)[:, None] / lam)
        total = precision.sum(axis=1)
        mu0 = _truncated_normal((precision * zbar).sum(axis=1) / total, 1 / np.sqrt(total),
                                -data.mu0_bound, data.mu0_bound, rng)
        # 4. delta_i
        own, pooled = 1 / known, lam / (sigma0 ** 2)[:, None]
        delta = ((own * zbar + pooled * mu0[:, None]) / (own + pooled)
                 + rng.standard_normal((n_chains, q)) / np.sqrt(own + pooled))
        # 5. nu, lambda integrated out
        r2 = ((delta - mu0[:, None]) / sigma0[:, None]) ** 2

        def log_df(u, r2=r2):
            df = 1 + np.exp(u)
            return (_log_prior_log_df(u)
                    + q * (special.gammaln((df + 1) / 2) - special.gammaln(df / 2)
                           - 0.5 * np.log(df))
                    - (df + 1) / 2 * np.log1p(r2 / df[:, None]).sum(axis=1))

        nu = 1 + np.exp(_slice(log_df, np.log(nu - 1), rng, widths[1]))
        # 6. lambda_i
        lam = rng.gamma((nu[:, None] + 1) / 2, 2 / (nu[:, None] + r2))
        if step < burn_in // 2:
            tuning[:, :, step] = np.log(sigma0), np.log(nu - 1)
        elif step >= burn_in:
            k = step - burn_in
            kept["mu0"][:, k], kept["sigma0"][:, k], kept["nu"][:, k] = mu0, sigma0, nu
            kept["delta"][:, k] = delta
    return kept



# --- The test -------------------------------------------------------------------------------


@_result(parameters={
    **PROBABILITIES, "rope": ROPE, "samples": [ARRAY], "next_dataset": [ARRAY],
    "mean_difference": [ARRAY], "draws": [dict], "observed": [ARRAY], "shrunken": [ARRAY],
    "shrunken_std": [ARRAY], "dataset_probabilities": [ARRAY], "rho": [ARRAY],
    "rhat": [Interval(Real, 0, None), Options(math.inf)], "ess": [Interval(Real, 0, None)],
    "n_chains": [POSITIVE_INT], "n_draws": [POSITIVE_INT], "burn_in": [NON_NEGATIVE_INT],
    "models": [tuple], "n_datasets": [Interval(Integral, 2, None)],
    "n_folds": [Interval(Integral, 2, None)], "datasets": [None, tuple]})
class BayesianHierarchicalResult(Result):
    """Result of :func:`bayesian_hierarchical_test`.

    Unpacks to three probabilities whatever ``rope``:
    ``p_a_better, p_rope, p_b_better = result`` (``p_rope`` is 0 where ``rope`` is 0).

    Two kinds of probability are reported; they answer different questions:

    * ``p_a_better``, ``p_rope``, ``p_b_better`` (as baycomp reports them): the share of
      the posterior draws of ``(mu0, sigma0, nu)`` in which "a better" (or "equivalent",
      or "b better") is the *most probable* region for the difference on a new data set.
      It is a probability about which region wins, not the probability that a is better;
    * ``next_dataset``: the probability that model a is better (or the two equivalent, or
      b better) on a new data set, the posterior predictive mass of each region. The two
      differ: ``p_a_better`` near 1 with ``next_dataset[0]`` near 0.5 means that a is
      more likely than not the better one on the next data set, and little more.

    Attributes
    ----------
    p_a_better, p_rope, p_b_better : float
        The share of the posterior draws in which the region right of ``rope`` (model a
        better), within ``[-rope, rope]`` (practically equivalent) or left of ``-rope``
        (model b better) holds the largest probability for a new data set's difference
        ``a - b`` (the predictive ``t_nu(mu0, sigma0)`` of the draw); a draw in which two
        regions tie counts half to each. Not the probability that a is better on a new
        data set: that is ``next_dataset[0]``.
    rope : float
        Half-width of the region of practical equivalence, in units of the score.
    samples : ndarray of shape (n_chains * n_draws, 3)
        For each posterior draw, the probabilities of the three regions for a new data
        set's difference, chain after chain.
    next_dataset : ndarray of shape (3,)
        The probabilities that model a is better, that the two are equivalent and that
        model b is better on a new data set: the posterior predictive masses of the three
        regions (the mean of ``samples``).
    mean_difference : ndarray of shape (3,)
        The posterior probabilities that the mean difference ``mu0`` lies in each region.
    draws : dict of ndarray
        The posterior draws, in units of the score: ``"mu0"`` (the mean difference),
        ``"sigma0"`` (the spread of the differences among data sets), ``"nu"`` (their
        degrees of freedom), each ``(n_chains * n_draws,)``, and ``"delta"``, the
        data sets' differences, ``(n_chains * n_draws, n_datasets)``.
    observed : ndarray of shape (n_datasets,)
        Each data set's mean difference over its folds.
    shrunken : ndarray of shape (n_datasets,)
        The posterior mean of each data set's difference ``delta_i``, shrunk towards the
        others.
    shrunken_std : ndarray of shape (n_datasets,)
        Its posterior standard deviation.
    dataset_probabilities : ndarray of shape (n_datasets, 3)
        The posterior probabilities that ``delta_i`` lies right of ``rope``, within it and
        left of ``-rope``.
    rho : ndarray of shape (n_datasets,)
        The correlation of each data set's folds, ``n_test / (n_test + n_train)``.
    rhat : float
        The largest rank-normalized split R-hat of ``mu0``, ``sigma0``, ``nu`` and the
        ``delta_i`` (1 where the chains agree).
    ess : float
        The smallest bulk effective sample size of the same.
    n_chains, n_draws, burn_in : int
        The chains, the draws kept per chain (formerly ``n_samples``, which still reads
        with a ``FutureWarning``), the draws discarded before them.
    models : tuple of str
        The names of model a and model b.
    n_datasets, n_folds : int
        The numbers of data sets and of folds per data set.
    datasets : tuple of str or None
        The data sets' names (a DataFrame's index), where known.

    See Also
    --------
    bayesian_hierarchical_test : The test that returns it.
    BayesianSignedRankResult : The signed-rank test's result, read alike.
    ComparisonSimplexDisplay : Draws ``samples`` on the triangle of the three regions.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import bayesian_hierarchical_test
    >>> rng = np.random.default_rng(0)
    >>> b = rng.uniform(0.7, 0.9, (6, 1)) + rng.normal(0, 0.02, (6, 10))
    >>> a = b + 0.03 + rng.normal(0, 0.01, (6, 10))
    >>> result = bayesian_hierarchical_test(a, b, n_train=9, n_test=1, rope=0.01,
    ...                                     n_draws=500, random_state=0)
    >>> p_a_better, p_rope, p_b_better = result
    >>> p_a_better > 0.9, result.to_frame().shape
    (True, (6, 6))
    """

    _: KW_ONLY
    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    samples: object
    next_dataset: object
    mean_difference: object
    draws: dict
    observed: object
    shrunken: object
    shrunken_std: object
    dataset_probabilities: object
    rho: object
    rhat: float
    ess: float
    n_chains: int
    n_draws: int
    burn_in: int
    models: tuple
    n_datasets: int
    n_folds: int
    datasets: object = None

    _summary_fields = ("p_a_better", "p_rope", "p_b_better", "next_dataset", "rope",
                       "models", "n_datasets", "n_folds", "rhat", "ess")
    _unpacked = ("p_a_better", "p_rope", "p_b_better")
    _renamed_fields = {"n_samples": "n_draws"}

    def _table(self):
        index = self.datasets if self.datasets is not None else range(self.n_datasets)
        probabilities = np.asarray(self.dataset_probabilities)
        return _Table("dataset", index, {
            "observed": self.observed, "shrunken": self.shrunken,
            "shrunken_std": self.shrunken_std, "p_a_better": probabilities[:, 0],
            "p_rope": probabilities[:, 1], "p_b_better": probabilities[:, 2]})


def _fold_scores(scores, name):
    """The (n_datasets, n_folds) float array of ``scores`` and its data sets' names."""
    datasets = None
    if hasattr(scores, "columns") and hasattr(scores, "index"):  # a pandas DataFrame
        datasets = tuple(str(index) for index in scores.index)
        scores = scores.to_numpy()
    try:
        values = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a table of numbers (n_datasets, n_folds); got "
                        f"{quoted(scores)}.") from None
    if values.ndim != 2:
        raise ValueError(f"{name} must be 2-D, one row per data set and one column per "
                         f"fold; got shape {values.shape}.")
    return values, datasets


def _check_fold_tables(scores_a, scores_b):
    (a, datasets), (b, other) = (_fold_scores(scores, name) for name, scores in (
        ("scores_a", scores_a), ("scores_b", scores_b)))
    if a.shape != b.shape:
        raise ValueError(f"scores_a and scores_b must hold the scores of the same folds of "
                         f"the same data sets; got shapes {a.shape} and {b.shape}.")
    n_datasets, n_folds = a.shape
    if n_datasets < 2:
        raise ValueError(f"scores_a and scores_b must hold at least 2 data sets (rows); got "
                         f"{n_datasets}. On one data set, compare the folds with "
                         "compare_cv_scores(method='bayesian').")
    if n_folds < 2:
        raise ValueError(f"scores_a and scores_b must hold at least 2 folds (columns) per "
                         f"data set; got {n_folds}.")
    for name, values in (("scores_a", a), ("scores_b", b)):
        bad = np.argwhere(~np.isfinite(values))
        if bad.size:
            i, j = bad[0]
            raise ValueError(f"{name} has {values[i, j]} at data set {i}, fold {j} "
                             f"({len(bad)} non-finite score(s)): every model needs a score "
                             "on every fold of every data set.")
    return a, b, datasets if datasets is not None else other


def _fold_correlation(n_train, n_test, n_datasets):
    """``rho = n_test / (n_test + n_train)`` of each data set."""
    if n_train is None or n_test is None:
        raise ValueError(
            "bayesian_hierarchical_test models the correlation of the folds, rho = n_test / "
            "(n_test + n_train): pass n_train and n_test (one number each, or one per data "
            "set; only their ratio enters, so n_train=9, n_test=1 for 10-fold "
            "cross-validation).")
    train, test = fold_sizes(n_train, n_test, n_datasets, "data set")
    return test / (train + test)


def _regions(values, rope):
    """The shares of ``values`` right of ``rope``, within ``[-rope, rope]``, left of it."""
    return np.stack([(values > rope).mean(axis=0), (np.abs(values) <= rope).mean(axis=0),
                     (values < -rope).mean(axis=0)], axis=-1)


@validate_params({
    "scores_a": [ARRAY], "scores_b": [ARRAY], "n_train": FOLD_SIZE, "n_test": FOLD_SIZE,
    "rope": ROPE, "n_draws": N_DRAWS, "n_chains": [POSITIVE_INT],
    "burn_in": [NON_NEGATIVE_INT], "greater_is_better": [BOOLEAN],
    "random_state": RANDOM_STATE, "models": [None, ARRAY]}, renamed=RENAMED)
def bayesian_hierarchical_test(scores_a, scores_b, *, n_train=None, n_test=None, rope=0.0,
                               n_draws=2000, n_chains=4, burn_in=1000,
                               greater_is_better=True, random_state=None, models=None):
    """Bayesian hierarchical test of two models over several data sets, from their folds.

    Corani, Benavoli, Demsar, Mangili and Zaffalon ("Statistical comparison of classifiers
    through Bayesian hierarchical modelling", Machine Learning 106, 2017): the
    cross-validation differences ``x_i = a_i - b_i`` of each data set ``i`` are correlated
    normal around the data set's difference ``delta_i`` (the Bayesian correlated t-test's
    model, :func:`compare_cv_scores`), and the ``delta_i`` are drawn from a Student t
    ``t_nu(mu0, sigma0)`` over data sets. Each data set's estimate is shrunk towards the
    others. The posterior predictive of the difference on a new data set,
    ``t_nu(mu0, sigma0)``, gives the probabilities that model a is better there (beyond
    ``rope``), that the two are practically equivalent, and that model b is better
    (``next_dataset``); the probabilities the result unpacks to (``p_a_better``...) are,
    as baycomp's, the shares of the posterior draws in which each region is the most
    probable of the three.

    Parameters
    ----------
    scores_a, scores_b : array-like or pandas.DataFrame of shape (n_datasets, n_folds)
        Each model's score on every fold (columns) of every data set (rows), the same
        folds for both models (for repeated cross-validation, the repetitions' folds side
        by side). A DataFrame's index names the data sets. To test differences ``d``
        already taken, pass ``d`` and ``np.zeros_like(d)``.
    n_train, n_test : int, float or array-like of shape (n_datasets,)
        The training and test sizes of the folds, one number each or one per data set;
        only the ratio enters, through the correlation of the folds ``rho = n_test /
        (n_test + n_train)`` (``n_train=9, n_test=1`` for 10-fold cross-validation),
        which must lie strictly between 0 and 1 in float64 (else a ``ValueError``).
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in units of the score (0.01:
        one point of accuracy). With 0, ``p_rope`` is 0.
    n_draws : int, default=2000
        Posterior draws kept per chain (formerly ``n_samples=``, which still works with a
        ``FutureWarning``).
    n_chains : int, default=4
        Markov chains, started apart; their agreement is checked (R-hat).
    burn_in : int, default=1000
        Draws discarded at the start of each chain (its first half also tunes the slice
        sampler's widths). Draws above the memory budget (``max_matrix_mib``,
        :func:`set_config`) are refused before any is made.
    greater_is_better : bool, default=True
        Whether a higher score is better (False: the differences change sign).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the sampler.
    models : tuple of two str, default=None
        The models' names, ``("a", "b")`` by default (formerly ``names=``, which still
        works with a ``FutureWarning``).

    Returns
    -------
    BayesianHierarchicalResult
        ``p_a_better``, ``p_rope``, ``p_b_better`` (the shares of the posterior draws in
        which each region is the most probable for a new data set, as baycomp),
        ``next_dataset`` (the probabilities that a is better, that the two are equivalent
        and that b is better on a new data set: the posterior predictive), ``mean_difference``
        (the posterior of ``mu0``), the per-data-set ``shrunken`` estimates and the
        ``draws``; ``to_frame()`` gives the data sets.

    Warns
    -----
    RuntimeWarning
        Where the chains have not mixed: an R-hat above 1.01 or a bulk effective sample
        size below 100 draws per chain (Vehtari et al. 2021); draw more (``n_draws``,
        ``burn_in``). Where a data set's differences have no spread over its folds (see
        Notes).

    See Also
    --------
    bayesian_signed_rank_test : The same question from the data sets' mean scores only.
    compare_cv_scores : The correlated t-test on the folds of one data set
        (``method="bayesian"``), this model's part for each data set.
    friedman_test : Several models over the data sets, on their ranks.
    ComparisonSimplexDisplay : Draws the posterior on the triangle of the three regions.

    Notes
    -----
    The model, on the differences standardized by the mean over data sets of their
    standard deviations over folds (the authors' published Stan model, which baycomp runs):
    ``x_i ~ MVN(delta_i 1, sigma_i^2 M)`` with ``M`` of 1 on the diagonal and ``rho``
    elsewhere; ``delta_i ~ t_nu(mu0, sigma0)``; ``sigma_i ~ U(0, 1000 s)`` (``s`` the mean
    standard deviation within data sets); ``mu0 ~ U(-max |x|, max |x|)``;
    ``sigma0 ~ U(0, 1000 s0)`` (``s0`` the standard deviation of the data sets' means);
    ``nu - 1 ~ Gamma(alpha, beta)`` (rate ``beta``), ``alpha ~ U(1, 2)``,
    ``beta ~ U(0.01, 0.1)``.

    The posterior is sampled by a partially collapsed Gibbs sampler (the Student t as a
    scale mixture of normals): ``1 / sigma_i^2`` from its truncated gamma conditional,
    ``sigma0`` (slice sampling) and ``mu0`` (a truncated normal) with the ``delta_i``
    integrated out, the ``delta_i`` from their normal conditional, ``nu`` by slice
    sampling with the mixture weights, ``alpha`` and ``beta`` integrated out. NumPy and
    SciPy only; every chain in step.

    A data set whose differences do not vary over its folds (both models score alike on
    every fold, a common case on easy data sets) would make the posterior improper
    (``sigma_i`` could go to 0): its ``sigma_i`` is bounded below by a tenth of the
    smallest standard deviation over folds of the other data sets, with a
    ``RuntimeWarning``. Where no data set varies, the test is refused. baycomp replaces
    such folds by random noise within ``rope``, centred at 0.

    The probabilities are shares of draws, with a Monte Carlo error of about
    ``sqrt(p (1 - p) / ess)``.

    References
    ----------
    .. [1] G. Corani, A. Benavoli, J. Demsar, F. Mangili and M. Zaffalon, "Statistical
       comparison of classifiers through Bayesian hierarchical modelling", Machine
       Learning 106, 1817-1837, 2017, Section 3: the hierarchical model (the priors of
       the authors' published Stan model).
    .. [2] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis", Journal of
       Machine Learning Research 18, 2017: the correlated t-test's model of each data set
       (Section 4) and the reading of the three regions.
    .. [3] A. Vehtari, A. Gelman, D. Simpson, B. Carpenter and P.-C. Buerkner,
       "Rank-normalization, folding, and localization: an improved R-hat for assessing
       convergence of MCMC", Bayesian Analysis 16(2), 667-718, 2021: the convergence
       diagnostics, ``rhat`` and ``ess``.

    Examples
    --------
    Ten-fold scores of two models on eight data sets, model a better by about two points:

    >>> import numpy as np
    >>> from sklearn_confusion_ext import bayesian_hierarchical_test
    >>> rng = np.random.default_rng(0)
    >>> b = rng.uniform(0.6, 0.9, (8, 1)) + rng.normal(0, 0.02, (8, 10))
    >>> a = b + rng.normal(0.02, 0.01, (8, 1)) + rng.normal(0, 0.01, (8, 10))
    >>> result = bayesian_hierarchical_test(a, b, n_train=9, n_test=1, rope=0.01,
    ...                                     random_state=0, models=("forest", "tree"))
    >>> p_a_better, p_rope, p_b_better = result
    >>> round(p_a_better, 2), round(p_rope, 2), round(p_b_better, 2)
    (1.0, 0.0, 0.0)

    In every posterior draw "forest better" is the most probable region for a new data
    set (``p_a_better`` is 1); the probability that the forest is better on a new data
    set, by more than a point, is about 0.8, and that the two are equivalent about 0.1:

    >>> result.next_dataset.round(1).tolist()
    [0.8, 0.1, 0.0]
    >>> result.observed.round(3)[:3].tolist(), result.shrunken.round(3)[:3].tolist()
    ([0.009, 0.035, 0.021], [0.012, 0.033, 0.021])
    """
    a, b, datasets = _check_fold_tables(scores_a, scores_b)
    n_datasets, n_folds = a.shape
    rope = float(rope)
    rho = _fold_correlation(n_train, n_test, n_datasets)
    models = _two_models(models, ("a", "b"))
    n_samples = n_draws
    # What the draws hold at once, before any: the draws kept of (mu0, sigma0, nu, delta)
    # with the result's copies and samples, and the log-scales of the tuning half of the
    # burn-in.
    check_result_size(
        "bayesian_hierarchical_test",
        (n_chains * n_samples * (2 * n_datasets + 11) + 2 * n_chains * (burn_in // 2),),
        f"n_chains={n_chains} chains of n_draws={n_samples} draws of "
        f"{n_datasets + 3} parameters, and burn_in={burn_in}",
        remedy="Ask for fewer draws (n_draws=, n_chains=, burn_in=)")
    differences = a - b if greater_is_better else b - a
    constant = _constant_rows(differences)
    if constant.all():
        raise ValueError(
            "scores_a - scores_b has no spread over the folds of any data set: the "
            "hierarchical model has no estimate of the folds' variance. Compare the data "
            "sets' mean scores with bayesian_signed_rank_test instead.")
    if constant.any():
        which = np.flatnonzero(constant)
        shown = [datasets[i] for i in which] if datasets is not None else which.tolist()
        warn(f"bayesian_hierarchical_test: the differences of {which.size} data set(s) do "
             f"not vary over the folds ({_shown(shown)}); their fold standard deviation "
             f"sigma_i is bounded below by {CONSTANT_FLOOR} times the smallest of the other "
             "data sets (the posterior is improper else).", RuntimeWarning)
    data = _HierarchicalData(differences, rho)
    rng = np.random.default_rng(random_state)
    with np.errstate(over="ignore", divide="ignore"):
        kept = _sample_hierarchical(data, n_chains, n_samples, burn_in, rng)
    monitored = [kept["mu0"], kept["sigma0"], kept["nu"]] + [
        kept["delta"][:, :, i] for i in range(n_datasets)]
    rhat, ess = (float(value) for value in _worst(monitored))
    scale = data.scale
    mu0, sigma0, nu = (kept[name].ravel() for name in ("mu0", "sigma0", "nu"))
    delta = kept["delta"].reshape(-1, n_datasets) * scale
    rope_z = rope / scale
    b_mass = special.stdtr(nu, (-rope_z - mu0) / sigma0)
    a_mass = special.stdtr(nu, (mu0 - rope_z) / sigma0)
    # With rope 0 the middle region is empty (1 - a - b is only rounding there).
    within = np.clip(1 - a_mass - b_mass, 0, 1) if rope > 0 else np.zeros_like(a_mass)
    samples = np.column_stack([a_mass, within, b_mass])
    # The region of the largest probability wins, ties shared (as the signed-rank test).
    winners = _winning_shares(samples)
    if rhat > RHAT_LIMIT or ess < ESS_PER_CHAIN * n_chains:
        warn(f"bayesian_hierarchical_test: the chains have not mixed (R-hat {rhat:.3f}, "
             f"limit {RHAT_LIMIT}; effective sample size {ess:.0f}, wanted "
             f"{ESS_PER_CHAIN * n_chains}); the probabilities are unreliable. Increase "
             "n_draws and burn_in.", RuntimeWarning)
    return BayesianHierarchicalResult(
        p_a_better=float(winners[0]), p_rope=float(winners[1]),
        p_b_better=float(winners[2]), rope=float(rope), samples=samples,
        next_dataset=samples.mean(axis=0), mean_difference=_regions(mu0, rope_z),
        draws={"mu0": mu0 * scale, "sigma0": sigma0 * scale, "nu": nu, "delta": delta},
        observed=differences.mean(axis=1), shrunken=delta.mean(axis=0),
        shrunken_std=delta.std(axis=0), dataset_probabilities=_regions(delta, rope),
        rho=rho, rhat=rhat, ess=ess, n_chains=int(n_chains), n_draws=int(n_samples),
        burn_in=int(burn_in), models=models, n_datasets=n_datasets, n_folds=n_folds,
        datasets=datasets)
