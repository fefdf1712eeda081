"""Metadata routing of every scorer (weighted cross-validation) and the response methods of
the scorer factories, as scikit-learn's own scorers have them."""

import copy
import pickle
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, make_scorer, precision_score, recall_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import SVC

from sklearn_confusion_ext import (
    absolute_error,
    get_scorer,
    get_scorer_names,
    make_cost_scorer,
    make_quantification_scorer,
    make_transport_scorer,
    transport_precision_recall_fscore_support,
)

SKLEARN = tuple(int(part) for part in sklearn.__version__.split(".")[:2])
# cross_validate(params=) and the routing of GridSearchCV.fit came with scikit-learn 1.4;
# 1.3 has set_score_request but no model-selection tool that routes to a scorer.
needs_routing_tools = pytest.mark.skipif(
    SKLEARN < (1, 4), reason="cross_validate(params=) and GridSearchCV's metadata routing "
    "exist from scikit-learn 1.4")

CV = StratifiedKFold(3, shuffle=True, random_state=0)
# Where the measures coincide: the transport matrix of single labels is the classic one.
PAIRS = {
    "tcm_f1_macro": make_scorer(f1_score, average="macro"),
    "tcm_accuracy": make_scorer(accuracy_score),
    "tcm_precision_weighted": make_scorer(precision_score, average="weighted",
                                          zero_division=0),
    "tcm_recall_micro": make_scorer(recall_score, average="micro"),
    "mlcm_f1_macro": make_scorer(f1_score, average="macro"),
}


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(300, n_features=8, n_informative=4, n_classes=3,
                               random_state=0)
    weights = np.random.default_rng(0).uniform(0.05, 4.0, len(y))
    return X, y, weights


def _own_scorers():
    """Every scorer the library makes: the names, and the factories' other kinds."""
    names = sorted(set(get_scorer_names()) - set(sklearn.metrics.get_scorer_names()))
    scorers = {name: get_scorer(name) for name in names}
    scorers.update({
        "transport_proba": make_transport_scorer("f1", response_method="predict_proba"),
        "transport_decision": make_transport_scorer(
            "accuracy", response_method=("decision_function", "predict_proba")),
        "cost_predict": make_cost_scorer([[0, 1, 4], [2, 0, 1], [1, 3, 0]]),
        "cost_proba": make_cost_scorer([[0, 1, 4], [2, 0, 1], [1, 3, 0]],
                                       response_method="predict_proba"),
        "quantification_proba": make_quantification_scorer(
            absolute_error, method="probabilistic_classify_and_count"),
    })
    return scorers


def _model(routing=True):
    """A quick model whose fit takes weights (the routing, not the model, is tested)."""
    model = GaussianNB()
    return model.set_fit_request(sample_weight=True) if routing else model


@needs_routing_tools
def test_weighted_cross_validate_equals_scikit_learns_weighted_scorer(data):
    """With routing on, cross_validate(params={"sample_weight": w}) gives each fold's
    weighted score, equal to scikit-learn's own weighted scorer; before, the scorers had
    no set_score_request and scored unweighted."""
    X, y, weights = data
    with sklearn.config_context(enable_metadata_routing=True):
        scoring = {}
        for name, theirs in PAIRS.items():
            scoring[name] = get_scorer(name).set_score_request(sample_weight=True)
            scoring[f"sklearn_{name}"] = copy.deepcopy(theirs).set_score_request(
                sample_weight=True)
        scoring["factory"] = make_transport_scorer("f1").set_score_request(
            sample_weight=True)
        weighted = cross_validate(_model(), X, y, cv=CV, scoring=scoring,
                                  params={"sample_weight": weights})
        unweighted = cross_validate(_model(), X, y, cv=CV, scoring=scoring)
    for name in PAIRS:
        np.testing.assert_allclose(weighted[f"test_{name}"],
                                   weighted[f"test_sklearn_{name}"], rtol=1e-12)
        np.testing.assert_allclose(unweighted[f"test_{name}"],
                                   unweighted[f"test_sklearn_{name}"], rtol=1e-12)
    np.testing.assert_allclose(weighted["test_factory"], weighted["test_sklearn_tcm_f1_macro"],
                               rtol=1e-12)
    # The weights matter here: a scorer that dropped them would be caught.
    assert np.abs(weighted["test_tcm_f1_macro"] - unweighted["test_tcm_f1_macro"]).max() > 1e-3


