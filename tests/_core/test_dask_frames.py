"""Columns of Dask dataframes equal the same data as Dask arrays, as NumPy and as pandas,
and each partition is read once (the local scheduler: these tests need no cluster)."""

import importlib.util
import warnings

import numpy as np
import pytest
from kinds import CASES, one_shot, random_targets

from sklearn_confusion_ext import ConfusionAccumulator, transport_confusion_matrix

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

# Rows of the partitions: equal, unequal, one of a single row.
SPLITS = [(30, 30, 30), (41, 1, 20, 28)]


def _counted_frame(whole, split):
    """A Dask dataframe of ``whole`` split into partitions of ``split`` rows, each loaded
    by a task that counts its loads; and the list of loads (a partition's index a load)."""
    stops = np.cumsum(split)
    pieces = [whole.iloc[stop - size:stop] for size, stop in zip(split, stops)]
    loads = []

    def load(part):
        loads.append(part[1])
        return pieces[part[1]]

    # each frame its own tasks (a frame of the same arguments would share another's)
    return dd.from_map(load, [(id(loads), i) for i in range(len(pieces))],
                       meta=whole.iloc[:0]), loads


def _frame_of(y_true, y_pred, weights):
    """One pandas frame holding the targets' columns and the weights, and how to take
    ``(y_true, y_pred, weights)`` back from it (from it or from its Dask dataframe)."""
    parts, columns = [], []
    for name, y in (("true", y_true), ("pred", y_pred)):
        y = np.asarray(y)
        if y.ndim == 1:
            parts.append(pd.DataFrame({name: y}))
            columns.append(name)
        else:
            own = [f"{name} {j}" for j in range(y.shape[1])]
            parts.append(pd.DataFrame(y, columns=own))
            columns.append(own)
    parts.append(pd.DataFrame({"weight": weights}))
    whole = pd.concat(parts, axis=1)

    def targets(frame):
        # 2-D targets keep the default column names (0 .. C-1): read by position
        return tuple(frame[c] if isinstance(c, str) else
                     frame[c].rename(columns=dict(zip(c, range(len(c))))) for c in columns
                     ) + (frame["weight"],)

    return whole, targets


def _dask_arrays(targets, split):
    return [da.from_array(np.asarray(y), chunks=(tuple(split),) + np.shape(y)[1:])
            for y in targets]


@pytest.mark.parametrize("split", SPLITS, ids=["equal", "unequal"])
@pytest.mark.parametrize("kind, form, params", CASES)
def test_every_kind_reads_dataframe_columns_once_as_dask_arrays(rng, kind, form, params,
                                                                split):
    """Every kind of the registry on columns of one Dask dataframe: the result of the
    same data as Dask arrays chunked alike and as NumPy (with weights), and each
    partition loaded once (the inputs' graphs built together, one pass)."""
    y_true, y_pred = random_targets(rng, form, sum(split))
    weights = rng.random(len(y_true))
    whole, targets = _frame_of(y_true, y_pred, weights)
    ddf, loads = _counted_frame(whole, split)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty="skip" warns
        expected = one_shot(kind, y_true, y_pred, weights, None, params)
        with dask.config.set(scheduler="sync"):
            got = ConfusionAccumulator(kind, **params).update(
                *targets(ddf)[:2], sample_weight=targets(ddf)[2]).result()
            arrays = ConfusionAccumulator(kind, **params).update(
                *_dask_arrays((y_true, y_pred, weights), split)[:2],
                sample_weight=_dask_arrays((y_true, y_pred, weights), split)[2]).result()
    assert sorted(loads) == list(range(len(split)))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(got, arrays, rtol=1e-12, atol=1e-10)


