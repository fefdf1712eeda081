"""Speed of the decisions read off scores: thresholds and abstention.

Prints, the best of a few runs of each:

1. ``threshold_confusion_matrices`` of 1-D scores, N = 1,000,000 (every distinct score a
   threshold), beside scikit-learn's ``confusion_matrix_at_thresholds`` on the same data,
   and beside its floor, one ``np.argsort`` of the scores (the one sort both do);
2. the same at 101 given thresholds, and of 2-D scores (N = 100,000, C = 10, one-vs-rest
   on 101 thresholds);
3. ``risk_coverage_curve`` of (N, C) probabilities, N = 1,000,000, C = 10 and N = 100,000,
   C = 100, beside one read of the probabilities (``argmax`` and ``max`` of each row) and
   one sort of N numbers, its floor.

Run: ``python benchmarks/bench_decisions_thresholds.py [--quick]`` (``--quick`` divides N
by 10).
"""

import argparse

import numpy as np
from _timing import best_time
from sklearn import metrics

from sklearn_confusion_ext import risk_coverage_curve, threshold_confusion_matrices


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N divided by 10")
    scale = 10 if parser.parse_args().quick else 1
    rng = np.random.default_rng(0)

    n = 1_000_000 // scale
    y = rng.integers(0, 2, n)
    score = rng.random(n) + 0.3 * y
    ours = best_time(lambda: threshold_confusion_matrices(y, score), 3)
    theirs = best_time(lambda: metrics.confusion_matrix_at_thresholds(y, score), 3)
    floor = best_time(lambda: np.argsort(score), 3)
    print(f"1. thresholds, 1-D, N={n:,}: {ours:.3f} s; scikit-learn "
          f"{theirs:.3f} s ({ours / theirs:.2f}x); one argsort {floor:.3f} s "
          f"({ours / floor:.2f}x)")
    grid = np.linspace(0, 1.3, 101)
    given = best_time(lambda: threshold_confusion_matrices(y, score, thresholds=grid), 3)
    print(f"2. thresholds, 1-D, N={n:,}, 101 given: {given:.3f} s")
    n2, c2 = 100_000 // scale, 10
    y2 = rng.integers(0, c2, n2)
    proba2 = rng.dirichlet(np.ones(c2), n2)
    multi = best_time(lambda: threshold_confusion_matrices(
        y2, proba2, thresholds=np.linspace(0, 1, 101)), 3)
    print(f"   thresholds, 2-D, N={n2:,}, C={c2}, 101 given: {multi:.3f} s")

    for n3, c3 in ((1_000_000 // scale, 10), (100_000 // scale, 100)):
        y3 = rng.integers(0, c3, n3)
        proba3 = rng.dirichlet(np.ones(c3), n3)
        curve = best_time(lambda y3=y3, proba3=proba3: risk_coverage_curve(y3, proba3), 3)
        read = best_time(lambda p=proba3: (p.argmax(axis=1), p.max(axis=1)), 3)
        sort = best_time(lambda p=proba3: np.argsort(p[:, 0]), 3)
        print(f"3. risk-coverage, N={n3:,}, C={c3}: {curve:.3f} s; one read of the "
              f"probabilities {read:.3f} s and one sort {sort:.3f} s "
              f"({curve / (read + sort):.2f}x their sum)")


if __name__ == "__main__":
    main()
