"""What a person reads on the Displays: cell values, class names, titles, sizes, panels."""

import re

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_iris  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

from sklearn_confusion_ext import (  # noqa: E402
    MLCMDisplay,
    PosteriorIntervalDisplay,
    RankingComparisonDisplay,
    TransportConfusionMatrixDisplay,
    dirichlet_posterior,
    transport_confusion_matrix,
)
from sklearn_confusion_ext._plot.value_format import (  # noqa: E402
    format_values,
    value_decimals,
)

MULTILABEL = ([[1, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]],
              [[1, 0, 1], [0, 1, 0], [0, 0, 0], [1, 0, 0]])


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _texts(display):
    return [[text.get_text() for text in row] for row in display.text_]


def _ticks(axis):
    return [label.get_text() for label in axis.get_ticklabels()]


def _long_names(n):
    return [f"class with a long name {k}" for k in range(n)]


def _labels_and_probabilities(n_classes, n_samples=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_samples)
    logits = rng.normal(size=(n_samples, n_classes))
    logits[np.arange(n_samples), y] += 3
    proba = np.exp(logits)
    return y, proba / proba.sum(axis=1, keepdims=True)


# --- 1. Cell values ---------------------------------------------------------------------------


@pytest.mark.parametrize("matrix, expected", [
    # counts: integers, however large below 1e5; three significant digits from 1e5
    ([[3, 0], [12, 99999]], [["3", "0"], ["12", "99999"]]),
    ([[123456, 7], [0, 1]], [["1.23e+05", "7"], ["0", "1"]]),
    # float sums that are counts up to rounding
    ([[49.99999999999, 1.0], [2.0, 0.0]], [["50", "1"], ["2", "0"]]),
    # masses: three significant digits of the largest value, at most two decimals
    ([[170.3, 9.5e-05], [0.0014, 3.0]], [["170", "<1"], ["<1", "3"]]),
    ([[45.61, 0.04], [0.06, 0.0]], [["45.6", "<0.1"], ["0.1", "0"]]),
    ([[0.951, 0.049], [0.0001, 0.0]], [["0.95", "0.05"], ["<0.01", "0"]]),
    # all below 0.1: two significant digits of the largest
    ([[0.031, 0.0002], [0.003, 0.0]], [["0.031", "<0.001"], ["0.003", "0"]]),
    ([[0.0031, 0.00002], [0.0, 0.0]], [["0.0031", "<0.0001"], ["0", "0"]]),
    # non-finite values are written as such
    ([[np.nan, 0.5], [0.25, 1.0]], [["nan", "0.50"], ["0.25", "1.00"]]),
])
def test_values_are_formatted_from_their_magnitudes(matrix, expected):
    assert format_values(matrix).tolist() == expected


def test_given_decimals_and_values_format():
    matrix = [[0.5, 0.004], [0.0, 1.0]]
    assert format_values(matrix, decimals=2).tolist() == [["0.50", "<0.01"], ["0", "1.00"]]
    assert format_values(matrix, ".1e").tolist() == [["5.0e-01", "4.0e-03"],
                                                    ["0.0e+00", "1.0e+00"]]
    assert format_values([[-0.001, 2.5]]).tolist() == [[">-0.01", "2.50"]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.01, 99_999), min_size=1, max_size=12),
       st.lists(st.floats(0, 0.5), min_size=1, max_size=4))
@example([0.25], [0.00390625])  # "<0.01" beside a largest value below 1
def test_no_scientific_notation_below_1e5_and_the_text_is_the_value(large, small):
    # The rule (format_values' docstring): every cell has the matrix's decimals; "<step"
    # marks exactly the nonzero values that those decimals round to zero (below half a
    # step), whatever their ratio to the largest value.
    matrix = np.array(large + small)[None, :]
    texts = format_values(matrix)[0]
    largest = matrix.max()
    step = 10.0 ** -value_decimals(matrix)
    for value, text in zip(matrix[0], texts):
        assert "e" not in text, (value, text)
        if 0 < value < step / 2 * (1 - 1e-9):
            assert text == f"<{text[1:]}", (value, text)
        elif value > step / 2 * (1 + 1e-9):
            assert not text.startswith("<"), (value, text)
        if text == "0":
            assert value == 0
        elif text.startswith("<"):
            assert float(text[1:]) == step and 0 < value <= step / 2
        else:
            decimals = len(text.partition(".")[2])
            assert abs(float(text) - value) <= 0.5 * 10.0 ** -decimals + 1e-12
            assert decimals <= 2 or largest < 0.1


