"""One validation layer: any classification target becomes two mass arrays.

Every public function of the library starts here. :func:`check_targets` turns
``(y_true, y_pred)`` given as 1-D class labels, 2-D binary indicator matrices
(multi-label) or 2-D non-negative reals (soft labels), dense or
``scipy.sparse``, into two non-negative float64 arrays of shape
``(n_samples, n_classes)`` with the class labels, the target kind and the
checked sample weights. Bad input raises ``ValueError`` naming the argument,
before any work is done.
"""

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import unique_labels

from .arrays import namespace, row_sums, to_numpy
from .chunks import chunk_rows, map_chunks
from .params import quoted
from .user_warnings import warn

SINGLE_LABEL = "single-label"
MULTILABEL = "multilabel"
SOFT = "soft"
LABELS_VS_SCORES = "labels-vs-scores"
# Float class labels must be integers that float64 holds exactly.
_LARGEST_FLOAT_LABEL = 2.0 ** 53
# Integer labels spanning at most this many values (or twice their number) are encoded by
# a count over their range, without a sort.
_DENSE_LABEL_RANGE = 1 << 16
# Longest string labels encoded through integer keys (longer ones: by string comparisons).
_STRING_KEY_WIDTH = 16
# Rows read at first when checking that a target holds only 0 and 1: soft labels and
# probabilities are found there, without a pass over the whole array.
_FIRST_ROWS = 1024


class _cached_property(cached_property):  # noqa: N801 (named as the decorator it is)
    """:func:`functools.cached_property` without the lock that Python 3.10 and 3.11 take on
    each first read (3.12 removed it): about 1 us a read, on every call of every metric.
    The values are pure functions of the frozen targets; two threads may compute one
    twice, never differently."""

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value


@dataclass(frozen=True)
class Targets:
    """Validated targets.

    Attributes
    ----------
    y_true, y_pred : ndarray or scipy.sparse.csr_array of shape (n_samples, n_classes)
        Non-negative float64 masses. 1-D labels become a sparse one-hot array, or stay
        codes (both None, see ``codes``; :meth:`rows` encodes them block by block).
    classes : ndarray of shape (n_classes,)
        The class label of each column: the labels of 1-D targets (``labels``
        first, in their order, then the other observed labels, sorted), or the
        column indices of 2-D targets.
    selection : ndarray of int or None
        Column positions of the classes the user asked for with ``labels=``,
        in that order; None when every class is wanted.
    single_label : bool
        Whether the targets were 1-D class labels.
    true_norm, pred_norm : ndarray of shape (n_samples,) or None
        L1 norm of each row of ``y_true`` and ``y_pred``; None when the
        targets are dense 2-D arrays whose values are checked block by block
        in :meth:`rows` (``check_targets(..., defer_value_checks=True)``).
    sample_weight : ndarray of shape (n_samples,) or None
        Checked non-negative weights.
    one_hot : tuple of str
        The targets given as 1-D class labels beside 2-D scores (``"y_true"`` for a
        classifier's ``predict_proba`` scored against labels), one-hot encoded against
        ``classes``, the names of the columns; empty otherwise.
    codes : tuple of ndarray or None
        1-D labels in memory: the column of each instance's class, for ``y_true`` and
        ``y_pred`` (the matrices of single labels are counts of pairs of codes).
    pair_counts : ndarray of shape (n_classes, n_classes) or None
        The counts of the pairs of codes, weighted by ``sample_weight`` where it is given,
        where validation found them on the way (integer labels in a small range, without
        ``labels=``).
    true_counts : ndarray of shape (n_classes,) or None
        The unweighted count of each class in ``y_true``, where validation found it.
    categories : ndarray or None
        The categories of a categorical 1-D target (pandas, polars ``Enum``), in their
        order: the order of the classes, of which they are the ones that occur (an unused
        category is no class, as in scikit-learn); None otherwise. Sums of pieces
        (:class:`~.sums.ConfusionSum`) order their classes by it.
    """

    y_true: object
    y_pred: object
    classes: np.ndarray
    selection: object
    single_label: bool
    true_norm: np.ndarray
    pred_norm: np.ndarray
    sample_weight: object
    one_hot: tuple = ()
    codes: tuple = None
    pair_counts: object = None
    true_counts: object = None
    categories: object = None
    # Whether the warning that 2-D scores beside labels are not probabilities was given
    # (blocks checked one by one warn once).
    warned: list = field(default_factory=list, compare=False, repr=False)

    @property
    def chunk_factor(self):
        """Rows of a chunk are this many times the cache-sized default: twice for dense
        4-byte masses (float32, and small integers read as float32), whose rows take half
        the bytes the kinds count (device arrays: see their own)."""
        four_bytes = [isinstance(y, np.ndarray) and y.ndim == 2 and
                      (y.dtype == np.float32 or _is_small_integer(y.dtype))
                      for y in (self.y_true, self.y_pred)]
        return 2 if all(four_bytes) else 1

    def threads(self, n_jobs):
        """Threads over chunks for the user's ``n_jobs`` (None: chosen from the data)."""
        return n_jobs

    @property
    def n_samples(self):
        return (self.y_true if self.y_true is not None else self.codes[0]).shape[0]

    def rows(self, rows):
        """Both targets and their norms on a slice of rows.

        Where the value checks were deferred, the block is checked here: NaN,
        infinite or negative entries raise ``ValueError`` naming the row. 1-D labels
        kept as codes (``y_true`` None) are one-hot encoded here, block by block.
        """
        if self.y_true is None:
            n_classes = len(self.classes)
            y_true, y_pred = (one_hot_codes(codes[rows], n_classes) for codes in self.codes)
            return y_true, y_pred, np.ones(y_true.shape[0]), np.ones(y_pred.shape[0])
        y_true, y_pred = (csr_rows(y, rows) if sp.issparse(y) else mass_block(y[rows])
                          for y in (self.y_true, self.y_pred))
        if isinstance(y_true, np.ndarray) and isinstance(y_pred, np.ndarray) and \
                y_true.dtype != y_pred.dtype:
            # float32 beside float64 in float64: the float32 side's norms, rows and common
            # mass were rounded to float32 (6e-7 from the float64 result, 15 times the
            # error of two float32 sides)
            dtype = np.result_type(y_true, y_pred)
            y_true, y_pred = y_true.astype(dtype, copy=False), y_pred.astype(dtype, copy=False)
        true_norm, pred_norm = (
            checked_row_sums(name, y, rows.start) if norm is None else norm[rows]
            for name, y, norm in (("y_true", y_true, self.true_norm),
                                  ("y_pred", y_pred, self.pred_norm)))
        if self.one_hot and not self.warned:  # scores beside labels, checked in this block
            for name, y, norm, given in (("y_true", y_true, true_norm, self.true_norm),
                                         ("y_pred", y_pred, pred_norm, self.pred_norm)):
                if given is None and name not in self.one_hot:
                    warn_unless_probabilities(name, norm, y.dtype, self.warned, rows.start)
        return y_true, y_pred, true_norm, pred_norm

    @property
    def namespace(self):
        """``(xp, device)`` of targets from another array library, else None."""
        return None

    @_cached_property
    def true_classes(self):
        """The labels that occur in ``y_true`` (1-D labels, also beside 2-D scores: every
        class when ``y_true`` holds the scores); None for 2-D targets."""
        if not self.single_label and not self.one_hot:
            return None
        if "y_true" not in self.one_hot and not self.single_label:
            return self.classes
        if self.true_counts is not None:
            counts = self.true_counts
        else:
            codes = self.y_true.indices if self.codes is None else self.codes[0]
            counts = np.bincount(codes, minlength=len(self.classes))
        if counts.all():  # every class (read-only, as every reader here reads it)
            return self.classes
        return self.classes[counts > 0]

    @_cached_property
    def kind(self):
        """"single-label" (1-D labels), "labels-vs-scores" (1-D labels beside 2-D scores),
        "multilabel" (2-D 0/1) or "soft"."""
        if self.one_hot:
            return LABELS_VS_SCORES
        return target_kind(self.single_label, [self.y_true, self.y_pred])

    @_cached_property
    def can_be_empty(self):
        """Whether an instance may have no true class: ``y_true`` is a 2-D multi-label
        indicator matrix. Only then does the transport matrix get a "none" class; the
        shape follows the input kind, never the values of one fold."""
        return not self.single_label and "y_true" not in self.one_hot and \
            is_binary(self.y_true)

    @property
    def true_kind(self):
        """How ``y_true`` is read: None for 1-D class labels; for a 2-D ``y_true``,
        "multilabel" (0/1 indicators: an instance may have no class, counted in "none")
        or "soft" (soft labels or scores: every row has mass)."""
        if self.single_label or "y_true" in self.one_hot:
            return None
        return MULTILABEL if self.can_be_empty else SOFT

    def read_as(self, true_kind, decided_by):
        """These targets, a piece (a batch, a Dask block) of an input whose 2-D ``y_true``
        is of ``true_kind`` ("multilabel" or "soft"), decided once for the whole input
        (``decided_by`` says how, for the message): a piece of soft labels whose values
        happen to be all 0 and 1 is read as soft labels. Raises ``ValueError`` when
        ``y_true`` cannot be of that kind. Returns ``self`` (unchanged for 1-D labels)."""
        if self.true_kind is None:
            return self
        if true_kind == MULTILABEL and not self.can_be_empty:
            raise ValueError(f"y_true holds values other than 0 and 1 (soft labels); "
                             f"{decided_by} 2-D y_true of 0/1 multi-label indicators.")
        self.__dict__["can_be_empty"] = true_kind == MULTILABEL  # the cached property
        return self


