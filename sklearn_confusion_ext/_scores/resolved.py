"""The score a statistic is about, resolved once, and the data it is read from.

A score of the library (a name, a matrix function, or a metric callable of another library)
is resolved to what the resampling needs (:class:`_Score`); :class:`_Data` holds the targets,
checked once, and evaluates the score on the data, on resampled instance weights or on
resampled cells. The intervals (:mod:`~sklearn_confusion_ext._statistics.intervals`) and the paired
comparisons (:mod:`~sklearn_confusion_ext._statistics.paired`) read their scores here.
"""

import functools
import inspect
import warnings
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from sklearn import metrics as sklearn_metrics
from sklearn.utils import _safe_indexing

from .._core.array_api import on_the_host
from .._core.confusion import Confusion
from .._core.dispatch import confusions
from .._core.params import check_keywords, quoted
from .._core.resampling import (
    batches_terms,
    cell_draws,
    cell_matrices,
    full_blocks,
    group_weights,
    grouped_rows,
    instance_weights,
    label_cells,
    leave_out_weights,
    matrix_entries,
    quiet_progress,
    resampled_matrices,
)
from .._core.weights import check_sample_weight
from .._matrices.mlcm import _MLCM_METHODS
from .._matrices.transport import TRANSPORT
from .from_confusion import (
    binary_matrix,
    cohen_kappa_from_confusion,
    confusion_entropy_from_confusion,
    confusion_for_labels,
    correlation_distance_from_confusion,
    diagonal_fraction,
    fbeta_terms,
    generalized_means_from_confusion,
    matthews_corrcoef_from_confusion,
    precision_recall_fscore_from_confusion,
    reported_classes,
    symmetric_balanced_accuracy_from_confusion,
)
from .from_predictions import (
    confusion_entropy,
    correlation_distance,
    generalized_means_score,
    symmetric_balanced_accuracy_score,
    transport_accuracy_score,
)
from .names import SCORE_NAMES, score_name, sklearn_scorer_names
from .top_k import top_k_accuracy_score, top_k_hits

# Groups of instances of the grouped jackknife (BCa's acceleration) where the jackknife
# cannot go cell by cell.
_JACKKNIFE_GROUPS = 100
_PRF_INDEX = {"precision": 0, "recall": 1, "f1": 2}


@dataclass(frozen=True)
class _Score:
    """A score resolved to what the resampling needs.

    ``kind`` and ``of_confusion``: the score as a function of a full confusion of that
    kind (``params`` its builder's parameters); ``metric``: an opaque callable
    ``f(y_true, y_pred, sample_weight=...)`` instead. ``analytic``: the closed form that
    applies ("accuracy", "recall", "precision", "f1") with its ``average``.
    """

    name: str
    kind: object = None
    params: dict = None
    of_confusion: object = None
    metric: object = None
    analytic: str = None
    average: str = None
    beta: float = 1.0  # F-beta's beta, and the positive class of average="binary"
    pos_label: object = 1
    batched: object = None  # the same score of (n, C, C) matrices at once (no "none" class)
    # batched(matrices, classes) also reads matrices with a "none" class: the score over
    # the full matrix's ``classes`` (positions), those the data's score reports
    batched_with_none: bool = False
    labels: object = None  # the score's labels=: beside 2-D scores, the columns by the rule
    on_cells: object = None  # a metric's equal _Score of the matrix, for 1-D labels
    n_jobs: object = None  # threads of the builders
    weighted: bool = True  # whether ``metric`` takes sample_weight
    reader_for: object = None  # the data's confusion -> of_confusion for its resamples
    # (y_true, y_pred) -> 1-D labels whose ``on_cells`` score is this metric's value: a
    # metric that is a proportion of per-instance 0/1 outcomes (top-k accuracy of scores)
    reduced: object = None

    def on_targets(self, y_true, y_pred, sample_weight):
        if self.metric is not None:
            return _value(self.metric(y_true, y_pred, sample_weight=sample_weight))
        return self.of_confusion(self.build(y_true, y_pred, sample_weight))

    def build(self, y_true, y_pred, sample_weight):
        (confusion, *_) = confusions(self.kind, y_true, y_pred, sample_weight=sample_weight,
                                     params=self.params, warn=False,
                                     column_labels=self.labels, n_jobs=self.n_jobs)
        return confusion


