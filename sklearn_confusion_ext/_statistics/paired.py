"""Paired comparisons of one score between two classifiers on the same test instances.

The bootstrap, the Bayesian bootstrap and the permutation test resample the instances (or,
on 1-D labels, the distinct pairs of cells) jointly for both classifiers; the McNemar method
reads :func:`~.table_tests.mcnemar_table`. Comparisons across cross-validation folds and
across data sets live in :mod:`.cross_validated`, :mod:`.friedman`, :mod:`.signed_rank`
and :mod:`.hierarchical`.
"""

import math
import re
from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy import special

from .._calibration.error_interval import calibration_error_params
from .._core.bounds import percentile_interval
from .._core.config import resample_block
from .._core.params import (
    ARRAY,
    CALLABLE,
    CONFIDENCE_LEVEL,
    PVALUE,
    Interval,
    NaN,
    Options,
    validate_params,
)
from .._core.resampling import (
    Progress,
    Streams,
    check_groups,
    group_swap_indicators,
    group_weights,
    instance_weights,
    quiet_progress,
    swap_indicators,
)
from .._core.results import Result, _result, interval_method
from .._core.user_warnings import warn
from .._scores.resolved import _ACCURACIES, _check_weighted, _data, _quiet, _resolve_score
from .intervals import UNCERTAINTY
from .margin import (
    MARGIN,
    MarginVerdict,
    decision_alpha,
    null_difference,
    refuse_margin,
    snap_bound,
    verdict_text,
)
from .table_tests import mcnemar_table, mcnemar_test

# A number of a comparison: finite, or nan.
_NUMBER = [Interval(Real, None, None), NaN()]
_METHODS = ("bootstrap", "permutation", "bayesian", "mcnemar", "mcnemar-mid-p",
            "mcnemar-score")
_MCNEMAR = ("mcnemar", "mcnemar-mid-p", "mcnemar-score")


@_result(parameters={
    **{name: _NUMBER for name in ("estimate", "low", "high")},
    "lower_bound": [None, *_NUMBER, Options(-math.inf)], "pvalue": PVALUE,
    "method": [str], "confidence_level": [CONFIDENCE_LEVEL],
    "alternative": [str], "distribution": [None, ARRAY], "score": [None, str], **MARGIN,
    **{name: [None, Interval(Real, 0, 1)] for name in ("p_non_inferior", "p_superior")}},
    kw_only=True)
class ComparisonResult(MarginVerdict, Result):
    """The paired difference of a score between two classifiers on the same instances.

    Built by :func:`compare_scores`; every field is keyword-only. It does not unpack:
    read its attributes, or ``low, high = result.confidence_interval()``. The repr names
    the score, the method and the level with rounded figures, never the resampled
    differences.

    Attributes
    ----------
    estimate : float
        The difference ``score(y_true, y_pred_a) - score(y_true, y_pred_b)``.
    low, high : float
        The interval of the difference.
    pvalue : float
        Of the null hypothesis that the two classifiers score alike (``alternative``:
        "greater" tests that ``a`` scores higher).
    method : str
        How the difference was tested (``compare_scores``' ``method``).
    confidence_level : float
        The nominal coverage of the interval.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis of the p-value.
    distribution : ndarray or None
        The resampled (bootstrap, Bayesian) or null (permutation) differences; None for
        the McNemar methods.
    score : str or None
        The score's name (a scorer name, or a metric's ``__name__``).
    margin : float or None
        The margin of a non-inferiority or superiority test (``compare_scores``'
        ``margin``); None for the test of no difference. With a margin, ``pvalue`` is the
        one-sided p-value of the null difference ``-margin`` (non-inferiority) or
        ``+margin`` (superiority) and ``alternative`` is ``"greater"``; ``low`` and
        ``high`` stay the two-sided interval.
    lower_bound : float or None
        With a margin, the one-sided lower bound of the difference at
        ``confidence_level``: it lies above the null difference exactly when
        ``pvalue < 1 - confidence_level`` (``-inf`` where too few resamples can ever
        reject); None without a margin.
    hypothesis : {"non-inferiority", "superiority"} or None
        The test of the margin; None without one.
    p_non_inferior, p_superior : float or None
        ``method="bayesian"`` with a margin: the posterior probabilities that the
        difference exceeds ``-margin`` and ``+margin``; None otherwise.
    verdict : str or None
        The decision, worded for a release (a property): "non-inferior: a is at most 0.02
        worse than b (lower bound -0.011 > -0.02, p = 0.003)", or "not shown
        non-inferior: ..."; None without a margin.
    difference : float
        Deprecated name of ``estimate`` (a ``FutureWarning``; removed in 0.2).

    See Also
    --------
    compare_scores : The comparison that gives this result.
    ConfidenceIntervalResult : The interval of one classifier's score.

    Examples
    --------
    >>> from sklearn_confusion_ext import compare_scores
    >>> y_true = [0, 1] * 30
    >>> result = compare_scores(y_true, y_true, [0, 1] * 25 + [1, 0] * 5, method="mcnemar")
    >>> round(result.estimate, 3), round(result.pvalue, 4)
    (0.167, 0.002)
    >>> result
    ComparisonResult(score='accuracy', estimate=0.1667, low=0.07237, high=0.261, \
pvalue=0.001953, confidence_level=0.95, method='mcnemar', alternative='two-sided')
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), round(high, 3)
    (0.072, 0.261)
    """

    estimate: float
    low: float
    high: float
    pvalue: float
    method: str
    confidence_level: float
    alternative: str
    distribution: object
    score: str = None
    margin: float = None
    hypothesis: str = None
    lower_bound: float = None
    p_non_inferior: float = None
    p_superior: float = None

    _summary_fields = ("score", "estimate", "low", "high", "pvalue", "confidence_level",
                       "method", "alternative")
    _renamed_fields = {"difference": "estimate"}
    confidence_interval = interval_method()

    def _summary(self):
        shown = super()._summary()
        if self.distribution is not None:
            shown.append(("n_resamples", len(self.distribution)))
        if self.margin is not None:
            shown += [("margin", self.margin), ("hypothesis", self.hypothesis),
                      ("lower_bound", self.lower_bound)]
            shown += [(name, getattr(self, name)) for name in ("p_non_inferior",
                                                               "p_superior")
                      if getattr(self, name) is not None]
        return shown

    @property
    def verdict(self):
        """The decision of the margin's test, worded for a release; None without a
        margin (see the class's attributes)."""
        if self.margin is None:
            return None
        hypothesis = self.hypothesis or "non-inferiority"
        rejected = self.pvalue < decision_alpha(self.confidence_level)
        probability = self.p_non_inferior if hypothesis == "non-inferiority" else \
            self.p_superior
        return verdict_text(hypothesis, self.margin, rejected, bound=self.lower_bound,
                            pvalue=self.pvalue, probability=probability)

    def to_frame(self):
        """The summary as one row (a ``pandas.DataFrame``), with the ``verdict`` where
        the comparison has a margin."""
        frame = super().to_frame()
        if self.margin is not None:
            frame["verdict"] = self.verdict
        return frame



