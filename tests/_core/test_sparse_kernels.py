"""The transport plans of two scipy.sparse targets: the compiled kernel
(``_core/_sparse_kernels.pyx``) equals the NumPy reference, and both equal the dense path.

The kernel-against-reference cases run each call twice, with the compiled module and with
``SPARSE_COMPILED = None`` (what a never-built source tree runs), and must agree to the
rounding of float64 (rtol 1e-12, no absolute slack); the sparse-against-dense cases hold
whichever path runs (the dense rows are an independent implementation).
"""

import dataclasses
import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import kernels

needs_kernel = pytest.mark.skipif(
    kernels.SPARSE_COMPILED is None and os.environ.get("CI") != "true",
    reason="the compiled sparse kernel is not built in this tree")

FUNCTIONS = {"transport": sce.transport_confusion_matrix,
             "subpixel": sce.subpixel_confusion_matrix}
WEIGHTINGS = {"uniform": "uniform", "true": "true", "pred": "pred",
              "callable": lambda y_true, y_pred: np.arange(y_true.shape[0]) % 3 / 2.0}


class _Counting:
    """The compiled module, counting the calls of its kernel."""

    def __init__(self, module):
        self.module, self.calls = module, 0

    def sparse_plan_sums(self, *args):
        self.calls += 1
        return self.module.sparse_plan_sums(*args)


def both_paths(function, counting=None):
    """``function()`` (its result, or the message of the ``ValueError`` it raised) with the
    compiled kernel and with the NumPy reference; the kernel must have run (unless the
    targets were refused before any row was summed, or ``counting`` is given: the caller
    checks its count)."""
    results = []
    checked, counting = counting is None, counting or _Counting(kernels.SPARSE_COMPILED)
    for compiled in (counting, None):
        old, kernels.SPARSE_COMPILED = kernels.SPARSE_COMPILED, compiled
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                results.append(function())
        except ValueError as error:
            results.append(str(error))
        finally:
            kernels.SPARSE_COMPILED = old
    assert counting.calls > 0 or isinstance(results[0], str) or not checked, \
        "the compiled kernel never ran"
    return results


def assert_equal_results(first, second, rtol=1e-12, atol=0.0):
    if isinstance(first, str) or isinstance(second, str):
        assert first == second
        return
    if isinstance(first, (tuple, list)):
        assert len(first) == len(second)
        for a, b in zip(first, second):
            assert_equal_results(a, b, rtol, atol)
        return
    np.testing.assert_allclose(first, second, rtol=rtol, atol=atol)


def targets(seed, n_samples=120, n_classes=9, soft=False, empty_rows=True, density=0.3):
    """Two CSR arrays of 0/1 indicators (or soft values) with rows of no label."""
    rng = np.random.default_rng(seed)
    sides = []
    for _ in range(2):
        values = (rng.random((n_samples, n_classes)) < density) * \
            (rng.random((n_samples, n_classes)) * 5 if soft else 1.0)
        if empty_rows:
            values[rng.random(n_samples) < 0.1] = 0
        else:
            values[np.arange(n_samples), rng.integers(0, n_classes, n_samples)] += 1
        sides.append(sp.csr_array(values))
    return sides


@needs_kernel
def test_ci_builds_the_sparse_kernel():
    """``pip install .`` compiles it; a CI run on the reference would pass unnoticed."""
    assert kernels.SPARSE_COMPILED is not None, "the package was installed without it"


@needs_kernel
@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("weighting", WEIGHTINGS)
@pytest.mark.parametrize("empty", ["null_class", "skip", "error"])
@pytest.mark.parametrize("soft", [False, True], ids=["indicators", "soft"])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "sample_weight"])
def test_kernel_equals_reference(function, weighting, empty, soft, weighted):
    """Every weighting, empty= policy (errors name the same rows), sample weights, chunk
    sizes and threads: the kernel's matrices equal the reference's."""
    y_true, y_pred = targets(len(weighting) * 7 + len(empty) * 3 + 2 * soft + weighted,
                             soft=soft)
    sample_weight = np.random.default_rng(1).random(y_true.shape[0]) * 3 if weighted else None
    for chunk_size, n_jobs in [(None, 1), (7, 2), (1, 1), (None, None)]:
        kernel, reference = both_paths(lambda c=chunk_size, j=n_jobs: FUNCTIONS[function](
            y_true, y_pred, weighting=WEIGHTINGS[weighting], empty=empty,
            sample_weight=sample_weight, chunk_size=c, n_jobs=j))
        assert_equal_results(kernel, reference)


