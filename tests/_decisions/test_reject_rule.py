"""Chow's reject rule: ``cost_optimal_predictions(..., reject_cost=)``, the cost of its
decisions (``expected_cost`` on probabilities with ``reject_cost``) and the cost scorer.

References: a brute-force loop over every instance and every option (each class, and
abstaining at ``reject_cost``), the least expected cost first and a tie answering; the
cost of the decisions by a loop over instances; the labels path of ``expected_cost`` with
``reject_label``; with 0-1 costs, the top-label matrices of
``threshold_confusion_matrices`` at the threshold ``1 - reject_cost``.
"""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV

from sklearn_confusion_ext import (
    cost_optimal_predictions,
    expected_cost,
    make_cost_scorer,
    threshold_confusion_matrices,
    transport_confusion_matrix,
)
from sklearn_confusion_ext._decisions import cost as module

REJECT = -1

# --- References -------------------------------------------------------------------------------


def loop_chow(y_prob, cost, reject_cost):
    """Each instance's decision, one at a time: every option's expected cost under the row
    divided by its sum (each class ``j``, then abstaining at ``reject_cost``), the least
    first, the classes before abstaining on a tie. ``REJECT`` where it abstains."""
    decisions = []
    for row in np.asarray(y_prob, dtype=float):
        total = sum(row)
        options = [sum(row[i] * cost[i][j] for i in range(len(row))) / total
                   for j in range(len(row))]
        options.append(reject_cost)
        best = 0
        for j in range(1, len(options)):
            if options[j] < options[best]:
                best = j
        decisions.append(REJECT if best == len(row) else best)
    return np.array(decisions)


def loop_cost(y_true, decisions, cost, reject_cost, sample_weight=None, normalize=True):
    """The cost of each instance's decision (``reject_cost`` where it abstained)."""
    total = weight_sum = 0.0
    for i, (t, d) in enumerate(zip(y_true, decisions)):
        w = 1.0 if sample_weight is None else float(sample_weight[i])
        total += w * (reject_cost if d == REJECT else cost[t][d])
        weight_sum += w
    return total / weight_sum if normalize else total


def random_problem(rng, n_samples=300, n_classes=4, negative=False):
    y_true = rng.integers(0, n_classes, n_samples)
    y_true[:n_classes] = np.arange(n_classes)
    y_prob = rng.dirichlet(np.ones(n_classes) * 0.7, n_samples)
    cost = rng.uniform(0, 10, (n_classes, n_classes)) * (1 - np.eye(n_classes))
    if negative:  # benefits on the diagonal
        cost -= np.diag(rng.uniform(0, 5, n_classes))
    return y_true, y_prob, cost


# --- The decisions ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_chow_decisions_equal_a_loop_over_instances_and_options(seed):
    rng = np.random.default_rng(seed)
    y_true, y_prob, cost = random_problem(rng, n_classes=3 + seed, negative=seed % 2 == 1)
    least = (y_prob @ cost).min(axis=1)
    for reject_cost in np.quantile(least, [0.0, 0.1, 0.5, 0.9]).tolist() + [-100.0, 100.0]:
        expected = loop_chow(y_prob, cost, reject_cost)
        with warnings.catch_warnings():  # -100: below every cost, every instance rejected
            warnings.simplefilter("ignore", UserWarning)
            actual = cost_optimal_predictions(y_prob, cost, reject_cost=reject_cost)
        np.testing.assert_array_equal(actual, expected)
    # between the extremes, it abstains on some and answers the others
    middle = cost_optimal_predictions(y_prob, cost, reject_cost=float(np.median(least)))
    assert 0 < (middle == REJECT).sum() < len(middle)


def test_the_answers_are_the_bayes_decisions():
    rng = np.random.default_rng(10)
    _, y_prob, cost = random_problem(rng)
    bayes = cost_optimal_predictions(y_prob, cost)
    chow = cost_optimal_predictions(y_prob, cost, reject_cost=2.0)
    answered = chow != REJECT
    np.testing.assert_array_equal(chow[answered], bayes[answered])


