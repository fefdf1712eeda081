"""Row chunks: bounded memory, cache-sized work, both cores busy.

Every matrix of the library is a sum over instances, so it is computed as a sum
over chunks of rows. A chunk is small enough to stay in cache, and chunks run
on a pool of threads (NumPy and BLAS release the GIL) with BLAS limited to one
thread each, so that the threads do not oversubscribe the cores.

BLAS's thread limit is global to the process: while any call runs chunks on
threads the limit is one, and the first call to enter sets it and the last to
leave restores it, whichever order concurrent calls end in.
"""

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import cache

import numpy as np
from joblib import cpu_count
from threadpoolctl import ThreadpoolController

from .arrays import namespace, to_numpy
from .namespaces import is_foreign

# Bytes of one dense working chunk (per array): measured best on the 2-core CI machine.
CHUNK_BYTES = 1 << 21
# Below this many chunks the thread pool costs more than it saves.
_MIN_CHUNKS_FOR_THREADS = 8

_scratch = threading.local()
# The calls running chunks on threads now, and the limiter that restores BLAS after the last.
_blas_lock = threading.Lock()
_blas_users = 0
_blas_limiter = None


def chunk_rows(row_bytes, chunk_bytes=None, floor_bytes=0, scale=1):
    """Rows per chunk so that one chunk holds about ``chunk_bytes`` (default ``CHUNK_BYTES``).

    The budget is at least ``floor_bytes``, times ``scale``; a chunk has at least one row.
    """
    if chunk_bytes is None:
        chunk_bytes = CHUNK_BYTES
    return max(1, int(scale * max(chunk_bytes, floor_bytes) // max(row_bytes, 1)))


def chunk_starts(cumulative_bytes, chunk_bytes):
    """First rows of chunks of about ``chunk_bytes`` each, for rows of uneven size.

    ``cumulative_bytes[i]``: working bytes of rows ``0 .. i - 1`` (length ``n_rows + 1``,
    non-decreasing, starting at 0). A chunk holds at most ``chunk_bytes`` plus its first
    row, and a row larger than ``chunk_bytes`` is a chunk of its own. Pass the result as
    ``step`` to :func:`map_chunks`.
    """
    cumulative_bytes = np.asarray(cumulative_bytes)
    n_rows = len(cumulative_bytes) - 1
    limits = np.arange(1, int(cumulative_bytes[-1] // chunk_bytes) + 1) * float(chunk_bytes)
    starts = np.searchsorted(cumulative_bytes, limits, side="right") - 1
    large = np.flatnonzero(np.diff(cumulative_bytes) > chunk_bytes)
    starts = np.concatenate([[0], starts, large, large + 1])
    return np.unique(starts[starts < n_rows]).astype(np.int64)


def map_chunks(function, n_rows, step, n_jobs=None, chunks_per_thread=None):
    """Yield ``function(rows)`` for consecutive row slices, in order.

    ``step``: rows per slice, or the first row of each slice (:func:`chunk_starts`).
    ``n_jobs``: threads, joblib-style (-1 all cores); None chooses by the number of chunks,
    a thread for every ``chunks_per_thread`` (default ``_MIN_CHUNKS_FOR_THREADS``: chunks
    of cache size; a compiled kernel's chunks, larger and called once each, take 1).
    """
    if np.ndim(step) == 0:
        starts = range(0, n_rows, step)
    else:
        starts = [int(start) for start in step]
    ends = [*starts[1:], n_rows]
    slices = [slice(start, end) for start, end in zip(starts, ends)]
    if n_jobs is None:
        n_threads = min(_cpu_count(),
                        len(slices) // (chunks_per_thread or _MIN_CHUNKS_FOR_THREADS))
    else:
        n_threads = threads_for(n_jobs, len(slices))
    if n_threads <= 1:
        if len(slices) == 1:
            yield function(slices[0])
        else:  # cache-sized products, one after another: BLAS's own threads cost more
            with one_blas_thread():  # than they save there (10x on a busy 2-core machine)
                yield from map(function, slices)
        _scratch.__dict__.pop("buffers", None)
        return
    with one_blas_thread(), ThreadPoolExecutor(max_workers=n_threads) as pool:
        yield from pool.map(function, slices)


@contextmanager
def one_blas_thread():
    """BLAS limited to one thread while any call runs its chunks (on threads, or more than
    one on the calling thread).

    The limit is process-wide, so concurrent calls share one limiter, counted under a
    lock: the first to enter limits BLAS, the last to leave restores what it found.
    (Nested limiters, each restoring its own snapshot, would leave the limit at one when
    two calls end in the order they began.)
    """
    global _blas_users, _blas_limiter
    with _blas_lock:
        if _blas_users == 0:
            _blas_limiter = _thread_controller().limit(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0:
                _blas_limiter.restore_original_limits()
                _blas_limiter = None


# The name the resource tests use.
_one_blas_thread = one_blas_thread


def sum_over_chunks(function, n_rows, step, n_jobs=None, chunks_per_thread=None,
                    fresh_parts=False, added=None):
    """Sum the tuples of arrays ``function(rows)`` returns over all row chunks.

    The tuples are added element-wise in row order, so the result does not
    depend on the number of threads. Arrays of another array library (on a
    device) are summed there and come to the host once, at the end, in one
    transfer (:func:`_to_host_once`). No NumPy sum shares memory with another sum or
    with an input.

    ``fresh_parts``: the caller's promise that ``function`` returns arrays it made for
    that call and keeps no reference to (never its inputs, nor a cache). The first
    chunk's parts then become the sums themselves where they can (:func:`_owned_part`),
    instead of being copied (at 1,000 classes a copy of 8 MB a matrix); the others are
    copied as without the promise.

    ``added``: called with each later chunk's parts once they are added to the sums (no
    sum is one of them), so that the caller may write them again for a later chunk.
    """
    total = None
    for result in map_chunks(function, n_rows, step, n_jobs, chunks_per_thread):
        result = [part if is_foreign(part) else np.asarray(part) for part in result]
        if total is None:  # float64 sums, also of float32 blocks
            taken = set()
            total = []
            for part in result:
                if fresh_parts and _owned_part(part) and id(part) not in taken:
                    taken.add(id(part))
                    total.append(part)
                else:
                    total.append(_float64_sum(part))
        else:
            for index, part in enumerate(result):
                if is_foreign(part) or is_foreign(total[index]):
                    total[index] = _device_sum(total[index], part)
                else:
                    total[index] += part
            if added is not None:
                added(result)
    return _to_host_once(total)


def _owned_part(part):
    """Whether a part of a chunk's tuple may be a sum itself, added into in place: a plain
    NumPy array of float64 (or wider) values that owns its memory and may be written.

    A view (of the caller's data, or of another part) shares memory, a read-only array
    may be shared (a cached one), a narrower type needs a float64 copy and an array of
    another library is summed on its device: each of those is copied
    (:func:`_float64_sum`). The same array twice in a tuple (one array of zeros for two
    parts) is taken once, then copied.
    """
    return (type(part) is np.ndarray and part.flags.owndata and part.flags.writeable
            and part.dtype.kind == "f" and part.dtype == np.result_type(part, np.float64))


def _float64_sum(part):
    """A float64 (or wider) accumulator of a first partial sum, in its own library."""
    if is_foreign(part):
        xp = namespace(part)
        if xp.isdtype(part.dtype, "real floating") and part.dtype != xp.float32:
            return part
        return xp.astype(part, xp.float64)
    return np.array(part, dtype=np.result_type(part, np.float64))


def array_device(array):
    """The device of an array of another library."""
    import array_api_compat

    return array_api_compat.device(array)


def _device_sum(total, part):
    """``total + part`` where either is a device array: on the device."""
    if not is_foreign(total):  # a NumPy zero part first, then a device one
        xp = namespace(part)
        total = xp.asarray(total, device=array_device(part))
    elif not is_foreign(part):
        xp = namespace(total)
        part = xp.asarray(part, device=array_device(total))
    else:
        xp = namespace(total)
    if total.dtype != part.dtype:  # counts beside sums (strict libraries do not promote)
        total, part = xp.astype(total, xp.float64), xp.astype(part, xp.float64)
    return total + part


def _to_host_once(total):
    """The sums as NumPy arrays; the device ones flattened into one array first, so that
    they come to the host in one transfer, not one per part."""
    on_device = [index for index, part in enumerate(total) if is_foreign(part)]
    if not on_device:
        return tuple(total)
    xp = namespace(total[on_device[0]])
    flat = to_numpy(xp.concat([xp.reshape(xp.astype(total[index], xp.float64), (-1,))
                               for index in on_device]))
    offset = 0
    total = list(total)
    for index in on_device:
        shape = tuple(total[index].shape)
        size = math.prod(shape)
        total[index] = flat[offset:offset + size].reshape(shape)
        offset += size
    return tuple(total)


_pool_lock = threading.Lock()
_pool = None
_pool_size = 0


def shared_pool(n_threads):
    """A process-wide pool of at least ``n_threads`` threads, started once and reused by
    every call: the resampling runs its batches of draws and products here (a pool a batch
    started and stopped thousands of threads in one interval). Its tasks must be leaves:
    a task that waited on another task of the pool could wait forever."""
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < n_threads:
            retired = _pool
            _pool_size = max(n_threads, _cpu_count())
            _pool = ThreadPoolExecutor(max_workers=_pool_size,
                                       thread_name_prefix="sklearn_confusion_ext")
            if retired is not None:  # its queued tasks still run, then its threads end
                retired.shutdown(wait=False)
        return _pool


def _forget_pool():
    """A forked child has none of its parent's threads: it starts its own pool."""
    global _pool, _pool_lock, _pool_size
    _pool, _pool_lock, _pool_size = None, threading.Lock(), 0


if hasattr(os, "register_at_fork"):  # not on Windows, which never forks
    os.register_at_fork(after_in_child=_forget_pool)


def threads_for(n_jobs, n_tasks):
    """Threads for ``n_tasks`` tasks: ``n_jobs`` joblib-style (-1 all cores), None all
    cores; never more than the tasks, at least one."""
    cores = _cpu_count()
    if n_jobs is None:
        wanted = cores
    else:
        wanted = n_jobs if n_jobs > 0 else max(1, cores + 1 + n_jobs)
    return max(1, min(int(wanted), n_tasks))


@cache
def _cpu_count():
    """Usable cores (joblib reads the cgroup quota: worth reading once)."""
    return cpu_count()


@cache
def _thread_controller():
    """The BLAS thread controller, built once: building it inspects every loaded library."""
    return ThreadpoolController()


def scratch(slot, shape, dtype=np.float64):
    """A per-thread work array of ``shape`` and ``dtype``, reused from chunk to chunk.

    Reusing the same few cache-resident buffers avoids allocating (and
    page-faulting) fresh arrays for every chunk. The content is garbage: write
    before reading, and never return a scratch array to the caller.
    """
    buffers = _scratch.__dict__.setdefault("buffers", {})
    size = math.prod(shape)
    key = (slot, np.dtype(dtype).char)
    buffer = buffers.get(key)
    if buffer is None or buffer.size < size:
        buffer = buffers[key] = np.empty(size, dtype=dtype)
    return buffer[:size].reshape(shape)
