"""Several classifiers on one test set: Cochran's Q test with pairwise McNemar post-hoc
tests, and the test of one classifier's accuracy against the no-information rate.

Cochran's Q (1950) asks whether ``k`` classifiers scored on the same instances have the
same accuracy, from the indicators ``x_ij`` (classifier ``j`` right on instance ``i``);
where it rejects, McNemar's test of every pair (the library's :func:`mcnemar_test` of
each pair's :func:`mcnemar_table`), with a multiplicity correction, says which differ.
The test against the no-information rate is caret's "Acc > NIR": a one-sided exact
binomial test of the accuracy against the largest class prevalence of ``y_true``, the
accuracy of always predicting the most frequent class.
"""

import warnings
from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np
from scipy import special, stats

from .._core.bounds import wilson
from .._core.params import (
    ARRAY,
    BOOLEAN,
    CONFIDENCE_LEVEL,
    PROBABILITY_LEVEL,
    PVALUE,
    Interval,
    Options,
    validate_params,
)
from .._core.raw_values import as_numpy
from .._core.results import Result, _result, _Table, interval_method
from .._core.targets import check_target_set
from .._core.user_warnings import warn
from .._core.weights import check_sample_weight
from .table_tests import CORRECTION, _correct, mcnemar_test

_PAIR_COLUMNS = ("model_a", "model_b", "only_a_correct", "only_b_correct", "statistic",
                 "pvalue", "pvalue_corrected", "significant")


# --- Cochran's Q ---------------------------------------------------------------------------


@_result(parameters={
    "statistic": [Interval(Real, 0, None)], "pvalue": PVALUE,
    "df": [Interval(Integral, 1, None)], "models": [tuple], "accuracy": [ARRAY],
    "n_samples": [Interval(Real, 0, None)], "pairs": [tuple],
    "pairwise": [None, dict], "method": CORRECTION, "posthoc": [str],
    "alpha": [PROBABILITY_LEVEL]})
class CochranQResult(Result):
    """Result of :func:`cochran_q_test`.

    Unpacks like scipy's results: ``statistic, pvalue = cochran_q_test(y_true, y_preds)``;
    the post-hoc tests are its table (``to_frame()``, one row per pair of models).

    Attributes
    ----------
    statistic : float
        Cochran's ``Q``; 0 where no instance splits the models (see
        :func:`cochran_q_test`, Notes).
    pvalue : float
        ``P[chi2_df > Q]``.
    df : int
        ``k - 1`` for ``k`` models.
    models : tuple of str
        The models' names.
    accuracy : ndarray of shape (n_models,)
        The (weighted) accuracy of each model.
    n_samples : float
        The number of instances (the sum of the weights).
    pairs : tuple of str
        ``"a vs b"`` for each pair of models, the rows of the table.
    pairwise : dict of str to ndarray
        The table's columns: ``model_a``, ``model_b``; ``only_a_correct`` and
        ``only_b_correct`` (the discordant cells of the pair's :func:`mcnemar_table`);
        ``statistic`` and ``pvalue`` of the pair's :func:`mcnemar_test`;
        ``pvalue_corrected`` after the correction ``method`` over the ``k (k - 1) / 2``
        pairs; ``significant`` (``pvalue_corrected < alpha``).
    method : {"holm", "bonferroni", "fdr_bh"} or None
        The multiplicity correction.
    posthoc : str
        The McNemar test of the pairs (its ``method``: "exact", "mid-p", "chi-square"...).
    alpha : float
        The level of ``significant``.

    See Also
    --------
    cochran_q_test : The test that gives this result.

    Examples
    --------
    >>> from sklearn_confusion_ext import cochran_q_test
    >>> y_true = [0, 1] * 10
    >>> y_preds = {"a": [0, 1] * 10, "b": [0, 1] * 7 + [1, 0] * 3, "c": [1, 1] * 10}
    >>> result = cochran_q_test(y_true, y_preds)
    >>> statistic, pvalue = result
    >>> round(statistic, 3), round(pvalue, 4), result.df
    (11.692, 0.0029, 2)
    >>> result.to_frame()["pvalue_corrected"].round(4).tolist()
    [0.0625, 0.0059, 0.3438]
    """

    statistic: float
    pvalue: float
    _: KW_ONLY
    df: int
    models: tuple
    accuracy: object
    n_samples: float
    pairs: tuple = ()
    pairwise: dict = None
    method: object = "holm"
    posthoc: str = "exact"
    alpha: float = 0.05

    _unpacked = ("statistic", "pvalue")
    _summary_fields = ("statistic", "pvalue", "df", "models", "method", "posthoc")
    _table_index_name = "pair"

    def _table(self):
        if not self.pairs or not self.pairwise:
            return None
        return _Table(self._table_index_name, self.pairs,
                      {name: self.pairwise[name] for name in _PAIR_COLUMNS
                       if name in self.pairwise})


