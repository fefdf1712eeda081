"""The compiled kernels equal their NumPy references (sklearn_confusion_ext._core.kernels).

Every case runs twice, once with the compiled module and once with ``COMPILED = None`` (the
NumPy reference a never-built source tree runs); the results must agree to the rounding of
the scores' type. CI builds the package from its own files: there the kernels must exist.
"""

import copy
import functools
import os
import pickle
import warnings

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import kernels

pytestmark = pytest.mark.skipif(kernels.COMPILED is None and os.environ.get("CI") != "true",
                                reason="the compiled kernels are not built in this tree")

# The rounding of the scores' type, on matrices of a few thousand instances per cell.
TOLERANCE = {np.float64: 1e-11, np.float32: 2e-5}


class _Counting:
    """The compiled module, counting the calls of its kernels."""

    def __init__(self, module):
        self.module, self.calls = module, 0

    def __getattr__(self, name):
        def counted(*args):
            self.calls += 1
            return getattr(self.module, name)(*args)
        return counted


def both_paths(function, kernel_runs=True):
    """``function()`` with the compiled kernels and with their NumPy references, with the
    warnings each raised (their messages); ``kernel_runs``: the compiled path must call a
    kernel (else the comparison would compare the reference with itself)."""
    results = []
    counting = _Counting(kernels.COMPILED)
    for compiled in (counting, None):
        old, kernels.COMPILED = kernels.COMPILED, compiled
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                value = function()
        finally:
            kernels.COMPILED = old
        results.append((value, sorted({str(w.message) for w in caught})))
    assert counting.calls > 0 or not kernel_runs, "the compiled kernel never ran"
    return results


def test_ci_builds_the_kernels():
    """``pip install .`` compiles them; a CI run on the references would pass unnoticed."""
    assert kernels.COMPILED is not None, "the package was installed without its kernels"


def _targets(rng, n_samples, n_classes, dtype, empty_rows=False, scale=1.0):
    y = rng.integers(0, n_classes, n_samples)
    scores = (rng.dirichlet(np.full(n_classes, 0.5), n_samples) * scale).astype(dtype)
    if empty_rows:
        scores[rng.choice(n_samples, 3, replace=False)] = 0
    return y, scores


def _matrix(kind, y_true, y_pred, **keywords):
    function = (sce.transport_confusion_matrix if kind == "transport"
                else sce.subpixel_confusion_matrix)
    return function(y_true, y_pred, **keywords)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("labels_side", ["y_true", "y_pred"])
@pytest.mark.parametrize("kind", ["transport", "subpixel"])
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred", "callable"])
@pytest.mark.parametrize("sample_weight", [False, True])
@pytest.mark.parametrize("empty", [None, "skip", "null_class"])
def test_labels_beside_scores_equal_the_reference(dtype, labels_side, kind, weighting,
                                                  sample_weight, empty):
    rng = np.random.default_rng(7)
    n_samples, n_classes = 3_000, 9
    labels, scores = _targets(rng, n_samples, n_classes, dtype, empty_rows=empty is not None,
                              scale=3.0)
    y_true, y_pred = (labels, scores) if labels_side == "y_true" else (scores, labels)
    keywords = {"weighting": (lambda t, p: 1.0 + np.arange(t.shape[0]) % 3)
                if weighting == "callable" else weighting}
    if sample_weight:
        weights = rng.random(n_samples)
        weights[:50] = 0
        keywords["sample_weight"] = weights
    if empty is not None:
        keywords["empty"] = empty
    def call():
        return _matrix(kind, y_true, y_pred, **keywords)

    if empty == "null_class":  # only 0/1 indicator targets have a "none" class
        with pytest.raises(ValueError, match="all-zero rows"):
            call()
        kernels.COMPILED, old = None, kernels.COMPILED
        try:
            with pytest.raises(ValueError, match="all-zero rows"):
                call()
        finally:
            kernels.COMPILED = old
        return
    (compiled, compiled_warnings), (reference, reference_warnings) = both_paths(call)
    scale = np.abs(reference).max()
    np.testing.assert_allclose(compiled, reference, rtol=0, atol=TOLERANCE[dtype] * scale)
    assert compiled_warnings == reference_warnings


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred", "callable"])
@pytest.mark.parametrize("sample_weight", [False, True])
@pytest.mark.parametrize("rows", ["clean", "empty", "extreme", "proportional"])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("n_classes", [7, 40])
def test_soft_beside_soft_equal_the_reference(dtype, weighting, sample_weight, rows, order,
                                              n_classes):
    """The fused soft plans (:func:`soft_plan_parts`)."""
    rng = np.random.default_rng(17)
    n_samples = 2_500
    y_true = (rng.random((n_samples, n_classes)) * (rng.random((n_samples, n_classes)) < 0.7)
              + 0.01).astype(dtype)
    y_pred = rng.dirichlet(np.ones(n_classes), n_samples).astype(dtype) * 5
    keywords = {"weighting": (lambda t, p: 1.0 + np.arange(t.shape[0]) % 3)
                if weighting == "callable" else weighting}
    if sample_weight:
        weights = rng.random(n_samples)
        weights[:40] = 0
        keywords["sample_weight"] = weights
    if rows == "empty":
        y_pred[[0, 999, 2_499]] = 0
        keywords["empty"] = "skip"
    elif rows == "extreme":  # norms the kernel leaves to the reference, inside chunks
        y_true[[3, 1_500]] *= dtype(1e-30)
        y_pred[[4, 2_000]] *= dtype(1e25)
    elif rows == "proportional":  # no deficit: the plan is its diagonal
        y_pred[::2] = y_true[::2] * 3
    if order == "F":  # a pandas frame's columns: column-major
        y_true, y_pred = np.asfortranarray(y_true), np.asfortranarray(y_pred)
    (compiled, w1), (reference, w2) = both_paths(
        lambda: sce.transport_confusion_matrix(y_true, y_pred, **keywords))
    np.testing.assert_allclose(compiled, reference, rtol=0,
                               atol=TOLERANCE[dtype] * np.abs(reference).max())
    assert w1 == w2


