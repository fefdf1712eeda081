"""Dask: a two-worker LocalCluster against one process on the same machine.

Soft labels of N = 4,000,000 rows x 20 classes (two arrays of 640 MB) in blocks of
250,000 rows are first persisted on the cluster's two worker processes (one thread
each); the TCM is then timed on the cluster and, on the same data held in this
process, with ``n_jobs=1`` and ``n_jobs=2``. Best of 5 runs each.

Run: ``python benchmarks/bench_dask.py [--quick]`` (``--quick``: N = 400,000).
"""

import argparse

import numpy as np
from _timing import best_time

from sklearn_confusion_ext import transport_confusion_matrix


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 400,000")
    args = parser.parse_args()
    import dask.array as da
    from dask.distributed import Client, LocalCluster, wait

    n_samples, n_classes = (400_000 if args.quick else 4_000_000), 20
    rows = n_samples // 16
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        state = da.random.RandomState(0)
        y_true = state.random_sample((n_samples, n_classes), chunks=(rows, n_classes))
        y_pred = state.random_sample((n_samples, n_classes), chunks=(rows, n_classes))
        y_true, y_pred = client.persist([y_true, y_pred])
        wait([y_true, y_pred])
        cluster_time = best_time(lambda: transport_confusion_matrix(y_true, y_pred))
        local_true, local_pred = y_true.compute(), y_pred.compute()
    one = best_time(lambda: transport_confusion_matrix(local_true, local_pred, n_jobs=1))
    two = best_time(lambda: transport_confusion_matrix(local_true, local_pred, n_jobs=2))
    print(f"TCM of N={n_samples:,} x C={n_classes} soft labels, {n_samples // rows} blocks:")
    print(f"  one process, n_jobs=1:           {one:.3f} s")
    print(f"  one process, n_jobs=2 (threads): {two:.3f} s ({one / two:.2f}x)")
    print(f"  LocalCluster, 2 worker processes: {cluster_time:.3f} s ({one / cluster_time:.2f}x "
          "against n_jobs=1)")
    np.testing.assert_allclose(transport_confusion_matrix(local_true, local_pred),
                               transport_confusion_matrix(local_true, local_pred, n_jobs=1))


if __name__ == "__main__":
    main()
