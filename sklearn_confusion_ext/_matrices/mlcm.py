"""Multi-label confusion matrices: MLCM, Krstinic et al.'s 2020 matrix and the MLCT.

* MLCM: Heydarian, Doyle and Samavi, "MLCM: Multi-Label Confusion Matrix",
  IEEE Access 2022, Algorithms 2-5, with a no-true-label (NTL) row and a
  no-predicted-label (NPL) column.
* Krstinic, Braovic, Seric et al. 2020: four formulas by how the true set and
  the predicted set overlap (the "MLCM" of Erbani et al. 2024, Table 6).
* MLCT: Krstinic et al. 2024, a recall matrix and a precision matrix.

Per instance, with true indicator ``t``, predicted ``p``, ``t1 = t AND p``,
``t2 = t - t1`` and ``p2 = p - t1``, each matrix is a diagonal count plus outer
products of these vectors, so a whole block of instances is a weighted column
sum plus one or two matrix products with per-row masks and scale factors. The
last row and column ("none": NTL/NPL, or the "unknown" class) receive the
instances with an empty label or prediction.
"""

import numpy as np
import scipy.sparse as sp

from .._core.arrays import (
    as_float,
    dense,
    float64_for_weights,
    masked_sum,
    multiply,
    namespace,
    ones_like,
    row_sums,
    safe_divide,
    scaled_rows,
    weighted_sum,
)
from .._core.confusion import class_counts, finish_matrix, finish_tensor, normalize_confusion
from .._core.dispatch import confusions
from .._core.kinds import Instances, MatrixKind, register
from .._core.matrix_checks import check_confusion_matrix
from .._core.params import (
    ARRAY,
    BOOLEAN,
    NORMALIZE,
    PARALLEL,
    TARGETS,
    Options,
    validate_params,
)
from .._core.params import MLCM as MLCM_DECLARATION
from .._core.targets import check_targets, require_binary
from .._core.terms import Terms, term_sums


