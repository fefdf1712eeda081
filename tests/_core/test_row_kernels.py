"""The compiled row kernels (``_core/_row_kernels.pyx``) against their NumPy references.

Each kernel must give what the NumPy path gives: the checking pass of probabilities
(``_core/probabilities._checked_rows``: row sums, errors, the first bad row, the warning
of rows that do not sum to 1, the top labels), the binned sums of a curve
(``_calibration/bins.binned``) and the exact percentiles of the equal-mass edges
(``np.percentile``), on random and hostile input, every dtype and memory layout.
"""

import re
import warnings

import numpy as np
import pytest

from sklearn_confusion_ext import expected_calibration_error, reliability_curve
from sklearn_confusion_ext._calibration import bins as bins_module
from sklearn_confusion_ext._core import kernels
from sklearn_confusion_ext._core.probabilities import _checked_rows, checked_probabilities
from sklearn_confusion_ext._core.target_kinds import _SUM_TOLERANCE

COMPILED = kernels.compiled_row_kernels()
pytestmark = pytest.mark.skipif(COMPILED is None, reason="the row kernels are not built")


def _reference(function):
    """``function()`` on the NumPy references (the row kernels switched off)."""
    saved, kernels.ROW_COMPILED = kernels.ROW_COMPILED, None
    try:
        return function()
    finally:
        kernels.ROW_COMPILED = saved


def _outcome(function):
    """What ``function()`` returns or raises (type and message), and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = ("value", function())
        except (ValueError, TypeError) as error:
            value = ("error", type(error), str(error))
    return value, [str(w.message) for w in caught]


def _assert_same_result(compiled, reference):
    """An ECE (a float) or a reliability curve of the compiled path equal to NumPy's."""
    if isinstance(compiled, float):
        assert compiled == pytest.approx(reference, rel=1e-12, abs=1e-15)
    else:
        for field in ("prob_true", "prob_pred", "bin_count", "bin_edges", "low"):
            np.testing.assert_allclose(getattr(compiled, field), getattr(reference, field),
                                       rtol=1e-12)


def _probabilities(rng, n_samples, n_classes, dtype=np.float64):
    prob = rng.dirichlet(np.full(n_classes, 0.5), size=n_samples)
    return prob.astype(dtype)


def _layouts(prob):
    """C- and F-ordered copies, a slice of every other row and one of reversed columns."""
    return {"C": np.ascontiguousarray(prob), "F": np.asfortranarray(prob),
            "rows[::2]": prob[::2], "columns[::-1]": prob[:, ::-1]}


def _assert_rows_equal(prob, dtype, scores=False):
    """The compiled and NumPy checking passes agree on ``prob``: same error (message,
    first row) or warning, same top labels, sums within rounding."""
    def run():
        return _checked_rows("y_prob", prob, scores, True, dtype)

    compiled, compiled_warnings = _outcome(run)
    reference, reference_warnings = _outcome(lambda: _reference(run))
    assert compiled[0] == reference[0], (compiled, reference)
    assert len(compiled_warnings) == len(reference_warnings)
    if compiled[0] == "error":
        assert compiled == reference
        return None
    (norms, (predicted, largest)), (ref_norms, (ref_predicted, ref_largest)) = \
        compiled[1], reference[1]
    assert (norms is None) == (ref_norms is None)
    np.testing.assert_array_equal(predicted, ref_predicted)
    if norms is None:
        np.testing.assert_array_equal(largest, ref_largest)
    else:
        np.testing.assert_allclose(norms, ref_norms, rtol=1e-12)
        np.testing.assert_allclose(largest, ref_largest, rtol=1e-12)
    return predicted


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [1, 2, 3, 10, 17, 1000])
def test_checking_pass_equals_numpy_on_random_rows(dtype, n_classes):
    rng = np.random.default_rng(n_classes)
    prob = _probabilities(rng, 300 if n_classes < 1000 else 40, n_classes, dtype)
    for name, layout in _layouts(prob).items():
        predicted = _assert_rows_equal(layout, dtype)
        np.testing.assert_array_equal(predicted, layout.argmax(axis=1), err_msg=name)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["C", "F", "rows[::2]", "columns[::-1]"])
