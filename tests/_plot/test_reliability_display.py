"""ReliabilityDisplay, RiskCoverageDisplay, ThresholdCurveDisplay and the transport matrix at a
threshold (issue 37): what is drawn is the curve functions' output, several models share one
Axes in distinct colours, one panel per class, matplotlib missing, bad parameters named."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sklearn_confusion_ext as sce  # noqa: E402
from sklearn_confusion_ext._plot import matplotlib_check  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _binary(seed=0, n=400):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    return (rng.random(n) < p).astype(int), p


def _iris():
    X, y = load_iris(return_X_y=True)
    return LogisticRegression(C=0.1, tol=1e-10, max_iter=10_000).fit(X, y), X, y


# --- ReliabilityDisplay ------------------------------------------------------------------


def test_reliability_draws_the_curve_its_band_and_counts():
    y, p = _binary()
    display = sce.ReliabilityDisplay.from_predictions(y, p, n_bins=5, name="m")
    curve = sce.reliability_curve(y, p, n_bins=5)
    np.testing.assert_array_equal(display.line_.get_xdata(), curve.prob_pred)
    np.testing.assert_array_equal(display.line_.get_ydata(), curve.prob_true)
    np.testing.assert_array_equal(display.hists_[0].get_data().values, curve.bin_count)
    np.testing.assert_array_equal(display.result_.low, curve.low)
    assert display.bands_[0] is not None
    assert display.figure_ is display.ax_.figure
    assert display.hist_axes_[0].get_ylabel() == "Count"
    assert display.ax_.get_ylabel() == "Observed frequency (positive class: 1)"
    assert [t.get_text() for t in display.ax_.get_legend().get_texts()] == [
        "m", "perfectly calibrated"]


def test_reliability_models_share_one_axes_in_distinct_colours():
    model, X, y = _iris()
    first = sce.ReliabilityDisplay.from_estimator(model, X, y, target="top_label", n_bins=5)
    second = sce.ReliabilityDisplay.from_estimator(GaussianNB().fit(X, y), X, y,
                                                   target="top_label", n_bins=5,
                                                   ax=first.ax_)
    assert second.ax_ is first.ax_ and second.hist_axes_[0] is first.hist_axes_[0]
    assert first.line_.get_color() != second.line_.get_color()
    assert [t.get_text() for t in first.ax_.get_legend().get_texts()] == [
        "LogisticRegression", "GaussianNB", "perfectly calibrated"]
    assert len(first.figure_.axes) == 2  # the curves' and the histograms'
    assert len(first.hist_axes_[0].patches) == 2


def test_reliability_one_panel_per_class():
    model, X, y = _iris()
    display = sce.ReliabilityDisplay.from_estimator(model, X, y, target="classwise",
                                                    per_class=True, n_bins=5)
    assert len(display.axes_) == 3 and len(display.hist_axes_) == 3
    assert [ax.get_title() for ax in display.axes_] == ["class 0", "class 1", "class 2"]
    curve = sce.reliability_curve(y, model.predict_proba(X), n_bins=5, target="classwise")
    for k, line in enumerate(display.lines_):
        rows = curve.class_label == k
        np.testing.assert_array_equal(line.get_ydata(), curve.prob_true[rows])
    again = sce.ReliabilityDisplay.from_estimator(GaussianNB().fit(X, y), X, y,
                                                  target="classwise", per_class=True,
                                                  n_bins=5, ax=display.axes_)
    assert list(again.axes_) == list(display.axes_)
    # every class on one Axes without per_class
    one = sce.ReliabilityDisplay.from_estimator(model, X, y, target="classwise", n_bins=5)
    assert len(one.axes_) == 1 and len(one.lines_) == 3


def test_reliability_hist_false_and_a_given_axes():
    y, p = _binary()
    fig, ax = plt.subplots()
    display = sce.ReliabilityDisplay.from_predictions(y, p, ax=ax, hist=False)
    assert display.ax_ is ax and display.hist_axes_ is None and len(fig.axes) == 1


@pytest.mark.parametrize("call, message", [
    (lambda: sce.ReliabilityDisplay.from_predictions([0, 1], [0.2, 0.8], n_bins=0),
     r"'n_bins' parameter of ReliabilityDisplay\.from_predictions"),
    (lambda: sce.ReliabilityDisplay.from_predictions([0, 1], [0.2, 0.8], target="x"),
     r"'target' parameter"),
    (lambda: sce.ReliabilityDisplay([0.5], [0.5]).plot(ax="left"), r"'ax' parameter"),
    (lambda: sce.ReliabilityDisplay([0.5], [1.5]), r"^prob_pred must hold probabilities"),
    (lambda: sce.ReliabilityDisplay([0.5], [0.5], low=[0.1]), r"^low and high"),
    (lambda: sce.RiskCoverageDisplay([0.5, 1.0], [0.1, 0.2], area=2.0),
     r"'area' parameter of RiskCoverageDisplay"),
    (lambda: sce.ThresholdCurveDisplay([0.5], [[[1, 0], [0, 1]]]).plot(scores=["bogus"]),
     r"scores must name"),
    (lambda: sce.ThresholdCurveDisplay.from_predictions([0, 1], [[0.2, 0.8], [0.1, 0.9]]),
     r"^y_score is 2-D"),
    (lambda: sce.ThresholdCurveDisplay.from_result(sce.threshold_confusion_matrices(
        [0, 1, 2], [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]])),
     r"^result holds matrices of shape \(3, 2, 2, 2\)"),
    (lambda: sce.TransportConfusionMatrixDisplay.from_predictions([0, 1], [0, 1],
                                                                  pos_label=1),
     r"pos_label .*threshold="),
    (lambda: sce.TransportConfusionMatrixDisplay.from_predictions([0, 1, 2], [0.1, 0.5, 0.9],
                                                                  threshold=0.5),
     r"classes"),
])
def test_bad_parameters_are_refused_naming_them(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


@pytest.mark.parametrize("draw", [
    lambda: sce.ReliabilityDisplay([0.5], [0.5]).plot(),
    lambda: sce.RiskCoverageDisplay([1.0], [0.1]).plot(),
    lambda: sce.ThresholdCurveDisplay([0.5], [[[1, 0], [0, 1]]]).plot(),
])
def test_matplotlib_missing_is_named(draw, monkeypatch):
    monkeypatch.setattr(matplotlib_check.importlib.util, "find_spec",
                        lambda name: None if name == "matplotlib" else object())
    with pytest.raises(ImportError, match=r"Display\.plot requires matplotlib: pip install"):
        draw()


# --- RiskCoverageDisplay -----------------------------------------------------------------


def test_risk_coverage_is_the_curve_with_its_area_and_models_share_axes():
    model, X, y = _iris()
    first = sce.RiskCoverageDisplay.from_estimator(model, X, y, name="logistic")
    curve = sce.risk_coverage_curve(y, model.predict_proba(X), labels=model.classes_)
    np.testing.assert_array_equal(first.line_.get_xdata()[1:], curve.coverage)
    np.testing.assert_array_equal(first.line_.get_ydata()[1:], curve.risk)
    assert first.line_.get_label() == f"logistic (AURC = {curve.area:.3g})"
    second = sce.RiskCoverageDisplay.from_estimator(GaussianNB().fit(X, y), X, y,
                                                    ax=first.ax_)
    assert second.ax_ is first.ax_ and second.line_.get_color() != first.line_.get_color()
    assert len(first.ax_.get_legend().get_texts()) == 2
    assert second.band_ is not None


# --- ThresholdCurveDisplay and the matrix at a threshold ------------------------------------


def test_threshold_curve_is_the_matrices_rates():
    y, p = _binary()
    display = sce.ThresholdCurveDisplay.from_predictions(y, p, scores=["tpr", "precision"],
                                                         threshold=0.3)
    result = sce.threshold_confusion_matrices(y, p)
    order = np.argsort(result.thresholds)
    np.testing.assert_array_equal(display.lines_["tpr"].get_xdata(),
                                  result.thresholds[order])
    tp, fn = result.tp[order], result.fn[order]
    np.testing.assert_allclose(display.lines_["tpr"].get_ydata(), tp / (tp + fn))
    at = sce.threshold_confusion_matrices(y, p, thresholds=[0.3])
    assert display.threshold_values_["tpr"] == pytest.approx(at.tp[0] / (at.tp[0] + at.fn[0]))
    assert display.threshold_values_["precision"] == pytest.approx(
        at.tp[0] / (at.tp[0] + at.fp[0]))


def test_threshold_on_a_score_reads_the_matrix_there():
    # a threshold equal to a score predicts that score positive (>=): the matrix at 0.4
    display = sce.ThresholdCurveDisplay([0.8, 0.4, 0.1], [[[3, 0], [2, 1]], [[2, 1], [1, 2]],
                                                          [[0, 3], [0, 3]]]).plot(
        scores=["tpr"], threshold=0.4)
    assert display.threshold_values_["tpr"] == pytest.approx(2 / 3)
    # above every threshold nothing is predicted positive
    above = display.plot(scores=["tpr", "precision"], threshold=0.9)
    assert above.threshold_values_ == {"tpr": 0.0, "precision": None}


def test_threshold_curve_of_an_estimator_and_two_models():
    X, y = load_breast_cancer(return_X_y=True)
    model = GaussianNB().fit(X, y)
    first = sce.ThresholdCurveDisplay.from_estimator(model, X, y, threshold=0.5)
    p = model.predict_proba(X)[:, 1]
    assert first.threshold_values_["tpr"] == pytest.approx(
        np.mean(p[y == 1] >= 0.5))
    second = sce.ThresholdCurveDisplay.from_estimator(
        GaussianNB(var_smoothing=1e-3).fit(X, y), X, y, ax=first.ax_)
    assert second.lines_["tpr"].get_color() != first.lines_["tpr"].get_color()


def test_transport_matrix_at_a_threshold_is_threshold_confusion_matrices():
    y, p = _binary()
    display = sce.TransportConfusionMatrixDisplay.from_predictions(y, p, threshold=0.3)
    (expected,) = sce.threshold_confusion_matrices(y, p, thresholds=[0.3]).matrices
    np.testing.assert_array_equal(display.confusion_matrix, expected)
    # a score equal to the threshold is predicted positive (>=)
    tied = sce.TransportConfusionMatrixDisplay.from_predictions([0, 1, 1], [0.3, 0.3, 0.9],
                                                                threshold=0.3)
    np.testing.assert_array_equal(tied.confusion_matrix, [[0, 1], [0, 2]])
    # pos_label=0: the positive class is 0, decided where the score (of 0) is >= 0.3
    swapped = sce.TransportConfusionMatrixDisplay.from_predictions(y, 1 - p, threshold=0.3,
                                                                   pos_label=0)
    (of_zero,) = sce.threshold_confusion_matrices(y, 1 - p, thresholds=[0.3],
                                                  pos_label=0).matrices
    np.testing.assert_array_equal(swapped.confusion_matrix, of_zero[::-1, ::-1])
    X, yy = load_breast_cancer(return_X_y=True)
    model = GaussianNB().fit(X, yy)
    fitted = sce.TransportConfusionMatrixDisplay.from_estimator(model, X, yy, threshold=0.3)
    (matrix,) = sce.threshold_confusion_matrices(yy, model.predict_proba(X)[:, 1],
                                                 thresholds=[0.3]).matrices
    np.testing.assert_array_equal(fitted.confusion_matrix, matrix)
