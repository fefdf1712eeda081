"""risk_coverage_curve: selective classification's risk against coverage, checked against
a direct loop over the thresholds (select the answered instances, count their errors),
with ties of the top probabilities and weights; the area (AURC) against its definition
and, without ties, the mean selective risk of Geifman et al.; Wilson's band against its
closed form; 1-D probabilities, labels, and the refusals."""

import warnings

import numpy as np
import pytest
from scipy import special
from test_thresholds import assert_refused_naming, hostile_cases

import sklearn_confusion_ext as sce


def _probabilities(seed, n=150, n_classes=3, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    logits = rng.normal(size=(n, n_classes)) + 1.5 * np.eye(n_classes)[y]
    proba = special.softmax(logits, axis=1)
    if ties:  # top probabilities shared by many instances (rows renormalized)
        proba = np.round(proba, 1) + 1e-3
        proba /= proba.sum(axis=1, keepdims=True)
    return y, proba, rng.integers(0, 4, n).astype(float)  # zero weights among them


def _loop(y, proba, weight=None):
    """(thresholds, coverage, risk, area) by a loop over the distinct top probabilities."""
    weight = np.ones(len(y)) if weight is None else np.asarray(weight, dtype=float)
    top = proba.max(axis=1)  # rows summing to 1: the top probability as it is
    wrong = proba.argmax(axis=1) != y
    thresholds = np.unique(top[weight > 0])[::-1]
    coverage, risk = [], []
    for t in thresholds:
        answered = top >= t
        coverage.append(weight[answered].sum() / weight.sum())
        risk.append(weight[answered & wrong].sum() / weight[answered].sum())
    area, previous = 0.0, 0.0
    for c, r in zip(coverage, risk):
        area += r * (c - previous)
        previous = c
    return thresholds, np.array(coverage), np.array(risk), area


@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_equals_a_loop_over_the_thresholds(seed, weighted, ties):
    y, proba, weight = _probabilities(seed, ties=ties)
    weight = weight if weighted else None
    result = sce.risk_coverage_curve(y, proba, sample_weight=weight)
    thresholds, coverage, risk, area = _loop(y, proba, weight)
    np.testing.assert_array_equal(result.thresholds, thresholds)
    np.testing.assert_allclose(result.coverage, coverage, rtol=1e-12)
    np.testing.assert_allclose(result.risk, risk, rtol=1e-12, atol=1e-15)
    assert result.area == pytest.approx(area, rel=1e-12, abs=1e-15)
    assert result.coverage[-1] == 1.0
    if ties:
        assert len(result.thresholds) < len(y)  # tied instances are answered together
    kept = np.ones(len(y), bool) if weight is None else weight > 0
    top = proba.max(axis=1)[kept]
    np.testing.assert_array_equal(result.n_answered,
                                  [(top >= t).sum() for t in result.thresholds])


def test_without_ties_the_area_is_the_mean_selective_risk():
    y, proba, _ = _probabilities(1, n=120, ties=False)
    result = sce.risk_coverage_curve(y, proba)
    order = np.argsort(-proba.max(axis=1))
    errors = (proba.argmax(axis=1) != y)[order]
    selective_risks = np.cumsum(errors) / np.arange(1, len(y) + 1)
    assert len(result.thresholds) == len(y)
    assert result.area == pytest.approx(selective_risks.mean(), rel=1e-12)
    assert result.risk[-1] == pytest.approx(errors.mean())


def test_an_oracle_ranking_and_a_perfect_classifier():
    y = np.array([0, 1, 1, 0, 1, 0])
    # errors last (the least confident): the best area for this error rate
    proba = np.array([[0.9, 0.1], [0.15, 0.85], [0.2, 0.8], [0.3, 0.7], [0.6, 0.4],
                      [0.45, 0.55]])
    result = sce.risk_coverage_curve(y, proba)
    assert result.risk[:3].tolist() == [0.0, 0.0, 0.0]
    worst = sce.risk_coverage_curve(y, proba[:, ::-1])  # every answer wrong
    assert result.area < worst.area
    perfect = sce.risk_coverage_curve(y, np.eye(2)[y] * 0.8 + 0.1)
    assert perfect.area == 0.0 and perfect.risk.tolist() == [0.0]
    # at a risk of 0, Wilson's interval is [0, z^2 / (n + z^2)] (never a point)
    z = special.ndtri(0.975)
    assert perfect.low.tolist() == [0.0]
    assert perfect.high[0] == pytest.approx(z ** 2 / (6 + z ** 2))


def _wilson(errors, n, z):
    p = errors / n
    centre = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
    half = z / (1 + z ** 2 / n) * np.sqrt(p * (1 - p) / n + z ** 2 / (4 * n ** 2))
    return centre - half, centre + half


@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_the_band_is_wilsons_interval_of_the_answered(confidence_level):
    y, proba, _ = _probabilities(2, n=400, ties=False)
    result = sce.risk_coverage_curve(y, proba, confidence_level=confidence_level)
    z = special.ndtri(1 - (1 - confidence_level) / 2)
    errors = np.rint(result.risk * result.n_answered)
    low, high = _wilson(errors, result.n_answered, z)
    # Brown, Cai and DasGupta's end near 0 and 1 (bounds.wilson) aside: 4+ errors and
    # 4+ right answers
    plain = (errors > 3) & (result.n_answered - errors > 3)
    assert plain.sum() > 300
    np.testing.assert_allclose(result.low[plain], low[plain], rtol=1e-10)
    np.testing.assert_allclose(result.high[plain], high[plain], rtol=1e-10)
    assert np.all(result.low <= result.risk) and np.all(result.risk <= result.high)
    low_end, high_end = result.confidence_interval()
    assert low_end is result.low and high_end is result.high


def test_weights_are_repeated_rows_and_the_band_counts_effective_instances():
    y, proba, weight = _probabilities(3, n=80)
    counts = weight.astype(int)
    weighted = sce.risk_coverage_curve(y, proba, sample_weight=weight)
    repeated = sce.risk_coverage_curve(np.repeat(y, counts), np.repeat(proba, counts, axis=0))
    for name in ("thresholds", "coverage", "risk"):
        np.testing.assert_allclose(getattr(weighted, name), getattr(repeated, name),
                                   rtol=1e-12, atol=1e-15)
    assert weighted.area == pytest.approx(repeated.area, rel=1e-12)
    # weights scaled by a constant: the same curve and band
    scaled = sce.risk_coverage_curve(y, proba, sample_weight=weight * 1e-3)
    np.testing.assert_allclose(scaled.low, weighted.low, rtol=1e-9, atol=1e-15)
    ones = sce.risk_coverage_curve(y, proba, sample_weight=np.ones(len(y)))
    plain = sce.risk_coverage_curve(y, proba)
    for name in ("coverage", "risk", "low", "high"):
        np.testing.assert_allclose(getattr(ones, name), getattr(plain, name), rtol=1e-12)


def test_one_dimensional_probabilities_are_the_second_column():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 60)
    p = np.round(rng.random(60), 1)  # 0.5 among them: predict's tie goes to column 0
    two = sce.risk_coverage_curve(y, np.column_stack([1 - p, p]))
    one = sce.risk_coverage_curve(y, p)
    for name in ("thresholds", "coverage", "risk", "low", "high", "n_answered"):
        np.testing.assert_allclose(getattr(one, name), getattr(two, name), rtol=1e-12)
    named = sce.risk_coverage_curve(np.array(["no", "yes"])[y], p)
    np.testing.assert_allclose(named.risk, one.risk)
    with pytest.raises(ValueError, match="y_true holds 1 class"):
        sce.risk_coverage_curve([1, 1, 1], [0.2, 0.9, 0.6])
    alone = sce.risk_coverage_curve([1, 1, 1], [0.2, 0.9, 0.6], labels=[0, 1])
    assert alone.risk.tolist() == [0.0, 0.5, 1 / 3]  # 0.2: class 0, wrong