def _named(name, function, *args):
    """``function(*args)`` with ``y_pred`` called ``name`` in the messages of bad input."""
    try:
        return function(*args)
    except (TypeError, ValueError) as error:
        raise type(error)(re.sub(r"\by_pred\b", name, str(error))) from None


@validate_params({
    "y_true": [ARRAY], "y_pred_a": [ARRAY], "y_pred_b": [ARRAY], **UNCERTAINTY,
    "scoring": [None, str, CALLABLE],
    "method": [Options(*_METHODS)],
    "alternative": [Options("two-sided", "greater", "less")], **MARGIN},
    renamed={"score": "scoring"})
def compare_scores(y_true, y_pred_a, y_pred_b, *, scoring=None, method="bootstrap",
                   confidence_level=0.95, n_resamples=9999, alternative="two-sided",
                   margin=None, hypothesis=None, sample_weight=None, random_state=None,
                   kind=None, groups=None, verbose=0, **score_params):
    """Paired comparison of one score between two classifiers on the same instances.

    Parameters
    ----------
    y_true : array-like or sparse matrix
    y_pred_a, y_pred_b : array-like or sparse matrix
        The two classifiers' predictions of the same instances. On probabilities against
        labels, the scores of the matrix reward sharp probabilities, deserved or not (not
        a proper scoring rule): the sharper model can win with the same predictions.
        Compare decisions on the predicted labels, probabilities on a proper score
        (``scoring=sklearn.metrics.log_loss`` with ``labels=``).
    scoring, kind, **score_params
        As in :func:`score_confidence_interval` (a score with one value; the same names).
        None: ``"tcm_f1_macro"``, or the accuracy for ``method="mcnemar"``, which compares
        accuracies only (another score is refused).

        .. versionchanged:: 0.1
           ``scoring`` was renamed from ``score``, which still works with a
           ``FutureWarning`` until 0.2.
    method : {"bootstrap", "permutation", "bayesian", "mcnemar", "mcnemar-mid-p", \
"mcnemar-score"}, default="bootstrap"
        ``"bootstrap"``: instances resampled jointly, the interval of the difference by
        percentiles, the p-value from the differences shifted to the null.
        ``"permutation"``: each instance's two predictions swapped with probability 1/2;
        the p-value of the observed difference among the swapped ones, the interval from
        the same swaps (Notes: no bootstrap is drawn); when ``2 ** n_samples <=
        n_resamples`` every subset of swapped instances is enumerated once and the p-value
        is exact. ``"bayesian"``: the Bayesian
        bootstrap; the p-value is twice the posterior probability of the smaller side
        (one-sided: of the side against the alternative). ``"mcnemar"``: 1-D labels, the
        accuracy difference, with
        :func:`mcnemar_table` and :func:`mcnemar_test` (exact) and a Wald interval of the
        paired difference of proportions; its counts are instances, so ``sample_weight``
        must hold frequencies (integers). ``"mcnemar-mid-p"``: the same with McNemar's
        mid-p test (``mcnemar_test(table, exact="mid-p")``, Fagerland et al. 2013). Where
        the two predictions never differ in being right, the p-value is
        :func:`mcnemar_test`'s without discordant pairs: 1, and 1/2 one-sided with mid-p.
        ``"mcnemar-score"``: the accuracy difference by Tango's score test of paired
        proportions (at a difference of 0 the asymptotic McNemar test without continuity
        correction, ``(n_12 - n_21) / sqrt(n_12 + n_21)``) and its score interval (the
        differences it does not reject); the one McNemar method that takes a ``margin``.
        Without discordant pairs its p-value of no difference is 1, as
        :func:`mcnemar_test`'s.
    confidence_level : float, default=0.95
        The interval's level; with a ``margin``, ``1 - confidence_level`` is the level of
        the one-sided test (0.95: a 5 % test, the one-sided 95 % lower bound).
    n_resamples : int, default=9999
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": ``a`` scores higher than ``b``. With a ``margin`` the test is
        one-sided towards ``a`` (the result's ``alternative`` is "greater"): leave it, or
        pass "greater"; "less" is refused (swap the two models instead).
    margin : float, default=None
        Acceptance with a margin ``m >= 0``, in units of the score (0.02: two points of
        accuracy): a one-sided test of the null difference ``-m`` or ``+m`` instead of 0,
        as ``hypothesis`` says, with the one-sided lower bound of the difference
        (``lower_bound``; ``low`` and ``high`` stay the two-sided interval) and a
        ``verdict``. ``p < 1 - confidence_level`` exactly when ``lower_bound`` lies above
        the null difference. ``"bootstrap"``: the bootstrap
        differences shifted to the null difference (the p-value of ``margin=0`` is the
        one-sided ``alternative="greater"`` one), the bound ``2 d - q`` of the basic
        bootstrap interval; ``"bayesian"``: the posterior probability of the null side,
        the bound a posterior quantile, and ``p_non_inferior``, ``p_superior``, the
        probabilities that the difference exceeds ``-m`` and ``+m``;
        ``"mcnemar-score"``: Tango's score test of the null difference and its one-sided
        score bound. Refused with ``"permutation"`` (swapping the predictions tests that
        the two are exchangeable, true only at a difference of 0) and with the exact
        ``"mcnemar"`` and ``"mcnemar-mid-p"`` (at a nonzero difference the split of the
        discordant pairs depends on their unknown rate, so no exact conditional test
        exists).
    hypothesis : {"non-inferiority", "superiority"}, default=None
        With a ``margin`` (None: "non-inferiority"). "non-inferiority": H0 ``a - b <=
        -m`` against ``a - b > -m``, "a is at most ``m`` worse than b" (a cheaper or
        simpler model a replacing b); "superiority": H0 ``a - b <= +m`` against
        ``a - b > +m``, "a beats b by more than ``m``". Refused without a margin.
    sample_weight : array-like of shape (n_samples,), default=None
        Refused for a metric callable without a ``sample_weight`` parameter (which is
        called without it otherwise).
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the resamples (or swaps), each drawn from a stream of its own, on threads:
        the same ``random_state`` gives the same numbers whatever the number of cores
        and the memory budget.
    groups : array-like of shape (n_samples,), default=None
        A group id per instance (patients, sites, documents), resampled as units: the
        bootstrap draws whole groups, the Bayesian bootstrap weighs them, the permutation
        test swaps the two predictions of a whole group (exact when ``2 ** n_groups <=
        n_resamples``). Not with the McNemar methods, which count instances.
    verbose : int, default=0
        Progress on standard error, as in :func:`score_confidence_interval`.

    Returns
    -------
    ComparisonResult
        The difference (``estimate``), its interval (``result.confidence_interval()``)
        and the p-value.

    See Also
    --------
    score_confidence_interval : The interval of one classifier's score.
    mcnemar_test, mcnemar_table : The test and the table of ``method="mcnemar"``.
    compare_cv : The comparison of two models across cross-validation folds.
    bayesian_signed_rank_test : The comparison of two models across data sets.

    Notes
    -----
    The interval of each method, and what it costs. ``"bootstrap"``: the percentile
    interval of ``n_resamples`` jointly resampled differences (each resample scored once
    per classifier). ``"bayesian"``: the equal-tailed credible interval of ``n_resamples``
    posterior differences (Dirichlet weights). ``"permutation"``: the swapped differences
    only (``n_resamples`` draws, or the ``2 ** n`` subsets once each): the interval is
    ``[d - q_high, d - q_low]``, the observed difference ``d`` less the swapped
    differences' equal-tailed bounds (symmetric about 0, so ``d -+ q``), the differences
    a shift of the swaps' distribution does not tell from ``d``. It holds 0 exactly where
    the two-sided test at ``1 - confidence_level`` does not reject (ties and the drawn
    p-value's ``1 / (1 + B)`` aside); the swaps spread as the difference would with both
    classifiers alike, so where they differ it is at least as wide as the bootstrap's for
    an average over instances (the swapped differences' variance is the mean square of
    the paired differences, not their variance): conservative, and nothing but the test's
    draws is paid for. On the exact test each subset's second score is its complement's
    first, so a metric callable is called ``2 ** n`` times, plus twice for the estimate
    (earlier versions also scored a bootstrap of ``n_resamples`` beside the test: on 12
    instances at the default 9,999, 28,192 calls, now 4,098). ``"mcnemar"`` and
    ``"mcnemar-mid-p"``: the Wald interval of the paired difference of proportions;
    ``"mcnemar-score"``: Tango's score interval. None draws.

    With a margin, the decision is the verdict's: the null difference (``-margin`` or
    ``+margin``) is rejected when ``pvalue < 1 - confidence_level``, that is when the
    one-sided ``lower_bound`` lies above it. The bootstrap's bound is the
    ``(K + 1)``-th largest resampled difference reflected around ``d``, ``2 d - d*``, the
    Bayesian bootstrap's the ``(K + 1)``-th smallest posterior difference, with ``K`` the
    most draws beyond the null difference that still reject (``(1 + K) / (1 + B) < 1 -
    confidence_level``); with fewer than ``1 / (1 - confidence_level) - 1`` resamples
    nothing is ever rejected and the bound is ``-inf``. The user guide's "Acceptance with a
    margin" measures the type I error at the margin's boundary.

    p-values, with ties. A null value (resampled, swapped or posterior difference) within
    ``1e-12 * max(1, |d|)`` of the observed difference ``d`` counts as at least as
    extreme. Drawn null values give ``(1 + k) / (1 + B)`` (``k`` extreme among ``B``),
    never 0; the exact permutation test ``k / 2 ** n``. The Bayesian p-value counts a
    difference of 0 on both sides of 0, as ``(1 + k) / (1 + B)``, doubled when
    two-sided, at most 1. So identical predictions (a difference always 0) give 1 with
    every method. Degenerate distributions warn (``RuntimeWarning``): a bootstrap whose
    resamples all give the same nonzero difference (one instance, say), and a posterior
    that never changes sign (every instance on which the two differ favours one of
    them, even a single instance); their p-value is then the floor of the draws.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
       Chapman & Hall, Chapters 13 and 16 (percentile intervals; bootstrap hypothesis
       tests), and Chapter 15 (permutation tests).
    .. [2] Rubin, D. B. (1981). "The Bayesian bootstrap". The Annals of Statistics, 9(1),
       130-134.
    .. [3] McNemar, Q. (1947). "Note on the sampling error of the difference between
       correlated proportions or percentages". Psychometrika, 12(2), 153-157.
    .. [4] Fagerland, M. W., Lydersen, S. and Laake, P. (2013). "The McNemar test for
       binary matched-pairs data: mid-p and asymptotic are better than exact
       conditional". BMC Medical Research Methodology, 13, 91.
    .. [5] Tango, T. (1998). "Equivalence test and confidence interval for the
       difference in proportions for the paired-sample design". Statistics in Medicine,
       17(8), 891-908 (the score test of a nonzero difference, and its interval).
    .. [6] Wellek, S. (2010). Testing Statistical Hypotheses of Equivalence and
       Noninferiority, 2nd ed. Chapman & Hall (non-inferiority margins).

    Examples
    --------
    >>> from sklearn_confusion_ext import compare_scores
    >>> y_true = [0, 1, 2] * 30
    >>> good, poor = [0, 1, 2] * 28 + [1, 1, 1] * 2, [0, 1, 1] * 30
    >>> result = compare_scores(y_true, good, poor, scoring="tcm_accuracy", random_state=0)
    >>> round(result.estimate, 3), result.pvalue < 0.01
    (0.289, True)
    >>> compare_scores(y_true, good, poor, method="mcnemar").pvalue < 0.01
    True

    Is ``good`` at most two points of accuracy worse than ``poor`` (non-inferiority)?

    >>> accepted = compare_scores(y_true, good, poor, method="mcnemar-score", margin=0.02)
    >>> print(accepted.verdict)
    non-inferior: a is at most 0.02 worse than b (lower bound 0.204 > -0.02, p = 3e-07)
    """
    confidence_level = float(confidence_level)
    alpha = 1 - confidence_level
    null, hypothesis = null_difference(margin, hypothesis, alternative)
    if null is not None:
        alternative = "greater"
        if method == "permutation":
            raise refuse_margin(method, "swapping the two predictions of an instance tests "
                                "that the classifiers are exchangeable, which holds only at "
                                "a difference of 0; a null difference of -margin or +margin "
                                "has no permutation distribution.",
                                "method='bootstrap' or 'bayesian' (any score), or "
                                "'mcnemar-score' (accuracy)")
        if method in ("mcnemar", "mcnemar-mid-p"):
            raise refuse_margin(method, "it is exact conditionally on the discordant pairs, "
                                "which holds only at a difference of 0: at a difference of "
                                "-margin or +margin, the split of the discordant pairs "
                                "depends on their unknown rate (a nuisance parameter), so "
                                "no exact conditional test exists.",
                                "method='mcnemar-score' (Tango's score test of the "
                                "difference of paired proportions)")
    margins = {"margin": None if null is None else float(margin), "hypothesis": hypothesis}
    if method in _MCNEMAR and groups is not None:
        raise ValueError(f"method={method!r} counts instances as independent and takes no "
                         "groups; use method='bootstrap', 'permutation' or 'bayesian' to "
                         "resample the groups.")
    if method in _MCNEMAR:
        if scoring is not None and scoring not in _ACCURACIES or kind is not None or \
                score_params:
            raise ValueError(f"method={method!r} compares accuracies; got scoring={scoring!r}"
                             f"{' and score keywords' if score_params or kind else ''}. Leave "
                             "scoring=None, or use method='bootstrap', 'permutation' or "
                             "'bayesian' for another score.")
        return _mcnemar_comparison(y_true, y_pred_a, y_pred_b, sample_weight, alpha,
                                   confidence_level, alternative, method, null, margins)
    _warn_kinds_differ(y_pred_a, y_pred_b)
    scoring = "tcm_f1_macro" if scoring is None else scoring
    if calibration_error_params(scoring, score_params) is not None:
        raise ValueError(
            "compare_scores: scoring=expected_calibration_error has no honest paired "
            "interval: each model's binned error is biased upwards by its own noise, and "
            "the resampled difference of two biased errors is biased by their difference. "
            "Compare the models on a proper score (scoring='neg_brier_score' or "
            "'neg_log_loss'), and give each model's error its own interval "
            "(score_confidence_interval, method='norm_bound').")
    resolved = _resolve_score(scoring, kind, score_params, "compare_scores")
    _check_weighted(resolved, sample_weight, method, "compare_scores")
    first = _named("y_pred_a", _data, resolved, y_true, y_pred_a, sample_weight)
    second = _named("y_pred_b", _data, resolved, y_true, y_pred_b, sample_weight)
    difference = first.estimate() - second.estimate()
    if np.ndim(difference) != 0:
        raise ValueError(f"compare_scores compares one value; scoring={resolved.name!r} gives "
                         f"{np.size(difference)}: pass an average (e.g. average='macro').")
    first.groups = second.groups = check_groups(groups, first.n_samples, "compare_scores")
    rng = np.random.default_rng(random_state)
    if method == "permutation":  # the swaps only: the test and its interval (Notes)
        n_swaps = first.n_samples if groups is None else first.groups[1]
        exact = n_swaps < 63 and 2 ** n_swaps <= n_resamples
        progress = Progress(verbose, 2 ** n_swaps if exact else n_resamples,
                            "compare_scores", "swap")
        # the generator where the bootstrap of earlier versions left it, nothing scored:
        # the same swaps, so the same p-value, for a random_state
        if not exact:  # (the exact test draws nothing)
            _skip_paired_draws(first, second, rng, n_resamples)
        # the targets as read (a top-k accuracy's: its hits)
        distribution = _quiet(_swapped_values, first, second, first.y_true, first.y_pred,
                              second.y_pred, rng, n_resamples, exact, progress)
        pvalue = _tail_pvalue(distribution, difference, alternative, exact=exact)
        low, high = _permutation_interval(distribution, difference, alpha)
    else:
        progress = Progress(verbose, n_resamples, "compare_scores")
        distribution = _quiet(_paired_values, first, second, rng, n_resamples,
                              method == "bayesian", progress)
        low, high = percentile_interval(distribution, alpha)
        if method == "bayesian" and null is not None:
            pvalue, bound, probabilities = _posterior_margin(
                distribution, null, margin, decision_alpha(confidence_level))
            margins.update(probabilities, lower_bound=bound)
        elif method == "bayesian":
            pvalue = _posterior_pvalue(distribution, alternative)
        else:  # the bootstrap differences shifted to the null hypothesis
            _warn_degenerate(distribution, difference)
            pvalue = _tail_pvalue(distribution - difference, difference - (null or 0.0),
                                  alternative)
            if null is not None:
                level = decision_alpha(confidence_level)
                margins["lower_bound"] = _basic_bound(distribution, difference, null,
                                                      pvalue < level, level)
    result = ComparisonResult(estimate=float(difference), low=float(low), high=float(high),
                              pvalue=float(pvalue), method=method,
                              confidence_level=confidence_level, alternative=alternative,
                              distribution=distribution, score=resolved.name, **margins)
    progress.close()
    return result


