"""Paired comparisons of two models on the same instances (compare_scores, McNemar's test
through it): what each method returns, its p-values under the null hypothesis and under a
planted difference, and its edges: p-values with ties and degenerate resampling
distributions, metrics without sample_weight, the minimum of n_resamples (shared with the
intervals), McNemar without weight.

The comparison methods and the alternatives are read from compare_scores' declared
parameters, so a new method is tested without a new line here.
"""

import itertools
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import accuracy_score, f1_score
from test_interval_coverage import (
    CONDITIONAL,
    binary_labels,
    predictions,
    three_class_labels,
)
from test_intervals import LABELS_PRED, LABELS_TRUE, _two_arguments, _with_weights
from test_intervals import Y_PRED as Y_PRED_3
from test_intervals import Y_TRUE as Y_TRUE_3

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import (
    compare_scores,
    mcnemar_table,
    mcnemar_test,
)

CONSTRAINTS = sce.compare_scores.parameter_constraints
METHODS = CONSTRAINTS["method"][0].options
ALTERNATIVES = CONSTRAINTS["alternative"][0].options
N_RESAMPLES = 999

Y_TRUE = np.array([0, 1, 2, 0, 1, 2, 0, 1])
Y_PRED = np.array([0, 1, 2, 0, 1, 0, 1, 1])


def _targets(kind):
    """``(y_true, y_pred, y_pred_one_off)`` of a target kind: the last differs from
    ``y_pred`` on one instance, where it is right and ``y_pred`` is wrong."""
    rng = np.random.default_rng(0)
    if kind == "labels":
        other = Y_PRED.copy()
        other[5] = 2
        return Y_TRUE, Y_PRED, other
    if kind == "probabilities":
        scores = rng.dirichlet(np.ones(3), len(Y_TRUE))
        scores[np.arange(len(Y_TRUE)), Y_PRED] += 2
        scores /= scores.sum(axis=1, keepdims=True)
        other = scores.copy()
        other[5] = [0.0, 0.0, 1.0]
        return Y_TRUE, scores, other
    if kind == "multilabel":
        y_true = (rng.random((len(Y_TRUE), 3)) < 0.5).astype(int)
        y_true[:, 0] = 1
        y_pred = y_true.copy()
        y_pred[:, 1] = 1 - y_pred[:, 1]
        other = y_pred.copy()
        other[5] = y_true[5]
        return y_true, y_pred, other
    y_true = rng.dirichlet(np.ones(3), len(Y_TRUE))
    y_pred = rng.dirichlet(np.ones(3), len(Y_TRUE))
    other = y_pred.copy()
    other[5] = y_true[5]
    return y_true, y_pred, other


KINDS = ["labels", "probabilities", "multilabel", "soft"]
CASES = [(method, kind) for method in METHODS for kind in KINDS
         if not method.startswith("mcnemar") or kind == "labels"]


def _compare(y_true, y_pred_a, y_pred_b, method, **kwargs):
    score = None if method.startswith("mcnemar") else kwargs.pop("score", "tcm_accuracy")
    return sce.compare_scores(y_true, y_pred_a, y_pred_b, method=method, scoring=score,
                              n_resamples=N_RESAMPLES, random_state=0, **kwargs)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method, kind", CASES)
