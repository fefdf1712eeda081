"""
=========================================
Comparing classifiers over many data sets
=========================================

Which of four classifiers is best, not on one data set but over many? Demsar ("Statistical
Comparisons of Classifiers over Multiple Data Sets", JMLR 2006) recommends ranking the
models within each data set and testing the average ranks: the Friedman test (with Iman
and Davenport's F), then a post-hoc test of which models differ, drawn as a
critical-difference diagram. Benavoli, Corani, Demsar and Zaffalon ("Time for a change",
JMLR 2017) add a Bayesian signed-rank test that can also conclude that two models are
practically equivalent, and Corani et al. (Machine Learning 2017) a hierarchical test of
the fold scores themselves; their posteriors are drawn on a triangle.

The table of scores is built with scikit-learn's ``cross_val_score``, one model and one
data set at a time, scored by a scorer of this library (the transport-based macro F1):
twelve data sets, above Demsar's rule of thumb of more than ten for the Friedman test.
"""

# %%
# The table: the mean cross-validated score of each model on each data set
# ------------------------------------------------------------------------
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import (
    ComparisonSimplexDisplay,
    CriticalDifferenceDisplay,
    bayesian_signed_rank_test,
    friedman_posthoc,
    friedman_test,
    make_transport_scorer,
)

datasets = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "breast cancer": load_breast_cancer(return_X_y=True),
    "digits": load_digits(return_X_y=True),
}
# Eight synthetic problems of various difficulty, classes and imbalance.
for seed, (n_classes, n_informative, class_sep, weights) in enumerate([
        (2, 2, 0.5, None), (2, 5, 1.0, None), (2, 3, 0.8, [0.8, 0.2]), (3, 4, 1.0, None),
        (3, 6, 0.6, None), (4, 5, 1.2, None), (2, 8, 0.4, None), (5, 8, 1.5, None)]):
    datasets[f"synthetic {seed}"] = make_classification(
        n_samples=300, n_features=10, n_informative=n_informative, n_redundant=2,
        n_classes=n_classes, class_sep=class_sep, weights=weights, random_state=seed)

models = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "naive Bayes": GaussianNB(),
    "shallow tree": DecisionTreeClassifier(max_depth=2, random_state=0),
    "5 neighbours": make_pipeline(StandardScaler(), KNeighborsClassifier()),
}
# The macro F1 of the transport-based confusion matrix; a class never predicted on a
# fold (the shallow tree on digits) counts 0, without a warning.
scoring = make_transport_scorer("f1", average="macro", zero_division=0.0)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
# Each model's fold scores, one row per data set (for the hierarchical test at the end),
# and their means, one column per model.
folds = {name: pd.DataFrame([cross_val_score(model, X, y, scoring=scoring, cv=cv)
                             for X, y in datasets.values()], index=list(datasets))
         for name, model in models.items()}
scores = pd.DataFrame({name: table.mean(axis=1) for name, table in folds.items()})
print(scores.round(3))

# %%
# The Friedman test: do the average ranks differ?
# -----------------------------------------------
# ``statistic`` and ``pvalue`` are Iman and Davenport's F (Demsar's recommendation);
# Friedman's chi-square is beside them.
friedman = friedman_test(scores)
print(friedman)

# %%
# Which models differ: Nemenyi's test of all pairs
# ------------------------------------------------
# Two models differ where their average ranks differ by the critical difference or more;
# ``to_frame()`` gives the adjusted p-values of the pairs.
posthoc = friedman_posthoc(scores)
print(f"critical difference: {posthoc.critical_difference:.2f}")
print(posthoc.to_frame().round(3))

# %%
# The critical-difference diagram
# -------------------------------
# The best ranks are on the right; the bars join models that do not differ significantly.
display = CriticalDifferenceDisplay.from_scores(scores)
plt.show()

# %%
# Against a control model, Holm's test has more power than Nemenyi's (fewer comparisons):
display = CriticalDifferenceDisplay.from_scores(scores, method="holm", control="logistic")
plt.show()

# %%
# Practically equivalent? The Bayesian signed-rank test
# -----------------------------------------------------
# The two best models, with a region of practical equivalence of one point of F1: the
# probabilities that the first is better, that they are equivalent, that the second is.
first, second = scores.columns[friedman.average_ranks.argsort()[:2]]
result = bayesian_signed_rank_test(scores[first], scores[second], rope=0.01,
                                   random_state=0)
print(result)

# %%
# The posterior on the triangle
# -----------------------------
# Each posterior sample of the three masses (first better, equivalent, second better) is
# a point of the triangle; the dashed lines split it into the regions where each mass is
# the largest, and each corner is named with the share of samples in its region: the
# probabilities above. 3,000 of the 50,000 samples are drawn.
display = ComparisonSimplexDisplay.from_result(result)
plt.show()

# %%
# The folds too: the Bayesian hierarchical test
# ---------------------------------------------
# The same two models compared on their fold scores (5 folds: 4 parts train, 1 tests):
# each data set's difference is shrunk towards the others, and the posterior is that of
# the difference on a new data set. Its samples are drawn in the same way (1,000 draws
# in each of the 4 chains: enough here; the result's R-hat and effective sample size say
# so).
display = ComparisonSimplexDisplay.from_scores(
    folds[first], folds[second], method="hierarchical", n_train=4, n_test=1, rope=0.01,
    n_draws=1000, random_state=0, models=(first, second))
print(display.result_)
plt.show()