def _target_kind(y):
    """"labels" (1-D), "indicator" (2-D of 0 and 1) or "scores" (other 2-D); None where
    it cannot be read before validation (dok and lil sparse formats, ragged lists)."""
    try:
        ndim = np.ndim(y)
    except ValueError:  # a ragged list, refused by the validation naming it
        return None
    if ndim != 2 or np.shape(y)[1] == 1:
        return "labels"
    if sp.issparse(y):
        # Read before validation: only the stored values, never SciPy's compiled code (a
        # malformed structure would corrupt memory there); dok and lil store no value array.
        values = getattr(y, "data", None)
        if not isinstance(values, np.ndarray) or values.dtype == object:
            return None
    else:
        values = np.asarray(y)
    try:
        return "indicator" if np.isin(values, (0, 1)).all() else "scores"
    except TypeError:
        return "labels"


def _warn_kinds_differ(y_pred_a, y_pred_b):
    """Warn where the two predictions are of different target kinds (one model's
    probabilities against its own argmax is no comparison of two classifiers alike)."""
    kinds = _target_kind(y_pred_a), _target_kind(y_pred_b)
    if None not in kinds and kinds[0] != kinds[1]:
        warn(f"y_pred_a holds {kinds[0]} and y_pred_b {kinds[1]}: the two scores read "
             "different kinds of prediction (say, probabilities against hard labels), so "
             "their difference mixes the kind with the classifier. Compare predictions of "
             "the same kind.", UserWarning)


