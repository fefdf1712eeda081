"""How many test instances? The power of the paired tests, and the differences they detect.

Two classifiers on one test set of ``n`` instances differ in correctness on a share
``discordance`` of them (``q = p_12 + p_21``: a right and b wrong, or the reverse), and
their accuracies differ by ``difference`` (``delta = p_12 - p_21``, positive where a is
more accurate). McNemar's tests (:func:`~.table_tests.mcnemar_test`) read only the
discordant pairs, so their power is a binomial mixture computed exactly: the number of
discordant pairs is ``D ~ B(n, q)`` and, given ``D``, the count of those where a is right
is ``B(D, (q + delta) / (2 q))``; the power is the probability that the test, with its own
decision rule (its p-value at most ``alpha``), rejects. The paired bootstrap
(:func:`~.paired.compare_scores`) and the corrected resampled t-test
(:func:`~.cross_validated.compare_cv_scores`) have no such closed form: their power is
simulated.
"""

import math
from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np
from scipy import stats

from .._core.config import resample_block
from .._core.params import (
    BOOLEAN,
    PROBABILITY_LEVEL,
    RANDOM_STATE,
    Interval,
    Options,
    validate_params,
)
from .._core.results import Result, _result, interval_method
from .._core.user_warnings import warn
from .table_tests import _binomial_pvalues

# D values whose lower and upper tails are each below this are left out of the mixture:
# the power is exact to 2e-12 (the neglected probability), in O(sqrt(n)) terms.
_TAIL = 1e-12
# Bisection on the difference stops within this share of the discordance.
_DIFFERENCE_TOLERANCE = 1e-7
# The largest test set required_sample_size searches.
_MAX_SAMPLES = 2 ** 40
ALTERNATIVE = [Options("two-sided", "greater", "less")]
_SHARE = [Interval(Real, 0, 1)]
_MCNEMAR = {"alpha": [PROBABILITY_LEVEL], "exact": [BOOLEAN, Options("mid-p")],
            "correction": [BOOLEAN], "alternative": ALTERNATIVE}


def _test(exact, correction):
    """``exact`` and ``correction`` as Python values (``numpy.bool_`` taken as ``bool``)."""
    return ("mid-p" if isinstance(exact, str) else bool(exact)), bool(correction)


def _check_design(difference, discordance, exact, alternative):
    """Cross-argument checks of a McNemar design (the declarations check each alone)."""
    if abs(difference) > discordance:
        raise ValueError(
            f"difference must satisfy |difference| <= discordance (an accuracy difference "
            f"comes from the discordant instances only); got difference={difference!r} with "
            f"discordance={discordance!r}.")
    if not exact and alternative != "two-sided":
        raise ValueError("One-sided alternatives need the exact test (as mcnemar_test): pass "
                         f"exact=True or 'mid-p'; got exact=False, alternative={alternative!r}.")


# --- The rejection region of each McNemar test, given D discordant pairs ------------------


def _pvalues(b, d, exact, correction, alternative):
    """The p-value ``mcnemar_test`` gives ``n_12 = b`` among ``d`` discordant pairs (arrays;
    ``d >= 1``), by its formulas."""
    b, d = np.asarray(b, dtype=float), np.asarray(d, dtype=float)
    if exact is False:
        with np.errstate(all="ignore"):
            statistic = (np.abs(2 * b - d) - (1 if correction else 0)) ** 2 / d
        return stats.chi2.sf(statistic, 1)
    valid = (b >= 0) & (b <= d)
    b = np.clip(b, 0, d)
    less, greater, two_sided = _binomial_pvalues(b, d)
    if exact == "mid-p":
        with np.errstate(all="ignore"):
            point = stats.binom.pmf(b, d, 0.5)
        less, greater = less - point / 2, greater - point / 2
        two_sided = np.minimum(1.0, 2 * np.minimum(less + point / 2, greater + point / 2)
                               - point)
    pvalue = {"less": less, "greater": greater, "two-sided": two_sided}[alternative]
    return np.where(valid, pvalue, np.inf)  # outside 0..d: never a rejection


