"""calibration_in_the_large: the predicted prevalences against the soft matrix's column sums
and the probabilities' means, the errors against a hand computation, the intervals against
a hand bootstrap over the same instance weights, and their coverage by simulation (slow)."""

import math

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.resampling import instance_weights


def data(n=300, n_classes=3, seed=0, power=1.0):
    rng = np.random.default_rng(seed)
    prob = rng.dirichlet(np.ones(n_classes), n)
    truth = prob ** power / (prob ** power).sum(axis=1, keepdims=True)
    y = (rng.random(n)[:, None] >= truth.cumsum(axis=1)[:, :-1]).sum(axis=1)
    return y, prob


@pytest.mark.parametrize("weighted", [False, True])
def test_prevalences_are_the_soft_matrix_sums_and_the_probabilities_means(weighted):
    y, prob = data()
    w = np.random.default_rng(1).random(len(y)) if weighted else None
    result = sce.calibration_in_the_large(y, prob, sample_weight=w, confidence_level=None)
    matrix = sce.transport_confusion_matrix(y, prob, sample_weight=w)
    np.testing.assert_allclose(result.predicted_prevalence, matrix.sum(0) / matrix.sum(),
                               rtol=1e-12)
    np.testing.assert_allclose(result.predicted_prevalence,
                               np.average(prob, axis=0, weights=w), rtol=1e-12)
    if w is None:
        np.testing.assert_allclose(result.predicted_prevalence, prob.sum(0) / len(y),
                                   rtol=1e-12)
    np.testing.assert_allclose(result.true_prevalence, sce.prevalence(y, sample_weight=w),
                               rtol=1e-12)
    np.testing.assert_allclose(result.difference,
                               result.predicted_prevalence - result.true_prevalence)


def test_errors_equal_a_hand_computation():
    y = [0, 0, 1, 2, 2, 2]
    prob = [[0.5, 0.3, 0.2], [0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8],
            [0.3, 0.3, 0.4], [0.2, 0.2, 0.6]]
    pi = np.array([2, 1, 3]) / 6
    q = np.array([1.9, 1.7, 2.4]) / 6
    ae = sce.calibration_in_the_large(y, prob, confidence_level=None)
    assert ae.error == pytest.approx(sum(abs(q[k] - pi[k]) for k in range(3)) / 3)
    eps = 1 / 12  # the paper's 1 / (2 n)
    s_pi, s_q = (pi + eps) / (1 + 3 * eps), (q + eps) / (1 + 3 * eps)
    kld = sce.calibration_in_the_large(y, prob, measure="kl_divergence",
                                       confidence_level=None)
    assert kld.eps == pytest.approx(eps)
    assert kld.error == pytest.approx(sum(s_pi[k] * math.log(s_pi[k] / s_q[k])
                                          for k in range(3)))
    rae = sce.calibration_in_the_large(y, prob, measure="relative_absolute_error", eps=0.01,
                                       confidence_level=None)
    s_pi, s_q = (pi + 0.01) / (1 + 0.03), (q + 0.01) / (1 + 0.03)
    assert rae.error == pytest.approx(np.mean(np.abs(s_q - s_pi) / s_pi))
    assert sce.calibration_in_the_large(y, prob, measure="kl_divergence", eps=None,
                                        confidence_level=None).error == pytest.approx(
        sce.kl_divergence(pi, q))


def test_one_dimensional_equals_two_columns_and_labels_order():
    rng = np.random.default_rng(2)
    p = rng.random(80)
    y = (rng.random(80) < p).astype(int)
    one = sce.calibration_in_the_large(y, p, n_resamples=99, random_state=0)
    two = sce.calibration_in_the_large(y, np.column_stack([1 - p, p]), n_resamples=99,
                                       random_state=0)
    for name in ("true_prevalence", "predicted_prevalence", "difference_low",
                 "difference_high"):
        np.testing.assert_allclose(getattr(one, name), getattr(two, name), rtol=1e-12)
    assert (one.low, one.high) == pytest.approx((two.low, two.high), rel=1e-12)
    y3, prob = data(60)
    names = np.array(["a", "b", "c"])
    named = sce.calibration_in_the_large(names[y3], prob, labels=names, confidence_level=None)
    plain = sce.calibration_in_the_large(y3, prob, confidence_level=None)
    np.testing.assert_array_equal(named.predicted_prevalence, plain.predicted_prevalence)
    assert named.class_names.tolist() == ["a", "b", "c"]
    assert named.error == plain.error
    # the columns are the classes in sorted order: labels that reorder them are refused
    with pytest.raises(ValueError, match=r"reorders the columns of y_prob.*\['a', 'b', 'c'\]"):
        sce.calibration_in_the_large(names[y3], prob[:, [2, 0, 1]], labels=["c", "a", "b"],
                                     confidence_level=None)


