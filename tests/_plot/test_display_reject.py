"""The matrix Display of an abstaining classifier: ``reject_label=`` on decisions and a
top-label ``threshold=`` on multiclass probabilities, drawn ``n_classes x (n_classes + 1)``
with a last "rejected" column.

References: ``transport_confusion_matrix(..., reject_label=)`` and
``threshold_confusion_matrices(..., target="top_label", thresholds=[t]).matrices[0]``;
the decisions made by hand (``np.where`` of the top probability).
"""

import numpy as np
import pytest

from sklearn_confusion_ext import (
    TransportConfusionMatrixDisplay,
    threshold_confusion_matrices,
    transport_confusion_matrix,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

Display = TransportConfusionMatrixDisplay


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def problem(seed=0, n_samples=300, n_classes=3):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n_samples)
    y_prob = rng.dirichlet(np.ones(n_classes) * 0.8, n_samples)
    y_prob[np.arange(n_samples), y_true] += 0.5  # a model better than chance
    y_prob /= y_prob.sum(axis=1, keepdims=True)
    return y_true, y_prob, rng.uniform(0.5, 2, n_samples)


def ticks(axis):
    return [text.get_text() for text in axis.get_ticklabels()]


@pytest.mark.parametrize("threshold", [0.4, 0.6, 0.85])
def test_threshold_on_probabilities_draws_the_top_label_matrix(threshold):
    y_true, y_prob, weights = problem()
    for keywords in ({}, {"sample_weight": weights}):
        display = Display.from_predictions(y_true, y_prob, threshold=threshold, **keywords)
        expected = threshold_confusion_matrices(y_true, y_prob, thresholds=[threshold],
                                                target="top_label", **keywords).matrices[0]
        np.testing.assert_allclose(display.confusion_matrix, expected, rtol=1e-12)
        decisions = np.where(y_prob.max(axis=1) >= threshold, y_prob.argmax(axis=1), -1)
        np.testing.assert_allclose(
            display.confusion_matrix,
            transport_confusion_matrix(y_true, decisions, labels=[0, 1, 2], reject_label=-1,
                                       **keywords), rtol=1e-12)
        assert ticks(display.ax_.xaxis) == ["0", "1", "2", "rejected"]
        assert ticks(display.ax_.yaxis) == ["0", "1", "2"]
        assert display.text_.shape == (3, 4)
    assert "top p < " in display.ax_.get_title()


def test_reject_label_draws_the_matrix_with_its_rejections():
    y_true, y_prob, weights = problem(1)
    names = np.array(["ant", "bee", "cat"])
    decisions = np.where(y_prob.max(axis=1) >= 0.6, names[y_prob.argmax(axis=1)], "?")
    for keywords in ({}, {"sample_weight": weights}):
        display = Display.from_predictions(names[y_true], decisions, reject_label="?",
                                           **keywords)
        np.testing.assert_array_equal(display.confusion_matrix, transport_confusion_matrix(
            names[y_true], decisions, reject_label="?", **keywords))
    assert ticks(display.ax_.xaxis) == ["ant", "bee", "cat", "rejected"]
    assert "rejected: '?'" in display.ax_.get_title()


def test_normalized_rows_hold_the_shares_of_answers_and_rejections():
    y_true, y_prob, _ = problem(2)
    display = Display.from_predictions(y_true, y_prob, threshold=0.6, normalize="true",
                                       include_counts=True)
    counts = threshold_confusion_matrices(y_true, y_prob, thresholds=[0.6],
                                          target="top_label").matrices[0]
    np.testing.assert_allclose(display.confusion_matrix.sum(axis=1), 1.0)
    np.testing.assert_allclose(display.confusion_matrix,
                               counts / counts.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(display.counts, counts)
    rejected = display.text_[0, -1].get_text()
    assert rejected.endswith(f"({int(counts[0, -1])})"), rejected
    assert "normalized over true classes" in display.ax_.get_title()


def test_labels_name_and_select_the_columns_and_display_labels_rename():
    y_true, y_prob, _ = problem(3)
    names = np.array(["x", "y", "z"])
    display = Display.from_predictions(names[y_true], y_prob, labels=names, threshold=0.5,
                                       display_labels=["X", "Y", "Z"])
    assert ticks(display.ax_.xaxis) == ["X", "Y", "Z", "rejected"]
    np.testing.assert_array_equal(display.confusion_matrix, threshold_confusion_matrices(
        names[y_true], y_prob, labels=names, thresholds=[0.5],
        target="top_label").matrices[0])
    with pytest.raises(ValueError, match="display_labels has 2 names for 3 classes"):
        Display.from_predictions(y_true, y_prob, threshold=0.5, display_labels=["a", "b"])


def test_order_moves_the_classes_and_keeps_rejected_last():
    y_true = np.array([0, 1, 1, 1, 2, 2])
    decisions = np.array([0, 1, -1, 1, -1, 2])
    display = Display.from_predictions(y_true, decisions, reject_label=-1,
                                       order="test-training")
    assert ticks(display.ax_.yaxis) == ["1", "2", "0"]  # most common first
    assert ticks(display.ax_.xaxis) == ["1", "2", "0", "rejected"]
    full = transport_confusion_matrix(y_true, decisions, reject_label=-1)
    np.testing.assert_array_equal(display.confusion_matrix, full[np.ix_([1, 2, 0],
                                                                        [1, 2, 0, 3])])


def test_from_estimator_thresholds_a_multiclass_classifier():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=1000).fit(X, y)
    display = Display.from_estimator(model, X, y, threshold=0.9)
    np.testing.assert_array_equal(display.confusion_matrix, threshold_confusion_matrices(
        y, model.predict_proba(X), thresholds=[0.9], target="top_label").matrices[0])
    with pytest.raises(ValueError, match="reads predict_proba"):
        Display.from_estimator(LinearSVC().fit(X, y), X, y, threshold=0.5)