def _edge(d, alpha, exact, correction, alternative, side):
    """The last ``b`` of the lower rejection region (``-1`` where none), or the first of
    the upper one (``d + 1`` where none), given ``d`` discordant pairs (an array).

    The p-value of the test is monotone in ``b`` on each side of ``d / 2`` (on all of
    ``0..d`` one-sided), so each region is a tail; its edge is near the binomial quantile
    (the normal one for the chi-square tests) and is settled on the test's own p-value
    formulas among the five nearest candidates."""
    level = alpha / 2 if alternative == "two-sided" else alpha
    if exact is False:  # |2b - d| >= correction + sqrt(chi2 quantile * d)
        guess = np.floor((d - (1 if correction else 0) - np.sqrt(stats.chi2.isf(alpha, 1) * d))
                         / 2)
    else:
        guess = stats.binom.ppf(level, d, 0.5)
    if side == "upper":
        guess = d - guess
    candidates = guess[:, None] + np.arange(-2, 3)
    allowed = (candidates >= 0) & (candidates <= d[:, None])
    if alternative == "two-sided":  # the side's own half (the centre is apart)
        allowed &= (2 * candidates < d[:, None]) if side == "lower" else (
            2 * candidates > d[:, None])
    rejected = allowed & (_pvalues(candidates, d[:, None], exact, correction, alternative)
                          <= alpha)
    if side == "lower":
        return np.where(rejected, candidates, -1).max(axis=1)
    return np.where(rejected, candidates, (d + 1)[:, None]).min(axis=1)


def _regions(d, alpha, exact, correction, alternative):
    """``(lower, upper, centre)``: the test rejects ``b <= lower`` or ``b >= upper``, and
    ``b = d / 2`` where ``centre`` (Edwards' correction gives ``|b - c| = 0`` the statistic
    ``1 / d``, above a large ``alpha``'s quantile where ``d`` is small)."""
    d = np.asarray(d, dtype=float)
    lower = (np.full(d.shape, -1.0) if alternative == "greater" else
             _edge(d, alpha, exact, correction, alternative, "lower"))
    upper = (d + 1 if alternative == "less" else
             _edge(d, alpha, exact, correction, alternative, "upper"))
    centre = (d % 2 == 0) & (_pvalues(d / 2, d, exact, correction, alternative) <= alpha)
    return lower, upper, centre & (lower < d / 2) & (upper > d / 2)


def _rejects_nothing_discordant(exact, alpha, alternative):
    """Whether ``mcnemar_test`` rejects a table without discordant pairs: its p-value is 1,
    and 1/2 for the one-sided mid-p test."""
    pvalue = 0.5 if exact == "mid-p" and alternative != "two-sided" else 1.0
    return pvalue <= alpha


def _power(n_samples, difference, discordance, alpha, exact, correction, alternative):
    """The exact power (a float) of the McNemar test, summed block by block over D."""
    rejects_empty = float(_rejects_nothing_discordant(exact, alpha, alternative))
    if discordance == 0:
        return rejects_empty
    share = min(max((discordance + difference) / (2 * discordance), 0.0), 1.0)
    first = max(int(stats.binom.ppf(_TAIL, n_samples, discordance)), 0)
    last = min(int(stats.binom.isf(_TAIL, n_samples, discordance)) + 1, n_samples)
    n_terms = last - first + 1
    step = resample_block("mcnemar_power", n_terms, 16, "the rejection region of one number "
                          "of discordant pairs", unit="term")
    total = 0.0
    for start in range(first, last + 1, step):
        d = np.arange(start, min(start + step, last + 1), dtype=float)
        weight = stats.binom.pmf(d, n_samples, discordance)
        given = np.zeros(d.shape)
        some = d > 0
        given[~some] = rejects_empty
        if some.any():
            ds = d[some]
            lower, upper, centre = _regions(ds, alpha, exact, correction, alternative)
            given[some] = (stats.binom.cdf(lower, ds, share)
                           + stats.binom.sf(upper - 1, ds, share)
                           + np.where(centre, stats.binom.pmf(ds / 2, ds, share), 0.0))
        total += float(weight @ given)
    return min(max(total, 0.0), 1.0)


