"""The Friedman test of several models over several data sets, and its post-hoc tests.

A table of scores, one row per data set and one column per model (the mean score of each
model's cross-validation on each data set), is compared as Demsar recommends ("Statistical
Comparisons of Classifiers over Multiple Data Sets", JMLR 7, 2006, Section 3.2):

* the Friedman test on the ranks of the models within each data set (the best rank 1, ties
  given their average rank), with Iman and Davenport's F statistic (1980), which Demsar
  recommends over Friedman's conservative chi-square;
* post-hoc tests on the average ranks ``R_j``, whose differences have the standard error
  ``SE = sqrt(k (k + 1) / (6 N))`` for ``k`` models over ``N`` data sets: Nemenyi's test of
  all pairs (the critical difference ``CD = q_alpha SE``, ``q_alpha`` the studentized range
  quantile of ``k`` means and infinite degrees of freedom, divided by ``sqrt(2)``), and the
  z-tests ``z = (R_i - R_j) / SE`` with Holm's step-down correction, of all pairs or of
  every model against a control, or Bonferroni and Dunn's correction against a control
  (its critical difference uses the normal quantile of ``alpha / (2 (k - 1))``).
"""

import hashlib
import math
from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np
from scipy import special, stats

from .._core.params import (
    ARRAY,
    BOOLEAN,
    PROBABILITY_LEVEL,
    PVALUE,
    Interval,
    Options,
    validate_params,
)
from .._core.results import Result, _result
from .._core.user_warnings import warn, warn_once
from .dataset_scores import _table

POSTHOC_METHODS = ("nemenyi", "holm", "bonferroni-dunn")
# Demsar (2006, Section 3.2.2): Friedman's chi-square follows its asymptotic distribution
# "when N and k are big enough (as a rule of a thumb, N > 10 and k > 5)".
MIN_DATASETS = 11

# What the comparisons of a table of scores take (friedman_test, friedman_posthoc, and
# CriticalDifferenceDisplay.from_scores).
ACROSS_DATASETS = {"scores": [ARRAY], "greater_is_better": [BOOLEAN],
                   "models": [None, ARRAY]}
POSTHOC_ACROSS_DATASETS = {
    "method": [Options(*POSTHOC_METHODS)],
    "control": [None, str, Interval(Integral, 0, None)], "alpha": [PROBABILITY_LEVEL]}
# The former names of the keywords (one release of grace).
RENAMED = {"names": "models"}


def _ranks(values):
    """Rank of each model within each data set: 1 for the highest score, ties averaged."""
    return stats.rankdata(-values, axis=1, method="average")


def _standard_error(n_models, n_datasets):
    """The standard error of a difference of two average ranks (Demsar 2006, eq. z)."""
    return math.sqrt(n_models * (n_models + 1) / (6.0 * n_datasets))



# --- The Friedman test ----------------------------------------------------------------------


@_result(parameters={
    "statistic": [Interval(Real, 0, None), Options(math.inf)], "pvalue": PVALUE,
    "df": [tuple], "chi2_statistic": [Interval(Real, 0, None)], "chi2_pvalue": PVALUE,
    "average_ranks": [ARRAY], "models": [tuple], "n_datasets": [Interval(Integral, 2, None)],
    "tie_correction": [BOOLEAN], "datasets": [None, tuple]})
