"""One classifier's score within subgroups of its test instances (sites, age bands, sexes):
each subgroup's score with its interval, its difference from the rest of the instances
with a test corrected for the number of subgroups, whether the subgroup is too small to
tell a given difference, and its confusion matrix.

On 1-D class labels an instance adds one (its frequency) to the cell of its (true,
predicted) pair, so every subgroup's full confusion matrix is one grouped sum over the
instances (``numpy.bincount`` of subgroup x cell), and each bootstrap resample of a
subgroup, or of the rest, draws its cells from a multinomial: no resample touches the
instances, and the work per subgroup does not grow with the test set. The subgroup and the
rest are two independent samples, each resampled within itself (the stratified bootstrap
of Efron and Tibshirani, Chapter 16.2: two-sample problems).
"""

import warnings
from numbers import Real

import numpy as np
from scipy import special

from .._core.bounds import honest_bounds, percentile_interval
from .._core.config import check_result_size, resample_block
from .._core.params import (
    ARRAY,
    CALLABLE,
    CONFIDENCE_LEVEL,
    N_RESAMPLES,
    PROBABILITY_LEVEL,
    RANDOM_STATE,
    Interval,
    NaN,
    validate_params,
)
from .._core.results import Result, _result, _Table, interval_method
from .._core.subgroups import subgroup_codes
from .._core.user_warnings import warn
from .._scores.resolved import _data, _resolve_score
from .intervals import _proportion
from .paired import _tail_pvalue
from .several_models import _frequencies
from .table_tests import CORRECTION, _correct

# The columns of SubgroupResult's table, in order (the attributes of the same names).
_COLUMNS = ("size", "estimate", "low", "high", "difference", "difference_low",
            "difference_high", "pvalue", "pvalue_corrected", "significant",
            "detectable_difference", "too_small")


@_result(parameters={
    "subgroups": [tuple], "size": [ARRAY], "estimate": [ARRAY], "low": [ARRAY],
    "high": [ARRAY], "difference": [ARRAY], "difference_low": [ARRAY],
    "difference_high": [ARRAY], "pvalue": [ARRAY], "pvalue_corrected": [ARRAY],
    "detectable_difference": [ARRAY], "too_small": [None, ARRAY],
    "confusion_matrices": [ARRAY], "display_labels": [ARRAY],
    "overall": [Interval(Real, None, None), NaN()], "score": [None, str],
    "confidence_level": [CONFIDENCE_LEVEL], "correction": CORRECTION,
    "alpha": [PROBABILITY_LEVEL], "min_difference": [None, Interval(Real, 0, None)],
    "power": [PROBABILITY_LEVEL], "n_resamples": [Interval(Real, 0, None)]},
    kw_only=True)
