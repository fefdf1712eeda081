"""Tests on the off-diagonal cells of a confusion matrix.

Barranco-Chamorro and Carrillo-Garcia, "Techniques to Deal with Off-Diagonal Elements in
Confusion Matrices", Mathematics 2021, Section 3: McNemar's test for two classes, the
Stuart-Maxwell and Bhapkar tests of marginal homogeneity for more, and one-versus-all
McNemar tests as a post-hoc analysis. Every function takes a square matrix of counts,
rows actual classes and columns predicted classes.
"""

import math
from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np
from scipy import stats

from .._core.confusion import class_counts
from .._core.docs import fill_doc
from .._core.matrix_checks import check_confusion_matrix, check_display_labels
from .._core.params import (
    ALLOW_FRACTIONAL,
    ARRAY,
    BOOLEAN,
    PROBABILITY_LEVEL,
    PVALUE,
    Interval,
    Options,
    validate_params,
)
from .._core.raw_values import as_numpy
from .._core.results import Result, _result
from .._core.targets import check_target_set
from .._core.user_warnings import warn
from .._core.weights import check_sample_weight


def _allow_fractional_doc(name):
    return (f'allow_fractional : {{"warn", True, False}}, default="warn"\n'
            f"    What to do when ``{name}`` does not look like counts: rows, columns or all "
            "cells\n    normalized to sum to 1, or most non-zero cells not whole numbers (see\n"
            '    :ref:`fractional-matrices`). "warn" computes and warns, False raises\n'
            "    ``ValueError``, True accepts fractional counts silently (weighted counts, a\n"
            "    transport confusion matrix).")


# Parameter docs of the tests below, written once (fill_doc fills them in).
_DOCS = {"allow_fractional_table": _allow_fractional_doc("table"),
         "allow_fractional_matrix": _allow_fractional_doc("matrix")}

# The declarations this family shares. Statistical tests name their rows with
# display_labels; labels is its deprecated name (check_display_labels warns).
ROW_NAMES = {"display_labels": [None, ARRAY], "labels": [None, ARRAY]}
# A correction for many tests (None: none).
CORRECTION = [None, Options("bonferroni", "holm", "fdr_bh")]
# A test's statistic: Bhapkar's is infinite when the Stuart-Maxwell statistic equals n.
STATISTIC = [Interval(Real, None, None), Options(math.inf)]
ALTERNATIVE = [Options("two-sided", "less", "greater")]


@_result(parameters={"statistic": STATISTIC, "pvalue": PVALUE,
                      "method": [None, str], "alternative": [None, *ALTERNATIVE]})
class McNemarResult(Result):
    """Result of :func:`mcnemar_test`.

    Unpacks like scipy's results: ``statistic, pvalue = mcnemar_test(table)``. Built by
    :func:`mcnemar_test`; ``method`` and ``alternative`` are keyword-only.

    Attributes
    ----------
    statistic : float
        ``n_12`` for the exact and mid-p tests, the chi-square value otherwise.
    pvalue : float
        The p-value of the chosen alternative.
    method : {"exact", "mid-p", "chi-square", "chi-square, continuity-corrected"} or None
        Which test gave the p-value (None where the result was built without it).
    alternative : {"two-sided", "less", "greater"} or None
        Its alternative hypothesis.
    test : str or None
        Deprecated name of ``method`` (a ``FutureWarning``; removed in 0.2).

    See Also
    --------
    mcnemar_test : The test that gives this result.
    MarginalHomogeneityResult : The result of the tests of more than two classes.

    Examples
    --------
    >>> from sklearn_confusion_ext import mcnemar_test
    >>> statistic, pvalue = mcnemar_test([[65, 10], [50, 309]], exact=False)
    >>> round(statistic, 3), f"{pvalue:.3g}"
    (26.667, '2.42e-07')
    """

    statistic: float
    pvalue: float
    _: KW_ONLY
    method: str = None
    alternative: str = None

    _unpacked = ("statistic", "pvalue")
    _renamed_fields = {"test": "method"}


@_result(parameters={"statistic": STATISTIC, "pvalue": PVALUE,
                      "df": [Interval(Integral, 1, None)], "method": [None, str]})
