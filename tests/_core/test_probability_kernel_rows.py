"""The kernel of labels beside probabilities on rows of 32 values and more (its float32 row
sums run four vectors of eight over 32 values a step, then one over eight, then one value
at a time): the NumPy reference's matrix, and every column's negative value refused."""

import numpy as np
import pytest
from kernel_rows import sum_rows_by_class

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import kernels

pytestmark = pytest.mark.skipif(kernels.COMPILED is None,
                                reason="the compiled kernels are not built in this tree")


def _both(function):
    """``function()`` with the compiled kernels, then with their NumPy references."""
    compiled = function()
    old, kernels.COMPILED = kernels.COMPILED, None
    try:
        return compiled, function()
    finally:
        kernels.COMPILED = old


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [31, 32, 75, 300])
@pytest.mark.parametrize("weighting", ["uniform", "pred"])
def test_wide_rows_equal_the_reference(dtype, n_classes, weighting):
    rng = np.random.default_rng(n_classes)
    n_samples = 4_000
    y = rng.integers(0, n_classes, n_samples)
    # rows of mass 1 to 4 (not probabilities: each is divided by its sum, which the
    # kernel takes), with a large value in the last columns of the vectors
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    scores[:, -1] += 3 * rng.random(n_samples).astype(dtype)
    scores[:, min(31, n_classes - 1)] += 2
    compiled, reference = _both(lambda: sce.transport_confusion_matrix(
        y, scores, weighting=weighting, labels=np.arange(n_classes)))
    tolerance = 1e-11 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(compiled, reference, rtol=0,
                               atol=tolerance * np.abs(reference).max())
    assert np.isclose(compiled.sum(), reference.sum(), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_negative_value_in_any_of_75_columns_is_refused(dtype):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 75, 200)
    scores = rng.dirichlet(np.ones(75), 200).astype(dtype)
    for column in range(75):
        bad = scores.copy()
        bad[150, column] = -1e-3
        with pytest.raises(ValueError, match="row 150"):
            sce.transport_confusion_matrix(y, bad, labels=np.arange(75))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [63, 64, 100, 181, 256])
