"""Every matrix kind with its one-shot function and random targets, shared by the tests
of the accumulator, Dask and the array API."""

import numpy as np
from sklearn.metrics import confusion_matrix

from sklearn_confusion_ext import (
    mlcm,
    multilabel_confusion_tensor,
    subpixel_confusion_matrix,
    transport_confusion_matrix,
)


def random_batches(rng, n_samples):
    edges = np.sort(rng.choice(np.arange(1, n_samples), size=4, replace=False))
    return np.split(np.arange(n_samples), edges)


def one_shot(kind, y_true, y_pred, weights, labels, params):
    if kind == "classic":
        return confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights)
    if kind == "transport":
        return transport_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights,
                                          **params)
    if kind == "subpixel":
        return subpixel_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights,
                                         **params)
    if kind == "mlct":
        return multilabel_confusion_tensor(y_true, y_pred, labels=labels, sample_weight=weights,
                                           **params)
    method = "krstinic" if kind == "mlcm_krstinic" else "heydarian"
    return mlcm(y_true, y_pred, labels=labels, sample_weight=weights, method=method)


CASES = [
    ("classic", "labels", {}), ("transport", "labels", {}),
    ("transport", "soft", {"weighting": "true"}), ("transport", "indicator", {"empty": "skip"}),
    ("subpixel", "soft", {"weighting": "pred"}), ("mlcm", "indicator", {}),
    ("mlcm_krstinic", "indicator", {}), ("mlct", "indicator", {"unique": False}),
    ("mlcm", "labels", {}),
]


def random_targets(rng, form, n_samples=120):
    if form == "labels":
        return rng.choice(["ant", "bee", "cat", "dog"], n_samples), \
            rng.choice(["ant", "bee", "cat", "dog"], n_samples)
    if form == "soft":
        return rng.random((n_samples, 4)), rng.random((n_samples, 4))
    return (rng.random((n_samples, 4)) < 0.3).astype(int), \
        (rng.random((n_samples, 4)) < 0.3).astype(int)