def test_identical_predictions_have_pvalue_one(method, kind, alternative):
    y_true, y_pred, _ = _targets(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a difference always 0 is no edge
        result = _compare(y_true, y_pred, y_pred, method, alternative=alternative)
    assert result.estimate == 0.0
    # McNemar's mid-p test without discordant pairs: its formula's 1/2 each side (the two
    # sides summing to 1, as for every n; documented in mcnemar_test), 1 two-sided
    midpoint = method == "mcnemar-mid-p" and alternative != "two-sided"
    assert result.pvalue == (0.5 if midpoint else 1.0)
    table = sce.mcnemar_table(y_true, y_pred, y_pred) if kind == "labels" else None
    if method.startswith("mcnemar"):
        with pytest.warns(UserWarning, match="no discordant pairs"):
            direct = sce.mcnemar_test(table, exact="mid-p" if "mid-p" in method else True,
                                      alternative=alternative)
        assert direct.pvalue == result.pvalue


@pytest.mark.parametrize("method, kind", CASES)
def test_one_instance_different_is_no_evidence(method, kind):
    y_true, y_pred, other = _targets(kind)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _compare(y_true, other, y_pred, method)
    assert result.estimate > 0
    degenerate = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    if method == "bayesian":  # the posterior never changes sign: floor of the draws, warned
        assert result.pvalue == pytest.approx(2 / (N_RESAMPLES + 1))
        assert degenerate and "never fall on the other side of 0" in str(degenerate[0].message)
    else:
        assert not degenerate
        # the exact permutation test and McNemar's: 1; the mid-p test: 1 - P(X = 1) = 0.5
        # under Binomial(1, 1/2); the bootstrap: far from significant
        if method in ("permutation", "mcnemar"):
            assert result.pvalue == 1.0
        elif method == "mcnemar-mid-p":
            assert result.pvalue == 0.5
        else:
            assert result.pvalue > 0.3


def test_a_single_instance_bootstrap_warns_that_its_distribution_is_degenerate():
    with pytest.warns(RuntimeWarning, match="degenerate"):
        result = sce.compare_scores([0], [0], [1], scoring="tcm_accuracy", n_resamples=99,
                                    random_state=0)
    assert result.pvalue == pytest.approx(1 / 100)


def _exact_pvalue(score, y_true, a, b, alternative):
    """The permutation p-value by enumerating every subset of swapped instances."""
    observed = score(y_true, a) - score(y_true, b)
    null = []
    for swap in itertools.product([False, True], repeat=len(y_true)):
        swap = np.array(swap)
        null.append(score(y_true, np.where(swap, b, a)) - score(y_true, np.where(swap, a, b)))
    null, gamma = np.array(null), 1e-12
    extreme = {"greater": null >= observed - gamma, "less": null <= observed + gamma,
               "two-sided": np.abs(null) >= abs(observed) - gamma}[alternative]
    return extreme.mean()


def _macro_f1(y_true, y_pred, sample_weight=None):
    return f1_score(y_true, y_pred, average="macro", sample_weight=sample_weight,
                    zero_division=0.0)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("score, oracle, seed", [("tcm_accuracy", accuracy_score, 0),
                                                 ("tcm_accuracy", accuracy_score, 1),
                                                 ("tcm_accuracy", accuracy_score, 2),
                                                 (_macro_f1, _macro_f1, 0)])
@pytest.mark.slow
def test_permutation_pvalue_is_the_exact_enumeration_on_small_n(score, oracle, seed,
                                                                 alternative):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 3, 9)
    a = np.where(rng.random(9) < 0.7, y_true, rng.integers(0, 4, 9))  # class 3: only predicted
    b = np.where(rng.random(9) < 0.4, y_true, rng.integers(0, 3, 9))
    # 2**9 swaps <= n_resamples: enumerated (999 also bounds the bootstrap of the interval)
    result = sce.compare_scores(y_true, a, b, scoring=score, method="permutation",
                                alternative=alternative, n_resamples=999, random_state=seed)
    assert result.distribution.shape == (2 ** 9,)
    assert result.pvalue == pytest.approx(_exact_pvalue(oracle, y_true, a, b, alternative),
                                          abs=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_drawn_permutation_pvalue_is_near_the_exact_one(alternative):
    """n = 16: 2**16 swaps > n_resamples, drawn; the exact p-value of the accuracy
    difference counts swaps in closed form (each swapped instance negates its term)."""
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 3, 16)
    a = np.where(rng.random(16) < 0.75, y_true, (y_true + 1) % 3)
    b = np.where(rng.random(16) < 0.5, y_true, (y_true + 1) % 3)
    terms = ((a == y_true).astype(int) - (b == y_true)) / 16
    signs = 1 - 2 * ((np.arange(2 ** 16)[:, None] >> np.arange(16)) & 1)
    null, observed = signs @ terms, terms.sum()
    exact = {"greater": np.mean(null >= observed - 1e-12),
             "less": np.mean(null <= observed + 1e-12),
             "two-sided": np.mean(np.abs(null) >= abs(observed) - 1e-12)}[alternative]
    result = sce.compare_scores(y_true, a, b, scoring="tcm_accuracy", method="permutation",
                                alternative=alternative, n_resamples=9999, random_state=0)
    assert result.distribution.shape == (9999,)
    assert result.pvalue == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / 9999)
                                          + 2e-4)