def _paired_values(first, second, rng, n_resamples, bayesian, progress=None):
    """Differences of the score over instances (or ``first.groups``) resampled jointly
    (``bayesian``: the Bayesian bootstrap's Dirichlet weights)."""
    progress = progress or quiet_progress()
    entries = max(first.entries(), second.entries())
    if first.groups is not None:
        return np.concatenate([first.of_weights(weights) - second.of_weights(weights)
                               for weights in progress.track(group_weights(
                                   rng, first.groups, n_resamples, bayesian, entries,
                                   "compare_scores"))])
    if first.cells is not None and second.cells is not None:
        return _paired_cell_values(first, second, rng, n_resamples, bayesian, progress)
    # exchangeable draws: in the order of the grouped products where both read one order
    presorted = _one_order(first, second)
    return np.concatenate([first.of_weights(weights, presorted)
                           - second.of_weights(weights, presorted)
                           for weights in progress.track(instance_weights(
                               rng, first.n_samples, n_resamples, bayesian, entries,
                               "compare_scores", reuse=True))])


def _skip_paired_draws(first, second, rng, n_resamples):
    """Advance ``rng`` as :func:`_paired_values` of the bootstrap draws from it, without
    scoring a resample: the permutation test, which drew its swaps after the bootstrap
    interval it no longer computes, draws the same swaps (the same p-value) for a
    ``random_state``. Resampled instances (or groups) take one draw of ``rng`` for their
    streams (:class:`~._core.resampling.Streams`); the pairs of cells of 1-D labels are
    drawn from it directly, batch by batch, and are drawn again here (cheap: no score)."""
    if first.groups is None and first.cells is not None and second.cells is not None:
        pairs = _CellPairs(first, second)
        for size in pairs.batches(n_resamples):
            rng.multinomial(pairs.counts.sum(), pairs.counts / pairs.counts.sum(), size=size)
    else:
        Streams(rng, 1)


