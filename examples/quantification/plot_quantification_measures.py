"""
=======================================================
The quantification error measures on a binary codeframe
=======================================================

Sebastiani (2020), Figure 1: each panel plots one error measure for binary quantification,
the true prevalence :math:`p(c_1)` on the x axis and the predicted one
:math:`\\hat p(c_1)` on the y axis, darker for smaller errors. The diagonal is the perfect
estimator; the properties of the paper's Table 1 can be read off the panels: a measure
with IMP is symmetric about the diagonal vertically (AE, RAE, SE), one with ABS changes
colour the same way away from the diagonal wherever one starts (AE, SE). The last two
panels are KLD and PD normalized by their maxima
(:func:`~sklearn_confusion_ext.max_quantification_error`), which range over [0, 1] for
every true prevalence (MAX).

The measures are smoothed as the paper does, with :math:`\\epsilon = 1 / (2|\\sigma|)` for
samples of 100; each panel has its own colour scale. RAE, KLD and PD take their largest
values at the edges (a prevalence near 0), hundreds of times their typical ones: their
panels, and that of PD / z_PD, colour the fourth root of the error so that the rest shows.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Normalize, PowerNorm

from sklearn_confusion_ext import (
    absolute_error,
    discordance_ratio,
    kl_divergence,
    max_normalized_kl_divergence,
    normalized_absolute_error,
    normalized_kl_divergence,
    normalized_pearson_divergence,
    normalized_relative_absolute_error,
    pearson_divergence,
    relative_absolute_error,
    squared_error,
)

measures = {"AE": absolute_error, "NAE": normalized_absolute_error,
            "RAE": relative_absolute_error, "NRAE": normalized_relative_absolute_error,
            "SE": squared_error, "DR": discordance_ratio, "KLD": kl_divergence,
            "NKLD": normalized_kl_divergence, "PD": pearson_divergence,
            "KLD / z_KLD": max_normalized_kl_divergence,
            "PD / z_PD": normalized_pearson_divergence}
eps = 1 / (2 * 100)
fourth_root = {"RAE", "KLD", "PD", "PD / z_PD"}

grid = np.linspace(0, 1, 201)
true, predicted = np.meshgrid(grid, grid)  # x: p(c1), y: p_hat(c1)
p_true = np.column_stack([true.ravel(), 1 - true.ravel()])
p_pred = np.column_stack([predicted.ravel(), 1 - predicted.ravel()])

fig, axes = plt.subplots(3, 4, figsize=(11, 8.6), sharex=True, sharey=True,
                         layout="constrained")
for ax, (name, measure) in zip(axes.flat, measures.items()):
    values = measure(p_true, p_pred, eps=eps, aggregate=None).reshape(true.shape)
    norm = PowerNorm(0.25) if name in fourth_root else Normalize()
    image = ax.imshow(values, origin="lower", extent=(0, 1, 0, 1), cmap="gray", norm=norm,
                      interpolation="nearest")
    ax.set_title(name + (" (colour: error^1/4)" if name in fourth_root else ""),
                 fontsize="small" if name in fourth_root else "medium")
    fig.colorbar(image, ax=ax, shrink=0.8)
axes.flat[-1].remove()
for ax in axes[-1]:
    ax.set_xlabel("true p(c1)")
for ax in axes[:, 0]:
    ax.set_ylabel("predicted p(c1)")
axes[-2, -1].xaxis.set_tick_params(labelbottom=True)
axes[-2, -1].set_xlabel("true p(c1)")
fig.suptitle("Quantification errors on a binary codeframe (Sebastiani 2020, Figure 1)")
plt.show()

# %%
# The largest error of each measure depends on the true prevalence unless the measure has
# MAX: the error of the perverse estimator (all the mass on the rarer class) against the
# true prevalence of :math:`c_1`. NKLD has MAX only "at a first approximation" (the paper's
# footnote 14): for samples of 100 its largest value falls to 0.75 at :math:`p(c_1) = 0.5`.
# KLD over its maximum is 1 everywhere.
from sklearn_confusion_ext import max_quantification_error  # noqa: E402

shares = np.linspace(0.01, 0.99, 99)
p = np.column_stack([shares, 1 - shares])
fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
for name in ("RAE", "KLD", "AE", "DR", "SE", "NKLD", "NAE", "KLD / z_KLD"):
    style = "--" if name in ("NKLD", "NAE", "KLD / z_KLD") else "-"
    ax.plot(shares, max_quantification_error(measures[name], p, eps=eps), style, label=name)
ax.set_yscale("log")
ax.set_xlabel("true p(c1)")
ax.set_ylabel("largest error (perverse estimator)")
ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), title="dashed: normalized")
plt.show()
