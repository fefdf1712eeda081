"""
=========================================
Reading forty classes with long names
=========================================

Real problems have many classes with long names: product categories, land-cover types,
diagnoses. The Displays stay readable there: class names are cut in the middle (the
distinguishing end stays) and thinned to what fits, values are hidden above 20 classes,
the posterior becomes a heat map with interval panels for the rows you choose, and the
F1 re-ordering bars lie horizontally with every class named.
"""

# %%
# A 40-class problem
# ------------------
# A classifier's ``predict_proba`` is scored against the class labels as they are: the
# columns follow ``classes_``, the sorted labels.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier

from sklearn_confusion_ext import (
    PosteriorIntervalDisplay,
    RankingComparisonDisplay,
    TransportConfusionMatrixDisplay,
    transport_confusion_matrix,
)

n_classes = 40
X, y = make_classification(n_samples=12_000, n_features=30, n_informative=12,
                           n_classes=n_classes, n_clusters_per_class=1, class_sep=2.0,
                           random_state=0)
names = np.array([f"land-cover type {k:02d}, {'coastal' if k % 2 else 'inland'}"
                  for k in range(n_classes)])
y = names[y]
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
logistic = LogisticRegression(max_iter=2000).fit(X_train, y_train)
neighbors = KNeighborsClassifier(n_neighbors=15).fit(X_train, y_train)

# %%
# The transport confusion matrix of the probabilities
# ---------------------------------------------------
# Normalized over the true classes, the diagonal is each class's transport recall.
TransportConfusionMatrixDisplay.from_predictions(
    y_test, logistic.predict_proba(X_test), normalize="true", cmap="Blues")
plt.show()

# %%
# The posterior of each row
# -------------------------
# The Dirichlet posterior of P[predicted | actual] needs counts: the classic matrix of the
# hard predictions. At 40 classes the Display shows the posterior means as a heat map and
# the intervals of the rows asked for: here the two classes the model recalls worst.
counts = transport_confusion_matrix(y_test, logistic.predict(X_test))
recall = np.diag(counts) / counts.sum(axis=1)
worst = np.argsort(recall)[:2].tolist()
display = PosteriorIntervalDisplay.from_confusion(counts, display_labels=logistic.classes_,
                                                  rows=worst)
plt.show()
for k in worst:
    print(f"{logistic.classes_[k]}: recall {recall[k]:.2f} over {counts[k].sum():.0f} "
          "instances")

# %%
# Do two classifiers rank the classes alike?
# ------------------------------------------
# The F1-scores of the logistic regression and of the nearest neighbours, each in the
# order of the other's ranking; Delta (Erbani et al. 2024, equation 52) measures the
# disorder.
other = transport_confusion_matrix(y_test, neighbors.predict_proba(X_test))
mine = transport_confusion_matrix(y_test, logistic.predict_proba(X_test))
RankingComparisonDisplay.from_confusion([mine, other], models=("logistic", "15-NN"),
                                        display_labels=logistic.classes_)
plt.show()

# %%
# A shortlist: top-k accuracy and the classes ranked above
# --------------------------------------------------------
# Where a reader checks the model's three best guesses, the score is the top-3 accuracy
# (scikit-learn's ``top_k_accuracy_score``, the same numbers), with its interval; the
# top-k view lists, per class, how often the true class missed the shortlist and which
# class most often took a place above it.
from sklearn_confusion_ext import (  # noqa: E402
    score_confidence_interval,
    top_k_accuracy_score,
    top_k_confusion_matrix,
)

proba = logistic.predict_proba(X_test)
for k in (1, 3, 5):
    interval = score_confidence_interval(y_test, proba, scoring=top_k_accuracy_score, k=k,
                                         labels=logistic.classes_, n_resamples=999,
                                         random_state=0)
    low, high = interval.confidence_interval()
    print(f"top-{k} accuracy {interval.estimate:.3f} [{low:.3f}, {high:.3f}]")
view = top_k_confusion_matrix(y_test, proba, k=3, labels=logistic.classes_)
frame = view.to_frame().sort_values("hit_rate")
print(frame.head(5)[["support", "hit_rate", "most_often_above"]])
print(view.most_confused_pairs(top=5))