def test_from_estimator_draws_the_abstentions_of_predict():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=1000).fit(X, y)

    class Abstaining:
        classes_ = model.classes_

        def predict(self, X):
            proba = model.predict_proba(X)
            return np.where(proba.max(axis=1) >= 0.9, proba.argmax(axis=1), -1)

    display = Display.from_estimator(Abstaining(), X, y, reject_label=-1)
    np.testing.assert_array_equal(display.confusion_matrix, threshold_confusion_matrices(
        y, model.predict_proba(X), thresholds=[0.9], target="top_label").matrices[0])
    assert ticks(display.ax_.xaxis)[-1] == "rejected"
    with pytest.raises(ValueError, match="pass one of them"):
        Display.from_estimator(model, X, y, reject_label=-1, threshold=0.5)


def test_the_binary_threshold_is_unchanged():
    display = Display.from_predictions([0, 0, 1, 1, 1], [0.1, 0.35, 0.2, 0.3, 0.9],
                                       threshold=0.3)
    np.testing.assert_array_equal(display.confusion_matrix, [[1, 1], [1, 2]])


@pytest.mark.parametrize("keywords, error, message", [
    ({"threshold": 0.5, "pos_label": 1}, ValueError, "leave pos_label=None"),
    ({"threshold": 0.5, "subpixel": True}, ValueError, "subpixel=True"),
    ({"threshold": 0.5, "weighting": "true"}, ValueError, "leave weighting='uniform'"),
    ({"threshold": 0.5, "reject_label": -1}, ValueError, "reject_label=-1 reads 1-D decisions"),
    ({"threshold": np.nan}, ValueError, "'threshold'"),
    ({"threshold": "0.5"}, TypeError, "'threshold'"),
])
def test_bad_options_beside_probabilities(keywords, error, message):
    y_true, y_prob, _ = problem(4, n_samples=20)
    with pytest.raises(error, match=message):
        Display.from_predictions(y_true, y_prob, **keywords)


def test_bad_probabilities_are_named_y_pred():
    with pytest.raises(ValueError, match="y_pred has 3 columns") as caught:
        Display.from_predictions([0, 2], [[0.9, 0.1, 0.0], [0.3, 0.3, 0.4]], threshold=0.5)
    assert "y_score" not in str(caught.value)
    with pytest.raises(ValueError, match="y_pred") as caught:
        Display.from_predictions([0, 1], [[0.9, -0.1], [0.3, 0.7]], threshold=0.5)
    assert "y_score" not in str(caught.value)


@pytest.mark.parametrize("y_true, y_pred, keywords, error, message", [
    ([0, 1], [0, -1], {"reject_label": [1]}, TypeError, "'reject_label'"),
    ([0, 1], [0, -1], {"reject_label": -1, "subpixel": True}, ValueError, "subpixel=True"),
    ([0, 1], [0.2, 0.7], {"reject_label": -1, "threshold": 0.5}, ValueError,
     "pass one of them"),
    ([0, -1], [0, -1], {"reject_label": -1}, ValueError, "y_true holds reject_label=-1"),
    (["a", "b"], ["a", "?"], {"reject_label": -1}, ValueError, "not of the kind"),
    ([0, 1], [0, -1], {"reject_label": -1, "labels": [0, 1, -1]}, ValueError,
     "name reject_label=-1"),
    ([0, 1], [0, -1], {"reject_label": -1, "y_train": [0, 1]}, ValueError,
     "pass order='test-training'"),
])
def test_bad_reject_labels_are_refused(y_true, y_pred, keywords, error, message):
    with pytest.raises(error, match=message):
        Display.from_predictions(y_true, y_pred, **keywords)
