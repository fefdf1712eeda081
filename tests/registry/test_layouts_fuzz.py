"""The same data held another way gives the same result: hostile tests of the seams
between layouts, containers and pieces, generated over the registry.

1. Soft labels held column by column (Fortran-ordered arrays, pandas frames, views of
   them) are read by a kernel of their own (``soft_plan_parts_columns``, tiles of 2,048
   rows): every registered function taking soft labels gives the row-major array's
   result (to the last bits) and its errors (argument and row named), at tile edges, for
   every weighting, dtype, weights, hostile rows, chunk sizes and threads.
2. Columns of one Dask dataframe read straight from the pandas frame's memory: the result
   of the frame Dask computes, whatever the partitions, index, selections, renames,
   column kinds, and a frame changed after ``from_pandas``.
3. The streaming API: batches in any order and any merge tree give the one-shot result in
   the one-shot order; a refused batch or merge leaves the accumulator as it was.
4. pandas' nullable numbers (with ``pd.NA``) beside NumPy columns, wherever 2-D targets go.
5. Resampled intervals and comparisons do not depend on the memory budget or the threads.
"""

import warnings

import numpy as np
import pytest
from kinds import CASES, one_shot
from test_common import (
    PROBABILITY_KINDS,
    REGISTRY,
    _soft,
    assert_same,
    call_on,
    cases,
    random_targets,
    target_inputs,
)

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import ConfusionAccumulator

pd = pytest.importorskip("pandas")


def _outcome(function, *args, **kwargs):
    """``("ok", result)`` or ``("error", "Type: message")``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", function(*args, **kwargs)
    except (ValueError, TypeError) as error:
        return "error", f"{type(error).__name__}: {error}"


def _assert_same_outcome(got, expected, rtol=1e-12, where="result"):
    """The same error (type and message), or results equal to ``rtol`` of their largest
    value (a column kernel adds in another order: the last bits may differ)."""
    assert got[0] == expected[0], f"{where}: {got[1]!r} against {expected[1]!r}"
    if got[0] == "error":
        assert got[1] == expected[1], where
        return
    leaves = [np.asarray(leaf, dtype=float) for leaf in _leaves(expected[1])]
    scale = max([np.max(np.abs(leaf[np.isfinite(leaf)]), initial=0.0) for leaf in leaves],
                default=0.0)
    assert_same(got[1], expected[1], rtol=rtol, atol=rtol * scale + 1e-300, where=where)


def _leaves(result):
    if isinstance(result, dict):
        return [leaf for value in result.values() for leaf in _leaves(value)]
    if isinstance(result, (tuple, list)):
        return [leaf for value in result for leaf in _leaves(value)]
    array = np.asarray(result)
    return [array] if array.dtype.kind in "biuf" else []


# --- 1. Soft labels held column by column -----------------------------------------------------

def _column_major_layouts(y_true, y_pred):
    """``(name, y_true, y_pred)``: the same values held column by column (or one target
    so and the other row by row), as views of longer or wider arrays, read-only."""
    def every_other_column(y):
        wide = np.asfortranarray(np.repeat(y, 2, axis=1))
        return wide[:, ::2]

    def rows_of_longer(y):
        tall = np.asfortranarray(np.vstack([y[:5], y, y[:3]]))
        return tall[5:5 + len(y)]

    def read_only(y):
        y = np.asfortranarray(y).copy(order="F")
        y.flags.writeable = False
        return y

    yield "fortran", np.asfortranarray(y_true), np.asfortranarray(y_pred)
    yield "frame", pd.DataFrame(y_true), pd.DataFrame(y_pred)
    yield "fortran-true", np.asfortranarray(y_true), np.ascontiguousarray(y_pred)
    yield "fortran-pred", np.ascontiguousarray(y_true), np.asfortranarray(y_pred)
    yield "every-other-column", every_other_column(y_true), every_other_column(y_pred)
    yield "rows-of-longer", rows_of_longer(y_true), rows_of_longer(y_pred)
    yield "read-only", read_only(y_true), read_only(y_pred)
    yield ("reversed-columns", np.asfortranarray(y_true[:, ::-1])[:, ::-1],
                               np.asfortranarray(y_pred[:, ::-1])[:, ::-1])


@pytest.mark.parametrize("name, kind", cases(kinds=("soft",)))
def test_every_function_reads_column_major_soft_labels_as_row_major(name, kind):
    """Every registered function of soft labels, with its variants and sample weights,
    over the tile's edge (2,049 rows): each column-major layout gives the C-ordered
    array's result to the last bits."""
    rng = np.random.default_rng(11)
    y_true, y_pred = _soft(rng, 2049, 3), _soft(rng, 2049, 3)
    entry = REGISTRY[name]
    weights = {"sample_weight": rng.random(2049) + 0.5} if entry.sample_weight else {}
    for keywords in ({}, *entry.variants, weights):
        expected = _outcome(call_on, name, target_inputs(
            entry.target_params, (np.ascontiguousarray(y_true), np.ascontiguousarray(y_pred))),
            **keywords)
        assert expected[0] == "ok", expected[1]
        for layout, true, pred in _column_major_layouts(y_true, y_pred):
            got = _outcome(call_on, name, target_inputs(entry.target_params, (true, pred)),
                           **keywords)
            _assert_same_outcome(got, expected, where=f"{name} {layout} {keywords}")


