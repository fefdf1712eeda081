"""Coverage of the Dirichlet posterior's 95 % credible intervals for rows near 100 % right.

For each prior that ``dirichlet_posterior`` offers (and Jeffreys' 0.5 per cell, a
candidate), each method of ``ConfusionPosterior.credible_interval``, ``C`` = 3, 10 and 40
classes, rows of ``n`` = 10, 30, 100 and 300 instances and a true rate ``p`` = 0.90, 0.97,
0.99 and 1.0 on the diagonal (the errors spread evenly: each other cell has
``(1 - p) / (C - 1)``), prints the coverage of

* the diagonal share ``P[predicted k | true k]`` (the recall of the class), and
* one off-diagonal cell ``P[predicted j | true k]``.

The coverage is exact, not simulated: the Beta marginal of a cell depends only on its own
count and the row total (with a prior of one value per cell), so the coverage is the sum,
over every count ``x = 0 .. n`` of the cell, of its binomial probability when the interval
of that count holds the true value. Each count's interval comes from the library's own
``dirichlet_posterior(...).credible_interval(...)``. A Monte Carlo run then draws
``--rows`` multinomial rows per setting (``--seed``) and reports its largest distance from
the exact figures, in standard errors.

``--fine`` adds the worst equal-tailed coverage over every ``n`` from 5 to 300 and 150 true
rates from 0.85 to 0.9995 (the discreteness of the binomial puts dips between the grid's
points).

Run: ``python benchmarks/coverage_dirichlet_prior.py [--level 0.95] [--rows 20000]
[--seed 0] [--fine] [--quick]`` (``--quick``: C = 3 and 10, n up to 100, equal-tailed only;
a few seconds). The full run with ``--fine`` took 22 minutes on two busy cores, most of it
the HPD intervals of 40 classes and the fine grid; the user guide's tables (section
"Dirichlet posteriors" of doc/user_guide/statistics.rst) are its output.
"""

import argparse
import time

import numpy as np
from scipy import stats

from sklearn_confusion_ext import dirichlet_posterior

PRIORS = {"perks": "perks", "uniform": 1.0, "jeffreys 0.5": 0.5}
METHODS = ("equal-tailed", "hpd")
CLASSES = (3, 10, 40)
SIZES = (10, 30, 100, 300)
RATES = (0.90, 0.97, 0.99, 1.0)


def intervals_by_count(prior, n_classes, n, level, method):
    """``(diagonal, off)``: arrays of shape ``(n + 1, 2)``, the interval of the diagonal
    share with ``x`` of ``n`` right and of an off-diagonal cell holding ``x`` of ``n``.

    Row ``k`` of each matrix built holds ``x`` on its diagonal and ``n - x`` in the cell
    after it; the marginal of a cell depends only on the cell's count and the row's total.
    """
    diagonal = np.empty((n + 1, 2))
    off = np.empty((n + 1, 2))
    counts = np.arange(n + 1)
    rows = np.arange(n_classes)
    for start in range(0, n + 1, n_classes):
        chunk = counts[start:start + n_classes]
        right = np.concatenate([chunk, np.full(n_classes - len(chunk), n)])
        matrix = np.zeros((n_classes, n_classes))
        matrix[rows, rows] = right
        matrix[rows, (rows + 1) % n_classes] = n - right
        lower, upper = dirichlet_posterior(matrix, prior=prior).credible_interval(
            level, method=method)
        used = rows[:len(chunk)]
        diagonal[chunk] = np.c_[lower[used, used], upper[used, used]]
        following = (used + 1) % n_classes
        off[n - chunk] = np.c_[lower[used, following], upper[used, following]]
    return diagonal, off


def exact_coverage(intervals, n, rate):
    counts = np.arange(n + 1)
    covers = (intervals[:, 0] <= rate) & (rate <= intervals[:, 1])
    return float(stats.binom.pmf(counts, n, rate) @ covers)


def simulated_coverage(intervals, rng, n, n_classes, rate, n_rows):
    """Coverage over ``n_rows`` multinomial rows: the diagonal, and every off-diagonal
    cell of every row (pooled)."""
    probabilities = np.r_[rate, np.full(n_classes - 1, (1 - rate) / (n_classes - 1))]
    draws = rng.multinomial(n, probabilities, size=n_rows)
    diagonal, off = intervals
    hit = (diagonal[draws[:, 0], 0] <= rate) & (rate <= diagonal[draws[:, 0], 1])
    cells = draws[:, 1:]
    target = probabilities[1]
    hit_off = (off[cells, 0] <= target) & (target <= off[cells, 1])
    return hit.mean(), hit_off.mean()


def table(level, n_rows, seed, classes, sizes, methods):
    rng = np.random.default_rng(seed)
    largest_z = (0.0, None)
    results = {}
    for prior_name, prior in PRIORS.items():
        for method in methods:
            for n_classes in classes:
                for n in sizes:
                    intervals = intervals_by_count(prior, n_classes, n, level, method)
                    for rate in RATES:
                        off_rate = (1 - rate) / (n_classes - 1)
                        exact = (exact_coverage(intervals[0], n, rate),
                                 exact_coverage(intervals[1], n, off_rate))
                        results[prior_name, method, n_classes, n, rate] = exact
                        simulated = simulated_coverage(intervals, rng, n, n_classes, rate,
                                                       n_rows)
                        # the off-diagonal cells of one row are dependent: a row's
                        # standard error is the conservative one
                        for part, e, s in zip(("diagonal", "off-diagonal"), exact,
                                              simulated):
                            se = max(np.sqrt(e * (1 - e) / n_rows), 0.5 / n_rows)
                            where = (f"{prior_name}, {method}, C={n_classes}, n={n}, "
                                     f"p={rate}, {part}: exact {100 * e:.2f} %, "
                                     f"simulated {100 * s:.2f} %")
                            largest_z = max(largest_z, (abs(s - e) / se, where))
    return results, largest_z