def test_display_text_of_a_soft_matrix_is_readable():
    y_true = np.array([[0.9, 0.1, 0.0], [0.0, 0.2, 0.8], [0.5, 0.5, 0.0]] * 60)
    y_pred = np.array([[0.8, 0.2, 0.0], [0.0000001, 0.3, 0.7], [0.6, 0.4, 0.0]] * 60)
    display = TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred)
    matrix = display.confusion_matrix
    texts = np.array(_texts(display))
    assert texts.shape == matrix.shape
    np.testing.assert_array_equal(texts, format_values(matrix))
    assert not any("e" in text for text in texts.ravel())
    assert texts[0, 0] == f"{matrix[0, 0]:.1f}" and matrix[0, 0] > 10  # 3 significant digits
    assert (texts[matrix == 0] == "0").all()


def test_counts_are_integers_and_normalized_matrices_have_two_decimals():
    y_true = ["cat"] * 7 + ["dog"] * 3
    y_pred = ["cat"] * 6 + ["dog"] * 4
    counts = TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred)
    assert _texts(counts) == [["6", "1"], ["0", "3"]]
    for normalize, expected in (("true", [["0.86", "0.14"], ["0", "1.00"]]),
                                ("pred", [["1.00", "0.25"], ["0", "0.75"]]),
                                ("all", [["0.60", "0.10"], ["0", "0.30"]])):
        shown = TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred,
                                                                 normalize=normalize)
        assert _texts(shown) == expected, normalize
    # a normalized matrix of many classes keeps two decimals: tiny shares read "<0.01"
    y, proba = _labels_and_probabilities(15, n_samples=3000)
    normalized = TransportConfusionMatrixDisplay.from_predictions(y, proba, normalize="all")
    assert all(re.fullmatch(r"0|<0\.01|\d\.\d\d", text)
               for text in np.ravel(_texts(normalized)))
    assert "<0.01" in np.ravel(_texts(normalized))


def test_values_format_overrides_the_rule():
    display = TransportConfusionMatrixDisplay.from_predictions(
        [0, 1, 1], [0, 1, 0], values_format=".1f")
    assert _texts(display) == [["1.0", "0.0"], ["1.0", "1.0"]]


# --- 2. display_labels --------------------------------------------------------------------------


@pytest.mark.parametrize("display", [TransportConfusionMatrixDisplay, MLCMDisplay])
def test_display_labels_of_n_classes_get_none_appended(display):
    shown = display.from_predictions(*MULTILABEL, display_labels=["sky", "sea", "sand"])
    assert _ticks(shown.ax_.yaxis) == ["sky", "sea", "sand", "none"]
    assert _ticks(shown.ax_.xaxis) == ["sky", "sea", "sand", "none"]
    named = display.from_predictions(*MULTILABEL, display_labels=["sky", "sea", "sand",
                                                                    "nothing"])
    assert _ticks(named.ax_.yaxis)[-1] == "nothing"
    chosen = display.from_predictions(*MULTILABEL, labels=[2, 0], display_labels=["c", "a"])
    assert _ticks(chosen.ax_.yaxis) == ["c", "a", "none"]


@pytest.mark.parametrize("display", [TransportConfusionMatrixDisplay, MLCMDisplay])
def test_display_labels_of_a_wrong_length_say_both_lengths(display):
    with pytest.raises(ValueError, match=r"display_labels has 2 names for 3 classes "
                                         r"\(plus 'none'\)"):
        display.from_predictions(*MULTILABEL, display_labels=["sky", "sea"])
    with pytest.raises(ValueError, match="display_labels has 5 names for 3 classes"):
        display.from_predictions(*MULTILABEL, display_labels=list("abcde"))
    with pytest.raises(ValueError, match="display_labels has 1 names for a matrix of 2 rows"):
        display([[1, 0], [0, 1]], display_labels=["x"]).plot()
    with pytest.raises(ValueError, match="column_labels has 3 names for a matrix of 2 col"):
        display([[1, 0], [0, 1]], display_labels=["x", "y"],
                column_labels=["a", "b", "c"]).plot()


