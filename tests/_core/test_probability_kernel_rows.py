"""The kernel of labels beside probabilities on rows of 32 values and more (its float32 row
sums run four vectors of eight over 32 values a step, then one over eight, then one value
at a time): the NumPy reference's matrix, and every column's negative value refused."""

import numpy as np
import pytest
from kernel_rows import rows_one_call_each, sum_rows_by_class

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
@pytest.mark.parametrize("n_classes", [1, 2, 7, 8, 9, 31, 32, 33, 64, 100, 181, 1_000])
@pytest.mark.parametrize("codes_type", [np.int32, np.int64])
@pytest.mark.parametrize("bad_rows", [(), (0,), (7,), (500, 900), (1_199,)])
def test_rows_in_one_pass_equalrows_one_call_each(dtype, n_classes, codes_type, bad_rows):
    """One pass over the rows (each row's checked sum in the same loop as the addition of
    the row before it) against the kernel on one row at a time: the same matrix to the
    last bit (-0.0 kept), the same first failing row and the same first row off 1 with
    its sum, over a range that starts at a failing row, ends at one or holds two, rows of
    a wider array (a row stride), an output that is not zero at the start, weights and
    ``by_norm`` (catches the sum of the wrong row of the two, a failing row named one off,
    the last row added to the wrong class or not at all, and the values after the last
    multiple of 8 or 32 left out of the additions)."""
    rng = np.random.default_rng(n_classes + 7 * len(bad_rows))
    n_samples = 1_200
    codes = rng.integers(0, n_classes, n_samples).astype(codes_type)
    wide = rng.random((n_samples, n_classes + 3)).astype(dtype)
    scores = wide[:, :n_classes]
    scores /= scores.sum(axis=1, keepdims=True)
    scores[[300, 700]] *= 2.5  # rows off 1: the first one in the range is named
    for row in bad_rows:
        scores[row, (row * 7) % n_classes] = -1.0
    multipliers = rng.random(n_samples)
    start_out = np.zeros((n_classes, n_classes))
    start_out[codes[:40]] = rng.random((40, n_classes))
    start_out[codes[50], 0] = -0.0
    for start, stop, weights, by_norm in [(0, n_samples, np.empty(0), False),
                                          (7, n_samples - 11, multipliers, True),
                                          (299, 301, np.empty(0), False)]:
        one_pass = sum_rows_by_class(scores, codes, start, stop, weights, by_norm, 0.5,
                                     start_out)
        each = start_out.copy()
        expected = rows_one_call_each(scores, codes, start, stop, weights, by_norm, 0.5,
                                       each)
        assert one_pass[0][:2] == expected[:2]
        np.testing.assert_array_equal(one_pass[0][2], expected[2])
        assert one_pass[1].tobytes() == each.tobytes()
        failing = [row for row in bad_rows if start <= row < stop]
        assert one_pass[0][0] == (min(failing) if failing else stop)
        assert one_pass[0][1] == (300 if start <= 300 < one_pass[0][0] else -1)


@pytest.mark.parametrize("n_classes, n_samples, bad_rows, chunk_size", [
    # bad rows inside and between the chunks of the call
    (100, 12_000, [5, 700, 5_000, 11_999], None),
    (100, 12_000, [5, 700, 5_000, 11_999], 1_000),
    (1_000, 3_000, [5, 700, 1_777, 2_999], None),
    (1_000, 3_000, [5, 700, 1_777, 2_999], 700)])
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_many_classes_with_bad_rows_equal_the_reference(n_classes, n_samples, bad_rows,
                                                          chunk_size, n_jobs, dtype):
    """Rows the kernel leaves to the reference (empty, tiny or huge norms), weights, chunks
    and threads, at 100 and 1,000 classes: the NumPy reference's matrix."""
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
                                                        False, -1.0)
        assert (stop, off_row) == (i + 1, i)
        assert np.float64(off_sum).tobytes() == expected[i].tobytes(), i


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [10, 100, 1_000])
def test_negative_zeros_and_negative_nans_are_not_negative_values(dtype, n_classes):
    """A -0.0 is not negative: its row is summed as with 0.0 (the sign bits of a row only
    send it to the exact test of its values; catches a row refused for a sign bit), in
    the vectors' columns and the remainder; a NaN with its sign bit set fails as a NaN,
    not as a negative value, and a -1e-30 beside -0.0 values still fails."""
    rng = np.random.default_rng(n_classes + 1)
    n_samples = 2_000
    codes = rng.integers(0, n_classes, n_samples).astype(np.int32)
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    scores[:, [0, n_classes - 1]] = 0
    negative = scores.copy()
    negative[:, [0, n_classes - 1]] = -0.0
    assert np.signbit(negative[:, 0]).all()
    plain = sum_rows_by_class(scores, codes, 0, n_samples, np.empty(0), False, np.inf)
    signed = sum_rows_by_class(negative, codes, 0, n_samples, np.empty(0), False, np.inf)
    assert plain[0][:2] == signed[0][:2] == (n_samples, -1)
    assert plain[1].tobytes() == signed[1].tobytes()
    for value, column in [(-1e-30, n_classes // 2), (-1e-30, n_classes - 1),
                          (-np.nan, n_classes // 2)]:
        bad = negative.copy()
        bad[1_234, column] = value
        (stop, _, _), _ = sum_rows_by_class(bad, codes, 0, n_samples, np.empty(0), False,
                                            np.inf)
        assert stop == 1_234


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [10, 100, 1_000])
@pytest.mark.parametrize("first_bad", [0, 1, 1_000, 2_998])
def test_no_row_after_the_first_failing_one_is_checked(dtype, n_classes, first_bad):
    """Each row's checks run beside the addition of the row before it: the first failing
    row ends the pass after the rows before it, a later failing row is not the one named
    and a later row off 1 is not reported (catches the checks that go on past the failing
    row, or a failing row that stops the pass before the row before it is added), at the
    first row, the second, inside and the last but one."""
    n_samples = 3_000
    rng = np.random.default_rng(n_classes)
    codes = rng.integers(0, n_classes, n_samples).astype(np.int32)
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    scores /= scores.sum(axis=1, keepdims=True, dtype=dtype)
    scores[first_bad, 3 % n_classes] = -1.0
    scores[first_bad + 1] *= 2  # off 1, after the failing row
    scores[min(first_bad + 10, n_samples - 1), 7 % n_classes] = np.nan
    (stop, off_row, _), matrix = sum_rows_by_class(scores, codes, 0, n_samples, np.empty(0),
                                                   False, 1e-3)
    assert (stop, off_row) == (first_bad, -1)
    counts = np.bincount(codes[:first_bad], minlength=n_classes)
    np.testing.assert_allclose(matrix.sum(axis=1), counts, rtol=1e-4)
