"""The accumulator's core: full confusion matrices of batches added up, aligned by class.

Every matrix of the library is a sum over instances, so the full matrices of two batches
(each over the classes it holds) add once their rows and columns are aligned by class
label. :class:`ConfusionSum` keeps that running sum; it is what a Dask block returns and
what :class:`ConfusionAccumulator` holds. The classes a user asked for are selected only
when the sum is read (:meth:`ConfusionSum.confusions`).
"""

import contextlib
import importlib

import numpy as np

from .config import check_result_size
from .confusion import Confusion
from .labels import category_order, check_column_selection, check_label_list, check_labels_occur
from .target_kinds import MULTILABEL, SOFT

# How the refusals name the piece added: a batch (update) or another sum (merge).
_BATCH = {"subject": "the batch has", "previous": "the previous batches",
          "labels": "the batch's class labels", "names": "the batch names",
          "theirs": "the previous batches'"}
_OTHER = {"subject": "the other accumulator has", "previous": "the batches here",
          "labels": "the other accumulator's class labels",
          "names": "the other accumulator names", "theirs": "those of the batches here"}


class ConfusionSum:
    """A running sum of full confusion matrices (one or two per kind), aligned by class."""

    def __init__(self):
        self.classes = None  # class labels of the sums (without "none")
        self.true_classes = set()  # labels seen in y_true (1-D targets), to check labels=
        self.has_none = None
        self.true_kind = None  # how a 2-D y_true was read: "multilabel" or "soft"
        self.single_label = None
        # Whether the classes keep the order they came in (a categorical's categories)
        self.ordered = False
        self.categories = None  # a categorical's categories: the order of its classes
        self.sums = None
        self.namespace = None  # (xp, device) of array-API batches: where results go
        self.n_samples = 0
        self.n_skipped = 0

    @property
    def n_classes(self):
        return None if self.classes is None else len(self.classes)

    def add(self, confusions, single_label):
        """Add a batch's full matrices (the :class:`Confusion` objects of one build); a
        batch refused leaves the sums as they were."""
        first = confusions[0]
        classes = first.display_labels[:-1] if first.has_none else first.display_labels
        with self._unchanged_if_refused():
            matrices, has_none = self._read_alike(first.true_kind, first.has_none,
                                                  [c.matrix for c in confusions],
                                                  "this batch")
            self._align(classes, single_label, has_none, first.namespace,
                        [np.zeros_like(m) for m in matrices], _BATCH)
            self._add(classes, matrices, _BATCH)
            if self.categories is None:
                self.categories = first.categories
        if first.true_classes is not None:
            self.true_classes.update(first.true_classes.tolist())
        self.n_samples += first.n_samples
        self.n_skipped += first.n_skipped
        return self

    def merge(self, other):
        """Add another sum of the same kind (``other`` is left unchanged; so is this sum
        where ``other`` is refused)."""
        if other.sums is None:
            return self
        empty = self.sums is None
        with self._unchanged_if_refused():
            sums, has_none = self._read_alike(other.true_kind, other.has_none, other.sums,
                                              "the other accumulator")
            self._align(other.classes, other.single_label, has_none, other.namespace,
                        [np.zeros_like(s) for s in sums], _OTHER)
            if empty:  # other's classes are in the order its batches met them, not a
                self.ordered = other.ordered  # categorical's: its own rule holds
            self._add(other.classes, sums, _OTHER)
            if self.categories is None:
                self.categories = other.categories
        self.true_classes |= other.true_classes
        self.n_samples += other.n_samples
        self.n_skipped += other.n_skipped
        return self

    @contextlib.contextmanager
    def _unchanged_if_refused(self):
        """Restore the sums' state where the block raises: reading a piece alike
        (:meth:`_read_alike`) may turn the sums into soft labels before the piece is
        refused (another width, 1-D labels beside 2-D targets, mixed label types), which
        dropped the "none" class already counted and read every later batch as soft
        labels. The sums' arrays are replaced, never written, until the last step."""
        state = {**self.__dict__, "classes": None if self.classes is None
                 else list(self.classes)}
        try:
            yield
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(state)
            raise

    def confusions(self, labels=None):
        """The sums as :class:`Confusion` objects: classes sorted as the one-shot functions
        sort them (a categorical's in the order of its categories), ``labels`` selected
        (checked as the one-shot functions check it)."""
        if self.sums is None:
            raise ValueError("no batch yet: call update first.")
        classes, sums = list(self.classes), self.sums
        selection = None
        if labels is not None and self.single_label:
            wanted = check_label_list(labels, np.asarray(classes))
            check_labels_occur("y_true", wanted, list(self.true_classes))
            missing = [label for label in wanted if label not in classes]
            width = len(classes) + len(missing) + self.has_none
            check_result_size("the sum of the batches", (len(sums), width, width),
                              f"{len(sums)} x {width} x {width} classes")
            classes += missing
            sums = [_pad(s, len(missing), self.has_none) for s in sums]
        if self.categories is not None:  # the classes that occur, in the categories' order
            order = category_order(self.categories,
                                   [classes[i] for i in np.argsort(np.asarray(classes),
                                                                   kind="stable")])
            order = np.argsort(np.asarray(classes), kind="stable")[order]
        else:
            order = (np.arange(len(classes)) if self.ordered else
                     np.argsort(np.asarray(classes), kind="stable"))
        classes_sorted = [classes[i] for i in order]
        if labels is not None and self.single_label:
            selection = [classes_sorted.index(label) for label in wanted]
        elif labels is not None:  # columns by position, or by name (DataFrame columns)
            selection = check_column_selection(labels, len(classes_sorted), classes_sorted)
        if self.has_none:
            order = np.append(order, len(classes))
        true_classes = np.asarray(list(self.true_classes)) if self.single_label else None
        return [Confusion.from_parts(s[np.ix_(order, order)], classes_sorted, selection,
                                     self.has_none, self.n_samples, self.n_skipped,
                                     self.namespace, true_classes)
                for s in sums]

    def __getstate__(self):
        # The array-API namespace of the batches is a module: pickle its name.
        state = self.__dict__.copy()
        if self.namespace is not None:
            xp, device = self.namespace
            state["namespace"] = (xp.__name__, device)
        return state

    def __setstate__(self, state):
        if state["namespace"] is not None:
            name, device = state["namespace"]
            xp = importlib.import_module(name)
            try:  # a device that compares by identity does not survive pickling:
                xp.asarray(0.0, device=device)
            except (TypeError, ValueError):
                device = None  # then the library's default device
            state["namespace"] = (xp, device)
        self.__dict__.update(state)

    def _read_alike(self, true_kind, has_none, matrices, where):
        """Pieces of one input read alike: ``(matrices, has_none)`` of a piece whose 2-D
        ``y_true`` was read as ``true_kind``, and the sums so far, both read as soft labels
        when either side holds soft labels (0/1 values are soft labels too; the one-shot
        function reads the whole input so). Only an empty "none" class can be dropped:
        instances counted there (rows of zeros) are refused, as in soft labels."""
        if self.sums is None or self.true_kind is None:
            self.true_kind = true_kind
            return matrices, has_none
        if true_kind == self.true_kind or true_kind is None:
            return matrices, has_none
        # {"multilabel", "soft"}: the "none" class of the indicators' side goes
        if true_kind == MULTILABEL and has_none and not self.has_none:
            matrices, has_none = _without_none(matrices, where), False
        elif self.true_kind == MULTILABEL and self.has_none and not has_none:
            self.sums = _without_none(self.sums, "the previous batches")
            self.has_none = False
        self.true_kind = SOFT
        return matrices, has_none

    def _align(self, classes, single_label, has_none, namespace, zeros, where):
        """Start the sums on the first piece; refuse a piece (``where``: :data:`_BATCH`
        or :data:`_OTHER`) of another kind or width."""
        if self.sums is None:
            self.classes, self.single_label = [], single_label
            try:  # the first batch's classes unsorted: a categorical's categories
                self.ordered = bool(single_label) and list(classes) != sorted(classes)
            except TypeError:
                self.ordered = False
            self.has_none, self.namespace = has_none, namespace
            self.sums = [z[:0, :0] if not has_none else z[-1:, -1:] for z in zeros]
            return
        if single_label != self.single_label:
            if where is _BATCH:
                raise ValueError("this batch mixes 1-D class labels and 2-D targets with the "
                                 "previous ones.")
            holds, here = (("1-D class labels", "2-D targets") if single_label else
                           ("2-D targets", "1-D class labels"))
            raise ValueError(f"the other accumulator holds {holds}; the batches here hold "
                             f"{here}.")
        if not single_label and len(classes) != len(self.classes):
            raise ValueError(f"{where['subject']} {len(classes)} classes (columns); "
                             f"{where['previous']} had {len(self.classes)}.")

    def _add(self, classes, matrices, where):
        """Add full matrices over ``classes`` (plus "none") to the running sums."""
        index = {c: position for position, c in enumerate(self.classes)}
        new = [c for c in classes if c not in index]
        if new and self.classes and not self.single_label:
            # columns of frames: the same classes in any order (their union would be the
            # concatenation's missing values, which the one-shot function refuses)
            raise ValueError(
                f"{where['names']} classes {_shown(new)} of 2-D targets; "
                f"{where['previous']} name {_shown(self.classes)}: 2-D targets of every "
                "batch must have the same columns (in any order).")
        if new:
            if len({isinstance(c, str) for c in self.classes + new}) > 1:
                raise ValueError(f"{where['labels']} mix strings and numbers with "
                                 f"{where['theirs']}.")
            width = len(self.classes) + len(new) + self.has_none
            check_result_size("the sum of the batches", (len(self.sums), width, width),
                              f"{len(self.sums)} x {width} x {width} classes",
                              "Pass batches that share their classes")
            index.update((c, len(self.classes) + offset) for offset, c in enumerate(new))
            self.classes += new
            self.sums = [_pad(s, len(new), self.has_none) for s in self.sums]
        positions = [index[c] for c in classes]
        if self.has_none:
            positions.append(self.sums[0].shape[0] - 1)
        for total, matrix in zip(self.sums, matrices):
            total[np.ix_(positions, positions)] += matrix


