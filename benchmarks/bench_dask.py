"""Dask: a two-worker LocalCluster against one process on the same machine.

Soft labels of N = 4,000,000 rows x 20 classes (two arrays of 640 MB) in 16 blocks of
250,000 rows are persisted on the cluster's two worker processes (one thread each) in two
layouts: ``y_true`` and ``y_pred`` generated together, so that the two blocks of the same
rows lie on the same worker (as columns of one dataframe partition do), and generated
apart, so that about half the blocks must travel to meet. The TCM is timed on the
cluster and, on the same data held in this process, with ``n_jobs=1`` and ``n_jobs=2``.
Best of 5 runs each.

Run: ``python benchmarks/bench_dask.py [--quick]`` (``--quick``: N = 400,000).
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
    args = parser.parse_args()
    import dask.array as da
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

if __name__ == "__main__":
    main()
