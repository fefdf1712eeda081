"""Paired comparisons of two models across cross-validation folds.

The folds of one cross-validation share their training data, so the per-fold differences
of two models' scores are correlated, and a t-test that treats them as independent
rejects a true null hypothesis far more often than its level says. The tests here
account for it:

* Dietterich's 5x2cv paired t-test ("Approximate Statistical Tests for Comparing
  Supervised Classification Learning Algorithms", Neural Computation 1998) and Alpaydin's
  combined 5x2cv F-test ("Combined 5 x 2 cv F Test for Comparing Supervised
  Classification Learning Algorithms", Neural Computation 1999), on five repetitions of a
  2-fold cross-validation;
* the corrected resampled t-test of Nadeau and Bengio ("Inference for the Generalization
  Error", Machine Learning 2003), whose variance of the mean difference over ``J``
  resamples is ``(1 / J + n_test / n_train)`` times the sample variance, on repeated
  k-fold cross-validation (Bouckaert and Frank 2004);
* the Bayesian correlated t-test of Corani and Benavoli (2015), as presented in Benavoli,
  Corani, Demsar and Zaffalon, "Time for a change: a tutorial for comparing multiple
  classifiers through Bayesian analysis" (JMLR 2017, Section 4): the posterior of the mean
  difference is Student's t with ``J - 1`` degrees of freedom, location the mean difference
  and scale ``sqrt((1 / J + rho / (1 - rho)) s^2)``, ``rho = n_test / (n_test + n_train)``,
  read as the probabilities of each model being better and of practical equivalence
  (the difference within the region of practical equivalence, ``rope``);
* and, for contrast only, the naive paired t-test over the folds (the variance ``s^2 / J``),
  which the simulations of the user guide show rejecting too often.

:func:`compare_cv` draws the folds and fits the two models on them; :func:`compare_cv_scores`
takes per-fold scores already computed (``cross_validate``'s ``test_*`` arrays).
"""

import inspect
import math
from collections.abc import Mapping
from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np
from scipy import stats

from .._core.params import (
    ARRAY,
    CALLABLE,
    CONFIDENCE_LEVEL,
    PARALLEL,
    POSITIVE_INT,
    PVALUE,
    RANDOM_STATE,
    VERBOSE,
    HasMethods,
    Interval,
    Options,
    quoted,
    validate_params,
)
from .._core.resampling import Progress, group_codes
from .._core.results import (
    ConfidenceInterval,
    Result,
    _Bare,
    _number,
    _result,
    _Table,
)
from .._core.user_warnings import warn
from .margin import (
    MARGIN,
    MarginVerdict,
    decision_alpha,
    null_difference,
    refuse_margin,
    snap_bound,
    verdict_text,
)

TESTS = ("corrected_ttest", "bayesian", "5x2cv_ttest", "5x2cv_ftest", "naive_ttest")
_TEST_NAMES = {
    "corrected_ttest": "corrected resampled t-test (Nadeau and Bengio 2003)",
    "bayesian": "Bayesian correlated t-test (Corani and Benavoli 2015)",
    "5x2cv_ttest": "5x2cv paired t-test (Dietterich 1998)",
    "5x2cv_ftest": "combined 5x2cv F-test (Alpaydin 1999)",
    "naive_ttest": "naive paired t-test over folds (ignores their correlation)",
}
_FIVE_BY_TWO = ("5x2cv_ttest", "5x2cv_ftest")
# Tests whose variance correction needs the ratio of test to training sizes.
_NEED_SIZES = ("corrected_ttest", "bayesian")
# Differences within this relative spread of each other are equal (rounding of the scores):
# their variance is taken as zero rather than as a rounding error that makes t astronomic.
_ROUNDING = 1e-12
# 5x2cv's tests are derived for two halves; the corrected tests for one test share.
_HALF_SHARE = (0.4, 0.6)
_SHARE_SPREAD = 0.1

# --- The declarations -------------------------------------------------------------------

# The training and test sizes of folds: one positive number, or one per fold (data set).
FOLD_SIZE = [None, Interval(Real, 0, None, closed="neither"), ARRAY]
# What the paired tests across cross-validation folds share (compare_cv, compare_cv_scores).
CV_TEST = {
    "method": [Options(*TESTS)], "rope": [Interval(Real, 0, None)],
    "alternative": [Options("two-sided", "greater", "less")], "models": [None, ARRAY],
    "confidence_level": [CONFIDENCE_LEVEL], **MARGIN}
CV_FROM_ESTIMATORS = {
    "estimator_a": [HasMethods("fit", description="an estimator")],
    "estimator_b": [HasMethods("fit", description="an estimator")],
    "X": [ARRAY], "y": [ARRAY], "scoring": [None, str, CALLABLE],
    "n_splits": [None, Interval(Integral, 2, None)], "n_repeats": [None, POSITIVE_INT],
    "groups": [None, ARRAY], "rope": CV_TEST["rope"], "random_state": RANDOM_STATE,
    "n_jobs": PARALLEL["n_jobs"], "models": CV_TEST["models"], "verbose": VERBOSE}
CV_FROM_SCORES = {
    "scores_a": [ARRAY, dict], "scores_b": [ARRAY, dict], "n_train": FOLD_SIZE,
    "n_test": FOLD_SIZE, "rope": CV_TEST["rope"], "scoring": [None, str, CALLABLE],
    "models": CV_TEST["models"]}
# The former names of the keywords (one release of grace).
CV_RENAMED = {"names": "models", "test": "method"}


class _PerFold(MarginVerdict, Result):
    """The per-fold table of a cross-validated comparison (``to_frame()``, the HTML view);
    the repr is the summary line alone (a table of 100 folds is no summary), and, with a
    margin, the verdict on a line of its own (``to_frame()`` keeps it in
    ``frame.attrs["verdict"]``)."""

    def _summary(self):
        summary = super()._summary()
        if self.margin is not None:
            summary += [("margin", self.margin), ("hypothesis", self.hypothesis)]
        return summary

    def to_frame(self):
        frame = super().to_frame()
        if self.margin is not None:
            frame.attrs["verdict"] = self.verdict
        return frame

    @property
    def differences(self):
        """The per-fold differences ``scores_a - scores_b``."""
        return self.scores_a - self.scores_b

    def _table(self):
        columns = {"scores_a": self.scores_a, "scores_b": self.scores_b,
                   "difference": self.differences}
        if self.n_train is not None:
            columns.update(n_train=self.n_train, n_test=self.n_test)
        return _Table("fold", range(self.scores_a.size), columns)

    def __repr__(self):
        verdict = self._verdict_line()
        return self._line() if verdict is None else f"{self._line()}\nverdict: {verdict}"


@_result(parameters={
    "statistic": [Interval(Real, None, None), Options(math.inf, -math.inf)],
    "pvalue": PVALUE, "df": [Interval(Real, 0, None, closed="neither"), tuple],
    "method": [Options("corrected_ttest", "5x2cv_ttest", "5x2cv_ftest", "naive_ttest")],
    "score": [str], "models": [tuple],
    "alternative": [Options("two-sided", "greater", "less")],
    "estimate": [Interval(Real, None, None)], "scores_a": [ARRAY], "scores_b": [ARRAY],
    "n_train": [None, ARRAY], "n_test": [None, ARRAY],
    "tested_difference": [None, Interval(Real, None, None)],
    "confidence_level": [CONFIDENCE_LEVEL], **MARGIN})
