"""The bounds of an interval: from resampled values (percentile, BCa), of a proportion
(Wilson), and what every interval does at the boundary.

The percentile and BCa bounds follow :func:`scipy.stats.bootstrap`'s definitions.

Accuracy, precision, recall and F-beta (per class, micro, macro or weighted, of any matrix
kind) are proportions: ``successes / trials`` with ``successes`` the diagonal mass and
``trials`` the mass of the row (recall), of the column (precision), of the matrix
(accuracy) or ``(beta^2 row + column) / (1 + beta^2)`` (F-beta, whose value is
``tp / trials``). A class that is 100 % right is a proportion at its bound, and there the
resampling methods see nothing to vary: every resample of a perfect row is perfect, so the
bootstrap, BCa and the Bayesian bootstrap give a point, and the delta method a standard
error of 0. The data never show the errors a finite sample can miss.

:func:`honest_bounds` is the one rule every interval of the library follows there: a
value whose resampled distribution is a single value (or whose standard error is 0) is
*degenerate*; it warns, and a proportion's interval becomes Wilson's score interval of its
``trials`` (which, at 0 or 1, is the only end that moves: [n / (n + z^2), 1] for ``n`` of
``n`` right). Averages get the effective number of trials of their variance: ``C^2 /
sum_k 1 / n_k`` for the macro average of ``C`` classes (the harmonic mean times C),
``1 / sum_k w_k^2 / n_k`` for weights ``w_k`` summing to 1, the pooled trials for micro.
The bounds of a proportion never leave [0, 1]. The coverage this gives, simulated, is in
the user guide's uncertainty page.
"""

import warnings

import numpy as np
from scipy import special, stats

from .user_warnings import DegenerateIntervalWarning, warn

# The readings whose value is a proportion, and the rows of their trials.
PROPORTIONS = ("accuracy", "precision", "recall", "f1")


def percentile_interval(distribution, alpha):
    """Equal-tailed bounds; a score undefined in every resample (NaN) has NaN bounds."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns
        return (np.nanpercentile(distribution, 100 * alpha / 2, axis=0),
                np.nanpercentile(distribution, 100 * (1 - alpha / 2), axis=0))


def bca_interval(distribution, estimate, jackknife, multiplicity, alpha):
    """scipy.stats.bootstrap's BCa bounds, with a jackknife whose values have
    multiplicities (cells of 1-D labels)."""
    below = (np.sum(distribution < estimate, axis=0) + np.sum(distribution <= estimate, axis=0))
    n = distribution.shape[0]
    proportion = np.clip(below / (2 * n), 0.5 / n, 1 - 0.5 / n)
    z0 = special.ndtri(proportion)
    weights = multiplicity.reshape((-1,) + (1,) * (jackknife.ndim - 1))
    mean = np.sum(weights * jackknife, axis=0) / weights.sum()
    spread = mean - jackknife
    numerator = np.sum(weights * spread ** 3, axis=0)
    denominator = 6 * np.sum(weights * spread ** 2, axis=0) ** 1.5
    acceleration = np.divide(numerator, denominator, out=np.zeros_like(numerator),
                             where=denominator > 0)
    bounds = []
    for z in (special.ndtri(alpha / 2), special.ndtri(1 - alpha / 2)):
        level = special.ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
        bounds.append(percentiles_by_column(distribution, 100 * level))
    return bounds


def percentiles_by_column(distribution, levels):
    """Percentile ``levels[j]`` of column ``j`` (one level for a 1-D distribution)."""
    if distribution.ndim == 1:
        return np.nanpercentile(distribution, float(levels))
    return np.array([np.nanpercentile(distribution[:, j], levels[j])
                     for j in range(distribution.shape[1])])


def wilson(successes, trials, alpha):
    """Wilson's score interval of a binomial proportion, with Brown, Cai and DasGupta's
    (2001) modification near 0 and 1, and the proportion's standard error; NaN where
    there are no trials (the caller applies the zero_division policy).

    Wilson's interval covers poorly one or two successes (or failures) from a bound:
    at a true rate of 0.99, 9 of 10 right gives [0.60, 0.982], and the coverage of 10
    trials is 90 %. Brown, Cai and DasGupta replace that end, for ``x`` = 1 to ``x*``
    successes (failures) with ``x*`` = 2 up to 50 trials and 3 above, by the Poisson
    bound ``chi2_{2x}(alpha) / (2 n)`` (one minus it near 1), which gives at least 93 %
    at 95 % for 10 to 300 trials and rates 0.90 to 1. The bounds lie in [0, 1], equal to
    the bound at 0 of n or n of n."""
    z = special.ndtri(1 - alpha / 2)
    trials = np.asarray(trials, dtype=float)
    some = trials > 0
    # Fewer than 1e-12 effective trials (a class of subnormal masses) are as good as none
    # for Wilson's terms (z^2 / n overflows); they read as 1e-12, the interval [0, 1].
    trials = np.where(some, np.maximum(trials, 1e-12), trials)
    safe = np.where(some, trials, 1.0)
    successes = np.clip(np.asarray(successes, dtype=float), 0.0, safe)
    # A proportion read off sums of masses rounds within a few units of the last place of
    # its bounds (n of n right reads 1 - 2**-53): at its bound it is at its bound.
    rounding = 16 * np.finfo(float).eps * safe
    successes = np.where(safe - successes <= rounding, safe,
                         np.where(successes <= rounding, 0.0, successes))
    rate = successes / safe
    centre = (rate + z ** 2 / (2 * safe)) / (1 + z ** 2 / safe)
    half = z / (1 + z ** 2 / safe) * np.sqrt(rate * (1 - rate) / safe
                                             + z ** 2 / (4 * safe ** 2))
    se = np.sqrt(rate * (1 - rate) / safe)
    low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    near = np.where(safe <= 50, 2.0, 3.0)
    for count, side in ((successes, "low"), (safe - successes, "high")):
        modified = (count >= 1) & (count <= near)
        if modified.any():
            # chi2.ppf of the modified entries only (a curve of 10**6 points has a few)
            count, scale, modified = np.broadcast_arrays(count, 2 * safe, modified)
            poisson = np.full(modified.shape, np.nan)
            poisson[modified] = stats.chi2.ppf(alpha, 2 * count[modified]) / scale[modified]
            # The Poisson end widens Wilson's (at any level: never past its other end).
            if side == "low":
                low = np.where(modified, np.fmin(low, poisson), low)
            else:
                high = np.where(modified, np.fmax(high, 1 - poisson), high)
    low, high = np.where(rate == 0, 0.0, low), np.where(rate == 1, 1.0, high)
    return tuple(np.where(some, x, np.nan) for x in (low, high, se))


def _class_trials(matrix, reading, beta, classes):
    """Each class's true positives, trials and true mass (precision, recall, F-beta)."""
    rows, columns = matrix.sum(axis=1)[classes], matrix.sum(axis=0)[classes]
    if reading == "recall":
        trials = rows
    elif reading == "precision":
        trials = columns
    else:
        beta2 = min(float(beta) * float(beta), 1e300)
        trials = (beta2 / (1 + beta2)) * rows + columns / (1 + beta2)
    return np.diagonal(matrix)[classes], trials, rows