class FriedmanTestResult(Result):
    """Result of :func:`friedman_test`.

    Unpacks like scipy's results: ``statistic, pvalue = friedman_test(scores)``, Iman and
    Davenport's F and its p-value (Demsar's recommendation); Friedman's chi-square is
    ``chi2_statistic`` and ``chi2_pvalue``.

    Attributes
    ----------
    statistic : float
        Iman and Davenport's ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``; infinite (with
        a warning) where every data set ranks the models alike.
    pvalue : float
        Of ``F_F`` under the F distribution with ``df`` degrees of freedom.
    df : tuple of float
        ``(k - 1, (k - 1) (N - 1))``.
    chi2_statistic : float
        Friedman's ``chi2_F = 12 N / (k (k + 1)) (sum_j R_j^2 - k (k + 1)^2 / 4)``.
    chi2_pvalue : float
        Of ``chi2_F`` under the chi-square distribution with ``k - 1`` degrees of freedom.
    average_ranks : ndarray of shape (n_models,)
        The average rank ``R_j`` of each model (1 is the best).
    models : tuple of str
        The models' names, in the table's order.
    n_datasets : int
        ``N``, the number of data sets.
    tie_correction : bool
        Whether ``chi2_F`` was divided by ``1 - sum(t^3 - t) / (N k (k^2 - 1))``.
    datasets : tuple of str or None
        The data sets' names (a DataFrame's index), where known.

    See Also
    --------
    friedman_test : The test that returns it.
    FriedmanPosthocResult : Which models differ, after the test rejects.

    Examples
    --------
    >>> from sklearn_confusion_ext import friedman_test
    >>> scores = [[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.5], [0.95, 0.9, 0.8]]
    >>> result = friedman_test(scores, models=["forest", "tree", "stump"])
    >>> statistic, pvalue = result
    >>> result.average_ranks.tolist(), round(result.chi2_statistic, 2)
    ([1.25, 1.75, 3.0], 6.5)
    """

    _unpacked = ("statistic", "pvalue")
    statistic: float
    pvalue: float
    _: KW_ONLY
    df: tuple
    chi2_statistic: float
    chi2_pvalue: float
    average_ranks: object
    models: tuple
    n_datasets: int
    tie_correction: bool = False
    datasets: object = None

    _summary_fields = ("statistic", "pvalue", "df", "chi2_statistic", "chi2_pvalue",
                       "n_datasets")
    _table_index = "models"
    _table_index_name = "model"
    _table_columns = (("average rank", "average_ranks"),)


def _friedman(values, tie_correction):
    n_datasets, n_models = values.shape
    ranks = _ranks(values)
    average = ranks.mean(axis=0)
    chi2 = 12.0 * n_datasets / (n_models * (n_models + 1)) * (
        np.sum(average ** 2) - n_models * (n_models + 1) ** 2 / 4.0)
    chi2 = max(0.0, float(chi2))  # rounding below 0 where every rank is equal
    if tie_correction:
        ties = sum(float(np.sum(counts ** 3 - counts)) for counts in (
            np.unique(row, return_counts=True)[1] for row in ranks))
        denominator = 1.0 - ties / (n_datasets * n_models * (n_models ** 2 - 1))
        chi2 = chi2 / denominator if denominator > 0 else 0.0  # all tied: no evidence
    df1, df2 = n_models - 1.0, (n_models - 1.0) * (n_datasets - 1.0)
    chi2_pvalue = float(stats.chi2.sf(chi2, df1))
    room = n_datasets * (n_models - 1) - chi2
    if room <= 1e-12 * n_datasets * n_models:
        warn("friedman_test: every data set ranks the models alike (chi2_F reaches its "
             f"maximum N (k - 1) = {n_datasets * (n_models - 1)}); Iman and Davenport's F "
             "is infinite and its p-value 0.", RuntimeWarning)
        statistic, pvalue = math.inf, 0.0
    else:
        statistic = (n_datasets - 1) * chi2 / room
        pvalue = float(stats.f.sf(statistic, df1, df2))
    return average, chi2, chi2_pvalue, float(statistic), pvalue, (df1, df2)


def _check_size(values, caller):
    """Warn where the table of scores has few data sets: once for one table, however many
    of friedman_test, friedman_posthoc and CriticalDifferenceDisplay read it."""
    n_datasets, n_models = values.shape
    if n_datasets < MIN_DATASETS:
        about = (values.shape, hashlib.sha1(np.ascontiguousarray(values)).hexdigest())
        warn_once(f"{caller}: {n_datasets} data sets are few for the Friedman test's "
                  "approximate distribution (Demsar 2006, Section 3.2.2: as a rule of thumb "
                  f"N > 10 data sets and k > 5 models; here k = {n_models}). Its p-values "
                  "and the post-hoc tests are approximate; report them as such, or add "
                  "data sets. (Said once for this table of scores.)", UserWarning, about)


