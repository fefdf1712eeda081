"""What every Display draws is its data: generated over every public Display class.

Each Display is built from constructor data and drawn; the artists it drew (the image's
array, the cells' texts and places, the markers', bars' and segments' coordinates, the
tick labels) are read back from matplotlib and compared with numbers computed here from
the same data (NumPy, scipy.stats), not with the Display's own attributes. A Display that
drew its matrix transposed, bars in another order or a marker off its value fails here.
"""

import numpy as np
import pytest
from scipy import stats

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sklearn_confusion_ext as sce  # noqa: E402

DISPLAYS = sorted(name for name in sce.__all__ if name.endswith("Display"))
# The triangle of the simplex Displays: vertex 0 bottom left, 1 bottom right, 2 on top
# (PosteriorSimplexDisplay); ComparisonSimplexDisplay puts a better bottom left, practical
# equivalence on top, b better bottom right.
ROOT3 = np.sqrt(3) / 2


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _texts(artists):
    return [artist.get_text() for artist in artists]


def _ticks(axis):
    return _texts(axis.get_ticklabels())


def _check_cells(display, matrix, texts, rows, columns):
    """The image is ``matrix`` (not its transpose), cell (i, j)'s text sits at x = j,
    y = i, and the ticks name the rows and columns."""
    np.testing.assert_array_equal(display.im_.get_array(), matrix)
    assert display.text_.shape == matrix.shape
    for (i, j), text in np.ndenumerate(display.text_):
        assert text.get_position() == (j, i)
        assert text.get_text() == texts[i][j], (i, j)
    assert _ticks(display.ax_.yaxis) == rows
    assert _ticks(display.ax_.xaxis) == columns
    # Row 0 on top: the y-axis runs downwards over the rows.
    assert display.ax_.get_ylim() == (len(rows) - 0.5, -0.5)


def _transport():
    matrix = np.array([[5.0, 1.0, 0.0], [2.0, 7.0, 4.0], [0.5, 3.0, 9.0]])
    half = np.array([[0.0, 0.5, 0.0], [0.2, 0.0, 1.5], [0.3, 0.0, 0.0]])
    display = sce.TransportConfusionMatrixDisplay(
        matrix, display_labels=["cat", "dog", "fox"], half_width=half).plot(
            values_format=".1f", colorbar=False)
    texts = [[f"{v:.1f}" + (f"\u00b1{h:.1f}" if h else "") for v, h in zip(*row)]
             for row in zip(matrix, half)]
    _check_cells(display, matrix, texts, ["cat", "dog", "fox"], ["cat", "dog", "fox"])
    # A rectangular matrix (its columns named apart): 2 rows, 3 columns.
    wide = np.array([[4.0, 0.0, 1.0], [2.0, 6.0, 3.0]])
    display = sce.TransportConfusionMatrixDisplay(
        wide, display_labels=["a", "b"], column_labels=["x", "y", "z"]).plot(colorbar=False)
    _check_cells(display, wide, [[f"{v:.0f}" for v in row] for row in wide], ["a", "b"],
                 ["x", "y", "z"])


def _mlcm():
    matrix = np.array([[3.0, 0.0, 1.0, 0.0], [2.0, 4.0, 0.0, 1.0], [0.0, 5.0, 6.0, 0.0],
                       [1.0, 0.0, 2.0, 0.0]])
    names = ["sky", "sea", "sand", "none"]
    display = sce.MLCMDisplay(matrix, display_labels=names).plot()
    _check_cells(display, matrix, [[f"{v:.0f}" for v in row] for row in matrix], names, names)
    # The colorbar reads the same values.
    colorbar = display.im_.colorbar
    assert (colorbar.vmin, colorbar.vmax) == (0.0, 6.0)


