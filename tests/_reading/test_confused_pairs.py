"""The most-confused class pairs: a ranked table of the off-diagonal cells."""

import warnings

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import sklearn_confusion_ext as sce


def _brute_force(matrix, top, normalize):
    """Every off-diagonal nonzero cell, sorted by its key, ties in row-major order."""
    matrix = np.asarray(matrix, dtype=float)
    cells = [(i, j) for i in range(len(matrix)) for j in range(len(matrix))
             if i != j and matrix[i, j] > 0]

    def key(cell):
        i, j = cell
        value = {"true": matrix[i, j] / matrix[i].sum(),
                 "pred": matrix[i, j] / matrix[:, j].sum()}.get(normalize, matrix[i, j])
        return -value

    return sorted(cells, key=key)[:top]


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_ranking_equals_a_brute_force_ranking(normalize):
    rng = np.random.default_rng(1)
    for n_classes in (2, 3, 7, 40):
        matrix = rng.integers(0, 5, (n_classes, n_classes)) * (rng.random((n_classes,) * 2) < .5)
        matrix[0, 0] += 1
        names = [f"class {k}" for k in range(n_classes)]
        for top in (1, 5, None):
            result = sce.most_confused_pairs(matrix, display_labels=names, top=top,
                                             normalize=normalize)
            expected = _brute_force(matrix, top, normalize)
            assert [(p.true, p.predicted) for p in result] == [
                (names[i], names[j]) for i, j in expected]
            for pair, (i, j) in zip(result, expected):
                assert pair.count == matrix[i, j]
                assert pair.fraction_of_true == pytest.approx(matrix[i, j] / matrix[i].sum())
                assert pair.fraction_of_predicted == pytest.approx(
                    matrix[i, j] / matrix[:, j].sum())
            off_diagonal = matrix * (1 - np.eye(n_classes))
            assert result.n_confused == np.count_nonzero(off_diagonal)
            assert result.total_confused == off_diagonal.sum()


def test_labels_and_frame():
    y_true = ["cat", "cat", "cat", "dog", "dog", "fox", "fox", "fox"]
    y_pred = ["cat", "dog", "dog", "dog", "cat", "fox", "fox", "dog"]
    labels = ["cat", "dog", "fox"]
    result = sce.most_confused_pairs(confusion_matrix(y_true, y_pred, labels=labels),
                                     display_labels=labels)
    assert len(result) == 3 and result[0].true == "cat" and result[0].predicted == "dog"
    assert "cat" in repr(result) and "<table>" in result._repr_html_()
    pandas = pytest.importorskip("pandas")
    frame = result.to_frame()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["true"]) == ["cat", "dog", "fox"]
    assert list(frame["count"]) == [2.0, 1.0, 1.0]


def test_a_perfect_matrix_has_no_pair_and_wrong_input_is_refused():
    assert len(sce.most_confused_pairs(np.diag([3, 4]))) == 0
    with pytest.raises(ValueError, match="display_labels has 2 names for 3 classes"):
        sce.most_confused_pairs(np.ones((3, 3)), display_labels=["a", "b"])
    with pytest.raises(ValueError, match="top"):
        sce.most_confused_pairs(np.ones((3, 3)), top=0)


def test_transport_matrix_of_soft_labels():
    """Any matrix of the library: the transport-based one of soft labels, "none" included."""
    y_true = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    y_pred = np.array([[0.2, 0.8, 0], [0, 1, 0], [0.5, 0, 0.5], [1, 0, 0]])
    matrix = sce.transport_confusion_matrix(y_true, y_pred)
    result = sce.most_confused_pairs(matrix, display_labels=[0, 1, 2, "none"], top=2)
    assert [(p.true, p.predicted) for p in result] == [(0, 1), (2, 0)]
    assert [p.count for p in result] == pytest.approx([0.8, 0.5])


@pytest.mark.parametrize("display", ["TransportConfusionMatrixDisplay", "MLCMDisplay"])
@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_displays_write_counts_under_normalized_values(display, normalize):
    """include_counts=True: each cell reads its normalized value over its count (an empty
    cell "0"); the counts are the matrix before normalize, in the drawn order."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y_true = ["cat"] * 5 + ["dog"] * 3 + ["fox"] * 2
    y_pred = ["cat"] * 4 + ["dog"] + ["dog"] * 2 + ["cat"] + ["fox"] * 2
    cls = getattr(sce, display)
    shown = cls.from_predictions(y_true, y_pred, normalize=normalize, include_counts=True,
                                 colorbar=False)
    plain = cls.from_predictions(y_true, y_pred, normalize=normalize, colorbar=False)
    counts = cls.from_predictions(y_true, y_pred, colorbar=False).confusion_matrix
    np.testing.assert_array_equal(shown.counts, counts)
    for (i, j), text in np.ndenumerate(shown.text_):
        value = plain.text_[i, j].get_text()
        expected = value if counts[i, j] == 0 else f"{value}\n({counts[i, j]:.0f})"
        assert text.get_text() == expected
    assert shown.text_[0, 0].get_text().endswith("\n(4)")
    # Without normalize (or counts) the values are the counts, written once.
    unnormalized = cls(counts).plot(include_counts=True, colorbar=False)
    assert unnormalized.text_[0, 0].get_text() == "4"
    assert cls.from_predictions(y_true, y_pred, include_counts=True,
                                colorbar=False).text_[0, 0].get_text() == "4"
    plt.close("all")


def test_cells_near_the_float64_maximum_keep_their_fractions():
    # the row and column totals overflowed: fractions of 0, NumPy's overflow warnings, and
    # total_confused refused under its own name, an internal one
    matrix = np.array([[1e308, 5e307, 0.0], [1e307, 1.7e308, 1.0], [1.0, 1.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = sce.most_confused_pairs(matrix, top=None)
    scaled = sce.most_confused_pairs(matrix / 2.0 ** 1000, top=None)
    np.testing.assert_array_equal(result.fraction_of_true, scaled.fraction_of_true)
    np.testing.assert_array_equal(result.fraction_of_predicted, scaled.fraction_of_predicted)
    assert result[0][:3] == (0, 1, 5e307) and result[0].fraction_of_true == 5e307 / 1.5e308
    assert result.total_confused == 5e307 + 1e307 + 3.0
    tiny = sce.most_confused_pairs([[5e-324, 5e-324], [0.0, 5e-324]])
    assert tiny[0][3:] == (0.5, 0.5)


def test_errors_beyond_the_float64_range_are_refused_naming_confusion():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as caught:
            sce.most_confused_pairs([[1.0, 1e308], [1e308, 1.0]])
    message = str(caught.value)
    assert message == ("The off-diagonal cells of matrix (its errors) total beyond the "
                       "float64 range; divide matrix by a constant (the pairs' ranking and "
                       "fractions do not change).")


@pytest.mark.parametrize("names", [["a", "b", "a"], ["1", "b", 1]])
def test_repeated_class_names_are_refused_as_the_reports_refuse_them(names):
    # a "confused pair" true='a', predicted='a' was reported
    with pytest.raises(ValueError, match=r"^The pairs are keyed by class name, and "
                                         r"display_labels repeat \[('1'|'a')\]; pass "
                                         r"display_labels with distinct names\.$"):
        sce.most_confused_pairs(np.ones((3, 3)), display_labels=names)
    with pytest.raises(ValueError, match=r"^The report's rows are keyed by class name, and "
                                         r"target_names repeat"):
        sce.transport_classification_report([0, 1, 2], [0, 1, 1], target_names=names)