# Row sums of probabilities: 1 within the square root of the machine epsilon of their dtype
# (float32, else float64), as in sklearn.metrics.log_loss.
_SUM_TOLERANCE = {True: float(np.sqrt(np.finfo(np.float32).eps)),
                  False: float(np.sqrt(np.finfo(np.float64).eps))}


def warn_unless_probabilities(name, sums, dtype, warned=None, first_row=0):
    """Warn, as ``sklearn.metrics.log_loss`` does, when the row sums of 2-D scores given
    beside 1-D labels (a classifier's ``predict_proba``) are not 1 within the square root
    of the machine epsilon of their dtype: the scores are read as probabilities after each
    row is divided by its sum, which hides scaled scores, percentages and per-class
    sigmoids. ``sums``: the row sums that validation computed anyway (of any array
    library); ``warned``: a list, appended to once warned (a block warns once)."""
    xp = namespace(sums)
    tolerance = _SUM_TOLERANCE[np.dtype(dtype) == np.float32]
    off = xp.abs(sums - 1.0) > tolerance
    if not bool(xp.any(off)):
        return
    if warned is not None:
        if warned:
            return
        warned.append(True)
    row = int(to_numpy(xp.nonzero(off)[0])[0]) if xp is not np else int(np.argmax(off))
    total, digits = float(sums[row]), 6
    while f"{total:.{digits}g}" == "1" and digits < 17:  # 0.9999996 is not "1"
        digits += 1
    warn(f"{name}'s rows do not sum to 1 (row {first_row + row} sums to "
         f"{total:.{digits}g}): beside class labels its columns are read as a "
         "classifier's probabilities, each row divided by its sum, so scaled scores, "
         "percentages and per-class sigmoids give the same result as probabilities. "
         "Pass predict_proba's probabilities (normalize scores, e.g. a softmax).")


def target_kind(single_label, masses):
    """The kind of targets: 1-D labels, 2-D binary indicators or 2-D soft labels."""
    if single_label:
        return SINGLE_LABEL
    return MULTILABEL if all(is_binary(y) for y in masses) else SOFT


def check_confusion_matrix(matrix, name="confusion", *, min_classes=1, nonzero=False,
                           integer_advice=None):
    """Validate a square matrix of (possibly fractional) counts and return it as float64.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
    name : str
        Argument name for the error messages.
    min_classes : int
        Fewest classes accepted.
    nonzero : bool
        Reject an all-zero matrix.
    integer_advice : str, default=None
        If given, fractional counts are rejected with this text appended.
    """
    if sp.issparse(matrix):  # a confusion matrix is small: read densely
        matrix = _checked_csr(name, matrix).toarray()
    try:
        matrix = np.asarray(matrix)
    except ValueError:  # NumPy refuses ragged nested lists
        raise ValueError(f"{name} must be a square matrix; its rows have different "
                         "lengths.") from None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < min_classes:
        raise ValueError(f"{name} must be a square matrix with at least {min_classes} "
                         f"class(es); got shape {matrix.shape}.")
    if matrix.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {matrix.dtype}.")
    matrix = matrix.astype(np.float64)
    if not np.isfinite(matrix).all() or matrix.min() < 0:
        raise ValueError(f"{name} must hold finite non-negative counts.")
    if integer_advice is not None and not np.array_equal(matrix, np.round(matrix)):
        raise ValueError(f"{name} has fractional counts; {integer_advice}")
    if nonzero and matrix.sum() == 0:
        raise ValueError(f"{name} is all zeros; at least one counted element is needed.")
    return matrix


def check_counted(matrix, labels=None, sample_weight=None):
    """Raise ``ValueError`` naming ``sample_weight`` or ``labels`` when the confusion matrix
    a measure reads off ``(y_true, y_pred)`` is all zeros (a function of targets has no
    ``matrix`` argument to name)."""
    if np.sum(matrix) > 0:
        return
    if sample_weight is not None and not np.any(np.asarray(sample_weight)):
        cause = "sample_weight is all zeros"
    elif labels is not None:
        cause = f"labels {quoted(labels)} selects classes where no instance is counted"
    else:
        cause = "no instance is counted"
    raise ValueError(f"The confusion matrix of y_true and y_pred is all zeros: {cause}; "
                     "the measure needs at least one counted instance.")


def check_class_names(labels, n_classes, name="labels",
                      keyed="The rows are keyed by class name"):
    """Names for the ``n_classes`` rows of a matrix: ``0 .. n_classes - 1`` by default; the
    names must be distinct (see :func:`check_distinct_names`, ``keyed`` opening its message)."""
    if labels is None:
        return list(range(n_classes))
    labels = list(labels)
    if len(labels) != n_classes:
        raise ValueError(f"{name} has {len(labels)} names for {n_classes} classes.")
    check_distinct_names(labels, name, keyed)
    return labels


def check_distinct_names(names, name, keyed="The rows are keyed by class name"):
    """Refuse names that two classes share (as printed: ``1`` and ``"1"`` too), with the
    reports' message: a table keyed by class name would show two classes as one (a
    "confused pair" of a class with itself)."""
    counts = Counter(str(value) for value in names)
    repeated = sorted(value for value, count in counts.items() if count > 1)
    if repeated:
        raise ValueError(f"{keyed}, and {name} repeat {repeated}; pass {name} with distinct "
                         "names.")


LABELS_RENAMED = "labels was renamed display_labels in 0.1 and will be removed in 0.2."


def check_display_labels(display_labels, labels, n_classes, matrix=None):
    """Row names of the statistical tests and the Dirichlet posterior (one rule for the rename).

    ``labels`` is the name ``display_labels`` had before 0.1 (everywhere else ``labels=``
    selects classes): it still works, with a ``FutureWarning``; passing both is an error.
    Without either, a labelled matrix (a DataFrame, as :func:`confusion_frame` gives) names
    its classes.
    """
    if labels is None:
        if display_labels is None:
            display_labels = frame_class_names(matrix)
        return check_class_names(display_labels, n_classes, "display_labels")
    if display_labels is not None:
        raise ValueError("Pass display_labels only: labels is its deprecated name, to be "
                         "removed in 0.2.")
    warn(LABELS_RENAMED, FutureWarning)
    return check_class_names(labels, n_classes, "labels")


def frame_class_names(matrix, name="confusion"):
    """The class names of a confusion matrix given as a pandas DataFrame: its columns, or its
    index where the columns are only positions; None for other inputs. Rows and columns of
    one matrix are one set of classes in one order, so a frame whose two axes name different
    classes is refused rather than read by one of them."""
    if not (hasattr(matrix, "columns") and hasattr(matrix, "index")
            and hasattr(matrix, "iloc")):
        return None
    axes = [list(axis) for axis in (matrix.columns, matrix.index)
            if type(axis).__name__ != "RangeIndex"]
    if not axes:
        return None
    if len(axes) == 2 and axes[0] != axes[1]:
        raise ValueError(
            f"{name} is a DataFrame whose index and columns name different classes "
            f"({quoted(axes[1])} and {quoted(axes[0])}); a confusion matrix has one class "
            "order for both axes: reorder one axis (frame.loc[order, order]) or pass "
            "display_labels=.")
    return axes[0]


def _renamed_labels(self):
    """Deprecated name of ``display_labels`` (removed in 0.2)."""
    warn(LABELS_RENAMED, FutureWarning)
    return self.display_labels


# The read-only ``labels`` attribute of objects that name rows with ``display_labels``.
RENAMED_LABELS_ATTRIBUTE = property(_renamed_labels)


