"""Test-training ranking (Section VI-A) and the F1 ranking disorder (eq. 52)."""


import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import f1_ranking_disorder, prevalence_ranking


def test_prevalence_ranking_of_labels():
    y_test = ["b", "a", "b", "c", "b", "a"]
    y_train = ["c", "c", "a", "c", "b", "b", "b", "c"]
    rows, columns = prevalence_ranking(y_test, y_train)
    np.testing.assert_array_equal(rows, [1, 0, 2])  # b (3), a (2), c (1)
    np.testing.assert_array_equal(columns, [2, 1, 0])  # c (4), b (3), a (1)
    rows, columns = prevalence_ranking(y_test)
    np.testing.assert_array_equal(rows, columns)


def test_prevalence_ranking_ties_keep_label_order_and_labels_select():
    rows, _ = prevalence_ranking([2, 0, 1, 1, 0, 2])
    np.testing.assert_array_equal(rows, [0, 1, 2])
    rows, columns = prevalence_ranking([0, 1, 1, 2], [2, 2, 0], labels=[2, 1, 5])
    np.testing.assert_array_equal(rows, [1, 0, 2])  # 1 (2), 2 (1), 5 (0)
    np.testing.assert_array_equal(columns, [0, 1, 2])  # 2 (2), 1 (0), 5 (0)


def test_prevalence_ranking_of_indicator_and_soft_targets():
    y_test = np.array([[1, 0, 1], [0, 0, 1], [1, 0, 1]])
    rows, columns = prevalence_ranking(y_test, np.array([[0, 2.0, 0], [0, 0.5, 1]]))
    np.testing.assert_array_equal(rows, [2, 0, 1])
    np.testing.assert_array_equal(columns, [1, 2, 0])
    rows, _ = prevalence_ranking(y_test, labels=[1, 0])
    np.testing.assert_array_equal(rows, [1, 0])
    with pytest.raises(ValueError, match="same number of columns"):
        prevalence_ranking(y_test, np.ones((2, 4)))
    with pytest.raises(ValueError, match="pass labels= with the 3 class labels"):
        prevalence_ranking(y_test, [0, 1])


def _f1(matrix):
    matrix = np.asarray(matrix, dtype=float)
    tp = np.diag(matrix)
    return 2 * tp / (matrix.sum(axis=0) + matrix.sum(axis=1))


def test_f1_ranking_disorder_by_hand():
    a = [[8, 2, 0], [1, 5, 4], [0, 3, 7]]
    b = [[5, 2, 3], [1, 8, 1], [2, 0, 8]]
    f1_a = np.array([16 / 19, 10 / 20, 14 / 21])
    np.testing.assert_allclose(_f1(a), f1_a)
    # Ranking by b's F1 (0.556, 0.8, 0.727) is classes 1, 2, 0.
    expected = 1000 * np.abs(np.sort(f1_a)[::-1] - f1_a[[1, 2, 0]]).sum() / (3 * f1_a.sum())
    assert f1_ranking_disorder(a, b) == pytest.approx(expected)
    assert f1_ranking_disorder(a, a) == 0.0
    assert f1_ranking_disorder(b, a) != pytest.approx(f1_ranking_disorder(a, b))


def test_f1_ranking_disorder_is_zero_for_same_ranking_and_policy_for_zero_scores():
    a = np.diag([5.0, 3, 1]) + 1
    assert f1_ranking_disorder(a, 2 * a + np.eye(3)) == 0.0
    assert f1_ranking_disorder(np.ones((2, 2)) - np.eye(2), np.eye(2)) == 0.0
    with pytest.raises(ValueError, match="same shape"):
        f1_ranking_disorder(np.eye(2), np.eye(3))
    with pytest.raises(ValueError, match="matrix_a must be a square matrix"):
        f1_ranking_disorder(np.ones((2, 3)), np.eye(2))
    with pytest.raises(ValueError, match="matrix_b must hold finite non-negative"):
        f1_ranking_disorder(np.eye(2), -np.eye(2))


def test_parameters_are_checked_before_any_work():
    with pytest.raises(TypeError, match="'matrix_a' parameter of f1_ranking_disorder must be "
                       "an array-like; got 1.5"):
        f1_ranking_disorder(1.5, np.eye(2))
    with pytest.raises(TypeError, match="'labels' parameter of prevalence_ranking must be None "
                       "or an array-like; got 'a'"):
        prevalence_ranking(["a", "b"], labels="a")


@pytest.mark.parametrize("order", [["label" * 20] * 10 ** 4, list(range(10 ** 5)),
                                   np.arange(10 ** 5)[::-1]])
@pytest.mark.parametrize("name", ["row_order", "column_order"])
def test_ranking_breaks_message_quotes_a_short_order(order, name):
    """A wrong order is quoted, not printed whole (a message of about 1 MB)."""
    with pytest.raises(ValueError, match=f"{name} must be a permutation") as error:
        sce.prevalence_ranking_breaks(np.eye(3), **{name: order})
    assert len(str(error.value)) < 500