def _predictions(y_preds, models):
    """The predictions as a list of 1-D targets, and the models' names."""
    if isinstance(y_preds, (str, bytes)):
        raise ValueError(f"y_preds must hold several models' predictions; got {y_preds!r}.")
    names = None
    if hasattr(y_preds, "columns") and hasattr(y_preds, "iloc"):  # DataFrame: a column each
        names = [str(column) for column in y_preds.columns]
        y_preds = [y_preds[column] for column in y_preds.columns]
    elif isinstance(y_preds, dict):
        names = [str(name) for name in y_preds]
        y_preds = list(y_preds.values())
    elif hasattr(y_preds, "ndim"):
        array = as_numpy("y_preds", y_preds)
        if array.ndim != 2:
            raise ValueError("y_preds must be of shape (n_models, n_samples), one row per "
                             f"model; got {array.ndim} dimension(s) (one model's "
                             "predictions? give at least two).")
        y_preds = list(array)
    else:
        y_preds = list(y_preds)
    if len(y_preds) < 2:
        raise ValueError(f"y_preds holds {len(y_preds)} model(s); Cochran's Q compares at "
                         "least two (and McNemar's test is that of two).")
    if models is not None:
        models = [str(name) for name in models]
        if len(models) != len(y_preds):
            raise ValueError(f"models names {len(models)} models; y_preds holds "
                             f"{len(y_preds)}.")
        names = models
    if names is None:
        names = [f"model {j}" for j in range(len(y_preds))]
    if len(set(names)) != len(names):
        raise ValueError(f"the models' names must differ; got {names}.")
    return y_preds, tuple(names)