class CrossValidatedTestResult(_PerFold):
    """Result of a frequentist test of :func:`compare_cv` or :func:`compare_cv_scores`.

    Unpacks like scipy's results: ``statistic, pvalue = compare_cv(...)``.

    Attributes
    ----------
    statistic : float
        Student's t (F for ``method="5x2cv_ftest"``); infinite, with a warning, where the
        differences have no spread but are not all zero.
    pvalue : float
        Of the null hypothesis that the two models score alike, for ``alternative``.
    df : float or tuple of float
        Degrees of freedom: ``J - 1`` (5 for the 5x2cv t-test), ``(10, 5)`` for the F-test.
    method : str
        ``"corrected_ttest"``, ``"5x2cv_ttest"``, ``"5x2cv_ftest"`` or ``"naive_ttest"``
        (formerly ``test``, which still reads with a ``FutureWarning``).
    score : str
        The score compared (a higher value is better).
    models : tuple of str
        The names of model a and model b.
    alternative : str
        ``"two-sided"``, ``"greater"`` (a scores higher) or ``"less"``.
    estimate : float
        The mean of the per-fold differences ``scores_a - scores_b`` (formerly
        ``difference``, which still reads with a ``FutureWarning``).
    scores_a, scores_b : ndarray of shape (n_folds,)
        The per-fold scores, in fold order (for 5x2cv: repetition by repetition).
    n_train, n_test : ndarray of shape (n_folds,) or None
        The training and test sizes of each fold, where known.
    tested_difference : float or None
        The difference whose sign and size the statistic tests: the mean difference
        (``estimate``) for the corrected and naive t-tests; the first fold's difference
        ``d_11`` for Dietterich's 5x2cv t-test, whose statistic is
        ``d_11 / sqrt(sum_i s_i^2 / 5)`` (so its sign can differ from ``estimate``'s);
        None for Alpaydin's F-test, whose statistic sums the ten squared differences.
    margin : float or None
        The margin of a non-inferiority or superiority test; None for the test of no
        difference. With a margin, ``statistic`` is ``(tested_difference - null) / se``
        with ``null`` the null difference ``-margin`` (non-inferiority) or ``+margin``
        (superiority), ``pvalue`` its one-sided p-value and ``alternative`` "greater".
    hypothesis : {"non-inferiority", "superiority"} or None
        The test of the margin; None without one.
    differences : ndarray of shape (n_folds,)
        ``scores_a - scores_b`` (a property).
    confidence_level : float
        The level of the margin's decision (0.95: at the 5 % level).
    verdict : str or None
        With a margin, the decision at the level ``1 - confidence_level``, worded for a
        release (a property): the null difference is rejected when ``pvalue < 1 -
        confidence_level``, that is when ``confidence_interval(confidence_level).low``
        lies above it; None without a margin.

    See Also
    --------
    compare_cv : Cross-validate two models on the same folds and test them.
    compare_cv_scores : The same tests on per-fold scores already computed.
    BayesianCorrelatedTTestResult : The result of ``method="bayesian"``.

    Notes
    -----
    The repr is one line naming the test, the score and the models; for the 5x2cv tests
    it says which difference the statistic tests (``tested_difference``) beside the mean
    ``estimate``. ``to_frame()`` gives the folds as a pandas DataFrame (columns
    ``scores_a``, ``scores_b``, ``difference``, ``n_train``, ``n_test``).

    Examples
    --------
    >>> from sklearn_confusion_ext import compare_cv_scores
    >>> result = compare_cv_scores([0.91, 0.88, 0.90, 0.93], [0.86, 0.87, 0.85, 0.90],
    ...                            method="naive_ttest")
    >>> statistic, pvalue = result
    >>> round(statistic, 3), round(pvalue, 4), result.df
    (3.656, 0.0354, 3.0)
    >>> low, high = result.confidence_interval(0.95)
    >>> round(low, 4), round(high, 4)
    (0.0045, 0.0655)
    """

    statistic: float
    pvalue: float
    _: KW_ONLY
    df: object
    method: str
    score: str
    models: tuple
    alternative: str
    estimate: float
    scores_a: object
    scores_b: object
    n_train: object = None
    n_test: object = None
    tested_difference: object = None
    margin: float = None
    hypothesis: str = None
    confidence_level: float = 0.95

    # The repr's line: the test, what it compared, its figures (never the per-fold arrays)
    _unpacked = ("statistic", "pvalue")
    _summary_fields = ("method", "score", "models", "statistic", "pvalue", "df", "estimate",
                       "alternative")
    _renamed_fields = {"test": "method", "difference": "estimate"}

    def _summary(self):
        """The summary line; for the 5x2cv tests, with the difference the statistic tests
        before the mean ``estimate`` (Dietterich's t tests the first fold's only)."""
        summary = super()._summary()
        if self.method == "5x2cv_ttest" and self.tested_difference is not None:
            note = f"{_number(self.tested_difference)} (d_11, the first fold's)"
        elif self.method == "5x2cv_ftest":
            note = "None (F sums the 10 squared differences)"
        else:
            return summary
        at = [name for name, _ in summary].index("estimate")
        summary[at:at + 1] = [("tested_difference", _Bare(note)), (
            "estimate", _Bare(f"{_number(self.estimate)} (mean of the 10 folds)"))]
        return summary

    @property
    def verdict(self):
        """The decision of the margin's test at the level ``1 - confidence_level``, worded
        for a release; None without a margin."""
        if self.margin is None:
            return None
        hypothesis = self.hypothesis or "non-inferiority"
        null = -self.margin if hypothesis == "non-inferiority" else self.margin
        rejected = self.pvalue < decision_alpha(self.confidence_level)
        bound = snap_bound(self.confidence_interval(self.confidence_level).low, null,
                           rejected)
        return verdict_text(hypothesis, self.margin, rejected, bound=bound,
                            pvalue=self.pvalue, models=self.models)

    @validate_params({"confidence_level": [CONFIDENCE_LEVEL]})
    def confidence_interval(self, confidence_level=0.95):
        """The confidence interval of the difference the t statistic tests, as scipy's
        ``TtestResult.confidence_interval``.

        The interval inverts the test: ``tested_difference`` plus or minus the Student-t
        quantile with ``df`` degrees of freedom times the test's standard error (the
        corrected one, ``sqrt((1/J + n_test/n_train) s^2)``, for ``"corrected_ttest"``;
        ``sqrt(s^2 / J)`` for ``"naive_ttest"``; ``sqrt(sum_i s_i^2 / 5)`` around ``d_11``
        for ``"5x2cv_ttest"``). One-sided for a one-sided ``alternative``: ``(low, inf)``
        for ``"greater"``, ``(-inf, high)`` for ``"less"``.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The interval's level, in (0, 1).

        Returns
        -------
        ConfidenceInterval
            A named tuple ``(low, high)``.

        Raises
        ------
        ValueError
            For ``method="5x2cv_ftest"``: Alpaydin's F sums squared differences and
            inverts to no interval of the difference.

        See Also
        --------
        scipy.stats.ttest_1samp : Its result's ``confidence_interval``, the naive test's.
        compare_scores : Two models on one test set, with a resampled interval.
        """
        level = float(confidence_level)
        if self.method == "5x2cv_ftest":
            raise ValueError("method='5x2cv_ftest' has no confidence interval: its F "
                             "statistic sums the ten squared differences; use "
                             "method='5x2cv_ttest' for an interval of the difference.")
        differences = np.asarray(self.differences, dtype=float)
        if self.method == "5x2cv_ttest":
            d = differences.reshape(5, 2)
            variance = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1).mean()
        else:
            if self.method == "corrected_ttest" and self.n_train is None:
                raise ValueError("method='corrected_ttest' corrects its standard error by "
                                 "n_test / n_train: this result holds no fold sizes.")
            ratio = 0.0 if self.method == "naive_ttest" else float(
                np.mean(self.n_test) / np.mean(self.n_train))
            variance = corrected_variance(differences, ratio)
        se = math.sqrt(variance)
        center = float(differences[0] if self.method == "5x2cv_ttest" else self.estimate)
        if self.alternative == "two-sided":
            q = float(stats.t.ppf((1 + level) / 2, self.df))
            return ConfidenceInterval(center - q * se, center + q * se)
        q = float(stats.t.ppf(level, self.df))
        if self.alternative == "greater":
            return ConfidenceInterval(center - q * se, math.inf)
        return ConfidenceInterval(-math.inf, center + q * se)


