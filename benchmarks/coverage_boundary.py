"""Coverage of score_confidence_interval near 0 and 1, by simulation.

Three classes of ``n`` instances each; every instance is classified right with probability
``rate`` and otherwise as one of the two other classes at random, so every class's
precision, recall and F1 (and their macro averages, and accuracy) have the true value
``rate``. For each method, rate and size, ``--repeats`` test sets are drawn, the 95 %
interval computed (999 resamples) and its coverage of ``rate`` counted (over the three
classes for the per-class scores); ``zero`` is the share of intervals of zero width.

    python benchmarks/coverage_boundary.py            # the user guide's table (about 10 min)
    python benchmarks/coverage_boundary.py --quick    # a smoke run
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_confusion_ext import score_confidence_interval

METHODS = ("percentile", "basic", "bca", "bayesian", "analytic")
SCORES = ("tcm_recall", "tcm_precision", "tcm_f1", "tcm_recall_macro",
          "tcm_precision_macro", "tcm_f1_macro", "tcm_accuracy")
RATES = (0.90, 0.97, 0.99, 1.0)
SIZES = (10, 30, 100, 300)
N_CLASSES = 3


def draw(rng, n, rate):
    y_true = np.repeat(np.arange(N_CLASSES), n)
    wrong = rng.random(y_true.size) >= rate
    shift = rng.integers(1, N_CLASSES, size=y_true.size)
    return y_true, np.where(wrong, (y_true + shift) % N_CLASSES, y_true)


def coverage(method, score, n, rate, repeats, seed):
    rng = np.random.default_rng(seed)
    covered = zero = total = 0
    for repeat in range(repeats):
        y_true, y_pred = draw(rng, n, rate)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = score_confidence_interval(y_true, y_pred, scoring=score, method=method,
                                               n_resamples=999, random_state=repeat)
        low, high = np.atleast_1d(result.low), np.atleast_1d(result.high)
        covered += np.count_nonzero((low <= rate + 1e-12) & (rate - 1e-12 <= high))
        zero += np.count_nonzero(high - low == 0)
        total += low.size
    return covered / total, zero / total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=400)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--scores", nargs="+", default=SCORES, choices=SCORES,
                        help="the scores to simulate (default: all)")
    args = parser.parse_args()
    repeats = 20 if args.quick else args.repeats
    start = time.process_time()
    rows = []
    for score in args.scores:
        for method in METHODS:
            cells = []
            for rate in RATES:
                for n in SIZES:
                    # The same test sets for every score and method (one seed per cell).
                    seed = 1000 * SIZES.index(n) + RATES.index(rate)
                    cells.append(coverage(method, score, n, rate, repeats, seed))
            rows.append((score, method, cells))
            worst = min(c for c, _ in cells)
            print(f"{score:20} {method:10} worst {worst:.3f} zero-width "
                  f"{max(z for _, z in cells):.3f}", flush=True)
    header = " ".join(f"{rate:g}/{n}" for rate in RATES for n in SIZES)
    print(f"\nrepeats={repeats}, {N_CLASSES} classes, 999 resamples; columns rate/n; "
          f"CPU {time.process_time() - start:.0f} s")
    print(f"{'score':20} {'method':10} {header}")
    for score, method, cells in rows:
        print(f"{score:20} {method:10} " + " ".join(f"{100 * c:5.1f}" for c, _ in cells))


if __name__ == "__main__":
    main()