class MarginalHomogeneityResult(Result):
    """Result of :func:`stuart_maxwell_test` and :func:`bhapkar_test`.

    Unpacks like scipy's results, to the statistic and the p-value only:
    ``statistic, pvalue = stuart_maxwell_test(matrix)``; ``df`` is an attribute, as in
    ``scipy.stats.ttest_ind``'s result. ``df`` and ``method`` are keyword-only.

    Attributes
    ----------
    statistic : float
        The chi-square statistic, always finite (see :func:`bhapkar_test` for the one table
        where Bhapkar's is undefined).
    pvalue : float
        ``P[chi2_df > statistic]``.
    df : int
        Degrees of freedom: the number of informative classes minus one.
    method : {"stuart_maxwell", "bhapkar"} or None
        Which test gave the statistic (None where the result was built without it).
    test : str or None
        Deprecated name of ``method`` (a ``FutureWarning``; removed in 0.2).

    See Also
    --------
    stuart_maxwell_test, bhapkar_test : The tests that give this result.
    McNemarResult : The result of the test of two classes.
    PosthocResult : The result of the one-versus-all tests of every class.

    Examples
    --------
    >>> from sklearn_confusion_ext import stuart_maxwell_test
    >>> result = stuart_maxwell_test([[37, 1, 15], [6, 19, 26], [15, 3, 77]])
    >>> statistic, pvalue = result
    >>> round(statistic, 3), f"{pvalue:.3g}", result.df
    (21.783, '1.86e-05', 2)
    """

    statistic: float
    pvalue: float
    _: KW_ONLY
    df: int
    method: str = None

    _unpacked = ("statistic", "pvalue")
    _renamed_fields = {"test": "method"}


@validate_params({"table": [ARRAY], "exact": [BOOLEAN, Options("mid-p")],
                  "correction": [BOOLEAN], "alternative": ALTERNATIVE,
                  "allow_fractional": ALLOW_FRACTIONAL})
@fill_doc(_DOCS)
def mcnemar_test(table, *, exact=True, correction=False, alternative="two-sided",
                 allow_fractional="warn"):
    """McNemar's test of a 2 x 2 confusion matrix (Section 3.1, equations 5-8).

    Under the null hypothesis the two off-diagonal cells are equally likely: a class is
    mistaken for the other as often as the other for it. The exact test treats
    ``T = n_12`` as binomial ``B(n_12 + n_21, 1/2)``; the asymptotic one uses
    ``(n_12 - n_21)^2 / (n_12 + n_21)``, or with Edwards' continuity correction
    ``(|n_12 - n_21| - 1)^2 / (n_12 + n_21)``, against chi-square with 1 degree of freedom.
    The mid-p test (``exact="mid-p"``) counts the observed table's own probability half,
    which Fagerland, Lydersen and Laake ("The McNemar test for binary matched-pairs data:
    mid-p and asymptotic are better than exact conditional", BMC Medical Research
    Methodology 2013) recommend over both: its level stays close to nominal where the
    exact test is far below it.

    Parameters
    ----------
    table : array-like of shape (2, 2)
        Counts, rows actual and columns predicted classes. The exact test needs integers.
    exact : bool or "mid-p", default=True
        Exact binomial test, the asymptotic chi-square test (False), or the mid-p binomial
        test ("mid-p"): the exact p-value less half the probability of the observed
        ``n_12`` on each tail, ``2 min(P[T <= n_12], P[T >= n_12]) - P[T = n_12]``
        two-sided (at most 1), ``P[T <= n_12] - P[T = n_12] / 2`` or
        ``P[T >= n_12] - P[T = n_12] / 2`` one-sided.
    correction : bool, default=False
        Edwards' continuity correction of the asymptotic statistic.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative, in terms of the (1, 2) cell: "less" is ``pi_12 < pi_21`` and
        "greater" ``pi_12 > pi_21`` (eq. 7). One-sided tests are exact (or mid-p) only.
    %(allow_fractional_table)s

    Returns
    -------
    McNemarResult
        ``statistic``: ``n_12`` for the exact and mid-p tests, the chi-square value
        otherwise;
        ``pvalue``: ``2 min(P[T <= n_12], P[T >= n_12])`` (at most 1), ``P[T <= n_12]`` or
        ``P[T >= n_12]`` for the exact test, ``P[chi2_1 > statistic]`` otherwise.

    See Also
    --------
    mcnemar_table : The 2 x 2 table of two classifiers' right and wrong predictions.
    stuart_maxwell_test : Its generalization to more than two classes.
    marginal_homogeneity_posthoc : McNemar's test of each class against the others.
    compare_scores : ``method="mcnemar"`` compares two classifiers' accuracies with it.

    Notes
    -----
    With no discordant pairs (``n = n_12 + n_21 = 0``) the test has no information: every
    variant returns statistic 0 with a warning, and the p-value its formula gives for
    ``T ~ B(0, 1/2)``, a point mass at 0: 1 for the exact tests and the chi-square tests;
    for the mid-p test 1 two-sided and 1/2 one-sided (``P[T <= 0] - P[T = 0] / 2 =
    1 - 1/2``, either side). The mid-p value is the mean of the randomized exact p-value,
    which with nothing observed is uniform on [0, 1]; as for every ``n``, its two one-sided
    values sum to 1 and the two-sided value is twice the smaller. Neither rejects at any
    level below 1/2. (statsmodels returns an infinite statistic and p-value 0 with the
    correction, declaring two identical classifiers different.)

    Where ``d^2`` overflows or underflows, the asymptotic statistic is computed as
    ``d (d / (n_12 + n_21))``, so it stays finite for huge (up to the largest float) and
    tiny (denormal) counts; a table whose total overflows raises ``ValueError``.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 3.1, equations 5-8 (the exact and asymptotic tests) and Table 9.
    .. [2] McNemar, Q. (1947). "Note on the sampling error of the difference between
       correlated proportions or percentages". Psychometrika, 12(2), 153-157.
    .. [3] Edwards, A. L. (1948). "Note on the 'correction for continuity' in testing the
       significance of the difference between correlated proportions". Psychometrika,
       13(3), 185-187.
    .. [4] Fagerland, M. W., Lydersen, S. and Laake, P. (2013). "The McNemar test for
       binary matched-pairs data: mid-p and asymptotic are better than exact
       conditional". BMC Medical Research Methodology, 13, 91 (the mid-p test).

    Examples
    --------
    >>> from sklearn_confusion_ext import mcnemar_test
    >>> result = mcnemar_test([[65, 10], [50, 309]], alternative="less")
    >>> round(result.pvalue, 7)  # Table 9, FallenLeaf, "Less"
    1e-07
    >>> mcnemar_test([[65, 10], [50, 309]], exact=False)
    McNemarResult(statistic=26.67, pvalue=2.42e-07, method='chi-square', alternative='two-sided')
    >>> statistic, pvalue = mcnemar_test([[65, 10], [50, 309]], exact=False)
    >>> exact, mid_p = (mcnemar_test([[20, 3], [9, 18]], exact=e).pvalue for e in (True, "mid-p"))
    >>> round(exact, 4), round(mid_p, 4)
    (0.146, 0.0923)
    """
    table = _check_counts(table, "table", integer=bool(exact), allow_fractional=allow_fractional,
                          needs="McNemar's test")
    if table.shape != (2, 2):
        raise ValueError(f"table must be 2 x 2 for McNemar's test; got shape {table.shape}. "
                         "Use stuart_maxwell_test or marginal_homogeneity_posthoc for more "
                         "classes.")
    if not exact and alternative != "two-sided":
        raise ValueError("One-sided alternatives need the exact test: pass exact=True.")
    upper, lower = table[0, 1], table[1, 0]
    discordant = upper + lower
    named = {"method": "mid-p" if exact == "mid-p" else "exact" if exact else
             "chi-square, continuity-corrected" if correction else "chi-square",
             "alternative": alternative}
    if discordant == 0:
        # T ~ B(0, 1/2) is 0: the exact and asymptotic p-values are 1; the mid-p formula
        # gives 1/2 to each side (1 - 1/2) and 1 two-sided, as for every n: the one-sided
        # mid-p values sum to 1 and the two-sided is twice the smaller.
        pvalue = 0.5 if exact == "mid-p" and alternative != "two-sided" else 1.0
        warn("The table has no discordant pairs (both off-diagonal cells are 0): McNemar's "
             f"test has no information; statistic 0, p-value {pvalue:g}"
             + (" (the mid-p value of either side: P[T <= 0] - P[T = 0] / 2 with T ~ "
                "B(0, 1/2))." if pvalue != 1 else "."))
        return McNemarResult(0.0, pvalue, **named)
    if exact == "mid-p":
        return McNemarResult(float(upper), float(_mid_p(upper, discordant, alternative)),
                             **named)
    if exact:
        less, greater, two_sided = _binomial_pvalues(upper, discordant)
        pvalue = {"less": less, "greater": greater, "two-sided": two_sided}[alternative]
        return McNemarResult(float(upper), float(pvalue), **named)
    difference = abs(upper - lower) - (1 if correction else 0)
    with np.errstate(over="ignore", under="ignore"):
        statistic = difference ** 2 / discordant
    if not np.isfinite(statistic) or (statistic == 0 and difference != 0):
        statistic = difference * (difference / discordant)  # d^2 overflows or underflows
    return McNemarResult(float(statistic), float(stats.chi2.sf(statistic, 1)), **named)


