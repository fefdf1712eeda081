"""Paired tests across cross-validation folds (compare_cv, compare_cv_scores) and McNemar's
mid-p test: against mlxtend, baycomp, scipy and the papers' formulas computed by hand."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import (
    KFold,
    RepeatedStratifiedKFold,
    cross_validate,
    train_test_split,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import sklearn_confusion_ext as sce

FREQUENTIST = ("corrected_ttest", "5x2cv_ttest", "5x2cv_ftest", "naive_ttest")
TESTS = (*FREQUENTIST, "bayesian")


def scores_of(seed, n=10, shift=0.02):
    rng = np.random.default_rng(seed)
    a = 0.8 + 0.05 * rng.standard_normal(n)
    return a, a - shift + 0.03 * rng.standard_normal(n)


# --- mlxtend: the 5x2cv tests on mlxtend's own folds ---------------------------------------


def mlxtend_folds(n, seed):
    """The folds mlxtend's 5x2cv tests draw: per repetition train_test_split(test_size=0.5)
    with a seed from RandomState(seed), each half the training set once."""
    rng = np.random.RandomState(seed)
    for _ in range(5):
        first, second = train_test_split(np.arange(n), test_size=0.5,
                                         random_state=rng.randint(low=0, high=32767))
        yield first, second
        yield second, first


def fold_scores(estimator, X, y, folds, scorer):
    return np.array([scorer(estimator.fit(X[train], y[train]), X[test], y[test])
                     for train, test in folds])


@pytest.mark.parametrize("data, scoring, seed", [
    (load_iris, "accuracy", 1), (load_wine, "f1_macro", 3), (load_breast_cancer, "accuracy", 0),
    (load_wine, "tcm_f1_macro", 7)])
def test_5x2cv_tests_reproduce_mlxtend(data, scoring, seed):
    mlxtend = pytest.importorskip("mlxtend.evaluate")
    from sklearn.metrics import get_scorer

    X, y = data(return_X_y=True)
    scorer = sce.get_scorer(scoring) if scoring.startswith("tcm") else get_scorer(scoring)
    a, b = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
    folds = list(mlxtend_folds(len(y), seed))
    scores_a, scores_b = fold_scores(a, X, y, folds, scorer), fold_scores(b, X, y, folds, scorer)
    sizes = {"n_train": [len(train) for train, _ in folds],
             "n_test": [len(test) for _, test in folds]}
    t = sce.compare_cv_scores(scores_a, scores_b, method="5x2cv_ttest", **sizes)
    f = sce.compare_cv_scores(scores_a, scores_b, method="5x2cv_ftest", **sizes)
    expected_t = mlxtend.paired_ttest_5x2cv(a, b, X, y, scoring=scorer, random_seed=seed)
    expected_f = mlxtend.combined_ftest_5x2cv(a, b, X, y, scoring=scorer, random_seed=seed)
    np.testing.assert_allclose(tuple(t), expected_t, rtol=1e-12)
    np.testing.assert_allclose(tuple(f), expected_f, rtol=1e-12)
    assert t.df == 5 and f.df == (10, 5)
    # The (5, 2) form is the same test
    assert tuple(sce.compare_cv_scores(scores_a.reshape(5, 2), scores_b.reshape(5, 2),
                                       method="5x2cv_ttest")) == tuple(t)


def test_5x2cv_by_hand():
    """Dietterich's t = d_11 / sqrt(sum_i s_i^2 / 5); Alpaydin's F = sum d^2 / (2 sum s_i^2),
    in exact rational arithmetic."""
    d = [[3, 1], [2, 2], [-1, 3], [4, 0], [1, 1]]
    s2 = [sum((Fraction(x) - Fraction(sum(row), 2)) ** 2 for x in row) for row in d]
    t = d[0][0] / math.sqrt(sum(s2) / 5)
    f = sum(Fraction(x) ** 2 for row in d for x in row) / (2 * sum(s2))
    b = np.zeros(10)
    a = np.ravel(d) / 100
    result = sce.compare_cv_scores(a, b, method="5x2cv_ttest")
    assert result.statistic == pytest.approx(t, rel=1e-12)
    assert result.pvalue == pytest.approx(2 * stats.t.sf(t, 5), rel=1e-12)
    result = sce.compare_cv_scores(a, b, method="5x2cv_ftest")
    assert result.statistic == pytest.approx(float(f), rel=1e-12)
    assert result.pvalue == pytest.approx(stats.f.sf(float(f), 10, 5), rel=1e-12)


# --- Nadeau and Bengio's corrected resampled t-test and the naive t-test ---------------------


def test_corrected_ttest_by_hand():
    """Nadeau and Bengio (2003): t = mean(d) / sqrt((1/J + n_test/n_train) s^2), J - 1
    degrees of freedom; 10-fold cross-validation of 200 instances: n_test/n_train = 20/180."""
    d = [Fraction(x, 100) for x in (2, 1, 3, -1, 2, 0, 4, 1, 2, 1)]
    J = len(d)
    mean = sum(d) / J
    s2 = sum((x - mean) ** 2 for x in d) / (J - 1)
    t = float(mean) / math.sqrt(float((Fraction(1, J) + Fraction(20, 180)) * s2))
    a = np.array([float(x) for x in d]) + 0.5
    result = sce.compare_cv_scores(a, np.full(J, 0.5), n_train=180, n_test=20)
    assert result.method == "corrected_ttest" and result.df == J - 1
    assert result.statistic == pytest.approx(t, rel=1e-10)
    assert result.pvalue == pytest.approx(2 * stats.t.sf(t, J - 1), rel=1e-10)
    # Only the ratio enters; per-fold sizes of 10-fold cross-validation give the same test
    same = sce.compare_cv_scores(a, np.full(J, 0.5), n_train=[9] * J, n_test=[1] * J)
    assert same.statistic == pytest.approx(t, rel=1e-10)
    # The correction widens the naive test's variance by (1/J + ratio) / (1/J)
    naive = sce.compare_cv_scores(a, np.full(J, 0.5), method="naive_ttest")
    assert naive.statistic == pytest.approx(t * math.sqrt((1 / J + 20 / 180) / (1 / J)))


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("seed", range(4))
def test_naive_ttest_is_scipy_paired_ttest(seed, alternative):
    a, b = scores_of(seed, n=8)
    result = sce.compare_cv_scores(a, b, method="naive_ttest", alternative=alternative)
    expected = stats.ttest_rel(a, b, alternative=alternative)
    np.testing.assert_allclose(tuple(result), tuple(expected), rtol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_one_sided_pvalues_split_the_two_sided(seed):
    a, b = scores_of(seed)
    for test, sizes in (("corrected_ttest", {"n_train": 9, "n_test": 1}), ("5x2cv_ttest", {})):
        two = sce.compare_cv_scores(a, b, method=test, **sizes)
        greater = sce.compare_cv_scores(a, b, method=test, alternative="greater", **sizes)
        less = sce.compare_cv_scores(a, b, method=test, alternative="less", **sizes)
        assert greater.pvalue + less.pvalue == pytest.approx(1.0)
        assert two.pvalue == pytest.approx(2 * min(greater.pvalue, less.pvalue))


# --- baycomp: the Bayesian correlated t-test ------------------------------------------------


def three(probabilities):
    """baycomp's probabilities in the order ours unpack to, whatever rope: baycomp gives
    two where rope is 0, ours (p_a_better, 0, p_b_better)."""
    probabilities = tuple(probabilities)
    return probabilities if len(probabilities) == 3 else (
        probabilities[0], 0.0, probabilities[1])


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
@pytest.mark.parametrize("n_splits, n_repeats, seed", [(10, 1, 0), (10, 10, 1), (5, 3, 2),
                                                        (2, 5, 3)])
def test_bayesian_correlated_ttest_reproduces_baycomp(n_splits, n_repeats, seed, rope):
    baycomp = pytest.importorskip("baycomp")
    a, b = scores_of(seed, n=n_splits * n_repeats)
    result = sce.compare_cv_scores(a, b, method="bayesian", rope=rope, n_train=n_splits - 1,
                                   n_test=1)
    expected = baycomp.two_on_single(a, b, rope=rope, runs=n_repeats)
    np.testing.assert_allclose(tuple(result), three(expected), rtol=1e-10, atol=1e-15)
    assert len(result) == 3
    posterior = baycomp.CorrelatedTTest(a, b, rope=rope, runs=n_repeats)
    # baycomp's difference is b - a; ours a - b
    assert result.mean == pytest.approx(-posterior.mean)
    assert result.scale == pytest.approx(math.sqrt(posterior.var))
    assert result.df == posterior.df
    assert result.rho == pytest.approx(1 / n_splits)


def test_bayesian_probabilities_sum_to_one_and_match_the_corrected_ttest():
    a, b = scores_of(5, n=30)
    result = sce.compare_cv_scores(a, b, method="bayesian", rope=0.02, n_train=9, n_test=1)
    assert result.p_a_better + result.p_rope + result.p_b_better == pytest.approx(1.0)
    # With rope=0 and a flat prior, P(b better) is the corrected test's one-sided p-value
    flat = sce.compare_cv_scores(a, b, method="bayesian", n_train=9, n_test=1)
    greater = sce.compare_cv_scores(a, b, n_train=9, n_test=1, alternative="greater")
    assert flat.p_b_better == pytest.approx(greater.pvalue, rel=1e-10)
    assert flat.p_rope == 0.0
    assert flat.posterior().cdf(0) == pytest.approx(flat.p_b_better)


# --- Degenerate folds: no spread ------------------------------------------------------------


@pytest.mark.parametrize("test", TESTS)
def test_identical_scores_give_no_difference_with_a_warning(test):
    scores = np.linspace(0.7, 0.9, 10)
    with pytest.warns(RuntimeWarning, match="variance|spread"):
        result = sce.compare_cv_scores(scores, scores, method=test, n_train=1, n_test=1)
    if test == "bayesian":
        assert tuple(result) == (0.5, 0.0, 0.5) and result.scale == 0.0
        with pytest.raises(ValueError, match="point mass"):
            result.posterior()
    else:
        assert (result.statistic, result.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("test", TESTS)
def test_constant_nonzero_difference_is_infinite_with_a_warning(test):
    a = np.linspace(0.7, 0.9, 10)
    b = a - 0.1  # rounding makes these differences unequal in the last bit
    with pytest.warns(RuntimeWarning, match="spread"):
        result = sce.compare_cv_scores(a, b, method=test, n_train=1, n_test=1)
    if test == "bayesian":
        assert tuple(result) == (1.0, 0.0, 0.0)
        with pytest.warns(RuntimeWarning):
            within = sce.compare_cv_scores(a, b, method=test, n_train=1, n_test=1, rope=0.2)
        assert tuple(within) == (0.0, 1.0, 0.0)
    else:
        assert result.statistic == math.inf and result.pvalue == 0.0
        with pytest.warns(RuntimeWarning):
            other = sce.compare_cv_scores(b, a, method=test, n_train=1, n_test=1)
        assert other.pvalue == 0.0
        assert other.statistic == (math.inf if test == "5x2cv_ftest" else -math.inf)


def test_5x2cv_ttest_zero_first_difference_without_spread():
    a = np.full(10, 0.8)
    b = a - np.repeat([0.0, 0.02, 0.01, 0.03, 0.02], 2)  # equal within each repetition
    with pytest.warns(RuntimeWarning, match="the first is 0"):
        result = sce.compare_cv_scores(a, b, method="5x2cv_ttest")
    assert (result.statistic, result.pvalue) == (0.0, 1.0)
    with pytest.warns(RuntimeWarning, match="not 0; the statistic is infinite"):
        f = sce.compare_cv_scores(a, b, method="5x2cv_ftest")
    assert (f.statistic, f.pvalue) == (math.inf, 0.0)


def test_degenerate_posterior_follows_baycomp():
    baycomp = pytest.importorskip("baycomp")
    a = np.full(10, 0.8)
    for b, rope in ((a - 0.1, 0.0), (a, 0.0), (a - 0.01, 0.05), (a + 0.1, 0.05)):
        with pytest.warns(RuntimeWarning):
            result = sce.compare_cv_scores(a, b, method="bayesian", rope=rope, n_train=9,
                                           n_test=1)
        np.testing.assert_allclose(tuple(result),
                                   three(baycomp.two_on_single(a, b, rope=rope)))


# --- Clear errors ---------------------------------------------------------------------------


@pytest.mark.parametrize("keywords, match", [
    ({"scores_a": [0.8], "scores_b": [0.7], "method": "naive_ttest"}, "at least 2 folds"),
    ({"scores_a": [0.8, 0.9, 0.7], "scores_b": [0.7, 0.8]}, "same folds"),
    ({"scores_a": [0.8, np.nan, 0.7], "scores_b": [0.7, 0.8, 0.6]}, "scores_a has nan at fold 1"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, np.inf]}, "scores_b has inf at fold 1"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "rope": -0.1}, "rope"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8]}, "pass n_train and n_test"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "method": "bayesian"}, "n_train and n_test"),
    ({"scores_a": [0.8] * 8, "scores_b": [0.7] * 8, "method": "5x2cv_ttest"}, "10 folds"),
    ({"scores_a": np.ones((2, 5)), "scores_b": np.ones((2, 5)), "method": "5x2cv_ftest"},
     r"shape \(5, 2\)"),
    ({"scores_a": [0.8, 0.9, 0.7], "scores_b": [0.7, 0.8, 0.6], "n_train": [90, 90, 50],
      "n_test": [10, 10, 50]}, "different shares"),
    ({"scores_a": np.arange(10) / 10, "scores_b": np.ones(10), "method": "5x2cv_ttest",
      "n_train": 80, "n_test": 20}, "two halves"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "n_train": [9, 9, 9], "n_test": 1},
     "one per fold"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "n_train": 9}, "both n_train and n_test"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "n_train": 9, "n_test": 1,
      "rope": 0.01}, "region of practical equivalence"),
    ({"scores_a": np.arange(10) / 10, "scores_b": np.ones(10), "method": "5x2cv_ftest",
      "alternative": "greater"}, "two-sided"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "n_train": 9, "n_test": 1,
      "method": "bayesian", "alternative": "less"}, "two-sided"),
    ({"scores_a": [[[0.8]]], "scores_b": [[[0.7]]]}, "1-D"),
])
def test_compare_cv_scores_errors(keywords, match):
    with pytest.raises(ValueError, match=match):
        sce.compare_cv_scores(**keywords)


@pytest.mark.parametrize("keywords, match", [
    ({"scores_a": ["high", "low"], "scores_b": [0.7, 0.8]}, "scores_a must hold one number"),
    ({"scores_a": [0.8, 0.9], "scores_b": [0.7, 0.8], "n_train": ["nine", "nine"],
      "n_test": 1}, "n_train must hold fold sizes"),
])
def test_compare_cv_scores_type_errors(keywords, match):
    with pytest.raises(TypeError, match=match):
        sce.compare_cv_scores(**keywords)


@pytest.mark.parametrize("keywords, match", [
    ({"method": "5x2cv_ttest", "n_splits": 3}, "5 repetitions of 2-fold"),
    ({"n_splits": 1}, "n_splits"),
    ({"scoring": "no_such_score"}, "not a score name"),
    ({"scoring": "tcm_f1"}, "one value per class"),
    ({"groups": [0, 1]}, "groups must hold one group id per instance, 150 in all"),
    ({"rope": 0.1}, "region of practical equivalence"),
    ({"groups": np.r_[np.zeros(100), np.arange(1, 51)], "n_splits": 5}, "different shares"),
])
def test_compare_cv_errors_before_any_fit(keywords, match):
    class Refuses(GaussianNB):
        def fit(self, X, y):
            raise AssertionError("fit before the arguments were checked")

    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=match):
        sce.compare_cv(Refuses(), GaussianNB(), X, y, **keywords)


def test_a_score_undefined_on_a_fold_is_refused_naming_it():
    X, y = load_iris(return_X_y=True)

    def undefined(estimator, X, y):
        return float("nan")

    with pytest.raises(ValueError, match="for estimator_a on fold 0"):
        sce.compare_cv(GaussianNB(), GaussianNB(), X, y, scoring=undefined, n_repeats=1)


# --- From estimators: the folds ---------------------------------------------------------------


class GroupMemory(ClassifierMixin, BaseEstimator):
    """Predicts 1 for an instance whose group (first column) it was trained on, else 0."""

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        self.groups_ = set(np.asarray(X)[:, 0].tolist())
        return self

    def predict(self, X):
        return np.isin(np.asarray(X)[:, 0], list(self.groups_)).astype(int)


def test_groups_are_never_split_between_training_and_test():
    rng = np.random.default_rng(0)
    groups = rng.integers(0, 30, 300)
    X = np.column_stack([groups, rng.standard_normal(300)])
    y = np.ones(300, dtype=int)
    y[:5] = 0  # two classes: the stratified grouped splitter
    for labels in (y, np.column_stack([y, 1 - y])):  # class labels, then multi-label rows
        target = labels if labels.ndim == 1 else labels[:, 0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a fold with one class warns in the scorer
            grouped = sce.compare_cv(GroupMemory(), GroupMemory(), X, target, groups=groups,
                                     scoring="accuracy", n_repeats=2, random_state=0,
                                     method="naive_ttest")
            free = sce.compare_cv(GroupMemory(), GroupMemory(), X, target, scoring="accuracy",
                                  n_repeats=2, random_state=0, method="naive_ttest")
        # Every test instance's group is unseen: all predicted 0, accuracy = share of class 0
        assert grouped.scores_a.max() < 0.2
        assert free.scores_a.min() > 0.5


def class_one_share(estimator, X, y):
    return float(np.mean(np.asarray(y) == 1))


def test_folds_are_stratified_on_class_labels_and_reproducible():
    X, y = load_breast_cancer(return_X_y=True)
    keywords = dict(scoring=class_one_share, n_splits=5, n_repeats=3, random_state=0,
                    method="naive_ttest")
    with pytest.warns(RuntimeWarning, match="score alike on every fold"):
        result = sce.compare_cv(GaussianNB(), GaussianNB(), X, y, **keywords)
    positives = result.scores_a * result.n_test
    assert np.ptp(positives) <= 1  # each test fold holds the class shares, to one instance
    with pytest.warns(RuntimeWarning, match="score alike on every fold"):
        again = sce.compare_cv(GaussianNB(), GaussianNB(), X, y, **keywords)
    np.testing.assert_array_equal(again.scores_a, result.scores_a)
    assert result.n_test.sum() == 3 * len(y) and (result.n_train + result.n_test == len(y)).all()


def test_both_models_are_fit_on_the_same_folds_in_parallel_alike():
    X, y = load_wine(return_X_y=True)
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    one = sce.compare_cv(a, b, X, y, n_repeats=2, random_state=3, scoring="accuracy")
    two = sce.compare_cv(a, b, X, y, n_repeats=2, random_state=3, scoring="accuracy", n_jobs=2)
    assert tuple(one) == tuple(two)
    other = sce.compare_cv(a, b, X, y, n_repeats=2, random_state=4, scoring="accuracy")
    assert tuple(other) != tuple(one)
    # The same folds: identical models give identical scores, fold by fold
    with pytest.warns(RuntimeWarning, match="score alike on every fold"):
        same = sce.compare_cv(b, b, X, y, n_repeats=2, random_state=3, scoring="accuracy")
    np.testing.assert_array_equal(same.scores_a, same.scores_b)
    np.testing.assert_array_equal(same.scores_a, one.scores_b)
    # Each test on the folds' scores gives what compare_cv gives
    for test in ("naive_ttest", "bayesian"):
        direct = sce.compare_cv(a, b, X, y, n_repeats=2, random_state=3, scoring="accuracy",
                                method=test)
        again = sce.compare_cv_scores(one.scores_a, one.scores_b, method=test,
                                      n_train=one.n_train, n_test=one.n_test)
        assert tuple(direct) == tuple(again)


def test_scoring_names_scorers_and_metrics_agree():
    X, y = load_iris(return_X_y=True)
    keywords = dict(n_splits=5, n_repeats=2, random_state=0)
    a, b = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
    by_name = sce.compare_cv(a, b, X, y, scoring="accuracy", **keywords)
    by_metric = sce.compare_cv(a, b, X, y, scoring=accuracy_score, **keywords)
    by_library = sce.compare_cv(a, b, X, y, scoring="tcm_accuracy", **keywords)
    np.testing.assert_allclose(by_metric.scores_a, by_name.scores_a)
    np.testing.assert_allclose(by_library.scores_a, by_name.scores_a)  # TCM on labels
    assert (by_name.score, by_metric.score, by_library.score) == (
        "accuracy", "accuracy_score", "tcm_accuracy")
    default = sce.compare_cv(a, b, X, y, **keywords)
    assert default.score == "tcm_f1_macro" and default.models == ("GaussianNB",
                                                                 "DecisionTreeClassifier")


def test_probabilities_are_scored_by_probability_scorers():
    X, y = load_iris(return_X_y=True)
    keywords = dict(n_splits=5, n_repeats=2, random_state=0)
    a, b = GaussianNB(), LogisticRegression(max_iter=500)
    log_loss = sce.compare_cv(a, b, X, y, scoring="neg_log_loss", **keywords)
    assert (log_loss.scores_a < 0).all() and log_loss.score == "neg_log_loss"
    soft = sce.make_transport_scorer("f1", response_method="predict_proba")
    result = sce.compare_cv(a, b, X, y, scoring=soft, **keywords)
    hard = sce.compare_cv(a, b, X, y, scoring="tcm_f1_macro", **keywords)
    # The transport F1 of the probabilities, not of the labels
    assert ((result.scores_a > 0.8) & (result.scores_a < 1)).all()
    assert not np.isin(result.scores_a, hard.scores_a).any()
    assert result.score.startswith("make_transport_scorer('f1', average='macro', "
                                   "response_method='predict_proba'")


def test_cross_validate_results_are_read_with_their_folds():
    X, y = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    scoring = {"f1": sce.get_scorer("tcm_f1_macro"), "acc": "accuracy"}
    linear = cross_validate(make_pipeline(StandardScaler(), LogisticRegression()), X, y, cv=cv,
                            scoring=scoring, return_indices=True)
    tree = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=cv,
                          scoring=scoring, return_indices=True)
    result = sce.compare_cv_scores(linear, tree, scoring="f1", models=["linear", "tree"])
    n_test = np.array([len(fold) for fold in linear["indices"]["test"]])
    expected = sce.compare_cv_scores(linear["test_f1"], tree["test_f1"], n_test=n_test,
                                     n_train=len(y) - n_test)
    assert tuple(result) == tuple(expected)
    assert result.models == ("linear", "tree") and result.score == "f1"
    with pytest.raises(ValueError, match="test scores are"):
        sce.compare_cv_scores(linear, tree)
    one = {"test_f1": linear["test_f1"], "indices": linear["indices"]}
    assert sce.compare_cv_scores(one, tree["test_f1"], n_train=4, n_test=1).score == "f1"
    other = cross_validate(DecisionTreeClassifier(random_state=0), X, y, scoring=scoring,
                           cv=KFold(5, shuffle=True, random_state=1), return_indices=True)
    with pytest.raises(ValueError, match="different folds"):
        sce.compare_cv_scores(linear, other, scoring="f1")


@pytest.mark.parametrize("scoring", [None, "f1"])
def test_dicts_of_different_scores_are_refused_naming_both_keys(scoring):
    # test_score beside test_f1 was compared silently and labelled score='f1'
    a, b = scores_of(0)
    with pytest.raises(ValueError, match=r"scores_a and scores_b hold different scores: "
                                         r"'test_score' in scores_a and 'test_f1' in "
                                         r"scores_b"):
        sce.compare_cv_scores({"test_score": a}, {"test_f1": b}, n_train=9, n_test=1,
                              scoring=scoring)
    same = sce.compare_cv_scores({"test_f1": a}, {"test_f1": b}, n_train=9, n_test=1)
    assert same.score == "f1" and tuple(same) == tuple(
        sce.compare_cv_scores(a, b, n_train=9, n_test=1))


def test_5x2cv_ttest_says_which_difference_its_statistic_tests():
    # Dietterich's t is d_11 / sqrt(mean s_i^2): its sign is the first fold's, which the
    # repr printed beside the mean of all ten with no word on it
    rng = np.random.default_rng(3)
    a = rng.normal(0.8, 0.02, 10)
    b = a + rng.normal(0, 0.02, 10)
    result = sce.compare_cv_scores(a, b, method="5x2cv_ttest")
    d = (a - b).reshape(5, 2)
    assert result.tested_difference == d[0, 0] and result.estimate == pytest.approx(d.mean())
    assert np.sign(result.statistic) == np.sign(d[0, 0]) != np.sign(result.estimate)
    assert (f"tested_difference={result.tested_difference:.4g} (d_11, the first fold's), "
            f"estimate={result.estimate:.4g} (mean of the 10 folds)") in repr(result)
    ftest = sce.compare_cv_scores(a, b, method="5x2cv_ftest")
    assert ftest.tested_difference is None
    assert "tested_difference=None (F sums the 10 squared differences)" in repr(ftest)
    for test in ("corrected_ttest", "naive_ttest"):
        other = sce.compare_cv_scores(a, b, method=test, n_train=9, n_test=1)
        assert other.tested_difference == other.estimate
        assert "tested_difference" not in repr(other)


def test_multilabel_and_soft_targets():
    X, y = load_iris(return_X_y=True)
    multilabel = np.column_stack([y == 0, y == 1, y >= 1]).astype(int)
    result = sce.compare_cv(KNeighborsClassifier(3), KNeighborsClassifier(15), X, multilabel,
                            n_splits=5, n_repeats=2, random_state=0, method="bayesian", rope=0.01)
    assert result.score == "tcm_f1_macro" and result.n_test.sum() == 2 * len(y)
    assert ((result.scores_a > 0.8) & (result.scores_a <= 1)).all()
    soft = np.eye(3)[y] * 0.8 + 0.2 / 3
    result = sce.compare_cv(KNeighborsRegressor(3), KNeighborsRegressor(15), X, soft,
                            n_splits=5, n_repeats=2, random_state=0)
    assert np.isfinite(result.scores_a).all() and result.df == 9


def test_results_unpack_like_scipy_and_name_the_test():
    a, b = scores_of(0)
    result = sce.compare_cv_scores(a, b, n_train=9, n_test=1, scoring="accuracy",
                                   models=("forest", "tree"))
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)
    assert result.method == "corrected_ttest" and result.models == ("forest", "tree")
    assert result.score == "accuracy"
    np.testing.assert_allclose(result.differences, a - b)
    assert result.estimate == pytest.approx(np.mean(a - b))
    posterior = sce.compare_cv_scores(a, b, n_train=9, n_test=1, method="bayesian", rope=0.01)
    p_a, p_rope, p_b = posterior
    assert posterior.method == "bayesian" and (p_a, p_rope, p_b) == (
        posterior.p_a_better, posterior.p_rope, posterior.p_b_better)
    # A short repr naming the test, the score and the models; the folds in to_frame()
    assert repr(result) == (
        f"CrossValidatedTestResult(method='corrected_ttest', score='accuracy', "
        f"models=('forest', 'tree'), statistic={result.statistic:.4g}, "
        f"pvalue={result.pvalue:.4g}, df=9.0, estimate={result.estimate:.4g}, "
        f"alternative='two-sided')")
    assert repr(posterior).startswith("BayesianCorrelatedTTestResult(method='bayesian', "
                                      "score='score', models=('a', 'b'), p_a_better=")
    pytest.importorskip("pandas")
    for r in (result, posterior):
        frame = r.to_frame()
        assert list(frame.columns) == ["scores_a", "scores_b", "difference", "n_train",
                                       "n_test"]
        np.testing.assert_array_equal(frame["difference"], a - b)
        assert frame.index.name == "fold" and len(frame) == 10
    assert "<table>" in result._repr_html_()


# --- McNemar's mid-p test -------------------------------------------------------------------


@pytest.mark.parametrize("b, c", [(0, 1), (1, 7), (3, 9), (5, 5), (12, 4), (40, 25), (0, 30)])
def test_mcnemar_mid_p_is_the_binomial_mid_p(b, c):
    n = b + c
    pmf = stats.binom.pmf(b, n, 0.5)
    less, greater = stats.binom.cdf(b, n, 0.5), stats.binom.sf(b - 1, n, 0.5)
    table = [[10, b], [c, 10]]
    expected = {"two-sided": min(1.0, 2 * min(less, greater) - pmf),
                "less": less - pmf / 2, "greater": greater - pmf / 2}
    for alternative, value in expected.items():
        result = sce.mcnemar_test(table, exact="mid-p", alternative=alternative)
        assert result.statistic == b
        assert result.pvalue == pytest.approx(value, rel=1e-12, abs=1e-300)
    exact = sce.mcnemar_test(table).pvalue
    if b != c:  # the exact p-value less the observed table's probability
        assert sce.mcnemar_test(table, exact="mid-p").pvalue == pytest.approx(exact - pmf)
    else:
        assert sce.mcnemar_test(table, exact="mid-p").pvalue == pytest.approx(1.0)


def test_mcnemar_mid_p_fagerland_example():
    """Fagerland, Lydersen and Laake (2013): 1 and 7 discordant pairs give exact p 0.070
    and mid-p 0.039 (asymptotic 0.034)."""
    table = [[2, 1], [7, 4]]
    assert round(sce.mcnemar_test(table).pvalue, 3) == 0.070
    assert round(sce.mcnemar_test(table, exact="mid-p").pvalue, 3) == 0.039
    assert round(sce.mcnemar_test(table, exact=False).pvalue, 3) == 0.034
    with pytest.raises(ValueError, match="exact"):
        sce.mcnemar_test(table, exact="midp")


# --- The posterior Display ------------------------------------------------------------------


def test_posterior_display_draws_the_three_regions_with_their_probabilities():
    pytest.importorskip("matplotlib")
    a, b = scores_of(2, n=20)
    display = sce.PosteriorDifferenceDisplay.from_scores(
        a, b, n_train=9, n_test=1, rope=0.02, models=("forest", "tree"), scoring="accuracy")
    result = display.result_
    assert display.probabilities() == pytest.approx(tuple(result))
    legend = [text.get_text() for text in display.ax_.get_legend().get_texts()]
    assert legend == [f"forest better: P = {result.p_a_better:.3f}",
                      f"equivalent (rope ±0.02): P = {result.p_rope:.3f}",
                      f"tree better: P = {result.p_b_better:.3f}"]
    assert display.ax_.get_xlabel() == "accuracy: forest − tree"
    # The filled areas integrate to the probabilities
    for patch, p in zip(display.ax_.collections, tuple(result)):
        vertices = patch.get_paths()[0].vertices
        x, y = vertices[:, 0], vertices[:, 1]
        area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
        assert area == pytest.approx(p, abs=2e-3)
    flat = sce.PosteriorDifferenceDisplay(mean=0.01, scale=0.01, df=9).plot()
    assert len(flat.ax_.get_legend().get_texts()) == 2  # no rope: two regions
    with pytest.warns(RuntimeWarning):
        point = sce.PosteriorDifferenceDisplay.from_scores(
            a, a - 0.1, n_train=9, n_test=1, rope=0.02)
    assert [t.get_text() for t in point.ax_.get_legend().get_texts()] == ["a better: P = 1.000"]


# --- Type I error by simulation ---------------------------------------------------------------
#
# Two models of the same true performance: nearest class mean on one feature each, the first
# model on feature 0, the second on feature 1, of data whose distribution is symmetric in the
# two features (swapping them maps the classes onto themselves), so that both have the same
# expected accuracy. Each data set is drawn anew; the tests run on its folds; a test rejects
# at level 0.05.

SIMULATION_CASES = {
    "binary, n=100": dict(n=100, means=[(0, 0), (1, 1)]),
    "binary 1:3, n=200": dict(n=200, means=[(0, 0), (0.8, 0.8)], weights=[0.75, 0.25]),
    "3 classes, n=150": dict(n=150, means=[(0, 0), (1.5, 0), (0, 1.5)]),
}
SIMULATED_TESTS = ("naive 10x10", "corrected 10x10", "naive 1x10", "corrected 1x10",
                   "5x2cv t", "5x2cv F")


def _simulated_data(rng, n, means, weights=None):
    means = np.asarray(means, dtype=float)
    y = rng.choice(len(means), size=n, p=weights)
    return means[y] + rng.standard_normal((n, 2)), y


def _one_feature_accuracy(X, y, train, test, feature):
    """Accuracy of the nearest class mean on one feature, trained on ``train``."""
    classes = np.unique(y[train])
    centres = np.array([X[train][y[train] == c, feature].mean() for c in classes])
    predicted = classes[np.abs(X[test, feature][:, None] - centres).argmin(axis=1)]
    return np.mean(predicted == y[test])


def _fold_scores(X, y, folds):
    """Each model's accuracy on each fold (the first model reads feature 0, the second 1)."""
    return [np.array([_one_feature_accuracy(X, y, train, test, feature)
                      for train, test in folds]) for feature in (0, 1)]


