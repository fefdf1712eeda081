"""Acceptance with a margin (non-inferiority and superiority) of compare_scores,
compare_cv and compare_cv_scores: the duality of the p-value and the one-sided bound,
margin=0 against the plain one-sided tests, the margin's shift, values by hand (the
corrected t-test, the Bayesian probabilities, Tango's score test against a direct
maximisation), the verdict where a person reads it, and the refusals.

The type I error at the margin's boundary is measured in benchmarks/coverage_margin.py.
"""

import math
import warnings

import numpy as np
import pytest
from scipy import optimize, stats

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._statistics.paired import _tango_statistic

ALPHA = 0.05
SCORE_METHODS = ("bootstrap", "bayesian", "mcnemar-score")
A = np.array([0.91, 0.88, 0.90, 0.93])
B = np.array([0.86, 0.87, 0.85, 0.90])


def _labels(n, accuracy_a, accuracy_b, seed):
    """1-D labels of two classes and two classifiers of about the given accuracies."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    right_a, right_b = rng.random(n) < accuracy_a, rng.random(n) < accuracy_b
    return y, np.where(right_a, y, 1 - y), np.where(right_b, y, 1 - y)


def _compare(method, y, a, b, **keywords):
    scoring = None if method.startswith("mcnemar") else "tcm_accuracy"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return sce.compare_scores(y, a, b, method=method, scoring=scoring, n_resamples=199,
                                  random_state=0, **keywords)


# --- compare_scores ----------------------------------------------------------------------


@pytest.mark.parametrize("method", SCORE_METHODS)
def test_pvalue_and_bound_agree(method):
    """p < alpha exactly when the one-sided bound clears the null difference; margins on
    the grid of the differences (multiples of 1/n) put draws exactly on it."""
    decisions = set()
    for seed in range(12):
        y, a, b = _labels(50, 0.8, 0.8 + 0.04 * (seed % 3 - 1), seed)
        for margin in (0.0, 0.02, 0.04, 0.06, 0.1, 0.13):
            for hypothesis in ("non-inferiority", "superiority"):
                result = _compare(method, y, a, b, margin=margin, hypothesis=hypothesis)
                null = -margin if hypothesis == "non-inferiority" else margin
                rejected = result.pvalue < ALPHA
                assert rejected == (result.lower_bound > null), (seed, margin, hypothesis, result)
                assert result.alternative == "greater" and result.high < math.inf
                assert result.confidence_interval() == (result.low, result.high)
                assert result.verdict.startswith("not shown" if not rejected else
                                                 hypothesis.replace("-inferiority",
                                                                    "-inferior")[:5])
                decisions.add(rejected)
    assert decisions == {True, False}  # both sides of the decision were met


@pytest.mark.parametrize("method", ["bootstrap", "bayesian"])
def test_margin_zero_is_the_one_sided_test(method):
    y, a, b = _labels(80, 0.8, 0.75, 1)
    plain = _compare(method, y, a, b, alternative="greater")
    for hypothesis in ("non-inferiority", "superiority"):
        margin = _compare(method, y, a, b, margin=0, hypothesis=hypothesis)
        assert margin.pvalue == plain.pvalue
        assert margin.estimate == plain.estimate


def test_margin_zero_score_test_is_mcnemars_asymptotic_test():
    y, a, b = _labels(80, 0.8, 0.72, 2)
    table = sce.mcnemar_table(y, a, b)
    only_a, only_b = table[0, 1], table[1, 0]
    one_sided = stats.norm.sf((only_a - only_b) / math.sqrt(only_a + only_b))
    result = _compare("mcnemar-score", y, a, b, margin=0)
    assert result.pvalue == pytest.approx(one_sided, rel=1e-12)
    assert _compare("mcnemar-score", y, a, b, alternative="greater").pvalue == \
        pytest.approx(one_sided, rel=1e-12)
    two_sided = sce.mcnemar_test(table, exact=False).pvalue  # the chi-square form
    assert _compare("mcnemar-score", y, a, b).pvalue == pytest.approx(two_sided, rel=1e-9)


def test_bootstrap_pvalue_is_the_shifted_null_count():
    y, a, b = _labels(60, 0.8, 0.8, 3)
    result = _compare("bootstrap", y, a, b, margin=0.05)
    d, draws = result.estimate, result.distribution
    extreme = np.sum(draws - d >= d + 0.05 - 1e-12)
    assert result.pvalue == pytest.approx((1 + extreme) / (1 + draws.size), rel=1e-12)
    # the bound: 2 d less the (K + 1)-th largest draw, K = 8 of 199 at 5 %
    assert (1 + 8) / 200 < ALPHA <= (1 + 9) / 200
    assert result.lower_bound == pytest.approx(2 * d - np.sort(draws)[-9], abs=1e-12)


def test_bayesian_probabilities_are_the_posterior_shares():
    y, a, b = _labels(60, 0.8, 0.78, 4)
    result = _compare("bayesian", y, a, b, margin=0.03)
    draws = result.distribution
    assert result.p_non_inferior == np.mean(draws > -0.03)
    assert result.p_superior == np.mean(draws > 0.03)
    assert result.pvalue == pytest.approx((1 + np.sum(draws <= -0.03)) / (1 + draws.size))
    assert result.lower_bound == np.sort(draws)[8]
    assert "P(a - b > -0.03) = " in result.verdict
    superiority = _compare("bayesian", y, a, b, margin=0.03, hypothesis="superiority")
    assert superiority.pvalue == pytest.approx((1 + np.sum(draws <= 0.03)) / 200)


@pytest.mark.parametrize("method", SCORE_METHODS)
def test_the_bound_does_not_move_with_the_margin_and_the_verdict_flips_there(method):
    y, a, b = _labels(100, 0.8, 0.8, 5)
    first = _compare(method, y, a, b, margin=0.05)
    bound = first.lower_bound
    assert -0.2 < bound < 0
    wider = _compare(method, y, a, b, margin=-bound + 1e-6)
    narrower = _compare(method, y, a, b, margin=-bound - 1e-6)
    assert wider.lower_bound == pytest.approx(bound, abs=1e-9) and wider.verdict.startswith(
        "non-inferior")
    assert narrower.verdict.startswith("not shown non-inferior")


def test_tango_statistic_is_the_score_statistic_of_the_restricted_likelihood():
    for only_a, only_b, n, delta in [(12, 5, 100, -0.05), (3, 9, 60, 0.04), (0, 0, 30, 0.1),
                                     (7, 7, 50, -0.1), (20, 2, 40, 0.3)]:
        def negative_likelihood(q, delta=delta, counts=(only_a, only_b, n - only_a - only_b)):
            probabilities = np.array([q + delta, q, 1 - 2 * q - delta])
            return -np.sum(np.array(counts) * np.log(np.clip(probabilities, 1e-300, None)))
        low, high = max(0.0, -delta), (1 - delta) / 2
        q = optimize.minimize_scalar(negative_likelihood, bounds=(low, high),
                                     method="bounded", options={"xatol": 1e-12}).x
        expected = (only_a - only_b - n * delta) / math.sqrt(n * (2 * q + delta * (1 - delta)))
        assert _tango_statistic(only_a, only_b, n, delta) == pytest.approx(expected, rel=1e-5)
    assert _tango_statistic(12, 5, 100, 0.0) == pytest.approx(7 / math.sqrt(17))
    # decreasing in the null difference (the bound inverts it)
    grid = np.linspace(-0.99, 0.99, 397)
    for only_a, only_b in [(12, 5), (0, 9), (30, 0), (0, 0)]:
        values = [_tango_statistic(only_a, only_b, 100, delta) for delta in grid]
        assert np.all(np.diff(values) <= 1e-12)


def test_score_interval_ends_are_where_the_test_stops_rejecting():
    y, a, b = _labels(120, 0.82, 0.75, 6)
    table = sce.mcnemar_table(y, a, b)
    only_a, only_b, n = float(table[0, 1]), float(table[1, 0]), float(table.sum())
    result = _compare("mcnemar-score", y, a, b)
    z = stats.norm.ppf(1 - ALPHA / 2)
    assert _tango_statistic(only_a, only_b, n, result.low) == pytest.approx(z, abs=1e-6)
    assert _tango_statistic(only_a, only_b, n, result.high) == pytest.approx(-z, abs=1e-6)
    one_sided = _compare("mcnemar-score", y, a, b, margin=0.1)
    assert _tango_statistic(only_a, only_b, n, one_sided.lower_bound) == pytest.approx(
        stats.norm.ppf(1 - ALPHA), abs=1e-6)


def test_verdict_wording_and_where_it_is_shown():
    y, a, b = _labels(200, 0.85, 0.85, 7)
    accepted = _compare("mcnemar-score", y, a, b, margin=0.1)
    assert accepted.verdict.startswith("non-inferior: a is at most 0.1 worse than b (lower "
                                       "bound ")
    assert "> -0.1, p = " in accepted.verdict
    assert repr(accepted).endswith("\nverdict: " + accepted.verdict)
    assert "verdict" in accepted._repr_html_() and "margin" in accepted._repr_html_()
    frame = accepted.to_frame()
    assert frame["verdict"].iloc[0] == accepted.verdict and frame["margin"].iloc[0] == 0.1
    refused = _compare("mcnemar-score", y, a, b, margin=0.1, hypothesis="superiority")
    assert refused.verdict.startswith("not shown superior: a may not beat b by more than "
                                      "0.1 (lower bound ")
    plain = _compare("mcnemar-score", y, a, b)
    assert plain.verdict is None and plain.margin is None and "verdict" not in repr(plain)


def test_refusals_name_the_argument():
    y, a, b = _labels(40, 0.8, 0.8, 8)
    for method in ("permutation", "mcnemar", "mcnemar-mid-p"):
        with pytest.raises(ValueError, match=f"method='{method}' takes no margin"):
            _compare(method, y, a, b, margin=0.02)
    with pytest.raises(ValueError, match="hypothesis='superiority' names the test of a "
                                         "margin, but margin is None"):
        _compare("bootstrap", y, a, b, hypothesis="superiority")
    with pytest.raises(ValueError, match="alternative='less' does not go with margin"):
        _compare("bootstrap", y, a, b, margin=0.02, alternative="less")
    with pytest.raises(ValueError, match="'margin' parameter of compare_scores"):
        _compare("bootstrap", y, a, b, margin=-0.01)
    with pytest.raises(ValueError, match="'hypothesis' parameter of compare_scores"):
        _compare("bootstrap", y, a, b, margin=0.01, hypothesis="equivalence")


# --- compare_cv_scores and compare_cv -----------------------------------------------------


def test_corrected_ttest_with_a_margin_by_hand():
    # d = (0.05, 0.01, 0.05, 0.03): mean 0.035, s^2 = 0.0011 / 3; se^2 = (1/4 + 1/9) s^2
    se = math.sqrt((1 / 4 + 1 / 9) * 0.0011 / 3)
    for hypothesis, null in (("non-inferiority", -0.01), ("superiority", 0.01)):
        result = sce.compare_cv_scores(A, B, n_train=9, n_test=1, margin=0.01,
                                       hypothesis=hypothesis)
        t = (0.035 - null) / se
        assert result.statistic == pytest.approx(t, rel=1e-9)
        assert result.pvalue == pytest.approx(stats.t.sf(t, 3), rel=1e-9)
        assert result.alternative == "greater" and result.df == 3.0
        low, high = result.confidence_interval(0.95)
        assert low == pytest.approx(0.035 - stats.t.ppf(0.95, 3) * se) and high == math.inf
        assert (result.pvalue < ALPHA) == (low > null)
    assert result.pvalue > ALPHA and result.verdict.startswith("not shown superior")
    naive = sce.compare_cv_scores(A, B, method="naive_ttest", margin=0.01)
    assert naive.statistic == pytest.approx((0.035 + 0.01) / math.sqrt(0.0011 / 3 / 4))


@pytest.mark.parametrize("method", ["corrected_ttest", "naive_ttest", "5x2cv_ttest"])
def test_cv_margin_zero_is_the_one_sided_test_and_a_shift_moves_the_null(method):
    rng = np.random.default_rng(0)
    a = rng.normal(0.8, 0.02, 10)
    b = a - rng.normal(0.01, 0.02, 10)
    sizes = {"n_train": 50, "n_test": 50}
    plain = sce.compare_cv_scores(a, b, method=method, alternative="greater", **sizes)
    zero = sce.compare_cv_scores(a, b, method=method, margin=0, **sizes)
    assert zero.pvalue == plain.pvalue and zero.statistic == plain.statistic
    # a - b shifted by c: the margin m + c tests the same null as m did
    shifted = sce.compare_cv_scores(a + 0.03, b, method=method, margin=0.05, **sizes)
    moved = sce.compare_cv_scores(a, b, method=method, margin=0.08, **sizes)
    assert shifted.statistic == pytest.approx(moved.statistic, rel=1e-9)
    superior = sce.compare_cv_scores(a + 0.03, b, method=method, margin=0.02,
                                     hypothesis="superiority", **sizes)
    unshifted = sce.compare_cv_scores(a, b, method=method, alternative="greater", **sizes)
    assert superior.pvalue == pytest.approx(
        sce.compare_cv_scores(a + 0.01, b, method=method, margin=0.0, **sizes).pvalue)
    assert unshifted.pvalue != superior.pvalue


def test_cv_bayesian_probabilities_by_hand_and_rope_untouched():
    plain = sce.compare_cv_scores(A, B, method="bayesian", rope=0.01, n_train=3, n_test=1)
    result = sce.compare_cv_scores(A, B, method="bayesian", rope=0.01, n_train=3, n_test=1,
                                   margin=0.02)
    assert tuple(result) == tuple(plain)  # rope's three probabilities as they were
    scale = math.sqrt((1 / 4 + 1 / 3) * 0.0011 / 3)
    assert result.scale == pytest.approx(scale)
    assert result.p_non_inferior == pytest.approx(stats.t.sf(-0.02, 3, 0.035, scale))
    assert result.p_superior == pytest.approx(stats.t.sf(0.02, 3, 0.035, scale))
    assert result.p_non_inferior > 0.95 and result.verdict.startswith("non-inferior")
    assert "> 0.95)" in result.verdict
    assert "verdict: " in repr(result) and result.to_frame().attrs["verdict"] == result.verdict
    # with rope = margin, P(d > m) is P(a better) and P(d > -m) is 1 - P(b better)
    same = sce.compare_cv_scores(A, B, method="bayesian", rope=0.02, n_train=3, n_test=1,
                                 margin=0.02, hypothesis="superiority")
    assert same.p_superior == pytest.approx(same.p_a_better)
    assert same.p_non_inferior == pytest.approx(1 - same.p_b_better)
    assert same.verdict.startswith("not shown superior")


def test_cv_refusals():
    tens = np.linspace(0.8, 0.9, 10)
    with pytest.raises(ValueError, match="method='5x2cv_ftest' takes no margin"):
        sce.compare_cv_scores(tens, tens - 0.01, method="5x2cv_ftest", margin=0.01)
    with pytest.raises(ValueError, match="hypothesis='non-inferiority' names"):
        sce.compare_cv_scores(A, B, n_train=9, n_test=1, hypothesis="non-inferiority")
    with pytest.raises(ValueError, match="alternative='less' does not go with margin"):
        sce.compare_cv_scores(A, B, n_train=9, n_test=1, margin=0.01, alternative="less")
    with pytest.raises(ValueError, match="'margin' parameter of compare_cv_scores"):
        sce.compare_cv_scores(A, B, n_train=9, n_test=1, margin=math.inf)


def test_compare_cv_with_a_margin_is_compare_cv_scores_on_its_folds():
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    models = GaussianNB(), DecisionTreeClassifier(random_state=0)
    with pytest.raises(ValueError, match="takes no margin"):  # refused before any fit
        sce.compare_cv(*models, X, y, method="5x2cv_ftest", margin=0.01)
    result = sce.compare_cv(*models, X, y, scoring="accuracy", n_splits=5, n_repeats=2,
                            margin=0.02, random_state=0)
    again = sce.compare_cv_scores(result.scores_a, result.scores_b, n_train=result.n_train,
                                  n_test=result.n_test, margin=0.02)
    assert result.pvalue == again.pvalue and result.margin == 0.02
    assert result.verdict.startswith(("non-inferior: GaussianNB", "not shown non-inferior: "
                                                                  "GaussianNB"))


@pytest.mark.parametrize("method", ["corrected_ttest", "bayesian"])
def test_cv_verdict_decides_at_confidence_level(method):
    # A margin whose p-value (or posterior probability) lies between the two levels: the
    # verdict flips between 90 % and 99 %, and the bound is the interval's at that level.
    a = np.array([0.82, 0.80, 0.85, 0.81, 0.84, 0.79, 0.83, 0.82, 0.80, 0.84])
    b = a - np.array([0.02, -0.01, 0.03, 0.00, 0.02, -0.02, 0.01, 0.03, 0.00, 0.01])
    sizes = {"n_train": 9, "n_test": 1}
    default = sce.compare_cv_scores(a, b, method=method, margin=0.01, **sizes)
    at_95 = sce.compare_cv_scores(a, b, method=method, margin=0.01, confidence_level=0.95,
                                  **sizes)
    assert default.confidence_level == 0.95 and default.verdict == at_95.verdict
    loose = sce.compare_cv_scores(a, b, method=method, margin=0.01, confidence_level=0.80,
                                  **sizes)
    strict = sce.compare_cv_scores(a, b, method=method, margin=0.01,
                                   confidence_level=0.999, **sizes)
    assert loose.confidence_level == 0.80 and strict.confidence_level == 0.999
    assert loose.verdict.startswith("non-inferior")
    assert strict.verdict.startswith("not shown non-inferior")
    if method == "corrected_ttest":
        assert strict.pvalue == loose.pvalue  # the level moves the decision, not the test
        assert f"{loose.confidence_interval(0.80).low:.4g}" in loose.verdict
    with pytest.raises(ValueError, match="confidence_level"):
        sce.compare_cv_scores(a, b, method=method, margin=0.01, confidence_level=1.5, **sizes)