@validate_params({**ACROSS_DATASETS, "tie_correction": [BOOLEAN]}, renamed=RENAMED)
def friedman_test(scores, *, greater_is_better=True, tie_correction=False, models=None):
    """Friedman test of several models over several data sets, with Iman and Davenport's F.

    The models are ranked within each data set (the best rank 1, tied scores their average
    rank) and the test asks whether their average ranks ``R_j`` differ more than chance
    would make them (Demsar 2006, Section 3.2.2).

    Parameters
    ----------
    scores : array-like or pandas.DataFrame of shape (n_datasets, n_models)
        One score per model (column) and data set (row), e.g. the mean of each model's
        cross-validation scores on each data set. A DataFrame's columns name the models
        and its index the data sets.
    greater_is_better : bool, default=True
        Whether a higher score is better (False for errors and losses), as in
        :func:`sklearn.metrics.make_scorer`.
    tie_correction : bool, default=False
        Divide ``chi2_F`` by ``1 - sum(t^3 - t) / (N k (k^2 - 1))`` (``t`` the sizes of
        the groups of tied ranks), as ``scipy.stats.friedmanchisquare`` does. False is the
        formula of Friedman, Iman and Davenport and Demsar, whose numbers it reproduces.
    models : sequence of str, default=None
        The models' names; a DataFrame's columns, else ``"model 0"``, ``"model 1"``...
        (formerly ``names=``, which still works with a ``FutureWarning``).

    Returns
    -------
    FriedmanTestResult
        ``statistic`` and ``pvalue`` are Iman and Davenport's ``F_F`` with
        ``(k - 1, (k - 1)(N - 1))`` degrees of freedom; ``chi2_statistic`` and
        ``chi2_pvalue`` Friedman's ``chi2_F`` with ``k - 1``; ``average_ranks``.

    Warns
    -----
    UserWarning
        Where there are 10 data sets or fewer: Demsar's rule of thumb for the chi-square
        approximation is ``N > 10`` (and ``k > 5``). Said once for one table of scores,
        however many of this test, :func:`friedman_posthoc` and
        :class:`CriticalDifferenceDisplay` read it (every time under an "always" filter).

    See Also
    --------
    friedman_posthoc : Which models differ: Nemenyi's, Holm's and Bonferroni-Dunn's tests.
    CriticalDifferenceDisplay : Demsar's critical difference diagram.
    bayesian_signed_rank_test : Two models over the data sets, a Bayesian test.
    scipy.stats.friedmanchisquare : Friedman's chi-square with the tie correction.

    Notes
    -----
    ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` and
    ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``. Friedman's chi-square is conservative
    (Iman and Davenport 1980); the F statistic is the test to report. Where it rejects,
    :func:`friedman_posthoc` tells which models differ.

    References
    ----------
    .. [1] J. Demsar, "Statistical Comparisons of Classifiers over Multiple Data Sets",
       Journal of Machine Learning Research 7, 1-30, 2006, Section 3.2.2: Friedman's
       ``chi2_F`` and Iman and Davenport's ``F_F``; the example of Table 6.
    .. [2] R. L. Iman and J. M. Davenport, "Approximations of the critical region of the
       Friedman statistic", Communications in Statistics - Theory and Methods 9(6),
       571-595, 1980.

    Examples
    --------
    Demsar's example (Table 6: the AUC of four variants of C4.5 on 14 data sets; the paper
    ranks the two AUCs of "voting" printed 0.975 second and third, written 0.9751 here):

    >>> from sklearn_confusion_ext import friedman_test
    >>> auc = [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...        [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...        [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...        [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...        [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...        [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...        [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]]
    >>> result = friedman_test(auc, models=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    >>> result.average_ranks.round(3).tolist()
    [3.143, 2.0, 2.893, 1.964]
    >>> round(result.chi2_statistic, 2), round(result.statistic, 2), result.df
    (9.28, 3.69, (3.0, 39.0))
    >>> round(result.pvalue, 3)
    0.02
    """
    values, models, datasets = _table(scores, greater_is_better, models)
    n_datasets, n_models = values.shape
    _check_size(values, "friedman_test")
    average, chi2, chi2_pvalue, statistic, pvalue, df = _friedman(values, tie_correction)
    return FriedmanTestResult(
        statistic, pvalue, df=df, chi2_statistic=chi2, chi2_pvalue=chi2_pvalue,
        average_ranks=average, models=models, n_datasets=n_datasets,
        tie_correction=bool(tie_correction), datasets=datasets)


# --- Post-hoc tests ----------------------------------------------------------------------