def _kfold(rng, n, k):
    order = rng.permutation(n)
    return [(np.setdiff1d(order, fold), fold) for fold in np.array_split(order, k)]


def type_one_error_rates(case, n_datasets, seed, alpha=0.05):
    """The share of data sets on which each test rejects the (true) null hypothesis."""
    rng = np.random.default_rng(seed)
    rejections = dict.fromkeys(SIMULATED_TESTS, 0)
    for _ in range(n_datasets):
        X, y = _simulated_data(rng, **SIMULATION_CASES[case])
        n = len(y)

        ten = [fold for _ in range(10) for fold in _kfold(rng, n, 10)]
        five = [fold for _ in range(5) for fold in _kfold(rng, n, 2)]
        a, b = _fold_scores(X, y, ten)
        a2, b2 = _fold_scores(X, y, five)
        n_train, n_test = [len(f[0]) for f in ten], [len(f[1]) for f in ten]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the rare fold-equal data set
            pvalues = {
                "naive 10x10": sce.compare_cv_scores(a, b, method="naive_ttest").pvalue,
                "corrected 10x10": sce.compare_cv_scores(a, b, n_train=n_train,
                                                         n_test=n_test).pvalue,
                "naive 1x10": sce.compare_cv_scores(a[:10], b[:10],
                                                    method="naive_ttest").pvalue,
                "corrected 1x10": sce.compare_cv_scores(a[:10], b[:10], n_train=n_train[:10],
                                                        n_test=n_test[:10]).pvalue,
                "5x2cv t": sce.compare_cv_scores(a2, b2, method="5x2cv_ttest").pvalue,
                "5x2cv F": sce.compare_cv_scores(a2, b2, method="5x2cv_ftest").pvalue,
            }
        for test, pvalue in pvalues.items():
            rejections[test] += pvalue < alpha
    return {test: count / n_datasets for test, count in rejections.items()}