def test_display_labels_of_one_dimensional_labels_name_every_class():
    with pytest.raises(ValueError, match=r"display_labels has 3 names for 2 classes; pass 2"):
        TransportConfusionMatrixDisplay.from_predictions(["a", "b"], ["a", "a"],
                                                         display_labels=list("xyz"))
    shown = TransportConfusionMatrixDisplay.from_predictions(["a", "b"], ["a", "a"],
                                                             display_labels=["x", "y"])
    assert _ticks(shown.ax_.yaxis) == ["x", "y"]


@pytest.mark.parametrize("display", [TransportConfusionMatrixDisplay, MLCMDisplay])
def test_a_rectangular_matrix_needs_its_column_names(display):
    # It was drawn with the row names (or indices) beside columns of other classes.
    for labels in (None, ["a", "b"]):
        with pytest.raises(ValueError, match=r"confusion_matrix must be square .* got shape "
                                             r"\(2, 3\).* column_labels naming its 3 columns"):
            display([[1, 2, 3], [4, 5, 6]], display_labels=labels)
    assert not plt.get_fignums()
    shown = display([[1, 2, 3], [4, 5, 6]], display_labels=["a", "b"],
                    column_labels=["x", "y", "z"]).plot(colorbar=False)
    assert _ticks(shown.ax_.xaxis) == ["x", "y", "z"] and _ticks(shown.ax_.yaxis) == ["a", "b"]
    np.testing.assert_array_equal(shown.im_.get_array(), [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="column_labels has 2 names for a matrix of 3 columns"):
        display([[1, 2, 3], [4, 5, 6]], column_labels=["x", "y"]).plot()


# --- 3. Titles ---------------------------------------------------------------------------------


def _weigh(y_true, y_pred):
    return np.ones(y_true.shape[0])


@pytest.mark.parametrize("call, expected", [
    (lambda: TransportConfusionMatrixDisplay.from_predictions([0, 1], [0, 0]),
     "Transport confusion matrix\n(weighting: uniform)"),
    (lambda: TransportConfusionMatrixDisplay.from_predictions(
        *MULTILABEL, weighting="pred", normalize="true"),
     "Transport confusion matrix\n(weighting: pred, normalized over true classes)"),
    (lambda: TransportConfusionMatrixDisplay.from_predictions(
        *MULTILABEL, weighting=_weigh, normalize="all"),
     "Transport confusion matrix\n(weighting: _weigh, normalized over all instances)"),
    (lambda: MLCMDisplay.from_predictions(*MULTILABEL), "MLCM\n(heydarian)"),
    (lambda: MLCMDisplay.from_predictions(*MULTILABEL, method="krstinic", normalize="pred"),
     "MLCM\n(krstinic, normalized over predicted classes)"),
    (lambda: MLCMDisplay.from_estimator(*_iris(), normalize="true"),
     "MLCM\n(heydarian, normalized over true classes)"),
    (lambda: TransportConfusionMatrixDisplay([[1, 0], [0, 1]]).plot(),
     "Transport confusion matrix"),
    (lambda: MLCMDisplay([[1, 0], [0, 1]]).plot(), "MLCM"),
    (lambda: MLCMDisplay.from_predictions(*MULTILABEL, title=None), ""),
    (lambda: MLCMDisplay.from_predictions(*MULTILABEL, title=""), ""),
    (lambda: TransportConfusionMatrixDisplay([[1, 0], [0, 1]]).plot(title="Pets"), "Pets"),
])
def test_default_title_names_matrix_weighting_and_normalization(call, expected):
    assert call().ax_.get_title() == expected


def test_a_redrawn_display_keeps_its_title_and_decimals():
    display = TransportConfusionMatrixDisplay.from_predictions(
        ["a", "b", "b"], ["a", "b", "a"], normalize="true")
    title, texts = display.ax_.get_title(), _texts(display)
    display.plot()
    assert display.ax_.get_title() == title and _texts(display) == texts == [
        ["1.00", "0"], ["0.50", "0.50"]]


def test_invalid_title_is_refused():
    with pytest.raises(TypeError, match="'title' parameter of MLCMDisplay.from_predictions"):
        MLCMDisplay.from_predictions(*MULTILABEL, title=False)


def test_titles_of_displays_side_by_side_fit_their_axes(tmp_path):
    """Two normalized Displays in one figure: the two-line title ran over the
    neighbouring colour bar; each now fits its Axes (its font smaller, its lines wrapped),
    with or without a layout engine, at 3 and 40 classes."""
    rng = np.random.default_rng(0)
    for n, layout in ((3, None), (3, "constrained"), (40, None), (40, "constrained")):
        y = rng.integers(0, n, 2000)
        y_pred = np.where(rng.random(2000) < 0.7, y, rng.integers(0, n, 2000))
        fig, axes = plt.subplots(1, 2, figsize=(9, 4), layout=layout)
        for ax in axes:
            TransportConfusionMatrixDisplay.from_predictions(y, y_pred, normalize="true",
                                                             ax=ax)
        fig.savefig(tmp_path / f"side_{n}_{layout}.png", dpi=60)  # draws: the layout done
        renderer = fig.canvas.get_renderer()
        for ax in axes:
            title, box = ax.title.get_window_extent(renderer), ax.get_window_extent(renderer)
            assert box.x0 - 2 <= title.x0 and title.x1 <= box.x1 + 2, (n, layout)
            assert ax.title.get_fontsize() >= 6
            words = ax.get_title().replace("\n", " ")
            assert words == ("Transport confusion matrix (weighting: uniform, normalized "
                             "over true classes)")  # the words all kept
        plt.close(fig)
    # Its own figure: the title as it was, on two lines at the title's size.
    display = TransportConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 1, 0],
                                                               normalize="true")
    assert display.ax_.get_title().count("\n") == 1
    assert display.ax_.title.get_fontsize() == plt.rcParams["axes.titlesize"] or \
        display.ax_.title.get_fontsize() == 12.0