def _one_order(first, second):
    """Whether both classifiers' matrices are grouped products over one order of the
    instances (exchangeable draws can then be taken in that order)."""
    return all(data.grouped is not None for data in (first, second)) and \
        np.array_equal(first.grouped.order, second.grouped.order)


def _paired_cell_values(first, second, rng, n_resamples, bayesian, progress):
    """The same on 1-D labels: the distinct pairs (cell of a, cell of b) of the instances
    are resampled (multinomial, or Dirichlet for the Bayesian bootstrap), never the
    instances."""
    pairs = _CellPairs(first, second)
    n_samples = pairs.counts.sum()
    values = []
    for size in progress.track(pairs.batches(n_resamples), size=int):
        if bayesian:
            resampled = rng.dirichlet(pairs.counts.astype(float), size=size) * n_samples
        else:
            resampled = rng.multinomial(n_samples, pairs.counts / n_samples, size=size)
        values.append(first.of_full_counts(pairs.of_a(resampled))
                      - second.of_full_counts(pairs.of_b(resampled)))
    return np.concatenate(values)


class _CellPairs:
    """The distinct pairs (cell of a, cell of b) of the instances of two classifiers'
    1-D labels, with their counts; matrices from counts per pair are sparse products."""

    def __init__(self, first, second):
        pairs, self.counts = np.unique(np.stack([first.instance_cells(),
                                                 second.instance_cells()], axis=1),
                                       axis=0, return_counts=True)
        self._cells = [sp.csr_array((np.ones(len(pairs)), (np.arange(len(pairs)), cells)),
                                    shape=(len(pairs), data.confusion.matrix.size))
                       for data, cells in ((first, pairs[:, 0]), (second, pairs[:, 1]))]

    def batches(self, n_resamples):
        """Sizes of batches of resamples whose counts per pair and full matrices take 64
        MiB and the budget at most (a matrix or the pairs of one resample above the budget
        is refused before anything is drawn)."""
        size = max(matrix.shape[1] for matrix in self._cells)
        side = int(round(size ** 0.5))
        batch = resample_block("compare_scores", n_resamples, max(len(self.counts), size),
                               f"matrices of {side} x {side} cells from "
                               f"{len(self.counts)} pairs of cells")
        return [min(batch, n_resamples - start) for start in range(0, n_resamples, batch)]

    def of_a(self, counts):
        """Full matrices of a (flattened rows) from ``counts`` per pair (rows)."""
        return np.asarray((self._cells[0].T @ counts.T).T, dtype=float)

    def of_b(self, counts):
        return np.asarray((self._cells[1].T @ counts.T).T, dtype=float)