@_result(parameters={
    **{name: [Interval(Real, 0, 1)] for name in ("p_a_better", "p_rope", "p_b_better")},
    "rope": [Interval(Real, 0, None)], "mean": [Interval(Real, None, None)],
    "scale": [Interval(Real, 0, None)], "df": [Interval(Real, 0, None, closed="neither")],
    "rho": [Interval(Real, 0, 1, closed="neither")], "score": [str], "models": [tuple],
    "scores_a": [ARRAY], "scores_b": [ARRAY], "n_train": [None, ARRAY],
    "n_test": [None, ARRAY], **MARGIN,
    **{name: [None, Interval(Real, 0, 1)] for name in ("p_non_inferior", "p_superior")},
    "confidence_level": [CONFIDENCE_LEVEL]})
class BayesianCorrelatedTTestResult(_PerFold):
    """Result of the Bayesian correlated t-test (``method="bayesian"`` of :func:`compare_cv`
    and :func:`compare_cv_scores`).

    Unpacks to three probabilities whatever ``rope``:
    ``p_a_better, p_rope, p_b_better = result`` (``p_rope`` is 0 where ``rope`` is 0), not
    to a statistic and a p-value as the frequentist tests' results do: ``statistic,
    pvalue = result`` raises ``ValueError`` (too many values to unpack).

    Attributes
    ----------
    p_a_better : float
        Posterior probability that the mean difference ``a - b`` exceeds ``rope``.
    p_rope : float
        Posterior probability that it lies within ``[-rope, rope]`` (0 where ``rope`` is 0).
    p_b_better : float
        Posterior probability that it is below ``-rope``.
    rope : float
        Half-width of the region of practical equivalence, in units of the score.
    mean : float
        Location of the posterior: the mean per-fold difference.
    scale : float
        Scale of the posterior, ``sqrt((1 / J + rho / (1 - rho)) s^2)``; 0 where the
        differences have no spread (the posterior is then a point mass at ``mean``).
    df : float
        Degrees of freedom, ``J - 1``.
    rho : float
        The correlation of the folds, ``n_test / (n_test + n_train)``.
    score : str
        The score compared (a higher value is better).
    models : tuple of str
        The names of model a and model b.
    scores_a, scores_b : ndarray of shape (n_folds,)
        The per-fold scores, in fold order.
    n_train, n_test : ndarray of shape (n_folds,) or None
        The training and test sizes of each fold, where known.
    method : str
        ``"bayesian"`` (formerly ``test``, which still reads with a ``FutureWarning``).
    margin : float or None
        The margin of a non-inferiority or superiority reading of the posterior (None:
        none). It is independent of ``rope``.
    hypothesis : {"non-inferiority", "superiority"} or None
        Which of the two the verdict reads; None without a margin.
    p_non_inferior, p_superior : float or None
        With a margin: the posterior probabilities that the mean difference exceeds
        ``-margin`` and ``+margin``; None otherwise.
    confidence_level : float
        The posterior probability a margin's ``verdict`` asks (0.95 by default).
    differences : ndarray of shape (n_folds,)
        ``scores_a - scores_b`` (a property).
    verdict : str or None
        With a margin, the decision worded for a release (a property): shown where the
        posterior probability of the hypothesis (``p_non_inferior`` or ``p_superior``)
        exceeds 0.95; None without a margin.

    See Also
    --------
    compare_cv_scores : The test on per-fold scores.
    CrossValidatedTestResult : The result of the frequentist tests.
    BayesianSignedRankResult : Two models over several data sets.

    Notes
    -----
    The repr is one line; ``to_frame()`` gives the folds, as for
    :class:`CrossValidatedTestResult`.

    Examples
    --------
    >>> from sklearn_confusion_ext import compare_cv_scores
    >>> result = compare_cv_scores([0.91, 0.88, 0.90, 0.93], [0.86, 0.87, 0.85, 0.90],
    ...                            method="bayesian", rope=0.01, n_train=3, n_test=1)
    >>> p_a_better, p_rope, p_b_better = result
    >>> round(p_a_better, 3), round(p_rope, 3), round(p_b_better, 3)
    (0.907, 0.066, 0.027)
    >>> round(float(result.posterior().mean()), 3)
    0.035
    """

    _: KW_ONLY
    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    mean: float
    scale: float
    df: float
    rho: float
    score: str
    models: tuple
    scores_a: object
    scores_b: object
    n_train: object = None
    n_test: object = None
    margin: float = None
    hypothesis: str = None
    p_non_inferior: float = None
    p_superior: float = None
    confidence_level: float = 0.95

    method = "bayesian"
    _summary_fields = ("method", "score", "models", "p_a_better", "p_rope", "p_b_better",
                       "rope", "mean", "scale", "df")
    _unpacked = ("p_a_better", "p_rope", "p_b_better")
    _field_arguments = {"rho": ("n_train", "n_test"), "scale": ("n_train", "n_test")}
    _renamed_fields = {"test": "method"}

    def _summary(self):
        summary = super()._summary()
        if self.margin is not None:
            summary += [("p_non_inferior", self.p_non_inferior),
                        ("p_superior", self.p_superior)]
        return summary

    @property
    def verdict(self):
        """The decision of the margin at posterior probability ``confidence_level``,
        worded for a release; None without a margin."""
        if self.margin is None:
            return None
        hypothesis = self.hypothesis or "non-inferiority"
        probability = self.p_non_inferior if hypothesis == "non-inferiority" else \
            self.p_superior
        return verdict_text(hypothesis, self.margin, probability > self.confidence_level,
                            probability=probability, level=self.confidence_level,
                            models=self.models)

    def posterior(self):
        """The posterior of the mean difference, a frozen ``scipy.stats.t``.

        Raises ``ValueError`` where ``scale`` is 0 (a point mass at ``mean``, which scipy
        cannot represent as Student's t).
        """
        if self.scale == 0:
            raise ValueError(f"The posterior is a point mass at {self.mean!r} (the per-fold "
                             "differences have no spread): it has no Student-t form.")
        return stats.t(self.df, loc=self.mean, scale=self.scale)


# --- Reading per-fold scores ----------------------------------------------------------------


def _scores_of(scores, name, scoring):
    """The per-fold scores (a 1-D or (n_repeats, n_splits) array), the folds' indices
    (``{"train": [...], "test": [...]}``, or None) and the key read (None for an array) of
    ``scores``: an array, or ``cross_validate``'s result dict."""
    if not isinstance(scores, Mapping):
        return scores, None, None
    keys = [key for key in scores if isinstance(key, str) and key.startswith("test_")]
    if scoring is not None and not callable(scoring):
        key = f"test_{scoring}"
        if key not in scores:
            key = "test_score" if keys == ["test_score"] else None
    else:
        key = keys[0] if len(keys) == 1 else None
    if key is None and any(isinstance(key, str) and key.startswith("split")
                           and "_test_" in key for key in scores):
        raise ValueError(
            f"{name} looks like a search's cv_results_ (split*_test_* keys), which holds the "
            "folds of every candidate: pass one candidate's fold scores, e.g. np.array("
            "[cv_results[f'split{k}_test_score'][i] for k in range(n_splits)]) for candidate "
            "i, or cross_validate's result for one model.")
    if key is None:
        raise ValueError(f"{name} is a dict without one test score to compare: its test "
                         f"scores are {keys}; pass scoring= naming one (scoring='f1' reads "
                         "'test_f1'), or the array itself.")
    return scores[key], scores.get("indices"), key