def _posterior_intervals():
    mean = np.array([[0.7, 0.2, 0.1], [0.15, 0.8, 0.05], [0.3, 0.3, 0.4]])
    lower = np.array([[0.5, 0.05, 0.01], [0.05, 0.6, 0.0], [0.1, 0.12, 0.2]])
    upper = np.array([[0.85, 0.4, 0.3], [0.35, 0.92, 0.2], [0.5, 0.55, 0.62]])
    names = ["urban", "crops", "water"]
    display = sce.PosteriorIntervalDisplay(mean=mean, low=lower, high=upper,
                                           display_labels=names).plot(rows=[2, 0])
    matrix_ax, *forests = display.axes_
    np.testing.assert_array_equal(matrix_ax.images[0].get_array(), mean)
    expected = [f"{m:.2f}\n\u00b1{h:.2f}" for m, h in zip(mean.ravel(),
                                                          ((upper - lower) / 2).ravel())]
    cells = {text.get_position(): text.get_text() for text in matrix_ax.texts}
    assert [cells[(j, i)] for i, j in np.ndindex(mean.shape)] == expected
    assert _ticks(matrix_ax.yaxis) == names
    for ax, k in zip(forests, (2, 0)):
        line, _, (bars,) = ax.containers[0].lines
        np.testing.assert_array_equal(line.get_xdata(), [0, 1, 2])
        np.testing.assert_allclose(line.get_ydata(), mean[k], rtol=1e-15)
        segments = np.array(bars.get_segments())  # ((x, low), (x, high)) per class
        np.testing.assert_array_equal(segments[:, :, 0], [[0, 0], [1, 1], [2, 2]])
        np.testing.assert_allclose(segments[:, 0, 1], lower[k], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(segments[:, 1, 1], upper[k], rtol=1e-12, atol=1e-15)
        assert ax.get_title() == f"actual {names[k]}"


def _posterior_simplex():
    alpha = np.array([[38.0, 2.0, 16.0], [3.0, 9.0, 4.0]])
    display = sce.PosteriorSimplexDisplay(alpha, column_labels=["x", "y", "z"],
                                          display_labels=["r0", "r1"]).plot()
    for ax, row in zip(display.axes_, alpha):
        mean = row / row.sum()
        mode = (row - 1) / (row.sum() - 3)  # every parameter above 1
        markers = {line.get_marker(): np.concatenate([line.get_xdata(), line.get_ydata()])
                   for line in ax.lines if line.get_marker() in ("o", "x")}
        for point, marker in ((mean, "o"), (mode, "x")):
            np.testing.assert_allclose(markers[marker],
                                       [point[1] + point[2] / 2, point[2] * ROOT3],
                                       rtol=1e-12)
        captions = [text for text in _texts(ax.texts) if "mean" in text]
        assert [line.split() for line in captions[0].split("\n")] == [["mean", "mode"]] + [
            [name, f"{m:.3f}", f"{o:.3f}"] for name, m, o in zip("xyz", mean, mode)]
        assert {"x", "y", "z"} <= set(_texts(ax.texts))
    assert [ax.get_title() for ax in display.axes_] == ["actual r0", "actual r1"]


def _score_intervals():
    estimates = np.array([[0.9, 0.6, 0.75], [0.8, 0.7, 0.72]])
    low = np.array([[0.8, 0.4, 0.65], [0.7, 0.5, 0.6]])
    high = np.array([[0.95, 0.75, 0.85], [0.9, 0.85, 0.8]])
    display = sce.ScoreIntervalDisplay(
        estimates=estimates, low=low, high=high, display_labels=["cat", "dog", "fox"],
        models=["forest", "tree"]).plot()
    ax = display.ax_
    markers = [line for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert [line.get_label() for line in markers] == ["forest", "tree"]
    rows = []
    for k, (line, collection) in enumerate(zip(markers, ax.collections)):
        np.testing.assert_array_equal(line.get_xdata(), estimates[k])
        y = np.asarray(line.get_ydata())
        segments = np.array(collection.get_segments())  # ((low, y), (high, y)) per row
        np.testing.assert_array_equal(segments[:, 0, 0], low[k])
        np.testing.assert_array_equal(segments[:, 1, 0], high[k])
        np.testing.assert_array_equal(segments[:, 0, 1], y)
        np.testing.assert_array_equal(segments[:, 1, 1], y)
        rows.append(y)
    # Each row's models beside each other around the row's tick, the first row on top.
    ticks = ax.get_yticks()
    np.testing.assert_allclose(np.mean(rows, axis=0), ticks)
    assert _ticks(ax.yaxis) == ["cat", "dog", "fox"]
    assert ax.yaxis_inverted()


def _ranking_comparison():
    f1_a, f1_b = np.array([0.9, 0.5, 0.7, 0.2]), np.array([0.6, 0.8, 0.7, 0.1])
    names = ["w", "x", "y", "z"]
    display = sce.RankingComparisonDisplay(f1_a, f1_b, models=("A", "B"),
                                           display_labels=names).plot()
    left, right = display.axes_
    # A's scores in B's order (x 0.8, y 0.7, w 0.6, z 0.1); B's in A's (w, y, x, z).
    for ax, scores, order in ((left, f1_a, [1, 2, 0, 3]), (right, f1_b, [0, 2, 1, 3])):
        np.testing.assert_array_equal([bar.get_height() for bar in ax.patches],
                                      scores[order])
        np.testing.assert_array_equal([bar.get_x() + bar.get_width() / 2
                                       for bar in ax.patches], [0, 1, 2, 3])
        assert _ticks(ax.xaxis) == [names[i] for i in order]
    # Three matrices: the grid, panel (i, j) is matrix i's scores in matrix j's order.
    scores = np.array([f1_a, f1_b, [0.3, 0.4, 0.5, 0.9]])
    grid = sce.RankingComparisonDisplay(scores, display_labels=names).plot()
    for (i, j), ax in np.ndenumerate(grid.axes_):
        order = np.argsort(-scores[j], kind="stable")
        np.testing.assert_array_equal([bar.get_height() for bar in ax.patches],
                                      scores[i][order])
        assert _ticks(ax.xaxis) == [names[c] for c in order]


def _class_distribution():
    test, training = np.array([0.2, 0.5, 0.3]), np.array([0.6, 0.1, 0.3])
    display = sce.ClassDistributionDisplay(test, training,
                                           display_labels=["a", "b", "c"]).plot()
    order = [0, 2, 1]  # by training share, the largest first
    for name, shares in (("test", test), ("training", training)):
        bars = display.bars_[name]
        np.testing.assert_array_equal([bar.get_height() for bar in bars], shares[order])
        centers = [bar.get_x() + bar.get_width() / 2 for bar in bars]
        np.testing.assert_allclose(np.round(centers), [0, 1, 2])
    assert _ticks(display.ax_.xaxis) == ["a", "c", "b"]
    kept = sce.ClassDistributionDisplay(test, display_labels=["a", "b", "c"]).plot(order=None)
    np.testing.assert_array_equal([bar.get_height() for bar in kept.bars_["test"]], test)
    assert _ticks(kept.ax_.xaxis) == ["a", "b", "c"]


def _posterior_difference():
    mean, scale, df, rope = 0.02, 0.01, 9.0, 0.01
    display = sce.PosteriorDifferenceDisplay(mean=mean, scale=scale, df=df, rope=rope,
                                             models=("forest", "tree")).plot()
    (curve,) = [line for line in display.ax_.lines if len(line.get_xdata()) > 2]
    x, density = np.asarray(curve.get_xdata()), np.asarray(curve.get_ydata())
    np.testing.assert_allclose(density, stats.t.pdf(x, df, loc=mean, scale=scale),
                               rtol=1e-12)
    assert x.min() < -rope and x.max() > rope  # the rope's ends are in view
    posterior = stats.t(df, loc=mean, scale=scale)
    p_b, p_a = posterior.cdf(-rope), posterior.sf(rope)
    assert _texts(display.ax_.get_legend().get_texts()) == [
        f"forest better: P = {p_a:.3f}", f"equivalent (rope ±0.01): P = {1 - p_a - p_b:.3f}",
        f"tree better: P = {p_b:.3f}"]
    # axvspan's patch: a Rectangle (matplotlib 3.9+) or a Polygon (before); its data extent
    patch = display.ax_.patches[0]
    corners = patch.get_patch_transform().transform(patch.get_path().vertices)
    np.testing.assert_allclose((corners[:, 0].min(), np.ptp(corners[:, 0])), (-rope, 2 * rope))


def _critical_difference():
    ranks = np.array([2.25, 1.5, 3.75, 2.5])
    names = ["x", "y", "z", "w"]
    display = sce.CriticalDifferenceDisplay(ranks, models=names, critical_difference=1.2,
                                            groups=[("y", "x", "w")]).plot()
    ax = display.ax_
    # Each model: a line down from its rank, then to the side where its name is written.
    drops = [line for line in ax.lines if len(line.get_xdata()) == 3]
    np.testing.assert_array_equal(sorted(line.get_xdata()[0] for line in drops),
                                  np.sort(ranks))
    for line in drops:
        rank = line.get_xdata()[0]
        assert line.get_xdata()[1] == rank
        name = names[int(np.flatnonzero(ranks == rank)[0])]
        (label,) = [text for text in ax.texts if f"{name} ({rank:.2f})" in text.get_text()]
        assert label.get_position() == (line.get_xdata()[2], line.get_ydata()[2])
    # The critical difference: a segment of length 1.2 from the worst rank, 4.
    (bar,) = [line for line in ax.lines if list(line.get_ydata()) == [-0.55, -0.55]]
    np.testing.assert_allclose(bar.get_xdata(), [4.0, 4.0 - 1.2])
    # The group's bar spans its members' ranks (1.5 to 2.5), with a little margin.
    (group,) = [line for line in ax.lines if line.get_linewidth() == 3.5]
    low, high = group.get_xdata()
    assert low < 1.5 and high > 2.5 and high - 2.5 == pytest.approx(1.5 - low)
    assert ax.get_xlim() == (4.0, 1.0)  # the best rank on the right


def _comparison_simplex():
    samples = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.7, 0.1], [0.5, 0.0, 0.5]])
    display = sce.ComparisonSimplexDisplay(samples, rope=0.01, models=("forest", "tree"),
                                           probabilities=[0.5, 0.25, 0.25]).plot()
    a, rope, b = samples.T
    np.testing.assert_allclose(display.scatter_.get_offsets(),
                               np.column_stack([rope / 2 + b, rope * ROOT3]), rtol=1e-12,
                               atol=1e-15)
    assert _texts(display.text_) == ["forest better\nP = 0.500",
                                     "practically equivalent (rope ±0.01)\nP = 0.250",
                                     "tree better\nP = 0.250"]
    # Without probabilities: the shares of samples in which each mass is the largest.
    counted = sce.ComparisonSimplexDisplay(samples, rope=0.01).plot()
    assert _texts(counted.text_)[0].endswith("P = 0.500")  # rows 0 and 3 (a tie: to a)
    assert _texts(counted.text_)[1].endswith("P = 0.250")


