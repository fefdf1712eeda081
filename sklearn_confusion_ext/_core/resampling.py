"""Resampled confusion matrices: the bootstrap's instance weights and the full matrices of
many resamples at once.

Every matrix here is a sum over instances, linear in each instance's weight, so the
matrices of ``B`` resamples of the instances (their rows of instance weights) are products
of the ``(B, n)`` weight matrix with the per-instance terms of the kind
(:class:`~._core.terms.Terms`), block of rows by block of rows: no resample rebuilds the
matrix from the targets. :func:`score_confidence_interval`, :func:`compare_scores` and the
reports' intervals all draw and build here.
"""

import sys
import time

import numpy as np
import scipy.sparse as sp

from .array_api import on_the_host
from .chunks import one_blas_thread, shared_pool, threads_for
from .config import BLOCK_RESAMPLES, check_result_size, resample_block
from .dask_collections import is_dask_collection
from .kernels import compiled_draw_kernels, compiled_kernels
from .targets import check_targets
from .terms import batched_term_sums

# Entries of one block's dense outer products (the block's rows times C * C): 32 MiB.
_OUTER_ENTRIES = 1 << 22
# Entries of one batch of instance weights (resamples times instances): 64 MiB.
_WEIGHT_ENTRIES = 1 << 23
# Resamples per product of the grouped products: a resample's matrix must not depend on how
# many resamples a block holds (the same numbers under any memory budget), and a BLAS
# product's rounding may depend on its shape; blocks of resamples are multiples of it.
_PRODUCT_ROWS = 32
# A stream of the resamples (Streams) draws at least this many values (its resamples: at
# most _STREAM_ROWS), so that seeding a stream costs little beside its draws.
_STREAM_VALUES = 1 << 17
_STREAM_ROWS = 32
# Entries of one block of the soft labels' scaled rows (a resample's product runs block by
# block, the block scaled in cache just before it): 256 KiB.
_SOFT_ENTRIES = 1 << 15
# Weights of one stack of grouped products (one call, products of _PRODUCT_ROWS
# resamples each), read as float64 where they are compact: 2 MiB.
_STACK_ENTRIES = 1 << 18
# Below this many multiply-adds the grouped products run on the calling thread.
_THREADED_PRODUCTS = 1 << 22
# Below this many values a batch is drawn on the calling thread.
_THREADED_VALUES = 1 << 16
# Resamples of the intervals of a report (confidence_level=).
REPORT_RESAMPLES = 999


# verbose=1 prints progress where the call is expected to take longer than this (seconds),
# once it has run a second, a line every two seconds at most.
_PROGRESS_AFTER = 3.0
_PROGRESS_EVERY = 2.0


class Progress:
    """Progress of a long resampling on standard error, as scikit-learn's long-running
    estimators print theirs with ``verbose=``: ``0`` silent; ``1`` a line every two
    seconds at most, where the call is expected to take more than a few seconds, and a
    last line when it ends; ``2`` and more, a line after every block of resamples.

    ``total`` resamples (or swaps) are expected; :meth:`track` counts them as the blocks
    are used."""

    def __init__(self, verbose, total, owner, what="resample"):
        self.verbose, self.total, self.owner, self.what = int(verbose), int(total), owner, what
        self.done, self.printed = 0, False
        self.start = self.last = time.perf_counter()

    def track(self, blocks, size=len):
        """Yield ``blocks``, counting ``size(block)`` resamples once each is used."""
        for block in blocks:
            yield block
            self.update(size(block))

    def update(self, count):
        self.done += int(count)
        if self.verbose <= 0:
            return
        now = time.perf_counter()
        elapsed = now - self.start
        left = elapsed / max(self.done, 1) * max(self.total - self.done, 0)
        if self.verbose >= 2 or (elapsed >= 1.0 and elapsed + left > _PROGRESS_AFTER
                                 and now - self.last >= _PROGRESS_EVERY):
            self.last, self.printed = now, True
            print(f"{self.owner}: {self.what} {self.done}/{self.total}, {elapsed:.1f} s "
                  f"elapsed, ~{left:.0f} s left", file=sys.stderr, flush=True)

    def close(self):
        """The last line, where progress was printed."""
        if self.printed:
            print(f"{self.owner}: {self.done} {self.what}s in "
                  f"{time.perf_counter() - self.start:.1f} s", file=sys.stderr, flush=True)


def quiet_progress(total=0):
    """A :class:`Progress` that prints nothing."""
    return Progress(0, total, "")


def matrix_entries(shape):
    """Entries of one resample's full matrix of ``shape`` as the batched builders allocate
    it (:func:`resampled_matrices` adds a row and a column for MLCM's "none" class)."""
    return (shape[0] + 1) * (shape[-1] + 1)