@pytest.mark.slow
def test_type_one_error_naive_fold_ttest_rejects_too_often_corrected_tests_do_not():
    """Type I error at level 0.05 (the user guide's table, there with 2,000 data sets a case):
    the naive t-test over 10 x 10 folds rejects a true null hypothesis several times too
    often, the corrected and 5x2cv tests near or below the level."""
    n_datasets = 120
    bound = 0.05 + 3 * math.sqrt(0.05 * 0.95 / n_datasets)  # 3 standard errors above
    for case in SIMULATION_CASES:
        rates = type_one_error_rates(case, n_datasets, seed=1)
        assert rates["naive 10x10"] > 0.2, (case, rates)
        for test in ("corrected 10x10", "corrected 1x10", "5x2cv t", "5x2cv F"):
            assert rates[test] <= bound, (case, test, rates)


def test_compare_scores_mcnemar_mid_p():
    y_true = [0, 1] * 30
    y_a = y_true
    y_b = [0, 1] * 25 + [1, 0] * 3 + [0, 1] * 2  # 6 instances wrong, all right for a
    table = sce.mcnemar_table(y_true, y_a, y_b)
    for alternative in ("two-sided", "greater", "less"):
        exact = sce.compare_scores(y_true, y_a, y_b, method="mcnemar", alternative=alternative)
        mid_p = sce.compare_scores(y_true, y_a, y_b, method="mcnemar-mid-p",
                                   alternative=alternative)
        expected = sce.mcnemar_test(table, exact="mid-p", alternative=alternative).pvalue
        assert mid_p.pvalue == pytest.approx(expected) and mid_p.pvalue < exact.pvalue
        assert (mid_p.estimate, mid_p.low, mid_p.high) == (
            exact.estimate, exact.low, exact.high)
        assert mid_p.method == "mcnemar-mid-p"
    assert sce.compare_scores(y_true, y_a, y_b, method="mcnemar-mid-p").pvalue == (
        pytest.approx(2 * 0.5 ** 6 - 0.5 ** 6))


