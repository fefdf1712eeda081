"""Drop-in replacement: every public name of this library that is also a name of
``sklearn.metrics`` takes every parameter scikit-learn's takes, of the same kind and default,
before its own, and gives the same values on random cases (each parameter value tried).

The names are found, not listed: a new function bearing a scikit-learn name is checked the
day it is exported. Parameters are read off the installed scikit-learn, so an older
scikit-learn (1.3, without ``replace_undefined_by``) checks the parameters it has.
"""

import inspect
import itertools
import math
import warnings

import numpy as np
import pytest
from declarations import DECLARATIONS
from sklearn import metrics
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.params import Boolean, Options

SHARED = sorted(name for name in sce.__all__
                if hasattr(metrics, name) and inspect.isfunction(getattr(metrics, name)))
# scikit-learn names kappa's targets ``y1, y2`` where every function here names them
# ``y_true, y_pred``: scikit-learn's names are taken too, as keywords (parameter_aliases).
POSITIONAL_NAMES = {"cohen_kappa_score": ("y_true", "y_pred")}


def test_the_shared_names_are_found():
    assert {"balanced_accuracy_score", "cohen_kappa_score", "matthews_corrcoef",
            "get_scorer", "get_scorer_names"} <= set(SHARED)


def _same_default(ours, theirs):
    if isinstance(theirs, float) and math.isnan(theirs):
        return isinstance(ours, float) and math.isnan(ours)
    return type(ours) is type(theirs) and ours == theirs