@validate_params({**MLCM_DECLARATION, "normalize": NORMALIZE, **PARALLEL})
def mlcm(y_true, y_pred, *, labels=None, normalize=None, sample_weight=None,
         method="heydarian", n_jobs=None, chunk_size=None):
    """Multi-label confusion matrix with no-true-label and no-predicted-label cells.

    ``method="heydarian"`` (default) is the MLCM of Heydarian et al. (2022),
    Algorithms 2-5: each correctly predicted label counts once on the diagonal;
    then, if some predictions are wrong and some true labels missed, each missed
    label counts once in the column of each wrong prediction; if no true label
    was missed, each true label counts once in the column of each wrong
    prediction; if no prediction was wrong, each missed label counts in the NPL
    column; an instance with no true label puts its predictions in the NTL row
    (or one count in the NTL/NPL corner if nothing was predicted either).

    ``method="krstinic"`` is the matrix of Krstinic et al. (2020), with
    ``m = min(y, y_hat)``: ``y = y_hat`` gives ``diag(y)``; ``y`` strictly
    inside ``y_hat`` gives ``(y (y_hat - m)^T + |y| diag(y)) / |y_hat|``;
    ``y_hat`` strictly inside ``y`` gives ``(y - m) y_hat^T / |y_hat| +
    diag(y_hat)``; otherwise ``(y - m)(y_hat - m)^T / |y_hat - m| + diag(m)``.
    An empty label or prediction is first replaced by the "unknown" class
    (last row/column). In the first three cases it equals the transport
    confusion matrix with ``weighting="true"`` (Erbani et al. 2024, Prop. 8).

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_classes)
        Binary indicator matrix of the true labels; 1-D class labels are read
        as one-hot rows. Dask and array-API inputs as in
        :func:`transport_confusion_matrix`.
    y_pred : array-like or sparse matrix of shape (n_samples, n_classes)
        Binary indicator matrix of the predicted labels.
    labels : array-like, default=None
        Column indices (2-D input) or class labels (1-D input) of the classes
        to show, in that order; the last row and column stay last. The full
        matrix is computed first, so instances of unlisted classes never turn
        into NTL/NPL counts.
    normalize : {"true", "pred", "all"}, default=None
        Normalize over rows, columns or the whole matrix. The paper prints
        row percentages: ``100 * mlcm(..., normalize="true")``.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each instance's counts.
    method : {"heydarian", "krstinic"}, default="heydarian"
        Which multi-label confusion matrix.
    n_jobs, chunk_size : int, default=None
        Threads and rows per chunk, as in :func:`transport_confusion_matrix`.

    Returns
    -------
    ndarray of shape (n_labels + 1, n_labels + 1)
        Rows: true classes, then NTL; columns: predicted classes, then NPL (in
        the input's array library for array-API inputs).

    See Also
    --------
    mlcm_categories : The category of each instance, which decides how it is counted.
    mlcm_counts_from_confusion : The per-class TN, FP, FN and TP of the matrix.
    mlcm_multilabel_confusion_matrix : The same counts from the targets.
    multilabel_confusion_tensor : Krstinic et al.'s recall and precision matrices.
    transport_confusion_matrix : The transport matrix of the same targets.
    normalize_confusion_matrix : A given matrix normalized, as ``normalize=`` does.

    Notes
    -----
    Differences from the authors' ``mlcm`` package (``mlcm.cm``, version
    0.0.1): when an instance has a correctly predicted label, a missed label
    and at least two wrong predictions, the package pairs the first wrong
    prediction with every missed label and each later wrong prediction with
    every true label, the correctly predicted ones included (with no label
    correctly predicted the two agree). This
    function follows Algorithm 5 of the paper, which pairs every wrong
    prediction with the missed labels only (Table 5: the package adds a count
    at row C0, column C4 that the paper does not). The package also fails on
    NumPy >= 1.24 (``np.int``).

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048: Table 3 (the
       three categories), Algorithms 2-5 and equations 9-14 (the counts of each
       category), Table 4 (the matrix of the instances of Table 1).
    .. [2] Krstinic, D., Braovic, M., Seric, L. and Bozic-Stulic, D. (2020).
       "Multi-label classifier performance evaluation with confusion matrix". Computer
       Science & Information Technology, 1, 1-14 (``method="krstinic"``: the four formulas).
    .. [3] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Section IV-A and
       Proposition 8 (Krstinic et al.'s matrix against the transport matrix weighted by
       ``|y|_1``), Table 6 (the "MLCM" of their comparison).

    Examples
    --------
    Table 1 of Heydarian et al. (2022) gives its Table 4j:

    >>> from sklearn_confusion_ext import mlcm
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> mlcm(y_true, y_pred)
    array([[5., 2., 4., 0.],
           [0., 2., 3., 1.],
           [0., 0., 1., 0.],
           [0., 1., 1., 1.]])
    """
    kind = _MLCM_METHODS[method]
    return kind.finish(confusions(kind, y_true, y_pred, labels=labels,
                                  sample_weight=sample_weight, n_jobs=n_jobs,
                                  chunk_size=chunk_size), normalize)


@validate_params({"matrix": [ARRAY]})
def mlcm_counts_from_confusion(matrix):
    """Per-class ``[[TN, FP], [FN, TP]]`` of a given MLCM (equations 15-18).

    For a multi-label confusion matrix a paper or a report prints (rows the true classes then
    NTL, columns the predicted classes then NPL), without the instances it was built from.
    TP is the diagonal cell of the class, FN the rest of its row, FP the rest of its column
    and TN (eq. 16) the sum of the *other diagonal cells*; the last entry is the NTL/NPL
    class. :func:`mlcm_multilabel_confusion_matrix` computes the same from labels.

    Parameters
    ----------
    matrix : array-like of shape (n_labels + 1, n_labels + 1)
        The MLCM, its last row NTL and its last column NPL.

    Returns
    -------
    ndarray of shape (n_labels + 1, 2, 2)

    See Also
    --------
    mlcm : The matrix of the targets.
    mlcm_multilabel_confusion_matrix : The same counts from the targets.
    mlcm_precision_recall_fscore_support : The scores read off these counts.

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048: equations 15-18 (TP,
       TN, FP and FN of a class), Tables 7 and 9 (the counts of Tables 4 and 8a).

    Examples
    --------
    Table 9 of Heydarian et al. (2022) from its Table 8a, class C_0 and the NPL column:

    >>> from sklearn_confusion_ext import mlcm_counts_from_confusion
    >>> table_8a = [
    ...     [58, 1, 0, 1, 0, 5, 4, 2, 3, 7], [1, 105, 0, 0, 1, 1, 0, 0, 4, 13],
    ...     [0, 2, 24, 0, 0, 0, 0, 0, 0, 3], [1, 1, 1, 9, 0, 4, 1, 0, 0, 4],
    ...     [2, 5, 2, 1, 54, 2, 1, 0, 0, 7], [5, 3, 1, 0, 1, 10, 4, 2, 5, 20],
    ...     [1, 0, 0, 5, 4, 9, 48, 6, 2, 24], [3, 1, 1, 0, 1, 9, 1, 42, 3, 18],
    ...     [4, 5, 0, 0, 4, 8, 2, 0, 161, 11], [0] * 10]
    >>> counts = mlcm_counts_from_confusion(table_8a)
    >>> counts[0]
    array([[453.,  17.],
           [ 23.,  58.]])
    >>> counts[-1]
    array([[511., 107.],
           [  0.,   0.]])
    """
    matrix = check_confusion_matrix(matrix, "matrix", min_classes=2)
    tp, fp, fn, _ = class_counts(matrix)
    return np.stack([tp.sum() - tp, fp, fn, tp], axis=1).reshape(-1, 2, 2)


