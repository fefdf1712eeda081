"""
==================================
Several classifiers, one test set
==================================

Four classifiers are scored on the same test instances. Is any of them better than the
others, and which pairs differ? Cochran's Q tests whether the classifiers share one
accuracy, reading each instance's row of right and wrong answers; where it rejects,
McNemar's exact test of every pair, corrected by Holm's method, says which pairs differ.
And is each better than a classifier without features, always predicting the most
frequent class (the no-information rate)?
"""

# %%
# Four classifiers on the digits
# ------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import accuracy_vs_no_information_rate, cochran_q_test

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
models = {"logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.1)),
          "5 neighbours": KNeighborsClassifier(),
          "naive Bayes": GaussianNB(),
          "tree, depth 6": DecisionTreeClassifier(max_depth=6, random_state=0)}
y_preds = {name: model.fit(X_train, y_train).predict(X_test)
           for name, model in models.items()}

# %%
# Cochran's Q and the pairwise tests
# ----------------------------------
# The result prints its pairs: the instances only one of the two gets right, McNemar's
# exact p-value and Holm's corrected one.
result = cochran_q_test(y_test, y_preds)
print(result)

# %%
# Against the no-information rate
# -------------------------------
# The default test pairs each classifier with the majority-class predictor on every
# instance (an exact one-sided McNemar test), and reports the accuracy's
# Clopper-Pearson interval. With ten balanced classes the bar is low.
nir = {name: accuracy_vs_no_information_rate(y_test, y_pred)
       for name, y_pred in y_preds.items()}
for name, test in nir.items():
    print(f"{name:>14}: accuracy {test.accuracy:.3f}, NIR {test.no_information_rate:.3f},"
          f" p = {test.pvalue:.2g}")

# %%
# A picture of both
# -----------------
# Left: each accuracy with its interval, and the no-information rate. Right: the
# corrected p-values of the pairs (a cell below 0.05 is a pair that differs).
names = list(y_preds)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), width_ratios=(1, 1.1))
accuracy = np.array([nir[name].accuracy for name in names])
ends = np.array([nir[name].confidence_interval() for name in names])
positions = np.arange(len(names))
left.errorbar(accuracy, positions, xerr=[accuracy - ends[:, 0], ends[:, 1] - accuracy],
              fmt="o", capsize=4)
left.axvline(nir[names[0]].no_information_rate, color="grey", ls="--",
             label="no-information rate")
left.set(yticks=positions, yticklabels=names, xlabel="accuracy (95 % Clopper-Pearson)",
         xlim=(0, 1), title=f"Cochran's Q = {result.statistic:.1f}, p = {result.pvalue:.1g}")
left.invert_yaxis()
left.legend(loc="lower left")

frame = result.to_frame()
pvalues = np.full((len(names), len(names)), np.nan)  # the diagonal left blank
for row in frame.itertuples():
    i, j = names.index(row.model_a), names.index(row.model_b)
    pvalues[i, j] = pvalues[j, i] = row.pvalue_corrected
image = right.imshow(np.log10(np.clip(pvalues, 1e-12, 1)), cmap="viridis", vmin=-12, vmax=0)
for i in range(len(names)):
    for j in range(len(names)):
        if i != j:
            right.text(j, i, f"{pvalues[i, j]:.2g}", ha="center", va="center",
                       color="white" if pvalues[i, j] < 1e-6 else "black")
right.set(xticks=positions, yticks=positions, title="Holm-corrected McNemar p-values")
right.set_xticklabels(names, rotation=30, ha="right")
right.set_yticklabels(names)
fig.colorbar(image, ax=right, label="log10 p-value")
fig.tight_layout()
plt.show()
