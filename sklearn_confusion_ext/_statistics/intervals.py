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

from dataclasses import replace
from numbers import Real

import numpy as np
from scipy import special

from .._calibration.curves import expected_calibration_error
from .._calibration.error_interval import calibration_error_interval, calibration_error_params
from .._core.bounds import (
    PROPORTIONS,
    average_at_bound,
    bca_interval,
    effective_trials,
    honest_bounds,
    percentile_interval,
    proportion_trials,
    wilson,
)
from .._core.config import check_result_size
from .._core.dispatch import confusions
from .._core.params import (
    ARRAY,
    BOOLEAN,
    CALLABLE,
    CONFIDENCE_LEVEL,
    N_RESAMPLES,
    PARALLEL,
    RANDOM_STATE,
    VERBOSE,
    Interval,
    NaN,
    Options,
    validate_params,
)
from .._core.resampling import Progress, check_groups
from .._core.results import Result, _result, _Table, interval_method
from .._matrices.transport import CLASSIC
from .._scores.from_confusion import (
    binary_matrix,
    confusion_for_labels,
    reported_classes,
)
from .._scores.resolved import _check_weighted, _Data, _data, _quiet, _resolve_score, _scalar
from .posterior import PRIOR

# What every interval and comparison of a score takes (compare_scores too).
UNCERTAINTY = {
    "scoring": [str, CALLABLE], "confidence_level": [CONFIDENCE_LEVEL],
    "n_resamples": N_RESAMPLES, "sample_weight": [None, ARRAY],
    "random_state": RANDOM_STATE, "groups": [None, ARRAY], "verbose": VERBOSE,
    "kind": [None, Options("classic", "transport", "subpixel", "mlcm", "mlcm_krstinic",
                           "mlct")]}
# A value of a result: one number, nan, or one per class.
_VALUE = [Interval(Real, None, None), NaN(), ARRAY]


@_result(parameters={
    **{name: _VALUE for name in ("estimate", "low", "high", "standard_error")},
    "distribution": [None, ARRAY], "method": [str], "confidence_level": [CONFIDENCE_LEVEL],
    "score": [None, str], "class_names": [None, ARRAY],
    "wilson_fallback": [None, BOOLEAN, ARRAY]}, kw_only=True)