def test_zero_one_costs_abstain_below_one_minus_the_reject_cost():
    rng = np.random.default_rng(11)
    y_true, y_prob, _ = random_problem(rng, n_samples=400, n_classes=5)
    for reject_cost in (0.1, 0.35, 0.6):
        decisions = cost_optimal_predictions(y_prob, 1 - np.eye(5), reject_cost=reject_cost)
        top = y_prob.max(axis=1)
        np.testing.assert_array_equal(decisions == REJECT, top < 1 - reject_cost)
        at = threshold_confusion_matrices(y_true, y_prob, thresholds=[1 - reject_cost],
                                          target="top_label")
        np.testing.assert_array_equal(
            transport_confusion_matrix(y_true, decisions, labels=range(5),
                                       reject_label=REJECT), at.matrices[0])


def test_a_tie_answers_and_the_extremes():
    zero_one = [[0, 1], [1, 0]]
    # answering costs 1 - 0.75 = 0.25 in expectation, exactly the cost of abstaining
    assert cost_optimal_predictions([[0.75, 0.25]], zero_one, reject_cost=0.25).tolist() == [0]
    assert cost_optimal_predictions([[0.75, 0.25]], zero_one,
                                    reject_cost=0.2499).tolist() == [REJECT]
    # 1 - 1 / C or more never abstains; below every cost, it always does
    rng = np.random.default_rng(12)
    _, y_prob, _ = random_problem(rng, n_classes=3)
    np.testing.assert_array_equal(
        cost_optimal_predictions(y_prob, 1 - np.eye(3), reject_cost=2 / 3),
        y_prob.argmax(axis=1))
    with pytest.warns(UserWarning, match="below every cost of answering .the least is 0"):
        always = cost_optimal_predictions(y_prob, 1 - np.eye(3), reject_cost=-1e-9)
    assert (always == REJECT).all()
    with pytest.warns(UserWarning, match="every instance is rejected"):
        assert expected_cost([0, 1], Y_PROB, cost_matrix=COST, reject_cost=-0.5) == -0.5
    with warnings.catch_warnings():  # at the least cost itself: no warning
        warnings.simplefilter("error")
        cost_optimal_predictions(y_prob, 1 - np.eye(3), reject_cost=0.0)


def test_a_constant_added_to_every_cost_changes_no_decision():
    rng = np.random.default_rng(13)
    _, y_prob, cost = random_problem(rng)
    expected = cost_optimal_predictions(y_prob, cost, reject_cost=1.5)
    np.testing.assert_array_equal(
        cost_optimal_predictions(y_prob, cost - 4.0, reject_cost=1.5 - 4.0), expected)


def test_rows_not_summing_to_one_are_read_divided_by_their_sum():
    rng = np.random.default_rng(14)
    _, y_prob, cost = random_problem(rng)
    expected = cost_optimal_predictions(y_prob, cost, reject_cost=1.0)
    scaled = y_prob * rng.uniform(0.5, 3, (len(y_prob), 1))
    with pytest.warns(UserWarning, match="do not sum to 1"):
        actual = cost_optimal_predictions(scaled, cost, reject_cost=1.0)
    np.testing.assert_array_equal(actual, expected)
    np.testing.assert_array_equal(actual, loop_chow(scaled, cost, 1.0))


def test_chow_decisions_in_many_chunks_sparse_and_float32(monkeypatch):
    rng = np.random.default_rng(15)
    _, y_prob, cost = random_problem(rng, n_samples=700, n_classes=3)
    expected = loop_chow(y_prob, cost, 1.2)
    monkeypatch.setattr(module, "chunk_rows", lambda row_bytes: 64)
    np.testing.assert_array_equal(cost_optimal_predictions(y_prob, cost, reject_cost=1.2),
                                  expected)
    kept = np.where(y_prob > 0.2, y_prob, 0.0)
    kept /= kept.sum(axis=1, keepdims=True)
    for reject_cost, matrix in ((1.2, cost), (0.3, 1 - np.eye(3))):
        np.testing.assert_array_equal(
            cost_optimal_predictions(sp.csr_array(kept), matrix, reject_cost=reject_cost),
            loop_chow(kept, matrix, reject_cost))
    np.testing.assert_array_equal(
        cost_optimal_predictions(y_prob.astype(np.float32), cost, reject_cost=1.2),
        cost_optimal_predictions(y_prob, cost, reject_cost=1.2))