def _check_scores(scores_a, scores_b, test):
    """Two float arrays of per-fold scores (flattened repetition by repetition)."""
    arrays = []
    for name, scores in (("scores_a", scores_a), ("scores_b", scores_b)):
        array = _numbers(name, scores, "one number per fold")
        if array.ndim not in (1, 2):
            raise ValueError(f"{name} must be 1-D (one score per fold) or 2-D (n_repeats, "
                             f"n_splits); got shape {array.shape}.")
        if test in _FIVE_BY_TWO and array.ndim == 2 and array.shape != (5, 2):
            raise ValueError(f"method={test!r} needs 5 repetitions of 2 folds: {name} must "
                             f"have shape (5, 2) or (10,); got {array.shape}.")
        arrays.append(array)
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"scores_a and scores_b must hold the scores of the same folds; got "
                         f"shapes {arrays[0].shape} and {arrays[1].shape}.")
    arrays = [array.ravel() for array in arrays]
    for name, array in zip(("scores_a", "scores_b"), arrays):
        bad = np.flatnonzero(~np.isfinite(array))
        if bad.size:
            raise ValueError(f"{name} has {array[bad[0]]} at fold {bad[0]} ({bad.size} "
                             "non-finite score(s)): every fold needs a score; a score that "
                             "is undefined on a fold cannot be compared.")
    n_folds = arrays[0].size
    if test in _FIVE_BY_TWO and n_folds != 10:
        raise ValueError(f"method={test!r} needs the scores of 5 repetitions of 2-fold "
                         f"cross-validation (10 folds, repetition by repetition); got "
                         f"{n_folds}.")
    if n_folds < 2:
        raise ValueError(f"A comparison across folds needs at least 2 folds; got {n_folds}.")
    return arrays


def _check_sizes(n_train, n_test, n_folds, test):
    """The per-fold sizes as float arrays (None where not given), checked."""
    if (n_train is None) != (n_test is None):
        raise ValueError("Pass both n_train and n_test (or neither).")
    if n_train is None:
        if test in _NEED_SIZES:
            raise ValueError(
                f"method={test!r} corrects the variance by the ratio of test to training "
                "sizes: pass n_train and n_test (per fold, or one number each; only their "
                "ratio enters, so n_train=9, n_test=1 for 10-fold cross-validation), or "
                "cross_validate's results with return_indices=True.")
        return None, None
    sizes = fold_sizes(n_train, n_test, n_folds, "fold")
    share = sizes[1] / (sizes[0] + sizes[1])
    if test in _FIVE_BY_TWO:
        outside = np.flatnonzero((share < _HALF_SHARE[0]) | (share > _HALF_SHARE[1]))
        if outside.size:
            k = outside[0]
            raise ValueError(
                f"method={test!r} is derived for 2-fold cross-validation into two halves; "
                f"fold {k} tests on {sizes[1][k]:g} of {sizes[0][k] + sizes[1][k]:g} "
                f"instances (a share outside [{_HALF_SHARE[0]}, {_HALF_SHARE[1]}]).")
    elif np.ptp(share) > _SHARE_SPREAD:
        raise ValueError(
            f"The folds test on different shares of the data ({share.min():.3g} to "
            f"{share.max():.3g} of each fold's instances): method={test!r} assumes one ratio "
            "of test to training sizes. Use folds of (nearly) equal sizes (with groups=: "
            "fewer folds, or groups of more even sizes), or, with per-fold scores, pass "
            "n_train and n_test as single numbers to accept their ratio as an "
            "approximation.")
    return sizes


def _no_spread(values):
    """Whether ``values`` are all equal, up to the rounding of the scores."""
    return np.ptp(values) <= _ROUNDING * max(1.0, np.max(np.abs(values)))


def corrected_variance(values, ratio):
    """Nadeau and Bengio's variance of the mean of ``J`` per-fold values,
    ``(1/J + ratio) s^2`` with ``ratio = n_test / n_train`` (0: the naive ``s^2 / J``);
    0 where the values have no spread (up to rounding). The one home of the correction:
    the corrected t-test, the Bayesian correlated t-test and the interval of one model's
    cross-validated score (:func:`cross_validated_score_interval`) read it."""
    if _no_spread(values):
        return 0.0
    return float(values.var(ddof=1) * (1 / values.size + ratio))


# --- The tests on per-fold differences ----------------------------------------------------


def _t_pvalue(statistic, df, alternative):
    if alternative == "greater":
        return stats.t.sf(statistic, df)
    if alternative == "less":
        return stats.t.cdf(statistic, df)
    return min(1.0, 2 * stats.t.sf(abs(statistic), df))


def _degenerate(numerator, test, alternative, all_zero=True):
    """The documented result of a test whose differences have no spread: statistic 0 and
    p-value 1 where the numerator is 0 (the models score alike on every fold), else an
    infinite statistic of the numerator's sign and its limiting p-value."""
    if numerator == 0:
        warn(f"method={test!r}: the two models score alike on every fold (every difference "
             "is 0, so the variance is 0); statistic 0, p-value 1." if all_zero else
             f"method={test!r}: the differences have no spread within each repetition and "
             "the first is 0 (the statistic is 0 / 0); statistic 0, p-value 1.",
             RuntimeWarning)
        return 0.0, 1.0
    warn(f"method={test!r}: the per-fold differences have no spread (variance 0) but are not "
         "0; the statistic is infinite and the p-value its limit. With so few folds or so "
         "coarse a score, the test has no estimate of the variance.", RuntimeWarning)
    statistic = math.copysign(math.inf, numerator)
    if test == "5x2cv_ftest":
        return math.inf, 0.0
    favoured = "greater" if numerator > 0 else "less"
    return statistic, (1.0 if alternative not in ("two-sided", favoured) else 0.0)


def _t_test(differences, ratio, test, alternative, null=0.0):
    """``(t, pvalue, df)`` of the mean difference with variance ``(1/J + ratio) s^2``
    (``null``: the null difference of a margin, subtracted from the mean)."""
    n = differences.size
    mean = differences.mean() - null
    if _no_spread(differences):
        numerator = 0.0 if abs(mean) <= _ROUNDING else mean
        return (*_degenerate(numerator, test, alternative), float(n - 1))
    with np.errstate(over="ignore"):  # a margin of 1e308 over a small standard error: inf
        statistic = mean / math.sqrt(corrected_variance(differences, ratio))
    return statistic, _t_pvalue(statistic, n - 1, alternative), float(n - 1)


def _five_by_two(differences, test, alternative, null=0.0):
    """Dietterich's t (first difference, less the null difference of a margin, over the
    pooled variance of the five repetitions) or Alpaydin's F (sum of the ten squared
    differences over twice that variance)."""
    d = differences.reshape(5, 2)
    variances = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    no_spread = all(_no_spread(row) for row in d)
    if test == "5x2cv_ttest":
        first = d[0, 0] - null
        if no_spread:
            numerator = 0.0 if abs(first) <= _ROUNDING else first
            all_zero = bool(np.abs(d).max() <= _ROUNDING)
            return (*_degenerate(numerator, test, alternative, all_zero), 5.0)
        with np.errstate(over="ignore"):  # a margin of 1e308: inf
            statistic = first / math.sqrt(variances.mean())
        return statistic, _t_pvalue(statistic, 5, alternative), 5.0
    if no_spread:
        numerator = 0.0 if np.abs(d).max() <= _ROUNDING else 1.0
        return (*_degenerate(numerator, test, alternative), (10.0, 5.0))
    statistic = (d ** 2).sum() / (2 * variances.sum())
    return statistic, stats.f.sf(statistic, 10, 5), (10.0, 5.0)


