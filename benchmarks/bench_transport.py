"""Speed and memory of the transport-based confusion matrix.

Prints, in one run and side by side:

1. dense soft labels, N = 1,000,000, C = 100: TCM against one
   ``(N x C).T @ (N x C)`` BLAS product of the same arrays (target: <= 1.5x);
2. sparse multi-label, N = 1,000,000, C = 1,000, about 3 labels per row:
   time (target: < 5 s) and peak memory allocated by the call (target: < 2 GB);
3. TCM against a straightforward per-instance loop of eq. (8);
4. labels vs probabilities (a classifier's ``predict_proba``), float64 and float32,
   C = 10, 100 (N = 1,000,000) and 1,000 (N = 100,000): the compiled kernel alone (one
   thread, no validation) and the whole call (one thread, and threads chosen by the
   library) against one read of P (``P.sum(axis=0)``), timed in the same rounds; wall and
   CPU time, the best of ``--repeat`` (the kernel's goal: 1.1x one read, the call's 1.3x);
5. the peak working memory of that call at N = 1e4 ... 1e7 (C = 10, float32 P), in bytes
   a row: what NumPy allocates, seen by ``tracemalloc`` (the compiled kernel allocates
   nothing; goal: 8 bytes a row or less).

Run: ``python benchmarks/bench_transport.py [--quick] [--repeat K] [--only NAME ...]``
(``--quick`` divides N by 10; ``--only``: dense, loop, sparse, probabilities, memory).
"""

import argparse
import time
import tracemalloc

import numpy as np
import scipy.sparse as sp
from _timing import best_time, kernel_alone, probabilities

from sklearn_confusion_ext import transport_confusion_matrix
from sklearn_confusion_ext._core.kernels import compiled_kernels


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


def interleaved(functions, repeat):
    """``{name: (wall, cpu)}``: the best of ``repeat`` rounds of each function, the
    functions timed in turn in each round (a slow spell of the machine hits all alike)."""
    for function in functions.values():
        function()
    best = {name: (np.inf, np.inf) for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            wall, cpu = time.perf_counter(), time.process_time()
            function()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def bench_probabilities(rng, scale, repeat):
    print("labels vs probabilities, ms (CPU ms), ratio to one read of P (wall; CPU):")
    for n_classes, n_samples in [(10, 1_000_000), (100, 1_000_000), (1_000, 100_000)]:
        n_samples //= scale
        y_true = rng.integers(0, n_classes, n_samples)
        codes = y_true.astype(np.int32)
        for dtype in (np.float64, np.float32):
            scores = probabilities(rng, n_samples, n_classes, dtype)
            functions = {"one read of P": lambda p=scores: p.sum(axis=0)}
            if compiled_kernels() is not None:
                functions["kernel alone"] = lambda p=scores, c=codes, k=n_classes: \
                    kernel_alone(p, c, k)
            functions["call, 1 thread"] = lambda p=scores, y=y_true: \
                transport_confusion_matrix(y, p, n_jobs=1)
            functions["call"] = lambda p=scores, y=y_true: transport_confusion_matrix(y, p)
            best = interleaved(functions, repeat)
            read_wall, read_cpu = best.pop("one read of P")
            print(f"  {np.dtype(dtype).name} N={n_samples:,} C={n_classes:,}: one read of P "
                  f"{read_wall * 1e3:.1f} ({read_cpu * 1e3:.1f}); " + "; ".join(
                      f"{name} {wall * 1e3:.1f} ({cpu * 1e3:.1f}) {wall / read_wall:.2f}x; "
                      f"{cpu / read_cpu:.2f}x" for name, (wall, cpu) in best.items()),
                  flush=True)
            del scores


def bench_memory(rng, scale):
    n_classes = 10
    for n_samples in (10_000, 100_000, 1_000_000, 10_000_000):
        n_samples //= scale
        y_true = rng.integers(0, n_classes, n_samples)
        scores = probabilities(rng, n_samples, n_classes, np.float32)
        transport_confusion_matrix(y_true[:100], scores[:100])  # first-call costs
        tracemalloc.start()
        transport_confusion_matrix(y_true, scores)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"labels vs probabilities N={n_samples:,} C={n_classes} float32: peak working "
              f"memory {peak / 2**20:.2f} MiB, {peak / n_samples:.1f} bytes a row "
              "(goal <= 8)", flush=True)
        del scores


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (best kept)")
    parser.add_argument("--only", nargs="+", default=None,
                        choices=["dense", "loop", "sparse", "probabilities", "memory"])
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rng = np.random.default_rng(0)
    runs = {"dense": lambda: bench_dense(rng, 1_000_000 // scale),
            "loop": lambda: bench_loop(rng, 20_000 // scale),
            "sparse": lambda: bench_sparse(rng, 1_000_000 // scale),
            "probabilities": lambda: bench_probabilities(rng, scale, args.repeat),
            "memory": lambda: bench_memory(rng, scale)}
    for name, run in runs.items():
        if args.only is None or name in args.only:
            run()


if __name__ == "__main__":
    main()
