"""Row chunks: bounded memory, cache-sized work, both cores busy.

Every matrix of the library is a sum over instances, so it is computed as a sum
over chunks of rows. A chunk is small enough to stay in cache, and chunks run
on a pool of threads (NumPy and BLAS release the GIL) with BLAS limited to one
thread each, so that the threads do not oversubscribe the cores.
"""

import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np
from joblib import cpu_count
from threadpoolctl import ThreadpoolController

from .arrays import to_numpy

# Bytes of one dense working chunk (per array): measured best on the 2-core CI machine.
CHUNK_BYTES = 1 << 21
# Below this many chunks the thread pool costs more than it saves.
_MIN_CHUNKS_FOR_THREADS = 8

_scratch = threading.local()


def chunk_rows(row_bytes, chunk_bytes=None):
    """Rows per chunk so that one chunk holds about ``chunk_bytes`` (default ``CHUNK_BYTES``)."""
    if chunk_bytes is None:
        chunk_bytes = CHUNK_BYTES
    return max(1, int(chunk_bytes // max(row_bytes, 1)))


def map_chunks(function, n_rows, step, n_jobs=None):
    """Yield ``function(rows)`` for consecutive row slices of ``step`` rows, in order.

    ``n_jobs``: threads, joblib-style (-1 all cores); None chooses by the number of chunks.
    """
    slices = [slice(start, min(start + step, n_rows)) for start in range(0, n_rows, step)]
    if n_jobs is None:
        n_threads = min(_cpu_count(), len(slices) // _MIN_CHUNKS_FOR_THREADS)
    else:
        n_threads = min(n_jobs if n_jobs > 0 else _cpu_count() + 1 + n_jobs, len(slices))
    if n_threads <= 1:
        yield from map(function, slices)
        _scratch.__dict__.pop("buffers", None)
        return
    with _thread_controller().limit(limits=1, user_api="blas"), \
            ThreadPoolExecutor(max_workers=n_threads) as pool:
        yield from pool.map(function, slices)


def sum_over_chunks(function, n_rows, step, n_jobs=None):
    """Sum the tuples of arrays ``function(rows)`` returns over all row chunks.

    The tuples are added element-wise in row order, so the result does not
    depend on the number of threads. Arrays of another array library (on a
    device) come to the host chunk by chunk: they are small partial matrices.
    """
    total = None
    for result in map_chunks(function, n_rows, step, n_jobs):
        result = [to_numpy(part) for part in result]
        if total is None:
            total = [part.copy() for part in result]
        else:
            for index, part in enumerate(result):
                total[index] += part
    return tuple(total)


@cache
def _cpu_count():
    """Usable cores (joblib reads the cgroup quota: worth reading once)."""
    return cpu_count()


@cache
def _thread_controller():
    """The BLAS thread controller, built once: building it inspects every loaded library."""
    return ThreadpoolController()


def scratch(slot, shape):
    """A per-thread float64 work array of ``shape``, reused from chunk to chunk.

    Reusing the same few cache-resident buffers avoids allocating (and
    page-faulting) fresh arrays for every chunk. The content is garbage: write
    before reading, and never return a scratch array to the caller.
    """
    buffers = _scratch.__dict__.setdefault("buffers", {})
    size = int(np.prod(shape))
    buffer = buffers.get(slot)
    if buffer is None or buffer.size < size:
        buffer = buffers[slot] = np.empty(size)
    return buffer[:size].reshape(shape)