@validate_params({"matrix": [ARRAY], "normalize": [Options("true", "pred", "all")]})
def normalize_confusion_matrix(matrix, *, normalize="true"):
    """A given confusion matrix (an MLCM included) normalized over rows, columns or all.

    What ``normalize=`` of :func:`mlcm` and :func:`transport_confusion_matrix` does, for a
    matrix already built or printed; a zero row (the NTL row of a data set where every
    instance has a label) stays zero, as in :func:`sklearn.metrics.confusion_matrix`.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        The confusion matrix.
    normalize : {"true", "pred", "all"}, default="true"
        Divide each row by its sum ("true"), each column ("pred") or the whole ("all").

    Returns
    -------
    ndarray of shape (n_classes, n_classes)

    See Also
    --------
    mlcm : Its ``normalize=`` normalizes the matrix it builds.
    transport_confusion_matrix : Its ``normalize=`` likewise.
    mlcm_counts_from_confusion : The per-class counts of a given MLCM.

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048: Table 8b (the row
       percentages of Table 8a).
    .. [2] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: equations 44-51 (the
       row and column normalizations and how to read them).

    Examples
    --------
    Heydarian et al. (2022) print Table 8b as the row percentages of Table 8a:

    >>> from sklearn_confusion_ext import normalize_confusion_matrix
    >>> row_5 = [5, 3, 1, 0, 1, 10, 4, 2, 5, 20]
    >>> (100 * normalize_confusion_matrix([row_5, [0] * 10] + [[0] * 10] * 8)[0]).round()
    array([10.,  6.,  2.,  0.,  2., 20.,  8.,  4., 10., 39.])
    """
    matrix = check_confusion_matrix(matrix, "matrix")
    return normalize_confusion(matrix, normalize)


def mlcm_confusion(y_true, y_pred, *, labels, sample_weight, method, column_labels=None):
    """The full MLCM of checked parameters, as a :class:`Confusion` (for the scores;
    ``column_labels``: a classifier's ``classes_`` beside its probabilities)."""
    (confusion,) = confusions(_MLCM_METHODS[method], y_true, y_pred, labels=labels,
                              sample_weight=sample_weight, column_labels=column_labels)
    return confusion


@validate_params({**TARGETS})
def mlcm_categories(y_true, y_pred):
    """The category of Heydarian et al. (2022) of each instance, for inspecting an MLCM.

    With true set *T*, predicted set *P*, missed labels ``T2 = T - P`` and wrong
    predictions ``P2 = P - T``: category 1 when ``P`` is a subset of ``T`` (no wrong
    prediction; both empty included), 2 when ``T`` is a strict subset of ``P`` (nothing
    missed, some wrong predictions; no true label at all included), 3 when labels are
    missed and wrong ones predicted. Each category is counted in the matrix by its own
    algorithm (Algorithms 3-5 of the paper; :func:`mlcm`).

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        0/1 multi-label indicators (1-D class labels are read as one-hot rows).

    Returns
    -------
    ndarray of shape (n_samples,)
        1, 2 or 3 for each instance.

    See Also
    --------
    mlcm : The matrix that counts each category by its own algorithm.

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048: Table 3 (the
       categories), Algorithms 3-5 (how each is counted), Table 1 (three instances of
       each).

    Examples
    --------
    Table 1 of the paper lists three instances of each category:

    >>> from sklearn_confusion_ext import mlcm_categories
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> mlcm_categories(y_true, y_pred)
    array([1, 1, 1, 2, 2, 2, 3, 3, 3])
    """
    targets = check_targets(y_true, y_pred)
    require_binary(targets, "the MLCM categories need 0/1 indicators.")
    t, p, _, _ = targets.rows(slice(0, targets.n_samples))
    if sp.issparse(t) != sp.issparse(p):
        t, p = dense(t), dense(p)
    _, _, _, n_missed, n_wrong = _overlaps(t, p)
    return np.where(n_wrong == 0, 1, np.where(n_missed == 0, 2, 3))