_POWER_DOC = """alpha : float, default=0.05
        The level: the test rejects where its p-value is at most ``alpha``.
    exact : bool or "mid-p", default=True
        The test, as :func:`mcnemar_test`'s ``exact``: the exact binomial test (True), the
        mid-p test ("mid-p") or the asymptotic chi-square test (False).
    correction : bool, default=False
        Edwards' continuity correction of the chi-square test (``exact=False``).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": a is more accurate (``difference > 0``), as in :func:`compare_scores`
        and :func:`mcnemar_test` (``pi_12 > pi_21``). One-sided tests are exact or mid-p."""


def _fill(function):
    function.__doc__ = function.__doc__.replace("%(mcnemar)s", _POWER_DOC)
    return function


@validate_params({"n_samples": [Interval(Integral, 1, None)],
                  "difference": [Interval(Real, -1, 1)], "discordance": _SHARE, **_MCNEMAR})
@_fill
def mcnemar_power(n_samples, difference, *, discordance, alpha=0.05, exact=True,
                  correction=False, alternative="two-sided"):
    """The power of McNemar's test to detect an accuracy difference, in closed form.

    Two classifiers are compared on ``n_samples`` test instances with
    :func:`mcnemar_test` (or ``compare_scores(method="mcnemar")``). They disagree in
    correctness on a share ``discordance`` of the instances, and a is more accurate by
    ``difference``. The power is the probability that the test rejects at ``alpha``.

    Parameters
    ----------
    n_samples : int
        The size of the test set.
    difference : float
        The accuracy of a less that of b, ``p_12 - p_21``: ``|difference| <= discordance``.
    discordance : float
        The share of instances where exactly one of the two is right, ``p_12 + p_21``.
    %(mcnemar)s

    Returns
    -------
    float
        The power. At ``difference=0`` it is the test's size (at most ``alpha``).

    See Also
    --------
    minimum_detectable_difference : The smallest difference of a given power.
    required_sample_size : The test set needed for a given difference.
    bootstrap_power : The power of the paired bootstrap, by simulation.

    Notes
    -----
    The number of discordant pairs is ``D ~ B(n, q)`` and, given ``D``, the count of those
    where a is right is ``b ~ B(D, (q + delta) / (2 q))``. The power is
    ``sum_D P[D] P[the test rejects b | D]``, each term the binomial probability of the
    test's rejection region given ``D`` (found from its own p-value formulas). Values of
    ``D`` whose tails are below ``1e-12`` are left out: the power is exact to about
    ``2e-12``, in ``O(sqrt(n))`` terms (``n = 10**7`` is quick). As a function of ``n``
    the power of the exact tests is not monotone (a sawtooth, as the discrete critical
    values change).

    References
    ----------
    .. [1] Fagerland, M. W., Lydersen, S. and Laake, P. (2013). "The McNemar test for
       binary matched-pairs data: mid-p and asymptotic are better than exact
       conditional". BMC Medical Research Methodology, 13, 91 (the power of the tests).
    .. [2] Miettinen, O. S. (1968). "The matched pairs design in the case of all-or-none
       responses". Biometrics, 24(2), 339-352.

    Examples
    --------
    >>> from sklearn_confusion_ext import mcnemar_power
    >>> round(mcnemar_power(1000, 0.02, discordance=0.1), 3)
    0.479
    >>> round(mcnemar_power(5000, 0.02, discordance=0.1), 3)
    0.994
    >>> mcnemar_power(1000, 0.0, discordance=0.1) <= 0.05  # the size
    True
    """
    exact, correction = _test(exact, correction)
    _check_design(difference, discordance, exact, alternative)
    return _power(int(n_samples), float(difference), float(discordance), float(alpha), exact,
                  correction, alternative)


@validate_params({"n_samples": [Interval(Integral, 1, None)],
                  # two models that agree on every instance differ by nothing detectable
                  "discordance": [Interval(Real, 0, 1, closed="right")],
                  "power": [PROBABILITY_LEVEL], **_MCNEMAR})
