"""Displays of the confusion matrices (rendered with the Agg backend)."""

import inspect

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_iris  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import confusion_matrix  # noqa: E402

from sklearn_confusion_ext import (  # noqa: E402
    MLCMDisplay,
    PosteriorIntervalDisplay,
    RankingComparisonDisplay,
    TransportConfusionMatrixDisplay,
    dirichlet_posterior,
    mlcm,
    transport_confusion_matrix,
)

MULTILABEL = ([[1, 1, 0], [0, 1, 0], [0, 0, 1]], [[1, 0, 1], [0, 1, 0], [0, 0, 0]])


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _tick_labels(axis):
    return [label.get_text() for label in axis.get_ticklabels()]


def test_from_predictions_equals_the_function_and_labels_none(rng):
    y_true = (rng.random((60, 4)) < 0.4).astype(int)
    y_pred = (rng.random((60, 4)) < 0.4).astype(int)
    display = TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred,
                                                               weighting="pred")
    expected = transport_confusion_matrix(y_true, y_pred, weighting="pred")
    np.testing.assert_allclose(display.confusion_matrix, expected)
    np.testing.assert_allclose(display.im_.get_array(), expected)  # what is drawn
    assert _tick_labels(display.ax_.yaxis)[-1] == "none"
    assert display.text_.shape == (5, 5) and display.figure_ is display.ax_.figure
    normalized = TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred,
                                                                  normalize="true")
    np.testing.assert_allclose(normalized.confusion_matrix.sum(axis=1)[:4], 1.0)
    table = MLCMDisplay.from_predictions(y_true, y_pred, method="krstinic")
    np.testing.assert_allclose(table.confusion_matrix, mlcm(y_true, y_pred, method="krstinic"))


def test_from_estimator_predict_is_the_classic_matrix_and_predict_proba_is_soft():
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X, y)
    display = TransportConfusionMatrixDisplay.from_estimator(model, X, y)
    np.testing.assert_array_equal(display.confusion_matrix,
                                  confusion_matrix(y, model.predict(X)))
    assert [t.get_text() for t in display.text_.ravel()][0] == str(
        confusion_matrix(y, model.predict(X))[0, 0])
    soft = TransportConfusionMatrixDisplay.from_estimator(model, X, y,
                                                          response_method="predict_proba")
    one_hot = transport_confusion_matrix(np.eye(3)[y], model.predict_proba(X))
    np.testing.assert_allclose(soft.confusion_matrix, one_hot[:3, :3])  # no "none" class
    np.testing.assert_allclose(soft.im_.get_array(), one_hot[:3, :3])
    np.testing.assert_array_equal(display.im_.get_array(), confusion_matrix(y, model.predict(X)))
    assert _tick_labels(soft.ax_.xaxis) == ["0", "1", "2"]


def test_values_hidden_above_twenty_classes_unless_asked(rng):
    y_true, y_pred = rng.integers(0, 25, 400), rng.integers(0, 25, 400)
    assert TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred).text_ is None
    shown = TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred,
                                                             include_values=True)
    assert shown.text_.shape == (25, 25)


def test_test_training_order():
    y_test = np.array(["b", "a", "b", "c", "b", "a"])
    y_pred = np.array(["b", "a", "c", "c", "b", "b"])
    y_train = np.array(["c", "c", "c", "a", "b"])
    display = TransportConfusionMatrixDisplay.from_predictions(
        y_test, y_pred, order="test-training", y_train=y_train)
    assert _tick_labels(display.ax_.yaxis) == ["b", "a", "c"]
    assert _tick_labels(display.ax_.xaxis) == ["c", "a", "b"]  # a and b tie: label order
    full = confusion_matrix(y_test, y_pred, labels=["a", "b", "c"])
    np.testing.assert_array_equal(display.confusion_matrix, full[np.ix_([1, 0, 2], [2, 0, 1])])
    with pytest.raises(ValueError, match="'order' parameter of TransportConfusionMatrixDisplay"):
        TransportConfusionMatrixDisplay.from_predictions(y_test, y_pred, order="alpha")


def test_renders_to_png(tmp_path, rng):
    y_true = rng.integers(0, 4, 200)
    y_pred = np.where(rng.random(200) < 0.7, y_true, rng.integers(0, 4, 200))
    names = ["cat", "dog", "fox", "owl"]
    display = TransportConfusionMatrixDisplay.from_predictions(
        np.array(names)[y_true], np.array(names)[y_pred], xticks_rotation=45)
    path = tmp_path / "tcm.png"
    display.figure_.savefig(path)
    assert path.stat().st_size > 1000
    assert _tick_labels(display.ax_.xaxis) == names


