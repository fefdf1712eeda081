"""Class labels against probabilities, and the shape of a matrix by input kind.

Every public function of targets (from the registry of ``test_common``) is called with 1-D
class labels for ``y_true`` beside a 2-D ``predict_proba``-like ``y_pred``, and must give
what the one-hot labels give. The table of the user guide (``targets.rst``: input kind x
``empty`` policy x output shape) is checked row by row.
"""

import inspect
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from test_common import REGISTRY, assert_same

import sklearn_confusion_ext as sce

N_CLASSES = 3
NAMES = np.array(["ant", "bee", "cat"])


def _labels_and_probabilities(rng, n_samples=60):
    y = rng.integers(0, N_CLASSES, n_samples)
    y[:N_CLASSES] = np.arange(N_CLASSES)
    return NAMES[y], rng.dirichlet(np.ones(N_CLASSES), n_samples), np.eye(N_CLASSES)[y]


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# Functions of (y_true, y_pred) targets, each with the variants of its registry entry.
# score_confidence_interval resamples (its intervals depend on the order of the instances
# and on the none class of one-hot labels): _statistics/test_intervals.py covers its
# probabilities.
TARGET_FUNCTIONS = [
    pytest.param(name, keywords, id=f"{name}-{i}")
    for name, entry in REGISTRY.items()
    if entry.target_params == ("y_true", "y_pred") and "soft" in entry.targets
    and name != "score_confidence_interval"
    for i, keywords in enumerate(({}, *entry.variants))
]
# Measures built on the TCM with the default empty="null_class": their reference is the
# matrix-level function of the TCM of the one-hot labels without a "none" class.
FROM_CONFUSION = {
    "generalized_means_score": "generalized_means_from_confusion",
    "symmetric_balanced_accuracy_score": "symmetric_balanced_accuracy_from_confusion",
    "correlation_distance": "correlation_distance_from_confusion",
    "confusion_entropy": "confusion_entropy_from_confusion",
    "balanced_accuracy_score": "balanced_accuracy_from_confusion",
    "cohen_kappa_score": "cohen_kappa_from_confusion",
    "matthews_corrcoef": "matthews_corrcoef_from_confusion",
}


def test_every_function_of_targets_is_covered():
    covered = {param.values[0] for param in TARGET_FUNCTIONS}
    assert covered >= {"transport_confusion_matrix", "subpixel_confusion_matrix",
                       "transport_classification_report", "generalized_means_score",
                       "transport_precision_recall_fscore_support"}


@pytest.mark.parametrize("order", [None, [2, 0, 1]], ids=["sorted", "labels-reordered"])
@pytest.mark.parametrize("name, keywords", TARGET_FUNCTIONS)
def test_labels_against_probabilities_equal_one_hot_labels(name, keywords, order):
    rng = np.random.default_rng(0)
    y, probabilities, one_hot = _labels_and_probabilities(rng)
    weights = rng.random(len(y))
    function = getattr(sce, name)
    keywords = {**REGISTRY[name].fixed, **keywords, "sample_weight": weights}
    names = NAMES
    if order is not None:  # columns in another order, named by labels=
        if not REGISTRY[name].labels:
            pytest.skip("takes no labels=")
        names, probabilities, one_hot = NAMES[order], probabilities[:, order], \
            one_hot[:, order]
        actual = _quiet(function, y, probabilities, labels=names, **keywords)
    else:
        actual = _quiet(function, y, probabilities, **keywords)
    if "empty" in inspect.signature(function).parameters:
        # One-hot rows are 0/1 indicators, which get a "none" class by default: without
        # it (nothing is empty here), the matrices are the same. Reports name the classes.
        named = {"target_names": list(names)} if \
            "target_names" in inspect.signature(function).parameters else {}
        expected = _quiet(function, one_hot, probabilities,
                          **{**keywords, **named, "empty": "skip"})
    else:
        matrix = _quiet(sce.transport_confusion_matrix, one_hot, probabilities, empty="skip",
                        sample_weight=weights,
                        weighting=keywords.get("weighting", "uniform"))
        extra = {k: v for k, v in keywords.items() if k in ("r", "average", "form")}
        expected = getattr(sce, FROM_CONFUSION[name])(matrix, **extra)
    assert_same(actual, expected)


