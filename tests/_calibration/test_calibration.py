"""Calibration: the reliability curve against scikit-learn's ``calibration_curve``, the
expected calibration error against a direct loop over the instances (and torchmetrics'
``CalibrationError`` where installed), the Brier score's parts against its exact identity
and scikit-learn's ``brier_score_loss``, and their intervals through
``score_confidence_interval``."""

import warnings

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import brier_score_loss as _sklearn_brier_score_loss

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.bounds import wilson

# scikit-learn 1.7 scores multiclass probabilities in brier_score_loss; the floors environment
# runs an older one, where the reference is the same formula written here
SKLEARN_MULTICLASS_BRIER = tuple(int(part) for part in
                                 __import__("sklearn").__version__.split(".")[:2]) >= (1, 7)


def brier_score_loss(y, prob, sample_weight=None, **keywords):
    """scikit-learn's Brier score (with its "auto" halving for two classes), or where it
    takes only one column, the same sum of squares over the one-hot classes."""
    prob = np.asarray(prob, dtype=float)
    if prob.ndim == 1 or SKLEARN_MULTICLASS_BRIER:
        return _sklearn_brier_score_loss(y, prob, sample_weight=sample_weight, **keywords)
    classes = np.unique(y)
    onehot = (np.asarray(y)[:, None] == classes[None, :]).astype(float)
    total = np.average(((onehot - prob) ** 2).sum(axis=1), weights=sample_weight)
    return total / 2 if prob.shape[1] == 2 else total

# --- Data -------------------------------------------------------------------------------------


def binary_data(n=500, seed=0, power=1.3):
    """Labels drawn from a miscalibrated probability (``p ** power``)."""
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    return (rng.random(n) < p ** power).astype(int), p


def multiclass_data(n=400, n_classes=4, seed=0):
    rng = np.random.default_rng(seed)
    prob = rng.dirichlet(np.ones(n_classes), n)
    sharpened = prob ** 1.5 / (prob ** 1.5).sum(axis=1, keepdims=True)
    y = np.array([rng.choice(n_classes, p=row) for row in sharpened])
    return y, prob


def hand_bins(confidence, n_bins, strategy):
    """Bin edges and each instance's bin, written out (scikit-learn's rule: an instance
    on an inner edge in the bin below)."""
    if strategy == "uniform":
        edges = [k / n_bins for k in range(n_bins + 1)]
        edges = np.linspace(0, 1, n_bins + 1)
    else:
        edges = np.percentile(confidence, np.linspace(0, 100, n_bins + 1))
    ids = []
    for c in confidence:  # a loop over instances, as a reader would count
        b = 0
        while b < n_bins - 1 and c > edges[b + 1]:
            b += 1
        ids.append(b)
    return ids


def hand_ece(confidence, outcome, weights, n_bins, strategy, norm, debiased=False):
    """The calibration error of one curve, by a loop over the instances."""
    ids = hand_bins(confidence, n_bins, strategy)
    total = {}
    for c, o, w, b in zip(confidence, outcome, weights, ids):
        t = total.setdefault(b, [0.0, 0.0, 0.0, 0.0, 0])
        t[0] += w
        t[1] += w * c
        t[2] += w * o
        t[3] += w * w
        t[4] += w > 0
    all_weight = sum(t[0] for t in total.values())
    gaps, shares, terms = [], [], []
    for t in total.values():
        if t[0] == 0:
            continue
        frequency, mean = t[2] / t[0], t[1] / t[0]
        gaps.append(abs(frequency - mean))
        shares.append(t[0] / all_weight)
        n_eff = t[0] ** 2 / t[3]
        if debiased:
            terms.append((frequency - mean) ** 2 - frequency * (1 - frequency) / (n_eff - 1)
                         if t[4] >= 2 else 0.0)
    if norm == "l1":
        return sum(s * g for s, g in zip(shares, gaps))
    if norm == "max":
        return max(gaps)
    if debiased:
        return max(sum(s * t for s, t in zip(shares, terms)), 0.0) ** 0.5
    return sum(s * g * g for s, g in zip(shares, gaps)) ** 0.5


