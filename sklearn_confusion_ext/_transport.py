"""The transport-based confusion matrix (TCM) and its sub-pixel (SCM) bounds.

Erbani et al., "Confusion Matrices: A Unified Theory", IEEE Access 2024.

Each instance ``(y, y_hat)`` is compared after L1 normalization, ``u = y/|y|``
and ``v = y_hat/|y_hat|``. Its maximum-entropy optimal plan (Proposition 3,
eq. 8) is ``diag(m) + outer(u - m, v - m) / s`` with ``m = min(u, v)`` and
``s = sum(u - m)``. Summed over instances with weights ``lambda``, the matrix is
a diagonal vector plus one matrix product, computed here in row chunks.
"""

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._chunks import chunk_rows, sum_over_chunks
from ._matrix import NORMALIZE_OPTIONS, Confusion, normalize_confusion
from ._validation import check_option, check_targets

WEIGHTING_OPTIONS = ("uniform", "true", "pred")
EMPTY_OPTIONS = ("null_class", "skip", "error")

# Deficit mass below which an instance counts as perfectly proportional: the
# plan is then its diagonal (eq. 9). Rounding leaves ~1e-16 there.
DEFICIT_TOLERANCE = 1e-12
# Bytes of one (rows, C, C) chunk of the sub-pixel bounds.
_BOUNDS_CHUNK_BYTES = 1 << 25


def transport_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                               normalize=None, sample_weight=None, empty="null_class"):
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
        positive norm).
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

    Returns
    -------
    ndarray of shape (n_labels, n_labels)
        Rows are true classes, columns predicted classes; float64.

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
                                    sample_weight=sample_weight, empty=empty)
    return normalize_confusion(confusion.selected(), normalize)


def transport_confusion(y_true, y_pred, *, labels, weighting, sample_weight, empty):
    """Validate, build the full TCM and return it as a :class:`Confusion`."""
    prepared = _prepare(y_true, y_pred, labels, weighting, sample_weight, empty)
    diagonal, off_diagonal = _plan_sums(prepared)
    matrix = _with_none_class(np.diag(diagonal) + off_diagonal, prepared)
    return prepared.confusion(matrix)


def subpixel_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                              sample_weight=None, empty="null_class"):
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
    y_true, y_pred, labels, weighting, sample_weight, empty
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
    prepared = _prepare(y_true, y_pred, labels, weighting, sample_weight, empty)
    diagonal, lower_off, upper_off = _bound_sums(prepared)
    lower = _with_none_class(np.diag(diagonal) + lower_off, prepared)
    upper = _with_none_class(np.diag(diagonal) + upper_off, prepared)
    return prepared.confusion(lower).selected(), prepared.confusion(upper).selected()


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
        rows.append(row[None, :])
    if rows[0].shape != rows[1].shape:
        raise ValueError(
            f"y_true_row and y_pred_row must have the same length; got "
            f"{rows[0].shape[1]} and {rows[1].shape[1]}."
        )
    one = np.ones(1)
    diagonal, off_diagonal = _dense_plan_sums(rows[0], rows[1], 1 / rows[0].sum(axis=1),
                                              1 / rows[1].sum(axis=1), one)
    return np.diag(diagonal) + off_diagonal


@dataclass(frozen=True)
class _Prepared:
    """Validated targets with their instance weights and empty-row masks."""

    targets: object
    weights: np.ndarray
    true_scale: np.ndarray
    pred_scale: np.ndarray
    true_empty: np.ndarray
    pred_empty: np.ndarray
    has_none: bool

    def confusion(self, matrix):
        return Confusion.from_parts(matrix, self.targets.classes,
                                    self.targets.selection, self.has_none)


def _prepare(y_true, y_pred, labels, weighting, sample_weight, empty):
    if not callable(weighting):
        check_option("weighting", weighting, WEIGHTING_OPTIONS, alternative="a callable")
    check_option("empty", empty, EMPTY_OPTIONS)
    targets = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    true_empty = targets.true_norm == 0
    pred_empty = targets.pred_norm == 0
    any_empty = true_empty | pred_empty
    if empty == "error" and any_empty.any():
        rows = np.flatnonzero(any_empty)
        raise ValueError(
            f"{rows.size} instance(s) have an all-zero label or prediction (rows "
            f"{rows[:5].tolist()}{' ...' if rows.size > 5 else ''}); pass "
            "empty='null_class' to count them in a 'none' class or empty='skip' "
            "to drop them."
        )
    weights = _instance_weights(targets, weighting, true_empty, pred_empty)
    if targets.sample_weight is not None:
        weights = weights * targets.sample_weight
    if empty == "skip" and any_empty.any():
        warnings.warn(
            f"{np.count_nonzero(any_empty)} instance(s) with an all-zero label or "
            "prediction were skipped (empty='skip').",
            UserWarning, stacklevel=3,
        )
        weights = np.where(any_empty, 0.0, weights)
    has_none = not targets.single_label and empty == "null_class"
    return _Prepared(targets, weights, _inverse(targets.true_norm),
                     _inverse(targets.pred_norm), true_empty, pred_empty, has_none)


def _instance_weights(targets, weighting, true_empty, pred_empty):
    n_samples = targets.n_samples
    if weighting == "uniform":
        return np.ones(n_samples)
    if weighting == "true":
        return np.where(true_empty, 1.0, targets.true_norm)
    if weighting == "pred":
        return np.where(pred_empty, 1.0, targets.pred_norm)
    weights = np.asarray(weighting(targets.y_true, targets.y_pred), dtype=np.float64)
    if weights.shape != (n_samples,):
        raise ValueError(
            f"weighting callable must return {n_samples} weights; got shape {weights.shape}."
        )
    if not np.isfinite(weights).all() or weights.min() < 0:
        raise ValueError("weighting callable must return finite non-negative weights.")
    return weights