@_fill
def minimum_detectable_difference(n_samples, *, discordance, power=0.8, alpha=0.05,
                                  exact=True, correction=False, alternative="two-sided"):
    """The smallest accuracy difference McNemar's test detects with a given power.

    Parameters
    ----------
    n_samples : int
        The size of the test set.
    discordance : float
        The share of instances where exactly one of the two classifiers is right, in
        (0, 1] (at 0 the two agree everywhere, and no difference exists to detect).
    power : float, default=0.8
        The power asked for.
    %(mcnemar)s

    Returns
    -------
    float
        The smallest ``|difference|`` (negative for ``alternative="less"``) whose power
        (:func:`mcnemar_power`) is at least ``power``, within ``1e-7 * discordance``; nan,
        with a warning, where even ``|difference| = discordance`` (a right on every
        discordant instance) falls short.

    See Also
    --------
    mcnemar_power : The power of a given difference.
    required_sample_size : The test set needed for a given difference.

    Notes
    -----
    The power grows with ``|difference|`` at a fixed size: the difference is found by
    bisection on ``(0, discordance]``.

    Examples
    --------
    >>> from sklearn_confusion_ext import minimum_detectable_difference
    >>> round(minimum_detectable_difference(1000, discordance=0.1), 4)
    0.0287
    """
    n_samples, discordance, power = int(n_samples), float(discordance), float(power)
    exact, correction = _test(exact, correction)
    _check_design(0.0, discordance, exact, alternative)
    sign = -1.0 if alternative == "less" else 1.0

    def power_of(difference):
        return _power(n_samples, sign * difference, discordance, float(alpha), exact,
                      correction, alternative)

    if power_of(discordance) < power:
        warn(f"No difference reaches power {power:g} with n_samples={n_samples} and "
             f"discordance={discordance:g} (even an accuracy difference equal to the "
             "discordance, a right on every instance where the two differ, falls short): "
             "nan is returned. Use more instances.", RuntimeWarning)
        return math.nan
    low, high = 0.0, discordance
    while high - low > _DIFFERENCE_TOLERANCE * discordance:
        middle = (low + high) / 2
        low, high = (low, middle) if power_of(middle) >= power else (middle, high)
    return sign * high


@validate_params({"difference": [Interval(Real, -1, 0, closed="left"),
                                 Interval(Real, 0, 1, closed="right")],
                  "discordance": _SHARE, "power": [PROBABILITY_LEVEL], **_MCNEMAR})