def _all_swaps(n_samples):
    """Every subset of the instances, as rows of 0/1 indicators (``2 ** n_samples`` rows)."""
    return ((np.arange(2 ** n_samples)[:, None] >> np.arange(n_samples)) & 1).astype(float)


def _swapped_values(first, second, y_true, y_pred_a, y_pred_b, rng, n_resamples,
                    exact=False, progress=None):
    """Differences with each instance's two predictions swapped with probability 1/2
    (``exact``: under each of the ``2 ** n`` subsets of swapped instances, once).

    When every swap gives matrices over the same classes as the data's (2-D targets, or
    labels whose predictions name only classes of ``y_true``), the swapped matrices are
    the data's two matrices under complementary instance weights, built for many swaps at
    once; on 1-D labels without weights, the swaps are drawn per pair of cells (a binomial
    count), never per instance. Otherwise each swap is scored from its targets."""
    progress = progress or quiet_progress()
    groups = first.groups
    all_swaps = None
    if exact:  # every subset of the instances (of the groups), as rows of 0/1 indicators
        all_swaps = _all_swaps(first.n_samples if groups is None else groups[1])
        if groups is not None:
            all_swaps = all_swaps[:, groups[0]]
    if _same_classes(first, second):
        if first.cells is not None and second.cells is not None and not exact and \
                groups is None:
            return _swapped_cell_values(first, second, rng, n_resamples, progress)
        if first.batches():
            values = []
            entries = first.entries()
            if exact:
                step = resample_block("compare_scores", len(all_swaps), entries,
                                      "one matrix of the exact permutation test")
                blocks = (all_swaps[start:start + step]
                          for start in range(0, len(all_swaps), step))
            elif groups is not None:
                blocks = group_swap_indicators(rng, groups, n_resamples, entries,
                                               "compare_scores")
            else:
                blocks = swap_indicators(rng, first.n_samples, n_resamples, entries,
                                         "compare_scores", reuse=True)
            # iid swaps are exchangeable: drawn in the order of the grouped products
            presorted = not exact and groups is None and _one_order(first, second)
            # linear in the weights: a's matrix with the swapped instances given to b is
            # a's whole matrix, less a's swapped part, plus b's (two products a block)
            whole = np.ones((1, first.n_samples))
            whole_a, whole_b = first.matrices(whole), second.matrices(whole)
            for swaps in progress.track(blocks):
                part_a, part_b = first.matrices(swaps, presorted), second.matrices(swaps,
                                                                                 presorted)
                values.append(first.of_full_counts(whole_a - part_a + part_b)
                              - first.of_full_counts(whole_b - part_b + part_a))
            return np.concatenate(values)
    a, b = (np.asarray(y) for y in (y_pred_a, y_pred_b))
    if all_swaps is not None:  # each subset's two scores: each once, not twice
        return _exact_swapped_values(first, y_true, a, b, all_swaps, progress)
    values = np.empty(n_resamples)
    for row in range(len(values)):
        if groups is not None:
            swap = (rng.random(groups[1]) < 0.5)[groups[0]]
        else:
            swap = rng.random(len(a)) < 0.5
        if a.ndim == 2:
            swap = swap[:, None]
        values[row] = (first.score.on_targets(y_true, np.where(swap, b, a), first.sample_weight)
                       - first.score.on_targets(y_true, np.where(swap, a, b),
                                                first.sample_weight))
        progress.update(1)
    return values


def _exact_swapped_values(first, y_true, a, b, all_swaps, progress):
    """The exact permutation test's differences scored from the targets, ``all_swaps``
    the ``2 ** n`` subsets in :func:`_all_swaps`'s order (row ``k``: the bits of ``k``).

    Swapping the subset ``S`` scores ``where(S, b, a)`` against ``where(S, a, b)``, which
    is ``where(S', b, a)`` for the complement ``S'`` (row ``2 ** n - 1 - k``): each
    subset's first score ``g`` is another's second, so the differences are ``g[k] -
    g[2 ** n - 1 - k]``, the same numbers as before from half the calls of the score."""
    scores = np.empty(len(all_swaps))
    for row, swap in enumerate(all_swaps > 0):
        if a.ndim == 2:
            swap = swap[:, None]
        scores[row] = first.score.on_targets(y_true, np.where(swap, b, a), first.sample_weight)
        progress.update(1)
    return scores - scores[::-1]


def _same_classes(first, second):
    """Whether the two classifiers' matrices, and any swap of their predictions, are over
    the same classes (so that their full matrices add cell by cell)."""
    one, other = first.confusion, second.confusion
    if one is None or other is None or one.matrix.shape != other.matrix.shape or \
            list(one.display_labels) != list(other.display_labels):
        return False
    if one.true_classes is None:  # 2-D targets: the classes are the columns
        return True
    classes = one.display_labels[:len(one.display_labels) - one.has_none]
    return len(classes) == len(one.true_classes)  # no class only predicted