@validate_params({"y_true": [ARRAY], "y_pred_a": [ARRAY], "y_pred_b": [ARRAY],
                  "sample_weight": [None, ARRAY]})
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

    See Also
    --------
    mcnemar_test : McNemar's test of this table.
    compare_scores : Paired comparisons of two classifiers' scores.

    References
    ----------
    .. [1] McNemar, Q. (1947). "Note on the sampling error of the difference between
       correlated proportions or percentages". Psychometrika, 12(2), 153-157.

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
    dims = {name: np.ndim(as_numpy(name, y)) for name, y in
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


@validate_params({"matrix": [ARRAY], **ROW_NAMES, "allow_fractional": ALLOW_FRACTIONAL},
                 renamed={"confusion": "matrix"})
@fill_doc(_DOCS)
def stuart_maxwell_test(matrix, *, display_labels=None, labels=None,
                        allow_fractional="warn"):
    """Stuart-Maxwell test of marginal homogeneity (Section 3.2, equations 9-10).

    Tests whether every class is predicted as often as it occurs (``pi_i+ = pi_+i`` for
    all ``i``) with ``d^T V^-1 d`` on the differences ``d_s = n_+s - n_s+`` of the first
    ``r - 1`` classes, ``v_ss = n_s+ + n_+s - 2 n_ss`` and ``v_st = -(n_st + n_ts)`` (the
    printed ``-(pi_st - pi_ts)`` is a typo), against chi-square with ``r - 1`` degrees of
    freedom. Equals statsmodels' ``SquareTable(table, shift_zeros=False).homogeneity()``.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Counts, rows actual and columns predicted classes (fractional counts: see
        ``allow_fractional``).

        .. versionchanged:: 0.1
           Renamed from ``confusion``, which still works with a ``FutureWarning`` until
           0.2.
    display_labels : array-like of shape (n_classes,), default=None
        Class names, used in warnings and errors (default ``0 .. n_classes - 1``).
    labels : array-like of shape (n_classes,), default=None
        Deprecated name of ``display_labels`` (a ``FutureWarning``).

        .. deprecated:: 0.1
           ``labels`` was renamed ``display_labels`` in 0.1 and will be removed in 0.2
           (elsewhere in the library ``labels=`` selects and reorders classes).
    %(allow_fractional_matrix)s

    Returns
    -------
    MarginalHomogeneityResult
        ``statistic``, ``pvalue`` and ``df``; unpacks as ``statistic, pvalue``.

    See Also
    --------
    bhapkar_test : The Wald form of the same test.
    mcnemar_test : The test of a 2 x 2 matrix, which this one generalizes.
    marginal_homogeneity_posthoc : Which classes are over- or under-predicted.
    dirichlet_posterior : The posterior of each row's misclassification probabilities.

    Notes
    -----
    A class that is never misclassified and never predicted by mistake (its row and
    column hold only the diagonal cell, or nothing) carries no information on marginal
    homogeneity and makes the covariance singular: it is dropped, with a warning naming
    it, and ``df`` counts the remaining classes. If the misclassifications split the
    classes into groups never confused with each other, the covariance is singular and a
    ``ValueError`` says which groups to test separately. A matrix without any
    misclassification has equal marginals: the result is statistic 0, p-value 1, with a
    warning (there is no discordance to weigh).

    The statistic reads the off-diagonal cells only and scales with them; it is computed
    on the cells divided by the largest one, so huge and denormal counts give finite
    statistics. A table whose total overflows raises ``ValueError``.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 3.2, equations 9-10; Table 25 gives the example's statistic (the IBD
       matrix of Table 24).
    .. [2] Stuart, A. (1955). "A test for homogeneity of the marginal distributions in a
       two-way classification". Biometrika, 42(3/4), 412-416.
    .. [3] Maxwell, A. E. (1970). "Comparing the classification of subjects by two
       independent judges". The British Journal of Psychiatry, 116(535), 651-655.

    Examples
    --------
    >>> from sklearn_confusion_ext import stuart_maxwell_test
    >>> ibd = [[37, 1, 15], [6, 19, 26], [15, 3, 77]]
    >>> result = stuart_maxwell_test(ibd)
    >>> round(result.statistic, 3), result.df
    (21.783, 2)
    """
    given = matrix
    matrix = _check_counts(matrix, "matrix", integer=False,
                           allow_fractional=allow_fractional,
                           needs="The Stuart-Maxwell test")
    names = check_display_labels(display_labels, labels, matrix.shape[0], given)
    statistic, df = _stuart_maxwell(matrix, names)
    return MarginalHomogeneityResult(statistic, float(stats.chi2.sf(statistic, df)), df=df,
                                     method="stuart_maxwell")


@validate_params({"matrix": [ARRAY], **ROW_NAMES, "allow_fractional": ALLOW_FRACTIONAL},
                 renamed={"confusion": "matrix"})
@fill_doc(_DOCS)
def bhapkar_test(matrix, *, display_labels=None, labels=None, allow_fractional="warn"):
    """Bhapkar test of marginal homogeneity (Section 3.2).

    The Wald form of the Stuart-Maxwell test, ``SM / (1 - SM / N)``, against chi-square
    with ``r - 1`` degrees of freedom; equals statsmodels'
    ``SquareTable(table, shift_zeros=False).homogeneity(method="bhapkar")``.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Counts, rows actual and columns predicted classes.

        .. versionchanged:: 0.1
           Renamed from ``confusion``, which still works with a ``FutureWarning`` until
           0.2.
    display_labels : array-like of shape (n_classes,), default=None
        Class names, used in warnings and errors.
    labels : array-like of shape (n_classes,), default=None
        Deprecated name of ``display_labels``.

        .. deprecated:: 0.1
           Use ``display_labels``; ``labels`` will be removed in 0.2.
    %(allow_fractional_matrix)s

    Returns
    -------
    MarginalHomogeneityResult
        ``statistic``, ``pvalue`` and ``df``; unpacks as ``statistic, pvalue``.

    See Also
    --------
    stuart_maxwell_test : The score form of the same test, which this one falls back to.
    marginal_homogeneity_posthoc : Which classes are over- or under-predicted.

    Notes
    -----
    Classes without information are dropped as in :func:`stuart_maxwell_test`.

    The relation is undefined where the Stuart-Maxwell statistic reaches the number of
    elements ``N`` (``SM <= N`` always; equality needs an empty diagonal and every
    misclassification in one direction, e.g. ``[[0, 5], [0, 0]]``): the covariance of
    Bhapkar's Wald statistic is singular there, and the relation would give an infinite
    statistic and a p-value of 0 from a handful of elements. Where ``1 - SM / N`` is
    within rounding of 0 (at most ``1e-10``), or Bhapkar's statistic would overflow, the
    test warns and returns the Stuart-Maxwell result (its statistic, p-value and ``df``)
    instead, the asymptotically equivalent test that stays defined.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 3.2 (Bhapkar's statistic and its relation to Stuart-Maxwell's, after
       equation 10); Table 25 gives the example's statistic.
    .. [2] Bhapkar, V. P. (1966). "A note on the equivalence of two test criteria for
       hypotheses in categorical data". Journal of the American Statistical Association,
       61(313), 228-235.

    Examples
    --------
    >>> from sklearn_confusion_ext import bhapkar_test
    >>> round(bhapkar_test([[37, 1, 15], [6, 19, 26], [15, 3, 77]]).statistic, 3)
    24.461
    """
    given = matrix
    matrix = _check_counts(matrix, "matrix", integer=False,
                           allow_fractional=allow_fractional, needs="Bhapkar's test")
    names = check_display_labels(display_labels, labels, matrix.shape[0], given)
    stuart_maxwell, df = _stuart_maxwell(matrix, names)
    remaining = 1 - stuart_maxwell / matrix.sum()
    with np.errstate(over="ignore"):
        statistic = stuart_maxwell / remaining if remaining > _BOUNDARY else np.inf
    test = "bhapkar" if np.isfinite(statistic) else "stuart_maxwell"
    if not np.isfinite(statistic):
        warn(f"Bhapkar's statistic is undefined for this table: the Stuart-Maxwell statistic "
             f"({stuart_maxwell:.6g}) equals the number of elements ({matrix.sum():.6g}), "
             "so every misclassification goes one way and the diagonal is empty; returning "
             "the Stuart-Maxwell test instead.")
        statistic = stuart_maxwell
    return MarginalHomogeneityResult(float(statistic), float(stats.chi2.sf(statistic, df)),
                                     df=df, method=test)


@_result(parameters={
    "class_names": [ARRAY], "statistic": [ARRAY], "n_discordant": [ARRAY],
    "auxiliary_tables": [ARRAY],
    **{name: [ARRAY] for name in (
        "pvalue_less", "pvalue_greater", "pvalue_two_sided", "pvalue_less_corrected",
        "pvalue_greater_corrected", "pvalue_two_sided_corrected")},
    "verdict": [ARRAY], "method": CORRECTION, "alpha": [PROBABILITY_LEVEL]},
    repr=False, kw_only=True)
class PosthocResult(Result):
    """Result of :func:`marginal_homogeneity_posthoc`, one entry per class.

    Unpacks as ``statistic, pvalue = marginal_homogeneity_posthoc(matrix)``, with
    ``pvalue`` the two-sided p-values *after* the correction across classes
    (``pvalue_two_sided_corrected``), as scipy's many-comparison tests
    (``scipy.stats.dunnett``, ``tukey_hsd``) report adjusted p-values. The one-sided and
    uncorrected p-values are attributes. Built by :func:`marginal_homogeneity_posthoc`;
    every field is keyword-only.

    Attributes
    ----------
    class_names : list
        Class names (the ``display_labels`` of :func:`marginal_homogeneity_posthoc`).
    statistic : ndarray of shape (n_classes,)
        ``T_i = n_i+ - n_ii``, the elements of class ``i`` predicted as another class.
    n_discordant : ndarray of shape (n_classes,)
        ``n_i+ + n_+i - 2 n_ii``, the elements in the off-diagonal cells of row or
        column ``i``.
    auxiliary_tables : ndarray of shape (n_classes, 2, 2)
        The one-versus-all 2 x 2 matrix of each class (the paper's auxiliary matrices,
        Tables 5-8): ``auxiliary_tables[i]`` is ``[[n_ii, n_i+ - n_ii], [n_+i - n_ii,
        N - n_i+ - n_+i + n_ii]]``, rows actual and columns predicted "class ``i``" and
        "others". Its off-diagonal cells are ``statistic[i]`` and
        ``n_discordant[i] - statistic[i]``, so :func:`mcnemar_test` of it gives the
        uncorrected p-values of class ``i``.
    pvalue_less, pvalue_greater, pvalue_two_sided : ndarray of shape (n_classes,)
        Exact binomial p-values of ``T_i`` against ``B(n_discordant, 1/2)``.
    pvalue_less_corrected, pvalue_greater_corrected, pvalue_two_sided_corrected : \
ndarray of shape (n_classes,)
        The same after the multiple-comparison correction ``method`` across classes.
    verdict : ndarray of str of shape (n_classes,)
        "over-predicted", "under-predicted" or "no evidence", at level ``alpha``.
    method : {"bonferroni", "holm", "fdr_bh"} or None
        The correction.
    alpha : float
        The significance level of the verdicts.
    display_labels, labels : list
        Deprecated names of ``class_names`` (a ``FutureWarning``; removed in 0.2).

    See Also
    --------
    marginal_homogeneity_posthoc : The tests that give this result.
    MarginalHomogeneityResult : The result of the test of all classes at once.

    Examples
    --------
    >>> from sklearn_confusion_ext import marginal_homogeneity_posthoc
    >>> land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
    >>> statistic, pvalue = marginal_homogeneity_posthoc(land_use)
    >>> statistic.tolist(), pvalue.round(6).tolist()  # Bonferroni-corrected, two-sided
    ([10.0, 22.0, 30.0, 51.0], [1e-06, 1.0, 1.0, 1.8e-05])
    >>> result = marginal_homogeneity_posthoc(land_use)
    >>> result.auxiliary_tables[0]  # Table 5: FallenLeaf against the others
    array([[ 65.,  10.],
           [ 50., 309.]])
    """

    _unpacked = ("statistic", "pvalue_two_sided_corrected")
    _renamed_fields = {"display_labels": "class_names"}

    @property
    def labels(self):
        """Deprecated name of ``class_names`` (removed in 0.2)."""
        warn("PosthocResult: labels was renamed display_labels in 0.1, and the field is "
             "class_names; both former names will be removed in 0.2: use class_names.",
             FutureWarning)
        return self.class_names

    class_names: list
    statistic: np.ndarray
    n_discordant: np.ndarray
    auxiliary_tables: np.ndarray
    pvalue_less: np.ndarray
    pvalue_greater: np.ndarray
    pvalue_two_sided: np.ndarray
    pvalue_less_corrected: np.ndarray
    pvalue_greater_corrected: np.ndarray
    pvalue_two_sided_corrected: np.ndarray
    verdict: np.ndarray
    method: object
    alpha: float

    _summary_fields = ("method", "alpha")
    _table_index, _table_index_name = "class_names", "class"
    _table_columns = ("statistic", "n_discordant", "pvalue_less", "pvalue_greater",
                      "pvalue_two_sided", "pvalue_less_corrected", "pvalue_greater_corrected",
                      "pvalue_two_sided_corrected", "verdict")


@validate_params({"matrix": [ARRAY], "alpha": [PROBABILITY_LEVEL], "method": CORRECTION,
                  **ROW_NAMES}, renamed={"confusion": "matrix"})
def marginal_homogeneity_posthoc(matrix, *, alpha=0.05, method="bonferroni",
                                 display_labels=None, labels=None):
    """One-versus-all McNemar tests of every class (Section 3.3).

    For class ``i`` the matrix collapses to 2 x 2 (class ``i`` against the others) and
    ``T_i = n_i+ - n_ii`` is tested against ``B(n_i+ + n_+i - 2 n_ii, 1/2)``. A small
    "less" p-value means fewer elements of class ``i`` go elsewhere than elements of other
    classes come to ``i``: the class is **over-predicted**; a small "greater" p-value means
    it is **under-predicted**. Verdicts use the p-values corrected for the ``r`` tests.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Integer counts, rows actual and columns predicted classes.

        .. versionchanged:: 0.1
           Renamed from ``confusion``, which still works with a ``FutureWarning`` until
           0.2.
    alpha : float, default=0.05
        Significance level, after correction.
    method : {"bonferroni", "holm", "fdr_bh", None}, default="bonferroni"
        Correction across classes, applied to each kind of p-value separately.
    display_labels : array-like of shape (n_classes,), default=None
        Class names for the result (default ``0 .. n_classes - 1``).
    labels : array-like of shape (n_classes,), default=None
        Deprecated name of ``display_labels``.

        .. deprecated:: 0.1
           Use ``display_labels``; ``labels`` will be removed in 0.2.

    Returns
    -------
    PosthocResult
        Unpacks as ``statistic, pvalue`` with the corrected two-sided p-values; its
        ``auxiliary_tables`` are the 2 x 2 matrices tested (Tables 5-8).

    See Also
    --------
    stuart_maxwell_test, bhapkar_test : The test of all classes at once, which this
        analysis follows where it rejects.
    mcnemar_test : The test of each class's auxiliary table.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 3.3, equations 11-12 and Table 2; Tables 5-8 are the auxiliary matrices
       and Table 9 their p-values in the land-use example.

    Examples
    --------
    >>> from sklearn_confusion_ext import marginal_homogeneity_posthoc
    >>> land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
    >>> result = marginal_homogeneity_posthoc(
    ...     land_use, display_labels=["FallenLeaf", "Conifers", "Agricultural", "Scrub"])
    >>> result.verdict.tolist()
    ['over-predicted', 'no evidence', 'no evidence', 'under-predicted']
    """
    given = matrix
    matrix = _check_counts(matrix, "matrix", integer=True)
    names = check_display_labels(display_labels, labels, matrix.shape[0], given)
    alpha = float(alpha)
    tp, fp, fn, tn = class_counts(matrix)
    statistic, n_discordant = fn, fn + fp  # T_i = n_i+ - n_ii; n_i+ + n_+i - 2 n_ii
    auxiliary_tables = np.stack([tp, fn, fp, tn], axis=1).reshape(-1, 2, 2)
    less, greater, two_sided = _binomial_pvalues(statistic, n_discordant)
    corrected = [_correct(p, method) for p in (less, greater, two_sided)]
    verdict = np.where(corrected[0] < alpha, "over-predicted",
                       np.where(corrected[1] < alpha, "under-predicted", "no evidence"))
    return PosthocResult(
        class_names=names, statistic=statistic, n_discordant=n_discordant,
        auxiliary_tables=auxiliary_tables, pvalue_less=less, pvalue_greater=greater,
        pvalue_two_sided=two_sided,
        pvalue_less_corrected=corrected[0], pvalue_greater_corrected=corrected[1],
        pvalue_two_sided_corrected=corrected[2], verdict=verdict, method=method, alpha=alpha)


def _binomial_pvalues(statistic, n):
    """Exact ``P[T <= t]``, ``P[T >= t]`` and ``min(1, 2 min(...))`` for ``B(n, 1/2)``.

    With ``n = 0`` (no discordant elements) every p-value is 1.
    """
    statistic, n = np.asarray(statistic, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(all="ignore"):
        less = np.where(n > 0, stats.binom.cdf(statistic, n, 0.5), 1.0)
        greater = np.where(n > 0, stats.binom.sf(statistic - 1, n, 0.5), 1.0)
        # Where the exact value is out of scipy's reach (nan for huge n on older scipy), the
        # normal approximation with continuity correction, exact to far below 1e-10 there.
        spread = np.sqrt(np.where(n > 0, n, 1.0) / 4)
        less = np.where(np.isnan(less),
                        stats.norm.cdf((statistic + 0.5 - n / 2) / spread), less)
        greater = np.where(np.isnan(greater),
                           stats.norm.sf((statistic - 0.5 - n / 2) / spread), greater)
    two_sided = np.minimum(1.0, 2 * np.minimum(less, greater))
    return less, greater, two_sided


def _mid_p(statistic, n, alternative):
    """The mid-p value of ``statistic`` under ``B(n, 1/2)`` (Fagerland et al. 2013)."""
    less, greater, _ = _binomial_pvalues(statistic, n)
    with np.errstate(all="ignore"):
        point = stats.binom.pmf(statistic, n, 0.5)
    if not np.isfinite(point):  # out of scipy's reach: the normal density, as above
        spread = np.sqrt(n / 4)
        point = stats.norm.pdf((statistic - n / 2) / spread) / spread
    if alternative == "less":
        return less - point / 2
    if alternative == "greater":
        return greater - point / 2
    return min(1.0, 2 * min(less, greater) - point)


def _correct(pvalues, method):
    """Family-wise (Bonferroni, Holm) or false-discovery-rate (Benjamini-Hochberg) p-values."""
    pvalues = np.asarray(pvalues, dtype=float)
    m = pvalues.size
    if method is None:
        return pvalues.copy()
    if method == "bonferroni":
        return np.minimum(1.0, pvalues * m)
    order = np.argsort(pvalues)
    ranked = pvalues[order]
    if method == "holm":
        adjusted = np.maximum.accumulate(ranked * (m - np.arange(m)))
    else:  # Benjamini-Hochberg
        adjusted = np.minimum.accumulate((ranked * m / np.arange(1, m + 1))[::-1])[::-1]
    result = np.empty(m)
    result[order] = np.minimum(1.0, adjusted)
    return result


_BOUNDARY = 1e-10  # 1 - SM / N at most this is SM = N up to rounding: Bhapkar is undefined


def _stuart_maxwell(confusion, labels):
    """Stuart-Maxwell statistic and degrees of freedom, uninformative classes dropped.

    The statistic is homogeneous of degree 1 in the off-diagonal cells (the only ones it
    reads), so it is computed on the cells divided by the largest one and scaled back:
    finite for huge and denormal counts alike. It is at most the number of misclassified
    elements (Cauchy-Schwarz on ``V = sum n_st x_st x_st^T``, ``d = sum n_st x_st``);
    rounding in an ill-conditioned solve is clipped to that bound.
    """
    off_diagonal = confusion - np.diag(np.diag(confusion))
    if not off_diagonal.any():
        warn("matrix has no misclassification: its marginals are equal, and the test "
             "has no discordance to weigh; statistic 0 and p-value 1 are returned.")
        return 0.0, confusion.shape[0] - 1
    informative = (off_diagonal.sum(axis=0) + off_diagonal.sum(axis=1)) > 0
    if not informative.all():
        dropped = [labels[i] for i in np.flatnonzero(~informative)]
        warn(f"Classes {dropped} have no misclassification in their row or column and carry "
             "no information on marginal homogeneity; they are dropped.")
        confusion = confusion[np.ix_(informative, informative)]
    n_classes = confusion.shape[0]
    names = [labels[i] for i in np.flatnonzero(informative)]
    _check_connected(confusion, names)
    off_diagonal = confusion - np.diag(np.diag(confusion))
    scale = off_diagonal.max()
    off_diagonal = off_diagonal / scale
    flow = off_diagonal + off_diagonal.T
    covariance = -flow[:-1, :-1]
    np.fill_diagonal(covariance, flow.sum(axis=1)[:-1])
    difference = (off_diagonal.sum(axis=0) - off_diagonal.sum(axis=1))[:-1]
    try:
        solution = np.linalg.solve(covariance, difference)
    except np.linalg.LinAlgError:
        raise ValueError(
            f"matrix: the covariance of the marginal differences of classes {names} is "
            "singular in "
            "floating point: their misclassification counts differ by more than the float "
            "precision (about 1e16). Test the classes with comparable counts separately."
        ) from None
    statistic = min(max(float(difference @ solution), 0.0), float(off_diagonal.sum()))
    return float(statistic * scale), n_classes - 1


def _check_connected(confusion, names):
    """The covariance is invertible iff the classes form one group of confusions."""
    linked = (confusion + confusion.T) > 0
    n_classes = len(linked)
    reached = np.zeros(n_classes, dtype=bool)
    reached[0] = True
    for _ in range(n_classes):
        reached = reached | linked[reached].any(axis=0)
    if not reached.all():
        first = [name for name, hit in zip(names, reached) if hit]
        rest = [name for name, hit in zip(names, reached) if not hit]
        raise ValueError(
            f"matrix: the misclassifications split the classes into groups never confused "
            "with each "
            f"other (classes {first} and classes {rest}): the covariance of the marginal "
            "differences is singular. Test each group separately."
        )


def _check_counts(matrix, name, integer, allow_fractional="warn", needs=None):
    advice = ("exact binomial tests need integer counts (a transport confusion matrix is not "
              "a count matrix): round the counts, or pass exact=False to mcnemar_test for "
              "its asymptotic test.")
    matrix = check_confusion_matrix(matrix, name, min_classes=2, nonzero=True,
                                    integer_advice=advice if integer else None)
    if needs is not None:
        check_fractional(matrix, name, allow_fractional, needs)
    with np.errstate(over="ignore"):
        total = matrix.sum()
    if not np.isfinite(total):
        raise ValueError(f"{name} counts sum to more than the largest float "
                         f"({np.finfo(np.float64).max:.4g}); divide them by a common factor "
                         "(the asymptotic tests scale with the counts).")
    return matrix


# Within this of 1, a sum of normalized cells is taken for 1 (float32 rounding included).
_UNIT_SUM_TOLERANCE = 1e-6


def _fractional_reason(matrix):
    """Why ``matrix`` does not look like counts, or None.

    Proportions (rows, columns or the whole matrix normalized to sum to 1, as
    ``normalize="true" | "pred" | "all"`` give) or mostly non-whole cells (probability-based
    pseudo-counts). A matrix of whole numbers is counts, whatever its sums.
    """
    whole = matrix == np.round(matrix)
    if whole.all():
        return None
    for axis, how in ((1, "every non-empty row sums to 1 (normalize='true')"),
                      (0, "every non-empty column sums to 1 (normalize='pred')")):
        sums = matrix.sum(axis=axis)
        if np.all(np.abs(sums[sums > 0] - 1) <= _UNIT_SUM_TOLERANCE):
            return how
    if abs(matrix.sum() - 1) <= _UNIT_SUM_TOLERANCE:
        return "its cells sum to 1 (normalize='all')"
    filled = matrix > 0
    fractional = int((filled & ~whole).sum())
    if fractional > filled.sum() / 2:
        return f"{fractional} of its {int(filled.sum())} non-zero cells are not whole numbers"
    return None


def check_fractional(matrix, name, allow_fractional, needs):
    """Warn (``allow_fractional="warn"``) or raise (False) when ``matrix`` is not counts.

    ``needs`` says what needs counts, e.g. "A chi-square test".
    """
    if allow_fractional is True:
        return
    reason = _fractional_reason(matrix)
    if reason is None:
        return
    message = (f"{name} does not look like a matrix of counts: {reason}. {needs} needs counts "
               "(instances per cell): on proportions or pseudo-counts it reads a sample size "
               "the data do not have. Pass the matrix of counts (normalize=None, hard "
               "labels)")
    if allow_fractional is False:
        raise ValueError(f"{message}; allow_fractional=False refuses fractional matrices.")
    warn(f"{message}, or allow_fractional=True if these are counts on purpose (weighted "
         "counts, a transport confusion matrix).")