@_result(parameters={
    "pvalue": [ARRAY], "statistic": [ARRAY], "significant": [ARRAY],
    "average_ranks": [ARRAY], "critical_difference": [None, Interval(Real, 0, None)],
    "standard_error": [Interval(Real, 0, None, closed="neither")],
    "method": [Options(*POSTHOC_METHODS)], "alpha": [PROBABILITY_LEVEL], "models": [tuple],
    "control": [None, str], "n_datasets": [Interval(Integral, 2, None)]})
class FriedmanPosthocResult(Result):
    """Result of :func:`friedman_posthoc`: which models differ.

    Attributes
    ----------
    pvalue : ndarray of shape (n_models, n_models)
        The adjusted p-value of each pair (symmetric, 1 on the diagonal); NaN for the pairs
        not tested (those without the control where there is one).
    statistic : ndarray of shape (n_models, n_models)
        ``z = (R_j - R_i) / SE`` for row ``i`` and column ``j``: positive where the row's
        model ranks better (Nemenyi's studentized range statistic is ``|z| sqrt(2)``).
    significant : ndarray of bool of shape (n_models, n_models)
        Whether the pair differs at ``alpha`` (family-wise).
    average_ranks : ndarray of shape (n_models,)
        The average rank of each model (1 is the best).
    critical_difference : float or None
        The least difference of average ranks that is significant: Nemenyi's
        ``q_alpha SE`` (all pairs), or Bonferroni and Dunn's (against the control); None
        for Holm's step-down test, which has no single one.
    standard_error : float
        ``SE = sqrt(k (k + 1) / (6 N))``.
    method : str
        ``"nemenyi"``, ``"holm"`` or ``"bonferroni-dunn"``.
    alpha : float
        The family-wise level.
    models : tuple of str
        The models' names, in the table's order.
    control : str or None
        The control model, where every other model was compared with it only.
    n_datasets : int
        ``N``, the number of data sets.

    See Also
    --------
    friedman_posthoc : The tests that return it.
    FriedmanTestResult : The omnibus test.
    CriticalDifferenceDisplay : Draws the average ranks and :meth:`groups`.

    Examples
    --------
    >>> from sklearn_confusion_ext import friedman_posthoc
    >>> scores = [[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.5], [0.95, 0.9, 0.8]]
    >>> result = friedman_posthoc(scores, models=["forest", "tree", "stump"])
    >>> round(result.critical_difference, 3)
    1.657
    >>> result.to_frame().round(3)  # doctest: +NORMALIZE_WHITESPACE
            forest   tree  stump
    model
    forest   1.000  0.759  0.036
    tree     0.759  1.000  0.181
    stump    0.036  0.181  1.000
    """

    _: KW_ONLY
    pvalue: object
    statistic: object
    significant: object
    average_ranks: object
    critical_difference: object
    standard_error: float
    method: str
    alpha: float
    models: tuple
    control: object = None
    n_datasets: int = 2

    _summary_fields = ("method", "alpha", "critical_difference", "control", "n_datasets")
    _field_arguments = {"critical_difference": ("alpha",)}
    _table_index = "models"
    _table_index_name = "model"
    _table_matrix = "pvalue"
    _table_pvalues, _table_adjusted = True, "method"  # adjusted p-values, by method

    def groups(self):
        """The groups of models not significantly different, as Demsar's diagram joins them.

        Returns
        -------
        list of tuple of str
            The models of each group, best first: maximal runs of models consecutive in
            average rank of which no two differ significantly (all pairs), or the control
            with every model not significantly different from it (with a control). Models
            that differ from every other one are in no group.

        See Also
        --------
        CriticalDifferenceDisplay : Joins each group by a bar under the average ranks.
        """
        order = np.argsort(self.average_ranks, kind="stable")
        if self.control is not None:
            c = self.models.index(self.control)
            members = [i for i in order if i == c or not self.significant[c, i]]
            return [tuple(self.models[i] for i in members)] if len(members) > 1 else []
        runs, last_end = [], -1
        for start in range(len(order)):
            end = start
            while end + 1 < len(order) and not any(
                    self.significant[order[m], order[end + 1]] for m in range(start, end + 1)):
                end += 1
            if end > start and end > last_end:
                runs.append(tuple(self.models[order[m]] for m in range(start, end + 1)))
                last_end = end
        return runs