def test_columns_are_the_sorted_classes():
    y, proba, _ = _probabilities(5, n=50)  # tied top probabilities stay tied
    names = np.array(["ant", "bee", "cat"])
    by_name = sce.risk_coverage_curve(names[y], proba, labels=names)
    plain = sce.risk_coverage_curve(y, proba)
    np.testing.assert_array_equal(by_name.risk, plain.risk)
    assert by_name.area == plain.area
    with pytest.raises(ValueError, match="selects or reorders the columns of y_prob"):
        sce.risk_coverage_curve(names[y], proba[:, [1, 2, 0]], labels=names[[1, 2, 0]])


def test_rows_not_summing_to_one_warn_and_are_normalized():
    y, proba, _ = _probabilities(6, n=40, ties=False)
    with pytest.warns(UserWarning, match="y_prob's rows do not sum to 1"):
        scaled = sce.risk_coverage_curve(y, proba * 3)
    plain = sce.risk_coverage_curve(y, proba)
    np.testing.assert_allclose(scaled.thresholds, plain.thresholds, rtol=1e-12)
    np.testing.assert_allclose(scaled.risk, plain.risk, rtol=1e-12)


def test_equal_top_probabilities_stay_tied_whatever_the_other_columns():
    # rows summing to 1 in their last bit or not: 0.7 is 0.7 (no division by the sums)
    y = [0, 0, 1]
    proba = [[0.7, 0.2, 0.1], [0.7, 0.1, 0.2], [0.1, 0.2, 0.7]]
    result = sce.risk_coverage_curve(y, proba, labels=[0, 1, 2])
    assert result.thresholds.tolist() == [0.7] and result.risk.tolist() == [1 / 3]


