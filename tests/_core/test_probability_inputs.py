"""The one check of probabilities (or scores) beside class labels
(sklearn_confusion_ext._core.probabilities): what it reads in its one pass, what it refuses,
and the classes and positive class it finds."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_confusion_ext._core import kernels
from sklearn_confusion_ext._core import probabilities as module
from sklearn_confusion_ext._core.probabilities import checked_probabilities

# More rows than one chunk of 100 float64 columns (2 MiB: 2,621 rows): several chunks.
N_SAMPLES, N_CLASSES = 7_000, 100


def _softmax_rows(rng, n_samples, n_classes):
    logits = 2 * rng.standard_normal((n_samples, n_classes))
    prob = np.exp(logits)
    return prob / prob.sum(axis=1, keepdims=True)


def _check(y_true, y_prob, **options):
    return checked_probabilities("owner", y_true, y_prob, **options)


def test_float64_probabilities_are_read_in_place_and_the_top_label_in_one_pass():
    rng = np.random.default_rng(0)
    prob = _softmax_rows(rng, N_SAMPLES, N_CLASSES)
    prob[5, [3, 7]] = prob[5].max() + 0.1  # a tie: the first column, as argmax
    prob[5] /= prob[5].sum()
    y = rng.integers(0, N_CLASSES, N_SAMPLES)
    data = _check(y, prob, top_label=True)
    assert np.shares_memory(data.prob, prob) and data.norms is None
    predicted, confidence = data.top_label()
    np.testing.assert_array_equal(predicted, prob.argmax(axis=1))
    np.testing.assert_array_equal(confidence, prob.max(axis=1))
    assert predicted[5] == 3
    np.testing.assert_array_equal(data.codes, y)
    np.testing.assert_array_equal(data.classes, np.arange(N_CLASSES))
    # the same read later (not asked in the pass), and of a Fortran-ordered array
    later = _check(y, np.asfortranarray(prob)).top_label()
    np.testing.assert_array_equal(later[0], predicted)
    np.testing.assert_array_equal(later[1], confidence)


def test_rows_that_do_not_sum_to_one_warn_and_are_divided_where_read():
    rng = np.random.default_rng(1)
    prob = _softmax_rows(rng, N_SAMPLES, 4)
    scaled = prob.copy()
    scaled[6000] *= 3  # one row, in a later chunk
    y = rng.integers(0, 4, N_SAMPLES)
    with pytest.warns(UserWarning, match="y_prob's rows do not sum to 1 \\(row 6000 sums"):
        data = _check(y, scaled, top_label=True)
    assert np.shares_memory(data.prob, scaled)  # no divided copy of the whole array
    np.testing.assert_allclose(data.norms[6000], 3.0)
    assert np.count_nonzero(data.norms != 1.0) == 1
    np.testing.assert_allclose(data.top_label()[1], prob.max(axis=1), rtol=1e-15)
    np.testing.assert_allclose(data.column(2), prob[:, 2], rtol=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # within rounding of 1: read as given, no warning
        data = _check(y, prob * (1 + 1e-12))
    assert data.norms is None


def test_scores_are_unbounded_and_probabilities_are_not():
    y = [0, 1, 1]
    scores = np.array([[-3.0, 2.0], [5.0, -1.0], [0.5, 0.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = _check(y, scores, scores=True, name="y_score")
    assert data.scores and data.norms is None
    assert _check(y, [-2.0, 0.3, 7.0], scores=True).prob.tolist() == [-2.0, 0.3, 7.0]
    with pytest.raises(ValueError, match="y_prob has negative entries \\(min -3, first at row 0"):
        _check(y, scores)
    with pytest.raises(ValueError, match="outside \\[0, 1\\]: row 2 holds 7"):
        _check(y, [0.2, 0.3, 7.0])


@pytest.mark.parametrize("scores", [False, True])
def test_not_finite_values_are_refused_at_their_row(scores):
    rng = np.random.default_rng(2)
    prob = _softmax_rows(rng, N_SAMPLES, N_CLASSES)
    y = rng.integers(0, N_CLASSES, N_SAMPLES)
    what = "scores" if scores else "probabilities"
    for value, shown in ((np.nan, "nan"), (np.inf, "infinity")):
        bad = prob.copy()
        bad[6500, 9] = value
        with pytest.raises(ValueError, match=f"y_prob contains {shown} \\(first at row "
                                             f"6500\\); {what} must be finite"):
            _check(y, bad, scores=scores)
        with pytest.raises(ValueError, match=f"contains {shown} \\(first at row 2\\)"):
            _check([0, 1, 1], [0.1, 0.2, value], scores=scores)


def test_bad_rows_of_probabilities_are_refused_naming_the_row():
    y = [0, 1, 1]
    with pytest.raises(ValueError, match="y_prob's row 1 sums to 0"):
        _check(y, [[0.5, 0.5], [0.0, 0.0], [0.1, 0.9]])
    with pytest.raises(ValueError, match="y_prob's row 0 sums beyond the largest float"):
        _check(y, [[1e308, 1e308], [0.5, 0.5], [0.1, 0.9]])
    with pytest.raises(ValueError, match="y_prob is empty"):
        _check([], np.zeros((0, 2)))
    with pytest.raises(ValueError, match="must hold numbers \\(scores\\); got strings"):
        _check(y, [0.1, "x", 0.3], scores=True)
    with pytest.raises(ValueError, match="same number of samples; got 3 and 2"):
        _check(y, [0.1, 0.2])
    with pytest.raises(ValueError, match="y_true must be 1-D class labels beside y_prob"):
        _check([[0, 1], [1, 0], [1, 0]], [0.1, 0.2, 0.3])
    with pytest.raises(TypeError, match="y_prob must be array-like"):
        _check(y, None)


def test_one_dimensional_classes_and_positive_class():
    data = _check([0, 1, 1], [0.2, 0.7, 0.9])
    assert data.classes.tolist() == [0, 1] and data.positive == 1
    assert _check([-1, 1, 1], [0.2, 0.7, 0.9]).positive == 1
    with pytest.raises(ValueError, match="pos_label is not specified.*pass pos_label="):
        _check(["a", "b"], [0.2, 0.7])
    assert _check(["a", "b"], [0.2, 0.7], pos_label="a").positive == 0
    assert _check(["a", "b"], [0.2, 0.7], labels=["b", "a"]).positive == 1  # labels[-1]
    assert _check(["a", "b"], [0.2, 0.7], default_positive="last").positive == 1
    with pytest.raises(ValueError, match="pos_label='maybe' is not a class of y_true"):
        _check(["a", "b"], [0.2, 0.7], pos_label="maybe")
    # one class present, the positive one absent: every instance negative
    data = _check(["a", "a"], [0.2, 0.7], pos_label="maybe")
    assert data.classes.tolist() == ["a", "maybe"] and data.positive == 1
    assert data.codes.tolist() == [0, 0]
    with pytest.raises(ValueError, match="y_true holds 3 classes.*1-D y_prob is the "
                                         "probability of one class of two"):
        _check([0, 1, 2], [0.2, 0.7, 0.1])
    with pytest.raises(ValueError, match="y_true holds class labels \\[2\\] that are not in"):
        _check([0, 1, 2], [0.2, 0.7, 0.1], labels=[0, 1])
    assert _check([True, False], [0.2, 0.7], pos_label=True).positive == 1


def test_columns_are_the_sorted_classes():
    names = np.array(["ant", "bee", "cat"])
    prob = np.array([[0.2, 0.5, 0.3], [0.6, 0.2, 0.2]])
    data = _check(names[[2, 0]], prob, labels=names)
    assert data.classes.tolist() == ["ant", "bee", "cat"] and data.codes.tolist() == [2, 0]
    # a class absent from y_true named by labels; a subset or another order selects
    assert _check(names[[2, 0]], prob, labels=names).codes.tolist() == [2, 0]
    for reordering in (["cat", "ant", "bee"], ["bee"]):
        with pytest.raises(ValueError, match="selects or reorders the columns"):
            _check(names[[2, 0]], prob, labels=reordering)
    with pytest.raises(ValueError, match="make 2 class.*but y_prob has 3 columns"):
        _check(names[[2, 0]], prob, labels=["ant", "cat"])
    assert _check(names[[2, 0]], prob, labels=names, pos_label="bee").positive == 1
    with pytest.raises(ValueError, match="pos_label='dog' is not one of the classes"):
        _check(names[[2, 0]], prob, labels=names, pos_label="dog")
    with pytest.raises(ValueError, match="holds 2 distinct class label"):
        _check(names[[2, 0]], prob)


def test_a_categorical_and_a_frame_name_their_classes():
    pd = pytest.importorskip("pandas")
    y = pd.Categorical(["b", "a", "b"], categories=["b", "a"])
    prob = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])  # columns: sorted, a then b
    data = _check(y, prob)
    assert data.classes.tolist() == ["a", "b"] and data.codes.tolist() == [1, 0, 1]
    frame = pd.DataFrame(prob[:, ::-1], columns=["b", "a"])  # columns named, shuffled
    framed = _check(["b", "a", "b"], frame)
    np.testing.assert_array_equal(framed.prob, prob)
    assert framed.codes.tolist() == [1, 0, 1]


def test_probabilities_alone_and_sparse_probabilities():
    prob = sp.csr_array(np.array([[0.0, 1.0], [0.25, 0.75]]))
    data = checked_probabilities("owner", None, prob, sparse=True)
    assert sp.issparse(data.prob) and data.codes is None and data.classes is None
    dense = checked_probabilities("owner", None, prob)
    assert isinstance(dense.prob, np.ndarray)
    with pytest.raises(ValueError, match="y_prob's row 0 sums to 0"):
        checked_probabilities("owner", None, sp.csr_array(np.zeros((1, 2))), sparse=True)


def test_weights_are_checked_against_the_samples():
    data = _check([0, 1], [0.2, 0.7], sample_weight=[1, 2])
    assert data.sample_weight.dtype == np.float64
    with pytest.raises(ValueError, match="sample_weight has 1 entries but y_true has 2"):
        _check([0, 1], [[0.2, 0.8], [0.7, 0.3]], sample_weight=[1.0])


def test_the_pass_reads_each_chunk_once(monkeypatch):
    """One chunk read per chunk of rows, the top labels in the same pass."""
    rng = np.random.default_rng(3)
    prob = _softmax_rows(rng, N_SAMPLES, N_CLASSES)
    calls = []
    original = module._top_of_block
    # the NumPy reference's pass (the compiled one's: tests/_core/test_row_kernels.py)
    monkeypatch.setattr(kernels, "ROW_COMPILED", None)
    monkeypatch.setattr(module, "_top_of_block",
                        lambda block: calls.append(block.shape[0]) or original(block))
    data = _check(rng.integers(0, N_CLASSES, N_SAMPLES), prob, top_label=True)
    assert sum(calls) == N_SAMPLES and len(calls) > 1
    data.top_label()
    assert sum(calls) == N_SAMPLES  # kept, not read again


def test_columns_are_copied_contiguous_and_divided():
    rng = np.random.default_rng(4)
    prob = _softmax_rows(rng, N_SAMPLES, 20)
    prob[6001] *= 2
    with pytest.warns(UserWarning, match="do not sum to 1"):
        data = _check(rng.integers(0, 20, N_SAMPLES), prob)
    block = data.columns(3, 11)
    assert block.shape == (8, N_SAMPLES) and block.flags.c_contiguous
    expected = prob[:, 3:11] / data.norms[:, None]
    np.testing.assert_array_equal(block, expected.T)
    np.testing.assert_array_equal(data.column(5), expected[:, 2])
