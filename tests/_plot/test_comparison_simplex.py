"""ComparisonSimplexDisplay: the posteriors of the Bayesian comparisons over data sets
(signed-rank and hierarchical tests) drawn on the triangle of their three masses."""

import io
import re
import tracemalloc
import warnings

import numpy as np
import pytest

import sklearn_confusion_ext as sce

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The corners as documented: a better at the bottom left, practically equivalent at the
# top, b better at the bottom right, of an equilateral triangle of side 1.
A, ROPE, B = np.array([0.0, 0.0]), np.array([0.5, np.sqrt(3) / 2]), np.array([1.0, 0.0])
# Demsar's AUC of two variants of C4.5 on 14 data sets (JMLR 2006, Table 6).
M_CF = [0.798, 0.569, 0.967, 0.657, 0.898, 0.931, 0.685, 0.625, 0.875, 1.0, 0.962, 0.669,
        0.975, 0.970]
M = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1.0, 0.962, 0.666, 0.981,
     0.978]


def fold_tables(shift=0.02, seed=0):
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.6, 0.9, (6, 1)) + rng.normal(0, 0.02, (6, 10))
    return b + rng.normal(shift, 0.01, (6, 1)) + rng.normal(0, 0.01, (6, 10)), b


HIERARCHICAL = dict(method="hierarchical", n_train=9, n_test=1, n_draws=300, burn_in=300)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def offsets(display):
    return np.asarray(display.scatter_.get_offsets(), dtype=float)


def written(display):
    """The probabilities written at the three corners (NaN where none is written)."""
    found = [re.search(r"P = (\d\.\d{3})", text.get_text()) for text in display.text_]
    return [float(match.group(1)) if match else np.nan for match in found]


# --- Geometry ---------------------------------------------------------------------------


def test_corners_and_centroid():
    """(1, 0, 0) at the a corner, (0, 1, 0) at the top, (0, 0, 1) at the b corner and
    (1/3, 1/3, 1/3) at the centroid of the equilateral triangle."""
    samples = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1 / 3, 1 / 3, 1 / 3]]
    display = sce.ComparisonSimplexDisplay(samples, rope=0.01).plot()
    np.testing.assert_allclose(offsets(display), [A, ROPE, B, (A + ROPE + B) / 3],
                               atol=1e-12)
    sides = [np.hypot(*(p - q)) for p, q in ((A, ROPE), (ROPE, B), (B, A))]
    np.testing.assert_allclose(sides, 1.0)


def test_points_are_the_barycentric_positions_of_the_samples():
    samples = np.random.default_rng(0).dirichlet([2.0, 1.0, 0.5], 500)
    display = sce.ComparisonSimplexDisplay(samples, rope=0.01).plot()
    expected = samples[:, :1] * A + samples[:, 1:2] * ROPE + samples[:, 2:] * B
    np.testing.assert_allclose(offsets(display), expected, atol=1e-12)
    np.testing.assert_array_equal(display.drawn_, np.arange(500))
    # Each point is colored by the region of its largest mass.
    colors = display.scatter_.get_facecolors()[:, :3]
    regions = np.argmax(samples, axis=1)
    for j in range(3):
        assert len(np.unique(colors[regions == j], axis=0)) == 1
    assert len(np.unique(colors, axis=0)) == 3


def test_region_borders_join_the_centroid_to_the_sides_midpoints():
    display = sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.01).plot()
    centroid = (A + ROPE + B) / 3
    ends = sorted(tuple(np.round(line.get_xydata()[1], 12)) for line in display.borders_)
    midpoints = sorted(tuple(np.round((p + q) / 2, 12)) for p, q in ((A, ROPE), (ROPE, B),
                                                                      (B, A)))
    assert ends == midpoints
    for line in display.borders_:
        np.testing.assert_allclose(line.get_xydata()[0], centroid, atol=1e-12)
    # On each border the two masses it separates are equal, and the largest.
    for line in display.borders_:
        middle = line.get_xydata().mean(axis=0)
        masses = np.linalg.solve(np.vstack([np.column_stack([A, ROPE, B]), np.ones(3)]),
                                 [*middle, 1])
        top = np.sort(masses)[-2:]
        assert top[0] == pytest.approx(top[1])


