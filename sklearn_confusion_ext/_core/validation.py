"""One validation layer: any classification target becomes two mass arrays.

Every public function of the library starts here. :func:`check_targets` turns
``(y_true, y_pred)`` given as 1-D class labels, 2-D binary indicator matrices
(multi-label) or 2-D non-negative reals (soft labels), dense or
``scipy.sparse``, into two non-negative float64 arrays of shape
``(n_samples, n_classes)`` with the class labels, the target kind and the
checked sample weights. Bad input raises ``ValueError`` naming the argument,
before any work is done.
"""

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import unique_labels

from .arrays import namespace, row_sums
from .chunks import chunk_rows, map_chunks
from .user_warnings import warn

SINGLE_LABEL = "single-label"
MULTILABEL = "multilabel"
SOFT = "soft"


@dataclass(frozen=True)
class Targets:
    """Validated targets.

    Attributes
    ----------
    y_true, y_pred : ndarray or scipy.sparse.csr_array of shape (n_samples, n_classes)
        Non-negative float64 masses. 1-D labels become a sparse one-hot array.
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
    """

    y_true: object
    y_pred: object
    classes: np.ndarray
    selection: object
    single_label: bool
    true_norm: np.ndarray
    pred_norm: np.ndarray
    sample_weight: object

    # Rows of a chunk are this many times the cache-sized default (device arrays: more).
    chunk_factor: ClassVar[int] = 1

    def threads(self, n_jobs):
        """Threads over chunks for the user's ``n_jobs`` (None: chosen from the data)."""
        return n_jobs

    @property
    def n_samples(self):
        return self.y_true.shape[0]

    def rows(self, rows):
        """Both targets and their norms on a slice of rows.

        Where the value checks were deferred, the block is checked here: NaN,
        infinite or negative entries raise ``ValueError`` naming the row.
        """
        y_true, y_pred = self.y_true[rows], self.y_pred[rows]
        if self.true_norm is None:
            return (y_true, y_pred, checked_row_sums("y_true", y_true, rows.start),
                    checked_row_sums("y_pred", y_pred, rows.start))
        return y_true, y_pred, self.true_norm[rows], self.pred_norm[rows]

    @property
    def namespace(self):
        """``(xp, device)`` of targets from another array library, else None."""
        return None

    @cached_property
    def true_classes(self):
        """The labels that occur in ``y_true`` (1-D targets; None for 2-D)."""
        if not self.single_label:
            return None
        counts = np.bincount(self.y_true.indices, minlength=len(self.classes))
        return self.classes[counts > 0]

    @cached_property
    def kind(self):
        """"single-label" (1-D labels), "multilabel" (2-D 0/1) or "soft"."""
        return target_kind(self.single_label, [self.y_true, self.y_pred])


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
    matrix = np.asarray(matrix)
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


def check_class_names(labels, n_classes, name="labels"):
    """Names for the ``n_classes`` rows of a matrix: ``0 .. n_classes - 1`` by default."""
    if labels is None:
        return list(range(n_classes))
    labels = list(labels)
    if len(labels) != n_classes:
        raise ValueError(f"{name} has {len(labels)} names for {n_classes} classes.")
    return labels


LABELS_RENAMED = "labels was renamed display_labels in 0.1 and will be removed in 0.2."


def check_display_labels(display_labels, labels, n_classes):
    """Row names of the statistical tests and the Dirichlet posterior (one rule for the rename).

    ``labels`` is the name ``display_labels`` had before 0.1 (everywhere else ``labels=``
    selects classes): it still works, with a ``FutureWarning``; passing both is an error.
    """
    if labels is None:
        return check_class_names(display_labels, n_classes, "display_labels")
    if display_labels is not None:
        raise ValueError("Pass display_labels only: labels is its deprecated name, to be "
                         "removed in 0.2.")
    warn(LABELS_RENAMED, FutureWarning)
    return check_class_names(labels, n_classes, "labels")


def _renamed_labels(self):
    """Deprecated name of ``display_labels`` (removed in 0.2)."""
    warn(LABELS_RENAMED, FutureWarning)
    return self.display_labels


# The read-only ``labels`` attribute of objects that name rows with ``display_labels``.
RENAMED_LABELS_ATTRIBUTE = property(_renamed_labels)


def check_targets(y_true, y_pred, *, labels=None, sample_weight=None,
                  defer_value_checks=False):
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
        indices.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
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
                                  defer_value_checks)
    (mass_true, mass_pred), (true_norm, pred_norm) = target_set.masses, target_set.norms
    n_samples = mass_true.shape[0]
    if mass_pred.shape[0] != n_samples:
        raise ValueError(
            "y_true and y_pred must have the same number of samples; got "
            f"{n_samples} and {mass_pred.shape[0]}."
        )
    sample_weight = check_sample_weight(sample_weight, n_samples)
    return Targets(mass_true, mass_pred, target_set.classes, target_set.selection,
                   target_set.single_label, true_norm, pred_norm, sample_weight)


