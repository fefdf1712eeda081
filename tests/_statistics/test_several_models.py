"""Cochran's Q with pairwise McNemar tests, and accuracy against the no-information rate.

References: mlxtend's ``cochrans_q`` and statsmodels' ``cochrans_q`` (to 1e-12), the
library's own ``mcnemar_test`` of ``mcnemar_table`` and its Holm correction (the post-hoc
tests), ``scipy.stats.binomtest`` (caret's "Acc > NIR": a one-sided ``binom.test`` of the
accuracy against the largest class proportion of the reference, and ``binom.test``'s
Clopper-Pearson interval, caret's ``confusionMatrix`` documentation). The type I error
by simulation is in the slow tests at the end (the guide's table).
"""

import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_confusion_ext import (
    accuracy_vs_no_information_rate,
    cochran_q_test,
    mcnemar_table,
    mcnemar_test,
)
from sklearn_confusion_ext._statistics.table_tests import _correct


def _models(rng, n_samples, n_models, accuracies=None, n_classes=3):
    """Labels and ``n_models`` predictions with instance difficulty shared (correlated)."""
    y_true = rng.integers(0, n_classes, n_samples)
    accuracies = np.full(n_models, 0.75) if accuracies is None else np.asarray(accuracies)
    easy = rng.random(n_samples) < 0.5
    chance = np.where(easy[:, None], np.minimum(accuracies + 0.15, 1.0),
                      np.maximum(accuracies - 0.15, 0.0))
    right = rng.random((n_samples, n_models)) < chance
    wrong = (y_true[:, None] + rng.integers(1, n_classes, (n_samples, n_models))) % n_classes
    y_preds = np.where(right, y_true[:, None], wrong).T
    return y_true, y_preds


def _indicators(y_true, y_preds):
    return (np.asarray(y_preds) == np.asarray(y_true)[None, :]).astype(int)


# --- Cochran's Q against the references ---------------------------------------------------


@pytest.mark.parametrize("n_samples, n_models, seed", [(30, 2, 0), (50, 3, 1), (200, 5, 2),
                                                       (1000, 8, 3), (17, 4, 4)])
def test_cochran_q_equals_mlxtend_and_statsmodels(n_samples, n_models, seed):
    # catches: a wrong sign or factor in Q's numerator or denominator, (k - 1) degrees of
    # freedom off by one, rows and columns of the indicators swapped
    mlxtend = pytest.importorskip("mlxtend.evaluate")
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    rng = np.random.default_rng(seed)
    y_true, y_preds = _models(rng, n_samples, n_models,
                              accuracies=rng.uniform(0.6, 0.9, n_models))
    result = cochran_q_test(y_true, y_preds)
    q, p = mlxtend.cochrans_q(y_true, *y_preds)
    reference = contingency.cochrans_q(_indicators(y_true, y_preds).T)
    np.testing.assert_allclose([result.statistic, result.pvalue], [q, p], rtol=1e-12, atol=0)
    np.testing.assert_allclose([result.statistic, result.pvalue],
                               [reference.statistic, reference.pvalue], rtol=1e-12, atol=0)
    assert result.df == reference.df == n_models - 1
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)


def test_two_models_give_mcnemars_chi_square():
    # catches: Q not reducing to McNemar's uncorrected statistic for k = 2
    y_true, y_preds = _models(np.random.default_rng(5), 120, 2, [0.7, 0.8])
    result = cochran_q_test(y_true, y_preds, exact=False)
    table = mcnemar_table(y_true, *y_preds)
    reference = mcnemar_test(table, exact=False)
    np.testing.assert_allclose([result.statistic, result.pvalue],
                               [reference.statistic, reference.pvalue], rtol=1e-12)


