"""Probabilities against class labels, read once, and the bins calibration is measured in.

:func:`checked_probabilities` turns ``(y_true, y_prob)`` (1-D class labels beside a 1-D
positive-class probability or a classifier's ``(n_samples, n_classes)`` ``predict_proba``)
into the class code of each instance, the probabilities, the classes and the checked
weights; :func:`curves` gives the (confidence, outcome) pairs a target reads
(``"binary"``, ``"top_label"``, ``"classwise"``); :func:`binned` sums one of them in bins by
``np.searchsorted`` and ``np.bincount``, never a loop over instances.

Bins are scikit-learn's (:func:`sklearn.calibration.calibration_curve`): equal width on
[0, 1] or at the quantiles of the probabilities, an instance on an inner edge in the bin
below it (bins ``[0, e_1], (e_1, e_2], ...``), empty bins dropped.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import UndefinedMetricWarning

from .._core.conversion import _as_target
from .._core.params import quoted
from .._core.targets import check_target_set
from .._core.user_warnings import warn
from .._core.weights import check_sample_weight

STRATEGIES = ("uniform", "quantile")


@dataclass(frozen=True)
class Probabilities:
    """Checked probabilities beside class labels.

    ``codes``: the position in ``classes`` of each instance's class (-1 for a 1-D
    ``y_prob``'s negative class absent from ``classes``); ``prob``: (n,) positive-class
    probabilities (``binary``) or (n, n_classes) rows summing to 1; ``positive``: the
    position of the positive class (binary 1-D ``y_prob``); ``sample_weight``: checked."""

    codes: np.ndarray
    prob: np.ndarray
    classes: np.ndarray
    positive: int
    sample_weight: object

    @property
    def one_dimensional(self):
        return self.prob.ndim == 1


def _default_pos_label(classes, owner):
    """scikit-learn's rule: with ``pos_label=None`` the classes must be {0, 1}, {-1, 1}
    or one of them, and the positive class is 1."""
    values = classes.tolist()
    if classes.dtype.kind in "biuf" and (all(v in (0, 1) for v in values)
                                         or all(v in (-1, 1) for v in values)):
        return 1
    raise ValueError(f"{owner}: y_true holds the classes {quoted(classes)}, which are not "
                     "{0, 1} nor {-1, 1}; pass pos_label= to name the class whose "
                     "probability y_prob is.")


def checked_probabilities(owner, y_true, y_prob, *, labels=None, pos_label=None,
                          sample_weight=None):
    """The :class:`Probabilities` of 1-D labels ``y_true`` beside ``y_prob``.

    A 1-D ``y_prob`` is the probability of the positive class: ``y_true`` holds at most
    two classes (``labels``, given, names them) and the positive class is ``pos_label``
    (default: ``labels[-1]`` where given, else scikit-learn's rule, 1 for {0, 1} and
    {-1, 1}). A 2-D ``y_prob`` is read as the library reads a classifier's
    ``predict_proba`` beside labels: its columns are the classes ``labels`` names (default:
    the sorted labels of ``y_true``, one per column), its rows divided by their sums (a
    warning where they are not 1)."""
    prob = _as_target("y_prob", y_prob)
    if prob.ndim == 1:
        if prob.dtype.kind not in "biuf":
            raise ValueError(f"y_prob must hold probabilities (numbers in [0, 1]); got "
                             f"dtype {prob.dtype}.")
        prob = prob.astype(np.float64, copy=False)
        bad = ~((prob >= 0) & (prob <= 1))  # NaN is outside
        if bad.any():
            row = int(np.argmax(bad))
            raise ValueError(f"y_prob has values outside [0, 1] (row {row}: {prob[row]!r}); "
                             "a 1-D y_prob is the probability of the positive class.")
        if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
            raise ValueError(f"y_true must be 1-D class labels; got an array of shape "
                             f"{np.shape(y_true)}.")
        target_set = check_target_set({"y_true": y_true}, labels, one_hot=False)
        codes, classes = target_set.codes[0], target_set.classes
        if codes.shape[0] != prob.shape[0]:
            raise ValueError(f"y_true and y_prob must have the same number of samples; got "
                             f"{codes.shape[0]} and {prob.shape[0]}.")
        if len(classes) > 2:
            raise ValueError(f"y_true holds {len(classes)} classes {quoted(classes)}, but a "
                             "1-D y_prob is the probability of one class of two; pass the "
                             "(n_samples, n_classes) probabilities (predict_proba).")
        if target_set.selection is not None:  # labels= given: in its order
            selection = np.asarray(target_set.selection)
            if selection.size != len(classes):
                missing = np.delete(classes, selection)
                raise ValueError(f"y_true holds class labels {quoted(missing)} that are not "
                                 f"in labels {quoted(classes[selection])}: beside a 1-D "
                                 "y_prob, labels names both classes.")
            codes = np.argsort(selection)[codes]
            classes = classes[selection]
        if pos_label is None:
            pos_label = classes[-1] if labels is not None else _default_pos_label(classes,
                                                                                  owner)
        matches = np.flatnonzero(classes == np.asarray(pos_label, dtype=classes.dtype)) \
            if _comparable(pos_label, classes) else np.array([], dtype=int)
        if matches.size == 0:
            if len(classes) == 2 or labels is not None:
                raise ValueError(f"pos_label={pos_label!r} is not a class of y_true "
                                 f"{quoted(classes)}.")
            # one class only, not the positive one: every instance is negative
            classes, positive = np.append(classes, np.asarray(pos_label,
                                                              dtype=classes.dtype)), 1
        else:
            positive = int(matches[0])
        weights = check_sample_weight(sample_weight, prob.shape[0])
        return Probabilities(codes, prob, classes, positive, weights)
    if np.ndim(y_true) != 1 and not (np.ndim(y_true) == 2 and np.shape(y_true)[1] == 1):
        raise ValueError(f"y_true must be 1-D class labels beside 2-D y_prob; got an array "
                         f"of shape {np.shape(y_true)}.")
    target_set = check_target_set({"y_true": y_true, "y_prob": y_prob}, labels)
    if target_set.one_hot != ("y_true",):
        raise ValueError("y_true must be 1-D class labels beside 2-D y_prob.")
    truth, prob = target_set.masses
    codes = np.asarray(truth.indices, dtype=np.intp) if sp.issparse(truth) else \
        np.argmax(truth, axis=1)
    if sp.issparse(prob):
        prob = prob.toarray()
    tolerance = np.sqrt(np.finfo(prob.dtype).eps)  # the warning's (target_kinds.py)
    prob = np.asarray(prob, dtype=np.float64)
    if codes.shape[0] != prob.shape[0]:
        raise ValueError(f"y_true and y_prob must have the same number of samples; got "
                         f"{codes.shape[0]} and {prob.shape[0]}.")
    norms = np.asarray(target_set.norms[1], dtype=np.float64)
    if not norms.all():
        row = int(np.argmin(norms))
        raise ValueError(f"y_prob's row {row} sums to 0: it gives no class any probability; "
                         "pass predict_proba's probabilities.")
    off = np.abs(norms - 1.0) > tolerance
    if off.any():  # read as probabilities, each row divided by its sum (warned above);
        # rows within rounding of 1 are kept as given, as scikit-learn reads them
        prob = prob / np.where(off, norms, 1.0)[:, None]
    weights = check_sample_weight(sample_weight, prob.shape[0])
    positive = prob.shape[1] - 1
    if pos_label is not None:
        classes = target_set.classes
        matches = np.flatnonzero(classes == np.asarray(pos_label, dtype=classes.dtype)) \
            if _comparable(pos_label, classes) else np.array([], dtype=int)
        if matches.size == 0:
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes "
                             f"{quoted(classes)} of y_prob's columns.")
        positive = int(matches[0])
    return Probabilities(codes, prob, np.asarray(target_set.classes), positive, weights)


def _comparable(value, classes):
    """Whether ``value`` can be a class among ``classes`` (a string among strings, a
    number among numbers)."""
    if classes.dtype.kind in "US" or classes.dtype.kind == "O":
        return isinstance(value, str) or classes.dtype.kind == "O"
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)


def curves(data, target):
    """``[(class_label, confidence, outcome)]``: the curves ``target`` reads.

    - ``"binary"``: the positive class's probability and whether the instance is of it;
    - ``"top_label"``: the largest probability and whether its class is the instance's
      (a tie goes to the first class, as ``argmax``); class label None;
    - ``"classwise"``: each class's probability against the class, one vs rest.
    ``outcome`` is boolean; no (n, n_classes) array is copied."""
    codes, prob = data.codes, data.prob
    if data.one_dimensional:
        truth = codes == data.positive
        if target == "binary":
            return [(data.classes[data.positive], prob, truth)]
        if target == "top_label":
            return [(None, np.maximum(prob, 1 - prob), (prob > 1 - prob) == truth)]
        negative = 1 - data.positive
        curves_ = [(data.classes[negative], 1 - prob, ~truth),
                   (data.classes[data.positive], prob, truth)]
        return curves_ if negative == 0 else curves_[::-1]
    if target == "binary":
        if prob.shape[1] != 2:
            raise ValueError(f"target='binary' reads the probability of one class of two, "
                             f"but y_prob has {prob.shape[1]} columns; use "
                             "target='top_label' or target='classwise'.")
        return [(data.classes[data.positive], prob[:, data.positive],
                 codes == data.positive)]
    if target == "top_label":
        predicted = prob.argmax(axis=1)  # one read: the largest is the argmax's entry
        return [(None, prob[np.arange(prob.shape[0]), predicted], codes == predicted)]
    return [(data.classes[k], prob[:, k], codes == k) for k in range(prob.shape[1])]


def bin_edges(confidence, n_bins, strategy):
    """The ``n_bins + 1`` edges: equal width on [0, 1], or the quantiles of the
    instances' probabilities (``np.percentile``, as scikit-learn's ``calibration_curve``:
    instances, not weights, so that the edges are the same whatever the weights)."""
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    return np.percentile(confidence, np.linspace(0, 100, n_bins + 1))


@dataclass(frozen=True)
class Bins:
    """The sums of one curve in its non-empty bins (of positive weight).

    ``index``: the position of each bin among the ``n_bins``; ``weight``, ``confidence``,
    ``outcome``: the total weight and the weighted sums of the probabilities and outcomes;
    ``effective``: Kish's effective count of each bin, ``sum(w)^2 / sum(w^2)`` (its count
    without weights); ``count``: the instances of positive weight; ``of_instance``: each
    instance's position among the kept bins (-1 where its bin is dropped)."""

    index: np.ndarray
    weight: np.ndarray
    confidence: np.ndarray
    outcome: np.ndarray
    effective: np.ndarray
    count: np.ndarray
    of_instance: np.ndarray
    edges: np.ndarray

    @property
    def mean_confidence(self):
        return self.confidence / self.weight

    @property
    def frequency(self):
        return self.outcome / self.weight


