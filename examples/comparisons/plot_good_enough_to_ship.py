"""
==========================
Is it good enough to ship?
==========================

A model is in production and a candidate would replace it. The release is decided in
three steps, each written down before the test set is looked at: a test-set size that
can tell the two apart by the margin that matters (planned on a small pilot set), an
acceptance test with that margin, and a check that the candidate holds in every
subgroup, naming the subgroups too small to tell. The user guide's page "Is it good
enough to ship?" walks the same decision in prose.
"""

# %%
# Models, sites and a pilot set
# -----------------------------
# Twelve thousand instances from five sites, the island small. Half train the models; a
# pilot set of 1,000 is labelled first, the other 5,000 are the test set.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_confusion_ext import (
    SubgroupIntervalDisplay,
    compare_scores,
    mcnemar_power,
    mcnemar_table,
    required_sample_size,
    score_by_subgroup,
)

X, y = make_classification(n_samples=12_000, n_features=20, n_informative=8, n_redundant=4,
                           flip_y=0.05, class_sep=0.8, random_state=0)
site = np.random.default_rng(0).choice(["north", "south", "east", "west", "island"],
                                       size=len(y), p=[0.3, 0.3, 0.2, 0.15, 0.05])
X_train, X_rest, y_train, y_rest, site_train, site_rest = train_test_split(
    X, y, site, train_size=6_000, random_state=0)
X_pilot, X_test, y_pilot, y_test, site_pilot, site_test = train_test_split(
    X_rest, y_rest, site_rest, train_size=1_000, random_state=0)
production = LogisticRegression().fit(X_train, y_train)
candidate = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=15))
candidate.fit(X_train, y_train)

# %%
# 1. The plan: how many test instances?
# -------------------------------------
# The rule: ship if the candidate beats production by more than one point of accuracy.
# The pilot set's McNemar table gives the share of instances where the two disagree;
# with it, the power of the one-sided test against the size of the test set.
table = mcnemar_table(y_pilot, candidate.predict(X_pilot), production.predict(X_pilot))
discordance = float((table[0, 1] + table[1, 0]) / table.sum())
print(f"pilot: discordance {discordance:.3f}")
sizes = np.arange(100, 6001, 50)
fig, ax = plt.subplots(figsize=(6.5, 4))
for gain in (0.015, 0.02, 0.03):
    power = [mcnemar_power(int(n), gain, discordance=discordance, alternative="greater")
             for n in sizes]
    ax.plot(sizes, power, label=f"true gain over the margin: {gain:.3f}")
    print(f"a gain of {gain:.3f} over the margin needs "
          f"{required_sample_size(gain, discordance=discordance, alternative='greater')} "
          "instances at power 0.8")
ax.axhline(0.8, color="grey", lw=0.8)
ax.axvline(len(y_test), color="black", ls="--", lw=0.8, label="the test set: 5,000")
ax.set(xlabel="test-set size", ylabel="power (one-sided, level 0.05)", ylim=(0, 1.02),
       title=f"Planning on the pilot set (discordance {discordance:.2f})")
ax.legend(loc="lower right", fontsize="small")
fig.tight_layout()

# %%
# 2. The acceptance test with its margin
# --------------------------------------
# Superiority by a margin of 0.01: the null hypothesis is that the candidate is better
# by at most a point. The verdict is worded for the release; the one-sided lower bound
# of the difference is what it reads.
y_candidate, y_production = candidate.predict(X_test), production.predict(X_test)
result = compare_scores(y_test, y_candidate, y_production, scoring="accuracy", margin=0.01,
                        hypothesis="superiority", random_state=0)
print(result)

fig, ax = plt.subplots(figsize=(6.5, 2.2))
ax.errorbar(result.estimate, 0, xerr=[[result.estimate - result.lower_bound], [0]],
            fmt="o", capsize=5, label="difference and its one-sided 95 % bound")
ax.axvline(0, color="grey", lw=0.8)
ax.axvline(0.01, color="tab:red", ls="--", label="margin: +0.01")
ax.set(yticks=[], xlabel="accuracy of the candidate minus production",
       xlim=(-0.02, 0.06), title=result.verdict.split(" (")[0])
ax.legend(loc="upper left", fontsize="small")
fig.tight_layout()

# %%
# 3. Every site
# -------------
# Each site's accuracy with its interval; the difference from the other sites, Holm
# adjusted; and the sites too small to detect a five-point difference.
by_site = score_by_subgroup(y_test, y_candidate, subgroups=site_test, scoring="accuracy",
                            min_difference=0.05, random_state=0)
print(by_site)
SubgroupIntervalDisplay.from_predictions(y_test, y_candidate, subgroups=site_test,
                                         scoring="accuracy", random_state=0)
plt.show()

# %%
# The candidate ships: the test set can tell a one-point margin, the candidate beats
# production by more than that, and no site differs from the rest. The island is named
# in the release note as too small to tell a five-point difference.
