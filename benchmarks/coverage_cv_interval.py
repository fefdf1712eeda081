"""Coverage of ``cross_validated_score_interval``: the naive and the corrected t interval.

A population of two Gaussian classes in 2-D (equal priors, identity covariance, means
``(-0.6, 0)`` and ``(0.6, 0)``: Bayes accuracy 0.73) and a fast linear model, Fisher's
linear discriminant (class means and a pooled covariance, fitted in closed form: what
scikit-learn's ``LinearDiscriminantAnalysis`` fits). Each replication draws a data set of
``n`` instances, runs a real (repeated) stratified k-fold cross-validation of the model on
it (``RepeatedStratifiedKFold`` splits, a fit per fold, the accuracy on the fold's test
instances) and builds both intervals of the mean accuracy at 95 % with
``cross_validated_score_interval``.

The quantity a cross-validation estimates is the expected accuracy of the model fit on
``n_train`` instances, ``mu = E[acc(A(Z_{n_train}))]`` (Nadeau and Bengio 2003): here
each model's accuracy on the population is exact (the normal CDF of the linear rule's
margins, i.e. an infinite held-out set), and ``mu`` is their mean over ``--truth``
training sets of ``n_train`` instances. The table reports, per case, the share of the
``--reps`` intervals that hold ``mu`` and the binomial band of the nominal level
(``0.95 +/- 1.96 sqrt(0.95 * 0.05 / reps)``).

Run: ``python benchmarks/coverage_cv_interval.py [--reps 1000] [--truth 20000]
[--seed 0]``; about a minute of CPU. The user guide's table (section "Cross-validation
reports" of doc/user_guide/comparing_models.rst) is its output.
"""

import argparse
import time
import warnings

import numpy as np
from scipy import stats
from sklearn.model_selection import RepeatedStratifiedKFold

from sklearn_confusion_ext import cross_validated_score_interval

MEANS = np.array([[-0.6, 0.0], [0.6, 0.0]])
SIZES = (100, 500)
DESIGNS = ((10, 1), (10, 10), (5, 2))  # (n_splits, n_repeats)


def draw(n, rng):
    """``n`` instances, half of each class."""
    y = np.repeat([0, 1], [n // 2, n - n // 2])
    return MEANS[y] + rng.standard_normal((n, 2)), y


def fit(X, y):
    """Fisher's discriminant: ``(w, b)`` of the rule ``x @ w + b >= 0`` -> class 1."""
    m0, m1 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    centered = np.concatenate([X[y == 0] - m0, X[y == 1] - m1])
    covariance = centered.T @ centered / (len(y) - 2)
    w = np.linalg.solve(covariance, m1 - m0)
    return w, -w @ (m0 + m1) / 2


def population_accuracy(w, b):
    """The exact accuracy of ``x @ w + b >= 0`` on the population (equal priors)."""
    norm = np.linalg.norm(w)
    margin0, margin1 = (MEANS @ w + b) / norm
    return 0.5 * stats.norm.cdf(-margin0) + 0.5 * stats.norm.cdf(margin1)


def true_score(n_train, n_draws, rng):
    """``mu``: the mean population accuracy of the model fit on ``n_train`` instances."""
    return float(np.mean([population_accuracy(*fit(*draw(n_train, rng)))
                          for _ in range(n_draws)]))


def fold_scores(X, y, splits):
    scores = np.empty(len(splits))
    for k, (train, test) in enumerate(splits):
        w, b = fit(X[train], y[train])
        scores[k] = np.mean((X[test] @ w + b >= 0) == y[test])
    return scores


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--truth", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", type=float, default=0.95)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    band = 1.96 * np.sqrt(args.level * (1 - args.level) / args.reps)
    print(f"{args.reps} replications a case; nominal {args.level:.0%}, binomial band "
          f"[{args.level - band:.3f}, {args.level + band:.3f}]")
    print(f"{'n':>5} {'design':>10} {'mu':>7} {'naive':>7} {'corrected':>10} "
          f"{'naive width':>12} {'corr. width':>12}")
    start = time.perf_counter()
    rows = []
    for n in SIZES:
        for n_splits, n_repeats in DESIGNS:
            n_test = n // n_splits
            mu = true_score(n - n_test, args.truth, rng)
            covered = {"naive_ttest": 0, "corrected_ttest": 0}
            widths = {"naive_ttest": 0.0, "corrected_ttest": 0.0}
            for _ in range(args.reps):
                X, y = draw(n, rng)
                cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats,
                                             random_state=int(rng.integers(2 ** 31 - 1)))
                splits = list(cv.split(X, y))
                scores = fold_scores(X, y, splits)
                for method in covered:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        result = cross_validated_score_interval(
                            scores, n_train=[len(train) for train, _ in splits],
                            n_test=[len(test) for _, test in splits], method=method,
                            confidence_level=args.level)
                    covered[method] += result.low <= mu <= result.high
                    widths[method] += (result.high - result.low) / args.reps
            design = f"{n_repeats}x{n_splits}-fold"
            naive = covered["naive_ttest"] / args.reps
            corrected = covered["corrected_ttest"] / args.reps
            rows.append((n, design, mu, naive, corrected))
            print(f"{n:>5} {design:>10} {mu:>7.4f} {naive:>7.3f} {corrected:>10.3f} "
                  f"{widths['naive_ttest']:>12.4f} {widths['corrected_ttest']:>12.4f}",
                  flush=True)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