def _value(result):
    """A metric's result as a float or a float array (a tuple is refused, naming it)."""
    if isinstance(result, tuple):
        raise ValueError("scoring returned a tuple; pass a score that returns a number or an "
                         "array (a scorer name, or a metric such as f1_score).")
    value = np.asarray(result, dtype=float)
    return float(value) if value.ndim == 0 else value


def _prfs_reader(which, average, beta, zero_division, labels, pos_label=1):
    """The score of a confusion; ``for_data(confusion)`` gives the reader of the resamples
    of that data, whose "none" class is reported where the data's is, so that every
    resample has the data's classes (a resample may draw no instance without a label)."""
    def for_data(data_confusion):
        include_none = bool(data_confusion.has_none and data_confusion.matrix[-1].sum() > 0)
        return _prfs_reader_of(which, average, beta, zero_division, labels, pos_label,
                               include_none)
    return _prfs_reader_of(which, average, beta, zero_division, labels, pos_label,
                           "auto"), for_data


def _prfs_reader_of(which, average, beta, zero_division, labels, pos_label, include_none):
    def read(confusion):
        if average == "binary":  # the positive class of two, as the score functions read it
            confusion = Confusion.from_parts(binary_matrix(confusion, pos_label), (0, 1),
                                             None, False)
            return _value(precision_recall_fscore_from_confusion(
                confusion, beta=beta, zero_division=zero_division,
                classes=np.array([1]), warn_for=(_PRF_INDEX[which],))[_PRF_INDEX[which]][0])
        selected, _ = confusion_for_labels(confusion, labels)
        return _value(precision_recall_fscore_from_confusion(
            selected, beta=beta, average=average, zero_division=zero_division,
            include_none=include_none, warn_for=(_PRF_INDEX[which],))[_PRF_INDEX[which]])
    return read


def _named_score(name, params):
    """A scorer name of :func:`get_scorer_names` that scores targets, as a :class:`_Score`."""
    meaning = SCORE_NAMES.get(name)
    params = dict(params)
    if meaning is not None and meaning.family in ("tcm", "mlcm"):
        family, which = meaning.family, meaning.reading
        average = params.pop("average", meaning.average)
        if family == "tcm":
            kind = TRANSPORT
            builder = {"weighting": params.pop("weighting", "uniform"),
                       "empty": params.pop("empty", "null_class")}
        else:
            kind = _MLCM_METHODS[params.pop("method", "heydarian")]
            builder = {}
        labels = params.pop("labels", None)
        if which == "accuracy":
            _no_more(name, params)

            def read(confusion):
                return diagonal_fraction(confusion_for_labels(confusion, labels)[0]
                                               .selected())
            return _Score(name, kind, builder, read, analytic="accuracy",
                          batched=_batched_accuracy if labels is None else None,
                          labels=labels)
        beta, zero_division = params.pop("beta", 1.0), params.pop("zero_division", "warn")
        pos_label = params.pop("pos_label", 1)
        read, for_data = _prfs_reader(which, average, beta, zero_division, labels,
                                      pos_label)
        _no_more(name, params)
        batched = _batched_prfs(which, average, beta, zero_division) \
            if labels is None and average != "binary" else None
        return _Score(name, kind, builder, read, analytic=which, average=average,
                      batched=batched, batched_with_none=True, labels=labels,
                      reader_for=for_data, beta=beta, pos_label=pos_label)
    measures = {
        "generalized_means": (generalized_means_from_confusion, 1,
                              {"r": 1.0, "average": "macro"}),
        "symmetric_balanced_accuracy": (symmetric_balanced_accuracy_from_confusion, 1, {}),
        "cohen_kappa": (cohen_kappa_from_confusion, 1, {}),
        "neg_correlation_distance": (correlation_distance_from_confusion, -1, {}),
        "neg_confusion_entropy": (confusion_entropy_from_confusion, -1, {}),
    }
    if name not in measures:
        return None
    function, sign, defaults = measures[name]
    builder = {"weighting": params.pop("weighting", "uniform"), "empty": "null_class"}
    keywords = {**defaults, **{k: params.pop(k) for k in defaults if k in params}}
    _no_more(name, params)
    return _Score(name, TRANSPORT, builder,
                  lambda confusion: sign * function(confusion.selected(), **keywords))