def require_binary(targets, advice):
    """Raise ``ValueError`` unless 2-D targets hold only 0/1 indicators (``advice`` follows)."""
    if targets.single_label:
        return
    for name, y in (("y_true", targets.y_true), ("y_pred", targets.y_pred)):
        if not is_binary(y):
            raise ValueError(f"{name} has values other than 0 and 1; {advice}")


@dataclass(frozen=True)
class TargetSet:
    """Validated targets sharing one set of classes (see :class:`Targets`)."""

    masses: list
    norms: list
    classes: np.ndarray
    selection: object
    single_label: bool


def check_target_set(named_targets, labels=None, defer_value_checks=False):
    """Validate targets that share one set of classes.

    Parameters
    ----------
    named_targets : dict of str to array-like
        The targets by argument name (used in error messages). With ``labels``
        given for 1-D targets, at least one label must appear in the first.
    labels, defer_value_checks
        As in :func:`check_targets`.

    Returns
    -------
    TargetSet
        One (n_samples_i, n_classes) mass array and its row norms per target.
    """
    names = list(named_targets)
    targets = [_as_target(name, y) for name, y in named_targets.items()]
    dims = {y.ndim for y in targets}
    if len(dims) > 1:
        found = ", ".join(f"{name} with {y.ndim} dimension(s)" for name, y in zip(names, targets))
        raise ValueError(
            f"{' and '.join(names)} must all be 1-D class labels or all be 2-D "
            f"(n_samples, n_classes) arrays; got {found}."
        )
    if dims == {1}:
        return _encode_labels(names, targets, labels)
    return _check_matrix_targets(names, targets, labels, defer_value_checks)


def _as_target(name, y):
    """Return ``y`` as a 1-D ndarray, a 2-D ndarray or a canonical CSR array."""
    y = _as_array(name, y)
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    return y


def _as_array(name, y):
    if sp.issparse(y):
        if y.ndim != 2:
            raise ValueError(f"{name} must be 1-D or 2-D; got a sparse array of shape {y.shape}.")
        if y.shape[1] == 1:
            return _as_array(name, y.toarray())
        y = sp.csr_array(y, dtype=np.float64, copy=True)
        y.sum_duplicates()
        return y
    if isinstance(y, str) or not hasattr(y, "__len__") and not hasattr(y, "__array__"):
        raise TypeError(
            f"{name} must be array-like (class labels or an (n_samples, n_classes) "
            f"array); got {type(y).__name__}."
        )
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim == 1:
        return y
    if y.ndim != 2:
        raise ValueError(f"{name} must be 1-D or 2-D; got an array of shape {y.shape}.")
    if y.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} is 2-D with dtype {y.dtype}; 2-D targets must hold numbers "
            "(binary indicators or non-negative soft labels)."
        )
    return np.asarray(y, dtype=np.float64)


def checked_row_sums(name, y, first_row=0):
    """Row sums of (a block of rows of) a 2-D mass array, rejecting bad values.

    NaN, infinite and negative entries raise ``ValueError`` naming ``name``
    and the row (counted from ``first_row``). A non-finite entry makes its row
    sum non-finite and a negative one the minimum negative, so a clean block
    costs one product and one minimum.
    """
    if sp.issparse(y):
        sums, smallest = row_sums(y), y.data.min(initial=np.inf)
    else:
        sums, smallest = y @ np.ones(y.shape[1]), y.min(initial=np.inf)
    if np.isfinite(sums).all() and smallest >= 0:
        return sums
    values = y.toarray() if sp.issparse(y) else y
    finite = np.isfinite(values)
    if not finite.all():
        row = np.flatnonzero(~finite.all(axis=1))[0]
        bad = values[row][~finite[row]][0]
        raise ValueError(f"{name} contains {bad} (first at row {first_row + row}); masses "
                         "must be finite.")
    if smallest < 0:
        row = np.flatnonzero(values.min(axis=1) < 0)[0]
        raise ValueError(
            f"{name} has negative entries (min {values.min():g}, first at row "
            f"{first_row + row}); binary indicators and soft labels must be non-negative."
        )
    raise ValueError(f"{name} has rows whose total mass overflows float64.")


def _scanned_row_sums(name, y):
    """:func:`checked_row_sums` of a whole array, in chunks on all cores."""
    if sp.issparse(y):
        return checked_row_sums(name, y)
    parts = map_chunks(lambda rows: checked_row_sums(name, y[rows], rows.start),
                       y.shape[0], chunk_rows(8 * y.shape[1]))
    return np.concatenate(list(parts))


def check_sample_weight(sample_weight, n_samples):
    """``None``, or ``n_samples`` finite non-negative float64 weights (else ValueError)."""
    if sample_weight is None:
        return None
    weight = np.asarray(sample_weight)
    if weight.ndim == 0 or weight.dtype.kind not in "biuf":
        raise ValueError(
            f"sample_weight must be a 1-D array of {n_samples} non-negative "
            f"numbers; got {sample_weight!r}."
        )
    weight = weight.astype(np.float64).ravel()
    if weight.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {weight.shape[0]} entries but y_true has "
            f"{n_samples} samples."
        )
    if not np.isfinite(weight).all():
        raise ValueError("sample_weight contains NaN or infinite values.")
    if weight.min() < 0:
        raise ValueError(
            f"sample_weight has negative entries (min {weight.min():g}); "
            "weights must be non-negative."
        )
    return weight