@pytest.mark.parametrize("codes_type", [np.int32, np.int64])
@pytest.mark.parametrize("bad_row", [None, 0, 1_000, 2_999])
def test_rows_by_class_equal_rows_in_turn(dtype, n_classes, codes_type, bad_row):
    """Rows added class by class, a chunk at a time (the default where the output is
    larger than an L1 cache): the same sums to the last bit as in turn, the same first
    failing row and the same first row off 1, over several chunks and a range that starts
    and ends inside them."""
    rng = np.random.default_rng(n_classes)
    n_samples = 3_000
    codes = rng.integers(0, n_classes, n_samples).astype(codes_type)
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    scores[500] *= 2  # the first row off 1 (all are, but row 500 is far off)
    if bad_row is not None:
        scores[bad_row, n_classes // 2] = -1.0
    multipliers = rng.random(n_samples)
    for start, stop, weights, by_norm in [(0, n_samples, np.empty(0), False),
                                          (7, n_samples - 11, multipliers, True)]:
        in_turn = sum_rows_by_class(scores, codes, start, stop, weights, by_norm, 0.5,
                                    by_class=False)
        by_class = sum_rows_by_class(scores, codes, start, stop, weights, by_norm, 0.5,
                                     by_class=True)
        assert by_class[0][:2] == in_turn[0][:2]
        np.testing.assert_array_equal(by_class[0][2], in_turn[0][2])
        np.testing.assert_array_equal(by_class[1], in_turn[1])
        expected_stop = bad_row if bad_row is not None and start <= bad_row < stop else stop
        assert by_class[0][0] == expected_stop
        if expected_stop > start:  # every row before the failing one is summed
            counts = np.bincount(codes[start:expected_stop], minlength=n_classes)
            if not by_norm:
                np.testing.assert_allclose(by_class[1].sum(axis=1), counts, rtol=1e-4)


@pytest.mark.parametrize("n_classes, n_samples, bad_rows, chunk_size", [
    # C = 100: the rows added class by class, bad rows inside and between its chunks
    (100, 12_000, [5, 700, 5_000, 11_999], None),
    (100, 12_000, [5, 700, 5_000, 11_999], 1_000),
    # C = 1,000: the rows read in the order of their classes, bad rows inside its blocks
    (1_000, 3_000, [5, 700, 1_777, 2_999], None),
    (1_000, 3_000, [5, 700, 1_777, 2_999], 700)])
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_many_classes_with_bad_rows_equal_the_reference(n_classes, n_samples, bad_rows,
                                                          chunk_size, n_jobs, dtype):
    """Rows the kernel leaves to the reference (empty, tiny or huge norms), weights, chunks
    and threads, on both many-class paths: the NumPy reference's matrix."""
    rng = np.random.default_rng(9 if n_classes == 100 else 13)
    y = rng.integers(0, n_classes, n_samples)
    scores = rng.dirichlet(np.ones(n_classes), n_samples)
    scores[bad_rows] *= np.array([1e-30, 0.0, 1e25, 1e-35])[:, None]
    scores = scores.astype(dtype)
    weights = rng.random(n_samples)
    compiled, reference = _both(lambda: sce.transport_confusion_matrix(
        y, scores, sample_weight=weights, empty="skip", chunk_size=chunk_size,
        n_jobs=n_jobs, labels=np.arange(n_classes)))
    tolerance = 1e-11 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(compiled, reference, rtol=0,
                               atol=tolerance * np.abs(reference).max())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("codes_type", [np.int32, np.int64])
@pytest.mark.parametrize("classes", ["all", "one", "few"])
@pytest.mark.parametrize("bad_rows", [(), (0,), (1_234,), (1_234, 1_500), (2_499,)])
@pytest.mark.parametrize("filled", [False, True])
def test_rows_in_the_order_of_their_classes_equal_rows_in_turn(dtype, codes_type, classes,
                                                               bad_rows, filled):
    """C = 1,000 (from 768 classes on the rows are read in the order of their classes, a
    block at a time): the same sums to the last bit as in turn, the same first failing
    row and the same first row off 1, where a failing row lies inside its class's rows
    (found after rows further on of other classes were added: the output is put back and
    the rows summed in turn), on an output that starts at zero or not (then its rows are
    put back from a copy), over a range that starts and ends inside the rows; one class
    only, most classes empty, int64 codes, a slice of rows of a wider array."""
    rng = np.random.default_rng(len(bad_rows) + 10 * filled)
    n_samples, n_classes = 2_500, 1_000
    if classes == "all":
        codes = rng.integers(0, n_classes, n_samples)
    elif classes == "one":
        codes = np.full(n_samples, 617)
    else:  # 5 classes of 1,000: the rest empty
        codes = rng.choice([0, 3, 500, 998, 999], n_samples)
    codes = codes.astype(codes_type)
    wide = rng.random((n_samples, n_classes + 5)).astype(dtype)
    scores = wide[:, :n_classes]  # rows of adjacent values, the stride of a wider array
    scores /= scores.sum(axis=1, keepdims=True)
    scores[[300, 700]] *= 2.5  # rows off 1: the first one is named
    for row in bad_rows:
        scores[row, (row * 7) % n_classes] = -1.0
    multipliers = rng.random(n_samples)
    out = np.zeros((n_classes, n_classes))
    if filled:  # a first partial sum, a negative zero and an exact zero kept as they are
        out[codes[:40]] = rng.random((40, n_classes))
        out[codes[50], 3] = -0.0
    for start, stop, weights, by_norm in [(0, n_samples, np.empty(0), False),
                                          (7, n_samples - 11, multipliers, True)]:
        in_turn = sum_rows_by_class(scores, codes, start, stop, weights, by_norm, 0.5, out,
                                    by_class=False)
        in_order = sum_rows_by_class(scores, codes, start, stop, weights, by_norm, 0.5, out,
                                     by_class=True)
        assert in_order[0][:2] == in_turn[0][:2]
        np.testing.assert_array_equal(in_order[0][2], in_turn[0][2])
        assert in_order[1].tobytes() == in_turn[1].tobytes()  # -0.0 too
        failing = [row for row in bad_rows if start <= row < stop]
        expected_stop = min(failing) if failing else stop
        assert in_order[0][0] == expected_stop
        expected_off = 300 if start <= 300 < expected_stop else -1
        assert in_order[0][1] == expected_off
        if expected_stop > start and not by_norm:  # each summed row adds 1 to its row
            counts = np.bincount(codes[start:expected_stop], minlength=n_classes)
            np.testing.assert_allclose(in_order[1].sum(axis=1) - out.sum(axis=1), counts,
                                       rtol=1e-4, atol=1e-6)


def _row_sums_in_the_kernels_order(scores):
    """Each row's sum added in the order the kernel adds it (the contract that keeps its
    numbers the same to the last bit): float64, eight running sums over eight values a
    step, the rest onto the first, then ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    float32, four vectors of eight running sums over 32 values a step, then the first over
    eight, the four added lane by lane, the rest onto the first lane, then the same tree in
    float64 from the first pair on (the pairs after it in float32)."""
    dtype = scores.dtype.type
    n = scores.shape[1]
    n_wide = n - n % 8
    columns = [scores[:, j] for j in range(n)]
    if dtype is np.float64:
        sums = [np.zeros(len(scores)) for _ in range(8)]
        for j in range(n_wide):
            sums[j % 8] = sums[j % 8] + columns[j]
    else:
        vectors = [[np.zeros(len(scores), np.float32) for _ in range(8)] for _ in range(4)]
        j = 0
        while j + 32 <= n_wide:
            for k in range(32):
                vectors[k // 8][k % 8] = vectors[k // 8][k % 8] + columns[j + k]
            j += 32
        while j < n_wide:
            for k in range(8):
                vectors[0][k] = vectors[0][k] + columns[j + k]
            j += 8
        sums = [(vectors[0][k] + vectors[1][k]) + (vectors[2][k] + vectors[3][k])
                for k in range(8)]
    for j in range(n_wide, n):
        sums[0] = sums[0] + columns[j]
    if dtype is np.float64:
        return ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5])
                                                             + (sums[6] + sums[7]))
    wide = [s.astype(np.float64) for s in sums]
    return (((wide[0] + wide[1]) + (sums[2] + sums[3]).astype(np.float64))
            + ((sums[4] + sums[5]) + (sums[6] + sums[7])).astype(np.float64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [1, 2, 7, 8, 9, 13, 31, 32, 33, 40, 63, 100, 1_000])
def test_row_sums_are_added_in_the_kernels_order(dtype, n_classes):
    """The sum each row is divided by, bit for bit (the kernel reports it as the row off 1
    where every row is off 1, ``tolerance=-1``), is the sum in the order above: its
    accumulators, the remainder and the tree of the last additions (catches a reordered
    tree, a remainder added elsewhere, or the float32 pairs added in the other type).
    float32 takes that order only where the kernels were compiled with vector types."""
    if dtype is np.float32 and kernels.SMALL_SOFT_CLASSES == 0:
        pytest.skip("float32 rows are summed lane by lane without the compiler's vectors")
    rng = np.random.default_rng(n_classes)
    n_samples = 40
    # values of many magnitudes, so that another order of additions rounds otherwise (the
    # sums within float32's limits, 2^-20 to 2^20)
    scores = ((0.5 + rng.random((n_samples, n_classes)))
              * 10.0 ** rng.integers(-3, 3, (n_samples, n_classes))).astype(dtype)
    expected = _row_sums_in_the_kernels_order(scores)
    codes = rng.integers(0, n_classes, n_samples).astype(np.int32)
    for i in range(n_samples):
        (stop, off_row, off_sum), _ = sum_rows_by_class(scores, codes, i, i + 1, np.empty(0),
                                                        False, -1.0, by_class=False)
        assert (stop, off_row) == (i + 1, i)
        assert np.float64(off_sum).tobytes() == expected[i].tobytes(), i


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [10, 100, 1_000])
@pytest.mark.parametrize("by_class", [False, True])
def test_negative_zeros_and_negative_nans_are_not_negative_values(dtype, n_classes, by_class):
    """A -0.0 is not negative: its row is summed as with 0.0 (the sign bits of a row only
    send it to the exact test of its values; catches a row refused for a sign bit), in
    the vectors' columns and the remainder, on each path (in turn, by class, in class
    order); a NaN with its sign bit set fails as a NaN, not as a negative value, and a
    -1e-30 beside -0.0 values still fails."""
    rng = np.random.default_rng(n_classes + 1)
    n_samples = 2_000
    codes = rng.integers(0, n_classes, n_samples).astype(np.int32)
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    scores[:, [0, n_classes - 1]] = 0
    negative = scores.copy()
    negative[:, [0, n_classes - 1]] = -0.0
    assert np.signbit(negative[:, 0]).all()
    plain = sum_rows_by_class(scores, codes, 0, n_samples, np.empty(0), False, np.inf,
                              by_class=by_class)
    signed = sum_rows_by_class(negative, codes, 0, n_samples, np.empty(0), False, np.inf,
                               by_class=by_class)
    assert plain[0][:2] == signed[0][:2] == (n_samples, -1)
    assert plain[1].tobytes() == signed[1].tobytes()
    for value, column in [(-1e-30, n_classes // 2), (-1e-30, n_classes - 1),
                          (-np.nan, n_classes // 2)]:
        bad = negative.copy()
        bad[1_234, column] = value
        (stop, _, _), _ = sum_rows_by_class(bad, codes, 0, n_samples, np.empty(0), False,
                                            np.inf, by_class=by_class)
        assert stop == 1_234


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [64, 100, 181])
@pytest.mark.parametrize("chunk", [0, 1, 2])
def test_no_row_after_the_first_failing_one_is_checked(dtype, n_classes, chunk):
    """Rows added class by class check the next chunk's rows while they add this chunk's:
    the first failing row of a chunk ends its checks, so a later failing row is not the
    one named and a later row off 1 is not reported (catches the checks that go on past
    the failing row), in the first chunk, the second (checked beside the first's
    additions) and the last."""
    chunk_rows = 512 * 1024 // (n_classes * np.dtype(dtype).itemsize)
    n_samples = 3 * chunk_rows
    rng = np.random.default_rng(n_classes)
    codes = rng.integers(0, n_classes, n_samples).astype(np.int32)
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    scores /= scores.sum(axis=1, keepdims=True, dtype=dtype)
    first_bad = chunk * chunk_rows + chunk_rows // 3
    scores[first_bad, 3] = -1.0
    scores[first_bad + 5] *= 2  # off 1, after the failing row
    scores[first_bad + 10, 7] = np.nan
    for by_class in (True, False):
        (stop, off_row, _), matrix = sum_rows_by_class(
            scores, codes, 0, n_samples, np.empty(0), False, 1e-3, by_class=by_class)
        assert (stop, off_row) == (first_bad, -1)
        counts = np.bincount(codes[:first_bad], minlength=n_classes)
        np.testing.assert_allclose(matrix.sum(axis=1), counts, rtol=1e-4)
