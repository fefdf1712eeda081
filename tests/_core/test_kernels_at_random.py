"""Random differential tests of three compiled paths against their references: labels
beside probabilities at 768 classes and more (the rows read in the order of their classes),
soft labels beside soft labels at few classes (``soft_plan_sums_small``, ``soft_plan_parts``)
and the resampled intervals' reused matrices. Each case is drawn from a seeded generator:
classes, rows, layouts, rows the kernels leave to the reference, weights and chunks."""

import warnings

import numpy as np
import pytest
from kernel_rows import rows_one_call_each, sum_rows_by_class

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import kernels, resampling

pytestmark = pytest.mark.skipif(kernels.COMPILED is None,
                                reason="the compiled kernels are not built in this tree")

TOLERANCE = {np.float32: 2e-5, np.float64: 1e-11}


def _outcome(function):
    """``function()``'s matrix or error text, and its warnings' texts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("matrix", function())
        except (ValueError, TypeError) as error:
            result = ("error", f"{type(error).__name__}: {error}")
    return result, [str(warning.message) for warning in caught]


def _both(function):
    """:func:`_outcome` with the compiled kernels, then with their NumPy references."""
    compiled = _outcome(function)
    old, kernels.COMPILED = kernels.COMPILED, None
    try:
        return compiled, _outcome(function)
    finally:
        kernels.COMPILED = old


def _same_outcome(compiled, reference, tolerance):
    """The same error, or the same warnings, word for word (a row off 1 is named with its
    exact sum, however each path summed it), and the same matrix to ``tolerance`` of its
    largest cell. A call that raises warns of no row off 1 on either path."""
    (kind, value), compiled_warnings = compiled
    (reference_kind, reference_value), reference_warnings = reference
    assert kind == reference_kind, (value, reference_value)
    assert compiled_warnings == reference_warnings
    if kind == "error":
        assert value == reference_value
        assert not any("do not sum to 1" in one for one in compiled_warnings)
        return
    scale = np.abs(reference_value).max()
    np.testing.assert_allclose(value, reference_value, rtol=0, atol=tolerance * scale)


def _spoil(rng, rows, n_bad, positions):
    """``n_bad`` rows at ``positions`` (or anywhere) that fail a check or are left to
    the reference: a negative value, NaN, infinity, an empty row, far from 1, tiny or huge."""
    n_rows, n_columns = rows.shape
    tiny, huge = (1e-30, 1e30) if rows.dtype == np.float64 else (1e-20, 1e15)
    for _ in range(n_bad):
        row = int(rng.choice(positions + [int(rng.integers(0, n_rows))])) % n_rows
        column = int(rng.integers(0, n_columns))
        how = rng.integers(0, 8)
        if how == 0:
            rows[row, column] = -1e-3
        elif how == 1:
            rows[row, column] = np.nan
        elif how == 2:
            rows[row, column] = np.inf
        elif how == 3:
            rows[row] = 0
        elif how == 4:
            rows[row] *= 3.5
        elif how == 5:
            rows[row] *= tiny
        elif how == 6:
            rows[row] *= huge
        else:
            rows[row, column] = -0.0


def _layout(rng, rows):
    """``rows`` in C or Fortran order, as every other row or as columns of a wider array,
    as every other column (a step of two values) or with its columns in reverse (a
    negative step)."""
    how = rng.integers(0, 6)
    if how == 4:
        wide = np.zeros((rows.shape[0], 2 * rows.shape[1]), rows.dtype)
        wide[:, ::2] = rows
        return wide[:, ::2]
    if how == 5:
        return np.ascontiguousarray(rows[:, ::-1])[:, ::-1]
    if how == 1:
        return np.asfortranarray(rows)
    if how == 2:
        wide = np.zeros((2 * rows.shape[0], rows.shape[1]), rows.dtype)
        wide[::2] = rows
        return wide[::2]
    if how == 3:
        wide = np.zeros((rows.shape[0], rows.shape[1] + 3), rows.dtype)
        wide[:, 1:-2] = rows
        return wide[:, 1:-2]
    return rows


@pytest.mark.parametrize("seed", range(12))
def test_many_classes_beside_labels_equal_the_reference(seed):
    """768 classes and more (the rows read in the order of their classes): the reference's
    matrix, error and warning over random rows, layouts, weights, rows that fail or that
    the kernel leaves to the reference (at the first and last rows and anywhere), labels
    of strings, chunks, and labels on either side. One thread: which thread's first row
    off 1 a warning names is left to the test of threads below."""
    rng = np.random.default_rng(seed)
    n_classes = int(rng.choice([768, 769, 1000, 1500]))
    n_samples = int(rng.choice([1, 2, 3, int(rng.integers(4, 2_500))]))
    dtype = [np.float32, np.float64][seed % 2]
    scores = rng.random((n_samples, n_classes)).astype(dtype)
    if rng.random() < 0.6:  # probabilities, some peaked
        scores **= 8
        scores /= scores.sum(axis=1, keepdims=True)
    _spoil(rng, scores, int(rng.choice([0, 1, 3])), [0, n_samples - 1, n_samples // 2])
    scores = _layout(rng, scores)
    codes = rng.integers(0, n_classes, n_samples)
    if rng.random() < 0.3:  # a few classes only
        codes = rng.choice(rng.integers(0, n_classes, 5), n_samples)
    keywords = {"labels": np.arange(n_classes), "n_jobs": 1,
                "weighting": str(rng.choice(["uniform", "true", "pred"]))}
    if rng.random() < 0.5:
        weights = rng.random(n_samples)
        weights[rng.random(n_samples) < 0.3] = 0
        weights[rng.integers(0, n_samples)] *= float(rng.choice([1e250, 1e-250, 1]))
        keywords["sample_weight"] = weights
    if rng.random() < 0.5:
        keywords["empty"] = "skip"
    if rng.random() < 0.4:
        keywords["chunk_size"] = int(rng.choice([1, 7, 500]))
    y = codes
    if rng.random() < 0.3:
        names = np.array([f"c{i:05d}" for i in range(n_classes)])
        y, keywords["labels"] = names[codes], names
    if seed % 3 == 0:
        def matrix():
            return sce.transport_confusion_matrix(scores, y, **keywords)
    else:
        def matrix():
            return sce.transport_confusion_matrix(y, scores, **keywords)
    _same_outcome(*_both(matrix), TOLERANCE[dtype])


@pytest.mark.parametrize("seed", range(6))
def test_rows_in_one_pass_equal_rows_one_call_each_at_random(seed):
    """``sum_rows_by_class`` in one pass and on one row at a time: the same sums to the
    last bit (-0.0 too), the same first failing row and first row off 1, over random
    classes (1 to 2,048; all, one, a few, sorted), ranges, failing rows at the range's
    ends and anywhere, weights and outputs that start as random values or -0.0."""
    rng = np.random.default_rng(100 + seed)
    n_classes = int(rng.choice([1, 3, 8, 33, 100, 769, 2048]))
    dtype = [np.float32, np.float64][seed % 2]
    n_samples = int(rng.integers(2, 1_500))
    base = rng.random((n_samples, n_classes + 2)).astype(dtype)
    base /= base.sum(axis=1, keepdims=True)
    for _ in range(12):
        scores = (base[:, :n_classes] if rng.random() < 0.5 else base[:, 1:-1]).copy()
        start = int(rng.choice([0, 1, int(rng.integers(0, n_samples))]))
        stop = int(rng.choice([n_samples, n_samples - 1, int(rng.integers(start, n_samples + 1))]))
        how = rng.integers(0, 4)
        codes = (rng.integers(0, n_classes, n_samples) if how == 0 else
                 np.full(n_samples, int(rng.integers(0, n_classes))) if how == 1 else
                 rng.choice(rng.integers(0, n_classes, 4), n_samples) if how == 2 else
                 np.sort(rng.integers(0, n_classes, n_samples)))
        codes = codes.astype([np.int32, np.int64][int(rng.integers(0, 2))])
        _spoil(rng, scores, int(rng.choice([0, 1, 2])), [start, start + 1, stop - 1])
        multipliers = rng.random(n_samples) if rng.random() < 0.5 else np.empty(0)
        by_norm, tolerance = bool(rng.random() < 0.5), float(rng.choice([0.5, 1e-3, np.inf]))
        out = np.zeros((n_classes, n_classes))
        fill = rng.integers(0, 3)
        if fill == 1:
            out[:] = rng.standard_normal(out.shape)
        elif fill == 2:
            rows = rng.integers(0, n_classes, 5)
            out[rows] = rng.random((5, n_classes))
            out[rows[0]] = -0.0
        one_pass = sum_rows_by_class(scores, codes, start, stop, multipliers, by_norm,
                                     tolerance, out)
        each = out.copy()
        expected = rows_one_call_each(scores, codes, start, stop, multipliers, by_norm,
                                      tolerance, each)
        assert one_pass[0][:2] == expected[:2]
        np.testing.assert_array_equal(one_pass[0][2], expected[2])
        assert one_pass[1].tobytes() == each.tobytes()


@pytest.mark.parametrize("n_classes", [3, 1_000])
def test_a_row_off_1_before_a_nan_warns_as_the_reference_does(n_classes):
    scores = np.full((2, n_classes), 1.0 / n_classes)
    scores[0] *= 2
    scores[1, 0] = np.nan

    def matrix():
        return sce.transport_confusion_matrix(np.array([0, 1]), scores,
                                              labels=np.arange(n_classes))

    (compiled, compiled_warnings), (reference, reference_warnings) = _both(matrix)
    assert compiled == reference and compiled[0] == "error"
    assert compiled_warnings == reference_warnings


def _soft_rows(rng, n_samples, n_classes, dtype):
    how = rng.integers(0, 5)
    if how == 0:
        rows = rng.dirichlet(np.ones(n_classes) * rng.choice([0.1, 1, 10]), n_samples)
    elif how == 1:
        rows = rng.random((n_samples, n_classes)) * (rng.random((n_samples, n_classes)) < 0.5)
    elif how == 2:
        rows = np.zeros((n_samples, n_classes))
        rows[np.arange(n_samples), rng.integers(0, n_classes, n_samples)] = 1
    elif how == 3:
        rows = rng.random((n_samples, n_classes)) * rng.choice([1, 3, 100])
    else:
        rows = (rng.random((n_samples, n_classes)) < 0.2) * 1.0
    return rows.astype(dtype)


@pytest.mark.parametrize("seed", range(40))
def test_soft_labels_beside_soft_labels_equal_the_reference(seed, monkeypatch):
    """Soft labels beside soft labels at 1 to 20, 40 and 100 classes: the reference's
    matrix (the diagonal to float64's rounding of the sums, the rest to the rounding of
    the rows' type), error and warnings, and the diagonal of ``soft_plan_parts`` to the
    last bit, over random rows (one-hot, with zeros, far from 1, proportional), rows the
    kernels leave to the reference (empty, tiny, huge, denormal) or refuse, weights,
    weightings, layouts and chunks."""
    from sklearn_confusion_ext._matrices import transport

    rng = np.random.default_rng(1_000 + seed)
    for _ in range(5):
        n_classes = int(rng.choice(list(range(1, 21)) + [40, 100]))
        dtype = [np.float32, np.float64][int(rng.integers(0, 2))]
        n_samples = int(rng.choice([1, 2, 7, 8, 9, 33, int(rng.integers(1, 1_500))]))
        y_true, y_pred = (_soft_rows(rng, n_samples, n_classes, dtype) for _ in range(2))
        if rng.random() < 0.3:  # proportional rows: no deficit
            same = rng.random(n_samples) < 0.3
            y_pred[same] = y_true[same] * dtype(rng.choice([1, 2, 0.5]))
        for rows in (y_true, y_pred):
            _spoil(rng, rows, int(rng.choice([0, 0, 1, 2])), [0, n_samples - 1])
            if rng.random() < 0.1:
                rows[int(rng.integers(0, n_samples))] = np.finfo(dtype).tiny / 4
        y_true, y_pred = _layout(rng, y_true), _layout(rng, y_pred)
        keywords = {"weighting": str(rng.choice(["uniform", "true", "pred"]))}
        if rng.random() < 0.5:
            keywords["sample_weight"] = rng.random(n_samples) * float(
                rng.choice([1, 1e200, 1e-200]))
        if rng.random() < 0.5:
            keywords["empty"] = "skip"
        if rng.random() < 0.3:
            keywords["chunk_size"] = int(rng.choice([1, 5, 64]))
        if rng.random() < 0.3:
            keywords["n_jobs"] = int(rng.choice([1, 2]))

        def matrix(y_true=y_true, y_pred=y_pred, keywords=keywords):
            with np.errstate(all="ignore"):
                return sce.transport_confusion_matrix(y_true, y_pred, **keywords)

        compiled, reference = _both(matrix)
        tolerance = 1e-5 if dtype == np.float32 else 1e-12
        _same_outcome(compiled, reference, tolerance)
        if compiled[0][0] == "matrix":
            scale = np.abs(reference[0][1]).max()
            np.testing.assert_allclose(np.diag(compiled[0][1]), np.diag(reference[0][1]),
                                       rtol=0, atol=(1e-13 if dtype == np.float64 else 2e-6)
                                       * scale)
        with monkeypatch.context() as patch:
            patch.setattr(transport, "SMALL_SOFT_CLASSES", 0)
            parts = _outcome(matrix)
        _same_outcome(compiled, parts, tolerance)
        if compiled[0][0] == "matrix":
            assert np.array_equal(np.diag(compiled[0][1]), np.diag(parts[0][1]))


def _interval_bits(arguments, keywords):
    result = sce.score_confidence_interval(*arguments, **keywords)
    return {name: np.asarray(value).tobytes() if isinstance(value, (float, np.ndarray))
            else value for name, value in vars(result).items()}


@pytest.mark.parametrize("seed", range(6))
def test_intervals_are_the_same_bits_with_and_without_the_reused_matrices(seed,
                                                                         monkeypatch):
    """``score_confidence_interval`` of labels beside probabilities, its matrices built in
    many blocks (a budget of 1 MiB) into one reused buffer: the same bits on one and two
    threads and where each block's matrices are new memory (``reuse`` off), also where a
    class has no instance."""
    rng = np.random.default_rng(200 + seed)
    n_samples, n_classes = int(rng.integers(200, 3_000)), int(rng.integers(3, 31))
    # even seeds: the last class has no instance (its row of the matrices is never
    # written: it must stay zero in the reused buffer)
    y = rng.integers(0, n_classes - (seed + 1) % 2, n_samples)
    scores = rng.dirichlet(np.ones(n_classes), n_samples)
    keywords = {"scoring": ["tcm_f1_macro", "tcm_recall", "tcm_accuracy"][seed % 3],
                "method": ["percentile", "bca", "basic"][seed // 2 % 3],
                "n_resamples": int(rng.choice([33, 999, 1500])), "random_state": seed}
    if seed % 2 == 0:
        keywords["labels"] = np.arange(n_classes)
    if seed % 2:
        keywords["sample_weight"] = rng.random(n_samples)
    arguments = (scores, y) if seed == 5 else (y, scores)
    with sce.config_context(max_matrix_mib=1):
        one = _interval_bits(arguments, dict(keywords, n_jobs=1))
        assert _interval_bits(arguments, dict(keywords, n_jobs=2)) == one
        matrices = resampling.GroupedRows.matrices
        monkeypatch.setattr(resampling.GroupedRows, "matrices",
                            lambda self, *a, **k: matrices(self, *a, **dict(k, reuse=False)))
        assert _interval_bits(arguments, dict(keywords, n_jobs=1)) == one
