"""Top-k accuracy against scikit-learn's, the top-k view against a loop over instances, and
the intervals of top-k accuracy (a proportion of per-instance hits)."""

import tracemalloc
import warnings

import numpy as np
import pytest
from scipy import special
from sklearn import metrics
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.user_warnings import DegenerateIntervalWarning


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _case(rng, tied):
    n_classes = int(rng.integers(3, 9))
    n_samples = int(rng.integers(n_classes, 50))
    y_true = rng.integers(0, n_classes, n_samples)
    y_true[:n_classes] = np.arange(n_classes)
    # integer scores tie often, the true class at the k-th place included
    y_score = (rng.integers(0, 3, (n_samples, n_classes)).astype(float) if tied
               else rng.normal(size=(n_samples, n_classes)))
    return y_true, y_score, rng.random(n_samples) + 0.1


@pytest.mark.parametrize("tied", [False, True])
def test_equals_scikit_learn_for_every_k_weights_and_normalize(tied):
    rng = np.random.default_rng(int(tied))
    for _ in range(40):
        y_true, y_score, weight = _case(rng, tied)
        for k in range(1, y_score.shape[1] + 1):
            for keywords in ({}, {"sample_weight": weight}, {"normalize": False},
                             {"normalize": False, "sample_weight": weight}):
                expected = _quiet(metrics.top_k_accuracy_score, y_true, y_score, k=k,
                                  **keywords)
                assert _quiet(sce.top_k_accuracy_score, y_true, y_score, k=k,
                              **keywords) == pytest.approx(expected, abs=1e-12)


def test_ties_rank_the_later_column_first_as_scikit_learn():
    y_score = [[0.4, 0.4, 0.2]]
    # class 1 (the later column) takes the first place from class 0
    assert sce.top_k_accuracy_score([0], y_score, k=1, labels=[0, 1, 2]) == 0.0
    assert sce.top_k_accuracy_score([1], y_score, k=1, labels=[0, 1, 2]) == 1.0
    assert sce.top_k_accuracy_score([0], y_score, k=2, labels=[0, 1, 2]) == 1.0
    # the true class tied with two others at the second place: only the last is in
    y_score = [[0.9, 0.3, 0.3, 0.3]]
    for true, hit in ((1, 0.0), (2, 0.0), (3, 1.0)):
        assert sce.top_k_accuracy_score([true], y_score, k=2, labels=[0, 1, 2, 3]) == hit
        assert metrics.top_k_accuracy_score([true], y_score, k=2, labels=[0, 1, 2, 3]) == hit


def test_labels_and_strings_and_a_class_absent_from_y_true():
    rng = np.random.default_rng(3)
    y_true, y_score, weight = _case(rng, tied=True)
    n_classes = y_score.shape[1]
    keep = y_true != 1  # class 1 never true: labels name the columns
    names = np.array([f"c{i}" for i in range(n_classes)])
    expected = metrics.top_k_accuracy_score(y_true[keep], y_score[keep], k=2,
                                            labels=np.arange(n_classes))
    assert sce.top_k_accuracy_score(y_true[keep], y_score[keep], k=2,
                                    labels=np.arange(n_classes)) == pytest.approx(expected)
    assert sce.top_k_accuracy_score(names[y_true[keep]], y_score[keep], k=2,
                                    labels=names) == pytest.approx(expected)
    # labels in another order than the sorted columns are refused, as scikit-learn does
    order = np.roll(np.arange(n_classes), 1)
    with pytest.raises(ValueError, match="reorders the columns of y_score"):
        sce.top_k_accuracy_score(y_true, y_score[:, order], k=2, labels=order)
    with pytest.raises(ValueError, match="must be ordered"):
        metrics.top_k_accuracy_score(y_true, y_score[:, order], k=2, labels=order)
    with pytest.raises(ValueError, match="y_score"):
        sce.top_k_accuracy_score(y_true[keep], y_score[keep], k=2)