@pytest.mark.parametrize("exact", [True, "mid-p", False])
@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh", None])
def test_pairwise_tests_are_mcnemar_of_each_pair_corrected(exact, method):
    # catches: a pair's discordant cells swapped or miscounted, the wrong McNemar variant,
    # the correction not applied (or over the wrong family)
    y_true, y_preds = _models(np.random.default_rng(6), 80, 4, [0.6, 0.7, 0.8, 0.85])
    names = ["a", "b", "c", "d"]
    result = cochran_q_test(y_true, dict(zip(names, y_preds)), exact=exact, method=method)
    raw = []
    for i, j in zip(*np.triu_indices(4, 1)):
        table = mcnemar_table(y_true, y_preds[i], y_preds[j])
        test = mcnemar_test(table, exact=exact)
        raw.append(test.pvalue)
        row = list(result.pairs).index(f"{names[i]} vs {names[j]}")
        assert result.pairwise["only_a_correct"][row] == table[0, 1]
        assert result.pairwise["only_b_correct"][row] == table[1, 0]
        assert result.pairwise["statistic"][row] == pytest.approx(test.statistic, rel=1e-12)
        assert result.posthoc == test.method
    np.testing.assert_allclose(result.pairwise["pvalue"], raw, rtol=1e-12)
    np.testing.assert_allclose(result.pairwise["pvalue_corrected"], _correct(raw, method),
                               rtol=1e-12)
    if method is not None:
        multitest = pytest.importorskip("statsmodels.stats.multitest")
        expected = multitest.multipletests(raw, method=method)[1]
        np.testing.assert_allclose(result.pairwise["pvalue_corrected"], expected,
                                   rtol=1e-12)
    np.testing.assert_array_equal(result.pairwise["significant"],
                                  result.pairwise["pvalue_corrected"] < 0.05)


def test_holm_is_the_default_and_the_frame_is_the_table():
    # catches: another default correction; a frame whose rows are not the pairs
    y_true, y_preds = _models(np.random.default_rng(7), 60, 3)
    result = cochran_q_test(y_true, y_preds, models=["x", "y", "z"])
    assert result.method == "holm"
    frame = result.to_frame()
    assert list(frame.index) == ["x vs y", "x vs z", "y vs z"]
    assert frame.index.name == "pair"
    np.testing.assert_array_equal(frame["pvalue_corrected"],
                                  _correct(result.pairwise["pvalue"], "holm"))
    assert list(frame["model_a"]) == ["x", "x", "y"]
    assert "CochranQResult(" in repr(result) and "x vs y" in repr(result)
    assert "<table>" in result._repr_html_()


def test_containers_names_and_string_labels():
    # catches: a DataFrame read by rows; a dict's names lost; string labels compared by
    # code of another encoding
    pandas = pytest.importorskip("pandas")
    y_true, y_preds = _models(np.random.default_rng(8), 40, 3)
    reference = cochran_q_test(y_true, y_preds)
    frame = pandas.DataFrame(dict(zip(["p", "q", "r"], y_preds)))
    from_frame = cochran_q_test(pandas.Series(y_true), frame)
    assert from_frame.models == ("p", "q", "r")
    assert from_frame.statistic == pytest.approx(reference.statistic, rel=1e-12)
    animals = np.array(["ant", "bee", "cat"])
    named = cochran_q_test(animals[y_true], [list(animals[y]) for y in y_preds])
    assert named.statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert named.models == ("model 0", "model 1", "model 2")
    np.testing.assert_allclose(named.accuracy, (y_preds == y_true).mean(axis=1))


def test_integer_weights_are_repeated_instances():
    # catches: weights applied to Q's columns but not its rows' squares (or the tables)
    rng = np.random.default_rng(9)
    y_true, y_preds = _models(rng, 50, 3, [0.6, 0.7, 0.8])
    weights = rng.integers(0, 4, 50)
    weighted = cochran_q_test(y_true, y_preds, sample_weight=weights)
    repeated = cochran_q_test(np.repeat(y_true, weights), np.repeat(y_preds, weights, axis=1))
    assert weighted.statistic == pytest.approx(repeated.statistic, rel=1e-12)
    np.testing.assert_allclose(weighted.pairwise["pvalue"], repeated.pairwise["pvalue"],
                               rtol=1e-12)
    assert weighted.n_samples == weights.sum()


# --- Hostile inputs -------------------------------------------------------------------------