def _counting_accuracy(calls):
    def accuracy(y_true, y_pred):
        calls.append(1)
        return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))
    return accuracy


@pytest.mark.parametrize("groups", [None, [0, 0, 1, 2, 3, 4, 5, 5, 6]])
def test_exact_permutation_with_a_callable_scores_each_subset_once(groups):
    """A metric callable on the exact test (2**n swaps <= n_resamples, the default 9,999):
    the callable is called once a subset (each subset's second score is its complement's
    first) and twice for the estimate, with no bootstrap beside it (it was 2 * 9,999 +
    2 * 2**n calls); the differences are the enumeration's, subset by subset, in the
    order of the bits of the subset's number."""
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 3, 9)
    a = np.where(rng.random(9) < 0.8, y_true, (y_true + 1) % 3)
    b = np.where(rng.random(9) < 0.5, y_true, (y_true + 2) % 3)
    calls = []
    result = sce.compare_scores(y_true, a, b, scoring=_counting_accuracy(calls),
                                method="permutation", groups=groups, random_state=0)
    codes = np.arange(9) if groups is None else np.asarray(groups)
    n_units = codes.max() + 1
    assert len(calls) == 2 ** n_units + 2
    expected = []
    for number in range(2 ** n_units):
        swap = ((number >> codes) & 1).astype(bool)
        expected.append(accuracy_score(y_true, np.where(swap, b, a))
                        - accuracy_score(y_true, np.where(swap, a, b)))
    np.testing.assert_allclose(result.distribution, expected, rtol=0, atol=1e-15)
    if groups is None:
        assert result.pvalue == pytest.approx(
            _exact_pvalue(accuracy_score, y_true, a, b, "two-sided"), abs=1e-12)


@pytest.mark.parametrize("n_samples, n_resamples", [(8, 9999), (40, 999)])
def test_permutation_interval_is_the_observed_difference_less_the_swaps(n_samples,
                                                                         n_resamples):
    """method="permutation": the interval is ``d`` less the swapped differences' equal-
    tailed bounds, ``[d - q(1 - alpha / 2), d - q(alpha / 2)]``, symmetric about ``d`` when
    every subset is enumerated, and holds 0 where the test does not reject."""
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 3, n_samples)
    a = np.where(rng.random(n_samples) < 0.9, y_true, (y_true + 1) % 3)
    b = np.where(rng.random(n_samples) < 0.3, y_true, (y_true + 1) % 3)
    for level in (0.9, 0.95):
        result = sce.compare_scores(y_true, a, b, scoring="tcm_accuracy",
                                    method="permutation", n_resamples=n_resamples,
                                    confidence_level=level, random_state=1)
        d, null = result.estimate, result.distribution
        alpha = 1 - level
        assert result.low == pytest.approx(d - np.percentile(null, 100 * (1 - alpha / 2)))
        assert result.high == pytest.approx(d - np.percentile(null, 100 * alpha / 2))
        assert result.low < d < result.high
        if null.size == 2 ** n_samples:
            assert result.high - d == pytest.approx(d - result.low)
        assert (result.low > 0) == (result.pvalue < alpha)
    # no difference: the interval is centred on 0 and holds it, the p-value 1
    same = sce.compare_scores(y_true, a, a, scoring="tcm_accuracy", method="permutation",
                              n_resamples=999, random_state=0)
    assert same.low == same.high == 0 and same.pvalue == 1


