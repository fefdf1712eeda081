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
"""

# %%
# A grid search scored on hard and on soft predictions
# ----------------------------------------------------
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
}
search = GridSearchCV(model, {"logisticregression__C": [0.001, 0.01, 0.1, 1.0]},
                      scoring=scoring, refit="f1 of probabilities", n_jobs=2)
search = search.fit(X_train, y_train)

# %%
# Macro F1 of the predicted classes rewards a model that gets the argmax right; macro F1
# of the probabilities also rewards confidence, so it can prefer another
# regularization.
results = search.cv_results_
print(f"{'C':>6} {'F1 (predict)':>13} {'F1 (predict_proba)':>19}")
for C, hard, soft in zip(results["param_logisticregression__C"],
                         results["mean_test_f1"], results["mean_test_f1 of probabilities"]):
    print(f"{C:6g} {hard:13.3f} {soft:19.3f}")
print("chosen:", search.best_params_)

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
