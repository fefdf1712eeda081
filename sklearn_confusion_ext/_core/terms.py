"""The per-instance terms of a block of instances, summed under one weighting or many.

Every matrix of the library is a sum over instances of a diagonal, an outer product and
the row, column and corner of the "none" class, each instance's part scaled by its weight.
A kind that writes its block as :class:`Terms` gets two sums from one description: the
block's partial sums (:func:`term_sums`, what :func:`~.kinds.build` adds up; NumPy,
scipy.sparse or another array-API library), and the partial sums of the same instances
under many rows of instance weights at once (:func:`batched_term_sums`, the resampled
matrices of the bootstrap: products of the weight matrix with the terms, never a loop
over the rows of weights).
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .arrays import (
    any_true,
    dense,
    in_dtype_of,
    masked_sum,
    scale_rows,
    scaled_rows,
    weighted_sum,
)


@dataclass(frozen=True)
class Terms:
    """The parts of a block, linear in the instances' scales.

    Each part is summed over the block's instances ``n``, weighted by ``scale[n]`` (which
    already holds the instances' own weights):

    * ``diagonal = (X, scale)``: ``sum_n scale[n] X[n]``;
    * ``off_diagonal = (L, scale, R)``: ``sum_n scale[n] outer(L[n], R[n])``;
    * ``none_row``, ``none_column``: like ``diagonal``;
    * ``corner``: ``sum_n corner[n]`` (a vector of scales).

    ``X``, ``L`` and ``R`` are ``(n, C)`` dense or CSR arrays.
    """

    diagonal: tuple
    off_diagonal: tuple
    none_row: tuple
    none_column: tuple
    corner: object


def term_sums(terms):
    """The five partial sums of one block: diagonal, off-diagonal, none row, column, corner.

    The terms are consumed: the off-diagonal's left rows are scaled in place, after the
    other parts (which may share them) are summed. A "none" part whose scales are all zero
    (no empty side in the block) is not summed."""
    left, scale, right = terms.off_diagonal
    common, weights = terms.diagonal
    diagonal = weighted_sum(common, in_dtype_of(common, weights))
    none_row, none_column = (_sum_or_zeros(*part, left.shape[1])
                             for part in (terms.none_row, terms.none_column))
    corner = masked_sum(terms.corner, terms.corner != 0)
    if not _all_ones(scale):  # x * 1 is x: unit scales (unweighted counts) skip a pass
        left = scale_rows(left, scale)
    return (diagonal, dense(left.T @ right), none_row, none_column, corner)


def _all_ones(scale):
    """Whether ``scale`` is a NumPy array of ones."""
    return isinstance(scale, np.ndarray) and bool((scale == 1).all())


def _sum_or_zeros(rows, scale, width):
    if not any_true(scale != 0):
        return np.zeros(width)
    return weighted_sum(rows, in_dtype_of(rows, scale))


def batched_term_sums(terms, weights, out):
    """Add to ``out`` (``(n_weights, C + 1, C + 1)``, the "none" class last) the full
    matrices of the block under each row of instance ``weights`` (``(n_weights, n)``,
    NumPy): a product of the weights with each part. The outer products are formed once,
    sparse where the terms are (an instance's outer product has as many entries as the
    supports of its two sides), else dense (one matrix product with the weights)."""
    n_classes = out.shape[1] - 1
    diagonal = np.arange(n_classes)
    # The diagonal, the none row and column and the corner: one product with the weights.
    linear = [scaled_rows(_numpy(rows), _numpy(scale)) for rows, scale in
              (terms.diagonal, terms.none_row, terms.none_column)]
    linear.append(_numpy(terms.corner)[:, None])
    if any(sp.issparse(part) for part in linear):
        stacked = sp.hstack([sp.csr_array(part) for part in linear], format="csr")
        sums = np.asarray((stacked.T @ weights.T).T)
    else:
        sums = weights @ np.hstack(linear)
    out[:, diagonal, diagonal] += sums[:, :n_classes]
    out[:, -1, :n_classes] += sums[:, n_classes:2 * n_classes]
    out[:, :n_classes, -1] += sums[:, 2 * n_classes:3 * n_classes]
    out[:, -1, -1] += sums[:, -1]
    left, scale, right = terms.off_diagonal
    left, right = scaled_rows(_numpy(left), _numpy(scale)), _numpy(right)
    if sp.issparse(left) or sp.issparse(right) or _sparse_outer(left, right):
        outer = _row_outer(sp.csr_array(left), sp.csr_array(right), n_classes)
        off_diagonal = np.asarray((outer.T @ weights.T).T)
    else:
        off_diagonal = weights @ (left[:, :, None] * right[:, None, :]).reshape(len(left), -1)
    out[:, :n_classes, :n_classes] += off_diagonal.reshape(len(weights), n_classes, n_classes)
    return out


def _sparse_outer(left, right):
    """Whether the dense sides' outer products fill less than an eighth of their entries."""
    entries = np.count_nonzero(left, axis=1) @ np.count_nonzero(right, axis=1)
    return entries * 8 < left.size * right.shape[1]


def _numpy(array):
    return sp.csr_array(array) if sp.issparse(array) else np.asarray(array, dtype=float)


def _row_outer(left, right, n_classes):
    """The CSR ``(n, C * C)`` array whose row ``n`` is ``outer(left[n], right[n])``."""
    left_counts, right_counts = np.diff(left.indptr), np.diff(right.indptr)
    counts = left_counts * right_counts
    rows = np.repeat(np.arange(len(counts)), counts)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    width = right_counts[rows]
    left_at = left.indptr[rows] + offsets // np.maximum(width, 1)
    right_at = right.indptr[rows] + offsets % np.maximum(width, 1)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    return sp.csr_array((left.data[left_at] * right.data[right_at],
                         left.indices[left_at] * n_classes + right.indices[right_at], indptr),
                        shape=(len(counts), n_classes * n_classes))
