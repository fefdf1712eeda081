"""Several models over several data sets: the Friedman test with Iman and Davenport's F,
the Nemenyi, Holm and Bonferroni-Dunn post-hoc tests; against Demsar's worked example
(JMLR 2006, Section 3.2.2), scipy, scikit-posthocs and autorank, and the Type I error by
simulation. The diagram is tested in ``_plot/test_critical_difference.py``, the Bayesian
signed-rank test in ``test_signed_rank.py``."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

import sklearn_confusion_ext as sce

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# Demsar (2006), Table 6: AUC of four variants of C4.5 on 14 data sets, as printed.
AUC = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970]])
# The ranks the paper prints beside them (its average ranks and statistics use these): on
# "voting" the two AUCs printed 0.975 are ranked 2 and 3 (they differ unrounded).
PAPER_RANKS = np.array([
    [4, 3, 2, 1], [1, 2, 3, 4], [4, 1, 2, 3], [4, 1, 3, 2], [4, 2, 3, 1],
    [1, 2.5, 4, 2.5], [3, 2, 4, 1], [2.5, 2.5, 4, 1], [4, 3, 2, 1], [2.5, 2.5, 2.5, 2.5],
    [4, 2.5, 1, 2.5], [3, 2, 4, 1], [4, 1, 2, 3], [3, 1, 4, 2]])
PAPER = -PAPER_RANKS  # scores whose ranks are the paper's


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return function(*args, **kwargs)


# --- Demsar's worked example ---------------------------------------------------------------


def test_printed_table_ranks_as_the_paper_except_the_voting_tie():
    ranks = stats.rankdata(-AUC, axis=1)
    differs = np.flatnonzero((ranks != PAPER_RANKS).any(axis=1))
    assert differs.tolist() == [12]  # voting: 0.975 and 0.975 are ranked 2 and 3 there
    assert ranks[12].tolist() == [4, 1, 2.5, 2.5]


def test_friedman_reproduces_demsar():
    result = sce.friedman_test(PAPER, models=NAMES)
    assert np.round(result.average_ranks, 3).tolist() == [3.143, 2.0, 2.893, 1.964]
    assert round(result.chi2_statistic, 2) == 9.28
    assert round(result.statistic, 2) == 3.69
    assert result.df == (3.0, 39.0)
    # "The critical value of F(3, 39) for alpha = 0.05 is 2.85, so we reject"
    assert round(stats.f.isf(0.05, *result.df), 2) == 2.85 and result.pvalue < 0.05
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)
    assert result.models == tuple(NAMES)


def test_nemenyi_and_bonferroni_dunn_reproduce_demsar():
    nemenyi = sce.friedman_posthoc(PAPER, models=NAMES)
    assert round(nemenyi.critical_difference, 2) == 1.25
    assert not nemenyi.significant.any()  # "not powerful enough to detect any"
    assert nemenyi.groups() == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]
    at_10 = sce.friedman_posthoc(PAPER, models=NAMES, alpha=0.10)
    assert round(at_10.critical_difference, 2) == 1.12
    # C4.5 worse than C4.5+m and C4.5+m+cf; nothing to say of C4.5+cf
    assert at_10.significant[0].tolist() == [False, True, False, True]
    assert at_10.groups() == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    dunn = sce.friedman_posthoc(PAPER, models=NAMES, method="bonferroni-dunn", control="C4.5")
    # q_0.05 = 2.394 (Table 5(b)); the paper prints 2.394 * 0.488 = 1.168 truncated, 1.16
    assert round(dunn.critical_difference / dunn.standard_error, 3) == 2.394
    assert math.floor(100 * dunn.critical_difference) / 100 == 1.16
    assert dunn.significant[0].tolist() == [False, False, False, True]  # only C4.5+m+cf


def test_nemenyi_quantiles_are_demsars_table_5a():
    table = {0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
             0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]}
    for alpha, quantiles in table.items():
        for k, q in zip(range(2, 11), quantiles):
            scores = np.tile(np.arange(k, dtype=float), (12, 1))
            scores[1] = scores[1][::-1]  # not all alike
            result = _quiet(sce.friedman_posthoc, scores, alpha=alpha)
            # three decimals, some truncated (2.3437 is printed 2.343)
            assert result.critical_difference / result.standard_error == pytest.approx(
                q, abs=8e-4)


def test_holm_against_a_control_reproduces_demsar():
    result = sce.friedman_posthoc(PAPER, models=NAMES, method="holm", control="C4.5")
    assert round(result.standard_error, 3) == 0.488
    z = -result.statistic[0, 1:]
    assert np.round(z, 2).tolist() == [2.34, 0.51, 2.42]  # the paper's 2.342, 0.512, 2.416
    raw = 2 * stats.norm.sf(z)
    # the paper's p-values 0.019, 0.607, 0.016 (from z rounded to three decimals)
    assert raw == pytest.approx([0.019, 0.607, 0.016], abs=1.5e-3)
    # Holm: rejects C4.5+m+cf (0.016 < 0.05/3), then C4.5+m (0.019 < 0.05/2), not C4.5+cf
    assert result.significant[0].tolist() == [False, True, False, True]
    assert result.pvalue[0, 1:] == pytest.approx([max(2 * raw[0], 3 * raw[2]), raw[1],
                                                  3 * raw[2]])
    assert np.isnan(result.pvalue[1, 2])  # pairs without the control are not tested
    assert result.groups() == [("C4.5+cf", "C4.5")]


# --- Against the reference implementations ----------------------------------------------


def random_tables():
    rng = np.random.default_rng(3)
    for n_datasets, n_models in ((12, 3), (20, 5), (15, 8)):
        yield rng.normal(np.linspace(0, 1, n_models), 1.0, (n_datasets, n_models))
    yield np.round(rng.uniform(0.7, 0.9, (14, 6)), 2)  # with ties


@pytest.mark.parametrize("scores", list(random_tables()))
def test_friedman_against_scipy(scores):
    untied = sce.friedman_test(scores)
    corrected = sce.friedman_test(scores, tie_correction=True)
    reference = stats.friedmanchisquare(*scores.T)
    assert corrected.chi2_statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert corrected.chi2_pvalue == pytest.approx(reference.pvalue, rel=1e-10)
    n, k = scores.shape
    chi2 = untied.chi2_statistic
    assert untied.statistic == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2))
    assert untied.pvalue == pytest.approx(stats.f.sf(untied.statistic, k - 1,
                                                     (k - 1) * (n - 1)))
    assert sce.friedman_test(-scores, greater_is_better=False).statistic == untied.statistic


@pytest.mark.parametrize("scores", list(random_tables()))
def test_posthoc_against_scikit_posthocs(scores):
    sp = pytest.importorskip("scikit_posthocs")
    nemenyi = sce.friedman_posthoc(scores)
    np.testing.assert_allclose(nemenyi.pvalue, sp.posthoc_nemenyi_friedman(scores).values,
                               atol=1e-12)
    holm = sce.friedman_posthoc(scores, method="holm")
    reference = sp.posthoc_siegel_friedman(scores, p_adjust="holm").values
    np.testing.assert_allclose(holm.pvalue, reference, atol=1e-12)


@pytest.mark.parametrize("scores", list(random_tables()))
def test_against_autorank(scores):
    autorank = pytest.importorskip("autorank")
    import pandas as pd

    frame = pd.DataFrame(scores, columns=[f"m{j}" for j in range(scores.shape[1])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = autorank.autorank(frame, alpha=0.05, force_mode="nonparametric",
                                      verbose=False)
    ours = sce.friedman_posthoc(frame)
    if reference.cd is not None:  # autorank's Nemenyi (after a Friedman test, k > 2)
        # autorank's quantile is statsmodels' qsturng, an approximation (to about 1e-5 here)
        assert ours.critical_difference == pytest.approx(reference.cd, rel=1e-4)
    ranks = reference.rankdf["meanrank"].reindex(ours.models).to_numpy()
    # autorank ranks the highest score 1 too
    np.testing.assert_allclose(ours.average_ranks, ranks, atol=1e-12)


TEN = np.array([0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87])


@pytest.mark.parametrize("alpha", [1e-10, 9.9e-11, 1e-20, 1e-300, 5e-324])
def test_posthoc_critical_differences_at_tiny_levels(alpha):
    # alpha=1e-20 raised about "the 'critical_difference' parameter of
    # FriedmanPosthocResult" (scipy's quantile at 1 - alpha is infinite, capped at 100 at
    # its isf); below 1e-10 the quantile of the Bonferroni bound of the range's tail
    nemenyi = sce.friedman_posthoc(PAPER, alpha=alpha)
    k, se = 4, math.sqrt(4 * 5 / (6 * 14))
    bound = stats.norm.isf(alpha / (k * (k - 1))) * se if alpha > 1e-300 else None
    reference = stats.studentized_range.isf(alpha, k, np.inf) / math.sqrt(2) * se
    if alpha >= 1e-10:
        assert nemenyi.critical_difference == pytest.approx(reference, rel=1e-12)
    elif bound is not None:
        assert nemenyi.critical_difference == pytest.approx(bound, rel=1e-12)
    assert math.isfinite(nemenyi.critical_difference) and not nemenyi.significant.any()
    dunn = sce.friedman_posthoc(PAPER, alpha=alpha, method="bonferroni-dunn", control=0)
    assert math.isfinite(dunn.critical_difference)
    assert dunn.critical_difference < nemenyi.critical_difference
    # the bound and scipy's quantile meet at 1e-10, 2 to 100 models
    for models in (2, 3, 10, 100):
        scipy_q = stats.studentized_range.isf(1e-10, models, np.inf) / math.sqrt(2)
        assert stats.norm.isf(1e-10 / (models * (models - 1))) == pytest.approx(
            scipy_q, rel=1.2e-5)


def test_a_refused_result_field_names_the_public_argument(monkeypatch):
    # the general cause: a result checks its fields, and a value the function computed
    # from an argument was refused under the result's name
    from sklearn_confusion_ext._statistics import friedman, signed_rank

    monkeypatch.setattr(friedman, "_nemenyi_quantile", lambda alpha, k: math.inf)
    with pytest.raises(ValueError, match=r"^friedman_posthoc: alpha=0\.05 gives a critical "
                                         r"difference of inf, which must be None or a "
                                         r"finite real number >= 0") as caught:
        sce.friedman_posthoc(PAPER)
    assert "FriedmanPosthocResult" not in str(caught.value)
    # a field computed from no declared argument: the public call is named, and the defect
    monkeypatch.setattr(signed_rank, "_winning_shares", lambda samples: np.array(
        [2.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match=r"^bayesian_signed_rank_test: these arguments give "
                                         r"a p a better of 2\.0, which must be .*; "
                                         r"bayesian_signed_rank_test should have refused"):
        sce.bayesian_signed_rank_test(TEN, TEN - 0.01, n_draws=100, random_state=0)
    # a result built by its caller names its own fields, as before
    with pytest.raises(ValueError, match="'critical_difference' parameter of "
                                         "FriedmanPosthocResult"):
        sce.FriedmanPosthocResult(
            pvalue=np.eye(2), statistic=np.zeros((2, 2)), significant=np.eye(2, dtype=bool),
            average_ranks=np.ones(2), critical_difference=math.inf, standard_error=1.0,
            method="nemenyi", alpha=0.05, models=("a", "b"))


def test_dataframe_names_models_and_datasets():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(PAPER, columns=NAMES, index=[f"set {i}" for i in range(14)])
    result = sce.friedman_test(frame)
    assert result.models == tuple(NAMES) and result.datasets[0] == "set 0"
    table = sce.friedman_posthoc(frame).to_frame()
    assert list(table.columns) == NAMES and list(table.index) == NAMES
    assert "C4.5" in repr(result) and "average rank" in repr(result)
    ours = sce.bayesian_signed_rank_test(frame["C4.5+m"], frame["C4.5"], random_state=0,
                                         n_draws=1000)
    assert ours.models == ("C4.5+m", "C4.5")


# --- Errors and warnings --------------------------------------------------------------------


@pytest.mark.parametrize("scores, message", [
    ([[0.9, 0.8]], "at least 2 data sets"),
    ([[0.9], [0.8], [0.7]], "at least 2 models"),
    ([[0.9, np.nan], [0.8, 0.7]], "nan at data set 0, model 1"),
    ([0.9, 0.8, 0.7], "must be 2-D"),
])
def test_table_errors(scores, message):
    for function in (sce.friedman_test, sce.friedman_posthoc):
        with pytest.raises(ValueError, match=message):
            function(scores)


def test_option_errors():
    with pytest.raises(ValueError, match="bonferroni-dunn.*control"):
        sce.friedman_posthoc(PAPER, method="bonferroni-dunn")
    with pytest.raises(ValueError, match="nemenyi.*all pairs"):
        sce.friedman_posthoc(PAPER, control=0)
    with pytest.raises(ValueError, match="names no model"):
        sce.friedman_posthoc(PAPER, models=NAMES, method="holm", control="J48")
    with pytest.raises(ValueError, match="rope"):
        sce.bayesian_signed_rank_test([0.9, 0.8], [0.8, 0.7], rope=-0.01)
    with pytest.raises(ValueError, match="same data sets"):
        sce.bayesian_signed_rank_test([0.9, 0.8, 0.7], [0.8, 0.7])
    with pytest.raises(ValueError, match="at least 2 data sets"):
        sce.bayesian_signed_rank_test([0.9], [0.8])
    with pytest.raises(ValueError, match="non-finite"):
        sce.bayesian_signed_rank_test([0.9, np.nan], [0.8, 0.7])


def test_few_datasets_warn_with_demsars_rule():
    with pytest.warns(UserWarning, match=r"N > 10 data sets"):
        sce.friedman_test(PAPER[:10])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sce.friedman_test(PAPER[:11])


def test_unanimous_ranks_give_an_infinite_f_with_a_warning():
    scores = np.tile([0.9, 0.8, 0.7], (12, 1))
    with pytest.warns(RuntimeWarning, match="ranks the models alike"):
        result = sce.friedman_test(scores)
    assert result.statistic == math.inf and result.pvalue == 0.0
    assert result.chi2_statistic == pytest.approx(24.0)
    same = sce.friedman_test(np.full((12, 3), 0.5))
    assert same.statistic == 0.0 and same.pvalue == 1.0


# --- Type I error ---------------------------------------------------------------------------


@pytest.mark.slow
def test_type_one_error_at_the_nominal_level():
    """k models of the same true performance over N data sets (a data-set effect plus
    independent noise): the Friedman F test, Nemenyi and Holm (all pairs) reject at most
    about alpha = 0.05 family-wise."""
    rng = np.random.default_rng(0)
    n_tables, alpha = 1500, 0.05
    for n_datasets, n_models in ((12, 4), (20, 6)):
        rejected = {"friedman": 0, "nemenyi": 0, "holm": 0}
        se = math.sqrt(n_models * (n_models + 1) / (6 * n_datasets))
        q = stats.studentized_range.ppf(1 - alpha, n_models, np.inf) / math.sqrt(2)
        for _ in range(n_tables):
            scores = rng.normal(0, 1, (n_datasets, 1)) + rng.normal(0, 0.1, (n_datasets,
                                                                              n_models))
            friedman = sce.friedman_test(scores)
            rejected["friedman"] += friedman.pvalue < alpha
            ranks = friedman.average_ranks
            rejected["nemenyi"] += np.ptp(ranks) >= q * se
            z = np.abs(ranks[:, None] - ranks[None, :])[np.triu_indices(n_models, 1)] / se
            smallest = 2 * stats.norm.sf(z.max())
            rejected["holm"] += smallest * z.size < alpha  # Holm's first step
        error = 3 * math.sqrt(alpha * (1 - alpha) / n_tables)
        rates = {name: count / n_tables for name, count in rejected.items()}
        assert abs(rates["friedman"] - alpha) < error, rates
        assert rates["nemenyi"] < alpha + error and rates["holm"] < alpha + error, rates
    # the library's post-hoc tests agree with the shortcuts used above
    scores = rng.normal(0, 1, (12, 4))
    nemenyi = sce.friedman_posthoc(scores)
    assert nemenyi.significant.any() == (np.ptp(nemenyi.average_ranks)
                                         >= nemenyi.critical_difference)
