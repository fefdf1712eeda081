"""
=======================================================
Transport-based confusion matrix of a multi-label model
=======================================================

scikit-learn's :func:`~sklearn.metrics.multilabel_confusion_matrix` gives one 2 x 2 matrix
per class: it cannot say which classes a multi-label model confuses. The transport-based
confusion matrix (Erbani et al. 2024) can: each instance moves its normalized prediction
onto its normalized label along the maximum-entropy optimal plan, and the plans are summed.

We train a one-vs-rest classifier on synthetic multi-label data and compare the matrix of
its hard predictions under the three weightings, then the matrix of its predicted
probabilities (soft labels).
"""

# %%
# Data and model
# --------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier

from sklearn_confusion_ext import (
    prevalence_ranking,
    transport_classification_report,
    transport_confusion_matrix,
)

X, Y = make_multilabel_classification(n_samples=2000, n_features=20, n_classes=5,
                                      n_labels=2, random_state=0)
X_train, X_test, Y_train, Y_test = train_test_split(X, Y, random_state=0)
model = OneVsRestClassifier(LogisticRegression(max_iter=1000)).fit(X_train, Y_train)
Y_hard = model.predict(X_test)
Y_soft = model.predict_proba(X_test)

# %%
# Three weightings of the hard predictions
# ----------------------------------------
# ``"uniform"`` counts every instance once, ``"true"`` by its number of true labels and
# ``"pred"`` by its number of predicted labels. The last row and column, "none", hold the
# instances with no true or no predicted label. Classes are ordered by prevalence in the
# test labels, most common first (Section VI-A; passing the training labels too would order
# the columns by training prevalence), so values are expected to decrease to the right and
# downwards: entries that break that order stand out.
rows, _ = prevalence_ranking(Y_test)
row_order = column_order = np.append(rows, Y.shape[1])
names = np.array([f"C{k}" for k in range(Y.shape[1])] + ["none"])


def draw(ax, matrix, title):
    matrix = matrix[np.ix_(row_order, column_order)]
    image = ax.imshow(matrix, cmap="viridis")
    for (i, j), value in np.ndenumerate(matrix):
        color = "black" if value > matrix.max() / 2 else "white"
        ax.text(j, i, f"{value:.0f}", ha="center", va="center", color=color, fontsize=8)
    ax.set(xticks=range(len(column_order)), xticklabels=names[column_order],
           yticks=range(len(row_order)), yticklabels=names[row_order],
           xlabel="Predicted label", ylabel="True label", title=title)
    return image


fig, axes = plt.subplots(1, 3, figsize=(13, 4.5), layout="constrained")
for ax, weighting in zip(axes, ["uniform", "true", "pred"]):
    draw(ax, transport_confusion_matrix(Y_test, Y_hard, weighting=weighting),
         f'weighting="{weighting}"')
plt.show()

# %%
# Soft predictions
# ----------------
# The predicted probabilities of a one-vs-rest model are soft labels of any norm: the
# matrix compares their proportions with the label's, so confident mistakes weigh more
# than hesitations.
fig, ax = plt.subplots(figsize=(5, 4.5), layout="constrained")
fig.colorbar(draw(ax, transport_confusion_matrix(Y_test, Y_soft), "predict_proba"), ax=ax)
plt.show()

# %%
# Scores read off the matrix
# --------------------------
print(transport_classification_report(Y_test, Y_hard, weighting="true",
                                      target_names=list(names[:-1])))
