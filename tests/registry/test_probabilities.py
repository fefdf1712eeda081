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


# labels= beside probabilities (columns: the classes in sorted order) selects and orders
# the classes of the result as beside labels: every class sorted, a permutation, a subset.
SELECTIONS = {"sorted": None, "permutation": [2, 0, 1], "subset": [2, 0], "one": [1]}


def _expected_without_none(function, name, one_hot, probabilities, keywords, selection):
    """The same function of the one-hot labels (columns selected by index), without the
    "none" class 0/1 rows get: the reference of labels beside probabilities."""
    if "empty" in inspect.signature(function).parameters:
        # One-hot rows are 0/1 indicators, which get a "none" class by default: without
        # it (nothing is empty here), the matrices are the same. Reports name the classes.
        named = {"target_names": list(NAMES if selection is None else NAMES[selection])} \
            if "target_names" in inspect.signature(function).parameters else {}
        chosen = {} if selection is None else {"labels": selection}
        return _quiet(function, one_hot, probabilities,
                      **{**keywords, **named, **chosen, "empty": "skip"})
    matrix = _quiet(sce.transport_confusion_matrix, one_hot, probabilities, empty="skip",
                    sample_weight=keywords["sample_weight"],
                    weighting=keywords.get("weighting", "uniform"))
    if selection is not None:  # the sub-matrix, as the scores read labels= of a matrix
        matrix = matrix[np.ix_(selection, selection)]
    extra = {k: v for k, v in keywords.items() if k in ("r", "average", "form")}
    return getattr(sce, FROM_CONFUSION[name])(matrix, **extra)


@pytest.mark.parametrize("selection", list(SELECTIONS.values()), ids=list(SELECTIONS))
@pytest.mark.parametrize("name, keywords", TARGET_FUNCTIONS)
def test_labels_against_probabilities_equal_one_hot_labels(name, keywords, selection):
    rng = np.random.default_rng(0)
    y, probabilities, one_hot = _labels_and_probabilities(rng)
    weights = rng.random(len(y))
    function = getattr(sce, name)
    keywords = {**REGISTRY[name].fixed, **keywords, "sample_weight": weights}
    if selection is not None and not REGISTRY[name].labels:
        pytest.skip("takes no labels=")
    chosen = {} if selection is None else {"labels": NAMES[selection]}
    actual = _quiet(function, y, probabilities, **keywords, **chosen)
    assert_same(actual, _expected_without_none(function, name, one_hot, probabilities,
                                               keywords, selection))


@pytest.mark.parametrize("selection", list(SELECTIONS.values())[1:], ids=list(SELECTIONS)[1:])
@pytest.mark.parametrize("name, keywords", TARGET_FUNCTIONS)
def test_labels_select_as_beside_labels(name, keywords, selection):
    # Probabilities that are the one-hot rows of predicted labels: labels= gives what it
    # gives beside those labels, whatever it selects and in whatever order.
    if not REGISTRY[name].labels:
        pytest.skip("takes no labels=")
    rng = np.random.default_rng(9)
    y, _, _ = _labels_and_probabilities(rng)
    predicted = rng.integers(0, N_CLASSES, len(y))
    weights = rng.random(len(y))
    function = getattr(sce, name)
    keywords = {**REGISTRY[name].fixed, **keywords, "sample_weight": weights,
                "labels": NAMES[selection]}
    assert_same(_quiet(function, y, np.eye(N_CLASSES)[predicted], **keywords),
                _quiet(function, y, NAMES[predicted], **keywords))


# Functions that read probabilities themselves, one number or result over every column
# (top-k accuracy, calibration, decisions): not under the class rule yet (the exception of
# the user guide): labels= still names every column, in order.
READERS = [name for name, entry in REGISTRY.items() if entry.labels
           and entry.target_params in (("y_true", "y_score"), ("y_true", "y_prob"))
           and entry.targets != ("labels",)]


def test_every_reader_of_probabilities_is_covered():
    assert {"top_k_accuracy_score", "top_k_confusion_matrix", "expected_calibration_error",
            "brier_score_decomposition", "risk_coverage_curve"} <= set(READERS)


@pytest.mark.parametrize("name", READERS)
def test_readers_of_probabilities_name_every_column(name):
    rng = np.random.default_rng(10)
    y, probabilities, _ = _labels_and_probabilities(rng)
    function = getattr(sce, name)
    keywords = {**REGISTRY[name].fixed}
    assert_same(_quiet(function, y, probabilities, labels=list(NAMES), **keywords),
                _quiet(function, y, probabilities, **keywords))
    with pytest.raises(ValueError, match="labels"):
        _quiet(function, y, probabilities, labels=NAMES[[0, 1]], **keywords)


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
    # The columns stay classes_ (sorted): labels= in another order reorders the result,
    # a subset selects its rows and columns.
    for order in (["mid", "low", "high"], ["mid", "low"], ["high"]):
        position = [list(classifier.classes_).index(c) for c in order]
        np.testing.assert_allclose(
            sce.transport_confusion_matrix(y, probabilities, labels=order),
            by_default[np.ix_(position, position)])
    expected = _quiet(sce.transport_precision_recall_fscore_support, y, probabilities,
                      labels=["low", "mid"], average="macro")[1]  # classes_: high low mid
    assert expected == pytest.approx(np.mean([by_default[i, i] / by_default[i].sum()
                                              for i in (1, 2)]))
    # The scorer reads estimator.classes_; a fold lacking a class still scores.
    scorer = sce.make_transport_scorer("f1", response_method="predict_proba")
    rows = y != "high"
    expected = _quiet(sce.transport_precision_recall_fscore_support, y[rows],
                      probabilities[rows], labels=classifier.classes_, average="macro")[2]
    assert _quiet(scorer, classifier, X[rows], y[rows]) == pytest.approx(expected)