def test_frame_and_repr():
    result = sce.risk_coverage_curve([0, 1, 1], [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7]])
    frame = result.to_frame()
    assert frame.index.name == "threshold"
    assert list(frame.columns) == ["coverage", "risk", "low", "high", "n_answered"]
    np.testing.assert_allclose(frame["risk"], [0.0, 0.5, 1 / 3])
    assert repr(result).startswith("RiskCoverageResult(area=0.2778, n_points=3")
    with pytest.raises(TypeError, match="does not unpack"):
        iter(result)


@pytest.mark.parametrize("y_prob, message", [
    ([[0.5, 0.5], [np.nan, 0.5], [0.1, 0.9]], r"y_prob contains nan \(first at row 1\)"),
    ([[0.5, 0.5], [1.5, -0.5], [0.1, 0.9]], "y_prob has negative entries.*row 1"),
    ([[0.5, 0.5], [0.0, 0.0], [0.1, 0.9]], "y_prob's row 1 sums to 0"),
    ([[1e308, 1e308], [0.5, 0.5], [0.1, 0.9]], "y_prob's row 0 sums beyond"),
    ([0.2, 1.2, 0.5], r"outside \[0, 1\]: row 1 holds 1.2"),
    ([[0.5, 0.5], [0.5, 0.5]], "same number of samples"),
    ([[0.3, 0.3, 0.4]] * 3, "y_true holds 2 distinct class label"),
])
def test_bad_probabilities_are_refused_naming_y_prob(y_prob, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=message):
            sce.risk_coverage_curve([0, 1, 1], y_prob)


def test_bad_calls_are_refused():
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        sce.risk_coverage_curve([0, 1], [[0.9, 0.1], [0.2, 0.8]], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="y_true holds class labels"):
        sce.risk_coverage_curve([0, 1, 2], np.full((3, 2), 0.5), labels=[0, 1])
    with pytest.raises(ValueError, match="'confidence_level' parameter"):
        sce.risk_coverage_curve([0, 1], [[0.9, 0.1], [0.2, 0.8]], confidence_level=1.0)



@pytest.mark.parametrize("inputs, named", hostile_cases("risk_coverage_curve", "y_prob"))
def test_hostile_inputs_are_refused_naming_the_argument(inputs, named):
    assert_refused_naming(sce.risk_coverage_curve, inputs, named)


@pytest.mark.parametrize("exponent", [-320, -300, -150, 150, 300, 307])
def test_probabilities_and_weights_from_subnormal_to_near_overflow(exponent):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 30)
    y[:3] = [0, 1, 2]
    proba = rng.dirichlet(np.ones(3), 30)
    weight = np.full(30, 10.0 ** max(exponent, -300))
    weight[::7] = 1.0  # ordinary weights among extreme ones
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scaled rows: not probabilities
        warnings.simplefilter("error", RuntimeWarning)
        try:
            result = sce.risk_coverage_curve(y, proba, sample_weight=weight)
        except ValueError as error:  # weights summing beyond 1e300
            assert exponent >= 300 and "sample_weight sums to about" in str(error)
            weight = None
            result = sce.risk_coverage_curve(y, proba)
        scores = sce.risk_coverage_curve(y, proba * 10.0 ** min(exponent, 300)
                                         if exponent > -300 else proba, sample_weight=weight)
    for curve in (result, scores):
        for name in ("coverage", "risk", "low", "high", "thresholds"):
            assert np.isfinite(getattr(curve, name)).all(), name
        assert 0.0 <= curve.area <= 1.0
