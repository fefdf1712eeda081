"""
==============================================================
Confidence intervals of scores, and which classifier is better
==============================================================

A score measured on a test set is an estimate: another test set of the same size would
give another value. :func:`~sklearn_confusion_ext.score_confidence_interval` gives each
score an interval, :func:`~sklearn_confusion_ext.compare_scores` tests the difference of
two classifiers evaluated on the same instances, and
:class:`~sklearn_confusion_ext.ScoreIntervalDisplay` draws the per-class scores of several
classifiers with their intervals. We compare two classifiers on a multi-label data set,
then two on single labels (hand-written digits).
"""

# %%
# Two classifiers of a multi-label data set
# -----------------------------------------
# Five topics, each document with any number of them (some with none); one classifier per
# topic (:class:`~sklearn.multioutput.MultiOutputClassifier`).
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits, make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.multioutput import MultiOutputClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_confusion_ext import (
    ScoreIntervalDisplay,
    compare_scores,
    dirichlet_posterior,
    score_confidence_interval,
    transport_confusion_matrix,
)

topics = ["economy", "sport", "culture", "science", "politics"]
X, Y = make_multilabel_classification(n_samples=1200, n_features=20, n_classes=5,
                                      n_labels=2, random_state=0)
X_train, X_test, Y_train, Y_test = train_test_split(X, Y, test_size=400, random_state=0)
classifiers = {
    "logistic regression": MultiOutputClassifier(LogisticRegression(max_iter=1000)),
    "5 nearest neighbours": MultiOutputClassifier(KNeighborsClassifier()),
}
predictions = {name: classifier.fit(X_train, Y_train).predict(X_test)
               for name, classifier in classifiers.items()}

# %%
# The macro-averaged F1-score of the transport-based confusion matrix, with its 95% BCa
# bootstrap interval: the test instances are resampled with replacement, the matrix
# rebuilt from each resample.
for name, Y_pred in predictions.items():
    result = score_confidence_interval(Y_test, Y_pred, scoring="tcm_f1_macro",
                                       n_resamples=999, random_state=0)
    print(f"{name:>20}: macro F1 {result.estimate:.3f}, 95% interval "
          f"[{result.low:.3f}, {result.high:.3f}]")

# %%
# The two intervals overlap, yet that does not mean the classifiers are alike: both were
# evaluated on the same documents, and their errors are correlated. The paired comparison
# resamples the instances once for both classifiers and gives the interval of the
# difference and a p-value; the permutation test swaps the two classifiers' predictions
# of each instance at random.
first, second = predictions.values()
for method in ("bootstrap", "permutation"):
    comparison = compare_scores(Y_test, first, second, scoring="tcm_f1_macro", method=method,
                                n_resamples=999, random_state=0)
    print(f"{method:>11}: difference {comparison.estimate:+.3f}, 95% interval "
          f"[{comparison.low:+.3f}, {comparison.high:+.3f}], p-value {comparison.pvalue:.3g}")

# %%
# Per topic, the forest plot shows where the difference lies. The "none" row is the class
# of documents without a topic (the transport-based matrix reports it when some
# document has none); the last row is the macro average.
display = ScoreIntervalDisplay.from_predictions(Y_test, predictions, scoring="tcm_f1",
                                                display_labels=topics, random_state=0)
plt.show()

# %%
# Single labels: the confusion cells are resampled
# ------------------------------------------------
# On class labels every score here is a function of the confusion matrix, and resampling
# instances is resampling its cells (a multinomial draw), so the intervals cost nothing
# whatever the number of instances. Ten digit classes, two classifiers.
X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=600, random_state=0)
digits = {"logistic regression": make_pipeline(StandardScaler(),
                                              LogisticRegression(max_iter=1000)),
          "naive Bayes": GaussianNB()}
digit_predictions = {name: classifier.fit(X_train, y_train).predict(X_test)
                     for name, classifier in digits.items()}

# %%
# Every method of :func:`~sklearn_confusion_ext.score_confidence_interval` on the accuracy
# of naive Bayes: the bootstrap intervals (percentile, basic, BCa), the Bayesian one
# (Dirichlet posterior of the cells) and Wilson's closed form. The Bayesian interval
# depends on its prior: the default (None) adds nothing to the observed cells; a prior
# of 1 adds one pseudo-instance to each of the 100 cells, most of them errors, which
# pulls the accuracy of 600 instances down; Perks' prior adds 1/10 per cell.
y_pred = digit_predictions["naive Bayes"]
for method, prior in (("percentile", None), ("basic", None), ("bca", None),
                      ("bayesian", None), ("bayesian", 1.0), ("bayesian", "perks"),
                      ("analytic", None)):
    result = score_confidence_interval(y_test, y_pred, scoring="tcm_accuracy", method=method,
                                       prior=prior, random_state=0)
    method = f"{method} ({prior})" if method == "bayesian" else method
    print(f"{method:>16}: accuracy {result.estimate:.3f}, 95% interval "
          f"[{result.low:.3f}, {result.high:.3f}]")

# %%
# McNemar's test compares the two classifiers' accuracies from the instances that exactly
# one of them classifies correctly.
first, second = digit_predictions.values()
comparison = compare_scores(y_test, first, second, method="mcnemar")
print(f"accuracy difference {comparison.estimate:+.3f}, 95% interval "
      f"[{comparison.low:+.3f}, {comparison.high:+.3f}], McNemar p-value "
      f"{comparison.pvalue:.2g}")

# %%
# The posterior of any score of the whole matrix: draws of the matrix from the Dirichlet
# posterior of its cells, and the score of each draw.
posterior = dirichlet_posterior(transport_confusion_matrix(y_test, y_pred), prior="perks")
draws = posterior.score_distribution("f1_macro", size=4000, random_state=0)
low, high = np.quantile(draws, [0.025, 0.975])
print(f"naive Bayes macro F1: posterior mean {draws.mean():.3f}, 95% credible interval "
      f"[{low:.3f}, {high:.3f}]")

# %%
# The recall of each digit, both classifiers side by side.
display = ScoreIntervalDisplay.from_predictions(y_test, digit_predictions,
                                                scoring="tcm_recall", random_state=0)
plt.show()
