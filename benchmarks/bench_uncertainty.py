"""Speed of the confidence intervals of scores.

Prints, in one run (runs of the compared calls interleaved, the best of each kept):

1. ``score_confidence_interval`` of macro F1 on 1-D labels, N = 1,000,000, C = 10, 9,999
   resamples, percentile and BCa (target: under 1 s);
2. the same against ``scipy.stats.bootstrap`` (a vectorized macro F1 statistic) and
   ``confidenceinterval``'s bootstrap (``f1_score(method="bootstrap_bca")``) on the same
   data, at the sizes they finish in seconds: N = 10,000 with 999 resamples (scipy) and
   N = 2,000 with 999 resamples (confidenceinterval; it scores one resample at a time), the
   library timed at the same sizes for the ratio;
3. ``score_confidence_interval`` of TCM and MLCM macro F1 on multi-label indicators,
   N = 100,000, C = 20, 1,000 resamples (target: under 10 s);
4. ``compare_scores(method="permutation")`` of macro F1, 9,999 swaps, on 1-D labels
   (N = 1,000,000, C = 10) and on multi-label indicators (N = 10,000, C = 20, 999 swaps).

Run: ``python benchmarks/bench_uncertainty.py [--quick]`` (``--quick`` divides N by 10).
"""

import argparse
import inspect
import time

import numpy as np
from scipy import stats

from sklearn_confusion_ext import compare_scores, score_confidence_interval


def interleaved_best(functions, repeat):
    """The fastest of ``repeat`` runs of each of ``functions`` (a dict), the runs of the
    different functions interleaved so that a slow spell of the machine hits them alike."""
    best = dict.fromkeys(functions, np.inf)
    for _ in range(repeat):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def labels(rng, n_samples, n_classes, accuracy=0.7):
    y_true = rng.integers(0, n_classes, n_samples)
    right = rng.random(n_samples) < accuracy
    return y_true, np.where(right, y_true, rng.integers(0, n_classes, n_samples))


def macro_f1_statistic(n_classes):
    """Macro F1 of labels along the last axis, vectorized for scipy.stats.bootstrap."""
    def statistic(y_true, y_pred, axis=-1):
        total = 0.0
        for label in range(n_classes):
            true, pred = y_true == label, y_pred == label
            tp = np.sum(true & pred, axis=axis)
            denominator = np.sum(true, axis=axis) + np.sum(pred, axis=axis)
            total = total + np.divide(2 * tp, denominator, out=np.zeros(np.shape(tp)),
                                      where=denominator > 0)
        return total / n_classes
    return statistic


def seed_keyword(seed):
    """scipy >= 1.15 names the generator ``rng``; 1.10 (the floor) ``random_state``."""
    name = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"
    return {name: np.random.default_rng(seed)}


def ours(y_true, y_pred, method, n_resamples):
    return lambda: score_confidence_interval(y_true, y_pred, score="tcm_f1_macro",
                                             method=method, n_resamples=n_resamples,
                                             random_state=0)


def bench_labels(rng, n_samples, n_classes=10, n_resamples=9_999):
    y_true, y_pred = labels(rng, n_samples, n_classes)
    times = interleaved_best({method: ours(y_true, y_pred, method, n_resamples)
                              for method in ("percentile", "bca")}, repeat=5)
    print(f"1-D labels N={n_samples:,} C={n_classes}, {n_resamples:,} resamples of macro F1: "
          f"percentile {times['percentile']:.3f} s, BCa {times['bca']:.3f} s "
          "(target < 1 s)")


def bench_scipy(rng, n_samples, n_classes=10, n_resamples=999):
    y_true, y_pred = labels(rng, n_samples, n_classes)
    statistic = macro_f1_statistic(n_classes)
    times = interleaved_best({
        "scipy": lambda: stats.bootstrap((y_true, y_pred), statistic, paired=True,
                                         vectorized=True, n_resamples=n_resamples,
                                         method="BCa", **seed_keyword(0)),
        "ours": ours(y_true, y_pred, "bca", n_resamples),
    }, repeat=3)
    print(f"scipy.stats.bootstrap (BCa, vectorized statistic) N={n_samples:,} C={n_classes}, "
          f"{n_resamples:,} resamples: {times['scipy']:.3f} s, score_confidence_interval "
          f"{times['ours']:.4f} s, speed-up {times['scipy'] / times['ours']:,.0f}x")


