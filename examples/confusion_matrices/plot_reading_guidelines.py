"""
===========================================================
Reading a confusion matrix: the guidelines of Erbani et al.
===========================================================

Section VI of Erbani et al. (IEEE Access 2024) gives guidelines for reading a confusion
matrix when the classes are imbalanced. Classes common in the test set fill their *rows*
(the model is tested on them more often: the **test effect**); classes common in the
training set fill their *columns* (the model learned to predict them: the **training
effect**). So order the rows by test prevalence and the columns by training prevalence,
most common first: the values should then decrease to the right and downwards (the
**test-training ranking**), and the cells that break this order point at errors that class
frequencies do not explain.

This example walks through that reading on a multi-label problem: the class distributions
(the paper's Figure 3), the matrix in test-training order with the cells that break it,
the sub-pixel matrix as centre ± half-width (Tables 6c and 7c), and the grid of F1
re-orderings between several classifiers (Figures 6 and 7).
"""

# %%
# A multi-label problem whose test set drifted
# --------------------------------------------
# Eight classes of unequal frequency, two labels per instance on average. The training
# set is a random sample; the test set was "collected later", when class C3 had become
# about twice as common (every held-out instance with C3 is kept, 40% of the others).
# The model is a small neural network trained without any care for rare classes, the
# scenario of Section VI.
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch, Rectangle
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.multioutput import MultiOutputClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import (
    ClassDistributionDisplay,
    RankingComparisonDisplay,
    TransportConfusionMatrixDisplay,
    prevalence_ranking,
    prevalence_ranking_breaks,
    subpixel_confusion_matrix,
    transport_confusion_matrix,
)

X, Y = make_multilabel_classification(n_samples=5000, n_features=20, n_classes=8,
                                      n_labels=2, allow_unlabeled=False, random_state=3)
X_train, X_pool, Y_train, Y_pool = train_test_split(X, Y, train_size=0.6, random_state=0)
keep = (Y_pool[:, 2] == 1) | (np.random.default_rng(0).random(len(Y_pool)) < 0.4)
X_test, Y_test = X_pool[keep], Y_pool[keep]
names = [f"C{k + 1}" for k in range(Y.shape[1])]

network = MLPClassifier((32,), alpha=1.0, max_iter=2000, early_stopping=True,
                        random_state=0).fit(X_train, Y_train)
Y_pred = network.predict(X_test)
print(f"{len(Y_train)} training and {len(Y_test)} test instances, {len(names)} classes")

# %%
# The class distributions (Figure 3)
# ----------------------------------
# :class:`~sklearn_confusion_ext.ClassDistributionDisplay` draws each class's share of
# the training and of the test labels, classes in decreasing training prevalence (the
# order of the matrix's columns below). In the paper's data sets the two bars of each
# class are alike: the test set represents the training set. Here C3, sixth in the
# training set, is third in the test set; the rest keep their order, C8 and C7 stay rare.
ClassDistributionDisplay.from_labels(Y_test, Y_train, display_labels=names,
                                     figsize=(8, 3.5))
plt.show()

# %%
# The matrix in test-training order
# ---------------------------------
# :func:`~sklearn_confusion_ext.prevalence_ranking` gives the two orders, and
# ``order="test-training"`` draws the transport confusion matrix in them: rows (true
# classes) by test prevalence, columns (predicted classes) by training prevalence. The
# rows and columns are not in the same order, so the correct predictions (true class =
# predicted class, framed in blue) do not all lie on the main diagonal. The last column,
# "none", takes the labels of the instances predicted with no class at all (the last
# row, instances with no true class, is empty here).
rows, columns = prevalence_ranking(Y_test, Y_train)
print("rows (test prevalence):       ", " ".join(names[k] for k in rows))
print("columns (training prevalence):", " ".join(names[k] for k in columns))

tcm = transport_confusion_matrix(Y_test, Y_pred)[:-1, :-1]  # the classes, without "none"
cells, previous = prevalence_ranking_breaks(tcm, row_order=rows, column_order=columns)

display = TransportConfusionMatrixDisplay.from_predictions(
    Y_test, Y_pred, display_labels=names, order="test-training", y_train=Y_train,
    colorbar=False, title="Transport confusion matrix, test-training order")
# Positions of the classes in the drawn matrix, to frame cells on it.
row_at, column_at = np.argsort(rows), np.argsort(columns)
for k in range(len(names)):
    display.ax_.add_patch(Rectangle((column_at[k] - 0.5, row_at[k] - 0.5), 1, 1,
                                    fill=False, edgecolor="deepskyblue", linewidth=2.5))
for true, predicted in np.unique(cells, axis=0):
    display.ax_.add_patch(Rectangle((column_at[predicted] - 0.42, row_at[true] - 0.42),
                                    0.84, 0.84, fill=False, edgecolor="red", linewidth=1.5,
                                    linestyle="--"))
display.ax_.legend(
    handles=[Patch(fill=False, edgecolor="deepskyblue", linewidth=2.5,
                   label="correct (true = predicted)"),
             Patch(fill=False, edgecolor="red", linestyle="--", linewidth=1.5,
                   label="breaks the test-training ranking")],
    loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, frameon=False)
display.figure_.set_size_inches(7, 7)
plt.show()

