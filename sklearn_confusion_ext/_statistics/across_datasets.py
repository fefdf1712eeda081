"""Comparisons of several models over several data sets.

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
  (its critical difference uses the normal quantile of ``alpha / (2 (k - 1))``);
* the Bayesian signed-rank test of two models (Benavoli, Mangili, Corani, Zaffalon and
  Ruggeri, ICML 2014; Benavoli, Corani, Demsar and Zaffalon, "Time for a change", JMLR 18,
  2017, Section 5): a Dirichlet process posterior on the distribution of the per-data-set
  differences, with a prior pseudo-observation at 0, read as the probabilities that model a
  is better, that the two are practically equivalent (within ``rope``), and that model b is
  better;
* the Bayesian hierarchical test of two models (Corani, Benavoli, Demsar, Mangili and
  Zaffalon, Machine Learning 2017), from every fold's score on every data set: the
  correlated t-test's model on each data set, the data sets' differences drawn from a
  Student t, sampled by Markov chain Monte Carlo in NumPy and SciPy.
"""

import functools
import math
from dataclasses import KW_ONLY

import numpy as np
from scipy import special, stats

from .._core.config import check_result_size
from .._core.params import quoted, validate_params
from .._core.results import _result, _shown, _Table, _Tabulated, _UnpacksLikeScipy
from .._core.user_warnings import warn
from .cross_validated import fold_sizes

POSTHOC_METHODS = ("nemenyi", "holm", "bonferroni-dunn")
# Demsar (2006, Section 3.2.2): Friedman's chi-square follows its asymptotic distribution
# "when N and k are big enough (as a rule of a thumb, N > 10 and k > 5)".
MIN_DATASETS = 11
# Dirichlet weights are drawn and summed in blocks of this many samples (bounded memory),
# a block of at most _BLOCK_BYTES (where there are more than 2,000 data sets).
_BLOCK = 4096
_BLOCK_BYTES = 64 * 2 ** 20


# --- The table of scores ------------------------------------------------------------------


def _table(scores, greater_is_better, names, name="scores"):
    """``(values, models, datasets)``: the (n_datasets, n_models) float array of ``scores``
    oriented so that higher is better, the models' names and the data sets' names."""
    models = datasets = None
    if hasattr(scores, "columns") and hasattr(scores, "index"):  # a pandas DataFrame
        models = [str(column) for column in scores.columns]
        datasets = [str(index) for index in scores.index]
        scores = scores.to_numpy()
    try:
        values = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a table of numbers (n_datasets, n_models); got "
                        f"{quoted(scores)}.") from None
    if values.ndim != 2:
        raise ValueError(f"{name} must be 2-D, one row per data set and one column per "
                         f"model; got shape {values.shape}.")
    n_datasets, n_models = values.shape
    if n_models < 2:
        raise ValueError(f"{name} must hold at least 2 models (columns) to compare; got "
                         f"{n_models}.")
    if n_datasets < 2:
        raise ValueError(f"{name} must hold at least 2 data sets (rows); got {n_datasets}. "
                         "A comparison on one data set is a paired test of its folds "
                         "(compare_cv) or of its predictions (compare_scores).")
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"{name} has {values[i, j]} at data set {i}, model {j} "
                         f"({len(bad)} non-finite score(s)): every model needs a score on "
                         "every data set.")
    if names is not None:
        names = [str(model) for model in names]
        if len(names) != n_models:
            raise ValueError(f"names must name the {n_models} models (columns of {name}); "
                             f"got {len(names)} names.")
        models = names
    if models is None:
        models = [f"model {j}" for j in range(n_models)]
    if len(set(models)) != n_models:
        raise ValueError(f"The models' names must be distinct; got {models}.")
    return (values if greater_is_better else -values), tuple(models), (
        None if datasets is None else tuple(datasets))


def _ranks(values):
    """Rank of each model within each data set: 1 for the highest score, ties averaged."""
    return stats.rankdata(-values, axis=1, method="average")


def _standard_error(n_models, n_datasets):
    """The standard error of a difference of two average ranks (Demsar 2006, eq. z)."""
    return math.sqrt(n_models * (n_models + 1) / (6.0 * n_datasets))


# --- The Friedman test ----------------------------------------------------------------------