@_fill
def required_sample_size(difference, *, discordance, power=0.8, alpha=0.05, exact=True,
                         correction=False, alternative="two-sided"):
    """The test-set size McNemar's test needs to detect a difference with a given power.

    Parameters
    ----------
    difference : float
        The accuracy of a less that of b to detect (nonzero, ``|difference| <=
        discordance``; positive for ``alternative="greater"``, negative for "less").
    discordance : float
        The share of instances where exactly one of the two classifiers is right.
    power : float, default=0.8
        The power asked for.
    %(mcnemar)s

    Returns
    -------
    int
        The smallest ``n`` from which the power stays at least ``power`` over the next
        ``window`` sizes (see Notes).

    See Also
    --------
    mcnemar_power : The power at a given size.
    minimum_detectable_difference : The smallest difference detected at a given size.

    Notes
    -----
    The power of the exact tests is not monotone in ``n`` (a sawtooth): a size can reach
    the power and the next one fall short. The rule: the first size reaching the power is
    bracketed by doubling and found by bisection; then the ``window = 10 + ceil(2 /
    discordance)`` (at most 1000) following sizes are checked, and the search moves past
    any that falls short, until a whole window holds the power. Sizes up to ``2**40``
    are searched.

    Examples
    --------
    >>> from sklearn_confusion_ext import required_sample_size, mcnemar_power
    >>> n = required_sample_size(0.02, discordance=0.1)
    >>> n
    2043
    >>> mcnemar_power(n, 0.02, discordance=0.1) >= 0.8
    True
    """
    difference, discordance, power = float(difference), float(discordance), float(power)
    exact, correction = _test(exact, correction)
    _check_design(difference, discordance, exact, alternative)
    if difference == 0 or (alternative == "greater" and difference < 0) or (
            alternative == "less" and difference > 0):
        raise ValueError(
            f"required_sample_size needs a difference the alternative detects: got "
            f"difference={difference!r} with alternative={alternative!r} (a difference of "
            "0 is detected with probability at most alpha at every size; 'greater' needs a "
            "positive difference, 'less' a negative one).")

    def power_at(n):
        return _power(int(n), difference, discordance, float(alpha), exact, correction,
                      alternative)

    # the normal approximation's size, (z_alpha + z_power)^2 discordance / difference^2,
    # refuses at once a search that would run to the largest size (a difference of 1e-300)
    sides = 1 if alternative != "two-sided" else 2
    with np.errstate(divide="ignore", over="ignore"):
        approximate = ((stats.norm.isf(float(alpha) / sides) + stats.norm.ppf(power)) ** 2
                       * discordance / np.float64(difference) ** 2)
    largest = min(_MAX_SAMPLES, 64 * approximate + 10_000)  # beyond: rounding, not data
    if not approximate < 4 * _MAX_SAMPLES:
        raise ValueError(
            f"No test set of up to {_MAX_SAMPLES} instances reaches power={power!r} at "
            f"alpha={alpha!r} for difference={difference!r} and discordance="
            f"{discordance!r} (about {approximate:.3g} instances are needed).")
    high = 1
    while power_at(high) < power:
        if high >= largest:
            raise ValueError(
                f"No test set of up to {high} instances reaches power={power!r} at "
                f"alpha={alpha!r} for difference={difference!r} and discordance="
                f"{discordance!r} (the normal approximation needs about {approximate:.3g}: "
                "a power this close to 1 is beyond the exact test's rounding).")
        high *= 2
    low = high // 2  # power_at(low) < power, or low = 0
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if power_at(middle) >= power else (middle, high)
    window = min(10 + math.ceil(2 / discordance), 1000)
    start = high
    checked = 1
    while checked <= window:
        if power_at(start + checked) < power:
            start, checked = start + checked + 1, 0
            if start > _MAX_SAMPLES:
                raise ValueError(f"No test set of up to {_MAX_SAMPLES} instances holds "
                                 f"power {power:g}.")
            while power_at(start) < power:
                start += 1
        checked += 1
    return int(start)


# --- Simulated power ----------------------------------------------------------------------


@_result(kw_only=True, parameters={
    "power": [Interval(Real, 0, 1)], "standard_error": [Interval(Real, 0, None)],
    "low": [Interval(Real, 0, 1)], "high": [Interval(Real, 0, 1)],
    "n_simulations": [Interval(Integral, 1, None)], "method": [str],
    "alpha": [PROBABILITY_LEVEL], "alternative": ALTERNATIVE,
    "closed_form": [None, Interval(Real, 0, 1)]})
class PowerResult(Result):
    """The power of a test estimated by simulation.

    Built by :func:`bootstrap_power` and :func:`corrected_ttest_power`; every field is
    keyword-only.

    Attributes
    ----------
    power : float
        The share of simulated data sets on which the test rejected.
    standard_error : float
        Its Monte Carlo standard error, ``sqrt(power (1 - power) / n_simulations)``.
    low, high : float
        Its 95% Wilson interval (the Monte Carlo error, not the planning's).
    n_simulations : int
        The number of simulated data sets.
    method : str
        The test simulated.
    alpha : float
        The level.
    alternative : {"two-sided", "greater", "less"}
        Its alternative.
    closed_form : float or None
        The power in closed form where the design has one (the corrected t-test on
        equicorrelated normal fold differences), else None.

    See Also
    --------
    bootstrap_power, corrected_ttest_power : The simulations that give this result.
    mcnemar_power : McNemar's power in closed form.

    Examples
    --------
    >>> from sklearn_confusion_ext import PowerResult
    >>> PowerResult(power=0.8, standard_error=0.013, low=0.77, high=0.82,
    ...             n_simulations=1000, method="bootstrap", alpha=0.05,
    ...             alternative="two-sided")
    PowerResult(power=0.8, standard_error=0.013, low=0.77, high=0.82, n_simulations=1000, \
method='bootstrap', alpha=0.05, alternative='two-sided', closed_form=None)
    """

    _: KW_ONLY
    power: float
    standard_error: float
    low: float
    high: float
    n_simulations: int
    method: str
    alpha: float
    alternative: str
    closed_form: float = None

    confidence_interval = interval_method()