class SubgroupResult(Result):
    """Result of :func:`score_by_subgroup`: one row per subgroup.

    It does not unpack: read its attributes, ``low, high = result.confidence_interval()``
    (the subgroups' intervals, arrays), or ``to_frame()`` (one row per subgroup,
    the columns ``size``, ``estimate``, ``low``, ``high``, ``difference``,
    ``difference_low``, ``difference_high``, ``pvalue``, ``pvalue_corrected``,
    ``significant``, ``detectable_difference``, ``too_small``). Every field is
    keyword-only.

    Attributes
    ----------
    subgroups : tuple
        The subgroups' labels, sorted (a pandas Categorical: its categories, in order).
    size : ndarray of shape (n_subgroups,)
        The (weighted) number of instances of each subgroup; 0 for an empty category.
    estimate, low, high : ndarray of shape (n_subgroups,)
        Each subgroup's score and its percentile bootstrap interval (NaN for an empty
        subgroup).
    difference, difference_low, difference_high : ndarray of shape (n_subgroups,)
        The subgroup's score minus the score of the rest of the instances, and its
        interval.
    pvalue : ndarray of shape (n_subgroups,)
        The two-sided permutation p-value of "the subgroup's instances are like the
        rest's" (its difference from the rest among those of random subsets of its size).
    pvalue_corrected : ndarray of shape (n_subgroups,)
        After the correction ``correction`` over the non-empty subgroups.
    significant : ndarray of bool
        ``pvalue_corrected < alpha``.
    detectable_difference : ndarray of shape (n_subgroups,)
        The smallest difference from the rest that the corrected test detects with
        probability ``power`` at the subgroup's size (normal approximation from the
        standard deviation of the permutation differences).
    too_small : ndarray of bool or None
        ``detectable_difference > min_difference``: the subgroup is too small to tell a
        difference of ``min_difference``; None without ``min_difference``.
    confusion_matrices : ndarray of shape (n_subgroups, n_classes, n_classes)
        Each subgroup's confusion matrix (rows: true classes), over the classes of all the
        data (``display_labels``).
    display_labels : ndarray
        The classes of the matrices' rows and columns.
    overall : float
        The score on all the instances.
    score : str or None
        The score's name.
    confidence_level : float
        The level of the intervals.
    correction : {"holm", "bonferroni", "fdr_bh"} or None
        The multiplicity correction of ``pvalue_corrected``.
    alpha : float
        The level of ``significant`` and of the detectable differences.
    min_difference : float or None
        The difference of ``too_small``.
    power : float
        The power of ``detectable_difference``.
    n_resamples : float
        The resamples of each subgroup.

    See Also
    --------
    score_by_subgroup : The function that gives this result.
    SubgroupIntervalDisplay : Its intervals, drawn.

    Examples
    --------
    >>> from sklearn_confusion_ext import score_by_subgroup
    >>> y_true = [0, 1] * 40
    >>> y_pred = [0, 1] * 27 + [1, 0] * 3 + [0, 1] * 5 + [1, 0] * 5
    >>> result = score_by_subgroup(y_true, y_pred, subgroups=["a"] * 60 + ["b"] * 20,
    ...                            scoring="accuracy", random_state=0)
    >>> result.estimate.tolist(), result.size.tolist(), result.significant.tolist()
    ([0.9, 0.5], [60.0, 20.0], [True, True])
    >>> result.confusion_matrices[1].tolist()
    [[5.0, 5.0], [5.0, 5.0]]
    >>> low, high = result.confidence_interval()
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.817, 0.3], [0.967, 0.7])
    """

    subgroups: tuple
    size: object
    estimate: object
    low: object
    high: object
    difference: object
    difference_low: object
    difference_high: object
    pvalue: object
    pvalue_corrected: object
    detectable_difference: object
    too_small: object = None
    confusion_matrices: object
    display_labels: object
    overall: float
    score: str = None
    confidence_level: float = 0.95
    correction: object = "holm"
    alpha: float = 0.05
    min_difference: float = None
    power: float = 0.8
    n_resamples: float = 0

    confidence_interval = interval_method()
    _summary_fields = ("score", "overall", "n_subgroups", "n_significant", "n_too_small",
                       "correction", "confidence_level")

    @property
    def n_subgroups(self):
        """The number of subgroups (rows)."""
        return len(self.subgroups)

    @property
    def significant(self):
        """Where the corrected p-value is below ``alpha``."""
        return np.asarray(self.pvalue_corrected) < self.alpha

    @property
    def n_significant(self):
        return int(np.count_nonzero(self.significant))

    @property
    def n_too_small(self):
        return None if self.too_small is None else int(np.count_nonzero(self.too_small))

    def _table(self):
        columns = {}
        for name in _COLUMNS:
            value = getattr(self, name)
            if value is None:
                continue
            columns[name] = np.asarray(value)
        return _Table("subgroup", list(self.subgroups), columns)


@validate_params({
    "y_true": [ARRAY], "y_pred": [ARRAY], "subgroups": [ARRAY],
    "scoring": [str, CALLABLE], "confidence_level": [CONFIDENCE_LEVEL],
    "n_resamples": N_RESAMPLES, "sample_weight": [None, ARRAY],
    "correction": CORRECTION, "alpha": [PROBABILITY_LEVEL],
    "min_difference": [None, Interval(Real, 0, None, closed="neither")],
    "power": [PROBABILITY_LEVEL], "random_state": RANDOM_STATE})