@needs_kernel
@pytest.mark.parametrize("function", FUNCTIONS)
def test_kernel_equals_reference_on_many_classes_and_long_rows(function):
    """Rows of up to 40 labels among 300 classes (a row's deficits and excesses fill
    its buffers), and tiny and huge masses (subnormal norms are divided, not inverted)."""
    y_true, y_pred = targets(7, n_samples=400, n_classes=300, soft=True, density=0.1)
    y_true.data[:50] *= 1e-318  # rows whose norm's reciprocal overflows
    y_pred.data[-50:] *= 1e300
    kernel, reference = both_paths(lambda: FUNCTIONS[function](
        y_true, y_pred, weighting="true", empty="skip", n_jobs=1))
    assert_equal_results(kernel, reference)


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
@pytest.mark.parametrize("empty", ["null_class", "skip"])
@pytest.mark.filterwarnings("ignore:.*were skipped")
def test_sparse_equals_dense(function, weighting, empty):
    """The sparse path (kernel or reference, whichever this tree runs) equals the dense
    path on the same values, "none" class included."""
    y_true, y_pred = targets(3, soft=False)
    sample_weight = np.random.default_rng(2).random(y_true.shape[0])
    sparse = FUNCTIONS[function](y_true, y_pred, weighting=weighting, empty=empty,
                                 sample_weight=sample_weight, chunk_size=11)
    dense = FUNCTIONS[function](y_true.toarray(), y_pred.toarray(), weighting=weighting,
                                empty=empty, sample_weight=sample_weight)
    assert_equal_results(sparse, dense, atol=1e-13)
    assert np.max(sparse) > 1  # a matrix of values, not of zeros


def test_hand_computed_plan_and_none_class():
    """One instance of each case, by hand: labels {0, 1} against predictions {1, 2} (half
    of class 0's mass moves to class 2, class 1 is found), no label beside a prediction
    (the "none" row), a label beside no prediction (the "none" column), both empty (the
    corner), weighted 1, 2, 3, 4."""
    y_true = sp.csr_array(np.array([[1, 1, 0], [0, 0, 0], [0, 0, 1], [0, 0, 0]], float))
    y_pred = sp.csr_array(np.array([[0, 1, 1], [1, 0, 0], [0, 0, 0], [0, 0, 0]], float))
    matrix = sce.transport_confusion_matrix(y_true, y_pred, sample_weight=[1, 2, 3, 4])
    np.testing.assert_array_equal(matrix, [[0, 0, 0.5, 0], [0, 0.5, 0, 0], [0, 0, 0, 3],
                                           [2, 0, 0, 4]])
    lower, upper = sce.subpixel_confusion_matrix(y_true, y_pred, sample_weight=[1, 2, 3, 4])
    np.testing.assert_array_equal(lower, matrix)  # one deficit and one excess: one plan
    np.testing.assert_array_equal(upper, matrix)


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("weighting", ["uniform", "true"])
def test_proportional_rows_have_no_off_diagonal_mass(function, weighting):
    """Equation 9: a prediction proportional to its label (here by factors whose
    normalized rows differ from the label's by rounding) is its diagonal; the deficits of
    rounding noise, below 1e-12 of the mass, move nothing."""
    rng = np.random.default_rng(4)
    # (scipy.sparse.random_array is newer than the oldest supported SciPy)
    y_true = sp.csr_array(sp.random(300, 8, density=0.5, random_state=rng, format="csr"))
    y_true.data[:] = rng.integers(1, 20, y_true.nnz) / rng.integers(1, 20, y_true.nnz)
    y_pred = y_true.copy()
    y_pred.data *= np.repeat(rng.random(300) * 7, np.diff(y_pred.indptr))
    result = FUNCTIONS[function](y_true, y_pred, weighting=weighting, empty="skip")
    for matrix in result if isinstance(result, tuple) else (result,):
        np.testing.assert_array_equal(matrix - np.diag(np.diag(matrix)), 0)
        assert np.diag(matrix)[:8].sum() > 100


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.filterwarnings("ignore:.*were skipped")
def test_hostile_sparse_inputs(function):
    """Duplicate entries (summed, as validation always did), unsorted indices, int64
    indices, COO and CSC input and rows of no label give the matrix of the dense values."""
    y_true, y_pred = targets(5, soft=True, n_samples=60)
    expected = FUNCTIONS[function](y_true.toarray(), y_pred.toarray(), empty="skip")
    # y_true's entries, each split into two duplicates, in reversed order in each row
    coo = y_true.tocoo()
    halves = np.concatenate([coo.data / 4, coo.data * 3 / 4])
    duplicated = sp.coo_array((halves[::-1], (np.tile(coo.row, 2)[::-1],
                                              np.tile(coo.col, 2)[::-1])), shape=y_true.shape)
    unsorted = y_pred.copy()
    for row in range(unsorted.shape[0]):
        start, stop = unsorted.indptr[row], unsorted.indptr[row + 1]
        unsorted.indices[start:stop] = unsorted.indices[start:stop][::-1].copy()
        unsorted.data[start:stop] = unsorted.data[start:stop][::-1].copy()
    unsorted.has_sorted_indices = False
    wide = y_pred.copy()  # set after construction: older SciPy narrows them to int32
    wide.indices, wide.indptr = wide.indices.astype(np.int64), wide.indptr.astype(np.int64)
    assert wide.indices.dtype == np.int64
    for true_side, pred_side in [(duplicated, unsorted), (duplicated.tocsc(), wide),
                                 (sp.csr_matrix(y_true), sp.coo_matrix(y_pred))]:
        result = FUNCTIONS[function](true_side, pred_side, empty="skip", chunk_size=13)
        assert_equal_results(result, expected, atol=1e-13)