def _bayesian(differences, ratio, rope):
    """``(p_a_better, p_rope, p_b_better, mean, scale, df)`` of the correlated t-test."""
    n = differences.size
    mean, df = float(differences.mean()), float(n - 1)
    if _no_spread(differences):
        warn("method='bayesian': the per-fold differences have no spread (variance 0); the "
             "posterior is a point mass at their mean.", RuntimeWarning)
        if rope == 0:
            a_better = 1.0 if mean > 0 else 0.5 if mean == 0 else 0.0
            return a_better, 0.0, 1.0 - a_better, mean, 0.0, df
        return float(mean > rope), float(abs(mean) <= rope), float(mean < -rope), mean, 0.0, df
    scale = math.sqrt(corrected_variance(differences, ratio))
    with np.errstate(over="ignore"):  # a rope of 1e308: (rope - mean) / scale is inf
        b_better = float(stats.t.cdf(-rope, df, loc=mean, scale=scale))
        a_better = float(stats.t.sf(rope, df, loc=mean, scale=scale))
    p_rope = 0.0 if rope == 0 else max(0.0, 1.0 - a_better - b_better)
    return a_better, p_rope, b_better, mean, scale, df


def _margin_probabilities(mean, scale, df, margin):
    """``p_non_inferior`` and ``p_superior``: the posterior probabilities of a mean
    difference above ``-margin`` and ``+margin`` (a point mass where ``scale`` is 0)."""
    if scale == 0:
        return {"p_non_inferior": float(mean > -margin), "p_superior": float(mean > margin)}
    with np.errstate(over="ignore"):
        return {"p_non_inferior": float(stats.t.sf(-margin, df, loc=mean, scale=scale)),
                "p_superior": float(stats.t.sf(margin, df, loc=mean, scale=scale))}


def _check_margin(test, margin):
    if margin is not None and test == "5x2cv_ftest":
        raise refuse_margin(test, "Alpaydin's F sums the ten squared differences, which "
                            "tests only that they are all 0, two-sided; it has no shifted "
                            "null difference.", "method='5x2cv_ttest' (on the same 5 x 2 "
                            "folds) or 'corrected_ttest'")


def _check_options(test, rope, alternative):
    if test == "5x2cv_ftest" and alternative != "two-sided":
        raise ValueError("method='5x2cv_ftest' is two-sided (its F statistic sums squared "
                         "differences); pass alternative='two-sided', or use "
                         "method='5x2cv_ttest' for a one-sided test.")
    if test == "bayesian" and alternative != "two-sided":
        raise ValueError("method='bayesian' reports the probability of each side; leave "
                         "alternative='two-sided'.")
    if rope != 0 and test != "bayesian":
        raise ValueError(f"rope is the region of practical equivalence of method='bayesian'; "
                         f"method={test!r} has none (got rope={rope!r}).")


def _compare(scores_a, scores_b, test, n_train, n_test, rope, alternative, score, models,
             margin=None, hypothesis=None, confidence_level=0.95):
    _check_options(test, rope, alternative)
    null, hypothesis = _margin_null(test, margin, hypothesis, alternative)
    scores_a, scores_b = _check_scores(scores_a, scores_b, test)
    n_train, n_test = _check_sizes(n_train, n_test, scores_a.size, test)
    differences = scores_a - scores_b
    ratio = None if n_train is None else float(n_test.mean() / n_train.mean())
    common = {"score": score, "models": models, "scores_a": scores_a,
              "scores_b": scores_b, "n_train": n_train, "n_test": n_test,
              "confidence_level": float(confidence_level)}
    if null is not None:
        common.update(margin=float(margin), hypothesis=hypothesis)
    if test == "bayesian":
        a_better, p_rope, b_better, mean, scale, df = _bayesian(differences, ratio, rope)
        if null is not None:
            common.update(_margin_probabilities(mean, scale, df, float(margin)))
        return BayesianCorrelatedTTestResult(
            p_a_better=a_better, p_rope=p_rope, p_b_better=b_better, rope=float(rope),
            mean=mean, scale=scale, df=df, rho=ratio / (1 + ratio), **common)
    estimate = float(differences.mean())
    if null is not None:
        alternative = "greater"
    if test in _FIVE_BY_TWO:
        statistic, pvalue, df = _five_by_two(differences, test, alternative, null or 0.0)
        tested = float(differences[0]) if test == "5x2cv_ttest" else None
    else:
        ratio = 0.0 if test == "naive_ttest" else ratio
        statistic, pvalue, df = _t_test(differences, ratio, test, alternative, null or 0.0)
        tested = estimate
    return CrossValidatedTestResult(
        float(statistic), float(pvalue), df=df, method=test, alternative=alternative,
        estimate=estimate, tested_difference=tested, **common)


def _margin_null(test, margin, hypothesis, alternative):
    """The null difference of a margin (None without one) and its hypothesis, checked
    before any work."""
    _check_margin(test, margin)
    return null_difference(margin, hypothesis, alternative)


# --- From per-fold scores -------------------------------------------------------------------