def _shown(classes, limit=10):
    """A short list of class labels for a message."""
    shown = [c.item() if isinstance(c, np.generic) else c for c in classes[:limit]]
    return f"{shown}" if len(classes) <= limit else f"{shown} ... ({len(classes)} in all)"


def _pad(matrix, grow, has_none):
    """A copy with ``grow`` zero classes inserted before the "none" class (or at the end)."""
    size = matrix.shape[0]
    at = size - 1 if has_none else size
    padded = np.zeros((size + grow, size + grow))
    keep = list(range(at)) + ([size + grow - 1] if has_none else [])
    padded[np.ix_(keep, keep)] = matrix
    return padded


def _without_none(matrices, where):
    """``matrices`` without their last ("none") row and column, which must be empty."""
    for matrix in matrices:
        if np.any(matrix[-1]) or np.any(matrix[:, -1]):
            raise ValueError(
                f"{where} read y_true as 0/1 multi-label indicators and counted instances "
                "with no class (rows of zeros in y_true or y_pred) in the 'none' class, but "
                "other pieces of the input hold soft labels in y_true, whose rows must have "
                "mass, as the one-shot function requires of the whole input. Pass "
                "empty='skip' to drop such rows, or declare target_kind='multilabel' or "
                "'soft' to have every batch checked against one kind.")
    return [matrix[:-1, :-1] for matrix in matrices]