def check_targets(y_true, y_pred, *, labels=None, sample_weight=None,
                  defer_value_checks=False, column_labels=None, compact=False):
    """Validate a pair of targets and return their :class:`Targets`.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        1-D class labels, or 2-D arrays of shape (n_samples, n_classes) of
        binary indicators or non-negative soft labels. A single-column 2-D
        array is read as 1-D labels, as scikit-learn does.
    labels : array-like, default=None
        1-D targets: the class labels to report, in that order (labels absent
        from the data give zero rows and columns). 2-D targets: integer column
        indices. 1-D labels beside 2-D scores: the class label of each column, in
        order (default: the sorted labels, as a classifier's ``classes_``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    column_labels : array-like, default=None
        The class label of each column for 1-D labels beside 2-D scores, where
        ``labels`` is None (the scores read ``labels=`` after building); ignored for
        other targets.
    compact : bool, default=False
        2-D targets of small integers (bool, 8- and 16-bit) become float32 masses, which
        hold them exactly, instead of float64 (for kinds whose blocks only add them: their
        float32 sums are exact).
    defer_value_checks : bool, default=False
        For dense 2-D targets, skip the pass that checks values and computes
        row norms: the caller reads the data only through
        :meth:`Targets.rows`, which checks each block, so that a single pass
        over memory does both. Shapes, labels and weights are checked at once.

    Returns
    -------
    Targets
        For NumPy, scipy.sparse, lists and pandas; arrays of other array-API libraries
        go through :func:`~.array_api.check_any_targets`.
    """
    target_set = check_target_set({"y_true": y_true, "y_pred": y_pred}, labels,
                                  defer_value_checks, column_labels, one_hot=False,
                                  count_pairs=True, compact=compact)
    (mass_true, mass_pred), (true_norm, pred_norm) = target_set.masses, target_set.norms
    first, second = target_set.codes or target_set.masses
    n_samples, n_pred = first.shape[0], second.shape[0]
    if n_pred != n_samples:
        raise ValueError(
            "y_true and y_pred must have the same number of samples; got "
            f"{n_samples} and {n_pred}."
        )
    sample_weight = check_sample_weight(sample_weight, n_samples)
    pair_counts = target_set.pair_counts
    if sample_weight is not None and pair_counts is not None:  # the same pairs, weighted
        pair_counts = target_set.pairs.counts(sample_weight)
    return Targets(mass_true, mass_pred, target_set.classes, target_set.selection,
                   target_set.single_label, true_norm, pred_norm, sample_weight,
                   target_set.one_hot, target_set.codes, pair_counts, target_set.true_counts,
                   target_set.categories)


def require_binary(targets, advice):
    """Raise ``ValueError`` unless 2-D targets hold only 0/1 indicators (``advice`` follows)."""
    if targets.single_label:
        return
    for name, y in (("y_true", targets.y_true), ("y_pred", targets.y_pred)):
        if not is_binary(y):
            if isinstance(y, np.ndarray):  # values checked block by block: NaN, infinite
                _scanned_row_sums(name, y)  # and negative values have their own error first
            raise ValueError(f"{name} has values other than 0 and 1; {advice}")


@dataclass(frozen=True)
class TargetSet:
    """Validated targets sharing one set of classes (see :class:`Targets`)."""

    masses: list
    norms: list
    classes: np.ndarray
    selection: object
    single_label: bool
    one_hot: tuple = ()
    codes: tuple = None
    pair_counts: object = None
    true_counts: object = None
    pairs: object = None
    categories: object = None


@dataclass(frozen=True)
class PairCodes:
    """The pairs of two targets' integer labels as codes of their range
    (``true * span + pred``, from the smallest label) and the labels of the range that are
    present (``seen``, in order; None: all of them): their confusion counts are one
    ``bincount``."""

    codes: np.ndarray
    span: int
    seen: np.ndarray = None

    def counts(self, weights=None):
        """The counts of the pairs of labels present, weighted by ``weights``."""
        counts = np.bincount(self.codes, weights=weights, minlength=self.span * self.span)
        counts = counts.reshape(self.span, self.span)
        if self.seen is None or self.seen.all():
            return counts
        return counts[np.ix_(self.seen, self.seen)]


def check_target_set(named_targets, labels=None, defer_value_checks=False,
                     column_labels=None, one_hot=True, count_pairs=False, compact=False):
    """Validate targets that share one set of classes.

    Parameters
    ----------
    named_targets : dict of str to array-like
        The targets by argument name (used in error messages). With ``labels``
        given for 1-D targets, at least one label must appear in the first.
    labels, defer_value_checks, column_labels
        As in :func:`check_targets`.
    one_hot : bool, default=True
        Whether 1-D labels get their one-hot masses; False keeps only their ``codes``
        (masses and norms None).
    compact : bool, default=False
        As in :func:`check_targets`.
    count_pairs : bool, default=False
        Whether two targets of integer labels in a small range are counted by pairs on
        the way (their unweighted confusion counts, ``pair_counts``, and the pairs
        themselves, ``pairs``, to be counted again under weights).

    Returns
    -------
    TargetSet
        One (n_samples_i, n_classes) mass array and its row norms per target.
    """
    names = list(named_targets)
    raw = list(named_targets.values())
    if all(type(y) is np.ndarray and y.ndim == 1 and y.size and y.dtype.kind != "c"
           for y in raw):  # 1-D NumPy labels: no frame, no categories, nothing to convert
        return _encode_labels(names, raw, labels, one_hot, count_pairs)
    columns = _frame_columns(named_targets)
    column_selection = labels
    if columns is not None:
        frame_name = columns[0]
        column_labels = labels if labels is not None else column_labels
        raw, columns, column_selection = _aligned_frames(named_targets, columns,
                                                         column_labels, labels)
    categories = _categories(named_targets)
    targets = [_as_target(name, y, compact) for name, y in zip(names, raw)]
    _refuse_label_rows(names, targets, raw)
    dims = {y.ndim for y in targets}
    if len(dims) > 1:
        if columns is None:
            return _labels_beside_scores(names, targets, labels if labels is not None
                                         else column_labels, defer_value_checks, categories)
        try:
            return _labels_beside_scores(names, targets, columns, defer_value_checks)
        except ValueError as error:  # the "labels" there are the frame's column names
            if not str(error).startswith("labels "):
                raise
            raise ValueError(f"The column names of {frame_name} (its classes) do not fit the "
                             f"class labels beside it: {error}") from None
    if dims == {1}:
        return _encode_labels(names, targets, labels, one_hot, count_pairs, categories)
    return _check_matrix_targets(names, targets, column_selection, defer_value_checks,
                                 columns)


def _frame_columns(named_targets):
    """``(name, column names)`` of the first 2-D DataFrame (pandas, polars) among the targets
    whose columns name classes; None where every frame has the default columns (pandas'
    ``0 .. C-1``, polars' ``column_0 ...``) or there is no frame."""
    for name, y in named_targets.items():
        names = _column_names(y)
        if names is not None:
            return name, names
    return None


def _column_names(y):
    """A 2-D frame's column names as a list (None: not a frame, or default names)."""
    columns = getattr(y, "columns", None)
    if columns is None or sp.issparse(y) or len(getattr(y, "shape", ())) != 2 or \
            y.shape[1] < 2:
        return None
    names = [name.item() if isinstance(name, np.generic) else name for name in columns]
    if all(isinstance(name, Integral) and not isinstance(name, bool) and name == position
           for position, name in enumerate(names)):
        return None
    if all(name == f"column_{position}" for position, name in enumerate(names)):
        return None
    return names


def _aligned_frames(named_targets, columns, column_labels, labels):
    """The targets with every frame's columns in the order of the classes, the classes, and
    ``labels`` of 2-D targets as column positions.

    The first frame with named columns (``columns``: its argument name and names) names the
    classes, sorted as 1-D labels are (in the frame's order where names of different types
    do not sort); beside 1-D labels, ``column_labels`` (``labels=``, or a classifier's
    ``classes_``) must name the same set, and gives the order. Every frame whose columns
    are that set (default ``0 .. C-1`` columns beside integer names too) is reordered by
    name; another set of names is refused; other 2-D targets (arrays, frames with default
    columns) are read by position, in the first frame's order. Between 2-D targets,
    ``labels`` selects columns by name."""
    first, names = columns
    classes = set(map(_hashable, names))
    if len(classes) != len(names):
        raise ValueError(f"{first} has repeated column names {quoted(names)}; each column "
                         "of a DataFrame names one class.")
    frames = {name: _raw_columns(y) for name, y in named_targets.items()}
    frames = {name: own for name, own in frames.items() if own is not None}
    any_labels = any(np.ndim(y) == 1 for name, y in named_targets.items()
                     if name not in frames)
    if any_labels and column_labels is not None:
        order = _checked_column_labels(first, names, column_labels)
    else:
        try:
            order = sorted(names)
        except TypeError:
            order = names
    raw = []
    for name, y in named_targets.items():
        own = frames.get(name)
        if own is not None and set(own) != classes and _column_names(y) is not None:
            raise ValueError(f"{name}'s columns {quoted(own)} are not the classes "
                             f"{quoted(names)} of {first}'s columns; a DataFrame's columns "
                             "name its classes, so both must name the same set.")
        if own is None or set(own) != classes:  # by position, in the first frame's order
            own = names if np.ndim(y) == 2 and np.shape(y)[1] == len(names) else order
        if own != order:
            y = _reordered(name, y, own, order)
        raw.append(y)
    selection = labels
    if labels is not None and not any_labels:
        selection = _selected_columns(labels, order)
    return raw, np.asarray(order), selection


def _raw_columns(y):
    """The column names of a 2-D frame of at least two columns (defaults included)."""
    if getattr(y, "columns", None) is None or sp.issparse(y) or \
            len(getattr(y, "shape", ())) != 2 or y.shape[1] < 2:
        return None
    return [_hashable(name) for name in y.columns]


def _hashable(value):
    return value.item() if isinstance(value, np.generic) else value


def _checked_column_labels(first, names, column_labels):
    """``labels=`` beside a DataFrame of scores: the same set as its columns (their order)."""
    listed = [_hashable(label) for label in check_label_list(column_labels).tolist()]
    if set(listed) != set(map(_hashable, names)):
        raise ValueError(f"labels {quoted(listed)} are not the classes {quoted(names)} that "
                         f"{first}'s columns name; beside a DataFrame of scores, labels= must "
                         "name the same classes (in any order).")
    return listed


