"""The class labels and the scores a decision is made from, checked once: 1-D ``y_true``
labels as codes into the classes, 1-D scores of one class or 2-D scores with one column
per class (``labels`` names the columns, a classifier's ``classes_``), and the sample
weights. Bad input raises ``ValueError`` naming the argument, before any work."""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._core.conversion import _as_array
from .._core.frames import _aligned_frames, _column_names
from .._core.labels import check_label_list, column_classes, common_integer_labels, label_codes
from .._core.params import quoted
from .._core.probabilities import dense_of_sparse
from .._core.targets import check_target_set
from .._core.weights import check_sample_weight


@dataclass(frozen=True)
class Scored:
    """Checked labels and scores.

    ``codes``: each instance's class, a position in ``classes``; ``scores``: float64,
    1-D (the score of one class) or 2-D (a column per class of ``classes``); ``weights``:
    float64 weights, or None for unit weights; ``dtype``: the scores' dtype as given (the
    tolerance of their row sums: float32 rounding is no reason to warn)."""

    codes: np.ndarray
    classes: np.ndarray
    scores: np.ndarray
    weights: object
    dtype: np.dtype = np.dtype(np.float64)


def checked_scores(y_true, y_score, score_name, labels=None, sample_weight=None):
    """``y_true`` (1-D class labels) and ``y_score`` (argument ``score_name``) as
    :class:`Scored`.

    2-D scores: ``labels`` names the columns in order (default: the sorted labels of
    ``y_true``, one per column). 1-D scores: the classes are ``labels`` (at most two, the
    labels of ``y_true`` among them) or the labels of ``y_true`` (at most two)."""
    if _column_names(y_score) is not None:
        # A DataFrame's columns name its classes, as everywhere in the library (read by
        # position, its shuffled columns gave another number silently)
        (_, y_score), labels, _ = _aligned_frames(
            {"y_true": y_true, score_name: y_score}, (score_name, _column_names(y_score)),
            labels, labels)
    scores = _checked_score_array(score_name, y_score)
    target = check_target_set({"y_true": y_true}, one_hot=False)
    if not target.single_label:
        raise ValueError(f"y_true must be 1-D class labels beside {score_name}; got a 2-D "
                         "array (pass the class of each instance, e.g. y.argmax(axis=1)).")
    codes = target.codes[0]
    if codes.shape[0] != scores.shape[0]:
        raise ValueError(f"y_true and {score_name} must have the same number of samples; "
                         f"got {codes.shape[0]} and {scores.shape[0]}.")
    present = np.sort(target.classes)
    if scores.ndim == 2:
        classes = column_classes(["y_true"], present, score_name, scores.shape[1], labels)
    else:
        classes = _binary_classes(present, score_name, labels)
    codes = label_codes(target.classes, classes)[codes] if len(target.classes) else codes
    weights = check_sample_weight(sample_weight, codes.shape[0])
    given = getattr(y_score, "dtype", None)
    return Scored(codes, np.asarray(classes), scores, weights,
                  given if isinstance(given, np.dtype) else np.dtype(np.float64))


def _binary_classes(present, score_name, labels):
    """The classes of a problem scored by one column: ``labels`` or those present."""
    if labels is None:
        classes = present
    else:
        classes = check_label_list(labels, present)
        classes, present = common_integer_labels({"labels": classes, "the targets": present})
        unknown = np.setdiff1d(present, classes)
        if unknown.size:
            raise ValueError(f"y_true holds class labels {quoted(unknown.tolist())} that are "
                             f"not in labels {quoted(np.asarray(classes).tolist())}.")
    if len(classes) > 2:
        where = "labels lists" if labels is not None else "y_true holds"
        raise ValueError(
            f"{where} {len(classes)} classes ({quoted(np.asarray(classes).tolist())}) but "
            f"{score_name} is 1-D, the score of one class: pass 2-D scores, one column per "
            "class (a classifier's predict_proba), for one-vs-rest.")
    return classes


def _checked_score_array(name, y):
    """``y`` as a float64 1-D or 2-D NumPy array of finite numbers (a sparse array is read
    densely); ``ValueError`` naming ``name`` otherwise."""
    if y is None:
        raise TypeError(f"{name} must be array-like (scores); got None.")
    try:
        array = _as_array(name, y)
    except ValueError as error:  # a list of strings and numbers: no scores either
        if "mixes strings and numbers" not in str(error):
            raise
        raise ValueError(f"{name} must hold numbers (scores); got strings among them.") \
            from None
    if sp.issparse(array):
        array = dense_of_sparse(name, array)
    if array.ndim == 1 and array.dtype.kind in "OUS":
        try:
            array = np.asarray(array, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must hold numbers (scores); got values such as "
                             f"{quoted(_first_non_number(array))}.") from None
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers (scores); got dtype {array.dtype}.")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    if array.ndim == 2 and array.shape[1] == 0:
        raise ValueError(f"{name} has no columns; at least one class is required.")
    array = np.asarray(array, dtype=np.float64)
    finite = np.isfinite(array)
    if not finite.all():
        position = np.argmin(finite.reshape(array.shape[0], -1).all(axis=1))
        value = array.reshape(array.shape[0], -1)[position]
        what = "nan" if np.isnan(value).any() else "infinity"
        raise ValueError(f"{name} contains {what} (first at row {position}); scores must be "
                         "finite.")
    return array


def _first_non_number(array):
    for value in array.tolist():
        try:
            float(value)
        except (TypeError, ValueError):
            return value
    return array.tolist()[:3]


def positive_class(classes, pos_label):
    """The position in ``classes`` of the positive class (None: it does not occur), by
    scikit-learn's rule: without ``pos_label``, classes among {0, 1} or {-1, 1} make 1
    the positive class; with it, it must be one of two classes present."""
    listed = np.asarray(classes).tolist()
    if pos_label is None:
        numeric = all(isinstance(c, (int, float, bool, np.number, np.bool_)) for c in listed)
        if not numeric or not (set(listed) <= {0, 1} or set(listed) <= {-1, 1}):
            raise ValueError(
                f"y_true takes values in {quoted(listed)} and pos_label is not specified: "
                "either make y_true take value in {0, 1} or {-1, 1} or pass pos_label "
                "explicitly.")
        pos_label = 1
    found = [i for i, label in enumerate(listed) if _same_label(label, pos_label)]
    if not found and len(listed) == 2:
        raise ValueError(f"pos_label={pos_label!r} is not a valid label: it should be one of "
                         f"{quoted(listed)}.")
    return found[0] if found else None


def _same_label(label, pos_label):
    if isinstance(label, str) != isinstance(pos_label, str):
        return False
    return label == pos_label
