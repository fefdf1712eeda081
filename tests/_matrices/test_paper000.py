"""Paper 000 (Erbani et al. 2024) beyond the TCM: SCM as centre and half-width (Tables 6c,
7c), the grid of F1 re-orderings (Figures 6-7), the cells that break the test-training
ranking and the class distributions (Section VI-A, Figure 3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import sklearn_confusion_ext as sce

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# Table 6 (DeBERTa on MPST), the five most common classes: (c) SCM^ext as printed, centre
# and half-width (0 on the diagonal), and (d) TCM^one.
TABLE_6C_CENTER = [[121.6, 32.6, 28.8, 36.7, 21.1], [24, 86.9, 23.6, 18.4, 17.3],
                   [11.8, 11.7, 46.7, 23.2, 12], [9.7, 5.5, 19, 104.1, 6.8],
                   [12.4, 8.5, 10.3, 9.8, 34.2]]
TABLE_6C_HALF = [[0, 9.3, 16.9, 12.3, 12.4], [8, 0, 14.6, 8.2, 10.5],
                 [4.8, 6.4, 0, 6.3, 7.5], [4.1, 3.2, 7, 0, 3.4],
                 [5.9, 6.8, 8.8, 5.3, 0]]
TABLE_6D = [[121.6, 29.7, 23.8, 34.3, 17], [22.1, 86.9, 19.4, 16.7, 13.7],
            [10.7, 10, 46.7, 21.6, 9.6], [8.7, 4.8, 16.9, 104.1, 5.7],
            [11.1, 6.6, 7.7, 8.4, 34.2]]
# Table 7 (SqueezeNet on MS-COCO), (c) and (d).
TABLE_7C_CENTER = [[650.3, 15.4, 16.3, 8.4, 8.3], [5.5, 59.1, 2.3, 4.4, 5.3],
                   [7.1, 1.4, 87.6, 0.8, 0.9], [2.5, 3.1, 0.6, 51.6, 3.9],
                   [2.3, 3.4, 0.5, 3.6, 32.3]]
TABLE_7C_HALF = [[0, 12.5, 10.1, 7.1, 8], [3.3, 0, 1.6, 3.6, 4.3], [4.2, 1.4, 0, 0.8, 0.9],
                 [2, 2.5, 0.6, 0, 3.8], [1.9, 3.4, 0.5, 3.3, 0]]
TABLE_7D = [[650.3, 12.1, 15, 6, 5.6], [4.8, 59.1, 2, 3.2, 3.6], [6.6, 1, 87.6, 0.6, 0.6],
            [1.9, 2.3, 0.4, 51.6, 2.5], [1.7, 2.4, 0.4, 2.7, 32.3]]


@pytest.mark.parametrize("center, half, tcm", [(TABLE_6C_CENTER, TABLE_6C_HALF, TABLE_6D),
                                               (TABLE_7C_CENTER, TABLE_7C_HALF, TABLE_7D)])
def test_printed_scm_has_the_form_the_library_returns(center, half, tcm):
    """Tables 6c/7c obey what form="center" guarantees: TCM^one inside each interval
    (Proposition 9, to the printed rounding), the diagonal exact and shared with TCM^one,
    half-widths at most the centres (lower bounds >= 0)."""
    center, half, tcm = map(np.asarray, (center, half, tcm))
    rounding = 0.1
    assert np.all(center - half <= tcm + rounding) and np.all(tcm <= center + half + rounding)
    assert np.array_equal(np.diag(half), np.zeros(5))
    assert np.array_equal(np.diag(center), np.diag(tcm))
    assert np.all(half <= center + 1e-9)
    # the TCM is not the centre of the intervals (Section IV): it sits below it here
    off = ~np.eye(5, dtype=bool)
    assert np.all(tcm[off] <= center[off] + 1e-9) and np.any(tcm[off] < center[off])


def test_display_writes_the_printed_table_6c():
    display = sce.TransportConfusionMatrixDisplay(TABLE_6C_CENTER, half_width=TABLE_6C_HALF)
    display.plot(values_format=".1f", colorbar=False)
    texts = [[text.get_text() for text in row] for row in display.text_]
    assert texts[0] == ["121.6", "32.6±9.3", "28.8±16.9", "36.7±12.3", "21.1±12.4"]
    assert texts[1][2] == "23.6±14.6"  # the entry in bold in the paper
    assert [texts[k][k] for k in range(5)] == ["121.6", "86.9", "46.7", "104.1", "34.2"]
    display.plot(colorbar=False)  # default format: shared decimals, 3 digits of 121.6
    assert display.text_[0, 1].get_text() == "33±9"


FOUR = ([[2, 1, 0, 0], [0, 3, 1, 0], [1, 1, 1, 1]], [[0, 0, 1, 2], [1, 0, 0, 1], [0, 2, 1, 1]])


def test_center_form_is_the_bounds_centre_and_half_width():
    lower, upper = sce.subpixel_confusion_matrix(*FOUR)
    center, half = sce.subpixel_confusion_matrix(*FOUR, form="center")
    np.testing.assert_allclose(center, (lower + upper) / 2)
    np.testing.assert_allclose(half, (upper - lower) / 2)
    # the first instance alone: [0, 1/3] and [1/3, 2/3] in row 0 (Appendix N, eq. 205)
    center, half = sce.subpixel_confusion_matrix(FOUR[0][:1], FOUR[1][:1], form="center",
                                                 empty="error")
    np.testing.assert_allclose(center[0], [0, 0, 1 / 6, 1 / 2])
    np.testing.assert_allclose(half[0], [0, 0, 1 / 6, 1 / 6])


masses = arrays(np.float64, (6, 4), elements=st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(masses, masses, st.sampled_from(["uniform", "true", "pred"]))
def test_tcm_lies_in_the_centre_form_intervals(y_true, y_pred, weighting):
    """Proposition 9 through the centre form: |TCM - centre| <= half-width <= centre."""
    y_true[:, 0] += 1.0  # no empty row
    y_pred[:, 1] += 1.0
    tcm = sce.transport_confusion_matrix(y_true, y_pred, weighting=weighting)
    center, half = sce.subpixel_confusion_matrix(y_true, y_pred, weighting=weighting,
                                                 form="center")
    assert np.all(np.abs(tcm - center) <= half + 1e-9)
    assert np.all(half <= center + 1e-12) and np.all(half >= 0)
    np.testing.assert_allclose(np.diag(half), 0, atol=1e-12)


def test_display_draws_the_subpixel_matrix_normalized_by_the_transport_sums():
    display = sce.TransportConfusionMatrixDisplay.from_predictions(
        *FOUR, subpixel=True, normalize="true", empty="error")
    tcm = sce.transport_confusion_matrix(*FOUR, empty="error")
    center, half = sce.subpixel_confusion_matrix(*FOUR, form="center", empty="error")
    rows = tcm.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(display.confusion_matrix, center / rows)
    np.testing.assert_allclose(display.half_width, half / rows)
    assert display.ax_.get_title().startswith("Sub-pixel confusion matrix\n(centre ± half")
    plain = sce.TransportConfusionMatrixDisplay.from_predictions(*FOUR, empty="error")
    assert plain.half_width is None and "±" not in plain.text_[0, 2].get_text()


def test_display_subpixel_follows_the_test_training_order():
    y_test, y_pred = FOUR
    display = sce.TransportConfusionMatrixDisplay.from_predictions(
        y_test, y_pred, subpixel=True, order="test-training", y_train=[[0, 0, 0, 1]] * 3,
        empty="error")
    center, half = sce.subpixel_confusion_matrix(y_test, y_pred, form="center",
                                                 empty="error")
    rows, columns = sce.prevalence_ranking(y_test, [[0, 0, 0, 1]] * 3)
    np.testing.assert_allclose(display.half_width, half[np.ix_(rows, columns)])
    np.testing.assert_allclose(display.confusion_matrix, center[np.ix_(rows, columns)])


def test_half_width_must_match_the_matrix():
    with pytest.raises(ValueError, match="half_width"):  # refused when the display is made
        sce.TransportConfusionMatrixDisplay([[1.0, 2.0], [3.0, 4.0]], half_width=[1.0])


# --- Figures 6-7: the grid -------------------------------------------------------------------

A = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
B = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
C = [[6, 3, 1], [2, 6, 2], [1, 1, 8]]


def test_grid_panels_are_f1_of_row_matrix_ranked_by_column_matrix():
    display = sce.RankingComparisonDisplay.from_confusion(
        [A, B, C], models=["a", "b", "c"], display_labels=["x", "y", "z"])
    assert display.axes_.shape == (3, 3)
    for i, first in enumerate((A, B, C)):
        for j, second in enumerate((A, B, C)):
            panel = display.axes_[i, j]
            heights = [bar.get_height() for bar in panel.patches]
            order = np.argsort(-display.f1_scores[j], kind="stable")
            np.testing.assert_allclose(heights, display.f1_scores[i][order])
            assert [t.get_text() for t in panel.get_xticklabels()] == \
                [["x", "y", "z"][k] for k in order]
            delta = sce.f1_ranking_disorder(first, second)
            assert display.deltas[i, j] == pytest.approx(delta)
            texts = [text.get_text() for text in panel.texts]
            assert texts == ([] if i == j else [f"Δ = {delta:.1f}"])
    assert display.axes_[0, 2].get_title() == "ranked by c"
    assert display.axes_[1, 0].get_ylabel() == "F1 of b"
    # Diagonal panels are sorted (Delta(M, M) = 0).
    for k in range(3):
        heights = [bar.get_height() for bar in display.axes_[k, k].patches]
        assert heights == sorted(heights, reverse=True)


def test_grid_of_f1_scores_matches_scikit_learn():
    from sklearn.metrics import f1_score

    y_true = [0, 1, 2, 2, 1, 0, 2, 1, 0, 0]
    predictions = [[0, 2, 2, 1, 1, 0, 2, 0, 0, 1], [0, 1, 2, 0, 1, 0, 1, 1, 2, 0]]
    matrices = {f"m{k}": sce.transport_confusion_matrix(y_true, y_pred)
                for k, y_pred in enumerate(predictions)}
    display = sce.RankingComparisonDisplay.from_confusion(matrices)
    for k, y_pred in enumerate(predictions):
        np.testing.assert_allclose(display.f1_scores[k], f1_score(y_true, y_pred, average=None))
    assert display.models == ("m0", "m1")


def test_grid_refuses_bad_inputs():
    with pytest.raises(ValueError, match="at least two"):
        sce.RankingComparisonDisplay.from_confusion([A])
    with pytest.raises(ValueError, match="same classes"):
        sce.RankingComparisonDisplay.from_confusion([A, [[1, 0], [0, 1]]])
    with pytest.raises(ValueError, match="keys"):
        sce.RankingComparisonDisplay.from_confusion({"a": A, "b": B}, models=["x", "y"])
    with pytest.raises(ValueError, match="9 panel"):
        sce.RankingComparisonDisplay.from_confusion(
            [A, B, C], ax=plt.subplots(1, 2)[1])
    with pytest.raises(ValueError, match="at least two matrices"):
        sce.RankingComparisonDisplay([0.5, 0.2])


def test_two_f1_vectors_keep_the_pair_layout():
    display = sce.RankingComparisonDisplay([0.9, 0.5, 0.7], [0.8, 0.6, 0.4]).plot()
    assert display.axes_.shape == (2,) and display.models == ("A", "B")


def test_many_classes_grid_has_no_names():
    rng = np.random.default_rng(0)
    matrices = [rng.integers(0, 20, (40, 40)) + np.diag(rng.integers(20, 90, 40))
                for _ in range(4)]
    display = sce.RankingComparisonDisplay.from_confusion(matrices)
    assert display.axes_[0, 1].get_xticklabels() == []
    assert display.figure_.get_size_inches()[0] <= 14


# --- Section VI-A: breaks of the test-training ranking ---------------------------------------


def test_a_matrix_following_the_ranking_has_no_breaks():
    matrix = [[90, 20, 10, 5], [15, 60, 8, 4], [9, 7, 40, 3], [4, 3, 2, 20]]
    cells, previous = sce.prevalence_ranking_breaks(matrix)
    assert cells.shape == previous.shape == (0, 2)


def test_breaks_follow_the_rule_of_section_vi_a():
    """Diagonal entry i+1 above entry i; an off-diagonal entry above its left or upper
    neighbour, diagonal entries skipped."""
    matrix = np.array([[90, 20, 10, 5], [15, 60, 8, 4], [9, 7, 40, 3], [4, 3, 2, 20]])
    matrix[3, 3] = 45  # diagonal: above 40
    matrix[2, 1] = 18  # below (0, 1) = 20 (the diagonal (1, 1) is skipped), above (2, 0)
    matrix[1, 3] = 9  # above (1, 2) = 8 on its left and (0, 3) = 5 above
    matrix[3, 0] = 30  # above (2, 0) = 9 above it
    cells, previous = sce.prevalence_ranking_breaks(matrix)
    found = sorted(zip(map(tuple, cells.tolist()), map(tuple, previous.tolist())))
    assert found == sorted([((3, 3), (2, 2)), ((1, 3), (1, 2)), ((1, 3), (0, 3)),
                            ((3, 0), (2, 0)), ((2, 1), (2, 0))])


def test_breaks_are_read_in_the_ranked_order():
    """Ranking by prevalence then reading the breaks equals reading the reordered matrix,
    with positions mapped back."""
    rng = np.random.default_rng(1)
    matrix = rng.integers(0, 30, (5, 5))
    rows, columns = rng.permutation(5), rng.permutation(5)
    cells, previous = sce.prevalence_ranking_breaks(matrix, row_order=rows,
                                                    column_order=columns)
    assert len(cells)
    for (i, j), (k, m) in zip(cells, previous):
        assert matrix[i, j] > matrix[k, m]
        if i == j:  # a diagonal cell after the diagonal cell of the previous row
            assert k == m and list(rows).index(k) == list(rows).index(i) - 1
        else:
            assert (i == k) != (j == m)  # same row or same column
            assert k != m  # the neighbour is off-diagonal
    # the identity order is the default, and column order defaults to the row order
    np.testing.assert_array_equal(sce.prevalence_ranking_breaks(matrix)[0],
                                  sce.prevalence_ranking_breaks(matrix, row_order=range(5),
                                                                column_order=range(5))[0])


def test_breaks_of_table_8a_are_those_the_paper_reads():
    """Table 8 (a) (EXIST, TCM with lambda = 1), classes already in test-training order.
    Section IX-A: "many entries in row or column C5 do not follow the test-training
    ranking" (C1C5, C3C5, C6C5 in its column, C5C3 in its row) and "when C4 is
    underestimated, C2 and C3 are overestimated" (C4C2, C4C3)."""
    table_8a = [[198, 17, 14, 9, 10, 6], [15, 32, 3, 3, 3, 2], [13, 2, 36, 2, 3, 2],
                [13, 5, 4, 25, 2, 2], [12, 3, 4, 2, 17, 2], [5, 2, 2, 1, 2, 16]]
    cells, previous = sce.prevalence_ranking_breaks(table_8a)
    assert cells.tolist() == [[0, 4], [2, 2], [2, 4], [3, 1], [3, 2], [4, 2], [5, 4]]
    assert previous.tolist() == [[0, 3], [1, 1], [2, 3], [2, 1], [1, 2], [4, 1], [5, 3]]
    involving = np.bincount(cells[cells[:, 0] != cells[:, 1]].ravel(), minlength=6)
    assert involving.argmax() == 4  # C5


