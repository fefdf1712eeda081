"""The expected cost of decisions, the Bayes decisions and the cost scorer.

References: a brute-force loop over every instance (the cost of each decision, their
weighted mean), the Bayes decision by a loop over the decisions of each row, scikit-learn's
``confusion_matrix`` for the counts; the scorer in ``GridSearchCV`` and in
``TunedThresholdClassifierCV``, pickled; intervals and paired comparisons of the cost through
the resampler, read off the resampled matrices, against the callable path.
"""

import functools
import pickle
import warnings

import numpy as np
import pytest
import sklearn.model_selection
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, confusion_matrix
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import (
    compare_scores,
    cost_optimal_predictions,
    expected_cost,
    make_cost_scorer,
    score_confidence_interval,
)
from sklearn_confusion_ext._scores import resolved

# scikit-learn 1.5 added TunedThresholdClassifierCV (and 1.6 FrozenEstimator); the floors
# environment runs an older scikit-learn
TunedThresholdClassifierCV = getattr(sklearn.model_selection, "TunedThresholdClassifierCV",
                                     None)
NEEDS_TUNING = pytest.mark.skipif(TunedThresholdClassifierCV is None,
                                  reason="scikit-learn < 1.5 has no TunedThresholdClassifierCV")

# --- References -------------------------------------------------------------------------------


def loop_cost(y_true, y_pred, cost, labels, sample_weight=None, normalize=True):
    """The cost of each instance's decision, one instance at a time (instances of classes
    outside ``labels`` left out, as a confusion matrix with labels= leaves them out)."""
    position = {label: i for i, label in enumerate(labels)}
    total = weight_sum = 0.0
    for i, (t, p) in enumerate(zip(y_true, y_pred)):
        if t not in position or p not in position:
            continue
        w = 1.0 if sample_weight is None else float(sample_weight[i])
        total += w * cost[position[t]][position[p]]
        weight_sum += w
    return total / weight_sum if normalize else total


def loop_decisions(y_prob, cost):
    """The Bayes decision of each row: every decision's expected cost, the least first."""
    decisions = []
    for row in np.asarray(y_prob, dtype=float):
        expected = [sum(row[i] * cost[i][j] for i in range(len(row)))
                    for j in range(len(row))]
        best = 0
        for j in range(1, len(row)):
            if expected[j] < expected[best]:
                best = j
        decisions.append(best)
    return np.array(decisions)


def random_problem(rng, n_samples=200, n_classes=4):
    y_true = rng.integers(0, n_classes, n_samples)
    y_true[:n_classes] = np.arange(n_classes)
    y_prob = rng.dirichlet(np.ones(n_classes) * 0.7, n_samples)
    cost = rng.uniform(0, 10, (n_classes, n_classes)) * (1 - np.eye(n_classes))
    return y_true, y_prob, cost


# --- expected_cost on labels -----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_cost_of_labels_equals_a_loop_over_instances(seed):
    rng = np.random.default_rng(seed)
    y_true, _, cost = random_problem(rng)
    y_pred = rng.integers(0, 4, len(y_true))
    weights = rng.uniform(0, 3, len(y_true))
    labels = [0, 1, 2, 3]
    for keywords in ({}, {"sample_weight": weights}):
        for normalize in (True, False):
            expected = loop_cost(y_true, y_pred, cost, labels, normalize=normalize,
                                 **keywords)
            actual = expected_cost(y_true, y_pred, cost_matrix=cost, normalize=normalize,
                                   **keywords)
            assert actual == pytest.approx(expected, rel=1e-12)