def bench_confidenceinterval(rng, n_samples, n_classes=10, n_resamples=999):
    try:
        import confidenceinterval
    except ImportError:
        print("confidenceinterval's bootstrap: not installed "
              "(pip install confidenceinterval==1.0.5)")
        return
    y_true, y_pred = labels(rng, n_samples, n_classes)
    times = interleaved_best({
        "theirs": lambda: confidenceinterval.f1_score(
            y_true, y_pred, average="macro", method="bootstrap_bca", n_resamples=n_resamples,
            random_state=np.random.default_rng(0)),
        "ours": ours(y_true, y_pred, "bca", n_resamples),
    }, repeat=1)
    print(f"confidenceinterval.f1_score (bootstrap_bca, macro) N={n_samples:,} C={n_classes}, "
          f"{n_resamples:,} resamples: {times['theirs']:.3f} s, score_confidence_interval "
          f"{times['ours']:.4f} s, speed-up {times['theirs'] / times['ours']:,.0f}x")


def multilabel(rng, n_samples, n_classes, density=0.15, flips=0.1):
    y_true = (rng.random((n_samples, n_classes)) < density).astype(np.int8)
    flip = rng.random((n_samples, n_classes)) < flips
    return y_true, np.where(flip, 1 - y_true, y_true).astype(np.int8)


def bench_multilabel(rng, n_samples, repeat, n_classes=20, n_resamples=1_000):
    y_true, y_pred = multilabel(rng, n_samples, n_classes)
    times = interleaved_best({
        score: lambda score=score: score_confidence_interval(
            y_true, y_pred, score=score, method="percentile", n_resamples=n_resamples,
            random_state=0)
        for score in ("tcm_f1_macro", "mlcm_f1_macro")}, repeat=repeat)
    print(f"multi-label N={n_samples:,} C={n_classes}, {n_resamples:,} resamples of macro F1 "
          f"(percentile): TCM {times['tcm_f1_macro']:.2f} s, MLCM {times['mlcm_f1_macro']:.2f} s "
          "(target < 10 s)")


def bench_permutation(rng, n_labels, n_multilabel, repeat):
    y_true, y_pred_a = labels(rng, n_labels, 10)
    _, y_pred_b = labels(rng, n_labels, 10, accuracy=0.69)
    t_true, t_a = multilabel(rng, n_multilabel, 20)
    t_b = np.where(rng.random(t_a.shape) < 0.02, 1 - t_a, t_a)
    times = interleaved_best({
        "labels": lambda: compare_scores(y_true, y_pred_a, y_pred_b, method="permutation",
                                         n_resamples=9_999, random_state=0),
        "multilabel": lambda: compare_scores(t_true, t_a, t_b, method="permutation",
                                             n_resamples=999, random_state=0),
    }, repeat=repeat)
    print(f"permutation test of TCM macro F1: 1-D labels N={n_labels:,} C=10, 9,999 swaps "
          f"{times['labels']:.2f} s; multi-label N={n_multilabel:,} C=20, 999 swaps "
          f"{times['multilabel']:.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10")
    args = parser.parse_args()
    divisor = 10 if args.quick else 1
    rng = np.random.default_rng(0)
    bench_labels(rng, 1_000_000 // divisor)
    bench_scipy(rng, 10_000 // divisor)
    bench_confidenceinterval(rng, 2_000 // divisor)
    bench_multilabel(rng, 100_000 // divisor, repeat=1 if args.quick else 2)
    bench_permutation(rng, 1_000_000 // divisor, 10_000 // divisor, repeat=1 if args.quick else 2)


if __name__ == "__main__":
    main()
