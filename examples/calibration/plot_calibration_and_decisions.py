"""
====================================================================
From probabilities to decisions: reliability, thresholds, abstention
====================================================================

A classifier's probabilities are read three ways before a decision is made from them:
are they calibrated (the reliability diagram, with a band per bin that says how much each
bin can tell), which threshold turns them into decisions (the rates of the confusion matrix
against the threshold, and the matrix at the threshold chosen), and where should the model
abstain (the risk-coverage curve, with its band and its area). Two models of the breast
cancer data, a logistic regression and a naive Bayes model, are compared on each; three
classes of the wine data give one reliability panel per class.
"""

# %%
# Two models of the breast cancer data
# ------------------------------------
# The logistic model is fitted to a tight tolerance, so that its digits are the same
# whatever the solver's version.
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_confusion_ext import (
    ReliabilityDisplay,
    RiskCoverageDisplay,
    ThresholdCurveDisplay,
    TransportConfusionMatrixDisplay,
    expected_calibration_error,
)

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0,
                                                    stratify=y)
logistic = make_pipeline(StandardScaler(), LogisticRegression(tol=1e-12, max_iter=100_000))
bayes = GaussianNB()
models = {"logistic": logistic.fit(X_train, y_train), "naive Bayes": bayes.fit(X_train, y_train)}
for name, model in models.items():
    ece = expected_calibration_error(y_test, model.predict_proba(X_test), n_bins=10)
    print(f"{name}: expected calibration error {ece:.3f}")

# %%
# Are the probabilities calibrated?
# ---------------------------------
# Each bin's frequency of benign tumours against its mean probability, the band of the
# frequency shaded; the histogram below counts the tumours of each bin. The naive Bayes
# model puts nearly every tumour at 0 or 1, and the few in between tell little.
display = None
for name, model in models.items():
    display = ReliabilityDisplay.from_estimator(model, X_test, y_test, n_bins=10, name=name,
                                                ax=None if display is None else display.ax_)
plt.show()

# %%
# One panel per class
# -------------------
# With three classes (the wine data), ``target="classwise"`` reads each class's probability
# against the class, one vs rest; ``per_class=True`` gives each its panel.
X_wine, y_wine = load_wine(return_X_y=True)
Xw_train, Xw_test, yw_train, yw_test = train_test_split(X_wine, y_wine, test_size=0.5,
                                                        random_state=0, stratify=y_wine)
wine_model = make_pipeline(StandardScaler(), LogisticRegression(
    C=0.05, tol=1e-12, max_iter=100_000)).fit(Xw_train, yw_train)
ReliabilityDisplay.from_estimator(wine_model, Xw_test, yw_test, target="classwise",
                                  per_class=True, n_bins=5, name="logistic")
plt.show()

# %%
# Which threshold?
# ----------------
# The rates of the confusion matrix at every threshold of the probability of the positive
# class (benign), each a step function of the threshold; the markers read them at 0.3.
threshold_display = None
for name, model in models.items():
    threshold_display = ThresholdCurveDisplay.from_estimator(
        model, X_test, y_test, scores=["precision", "recall"], threshold=0.3, name=name,
        ax=None if threshold_display is None else threshold_display.ax_)
plt.show()

# %%
# The matrix at that threshold: a tumour is called benign where its probability is at
# least 0.3.
TransportConfusionMatrixDisplay.from_estimator(logistic, X_test, y_test, threshold=0.3,
                                               display_labels=["malignant", "benign"])
plt.show()

# %%
# Where should the model abstain?
# -------------------------------
# Answering only where its top probability is at least a threshold, a model answers a
# share of the tumours (the coverage) with an error rate among them (the risk). The
# logistic model's errors are among its least confident answers: its risk stays near 0
# until it answers nearly every tumour, and its area (AURC) is the smaller.
risk_display = None
for name, model in models.items():
    risk_display = RiskCoverageDisplay.from_estimator(
        model, X_test, y_test, name=name,
        ax=None if risk_display is None else risk_display.ax_)
    print(f"{name}: AURC {risk_display.result_.area:.4f}, error rate answering every "
          f"tumour {risk_display.result_.risk[-1]:.3f}")
plt.show()
