"""The table of the user guide's "How many instances?": the power of the exact McNemar test
in closed form (``mcnemar_power``) beside a brute-force simulation of ``mcnemar_test`` on
simulated test sets, and the paired bootstrap's power by simulation.

Run: ``python benchmarks/power_mcnemar.py`` (about a minute on one core).
"""

import warnings

import numpy as np

from sklearn_confusion_ext import bootstrap_power, mcnemar_power, mcnemar_test
from sklearn_confusion_ext._statistics.power import simulate_discordant_counts

N_SIMULATIONS = 2000
DISCORDANCE = 0.1


def simulated(n, difference, rng):
    b, c = simulate_discordant_counts(rng, n, difference, DISCORDANCE, N_SIMULATIONS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.mean([mcnemar_test([[n - i - j, i], [j, 0]]).pvalue <= 0.05
                        for i, j in zip(b, c)])


def main():
    rng = np.random.default_rng(0)
    print(f"{'n':>6} {'difference':>10} {'closed form':>12} {'simulated':>10} "
          f"{'bootstrap':>10}")
    for n in (500, 1000, 5000):
        for difference in (0.01, 0.02):
            closed = mcnemar_power(n, difference, discordance=DISCORDANCE)
            boot = bootstrap_power(n, difference, discordance=DISCORDANCE,
                                   n_simulations=N_SIMULATIONS,
                                   n_resamples=999, random_state=n).power
            print(f"{n:>6} {difference:>10} {closed:>12.3f} "
                  f"{simulated(n, difference, rng):>10.3f} {boot:>10.3f}")


if __name__ == "__main__":
    main()