def test_cost_is_read_off_scikit_learns_confusion_matrix():
    rng = np.random.default_rng(1)
    y_true, _, cost = random_problem(rng, n_classes=5)
    y_pred = rng.integers(0, 5, len(y_true))
    weights = rng.random(len(y_true))
    counts = confusion_matrix(y_true, y_pred, sample_weight=weights)
    assert expected_cost(y_true, y_pred, cost_matrix=cost, sample_weight=weights) == \
        pytest.approx((counts * cost).sum() / counts.sum(), rel=1e-12)
    order = [3, 0, 4]  # labels= selects and orders, as confusion_matrix's labels=
    counts = confusion_matrix(y_true, y_pred, labels=order)
    small = cost[np.ix_(order, order)]
    assert expected_cost(y_true, y_pred, cost_matrix=small, labels=order) == \
        pytest.approx((counts * small).sum() / counts.sum(), rel=1e-12)
    assert expected_cost(y_true, y_pred, cost_matrix=small, labels=order) == \
        pytest.approx(loop_cost(y_true, y_pred, small, order), rel=1e-12)


def test_string_labels_and_the_order_of_the_cost_matrix():
    y_true = np.array(["cat", "dog", "dog", "ant", "cat"])
    y_pred = np.array(["dog", "dog", "cat", "ant", "ant"])
    cost = np.array([[0, 1, 2], [3, 0, 4], [5, 6, 0]])  # sorted: ant, cat, dog
    expected = loop_cost(y_true, y_pred, cost, ["ant", "cat", "dog"])
    assert expected_cost(y_true, y_pred, cost_matrix=cost) == pytest.approx(expected)
    order = ["dog", "ant", "cat"]
    permuted = cost[np.ix_([2, 0, 1], [2, 0, 1])]
    assert expected_cost(y_true, y_pred, cost_matrix=permuted, labels=order) == \
        pytest.approx(expected)


def test_zero_one_costs_are_the_error_rate():
    rng = np.random.default_rng(2)
    y_true, y_pred = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
    weights = rng.random(50)
    assert expected_cost(y_true, y_pred) == pytest.approx(1 - accuracy_score(y_true, y_pred))
    assert expected_cost(y_true, y_pred, sample_weight=weights) == pytest.approx(
        1 - accuracy_score(y_true, y_pred, sample_weight=weights))
    assert expected_cost(y_true, y_pred, cost_matrix=1 - np.eye(3)) == \
        pytest.approx(expected_cost(y_true, y_pred))


def test_negative_costs_are_benefits():
    cost = [[-2.0, 1.0], [4.0, -1.0]]
    y_true, y_pred = [0, 0, 1, 1, 1], [0, 1, 1, 0, 1]
    assert expected_cost(y_true, y_pred, cost_matrix=cost) == \
        pytest.approx(loop_cost(y_true, y_pred, cost, [0, 1]))


def test_ordinary_costs_are_exact():
    # no scaling where nothing overflows: the plain (M * cost).sum() / M.sum()
    assert expected_cost([0, 1, 2, 2], [0, 2, 2, 1], cost_matrix=IRIS_COST) == 0.75
    assert expected_cost([0, 1, 2, 2], [0, 2, 2, 1], cost_matrix=np.zeros((3, 3))) == 0.0


def test_extreme_costs_and_counts_stay_finite():
    y_true, y_pred = [0, 0, 1, 1], [0, 1, 1, 0]
    cost = [[0.0, 1e308], [1e308, 0.0]]
    assert expected_cost(y_true, y_pred, cost_matrix=cost) == pytest.approx(5e307)
    weights = [2e299, 2e299, 2e299, 2e299]
    assert expected_cost(y_true, y_pred, cost_matrix=[[0, 3], [1, 0]],
                         sample_weight=weights) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="total cost overflows"):
        expected_cost(y_true, y_pred, cost_matrix=cost, normalize=False)


def test_no_instance_counted_warns_and_gives_zero():
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        assert expected_cost([0, 1], [0, 1], cost_matrix=[[0, 1], [1, 0]],
                             sample_weight=[0, 0]) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert expected_cost([0, 1], [0, 1], cost_matrix=[[0, 1], [1, 0]],
                             sample_weight=[0, 0], normalize=False) == 0.0


# --- cost_optimal_predictions and expected_cost on probabilities ---------------------------


@pytest.mark.parametrize("seed", range(5))
def test_bayes_decisions_equal_a_loop_over_decisions(seed):
    rng = np.random.default_rng(seed)
    _, y_prob, cost = random_problem(rng, n_samples=300, n_classes=3 + seed)
    np.testing.assert_array_equal(cost_optimal_predictions(y_prob, cost),
                                  loop_decisions(y_prob, cost))


