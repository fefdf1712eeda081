"""
====================================================
Generalized Means and the properties of a good score
====================================================

Gösgens et al. (NeurIPS 2021) show that common classification measures disagree because
they lack different properties, and propose the Generalized Means family GM_r, which
contains Matthews' correlation (r = 0) and the Symmetric Balanced Accuracy (r = -1).

We compare how accuracy, F1 and GM_r score predictions of shrinking quality on an
imbalanced problem, then audit a measure's properties.
"""

# %%
# Scores of a constant predictor and of noisy predictors
# -------------------------------------------------------
# On a 90/10 problem, always answering the majority class gets 0.9 accuracy; GM_r (like
# every measure with a constant baseline) gives it 0, the score of a random guess.
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import accuracy_score, f1_score

from sklearn_confusion_ext import audit_measure, generalized_means_score

rng = np.random.default_rng(0)
y_true = (rng.random(2000) < 0.1).astype(int)
flip_rates = np.linspace(0, 0.5, 11)
curves = {"accuracy": [], "F1": [], "GM_1": [], "GM_0 (Matthews)": [], "GM_-1 (2 SBA - 1)": []}
for rate in flip_rates:
    y_pred = np.where(rng.random(2000) < rate, 1 - y_true, y_true)
    curves["accuracy"].append(accuracy_score(y_true, y_pred))
    curves["F1"].append(f1_score(y_true, y_pred))
    for r, name in ((1, "GM_1"), (0, "GM_0 (Matthews)"), (-1, "GM_-1 (2 SBA - 1)")):
        curves[name].append(generalized_means_score(y_true, y_pred, r=r))
constant = np.zeros_like(y_true)
print(f"constant predictor: accuracy {accuracy_score(y_true, constant):.2f}, "
      f"GM_1 {generalized_means_score(y_true, constant, labels=[0, 1]):.2f}")

fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
for name, values in curves.items():
    ax.plot(flip_rates, values, marker="o", label=name)
ax.set(xlabel="share of predictions flipped at random", ylabel="score",
       title="Scores as predictions degrade (10 % positives)")
ax.legend()
plt.show()

# %%
# Auditing a measure
# ------------------
# :func:`~sklearn_confusion_ext.audit_measure` enumerates small confusion matrices and
# triples of labelings, computes the constant-baseline expectations exactly, and reports a
# counterexample for every property that fails. F1 is undefined when neither labeling has
# a positive element; as in the paper's Table 2 it is then 1 (``zero_division=1.0``).
result = audit_measure(partial(f1_score, zero_division=1.0), max_n=5, n_trials=200,
                       random_state=0)
print(result)
print("class symmetry fails on:", result.counterexamples["class_symmetry"]["matrices"])
