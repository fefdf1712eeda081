"""float32 masses are computed in float32 blocks and summed in float64: results
to float32 precision, in float64, without a float64 copy of the inputs."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from float_bounds import assert_within_float32_bound, float32_term_roundings
from test_common import REGISTRY, assert_same, call_on, cases, random_targets, target_inputs

import sklearn_confusion_ext as sce


@pytest.mark.parametrize("function", [sce.transport_confusion_matrix, sce.mlcm])
def test_float32_masses_give_the_float64_result_to_float32_precision(function):
    rng = np.random.default_rng(0)
    if function is sce.mlcm:
        y_true, y_pred = ((rng.random((5_000, 8)) < 0.3).astype(np.float64) for _ in range(2))
    else:
        y_true, y_pred = rng.random((5_000, 8)), rng.dirichlet(np.ones(8), 5_000)
    weights = rng.random(5_000)
    expected = function(y_true, y_pred, sample_weight=weights)
    got = function(y_true.astype(np.float32), y_pred.astype(np.float32), sample_weight=weights)
    assert got.dtype == np.float64
    # float32's bound for sums of 5,000 terms, each also rounded from float64 (a value and
    # its row's mass on each side: four roundings more)
    assert_within_float32_bound(got, expected, 5_000, float32_term_roundings(8) + 4)
    assert not np.array_equal(  # really computed in float32 (soft rows round differently)
        got, expected) or function is sce.mlcm


def test_float32_inputs_are_not_copied_to_float64():
    rng = np.random.default_rng(1)
    y_true = rng.random((200_000, 40), dtype=np.float32)
    y_pred = rng.random((200_000, 40), dtype=np.float32)
    sce.transport_confusion_matrix(y_true[:10], y_pred[:10])  # imports, caches
    tracemalloc.start()
    sce.transport_confusion_matrix(y_true, y_pred, n_jobs=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < y_true.nbytes  # a float64 copy of one input is twice its bytes


@pytest.mark.parametrize("scale", [1e-40, 1e-30, 1.0, 1e30, 1.5e38])
def test_float32_masses_from_subnormal_to_near_overflow(scale):
    # float32 rows are normalized in float32: a subnormal norm (whose reciprocal overflows
    # float32) is divided exactly, a row sum beyond float32 is summed again in float64.
    rng = np.random.default_rng(2)
    y_true, y_pred = rng.random((50, 3)) + 0.1, rng.random((50, 3)) + 0.1
    masses = [(y * scale).astype(np.float32) for y in (y_true, y_pred)]
    expected = sce.transport_confusion_matrix(*(m.astype(np.float64) for m in masses))
    got = sce.transport_confusion_matrix(*masses)
    assert np.isfinite(got).all()
    assert_within_float32_bound(got, expected, 50, float32_term_roundings(3))


@pytest.mark.parametrize("dtype", [bool, np.int8, np.uint8, np.int16, np.int64])
def test_mlcm_of_small_integer_indicators_is_exact(dtype):
    # Heydarian's MLCM only counts: small integer indicators are read as float32 (half the
    # bytes of float64) and its counts stay exact.
    rng = np.random.default_rng(3)
    y_true, y_pred = ((rng.random((20_000, 7)) < 0.3) for _ in range(2))
    expected = sce.mlcm(y_true.astype(np.float64), y_pred.astype(np.float64))
    np.testing.assert_array_equal(sce.mlcm(y_true.astype(dtype), y_pred.astype(dtype)),
                                  expected)


_NOT_INDICATORS = [(-1, "negative entries .* row 17"), (2, "values other than 0 and 1"),
                   (-128, "negative entries .* row 17")]


@pytest.mark.parametrize("dtype, value, message", [
    (dtype, value, message) for dtype in (np.int8, np.uint8, np.int16, np.uint16)
    for value, message in _NOT_INDICATORS if np.iinfo(dtype).min <= value])
def test_mlcm_refuses_small_integers_that_are_not_indicators(dtype, value, message):
    # Small integers stay in their type until a block reads them; an entry that is not 0/1
    # (-1 read as unsigned is 255) is refused before any block, negatives by their own error.
    y_true = np.zeros((40, 4), dtype=dtype)
    y_true[::3, 1] = 1
    y_true[17, 2] = value
    with pytest.raises(ValueError, match=f"y_true has {message}"):
        sce.mlcm(y_true, np.ones((40, 4), dtype=dtype))


@pytest.mark.parametrize("chunk_size", [1, 7, 1000])
def test_small_integer_indicators_read_block_by_block(chunk_size):
    # Each block of int8 rows becomes float32 on its own: any chunking gives the same counts.
    rng = np.random.default_rng(4)
    y_true, y_pred = ((rng.random((300, 5)) < 0.4).astype(np.int8) for _ in range(2))
    expected = sce.mlcm(y_true.astype(np.float64), y_pred.astype(np.float64))
    np.testing.assert_array_equal(sce.mlcm(y_true, y_pred, chunk_size=chunk_size), expected)


@pytest.mark.parametrize("weight", [1e-200, 1e-35, 1e30, 1e100])
@pytest.mark.parametrize("function", [sce.transport_confusion_matrix, sce.mlcm])
def test_float32_blocks_beside_weights_beyond_float32(function, weight):
    # float32 blocks scale their rows by the weights in float32; weights it cannot hold
    # (they underflowed to an all-zero matrix, or overflowed into a false "beyond the float64
    # range") make the blocks float64.
    rng = np.random.default_rng(5)
    y_true, y_pred = ((rng.random((200, 4)) < 0.5).astype(np.float32) for _ in range(2))
    y_true[:, 0] = y_pred[:, 1] = 1  # no empty row
    sample_weight = rng.random(200) * weight
    expected = function(y_true.astype(np.float64), y_pred.astype(np.float64),
                        sample_weight=sample_weight)
    got = function(y_true, y_pred, sample_weight=sample_weight)
    assert_within_float32_bound(got, expected, 200, float32_term_roundings(4))
    assert np.abs(got).max() > 0


@pytest.mark.parametrize("name, kind", cases(kinds=("soft",)))
@pytest.mark.parametrize("narrow", ["y_true", "y_pred"])
def test_float32_beside_float64_is_computed_in_float64(name, kind, narrow):
    """Every registered function of soft labels, one side float32 and the other float64:
    the float64 result of the float32 side's values (the common mass was rounded to the
    float32 side's type: 5.7e-7 of the largest cell at N = 4,097, C = 3, more than two
    float32 sides' 3.7e-8)."""
    rng = np.random.default_rng(11)
    y_true, y_pred = random_targets(kind, rng, n_samples=400)
    rounded = {"y_true": y_true, "y_pred": y_pred}
    rounded[narrow] = rounded[narrow].astype(np.float32).astype(np.float64)
    mixed = dict(rounded)
    mixed[narrow] = mixed[narrow].astype(np.float32)
    params = REGISTRY[name].target_params
    expected = call_on(name, target_inputs(params, (rounded["y_true"], rounded["y_pred"])))
    actual = call_on(name, target_inputs(params, (mixed["y_true"], mixed["y_pred"])))
    assert_same(actual, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("function", [
    sce.transport_confusion_matrix, sce.transport_accuracy_score,
    sce.transport_precision_recall_fscore_support,
    lambda a, b: sce.score_confidence_interval(a, b, n_resamples=19, random_state=0)])
@pytest.mark.parametrize("scores_side", ["y_pred", "y_true"])
def test_sparse_float32_probabilities_keep_float32s_tolerance(function, scores_side):
    """Sparse scores beside labels are read as float64; float32 ones keep float32's
    tolerance of their row sums to 1, as dense float32 does: rows within float32 rounding
    are not warned about (a sparse float32 array warned ``row 1 sums to 1.00000003``), a
    row 1e-3 off is, by its number; the same values given as float64 are still held to
    float64's tolerance (catches the tolerance taken from the float64 copy, or from the
    wrong argument)."""
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 5, 2_000)
    narrow = rng.dirichlet(np.ones(5), 2_000).astype(np.float32)
    off = np.abs(narrow.sum(axis=1, dtype=np.float64) - 1) > 1.5e-8
    assert off.any()  # rows that float64's tolerance names

    def sum_warnings(scores):
        pair = (labels, scores) if scores_side == "y_pred" else (scores, labels)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            function(*pair)
        return [str(w.message) for w in caught if "sum to 1" in str(w.message)]

    for sparse in (sp.csr_array, sp.csr_matrix, sp.csc_array):
        assert sum_warnings(sparse(narrow)) == []
    shifted = narrow.copy()
    shifted[1_234] *= np.float32(1.001)
    (message,) = sum_warnings(sp.csr_array(shifted))
    assert f"{scores_side}'s rows" in message and "row 1234 " in message
    (message,) = sum_warnings(sp.csr_array(narrow.astype(np.float64)))
    assert f"row {int(np.argmax(off))} " in message