def _power_result(rejected, n_simulations, method, alpha, alternative, closed_form=None):
    power = rejected / n_simulations
    z = stats.norm.isf(0.025)
    centre = (power + z ** 2 / (2 * n_simulations)) / (1 + z ** 2 / n_simulations)
    spread = z / (1 + z ** 2 / n_simulations) * math.sqrt(
        power * (1 - power) / n_simulations + z ** 2 / (4 * n_simulations ** 2))
    return PowerResult(power=float(power),
                       standard_error=math.sqrt(power * (1 - power) / n_simulations),
                       low=max(0.0, centre - spread), high=min(1.0, centre + spread),
                       n_simulations=int(n_simulations), method=method, alpha=float(alpha),
                       alternative=alternative,
                       closed_form=None if closed_form is None else float(closed_form))


def simulate_discordant_counts(rng, n_samples, difference, discordance, size):
    """``(b, c)`` of ``size`` simulated test sets: the instances where only a, and only b,
    is right. Drawn as the counts of ``n_samples`` independent paired correctness
    indicators, (a right, b wrong) with probability ``(q + delta) / 2`` and (a wrong,
    b right) with ``(q - delta) / 2`` (the indicators themselves are never held)."""
    only_a = (discordance + difference) / 2
    only_b = (discordance - difference) / 2
    b = rng.binomial(n_samples, only_a, size=size)
    rest = 1 - only_a
    c = rng.binomial(n_samples - b, 0.0 if rest <= 0 else min(only_b / rest, 1.0))
    return b, c


@validate_params({"n_samples": [Interval(Integral, 1, None)],
                  "difference": [Interval(Real, -1, 1)], "discordance": _SHARE,
                  "alpha": [PROBABILITY_LEVEL], "alternative": ALTERNATIVE,
                  "n_simulations": [Interval(Integral, 1, None)],
                  "n_resamples": [Interval(Integral, 10, None)],
                  "random_state": RANDOM_STATE})
def bootstrap_power(n_samples, difference, *, discordance, alpha=0.05,
                    alternative="two-sided", n_simulations=1000, n_resamples=999,
                    random_state=None):
    """The power of the paired bootstrap test of an accuracy difference, by simulation.

    The test of ``compare_scores(y_true, y_pred_a, y_pred_b, scoring="accuracy",
    method="bootstrap")``: the instances resampled jointly, the p-value from the
    resampled differences shifted to the null.

    Parameters
    ----------
    n_samples : int
        The size of the test set.
    difference : float
        The accuracy of a less that of b, ``|difference| <= discordance``.
    discordance : float
        The share of instances where exactly one of the two is right.
    alpha : float, default=0.05
        The level: the test rejects where its p-value is at most ``alpha``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": a is more accurate.
    n_simulations : int, default=1000
        Simulated test sets.
    n_resamples : int, default=999
        Bootstrap resamples of each (``compare_scores``' ``n_resamples``).
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    PowerResult
        The share of rejections, with its Monte Carlo error.

    See Also
    --------
    mcnemar_power : McNemar's power, in closed form.
    compare_scores : The test simulated.

    Notes
    -----
    The accuracy difference of a test set depends on its paired correctness indicators
    only through ``b`` (a right, b wrong) and ``c`` (the reverse), which are drawn as the
    counts of ``n_samples`` independent indicators; a bootstrap resample of the
    instances draws them again, multinomially. The p-value is ``compare_scores``':
    ``(1 + k) / (1 + B)`` with ``k`` of the ``B`` shifted differences at least as
    extreme as the observed one.

    Examples
    --------
    >>> from sklearn_confusion_ext import bootstrap_power
    >>> result = bootstrap_power(1000, 0.02, discordance=0.1, n_simulations=400, random_state=0)
    >>> result.power, round(mcnemar_power(1000, 0.02, discordance=0.1, exact=False), 3)
    (0.495, 0.519)
    """
    difference, discordance, alpha = float(difference), float(discordance), float(alpha)
    _check_design(difference, discordance, True, alternative)
    rng = np.random.default_rng(random_state)
    n_samples, n_simulations = int(n_samples), int(n_simulations)
    step = resample_block("bootstrap_power", n_simulations, 4 * n_resamples,
                          "the bootstrap differences of one simulated test set",
                          unit="simulation")
    rejected = 0
    for start in range(0, n_simulations, step):
        size = min(step, n_simulations - start)
        b, c = simulate_discordant_counts(rng, n_samples, difference, discordance, size)
        observed = (b - c) / n_samples
        share_b, share_c = b / n_samples, c / n_samples
        b_star = rng.binomial(n_samples, share_b[:, None], size=(size, n_resamples))
        rest = 1 - share_b
        ratio = np.divide(share_c, rest, out=np.zeros(size), where=rest > 0)
        c_star = rng.binomial(n_samples - b_star, np.minimum(ratio, 1.0)[:, None])
        shifted = (b_star - c_star) / n_samples - observed[:, None]
        gamma = 1e-12 * np.maximum(1.0, np.abs(observed))[:, None]
        if alternative == "greater":
            extreme = shifted >= observed[:, None] - gamma
        elif alternative == "less":
            extreme = shifted <= observed[:, None] + gamma
        else:
            extreme = np.abs(shifted) >= np.abs(observed)[:, None] - gamma
        pvalue = np.minimum(1.0, (1 + extreme.sum(axis=1)) / (1 + n_resamples))
        rejected += int(np.sum(pvalue <= alpha))
    return _power_result(rejected, n_simulations, "bootstrap", alpha, alternative)