def test_include_counts_writes_values_and_counts_at_any_class_count(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 40, 2000)
    y_pred = np.where(rng.random(2000) < 0.7, y, rng.integers(0, 40, 2000))
    display = TransportConfusionMatrixDisplay.from_predictions(y, y_pred, normalize="true",
                                                               include_counts=True)
    display.figure_.savefig(tmp_path / "counts_40.png", dpi=60)
    texts = _texts(display)
    assert len(texts) == 40 and "\n(" in texts[0][0]  # the value over the count
    size = display.text_[0, 0].get_fontsize()
    assert 2 <= size < 8  # small enough for two lines in a cell of a 40-class figure
    # 40 classes without include_counts: no values by default, as before.
    plain = TransportConfusionMatrixDisplay.from_predictions(y, y_pred, normalize="true")
    assert plain.text_ is None
    # Values refused and counts asked for: said, not silently dropped.
    with pytest.warns(UserWarning, match="include_counts=True .* include_values=False"):
        refused = TransportConfusionMatrixDisplay.from_predictions(
            y[:30] % 3, y_pred[:30] % 3, normalize="true", include_counts=True,
            include_values=False)
    assert refused.text_ is None


# --- 4. Many classes ---------------------------------------------------------------------------


def test_figure_grows_with_the_class_count_within_a_cap():
    sizes = {}
    for n in (3, 10, 40):
        y, proba = _labels_and_probabilities(n)
        display = TransportConfusionMatrixDisplay.from_predictions(y, proba)
        sizes[n] = display.figure_.get_size_inches()
    assert (sizes[3] < sizes[10]).all() and (sizes[10] < sizes[40]).all()
    np.testing.assert_allclose(sizes[40], [12, 10])
    fig, ax = plt.subplots(figsize=(4, 3))
    TransportConfusionMatrixDisplay.from_predictions(y, proba, ax=ax)
    np.testing.assert_allclose(fig.get_size_inches(), [4, 3])  # a given figure is kept


