"""The matrices and scores of many resamples at once equal building and scoring each one.

The batched scores of resampled matrices (with and without a none class), the products of
the resamples' weights with the per-instance terms, the permutation test's swapped
matrices, and the grouped products of labels beside scores.
"""

import warnings

import numpy as np
import pytest

import sklearn_confusion_ext as sce


@pytest.mark.parametrize("score, params", [
    ("tcm_accuracy", {}), ("tcm_f1_macro", {}), ("tcm_f1_macro", {"zero_division": np.nan}),
    ("tcm_precision_weighted", {}), ("tcm_recall_micro", {}), ("tcm_f1_weighted", {"beta": 2.0}),
    ("tcm_precision_macro", {"average": None, "zero_division": 1.0}),
])
def test_batched_scores_of_resampled_matrices_equal_the_scores(score, params):
    # The 1-D path reads the scores of all resampled matrices at once; the same scores one
    # matrix at a time are the library's own functions.
    from sklearn_confusion_ext._scores.resolved import _Data, _named_score

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
    from sklearn_confusion_ext._scores.names import SCORE_NAMES
    from sklearn_confusion_ext._scores.resolved import _named_score

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
    from sklearn_confusion_ext._scores.resolved import _Data, _named_score

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
    from sklearn_confusion_ext._scores import resolved as scoring

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
                y_true, y_pred_a, scoring="mlcm_f1_macro", method=method, n_resamples=500,
                random_state=0)
        assert len(calls) < 20, (method, len(calls))
        assert 0 <= result.low <= result.high <= 1


@pytest.mark.parametrize("targets", ["multilabel", "soft", "probabilities"])
@pytest.mark.parametrize("params", [{}, {"weighting": "true"}, {"empty": "skip"}])
def test_transport_matrices_of_all_resamples_at_once_equal_each_build(targets, params):
    from sklearn_confusion_ext._scores.resolved import _Data, _named_score

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


@pytest.mark.parametrize("score", ["tcm_f1_macro", "mlcm_recall_weighted", "tcm_accuracy",
                                   "generalized_means"])
def test_weighted_single_labels_resample_through_their_cells(score):
    # With sample_weight, each resampled instance adds its weight to its own cell: the
    # matrices of all resamples are one sparse product, equal to building each resample.
    from sklearn_confusion_ext._scores.resolved import _Data, _named_score

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

    from sklearn_confusion_ext._scores.resolved import _Data, _named_score

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
    from sklearn_confusion_ext._scores.resolved import _Data, _named_score
    from sklearn_confusion_ext._statistics.paired import _same_classes

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

    from sklearn_confusion_ext._scores.resolved import _Data, _named_score
    from sklearn_confusion_ext._statistics.paired import _swapped_values

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
    from sklearn_confusion_ext._scores import resolved as scoring

    rng = np.random.default_rng(2)
    y_true, scores = _labels_beside_scores(rng, n_samples=300)
    fast = sce.score_confidence_interval(y_true, scores, scoring="tcm_f1_macro",
                                         method="percentile", n_resamples=2000,
                                         random_state=1)
    monkeypatch.setattr(scoring, "grouped_rows", lambda *args, **kwargs: None)
    slow = sce.score_confidence_interval(y_true, scores, scoring="tcm_f1_macro",
                                         method="percentile", n_resamples=2000,
                                         random_state=1)
    assert fast.estimate == pytest.approx(slow.estimate, rel=1e-12)
    spread = slow.distribution.std()
    assert abs(fast.distribution.mean() - slow.distribution.mean()) < 4 * spread / np.sqrt(1000)
    assert fast.distribution.std() == pytest.approx(spread, rel=0.1)
    assert not np.allclose(fast.distribution, slow.distribution)  # other instances drawn