@pytest.mark.parametrize("name", ["mlcm", "multilabel_confusion_tensor",
                                  "mlcm_precision_recall_fscore_support"])
def test_labels_against_indicators_in_the_multilabel_matrices(name):
    rng = np.random.default_rng(1)
    y, probabilities, one_hot = _labels_and_probabilities(rng)
    indicators = (probabilities > 0.3).astype(int)
    function = getattr(sce, name)
    assert_same(_quiet(function, y, indicators), _quiet(function, one_hot, indicators))
    with pytest.raises(ValueError, match="y_pred has values other than 0 and 1"):
        function(y, probabilities)


def test_columns_follow_labels_and_classifier_classes():
    X = np.random.default_rng(2).random((90, 2))
    y = np.array(["low", "mid", "high"])[(X[:, 0] * 3).astype(int)]
    classifier = LogisticRegression().fit(X, y)
    probabilities = classifier.predict_proba(X)
    by_default = sce.transport_confusion_matrix(y, probabilities)  # sorted = classes_
    by_name = sce.transport_confusion_matrix(y, probabilities, labels=classifier.classes_)
    np.testing.assert_allclose(by_default, by_name)
    assert by_default.shape == (3, 3)
    np.testing.assert_allclose(by_default.sum(axis=1),
                               [np.sum(y == c) for c in classifier.classes_])
    # labels= in another order renames the columns: rows follow the same order.
    order = ["mid", "low", "high"]
    position = [list(classifier.classes_).index(c) for c in order]
    renamed = sce.transport_confusion_matrix(y, probabilities[:, position], labels=order)
    np.testing.assert_allclose(renamed, by_default[np.ix_(position, position)])
    # The scorer reads estimator.classes_; a fold lacking a class still scores.
    scorer = sce.make_transport_scorer("f1", response_method="predict_proba")
    rows = y != "high"
    expected = _quiet(sce.transport_precision_recall_fscore_support, y[rows],
                      probabilities[rows], labels=classifier.classes_, average="macro")[2]
    assert _quiet(scorer, classifier, X[rows], y[rows]) == pytest.approx(expected)


@pytest.mark.parametrize("y_true, y_pred, keywords, match", [
    ([0, 1], [[0.5, 0.3, 0.2], [0.1, 0.8, 0.1]], {},
     r"y_true holds 2 distinct class label\(s\) \[0, 1\] but y_pred has 3 columns of scores; "
     r"pass labels= with the 3 class labels in the order of y_pred's columns"),
    ([0, 1], [[0.5, 0.5], [0.1, 0.9]], {"labels": [0, 1, 2]},
     "labels has 3 class label.*y_pred has 2 columns"),
    (["a", "z"], [[0.5, 0.5], [0.1, 0.9]], {"labels": ["a", "b"]},
     r"class labels \['z'\] that are not in labels \['a', 'b'\]"),
    ([0, 1], [[0.5, 0.5], [0.0, 0.0]], {},
     r"all-zero rows in y_pred \(rows \[1\]\).*positive mass.*empty='skip'"),
    ([0, 1], [[0.5, 0.5], [np.nan, 0.5]], {}, "y_pred contains nan"),
    ([0.5, 1], [[0.5, 0.5], [0.1, 0.9]], {}, "non-integer floats"),
])
def test_mismatches_say_what_to_pass(y_true, y_pred, keywords, match):
    with pytest.raises(ValueError, match=match):
        sce.transport_confusion_matrix(y_true, y_pred, **keywords)


def test_one_hot_labels_stay_sparse(monkeypatch):
    rng = np.random.default_rng(3)
    y, probabilities, one_hot = _labels_and_probabilities(rng, 500)
    expected = sce.transport_confusion_matrix(one_hot, probabilities, empty="skip")

    def refuse(self, *args, **kwargs):
        raise AssertionError("the one-hot labels were densified")

    for sparse_type in (sp.csr_array, sp.csr_matrix, sp.coo_array):
        monkeypatch.setattr(sparse_type, "toarray", refuse)
        monkeypatch.setattr(sparse_type, "todense", refuse)
    for chunk_size in (None, 7):
        np.testing.assert_allclose(
            sce.transport_confusion_matrix(y, probabilities, chunk_size=chunk_size), expected)