def test_many_samples_are_thinned_evenly_and_deterministically():
    samples = np.random.default_rng(1).dirichlet([1.0, 1.0, 1.0], 100_000)
    first = sce.ComparisonSimplexDisplay(samples, rope=0.01).plot(max_points=1000)
    again = sce.ComparisonSimplexDisplay(samples, rope=0.01).plot(max_points=1000)
    assert len(first.drawn_) == 1000
    np.testing.assert_array_equal(first.drawn_, np.arange(1000) * 100)
    np.testing.assert_array_equal(offsets(first), offsets(again))
    np.testing.assert_allclose(offsets(first), samples[first.drawn_] @ np.vstack([A, ROPE, B]),
                               atol=1e-12)
    # The probabilities are those of all the samples, not of the points drawn.
    shares = np.bincount(np.argmax(samples, axis=1), minlength=3) / len(samples)
    np.testing.assert_array_equal(first.probabilities, shares)


def test_large_sample_counts_stay_small_in_memory():
    """Two million samples (48 MB): the checks and the drawing allocate a few MB, not
    copies of the samples."""
    samples = np.random.default_rng(2).dirichlet([3.0, 2.0, 1.0], 2_000_000)
    tracemalloc.start()
    try:
        display = sce.ComparisonSimplexDisplay(samples, rope=0.01).plot()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert display.samples is samples
    assert len(display.drawn_) == 3000
    assert peak < samples.nbytes / 3, f"{peak / 2**20:.1f} MiB"


# --- The probabilities written ------------------------------------------------------------


def test_probabilities_written_are_the_results():
    result = sce.bayesian_signed_rank_test(M_CF, M, rope=0.01, random_state=0,
                                           models=("C4.5+m+cf", "C4.5+m"))
    display = sce.ComparisonSimplexDisplay.from_result(result)
    expected = [result.p_a_better, result.p_rope, result.p_b_better]
    assert written(display) == [float(f"{p:.3f}") for p in expected]
    np.testing.assert_array_equal(display.probabilities, expected)
    assert display.text_[0].get_text().startswith("C4.5+m+cf better")
    assert display.text_[1].get_text().startswith("practically equivalent")
    assert "rope ±0.01" in display.text_[1].get_text()
    assert display.text_[2].get_text().startswith("C4.5+m better")
    # Computed from the samples by default: the test's own shares.
    np.testing.assert_array_equal(sce.ComparisonSimplexDisplay(result.samples,
                                                               rope=0.01).probabilities,
                                  expected)


def test_probabilities_are_written_for_reading():
    display = sce.ComparisonSimplexDisplay([[0.5, 0.3, 0.2]], probabilities=[0.9996, 0.0004, 0],
                                           rope=0.01).plot()
    assert [text.get_text().splitlines()[-1] for text in display.text_] == [
        "P > 0.999", "P < 0.001", "P = 0.000"]


