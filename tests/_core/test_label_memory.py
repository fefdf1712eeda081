"""Labels beside probabilities take no memory a row beyond their codes and row starts.

The one-hot rows of 1-D labels beside a 2-D ``predict_proba`` array are a CSR array whose
values are one read-only 1.0 read as many (a zero stride), so that the call's working
memory is the label codes and the row starts (8 bytes a row with int32 indices), not 16
(issue 40: ``np.ones(N)`` values as well).
"""

import tracemalloc

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import kernels
from sklearn_confusion_ext._core.labels import one_hot


def test_one_hot_values_take_no_memory_a_row():
    y = np.array([2, 0, 1, 1, 2])
    rows = one_hot(y, np.array([0, 1, 2]))
    assert rows.data.strides == (0,) and not rows.data.flags.writeable
    np.testing.assert_array_equal(rows.data, np.ones(5))
    np.testing.assert_array_equal(rows.indices, y)
    np.testing.assert_array_equal(rows.indptr, np.arange(6))
    assert rows.indices.dtype == rows.indptr.dtype == np.int32
    np.testing.assert_array_equal(rows.toarray(), np.eye(3)[y])
    np.testing.assert_array_equal(rows[1:4].toarray(), np.eye(3)[y[1:4]])


def test_one_hot_of_no_labels():
    rows = one_hot(np.array([], dtype=int), np.array([0, 1]))
    assert rows.shape == (0, 2) and rows.nnz == 0


@pytest.mark.parametrize("compiled", [True, False])
def test_the_working_memory_is_the_codes_and_row_starts(compiled):
    """The peak that tracemalloc sees during the call, at N = 500,000 (C = 4, float32):
    int32 codes and row starts, 8 bytes a row, and a fixed part under 2 bytes a row; the
    ``np.ones(N)`` values of before would add 8."""
    if compiled and kernels.COMPILED is None:
        pytest.skip("the compiled kernels are not built in this tree")
    rng = np.random.default_rng(0)
    n_samples = 500_000
    y = rng.integers(0, 4, n_samples)
    scores = rng.random((n_samples, 4), dtype=np.float32)
    scores /= scores.sum(axis=1, keepdims=True)
    old = kernels.COMPILED
    if not compiled:
        kernels.COMPILED = None
    try:
        expected = sce.transport_confusion_matrix(y[:1000], scores[:1000])  # first calls
        tracemalloc.start()
        try:
            matrix = sce.transport_confusion_matrix(y, scores)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    finally:
        kernels.COMPILED = old
    assert expected.shape == matrix.shape == (4, 4)
    reference = np.zeros((4, 4))
    np.add.at(reference, y, scores.astype(np.float64) / scores.sum(axis=1, keepdims=True,
                                                                  dtype=np.float64))
    np.testing.assert_allclose(matrix, reference, rtol=1e-5)
    if compiled:  # the NumPy path's chunks add their own (bounded) scratch
        assert peak / n_samples < 10.0, f"{peak / n_samples:.1f} bytes a row"


@pytest.mark.parametrize("case", ["zero-based", "negative", "narrow-labels", "gaps",
                                  "unsigned", "one-class", "reversed", "uint64",
                                  "range-ends-out-of-order"])
def test_label_codes_of_a_range_of_classes(case):
    """Codes of integer labels among a range of consecutive classes (``y - classes[0]``)
    equal the positions binary search finds; classes that are no range (gaps, another
    order) or 64-bit unsigned labels take the other paths, with the same codes."""
    from sklearn_confusion_ext._core import labels as module

    rng = np.random.default_rng(1)
    classes, y = {
        "zero-based": (np.arange(10), rng.integers(0, 10, 200_000)),
        "negative": (np.arange(-5, 5), rng.integers(-5, 5, 1_000)),
        "narrow-labels": (np.arange(-1_000, 10), rng.integers(0, 5, 1_000).astype(np.int8)),
        "gaps": (np.array([0, 2, 3]), np.array([3, 0, 2, 2])),
        "unsigned": (np.arange(3, dtype=np.uint8), np.array([2, 1, 0], dtype=np.uint16)),
        "one-class": (np.array([7]), np.array([7, 7])),
        "reversed": (np.array([2, 1, 0]), np.array([0, 1, 2, 2])),
        "uint64": (np.arange(4, dtype=np.uint64), np.array([3, 0, 1], dtype=np.uint64)),
        # the ends of a range, not in order between them (labels= gives this order)
        "range-ends-out-of-order": (np.array([0, 2, 1, 3]), np.array([1, 2, 3, 0, 0])),
    }[case]
    ranged = module._range_codes(y, classes, np.int32)
    assert (ranged is None) == (case in ("gaps", "reversed", "uint64",
                                         "range-ends-out-of-order"))
    codes = module.label_codes(y, classes, np.int32)
    assert codes.dtype == np.int32
    order = np.argsort(classes, kind="stable")
    np.testing.assert_array_equal(codes, order[np.searchsorted(classes[order], y)])
    np.testing.assert_array_equal(classes[codes], y)


def test_labels_beside_probabilities_of_a_negative_range():
    """A range of classes from -3 beside probabilities (codes ``y + 3``), over chunks of
    the codes: the matrix of the NumPy reference."""
    rng = np.random.default_rng(2)
    n_samples = 150_000  # more than two chunks of label_codes
    y = rng.integers(-3, 2, n_samples)
    scores = rng.dirichlet(np.ones(5), n_samples)
    matrix = sce.transport_confusion_matrix(y, scores)
    reference = np.zeros((5, 5))
    np.add.at(reference, y + 3, scores)
    np.testing.assert_allclose(matrix, reference, rtol=1e-10)