class ConfidenceIntervalResult(Result):
    """A score, its confidence interval and the resampled values behind it.

    Built by :func:`score_confidence_interval`; every field is keyword-only. It does not
    unpack: read its attributes, or ``low, high = result.confidence_interval()``. The
    repr names the score, the method and the level with rounded figures (never the
    resampled values); :meth:`to_frame` gives one row per class (one row for one value).

    Attributes
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
    score : str or None
        The score's name (a scorer name, or a metric's ``__name__``).
    class_names : list or None
        The class of each value of a per-class score, where the data name them.
    wilson_fallback : bool, ndarray of bool or None
        Where the interval is Wilson's interval of the score's trials, because the
        method's was a point (every resample agreed: a class 100 % right); see the user
        guide's "At the boundary". None: nowhere (or not recorded).

    See Also
    --------
    score_confidence_interval : The function that gives this result.
    ComparisonResult : The interval of the difference between two classifiers.
    ScoreIntervalDisplay : Intervals of per-class scores, drawn as a forest plot.

    Examples
    --------
    >>> from sklearn_confusion_ext import score_confidence_interval
    >>> result = score_confidence_interval([0, 1] * 30, [0, 1] * 25 + [1, 0] * 5,
    ...                                    scoring="tcm_accuracy", method="analytic")
    >>> round(result.estimate, 3), round(result.low, 3), round(result.high, 3)
    (0.833, 0.72, 0.907)
    >>> result
    ConfidenceIntervalResult(score='tcm_accuracy', estimate=0.8333, low=0.7197, high=0.9069, \
confidence_level=0.95, method='analytic')
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), round(high, 3)
    (0.72, 0.907)
    """

    estimate: object
    low: object
    high: object
    standard_error: object
    distribution: object
    method: str
    confidence_level: float
    score: str = None
    class_names: object = None
    wilson_fallback: object = None

    _shows_one_row = False
    confidence_interval = interval_method()

    def _summary(self):
        shown = [("score", self.score)]
        if np.ndim(self.estimate) == 0:
            shown += [(name, getattr(self, name)) for name in ("estimate", "low", "high")]
        else:
            shown.append(("n_values", np.size(self.estimate)))
        shown += [("confidence_level", self.confidence_level), ("method", self.method)]
        if self.distribution is not None:
            shown.append(("n_resamples", len(self.distribution)))
        if np.any(self.wilson_fallback):
            shown.append(("wilson_fallback", int(np.count_nonzero(self.wilson_fallback))
                          if np.ndim(self.wilson_fallback) else True))
        return shown

    def _table(self):
        values = {name: np.atleast_1d(getattr(self, name))
                  for name in ("estimate", "low", "high", "standard_error")}
        if self.wilson_fallback is not None:
            values["wilson_fallback"] = np.broadcast_to(
                self.wilson_fallback, values["estimate"].shape)
        single = np.ndim(self.estimate) == 0
        index = [self.score] if single else self.class_names
        if index is None:
            index = range(len(values["estimate"]))
        return _Table("score" if single else "class", index, values)




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
        raise ValueError(f"method='analytic' does not apply to scoring={score.name!r}: {why}. "
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
        low, high, se = wilson(np.trace(chosen), chosen.sum(), alpha)
        return data.estimate(), float(low), float(high), float(se)
    if average == "binary":
        matrix, selection = _binary(matrix), np.array([1])
    if score.analytic in ("precision", "recall") and average in ("binary", None, "micro"):
        trials = matrix.sum(axis=0 if score.analytic == "precision" else 1)[selection]
        successes = np.diag(matrix)[selection]
        if average == "micro":
            successes, trials = successes.sum(), trials.sum()
        low, high, se = wilson(successes, trials, alpha)
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
    raise ValueError(f"method='analytic' does not apply to scoring={score.name!r} with "
                     f"average={average!r}: Wilson intervals are for accuracy and binary, "
                     "per-class or micro recall and precision, the delta method for "
                     "binary, per-class, micro and macro F1 and macro recall and precision. "
                     "Use method='percentile', 'basic', "
                     "'bca' or 'bayesian'.")


def _proportion(data):
    """``(trials, widen)`` of the data's score where it is a proportion (accuracy,
    precision, recall, F-beta): its trials shaped like its estimate
    (:func:`~.._core.bounds.proportion_trials`), read as the score reads its classes, and
    whether it is an average that reads a class at its bound
    (:func:`~.._core.bounds.average_at_bound`); ``(None, False)`` for any other score."""
    score = data.score
    if score.analytic not in PROPORTIONS:
        return None, False
    if score.metric is not None:  # scikit-learn's proportion: the classic matrix's cells
        if score.on_cells is None or np.ndim(data.y_true) != 1 or np.ndim(data.y_pred) != 1:
            return None, False
        data = _Data(score.on_cells, data.y_true, data.y_pred, data.sample_weight)
        score = data.score
    confusion = data.confusion
    if score.average == "binary":
        matrix = binary_matrix(confusion, score.pos_label)
        return effective_trials(proportion_trials(matrix, score.analytic, beta=score.beta,
                                                  classes=[1])[0], data.sample_weight), False
    selected, _ = confusion_for_labels(confusion, score.labels)
    if score.analytic == "accuracy":
        return effective_trials(proportion_trials(selected.matrix, "accuracy",
                                                  classes=selected.selection),
                                data.sample_weight), False
    include_none = bool(confusion.has_none and confusion.matrix[-1].sum() > 0)
    classes = reported_classes(selected, include_none)
    keywords = {"beta": score.beta, "average": score.average, "classes": classes}
    trials = proportion_trials(selected.matrix, score.analytic, pooled=selected.selection,
                               **keywords)
    return (effective_trials(trials, data.sample_weight),
            average_at_bound(selected.matrix, score.analytic, **keywords))


def _binary(matrix):
    if matrix.shape != (2, 2):
        raise ValueError(f"average='binary' needs two classes; the matrix has "
                         f"{matrix.shape[0]}.")
    return matrix


@validate_params({
    "y_true": [ARRAY], "y_pred": [ARRAY], **UNCERTAINTY,
    "method": [None, Options("percentile", "basic", "bca", "bayesian", "analytic",
                             "norm_bound")],
    "n_jobs": PARALLEL["n_jobs"],
    "prior": [None, *PRIOR]}, renamed={"score": "scoring"})
def score_confidence_interval(y_true, y_pred, *, scoring="tcm_f1_macro", method=None,
                              confidence_level=0.95, n_resamples=9999, sample_weight=None,
                              random_state=None, n_jobs=None, kind=None, prior=None,
                              groups=None, verbose=0, **score_params):
    """Confidence interval of a score: bootstrap, Bayesian or closed-form.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Targets of any kind the library takes (1-D labels, labels against probabilities,
        multi-label indicators, soft labels).
    scoring : str or callable, default="tcm_f1_macro"
        The score: a name of :func:`get_scorer_names` that scores predictions, this
        library's (``tcm_*``, ``mlcm_*``, ``generalized_means``,
        ``symmetric_balanced_accuracy``, ``neg_correlation_distance``,
        ``neg_confusion_entropy``) or scikit-learn's (``"accuracy"``,
        ``"balanced_accuracy"``, ``"f1_macro"``, ``"cohen_kappa"``,
        ``"matthews_corrcoef"`` ...), the same names in every function that resamples a
        score; a metric ``f(y_true, y_pred, *, sample_weight=None, **score_params)`` of
        this library or of scikit-learn; or, with ``kind``, a matrix-level function
        ``f(confusion)``. On 1-D labels this library's scores and scikit-learn's
        ``accuracy_score``, ``precision_score``, ``recall_score`` and ``f1_score`` are read
        off the resampled confusion cells, over the classes of the data in every resample
        (as if ``labels=`` named them); another callable is called on each resample's
        targets.

        .. versionchanged:: 0.1
           Renamed from ``score``, which still works with a ``FutureWarning`` until 0.2.
    method : {"percentile", "basic", "bca", "bayesian", "analytic", "norm_bound"}, \
default=None
        None: ``"bca"``, or ``"norm_bound"`` for
        :func:`~sklearn_confusion_ext.expected_calibration_error`.
        ``"percentile"``, ``"basic"`` and ``"bca"``: the bootstrap over instances, with
        :func:`scipy.stats.bootstrap`'s definitions. ``"norm_bound"`` (the calibration
        error only, and its only method): the bootstrap of the bins' gaps, bounding the
        error's by the triangle inequality, so that the interval reaches 0 where the data
        do not tell the model from a calibrated one (the percentile, basic and BCa
        intervals of the biased binned error miss a calibrated model's 0 every time; see
        the user guide's "Calibration", "How sure"). ``"bayesian"``: on 1-D labels the
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
        Seeds the resamples: each resample is drawn from a stream of its own (a
        ``numpy.random.SeedSequence`` child of one draw of this generator), so the
        same ``random_state`` gives the same resamples, bit for bit, whatever ``n_jobs``,
        the number of cores and the memory budget (``max_matrix_mib``).
    n_jobs : int, default=None
        Threads of the matrix builders, of the resamples' draws and of their products
        (joblib-style, -1 all cores; None all cores where the work is large enough). The
        numbers do not depend on it.
    kind : str, default=None
        The matrix of a matrix-level ``scoring``: a kind of :class:`ConfusionAccumulator`
        ("classic", "transport", "mlcm", ...).
    prior : float, {"uniform", "perks"}, array-like or None, default=None
        The Dirichlet prior of ``method="bayesian"`` on 1-D labels, added to the cell
        counts as in :func:`dirichlet_posterior`. None adds nothing: the posterior over
        the observed cells, which is the Bayesian bootstrap of the instances; a prior of
        1 per cell adds ``C`` pseudo-counts to each row and pulls every score towards
        chance at many classes (its intervals then miss the true value).
    groups : array-like of shape (n_samples,), default=None
        A group id per instance (patients, sites, documents): the groups are resampled as
        units (the bootstrap draws whole groups, the Bayesian bootstrap weighs them, BCa's
        jackknife leaves one group out, at most 100 groups of groups), since the instances
        of one group are not independent; None resamples the instances. Not with
        ``method="analytic"``.
    verbose : int, default=0
        Progress on standard error, as scikit-learn's long-running estimators print it:
        0 prints nothing; 1 a line every two seconds at most (resamples done, time
        elapsed, time left) where the resampling is expected to take more than a few
        seconds; 2 and more, a line after every block of resamples.
    **score_params
        Keywords of the score (``average=None`` gives one interval per class).

    Returns
    -------
    ConfidenceIntervalResult
        The estimate, the interval (``result.confidence_interval()``) and the resampled
        values.

    See Also
    --------
    compare_scores : The paired comparison of one score between two classifiers.
    dirichlet_posterior : The row posteriors of a confusion matrix
        (``method="bayesian"`` draws whole matrices from the cells' posterior).
    transport_classification_report : A report whose scores carry these intervals.
    ScoreIntervalDisplay : Per-class intervals drawn as a forest plot.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
       Chapman & Hall, Chapters 13-14 (percentile and BCa intervals), as
       :func:`scipy.stats.bootstrap` implements them.
    .. [2] Rubin, D. B. (1981). "The Bayesian bootstrap". The Annals of Statistics, 9(1),
       130-134.
    .. [3] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 4 (the Dirichlet-multinomial posterior, here of the whole matrix's cells).
    .. [4] Wilson, E. B. (1927). "Probable inference, the law of succession, and
       statistical inference". Journal of the American Statistical Association, 22(158),
       209-212.
    .. [5] Takahashi, K., Yamamoto, K., Kuchiba, A. and Koyama, T. (2022). "Confidence
       interval for micro-averaged F1 and macro-averaged F1 scores". Applied
       Intelligence, 52(5), 4961-4972 (the delta method).

    Examples
    --------
    >>> from sklearn_confusion_ext import score_confidence_interval
    >>> y_true = [0, 0, 1, 1, 2, 2] * 20
    >>> y_pred = [0, 1, 1, 1, 2, 0] * 20
    >>> result = score_confidence_interval(y_true, y_pred, scoring="tcm_accuracy",
    ...                                    random_state=0)
    >>> round(result.estimate, 3), round(result.low, 2), round(result.high, 2)
    (0.667, 0.57, 0.75)
    >>> result = score_confidence_interval(y_true, y_pred, scoring="tcm_accuracy",
    ...                                    method="analytic")
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), round(high, 3)
    (0.578, 0.745)
    """
    calibration = calibration_error_params(scoring, score_params)
    if calibration is not None:
        return _calibration_interval(y_true, y_pred, calibration, method, confidence_level,
                                     n_resamples, sample_weight, random_state, n_jobs, prior,
                                     groups, verbose)
    if method == "norm_bound":
        raise ValueError("method='norm_bound' is the interval of the calibration error "
                         "(scoring=expected_calibration_error); got scoring="
                         f"{getattr(scoring, '__name__', scoring)!r}. Use method='percentile',"
                         " 'basic', 'bca', 'bayesian' or 'analytic'.")
    method = "bca" if method is None else method
    resolved = _resolve_score(scoring, kind, score_params, "score_confidence_interval")
    resolved = replace(resolved, n_jobs=n_jobs, on_cells=resolved.on_cells and replace(
        resolved.on_cells, n_jobs=n_jobs))
    _check_weighted(resolved, sample_weight, method, "score_confidence_interval")
    data = _data(resolved, y_true, y_pred, sample_weight)
    data.groups = check_groups(groups, data.n_samples, "score_confidence_interval")
    confidence_level = float(confidence_level)
    alpha = 1 - confidence_level
    if method == "analytic" and groups is not None:
        raise ValueError("method='analytic' assumes independent instances and takes no "
                         "groups; use method='percentile', 'basic', 'bca' or 'bayesian' to "
                         "resample the groups.")
    if method == "analytic":
        estimate, low, high, se = _analytic(data, alpha)
        trials, widen = _proportion(data)
        low, high, replaced = honest_bounds(estimate, low, high, trials, alpha,
                                            "score_confidence_interval",
                                            f"scoring={resolved.name!r}", widen=widen)
        return ConfidenceIntervalResult(
            estimate=_scalar(estimate), low=_scalar(low), high=_scalar(high),
            standard_error=_scalar(se), distribution=None, method=method,
            confidence_level=confidence_level, score=resolved.name,
            class_names=_class_names(data, estimate), wilson_fallback=_flags(replaced))
    rng = np.random.default_rng(random_state)
    estimate = data.estimate()
    check_result_size("score_confidence_interval", (n_resamples, np.size(estimate)),
                      f"a distribution of n_resamples={n_resamples} resamples of "
                      f"{np.size(estimate)} values", "Pass fewer n_resamples or an average")
    progress = Progress(verbose, n_resamples, "score_confidence_interval")
    if method == "bayesian":
        distribution = _quiet(data.bayesian, rng, n_resamples, prior,
                              "score_confidence_interval", progress)
    else:
        distribution = _quiet(data.bootstrap, rng, n_resamples, "score_confidence_interval",
                              progress)
    progress.close()
    if method in ("percentile", "bayesian"):
        low, high = percentile_interval(distribution, alpha)
    elif method == "basic":
        upper, lower = percentile_interval(distribution, alpha)
        low, high = 2 * np.asarray(estimate) - lower, 2 * np.asarray(estimate) - upper
    else:
        jackknife, multiplicity = _quiet(data.jackknife, rng)
        low, high = bca_interval(distribution, np.asarray(estimate), jackknife, multiplicity,
                                  alpha)
    # A posterior with a prior is the user's model: a point there is the prior's, kept.
    trials, widen = _proportion(data) if method != "bayesian" or prior is None else \
        (None, False)
    low, high, replaced = honest_bounds(estimate, low, high, trials, alpha,
                                        "score_confidence_interval",
                                        f"scoring={resolved.name!r}", widen=widen)
    standard_error = np.std(distribution, axis=0, ddof=1)
    return ConfidenceIntervalResult(
        estimate=_scalar(estimate), low=_scalar(low), high=_scalar(high),
        standard_error=_scalar(standard_error), distribution=distribution, method=method,
        confidence_level=confidence_level, score=resolved.name,
        class_names=_class_names(data, estimate), wilson_fallback=_flags(replaced))


def _calibration_interval(y_true, y_prob, params, method, confidence_level, n_resamples,
                          sample_weight, random_state, n_jobs, prior, groups, verbose):
    """The interval of the expected calibration error (:mod:`.._calibration.error_interval`)."""
    owner = "score_confidence_interval"
    if method not in (None, "norm_bound"):
        raise ValueError(
            f"{owner}: scoring=expected_calibration_error takes method='norm_bound' (or "
            f"None); got method={method!r}. The binned calibration error is biased upwards "
            "and its resampled values more so: percentile, basic and BCa intervals of it "
            "miss a calibrated model's error of 0 every time; the norm bound resamples the "
            "bins' gaps instead.")
    if prior is not None:
        raise ValueError(f"{owner}: prior= is the Dirichlet prior of method='bayesian'; "
                         "scoring=expected_calibration_error takes none.")
    estimate = expected_calibration_error(y_true, y_prob, sample_weight=sample_weight,
                                          **params)
    n_samples = np.shape(y_true)[0] if np.ndim(y_true) else 0
    group_codes = check_groups(groups, n_samples, owner)
    rng = np.random.default_rng(random_state)
    progress = Progress(verbose, 2 * n_resamples, owner)
    low, high, distribution = calibration_error_interval(
        y_true, y_prob, params, sample_weight, float(confidence_level), n_resamples, rng,
        group_codes, progress, owner, n_jobs)
    progress.close()
    return ConfidenceIntervalResult(
        estimate=_scalar(estimate), low=_scalar(min(low, estimate)),
        high=_scalar(max(high, estimate)),
        standard_error=float(np.std(distribution, ddof=1)) if distribution.size > 1
        else float("nan"), distribution=distribution, method="norm_bound",
        confidence_level=float(confidence_level), score="expected_calibration_error",
        class_names=None, wilson_fallback=None)


def _flags(replaced):
    """``wilson_fallback`` of a result: a bool for one value, an array for several."""
    replaced = np.asarray(replaced, dtype=bool)
    return bool(replaced) if replaced.ndim == 0 else replaced


def _class_names(data, estimate):
    """The class of each value of a per-class score where the data's matrix (or the
    score's ``labels=``) names them, else None."""
    if np.ndim(estimate) != 1:
        return None
    names = data.score.labels
    if names is None and data.confusion is not None:
        confusion = data.confusion
        names = [confusion.display_labels[i] for i in confusion.selection]
    if names is None or len(names) != np.size(estimate):
        return None
    return [name.item() if isinstance(name, np.generic) else name for name in names]