def test_bayes_decisions_in_many_chunks_and_sparse():
    import scipy.sparse as sp

    from sklearn_confusion_ext._decisions import cost as module

    rng = np.random.default_rng(3)
    _, y_prob, cost = random_problem(rng, n_samples=5000, n_classes=3)
    expected = loop_decisions(y_prob, cost)
    np.testing.assert_array_equal(module._bayes_decisions(y_prob, cost), expected)
    kept = np.where(y_prob > 0.2, y_prob, 0.0)
    sparse = sp.csr_array(kept / kept.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(cost_optimal_predictions(sparse, cost),
                                  loop_decisions(sparse.toarray(), cost))
    np.testing.assert_array_equal(cost_optimal_predictions(y_prob.astype(np.float32), cost),
                                  cost_optimal_predictions(y_prob, cost))


def test_ties_go_to_the_first_decision_and_zero_one_costs_to_the_argmax():
    assert cost_optimal_predictions([[0.5, 0.5]], [[0, 1], [1, 0]]).tolist() == [0]
    assert cost_optimal_predictions([[0.25, 0.25, 0.5], [0.4, 0.4, 0.2]],
                                    1 - np.eye(3)).tolist() == [2, 0]
    rng = np.random.default_rng(4)
    y_prob = rng.dirichlet(np.ones(5), 400)
    np.testing.assert_array_equal(cost_optimal_predictions(y_prob, 1 - np.eye(5)),
                                  y_prob.argmax(axis=1))


def test_labels_name_the_decisions():
    y_prob = [[0.7, 0.3], [0.9, 0.1]]
    decisions = cost_optimal_predictions(y_prob, [[0, 1], [5, 0]], labels=["no", "yes"])
    assert decisions.tolist() == ["yes", "no"]
    with pytest.raises(ValueError, match=r"expected 2 classes in sorted order; got 3 label"):
        cost_optimal_predictions(y_prob, [[0, 1], [5, 0]], labels=["a", "b", "c"])


@pytest.mark.parametrize("labels", [["yes", "no"], ["no"]])
def test_labels_beside_probabilities_are_the_sorted_classes(labels):
    # The columns are the classes in sorted order; labels in another order (or a subset)
    # never re-name them: refused, by both functions that read every column by position
    y_prob = [[0.7, 0.3], [0.9, 0.1]]
    with pytest.raises(ValueError, match=r"sorted order .*cost_optimal_predictions"):
        cost_optimal_predictions(y_prob, [[0, 1], [5, 0]], labels=labels)
    with pytest.raises(ValueError, match=r"sorted order .*expected_cost"):
        expected_cost(["no", "yes"], y_prob, cost_matrix=[[0, 1], [5, 0]], labels=labels)
    assert expected_cost(["no", "yes"], y_prob, cost_matrix=[[0, 1], [5, 0]],
                         labels=["no", "yes"]) == expected_cost(
        ["no", "yes"], y_prob, cost_matrix=[[0, 1], [5, 0]])


@pytest.mark.parametrize("seed", range(4))
def test_cost_of_probabilities_is_the_cost_of_their_bayes_decisions(seed):
    rng = np.random.default_rng(seed)
    y_true, y_prob, cost = random_problem(rng)
    weights = rng.uniform(0, 2, len(y_true))
    decisions = loop_decisions(y_prob, cost)
    for normalize in (True, False):
        assert expected_cost(y_true, y_prob, cost_matrix=cost, sample_weight=weights,
                             normalize=normalize) == pytest.approx(
            loop_cost(y_true, decisions, cost, [0, 1, 2, 3], weights, normalize), rel=1e-12)
    assert expected_cost(y_true, y_prob) == pytest.approx(
        1 - accuracy_score(y_true, y_prob.argmax(axis=1)))


def test_probability_columns_follow_labels():
    rng = np.random.default_rng(5)
    names = np.array(["ant", "bee", "cat"])
    y_true, y_prob, cost = random_problem(rng, n_classes=3)
    expected = expected_cost(names[y_true], y_prob, cost_matrix=cost)
    order = [2, 0, 1]  # columns in another order: named by a DataFrame, never by labels
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(y_prob[:, order], columns=names[order])
    assert expected_cost(names[y_true], frame, cost_matrix=cost) == pytest.approx(expected)
    assert expected == pytest.approx(loop_cost(
        y_true, loop_decisions(y_prob, cost), cost, [0, 1, 2]))


def test_a_pandas_categorical_orders_the_cost_matrix_as_the_confusion_matrix():
    pd = pytest.importorskip("pandas")
    y_true = np.array(["b", "a", "c", "a", "b", "c"])
    y_pred = np.array(["a", "a", "c", "b", "b", "a"])
    categories = ["c", "a", "b"]
    cost = np.arange(9.0).reshape(3, 3)
    expected = loop_cost(y_true, y_pred, cost, categories)
    assert expected_cost(pd.Categorical(y_true, categories=categories),
                         pd.Categorical(y_pred, categories=categories),
                         cost_matrix=cost) == pytest.approx(expected)


def test_probabilities_that_do_not_sum_to_one_warn():
    with pytest.warns(UserWarning, match="do not sum to 1"):
        cost_optimal_predictions([[2.0, 1.0]], [[0, 1], [1, 0]])
    with pytest.warns(UserWarning, match="do not sum to 1"):
        expected_cost([0], [[2.0, 1.0]], cost_matrix=[[0, 1], [1, 0]], labels=[0, 1])


# --- Refused inputs -------------------------------------------------------------------------

BAD_COST_MATRICES = {
    "not square": ([[0, 1, 2], [1, 0, 2]], "square"),
    "3-D": (np.zeros((2, 2, 2)), "square"),
    "empty": (np.zeros((0, 0)), "square"),
    "ragged": ([[0, 1], [1]], "different lengths"),
    "nan": ([[0, np.nan], [1, 0]], r"finite costs; cost_matrix\[0, 1\] is nan"),
    "inf": ([[0, 1], [np.inf, 0]], "finite"),
    "strings": ([["a", "b"], ["c", "d"]], "real numbers"),
    "too small": (np.zeros((2, 2)), "there are 3 classes"),
    "too large": (np.zeros((4, 4)), "there are 3 classes"),
}


@pytest.mark.parametrize("case", sorted(BAD_COST_MATRICES))
def test_bad_cost_matrices_are_refused_naming_cost_matrix(case):
    cost, message = BAD_COST_MATRICES[case]
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 1, 2]
    y_prob = np.eye(3)[[0, 2, 1, 2]] * 0.8 + 0.2 / 3
    for call in (lambda: expected_cost(y_true, y_pred, cost_matrix=cost),
                 lambda: expected_cost(y_true, y_prob, cost_matrix=cost),
                 lambda: cost_optimal_predictions(y_prob, cost)):
        with pytest.raises(ValueError, match=message) as caught:
            call()
        assert "cost_matrix" in str(caught.value)
    if case not in ("too small", "too large"):
        with pytest.raises(ValueError, match="cost_matrix"):
            make_cost_scorer(cost)