# %%
# The cells that break the order
# ------------------------------
# :func:`~sklearn_confusion_ext.prevalence_ranking_breaks` lists the cells (dashed red
# above) higher than the cell before them: a correct-prediction cell higher than the one
# of the row above, an error higher than the nearest error to its left or above it. Cell
# C3C1 is "true C3, predicted C1". Small breaks may be noise: the list is sorted by how
# much the cell exceeds the one before it.
excess = tcm[tuple(cells.T)] - tcm[tuple(previous.T)]
largest = np.argsort(-excess, kind="stable")
print(f"{len(cells)} breaks, the 10 largest:")
print(f"{'cell':>6} {'value':>6}   {'exceeds':>7} {'value':>6}  {'where':>8}")
for index in largest[:10]:
    (true, predicted), (true_before, predicted_before) = cells[index], previous[index]
    if true == predicted:
        where = "diagonal"
    else:
        where = "left" if true_before == true else "above"
    print(f"{names[true] + names[predicted]:>6} {tcm[true, predicted]:6.1f}   "
          f"{names[true_before] + names[predicted_before]:>7} "
          f"{tcm[true_before, predicted_before]:6.1f}  {where:>8}")
print(f"and {len(cells) - 10} more, each above the cell before it by less than "
      f"{excess[largest[10]]:.1f}")

# %%
# Two kinds of breaks stand out:
#
# * **Row C3** exceeds row C5 above it in its three largest errors (C3C1, C3C2, C3C6),
#   and its correct predictions C3C3 fall below C2C2 of the row below: C3, common in the
#   test set but rare in training, is recognized less often than its row's size
#   promises, and its mass goes to the classes the model learned to predict. As the paper warns, the
#   break C2C2 > C3C3 alone does not tell whether C2C2 is too high or C3C3 too low; the
#   errors of row C3 settle it: C3C3 is low.
# * **C7C6**, the rarest class taken for C6, exceeds C7C5 on its left although C5 is
#   the model's most common prediction: when C7 is the true class, the model names C6
#   more than any other class, and C7 itself almost never (C7C7 is below 1). Two classes
#   the model does not tell apart, like the paper's chameleon taken for a tree.
#
# The other breaks exceed the cell before them by a few instances: likely the noise of a
# test set of a thousand instances, which another test set could reorder.

# %%
# The sub-pixel matrix: centre ± half-width
# -----------------------------------------
# The transport matrix takes one optimal plan per instance (the maximum-entropy one). The
# sub-pixel confusion matrix (SCM\ :sup:`ext` of the paper) gives each cell the interval
# of its values over *all* optimal plans, written centre ± half-width as in the paper's
# Tables 6c and 7c (with one decimal, as there; "0.0±0.0" is an interval too small for
# it). ``subpixel=True`` draws it; the correct predictions are the same in every plan and
# have no interval.
TransportConfusionMatrixDisplay.from_predictions(
    Y_test, Y_pred, subpixel=True, display_labels=names, order="test-training",
    y_train=Y_train, colorbar=False, values_format=".1f", text_kw={"fontsize": 10})
plt.gcf().set_size_inches(9, 8.5)
plt.show()

# %%
# An interval opens where instances have at least two missed labels and two wrong ones:
# an optimal plan may then send each missed label to either wrong one. Where the
# half-width equals the centre, the cell is 0 in some optimal plan. The transport matrix
# lies inside every interval but, as the paper notes, not at its centre:
center, half_width = subpixel_confusion_matrix(Y_test, Y_pred, form="center")
full_tcm = transport_confusion_matrix(Y_test, Y_pred)
inside = np.all((full_tcm >= center - half_width - 1e-9)
                & (full_tcm <= center + half_width + 1e-9))
print(f"TCM inside every interval: {inside}")
print(f"largest half-width: {half_width.max():.1f}, "
      f"largest |TCM - centre|: {np.abs(full_tcm - center).max():.1f}")

# %%
# Do several classifiers find the same classes easy? (Figures 6 and 7)
# --------------------------------------------------------------------
# The paper compares the F1-scores that different confusion matrices give each class;
# the same grid compares classifiers. Panel ``(i, j)`` of
# :meth:`~sklearn_confusion_ext.RankingComparisonDisplay.from_confusion` draws
# classifier *i*'s F1-scores in the order of classifier *j*'s ranking, with the F1
# ranking disorder Delta(i, j) of eq. (52): 0 when both rank the classes alike, larger
# as the bars lose their descending order. The diagonal panels are each classifier's
# own F1-scores, sorted. Beside the network: a logistic regression per class, the same
# with the loss weighted against class imbalance (``class_weight="balanced"``, one of
# the strategies for rare classes that Section VI sets aside), and a shallow tree.
classifiers = {
    "logistic": MultiOutputClassifier(LogisticRegression(max_iter=1000)),
    "weighted logistic": MultiOutputClassifier(
        LogisticRegression(max_iter=1000, class_weight="balanced")),
    "shallow tree": DecisionTreeClassifier(max_depth=4, random_state=0),
}
matrices = {"network": tcm}
for name, classifier in classifiers.items():
    Y_other = classifier.fit(X_train, Y_train).predict(X_test)
    matrices[name] = transport_confusion_matrix(Y_test, Y_other)[:-1, :-1]
grid = RankingComparisonDisplay.from_confusion(matrices, display_labels=names)
plt.show()

# %%
# The first three agree on the extremes (C4, C5 and C6 among the easiest classes, C7 the
# hardest): their disorders are small and come from the middle of the ranking, where
# F1-scores are close. The weighted loss lifts the rare classes: C3 climbs to fourth place
# and C7 gets its highest F1-score, though still the last. The shallow tree never
# predicts C3 or C7 (F1-score 0): its bars, read in the others' rankings, have holes in
# the middle, and its disorders against the network and the weighted logistic regression
# are four times any other. Delta is not symmetric: it
# measures the disorder of the first classifier's bars, in units of its own F1-scores,
# and the others read in the tree's ranking lose little order.
print("Delta(i, j), rows i, columns j")
print(f"{'':>18}" + "".join(f"{name:>18}" for name in grid.models))
for name, row in zip(grid.models, grid.deltas):
    print(f"{name:>18}" + "".join(f"{value:18.1f}" for value in row))
