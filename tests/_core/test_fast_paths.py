"""The fast paths of the matrix builds equal their reference paths.

Labels beside dense scores (a classifier's ``predict_proba``) are summed by class, one
segmented sum of the scores' rows (``_TransportInstances._sum_by_class``); the reference is
the per-instance plan of equation 8 (``_plan_block``, ``_bounds_block``), reached by turning
the fast path off (a private switch: the path has no public face of its own). Both must give
the same matrices, the same errors and the same warnings, on every option.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._matrices import transport

N_CLASSES = 5


def _reference(function, *args, **kwargs):
    """``function(*args, **kwargs)`` by the per-instance plans (fast path off)."""
    fast = transport._TransportInstances.labels_side
    transport._TransportInstances.labels_side = None
    try:
        return function(*args, **kwargs)
    finally:
        transport._TransportInstances.labels_side = fast


def _outcome(function, *args, **kwargs):
    """The result (or error message) and the warnings' messages of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(*args, **kwargs)
        except ValueError as error:
            result = str(error)
    return result, [str(warning.message) for warning in caught]


def _assert_same(function, *args, rtol=1e-12, **kwargs):
    fast, fast_warnings = _outcome(function, *args, **kwargs)
    reference, reference_warnings = _outcome(_reference, function, *args, **kwargs)
    assert fast_warnings == reference_warnings
    if isinstance(reference, str):
        assert fast == reference
        return fast
    scale = max(1.0, float(np.max(np.abs(reference), initial=0.0)))
    np.testing.assert_allclose(fast, reference, rtol=rtol, atol=1e-10 * scale)
    return fast


def _probabilities(rng, n_samples, n_classes=N_CLASSES, dtype=np.float64):
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    return scores / scores.sum(axis=1, keepdims=True, dtype=dtype)


def _subpixel(*args, **kwargs):
    return np.stack(sce.subpixel_confusion_matrix(*args, **kwargs))


def _macro_f(*args, **kwargs):
    return np.asarray(sce.transport_precision_recall_fscore_support(
        *args, average=None, zero_division=0.0, **kwargs)[:3])


FUNCTIONS = [sce.transport_confusion_matrix, _subpixel, _macro_f]
OPTIONS = [
    {}, {"weighting": "true"}, {"weighting": "pred"}, {"sample_weight": "random"},
    {"weighting": "pred", "sample_weight": "random"}, {"chunk_size": 7}, {"n_jobs": 2,
                                                                        "chunk_size": 5},
    {"weighting": lambda y_true, y_pred: np.arange(y_true.shape[0]) % 3 + 0.5},
    {"normalize": "true"},
]


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "options", OPTIONS,
    ids=lambda options: str({key: getattr(value, "__name__", value)  # stable ids for xdist
                             for key, value in options.items()}))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("labels_side", ["y_true", "y_pred"])
def test_labels_beside_probabilities_equal_the_plans(function, options, dtype, labels_side):
    rng = np.random.default_rng(0)
    n_samples = 203  # not a multiple of any chunk size here
    labels = rng.integers(0, N_CLASSES, n_samples)
    scores = _probabilities(rng, n_samples, dtype=dtype)
    options = dict(options)
    if options.get("sample_weight") == "random":
        options["sample_weight"] = rng.random(n_samples) * 3
    if function is not sce.transport_confusion_matrix:
        options.pop("normalize", None)
    if function is _macro_f:
        for name in ("chunk_size", "n_jobs"):
            options.pop(name, None)
    args = (labels, scores) if labels_side == "y_true" else (scores, labels)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    result = _assert_same(function, *args, rtol=rtol, **options)
    assert np.all(np.isfinite(result))


