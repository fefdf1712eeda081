"""The transport matrices of array-API targets summed on their device, read back once.

Targets of another array library (a GPU tensor, CuPy, ``array_api_strict``) are summed in
their namespace. The reference route (:meth:`~.kinds.Instances.sum` over the plans of each
chunk) checks every chunk on the host, one synchronization per check; here the common
cases are summed with the matrices and the value checks kept on the device, accumulated
over the chunks, and read back in ONE transfer per call:

- labels beside scores (a classifier's ``predict_proba`` against its class labels): each
  instance's plan is its scores' row, times its weight over the row's mass, in its label's
  row (column for predicted labels), so the matrix is a segmented sum of the scaled rows by
  class (``index_add_`` on PyTorch, ``cupy.add.at`` on CuPy, a one-hot product
  elsewhere);
- 1-D labels on both sides: the weighted counts of the pairs of class codes (a
  ``bincount`` on PyTorch and CuPy, a one-hot product elsewhere);
- dense soft (or indicator) rows on both sides, the TCM: the rows compared at the mass of
  ``y_true``, the deficit and the excess from one difference, then the diagonal and ONE
  product per chunk, in place where the library allows.

The checks (finite, non-negative, no empty row, masses and weights within the ranges the
plans are exact in, labels among the classes, and the row sums of probabilities) are
device reductions. Where one of them fails the whole call is summed again by the reference
route, which raises the error naming the row, handles the empty rows (``empty=``) or
normalizes the rows: the fast sums never decide an edge case themselves.

Chunks: as large as the device's memory comfortably allows on accelerators
(``ACCELERATOR_CHUNK_BYTES`` of the inputs a chunk reads: at N = 1,000,000 and C = 100 the
whole call is one chunk, a few dozen kernels in all, none waiting for the host), cache-sized on
the CPU. float32 rows are multiplied in float32 blocks of ``FLOAT32_PRODUCT_ROWS`` rows,
one batched product per chunk, the blocks summed in float64 (as NumPy's float32 chunks
are); the labels' codes are found once per call.
"""

import numpy as np

from .arrays import to_numpy
from .chunks import CHUNK_BYTES, chunk_rows
from .target_kinds import _SUM_TOLERANCE, warn_unless_probabilities

# Bytes the inputs of one chunk take on an accelerator: each chunk launches a few dozen
# kernels (microseconds each, from Python), and the device holds two or three temporaries
# of the chunk's size.
ACCELERATOR_CHUNK_BYTES = 1 << 31
# Rows of one float32 block of a product (at least 4 per class: the blocks' partial
# matrices take at most a quarter of the rows' memory): float32 sums within a block, float64
# across, as NumPy's float32 chunks.
FLOAT32_PRODUCT_ROWS = 1 << 10
# How PyTorch sums float64 score rows by class: "index_add" (the scaled rows scattered into
# their class's row, atomic adds on a GPU) or "sparse" (one CSR product of the classes'
# weighted one-hot rows with the scores, which reads the scores once and writes no scaled
# copy; measured 3x faster on the CPU; benchmarks/compare.py --gpu-only times both).
TORCH_SEGMENTED_SUM = "index_add"
# The statistics one chunk reads back.
_N_STATS = 9


def device_sums(instances, bounds, limits, tolerance):
    """``(sums, n_skipped)`` of :meth:`~.kinds.Instances.sum` for the TCM (or the SCM
    bounds, ``bounds``) of array-API targets, summed on their device; None where these
    targets take the reference route (soft SCM bounds, or a check failed).

    ``instances``: the transport instances (``targets``, ``weighting``,
    ``callable_weights``, ``chunk_size``, ``n_classes``); ``limits``: the
    ``(norm_limit, smallest, largest)`` ranges of the rows' dtype within which rows are
    compared at the mass of ``y_true`` (a dict by NumPy dtype); ``tolerance``: the deficit
    below which a plan is its diagonal, relative to the rows' mass.
    """
    targets = instances.targets
    xp, device = targets.space
    if targets.single_label:
        summer = _LabelPairs(instances, xp, device)
    elif len(targets.one_hot) == 1:
        summer = _LabelsBesideScores(instances, xp, device)
    elif not targets.one_hot and not bounds:
        summer = _SoftRows(instances, xp, device, limits, tolerance)
    else:
        return None
    with np.errstate(all="ignore"):  # NumPy-backed libraries: a failed check falls back
        matrix_parts = summer.run()
    if matrix_parts is None:
        return None
    diagonal, off_diagonal = matrix_parts
    n_classes = instances.n_classes
    zeros = np.zeros(n_classes)
    parts = (diagonal, off_diagonal, zeros, zeros, np.asarray(0.0))
    return list(parts * (2 if bounds else 1)), 0