@pytest.mark.parametrize("chunk_size", [None, 1, 13])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_soft_chunks_and_threads(chunk_size, n_jobs):
    rng = np.random.default_rng(2)
    y_true, y_pred = rng.random((3_000, 5)), rng.random((3_000, 5))
    y_true[1_000] = 0
    keywords = {"chunk_size": chunk_size, "n_jobs": n_jobs, "empty": "skip"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one instance skipped
        whole = sce.transport_confusion_matrix(y_true, y_pred, empty="skip")
        (compiled, _), (reference, _) = both_paths(
            lambda: sce.transport_confusion_matrix(y_true, y_pred, **keywords))
    np.testing.assert_allclose(compiled, reference, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(compiled, whole, rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("chunk_size", [None, 1, 7, 1000])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_chunks_threads_and_bad_rows_anywhere(chunk_size, n_jobs):
    """Rows the kernel leaves to the reference (empty, tiny or huge norms) at the start,
    inside and at the end of chunks and groups; the result never depends on the chunks or
    the threads beyond rounding."""
    rng = np.random.default_rng(3)
    labels, scores = _targets(rng, 5_000, 6, np.float64)
    scores[[0, 1, 700, 2_500, 4_999]] *= np.array([1e-200, 1e150, 0.0, 1e-40, 1e120])[:, None]
    keywords = {"chunk_size": chunk_size, "n_jobs": n_jobs, "empty": "skip"}
    (compiled, w1), (reference, w2) = both_paths(
        lambda: sce.transport_confusion_matrix(labels, scores, **keywords))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rows that do not sum to 1; one skipped
        whole = sce.transport_confusion_matrix(labels, scores, empty="skip")
    np.testing.assert_allclose(compiled, reference, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(compiled, whole, rtol=1e-12, atol=1e-9)
    assert w1 == w2


def _map_chunks_last_first(function, n_rows, step, n_jobs=None, chunks_per_thread=None):
    """``chunks.map_chunks`` as threads may run it: every chunk's function called from the
    last chunk to the first, the results still yielded in row order."""
    starts = list(range(0, n_rows, step)) if np.ndim(step) == 0 else [int(s) for s in step]
    slices = [slice(start, stop) for start, stop in zip(starts, [*starts[1:], n_rows])]
    results = [function(rows) for rows in reversed(slices)]
    yield from reversed(results)


@pytest.mark.parametrize("path", ["compiled", "reference", "sparse scores", "many classes"])
def test_the_row_off_1_named_does_not_depend_on_the_order_chunks_are_read(path,
                                                                        monkeypatch):
    """Rows off 1 in the first and in later chunks, the chunks read last first (as threads
    may read them): one warning, of the first row off 1, and the same matrix. (A chunk
    that warned as it was read named a later row.)"""
    import scipy.sparse as sp

    from sklearn_confusion_ext._core import chunks

    n_classes = 769 if path == "many classes" else 4
    rng = np.random.default_rng(5)
    labels, scores = _targets(rng, 3_000, n_classes, np.float64)
    scores[[7, 1_500, 2_999]] *= np.array([2.0, 3.0, 5.0])[:, None]
    given = sp.csr_array(scores) if path == "sparse scores" else scores
    keywords = {"chunk_size": 100, "labels": np.arange(n_classes)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the rows off 1, read in order
        expected = sce.transport_confusion_matrix(labels, given, **keywords)
    monkeypatch.setattr(chunks, "map_chunks", _map_chunks_last_first)
    if path == "reference":
        monkeypatch.setattr(kernels, "COMPILED", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        matrix = sce.transport_confusion_matrix(labels, given, **keywords)
    messages = [str(warning.message) for warning in caught]
    assert len(messages) == 1 and "(row 7 sums to 2)" in messages[0], messages
    assert caught[0].filename == __file__  # said of the caller's line
    np.testing.assert_allclose(matrix, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("order", [(7, 1_500, 2_999), (1_500, 7, 2_999), (2_999, 1_500, 7)])
def test_the_first_row_off_1_of_blocks_offered_in_any_order(order):
    """The call's record of rows off 1: inside ``deferred`` (threads) the smallest row
    offered, in whatever order the blocks offer, warned of once at the end; outside, the
    first offer at once, and nothing after a warning; after an error, nothing."""
    from sklearn_confusion_ext._core.target_kinds import FirstRowOffOne

    sums = {7: 2.0, 1_500: 3.0, 2_999: 5.0}
    record = FirstRowOffOne()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with record.deferred():
            for row in order:
                record.offer("y_pred", row, sums[row])
            assert not caught
        record.offer("y_pred", 0, 9.0)
    assert len(caught) == 1 and "rows do not sum to 1 (row 7 sums to 2)" in str(caught[0].message)
    assert not record.wants(0)
    record = FirstRowOffOne()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ZeroDivisionError), record.deferred():
            record.offer("y_pred", order[0], sums[order[0]])
            raise ZeroDivisionError
        assert not caught
        record.offer("y_pred", 2_999, 5.0)  # out of the context: at once
    assert len(caught) == 1 and "(row 2999 sums to 5)" in str(caught[0].message)
    copied = pickle.loads(pickle.dumps(record))  # targets sent to processes
    assert copied.warned and not copied.wants(0) and copy.deepcopy(copied).warned


@pytest.mark.parametrize("n_classes", [10, 100, 1_000])
def test_a_float32_row_off_1_is_named_with_its_exact_sum_on_every_path(n_classes):
    """The sum the warning prints is the row's exact sum (``math.fsum``), the same from the
    compiled kernel (eight float32 running sums) and the NumPy reference (pairwise): the
    two printed different 6th digits (5.0442 and 5.04419 at C = 10)."""
    import math

    for seed in range(60):
        rng = np.random.default_rng(seed)
        scores = rng.random((3, n_classes)).astype(np.float32)
        codes = rng.integers(0, n_classes, 3)
        (_, w1), (_, w2) = both_paths(lambda codes=codes, scores=scores: (
            sce.transport_confusion_matrix(codes, scores, labels=np.arange(n_classes))))
        exact = math.fsum(scores[0].astype(float).tolist())
        assert w1 == w2 and len(w1) == 1 and f"(row 0 sums to {exact:.6g})" in w1[0]

@pytest.mark.parametrize("path", ["device", "sparse scores", "calibration"])
def test_every_reader_of_probabilities_names_the_row_off_1_with_its_exact_sum(path,
                                                                          monkeypatch):
    """The device sums (PyTorch CPU tensors sent down a GPU's route), the sparse rows'
    reading and the calibration
    measures' checked pass print the exact sum of the row they name, the first of two off
    1 after two that sum to 1."""
    import math

    import scipy.sparse as sp

    rng = np.random.default_rng(56)
    scores = rng.random((4, 10)).astype(np.float32)
    scores[:2] = [0.5, 0.25, 0.125, 0.125, 0, 0, 0, 0, 0, 0]  # exactly 1 in any order
    codes = rng.integers(0, 10, 4)
    if path == "device":
        torch = pytest.importorskip("torch")
        from sklearn_confusion_ext._core import array_api

        monkeypatch.setattr(array_api, "is_cpu_tensor", lambda array: False)
        codes, given = torch.asarray(codes), torch.asarray(scores)
    else:
        given = sp.csr_array(scores) if path == "sparse scores" else scores
    function = (sce.expected_calibration_error if path == "calibration"
                else sce.transport_confusion_matrix)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function(codes, given, labels=np.arange(10))
    exact = math.fsum(scores[2].astype(float).tolist())
    assert [str(w.message).split(":")[0] for w in caught] == [
        f"{'y_prob' if path == 'calibration' else 'y_pred'}'s rows do not sum to 1 "
        f"(row 2 sums to {exact:.6g})"]

@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_call_that_raises_warns_of_no_row_off_1(n_jobs):
    """A row off 1 in the first chunk and a NaN in a later one: the NaN's error alone, on
    the compiled path as on the reference (which checks a chunk's values first)."""
    rng = np.random.default_rng(6)
    labels, scores = _targets(rng, 3_000, 4, np.float64)
    scores[3] *= 2
    scores[2_000, 1] = np.nan
    for compiled in (kernels.COMPILED, None):
        old, kernels.COMPILED = kernels.COMPILED, compiled
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                with pytest.raises(ValueError, match="first at row 2000"):
                    sce.transport_confusion_matrix(labels, scores, chunk_size=100,
                                                   n_jobs=n_jobs)
        finally:
            kernels.COMPILED = old


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, -1e-30, 1e308])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_bad_values_raise_the_same_error(bad, dtype):
    rng = np.random.default_rng(5)
    labels, scores = _targets(rng, 2_000, 5, dtype)
    scores[1_234, 3] = bad
    if bad == 1e308:
        scores[1_234] = np.finfo(dtype).max  # a row whose mass overflows its type
    messages = []
    for compiled in (kernels.COMPILED, None):
        old, kernels.COMPILED = kernels.COMPILED, compiled
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    value = sce.transport_confusion_matrix(labels, scores)
                    messages.append(("result", value))
                except ValueError as error:
                    messages.append(("error", str(error)))
        finally:
            kernels.COMPILED = old
    assert messages[0][0] == messages[1][0]
    if messages[0][0] == "result":  # a huge row, normalized by the reference path
        np.testing.assert_allclose(messages[0][1], messages[1][1], rtol=1e-6)
    else:
        assert messages[0] == messages[1]
    if bad != 1e308:
        assert messages[0][0] == "error" and "row 1234" in messages[0][1]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [13, 40])
def test_a_negative_value_in_any_column_is_refused(dtype, n_classes):
    """Each lane of the kernel's vectors of eight values, and its remainder, checks the
    sign (catches a lane of the mask of negative values left out)."""
    rng = np.random.default_rng(6)
    labels, scores = _targets(rng, 300, n_classes, dtype)
    for column in range(n_classes):
        bad = scores.copy()
        bad[123, column] = -1e-3
        for compiled in (kernels.COMPILED, None):
            old, kernels.COMPILED = kernels.COMPILED, compiled
            try:
                with pytest.raises(ValueError, match="row 123"):
                    sce.transport_confusion_matrix(labels, bad)
            finally:
                kernels.COMPILED = old


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("labels_side", ["y_true", "y_pred"])
def test_the_warning_names_the_first_row_not_summing_to_one(dtype, labels_side):
    """The kernel finds the first row off 1 itself (catches a wrong row in the message)."""
    rng = np.random.default_rng(7)
    labels, scores = _targets(rng, 3_000, 12, dtype)
    scores[2_000] *= 2
    scores[2_500] *= 3
    pair = (labels, scores) if labels_side == "y_true" else (scores, labels)
    for _, messages in both_paths(lambda: sce.transport_confusion_matrix(*pair)):
        assert len(messages) == 1 and "(row 2000 sums to 2)" in messages[0], messages


@pytest.mark.parametrize("layout", ["fortran", "strided", "reversed", "int8", "int64-codes"])
def test_other_layouts_take_the_reference_or_agree(layout):
    rng = np.random.default_rng(11)
    labels, scores = _targets(rng, 1_500, 4, np.float64)
    if layout == "fortran":
        scores = np.asfortranarray(scores)
    elif layout == "strided":
        scores = np.repeat(scores, 2, axis=1)[:, ::2]
    elif layout == "reversed":  # negative strides
        scores = scores[::-1, ::-1]
    elif layout == "int8":
        scores = rng.integers(0, 5, scores.shape).astype(np.int8)
        scores[:, 0] += 1
    else:
        labels = np.array(["ant", "bee", "cat", "dog"])[labels]
    (compiled, _), (reference, _) = both_paths(
        lambda: sce.transport_confusion_matrix(labels, scores),
        kernel_runs=layout != "int8")  # small integers are read as float32 blocks
    np.testing.assert_allclose(compiled, reference, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("kind", ["probabilities", "soft"])
def test_every_public_function_agrees(kind):
    """Every registered function that takes soft targets, on labels beside probabilities
    (a classifier's predict_proba) and on soft labels, both paths."""
    from test_common import REGISTRY, call_on, random_targets, target_inputs

    names = sorted(name for name, entry in REGISTRY.items() if "soft" in entry.targets)
    assert len(names) >= 16
    rng = np.random.default_rng(0)
    for name in names:
        inputs = target_inputs(REGISTRY[name].target_params,
                               random_targets(kind, rng, n_samples=300))
        (compiled, _), (reference, _) = both_paths(
            functools.partial(call_on, name, inputs),
            # prevalence_ranking ranks prevalences (no matrix); the SCM bounds of soft rows
            # have no compiled kernel.
            kernel_runs=name != "prevalence_ranking"
            and not (kind == "soft" and name == "subpixel_confusion_matrix"))
        _assert_same(compiled, reference, name)


def _assert_same(a, b, name):
    """Results (numbers, arrays, tuples, dicts, strings) equal to float rounding."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), name
        for key in a:
            _assert_same(a[key], b[key], f"{name}[{key}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), name
        for x, y in zip(a, b):
            _assert_same(x, y, name)
    elif isinstance(a, str):
        assert a == b, name
    else:
        np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                                   rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("n_values", [1, 7, 1000, 200_000])
def test_bootstrap_counts_equal_the_reference(n_values, monkeypatch):
    """The bootstrap's counts of one resample (``count_draws``) are np.bincount's, exactly:
    the same resampled weights with and without the kernels, whatever the batches (the
    draw kernel, which counts its own draws, is set aside: ``test_resampling_draws``)."""
    from sklearn_confusion_ext._core import resampling

    monkeypatch.setattr(resampling, "_FUSED", (None,))

    def weights():
        return np.concatenate(list(resampling.instance_weights(
            np.random.default_rng(3), n_values, 40 if n_values < 10 ** 5 else 3, False)))

    (compiled, _), (reference, _) = both_paths(weights)
    np.testing.assert_array_equal(compiled, reference)
    assert compiled.dtype == np.float64
    np.testing.assert_array_equal(compiled.sum(axis=1), n_values)


def _layout(array, layout):
    """``array``'s values in another memory layout (a pandas frame's columns are
    Fortran-ordered): the kernels read their rows with the arrays' strides."""
    if layout == "fortran":
        return np.asfortranarray(array)
    if layout == "strided":  # every other column of a wider array
        return np.repeat(array, 2, axis=1)[:, ::2]
    if layout == "reversed-columns":
        return np.ascontiguousarray(array[:, ::-1])[:, ::-1]
    return array


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("sides", ["labels-vs-scores", "soft-true", "soft-pred", "soft-both"])
@pytest.mark.parametrize("layout", ["fortran", "strided", "reversed-columns"])
@pytest.mark.parametrize("chunk_size", [None, 3_000, 97])
@pytest.mark.parametrize("bad_rows", [False, True])
def test_other_layouts_equal_row_major(dtype, sides, layout, chunk_size, bad_rows):
    """Rows whose values are not adjacent (on either side of soft labels): the same matrix
    as the row-major array over chunks of thousands of rows, with the same rows left to the
    reference (empty, tiny or huge norms) inside and at the end of chunks, and the same
    warnings and sample weights. (Rows copied a tile at a time into a row-major buffer
    were tried: no faster on the 2-core machine, so the kernels read the strides.)"""
    rng = np.random.default_rng(17)
    n_classes = 6
    stretch = max(16, 65536 // (n_classes * np.dtype(dtype).itemsize))  # rows
    n_samples = 4 * stretch + 5
    labels, scores = _targets(rng, n_samples, n_classes, dtype)
    other = rng.dirichlet(np.full(n_classes, 0.5), n_samples).astype(dtype)
    if bad_rows:  # after rows the kernel summed, then further on and at the end
        edges = [2 * stretch - 1, 2 * stretch, 3 * stretch + 1, n_samples - 1]
        big = 1e30 if dtype == np.float64 else 1e20
        scores[edges] *= np.array([1e-30, big, 0.0, 0.0], dtype=dtype)[:, None]
    weights = rng.random(n_samples)
    if sides == "labels-vs-scores":
        y_true, y_pred = labels, scores
        other_layout = (labels, _layout(scores, layout))
    else:
        y_true, y_pred = scores, other
        other_layout = (_layout(scores, layout) if sides != "soft-pred" else scores,
                 _layout(other, layout) if sides != "soft-true" else other)
    keywords = {"chunk_size": chunk_size, "empty": "skip", "sample_weight": weights}

    def matrix(y_true, y_pred):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = sce.transport_confusion_matrix(y_true, y_pred, **keywords)
        return value, sorted({str(w.message) for w in caught})

    row_major, row_major_warnings = matrix(y_true, y_pred)
    (compiled, compiled_warnings), (reference, _) = both_paths(lambda: matrix(*other_layout))
    tolerance = TOLERANCE[dtype]
    np.testing.assert_allclose(compiled[0], row_major, rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(compiled[0], reference[0], rtol=tolerance, atol=tolerance)
    assert compiled[1] == row_major_warnings


class _Naming(_Counting):
    """The compiled module, recording the names of the kernels called."""

    def __init__(self, module):
        super().__init__(module)
        self.names = set()

    def __getattr__(self, name):
        self.names.add(name)
        return super().__getattr__(name)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
@pytest.mark.parametrize("n_classes", [2, 20, 300])
@pytest.mark.parametrize("bad_rows", [False, True])
@pytest.mark.parametrize("sliced", [False, True])
def test_column_major_soft_labels_are_read_column_by_column(dtype, weighting, n_classes,
                                                            bad_rows, sliced):
    """Both soft targets column-major (a pandas frame's columns), whole or rows of a
    longer one (a Dask partition of it): the column kernel (``soft_plan_parts_columns``)
    runs, over several tiles of rows, and gives the reference's matrix and the row-major
    array's; rows left to the reference (an empty row, tiny and huge norms) at a tile's
    last and first rows and far into the array."""
    from sklearn_confusion_ext._matrices import transport

    rng = np.random.default_rng(23)
    tile = transport._COLUMN_TILE_ROWS
    n_samples = 2 * tile + 300 if n_classes < 300 else tile + 300
    y_true = (rng.dirichlet(np.full(n_classes, 0.4), n_samples) * 3).astype(dtype)
    y_pred = rng.dirichlet(np.full(n_classes, 0.4), n_samples).astype(dtype)
    if bad_rows:
        big = 1e30 if dtype == np.float64 else 1e20
        y_pred[tile - 1] = 0
        y_true[tile] *= dtype(1e-30)
        y_pred[tile + 7] *= dtype(big)
        y_true[n_samples - 2] = 0
    keywords = {"weighting": weighting, "empty": "skip",
                "sample_weight": rng.random(n_samples)}
    row_major = sce.transport_confusion_matrix(y_true, y_pred, **keywords)
    columns = np.asfortranarray(y_true), np.asfortranarray(y_pred)
    if sliced:  # rows 3 .. 3 + n_samples of a longer column-major array
        columns = tuple(np.asfortranarray(np.pad(y, ((3, 11), (0, 0))))[3:3 + n_samples]
                        for y in columns)
        assert not columns[0].flags.f_contiguous and columns[0].strides[0] == y_true.itemsize
    naming = _Naming(kernels.COMPILED)
    old, kernels.COMPILED = kernels.COMPILED, naming
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns
            compiled = sce.transport_confusion_matrix(*columns, **keywords)
    finally:
        kernels.COMPILED = old
    assert naming.names == {"soft_plan_parts_columns"}
    kernels.COMPILED, old = None, kernels.COMPILED
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference = sce.transport_confusion_matrix(*columns, **keywords)
    finally:
        kernels.COMPILED = old
    scale = np.abs(reference).max()
    np.testing.assert_allclose(compiled, reference, rtol=0, atol=TOLERANCE[dtype] * scale)
    np.testing.assert_allclose(compiled, row_major, rtol=0, atol=TOLERANCE[dtype] * scale)


@pytest.mark.parametrize("sides", ["labels-vs-scores", "soft-both"])
def test_other_layouts_name_the_same_bad_row(sides):
    """A NaN far into a Fortran-ordered array: the same error, naming the row."""
    rng = np.random.default_rng(19)
    labels, scores = _targets(rng, 5_000, 4, np.float64)
    scores[4_097, 2] = np.nan
    y_true = labels if sides == "labels-vs-scores" else np.asfortranarray(
        rng.dirichlet(np.ones(4), 5_000))
    messages = []
    for compiled in (kernels.COMPILED, None):
        old, kernels.COMPILED = kernels.COMPILED, compiled
        try:
            with pytest.raises(ValueError, match="row 4097") as error:
                sce.transport_confusion_matrix(y_true, np.asfortranarray(scores))
            messages.append(str(error.value))
        finally:
            kernels.COMPILED = old
    assert messages[0] == messages[1]


def _matrix_by(module, function):
    """``function()`` with ``kernels.COMPILED`` set to ``module`` (None: the references)."""
    old, kernels.COMPILED = kernels.COMPILED, module
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns
            return function()
    finally:
        kernels.COMPILED = old


@pytest.mark.skipif(kernels.SMALL_SOFT_CLASSES == 0,
                    reason="the one-pass kernel of few classes is not built here")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [2, 3, 4, 5, 8, 10, 13, 16])
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
@pytest.mark.parametrize("sample_weight", [False, True])
@pytest.mark.parametrize("rows", ["clean", "zero", "extreme"])
def test_few_classes_of_soft_labels_in_one_pass(dtype, n_classes, weighting, sample_weight,
                                                rows, monkeypatch):
    """Soft labels beside soft labels at 16 classes or fewer: the one-pass kernel
    (``soft_plan_sums_small``, its outer products added in float64 in the pass) alone
    runs, equals the NumPy reference, and gives the diagonal of :func:`soft_plan_parts`
    and the chunk's matrix product to the last bit (the same sums in the same order),
    its off-diagonal to the rounding of float64 (float32: of float32, from its own
    float32 products). Rows that do not sum to 1, some equal (no deficit), zero rows and
    norms the kernel leaves to the reference, at an odd row of a pair and at the last
    row (whose read must not pass the array's end)."""
    from sklearn_confusion_ext._matrices import transport

    rng = np.random.default_rng(41 + n_classes)
    n_samples = 1_201
    y_true, y_pred = _soft_rows(rng, n_samples, n_classes, dtype, 5)
    keywords = {"weighting": weighting, "empty": "skip"}
    if sample_weight:
        weights = rng.random(n_samples)
        weights[:30] = 0
        keywords["sample_weight"] = weights
    if rows == "zero":
        y_true[[0, 601, n_samples - 1]] = 0
        y_pred[[8, 600]] = 0
    elif rows == "extreme":
        y_true[[3, 700]] *= dtype(1e-30)
        y_pred[[n_samples - 1]] *= dtype(1e25 if dtype == np.float64 else 1e20)

    def matrix():
        return sce.transport_confusion_matrix(y_true, y_pred, **keywords)

    naming = _Naming(kernels.COMPILED)
    compiled = _matrix_by(naming, matrix)
    assert naming.names == {"soft_plan_sums_small"}
    reference = _matrix_by(None, matrix)
    scale = np.abs(reference).max()
    np.testing.assert_allclose(compiled, reference, rtol=0, atol=TOLERANCE[dtype] * scale)
    monkeypatch.setattr(transport, "SMALL_SOFT_CLASSES", 0)
    naming = _Naming(kernels.COMPILED)
    parts = _matrix_by(naming, matrix)
    assert naming.names == {"soft_plan_parts"}
    assert np.array_equal(np.diag(compiled), np.diag(parts))
    np.testing.assert_allclose(compiled, parts, rtol=0,
                               atol=(1e-13 if dtype == np.float64 else 1e-6) * scale)


@pytest.mark.skipif(kernels.SMALL_SOFT_CLASSES == 0,
                    reason="the one-pass kernel of few classes is not built here")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["columns-of-wider", "every-other-row", "reversed",
                                    "broadcast-row"])
@pytest.mark.parametrize("n_classes", [2, 3, 10])
def test_few_classes_of_other_row_strides(dtype, layout, n_classes):
    """The one-pass kernel reads rows of adjacent values a stride apart (the first
    columns of a wider array, every other row, rows in reverse, one row repeated): each
    row's vectors read past its end only inside the array (the last row, at the highest
    address, is copied first), and the matrix is the reference's."""
    rng = np.random.default_rng(5)
    wide = rng.random((2 * 501, n_classes + 3)).astype(dtype) + 0.05
    other = rng.random((2 * 501, n_classes + 3)).astype(dtype) + 0.05
    if layout == "columns-of-wider":
        y_true, y_pred = wide[:501, :n_classes], other[:501, :n_classes]
    elif layout == "every-other-row":
        y_true, y_pred = wide[::2, :n_classes], other[::2, :n_classes]
    elif layout == "reversed":
        y_true, y_pred = wide[500::-1, :n_classes], other[500::-1, :n_classes]
    else:
        y_true = np.broadcast_to(wide[0, :n_classes], (501, n_classes))
        y_pred = other[:501, :n_classes]

    def matrix():
        return sce.transport_confusion_matrix(y_true, y_pred, sample_weight=np.arange(501.0))

    naming = _Naming(kernels.COMPILED)
    compiled = _matrix_by(naming, matrix)
    assert "soft_plan_sums_small" in naming.names
    reference = _matrix_by(None, matrix)
    np.testing.assert_allclose(compiled, reference, rtol=0,
                               atol=TOLERANCE[dtype] * np.abs(reference).max())


def _soft_layout(rng, array):
    """``array`` as C-, F-ordered, reversed (negative stride), every other row of a
    larger one, the first columns of a wider one, or one row broadcast."""
    layout = int(rng.integers(0, 6))
    if layout == 1:
        return np.asfortranarray(array)
    if layout == 2:
        return array[::-1].copy()[::-1]
    if layout == 3:
        return np.repeat(array, 2, axis=0)[::2]
    if layout == 4:
        return np.concatenate([array, np.ones((len(array), 2), array.dtype)], axis=1)[
            :, :array.shape[1]]
    if layout == 5 and len(array):
        return np.broadcast_to(array[0], array.shape)
    return array


@pytest.mark.skipif(kernels.SMALL_SOFT_CLASSES == 0,
                    reason="the one-pass kernel of few classes is not built here")
def test_few_classes_of_soft_labels_on_random_inputs():
    """Random soft rows at 1 to 17 classes (either side of the kernel's 16) and 1 to 3 rows
    (the kernel reads rows two at a time) or more, float32 and float64, zero rows, rows
    far from summing to 1 (1e-300 to 1e300, 1e307), proportional rows, every weighting,
    weights with zeros or of 1e-100 to 1e100, every layout: the matrix (or the error) of
    the compiled kernels is the NumPy reference's."""
    rng = np.random.default_rng(1617)
    used = 0
    for _ in range(300):
        n_classes = int(rng.integers(1, 18))
        n_samples = int(rng.choice([1, 2, 3, 4, 5, 33, 257]))
        dtype = [np.float32, np.float64][int(rng.integers(0, 2))]
        y_true = rng.random((n_samples, n_classes)) * (rng.random((n_samples, n_classes)) < .6)
        y_pred = rng.dirichlet(np.ones(n_classes), n_samples)
        case = int(rng.integers(0, 4))
        if case == 1:
            scales = 10.0 ** rng.integers(-300, 300, (2, n_samples, 1))
            y_true, y_pred = y_true * scales[0], y_pred * scales[1]
        elif case == 2:
            y_true, y_pred = y_true * 1e307, y_pred * 1e307
        elif case == 3:
            y_pred[::2] = y_true[::2] * 2
        with np.errstate(all="ignore"):
            y_true = np.nan_to_num(y_true.astype(dtype), posinf=0)
            y_pred = np.nan_to_num(y_pred.astype(dtype), posinf=0)
        y_true, y_pred = _soft_layout(rng, y_true), _soft_layout(rng, y_pred)
        keywords = {"weighting": str(rng.choice(["uniform", "true", "pred"])),
                    "empty": str(rng.choice(["skip", "null_class"]))}
        if rng.random() < 0.5:
            keywords["sample_weight"] = (rng.random(n_samples) * (rng.random(n_samples) < .7)
                                         if rng.random() < 0.5
                                         else 10.0 ** rng.integers(-100, 100, n_samples))

        def matrix(y_true=y_true, y_pred=y_pred, keywords=keywords):
            try:
                return sce.transport_confusion_matrix(y_true, y_pred, **keywords)
            except ValueError as exc:
                return str(exc)

        naming = _Naming(kernels.COMPILED)
        compiled = _matrix_by(naming, matrix)
        used += "soft_plan_sums_small" in naming.names
        reference = _matrix_by(None, matrix)
        if isinstance(reference, str):
            assert compiled == reference
            continue
        finite = np.isfinite(reference)
        np.testing.assert_array_equal(np.isfinite(compiled), finite)
        np.testing.assert_array_equal(compiled[~finite], reference[~finite])
        scale = np.abs(reference[finite]).max(initial=0)
        np.testing.assert_allclose(compiled[finite], reference[finite], rtol=0,
                                   atol=TOLERANCE[dtype] * scale)
    assert used > 100


def _soft_rows(rng, n_samples, n_classes, dtype, every):
    """Soft rows, every ``every``-th row of ``y_pred`` proportional to ``y_true``'s (no
    deficit)."""
    y_true = (rng.random((n_samples, n_classes)) * (rng.random((n_samples, n_classes)) < .7)
              + 0.01).astype(dtype) * 3
    y_pred = rng.dirichlet(np.ones(n_classes), n_samples).astype(dtype)
    y_pred[::every] = y_true[::every] * 2
    return y_true, y_pred


def _soft_rows_with_faults(rng, n_samples, n_classes, dtype, bad):
    """Soft rows (some proportional: no deficit) with rows that fail a check: ``bad`` holds
    (row, fault) pairs, the fault 0 a zero row, 1 a negative value, 2 a NaN, 3 a norm
    beyond the type's limits."""
    y_true, y_pred = _soft_rows(rng, n_samples, n_classes, dtype, 7)
    for row, fault in bad:
        if fault == 0:
            y_true[row] = 0
        elif fault == 1:
            y_pred[row, -1] = -1e-6  # the row's sum stays positive: only the sign fails it
        elif fault == 2:
            y_true[row, n_classes // 2] = np.nan
        else:
            y_pred[row] *= dtype(1e30 if dtype == np.float32 else 1e300)
    return y_true, y_pred


def _soft_kernel_arguments(dtype, weights, norm_weighting):
    from sklearn_confusion_ext._matrices import transport

    return (weights, norm_weighting, *transport._EQUAL_MASS_LIMITS[np.dtype(dtype)],
            transport.DEFICIT_TOLERANCE)


def _column_strided(array, how):
    """``array``'s values with a row's values not adjacent: Fortran order, every other
    column of a wider array, or columns in reverse (a negative step)."""
    if how == "fortran":
        return np.asfortranarray(array)
    if how == "every-other-column":
        wide = np.full((array.shape[0], 2 * array.shape[1]), 7, array.dtype)
        wide[:, ::2] = array
        return wide[:, ::2]
    return np.ascontiguousarray(array[:, ::-1])[:, ::-1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_classes", [1, 2, 3, 8, 15, 16, 17, 40])
@pytest.mark.parametrize("layout", ["C", "strided", "reversed", "columns-of-wider"])
@pytest.mark.parametrize("norm_weighting", [0, 1, 2])
def test_soft_kernel_copies_agree(dtype, n_classes, layout, norm_weighting):
    """Each soft kernel's copy for this processor's vector extensions (on x86 with AVX
    and FMA: 8-lane float32 rows in ``soft_plan_sums_small``, the C loop of
    ``soft_plan_parts`` compiled for AVX) beside its baseline copy, and ``soft_plan_parts``
    of the same rows with their values not adjacent (Fortran order, every other column,
    columns in reverse, on both sides or on one: the loop's copy for any step) beside its
    copy for adjacent values, chunk by chunk (starts and stops inside the kernel's blocks
    of 32 rows), with rows that fail a check at the first, an odd, an even, a block's last
    and first rows and the last row: the same row returned, the same diagonal, deficits
    and excesses to the last bit, and the same off-diagonal to float64's rounding
    (float32: to the rounding of the deficit's mass, whose lanes are summed in another
    order)."""
    compiled = kernels.COMPILED
    rng = np.random.default_rng(7 + n_classes)
    n_samples = 301
    weights = rng.random(n_samples) * 3
    weights[:9] = 0
    arguments = _soft_kernel_arguments(dtype, weights, norm_weighting)
    for bad in ([], [(0, 0)], [(5, 1)], [(31, 2), (32, 0)], [(32, 3), (100, 1), (161, 2)],
                [(n_samples - 1, 1)], [(1, 1)], [(n_samples - 2, 2)]):
        y_true, y_pred = _soft_rows_with_faults(rng, n_samples, n_classes, dtype, bad)
        if layout == "strided":
            y_true, y_pred = np.repeat(y_true, 2, axis=0)[::2], np.repeat(y_pred, 2, axis=0)[::2]
        elif layout == "reversed":
            y_true, y_pred = y_true[::-1].copy()[::-1], y_pred[::-1].copy()[::-1]
        elif layout == "columns-of-wider":
            y_true = np.pad(y_true, ((0, 0), (0, 3)), constant_values=7)[:, :n_classes]
            y_pred = np.pad(y_pred, ((0, 0), (0, 3)), constant_values=7)[:, :n_classes]
        strided = {how: (_column_strided(y_true, how), _column_strided(y_pred, how))
                   for how in ("fortran", "every-other-column", "reversed-columns")}
        if n_classes > 1:
            assert all(y.strides[1] != y.itemsize for pair in strided.values() for y in pair)
        runs = [(True, (y_true, y_pred)), (False, (y_true, y_pred)),
                (True, strided["fortran"]), (False, strided["fortran"]),
                (True, strided["every-other-column"]), (True, strided["reversed-columns"]),
                (False, strided["reversed-columns"]),
                (True, (y_true, strided["fortran"][1])),
                (True, (strided["every-other-column"][0], y_pred)),
                (False, (strided["reversed-columns"][0], strided["fortran"][1]))]
        for start, stop in [(0, n_samples), (1, 200), (33, 34), (30, 95), (n_samples - 2,
                                                                            n_samples)]:
            results = []
            for extensions, targets in runs:
                deficits = np.full((stop - start, n_classes), np.nan, dtype)
                excesses = np.full((stop - start, n_classes), np.nan, dtype)
                diagonal = np.zeros(n_classes)
                first = compiled.soft_plan_parts(*targets, start, stop, *arguments, deficits,
                                                 excesses, diagonal, extensions)
                done = first - start
                results.append((first, diagonal, deficits[:done], excesses[:done]))
            for other in results[1:]:
                assert other[0] == results[0][0]
                for a, b in zip(results[0][1:], other[1:]):
                    np.testing.assert_array_equal(a, b)
            first, diagonal, deficits, excesses = results[0]
            product = deficits.astype(np.float64).T @ excesses.astype(np.float64)
            if n_classes > compiled.SMALL_CLASSES:
                continue
            sums = []
            for extensions in (True, False):
                small_diagonal, off = np.zeros(n_classes), np.zeros((n_classes, n_classes))
                stop_row = compiled.soft_plan_sums_small(y_true, y_pred, start, stop,
                                                         *arguments, small_diagonal, off,
                                                         extensions)
                assert stop_row == first
                np.testing.assert_array_equal(small_diagonal, diagonal)
                scale = max(np.abs(product).max(initial=0), 1e-300)
                np.testing.assert_allclose(off, product, rtol=0, atol=(
                    1e-6 if dtype == np.float32 else 1e-14) * scale)
                sums.append(off)
            if dtype == np.float64:  # the same code on both sides
                np.testing.assert_array_equal(sums[0], sums[1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["every-other-column", "reversed-columns", "fortran-beside-C",
                                    "C-beside-every-other-column", "reversed-rows-and-columns"])
@pytest.mark.parametrize("n_classes", [3, 17, 40, 200])
@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
@pytest.mark.parametrize("bad_rows", [False, True])
def test_soft_labels_of_any_column_step(dtype, layout, n_classes, weighting, bad_rows,
                                        monkeypatch):
    """Soft labels beside soft labels whose values are not adjacent on one side or both
    (every other column, columns in reverse, Fortran order beside C order, rows and
    columns in reverse), with sample weights (some zero), in chunks of 97 rows:
    ``soft_plan_parts`` reads them in place, and the matrix is the NumPy reference's to
    the rounding of the rows' type and the C-ordered copy's (the one-pass kernel of few
    classes set aside: it reads adjacent values only) to the last bit. With rows the
    kernel leaves to the reference (empty, tiny and huge norms) inside and at the ends of
    chunks, the C-ordered copy's to rounding only: NumPy sums the rows it is left in
    another order where their values are not adjacent."""
    from sklearn_confusion_ext._matrices import transport

    rng = np.random.default_rng(59 + n_classes)
    n_samples = 1_000
    y_true, y_pred = _soft_rows(rng, n_samples, n_classes, dtype, 5)
    if bad_rows:
        big = dtype(1e25 if dtype == np.float64 else 1e20)
        y_true[[0, 96, 500]] *= np.array([0, 1e-30, 1e-30], dtype)[:, None]
        y_pred[[97, 501, n_samples - 1]] *= np.array([big, 0, 1e-30], dtype)[:, None]
    weights = rng.random(n_samples)
    weights[:50] = 0
    keywords = {"weighting": weighting, "empty": "skip", "sample_weight": weights,
                "chunk_size": 97}
    if layout == "every-other-column":
        targets = (_column_strided(y_true, layout), _column_strided(y_pred, layout))
    elif layout == "reversed-columns":
        targets = (_column_strided(y_true, layout), _column_strided(y_pred, layout))
    elif layout == "fortran-beside-C":
        targets = (np.asfortranarray(y_true), y_pred)
    elif layout == "C-beside-every-other-column":
        targets = (y_true, _column_strided(y_pred, "every-other-column"))
    else:
        targets = (y_true[::-1, ::-1].copy()[::-1, ::-1], y_pred[::-1, ::-1].copy()[::-1, ::-1])
    assert any(y.strides[1] != y.itemsize for y in targets)

    def matrix(y_true, y_pred):
        return lambda: sce.transport_confusion_matrix(y_true, y_pred, **keywords)

    naming = _Naming(kernels.COMPILED)
    compiled = _matrix_by(naming, matrix(*targets))
    assert naming.names == {"soft_plan_parts"}
    reference = _matrix_by(None, matrix(*targets))
    np.testing.assert_allclose(compiled, reference, rtol=0,
                               atol=TOLERANCE[dtype] * np.abs(reference).max())
    monkeypatch.setattr(transport, "SMALL_SOFT_CLASSES", 0)
    naming = _Naming(kernels.COMPILED)
    c_order = _matrix_by(naming, matrix(y_true, y_pred))
    assert naming.names == {"soft_plan_parts"}
    if bad_rows:
        np.testing.assert_allclose(compiled, c_order, rtol=0,
                                   atol=TOLERANCE[dtype] * np.abs(reference).max())
    else:
        np.testing.assert_array_equal(compiled, c_order)


def _plan_parts_call(dtype=np.float64, n_rows=10, n_classes=4, pred_shape=None, rows=None,
                     n_multipliers=0, deficit_shape=None, excess_shape=None,
                     diagonal_length=None, byte_offset=False):
    """``soft_plan_parts`` of clean rows, one argument's shape changed by a keyword."""
    rng = np.random.default_rng(0)
    y_true = rng.random((n_rows, n_classes)).astype(dtype) + 0.1
    y_pred = rng.random(pred_shape or (n_rows, n_classes)).astype(dtype) + 0.1
    if byte_offset:  # values 1.5 values apart: a stride that is not a whole value
        raw = np.zeros(n_rows * n_classes * 3 * np.dtype(dtype).itemsize // 2 + 64, np.uint8)
        size = np.dtype(dtype).itemsize
        y_pred = np.lib.stride_tricks.as_strided(
            raw.view(dtype), (n_rows, n_classes), (n_classes * 3 * size // 2, 3 * size // 2))
    start, stop = rows or (0, n_rows)
    deficits = np.zeros(deficit_shape or (stop - start, n_classes), dtype)
    excesses = np.zeros(excess_shape or (stop - start, n_classes), dtype)
    diagonal = np.zeros(n_classes if diagonal_length is None else diagonal_length)
    return kernels.COMPILED.soft_plan_parts(
        y_true, y_pred, start, stop, *_soft_kernel_arguments(dtype, np.ones(n_multipliers), 0),
        deficits, excesses, diagonal)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("wrong, message", [
    ({"pred_shape": (10, 5)}, r"y_pred of shape \(10, 5\) beside y_true of shape \(10, 4\)"),
    ({"pred_shape": (9, 4)}, r"y_pred of shape \(9, 4\)"),
    ({"deficit_shape": (10, 5)}, r"deficits of shape \(10, 5\) \(expected at least 10 rows "
                                 r"of 4\)"),
    ({"deficit_shape": (9, 4)}, r"deficits of shape \(9, 4\)"),
    ({"excess_shape": (10, 3)}, r"excesses of shape \(10, 3\)"),
    ({"excess_shape": (3, 4)}, r"excesses of shape \(3, 4\)"),
    ({"diagonal_length": 5}, r"diagonal of length 5 \(expected 4\)"),
    ({"rows": (2, 12)}, r"rows 2:12 of 10"),
    ({"rows": (-1, 4)}, r"rows -1:4 of 10"),
    ({"n_multipliers": 7}, r"7 multipliers for rows up to 10"),
    ({"byte_offset": True}, r"strides are whole values"),
])
def test_soft_plan_parts_refuses_arguments_that_do_not_fit(dtype, wrong, message):
    """An internal kernel, but one that reads and writes without bounds checks: arguments
    whose shapes do not fit together raise a ValueError naming them (the rows' loop once
    took another loop there), and the right shapes pass (where the rows are clean, every
    row is summed)."""
    assert _plan_parts_call(dtype) == 10
    assert _plan_parts_call(dtype, n_multipliers=10) == 10
    assert _plan_parts_call(dtype, rows=(3, 7), deficit_shape=(6, 4)) == 7
    with pytest.raises(ValueError, match=message):
        _plan_parts_call(dtype, **wrong)