def _probability_layouts(y):
    """``(name, y)``: 2-D probabilities (or scores) held column by column, as views of
    longer or wider arrays, read-only, or a frame of default columns (read by position)."""
    read_only = np.asfortranarray(y).copy(order="F")
    read_only.flags.writeable = False
    yield "fortran", np.asfortranarray(y)
    yield "every-other-column", np.asfortranarray(np.repeat(y, 2, axis=1))[:, ::2]
    yield "rows-of-longer", np.asfortranarray(np.vstack([y[:5], y, y[:3]]))[5:5 + len(y)]
    yield "reversed-columns", np.asfortranarray(y[:, ::-1])[:, ::-1]
    yield "read-only", read_only
    yield "frame", pd.DataFrame(y)


@pytest.mark.parametrize("name, kind", [case for case in cases(kinds=PROBABILITY_KINDS)
                                        if case.values[1] != "binary_probabilities"])
def test_every_function_reads_probabilities_of_any_layout_as_row_major(name, kind):
    """Labels beside 2-D probabilities (or scores), which are read in row chunks, each
    once, over a chunk's edge: every layout, with the entry's variants and weights, gives
    the C-ordered array's result; a NaN (or a negative probability) in the first row past
    the edge is refused naming the argument and that row."""
    from sklearn_confusion_ext._core.chunks import chunk_rows

    n_samples = chunk_rows(8 * 3) + 1
    rng = np.random.default_rng(12)
    y_true, y_prob = random_targets(kind, rng, n_samples, 3)
    entry = REGISTRY[name]
    last = entry.target_params[-1]
    weights = {"sample_weight": rng.random(n_samples) + 0.5} if entry.sample_weight else {}
    for keywords in ({}, *entry.variants, weights):
        expected = _outcome(call_on, name, target_inputs(entry.target_params,
                                                         (y_true, y_prob)), **keywords)
        assert expected[0] == "ok", expected[1]
        for layout, held in _probability_layouts(y_prob):
            got = _outcome(call_on, name, target_inputs(entry.target_params, (y_true, held)),
                           **keywords)
            _assert_same_outcome(got, expected, where=f"{name} {layout} {keywords}")
    for value in (np.nan, -0.25) if kind == "probabilities" and last != "y_score" else (
            np.nan,):
        hostile = y_prob.copy()
        hostile[n_samples - 1, 1] = value
        for layout, held in [("C", hostile), *_probability_layouts(hostile)][:3]:
            status, message = _outcome(call_on, name, target_inputs(
                entry.target_params, (y_true, held)))
            assert status == "error" and last in message and str(n_samples - 1) in message, \
                f"{name} {layout} {value}: {message}"


HOSTILE = {
    "nan": lambda y, row: y.__setitem__((row, 1), np.nan),
    "inf": lambda y, row: y.__setitem__((row, -1), np.inf),
    "negative": lambda y, row: y.__setitem__((row, 0), -0.25),
    "empty": lambda y, row: y.__setitem__(row, 0.0),
    "huge": lambda y, row: y.__setitem__(row, y[row] * 1e150),
    "denormal": lambda y, row: y.__setitem__(row, y[row] * 1e-310),
    "negative-zero": lambda y, row: y.__setitem__((row, 0), -0.0),
    # beyond float32's kernel range (sums within 2**-20 .. 2**20), within float64's
    "large": lambda y, row: y.__setitem__(row, y[row] * 1e7),
    "small": lambda y, row: y.__setitem__(row, y[row] * 1e-8),
}


SLOW = pytest.mark.slow


@pytest.mark.parametrize("hostile, n_samples, row", [
    pytest.param(hostile, n_samples, row, id=f"{hostile}-{n_samples}-{row}", marks=(
        () if (n_samples, hostile) in ((2049, "nan"), (2049, "empty"), (4097, "huge"),
                                       (2048, "large"))
        else SLOW))
    for hostile in sorted(HOSTILE)
    for n_samples, row in ((1, 0), (2047, 2046), (2048, 2047), (2049, 2048), (4097, 2048),
                           (4097, 4096))])
