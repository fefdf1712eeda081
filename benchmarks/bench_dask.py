"""Dask: a two-worker LocalCluster against one process on the same machine.

Soft labels of N = 4,000,000 rows x 20 classes (two arrays of 640 MB) in 16 blocks of
250,000 rows are persisted on the cluster's two worker processes (one thread each) in two
layouts: ``y_true`` and ``y_pred`` generated together, so that the two blocks of the same
rows lie on the same worker (as columns of one dataframe partition do), and generated
apart, so that about half the blocks must travel to meet. The TCM is timed on the
cluster and, on the same data held in this process, with ``n_jobs=1`` and ``n_jobs=2``.
Best of 5 runs each.

Then, on the local (threaded) scheduler, columns of a Dask dataframe against the same data
as Dask arrays of the same row chunks (N = 1,000,000, 16 partitions, C = 20): class labels,
labels beside probabilities, soft labels beside soft labels. The target is a ratio of at
most 1.3x (each partition read once); beside them, Dask's own read of the same columns
(its graph of them, every partition computed, nothing done with it: what any call that
went through Dask's column selection would pay first; the library takes the columns from
the frame itself, so it may run below it). Runs are interleaved, best of 5 each.
``--classes C`` sets C (the issue's profile: 100).

Run: ``python benchmarks/bench_dask.py [--quick] [--dataframes]`` (``--quick``: N =
400,000 on the cluster, 200,000 for the dataframes; ``--dataframes``: the dataframe rows
only, no cluster).
"""

import argparse
from functools import partial

import numpy as np
from _timing import best_time

from sklearn_confusion_ext import transport_confusion_matrix

N_CLASSES = 20


def _layouts(da, n_samples, rows):
    state = da.random.RandomState(0)
    both = state.random_sample((n_samples, 2 * N_CLASSES), chunks=(rows, 2 * N_CLASSES))
    apart = [state.random_sample((n_samples, N_CLASSES), chunks=(rows, N_CLASSES))
             for _ in range(2)]
    return {"together": [both[:, :N_CLASSES], both[:, N_CLASSES:]], "apart": apart}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 400,000")
    parser.add_argument("--dataframes", action="store_true",
                        help="only the rows of dataframe columns against Dask arrays")
    parser.add_argument("--classes", type=int, default=20,
                        help="C of the dataframe rows (default 20)")
    args = parser.parse_args()
    import dask.array as da

    dataframe_rows(200_000 if args.quick else 1_000_000, n_classes=args.classes)
    if args.dataframes:
        return
    from dask.distributed import Client, LocalCluster, wait

    n_samples = 400_000 if args.quick else 4_000_000
    rows = n_samples // 16
    print(f"TCM of N={n_samples:,} x C={N_CLASSES} soft labels, 16 blocks, 2-core machine:")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        for layout, arrays in _layouts(da, n_samples, rows).items():
            _compare(client, wait, layout, arrays)


def _compare(client, wait, layout, arrays):
    """Time one layout on the cluster, then in this process."""
    y_true, y_pred = client.persist(arrays)
    wait([y_true, y_pred])
    cluster_time = best_time(partial(transport_confusion_matrix, y_true, y_pred))
    local_true, local_pred = y_true.compute(), y_pred.compute()
    one = best_time(partial(transport_confusion_matrix, local_true, local_pred, n_jobs=1))
    two = best_time(partial(transport_confusion_matrix, local_true, local_pred, n_jobs=2))
    np.testing.assert_allclose(transport_confusion_matrix(y_true, y_pred),
                               transport_confusion_matrix(local_true, local_pred))
    print(f"  blocks of y_true and y_pred {layout}: one process {one:.3f} s (n_jobs=1), "
          f"{two:.3f} s (n_jobs=2, {one / two:.2f}x); LocalCluster of 2 worker processes "
          f"{cluster_time:.3f} s ({one / cluster_time:.2f}x against n_jobs=1, "
          f"{two / cluster_time:.2f}x against n_jobs=2)")



TARGET_DATAFRAME_RATIO = 1.3