@pytest.mark.parametrize("bounded", [True, False])
def test_one_dimensional_binary_scores_as_scikit_learn(bounded):
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 2, 60)
    y_score = rng.random(60) if bounded else rng.normal(size=60)
    y_score[:3] = 0.5 if bounded else 0.0  # at the threshold: the first class
    for k in (1, 2, 3):
        for labels in (None, [0, 1]):
            expected = _quiet(metrics.top_k_accuracy_score, y_true, y_score, k=k,
                              labels=labels)
            assert _quiet(sce.top_k_accuracy_score, y_true, y_score, k=k,
                          labels=labels) == expected
    assert sce.top_k_accuracy_score(np.array(["no", "yes"])[y_true], y_score, k=1) == \
        metrics.top_k_accuracy_score(y_true, y_score, k=1)
    with pytest.raises(ValueError, match="labels= naming both"):
        sce.top_k_accuracy_score([1, 1, 1], [0.2, 0.7, 0.9], k=1)


def test_k_at_least_the_classes_warns_as_scikit_learn():
    with pytest.warns(UndefinedMetricWarning, match="'k' \\(3\\) greater than or equal"):
        assert sce.top_k_accuracy_score([0, 1, 2], np.eye(3), k=3) == 1.0
    with pytest.warns(UndefinedMetricWarning, match="sums to 0"):
        assert np.isnan(sce.top_k_accuracy_score([0, 1, 2], np.eye(3), k=1,
                                                 sample_weight=[0, 0, 0]))


def test_no_copy_of_the_scores():
    rng = np.random.default_rng(5)
    y_score = rng.random((20000, 100))  # 16 MB
    y_true = rng.integers(0, 100, 20000)
    tracemalloc.start()
    try:
        sce.top_k_accuracy_score(y_true, y_score, k=5)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < y_score.nbytes / 2, f"peak {peak / 2 ** 20:.1f} MiB"


# --- The top-k view ----------------------------------------------------------------------


def _loop_view(y_true, y_score, k, weight):
    """The top-k matrix, instance by instance, in scikit-learn's order (a stable sort,
    reversed: the later column first among ties)."""
    n_classes = y_score.shape[1]
    matrix = np.zeros((n_classes, n_classes))
    for row, true in enumerate(y_true):
        order = np.argsort(y_score[row], kind="mergesort")[::-1]
        place = int(np.flatnonzero(order == true)[0])
        for other in order[:min(place, k)]:
            matrix[true, other] += weight[row]
        if place < k:
            matrix[true, true] += weight[row]
    return matrix


@pytest.mark.parametrize("tied", [False, True])
def test_view_equals_a_loop_over_instances(tied):
    rng = np.random.default_rng(6 + int(tied))
    for _ in range(30):
        y_true, y_score, weight = _case(rng, tied)
        n_classes = y_score.shape[1]
        for k in range(1, n_classes + 1):
            result = _quiet(sce.top_k_confusion_matrix, y_true, y_score, k=k,
                            sample_weight=weight)
            np.testing.assert_allclose(result.matrix, _loop_view(y_true, y_score, k, weight),
                                       rtol=1e-12, atol=1e-12)
            support = np.bincount(y_true, weights=weight, minlength=n_classes)
            np.testing.assert_allclose(result.support, support)
            np.testing.assert_allclose(result.hit_rate, np.diagonal(result.matrix) / support)
            assert result.top_k_accuracy == pytest.approx(_quiet(
                metrics.top_k_accuracy_score, y_true, y_score, k=k, sample_weight=weight))


def test_view_of_k_one_is_the_confusion_matrix_of_the_top_class():
    rng = np.random.default_rng(8)
    y_true, y_score, _ = _case(rng, tied=True)
    n_classes = y_score.shape[1]
    top = n_classes - 1 - np.argmax(y_score[:, ::-1], axis=1)  # ties: the later column
    np.testing.assert_array_equal(
        sce.top_k_confusion_matrix(y_true, y_score, k=1).matrix,
        metrics.confusion_matrix(y_true, top, labels=np.arange(n_classes)))
    # 1-D scores of the second class: scikit-learn's threshold
    y_true, y_prob = rng.integers(0, 2, 40), rng.random(40)
    np.testing.assert_array_equal(sce.top_k_confusion_matrix(y_true, y_prob, k=1).matrix,
                                  metrics.confusion_matrix(y_true, y_prob > 0.5))


