"""ScoreIntervalDisplay: the forest plot of per-class scores and their intervals (rendered
with the Agg backend)."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_confusion_ext import (  # noqa: E402
    ScoreIntervalDisplay,
    score_confidence_interval,
)

N_RESAMPLES = 199


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _ticks(axis):
    return [label.get_text() for label in axis.get_ticklabels()]


def _labels(n_classes, n_samples, accuracy, seed):
    """Class labels and predictions right with probability ``accuracy``."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_samples)
    return y, np.where(rng.random(n_samples) < accuracy, y,
                       rng.integers(0, n_classes, n_samples))


def _multilabel(seed=0):
    """Indicators over 4 classes, some rows empty, and two classifiers' predictions."""
    rng = np.random.default_rng(seed)
    y = (rng.random((150, 4)) < 0.35).astype(int)
    flips = [rng.random(y.shape) < rate for rate in (0.1, 0.25)]
    return y, [np.where(flip, 1 - y, y) for flip in flips]


def _drawn(ax):
    """Per classifier (in drawing order): the estimates' x and y (the lines in the legend),
    and the intervals' segments ((low, y), (high, y))."""
    markers = [line for line in ax.get_lines() if not line.get_label().startswith("_")]
    segments = [collection.get_segments() for collection in ax.collections]
    return [(line.get_xdata(), line.get_ydata()) for line in markers], segments


def _api(y_true, y_pred, score, **keywords):
    """Estimates, lows and highs of the API: per class, then the macro average."""
    per_class = score_confidence_interval(y_true, y_pred, scoring=score, average=None,
                                          n_resamples=N_RESAMPLES, random_state=0, **keywords)
    macro = score_confidence_interval(y_true, y_pred, scoring=score + "_macro",
                                      n_resamples=N_RESAMPLES, random_state=0, **keywords)
    return [np.append(getattr(per_class, field), getattr(macro, field))
            for field in ("estimate", "low", "high")]


# --- The values drawn are the API's -----------------------------------------------------------


@pytest.mark.parametrize("score", ["tcm_f1", "tcm_recall", "mlcm_precision"])
@pytest.mark.parametrize("method", ["bca", "percentile", "bayesian"])
def test_values_drawn_equal_the_api(score, method, request):
    y_true, y_pred = _labels(3, 120, 0.7, seed=1)
    display = ScoreIntervalDisplay.from_predictions(
        y_true, y_pred, scoring=score, method=method, n_resamples=N_RESAMPLES, random_state=0)
    estimate, low, high = _api(y_true, y_pred, score, method=method)
    np.testing.assert_allclose(display.estimates, [estimate], rtol=1e-12)
    np.testing.assert_allclose(display.low, [low], rtol=1e-12)
    np.testing.assert_allclose(display.high, [high], rtol=1e-12)
    (x, y), = _drawn(display.ax_)[0]
    np.testing.assert_allclose(x, estimate, rtol=1e-12)
    (segments,) = _drawn(display.ax_)[1]
    np.testing.assert_allclose([[s[0][0], s[1][0]] for s in segments],
                               np.column_stack([low, high]), rtol=1e-12)
    assert display.display_labels == ["0", "1", "2", "macro average"]
    assert display.results_[0][1].method == method


def test_analytic_intervals_and_their_title():
    y_true, y_pred = _labels(3, 200, 0.75, seed=2)
    display = ScoreIntervalDisplay.from_predictions(y_true, y_pred, method="analytic",
                                                    confidence_level=0.9)
    per_class = score_confidence_interval(y_true, y_pred, scoring="tcm_f1", average=None,
                                          method="analytic", confidence_level=0.9)
    np.testing.assert_allclose(display.low[0, :3], per_class.low, rtol=1e-12)
    assert display.ax_.get_title() == "TCM F1-score per class\n(90% analytic intervals)"


def test_several_classifiers_side_by_side():
    y_true, first = _labels(4, 200, 0.8, seed=3)
    _, second = _labels(4, 200, 0.5, seed=3)
    display = ScoreIntervalDisplay.from_predictions(
        y_true, {"forest": first, "tree": second}, n_resamples=N_RESAMPLES, random_state=0)
    assert display.estimates.shape == (2, 5)
    for k, y_pred in enumerate((first, second)):
        estimate, low, high = _api(y_true, y_pred, "tcm_f1")
        np.testing.assert_allclose(display.estimates[k], estimate, rtol=1e-12)
        np.testing.assert_allclose(display.high[k], high, rtol=1e-12)
    assert [t.get_text() for t in display.ax_.get_legend().get_texts()] == ["forest", "tree"]
    (x_first, y_first), (x_second, y_second) = _drawn(display.ax_)[0]
    # offset within each row, the first classifier above (the y-axis points down)
    assert np.all(y_first < y_second) and np.all(y_second - y_first < 0.6)
    np.testing.assert_allclose(x_second, display.estimates[1])
    # the macro average is the last row, after a gap and a line
    assert _ticks(display.ax_.yaxis) == ["0", "1", "2", "3", "macro average"]
    ticks = display.ax_.get_yticks()
    assert ticks[-1] - ticks[-2] > 1
    assert display.ax_.get_ylim()[0] > display.ax_.get_ylim()[1]  # first class on top