def test_hostile_rows_at_the_tile_edges_give_the_row_major_result_or_error(
        hostile, n_samples, row):
    """A NaN, infinity, negative value, empty row, or a row of huge or denormal values at
    a tile's edge, in either target, float64 / float32 / mixed, with every weighting,
    weights and ``empty`` policy: the C-ordered array's result (float32: to its
    precision) or its error, naming the same argument and row."""
    rng = np.random.default_rng(n_samples + row)
    n_classes = 3 if n_samples % 2 else 2
    base = _soft(rng, n_samples, n_classes), _soft(rng, n_samples, n_classes)
    weights = rng.random(n_samples) * (rng.random(n_samples) < 0.8)

    def weight_of(true, pred):
        return np.full(len(true), 1.5)

    for side in (0, 1):
        targets = [y.copy() for y in base]
        HOSTILE[hostile](targets[side], row)
        for dtypes in ((np.float64, np.float64), (np.float32, np.float32),
                       (np.float32, np.float64)):
            with np.errstate(over="ignore"):  # huge rows overflow float32: infinities
                true, pred = (y.astype(dtype) for y, dtype in zip(targets, dtypes))
            rtol = 1e-13 if dtypes == (np.float64, np.float64) else 1e-5
            for function in (sce.transport_confusion_matrix, sce.subpixel_confusion_matrix):
                for keywords in ({}, {"weighting": "true"}, {"weighting": "pred"},
                                 {"weighting": weight_of}, {"sample_weight": weights},
                                 {"empty": "skip", "weighting": "true"},
                                 {"empty": "error"}):
                    expected = _outcome(function, np.ascontiguousarray(true),
                                        np.ascontiguousarray(pred), **keywords)
                    for layout, t, p in list(_column_major_layouts(true, pred))[:3]:
                        _assert_same_outcome(
                            _outcome(function, t, p, **keywords), expected, rtol,
                            f"{function.__name__} {layout} {side} {dtypes} {keywords}")


@pytest.mark.parametrize("n_classes", [1, 2, 300])
def test_columns_of_any_width_and_many_rows_equal_row_major(n_classes):
    """One class, two, and 300 (fewer rows), over several tiles."""
    rng = np.random.default_rng(n_classes)
    n_samples = 7 if n_classes == 300 else 4097
    y_true, y_pred = _soft(rng, n_samples, n_classes), _soft(rng, n_samples, n_classes)
    for keywords in ({}, {"weighting": "pred"}, {"sample_weight": rng.random(n_samples)}):
        for function in (sce.transport_confusion_matrix, sce.subpixel_confusion_matrix):
            expected = _outcome(function, y_true, y_pred, **keywords)
            for layout, t, p in _column_major_layouts(y_true, y_pred):
                _assert_same_outcome(_outcome(function, t, p, **keywords), expected,
                                     where=f"{layout} {keywords}")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_column_major_chunks_and_threads_give_the_row_major_result(dtype):
    """Chunks that start inside a tile (``chunk_size``), threads, rows equal after
    scaling (no deficit), empty rows, tiny norms and weights at the ends of the range
    (left to the reference): the C-ordered array's result or error, chunked alike."""
    rng = np.random.default_rng(4)
    n_samples = 4500
    y_true, y_pred = _soft(rng, n_samples, 3), _soft(rng, n_samples, 3)
    y_pred[::5] = y_true[::5] * 3.0
    y_pred[2::113] *= 1e-250
    weights = rng.random(n_samples)
    weights[::7], weights[3::211], weights[4::223] = 0.0, 1e-250, 1e250
    y_true, y_pred = y_true.astype(dtype), y_pred.astype(dtype)
    rtol = 1e-13 if dtype == np.float64 else 1e-5
    for keywords in ({"weighting": "true"}, {"sample_weight": weights, "weighting": "pred"},
                     {"empty": "skip"}):
        for chunk_size, n_jobs in ((None, None), (7, 2), (2047, None), (2049, 2)):
            expected = _outcome(sce.transport_confusion_matrix, y_true, y_pred,
                                chunk_size=chunk_size, n_jobs=n_jobs, **keywords)
            got = _outcome(sce.transport_confusion_matrix, np.asfortranarray(y_true),
                           pd.DataFrame(y_pred), chunk_size=chunk_size, n_jobs=n_jobs,
                           **keywords)
            _assert_same_outcome(got, expected, rtol, f"{chunk_size} {n_jobs} {keywords}")


# --- 3. The streaming API: batches and merges in any order --------------------------------


def _merge_tree(rng, accumulators):
    """One random binary merge tree over ``accumulators`` (``merge`` or ``+``)."""
    accumulators = list(accumulators)
    while len(accumulators) > 1:
        at = int(rng.integers(0, len(accumulators) - 1))
        left, right = accumulators[at:at + 2]
        accumulators[at:at + 2] = [left.merge(right) if rng.random() < 0.5 else left + right]
    return accumulators[0]


def _stream_targets(rng, form, n_samples=30):
    """Targets whose rare classes come last (a class seen only in later batches)."""
    if form == "labels":
        y_true = rng.choice(["ant", "bee", "cat", "dog"], n_samples)
        y_pred = rng.choice(["ant", "bee", "cat", "dog", "emu"], n_samples)
        y_true[-3:], y_pred[:2] = "zebra", "aardvark"
        return y_true, y_pred
    if form == "categorical":
        dtype = pd.CategoricalDtype(["dog", "cat", "eel", "ant", "bee"])
        first = ["ant", "bee"] * 4  # the first batches hold a sorted run of the categories
        return tuple(pd.Series(first + list(rng.choice(dtype.categories[:4], n_samples - 8)),
                               dtype=dtype) for _ in range(2))
    return random_targets_of_form(rng, form, n_samples)