def _batch(n_samples, n_resamples, entries, owner, itemsize=8):
    """Rows per batch of instance weights: 64 MiB of weights at most (``itemsize`` bytes
    each), and the resamples' matrices (``entries`` each) within the budget
    (:func:`~._core.config.resample_block`)."""
    batch = max(1, min(BLOCK_RESAMPLES, _WEIGHT_ENTRIES * 8 // (itemsize * n_samples)))
    if entries:
        side = int(round(entries ** 0.5))
        batch = min(batch, resample_block(owner, n_resamples, entries,
                                          f"a matrix of {side} x {side} cells",
                                          "Pass fewer classes"))
    if batch > _PRODUCT_ROWS:  # whole products of the grouped resampling
        batch -= batch % _PRODUCT_ROWS
    return batch


class Streams:
    """The random streams of one resampling: resample ``r`` is drawn from stream
    ``r // rows`` (rows ``r % rows`` of it, in order), each stream a generator of its own
    seeded from ``rng`` (one draw of the caller's generator, whatever ``n_resamples``:
    :class:`numpy.random.SeedSequence` children, independent streams).

    ``rows`` depends on the values a resample draws only, so every resample's numbers are a
    pure function of the seed: the same whatever the batches (the memory budget), the
    threads that draw them (``n_jobs``) or the order they run in. A stream is drawn by one
    thread, so the streams of a batch are drawn in parallel (NumPy's generators release
    the GIL while they fill arrays).
    """

    def __init__(self, rng, n_values):
        self.entropy = [int(value) for value in rng.integers(0, 2 ** 63, size=4)]
        self.rows = int(min(_STREAM_ROWS, max(1, _STREAM_VALUES // max(1, n_values))))
        self._open = None  # (stream, generator) of a stream a batch left half drawn

    def generator(self, stream):
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(
            self.entropy, spawn_key=(stream,))))

    def segments(self, start, stop):
        """``(stream, generator, first, stop)``: the resamples ``first .. stop - 1`` of the
        batch ``start .. stop - 1`` that ``stream`` draws, with its generator; None where
        the stream is drawn whole in this batch, whose thread seeds it (seeding takes as
        long as a small draw, and holds the GIL: on the calling thread it was serial)."""
        segments = []
        for first in range(start - start % self.rows, stop, self.rows):
            stream = first // self.rows
            if first < start:  # drawn in part by the previous batch: go on with it
                opened, generator = self._open
                assert opened == stream
            else:
                generator = self.generator(stream) if first + self.rows > stop else None
            segments.append((stream, generator, max(first, start),
                             min(first + self.rows, stop)))
        last_stream, last_generator, _, last_stop = segments[-1]
        self._open = (last_stream, last_generator) if last_stop % self.rows else None
        return segments


class _Overflow(Exception):
    """A count of the compact draws above what their integer type holds."""


def _draw_rows(rng, n_values, n_resamples, batch, draw, n_jobs=None, reuse=False):
    """Batches of ``batch`` rows (the last one shorter) of ``n_values`` values, each row
    ``draw(generator, row)`` written in place, from the :class:`Streams` of ``rng``; the
    streams of a batch drawn on the threads of :func:`~.chunks.shared_pool`.

    ``draw`` may draw a stream's rows at once (``draw.rows(generator, rows)``, in the
    type ``draw.dtype``), raising :class:`_Overflow` before it moves the generator on
    where a value does not fit that type: the batch is then float64 and those rows drawn
    one by one, from the same state (the same numbers).

    ``reuse``: every batch is drawn into one buffer, which the next batch overwrites, for
    a caller that is done with a batch when it asks for the next. A batch of many
    resamples is tens of MiB: a new one a batch is new memory the threads fault in page
    by page, and hand back to the system."""
    streams = Streams(rng, n_values)
    buffer = None
    dtype = getattr(draw, "dtype", np.float64)
    rows = getattr(draw, "rows", None)

    def fill(out, offset, segments, whole=True):
        overflowed = []
        for segment in segments:
            stream, generator, first, stop = segment
            generator = generator or streams.generator(stream)
            if whole and rows is not None:
                try:
                    rows(generator, out[first - offset:stop - offset])
                except _Overflow:  # the generator is still where the segment starts
                    overflowed.append((stream, generator, first, stop))
                continue
            for index in range(first, stop):
                draw(generator, out[index - offset])
        return overflowed

    for start in range(0, n_resamples, batch):
        stop = min(n_resamples, start + batch)
        if buffer is None or not reuse:
            buffer = np.empty((stop - start, n_values), dtype=dtype)
        out = buffer[:stop - start]
        segments = streams.segments(start, stop)
        threads = threads_for(n_jobs, len(segments))
        if threads <= 1 or n_values * (stop - start) < _THREADED_VALUES:
            overflowed = fill(out, start, segments)
        else:  # a task a stream: a thread slowed by others' work takes fewer
            overflowed = [segment for part in shared_pool(threads).map(
                fill, [out] * len(segments), [start] * len(segments),
                [[segment] for segment in segments]) for segment in part]
        if overflowed:  # float64 rows for the counts that do not fit: NumPy's draws
            out = out.astype(np.float64)
            fill(out, start, overflowed, whole=False)
        yield out


def _compact_counts():
    """The compiled kernel that counts NumPy's own PCG64 draws as it draws them
    (``_draw_kernels.pyx``), where it is built and gives NumPy's counts (checked once, on
    a few small draws: a NumPy whose bounded draws differ runs NumPy's), else None."""
    global _FUSED
    if _FUSED is None:
        kernel = compiled_draw_kernels()
        _FUSED = (kernel,) if kernel is not None and _same_draws(kernel) else (None,)
    return _FUSED[0]


_FUSED = None
# The largest count the compact (uint8) draws hold; a larger one is drawn again in float64.
_COUNT_LIMIT = 255


def _same_draws(kernel):
    """Whether ``kernel`` counts the draws of NumPy's ``Generator(PCG64).integers``."""
    for n_values, skip in ((2, 0), (7, 1), (1000, 0), (99_991, 1)):
        generator = np.random.Generator(np.random.PCG64(n_values))
        generator.integers(0, 2 ** 32, skip, dtype=np.uint32)  # half of a 64-bit output
        expected = np.stack([np.bincount(generator.integers(0, n_values, n_values),
                                         minlength=n_values) for _ in range(2)])
        after = generator.integers(0, 2 ** 63)
        generator = np.random.Generator(np.random.PCG64(n_values))
        generator.integers(0, 2 ** 32, skip, dtype=np.uint32)
        counts = np.empty((2, n_values))
        state = kernel.count_pcg64_draws(generator.bit_generator.state, counts, np.inf)
        generator.bit_generator.state = state
        if not np.array_equal(counts, expected) or generator.integers(0, 2 ** 63) != after:
            return False
    return True


def _counts(n_values, compact=False):
    """How many times each of ``n_values`` instances is drawn in ``n_values`` draws with
    replacement (the multinomial law of ``n_values`` draws, each 1 / ``n_values``): the
    draws of ``generator.integers(0, n_values, n_values)``, counted.

    Where the compiled kernel runs (:func:`_compact_counts`), a stream's rows are drawn
    and counted at once, with no array of draws (the same values); ``compact``: as
    ``uint8`` counts (a count above 255, which in ``n_values`` draws of ``n_values`` is
    all but impossible, is drawn again in float64)."""
    kernels = compiled_kernels()
    if kernels is not None:  # counted without the GIL, into the row itself
        def draw(generator, row):
            kernels.count_draws(generator.integers(0, n_values, n_values), row)
    else:
        def draw(generator, row):
            row[:] = np.bincount(generator.integers(0, n_values, n_values), minlength=n_values)
    fused = _compact_counts() if 2 <= n_values < 2 ** 32 else None
    if fused is not None:
        def rows(generator, out):
            limit = _COUNT_LIMIT if out.dtype == np.uint8 else np.inf
            state = fused.count_pcg64_draws(generator.bit_generator.state, out, limit)
            if state is None:
                raise _Overflow
            generator.bit_generator.state = state

        draw.rows = rows
        draw.dtype = np.uint8 if compact else np.float64
    return draw


def _dirichlet(n_values):
    """Flat Dirichlet weights scaled to sum to ``n_values``: independent standard
    exponentials (gamma of shape 1) divided by their sum."""
    def draw(generator, row):
        generator.standard_exponential(out=row)
        row *= n_values / row.sum()
    return draw


def _coin_flips(n_values):
    """Independent 0/1 values, each 1 with probability 1/2 (the bits of random bytes)."""
    def draw(generator, row):
        row[:] = np.unpackbits(generator.integers(0, 256, -(-n_values // 8), dtype=np.uint8),
                               count=n_values)
    return draw


def instance_weights(rng, n_samples, n_resamples, bayesian, entries=0, owner=None,
                     n_jobs=None, reuse=False, compact=False):
    """Batches of rows of resampled instance weights, 64 MiB at most each: how many times
    the bootstrap draws each instance (or the Bayesian bootstrap's Dirichlet weights,
    scaled to sum to ``n_samples``). Where each row gives a matrix of ``entries`` cells,
    a batch's matrices also stay within the budget (checked before the first draw).

    Each resample is drawn from its own stream (:class:`Streams`): the draws are the same
    whatever the batches and the threads (``n_jobs``), and drawn on threads. ``reuse``:
    each batch overwrites the last (:func:`_draw_rows`). ``compact``: the bootstrap's
    counts as ``uint8`` where the compiled kernel draws them (eight times the rows a
    batch, the same numbers; a batch is float64 where a count passes 255), for
    :meth:`GroupedRows.matrices`; float64 otherwise."""
    draw = _dirichlet(n_samples) if bayesian else _counts(n_samples, compact)
    dtype = np.dtype(getattr(draw, "dtype", np.float64))
    batch = _batch(n_samples, n_resamples, entries, owner, dtype.itemsize)
    yield from _draw_rows(rng, n_samples, n_resamples, batch, draw, n_jobs, reuse)


def check_groups(groups, n_samples, owner):
    """``(codes, n_groups)`` of ``groups`` (one group id per instance; None: None),
    refused before any work, naming it: another length, a ragged list, a missing id (NaN,
    None), an id that is not hashable (a dict, a list), or a single group (nothing to
    resample). Ids are told apart as Python tells them apart: ``1`` and ``"1"`` are two
    groups (NumPy reads a list of both as the strings ``"1"``)."""
    if groups is None:
        return None
    codes, n_groups = group_codes(groups, n_samples)
    if n_groups < 2:
        raise ValueError(f"{owner} resamples whole groups, but groups holds "
                         f"{n_groups} group{'s' if n_groups != 1 else ''}: give at least 2 "
                         "groups, or leave groups=None to resample the instances.")
    return codes, n_groups


def group_codes(groups, n_samples):
    """``(codes, n_groups)``: the code of each instance's group, ``groups`` refused,
    naming it, where it has another length, is ragged, misses an id (NaN, None) or holds
    one that is not hashable; ids told apart as Python tells them apart."""
    values = _group_ids(groups)
    if values.ndim != 1 or len(values) != n_samples:
        raise ValueError(f"groups must hold one group id per instance, {n_samples} in all; "
                         f"got an array of shape {values.shape}.")
    missing = np.zeros(n_samples, dtype=bool)
    if values.dtype.kind in "fc":
        missing = np.isnan(values)
    elif values.dtype == object:
        missing = np.array([value is None or (isinstance(value, float) and value != value)
                            for value in values], dtype=bool)
    if missing.any():
        raise ValueError(f"groups has missing ids (NaN or None) at rows "
                         f"{np.flatnonzero(missing)[:5].tolist()}; give every instance a "
                         "group.")
    try:
        _, codes = np.unique(values, return_inverse=True)
    except TypeError:  # ids of unorderable types: numbered by first appearance
        codes = _codes_by_appearance(values.tolist())
    codes = codes.reshape(-1).astype(np.intp)
    return codes, int(codes.max()) + 1 if n_samples else 0


def _group_ids(groups):
    """``groups`` as a NumPy array: NumPy's reading, except for a list that NumPy reads as
    strings while it holds numbers too (``[1, "1"]``), kept as the objects given."""
    try:
        values = np.asarray(groups)
    except ValueError:  # NumPy refuses ragged nested lists
        raise ValueError("groups must be a 1-D list of group ids, one per instance; it holds "
                         "sequences of different lengths (a ragged list).") from None
    if values.dtype.kind in "US" and values.ndim == 1 and not hasattr(groups, "dtype"):
        given = list(groups)
        if not all(isinstance(value, (str, bytes, np.str_, np.bytes_)) for value in given):
            values = np.empty(len(given), dtype=object)
            values[:] = given
    return values


def _codes_by_appearance(ids):
    """The code of each id, numbered in the order the ids first appear; ``TypeError`` naming
    ``groups`` for an id that is not hashable."""
    seen = {}
    try:
        return np.array([seen.setdefault(value, len(seen)) for value in ids], dtype=np.intp)
    except TypeError:
        row, value = next((row, value) for row, value in enumerate(ids)
                          if not _hashable(value))
        raise TypeError(f"groups holds a {type(value).__name__} at row {row} ({value!r:.60}), "
                        "which cannot be a group id: ids must be hashable (numbers or strings); "
                        "give each instance its group's number or name.") from None


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def group_weights(rng, groups, n_resamples, bayesian, entries=0, owner=None, n_jobs=None):
    """:func:`instance_weights` of whole groups (``groups``: :func:`check_groups`'s
    ``(codes, n_groups)``): the groups are drawn (or weighted) as units and each instance
    takes its group's weight; batches as :func:`instance_weights`'s over the instances."""
    codes, n_groups = groups
    batch = _batch(len(codes), n_resamples, entries, owner)
    draw = _dirichlet(n_groups) if bayesian else _counts(n_groups)
    for drawn in _draw_rows(rng, n_groups, n_resamples, batch, draw, n_jobs, reuse=True):
        yield drawn[:, codes]  # a new array: the groups' draws are done with


def leave_out_weights(groups, n_samples, entries, owner, where=None, dtype=np.float64):
    """Blocks of instance weights, one row per group of ``groups`` (arrays of instance
    indices): 0 on the group's instances, 1 elsewhere (the jackknife's leave-group-out
    resamples), blocks within the budget where each row gives a matrix of ``entries``
    cells. ``where``: each instance's column (the grouped products' order), else its index.
    ``dtype``: ``uint8`` for :meth:`GroupedRows.matrices` (an eighth of the memory, the
    same products)."""
    side = int(round(entries ** 0.5))
    step = resample_block(owner, len(groups), entries, f"a matrix of {side} x {side} cells")
    for start in range(0, len(groups), step):
        block = groups[start:start + step]
        weights = np.ones((len(block), n_samples), dtype=dtype)
        for row, members in enumerate(block):
            weights[row, members if where is None else where[members]] = 0.0
        yield weights


def swap_indicators(rng, n_samples, n_resamples, entries=0, owner=None, n_jobs=None,
                    reuse=False):
    """Batches of rows of 0/1 indicators, 64 MiB at most each: which instances of a paired
    comparison swap their two predictions (each with probability 1/2); batches, streams
    and ``reuse`` as in :func:`instance_weights`."""
    batch = _batch(n_samples, n_resamples, entries, owner)
    yield from _draw_rows(rng, n_samples, n_resamples, batch, _coin_flips(n_samples), n_jobs,
                          reuse)


def group_swap_indicators(rng, groups, n_resamples, entries=0, owner=None, n_jobs=None):
    """:func:`swap_indicators` of whole groups: the instances of a group swap together."""
    codes, n_groups = groups
    batch = _batch(len(codes), n_resamples, entries, owner)
    for drawn in _draw_rows(rng, n_groups, n_resamples, batch, _coin_flips(n_groups),
                            n_jobs, reuse=True):
        yield drawn[:, codes]


def batches_terms(kind, y_true, y_pred):
    """Whether :func:`resampled_matrices` builds ``kind`` over these targets (in-memory
    targets of NumPy, scipy.sparse, pandas, lists or another array library, read on the
    host by :func:`~.array_api.on_the_host`, and a kind written as terms)."""
    return kind.terms is not None and not is_dask_collection(y_true, y_pred)


def resampled_matrices(kind, params, y_true, y_pred, sample_weight, weights, owner,
                       column_labels=None, instances=None):
    """The full matrices of ``kind`` (with ``params``) under each row of instance
    ``weights`` (times ``sample_weight``), shape ``(n_weights, width, width)``; the block's
    dense outer products take at most 32 MiB. Targets of another array library are read
    on the host (:func:`~.array_api.on_the_host`). ``instances``: the validated instances
    the data's matrix was built from (``confusions(..., with_instances=True)``), whose
    terms are read as they are, the targets not validated again."""
    if instances is None:
        instances = _host_instances(kind, params, y_true, y_pred, sample_weight,
                                    column_labels)
    targets = instances.targets
    n_classes, has_none = instances.n_classes, instances.has_none
    width = n_classes + has_none
    # the callers' blocks (instance_weights) fit the budget: this guards a new caller
    check_result_size(owner, (len(weights), width, width),
                      f"a block of {len(weights)} resampled matrices of {width} x {width} "
                      "classes")
    # Products of _PRODUCT_ROWS resamples each (the last padded with zeros): a BLAS
    # product's rounding may depend on its shape, and a matrix must not depend on the block.
    n_weights = len(weights)
    padded = -(-n_weights // _PRODUCT_ROWS) * _PRODUCT_ROWS
    if padded > n_weights:
        weights = np.concatenate([weights, np.zeros((padded - n_weights, weights.shape[1]))])
    result = np.zeros((padded, n_classes + 1, n_classes + 1))
    terms = kind.terms(params)
    step = max(1, _OUTER_ENTRIES // (n_classes * n_classes))
    for start in range(0, targets.n_samples, step):
        rows = slice(start, min(targets.n_samples, start + step))
        arguments, _ = instances.read(rows)
        parts = terms(*arguments)
        for first in range(0, padded, _PRODUCT_ROWS):
            block = slice(first, first + _PRODUCT_ROWS)
            batched_term_sums(parts, np.ascontiguousarray(weights[block, rows]),
                              result[block])
    result = result[:n_weights]
    return result if has_none else result[:, :n_classes, :n_classes]


class GroupedRows:
    """The resampled matrices of targets whose every instance adds to one row of the
    matrix only: 1-D labels beside scores (a classifier's probabilities), where the
    instance of true class ``c`` adds its (weighted) plan row to row ``c``.

    The instances' rows are kept sorted by that row (``order``, ``bounds``), so that the
    matrices of ``B`` resamples are grouped products: for each row ``c``, the ``(B, n_c)``
    resample weights of its instances times their ``(n_c, width)`` rows, one matrix
    product per row of the matrix, ``B * n * width`` multiply-adds in all (the
    per-instance outer products of :func:`resampled_matrices` take ``C`` times as many).
    """

    def __init__(self, order, bounds, rows, n_classes, has_none):
        # bounds[c]: the (start, stop) of row c's instances in ``order``
        self.order, self.bounds, self.rows = order, bounds, rows
        self.n_classes, self.has_none = n_classes, has_none
        self._kept = None  # the matrices' buffer that matrices(reuse=True) writes over

    def matrices(self, weights, presorted=False, n_jobs=None, reuse=False):
        """The full matrices ``(n_weights, width, width)`` under each row of instance
        ``weights`` (before sample_weight, which the rows hold); ``presorted``: the
        columns of ``weights`` are already the instances in :attr:`order` (an exchangeable
        draw, such as the bootstrap's, is as good in any order).

        Every product has the same shape (``_PRODUCT_ROWS`` resamples; the last rows are
        padded with zeros) and runs on one BLAS thread, the rows of the matrix split among
        ``n_jobs`` threads: each matrix is the same whatever the batches and the threads.
        ``uint8`` weights (the compact counts of :func:`instance_weights`) are read as
        float64 a product at a time, into a buffer in cache: the same products.

        ``reuse``: the matrices are written into one buffer kept from call to call (the
        next call with ``reuse`` overwrites them), for a caller done with them when it
        asks for the next. A block of matrices is tens of MiB: new memory each call is
        pages the system faults in and zeroes, a third of the products' time."""
        weights = np.asarray(weights)
        compact = weights.dtype == np.uint8
        if not compact:
            weights = weights.astype(float, copy=False)
        if not presorted:
            weights = np.take(weights, self.order, axis=1)
        width, n_weights = self.rows.shape[1], len(weights)
        padded = -(-n_weights // _PRODUCT_ROWS) * _PRODUCT_ROWS
        if reuse and self._kept is not None and len(self._kept) >= padded:
            # rows of no instance stay zero (never written), every other cell is written
            result = self._kept[:padded]
        else:
            result = np.zeros((padded, width, width))
            if reuse:
                self._kept = result
        whole = n_weights - n_weights % _PRODUCT_ROWS
        tail = None
        if whole < n_weights:  # the last rows, padded with zeros: one product's shape
            tail = np.zeros((_PRODUCT_ROWS, weights.shape[1]), dtype=weights.dtype)
            tail[:n_weights - whole] = weights[whole:]
        sizes = np.diff(self.bounds, axis=1)[:, 0]
        rows = [row for row in range(len(sizes)) if sizes[row] > 0]

        def products(part):
            # a stack of products of _PRODUCT_ROWS resamples each is one call (NumPy
            # calls BLAS once a product, each of the same shape), up to _STACK_ENTRIES
            # weights read at a time (as float64, into a buffer in cache, where compact)
            # The products are written into a contiguous block, then copied into their
            # row of the matrices: BLAS writing them in place, one row of C every
            # width * width values, took about half as long again (the same sums).
            largest = int(max(sizes[part])) if len(part) else 0
            stack = max(1, _STACK_ENTRIES // max(1, _PRODUCT_ROWS * largest))
            buffer = np.empty(stack * _PRODUCT_ROWS * largest if compact else 0)
            block = np.empty((stack, _PRODUCT_ROWS, width))
            for row in part:
                start, stop = self.bounds[row]
                size, instances = stop - start, self.rows[start:stop]
                first = 0
                while first < padded:
                    if first >= whole:  # the padded last product
                        last, given = padded, tail[:, start:stop]
                    else:
                        last = min(whole, first + stack * _PRODUCT_ROWS)
                        given = weights[first:last, start:stop]
                    if compact:
                        read = buffer[:(last - first) * size].reshape(last - first, size)
                        np.copyto(read, given)
                        given = read
                    count = (last - first) // _PRODUCT_ROWS
                    np.matmul(given.reshape(count, _PRODUCT_ROWS, size), instances,
                              out=block[:count])
                    result[first:last, row, :] = block[:count].reshape(-1, width)
                    first = last

        # the rows of the matrix in parts of about equal work, one a thread
        threads = threads_for(n_jobs, len(rows))
        if padded * int(sizes.sum()) * width < _THREADED_PRODUCTS:
            threads = 1
        cumulative = np.cumsum(sizes[rows]) if rows else np.zeros(0)
        cuts = np.searchsorted(cumulative, cumulative[-1] * np.arange(1, threads) / threads) \
            if rows else []
        parts = [part for part in np.split(np.asarray(rows, dtype=np.intp), cuts) if len(part)]
        with one_blas_thread():
            if len(parts) <= 1:
                for part in parts:
                    products(part)
            else:
                list(shared_pool(len(parts)).map(products, parts))
        return result[:n_weights]


class WeightedProducts:
    """The resampled matrices of dense targets with no "none" part (soft labels on both
    sides): each instance's plan is ``diag(d_i) + outer(a_i, e_i)``, so the matrix under
    instance weights ``w`` is ``diag(w @ D) + (A * w)^T @ E``: one ``(C x n) @ (n x C)``
    product a resample (the floor of the resampling), instead of the ``(B, n) @ (n, C * C)``
    products of the per-instance outer products, whose ``C * C`` columns are formed anew
    for every block of resamples."""

    def __init__(self, diagonal, left, right, has_none):
        self.diagonal, self.left, self.right = diagonal, left, right
        self.order = np.arange(len(left))
        self.has_none = has_none

    def matrices(self, weights, presorted=False, n_jobs=None, reuse=False):
        """The matrices under each row of ``weights``: for each resample, the product
        ``(A * w)^T @ E`` over blocks of ``_SOFT_ENTRIES`` entries of the instances, each
        block scaled in a reused buffer (in cache) just before its product, the blocks'
        products added in order. The resamples are split among ``n_jobs`` threads, each
        product on one BLAS thread; a thread goes through the blocks once for all its
        resamples (a block is read from memory once, not once a resample). The same
        numbers whatever the batches and the threads. ``reuse`` is accepted as
        :meth:`GroupedRows.matrices` takes it; a new array each call (a resample's own
        product takes far longer than its matrix's pages)."""
        weights = np.asarray(weights, dtype=float)
        n_samples, n_classes = self.left.shape
        width = n_classes + self.has_none
        result = np.zeros((len(weights), width, width))
        step = max(1, _SOFT_ENTRIES // n_classes)
        blocks = [slice(start, min(n_samples, start + step))
                  for start in range(0, n_samples, step)]
        diagonal = np.arange(n_classes)

        def resamples(rows):
            scaled = np.empty((min(step, n_samples), n_classes))
            product = np.empty((n_classes, n_classes))
            sums = np.zeros((len(rows), n_classes))
            for block in blocks:
                left, right = self.left[block], self.right[block]
                part = scaled[:block.stop - block.start]
                for index, row in enumerate(rows):
                    weight = weights[row, block]
                    np.multiply(left, weight[:, None], out=part)
                    np.matmul(part.T, right, out=product)
                    result[row, :n_classes, :n_classes] += product
                    sums[index] += weight @ self.diagonal[block]
            result[rows[:, None], diagonal, diagonal] += sums

        threads = threads_for(n_jobs, len(weights))
        if len(weights) * n_samples * n_classes * n_classes < _THREADED_PRODUCTS:
            threads = 1
        parts = np.array_split(np.arange(len(weights)), threads)
        with one_blas_thread():
            if threads <= 1:
                resamples(parts[0])
            else:
                list(shared_pool(threads).map(resamples, parts))
        return result


def _dense_products(instances, terms, n_samples, n_classes):
    """The :class:`WeightedProducts` of dense terms with no "none" part, or None."""
    diagonal = np.empty((n_samples, n_classes))
    left, right = np.empty((n_samples, n_classes)), np.empty((n_samples, n_classes))
    step = max(1, _WEIGHT_ENTRIES // n_classes)
    for start in range(0, n_samples, step):
        block = slice(start, min(n_samples, start + step))
        arguments, _ = instances.read(block)
        parts = terms(*arguments)
        common, weights = parts.diagonal
        deficit, scale, excess = parts.off_diagonal
        if any(sp.issparse(part) or not isinstance(part, np.ndarray)
               for part in (common, deficit, excess)) or \
                any(np.any(np.asarray(scales)) for scales in (
                    parts.none_row[1], parts.none_column[1], parts.corner)):
            return None
        np.multiply(common, np.asarray(weights, dtype=float)[:, None], out=diagonal[block])
        np.multiply(deficit, np.asarray(scale, dtype=float)[:, None], out=left[block])
        right[block] = excess
    return WeightedProducts(diagonal, left, right, instances.has_none)


def _host_instances(kind, params, y_true, y_pred, sample_weight, column_labels):
    """The validated instances of ``kind`` over the targets read on the host."""
    y_true, y_pred, sample_weight, params, column_labels = on_the_host(
        y_true, y_pred, sample_weight, params, column_labels)
    targets = check_targets(y_true, y_pred, sample_weight=sample_weight,
                            column_labels=column_labels)
    return kind.instances(targets, {**kind.parameters, **params})


def grouped_rows(kind, params, y_true, y_pred, sample_weight, column_labels=None,
                 instances=None):
    """The :class:`GroupedRows` of the targets (:class:`WeightedProducts` of dense 2-D
    targets), or None where some instance adds outside one row of the matrix (2-D labels
    with a "none" class, sparse targets) or the kind is not written as terms.

    Read from the kind's own per-instance terms (:class:`~._core.terms.Terms`): a row of
    an instance is its diagonal, off-diagonal and "none" parts, so the matrices are those
    of :func:`resampled_matrices` to rounding. Targets of another array library are read on
    the host (:func:`~.array_api.on_the_host`): the same rows, order and matrices as the
    same values in NumPy. ``instances``: as in :func:`resampled_matrices`."""
    if not batches_terms(kind, y_true, y_pred):
        return None
    if instances is None:
        y_true, y_pred, sample_weight, params, column_labels = on_the_host(
            y_true, y_pred, sample_weight, params, column_labels)
    one_hot = any(np.ndim(y) == 1 or np.shape(y)[1] == 1 for y in (y_true, y_pred))
    if not one_hot and any(sp.issparse(y) for y in (y_true, y_pred)):
        return None
    if instances is None:
        instances = _host_instances(kind, params, y_true, y_pred, sample_weight,
                                    column_labels)
    targets = instances.targets
    n_classes, has_none = instances.n_classes, instances.has_none
    # The rows kept are the size of the data (three copies for soft labels), whatever the
    # budget of results: the same path, hence the same numbers, under any budget.
    width, n_samples = n_classes + has_none, targets.n_samples
    if not one_hot:  # dense 2-D targets: one product a resample
        return _dense_products(instances, kind.terms(params), n_samples, n_classes)
    rows = np.zeros((n_samples, width))
    owners = np.empty(n_samples, dtype=np.intp)
    terms = kind.terms(params)
    step = max(1, _WEIGHT_ENTRIES // width)
    for start in range(0, n_samples, step):
        block = slice(start, min(n_samples, start + step))
        arguments, _ = instances.read(block)
        if not _one_row_terms(terms(*arguments), rows[block], owners[block], n_classes):
            return None
    # Sorted by the rank of the row's class among the sorted labels, not by its column:
    # the same draws reach the same instances whatever order labels= gives the columns.
    try:
        rank = np.argsort(np.argsort(np.asarray(targets.classes), kind="stable"),
                          kind="stable")
    except TypeError:  # unorderable labels: their columns' order
        rank = np.arange(n_classes)
    keys = rank[owners]
    order = np.argsort(keys, kind="stable")
    starts = np.searchsorted(keys[order], rank)
    bounds = np.stack([starts, np.searchsorted(keys[order], rank, side="right")], axis=1)
    return GroupedRows(order, bounds, rows[order], n_classes, has_none)


def _one_row_terms(terms, rows, owners, n_classes):
    """Write into ``rows`` (and ``owners``) the one row of the full matrix that each
    instance of ``terms`` adds to; False where an instance adds elsewhere."""
    common, weights = terms.diagonal
    left, scale, right = terms.off_diagonal
    column_rows, column_scale = terms.none_column
    row_rows, row_scale = terms.none_row
    one = np.arange(len(rows) + 1)
    parts = (common, left, column_rows)
    if not all(sp.issparse(part) and np.array_equal(sp.csr_array(part).indptr, one)
               for part in parts):
        return False
    common, left, column_rows = (sp.csr_array(part) for part in parts)
    if not (np.array_equal(common.indices, left.indices)
            and np.array_equal(column_rows.indices, left.indices)
            and not np.any(np.asarray(row_scale)) and not np.any(np.asarray(terms.corner))):
        return False
    owner = left.indices
    right = right.toarray() if sp.issparse(right) else right
    np.multiply(right, (left.data * np.asarray(scale, dtype=float))[:, None],
                out=rows[:, :n_classes])
    # rows is a block of whole rows of a C-contiguous array: its flat view indexes a cell
    rows.reshape(-1)[np.arange(len(rows)) * rows.shape[1] + owner] += \
        common.data * np.asarray(weights, dtype=float)
    if rows.shape[1] > n_classes:
        rows[:, n_classes] = column_rows.data * np.asarray(column_scale, dtype=float)
    owners[:] = owner
    return True


def label_cells(confusion, y_true, y_pred):
    """The cell of each instance of 1-D labels in the full matrix of ``confusion``."""
    classes = np.asarray(confusion.display_labels[:len(confusion.display_labels)
                                                  - confusion.has_none])
    order = np.argsort(classes, kind="stable")
    y_true, y_pred = on_the_host(y_true, y_pred)[:2]
    true, pred = (order[np.searchsorted(classes[order], np.asarray(y))]
                  for y in (y_true, y_pred))
    return true * confusion.matrix.shape[0] + pred


def cell_draws(matrix, n_samples, rng, n_resamples, owner):
    """Blocks of full matrices (flattened rows) of ``n_resamples`` bootstrap resamples of
    the ``n_samples`` instances of 1-D labels counted in ``matrix``: a multinomial draw over
    its nonzero cells, never the instances. The blocks stay within the budget (checked
    before the first draw); the draws are the same whatever the blocks."""
    counts = np.rint(matrix).astype(np.int64).ravel()
    cells = np.flatnonzero(counts)
    yield from full_blocks(matrix, n_resamples, owner, lambda size: rng.multinomial(
        n_samples, counts[cells] / n_samples, size=size), cells)


def full_blocks(matrix, n_resamples, owner, draw, cells):
    """Blocks of ``n_resamples`` full matrices (flattened rows) shaped as ``matrix``, zero
    but at ``cells``, where ``draw(size)`` gives ``size`` rows of values: the blocks take at
    most the budget (``owner`` refuses, before the first draw, a matrix above it)."""
    block = resample_block(owner, n_resamples, matrix.size,
                           f"a matrix of {matrix.shape[0]} x {matrix.shape[-1]} cells")
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        full = np.zeros((size, matrix.size))
        full[:, cells] = draw(size)
        yield full


def cell_matrices(cells, size, sample_weight, weights):
    """The full matrices (flattened rows of ``size`` cells) of 1-D labels whose instances
    fall in ``cells``, under each row of instance ``weights`` (times ``sample_weight``):
    each instance adds its weight to its own cell, one sparse product for all rows."""
    n_samples = len(cells)
    user = np.ones(n_samples) if sample_weight is None else sample_weight
    instances = sp.csr_array((user, cells, np.arange(n_samples + 1)),
                             shape=(n_samples, size))
    return np.asarray((instances.T @ weights.T).T)