@pytest.mark.parametrize("y_true, y_pred, keywords, match", [
    ([0, 1], [[0.5, 0.3, 0.2], [0.1, 0.8, 0.1]], {},
     r"y_true holds 2 distinct class label\(s\) \[0, 1\] but y_pred has 3 columns of scores; "
     r"pass labels= with the 3 class labels of y_pred's columns \(its columns are the "
     r"classes in sorted order"),
    ([0, 1], [[0.5, 0.5], [0.1, 0.9]], {"labels": [0, 1, 2]},
     r"labels \[0, 1, 2\] and the classes of y_true \[0, 1\] make 3 class\(es\).*y_pred "
     r"has 2 columns.*pass labels= with all 2 classes.*then take the rows and columns"),
    ([0, 1], [[0.2, 0.3, 0.5], [0.1, 0.8, 0.1]], {"labels": [1]},
     r"labels \[1\] and the classes of y_true \[0, 1\] make 2 class\(es\) \[0, 1\] but "
     r"y_pred has 3 columns"),
    (["a", "z"], [[0.5, 0.5], [0.1, 0.9]], {"labels": ["a", "b"]},
     r"class labels \['z'\] that are not in labels \['a', 'b'\], the classes of y_pred's "
     r"columns"),
    ([0, 1, 1], [[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]], {"labels": [2]},
     r"None of labels \[2\] appear in y_true"),
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
    # every class in another order: the columns stay sorted, the result in that order
    order = ["cat", "ant", "bee"]
    accumulator = sce.ConfusionAccumulator(labels=order)
    for rows in (slice(0, 5), slice(5, 50), slice(50, 90)):
        accumulator.update(y[rows], probabilities[rows])
    np.testing.assert_allclose(accumulator.result(),
                               sce.transport_confusion_matrix(y, probabilities, labels=order))


def test_dask_labels_against_probabilities():
    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(7)
    y, probabilities, _ = _labels_and_probabilities(rng, 90)
    expected = sce.transport_confusion_matrix(y, probabilities)
    lazy_y, lazy_p = da.from_array(y, chunks=8), da.from_array(probabilities, chunks=(8, 3))
    np.testing.assert_allclose(sce.transport_confusion_matrix(lazy_y, lazy_p), expected)
    # labels= selects and orders as in memory; the blocks of 8 rows lack classes, whose
    # union with a subset would give each block other columns
    for order in (["cat", "ant", "bee"], ["cat", "ant"], ["bee"]):
        columns = [list(NAMES).index(name) for name in order]
        in_memory = sce.transport_confusion_matrix(y, probabilities, labels=order)
        np.testing.assert_allclose(in_memory, expected[np.ix_(columns, columns)])
        np.testing.assert_allclose(
            sce.transport_confusion_matrix(lazy_y, lazy_p, labels=order), in_memory)
        assert _quiet(sce.transport_precision_recall_fscore_support, lazy_y, lazy_p,
                      labels=order, average="macro") == pytest.approx(_quiet(
                          sce.transport_precision_recall_fscore_support, y, probabilities,
                          labels=order, average="macro"))


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
    for order in ([2, 0, 1], [2, 0]):  # labels= selects and orders, as for NumPy
        np.testing.assert_allclose(
            sce.transport_confusion_matrix(torch.asarray(y), torch.asarray(probabilities),
                                           labels=order).numpy(),
            sce.transport_confusion_matrix(y, probabilities, labels=order))


# --- The faces: from_estimator (classes_ name the columns), the command line (a header) ----


def test_from_estimator_classes_name_the_columns_and_labels_select():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X = np.random.default_rng(11).random((90, 2))
    y = np.array(["low", "mid", "high"])[(X[:, 0] * 3).astype(int)]
    classifier = LogisticRegression().fit(X, y)
    probabilities = classifier.predict_proba(X)
    rows = y != "high"  # the test set lacks a class: classes_ still name the 3 columns
    full = sce.transport_confusion_matrix(y[rows], probabilities[rows],
                                          labels=classifier.classes_)
    for labels in (["mid", "low"], ["high", "mid", "low"]):
        display = sce.TransportConfusionMatrixDisplay.from_estimator(
            classifier, X[rows], y[rows], response_method="predict_proba", labels=labels)
        position = [list(classifier.classes_).index(label) for label in labels]
        np.testing.assert_allclose(display.confusion_matrix,
                                   full[np.ix_(position, position)])
        assert list(display.display_labels) == labels
        plt.close("all")


def test_command_line_header_names_the_columns_and_labels_select(tmp_path, capsys):
    import json

    from sklearn_confusion_ext._cli import main

    rng = np.random.default_rng(12)
    y, probabilities, _ = _labels_and_probabilities(rng, 30)
    true = tmp_path / "true.csv"
    true.write_text("\n".join(y) + "\n")
    header = tmp_path / "header.csv"  # the file's columns in another order, named
    order = [2, 0, 1]
    header.write_text(",".join(NAMES[order]) + "\n" + "\n".join(
        ",".join(f"{value:.17g}" for value in row) for row in probabilities[:, order]) + "\n")
    plain = tmp_path / "plain.csv"  # no header: the classes in sorted order
    plain.write_text("\n".join(",".join(f"{value:.17g}" for value in row)
                               for row in probabilities) + "\n")
    labels = ["cat", "ant"]
    expected = sce.transport_confusion_matrix(y, probabilities, labels=labels)
    for pred in (header, plain):
        assert main(["report", "--true", str(true), "--pred", str(pred), "--labels", *labels,
                     "--format", "json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["classes"] == labels
        np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"], expected)