def random_targets_of_form(rng, form, n_samples):
    if form == "soft":
        return rng.random((n_samples, 4)), rng.random((n_samples, 4))
    if form == "probabilities":
        return rng.choice(["x", "y", "z"], n_samples), rng.dirichlet(np.ones(3), n_samples)
    return tuple((rng.random((n_samples, 4)) < 0.35).astype(int) for _ in range(2))


STREAMS = [  # (kind, form, params, labels)
    *[(kind, form, params, None) for kind, form, params in CASES],
    ("classic", "labels", {}, ["zebra", "ant", "aardvark"]),
    ("transport", "labels", {}, ["cat", "aardvark", "bee", "dog", "emu", "zebra", "ant"]),
    ("mlcm", "labels", {}, ["zebra", "ant"]),
    ("transport", "categorical", {}, None),
    ("mlcm", "categorical", {}, ["eel", "dog"]),
    ("transport", "soft", {"weighting": "true"}, [3, 1]),
    ("transport", "indicator", {}, [2, 0]),
    ("transport", "probabilities", {}, ["z", "x", "y"]),
    ("transport", "probabilities", {}, ["x", "y", "z"]),
]


@pytest.mark.parametrize("kind, form, params, labels", STREAMS,
                         ids=[f"{k}-{f}-{bool(p)}-{lab}" for k, f, p, lab in STREAMS])
def test_batches_in_any_order_and_merge_tree_give_the_one_shot_result(
        kind, form, params, labels):
    """Batches cut anywhere, added in any order into accumulators merged by random trees
    (also into an empty accumulator, and one by one): the one-shot result on the whole
    data, classes in its order (sorted; a categorical's categories; ``labels=``)."""
    rng = np.random.default_rng(7)
    form_of_data = "labels" if form == "labels" else form
    y_true, y_pred = (_stream_targets(rng, form_of_data) if form in ("labels", "categorical")
                      else random_targets_of_form(rng, form, 30))
    weights = rng.random(30)
    # the categorical's one-shot order is its categories' (the library's classic kind too)
    reference = "transport" if kind == "classic" and form == "categorical" else kind
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = one_shot(reference, y_true, y_pred, weights, labels, params)
        whole = ConfusionAccumulator(kind, labels=labels, **params).update(
            y_true, y_pred, sample_weight=weights)
        for trial in range(6):
            cuts = np.unique(rng.integers(1, 30, rng.integers(1, 5)))
            pieces = np.split(np.arange(30), cuts)
            order = rng.permutation(len(pieces)) if trial % 2 else range(len(pieces))

            def take(y, rows):
                return y.iloc[rows] if hasattr(y, "iloc") else y[rows]

            parts = [ConfusionAccumulator(kind, labels=labels, **params).update(
                take(y_true, pieces[k]), take(y_pred, pieces[k]),
                sample_weight=weights[pieces[k]]) for k in order]
            if trial >= 4:
                total = ConfusionAccumulator(kind, labels=labels, **params)
                for part in parts:
                    total.merge(part)
            elif trial >= 2:
                total = ConfusionAccumulator(kind, labels=labels, **params).merge(
                    _merge_tree(rng, parts))
            else:
                total = _merge_tree(rng, parts)
            assert total.classes_.tolist() == whole.classes_.tolist(), (trial, pieces)
            np.testing.assert_allclose(total.result(), expected, atol=1e-10,
                                       err_msg=str((trial, [len(p) for p in pieces])))
            assert total.n_samples_seen_ == 30


def _state(accumulator):
    """What an accumulator gives: its result (or its error), classes and count."""
    outcome = _outcome(accumulator.result)
    classes = (accumulator.classes_.tolist() if hasattr(accumulator, "classes_") else None)
    return (outcome[0], np.asarray(outcome[1]).tolist() if outcome[0] == "ok" else outcome[1],
            classes, accumulator.n_samples_seen_)


one_hot, soft = np.array([[1, 0], [0, 1]]), np.array([[0.25, 0.75], [0.5, 0.5]])
REFUSED = {  # first batch, refused batch or accumulator, a good batch after it
    "soft batch of other width after indicators": (
        (one_hot, one_hot), ([[0.5, 0.2, 0.3]], [[0.1, 0.2, 0.7]]), ([[0, 0], [1, 0]], one_hot)),
    "labels after indicators": ((one_hot, one_hot), (["a"], ["b"]), (one_hot, one_hot)),
    "strings after numbers": (([1, 2], [1, 2]), (["a", "b"], ["a", "b"]), ([2, 3], [2, 1])),
    "NaN in a later batch": ((soft, soft), ([[np.nan, 1.0]], [[0.5, 0.5]]), (soft, one_hot)),
    # refused as the one-shot function refuses an empty input (Dask's empty partitions are
    # summed as nothing: they are not batches)
    "an empty batch": ((one_hot, one_hot), (np.empty((0, 2)), np.empty((0, 2))),
                       (soft, soft)),
}


