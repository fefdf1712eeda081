"""Streaming accumulation of confusion matrices, batch by batch and worker by worker.

Every matrix of the library is a sum over instances, so a batch's full matrix (over the
classes it holds) can be added to a running sum aligned by class label
(:class:`~.sums.ConfusionSum`); the classes the user asked for are selected, and the
matrix finished as the one-shot function finishes it, only in :meth:`result`.
"""

import copy
import hashlib
import pickle
import uuid
import weakref

import numpy as np

from .config import check_result_size
from .dispatch import confusions
from .kinds import KINDS
from .labels import check_label_list
from .params import (
    ARRAY,
    PARALLEL,
    POSITIVE_INT,
    TARGETS,
    HasMethods,
    Options,
    check_params,
    check_value,
    quoted,
    validate_params,
)
from .sums import ConfusionSum
from .target_kinds import SOFT


class ConfusionAccumulator:
    """Accumulate a confusion matrix over batches, then read it once.

    ``update(y_true, y_pred)`` adds a batch, ``merge`` (or ``+``) combines accumulators
    built on other workers, and ``result`` returns what the one-shot function returns on
    the concatenated data (up to floating-point summation order). ``update`` takes
    scikit-learn's order, ``y_true`` first: the reverse of torchmetrics'
    ``update(preds, target)``; :mod:`sklearn_confusion_ext.torch` has the same matrices
    as torchmetrics ``Metric`` objects, in torchmetrics' order.

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
        scores: their columns are the classes in sorted order, ``sorted(labels)`` where
        ``labels`` lists one class per column (then a batch without some class needs no
        ``labels=`` of its own), else, batch by batch, the sorted union of the batch's
        classes and ``labels``; ``labels`` selects and orders the result.
    target_kind : {None, "multilabel", "soft"}, default=None
        How a 2-D ``y_true`` is read, decided for the whole stream, never batch by batch:
        ``"multilabel"``, 0/1 indicators (an instance without a class goes to the "none"
        class); ``"soft"``, soft labels or scores (every row has mass). A batch that
        cannot be of that kind raises ``ValueError``. By default the batches decide as
        the one-shot function decides on their concatenation: indicators while every
        ``y_true`` so far holds only 0 and 1, soft labels from the first batch (or merged
        accumulator) that holds other values, all batches then read as soft labels (a
        batch of soft labels whose values happen to be 0 and 1 included); instances
        already counted in "none" are then refused, as soft labels refuse rows of zeros.
    n_jobs, chunk_size : int, default=None
        Threads and rows per chunk for each batch, as in
        :func:`transport_confusion_matrix`.
    **params
        The function's own parameters: ``weighting`` and ``empty`` (transport, subpixel),
        ``unique`` (mlct). They are checked here, against the one-shot function's
        constraints.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The classes of the result's rows and columns, in order (without MLCM's trailing
        "none" class); set by the first batch, as scikit-learn's ``classes_`` by ``fit``.
    n_samples_seen_ : int
        Instances added so far (scikit-learn's name, as ``StandardScaler.partial_fit``'s).
    n_samples_ : int
        The same number (the earlier name).
    n_skipped_ : int
        Instances left out because of ``empty="skip"``.

    Raises
    ------
    ValueError
        If the settings admit no batch, refused here rather than at the first
        :meth:`update`: ``kind="classic"`` (1-D class labels) with ``n_classes`` or
        ``target_kind``, or a multi-label kind (``"mlcm"``, ``"mlcm_krstinic"``,
        ``"mlct"``: 0/1 indicators) with ``target_kind="soft"``. If the result cannot fit
        the memory budget (``max_matrix_mib``, see
        :func:`set_config`): the matrices have at least as many classes as ``labels``
        lists (``n_classes`` plus "none" for 2-D targets); checked here, before any batch,
        and again by :meth:`result` before it adds the listed classes no batch held.

    See Also
    --------
    transport_confusion_matrix, subpixel_confusion_matrix : The one-shot transport
        matrix and its bounds (``kind="transport"``, ``"subpixel"``).
    mlcm, multilabel_confusion_tensor : The one-shot multi-label matrices (``kind="mlcm"``,
        ``"mlcm_krstinic"``, ``"mlct"``).
    confusion_frame : The result as a DataFrame labelled by the classes seen.

    Examples
    --------
    >>> from sklearn_confusion_ext import ConfusionAccumulator, transport_confusion_matrix
    >>> accumulator = ConfusionAccumulator("transport", weighting="true")
    >>> accumulator.update([[1, 1, 0]], [[1, 0, 1]])
    ConfusionAccumulator('transport', weighting='true'): 1 sample seen, classes_=[0, 1, 2]
    >>> accumulator.update([[0, 0, 1], [1, 0, 0]], [[0, 0, 1], [1, 0, 0]]).n_samples_seen_
    3
    >>> accumulator.result()[:3, :3]
    array([[2., 0., 0.],
           [0., 0., 1.],
           [0., 0., 1.]])
    """

    @validate_params({
        "kind": [Options("classic", "transport", "subpixel", "mlcm", "mlcm_krstinic",
                         "mlct")],
        "n_classes": [None, POSITIVE_INT], "labels": [None, ARRAY],
        "target_kind": [None, Options("multilabel", "soft")], **PARALLEL})
    def __init__(self, kind="transport", *, n_classes=None, labels=None, target_kind=None,
                 n_jobs=None, chunk_size=None, **params):
        declaration = KINDS[kind].constraints
        check_params(f"ConfusionAccumulator(kind={kind!r})", params,
                     {name: declaration[name] for name in KINDS[kind].parameters})
        _check_target_kind(kind, n_classes, target_kind)
        if labels is not None:
            check_label_list(labels)
        _check_size(kind, n_classes, labels)
        self.kind, self.n_classes, self.labels = kind, n_classes, labels
        self.target_kind = target_kind
        self.n_jobs, self.chunk_size = n_jobs, chunk_size
        self.params = {**KINDS[kind].parameters, **params}
        # What "the same parameters" means for merge: recorded here, carried by pickling.
        self._fingerprint = {name: _fingerprint(value) for name, value in self.params.items()}
        self.reset()

    def __repr__(self):
        """The constructor call, with the arguments that differ from the defaults, then
        what it has seen: the number of samples and the classes."""
        return f"{self._constructor()}: {self._seen()}"

    def _seen(self):
        n = self.n_samples_seen_
        if self._sum.classes is None:
            return "no sample seen"
        names = [quoted(c, 30) for c in np.asarray(self.classes_, dtype=object).tolist()]
        if len(names) > 10:
            names = [*names[:5], "...", *names[-4:]]
        text = "[" + ", ".join(names) + "]"
        size = f" ({len(self.classes_)} classes)" if len(self.classes_) > 10 else ""
        return f"{n:g} sample{'' if n == 1 else 's'} seen, classes_={text}{size}"

    def _repr_html_(self):
        import html

        return (f"<div><strong>{html.escape(self._constructor())}</strong><br>"
                f"{html.escape(self._seen())}</div>")

    def _constructor(self):
        """The constructor call, with the arguments that differ from the defaults."""
        given = {"n_classes": self.n_classes, "labels": self.labels,
                 "target_kind": self.target_kind, "n_jobs": self.n_jobs,
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
    def n_samples_seen_(self):
        return self._sum.n_samples

    @property
    def classes_(self):
        if self._sum.classes is None:
            raise AttributeError("'ConfusionAccumulator' has no classes_ before its first "
                                 "batch; call update first.")
        (confusion, *_) = self.confusions()
        last = len(confusion.display_labels) - 1
        return np.asarray([confusion.display_labels[i] for i in confusion.selection
                           if not (confusion.has_none and i == last)])

    @property
    def n_skipped_(self):
        return self._sum.n_skipped

    @validate_params({**TARGETS, "sample_weight": [None, ARRAY]})
    def update(self, y_true, y_pred, sample_weight=None):
        """Add a batch (any input the one-shot function accepts, Dask collections included).

        The true targets come first, in scikit-learn's order ``(y_true, y_pred)``: the
        reverse of torchmetrics' ``update(preds, target)``, where swapped arguments give
        the transposed matrix without an error. For torchmetrics' order (a Lightning
        module, DDP), use the ``Metric`` objects of :mod:`sklearn_confusion_ext.torch`
        (:class:`~sklearn_confusion_ext.torch.TransportConfusionMatrix`).

        Parameters
        ----------
        y_true, y_pred : array-like or sparse matrix
            Targets, as the one-shot function takes them: ``y_true`` first.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.

        Returns
        -------
        self : ConfusionAccumulator
            The accumulator, as scikit-learn's ``partial_fit`` returns the estimator.

        Raises
        ------
        ValueError
            If the batch is refused as the one-shot function refuses it, or cannot be
            summed with the previous batches (1-D labels beside 2-D targets, another
            number of columns, frame columns naming other classes than theirs, strings
            beside numbers); the accumulator is then unchanged.
        """
        if self.target_kind is not None:
            true_kind = self.target_kind
            decided_by = f"target_kind={self.target_kind!r} declares"
        else:  # once soft, every batch reads as soft labels
            true_kind = SOFT if self._sum.true_kind == SOFT else None
            decided_by = "the earlier batches hold soft labels: every batch reads as"
        batch = confusions(KINDS[self.kind], y_true, y_pred, sample_weight=sample_weight,
                           n_jobs=self.n_jobs, chunk_size=self.chunk_size, params=self.params,
                           column_labels=self.labels, true_kind=true_kind,
                           decided_by=decided_by)
        first = batch[0]
        if self.target_kind is not None and first.true_kind is None:
            raise ValueError(f"y_true holds 1-D class labels; target_kind="
                             f"{self.target_kind!r} declares 2-D y_true.")
        single_label = first.true_classes is not None
        width = len(first.display_labels) - first.has_none
        if not single_label and self.n_classes is not None and width != self.n_classes:
            raise ValueError(f"the batch has {width} classes (columns) but "
                             f"n_classes={self.n_classes}.")
        self._sum.add(batch, single_label)
        return self

    @validate_params({"other": [HasMethods("merge", "confusions",
                                           description="a ConfusionAccumulator")]})
    def merge(self, other):
        """Add the batches of another accumulator of the same kind and parameters.

        Merging is commutative and associative, so a reduction over workers gives the same
        total whatever its tree. Both accumulators must have the same ``kind``, ``labels``,
        ``n_classes`` and parameters; a parameter's value is fingerprinted when the
        accumulator is built (a value that pickles by its pickle: module-level functions
        by name, callable objects, bound methods and ``functools.partial`` by what they
        hold; a lambda or a local function by its identity) and the fingerprint travels
        with the accumulator, so a pickled or cloudpickled copy always merges with the
        original and two different weightings never do.

        Parameters
        ----------
        other : ConfusionAccumulator

        Returns
        -------
        self

        Raises
        ------
        ValueError
            If the two accumulators differ in kind, labels, n_classes or a parameter
            (the message names which), or their batches cannot be summed (1-D labels
            beside 2-D targets, another number of columns, columns naming other classes,
            strings beside numbers); ``self`` is then unchanged.
        """
        mine, theirs = self._settings(), other._settings()
        different = [name for name in {**mine, **theirs}
                     if name not in mine or name not in theirs or mine[name] != theirs[name]]
        if different:
            shown = "; ".join(_difference(name, self, other) for name in different)
            raise ValueError(
                "only accumulators of the same kind and parameters merge (the same labels, "
                "n_classes and weighting: a sum over other classes or weights would depend "
                f"on the order of the merges); they differ in {shown}.")
        self._sum.merge(other._sum)
        return self

    def _settings(self):
        """What two accumulators must share to merge."""
        labels = None if self.labels is None else np.asarray(self.labels).tolist()
        return {"kind": self.kind, "labels": labels, "n_classes": self.n_classes,
                "target_kind": self.target_kind,
                **{f"{name}=": value for name, value in self._fingerprint.items()}}

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
        ndarray, or ``(low, high)`` for ``kind="subpixel"``
        """
        kind = KINDS[self.kind]
        declared = kind.constraints.get("normalize", [])
        check_value(f"ConfusionAccumulator(kind={self.kind!r}).result", "normalize", normalize,
                    [None, *(constraint for constraint in declared if constraint is not None)])
        return kind.finish(self.confusions(), normalize)

    def confusions(self):
        """The running sums as ``Confusion`` objects (full matrices, ``labels`` selection).

        Classes are sorted, as the one-shot functions sort them; one object per matrix.
        Reading them changes nothing.

        Returns
        -------
        list of Confusion
        """
        return self._sum.confusions(self.labels)


# One token per callable that pickle cannot write, for as long as the callable lives.
_TOKENS = weakref.WeakKeyDictionary()


def _fingerprint(value):
    """The identity of a parameter's value, for :meth:`ConfusionAccumulator.merge`.

    A value that pickles is its pickle's digest: a module-level function is pickled by
    name, so every worker's copy is the same; a bound method, a callable object or a
    ``functools.partial`` by what they hold, so ``W(1).weight`` and ``W(100).weight``
    differ and arrays among their arguments compare by value. A value that pickle cannot
    write (a lambda, a local function) gets a random token, the same for the same object;
    the accumulator keeps the fingerprint from its construction, so its pickled (or
    cloudpickled) copies merge with it and two separately written lambdas never do.
    """
    try:
        return "pickle:" + hashlib.sha256(pickle.dumps(value, protocol=4)).hexdigest()
    except Exception:  # noqa: BLE001 (pickle raises many kinds of errors)
        pass
    try:
        token = _TOKENS.get(value)
        if token is None:
            token = _TOKENS[value] = "token:" + uuid.uuid4().hex
        return token
    except TypeError:  # not weakly referenceable: this object only
        return "token:" + uuid.uuid4().hex



def _difference(name, mine, theirs):
    """How two accumulators differ in a setting of :meth:`ConfusionAccumulator._settings`
    (a parameter's name ends with "=": its values, never its fingerprint)."""
    if not name.endswith("="):
        return (f"{name} {quoted(mine._settings()[name])} here, "
                f"{quoted(theirs._settings()[name])} in other")
    name = name[:-1]
    values = [f"{name}={quoted(accumulator.params[name])} {where}"
              if name in accumulator.params
              else f"kind={accumulator.kind!r} takes no {name} {where}"
              for accumulator, where in ((mine, "here"), (theirs, "in other"))]
    return ", ".join(values)


def _check_target_kind(kind, n_classes, target_kind):
    """Refuse, when the accumulator is built, a reading of 2-D targets that ``kind`` does not
    take (its :class:`~.kinds.MatrixKind`'s ``target_kinds``): every batch would be refused."""
    readings = KINDS[kind].target_kinds
    if not readings and (n_classes is not None or target_kind is not None):
        given = (f"n_classes={n_classes!r} (the width of 2-D targets)" if target_kind is None
                 else f"target_kind={target_kind!r} (a reading of 2-D y_true)")
        raise ValueError(f"kind={kind!r} takes 1-D class labels, and {given} declares 2-D "
                         "targets; leave it None, or use kind='transport' for 2-D targets.")
    if target_kind is not None and target_kind not in readings:
        takers = [name for name, other in KINDS.items() if target_kind in other.target_kinds]
        raise ValueError(f"kind={kind!r} takes 0/1 indicators, and target_kind="
                         f"{target_kind!r} declares soft labels, which only "
                         f"{' and '.join(f'kind={name!r}' for name in takers)} read; pass "
                         "target_kind='multilabel' or None, or another kind.")


def _check_size(kind, n_classes, labels):
    """The budget's ``ValueError`` before an accumulator whose result cannot fit is built:
    its matrices have at least as many classes as ``labels`` lists (and ``n_classes``
    columns plus a "none" class for 2-D targets)."""
    n_matrices = KINDS[kind].n_matrices
    size = max(0 if labels is None else len(labels),
               0 if n_classes is None else n_classes + 1)
    if size:
        matrices = f"{n_matrices} matri{'ces' if n_matrices > 1 else 'x'}"
        check_result_size(f"ConfusionAccumulator(kind={kind!r})", (n_matrices, size, size),
                          f"{matrices} of at least {size} x {size} classes")
