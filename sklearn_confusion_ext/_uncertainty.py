"""Confidence intervals of scores, and paired comparisons of two classifiers.

Every score of the library is a function of a confusion matrix, and a confusion matrix is
a sum over instances. On 1-D class labels an instance adds one to the cell of its (true,
predicted) pair, so resampling instances is resampling those cells: the bootstrap draws
the cell counts from a multinomial, the Bayesian method from the Dirichlet posterior of
the cells (the whole-matrix form of Barranco-Chamorro and Carrillo-Garcia's row
posteriors), and the paired methods the (true, first, second) triples; no resample touches
the N instances, and a score of the library is evaluated on the resampled matrices only.
Multi-label and soft targets, sample weights and metric callables of other libraries are
resampled through instance weights instead (the matrix, or the metric, is evaluated once
per resample).

The intervals follow :func:`scipy.stats.bootstrap`'s definitions of the percentile, basic
and BCa methods; BCa's acceleration is the jackknife over instances (over the cells, each
with its multiplicity, on 1-D labels; over 100 groups of instances otherwise).
"""

import inspect
import re
import warnings
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp
from scipy import special
from sklearn import metrics as sklearn_metrics
from sklearn.utils import _safe_indexing

from ._core.config import check_result_size, resample_block
from ._core.confusion import Confusion
from ._core.dispatch import confusions
from ._core.params import check_keywords, validate_params
from ._core.score_names import SCORE_NAMES, score_name
from ._core.user_warnings import warn
from ._core.validation import check_sample_weight, check_target_set
from ._measures import (
    confusion_entropy,
    confusion_entropy_from_confusion,
    correlation_distance,
    correlation_distance_from_confusion,
    generalized_means_from_confusion,
    generalized_means_score,
    symmetric_balanced_accuracy_from_confusion,
    symmetric_balanced_accuracy_score,
)
from ._mlcm import _MLCM_METHODS
from ._resampling import (
    batches_terms,
    cell_draws,
    cell_matrices,
    full_blocks,
    instance_weights,
    label_cells,
    matrix_entries,
    resampled_matrices,
    swap_indicators,
)
from ._scores import (
    accuracy_from_confusion,
    binary_matrix,
    confusion_for_labels,
    precision_recall_fscore_from_confusion,
)
from ._stats import _result, mcnemar_test
from ._transport import CLASSIC, TRANSPORT
from ._transport_scores import transport_accuracy_score

# Groups of instances of the grouped jackknife (BCa's acceleration) where the jackknife
# cannot go cell by cell.
_JACKKNIFE_GROUPS = 100
_PRF_INDEX = {"precision": 0, "recall": 1, "f1": 2}


@_result(kw_only=True)
class ConfidenceIntervalResult:
    """A score, its confidence interval and the resampled values behind it.

    Parameters
    ----------
    estimate : float or ndarray
        The score on the data (one value per class for array-valued scores).
    low, high : float or ndarray
        The interval's bounds.
    standard_error : float or ndarray
        The standard deviation of the resampled values (analytic: the delta method's or
        the binomial standard error).
    distribution : ndarray of shape (n_resamples,) or (n_resamples, n_classes), or None
        The resampled (or posterior) values of the score; None for analytic intervals.
    method : str
        How the interval was made.
    confidence_level : float
        Its nominal coverage.

    Attributes
    ----------
    estimate, low, high, standard_error : float or ndarray
    distribution : ndarray or None
    method : str
    confidence_level : float

    Examples
    --------
    >>> from sklearn_confusion_ext import score_confidence_interval
    >>> result = score_confidence_interval([0, 1] * 30, [0, 1] * 25 + [1, 0] * 5,
    ...                                    score="tcm_accuracy", method="analytic")
    >>> round(result.estimate, 3), round(result.low, 3), round(result.high, 3)
    (0.833, 0.72, 0.907)
    """

    estimate: object
    low: object
    high: object
    standard_error: object
    distribution: object
    method: str
    confidence_level: float


@_result(kw_only=True)
class ComparisonResult:
    """The paired difference of a score between two classifiers on the same instances.

    Parameters
    ----------
    difference : float
        ``score(y_true, y_pred_a) - score(y_true, y_pred_b)``.
    low, high : float
        The interval of the difference.
    pvalue : float
        Of the null hypothesis that the two classifiers score alike (``alternative``:
        "greater" tests that ``a`` scores higher).
    method : str
    confidence_level : float
    alternative : str
    distribution : ndarray or None
        The resampled (bootstrap, Bayesian) or null (permutation) differences.

    Attributes
    ----------
    difference, low, high, pvalue : float
    method, alternative : str
    confidence_level : float
    distribution : ndarray or None

    Examples
    --------
    >>> from sklearn_confusion_ext import compare_scores
    >>> y_true = [0, 1] * 30
    >>> result = compare_scores(y_true, y_true, [0, 1] * 25 + [1, 0] * 5, method="mcnemar")
    >>> round(result.difference, 3), round(result.pvalue, 4)
    (0.167, 0.002)
    """

    difference: float
    low: float
    high: float
    pvalue: float
    method: str
    confidence_level: float
    alternative: str
    distribution: object


