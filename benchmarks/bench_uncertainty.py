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

5. labels against probabilities (1-D labels, ``(N, C)`` probabilities), N = 100,000,
   C = 100: ``score_confidence_interval`` of macro F1 with its defaults (BCa, 9,999
   resamples; target: at most 5 s), beside its floor, the grouped products' multiply-adds
   (``B * N * C``, timed as one ``(B, N) @ (N, C)`` product, which does as many), and the
   same call with the per-instance outer products (the path before the grouped products);
6. soft labels on both sides, N = 100,000, C = 100, 99 resamples (percentile), per
   resample, beside its floor: one ``(C x N) @ (N x C)`` product a resample (the
   resampled matrix is ``(U * w)^T @ V`` for the instance weights ``w``; target: at most
   2x), and the classification report with intervals (999 resamples) on both kinds.

Run: ``python benchmarks/bench_uncertainty.py [--quick] [--only NAME ...]`` (``--quick``
divides N by 10; ``--only`` runs the named rows: labels, scipy, confidenceinterval,
multilabel, permutation, probabilities, soft).
"""

import argparse
import inspect
import time

import numpy as np
from _timing import settle
from scipy import stats

from sklearn_confusion_ext import (
    compare_scores,
    score_confidence_interval,
    transport_classification_report,
)


def interleaved_best(functions, repeat):
    """The fastest of ``repeat`` runs of each of ``functions`` (a dict), the runs of the
    different functions interleaved so that a slow spell of the machine hits them alike,
    each once the process is idle (:func:`~_timing.settle`)."""
    best = dict.fromkeys(functions, np.inf)
    for _ in range(repeat):
        for name, function in functions.items():
            settle()
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
    return lambda: score_confidence_interval(y_true, y_pred, scoring="tcm_f1_macro",
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
            y_true, y_pred, scoring=score, method="percentile", n_resamples=n_resamples,
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


def probabilities(rng, n_samples, n_classes):
    """Labels and a classifier's probabilities (right about 70 % of the time)."""
    y_true = rng.integers(0, n_classes, n_samples)
    logits = rng.normal(size=(n_samples, n_classes))
    logits[np.arange(n_samples), y_true] += 3.0
    scores = np.exp(logits)
    return y_true, scores / scores.sum(axis=1, keepdims=True)


def outer_products():
    """The resampled matrices through the per-instance outer products (the path before the
    grouped products), for the side-by-side row."""
    from sklearn_confusion_ext._scores import resolved as scoring

    class Without:
        def __enter__(self):
            self.saved = scoring.grouped_rows
            scoring.grouped_rows = lambda *args, **kwargs: None

        def __exit__(self, *exc):
            scoring.grouped_rows = self.saved
    return Without()


def bench_probabilities(rng, n_samples, n_classes=100, n_resamples=9_999, repeat=1):
    y_true, scores = probabilities(rng, n_samples, n_classes)
    weights = np.ones((n_resamples // 10, n_samples))
    times = interleaved_best({
        "ours": lambda: score_confidence_interval(y_true, scores, random_state=0),
        "floor": lambda: weights @ scores,
    }, repeat=repeat)
    floor = times["floor"] * 10
    before_resamples = 99
    with outer_products():
        before = interleaved_best({"before": lambda: score_confidence_interval(
            y_true, scores, method="percentile", n_resamples=before_resamples,
            random_state=0)}, repeat=1)["before"] / before_resamples * n_resamples
    print(f"labels vs probabilities N={n_samples:,} C={n_classes}, {n_resamples:,} resamples "
          f"of macro F1 (BCa): {times['ours']:.2f} s (target <= 5 s); floor, the grouped "
          f"products' B*N*C multiply-adds as one (B, N) @ (N, C) product: {floor:.2f} s, "
          f"ratio {times['ours'] / floor:.2f}; before (outer products, from "
          f"{before_resamples} resamples): {before:.1f} s")


def bench_soft(rng, n_samples, n_classes=100, n_resamples=99, repeat=1):
    y_true = rng.dirichlet(np.full(n_classes, 0.3), n_samples)
    y_pred = rng.dirichlet(np.full(n_classes, 0.3), n_samples)
    counts = np.bincount(rng.integers(0, n_samples, n_samples), minlength=n_samples)
    scaled = y_true * counts[:, None]
    floor_resamples = 9
    times = interleaved_best({
        "ours": lambda: score_confidence_interval(y_true, y_pred, method="percentile",
                                                  n_resamples=n_resamples, random_state=0),
        "floor": lambda: [scaled.T @ y_pred for _ in range(floor_resamples)],
    }, repeat=repeat)
    ours, floor = times["ours"] / n_resamples, times["floor"] / floor_resamples
    print(f"soft labels N={n_samples:,} C={n_classes}, {n_resamples} resamples of macro F1 "
          f"(percentile): {1e3 * ours:.1f} ms a resample; floor, one (C x N) @ (N x C) "
          f"product a resample: {1e3 * floor:.1f} ms; ratio {ours / floor:.2f} (target <= 2)")
    y_labels, scores = probabilities(rng, n_samples, n_classes)
    report = interleaved_best({
        "soft": lambda: transport_classification_report(y_true, y_pred, confidence_level=0.95,
                                                        random_state=0),
        "probabilities": lambda: transport_classification_report(
            y_labels, scores, confidence_level=0.95, random_state=0)}, repeat=1)
    print(f"classification report with intervals (999 resamples) N={n_samples:,} "
          f"C={n_classes}: soft labels {report['soft']:.1f} s, labels vs probabilities "
          f"{report['probabilities']:.1f} s")


ROWS = ("labels", "scipy", "confidenceinterval", "multilabel", "permutation", "probabilities",
        "soft")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10")
    parser.add_argument("--only", nargs="+", choices=ROWS, default=ROWS)
    args = parser.parse_args()
    divisor = 10 if args.quick else 1
    repeat = 1 if args.quick else 2
    rng = np.random.default_rng(0)
    rows = {
        "labels": lambda: bench_labels(rng, 1_000_000 // divisor),
        "scipy": lambda: bench_scipy(rng, 10_000 // divisor),
        "confidenceinterval": lambda: bench_confidenceinterval(rng, 2_000 // divisor),
        "multilabel": lambda: bench_multilabel(rng, 100_000 // divisor, repeat=repeat),
        "permutation": lambda: bench_permutation(rng, 1_000_000 // divisor,
                                                 10_000 // divisor, repeat=repeat),
        "probabilities": lambda: bench_probabilities(rng, 100_000 // divisor, repeat=repeat),
        "soft": lambda: bench_soft(rng, 100_000 // divisor),
    }
    for name in ROWS:
        if name in args.only:
            rows[name]()


if __name__ == "__main__":
    main()