@pytest.mark.parametrize("how", ["update", "merge"])
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_refused_batch_or_merge_leaves_the_accumulator_as_it_was(case, how):
    """A batch (or another accumulator) that is refused changes nothing: the result, the
    classes and the stream's reading of ``y_true`` stay those of the batches accepted,
    and the next good batch is read as before. (A soft batch of another width after 0/1
    indicators used to drop the "none" class of the indicators already counted and read
    every later batch as soft labels, refusing their rows of zeros.)"""
    first, refused, after = REFUSED[case]
    accumulator = ConfusionAccumulator("transport").update(*first)
    before = _state(accumulator)
    with pytest.raises(ValueError):
        if how == "update":
            accumulator.update(*refused)
        else:
            accumulator.merge(ConfusionAccumulator("transport").update(*refused))
    assert _state(accumulator) == before
    accumulator.update(*after)
    expected = ConfusionAccumulator("transport").update(*first).update(*after)
    assert _state(accumulator) == _state(expected)


def test_merging_an_accumulator_without_batches_changes_nothing():
    accumulator = ConfusionAccumulator("transport").update(one_hot, soft)
    before = _state(accumulator)
    assert _state(accumulator.merge(ConfusionAccumulator("transport"))) == before
    empty = ConfusionAccumulator("transport").merge(ConfusionAccumulator("transport"))
    assert _state(empty)[:2] == ("error", "ValueError: no batch yet: call update first.")
    assert _state(empty + accumulator) == before


@pytest.mark.parametrize("kind", ["transport", "subpixel"])
def test_accumulator_batches_held_column_by_column_equal_row_major_batches(kind):
    """The streaming API over batches of a Fortran array or frames, each across a tile's
    edge: the result of the C-ordered batches."""
    rng = np.random.default_rng(13)
    y_true, y_pred = _soft(rng, 4100, 3), _soft(rng, 4100, 3)
    pieces = (slice(0, 2049), slice(2049, 4100))
    for params in ({}, {"weighting": "true"}):
        expected = ConfusionAccumulator(kind, **params)
        for rows in pieces:
            expected.update(y_true[rows], y_pred[rows])
        for layout in (np.asfortranarray, pd.DataFrame):
            got = ConfusionAccumulator(kind, **params)
            for rows in pieces:
                got.update(layout(y_true[rows]), layout(y_pred[rows]))
            np.testing.assert_allclose(got.result(), expected.result(), rtol=1e-13,
                                       atol=1e-13 * np.max(expected.result()))


def test_a_refused_merge_names_the_other_accumulator():
    """A merge is refused naming the other accumulator, not a batch."""
    accumulator = ConfusionAccumulator("transport").update(one_hot, one_hot)
    wider = ConfusionAccumulator("transport").update([[1, 0, 1]], [[0, 1, 1]])
    with pytest.raises(ValueError, match=r"^the other accumulator has 3 classes \(columns\); "
                                         r"the batches here had 2\."):
        accumulator.merge(wider)
    with pytest.raises(ValueError, match="^the other accumulator holds 1-D class labels"):
        accumulator.merge(ConfusionAccumulator("transport").update([0], [1]))
    with pytest.raises(ValueError, match="^the other accumulator's class labels mix strings "
                                         "and numbers with those of the batches here.$"):
        ConfusionAccumulator("classic").update([0], [1]).merge(
            ConfusionAccumulator("classic").update(["a"], ["b"]))


@pytest.mark.parametrize("how", ["update", "merge"])
def test_batches_of_frames_naming_other_classes_are_refused(how):
    """2-D batches are frames of the same columns in any order; a batch whose columns
    name another class was added as a new class (the frames' union, which the one-shot
    function on their concatenation refuses: its missing values are NaN), and then a
    batch of the first columns was refused for having fewer classes."""
    def frame(columns, values):
        return pd.DataFrame(values, columns=columns)

    first = (frame(["a", "b"], one_hot), frame(["a", "b"], [[1, 0], [1, 1]]))
    other = (frame(["a", "c"], one_hot), frame(["a", "c"], one_hot))
    accumulator = ConfusionAccumulator("mlcm").update(*first)
    before = _state(accumulator)
    with pytest.raises(ValueError, match=r"^(the batch|the other accumulator) names classes "
                                         r"\['c'\] of 2-D targets; the (previous batches|"
                                         r"batches here) name \['a', 'b'\]"):
        if how == "update":
            accumulator.update(*other)
        else:
            accumulator.merge(ConfusionAccumulator("mlcm").update(*other))
    assert _state(accumulator) == before
    shuffled = tuple(y[["b", "a"]] for y in first)  # the same columns in another order
    accumulator.update(*shuffled)
    np.testing.assert_array_equal(accumulator.result(), sce.mlcm(
        pd.concat([first[0], shuffled[0]]), pd.concat([first[1], shuffled[1]])))


# --- 2. Columns of one Dask dataframe, read from the pandas frame's memory ---------------------

