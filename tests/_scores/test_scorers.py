"""Scorers by name, for cross_validate and GridSearchCV."""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_validate, train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import (
    absolute_error,
    confusion_entropy,
    generalized_means_score,
    get_scorer,
    get_scorer_names,
    kl_divergence,
    make_mlcm_scorer,
    make_transport_scorer,
    mlcm_precision_recall_fscore_support,
    prevalence,
    transport_accuracy_score,
    transport_precision_recall_fscore_support,
)


def sce_score_names():
    """This library's own scorer names: get_scorer_names less scikit-learn's."""
    from sklearn.metrics import get_scorer_names as sklearn_names

    return sorted(set(get_scorer_names()) - set(sklearn_names()))


NAMES = sce_score_names()


def test_names_listed_by_the_issue():
    expected = {"tcm_accuracy", "generalized_means", "symmetric_balanced_accuracy",
                "neg_correlation_distance", "neg_confusion_entropy", "neg_absolute_error",
                "neg_normalized_absolute_error", "neg_relative_absolute_error",
                "neg_kl_divergence", "neg_normalized_kl_divergence"}
    expected |= {f"{m}_{s}_{a}" for m in ("tcm", "mlcm") for s in ("precision", "recall", "f1")
                 for a in ("micro", "macro", "weighted")}
    assert expected <= set(NAMES)
    with pytest.raises(ValueError, match="is not a score name.*scikit-learn's"):
        get_scorer("tcm_acuracy")


def test_scikit_learn_names_give_scikit_learns_scorers():
    """get_scorer is a drop-in replacement of scikit-learn's: its names give scikit-learn's
    scorers (same values, same repr), a callable or None is returned as is, and
    get_scorer_names lists both tables. Before, get_scorer("accuracy") was a ValueError."""
    from sklearn import metrics

    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X, y)
    sklearn_names = metrics.get_scorer_names()
    assert set(sklearn_names) <= set(get_scorer_names())
    assert get_scorer_names() == sorted(set(get_scorer_names()))
    for name in ("accuracy", "balanced_accuracy", "f1_macro", "neg_log_loss", "roc_auc_ovr"):
        ours, theirs = get_scorer(name), metrics.get_scorer(name)
        assert repr(ours) == repr(theirs)
        assert ours(model, X, y) == theirs(model, X, y)
        assert ours is not get_scorer(name)  # a new object on each call
    scorer = get_scorer("tcm_accuracy")
    assert get_scorer(scorer) is scorer and get_scorer(None) is None
    scoring = {name: get_scorer(name) for name in ("accuracy", "tcm_accuracy")}
    result = cross_validate(model, X, y, cv=3, scoring=scoring)
    assert result["test_accuracy"] == pytest.approx(result["test_tcm_accuracy"])


def test_no_name_means_two_things():
    """This library's score names and scikit-learn's are disjoint (the installed
    scikit-learn): were one in both, get_scorer would give scikit-learn's scorer. (The
    private table: get_scorer_names lists the union, where a shared name would hide.)"""
    from sklearn import metrics

    from sklearn_confusion_ext._scores.names import SCORE_NAMES

    assert not set(metrics.get_scorer_names()) & set(SCORE_NAMES)