@needs_routing_tools
def test_weighted_grid_search_equals_scikit_learns_weighted_scorer(data):
    X, y, weights = data
    with sklearn.config_context(enable_metadata_routing=True):
        scoring = {"ours": get_scorer("tcm_f1_macro").set_score_request(sample_weight=True),
                   "theirs": make_scorer(f1_score, average="macro").set_score_request(
                       sample_weight=True)}
        grid = {"var_smoothing": [1e-9, 0.5]}
        search = GridSearchCV(_model(), grid, cv=CV, scoring=scoring,
                              refit="ours").fit(X, y, sample_weight=weights)
        alone = GridSearchCV(_model(), grid, cv=CV, scoring=scoring["ours"]
                             ).fit(X, y, sample_weight=weights)
    results = search.cv_results_
    for split in range(3):
        np.testing.assert_allclose(results[f"split{split}_test_ours"],
                                   results[f"split{split}_test_theirs"], rtol=1e-12)
        np.testing.assert_allclose(alone.cv_results_[f"split{split}_test_score"],
                                   results[f"split{split}_test_theirs"], rtol=1e-12)


@needs_routing_tools
@pytest.mark.parametrize("name", sorted(_own_scorers()))
def test_every_scorer_reads_the_routed_weights(name, data):
    """Each scorer gets each fold's weights (requested by True or by an alias) and scores
    as when called on the fold with them; refused (False), it scores unweighted; never
    asked (None), passing weights raises as with scikit-learn's scorers."""
    X, y, weights = data
    scorer = _own_scorers()[name]
    with sklearn.config_context(enable_metadata_routing=True), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # folds where a class is never predicted
        with pytest.raises(Exception) as ours:
            cross_validate(_model(), X, y, cv=CV, scoring=scorer,
                           params={"sample_weight": weights})
        with pytest.raises(Exception) as theirs:
            cross_validate(_model(), X, y, cv=CV, scoring=make_scorer(accuracy_score),
                           params={"sample_weight": weights})
        assert type(ours.value) is type(theirs.value)
        assert "sample_weight" in str(ours.value)
        requested = copy.deepcopy(scorer).set_score_request(sample_weight="w")
        result = cross_validate(_model(), X, y, cv=CV, scoring=requested,
                                params={"sample_weight": weights, "w": weights},
                                return_estimator=True, return_indices=True)
        refused = cross_validate(_model(), X, y, cv=CV,
                                 scoring=copy.deepcopy(scorer).set_score_request(
                                     sample_weight=False),
                                 params={"sample_weight": weights})
        for k, (model, test) in enumerate(zip(result["estimator"],
                                              result["indices"]["test"])):
            expected = scorer(model, X[test], y[test], sample_weight=weights[test])
            assert result["test_score"][k] == pytest.approx(expected, rel=1e-12, abs=1e-12)
            assert refused["test_score"][k] == pytest.approx(scorer(model, X[test], y[test]),
                                                             rel=1e-12, abs=1e-12)


def test_requests_pickle_and_refuse_bad_aliases():
    with sklearn.config_context(enable_metadata_routing=True):
        for scorer in _own_scorers().values():
            scorer = scorer.set_score_request(sample_weight="w")
            routing = pickle.loads(pickle.dumps(scorer)).get_metadata_routing()
            assert routing.score.requests == {"sample_weight": "w"}
        scorer = make_transport_scorer()
        assert scorer.get_metadata_routing().score.requests == {"sample_weight": None}
        scorer.set_score_request(sample_weight=True).set_score_request()  # UNCHANGED
        assert scorer.get_metadata_routing().score.requests == {"sample_weight": True}
        with pytest.raises(ValueError, match="alias"):
            scorer.set_score_request(sample_weight="not an identifier")
        with pytest.raises(TypeError):
            scorer.set_score_request(labels=True)


