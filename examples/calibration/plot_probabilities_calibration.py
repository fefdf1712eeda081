"""
===================================================================
What a matrix of probabilities measures: sharpening and calibration
===================================================================

Against the true labels, a classifier's ``predict_proba`` gives a transport confusion
matrix whose row ``i`` is the sum of the probability vectors the model gave to the
instances of class ``i``: it shows where the model's belief goes, and which classes it
hesitates between. Its accuracy and F1 read it as the confusion matrix of a classifier
that *answers at random* from its probabilities; such a classifier is never better than
answering with the most probable class, so these scores rise whenever the probabilities
get sharper, deserved or not. They are not proper scoring rules, and they should not
choose between models: log-loss and the Brier score should (see the user guide's page
:doc:`/user_guide/probabilities`).

This example sharpens the probabilities of two models on the digits (``p ** k``,
renormalized: the predicted classes do not change), then calibrates the under-confident
one with :class:`~sklearn.calibration.CalibratedClassifierCV`.
"""

# %%
# Two models, scored on their labels and on their probabilities
# -------------------------------------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_confusion_ext import (
    TransportConfusionMatrixDisplay,
    compare_scores,
    transport_accuracy_score,
    transport_precision_recall_fscore_support,
)

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0,
                                                    stratify=y)
logistic = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
forest = RandomForestClassifier(random_state=0)
# Temperature scaling (scikit-learn 1.8 or later): one power of the probabilities, fitted
# on held-out folds to minimize log-loss.
calibrated = CalibratedClassifierCV(RandomForestClassifier(random_state=0),
                                    method="temperature", cv=3)
proba = {name: model.fit(X_train, y_train).predict_proba(X_test)
         for name, model in [("logistic regression", logistic), ("random forest", forest),
                             ("calibrated forest", calibrated)]}


def sharpen(p, k):
    """``p ** k``, each row renormalized: the most probable class stays the same."""
    q = p ** k
    return q / q.sum(axis=1, keepdims=True)


def brier(y_true, p):
    """The multiclass Brier score: the mean squared distance to the one-hot labels."""
    return float(np.mean(np.sum((p - np.eye(p.shape[1])[y_true]) ** 2, axis=1)))


def macro_f1(y_true, y_pred):
    return transport_precision_recall_fscore_support(y_true, y_pred, average="macro")[2]


print(f"{'':26}{'labels':>8}{'probabilities':>15}{'log-loss':>10}{'Brier':>8}")
print(f"{'':26}{'accuracy':>8}{'accuracy':>15}")
for name, p in [*proba.items(), ("random forest, cubed", sharpen(proba["random forest"], 3))]:
    print(f"{name:26}{transport_accuracy_score(y_test, p.argmax(axis=1)):8.3f}"
          f"{transport_accuracy_score(y_test, p):15.3f}{log_loss(y_test, p):10.3f}"
          f"{brier(y_test, p):8.3f}")

# %%
# The forest gets more test images right (labels), but its probabilities give the true
# class 0.73 on average against the logistic regression's 0.93: a forest averages the
# votes of its trees, and its probabilities are too flat (under-confident). Log-loss and
# the Brier score say so too: here the soft matrix and the proper scores agree.
#
# Sharpening: the soft scores always prefer sharper probabilities
# ----------------------------------------------------------------
# Raise the probabilities to a power ``k`` and renormalize. The predicted classes, and so
# every label-based score, stay the same. The macro F1 of the probabilities climbs
# towards the F1 of the labels (dashed) for every ``k``; log-loss has a minimum, at the
# sharpness the data supports: near ``k = 1`` for the logistic regression, which is
# close to calibrated, and near ``k = 4`` for the under-confident forest. Past it, the
# soft F1 still rises while the probabilities get worse.
powers = np.geomspace(0.5, 8, 25)
fig, (ax_f1, ax_loss) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
for (name, p), color in zip(list(proba.items())[:2], ["C0", "C1"]):
    ax_f1.plot(powers, [macro_f1(y_test, sharpen(p, k)) for k in powers], color=color,
               label=f"{name}: probabilities")
    ax_f1.axhline(macro_f1(y_test, p.argmax(axis=1)), color=color, linestyle="--",
                  label=f"{name}: labels")
    losses = [log_loss(y_test, sharpen(p, k)) for k in powers]
    best = int(np.argmin(losses))
    ax_loss.plot(powers, losses, color=color, label=name)
    ax_loss.plot(powers[best], losses[best], "o", color=color)
    ax_loss.annotate(f"minimum at k = {powers[best]:.1f}", (powers[best], losses[best]),
                     textcoords="offset points", xytext=(0, -8), ha="center", va="top",
                     color=color)