def _holm(pvalues):
    """Holm's step-down adjusted p-values: ``max_{j <= i} min(1, (m - j + 1) p_(j))``."""
    m = pvalues.size
    order = np.argsort(pvalues, kind="stable")
    adjusted = np.minimum(1.0, (m - np.arange(m)) * pvalues[order])
    adjusted = np.maximum.accumulate(adjusted)
    result = np.empty(m)
    result[order] = adjusted
    return result


# Below this level scipy's studentized range (its tail computed as 1 - cdf) loses its
# digits: its quantile is capped at 100, or infinite, below 1e-16. There the quantile is
# that of the Bonferroni bound of the range's tail, k (k - 1) / 2 pairs' two-sided normal
# tails, which the tail approaches as q grows: within 1.2e-5 relative of scipy's quantile
# at 1e-10 for 2 to 100 models, closer below.
_RANGE_TAIL = 1e-10


def _normal_isf(alpha, divisor):
    """The normal quantile of the upper tail ``alpha / divisor``, finite for every alpha
    in (0, 1) (a quotient below the smallest float read through its logarithm)."""
    return -float(special.ndtri_exp(math.log(alpha) - math.log(divisor)))


def _nemenyi_quantile(alpha, n_models):
    """``q_alpha`` of Demsar's Table 5(a): the studentized range quantile over sqrt(2)."""
    if alpha >= _RANGE_TAIL:
        return float(stats.studentized_range.isf(alpha, n_models, np.inf)) / math.sqrt(2)
    return _normal_isf(alpha, n_models * (n_models - 1))