def _named_cases(rng, n_samples):
    """(case, whole frame, targets of a frame, the same as NumPy arrays in sorted class
    order or None where only pandas gives the reference)."""
    classes = np.array(["cat", "dog", "fox"])
    true_codes, pred_codes = rng.integers(0, 3, (2, n_samples))
    probabilities = rng.dirichlet(np.ones(3), n_samples)
    soft_true = rng.dirichlet(np.ones(3), n_samples)
    order, other = ["fox", "cat", "dog"], ["dog", "fox", "cat"]
    whole = pd.DataFrame({"true": classes[true_codes], "pred": classes[pred_codes],
                          "weight": rng.random(n_samples)})
    whole["true str"] = whole["true"].astype("string")
    whole["true cat"] = pd.Categorical(whole["true"], categories=["fox", "dog", "cat"])
    whole["pred cat"] = pd.Categorical(whole["pred"], categories=["fox", "dog", "cat"])
    for position, name in enumerate(classes):
        whole[name] = probabilities[:, position]
        whole[f"t {name}"] = soft_true[:, position]
    truth = {f"t {c}": c for c in other}
    return [
        ("string labels (object columns)", whole, lambda f: (f["true"], f["pred"]),
         (classes[true_codes], classes[pred_codes])),
        ("pandas string labels", whole, lambda f: (f["true str"], f["pred"]),
         (classes[true_codes], classes[pred_codes])),
        ("categorical labels, categories not sorted", whole,
         lambda f: (f["true cat"], f["pred cat"]), None),
        ("labels beside probabilities named out of class order", whole,
         lambda f: (f["true"], f[order]), (classes[true_codes], probabilities)),
        ("probabilities named out of class order beside labels", whole,
         lambda f: (f[order], f["true"]), (probabilities, classes[true_codes])),
        ("soft labels beside soft labels, named in two other orders", whole,
         lambda f: (f[list(truth)].rename(columns=truth), f[order]),
         (soft_true, probabilities)),
    ]


@pytest.mark.parametrize("split", SPLITS, ids=["equal", "unequal"])
def test_named_columns_categoricals_and_strings_read_as_pandas_and_as_arrays(rng, split):
    """Names carry the classes (a frame's columns in any order, a categorical's
    categories in theirs): the Dask dataframe gives the pandas result and, where the data
    has a NumPy form, the Dask arrays' result; each partition is loaded once."""
    for case, whole, targets, arrays in _named_cases(rng, sum(split)):
        ddf, loads = _counted_frame(whole, split)
        expected = transport_confusion_matrix(*targets(whole), sample_weight=whole["weight"])
        with dask.config.set(scheduler="sync"):
            got = transport_confusion_matrix(*targets(ddf), sample_weight=ddf["weight"])
        assert sorted(loads) == list(range(len(split))), case
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=case)
        if arrays is not None:
            dask_arrays = _dask_arrays((*arrays, whole["weight"].to_numpy()), split)
            np.testing.assert_allclose(
                got, transport_confusion_matrix(*dask_arrays[:2], sample_weight=dask_arrays[2]),
                rtol=1e-12, atol=1e-12, err_msg=case)


def test_partitions_split_at_other_rows_are_aligned_by_row(rng):
    """Two dataframes split at other rows, with as many partitions or not: read by row
    (the Dask arrays' way), the pandas result."""
    whole = _named_cases(rng, 90)[3][1]
    expected = transport_confusion_matrix(whole["true"], whole[["fox", "cat", "dog"]],
                                          sample_weight=whole["weight"])
    true, _ = _counted_frame(whole, (30, 30, 30))
    for split in [(10, 40, 40), (10, 40, 20, 20)]:
        pred, _ = _counted_frame(whole, split)
        got = transport_confusion_matrix(true["true"], pred[["fox", "cat", "dog"]],
                                         sample_weight=true["weight"])
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def _labels_beside_unnamed(rng, split, missing=None):
    """A frame of string labels (``missing``: a partition without the class "bee") beside
    probabilities in unnamed columns (0 .. 2), and that frame counted as Dask partitions."""
    classes = np.array(["ant", "bee", "cat"])
    y = classes[np.concatenate([rng.permutation(np.arange(size) % 3) for size in split])]
    if missing is not None:
        start = sum(split[:missing])
        rows = slice(start, start + split[missing])
        y[rows] = np.where(y[rows] == "bee", "cat", y[rows])
    probabilities = rng.dirichlet(np.ones(3), len(y))
    whole = pd.concat([pd.DataFrame({"label": y, "w": rng.random(len(y))}),
                       pd.DataFrame(probabilities)], axis=1)
    return whole, _counted_frame(whole, split)