def test_a_search_cv_results_is_refused_with_the_way_to_one_candidate():
    """compare_cv_scores(search.cv_results_, ...) said 'pass scoring= naming one', which
    cannot help (found by the new-user review)."""
    cv_results = {"params": [{"C": 1}, {"C": 10}], "mean_test_score": np.array([0.9, 0.8]),
                  **{f"split{k}_test_score": np.array([0.9, 0.8]) for k in range(5)}}
    with pytest.raises(ValueError, match=r"scores_a looks like a search's cv_results_"):
        sce.compare_cv_scores(cv_results, cv_results)


# --- The confidence interval of the difference tested ---------------------------------------


def test_confidence_interval_of_the_naive_ttest_is_scipys():
    a, b = scores_of(0)
    for alternative in ("two-sided", "greater", "less"):
        ours = sce.compare_cv_scores(a, b, method="naive_ttest", alternative=alternative)
        reference = stats.ttest_1samp(a - b, 0.0, alternative=alternative)
        for level in (0.9, 0.95):
            np.testing.assert_allclose(tuple(ours.confidence_interval(level)), tuple(
                reference.confidence_interval(level)), rtol=1e-12)
    low, high = ours.confidence_interval()
    assert (low, high) == (ours.confidence_interval().low, ours.confidence_interval().high)