def test_routing_off_as_scikit_learn(data):
    """Routing off: set_score_request raises (a request nothing would read), and the
    model-selection tools weigh the scores exactly where they weigh scikit-learn's."""
    X, y, weights = data
    try:
        make_scorer(accuracy_score).set_score_request(sample_weight=True)
        theirs_raise = False
    except RuntimeError:
        theirs_raise = True
    if theirs_raise:  # scikit-learn >= 1.4; 1.3 takes (and never reads) the request
        with pytest.raises(RuntimeError, match="enable_metadata_routing=True"):
            make_transport_scorer().set_score_request(sample_weight=True)
    scoring = {"ours": get_scorer("tcm_f1_macro"), "theirs": make_scorer(f1_score,
                                                                        average="macro")}
    fit = {"sample_weight": weights}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        search = GridSearchCV(_model(False), {"var_smoothing": [1e-9]}, cv=CV,
                              scoring=scoring, refit=False).fit(X, y, **fit)
        alone = GridSearchCV(_model(False), {"var_smoothing": [1e-9]}, cv=CV,
                             scoring=scoring["ours"], refit=False).fit(X, y, **fit)
    for split in range(3):
        key = f"split{split}_test_"
        assert search.cv_results_[key + "ours"] == pytest.approx(
            search.cv_results_[key + "theirs"], rel=1e-12)
        assert alone.cv_results_[key + "score"] == pytest.approx(
            search.cv_results_[key + "theirs"], rel=1e-12)


# --- response_method as make_scorer takes it ------------------------------------------------


@pytest.mark.parametrize("n_classes", [2, 3])
def test_decision_function_is_read_through_the_softmax(n_classes, data):
    """Logistic regression's decision_function read through the softmax (the logistic
    function of one binary score) is its predict_proba: the scorers agree."""
    X, y, _ = data
    y = y if n_classes == 3 else (y == 1).astype(int)
    model = LogisticRegression(max_iter=1000).fit(X, y)
    for metric in ("accuracy", "f1"):
        proba = make_transport_scorer(metric, response_method="predict_proba")(model, X, y)
        scores = make_transport_scorer(metric, response_method="decision_function")
        assert scores(model, X, y) == pytest.approx(proba, rel=1e-10)
    expected = transport_precision_recall_fscore_support(y, model.predict_proba(X),
                                                         average="macro")[2]
    assert proba == pytest.approx(expected, rel=1e-12)


def test_a_tuple_is_an_order_of_preference(data):
    X, y, _ = data
    svc = SVC(random_state=0).fit(X, y)  # no predict_proba without probability=True
    model = LogisticRegression(max_iter=1000).fit(X, y)
    fallback = make_transport_scorer("f1", response_method=("predict_proba",
                                                            "decision_function"))
    decision = make_transport_scorer("f1", response_method="decision_function")
    proba = make_transport_scorer("f1", response_method="predict_proba")
    assert fallback(svc, X, y) == decision(svc, X, y)
    assert fallback(model, X, y) == proba(model, X, y) != decision(svc, X, y)
    reversed_order = make_transport_scorer("f1", response_method=["decision_function",
                                                                   "predict_proba"])
    assert reversed_order(model, X, y) == pytest.approx(proba(model, X, y), rel=1e-10)
    assert pickle.loads(pickle.dumps(fallback))(svc, X, y) == decision(svc, X, y)
    with pytest.raises(AttributeError, match="SVC has none of the methods predict_proba"):
        proba(svc, X, y)


@pytest.mark.parametrize("value", ["predict_log_proba", (), ("predict", "predict"),
                                   ("predict", 1), {"predict"}])
def test_bad_response_methods(value):
    with pytest.raises((TypeError, ValueError), match="'response_method' parameter"):
        make_transport_scorer(response_method=value)


def test_decision_function_of_multilabel_targets_is_read_label_by_label():
    """A multi-label target's scores, one per label, are read through each label's logistic
    function (one-vs-rest logistic regression's predict_proba), not a softmax."""
    from sklearn.datasets import make_multilabel_classification
    from sklearn.multiclass import OneVsRestClassifier

    X, Y = make_multilabel_classification(n_samples=120, n_classes=3, random_state=0)
    model = OneVsRestClassifier(LogisticRegression(max_iter=1000)).fit(X, Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        proba = make_transport_scorer("f1", response_method="predict_proba")(model, X, Y)
        scores = make_transport_scorer("f1", response_method="decision_function")(model, X, Y)
    assert scores == pytest.approx(proba, rel=1e-10)