def test_classifiers_of_labels_are_scored_over_all_their_labels():
    y_true = ["cat", "dog", "fox", "dog"] * 20
    never_fox = ["cat", "dog", "dog", "dog"] * 20
    with_owl = ["cat", "dog", "owl", "dog"] * 20
    display = ScoreIntervalDisplay.from_predictions(
        y_true, {"a": never_fox, "b": with_owl}, zero_division=0.0, n_resamples=N_RESAMPLES,
        random_state=0)
    assert display.display_labels == ["cat", "dog", "fox", "owl", "macro average"]
    estimate, _, _ = _api(y_true, never_fox, "tcm_f1", labels=["cat", "dog", "fox", "owl"],
                          zero_division=0.0)
    np.testing.assert_allclose(display.estimates[0], estimate)


def test_multilabel_targets_name_their_classes_and_the_none_class():
    y_true, (first, second) = _multilabel()
    assert (y_true.sum(axis=1) == 0).any()  # the "none" class is reported
    display = ScoreIntervalDisplay.from_predictions(
        y_true, {"good": first, "poor": second}, scoring="mlcm_f1",
        display_labels=["news", "sport", "arts", "science"], n_resamples=N_RESAMPLES,
        random_state=0)
    assert display.display_labels == ["news", "sport", "arts", "science", "none",
                                   "macro average"]
    estimate, low, _ = _api(y_true, second, "mlcm_f1")
    np.testing.assert_allclose(display.estimates[1], estimate, rtol=1e-12)
    np.testing.assert_allclose(display.low[1], low, rtol=1e-12)
    assert display.score_name == "MLCM F1-score"
    selected = ScoreIntervalDisplay.from_predictions(
        y_true, first, labels=[2, 0], weighting="true", n_resamples=N_RESAMPLES,
        random_state=0)
    assert selected.display_labels == ["2", "0", "none", "macro average"]
    estimate, _, _ = _api(y_true, first, "tcm_f1", labels=[2, 0], weighting="true")
    np.testing.assert_allclose(selected.estimates[0], estimate, rtol=1e-12)


def test_score_keywords_reach_the_score():
    y_true, y_pred = _labels(3, 150, 0.6, seed=4)
    display = ScoreIntervalDisplay.from_predictions(y_true, y_pred, beta=2.0,
                                                    n_resamples=N_RESAMPLES, random_state=0)
    estimate, _, _ = _api(y_true, y_pred, "tcm_f1", beta=2.0)
    np.testing.assert_allclose(display.estimates[0], estimate, rtol=1e-12)
    assert display.ax_.get_xlabel() == "TCM F2-score"


# --- Where and how it is drawn ----------------------------------------------------------------


def test_draws_on_the_given_axes():
    fig, (left, right) = plt.subplots(1, 2)
    y_true, y_pred = _labels(3, 90, 0.7, seed=5)
    display = ScoreIntervalDisplay.from_predictions(y_true, y_pred, ax=right,
                                                    n_resamples=N_RESAMPLES, random_state=0)
    assert display.ax_ is right and display.figure_ is fig
    assert len(_drawn(right)[0]) == 1 and not left.get_lines()
    assert right.get_legend() is None  # one unnamed classifier


def test_titles_and_constructor():
    display = ScoreIntervalDisplay(estimates=[0.9, 0.5, 0.7], low=[0.8, 0.3, 0.6],
                                   high=[0.95, 0.7, 0.8], display_labels=["a", "b", "c"],
                                   score_name="recall")
    assert display.estimates.shape == (1, 3)
    assert display.plot().ax_.get_title() == "recall per class"
    assert display.plot(title=None).ax_.get_title() == ""
    assert display.plot(title="Mine").ax_.get_title() == "Mine"
    assert _ticks(display.ax_.yaxis) == ["a", "b", "c"]  # no summary row by hand
    assert display.ax_.get_xlim()[0] == pytest.approx(0.2)
    assert display.ax_.get_xlim()[1] >= 1.0
    named = ScoreIntervalDisplay(estimates=[0.9, 0.5], low=[0.8, 0.3], high=[0.95, 0.7],
                                 models=["svm"])
    assert [t.get_text() for t in named.plot().ax_.get_legend().get_texts()] == ["svm"]
    two = ScoreIntervalDisplay(estimates=[[0.9, 0.5], [0.8, 0.6]], low=[[0.8, 0.3], [0.7, 0.4]],
                               high=[[0.95, 0.7], [0.9, 0.8]])
    assert [t.get_text() for t in two.plot().ax_.get_legend().get_texts()] == [
        "model 0", "model 1"]