def _batched_accuracy(matrices):
    return np.trace(matrices, axis1=1, axis2=2) / matrices.sum(axis=(1, 2))


def _batched_prfs(which, average, beta, zero_division):
    """Precision, recall or F-beta of ``(n, C, C)`` matrices over all their classes (or
    over ``classes``, positions into the full matrices of a kind with a "none" class), with
    :func:`precision_recall_fscore_from_confusion`'s conventions (checked against it on
    the data before use: see :meth:`_Data.of_full_counts`)."""
    fill = 0.0 if zero_division == "warn" else float(zero_division)

    def read(matrices, classes=None):
        tp = np.diagonal(matrices, axis1=1, axis2=2)
        rows, columns = matrices.sum(axis=2), matrices.sum(axis=1)
        if average == "micro":
            tp, rows, columns = (x.sum(axis=1, keepdims=True) for x in (tp, rows, columns))
        elif classes is not None:  # the classes reported (a "none" class left out or not)
            tp, rows, columns = (x[:, classes] for x in (tp, rows, columns))
        if which == "precision":
            numerator, denominator = tp, columns
        elif which == "recall":
            numerator, denominator = tp, rows
        else:
            numerator, denominator = fbeta_terms(tp, rows, columns, beta)
        values = np.full(numerator.shape, fill)
        np.divide(numerator, denominator, out=values, where=denominator > 0)
        if average is None:
            return values
        if average == "micro":
            return values[:, 0]
        defined = ~np.isnan(values)
        weights = np.ones_like(values) if average == "macro" else rows
        weights = np.where(defined, weights, 0.0)
        totals = weights.sum(axis=1)
        counts = defined.sum(axis=1)
        plain = np.divide(np.where(defined, values, 0.0).sum(axis=1), counts,
                          out=np.full(len(values), fill), where=counts > 0)
        weighted = np.divide((weights * np.where(defined, values, 0.0)).sum(axis=1), totals,
                             out=plain.copy(), where=totals > 0)
        return weighted
    return read


def _no_more(name, params):
    if params:
        raise TypeError(f"scoring={name!r} takes no keyword(s) {sorted(params)}.")


# This library's metrics of targets that are a function of their transport matrix.
_MEASURES_OF_TARGETS = {
    transport_accuracy_score: lambda p: (diagonal_fraction, {}),
    generalized_means_score: lambda p: (generalized_means_from_confusion,
                                        {"r": p.pop("r", 1.0), "average": p.pop("average",
                                                                                "macro")}),
    symmetric_balanced_accuracy_score: lambda p: (symmetric_balanced_accuracy_from_confusion,
                                                  {}),
    correlation_distance: lambda p: (correlation_distance_from_confusion, {}),
    confusion_entropy: lambda p: (confusion_entropy_from_confusion, {}),
}
# The scores McNemar's comparison computes (accuracy), by every name they go by.
_ACCURACIES = ("tcm_accuracy", "accuracy", transport_accuracy_score,
               sklearn_metrics.accuracy_score)
# scikit-learn's proportions with a closed-form interval.
_SKLEARN_ANALYTIC = {sklearn_metrics.accuracy_score: "accuracy",
                     sklearn_metrics.recall_score: "recall",
                     sklearn_metrics.precision_score: "precision",
                     sklearn_metrics.f1_score: "f1"}


