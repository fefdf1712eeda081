"""Issue 24, comparisons and intervals at the edges: p-values with ties and degenerate
resampling distributions, metrics without sample_weight, undefined classes of the analytic
intervals, the minimum of n_resamples, McNemar without weight.

The comparison methods and the alternatives are read from compare_scores' declared
parameters, so a new method is tested without a new line here.
"""

import itertools
import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import accuracy_score, f1_score

import sklearn_confusion_ext as sce

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
    return sce.compare_scores(y_true, y_pred_a, y_pred_b, method=method, score=score,
                              n_resamples=N_RESAMPLES, random_state=0, **kwargs)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method, kind", CASES)
def test_identical_predictions_have_pvalue_one(method, kind, alternative):
    y_true, y_pred, _ = _targets(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a difference always 0 is no edge
        result = _compare(y_true, y_pred, y_pred, method, alternative=alternative)
    assert result.difference == 0.0
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
    assert result.difference > 0
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
        result = sce.compare_scores([0], [0], [1], score="tcm_accuracy", n_resamples=99,
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
    result = sce.compare_scores(y_true, a, b, score=score, method="permutation",
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
    result = sce.compare_scores(y_true, a, b, score="tcm_accuracy", method="permutation",
                                alternative=alternative, n_resamples=9999, random_state=0)
    assert result.distribution.shape == (9999,)
    assert result.pvalue == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / 9999)
                                          + 2e-4)


# --- Metrics without sample_weight ------------------------------------------------------------


def _two_arguments(y_true, y_pred):
    return f1_score(y_true, y_pred, average="macro")


def _with_weights(y_true, y_pred, sample_weight=None):
    return f1_score(y_true, y_pred, average="macro", sample_weight=sample_weight)


LABELS_TRUE = np.array([0, 1, 2] * 10)
LABELS_PRED = np.array([0, 1, 1] * 8 + [2, 2, 0] * 2)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_a_two_argument_metric_is_resampled_like_one_with_weights(method):
    plain = sce.score_confidence_interval(LABELS_TRUE, LABELS_PRED, score=_two_arguments,
                                          method=method, n_resamples=200, random_state=0)
    weighted = sce.score_confidence_interval(LABELS_TRUE, LABELS_PRED, score=_with_weights,
                                             method=method, n_resamples=200, random_state=0)
    np.testing.assert_allclose(plain.distribution, weighted.distribution, atol=1e-12)
    assert (plain.estimate, plain.low, plain.high) == pytest.approx(
        (weighted.estimate, weighted.low, weighted.high), abs=1e-12)


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
def test_compare_scores_takes_a_two_argument_metric(method):
    plain = sce.compare_scores(LABELS_TRUE, LABELS_PRED, LABELS_TRUE, score=_two_arguments,
                               method=method, n_resamples=200, random_state=0)
    weighted = sce.compare_scores(LABELS_TRUE, LABELS_PRED, LABELS_TRUE, score=_with_weights,
                                  method=method, n_resamples=200, random_state=0)
    assert plain.difference == pytest.approx(weighted.difference)
    np.testing.assert_allclose(plain.distribution, weighted.distribution, atol=1e-12)


@pytest.mark.parametrize("function", [sce.score_confidence_interval, sce.compare_scores])
def test_sample_weight_for_a_metric_without_it_is_refused_naming_both(function):
    targets = (LABELS_TRUE, LABELS_PRED) if function is sce.score_confidence_interval else \
        (LABELS_TRUE, LABELS_PRED, LABELS_TRUE)
    with pytest.raises(TypeError, match="sample_weight.*_two_arguments.*takes no sample_weight"):
        function(*targets, score=_two_arguments, sample_weight=np.ones(30))
    with pytest.raises(ValueError, match="method='bayesian'.*no sample_weight"):
        function(*targets, score=_two_arguments, method="bayesian")


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


@pytest.mark.parametrize("score", ["tcm_precision", "tcm_f1"])
@pytest.mark.parametrize("zero_division, fill", [("warn", 0.0), (0.0, 0.0), (1.0, 1.0)])
def test_analytic_interval_of_a_class_never_predicted_follows_zero_division(score,
                                                                             zero_division,
                                                                             fill):
    y_true, y_pred, extra = [0, 1, 1, 2], [0, 0, 0, 2], {}
    if score == "tcm_f1":  # F1 is undefined for a class neither true nor predicted
        y_true, y_pred, extra = [0, 0, 0, 2], [0, 0, 0, 2], {"labels": [0, 1, 2]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = sce.score_confidence_interval(y_true, y_pred, score=score, average=None,
                                               method="analytic", zero_division=zero_division,
                                               **extra)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert np.isfinite(result.low).all() and np.isfinite(result.high).all()
    assert result.estimate[1] == result.low[1] == result.high[1] == fill
    assert result.standard_error[1] == 0.0
    assert bool([w for w in caught if issubclass(w.category, UndefinedMetricWarning)]) == \
        (zero_division == "warn")


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian"])
def test_predictions_of_different_kinds_warn(method):
    y_true, scores, _ = _targets("probabilities")
    with pytest.warns(UserWarning, match="y_pred_a holds scores and y_pred_b labels"):
        sce.compare_scores(y_true, scores, scores.argmax(axis=1), method=method,
                           n_resamples=20, random_state=0)
