"""Confidence intervals of scores and paired comparisons: what each method returns.

The statistical properties (coverage by simulation, agreement with scipy.stats.bootstrap and
the peers, uniform p-values) are in ``test_uncertainty_statistics.py``.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics import f1_score, recall_score

import sklearn_confusion_ext as sce

Y_TRUE = np.array([0, 0, 1, 1, 2, 2] * 20)
Y_PRED = np.array([0, 1, 1, 1, 2, 0] * 20)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca", "bayesian"])
@pytest.mark.parametrize("score", ["tcm_accuracy", "tcm_f1_macro", "mlcm_recall_weighted",
                                   "generalized_means", "symmetric_balanced_accuracy",
                                   "neg_confusion_entropy"])
def test_every_method_brackets_the_estimate(score, method):
    result = sce.score_confidence_interval(Y_TRUE, Y_PRED, score=score, method=method,
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
        result = sce.score_confidence_interval(Y_TRUE, Y_PRED, score=score,
                                               method="percentile", n_resamples=10)
        assert result.estimate == pytest.approx(value)


def test_cell_resampling_draws_what_instance_resampling_draws():
    # The resampled matrices of the 1-D path have the instances' multinomial moments: the
    # bootstrap standard error of accuracy is sqrt(p (1 - p) / n).
    result = sce.score_confidence_interval(Y_TRUE, Y_PRED, score="tcm_accuracy",
                                           method="percentile", n_resamples=20000,
                                           random_state=1)
    p = result.estimate
    assert result.standard_error == pytest.approx(np.sqrt(p * (1 - p) / len(Y_TRUE)), rel=0.03)
    # Weights (the instance path) give the same spread.
    weighted = sce.score_confidence_interval(Y_TRUE, Y_PRED, score="tcm_accuracy",
                                             method="percentile", n_resamples=2000,
                                             sample_weight=np.ones(len(Y_TRUE)),
                                             random_state=1)
    assert weighted.standard_error == pytest.approx(result.standard_error, rel=0.1)


def test_per_class_intervals():
    result = sce.score_confidence_interval(Y_TRUE, Y_PRED, score="tcm_recall_macro",
                                           average=None, method="bca", n_resamples=500,
                                           random_state=0)
    np.testing.assert_allclose(result.estimate, [0.5, 1.0, 0.5])
    assert result.low.shape == result.high.shape == (3,)
    assert result.distribution.shape == (500, 3)
    assert (result.low <= result.estimate + 1e-12).all()


def test_analytic_intervals():
    accuracy = sce.score_confidence_interval(Y_TRUE, Y_PRED, score="tcm_accuracy",
                                             method="analytic")
    # Wilson's interval of 80 successes in 120 trials.
    z = 1.959963984540054
    n, p = 120, 80 / 120
    centre = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
    half = z / (1 + z ** 2 / n) * np.sqrt(p * (1 - p) / n + z ** 2 / (4 * n ** 2))
    assert (accuracy.low, accuracy.high) == pytest.approx((centre - half, centre + half))
    assert accuracy.distribution is None
    recall = sce.score_confidence_interval(Y_TRUE, Y_PRED, score=recall_score, average=None,
                                           method="analytic")
    assert recall.low.shape == (3,)
    f1 = sce.score_confidence_interval(Y_TRUE, Y_PRED, score=f1_score, average="macro",
                                       method="analytic")
    assert f1.estimate == pytest.approx(f1_score(Y_TRUE, Y_PRED, average="macro"))
    with pytest.raises(ValueError, match="'analytic' does not apply to score='generalized_"
                                         "means'.*'percentile', 'basic', 'bca' or 'bayesian'"):
        sce.score_confidence_interval(Y_TRUE, Y_PRED, score="generalized_means",
                                      method="analytic")


def test_two_dimensional_targets_and_probabilities():
    rng = np.random.default_rng(0)
    y_true = (rng.random((60, 4)) < 0.4).astype(int)
    y_pred = (rng.random((60, 4)) < 0.4).astype(int)
    for score in ("tcm_f1_macro", "mlcm_f1_macro"):
        result = sce.score_confidence_interval(y_true, y_pred, score=score, method="bca",
                                               n_resamples=50, random_state=0)
        assert result.low <= result.estimate <= result.high
    labels = rng.integers(0, 3, 60)
    probabilities = rng.dirichlet(np.ones(3), 60)
    result = sce.score_confidence_interval(labels, probabilities, score="tcm_accuracy",
                                           method="bayesian", n_resamples=50, random_state=0)
    assert result.estimate == pytest.approx(sce.transport_accuracy_score(labels, probabilities))


def test_compare_scores():
    good = np.where(np.arange(120) % 10 == 0, (Y_TRUE + 1) % 3, Y_TRUE)
    for method in ("bootstrap", "permutation", "bayesian"):
        result = sce.compare_scores(Y_TRUE, good, Y_PRED, score="tcm_accuracy", method=method,
                                    n_resamples=300, random_state=0)
        assert result.difference == pytest.approx(0.9 - 2 / 3)
        assert result.pvalue < 0.01 and result.low > 0
    same = sce.compare_scores(Y_TRUE, Y_PRED, Y_PRED, n_resamples=100, random_state=0)
    assert same.difference == 0 and same.pvalue == 1
    table = sce.mcnemar_table(Y_TRUE, good, Y_PRED)
    assert table.sum() == 120 and table[0, 1] > table[1, 0]
    mcnemar = sce.compare_scores(Y_TRUE, good, Y_PRED, method="mcnemar")
    assert mcnemar.pvalue == sce.mcnemar_test(table).pvalue
    assert mcnemar.difference == pytest.approx(0.9 - 2 / 3)
    with pytest.raises(ValueError, match="compares one value"):
        sce.compare_scores(Y_TRUE, good, Y_PRED, score="tcm_f1_macro", average=None,
                           n_resamples=10)


def test_score_distribution_of_the_posterior():
    posterior = sce.dirichlet_posterior([[37, 1, 15], [6, 19, 26], [15, 3, 77]])
    draws = posterior.score_distribution("f1_macro", size=2000, random_state=0)
    matrix = np.array([[37, 1, 15], [6, 19, 26], [15, 3, 77]]) + 1.0
    f1 = np.mean(2 * np.diag(matrix) / (matrix.sum(axis=0) + matrix.sum(axis=1)))
    assert draws.shape == (2000,) and abs(draws.mean() - f1) < 0.01
    by_callable = posterior.score_distribution(sce.symmetric_balanced_accuracy_from_confusion,
                                               size=50, random_state=0)
    named = posterior.score_distribution("symmetric_balanced_accuracy", size=50,
                                         random_state=0)
    np.testing.assert_allclose(by_callable, named)
    with pytest.raises(ValueError, match="score must be one of"):
        posterior.score_distribution("f2")


@pytest.mark.parametrize("keywords, error, match", [
    ({"confidence_level": 1.0}, ValueError, "'confidence_level' parameter"),
    ({"confidence_level": 0}, ValueError, "'confidence_level' parameter"),
    ({"n_resamples": 0}, ValueError, "'n_resamples' parameter"),
    ({"method": "jackknife"}, ValueError, "'method' parameter"),
    ({"score": "tcm_f2"}, ValueError, r"not a score name.*tcm_f1_macro"),
    ({"score": "neg_absolute_error"}, ValueError, "prevalences of an estimator"),
    ({"score": "tcm_f1_macro", "gamma": 2}, TypeError, r"takes no keyword\(s\) \['gamma'\]"),
    ({"score": f1_score, "gamma": 2}, TypeError, "gamma"),
])
def test_bad_input_names_the_argument(keywords, error, match):
    with pytest.raises(error, match=match), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sce.score_confidence_interval(Y_TRUE, Y_PRED, **{"n_resamples": 10, **keywords})


@pytest.mark.parametrize("score, params", [
    ("tcm_accuracy", {}), ("tcm_f1_macro", {}), ("tcm_f1_macro", {"zero_division": np.nan}),
    ("tcm_precision_weighted", {}), ("tcm_recall_micro", {}), ("tcm_f1_weighted", {"beta": 2.0}),
    ("tcm_precision_macro", {"average": None, "zero_division": 1.0}),
])
def test_batched_scores_of_resampled_matrices_equal_the_scores(score, params):
    # The 1-D path reads the scores of all resampled matrices at once; the same scores one
    # matrix at a time are the library's own functions.
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, 300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 6, 300))  # class 5 too
    batched = _Data(_named_score(score, params), y_true, y_pred, None)
    assert batched._batched_agrees()
    one_by_one = _Data(_named_score(score, params), y_true, y_pred, None)
    one_by_one._agrees = False
    counts = rng.multinomial(300, batched.cell_counts / 300, size=40)
    full = np.zeros((40, batched.confusion.matrix.size))
    full[:, batched.cells] = counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(batched.of_full_counts(full),
                                   one_by_one.of_full_counts(full), rtol=1e-12)


def _scores_read_by_the_batched_form():
    from sklearn_confusion_ext._core.score_names import SCORE_NAMES
    from sklearn_confusion_ext._statistics.scoring import _named_score

    return sorted(name for name in SCORE_NAMES
                  if getattr(_named_score(name, {}), "batched_with_none", False))


@pytest.mark.parametrize("score", _scores_read_by_the_batched_form())
@pytest.mark.parametrize("params", [{}, {"zero_division": np.nan}, {"zero_division": 1.0},
                                    {"average": None}, {"beta": 2.0}])
@pytest.mark.parametrize("none_mass", ["true", "predicted", "both"])
def test_batched_scores_of_matrices_with_a_none_class_equal_the_scores(score, params,
                                                                       none_mass):
    # Multi-label targets with empty rows: MLCM (and the transport matrix of empty rows)
    # have a "none" class, reported where the data's "none" row has mass. The resamples'
    # scores read at once must equal the library's score of each resampled matrix.
    from sklearn_confusion_ext._core.resampling import instance_weights
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    if "beta" in params and "_f1" not in score:
        pytest.skip("beta= is F's")
    if "average" in params and not score.endswith(("_precision", "_recall", "_f1")):
        params = {**params, "average": None}
        if score.endswith(("_micro", "_macro", "_weighted")):
            pytest.skip("the name fixes the average")
    rng = np.random.default_rng(3)
    y_true = (rng.random((60, 4)) < 0.35).astype(int)
    y_pred = np.where(rng.random((60, 4)) < 0.7, y_true, 1 - y_true)
    if none_mass in ("true", "both"):
        y_true[:5] = 0
    if none_mass in ("predicted", "both"):
        y_pred[5:10] = 0
    y_true[10:15], y_pred[10:15] = 0, 0  # both empty: the corner
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        named = _named_score(score, params)
        batched = _Data(named, y_true, y_pred, None)
        assert batched.confusion.has_none
        assert batched._batched_agrees()
        one_by_one = _Data(named, y_true, y_pred, None)
        one_by_one._agrees = False
        weights = next(instance_weights(np.random.default_rng(0), 60, 50, False))
        # 0 / 0 where a resample drew no instance of a class: zero_division's value
        weights[0, :] = 0.0
        weights[0, 12] = 5.0
        matrices = batched.matrices(weights)
        np.testing.assert_allclose(batched.of_full_counts(matrices),
                                   one_by_one.of_full_counts(matrices), rtol=1e-12,
                                   atol=1e-15)


def test_scores_of_resamples_with_a_none_class_are_read_at_once(monkeypatch):
    # They were read one resampled matrix at a time (0.2 ms each): 20,000 resamples of
    # a comparison of five instances took 4 s. The one-matrix reader's calls are counted:
    # the data's score and its check, and the jackknife's, not one a resample.
    from sklearn_confusion_ext._statistics import scoring

    calls = []
    original = scoring.precision_recall_fscore_from_confusion

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(scoring, "precision_recall_fscore_from_confusion", counted)
    y_true = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [1, 0, 1]])
    y_pred_a = np.array([[1, 0, 0], [0, 1, 1], [0, 0, 1], [1, 0, 0], [1, 0, 1]])
    for method in ("percentile", "bca", "bayesian"):
        calls.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = sce.score_confidence_interval(
                y_true, y_pred_a, score="mlcm_f1_macro", method=method, n_resamples=500,
                random_state=0)
        assert len(calls) < 20, (method, len(calls))
        assert 0 <= result.low <= result.high <= 1


@pytest.mark.parametrize("targets", ["multilabel", "soft", "probabilities"])
@pytest.mark.parametrize("params", [{}, {"weighting": "true"}, {"empty": "skip"}])
def test_transport_matrices_of_all_resamples_at_once_equal_each_build(targets, params):
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    rng = np.random.default_rng(2)
    if targets == "multilabel":
        y_true, y_pred = ((rng.random((80, 4)) < 0.3).astype(int) for _ in range(2))
    elif targets == "soft":
        if params.get("empty"):
            pytest.skip("soft rows are never empty")
        y_true, y_pred = rng.random((80, 4)) + 0.01, rng.random((80, 4)) + 0.01
    else:
        if params.get("empty"):
            pytest.skip("probability rows are never empty")
        y_true, y_pred = rng.integers(0, 4, 80), rng.dirichlet(np.ones(4), 80)
        y_true[:4] = np.arange(4)
    sample_weight = rng.random(80)
    data = _Data(_named_score("tcm_f1_macro", dict(params)), y_true, y_pred, sample_weight)
    weights = rng.multinomial(80, np.full(80, 1 / 80), size=7).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        each = [sce.transport_precision_recall_fscore_support(
            y_true, y_pred, average="macro", sample_weight=w * sample_weight, **params)[2]
            for w in weights]
        np.testing.assert_allclose(data.of_weights(weights), each, rtol=1e-10)


def test_labels_name_the_columns_of_probabilities():
    # Beside 2-D probabilities labels= names the columns: the estimate is the score's.
    rng = np.random.default_rng(0)
    y_true, probabilities = rng.integers(0, 4, 200), rng.dirichlet(np.ones(4), 200)
    y_true[:4] = np.arange(4)
    order = [3, 1, 0, 2]
    result = sce.score_confidence_interval(
        y_true, probabilities[:, order], score="tcm_recall_macro", average=None, labels=order,
        method="percentile", n_resamples=50, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sce.transport_precision_recall_fscore_support(
            y_true, probabilities[:, order], labels=order)[1]
    np.testing.assert_allclose(result.estimate, expected)


@pytest.mark.parametrize("score", ["tcm_f1_macro", "mlcm_recall_weighted", "tcm_accuracy",
                                   "generalized_means"])
def test_weighted_single_labels_resample_through_their_cells(score):
    # With sample_weight, each resampled instance adds its weight to its own cell: the
    # matrices of all resamples are one sparse product, equal to building each resample.
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 5, 300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 5, 300))
    sample_weight = rng.random(300)
    data = _Data(_named_score(score, {}), y_true, y_pred, sample_weight)
    weights = rng.multinomial(300, np.full(300, 1 / 300), size=6).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        each = [data.score.on_targets(y_true, y_pred, w * sample_weight) for w in weights]
        np.testing.assert_allclose(data.of_weights(weights), each, rtol=1e-10)


@pytest.mark.parametrize("score, params", [
    ("tcm_f1_macro", {}), ("tcm_f1_macro", {"weighting": "true"}), ("mlcm_f1_macro", {}),
    ("mlcm_f1_macro", {"method": "krstinic"})])
@pytest.mark.parametrize("container", ["dense", "sparse"])
def test_resampled_matrices_of_every_batched_kind_equal_each_build(score, params, container):
    # Transport and both MLCMs are sums of per-instance terms: the matrices of many
    # weightings are products of the weights with the terms, equal to building each one.
    import scipy.sparse as sp

    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    rng = np.random.default_rng(4)
    y_true, y_pred = ((rng.random((90, 5)) < 0.3).astype(int) for _ in range(2))
    y_pred[:30] = y_true[:30] | (rng.random((30, 5)) < 0.3)  # predictions beyond the truth
    y_pred[30:40] = y_true[30:40] * (rng.random((10, 5)) < 0.5)  # predictions inside it
    if container == "sparse":
        y_true, y_pred = sp.csr_matrix(y_true), sp.csr_matrix(y_pred)
    sample_weight = rng.random(90)
    data = _Data(_named_score(score, dict(params)), y_true, y_pred, sample_weight)
    assert data.batches()
    weights = rng.multinomial(90, np.full(90, 1 / 90), size=5).astype(float)
    weights[0] = rng.dirichlet(np.ones(90)) * 90  # Bayesian bootstrap weights too
    batched = data.matrices(weights)
    for w, matrix in zip(weights, batched):
        expected = data.score.build(y_true, y_pred, w * sample_weight).matrix
        np.testing.assert_allclose(matrix.reshape(expected.shape), expected, rtol=1e-10,
                                   atol=1e-12)


@pytest.mark.parametrize("targets", ["labels", "multilabel", "probabilities"])
def test_swapped_predictions_are_complementary_weightings(targets):
    # The permutation test's swapped matrices: each instance's weight goes to a's or to b's
    # prediction, so a swapped matrix is a's matrix under the kept instances plus b's
    # under the swapped ones, equal to building the swapped predictions.
    from sklearn_confusion_ext._statistics.paired import _same_classes
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    rng = np.random.default_rng(5)
    if targets == "labels":
        y_true = rng.integers(0, 4, 120)
        y_pred_a, y_pred_b = (np.where(rng.random(120) < 0.6, y_true, rng.integers(0, 4, 120))
                              for _ in range(2))
    elif targets == "multilabel":
        y_true, y_pred_a, y_pred_b = ((rng.random((120, 4)) < 0.3).astype(int)
                                      for _ in range(3))
    else:
        y_true = rng.integers(0, 4, 120)
        y_pred_a, y_pred_b = (rng.dirichlet(np.ones(4), 120) for _ in range(2))
    sample_weight = rng.random(120)
    score = _named_score("tcm_f1_macro", {})
    first, second = (_Data(score, y_true, y_pred, sample_weight)
                     for y_pred in (y_pred_a, y_pred_b))
    assert _same_classes(first, second)
    swaps = (rng.random((4, 120)) < 0.5).astype(float)
    swapped = first.matrices(1 - swaps) + second.matrices(swaps)
    for swap, matrix in zip(swaps.astype(bool), swapped):
        where = swap[:, None] if np.ndim(y_pred_a) == 2 else swap
        expected = score.build(y_true, np.where(where, y_pred_b, y_pred_a), sample_weight)
        np.testing.assert_allclose(matrix, expected.matrix.ravel(), rtol=1e-10, atol=1e-12)


def test_binomial_swaps_of_cells_draw_what_instance_swaps_draw():
    # Without weights, the swaps of 1-D labels are binomial counts per pair of cells; with
    # unit weights, one indicator per instance: the two null distributions agree.
    from scipy import stats

    from sklearn_confusion_ext._statistics.paired import _swapped_values
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    rng = np.random.default_rng(6)
    y_true = rng.integers(0, 3, 150)
    y_pred_a, y_pred_b = (np.where(rng.random(150) < p, y_true, rng.integers(0, 3, 150))
                          for p in (0.7, 0.5))
    score = _named_score("tcm_f1_macro", {})
    nulls = []
    for sample_weight in (None, np.ones(150)):
        first, second = (_Data(score, y_true, y_pred, sample_weight)
                         for y_pred in (y_pred_a, y_pred_b))
        assert (first.cells is not None) == (sample_weight is None)
        nulls.append(_swapped_values(first, second, y_true, y_pred_a, y_pred_b,
                                     np.random.default_rng(7), 3_000))
    assert abs(np.mean(nulls[0])) < 0.01 and abs(np.mean(nulls[1])) < 0.01
    assert stats.ks_2samp(*nulls).pvalue > 0.001


def test_a_class_only_predicted_swaps_through_the_targets():
    # A class that only a predicts is absent from some swapped predictions (and so from
    # their matrices): the swaps are scored from their targets, each over its own classes.
    from sklearn_confusion_ext._statistics.paired import _same_classes
    from sklearn_confusion_ext._statistics.scoring import _Data, _named_score

    y_true = np.array([0, 1, 2] * 10)
    y_pred_a = y_true.copy()
    y_pred_a[0] = 3
    first, second = (_Data(_named_score("tcm_f1_macro", {}), y_true, y_pred, None)
                     for y_pred in (y_pred_a, y_true))
    assert not _same_classes(first, second)
    result = sce.compare_scores(y_true, y_pred_a, y_true, method="permutation",
                                n_resamples=99, random_state=0, zero_division=0.0)
    # Class 3 is in a's or in b's swapped predictions, never in both: the swapped
    # matrices of one swap are over different classes, and the difference is +-(1 - F1).
    difference = 1 - sce.transport_precision_recall_fscore_support(
        y_true, y_pred_a, average="macro", zero_division=0.0)[2]
    assert set(np.round(result.distribution, 12)) == {round(difference, 12),
                                                      round(-difference, 12)}


@pytest.mark.parametrize("metric, params", [
    (f1_score, {"average": "macro"}), (recall_score, {"average": None}),
    (f1_score, {"pos_label": 0}), (f1_score, {"average": "binary", "zero_division": 1.0})])
@pytest.mark.slow
def test_scikit_learn_metrics_resample_through_the_cells(metric, params):
    # scikit-learn's proportions of 1-D labels are read off the resampled cells: the same
    # estimate, and the distribution of scoring each resample of the instances.
    from scipy import stats

    from sklearn_confusion_ext._statistics.scoring import _data, _resolve_score

    rng = np.random.default_rng(8)
    n_classes = 2 if "pos_label" in params or params.get("average") == "binary" else 3
    y_true = rng.integers(0, n_classes, 200)
    y_pred = np.where(rng.random(200) < 0.7, y_true, rng.integers(0, n_classes, 200))
    assert _data(_resolve_score(metric, None, dict(params), "test"), y_true, y_pred,
                 None).cells is not None
    fast = sce.score_confidence_interval(y_true, y_pred, score=metric, method="percentile",
                                         n_resamples=2_000, random_state=0, **params)
    np.testing.assert_allclose(fast.estimate, metric(y_true, y_pred, **params))
    each = sce.score_confidence_interval(  # an opaque callable: scored resample by resample
        y_true, y_pred, score=lambda t, p, sample_weight=None: metric(
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
        result = sce.score_confidence_interval(y_true, y_pred, score="tcm_recall",
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
    analytic = sce.score_confidence_interval(y_true, y_pred, score=score, method="analytic",
                                             **keywords)
    bootstrap = sce.score_confidence_interval(y_true, y_pred, score=score,
                                              method="percentile", n_resamples=4_000,
                                              random_state=0, **keywords)
    np.testing.assert_allclose(analytic.estimate, bootstrap.estimate)
    assert np.shape(analytic.low) == np.shape(analytic.estimate)
    assert np.all(analytic.low <= analytic.estimate + 1e-12)
    assert np.all(analytic.estimate <= analytic.high + 1e-12)
    np.testing.assert_allclose(analytic.low, bootstrap.low, atol=0.03)
    np.testing.assert_allclose(analytic.high, bootstrap.high, atol=0.03)


def test_mcnemar_compares_accuracies_of_counted_instances():
    # McNemar's test compares accuracies on instance counts: another score, or weights that
    # are not frequencies (whose scale would change its p-value), are refused, not ignored.
    y_true = ["cat", "dog", "fox"] * 60
    y_a = ["cat", "dog", "fox"] * 50 + ["dog", "dog", "cat"] * 10
    y_b = ["cat", "dog", "fox"] * 42 + ["dog", "cat", "fox"] * 18
    plain = sce.compare_scores(y_true, y_a, y_b, method="mcnemar")
    assert sce.compare_scores(y_true, y_a, y_b, method="mcnemar",
                              score="tcm_accuracy").pvalue == plain.pvalue
    doubled = sce.compare_scores(y_true, y_a, y_b, method="mcnemar",
                                 sample_weight=np.full(180, 2))
    assert doubled.pvalue < plain.pvalue  # twice the instances: more evidence
    with pytest.raises(ValueError, match="compares accuracies; got score='tcm_f1_macro'"):
        sce.compare_scores(y_true, y_a, y_b, method="mcnemar", score="tcm_f1_macro")
    with pytest.raises(ValueError, match="frequencies"):
        sce.compare_scores(y_true, y_a, y_b, method="mcnemar", sample_weight=np.full(180, .5))


# --- Labels beside scores: grouped products (private unit tests: no public face) ----------


def _labels_beside_scores(rng, n_samples=60, n_classes=4):
    y_true = rng.choice(["ant", "bee", "cat", "dog"][:n_classes], n_samples)
    scores = rng.dirichlet(np.ones(n_classes), n_samples)
    scores[:3] = np.eye(n_classes)[[0, 1, 2]]  # sure predictions: a plan with no deficit
    scores[3] *= 3.0  # scores, not probabilities: rows normalized
    return y_true, scores


@pytest.mark.parametrize("kind, params", [
    (kind, params) for kind in sorted(__import__(
        "sklearn_confusion_ext._core.kinds", fromlist=["KINDS"]).KINDS)
    for params in ({}, {"weighting": "true"}, {"weighting": "pred"}, {"empty": "skip"},
                   {"weighting": lambda y_true, y_pred: np.arange(y_true.shape[0]) % 3 + 0.5})])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_grouped_products_equal_the_outer_products(kind, params, weighted, dtype):
    """Every kind written as terms that takes labels beside scores: the grouped products
    give, under the same instance weights, the matrices of the per-instance outer
    products (sample weights, weightings, float32 scores, unsorted classes)."""
    from sklearn_confusion_ext._core.kinds import KINDS
    from sklearn_confusion_ext._core.resampling import grouped_rows, resampled_matrices

    matrix_kind = KINDS[kind]
    params = {key: value for key, value in params.items() if key in matrix_kind.parameters}
    rng = np.random.default_rng(5)
    y_true, scores = _labels_beside_scores(rng)
    scores = scores.astype(dtype)
    sample_weight = rng.random(len(y_true)) * 2 if weighted else None
    weights = np.vstack([rng.poisson(1.0, (6, len(y_true))),
                         rng.dirichlet(np.ones(len(y_true)), 2) * len(y_true)]).astype(float)
    if matrix_kind.terms is None:
        return  # not resampled through terms
    try:
        expected = resampled_matrices(matrix_kind, params, y_true, scores, sample_weight,
                                      weights, "test")
    except ValueError:  # the kind takes no scores beside labels
        with pytest.raises(ValueError):
            grouped_rows(matrix_kind, params, y_true, scores, sample_weight)
        return
    grouped = grouped_rows(matrix_kind, params, y_true, scores, sample_weight)
    assert grouped is not None
    np.testing.assert_allclose(grouped.matrices(weights), expected, rtol=1e-12, atol=1e-12)
    shuffled = grouped.matrices(weights[:, grouped.order], presorted=True)
    np.testing.assert_allclose(shuffled, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("params", [{}, {"weighting": "true"}, {"weighting": "pred"},
                                    {"empty": "skip"}])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_soft_label_products_equal_the_outer_products(params, weighted, dtype):
    """Soft labels on both sides: one (C x n) @ (n x C) product a resample gives the
    matrices of the per-instance outer products under the same instance weights."""
    from sklearn_confusion_ext._core.kinds import KINDS
    from sklearn_confusion_ext._core.resampling import (
        WeightedProducts,
        grouped_rows,
        resampled_matrices,
    )

    rng = np.random.default_rng(8)
    y_true = (rng.dirichlet(np.ones(5), 70) * rng.uniform(0.5, 3, (70, 1))).astype(dtype)
    y_pred = rng.dirichlet(np.ones(5), 70).astype(dtype)
    y_pred[:4] = y_true[:4] / y_true[:4].sum(axis=1, keepdims=True)  # no deficit
    sample_weight = rng.random(70) * 2 if weighted else None
    weights = np.vstack([rng.poisson(1.0, (5, 70)),
                         rng.dirichlet(np.ones(70), 2) * 70]).astype(float)
    products = grouped_rows(KINDS["transport"], params, y_true, y_pred, sample_weight)
    assert isinstance(products, WeightedProducts)
    expected = resampled_matrices(KINDS["transport"], params, y_true, y_pred, sample_weight,
                                  weights, "test")
    np.testing.assert_allclose(products.matrices(weights), expected, rtol=1e-12,
                               atol=1e-12)


def test_grouped_products_are_not_used_where_instances_add_to_the_none_class():
    """Indicators with empty rows: their instances add to the "none" row and column."""
    from sklearn_confusion_ext._core.kinds import KINDS
    from sklearn_confusion_ext._core.resampling import grouped_rows

    rng = np.random.default_rng(0)
    indicator = (rng.random((20, 3)) < 0.3).astype(int)
    indicator[0] = 0
    assert grouped_rows(KINDS["transport"], {}, indicator, indicator[::-1], None) is None


def test_labels_beside_scores_resample_alike_with_and_without_grouped_products(monkeypatch):
    """The fast path draws in the order of the true classes (the bootstrap is
    exchangeable): its distribution of the score is the outer products' (means and
    standard deviations within Monte Carlo error), and with the draws in the instances'
    own order the two give the same resampled scores."""
    from sklearn_confusion_ext._statistics import scoring

    rng = np.random.default_rng(2)
    y_true, scores = _labels_beside_scores(rng, n_samples=300)
    fast = sce.score_confidence_interval(y_true, scores, score="tcm_f1_macro",
                                         method="percentile", n_resamples=2000,
                                         random_state=1)
    monkeypatch.setattr(scoring, "grouped_rows", lambda *args, **kwargs: None)
    slow = sce.score_confidence_interval(y_true, scores, score="tcm_f1_macro",
                                         method="percentile", n_resamples=2000,
                                         random_state=1)
    assert fast.estimate == pytest.approx(slow.estimate, rel=1e-12)
    spread = slow.distribution.std()
    assert abs(fast.distribution.mean() - slow.distribution.mean()) < 4 * spread / np.sqrt(1000)
    assert fast.distribution.std() == pytest.approx(spread, rel=0.1)
    assert not np.allclose(fast.distribution, slow.distribution)  # other instances drawn


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
    result = sce.score_confidence_interval(y_true, y_pred, score=score, method="bca",
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
