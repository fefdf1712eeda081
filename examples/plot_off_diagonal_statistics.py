"""
========================================================
Which classes are over- or under-predicted, and how sure
========================================================

Barranco-Chamorro and Carrillo-García (Mathematics 2021) read the off-diagonal cells of a
confusion matrix: tests of marginal homogeneity tell whether the classifier predicts
each class as often as it occurs, one-versus-all tests say which classes are over- or
under-predicted, and Dirichlet posteriors give credible intervals for every
misclassification probability. We use their land-use matrix (Table 3).
"""

# %%
import matplotlib.pyplot as plt

from sklearn_confusion_ext import (
    PosteriorIntervalDisplay,
    bhapkar_test,
    dirichlet_posterior,
    marginal_homogeneity_posthoc,
    stuart_maxwell_test,
)

classes = ["FallenLeaf", "Conifers", "Agricultural", "Scrub"]
land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]

print(stuart_maxwell_test(land_use))
print(bhapkar_test(land_use))
print(marginal_homogeneity_posthoc(land_use, display_labels=classes))

# %%
# Posterior of each row
# ---------------------
# FallenLeaf is over-predicted: actual Agricultural and Scrub land often goes there.
# Scrub is under-predicted: a third of it is classified elsewhere.
posterior = dirichlet_posterior(land_use, display_labels=classes)
print("P[Scrub is taken for FallenLeaf more often than the converse] =",
      round(posterior.prob_confusion_exceeds(3, 0), 4))
display = PosteriorIntervalDisplay.from_confusion(land_use, display_labels=classes)
plt.show()