def test_permutation_pvalues_are_those_of_earlier_versions():
    """The swaps are drawn from the generator where the bootstrap interval, no longer
    computed, left it: the p-values and swapped differences of a random_state are those of
    0.1 (pinned) on each route of the swaps (a callable scored per swap, the pairs of
    cells of 1-D labels, weighted labels, probabilities, soft labels, groups)."""
    rng = np.random.default_rng(1)
    n = 60
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < .8, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < .6, y, rng.integers(0, 3, n))
    p, q, soft = (rng.dirichlet(np.ones(3), n) for _ in range(3))
    groups = np.repeat(np.arange(15), 4)
    weights = rng.random(n)
    cases = [
        ((y, a, b), dict(scoring=_macro_f1, n_resamples=199), 0,
         0.82, [-0.026977526977526978, -0.02816261639791051, 0.04700743112585615]),
        ((y, a, b), dict(n_resamples=999), 0,
         0.789, [0.01043855621280465, 0.04092932812445005, -0.007390242701340366]),
        ((y, a, b), dict(scoring="tcm_accuracy", n_resamples=499, sample_weight=weights), 0,
         0.692, [0.14700960421223608, -0.04473037823051529, 0.00047880421619739266]),
        ((y, p, q), dict(n_resamples=499), 0,
         0.052, [0.029777323456193105, 0.013432556685620822, -0.0031720578705161095]),
        ((soft, p, q), dict(n_resamples=499), 0,
         0.824, [0.02550110799410743, 0.03743212707694932, -0.02237771363781038]),
        ((y, a, b), dict(n_resamples=499, groups=groups), 0,
         0.82, [-0.11860218891039898, -0.06421821981476106, 0.09763164383401879]),
        ((y, a, b), dict(n_resamples=499, alternative="less"), 7,
         0.61, [0.04751549647761377, 0.01963802949594584, -0.012389606105588258]),
    ]
    for targets, keywords, seed, pvalue, first in cases:
        if keywords.get("scoring") is _macro_f1:
            keywords["scoring"] = lambda t, y_pred: f1_score(t, y_pred, average="macro")
        result = sce.compare_scores(*targets, method="permutation", random_state=seed,
                                    **keywords)
        assert result.pvalue == pytest.approx(pvalue, abs=1e-12)
        np.testing.assert_allclose(result.distribution[:3], first, rtol=1e-9, atol=1e-12)


# --- Metrics without sample_weight ------------------------------------------------------------


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
def test_compare_scores_takes_a_two_argument_metric(method):
    plain = sce.compare_scores(LABELS_TRUE, LABELS_PRED, LABELS_TRUE, scoring=_two_arguments,
                               method=method, n_resamples=200, random_state=0)
    weighted = sce.compare_scores(LABELS_TRUE, LABELS_PRED, LABELS_TRUE, scoring=_with_weights,
                                  method=method, n_resamples=200, random_state=0)
    assert plain.estimate == pytest.approx(weighted.estimate)
    np.testing.assert_allclose(plain.distribution, weighted.distribution, atol=1e-12)


@pytest.mark.parametrize("function", [sce.score_confidence_interval, sce.compare_scores])
def test_sample_weight_for_a_metric_without_it_is_refused_naming_both(function):
    targets = (LABELS_TRUE, LABELS_PRED) if function is sce.score_confidence_interval else \
        (LABELS_TRUE, LABELS_PRED, LABELS_TRUE)
    with pytest.raises(TypeError, match="sample_weight.*_two_arguments.*takes no sample_weight"):
        function(*targets, scoring=_two_arguments, sample_weight=np.ones(30))
    with pytest.raises(ValueError, match="method='bayesian'.*no sample_weight"):
        function(*targets, scoring=_two_arguments, method="bayesian")