def _resolve_score(score, kind, params, owner):
    """``score`` (a name, a metric or a matrix-level callable with ``kind``) as a
    :class:`_Score`; bad names and keywords raise, naming ``scoring``.

    A name is one of this library's (:mod:`.names`) or one of scikit-learn's scorer names
    (:func:`sklearn.metrics.get_scorer_names`: ``"accuracy"``, ``"balanced_accuracy"``,
    ``"f1_macro"``, ``"matthews_corrcoef"``, ``"neg_log_loss"`` ...), the same names that
    :func:`~sklearn_confusion_ext.get_scorer` takes: scikit-learn's is its scorer's metric
    with the scorer's keywords and sign, read off the confusion matrix where this library
    has its reader (:func:`_sklearn_on_cells`), else computed on each resample.
    """
    if isinstance(score, str):
        if score not in SCORE_NAMES and score in sklearn_scorer_names():
            return _sklearn_scorer(score, params, owner)
        try:
            score_name(score, f"{owner}'s scoring", of_targets=True,
                       extra_names=sklearn_scorer_names())
        except ValueError as error:
            raise ValueError(f"{error} Or pass a metric callable f(y_true, y_pred), or a "
                             "matrix-level callable with kind=.") from None
        return _named_score(score, params)
    if kind is not None:
        from .._core.kinds import KINDS

        return _Score(getattr(score, "__name__", "score"), KINDS[kind],
                      {k: params.pop(k) for k in list(params) if k in KINDS[kind].parameters},
                      lambda confusion: _value(score(confusion.selected(), **params)))
    if score in _MEASURES_OF_TARGETS:
        params = dict(params)
        function, keywords = _MEASURES_OF_TARGETS[score](params)
        builder = {"weighting": params.pop("weighting", "uniform"), "empty": "null_class"}
        _no_more(score.__name__, params)
        return _Score(score.__name__, TRANSPORT, builder,
                      lambda confusion: _value(function(confusion.selected(), **keywords)),
                      analytic="accuracy" if score is transport_accuracy_score else None)
    return _metric_score(score, params, owner)


def _metric_score(function, params, owner, name=None, sign=1):
    """A metric ``function(y_true, y_pred, **params)`` (times ``sign``: -1 for the
    ``neg_`` names of scikit-learn's scorers) as a :class:`_Score` named ``name``."""
    check_keywords(function, params, owner)
    name = name or getattr(function, "__name__", "score")
    analytic = _SKLEARN_ANALYTIC.get(function) if sign == 1 else None

    def metric(y_true, y_pred, sample_weight):
        weights = {} if sample_weight is None else {"sample_weight": sample_weight}
        value = function(y_true, y_pred, **weights, **params)
        return value if sign == 1 else -_value(value)
    on_cells = _sklearn_on_cells(name, function, analytic, params) if sign == 1 else None
    reduced = _instance_proportion(function, params) if sign == 1 else None
    if reduced is not None:
        on_cells = replace(_named_score("tcm_accuracy", {}), name=name)
    return _Score(name, metric=metric, weighted=_takes_sample_weight(function),
                  analytic=analytic, average=params.get("average", "binary"),
                  on_cells=on_cells or _matrix_metric(name, function, params, sign),
                  reduced=reduced)


# Metrics that are the (weighted) fraction of per-instance 0/1 outcomes: both top-k
# accuracies (scikit-learn's equals this library's, ties included).
_TOP_K_ACCURACIES = (top_k_accuracy_score, sklearn_metrics.top_k_accuracy_score)


def _instance_proportion(function, params):
    """``reduced(y_true, y_pred) -> (ones, hits)`` where ``function(**params)`` is the
    fraction of hits (top-k accuracy, ``normalize=True``), else None: the metric is then
    the accuracy of 1-D labels ``hits`` against all-ones (resampled through their two
    cells, a proportion at its bound given Wilson's interval), never recomputed from the
    ``(n, C)`` scores per resample."""
    try:
        known = function in _TOP_K_ACCURACIES
    except TypeError:  # an unhashable callable
        return None
    if not known or not params.get("normalize", True):
        return None
    k, labels = params.get("k", 2), params.get("labels")

    def reduced(y_true, y_score):
        hits, _ = top_k_hits("scoring=top_k_accuracy_score", y_true, y_score, k=k,
                             labels=labels)
        return np.ones(hits.size, dtype=np.int8), hits.astype(np.int8)
    return reduced


# Metrics of the floors above (the expected cost of decisions) that are, on 1-D labels, a
# function of the classic matrix: metric -> reader(params) -> (read, batched) or None.
_MATRIX_METRICS = {}


def register_matrix_metric(function, reader):
    """Resample ``function(y_true, y_pred, **params)`` of 1-D labels through their matrix:
    ``reader(params)`` gives ``(read, batched)``, ``read(confusion)`` its value on a full
    :class:`~.._core.confusion.Confusion` and ``batched(matrices)`` (or None) its values
    on ``(n, C, C)`` resampled matrices at once; None where ``params`` have no such
    reader. The families above the scores (the decision cost) register here, so that this
    floor imports none of them."""
    _MATRIX_METRICS[function] = reader