def _selected_columns(labels, names):
    """``labels=`` of 2-D targets with named columns: column names, as positions."""
    listed = check_label_list(labels).tolist()
    position = {_hashable(name): i for i, name in enumerate(names)}
    unknown = [label for label in listed if _hashable(label) not in position]
    if unknown:
        raise ValueError(f"labels {quoted(unknown)} are not among the column names "
                         f"{quoted(names)}; with DataFrame targets, labels= names columns.")
    return np.array([position[_hashable(label)] for label in listed])


def _reordered(name, y, own, order):
    """The columns of a 2-D target ``name`` (named ``own``) in the order ``order``: a NumPy
    array (a sparse one stays sparse)."""
    position = {_hashable(name): i for i, name in enumerate(own)}
    columns = [position[_hashable(name)] for name in order]
    if sp.issparse(y):
        return sp.csr_array(y)[:, columns]
    return _numpy_of_nullable(name, y)[:, columns]


def _categories(named_targets):
    """The categories of the first categorical 1-D target (pandas ``Categorical`` or a
    Series of category dtype, polars ``Enum``), in their order, followed by the other
    categoricals' own; None if there is none. Read from the dtype: pandas is not imported."""
    found = []
    for y in named_targets.values():
        categories = getattr(getattr(y, "dtype", None), "categories", None)
        if categories is None or len(getattr(y, "shape", (0, 0))) != 1:
            continue
        categories = np.asarray(categories)
        found.append(categories if categories.dtype.kind != "O" else
                     np.asarray(categories.tolist(), dtype=object))
    if not found:
        return None
    categories = list(found[0].tolist())
    seen = set(categories)
    for other in found[1:]:
        extra = [c for c in other.tolist() if c not in seen]
        categories += extra
        seen.update(extra)
    return np.asarray(categories, dtype=found[0].dtype if len(found) == 1 else None)


def _refuse_label_rows(names, targets, raw):
    """A ``(1, n)`` row of ``n > 1`` values read as a row of class labels is refused, as
    scikit-learn refuses it: an ``np.matrix`` (``np.matrix(y)``), or a row beside ``n``
    1-D labels (``y.reshape(1, -1)``). A single row beside another single row stays one
    instance of soft labels or indicators (the papers' worked examples are such rows), with
    a warning where both hold integers and one an integer other than 0 and 1: ``n`` class
    labels of three or more classes reshaped to rows look the same (0/1 rows are one
    instance of multi-label indicators, as a row selected from a matrix of them)."""
    lengths = {y.shape[0] for y in targets if y.ndim == 1}
    rows = []
    for name, y, original in zip(names, targets, raw):
        if y.ndim == 2 and y.shape[0] == 1 and y.shape[1] > 1:
            rows.append((name, original))
            if isinstance(original, np.matrix) or y.shape[1] in lengths:
                raise ValueError(
                    f"{name} is a single row of shape {y.shape}, read as one instance of "
                    f"{y.shape[1]} classes, but it looks like a row of {y.shape[1]} class "
                    "labels ("
                    f"{'an np.matrix' if isinstance(original, np.matrix) else 'beside labels'}"
                    f"); pass labels 1-D ({name}.ravel()), as scikit-learn does (one instance "
                    "of soft labels: a 2-D ndarray beside another).")
    if len(rows) == len(targets) > 1 and all(_given_dtype(y).kind in "iu" for _, y in rows) \
            and not all(_only_zeros_and_ones(y) for y in targets):
        shown = " and ".join(name for name, _ in rows)
        n_classes = targets[0].shape[1]
        warn(f"{shown} are single rows of {n_classes} integers, read as one instance of "
             f"{n_classes} classes (integer masses). If they are the class "
             f"labels of {n_classes} instances, pass them 1-D ({rows[0][0]}.ravel()), as "
             "scikit-learn requires (it refuses a row of labels). One instance of masses "
             "given as floats does not warn.")


def _given_dtype(y):
    """The dtype a target was given in (a list: NumPy's reading of it; read for one row)."""
    dtype = getattr(y, "dtype", None)
    return dtype if isinstance(dtype, np.dtype) else np.asarray(y).dtype


def _as_target(name, y, compact=False):
    """Return ``y`` as a 1-D ndarray, a 2-D ndarray or a canonical CSR array."""
    y = _as_array(name, y, compact)
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    return y


def _as_array(name, y, compact=False):
    if sp.issparse(y):
        if y.ndim != 2:
            raise ValueError(f"{name} must be 1-D or 2-D; got a sparse array of shape {y.shape}.")
        y = _checked_csr(name, y)
        if y.shape[1] == 1:
            return _as_array(name, y.toarray(), compact)
        return y
    if isinstance(y, str) or not hasattr(y, "__len__") and not hasattr(y, "__array__"):
        raise TypeError(
            f"{name} must be array-like (class labels or an (n_samples, n_classes) "
            f"array); got {type(y).__name__}."
        )
    if isinstance(y, (list, tuple)) and y and all(np.ndim(p) == 2 for p in y):
        y = _positive_class_columns(name, y)
    if isinstance(y, np.ma.MaskedArray):
        if np.ma.getmaskarray(y).any():
            raise ValueError(
                f"{name} is a masked array with {np.ma.count_masked(y)} masked entries; masks "
                "are not read: drop the masked samples (or fill them) before scoring.")
        y = np.ma.getdata(y)
    raw, y = y, _numpy_of_nullable(name, y)
    _refuse_complex(name, y.dtype)
    if y.dtype.kind in "US" and not hasattr(raw, "dtype"):
        _check_strings_only(name, np.asarray(raw, dtype=object))
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim == 1:
        return y
    if y.ndim != 2:
        fix = (f" (one (n_samples, 2) array per label, as MultiOutputClassifier.predict_proba "
               f"gives them? pass the list itself, or {_POSITIVE_CLASS_FIX})"
               if y.ndim == 3 and y.shape[2] == 2 else "")
        raise ValueError(f"{name} must be 1-D or 2-D; got an array of shape {y.shape}{fix}.")
    if y.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} is 2-D with dtype {y.dtype}; 2-D targets must hold numbers "
            "(binary indicators or non-negative soft labels)."
        )
    # float32 masses stay float32: their blocks are computed in float32 (summed in float64).
    # Small integers stay as they are where the kind asks (``compact``): each block of rows
    # becomes float32 (exact for them) in cache, never the whole array (see ``mass_block``).
    if compact and _is_small_integer(y.dtype):
        return y
    return np.asarray(y, dtype=np.float32 if y.dtype == np.float32 else np.float64)


_POSITIVE_CLASS_FIX = "np.column_stack([p[:, 1] for p in proba])"


def _positive_class_columns(name, arrays):
    """The (n_samples, n_labels) positive-class probabilities of a list of one
    (n_samples, 2) array per label, as ``MultiOutputClassifier.predict_proba`` (and the
    multi-output forests) give them: column 1 of each, the probability of label value 1."""
    shapes = [np.shape(p) for p in arrays]
    if any(shape[1] != 2 for shape in shapes) or len({shape[0] for shape in shapes}) != 1:
        raise ValueError(
            f"{name} is a list of {len(arrays)} 2-D arrays of shapes "
            f"{', '.join(map(str, shapes[:4]))}{', ...' if len(shapes) > 4 else ''}; a list "
            "is read as MultiOutputClassifier.predict_proba's one (n_samples, 2) array per "
            "label (columns: label 0, label 1), all with the same n_samples. A label seen "
            "with one value in training has one column: build the positive-class matrix "
            f"yourself ({_POSITIVE_CLASS_FIX}, with 0 or 1 where a label had one class).")
    return np.column_stack([np.asarray(p)[:, 1] for p in arrays])


def _is_small_integer(dtype):
    """Booleans and 8- or 16-bit integers: float32 holds each of them exactly."""
    return dtype.kind in "biu" and dtype.itemsize <= 2


def csr_rows(matrix, rows):
    """A slice of rows of a CSR array whose arrays view ``matrix``'s (only the slice's index
    pointers are new), without scipy's row indexing; other formats and steps: indexed.

    The blocks of validated targets are only read (every kind computes new arrays from
    them), so they need no copy of their own."""
    if matrix.format != "csr" or rows.step not in (None, 1):
        return matrix[rows]
    start, stop, _ = rows.indices(matrix.shape[0])
    stop = max(start, stop)
    indptr = matrix.indptr[start:stop + 1]
    first, last = indptr[0], indptr[-1]
    return sp.csr_array((matrix.data[first:last], matrix.indices[first:last], indptr - first),
                        shape=(stop - start, matrix.shape[1]), copy=False)


def mass_block(y):
    """Rows of a mass array as floats: the small integers that validation keeps compact
    become float32 (exact for them); float blocks and sparse ones are returned as they are."""
    if isinstance(y, np.ndarray) and y.dtype.kind in "biu":
        return y.astype(np.float32)
    return y