@validate_params({**TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                  "unique": [BOOLEAN], "normalize": [BOOLEAN], **PARALLEL})
def multilabel_confusion_tensor(y_true, y_pred, *, labels=None, unique=True, normalize=False,
                                sample_weight=None, n_jobs=None, chunk_size=None):
    """Multi-label confusion tensor (MLCT): a recall matrix and a precision matrix.

    Krstinic et al. (IEEE Access 2024). Per instance, with ``t1 = t AND p``,
    ``t2 = t - t1`` and ``p2 = p - t1``:

    * ``unique=True``: ``CR += diag(t1) + t2 p^T / |p|`` and
      ``CP += diag(t1) + t p2^T / |t|``;
    * ``unique=False``: ``CR = CP = diag(t1)``, then, unless ``t = p``: if
      ``t2`` is empty ``CP += t p2^T / |t|``; elif ``p2`` is empty
      ``CR += t2 p^T / |p|``; else ``CR += t2 p2^T / |p2|`` and
      ``CP += t2 p2^T / |t2|``.

    An empty label or prediction is first replaced by the "unknown" class
    (last row/column).

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight
        As in :func:`mlcm`.
    unique : bool, default=True
        Which of the two update rules above.
    normalize : bool, default=False
        Row-normalize the recall matrix and column-normalize the precision
        matrix (all-zero rows and columns stay zero): their diagonals are then
        the per-class recall and precision.
    n_jobs, chunk_size : int, default=None
        Threads and rows per chunk, as in :func:`transport_confusion_matrix`.

    Returns
    -------
    ndarray of shape (2, n_labels + 1, n_labels + 1)
        ``[0]`` the recall counts CR, ``[1]`` the precision counts CP.

    See Also
    --------
    mlcm : The multi-label confusion matrix (one matrix), either method.
    transport_confusion_matrix : One matrix of the same targets.

    References
    ----------
    .. [1] Krstinic, D., Skelin, A. K., Slapnicar, I. and Braovic, M. (2024).
       "Multi-label confusion tensor". IEEE Access, 12, 9860-9870.
    .. [2] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Section II-A and
       Section VIII (the MLCT's recall and precision matrices beside the transport
       matrix, Tables 6 and 7).

    Examples
    --------
    >>> from sklearn_confusion_ext import multilabel_confusion_tensor
    >>> recall, precision = multilabel_confusion_tensor([[1, 1, 0]], [[1, 0, 1]])
    >>> recall
    array([[1. , 0. , 0. , 0. ],
           [0.5, 0. , 0.5, 0. ],
           [0. , 0. , 0. , 0. ],
           [0. , 0. , 0. , 0. ]])
    >>> precision
    array([[1. , 0. , 0.5, 0. ],
           [0. , 0. , 0.5, 0. ],
           [0. , 0. , 0. , 0. ],
           [0. , 0. , 0. , 0. ]])
    """
    return MLCT.finish(confusions(MLCT, y_true, y_pred, labels=labels,
                                  sample_weight=sample_weight, n_jobs=n_jobs,
                                  chunk_size=chunk_size, params={"unique": unique}), normalize)


class _BinaryInstances(Instances):
    """Validated 0/1 indicator targets (or 1-D labels, read as one-hot rows)."""

    def __init__(self, targets, params, n_jobs=None, chunk_size=None):
        require_binary(targets, "the multi-label matrices need 0/1 indicators; for soft "
                                "labels use transport_confusion_matrix.")
        super().__init__(targets, n_jobs, chunk_size)

    def read(self, rows):
        """``(t, p, n_true, n_pred, weights)``; no instance is left out."""
        t, p, n_true, n_pred = self.targets.rows(rows)
        if sp.issparse(t) != sp.issparse(p):  # labels beside 0/1 predictions: a dense chunk
            t, p = dense(t), dense(p)
        sample_weight = self.targets.sample_weight
        weights = ones_like(n_true) if sample_weight is None else sample_weight[rows]
        t, p = float64_for_weights(weights, t, p)
        return (t, p, n_true, n_pred, weights), np.asarray(0)