def test_the_default_reject_label_follows_the_kind_of_the_decisions():
    y_prob, cost = [[0.7, 0.3], [0.9, 0.1]], [[0, 1], [5, 0]]
    assert cost_optimal_predictions(y_prob, cost, reject_cost=0.6).tolist() == [-1, 0]
    named = cost_optimal_predictions(y_prob, cost, labels=["healthy", "ill"],
                                     reject_cost=0.6)
    assert named.tolist() == ["reject", "healthy"]
    assert cost_optimal_predictions(y_prob, cost, labels=[3, 7],
                                    reject_cost=0.6).tolist() == [-1, 3]
    longer = cost_optimal_predictions(y_prob, cost, labels=["a", "b"], reject_cost=0.6,
                                      reject_label="no answer")
    assert longer.tolist() == ["no answer", "a"]
    booleans = cost_optimal_predictions(y_prob, cost, labels=[False, True], reject_cost=0.6,
                                        reject_label=-1)
    assert booleans.tolist() == [-1, False] and booleans[1] is False


# --- Their cost -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_cost_of_probabilities_is_the_cost_of_the_chow_decisions(seed):
    rng = np.random.default_rng(20 + seed)
    y_true, y_prob, cost = random_problem(rng, negative=seed == 2)
    weights = rng.uniform(0, 2, len(y_true))
    for matrix in (cost, None):
        reference = 1 - np.eye(4) if matrix is None else matrix
        for reject_cost in (0.3, 1.0, 3.0):
            decisions = loop_chow(y_prob, reference, reject_cost)
            for keywords in ({}, {"sample_weight": weights}):
                for normalize in (True, False):
                    expected = loop_cost(y_true, decisions, reference, reject_cost,
                                         keywords.get("sample_weight"), normalize)
                    actual = expected_cost(y_true, y_prob, cost_matrix=matrix,
                                           reject_cost=reject_cost, normalize=normalize,
                                           **keywords)
                    assert actual == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_probabilities_and_their_decisions_cost_the_same(seed):
    rng = np.random.default_rng(30 + seed)
    y_true, y_prob, cost = random_problem(rng)
    weights = rng.integers(1, 4, len(y_true))
    for reject_cost in (0.5, 2.0):
        decisions = cost_optimal_predictions(y_prob, cost, reject_cost=reject_cost)
        for keywords in ({}, {"sample_weight": weights}):
            on_labels = expected_cost(y_true, decisions, cost_matrix=cost,
                                      labels=[0, 1, 2, 3], reject_label=REJECT,
                                      reject_cost=reject_cost, **keywords)
            on_probabilities = expected_cost(y_true, y_prob, cost_matrix=cost,
                                             reject_cost=reject_cost, **keywords)
            assert on_probabilities == on_labels


def test_string_classes_name_the_decisions():
    rng = np.random.default_rng(40)
    names = np.array(["ant", "bee", "cat"])
    y_true, y_prob, cost = random_problem(rng, n_classes=3)
    decisions = cost_optimal_predictions(y_prob, cost, labels=names, reject_cost=1.0)
    expected = loop_chow(y_prob, cost, 1.0)
    np.testing.assert_array_equal(
        decisions, np.where(expected == REJECT, "reject", names[np.maximum(expected, 0)]))
    on_probabilities = expected_cost(names[y_true], y_prob, labels=names, cost_matrix=cost,
                                     reject_cost=1.0)
    assert on_probabilities == pytest.approx(loop_cost(y_true, expected, cost, 1.0),
                                             rel=1e-12)
    order = [2, 0, 1]  # on labels, labels= orders the cost matrix
    assert on_probabilities == pytest.approx(expected_cost(
        names[y_true], decisions, labels=names[order], cost_matrix=cost[np.ix_(order, order)],
        reject_label="reject", reject_cost=1.0), rel=1e-12)


