"""Probabilities against class labels, read once, and the bins calibration is measured in.

:func:`curves` gives the (confidence, outcome) pairs a target reads (``"binary"``,
``"top_label"``, ``"classwise"``) from the probabilities that
:func:`~.._core.probabilities.checked_probabilities` checked; :func:`binned` sums one of
them in bins in one compiled pass (``_core/_row_kernels.pyx``, the same sums in the same
order), or by ``np.searchsorted`` and ``np.bincount``, its NumPy reference, where the
kernels are not built; the equal-mass edges are ``np.percentile``'s, found by a histogram.

Bins are scikit-learn's (:func:`sklearn.calibration.calibration_curve`): equal width on
[0, 1] or at the quantiles of the probabilities, an instance on an inner edge in the bin
below it (bins ``[0, e_1], (e_1, e_2], ...``), empty bins dropped.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core.kernels import compiled_row_kernels
from .._core.user_warnings import warn

STRATEGIES = ("uniform", "quantile")


def curves(data, target):
    """``[(class_label, confidence, outcome)]``: the curves ``target`` reads from
    :class:`~.._core.probabilities.Probabilities` ``data``, each made when read.

    - ``"binary"``: the positive class's probability and whether the instance is of it;
    - ``"top_label"``: the largest probability and whether its class is the instance's
      (a tie goes to the first class, as ``argmax``); class label None;
    - ``"classwise"``: each class's probability against the class, one vs rest.
    ``outcome`` is boolean; no (n, n_classes) array is copied."""
    codes, prob = data.codes, data.prob
    if data.one_dimensional:
        truth = codes == data.positive
        if target == "binary":
            return [(data.classes[data.positive], prob, truth)]
        if target == "top_label":
            return [(None, np.maximum(prob, 1 - prob), (prob > 1 - prob) == truth)]
        if len(data.classes) < 2:  # was an IndexError: no negative class to name
            raise ValueError(
                f"y_true holds one class, {data.classes.tolist()[0]!r}, the positive one, and "
                f"target={target!r} reads the other class too: pass labels= with both "
                "classes (a classifier's classes_), the positive one last.")
        negative = 1 - data.positive
        curves_ = [(data.classes[negative], 1 - prob, ~truth),
                   (data.classes[data.positive], prob, truth)]
        return curves_ if negative == 0 else curves_[::-1]
    if target == "binary":
        if prob.shape[1] != 2:
            raise ValueError(f"target='binary' reads the probability of one class of two, "
                             f"but y_prob has {prob.shape[1]} columns; use "
                             "target='top_label' or target='classwise'.")
        return [(data.classes[data.positive], data.column(data.positive),
                 codes == data.positive)]
    if target == "top_label":
        predicted, confidence = data.top_label()  # one read, in row chunks
        return [(None, confidence, codes == predicted)]
    return _Classwise(data)


class _Classwise(Sequence):
    """The one-vs-rest curve of each class, made when read: the columns are copied eight
    at a time (64 bytes of a float64 row, one cache line), contiguous, so that each line
    of the (n, n_classes) probabilities is read once, not once per column; never
    ``n_classes`` columns at once."""

    GROUP = 8

    def __init__(self, data):
        self.data, self._group, self._columns = data, None, None

    def __len__(self):
        return self.data.prob.shape[1]

    def __getitem__(self, k):
        if not 0 <= k < len(self):
            raise IndexError(k)
        data, group = self.data, k // self.GROUP
        if group != self._group:
            start = group * self.GROUP
            self._columns = data.columns(start, min(start + self.GROUP, len(self)))
            self._group = group
        return data.classes[k], self._columns[k % self.GROUP], data.codes == k


def bin_edges(confidence, n_bins, strategy):
    """The ``n_bins + 1`` edges: equal width on [0, 1], or the quantiles of the
    instances' probabilities (``np.percentile``, as scikit-learn's ``calibration_curve``:
    instances, not weights, so that the edges are the same whatever the weights)."""
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    q = np.linspace(0, 100, n_bins + 1)
    kernel = compiled_row_kernels()
    if kernel is not None:
        edges = _percentiles_by_histogram(kernel, confidence, q)
        if edges is not None:
            return edges
    return np.percentile(confidence, q)




def _percentiles_by_histogram(kernel, values, q):
    """``np.percentile(values, q)`` (its linear method, the same floats) of ``values`` in
    [0, 1], from the order statistics found by a histogram of the values' keys (their
    exponent and first mantissa bits, ``kernel.KEY_SHIFT``: 1 MiB of counts; one pass),
    the values of the keys that hold them gathered (a second) and selected: no partition
    of all the values (what ``np.percentile`` costs, 2x a read of the top labels'
    probabilities). Keys of the values' top bits spread the probabilities near 0 of a
    one-vs-rest column over their octaves, where keys of equal width crowded them into
    the first. None where the values are not float64 in [0, 1] or too many fall in the
    keys read (then ``np.percentile``)."""
    values = np.asarray(values)
    n = values.size
    if values.dtype != np.float64 or values.ndim != 1 or n < 4096:  # few: np.percentile
        return None
    values = np.ascontiguousarray(values)
    # NumPy's own steps (numpy.lib._function_base_impl: the linear method's virtual
    # index, _get_indexes, _get_gamma, _lerp), the same operations in order
    virtual = (n - 1) * np.true_divide(q, 100)
    previous = np.floor(virtual)
    following = previous + 1
    above, below = virtual >= n - 1, virtual < 0
    previous[above] = following[above] = -1
    previous[below] = following[below] = 0
    previous, following = previous.astype(np.intp), following.astype(np.intp)
    ranks = np.unique(np.concatenate([previous, following]) % n)
    n_keys = kernel.N_KEYS
    counts = np.zeros(n_keys, dtype=np.int64)
    kernel.value_histogram(values, counts)
    ends = np.cumsum(counts)
    keys = np.searchsorted(ends, ranks, side="right")
    wanted = np.zeros(n_keys, dtype=np.uint8)
    wanted[keys] = 1
    held = np.flatnonzero(wanted)
    size = int(counts[held].sum())
    if size > n // 4:  # crowded keys (many equal values): NumPy's partition
        return None
    gathered = np.empty(size)
    if kernel.gather_keys(values, wanted, gathered) != size:
        return None
    # rank r of key k: at (r - first rank of k) after the values of the keys before k
    offsets = np.concatenate([[0], np.cumsum(counts[held])[:-1]])
    position = np.empty(n_keys, dtype=np.int64)
    position[held] = offsets - (ends[held] - counts[held])
    local = ranks + position[keys]
    gathered.partition(local)
    order = dict(zip(ranks.tolist(), gathered[local].tolist()))
    a = np.array([order[r % n] for r in previous.tolist()])
    b = np.array([order[r % n] for r in following.tolist()])
    gamma = np.asanyarray(virtual - previous, dtype=virtual.dtype)
    diff_b_a = b - a
    result = np.add(a, diff_b_a * gamma)
    np.subtract(b, diff_b_a * (1 - gamma), out=result, where=gamma >= 0.5)
    return result


@cache
def lowest_of_keys(kernel):
    """The lowest value of each key of the compiled ``value_histogram``: the double whose
    bits are the key shifted left by ``kernel.KEY_SHIFT`` (0.0 for the first key); read
    only, made once."""
    keys = np.arange(kernel.N_KEYS, dtype=np.uint64) << np.uint64(kernel.KEY_SHIFT)
    lowest = keys.view(np.float64)
    lowest.flags.writeable = False
    return lowest


@dataclass(frozen=True)
class Bins:
    """The sums of one curve in its non-empty bins (of positive weight).

    ``index``: the position of each bin among the ``n_bins``; ``weight``, ``confidence``,
    ``outcome``: the total weight and the weighted sums of the probabilities and outcomes
    (the sums in the units of ``unit_weight``, the bins' weights so scaled, where given);
    ``effective``: Kish's effective count of each bin, ``sum(w)^2 / sum(w^2)`` (its count
    without weights); ``count``: the instances of positive weight; ``ids``: each
    instance's bin among the ``n_bins``."""

    index: np.ndarray
    weight: np.ndarray
    confidence: np.ndarray
    outcome: np.ndarray
    effective: np.ndarray
    count: np.ndarray
    ids: np.ndarray
    edges: np.ndarray
    unit_weight: object = None

    @property
    def mean_confidence(self):
        return self.confidence / (self.weight if self.unit_weight is None else
                                  self.unit_weight)

    @property
    def frequency(self):
        return self.outcome / (self.weight if self.unit_weight is None else self.unit_weight)

    @property
    def of_instance(self):
        """Each instance's position among the kept bins (-1 where its bin is dropped)."""
        position = np.full(self.edges.size - 1, -1, dtype=np.intp)
        position[self.index] = np.arange(self.index.size)
        return position[self.ids]


