"""Validated targets: any classification target pair becomes two mass arrays.

Every public function of the library that reads targets starts here. :func:`check_targets`
turns ``(y_true, y_pred)`` given as 1-D class labels, 2-D binary indicator matrices
(multi-label) or 2-D non-negative reals (soft labels), dense or ``scipy.sparse``, into two
non-negative float64 arrays of shape ``(n_samples, n_classes)`` with the class labels, the
target kind and the checked sample weights, a :class:`Targets`;
:func:`check_target_set` validates any number of targets sharing one set of classes. Bad
input raises ``ValueError`` naming the argument, before any work is done. The pieces live
below: conversion to arrays, frames, labels, weights and the target kinds.
"""

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from .conversion import (
    _as_target,
    _is_small_integer,
    _refuse_label_rows,
    _scanned_row_sums,
    checked_row_sums,
    csr_rows,
    mass_block,
)
from .frames import _aligned_frames, _categories, _frame_columns
from .labels import (
    _checked_labels,
    _index_type,
    category_order,
    check_column_selection,
    check_labels_occur,
    common_integer_labels,
    label_classes,
    label_codes,
    one_hot,
    one_hot_codes,
    score_columns,
)
from .target_kinds import (
    LABELS_VS_SCORES,
    MULTILABEL,
    SOFT,
    FirstRowOffOne,
    is_binary,
    target_kind,
    warn_unless_probabilities,
)
from .weights import check_sample_weight


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
    # The warning that 2-D scores beside labels are not probabilities: once, of the first
    # row off 1 of any block (blocks read on threads warn after all are read).
    off_one: FirstRowOffOne = field(default_factory=FirstRowOffOne, compare=False,
                                    repr=False)

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
        if self.one_hot and self.off_one.wants(rows.start):  # scores beside labels
            for name, y, norm, given in (("y_true", y_true, true_norm, self.true_norm),
                                         ("y_pred", y_pred, pred_norm, self.pred_norm)):
                if given is None and name not in self.one_hot:
                    warn_unless_probabilities(name, norm, y.dtype, self.off_one, rows.start, y)
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
            # by chunks: bincount reads its input as intp (a copy of int32 codes)
            counts = sum(np.bincount(codes[start:start + (1 << 16)],
                                     minlength=len(self.classes))
                         for start in range(0, codes.shape[0], 1 << 16))
            if not codes.shape[0]:
                counts = np.zeros(len(self.classes), dtype=np.intp)
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
        indices. 1-D labels beside 2-D scores: the classes to report, in that order,
        as beside 1-D labels; the columns are the classes in sorted order (a
        classifier's ``classes_``): ``sorted(labels)`` where ``labels`` has one class
        per column, else the sorted union of the labels found and ``labels``
        (:func:`~.labels.score_columns`).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    column_labels : array-like, default=None
        For 1-D labels beside 2-D scores: where ``labels`` is None, the scores'
        ``labels=`` (read after building), which give the columns by the same rule;
        beside ``labels``, the classes that name the columns (a classifier's
        ``classes_``), ``labels`` selecting among them. Ignored for other targets.
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
    # y_true is 0/1: what can_be_empty would find in another pass over it (the cached value)
    targets.__dict__.setdefault("can_be_empty", "y_true" not in targets.one_hot)


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
        # the header names the classes; labels= selects among them (_labels_beside_scores)
        raw, columns, column_selection = _aligned_frames(named_targets, columns, None,
                                                         labels)
    categories = _categories(named_targets)
    targets = [_as_target(name, y, compact) for name, y in zip(names, raw)]
    _refuse_label_rows(names, targets, raw)
    dims = {y.ndim for y in targets}
    if len(dims) > 1:
        # sparse scores are read as float64: float32 ones keep float32's tolerance of 1
        given_dtypes = {name: y.dtype for name, y in zip(names, raw) if sp.issparse(y)}
        if columns is None:
            return _labels_beside_scores(names, targets, labels, column_labels,
                                         defer_value_checks, categories,
                                         given_dtypes=given_dtypes)
        return _labels_beside_scores(names, targets, labels, None, defer_value_checks,
                                     named=(frame_name, columns), given_dtypes=given_dtypes)
    if dims == {1}:
        return _encode_labels(names, targets, labels, one_hot, count_pairs, categories)
    return _check_matrix_targets(names, targets, column_selection, defer_value_checks,
                                 columns)


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


def _labels_beside_scores(names, targets, labels, column_labels, defer_value_checks,
                          categories=None, named=None, given_dtypes=None):
    """1-D class labels beside 2-D scores (a classifier's ``predict_proba``): the labels
    one-hot encoded against the columns, the classes in sorted order, found by the one
    class rule (:func:`~.labels.score_columns`: from ``labels``, else ``column_labels``,
    the scores' ``labels=`` read after building, else the sorted labels found, which must
    then be one per column), or named by a DataFrame's header (``named``: the frame's
    argument name and column names); ``labels`` then selects and orders the classes of the
    result, as beside 1-D labels. Categorical labels without ``labels`` (``categories``,
    their order) select the classes in the categories' order, as the matrix of the labels
    themselves orders them: the columns are still read as the sorted labels (a
    classifier's ``classes_``). ``given_dtypes``: the dtype the user gave each sparse
    score array (read as float64), whose tolerance of row sums to 1 the warning keeps."""
    given_dtypes = given_dtypes or {}
    label_names = [name for name, y in zip(names, targets) if y.ndim == 1]
    score_names = [name for name, y in zip(names, targets) if y.ndim == 2]
    n_columns = targets[names.index(score_names[0])].shape[1]
    for name in score_names[1:]:
        if targets[names.index(name)].shape[1] != n_columns:
            raise ValueError(f"{score_names[0]} and {name} must have the same number of "
                             f"columns (classes); got {n_columns} and "
                             f"{targets[names.index(name)].shape[1]}.")
    label_arrays, present, _, (_, label_counts, _) = _checked_labels(
        label_names, [targets[names.index(name)] for name in label_names])
    if named is not None:
        try:
            classes, selection = score_columns(label_names, present, score_names[0],
                                               n_columns, labels, named=named[1])
        except ValueError as error:  # the classes there are the frame's column names
            raise ValueError(f"The column names of {named[0]} (its classes) do not fit the "
                             f"class labels beside it: {error}") from None
    elif labels is not None:  # column_labels: a classifier's classes_ (names the columns)
        classes, selection = score_columns(label_names, present, score_names[0], n_columns,
                                           labels, named=column_labels)
    else:  # the columns of labels= read after building: nothing selected here
        classes, selection = score_columns(label_names, present, score_names[0], n_columns,
                                           column_labels)
        selection = None
    if labels is not None and "y_true" in label_names:  # as beside 1-D labels
        check_labels_occur("y_true", classes[selection],
                           label_arrays[label_names.index("y_true")])
    encoded = dict(zip(label_names, (one_hot(y, classes) for y in label_arrays)))
    checked = _check_matrix_targets(
        score_names, [targets[names.index(name)] for name in score_names], None,
        defer_value_checks)
    scored = dict(zip(score_names, zip(checked.masses, checked.norms)))
    for name, (mass, norm) in scored.items():
        if norm is not None:  # else checked block by block (Targets.rows)
            warn_unless_probabilities(name, norm, given_dtypes.get(name, mass.dtype),
                                      rows=mass)
    masses = [encoded[name] if name in encoded else scored[name][0] for name in names]
    # The labels' norms: ones, one value read as many (read-only, no memory a row)
    norms = [np.broadcast_to(1.0, encoded[name].shape[0]) if name in encoded
             else scored[name][1] for name in names]
    if categories is not None and labels is None:
        order = category_order(categories, classes)
        selection = None if np.array_equal(order, np.arange(len(classes))) else order
    classes = np.asarray(classes)
    # The count of each class in y_true labels, where validation found it over the same
    # classes (every column a class found): no second count of the labels (true_classes).
    true_counts = label_counts if label_names == ["y_true"] and label_counts is not None \
        and len(present) == len(classes) and np.array_equal(present, classes) else None
    return TargetSet(masses, norms, classes, selection, False, tuple(label_names),
                     true_counts=true_counts, categories=categories)


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