def score_by_subgroup(y_true, y_pred, *, subgroups, scoring="accuracy",
                      confidence_level=0.95, n_resamples=9999, sample_weight=None,
                      correction="holm", alpha=0.05, min_difference=None, power=0.8,
                      random_state=None, **score_params):
    """A classifier's score in each subgroup of its instances, and how each differs from
    the rest.

    For each subgroup (a site, an age band, a sex): its score with a percentile bootstrap
    interval; the difference between its score and the score of the rest of the
    instances, with its bootstrap interval and its two-sided permutation p-value,
    corrected for the number of subgroups (Holm by default); the smallest difference the
    corrected test would detect at the subgroup's size, and whether that is above
    ``min_difference`` (the subgroup is too small to tell); and its confusion matrix.

    ``subgroups`` names who the instances are, for a report by subgroup; it is not
    :func:`score_confidence_interval`'s ``groups``, the clusters of dependent instances
    resampled together.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels.
    subgroups : array-like of shape (n_samples,)
        The subgroup of each instance: numbers, strings, or a pandas Categorical (whose
        unused categories are reported as empty subgroups, see Notes). Missing labels
        (NaN, None) are refused.
    scoring : str or callable, default="accuracy"
        The score, as in :func:`score_confidence_interval`: a name of this library
        (``"tcm_accuracy"``, ``"tcm_f1_macro"``...) or of scikit-learn (``"accuracy"``,
        ``"balanced_accuracy"``, ``"f1_macro"``, ``"matthews_corrcoef"``...), or a metric
        this library reads off the confusion matrix (``sklearn.metrics.f1_score``...), with
        one value. It is read off each subgroup's matrix over the classes of all the data
        (as if ``labels=`` named them).
    confidence_level : float, default=0.95
        Of the subgroups' intervals and of the differences' intervals.
    n_resamples : int, default=9999
        Bootstrap resamples of each subgroup and of its rest.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequencies (non-negative integers): an instance of weight ``w`` counts as ``w``
        instances (the resamples draw instances). Other weights are refused.
    correction : {"holm", "bonferroni", "fdr_bh", None}, default="holm"
        The correction of the p-values over the non-empty subgroups, as in
        :func:`cochran_q_test` (its ``method``).
    alpha : float, default=0.05
        The level of ``significant`` and of the detectable differences.
    min_difference : float, default=None
        The difference from the rest that matters (in the score's units): a subgroup
        whose detectable difference is above it is flagged ``too_small``. None: no flag.
    power : float, default=0.8
        The probability of detection of ``detectable_difference``.
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the resamples: each subgroup draws from a stream of its own (a
        ``numpy.random.SeedSequence`` child), so the numbers do not depend on the memory
        budget.
    **score_params
        Keywords of the score (``average="macro"``...).

    Returns
    -------
    SubgroupResult
        One row per subgroup (``to_frame()``), with the confusion matrices.

    Warns
    -----
    DegenerateIntervalWarning
        Where a subgroup's resampled scores never vary (one instance, or a subgroup all
        right): a proportion's interval is then Wilson's of the subgroup's trials (wide
        for one instance, never a point); another score's is NaN.
    UserWarning
        Once for the empty subgroups (unused categories), reported with size 0 and NaN.

    See Also
    --------
    score_confidence_interval : One score's interval.
    compare_scores : Two classifiers on the same instances.
    minimum_detectable_difference : The same question for the paired McNemar test.
    SubgroupIntervalDisplay : The subgroups' intervals, drawn.

    Notes
    -----
    The subgroup ``g`` of ``n_g`` instances and its rest (the other ``N - n_g``) are two
    independent samples: each resample draws ``n_g`` instances of ``g`` and ``N - n_g``
    of the rest (multinomially over their confusion cells), and the difference is the
    score of the one minus the score of the other: its percentile interval. The p-value
    is a permutation test's: ``n_g`` instances drawn without replacement from all of them
    (a multivariate hypergeometric draw of the confusion cells) against the others give
    the null differences, and the p-value is ``(1 + k) / (1 + B)`` with ``k`` of the ``B``
    null differences at least as far from 0 as the observed one. It holds its level at
    any subgroup size, one instance included, where the bootstrap's shifted differences
    (which never vary within a one-instance subgroup) would reject every time. The
    detectable difference is ``(z_{1 - a / 2} + z_{power}) sd``, with ``sd`` the standard
    deviation of the null differences and ``a`` the level after the correction's first step,
    ``alpha / m`` over ``m`` non-empty subgroups (``alpha`` with ``correction=None``): the
    normal approximation of the test's power, as in :func:`minimum_detectable_difference`
    for paired tests. The user guide ("Subgroups") gives the type I error of the corrected
    test and the coverage of the intervals by simulation.

    Empty subgroups (the unused categories of a pandas Categorical) are reported with
    size 0, NaN scores and p-values, and one warning; they take no part in the
    correction. A subgroup of one instance has a score of 0 or 1 (for accuracy) whose
    resamples never vary: its interval is Wilson's of one trial, and its difference's
    interval reaches from that interval's ends to the rest's. A subgroup that holds every
    instance has no rest: its difference is NaN.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
       Chapman & Hall, Chapters 13 (percentile intervals), 15 (permutation tests) and 16
       (two-sample bootstrap).
    .. [2] Holm, S. (1979). "A simple sequentially rejective multiple test procedure".
       Scandinavian Journal of Statistics, 6(2), 65-70.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import score_by_subgroup
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, 600)
    >>> site = np.repeat(["north", "south", "east"], 200)
    >>> right = rng.random(600) < np.repeat([0.9, 0.9, 0.7], 200)
    >>> y_pred = np.where(right, y_true, 1 - y_true)
    >>> result = score_by_subgroup(y_true, y_pred, subgroups=site, n_resamples=999,
    ...                            min_difference=0.1, random_state=0)
    >>> result.subgroups
    ('east', 'north', 'south')
    >>> result.to_frame()[["size", "estimate", "difference", "significant"]].round(3)
    ... # doctest: +NORMALIZE_WHITESPACE
               size  estimate  difference  significant
    subgroup
    east      200.0     0.655      -0.272         True
    north     200.0     0.920       0.125         True
    south     200.0     0.935       0.148         True
    """
    owner = "score_by_subgroup"
    confidence_level, alpha, power = float(confidence_level), float(alpha), float(power)
    min_difference = None if min_difference is None else float(min_difference)
    level = 1 - confidence_level
    if np.ndim(y_true) != 1 or np.ndim(y_pred) != 1:
        raise ValueError(f"{owner} reads 1-D class labels; got y_true and y_pred of "
                         f"{np.ndim(y_true)} and {np.ndim(y_pred)} dimensions.")
    resolved = _resolve_score(scoring, None, dict(score_params), owner)
    data = _data(resolved, y_true, y_pred, None)
    if data.cells is None:
        raise ValueError(f"{owner} reads each subgroup's score off its confusion matrix; "
                         f"scoring={resolved.name!r} is not a score of the matrix of 1-D "
                         "labels. Use a name such as 'accuracy', 'balanced_accuracy', "
                         "'f1_macro' or 'tcm_f1_macro'.")
    n_samples = len(data.instance_cells())
    codes, names, n_empty = subgroup_codes(subgroups, n_samples)
    n_groups = len(names)
    if n_groups < 2:
        raise ValueError(f"subgroups holds {n_groups} subgroup(s); a subgroup is compared "
                         "with the rest of the instances, so give at least 2.")
    weight = _frequencies(sample_weight, n_samples, owner)
    shape = data.confusion.matrix.shape
    n_cells = data.confusion.matrix.size
    check_result_size(owner, (n_groups, n_cells),
                      f"{n_groups} subgroups' confusion matrices of {n_cells} cells",
                      "Pass fewer subgroups")
    # every subgroup's full matrix in one grouped sum over the instances
    counts = np.bincount(codes * n_cells + data.instance_cells(), weights=weight,
                         minlength=n_groups * n_cells).reshape(n_groups, n_cells)
    counts = np.rint(counts)
    total = counts.sum(axis=0)
    size = counts.sum(axis=1)
    n_total = float(total.sum())
    rest = total - counts
    empty = size == 0
    if empty.any():
        shown = [names[g] for g in np.flatnonzero(empty)[:5]]
        warn(f"{owner}: {int(empty.sum())} subgroup(s) have no instance ({shown}"
             f"{'...' if empty.sum() > 5 else ''}"
             f"{'; unused categories of subgroups' if n_empty else ''}): they are reported "
             "with size 0 and NaN scores, and take no part in the correction.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined scores take their zero_division value
        overall = float(data.of_full_counts(total[None])[0])
        estimate = np.full(n_groups, np.nan)
        estimate[~empty] = data.of_full_counts(counts[~empty])
        rest_estimate = np.full(n_groups, np.nan)
        has_rest = size < n_total
        rest_estimate[has_rest] = data.of_full_counts(rest[has_rest])
    difference = estimate - rest_estimate
    block = resample_block(owner, n_resamples, 4 * n_cells,
                           f"a subgroup's and its rest's matrices of {n_cells} cells")
    # three streams a subgroup (its resamples, its rest's, its null draws): the same
    # numbers whatever the blocks
    streams = np.random.SeedSequence(np.random.default_rng(random_state).integers(
        2 ** 63)).spawn(3 * n_groups)
    whole = total.astype(np.int64)
    # the resampled scores of a chunk of subgroups at once (their percentiles, one call),
    # checked against the budget before anything of n_resamples' size is allocated
    chunk = resample_block(owner, n_groups, 3 * n_resamples,
                           f"{n_resamples} resamples of a subgroup, its rest and its null",
                           "Pass fewer n_resamples", unit="subgroup")
    low, high, r_low, r_high, d_low, d_high = (np.full(n_groups, np.nan) for _ in range(6))
    null_sd, pvalue = np.full(n_groups, np.nan), np.full(n_groups, np.nan)
    for first in range(0, n_groups, chunk):
        part = np.arange(first, min(first + chunk, n_groups))
        own, other, null = (np.full((len(part), n_resamples), np.nan) for _ in range(3))
        for row, g in enumerate(part):
            if empty[g]:
                continue
            own[row], other[row], null[row] = _resampled(
                data, counts[g], rest[g], whole, has_rest[g], n_resamples, block,
                streams[3 * g:3 * g + 3])
        low[part], high[part] = percentile_interval(own.T, level)
        r_low[part], r_high[part] = percentile_interval(other.T, level)
        d_low[part], d_high[part] = percentile_interval((own - other).T, level)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # no rest: all NaN
            null_sd[part] = np.nanstd(null, axis=1, ddof=1)
        for row, g in enumerate(part):
            finite = null[row][np.isfinite(null[row])]
            if np.isfinite(difference[g]) and finite.size:
                pvalue[g] = _tail_pvalue(finite, difference[g], "two-sided")
    low, high, replaced = _honest(data, counts, estimate, low, high, level, resolved.name)
    # a subgroup whose resamples never vary (one instance): its difference's interval
    # reaches from its honest interval's ends to the rest's, never the rest's noise alone
    d_low = np.where(replaced, np.fmin(d_low, low - r_high), d_low)
    d_high = np.where(replaced, np.fmax(d_high, high - r_low), d_high)
    tested = np.isfinite(pvalue)
    m = max(int(tested.sum()), 1)
    if correction in ("holm", "bonferroni") and m / (n_resamples + 1) >= alpha:
        warn(f"{owner}: the smallest p-value {n_resamples} resamples give, "
             f"1 / {n_resamples + 1}, corrected for {m} subgroups is at least alpha={alpha}:"
             f" no subgroup can be significant. Pass n_resamples above {m / alpha - 1:.0f}.")
    corrected = np.full(n_groups, np.nan)
    corrected[tested] = _correct(pvalue[tested], correction)
    # the two-sided quantile of the first step's level, alpha (or alpha / m), from its
    # logarithm: finite for the smallest alpha, whose 1 - alpha / 2 rounds to 1
    log_step = np.log(alpha) - (0.0 if correction is None else np.log(m))
    quantile = -special.ndtri_exp(log_step - np.log(2.0))
    detectable = (quantile + special.ndtri(power)) * null_sd
    too_small = None
    if min_difference is not None:
        too_small = ~(detectable <= min_difference)  # NaN (no rest, empty): too small
    matrices = counts.reshape(n_groups, *shape)
    return SubgroupResult(
        subgroups=tuple(names), size=size, estimate=estimate, low=low, high=high,
        difference=difference, difference_low=d_low, difference_high=d_high,
        pvalue=pvalue, pvalue_corrected=corrected, detectable_difference=detectable,
        too_small=too_small, confusion_matrices=matrices,
        display_labels=np.asarray(data.confusion.display_labels),
        overall=overall, score=resolved.name, confidence_level=confidence_level,
        correction=correction, alpha=float(alpha),
        min_difference=None if min_difference is None else float(min_difference),
        power=float(power), n_resamples=float(n_resamples))


def _resampled(data, counts, rest, whole, has_rest, n_resamples, block, streams):
    """A subgroup's resampled scores, its rest's, and its null differences (NaN where it
    has no rest), each from a stream of its own, in blocks of ``block`` resamples."""
    own_rng, rest_rng, null_rng = (np.random.default_rng(stream) for stream in streams)
    size, n_rest = counts.sum(), rest.sum()
    own, other, null = (np.full(n_resamples, np.nan) for _ in range(3))
    for start in range(0, n_resamples, block):
        part = slice(start, min(start + block, n_resamples))
        b = part.stop - start
        own[part] = _scores(data, own_rng.multinomial(int(size), counts / size, size=b))
        if has_rest:
            other[part] = _scores(data, rest_rng.multinomial(int(n_rest), rest / n_rest,
                                                             size=b))
            # the permutation null: the subgroup's size drawn without replacement from all
            # (the "marginals" method: the same draws whatever the blocks)
            drawn = null_rng.multivariate_hypergeometric(whole, int(size), size=b,
                                                         method="marginals")
            null[part] = _scores(data, drawn) - _scores(data, whole - drawn)
    return own, other, null


def _scores(data, matrices):
    """The score of each resampled matrix (rows: flattened full counts), quietly."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return data.of_full_counts(matrices.astype(float))


def _honest(data, counts, estimate, low, high, level, name):
    """``(low, high, replaced)``: the subgroups' intervals made honest where they are
    points (one instance, a subgroup all right): a proportion's becomes Wilson's of its
    trials; another score's, NaN (a point says nothing of its uncertainty). One warning
    for all."""
    n_groups = len(estimate)
    trials = np.full(n_groups, np.nan)
    proportion = False
    for g in np.flatnonzero(np.isfinite(estimate)):  # O(cells) each: the trials' reading
        matrix = counts[g].reshape(data.confusion.matrix.shape)
        one = _Subgroup(data, matrix)
        value, _ = _proportion(one)
        if value is None:
            break
        proportion = True
        trials[g] = float(np.asarray(value, dtype=float))
    defined = np.isfinite(estimate)
    if proportion:
        trials = np.where(defined, trials, 0.0)
    with np.errstate(invalid="ignore"):
        new_low, new_high, replaced = honest_bounds(
            np.where(defined, estimate, np.nan), low, high,
            trials if proportion else None, level, "score_by_subgroup",
            f"scoring={name!r} in a subgroup")
    replaced = np.asarray(replaced, dtype=bool) & defined
    if not proportion:
        point = defined & (np.abs(new_high - new_low) <= 16 * np.finfo(float).eps
                           * np.maximum(np.abs(new_low), np.abs(new_high)))
        new_low, new_high = np.where(point, np.nan, new_low), np.where(point, np.nan,
                                                                       new_high)
        replaced = point
    return (np.where(defined, new_low, np.nan), np.where(defined, new_high, np.nan),
            replaced)


class _Subgroup:
    """A subgroup's :class:`~.._scores.resolved._Data` as :func:`_proportion` reads it:
    the data's score and targets' kind, the subgroup's matrix."""

    def __init__(self, data, matrix):
        from dataclasses import replace

        self.score = data.score
        self.y_true, self.y_pred = np.zeros(1), np.zeros(1)  # 1-D labels
        self.confusion = replace(data.confusion, matrix=np.asarray(matrix, dtype=float))
        self.sample_weight = None