def print_table(results, classes, sizes, methods, level):
    for part, title in ((0, "diagonal share P[predicted k | true k]"),
                        (1, "one off-diagonal cell P[predicted j | true k], true (1-p)/(C-1)")):
        print(f"\nCoverage (%) of the {level:.0%} credible intervals: {title}")
        header = "  ".join(f"n={n:<3d} " + " ".join(f"{r:>5}" for r in RATES) for n in sizes)
        print(f"{'prior':13s} {'method':12s} {'C':>3s}  {header}")
        for prior_name in PRIORS:
            for method in methods:
                for n_classes in classes:
                    cells = "  ".join(
                        "      " + " ".join(
                            f"{100 * results[prior_name, method, n_classes, n, r][part]:5.1f}"
                            for r in RATES) for n in sizes)
                    print(f"{prior_name:13s} {method:12s} {n_classes:3d}  {cells}")


def binomial_reference(level, sizes):
    """The same grid for three intervals of a binomial proportion of x of n (they do not
    depend on the number of classes): Jeffreys' (Beta(x + 1/2, n - x + 1/2), with Brown, Cai
    and DasGupta's ends at 0 and 1 for x = 0 and x = n), Wilson's and Clopper-Pearson's."""
    z = stats.norm.ppf((1 + level) / 2)
    tail = (1 - level) / 2
    print(f"\nReference: {level:.0%} intervals of a binomial proportion x of n (coverage %)")
    for name in ("Jeffreys", "Wilson", "Clopper-Pearson"):
        cells = []
        for n in sizes:
            x = np.arange(n + 1)
            if name == "Jeffreys":
                lower = np.where(x == 0, 0.0, stats.beta.ppf(tail, x + 0.5, n - x + 0.5))
                upper = np.where(x == n, 1.0, stats.beta.ppf(1 - tail, x + 0.5, n - x + 0.5))
            elif name == "Wilson":
                share = x / n
                centre = (share + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
                half = z / (1 + z ** 2 / n) * np.sqrt(share * (1 - share) / n
                                                      + z ** 2 / (4 * n ** 2))
                # exactly 0 and 1 at x = 0 and x = n (in floats a rounding off either way)
                lower = np.where(x == 0, 0.0, centre - half)
                upper = np.where(x == n, 1.0, centre + half)
            else:
                with np.errstate(invalid="ignore"):
                    lower = np.nan_to_num(stats.beta.ppf(tail, x, n - x + 1), nan=0.0)
                    upper = np.nan_to_num(stats.beta.ppf(1 - tail, x + 1, n - x), nan=1.0)
            intervals = np.c_[lower, upper]
            cells.append("      " + " ".join(
                f"{100 * exact_coverage(intervals, n, r):5.1f}" for r in RATES))
        print(f"{name:30s}  " + "  ".join(cells))


def fine_minimum(level, classes):
    """The worst equal-tailed coverage over n = 5 .. 300 and rates 0.85 .. 0.9995."""
    rates = np.linspace(0.85, 0.9995, 150)
    print("\nWorst equal-tailed coverage (%) over n = 5..300 and true rates 0.85..0.9995 "
          "(diagonal; off-diagonal cell), share of settings below 93 %")
    for prior_name, prior in PRIORS.items():
        for n_classes in classes:
            worst = [(1.0, None), (1.0, None)]
            below = [0, 0]
            total = 0
            for n in range(5, 301):
                intervals = intervals_by_count(prior, n_classes, n, level, "equal-tailed")
                for rate in rates:
                    total += 1
                    for part, truth in enumerate((rate, (1 - rate) / (n_classes - 1))):
                        value = exact_coverage(intervals[part], n, truth)
                        worst[part] = min(worst[part], (value, (n, round(rate, 4))))
                        below[part] += value < 0.93
            print(f"{prior_name:13s} C={n_classes:2d}  diagonal {100 * worst[0][0]:5.1f} "
                  f"at (n, p) = {worst[0][1]} ({100 * below[0] / total:4.1f} % below 93)  "
                  f"off-diagonal {100 * worst[1][0]:5.1f} at {worst[1][1]} "
                  f"({100 * below[1] / total:4.1f} % below 93)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=float, default=0.95)
    parser.add_argument("--rows", type=int, default=20000,
                        help="simulated rows per setting for the Monte Carlo check")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fine", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    classes, sizes, methods = CLASSES, SIZES, METHODS
    if args.quick:
        classes, sizes, methods = (3, 10), (10, 30, 100), ("equal-tailed",)
    start = time.perf_counter()
    results, largest_z = table(args.level, args.rows, args.seed, classes, sizes, methods)
    print_table(results, classes, sizes, methods, args.level)
    binomial_reference(args.level, sizes)
    print(f"\nMonte Carlo check: {args.rows} multinomial rows per setting (seed {args.seed}); "
          f"largest distance from the exact coverage: {largest_z[0]:.2f} standard errors "
          f"of {2 * len(results)} ({largest_z[1]})")
    if args.fine:
        fine_minimum(args.level, classes)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