def _encode_labels(names, targets, labels):
    for name, y in zip(names, targets):
        if y.dtype.kind == "f":
            if not np.isfinite(y).all():
                raise ValueError(f"{name} contains NaN or infinite class labels.")
            if not np.array_equal(y, np.round(y)):
                raise ValueError(
                    f"{name} holds non-integer floats; 1-D targets must be class "
                    "labels. Pass soft labels as a 2-D (n_samples, n_classes) array."
                )
    try:
        present = unique_labels(*targets)
    except ValueError as exc:
        raise ValueError(f"{' and '.join(names)} are not class labels: {exc}") from None
    classes, selection = label_classes(names[0], targets[0], present, labels)
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]

    def one_hot(y):
        n_samples = y.shape[0]
        columns = order[np.searchsorted(sorted_classes, y)]
        return sp.csr_array(
            (np.ones(n_samples), columns, np.arange(n_samples + 1)),
            shape=(n_samples, len(classes)),
        )

    masses = [one_hot(y) for y in targets]
    return TargetSet(masses, [np.ones(y.shape[0]) for y in targets], classes, selection, True)


def label_classes(first_name, first, present, labels):
    """The classes of 1-D targets, ``labels`` first, and the positions ``labels`` select.

    ``present``: the sorted labels of all targets; ``first``: the labels of the first
    target, where at least one of ``labels`` must appear.
    """
    if labels is None:
        return present, None
    listed = check_label_list(labels, present)
    check_labels_occur(first_name, listed, first)
    return (np.concatenate([listed, np.setdiff1d(present, listed)]),
            np.arange(len(listed)))


def check_labels_occur(first_name, listed, first):
    """Raise ``ValueError`` unless one of the ``listed`` labels occurs in ``first``."""
    if not np.isin(listed, first).any():
        raise ValueError(
            f"None of labels {listed.tolist()} appear in {first_name}; at least "
            f"one label must be in {first_name}."
        )


def check_label_list(labels, present=None):
    """``labels`` of 1-D targets: unique class labels of the same type as ``present``
    (the labels of the targets; None checks the list alone)."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError(f"labels must be a non-empty 1-D list of class labels; got {labels!r}.")
    if present is not None and (labels.dtype.kind in "USO") != (present.dtype.kind in "USO"):
        raise ValueError(
            f"labels holds {labels.dtype.kind in 'USO' and 'strings' or 'numbers'} "
            f"but the targets hold {present.dtype.kind in 'USO' and 'strings' or 'numbers'}."
        )
    unique, counts = np.unique(labels, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"labels must be unique; {unique[counts > 1].tolist()} repeated.")
    return labels


def _check_matrix_targets(names, targets, labels, defer_value_checks):
    n_classes = targets[0].shape[1]
    for name, y in zip(names[1:], targets[1:]):
        if y.shape[1] != n_classes:
            raise ValueError(
                f"{names[0]} and {name} must have the same number of columns "
                f"(classes); got {n_classes} and {y.shape[1]}."
            )
    if n_classes == 0:
        raise ValueError(f"{' and '.join(names)} have no columns; at least one class is required.")
    if any(sp.issparse(y) for y in targets):
        targets = [sp.csr_array(y) for y in targets]
    selection = None if labels is None else check_column_selection(labels, n_classes)
    if defer_value_checks and not sp.issparse(targets[0]):
        norms = [None] * len(targets)
    else:
        norms = [_scanned_row_sums(name, y) for name, y in zip(names, targets)]
    return TargetSet(targets, norms, np.arange(n_classes), selection, False)


def check_column_selection(labels, n_classes):
    """``labels`` of 2-D targets: unique integer column indices in ``[0, n_classes)``."""
    selection = np.asarray(labels)
    if selection.ndim != 1 or selection.size == 0 or selection.dtype.kind not in "iu":
        raise ValueError(
            "For 2-D targets labels must be a non-empty 1-D list of integer "
            f"column indices; got {labels!r}."
        )
    if selection.min() < 0 or selection.max() >= n_classes:
        raise ValueError(
            f"labels must be column indices in [0, {n_classes}); got {selection.tolist()}."
        )
    if len(np.unique(selection)) != len(selection):
        raise ValueError(f"labels must be unique; got {selection.tolist()}.")
    return selection


def is_binary(y):
    """Whether a 2-D mass array holds only zeros and ones."""
    if not (sp.issparse(y) or isinstance(y, np.ndarray)):
        xp = namespace(y)
        return bool(xp.all((y == 0) | (y == 1)))
    values = y.data if sp.issparse(y) else y
    return np.count_nonzero(values) == np.count_nonzero(values == 1)