def _inverse(norms):
    return np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)


def _plan_sums(prepared):
    """Sum of weighted plans of the non-empty instances: (diagonal, off-diagonal)."""
    targets = prepared.targets
    if sp.issparse(targets.y_true):
        return _sparse_plan_sums(targets.y_true, targets.y_pred, prepared.true_scale,
                                 prepared.pred_scale, prepared.weights)
    return _dense_plan_sums(targets.y_true, targets.y_pred, prepared.true_scale,
                            prepared.pred_scale, prepared.weights)


def _dense_plan_sums(y_true, y_pred, true_scale, pred_scale, weights):
    n_samples, n_classes = y_true.shape

    def plan_sums(rows):
        deficit = y_true[rows] * true_scale[rows, None]
        excess = y_pred[rows] * pred_scale[rows, None]
        common = np.minimum(deficit, excess)
        deficit -= common
        excess -= common
        chunk_weights = weights[rows]
        deficit *= _plan_scale(deficit.sum(axis=1), chunk_weights)[:, None]
        return chunk_weights @ common, deficit.T @ excess

    step = max(chunk_rows(8 * n_classes), n_classes)
    return sum_over_chunks(plan_sums, n_samples, step)


def _sparse_plan_sums(y_true, y_pred, true_scale, pred_scale, weights):
    u = _scale_rows(y_true, true_scale)
    v = _scale_rows(y_pred, pred_scale)
    common = u.minimum(v)
    deficit = u - common
    excess = v - common
    diagonal = common.T @ weights
    deficit = _scale_rows(deficit, _plan_scale(_row_sums(deficit), weights))
    off_diagonal = (deficit.T @ excess).toarray()
    return np.asarray(diagonal).ravel(), off_diagonal


def _plan_scale(deficit_mass, weights):
    """``lambda / s`` per row; zero where the deficit is rounding noise (eq. 9)."""
    return np.divide(weights, deficit_mass, out=np.zeros_like(deficit_mass),
                     where=deficit_mass > DEFICIT_TOLERANCE)


def _bound_sums(prepared):
    """Sums of the SCM bounds: (diagonal, lower off-diagonal, upper off-diagonal)."""
    targets = prepared.targets
    n_samples, n_classes = targets.y_true.shape

    def bound_sums(rows):
        deficit = _dense_rows(targets.y_true, rows) * prepared.true_scale[rows, None]
        excess = _dense_rows(targets.y_pred, rows) * prepared.pred_scale[rows, None]
        common = np.minimum(deficit, excess)
        deficit -= common
        excess -= common
        weights = prepared.weights[rows]
        diagonal = weights @ common
        deficit_mass = deficit.sum(axis=1)
        keep = (deficit_mass > DEFICIT_TOLERANCE) & (weights > 0)
        deficit, excess = deficit[keep, :, None], excess[keep, None, :]
        weights, deficit_mass = weights[keep], deficit_mass[keep, None, None]
        lower = np.tensordot(weights, np.maximum(deficit + excess - deficit_mass, 0), axes=1)
        upper = np.tensordot(weights, np.minimum(deficit, excess), axes=1)
        return diagonal, lower.reshape(n_classes, n_classes), upper.reshape(n_classes, n_classes)

    step = chunk_rows(8 * n_classes * n_classes, _BOUNDS_CHUNK_BYTES)
    diagonal, lower, upper = sum_over_chunks(bound_sums, n_samples, step)
    np.fill_diagonal(lower, 0)
    np.fill_diagonal(upper, 0)
    return diagonal, lower, upper


def _with_none_class(matrix, prepared):
    """Append the "none" row and column holding the instances with an empty side.

    An empty label or prediction becomes unit mass on "none", so its plan is
    unique: the normalized other side, moved to or from "none".
    """
    if not prepared.has_none:
        return matrix
    targets, weights = prepared.targets, prepared.weights
    only_true_empty = np.flatnonzero(prepared.true_empty & ~prepared.pred_empty)
    only_pred_empty = np.flatnonzero(prepared.pred_empty & ~prepared.true_empty)
    both_empty = prepared.true_empty & prepared.pred_empty
    n_classes = matrix.shape[0]
    full = np.zeros((n_classes + 1, n_classes + 1))
    full[:n_classes, :n_classes] = matrix
    full[n_classes, :n_classes] = _weighted_row_sum(targets.y_pred, only_true_empty,
                                                    weights * prepared.pred_scale)
    full[:n_classes, n_classes] = _weighted_row_sum(targets.y_true, only_pred_empty,
                                                    weights * prepared.true_scale)
    full[n_classes, n_classes] = weights[both_empty].sum()
    return full


def _weighted_row_sum(matrix, rows, weights):
    """``sum_n weights[n] * matrix[n]`` over the listed rows."""
    return np.asarray(matrix[rows].T @ weights[rows]).ravel()


def _scale_rows(matrix, scale):
    """Multiply each row of a CSR array by ``scale`` without densifying."""
    scaled = matrix.copy()
    scaled.data *= np.repeat(scale, np.diff(scaled.indptr))
    return scaled


def _row_sums(matrix):
    return np.asarray(matrix.sum(axis=1)).ravel()


def _dense_rows(matrix, rows):
    return matrix[rows].toarray() if sp.issparse(matrix) else matrix[rows]