def dataframe_cases(n_samples, n_classes=20, n_partitions=16, seed=0):
    """``{case: (dask_arrays, dataframe_columns)}``: the same targets as Dask arrays
    chunked like the partitions of one Dask dataframe (``from_pandas``, ``sort=False``),
    and as columns of that dataframe: class labels, labels beside probabilities (columns
    0 .. C-1), soft labels beside soft labels (columns named by class)."""
    import dask.array as da
    import dask.dataframe as dd
    import pandas as pd

    rng = np.random.default_rng(seed)
    true_scores = rng.dirichlet(np.ones(n_classes), n_samples)
    pred_scores = rng.dirichlet(np.ones(n_classes), n_samples)
    true_labels = rng.integers(0, n_classes, n_samples)
    pred_labels = rng.integers(0, n_classes, n_samples)
    classes = [f"class {i:03d}" for i in range(n_classes)]  # sorted as numbered
    frame = pd.concat([pd.DataFrame(true_scores, columns=[f"t {c}" for c in classes]),
                       pd.DataFrame(pred_scores, columns=classes)], axis=1)
    frame["true"], frame["pred"] = true_labels, pred_labels
    ddf = dd.from_pandas(frame, npartitions=n_partitions, sort=False)
    rows = tuple(int(size) for size in
                 ddf.map_partitions(len).compute())  # the arrays' chunks: the partitions'
    truth = ddf[[f"t {c}" for c in classes]].rename(columns=dict(zip(
        [f"t {c}" for c in classes], classes)))

    def chunked(values):
        return da.from_array(values, chunks=(rows,) + values.shape[1:])

    return {
        "class labels (two integer columns)": (
            (chunked(true_labels), chunked(pred_labels)), (ddf["true"], ddf["pred"])),
        "labels beside probabilities (a label column, C probability columns)": (
            (chunked(true_labels), chunked(pred_scores)),
            (ddf["true"], ddf[classes].rename(columns=dict(zip(classes,
                                                               range(n_classes)))))),
        "soft labels beside soft labels (C columns each)": (
            (chunked(true_scores), chunked(pred_scores)), (truth, ddf[classes])),
    }


def frame_read(columns):
    """Dask's own read of dataframe ``columns``: every partition of each computed once
    (the graphs built together, unoptimized), nothing done with them. What a call that
    went through Dask's own selection of the columns would pay first (the library takes
    columns of one frame from the frame itself, without those tasks)."""
    import dask
    import dask.dataframe as dd

    parts = dd.map_partitions(_nothing, *columns, meta=(None, object), enforce_metadata=False,
                              transform_divisions=False, align_dataframes=False)
    dask.compute(*parts.to_delayed(optimize_graph=False))


def _nothing(*partitions):
    return 0


def dataframe_rows(n_samples, n_classes=20, n_partitions=16, repeat=5):
    """Print, per case, the TCM of columns of one Dask dataframe against the same data as
    Dask arrays chunked like its partitions (the local threaded scheduler), and Dask's own
    read of those columns (:func:`frame_read`), interleaved, best of ``repeat``; returns
    ``{case: (array_seconds, dataframe_seconds, read_seconds)}``."""
    import time

    cases = dataframe_cases(n_samples, n_classes, n_partitions)
    print(f"Columns of a Dask dataframe against Dask arrays of the same data, N={n_samples:,}"
          f", C={n_classes}, {n_partitions} partitions, local threaded scheduler "
          f"(target at most {TARGET_DATAFRAME_RATIO}x):")
    results = {}
    for case, (arrays, columns) in cases.items():
        np.testing.assert_allclose(
            np.asarray(transport_confusion_matrix(*columns)),
            transport_confusion_matrix(*arrays), rtol=1e-12, atol=1e-9)
        calls = {"array": partial(transport_confusion_matrix, *arrays),
                 "dataframe": partial(transport_confusion_matrix, *columns),
                 "read": partial(frame_read, columns)}
        times = {name: [] for name in calls}
        for _ in range(repeat):  # interleaved: all see the same load
            for name, call in calls.items():
                start = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - start)
        array_time, frame_time, read_time = (min(times[name]) for name in calls)
        ratio = frame_time / array_time
        results[case] = (array_time, frame_time, read_time)
        print(f"  {case}: Dask arrays {array_time:.3f} s, dataframe columns {frame_time:.3f} s"
              f", ratio {ratio:.2f}x ({'within' if ratio <= TARGET_DATAFRAME_RATIO else 'above'}"
              f" {TARGET_DATAFRAME_RATIO}x); Dask's own read of the columns {read_time:.3f} s"
              f" ({frame_time / read_time:.2f}x of it)")
    return results


if __name__ == "__main__":
    main()