@validate_params({"difference": [Interval(Real, None, None)],
                  "std": [Interval(Real, 0, None, closed="neither")],
                  "n_folds": [Interval(Integral, 2, None)],
                  "n_train": [Interval(Real, 0, None, closed="neither")],
                  "n_test": [Interval(Real, 0, None, closed="neither")],
                  "correlation": [None, Interval(Real, 0, 1, closed="left")],
                  "alpha": [PROBABILITY_LEVEL], "alternative": ALTERNATIVE,
                  "n_simulations": [Interval(Integral, 1, None)],
                  "random_state": RANDOM_STATE})
def corrected_ttest_power(difference, std, *, n_folds=10, n_train=9, n_test=1,
                          correlation=None, alpha=0.05, alternative="two-sided",
                          n_simulations=1000, random_state=None):
    """The power of the corrected resampled t-test across folds, by simulation.

    The test of ``compare_cv_scores(scores_a, scores_b, method="corrected_ttest",
    n_train=n_train, n_test=n_test)`` (Nadeau and Bengio 2003) on ``n_folds`` per-fold
    differences of mean ``difference`` and standard deviation ``std``, correlated across
    folds (their training sets overlap).

    Parameters
    ----------
    difference : float
        The expected per-fold score difference (a less b).
    std : float
        The standard deviation of one fold's difference.
    n_folds : int, default=10
        The number of folds, ``n_splits * n_repeats``.
    n_train, n_test : float, default=9 and 1
        The training and test sizes of a fold (only ``n_test / n_train`` enters).
    correlation : float in [0, 1), default=None
        The correlation of two folds' differences; None: ``n_test / (n_train + n_test)``,
        Nadeau and Bengio's, under which the test holds its level.
    alpha : float, default=0.05
        The level: the test rejects where its p-value is at most ``alpha``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
    n_simulations : int, default=1000
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    PowerResult
        The share of rejections, and ``closed_form``: the power in closed form.

    See Also
    --------
    compare_cv_scores : The test simulated.
    mcnemar_power : Two models on one test set.

    Notes
    -----
    The differences are drawn equicorrelated normal, ``d_j = delta + sigma (sqrt(rho) Z_0
    + sqrt(1 - rho) Z_j)``. Then the mean and the sample variance are independent,
    ``t = m / sqrt((1/J + r) s^2)`` (``r = n_test / n_train``) is ``c`` times a
    noncentral t with ``J - 1`` degrees of freedom and noncentrality ``delta / (sigma
    sqrt(rho + (1 - rho) / J))``, ``c = sqrt((1/J + rho / (1 - rho)) / (1/J + r))``: the
    closed form the simulation is checked against (``c = 1`` at the default
    correlation).

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the Generalization Error", Machine
       Learning 52(3), 239-281, 2003.

    Examples
    --------
    >>> from sklearn_confusion_ext import corrected_ttest_power
    >>> result = corrected_ttest_power(0.01, 0.02, n_folds=100, random_state=0)
    >>> round(result.closed_form, 3), abs(result.power - result.closed_form) < 0.05
    (0.323, True)
    """
    difference, std, alpha = float(difference), float(std), float(alpha)
    with np.errstate(over="ignore", divide="ignore"):
        ratio = float(np.float64(n_test) / np.float64(n_train))
    rho = float(n_test) / (float(n_train) + float(n_test)) if correlation is None \
        else float(correlation)
    if not (np.isfinite(ratio) and rho < 1 - 1e-12):
        raise ValueError(
            f"corrected_ttest_power: n_test={n_test!r} beside n_train={n_train!r} makes the "
            f"folds' correlation {rho:.6g} and the variance's correction n_test/n_train "
            f"{ratio:.6g}: with folds (nearly) perfectly correlated, no number of folds "
            "tells the models apart; pass sizes of comparable order.")
    n_folds, n_simulations = int(n_folds), int(n_simulations)
    rng = np.random.default_rng(random_state)
    step = resample_block("corrected_ttest_power", n_simulations, n_folds + 1,
                          "the fold differences of one simulation", unit="simulation")
    critical = {"two-sided": stats.t.isf(alpha / 2, n_folds - 1),
                "greater": stats.t.isf(alpha, n_folds - 1),
                "less": stats.t.isf(alpha, n_folds - 1)}[alternative]
    with np.errstate(over="ignore", divide="ignore"):
        effect = float(np.clip(np.float64(difference) / np.float64(std), -1e12, 1e12))
    with np.errstate(over="ignore", divide="ignore"):
        effect = float(np.clip(np.float64(difference) / np.float64(std), -1e12, 1e12))
    rejected = 0
    for start in range(0, n_simulations, step):
        size = min(step, n_simulations - start)
        shared = rng.standard_normal((size, 1))
        own = rng.standard_normal((size, n_folds))
        # the statistic is scale-free: fold differences in units of std, the effect held
        # within +-1e12 (beyond, every simulated statistic is past any bound alike)
        d = effect + (math.sqrt(rho) * shared + math.sqrt(1 - rho) * own)
        mean = d.mean(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = mean / np.sqrt(d.var(axis=1, ddof=1) * (1 / n_folds + ratio))
        pvalue = {"greater": stats.t.sf(t, n_folds - 1), "less": stats.t.cdf(t, n_folds - 1),
                  "two-sided": np.minimum(1.0, 2 * stats.t.sf(np.abs(t), n_folds - 1))
                  }[alternative]
        rejected += int(np.sum(pvalue <= alpha))
    closed = _corrected_ttest_closed_form(difference, std, n_folds, ratio, rho, critical,
                                          alternative)
    return _power_result(rejected, n_simulations, "corrected_ttest", alpha, alternative,
                         closed)


def _corrected_ttest_closed_form(difference, std, n_folds, ratio, rho, critical, alternative):
    df = n_folds - 1
    with np.errstate(over="ignore"):
        noncentrality = float(np.float64(difference) / np.float64(std)
                              / math.sqrt(rho + (1 - rho) / n_folds))
    scale = math.sqrt((1 / n_folds + rho / (1 - rho)) / (1 / n_folds + ratio))
    bound = critical / scale
    if not abs(noncentrality) < 1e6:  # scipy's noncentral t gives nan far out: the
        # statistic is beyond any bound on the difference's side
        upper, lower = float(noncentrality > 0), float(noncentrality < 0)
    else:
        upper = float(stats.nct.sf(bound, df, noncentrality))
        lower = float(stats.nct.cdf(-bound, df, noncentrality))
    power = {"greater": upper, "less": lower, "two-sided": upper + lower}[alternative]
    return min(max(power, 0.0), 1.0)