def _swapped_cell_values(first, second, rng, n_resamples, progress):
    """:func:`_swapped_values` on 1-D labels without weights: the instances of one pair
    (cell of ``a``, cell of ``b``) swap in a binomial number."""
    pairs = _CellPairs(first, second)
    values = []
    for size in progress.track(pairs.batches(n_resamples), size=int):
        swapped = rng.binomial(pairs.counts, 0.5, size=(size, len(pairs.counts)))
        kept = pairs.counts - swapped
        values.append(first.of_full_counts(pairs.of_a(kept) + pairs.of_b(swapped))
                      - first.of_full_counts(pairs.of_b(kept) + pairs.of_a(swapped)))
    return np.concatenate(values)


def _permutation_interval(null, difference, alpha):
    """The interval of the permutation method, from its swapped differences ``null``: the
    observed ``difference`` less their equal-tailed ``1 - alpha`` bounds, ``[d - q_high,
    d - q_low]`` (the swapped differences are symmetric about 0, so ``d -+ q``): the values
    of the difference the swaps' spread does not tell from ``d`` (a shift model). It holds
    0 exactly where the swaps' two-sided test does not reject at ``alpha`` (ties and the
    drawn p-value's ``1 / (1 + B)`` aside); NaN bounds where every swap is NaN."""
    low, high = percentile_interval(null, alpha)
    return difference - high, difference - low


def _tie_tolerance(observed):
    """Null values this close to ``observed`` tie with it: a swapped or resampled difference
    equal to the observed one in exact arithmetic may differ from it by rounding."""
    return 1e-12 * max(1.0, abs(float(observed)))


def _tail_pvalue(null, observed, alternative, exact=False):
    """The share of null values at least as extreme as ``observed``, ties (within
    :func:`_tie_tolerance`) counted as extreme. Drawn null values: the observed one is
    counted too, ``(1 + k) / (1 + B)``, so never 0; ``exact``: ``null`` is the whole null
    distribution (it holds the observed value), ``k / B``."""
    null = null[np.isfinite(null)]
    gamma = _tie_tolerance(observed)
    if alternative == "greater":
        extreme = np.sum(null >= observed - gamma)
    elif alternative == "less":
        extreme = np.sum(null <= observed + gamma)
    else:
        extreme = np.sum(np.abs(null) >= abs(observed) - gamma)
    if exact:
        return min(1.0, extreme / null.size)
    return min(1.0, (1 + extreme) / (1 + null.size))


def _posterior_pvalue(distribution, alternative):
    """The Bayesian bootstrap's p-value: the posterior probability of the side of 0 against
    the alternative, a difference of 0 (within :func:`_tie_tolerance`) counted on both
    sides; two-sided, twice the smaller of the two (at most 1). As a Monte Carlo estimate
    from B draws it is ``(1 + k) / (1 + B)``, so never 0; it warns where no draw falls on
    that side (the posterior never changes sign)."""
    values = distribution[np.isfinite(distribution)]
    gamma = _tie_tolerance(0.0)
    at_most, at_least = np.sum(values <= gamma), np.sum(values >= -gamma)
    sides = {"greater": at_most, "less": at_least, "two-sided": min(at_most, at_least)}
    pvalue = (1 + sides[alternative]) / (1 + values.size)
    if alternative == "two-sided":
        pvalue = 2 * pvalue
    if sides[alternative] == 0:
        warn(f"the posterior differences never fall on the other side of 0 (all "
             f"{values.size} draws {'above' if at_most == 0 else 'below'} 0), so the "
             "p-value is only the floor of the draws, 1 / (n_resamples + 1) (two-sided: "
             "twice that). The Bayesian bootstrap gives no weight to instances it has not "
             "seen: where every instance on which the two classifiers differ favours the "
             "same one (even a single instance), its difference never changes sign "
             "whatever the evidence; use method='permutation' or 'mcnemar' for a test.",
             RuntimeWarning)
    return min(1.0, float(pvalue))


def _rejecting_draws(n_draws, alpha):
    """``K``, the most draws beyond the null value whose p-value ``(1 + K) / (1 + B)``
    is below ``alpha`` (-1 where even none is: too few draws to reject)."""
    k = max(int(math.ceil(alpha * (1 + n_draws))) - 2, -1)
    while (2 + k) / (1 + n_draws) < alpha:
        k += 1
    while k >= 0 and (1 + k) / (1 + n_draws) >= alpha:
        k -= 1
    return k


def _basic_bound(distribution, difference, null, rejected, alpha):
    """The bootstrap's one-sided lower bound dual to the shifted-null p-value: the null
    difference ``null`` is rejected when at most ``K`` of the ``B`` resampled differences
    reach ``2 d - null``, so the bound is ``2 d`` less the ``(K + 1)``-th largest."""
    values = np.sort(distribution[np.isfinite(distribution)])
    if values.size == 0:
        return math.nan
    k = _rejecting_draws(values.size, alpha)
    bound = -math.inf if k < 0 else float(2 * difference - values[values.size - 1 - k])
    return snap_bound(bound, null, rejected)


def _posterior_margin(distribution, null, margin, alpha):
    """The Bayesian bootstrap with a margin: the posterior probability of the null side
    (``difference <= null``, as ``(1 + k) / (1 + B)``), the one-sided credible bound
    dual to it (the ``(K + 1)``-th smallest draw) and the probabilities that the
    difference exceeds ``-margin`` and ``+margin``."""
    values = np.sort(distribution[np.isfinite(distribution)])
    below = np.sum(values <= null + _tie_tolerance(null))
    pvalue = min(1.0, float((1 + below) / (1 + values.size)))
    k = _rejecting_draws(values.size, alpha)
    if values.size == 0:
        bound = math.nan
    else:
        bound = snap_bound(-math.inf if k < 0 else float(values[k]), null, pvalue < alpha)
    margin = float(margin)
    size = max(values.size, 1)
    probabilities = {"p_non_inferior": float(np.sum(values > -margin) / size),
                     "p_superior": float(np.sum(values > margin) / size)}
    return pvalue, bound, probabilities