def _reliability():
    prob_true, prob_pred = np.array([0.1, 0.6, 0.9]), np.array([0.2, 0.5, 0.8])
    low, high = np.array([0.0, 0.3, 0.6]), np.array([0.4, 0.8, 1.0])
    count, edges = np.array([4.0, 3.0, 5.0]), np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    display = sce.ReliabilityDisplay(prob_true, prob_pred, low=low, high=high,
                                     bin_count=count, bin_edges=edges,
                                     bin_index=[0, 2, 3], name="m").plot()
    np.testing.assert_array_equal(display.line_.get_xdata(), prob_pred)
    np.testing.assert_array_equal(display.line_.get_ydata(), prob_true)
    # the band: its polygon's upper edge is high, its lower edge low, over prob_pred
    vertices = display.bands_[0].get_paths()[0].vertices
    for x, lo, hi in zip(prob_pred, low, high):
        at = vertices[np.isclose(vertices[:, 0], x)][:, 1]
        assert at.min() == pytest.approx(lo) and at.max() == pytest.approx(hi)
    # the histogram: the counts in their bins, an empty bin at 0
    np.testing.assert_array_equal(display.hists_[0].get_data().values, [4, 0, 3, 5])
    np.testing.assert_array_equal(display.hists_[0].get_data().edges, edges)
    (diagonal,) = [line for line in display.ax_.lines if line.get_linestyle() == "--"]
    np.testing.assert_array_equal(diagonal.get_xydata(), [[0, 0], [1, 1]])


