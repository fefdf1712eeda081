"""The transport-based confusion matrix (TCM) and its sub-pixel (SCM) bounds.

Erbani et al., "Confusion Matrices: A Unified Theory", IEEE Access 2024.

Each instance ``(y, y_hat)`` is compared after L1 normalization, ``u = y/|y|``
and ``v = y_hat/|y_hat|``. Its maximum-entropy optimal plan (Proposition 3,
eq. 8) is ``diag(m) + outer(u - m, v - m) / s`` with ``m = min(u, v)`` and
``s = sum(u - m)``. Summed over instances with weights ``lambda``, the matrix is
a diagonal vector plus one matrix product, computed here in row chunks.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._core.array_api import host_array
from ._core.arrays import (
    any_true,
    as_float,
    count_true,
    dense,
    masked_sum,
    minimum,
    namespace,
    ones_like,
    positive_part,
    row_sums,
    safe_divide,
    scale_rows,
    scaled_rows,
    to_numpy,
    weighted_sum,
)
from ._core.chunks import check_parallelism, chunk_rows, scratch, sum_over_chunks
from ._core.confusion import NORMALIZE_OPTIONS, Confusion, normalize_confusion, warn_skipped
from ._core.dask_collections import dask_confusions, is_dask_collection
from ._core.validation import check_option, check_targets

WEIGHTING_OPTIONS = ("uniform", "true", "pred")
EMPTY_OPTIONS = ("null_class", "skip", "error")

# Deficit mass below which an instance counts as perfectly proportional: the
# plan is then its diagonal (eq. 9). Rounding leaves ~1e-16 there.
DEFICIT_TOLERANCE = 1e-12
# Bytes of one (rows, C, C) chunk of the sub-pixel bounds.
_BOUNDS_CHUNK_BYTES = 1 << 25
# Rows of one chunk of sparse targets, and the fewest rows of a dense chunk.
_SPARSE_CHUNK_ROWS = 1 << 16
_MIN_DENSE_CHUNK_ROWS = 64


def transport_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                               normalize=None, sample_weight=None, empty="null_class",
                               n_jobs=None, chunk_size=None):
    """Transport-based confusion matrix (TCM) of single-, multi- or soft-label targets.

    Each instance contributes its maximum-entropy optimal transport plan
    between the normalized label and prediction (Erbani et al. 2024, eq. 4 and
    Proposition 3): the common mass on the diagonal, each missing quantity of
    class ``i`` spread over the classes ``j`` predicted in excess, in
    proportion to their excess. On 1-D class labels the result equals
    :func:`sklearn.metrics.confusion_matrix` (Proposition 7).

    Parameters
    ----------
    y_true : array-like or sparse matrix
        Ground truth: 1-D class labels, a 2-D binary indicator matrix of shape
        (n_samples, n_classes), or 2-D non-negative soft labels (rows of any
        positive norm). Dask arrays and dataframe columns are reduced block by
        block; PyTorch, CuPy and other array-API arrays are computed on their
        device (user guide, "Scaling out").
    y_pred : array-like or sparse matrix
        Predictions, of the same kind and shape as ``y_true``.
    labels : array-like, default=None
        1-D targets: the class labels to show, in that order (as in
        :func:`sklearn.metrics.confusion_matrix`). 2-D targets: integer column
        indices; the full matrix is computed, then those rows and columns are
        kept in that order, with the "none" class last.
    weighting : {"uniform", "true", "pred"} or callable, default="uniform"
        Weight ``lambda`` of each instance's plan (Section III-F): 1, the label
        norm ``|y|_1`` or the prediction norm ``|y_hat|_1``. A callable
        receives the two validated mass arrays (dense or sparse) and returns
        ``n_samples`` non-negative weights.
    normalize : {"true", "pred", "all"}, default=None
        Normalize over true rows, predicted columns or the whole matrix
        (eqs. 44-51). Zero rows/columns stay zero.
    sample_weight : array-like of shape (n_samples,), default=None
        Multiplies ``lambda``.
    empty : {"null_class", "skip", "error"}, default="null_class"
        What to do with an instance whose label or prediction has no mass
        (undefined in the paper). ``"null_class"`` gives 2-D targets an extra
        last row and column, "none", and puts unit mass there (so the matrix
        is ``(n_classes + 1, n_classes + 1)`` for 2-D targets whatever the
        data); ``"skip"`` drops such instances with a warning; ``"error"``
        raises ``ValueError``.
    n_jobs : int, default=None
        Threads over row chunks (-1: all cores); None chooses from the data size. Results
        do not depend on it beyond floating-point summation order (relative 1e-12).
    chunk_size : int, default=None
        Rows per chunk (bounds the working memory); None sizes chunks to the cache.

    Returns
    -------
    ndarray of shape (n_labels, n_labels)
        Rows are true classes, columns predicted classes; float64. An array of
        the input's library, on its device, for array-API inputs.

    See Also
    --------
    transport_plan : The plan of a single instance.
    subpixel_confusion_matrix : Bounds over all optimal plans.

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_confusion_matrix
    >>> transport_confusion_matrix([0, 1, 2, 2], [0, 2, 2, 1])
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 1., 1.]])


    Multi-label targets get a last "none" row and column (empty labels or
    predictions): here the first instance has half its label mass on class 0
    found, half on class 1 moved to class 2.

    >>> transport_confusion_matrix([[1, 1, 0], [0, 0, 1]], [[1, 0, 1], [0, 0, 1]])
    array([[0.5, 0. , 0. , 0. ],
           [0. , 0. , 0.5, 0. ],
           [0. , 0. , 1. , 0. ],
           [0. , 0. , 0. , 0. ]])
    """
    check_option("normalize", normalize, NORMALIZE_OPTIONS)
    confusion = transport_confusion(y_true, y_pred, labels=labels, weighting=weighting,
                                    sample_weight=sample_weight, empty=empty, n_jobs=n_jobs,
                                    chunk_size=chunk_size)
    return confusion.like_input(normalize_confusion(confusion.selected(), normalize))


def transport_confusion(y_true, y_pred, *, labels, weighting, sample_weight, empty,
                        n_jobs=None, chunk_size=None, warn=True):
    """Validate, build the full TCM and return it as a :class:`Confusion`.

    ``warn``: warn about the instances ``empty="skip"`` dropped (else only count them).
    """
    _check_options(weighting, empty, n_jobs, chunk_size)
    if is_dask_collection(y_true, y_pred, sample_weight):
        (confusion,) = dask_confusions("transport", y_true, y_pred, labels=labels,
                                       sample_weight=sample_weight, n_jobs=n_jobs,
                                       chunk_size=chunk_size, weighting=weighting, empty=empty)
    else:
        instances = _Instances.check(y_true, y_pred, labels, weighting, sample_weight, empty,
                                     n_jobs, chunk_size)
        (diagonal, off_diagonal, *none_parts), n_skipped = instances.sum(_plan_block)
        confusion = instances.confusion(np.diag(diagonal) + off_diagonal, none_parts, n_skipped)
    if warn:
        warn_skipped(confusion.n_skipped, stacklevel=3)
    return confusion


def subpixel_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                              sample_weight=None, empty="null_class", n_jobs=None,
                              chunk_size=None):
    """Sub-pixel confusion matrix (SCM) bounds over all optimal transport plans.

    Proposition 9 of Erbani et al. (2024): entry ``ij`` of an instance's SCM
    interval is the minimum and maximum of ``pi_ij`` over every optimal plan.
    The optimal plans share the diagonal ``min(u, v)``; their off-diagonal
    parts are the couplings of the deficits ``u - m`` and the excesses
    ``v - m``, whose cell-wise extremes are the Frechet bounds
    ``max(0, d_i + e_j - s)`` and ``min(d_i, e_j)``. The bounds are weighted
    and summed like the TCM, which lies between them. Cost grows as
    ``n_samples * n_classes**2``.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty, n_jobs, chunk_size
        As in :func:`transport_confusion_matrix`.

    Returns
    -------
    lower : ndarray of shape (n_labels, n_labels)
        Sum of the entry-wise minima.
    upper : ndarray of shape (n_labels, n_labels)
        Sum of the entry-wise maxima.

    Examples
    --------
    >>> from sklearn_confusion_ext import subpixel_confusion_matrix
    >>> lower, upper = subpixel_confusion_matrix([[2, 1, 0, 0]], [[0, 0, 1, 2]],
    ...                                          empty="error")
    >>> lower.round(3)
    array([[0.   , 0.   , 0.   , 0.333],
           [0.   , 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.   ]])
    >>> upper.round(3)
    array([[0.   , 0.   , 0.333, 0.667],
           [0.   , 0.   , 0.333, 0.333],
           [0.   , 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.   ]])
    """
    return tuple(confusion.like_input(confusion.selected()) for confusion in subpixel_confusions(
        y_true, y_pred, labels=labels, weighting=weighting, sample_weight=sample_weight,
        empty=empty, n_jobs=n_jobs, chunk_size=chunk_size))


def subpixel_confusions(y_true, y_pred, *, labels, weighting, sample_weight, empty,
                        n_jobs=None, chunk_size=None, warn=True):
    """Validate and build the full SCM bounds as two :class:`Confusion` objects."""
    _check_options(weighting, empty, n_jobs, chunk_size)
    if is_dask_collection(y_true, y_pred, sample_weight):
        confusions = dask_confusions("subpixel", y_true, y_pred, labels=labels,
                                     sample_weight=sample_weight, n_jobs=n_jobs,
                                     chunk_size=chunk_size, weighting=weighting, empty=empty)
    else:
        instances = _Instances.check(y_true, y_pred, labels, weighting, sample_weight, empty,
                                     n_jobs, chunk_size)
        (diagonal, lower_off, upper_off, *none_parts), n_skipped = instances.sum(
            _bounds_block, row_bytes=8 * instances.n_classes ** 2,
            chunk_bytes=_BOUNDS_CHUNK_BYTES)
        for off_diagonal in (lower_off, upper_off):
            np.fill_diagonal(off_diagonal, 0)
        confusions = tuple(instances.confusion(np.diag(diagonal) + off, none_parts, n_skipped)
                           for off in (lower_off, upper_off))
    if warn:
        warn_skipped(confusions[0].n_skipped, stacklevel=3)
    return tuple(confusions)


def transport_plan(y_true_row, y_pred_row):
    """Maximum-entropy optimal transference plan of one instance (eq. 8).

    Parameters
    ----------
    y_true_row : array-like of shape (n_classes,)
        Non-negative label masses, not all zero.
    y_pred_row : array-like of shape (n_classes,)
        Non-negative predicted masses, not all zero.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        ``pi*``: rows sum to ``y/|y|_1``, columns to ``y_hat/|y_hat|_1``, the
        diagonal is ``min`` of the two, and the total is 1.

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_plan
    >>> transport_plan([0, 1, 0, 0], [1, 0, 2, 0]).round(4)
    array([[0.    , 0.    , 0.    , 0.    ],
           [0.3333, 0.    , 0.6667, 0.    ],
           [0.    , 0.    , 0.    , 0.    ],
           [0.    , 0.    , 0.    , 0.    ]])
    """
    rows = []
    for name, row in (("y_true_row", y_true_row), ("y_pred_row", y_pred_row)):
        row = np.asarray(row)
        if row.ndim != 1 or row.size == 0 or row.dtype.kind not in "biuf":
            raise ValueError(f"{name} must be a non-empty 1-D array of masses; got {row!r}.")
        row = row.astype(np.float64)
        if not np.isfinite(row).all() or row.min() < 0:
            raise ValueError(f"{name} must hold finite non-negative masses; got {row!r}.")
        if row.sum() == 0:
            raise ValueError(
                f"{name} has no mass; the plan is undefined for an empty vector "
                "(transport_confusion_matrix maps it to the 'none' class)."
            )
        rows.append(row[None, :] / row.sum())
    if rows[0].shape != rows[1].shape:
        raise ValueError(
            f"y_true_row and y_pred_row must have the same length; got "
            f"{rows[0].shape[1]} and {rows[1].shape[1]}."
        )
    no = np.zeros(1, dtype=bool)
    diagonal, off_diagonal, *_ = _plan_block(*rows, np.ones(1), no, no)
    return np.diag(diagonal) + off_diagonal


def _check_options(weighting, empty, n_jobs, chunk_size):
    check_parallelism(n_jobs, chunk_size)
    if not callable(weighting):
        check_option("weighting", weighting, WEIGHTING_OPTIONS, alternative="a callable")
    check_option("empty", empty, EMPTY_OPTIONS)


@dataclass(frozen=True)
class _Instances:
    """Validated instances, read in blocks of rows as normalized masses with weights."""

    targets: object
    weighting: object
    empty: str
    callable_weights: object
    n_jobs: object = None
    chunk_size: object = None

    @classmethod
    def check(cls, y_true, y_pred, labels, weighting, sample_weight, empty, n_jobs=None,
              chunk_size=None):
        """Validate the targets (the options are checked by :func:`_check_options`)."""
        # Dense values are checked block by block in the single pass over the data,
        # except when a user callable must first see the whole (checked) arrays.
        targets = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                                defer_value_checks=not callable(weighting))
        weights = _callable_weights(weighting, targets) if callable(weighting) else None
        return cls(targets, weighting, empty, weights, n_jobs, chunk_size)

    @property
    def n_classes(self):
        return len(self.targets.classes)

    @property
    def has_none(self):
        return not self.targets.single_label and self.empty == "null_class"

    def sum(self, block_sums, row_bytes=None, chunk_bytes=None):
        """Sum ``block_sums(u, v, weights, true_empty, pred_empty)`` over row chunks.

        ``u`` and ``v`` are the L1-normalized rows (zero rows stay zero). Returns the
        sums and the number of instances skipped (``empty="skip"``).
        """
        targets = self.targets
        if self.chunk_size is not None:
            step = self.chunk_size
        elif sp.issparse(targets.y_true):
            step = _SPARSE_CHUNK_ROWS
        else:
            step = max(chunk_rows(row_bytes or 8 * self.n_classes, chunk_bytes),
                       _MIN_DENSE_CHUNK_ROWS) * targets.chunk_factor

        def one_block(rows):
            *block, true_empty, pred_empty = self._normalized(rows)
            return (*block_sums(*block, true_empty, pred_empty),
                    count_true(true_empty | pred_empty))

        *totals, n_empty = sum_over_chunks(one_block, targets.n_samples, step,
                                           targets.threads(self.n_jobs))
        return totals, int(n_empty) if self.empty == "skip" else 0

    def confusion(self, matrix, none_parts, n_skipped):
        """The full matrix, with the "none" row and column when the policy asks for it."""
        if self.has_none:
            none_row, none_column, corner = none_parts
            matrix = np.block([[matrix, none_column[:, None]],
                               [none_row[None, :], corner.reshape(1, 1)]])
        return Confusion.from_parts(matrix, self.targets.classes, self.targets.selection,
                                    self.has_none, self.targets.n_samples, n_skipped,
                                    self.targets.namespace, self.targets.true_classes)

    def _normalized(self, rows):
        y_true, y_pred, true_norm, pred_norm = self.targets.rows(rows)
        true_empty, pred_empty = true_norm == 0, pred_norm == 0
        if self.empty == "error" and any_true(true_empty | pred_empty):
            bad = rows.start + np.flatnonzero(to_numpy(true_empty | pred_empty))
            raise ValueError(
                f"Instances have an all-zero label or prediction (rows {bad[:5].tolist()}"
                f"{' ...' if bad.size > 5 else ''}); pass empty='null_class' to count them in "
                "a 'none' class or empty='skip' to drop them."
            )
        weights = self._weights(rows, true_norm, pred_norm)
        if self.empty == "skip" and any_true(true_empty | pred_empty):
            weights = weights * as_float(~(true_empty | pred_empty))
        return (_normalize_rows(y_true, true_norm, "u"), _normalize_rows(y_pred, pred_norm, "v"),
                weights, true_empty, pred_empty)

    def _weights(self, rows, true_norm, pred_norm):
        """``lambda`` of Section III-F times the sample weights; an empty side has norm 1."""
        if self.callable_weights is not None:
            weights = self.callable_weights[rows]
        elif self.weighting == "true":
            weights = true_norm + as_float(true_norm == 0)  # an empty side weighs 1
        elif self.weighting == "pred":
            weights = pred_norm + as_float(pred_norm == 0)
        else:
            weights = ones_like(true_norm)
        sample_weight = self.targets.sample_weight
        return weights if sample_weight is None else weights * sample_weight[rows]


def _callable_weights(weighting, targets):
    """The callable's weights, checked; on the device of array-API targets.

    The callable gets the checked masses: for array-API targets, arrays of their library
    (1-D labels one-hot encoded), read once through :meth:`Targets.rows`.
    """
    y_true, y_pred = targets.y_true, targets.y_pred
    if targets.namespace is not None:
        y_true, y_pred, _, _ = targets.rows(slice(0, targets.n_samples))
    weights = np.asarray(host_array(weighting(y_true, y_pred)), dtype=np.float64)
    if weights.shape != (targets.n_samples,):
        raise ValueError(f"weighting callable must return {targets.n_samples} weights; got "
                         f"shape {weights.shape}.")
    if not np.isfinite(weights).all() or weights.min() < 0:
        raise ValueError("weighting callable must return finite non-negative weights.")
    if targets.namespace is not None:
        xp, device = targets.namespace
        return xp.asarray(weights, device=device)
    return weights


def _plan_block(u, v, weights, true_empty, pred_empty):
    """Weighted plans of a block: diagonal, off-diagonal and "none" parts (eq. 8)."""
    common, deficit, excess = _split(u, v)
    diagonal = weighted_sum(common, weights)
    none_parts = _none_parts(deficit, excess, weights, true_empty, pred_empty)
    deficit = scale_rows(deficit, _plan_scale(row_sums(deficit), weights))
    return diagonal, dense(deficit.T @ excess), *none_parts


def _bounds_block(u, v, weights, true_empty, pred_empty):
    """SCM bounds of a block: diagonal, lower and upper off-diagonal, "none" parts."""
    common, deficit, excess = _split(dense(u), dense(v))
    diagonal = weighted_sum(common, weights)
    none_parts = _none_parts(deficit, excess, weights, true_empty, pred_empty)
    deficit_mass = row_sums(deficit)
    keep = (deficit_mass > DEFICIT_TOLERANCE) & (weights > 0)
    deficit, excess = deficit[keep][:, :, None], excess[keep][:, None, :]
    weights, deficit_mass = weights[keep], deficit_mass[keep][:, None, None]
    xp = namespace(weights)
    lower = xp.tensordot(weights, positive_part(deficit + excess - deficit_mass), axes=1)
    upper = xp.tensordot(weights, minimum(deficit, excess), axes=1)
    # The diagonal of both bounds is zeroed after the sum (subpixel_confusions).
    return diagonal, lower, upper, *none_parts


def _split(u, v):
    """Common mass ``min(u, v)``, deficits ``u - m`` and excesses ``v - m``."""
    if sp.issparse(u):
        common = u.minimum(v)
        return common, u - common, v - common
    # u and v are the caller's own (normalized) copies: they become the deficit and excess.
    common = minimum(u, v, out=scratch("common", u.shape) if namespace(u) is np else None)
    u -= common
    v -= common
    return common, u, v


def _none_parts(deficit, excess, weights, true_empty, pred_empty):
    """Rows, column and corner of the "none" class.

    An empty side is unit mass on "none", so the plan is unique: a row with no
    label sends its whole (normalized) prediction, its excess, from "none"; a
    row with no prediction sends its whole label, its deficit, to "none".
    """
    if not any_true(true_empty | pred_empty):
        zeros = np.zeros(deficit.shape[1])
        return zeros, zeros.copy(), np.asarray(0.0)
    no_label = weights * as_float(true_empty & ~pred_empty)
    no_prediction = weights * as_float(pred_empty & ~true_empty)
    return (weighted_sum(excess, no_label), weighted_sum(deficit, no_prediction),
            masked_sum(weights, true_empty & pred_empty))


def _plan_scale(deficit_mass, weights):
    """``lambda / s`` per row; zero where the deficit is rounding noise (eq. 9)."""
    return safe_divide(weights, deficit_mass * as_float(deficit_mass > DEFICIT_TOLERANCE))


def _normalize_rows(matrix, norms, slot):
    """Rows divided by their L1 norms (empty rows stay zero); dense into scratch ``slot``."""
    inverse = safe_divide(1.0, norms)
    if sp.issparse(matrix) or namespace(matrix) is not np:
        return scaled_rows(matrix, inverse)
    return np.multiply(matrix, inverse[:, None], out=scratch(slot, matrix.shape))