def _dask_source(rng, n_samples=40, index="range"):
    """A pandas frame of every form of targets (labels, soft labels, indicators) and
    weights, with an index of ``index``."""
    columns = {"t": rng.choice(["dog", "ant", "cat", "bee"], n_samples),
               "p": rng.choice(["dog", "ant", "cat", "bee"], n_samples)}
    soft = rng.random((n_samples, 8))
    indicators = (rng.random((n_samples, 8)) < 0.4).astype(int)
    for j in range(4):
        columns[f"s{j}"], columns[f"q{j}"] = soft[:, j], soft[:, 4 + j]
        columns[f"i{j}"], columns[f"k{j}"] = indicators[:, j], indicators[:, 4 + j]
    columns["w"] = rng.random(n_samples) + 0.1
    frame = pd.DataFrame(columns)
    if index == "shuffled":
        frame.index = rng.permutation(n_samples)
    elif index == "duplicated":
        frame.index = rng.integers(0, 5, n_samples)
    elif index == "strings":
        frame.index = [f"r{i}" for i in rng.permutation(n_samples)]
    return frame


DASK_COLUMNS = {"labels": ("t", "p"), "soft": ("s", "q"), "indicator": ("i", "k")}
SELECTIONS = {  # how y_true and y_pred are taken from the frame (2-D: by their prefix)
    "in-order": lambda t, p: ([f"{t}{j}" for j in range(4)], [f"{p}{j}" for j in range(4)]),
    "reordered": lambda t, p: ([f"{t}{j}" for j in (2, 0, 3, 1)],
                               [f"{p}{j}" for j in (1, 3, 0, 2)]),
    "the same columns": lambda t, p: ([f"{t}{j}" for j in range(4)],) * 2,
    "overlapping": lambda t, p: ([f"{t}{j}" for j in range(4)],
                                 [f"{t}2", f"{t}3", f"{p}0", f"{p}1"]),
}
DASK_FRAMES = {  # (pandas frame) -> Dask dataframe
    "from_pandas 1": lambda frame, dd: dd.from_pandas(frame, npartitions=1),
    "from_pandas 3": lambda frame, dd: dd.from_pandas(frame, npartitions=3),
    "from_pandas 50 (more than rows)": lambda frame, dd: dd.from_pandas(frame.iloc[:12],
                                                                         npartitions=50),
    "from_pandas unsorted": lambda frame, dd: dd.from_pandas(frame, npartitions=3, sort=False),
    "repartitioned": lambda frame, dd: dd.from_pandas(frame, npartitions=3).repartition(
        npartitions=5),
    "filtered": lambda frame, dd: (lambda d: d[d.w > 0.4])(dd.from_pandas(frame,
                                                                          npartitions=3)),
    "map_partitions": lambda frame, dd: dd.from_pandas(frame, npartitions=3).map_partitions(
        lambda part: part.copy()),
    "from_array": lambda frame, dd: dd.from_array(
        frame.drop(columns=["t", "p"]).to_numpy(), chunksize=9,
        columns=list(frame.columns.drop(["t", "p"]))),
}
INDEXES = ("range", "shuffled", "duplicated", "strings")
DASK_CASES = [(frames, index, case) for frames in DASK_FRAMES for index in INDEXES
              for case in range(len(CASES))]
# in the quick run, each way of making the frame once (other indexes and kinds: slow)
DASK_QUICK = [(frames, INDEXES[k % 4], (2 * k + 1) % len(CASES))
              for k, frames in enumerate(DASK_FRAMES) if k % 3 != 2]


@pytest.mark.parametrize("frames, index, case", [
    pytest.param(*values, marks=() if values in DASK_QUICK else SLOW,
                 id=f"{values[0]}-{values[1]}-{'-'.join(map(str, CASES[values[2]][:2]))}")
    for values in DASK_CASES])
def test_dask_frame_columns_give_the_result_of_the_computed_frame(frames, index, case):
    """Every kind, from Dask dataframes of any partitions (one; more than rows; unsorted;
    repartitioned; filtered; mapped; from an array), any index (shuffled, duplicated,
    strings), with columns selected in order, reordered, renamed, the same columns for
    both targets or overlapping, with and without weights: the result of the in-memory
    function on the frame Dask computes (classes sorted)."""
    dd = pytest.importorskip("dask.dataframe")
    kind, form, params = CASES[case]
    rng = np.random.default_rng(case)
    frame = _dask_source(rng, index=index)
    if frames == "from_array" and form == "labels":
        pytest.skip("an array of numbers holds no string labels")
    source = DASK_FRAMES[frames](frame, dd)
    computed = source.compute()
    t, p = DASK_COLUMNS[form]
    selections = list(SELECTIONS) if form != "labels" else ["labels"] * 2
    for number, selection in enumerate(selections):  # renamed or not, weights or not
        renamed, weights = bool((number + case) % 2), ("w" if number % 2 == 0 else None)

        def result(data, selection=selection, renamed=renamed, weights=weights):
            if form == "labels":
                targets = data[t], data[p]
            else:
                names = [range(4), ["a", "b", "c", "d"]][renamed]
                targets = tuple(data[c].rename(columns=dict(zip(c, names)))
                                for c in SELECTIONS[selection](t, p))
            return one_shot(kind, *targets, None if weights is None else data[weights],
                            None, params)

        expected = _outcome(result, computed)
        assert expected[0] == "ok", expected[1]
        _assert_same_outcome(_outcome(result, source), expected,
                             where=f"{selection} renamed={renamed} {weights}")