def test_long_names_are_cut_in_the_middle():
    y, proba = _labels_and_probabilities(3)
    display = TransportConfusionMatrixDisplay.from_predictions(
        y, proba, display_labels=_long_names(3))
    names = _ticks(display.ax_.yaxis)
    assert names == ["class with\u2026ng name 0", "class with\u2026ng name 1",
                     "class with\u2026ng name 2"]
    assert _ticks(display.ax_.xaxis) == names
    short = TransportConfusionMatrixDisplay.from_predictions(
        y, proba, display_labels=["a name of 20 letters", "b", "c"])
    assert _ticks(short.ax_.yaxis)[0] == "a name of 20 letters"


def test_names_that_differ_in_the_middle_stay_distinct():
    # Cut at start and end, "land-cover type 13, coastal" and "... 15, coastal" read alike.
    names = [f"land-cover type {k:02d}, {'coastal' if k % 2 else 'inland'}" for k in range(6)]
    y = np.arange(6)
    display = TransportConfusionMatrixDisplay.from_predictions(
        y, np.eye(6)[y], display_labels=names)
    shown = _ticks(display.ax_.yaxis)
    assert len(set(shown)) == 6 and all(len(name) <= 20 for name in shown)
    assert shown[3] == "\u2026er type 03, coastal"
    posterior = PosteriorIntervalDisplay.from_confusion(np.eye(6) * 5 + 1,
                                                        display_labels=names, rows=[3])
    assert posterior.axes_[-1].get_title() == "actual \u2026er type 03, coastal"
    plt.close("all")


def test_names_are_thinned_only_when_they_would_overlap():
    y, proba = _labels_and_probabilities(40, n_samples=2000)
    roomy = TransportConfusionMatrixDisplay.from_predictions(y, proba,
                                                             display_labels=_long_names(40))
    assert len(_ticks(roomy.ax_.yaxis)) == 40 and len(_ticks(roomy.ax_.xaxis)) == 40
    _, ax = plt.subplots(figsize=(4, 4))
    cramped = TransportConfusionMatrixDisplay.from_predictions(y, proba, ax=ax, colorbar=False)
    positions = cramped.ax_.get_yticks()
    assert 5 <= len(positions) < 40 and positions[0] == 0
    step = positions[1] - positions[0]
    assert step > 1 and np.all(np.diff(positions) == step)
    assert _ticks(cramped.ax_.yaxis) == [str(int(k)) for k in positions]


def test_column_names_turn_when_they_do_not_fit():
    def rotations(display):
        return {label.get_rotation() for label in display.ax_.get_xticklabels()}

    assert rotations(TransportConfusionMatrixDisplay.from_predictions(
        ["a", "b", "c"], ["a", "c", "c"])) == {0}
    y, proba = _labels_and_probabilities(10)
    slanted = TransportConfusionMatrixDisplay.from_predictions(
        y, proba, display_labels=_long_names(10))
    assert rotations(slanted) == {45}
    assert {label.get_ha() for label in slanted.ax_.get_xticklabels()} == {"right"}
    for rotation, expected in (("vertical", 90), ("horizontal", 0), (30, 30)):
        assert rotations(TransportConfusionMatrixDisplay.from_predictions(
            y, proba, display_labels=_long_names(10), xticks_rotation=rotation)) == {expected}


# --- 5. Labels against probabilities ---------------------------------------------------------


def _iris():
    X, y = load_iris(return_X_y=True)
    return LogisticRegression(max_iter=500).fit(X, y), X, y


def test_from_predictions_of_labels_against_probabilities_has_no_none_class():
    y, proba = _labels_and_probabilities(3)
    display = TransportConfusionMatrixDisplay.from_predictions(
        y, proba, display_labels=["cat", "dog", "fox"])
    one_hot = transport_confusion_matrix(np.eye(3)[y], proba)
    np.testing.assert_allclose(display.confusion_matrix, one_hot[:3, :3])
    assert _ticks(display.ax_.xaxis) == ["cat", "dog", "fox"]
    ordered = TransportConfusionMatrixDisplay.from_predictions(
        y, proba, order="test-training", y_train=np.r_[np.full(500, 2), y])
    assert _ticks(ordered.ax_.xaxis)[0] == "2"  # the most common class in y_train