def _numpy_of_nullable(name, y):
    """``y`` as a NumPy array; pandas' nullable numbers (``Int64``, ``Float64``,
    ``boolean``), which older pandas turns into object arrays, keep their NumPy type. In
    a frame (scores, soft labels), a missing value becomes NaN, which the value checks
    refuse naming its row."""
    frame = _numpy_of_nullable_frame(y)
    if frame is not None:
        return frame
    numpy_dtype = getattr(getattr(y, "dtype", None), "numpy_dtype", None)
    if numpy_dtype is None or not hasattr(y, "to_numpy"):
        return as_numpy(name, y)
    if np.asarray(y.isna() if hasattr(y, "isna") else np.isnan(y)).any():
        raise ValueError(f"{name} has missing values (pandas.NA); every sample needs a "
                         "class label.")
    return y.to_numpy(dtype=numpy_dtype)


def as_numpy(name, y, expected="1-D class labels or an (n_samples, n_classes) array"):
    """``np.asarray(y)``; a ragged nested list, which NumPy refuses with its own words
    ("inhomogeneous shape"), raises ``ValueError`` naming ``name``, the first row whose
    length differs and what is ``expected``."""
    try:
        return np.asarray(y)
    except ValueError:
        if not isinstance(y, (list, tuple)):
            raise
    lengths = [len(row) if hasattr(row, "__len__") and not isinstance(row, (str, bytes))
               else None for row in y]
    first = lengths[0]
    row = next((i for i, length in enumerate(lengths) if length != first), None)
    if row is None:  # the rows agree: the raggedness lies deeper
        found = "its rows hold sequences of different lengths"
    else:
        found = (f"row 0 {_length_words(first)} but row {row} "
                 f"{_length_words(lengths[row])}")
    raise ValueError(f"{name} is a ragged list: {found}; expected {expected}, every row of "
                     "the same length.") from None


def _length_words(length):
    if length is None:
        return "is a single value"
    return f"has {length} value{'s' if length != 1 else ''}"


def _numpy_of_nullable_frame(y):
    """A pandas frame with nullable number columns (``Float64``, ``Int64``, ``boolean``)
    and no column of another kind as one NumPy array of their common type (float64 where a
    value is missing: NaN there); None for anything else."""
    dtypes = getattr(y, "dtypes", None)
    if getattr(y, "ndim", None) != 2 or dtypes is None or not hasattr(y, "to_numpy") or \
            not any(hasattr(dtype, "numpy_dtype") for dtype in dtypes):
        return None
    numpy_dtypes = [getattr(dtype, "numpy_dtype", dtype) for dtype in dtypes]
    if not all(isinstance(dtype, np.dtype) and dtype.kind in "biuf" for dtype in numpy_dtypes):
        return None
    dtype = np.result_type(*numpy_dtypes)
    if np.asarray(y.isna()).any():
        return y.to_numpy(dtype=np.result_type(dtype, np.float64), na_value=np.nan)
    return y.to_numpy(dtype=dtype)


def _refuse_complex(name, dtype):
    if dtype.kind == "c":
        raise ValueError(f"{name} has complex values (dtype {dtype}); targets must be real "
                         "class labels, binary indicators or soft labels.")


def _check_strings_only(name, values):
    """Raise ``ValueError`` if a list that NumPy read as strings also held numbers."""
    if not all(isinstance(value, (str, bytes)) for value in values.ravel()):
        raise ValueError(f"{name} mixes strings and numbers, so its values are not class "
                         "labels: Mix of label input types (string and number).")


def _checked_csr(name, y):
    """A new canonical float64 CSR array of a sparse ``y`` whose structure is checked.

    The raw arrays of ``y``'s own format are checked (O(nnz)) before any scipy
    routine reads them: scipy's compiled conversions trust index arrays, and an
    index out of range there reads or writes out of bounds.
    """
    _refuse_complex(name, y.dtype)
    if y.dtype.kind not in "biuf":
        raise ValueError(f"{name} is a sparse array of dtype {y.dtype}; sparse targets must "
                         "hold numbers (binary indicators or non-negative soft labels).")
    n_rows, n_columns = y.shape
    fmt = y.format
    if fmt in ("csr", "csc"):
        n_major, n_minor = (n_rows, n_columns) if fmt == "csr" else (n_columns, n_rows)
        _check_compressed(name, y.indptr, y.indices, y.data, n_major, n_minor)
    elif fmt == "bsr":
        block_rows, block_columns = y.blocksize
        _check_compressed(name, y.indptr, y.indices, y.data, n_rows // block_rows,
                          n_columns // block_columns)
        if y.data.shape[1:] != (block_rows, block_columns):
            raise ValueError(f"{name} is a malformed sparse array: its blocks have shape "
                             f"{y.data.shape[1:]}, not its blocksize {y.blocksize}.")
    elif fmt == "lil":
        if len(y.rows) != n_rows or len(y.data) != n_rows or \
                any(len(r) != len(d) for r, d in zip(y.rows, y.data)):
            raise ValueError(f"{name} is a malformed sparse array: its rows and data lists "
                             "do not match its shape.")
    elif fmt == "dia":
        if y.data.ndim != 2 or y.offsets.ndim != 1 or len(y.offsets) != y.data.shape[0]:
            raise ValueError(f"{name} is a malformed sparse array: {len(y.offsets)} "
                             f"diagonal offsets for data of shape {y.data.shape}.")
    if fmt not in ("csr", "csc", "bsr"):
        y = y.tocoo()  # COO itself is not copied
        _check_coordinates(name, y.row, y.col, y.data, n_rows, n_columns)
    if y.format != "csr":  # the structure scipy's conversion built
        y = y.tocsr()
        _check_compressed(name, y.indptr, y.indices, y.data, n_rows, n_columns)
    y = sp.csr_array((np.array(y.data, dtype=np.float64), y.indices.copy(), y.indptr.copy()),
                     shape=(n_rows, n_columns))
    y.sum_duplicates()
    return y


def _check_index_array(name, what, array, size=None):
    if not isinstance(array, np.ndarray) or array.ndim != 1 or array.dtype.kind not in "iu":
        raise ValueError(f"{name} is a malformed sparse array: its {what} must be a 1-D "
                         "integer array.")
    if size is not None and array.shape[0] != size:
        raise ValueError(f"{name} is a malformed sparse array: its {what} has "
                         f"{array.shape[0]} entries; {size} expected.")


def _check_in_range(name, what, array, bound):
    if array.size and (array.min() < 0 or array.max() >= bound):
        raise ValueError(f"{name} is a malformed sparse array: its {what} range over "
                         f"[{array.min()}, {array.max()}], outside [0, {bound}).")


def _check_compressed(name, indptr, indices, data, n_major, n_minor):
    """Structure of a CSR / CSC (or BSR, in blocks) array: raise ``ValueError`` if broken."""
    _check_index_array(name, "indptr", indptr, n_major + 1)
    _check_index_array(name, "indices", indices)
    nnz = indices.shape[0]
    if not isinstance(data, np.ndarray) or data.ndim < 1 or data.shape[0] != nnz:
        raise ValueError(f"{name} is a malformed sparse array: {nnz} indices but data of "
                         f"shape {np.shape(data)}.")
    if indptr[0] != 0 or indptr[-1] != nnz:
        raise ValueError(f"{name} is a malformed sparse array: its indptr runs from "
                         f"{indptr[0]} to {indptr[-1]}; 0 to nnz={nnz} expected.")
    if n_major and np.diff(indptr).min() < 0:
        raise ValueError(f"{name} is a malformed sparse array: its indptr decreases.")
    _check_in_range(name, "indices", indices, n_minor)


def _check_coordinates(name, row, col, data, n_rows, n_columns):
    """Structure of a COO array: raise ``ValueError`` if broken."""
    if not isinstance(data, np.ndarray) or data.ndim != 1:
        raise ValueError(f"{name} is a malformed sparse array: its data must be 1-D.")
    for what, index, bound in (("row indices", row, n_rows), ("column indices", col, n_columns)):
        _check_index_array(name, what, index, data.shape[0])
        _check_in_range(name, what, index, bound)


def checked_row_sums(name, y, first_row=0):
    """Row sums of (a block of rows of) a 2-D mass array, rejecting bad values.

    NaN, infinite and negative entries raise ``ValueError`` naming ``name``
    and the row (counted from ``first_row``). A non-finite entry makes its row
    sum non-finite and a negative one the minimum negative, so a clean block
    costs one product and one minimum.
    """
    y = mass_block(y)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        if sp.issparse(y):
            sums, smallest = row_sums(y), y.data.min(initial=np.inf)
        elif y.dtype == np.float64:
            sums, smallest = y @ np.ones(y.shape[1]), y.min(initial=np.inf)
        else:  # float32 rows: a float32 product, summed again in float64 if it overflows
            sums = (y @ np.ones(y.shape[1], dtype=y.dtype)).astype(np.float64)
            if not np.isfinite(sums).all():
                sums = y.sum(axis=1, dtype=np.float64)
            smallest = y.min(initial=np.inf)
    if np.isfinite(sums).all() and smallest >= 0:
        return sums
    if sp.issparse(y):
        _raise_sparse_bad_value(name, sp.csr_array(y), first_row)
    finite = np.isfinite(y)
    if not finite.all():
        row = np.flatnonzero(~finite.all(axis=1))[0]
        _raise_not_finite(name, y[row][~finite[row]][0], first_row + row)
    if smallest < 0:
        _raise_negative(name, smallest, first_row + np.flatnonzero(y.min(axis=1) < 0)[0])
    _raise_overflow(name)


def _raise_sparse_bad_value(name, y, first_row):
    """:func:`checked_row_sums`' error for a CSR block, read from its structure alone."""
    data = y.data
    bad = np.flatnonzero(~np.isfinite(data))
    if bad.size:
        _raise_not_finite(name, data[bad[0]], first_row + _row_of(y, bad[0]))
    negative = np.flatnonzero(data < 0)
    if negative.size:
        _raise_negative(name, data.min(), first_row + _row_of(y, negative[0]))
    _raise_overflow(name)


def _raise_overflow(name):
    raise ValueError(f"{name} has rows whose total mass overflows float64; divide the masses "
                     "by a constant (the normalized transport matrix does not change).")


def _row_of(y, position):
    """Row of the stored entry at ``position`` of a CSR array."""
    return int(np.searchsorted(y.indptr, position, side="right") - 1)


def _raise_not_finite(name, value, row):
    raise ValueError(f"{name} contains {value} (first at row {row}); masses must be finite.")


def _raise_negative(name, smallest, row):
    raise ValueError(
        f"{name} has negative entries (min {smallest:g}, first at row {row}); binary "
        "indicators and soft labels must be non-negative."
    )


def _scanned_row_sums(name, y):
    """:func:`checked_row_sums` of a whole array, in chunks on all cores."""
    if sp.issparse(y):
        return checked_row_sums(name, y)
    parts = map_chunks(lambda rows: checked_row_sums(name, y[rows], rows.start),
                       y.shape[0], chunk_rows(8 * y.shape[1]))
    return np.concatenate(list(parts))


# The largest total of sample weights: every weighted count, and the products of marginals
# that scores form after scaling, stay finite below it.
MAX_TOTAL_WEIGHT = 1e300
# The smallest largest weight: below it, weighted counts of fractional masses are subnormal.
MIN_LARGEST_WEIGHT = 1e-290


def check_sample_weight(sample_weight, n_samples, target="y_true"):
    """``None``, or ``n_samples`` finite non-negative float64 weights (else ValueError);
    ``target`` names the argument whose samples they weigh."""
    if sample_weight is None:
        return None
    weight = as_numpy("sample_weight", sample_weight, "one weight per sample")
    if weight.ndim == 0 or weight.dtype.kind not in "biuf":
        raise ValueError(
            f"sample_weight must be a 1-D array of {n_samples} non-negative "
            f"numbers; got {quoted(sample_weight)}."
        )
    if weight.ndim != 1:
        raise ValueError(
            f"sample_weight must be 1-D, as in scikit-learn; got an array of shape "
            f"{weight.shape}. Pass one weight per sample, e.g. sample_weight.ravel()."
        )
    weight = weight.astype(np.float64, copy=False)  # read, never written
    if weight.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {weight.shape[0]} entries but {target} has "
            f"{n_samples} samples."
        )
    smallest, largest = (weight.min(), weight.max()) if weight.size else (0.0, 0.0)
    if not (np.isfinite(smallest) and np.isfinite(largest)):  # NaN or infinity reach both
        raise ValueError("sample_weight contains NaN or infinite values.")
    if smallest < 0:
        raise ValueError(
            f"sample_weight has negative entries (min {smallest:g}); "
            "weights must be non-negative."
        )
    if 0 < largest < MIN_LARGEST_WEIGHT:
        raise ValueError(
            f"sample_weight's largest weight is {largest:g}, below {MIN_LARGEST_WEIGHT:g}: "
            "weighted counts that small lose their precision (subnormal floats). Multiply "
            "the weights by a constant (scores do not change)."
        )
    with np.errstate(over="ignore"):
        total = weight.sum()
    if not total <= MAX_TOTAL_WEIGHT:  # an overflowing sum is infinite
        log_total = np.log(largest) + np.log((weight / largest).sum())
        raise ValueError(
            f"sample_weight sums to about 1e{log_total / np.log(10):.0f}, above "
            f"{MAX_TOTAL_WEIGHT:g}: weighted counts that large overflow float64. Divide "
            "the weights by a constant (scores do not change)."
        )
    return weight