@pytest.mark.parametrize("n_partitions", [1, 3])
def test_dask_frame_changed_after_from_pandas_reads_what_dask_computes(n_partitions):
    """A pandas frame changed in place after ``from_pandas``: the library reads the frame
    Dask computes (the columns are read from the frame's memory)."""
    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(3)
    frame = _dask_source(rng)
    source = dd.from_pandas(frame, npartitions=n_partitions)
    frame.iloc[:, 2:] = frame.iloc[::-1, 2:].to_numpy() * 3  # soft and indicator columns
    frame.loc[frame.index[:10], "t"] = "emu"
    soft_true, soft_pred = ([f"{c}{j}" for j in range(4)] for c in "sq")

    def results(data):
        return (sce.transport_confusion_matrix(data[soft_true], data[soft_pred].rename(
                    columns=dict(zip(soft_pred, soft_true))), weighting="true"),
                sce.transport_confusion_matrix(data["t"], data["p"], sample_weight=data["w"]))

    computed = source.compute()
    for got, expected in zip(results(source), results(computed)):
        np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["categorical", "string", "Float64", "Int64", "boolean"])
def test_dask_frame_columns_of_pandas_extension_types(dtype):
    """Categorical and pandas string labels, nullable Float64 scores and Int64 / boolean
    indicators beside NumPy columns, from one Dask dataframe: the computed frame's result;
    a missing value (pd.NA) refused naming the argument and its row, as on the frame."""
    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(8)
    frame = _dask_source(rng, 30)
    if dtype in ("categorical", "string"):
        kind = pd.CategoricalDtype(["dog", "cat", "bee", "ant", "eel"]) \
            if dtype == "categorical" else "string"
        frame = frame.astype({"t": kind, "p": kind})
        true, pred = "t", "p"
    else:
        prefix = "s" if dtype == "Float64" else "i"
        other = "q" if dtype == "Float64" else "k"
        frame = frame.astype({f"{prefix}0": dtype, f"{other}2": dtype})
        true, pred = ([f"{prefix}{j}" for j in range(4)], [f"{other}{j}" for j in range(4)])

    def result(data):
        y_true = data[true]
        y_pred = data[pred] if isinstance(pred, str) else data[pred].rename(
            columns=dict(zip(pred, true)))
        return sce.transport_confusion_matrix(y_true, y_pred)

    for n_partitions in (1, 4):
        source = dd.from_pandas(frame, npartitions=n_partitions)
        expected = result(source.compute())
        np.testing.assert_allclose(result(source), expected, rtol=1e-12)
        if dtype in ("categorical", "string"):
            continue
        missing = frame.copy()
        missing.iloc[5, missing.columns.get_loc(true[0])] = pd.NA
        with pytest.raises(ValueError, match=r"y_true contains nan \(first at row 5\)"):
            result(dd.from_pandas(missing, npartitions=n_partitions))


# --- 4. pandas' nullable numbers beside NumPy columns -------------------------------------------

NULLABLE = {  # kind of targets -> {conversion: frame -> frame}
    "soft": {"Float64 beside float64": lambda f: f.astype({0: "Float64", 2: "Float64"}),
             "all Float64": lambda f: f.astype("Float64")},
    "probabilities": {"Float64 beside float64": lambda f: f.astype({1: "Float64"}),
                      "all Float64": lambda f: f.astype("Float64")},
    "multilabel": {"Int64, boolean and UInt8 beside int": lambda f: f.astype(
        {1: "Int64", 2: "boolean", 3: "UInt8"}), "all boolean": lambda f: f.astype("boolean")},
}
MISSING = {"soft": "Float64", "probabilities": "Float64", "multilabel": "Int64"}


def _nullable_cases():
    """(name, kind) of every registered function of 2-D targets, labels beside
    probabilities included (wherever soft labels go)."""
    return [pytest.param(name, kind, id=f"{name}-{kind}")
            for name, entry in REGISTRY.items()
            for kind in ("soft", "probabilities", "multilabel")
            if (kind if kind != "probabilities" else "soft") in entry.targets]


@pytest.mark.parametrize("variants", [False, pytest.param(True, marks=SLOW)],
                         ids=["defaults", "variants"])