def _overlaps(t, p):
    """``t1 = t AND p``, ``t2 = t - t1``, ``p2 = p - t1`` and the sizes of ``t2``, ``p2``."""
    t1 = multiply(t, p)
    t2, p2 = t - t1, p - t1
    return t1, t2, p2, row_sums(t2), row_sums(p2)


def _heydarian_terms(t, p, n_true, n_pred, weights):
    """Algorithms 2-5 of Heydarian et al. (2022) on a block of instances, as terms."""
    t1, t2, p2, n_missed, n_wrong = _overlaps(t, p)
    # Category 2 (nothing missed): every true label takes the wrong predictions;
    # category 3: only the missed labels do. Category 1 has no wrong prediction.
    missed = as_float(n_missed > 0)
    if _unit_counts(t1, weights):  # 0/1 rows of unit weight: float32 sums are the counts
        missed = missed.astype(np.float32)
    rows = t - scaled_rows(t1, missed)
    no_true_label = weights * as_float(n_true == 0)
    return Terms(diagonal=(t1, weights), off_diagonal=(rows, weights, p2),
                 none_row=(p2, no_true_label),  # NTL row (Algorithm 4, T empty)
                 none_column=(t2, weights * as_float(n_wrong == 0)),  # NPL (Algorithm 3)
                 corner=no_true_label * as_float(n_pred == 0))  # Algorithm 2, both empty


def _unit_counts(block, weights):
    """Whether a float32 NumPy block of 0/1 indicators is summed under unit weights in
    fewer rows than float32 counts exactly (2**24): its off-diagonal rows can then stay
    float32 (one float32 product, no float64 copy), their sums the same numbers."""
    return (isinstance(block, np.ndarray) and block.dtype == np.float32
            and len(block) < 2**24 and isinstance(weights, np.ndarray)
            and bool((weights == 1).all()))


def _krstinic_terms(t, p, n_true, n_pred, weights):
    """Krstinic et al. (2020) on a block of instances, empty sides on "unknown"."""
    m, t2, p2, n_missed, n_wrong = _overlaps(t, p)
    both = (n_true > 0) & (n_pred > 0)
    pred_inside = both & (n_missed == 0) & (n_wrong > 0)  # y strictly inside y_hat
    true_inside = both & (n_missed > 0) & (n_wrong == 0)  # y_hat strictly inside y
    neither = both & (n_missed > 0) & (n_wrong > 0)
    diagonal_scale = namespace(n_true).where(pred_inside, safe_divide(n_true, n_pred),
                                             ones_like(n_true))
    row_scale = weights * (safe_divide(pred_inside | true_inside, n_pred)
                           + safe_divide(neither, n_wrong))
    rows = t2 + scaled_rows(m, as_float(pred_inside))
    columns = p2 + scaled_rows(m, as_float(true_inside))
    row, column, corner = _unknown_terms(t, p, n_true, n_pred, weights, true_per_pred=False)
    return Terms(diagonal=(m, weights * diagonal_scale), off_diagonal=(rows, row_scale, columns),
                 none_row=row, none_column=column, corner=corner)


def _tensor_block_unique(t, p, n_true, n_pred, weights):
    """MLCT with ``unique=True``: recall parts, then precision parts."""
    t1, t2, p2, _, _ = _overlaps(t, p)
    both = (n_true > 0) & (n_pred > 0)
    diagonal = weighted_sum(t1, weights)
    recall = dense(scaled_rows(t2, weights * safe_divide(both, n_pred)).T @ p)
    precision = dense(scaled_rows(t, weights * safe_divide(both, n_true)).T @ p2)
    return _tensor_parts(diagonal, recall, precision, t, p, n_true, n_pred, weights)


