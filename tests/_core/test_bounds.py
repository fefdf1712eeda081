"""Intervals at the boundary: a class 100 % right, a score constant in every resample.

Generated over every score name of the library and every interval method: a proportion
at its bound gets Wilson's interval of its trials (never a point), every degenerate
resampling distribution warns, and a proportion's bounds never leave [0, 1].
"""

import warnings

import numpy as np
import pytest
from scipy import stats

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.bounds import proportion_trials, wilson
from sklearn_confusion_ext._scores.names import SCORE_NAMES
from sklearn_confusion_ext.exceptions import DegenerateIntervalWarning

METHODS = ("percentile", "basic", "bca", "bayesian", "analytic")
# Class 0 is 21 of 21 right and never predicted for another class; 1 and 2 are not.
Y_TRUE = np.array([0] * 21 + [1] * 20 + [2] * 20)
Y_PRED = Y_TRUE.copy()
Y_PRED[21:25] = 2
Y_PRED[45:48] = 1
Z = stats.norm.ppf(0.975)


def _interval(score, method, y_true=Y_TRUE, y_pred=Y_PRED, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = sce.score_confidence_interval(y_true, y_pred, scoring=score, method=method,
                                                   n_resamples=499, random_state=0,
                                                   **params)
        except ValueError as error:
            if method == "analytic" and "does not apply" in str(error):
                pytest.skip("no closed form")
            raise
    degenerate = [w for w in caught if issubclass(w.category, DegenerateIntervalWarning)]
    return result, degenerate


PROPORTION_NAMES = [name for name, meaning in SCORE_NAMES.items()
                    if meaning.family in ("tcm", "mlcm") and meaning.reading in
                    ("accuracy", "precision", "recall", "f1")]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("score", [n for n in PROPORTION_NAMES if SCORE_NAMES[n].per_class])
def test_a_perfect_class_gets_wilsons_interval_of_its_trials(score, method):
    result, degenerate = _interval(score, method)
    # Class 0: 21 right of 21, predicted for no other instance: recall, precision and F1
    # are 21 of 21, so Wilson's interval is [21 / (21 + z^2), 1].
    assert result.estimate[0] == 1.0
    assert result.low[0] == pytest.approx(21 / (21 + Z ** 2), rel=1e-12)
    assert result.high[0] == 1.0
    if method == "analytic" and SCORE_NAMES[score].reading != "f1":
        assert degenerate == []  # Wilson's interval already: nothing degenerate
    else:  # a point from the resamples, or the delta method's standard error of 0
        assert len(degenerate) == 1 and "Wilson" in str(degenerate[0].message)
        assert "1 of its 3 values" in str(degenerate[0].message)
    # The other classes keep their method's interval: it has width.
    assert np.all(result.high[1:] > result.low[1:])


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("score", PROPORTION_NAMES)
def test_every_proportion_of_a_perfect_classifier_has_width(score, method):
    # Every instance right: each proportion is at 1 and its interval reaches below it.
    y = np.repeat([0, 1, 2], [30, 20, 10])
    result, degenerate = _interval(score, method, y, y)
    low, high = np.atleast_1d(result.low), np.atleast_1d(result.high)
    assert np.all(high == 1.0) and np.all(low < 1.0) and np.all(low > 0.5)
    wilson_already = method == "analytic" and SCORE_NAMES[score].reading != "f1" and \
        SCORE_NAMES[score].average != "macro"
    assert len(degenerate) == (0 if wilson_already else 1)
    meaning = SCORE_NAMES[score]
    trials = {"accuracy": 60, "micro": 60, "weighted": 1 / sum((n / 60) ** 2 / n
                                                              for n in (30, 20, 10)),
              "macro": 9 / (1 / 30 + 1 / 20 + 1 / 10)}
    if meaning.per_class:
        expected = np.array([30, 20, 10]) / (np.array([30, 20, 10]) + Z ** 2)
    else:
        n = trials["accuracy" if meaning.reading == "accuracy" else meaning.average]
        expected = n / (n + Z ** 2)
    np.testing.assert_allclose(low, expected, rtol=1e-12)


def test_every_other_score_warns_when_constant_and_keeps_its_point():
    y = np.repeat([0, 1, 2], 10)
    for score in [n for n, m in SCORE_NAMES.items() if m.family == "measure"]:
        for method in ("percentile", "bca", "bayesian"):
            result, degenerate = _interval(score, method, y, y)
            assert result.low == pytest.approx(result.estimate, rel=1e-14)
            assert result.high == pytest.approx(result.estimate, rel=1e-14)
            assert len(degenerate) == 1 and "says nothing" in str(degenerate[0].message)


def test_a_score_with_spread_does_not_warn():
    for method in METHODS:
        _, degenerate = _interval("tcm_f1_macro", method)
        assert degenerate == []


def test_wilson_at_the_bounds_stays_in_them():
    # 54 of 54 right: the upper end is 1 exactly (it was 1.0000000000000002).
    low, high, _ = wilson(np.array([54.0, 0.0, 27.0]), np.array([54, 54, 54]), 0.05)
    assert high[0] == 1.0 and low[1] == 0.0
    assert np.all((0 <= low) & (low <= high) & (high <= 1))
    result = sce.score_confidence_interval([0] * 54 + [1] * 10, [0] * 54 + [1] * 10,
                                           scoring="tcm_recall", method="analytic")
    assert np.all(result.high <= 1.0)


def test_sklearn_metrics_on_cells_get_the_same_fallback():
    from sklearn.metrics import recall_score

    result, degenerate = _interval(recall_score, "percentile", average=None)
    assert result.low[0] == pytest.approx(21 / (21 + Z ** 2), rel=1e-12)
    assert len(degenerate) == 1


def test_proportion_trials_of_each_reading():
    matrix = np.array([[8.0, 2.0], [1.0, 9.0]])
    np.testing.assert_allclose(proportion_trials(matrix, "recall"), [10, 10])
    np.testing.assert_allclose(proportion_trials(matrix, "precision"), [9, 11])
    np.testing.assert_allclose(proportion_trials(matrix, "f1"), [9.5, 10.5])
    # F-beta = tp / ((beta^2 row + column) / (1 + beta^2)): beta=2, class 0: 8 / 9.8.
    trials = proportion_trials(matrix, "f1", beta=2.0)
    assert 8 / trials[0] == pytest.approx(5 * 8 / (5 * 8 + 4 * 2 + 1))
    assert proportion_trials(matrix, "accuracy") == 20
    assert proportion_trials(matrix, "recall", average="micro") == 20
    assert proportion_trials(matrix, "recall", average="macro") == pytest.approx(20)
    assert proportion_trials(matrix, "precision", average="macro") == pytest.approx(
        4 / (1 / 9 + 1 / 11))


def test_an_interval_passing_its_bound_reaches_wilsons():
    # 29 of 30 right: the basic bootstrap reflects its skewed distribution above 1
    # ([0.93, 1.03]), which misses a true 0.90; it now reaches Wilson's lower end.
    y_true = np.zeros(30, dtype=int)
    y_pred = np.r_[np.zeros(29, dtype=int), 1]
    result, _ = _interval("tcm_accuracy", "basic", y_true, y_pred)
    low, high, _ = wilson(np.array(29.0), np.array(30.0), 0.05)
    assert result.low == pytest.approx(min(low, 2 * 29 / 30 - 1), rel=1e-12)
    assert result.low <= low and result.high == 1.0


@pytest.mark.parametrize("method", METHODS)
def test_an_average_over_a_perfect_class_reaches_wilsons_of_its_trials(method):
    # Class 0 is perfect: it adds nothing to the spread of the macro recall, whose
    # interval reaches at least Wilson's of its effective trials on each side.
    result, _ = _interval("tcm_recall_macro", method)
    rows = np.array([21.0, 20.0, 20.0])
    trials = 9 / np.sum(1 / rows)
    low, high, _ = wilson(result.estimate * trials, trials, 0.05)
    assert result.low <= low + 1e-12 and result.high >= high - 1e-12


def test_weights_scaled_by_a_constant_give_the_same_fallback():
    # Wilson's trials are effective instances (Kish): weights of 1000 are not 1000 x the
    # evidence (they were: a 1000-fold narrower interval).
    plain, _ = _interval("tcm_recall", "percentile")
    heavy, _ = _interval("tcm_recall", "percentile", sample_weight=np.full(61, 1000.0))
    # (the other classes are resampled by instance weights there, by cells here)
    assert heavy.low[0] == pytest.approx(plain.low[0], rel=1e-9) and heavy.high[0] == 1.0


def test_a_level_of_nearly_zero_is_a_point_without_a_warning():
    result, degenerate = _interval("tcm_recall", "percentile", confidence_level=5e-324)
    assert degenerate == [] and np.all(result.low <= result.high)
    low, high, _ = wilson(np.array([9.0, 1.0]), np.array([10.0, 10.0]), 1 - 5e-324)
    assert np.all(low <= high)  # the Poisson ends never pass Wilson's other end


# --- Every public callable that makes intervals of proportions, at the boundary ----------

def _report_bounds(report):
    def read(y, method):
        result = report(y, y, confidence_level=0.95, interval_method=method,
                        n_resamples=199, random_state=0, output_dict=True)
        rows = [row for row in result.values() if isinstance(row, dict)]
        low = [row[f"{key}_low"] for row in rows for key in ("precision", "recall",
                                                               "f1-score")]
        high = [row[f"{key}_high"] for row in rows for key in ("precision", "recall",
                                                                 "f1-score")]
        if "accuracy_low" in result:
            low.append(result["accuracy_low"])
            high.append(result["accuracy_high"])
        return np.array(low), np.array(high)
    return read


def _interval_bounds(y, method):
    result = sce.score_confidence_interval(y, y, scoring="tcm_f1", average=None, method=method,
                                           n_resamples=199, random_state=0)
    return result.low, result.high


def _display_bounds(y, method):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    display = sce.ScoreIntervalDisplay.from_predictions(y, y, method=method, n_resamples=199,
                                                        random_state=0)
    plt.close(display.figure_)
    return display.low.ravel(), display.high.ravel()


def _subgroup_bounds(y, method):  # one method: the percentile bootstrap of each subgroup
    result = sce.score_by_subgroup(y, y, subgroups=np.arange(len(y)) % 2, n_resamples=199,
                                   random_state=0)
    return result.low, result.high


def _subgroup_display_bounds(y, method, estimator=False):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.tree import DecisionTreeClassifier

    subgroups = np.arange(len(y)) % 2
    if estimator:  # a tree of X = y: every instance right
        X = np.asarray(y, dtype=float)[:, None]
        display = sce.SubgroupIntervalDisplay.from_estimator(
            DecisionTreeClassifier().fit(X, y), X, y, subgroups=subgroups, n_resamples=199,
            random_state=0)
    else:
        display = sce.SubgroupIntervalDisplay.from_predictions(
            y, y, subgroups=subgroups, n_resamples=199, random_state=0)
    plt.close(display.figure_)
    return display.low.ravel(), display.high.ravel()


# Each public callable taking confidence_level that makes intervals of proportions; the
# comparisons (compare_scores and its result) give intervals of a difference, and the
# result classes only hold what they are given.
BOUNDARY_READERS = {
    "score_confidence_interval": _interval_bounds,
    "transport_classification_report": _report_bounds(sce.transport_classification_report),
    "mlcm_classification_report": _report_bounds(sce.mlcm_classification_report),
    "ScoreIntervalDisplay.from_predictions": _display_bounds,
    "score_by_subgroup": _subgroup_bounds,
    "SubgroupIntervalDisplay.from_predictions": _subgroup_display_bounds,
    "SubgroupIntervalDisplay.from_estimator": lambda y, method: _subgroup_display_bounds(
        y, method, estimator=True),
}
# Differences of scores, and results built from given values: no proportion at a bound.
NOT_PROPORTIONS = {"compare_scores", "ComparisonResult", "ConfidenceIntervalResult",
                   "CrossValidatedTestResult.confidence_interval",
                   # the t interval of a mean score over folds, of any score's range
                   "cross_validated_score_interval", "CrossValidatedIntervalResult",
                   # differences of prevalences, and errors between prevalence vectors
                   "calibration_in_the_large", "CalibrationInTheLargeResult",
                   # a result built from given values
                   "SubgroupResult",
                   # the level of a margin's verdict over per-fold differences (t-tests)
                   "compare_cv", "compare_cv_scores", "CrossValidatedTestResult",
                   "BayesianCorrelatedTTestResult"}
# Bands that are Wilson's interval itself, never a point, so nothing to warn of (a perfect
# classifier's bins: tests/_calibration/test_calibration.py; a risk of 0 at every point of
# the risk-coverage curve: tests/_decisions/test_abstention.py).
WILSON_BANDS = {"reliability_curve", "ReliabilityCurveResult", "risk_coverage_curve",
                "RiskCoverageResult", "ReliabilityDisplay.from_predictions",
                "ReliabilityDisplay.from_estimator", "RiskCoverageDisplay.from_predictions",
                "RiskCoverageDisplay.from_estimator",
                # Clopper and Pearson's exact interval of the accuracy, never a point
                "accuracy_vs_no_information_rate", "NoInformationRateResult"}


def test_every_interval_maker_is_swept_at_the_boundary():
    from declarations import DECLARATIONS

    makers = {name for name, declared in DECLARATIONS.items() if "confidence_level" in declared}
    assert makers == set(BOUNDARY_READERS) | NOT_PROPORTIONS | WILSON_BANDS


@pytest.mark.parametrize("method", ("percentile", "basic", "bca", "bayesian"))
@pytest.mark.parametrize("name", sorted(BOUNDARY_READERS))
def test_no_interval_maker_gives_a_perfect_class_a_point(name, method):
    y = np.repeat([0, 1, 2], [12, 9, 6])  # every instance right
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        low, high = BOUNDARY_READERS[name](y, method)
    assert np.all(high == 1.0) and np.all(low < 1.0) and np.all(low >= 0.0)
    assert any(issubclass(w.category, DegenerateIntervalWarning) for w in caught)


def test_the_result_and_the_display_say_where_the_interval_is_wilsons():
    result, _ = _interval("tcm_f1", "bca")
    np.testing.assert_array_equal(result.wilson_fallback, [True, False, False])
    assert "wilson_fallback=1" in repr(result)
    assert result.to_frame()["wilson_fallback"].tolist() == [True, False, False]
    spread, _ = _interval("tcm_f1_macro", "bca")
    assert spread.wilson_fallback is False and "wilson_fallback" not in repr(spread)
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateIntervalWarning)
        display = sce.ScoreIntervalDisplay.from_predictions(Y_TRUE, Y_PRED, n_resamples=199,
                                                            random_state=0)
    assert display.ax_.get_title().endswith("Wilson's where every resample agreed)")
    plt.close(display.figure_)
    display = sce.ScoreIntervalDisplay.from_predictions(Y_TRUE[21:], Y_PRED[21:],
                                                        n_resamples=199, random_state=0)
    assert "Wilson" not in display.ax_.get_title()
    plt.close(display.figure_)