def test_empty_matrices_and_rows_without_labels():
    """Zero rows are refused as before; rows with no label on either side fill the "none"
    class only; a matrix with no stored entry is all corner."""
    with pytest.raises(ValueError, match="y_true is empty"):
        sce.transport_confusion_matrix(sp.csr_array((0, 3)), sp.csr_array((0, 3)))
    nothing = sp.csr_array((5, 3))
    matrix = sce.transport_confusion_matrix(nothing, nothing, sample_weight=[1, 1, 1, 1, 2])
    expected = np.zeros((4, 4))
    expected[3, 3] = 6
    np.testing.assert_array_equal(matrix, expected)
    labels = sp.csr_array(np.array([[0, 1, 1], [0, 0, 0]], float))
    matrix = sce.transport_confusion_matrix(nothing[:2], labels)
    np.testing.assert_array_equal(matrix[3], [0, 0.5, 0.5, 1])
    with pytest.raises(ValueError, match=r"all-zero rows in y_true \(rows \[0, 1\]\)"):
        sce.transport_confusion_matrix(nothing[:2], labels, empty="error")


@needs_kernel
@pytest.mark.parametrize("bounds", [False, True], ids=["plans", "bounds"])
@pytest.mark.parametrize("defect", ["unsorted", "duplicate", "out_of_range"])
def test_rows_that_are_not_canonical_go_to_the_reference(bounds, defect):
    """Targets built without validation (a private door): from a row whose indices are not
    sorted, repeat a column or leave the columns the kernel stops, and the reference sums
    the rest of the chunk (out of range: the kernel never writes there)."""
    from sklearn_confusion_ext._core.targets import check_targets
    from sklearn_confusion_ext._matrices.transport import (
        _bounds_block,
        _plan_block,
        _TransportInstances,
    )

    y_true, y_pred = targets(11, soft=True, n_samples=50, n_classes=6)
    checked = check_targets(y_true, y_pred)
    unsorted = checked.y_pred.copy()
    start, stop = unsorted.indptr[17], unsorted.indptr[18]
    assert stop - start > 1
    if defect == "unsorted":
        unsorted.indices[start:stop] = unsorted.indices[start:stop][::-1].copy()
        unsorted.data[start:stop] = unsorted.data[start:stop][::-1].copy()
    elif defect == "duplicate":
        unsorted.indices[start + 1] = unsorted.indices[start]
    else:
        unsorted.indices[stop - 1] = 6
    left = (np.zeros(6), np.zeros((6, 6)), np.zeros((0, 0)), np.zeros(6), np.zeros(6),
            np.zeros(1))
    assert kernels.SPARSE_COMPILED.sparse_plan_sums(
        unsorted.indptr, unsorted.indices, unsorted.data, unsorted.indptr, unsorted.indices,
        unsorted.data, 10, 30, checked.pred_norm, checked.pred_norm, np.ones(20), 1e-12,
        False, *left) == 17
    if defect == "out_of_range":
        return  # the reference would index out of bounds too: only the kernel's stop
    instances = _TransportInstances(dataclasses.replace(checked, y_pred=unsorted),
                                    {"weighting": "true", "empty": "skip"}, 1, 25)
    block = _bounds_block if bounds else _plan_block
    kernel, reference = both_paths(lambda: instances.sum(block, 1))
    assert_equal_results(kernel[0], reference[0])
    assert kernel[1] == reference[1]


