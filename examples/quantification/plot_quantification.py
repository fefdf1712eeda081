"""
=========================================
Evaluating a quantifier over many samples
=========================================

Quantification estimates how many elements of each class a sample holds. Sebastiani
(2020) compares the error measures; here we evaluate "classify and count" and
"probabilistic classify and count" over many test samples drawn with the
artificial-prevalence protocol, and report the mean and median error of two measures.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from sklearn_confusion_ext import (
    absolute_error,
    normalized_kl_divergence,
    prevalence,
    prevalence_protocol_samples,
)

X, y = make_classification(n_samples=4000, n_classes=3, n_informative=5, weights=[0.6, 0.3],
                           random_state=0)
X_train, X_pool, y_train, y_pool = train_test_split(X, y, test_size=0.5, random_state=0)
model = LogisticRegression(max_iter=1000).fit(X_train, y_train)

true, counted, averaged = [], [], []
for sample in prevalence_protocol_samples(y_pool, n_samples=200, sample_size=100,
                                          protocol="artificial", random_state=0):
    true.append(prevalence(y_pool[sample], labels=[0, 1, 2]))
    counted.append(prevalence(model.predict(X_pool[sample]), labels=[0, 1, 2]))
    averaged.append(model.predict_proba(X_pool[sample]).mean(axis=0))
true, counted, averaged = map(np.array, (true, counted, averaged))

for name, estimate in (("classify and count", counted),
                       ("probabilistic classify and count", averaged)):
    errors = absolute_error(true, estimate, aggregate=None)
    nkld = normalized_kl_divergence(true, estimate, eps=1 / 200, aggregate=None)
    print(f"{name:34s} AE mean {errors.mean():.4f} median {np.median(errors):.4f}   "
          f"NKLD mean {nkld.mean():.4f}")

# %%
# Estimated against true prevalence of class 2
# --------------------------------------------
fig, ax = plt.subplots(figsize=(4.5, 4.5), layout="constrained")
ax.scatter(true[:, 2], counted[:, 2], s=10, label="classify and count")
ax.scatter(true[:, 2], averaged[:, 2], s=10, label="probabilistic")
ax.plot([0, 1], [0, 1], color="gray", linewidth=1)
ax.set(xlabel="true prevalence", ylabel="estimated prevalence", title="class 2")
ax.legend()
plt.show()