def test_view_permutes_with_the_classes_and_names_them():
    rng = np.random.default_rng(9)
    y_true, y_score, weight = _case(rng, tied=False)
    n_classes = y_score.shape[1]
    result = sce.top_k_confusion_matrix(y_true, y_score, k=2, sample_weight=weight)
    names = np.array([f"c{i}" for i in range(n_classes)])
    named = sce.top_k_confusion_matrix(names[y_true], y_score, k=2, labels=names,
                                       sample_weight=weight)
    np.testing.assert_array_equal(named.matrix, result.matrix)
    assert list(named.classes) == list(names)
    with pytest.raises(ValueError, match="reorders the columns of y_score"):
        sce.top_k_confusion_matrix(names[y_true], y_score, k=2, labels=names[::-1])
    frame = pytest.importorskip("pandas") and result.to_frame()
    assert list(frame.columns) == ["support", "hits", "hit_rate", "most_often_above",
                                   "times_above"]
    # integer class labels stay labels beside a class no other is ranked above (None),
    # never the floats 3.0 and NaN
    view = sce.top_k_confusion_matrix([0, 1, 2, 2], [[0.5, 0.3, 0.2], [0.6, 0.3, 0.1],
                                                     [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]], k=1)
    assert view.to_frame()["most_often_above"].tolist() == [None, 0, 1]


def test_most_confused_pairs_of_the_view():
    y_true = ["a", "a", "b", "c", "c"]
    y_score = [[0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.5, 0.4, 0.1], [0.5, 0.4, 0.1],
               [0.1, 0.2, 0.7]]
    result = sce.top_k_confusion_matrix(y_true, y_score, k=2)
    # a: missed once (b and c take the top 2), a hit once; b: a above it (a hit);
    # c: a and b above it (a miss), a hit once
    np.testing.assert_array_equal(result.matrix, [[1, 1, 1], [1, 1, 0], [1, 1, 1]])
    pairs = list(result.most_confused_pairs(top=None))
    assert [(p.true, p.predicted, p.count) for p in pairs] == [
        ("a", "b", 1.0), ("a", "c", 1.0), ("b", "a", 1.0), ("c", "a", 1.0), ("c", "b", 1.0)]
    assert [p.fraction_of_true for p in pairs] == [0.5, 0.5, 1.0, 0.5, 0.5]
    assert [p.fraction_of_predicted for p in pairs] == [0.5, 1.0, 0.5, 0.5, 0.5]
    assert result.most_confused_pairs(normalize="true", top=1)[0].true == "b"


def test_view_warns_of_absent_classes_and_refuses_beyond_the_budget():
    with pytest.warns(UndefinedMetricWarning, match="no instance"):
        result = sce.top_k_confusion_matrix([0, 0, 2], np.eye(3), k=1, labels=[0, 1, 2])
    assert np.isnan(result.hit_rate[1])
    with sce.config_context(max_matrix_mib=1):
        with pytest.raises(ValueError, match="max_matrix_mib=1 MiB"):
            sce.top_k_confusion_matrix(np.arange(500), np.eye(500), k=5)


# --- Intervals ---------------------------------------------------------------------------


def _model(rng, n_samples=400, n_classes=30, signal=1.5):
    y_true = rng.integers(0, n_classes, n_samples)
    y_score = rng.normal(size=(n_samples, n_classes))
    y_score[np.arange(n_samples), y_true] += signal
    return y_true, y_score


def _hits(y_true, y_score, k):
    order = np.argsort(y_score, axis=1, kind="mergesort")[:, ::-1][:, :k]
    return (order == y_true[:, None]).any(axis=1).astype(int)


@pytest.mark.parametrize("method", ["percentile", "bca", "bayesian", "analytic"])
def test_interval_is_the_interval_of_the_hits(method):
    """The interval of top-k accuracy is the accuracy interval of its hits (the same
    resamples of two cells), whether named by this library's function, scikit-learn's,
    or scikit-learn's scorer name."""
    rng = np.random.default_rng(10)
    y_true, y_score = _model(rng)
    hits = _hits(y_true, y_score, 5)
    expected = sce.score_confidence_interval(np.ones_like(hits), hits, scoring="tcm_accuracy",
                                             method=method, n_resamples=999, random_state=0)
    for scoring in (sce.top_k_accuracy_score, metrics.top_k_accuracy_score,
                    "top_k_accuracy"):
        result = sce.score_confidence_interval(y_true, y_score, scoring=scoring, k=5,
                                               method=method, n_resamples=999,
                                               random_state=0)
        assert result.estimate == pytest.approx(metrics.top_k_accuracy_score(
            y_true, y_score, k=5), abs=1e-12)
        assert (result.low, result.high) == pytest.approx((expected.low, expected.high))
        assert result.low < result.estimate < result.high


