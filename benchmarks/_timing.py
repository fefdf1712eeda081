"""What the benchmark scripts share: a best-of timer, the probability matrices they time,
and the compiled kernel of labels beside probabilities called alone."""

import time

import numpy as np


def best_time(function, repeat=5):
    """The fastest of ``repeat`` runs of ``function()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def probabilities(rng, n_samples, n_classes, dtype):
    """Random rows of ``n_classes`` probabilities (each row divided by its sum)."""
    scores = rng.random((n_samples, n_classes), dtype=np.float32).astype(dtype, copy=False)
    scores /= scores.sum(axis=1, keepdims=True, dtype=dtype)
    return scores


def kernel_alone(scores, codes, n_classes):
    """The compiled kernel of labels beside probabilities on every row: one thread, no
    validation, no label encoding (``codes``: int32 or int64 class codes)."""
    from sklearn_confusion_ext._core.kernels import compiled_kernels

    limits = ((2.0 ** 100, 1e-200, 1e200) if scores.dtype == np.float64
              else (2.0 ** 20, 1e-14, 1e12))
    out = np.zeros((n_classes, n_classes))
    compiled_kernels().sum_rows_by_class(scores, codes, 0, scores.shape[0], np.empty(0),
                                         False, *limits, np.inf, out)
    return out