@pytest.mark.parametrize("name", SHARED)
def test_signature_takes_scikit_learns_parameters_first(name):
    ours = inspect.signature(getattr(sce, name)).parameters
    theirs = inspect.signature(getattr(metrics, name)).parameters
    positional = [p for p in theirs.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    our_positional = [p for p in ours.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert len(our_positional) == len(positional), name
    expected_names = POSITIONAL_NAMES.get(name, tuple(p.name for p in positional))
    assert tuple(p.name for p in our_positional) == expected_names
    aliases = getattr(getattr(sce, name), "parameter_aliases", {})
    for own, theirs_name in zip(expected_names, (p.name for p in positional)):
        assert own == theirs_name or aliases.get(theirs_name) == own, (
            f"{name} does not take scikit-learn's {theirs_name}=")
    keyword_only = [p for p in theirs.values() if p.kind is p.KEYWORD_ONLY]
    our_names = list(ours)
    for parameter in keyword_only:
        assert parameter.name in ours, f"{name} lacks scikit-learn's {parameter.name}="
        assert ours[parameter.name].kind is parameter.KEYWORD_ONLY
        assert _same_default(ours[parameter.name].default, parameter.default), (
            name, parameter.name, ours[parameter.name].default, parameter.default)
    # This library's own parameters come after scikit-learn's.
    last_shared = max((our_names.index(p.name) for p in theirs.values()
                       if p.name in ours), default=-1)
    own = [n for n in our_names if n not in theirs and n not in expected_names]
    assert all(our_names.index(n) > last_shared for n in own), (name, our_names)


def _random_case(rng):
    """Labels on which the paper's and scikit-learn's definitions agree: every class occurs
    in ``y_true`` and ``y_pred`` holds at least two classes (the documented differences are
    at the singular labelings only)."""
    n_classes = int(rng.integers(2, 6))
    n = int(rng.integers(n_classes + 2, 40))
    classes = np.array(["ant", "bee", "cat", "dog", "eel"][:n_classes]) if rng.random() < 0.5 \
        else np.arange(n_classes) * 3
    true = np.concatenate([np.arange(n_classes), rng.integers(0, n_classes, n - n_classes)])
    pred = np.where(rng.random(n) < 0.6, true, rng.integers(0, n_classes, n))
    pred[:2] = [0, 1]
    weight = rng.random(n) + 0.1
    return classes[true], classes[pred], weight, classes


def _values(function_name, parameter, classes, rng):
    """The values of one of scikit-learn's parameters to try: the declared options and
    booleans, and random ones for labels and sample_weight."""
    if parameter == "labels":
        return [None, list(rng.permutation(classes))]
    if parameter in ("sample_weight", "replace_undefined_by"):
        return [None]  # sample_weight: drawn per case; replace_undefined_by: below
    values = []
    for constraint in DECLARATIONS[function_name][parameter]:
        if constraint is None:
            values.append(None)
        elif isinstance(constraint, Options):
            values.extend(constraint.options)
        elif isinstance(constraint, Boolean):
            values.extend([False, True])
    return values


# top_k_accuracy_score reads labels beside scores, not two labelings: its values are
# compared with scikit-learn's in tests/_scores/test_top_k.py (ties, weights, labels, k).
METRICS = [name for name in SHARED
           if name not in ("get_scorer", "get_scorer_names", "top_k_accuracy_score")]


TARGET_NAMES = {name: [p.name for p in inspect.signature(getattr(metrics, name)).parameters.values()
                       if p.kind is p.POSITIONAL_OR_KEYWORD] for name in METRICS}


@pytest.mark.parametrize("name", METRICS)
def test_values_equal_scikit_learns(name):
    rng = np.random.default_rng(0)
    ours, theirs = getattr(sce, name), getattr(metrics, name)
    keywords = [p.name for p in inspect.signature(theirs).parameters.values()
                if p.kind is p.KEYWORD_ONLY]
    n_compared = 0
    for _ in range(25):
        y_true, y_pred, weight, classes = _random_case(rng)
        grid = {k: _values(name, k, classes, rng) for k in keywords}
        for values in itertools.product(*grid.values()):
            kwargs = {k: v for k, v in zip(grid, values) if v is not None}
            for sample_weight in (None, weight):
                if sample_weight is not None and "sample_weight" in keywords:
                    kwargs["sample_weight"] = sample_weight
                expected = theirs(y_true, y_pred, **kwargs)
                assert ours(y_true, y_pred, **kwargs) == pytest.approx(
                    expected, abs=1e-12), (name, kwargs)
                if n_compared % 10 == 0:  # scikit-learn's names of the targets, as keywords
                    targets = dict(zip(TARGET_NAMES[name], (y_true, y_pred)))
                    assert ours(**targets, **kwargs) == pytest.approx(expected, abs=1e-12)
                n_compared += 1
    assert n_compared >= 50


def test_undefined_kappa_takes_replace_undefined_by():
    """No instance counted (y_pred holds none of labels): kappa is replace_undefined_by, with
    scikit-learn's UndefinedMetricWarning."""
    parameters = inspect.signature(metrics.cohen_kappa_score).parameters
    if "replace_undefined_by" not in parameters:
        pytest.skip("scikit-learn without replace_undefined_by")
    y_true, y_pred = [0, 1, 0], [2, 2, 2]
    for value in (np.nan, 0.0, -1.0):
        with pytest.warns(UndefinedMetricWarning, match="replace_undefined_by"):
            result = sce.cohen_kappa_score(y_true, y_pred, labels=[0, 1],
                                           replace_undefined_by=value)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = metrics.cohen_kappa_score(y_true, y_pred, labels=[0, 1],
                                                 replace_undefined_by=value)
        assert result == pytest.approx(expected, nan_ok=True)


def test_documented_differences_at_the_singular_labelings():
    """Where scikit-learn's value is NaN or a convention, the paper's resolution holds."""
    assert sce.cohen_kappa_score([2, 2, 2], [2, 2, 2], weights="quadratic") == 1.0
    assert sce.balanced_accuracy_score([2, 2, 2], [2, 2, 2], adjusted=True) == 1.0
    assert sce.matthews_corrcoef([1, 1, 1], [0, 0, 0], sample_weight=[1, 2, 3]) == -1.0


def test_kappa_weights_need_ordered_classes():
    y = np.eye(3)[[0, 1, 2, 1]]
    with pytest.raises(ValueError, match="weights='linear'.*'none' class"):
        sce.cohen_kappa_score(y, y, weights="linear")


def test_get_scorer_values_equal_scikit_learns():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X, y)
    assert set(metrics.get_scorer_names()) <= set(sce.get_scorer_names())
    n_compared = 0
    for name in metrics.get_scorer_names():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:  # regression and clustering scorers do not apply to this classifier
                expected = metrics.get_scorer(name)(model, X, y)
            except (ValueError, TypeError, AttributeError):
                continue
            assert sce.get_scorer(name)(model, X, y) == expected, name
            n_compared += 1
    assert n_compared >= 20


def test_multioutput_predict_proba_list_is_the_positive_class_matrix():
    """MultiOutputClassifier.predict_proba's list of (n, 2) arrays reads as the (n, C)
    positive-class probabilities (before: 'must be 1-D or 2-D; got shape (C, n, 2)'); a
    list it cannot read, and the 3-D array of it, give the one-line fix."""
    from sklearn.datasets import make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.multioutput import MultiOutputClassifier

    X, Y = make_multilabel_classification(60, n_classes=3, random_state=0)
    proba = MultiOutputClassifier(LogisticRegression()).fit(X, Y).predict_proba(X)
    positive = np.column_stack([p[:, 1] for p in proba])
    for function in (sce.transport_confusion_matrix, sce.transport_accuracy_score):
        np.testing.assert_allclose(function(Y, proba), function(Y, positive))
    with pytest.raises(ValueError, match=r"np.column_stack\(\[p\[:, 1\] for p in proba\]\)"):
        sce.transport_confusion_matrix(Y, np.asarray(proba))
    with pytest.raises(ValueError, match=r"shapes \(60, 1\), \(60, 2\).*one class"):
        sce.transport_confusion_matrix(Y, [proba[0][:, :1], proba[1], proba[2]])


@pytest.mark.parametrize("function", ["transport_precision_recall_fscore_support",
                                      "mlcm_precision_recall_fscore_support"])
def test_average_samples_is_refused_with_the_reason(function):
    y_true, y_pred = [[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [1, 1, 0]]
    with pytest.raises(ValueError, match="got 'samples': .*average='samples'"):
        getattr(sce, function)(y_true, y_pred, average="samples")
    expected = metrics.precision_recall_fscore_support(y_true, y_pred, average="samples")
    assert expected[0] == pytest.approx(0.75)  # the fix the message names works