def test_ties_go_to_the_first_column(dtype, layout):
    rows = [[0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [1 / 3] * 3, [0.25, 0.5, 0.25],
            [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    prob = np.array(rows * 3, dtype=dtype)
    long_row = np.zeros((2, 40), dtype=dtype)
    long_row[:, [17, 31, 39]] = 1 / 3  # a tie past the first 16 columns
    wide = np.zeros((4, 300), dtype=dtype)  # blocks of 16 and a tail of 12 (one pass)
    wide[0, [20, 150, 299]] = 1 / 3  # tied across blocks and the tail
    wide[1, 299] = 1.0  # in the tail only
    wide[2, [5, 6]] = 0.5  # in the first block
    wide[3, [33, 290]] = 0.5  # a later block and the tail
    for matrix in (prob, long_row, wide):
        matrix = _layouts(matrix)[layout]
        predicted = _assert_rows_equal(matrix, dtype)
        np.testing.assert_array_equal(predicted, matrix.argmax(axis=1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, -0.25, -1e-300])
@pytest.mark.parametrize("layout", ["C", "F", "rows[::2]"])
def test_hostile_entries_give_the_same_error_and_first_row(dtype, bad, layout):
    rng = np.random.default_rng(3)
    prob = _probabilities(rng, 4000, 7, dtype)
    prob[2500, 3] = bad
    prob[3100, 0] = bad  # a later one: the first is named
    prob[2800, 1] = -0.5 if np.isnan(bad) else np.nan  # another kind in between
    message_compiled = _outcome(lambda: _checked_rows("y_prob", _layouts(prob)[layout],
                                                      False, True, dtype))[0]
    assert message_compiled[0] == "error"
    _assert_rows_equal(_layouts(prob)[layout], dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["C", "F", "rows[::2]", "columns[::-1]"])
def test_a_negative_entry_alone_is_refused(dtype, layout):
    prob = _probabilities(np.random.default_rng(4), 3000, 5, dtype)
    prob[1700] = [-0.125, 1.125, 0.0, 0.0, 0.0]  # sums to 1: only the sign tells
    outcome = _outcome(lambda: _checked_rows("y_prob", _layouts(prob)[layout], False, True,
                                             dtype))[0]
    assert outcome[0] == "error" and "negative" in outcome[2]
    _assert_rows_equal(_layouts(prob)[layout], dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_scores_that_overflow_and_one_row(dtype):
    big = np.finfo(dtype).max
    _assert_rows_equal(np.array([[0.2, 0.8], [big, big]], dtype=dtype), dtype)
    _assert_rows_equal(np.array([[0.2, 0.8], [big, big]], dtype=dtype), dtype, scores=True)
    _assert_rows_equal(np.array([[0.3, 0.7]], dtype=dtype), dtype)
    _assert_rows_equal(np.array([[1.0]], dtype=dtype), dtype)
    _assert_rows_equal(np.zeros((3, 4), dtype=dtype), dtype)  # rows of no mass


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("offset", [-2.0, -0.5, 0.5, 2.0])
def test_rows_summing_to_one_within_and_beyond_the_tolerance(dtype, offset):
    tolerance = _SUM_TOLERANCE[dtype == np.float32]
    rng = np.random.default_rng(5)
    prob = _probabilities(rng, 500, 5).astype(np.float64)
    prob[::3] *= 1 + offset * tolerance  # within (|offset| < 1) or beyond the tolerance
    prob = prob.astype(dtype)
    _, caught = _outcome(lambda: _checked_rows("y_prob", prob, False, True, dtype))
    assert bool(caught) == (abs(offset) > 1)
    for layout in _layouts(prob).values():
        _assert_rows_equal(layout, dtype)


def _assert_bins_equal(confidence, outcome, weight, n_bins, strategy):
    def run():
        return bins_module.binned(confidence, outcome, weight, n_bins, strategy)

    compiled, reference = run(), _reference(run)
    for field in ("index", "weight", "confidence", "outcome", "effective", "count", "ids",
                  "edges"):
        np.testing.assert_array_equal(getattr(compiled, field), getattr(reference, field),
                                      err_msg=field)
    if weight is not None:
        np.testing.assert_array_equal(compiled.unit_weight, reference.unit_weight)
    return compiled


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 2, 7, 15, 100])
def test_binned_sums_equal_numpy(strategy, n_bins):
    rng = np.random.default_rng(n_bins)
    n = 20_000
    confidence = rng.random(n) ** 2
    # the edges themselves, 0 and 1 (the last bin), and their neighbours
    edges = np.linspace(0, 1, n_bins + 1)
    confidence[:3 * (n_bins + 1)] = np.concatenate(
        [edges, np.nextafter(edges, 2), np.nextafter(edges, -1).clip(0)])
    outcome = rng.random(n) < confidence
    weights = rng.random(n) * 3
    weights[::5] = 0.0
    for weight in (None, weights, np.zeros(n), np.where(weights > 1, 1e-280, 1.0)):
        bins = _assert_bins_equal(confidence, outcome, weight, n_bins, strategy)
        np.testing.assert_array_equal(bins.ids,
                                      np.searchsorted(bins.edges[1:-1], confidence))


@pytest.mark.parametrize("n_bins", [1, 2, 10, 15])
def test_a_confidence_of_one_is_in_the_last_bin(n_bins):
    confidence = np.array([1.0, 0.0, 1.0 - 1e-16, 0.5])
    bins = _assert_bins_equal(confidence, confidence > 0.5, None, n_bins, "uniform")
    assert bins.ids[0] == n_bins - 1
    assert bins.ids[1] == 0


def test_percentiles_by_histogram_equal_numpy():
    rng = np.random.default_rng(11)
    found = 0
    for n in (4096, 5001, 20_000, 200_000):
        for power in (1, 3):
            values = rng.random(n) ** power
            values[:50] = 1.0  # ties at the top
            for n_bins in (1, 2, 7, 15, 100):
                q = np.linspace(0, 100, n_bins + 1)
                edges = bins_module._percentiles_by_histogram(COMPILED, values, q)
                if edges is not None:
                    found += 1
                    np.testing.assert_array_equal(edges, np.percentile(values, q))
    assert found > 30
    crowded = np.full(10_000, 0.75)  # one key holds them all: NumPy's partition
    assert bins_module._percentiles_by_histogram(COMPILED, crowded, [0, 50, 100]) is None


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["C", "F", "rows[::2]"])
def test_public_calls_equal_numpy(dtype, layout):
    rng = np.random.default_rng(7)
    prob = _layouts(_probabilities(rng, 30_000, 6, dtype))[layout]
    y = rng.integers(0, 6, prob.shape[0])
    weight = rng.random(prob.shape[0])
    weight[::4] = 0
    calls = [lambda: expected_calibration_error(y, prob),
             lambda: expected_calibration_error(y, prob, strategy="quantile", norm="l2",
                                                debiased=True, sample_weight=weight),
             lambda: expected_calibration_error(y, prob, target="classwise"),
             lambda: reliability_curve(y, prob, target="top_label", strategy="quantile")]
    for call in calls:
        _assert_same_result(call(), _reference(call))


def test_float32_is_read_without_a_float64_copy():
    prob = _probabilities(np.random.default_rng(1), 1000, 4, np.float32)
    y = prob.argmax(axis=1)
    data = checked_probabilities("f", y, prob, top_label=True, keep_float32=True)
    assert data.prob.dtype == np.float32 and np.shares_memory(data.prob, prob)
    assert data.column(0).dtype == np.float64
    assert checked_probabilities("f", y, prob).prob.dtype == np.float64  # by default


def test_wrong_lengths_are_refused():
    block = np.full((3, 2), 0.5)
    with pytest.raises(ValueError, match=re.escape("one entry per row")):
        COMPILED.check_rows(block, np.empty(2))


def test_the_compiled_pass_reads_each_chunk_once(monkeypatch):
    """One kernel call per chunk of rows, the top labels in the same call, kept."""
    calls = []

    class Counting:
        def check_rows(self, block, *outputs):
            calls.append((block.shape[0], len(outputs)))
            return COMPILED.check_rows(block, *outputs)

    monkeypatch.setattr(kernels, "ROW_COMPILED", Counting())
    rng = np.random.default_rng(2)
    prob = _probabilities(rng, 300_000, 10)
    data = checked_probabilities("f", rng.integers(0, 10, prob.shape[0]), prob,
                                 top_label=True)
    assert sum(rows for rows, _ in calls) == prob.shape[0] and len(calls) > 1
    assert all(n_outputs == 3 for _, n_outputs in calls)
    predicted, _ = data.top_label()
    np.testing.assert_array_equal(predicted, prob.argmax(axis=1))
    assert sum(rows for rows, _ in calls) == prob.shape[0]  # kept, not read again


@pytest.fixture(params=[False, True], ids=["baseline", "vector extensions"])
def vector_copy(request):
    """Each copy of the row loop in turn (the AVX2 one where the processor has it)."""
    previous = COMPILED._use_vector_extensions(request.param)
    yield request.param
    COMPILED._use_vector_extensions(previous)


def _tied_rows(rng, n_rows, n_classes, dtype):
    """Rows whose largest value is held by two to four columns at random places (in any
    lane, accumulator or the tail of the vector pass), the rest below it."""
    prob = rng.random((n_rows, n_classes)) * 0.5
    for row in prob:
        row[rng.choice(n_classes, size=min(n_classes, rng.integers(2, 5)),
                       replace=False)] = 0.75
    return (prob / prob.sum(axis=1, keepdims=True)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [2, 8, 10, 15, 16, 17, 31, 100, 1000])
def test_both_copies_give_the_first_largest_column(vector_copy, dtype, n_classes):
    rng = np.random.default_rng(n_classes)
    n_rows = 400 if n_classes < 1000 else 60
    for prob in (_probabilities(rng, n_rows, n_classes, dtype),
                 _tied_rows(rng, n_rows, n_classes, dtype)):
        for name, layout in _layouts(prob).items():
            predicted = _assert_rows_equal(layout, dtype)
            np.testing.assert_array_equal(predicted, layout.argmax(axis=1), err_msg=name)
    # the largest value alone in the first, the last and each lane's column
    for k in sorted({0, n_classes - 1, *range(0, n_classes, 5)}):
        prob = np.full((1, n_classes), 0.5 / n_classes, dtype=dtype)
        prob[0, k] = 0.5 + 0.5 / n_classes
        assert _assert_rows_equal(prob, dtype)[0] == k


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bad", [np.nan, -0.25])
def test_both_copies_refuse_bad_entries(vector_copy, dtype, bad):
    prob = _probabilities(np.random.default_rng(9), 3000, 100, dtype)
    prob[2100, 57] = bad
    for layout in _layouts(prob).values():
        outcome = _outcome(lambda layout=layout: _checked_rows("y_prob", layout, False, True,
                                                               dtype))[0]
        assert outcome[0] == "error"
        _assert_rows_equal(layout, dtype)


def _classwise_of_columns(data, n_bins):
    """The reference: each column binned by itself (``curves`` then ``binned``)."""
    return [bins_module.binned(confidence, outcome, None, n_bins, "uniform")
            for _, confidence, outcome in bins_module.curves(data, "classwise")]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [2, 10, 100, 1000])
