"""The confusion object every builder returns, and what every reader of a matrix shares:
the per-class counts, normalization and the finishing steps of the public functions."""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .user_warnings import warn

NONE_LABEL = "none"


@dataclass(frozen=True)
class Confusion:
    """A full confusion matrix and the classes a user asked to see.

    Attributes
    ----------
    matrix : ndarray of shape (n_classes, n_classes)
        Rows are true classes, columns predicted classes, over every class
        (and the trailing "none" class when ``has_none``).
    display_labels : list
        The label of each row of ``matrix``.
    selection : ndarray of int
        Rows/columns of ``matrix`` to report, in order; "none" stays last.
    has_none : bool
        Whether the last row/column is the "none" class.
    n_samples : int
        Instances read (0 for a matrix built elsewhere).
    n_skipped : int
        Instances left out (``empty="skip"``), for the caller to warn about.
    namespace : tuple or None
        ``(xp, device)`` of targets from another array-API library, where the
        public functions return their result (:meth:`like_input`).
    true_classes : ndarray or None
        The labels that occur in ``y_true`` (1-D targets), to check ``labels=`` of a
        matrix summed in pieces as the one-shot functions check it.
    true_kind : {None, "multilabel", "soft"}
        How a 2-D ``y_true`` was read (0/1 indicators or soft labels; None for 1-D
        labels), so that pieces of one input are summed only when read alike.
    categories : ndarray or None
        The categories of categorical labels, in their order (the order of the classes
        that occur), so that sums of pieces order their classes as the one-shot
        functions do.
    """

    matrix: np.ndarray
    display_labels: list
    selection: np.ndarray
    has_none: bool
    n_samples: int = 0
    n_skipped: int = 0
    namespace: tuple = None
    true_classes: object = None
    true_kind: str = None
    categories: object = None

    @classmethod
    def from_parts(cls, matrix, classes, selection, has_none, n_samples=0, n_skipped=0,
                   namespace=None, true_classes=None, true_kind=None, categories=None):
        """Build from a full matrix, its class labels and a ``labels=`` selection."""
        labels = list(classes)
        if has_none:
            labels.append(NONE_LABEL)
        if selection is None:
            selection = every_class(len(labels))
        elif has_none:
            selection = np.append(selection, len(labels) - 1)
        return cls(matrix, labels, np.asarray(selection), has_none, int(n_samples),
                   int(n_skipped), namespace, true_classes, true_kind, categories)

    def selected(self, copy=True):
        """The reported sub-matrix, rows and columns in ``selection`` order (a new array;
        every class in order, the most common case, is a copy of a slice: 8x faster than
        the fancy index at 1,000 classes).

        ``copy=False``: where the selection is every class of the matrix in order, the
        matrix itself (no copy of ``C x C`` cells), for a caller that owns this object and
        drops it (the public functions' finishing steps); else a new array as above.
        """
        size = len(self.selection)
        if self.selection is every_class(size) or np.array_equal(self.selection,
                                                                 np.arange(size)):
            if not copy and self.matrix.shape == (size, size):
                return self.matrix
            return self.matrix[:size, :size].copy()
        return self.matrix[np.ix_(self.selection, self.selection)]

    def like_input(self, array):
        """``array`` (a NumPy result) in the namespace and on the device of the input."""
        if self.namespace is None:
            return array
        xp, device = self.namespace
        return xp.asarray(array, device=device)

    def selected_labels(self):
        return [self.display_labels[i] for i in self.selection]


@lru_cache(maxsize=64)
def every_class(n_classes):
    """``np.arange(n_classes)``, read-only and shared: the selection of every class in
    order, which its readers recognize by identity (no comparison, no fancy index)."""
    selection = np.arange(n_classes)
    selection.flags.writeable = False
    return selection


def warn_skipped(n_skipped):
    """Warn that ``n_skipped`` instances with an empty side were dropped (``empty="skip"``)."""
    if n_skipped:
        warn(f"{n_skipped} instance(s) with an all-zero label or prediction were skipped "
             "(empty='skip').")


def normalize_confusion(matrix, normalize):
    """Normalize a confusion matrix over rows, columns or all of it.

    Zero rows or columns stay zero, as in :func:`sklearn.metrics.confusion_matrix`.
    ``normalize`` is None, "true", "pred" or "all", checked by the caller.
    """
    if normalize is None:
        return matrix
    totals = {
        "true": matrix.sum(axis=1, keepdims=True),
        "pred": matrix.sum(axis=0, keepdims=True),
        "all": matrix.sum(keepdims=True),
    }[normalize]
    return np.divide(matrix, totals, out=np.zeros_like(matrix), where=totals != 0)


def class_counts(matrix):
    """Per-class ``tp, fp, fn, tn`` of a square confusion matrix (rows true classes).

    TP is the diagonal cell, FN the rest of the row, FP the rest of the column and TN
    everything outside the row and the column (Erbani et al. 2024, eq. 36).
    """
    tp = np.diag(matrix).copy()
    fp = matrix.sum(axis=0) - tp
    fn = matrix.sum(axis=1) - tp
    tn = matrix.sum() - tp - fp - fn
    return tp, fp, fn, tn


def finish_matrix(confusions, normalize):
    """One matrix: the selected classes, normalized, in the input's array library.

    ``confusions`` are new objects of the caller's (a builder's), dropped after: the full
    matrix is returned itself where it is the selection (:meth:`Confusion.selected`).
    """
    (confusion,) = confusions
    return confusion.like_input(normalize_confusion(confusion.selected(copy=False),
                                                    normalize))


def finish_bounds(confusions, normalize):
    """The sub-pixel bounds: ``(lower, upper)`` over the selected classes (no normalize);
    each full matrix returned itself where it is the selection (as :func:`finish_matrix`),
    unless the two share memory."""
    lower, upper = (confusion.selected(copy=False) for confusion in confusions)
    if np.may_share_memory(lower, upper):
        lower, upper = confusions[0].selected(), confusions[1].selected()
    return confusions[0].like_input(lower), confusions[1].like_input(upper)


def finish_tensor(confusions, normalize):
    """The MLCT: recall and precision matrices stacked; ``normalize`` (a bool) makes their
    diagonals the per-class recall and precision."""
    recall, precision = (confusion.selected() for confusion in confusions)
    if normalize:
        recall, precision = (normalize_confusion(recall, "true"),
                             normalize_confusion(precision, "pred"))
    return confusions[0].like_input(np.stack([recall, precision]))
