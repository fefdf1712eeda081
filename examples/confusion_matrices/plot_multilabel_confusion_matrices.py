"""
=============================================
Four multi-label confusion matrices, compared
=============================================

A multi-label model can be summarized by several two-dimensional confusion matrices:
MLCM (Heydarian et al., IEEE Access 2022), Krstinic et al.'s 2020 matrix, the recall and
precision matrices of the multi-label confusion tensor (MLCT, Krstinic et al. 2024) and
the transport-based confusion matrix (TCM). They share the diagonal's spirit but
distribute the errors differently. We draw them side by side, row-normalized, and print
the MLCM report.
"""

# %%
# A multi-label model
# -------------------
import matplotlib.pyplot as plt
from sklearn.datasets import make_multilabel_classification
from sklearn.model_selection import train_test_split
from sklearn.multioutput import MultiOutputClassifier
from sklearn.neighbors import KNeighborsClassifier

from sklearn_confusion_ext import (
    MLCMDisplay,
    TransportConfusionMatrixDisplay,
    mlcm,
    mlcm_classification_report,
    multilabel_confusion_tensor,
)

X, Y = make_multilabel_classification(n_samples=3000, n_features=20, n_classes=6,
                                      n_labels=3, random_state=3)
X_train, X_test, Y_train, Y_test = train_test_split(X, Y, random_state=0)
Y_pred = MultiOutputClassifier(KNeighborsClassifier(15)).fit(X_train, Y_train).predict(X_test)
names = [str(k) for k in range(Y.shape[1])]

# %%
# MLCM and Krstinic et al.'s matrix
# ---------------------------------
# :class:`~sklearn_confusion_ext.MLCMDisplay` draws either matrix (``method=``). The last
# row is MLCM's no-true-label row (NTL) and the last column its no-predicted-label
# column (NPL): a missed label with nothing wrongly predicted lands in the NPL column.
# With ``normalize="true"`` each row gives the share of a true class's counts.
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
for ax, method in zip(axes, ["heydarian", "krstinic"]):
    MLCMDisplay.from_predictions(Y_test, Y_pred, method=method, normalize="true",
                                 values_format=".2f", ax=ax, colorbar=False,
                                 title=f'method="{method}", rows normalized')
plt.show()

# %%
# The transport-based matrix and the confusion tensor
# ---------------------------------------------------
# The TCM weighted by the number of true labels (``weighting="true"``) equals Krstinic et
# al.'s matrix whenever one label set contains the other (Erbani et al. 2024,
# Proposition 8); they differ on instances with both missed labels and wrong predictions.
# The MLCT's recall matrix, row-normalized, has the per-class recalls on its diagonal.
recall_matrix, precision_matrix = multilabel_confusion_tensor(Y_test, Y_pred, normalize=True)
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
TransportConfusionMatrixDisplay.from_predictions(
    Y_test, Y_pred, weighting="true", normalize="true", values_format=".2f", ax=axes[0],
    colorbar=False, title='TCM, weighting="true", rows normalized')
MLCMDisplay(recall_matrix, display_labels=[*names, "none"]).plot(
    values_format=".2f", ax=axes[1], colorbar=False)
axes[1].set_title("MLCT recall matrix, rows normalized")
plt.show()

# %%
# Where the matrices disagree
# ---------------------------
# The diagonal share of each row. MLCM and Krstinic et al.'s matrix also charge wrong
# predictions to the rows of the labels that were found, so their shares stay below the
# per-class recall, which is the diagonal of the MLCT's row-normalized recall matrix.
matrices = {
    "MLCM": mlcm(Y_test, Y_pred),
    "Krstinic": mlcm(Y_test, Y_pred, method="krstinic"),
}
print(f"{'class':>6}" + "".join(f"{title:>10}" for title in matrices) + f"{'MLCT':>10}")
for k, name in enumerate(names):
    shares = [matrix[k, k] / matrix[k].sum() for matrix in matrices.values()]
    print(f"{name:>6}" + "".join(f"{share:10.3f}" for share in shares)
          + f"{recall_matrix[k, k]:10.3f}")

# %%
# The MLCM report, laid out as Table 12 of Heydarian et al. (2022)
# -----------------------------------------------------------------
print(mlcm_classification_report(Y_test, Y_pred, target_names=names))