# --- Edges of the intervals and of McNemar ------------------------------------------------------


@pytest.mark.parametrize("function", [sce.score_confidence_interval, sce.compare_scores])
@pytest.mark.parametrize("n_resamples", [1, 2, 9])
def test_fewer_than_ten_resamples_are_refused(function, n_resamples):
    targets = (LABELS_TRUE, LABELS_PRED) if function is sce.score_confidence_interval else \
        (LABELS_TRUE, LABELS_PRED, LABELS_TRUE)
    with pytest.raises(ValueError, match="n_resamples"):
        function(*targets, n_resamples=n_resamples)


def test_mcnemar_with_all_zero_weights_is_refused_naming_sample_weight():
    with pytest.raises(ValueError, match="sample_weight is 0 on all 4"):
        sce.compare_scores([0, 1, 0, 1], [0, 1, 1, 1], [0, 0, 0, 1], method="mcnemar",
                           sample_weight=[0, 0, 0, 0])


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian"])
def test_predictions_of_different_kinds_warn(method):
    y_true, scores, _ = _targets("probabilities")
    with pytest.warns(UserWarning, match="y_pred_a holds scores and y_pred_b labels"):
        sce.compare_scores(y_true, scores, scores.argmax(axis=1), method=method,
                           n_resamples=20, random_state=0)


def test_compare_scores():
    good = np.where(np.arange(120) % 10 == 0, (Y_TRUE_3 + 1) % 3, Y_TRUE_3)
    for method in ("bootstrap", "permutation", "bayesian"):
        result = sce.compare_scores(Y_TRUE_3, good, Y_PRED_3, scoring="tcm_accuracy", method=method,
                                    n_resamples=300, random_state=0)
        assert result.estimate == pytest.approx(0.9 - 2 / 3)
        assert result.pvalue < 0.01 and result.low > 0
    same = sce.compare_scores(Y_TRUE_3, Y_PRED_3, Y_PRED_3, n_resamples=100, random_state=0)
    assert same.estimate == 0 and same.pvalue == 1
    table = sce.mcnemar_table(Y_TRUE_3, good, Y_PRED_3)
    assert table.sum() == 120 and table[0, 1] > table[1, 0]
    mcnemar = sce.compare_scores(Y_TRUE_3, good, Y_PRED_3, method="mcnemar")
    assert mcnemar.pvalue == sce.mcnemar_test(table).pvalue
    assert mcnemar.estimate == pytest.approx(0.9 - 2 / 3)
    with pytest.raises(ValueError, match="compares one value"):
        sce.compare_scores(Y_TRUE_3, good, Y_PRED_3, scoring="tcm_f1_macro", average=None,
                           n_resamples=10)


def test_a_class_only_predicted_swaps_through_the_targets():
    # A class that only a predicts is absent from some swapped predictions (and so from
    # their matrices): the swaps are scored from their targets, each over its own classes.
    from sklearn_confusion_ext._scores.resolved import _Data, _named_score
    from sklearn_confusion_ext._statistics.paired import _same_classes

    y_true = np.array([0, 1, 2] * 10)
    y_pred_a = y_true.copy()
    y_pred_a[0] = 3
    first, second = (_Data(_named_score("tcm_f1_macro", {}), y_true, y_pred, None)
                     for y_pred in (y_pred_a, y_true))
    assert not _same_classes(first, second)
    result = sce.compare_scores(y_true, y_pred_a, y_true, method="permutation",
                                n_resamples=99, random_state=0, zero_division=0.0)
    # Class 3 is in a's or in b's swapped predictions, never in both: the swapped
    # matrices of one swap are over different classes, and the difference is +-(1 - F1).
    difference = 1 - sce.transport_precision_recall_fscore_support(
        y_true, y_pred_a, average="macro", zero_division=0.0)[2]
    assert set(np.round(result.distribution, 12)) == {round(difference, 12),
                                                      round(-difference, 12)}


