"""
=============================================
Comparing two classifiers by cross-validation
=============================================

Is a random forest better than a logistic regression on the breast-cancer data? Both are
cross-validated on the same folds and the per-fold differences of their scores (the
transport-based macro F1) are tested. The folds share their training data, so the
differences are correlated: the naive paired t-test over folds is overconfident, the
corrected resampled t-test of Nadeau and Bengio (2003) and the 5x2cv tests of Dietterich
(1998) and Alpaydin (1999) are not, and the Bayesian correlated t-test (Benavoli, Corani,
Demsar and Zaffalon, JMLR 2017) also says how probable it is that the two are practically
equivalent.
"""

# %%
# Every test on the same footing
# ------------------------------
# ``compare_cv`` draws the folds from ``random_state`` (stratified on the classes), fits
# both models on each and tests the differences; the 5x2cv tests use their own five
# repetitions of 2-fold cross-validation.
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_confusion_ext import PosteriorDifferenceDisplay, compare_cv, compare_cv_scores

X, y = load_breast_cancer(return_X_y=True)
linear = make_pipeline(StandardScaler(), LogisticRegression())
forest = RandomForestClassifier(n_estimators=50, random_state=0)
names = ("logistic", "forest")

result = compare_cv(linear, forest, X, y, n_repeats=5, random_state=0, models=names)
print(result)
for test in ("5x2cv_ttest", "5x2cv_ftest"):
    print(compare_cv(linear, forest, X, y, method=test, random_state=0, models=names))

# %%
# The naive t-test on the same 5 x 10 folds: the same mean difference, a standard error
# two and a half times too small, and a p-value that declares the logistic regression
# better where the corrected tests do not.
print(compare_cv_scores(result.scores_a, result.scores_b, method="naive_ttest", models=names,
                        scoring=result.score))

# %%
# The posterior of the difference
# -------------------------------
# The Bayesian correlated t-test on the same folds, with a region of practical
# equivalence of one point of F1: how probable is each model's advantage, and how probable
# is it that the difference does not matter?
posterior = compare_cv_scores(result.scores_a, result.scores_b, method="bayesian", rope=0.01,
                              n_train=result.n_train, n_test=result.n_test, models=names,
                              scoring=result.score)
print(posterior)
display = PosteriorDifferenceDisplay(mean=posterior.mean, scale=posterior.scale,
                                     df=posterior.df, rope=posterior.rope, models=names,
                                     score_name="TCM macro F1").plot()
plt.show()
