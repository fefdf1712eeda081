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
  better.
"""

import math
from dataclasses import KW_ONLY

import numpy as np
from scipy import stats

from .._core.params import quoted, validate_params
from .._core.results import _result, _Tabulated, _UnpacksLikeScipy
from .._core.user_warnings import warn

POSTHOC_METHODS = ("nemenyi", "holm", "bonferroni-dunn")
# Demsar (2006, Section 3.2.2): Friedman's chi-square follows its asymptotic distribution
# "when N and k are big enough (as a rule of a thumb, N > 10 and k > 5)".
MIN_DATASETS = 11
# Dirichlet weights are drawn and summed in blocks of this many samples (bounded memory).
_BLOCK = 4096


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


def _nemenyi_quantile(alpha, n_models):
    """``q_alpha`` of Demsar's Table 5(a): the studentized range quantile over sqrt(2)."""
    return float(stats.studentized_range.ppf(1 - alpha, n_models, np.inf)) / math.sqrt(2)


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
            cd = float(stats.norm.isf(alpha / (2 * len(pairs)))) * se
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

    Unpacks like ``baycomp.two_on_multiple``: ``p_a_better, p_rope, p_b_better = result``
    where ``rope > 0``, and ``p_a_better, p_b_better = result`` where ``rope == 0``.

    Parameters
    ----------
    p_a_better, p_rope, p_b_better : float
        The posterior probability that model a is better, that the two are practically
        equivalent, and that model b is better: the share of the posterior samples in which
        that region holds the largest mass (0 for ``p_rope`` where ``rope`` is 0).
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

    @property
    def _unpacked(self):
        if self.rope == 0:
            return ("p_a_better", "p_b_better")
        return ("p_a_better", "p_rope", "p_b_better")


def _heaviside(values, threshold):
    """1 above ``threshold``, 1/2 at it, 0 below (the signed-rank test's indicator)."""
    return (values > threshold) + 0.5 * (values == threshold)


def _signed_rank_masses(differences, weights, rope):
    """The masses ``(above rope, within, below -rope)`` of each Dirichlet weight vector
    (rows of ``weights``, the first for the pseudo-observation at 0) on the Walsh averages
    ``(z_i + z_j) / 2`` of the differences ``z`` (0 prepended)."""
    z = np.concatenate([[0.0], differences])
    sums = z[:, None] + z[None, :]
    above = _heaviside(sums, 2 * rope)
    below = _heaviside(-sums, 2 * rope)
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
    holds the largest mass, as in ``baycomp``.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_datasets,)
        One score per data set for each model (e.g. its mean cross-validation score), in
        the same order: two columns of the table of :func:`friedman_test`.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in units of the score (0.01:
        one point of accuracy). 0 gives two probabilities.
    prior_strength : float, default=0.5
        Weight of the prior pseudo-observation at 0 (``baycomp``'s ``prior``).
    n_samples : int, default=50000
        Posterior samples; the probabilities' Monte Carlo standard error is at most
        ``0.5 / sqrt(n_samples)`` (0.002 by default).
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
    The test uses the per-data-set scores only, not their cross-validation variance (the
    hierarchical test of Benavoli et al. does, with a Markov chain Monte Carlo sampler,
    which this library does not have). The data sets are assumed independent.

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
    rng = np.random.default_rng(random_state)
    alphas = np.concatenate([[prior_strength], np.ones(differences.size)])
    samples = np.empty((n_samples, 3))
    for start in range(0, n_samples, _BLOCK):
        stop = min(n_samples, start + _BLOCK)
        weights = rng.dirichlet(alphas, stop - start)
        samples[start:stop] = _signed_rank_masses(differences, weights, rope)
    # The first region of the largest mass wins (a tie of a and b goes to a, as baycomp).
    winners = np.bincount(np.argmax(samples, axis=1), minlength=3) / n_samples
    a_better, p_rope, b_better = (float(p) for p in winners)
    return BayesianSignedRankResult(
        p_a_better=a_better, p_rope=p_rope, p_b_better=b_better, rope=float(rope),
        samples=samples, prior_strength=float(prior_strength),
        models=models, n_datasets=int(differences.size))