@needs_kernel
def test_kernel_refuses_arrays_of_inconsistent_shapes():
    """The kernel writes into its sums by the indices it reads: a call whose arrays do not
    fit is refused before any write."""
    y = sp.csr_array(np.eye(3))
    ones = np.ones(3)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        kernels.SPARSE_COMPILED.sparse_plan_sums(
            y.indptr, y.indices, y.data, y.indptr, y.indices, y.data, 0, 4, ones, ones,
            np.ones(4), 1e-12, False, np.zeros(3), np.zeros((3, 3)), np.zeros((0, 0)),
            np.zeros(3), np.zeros(3), np.zeros(1))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        kernels.SPARSE_COMPILED.sparse_plan_sums(
            y.indptr, y.indices, y.data, y.indptr, y.indices, y.data, 0, 3, ones, ones,
            np.ones(3), 1e-12, True, np.zeros(3), np.zeros((3, 3)), np.zeros((0, 0)),
            np.zeros(3), np.zeros(3), np.zeros(1))


@needs_kernel
@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
def test_labels_beside_sparse_scores(function, weighting):
    """1-D labels beside sparse scores (a one-hot CSR side and a CSR side, both ways): the
    kernel's matrices and warnings equal the reference's."""
    rng = np.random.default_rng(6)
    labels = rng.integers(0, 5, 200)
    values = rng.random((200, 5)) * (rng.random((200, 5)) < 0.5)
    values[np.arange(200), labels] += 0.5
    scores = sp.csr_array(values)
    for y_true, y_pred in [(labels, scores), (scores, labels)]:
        results, counting = [], _Counting(kernels.SPARSE_COMPILED)
        for compiled in (counting, None):
            old, kernels.SPARSE_COMPILED = kernels.SPARSE_COMPILED, compiled
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    value = FUNCTIONS[function](y_true, y_pred, weighting=weighting)
            finally:
                kernels.SPARSE_COMPILED = old
            results.append((value, [str(w.message) for w in caught]))
        (kernel, kernel_warnings), (reference, reference_warnings) = results
        assert_equal_results(kernel, reference)
        assert kernel_warnings == reference_warnings and kernel_warnings
        assert counting.calls > 0


def _registry_cases():
    from test_common import cases

    return cases(kinds=("multilabel", "soft"))


@needs_kernel
def test_every_public_function_of_sparse_targets_gives_the_reference_result():
    """Every registered public function taking 2-D targets, on CSR inputs (its registered
    random values, weighted where it takes weights): the same result with the kernel and
    with the reference; the kernel runs for the functions built on the TCM."""
    from test_common import REGISTRY, assert_same, call_on, reference

    counting = _Counting(kernels.SPARSE_COMPILED)
    names = set()
    for case in _registry_cases():
        name, kind = case.values
        inputs, weights = reference(name, kind)
        inputs = {key: sp.csr_array(value) if np.ndim(value) == 2 else value
                  for key, value in inputs.items()}
        weighted = {"sample_weight": weights} if REGISTRY[name].sample_weight else {}
        before = counting.calls
        kernel, reference_result = both_paths(
            lambda n=name, i=inputs, w=weighted: call_on(n, i, **w), counting)
        assert_same(kernel, reference_result, atol=0, where=f"{name}({kind})")
        if counting.calls > before:
            names.add(name)
    assert {"transport_confusion_matrix", "subpixel_confusion_matrix"} <= names
    assert len(names) > 10