def test_undefined_scores_leave_their_row_empty():
    display = ScoreIntervalDisplay(estimates=[0.9, np.nan], low=[0.8, np.nan],
                                   high=[0.95, np.nan]).plot()
    assert display.ax_.get_xlim()[0] == pytest.approx(0.7)


def _overlapping(labels):
    """Pairs of neighbouring tick labels whose drawn boxes overlap."""
    boxes = sorted((label.get_window_extent() for label in labels), key=lambda box: box.y0)
    return [(a, b) for a, b in zip(boxes, boxes[1:]) if a.y1 > b.y0 + 0.5]


def test_forty_classes_are_readable():
    y_true, first = _labels(40, 2000, 0.8, seed=6)
    _, second = _labels(40, 2000, 0.6, seed=6)
    names = [f"class with a long name {k}" for k in range(40)]
    display = ScoreIntervalDisplay.from_predictions(
        y_true, {"forest": first, "tree": second}, display_labels=names, n_resamples=99,
        random_state=0)
    width, height = display.figure_.get_size_inches()
    assert width <= 12 and height <= 10
    display.figure_.canvas.draw()
    shown = _ticks(display.ax_.yaxis)
    assert len(shown) == 41 and all(len(name) <= 20 for name in shown)
    assert len(set(shown)) == 41 and shown[-1] == "macro average"
    assert not _overlapping(display.ax_.get_yticklabels())
    # in a small axes every k-th class is named, the macro average always
    fig, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")
    cramped = ScoreIntervalDisplay(estimates=display.estimates, low=display.low,
                                   high=display.high,
                                   display_labels=display.display_labels).plot(ax=ax)
    fig.canvas.draw()
    shown = _ticks(cramped.ax_.yaxis)
    assert 5 <= len(shown) < 41 and shown[0] == "class with\u2026ng name 0"
    assert not _overlapping(cramped.ax_.get_yticklabels())


def test_a_summary_row_is_always_named():
    y_true, y_pred = _labels(40, 1500, 0.8, seed=7)
    fig, ax = plt.subplots(figsize=(5, 3), layout="constrained")
    display = ScoreIntervalDisplay.from_predictions(y_true, y_pred, ax=ax, n_resamples=99,
                                                    random_state=0)
    fig.canvas.draw()
    shown = _ticks(ax.yaxis)
    assert shown[0] == "0" and shown[-1] == "macro average" and len(shown) < 20
    assert not _overlapping(ax.get_yticklabels())
    assert display.ax_.get_ylim()[0] > display.ax_.get_yticks()[-1]


# --- Bad inputs are named ---------------------------------------------------------------------


Y_TRUE, Y_PRED = [0, 1, 2, 2, 1, 0] * 5, [0, 2, 2, 1, 1, 0] * 5


@pytest.mark.parametrize("keywords, match", [
    ({"scoring": "tcm_f1_macro"}, "scoring"),
    ({"scoring": "tcm_accuracy"}, "scoring"),
    ({"method": "bootstrap"}, "method"),
    ({"confidence_level": 1.5}, "confidence_level"),
    ({"n_resamples": 0}, "n_resamples"),
    ({"average": "macro"}, "average"),
    ({"display_labels": ["a", "b"]}, "display_labels"),
    ({"y_pred": {}}, "y_pred"),
    ({"y_pred": {"a": Y_PRED, "b": np.eye(4)[[0, 1, 2, 3, 1, 0] * 5]}}, "y_pred"),
    ({"method": "analytic", "scoring": "mlcm_f1", "y_true": np.eye(3)[Y_TRUE],
      "y_pred": np.eye(3)[Y_PRED]}, "method"),
])
def test_bad_inputs_are_named(keywords, match):
    arguments = {"y_true": Y_TRUE, "y_pred": Y_PRED, "n_resamples": 20, "random_state": 0,
                 **keywords}
    with pytest.raises(ValueError, match=match):
        ScoreIntervalDisplay.from_predictions(**arguments)


@pytest.mark.parametrize("keywords, match", [
    ({"low": [0.4]}, "estimates, low and high"),
    ({"display_labels": ["a"]}, "display_labels"),
    ({"models": ["a", "b"]}, "models"),
])
def test_bad_constructor_values_are_named_by_plot(keywords, match):
    values = {"estimates": [0.5, 0.6], "low": [0.4, 0.5], "high": [0.7, 0.8], **keywords}
    with pytest.raises(ValueError, match=match):
        ScoreIntervalDisplay(**values).plot()


def test_wrong_axes_is_a_type_error():
    with pytest.raises(TypeError, match="ax"):
        ScoreIntervalDisplay(estimates=[0.5], low=[0.4], high=[0.6]).plot(ax="left")