def test_plot_on_given_axes_and_constructor_only_stores():
    display = TransportConfusionMatrixDisplay(np.array([[2.0, 1.0], [0.5, 3.0]]),
                                              display_labels=["x", "y"])
    assert not hasattr(display, "figure_")
    fig, ax = plt.subplots()
    display.plot(ax=ax, colorbar=False, values_format=".1f")
    assert display.ax_ is ax
    assert [t.get_text() for t in display.text_.ravel()] == ["2.0", "1.0", "0.5", "3.0"]


def test_posterior_interval_display(tmp_path):
    from sklearn_confusion_ext import PosteriorIntervalDisplay, dirichlet_posterior

    land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
    display = PosteriorIntervalDisplay.from_confusion(land_use, level=0.9,
                                                      method="equal-tailed")
    posterior = dirichlet_posterior(land_use)
    np.testing.assert_allclose(display.mean, posterior.mean())
    lower, upper = posterior.credible_interval(0.9)
    np.testing.assert_allclose(display.low, lower)
    np.testing.assert_allclose(display.high, upper)
    visible = [ax for ax in display.axes_.ravel() if ax.get_visible()]
    assert len(visible) == 4 and visible[3].get_title() == "actual 3"
    for k, ax in enumerate(visible):  # each forest panel draws row k's means and bounds
        line, _, (bars,) = ax.containers[0].lines
        np.testing.assert_allclose(line.get_ydata(), posterior.mean()[k], rtol=1e-12)
        segments = np.array(bars.get_segments())
        np.testing.assert_allclose(segments[:, 0, 1], lower[k], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(segments[:, 1, 1], upper[k], rtol=1e-12, atol=1e-15)
    display.figure_.savefig(tmp_path / "posterior.png")


def test_ranking_comparison_display():
    from sklearn_confusion_ext import RankingComparisonDisplay, f1_ranking_disorder

    a = np.array([[8, 2, 0], [1, 5, 4], [0, 3, 7]])
    b = np.array([[5, 2, 3], [1, 8, 1], [2, 0, 8]])
    display = RankingComparisonDisplay.from_confusion([a, b], models=("A", "B"),
                                                      display_labels=["x", "y", "z"])
    assert display.delta_ab == f1_ranking_disorder(a, b)
    assert display.delta_ba == f1_ranking_disorder(b, a)
    left, right = display.axes_
    # B ranks its classes y (0.8), z (0.727), x (0.556): A's F1 shown in that order.
    assert _tick_labels(left.xaxis) == ["y", "z", "x"]
    heights = [patch.get_height() for patch in left.patches]
    np.testing.assert_allclose(heights, [10 / 20, 14 / 21, 16 / 19])
    assert "Delta" in left.get_title()
    with pytest.raises(ValueError, match="models must hold 2 names"):
        RankingComparisonDisplay.from_confusion([a, b], models=("A",))


def _fitted():
    X, y = load_iris(return_X_y=True)
    return LogisticRegression(max_iter=500).fit(X, y), X, y


@pytest.mark.parametrize("display", [TransportConfusionMatrixDisplay, MLCMDisplay])
def test_from_methods_list_every_keyword(display):
    own = {TransportConfusionMatrixDisplay: ["weighting", "empty", "subpixel", "threshold",
                                             "pos_label", "reject_label"],
           MLCMDisplay: ["method"]}
    shared = ["labels", "sample_weight", "normalize", "display_labels", "order", "y_train",
              "include_values", "cmap", "xticks_rotation", "values_format", "ax", "colorbar",
              "im_kw", "text_kw", "title", "include_counts"]
    for method, leading in (("from_predictions", ["y_true", "y_pred"]),
                            ("from_estimator", ["estimator", "X", "y", "response_method"])):
        parameters = inspect.signature(getattr(display, method)).parameters
        assert sorted(parameters) == sorted(leading + shared + own[display])
        assert not any(p.kind is p.VAR_KEYWORD for p in parameters.values())
        assert all(name in getattr(display, method).__doc__ for name in parameters)
    assert {"weighting", "cmap"} <= set(
        inspect.signature(TransportConfusionMatrixDisplay.from_predictions).parameters)


@pytest.mark.parametrize("display, method, keyword", [
    (TransportConfusionMatrixDisplay, "from_predictions", "weigthing"),
    (TransportConfusionMatrixDisplay, "from_estimator", "cmpa"),
    (MLCMDisplay, "from_predictions", "methd"),
    (MLCMDisplay, "from_estimator", "weighting"),  # the other Display's keyword
])
def test_typo_keyword_is_a_type_error(display, method, keyword):
    arguments = MULTILABEL if method == "from_predictions" else _fitted()
    before = plt.get_fignums()
    with pytest.raises(TypeError, match=f"unexpected keyword argument '{keyword}'"):
        getattr(display, method)(*arguments, **{keyword: "x"})
    assert plt.get_fignums() == before


def test_typo_keyword_error_names_the_public_method():
    with pytest.raises(TypeError, match=r"TransportConfusionMatrixDisplay\.from_predictions"):
        TransportConfusionMatrixDisplay.from_predictions(*MULTILABEL, weigthing="true")


def _call(display, method, keywords):
    if method == "from_predictions":
        return getattr(display, method)(*MULTILABEL, **keywords)
    if method == "from_estimator":
        return getattr(display, method)(*_fitted(), **keywords)
    if method == "from_confusion":
        return display.from_confusion([[8, 2], [1, 9]], **keywords)
    if method == "from_confusion" and display is RankingComparisonDisplay:
        return display.from_confusion([[[8, 2], [1, 9]], [[5, 5], [2, 8]]], **keywords)
    if display is PosteriorIntervalDisplay:
        instance = display(mean=[[0.8, 0.2], [0.3, 0.7]], low=[[0.6, 0.1], [0.1, 0.5]],
                           high=[[0.9, 0.4], [0.5, 0.9]])
    elif display is RankingComparisonDisplay:
        instance = display([0.9, 0.5], [0.8, 0.6])
    else:
        instance = display([[2.0, 1.0], [0.0, 3.0]])
    return getattr(instance, method)(**keywords)


@pytest.mark.parametrize("display, method, name, value, error", [
    (TransportConfusionMatrixDisplay, "from_predictions", "normalize", "bogus", ValueError),
    (TransportConfusionMatrixDisplay, "from_predictions", "include_values", "yes", TypeError),
    (TransportConfusionMatrixDisplay, "from_predictions", "weighting", "unifrom", ValueError),
    (TransportConfusionMatrixDisplay, "from_predictions", "order", "x", ValueError),
    (TransportConfusionMatrixDisplay, "from_estimator", "response_method", "proba", ValueError),
    (TransportConfusionMatrixDisplay, "from_estimator", "empty", "drop", ValueError),
    (TransportConfusionMatrixDisplay, "plot", "colorbar", 1, TypeError),
    (TransportConfusionMatrixDisplay, "plot", "xticks_rotation", "diagonal", ValueError),
    (MLCMDisplay, "from_predictions", "method", "x", ValueError),
    (MLCMDisplay, "from_predictions", "normalize", "bogus", ValueError),
    (MLCMDisplay, "from_estimator", "include_values", "yes", TypeError),
    (MLCMDisplay, "plot", "im_kw", "nearest", TypeError),
    (PosteriorIntervalDisplay, "from_confusion", "level", 2, ValueError),
    (PosteriorIntervalDisplay, "from_confusion", "method", "x", ValueError),
    (PosteriorIntervalDisplay, "plot", "figsize", 1.5, TypeError),
    (RankingComparisonDisplay, "from_confusion", "display_labels", 1.5, TypeError),
])
def test_invalid_value_is_refused_before_plotting(display, method, name, value, error):
    before = plt.get_fignums()
    with pytest.raises(error) as caught:
        _call(display, method, {name: value})
    message = str(caught.value)
    assert f"'{name}'" in message and f"{display.__name__}.{method}" in message, message
    assert repr(value) in message, message
    assert plt.get_fignums() == before, "a figure was created before the check"


@pytest.mark.parametrize("display", [TransportConfusionMatrixDisplay, MLCMDisplay])
def test_plot_of_the_shared_base_names_the_public_class(display):
    with pytest.raises(TypeError, match=f"'colorbar' parameter of {display.__name__}.plot"):
        display([[1.0, 0.0], [0.0, 1.0]]).plot(colorbar="no")
    with pytest.raises(TypeError, match=f"'confusion_matrix' parameter of {display.__name__}"):
        display(1.5)


def test_numpy_scalar_level_is_accepted():
    confusion = [[8, 2], [1, 9]]
    display = PosteriorIntervalDisplay.from_confusion(confusion, level=np.float32(0.9),
                                                      method="equal-tailed")
    lower, upper = dirichlet_posterior(confusion).credible_interval(0.9)
    np.testing.assert_allclose(display.low, lower, rtol=1e-6)
    np.testing.assert_allclose(display.high, upper, rtol=1e-6)


def test_numpy_scalars_are_accepted():
    rotated = TransportConfusionMatrixDisplay.from_predictions(
        *MULTILABEL, xticks_rotation=np.float64(30), include_values=np.True_,
        colorbar=np.False_)
    assert rotated.ax_.get_xticklabels()[0].get_rotation() == 30
    assert rotated.text_.shape == (4, 4) and len(rotated.figure_.axes) == 1


def test_predict_proba_on_multilabel_targets_names_columns_by_index(rng):
    from sklearn.neighbors import KNeighborsClassifier

    X = rng.random((60, 2))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.5, X.sum(axis=1) > 1]).astype(int)
    model = KNeighborsClassifier().fit(X, Y)
    display = TransportConfusionMatrixDisplay.from_estimator(model, X, Y,
                                                             response_method="predict_proba")
    assert _tick_labels(display.ax_.xaxis) == ["0", "1", "2", "none"]