@validate_params({**CV_FROM_SCORES, **CV_TEST}, renamed=CV_RENAMED)
def compare_cv_scores(scores_a, scores_b, *, method="corrected_ttest", n_train=None,
                      n_test=None, rope=0.0, alternative="two-sided", margin=None,
                      hypothesis=None, scoring=None, models=None, confidence_level=0.95):
    """Paired test of two models' per-fold scores from the same cross-validation folds.

    The form of :func:`compare_cv` for scores already computed, e.g. the ``test_*`` arrays
    of two ``sklearn.model_selection.cross_validate`` calls on the same ``cv`` splits.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_folds,) or (n_repeats, n_splits), or dict
        One score per fold for each model (higher is better), fold by fold in the same
        order: repetition by repetition for repeated cross-validation (the order of
        ``RepeatedKFold`` and ``RepeatedStratifiedKFold``). A dict is ``cross_validate``'s
        result: ``scoring`` names its ``test_*`` key (needed where it holds several), and
        the fold sizes are read from its ``indices`` where it was called with
        ``return_indices=True``. Two dicts must hold the same score: keys that differ
        (``test_score`` beside ``test_f1``) are refused, as folds that differ are.
    method : {"corrected_ttest", "bayesian", "5x2cv_ttest", "5x2cv_ftest", "naive_ttest"}, \
default="corrected_ttest"
        The test (formerly ``test=``, which still works with a ``FutureWarning``).
        ``"corrected_ttest"``: Nadeau and Bengio's corrected resampled t-test, for
        (repeated) k-fold cross-validation. ``"bayesian"``: the Bayesian correlated t-test.
        ``"5x2cv_ttest"`` and ``"5x2cv_ftest"``: Dietterich's and Alpaydin's tests, for
        the 10 scores of five repetitions of 2-fold cross-validation. ``"naive_ttest"``:
        the paired t-test that treats the folds as independent, for contrast: it rejects
        too often (see the user guide's simulations).
    n_train, n_test : int, float or array-like of shape (n_folds,), default=None
        The training and test sizes of the folds, one number each or one per fold. Needed
        by ``"corrected_ttest"`` and ``"bayesian"``, of which only the ratio
        ``mean(n_test) / mean(n_train)`` enters (``n_train=9, n_test=1`` for 10-fold
        cross-validation). Folds whose test shares ``n_test / (n_train + n_test)`` differ
        by more than 0.1 are refused (pass single numbers to accept the ratio as an
        approximation); 5x2cv's folds must test on 40% to 60% of their instances. Sizes
        whose share rounds to 0 or 1 in float64 (``n_train=1e-300, n_test=1``) are refused.
    rope : float, default=0.0
        ``"bayesian"`` only: half-width of the region of practical equivalence, in units
        of the score (0.01: one point of accuracy). With 0, ``p_rope`` is 0.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": model a scores higher. The F-test and the Bayesian test are two-sided.
        With a ``margin`` the test is one-sided towards a (the result's ``alternative``
        is "greater"): leave it, or pass "greater"; "less" is refused (swap the models).
    margin : float, default=None
        Acceptance with a margin ``m >= 0``, in units of the score: the t-tests test the
        null difference ``-m`` or ``+m`` (``hypothesis``) instead of 0, one-sided, with
        ``(tested_difference - null) / se`` (Nadeau and Bengio's corrected standard error
        for ``"corrected_ttest"``; Dietterich's ``d_11`` for ``"5x2cv_ttest"``), and the
        result's ``verdict`` decides at the level ``1 - confidence_level``, as
        ``confidence_interval(confidence_level)`` does: the null difference is rejected
        exactly when that interval's lower bound lies above it. ``"bayesian"`` adds
        ``p_non_inferior`` and ``p_superior``, the posterior probabilities that the mean
        difference exceeds ``-m`` and ``+m``, and its verdict reads them against
        ``confidence_level`` (``rope`` is untouched). Refused with ``"5x2cv_ftest"``,
        whose F sums squared differences and tests only that they are all 0.
    hypothesis : {"non-inferiority", "superiority"}, default=None
        With a ``margin`` (None: "non-inferiority"). "non-inferiority": H0 ``a - b <=
        -m``, "model a is at most ``m`` worse than model b"; "superiority": H0 ``a - b
        <= +m``, "a beats b by more than ``m``". Refused without a margin.
    scoring : str or callable, default=None
        The score's name in the result, and the ``test_*`` key of dict inputs (by default
        their one ``test_*`` key, ``"score"`` for arrays).
    models : tuple of two str, default=None
        The models' names in the result; ``("a", "b")`` by default (formerly ``names=``,
        which still works with a ``FutureWarning``).
    confidence_level : float, default=0.95
        The level of a margin's decision (``verdict``): rejected at ``1 -
        confidence_level`` for the t-tests, a posterior probability above it for
        ``"bayesian"``. Without a margin it is only recorded; ask the result's
        ``confidence_interval(level)`` for an interval at any level.

    Returns
    -------
    CrossValidatedTestResult or BayesianCorrelatedTTestResult
        The latter for ``method="bayesian"``.

    See Also
    --------
    compare_cv : Draw the folds, fit both models and run these tests.
    compare_scores : Two models on one test set (resampling its instances).
    bayesian_hierarchical_test : Two models over several data sets, from their folds.
    PosteriorDifferenceDisplay : Draw the Bayesian test's posterior.

    Notes
    -----
    With ``J`` differences ``d_j = a_j - b_j`` of mean ``m`` and sample variance ``s^2``:
    the corrected t is ``m / sqrt((1/J + n_test/n_train) s^2)`` and the naive one
    ``m / sqrt(s^2 / J)``, both with ``J - 1`` degrees of freedom. With ``d_i1, d_i2`` the
    two differences of repetition ``i`` and ``s_i^2 = sum_j (d_ij - mean_j d_ij)^2``,
    Dietterich's t is ``d_11 / sqrt(sum_i s_i^2 / 5)`` (5 degrees of freedom) and
    Alpaydin's F ``sum_ij d_ij^2 / (2 sum_i s_i^2)`` (10 and 5). The Bayesian posterior
    of the mean difference is ``t_{J-1}(m, (1/J + rho/(1-rho)) s^2)`` with
    ``rho = n_test / (n_test + n_train)``, so ``rho / (1 - rho) = n_test / n_train``: its
    scale is the corrected t-test's standard error.

    Where the differences have no spread (up to rounding), the variance is 0: a
    ``RuntimeWarning``, and statistic 0 with p-value 1 where every difference is 0 (both
    models score alike on every fold), else an infinite statistic and its limiting
    p-value; the Bayesian posterior is then a point mass at the mean difference (scale 0),
    with probability 1 on the region holding it (1/2 each side of 0 with ``rope=0``, as
    baycomp).

    With a margin the same formulas hold with ``m`` replaced by ``m - null`` in the
    numerators (``null = -margin`` or ``+margin``) and the p-value one-sided ("greater");
    at ``margin=0`` they are the one-sided tests of no difference. The user guide's
    "Acceptance with a margin" measures their type I error at the margin's boundary.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the Generalization Error", Machine
       Learning 52(3), 239-281, 2003: the corrected resampled t-test, whose variance of
       the mean difference is ``(1/J + n_test/n_train) s^2``.
    .. [2] T. G. Dietterich, "Approximate Statistical Tests for Comparing Supervised
       Classification Learning Algorithms", Neural Computation 10(7), 1895-1923, 1998:
       the 5x2cv paired t-test, its Section 3.5 (``t = d_11 / sqrt(sum_i s_i^2 / 5)``).
    .. [3] E. Alpaydin, "Combined 5 x 2 cv F Test for Comparing Supervised Classification
       Learning Algorithms", Neural Computation 11(8), 1885-1892, 1999: the combined F,
       ``sum_ij d_ij^2 / (2 sum_i s_i^2)`` with (10, 5) degrees of freedom.
    .. [4] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
       2017, Section 4: the Bayesian correlated t-test (Corani and Benavoli 2015), its
       posterior Student t of the mean difference.
    .. [5] R. R. Bouckaert and E. Frank, "Evaluating the Replicability of Significance
       Tests for Comparing Learning Algorithms", PAKDD 2004: ten repetitions of 10-fold
       cross-validation with the corrected test.

    Examples
    --------
    Two models' scores from ``cross_validate`` on the same 10 x 10-fold splits:

    >>> import numpy as np
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_confusion_ext import compare_cv_scores, get_scorer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    >>> scoring = {"f1": get_scorer("tcm_f1_macro")}
    >>> linear = cross_validate(make_pipeline(StandardScaler(), LogisticRegression()),
    ...                         X, y, cv=cv, scoring=scoring, return_indices=True)
    >>> tree = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=cv,
    ...                       scoring=scoring, return_indices=True)
    >>> result = compare_cv_scores(linear, tree, scoring="f1", models=("linear", "tree"))
    >>> round(result.estimate, 3), round(result.statistic, 2), f"{result.pvalue:.1e}"
    (0.054, 4.0, '4.0e-04')
    >>> naive = compare_cv_scores(linear, tree, scoring="f1", method="naive_ttest")
    >>> round(naive.statistic, 2)  # the folds' correlation ignored: too confident
    8.33

    Can the linear model replace the tree, if it loses at most one point of F1?

    >>> print(compare_cv_scores(linear, tree, scoring="f1", margin=0.01,
    ...                         models=("linear", "tree")).verdict)
    non-inferior: linear is at most 0.01 worse than tree (lower bound 0.03136 > -0.01, p = 2.63e-05)
    """
    score = _score_label(scoring)
    if scoring is None:  # a cross_validate dict names its one score: test_f1 is "f1"
        for scores in (scores_a, scores_b):
            keys = [key for key in scores if isinstance(key, str) and
                    key.startswith("test_")] if isinstance(scores, Mapping) else []
            score = keys[0][len("test_"):] if len(keys) == 1 else score
    (scores_a, folds_a, key_a), (scores_b, folds_b, key_b) = (
        _scores_of(scores, name, scoring)
        for name, scores in (("scores_a", scores_a), ("scores_b", scores_b)))
    if key_a is not None and key_b is not None and key_a != key_b:
        raise ValueError(f"scores_a and scores_b hold different scores: {key_a!r} in scores_a "
                         f"and {key_b!r} in scores_b. Compare one score of both models: "
                         "cross_validate both with the same scoring (or pass the arrays "
                         "themselves).")
    if folds_a is not None and folds_b is not None and (
            len(folds_a["test"]) != len(folds_b["test"]) or any(
                not np.array_equal(np.sort(i), np.sort(j))
                for i, j in zip(folds_a["test"], folds_b["test"]))):
        raise ValueError("scores_a and scores_b were computed on different folds (their "
                         "cross_validate indices differ): pass the same cv splits (a "
                         "splitter with a fixed random_state) to both calls.")
    folds = folds_a if folds_a is not None else folds_b
    if folds is not None and n_train is None and n_test is None:
        n_train = [len(fold) for fold in folds["train"]]
        n_test = [len(fold) for fold in folds["test"]]
    return _compare(scores_a, scores_b, method, n_train, n_test, rope, alternative, score,
                    _names(models, ("a", "b")), margin, hypothesis, confidence_level)