def test_probabilities_as_y_true_beside_predicted_labels():
    rng = np.random.default_rng(4)
    y, probabilities, one_hot = _labels_and_probabilities(rng)
    for function in (sce.transport_confusion_matrix, sce.subpixel_confusion_matrix):
        assert_same(function(probabilities, y), function(probabilities, one_hot))


# --- The shape table of the user guide (targets.rst) -------------------------------------

LABELS = [0, 1, 2, 1]
PROBABILITIES = [[0.8, 0.2, 0.0], [0.1, 0.6, 0.3], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0]]
INDICATORS = [[1, 1, 0], [0, 0, 0], [0, 0, 1], [0, 1, 0]]
SOFT = [[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.0, 0.0, 2.0], [0.0, 1.0, 0.0]]
EMPTY_SCORES = [[0.8, 0.2, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0]]


@pytest.mark.parametrize("y_true, y_pred, empty, shape", [
    # 1-D labels against 1-D labels: no instance can be empty.
    (LABELS, [0, 2, 2, 1], "null_class", (3, 3)),
    (LABELS, [0, 2, 2, 1], "skip", (3, 3)),
    (LABELS, [0, 2, 2, 1], "error", (3, 3)),
    # 1-D labels against probabilities: no "none" class.
    (LABELS, PROBABILITIES, "null_class", (3, 3)),
    (LABELS, PROBABILITIES, "skip", (3, 3)),
    (LABELS, PROBABILITIES, "error", (3, 3)),
    # Multi-label indicators: "none" with null_class, whatever the data.
    (INDICATORS, INDICATORS[::-1], "null_class", (4, 4)),
    (INDICATORS[2:], INDICATORS[2:], "null_class", (4, 4)),  # no empty row in this fold
    (INDICATORS, PROBABILITIES, "null_class", (4, 4)),  # per-label scores
    (INDICATORS, INDICATORS[::-1], "skip", (3, 3)),
    (INDICATORS[2:], INDICATORS[2:], "error", (3, 3)),
    # Soft labels: no "none" class.
    (SOFT, PROBABILITIES, "null_class", (3, 3)),
    (SOFT, PROBABILITIES, "skip", (3, 3)),
    (SOFT, PROBABILITIES, "error", (3, 3)),
])
def test_shape_follows_the_input_kind(y_true, y_pred, empty, shape):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty="skip" warns about what it drops
        assert sce.transport_confusion_matrix(y_true, y_pred, empty=empty).shape == shape
    if len(np.shape(y_true)) == 2 or len(np.shape(y_pred)) == 2:
        binary = (np.asarray(y_pred) > 0.4).astype(int) if np.ndim(y_pred) == 2 else y_pred
        if np.ndim(y_true) == 1 or np.isin(y_true, (0, 1)).all():
            assert sce.mlcm(y_true, binary).shape == (4, 4)  # MLCM: always "none"


@pytest.mark.parametrize("y_true, y_pred", [(LABELS, EMPTY_SCORES),
                                            (SOFT, EMPTY_SCORES),
                                            (EMPTY_SCORES, SOFT)])
def test_an_empty_row_without_a_none_class(y_true, y_pred):
    name = "y_pred" if y_pred is EMPTY_SCORES else "y_true"
    for empty in ("null_class", "error"):
        with pytest.raises(ValueError, match=rf"all-zero rows in {name} \(rows \[1\]\)"):
            sce.transport_confusion_matrix(y_true, y_pred, empty=empty)
    with pytest.warns(UserWarning, match="1 instance"):
        skipped = sce.transport_confusion_matrix(y_true, y_pred, empty="skip")
    kept = [0, 2, 3]
    np.testing.assert_allclose(skipped, sce.transport_confusion_matrix(
        np.asarray(y_true)[kept], np.asarray(y_pred)[kept], labels=[0, 1, 2]
        if np.ndim(y_true) == 1 else None))