def bin_ids(confidence, edges, strategy):
    """Each instance's bin, ``np.searchsorted(edges[1:-1], confidence)`` (an instance on
    an inner edge in the bin below it). Equal-width bins: ``floor(n_bins * p)`` corrected
    by one where it differs from the search in the last bit, a few passes without a
    search."""
    inner = edges[1:-1]
    if strategy != "uniform" or inner.size == 0:
        return np.searchsorted(inner, confidence)
    n_bins = edges.size - 1
    ids = np.multiply(confidence, n_bins).astype(np.intp)
    np.clip(ids, 0, n_bins - 1, out=ids)
    padded = np.concatenate([[-np.inf], inner, [np.inf]])
    # ids - #(inner edges among the ids below it at or above p) + #(edge above it below p)
    below, above = padded[ids], padded[ids + 1]
    ids -= below >= confidence
    ids += above < confidence
    return ids


def binned(confidence, outcome, sample_weight, n_bins, strategy):
    """The :class:`Bins` of one curve."""
    edges = bin_edges(confidence, n_bins, strategy)
    kernel = compiled_row_kernels()
    if kernel is not None:
        bins = _binned_compiled(kernel, confidence, outcome, sample_weight, n_bins,
                                strategy, edges)
        if bins is not None:
            return bins
    ids = bin_ids(confidence, edges, strategy)
    if sample_weight is None:
        # counts and outcomes in one count of (bin, outcome) pairs
        pairs = np.bincount(2 * ids + outcome, minlength=2 * n_bins).reshape(n_bins, 2)
        weight = pairs.sum(axis=1).astype(np.float64)
        out = pairs[:, 1].astype(np.float64)
        count = weight
        conf = np.bincount(ids, weights=confidence, minlength=n_bins)
        squares = unit_sums = None  # no weights: no units
    else:
        w = sample_weight
        weight = np.bincount(ids, weights=w, minlength=n_bins)
        count = np.bincount(ids, weights=(w > 0).astype(np.float64), minlength=n_bins)
        largest = w.max(initial=0.0)
        units = w / largest if largest > 0 else w  # no overflow nor underflow of squares
        if largest > 0 and units.min(where=w > 0, initial=1.0) < 2.0 ** -900:
            # Weights 1e-271 times the largest and less (subnormal ones beside 1): each
            # bin's own largest weight is its unit, else their products with the
            # probabilities underflow (bins of mean 0, outside their edges; bands of NaN)
            own = np.zeros(n_bins)
            np.maximum.at(own, ids, w)
            units = w / np.where(own > 0, own, 1.0)[ids]
        conf = np.bincount(ids, weights=units * confidence, minlength=n_bins)
        out = np.bincount(ids, weights=np.where(outcome, units, 0.0), minlength=n_bins)
        squares = np.bincount(ids, weights=units * units, minlength=n_bins)
        unit_sums = np.bincount(ids, weights=units, minlength=n_bins)
    return _kept_bins(ids, edges, weight, conf, out, count, squares, unit_sums,
                      sample_weight is not None)


