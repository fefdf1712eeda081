"""Type I error and power of the margin tests (non-inferiority and superiority) of
compare_scores and compare_cv_scores, by simulation.

Each case is drawn at the margin's boundary: a true difference of exactly ``-m`` for
non-inferiority and ``+m`` for superiority, where a test at 5 % should reject 5 % of the
time (a one-sided test's size is reached at the boundary), then at a true difference
well inside the alternative (0 for non-inferiority, ``+3m`` for superiority) for the
power. Rejections are counted with the result's own decision (``pvalue < 0.05``, which
the tests show equal to "the one-sided 95 % lower bound clears the null difference"), so
the rate of the boundary row is also one minus the coverage of the one-sided bound.

* compare_scores (accuracy of two classifiers on the same instances): each instance is
  right for both with probability 0.80, for a only or b only with probabilities
  ``p_a``, ``p_b`` (``p_a + p_b = 0.15``, ``p_a - p_b`` the true difference); ``n``
  instances of two balanced classes; bootstrap and Bayesian bootstrap with 999
  resamples, and Tango's score test (``method="mcnemar-score"``); margin 0.03.
* compare_cv_scores, simulated folds: the differences of 10 x 10-fold cross-validation
  as equicorrelated normal variables, correlation ``rho = n_test / n = 0.1`` (Nadeau and
  Bengio's model, under which the corrected t is exact), sd 0.02, margin 0.01; the
  corrected and the naive t-tests and the Bayesian correlated t-test (decision
  ``P > 0.95``).
* compare_cv_scores, real folds: two extremely randomized trees of different random
  seeds (equal in expectation by symmetry) on a fresh ``make_classification`` data set
  of 300 instances each replication, model a's accuracy shifted by the null difference;
  2 x 5-fold for the corrected and Bayesian tests, 5 x 2-fold for Dietterich's t;
  margin 0.05.

    python benchmarks/coverage_margin.py              # the user guide's table (~10 min)
    python benchmarks/coverage_margin.py --quick      # a smoke run
"""

import argparse
import time
import warnings

import numpy as np
from scipy import stats

from sklearn_confusion_ext import compare_cv_scores, compare_scores

ALPHA = 0.05
HYPOTHESES = ("non-inferiority", "superiority")


def band(repeats):
    """The central 95 % range of the rejection rate of a test of exact size ALPHA."""
    return (stats.binom.ppf(0.025, repeats, ALPHA) / repeats,
            stats.binom.ppf(0.975, repeats, ALPHA) / repeats)


def truth(hypothesis, margin, where):
    """The true difference: the null boundary, or well inside the alternative."""
    if where == "boundary":
        return -margin if hypothesis == "non-inferiority" else margin
    return 0.0 if hypothesis == "non-inferiority" else 3 * margin


# --- compare_scores ----------------------------------------------------------------------


def paired_labels(rng, n, difference, discordant=0.15, both=0.80):
    y = rng.integers(0, 2, n)
    p_a, p_b = (discordant + difference) / 2, (discordant - difference) / 2
    cell = rng.choice(4, size=n, p=[both, p_a, p_b, 1 - both - discordant])
    right_a, right_b = np.isin(cell, (0, 1)), np.isin(cell, (0, 2))
    return y, np.where(right_a, y, 1 - y), np.where(right_b, y, 1 - y)


def score_rate(method, n, hypothesis, where, repeats, seed, margin=0.03):
    rng = np.random.default_rng(seed)
    difference = truth(hypothesis, margin, where)
    rejected = 0
    for repeat in range(repeats):
        y, a, b = paired_labels(rng, n, difference)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = compare_scores(y, a, b, method=method, margin=margin,
                                    hypothesis=hypothesis, n_resamples=999,
                                    scoring=None if method == "mcnemar-score" else
                                    "tcm_accuracy", random_state=repeat)
        rejected += result.verdict.startswith(("non-inferior", "superior"))
    return rejected / repeats


# --- compare_cv_scores, simulated folds ---------------------------------------------------


def simulated_rate(method, hypothesis, where, repeats, seed, margin=0.01, sd=0.02,
                   n_folds=100, rho=0.1):
    rng = np.random.default_rng(seed)
    difference = truth(hypothesis, margin, where)
    rejected = 0
    for _ in range(repeats):
        shared = rng.normal() * np.sqrt(rho)
        d = difference + sd * (shared + np.sqrt(1 - rho) * rng.normal(size=n_folds))
        scores_b = 0.8 + 0.01 * rng.normal(size=n_folds)
        result = compare_cv_scores(scores_b + d, scores_b, method=method, n_train=9,
                                   n_test=1, margin=margin, hypothesis=hypothesis)
        rejected += result.verdict.startswith(("non-inferior", "superior"))
    return rejected / repeats


