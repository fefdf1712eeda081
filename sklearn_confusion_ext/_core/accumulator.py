"""Streaming accumulation of confusion matrices, batch by batch and worker by worker.

Every matrix of the library is a sum over instances, so a batch's full matrix (over the
classes it holds) can be added to a running sum aligned by class label; the classes the
user asked for are selected, and the matrix normalized, only in :meth:`result`.
"""

import importlib

import numpy as np

from .._mlcm import mlcm_confusion, tensor_confusions
from .._transport import subpixel_confusions, transport_confusion
from .chunks import check_parallelism
from .confusion import NORMALIZE_OPTIONS, Confusion, normalize_confusion
from .validation import (
    check_column_selection,
    check_label_list,
    check_labels_occur,
    check_option,
)

KINDS = ("classic", "transport", "subpixel", "mlcm", "mlcm_krstinic", "mlct")
# Each kind's own parameters, with the defaults of its one-shot function.
_PARAMETERS = {
    "classic": {},
    "transport": {"weighting": "uniform", "empty": "null_class"},
    "subpixel": {"weighting": "uniform", "empty": "null_class"},
    "mlcm": {},
    "mlcm_krstinic": {},
    "mlct": {"unique": True},
}


class ConfusionAccumulator:
    """Accumulate a confusion matrix over batches, then read it once.

    ``update`` adds a batch, ``merge`` (or ``+``) combines accumulators built on other
    workers, and ``result`` returns what the one-shot function returns on the concatenated
    data (up to floating-point summation order).

    Parameters
    ----------
    kind : {"classic", "transport", "subpixel", "mlcm", "mlcm_krstinic", "mlct"}, \
default="transport"
        The matrix: :func:`sklearn.metrics.confusion_matrix` (1-D labels),
        :func:`transport_confusion_matrix`, :func:`subpixel_confusion_matrix`, :func:`mlcm`
        (either method) or :func:`multilabel_confusion_tensor`.
    n_classes : int, default=None
        Width of 2-D targets; by default that of the first batch.
    labels : array-like, default=None
        Classes to report, as in the one-shot function.
    n_jobs, chunk_size : int, default=None
        Threads and rows per chunk for each batch, as in
        :func:`transport_confusion_matrix`.
    **params
        The function's own parameters: ``weighting`` and ``empty`` (transport, subpixel),
        ``unique`` (mlct).

    Attributes
    ----------
    n_samples_ : int
        Instances added so far.
    n_skipped_ : int
        Instances left out because of ``empty="skip"``.

    Examples
    --------
    >>> from sklearn_confusion_ext import ConfusionAccumulator, transport_confusion_matrix
    >>> accumulator = ConfusionAccumulator("transport", weighting="true")
    >>> accumulator.update([[1, 1, 0]], [[1, 0, 1]])
    >>> accumulator.update([[0, 0, 1], [1, 0, 0]], [[0, 0, 1], [1, 0, 0]])
    >>> accumulator.result()[:3, :3]
    array([[2., 0., 0.],
           [0., 0., 1.],
           [0., 0., 1.]])
    """

    def __init__(self, kind="transport", *, n_classes=None, labels=None, n_jobs=None,
                 chunk_size=None, **params):
        check_option("kind", kind, KINDS)
        check_parallelism(n_jobs, chunk_size)
        unknown = set(params) - set(_PARAMETERS[kind])
        if unknown:
            raise ValueError(f"{sorted(unknown)} are not parameters of kind={kind!r}; "
                             f"it takes {list(_PARAMETERS[kind]) or 'none'}.")
        if n_classes is not None and (isinstance(n_classes, bool) or n_classes < 1
                                      or not isinstance(n_classes, (int, np.integer))):
            raise ValueError(f"n_classes must be a positive integer; got {n_classes!r}.")
        self.kind, self.n_classes, self.labels = kind, n_classes, labels
        self.n_jobs, self.chunk_size = n_jobs, chunk_size
        self.params = {**_PARAMETERS[kind], **params}
        self.reset()

    def reset(self):
        """Forget every batch."""
        self._classes = None  # class labels of the running sums (without "none")
        self._true_classes = set()  # labels seen in y_true (1-D targets), to check labels=
        self._has_none = None
        self._single_label = None
        self._sums = None
        self._namespace = None  # (xp, device) of array-API batches: where result() goes
        self.n_samples_ = 0
        self.n_skipped_ = 0

    def update(self, y_true, y_pred, sample_weight=None):
        """Add a batch (any input the one-shot function accepts, Dask collections included)."""
        self._update(y_true, y_pred, sample_weight, warn=True)

    def _update(self, y_true, y_pred, sample_weight, warn):
        confusions = self._build(y_true, y_pred, sample_weight, warn)
        first = confusions[0]
        classes = first.display_labels[:-1] if first.has_none else first.display_labels
        if self._sums is None:
            self._single_label = _is_one_dimensional(y_true)
            if not self._single_label:
                width = len(classes)
                if self.n_classes is not None and width != self.n_classes:
                    raise ValueError(f"the batch has {width} classes (columns) but "
                                     f"n_classes={self.n_classes}.")
                self.n_classes = width
            self._classes, self._has_none = list(classes), first.has_none
            self._namespace = first.namespace
            self._sums = [np.zeros_like(c.matrix) for c in confusions]
        elif _is_one_dimensional(y_true) != self._single_label:
            raise ValueError("this batch mixes 1-D class labels and 2-D targets with the "
                             "previous ones.")
        elif not self._single_label and len(classes) != self.n_classes:
            raise ValueError(f"the batch has {len(classes)} classes (columns); the previous "
                             f"batches had {self.n_classes}.")
        self._add(classes, [c.matrix for c in confusions])
        if first.true_classes is not None:
            self._true_classes.update(first.true_classes.tolist())
        self.n_samples_ += first.n_samples
        self.n_skipped_ += first.n_skipped

    def merge(self, other):
        """Add the batches of another accumulator of the same kind and parameters."""
        if not isinstance(other, ConfusionAccumulator) or other.kind != self.kind or \
                _comparable(other.params) != _comparable(self.params):
            raise ValueError("only accumulators of the same kind and parameters merge.")
        if other._sums is None:
            return self
        if self._sums is None:
            self._classes, self._has_none = list(other._classes), other._has_none
            self._single_label, self.n_classes = other._single_label, other.n_classes
            self._namespace = other._namespace
            self._sums = [np.zeros_like(s) for s in other._sums]
        elif other._single_label != self._single_label or (
                not self._single_label and other.n_classes != self.n_classes):
            raise ValueError("the accumulators hold targets of different kinds or widths.")
        self._add(other._classes, other._sums)
        self._true_classes |= other._true_classes
        self.n_samples_ += other.n_samples_
        self.n_skipped_ += other.n_skipped_
        return self

    def __add__(self, other):
        import copy

        return copy.deepcopy(self).merge(other)

    def __getstate__(self):
        # The array-API namespace of the batches is a module: pickle its name.
        state = self.__dict__.copy()
        if self._namespace is not None:
            xp, device = self._namespace
            state["_namespace"] = (xp.__name__, device)
        return state

    def __setstate__(self, state):
        if state["_namespace"] is not None:
            name, device = state["_namespace"]
            xp = importlib.import_module(name)
            try:  # a device that compares by identity does not survive pickling:
                xp.asarray(0.0, device=device)
            except (TypeError, ValueError):
                device = None  # then the library's default device
            state["_namespace"] = (xp, device)
        self.__dict__.update(state)

    def result(self, normalize=None):
        """The matrix of every batch so far, as the one-shot function returns it.

        Parameters
        ----------
        normalize : {None, "true", "pred", "all"} or bool, default=None
            As the one-shot function's ``normalize`` (a bool for ``kind="mlct"``; the
            sub-pixel bounds take none).

        Returns
        -------
        ndarray, or ``(lower, upper)`` for ``kind="subpixel"``
        """
        if self.kind == "subpixel" and normalize is not None:
            raise ValueError("the sub-pixel bounds take no normalize.")
        if self.kind == "mlct" and normalize not in (None, False, True):
            raise ValueError(f"normalize must be True or False for kind='mlct'; got "
                             f"{normalize!r}.")
        if self.kind not in ("subpixel", "mlct"):
            check_option("normalize", normalize, NORMALIZE_OPTIONS)
        confusions = self.confusions()
        like_input = confusions[0].like_input  # the batches' array library, if not NumPy
        matrices = [confusion.selected() for confusion in confusions]
        if self.kind == "subpixel":
            return tuple(map(like_input, matrices))
        if self.kind == "mlct":
            recall, precision = matrices
            if normalize:
                recall, precision = (normalize_confusion(recall, "true"),
                                     normalize_confusion(precision, "pred"))
            return like_input(np.stack([recall, precision]))
        return like_input(normalize_confusion(matrices[0], normalize))

    def confusions(self):
        """The running sums as :class:`Confusion` objects (full matrices, ``labels`` selection).

        Classes are sorted, as the one-shot functions sort them; one object per matrix.
        """
        if self._sums is None:
            raise ValueError("no batch yet: call update first.")
        order = np.argsort(np.asarray(self._classes), kind="stable")
        classes = [self._classes[i] for i in order]
        selection = None
        if self.labels is not None:
            if self._single_label:
                wanted = check_label_list(self.labels, np.asarray(classes))
                check_labels_occur("y_true", wanted, list(self._true_classes))
                missing = [label for label in wanted if label not in classes]
                self._classes += missing
                self._sums = [_pad(s, len(missing), self._has_none) for s in self._sums]
                order = np.argsort(np.asarray(self._classes), kind="stable")
                classes = [self._classes[i] for i in order]
                selection = [classes.index(label) for label in wanted]
            else:
                selection = check_column_selection(self.labels, len(classes))
        if self._has_none:
            order = np.append(order, len(self._classes))
        true_classes = np.asarray(list(self._true_classes)) if self._single_label else None
        return [Confusion.from_parts(s[np.ix_(order, order)], classes, selection,
                                     self._has_none, self.n_samples_, self.n_skipped_,
                                     self._namespace, true_classes)
                for s in self._sums]

    def _build(self, y_true, y_pred, sample_weight, warn):
        """The full matrices of one batch, over the classes it holds."""
        common = {"labels": None, "sample_weight": sample_weight, "n_jobs": self.n_jobs,
                  "chunk_size": self.chunk_size, **self.params}
        if self.kind == "classic":
            if not _is_one_dimensional(y_true):
                raise ValueError("kind='classic' takes 1-D class labels; use "
                                 "kind='transport' for 2-D targets.")
            return [transport_confusion(y_true, y_pred, weighting="uniform",
                                        empty="null_class", **common)]
        if self.kind == "transport":
            return [transport_confusion(y_true, y_pred, warn=warn, **common)]
        if self.kind == "subpixel":
            return list(subpixel_confusions(y_true, y_pred, warn=warn, **common))
        if self.kind == "mlct":
            return list(tensor_confusions(y_true, y_pred, **common))
        method = "krstinic" if self.kind == "mlcm_krstinic" else "heydarian"
        return [mlcm_confusion(y_true, y_pred, method=method, **common)]

    def _add(self, classes, matrices):
        """Add full matrices over ``classes`` (plus "none") to the running sums."""
        new = [c for c in classes if c not in self._classes]
        if new:
            kinds = {isinstance(c, str) for c in self._classes + new}
            if len(kinds) > 1:
                raise ValueError("the batch's class labels mix strings and numbers with the "
                                 "previous batches'.")
            self._classes += new
            grow = len(new)
            self._sums = [_pad(s, grow, self._has_none) for s in self._sums]
        positions = [self._classes.index(c) for c in classes]
        if self._has_none:
            positions.append(self._sums[0].shape[0] - 1)
        for total, matrix in zip(self._sums, matrices):
            total[np.ix_(positions, positions)] += matrix


def _comparable(params):
    """Parameters with a callable named by its qualified name: copies of the same function
    (one per worker, after pickling) are the same parameter."""
    return {name: (value.__module__, value.__qualname__) if callable(value) else value
            for name, value in params.items()}


def _pad(matrix, grow, has_none):
    """Insert ``grow`` zero classes before the "none" class (or at the end)."""
    size = matrix.shape[0]
    at = size - 1 if has_none else size
    padded = np.zeros((size + grow, size + grow))
    keep = list(range(at)) + ([size + grow - 1] if has_none else [])
    padded[np.ix_(keep, keep)] = matrix
    return padded


def _is_one_dimensional(y):
    shape = np.shape(y)
    return len(shape) == 1 or (len(shape) == 2 and shape[1] == 1)
