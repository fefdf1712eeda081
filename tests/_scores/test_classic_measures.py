"""The classic measures of Table 1 (Gosgens et al. 2021) with Appendix B's resolutions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics

from sklearn_confusion_ext import (
    accuracy_from_confusion,
    balanced_accuracy_from_confusion,
    balanced_accuracy_score,
    cohen_kappa_from_confusion,
    cohen_kappa_score,
    fbeta_from_confusion,
    generalized_means_from_confusion,
    jaccard_from_confusion,
    matthews_corrcoef,
    matthews_corrcoef_from_confusion,
    symmetric_balanced_accuracy_from_confusion,
)

# Appendix E.1: the mean confusion matrices (%) of the two smallest thresholds, ten minutes.
RAIN_10_MINUTES = [np.array([[93.55, 1.12], [0.22, 5.11]]),
                   np.array([[93.76, 0.91], [0.29, 5.04]])]


def _labelings(rng, n_classes, size=60):
    y_true = rng.integers(0, n_classes, size)
    y_pred = np.where(rng.random(size) < 0.6, y_true, rng.integers(0, n_classes, size))
    y_true[:n_classes] = y_pred[:n_classes] = np.arange(n_classes)  # every class both sides
    return y_true, y_pred


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_equal_to_scikit_learn_without_singularities(rng, n_classes):
    for _ in range(10):
        y_true, y_pred = _labelings(rng, n_classes)
        matrix = metrics.confusion_matrix(y_true, y_pred)
        assert accuracy_from_confusion(matrix) == pytest.approx(
            metrics.accuracy_score(y_true, y_pred), abs=1e-12)
        assert balanced_accuracy_from_confusion(matrix) == pytest.approx(
            metrics.balanced_accuracy_score(y_true, y_pred), abs=1e-12)
        assert cohen_kappa_from_confusion(matrix) == pytest.approx(
            metrics.cohen_kappa_score(y_true, y_pred), abs=1e-12)
        assert matthews_corrcoef_from_confusion(matrix) == pytest.approx(
            metrics.matthews_corrcoef(y_true, y_pred), abs=1e-12)
        assert balanced_accuracy_score(y_true, y_pred) == pytest.approx(
            metrics.balanced_accuracy_score(y_true, y_pred), abs=1e-12)
        assert cohen_kappa_score(y_true, y_pred) == pytest.approx(
            metrics.cohen_kappa_score(y_true, y_pred), abs=1e-12)
        assert matthews_corrcoef(y_true, y_pred) == pytest.approx(
            metrics.matthews_corrcoef(y_true, y_pred), abs=1e-12)
        averages = ("binary",) if n_classes == 2 else ()
        for average in (*averages, "micro", "macro", "weighted"):
            for beta in (0.5, 1.0, 2.0):
                assert fbeta_from_confusion(matrix, beta=beta, average=average) == \
                    pytest.approx(metrics.fbeta_score(y_true, y_pred, beta=beta,
                                                      average=average), abs=1e-12)
            expected = metrics.jaccard_score(y_true, y_pred, average=average)
            assert jaccard_from_confusion(matrix, average=average) == pytest.approx(
                expected, abs=1e-12)


def test_micro_averages_are_read_off_the_trace():
    matrix = np.array([[5, 1, 2], [0, 4, 1], [3, 0, 6]])
    n, trace = matrix.sum(), np.trace(matrix)
    assert fbeta_from_confusion(matrix, beta=3.0, average="micro") == pytest.approx(trace / n)
    assert jaccard_from_confusion(matrix, average="micro") == pytest.approx(
        trace / (2 * n - trace))


def test_appendix_b_singularities():
    # Maximal agreement: no positive anywhere (F, J); one class on both sides (kappa, CC).
    for average in ("binary", "macro"):
        assert fbeta_from_confusion([[7, 0], [0, 0]], average=average) == 1.0
        assert jaccard_from_confusion([[7, 0], [0, 0]], average=average) == 1.0
    assert cohen_kappa_from_confusion([[0, 0], [0, 3]]) == 1.0
    assert matthews_corrcoef_from_confusion([[3, 0], [0, 0]]) == 1.0
    # Both constant on different classes: minimal agreement.
    assert matthews_corrcoef_from_confusion([[0, 3], [0, 0]]) == -1.0
    assert balanced_accuracy_from_confusion([[0, 3], [0, 0]]) == 0.0
    # Exactly one labeling constant: the constant baseline (CC 0, BA 1 / m).
    assert matthews_corrcoef_from_confusion([[2, 3], [0, 0]]) == 0.0
    assert balanced_accuracy_from_confusion([[2, 3], [0, 0]]) == pytest.approx(0.5)
    # c_ii / a_i with a_i = 0 becomes b_i / n.
    assert balanced_accuracy_from_confusion([[2, 1, 0], [0, 3, 1], [0, 0, 0]]) == \
        pytest.approx((2 / 3 + 3 / 4 + 1 / 7) / 3)
    # The y_true, y_pred forms, where scikit-learn gives NaN, 0 or drops a class.
    assert cohen_kappa_score([2, 2, 2], [2, 2, 2]) == 1.0
    assert matthews_corrcoef([2, 2, 2], [2, 2, 2]) == 1.0
    assert matthews_corrcoef([1, 1, 1], [0, 0, 0]) == -1.0
    assert balanced_accuracy_score([0, 0, 0, 0], [0, 0, 1, 2]) == pytest.approx(
        (2 / 4 + 1 / 4 + 1 / 4) / 3)
    # An unused class listed in labels= changes nothing.
    y_true, y_pred = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    for function in (balanced_accuracy_score, cohen_kappa_score, matthews_corrcoef):
        assert function(y_true, y_pred, labels=[0, 1, 5]) == function(y_true, y_pred)


def test_appendix_c_examples():
    # C.1: CC is not minimal on every zero-diagonal matrix when m > 2.
    assert matthews_corrcoef_from_confusion([[0, 1, 0], [0, 0, 1], [2, 0, 0]]) == \
        pytest.approx(-0.5)
    assert matthews_corrcoef_from_confusion([[0, 1, 0], [1, 0, 1], [0, 1, 0]]) == \
        pytest.approx(-0.6)
    # C.1: kappa's value on a zero-diagonal matrix is -(sum a_i b_i) / (n^2 - sum a_i b_i).
    zero_diagonal = np.array([[0, 2, 1], [3, 0, 0], [1, 1, 0]])
    a, b, n = zero_diagonal.sum(axis=1), zero_diagonal.sum(axis=0), zero_diagonal.sum()
    assert cohen_kappa_from_confusion(zero_diagonal) == pytest.approx(-(a @ b) / (n * n - a @ b))
    # C.4: kappa is not strongly monotone; CC and kappa are not monotone for m = 3.
    assert cohen_kappa_from_confusion([[1, 2], [1, 0]]) < cohen_kappa_from_confusion(
        [[1, 3], [1, 0]])
    assert matthews_corrcoef_from_confusion([[1, 0, 0], [7, 0, 0], [0, 0, 1]]) > \
        matthews_corrcoef_from_confusion([[1, 0, 0], [6, 1, 0], [0, 0, 1]])
    assert cohen_kappa_from_confusion([[0, 1, 2], [0, 0, 0], [1, 0, 0]]) > \
        cohen_kappa_from_confusion([[1, 0, 2], [0, 0, 0], [1, 0, 0]])


def test_rain_matrices_of_appendix_e1():
    first, second = RAIN_10_MINUTES
    assert accuracy_from_confusion(first) == pytest.approx(0.9866)
    assert accuracy_from_confusion(second) == pytest.approx(0.9880)
    # "Balanced Accuracy favors the smallest threshold", SBA agrees with accuracy.
    assert balanced_accuracy_from_confusion(second) < balanced_accuracy_from_confusion(first)
    assert symmetric_balanced_accuracy_from_confusion(second) > \
        symmetric_balanced_accuracy_from_confusion(first)


def test_scale_invariance_and_matthews_as_generalized_means(rng):
    for _ in range(20):
        matrix = rng.integers(0, 20, size=(2, 2)) + 1
        assert matthews_corrcoef_from_confusion(matrix) == pytest.approx(
            generalized_means_from_confusion(matrix, r=0), abs=1e-12)
        for function in (accuracy_from_confusion, balanced_accuracy_from_confusion,
                         cohen_kappa_from_confusion, fbeta_from_confusion,
                         jaccard_from_confusion, matthews_corrcoef_from_confusion):
            assert function(matrix * 1e-3) == pytest.approx(function(matrix), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5).flatmap(lambda m: st.lists(
    st.integers(0, 6), min_size=m * m, max_size=m * m).map(
        lambda cells: np.reshape(cells, (m, m)))))
def test_maximal_agreement_on_diagonal_matrices_only(matrix):
    if matrix.sum() == 0:
        return
    diagonal = not (matrix - np.diag(np.diag(matrix))).any()
    for function in (accuracy_from_confusion, balanced_accuracy_from_confusion,
                     cohen_kappa_from_confusion, matthews_corrcoef_from_confusion,
                     lambda c: fbeta_from_confusion(c, average="macro"),
                     lambda c: jaccard_from_confusion(c, average="macro")):
        value = function(matrix)
        assert np.isfinite(value)
        assert (value == pytest.approx(1.0, abs=1e-12)) == diagonal


@pytest.mark.parametrize("call, match", [
    (lambda: fbeta_from_confusion(np.eye(3)), "needs a 2 x 2 matrix"),
    (lambda: jaccard_from_confusion(np.eye(3), average="samples"), "'average' parameter"),
    (lambda: fbeta_from_confusion(np.eye(2), beta=-1.0), "'beta' parameter"),
    (lambda: cohen_kappa_from_confusion(np.zeros((2, 2))), "all zeros"),
    (lambda: matthews_corrcoef_from_confusion([[1, 2]]), "square"),
    (lambda: balanced_accuracy_score([0, 1], [0, 1, 1]), "same number of samples"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_weighted_kappa_linear_and_quadratic_by_hand_and_against_scikit_learn(rng):
    """Matrix [[1, 1, 0], [0, 2, 0], [0, 0, 1]] (n = 5): one disagreement at distance 1;
    chance disagreement sum_ij w_ij a_i b_j / n = 3.8 with linear weights |i - j| and 5.0
    with quadratic ones (i - j)^2, so kappa is 1 - 1/3.8 = 14/19 and 1 - 1/5 = 4/5."""
    y_true, y_pred = [0, 0, 1, 1, 2], [0, 1, 1, 1, 2]
    assert cohen_kappa_score(y_true, y_pred, weights="linear") == pytest.approx(14 / 19,
                                                                                rel=1e-12)
    assert cohen_kappa_score(y_true, y_pred, weights="quadratic") == pytest.approx(4 / 5,
                                                                                   rel=1e-12)
    for n_classes in (3, 4, 6):
        for _ in range(5):
            y_true, y_pred = _labelings(rng, n_classes)
            values = {}
            for weights in ("linear", "quadratic"):
                values[weights] = cohen_kappa_score(y_true, y_pred, weights=weights)
                assert values[weights] == pytest.approx(
                    metrics.cohen_kappa_score(y_true, y_pred, weights=weights), abs=1e-12)
            assert values["linear"] != pytest.approx(values["quadratic"], abs=1e-6)
