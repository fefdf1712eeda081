"""
=====================================
How many test instances does it take?
=====================================

Before labelling a test set, ask whether it can tell two classifiers apart. McNemar's
test reads only the instances where exactly one of them is right (the discordant
ones), so its power is a binomial mixture over their number, computed exactly by
``mcnemar_power``; ``minimum_detectable_difference`` and ``required_sample_size`` invert
it. The paired bootstrap of ``compare_scores`` has no closed form: ``bootstrap_power``
simulates it, and the two agree within Monte Carlo error.
"""

# %%
# The design: how often the two models disagree
# ---------------------------------------------
# The discordance (the share of instances where exactly one model is right) is read off
# an earlier test set's McNemar table: its off-diagonal cells over the total. Here two
# models on the breast-cancer data, split in half.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import (
    bootstrap_power,
    mcnemar_power,
    mcnemar_table,
    minimum_detectable_difference,
    required_sample_size,
)

X, y = load_breast_cancer(return_X_y=True)
X_train, X_pilot, y_train, y_pilot = train_test_split(X, y, test_size=0.5, random_state=0)
linear = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X_train, y_train)
table = mcnemar_table(y_pilot, linear.predict(X_pilot), tree.predict(X_pilot))
discordance = (table[0, 1] + table[1, 0]) / table.sum()
difference = (table[0, 1] - table[1, 0]) / table.sum()
print(f"McNemar table of the pilot set:\n{table}")
print(f"discordance {discordance:.3f}, accuracy difference {difference:.3f}")

# %%
# Power against the test-set size
# -------------------------------
# The exact test's power is a sawtooth in the size (its critical values are discrete);
# the mid-p test has a little more. The dots are the paired bootstrap's power, by
# simulation (with its Monte Carlo interval).
sizes = np.arange(50, 2001, 10)
fig, ax = plt.subplots(figsize=(7, 4.5))
for target, colour in ((0.02, "tab:blue"), (0.04, "tab:orange")):
    for exact, style in ((True, "-"), ("mid-p", ":")):
        power = [mcnemar_power(int(n), target, discordance=discordance, exact=exact)
                 for n in sizes]
        ax.plot(sizes, power, style, color=colour,
                label=f"difference {target:.2f}, {'exact' if exact is True else 'mid-p'}")
    for n in (250, 1000, 2000):
        simulated = bootstrap_power(n, target, discordance=discordance, n_simulations=200,
                                    n_resamples=199, random_state=0)
        low, high = simulated.confidence_interval()
        ax.errorbar(n, simulated.power, yerr=[[simulated.power - low], [high - simulated.power]],
                    fmt="o", color=colour, capsize=3,
                    label="paired bootstrap, simulated" if (n, target) == (250, 0.02) else None)
ax.axhline(0.8, color="grey", lw=0.8)
ax.set(xlabel="test-set size", ylabel="power at level 0.05", ylim=(0, 1.04),
       title=f"McNemar's test, discordance {discordance:.2f}")
ax.legend(loc="lower right", fontsize="small")
fig.tight_layout()

# %%
# The two questions a plan answers
# --------------------------------
# What can this size detect, and what size does a given difference need?
for n in (285, 1000):
    detectable = minimum_detectable_difference(n, discordance=discordance)
    print(f"{n} instances detect a difference of {detectable:.3f} with power 0.8")
for target in (0.02, 0.04):
    needed = required_sample_size(target, discordance=discordance)
    print(f"a difference of {target:.2f} needs {needed} instances")
plt.show()