def test_mcnemar_compares_accuracies_of_counted_instances():
    # McNemar's test compares accuracies on instance counts: another score, or weights that
    # are not frequencies (whose scale would change its p-value), are refused, not ignored.
    y_true = ["cat", "dog", "fox"] * 60
    y_a = ["cat", "dog", "fox"] * 50 + ["dog", "dog", "cat"] * 10
    y_b = ["cat", "dog", "fox"] * 42 + ["dog", "cat", "fox"] * 18
    plain = sce.compare_scores(y_true, y_a, y_b, method="mcnemar")
    assert sce.compare_scores(y_true, y_a, y_b, method="mcnemar",
                              scoring="tcm_accuracy").pvalue == plain.pvalue
    doubled = sce.compare_scores(y_true, y_a, y_b, method="mcnemar",
                                 sample_weight=np.full(180, 2))
    assert doubled.pvalue < plain.pvalue  # twice the instances: more evidence
    with pytest.raises(ValueError, match="compares accuracies; got scoring='tcm_f1_macro'"):
        sce.compare_scores(y_true, y_a, y_b, method="mcnemar", scoring="tcm_f1_macro")
    with pytest.raises(ValueError, match="frequencies"):
        sce.compare_scores(y_true, y_a, y_b, method="mcnemar", sample_weight=np.full(180, .5))


def null_pvalues(method, n_simulations, n_resamples):
    """p-values of two classifiers with the same error rate, errors independent."""
    rng = np.random.default_rng(12)
    pvalues = []
    for seed in range(n_simulations):
        y_true, y_pred_a = three_class_labels(rng, 120)
        y_pred_b = predictions(rng, y_true, CONDITIONAL)
        pvalues.append(compare_scores(y_true, y_pred_a, y_pred_b, scoring="tcm_f1_macro",
                                      method=method, n_resamples=n_resamples,
                                      random_state=seed, zero_division=0.0).pvalue)
    return np.array(pvalues)


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
@pytest.mark.slow
def test_pvalues_are_uniform_under_the_null(method):
    pvalues = null_pvalues(method, 400, 999)
    assert stats.kstest(pvalues, "uniform").pvalue > 0.01
    assert 0.01 <= np.mean(pvalues < 0.05) <= 0.10


def test_mcnemar_through_compare_scores_equals_mcnemar_test_and_statsmodels():
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    rng = np.random.default_rng(13)
    for n_samples, accuracy_b in [(40, 0.75), (300, 0.7), (300, 0.8)]:
        y_true, y_pred_a = binary_labels(rng, n_samples, 0.8)
        y_pred_b = np.where(rng.random(n_samples) < accuracy_b, y_true, 1 - y_true)
        table = mcnemar_table(y_true, y_pred_a, y_pred_b)
        right_a, right_b = y_pred_a == y_true, y_pred_b == y_true
        np.testing.assert_array_equal(table, [[np.sum(right_a & right_b),
                                               np.sum(right_a & ~right_b)],
                                              [np.sum(~right_a & right_b),
                                               np.sum(~right_a & ~right_b)]])
        result = compare_scores(y_true, y_pred_a, y_pred_b, method="mcnemar")
        assert result.pvalue == pytest.approx(mcnemar_test(table).pvalue, rel=1e-12)
        assert result.pvalue == pytest.approx(contingency.mcnemar(table, exact=True).pvalue,
                                              rel=1e-10)
        assert result.estimate == pytest.approx(np.mean(right_a) - np.mean(right_b))
        asymptotic = contingency.mcnemar(table, exact=False, correction=True)
        ours = mcnemar_test(table, exact=False, correction=True)
        assert ours.pvalue == pytest.approx(asymptotic.pvalue, rel=1e-10)
        assert ours.statistic == pytest.approx(asymptotic.statistic, rel=1e-10)


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian", "mcnemar"])
def test_a_planted_difference_is_found(method):
    rng = np.random.default_rng(14)
    better = np.array([[0.9, 0.07, 0.03], [0.08, 0.85, 0.07], [0.05, 0.1, 0.85]])
    y_true, y_pred_a = three_class_labels(rng, 400, better)
    y_pred_b = predictions(rng, y_true, CONDITIONAL)
    result = compare_scores(y_true, y_pred_a, y_pred_b, scoring="tcm_accuracy", method=method,
                            n_resamples=1_999,
                            random_state=15)
    expected = np.mean(y_pred_a == y_true) - np.mean(y_pred_b == y_true)
    assert result.estimate == pytest.approx(expected)
    assert result.pvalue < 0.01
    assert 0 < result.low < expected < result.high
    one_sided = compare_scores(y_true, y_pred_a, y_pred_b, scoring="tcm_accuracy",
                               method=method, alternative="less", n_resamples=199,
                               random_state=16)
    assert one_sided.pvalue > 0.5


