"""Speed and memory of the transport-based confusion matrix.

Prints, in one run and side by side:

1. dense soft labels, N = 1,000,000, C = 100: TCM against one
   ``(N x C).T @ (N x C)`` BLAS product of the same arrays (target: <= 1.5x);
2. sparse multi-label, N = 1,000,000, C = 1,000, about 3 labels per row:
   time (target: < 5 s) and peak memory allocated by the call (target: < 2 GB);
3. TCM against a straightforward per-instance loop of eq. (8).

Run: ``python benchmarks/bench_transport.py [--quick]`` (``--quick`` divides N by 10).
"""

import argparse
import time
import tracemalloc

import numpy as np
import scipy.sparse as sp
from _timing import best_time

from sklearn_confusion_ext import transport_confusion_matrix


def random_multilabel(rng, n_samples, n_classes, labels_per_row):
    columns = rng.integers(0, n_classes, size=(n_samples, labels_per_row))
    rows = np.repeat(np.arange(n_samples), labels_per_row)
    matrix = sp.csr_array((np.ones(rows.size), (rows, columns.ravel())),
                          shape=(n_samples, n_classes))
    matrix.data[:] = 1.0
    return matrix


def per_instance_loop(y_true, y_pred):
    """Eq. (8) instance by instance, as a reader of the paper would write it."""
    n_classes = y_true.shape[1]
    total = np.zeros((n_classes, n_classes))
    for y, y_hat in zip(y_true, y_pred):
        u, v = y / y.sum(), y_hat / y_hat.sum()
        common = np.minimum(u, v)
        deficit, excess = u - common, v - common
        plan = np.diag(common)
        if deficit.sum() > 0:
            plan += np.outer(deficit, excess) / deficit.sum()
        total += plan
    return total


def bench_dense(rng, n_samples, n_classes=100):
    y_true = rng.random((n_samples, n_classes))
    y_pred = rng.random((n_samples, n_classes))
    product = best_time(lambda: y_true.T @ y_pred)
    tcm = best_time(lambda: transport_confusion_matrix(y_true, y_pred))
    print(f"dense N={n_samples:,} C={n_classes}: one (N x C).T @ (N x C) product "
          f"{product:.3f} s, TCM {tcm:.3f} s, ratio {tcm / product:.2f}x (target <= 1.5x)")


def bench_loop(rng, n_samples, n_classes=100):
    y_true = rng.random((n_samples, n_classes))
    y_pred = rng.random((n_samples, n_classes))
    loop = best_time(lambda: per_instance_loop(y_true, y_pred), repeat=1)
    tcm = best_time(lambda: transport_confusion_matrix(y_true, y_pred))
    print(f"dense N={n_samples:,} C={n_classes}: per-instance loop of eq. (8) {loop:.3f} s, "
          f"TCM {tcm:.4f} s, speed-up {loop / tcm:.0f}x")


def bench_sparse(rng, n_samples, n_classes=1_000):
    y_true = random_multilabel(rng, n_samples, n_classes, 3)
    y_pred = random_multilabel(rng, n_samples, n_classes, 3)
    tracemalloc.start()
    start = time.perf_counter()
    transport_confusion_matrix(y_true, y_pred)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"sparse multi-label N={n_samples:,} C={n_classes:,} ~3 labels/row: "
          f"{elapsed:.2f} s (target < 5 s), peak memory allocated {peak / 2**30:.2f} GB "
          "(target < 2 GB)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rng = np.random.default_rng(0)
    bench_dense(rng, 1_000_000 // scale)
    bench_loop(rng, 20_000 // scale)
    bench_sparse(rng, 1_000_000 // scale)


if __name__ == "__main__":
    main()