def top_label(y, prob):
    return prob.max(axis=1), (prob.argmax(axis=1) == y).astype(float)


# --- reliability_curve --------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 3, 10, 37])
def test_reliability_curve_equals_sklearn_calibration_curve(strategy, n_bins):
    y, p = binary_data()
    curve = sce.reliability_curve(y, p, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(curve.prob_true, prob_true, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(curve.prob_pred, prob_pred, rtol=1e-12, atol=1e-15)
    mine_true, mine_pred = curve  # unpacks as scikit-learn's pair
    np.testing.assert_array_equal(mine_true, curve.prob_true)
    assert curve.bin_count.sum() == len(y)


def test_reliability_curve_drops_empty_bins_as_sklearn():
    y = [0, 0, 1, 1, 1]
    p = [0.05, 0.1, 0.92, 0.95, 0.97]  # bins 1 to 8 of 10 are empty
    curve = sce.reliability_curve(y, p)
    prob_true, prob_pred = calibration_curve(y, p)
    np.testing.assert_allclose(curve.prob_true, prob_true)
    np.testing.assert_allclose(curve.prob_pred, prob_pred)
    assert curve.bin_index.tolist() == [0, 9]
    assert curve.bin_count.tolist() == [2.0, 3.0]


def test_reliability_curve_ties_on_edges_go_below_as_sklearn():
    y = [0, 1, 0, 1, 1, 0]
    p = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]  # on the edges of 5 bins
    for strategy in ("uniform", "quantile"):
        curve = sce.reliability_curve(y, p, n_bins=5, strategy=strategy)
        prob_true, prob_pred = calibration_curve(y, p, n_bins=5, strategy=strategy)
        np.testing.assert_allclose(curve.prob_true, prob_true)
        np.testing.assert_allclose(curve.prob_pred, prob_pred)


def test_reliability_curve_pos_label_and_two_columns():
    y, p = binary_data(seed=3)
    names = np.array(["ham", "spam"])[y]
    expected = calibration_curve(names, p, pos_label="spam", n_bins=8)
    for curve in (sce.reliability_curve(names, p, pos_label="spam", n_bins=8),
                  sce.reliability_curve(names, np.c_[1 - p, p], n_bins=8),
                  sce.reliability_curve(names, np.c_[1 - p, p], pos_label="spam", n_bins=8)):
        np.testing.assert_allclose(curve.prob_true, expected[0], rtol=1e-12)
        np.testing.assert_allclose(curve.prob_pred, expected[1], rtol=1e-12)
        assert set(curve.class_label.tolist()) == {"spam"}
    negative = sce.reliability_curve(names, 1 - p, pos_label="ham", n_bins=8)
    np.testing.assert_allclose(negative.prob_true,
                               calibration_curve(names, 1 - p, pos_label="ham", n_bins=8)[0])


def test_reliability_curve_band_is_wilson_of_each_bin():
    y, p = binary_data(n=300, seed=1)
    curve = sce.reliability_curve(y, p, n_bins=6, confidence_level=0.9)
    low, high, _ = wilson(curve.prob_true * curve.bin_count, curve.bin_count, 0.1)
    np.testing.assert_allclose(curve.low, low, rtol=1e-12)
    np.testing.assert_allclose(curve.high, high, rtol=1e-12)
    assert np.all(curve.low <= curve.prob_true) and np.all(curve.prob_true <= curve.high)
    ci = curve.confidence_interval()
    np.testing.assert_array_equal(ci.low, curve.low)


def test_reliability_curve_band_is_honest_at_zero_and_one():
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    p = [0.05, 0.1, 0.15, 0.2, 0.8, 0.85, 0.9, 0.95]
    curve = sce.reliability_curve(y, p, n_bins=2)
    assert curve.prob_true.tolist() == [0.0, 1.0]
    assert curve.low[0] == 0.0 and 0.3 < curve.high[0] < 0.7  # never the point [0, 0]
    assert curve.high[1] == 1.0 and 0.3 < curve.low[1] < 0.7


def test_reliability_curve_weights_use_kish_effective_counts():
    y, p = binary_data(n=200, seed=2)
    w = np.random.default_rng(5).uniform(0.2, 3.0, len(y))
    curve = sce.reliability_curve(y, p, n_bins=4, sample_weight=w)
    ids = np.array(hand_bins(p, 4, "uniform"))
    for row, b in enumerate(curve.bin_index):
        inside = ids == b
        assert np.isclose(curve.bin_count[row], w[inside].sum(), rtol=1e-12)
        assert np.isclose(curve.n_effective[row], w[inside].sum() ** 2 / (w[inside] ** 2).sum(),
                          rtol=1e-12)
        assert np.isclose(curve.prob_true[row], w[inside] @ y[inside] / w[inside].sum(),
                          rtol=1e-12)
        assert np.isclose(curve.prob_pred[row], w[inside] @ p[inside] / w[inside].sum(),
                          rtol=1e-12)
    scaled = sce.reliability_curve(y, p, n_bins=4, sample_weight=1000 * w)
    np.testing.assert_allclose(scaled.low, curve.low, rtol=1e-10)
    np.testing.assert_allclose(scaled.high, curve.high, rtol=1e-10)


def test_reliability_curve_classwise_is_each_class_one_vs_rest():
    y, prob = multiclass_data()
    curve = sce.reliability_curve(y, prob, target="classwise", n_bins=5, strategy="quantile")
    assert curve.bin_edges.shape == (4, 6)
    for k in range(4):
        rows = curve.class_label == k
        prob_true, prob_pred = calibration_curve(y == k, prob[:, k], n_bins=5,
                                                 strategy="quantile")
        np.testing.assert_allclose(curve.prob_true[rows], prob_true, rtol=1e-12)
        np.testing.assert_allclose(curve.prob_pred[rows], prob_pred, rtol=1e-12)
    frame = curve.to_frame()
    assert list(frame.columns[:3]) == ["class", "prob_pred", "prob_true"]
    assert len(frame) == len(curve.prob_true)


def test_reliability_curve_top_label_is_the_confidence_of_the_prediction():
    y, prob = multiclass_data(seed=4)
    confidence, correct = top_label(y, prob)
    curve = sce.reliability_curve(y, prob, target="top_label", n_bins=7)
    prob_true, prob_pred = calibration_curve(correct, confidence, n_bins=7)
    np.testing.assert_allclose(curve.prob_true, prob_true, rtol=1e-12)
    np.testing.assert_allclose(curve.prob_pred, prob_pred, rtol=1e-12)
    assert all(label is None for label in curve.class_label)


def test_reliability_curve_invariances():
    y, p = binary_data(n=120, seed=6)
    w = np.random.default_rng(0).integers(1, 4, len(y))
    order = np.random.default_rng(1).permutation(len(y))
    base = sce.reliability_curve(y, p, sample_weight=w)
    shuffled = sce.reliability_curve(y[order], p[order], sample_weight=w[order])
    repeated = sce.reliability_curve(np.repeat(y, w), np.repeat(p, w))
    listed = sce.reliability_curve(y.tolist(), p.tolist(), sample_weight=w.tolist())
    for other in (shuffled, repeated, listed):
        for name in ("prob_true", "prob_pred", "bin_count", "bin_index"):
            np.testing.assert_allclose(getattr(other, name), getattr(base, name), rtol=1e-12)
    unit = sce.reliability_curve(y, p, sample_weight=np.ones(len(y)))
    np.testing.assert_allclose(unit.low, sce.reliability_curve(y, p).low, rtol=1e-12)
    pd = pytest.importorskip("pandas")
    framed = sce.reliability_curve(pd.Series(y, index=order), pd.Series(p, index=order),
                                   sample_weight=w)
    np.testing.assert_allclose(framed.prob_true, base.prob_true, rtol=1e-12)


def test_reliability_curve_refuses_what_it_cannot_read():
    y, prob = multiclass_data(n=30)
    with pytest.raises(ValueError, match="target='binary'.*4 columns"):
        sce.reliability_curve(y, prob)
    with pytest.raises(ValueError, match="1-D y_prob is the probability of one class"):
        sce.reliability_curve(y, prob[:, 0])
    with pytest.raises(ValueError, match="outside \\[0, 1\\]"):
        sce.reliability_curve([0, 1], [0.2, 1.5])
    with pytest.raises(ValueError, match="contains nan \\(first at row 1\\)"):
        sce.reliability_curve([0, 1], [0.2, np.nan])
    with pytest.raises(ValueError, match="pass pos_label"):
        sce.reliability_curve(["a", "b"], [0.2, 0.5])
    with pytest.raises(ValueError, match="pos_label=3 is not a class"):
        sce.reliability_curve([0, 1], [0.2, 0.5], pos_label=3)
    with pytest.raises(ValueError, match="same number of samples"):
        sce.reliability_curve([0, 1, 1], [0.2, 0.5])
    with pytest.raises(ValueError, match="'strategy' parameter"):
        sce.reliability_curve([0, 1], [0.2, 0.5], strategy="kmeans")


def test_reliability_curve_zero_weights_warn():
    with pytest.warns(UndefinedMetricWarning, match="zero everywhere"):
        curve = sce.reliability_curve([0, 1], [0.2, 0.5], sample_weight=[0, 0])
    assert curve.prob_true.size == 0


# --- expected_calibration_error -------------------------------------------------------------


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_top_label_ece_equals_a_loop_over_instances(norm, strategy, weighted):
    y, prob = multiclass_data(seed=7)
    w = np.random.default_rng(8).uniform(0, 2, len(y)) if weighted else np.ones(len(y))
    confidence, correct = top_label(y, prob)
    expected = hand_ece(confidence, correct, w, 12, strategy, norm)
    actual = sce.expected_calibration_error(y, prob, n_bins=12, strategy=strategy, norm=norm,
                                            sample_weight=w if weighted else None)
    assert actual == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_classwise_ece_is_the_mean_of_the_classes_loops(norm, strategy):
    y, prob = multiclass_data(seed=9)
    expected = np.mean([hand_ece(prob[:, k], (y == k).astype(float), np.ones(len(y)), 8,
                                 strategy, norm) for k in range(4)])
    actual = sce.expected_calibration_error(y, prob, n_bins=8, strategy=strategy, norm=norm,
                                            target="classwise")
    assert actual == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_debiased_ece_is_kumar_liang_ma_by_a_loop(weighted):
    y, p = binary_data(n=150, seed=10)
    w = np.random.default_rng(3).uniform(0.5, 2, len(y)) if weighted else np.ones(len(y))
    prob = np.c_[1 - p, p]
    confidence, correct = top_label(y, prob)
    expected = hand_ece(confidence, correct, w, 10, "uniform", "l2", debiased=True)
    actual = sce.expected_calibration_error(y, p, n_bins=10, norm="l2", debiased=True,
                                            sample_weight=w if weighted else None)
    assert actual == pytest.approx(expected, rel=1e-12)
    assert actual < sce.expected_calibration_error(y, p, n_bins=10, norm="l2",
                                                   sample_weight=w if weighted else None)


def test_debiased_ece_shrinks_the_bias_of_a_calibrated_model():
    """On calibrated probabilities the binned L2 error is all bias; the debiased one is
    far closer to 0 on average."""
    rng = np.random.default_rng(0)
    plain, debiased = [], []
    for _ in range(200):
        p = rng.random(100)
        y = (rng.random(100) < p).astype(int)
        plain.append(sce.expected_calibration_error(y, p, norm="l2", n_bins=10) ** 2)
        debiased.append(sce.expected_calibration_error(y, p, norm="l2", n_bins=10,
                                                       debiased=True) ** 2)
    # the debiased estimate is truncated at 0, so its square keeps a little bias
    assert np.mean(debiased) < 0.4 * np.mean(plain)


def test_one_dimensional_and_two_column_probabilities_agree():
    y, p = binary_data(seed=11)
    for target in ("top_label", "classwise"):
        for norm in ("l1", "l2", "max"):
            assert sce.expected_calibration_error(y, p, target=target, norm=norm) == \
                pytest.approx(sce.expected_calibration_error(y, np.c_[1 - p, p], target=target,
                                                             norm=norm), rel=1e-12)


def test_ece_refuses_debiased_other_norms_and_warns_on_zero_weight():
    with pytest.raises(ValueError, match="debiased=True.*norm='l1'"):
        sce.expected_calibration_error([0, 1], [0.2, 0.7], debiased=True)
    with pytest.raises(ValueError, match="'target' parameter"):
        sce.expected_calibration_error([0, 1], [0.2, 0.7], target="binary")
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(sce.expected_calibration_error([0, 1], [0.2, 0.7],
                                                       sample_weight=[0.0, 0.0]))


def test_ece_integer_weights_equal_repeated_rows_and_order_does_not_matter():
    y, prob = multiclass_data(n=90, seed=12)
    w = np.random.default_rng(2).integers(1, 4, len(y))
    order = np.random.default_rng(3).permutation(len(y))
    for target in ("top_label", "classwise"):
        base = sce.expected_calibration_error(y, prob, target=target, sample_weight=w)
        assert base == pytest.approx(sce.expected_calibration_error(
            np.repeat(y, w), np.repeat(prob, w, axis=0), target=target), rel=1e-12)
        assert base == pytest.approx(sce.expected_calibration_error(
            y[order], prob[order], target=target, sample_weight=w[order]), rel=1e-12)


def test_classwise_ece_does_not_depend_on_the_order_of_the_classes():
    y, prob = multiclass_data(n=90, seed=13)
    order = np.array([2, 0, 3, 1])
    assert sce.expected_calibration_error(y, prob, target="classwise") == pytest.approx(
        sce.expected_calibration_error(np.argsort(order)[y], prob[:, order],
                                       target="classwise"), rel=1e-12)
    names = np.array(["ant", "bee", "cat", "dog"])
    assert sce.expected_calibration_error(names[y], prob) == pytest.approx(
        sce.expected_calibration_error(y, prob), rel=1e-12)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_ece_equals_torchmetrics(norm):
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    from torchmetrics.classification import BinaryCalibrationError, MulticlassCalibrationError

    y, prob = multiclass_data(n=500, seed=14)
    metric = MulticlassCalibrationError(num_classes=4, n_bins=15, norm=norm)
    expected = float(metric(torch.from_numpy(prob), torch.from_numpy(y)))
    # torchmetrics computes in float32
    assert sce.expected_calibration_error(y, prob, norm=norm) == pytest.approx(expected,
                                                                                 rel=2e-5)
    y, p = binary_data(n=500, seed=15)
    metric = BinaryCalibrationError(n_bins=15, norm=norm)
    expected = float(metric(torch.from_numpy(p), torch.from_numpy(y)))
    # torchmetrics' binary error is of the positive class's probability: the classwise
    # error of two classes (their bins mirror each other)
    assert sce.expected_calibration_error(y, p, norm=norm, target="classwise") == \
        pytest.approx(expected, rel=2e-5)


# --- brier_score_decomposition -------------------------------------------------------------


def assert_parts_add_up(parts):
    total = (parts.reliability - parts.resolution + parts.uncertainty
             + parts.within_bin_variance - parts.within_bin_covariance)
    assert abs(total - parts.brier) <= 1e-12


@pytest.mark.parametrize("n_bins", [1, 5, 10, 50])
@pytest.mark.parametrize("weighted", [False, True])
def test_brier_parts_add_up_and_equal_sklearn_binary(n_bins, weighted):
    y, p = binary_data(seed=16)
    w = np.random.default_rng(4).uniform(0, 3, len(y)) if weighted else None
    parts = sce.brier_score_decomposition(y, p, n_bins=n_bins, sample_weight=w)
    assert_parts_add_up(parts)
    assert parts.brier == pytest.approx(brier_score_loss(y, p, sample_weight=w), rel=1e-12)
    two = sce.brier_score_decomposition(y, np.c_[1 - p, p], n_bins=n_bins, sample_weight=w)
    assert two.brier == pytest.approx(brier_score_loss(y, np.c_[1 - p, p], sample_weight=w),
                                      rel=1e-12)
    assert_parts_add_up(two)


@pytest.mark.parametrize("weighted", [False, True])
def test_brier_parts_add_up_and_equal_sklearn_multiclass(weighted):
    y, prob = multiclass_data(seed=17)
    w = np.random.default_rng(4).uniform(0, 3, len(y)) if weighted else None
    parts = sce.brier_score_decomposition(y, prob, sample_weight=w)
    assert_parts_add_up(parts)
    # scikit-learn 1.9 scales by half for two classes only ("auto"): the sum over classes
    assert parts.brier == pytest.approx(brier_score_loss(y, prob, sample_weight=w), rel=1e-12)
    assert parts.classes.tolist() == [0, 1, 2, 3]
    by_class = [sce.brier_score_decomposition(y == k, prob[:, k], sample_weight=w)
                for k in range(4)]
    for name in ("reliability", "resolution", "uncertainty", "within_bin_variance",
                 "within_bin_covariance"):
        assert getattr(parts, name) == pytest.approx(
            sum(getattr(b, name) for b in by_class), rel=1e-12)


def test_brier_parts_equal_murphy_by_a_loop():
    y, p = binary_data(n=200, seed=18)
    ids = hand_bins(p, 10, "uniform")
    n, base = len(y), y.mean()
    reliability = resolution = variance = covariance = 0.0
    for b in set(ids):
        inside = [i for i in range(n) if ids[i] == b]
        f = np.mean([p[i] for i in inside])
        o = np.mean([y[i] for i in inside])
        reliability += len(inside) / n * (f - o) ** 2
        resolution += len(inside) / n * (o - base) ** 2
        variance += sum((p[i] - f) ** 2 for i in inside) / n
        covariance += 2 * sum((y[i] - o) * (p[i] - f) for i in inside) / n
    parts = sce.brier_score_decomposition(y, p)
    assert parts.reliability == pytest.approx(reliability, rel=1e-12)
    assert parts.resolution == pytest.approx(resolution, rel=1e-12)
    assert parts.uncertainty == pytest.approx(base * (1 - base), rel=1e-12)
    assert parts.within_bin_variance == pytest.approx(variance, rel=1e-12)
    assert parts.within_bin_covariance == pytest.approx(covariance, rel=1e-10, abs=1e-15)


def test_brier_of_a_constant_base_rate_forecast_is_its_uncertainty():
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 1])
    parts = sce.brier_score_decomposition(y, np.full(10, 0.6))
    assert parts.reliability == pytest.approx(0.0, abs=1e-15)
    assert parts.resolution == pytest.approx(0.0, abs=1e-15)
    assert parts.brier == pytest.approx(parts.uncertainty) and parts.uncertainty == 0.24


