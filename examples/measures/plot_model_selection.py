"""
======================================
Choosing a model with transport scores
======================================

The library's scores plug into scikit-learn's model selection. ``scoring=`` strings name
only scikit-learn's own scorers, so a scorer of this library is passed as an object:
:func:`~sklearn_confusion_ext.get_scorer` by name, or
:func:`~sklearn_confusion_ext.make_transport_scorer` to score the predicted probabilities
themselves. The scorers pickle, so ``n_jobs`` works. The chosen model's confusion matrix
is then drawn straight from the estimator.

A score of the probabilities against the labels shows where a model's belief goes, but
it rewards sharp probabilities, deserved or not (it is not a proper scoring rule): the
search below refits on the F1 of the predicted classes, and shows log-loss, a proper
score of the probabilities, beside the F1 of the probabilities (see
:doc:`/user_guide/probabilities`).
"""

# %%
# A grid search scored on the predicted classes and on the probabilities
# ----------------------------------------------------------------------
import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_confusion_ext import (
    TransportConfusionMatrixDisplay,
    get_scorer,
    make_transport_scorer,
)

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
scoring = {
    "f1": get_scorer("tcm_f1_macro"),
    "f1 of probabilities": make_transport_scorer(
        "f1", average="macro", response_method="predict_proba"),
    "log-loss": get_scorer("neg_log_loss"),  # scikit-learn's scorer, by its name
}
search = GridSearchCV(model, {"logisticregression__C": [0.01, 0.1, 1.0, 10.0, 100.0]},
                      scoring=scoring, refit="f1", cv=3, n_jobs=2)
search = search.fit(X_train, y_train)

# %%
# The F1 of the predicted classes rewards a model that gets the class right. The F1 of
# the probabilities also rewards confidence: it keeps rising as the regularization weakens
# and the probabilities sharpen, past the point where the predicted classes and log-loss
# get worse. Log-loss is a proper score (best, in expectation, for honest probabilities):
# it is the score to select on when the probabilities matter.
results = search.cv_results_
print(f"{'C':>6} {'F1 (predict)':>13} {'F1 (predict_proba)':>19} {'log-loss':>9}")
for C, hard, soft, loss in zip(results["param_logisticregression__C"],
                               results["mean_test_f1"],
                               results["mean_test_f1 of probabilities"],
                               results["mean_test_log-loss"]):
    print(f"{C:6g} {hard:13.3f} {soft:19.3f} {-loss:9.3f}")
print("chosen on the F1 of the predicted classes:", search.best_params_)

# %%
# The chosen model on the test set
# --------------------------------
# ``from_estimator(..., response_method="predict_proba")`` draws the transport matrix of
# the probabilities: each row sums to the number of test images of that digit.
fig, ax = plt.subplots(figsize=(7, 6), layout="constrained")
TransportConfusionMatrixDisplay.from_estimator(
    search, X_test, y_test, response_method="predict_proba", values_format=".1f", ax=ax,
    title="probability mass, chosen model, test set")
plt.show()