def _correct_indicators(named):
    """(n_samples, n_models) booleans: model ``j`` right on instance ``i``, of the named
    targets ``{"y_true": ..., <prediction's name>: ...}``."""
    for name, y in named.items():
        ndim = np.ndim(as_numpy(name, y))
        if ndim != 1:
            raise ValueError(f"{name} must be 1-D class labels here; got {ndim} "
                             "dimensions.")
    lengths = {name: np.shape(as_numpy(name, y))[0] for name, y in named.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError("y_true and every model's predictions must have the same number "
                         f"of samples; got {lengths}.")
    codes = check_target_set(named, one_hot=False).codes
    return np.stack([np.asarray(c) == np.asarray(codes[0]) for c in codes[1:]], axis=1)


def _frequencies(sample_weight, n_samples, needs):
    """Frequency weights (non-negative integers), or None."""
    weight = check_sample_weight(sample_weight, n_samples)
    if weight is not None and not np.array_equal(weight, np.round(weight)):
        raise ValueError(f"sample_weight must hold frequencies (non-negative integers): "
                         f"{needs} counts instances, and scaled weights would change its "
                         "p-values.")
    return weight


@validate_params({"y_true": [ARRAY], "y_preds": [ARRAY, dict], "sample_weight": [None, ARRAY],
                  "models": [None, ARRAY], "exact": [BOOLEAN, Options("mid-p")],
                  "method": CORRECTION, "alpha": [PROBABILITY_LEVEL]})
def cochran_q_test(y_true, y_preds, *, sample_weight=None, models=None, exact=True,
                   method="holm", alpha=0.05):
    """Cochran's Q test of several classifiers' accuracies on one test set.

    Under the null hypothesis the ``k`` classifiers are equally likely to be right on an
    instance. With ``x_ij = 1`` where classifier ``j`` is right on instance ``i``, the
    columns' sums ``C_j``, the rows' sums ``R_i`` and ``N = sum C_j``,
    ``Q = (k - 1) (k sum_j C_j^2 - N^2) / (k N - sum_i R_i^2)`` is compared with
    chi-square with ``k - 1`` degrees of freedom. The pairs of classifiers are then
    compared by McNemar's test (:func:`mcnemar_test` of each pair's
    :func:`mcnemar_table`), corrected for the ``k (k - 1) / 2`` pairs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_preds : array-like of shape (n_models, n_samples), DataFrame or dict
        The classifiers' predicted labels of the same instances: one row each, one column
        each of a DataFrame (its columns name the models), or a dict name -> predictions.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequencies (non-negative integers): an instance of weight ``w`` counts as ``w``
        instances. Other weights are refused: the test counts instances.
    models : sequence of str, default=None
        The models' names (default: a DataFrame's columns, a dict's keys, else
        ``"model 0"``, ``"model 1"``...), as in :func:`friedman_test`.
    exact : bool or "mid-p", default=True
        The post-hoc McNemar test, as :func:`mcnemar_test`'s ``exact``: the exact
        binomial test, its mid-p version ("mid-p", recommended by Fagerland et al. 2013),
        or the asymptotic chi-square test (False).
    method : {"holm", "bonferroni", "fdr_bh", None}, default="holm"
        The correction of the pairs' p-values, as in :func:`marginal_homogeneity_posthoc`.
    alpha : float, default=0.05
        The level of the pairs' ``significant`` flags (after the correction).

    Returns
    -------
    CochranQResult
        ``statistic``, ``pvalue`` and ``df``; the pairwise McNemar tests in ``pairwise``
        and ``to_frame()``; unpacks as ``statistic, pvalue``.

    Warns
    -----
    UserWarning
        Where no instance splits the models (every instance right for all or for none:
        identical models, all of them right, one instance they agree on): Q is 0 / 0.

    See Also
    --------
    mcnemar_test, mcnemar_table : The test of two classifiers and its table.
    compare_scores : Two classifiers on one test set, any score.
    friedman_test : Several models over several data sets.
    accuracy_vs_no_information_rate : One classifier against always predicting the most
        frequent class.

    Notes
    -----
    Only the instances on which the classifiers disagree (``0 < R_i < k``) enter ``Q``.
    Where there is none, ``Q`` is ``0 / 0``: the data hold no evidence of a difference.
    The test then returns statistic 0 and p-value 1 with a warning (as
    :func:`mcnemar_test` without discordant pairs); statsmodels' and mlxtend's
    ``cochrans_q`` return NaN there. With ``k = 2``, ``Q`` is McNemar's chi-square
    statistic without continuity correction. The chi-square approximation needs enough
    instances on which the models disagree; the user guide's table (comparing models)
    gives its level by simulation.

    References
    ----------
    .. [1] Cochran, W. G. (1950). "The comparison of percentages in matched samples".
       Biometrika, 37(3/4), 256-266.
    .. [2] Raschka, S. (2018). "Model Evaluation, Model Selection, and Algorithm Selection
       in Machine Learning". arXiv:1811.12808, Section 4.4 (Cochran's Q with McNemar's
       post-hoc tests).
    .. [3] Fagerland, M. W., Lydersen, S. and Laake, P. (2013). "The McNemar test for
       binary matched-pairs data: mid-p and asymptotic are better than exact
       conditional". BMC Medical Research Methodology, 13, 91.

    Examples
    --------
    >>> from sklearn_confusion_ext import cochran_q_test
    >>> y_true = [0, 1] * 10
    >>> y_preds = [[0, 1] * 10, [0, 1] * 7 + [1, 0] * 3, [1, 1] * 10]
    >>> result = cochran_q_test(y_true, y_preds, models=["a", "b", "c"])
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (11.692, 0.0029)
    >>> frame = result.to_frame()  # exact McNemar tests, Holm-corrected
    >>> frame[["only_a_correct", "only_b_correct", "pvalue_corrected"]].round(4)
    ... # doctest: +NORMALIZE_WHITESPACE
            only_a_correct  only_b_correct  pvalue_corrected
    pair
    a vs b             6.0             0.0            0.0625
    a vs c            10.0             0.0            0.0059
    b vs c             7.0             3.0            0.3438
    """
    y_preds, names = _predictions(y_preds, models)
    correct = _correct_indicators(
        {"y_true": y_true, **{f"y_preds[{j}]": y for j, y in enumerate(y_preds)}})
    n_samples, n_models = correct.shape
    weight = _frequencies(sample_weight, n_samples, "Cochran's Q")
    weight = np.ones(n_samples) if weight is None else weight
    total = float(weight.sum())
    if total == 0:
        raise ValueError("sample_weight is 0 on every instance: there is no instance to "
                         "compare the models on.")
    x = correct.astype(float)
    columns = weight @ x                      # C_j
    rows = x.sum(axis=1)                      # R_i
    n_correct = float(columns.sum())          # N
    denominator = n_models * n_correct - float(weight @ rows ** 2)
    numerator = (n_models - 1) * (n_models * float(columns @ columns) - n_correct ** 2)
    df = n_models - 1
    # Q's denominator sum_i R_i (k - R_i) is 0 exactly where no instance splits the models;
    # it is a sum of integers times frequencies: exact in floating point
    if denominator <= 0:
        warn("cochran_q_test: no instance splits the models (each is right for all of them "
             "or for none: identical models, all right, one instance they agree on); "
             "Cochran's Q is "
             "0 / 0 and the data hold no evidence of a difference: statistic 0, p-value 1.")
        statistic, pvalue = 0.0, 1.0
    else:
        statistic = max(numerator / denominator, 0.0)
        pvalue = float(stats.chi2.sf(statistic, df))
    first, second = np.triu_indices(n_models, 1)
    # the discordant cells of every pair's mcnemar_table, at once
    only_first = (weight[:, None] * x[:, first] * (1 - x[:, second])).sum(axis=0)
    only_second = (weight[:, None] * (1 - x[:, first]) * x[:, second]).sum(axis=0)
    both = (weight[:, None] * x[:, first] * x[:, second]).sum(axis=0)
    neither = total - both - only_first - only_second
    tests, silent = [], []
    for a, b, right, wrong, n11, n00 in zip(first, second, only_first, only_second, both,
                                            neither):
        table = [[n11, right], [wrong, max(n00, 0.0)]]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tests.append(mcnemar_test(table, exact=exact, allow_fractional=True))
        if caught:
            silent.append(f"{names[a]} vs {names[b]}")
    if silent and denominator > 0:  # else every pair is silent, and Q's warning says so
        warn(f"cochran_q_test: the pairs {silent} have no discordant instance; their McNemar "
             "tests have no information (statistic 0, p-value as mcnemar_test documents).")
    raw = np.array([test.pvalue for test in tests])
    corrected = _correct(raw, method)
    pairwise = {
        "model_a": np.array([names[a] for a in first], dtype=object),
        "model_b": np.array([names[b] for b in second], dtype=object),
        "only_a_correct": only_first, "only_b_correct": only_second,
        "statistic": np.array([test.statistic for test in tests]), "pvalue": raw,
        "pvalue_corrected": corrected, "significant": corrected < alpha}
    return CochranQResult(
        float(statistic), float(pvalue), df=df, models=names, accuracy=columns / total,
        n_samples=total, pairs=tuple(f"{names[a]} vs {names[b]}" for a, b in
                                     zip(first, second)),
        pairwise=pairwise, method=method, posthoc=tests[0].method, alpha=float(alpha))


# --- Accuracy against the no-information rate ------------------------------------------------


@_result(parameters={
    "accuracy": [Interval(Real, 0, 1)], "pvalue": PVALUE, "low": [Interval(Real, 0, 1)],
    "high": [Interval(Real, 0, 1)], "no_information_rate": [Interval(Real, 0, 1)],
    "method": [Options("binomial", "mcnemar")],
    "n_correct": [Interval(Real, 0, None)],
    "n_samples": [Interval(Real, 0, None, closed="neither")],
    "confidence_level": [CONFIDENCE_LEVEL]})
class NoInformationRateResult(Result):
    """Result of :func:`accuracy_vs_no_information_rate` (caret's "Acc > NIR").

    Unpacks as ``accuracy, pvalue``; ``confidence_interval()`` gives ``(low, high)``.

    Attributes
    ----------
    accuracy : float
        The (weighted) accuracy.
    pvalue : float
        One-sided exact binomial p-value of H0: the accuracy is at most
        ``no_information_rate``.
    low, high : float
        The Clopper-Pearson interval of the accuracy at ``confidence_level`` (caret's
        ``AccuracyLower`` and ``AccuracyUpper``, R's ``binom.test``).
    no_information_rate : float
        The largest class prevalence of ``y_true``.
    method : {"mcnemar", "binomial"}
        The test of the p-value (see :func:`accuracy_vs_no_information_rate`).
    n_correct, n_samples : float
        The binomial counts: the (weighted) right predictions and instances.
    confidence_level : float
        The interval's level.

    See Also
    --------
    accuracy_vs_no_information_rate : The test that gives this result.

    Examples
    --------
    >>> from sklearn_confusion_ext import accuracy_vs_no_information_rate
    >>> result = accuracy_vs_no_information_rate([0, 0, 0, 1] * 10, [0, 0, 0, 0] * 10)
    >>> accuracy, pvalue = result
    >>> accuracy, result.no_information_rate, round(pvalue, 3)  # it is "always 0"
    (0.75, 0.75, 1.0)
    """

    accuracy: float
    pvalue: float
    _: KW_ONLY
    low: float
    high: float
    no_information_rate: float
    method: str = "binomial"
    n_correct: float = 0.0
    n_samples: float = 1.0
    confidence_level: float = 0.95

    _unpacked = ("accuracy", "pvalue")
    confidence_interval = interval_method()


# Weighted counts within which SciPy's beta functions are called (outside: the normal
# tail and Wilson's interval, within rounding of the exact ones at huge counts).
_SAFE_COUNTS = (1e-6, 1e12)


def _safe_part(count):
    """Whether a count of successes or failures is 0 or within :data:`_SAFE_COUNTS`."""
    return count <= 0 or _SAFE_COUNTS[0] <= count <= _SAFE_COUNTS[1]


def _binomial_greater(successes, trials, p):
    """``P[X >= successes]`` for ``X ~ B(trials, p)``: the regularized incomplete beta
    ``I_p(successes, trials - successes + 1)``, exact for whole counts (scipy's binomtest)
    and continuous in weighted ones."""
    if successes <= 0 or p >= 1:
        return 1.0
    with np.errstate(all="ignore"):
        # beyond these counts old SciPys' Boost code aborts the process instead of failing
        tail = special.betainc(successes, trials - successes + 1, p) if (
            _SAFE_COUNTS[0] <= trials <= _SAFE_COUNTS[1] and _safe_part(successes)
            and _safe_part(trials - successes)) else np.nan
        if not np.isfinite(tail):  # out of scipy's reach (huge counts): the normal form
            spread = np.sqrt(trials * p * (1 - p))
            tail = stats.norm.sf((successes - 0.5 - trials * p) / spread)
    return float(min(max(tail, 0.0), 1.0))


def _clopper_pearson(successes, trials, level):
    """The exact (Clopper-Pearson) interval, beta quantiles of the counts."""
    alpha = 1 - level
    failures = trials - successes
    if not (_SAFE_COUNTS[0] <= trials <= _SAFE_COUNTS[1]
            and _safe_part(successes) and _safe_part(failures)):
        wilson_low, wilson_high, _ = wilson(successes, trials, alpha)
        return (min(max(float(wilson_low), 0.0), 1.0), min(max(float(wilson_high), 0.0), 1.0))
    with np.errstate(all="ignore"):
        low = 0.0 if successes <= 0 else float(
            stats.beta.ppf(alpha / 2, successes, trials - successes + 1))
        high = 1.0 if successes >= trials else float(
            stats.beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    if not (np.isfinite(low) and np.isfinite(high)):  # out of scipy's reach (huge or
        # subnormal counts): Wilson's interval, within rounding of it at huge counts
        wilson_low, wilson_high, _ = wilson(successes, trials, alpha)
        low = float(wilson_low) if not np.isfinite(low) else low
        high = float(wilson_high) if not np.isfinite(high) else high
    return min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)


@validate_params({"y_true": [ARRAY], "y_pred": [ARRAY], "sample_weight": [None, ARRAY],
                  "method": [Options("binomial", "mcnemar")],
                  "confidence_level": [CONFIDENCE_LEVEL]})
def accuracy_vs_no_information_rate(y_true, y_pred, *, sample_weight=None, method="mcnemar",
                                    confidence_level=0.95):
    """Test whether a classifier's accuracy exceeds the no-information rate.

    The no-information rate (NIR) is the largest class prevalence of ``y_true``: the
    accuracy of always predicting the most frequent class, which needs no features. The
    default test compares the classifier with that majority-class predictor on the same
    instances (a one-sided exact McNemar test), and holds its level. caret's "Acc > NIR"
    (``confusionMatrix``), ``method="binomial"``, is the one-sided exact binomial test of
    the ``n_correct`` right predictions of ``n_samples`` against ``p = NIR``
    (``scipy.stats.binomtest(n_correct, n_samples, NIR, alternative="greater")``): it
    treats the NIR, read from the same instances, as known, and rejects about twice as
    often as its level where the classifier's errors do not follow the majority class
    (see Notes); it is here to reproduce caret's p-value. Both report the accuracy's
    Clopper-Pearson interval, as caret does.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_pred : array-like of shape (n_samples,)
        Predicted class labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequencies: the counts are the sums of the weights. Non-integer weights make
        non-integer counts, which both tests read through the continuous form of the
        binomial tail (the incomplete beta function, equal to it for whole counts), with
        a warning: the p-value depends on the weights' scale.
    method : {"mcnemar", "binomial"}, default="mcnemar"
        ``"mcnemar"``: the one-sided exact McNemar test (:func:`mcnemar_test`,
        ``alternative="greater"``) of the classifier against always predicting the
        majority class (the first of the most frequent classes in sorted order), whose
        accuracy is the NIR: its discordant instances are those only the classifier gets
        right (outside the majority class) and those only the constant predictor gets
        right (majority-class instances the classifier misses); the p-value is
        ``P[X >= b]`` for ``X ~ B(b + c, 1/2)``, ``b`` and ``c`` those two counts.
        ``"binomial"``: caret's test, ``P[X >= n_correct]`` for ``X ~ B(n_samples, NIR)``
        (liberal: see Notes).

        .. versionchanged:: 0.1
           The default is ``"mcnemar"``, which holds its level; ``"binomial"`` gives
           caret's p-value.
    confidence_level : float, default=0.95
        The level of the accuracy's interval.

    Returns
    -------
    NoInformationRateResult
        ``accuracy``, ``pvalue``, ``low``, ``high``, ``no_information_rate``; unpacks as
        ``accuracy, pvalue``.

    See Also
    --------
    score_confidence_interval : The accuracy's interval (Wilson's, or resampled).
    cochran_q_test : Several classifiers on one test set.
    compare_scores : Two classifiers on one test set.

    Notes
    -----
    The NIR is read from the test set itself and caret's test treats it as known. It is
    not: where the classifier's errors are independent of the class, the accuracy and the
    NIR vary independently, and at a true accuracy equal to the true NIR the binomial
    test rejects about twice as often as its level (the user guide's table: 10 to 13 %
    for 100 and 500 instances, 60 % majority). The default, ``method="mcnemar"``, pairs
    the two on each instance and keeps the level (4.0 and 4.8 % there). The binomial
    p-value is ``P[X >= n_correct]`` for ``X ~ B(n_samples, NIR)``; the interval is
    ``[B(alpha / 2; x, n - x + 1), B(1 - alpha / 2; x + 1, n - x)]`` with ``B`` the beta
    quantile (0 and 1 at ``x = 0`` and ``x = n``). With one class in ``y_true``,
    ``NIR = 1`` and no accuracy exceeds it: the p-value is 1.

    References
    ----------
    .. [1] Kuhn, M. (2008). "Building Predictive Models in R Using the caret Package".
       Journal of Statistical Software, 28(5); caret's ``confusionMatrix``: "a one-sided
       test to see if the accuracy is better than the 'no information rate', which is
       taken to be the largest class percentage in the data".
    .. [2] Clopper, C. J. and Pearson, E. S. (1934). "The use of confidence or fiducial
       limits illustrated in the case of the binomial". Biometrika, 26(4), 404-413.

    Examples
    --------
    >>> from sklearn_confusion_ext import accuracy_vs_no_information_rate
    >>> y_true = [0] * 60 + [1] * 40
    >>> y_pred = [0] * 55 + [1] * 5 + [1] * 25 + [0] * 15
    >>> result = accuracy_vs_no_information_rate(y_true, y_pred)
    >>> result.accuracy, result.no_information_rate, round(result.pvalue, 5)
    (0.8, 0.6, 0.00016)
    >>> [round(end, 4) for end in result.confidence_interval()]
    [0.7082, 0.8733]

    25 instances only the classifier gets right, 5 only "always 0" gets right. caret's
    binomial test gives a smaller p-value:

    >>> caret = accuracy_vs_no_information_rate(y_true, y_pred, method="binomial")
    >>> round(caret.pvalue, 5)
    2e-05
    """
    correct = _correct_indicators({"y_true": y_true, "y_pred": y_pred})[:, 0]
    n = correct.shape[0]
    weight = check_sample_weight(sample_weight, n)
    true_codes = check_target_set({"y_true": y_true}, one_hot=False)
    classes, codes = true_codes.classes, np.asarray(true_codes.codes[0])
    if weight is None:
        weight = np.ones(n)
    elif not np.array_equal(weight, np.round(weight)):
        warn("accuracy_vs_no_information_rate: sample_weight holds non-integer weights; "
             f"the {method} test reads their sums as counts of instances, so its p-value "
             "and interval depend on the weights' scale (frequencies are what it tests).")
    n_samples = float(weight.sum())
    if n_samples <= 0:
        raise ValueError("sample_weight is 0 on every instance: there is no instance to "
                         "test the accuracy on.")
    prevalence = np.bincount(codes, weights=weight, minlength=len(classes)) / n_samples
    nir = float(min(prevalence.max(), 1.0))
    n_correct = float(weight @ correct)
    accuracy = min(n_correct / n_samples, 1.0)
    if method == "binomial":
        pvalue = _binomial_greater(n_correct, n_samples, nir)
    else:
        majority = codes == int(np.argmax(prevalence))
        # [[both right, only the classifier], [only the majority predictor, neither]]
        table = np.bincount(2 * (~correct) + ~majority, weights=weight,
                            minlength=4).reshape(2, 2)
        # the exact one-sided McNemar test (mcnemar_test(table, exact=True,
        # alternative="greater")) as the binomial tail it is, continuous in weighted counts
        only_classifier, only_majority = float(table[0, 1]), float(table[1, 0])
        pvalue = _binomial_greater(only_classifier, only_classifier + only_majority, 0.5)
    low, high = _clopper_pearson(n_correct, n_samples, float(confidence_level))
    return NoInformationRateResult(
        float(accuracy), pvalue, low=low, high=high, no_information_rate=nir,
        method=method, n_correct=n_correct, n_samples=n_samples,
        confidence_level=float(confidence_level))
