"""Streaming accumulation of confusion matrices, batch by batch and worker by worker.

Every matrix of the library is a sum over instances, so a batch's full matrix (over the
classes it holds) can be added to a running sum aligned by class label
(:class:`~.sums.ConfusionSum`); the classes the user asked for are selected, and the
matrix finished as the one-shot function finishes it, only in :meth:`result`.
"""

import copy
import functools

from .dispatch import confusions
from .kinds import KINDS
from .params import PARAMETERS, check_params, check_value, validate_params
from .sums import ConfusionSum
from .validation import check_label_list


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
        Classes to report, as in the one-shot function. Batches of 1-D labels beside 2-D
        scores: the class of each column, in order, for every batch (one without some
        class then needs no ``labels=`` of its own).
    n_jobs, chunk_size : int, default=None
        Threads and rows per chunk for each batch, as in
        :func:`transport_confusion_matrix`.
    **params
        The function's own parameters: ``weighting`` and ``empty`` (transport, subpixel),
        ``unique`` (mlct). They are checked here, against the one-shot function's
        constraints.

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
    ConfusionAccumulator('transport', weighting='true')
    >>> accumulator.update([[0, 0, 1], [1, 0, 0]], [[0, 0, 1], [1, 0, 0]]).n_samples_
    3
    >>> accumulator.result()[:3, :3]
    array([[2., 0., 0.],
           [0., 0., 1.],
           [0., 0., 1.]])
    """

    @validate_params("ConfusionAccumulator")
    def __init__(self, kind="transport", *, n_classes=None, labels=None, n_jobs=None,
                 chunk_size=None, **params):
        declaration = PARAMETERS[KINDS[kind].function]
        check_params(f"ConfusionAccumulator(kind={kind!r})", params,
                     {name: declaration[name] for name in KINDS[kind].parameters})
        if labels is not None:
            check_label_list(labels)
        self.kind, self.n_classes, self.labels = kind, n_classes, labels
        self.n_jobs, self.chunk_size = n_jobs, chunk_size
        self.params = {**KINDS[kind].parameters, **params}
        self.reset()

    def __repr__(self):
        """The constructor call, with the arguments that differ from the defaults."""
        given = {"n_classes": self.n_classes, "labels": self.labels, "n_jobs": self.n_jobs,
                 "chunk_size": self.chunk_size}
        given = {k: v for k, v in given.items() if v is not None}
        given.update((k, v) for k, v in self.params.items()
                     if KINDS[self.kind].parameters.get(k) != v)
        shown = "".join(f", {k}={list(v) if k == 'labels' else v!r}" for k, v in given.items())
        return f"ConfusionAccumulator({self.kind!r}{shown})"

    def reset(self):
        """Forget every batch.

        Returns
        -------
        None
        """
        self._sum = ConfusionSum()

    @property
    def n_samples_(self):
        return self._sum.n_samples

    @property
    def n_skipped_(self):
        return self._sum.n_skipped

    @validate_params("ConfusionAccumulator.update")
    def update(self, y_true, y_pred, sample_weight=None):
        """Add a batch (any input the one-shot function accepts, Dask collections included).

        Parameters
        ----------
        y_true, y_pred : array-like or sparse matrix
            Targets, as the one-shot function takes them.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.

        Returns
        -------
        self : ConfusionAccumulator
            The accumulator, as scikit-learn's ``partial_fit`` returns the estimator.
        """
        batch = confusions(KINDS[self.kind], y_true, y_pred, sample_weight=sample_weight,
                           n_jobs=self.n_jobs, chunk_size=self.chunk_size, params=self.params,
                           column_labels=self.labels)
        first = batch[0]
        single_label = first.true_classes is not None
        width = len(first.display_labels) - first.has_none
        if not single_label and self.n_classes is not None and width != self.n_classes:
            raise ValueError(f"the batch has {width} classes (columns) but "
                             f"n_classes={self.n_classes}.")
        self._sum.add(batch, single_label)
        return self

    @validate_params("ConfusionAccumulator.merge")
    def merge(self, other):
        """Add the batches of another accumulator of the same kind and parameters.

        Parameters
        ----------
        other : ConfusionAccumulator

        Returns
        -------
        self
        """
        if other.kind != self.kind or _comparable(other.params) != _comparable(self.params):
            raise ValueError("only accumulators of the same kind and parameters merge.")
        self._sum.merge(other._sum)
        return self

    def __add__(self, other):
        return copy.deepcopy(self).merge(other)

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
        kind = KINDS[self.kind]
        declared = PARAMETERS[kind.function].get("normalize", [])
        check_value(f"ConfusionAccumulator(kind={self.kind!r}).result", "normalize", normalize,
                    [None, *(constraint for constraint in declared if constraint is not None)])
        return kind.finish(self.confusions(), normalize)

    def confusions(self):
        """The running sums as :class:`Confusion` objects (full matrices, ``labels`` selection).

        Classes are sorted, as the one-shot functions sort them; one object per matrix.
        Reading them changes nothing.

        Returns
        -------
        list of Confusion
        """
        return self._sum.confusions(self.labels)


def _comparable(params):
    """Parameters as compared by :meth:`ConfusionAccumulator.merge`."""
    return {name: _comparable_value(value) for name, value in params.items()}


def _comparable_value(value):
    """A module-level function is named by its qualified name, so that its copies (one per
    worker, after pickling) are the same parameter; a ``functools.partial`` by its function
    and arguments; any other callable (a lambda, a local function, an object) by identity,
    so that two different lambdas never merge."""
    if isinstance(value, functools.partial):
        return ("partial", _comparable_value(value.func), value.args,
                tuple(sorted(value.keywords.items())))
    qualname = getattr(value, "__qualname__", None)
    if callable(value) and isinstance(qualname, str) and "<" not in qualname:
        return ("function", getattr(value, "__module__", None), qualname)
    return ("object", id(value)) if callable(value) else value