def test_figure_size_and_y_train_are_checked():
    confusion = np.eye(3) + 1
    display = PosteriorIntervalDisplay.from_confusion(confusion, figsize=np.array([5, 3]))
    np.testing.assert_allclose(display.figure_.get_size_inches(), [5, 3])
    with pytest.raises(ValueError, match="'figsize' parameter of RankingComparisonDisplay"):
        RankingComparisonDisplay.from_confusion([confusion, confusion + 1], figsize=(1, 2, 3))
    with pytest.raises(ValueError, match="pass order='test-training'"):
        TransportConfusionMatrixDisplay.from_predictions([0, 1], [0, 1], y_train=[0, 1])
    plt.close("all")


@pytest.mark.parametrize("display", [TransportConfusionMatrixDisplay, MLCMDisplay])
def test_the_image_and_the_cells_are_the_matrix_not_its_transpose(display):
    """What is drawn is the matrix: the image's array (rows true classes), each cell's text
    at x = predicted, y = true, and the tick labels. The numbers come from scikit-learn
    (TCM of labels) and mlcm; an image drawn transposed beside right texts failed nothing
    before."""
    if display is TransportConfusionMatrixDisplay:
        y_true = ["cat", "cat", "cat", "dog", "dog", "fox", "fox", "fox", "fox"]
        y_pred = ["cat", "dog", "dog", "dog", "fox", "fox", "cat", "fox", "fox"]
        expected = confusion_matrix(y_true, y_pred).astype(float)  # not symmetric
        names = ["cat", "dog", "fox"]
    else:
        y_true, y_pred = [[1, 1, 0], [0, 1, 0], [0, 0, 1]], [[1, 0, 1], [1, 1, 0], [0, 0, 0]]
        expected = mlcm(y_true, y_pred)
        names = ["0", "1", "2", "none"]
    assert not np.array_equal(expected, expected.T)
    drawn = display.from_predictions(y_true, y_pred)
    np.testing.assert_array_equal(drawn.im_.get_array(), expected)
    for (i, j), text in np.ndenumerate(drawn.text_):
        assert text.get_position() == (j, i)
        assert text.get_text() == f"{expected[i, j]:.0f}"
    assert _tick_labels(drawn.ax_.yaxis) == _tick_labels(drawn.ax_.xaxis) == names
    assert drawn.ax_.get_ylim() == (len(names) - 0.5, -0.5)  # row 0 on top
    # Normalized over the true rows: the image holds the rates, the cells their text.
    rates = display.from_predictions(y_true, y_pred, normalize="true")
    totals = expected.sum(axis=1, keepdims=True)
    expected_rates = np.divide(expected, totals, out=np.zeros_like(expected),
                               where=totals > 0)
    np.testing.assert_allclose(rates.im_.get_array(), expected_rates, rtol=1e-15)
    assert [[t.get_text() for t in row] for row in rates.text_] == [
        [f"{v:.2f}" if v else "0" for v in row] for row in expected_rates]


def test_rows_and_columns_ordered_apart_are_drawn_with_their_names():
    """order="test-training": rows by test prevalence, columns by training prevalence; the
    image, the texts and both axes' names follow their own orders."""
    y_test = np.array(["b", "a", "b", "c", "b", "a"])
    y_pred = np.array(["b", "a", "c", "c", "b", "b"])
    y_train = np.array(["c", "c", "c", "a", "b"])
    display = TransportConfusionMatrixDisplay.from_predictions(
        y_test, y_pred, order="test-training", y_train=y_train)
    full = confusion_matrix(y_test, y_pred, labels=["a", "b", "c"])
    rows, columns = [1, 0, 2], [2, 0, 1]  # b, a, c and c, a, b
    np.testing.assert_array_equal(display.im_.get_array(), full[np.ix_(rows, columns)])
    for (i, j), text in np.ndenumerate(display.text_):
        assert text.get_position() == (j, i)
        assert text.get_text() == str(full[rows[i], columns[j]])
    assert _tick_labels(display.ax_.yaxis) == ["b", "a", "c"]
    assert _tick_labels(display.ax_.xaxis) == ["c", "a", "b"]