def _encode_labels(names, targets, labels, one_hot=True, count_pairs=False, categories=None):
    targets, present, codes, counts = _checked_labels(names, targets, count_pairs)
    pair_counts, true_counts, pairs = counts
    if labels is None and categories is not None:  # a categorical's classes, in its order:
        # those that occur (an unused category is no class, as in scikit-learn)
        categories, present = common_integer_labels({"the categories": categories,
                                                     "the targets": present})
        classes = present[category_order(categories, present)]
        selection, reordered = None, not np.array_equal(classes, present)
    else:
        classes, selection = label_classes(names[0], targets[0], present, labels)
        reordered = selection is not None
    if reordered:  # over the classes sorted, not in the order of labels= (or categories)
        pair_counts = true_counts = pairs = None
    if codes is None:
        codes = [label_codes(y, classes) for y in targets]
    elif reordered:  # labels= first: the codes of present into classes
        codes = [label_codes(present, classes)[c] for c in codes]
    categories = categories if labels is None else None  # labels= gives the order
    if not one_hot:
        return TargetSet([None] * len(codes), [None] * len(codes), classes, selection, True,
                         codes=tuple(codes), pair_counts=pair_counts,
                         true_counts=true_counts, pairs=pairs, categories=categories)
    n_samples = max(y.shape[0] for y in targets)
    ones = _read_only(np.ones(n_samples))
    starts = _read_only(np.arange(n_samples + 1, dtype=_index_type(n_samples + 1,
                                                                   len(classes))))
    masses = [one_hot_codes(c, len(classes), ones[:c.shape[0]], starts[:c.shape[0] + 1])
              for c in codes]
    return TargetSet(masses, [ones[:y.shape[0]] for y in targets], classes, selection, True,
                     codes=tuple(codes), categories=categories)


def _read_only(array):
    """An array shared by both targets' one-hot rows (their unit values and row starts,
    and their norms), never written."""
    array.flags.writeable = False
    return array


def _checked_labels(names, targets, count_pairs=False):
    """1-D label arrays checked as class labels, in one integer dtype where they are
    integers, the sorted labels they hold together, and the position of each instance's
    label among those (None where they were not found on the way)."""
    dtype = targets[0].dtype
    if dtype.kind in "iu" and all(y.dtype == dtype for y in targets):  # nothing to check
        return _checked_label_codes(names, targets, count_pairs)
    found = _string_object_codes(targets)
    if found is not None:
        return found
    for name, y in zip(names, targets):
        if y.dtype.kind == "f":
            if not np.isfinite(y).all():
                raise ValueError(f"{name} contains NaN or infinite class labels.")
            if not np.array_equal(y, np.round(y)):
                raise ValueError(
                    f"{name} holds non-integer floats; 1-D targets must be class "
                    "labels. Pass soft labels as a 2-D (n_samples, n_classes) array."
                )
            largest = np.abs(y).max(initial=0.0)
            if largest > _LARGEST_FLOAT_LABEL:
                raise ValueError(
                    f"{name} holds float class labels as large as {largest:g}, beyond 2**53, "
                    "where floats no longer tell integers apart; pass integer or string "
                    "labels.")
        elif y.dtype.kind == "O":
            _check_object_labels(name, y)
    targets = common_integer_labels(dict(zip(names, targets)))
    return _checked_label_codes(names, targets, count_pairs)


def _checked_label_codes(names, targets, count_pairs):
    """:func:`_checked_labels`' result for checked label arrays: integers of a dense range
    counted (:func:`_dense_integer_codes`), other labels sorted (``unique_labels``)."""
    dense_range = _dense_integer_codes(targets, count_pairs)
    if dense_range is not None:
        return (targets, *dense_range)
    try:
        present = unique_labels(*targets)
    except ValueError as exc:
        raise ValueError(f"{' and '.join(names)} are not class labels: {exc}") from None
    except TypeError as exc:
        raise ValueError(f"{' and '.join(names)} hold class labels that cannot be sorted "
                         f"together ({exc}); use labels of one type.") from None
    return targets, present, None, (None, None, None)


def _string_object_codes(targets):
    """:func:`_checked_labels`' result for object arrays (pandas string and categorical
    columns among them) holding only ``str`` labels, found by hashing: the distinct labels
    are checked and sorted (a few, not every instance; sorted as scikit-learn's
    ``unique_labels`` returns them, a NumPy unicode array) and each instance's position
    among them looked up in a dict. None for other targets (then checked one by one)."""
    if not targets or any(y.dtype.kind != "O" or y.ndim != 1 or not y.size for y in targets):
        return None
    values = [y.tolist() for y in targets]
    try:
        distinct = set().union(*values)
    except TypeError:  # unhashable labels
        return None
    if any(type(value) is not str for value in distinct):
        return None
    present = np.asarray(sorted(distinct))
    position = {label: code for code, label in enumerate(present.tolist())}
    codes = [np.fromiter(map(position.__getitem__, labels), dtype=np.intp, count=len(labels))
             for labels in values]
    return targets, present, codes, (None, None, None)