def test_from_estimator_predict_proba_names_columns_by_classes():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = LogisticRegression(max_iter=500).fit(X, names)
    display = TransportConfusionMatrixDisplay.from_estimator(
        model, X, names, response_method="predict_proba", weighting="true")
    expected = transport_confusion_matrix(names, model.predict_proba(X),
                                          labels=model.classes_, weighting="true")
    np.testing.assert_allclose(display.confusion_matrix, expected)
    assert _ticks(display.ax_.xaxis) == ["setosa", "versicolor", "virginica"]
    assert display.ax_.get_title() == "Transport confusion matrix\n(weighting: true)"


class _PositiveColumn:
    """A binary classifier whose predict_proba returns the positive class's column only."""

    classes_ = np.array(["no", "yes"])

    def predict(self, X):
        return np.where(X[:, 0] > 0.5, "yes", "no")

    def predict_proba(self, X):
        return X[:, 0]


def test_from_estimator_completes_a_binary_positive_column():
    X = np.array([[0.9], [0.2], [0.6], [0.1]])
    y = np.array(["yes", "no", "no", "no"])
    display = TransportConfusionMatrixDisplay.from_estimator(
        _PositiveColumn(), X, y, response_method="predict_proba")
    expected = transport_confusion_matrix(
        y, np.column_stack([1 - X[:, 0], X[:, 0]]), labels=["no", "yes"])
    np.testing.assert_allclose(display.confusion_matrix, expected)
    assert _ticks(display.ax_.yaxis) == ["no", "yes"]


def test_from_estimator_stacks_multi_output_probabilities(rng):
    X = rng.random((80, 2))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.5, X.sum(axis=1) > 1]).astype(int)
    model = KNeighborsClassifier().fit(X, Y)
    display = TransportConfusionMatrixDisplay.from_estimator(
        model, X, Y, response_method="predict_proba", display_labels=["a", "b", "c"])
    stacked = np.column_stack([p[:, -1] for p in model.predict_proba(X)])
    np.testing.assert_allclose(display.confusion_matrix, transport_confusion_matrix(Y, stacked))
    assert _ticks(display.ax_.xaxis) == ["a", "b", "c", "none"]


# --- 6. PosteriorIntervalDisplay ----------------------------------------------------------------


def _counts(n, seed=0):
    rng = np.random.default_rng(seed)
    return np.eye(n, dtype=int) * 30 + rng.integers(0, 4, (n, n))


def test_few_classes_get_a_forest_panel_per_row():
    counts = _counts(3)
    display = PosteriorIntervalDisplay.from_confusion(counts, display_labels=list("abc"))
    assert [ax.get_title() for ax in display.axes_] == ["actual a", "actual b", "actual c"]
    assert not display.axes_[0].images  # no matrix view
    posterior = dirichlet_posterior(counts)
    means = display.axes_[1].lines[0].get_ydata()
    np.testing.assert_allclose(means, posterior.mean()[1])
    assert _ticks(display.axes_[-1].xaxis) == list("abc")  # names under the last panel only
    assert not any(tick.label1.get_visible() for tick in display.axes_[0].xaxis.get_major_ticks())


@pytest.mark.slow
def test_forty_classes_get_a_bounded_matrix_view_and_chosen_rows():
    counts = _counts(40)
    names = _long_names(40)
    display = PosteriorIntervalDisplay.from_confusion(counts, display_labels=names)
    assert len(display.axes_) == 1
    np.testing.assert_allclose(display.axes_[0].images[0].get_array(),
                               dirichlet_posterior(counts).mean())
    width, height = display.figure_.get_size_inches()
    assert width <= 12 and height <= 10
    chosen = PosteriorIntervalDisplay.from_confusion(
        counts, display_labels=names, rows=[0, "class with a long name 17"])
    assert [ax.get_title() for ax in chosen.axes_[1:]] == [
        "actual class with\u2026ng name 0", "actual class with\u2026g name 17"]
    assert (chosen.figure_.get_size_inches() <= [12, 10]).all()
    np.testing.assert_allclose(chosen.axes_[2].lines[0].get_ydata(),
                               dirichlet_posterior(counts).mean()[17])