def _risk_coverage():
    coverage, risk = np.array([0.25, 0.5, 1.0]), np.array([0.0, 0.1, 0.3])
    low, high = np.array([0.0, 0.02, 0.2]), np.array([0.5, 0.4, 0.45])
    display = sce.RiskCoverageDisplay(coverage, risk, low=low, high=high, area=0.2,
                                      name="m").plot()
    np.testing.assert_array_equal(display.line_.get_xdata(), [0.0, 0.25, 0.5, 1.0])
    np.testing.assert_array_equal(display.line_.get_ydata(), [0.0, 0.0, 0.1, 0.3])
    assert display.line_.get_drawstyle() == "steps-pre"
    assert _texts(display.ax_.get_legend().get_texts()) == ["m (AURC = 0.2)"]
    vertices = display.band_.get_paths()[0].vertices
    assert vertices[:, 1].min() == 0.0 and vertices[:, 1].max() == 0.5


def _threshold_curve():
    thresholds = np.array([0.8, 0.4, 0.1])
    matrices = np.array([[[3, 0], [2, 1]], [[2, 1], [1, 2]], [[0, 3], [0, 3]]], dtype=float)
    display = sce.ThresholdCurveDisplay(thresholds, matrices).plot(
        scores=["tpr", "fpr", "precision"], threshold=0.5)
    expected = {"tpr": [1.0, 2 / 3, 1 / 3], "fpr": [1.0, 1 / 3, 0.0],
                "precision": [0.5, 2 / 3, 1.0]}  # at 0.1, 0.4, 0.8
    for score, values in expected.items():
        line = display.lines_[score]
        np.testing.assert_array_equal(line.get_xdata(), [0.1, 0.4, 0.8])
        np.testing.assert_allclose(line.get_ydata(), values)
    # at 0.5: the matrix at 0.8 (the smallest threshold at least 0.5)
    markers = [line for line in display.ax_.lines if line.get_marker() == "o"]
    assert [tuple(line.get_xydata()[0]) for line in markers] == [
        (0.5, pytest.approx(1 / 3)), (0.5, 0.0), (0.5, 1.0)]
    assert list(display.threshold_line_.get_xdata()) == [0.5, 0.5]


