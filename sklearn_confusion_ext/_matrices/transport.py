"""The transport-based confusion matrix (TCM) and its sub-pixel (SCM) bounds.

Erbani et al., "Confusion Matrices: A Unified Theory", IEEE Access 2024.

Each instance ``(y, y_hat)`` is compared after L1 normalization, ``u = y/|y|``
and ``v = y_hat/|y_hat|``. Its maximum-entropy optimal plan (Proposition 3,
eq. 8) is ``diag(m) + outer(u - m, v - m) / s`` with ``m = min(u, v)`` and
``s = sum(u - m)``. Summed over instances with weights ``lambda``, the matrix is
a diagonal vector plus one matrix product, computed here in row chunks.

The plan is homogeneous: rows of any common mass ``c`` (``c u``, ``c v``) weighted by
``lambda / c`` give the same sums. Dense rows are therefore compared at the mass of ``y``
(``y`` as it is, ``y_hat`` scaled to it): one pass over the data instead of two.

Class labels beside scores (a classifier's ``predict_proba``): an instance's plan is its
scores' row, over its mass, in its label's row (its column for predicted labels), so the
matrix is a segmented sum of the scores' rows by class (``_sum_by_class``), one weighted
one-hot sparse product per cache-sized chunk, with no deficit, excess or outer product.
"""

from contextlib import nullcontext
from functools import cached_property, partial

import numpy as np
import scipy.sparse as sp

from .._core.array_api import host_array
from .._core.arrays import (
    any_true,
    as_float,
    count_true,
    dense,
    divided_rows,
    float64_for_weights,
    in_dtype_of,
    masked_sum,
    minimum,
    namespace,
    ones_like,
    positive_part,
    row_sums,
    safe_divide,
    to_numpy,
    weighted_sum,
    zero_diagonal,
)
from .._core.chunks import (
    CHUNK_BYTES,
    chunk_rows,
    chunk_starts,
    one_blas_thread,
    scratch,
    threads_for,
)
from .._core.config import check_result_size
from .._core.confusion import finish_bounds, finish_matrix, normalize_confusion
from .._core.conversion import checked_row_sums, mass_block
from .._core.dispatch import confusions
from .._core.kernels import SMALL_SOFT_CLASSES, compiled_kernels, compiled_sparse_kernels
from .._core.kinds import Instances, MatrixKind, register
from .._core.labels import one_entry_a_row
from .._core.params import (
    ARRAY,
    NORMALIZE,
    PARALLEL,
    Label,
    Options,
    quoted,
    validate_params,
)
from .._core.params import TRANSPORT as TRANSPORT_DECLARATION
from .._core.target_kinds import _SUM_TOLERANCE, warn_unless_probabilities
from .._core.terms import Terms, term_sums
from .._core.user_warnings import warn
from .rejection import check_reject_label, rejections

# Deficit mass below which an instance counts as perfectly proportional: the
# plan is then its diagonal (eq. 9). Rounding leaves ~1e-16 there.
DEFICIT_TOLERANCE = 1e-12
# Dense rows of one type are compared at the mass of y_true (see the module's docstring)
# where every norm of the block lies in [1 / norm_limit, norm_limit] and every positive
# weight in [smallest, largest]: the scales 1 / |y|, the ratios |y| / |y_hat| and the plans'
# scales (about weight / |y|^2 over the deficit) stay finite and normal in the rows' type.
# Other blocks (empty rows, norms or weights near the ends of the type) are normalized.
_EQUAL_MASS_LIMITS = {np.dtype(np.float64): (2.0 ** 100, 1e-200, 1e200),
                      np.dtype(np.float32): (2.0 ** 20, 1e-14, 1e12)}
# Bytes of one (rows, C, C) chunk of the sub-pixel bounds, and of the (deficit, excess)
# pairs of sparse rows processed at once; what one pair takes in the arrays alive at once.
_BOUNDS_CHUNK_BYTES = 1 << 25
_PAIR_BYTES = 96
# Two sparse targets summed by the compiled kernel: a chunk a thread where each reads at
# least this many stored entries a cell of its n_classes x n_classes sums.
_SPARSE_ENTRIES_PER_CELL = 0.5
# Labels beside scores: cache-sized chunks summed in order into one matrix per group of
# this many chunks (a partial matrix per group, not per chunk: at C = 1,000 it is as large
# as a chunk).
_CHUNKS_PER_GROUP = 16
_GROUP_READS = 16
# The scores a group of labels beside scores reads where the compiled kernel sums them.
_KERNEL_GROUP_BYTES = 1 << 23
# Rows of a tile of the soft kernel of column-major rows: each column's stretch of a tile is
# read whole (2,048 rows: 16 KiB of float64), so that the reads of its 2 C columns stay
# adjacent; shorter tiles were slower (ns a row at C = 20 on one thread: 512 rows 70, 2,048
# rows 56; row by row 98-114, against 55 on row-major rows).
_COLUMN_TILE_ROWS = 2048


@validate_params({**TRANSPORT_DECLARATION, "normalize": NORMALIZE, **PARALLEL,
                  "reject_label": [None, Label()]})
