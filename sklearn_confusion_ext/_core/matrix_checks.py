"""Checks of a confusion matrix given as input and of the names of its classes.

:func:`check_confusion_matrix` turns a square matrix of (possibly fractional) counts, dense,
sparse or a DataFrame, into float64, with the argument's name in every error;
:func:`check_counted` refuses an all-zero matrix built from targets, naming its cause.
:func:`check_class_names` and :func:`check_distinct_names` check the names of a matrix's
rows (distinct as printed); :func:`check_display_labels` is the one rule for
``display_labels`` and its former name ``labels`` in the statistical tests and posteriors.
"""

from collections import Counter

import numpy as np
import scipy.sparse as sp

from .conversion import _checked_csr
from .frames import frame_class_names
from .params import matrix_builder, quoted
from .user_warnings import warn


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
        rejected = (matrix.ndim == 2 and matrix.shape[1] == matrix.shape[0] + 1
                    and matrix.shape[0] >= min_classes)
        hint = (" One more column than rows: a matrix with a last 'rejected' column "
                "(reject_label=) is no matrix of classes; pass matrix[:, :-1] for the "
                "decisions among the answered." if rejected else "")
        if matrix.ndim == 1:  # labels where a matrix was expected
            hint = (" A 1-D array holds labels, not counts: pass the matrix "
                    f"{matrix_builder(name)}.")
        raise ValueError(f"{name} must be a square matrix with at least {min_classes} "
                         f"class(es); got shape {matrix.shape}.{hint}")
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
            display_labels = frame_class_names(matrix, "matrix")  # the tests' argument
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