@pytest.mark.parametrize("labels_side", ["y_true", "y_pred"])
def test_the_plans_of_labels_beside_probabilities_are_rows_in_the_class_row(labels_side):
    # The TCM of labels beside probabilities is a segmented sum of the probability rows
    # by class: the soft TCM of the one-hot rows (no product, no rounding path).
    rng = np.random.default_rng(1)
    labels = rng.integers(0, 4, 500)
    scores = _probabilities(rng, 500, 4)
    expected = np.zeros((4, 4))
    np.add.at(expected, labels, scores)
    weighted = np.zeros((4, 4))
    weight = rng.random(500)
    np.add.at(weighted, labels, scores * weight[:, None])
    args = (labels, scores) if labels_side == "y_true" else (scores, labels)
    for sample_weight, want in ((None, expected), (weight, weighted)):
        got = sce.transport_confusion_matrix(*args, sample_weight=sample_weight)
        np.testing.assert_allclose(got, want if labels_side == "y_true" else want.T,
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n_samples, n_classes, chunk_size", [
    (1, 3, None), (2, 3, 1), (37, 40, 3), (64, 200, 8), (1000, 3, None), (1000, 60, None),
])
def test_sizes_chunks_and_many_classes(n_samples, n_classes, chunk_size):
    # Chunks of fewer rows than half the classes sum only the classes they hold.
    rng = np.random.default_rng(n_samples)
    classes = np.arange(n_classes)
    labels = rng.integers(0, n_classes, n_samples)
    scores = _probabilities(rng, n_samples, n_classes)
    for args in ((labels, scores), (scores, labels)):
        _assert_same(sce.transport_confusion_matrix, *args, labels=classes,
                     chunk_size=chunk_size)


def test_labels_name_the_columns_in_any_order():
    rng = np.random.default_rng(2)
    names = np.array(["cat", "ant", "dog", "bee", "eel"])
    labels = rng.choice(names, 300)
    scores = _probabilities(rng, 300)
    for args in ((labels, scores), (scores, labels)):
        _assert_same(sce.transport_confusion_matrix, *args, labels=names)


@pytest.mark.parametrize("labels_side", ["y_true", "y_pred"])
def test_rows_the_fast_path_leaves_to_the_plans(labels_side):
    # Rows far from 1 (beyond the range the scaled sums keep their precision in), scores
    # that do not sum to 1, an empty row skipped: those chunks take the reference path.
    rng = np.random.default_rng(3)
    labels = rng.integers(0, N_CLASSES, 100)
    scores = rng.random((100, N_CLASSES)) * 3
    scores[10] *= 1e40
    scores[50] *= 1e-40
    args = (labels, scores) if labels_side == "y_true" else (scores, labels)
    _assert_same(sce.transport_confusion_matrix, *args, chunk_size=16)
    _assert_same(sce.transport_confusion_matrix, *args, chunk_size=16,
                 sample_weight=np.full(100, 1e-250))
    scores[70] = 0.0
    _assert_same(sce.transport_confusion_matrix, *args, chunk_size=16)  # refused alike
    result = _assert_same(sce.transport_confusion_matrix, *args, chunk_size=16,
                          empty="skip")
    assert not isinstance(result, str)


@pytest.mark.parametrize("bad, message", [(np.nan, "contains nan"), (-0.5, "negative"),
                                          (np.inf, "contains inf")])
def test_bad_scores_are_refused_alike(bad, message):
    rng = np.random.default_rng(4)
    labels = rng.integers(0, N_CLASSES, 5000)
    scores = _probabilities(rng, 5000)
    scores[4321, 2] = bad
    for args in ((labels, scores), (scores, labels)):
        text = _assert_same(sce.transport_confusion_matrix, *args)
        assert isinstance(text, str) and message in text and "row 4321" in text


def test_binary_indicators_beside_labels_keep_their_none_class():
    # 0/1 y_true beside labels: an instance with no true class lies in "none".
    rng = np.random.default_rng(5)
    y_true = (rng.random((300, N_CLASSES)) < 0.4).astype(float)
    y_pred = rng.integers(0, N_CLASSES, 300)
    result = _assert_same(sce.transport_confusion_matrix, y_true, y_pred, chunk_size=32)
    assert result.shape == (N_CLASSES + 1, N_CLASSES + 1)


def test_sparse_and_integer_scores():
    rng = np.random.default_rng(6)
    labels = rng.integers(0, N_CLASSES, 400)
    counts = rng.integers(0, 3, (400, N_CLASSES)).astype(np.int8)
    counts[:, 0] += 1
    for scores in (sp.csr_array(_probabilities(rng, 400) * (rng.random((400, 1)) < 2)),
                   counts):
        for args in ((labels, scores), (scores, labels)):
            _assert_same(sce.transport_confusion_matrix, *args, chunk_size=64)