# --- compare_cv_scores, real folds ----------------------------------------------------------


def fold_scores(X, y, n_splits, n_repeats, seeds, rng):
    from sklearn.model_selection import StratifiedKFold
    from sklearn.tree import ExtraTreeClassifier

    scores = {seed: [] for seed in seeds}
    for _ in range(n_repeats):
        splitter = StratifiedKFold(n_splits, shuffle=True,
                                   random_state=int(rng.integers(2 ** 31)))
        for train, test in splitter.split(X, y):
            for seed in seeds:
                model = ExtraTreeClassifier(random_state=seed).fit(X[train], y[train])
                scores[seed].append(np.mean(model.predict(X[test]) == y[test]))
    return [np.array(scores[seed]) for seed in seeds]


def real_rates(repeats, seed, margin=0.05):
    """Rejection rates of each (method, hypothesis, where) on the same real folds."""
    from sklearn.datasets import make_classification

    rng = np.random.default_rng(seed)
    cases = [(method, hypothesis, where) for method in ("corrected_ttest", "bayesian",
                                                         "5x2cv_ttest")
             for hypothesis in HYPOTHESES for where in ("boundary", "inside")]
    rejected = dict.fromkeys(cases, 0)
    for _ in range(repeats):
        X, y = make_classification(300, n_features=8, n_informative=4, flip_y=0.1,
                                   random_state=int(rng.integers(2 ** 31)))
        seeds = tuple(int(s) for s in rng.integers(2 ** 31, size=2))
        folds = {"kfold": fold_scores(X, y, 5, 2, seeds, rng),
                 "5x2": fold_scores(X, y, 2, 5, seeds, rng)}
        for method, hypothesis, where in cases:
            a, b = folds["5x2" if method == "5x2cv_ttest" else "kfold"]
            sizes = {"n_train": 150, "n_test": 150} if method == "5x2cv_ttest" else \
                {"n_train": 240, "n_test": 60}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = compare_cv_scores(a + truth(hypothesis, margin, where), b,
                                           method=method, margin=margin,
                                           hypothesis=hypothesis, **sizes)
            rejected[method, hypothesis, where] += result.verdict.startswith(
                ("non-inferior", "superior"))
    return {case: count / repeats for case, count in rejected.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=500)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeats = 40 if args.quick else args.repeats
    low, high = band(repeats)
    print(f"{repeats} replications a case; a test of exact size {ALPHA} rejects within "
          f"[{low:.3f}, {high:.3f}] at the boundary 95 % of the time.\n")
    rows = []
    start = time.perf_counter()
    for method in ("bootstrap", "bayesian", "mcnemar-score"):
        for n in (200, 1000):
            for hypothesis in HYPOTHESES:
                size = score_rate(method, n, hypothesis, "boundary", repeats, 1)
                power = score_rate(method, n, hypothesis, "inside", repeats, 2)
                rows.append((f"compare_scores {method}", f"n={n}", hypothesis, size, power))
    for method in ("corrected_ttest", "naive_ttest", "bayesian"):
        for hypothesis in HYPOTHESES:
            size = simulated_rate(method, hypothesis, "boundary", repeats, 3)
            power = simulated_rate(method, hypothesis, "inside", repeats, 4)
            rows.append((f"compare_cv_scores {method}", "simulated 10x10", hypothesis, size,
                         power))
    real = real_rates(repeats, 5)
    for method, folds in (("corrected_ttest", "trees 2x5"), ("bayesian", "trees 2x5"),
                          ("5x2cv_ttest", "trees 5x2")):
        for hypothesis in HYPOTHESES:
            rows.append((f"compare_cv_scores {method}", folds, hypothesis,
                         real[method, hypothesis, "boundary"],
                         real[method, hypothesis, "inside"]))
    print(f"{'test':<34} {'data':<16} {'hypothesis':<16} {'size':>6} {'in band':>8} "
          f"{'power':>6}")
    for test, data, hypothesis, size, power in rows:
        inside = "yes" if low <= size <= high else ("below" if size < low else "ABOVE")
        print(f"{test:<34} {data:<16} {hypothesis:<16} {size:6.3f} {inside:>8} {power:6.3f}")
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