@validate_params({**ACROSS_DATASETS, **POSTHOC_ACROSS_DATASETS}, renamed=RENAMED)
def friedman_posthoc(scores, *, method="nemenyi", control=None, alpha=0.05,
                     greater_is_better=True, models=None):
    """Post-hoc tests after the Friedman test: which models differ (Demsar 2006, 3.2.2).

    Every test compares the models' average ranks over the data sets: two average ranks
    differ with the standard error ``SE = sqrt(k (k + 1) / (6 N))``.

    Parameters
    ----------
    scores : array-like or pandas.DataFrame of shape (n_datasets, n_models)
        As in :func:`friedman_test`.
    method : {"nemenyi", "holm", "bonferroni-dunn"}, default="nemenyi"
        ``"nemenyi"``: all pairs, significant where the average ranks differ by the
        critical difference ``CD = q_alpha SE`` or more (``q_alpha`` from the studentized
        range of ``k`` means with infinite degrees of freedom, over ``sqrt(2)``).
        ``"holm"``: the z-tests ``z = (R_i - R_j) / SE`` (two-sided normal p-values) with
        Holm's step-down correction over all ``k (k - 1) / 2`` pairs, or over the
        ``k - 1`` comparisons with ``control``. ``"bonferroni-dunn"``: the z-tests against
        ``control`` with Bonferroni's correction (a critical difference with the normal
        quantile of ``alpha / (2 (k - 1))``); it needs ``control``.
    control : str or int, default=None
        The model every other model is compared with (a name, or a column position), for
        ``"holm"`` and ``"bonferroni-dunn"``: fewer comparisons, more power (Demsar). None:
        all pairs.
    alpha : float, default=0.05
        The family-wise level of the significance flags and the critical difference.
    greater_is_better : bool, default=True
        Whether a higher score is better.
    models : sequence of str, default=None
        The models' names, as in :func:`friedman_test` (formerly ``names=``, which still
        works with a ``FutureWarning``).

    Returns
    -------
    FriedmanPosthocResult
        ``pvalue`` (the adjusted p-values of the pairs, ``to_frame()`` gives them as a
        table), ``significant``, ``critical_difference``, ``average_ranks``, and
        :meth:`FriedmanPosthocResult.groups`.

    See Also
    --------
    friedman_test : The omnibus test, to read first.
    CriticalDifferenceDisplay : Demsar's critical difference diagram of the result.
    marginal_homogeneity_posthoc : The post-hoc tests of one confusion matrix.

    Notes
    -----
    Nemenyi's p-value of a pair is the probability that the studentized range of ``k``
    standard normal means exceeds ``|R_i - R_j| / SE * sqrt(2)``
    (``scipy.stats.studentized_range`` with infinite degrees of freedom); it is below
    ``alpha`` exactly where the difference exceeds the critical difference. A post-hoc
    test is read after the Friedman test rejects (:func:`friedman_test`); it can fail to
    find a difference the omnibus test found (it has less power).

    References
    ----------
    .. [1] J. Demsar, "Statistical Comparisons of Classifiers over Multiple Data Sets",
       Journal of Machine Learning Research 7, 1-30, 2006, Section 3.2.2: the standard
       error ``sqrt(k (k + 1) / (6 N))``, Nemenyi's critical difference (the quantiles
       of Table 5(a)), Bonferroni and Dunn's (Table 5(b)) and Holm's step-down procedure;
       the example of Table 6.

    Examples
    --------
    Demsar's example (as in :func:`friedman_test`), at ``alpha=0.10``: C4.5 ranks
    significantly worse than C4.5+m and C4.5+m+cf; the data tell nothing of C4.5+cf.

    >>> from sklearn_confusion_ext import friedman_posthoc
    >>> auc = [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...        [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...        [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...        [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...        [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...        [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...        [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]]
    >>> names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    >>> round(friedman_posthoc(auc, models=names).critical_difference, 2)
    1.25
    >>> posthoc = friedman_posthoc(auc, models=names, alpha=0.10)
    >>> round(posthoc.critical_difference, 2), posthoc.groups()
    (1.12, [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5')])

    Against the control C4.5, Holm's test finds C4.5+m+cf and C4.5+m better:

    >>> holm = friedman_posthoc(auc, models=names, method="holm", control="C4.5")
    >>> holm.to_frame().loc["C4.5"].round(3).tolist()
    [1.0, 0.047, 0.608, 0.047]
    """
    values, models, _ = _table(scores, greater_is_better, models)
    n_datasets, n_models = values.shape
    if method == "bonferroni-dunn" and control is None:
        raise ValueError("method='bonferroni-dunn' compares every model with a control: "
                         "pass control= (a model's name or column), or use method='holm' or "
                         "'nemenyi' for all pairs.")
    if method == "nemenyi" and control is not None:
        raise ValueError("method='nemenyi' compares all pairs; with a control, use "
                         "method='holm' (or 'bonferroni-dunn'), which have more power.")
    c = _control_index(control, models)
    _check_size(values, "friedman_posthoc")
    average = _ranks(values).mean(axis=0)
    se = _standard_error(n_models, n_datasets)
    statistic = (average[None, :] - average[:, None]) / se
    upper = np.triu_indices(n_models, 1)
    pairs = (list(zip(*upper)) if c is None
             else [(c, j) for j in range(n_models) if j != c])
    rows, columns = np.array(pairs).T
    z = np.abs(statistic[rows, columns])
    cd = None
    if method == "nemenyi":
        raw = stats.studentized_range.sf(z * math.sqrt(2), n_models, np.inf)
        adjusted = np.clip(np.asarray(raw, dtype=float), 0.0, 1.0)
        cd = _nemenyi_quantile(alpha, n_models) * se
        significant_pairs = np.abs(average[rows] - average[columns]) >= cd
    else:
        raw = 2 * stats.norm.sf(z)
        if method == "holm":
            adjusted = _holm(raw)
        else:
            adjusted = np.minimum(1.0, raw * len(pairs))
            cd = _normal_isf(alpha, 2 * len(pairs)) * se
        significant_pairs = adjusted < alpha
    pvalue = np.full((n_models, n_models), np.nan if c is not None else 1.0)
    np.fill_diagonal(pvalue, 1.0)
    significant = np.zeros((n_models, n_models), dtype=bool)
    for (i, j), p, flag in zip(pairs, adjusted, significant_pairs):
        pvalue[i, j] = pvalue[j, i] = p
        significant[i, j] = significant[j, i] = flag
    return FriedmanPosthocResult(
        pvalue=pvalue, statistic=statistic, significant=significant, average_ranks=average,
        critical_difference=None if cd is None else float(cd), standard_error=se,
        method=method, alpha=alpha, models=models,
        control=None if c is None else models[c], n_datasets=n_datasets)


def _control_index(control, models):
    if control is None:
        return None
    if isinstance(control, str):
        if control not in models:
            raise ValueError(f"control={control!r} names no model; the models are "
                             f"{list(models)}.")
        return models.index(control)
    if not 0 <= control < len(models):
        raise ValueError(f"control={control!r} is no column of the {len(models)} models.")
    return int(control)
