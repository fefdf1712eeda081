"""Speed of the multi-label confusion matrices.

Prints, in one run:

1. ``mlcm`` (both methods) and ``multilabel_confusion_tensor`` on N = 1,000,000 instances,
   q = 20 classes, dense and sparse (target for ``mlcm``: under 1 s);
2. ``mlcm`` against the authors' ``mlcm`` package (``mlcm.cm``) at N = 5,000
   (target: at least 1,000x), when the package is installed.

Run: ``python benchmarks/bench_mlcm.py [--quick]`` (``--quick`` divides N by 10).
"""

import argparse

import numpy as np
import scipy.sparse as sp
from _timing import best_time

from sklearn_confusion_ext import mlcm, multilabel_confusion_tensor


def indicators(rng, n_samples, n_classes, density=0.15):
    return (rng.random((n_samples, n_classes)) < density).astype(np.int8)


def bench_large(rng, n_samples, n_classes=20):
    y_true, y_pred = indicators(rng, n_samples, n_classes), indicators(rng, n_samples, n_classes)
    sparse_true, sparse_pred = sp.csr_array(y_true), sp.csr_array(y_pred)
    for name, function in [
        ("mlcm (heydarian)", lambda a, b: mlcm(a, b)),
        ("mlcm (krstinic)", lambda a, b: mlcm(a, b, method="krstinic")),
        ("multilabel_confusion_tensor", multilabel_confusion_tensor),
    ]:
        dense_time = best_time(lambda f=function: f(y_true, y_pred))
        sparse_time = best_time(lambda f=function: f(sparse_true, sparse_pred))
        print(f"{name:28s} N={n_samples:,} q={n_classes}: dense {dense_time:.3f} s, "
              f"sparse {sparse_time:.3f} s (target for mlcm: < 1 s)")


def bench_against_package(rng, n_samples, n_classes=20):
    try:
        from mlcm import mlcm as package
    except ImportError:
        print("the authors' mlcm package is not installed: pip install mlcm==0.0.1")
        return
    if not hasattr(np, "int"):
        np.int = int  # noqa: NPY001 (the package predates NumPy 1.24)
    y_true, y_pred = indicators(rng, n_samples, n_classes), indicators(rng, n_samples, n_classes)
    theirs = best_time(lambda: package.cm(y_true, y_pred, print_note=False), repeat=1)
    ours = best_time(lambda: mlcm(y_true, y_pred))
    print(f"authors' mlcm.cm N={n_samples:,} q={n_classes}: {theirs:.3f} s, mlcm {ours:.5f} s, "
          f"speed-up {theirs / ours:,.0f}x (target >= 1,000x at N = 5,000)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    bench_large(rng, 1_000_000 // (10 if args.quick else 1))
    bench_against_package(rng, 5_000)
    if not args.quick:
        bench_against_package(rng, 50_000)


if __name__ == "__main__":
    main()
