"""
=================================================
Do two confusion matrices rank the classes alike?
=================================================

Two confusion matrices of the same predictions (say the transport-based matrix and MLCM)
may disagree on which classes the model handles best. Erbani et al. (IEEE Access 2024,
Section VI-B) compare them through the F1-scores they give each class: sort the classes
by one matrix's F1-scores and see how unsorted the other's are in that order. The F1
ranking disorder Delta (their eq. 52) is 0 when the orders agree and grows with the
disorder; it is not symmetric.
"""

# %%
# Two matrices of one multi-label model
# -------------------------------------
import matplotlib.pyplot as plt
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.multioutput import MultiOutputClassifier

from sklearn_confusion_ext import (
    RankingComparisonDisplay,
    f1_ranking_disorder,
    mlcm,
    transport_confusion_matrix,
)

X, Y = make_multilabel_classification(n_samples=3000, n_features=20, n_classes=8,
                                      n_labels=3, random_state=0)
X_train, X_test, Y_train, Y_test = train_test_split(X, Y, random_state=0)
model = MultiOutputClassifier(LogisticRegression(max_iter=1000)).fit(X_train, Y_train)
Y_pred = model.predict(X_test)
names = [f"C{k}" for k in range(Y.shape[1])]

# The last row and column ("none") are left out: the comparison is over the classes.
tcm = transport_confusion_matrix(Y_test, Y_pred, weighting="true")[:-1, :-1]
heydarian = mlcm(Y_test, Y_pred)[:-1, :-1]

# %%
# The F1 re-ordering charts
# -------------------------
# :class:`~sklearn_confusion_ext.RankingComparisonDisplay` draws, on the left, the TCM's
# F1-scores in the order of MLCM's ranking and, on the right, the converse (Figures 6-7
# of the paper). A chart that decreases from left to right means the two matrices rank
# the classes alike; the titles give Delta.
display = RankingComparisonDisplay.from_confusion([tcm, heydarian], models=("TCM", "MLCM"),
                                                  display_labels=names)
plt.show()

# %%
# The F1-scores and the two disorders, rounded:
print(f"{'':>8} {'F1 (TCM)':>9} {'F1 (MLCM)':>10}")
for name, a, b in zip(names, display.f1_a, display.f1_b):
    print(f"{name:>8} {a:9.3f} {b:10.3f}")
print(f"\nDelta(TCM, MLCM) = {f1_ranking_disorder(tcm, heydarian):.2f}")
print(f"Delta(MLCM, TCM) = {f1_ranking_disorder(heydarian, tcm):.2f}")
