"""Dask inputs on a real two-process LocalCluster equal the NumPy results."""

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
