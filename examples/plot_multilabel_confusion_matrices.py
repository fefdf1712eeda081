"""
=============================================
Four multi-label confusion matrices, compared
=============================================

A multi-label model can be summarized by several two-dimensional confusion matrices:
MLCM (Heydarian et al. 2022), Krstinic et al.'s 2020 matrix, the recall and precision
matrices of the multi-label confusion tensor (MLCT) and the transport-based confusion
matrix (TCM). They agree on the diagonal's spirit but distribute errors differently. We
draw them side by side, row-normalized, and measure how differently they rank the classes
by F1-score with the F1 ranking disorder of Erbani et al. (2024, eq. 52).
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_multilabel_classification
from sklearn.model_selection import train_test_split
from sklearn.multioutput import MultiOutputClassifier
from sklearn.neighbors import KNeighborsClassifier

from sklearn_confusion_ext import (
    f1_ranking_disorder,
    mlcm,
    mlcm_classification_report,
    multilabel_confusion_tensor,
    transport_confusion_matrix,
)

X, Y = make_multilabel_classification(n_samples=3000, n_features=20, n_classes=8,
                                      n_labels=3, random_state=3)
X_train, X_test, Y_train, Y_test = train_test_split(X, Y, random_state=0)
Y_pred = MultiOutputClassifier(KNeighborsClassifier(15)).fit(X_train, Y_train).predict(X_test)

recall_matrix, precision_matrix = multilabel_confusion_tensor(Y_test, Y_pred)
matrices = {
    "MLCM": mlcm(Y_test, Y_pred),
    "Krstinic 2020": mlcm(Y_test, Y_pred, method="krstinic"),
    'TCM, weighting="true"': transport_confusion_matrix(Y_test, Y_pred, weighting="true"),
    "MLCT recall": recall_matrix,
    "MLCT precision": precision_matrix,
}

# %%
# Row-normalized matrices
# -----------------------
# The last row and column ("none") hold the instances with no true or no predicted label.
names = [f"C{k}" for k in range(Y.shape[1])] + ["none"]
fig, axes = plt.subplots(1, len(matrices), figsize=(19, 4.2), layout="constrained")
for ax, (title, matrix) in zip(axes, matrices.items()):
    totals = matrix.sum(axis=1, keepdims=True)
    shares = np.divide(matrix, totals, out=np.zeros_like(matrix), where=totals > 0)
    ax.imshow(shares, vmin=0, vmax=1, cmap="viridis")
    for (i, j), value in np.ndenumerate(shares):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7,
                color="black" if value > 0.5 else "white")
    ax.set(xticks=range(len(names)), xticklabels=names, yticks=range(len(names)),
           yticklabels=names, title=title, xlabel="Predicted label")
axes[0].set_ylabel("True label")
plt.show()

# %%
# How differently do they rank the classes?
# -----------------------------------------
# ``f1_ranking_disorder(a, b)`` is 0 when ranking the classes by ``b``'s F1-scores leaves
# ``a``'s F1-scores sorted, and grows with the disorder. It is not symmetric.
titles = list(matrices)
disorder = np.array([[f1_ranking_disorder(matrices[a][:-1, :-1], matrices[b][:-1, :-1])
                      for b in titles] for a in titles])
with np.printoptions(precision=1, suppress=True):
    print(disorder)

# %%
# The MLCM report, laid out as Table 12 of Heydarian et al. (2022)
# -----------------------------------------------------------------
print(mlcm_classification_report(Y_test, Y_pred, target_names=names[:-1]))
