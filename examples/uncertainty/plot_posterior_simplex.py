"""
==========================================================
The posterior of a row of a confusion matrix on a triangle
==========================================================

Barranco-Chamorro and Carrillo-García (Mathematics 2021, Section 5.3.2) give each row of
a three-class confusion matrix a Dirichlet posterior over ``P[predicted j | actual k]``
and draw it on the triangle whose corners are the three predictions (their Figures 1-3).
A posterior near the corner of its own class means reliable predictions; one pulled
toward another corner, a confusion with that class.
:class:`~sklearn_confusion_ext.PosteriorSimplexDisplay` draws the exact density's
highest-density regions, holding 50 %, 80 % and 95 % of the posterior, with the mean and
the mode.
"""

# %%
# Figures 1-3: the IBD matrix (Table 24) with the uniform prior
# -------------------------------------------------------------
# Rows are the actual diagnoses, columns the predicted ones. The modes written under the
# triangles are those the paper prints beside its figures; the actual UC row lies nearer
# the CD corner than its own, the under-prediction of UC in favour of CD that the
# one-versus-all test finds (Table 26).
import matplotlib.pyplot as plt

from sklearn_confusion_ext import PosteriorSimplexDisplay, dirichlet_posterior

classes = ["nonIBD", "UC", "CD"]
ibd = [[37, 1, 15], [6, 19, 26], [15, 3, 77]]
display = PosteriorSimplexDisplay.from_confusion(ibd, prior="uniform",
                                                 display_labels=classes)
print(display.mode_.round(4))

# %%
# Sequential Bayes (Section 5.3.3) and the Perks prior (Remark A1)
# ----------------------------------------------------------------
# A second matrix of the same classifier (Table 30) updates the posterior: the regions
# shrink. The Perks prior, ``1/3`` per cell, barely moves them from the uniform prior's.
step_2 = [[42, 1, 10], [22, 22, 7], [34, 10, 51]]
updated = dirichlet_posterior(ibd, prior="uniform").update(step_2)
fig = plt.figure(figsize=(11, 7), layout="constrained")
top, bottom = fig.subfigures(2, 1)
PosteriorSimplexDisplay(updated.alpha, display_labels=classes, column_labels=classes).plot(
    ax=top)
top.suptitle("After the second matrix (Table 30), uniform prior", fontsize="medium")
PosteriorSimplexDisplay.from_confusion(ibd, prior="perks", display_labels=classes, ax=bottom)
bottom.suptitle("Table 24 with the Perks prior (1/3 per cell)", fontsize="medium")

# %%
# More than three classes
# -----------------------
# The triangle holds three predicted classes. With more, name two; the others are merged
# into the third corner, whose probability is their sum (the Dirichlet aggregation
# property makes this exact). Here the land-use matrix (Table 3): actual Scrub is often
# predicted as one of the other classes, the under-prediction Table 9 reports.
land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
PosteriorSimplexDisplay.from_confusion(
    land_use, classes=["FallenLeaf", "Scrub"],
    display_labels=["FallenLeaf", "Conifers", "Agricultural", "Scrub"])
plt.show()