def test_one_table_of_score_names_for_every_function_that_takes_one():
    """Every name of get_scorer is a scorer, scores targets in score_confidence_interval and
    compare_scores (the quantification errors aside, refused for what they are), and the
    names without an average are per class everywhere: in the intervals and the Display,
    refused by get_scorer and compare_scores with the averaged names. Before, the intervals
    read a pattern of their own and accepted mlcm_accuracy, tcm_f1 and mlcm_f1 while
    get_scorer refused them."""
    import warnings

    from declarations import DECLARATIONS

    import sklearn_confusion_ext as sce

    y_true, a, b = [0, 1, 2] * 6, [0, 1, 2] * 5 + [1, 1, 1], [0, 1, 1] * 6
    quantification = {name for name in NAMES if name.startswith("neg_")
                      and name not in ("neg_correlation_distance", "neg_confusion_entropy")}
    per_class = [f"{m}_{s}" for m in ("tcm", "mlcm") for s in ("precision", "recall", "f1")]
    assert "mlcm_accuracy" in NAMES and not set(per_class) & set(NAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in NAMES:
            assert callable(get_scorer(name))
            keywords = dict(scoring=name, n_resamples=19, random_state=0)
            if name in quantification:
                for function in (sce.score_confidence_interval, sce.compare_scores):
                    with pytest.raises(ValueError, match="prevalences"):
                        function(y_true, a, *([b] if function is sce.compare_scores else []),
                                 **keywords)
                continue
            assert np.ndim(sce.score_confidence_interval(y_true, a, **keywords).estimate) == 0
            assert np.isfinite(sce.compare_scores(y_true, a, b, **keywords).estimate)
        for name in per_class:
            with pytest.raises(ValueError, match="one value per class"):
                get_scorer(name)
            with pytest.raises(ValueError, match="one value"):
                sce.compare_scores(y_true, a, b, scoring=name, n_resamples=19)
            result = sce.score_confidence_interval(y_true, a, scoring=name, n_resamples=19,
                                                   random_state=0)
            assert np.shape(result.estimate) == (3,)
    display_options = DECLARATIONS["ScoreIntervalDisplay.from_predictions"]["scoring"][0]
    assert set(display_options.options) == set(per_class)


@pytest.fixture(scope="module")
def iris_split():
    X, y = load_iris(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.4, random_state=0)
    model = LogisticRegression(max_iter=500).fit(X_train, y_train)
    return model, X_test, y_test


@pytest.mark.parametrize("name", NAMES)
def test_every_scorer_pickles_and_scores_held_out_data(name, iris_split):
    model, X_test, y_test = iris_split
    scorer = pickle.loads(pickle.dumps(get_scorer(name)))
    value = scorer(model, X_test, y_test)
    assert np.isfinite(value)


def test_scorer_values_equal_the_functions(iris_split):
    model, X, y = iris_split
    y_pred = model.predict(X)
    assert get_scorer("tcm_accuracy")(model, X, y) == transport_accuracy_score(y, y_pred)
    assert get_scorer("tcm_f1_weighted")(model, X, y) == pytest.approx(
        transport_precision_recall_fscore_support(y, y_pred, average="weighted")[2])
    assert get_scorer("mlcm_recall_macro")(model, X, y) == pytest.approx(
        mlcm_precision_recall_fscore_support(y, y_pred, average="macro")[1])
    assert get_scorer("generalized_means")(model, X, y) == pytest.approx(
        generalized_means_score(y, y_pred, average="macro"))
    assert get_scorer("neg_confusion_entropy")(model, X, y) == pytest.approx(
        -confusion_entropy(y, y_pred))
    assert get_scorer("neg_absolute_error")(model, X, y) == pytest.approx(
        -absolute_error(prevalence(y), prevalence(y_pred, labels=[0, 1, 2])))
    assert get_scorer("neg_kl_divergence")(model, X, y) == pytest.approx(
        -kl_divergence(prevalence(y), prevalence(y_pred, labels=[0, 1, 2]), eps=1 / (2 * len(y))))
    soft = make_transport_scorer("precision", average="micro", response_method="predict_proba")
    one_hot = np.eye(3)[y]
    assert soft(model, X, y) == pytest.approx(transport_precision_recall_fscore_support(
        one_hot, model.predict_proba(X), average="micro")[0])


def test_grid_search_with_two_jobs_on_multilabel_data():
    X, Y = make_multilabel_classification(n_samples=200, n_classes=4, random_state=0)
    scoring = {name: get_scorer(name) for name in
               ("tcm_f1_macro", "mlcm_f1_micro", "tcm_accuracy", "symmetric_balanced_accuracy")}
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 7]}, scoring=scoring,
                          refit="tcm_f1_macro", cv=3, n_jobs=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # folds with an unpredicted class warn
        search.fit(X, Y)
    for name in scoring:
        values = search.cv_results_[f"mean_test_{name}"]
        assert np.isfinite(values).all() and (values >= 0).all()
    results = cross_validate(DecisionTreeClassifier(random_state=0), X, Y, cv=3,
                             scoring={"soft": make_transport_scorer(
                                 "f1", response_method="predict_proba")})
    assert np.isfinite(results["test_soft"]).all()


def test_absent_class_on_a_fold_warns_and_scores():
    from sklearn.dummy import DummyClassifier
    from sklearn.exceptions import UndefinedMetricWarning

    X, y = load_iris(return_X_y=True)
    model = DummyClassifier(strategy="constant", constant=2).fit(X, y)
    fold = np.flatnonzero(y != 2)[:20]  # class 2 is predicted but absent from the fold
    for name in ("tcm_recall_macro", "mlcm_precision_weighted", "tcm_f1_micro"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = get_scorer(name)(model, X[fold], y[fold])
        assert value == 0.0
        if name == "tcm_recall_macro":
            assert any(issubclass(w.category, UndefinedMetricWarning) for w in caught)


def test_a_scorer_warns_of_its_own_score_once_per_call_as_scikit_learns():
    """A grid search over a few classes never predicted printed three warnings per fold
    and candidate (precision, recall, F): a scorer warns of the score it reads only, as
    scikit-learn's f1 scorer warns of the F-score (none here: F is 0 where the class
    has true mass), and its precision scorer of the precision."""
    from sklearn.dummy import DummyClassifier
    from sklearn.exceptions import UndefinedMetricWarning
    from sklearn.metrics import get_scorer as sklearn_get_scorer

    X, y = load_iris(return_X_y=True)
    model = DummyClassifier(strategy="constant", constant=2).fit(X, y)  # 0 and 1 never
    for metric in ("f1", "precision", "recall"):
        counts = []
        for scorer in (make_transport_scorer(metric, average="macro"),
                       make_mlcm_scorer(metric, average="macro"),
                       sklearn_get_scorer(f"{metric}_macro")):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scorer(model, X, y)
            undefined = [str(w.message) for w in caught
                         if issubclass(w.category, UndefinedMetricWarning)]
            counts.append(len(undefined))
            if metric == "precision":
                assert all(m.startswith("Precision") for m in undefined), undefined
        assert counts[0] == counts[1] == counts[2] == (metric == "precision"), (metric,
                                                                               counts)
    # The functions themselves still warn of each undefined score they return.
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined"):
        transport_precision_recall_fscore_support(y, model.predict(X), average="macro")


@pytest.mark.parametrize("call, match", [
    (lambda: make_transport_scorer("auc"), "'metric' parameter"),
    (lambda: make_transport_scorer(average="samples"), "'average' parameter"),
    (lambda: make_transport_scorer(response_method="predict_log_proba"),
     "'response_method' parameter"),
    (lambda: make_transport_scorer(response_method=("predict_proba", "bogus")),
     "'response_method' parameter"),
    (lambda: make_mlcm_scorer("f2"), "'metric' parameter"),
])
def test_bad_parameters(call, match):
    with pytest.raises(ValueError, match=match):
        call()