@pytest.mark.parametrize("method", ["percentile", "bayesian"])
@pytest.mark.parametrize("weighted", [False, True])
def test_intervals_are_a_hand_bootstrap_of_the_same_weights(method, weighted):
    y, prob = data(120)
    w = np.random.default_rng(3).random(120) if weighted else None
    result = sce.calibration_in_the_large(y, prob, method=method, n_resamples=200,
                                          sample_weight=w, random_state=4)
    draws = np.concatenate([block.copy() for block in instance_weights(
        np.random.default_rng(4), 120, 200, method == "bayesian")])
    errors, differences = [], []
    for row in draws:  # one resample at a time
        weights = row if w is None else row * w
        true = np.array([weights[y == k].sum() for k in range(3)]) / weights.sum()
        predicted = np.average(prob, axis=0, weights=weights)
        errors.append(np.abs(predicted - true).mean())
        differences.append(predicted - true)
    assert (result.low, result.high) == pytest.approx(
        tuple(np.percentile(errors, [2.5, 97.5])), rel=1e-10)
    np.testing.assert_allclose(result.difference_low,
                               np.percentile(differences, 2.5, axis=0), rtol=1e-10)
    np.testing.assert_allclose(result.difference_high,
                               np.percentile(differences, 97.5, axis=0), rtol=1e-10)
    low, high = result.confidence_interval()
    assert (low, high) == (result.low, result.high)


def test_intervals_do_not_depend_on_the_blocks(monkeypatch):
    """Blocks of 7 resamples (the weights scaled in place, block by block) give the same
    interval as one block."""
    from sklearn_confusion_ext._core import resampling

    y, prob = data(120)
    w = np.random.default_rng(3).random(120)
    whole = sce.calibration_in_the_large(y, prob, n_resamples=100, sample_weight=w,
                                         random_state=4)
    monkeypatch.setattr(resampling, "_WEIGHT_ENTRIES", 7 * 120)
    blocks = sce.calibration_in_the_large(y, prob, n_resamples=100, sample_weight=w,
                                          random_state=4)
    assert (blocks.low, blocks.high) == pytest.approx((whole.low, whole.high), rel=1e-12)
    np.testing.assert_allclose(blocks.difference_low, whole.difference_low, rtol=1e-12)


def test_table_and_summary():
    y, prob = data(50)
    result = sce.calibration_in_the_large(np.array(["x", "y", "z"])[y], prob,
                                          n_resamples=50, random_state=0)
    frame = result.to_frame()
    assert frame.index.name == "class" and frame.index.tolist() == ["x", "y", "z"]
    assert frame.columns.tolist() == ["true_prevalence", "predicted_prevalence",
                                      "difference", "difference_low", "difference_high"]
    assert "absolute_error" in repr(result) and "percentile" in repr(result)
    quiet = sce.calibration_in_the_large(y, prob, confidence_level=None)
    assert quiet.low is None and quiet.method is None and quiet.n_resamples is None
    assert quiet.difference_low is None and quiet.to_frame().shape == (3, 3)


def test_refusals():
    with pytest.raises(ValueError, match="measure"):
        sce.calibration_in_the_large([0, 1], [0.3, 0.6], measure="ae")
    with pytest.raises(ValueError, match="one class only"):
        sce.calibration_in_the_large([1, 1], [0.3, 0.6])
    with pytest.raises(ValueError, match="sums to 0"):
        sce.calibration_in_the_large([0, 1], [0.3, 0.6], sample_weight=[0, 0])


def test_verbose_prints_progress(capsys):
    y, prob = data(40)
    sce.calibration_in_the_large(y, prob, n_resamples=30, verbose=2, random_state=0)
    assert "calibration_in_the_large: resample 30/30" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 1000])
def test_difference_intervals_cover_zero_under_calibration(n):
    """Under calibration E[q_j - pi_j] = 0: the classes' 95 % intervals cover 0 in at
    least 93 % of the repeats (the three classes pooled: 3,000 or 1,800 intervals, a
    binomial standard error of 0.4 or 0.5 %), each class's at least 92 %."""
    rng = np.random.default_rng(n)
    repeats, covered = {100: 1000, 1000: 600}[n], np.zeros(3)
    for _ in range(repeats):
        y, prob = data(n, seed=int(rng.integers(2 ** 31)))
        result = sce.calibration_in_the_large(y, prob, n_resamples=999, random_state=rng)
        covered += (result.difference_low <= 0) & (0 <= result.difference_high)
    assert covered.sum() / (3 * repeats) >= 0.93, covered / repeats
    assert (covered / repeats >= 0.92).all(), covered / repeats


def test_miscalibrated_prevalence_is_found():
    """A model whose probabilities all lean to class 0 predicts its prevalence too high."""
    y, prob = data(2000, seed=5)
    leaning = prob * np.array([2.0, 1.0, 1.0])
    leaning /= leaning.sum(axis=1, keepdims=True)
    result = sce.calibration_in_the_large(y, leaning, n_resamples=199, random_state=0)
    assert result.difference_low[0] > 0
    assert result.low > sce.calibration_in_the_large(y, prob, n_resamples=199,
                                                     random_state=0).high
