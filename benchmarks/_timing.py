"""Timing helper shared by the benchmark scripts."""

import time


def best_time(function, repeat=5):
    """The fastest of ``repeat`` runs of ``function()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