@pytest.mark.parametrize("split", SPLITS[:1] + [(30, 3, 30, 27)], ids=["equal", "unequal"])
def test_labels_beside_unnamed_probabilities_read_once(rng, split):
    """Probabilities whose columns are positions beside labels: the classes are the sorted
    labels found, found in the pass of the sums (a partition holding every class takes its
    own, the same), so each partition is loaded once; a partition lacking a class is
    loaded again, alone (the labels of the whole known by then); labels= gives one pass
    too. Sums as pandas gives them, weighted, both sides."""
    for missing in (None, 1):
        whole, (ddf, loads) = _labels_beside_unnamed(rng, split, missing)
        for swapped in (False, True):
            targets = [whole["label"], whole[[0, 1, 2]]]
            dask_targets = [ddf["label"], ddf[[0, 1, 2]]]
            if swapped:
                targets, dask_targets = targets[::-1], dask_targets[::-1]
            expected = transport_confusion_matrix(*targets, sample_weight=whole["w"])
            loads.clear()
            with dask.config.set(scheduler="sync"):
                got = transport_confusion_matrix(*dask_targets, sample_weight=ddf["w"])
            again = [] if missing is None else [missing]
            assert sorted(loads) == sorted(list(range(len(split))) + again), (missing, swapped)
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
            loads.clear()
            with dask.config.set(scheduler="sync"):
                named = transport_confusion_matrix(*dask_targets, sample_weight=ddf["w"],
                                                   labels=["ant", "bee", "cat"])
            assert sorted(loads) == list(range(len(split)))
            np.testing.assert_allclose(named, expected, rtol=1e-12, atol=1e-12)


def test_labels_not_one_per_unnamed_column_are_refused_as_in_pandas(rng):
    """Labels found that are not one per column of the probabilities: the error of the
    plain two-pass reading (the labels of the whole found first, every partition refused
    with them, as with labels= given: the first that fails is named); a partition's own
    error (NaN) names it."""
    split = (30, 30, 30)
    whole, (ddf, _) = _labels_beside_unnamed(rng, split)
    whole.loc[65, "label"] = "dog"  # four labels, three columns
    with pytest.raises(ValueError, match="4 distinct class label"):
        transport_confusion_matrix(whole["label"], whole[[0, 1, 2]])
    ddf, _ = _counted_frame(whole, split)
    for labels in (None, ["ant", "bee", "cat", "dog"]):  # found, or given
        with pytest.raises(ValueError, match=r"^Dask block \d, rows (\d+) to \d+ \(row "
                           r"numbers below count from \1\): labels \[.*\] and the classes of "
                           r"y_true .* make 4 class\(es\) .* but y_pred has 3 columns"):
            transport_confusion_matrix(ddf["label"], ddf[[0, 1, 2]], labels=labels)
    whole.loc[65, "label"] = "ant"
    whole.loc[40, 1] = np.nan
    ddf, _ = _counted_frame(whole, split)
    with pytest.raises(ValueError, match=r"^Dask block 1, rows 30 to 59 .*y_pred contains "
                       r"nan.*row 10"):
        transport_confusion_matrix(ddf["label"], ddf[[0, 1, 2]])


