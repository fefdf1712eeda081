"""A labelled view of a confusion matrix: a pandas DataFrame whose index and columns are the
classes, in the order the library's functions put them, so that nobody rebuilds that order
by hand. The functions keep returning NumPy arrays, as scikit-learn's do; this is the one
step from such an array to a table for a notebook.
"""

import numpy as np
import scipy.sparse as sp

from .._core.confusion import NONE_LABEL
from .._core.matrix_checks import check_confusion_matrix, check_distinct_names
from .._core.params import ARRAY, HasMethods, Label, quoted, validate_params
from .._core.targets import check_target_set
from .rejection import REJECTED_LABEL, check_reject_label, same_label


@validate_params({"matrix": [ARRAY, HasMethods("result", "merge",
                                                description="a ConfusionAccumulator")],
                  "labels": [None, ARRAY], "y_true": [None, ARRAY], "y_pred": [None, ARRAY],
                  "reject_label": [None, Label()]},
                 renamed={"confusion": "matrix"})
def confusion_frame(matrix, *, labels=None, y_true=None, y_pred=None, reject_label=None):
    """A confusion matrix as a ``pandas.DataFrame`` labelled by class.

    Rows are the true classes (the index is named "true"), columns the predicted ones
    ("predicted"); MLCM's (and the transport matrix's ``empty="null_class"``) trailing
    "none" row and column are named "none". The classes are those of the function that built
    the matrix, in its order: ``labels`` as passed to it, else the classes of ``y_true``
    and ``y_pred`` as it reads them (sorted labels, or a DataFrame's columns, or column
    positions of 2-D targets), else the classes a :class:`ConfusionAccumulator` has seen,
    else positions ``0 .. n - 1``. pandas is an optional dependency.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes) or ConfusionAccumulator
        A matrix returned by a function of this library (or by
        :func:`sklearn.metrics.confusion_matrix`), or an accumulator (its ``result()``).

        .. versionchanged:: 0.1
           ``confusion`` was renamed ``matrix``; the former name works with a
           ``FutureWarning`` and will be removed in 0.2.
    labels : array-like of shape (n_classes,), default=None
        The ``labels=`` the matrix was built with (its classes, in order; the "none" class
        is added when the matrix has one more row). With ``y_true`` and ``y_pred``, the
        selection among their classes, as in the function.
    y_true, y_pred : array-like or sparse matrix, default=None
        The targets the matrix was built from, to name the classes as the function did.
    reject_label : int, float, bool or str, default=None
        The ``reject_label=`` the matrix was built with, where ``y_true`` and ``y_pred``
        name its classes (it is then no class). A matrix of one more column than rows
        (:func:`transport_confusion_matrix` with ``reject_label``) gets a last column
        named "rejected" in any case.

    Returns
    -------
    pandas.DataFrame of shape (n_classes, n_classes) or (n_classes, n_classes + 1)
        The matrix's values, unchanged.

    Raises
    ------
    ValueError
        When the matrix is not square, or the classes do not number its rows (or its rows
        less the "none" row), or ``labels`` repeat a name (as printed: ``1`` and ``"1"``
        too), or name a class "none" beside the matrix's "none" row.
    ImportError
        When pandas is not installed.

    See Also
    --------
    transport_confusion_matrix : The transport matrix (a "none" class for multi-label
        targets).
    mlcm : The multi-label matrix, with its "none" row and column.
    ConfusionAccumulator : A matrix summed batch by batch, which this labels by the
        classes it has seen.

    Examples
    --------
    >>> from sklearn_confusion_ext import confusion_frame, mlcm, transport_confusion_matrix
    >>> y_true, y_pred = ["cat", "dog", "dog", "owl"], ["cat", "cat", "dog", "owl"]
    >>> confusion_frame(transport_confusion_matrix(y_true, y_pred), y_true=y_true,
    ...                 y_pred=y_pred)
    predicted  cat  dog  owl
    true
    cat        1.0  0.0  0.0
    dog        1.0  1.0  0.0
    owl        0.0  0.0  1.0
    >>> confusion_frame(mlcm([[1, 0], [0, 1]], [[1, 1], [0, 0]]), labels=["spam", "ham"])
    predicted  spam  ham  none
    true
    spam        1.0  1.0   0.0
    ham         0.0  0.0   1.0
    none        0.0  0.0   0.0

    A matrix with its rejections (``reject_label``) in its last column:

    >>> y_true, y_pred = ["cat", "dog", "dog"], ["cat", "?", "dog"]
    >>> confusion_frame(transport_confusion_matrix(y_true, y_pred, reject_label="?"),
    ...                 y_true=y_true, y_pred=y_pred, reject_label="?")
    predicted  cat  dog  rejected
    true
    cat        1.0  0.0       0.0
    dog        0.0  1.0       1.0
    """
    try:
        import pandas
    except ImportError as error:
        raise ImportError("confusion_frame needs pandas, an optional dependency: "
                          "pip install pandas") from error
    classes = None
    if hasattr(matrix, "result") and hasattr(matrix, "merge"):  # an accumulator
        if labels is None and y_true is None and hasattr(matrix, "classes_"):
            classes = list(matrix.classes_)
        matrix = matrix.result()
        if isinstance(matrix, tuple):
            raise ValueError("confusion_frame takes one matrix; this accumulator's result is "
                             "a pair of bounds (kind='subpixel'): pass each bound.")
    try:
        three_dimensional = np.ndim(matrix) == 3
    except ValueError:  # ragged rows: check_confusion_matrix says so
        three_dimensional = False
    if three_dimensional:
        raise ValueError(f"matrix must be a square matrix; got shape {np.shape(matrix)}"
                         ": a tensor of per-class 2 x 2 matrices has no single class order to "
                         "label.")
    # checked as every matrix is (square, finite, non-negative numbers); counts keep their
    # integer type. One more column than rows: the last one is the rejections.
    rejected = _has_rejected_column(matrix)
    if rejected:  # every cell checked: the first n columns, then the last n
        checked = check_confusion_matrix(np.asarray(matrix)[:, :-1], "matrix")
        checked = np.column_stack([checked, check_confusion_matrix(
            np.asarray(matrix)[:, 1:], "matrix")[:, -1]])
    else:
        checked = check_confusion_matrix(matrix, "matrix")
    if not sp.issparse(matrix) and np.asarray(matrix).dtype.kind in "biu":
        checked = np.asarray(matrix)
    if (y_true is None) != (y_pred is None):
        raise ValueError("confusion_frame names the classes from both targets: pass y_true "
                         "and y_pred together, or neither.")
    if y_true is not None:
        built_labels = labels if reject_label is None else \
            check_reject_label(reject_label, y_true, y_pred, labels)
        targets = check_target_set({"y_true": y_true, "y_pred": y_pred}, labels=built_labels,
                                   one_hot=False)
        selection = (range(len(targets.classes)) if targets.selection is None
                     else targets.selection)
        classes = [targets.classes[i] for i in selection]
        if reject_label is not None:
            classes = [name for name in classes if not same_label(name, reject_label)]
    elif labels is not None:
        classes = list(np.asarray(labels, dtype=object))
    n = checked.shape[0]
    if classes is None:
        classes = list(range(n))
    classes = [name.item() if isinstance(name, np.generic) else name for name in classes]
    check_distinct_names(classes, "labels", "The frame's rows and columns are keyed by class "
                                            "name")
    if rejected:
        if len(classes) != n:
            raise ValueError(f"The matrix has {n} rows (and a last column of rejections) but "
                             f"the classes are {len(classes)} ({quoted(classes)}): pass the "
                             "labels the matrix was built with, or the targets it was built "
                             "from and its reject_label.")
        return pandas.DataFrame(checked, index=pandas.Index(classes, name="true"),
                                columns=pandas.Index([*classes, REJECTED_LABEL],
                                                     name="predicted"))
    if len(classes) + 1 == n:
        if NONE_LABEL in map(str, classes):
            raise ValueError(f"labels name a class {NONE_LABEL!r}, the name of the matrix's "
                             f"extra row and column (instances of no class); pass labels "
                             f"without {NONE_LABEL!r}.")
        classes.append(NONE_LABEL)
    elif len(classes) != n:
        raise ValueError(f"The matrix has {n} rows but the classes are {len(classes)} "
                         f"({quoted(classes)}): pass the labels the matrix was built with, "
                         "or the targets it was built from.")
    return pandas.DataFrame(checked, index=pandas.Index(classes, name="true"),
                            columns=pandas.Index(classes, name="predicted"))


def _has_rejected_column(matrix):
    """Whether ``matrix`` is a matrix of ``n`` rows and ``n + 1`` columns (the last one the
    rejections of :func:`transport_confusion_matrix`'s ``reject_label``)."""
    if sp.issparse(matrix):
        return False
    try:
        shape = np.shape(matrix)
    except ValueError:  # ragged rows: check_confusion_matrix says so
        return False
    return len(shape) == 2 and shape[1] == shape[0] + 1 and shape[0] >= 1
