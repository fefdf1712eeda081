"""
============================================================
Probabilities against labels: the transport confusion matrix
============================================================

A classifier's ``predict`` gives one class per instance, and
:func:`sklearn.metrics.confusion_matrix` counts them. Its ``predict_proba`` says more:
how sure the classifier was. The transport-based confusion matrix (TCM; Erbani et al.,
IEEE Access 2024) takes the probabilities as they are. Each instance moves its predicted
distribution onto its label along the maximum-entropy optimal plan; against a class label,
that plan simply adds the predicted probabilities to the row of the true class. On hard
predictions the TCM is exactly the classic confusion matrix.

The second half draws the TCM of a multi-label model under the paper's three weightings.
"""

# %%
# A classifier's probabilities against the true labels
# -----------------------------------------------------
# :class:`~sklearn_confusion_ext.TransportConfusionMatrixDisplay` is called like
# :class:`sklearn.metrics.ConfusionMatrixDisplay`. The columns of ``predict_proba`` are
# in the order of the classifier's ``classes_``, the sorted labels, which is also the
# order the matrix uses by default.
import matplotlib.pyplot as plt
from sklearn.datasets import load_iris, make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier

from sklearn_confusion_ext import (
    TransportConfusionMatrixDisplay,
    transport_accuracy_score,
    transport_confusion_matrix,
)

iris = load_iris()
names = list(iris.target_names)
X_train, X_test, y_train, y_test = train_test_split(
    iris.data, iris.target, test_size=0.5, random_state=0)
clf = LogisticRegression(max_iter=1000).fit(X_train, y_train)

fig, axes = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
TransportConfusionMatrixDisplay.from_predictions(
    y_test, clf.predict(X_test), display_labels=names, ax=axes[0], colorbar=False,
    title="predict: the classic confusion matrix")
TransportConfusionMatrixDisplay.from_predictions(
    y_test, clf.predict_proba(X_test), display_labels=names, ax=axes[1], colorbar=False,
    title="predict_proba: probability mass")
plt.show()

# %%
# The hard predictions make few mistakes, but the probabilities show where the
# classifier hesitated: between *versicolor* and *virginica*. Each row of the second
# matrix sums to the number of test flowers of that species, and its diagonal is the
# probability mass given to the right species. Divided by the row sums
# (``normalize="true"``), the diagonal is the mean probability of the true class, and the
# transport accuracy is the mean over all flowers.
proba = clf.predict_proba(X_test)
shares = transport_confusion_matrix(y_test, proba, normalize="true")
print("mean probability given to each species, by true species")
print(f"{'':>12}" + "".join(f"{name:>12}" for name in names))
for name, row in zip(names, shares):
    print(f"{name:>12}" + "".join(f"{value:12.3f}" for value in row))
accuracy = transport_accuracy_score(y_test, clf.predict(X_test))
print(f"\naccuracy of predict:                 {accuracy:.3f}")
print(f"transport accuracy of predict_proba: {transport_accuracy_score(y_test, proba):.3f}")

# %%
# A multi-label model under three weightings
# ------------------------------------------
# scikit-learn's :func:`~sklearn.metrics.multilabel_confusion_matrix` gives one 2 x 2
# matrix per class: it cannot say which classes a multi-label model confuses. The TCM can.
# ``weighting="uniform"`` counts every instance once, ``"true"`` by its number of true
# labels and ``"pred"`` by its number of predicted labels. The last row and column,
# "none", hold the instances with no true or no predicted label. With
# ``order="test-training"`` rows follow the classes' prevalence in the test labels and
# columns their prevalence in the training labels, most common first (Section VI-A of the
# paper): values then tend to decrease to the right and downwards, and the entries that
# break that order stand out.
X, Y = make_multilabel_classification(n_samples=2000, n_features=20, n_classes=5,
                                      n_labels=2, random_state=0)
X_train, X_test, Y_train, Y_test = train_test_split(X, Y, random_state=0)
model = OneVsRestClassifier(LogisticRegression(max_iter=1000)).fit(X_train, Y_train)
Y_hard = model.predict(X_test)

fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), layout="constrained")
for ax, weighting in zip(axes, ["uniform", "true", "pred"]):
    TransportConfusionMatrixDisplay.from_predictions(
        Y_test, Y_hard, weighting=weighting, order="test-training", y_train=Y_train, ax=ax,
        colorbar=False, title=f'weighting="{weighting}"')
plt.show()

# %%
# The weightings differ in how much an instance with several labels counts: the total
# mass of each matrix is the number of instances, of true labels or of predicted labels
# (an instance with an empty label set counts once, in the "none" class).
no_true, no_pred = (Y_test.sum(axis=1) == 0).sum(), (Y_hard.sum(axis=1) == 0).sum()
print(f"test instances: {len(Y_test)}")
print(f"true labels: {Y_test.sum()}, instances without one: {no_true}")
print(f"predicted labels: {Y_hard.sum()}, instances without one: {no_pred}")
for weighting in ["uniform", "true", "pred"]:
    total = transport_confusion_matrix(Y_test, Y_hard, weighting=weighting).sum()
    print(f'total mass, weighting="{weighting}": {total:.0f}')

# %%
# Per-label scores of a one-vs-rest model (its ``predict_proba``) are soft predictions
# too: the matrix compares their proportions with the label's, so confident mistakes
# weigh more than hesitations.
TransportConfusionMatrixDisplay.from_predictions(
    Y_test, model.predict_proba(X_test), order="test-training", y_train=Y_train,
    values_format=".0f", title="one-vs-rest predict_proba")
plt.show()