def _matrix_metric(name, function, params, sign):
    """A registered metric (or a ``functools.partial`` of one, binding keywords) as a
    :class:`_Score` of the classic matrix, or None."""
    if isinstance(function, functools.partial) and not function.args:
        function, params = function.func, {**function.keywords, **params}
    try:
        reader = _MATRIX_METRICS.get(function)
    except TypeError:  # an unhashable callable
        return None
    made = None if reader is None or sign != 1 else reader(params)
    if made is None:
        return None
    read, batched = made
    return _Score(name, TRANSPORT, {"weighting": "uniform", "empty": "null_class"}, read,
                  batched=batched)


def _sklearn_scorer(name, params, owner):
    """scikit-learn's scorer ``name`` as a score of targets: its metric, with the scorer's
    keywords (``average="macro"`` for ``"f1_macro"``) and sign, of ``y_pred`` as given
    (hard predictions, or the probabilities or decision values of a scorer that reads
    them, ``"neg_log_loss"`` or ``"roc_auc"``); ``params`` add keywords."""
    scorer = sklearn_metrics.get_scorer(name)
    try:
        function, sign, keywords = scorer._score_func, scorer._sign, dict(scorer._kwargs)
    except AttributeError:  # a scikit-learn whose scorers keep their metric elsewhere
        raise TypeError(f"scoring={name!r}: this scikit-learn's scorer does not show its "
                        "metric; pass the metric itself (scoring=f1_score, with its "
                        "keywords).") from None
    return _metric_score(function, {**keywords, **params}, owner, name=name, sign=sign)


def _takes_sample_weight(function):
    """Whether ``function`` can be called with ``sample_weight=`` (a callable whose
    signature cannot be read is assumed to)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD or p.name == "sample_weight" and
               p.kind is not p.POSITIONAL_ONLY for p in parameters)


def _check_weighted(score, sample_weight, method, owner):
    """Refuse, naming the argument, what a metric without ``sample_weight`` cannot do:
    weigh the data, or the Bayesian bootstrap's continuous weights (the bootstrap and the
    permutations repeat or swap instances instead)."""
    if score.metric is None or score.weighted:
        return
    if sample_weight is not None:
        raise TypeError(f"{owner} got sample_weight, but scoring={score.name!r} takes no "
                        "sample_weight parameter; leave sample_weight=None, or pass a score "
                        "f(y_true, y_pred, sample_weight=None).")
    if method == "bayesian":
        raise ValueError(f"method='bayesian' weighs the instances with continuous weights, "
                         f"but scoring={score.name!r} takes no sample_weight parameter; use "
                         "a bootstrap method, or a score f(y_true, y_pred, "
                         "sample_weight=None).")


def _sklearn_on_cells(name, function, which, params):
    """scikit-learn's metric ``function`` with ``params`` as a score of the classic matrix
    (which the transport matrix is on 1-D labels), or None: its accuracy, precision,
    recall or F1 (``which``), its balanced accuracy (the macro recall of the classes of
    ``y_true``: recall with ``zero_division=nan``, left out of the average) and its
    Matthews correlation (0 where a labeling is constant)."""
    if function is sklearn_metrics.balanced_accuracy_score and not params:
        return replace(_named_score("tcm_recall", {"average": "macro",
                                                   "zero_division": np.nan}), name=name)
    if function is sklearn_metrics.matthews_corrcoef and not params:
        return _Score(name, TRANSPORT, {"weighting": "uniform", "empty": "null_class"},
                      _sklearn_matthews)
    keywords = {"average", "labels", "pos_label", "zero_division"}
    if which is None or set(params) - (set() if which == "accuracy" else keywords):
        return None
    if which == "accuracy":
        return replace(_named_score("tcm_accuracy", {}), name=name)
    return replace(_named_score(f"tcm_{which}", {"average": "binary", **params}), name=name)


def _sklearn_matthews(confusion):
    """:func:`sklearn.metrics.matthews_corrcoef` of the labelings of ``confusion``: 0 where
    one of them is constant (scikit-learn's convention; Table 1's resolution differs where
    both are), the multiclass correlation of Table 1 elsewhere."""
    matrix = np.asarray(confusion.selected(), dtype=float)
    if min(np.count_nonzero(matrix.sum(axis=1)), np.count_nonzero(matrix.sum(axis=0))) <= 1:
        return 0.0
    return matthews_corrcoef_from_confusion(matrix)


def _data(score, y_true, y_pred, sample_weight):
    """The :class:`_Data` of a score; a metric of 1-D labels that equals a score of the
    matrix on the data (:func:`_sklearn_on_cells`) is resampled through the matrix's
    cells, its classes the data's in every resample (as with ``labels=`` naming them)."""
    if score.reduced is not None:  # a proportion of per-instance outcomes: their cells
        return _Data(score.on_cells, *score.reduced(y_true, y_pred), sample_weight)
    data = _Data(score, y_true, y_pred, sample_weight)
    if score.on_cells is None or np.ndim(y_true) != 1 or np.ndim(y_pred) != 1:
        return data
    cells = _Data(score.on_cells, y_true, y_pred, sample_weight)
    if cells.single_label and np.allclose(_quiet(cells.estimate), _quiet(data.estimate),
                                          rtol=1e-12, atol=1e-12, equal_nan=True):
        return cells
    return data


