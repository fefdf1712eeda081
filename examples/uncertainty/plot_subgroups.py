"""
============================================
Does the classifier do as well for everyone?
============================================

A classifier's accuracy on a test set is an average over its instances; some subgroups
may fare worse than others. ``score_by_subgroup`` gives each subgroup's score with its
interval, tests its difference from the rest of the instances (a permutation test,
Holm-corrected for the number of subgroups), says which subgroups are too small to tell a
difference that matters, and keeps each subgroup's confusion matrix.
``SubgroupIntervalDisplay`` draws the intervals.
"""

# %%
# A classifier of breast tumours, by size of tumour
# -------------------------------------------------
# The subgroups are the quartiles of the tumours' mean radius, a feature of the data (a
# pandas Categorical keeps their order).
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from sklearn_confusion_ext import SubgroupIntervalDisplay, score_by_subgroup

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
model = GaussianNB().fit(X_train, y_train)
y_pred = model.predict(X_test)
radius = pd.qcut(X_test[:, 0], 4, labels=["small", "medium", "large", "largest"])

result = score_by_subgroup(y_test, y_pred, subgroups=radius, min_difference=0.1,
                           n_resamples=4999, random_state=0)
result.to_frame()[["size", "estimate", "low", "high", "difference", "pvalue_corrected",
                   "too_small"]].round(3)

# %%
# The large tumours, where benign and malignant overlap, are classified worse than the
# rest. Their confusion matrix says how: benign tumours called malignant.
print(result.confusion_matrices[result.subgroups.index("large")])

# %%
# The intervals, drawn
# --------------------
# The dashed line is the accuracy on all instances; the marked subgroups differ from the
# rest after the correction.
SubgroupIntervalDisplay.from_estimator(model, X_test, y_test, subgroups=radius,
                                       random_state=0)
plt.show()

# %%
# Many small subgroups
# --------------------
# About forty subgroups of about seven instances each (the deciles of the radius
# crossed with the quartiles of the texture): each interval is wide, no difference of
# 0.1 can be told apart at that size, and the corrected tests reject nothing unless a
# subgroup is far off. Subgroups of one instance get Wilson's interval of one trial, never a point.
cells = (pd.qcut(X_test[:, 0], 10, labels=False) * 4
         + pd.qcut(X_test[:, 1], 4, labels=False))
many = score_by_subgroup(y_test, y_pred, subgroups=np.asarray(cells), min_difference=0.1,
                         n_resamples=1999, random_state=0)
print(f"{many.n_subgroups} subgroups, {many.n_too_small} too small to tell 0.1, "
      f"{many.n_significant} significant")
display = SubgroupIntervalDisplay(estimates=many.estimate, low=many.low, high=many.high,
                                  display_labels=[f"cell {c}" for c in many.subgroups],
                                  overall=many.overall, significant=many.significant,
                                  score_name="accuracy").plot()
plt.show()