def test_a_fold_without_a_class_names_labels():
    with pytest.raises(ValueError, match="there are 2 classes.*labels="):
        expected_cost([0, 1, 1], [0, 1, 0], cost_matrix=np.zeros((3, 3)))
    assert expected_cost([0, 1, 1], [0, 1, 0], cost_matrix=[[0, 1, 1], [2, 0, 1], [1, 1, 0]],
                         labels=[0, 1, 2]) == pytest.approx(2 / 3)


@pytest.mark.parametrize("y_prob, message", [
    ([0.2, 0.8], "2-D array"),
    ([[0.2], [0.8]], "2-D array"),
    ([[0.2, np.nan]], "y_prob"),
    ([[-0.2, 1.2]], "y_prob"),
    ([[0.0, 0.0], [0.5, 0.5]], "y_prob's row 0 sums to 0.*no probability mass"),
    (np.zeros((0, 2)), "y_prob"),
])
def test_bad_probabilities_are_refused_naming_y_prob(y_prob, message):
    with pytest.raises(ValueError, match=message):
        cost_optimal_predictions(y_prob, [[0, 1], [1, 0]])


@pytest.mark.parametrize("y_pred, message", [
    ([[0.2, np.nan], [0.5, 0.5]], "y_pred"),
    ([[-0.2, 1.2], [0.5, 0.5]], "y_pred"),
    ([[0.0, 0.0], [0.5, 0.5]], "y_pred row 0 has no probability mass"),
    ([[0.2, 0.8, 0.0], [0.5, 0.5, 0.0]], "y_pred has 3 columns"),
    ([[0.2, 0.8], [0.1, 0.9], [0.5, 0.5]], "same number of samples"),
])
def test_bad_probabilities_beside_labels_are_refused_naming_y_pred(y_pred, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=message):
            expected_cost([0, 1], y_pred, cost_matrix=[[0, 1], [1, 0]])