def test_matrix_view_writes_mean_and_half_width_up_to_ten_classes():
    counts = _counts(8)
    display = PosteriorIntervalDisplay.from_confusion(counts, level=0.9)
    posterior = dirichlet_posterior(counts)
    lower, upper = posterior.credible_interval(0.9, method="hpd")
    texts = [text.get_text() for text in display.axes_[0].texts]
    assert len(texts) == 64
    assert texts[0] == f"{posterior.mean()[0, 0]:.2f}\n\u00b1{(upper - lower)[0, 0] / 2:.2f}"
    assert not PosteriorIntervalDisplay.from_confusion(_counts(12)).axes_[0].texts


def test_posterior_display_draws_on_given_axes_figures_and_subfigures():
    counts = _counts(3)
    fig, ax = plt.subplots()
    one = PosteriorIntervalDisplay.from_confusion(counts, rows=[], ax=ax)
    assert one.axes_[0] is ax and one.figure_ is fig and ax.images
    fig, axes = plt.subplots(1, 3)
    two = PosteriorIntervalDisplay.from_confusion(counts, rows=[1, 2], ax=axes)
    assert list(two.axes_) == list(axes) and axes[2].get_title() == "actual 2"
    figure = plt.figure()
    left, right = figure.subfigures(1, 2)
    inside = PosteriorIntervalDisplay.from_confusion(counts, ax=right)
    assert len(right.axes) == 3 and not left.axes and inside.figure_ is figure


@pytest.mark.parametrize("keywords, error, message", [
    ({"ax": "axes"}, TypeError, "'ax' parameter of PosteriorIntervalDisplay.from_confusion"),
    ({"rows": [0], "ax": "three"}, ValueError,
     r"ax holds 3 Axes but this display draws 2 panel\(s\) \(the matrix view, 1 forest"),
    ({"ax": "single", "figsize": (3, 3)}, ValueError, "figsize sizes a new figure"),
    ({"rows": [5]}, ValueError, r"rows names the actual classes by position \(0 to 2\)"),
    ({"rows": ["nobody"]}, ValueError, "got 'nobody'"),
    ({"rows": [True]}, ValueError, "got True"),
    ({"rows": "all"}, ValueError, "'rows' parameter"),
])
def test_posterior_display_refuses_bad_panels(keywords, error, message):
    if keywords.get("ax") == "single":
        keywords["ax"] = plt.subplots()[1]
    if keywords.get("ax") == "three":  # one Axes is the box of the panels, and is taken
        keywords["ax"] = plt.subplots(1, 3)[1]
    with pytest.raises(error, match=message):
        PosteriorIntervalDisplay.from_confusion(_counts(3), **keywords)


# --- 7. RankingComparisonDisplay ------------------------------------------------------------------


def test_ranking_display_on_given_axes_and_figure():
    a, b = _counts(3, seed=1), _counts(3, seed=2)
    fig, axes = plt.subplots(2, 1)
    display = RankingComparisonDisplay.from_confusion([a, b], ax=axes)
    assert list(display.axes_) == list(axes) and display.figure_ is fig
    assert "Delta" in axes[1].get_title()
    figure = plt.figure()
    RankingComparisonDisplay.from_confusion([a, b], ax=figure)
    assert len(figure.axes) == 2
    with pytest.raises(ValueError, match=r"ax holds 3 Axes but this display draws 2 panel"):
        RankingComparisonDisplay.from_confusion([a, b], ax=plt.subplots(1, 3)[1])
    with pytest.raises(ValueError, match="display_labels has 2 names for 3 classes"):
        RankingComparisonDisplay.from_confusion([a, b], display_labels=["x", "y"])


def test_ranking_display_of_forty_classes_lays_its_bars_down():
    a, b = _counts(40, seed=1), _counts(40, seed=2)
    names = _long_names(40)
    display = RankingComparisonDisplay.from_confusion([a, b], display_labels=names)
    left = display.axes_[0]
    order = np.argsort(-display.f1_b, kind="stable")
    np.testing.assert_allclose([patch.get_width() for patch in left.patches],
                               display.f1_a[order])
    assert len(_ticks(left.yaxis)) == 40  # every class named beside its bar
    assert _ticks(left.yaxis)[0].endswith(f"name {order[0]}")
    assert (display.figure_.get_size_inches() <= [12, 10]).all()