@pytest.mark.parametrize("test", ["signed_rank", "hierarchical"])
def test_from_result_equals_from_scores_with_the_same_seed(test):
    if test == "signed_rank":
        scores, keywords = (M_CF, M), {"n_draws": 5000}
        result = sce.bayesian_signed_rank_test(*scores, rope=0.01, random_state=3, **keywords)
    else:
        scores = fold_tables()
        keywords = {k: v for k, v in HIERARCHICAL.items() if k != "method"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a short chain may not mix
            result = sce.bayesian_hierarchical_test(*scores, rope=0.01, random_state=3,
                                                    **keywords)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        built = sce.ComparisonSimplexDisplay.from_scores(*scores, method=test, rope=0.01,
                                                         random_state=3, **keywords)
    drawn = sce.ComparisonSimplexDisplay.from_result(result)
    np.testing.assert_array_equal(built.result_.samples, result.samples)
    np.testing.assert_array_equal(built.probabilities, drawn.probabilities)
    np.testing.assert_array_equal(offsets(built), offsets(drawn))
    assert [t.get_text() for t in built.text_] == [t.get_text() for t in drawn.text_]
    assert built.ax_.get_title() == drawn.ax_.get_title()
    assert drawn.result_ is result
    assert drawn.ax_.get_title().startswith(
        {"signed_rank": "Bayesian signed-rank test", "hierarchical":
         "Bayesian hierarchical test"}[test])


def test_from_scores_forwards_the_tests_parameters():
    display = sce.ComparisonSimplexDisplay.from_scores(
        M_CF, M, rope=0.02, prior_strength=1.0, n_draws=1000, greater_is_better=False,
        random_state=0, models=("x", "y"))
    expected = sce.bayesian_signed_rank_test(M_CF, M, rope=0.02, prior_strength=1.0,
                                             n_draws=1000, greater_is_better=False,
                                             random_state=0, models=("x", "y"))
    np.testing.assert_array_equal(display.result_.samples, expected.samples)
    assert display.result_.prior_strength == 1.0 and display.models == ("x", "y")
    assert display.rope == 0.02
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        folds = sce.ComparisonSimplexDisplay.from_scores(*fold_tables(), rope=0.01,
                                                         n_chains=2, random_state=0,
                                                         **HIERARCHICAL)
    assert folds.result_.n_chains == 2 and folds.result_.n_draws == 300
    assert folds.result_.burn_in == 300 and folds.result_.samples.shape == (600, 3)


def test_a_parameter_of_the_other_test_warns_and_is_not_used():
    with pytest.warns(UserWarning, match=r"n_train is a parameter of the other test, not of "
                                         r"method='signed_rank'"):
        display = sce.ComparisonSimplexDisplay.from_scores(M_CF, M, n_train=9, n_draws=500,
                                                           random_state=0)
    plain = sce.bayesian_signed_rank_test(M_CF, M, n_draws=500, random_state=0)
    np.testing.assert_array_equal(display.result_.samples, plain.samples)
    with pytest.warns(UserWarning, match="prior_strength"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sce.ComparisonSimplexDisplay.from_scores(*fold_tables(), prior_strength=1.0,
                                                 random_state=0, **HIERARCHICAL)


# --- No rope ------------------------------------------------------------------------------


@pytest.mark.parametrize("test", ["signed_rank", "hierarchical"])
def test_rope_zero_greys_the_equivalence_region(test):
    scores = (M_CF, M) if test == "signed_rank" else fold_tables(shift=0.0)
    keywords = {"n_draws": 2000} if test == "signed_rank" else HIERARCHICAL
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        display = sce.ComparisonSimplexDisplay.from_scores(*scores, random_state=0,
                                                           **keywords)
    assert display.rope == 0 and display.probabilities[1] == 0
    np.testing.assert_allclose(offsets(display)[:, 1], 0, atol=1e-9)  # the bottom side
    assert "no rope" in display.text_[1].get_text() and np.isnan(written(display)[1])
    assert display.regions_[1].get_hatch() == "///"
    assert display.regions_[0].get_hatch() is None and display.regions_[2].get_hatch() is None
    assert written(display)[0] + written(display)[2] == pytest.approx(1, abs=0.0015)


def test_rope_zero_with_mass_on_equivalence_is_refused():
    with pytest.raises(ValueError, match=r"samples put mass on practical equivalence.*rope is 0"):
        sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]])
    with pytest.raises(ValueError, match=r"probabilities give practical equivalence.*rope is 0"):
        sce.ComparisonSimplexDisplay([[0.5, 0.0, 0.5]], probabilities=[0.5, 0.1, 0.4])


# --- Errors, before any work ------------------------------------------------------------


@pytest.mark.parametrize("value", [1.5, "result", None])
def test_from_result_refuses_anything_but_the_two_results(value):
    before = plt.get_fignums()
    with pytest.raises(TypeError, match=r"'result' parameter of ComparisonSimplexDisplay"
                                        r"\.from_result must be a BayesianSignedRankResult or "
                                        r"BayesianHierarchicalResult.*; got") as caught:
        sce.ComparisonSimplexDisplay.from_result(value)
    assert repr(value) in str(caught.value)
    assert plt.get_fignums() == before


def test_from_result_refuses_the_correlated_t_test():
    correlated = sce.compare_cv_scores([0.9, 0.8, 0.85, 0.95], [0.8, 0.82, 0.8, 0.9],
                                       method="bayesian", n_train=3, n_test=1)
    with pytest.raises(TypeError, match=r"'result' parameter.*BayesianCorrelatedTTestResult"):
        sce.ComparisonSimplexDisplay.from_result(correlated)