def transport_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                               normalize=None, sample_weight=None, empty="null_class",
                               n_jobs=None, chunk_size=None, reject_label=None):
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
        device (user guide, "Scaling out"). A categorical's categories order its
        classes, the labels that occur (an unused category is no class, as in
        scikit-learn; ``labels=`` names one); a DataFrame's column names
        are its classes (sorted, columns aligned by name). Masked arrays with
        masked entries and ``(1, n)`` rows of labels are refused.
    y_pred : array-like or sparse matrix
        Predictions: of the same kind and shape as ``y_true``, or, beside 1-D
        labels, a 2-D (n_samples, n_classes) array of probabilities or scores
        (a classifier's ``predict_proba``), as if the labels were one-hot rows;
        rows that do not sum to 1 there warn, as
        :func:`sklearn.metrics.log_loss` does.
    labels : array-like, default=None
        1-D targets: the class labels to show, in that order (as in
        :func:`sklearn.metrics.confusion_matrix`). 1-D labels beside 2-D scores:
        the same, one rule whatever the target kind. The columns of the scores are
        the classes in sorted order (a classifier's ``classes_``): ``sorted(labels)``
        where ``labels`` has one class per column, else the sorted union of the
        classes of ``y_true`` and ``labels``, which must then be one per column
        (default: the sorted classes of ``y_true``; a fold lacking a class needs
        ``labels=`` with every class). ``labels`` then selects and orders the rows
        and columns of the result, as beside 1-D labels: a subset gives the
        sub-matrix of the full matrix, another order reorders it. A DataFrame's
        column names name its columns. 2-D targets: integer column indices (column
        names of DataFrames with named columns); the full matrix is computed, then
        those rows and columns are kept in that order, with the "none" class last.
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
        (undefined in the paper). ``"null_class"`` gives multi-label indicator
        targets (0/1 ``y_true``, where an empty label set is ordinary) an extra
        last row and column, "none", and puts unit mass there (so their matrix
        is ``(n_classes + 1, n_classes + 1)`` whatever the data); soft labels
        and probabilities never get one, and an all-zero row there raises
        ``ValueError`` naming it. ``"skip"`` drops such instances with a
        warning; ``"error"`` raises ``ValueError``.
    n_jobs : int, default=None
        Threads over row chunks (-1: all cores); None chooses from the data size. Results
        do not depend on it beyond floating-point summation order (relative 1e-12).
    chunk_size : int, default=None
        Rows per chunk (bounds the working memory); None sizes chunks to the cache.
    reject_label : int, float, bool or str, default=None
        1-D labels: the value of ``y_pred`` that says the classifier abstained (e.g.
        ``-1`` or ``"reject"``). The matrix then has one more, last, column,
        "rejected": the (weighted) number of abstentions of each true class, so that
        each row sums to the class's support. It is no class: ``y_true`` must not hold
        it, ``labels`` must not name it (nor be of another kind), and the matrix,
        ``(n_labels, n_labels + 1)``, is not square, so that the readers of square
        matrices refuse it rather than read the rejections as a class
        (:func:`confusion_frame` and :class:`TransportConfusionMatrixDisplay` with
        ``column_labels`` label it). ``normalize="true"`` then gives each class's
        shares of decisions and rejections. None: no abstention.

    Returns
    -------
    ndarray of shape (n_labels, n_labels), or (n_labels, n_labels + 1) with reject_label
        Rows are true classes, columns predicted classes (then "rejected"); float64.
        An array of the input's library, on its device, for array-API inputs.

    See Also
    --------
    transport_plan : The plan of a single instance.
    subpixel_confusion_matrix : Bounds over all optimal plans.
    mlcm : The multi-label confusion matrix of Heydarian et al. (2022).
    sklearn.metrics.confusion_matrix : The same matrix of 1-D class labels.
    confusion_frame : The matrix as a DataFrame labelled by class.
    ConfusionAccumulator : The same matrix summed batch by batch.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: equation 4 (the
       matrix as a weighted sum of plans), Proposition 3 and equation 8 (the plan),
       Section III-F (the weighting), Proposition 7 (the classic matrix of single labels)
       and equations 44-51 (the normalizations).

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_confusion_matrix
    >>> transport_confusion_matrix([0, 1, 2, 2], [0, 2, 2, 1])
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 1., 1.]])

    A classifier's probabilities against the labels (columns in the order of
    the sorted labels, as its ``classes_``):

    >>> transport_confusion_matrix(["cat", "dog"], [[0.75, 0.25], [0.5, 0.5]])
    array([[0.75, 0.25],
           [0.5 , 0.5 ]])

    Multi-label targets get a last "none" row and column (empty labels or
    predictions): here the first instance has half its label mass on class 0
    found, half on class 1 moved to class 2.

    >>> transport_confusion_matrix([[1, 1, 0], [0, 0, 1]], [[1, 0, 1], [0, 0, 1]])
    array([[0.5, 0. , 0. , 0. ],
           [0. , 0. , 0.5, 0. ],
           [0. , 0. , 1. , 0. ],
           [0. , 0. , 0. , 0. ]])

    A classifier that abstains (``-1``): the last column counts the abstentions of each
    true class.

    >>> transport_confusion_matrix([0, 0, 1, 1, 2], [0, -1, 1, 2, -1], reject_label=-1)
    array([[1., 0., 0., 1.],
           [0., 1., 1., 0.],
           [0., 0., 0., 1.]])
    """
    if reject_label is not None:
        return _matrix_with_rejections(y_true, y_pred, labels, weighting, normalize,
                                       sample_weight, empty, n_jobs, chunk_size, reject_label)
    matrix = TRANSPORT.finish(transport_confusions(
        TRANSPORT, y_true, y_pred, labels=labels, weighting=weighting,
        sample_weight=sample_weight, empty=empty, n_jobs=n_jobs, chunk_size=chunk_size),
        normalize)
    if matrix.shape == (1, 1):
        warn("A single class was found in y_true and y_pred: the matrix is 1 x 1. To keep the "
             "shape of every fold, pass all known classes with labels=.", UserWarning)
    return matrix


def _matrix_with_rejections(y_true, y_pred, labels, weighting, normalize, sample_weight,
                            empty, n_jobs, chunk_size, reject_label):
    """:func:`transport_confusion_matrix` with ``reject_label``: the matrix of the labels
    with the reject label as one more predicted class, its row dropped (``y_true`` never
    holds it) and its column last (:mod:`.rejection`)."""
    built_labels = check_reject_label(reject_label, y_true, y_pred, labels)
    (confusion,) = transport_confusions(
        TRANSPORT, y_true, y_pred, labels=built_labels, weighting=weighting,
        sample_weight=sample_weight, empty=empty, n_jobs=n_jobs, chunk_size=chunk_size)
    matrix = rejections(confusion, reject_label).matrix
    if matrix.shape == (1, 2):
        warn("A single class was found in y_true and y_pred: the matrix is 1 x 2 (the class "
             "and its rejections). To keep the shape of every fold, pass all known classes "
             "with labels=.", UserWarning)
    return confusion.like_input(normalize_confusion(matrix, normalize))


def transport_confusion(y_true, y_pred, *, labels, weighting, sample_weight, empty,
                        column_labels=None):
    """The full TCM of checked parameters, as a :class:`Confusion` (for the scores, which
    read their ``labels=`` afterwards: beside 2-D scores it gives the columns by the
    one class rule, ``column_labels``)."""
    (confusion,) = transport_confusions(TRANSPORT, y_true, y_pred, labels=labels,
                                        weighting=weighting, sample_weight=sample_weight,
                                        empty=empty, column_labels=column_labels)
    return confusion


def transport_confusions(kind, y_true, y_pred, *, labels, weighting, sample_weight, empty,
                         n_jobs=None, chunk_size=None, column_labels=None):
    """The full matrices of the TCM or its SCM bounds (``kind``) as :class:`Confusion`."""
    return confusions(kind, y_true, y_pred, labels=labels, sample_weight=sample_weight,
                      n_jobs=n_jobs, chunk_size=chunk_size,
                      params={"weighting": weighting, "empty": empty},
                      column_labels=column_labels)


@validate_params({**TRANSPORT_DECLARATION, "form": [Options("bounds", "center")],
                  **PARALLEL})
def subpixel_confusion_matrix(y_true, y_pred, *, labels=None, weighting="uniform",
                              sample_weight=None, empty="null_class", form="bounds",
                              n_jobs=None, chunk_size=None):
    r"""Sub-pixel confusion matrix (SCM) bounds over all optimal transport plans.

    Proposition 9 of Erbani et al. (2024): entry ``ij`` of an instance's SCM
    interval is the minimum and maximum of ``pi_ij`` over every optimal plan.
    The optimal plans share the diagonal ``min(u, v)``; their off-diagonal
    parts are the couplings of the deficits ``u - m`` and the excesses
    ``v - m``, whose cell-wise extremes are the Frechet bounds
    ``max(0, d_i + e_j - s)`` and ``min(d_i, e_j)``. The bounds are weighted
    and summed like the TCM, which lies between them. Cost grows as
    ``n_samples * n_classes**2``.

    With the default ``weighting="uniform"`` this is the paper's SCM\\ :sup:`ext`
    (Section VII-A): each instance normalized, then summed, every entry an
    interval. ``form="center"`` gives it as the paper prints it (Tables 6c and
    7c), ``[a, b]`` written ``(a + b)/2 ± (b - a)/2``; the diagonal, shared by
    every optimal plan, has half-width 0.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty, n_jobs, chunk_size
        As in :func:`transport_confusion_matrix`.
    form : {"bounds", "center"}, default="bounds"
        Return the interval of each entry as its bounds ``(low, high)`` or
        as its centre and half-width ``(center, half_width)``.

    Returns
    -------
    low, high : ndarray of shape (n_labels, n_labels)
        With ``form="bounds"``: the sums of the entry-wise minima and maxima.
    center, half_width : ndarray of shape (n_labels, n_labels)
        With ``form="center"``: ``(low + high) / 2`` and
        ``(high - low) / 2``, the paper's ``center ± half-width``
        (``half_width <= center``, as ``low >= 0``). The centre is the
        point value the paper takes for an F1-score of SCM\\ :sup:`ext`.

    See Also
    --------
    transport_confusion_matrix : The matrix of the maximum-entropy plans, between the
        bounds.
    transport_plan : The maximum-entropy plan of a single instance.
    TransportConfusionMatrixDisplay : Draws the centres with their half-widths
        (``subpixel=True``).

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Proposition 9 (the
       interval of each entry over the optimal plans), Section VII-A (SCM\\ :sup:`ext`)
       and Tables 6c and 7c (the intervals as centre and half-width).

    Examples
    --------
    >>> from sklearn_confusion_ext import subpixel_confusion_matrix
    >>> low, high = subpixel_confusion_matrix([[2.0, 1.0, 0.0, 0.0]],
    ...                                       [[0.0, 0.0, 1.0, 2.0]], empty="error")
    >>> low.round(3)
    array([[0.   , 0.   , 0.   , 0.333],
           [0.   , 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.   ]])
    >>> high.round(3)
    array([[0.   , 0.   , 0.333, 0.667],
           [0.   , 0.   , 0.333, 0.333],
           [0.   , 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.   ]])

    The same intervals as centre and half-width (Table 6c's form):

    >>> center, half_width = subpixel_confusion_matrix(
    ...     [[2.0, 1.0, 0.0, 0.0]], [[0.0, 0.0, 1.0, 2.0]], empty="error", form="center")
    >>> center[0].round(3), half_width[0].round(3)
    (array([0.   , 0.   , 0.167, 0.5  ]), array([0.   , 0.   , 0.167, 0.167]))
    """
    low, high = SUBPIXEL.finish(transport_confusions(
        SUBPIXEL, y_true, y_pred, labels=labels, weighting=weighting,
        sample_weight=sample_weight, empty=empty, n_jobs=n_jobs, chunk_size=chunk_size), None)
    if form == "center":
        return bounds_as_center(low, high)
    return low, high


def bounds_as_center(low, high):
    """``(center, half_width)`` of the intervals ``[low, high]`` (any array library);
    the half-width is clipped at 0 where rounding puts ``high`` a hair below ``low``."""
    half_width = (high - low) / 2
    return (high + low) / 2, half_width * (half_width > 0)


@validate_params({"y_true_row": [ARRAY], "y_pred_row": [ARRAY]})
def transport_plan(y_true_row, y_pred_row):
    """Maximum-entropy optimal transference plan of one instance (equation 8).

    Parameters
    ----------
    y_true_row : array-like of shape (n_classes,)
        Non-negative finite label masses, not all zero, whose total stays within
        float64 (the rule of :func:`transport_confusion_matrix`'s rows: a larger
        total is refused).
    y_pred_row : array-like of shape (n_classes,)
        Non-negative predicted masses, not all zero, as ``y_true_row``.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        ``pi*``: rows sum to ``y/|y|_1``, columns to ``y_hat/|y_hat|_1``, the
        diagonal is ``min`` of the two, and the total is 1.

    See Also
    --------
    transport_confusion_matrix : The weighted sum of the plans of many instances.
    subpixel_confusion_matrix : The bounds of each entry over all optimal plans.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Proposition 1 (the
       diagonal of every optimal plan), Proposition 3 and equation 8 (the plan of
       maximum entropy).

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
            raise ValueError(f"{name} must be a non-empty 1-D array of masses; got {quoted(row)}.")
        check_result_size("transport_plan", (row.size, row.size),
                          f"a plan of {row.size} x {row.size} classes", "Pass shorter rows")
        row = row.astype(np.float64)
        # One rule with transport_confusion_matrix: NaN, infinite and negative masses, and a
        # total beyond float64 (whose normalized row would be all zeros), are refused.
        (total,) = checked_row_sums(name, row[None, :])
        if total == 0:
            raise ValueError(
                f"{name} has no mass; the plan is undefined for an empty vector "
                "(transport_confusion_matrix maps it to the 'none' class)."
            )
        rows.append(row[None, :] / total)
    if rows[0].shape != rows[1].shape:
        raise ValueError(
            f"y_true_row and y_pred_row must have the same length; got "
            f"{rows[0].shape[1]} and {rows[1].shape[1]}."
        )
    no = np.zeros(1, dtype=bool)
    diagonal, off_diagonal, *_ = _plan_block(*rows, np.ones(1), 1.0, no, no)
    return np.diag(diagonal) + off_diagonal


class _TransportInstances(Instances):
    """Validated instances, read in blocks of rows as normalized masses with weights."""

    def __init__(self, targets, params, n_jobs=None, chunk_size=None):
        super().__init__(targets, n_jobs, chunk_size)
        self.weighting, self.empty = params["weighting"], params["empty"]
        self.has_none = self.empty == "null_class" and targets.can_be_empty
        self.callable_weights = (_callable_weights(self.weighting, targets)
                                 if callable(self.weighting) else None)

    def sum(self, block, row_bytes, chunk_bytes=None):
        """:meth:`Instances.sum`; labels beside dense NumPy scores are summed by class
        (:meth:`_sum_by_class`) for the TCM and the SCM bounds; array-API targets are
        summed on their device, read back once (:mod:`._core.device_sums`)."""
        if self.targets.namespace is not None and block in (_plan_block, _bounds_block):
            from .._core.device_sums import device_sums

            summed = device_sums(self, block is _bounds_block, _EQUAL_MASS_LIMITS,
                                 DEFICIT_TOLERANCE)
            if summed is not None:
                return summed
        if self.labels_side is not None and block in (_plan_block, _bounds_block):
            return self._sum_by_class(2 if block is _bounds_block else 1)
        sparse_kernel = (self._compiled_sparse_plans(block is _bounds_block)
                         if block in (_plan_block, _bounds_block) else None)
        if sparse_kernel is not None:  # releases the GIL: a thread a chunk
            return self.sum_rows(sparse_kernel, self._sparse_kernel_chunks(row_bytes, chunk_bytes),
                                 chunks_per_thread=1, fresh_parts=True)
        kernel = self._compiled_soft_plans() if block is _plan_block else None
        if kernel is not None:
            # The kernel is called once a chunk: a thread a chunk.
            return self.sum_rows(kernel, self.chunk_step(row_bytes, chunk_bytes),
                                 chunks_per_thread=1, fresh_parts=True)
        return super().sum(block, row_bytes, chunk_bytes)

    def _compiled_soft_plans(self):
        """:func:`_plan_block` of dense soft rows by the compiled kernel, as a block function
        of a slice of rows: the kernel forms each row's parts (the rows' checks, the common
        mass on the diagonal, the scaled deficit and the excess) in one pass and the chunk's
        outer products are one matrix product (column by column where both targets are
        column-major, as a pandas frame's columns are: ``soft_plan_parts_columns``; at most
        16 classes of adjacent values, ``soft_plan_sums_small`` adds the outer products
        itself, in float64, in the same pass); the
        rows from the first it leaves (an empty row, a bad value, norms or weights near the
        ends of the type) are summed by :func:`_plan_block`. None where :func:`_plan_block`
        sums every row: the package was never compiled, or the rows are not both NumPy
        arrays of float32 or of float64 (in any order)."""
        compiled, targets = compiled_kernels(), self.targets
        y_true, y_pred = targets.y_true, targets.y_pred
        if (compiled is None or targets.one_hot or not _kernel_layout(y_true)
                or not _kernel_layout(y_pred) or y_true.dtype != y_pred.dtype):
            return None
        multipliers = _multipliers(self.callable_weights, targets.sample_weight)
        norm_weighting = 0 if self.callable_weights is not None else \
            {"true": 1, "pred": 2}.get(self.weighting, 0)
        limits, n_classes = _EQUAL_MASS_LIMITS[y_true.dtype], y_true.shape[1]
        dtype = y_true.dtype
        # both column-major (a pandas frame's columns): the kernel that reads them so
        by_column = n_classes > 1 and all(y.strides[0] == y.itemsize for y in (y_true, y_pred))
        # at most 16 classes of adjacent values: the plans' sums in one pass, no product
        small = not by_column and n_classes <= SMALL_SOFT_CLASSES and (
            n_classes == 1 or all(y.strides[1] == y.itemsize for y in (y_true, y_pred)))

        def plans(rows):
            arguments = (y_true, y_pred, rows.start, rows.stop, multipliers, norm_weighting,
                         *limits, DEFICIT_TOLERANCE)
            diagonal = np.zeros(n_classes)
            if small:
                off_diagonal = np.zeros((n_classes, n_classes))
                stop = compiled.soft_plan_sums_small(*arguments, diagonal, off_diagonal)
            elif by_column:
                shape = (n_classes, rows.stop - rows.start)
                deficits = scratch("fused_deficit_columns", shape, dtype)
                excesses = scratch("fused_excess_columns", shape, dtype)
                tile = _COLUMN_TILE_ROWS
                stop = compiled.soft_plan_parts_columns(
                    *arguments, deficits, excesses, diagonal, scratch("tile", (4, tile)),
                    scratch("tile_values", (3, tile), dtype))
                done = stop - rows.start
                off_diagonal = (deficits[:, :done] @ excesses[:, :done].T).astype(
                    np.float64, copy=False)
            else:
                shape = (rows.stop - rows.start, n_classes)
                deficits = scratch("fused_deficit", shape, dtype)
                excesses = scratch("fused_excess", shape, dtype)
                stop = compiled.soft_plan_parts(*arguments, deficits, excesses, diagonal)
                done = stop - rows.start
                off_diagonal = (deficits[:done].T @ excesses[:done]).astype(np.float64, copy=False)
            zeros = np.zeros(n_classes)
            sums = (diagonal, off_diagonal, zeros, zeros, np.asarray(0.0), np.asarray(0))
            if stop == rows.stop:
                return sums
            arguments, n_left_out = self.read(slice(stop, rows.stop))
            rest = (*_plan_block(*arguments), n_left_out)
            return tuple(np.asarray(a + to_numpy(b)) for a, b in zip(sums, rest))

        return plans

    def _compiled_sparse_plans(self, bounds):
        """:func:`_plan_block` (``bounds`` false) or :func:`_bounds_block` (true) of two CSR
        targets by the compiled kernel (:mod:`._core._sparse_kernels`), as a block function
        of a slice of rows: the kernel reads the validated arrays in place (no slice of
        them is copied), merges each row's two index lists once and adds its plan to the
        chunk's dense sums, without the GIL; the rows from the first that is not canonical
        (validation makes none) are summed by the reference. None where the NumPy
        reference sums every row: the package was never compiled, or either target is not
        a float64 CSR array (:func:`_kernel_csr`) with its row norms (as validation makes
        sparse targets)."""
        compiled, targets = compiled_sparse_kernels(), self.targets
        y_true, y_pred = targets.y_true, targets.y_pred
        if (compiled is None or targets.true_norm is None or targets.pred_norm is None
                or not (_kernel_csr(y_true) and _kernel_csr(y_pred))):
            return None
        true_norm = np.ascontiguousarray(targets.true_norm, dtype=np.float64)
        pred_norm = np.ascontiguousarray(targets.pred_norm, dtype=np.float64)
        # A one-hot side's values are one 1.0 read as many (a zero stride, see
        # ``one_hot``); the kernel reads contiguous values, so they are written out once.
        true_data, pred_data = (np.ascontiguousarray(side.data) for side in (y_true, y_pred))
        n_classes = y_true.shape[1]

        def plans(rows):
            _, _, weights, skipped = self._empty_and_weights(rows, true_norm[rows],
                                                             pred_norm[rows])
            diagonal, none_row, none_column = (np.zeros(n_classes) for _ in range(3))
            first, corner = np.zeros((n_classes, n_classes)), np.zeros(1)
            second = np.zeros((n_classes, n_classes) if bounds else (0, 0))
            stop = compiled.sparse_plan_sums(
                y_true.indptr, y_true.indices, true_data, y_pred.indptr, y_pred.indices,
                pred_data, rows.start, rows.stop, true_norm, pred_norm,
                np.ascontiguousarray(weights, dtype=np.float64), DEFICIT_TOLERANCE, bounds,
                diagonal, first, second, none_row, none_column, corner)
            parts = (diagonal, first, none_row, none_column, np.asarray(corner[0]))
            if bounds:  # the diagonal and the "none" parts are shared by both bounds
                parts += (diagonal, second, none_row, none_column, np.asarray(corner[0]))
            if stop == rows.stop:
                return (*parts, skipped)
            # From a row that is not canonical (validation makes none) the reference sums
            # the rest; ``skipped`` counts the whole chunk's instances left out.
            arguments, _ = self.read(slice(stop, rows.stop))
            rest = (_bounds_block if bounds else _plan_block)(*arguments)
            return (*(np.asarray(a + to_numpy(b)) for a, b in zip(parts, rest)), skipped)

        return plans

    def _sparse_kernel_chunks(self, row_bytes, chunk_bytes):
        """The chunks of :meth:`_compiled_sparse_plans`: the user's ``chunk_size``, else the
        chunks of :meth:`chunk_step` joined into one a thread: the kernel keeps nothing per
        row, and each chunk zeroes and returns its own ``n_classes x n_classes`` sums (at
        1,000 classes, 8 MB a matrix), which the chunks' sum adds in one thread. Where
        ``n_jobs`` is None, a thread a core, as long as each chunk reads at least
        ``_SPARSE_ENTRIES_PER_CELL`` stored entries a cell of those sums (below, the sums
        would cost more than the rows)."""
        step = self.chunk_step(row_bytes, chunk_bytes)
        if self.chunk_size is not None or np.ndim(step) == 0:
            return step
        n_jobs, n_tasks = self.targets.threads(self.n_jobs), len(step)
        if n_jobs is None:
            entries = self.targets.y_true.nnz + self.targets.y_pred.nnz
            n_tasks = min(n_tasks,
                          int(entries // (_SPARSE_ENTRIES_PER_CELL * self.n_classes ** 2)))
        n_chunks = threads_for(n_jobs, n_tasks)
        return step[::-(-len(step) // n_chunks)]

    @cached_property
    def labels_side(self):
        """"y_true" or "y_pred": the side holding 1-D labels (one-hot, one entry a row)
        beside dense NumPy scores on the other; None for other targets."""
        targets = self.targets
        if len(targets.one_hot) != 1 or targets.namespace is not None:
            return None
        side = targets.one_hot[0]
        labels, scores = ((targets.y_true, targets.y_pred) if side == "y_true"
                          else (targets.y_pred, targets.y_true))
        if not (sp.issparse(labels) and labels.format == "csr"
                and isinstance(scores, np.ndarray) and scores.ndim == 2
                and labels.nnz == labels.shape[0] and one_entry_a_row(labels.indptr)):
            return None
        return side

    def _sum_by_class(self, n_matrices):
        """The sums of labels beside scores: each instance's plan is its scores' row (over
        its mass, times its weight) in its label's row (``y_true`` labels; its column for
        ``y_pred`` labels), so a matrix is one segmented sum of the scores' rows by class.

        The scores are read once: by the compiled kernel (:meth:`_compiled_by_class`), each
        row's sum and sign checked and the row added to its class's in one pass; else (its
        NumPy reference, :meth:`_read_by_class`) in cache-sized chunks, each chunk's row sums
        and sign and its product with the weighted one-hot labels (sparse, one entry a row)
        coming from the cache. Chunks of a fixed number of rows (independent of
        the threads) are accumulated in order, in float64. A chunk with an empty row or
        weights or masses near the ends of their type is summed by the reference plans
        (:func:`_plan_block`, :func:`_bounds_block`)."""
        targets = self.targets
        scores = targets.y_pred if self.labels_side == "y_true" else targets.y_true
        n_classes = self.n_classes
        # Chunks of at least twice as many rows as classes: a chunk's sums take C x C.
        step = self.chunk_size or max(chunk_rows(scores.shape[1] * scores.itemsize,
                                                 CHUNK_BYTES), 2 * n_classes)
        kernel = self._compiled_by_class()
        # A group holds one partial matrix, allocated, zeroed and added once: it reads at
        # least _GROUP_READS times the matrix's bytes (at C = 1,000, 8 MB) and, for the
        # NumPy path, _CHUNKS_PER_GROUP chunks (a thread for every few groups); for the
        # kernel, called once a group, _KERNEL_GROUP_BYTES of scores (a thread a group).
        row_bytes = scores.shape[1] * scores.itemsize
        group = max(step * _CHUNKS_PER_GROUP if kernel is None
                    else _KERNEL_GROUP_BYTES // row_bytes,
                    -(-_GROUP_READS * 8 * n_classes ** 2 // row_bytes) if self.chunk_size is None
                    else 0)
        block = _bounds_block if n_matrices == 2 else _plan_block

        # The sums of groups already added to the call's sums, written again by a later
        # group (zeroed: in the cache, where a new array's pages are faulted in and zeroed).
        spare = []

        def one_group(rows):
            try:
                total = spare.pop()
                total.fill(0.0)
            except IndexError:
                total = np.zeros((n_classes, n_classes))  # rows: the labels' classes
            parts = None
            start = rows.start
            while start < rows.stop:
                if kernel is not None:  # up to the first row it leaves to the reference
                    start = kernel(slice(start, rows.stop), total)
                    if start == rows.stop:
                        break
                chunk = slice(start, min(start + step, rows.stop))
                start = chunk.stop
                fast = self._read_by_class(chunk)
                if fast is not None:
                    present, by_class = fast
                    if present is None:
                        total += by_class
                    else:
                        total[present] += by_class
                    continue
                arguments, n_left_out = self.read(chunk)
                sums = (*block(*arguments), n_left_out)
                parts = ([to_numpy(part).astype(float) for part in sums] if parts is None
                         else [total_part + to_numpy(part)
                               for total_part, part in zip(parts, sums)])
            zeros = np.zeros(n_classes)
            if self.labels_side == "y_pred":
                total = total.T
            matrices = (zeros, total, zeros, zeros, np.asarray(0.0)) * n_matrices
            if parts is None:
                return (*matrices, np.asarray(0))
            return tuple(np.asarray(part + other) for part, other in zip(parts, (*matrices, 0)))

        # The row sums are matrix-vector products of a chunk: BLAS threads only contend
        # (a float32 one was measured 70x slower on two threads of a busy machine).
        with one_blas_thread() if targets.n_samples > step else nullcontext():
            # Each group's parts are its own new arrays: the first group's become the sums.
            return self.sum_rows(one_group, group, 1 if kernel is not None else None,
                                 fresh_parts=True, added=partial(_keep_sum, spare, n_classes))

    def _compiled_by_class(self):
        """The compiled kernel of :meth:`_read_by_class` as ``kernel(rows, total)``, which
        adds the rows' sums by class to ``total`` up to the first row it leaves to the
        NumPy path (an empty row, a bad value, norms or weights near the ends of the
        scores' type) and returns that row (``rows.stop`` where it summed them all); None
        where the NumPy path sums every row: the package was never compiled, or the scores
        are not C-ordered float32 or float64 (small integers are read as float32 there)."""
        compiled, targets = compiled_kernels(), self.targets
        labels, scores, name, given = ((targets.y_true, targets.y_pred, "y_pred",
                                        targets.pred_norm) if self.labels_side == "y_true"
                                       else (targets.y_pred, targets.y_true, "y_true",
                                             targets.true_norm))
        if (compiled is None or not _kernel_layout(scores)
                or labels.indices.dtype not in (np.int32, np.int64)):
            return None
        multipliers = _multipliers(self.callable_weights, targets.sample_weight)
        scores_weighting = "pred" if self.labels_side == "y_true" else "true"
        by_norm = self.callable_weights is None and self.weighting == scores_weighting
        limits = _EQUAL_MASS_LIMITS[scores.dtype]

        tolerance = _SUM_TOLERANCE[scores.dtype == np.float32]  # as the warning's

        def kernel(rows, total):
            # The kernel finds the first row whose sum is not 1 (nothing kept per row)
            check = given is None and targets.off_one.wants(rows.start)
            stop, off_row, off_sum = compiled.sum_rows_by_class(
                scores, labels.indices, rows.start, rows.stop, multipliers, by_norm, *limits,
                tolerance if check else np.inf, total)
            if check and off_row >= 0:
                warn_unless_probabilities(name, np.array([off_sum]), scores.dtype,
                                          targets.off_one, off_row,
                                          scores[off_row:off_row + 1])
            return stop

        return kernel

    def _read_by_class(self, rows):
        """The plans of a chunk of labels beside scores summed by class: ``(present,
        sums)``, the sums of the scores' rows (weighted) by the labels' class, one row per
        class (``present`` None) or per class of ``present`` (a chunk of fewer rows than
        half the classes); None where the chunk takes the reference path (an empty row,
        norms or weights near the ends of the scores' type)."""
        targets = self.targets
        if self.labels_side == "y_true":
            labels, scores, name, given = (targets.y_true, targets.y_pred, "y_pred",
                                           targets.pred_norm)
        else:
            labels, scores, name, given = (targets.y_pred, targets.y_true, "y_true",
                                           targets.true_norm)
        block = mass_block(scores[rows])
        norm = checked_row_sums(name, block, rows.start) if given is None else given[rows]
        if given is None:
            warn_unless_probabilities(name, norm, block.dtype, targets.off_one, rows.start,
                                      block)
        limits = _EQUAL_MASS_LIMITS.get(block.dtype)
        if limits is None or not norm.size or \
                not 1.0 / limits[0] <= norm.min() <= norm.max() <= limits[0]:
            return None
        scale = self._class_scale(rows, norm, limits, block.dtype)
        if scale is None:
            return None
        codes = labels.indices[rows]
        n_rows, present = block.shape[0], None
        if 2 * n_rows < self.n_classes:  # the product's rows: only the classes present
            present, codes = np.unique(codes, return_inverse=True)
            codes = codes.astype(labels.indices.dtype, copy=False)
        one_hot = sp.csc_array((scale, codes, np.arange(n_rows + 1, dtype=codes.dtype)),
                               shape=(self.n_classes if present is None else present.size,
                                      n_rows), copy=False)
        return present, one_hot @ block

    def _class_scale(self, rows, norm, limits, dtype):
        """Each row's weight over its scores' ``norm`` (in ``dtype``); None where a weight
        lies beyond ``limits`` (then the reference path normalizes the rows)."""
        sample_weight = self.targets.sample_weight
        scores_weighting = "pred" if self.labels_side == "y_true" else "true"
        if self.callable_weights is None and self.weighting in ("uniform", scores_weighting):
            # The labels' norm is 1: the weights are ones or the scores' norm.
            scale = 1.0 / norm if self.weighting == "uniform" else None
            if sample_weight is None:
                return (np.ones(norm.shape[0], dtype=dtype) if scale is None
                        else scale.astype(dtype, copy=False))
        ones = np.ones(norm.shape[0])
        true_norm, pred_norm = (ones, norm) if self.labels_side == "y_true" else (norm, ones)
        weights = self._weights(rows, true_norm, pred_norm)
        if not _within(limits, norm, norm, weights):
            return None
        return (weights / norm).astype(dtype, copy=False)

    def read(self, rows):
        """``(u, v, weights, mass, true_empty, pred_empty)``: rows of equal mass ``mass``
        per instance (empty rows stay zero; see :func:`_equal_masses`) and the weights that
        go with them; and the instances ``empty="skip"`` drops."""
        y_true, y_pred, true_norm, pred_norm = self.targets.rows(rows)
        true_empty, pred_empty, weights, skipped = self._empty_and_weights(rows, true_norm,
                                                                           pred_norm)
        u, v, weights, mass = _equal_masses(y_true, y_pred, true_norm, pred_norm, weights)
        return (u, v, weights, mass, true_empty, pred_empty), skipped

    def _empty_and_weights(self, rows, true_norm, pred_norm):
        """``(true_empty, pred_empty, weights, skipped)`` of a slice of rows whose sides have
        norms ``true_norm`` and ``pred_norm``: the empty rows of each side (refused unless
        the matrix has a "none" class or ``empty="skip"``), the instance weights (zero where
        ``empty="skip"`` drops the instance) and the number dropped."""
        true_empty, pred_empty = true_norm == 0, pred_norm == 0
        either_empty = true_empty | pred_empty
        if self.empty != "skip" and not self.has_none and any_true(either_empty):
            self._refuse_empty(rows, true_empty, pred_empty)
        weights = self._weights(rows, true_norm, pred_norm)
        skipped = count_true(either_empty) if self.empty == "skip" else np.asarray(0)
        if self.empty == "skip" and any_true(either_empty):
            weights = weights * as_float(~either_empty)
        return true_empty, pred_empty, weights, skipped

    def _refuse_empty(self, rows, true_empty, pred_empty):
        """``ValueError`` naming the targets and the rows with no mass at all."""
        found = []
        for name, empty in (("y_true", true_empty), ("y_pred", pred_empty)):
            bad = rows.start + np.flatnonzero(to_numpy(empty))
            if bad.size:
                found.append(f"{name} (rows {bad[:5].tolist()}{' ...' if bad.size > 5 else ''})")
        found = " and ".join(found)
        if self.empty == "error":
            raise ValueError(
                f"Instances have all-zero rows in {found}; pass empty='null_class' to count "
                "them in a 'none' class or empty='skip' to drop them.")
        raise ValueError(
            f"Instances have all-zero rows in {found}: rows of soft labels, probabilities or "
            "scores must have positive mass. Only multi-label indicator targets (0/1 y_true) "
            "have a 'none' class for instances with no label; pass empty='skip' to drop "
            "such rows.")

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


def _classic_instances(targets, params, n_jobs=None, chunk_size=None):
    """The classic confusion matrix: the TCM of 1-D class labels (Proposition 7)."""
    if not targets.single_label:
        raise ValueError("kind='classic' takes 1-D class labels; use kind='transport' for "
                         "2-D targets.")
    return _TransportInstances(targets, {"weighting": "uniform", "empty": "null_class"},
                               n_jobs, chunk_size)


def _keep_sum(spare, n_classes, parts):
    """Keep a group's ``n_classes x n_classes`` sum (``parts[1]``, or the array it is the
    transpose of), added to the call's sums, in ``spare`` for a later group."""
    matrix = parts[1] if parts[1].base is None else parts[1].base
    if (type(matrix) is np.ndarray and matrix.shape == (n_classes, n_classes)
            and matrix.dtype == np.float64 and matrix.flags.c_contiguous
            and matrix.flags.owndata and matrix.flags.writeable):
        spare.append(matrix)


def _kernel_csr(matrix):
    """Whether the compiled sparse kernel reads ``matrix``: a CSR array of float64 values
    (contiguous, or one value read as many: a one-hot array's) with int32 or int64 indices
    (of one type with its index pointers). The kernel checks each row's indices itself
    (sorted, unique, in range), leaving the rows from the first other one to the
    reference."""
    return (sp.issparse(matrix) and matrix.format == "csr" and matrix.data.dtype == np.float64
            and matrix.indices.dtype in (np.int32, np.int64)
            and matrix.indptr.dtype == matrix.indices.dtype
            and (matrix.data.flags.c_contiguous or matrix.data.strides == (0,))
            and all(array.flags.c_contiguous for array in (matrix.indices, matrix.indptr)))


def _kernel_layout(rows):
    """Whether the compiled kernels read ``rows``: a 2-D NumPy array of float32 or float64
    whose strides are whole values (C or Fortran order, or a slice of either)."""
    return (isinstance(rows, np.ndarray) and rows.ndim == 2 and rows.dtype in _EQUAL_MASS_LIMITS
            and all(stride % rows.itemsize == 0 for stride in rows.strides))


def _multipliers(callable_weights, sample_weight):
    """The compiled kernels' per-instance factors of the weights: the callable's weights
    times the sample weights, as a float64 vector (empty where both are None)."""
    multipliers = callable_weights
    if sample_weight is not None:
        multipliers = sample_weight if multipliers is None else multipliers * sample_weight
    return np.ascontiguousarray(np.empty(0) if multipliers is None else multipliers,
                                dtype=np.float64)


def _callable_weights(weighting, targets):
    """The callable's weights, checked; on the device of array-API targets.

    The callable gets the checked masses: for array-API targets, arrays of their library
    (1-D labels one-hot encoded), read once through :meth:`Targets.rows`.
    """
    y_true, y_pred = targets.y_true, targets.y_pred
    if targets.namespace is not None or y_true is None:  # one-hot encoded once
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


def _equal_masses(y_true, y_pred, true_norm, pred_norm, weights):
    """``(u, v, weights, mass)``: the rows of a block at one mass per instance, ``mass``,
    and the instance weights divided by it.

    Dense NumPy rows of one type whose norms and weights are far from the ends of the type
    keep ``y_true`` as it is (never copied, never written) and scale ``y_pred`` to its mass;
    other rows are L1-normalized (mass 1, empty rows zero). float32 rows are read as float64
    beside weights that float32 cannot scale them by (:func:`float64_for_weights`) and
    beside float64 rows (:meth:`~._core.targets.Targets.rows`).
    """
    y_true, y_pred = float64_for_weights(weights, y_true, y_pred)
    dense_rows = isinstance(y_true, np.ndarray) and isinstance(y_pred, np.ndarray)
    if dense_rows and y_true.dtype == y_pred.dtype and \
            _within(_EQUAL_MASS_LIMITS.get(y_true.dtype), true_norm, pred_norm, weights):
        v = np.multiply(y_pred, in_dtype_of(y_pred, true_norm / pred_norm)[:, None],
                        out=scratch("v", y_pred.shape, y_pred.dtype))
        return y_true, v, weights / true_norm, true_norm
    return (_normalize_rows(y_true, true_norm, "u"), _normalize_rows(y_pred, pred_norm, "v"),
            weights, 1.0)


def _within(limits, true_norm, pred_norm, weights):
    """Whether every norm lies in ``[1 / norm_limit, norm_limit]`` and every positive weight
    in ``[smallest, largest]`` (``limits``; None: never)."""
    if limits is None:
        return False
    norm_limit, smallest, largest = limits
    return (np.min(weights, where=weights > 0, initial=smallest) >= smallest
            and weights.max(initial=0.0) <= largest
            and min(true_norm.min(), pred_norm.min()) >= 1.0 / norm_limit
            and max(true_norm.max(), pred_norm.max()) <= norm_limit)


def _plan_terms(u, v, weights, mass, true_empty, pred_empty):
    """Weighted plans of a block (equation 8) as terms: the common mass on the diagonal,
    each deficit sent to the excess in proportion (the outer product of the deficit, over
    its mass, with the excess), an empty side on "none" (see :func:`_none_parts`)."""
    common, deficit, excess = _split(u, v)
    return Terms(diagonal=(common, weights),
                 off_diagonal=(deficit, _plan_scale(row_sums(deficit), weights, mass), excess),
                 none_row=(excess, weights * as_float(true_empty & ~pred_empty)),
                 none_column=(deficit, weights * as_float(pred_empty & ~true_empty)),
                 corner=weights * as_float(true_empty & pred_empty))


def _plan_block(u, v, weights, mass, true_empty, pred_empty):
    """Weighted plans of a block: diagonal, off-diagonal and "none" parts (equation 8)."""
    return term_sums(_plan_terms(u, v, weights, mass, true_empty, pred_empty))


def _bounds_block(u, v, weights, mass, true_empty, pred_empty):
    """SCM bounds of a block: the parts of the lower bound, then of the upper bound.

    Sparse rows are summed over their (deficit, excess) pairs; dense rows through one
    ``(rows, n_classes, n_classes)`` array, which the chunk size bounds.
    """
    common, deficit, excess = _split(u, v)
    diagonal = weighted_sum(common, weights)
    none_parts = _none_parts(deficit, excess, weights, true_empty, pred_empty)
    deficit_mass = row_sums(deficit)
    keep = (deficit_mass > DEFICIT_TOLERANCE * mass) & (weights > 0)
    if sp.issparse(deficit):
        lower, upper = _sparse_bounds(deficit, sp.csr_array(excess), weights * keep,
                                      deficit_mass)
    else:
        lower, upper = _dense_bounds(deficit[keep], dense(excess)[keep], weights[keep],
                                     deficit_mass[keep])
    # Deficits and excesses never share a class: the diagonal holds only rounding noise.
    return (diagonal, zero_diagonal(lower), *none_parts,
            diagonal, zero_diagonal(upper), *none_parts)


def _dense_bounds(deficit, excess, weights, deficit_mass):
    """Weighted sums of the Frechet bounds of dense rows (NumPy: in one scratch array)."""
    deficit, excess, deficit_mass = deficit[:, :, None], excess[:, None, :], \
        deficit_mass[:, None, None]
    xp = namespace(weights)
    if xp is not np:
        lower = xp.tensordot(weights, positive_part(deficit + excess - deficit_mass), axes=1)
        return lower, xp.tensordot(weights, minimum(deficit, excess), axes=1)
    work = scratch("bounds", (deficit.shape[0], deficit.shape[1], excess.shape[2]))
    np.add(deficit - deficit_mass, excess, out=work)
    np.maximum(work, 0, out=work)
    lower = np.tensordot(weights, work, axes=1)
    np.minimum(deficit, excess, out=work)
    return lower, np.tensordot(weights, work, axes=1)


def _sparse_bounds(deficit, excess, weights, deficit_mass):
    """Weighted sums of the Frechet bounds of sparse rows, over their nonzero pairs.

    A cell ``(i, j)`` of an instance's bounds is zero unless the deficit ``d_i`` and the
    excess ``e_j`` are both positive, so each row costs the product of its two numbers of
    entries, not ``n_classes**2``. The pairs are expanded a bounded number at a time.
    """
    n_classes = deficit.shape[1]
    lower, upper = np.zeros(n_classes * n_classes), np.zeros(n_classes * n_classes)
    entry_rows = np.repeat(np.arange(deficit.shape[0]), np.diff(deficit.indptr))
    pairs_per_entry = np.diff(excess.indptr)[entry_rows]
    cumulative = np.concatenate([[0], np.cumsum(pairs_per_entry)]) * _PAIR_BYTES
    starts = chunk_starts(cumulative, max(_BOUNDS_CHUNK_BYTES, 8 * n_classes ** 2))
    for start, stop in zip(starts, [*starts[1:], entry_rows.size]):
        counts = pairs_per_entry[start:stop]
        entries = np.repeat(np.arange(start, stop), counts)
        first_pairs = np.repeat(np.cumsum(counts) - counts, counts)
        rows = entry_rows[entries]
        partners = excess.indptr[rows] + (np.arange(entries.size) - first_pairs)
        cells = deficit.indices[entries].astype(np.int64) * n_classes + \
            excess.indices[partners]
        d, e, w = deficit.data[entries], excess.data[partners], weights[rows]
        lower += np.bincount(cells, w * np.maximum(d + e - deficit_mass[rows], 0),
                             minlength=lower.size)
        upper += np.bincount(cells, w * np.minimum(d, e), minlength=upper.size)
    return lower.reshape(n_classes, n_classes), upper.reshape(n_classes, n_classes)


def _split(u, v):
    """Common mass ``min(u, v)``, deficits ``u - m`` and excesses ``v - m``."""
    if sp.issparse(u) and sp.issparse(v):
        common = u.minimum(v)
        return common, u - common, v - common
    if sp.issparse(u):  # labels (one-hot rows) beside dense scores
        return _split_sparse_dense(u, v)
    if sp.issparse(v):  # dense scores of y_true beside labels: the roles swap
        common, excess, deficit = _split_sparse_dense(v, u)
        return common, deficit, excess
    if namespace(u) is not np:  # normalized copies: they become the deficit and excess
        common = minimum(u, v)
        u -= common
        v -= common
        return common, u, v
    # v is the caller's own copy, which becomes the excess; u may be the user's data.
    common = np.minimum(u, v, out=scratch("common", u.shape, u.dtype))
    deficit = np.subtract(u, common, out=scratch("deficit", u.shape, u.dtype))
    v -= common
    return common, deficit, v


def _split_sparse_dense(u, v):
    """:func:`_split` of sparse ``u`` and dense ``v`` (the caller's own copy, which becomes
    the excess): the common mass and the deficit are nonzero only where ``u`` is, so they
    stay sparse, and the plan's product costs one pass over ``v``."""
    rows = np.repeat(np.arange(u.shape[0]), np.diff(u.indptr))
    shared = np.minimum(u.data, v[rows, u.indices])
    v[rows, u.indices] -= shared  # a canonical CSR array holds each cell once

    def like_u(data):
        return sp.csr_array((data, u.indices, u.indptr), shape=u.shape)

    return like_u(shared), like_u(u.data - shared), v


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


def _plan_scale(deficit_mass, weights, mass):
    """``lambda / s`` per row; zero where the deficit is rounding noise, below a fraction
    of the rows' ``mass`` (equation 9)."""
    noise = DEFICIT_TOLERANCE * mass
    return safe_divide(weights, deficit_mass * as_float(deficit_mass > noise))


def _normalize_rows(matrix, norms, slot):
    """Rows divided by their L1 norms (empty rows stay zero); dense into scratch ``slot``."""
    dense_numpy = not sp.issparse(matrix) and namespace(matrix) is np
    return divided_rows(matrix, norms,
                        out=scratch(slot, matrix.shape, matrix.dtype) if dense_numpy else None)


def _classic_on_labels(params):
    """Single labels have unit masses: every named weighting gives the classic matrix
    (Proposition 7); a weighting callable weighs each instance."""
    return not callable(params["weighting"])


def _transport_values_deferred(params):
    """Dense values are checked block by block in the single pass over the data, except
    when a user callable must first see the whole (checked) arrays."""
    return not callable(params["weighting"])


_TRANSPORT_PARAMETERS = {"weighting": "uniform", "empty": "null_class"}
TRANSPORT = register(MatrixKind(
    "transport", "transport_confusion_matrix", transport_confusion_matrix.parameter_constraints,
    _TRANSPORT_PARAMETERS, _TransportInstances,
    block=lambda params: _plan_block, finish=finish_matrix,
    deferred_checks=_transport_values_deferred, classic_on_labels=_classic_on_labels,
    terms=lambda params: _plan_terms))
SUBPIXEL = register(MatrixKind(
    "subpixel", "subpixel_confusion_matrix", subpixel_confusion_matrix.parameter_constraints,
    _TRANSPORT_PARAMETERS, _TransportInstances,
    block=lambda params: _bounds_block, finish=finish_bounds,
    row_bytes=lambda n_classes: 8 * n_classes * (n_classes + 4),
    chunk_bytes=_BOUNDS_CHUNK_BYTES,
    deferred_checks=_transport_values_deferred, n_matrices=2,
    classic_on_labels=_classic_on_labels))
CLASSIC = register(MatrixKind(
    "classic", "transport_confusion_matrix", transport_confusion_matrix.parameter_constraints,
    {}, _classic_instances,
    block=lambda params: _plan_block, finish=finish_matrix,
    deferred_checks=lambda params: True, classic_on_labels=lambda params: True,
    terms=lambda params: _plan_terms, target_kinds=()))