@pytest.mark.parametrize("y_preds", [[[0, 1, 1, 0]], np.array([0, 1, 1, 0]), [0, 1, 1, 0]],
                         ids=["list of one", "1-D array", "1-D list"])
def test_one_model_is_refused(y_preds):
    with pytest.raises(ValueError, match="y_preds"):
        cochran_q_test([0, 1, 1, 0], y_preds)


def test_models_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="same number of samples"):
        cochran_q_test([0, 1, 1, 0], [[0, 1, 1, 0], [0, 1, 1]])
    with pytest.raises(ValueError, match="same number of samples"):
        cochran_q_test([0, 1, 1], [[0, 1, 1, 0], [0, 1, 1, 1]])


@pytest.mark.parametrize("y_true, y_preds", [
    ([0, 1, 1, 0, 2], [[0, 1, 0, 0, 1]] * 3),  # identical models
    ([0, 1, 1, 0], [[0, 1, 1, 0]] * 4),  # every model right everywhere
    ([1], [[1], [1], [1]]),  # one instance, the models agreeing on it
    ([0, 1], [[1, 0], [1, 0]]),  # every model wrong everywhere
], ids=["identical", "all correct", "one instance", "all wrong"])
def test_no_instance_splitting_the_models_warns_and_gives_no_evidence(y_true, y_preds):
    # catches: a silent NaN (0 / 0) where no instance splits the models
    with pytest.warns(UserWarning, match="0 / 0"):
        result = cochran_q_test(y_true, y_preds)
    assert (result.statistic, result.pvalue) == (0.0, 1.0)
    assert np.isfinite(result.statistic) and np.isfinite(result.pvalue)
    assert np.isfinite(result.pairwise["pvalue_corrected"]).all()


def test_one_instance_with_discordance():
    # one instance, models split on it: Q = (k - 1) (k r - r^2) / (k r - r^2) = k - 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cochran_q_test([1], [[1], [0], [1]])
    assert result.statistic == pytest.approx(2.0)
    mlxtend = pytest.importorskip("mlxtend.evaluate")
    assert mlxtend.cochrans_q(np.array([1]), np.array([1]), np.array([0]),
                              np.array([1]))[0] == pytest.approx(2.0)


def test_bad_weights_and_names_are_refused():
    y_true, y_preds = [0, 1, 1, 0], [[0, 1, 1, 0], [0, 0, 1, 1]]
    with pytest.raises(ValueError, match="frequencies"):
        cochran_q_test(y_true, y_preds, sample_weight=[0.5, 1, 1, 1])
    with pytest.raises(ValueError, match="sample_weight"):
        cochran_q_test(y_true, y_preds, sample_weight=[0, 0, 0, 0])
    with pytest.raises(ValueError, match="models"):
        cochran_q_test(y_true, y_preds, models=["a"])
    with pytest.raises(ValueError, match="differ"):
        cochran_q_test(y_true, y_preds, models=["a", "a"])
    with pytest.raises(ValueError, match="1-D"):
        cochran_q_test(y_true, [[[0, 1]] * 4, [[0, 1]] * 4])


# --- Accuracy against the no-information rate -----------------------------------------------


@pytest.mark.parametrize("n_samples, seed", [(10, 0), (100, 1), (1000, 2), (37, 3)])
@pytest.mark.parametrize("confidence_level", [0.95, 0.9])
def test_nir_test_is_binomtest_of_accuracy_against_the_largest_prevalence(
        n_samples, seed, confidence_level):
    # catches: the NIR read off the predictions (caret reads the reference's column sums),
    # a two-sided or "less" test, an interval other than Clopper-Pearson (binom.test's)
    rng = np.random.default_rng(seed)
    y_true = rng.choice(3, n_samples, p=[0.5, 0.3, 0.2])
    y_pred = np.where(rng.random(n_samples) < 0.6, y_true, rng.integers(0, 3, n_samples))
    result = accuracy_vs_no_information_rate(y_true, y_pred, method="binomial",
                                             confidence_level=confidence_level)
    n_correct = int((y_true == y_pred).sum())
    nir = np.bincount(y_true).max() / n_samples
    reference = stats.binomtest(n_correct, n_samples, nir, alternative="greater")
    interval = stats.binomtest(n_correct, n_samples).proportion_ci(
        confidence_level, method="exact")
    assert result.no_information_rate == pytest.approx(nir, rel=1e-15)
    assert result.accuracy == pytest.approx(n_correct / n_samples, rel=1e-15)
    assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-12, abs=1e-300)
    np.testing.assert_allclose(result.confidence_interval(), (interval.low, interval.high),
                               rtol=1e-12)
    accuracy, pvalue = result
    assert (accuracy, pvalue) == (result.accuracy, result.pvalue)