def test_abstaining_pays_when_it_costs_less_than_the_errors_it_avoids():
    rng = np.random.default_rng(41)
    y_true = rng.integers(0, 3, 2000)
    # calibrated probabilities: the true class drawn from them
    y_prob = rng.dirichlet(np.ones(3), 2000)
    y_true = (rng.uniform(size=(2000, 1)) > np.cumsum(y_prob, axis=1)).sum(axis=1)
    answering = expected_cost(y_true, y_prob)
    assert expected_cost(y_true, y_prob, reject_cost=0.2) < answering
    assert expected_cost(y_true, y_prob, reject_cost=2 / 3) == answering


def test_interval_and_comparison_of_the_cost_with_abstentions():
    from sklearn_confusion_ext import compare_scores, score_confidence_interval

    rng = np.random.default_rng(42)
    y_prob = rng.dirichlet(np.ones(3), 300)
    y_true = (rng.uniform(size=(300, 1)) > np.cumsum(y_prob, axis=1)).sum(axis=1)
    interval = score_confidence_interval(y_true, y_prob, scoring=expected_cost,
                                         reject_cost=0.3, n_resamples=199, random_state=0)
    assert interval.estimate == expected_cost(y_true, y_prob, reject_cost=0.3)
    assert interval.low < interval.estimate < interval.high
    uniform = np.full_like(y_prob, 1 / 3)  # every instance rejected: 0.3 each
    assert expected_cost(y_true, uniform, reject_cost=0.3) == pytest.approx(0.3)
    comparison = compare_scores(y_true, y_prob, uniform, scoring=expected_cost,
                                reject_cost=0.3, n_resamples=199, random_state=0)
    assert comparison.estimate == pytest.approx(interval.estimate - 0.3)


# --- The scorer -------------------------------------------------------------------------------


def iris_model():
    X, y = load_iris(return_X_y=True)
    return LogisticRegression(max_iter=1000).fit(X, y), X, y


def test_scorer_of_probabilities_prices_the_abstentions():
    model, X, y = iris_model()
    cost = [[0, 1, 4], [1, 0, 1], [4, 1, 0]]
    scorer = make_cost_scorer(cost, response_method="predict_proba", reject_cost=0.1)
    expected = expected_cost(y, model.predict_proba(X), cost_matrix=cost, reject_cost=0.1)
    assert scorer(model, X, y) == pytest.approx(-expected)
    assert pickle.loads(pickle.dumps(scorer))(model, X, y) == scorer(model, X, y)
    assert "reject_cost=0.1" in repr(scorer)
    assert scorer(model, X, y) != make_cost_scorer(cost, response_method="predict_proba")(
        model, X, y)
    search = GridSearchCV(LogisticRegression(max_iter=1000), {"C": [0.1, 1.0]},
                          scoring=scorer, cv=3).fit(X, y)
    assert search.best_score_ <= 0


class Abstaining(ClassifierMixin, BaseEstimator):
    """A fitted classifier whose predict abstains (-1) where its top probability is low."""

    def __init__(self, model=None):
        self.model = model

    @property
    def classes_(self):
        return self.model.classes_

    def fit(self, X, y):
        return self

    def predict(self, X):
        proba = self.model.predict_proba(X)
        return np.where(proba.max(axis=1) >= 0.9, proba.argmax(axis=1), REJECT)


def test_scorer_of_predictions_prices_the_reject_label():
    model, X, y = iris_model()
    abstaining = Abstaining(model)
    scorer = make_cost_scorer(1 - np.eye(3), reject_cost=0.05, reject_label=REJECT,
                              labels=[0, 1, 2])
    expected = expected_cost(y, abstaining.predict(X), labels=[0, 1, 2], reject_label=REJECT,
                             reject_cost=0.05)
    assert scorer(abstaining, X, y) == pytest.approx(-expected)
    assert (abstaining.predict(X) == REJECT).any()