def _binned_compiled(kernel, confidence, outcome, sample_weight, n_bins, strategy, edges):
    """The :class:`Bins` of :func:`binned` by the compiled ``bin_sums`` (one pass over
    the instances for the ids and every per-bin sum, in the order and so the rounding of
    ``np.bincount``); None where the weights need their per-bin units (then NumPy)."""
    confidence = np.ascontiguousarray(confidence, dtype=np.float64)
    outcome = np.ascontiguousarray(outcome, dtype=bool).view(np.uint8)
    n = confidence.shape[0]
    ids = np.empty(n, dtype=np.intp)
    weight, conf, out, count, squares, unit_sums = np.zeros((6, n_bins))
    units = w = np.empty(0)
    if sample_weight is not None:
        w = np.ascontiguousarray(sample_weight, dtype=np.float64)
        largest = w.max(initial=0.0)
        units = w / largest if largest > 0 else w
        if largest > 0 and units.min(where=w > 0, initial=1.0) < 2.0 ** -900:
            return None  # each bin's own unit: binned's NumPy path
    inner = np.ascontiguousarray(edges[1:-1], dtype=np.float64)
    start = np.empty(0, dtype=np.intp)
    if strategy != "uniform":  # the inner edges below each key's lowest value: each
        # edge counted from the first key whose lowest value exceeds it on
        first = np.searchsorted(lowest_of_keys(kernel), inner, side="right")
        start = np.cumsum(np.bincount(first, minlength=kernel.N_KEYS + 1)[:kernel.N_KEYS]
                          ).astype(np.intp, copy=False)
    kernel.bin_sums(confidence, outcome, units, w, inner, strategy == "uniform", start, ids,
                    weight, conf, out, count, squares, unit_sums)
    return _kept_bins(ids, edges, weight, conf, out, count, squares, unit_sums,
                      sample_weight is not None)