@pytest.mark.parametrize("name, kind", _nullable_cases())
def test_nullable_columns_read_as_their_numbers_and_na_refused_naming_the_row(name, kind,
                                                                              variants):
    """Every registered function of 2-D targets (and 1-D labels beside probabilities), with
    its variants: frames of pandas' nullable numbers, mixed with NumPy columns, give the
    NumPy frame's result; a pd.NA is refused as NaN, naming the argument and the row."""
    from test_common import random_targets

    rng = np.random.default_rng(9)
    targets = random_targets(kind, rng)
    entry = REGISTRY[name]

    def framed(convert, missing=False):
        frames = []
        for y in targets:
            if np.ndim(y) == 2:
                y = convert(pd.DataFrame(y))
                if missing:
                    y = y.astype({1: MISSING[kind]})
                    y.iloc[7, 1] = pd.NA
            frames.append(y)
        return target_inputs(entry.target_params, frames)

    for keywords in (entry.variants if variants else [{}]):
        expected = _outcome(call_on, name, framed(lambda f: f), **keywords)
        assert expected[0] == "ok", expected[1]
        for conversion, convert in NULLABLE[kind].items():
            _assert_same_outcome(_outcome(call_on, name, framed(convert), **keywords),
                                 expected, where=f"{conversion} {keywords}")
    got = _outcome(call_on, name, framed(lambda f: f, missing=True))
    first = next(param for param, y in zip(entry.target_params, targets) if np.ndim(y) == 2)
    assert got[0] == "error"
    assert got[1].startswith(f"ValueError: {first} contains nan (first at row 7)"), got[1]


@pytest.mark.parametrize("kind", ["soft", "probabilities", "multilabel"])
def test_accumulator_batches_of_nullable_frames_equal_numpy_batches(kind):
    """The streaming API reads batches of nullable frames as the one-shot function does;
    a batch with pd.NA is refused naming its row, and leaves the accumulator unchanged."""
    from test_common import random_targets

    rng = np.random.default_rng(10)
    y_true, y_pred = random_targets(kind, rng, n_samples=30)
    convert = next(iter(NULLABLE[kind].values()))

    def batch(y, rows):
        return convert(pd.DataFrame(y[rows])) if np.ndim(y) == 2 else y[rows]

    labels = list(range(4)) if kind == "probabilities" else None
    accumulator = ConfusionAccumulator("transport", labels=labels)
    for rows in (slice(0, 11), slice(11, 30)):
        accumulator.update(batch(y_true, rows), batch(y_pred, rows))
    np.testing.assert_allclose(accumulator.result(), sce.transport_confusion_matrix(
        y_true, y_pred, labels=labels), rtol=1e-12)
    before = _state(accumulator)
    bad = batch(y_pred, slice(0, 6)).astype({1: MISSING[kind]})
    bad.iloc[4, 1] = pd.NA
    with pytest.raises(ValueError, match=r"^y_pred contains nan \(first at row 4\)"):
        accumulator.update(batch(y_true, slice(0, 6)), bad)
    assert _state(accumulator) == before


# --- 5. Resampling: the same draws whatever the memory budget and the threads ---------------


@pytest.mark.filterwarnings("ignore::UserWarning")  # scores of classes never predicted
@pytest.mark.parametrize("kind", ["labels", "multilabel", "soft", "probabilities"])
def test_intervals_and_comparisons_do_not_depend_on_the_budget_or_the_threads(kind):
    """With 60 classes and a budget of 1 MiB the resamples come in several batches drawn
    into one reused buffer: the interval's bounds, its distribution and the comparison's
    equal those of one batch, with any ``n_jobs``, with weights and with groups."""
    from test_common import random_targets

    rng = np.random.default_rng(12)
    y_true, y_pred = random_targets(kind, rng, n_samples=120, n_classes=60)
    _, other = random_targets(kind, rng, n_samples=120, n_classes=60)
    extras = [{}, {"sample_weight": rng.random(120) + 0.5},
              {"groups": rng.integers(0, 15, 120)}]
    for number, extra in enumerate(extras):
        method = ("percentile", "bca", "bayesian")[number]
        keywords = dict(scoring="tcm_f1_macro", n_resamples=70, random_state=3, **extra)
        expected = sce.score_confidence_interval(y_true, y_pred, method=method, **keywords)
        for budget, n_jobs in ((1, None), (1, 2), (1024, 2)):
            with sce.config_context(max_matrix_mib=budget):
                got = sce.score_confidence_interval(y_true, y_pred, method=method,
                                                    n_jobs=n_jobs, **keywords)
            assert_same(got, expected, rtol=1e-12, atol=1e-13, where=f"{budget} {n_jobs}")
        method = ("bootstrap", "permutation", "bayesian")[number]
        expected = sce.compare_scores(y_true, y_pred, other, method=method, **keywords)
        with sce.config_context(max_matrix_mib=1):
            got = sce.compare_scores(y_true, y_pred, other, method=method, **keywords)
        assert_same(got, expected, rtol=1e-12, atol=1e-13, where=method)
    if kind != "labels":  # the report's intervals: 999 resamples in batches of 64
        expected = sce.transport_classification_report(
            y_true, y_pred, output_dict=True, confidence_level=0.9, random_state=0)
        with sce.config_context(max_matrix_mib=1):
            assert sce.transport_classification_report(
                y_true, y_pred, output_dict=True, confidence_level=0.9,
                random_state=0) == expected
