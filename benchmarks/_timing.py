"""What the benchmark scripts share: a best-of timer, a wait for the process's idle
threads, the probability matrices they time, and the compiled kernel of labels beside
probabilities called alone."""

import time

import numpy as np

# settle(): the process is idle once a pause of _SETTLE_PAUSE seconds costs it less than
# _SETTLE_BUSY of CPU time; it waits _SETTLE_MOST seconds at most.
_SETTLE_PAUSE, _SETTLE_BUSY, _SETTLE_MOST = 0.01, 0.002, 1.0


def settle():
    """Wait until no thread of the process is busy, before a timed call.

    OpenBLAS's threads spin for about 2 ** 28 cycles (0.1 s here) after a multi-threaded
    product returns, before they sleep. Timed just after one, the next call is charged
    that spin in CPU time (``time.process_time`` counts every thread) and, on a 2-core
    machine, loses a core to it in wall time: a one-thread float32 GEMM of N = 1e6, C = 10
    measured 32.6 ms of CPU after a two-thread one and 16.3 ms alone; the soft TCM beside
    it 26.5 ms of wall time against 20.2 ms."""
    deadline = time.perf_counter() + _SETTLE_MOST
    while time.perf_counter() < deadline:
        start = time.process_time()
        time.sleep(_SETTLE_PAUSE)
        if time.process_time() - start < _SETTLE_BUSY:
            return


def best_time(function, repeat=5):
    """The fastest of ``repeat`` runs of ``function()``, in seconds (each after
    :func:`settle`)."""
    times = []
    for _ in range(repeat):
        settle()
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