def test_two_dimensional_truth_is_refused_naming_y_true():
    with pytest.raises(ValueError, match="y_true must be 1-D class labels"):
        expected_cost([[1, 0], [0, 1]], [0, 1], cost_matrix=[[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="y_true must be 1-D"):
        expected_cost([[1, 0], [0, 1]], [[0.5, 0.5], [0.2, 0.8]])


# --- The scorer -------------------------------------------------------------------------------

IRIS_COST = np.array([[0, 1, 1], [5, 0, 1], [10, 2, 0]])


def test_scorer_gives_the_negative_cost():
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=1000).fit(X[::2], y[::2])
    X_test, y_test = X[1::2], y[1::2]
    scorer = make_cost_scorer(IRIS_COST)
    assert scorer(model, X_test, y_test) == pytest.approx(
        -loop_cost(y_test, model.predict(X_test), IRIS_COST, [0, 1, 2]))
    proba = make_cost_scorer(IRIS_COST, response_method="predict_proba")
    decisions = loop_decisions(model.predict_proba(X_test), IRIS_COST)
    assert proba(model, X_test, y_test) == pytest.approx(
        -loop_cost(y_test, decisions, IRIS_COST, [0, 1, 2]))
    weights = np.linspace(0.5, 2, len(y_test))
    assert proba(model, X_test, y_test, sample_weight=weights) == pytest.approx(
        -loop_cost(y_test, decisions, IRIS_COST, [0, 1, 2], weights))


def test_scorer_labels_reorder_the_cost_matrix():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])
    model = LogisticRegression(max_iter=1000).fit(X, names[y])
    order = [2, 0, 1]
    permuted = IRIS_COST[np.ix_(order, order)]
    for method in ("predict", "predict_proba"):
        plain = make_cost_scorer(IRIS_COST, response_method=method)(model, X, names[y])
        reordered = make_cost_scorer(permuted, response_method=method,
                                     labels=names[order])(model, X, names[y])
        assert reordered == pytest.approx(plain)
    with pytest.raises(ValueError, match="labels .* must name every class"):
        make_cost_scorer(IRIS_COST, response_method="predict_proba",
                         labels=["a", "b", "c"])(model, X, names[y])
    with pytest.raises(ValueError, match="cost_matrix has shape"):
        make_cost_scorer(IRIS_COST, labels=["a", "b"])


def test_scorer_pickles():
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=1000).fit(X, y)
    for method in ("predict", "predict_proba"):
        scorer = make_cost_scorer(IRIS_COST, response_method=method, labels=[0, 1, 2])
        copy = pickle.loads(pickle.dumps(scorer))
        assert copy(model, X, y) == scorer(model, X, y)
    assert "predict_proba" in repr(make_cost_scorer(IRIS_COST,
                                                    response_method="predict_proba"))