def test_brier_with_string_labels_and_pos_label():
    y, p = binary_data(seed=19)
    names = np.array(["ham", "spam"])[y]
    parts = sce.brier_score_decomposition(names, p, pos_label="spam")
    assert parts.brier == pytest.approx(brier_score_loss(names, p, pos_label="spam"))
    assert parts.classes.tolist() == ["spam"]
    assert_parts_add_up(parts)


# --- Intervals through score_confidence_interval -------------------------------------------


# The calibration error's own interval (the norm bound): test_error_interval.py.


def brier_reliability(y_true, y_prob, sample_weight=None):
    return sce.brier_score_decomposition(y_true, y_prob, sample_weight=sample_weight).reliability


def test_brier_parts_and_scores_have_intervals():
    y, prob = multiclass_data(n=1000, seed=21)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reliability = sce.score_confidence_interval(y, prob, scoring=brier_reliability,
                                                    n_resamples=99, random_state=0)
        brier = sce.score_confidence_interval(
            y, prob, scoring="neg_brier_score" if SKLEARN_MULTICLASS_BRIER
            else lambda t, p, sample_weight=None: -brier_score_loss(t, p, sample_weight),
            n_resamples=99, random_state=0)
        debiased = sce.score_confidence_interval(
            y, prob, scoring=sce.expected_calibration_error, norm="l2", debiased=True,
            target="classwise", n_resamples=99, random_state=0)
    assert reliability.low <= reliability.estimate <= reliability.high
    assert reliability.estimate == pytest.approx(brier_reliability(y, prob))
    assert brier.estimate == pytest.approx(-brier_score_loss(y, prob))
    assert brier.low <= brier.estimate <= brier.high
    assert debiased.low <= debiased.high