def test_nir_is_of_y_true_not_of_the_predictions():
    # catches: the NIR of the predictions, or of the larger of both
    y_true = [0] * 6 + [1] * 4
    y_pred = [1] * 9 + [0]
    assert accuracy_vs_no_information_rate(y_true, y_pred).no_information_rate == 0.6


def test_nir_edge_cases():
    # one class: NIR = 1, nothing beats it
    result = accuracy_vs_no_information_rate([2, 2, 2], [2, 2, 2])
    assert (result.accuracy, result.no_information_rate, result.pvalue) == (1.0, 1.0, 1.0)
    assert result.confidence_interval() == pytest.approx(
        stats.binomtest(3, 3).proportion_ci(method="exact"))
    # one instance, wrong
    result = accuracy_vs_no_information_rate([0], [1])
    assert (result.accuracy, result.pvalue, result.low) == (0.0, 1.0, 0.0)
    # no right prediction among many
    result = accuracy_vs_no_information_rate([0, 1] * 5, [1, 0] * 5)
    assert result.pvalue == 1.0 and result.low == 0.0


@pytest.mark.parametrize("method", ["mcnemar", "binomial"])
def test_nir_weights(method):
    # catches: weights applied to the accuracy but not to the prevalences (or the counts)
    rng = np.random.default_rng(4)
    y_true, y_pred = rng.integers(0, 2, 30), rng.integers(0, 2, 30)
    weights = rng.integers(0, 5, 30)
    weighted = accuracy_vs_no_information_rate(y_true, y_pred, sample_weight=weights,
                                               method=method)
    repeated = accuracy_vs_no_information_rate(np.repeat(y_true, weights),
                                               np.repeat(y_pred, weights), method=method)
    assert weighted.pvalue == pytest.approx(repeated.pvalue, rel=1e-12)
    assert weighted.no_information_rate == pytest.approx(repeated.no_information_rate)
    with pytest.warns(UserWarning, match="non-integer"):
        fractional = accuracy_vs_no_information_rate(y_true, y_pred, method=method,
                                                     sample_weight=weights + 0.5)
    # the continuous tail lies between those of the neighbouring whole counts' scale
    assert 0 <= fractional.pvalue <= 1
    doubled = accuracy_vs_no_information_rate(y_true, y_pred, method=method,
                                              sample_weight=2 * weights + 1)
    with pytest.warns(UserWarning, match="non-integer"):
        halved = accuracy_vs_no_information_rate(y_true, y_pred, method=method,
                                                 sample_weight=weights + 0.5)
    assert halved.accuracy == pytest.approx(doubled.accuracy, rel=1e-12)
    with pytest.raises(ValueError, match="sample_weight"):
        accuracy_vs_no_information_rate([0, 1], [0, 1], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="y_pred"):
        accuracy_vs_no_information_rate([0, 1], [0, 1, 1])


