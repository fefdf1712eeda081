"""Dask inputs on a real two-process LocalCluster equal the NumPy results."""

import re
import warnings

import numpy as np
import pytest
from kinds import CASES, one_shot, random_targets

from sklearn_confusion_ext import (
    ConfusionAccumulator,
    mlcm,
    transport_confusion_matrix,
    transport_precision_recall_fscore_support,
)

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")
pd = pytest.importorskip("pandas")

# Row chunkings: small, uneven, one block, blocks of unequal sizes.
CHUNKINGS = [17, (30, 1, 59, 30), 120, (100, 20)]


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def _dask(y, rows):
    return da.from_array(y, chunks=(rows,) + np.shape(y)[1:])


def test_without_a_client_the_local_scheduler_runs_it(rng):
    # Runs before the module's cluster starts: no distributed client exists yet.
    with pytest.raises(ValueError):
        distributed.get_client()
    y_true, y_pred = random_targets(rng, "labels")
    np.testing.assert_allclose(transport_confusion_matrix(_dask(y_true, 7), y_pred),
                               transport_confusion_matrix(y_true, y_pred))


@pytest.mark.parametrize("kind, form, params", CASES)
def test_dask_arrays_equal_numpy_for_every_kind(client, rng, kind, form, params):
    y_true, y_pred = random_targets(rng, form)
    weights = rng.random(len(y_true))
    labels = ["dog", "ant", "emu"] if form == "labels" else [3, 0]
    for rows, chosen in zip(CHUNKINGS, (None, labels, None, labels)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns
            expected = one_shot(kind, y_true, y_pred, weights, chosen, params)
            accumulator = ConfusionAccumulator(kind, labels=chosen, **params)
            # y_pred and the weights may be NumPy, or Dask chunked otherwise.
            accumulator.update(_dask(y_true, rows), _dask(y_pred, 40), weights)
        np.testing.assert_allclose(accumulator.result(), expected, atol=1e-10)
        assert accumulator.n_samples_ == len(y_true)


def test_builders_run_their_blocks_on_the_workers(client, rng):
    y_true, y_pred = random_targets(rng, "soft", 1000)
    with distributed.get_task_stream(client) as stream:
        result = transport_confusion_matrix(_dask(y_true, 100), _dask(y_pred, 100),
                                            weighting="true")
    np.testing.assert_allclose(result, transport_confusion_matrix(y_true, y_pred,
                                                                  weighting="true"))
    assert isinstance(result, np.ndarray)
    blocks = [task for task in stream.data if "_block_sum" in str(task["key"])]
    assert len(blocks) == 10
    assert {task["worker"] for task in blocks} <= set(client.scheduler_info()["workers"])


def test_dataframe_columns_of_labels(client, rng):
    frame = pd.DataFrame({"true": rng.choice(["ant", "bee", "cat"], 300),
                          "pred": rng.choice(["ant", "bee", "cat", "dog"], 300),
                          "weight": rng.random(300)})
    ddf = dd.from_pandas(frame, npartitions=4)
    from sklearn.metrics import confusion_matrix

    for labels in (None, ["dog", "ant"]):
        expected = confusion_matrix(frame["true"], frame["pred"], labels=labels,
                                    sample_weight=frame["weight"])
        got = transport_confusion_matrix(ddf["true"], ddf["pred"], labels=labels,
                                         sample_weight=ddf["weight"])
        np.testing.assert_allclose(got, expected)


def test_labels_beside_unnamed_probabilities_on_the_workers(client, rng):
    """Labels beside probabilities in unnamed columns on the cluster (their classes found
    in the pass of the sums; one partition lacking a class, summed again): the pandas
    result."""
    labels = rng.choice(["ant", "bee", "cat"], 300)
    labels[75:150] = np.where(labels[75:150] == "bee", "cat", labels[75:150])
    frame = pd.concat([pd.DataFrame({"true": labels, "weight": rng.random(300)}),
                       pd.DataFrame(rng.dirichlet(np.ones(3), 300))], axis=1)
    ddf = dd.from_pandas(frame, npartitions=4, sort=False)
    expected = transport_confusion_matrix(frame["true"], frame[[0, 1, 2]],
                                          sample_weight=frame["weight"])
    got = transport_confusion_matrix(ddf["true"], ddf[[0, 1, 2]], sample_weight=ddf["weight"])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_unknown_chunk_sizes_are_counted(client, rng):
    y_true, y_pred = random_targets(rng, "soft", 200)
    columns = [f"c{i}" for i in range(4)]
    frame = dd.from_pandas(pd.DataFrame(np.hstack([y_true, y_pred]),
                                        columns=columns + [f"p{i}" for i in range(4)]),
                           npartitions=3)
    true_values = frame[columns].values  # a Dask array of unknown chunk sizes
    assert np.isnan(true_values.chunks[0]).all()
    np.testing.assert_allclose(transport_confusion_matrix(true_values, y_pred),
                               transport_confusion_matrix(y_true, y_pred))


def test_derived_scores_and_sparse_blocks(client, rng):
    import scipy.sparse as sp

    y_true, y_pred = random_targets(rng, "indicator", 400)
    sparse_true = da.from_array(sp.csr_matrix(y_true), chunks=(50, 4), asarray=False)
    got = mlcm(sparse_true, _dask(y_pred, 50))
    np.testing.assert_allclose(got, mlcm(y_true, y_pred))
    np.testing.assert_allclose(
        transport_precision_recall_fscore_support(_dask(y_true, 64), y_pred,
                                                  average="macro")[:3],
        transport_precision_recall_fscore_support(y_true, y_pred, average="macro")[:3])


def test_skipped_instances_warn_once_with_the_total(client, rng):
    y_true, y_pred = random_targets(rng, "indicator", 300)
    n_empty = np.count_nonzero((y_true.sum(1) == 0) | (y_pred.sum(1) == 0))
    with pytest.warns(UserWarning, match=f"^{n_empty} instance") as record:
        transport_confusion_matrix(_dask(y_true, 25), _dask(y_pred, 25), empty="skip")
    assert len(record) == 1


def test_bad_dask_inputs(client, rng):
    y_true, y_pred = random_targets(rng, "soft", 200)
    bad = y_true.copy()
    bad[155, 2] = np.nan
    with pytest.raises(ValueError, match=r"Dask block 3, rows 150 to 199 .*first at row 5\)"):
        transport_confusion_matrix(_dask(bad, 50), y_pred)
    with pytest.raises(ValueError, match="y_pred has 199 rows; the other inputs have 200"):
        transport_confusion_matrix(_dask(y_true, 50), y_pred[:-1])
    with pytest.raises(ValueError, match="'weighting' parameter"):
        transport_confusion_matrix(_dask(y_true, 50), y_pred, weighting="both")
    with pytest.raises(ValueError, match=r"labels must be column indices in \[0, 4\)"):
        transport_confusion_matrix(_dask(y_true, 50), y_pred, labels=[7])
    with pytest.raises(ValueError, match="values other than 0 and 1"):
        mlcm(_dask(y_true, 50), y_pred)
    with pytest.raises(ValueError, match=r"None of labels \[7\] appear in y_true"):
        transport_confusion_matrix(_dask(np.arange(200) % 5, 50), np.full(200, 7),
                                   labels=[7])


@pytest.mark.parametrize("kind, form, params", CASES)
def test_xarray_data_arrays_in_memory_and_over_dask(rng, kind, form, params):
    xr = pytest.importorskip("xarray")
    y_true, y_pred = random_targets(rng, form, 50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty="skip" warns
        expected = one_shot(kind, y_true, y_pred, None, None, params)
        for wrap in (np.asarray, lambda y: _dask(y, 20)):
            true, pred = (xr.DataArray(wrap(y)) for y in (y_true, y_pred))
            got = ConfusionAccumulator(kind, **params).update(true, pred).result()
            np.testing.assert_allclose(got, expected, atol=1e-10)


def _frame_cases(rng):
    """(name, in-memory targets, labels=) of pandas inputs whose names carry the classes."""
    names = ["cat", "dog", "fox"]
    scores = pd.DataFrame(rng.dirichlet(np.ones(3), 60), columns=names)[["fox", "cat", "dog"]]
    labels = pd.Series(np.array(names)[rng.integers(0, 3, 60)])
    true = pd.DataFrame((rng.random((60, 3)) < 0.4).astype(int), columns=names)
    pred = pd.DataFrame((rng.random((60, 3)) < 0.4).astype(int), columns=names)[
        ["dog", "fox", "cat"]]
    levels = pd.CategoricalDtype(["low", "medium", "high", "unused"], ordered=True)
    ordinal = [pd.Series(pd.Categorical(rng.choice(["low", "medium", "high"], 60),
                                        dtype=levels)) for _ in range(2)]
    return [("labels beside reordered probabilities", (labels, scores), None),
            ("the same, labels= in another order", (labels, scores), ["dog", "cat", "fox"]),
            ("reordered probabilities beside labels", (scores, labels), None),
            ("named indicator frames", (true, pred), None),
            ("named indicator frames, labels= names", (true, pred), ["fox", "cat"]),
            ("ordered categoricals with an unused category", tuple(ordinal), None)]


@pytest.mark.parametrize("function", [transport_confusion_matrix,
                                      transport_precision_recall_fscore_support])
def test_dask_dataframes_read_names_and_categories_as_pandas_does(rng, function):
    for case, targets, labels in _frame_cases(rng):
        try:
            expected = function(*targets, labels=labels)
        except ValueError as error:  # then refused alike
            expected = error
        for partitions in (1, 4):
            dask_targets = [dd.from_pandas(y, npartitions=partitions) for y in targets]
            if isinstance(expected, ValueError):
                with pytest.raises(ValueError, match=re.escape(str(expected)[-40:])):
                    function(*dask_targets, labels=labels)
                continue
            got = function(*dask_targets, labels=labels)
            for value, reference in zip(np.atleast_1d(got) if function is
                                        transport_confusion_matrix else got[:3],
                                        np.atleast_1d(expected) if function is
                                        transport_confusion_matrix else expected[:3]):
                np.testing.assert_allclose(value, reference, atol=1e-12, err_msg=case)


def test_dask_dataframe_of_reordered_probabilities_scores_as_pandas(rng):
    from sklearn_confusion_ext import transport_accuracy_score

    probabilities = rng.dirichlet(np.ones(3), 40)
    y = pd.Series(np.array(["cat", "dog", "fox"])[probabilities.argmax(1)])
    frame = pd.DataFrame(probabilities, columns=["cat", "dog", "fox"])[["fox", "cat", "dog"]]
    expected = transport_accuracy_score(y, frame)
    got = transport_accuracy_score(dd.from_pandas(y, npartitions=3),
                                   dd.from_pandas(frame, npartitions=3))
    assert got == pytest.approx(expected, rel=1e-12)
    assert expected > 0.5  # the argmax is the label: the reordered frame read as is is not


def _counted_frame(frames):
    """A Dask dataframe of ``frames`` (one partition each) that counts its partitions'
    reads, and the list of reads."""
    reads = []

    def load(index):
        reads.append(index)
        return frames[index]

    return dd.from_map(load, range(len(frames)), meta=frames[0].iloc[:0]), reads


def _frame_pieces(rng, n_pieces=4, rows=30):
    classes = ["ant", "bee", "cat"]
    pieces = []
    for _ in range(n_pieces):
        true = rng.dirichlet(np.ones(3), rows)
        pred = rng.dirichlet(np.ones(3), rows)
        piece = pd.DataFrame(np.hstack([true, pred]),
                             columns=[f"t {c}" for c in classes] + classes)
        piece["true"] = rng.choice(classes, rows)
        piece["pred"] = rng.choice(classes, rows)
        piece["weight"] = rng.random(rows)
        pieces.append(piece)
    return classes, pieces


@pytest.mark.parametrize("case", ["labels", "labels beside named probabilities",
                                  "soft labels, named columns"])
def test_each_partition_of_a_dataframe_is_read_once(rng, case):
    """Columns of one Dask dataframe: one read of each partition (it was four: partition
    lengths counted for each input, a pass deciding how y_true reads, then the sums), and
    the result equals the pandas one."""
    classes, pieces = _frame_pieces(rng)
    whole = pd.concat(pieces, ignore_index=True)
    ddf, reads = _counted_frame(pieces)
    truth = {c: f"t {c}" for c in classes}
    targets = {
        "labels": lambda f: (f["true"], f["pred"]),
        "labels beside named probabilities": lambda f: (f["true"], f[classes]),
        "soft labels, named columns": lambda f: (
            f[list(truth.values())].rename(columns={v: k for k, v in truth.items()}),
            f[classes]),
    }[case]
    with dask.config.set(scheduler="sync"):
        got = transport_confusion_matrix(*targets(ddf), sample_weight=ddf["weight"])
    assert sorted(reads) == list(range(len(pieces)))
    np.testing.assert_allclose(got, transport_confusion_matrix(
        *targets(whole), sample_weight=whole["weight"]), rtol=1e-12, atol=1e-12)


def test_soft_labels_with_a_block_of_zeros_and_ones_are_read_as_soft_labels(rng):
    """Each block is read by its own values in the one pass; when a block of soft labels
    happens to hold only 0 and 1, the whole is read again as soft labels, as the one-shot
    function reads it (Dask arrays and dataframes alike)."""
    y_true, y_pred = random_targets(rng, "soft", 60)
    y_true[20:40] = np.eye(y_true.shape[1])[rng.integers(0, y_true.shape[1], 20)]
    y_true[25] = 0.0  # an all-zero row: soft labels refuse it, indicators count it in "none"
    with pytest.raises(ValueError) as expected:
        transport_confusion_matrix(y_true, y_pred)
    with pytest.raises(ValueError, match=re.escape(str(expected.value)[-30:])):
        transport_confusion_matrix(_dask(y_true, 20), _dask(y_pred, 20))
    y_true[25, 0] = 1.0
    expected = transport_confusion_matrix(y_true, y_pred, weighting="true")
    for true, pred in ((_dask(y_true, 20), _dask(y_pred, 20)),
                       (dd.from_pandas(pd.DataFrame(y_true), npartitions=3, sort=False),
                        dd.from_pandas(pd.DataFrame(y_pred), npartitions=3, sort=False))):
        np.testing.assert_allclose(transport_confusion_matrix(true, pred, weighting="true"),
                                   expected, rtol=1e-12, atol=1e-12)
    # Indicators throughout: read as indicators, the "none" class kept.
    y_true, y_pred = random_targets(rng, "indicator", 60)
    frame = dd.from_pandas(pd.DataFrame(y_true), npartitions=3, sort=False)
    np.testing.assert_allclose(
        transport_confusion_matrix(frame, dd.from_pandas(pd.DataFrame(y_pred), npartitions=3,
                                                         sort=False)),
        transport_confusion_matrix(y_true, y_pred), rtol=1e-12, atol=1e-12)


def test_an_error_in_a_partition_names_its_rows(rng):
    classes, pieces = _frame_pieces(rng, rows=25)
    pieces[2].loc[7, "cat"] = np.nan  # row 2 * 25 + 7 of the whole
    ddf = dd.from_pandas(pd.concat(pieces, ignore_index=True), npartitions=4, sort=False)
    with pytest.raises(ValueError, match=r"^Dask block 2, rows 50 to 74 \(row numbers below "
                                         r"count from 50\): y_pred contains nan.*row 7"):
        transport_confusion_matrix(ddf["true"], ddf[classes])


def test_partitions_of_unequal_lengths_are_aligned_by_row(rng):
    """Two dataframes of as many partitions but split at other rows: read by row, as one
    pandas frame beside the other."""
    y_true = pd.Series(rng.choice(["a", "b", "c"], 90))
    y_pred = pd.Series(rng.choice(["a", "b", "c"], 90))
    true = dd.from_pandas(y_true, npartitions=3, sort=False)
    # known divisions to split at (dask 2023.5 cannot repartition unknown ones)
    pred = dd.from_pandas(y_pred, npartitions=3).repartition(divisions=[0, 10, 50, 89])
    assert true.npartitions == pred.npartitions
    np.testing.assert_array_equal(transport_confusion_matrix(true, pred),
                                  transport_confusion_matrix(y_true, y_pred))


_REPEATED = """
import numpy as np, dask.array as da, sklearn_confusion_ext as sce
rng = np.random.default_rng(0)
Y, P = rng.dirichlet(np.ones(20), 250_000), rng.dirichlet(np.ones(20), 250_000)
dy, dp = da.from_array(Y, chunks=(62_500, 20)), da.from_array(P, chunks=(62_500, 20))
print(*[sce.transport_confusion_matrix(dy, dp, n_jobs=1).tobytes().hex() for _ in range(6)])
"""


@pytest.mark.slow
def test_repeated_calls_on_dask_threads_give_the_same_bits():
    # Dask's threads run the blocks side by side; a block's products ran on one or two
    # BLAS threads as another's limit happened to be in force: in a fresh process, six
    # calls on the same arrays gave up to four results (about half the processes differed).
    import subprocess
    import sys

    results = set()
    for _ in range(3):  # fresh processes: the first calls differed
        completed = subprocess.run([sys.executable, "-c", _REPEATED], capture_output=True,
                                   text=True, timeout=300, check=True)
        results |= set(completed.stdout.split())
    assert len(results) == 1