def _dense_integer_codes(targets, count_pairs=False):
    """``(present, codes, (pair_counts, true_counts, pairs))`` of integer labels in a range at
    most a few times their number, found without a sort: the labels present by a count
    over the range, each instance's position among them by a lookup (int32 where it fits),
    or the label's offset from the smallest when every label of the range is present. Two
    targets whose range squared is small are counted by pairs where ``count_pairs``, one
    ``bincount`` that also gives their unweighted confusion counts (``pair_counts``, and
    ``pairs``, a :class:`PairCodes` to count them again under weights; else None);
    ``true_counts``, the count of each label present in the first target. None for
    other labels."""
    if not all(y.dtype.kind in "iu" and y.size for y in targets):
        return None
    low = min([int(y.min()) for y in targets])
    span = max([int(y.max()) for y in targets]) - low + 1
    n_labels = sum([y.size for y in targets])
    if span > max(_DENSE_LABEL_RANGE, 2 * n_labels):
        return None
    dtype = np.result_type(*targets)
    offsets = [_offsets(y, low, span) for y in targets]
    offsets = [y.astype(np.intp) if y.dtype.kind == "u" and y.dtype.itemsize >= 8 else y
               for y in offsets]
    pair_counts = pairs = None
    if count_pairs and len(offsets) == 2 and offsets[0].size == offsets[1].size and \
            span * span <= max(_DENSE_LABEL_RANGE, n_labels):
        codes = np.multiply(offsets[0], span, dtype=np.int64)
        codes += offsets[1]
        pairs = PairCodes(codes, span)
        pair_counts = pairs.counts()  # over the whole range
        true_counts = pair_counts.sum(axis=1)
        # Every label of the range in y_true (the common case): y_pred's counts not needed.
        occurrences = None if true_counts.all() else pair_counts.sum(axis=0) + true_counts
    else:
        counts = [np.bincount(offset, minlength=span) for offset in offsets]
        true_counts = counts[0]
        occurrences = np.add.reduce(counts)
    if occurrences is None or occurrences.all():  # every label of the range
        present = np.arange(span, dtype=dtype)
        if low:
            present += dtype.type(low)
        return present, offsets, (pair_counts, true_counts, pairs)
    seen = occurrences > 0
    if pair_counts is not None:
        pairs = PairCodes(codes, span, seen)
    present = np.flatnonzero(seen).astype(dtype) + dtype.type(low)
    true_counts = true_counts[seen]
    if pair_counts is not None:
        pair_counts = pair_counts[np.ix_(seen, seen)]
    position = (np.cumsum(seen) - 1).astype(_index_type(span, max(y.size for y in targets)))
    return present, [position[offset] for offset in offsets], (pair_counts, true_counts, pairs)


def _offsets(y, low, span):
    """``y - low`` (each in ``[0, span)``): in the type of ``y`` where it holds ``low`` and
    ``span - 1`` (no copy when ``low`` is 0), else as ``intp`` (int8 labels from -128 to
    127; unsigned labels beside negative ones)."""
    if low == 0:
        return y
    info = np.iinfo(y.dtype)
    if info.min <= low and span - 1 <= info.max:
        return y - y.dtype.type(low)
    return np.subtract(y, low, dtype=np.intp)


def _index_type(*sizes):
    return np.int32 if max(sizes) < np.iinfo(np.int32).max else np.intp


def label_codes(y, classes):
    """The position in ``classes`` of each label of ``y`` (all among ``classes``): by a
    table indexed by integer keys (integer labels, short strings) modulo a size where the
    classes' keys differ, else by binary search."""
    keys = _string_keys(y, classes)
    if keys is not None:
        y, classes = keys
    if y.dtype.kind in "iu" and classes.dtype.kind in "iu" and len(classes):
        found = _modular_codes(y, classes)
        if found is not None:
            return found
    order = np.argsort(classes, kind="stable")
    return order[np.searchsorted(classes[order], y)]


def _modular_codes(y, classes):
    """Codes of integer ``y`` through ``table[y % size]``, for the smallest ``size`` from
    twice the number of classes (up to 64 times) where the classes differ modulo ``size``;
    None if none does."""
    classes = classes.astype(np.uint64)  # two's complement: distinct stays distinct
    for size in range(2 * len(classes) + 1, 64 * len(classes) + 2):
        slots = classes % np.uint64(size)
        if np.unique(slots).size == len(classes):
            table = np.empty(size, dtype=np.intp)
            table[slots.astype(np.intp)] = np.arange(len(classes))
            return table[(y.astype(np.uint64, copy=False) % np.uint64(size)).astype(np.intp)]
    return None


def _string_keys(y, classes):
    """Short fixed-width strings (``y`` and ``classes`` both 'U' or both 'S', at most
    16 characters) as integer keys, a polynomial of their characters, where the keys of
    ``classes`` are distinct (then equal labels have equal keys and distinct ones distinct
    keys); None otherwise."""
    kind = y.dtype.kind
    if kind not in "US" or classes.dtype.kind != kind:
        return None
    unit = 4 if kind == "U" else 1
    width = max(y.dtype.itemsize, classes.dtype.itemsize) // unit
    if width > _STRING_KEY_WIDTH or width == 0:
        return None
    keys = []
    for labels in (y, classes):
        characters = np.ascontiguousarray(labels, dtype=f"{kind}{width}").view(
            np.uint32 if kind == "U" else np.uint8).reshape(len(labels), width)
        key = np.zeros(len(labels), dtype=np.uint64)
        for column in range(width):
            key *= np.uint64(1_000_003)
            key += characters[:, column]
        keys.append(key)
    return tuple(keys) if np.unique(keys[1]).size == classes.size else None


def one_hot_codes(codes, n_classes, ones=None, starts=None):
    """Class positions as a sparse one-hot CSR array (its values ``ones`` and row starts
    ``starts`` when given); never densified."""
    n_samples = codes.shape[0]
    ones = np.ones(n_samples) if ones is None else ones
    starts = np.arange(n_samples + 1) if starts is None else starts
    return sp.csr_array((ones, codes, starts), shape=(n_samples, n_classes))


def one_hot(y, classes):
    """Labels ``y`` (all among ``classes``) as a sparse one-hot CSR array, one column per
    class in the order of ``classes``; never densified."""
    return one_hot_codes(label_codes(y, classes), len(classes))


def column_classes(label_names, present, scores_name, n_columns, labels):
    """The class label of each of the ``n_columns`` columns of 2-D scores (``scores_name``)
    beside 1-D labels (``label_names``, holding the sorted labels ``present``): ``labels``
    in order, or by default the labels present, which must then be one per column."""
    who = " and ".join(label_names)
    verb = "holds" if len(label_names) == 1 else "hold"
    advice = (f"pass labels= with the {n_columns} class labels in the order of "
              f"{scores_name}'s columns (a classifier's classes_)")
    if labels is None:
        if len(present) != n_columns:
            shown = quoted(present)
            raise ValueError(f"{who} {verb} {len(present)} distinct class label(s) {shown} "
                             f"but {scores_name} has {n_columns} columns of scores; {advice}.")
        return present
    classes = check_label_list(labels, present)
    if len(classes) != n_columns:
        raise ValueError(f"labels has {len(classes)} class label(s) but {scores_name} has "
                         f"{n_columns} columns: beside 2-D scores, labels names every column; "
                         f"{advice}.")
    classes, present = common_integer_labels({"labels": classes, "the targets": present})
    unknown = np.setdiff1d(present, classes)
    if unknown.size:
        raise ValueError(f"{who} {verb} class labels {quoted(unknown)} that are not in "
                         f"labels {quoted(classes)}, the names of {scores_name}'s columns.")
    return classes


def _labels_beside_scores(names, targets, labels, defer_value_checks, categories=None):
    """1-D class labels beside 2-D scores (a classifier's ``predict_proba``): the labels
    one-hot encoded against the columns, whose class labels ``labels`` gives in order
    (default: the sorted labels found, which must then be one per column). Categorical
    labels without ``labels`` (``categories``, their order) select the classes in the
    categories' order, as the matrix of the labels themselves orders them: the columns
    are still read as the sorted labels (a classifier's ``classes_``)."""
    label_names = [name for name, y in zip(names, targets) if y.ndim == 1]
    score_names = [name for name, y in zip(names, targets) if y.ndim == 2]
    n_columns = targets[names.index(score_names[0])].shape[1]
    for name in score_names[1:]:
        if targets[names.index(name)].shape[1] != n_columns:
            raise ValueError(f"{score_names[0]} and {name} must have the same number of "
                             f"columns (classes); got {n_columns} and "
                             f"{targets[names.index(name)].shape[1]}.")
    label_arrays, present, *_ = _checked_labels(
        label_names, [targets[names.index(name)] for name in label_names])
    classes = column_classes(label_names, present, score_names[0], n_columns, labels)
    encoded = dict(zip(label_names, (one_hot(y, classes) for y in label_arrays)))
    checked = _check_matrix_targets(
        score_names, [targets[names.index(name)] for name in score_names], None,
        defer_value_checks)
    scored = dict(zip(score_names, zip(checked.masses, checked.norms)))
    for name, (mass, norm) in scored.items():
        if norm is not None:  # else checked block by block (Targets.rows)
            warn_unless_probabilities(name, norm, mass.dtype)
    masses = [encoded[name] if name in encoded else scored[name][0] for name in names]
    norms = [np.ones(encoded[name].shape[0]) if name in encoded else scored[name][1]
             for name in names]
    selection = None
    if categories is not None and labels is None:
        order = category_order(categories, classes)
        selection = None if np.array_equal(order, np.arange(len(classes))) else order
    return TargetSet(masses, norms, np.asarray(classes), selection, False,
                     tuple(label_names), categories=categories)