def binned(confidence, outcome, sample_weight, n_bins, strategy):
    """The :class:`Bins` of one curve."""
    edges = bin_edges(confidence, n_bins, strategy)
    ids = np.searchsorted(edges[1:-1], confidence)
    if sample_weight is None:
        weight = np.bincount(ids, minlength=n_bins).astype(np.float64)
        count = weight
        conf = np.bincount(ids, weights=confidence, minlength=n_bins)
        out = np.bincount(ids, weights=outcome.astype(np.float64), minlength=n_bins)
        effective = weight
    else:
        w = sample_weight
        weight = np.bincount(ids, weights=w, minlength=n_bins)
        count = np.bincount(ids, weights=(w > 0).astype(np.float64), minlength=n_bins)
        conf = np.bincount(ids, weights=w * confidence, minlength=n_bins)
        out = np.bincount(ids, weights=np.where(outcome, w, 0.0), minlength=n_bins)
        largest = w.max(initial=0.0)
        units = w / largest if largest > 0 else w  # no overflow nor underflow of squares
        squares = np.bincount(ids, weights=units * units, minlength=n_bins)
        unit_sums = np.bincount(ids, weights=units, minlength=n_bins)
        with np.errstate(invalid="ignore", divide="ignore"):
            effective = np.where(squares > 0, unit_sums ** 2 / np.where(squares > 0, squares,
                                                                        1.0), 0.0)
    kept = np.flatnonzero(weight > 0)
    position = np.full(n_bins, -1, dtype=np.intp)
    position[kept] = np.arange(kept.size)
    return Bins(kept, weight[kept], conf[kept], out[kept], effective[kept], count[kept],
                position[ids], edges)


def warn_no_weight(owner):
    """The warning of a measure undefined because every weight is zero."""
    warn(f"{owner}: sample_weight is zero everywhere, so no bin holds any weight and the "
         "measure is undefined; it is NaN.", UndefinedMetricWarning)