def _tensor_block(t, p, n_true, n_pred, weights):
    """MLCT with ``unique=False``: recall parts, then precision parts."""
    t1, t2, p2, n_missed, n_wrong = _overlaps(t, p)
    both = (n_true > 0) & (n_pred > 0)
    pred_inside = both & (n_missed == 0) & (n_wrong > 0)
    true_inside = both & (n_missed > 0) & (n_wrong == 0)
    neither = both & (n_missed > 0) & (n_wrong > 0)
    diagonal = weighted_sum(t1, weights)
    recall_columns = p2 + scaled_rows(t1, as_float(true_inside))
    recall_scale = weights * (safe_divide(true_inside, n_pred) + safe_divide(neither, n_wrong))
    recall = dense(scaled_rows(t2, recall_scale).T @ recall_columns)
    precision_rows = t2 + scaled_rows(t1, as_float(pred_inside))
    precision_scale = weights * (safe_divide(pred_inside, n_true)
                                 + safe_divide(neither, n_missed))
    precision = dense(scaled_rows(precision_rows, precision_scale).T @ p2)
    return _tensor_parts(diagonal, recall, precision, t, p, n_true, n_pred, weights)


def _tensor_parts(diagonal, recall, precision, t, p, n_true, n_pred, weights):
    """The parts of the recall matrix, then of the precision matrix."""
    recall_unknown = _unknown_parts(t, p, n_true, n_pred, weights, true_per_pred=False)
    precision_unknown = _unknown_parts(t, p, n_true, n_pred, weights, true_per_pred=True)
    return (diagonal, recall, *recall_unknown, diagonal, precision, *precision_unknown)


def _unknown_parts(t, p, n_true, n_pred, weights, true_per_pred):
    """Row, column and corner sums of the "unknown" class (:func:`_unknown_terms`)."""
    row, column, corner = _unknown_terms(t, p, n_true, n_pred, weights, true_per_pred)
    return weighted_sum(*row), weighted_sum(*column), masked_sum(corner, corner != 0)


def _unknown_terms(t, p, n_true, n_pred, weights, true_per_pred):
    """Row, column and corner of the "unknown" class, which replaces an empty side, as
    ``(rows, scale)`` terms and the corner's scales.

    With no true label, the row gets the prediction, normalized by its size
    unless ``true_per_pred`` (a precision count: one per predicted label);
    with no prediction, the column gets the true labels, each counted once
    unless ``true_per_pred`` (normalized by their number).
    """
    no_true = weights * as_float((n_true == 0) & (n_pred > 0))
    no_pred = weights * as_float((n_pred == 0) & (n_true > 0))
    row = (p, no_true if true_per_pred else no_true * safe_divide(1.0, n_pred))
    column = (t, no_pred * safe_divide(1.0, n_true) if true_per_pred else no_pred)
    return row, column, weights * as_float((n_true == 0) & (n_pred == 0))


def _linear_block(terms):
    """The block function of a kind written as :class:`Terms`."""
    return lambda *arguments: term_sums(terms(*arguments))


def _row_bytes(n_classes):
    """Working bytes of a row of a multi-label block: its targets, their overlap and the
    terms built from them, about twice a row of float64 masses (measured best at q = 20)."""
    return 16 * n_classes


def _values_deferred(params):
    """The 0/1 check of the whole targets (:class:`_BinaryInstances`) runs before any
    block, so the row sums are taken block by block, in cache."""
    return True


MLCM = register(MatrixKind("mlcm", "mlcm", mlcm.parameter_constraints, {}, _BinaryInstances,
                           block=lambda params: _linear_block(_heydarian_terms),
                           finish=finish_matrix, terms=lambda params: _heydarian_terms,
                           classic_on_labels=lambda params: True, compact_integers=True,
                           deferred_checks=_values_deferred, row_bytes=_row_bytes,
                           target_kinds=("multilabel",)))
MLCM_KRSTINIC = register(MatrixKind("mlcm_krstinic", "mlcm", mlcm.parameter_constraints, {},
                                    _BinaryInstances,
                                    block=lambda params: _linear_block(_krstinic_terms),
                                    finish=finish_matrix,
                                    terms=lambda params: _krstinic_terms,
                                    classic_on_labels=lambda params: True,
                                    deferred_checks=_values_deferred, row_bytes=_row_bytes,
                                    target_kinds=("multilabel",)))
MLCT = register(MatrixKind(
    "mlct", "multilabel_confusion_tensor", multilabel_confusion_tensor.parameter_constraints,
    {"unique": True}, _BinaryInstances,
    block=lambda params: _tensor_block_unique if params["unique"] else _tensor_block,
    finish=finish_tensor, n_matrices=2, classic_on_labels=lambda params: True,
    deferred_checks=_values_deferred, target_kinds=("multilabel",)))
_MLCM_METHODS = {"heydarian": MLCM, "krstinic": MLCM_KRSTINIC}