def proportion_trials(matrix, reading, *, beta=1.0, average=None, classes=None,
                      pooled=None):
    """The trials of a proportion read off ``matrix`` (its value is ``tp / trials``):
    one per class of ``classes`` (positions; default all) for ``average=None``, else one
    number, the effective trials of the average (micro pools the classes of ``pooled``,
    default ``classes``). ``reading`` is one of :data:`PROPORTIONS`."""
    matrix = np.asarray(matrix, dtype=float)
    classes = np.arange(len(matrix)) if classes is None else np.asarray(classes)
    if reading == "accuracy":
        return np.float64(matrix[np.ix_(classes, classes)].sum())
    if average == "micro":
        chosen = classes if pooled is None else np.asarray(pooled)
        _, trials, _ = _class_trials(matrix, reading, beta, chosen)
        return np.float64(trials.sum())
    _, trials, rows = _class_trials(matrix, reading, beta, classes)
    if average is None:
        return trials
    defined = trials > 0
    if not defined.any():
        return np.float64(0.0)
    if average == "weighted" and rows[defined].sum() > 0:
        weights = np.where(defined, rows, 0.0) / rows[defined].sum()
    else:
        weights = defined / np.count_nonzero(defined)
    with np.errstate(over="ignore"):  # a class of subnormal mass: no trials to speak of
        return np.float64(1.0 / np.sum(weights[defined] ** 2 / trials[defined]))


def effective_trials(trials, sample_weight):
    """Trials in masses of ``sample_weight`` as effective instances (Kish's design effect:
    ``sum(w) / sum(w^2)`` instances per unit of mass), so that weights scaled by a
    constant give the same interval; ``trials`` as they are without weights."""
    if sample_weight is None:
        return trials
    weights = np.asarray(sample_weight, dtype=float)
    largest = weights.max(initial=0.0)
    if largest <= 0:
        return trials
    units = weights / largest  # in (0, 1]: no overflow nor underflow of the squares
    per_mass = units.sum() / (units @ units) / largest
    with np.errstate(over="ignore"):
        return np.asarray(trials, dtype=float) * per_mass


