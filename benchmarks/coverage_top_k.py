"""Coverage of the top-k accuracy's interval, by simulation (issue 38's quality bar).

Each simulated test set has ``n`` instances of ``C = 20`` classes with random scores; each
instance's true class is placed at a rank drawn so that it is in the top ``k`` with
probability ``p`` (uniformly among the top ``k`` ranks if so, among the others if not):
the true top-k accuracy is ``p`` exactly. ``score_confidence_interval(...,
scoring=top_k_accuracy_score, k=k)`` gives a 95 % interval (its default method, with
Wilson's interval where the resamples cannot vary, at 0 and 1); the table gives the share of
test sets whose interval holds ``p``, beside the binomial band of 95 % over the replications.

Run: ``python benchmarks/coverage_top_k.py [--replications R] [--quick]``.
"""

import argparse
import time
import warnings

import numpy as np
from scipy import stats

from sklearn_confusion_ext import score_confidence_interval, top_k_accuracy_score
from sklearn_confusion_ext.exceptions import DegenerateIntervalWarning

N_CLASSES = 20


def test_set(rng, n_samples, k, p):
    """Scores and labels whose true top-k accuracy is ``p``."""
    scores = rng.random((n_samples, N_CLASSES))
    order = np.argsort(-scores, axis=1)
    hit = rng.random(n_samples) < p
    rank = np.where(hit, rng.integers(0, k, n_samples), rng.integers(k, N_CLASSES, n_samples))
    return order[np.arange(n_samples), rank], scores


def coverage(rng, n_samples, k, p, replications, n_resamples):
    covered = 0
    for _ in range(replications):
        y_true, y_score = test_set(rng, n_samples, k, p)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateIntervalWarning)
            result = score_confidence_interval(
                y_true, y_score, scoring=top_k_accuracy_score, k=k,
                labels=np.arange(N_CLASSES), n_resamples=n_resamples,
                random_state=int(rng.integers(2**31)))
        covered += result.low <= p <= result.high
    return covered / replications


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="50 replications, 199 resamples")
    args = parser.parse_args()
    replications = 50 if args.quick else args.replications
    n_resamples = 199 if args.quick else 999
    low, high = stats.binom.ppf([0.025, 0.975], replications, 0.95) / replications
    print(f"{replications} replications a case, {n_resamples} resamples; 95 % coverage band "
          f"[{low:.3f}, {high:.3f}]")
    print(f"{'n':>6} {'k':>3} {'true top-k':>10} {'coverage':>9}")
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for n_samples in (50, 200, 1000):
        for k, p in ((1, 0.6), (5, 0.9), (5, 0.99)):
            rate = coverage(rng, n_samples, k, p, replications, n_resamples)
            flag = "" if low <= rate <= high else "  outside the band"
            print(f"{n_samples:>6} {k:>3} {p:>10.2f} {rate:>9.3f}{flag}", flush=True)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