@pytest.mark.parametrize("method", ["predict", "predict_proba"])
def test_scorer_in_grid_search(method):
    X, y = load_iris(return_X_y=True)
    scorer = make_cost_scorer(IRIS_COST, response_method=method)
    search = GridSearchCV(LogisticRegression(max_iter=1000), {"C": [0.01, 1.0]},
                          scoring=scorer, cv=3, error_score="raise").fit(X, y)
    scores = search.cv_results_["mean_test_score"]
    assert (scores <= 0).all() and search.best_score_ == scores.max()
    # the best mean is the negative mean over the folds of the cost, by the loop
    best = search.best_params_["C"]
    from sklearn.model_selection import StratifiedKFold
    costs = []
    for train, test in StratifiedKFold(3).split(X, y):
        model = LogisticRegression(C=best, max_iter=1000).fit(X[train], y[train])
        decisions = model.predict(X[test]) if method == "predict" else \
            loop_decisions(model.predict_proba(X[test]), IRIS_COST)
        costs.append(loop_cost(y[test], decisions, IRIS_COST, [0, 1, 2]))
    assert search.best_score_ == pytest.approx(-np.mean(costs))


@NEEDS_TUNING
def test_scorer_tunes_the_threshold_of_a_binary_classifier():
    X, y = load_breast_cancer(return_X_y=True)  # 0: malignant, 1: benign
    cost = np.array([[0, 10], [1, 0]])  # a missed malignant tumour costs 10
    model = make_pipeline(StandardScaler(), LogisticRegression())
    tuned = TunedThresholdClassifierCV(model, scoring=make_cost_scorer(cost), cv=3,
                                       store_cv_results=True).fit(X, y)
    # benign only when the probability of benign is high
    assert tuned.best_threshold_ > 0.5
    scores = tuned.cv_results_["scores"]
    assert tuned.best_score_ == scores.max() and tuned.best_score_ < 0
    decisions = (tuned.estimator_.predict_proba(X)[:, 1] >= tuned.best_threshold_)
    np.testing.assert_array_equal(tuned.predict(X), decisions.astype(int))


@NEEDS_TUNING
def test_tuned_thresholds_score_the_loop_cost_at_each_threshold():
    from sklearn.frozen import FrozenEstimator

    X, y = load_breast_cancer(return_X_y=True)
    X_fit, X_val, y_fit, y_val = X[::2], X[1::2], y[::2], y[1::2]
    cost = np.array([[0, 10], [1, 0]])
    fitted = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_fit, y_fit)
    thresholds = np.linspace(0.05, 0.95, 19)
    tuned = TunedThresholdClassifierCV(
        FrozenEstimator(fitted), scoring=make_cost_scorer(cost), cv=[(np.arange(0),
                                                                       np.arange(len(y_val)))],
        thresholds=thresholds, refit=False, store_cv_results=True).fit(X_val, y_val)
    positive = fitted.predict_proba(X_val)[:, 1]
    expected = [-loop_cost(y_val, (positive >= t).astype(int), cost, [0, 1])
                for t in tuned.cv_results_["thresholds"]]
    np.testing.assert_allclose(tuned.cv_results_["scores"], expected, rtol=1e-12)
    assert tuned.best_score_ == pytest.approx(max(expected))


# --- Intervals and comparisons through the resampler -------------------------------------


def _labels_and_two_models(seed=6, n_samples=300):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 3, n_samples)
    noisy = np.where(rng.random(n_samples) < 0.3, rng.integers(0, 3, n_samples), y_true)
    noisier = np.where(rng.random(n_samples) < 0.5, rng.integers(0, 3, n_samples), y_true)
    return y_true, noisy, noisier