def _score_label(scoring):
    if scoring is None:
        return "score"
    if isinstance(scoring, str):
        return scoring
    # A function by its name; a scorer object by its repr (make_scorer(accuracy_score, ...))
    name = getattr(scoring, "__name__", None) or repr(scoring)
    return name if len(name) <= 200 else name[:197] + "..."


def _names(names, default):
    if names is None:
        return default
    names = tuple(str(name) for name in names)
    if len(names) != 2:
        raise ValueError(f"models must name the two models; got {len(names)} names.")
    return names


# --- From estimators and data ---------------------------------------------------------------


def _scorer(scoring):
    """``(name, scorer)``: a name of :func:`get_scorer` (this library's or scikit-learn's),
    a scorer ``scorer(estimator, X, y)``, or a metric ``f(y_true, y_pred)`` (wrapped by
    make_scorer on ``predict``); None is ``"tcm_f1_macro"``."""
    from sklearn import metrics

    from .._scores.scorers import get_scorer

    scoring = "tcm_f1_macro" if scoring is None else scoring
    if isinstance(scoring, str):  # the one table of names, this library's and scikit-learn's
        return scoring, get_scorer(scoring)
    try:
        first = next(iter(inspect.signature(scoring).parameters), None)
    except (TypeError, ValueError):
        first = None
    if first == "y_true":
        return _score_label(scoring), metrics.make_scorer(scoring)
    return _score_label(scoring), scoring


def _class_labels(y):
    from sklearn.utils.multiclass import type_of_target

    try:
        return type_of_target(y) in ("binary", "multiclass")
    except ValueError:
        return False


def _grouped_folds(groups, n_splits, rng):
    """Folds of whole groups: the groups in a random order, each to the fold with the fewest
    instances so far (GroupKFold's balance, shuffled, on every scikit-learn version)."""
    unique, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    if unique.size < n_splits:
        raise ValueError(f"groups has {unique.size} distinct groups; {n_splits} folds need "
                         "at least as many.")
    fold_of, sizes = np.empty(unique.size, dtype=int), np.zeros(n_splits)
    for group in rng.permutation(unique.size):
        fold = int(np.argmin(sizes))
        fold_of[group], sizes[fold] = fold, sizes[fold] + counts[group]
    folds = fold_of[inverse.ravel()]
    index = np.arange(folds.size)
    return [(index[folds != k], index[folds == k]) for k in range(n_splits)]


def _splits(y, groups, n_splits, n_repeats, random_state):
    """The folds, repetition by repetition: stratified on class labels, of whole groups
    where ``groups`` is given; each repetition shuffled by a seed drawn from
    ``random_state``."""
    from sklearn.model_selection import KFold, StratifiedGroupKFold, StratifiedKFold

    rng = np.random.default_rng(random_state)
    stratified = _class_labels(y)
    n = len(y) if not hasattr(y, "shape") else y.shape[0]
    index = np.zeros((n, 1))
    splits = []
    for _ in range(n_repeats):
        seed = int(rng.integers(2 ** 31 - 1))
        if groups is not None and stratified:
            splitter = StratifiedGroupKFold(n_splits, shuffle=True, random_state=seed)
            splits += list(splitter.split(index, y, groups))
        elif groups is not None:
            splits += _grouped_folds(np.asarray(groups), n_splits,
                                     np.random.default_rng(seed))
        elif stratified:
            splitter = StratifiedKFold(n_splits, shuffle=True, random_state=seed)
            splits += list(splitter.split(index, y))
        else:
            splits += list(KFold(n_splits, shuffle=True, random_state=seed).split(index))
    return splits


def _model_names(names, estimator_a, estimator_b):
    if names is not None:
        return _names(names, None)
    first, second = type(estimator_a).__name__, type(estimator_b).__name__
    if first == second:
        return f"{first} (a)", f"{second} (b)"
    return first, second