for ax, title in [(ax_f1, "macro F1 (higher is better)"),
                  (ax_loss, "log-loss (lower is better)")]:
    ax.set_xscale("log")
    ax.set_xticks([0.5, 1, 2, 4, 8], labels=["0.5", "1", "2", "4", "8"])
    ax.minorticks_off()
    ax.set_xlabel("sharpening power k (predictions unchanged)")
    ax.set_title(title)
ax_f1.legend(loc="lower right", fontsize="small")
ax_loss.legend(loc="upper center", fontsize="small")
ax_loss.set_ylim(0, 0.8)
plt.show()

# %%
# A comparison on probabilities measures sharpness as well
# --------------------------------------------------------
# :func:`~sklearn_confusion_ext.compare_scores` of the macro F1 on the labels and on the
# probabilities (a positive difference favours the logistic regression). On the labels
# the forest is slightly ahead (not significantly); on the probabilities the logistic
# regression is far ahead; cube the forest's probabilities (its predictions do not
# change) and the verdict flips, significantly, to the forest. Here cubing happens to
# improve the forest's log-loss as well, because its probabilities were too flat, but the
# soft score cannot tell deserved sharpness from undeserved: the curves above show it
# rewarding both. Once the forest is calibrated, the two models' probabilities are on par.
for what, a, b in [("labels", proba["logistic regression"].argmax(axis=1),
                    proba["random forest"].argmax(axis=1)),
                   ("probabilities", proba["logistic regression"], proba["random forest"]),
                   ("probabilities, forest cubed", proba["logistic regression"],
                    sharpen(proba["random forest"], 3)),
                   ("probabilities, calibrated", proba["logistic regression"],
                    proba["calibrated forest"])]:
    result = compare_scores(y_test, a, b, scoring="tcm_f1_macro", n_resamples=2999,
                            random_state=0)
    print(f"{what:29} macro F1 difference {result.estimate:+.3f}, "
          f"p = {result.pvalue:.4f}")

# %%
# Calibration: the soft matrix becomes an honest picture
# ------------------------------------------------------
# :class:`~sklearn.calibration.CalibratedClassifierCV` with temperature scaling fits one
# sharpening power on held-out folds, the one that minimizes log-loss: the calibrated
# forest's predictions barely change, while the mean probability of the true class goes
# from 0.73 to 0.93 and log-loss falls from 0.37 to 0.11 (the table above; isotonic and
# sigmoid calibration change the probabilities more freely). The row-normalized soft
# matrices show the difference: before calibration every row spreads its mass over all
# ten digits; after, the mass left off the diagonal sits in the cells of the real
# hesitations (8 read as 1, 9 as 5, 3 as 8 or 9). For a calibrated model the soft
# accuracy is about one minus the Brier score (0.930 and 1 - 0.053 here), which is why
# soft matrices compare fairly between calibrated models only.
fig, axes = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
for ax, name in zip(axes, ["random forest", "calibrated forest"]):
    TransportConfusionMatrixDisplay.from_predictions(
        y_test, proba[name], normalize="true", values_format=".2f", ax=ax,
        colorbar=False, im_kw={"vmin": 0, "vmax": 1},
        title=f"{name}: mean probability per true digit")
plt.show()