def test_breaks_refuse_an_order_that_is_no_permutation():
    with pytest.raises(ValueError, match="permutation"):
        sce.prevalence_ranking_breaks(np.eye(3), row_order=[0, 0, 1])


# --- Figure 3: class distributions -----------------------------------------------------------


def test_class_distribution_shares_of_every_kind():
    display = sce.ClassDistributionDisplay.from_labels(
        [[1, 1, 0], [0, 1, 0], [0, 0, 1]], [[1, 0, 0], [1, 0, 1]], order=None)
    np.testing.assert_allclose(display.test_prevalence, [0.25, 0.5, 0.25])
    np.testing.assert_allclose(display.training_prevalence, [2 / 3, 0, 1 / 3])
    heights = [bar.get_height() for bar in display.bars_["training"]]
    np.testing.assert_allclose(heights, [2 / 3, 0, 1 / 3])
    soft = sce.ClassDistributionDisplay.from_labels([[6, 0], [3, 3]], order="test")
    np.testing.assert_allclose(soft.test_prevalence, [0.75, 0.25])
    assert soft.training_prevalence is None and list(soft.bars_) == ["test"]
    labels = sce.ClassDistributionDisplay.from_labels(["a", "b", "b"], ["b", "a", "a", "a"])
    np.testing.assert_allclose(labels.test_prevalence, sce.prevalence(["a", "b", "b"]))
    assert [t.get_text() for t in labels.ax_.get_xticklabels()] == ["a", "b"]


def test_class_distribution_order_is_the_ranking_columns():
    y_test, y_train = ["a", "b", "b", "c"], ["c", "c", "a", "b", "c"]
    rows, columns = sce.prevalence_ranking(y_test, y_train)
    classes = np.array(["a", "b", "c"])
    for order, expected in (("training", columns), ("test", rows)):
        display = sce.ClassDistributionDisplay.from_labels(y_test, y_train, order=order)
        assert [t.get_text() for t in display.ax_.get_xticklabels()] == \
            classes[expected].tolist()


def test_class_distribution_many_classes_lie():
    rng = np.random.default_rng(0)
    y_test, y_train = rng.integers(0, 40, 500), rng.integers(0, 40, 2000)
    display = sce.ClassDistributionDisplay.from_labels(y_test, y_train)
    assert display.ax_.get_yticklabels()  # names beside lying bars
    widths = [bar.get_width() for bar in display.bars_["training"]]
    assert widths == sorted(widths, reverse=True)
    with pytest.raises(ValueError, match="one share per class"):
        sce.ClassDistributionDisplay([0.5, 0.5], [1.0])
    with pytest.raises(ValueError, match="no label"):
        sce.ClassDistributionDisplay.from_labels([[0, 0], [0, 0]])