def _library(xp, array):
    """``"torch"``, ``"cupy"`` or None (any other array-API library)."""
    import array_api_compat

    if array_api_compat.is_torch_array(array):
        return "torch"
    if array_api_compat.is_cupy_array(array):
        return "cupy"
    return None


def _on_cpu(device):
    return "cpu" in str(device).lower()


class _Summer:
    """The chunk loop of one call: device totals and checks, one read back."""

    def __init__(self, instances, xp, device):
        self.instances, self.targets, self.xp, self.device = (instances, instances.targets,
                                                              xp, device)
        self.n_classes = instances.n_classes
        self.library = _library(xp, self.targets.y_true if self.targets.y_true.ndim == 2
                                else self.targets.y_pred)
        self.stats = []  # one device vector of _N_STATS float64 per chunk

    def step(self, itemsize, n_columns):
        """Rows per chunk: the user's ``chunk_size``, else by the device's memory."""
        if self.instances.chunk_size is not None:
            return self.instances.chunk_size
        row_bytes = max(itemsize * max(n_columns, 1), 1)
        if _on_cpu(self.device):
            return chunk_rows(row_bytes, CHUNK_BYTES, 8 * self.n_classes ** 2,
                              self.targets.chunk_factor)
        return chunk_rows(row_bytes, ACCELERATOR_CHUNK_BYTES)

    def product(self, left, right):
        """``left.T @ right`` (rows of both summed) as float64: one product of float64
        rows; float32 rows in blocks of ``FLOAT32_PRODUCT_ROWS``, one batched product, the
        blocks' float32 sums added in float64."""
        xp = self.xp
        n_rows = left.shape[0]
        size = max(FLOAT32_PRODUCT_ROWS, 4 * max(left.shape[1], right.shape[1]))
        if left.dtype == xp.float64 or n_rows <= size:
            return xp.astype(xp.matmul(xp.matrix_transpose(left), right), xp.float64)
        head = n_rows - n_rows % size
        blocks = xp.matmul(
            xp.matrix_transpose(xp.reshape(left[:head, ...], (head // size, size, -1))),
            xp.reshape(right[:head, ...], (head // size, size, -1)))
        total = xp.sum(blocks, axis=0, dtype=xp.float64)
        if head < n_rows:
            total = total + xp.astype(xp.matmul(xp.matrix_transpose(left[head:, ...]),
                                                right[head:, ...]), xp.float64)
        return total

    def chunks(self, step):
        n_samples = self.targets.n_samples
        for start in range(0, n_samples, step):
            yield slice(start, min(start + step, n_samples))

    def weights(self, rows, norms):
        """``lambda`` times the sample weights of ``rows`` (None: all ones); ``norms``:
        ``{"true": ..., "pred": ...}`` row masses (a side absent has mass 1)."""
        instances = self.instances
        if instances.callable_weights is not None:
            weights = instances.callable_weights[rows]
        elif instances.weighting in ("true", "pred"):
            weights = norms.get(instances.weighting)
        else:
            weights = None
        sample_weight = self.targets.sample_weight
        if sample_weight is not None:
            weights = sample_weight[rows] if weights is None else weights * sample_weight[rows]
        return weights

    def add_stats(self, *values):
        xp = self.xp
        self.stats.append(xp.stack([xp.astype(xp.reshape(value, ()), xp.float64)
                                    for value in values]))

    def weight_range(self, weights):
        """The smallest positive and the largest weight (ones where there are none)."""
        xp = self.xp
        if weights is None:
            one = xp.asarray(1.0, dtype=xp.float64, device=self.device)
            return one, one
        positive = xp.where(weights > 0, weights,
                            xp.asarray(np.inf, dtype=xp.float64, device=self.device))
        return xp.min(positive), xp.max(weights)

    def read_back(self, *totals):
        """The totals and the checks of every chunk, in one transfer: NumPy arrays."""
        xp = self.xp
        flat = [xp.reshape(xp.astype(total, xp.float64), (-1,)) for total in totals]
        host = np.array(to_numpy(xp.concat(flat + self.stats)))  # writable (small)
        out, offset = [], 0
        for total in totals:
            size = int(np.prod(total.shape))
            out.append(host[offset:offset + size].reshape(tuple(total.shape)))
            offset += size
        return out, host[offset:].reshape(-1, _N_STATS)

    def codes(self, labels):
        """The column of each label among the classes (``class_values``, any order), and
        the number of labels that are not among them (a device scalar)."""
        xp = self.xp
        values = self.targets.class_values
        if values.dtype != labels.dtype:
            values = xp.astype(values, labels.dtype)
        order = xp.argsort(values)
        ordered = xp.take(values, order)
        if _has(xp, "searchsorted"):
            where = xp.searchsorted(ordered, labels)
        else:  # an API before 2023.12: the classes below each label, counted
            where = xp.sum(xp.astype(ordered[None, :] < labels[:, None], xp.int64), axis=1)
        last = xp.asarray(values.shape[0] - 1, dtype=where.dtype, device=self.device)
        where = xp.where(where <= last, where, last)
        unknown = xp.sum(xp.astype(xp.take(ordered, where) != labels, xp.int64))
        return xp.take(order, where), unknown


def _has(xp, name):
    """Whether the namespace has the function ``name`` of the 2023.12 standard to call
    (array-api-strict refuses one newer than the API version it was set to)."""
    return hasattr(xp, name) and getattr(xp, "__array_api_version__", "2023.12") >= "2023.12"


def _extreme(xp, a, b, order):
    """The smaller (``order`` "<") or larger (">") of two device scalars, NaN if either is
    (``minimum`` and ``maximum`` are in the standard from 2023.12; a comparison alone
    would drop a NaN, which the checks must see)."""
    first = (a < b) if order == "<" else (a > b)
    return xp.where(first | xp.isnan(a), a, b)


class _LabelPairs(_Summer):
    """1-D labels on both sides: the weighted counts of the pairs of class codes."""

    def run(self):
        xp, targets, n_classes = self.xp, self.targets, self.n_classes
        size = n_classes * n_classes
        total = xp.zeros(size, dtype=xp.float64, device=self.device)
        true, unknown_true = self.codes(targets.y_true)
        pred, unknown_pred = self.codes(targets.y_pred)
        all_pairs = true * n_classes + pred
        # One bincount of every pair on PyTorch and CuPy; one-hot products in chunks else.
        step = targets.n_samples if self.library and self.instances.chunk_size is None \
            else self.step(8, 2 * n_classes)
        for rows in self.chunks(step):
            pairs = all_pairs[rows]
            weights = self.weights(rows, {})
            if weights is not None:
                weights = xp.astype(weights, xp.float64)
            total = self.count(total, pairs, weights, size)
            low, high = self.weight_range(weights)
            self.add_stats(unknown_true + unknown_pred, low, high, *[low] * 6)
            unknown_true = unknown_pred = 0 * unknown_true  # counted once
        (total,), stats = self.read_back(total)
        if stats[:, 0].any():  # a label outside the classes: the reference route
            return None
        total = total.reshape(n_classes, n_classes)
        diagonal = np.diagonal(total).copy()
        np.fill_diagonal(total, 0.0)
        return diagonal, total

    def count(self, total, pairs, weights, size):
        xp = self.xp
        if self.library == "torch":
            import torch

            return total + torch.bincount(pairs, weights=weights, minlength=size)
        if self.library == "cupy":
            import cupy

            return total + cupy.bincount(pairs, weights=weights, minlength=size)
        # Any other library: the product of the two one-hot sides (weighted).
        classes = xp.arange(self.n_classes, device=self.device)
        true = xp.astype(pairs[:, None] // self.n_classes == classes[None, :], xp.float64)
        pred = xp.astype(pairs[:, None] % self.n_classes == classes[None, :], xp.float64)
        if weights is not None:
            true = true * weights[:, None]
        return total + xp.reshape(xp.matmul(xp.matrix_transpose(true), pred), (-1,))


class _LabelsBesideScores(_Summer):
    """1-D labels beside 2-D scores: the scores' rows (weight over mass) summed by the
    labels' class."""

    def run(self):
        xp, targets, n_classes = self.xp, self.targets, self.n_classes
        side = targets.one_hot[0]
        labels, scores = ((targets.y_true, targets.y_pred) if side == "y_true"
                          else (targets.y_pred, targets.y_true))
        scores_name = "y_pred" if side == "y_true" else "y_true"
        float32 = scores.dtype == xp.float32
        check_sums = targets.off_one.wants(0)
        sum_tolerance = _SUM_TOLERANCE[bool(float32)]
        total = xp.zeros((n_classes, n_classes), dtype=xp.float64, device=self.device)
        starts = []
        all_codes, unknown = self.codes(labels)
        for rows in self.chunks(self.step(4 if float32 else 8, n_classes)):
            block = scores[rows, ...]
            codes = all_codes[rows]
            norm = xp.sum(block, axis=1, dtype=xp.float64)
            # The labels' side has mass 1: its weighting weighs every instance alike.
            weights = self.weights(rows, {"true" if scores_name == "y_true" else "pred": norm})
            scale = 1.0 / norm if weights is None else weights / norm
            total = self.segmented_sum(total, codes, block, scale)
            low, high = self.weight_range(weights)
            if check_sums:
                off = xp.abs(norm - 1.0) > sum_tolerance
                first = xp.argmax(xp.astype(off, xp.float32))  # the first row off
                any_off, first_sum = xp.any(off), xp.take(norm, xp.reshape(first, (1,)))
            else:
                any_off = first = first_sum = xp.asarray(0.0, device=self.device)
            self.add_stats(unknown, xp.min(block), xp.min(norm), xp.max(norm), low, high,
                           any_off, first, first_sum)
            unknown = 0 * unknown  # counted once
            starts.append(rows.start)
        (total,), stats = self.read_back(total)
        norm_limit, smallest, largest = (2.0 ** 100, 1e-200, 1e200)  # float64 sums
        unknown, smallest_value, low_norm, high_norm, low, high = stats[:, :6].T
        # NaN compares False: a non-finite row fails here too.
        if not (np.all(unknown == 0) and np.all(smallest_value >= 0)
                and np.all(low_norm >= 1.0 / norm_limit) and np.all(high_norm <= norm_limit)
                and np.all(low >= smallest) and np.all(high <= largest)):
            return None
        if check_sums:
            for start, (any_off, first, first_sum) in zip(starts, stats[:, 6:]):
                if any_off:
                    warn_unless_probabilities(scores_name, np.asarray([first_sum]),
                                              np.float32 if float32 else np.float64,
                                              targets.off_one, start + int(first),
                                              scores[start + int(first):, ...])
                    break
        if side == "y_pred":
            total = total.T.copy()
        return np.zeros(n_classes), total

    def segmented_sum(self, total, codes, block, scale):
        """``total`` plus the rows of ``block`` times ``scale`` (float64) summed by
        ``codes``."""
        xp = self.xp
        if self.library == "torch":
            if TORCH_SEGMENTED_SUM == "sparse" and block.dtype == xp.float64:
                return total + _torch_class_product(codes, scale, block, self.n_classes)
            # One product in float64 (float32 rows promote), one scatter of its rows.
            return total.index_add_(0, codes, block * scale[:, None])
        if self.library == "cupy":
            import cupy

            values = block * scale[:, None]
            if hasattr(cupy.add, "at"):  # CuPy 13 and later, where scatter_add is deprecated
                cupy.add.at(total, codes, values)
            else:
                import cupyx

                cupyx.scatter_add(total, codes, values)
            return total
        one_hot = xp.astype(codes[:, None] == xp.arange(self.n_classes,
                                                        device=self.device)[None, :],
                            xp.float64)
        return total + xp.matmul(xp.matrix_transpose(one_hot * scale[:, None]),
                                 xp.astype(block, xp.float64))


class _SoftRows(_Summer):
    """Dense rows on both sides (soft labels, indicators): the TCM as a diagonal plus one
    product per chunk, the rows compared at the mass of ``y_true``."""

    def __init__(self, instances, xp, device, limits, tolerance):
        super().__init__(instances, xp, device)
        self.limits, self.tolerance = limits, tolerance

    def run(self):
        xp, targets, n_classes = self.xp, self.targets, self.n_classes
        y_true, y_pred = targets.y_true, targets.y_pred
        if y_true.dtype != y_pred.dtype:
            return None
        float32 = y_true.dtype == xp.float32
        limits = self.limits.get(np.dtype(np.float32 if float32 else np.float64))
        if limits is None:
            return None
        diagonal = xp.zeros(n_classes, dtype=xp.float64, device=self.device)
        off_diagonal = xp.zeros((n_classes, n_classes), dtype=xp.float64, device=self.device)
        for rows in self.chunks(self.step(4 if float32 else 8, 2 * n_classes)):
            true, pred = y_true[rows, ...], y_pred[rows, ...]
            true_norm = xp.sum(true, axis=1, dtype=xp.float64)
            pred_norm = xp.sum(pred, axis=1, dtype=xp.float64)
            weights = self.weights(rows, {"true": true_norm, "pred": pred_norm})
            part_diagonal, part_off = self.plans(true, pred, true_norm, pred_norm, weights)
            diagonal = diagonal + part_diagonal
            off_diagonal = off_diagonal + part_off
            low, high = self.weight_range(weights)
            self.add_stats(_extreme(xp, xp.min(true), xp.min(pred), "<"),
                           _extreme(xp, xp.min(true_norm), xp.min(pred_norm), "<"),
                           _extreme(xp, xp.max(true_norm), xp.max(pred_norm), ">"), low, high,
                           *[low] * 4)
        (diagonal, off_diagonal), stats = self.read_back(diagonal, off_diagonal)
        norm_limit, smallest, largest = limits
        smallest_value, low_norm, high_norm, low, high = stats[:, :5].T
        if not (np.all(smallest_value >= 0) and np.all(low_norm >= 1.0 / norm_limit)
                and np.all(high_norm <= norm_limit) and np.all(low >= smallest)
                and np.all(high <= largest)):
            return None
        np.fill_diagonal(off_diagonal, 0.0)  # deficits and excesses never share a class
        return diagonal, off_diagonal

    def plans(self, true, pred, true_norm, pred_norm, weights):
        """The diagonal and the off-diagonal sums of a chunk's plans (equation 8) at the
        mass of ``y_true``: ``v = y_pred |y| / |y_hat|``, the deficit ``(y - v)+`` and the
        excess ``(v - y)+`` from one difference, the common mass ``y - deficit``."""
        xp = self.xp
        dtype = true.dtype
        ratio = xp.astype(true_norm / pred_norm, dtype)
        scaled_weights = (1.0 / true_norm) if weights is None else weights / true_norm
        if self.library == "torch":
            import torch

            deficit = torch.addcmul(true, pred, ratio[:, None], value=-1)  # y - v
            excess = torch.clamp(deficit, max=0)  # minus the excess
            deficit.clamp_(min=0)
        else:
            deficit = true - pred * ratio[:, None]
            zero = xp.asarray(0, dtype=dtype, device=self.device)
            excess = xp.where(deficit < zero, deficit, zero)  # minus the excess
            deficit = xp.where(deficit > zero, deficit, zero)
        deficit_mass = xp.sum(deficit, axis=1, dtype=xp.float64)
        row_weights = xp.astype(scaled_weights, dtype)
        row_weights = row_weights[:, None]
        if dtype == xp.float64:  # the common mass y - deficit, never formed
            diagonal = self.product(row_weights, true) - self.product(row_weights, deficit)
        else:  # float32 would lose the common mass between two large sums: formed
            diagonal = self.product(row_weights, true - deficit)
        keep = deficit_mass > self.tolerance * true_norm
        one = xp.asarray(1.0, dtype=xp.float64, device=self.device)
        scale = xp.where(keep, scaled_weights / xp.where(keep, deficit_mass, one), 0.0 * one)
        scale = xp.astype(scale, dtype)
        if self.library == "torch":
            deficit.mul_(scale[:, None])
        else:
            deficit = deficit * scale[:, None]
        return xp.reshape(diagonal, (-1,)), -self.product(deficit, excess)


def _torch_class_product(codes, scale, block, n_classes):
    """``S @ block`` for the sparse ``(n_classes, rows)`` CSR matrix ``S`` whose row ``k``
    holds the ``scale`` of the rows of class ``k`` (``codes``): the rows of ``block``
    summed by class, weighted, in one pass over ``block``."""
    import warnings

    import torch

    order = torch.argsort(codes)
    crow = torch.zeros(n_classes + 1, dtype=torch.int64, device=codes.device)
    crow[1:] = torch.cumsum(torch.bincount(codes, minlength=n_classes), 0)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*[Ss]parse CSR tensor support")
        warnings.filterwarnings("ignore", message="Sparse invariant checks")
        by_class = torch.sparse_csr_tensor(crow, order, scale[order],
                                           size=(n_classes, block.shape[0]),
                                           check_invariants=False)
        return by_class @ block
