"""
===============================================
How often do classification measures disagree?
===============================================

Gösgens et al. (NeurIPS 2021, Section 5) count how often two measures order two
predictions of the same instances differently: accuracy and balanced accuracy disagree on
almost every pair of thresholds of a rain forecast, while the measures with a constant
baseline (kappa, GM_1, Matthews' CC, SBA) mostly agree.

We read the paper's average confusion matrices of that forecast (Appendix E.1), then
compare classifiers on an imbalanced ten-class problem, as the paper does on Yeast.
"""

# %%
# Measures along the thresholds of the rain forecast
# ---------------------------------------------------
# Appendix E.1 prints the average confusion matrices (in %) of six thresholds, for the
# ten-minute and the two-hour horizons.
# :func:`~sklearn_confusion_ext.measure_inconsistency_from_confusion` scores each matrix
# with the measures of Section 5 (CE as 1 - CE, so that higher is better for all). At
# two hours accuracy and CE prefer the largest threshold, balanced accuracy and SBA the
# smallest.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import (
    indistinguishable_measures,
    measure_inconsistency,
    measure_inconsistency_from_confusion,
)

horizons = {
    "ten minutes": [[93.55, 1.12, 0.22, 5.11], [93.76, 0.91, 0.29, 5.04],
                    [93.84, 0.83, 0.33, 5.01], [93.91, 0.76, 0.36, 4.97],
                    [94.10, 0.57, 0.49, 4.85], [94.33, 0.34, 0.75, 4.59]],
    "two hours": [[90.41, 4.25, 1.47, 3.87], [91.32, 3.34, 1.74, 3.60],
                  [91.67, 2.99, 1.87, 3.47], [91.96, 2.70, 1.99, 3.35],
                  [92.94, 1.72, 2.51, 2.83], [93.98, 0.68, 3.43, 1.91]],
}
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=False, layout="constrained")
for ax, (horizon, cells) in zip(axes, horizons.items()):
    result = measure_inconsistency_from_confusion(np.reshape(cells, (-1, 2, 2)))
    scores = result.scores[0]
    # Each measure relative to its best threshold, so that the orders are comparable.
    for m, name in enumerate(result.measure_names):
        ax.plot(np.arange(1, 7), scores[:, m] - scores[:, m].max(), marker="o", label=name)
    ax.set_title(f"Rain forecast, {horizon}")
    ax.set_xlabel("threshold (1 = smallest)")
    ax.set_ylabel("score minus the measure's best")
axes[1].legend(loc="lower left", fontsize="small", ncol=2)
plt.show()
print(result)

# %%
# Inconsistency of the measures over classifiers
# -----------------------------------------------
# Seven classifiers on an imbalanced ten-class problem give 21 pairs of predictions of
# the same test set; :func:`~sklearn_confusion_ext.measure_inconsistency` counts, for each
# two measures, the pairs they order differently (ties included), as Table 12 of the
# paper does for Yeast.
X, y = make_classification(n_samples=1500, n_features=12, n_informative=8, n_classes=10,
                           n_clusters_per_class=1, weights=[0.3, 0.2, 0.12, 0.1, 0.08, 0.06,
                                                            0.05, 0.04, 0.03, 0.02],
                           random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
classifiers = [LogisticRegression(max_iter=2000), GaussianNB(),
               KNeighborsClassifier(3), KNeighborsClassifier(15),
               DecisionTreeClassifier(max_depth=4, random_state=0),
               DecisionTreeClassifier(random_state=0),
               RandomForestClassifier(n_estimators=50, random_state=0)]
y_preds = [model.fit(X_train, y_train).predict(X_test) for model in classifiers]
result = measure_inconsistency(y_test, y_preds)
print(result)

fig, ax = plt.subplots(figsize=(6, 5), layout="constrained")
percent = 100 * result.inconsistency
image = ax.imshow(percent, cmap="Oranges", vmin=0, vmax=max(50, percent.max()))
names = result.measure_names
ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
ax.set_yticks(range(len(names)), names)
for i in range(len(names)):
    for j in range(len(names)):
        if i != j:
            ax.text(j, i, f"{percent[i, j]:.0f}", ha="center", va="center", fontsize=8,
                    color="white" if percent[i, j] > 0.6 * image.norm.vmax else "black")
fig.colorbar(image, ax=ax, label=f"% of the {result.n_pairs} pairs ordered differently")
ax.set_title("Inconsistency of measures, 7 classifiers, 10 classes")
plt.show()

# %%
# Which measures can small examples tell apart?
# ---------------------------------------------
# Over every triplet of binary labelings of n elements (Section 5.1), measures that always
# agree are indistinguishable; from n = 9 on, every pair can be told apart.
for n in range(2, 10):
    print(n, [sorted(group) for group in indistinguishable_measures(n=n)])