# 7 and 100 bins: edges whose product with n_bins rounds below the integer (floor one
# bin short, the correction tested)
@pytest.mark.parametrize("n_bins", [1, 2, 7, 15, 100])
def test_classwise_sums_equal_the_columns_binned(dtype, n_classes, n_bins):
    rng = np.random.default_rng(n_classes + n_bins)
    n_rows = 3000 if n_classes < 1000 else 700  # room for 2 x 3 (n_bins + 1) edge rows
    prob = _probabilities(rng, n_rows, n_classes)
    # probabilities on the edges and beside them, in rows [p, 1 - p, 0, ...] (summing to
    # 1 within rounding: not divided, the edges kept exactly in float64)
    edges = np.linspace(0, 1, n_bins + 1)
    on_edges = np.concatenate([edges, np.nextafter(edges, 2).clip(0, 1),
                               np.nextafter(edges, -1).clip(0, 1)])
    prob[:on_edges.size] = 0.0
    prob[:on_edges.size, 0] = on_edges
    prob[:on_edges.size, 1] = 1 - on_edges
    prob[on_edges.size:2 * on_edges.size] = prob[:on_edges.size, ::-1]  # the last columns
    prob = prob.astype(dtype)
    y = rng.integers(0, n_classes, n_rows)
    for name, layout in _layouts(prob).items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = checked_probabilities("f", y[:layout.shape[0]], layout, keep_float32=True,
                                         labels=np.arange(n_classes))
        compiled = bins_module.classwise_binned(data, n_bins, "uniform")
        reference = _reference(lambda data=data: _classwise_of_columns(data, n_bins))
        assert len(compiled) == n_classes
        for k, (ours, theirs) in enumerate(zip(compiled, reference)):
            for field in ("index", "weight", "confidence", "outcome", "effective", "count",
                          "edges"):
                np.testing.assert_array_equal(getattr(ours, field), getattr(theirs, field),
                                              err_msg=f"{name} class {k} {field}")