@pytest.mark.parametrize("method", ["corrected_ttest", "naive_ttest", "5x2cv_ttest"])
def test_confidence_interval_inverts_the_test(method):
    # 0 lies outside the interval at level 1 - alpha exactly where the p-value is below alpha
    rng = np.random.default_rng(5)
    for shift in (0.0, 0.005, 0.01, 0.03):
        a = rng.normal(0.8, 0.02, 10)
        b = a - shift + rng.normal(0, 0.01, 10)
        result = sce.compare_cv_scores(a, b, method=method, n_train=1, n_test=1)
        for alpha in (0.01, 0.05, 0.2):
            low, high = result.confidence_interval(1 - alpha)
            assert low <= result.tested_difference <= high
            assert (not low <= 0 <= high) == (result.pvalue < alpha), (method, shift, alpha)


def test_confidence_interval_is_refused_for_the_f_test():
    a, b = scores_of(0)
    f = sce.compare_cv_scores(a[:10], b[:10], method="5x2cv_ftest")
    with pytest.raises(ValueError, match="5x2cv_ftest' has no confidence interval"):
        f.confidence_interval()
    with pytest.raises(ValueError, match="'confidence_level' parameter of CrossValidatedTest"):
        sce.compare_cv_scores(a, b, method="naive_ttest").confidence_interval(1.0)


