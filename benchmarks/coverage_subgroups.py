"""Type I error and coverage of score_by_subgroup, by simulation.

Type I error: every subgroup shares one distribution of (true, predicted) classes, so
no subgroup differs from the rest; the family-wise error is the share of replications in
which any subgroup is significant after the correction (Holm), the per-test error the
share of raw p-values below the level. Coverage: the share of replications whose
interval holds the true score of the subgroup (its population value), and, with one
subgroup truly worse, of the difference's interval holding the true difference.

Each case runs 500 replications (``--replications``); the binomial band is
``p +- 1.96 sqrt(p (1 - p) / R)``: [3.1, 6.9] % for 5 %, [93.1, 96.9] % for 95 %.

    python benchmarks/coverage_subgroups.py [--replications 500] [--resamples 999]
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_confusion_ext import score_by_subgroup


def _predictions(rng, y_true, accuracy, n_classes):
    """Predictions right with probability ``accuracy`` (per instance), else another
    class uniformly."""
    right = rng.random(len(y_true)) < accuracy
    other = (y_true + rng.integers(1, n_classes, len(y_true))) % n_classes
    return np.where(right, y_true, other)


def _population_f1_macro(accuracy, n_classes):
    """F1 macro of balanced classes, predictions right with ``accuracy``, wrong ones
    uniform over the other classes: recall = precision = accuracy for every class."""
    return accuracy


def _band(p, replications):
    half = 1.96 * np.sqrt(p * (1 - p) / replications)
    return p - half, p + half


def type_one(sizes, accuracy, n_classes, scoring, replications, resamples, seed):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    family, raw = 0, []
    for r in range(replications):
        y_true = rng.integers(0, n_classes, len(groups))
        y_pred = _predictions(rng, y_true, accuracy, n_classes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = score_by_subgroup(y_true, y_pred, subgroups=groups, scoring=scoring,
                                       n_resamples=resamples, random_state=r)
        family += bool(result.significant.any())
        raw.extend(result.pvalue < 0.05)
    return family / replications, float(np.mean(raw))


def coverage(sizes, accuracies, n_classes, scoring, replications, resamples, seed):
    """Coverage of each subgroup's interval, and of the first subgroup's difference."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    accuracies = np.asarray(accuracies, dtype=float)
    truth = accuracies  # accuracy, and F1 macro of this design (_population_f1_macro)
    weights = np.asarray(sizes, dtype=float)
    rest_truth = np.sum(np.delete(truth * weights, 0)) / np.sum(np.delete(weights, 0))
    # the rest's accuracy is its size-weighted mean; its F1 macro too in this design
    covered = np.zeros(len(sizes))
    diff_covered = 0
    for r in range(replications):
        y_true = rng.integers(0, n_classes, len(groups))
        y_pred = _predictions(rng, y_true, accuracies[groups], n_classes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = score_by_subgroup(y_true, y_pred, subgroups=groups, scoring=scoring,
                                       n_resamples=resamples, random_state=r)
        covered += (result.low <= truth) & (truth <= result.high)
        true_difference = truth[0] - rest_truth
        diff_covered += bool(result.difference_low[0] <= true_difference
                             <= result.difference_high[0])
    return covered / replications, diff_covered / replications


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replications", type=int, default=500)
    parser.add_argument("--resamples", type=int, default=999)
    args = parser.parse_args()
    R, B = args.replications, args.resamples
    start = time.perf_counter()
    print(f"Type I error at 5 % ({R} replications, {B} resamples; band "
          f"[{_band(0.05, R)[0]:.3f}, {_band(0.05, R)[1]:.3f}])")
    print("case | family-wise (Holm) | per test")
    for name, sizes, accuracy, classes, scoring in [
        ("4 x 50, accuracy 0.8, 2 classes", [50] * 4, 0.8, 2, "accuracy"),
        ("sizes 1, 5, 20, 100, 400, accuracy 0.9", [1, 5, 20, 100, 400], 0.9, 2,
         "accuracy"),
        ("10 x 30, accuracy 0.7, 3 classes", [30] * 10, 0.7, 3, "accuracy"),
        ("5 x 100, f1_macro 0.75, 3 classes", [100] * 5, 0.75, 3, "f1_macro"),
    ]:
        family, raw = type_one(sizes, accuracy, classes, scoring, R, B, seed=1)
        print(f"{name} | {family:.3f} | {raw:.3f}")
    print(f"\nCoverage at 95 % (band [{_band(0.95, R)[0]:.3f}, {_band(0.95, R)[1]:.3f}])")
    print("case | subgroup intervals | difference of the first subgroup")
    for name, sizes, accuracies, classes, scoring in [
        ("sizes 30, 100, 300; accuracy 0.7, 0.85, 0.85", [30, 100, 300],
         [0.7, 0.85, 0.85], 2, "accuracy"),
        ("sizes 100, 200, 200; f1_macro 0.6, 0.8, 0.8; 3 classes", [100, 200, 200],
         [0.6, 0.8, 0.8], 3, "f1_macro"),
    ]:
        cover, diff = coverage(sizes, accuracies, classes, scoring, R, B, seed=2)
        print(f"{name} | {', '.join(f'{c:.3f}' for c in cover)} | {diff:.3f}")
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