def test_classwise_sums_leave_what_they_do_not_cover_to_numpy():
    prob = _probabilities(np.random.default_rng(2), 100, 4)
    y = prob.argmax(axis=1)
    data = checked_probabilities("f", y, prob)
    assert bins_module.classwise_binned(data, 10, "quantile") is None
    weighted = checked_probabilities("f", y, prob, sample_weight=np.ones(100))
    assert bins_module.classwise_binned(weighted, 10, "uniform") is None
    with pytest.raises(ValueError, match="codes outside"):
        COMPILED.classwise_sums(prob, np.full(100, 4, dtype=np.intp),
                                np.linspace(0, 1, 11)[1:-1], np.empty(0), *np.zeros((3, 4, 10)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [2, 10, 100])
def test_classwise_error_equals_numpy(dtype, n_classes):
    rng = np.random.default_rng(n_classes)
    prob = _probabilities(rng, 5000, n_classes, dtype)
    y = rng.integers(0, n_classes, 5000)
    for layout in _layouts(prob).values():
        yy = y[:layout.shape[0]]
        for norm in ("l1", "l2", "max"):
            def call(yy=yy, layout=layout, norm=norm):
                return expected_calibration_error(yy, layout, target="classwise", norm=norm)

            assert call() == pytest.approx(_reference(call), rel=1e-12, abs=1e-15)


def _one_vs_rest_values(rng, n):
    """One class's probabilities of many classes (most near 0, over many octaves), with
    exact zeros, a negative zero, subnormal values, ties and ones."""
    values = rng.dirichlet(np.full(100, 0.3), size=n)[:, 0]
    values[:200] = 0.0
    values[200] = -0.0
    values[201:211] = 5e-324 * np.arange(1, 11)
    values[211:300] = 1e-7  # a tie far below the first key of equal width
    values[300:310] = 1.0
    return rng.permutation(values)


@pytest.mark.parametrize("n", [5000, 60_000])
def test_percentiles_by_histogram_of_values_crowded_near_zero(n):
    """The keys are the values' top bits: values crowded near 0 (a one-vs-rest column)
    spread over their octaves, found exactly, not left to NumPy's partition."""
    values = _one_vs_rest_values(np.random.default_rng(n), n)
    for n_bins in (2, 15, 100):
        q = np.linspace(0, 100, n_bins + 1)
        edges = bins_module._percentiles_by_histogram(COMPILED, values, q)
        assert edges is not None
        np.testing.assert_array_equal(edges, np.percentile(values, q))


def test_the_keys_are_monotone_and_their_lowest_values_below_them():
    """The kernel's keys are the values' top bits (its histogram is the count of those),
    each value's key is at or above the key of every smaller value, and the lowest value
    of its key (the start of the equal-mass bins' search) is at or below it."""
    rng = np.random.default_rng(3)
    lowest = bins_module.lowest_of_keys(COMPILED)
    values = np.sort(np.concatenate([_one_vs_rest_values(rng, 5000), rng.random(5000),
                                     lowest[1:50], np.nextafter(lowest[1:50], 0),
                                     [1.5, np.inf]]))
    keys = np.where(values > 0, values.view(np.uint64) >> np.uint64(COMPILED.KEY_SHIFT), 0)
    keys = np.minimum(keys, COMPILED.N_KEYS - 1).astype(np.intp)
    counts = np.zeros(COMPILED.N_KEYS, dtype=np.int64)
    COMPILED.value_histogram(values, counts)
    np.testing.assert_array_equal(counts, np.bincount(keys, minlength=COMPILED.N_KEYS))
    assert np.all(np.diff(keys) >= 0)
    assert np.all(lowest[keys] <= np.abs(values))
    assert lowest[0] == 0.0 and keys[-1] == COMPILED.N_KEYS - 1  # beyond 1: the last key


@pytest.mark.parametrize("n_bins", [2, 15, 100])
def test_equal_mass_bins_of_values_crowded_near_zero_equal_numpy(n_bins):
    rng = np.random.default_rng(n_bins)
    confidence = np.abs(_one_vs_rest_values(rng, 20_000))
    outcome = rng.random(confidence.size) < confidence
    weights = rng.random(confidence.size) * 3
    for weight in (None, weights):
        bins = _assert_bins_equal(confidence, outcome, weight, n_bins, "quantile")
        np.testing.assert_array_equal(bins.ids,
                                      np.searchsorted(bins.edges[1:-1], confidence))


def test_the_compiled_checking_pass_runs_on_the_calling_thread(monkeypatch):
    """The pass is bound by the read of memory: its chunks run one after another on the
    calling thread (threads burned CPU time for nothing), and a bad entry in a later
    chunk is still named at its row."""
    import threading

    threads = []

    class Recording:
        def check_rows(self, block, *outputs):
            threads.append(threading.get_ident())
            return COMPILED.check_rows(block, *outputs)

    monkeypatch.setattr(kernels, "ROW_COMPILED", Recording())
    prob = _probabilities(np.random.default_rng(8), 600_000, 10)  # 23 chunks of 2 MiB
    _checked_rows("y_prob", prob, False, True, prob.dtype)
    assert len(threads) > 1 and set(threads) == {threading.get_ident()}
    prob[590_000, 4] = np.nan
    with pytest.raises(ValueError, match="contains nan .first at row 590000"):
        _checked_rows("y_prob", prob, False, True, prob.dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["C", "F", "rows[::2]"])
def test_public_calls_of_rows_that_do_not_sum_to_one_equal_numpy(dtype, layout):
    """Rows off 1 (warned, divided by their sums where read), with and without weights:
    the compiled paths (checking pass, binned sums, classwise sums) give NumPy's numbers."""
    rng = np.random.default_rng(9)
    prob = _probabilities(rng, 20_000, 12).astype(np.float64)
    prob[::3] *= 1.25
    prob = _layouts(prob.astype(dtype))[layout]
    y = rng.integers(0, 12, prob.shape[0])
    weight = rng.random(prob.shape[0])
    calls = [lambda w=w, s=s, t=t: expected_calibration_error(
        y, prob, strategy=s, target=t, sample_weight=w)
        for w in (None, weight) for s in ("uniform", "quantile")
        for t in ("top_label", "classwise")]
    calls += [lambda s=s: reliability_curve(y, prob, target="top_label", n_bins=15,
                                            strategy=s) for s in ("uniform", "quantile")]
    calls += [lambda: reliability_curve(y, prob, target="classwise", n_bins=15)]
    for call in calls:
        compiled, caught = _outcome(call)
        reference, reference_caught = _outcome(lambda call=call: _reference(call))
        assert len(caught) == len(reference_caught) == 1 and "sum" in caught[0]
        _assert_same_result(compiled[1], reference[1])