def test_nir_mcnemar_is_mcnemar_against_the_majority_class_predictor():
    # catches: the discordant cells swapped (the alternative reversed), the majority class
    # taken from the predictions, the two-sided p-value
    rng = np.random.default_rng(5)
    y_true = rng.choice(3, 200, p=[0.2, 0.5, 0.3])
    y_pred = np.where(rng.random(200) < 0.62, y_true, rng.integers(0, 3, 200))
    result = accuracy_vs_no_information_rate(y_true, y_pred)  # the default
    table = mcnemar_table(y_true, y_pred, np.ones_like(y_true))  # "always 1"
    expected = mcnemar_test(table, alternative="greater")
    assert result.method == "mcnemar"
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
    assert result.pvalue != pytest.approx(mcnemar_test(table).pvalue)
    binomial = accuracy_vs_no_information_rate(y_true, y_pred, method="binomial")
    assert (binomial.accuracy, binomial.low, binomial.high) == (
        result.accuracy, result.low, result.high)
    # exact for every discordance: b instances only the classifier gets right (class 1,
    # predicted 1), c only "always 0" gets right (class 0, predicted 1), 20 both, 5 neither
    for b, c in [(0, 0), (3, 0), (0, 4), (7, 2), (2, 7)]:
        y_t = [1] * b + [0] * c + [0] * 20 + [1] * 5
        y_p = [1] * b + [1] * c + [0] * 20 + [0] * 5
        pair = accuracy_vs_no_information_rate(y_t, y_p)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # no discordant pair: p-value 1
            reference = mcnemar_test(mcnemar_table(y_t, y_p, [0] * len(y_t)),
                                     alternative="greater")
        assert pair.pvalue == pytest.approx(reference.pvalue, rel=1e-12)


# --- Type I error by simulation (the guide's table) -----------------------------------------

N_REPLICATIONS = 1000


def _band(rate, level=0.05, n=N_REPLICATIONS):
    """Within three binomial standard errors of ``level``."""
    return abs(rate - level) <= 3 * np.sqrt(level * (1 - level) / n)


@pytest.mark.slow
@pytest.mark.parametrize("n_samples", [20, 100, 500])
def test_cochran_q_type_i_error_three_equal_models(n_samples):
    # three models of one accuracy (0.75, correlated through instance difficulty): Q
    # rejects at 5 % about 5 % of the time; the post-hoc (exact McNemar, Holm) family-wise
    # rate stays at most 5 %
    rng = np.random.default_rng(100 + n_samples)
    rejected = posthoc = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(N_REPLICATIONS):
            y_true, y_preds = _models(rng, n_samples, 3)
            result = cochran_q_test(y_true, y_preds)
            rejected += result.pvalue < 0.05
            posthoc += result.pairwise["significant"].any()
    rate, family = rejected / N_REPLICATIONS, posthoc / N_REPLICATIONS
    print(f"Cochran's Q, k = 3, n = {n_samples}: {rate:.3f}; post-hoc family-wise "
          f"{family:.3f}")
    assert _band(rate), rate
    assert family <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / N_REPLICATIONS), family


@pytest.mark.slow
@pytest.mark.parametrize("n_samples", [20, 100, 500])
def test_nir_test_type_i_error_at_accuracy_equal_to_nir(n_samples):
    # a classifier right with probability NIR = 0.6, independently of the class. caret's
    # binomial test treats the NIR read off the same instances as known: the accuracy and
    # the NIR vary independently here, and it rejects about twice as often as 5 % (the
    # documented caveat; this catches it silently changing). The paired McNemar test
    # against the majority-class predictor holds the level (exact: at most 5 %).
    rng = np.random.default_rng(200 + n_samples)
    rejected = {"binomial": 0, "mcnemar": 0}
    for _ in range(N_REPLICATIONS):
        y_true = (rng.random(n_samples) < 0.4).astype(int)  # class 0: 60 %
        right = rng.random(n_samples) < 0.6
        y_pred = np.where(right, y_true, 1 - y_true)
        for method in rejected:
            result = accuracy_vs_no_information_rate(y_true, y_pred, method=method)
            rejected[method] += result.pvalue < 0.05
    rate = {method: count / N_REPLICATIONS for method, count in rejected.items()}
    print(f"Acc > NIR, n = {n_samples}: binomial {rate['binomial']:.3f}, "
          f"mcnemar {rate['mcnemar']:.3f}")
    upper = 0.05 + 3 * np.sqrt(0.05 * 0.95 / N_REPLICATIONS)
    if n_samples >= 100:  # at 20 instances the test's discreteness hides it (0.035)
        assert rate["binomial"] > upper, rate
    assert rate["mcnemar"] <= upper, rate