def average_at_bound(matrix, reading, *, beta=1.0, average=None, classes=None):
    """Whether an average (macro or weighted) of ``reading`` reads a class at 0 or 1: a
    class at its bound adds nothing to the average's resampled spread, nor to the delta
    method's variance."""
    if reading == "accuracy" or average not in ("macro", "weighted"):
        return False
    matrix = np.asarray(matrix, dtype=float)
    classes = np.arange(len(matrix)) if classes is None else np.asarray(classes)
    tp, trials, _ = _class_trials(matrix, reading, beta, classes)
    defined = trials > 0
    return bool(np.any(defined & ((tp <= 0) | (tp >= trials))))


def honest_bounds(estimate, low, high, trials, alpha, owner, what, widen=False, shown=None):
    """``(low, high, replaced)``: the bounds of a score's interval, made honest where it
    is least so, at the bounds of a proportion.

    - Where an interval is a point (its ends equal up to their rounding, a few units in
      the last place), one warning names ``owner`` and ``what`` (the score); a
      proportion's interval becomes Wilson's of ``estimate * trials`` successes in
      ``trials`` (None: the score is no proportion, its point is kept).
    - Where a proportion's interval passes its bounds (the basic bootstrap's reflection,
      the delta method's normal interval, of a skewed distribution near 0 or 1), and where
      ``widen`` (an average that reads a class at its bound: :func:`average_at_bound`),
      it reaches at least as far as Wilson's interval on either side.
    - A proportion's bounds are clipped to [0, 1].

    A point comes from resamples that (nearly) never vary: every resample of a class 100 %
    right is 100 % right, but for the rare resample that draws none of its instances.

    ``shown``: where only some values are printed (a report's accuracy row shows one of
    the micro average's three equal scores), the name of each printed value (an array of
    ``estimate``'s shape, None where it is not printed): the warning counts and names the
    printed values only."""
    estimate = np.asarray(estimate, dtype=float)
    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
    with np.errstate(invalid="ignore", over="ignore"):
        rounding = 16 * np.finfo(float).eps * np.maximum(np.abs(low), np.abs(high))
        degenerate = np.isfinite(estimate) & (np.abs(high - low) <= rounding)
    if 1 - alpha < 1e-9:  # a confidence level of (nearly) 0 asks for a point
        degenerate = np.zeros(np.shape(estimate), dtype=bool)
    replaced = np.zeros(np.shape(estimate), dtype=bool)
    if trials is not None:  # no trials: undefined, its zero_division value (warned)
        trials = np.broadcast_to(np.asarray(trials, dtype=float), np.shape(estimate))
        degenerate &= trials > 0
        replaced = degenerate
        passes = (low < 0) | (high > 1) | np.asarray(widen, dtype=bool)
        hull = passes & ~replaced & (trials > 0) & np.isfinite(estimate)
        if replaced.any() or hull.any():
            w_low, w_high, _ = wilson(estimate * trials, trials, alpha)
            low = np.where(replaced, w_low, np.where(hull, np.fmin(low, w_low), low))
            high = np.where(replaced, w_high, np.where(hull, np.fmax(high, w_high), high))
        low, high = np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)
    printed = np.ones(np.shape(estimate), dtype=bool) if shown is None else \
        np.not_equal(np.asarray(shown, dtype=object), None)
    if (degenerate & printed).any():
        said = np.atleast_1d(degenerate & printed)
        count = int(np.count_nonzero(said))
        values = sorted({f"{v:.4g}" for v in np.atleast_1d(estimate)[said]})
        cells = "" if shown is None else " ({}{})".format(
            ", ".join(map(str, np.atleast_1d(np.asarray(shown, dtype=object))[said][:6])),
            ", ..." if count > 6 else "")
        n_values = int(np.count_nonzero(printed))
        head = (f"{owner}: the interval of {what} is a single point "
                f"({', '.join(values[:3])}{', ...' if len(values) > 3 else ''})"
                + (f" for {count} of its {n_values} values{cells}" if n_values > 1 else "")
                + ": its resamples do not vary")
        if replaced.any():
            warn(f"{head} (no error, or no success, in the data, which a finite sample "
                 "can miss); its interval is Wilson's score interval of its trials "
                 "instead.", DegenerateIntervalWarning)
        else:
            warn(f"{head}, and the point says nothing of the uncertainty; use more "
                 "data, or a score that varies.", DegenerateIntervalWarning)
    return low, high, replaced