# --- Resampling -----------------------------------------------------------------------------


class _Data:
    """The targets of one evaluation, and how they are resampled.

    On 1-D labels without sample weights (``cells`` set), the full confusion of the data
    (``confusion``) is rebuilt from resampled counts of its cells; otherwise instance
    weights are resampled and the score evaluated once per resample.

    The library's scores read targets of another array library on the host
    (:func:`~.._core.array_api.on_the_host`: CPU tensors as views, other arrays copied
    once), so that their resamples are NumPy's, to the bit; a metric callable gets the
    targets as they were given.
    """

    def __init__(self, score, y_true, y_pred, sample_weight):
        if score.metric is None:  # resampled on the host, whatever the targets' library
            y_true, y_pred, sample_weight, params, labels = on_the_host(
                y_true, y_pred, sample_weight, score.params, score.labels)
            score = replace(score, params=params, labels=labels)
        self.score, self.y_true, self.y_pred = score, y_true, y_pred
        self.confusion = self.cells = None
        self.groups = None  # (codes, n_groups) of groups resampled as units (check_groups)
        if score.metric is None:
            self.confusion = score.build(y_true, y_pred, sample_weight)
            self.n_samples = self.confusion.n_samples
            if score.reader_for is not None:
                self.score = replace(score, of_confusion=score.reader_for(self.confusion))
        else:
            self.n_samples = len(y_true)
        self.sample_weight = check_sample_weight(sample_weight, self.n_samples)
        self.single_label = (self.confusion is not None
                             and self.confusion.true_classes is not None
                             and not self._two_dimensional())
        if self.single_label and self.sample_weight is None:
            counts = np.rint(self.confusion.matrix).astype(np.int64)
            self.cells = np.flatnonzero(counts)
            self.cell_counts = counts.ravel()[self.cells]

    @cached_property
    def grouped(self):
        """The :class:`GroupedRows` of labels beside scores (their resampled matrices are
        grouped products), else None; read on the first resample."""
        if self.confusion is None or self.single_label or not self.batches():
            return None
        return grouped_rows(self.score.kind, self.score.params, self.y_true, self.y_pred,
                            self.sample_weight, column_labels=self.score.labels)

    def _two_dimensional(self):
        return any(np.ndim(y) == 2 and np.shape(y)[1] > 1 for y in (self.y_true, self.y_pred))

    def estimate(self):
        if self.cells is not None and self._batched_agrees():  # as its resamples are read
            return _scalar(self._batched(self.confusion.matrix[None])[0])
        if self.confusion is not None:
            return self.score.of_confusion(self.confusion)
        return self.score.on_targets(self.y_true, self.y_pred, self.sample_weight)

    def of_weights(self, weights, presorted=False, reuse=False):
        """The score of each row of ``weights`` (instance weights, before sample_weight):
        the matrices of in-memory targets are built for all rows at once. ``presorted``:
        the columns are the instances in the order of :attr:`grouped` (an exchangeable
        draw). ``reuse``: the grouped products write the matrices into the buffer of the
        last call (``GroupedRows.matrices``); the scores never share its memory."""
        matrices = self.matrices(weights, presorted, reuse)
        if matrices is not None:
            values = self.of_full_counts(matrices)
            if reuse and np.may_share_memory(values, matrices):  # a score that is a cell
                values = values.copy()
            return values
        if not self.score.weighted:  # integer weights: each instance repeated
            return _stack([self.score.on_targets(*_repeated(self.y_true, self.y_pred, w),
                                                 None) for w in weights])
        user = 1.0 if self.sample_weight is None else self.sample_weight
        return _stack([self.score.on_targets(self.y_true, self.y_pred, w * user)
                       for w in weights])

    def batches(self):
        """Whether :meth:`matrices` builds the matrices of many weightings at once."""
        return self.single_label or (self.score.metric is None and batches_terms(
            self.score.kind, self.y_true, self.y_pred))

    def matrices(self, weights, presorted=False, reuse=False):
        """The full matrices (flattened rows) under each row of instance ``weights``
        (before sample_weight), all at once; None where each is built from the targets.
        ``presorted``, ``reuse``: as in :meth:`of_weights`."""
        if not self.batches():
            return None
        if self.grouped is not None:
            return self.grouped.matrices(weights, presorted, n_jobs=self.score.n_jobs,
                                         reuse=reuse).reshape(len(weights), -1)
        if self.single_label:  # each instance adds its weight to its own cell
            return cell_matrices(self.instance_cells(), self.confusion.matrix.size,
                                 self.sample_weight, weights)
        return resampled_matrices(self.score.kind, self.score.params, self.y_true, self.y_pred,
                                  self.sample_weight, weights, "score_confidence_interval",
                                  column_labels=self.score.labels).reshape(len(weights), -1)

    def of_full_counts(self, matrices):
        """The score of each of ``matrices`` (rows: full matrices, flattened): at once when
        the score has a batched form that gives the score of the data (else one by one)."""
        shape = self.confusion.matrix.shape
        if self._batched_agrees():
            return _stack(self._batched(matrices.reshape(-1, *shape)))
        return _stack([self.score.of_confusion(replace(self.confusion, matrix=m.reshape(shape)))
                       for m in matrices])

    def _batched(self, matrices):
        """The score's batched form on full matrices of this data's shape: with a "none"
        class, over the classes the data's score reports (its resamples' reader, ``for_data``
        of :func:`_prfs_reader`, reports the "none" class where the data has mass in it)."""
        if not self.confusion.has_none:
            return self.score.batched(matrices)
        return self.score.batched(matrices, reported_classes(self.confusion, "auto"))

    def _batched_agrees(self):
        if self.score.batched is None or (self.confusion.has_none
                                          and not self.score.batched_with_none):
            return False
        if not hasattr(self, "_agrees"):
            one = _stack(self._batched(self.confusion.matrix[None]))[0]
            self._agrees = np.allclose(one, _quiet(self.score.of_confusion, self.confusion),
                                       rtol=1e-12, atol=1e-12, equal_nan=True)
        return self._agrees

    def instance_cells(self):
        """The cell of each instance in the full matrix (1-D labels)."""
        return label_cells(self.confusion, self.y_true, self.y_pred)

    def entries(self):
        """Cells of one resample's matrix where :meth:`matrices` builds them (0 where
        each resample is scored from its targets)."""
        return matrix_entries(self.confusion.matrix.shape) if self.batches() else 0

    def bootstrap(self, rng, n_resamples, owner="score_confidence_interval", progress=None):
        """The scores of ``n_resamples`` bootstrap resamples, their matrices built in
        blocks within the budget (the same draws whatever the blocks); ``progress``: a
        :class:`~.._core.resampling.Progress` counting them."""
        progress = progress or quiet_progress()
        if self.groups is not None:
            return np.concatenate([self.of_weights(weights) for weights in progress.track(
                group_weights(rng, self.groups, n_resamples, False, self.entries(), owner,
                              self.score.n_jobs))])
        if self.cells is not None:
            return np.concatenate([self.of_full_counts(full) for full in progress.track(
                cell_draws(self.confusion.matrix, self.n_samples, rng, n_resamples, owner))])
        return np.concatenate([
            self.of_weights(weights, presorted=self.grouped is not None, reuse=True)
            for weights in progress.track(instance_weights(
                rng, self.n_samples, n_resamples, False, self.entries(), owner,
                self.score.n_jobs, reuse=True, compact=self.grouped is not None))])

    def bayesian(self, rng, n_resamples, prior, owner="score_confidence_interval",
                 progress=None):
        progress = progress or quiet_progress()
        if self.groups is not None:  # the Bayesian bootstrap of the groups
            return np.concatenate([self.of_weights(weights) for weights in progress.track(
                group_weights(rng, self.groups, n_resamples, True, self.entries(), owner,
                              self.score.n_jobs))])
        if self.cells is not None:
            alpha = self.confusion.matrix.astype(float) + _prior(prior, self.confusion)
            with np.errstate(over="ignore"):
                total = alpha.sum()
            if not np.isfinite(total):  # NumPy's Dirichlet draws NaN: NaN ends, silently
                shown = "prior" if np.ndim(prior) else f"prior={quoted(prior)}"
                raise ValueError(
                    f"{shown} gives Dirichlet parameters whose total overflows float64 "
                    f"({alpha.size} cells); they must sum below {np.finfo(float).max:.4g} "
                    f"(a scalar prior: below {np.finfo(float).max / alpha.size:.4g} here).")
            if self.confusion.has_none:  # single labels never reach MLCM's "none" class
                alpha[-1, :] = alpha[:, -1] = 0.0
            keep = np.flatnonzero(alpha.ravel() > 0)
            return np.concatenate([self.of_full_counts(full) for full in progress.track(
                full_blocks(alpha, n_resamples, owner,
                            lambda size: rng.dirichlet(alpha.ravel()[keep], size=size)
                            * self.n_samples, keep))])
        return np.concatenate([
            self.of_weights(weights, presorted=self.grouped is not None, reuse=True)
            for weights in progress.track(instance_weights(
                rng, self.n_samples, n_resamples, True, self.entries(), owner,
                self.score.n_jobs, reuse=True))])

    def jackknife(self, rng):
        """``(values, multiplicities)`` of the leave-one-out (or leave-one-group-out) score."""
        if self.cells is not None and self.groups is None:
            values = []
            for cell in self.cells:
                matrix = self.confusion.matrix.copy()
                matrix.flat[cell] -= 1
                values.append(self.score.of_confusion(replace(self.confusion, matrix=matrix)))
            return _stack(values), self.cell_counts.astype(float)
        if self.groups is not None:  # leave one group out (at most 100: groups merged)
            codes, n_given = self.groups
            n_groups = min(n_given, _JACKKNIFE_GROUPS)
            merged = np.empty(n_given, dtype=np.intp)
            for index, part in enumerate(np.array_split(
                    rng.permutation(n_given) if n_given > n_groups else np.arange(n_given),
                    n_groups)):
                merged[part] = index
            members = merged[codes]
            order = np.argsort(members, kind="stable")
            groups = np.split(order, np.flatnonzero(np.diff(members[order])) + 1)
        else:
            n_groups = min(self.n_samples, _JACKKNIFE_GROUPS)
            groups = np.array_split(rng.permutation(self.n_samples), n_groups)
        # where each instance is in the grouped products' order (their weights are drawn so)
        grouped = self.grouped if self.groups is None else None
        where = None
        if grouped is not None:
            where = np.empty(self.n_samples, dtype=np.intp)
            where[grouped.order] = np.arange(self.n_samples)
        values = [self.of_weights(weights, presorted=where is not None, reuse=True)
                  for weights in leave_out_weights(
                      groups, self.n_samples, self.entries(), "score_confidence_interval",
                      where, np.float64 if where is None else np.uint8)]
        return np.concatenate(values), np.ones(n_groups)


def _repeated(y_true, y_pred, counts):
    """The targets with instance ``i`` repeated ``counts[i]`` times (bootstrap counts, 0/1
    jackknife weights), for a metric that takes no sample_weight."""
    rows = np.repeat(np.arange(len(counts)), np.rint(counts).astype(np.int64))
    return _safe_indexing(y_true, rows), _safe_indexing(y_pred, rows)


def _prior(prior, confusion):
    """The Dirichlet prior added to the counts; None adds nothing (the posterior over the
    observed cells, the Bayesian bootstrap of the instances)."""
    if prior is None:
        return 0.0
    if isinstance(prior, str):
        return 1.0 if prior == "uniform" else 1.0 / confusion.matrix.shape[0]
    return np.asarray(prior, dtype=float)


def _stack(values):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(values, dtype=float)


def _quiet(function, *args):
    """Resampled scores never warn (the estimate on the data does)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args)


def _scalar(value):
    value = np.asarray(value, dtype=float)
    return float(value) if value.ndim == 0 else value