# --- Scores ---------------------------------------------------------------------------------


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
    batched: object = None  # the same score of (n, C, C) matrices at once (no "none" class)
    labels: object = None  # the score's labels=: beside 2-D scores, they name the columns
    on_cells: object = None  # a metric's equal _Score of the matrix, for 1-D labels
    n_jobs: object = None  # threads of the builders
    weighted: bool = True  # whether ``metric`` takes sample_weight
    reader_for: object = None  # the data's confusion -> of_confusion for its resamples

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
        raise ValueError("score returned a tuple; pass a score that returns a number or an "
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
                classes=np.array([1]))[_PRF_INDEX[which]][0])
        selected, _ = confusion_for_labels(confusion, labels)
        return _value(precision_recall_fscore_from_confusion(
            selected, beta=beta, average=average, zero_division=zero_division,
            include_none=include_none)[_PRF_INDEX[which]])
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
                return accuracy_from_confusion(confusion_for_labels(confusion, labels)[0]
                                               .selected())
            return _Score(name, kind, builder, read, analytic="accuracy",
                          batched=_batched_accuracy if labels is None else None,
                          labels=labels)
        beta, zero_division = params.pop("beta", 1.0), params.pop("zero_division", "warn")
        read, for_data = _prfs_reader(which, average, beta, zero_division, labels,
                                      params.pop("pos_label", 1))
        _no_more(name, params)
        batched = _batched_prfs(which, average, beta, zero_division) \
            if labels is None and average != "binary" else None
        return _Score(name, kind, builder, read, analytic=which, average=average,
                      batched=batched, labels=labels, reader_for=for_data)
    measures = {
        "generalized_means": (generalized_means_from_confusion, 1,
                              {"r": 1.0, "average": "macro"}),
        "symmetric_balanced_accuracy": (symmetric_balanced_accuracy_from_confusion, 1, {}),
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
    """Precision, recall or F-beta of ``(n, C, C)`` matrices over all their classes, with
    :func:`precision_recall_fscore_from_confusion`'s conventions (checked against it on
    the data before use: see :meth:`_Data.of_full_counts`)."""
    fill = 0.0 if zero_division == "warn" else float(zero_division)

    def read(matrices):
        tp = np.diagonal(matrices, axis1=1, axis2=2)
        rows, columns = matrices.sum(axis=2), matrices.sum(axis=1)
        if average == "micro":
            tp, rows, columns = (x.sum(axis=1, keepdims=True) for x in (tp, rows, columns))
        beta2 = beta * beta
        numerator, denominator = {
            "precision": (tp, columns), "recall": (tp, rows),
            "f1": ((1 + beta2) * tp, (1 + beta2) * tp + beta2 * (rows - tp) + (columns - tp)),
        }[which]
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
        raise TypeError(f"score={name!r} takes no keyword(s) {sorted(params)}.")


# This library's metrics of targets that are a function of their transport matrix.
_MEASURES_OF_TARGETS = {
    transport_accuracy_score: lambda p: (accuracy_from_confusion, {}),
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
    :class:`_Score`; bad names and keywords raise, naming ``score``."""
    if isinstance(score, str):
        try:
            score_name(score, f"{owner}'s score", of_targets=True)
        except ValueError as error:
            raise ValueError(f"{error} Or pass a metric callable f(y_true, y_pred), or a "
                             "matrix-level callable with kind=.") from None
        return _named_score(score, params)
    if kind is not None:
        from ._core.kinds import KINDS

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
    check_keywords(score, params, owner)
    analytic = _SKLEARN_ANALYTIC.get(score)
    name = getattr(score, "__name__", "score")

    def metric(y_true, y_pred, sample_weight):
        weights = {} if sample_weight is None else {"sample_weight": sample_weight}
        return score(y_true, y_pred, **weights, **params)
    return _Score(name, metric=metric, weighted=_takes_sample_weight(score),
                  analytic=analytic, average=params.get("average", "binary"),
                  on_cells=_sklearn_on_cells(name, analytic, params))


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
        raise TypeError(f"{owner} got sample_weight, but score={score.name!r} takes no "
                        "sample_weight parameter; leave sample_weight=None, or pass a score "
                        "f(y_true, y_pred, sample_weight=None).")
    if method == "bayesian":
        raise ValueError(f"method='bayesian' weighs the instances with continuous weights, "
                         f"but score={score.name!r} takes no sample_weight parameter; use "
                         "a bootstrap method, or a score f(y_true, y_pred, "
                         "sample_weight=None).")


def _sklearn_on_cells(name, which, params):
    """scikit-learn's accuracy, precision, recall or F1 (``which``) with ``params`` as a
    score of the classic matrix (which the transport matrix is on 1-D labels), or None."""
    keywords = {"average", "labels", "pos_label", "zero_division"}
    if which is None or set(params) - (set() if which == "accuracy" else keywords):
        return None
    if which == "accuracy":
        return replace(_named_score("tcm_accuracy", {}), name=name)
    return replace(_named_score(f"tcm_{which}", {"average": "binary", **params}), name=name)


def _data(score, y_true, y_pred, sample_weight):
    """The :class:`_Data` of a score; a metric of 1-D labels that equals a score of the
    matrix on the data (:func:`_sklearn_on_cells`) is resampled through the matrix's
    cells, its classes the data's in every resample (as with ``labels=`` naming them)."""
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
    """

    def __init__(self, score, y_true, y_pred, sample_weight):
        self.score, self.y_true, self.y_pred = score, y_true, y_pred
        self.confusion = self.cells = None
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

    def _two_dimensional(self):
        return any(np.ndim(y) == 2 and np.shape(y)[1] > 1 for y in (self.y_true, self.y_pred))

    def estimate(self):
        if self.cells is not None and self._batched_agrees():  # as its resamples are read
            return _scalar(self.score.batched(self.confusion.matrix[None])[0])
        if self.confusion is not None:
            return self.score.of_confusion(self.confusion)
        return self.score.on_targets(self.y_true, self.y_pred, self.sample_weight)

    def of_weights(self, weights):
        """The score of each row of ``weights`` (instance weights, before sample_weight):
        the matrices of in-memory targets are built for all rows at once."""
        matrices = self.matrices(weights)
        if matrices is not None:
            return self.of_full_counts(matrices)
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

    def matrices(self, weights):
        """The full matrices (flattened rows) under each row of instance ``weights``
        (before sample_weight), all at once; None where each is built from the targets."""
        if not self.batches():
            return None
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
            return _stack(self.score.batched(matrices.reshape(-1, *shape)))
        return _stack([self.score.of_confusion(replace(self.confusion, matrix=m.reshape(shape)))
                       for m in matrices])

    def _batched_agrees(self):
        if self.score.batched is None or self.confusion.has_none:
            return False
        if not hasattr(self, "_agrees"):
            one = _stack(self.score.batched(self.confusion.matrix[None]))[0]
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

    def bootstrap(self, rng, n_resamples, owner="score_confidence_interval"):
        """The scores of ``n_resamples`` bootstrap resamples, their matrices built in
        blocks within the budget (the same draws whatever the blocks)."""
        if self.cells is not None:
            return np.concatenate([self.of_full_counts(full) for full in cell_draws(
                self.confusion.matrix, self.n_samples, rng, n_resamples, owner)])
        return np.concatenate([self.of_weights(weights) for weights in instance_weights(
            rng, self.n_samples, n_resamples, False, self.entries(), owner)])

    def bayesian(self, rng, n_resamples, prior, owner="score_confidence_interval"):
        if self.cells is not None:
            alpha = self.confusion.matrix.astype(float) + _prior(prior, self.confusion)
            if self.confusion.has_none:  # single labels never reach MLCM's "none" class
                alpha[-1, :] = alpha[:, -1] = 0.0
            keep = np.flatnonzero(alpha.ravel() > 0)
            return np.concatenate([self.of_full_counts(full) for full in full_blocks(
                alpha, n_resamples, owner,
                lambda size: rng.dirichlet(alpha.ravel()[keep], size=size) * self.n_samples,
                keep)])
        return np.concatenate([self.of_weights(weights) for weights in instance_weights(
            rng, self.n_samples, n_resamples, True, self.entries(), owner)])

    def jackknife(self, rng):
        """``(values, multiplicities)`` of the leave-one-out (or leave-one-group-out) score."""
        if self.cells is not None:
            values = []
            for cell in self.cells:
                matrix = self.confusion.matrix.copy()
                matrix.flat[cell] -= 1
                values.append(self.score.of_confusion(replace(self.confusion, matrix=matrix)))
            return _stack(values), self.cell_counts.astype(float)
        n_groups = min(self.n_samples, _JACKKNIFE_GROUPS)
        groups = np.array_split(rng.permutation(self.n_samples), n_groups)
        entries = self.entries()
        side = int(round(entries ** 0.5))
        step = resample_block("score_confidence_interval", n_groups, entries,
                              f"a matrix of {side} x {side} cells")
        values = []
        for start in range(0, n_groups, step):  # the leave-group-out matrices, in blocks
            block = groups[start:start + step]
            weights = np.ones((len(block), self.n_samples))
            for row, members in enumerate(block):
                weights[row, members] = 0.0
            values.append(self.of_weights(weights))
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


# --- Intervals ------------------------------------------------------------------------------


def _percentile_interval(distribution, alpha):
    """Equal-tailed bounds; a score undefined in every resample (NaN) has NaN bounds."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns
        return (np.nanpercentile(distribution, 100 * alpha / 2, axis=0),
                np.nanpercentile(distribution, 100 * (1 - alpha / 2), axis=0))


def _bca_interval(distribution, estimate, jackknife, multiplicity, alpha):
    """scipy.stats.bootstrap's BCa bounds, with a jackknife whose values have
    multiplicities (cells of 1-D labels)."""
    below = (np.sum(distribution < estimate, axis=0) + np.sum(distribution <= estimate, axis=0))
    n = distribution.shape[0]
    proportion = np.clip(below / (2 * n), 0.5 / n, 1 - 0.5 / n)
    z0 = special.ndtri(proportion)
    weights = multiplicity.reshape((-1,) + (1,) * (jackknife.ndim - 1))
    mean = np.sum(weights * jackknife, axis=0) / weights.sum()
    spread = mean - jackknife
    numerator = np.sum(weights * spread ** 3, axis=0)
    denominator = 6 * np.sum(weights * spread ** 2, axis=0) ** 1.5
    acceleration = np.divide(numerator, denominator, out=np.zeros_like(numerator),
                             where=denominator > 0)
    bounds = []
    for z in (special.ndtri(alpha / 2), special.ndtri(1 - alpha / 2)):
        level = special.ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
        bounds.append(_percentiles(distribution, 100 * level))
    return bounds


def _percentiles(distribution, levels):
    """Percentile ``levels[j]`` of column ``j`` (one level for a 1-D distribution)."""
    if distribution.ndim == 1:
        return np.nanpercentile(distribution, float(levels))
    return np.array([np.nanpercentile(distribution[:, j], levels[j])
                     for j in range(distribution.shape[1])])


def _wilson(successes, trials, alpha):
    """Wilson's score interval of a binomial proportion, and the proportion's standard
    error; NaN where there are no trials (the caller applies the zero_division policy)."""
    z = special.ndtri(1 - alpha / 2)
    trials = np.asarray(trials, dtype=float)
    some = trials > 0
    safe = np.where(some, trials, 1.0)
    rate = np.divide(successes, safe)
    centre = (rate + z ** 2 / (2 * safe)) / (1 + z ** 2 / safe)
    half = z / (1 + z ** 2 / safe) * np.sqrt(rate * (1 - rate) / safe
                                             + z ** 2 / (4 * safe ** 2))
    se = np.sqrt(rate * (1 - rate) / safe)
    return tuple(np.where(some, x, np.nan) for x in (centre - half, centre + half, se))


def _undefined_as_estimate(data, low, high, se, undefined):
    """The estimate of ``data`` and its interval, where a score is undefined (a zero
    denominator) the interval of the ``zero_division`` value the estimate took (warning
    as the score functions do): that value in every resample, so a point, with standard
    error 0."""
    if not np.any(undefined):
        return data.estimate(), low, high, se
    estimate = np.asarray(data.score.of_confusion(data.confusion) if data.confusion is not None
                          else data.estimate(), dtype=float)
    shaped = [np.array(x, dtype=float) for x in (low, high, se)]
    low, high, se = (np.where(undefined, fill, x) for x, fill in
                     zip(shaped, (estimate, estimate, 0.0)))
    return estimate, low, high, se


def _delta(matrix, which, average, alpha, selection=None):
    """The delta method's interval of F1, recall or precision (``which``) on the multinomial
    cell proportions (Takahashi et al. 2022): per class, macro, or (F1) micro over the
    classes of ``selection`` (default all; each class's score reads its whole row and
    column)."""
    n = matrix.sum()
    p = matrix / n
    n_classes = p.shape[0]
    selection = np.arange(n_classes) if selection is None else np.asarray(selection)
    tp, rows, columns = np.diag(p), p.sum(axis=1), p.sum(axis=0)
    if average == "micro":  # F1: 2 T / D over the selected classes
        chosen = np.zeros(n_classes)
        chosen[selection] = 1.0
        total, denominator = tp @ chosen, (rows + columns) @ chosen
        values = np.array([2 * total / denominator if denominator > 0 else 0.0])
        gradients = np.zeros((1, n_classes, n_classes))
        if denominator > 0:
            gradients[0] = (2 * np.diag(chosen) / denominator
                            - 2 * total / denominator ** 2 * (chosen[:, None] + chosen[None]))
    else:
        values, gradients = _class_gradients(tp, rows, columns, which)
        values, gradients = values[selection], gradients[selection]
        if average == "macro":
            values, gradients = values.mean(keepdims=True), gradients.mean(axis=0,
                                                                           keepdims=True)
    flat = gradients.reshape(len(values), -1)
    cells = p.ravel()
    variance = (flat ** 2 @ cells - (flat @ cells) ** 2) / n
    se = np.sqrt(np.maximum(variance, 0))
    z = special.ndtri(1 - alpha / 2)
    return values, values - z * se, values + z * se, se


def _class_gradients(tp, rows, columns, which):
    """Each class's score and its gradient ``d score_k / d p_ij``, shape (C, C, C)."""
    n_classes = len(tp)
    denominator = {"f1": rows + columns, "recall": rows, "precision": columns}[which]
    numerator = 2 * tp if which == "f1" else tp
    values = np.divide(numerator, denominator, out=np.zeros_like(tp), where=denominator > 0)
    gradients = np.zeros((n_classes, n_classes, n_classes))
    for k in np.flatnonzero(denominator > 0):
        slope = numerator[k] / denominator[k] ** 2
        if which in ("f1", "recall"):  # the rest of its row
            gradients[k, k, :] -= slope
        if which in ("f1", "precision"):  # the rest of its column
            gradients[k, :, k] -= slope
        gradients[k, k, k] += (2 if which == "f1" else 1) / denominator[k]
    return values, gradients


def _analytic(data, alpha):
    """``(estimate, low, high, standard_error)`` of the closed forms, or ValueError."""
    score = data.score
    confusion = data.confusion
    if confusion is None and score.analytic is not None and np.ndim(data.y_true) == 1 \
            and np.ndim(data.y_pred) == 1:  # scikit-learn's proportions: the classic matrix
        (confusion,) = confusions(CLASSIC, data.y_true, data.y_pred, warn=False)
    single_label = confusion is not None and confusion.true_classes is not None and \
        not data._two_dimensional()
    if score.analytic is None or not single_label or data.sample_weight is not None:
        why = ("it has no closed form" if score.analytic is None else
               "closed forms are for 1-D class labels without sample_weight")
        raise ValueError(f"method='analytic' does not apply to score={score.name!r}: {why}. "
                         "Use method='percentile', 'basic', 'bca' or 'bayesian'.")
    if score.labels is not None and confusion.true_classes is not None:
        confusion = confusion_for_labels(confusion, score.labels)[0]  # as the estimate reads
    # Every class's score reads its whole row and column; labels= selects the classes.
    matrix = confusion.matrix[:-1, :-1] if confusion.has_none else confusion.matrix
    selection = np.arange(len(matrix)) if confusion.selection is None else \
        np.asarray([i for i in confusion.selection if i < len(matrix)])
    average = score.average
    if score.analytic == "accuracy":
        chosen = matrix[np.ix_(selection, selection)]
        low, high, se = _wilson(np.trace(chosen), chosen.sum(), alpha)
        return data.estimate(), float(low), float(high), float(se)
    if average == "binary":
        matrix, selection = _binary(matrix), np.array([1])
    if score.analytic in ("precision", "recall") and average in ("binary", None, "micro"):
        trials = matrix.sum(axis=0 if score.analytic == "precision" else 1)[selection]
        successes = np.diag(matrix)[selection]
        if average == "micro":
            successes, trials = successes.sum(), trials.sum()
        low, high, se = _wilson(successes, trials, alpha)
        if average == "binary":
            low, high, se, trials = low[0], high[0], se[0], trials[0]
        return _undefined_as_estimate(data, low, high, se, trials == 0)
    if average in ("binary", None, "macro") or score.analytic == "f1" and average == "micro":
        _, low, high, se = _delta(matrix, score.analytic, None if average == "binary"
                                  else average, alpha, selection)
        pick = slice(None) if average is None else 0
        undefined = False
        if average in ("binary", None):
            denominator = {"f1": matrix.sum(axis=0) + matrix.sum(axis=1),
                           "recall": matrix.sum(axis=1),
                           "precision": matrix.sum(axis=0)}[score.analytic][selection]
            undefined = (denominator == 0)[pick]
        return _undefined_as_estimate(data, low[pick], high[pick], se[pick],
                                      undefined)
    raise ValueError(f"method='analytic' does not apply to score={score.name!r} with "
                     f"average={average!r}: Wilson intervals are for accuracy and binary, "
                     "per-class or micro recall and precision, the delta method for "
                     "binary, per-class, micro and macro F1 and macro recall and precision. "
                     "Use method='percentile', 'basic', "
                     "'bca' or 'bayesian'.")


def _binary(matrix):
    if matrix.shape != (2, 2):
        raise ValueError(f"average='binary' needs two classes; the matrix has "
                         f"{matrix.shape[0]}.")
    return matrix


@validate_params()
def score_confidence_interval(y_true, y_pred, *, score="tcm_f1_macro", method="bca",
                              confidence_level=0.95, n_resamples=9999, sample_weight=None,
                              random_state=None, n_jobs=None, kind=None, prior=None,
                              **score_params):
    """Confidence interval of a score: bootstrap, Bayesian or closed-form.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Targets of any kind the library takes (1-D labels, labels against probabilities,
        multi-label indicators, soft labels).
    score : str or callable, default="tcm_f1_macro"
        A scorer name of :func:`get_scorer_names` that scores targets (``tcm_*``,
        ``mlcm_*``, ``generalized_means``, ``symmetric_balanced_accuracy``,
        ``neg_correlation_distance``, ``neg_confusion_entropy``); a metric
        ``f(y_true, y_pred, *, sample_weight=None, **score_params)`` of this library or of
        scikit-learn; or, with ``kind``, a matrix-level function ``f(confusion)``.
        On 1-D labels this library's scores and scikit-learn's ``accuracy_score``,
        ``precision_score``, ``recall_score`` and ``f1_score`` are read off the resampled
        confusion cells, over the classes of the data in every resample (as if
        ``labels=`` named them); another callable is called on each resample's targets.
    method : {"percentile", "basic", "bca", "bayesian", "analytic"}, default="bca"
        ``"percentile"``, ``"basic"`` and ``"bca"``: the bootstrap over instances, with
        :func:`scipy.stats.bootstrap`'s definitions. ``"bayesian"``: on 1-D labels the
        Dirichlet posterior of the confusion cells (counts plus ``prior``), otherwise the
        Bayesian bootstrap; equal-tailed. ``"analytic"``: Wilson's interval for accuracy
        and binary, per-class or micro recall and precision, the delta method (Takahashi
        et al. 2022) for binary, per-class, micro and macro F1 and macro recall and
        precision, on 1-D labels.
    confidence_level : float, default=0.95
        In (0, 1).
    n_resamples : int, default=9999
        Resamples (or posterior draws).
    sample_weight : array-like of shape (n_samples,), default=None
    random_state : int, numpy.random.Generator or None, default=None
    n_jobs : int, default=None
        Threads of the matrix builders.
    kind : str, default=None
        The matrix of a matrix-level ``score``: a kind of :class:`ConfusionAccumulator`
        ("classic", "transport", "mlcm", ...).
    prior : float, {"uniform", "perks"}, array-like or None, default=None
        The Dirichlet prior of ``method="bayesian"`` on 1-D labels, added to the cell
        counts as in :func:`dirichlet_posterior`. None adds nothing: the posterior over
        the observed cells, which is the Bayesian bootstrap of the instances; a prior of
        1 per cell adds ``C`` pseudo-counts to each row and pulls every score towards
        chance at many classes (its intervals then miss the true value).
    **score_params
        Keywords of the score (``average=None`` gives one interval per class).

    Returns
    -------
    ConfidenceIntervalResult

    Examples
    --------
    >>> from sklearn_confusion_ext import score_confidence_interval
    >>> y_true = [0, 0, 1, 1, 2, 2] * 20
    >>> y_pred = [0, 1, 1, 1, 2, 0] * 20
    >>> result = score_confidence_interval(y_true, y_pred, score="tcm_accuracy",
    ...                                    random_state=0)
    >>> round(result.estimate, 3), round(result.low, 2), round(result.high, 2)
    (0.667, 0.57, 0.75)
    >>> result = score_confidence_interval(y_true, y_pred, score="tcm_accuracy",
    ...                                    method="analytic")
    >>> round(result.low, 3), round(result.high, 3)
    (0.578, 0.745)
    """
    resolved = _resolve_score(score, kind, score_params, "score_confidence_interval")
    resolved = replace(resolved, n_jobs=n_jobs, on_cells=resolved.on_cells and replace(
        resolved.on_cells, n_jobs=n_jobs))
    _check_weighted(resolved, sample_weight, method, "score_confidence_interval")
    data = _data(resolved, y_true, y_pred, sample_weight)
    confidence_level = float(confidence_level)
    alpha = 1 - confidence_level
    if method == "analytic":
        estimate, low, high, se = _analytic(data, alpha)
        return ConfidenceIntervalResult(
            estimate=_scalar(estimate), low=_scalar(low), high=_scalar(high),
            standard_error=_scalar(se), distribution=None, method=method,
            confidence_level=confidence_level)
    rng = np.random.default_rng(random_state)
    estimate = data.estimate()
    check_result_size("score_confidence_interval", (n_resamples, np.size(estimate)),
                      f"a distribution of n_resamples={n_resamples} resamples of "
                      f"{np.size(estimate)} values", "Pass fewer n_resamples or an average")
    if method == "bayesian":
        distribution = _quiet(data.bayesian, rng, n_resamples, prior)
    else:
        distribution = _quiet(data.bootstrap, rng, n_resamples)
    if method in ("percentile", "bayesian"):
        low, high = _percentile_interval(distribution, alpha)
    elif method == "basic":
        upper, lower = _percentile_interval(distribution, alpha)
        low, high = 2 * np.asarray(estimate) - lower, 2 * np.asarray(estimate) - upper
    else:
        jackknife, multiplicity = _quiet(data.jackknife, rng)
        low, high = _bca_interval(distribution, np.asarray(estimate), jackknife, multiplicity,
                                  alpha)
    standard_error = np.std(distribution, axis=0, ddof=1)
    return ConfidenceIntervalResult(
        estimate=_scalar(estimate), low=_scalar(low), high=_scalar(high),
        standard_error=_scalar(standard_error), distribution=distribution, method=method,
        confidence_level=confidence_level)


def _scalar(value):
    value = np.asarray(value, dtype=float)
    return float(value) if value.ndim == 0 else value


# --- Paired comparisons ---------------------------------------------------------------------


@validate_params()
def mcnemar_table(y_true, y_pred_a, y_pred_b, *, sample_weight=None):
    """The 2 x 2 table of two classifiers' correct and wrong predictions, for McNemar.

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b : array-like of shape (n_samples,)
        Class labels.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    ndarray of shape (2, 2)
        ``[[both correct, a correct and b wrong], [a wrong and b correct, both wrong]]``;
        :func:`mcnemar_test` reads its off-diagonal cells.

    Examples
    --------
    >>> from sklearn_confusion_ext import mcnemar_table
    >>> mcnemar_table([0, 1, 1, 0], [0, 1, 0, 0], [0, 0, 1, 1])
    array([[1., 2.],
           [1., 0.]])
    """
    y_true, y_pred_a, y_pred_b = _paired_labels(y_true, y_pred_a, y_pred_b)
    weight = check_sample_weight(sample_weight, y_true.shape[0])
    wrong_a, wrong_b = (np.asarray(y_true.multiply(y).sum(axis=1)).ravel() == 0
                        for y in (y_pred_a, y_pred_b))
    cells = 2 * wrong_a + wrong_b
    return np.bincount(cells, weights=weight, minlength=4).reshape(2, 2).astype(float)


def _paired_labels(y_true, y_pred_a, y_pred_b):
    """The three targets as 1-D labels checked as the builders check them (one set of
    classes): their one-hot CSR rows."""
    dims = {name: np.ndim(y) for name, y in
            (("y_true", y_true), ("y_pred_a", y_pred_a), ("y_pred_b", y_pred_b))}
    for name, ndim in dims.items():
        if ndim != 1:
            raise ValueError(f"{name} must be 1-D class labels here; got {ndim} dimensions.")
    masses = check_target_set({"y_true": y_true, "y_pred_a": y_pred_a,
                               "y_pred_b": y_pred_b}).masses
    if len({y.shape[0] for y in masses}) > 1:
        raise ValueError("y_true, y_pred_a and y_pred_b must have the same number of samples; "
                         f"got {[y.shape[0] for y in masses]}.")
    return masses


def _named(name, function, *args):
    """``function(*args)`` with ``y_pred`` called ``name`` in the messages of bad input."""
    try:
        return function(*args)
    except (TypeError, ValueError) as error:
        raise type(error)(re.sub(r"\by_pred\b", name, str(error))) from None


@validate_params()
def compare_scores(y_true, y_pred_a, y_pred_b, *, score=None, method="bootstrap",
                   confidence_level=0.95, n_resamples=9999, alternative="two-sided",
                   sample_weight=None, random_state=None, kind=None, **score_params):
    """Paired comparison of one score between two classifiers on the same instances.

    Parameters
    ----------
    y_true : array-like or sparse matrix
    y_pred_a, y_pred_b : array-like or sparse matrix
        The two classifiers' predictions of the same instances.
    score, kind, **score_params
        As in :func:`score_confidence_interval` (a score with one value). None:
        ``"tcm_f1_macro"``, or the accuracy for ``method="mcnemar"``, which compares
        accuracies only (another score is refused).
    method : {"bootstrap", "permutation", "bayesian", "mcnemar"}, default="bootstrap"
        ``"bootstrap"``: instances resampled jointly, the interval of the difference by
        percentiles, the p-value from the differences shifted to the null.
        ``"permutation"``: each instance's two predictions swapped with probability 1/2;
        the p-value of the observed difference among the swapped ones (the interval is the
        bootstrap's); when ``2 ** n_samples <= n_resamples`` every subset of swapped
        instances is enumerated once and the p-value is exact. ``"bayesian"``: the Bayesian
        bootstrap; the p-value is twice the posterior probability of the smaller side
        (one-sided: of the side against the alternative). ``"mcnemar"``: 1-D labels, the
        accuracy difference, with
        :func:`mcnemar_table` and :func:`mcnemar_test` (exact) and a Wald interval of the
        paired difference of proportions; its counts are instances, so ``sample_weight``
        must hold frequencies (integers).
    confidence_level : float, default=0.95
    n_resamples : int, default=9999
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": ``a`` scores higher than ``b``.
    sample_weight : array-like of shape (n_samples,), default=None
        Refused for a metric callable without a ``sample_weight`` parameter (which is
        called without it otherwise).
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    ComparisonResult

    Notes
    -----
    p-values, with ties. A null value (resampled, swapped or posterior difference) within
    ``1e-12 * max(1, |d|)`` of the observed difference ``d`` counts as at least as
    extreme. Drawn null values give ``(1 + k) / (1 + B)`` (``k`` extreme among ``B``),
    never 0; the exact permutation test ``k / 2 ** n``. The Bayesian p-value counts a
    difference of 0 on both sides of 0, as ``(1 + k) / (1 + B)``, doubled when
    two-sided, at most 1. So identical predictions (a difference always 0) give 1 with
    every method. Degenerate distributions warn (``RuntimeWarning``): a bootstrap whose
    resamples all give the same nonzero difference (one instance, say), and a posterior
    that never changes sign (every instance on which the two differ favours one of
    them, even a single instance); their p-value is then the floor of the draws.

    Examples
    --------
    >>> from sklearn_confusion_ext import compare_scores
    >>> y_true = [0, 1, 2] * 30
    >>> good, poor = [0, 1, 2] * 28 + [1, 1, 1] * 2, [0, 1, 1] * 30
    >>> result = compare_scores(y_true, good, poor, score="tcm_accuracy", random_state=0)
    >>> round(result.difference, 3), result.pvalue < 0.01
    (0.289, True)
    >>> compare_scores(y_true, good, poor, method="mcnemar").pvalue < 0.01
    True
    """
    confidence_level = float(confidence_level)
    alpha = 1 - confidence_level
    if method == "mcnemar":
        if score is not None and score not in _ACCURACIES or kind is not None or score_params:
            raise ValueError(f"method='mcnemar' compares accuracies; got score={score!r}"
                             f"{' and score keywords' if score_params or kind else ''}. Leave "
                             "score=None, or use method='bootstrap', 'permutation' or "
                             "'bayesian' for another score.")
        return _mcnemar_comparison(y_true, y_pred_a, y_pred_b, sample_weight, alpha,
                                   confidence_level, alternative)
    _warn_kinds_differ(y_pred_a, y_pred_b)
    score = "tcm_f1_macro" if score is None else score
    resolved = _resolve_score(score, kind, score_params, "compare_scores")
    _check_weighted(resolved, sample_weight, method, "compare_scores")
    first = _named("y_pred_a", _data, resolved, y_true, y_pred_a, sample_weight)
    second = _named("y_pred_b", _data, resolved, y_true, y_pred_b, sample_weight)
    difference = first.estimate() - second.estimate()
    if np.ndim(difference) != 0:
        raise ValueError(f"compare_scores compares one value; score={resolved.name!r} gives "
                         f"{np.size(difference)}: pass an average (e.g. average='macro').")
    rng = np.random.default_rng(random_state)
    distribution = _quiet(_paired_values, first, second, rng, n_resamples,
                          method == "bayesian")
    low, high = _percentile_interval(distribution, alpha)
    if method == "permutation":
        n_swaps = first.n_samples
        exact = n_swaps < 63 and 2 ** n_swaps <= n_resamples
        null = _quiet(_swapped_values, first, second, y_true, y_pred_a, y_pred_b, rng,
                      n_resamples, exact)
        pvalue = _tail_pvalue(null, difference, alternative, exact=exact)
        distribution = null
    elif method == "bayesian":
        pvalue = _posterior_pvalue(distribution, alternative)
    else:  # the bootstrap differences shifted to the null hypothesis
        _warn_degenerate(distribution, difference)
        pvalue = _tail_pvalue(distribution - difference, difference, alternative)
    return ComparisonResult(difference=float(difference), low=float(low), high=float(high),
                            pvalue=float(pvalue), method=method,
                            confidence_level=confidence_level, alternative=alternative,
                            distribution=distribution)


def _target_kind(y):
    """"labels" (1-D), "indicator" (2-D of 0 and 1) or "scores" (other 2-D); None where
    it cannot be read before validation (dok and lil sparse formats)."""
    if np.ndim(y) != 2 or np.shape(y)[1] == 1:
        return "labels"
    if sp.issparse(y):
        # Read before validation: only the stored values, never SciPy's compiled code (a
        # malformed structure would corrupt memory there); dok and lil store no value array.
        values = getattr(y, "data", None)
        if not isinstance(values, np.ndarray) or values.dtype == object:
            return None
    else:
        values = np.asarray(y)
    try:
        return "indicator" if np.isin(values, (0, 1)).all() else "scores"
    except TypeError:
        return "labels"


def _warn_kinds_differ(y_pred_a, y_pred_b):
    """Warn where the two predictions are of different target kinds (one model's
    probabilities against its own argmax is no comparison of two classifiers alike)."""
    kinds = _target_kind(y_pred_a), _target_kind(y_pred_b)
    if None not in kinds and kinds[0] != kinds[1]:
        warn(f"y_pred_a holds {kinds[0]} and y_pred_b {kinds[1]}: the two scores read "
             "different kinds of prediction (say, probabilities against hard labels), so "
             "their difference mixes the kind with the classifier. Compare predictions of "
             "the same kind.", UserWarning)


def _paired_values(first, second, rng, n_resamples, bayesian):
    """Differences of the score over instances resampled jointly (``bayesian``: the
    Bayesian bootstrap's Dirichlet weights)."""
    if first.cells is not None and second.cells is not None:
        return _paired_cell_values(first, second, rng, n_resamples, bayesian)
    entries = max(first.entries(), second.entries())
    return np.concatenate([first.of_weights(weights) - second.of_weights(weights)
                           for weights in instance_weights(rng, first.n_samples, n_resamples,
                                                            bayesian, entries,
                                                            "compare_scores")])


def _paired_cell_values(first, second, rng, n_resamples, bayesian):
    """The same on 1-D labels: the distinct pairs (cell of a, cell of b) of the instances
    are resampled (multinomial, or Dirichlet for the Bayesian bootstrap), never the
    instances."""
    pairs = _CellPairs(first, second)
    n_samples = pairs.counts.sum()
    values = []
    for size in pairs.batches(n_resamples):
        if bayesian:
            resampled = rng.dirichlet(pairs.counts.astype(float), size=size) * n_samples
        else:
            resampled = rng.multinomial(n_samples, pairs.counts / n_samples, size=size)
        values.append(first.of_full_counts(pairs.of_a(resampled))
                      - second.of_full_counts(pairs.of_b(resampled)))
    return np.concatenate(values)


class _CellPairs:
    """The distinct pairs (cell of a, cell of b) of the instances of two classifiers'
    1-D labels, with their counts; matrices from counts per pair are sparse products."""

    def __init__(self, first, second):
        pairs, self.counts = np.unique(np.stack([first.instance_cells(),
                                                 second.instance_cells()], axis=1),
                                       axis=0, return_counts=True)
        self._cells = [sp.csr_array((np.ones(len(pairs)), (np.arange(len(pairs)), cells)),
                                    shape=(len(pairs), data.confusion.matrix.size))
                       for data, cells in ((first, pairs[:, 0]), (second, pairs[:, 1]))]

    def batches(self, n_resamples):
        """Sizes of batches of resamples whose counts per pair and full matrices take 64
        MiB and the budget at most (a matrix or the pairs of one resample above the budget
        is refused before anything is drawn)."""
        size = max(matrix.shape[1] for matrix in self._cells)
        side = int(round(size ** 0.5))
        batch = resample_block("compare_scores", n_resamples, max(len(self.counts), size),
                               f"matrices of {side} x {side} cells from "
                               f"{len(self.counts)} pairs of cells")
        return [min(batch, n_resamples - start) for start in range(0, n_resamples, batch)]

    def of_a(self, counts):
        """Full matrices of a (flattened rows) from ``counts`` per pair (rows)."""
        return np.asarray((self._cells[0].T @ counts.T).T, dtype=float)

    def of_b(self, counts):
        return np.asarray((self._cells[1].T @ counts.T).T, dtype=float)


def _all_swaps(n_samples):
    """Every subset of the instances, as rows of 0/1 indicators (``2 ** n_samples`` rows)."""
    return ((np.arange(2 ** n_samples)[:, None] >> np.arange(n_samples)) & 1).astype(float)


def _swapped_values(first, second, y_true, y_pred_a, y_pred_b, rng, n_resamples,
                    exact=False):
    """Differences with each instance's two predictions swapped with probability 1/2
    (``exact``: under each of the ``2 ** n`` subsets of swapped instances, once).

    When every swap gives matrices over the same classes as the data's (2-D targets, or
    labels whose predictions name only classes of ``y_true``), the swapped matrices are
    the data's two matrices under complementary instance weights, built for many swaps at
    once; on 1-D labels without weights, the swaps are drawn per pair of cells (a binomial
    count), never per instance. Otherwise each swap is scored from its targets."""
    all_swaps = _all_swaps(first.n_samples) if exact else None
    if _same_classes(first, second):
        if first.cells is not None and second.cells is not None and not exact:
            return _swapped_cell_values(first, second, rng, n_resamples)
        if first.batches():
            values = []
            entries = first.entries()
            if exact:
                step = resample_block("compare_scores", len(all_swaps), entries,
                                      "one matrix of the exact permutation test")
                blocks = (all_swaps[start:start + step]
                          for start in range(0, len(all_swaps), step))
            else:
                blocks = swap_indicators(rng, first.n_samples, n_resamples, entries,
                                         "compare_scores")
            for swaps in blocks:
                kept = 1.0 - swaps
                swapped_a = first.matrices(kept) + second.matrices(swaps)
                swapped_b = first.matrices(swaps) + second.matrices(kept)
                values.append(first.of_full_counts(swapped_a)
                              - first.of_full_counts(swapped_b))
            return np.concatenate(values)
    values = np.empty(n_resamples if all_swaps is None else len(all_swaps))
    a, b = (np.asarray(y) for y in (y_pred_a, y_pred_b))
    for row in range(len(values)):
        swap = rng.random(len(a)) < 0.5 if all_swaps is None else all_swaps[row] > 0
        if a.ndim == 2:
            swap = swap[:, None]
        values[row] = (first.score.on_targets(y_true, np.where(swap, b, a), first.sample_weight)
                       - first.score.on_targets(y_true, np.where(swap, a, b),
                                                first.sample_weight))
    return values


def _same_classes(first, second):
    """Whether the two classifiers' matrices, and any swap of their predictions, are over
    the same classes (so that their full matrices add cell by cell)."""
    one, other = first.confusion, second.confusion
    if one is None or other is None or one.matrix.shape != other.matrix.shape or \
            list(one.display_labels) != list(other.display_labels):
        return False
    if one.true_classes is None:  # 2-D targets: the classes are the columns
        return True
    classes = one.display_labels[:len(one.display_labels) - one.has_none]
    return len(classes) == len(one.true_classes)  # no class only predicted


def _swapped_cell_values(first, second, rng, n_resamples):
    """:func:`_swapped_values` on 1-D labels without weights: the instances of one pair
    (cell of ``a``, cell of ``b``) swap in a binomial number."""
    pairs = _CellPairs(first, second)
    values = []
    for size in pairs.batches(n_resamples):
        swapped = rng.binomial(pairs.counts, 0.5, size=(size, len(pairs.counts)))
        kept = pairs.counts - swapped
        values.append(first.of_full_counts(pairs.of_a(kept) + pairs.of_b(swapped))
                      - first.of_full_counts(pairs.of_b(kept) + pairs.of_a(swapped)))
    return np.concatenate(values)


def _tie_tolerance(observed):
    """Null values this close to ``observed`` tie with it: a swapped or resampled difference
    equal to the observed one in exact arithmetic may differ from it by rounding."""
    return 1e-12 * max(1.0, abs(float(observed)))


def _tail_pvalue(null, observed, alternative, exact=False):
    """The share of null values at least as extreme as ``observed``, ties (within
    :func:`_tie_tolerance`) counted as extreme. Drawn null values: the observed one is
    counted too, ``(1 + k) / (1 + B)``, so never 0; ``exact``: ``null`` is the whole null
    distribution (it holds the observed value), ``k / B``."""
    null = null[np.isfinite(null)]
    gamma = _tie_tolerance(observed)
    if alternative == "greater":
        extreme = np.sum(null >= observed - gamma)
    elif alternative == "less":
        extreme = np.sum(null <= observed + gamma)
    else:
        extreme = np.sum(np.abs(null) >= abs(observed) - gamma)
    if exact:
        return min(1.0, extreme / null.size)
    return min(1.0, (1 + extreme) / (1 + null.size))


def _posterior_pvalue(distribution, alternative):
    """The Bayesian bootstrap's p-value: the posterior probability of the side of 0 against
    the alternative, a difference of 0 (within :func:`_tie_tolerance`) counted on both
    sides; two-sided, twice the smaller of the two (at most 1). As a Monte Carlo estimate
    from B draws it is ``(1 + k) / (1 + B)``, so never 0; it warns where no draw falls on
    that side (the posterior never changes sign)."""
    values = distribution[np.isfinite(distribution)]
    gamma = _tie_tolerance(0.0)
    at_most, at_least = np.sum(values <= gamma), np.sum(values >= -gamma)
    sides = {"greater": at_most, "less": at_least, "two-sided": min(at_most, at_least)}
    pvalue = (1 + sides[alternative]) / (1 + values.size)
    if alternative == "two-sided":
        pvalue = 2 * pvalue
    if sides[alternative] == 0:
        warn(f"the posterior differences never fall on the other side of 0 (all "
             f"{values.size} draws {'above' if at_most == 0 else 'below'} 0), so the "
             "p-value is only the floor of the draws, 1 / (n_resamples + 1) (two-sided: "
             "twice that). The Bayesian bootstrap gives no weight to instances it has not "
             "seen: where every instance on which the two classifiers differ favours the "
             "same one (even a single instance), its difference never changes sign "
             "whatever the evidence; use method='permutation' or 'mcnemar' for a test.",
             RuntimeWarning)
    return min(1.0, float(pvalue))


def _warn_degenerate(distribution, difference):
    """Warn where every bootstrap resample gives the same nonzero difference: the
    shifted-to-the-null p-value is then its floor, 1 / (n_resamples + 1), whatever the data
    (scipy.stats.bootstrap warns on degenerate distributions too)."""
    values = distribution[np.isfinite(distribution)]
    if values.size and abs(float(difference)) > _tie_tolerance(difference) and \
            np.ptp(values) <= _tie_tolerance(difference):
        warn(f"every bootstrap resample gives the same difference ({float(values[0]):.6g}): "
             "the bootstrap distribution is degenerate (one instance, or instances that "
             "all favour one classifier alike), and its p-value is its floor, "
             "1 / (n_resamples + 1), whatever the number of instances; use "
             "method='permutation' or 'mcnemar' for a test.", RuntimeWarning)


def _mcnemar_comparison(y_true, y_pred_a, y_pred_b, sample_weight, alpha, confidence_level,
                        alternative):
    table = mcnemar_table(y_true, y_pred_a, y_pred_b, sample_weight=sample_weight)
    weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)  # checked
    if weight is not None and not np.array_equal(weight, np.round(weight)):
        raise ValueError("method='mcnemar' counts instances: sample_weight must hold "
                         "frequencies (non-negative integers); scaled weights would change "
                         "its p-value. Use method='bootstrap' or 'permutation' for other "
                         "weights.")
    n = table.sum()
    if n == 0:
        raise ValueError("method='mcnemar' counts instances, but sample_weight is 0 on all "
                         f"{len(weight)} of them: there is no instance to compare on. Give "
                         "some instance a positive weight.")
    only_a, only_b = table[0, 1], table[1, 0]
    difference = (only_a - only_b) / n
    se = np.sqrt(max(only_a + only_b - (only_a - only_b) ** 2 / n, 0.0)) / n
    z = special.ndtri(1 - alpha / 2)
    if only_a + only_b == 0:
        pvalue = 1.0
    else:  # mcnemar_test reads n_12 = a right and b wrong against n_21 (exact: counts)
        pvalue = float(_quiet(lambda: mcnemar_test(table, exact=True,
                                                   alternative=alternative).pvalue))
    return ComparisonResult(difference=float(difference), low=float(difference - z * se),
                            high=float(difference + z * se), pvalue=pvalue, method="mcnemar",
                            confidence_level=confidence_level, alternative=alternative,
                            distribution=None)

