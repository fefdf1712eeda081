"""
===========================================
A confusion matrix over batches and workers
===========================================

Predictions that do not fit in memory, or that several workers produce, can be summed
batch by batch: every matrix of the library is a sum over instances.
:class:`~sklearn_confusion_ext.ConfusionAccumulator` adds batches as they come, merges the
partial sums of other workers, and returns what the one-shot function returns on all the
data.
"""

# %%
# Two workers, each reading batches
# ---------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_confusion_ext import (
    ConfusionAccumulator,
    TransportConfusionMatrixDisplay,
    precision_recall_fscore_support_from_confusion,
    transport_confusion_matrix,
)

X, y = make_classification(n_samples=60_000, n_features=20, n_informative=8, n_classes=4,
                           random_state=0)
model = LogisticRegression(max_iter=1000).fit(X[:10_000], y[:10_000])
X_new, y_new = X[10_000:], y[10_000:]

workers = [ConfusionAccumulator("transport", labels=model.classes_) for _ in range(2)]
for number, rows in enumerate(np.array_split(np.arange(len(y_new)), 50)):
    # the probabilities of each batch, scored against its labels
    workers[number % 2].update(y_new[rows], model.predict_proba(X_new[rows]))
total = workers[0] + workers[1]
matrix = total.result()

one_shot = transport_confusion_matrix(y_new, model.predict_proba(X_new))
print(f"instances read: {total.n_samples_}")
print(f"largest difference from the one-shot matrix: {np.abs(matrix - one_shot).max():.1e}")

# %%
# Scores of the accumulated matrix
# --------------------------------
precision, recall, f1, support = precision_recall_fscore_support_from_confusion(matrix)
print(f"{'class':>5} {'precision':>9} {'recall':>7} {'f1':>6} {'support':>8}")
for k in range(len(matrix)):
    print(f"{k:5d} {precision[k]:9.3f} {recall[k]:7.3f} {f1[k]:6.3f} {support[k]:8.0f}")

# %%
# The matrix, drawn from the accumulated sums
# -------------------------------------------
TransportConfusionMatrixDisplay(matrix, display_labels=list(model.classes_)).plot(
    values_format=".0f")
plt.show()