def classwise_binned(data, n_bins, strategy):
    """The :class:`Bins` of every class's one-vs-rest curve (``target="classwise"``) of
    2-D :class:`~.._core.probabilities.Probabilities` ``data``, in one compiled read of
    the (n, n_classes) probabilities (``classwise_sums``: the same sums, in the order of
    :func:`binned`'s on each column); their ``ids`` None (not kept: n_classes arrays of
    n). None where that kernel does not apply (not built, equal-mass bins, weights, a
    1-D or other-dtype ``prob``): then :func:`curves` and :func:`binned`, column by
    column."""
    kernel = compiled_row_kernels()
    prob = data.prob
    if kernel is None or strategy != "uniform" or data.sample_weight is not None \
            or data.one_dimensional or data.codes is None \
            or prob.dtype not in (np.float32, np.float64):
        return None
    n_classes = prob.shape[1]
    edges = bin_edges(None, n_bins, strategy)
    weight, conf, out = np.zeros((3, n_classes, n_bins))
    norms = np.empty(0) if data.norms is None else np.ascontiguousarray(data.norms,
                                                                      dtype=np.float64)
    kernel.classwise_sums(prob, np.ascontiguousarray(data.codes, dtype=np.intp),
                          np.ascontiguousarray(edges[1:-1]), norms, weight, conf, out)
    return [_kept_bins(None, edges, weight[c], conf[c], out[c], weight[c], None, None,
                       False) for c in range(n_classes)]


def _kept_bins(ids, edges, weight, conf, out, count, squares, unit_sums, weighted):
    """The :class:`Bins` of the bins holding weight, from the per-bin sums (the NumPy and
    the compiled paths alike): the effective number of instances is Kish's
    ``(sum u)^2 / sum u^2`` of the weights' units, the weight itself without weights."""
    if weighted:
        with np.errstate(invalid="ignore", divide="ignore"):
            effective = np.where(squares > 0, unit_sums ** 2 / np.where(squares > 0, squares,
                                                                        1.0), 0.0)
    else:
        effective = weight
    kept = np.flatnonzero(weight > 0)
    return Bins(kept, weight[kept], conf[kept], out[kept], effective[kept], count[kept],
                ids, edges, unit_sums[kept] if weighted else None)


def warn_no_weight(owner):
    """The warning of a measure undefined because every weight is zero."""
    warn(f"{owner}: sample_weight is zero everywhere, so no bin holds any weight and the "
         "measure is undefined; it is NaN.", UndefinedMetricWarning)
