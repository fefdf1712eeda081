"""Selective classification: a classifier that answers only where its top probability is
at least a threshold, and abstains elsewhere. At each threshold, the coverage (the
weighted share of the instances answered) and the risk (the weighted error rate of the
top-label predictions among the answered): the risk-coverage curve of Geifman and
El-Yaniv (2017), its area (AURC), and Wilson's interval of the risk at each point. One
sort of the top probabilities and three cumulative sums give the whole curve."""

from numbers import Real

import numpy as np

from .._core.bounds import wilson
from .._core.params import ARRAY, CONFIDENCE_LEVEL, Interval, validate_params
from .._core.probabilities import checked_probabilities
from .._core.results import Result, _result, _Table, interval_method


@_result(kw_only=True, parameters={
    **{name: [ARRAY] for name in ("thresholds", "coverage", "risk", "n_answered", "low",
                                  "high")},
    "area": [Interval(Real, 0, 1)], "confidence_level": [CONFIDENCE_LEVEL]})
class RiskCoverageResult(Result):
    """The risk-coverage curve of a classifier that abstains below a threshold of its top
    probability (see :func:`risk_coverage_curve`).

    ``to_frame()`` gives a row per threshold; ``confidence_interval()`` the ends of the
    risk's interval at each point.

    Attributes
    ----------
    thresholds : ndarray of shape (n_points,)
        The distinct top probabilities, in decreasing order: at ``thresholds[j]`` the
        classifier answers the instances whose top probability is at least it.
    coverage : ndarray of shape (n_points,)
        The weighted share of the instances answered, increasing to 1.
    risk : ndarray of shape (n_points,)
        The weighted error rate of the top-label predictions among the answered (the
        selective risk); ``risk[-1]`` is the error rate of answering every instance.
    area : float
        The area under the curve (AURC): the mean risk over coverage, ``sum_j risk[j] *
        (coverage[j] - coverage[j - 1])`` with ``coverage[-1] = 0`` before the first
        point, the integral of the step function that is ``risk[j]`` on
        ``(coverage[j - 1], coverage[j]]``. Without weights and ties it is the mean of
        the risks of answering the 1, 2, ..., n most confident instances. Lower is better.
    n_answered : ndarray of int, shape (n_points,)
        The number of instances answered at each threshold (of those of nonzero weight).
    low, high : ndarray of shape (n_points,)
        Wilson's score interval of the risk at each point, at ``confidence_level``, from
        the answered instances (with ``sample_weight``, their effective number, Kish's
        ``(sum w)^2 / sum w^2``).
    confidence_level : float
        The level of ``low`` and ``high``.

    See Also
    --------
    risk_coverage_curve : Builds it.

    Examples
    --------
    >>> from sklearn_confusion_ext import risk_coverage_curve
    >>> result = risk_coverage_curve([0, 1, 1], [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7]])
    >>> result.coverage.round(3).tolist(), result.risk.round(3).tolist()
    ([0.333, 0.667, 1.0], [0.0, 0.5, 0.333])
    >>> round(result.area, 4)
    0.2778
    """

    thresholds: np.ndarray
    coverage: np.ndarray
    risk: np.ndarray
    area: float
    n_answered: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence_level: float = 0.95

    confidence_interval = interval_method()

    def _summary(self):
        return [("area", self.area), ("n_points", len(self.thresholds)),
                ("confidence_level", self.confidence_level)]

    def _table(self):
        return _Table("threshold", np.asarray(self.thresholds), {
            name: np.asarray(getattr(self, name))
            for name in ("coverage", "risk", "low", "high", "n_answered")})


@validate_params({"y_true": [ARRAY], "y_prob": [ARRAY], "labels": [None, ARRAY],
                  "sample_weight": [None, ARRAY], "confidence_level": [CONFIDENCE_LEVEL]})
