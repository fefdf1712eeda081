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

for name, test in (("Stuart-Maxwell", stuart_maxwell_test), ("Bhapkar", bhapkar_test)):
    result = test(land_use)
    print(f"{name:>14}: statistic {result.statistic:.2f}, df {result.df}, "
          f"p-value {result.pvalue:.1e}")

# %%
# Which classes?
# --------------
# The one-versus-all tests compare, for each class, the elements of that class predicted
# as another class with the elements of other classes predicted as it; the p-values are
# Bonferroni-corrected across the four classes.
posthoc = marginal_homogeneity_posthoc(land_use, display_labels=classes)
print(f"{'class':>12} {'T':>4} {'discordant':>10} {'p (corrected)':>14}  verdict")
for name, t, n, p, verdict in zip(posthoc.class_names, posthoc.statistic,
                                  posthoc.n_discordant, posthoc.pvalue_two_sided_corrected,
                                  posthoc.verdict):
    print(f"{name:>12} {t:4.0f} {n:10.0f} {p:14.2g}  {verdict}")

# %%
# Posterior of each row
# ---------------------
# FallenLeaf is over-predicted: actual Agricultural and Scrub land often goes there.
# Scrub is under-predicted: a third of it is classified elsewhere.
posterior = dirichlet_posterior(land_use, display_labels=classes)
print("P[Scrub is taken for FallenLeaf more often than the converse] =",
      round(posterior.prob_confusion_exceeds(3, 0), 4))
low, high = posterior.credible_interval(0.95, method="hpd")
mean = posterior.mean()
print("P[predicted FallenLeaf | actual Scrub]: "
      f"mean {mean[3, 0]:.3f}, 95% HPD interval [{low[3, 0]:.3f}, {high[3, 0]:.3f}]")

# %%
# :class:`~sklearn_confusion_ext.PosteriorIntervalDisplay` draws, for each actual class,
# the posterior mean and the 95% highest-density interval of every predicted class.
display = PosteriorIntervalDisplay.from_confusion(land_use, display_labels=classes)
plt.show()