@pytest.mark.parametrize("call, error, says", [
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.5]]), ValueError,
     r"samples must hold the three masses.*shape \(1, 2\)"),
    (lambda: sce.ComparisonSimplexDisplay([0.5, 0.2, 0.3]), ValueError,
     r"samples must be a 2-D array"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3], [0.6, 0.2, 0.3]], rope=0.1),
     ValueError, r"samples must hold masses summing to 1.*row 1 sums to 1\.1"),
    (lambda: sce.ComparisonSimplexDisplay([[1.2, 0.0, -0.2]]), ValueError,
     r"samples must hold non-negative masses; got -0\.2 at \(0, 2\)"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.1,
                                          probabilities=[0.5, 0.5]), ValueError,
     r"probabilities must hold \(p_a_better, p_rope, p_b_better\); got 2"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.1,
                                          probabilities=[0.5, 0.3, 0.3]), ValueError,
     r"probabilities must sum to 1.*\[0\.5, 0\.3, 0\.3\]"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.1,
                                          probabilities=[1.2, 0.0, 0.0]), ValueError,
     r"probabilities must hold probabilities of at most 1"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=-0.1), ValueError,
     r"'rope' parameter of ComparisonSimplexDisplay"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.1, models=("a",)),
     ValueError, r"models must name the two models; got 1"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.1).plot(max_points=0),
     ValueError, r"'max_points' parameter of ComparisonSimplexDisplay\.plot.*got 0"),
    (lambda: sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.1).plot(ax="ax"),
     TypeError, r"'ax' parameter of ComparisonSimplexDisplay\.plot must be .*Axes"),
    (lambda: sce.ComparisonSimplexDisplay.from_scores(M_CF, M, method="bayesian"), ValueError,
     r"'method' parameter of ComparisonSimplexDisplay\.from_scores must be one of "
     r"\{'signed_rank', 'hierarchical'\}; got 'bayesian'"),
    (lambda: sce.ComparisonSimplexDisplay.from_scores(M_CF, M, n_draws=10), ValueError,
     r"'n_draws' parameter of ComparisonSimplexDisplay\.from_scores"),
    (lambda: sce.ComparisonSimplexDisplay.from_scores(M_CF, M, max_points=2.5), TypeError,
     r"'max_points' parameter of ComparisonSimplexDisplay\.from_scores"),
    (lambda: sce.ComparisonSimplexDisplay.from_scores(*fold_tables(), method="hierarchical"),
     ValueError, r"pass n_train and n_test"),
])
def test_invalid_input_is_refused_naming_the_argument_before_drawing(call, error, says):
    before = plt.get_fignums()
    with pytest.raises(error, match=says):
        call()
    assert plt.get_fignums() == before, "a figure was created before the check"


# --- What a person sees -------------------------------------------------------------------


def test_figure_is_saved_to_png_without_warnings():
    result = sce.bayesian_signed_rank_test(M_CF, M, rope=0.01, random_state=0,
                                           models=("a model of a long name, cut", "b"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        display = sce.ComparisonSimplexDisplay.from_result(result)
        buffer = io.BytesIO()
        display.figure_.savefig(buffer, format="png")
    assert buffer.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"
    # The texts stay within the figure.
    renderer = display.figure_.canvas.get_renderer()
    box = display.figure_.bbox
    for text in [*display.text_, display.ax_.title]:
        extent = text.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1, text.get_text()
        assert box.y0 <= extent.y0 and extent.y1 <= box.y1, text.get_text()
    # The two bottom corners' names do not overlap.
    left, right = (display.text_[j].get_window_extent(renderer) for j in (0, 2))
    assert left.x1 < right.x0


def test_drawn_on_a_given_axes_with_a_title_of_ones_own():
    fig, ax = plt.subplots()
    display = sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.01, models=("x", "y"))
    assert display.plot(ax=ax, title="mine") is display
    assert display.ax_ is ax and display.figure_ is fig and ax.get_title() == "mine"
    assert display.plot(ax=plt.subplots()[1], title=None).ax_.get_title() == ""
    assert sce.ComparisonSimplexDisplay([[0.5, 0.2, 0.3]], rope=0.01).plot().ax_.get_title() \
        .startswith("Posterior of the comparison")


@pytest.mark.parametrize("size", [(10, 4.5), (8, 3), (6.4, 5.6)])
def test_texts_keep_apart_on_axes_of_a_grid(size):
    """Two panels side by side: each title inside the figure and above its top corner's
    name, the captions apart (the names were placed in data units and crossed the title
    on small Axes; a title pushed up by their height left the figure)."""
    fig, axes = plt.subplots(1, 2, figsize=size, layout="constrained")
    displays = [sce.ComparisonSimplexDisplay.from_scores(M_CF, M, rope=rope, n_draws=500,
                                                         random_state=0, ax=ax)
                for rope, ax in zip((0.01, 0.0), axes)]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for display in displays:
        title = display.ax_.title.get_window_extent(renderer)
        assert fig.bbox.y0 <= title.y0 and title.y1 <= fig.bbox.y1
        assert display.text_[1].get_window_extent(renderer).y1 <= title.y0
    captions = [[text for text in display.ax_.texts if "posterior samples" in text.get_text()][0]
                .get_window_extent(renderer) for display in displays]
    assert captions[0].x1 < captions[1].x0