@pytest.mark.parametrize("method_level", [0.5, 0.95, 1 - 2 ** -52])
def test_a_perfect_classifiers_bands_are_never_points(method_level):
    """The bands are Wilson's interval itself: at a frequency of 0 or 1 they reach into
    the unit interval, with no warning to give (``WILSON_BANDS`` of test_bounds.py)."""
    y = np.repeat([0, 1], [12, 9])
    p = np.where(y == 1, 0.97, 0.02)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        curve = sce.reliability_curve(y, p, confidence_level=method_level)
    assert curve.prob_true.tolist() == [0.0, 1.0]
    assert curve.low[0] == 0.0 and 0.0 < curve.high[0] < 1.0
    assert curve.high[1] == 1.0 and 0.0 < curve.low[1] < 1.0


def _adversarial_probabilities(rng, kind, n):
    """Probabilities that stress the key histogram of the equal-mass edges: crowded at 0
    or 1, ties, exactly on a key's boundary or one ulp beside it, tiny octaves, zeros of
    both signs."""
    from sklearn_confusion_ext._core.kernels import compiled_row_kernels

    kernel = compiled_row_kernels()
    if kind == "crowded at 0":
        return rng.random(n) ** 20
    if kind == "crowded at 1":
        return 1 - rng.random(n) ** 20
    if kind == "ties":
        return rng.choice(rng.random(int(rng.integers(1, 50))), n)
    if kind == "key boundaries":
        keys = rng.integers(1, kernel.N_KEYS - 128, n).astype(np.uint64)
        bits = (keys << np.uint64(kernel.KEY_SHIFT)) + rng.integers(-1, 2, n).astype(np.uint64)
        return np.minimum(bits.view(np.float64), 1.0)
    if kind == "octaves":
        return rng.random(n) * 10.0 ** -rng.integers(0, 320, n)
    values = rng.random(n)  # "signed zeros"
    where = rng.choice(n, n // 25, replace=False)  # an edge or two among the zeros
    values[where] = rng.choice([0.0, -0.0], where.size)
    return values


@pytest.mark.parametrize("kind", ["crowded at 0", "crowded at 1", "ties", "key boundaries",
                                  "octaves", pytest.param("signed zeros", marks=pytest.mark.xfail(
                                      strict=True, reason="an edge of zero among 0.0 and -0.0: "
                                      "the histogram's partition picks the other sign than "
                                      "NumPy's (numerically equal: the same bins and ECE; "
                                      "open)"))])
def test_equal_mass_edges_are_numpys_bit_for_bit(kind):
    """The quantile edges (the compiled key histogram, from 4096 probabilities on) are
    ``np.percentile``'s, bit for bit, whatever the values; not yet the sign of an edge of
    zero where the probabilities hold both 0.0 and -0.0 (the histogram's partition of the
    first key gives -0.0 where NumPy gives 0.0, or the reverse: xfail)."""
    from sklearn_confusion_ext._calibration import bins

    rng = np.random.default_rng(len(kind))
    for _ in range(60):
        n = int(rng.choice([4095, 4096, 4097, int(rng.integers(4096, 9000))]))
        values = _adversarial_probabilities(rng, kind, n)
        n_bins = int(rng.choice([1, 2, 10, 1000, int(rng.integers(1, 1001))])
                     if kind != "signed zeros" else rng.integers(30, 100))
        edges = bins.bin_edges(values, n_bins, "quantile")
        expected = np.percentile(values, np.linspace(0, 100, n_bins + 1))
        np.testing.assert_array_equal(edges.view(np.int64), expected.view(np.int64))