def test_posterior_of_probabilities_has_no_prior_only_row():
    matrix = sce.transport_confusion_matrix(LABELS, PROBABILITIES)
    posterior = sce.dirichlet_posterior(matrix)
    assert posterior.mean().shape == (3, 3)


# --- Invariances of the labels-against-probabilities path ---------------------------------


@pytest.mark.parametrize("name, keywords", TARGET_FUNCTIONS)
def test_invariances_of_labels_against_probabilities(name, keywords):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    y, probabilities, _ = _labels_and_probabilities(rng, 40)
    weights = rng.integers(1, 4, len(y))
    function = getattr(sce, name)
    keywords = {**REGISTRY[name].fixed, **keywords}
    expected = _quiet(function, y, probabilities, sample_weight=weights, **keywords)
    order = rng.permutation(len(y))
    assert_same(_quiet(function, y[order], probabilities[order], sample_weight=weights[order],
                       **keywords), expected, where="shuffled samples")
    assert_same(_quiet(function, np.repeat(y, weights), np.repeat(probabilities, weights, axis=0),
                       **keywords), expected, rtol=1e-10, where="repeated rows")
    index = 100 + rng.permutation(len(y))
    assert_same(_quiet(function, pd.Series(y, index=index).astype("category"),
                       pd.DataFrame(probabilities, index=index, columns=list(NAMES)),
                       sample_weight=weights.tolist(), **keywords),
                expected, where="pandas")
    assert_same(_quiet(function, y.tolist(), probabilities.tolist(), sample_weight=weights,
                       **keywords), expected, where="lists")
    assert_same(_quiet(function, y, sp.csr_array(probabilities), sample_weight=weights,
                       **keywords), expected, where="sparse scores")


# --- Other inputs: batches, Dask, array-API ------------------------------------------------


def test_accumulator_batches_of_labels_against_probabilities():
    rng = np.random.default_rng(6)
    y, probabilities, _ = _labels_and_probabilities(rng, 90)
    accumulator = sce.ConfusionAccumulator(labels=list(NAMES))
    for rows in (slice(0, 5), slice(5, 50), slice(50, 90)):  # the first lacks some classes
        accumulator.update(y[rows], probabilities[rows])
    np.testing.assert_allclose(accumulator.result(),
                               sce.transport_confusion_matrix(y, probabilities))
    assert not accumulator.confusions()[0].has_none


def test_dask_labels_against_probabilities():
    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(7)
    y, probabilities, _ = _labels_and_probabilities(rng, 90)
    expected = sce.transport_confusion_matrix(y, probabilities)
    lazy_y, lazy_p = da.from_array(y, chunks=8), da.from_array(probabilities, chunks=(8, 3))
    np.testing.assert_allclose(sce.transport_confusion_matrix(lazy_y, lazy_p), expected)
    order = ["cat", "ant", "bee"]
    columns = [list(NAMES).index(name) for name in order]
    np.testing.assert_allclose(
        sce.transport_confusion_matrix(lazy_y, da.from_array(probabilities[:, columns],
                                                             chunks=(8, 3)), labels=order),
        expected[np.ix_(columns, columns)])


def test_array_api_labels_against_probabilities():
    torch = pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")
    rng = np.random.default_rng(8)
    y = rng.integers(0, N_CLASSES, 60)
    y[:N_CLASSES] = np.arange(N_CLASSES)
    probabilities = rng.dirichlet(np.ones(N_CLASSES), 60)
    result = sce.transport_confusion_matrix(torch.asarray(y), torch.asarray(probabilities))
    assert isinstance(result, torch.Tensor)
    np.testing.assert_allclose(result.numpy(),
                               sce.transport_confusion_matrix(y, probabilities))
    with pytest.raises(ValueError, match="pass labels= with the 3 class labels"):
        sce.transport_confusion_matrix(torch.asarray(y[y < 2]),
                                       torch.asarray(probabilities[y < 2]))