def _warn_degenerate(distribution, difference):
    """Warn where every bootstrap resample gives the same nonzero difference: the
    shifted-to-the-null p-value is then its floor, 1 / (n_resamples + 1), whatever the data
    (scipy.stats.bootstrap warns on degenerate distributions too)."""
    values = distribution[np.isfinite(distribution)]
    if values.size and abs(float(difference)) > _tie_tolerance(difference) and \
            np.ptp(values) <= _tie_tolerance(difference):
        warn(f"every bootstrap resample gives the same difference ({float(values[0]):.6g}): "
             "the bootstrap distribution is degenerate (one instance, or instances that "
             "all favour one classifier alike), and its p-value is its floor, "
             "1 / (n_resamples + 1), whatever the number of instances; use "
             "method='permutation' or 'mcnemar' for a test.", RuntimeWarning)


def _tango_statistic(only_a, only_b, n, delta):
    """Tango's (1998) score statistic of the null difference ``delta`` of two paired
    proportions, ``(n_12 - n_21 - n delta) / sqrt(n (2 q + delta (1 - delta)))``, with
    ``q`` the restricted maximum likelihood estimate of the ``n_21`` cell's probability
    (the positive root of ``2n q^2 + B q + C = 0``); at ``delta = 0`` McNemar's
    asymptotic statistic. A negative ``delta`` is read with the two cells swapped; one
    beyond [-1, 1] (a margin above 1) as its end, the farthest a difference reaches."""
    delta = min(max(delta, -1.0), 1.0)
    if delta < 0:
        return -_tango_statistic(only_b, only_a, n, -delta)
    b_coefficient = -only_a - only_b + (2 * n - only_a + only_b) * delta
    c_coefficient = -only_b * delta * (1 - delta)
    q = (math.sqrt(max(b_coefficient ** 2 - 8 * n * c_coefficient, 0.0))
         - b_coefficient) / (4 * n)
    variance = n * (2 * max(q, 0.0) + delta * (1 - delta))
    numerator = only_a - only_b - n * delta
    if abs(numerator) <= 1e-12 * n:
        return 0.0
    if variance <= 0:
        return math.copysign(math.inf, numerator)
    return numerator / math.sqrt(variance)


def _score_pvalue(statistic, alternative):
    if alternative == "greater":
        return float(special.ndtr(-statistic))
    if alternative == "less":
        return float(special.ndtr(statistic))
    return float(min(1.0, 2 * special.ndtr(-abs(statistic))))


def _tango_bound(only_a, only_b, n, rejects):
    """The end of the differences ``rejects`` holds for: the statistic decreases in the
    null difference, so the one-sided test rejects every difference below a bound
    (bisection to adjacent floats: the bound is the smallest difference not rejected)."""
    low, high = -1.0, 1.0
    if not rejects(_tango_statistic(only_a, only_b, n, low)):
        return low
    if rejects(_tango_statistic(only_a, only_b, n, high)):
        return high
    for _ in range(2100):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if rejects(_tango_statistic(only_a, only_b, n, middle)):
            low = middle
        else:
            high = middle
    return high


def _mcnemar_comparison(y_true, y_pred_a, y_pred_b, sample_weight, alpha, confidence_level,
                        alternative, method="mcnemar", null=None, margins=None):
    table = mcnemar_table(y_true, y_pred_a, y_pred_b, sample_weight=sample_weight)
    weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)  # checked
    if weight is not None and not np.array_equal(weight, np.round(weight)):
        raise ValueError(f"method={method!r} counts instances: sample_weight must hold "
                         "frequencies (non-negative integers); scaled weights would change "
                         "its p-value. Use method='bootstrap' or 'permutation' for other "
                         "weights.")
    n = table.sum()
    if n == 0:
        raise ValueError(f"method={method!r} counts instances, but sample_weight is 0 on all "
                         f"{len(weight)} of them: there is no instance to compare on. Give "
                         "some instance a positive weight.")
    only_a, only_b = table[0, 1], table[1, 0]
    difference = (only_a - only_b) / n
    if method == "mcnemar-score":
        alpha = decision_alpha(confidence_level)
        only_a, only_b, n = float(only_a), float(only_b), float(n)
        statistic = _tango_statistic(only_a, only_b, n, 0.0 if null is None else null)
        pvalue = _score_pvalue(statistic, alternative)
        if only_a + only_b == 0 and not null:  # mcnemar_test's policy: no evidence, 1
            pvalue = 1.0
        margins = dict(margins or {})
        if null is not None:  # the one-sided bound: the differences the test rejects
            margins["lower_bound"] = snap_bound(_tango_bound(
                only_a, only_b, n, lambda z: _score_pvalue(z, "greater") < alpha), null,
                pvalue < alpha)
        # the two-sided score interval: each end a one-sided test at alpha / 2
        low = _tango_bound(only_a, only_b, n,
                           lambda z: _score_pvalue(z, "greater") < alpha / 2)
        high = -_tango_bound(only_b, only_a, n,
                             lambda z: _score_pvalue(z, "greater") < alpha / 2)
        return ComparisonResult(estimate=float(difference), low=float(low),
                                high=float(high), pvalue=pvalue, method=method,
                                confidence_level=confidence_level, alternative=alternative,
                                distribution=None, score="accuracy", **margins)
    se = np.sqrt(max(only_a + only_b - (only_a - only_b) ** 2 / n, 0.0)) / n
    z = special.ndtri(1 - alpha / 2)
    # mcnemar_test reads n_12 = a right and b wrong against n_21 (exact: counts); with no
    # discordant pairs its p-value (1, the mid-p's one-sided 1/2) is documented there
    exact = True if method == "mcnemar" else "mid-p"
    pvalue = float(_quiet(lambda: mcnemar_test(table, exact=exact,
                                               alternative=alternative).pvalue))
    return ComparisonResult(estimate=float(difference), low=float(difference - z * se),
                            high=float(difference + z * se), pvalue=pvalue, method=method,
                            confidence_level=confidence_level, alternative=alternative,
                            distribution=None, score="accuracy")
