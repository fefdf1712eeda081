"""The posterior of a row on the triangle (Barranco-Chamorro and Carrillo-Garcia 2021,
Figures 1-3)."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import confusion_matrix

from sklearn_confusion_ext import PosteriorSimplexDisplay, dirichlet_posterior

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

IBD = np.array([[37, 1, 15], [6, 19, 26], [15, 3, 77]])
IBD_NAMES = ["nonIBD", "UC", "CD"]
LAND_USE = np.array([[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]])
LAND_USE_NAMES = ["FallenLeaf", "Conifers", "Agricultural", "Scrub"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _mass_of_regions(display, k, seed=1, size=200_000):
    """The posterior mass of each region drawn in panel ``k``, from independent draws."""
    alpha = display.alpha[k]
    draws = np.random.default_rng(seed).dirichlet(alpha, size)
    log_density = stats.dirichlet.logpdf(draws.T, alpha)
    return np.array([(log_density >= t).mean() for t in display.log_density_levels_[k]])


def test_figures_1_to_3_ibd_with_the_uniform_prior():
    display = PosteriorSimplexDisplay.from_confusion(IBD, display_labels=IBD_NAMES)
    assert [ax.get_title() for ax in display.axes_] == [f"actual {n}" for n in IBD_NAMES]
    np.testing.assert_array_equal(display.alpha, IBD + 1)
    assert display.column_labels == IBD_NAMES
    # The modes the paper prints beside Figures 1-3 (Section 5.3.2); Figure 3's last
    # coordinate, 77 / 95 = 0.810526, is printed 0.8106.
    printed_modes = [[0.6981, 0.0189, 0.2830], [0.1176, 0.3725, 0.5098],
                     [0.1579, 0.0316, 0.8106]]
    np.testing.assert_allclose(display.mode_, printed_modes, atol=1.1e-4)
    # Tables 27-29: the posterior means.
    np.testing.assert_allclose(display.mean_, [[0.6785714, 0.0357143, 0.2857143],
                                               [0.1296296, 0.3703704, 0.5000000],
                                               [0.1632653, 0.0408163, 0.7959184]],
                               atol=1e-7)
    # Figure 2: the densest region lies nearer the CD vertex than the UC vertex.
    assert display.mode_[1, 2] > display.mode_[1, 1]
    for k in range(3):
        np.testing.assert_allclose(_mass_of_regions(display, k), display.levels_, atol=0.006)
        # The mode is in the densest region drawn.
        assert stats.dirichlet.logpdf(display.mode_[k], display.alpha[k]) \
            >= display.log_density_levels_[k, 0]


def test_the_regions_drawn_are_the_contours_at_those_levels():
    display = PosteriorSimplexDisplay.from_confusion(IBD, rows=["UC"], levels=[0.5, 0.9],
                                                     display_labels=IBD_NAMES)
    (contour,) = display.contours_
    assert len(contour.levels) == 3  # two bands and the top
    np.testing.assert_allclose(contour.levels[:2], display.log_density_levels_[0][::-1])
    np.testing.assert_allclose(_mass_of_regions(display, 0), [0.5, 0.9], atol=0.006)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(0.3, 60), min_size=3, max_size=3),
       st.lists(st.floats(0.05, 0.99), min_size=1, max_size=3, unique=True))
def test_regions_hold_their_mass(alpha, levels):
    assume(alpha != [1.0, 1.0, 1.0])  # the uniform density has no highest-density region
    display = PosteriorSimplexDisplay([alpha]).plot(levels=levels)
    np.testing.assert_array_equal(display.levels_, np.sort(levels))
    assert (np.diff(display.log_density_levels_[0]) < 0).all()  # nested: denser inside
    np.testing.assert_allclose(_mass_of_regions(display, 0, size=100_000), display.levels_,
                               atol=0.012)


def test_more_than_three_classes_merge_the_others_into_one_vertex():
    with pytest.raises(ValueError, match=r"pass classes=\[a, b\]"):
        PosteriorSimplexDisplay.from_confusion(LAND_USE)
    with pytest.raises(ValueError, match="Name two classes"):
        PosteriorSimplexDisplay.from_confusion(LAND_USE, classes=[0, 1, 2])
    display = PosteriorSimplexDisplay.from_confusion(
        LAND_USE, classes=["FallenLeaf", "Scrub"], display_labels=LAND_USE_NAMES,
        prior="perks")
    assert display.column_labels == ["FallenLeaf", "Scrub", "other classes"]
    assert [ax.get_title() for ax in display.axes_] == ["actual FallenLeaf", "actual Scrub"]
    # The aggregation property: the merged vertex's parameter is the sum of the others',
    # so its mean is the sum of the posterior means of the merged classes.
    posterior = dirichlet_posterior(LAND_USE, prior="perks")
    mean = posterior.mean()[[0, 3]]
    np.testing.assert_allclose(display.mean_, np.column_stack(
        [mean[:, 0], mean[:, 3], mean[:, 1] + mean[:, 2]]))
    np.testing.assert_allclose(display.alpha, [[65.25, 4.25, 6.5], [24.25, 90.25, 27.5]])


def test_two_of_three_classes_and_their_order():
    display = PosteriorSimplexDisplay.from_confusion(IBD, classes=["CD", "nonIBD"],
                                                     display_labels=IBD_NAMES)
    assert display.column_labels == ["CD", "nonIBD", "UC"]  # the third is the one left
    np.testing.assert_array_equal(display.alpha[0], [78, 16, 4])  # actual CD first
    with pytest.raises(ValueError, match="Beta distribution"):
        PosteriorSimplexDisplay.from_confusion([[5, 1], [2, 6]])
    with pytest.raises(ValueError, match="two or three different"):
        PosteriorSimplexDisplay.from_confusion(IBD, classes=[0, 0])
    with pytest.raises(ValueError, match="classes names classes by position"):
        PosteriorSimplexDisplay.from_confusion(IBD, classes=[0, 5])
    with pytest.raises(ValueError, match="rows names the actual classes"):
        PosteriorSimplexDisplay.from_confusion(IBD, rows=["cat"])


def test_from_predictions_equals_from_confusion():
    rng = np.random.default_rng(0)
    y_true = rng.choice(["cat", "dog", "fox"], 200)
    y_pred = np.where(rng.random(200) < 0.7, y_true, rng.choice(["cat", "dog", "fox"], 200))
    weights = rng.integers(1, 4, 200)
    display = PosteriorSimplexDisplay.from_predictions(y_true, y_pred, sample_weight=weights,
                                                       prior=0.5)
    counts = confusion_matrix(y_true, y_pred, sample_weight=weights)
    expected = PosteriorSimplexDisplay.from_confusion(counts, prior=0.5,
                                                      display_labels=["cat", "dog", "fox"])
    np.testing.assert_array_equal(display.alpha, expected.alpha)
    assert display.column_labels == expected.column_labels == ["cat", "dog", "fox"]
    display = PosteriorSimplexDisplay.from_predictions(y_true, y_pred,
                                                       labels=["fox", "cat", "dog"])
    assert display.column_labels == ["fox", "cat", "dog"]


def test_axes_figures_and_bad_levels():
    display = PosteriorSimplexDisplay([[3, 2, 5], [1, 1, 1]], display_labels=["a", "b"])
    fig, axes = plt.subplots(1, 2)
    assert display.plot(ax=axes).figure_ is fig
    with pytest.raises(ValueError, match="ax holds 3 Axes but this display draws 2"):
        display.plot(ax=plt.subplots(1, 3)[1])
    fig = plt.figure()
    assert len(display.plot(ax=fig).axes_) == 2
    with pytest.raises(ValueError, match=r"in \(0, 1\)"):
        display.plot(levels=[0.5, 1.0])
    with pytest.raises(ValueError, match="different masses"):
        display.plot(levels=[0.5, 0.5])
    with pytest.raises(ValueError, match="display_labels has 2 names for 1"):
        PosteriorSimplexDisplay([[3, 2, 5]], display_labels=["a", "b"]).plot()
    with pytest.raises(ValueError, match="shape"):
        PosteriorSimplexDisplay([[3, 2, 5, 1]])
    with pytest.raises(ValueError, match="positive"):
        PosteriorSimplexDisplay([[3, 0, 5]])
    # The uniform density has no denser region: said on the panel.
    flat = display.plot(ax=plt.figure())
    assert any("uniform density" in text.get_text() for text in flat.axes_[1].texts)


@pytest.mark.parametrize("alpha", [[1e-8, 1e-8, 1e-8], [0.2, 0.5, 0.9], [1e6, 2e5, 3e5],
                                   [1e-300, 2.0, 3.0]])
def test_extreme_parameters_draw_finite_levels(alpha):
    display = PosteriorSimplexDisplay([alpha]).plot()
    assert np.isfinite(display.log_density_levels_).all()
    assert np.isfinite(display.mean_).all() and np.isfinite(display.mode_).all()


def test_many_panels_wrap_and_the_figure_stays_readable():
    counts = np.eye(3) * 20 + 2
    display = PosteriorSimplexDisplay.from_confusion(counts, rows=[0, 1, 2, 0, 1])
    assert len(display.axes_) == 5
    width, height = display.figure_.get_size_inches()
    assert width <= 12 and height <= 10
    assert len(display.figure_.axes) == 5  # the unused place of the second line removed


def test_long_class_names_stay_within_their_panel():
    names = ["Ulcerative colitis of the distal colon", "Crohn's disease, ileal type",
             "control group without inflammatory bowel disease"]
    display = PosteriorSimplexDisplay.from_confusion(IBD, display_labels=names)
    display.figure_.canvas.draw()  # the constrained layout places the panels
    renderer = display.figure_.canvas.get_renderer()
    boxes = [ax.get_window_extent(renderer) for ax in display.axes_]
    for ax, box in zip(display.axes_, boxes):
        for text in ax.texts:
            extent = text.get_window_extent(renderer)
            assert box.x0 - 1 <= extent.x0 and extent.x1 <= box.x1 + 1, text.get_text()
            assert len(text.get_text().split("\n")[0]) <= 40
        corners = {text.get_text(): text.get_window_extent(renderer) for text in ax.texts}
        left, right = corners["Ulcerative…tal colon"], corners["Crohn's di…leal type"]
        assert left.x1 < right.x0 or left.y1 < right.y0  # the corner names do not overlap
    assert all(a.x1 <= b.x0 for a, b in zip(boxes, boxes[1:]))  # panels side by side


def test_the_caption_names_the_classes_of_its_numbers(tmp_path):
    display = PosteriorSimplexDisplay.from_confusion(IBD, display_labels=IBD_NAMES)
    display.figure_.savefig(tmp_path / "simplex.png", dpi=50)
    for k, ax in enumerate(display.axes_):
        caption = [text.get_text() for text in ax.texts if "mean" in text.get_text()]
        assert len(caption) == 1
        lines = caption[0].split("\n")
        assert lines[0].split() == ["mean", "mode"]
        for name, line, mean, mode in zip(IBD_NAMES, lines[1:], display.mean_[k],
                                          display.mode_[k]):
            assert line.split() == [name, f"{mean:.3f}", f"{mode:.3f}"]
    # Forty classes, two at the corners: the third corner is the others', named so.
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 5, (40, 40)) + np.diag(rng.integers(20, 60, 40))
    names = [f"class {k}" for k in range(40)]
    display = PosteriorSimplexDisplay.from_confusion(counts, display_labels=names,
                                                     classes=[names[3], names[7]])
    display.figure_.savefig(tmp_path / "simplex_40.png", dpi=50)
    caption = [text.get_text() for text in display.axes_[0].texts
               if "mean" in text.get_text()][0]
    assert [line.split()[:-2] for line in caption.split("\n")[1:]] == [
        ["class", "3"], ["class", "7"], ["other", "classes"]]


def test_multilabel_targets_read_the_transport_matrix():
    y_true = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]
    y_pred = [[1, 0, 0], [0, 0, 1], [0, 0, 1], [1, 0, 0]]
    display = PosteriorSimplexDisplay.from_predictions(y_true, y_pred, prior=1.0)
    # Every instance has a class: no none class, the three classes at the corners.
    np.testing.assert_allclose(display.alpha, [[2.5, 1, 1], [1.5, 1, 2], [1, 1, 2]])
    # An instance without a true class makes the none class a fourth class.
    with pytest.raises(ValueError, match="the matrix has 4"):
        PosteriorSimplexDisplay.from_predictions([[1, 0, 0], [0, 0, 0]],
                                                 [[1, 0, 0], [0, 1, 0]])