def risk_coverage_curve(y_true, y_prob, *, labels=None, sample_weight=None,
                        confidence_level=0.95):
    """The risk-coverage curve of selective classification, its area and a band.

    A classifier that may abstain answers an instance only where its top probability
    is at least a threshold, with its top label (``predict``'s decision). At each
    threshold (each distinct top probability, highest first), the *coverage* is the
    weighted share of the instances answered and the *risk* the weighted error rate of
    the answers; instances of tied top probabilities are answered together. The curve
    shows how much error abstaining removes, and at what cost in unanswered instances
    (Geifman and El-Yaniv 2017); its area (AURC) summarizes it, lower being better. The
    top probabilities are sorted once and the curve comes from cumulative sums.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_prob : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, one column per class (``predict_proba``); where rows do
        not sum to 1 (within the square root of the machine epsilon), a warning, and
        each row is divided by its sum. 1-D: the probability of the
        second class (``predict_proba(X)[:, 1]`` of a binary classifier), in [0, 1]. A
        sparse array is read densely.
    labels : array-like, default=None
        The classes: every class of the columns of a 2-D ``y_prob``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused (default: the
        sorted labels of ``y_true``, one per column). For 1-D ``y_prob``, the two classes,
        the second the one ``y_prob`` is about.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    confidence_level : float, default=0.95
        The level of the band: Wilson's score interval of the risk at each point, from
        its answered instances.

    Returns
    -------
    RiskCoverageResult
        ``thresholds``, ``coverage``, ``risk``, ``area`` (AURC), ``n_answered`` and the
        band ``low``, ``high``; ``to_frame()`` gives a row per threshold.

    Raises
    ------
    ValueError
        Where ``y_prob`` has negative or non-finite entries, a row of zeros, 1-D values
        outside [0, 1], a length other than ``y_true``'s, where ``y_true`` holds labels
        that name no column, or ``sample_weight`` sums to 0.

    See Also
    --------
    threshold_confusion_matrices : The confusion matrices at the thresholds of a score.
    score_confidence_interval : The interval of a score of every answer.

    Notes
    -----
    With weights ``w_i``, top probabilities ``c_i`` and errors ``e_i`` (1 where the top
    label is wrong), at threshold ``t`` the answered set is ``{i : c_i >= t}``,
    ``coverage(t) = sum_answered w_i / sum_i w_i`` and ``risk(t) = sum_answered w_i e_i
    / sum_answered w_i``. The area is the integral over coverage of the step function of
    the risk: ``AURC = sum_j risk_j (coverage_j - coverage_{j-1})``. For ``n`` instances
    without ties or weights it is ``(1/n) sum_{k=1}^{n} risk(k)``, the mean selective
    risk of answering the ``k`` most confident, the AURC of Geifman, Uziel and El-Yaniv
    (2019). Its best value for a given overall risk is reached by a ranking that puts
    every error last. Instances of weight 0 are left out (as scikit-learn's curves
    leave them out): they add no point of their own. The top label of a row is its first
    column of largest probability, as ``predict`` breaks ties; 1-D probabilities
    answer the second class where ``p > 1 - p``.

    References
    ----------
    .. [1] Y. Geifman and R. El-Yaniv, "Selective classification for deep neural
       networks", Advances in Neural Information Processing Systems 30 (NeurIPS 2017):
       the risk-coverage curve of a confidence-rate function.
    .. [2] Y. Geifman, G. Uziel and R. El-Yaniv, "Bias-reduced uncertainty estimation for
       deep neural classifiers", International Conference on Learning Representations
       (ICLR 2019): the area under the risk-coverage curve (AURC).
    .. [3] E. B. Wilson, "Probable inference, the law of succession, and statistical
       inference", Journal of the American Statistical Association 22 (1927) 209-212.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_confusion_ext import risk_coverage_curve
    >>> X, y = load_digits(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression(
    ...     C=0.1, tol=1e-12, max_iter=100_000)).fit(X_train, y_train)
    >>> curve = risk_coverage_curve(y_test, model.predict_proba(X_test))
    >>> round(float(curve.risk[-1]), 4)  # answering every instance: the error rate
    0.0378
    >>> round(curve.area, 4)
    0.003
    >>> point = curve.coverage.searchsorted(0.9)  # answering 90 % of the digits
    >>> [round(float(x), 4) for x in (curve.coverage[point], curve.risk[point],
    ...                               curve.low[point], curve.high[point])]
    [0.9, 0.0123, 0.0053, 0.0286]
    """
    data = checked_probabilities("risk_coverage_curve", y_true, y_prob, labels=labels,
                                 sample_weight=sample_weight, default_positive="last",
                                 top_label=True)
    predicted, confidence = _top_labels(data)
    wrong = predicted != data.codes
    weights = data.sample_weight
    if weights is not None:
        if not weights.any():
            raise ValueError("sample_weight sums to 0: no instance can be answered.")
        if not weights.all():  # a weight of 0 is no instance (no point of its own)
            kept = weights > 0
            confidence, wrong, weights = confidence[kept], wrong[kept], weights[kept]
    order = np.argsort(confidence)[::-1]  # ties: answered together, in any order
    ranked = confidence[order]
    last = np.r_[np.flatnonzero(np.diff(ranked)), ranked.size - 1]
    n_answered = last + 1
    if weights is None:
        answered = n_answered.astype(np.float64)
        errors = np.cumsum(wrong[order], dtype=np.float64)[last]
        trials = answered
    else:
        units = weights[order] / weights.max()  # in (0, 1]: squares neither overflow
        answered = np.cumsum(units)[last]       # nor underflow to nothing
        errors = np.cumsum(np.where(wrong[order], units, 0.0))[last]
        squares = np.cumsum(units * units)[last]
        # Kish's effective number; where the squares of weights 1e-154 times the largest
        # and less underflow to 0 (those answered first weigh nothing to speak of), their
        # count
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            trials = answered * (answered / squares)
        trials = np.where(np.isfinite(trials) & (squares > 0), trials, n_answered)
    coverage = answered / answered[-1]
    risk = errors / answered
    confidence_level = float(confidence_level)  # a NumPy float32 computes in float64
    low, high, _ = wilson(risk * trials, trials, 1 - confidence_level)
    area = float(np.clip(np.sum(risk * np.diff(coverage, prepend=0.0)), 0.0, 1.0))
    return RiskCoverageResult(thresholds=ranked[last], coverage=coverage, risk=risk,
                              area=area, n_answered=n_answered, low=low, high=high,
                              confidence_level=confidence_level)


def _top_labels(data, name="y_prob"):
    """Each instance's top label (a position in the classes) and its probability, of
    checked probabilities ``data`` (of argument ``name``): a 1-D ``y_prob`` is the
    probability of the second of two classes."""
    if data.one_dimensional and len(data.classes) != 2:
        raise ValueError(
            f"{name} is 1-D, the probability of the second of two classes, but y_true "
            f"holds {len(data.classes)} class: pass labels= with both classes (a "
            "classifier's classes_).")
    return data.top_label()