def test_interval_of_the_cost_is_read_off_resampled_matrices():
    y_true, y_pred, _ = _labels_and_two_models()
    bound = functools.partial(expected_cost, cost_matrix=IRIS_COST)
    resolved_score = resolved._resolve_score(bound, None, {}, "score_confidence_interval")
    assert resolved_score.on_cells is not None and resolved_score.on_cells.batched is not None
    data = resolved._data(resolved_score, y_true, y_pred, None)
    assert data.cells is not None  # the matrices' path
    for scoring, keywords in ((bound, {}), (expected_cost, {"cost_matrix": IRIS_COST})):
        result = score_confidence_interval(y_true, y_pred, scoring=scoring,
                                           method="percentile", n_resamples=2000,
                                           random_state=0, **keywords)
        assert result.estimate == pytest.approx(
            loop_cost(y_true, y_pred, IRIS_COST, [0, 1, 2]))
        assert result.low < result.estimate < result.high
    # the same resamples on the metric's path (a lambda: not registered) give the same
    # interval up to the draws: a wide check, and the bootstrap's distribution mean
    unregistered = score_confidence_interval(
        y_true, y_pred, scoring=lambda t, p, sample_weight=None: expected_cost(
            t, p, cost_matrix=IRIS_COST, sample_weight=sample_weight),
        method="percentile", n_resamples=500, random_state=0)
    assert unregistered.estimate == pytest.approx(result.estimate)
    assert abs(unregistered.low - result.low) < 0.1 and abs(unregistered.high - result.high) < 0.1


def test_batched_cost_equals_the_cost_of_each_matrix():
    from sklearn_confusion_ext._decisions.cost import _cost_of_matrix, _cost_reader

    rng = np.random.default_rng(7)
    matrices = rng.integers(0, 20, (50, 3, 3)).astype(float)
    for cost in (IRIS_COST.astype(float), None):
        for normalize in (True, False):
            _, batched = _cost_reader({"cost_matrix": cost, "normalize": normalize})
            np.testing.assert_allclose(batched(matrices),
                                       [_cost_of_matrix(m, cost, normalize)
                                        for m in matrices], rtol=1e-12)


def test_interval_of_the_cost_of_probabilities():
    rng = np.random.default_rng(8)
    y_true, y_prob, cost = random_problem(rng, n_samples=150, n_classes=3)
    result = score_confidence_interval(y_true, y_prob, scoring=expected_cost,
                                       cost_matrix=cost, method="percentile",
                                       n_resamples=200, random_state=0)
    assert result.estimate == pytest.approx(expected_cost(y_true, y_prob, cost_matrix=cost))
    assert result.low <= result.estimate <= result.high


def test_interval_with_labels_and_weights():
    y_true, y_pred, _ = _labels_and_two_models()
    weights = np.random.default_rng(9).uniform(0.5, 2, len(y_true))
    small = IRIS_COST[np.ix_([2, 0], [2, 0])]
    result = score_confidence_interval(y_true, y_pred, scoring=expected_cost,
                                       cost_matrix=small, labels=[2, 0],
                                       sample_weight=weights, method="percentile",
                                       n_resamples=300, random_state=0)
    assert result.estimate == pytest.approx(loop_cost(y_true, y_pred, small, [2, 0], weights))
    assert result.low <= result.estimate <= result.high


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian"])
def test_compare_the_cost_of_two_models(method):
    y_true, better, worse = _labels_and_two_models()
    result = compare_scores(y_true, worse, better, scoring=expected_cost,
                            cost_matrix=IRIS_COST, method=method, n_resamples=999,
                            random_state=0)
    difference = loop_cost(y_true, worse, IRIS_COST, [0, 1, 2]) - \
        loop_cost(y_true, better, IRIS_COST, [0, 1, 2])
    assert result.estimate == pytest.approx(difference)
    assert difference > 0 and result.pvalue < 0.05


def test_compare_the_cost_of_two_probabilistic_models():
    rng = np.random.default_rng(10)
    y_true, y_prob, cost = random_problem(rng, n_samples=200, n_classes=3)
    sharper = 0.5 * y_prob + 0.5 * np.eye(3)[y_true]
    result = compare_scores(y_true, y_prob, sharper, scoring=expected_cost,
                            cost_matrix=cost, n_resamples=300, random_state=0)
    assert result.estimate == pytest.approx(
        expected_cost(y_true, y_prob, cost_matrix=cost)
        - expected_cost(y_true, sharper, cost_matrix=cost))


def test_public_names():
    for name in ("expected_cost", "cost_optimal_predictions", "make_cost_scorer"):
        assert name in sce.__all__