def test_accumulated_batches_equal_one_call():
    rng = np.random.default_rng(7)
    labels = rng.integers(0, N_CLASSES, 1000)
    scores = _probabilities(rng, 1000)
    accumulator = sce.ConfusionAccumulator("transport")
    for rows in np.array_split(np.arange(1000), 7):
        accumulator.update(labels[rows], scores[rows])
    np.testing.assert_allclose(accumulator.result(),
                               _reference(sce.transport_confusion_matrix, labels, scores),
                               rtol=1e-12, atol=1e-12)


def _string_forms(names):
    pd = pytest.importorskip("pandas")
    categories = sorted(set(names)) + ["zebra (unused)"]
    return {
        "unicode": np.asarray(names),
        "object": np.asarray(names, dtype=object),
        "pandas string": pd.Series(names, dtype="string"),
        "pandas category": pd.Series(pd.Categorical(names, categories=categories)),
    }


@pytest.mark.parametrize("form", ["unicode", "object", "pandas string", "pandas category"])
@pytest.mark.parametrize("options", [{}, {"labels": ["dog", "ant", "cat"]},
                                     {"sample_weight": "random"}])
def test_string_labels_of_every_container_equal_scikit_learn(form, options):
    # Object arrays of str (pandas string and categorical columns too) are encoded by
    # hashing their distinct labels: the same classes, order and counts as before.
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(8)
    pool = ["ant", "bee", "cat", "dog", "eel", "fox"]
    y_true, y_pred = rng.choice(pool, 500).tolist(), rng.choice(pool[:5], 500).tolist()
    options = dict(options)
    if options.get("sample_weight") == "random":
        options["sample_weight"] = rng.random(500)
    got = sce.transport_confusion_matrix(_string_forms(y_true)[form],
                                         _string_forms(y_pred)[form], **options)
    labels = options.pop("labels", None)  # a category that occurs nowhere is no class
    want = confusion_matrix(y_true, y_pred, labels=labels, **options)
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("bad, message", [(None, "missing class label"),
                                          (float("nan"), "missing class label"),
                                          (3, "mixes strings and numbers")])
def test_object_labels_that_are_not_all_strings_are_checked_one_by_one(bad, message):
    y_true = np.array(["a", "b", "a", "c"] * 10, dtype=object)
    y_pred = y_true.copy()
    y_pred[7] = bad
    with pytest.raises(ValueError, match=message):
        sce.transport_confusion_matrix(y_true, y_pred)


@pytest.mark.parametrize("has_none", [False, True])
@pytest.mark.parametrize("n_classes", [1, 4, 60])
def test_full_matrix_is_the_sum_and_block_bit_for_bit(has_none, n_classes):
    """The full matrix written into one array equals ``diag(d) + off`` bordered by
    ``np.block``, bit for bit: signed zeros, float32 parts and all."""
    from sklearn_confusion_ext._core.kinds import _full_matrix

    rng = np.random.default_rng(n_classes)
    for diagonal in (rng.random(n_classes), np.zeros(n_classes), -np.zeros(n_classes)):
        for dtype in (np.float64, np.float32):
            off = rng.random((n_classes, n_classes)).astype(dtype)
            np.fill_diagonal(off, 0)
            off[0, 0] = off[0, -1] = -0.0
            row, column, corner = rng.random(n_classes), rng.random(n_classes), np.asarray(.5)
            expected = np.diag(diagonal) + off
            if has_none:
                expected = np.block([[expected, column[:, None]],
                                     [row[None, :], np.reshape(corner, (1, 1))]])
            found = _full_matrix(diagonal, off, row, column, corner, has_none)
            assert found.dtype == expected.dtype and found.shape == expected.shape
            assert found.tobytes() == expected.tobytes()


@pytest.mark.parametrize("labels", [None, [2, 0], [0, 1, 2, 3], [3, 1]])
def test_selected_matrix_is_a_new_array_in_the_order_of_labels(labels):
    """Every class in order is a copy of a slice, any other selection the fancy index:
    the same values, and never a view of the builder's matrix (multi-label targets, whose
    "none" row and column stay last)."""
    from sklearn_confusion_ext._core.confusion import Confusion

    matrix = np.arange(25.0).reshape(5, 5)
    confusion = Confusion.from_parts(matrix, np.arange(4), None if labels is None
                                     else np.asarray(labels), True)
    selection = list(range(4) if labels is None else labels) + [4]
    found = confusion.selected()
    np.testing.assert_array_equal(found, matrix[np.ix_(selection, selection)])
    assert not np.shares_memory(found, matrix)