# --- Bad values -------------------------------------------------------------------------------

Y_PROB, COST = [[0.7, 0.3], [0.9, 0.1]], [[0, 1], [5, 0]]


@pytest.mark.parametrize("value, error", [(np.nan, ValueError), (np.inf, ValueError),
                                          (-np.inf, ValueError), ("0.5", TypeError),
                                          (True, TypeError), ([0.5], TypeError)])
def test_bad_reject_costs_are_refused_naming_reject_cost(value, error):
    calls = [lambda: cost_optimal_predictions(Y_PROB, COST, reject_cost=value),
             lambda: expected_cost([0, 1], Y_PROB, cost_matrix=COST, reject_cost=value),
             lambda: make_cost_scorer(COST, response_method="predict_proba",
                                      reject_cost=value)]
    for call in calls:
        with pytest.raises(error, match="'reject_cost'"):
            call()


@pytest.mark.parametrize("keywords, message", [
    ({"reject_label": -1}, "reject_label=-1 is given without reject_cost"),
    ({"reject_cost": 0.5, "reject_label": 0}, "reject_label=0 could be a column index"),
    ({"reject_cost": 0.5, "reject_label": "no"}, "not of the kind of the decisions, column"),
    ({"reject_cost": 0.5, "reject_label": np.nan}, "reject_label=nan is no label"),
    ({"reject_cost": 0.5, "labels": [-1, 1]}, r"reject_label=-1 \(the default\) is one of"),
    ({"reject_cost": 0.5, "labels": ["reject", "b"]}, "reject_label='reject' .the default"),
    ({"reject_cost": 0.5, "labels": ["a", "b"], "reject_label": "a"},
     "reject_label='a' is one of labels"),
    ({"reject_cost": 0.5, "labels": ["a", "b"], "reject_label": -1},
     "not of the kind of the decisions, strings"),
    ({"reject_cost": 0.5, "labels": [3, 7], "reject_label": 7.0}, "reject_label=7.0 is one"),
    ({"reject_cost": 0.5, "labels": [False, True]}, "are booleans"),
    ({"reject_cost": 0.5, "reject_label": [1]}, "'reject_label'"),
])
def test_bad_reject_labels_are_refused_naming_reject_label(keywords, message):
    with pytest.raises((ValueError, TypeError), match=message):
        cost_optimal_predictions(Y_PROB, COST, **keywords)


def test_reject_labels_are_refused_before_the_probabilities_are_read():
    # a bad reject label is named even where y_prob is bad too
    with pytest.raises(ValueError, match="reject_label=0 could be a column index"):
        cost_optimal_predictions([[np.nan, 1.0]], COST, reject_cost=0.5, reject_label=0)


def test_expected_cost_of_probabilities_refuses_a_reject_label():
    with pytest.raises(ValueError, match="abstain by Chow's rule with reject_cost= alone"):
        expected_cost([0, 1], Y_PROB, cost_matrix=COST, reject_cost=0.5, reject_label=-1)
    with warnings.catch_warnings():  # on probabilities, reject_cost alone is read
        warnings.simplefilter("error")
        assert expected_cost([0, 1], Y_PROB, cost_matrix=COST, reject_cost=0.6) == 2.8


def test_scorer_options_that_do_not_fit_are_refused():
    with pytest.raises(ValueError, match="reject_label=-1 names the abstentions of predict"):
        make_cost_scorer(COST, response_method="predict_proba", reject_cost=0.5,
                         reject_label=-1)
    with pytest.warns(UserWarning, match="reject_cost=0.5 is read with response_method="):
        scorer = make_cost_scorer(COST, reject_cost=0.5)
    assert "reject_cost" not in repr(scorer)
    with pytest.raises(ValueError, match="reject_label=-1 is given without reject_cost"):
        make_cost_scorer(COST, reject_label=-1)