def _subgroup_intervals():
    estimates, low, high = [0.9, 0.6, 0.8], [0.85, 0.5, 0.7], [0.95, 0.7, 0.88]
    display = sce.SubgroupIntervalDisplay(
        estimates=estimates, low=low, high=high, display_labels=["north", "south", "east"],
        overall=0.78, significant=[True, True, False], score_name="accuracy").plot()
    ax = display.ax_
    segments = np.array(ax.collections[0].get_segments())
    np.testing.assert_array_equal(segments[:, 0, 0], low)
    np.testing.assert_array_equal(segments[:, 1, 0], high)
    np.testing.assert_array_equal(ax.lines[1].get_xdata(), estimates)
    assert list(display.line_.get_xdata()) == [0.78, 0.78]
    marked = [line for line in ax.lines if line.get_label() == "differs from the rest"]
    np.testing.assert_array_equal(marked[0].get_xdata(), [0.9, 0.6])
    np.testing.assert_array_equal(marked[0].get_ydata(), segments[:2, 0, 1])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["north", "south", "east"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "all instances", "differs from the rest"]
    assert ax.get_xlabel() == "accuracy" and ax.get_title() == "accuracy per subgroup"


CHECKS = {
    "TransportConfusionMatrixDisplay": _transport,
    "MLCMDisplay": _mlcm,
    "PosteriorIntervalDisplay": _posterior_intervals,
    "PosteriorSimplexDisplay": _posterior_simplex,
    "ScoreIntervalDisplay": _score_intervals,
    "SubgroupIntervalDisplay": _subgroup_intervals,
    "RankingComparisonDisplay": _ranking_comparison,
    "ClassDistributionDisplay": _class_distribution,
    "PosteriorDifferenceDisplay": _posterior_difference,
    "CriticalDifferenceDisplay": _critical_difference,
    "ComparisonSimplexDisplay": _comparison_simplex,
    "ReliabilityDisplay": _reliability,
    "RiskCoverageDisplay": _risk_coverage,
    "ThresholdCurveDisplay": _threshold_curve,
}


def test_every_display_has_a_drawing_check():
    assert set(CHECKS) == set(DISPLAYS)


@pytest.mark.parametrize("name", DISPLAYS)
def test_what_is_drawn_is_the_constructor_data(name):
    """And drawing changes none of matplotlib's settings (the tests' order cannot depend
    on a Display: tests/conftest.py restores them after peers that do change them)."""
    before = dict(dict.items(matplotlib.rcParams))
    CHECKS[name]()
    after = dict(dict.items(matplotlib.rcParams))
    assert {key for key in before if before[key] != after[key]} == set()
