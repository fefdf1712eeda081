"""Abstention in a matrix of decisions: ``reject_label`` is the value of ``y_pred`` that
says the classifier abstained. The matrix is built with the reject label as one more
predicted class (Proposition 7's classic matrix of labels, the reject label among them),
then its row is dropped and its column put last: ``n_classes`` rows of true classes and
``n_classes + 1`` columns, the last one "rejected", as the MLCM puts its no-predicted-label
column last. The matrix is not square, so a reader of square matrices refuses it instead
of taking the rejections for a class."""

from dataclasses import dataclass

import numpy as np

from .._core.params import quoted
from .._core.targets import check_target_set
from .._core.weights import check_sample_weight

REJECTED_LABEL = "rejected"


@dataclass(frozen=True)
class Rejections:
    """A matrix of decisions with abstentions: ``matrix`` (n_classes, n_classes + 1),
    float64, unnormalized, its last column the rejections of each true class; ``classes``
    the labels of its rows (and of its first ``n_classes`` columns)."""

    matrix: np.ndarray
    classes: list

    @property
    def rejected(self):
        """The (weighted) number of rejections of each true class."""
        return self.matrix[:, -1]


def _is_string(value):
    return isinstance(value, (str, np.str_))


def check_reject_label(reject_label, y_true, y_pred, labels):
    """Refuse, before any work, what ``reject_label`` cannot apply to: targets that are
    not 1-D labels (probabilities, indicator matrices), ``labels`` naming it or of another
    kind (strings beside a number). Returns the ``labels`` to build the matrix with: None,
    or ``labels`` followed by the reject label."""
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        ndim = getattr(y, "ndim", None)
        if ndim is None:
            ndim = np.ndim(np.asarray(y, dtype=object))
        if ndim != 1:
            hint = (" For probabilities, threshold_confusion_matrices(..., "
                    "target='top_label') gives the matrix of the decisions at a threshold "
                    "of the top probability, with its rejected column." if name == "y_pred"
                    else "")
            raise ValueError(f"reject_label={reject_label!r} applies to 1-D class labels "
                             f"(decisions, the reject label among them); {name} has "
                             f"{ndim} dimension(s).{hint}")
    if labels is None:
        return None
    listed = np.asarray(labels, dtype=object).ravel().tolist()
    if any(same_label(label, reject_label) for label in listed):
        raise ValueError(f"labels {quoted(listed)} name reject_label={reject_label!r}: the "
                         "reject label is no class (its column is added last); pass labels "
                         "without it.")
    if listed and any(_is_string(label) != _is_string(reject_label) for label in listed):
        raise ValueError(f"reject_label={reject_label!r} and labels {quoted(listed)} are of "
                         "different kinds (strings and numbers): pass a reject label of the "
                         "kind of the class labels.")
    return [*listed, reject_label]


def same_label(label, reject_label):
    """Whether class ``label`` is ``reject_label`` (a string is never a number)."""
    return _is_string(label) == _is_string(reject_label) and label == reject_label


def rejections(confusion, reject_label):
    """The :class:`Rejections` of a :class:`~.._core.confusion.Confusion` built with
    ``reject_label`` among the predicted labels (by :func:`check_reject_label`'s labels);
    ``ValueError`` where ``y_true`` holds the reject label, or where it is of another kind
    than the classes."""
    labels = list(confusion.display_labels)
    selection = list(np.asarray(confusion.selection))
    found = [i for i, label in enumerate(labels) if same_label(label, reject_label)]
    if not found:  # no abstention in the data (and labels=None): a column of zeros
        classes = [labels[i] for i in selection]
        if classes and any(_is_string(label) != _is_string(reject_label)
                           for label in classes):
            raise ValueError(f"reject_label={reject_label!r} is not of the kind of the class "
                             f"labels ({quoted([_plain(c) for c in classes])}): pass a reject "
                             "label of their kind (a string beside strings, a number beside "
                             "numbers).")
        matrix = np.asarray(confusion.matrix, dtype=np.float64)[np.ix_(selection, selection)]
        return Rejections(np.column_stack([matrix, np.zeros(len(selection))]),
                          [_plain(c) for c in classes])
    reject = found[0]
    full = np.asarray(confusion.matrix, dtype=np.float64)
    in_true = (any(same_label(label, reject_label)
                   for label in np.asarray(confusion.true_classes).tolist())
               if confusion.true_classes is not None else full[reject].sum() > 0)
    if in_true:
        raise ValueError(f"y_true holds reject_label={reject_label!r}: the reject label is "
                         "the classifier's abstention, in y_pred only; every true label must "
                         "be a class.")
    rows = [i for i in selection if i != reject]
    matrix = full[np.ix_(rows, [*rows, reject])]
    return Rejections(matrix, [_plain(labels[i]) for i in rows])


@dataclass(frozen=True)
class Answered:
    """The instances a classifier answered (``y_pred`` is not the reject label), as 1-D
    NumPy labels with their weights, and what was rejected: ``labels`` the reported
    classes in order, ``rejected`` the (weighted) rejections of each, ``n_rejected`` and
    ``coverage`` (the weighted share of all instances answered), ``total`` the (weighted)
    number of instances."""

    y_true: np.ndarray
    y_pred: np.ndarray
    sample_weight: object
    labels: list
    rejected: np.ndarray
    coverage: float
    total: float


def answered(y_true, y_pred, sample_weight, labels, reject_label):
    """The :class:`Answered` instances of 1-D labels, checked as :func:`rejections`
    checks them (``y_true`` never holds the reject label, which is of the classes' kind);
    ``ValueError`` where every instance was rejected."""
    built = check_reject_label(reject_label, y_true, y_pred, labels)
    targets = check_target_set({"y_true": y_true, "y_pred": y_pred}, labels=built,
                               one_hot=False)
    classes = [_plain(label) for label in targets.classes]
    true_codes, pred_codes = (np.asarray(codes, dtype=np.intp) for codes in targets.codes)
    found = [i for i, label in enumerate(classes) if same_label(label, reject_label)]
    reject = found[0] if found else -1
    if found and (true_codes == reject).any():
        raise ValueError(f"y_true holds reject_label={reject_label!r}: the reject label is "
                         "the classifier's abstention, in y_pred only; every true label must "
                         "be a class.")
    if not found and any(_is_string(label) != _is_string(reject_label) for label in classes):
        raise ValueError(f"reject_label={reject_label!r} is not of the kind of the class "
                         f"labels ({quoted(classes)}): pass a reject label of their kind (a "
                         "string beside strings, a number beside numbers).")
    selection = range(len(classes)) if targets.selection is None else targets.selection
    reported = [int(i) for i in selection if i != reject]
    weights = check_sample_weight(sample_weight, true_codes.shape[0])
    units = np.ones(true_codes.shape[0]) if weights is None else weights
    kept = pred_codes != reject
    if not kept.any():
        raise ValueError(f"Every instance of y_pred is reject_label={reject_label!r}: no "
                         "answer to score.")
    rejected = np.bincount(true_codes[~kept], units[~kept], minlength=len(classes))
    total = float(units.sum())
    values = np.asarray(targets.classes)
    return Answered(values[true_codes[kept]], values[pred_codes[kept]],
                    None if weights is None else weights[kept],
                    [classes[i] for i in reported], rejected[reported],
                    float(units[kept].sum()) / total if total > 0 else float("nan"), total)


def _plain(label):
    return label.item() if isinstance(label, np.generic) else label
