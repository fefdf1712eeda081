"""Scaling out: streaming accumulation and threads.

Prints, in one run:

1. streaming N = 100,000,000 rows x 20 classes of soft labels through
   ``ConfusionAccumulator`` in batches of 1,000,000 generated on the fly: time and peak
   memory allocated (target: under 1 GB);
2. ``transport_confusion_matrix`` on N = 1,000,000 x 100 with ``n_jobs=1`` against
   ``n_jobs=2``.

Run: ``python benchmarks/bench_scale.py [--quick]`` (``--quick`` streams 10,000,000 rows).
"""

import argparse
import time
import tracemalloc

import numpy as np
from _timing import best_time

from sklearn_confusion_ext import ConfusionAccumulator, transport_confusion_matrix


def bench_streaming(n_rows, batch=1_000_000, n_classes=20):
    rng = np.random.default_rng(0)
    accumulator = ConfusionAccumulator("transport")
    tracemalloc.start()
    start = time.perf_counter()
    for _ in range(n_rows // batch):
        accumulator.update(rng.random((batch, n_classes)), rng.random((batch, n_classes)))
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"streaming {n_rows:,} rows x {n_classes} classes in batches of {batch:,}: "
          f"{elapsed:.1f} s ({n_rows / elapsed / 1e6:.1f} M rows/s, generation included), "
          f"peak memory allocated {peak / 2**30:.2f} GB (target < 1 GB)")


def bench_threads(n_samples=1_000_000, n_classes=100):
    rng = np.random.default_rng(1)
    y_true, y_pred = rng.random((n_samples, n_classes)), rng.random((n_samples, n_classes))
    one = best_time(lambda: transport_confusion_matrix(y_true, y_pred, n_jobs=1))
    two = best_time(lambda: transport_confusion_matrix(y_true, y_pred, n_jobs=2))
    print(f"dense N={n_samples:,} C={n_classes}: n_jobs=1 {one:.3f} s, n_jobs=2 {two:.3f} s, "
          f"speed-up {one / two:.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="stream 10,000,000 rows")
    args = parser.parse_args()
    bench_streaming(10_000_000 if args.quick else 100_000_000)
    bench_threads(100_000 if args.quick else 1_000_000)


if __name__ == "__main__":
    main()