def test_mcnemar_on_multilabel_targets_is_refused():
    y = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    with pytest.raises(ValueError, match="1-D"):
        compare_scores(y, y, y[::-1], method="mcnemar")


def test_bayesian_bootstrap_pvalues_equal_the_exact_posterior_of_the_difference():
    """The Bayesian bootstrap of an accuracy difference has an exact posterior: with k
    instances where only a is right and m where only b is, the difference's sign is that
    of G_k - G_m (sums of the instances' exponential weights, gammas of shapes k and m),
    so P[difference <= 0] = P[Beta(k, m) <= 1/2] (scipy.stats.beta). One-sided p-values
    are that posterior side, the two-sided one twice the smaller side; each within 4
    Monte Carlo standard errors of 9,999 draws."""
    k, m, ties = 9, 3, 14  # ties: both right or both wrong
    y_true = np.zeros(k + m + ties, dtype=int)
    y_pred_a = np.r_[np.zeros(k), np.ones(m), np.zeros(ties // 2), np.ones(ties // 2)]
    y_pred_b = np.r_[np.ones(k), np.zeros(m), np.zeros(ties // 2), np.ones(ties // 2)]
    at_most_zero = stats.beta.cdf(0.5, k, m)  # P[a - b <= 0]: 0.0327
    expected = {"greater": at_most_zero, "less": 1 - at_most_zero,
                "two-sided": 2 * min(at_most_zero, 1 - at_most_zero)}
    n_resamples = 9_999
    for alternative, pvalue in expected.items():
        result = compare_scores(y_true, y_pred_a, y_pred_b, scoring="tcm_accuracy",
                                method="bayesian", alternative=alternative,
                                n_resamples=n_resamples, random_state=3)
        assert result.estimate == pytest.approx((k - m) / y_true.size)
        side = min(pvalue, 1.0) / (2 if alternative == "two-sided" else 1)
        error = (2 if alternative == "two-sided" else 1) * np.sqrt(
            side * (1 - side) / n_resamples)
        assert result.pvalue == pytest.approx(pvalue, abs=4 * error), alternative


@pytest.mark.parametrize("method", ["bootstrap", "mcnemar"])
def test_confidence_interval_of_the_difference(method):
    result = sce.compare_scores(Y_TRUE_3, Y_PRED_3, Y_TRUE_3, method=method, n_resamples=50,
                                random_state=0)
    interval = result.confidence_interval()
    low, high = interval
    assert interval._fields == ("low", "high") and (low, high) == (result.low, result.high)
    assert low <= result.estimate <= high
    with pytest.warns(FutureWarning, match="'difference' was renamed 'estimate'"):
        assert result.difference == result.estimate