def test_interval_at_one_and_at_zero_is_wilsons():
    rng = np.random.default_rng(11)
    y_true, y_score = _model(rng, n_samples=200)
    z2 = special.ndtri(0.975) ** 2
    perfect = y_score.copy()
    perfect[np.arange(200), y_true] += 100.0
    with pytest.warns(DegenerateIntervalWarning, match="Wilson"):
        result = sce.score_confidence_interval(y_true, perfect,
                                               scoring=sce.top_k_accuracy_score, k=5,
                                               n_resamples=999, random_state=0)
    assert result.estimate == 1.0 and result.high == 1.0 and result.wilson_fallback
    assert result.low == pytest.approx(200 / (200 + z2))
    worst = y_score.copy()
    worst[np.arange(200), y_true] -= 100.0
    with pytest.warns(DegenerateIntervalWarning, match="Wilson"):
        result = sce.score_confidence_interval(y_true, worst, scoring="top_k_accuracy", k=5,
                                               method="percentile", n_resamples=999,
                                               random_state=0)
    assert result.estimate == 0.0 and result.low == 0.0
    assert result.high == pytest.approx(z2 / (200 + z2))


def test_interval_with_weights_and_of_the_count():
    rng = np.random.default_rng(12)
    y_true, y_score = _model(rng, n_samples=150)
    weight = rng.random(150) + 0.5
    result = sce.score_confidence_interval(y_true, y_score, scoring=sce.top_k_accuracy_score,
                                           k=3, sample_weight=weight, n_resamples=499,
                                           random_state=0)
    assert result.estimate == pytest.approx(metrics.top_k_accuracy_score(
        y_true, y_score, k=3, sample_weight=weight))
    # normalize=False is a count, no proportion: resampled as any metric
    count = sce.score_confidence_interval(y_true, y_score, scoring=sce.top_k_accuracy_score,
                                          k=3, normalize=False, method="percentile",
                                          n_resamples=99, random_state=0)
    assert count.estimate == metrics.top_k_accuracy_score(y_true, y_score, k=3,
                                                          normalize=False)
    assert count.high > 1


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
def test_paired_comparison_of_two_models_top_k(method):
    rng = np.random.default_rng(13)
    y_true, strong = _model(rng, n_samples=120, signal=1.5)
    weak = rng.normal(size=strong.shape)
    weak[np.arange(120), y_true] += 1.0
    result = sce.compare_scores(y_true, strong, weak, scoring=sce.top_k_accuracy_score, k=5,
                                method=method, n_resamples=499, random_state=0)
    hits_a, hits_b = _hits(y_true, strong, 5), _hits(y_true, weak, 5)
    expected = sce.compare_scores(np.ones(120, dtype=int), hits_a, hits_b,
                                  scoring="tcm_accuracy", method=method, n_resamples=499,
                                  random_state=0)
    assert result.estimate == pytest.approx(hits_a.mean() - hits_b.mean())
    assert (result.low, result.high, result.pvalue) == pytest.approx(
        (expected.low, expected.high, expected.pvalue))


@pytest.mark.skipif(not hasattr(metrics, "get_scorer_names") or tuple(
    int(part) for part in __import__("sklearn").__version__.split(".")[:2]) < (1, 4),
    reason="make_scorer(response_method=) and a multiclass top_k_accuracy scorer: "
           "scikit-learn 1.4")
def test_scorer_for_model_selection():
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import make_scorer

    X, y = load_digits(return_X_y=True)
    model = LogisticRegression(max_iter=200).fit(X[:300], y[:300])
    named = sce.get_scorer("top_k_accuracy")  # scikit-learn's name: k=2
    assert named(model, X[300:], y[300:]) == pytest.approx(sce.top_k_accuracy_score(
        y[300:], model.decision_function(X[300:]), k=2))
    scorer = make_scorer(sce.top_k_accuracy_score, k=3,
                         response_method=("decision_function", "predict_proba"))
    assert scorer(model, X[300:], y[300:]) == pytest.approx(metrics.top_k_accuracy_score(
        y[300:], model.decision_function(X[300:]), k=3))