def test_default_columns_beside_named_ones_are_matched_by_name(rng):
    """A frame whose integer column names are out of order beside one of default columns
    (0 .. C-1): the default frame is matched by name, as pandas targets are, not read by
    position (its partitions stay pandas objects); frames of numbers alone (read as NumPy
    inside the tasks) give the pandas result too."""
    soft_true, soft_pred = rng.dirichlet(np.ones(3), (2, 60))
    weights = rng.random(60)
    true = pd.DataFrame(soft_true, columns=[2, 0, 1])
    pred = pd.DataFrame(soft_pred)
    expected = transport_confusion_matrix(true, pred, sample_weight=weights)
    by_position = transport_confusion_matrix(soft_true, soft_pred, sample_weight=weights)
    assert not np.allclose(expected, by_position)  # the names matter here
    for split in SPLITS:
        dask_true, dask_pred = (_counted_frame(frame, split)[0] for frame in (true, pred))
        weight = _counted_frame(pd.DataFrame({"w": weights}), split)[0]["w"]
        with dask.config.set(scheduler="sync"):
            named = transport_confusion_matrix(dask_true, dask_pred, sample_weight=weight)
            plain = transport_confusion_matrix(dask_pred, dask_true.rename(
                columns=dict(zip([2, 0, 1], [0, 1, 2]))), sample_weight=weight)
        np.testing.assert_allclose(named, expected, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(plain, transport_confusion_matrix(
            soft_pred, soft_true, sample_weight=weights), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind, form, params", CASES)
def test_every_kind_of_labels_beside_unnamed_probabilities(rng, kind, form, params):
    """Every kind of the registry on labels beside probabilities in unnamed columns (the
    labels found in the pass of the sums; one partition lacking a class, read again): the
    in-memory result, or its refusal."""
    split = (30, 3, 30, 27)
    whole, (ddf, loads) = _labels_beside_unnamed(rng, split, missing=1)
    for columns in (["label", [0, 1, 2]], [[0, 1, 2], "label"]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns
            try:
                expected = one_shot(kind, *(whole[c] for c in columns), whole["w"], None,
                                    params)
            except ValueError as error:
                expected = error
            with dask.config.set(scheduler="sync"):
                if isinstance(expected, ValueError):
                    with pytest.raises(ValueError):
                        one_shot(kind, *(ddf[c] for c in columns), ddf["w"], None, params)
                    continue
                got = one_shot(kind, *(ddf[c] for c in columns), ddf["w"], None, params)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-10)


def test_labels_found_by_counting_are_numpy_unique(rng):
    """Unit test of the private labels-found helper (no public face of its own: the
    labels beside unnamed columns above): integer labels counted over their range give
    ``np.unique``'s values, type and order, for every integer type, near its limits too."""
    from sklearn_confusion_ext._core.dask_collections import _unique

    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                  np.uint64):
        info = np.iinfo(dtype)
        for low, high in ((info.min, info.min + 50), (info.max - 50, info.max),
                          (max(info.min, -100), min(info.max, 200)), (info.min, info.max)):
            values = rng.integers(low, high, 500, endpoint=True, dtype=dtype)
            found, expected = _unique(values), np.unique(values)
            assert found.dtype == expected.dtype
            np.testing.assert_array_equal(found, expected)
    for values in (np.array([3.5, 1.0, 3.5]), np.array(["b", "a", "b"], dtype=object),
                   np.array([True, False]), np.array([], dtype=np.int64)):
        np.testing.assert_array_equal(_unique(values), np.unique(values))


@pytest.mark.parametrize("missing", [None, np.nan, "NA"])
def test_missing_labels_beside_unnamed_probabilities_are_refused_naming_the_target(
        rng, missing):
    """A missing label (None, NaN, pandas.NA) beside probabilities in unnamed columns, in
    an object, a pandas string or a float column (and in Dask arrays): the in-memory
    refusal naming y_true, in the partition that holds it (it was a TypeError from sorting
    the labels found, or, for floats, NaN taken for a fourth class)."""
    missing = pd.NA if missing == "NA" else missing
    labels = rng.choice(["ant", "bee", "cat"], 90).astype(object)
    labels[40] = missing
    probabilities = rng.dirichlet(np.ones(3), 90)
    numbers = rng.integers(0, 3, 90).astype(float)
    numbers[40] = np.nan
    block = r"^Dask block 1, rows 30 to 59 \(row numbers below count from 30\): "
    for y, message in ((labels, "y_true contains a missing class label"),
                       (pd.Series(labels).astype("string"),
                        "y_true contains a missing class label"),
                       (numbers, "y_true contains NaN or infinite class labels")):
        whole = pd.concat([pd.DataFrame({"label": y}), pd.DataFrame(probabilities)], axis=1)
        with pytest.raises(ValueError, match=message):
            transport_confusion_matrix(whole["label"], whole[[0, 1, 2]])
        ddf, _ = _counted_frame(whole, (30, 30, 30))
        with pytest.raises(ValueError, match=block + message):
            transport_confusion_matrix(ddf["label"], ddf[[0, 1, 2]])
        if not isinstance(y, pd.Series):
            with pytest.raises(ValueError, match=block + message):
                transport_confusion_matrix(da.from_array(y, chunks=30),
                                           da.from_array(probabilities, chunks=(30, 3)))


# Columns of one Dask dataframe made by ``from_pandas`` (each task takes the partition's
# columns from the frame itself, without Dask's selection and rename tasks) or by
# ``from_map`` (each task selects them from the source's partition), split any way.
N_SPLIT = 50
SPLIT_COUNTS = [1, 3, 16]  # 50 rows: one partition; 17, 17, 16; 13 partitions of 4 and 2
SPLITS_WITH_EMPTY = [(50,), (0, 20, 0, 30), (5, 0, 0, 45, 0)]


def _split_frame(rng, n_samples=N_SPLIT):
    """A frame of every kind of column: string labels (object, pandas string, categorical
    with unsorted categories), integer codes, probabilities and soft labels named by class
    (each set side by side in one block of its own), and weights."""
    classes = np.array(["ant", "bee", "cat"])
    true_codes, pred_codes = (np.concatenate([rng.permutation(np.arange(n_samples) % 3)])
                              for _ in range(2))
    probabilities = rng.dirichlet(np.ones(3), n_samples)
    soft_true = rng.dirichlet(np.ones(3), n_samples)
    labels = pd.DataFrame({"label": classes[true_codes].astype(object),
                           "pred": classes[pred_codes].astype(object), "code": true_codes,
                           "w": rng.random(n_samples)})
    labels["label str"] = labels["label"].astype("string")
    labels["label cat"] = pd.Categorical(labels["label"], categories=["cat", "ant", "bee"])
    labels["pred cat"] = pd.Categorical(labels["pred"], categories=["cat", "ant", "bee"])
    return pd.concat([labels, pd.DataFrame(probabilities, columns=list(classes)),
                      pd.DataFrame(soft_true, columns=[f"t {c}" for c in classes])], axis=1)


_TRUTH = {"t ant": "ant", "t bee": "bee", "t cat": "cat"}
_POSITIONS = {"ant": 0, "bee": 1, "cat": 2}
SPLIT_CASES = {
    "object string labels": lambda f: (f["label"], f["pred"]),
    "pandas string labels beside object ones": lambda f: (f["label str"], f["pred"]),
    "categorical labels": lambda f: (f["label cat"], f["pred cat"]),
    "labels beside probabilities named side by side": lambda f: (f["label"],
                                                                 f[["ant", "bee", "cat"]]),
    "probabilities named out of order beside labels": lambda f: (f[["cat", "ant", "bee"]],
                                                                 f["label"]),
    "labels beside unnamed probabilities": lambda f: (
        f["label"], f[["ant", "bee", "cat"]].rename(columns=_POSITIONS)),
    "codes beside unnamed probabilities": lambda f: (
        f["code"], f[["ant", "bee", "cat"]].rename(columns=_POSITIONS)),
    "renamed labels beside probabilities": lambda f: (f["label"].rename("y"),
                                                      f[["ant", "bee", "cat"]]),
    "soft labels renamed beside soft labels": lambda f: (
        f[list(_TRUTH)].rename(columns=_TRUTH), f[["ant", "bee", "cat"]]),
    "soft labels named out of order beside soft labels": lambda f: (
        f[["t cat", "t ant", "t bee"]].rename(columns=_TRUTH), f[["ant", "bee", "cat"]]),
    "unnamed soft labels beside themselves": lambda f: (
        f[["ant", "bee", "cat"]].rename(columns=_POSITIONS),
        f[["ant", "bee", "cat"]].rename(columns=_POSITIONS)),
}


@pytest.mark.parametrize("case", list(SPLIT_CASES))
def test_columns_split_into_any_partitions_give_the_in_memory_result(rng, case):
    """Columns of one Dask dataframe split into 1, 3 and 16 partitions by ``from_pandas``
    (uneven), and into partitions of which some are empty by ``from_map``, with the
    weights a column of the same frame or a Dask series of its own: the in-memory pandas
    result (named and unnamed columns, object, string and categorical labels)."""
    whole = _split_frame(rng)
    targets = SPLIT_CASES[case]
    expected = transport_confusion_matrix(*targets(whole), sample_weight=whole["w"])
    frames = [dd.from_pandas(whole, npartitions=count, sort=False) for count in SPLIT_COUNTS]
    frames += [_counted_frame(whole, split)[0] for split in SPLITS_WITH_EMPTY]
    for ddf in frames:
        weights = [ddf["w"], dd.from_pandas(whole["w"], npartitions=ddf.npartitions,
                                            sort=False)]
        for weight in weights:
            with dask.config.set(scheduler="sync"):
                got = transport_confusion_matrix(*targets(ddf), sample_weight=weight)
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{case}, {ddf.npartitions} partitions")


@pytest.mark.parametrize("count", SPLIT_COUNTS)
@pytest.mark.parametrize("kind, form, params", CASES)
def test_every_kind_on_from_pandas_columns(rng, kind, form, params, count):
    """Every kind of the registry on columns of a ``from_pandas`` dataframe in 1, 3 or 16
    partitions (2-D targets in unnamed columns, side by side): the NumPy result, with
    weights."""
    y_true, y_pred = random_targets(rng, form, N_SPLIT)
    weights = rng.random(N_SPLIT)
    whole, targets = _frame_of(y_true, y_pred, weights)
    ddf = dd.from_pandas(whole, npartitions=count, sort=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty="skip" warns
        expected = one_shot(kind, y_true, y_pred, weights, None, params)
        with dask.config.set(scheduler="sync"):
            got = ConfusionAccumulator(kind, **params).update(
                *targets(ddf)[:2], sample_weight=targets(ddf)[2]).result()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-10)


def test_from_pandas_strings_index_order_and_errors_as_dask_reads_them(rng):
    """A ``from_pandas`` frame is read as Dask reads it: object strings as pyarrow strings
    or not (``dataframe.convert-string``), an unsorted index sorted (``sort=True``), and
    an error in a partition names that partition's rows in Dask's order."""
    whole = _split_frame(rng)
    expected = transport_confusion_matrix(whole["label"], whole[["ant", "bee", "cat"]],
                                          sample_weight=whole["w"])
    # converting strings to pyarrow's needs pyarrow (not in the dependency floors' run)
    conversions = (True, False) if importlib.util.find_spec("pyarrow") else (False,)
    for convert in conversions:
        with dask.config.set({"dataframe.convert-string": convert}):
            ddf = dd.from_pandas(whole, npartitions=3, sort=False)
            got = transport_confusion_matrix(ddf["label"], ddf[["ant", "bee", "cat"]],
                                             sample_weight=ddf["w"])
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    shuffled = whole.iloc[rng.permutation(N_SPLIT)]
    ddf = dd.from_pandas(shuffled, npartitions=3, sort=True)
    got = transport_confusion_matrix(ddf["label"], ddf[["ant", "bee", "cat"]],
                                     sample_weight=ddf["w"])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    broken = shuffled.copy()
    broken.loc[40, "bee"] = np.nan  # row 40 of the sorted frame: partition 2 (rows 34-49)
    ddf = dd.from_pandas(broken, npartitions=3, sort=True)
    assert ddf.divisions == (0, 17, 34, 49)
    for columns in (["ant", "bee", "cat"], ["cat", "ant", "bee"]):
        with pytest.raises(ValueError, match=r"^Dask block 2, rows 34 to 49 \(row numbers "
                           r"below count from 34\): y_pred contains nan.*row 6"):
            transport_confusion_matrix(ddf["label"], ddf[columns])


def test_sums_merged_over_more_than_one_level_keep_the_classes_sorted(rng):
    """More than ``_FAN_IN`` (8) partitions, some lacking classes, so that their sums are
    merged over two levels: the classes in sorted order, as in memory (the second level
    took the first level's classes, in the order they were met, for a categorical's order:
    the matrix came back in that order, e.g. bee, cat, dog, ant). Dask dataframes and Dask
    arrays, labels and labels beside probabilities."""
    classes = np.array(["ant", "bee", "cat", "dog"])
    codes = np.concatenate([[1, 2, 3, 1, 2, 3], rng.integers(0, 4, 54)])  # no "ant" first
    pred = np.concatenate([[3, 2, 1, 1, 3, 2], rng.integers(0, 4, 54)])
    probabilities = rng.dirichlet(np.ones(4), 60)
    whole = pd.concat([pd.DataFrame({"true": classes[codes], "pred": classes[pred]}),
                       pd.DataFrame(probabilities, columns=list(classes))], axis=1)
    ddf = dd.from_pandas(whole, npartitions=20, sort=False)
    assert ddf.npartitions > 8
    arrays = [da.from_array(y, chunks=3) for y in (classes[codes], classes[pred])]
    for got, expected in [
            (transport_confusion_matrix(ddf["true"], ddf["pred"]),
             transport_confusion_matrix(whole["true"], whole["pred"])),
            (transport_confusion_matrix(*arrays),
             transport_confusion_matrix(classes[codes], classes[pred])),
            (transport_confusion_matrix(ddf["true"], ddf[list(classes)]),
             transport_confusion_matrix(whole["true"], whole[list(classes)]))]:
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
