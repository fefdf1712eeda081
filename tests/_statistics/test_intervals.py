"""Confidence intervals of scores (score_confidence_interval): what each method returns.

The statistical properties (coverage by simulation, agreement with scipy.stats.bootstrap and
the peers) are in ``test_interval_coverage.py``; the paired comparisons in
``test_paired.py``; the matrices of many resamples at once in
``_core/test_resampled_matrices.py``.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import f1_score, recall_score

import sklearn_confusion_ext as sce

Y_TRUE = np.array([0, 0, 1, 1, 2, 2] * 20)
Y_PRED = np.array([0, 1, 1, 1, 2, 0] * 20)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca", "bayesian"])
@pytest.mark.parametrize("score", ["tcm_accuracy", "tcm_f1_macro", "mlcm_recall_weighted",
                                   "generalized_means", "symmetric_balanced_accuracy",
                                   "neg_confusion_entropy"])
def test_every_method_brackets_the_estimate(score, method):
    result = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring=score, method=method,
                                           n_resamples=300, random_state=0)
    assert result.low <= result.high and result.distribution.shape == (300,)
    assert result.standard_error > 0 and result.method == method
    if method != "bayesian":  # the posterior with a prior may lie beside the estimate
        assert result.low - 1e-12 <= result.estimate <= result.high + 1e-12


def test_estimates_equal_the_scores():
    for score, value in [("tcm_accuracy", sce.transport_accuracy_score(Y_TRUE, Y_PRED)),
                         ("tcm_f1_macro", sce.transport_precision_recall_fscore_support(
                             Y_TRUE, Y_PRED, average="macro")[2]),
                         ("generalized_means", sce.generalized_means_score(
                             Y_TRUE, Y_PRED, average="macro"))]:
        result = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring=score,
                                               method="percentile", n_resamples=10)
        assert result.estimate == pytest.approx(value)


def test_cell_resampling_draws_what_instance_resampling_draws():
    # The resampled matrices of the 1-D path have the instances' multinomial moments: the
    # bootstrap standard error of accuracy is sqrt(p (1 - p) / n).
    result = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring="tcm_accuracy",
                                           method="percentile", n_resamples=20000,
                                           random_state=1)
    p = result.estimate
    assert result.standard_error == pytest.approx(np.sqrt(p * (1 - p) / len(Y_TRUE)), rel=0.03)
    # Weights (the instance path) give the same spread.
    weighted = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring="tcm_accuracy",
                                             method="percentile", n_resamples=2000,
                                             sample_weight=np.ones(len(Y_TRUE)),
                                             random_state=1)
    assert weighted.standard_error == pytest.approx(result.standard_error, rel=0.1)


def test_per_class_intervals():
    result = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring="tcm_recall_macro",
                                           average=None, method="bca", n_resamples=500,
                                           random_state=0)
    np.testing.assert_allclose(result.estimate, [0.5, 1.0, 0.5])
    assert result.low.shape == result.high.shape == (3,)
    assert result.distribution.shape == (500, 3)
    assert (result.low <= result.estimate + 1e-12).all()


def test_analytic_intervals():
    accuracy = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring="tcm_accuracy",
                                             method="analytic")
    # Wilson's interval of 80 successes in 120 trials.
    z = 1.959963984540054
    n, p = 120, 80 / 120
    centre = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
    half = z / (1 + z ** 2 / n) * np.sqrt(p * (1 - p) / n + z ** 2 / (4 * n ** 2))
    assert (accuracy.low, accuracy.high) == pytest.approx((centre - half, centre + half))
    assert accuracy.distribution is None
    recall = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring=recall_score, average=None,
                                           method="analytic")
    assert recall.low.shape == (3,)
    f1 = sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring=f1_score, average="macro",
                                       method="analytic")
    assert f1.estimate == pytest.approx(f1_score(Y_TRUE, Y_PRED, average="macro"))
    with pytest.raises(ValueError, match="'analytic' does not apply to scoring='generalized_"
                                         "means'.*'percentile', 'basic', 'bca' or 'bayesian'"):
        sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring="generalized_means",
                                      method="analytic")


def test_two_dimensional_targets_and_probabilities():
    rng = np.random.default_rng(0)
    y_true = (rng.random((60, 4)) < 0.4).astype(int)
    y_pred = (rng.random((60, 4)) < 0.4).astype(int)
    for score in ("tcm_f1_macro", "mlcm_f1_macro"):
        result = sce.score_confidence_interval(y_true, y_pred, scoring=score, method="bca",
                                               n_resamples=50, random_state=0)
        assert result.low <= result.estimate <= result.high
    labels = rng.integers(0, 3, 60)
    probabilities = rng.dirichlet(np.ones(3), 60)
    result = sce.score_confidence_interval(labels, probabilities, scoring="tcm_accuracy",
                                           method="bayesian", n_resamples=50, random_state=0)
    assert result.estimate == pytest.approx(sce.transport_accuracy_score(labels, probabilities))


@pytest.mark.parametrize("keywords, error, match", [
    ({"confidence_level": 1.0}, ValueError, "'confidence_level' parameter"),
    ({"confidence_level": 0}, ValueError, "'confidence_level' parameter"),
    ({"n_resamples": 0}, ValueError, "'n_resamples' parameter"),
    ({"method": "jackknife"}, ValueError, "'method' parameter"),
    ({"scoring": "tcm_f2"}, ValueError, r"not a score name.*tcm_f1_macro"),
    ({"scoring": "neg_absolute_error"}, ValueError, "prevalences of an estimator"),
    ({"scoring": "tcm_f1_macro", "gamma": 2}, TypeError, r"takes no keyword\(s\) \['gamma'\]"),
    ({"scoring": f1_score, "gamma": 2}, TypeError, "gamma"),
])
def test_bad_input_names_the_argument(keywords, error, match):
    with pytest.raises(error, match=match), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sce.score_confidence_interval(Y_TRUE, Y_PRED, **{"n_resamples": 10, **keywords})


def test_labels_name_the_columns_of_probabilities():
    # Beside 2-D probabilities labels= names the columns: the estimate is the score's.
    rng = np.random.default_rng(0)
    y_true, probabilities = rng.integers(0, 4, 200), rng.dirichlet(np.ones(4), 200)
    y_true[:4] = np.arange(4)
    order = [3, 1, 0, 2]
    result = sce.score_confidence_interval(
        y_true, probabilities[:, order], scoring="tcm_recall_macro", average=None, labels=order,
        method="percentile", n_resamples=50, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sce.transport_precision_recall_fscore_support(
            y_true, probabilities[:, order], labels=order)[1]
    np.testing.assert_allclose(result.estimate, expected)


@pytest.mark.parametrize("metric, params", [
    (f1_score, {"average": "macro"}), (recall_score, {"average": None}),
    (f1_score, {"pos_label": 0}), (f1_score, {"average": "binary", "zero_division": 1.0})])
@pytest.mark.slow
def test_scikit_learn_metrics_resample_through_the_cells(metric, params):
    # scikit-learn's proportions of 1-D labels are read off the resampled cells: the same
    # estimate, and the distribution of scoring each resample of the instances.
    from scipy import stats

    from sklearn_confusion_ext._scores.resolved import _data, _resolve_score

    rng = np.random.default_rng(8)
    n_classes = 2 if "pos_label" in params or params.get("average") == "binary" else 3
    y_true = rng.integers(0, n_classes, 200)
    y_pred = np.where(rng.random(200) < 0.7, y_true, rng.integers(0, n_classes, 200))
    assert _data(_resolve_score(metric, None, dict(params), "test"), y_true, y_pred,
                 None).cells is not None
    fast = sce.score_confidence_interval(y_true, y_pred, scoring=metric, method="percentile",
                                         n_resamples=2_000, random_state=0, **params)
    np.testing.assert_allclose(fast.estimate, metric(y_true, y_pred, **params))
    each = sce.score_confidence_interval(  # an opaque callable: scored resample by resample
        y_true, y_pred, scoring=lambda t, p, sample_weight=None: metric(
            t, p, sample_weight=sample_weight, **params),
        method="percentile", n_resamples=2_000, random_state=1)
    for one, other in zip(np.reshape(fast.distribution, (2_000, -1)).T,
                          np.reshape(each.distribution, (2_000, -1)).T):
        assert stats.ks_2samp(one, other).pvalue > 0.001


def test_per_class_intervals_keep_the_none_class_of_the_data():
    # One instance without a label gives the "none" class its row; resamples that do not
    # draw it still report the class (undefined there), so every resample has the data's
    # classes and the per-class intervals stay aligned.
    rng = np.random.default_rng(9)
    y_true = (rng.random((30, 3)) < 0.5).astype(int)
    y_true[y_true.sum(axis=1) == 0, 0] = 1
    y_true[0] = 0  # the one instance without a label
    y_pred = np.where(rng.random((30, 3)) < 0.8, y_true, 1 - y_true)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sce.transport_precision_recall_fscore_support(y_true, y_pred)[1]
        result = sce.score_confidence_interval(y_true, y_pred, scoring="tcm_recall",
                                               average=None, method="percentile",
                                               n_resamples=200, random_state=0)
    assert len(expected) == 4  # three classes and "none"
    np.testing.assert_allclose(result.estimate, expected)
    assert result.distribution.shape == (200, 4)
    assert np.all(result.low <= result.high)


@pytest.mark.parametrize("score, average", [("tcm_recall", None), ("tcm_precision", "micro"),
                                            ("tcm_f1", "macro"), ("tcm_f1", "micro"),
                                            ("tcm_f1", None), ("tcm_accuracy", None),
                                            ("tcm_recall", "macro"),
                                            ("tcm_precision", "macro")])
def test_analytic_intervals_read_labels_as_the_estimate_does(score, average):
    # labels= selects the classes; each class's score reads its whole row and column, so
    # the closed forms agree with the bootstrap of the same selection (found by a review:
    # the bounds were those of every class, in sorted order).
    y_true = np.array(["cat", "dog", "fox"] * 60)
    y_pred = np.array(["cat", "dog", "fox"] * 42 + ["dog", "cat", "cat"] * 12
                      + ["cat", "dog", "fox"] * 6)  # no class perfect (Wilson never collapses)
    keywords = {"labels": ["fox", "cat"]}
    if score != "tcm_accuracy":
        keywords["average"] = average
    analytic = sce.score_confidence_interval(y_true, y_pred, scoring=score, method="analytic",
                                             **keywords)
    bootstrap = sce.score_confidence_interval(y_true, y_pred, scoring=score,
                                              method="percentile", n_resamples=4_000,
                                              random_state=0, **keywords)
    np.testing.assert_allclose(analytic.estimate, bootstrap.estimate)
    assert np.shape(analytic.low) == np.shape(analytic.estimate)
    assert np.all(analytic.low <= analytic.estimate + 1e-12)
    assert np.all(analytic.estimate <= analytic.high + 1e-12)
    np.testing.assert_allclose(analytic.low, bootstrap.low, atol=0.03)
    np.testing.assert_allclose(analytic.high, bootstrap.high, atol=0.03)


# --- Labels beside scores: grouped products (private unit tests: no public face) ----------


def _bca_by_hand(distribution, estimate, jackknife, confidence_level):
    """Efron and Tibshirani (1993), eqs. 14.9-14.15, as scipy.stats.bootstrap writes them:
    the bias correction counts resamples tied with the estimate half below it, and the
    acceleration is the skewness of the jackknife values, sum d^3 / (6 (sum d^2)^1.5)
    with d = mean - jackknife."""
    from scipy.special import ndtr, ndtri

    share_below = (np.sum(distribution < estimate) + np.sum(distribution <= estimate)) / (
        2 * distribution.size)
    z0 = ndtri(share_below)
    d = jackknife.mean() - jackknife
    acceleration = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    alpha = 1 - confidence_level
    levels = [ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
              for z in (ndtri(alpha / 2), ndtri(1 - alpha / 2))]
    return [np.percentile(distribution, 100 * level) for level in levels], z0, acceleration


@pytest.mark.parametrize("score, accuracy", [("tcm_accuracy", 0.88), ("tcm_f1_macro", 0.75)])
def test_bca_bounds_equal_efrons_formulas_on_the_resamples(score, accuracy):
    """BCa's bounds from the method's own resamples (``distribution``) and a leave-one-out
    jackknife by scikit-learn: equal to the formulas. Accuracy of 50 instances takes few
    values, so about a tenth of the resamples tie with the estimate (the tie rule moves
    the bounds), and at 0.88 its jackknife is skewed (the acceleration's sign moves them)."""
    from sklearn.metrics import accuracy_score

    rng = np.random.default_rng(5)
    y_true = rng.integers(0, 3, 50)
    y_pred = np.where(rng.random(50) < accuracy, y_true, (y_true + 1) % 3)
    metric = {"tcm_accuracy": accuracy_score,
              "tcm_f1_macro": lambda t, p: f1_score(t, p, average="macro")}[score]
    result = sce.score_confidence_interval(y_true, y_pred, scoring=score, method="bca",
                                           n_resamples=2000, random_state=0)
    assert result.estimate == pytest.approx(metric(y_true, y_pred), rel=1e-12)
    keep = ~np.eye(50, dtype=bool)
    jackknife = np.array([metric(y_true[row], y_pred[row]) for row in keep])
    (low, high), z0, acceleration = _bca_by_hand(result.distribution, result.estimate,
                                                 jackknife, 0.95)
    assert abs(acceleration) > 0.005 and abs(z0) > 0.01  # both corrections at work
    assert (result.low, result.high) == (pytest.approx(low, rel=1e-12),
                                         pytest.approx(high, rel=1e-12))
    if score == "tcm_accuracy":
        ties = np.mean(result.distribution == result.estimate)
        assert ties > 0.05


def _two_arguments(y_true, y_pred):
    return f1_score(y_true, y_pred, average="macro")


def _with_weights(y_true, y_pred, sample_weight=None):
    return f1_score(y_true, y_pred, average="macro", sample_weight=sample_weight)


LABELS_TRUE = np.array([0, 1, 2] * 10)


LABELS_PRED = np.array([0, 1, 1] * 8 + [2, 2, 0] * 2)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_a_two_argument_metric_is_resampled_like_one_with_weights(method):
    plain = sce.score_confidence_interval(LABELS_TRUE, LABELS_PRED, scoring=_two_arguments,
                                          method=method, n_resamples=200, random_state=0)
    weighted = sce.score_confidence_interval(LABELS_TRUE, LABELS_PRED, scoring=_with_weights,
                                             method=method, n_resamples=200, random_state=0)
    np.testing.assert_allclose(plain.distribution, weighted.distribution, atol=1e-12)
    assert (plain.estimate, plain.low, plain.high) == pytest.approx(
        (weighted.estimate, weighted.low, weighted.high), abs=1e-12)


@pytest.mark.parametrize("score", ["tcm_precision", "tcm_f1"])
@pytest.mark.parametrize("zero_division, fill", [("warn", 0.0), (0.0, 0.0), (1.0, 1.0)])
def test_analytic_interval_of_a_class_never_predicted_follows_zero_division(score,
                                                                             zero_division,
                                                                             fill):
    y_true, y_pred, extra = [0, 1, 1, 2], [0, 0, 0, 2], {}
    if score == "tcm_f1":  # F1 is undefined for a class neither true nor predicted
        y_true, y_pred, extra = [0, 0, 0, 2], [0, 0, 0, 2], {"labels": [0, 1, 2]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = sce.score_confidence_interval(y_true, y_pred, scoring=score, average=None,
                                               method="analytic", zero_division=zero_division,
                                               **extra)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert np.isfinite(result.low).all() and np.isfinite(result.high).all()
    assert result.estimate[1] == result.low[1] == result.high[1] == fill
    assert result.standard_error[1] == 0.0
    assert bool([w for w in caught if issubclass(w.category, UndefinedMetricWarning)]) == \
        (zero_division == "warn")


@pytest.mark.parametrize("keywords", [{"scoring": "tcm_accuracy", "method": "analytic"},
                                      {"scoring": "tcm_f1", "average": None,
                                       "method": "percentile"}])
def test_confidence_interval_gives_the_interval_as_scipy_does(keywords):
    # scipy's results give (low, high) as a named tuple; so does every result with an interval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sce.score_confidence_interval(Y_TRUE, Y_PRED, n_resamples=50, random_state=0,
                                               **keywords)
    interval = result.confidence_interval()
    low, high = interval
    assert type(interval).__name__ == "ConfidenceInterval" and interval._fields == ("low",
                                                                                    "high")
    assert interval.low is result.low and interval.high is result.high
    np.testing.assert_array_equal(low, result.low)
    np.testing.assert_array_equal(high, result.high)
    with pytest.raises(TypeError, match="does not unpack"):
        tuple(result)  # the result itself is no pair: its interval is