def test_former_names_still_work_with_a_future_warning():
    a, b = scores_of(0)
    expected = sce.compare_cv_scores(a, b, method="naive_ttest", models=("x", "y"))
    with pytest.warns(FutureWarning, match="'test' was renamed 'method'"):
        with pytest.warns(FutureWarning, match="'names' was renamed 'models'"):
            old = sce.compare_cv_scores(a, b, test="naive_ttest", names=("x", "y"))
    assert repr(old) == repr(expected)
    with pytest.warns(FutureWarning, match="'test' was renamed 'method'"):
        assert old.test == "naive_ttest"
    with pytest.warns(FutureWarning, match="'difference' was renamed 'estimate'"):
        assert old.difference == expected.estimate
    posterior = sce.compare_cv_scores(a, b, method="bayesian", n_train=9, n_test=1)
    with pytest.warns(FutureWarning, match="'test' was renamed 'method'"):
        assert posterior.test == "bayesian"
    with pytest.raises(TypeError, match="pass 'method' only"):
        sce.compare_cv_scores(a, b, test="naive_ttest", method="naive_ttest")


def test_compare_cv_progress_is_the_librarys(capsys):
    """Issue 39: compare_cv's 200 fits ran with no word. verbose=0 (the default) is silent,
    verbose=2 prints a line per repetition of each model's folds and a last line, and the
    scores are the same whatever verbose says."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_confusion_ext import compare_cv

    X, y = load_breast_cancer(return_X_y=True)
    models = GaussianNB(), DecisionTreeClassifier(random_state=0)
    quiet = compare_cv(*models, X, y, n_repeats=3, n_splits=4, random_state=0)
    assert capsys.readouterr().err == ""
    loud = compare_cv(*models, X, y, n_repeats=3, n_splits=4, random_state=0, verbose=2)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines[:-1]] == [
        f"compare_cv: fit {4 * k}/24" for k in range(1, 7)]
    assert lines[-1].startswith("compare_cv: 24 fits in ")
    np.testing.assert_array_equal(quiet.scores_a, loud.scores_a)
    np.testing.assert_array_equal(quiet.scores_b, loud.scores_b)
    with pytest.raises(ValueError, match="verbose"):
        compare_cv(*models, X, y, verbose=-1)