@_result()
class FriedmanTestResult(_UnpacksLikeScipy, _Tabulated):
    """Result of :func:`friedman_test`.

    Unpacks like scipy's results: ``statistic, pvalue = friedman_test(scores)``, Iman and
    Davenport's F and its p-value (Demsar's recommendation); Friedman's chi-square is
    ``chi2_statistic`` and ``chi2_pvalue``.

    Parameters
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

    Examples
    --------
    >>> from sklearn_confusion_ext import friedman_test
    >>> scores = [[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.5], [0.95, 0.9, 0.8]]
    >>> result = friedman_test(scores, names=["forest", "tree", "stump"])
    >>> statistic, pvalue = result
    >>> result.average_ranks.tolist(), round(result.chi2_statistic, 2)
    ([1.25, 1.75, 3.0], 6.5)
    """

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


def _check_size(n_datasets, n_models, caller):
    if n_datasets < MIN_DATASETS:
        warn(f"{caller}: {n_datasets} data sets are few for the Friedman test's approximate "
             "distribution (Demsar 2006, Section 3.2.2: as a rule of thumb N > 10 data sets "
             f"and k > 5 models; here k = {n_models}). Its p-values and the post-hoc tests "
             "are approximate; report them as such, or add data sets.", UserWarning)


@validate_params()
def friedman_test(scores, *, greater_is_better=True, tie_correction=False, names=None):
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
    names : sequence of str, default=None
        The models' names; a DataFrame's columns, else ``"model 0"``, ``"model 1"``...

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
        approximation is ``N > 10`` (and ``k > 5``).

    Notes
    -----
    ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` and
    ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``. Friedman's chi-square is conservative
    (Iman and Davenport 1980); the F statistic is the test to report. Where it rejects,
    :func:`friedman_posthoc` tells which models differ.

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
    >>> result = friedman_test(auc, names=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    >>> result.average_ranks.round(3).tolist()
    [3.143, 2.0, 2.893, 1.964]
    >>> round(result.chi2_statistic, 2), round(result.statistic, 2), result.df
    (9.28, 3.69, (3.0, 39.0))
    >>> round(result.pvalue, 3)
    0.02
    """
    values, models, datasets = _table(scores, greater_is_better, names)
    n_datasets, n_models = values.shape
    _check_size(n_datasets, n_models, "friedman_test")
    average, chi2, chi2_pvalue, statistic, pvalue, df = _friedman(values, tie_correction)
    return FriedmanTestResult(
        statistic, pvalue, df=df, chi2_statistic=chi2, chi2_pvalue=chi2_pvalue,
        average_ranks=average, models=models, n_datasets=n_datasets,
        tie_correction=bool(tie_correction), datasets=datasets)


# --- Post-hoc tests ----------------------------------------------------------------------


@_result()
class FriedmanPosthocResult(_Tabulated):
    """Result of :func:`friedman_posthoc`: which models differ.

    Parameters
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
    control : str or None
        The control model, where every other model was compared with it only.
    n_datasets : int

    Examples
    --------
    >>> from sklearn_confusion_ext import friedman_posthoc
    >>> scores = [[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.5], [0.95, 0.9, 0.8]]
    >>> result = friedman_posthoc(scores, names=["forest", "tree", "stump"])
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

    def groups(self):
        """The groups of models not significantly different, as Demsar's diagram joins them.

        Returns
        -------
        list of tuple of str
            The models of each group, best first: maximal runs of models consecutive in
            average rank of which no two differ significantly (all pairs), or the control
            with every model not significantly different from it (with a control). Models
            that differ from every other one are in no group.
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


@validate_params()
def friedman_posthoc(scores, *, method="nemenyi", control=None, alpha=0.05,
                     greater_is_better=True, names=None):
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
    names : sequence of str, default=None
        The models' names, as in :func:`friedman_test`.

    Returns
    -------
    FriedmanPosthocResult
        ``pvalue`` (the adjusted p-values of the pairs, ``to_frame()`` gives them as a
        table), ``significant``, ``critical_difference``, ``average_ranks``, and
        :meth:`FriedmanPosthocResult.groups`.

    Notes
    -----
    Nemenyi's p-value of a pair is the probability that the studentized range of ``k``
    standard normal means exceeds ``|R_i - R_j| / SE * sqrt(2)``
    (``scipy.stats.studentized_range`` with infinite degrees of freedom); it is below
    ``alpha`` exactly where the difference exceeds the critical difference. A post-hoc
    test is read after the Friedman test rejects (:func:`friedman_test`); it can fail to
    find a difference the omnibus test found (it has less power).

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
    >>> round(friedman_posthoc(auc, names=names).critical_difference, 2)
    1.25
    >>> posthoc = friedman_posthoc(auc, names=names, alpha=0.10)
    >>> round(posthoc.critical_difference, 2), posthoc.groups()
    (1.12, [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5')])

    Against the control C4.5, Holm's test finds C4.5+m+cf and C4.5+m better:

    >>> holm = friedman_posthoc(auc, names=names, method="holm", control="C4.5")
    >>> holm.to_frame().loc["C4.5"].round(3).tolist()
    [1.0, 0.047, 0.608, 0.047]
    """
    values, models, _ = _table(scores, greater_is_better, names)
    n_datasets, n_models = values.shape
    if method == "bonferroni-dunn" and control is None:
        raise ValueError("method='bonferroni-dunn' compares every model with a control: "
                         "pass control= (a model's name or column), or use method='holm' or "
                         "'nemenyi' for all pairs.")
    if method == "nemenyi" and control is not None:
        raise ValueError("method='nemenyi' compares all pairs; with a control, use "
                         "method='holm' (or 'bonferroni-dunn'), which have more power.")
    c = _control_index(control, models)
    _check_size(n_datasets, n_models, "friedman_posthoc")
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


# --- The Bayesian signed-rank test --------------------------------------------------------


@_result()
class BayesianSignedRankResult(_UnpacksLikeScipy):
    """Result of :func:`bayesian_signed_rank_test`.

    Unpacks to three probabilities whatever ``rope``:
    ``p_a_better, p_rope, p_b_better = result`` (``p_rope`` is 0 where ``rope`` is 0).

    Parameters
    ----------
    p_a_better, p_rope, p_b_better : float
        The posterior probability that model a is better, that the two are practically
        equivalent, and that model b is better: the share of the posterior samples in which
        that region holds the largest mass, a sample whose largest mass two regions share
        counting half to each (0 for ``p_rope`` where ``rope`` is 0).
    rope : float
        Half-width of the region of practical equivalence, in units of the score.
    samples : ndarray of shape (n_samples, 3)
        The posterior samples of the masses ``(a better, equivalent, b better)``: where
        a sample of the distribution of the differences puts ``(a - b + a' - b') / 2``
        (over pairs of data sets, the pseudo-observation included).
    prior_strength : float
        The weight of the prior pseudo-observation at difference 0.
    models : tuple of str
    n_datasets : int

    Examples
    --------
    >>> from sklearn_confusion_ext import bayesian_signed_rank_test
    >>> a = [0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87]
    >>> b = [0.89, 0.86, 0.74, 0.85, 0.90, 0.69, 0.80, 0.95, 0.60, 0.84]
    >>> p_a_better, p_rope, p_b_better = bayesian_signed_rank_test(a, b, rope=0.01,
    ...                                                             random_state=0)
    >>> round(p_a_better, 2), round(p_rope, 2), round(p_b_better, 2)
    (0.99, 0.01, 0.0)
    """

    _: KW_ONLY
    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    samples: object
    prior_strength: float
    models: tuple
    n_datasets: int

    _summary_fields = ("p_a_better", "p_rope", "p_b_better", "rope", "models",
                       "n_datasets")
    _unpacked = ("p_a_better", "p_rope", "p_b_better")


def _winning_shares(samples):
    """The share of the rows of ``samples`` (masses of the regions: a better, equivalent, b
    better) in which each region holds the largest mass, a row whose largest mass two or
    three regions share exactly counting 1/2 or 1/3 to each.

    Benavoli et al. (2017, Section 5) read the probability of a region as that of its mass
    being the largest; where masses tie (identical models: every difference 0, each side
    half the mass) no region is larger, and a tie broken towards the first region (NumPy's
    argmax, baycomp's rounding) made identical models read "a better" with probability 1.
    """
    samples = np.asarray(samples, dtype=float)
    largest = samples == samples.max(axis=1, keepdims=True)
    return (largest / largest.sum(axis=1, keepdims=True)).mean(axis=0)


def _heaviside(values, threshold):
    """1 above ``threshold``, 1/2 at it, 0 below (the signed-rank test's indicator)."""
    return (values > threshold) + 0.5 * (values == threshold)


def _signed_rank_masses(differences, weights, rope):
    """The masses ``(above rope, within, below -rope)`` of each Dirichlet weight vector
    (rows of ``weights``, the first for the pseudo-observation at 0) on the Walsh averages
    ``(z_i + z_j) / 2`` of the differences ``z`` (0 prepended)."""
    z = np.concatenate([[0.0], differences])
    sums = z[:, None] + z[None, :]
    # 2 * rope in Python floats: inf beyond 9e307 (every finite sum within), where a NumPy
    # scalar's product warned of an overflow
    above = _heaviside(sums, 2 * float(rope))
    below = _heaviside(-sums, 2 * float(rope))
    mass_above = np.einsum("si,ij,sj->s", weights, above, weights)
    mass_below = np.einsum("si,ij,sj->s", weights, below, weights)
    within = 1.0 - mass_below - mass_above if rope > 0 else np.zeros_like(mass_above)
    return np.column_stack([mass_above, within, mass_below])


@validate_params()
def bayesian_signed_rank_test(scores_a, scores_b, *, rope=0.0, prior_strength=0.5,
                              n_samples=50000, greater_is_better=True, random_state=None,
                              names=None):
    """Bayesian signed-rank test of two models over several data sets.

    Benavoli, Corani, Demsar and Zaffalon ("Time for a change", JMLR 2017, Section 5; the
    test of Benavoli et al., ICML 2014): the distribution of the per-data-set differences
    ``z = a - b`` gets a Dirichlet process posterior, the data plus one prior
    pseudo-observation at ``z = 0`` of weight ``prior_strength``. Each posterior sample
    weighs the observations by Dirichlet weights ``w`` and puts the mass
    ``sum_ij w_i w_j [z_i + z_j > 2 rope]`` on "model a better" (the signed-rank statistic's
    posterior), likewise below ``-2 rope`` for model b, and the rest on practical
    equivalence. The probabilities reported are the shares of samples in which each region
    holds the largest mass, as in ``baycomp``; a sample in which two regions hold the same
    largest mass counts half to each (baycomp's rounding and NumPy's argmax gave it to
    model a: identical models read "a better" with probability 0.68 and 1).

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_datasets,)
        One score per data set for each model (e.g. its mean cross-validation score), in
        the same order: two columns of the table of :func:`friedman_test`.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in units of the score (0.01:
        one point of accuracy). With 0, ``p_rope`` is 0 and there is no equivalence to
        conclude (see Notes).
    prior_strength : float, default=0.5
        Weight of the prior pseudo-observation at 0 (``baycomp``'s ``prior``).
    n_samples : int, default=50000
        Posterior samples; the probabilities' Monte Carlo standard error is at most
        ``0.5 / sqrt(n_samples)`` (0.002 by default). Samples above the memory budget
        (``max_matrix_mib``, :func:`set_config`) are refused before any is drawn.
    greater_is_better : bool, default=True
        Whether a higher score is better (False: the differences change sign).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the Dirichlet samples.
    names : tuple of two str, default=None
        The models' names; the Series' names of pandas inputs, else ``("a", "b")``.

    Returns
    -------
    BayesianSignedRankResult
        ``p_a_better``, ``p_rope``, ``p_b_better`` and the ``samples``.

    Notes
    -----
    The test uses the per-data-set scores only, not their cross-validation variance
    (:func:`bayesian_hierarchical_test` models the folds too). The data sets are assumed
    independent.

    Ties: a pair of data sets whose differences sum to exactly ``2 rope`` (to 0 with
    ``rope=0``) puts half its mass on each side, as the signed-rank statistic counts ties.
    Identical models (every difference 0) thus give every sample the masses
    ``(1/2, 0, 1/2)`` with ``rope=0``, so that ``p_a_better = p_b_better = 0.5``, and
    ``p_rope = 1`` with any ``rope > 0``. With ``rope=0`` tied data sets weigh equally on
    both sides and cannot count as equivalence: the data sets that differ decide every
    sample, and one data set of ten in which a is better, the nine others tied, gives
    ``p_a_better = 1``. Pass a ``rope`` (Benavoli et al. recommend one) for ties to count
    as practical equivalence.

    Examples
    --------
    >>> from sklearn_confusion_ext import bayesian_signed_rank_test
    >>> a = [0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87]
    >>> b = [0.90, 0.86, 0.78, 0.88, 0.92, 0.71, 0.82, 0.95, 0.65, 0.87]
    >>> result = bayesian_signed_rank_test(a, b, rope=0.02, random_state=0,
    ...                                    names=("forest", "boosting"))
    >>> round(result.p_rope, 2)  # practically equivalent within 2 points
    1.0
    """
    arrays = []
    default_names = []
    for name, scores in (("scores_a", scores_a), ("scores_b", scores_b)):
        default_names.append(getattr(scores, "name", None))
        try:
            array = np.asarray(scores, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold one number per data set; got "
                            f"{quoted(scores)}.") from None
        if array.ndim != 1:
            raise ValueError(f"{name} must be 1-D, one score per data set; got shape "
                             f"{array.shape}.")
        arrays.append(array)
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"scores_a and scores_b must hold the scores of the same data sets; "
                         f"got {arrays[0].size} and {arrays[1].size} scores.")
    table = np.column_stack(arrays)
    if names is None:
        names = tuple(str(n) if n is not None else default
                      for n, default in zip(default_names, ("a", "b")))
        if names[0] == names[1]:
            names = ("a", "b")
    elif len(names) != 2:
        raise ValueError(f"names must name the two models; got {len(names)} names.")
    values, models, _ = _table(table, greater_is_better, names,
                               name="scores_a and scores_b")
    differences = values[:, 0] - values[:, 1]
    n_walsh = differences.size + 1
    # The result's samples and the two indicators of the Walsh averages, before any draw.
    check_result_size("bayesian_signed_rank_test", (3 * n_samples + 2 * n_walsh ** 2,),
                      f"n_samples={n_samples} posterior samples of 3 masses, and two "
                      f"{n_walsh} x {n_walsh} tables of the data sets' pairs",
                      remedy="Ask for fewer posterior samples (n_samples=)"
                      if 3 * n_samples >= 2 * n_walsh ** 2 else "Compare fewer data sets")
    # A block of Dirichlet weights takes at most _BLOCK_BYTES.
    block = max(1, min(_BLOCK, _BLOCK_BYTES // (8 * n_walsh)))
    rng = np.random.default_rng(random_state)
    alphas = np.concatenate([[prior_strength], np.ones(differences.size)])
    samples = np.empty((n_samples, 3))
    for start in range(0, n_samples, block):
        stop = min(n_samples, start + block)
        weights = rng.dirichlet(alphas, stop - start)
        samples[start:stop] = _signed_rank_masses(differences, weights, rope)
    # The region of the largest mass wins; regions of equal largest mass share the sample.
    a_better, p_rope, b_better = (float(p) for p in _winning_shares(samples))
    return BayesianSignedRankResult(
        p_a_better=a_better, p_rope=p_rope, p_b_better=b_better, rope=float(rope),
        samples=samples, prior_strength=float(prior_strength),
        models=models, n_datasets=int(differences.size))


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
# Convergence warnings (Vehtari, Gelman, Simpson, Carpenter and Buerkner 2021): the
# rank-normalized split R-hat above this, or a bulk effective sample size below this many
# draws per chain.
RHAT_LIMIT = 1.01
ESS_PER_CHAIN = 100
# The slice sampler's intervals, on the log scales: their width before tuning, and after it,
# this many times the spread of the tuning draws (not below the minimum).
_SLICE_WIDTH = 1.0
_SLICE_FACTOR = 3.0
_SLICE_MIN_WIDTH = 0.01
_TUNING_DRAWS = 50
_SLICE_STEPS = 100
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


def _sample_hierarchical(data, n_chains, n_samples, burn_in, rng):
    """The kept draws of ``mu0``, ``sigma0``, ``nu`` (each ``(n_chains, n_samples)``) and
    ``delta`` (``(n_chains, n_samples, n_datasets)``), on the standardized scale."""
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


# --- Convergence diagnostics ------------------------------------------------------------------


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


# --- The test -------------------------------------------------------------------------------


@_result()
class BayesianHierarchicalResult(_UnpacksLikeScipy, _Tabulated):
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

    Parameters
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
    samples : ndarray of shape (n_chains * n_samples, 3)
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
        degrees of freedom), each ``(n_chains * n_samples,)``, and ``"delta"``, the
        data sets' differences, ``(n_chains * n_samples, n_datasets)``.
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
    n_chains, n_samples, burn_in : int
        The chains, the draws kept per chain, the draws discarded before them.
    models : tuple of str
    n_datasets, n_folds : int
    datasets : tuple of str or None
        The data sets' names (a DataFrame's index), where known.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import bayesian_hierarchical_test
    >>> rng = np.random.default_rng(0)
    >>> b = rng.uniform(0.7, 0.9, (6, 1)) + rng.normal(0, 0.02, (6, 10))
    >>> a = b + 0.03 + rng.normal(0, 0.01, (6, 10))
    >>> result = bayesian_hierarchical_test(a, b, n_train=9, n_test=1, rope=0.01,
    ...                                     n_samples=500, random_state=0)
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
    n_samples: int
    burn_in: int
    models: tuple
    n_datasets: int
    n_folds: int
    datasets: object = None

    _summary_fields = ("p_a_better", "p_rope", "p_b_better", "next_dataset", "rope",
                       "models", "n_datasets", "n_folds", "rhat", "ess")
    _unpacked = ("p_a_better", "p_rope", "p_b_better")

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
                         "compare_cv_scores(test='bayesian').")
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


@validate_params()
def bayesian_hierarchical_test(scores_a, scores_b, *, n_train=None, n_test=None, rope=0.0,
                               n_samples=2000, n_chains=4, burn_in=1000,
                               greater_is_better=True, random_state=None, names=None):
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
    n_samples : int, default=2000
        Posterior draws kept per chain.
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
    names : tuple of two str, default=None
        The models' names, ``("a", "b")`` by default.

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
        size below 100 draws per chain (Vehtari et al. 2021); draw more (``n_samples``,
        ``burn_in``). Where a data set's differences have no spread over its folds (see
        Notes).

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

    Examples
    --------
    Ten-fold scores of two models on eight data sets, model a better by about two points:

    >>> import numpy as np
    >>> from sklearn_confusion_ext import bayesian_hierarchical_test
    >>> rng = np.random.default_rng(0)
    >>> b = rng.uniform(0.6, 0.9, (8, 1)) + rng.normal(0, 0.02, (8, 10))
    >>> a = b + rng.normal(0.02, 0.01, (8, 1)) + rng.normal(0, 0.01, (8, 10))
    >>> result = bayesian_hierarchical_test(a, b, n_train=9, n_test=1, rope=0.01,
    ...                                     random_state=0, names=("forest", "tree"))
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
    if names is None:
        names = ("a", "b")
    elif len(names) != 2:
        raise ValueError(f"names must name the two models; got {len(names)} names.")
    models = tuple(str(name) for name in names)
    # What the draws hold at once, before any: the draws kept of (mu0, sigma0, nu, delta)
    # with the result's copies and samples, and the log-scales of the tuning half of the
    # burn-in.
    check_result_size(
        "bayesian_hierarchical_test",
        (n_chains * n_samples * (2 * n_datasets + 11) + 2 * n_chains * (burn_in // 2),),
        f"n_chains={n_chains} chains of n_samples={n_samples} draws of "
        f"{n_datasets + 3} parameters, and burn_in={burn_in}",
        remedy="Ask for fewer draws (n_samples=, n_chains=, burn_in=)")
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
             "n_samples and burn_in.", RuntimeWarning)
    return BayesianHierarchicalResult(
        p_a_better=float(winners[0]), p_rope=float(winners[1]),
        p_b_better=float(winners[2]), rope=float(rope), samples=samples,
        next_dataset=samples.mean(axis=0), mean_difference=_regions(mu0, rope_z),
        draws={"mu0": mu0 * scale, "sigma0": sigma0 * scale, "nu": nu, "delta": delta},
        observed=differences.mean(axis=1), shrunken=delta.mean(axis=0),
        shrunken_std=delta.std(axis=0), dataset_probabilities=_regions(delta, rope),
        rho=rho, rhat=rhat, ess=ess, n_chains=int(n_chains), n_samples=int(n_samples),
        burn_in=int(burn_in), models=models, n_datasets=n_datasets, n_folds=n_folds,
        datasets=datasets)


def _worst(monitored):
    """The largest R-hat and the smallest effective sample size of the monitored draws."""
    values = np.array([_diagnostics(chains) for chains in monitored])
    return values[:, 0].max(), values[:, 1].min()