@validate_params({**CV_FROM_ESTIMATORS, **CV_TEST}, renamed=CV_RENAMED)
def compare_cv(estimator_a, estimator_b, X, y, *, method="corrected_ttest", scoring=None,
               n_splits=None, n_repeats=None, groups=None, rope=0.0,
               alternative="two-sided", margin=None, hypothesis=None, random_state=None,
               n_jobs=None, models=None, confidence_level=0.95, verbose=0):
    """Paired test of two models by cross-validation on the same folds.

    The folds are drawn once, from ``random_state``, and both models are fit and scored on
    each of them (``sklearn.model_selection.cross_validate``, in parallel with
    ``n_jobs``). One function for every test, so that the tests compare on the same
    footing and the folds follow from the test: ten repetitions of 10-fold
    cross-validation for the corrected and Bayesian tests (Bouckaert and Frank's and
    Benavoli et al.'s choice), five of 2-fold for the 5x2cv tests. The per-fold scores
    come back in the result (``scores_a``, ``scores_b``) and :func:`compare_cv_scores`
    runs any other test on them.

    The cost is that of ``2 * n_splits * n_repeats`` fits and scorings: 200 by default
    (20 for the 5x2cv tests), each on ``(n_splits - 1) / n_splits`` of the data: seconds
    for fast models, minutes for slow ones (issue 39: 34 s on breast cancer with the
    defaults). ``n_jobs`` fits in parallel; ``verbose=1`` says how far it is.

    Parameters
    ----------
    estimator_a, estimator_b : estimator
        Unfitted scikit-learn estimators (cloned for each fold).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Targets of any kind the estimators and the score take: class labels, multi-label
        indicators, soft labels.
    method : {"corrected_ttest", "bayesian", "5x2cv_ttest", "5x2cv_ftest", "naive_ttest"}, \
default="corrected_ttest"
        As in :func:`compare_cv_scores` (formerly ``test=``, which still works with a
        ``FutureWarning``).
    scoring : str or callable, default=None
        A score name of this library (:func:`get_scorer_names`) or of scikit-learn
        (``"accuracy"``, ``"roc_auc"``...), a scorer ``scorer(estimator, X, y)``, or a
        metric ``f(y_true, y_pred, ...)`` (a callable whose first parameter is named
        ``y_true``), scored on ``predict``; None is ``"tcm_f1_macro"``. Higher is better.
    n_splits, n_repeats : int, default=None
        The folds: ``n_repeats`` repetitions of ``n_splits``-fold cross-validation; by
        default 10 and 10, and 2 and 5 (the only values they take) for the 5x2cv tests.
    groups : array-like of shape (n_samples,), default=None
        Group of each instance (a patient, a site): a group is never split between
        training and test (``StratifiedGroupKFold`` on class labels, else folds of whole
        groups balanced in size).
    rope : float, default=0.0
        ``"bayesian"`` only: half-width of the region of practical equivalence.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": model a scores higher.
    margin : float, default=None
        Acceptance with a margin (non-inferiority or superiority), as in
        :func:`compare_cv_scores`.
    hypothesis : {"non-inferiority", "superiority"}, default=None
        As in :func:`compare_cv_scores` (None: "non-inferiority" where a margin is given).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the folds: each repetition shuffles with a seed drawn from it. On class
        labels the folds are stratified (``StratifiedKFold``).
    n_jobs : int, default=None
        Fits in parallel (joblib), as ``cross_validate``'s ``n_jobs``.
    models : tuple of two str, default=None
        The models' names; their class names by default (formerly ``names=``, which still
        works with a ``FutureWarning``).
    confidence_level : float, default=0.95
        The level of a margin's decision, as in :func:`compare_cv_scores`.
    verbose : int, default=0
        Progress of the fits on standard error, as the library's resampling functions
        print theirs: ``0`` silent; ``1`` a line every two seconds at most where the call
        is expected to take more than a few seconds, and a last line when it ends; ``2``
        a line after each repetition of the folds of each model.

    Returns
    -------
    CrossValidatedTestResult or BayesianCorrelatedTTestResult
        The latter for ``method="bayesian"``; ``scores_a``, ``scores_b``, ``n_train`` and
        ``n_test`` hold the folds' scores and sizes.

    See Also
    --------
    compare_cv_scores : The same tests on per-fold scores already computed (their
        formulas are in its Notes).
    friedman_test : Several models over several data sets.
    bayesian_signed_rank_test : Two models over several data sets.

    References
    ----------
    See :func:`compare_cv_scores`: Nadeau and Bengio (2003), Dietterich (1998),
    Alpaydin (1999), Benavoli et al. (2017, Section 4), Bouckaert and Frank (2004).

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_confusion_ext import compare_cv
    >>> X, y = load_wine(return_X_y=True)
    >>> result = compare_cv(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y,
    ...                     method="5x2cv_ttest", scoring="accuracy", random_state=0)
    >>> result.models, result.df, round(result.statistic, 3), round(result.pvalue, 3)
    (('GaussianNB', 'DecisionTreeClassifier'), 5.0, 3.281, 0.022)
    >>> posterior = compare_cv(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y,
    ...                        method="bayesian", rope=0.01, n_repeats=3, random_state=0)
    >>> [round(p, 3) for p in posterior]  # P(a better), P(equivalent), P(b better)
    [0.994, 0.005, 0.0]
    """
    from sklearn.model_selection import cross_validate

    test = method
    if test in _FIVE_BY_TWO:
        if n_splits not in (None, 2) or n_repeats not in (None, 5):
            raise ValueError(f"method={test!r} is defined on 5 repetitions of 2-fold "
                             f"cross-validation; got n_splits={n_splits!r}, "
                             f"n_repeats={n_repeats!r}. Leave them None.")
        n_splits, n_repeats = 2, 5
    else:
        n_splits = 10 if n_splits is None else n_splits
        n_repeats = 10 if n_repeats is None else n_repeats
    if n_splits < 2:
        raise ValueError(f"n_splits must be at least 2 for cross-validation; got {n_splits}.")
    if n_splits * n_repeats < 2:
        raise ValueError("A comparison across folds needs at least 2 folds.")
    _check_options(test, rope, alternative)
    _margin_null(test, margin, hypothesis, alternative)  # before any fit
    score, scorer = _scorer(scoring)
    n = y.shape[0] if hasattr(y, "shape") else len(y)
    if groups is not None:  # ids as Python tells them apart (1 and "1" are two groups)
        groups = group_codes(groups, n)[0]
    splits = _splits(y, groups, n_splits, n_repeats, random_state)
    n_train = [len(train) for train, _ in splits]
    n_test = [len(test_fold) for _, test_fold in splits]
    _check_sizes(n_train, n_test, len(splits), test)  # before any fit
    scores = []
    progress = Progress(verbose, 2 * len(splits), "compare_cv", what="fit")
    # One repetition of the folds at a time where progress is shown (the same folds, so
    # the same scores), else all the folds in one call.
    step = len(splits) if progress.verbose <= 0 else n_splits
    for name, estimator in (("estimator_a", estimator_a), ("estimator_b", estimator_b)):
        folds = np.concatenate([cross_validate(
            estimator, X, y, scoring={"score": scorer}, cv=block, n_jobs=n_jobs,
            error_score="raise")["test_score"] for block in progress.track(
                splits[start:start + step] for start in range(0, len(splits), step))])
        bad = np.flatnonzero(~np.isfinite(np.asarray(folds, dtype=float)))
        if bad.size:
            raise ValueError(f"scoring={score!r} gave {folds[bad[0]]} for {name} on fold "
                             f"{bad[0]} ({bad.size} fold(s)): a score undefined on a fold "
                             "cannot be compared; use a score defined on every fold (set "
                             "zero_division, or use larger folds).")
        scores.append(folds)
    progress.close()
    return _compare(scores[0], scores[1], test, n_train, n_test, rope, alternative, score,
                    _model_names(models, estimator_a, estimator_b), margin, hypothesis,
                    confidence_level)


def fold_sizes(n_train, n_test, n_values, each):
    """``[n_train, n_test]`` as arrays of ``n_values`` sizes (one per fold or data set,
    ``each``), checked: numbers, one or one per ``each``, positive and finite."""
    sizes = []
    for name, values in (("n_train", n_train), ("n_test", n_test)):
        array = _numbers(name, values, "fold sizes (numbers)")
        if array.ndim == 0:
            array = np.full(n_values, float(array))
        if array.shape != (n_values,):
            raise ValueError(f"{name} must be one number or one per {each} ({n_values}); got "
                             f"shape {np.shape(values)}.")
        if not (np.isfinite(array).all() and (array > 0).all()):
            raise ValueError(f"{name} must hold positive sizes; got {quoted(array)}.")
        sizes.append(array)
    # The tests read the sizes through rho = n_test / (n_train + n_test), strictly between
    # 0 and 1: sizes of scales so far apart that it rounds to 0 or 1 (n_train=5e-324, or
    # n_test=1e300 beside n_train=9) leave no correlation to model.
    with np.errstate(over="ignore", under="ignore"):
        rho = sizes[1] / (sizes[0] + sizes[1])
    outside = np.flatnonzero(~((rho >= np.finfo(float).tiny) & (rho < 1)))
    if outside.size:
        k = outside[0]
        raise ValueError(
            f"n_train and n_test must be sizes of comparable scale; {each} {k} has "
            f"n_train={sizes[0][k]:.6g} and n_test={sizes[1][k]:.6g}, whose share "
            f"n_test / (n_train + n_test) rounds to {float(rho[k]):g}, and it must lie "
            "strictly between 0 and 1 (e.g. n_train=9, n_test=1 for 10-fold "
            "cross-validation).")
    return sizes


def _numbers(name, values, expected):
    """``values`` as a float array; a ``TypeError`` naming ``name`` and what it must hold
    (``expected``) where they are not numbers."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold {expected}; got {quoted(values)}.") from None