def category_order(categories, classes):
    """The positions of ``classes`` in the order of ``categories`` (a categorical's), the
    classes outside the categories after them, in their own order."""
    rank = {_hashable(c): i for i, c in enumerate(np.asarray(categories).tolist())}
    keys = [rank.get(_hashable(c), len(rank)) for c in np.asarray(classes).tolist()]
    return np.argsort(keys, kind="stable")


def _check_object_labels(name, y):
    """Labels in an object array: no missing values, not both strings and numbers."""
    kinds = set()
    for value in y.tolist():
        if value is None or _is_missing(value):
            raise ValueError(f"{name} contains a missing class label ({quoted(value)}); every "
                             "sample needs a label.")
        kinds.add(isinstance(value, (str, bytes)))
    if len(kinds) > 1:
        raise ValueError(f"{name} mixes strings and numbers, so its values are not class "
                         "labels: Mix of label input types (string and number).")


def _is_missing(value):
    """Whether a label is NaN-like: unequal to itself, or without a truth value (pandas NA)."""
    try:
        return bool(value != value)
    except (TypeError, ValueError):
        return True


def common_integer_labels(named_labels):
    """The integer label arrays given, in one integer dtype that holds them all.

    NumPy compares and merges ``uint64`` with signed integers as float64, which merges
    distinct labels above 2**53; cast both to ``int64`` or to ``uint64`` instead, or
    raise ``ValueError`` when neither holds every label. Other arrays pass unchanged.
    """
    arrays = list(named_labels.values())
    integer = [y for y in arrays if y.dtype.kind in "iu"]
    if len(integer) < 2 or np.result_type(*integer).kind in "iu":
        return arrays
    # Python integers compare exactly (NumPy 1.24 compares uint64 with an int as float64).
    if all(y.size == 0 or int(y.max()) <= int(np.iinfo(np.int64).max) for y in integer
           if y.dtype.kind == "u"):
        common = np.int64
    elif all(y.size == 0 or int(y.min()) >= 0 for y in integer if y.dtype.kind == "i"):
        common = np.uint64
    else:
        raise ValueError(
            f"{' and '.join(named_labels)} hold both negative integer labels and labels above "
            "2**63 - 1, which no integer type holds together; use one integer type."
        )
    return [y.astype(common) if y.dtype.kind in "iu" else y for y in arrays]


def label_classes(first_name, first, present, labels):
    """The classes of 1-D targets, ``labels`` first, and the positions ``labels`` select.

    ``present``: the sorted labels of all targets; ``first``: the labels of the first
    target, where at least one of ``labels`` must appear.
    """
    if labels is None:
        return present, None
    listed = check_label_list(labels, present)
    listed, present = common_integer_labels({"labels": listed, "the targets": present})
    check_labels_occur(first_name, listed, first)
    return (np.concatenate([listed, np.setdiff1d(present, listed)]),
            np.arange(len(listed)))


def check_labels_occur(first_name, listed, first):
    """Raise ``ValueError`` unless one of the ``listed`` labels occurs in ``first``."""
    if not np.isin(listed, first).any():
        raise ValueError(
            f"None of labels {quoted(listed)} appear in {first_name}; at least "
            f"one label must be in {first_name}."
        )


def check_label_list(labels, present=None):
    """``labels`` of 1-D targets: unique class labels of the same type as ``present``
    (the labels of the targets; None checks the list alone). An array of another library,
    on any device, is read on the host."""
    if hasattr(labels, "__dlpack__") and not isinstance(labels, np.ndarray):
        labels = to_numpy(labels)
    raw, labels = labels, as_numpy("labels", labels, "a 1-D list of class labels")
    if labels.dtype.kind in "US" and not hasattr(raw, "dtype"):
        _check_strings_only("labels", np.asarray(raw, dtype=object))
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError("labels must be a non-empty 1-D list of class labels; got "
                         f"{quoted(labels)}.")
    if labels.dtype.kind in "Of":  # None or NaN first: it is neither a string nor a number
        missing = [value for value in labels.tolist() if value is None or _is_missing(value)]
        if missing:
            raise ValueError(f"labels holds a missing value ({quoted(missing[0])}), which is "
                             "no class label; list the classes to report.")
    if labels.dtype.kind == "O":
        _check_object_labels("labels", labels)
    if present is not None and _holds_strings(labels) != _holds_strings(present):
        kinds = {True: "strings", False: "numbers"}
        raise ValueError(
            f"labels holds {kinds[_holds_strings(labels)]} ({quoted(labels.tolist())}) but the "
            f"targets hold {kinds[_holds_strings(present)]} ({quoted(present.tolist())}); "
            "labels= lists class labels as the targets hold them.")
    try:
        unique, counts = np.unique(labels, return_counts=True)
    except TypeError as exc:
        raise ValueError(f"labels {quoted(labels.tolist())} cannot be sorted ({exc}); class "
                         "labels must be all strings or all numbers.") from None
    if (counts > 1).any():
        raise ValueError(f"labels must be unique; {quoted(unique[counts > 1].tolist())} "
                         "repeated.")
    return labels


def _holds_strings(labels):
    """Whether checked class labels (not both strings and numbers) are strings: by dtype,
    or by value for an object array (pandas' object columns, a list with None)."""
    if labels.dtype.kind == "O":
        return labels.size > 0 and isinstance(labels.flat[0], (str, bytes))
    return labels.dtype.kind in "US"


def _check_matrix_targets(names, targets, labels, defer_value_checks, columns=None):
    n_classes = targets[0].shape[1]
    for name, y in zip(names[1:], targets[1:]):
        if y.shape[1] != n_classes:
            raise ValueError(
                f"{names[0]} and {name} must have the same number of columns "
                f"(classes); got {n_classes} and {y.shape[1]}."
            )
    if n_classes == 0:
        raise ValueError(f"{' and '.join(names)} have no columns; at least one class is required.")
    if any(sp.issparse(y) for y in targets):  # one sparse target makes them all sparse
        targets = [sp.csr_array(mass_block(y)) for y in targets]
    selection = None if labels is None else check_column_selection(labels, n_classes)
    if defer_value_checks and not sp.issparse(targets[0]):
        norms = [None] * len(targets)
    else:
        norms = [_scanned_row_sums(name, y) for name, y in zip(names, targets)]
    classes = np.arange(n_classes) if columns is None else columns
    return TargetSet(targets, norms, classes, selection, False)


def check_column_selection(labels, n_classes, names=None):
    """``labels`` of 2-D targets: unique integer column indices in ``[0, n_classes)``, or,
    where ``names`` (the classes of the columns) are not the default ``0 .. C-1`` (named
    DataFrame columns), column names, returned as positions."""
    if names is not None and list(names) != list(range(len(names))):
        return _selected_columns(labels, list(names))
    selection = np.asarray(labels)
    if selection.ndim != 1 or selection.size == 0 or selection.dtype.kind not in "iu":
        raise ValueError(
            "For 2-D targets labels must be a non-empty 1-D list of integer "
            f"column indices; got {quoted(labels)}."
        )
    if selection.min() < 0 or selection.max() >= n_classes:
        raise ValueError(
            f"labels must be column indices in [0, {n_classes}); got {quoted(selection)}."
        )
    if len(np.unique(selection)) != len(selection):
        raise ValueError(f"labels must be unique; got {quoted(selection)}.")
    return selection


def is_binary(y):
    """Whether a 2-D mass array holds only zeros and ones (the first rows are read first:
    soft labels and probabilities are told there without a pass over the whole array)."""
    if not (sp.issparse(y) or isinstance(y, np.ndarray)):
        xp = namespace(y)
        return bool(xp.all((y == 0) | (y == 1)))
    if sp.issparse(y):
        return _only_zeros_and_ones(y.data)
    return _only_zeros_and_ones(y[:_FIRST_ROWS]) and _only_zeros_and_ones(y[_FIRST_ROWS:])


def _only_zeros_and_ones(values):
    if values.dtype.kind == "b":
        return True
    if values.dtype.kind in "iu":  # read as unsigned, a negative integer is large
        return values.size == 0 or values.view(f"u{values.dtype.itemsize}").max() <= 1
    return np.count_nonzero(values) == np.count_nonzero(values == 1)

