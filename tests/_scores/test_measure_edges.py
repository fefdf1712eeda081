"""The measures of Gosgens et al. (2021) at their edges: singularities read on exact counts,
bounded scores clipped at their bounds, the paper's Confusion Entropy as printed, and the
averaged binary measure that reproduces the paper's worked examples."""

import itertools

import numpy as np
import pytest
from sklearn.metrics import matthews_corrcoef as sklearn_matthews_corrcoef

import sklearn_confusion_ext as sce


def _count_matrices(m, max_total):
    """Every m x m matrix of non-negative integer counts with total 1 .. max_total."""
    for total in range(1, max_total + 1):
        # Stars and bars: the positions of m*m - 1 bars among total + m*m - 1 slots.
        for bars in itertools.combinations(range(total + m * m - 1), m * m - 1):
            edges = (-1, *bars, total + m * m - 1)
            cells = [edges[k + 1] - edges[k] - 1 for k in range(m * m)]
            yield np.array(cells, dtype=float).reshape(m, m)


@pytest.mark.parametrize("m, max_total", [(2, 12), (3, 6)])
@pytest.mark.slow
def test_correlation_of_a_constant_labeling_is_exactly_zero(m, max_total):
    """Every small count matrix: CC is exactly 0 (CD exactly 1/2, kappa exactly 0) where one
    labeling is constant, and scikit-learn's value elsewhere. The singularity was tested after
    a scale to total 1, and ``matthews_corrcoef([1] * 6, [0, 1, 1, 1, 2, 2])`` was 6.7e-9."""
    true_labels, pred_labels = np.indices((m, m)).reshape(2, -1)
    checked = 0
    for matrix in _count_matrices(m, max_total):
        true_constant = np.count_nonzero(matrix.sum(axis=1)) == 1
        pred_constant = np.count_nonzero(matrix.sum(axis=0)) == 1
        correlation = sce.matthews_corrcoef_from_confusion(matrix)
        distance = sce.correlation_distance_from_confusion(matrix)
        kappa = sce.cohen_kappa_from_confusion(matrix)
        if true_constant != pred_constant:
            assert (correlation, distance, kappa) == (0.0, 0.5, 0.0), matrix
            checked += 1
        elif not true_constant:
            expected = sklearn_matthews_corrcoef(true_labels, pred_labels,
                                                 sample_weight=matrix.ravel())
            assert correlation == pytest.approx(expected, abs=1e-12), matrix
            assert distance == pytest.approx(np.arccos(expected) / np.pi, abs=1e-9), matrix
    assert checked > 0


def test_the_issue_example_on_labels():
    y_true, y_pred = [1] * 6, [0, 1, 1, 1, 2, 2]
    assert sce.matthews_corrcoef(y_true, y_pred) == 0.0
    assert sce.matthews_corrcoef(y_pred, y_true) == 0.0
    assert sce.correlation_distance(y_true, y_pred) == 0.5
    assert sce.cohen_kappa_score(y_true, y_pred) == 0.0


def test_constant_labeling_of_soft_matrices_is_exactly_zero():
    """Fractional masses (a transport matrix of soft labels) round in sums of any scale: the
    singularity is read off which marginals vanish."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        matrix = np.zeros((3, 3))
        matrix[rng.integers(3)] = rng.dirichlet(np.ones(3)) * rng.uniform(0.1, 1e3)
        for candidate in (matrix, matrix.T):
            assert sce.matthews_corrcoef_from_confusion(candidate) == 0.0
            assert sce.correlation_distance_from_confusion(candidate) == 0.5
            assert sce.cohen_kappa_from_confusion(candidate) == 0.0


def test_confusion_entropy_reproduces_appendix_c3_as_printed():
    """Appendix C.3 prints CE(A, B) = CE(B, C) = 0.387 and CE(A, C) = 1 (Table 1's formula);
    the filled rule gives 0.554, and the triangle counterexample no longer holds."""
    a, b, c = [1, 1, 0], [1, 1, 1], [1, 0, 1]
    for formula, expected in (("table_1", 0.387), ("filled", 0.554)):
        ab = sce.confusion_entropy(a, b, formula=formula)
        bc = sce.confusion_entropy(b, c, formula=formula)
        ac = sce.confusion_entropy(a, c, formula=formula)
        assert ab == pytest.approx(expected, abs=5e-4)
        assert bc == pytest.approx(expected, abs=5e-4)
        assert ac == 1.0
        assert (ac > ab + bc) == (formula == "table_1")
    # Table 1 exactly: -(1/2n) c_01 log_2(c_01 / (a_1 + b_1)) = log2(5) / 6.
    assert sce.confusion_entropy_from_confusion(
        [[0, 1], [0, 2]], formula="table_1") == pytest.approx(np.log2(5) / 6, rel=1e-14)
    assert sce.confusion_entropy_from_confusion(
        [[0, 1], [0, 2]]) == pytest.approx((np.log2(5) + 1) / 6, rel=1e-14)


def test_confusion_entropy_formulas_agree_where_every_class_is_present():
    rng = np.random.default_rng(0)
    for _ in range(200):
        matrix = rng.integers(0, 5, size=(4, 4)) + np.eye(4, dtype=int)
        assert sce.confusion_entropy_from_confusion(matrix) == \
            sce.confusion_entropy_from_confusion(matrix, formula="table_1")


# --- Helpers the papers' readers need -------------------------------------------------------

def _agreement_indicator(tp, fn, fp, tn):
    return float(tp + tn > 0)


def _strongly_monotone(tp, fn, fp, tn):
    return tp + tn - fp - fn


def _baseline_difference(tp, fn, fp, tn):
    return tp - (tp + fp) * (tp + fn) / (tp + fp + fn + tn)


def test_averaged_binary_measure_reproduces_appendix_c6():
    c1 = [[0, 1, 0], [0, 0, 1], [1, 1, 0]]
    c2 = [[0, 0, 1], [0, 0, 1], [1, 1, 0]]
    # Macro averaging loses minimal agreement: 1 and 2/3 on two zero-diagonal matrices.
    assert sce.averaged_binary_measure(c1, _agreement_indicator) == 1.0
    assert sce.averaged_binary_measure(c2, _agreement_indicator) == pytest.approx(2 / 3)
    # Micro averaging makes 1{TP + TN > 0} constant, and TP + TN - FP - FN equal to n m.
    rng = np.random.default_rng(0)
    for _ in range(50):
        matrix = rng.integers(0, 5, size=(3, 3)) + np.eye(3, dtype=int)
        n = matrix.sum()
        assert sce.averaged_binary_measure(matrix, _agreement_indicator, average="micro") == 1
        # C.6 says TP + TN - FP - FN micro-averages to n m; with its own TN = (m - 2) n + TP
        # it is 4 TP + (m - 4) n (the cells sum to n m), which still breaks strong
        # monotonicity for m > 4.
        assert sce.averaged_binary_measure(
            matrix, _strongly_monotone, average="micro") == pytest.approx(
                4 * np.trace(matrix) - n)
        # The constant-baseline measure micro-averaged is sum_i c_ii - n / m.
        assert sce.averaged_binary_measure(
            matrix, _baseline_difference, average="micro") == pytest.approx(
                np.trace(matrix) - n / 3)


def test_averaged_binary_measure_agrees_with_the_library_averages():
    def f1(tp, fn, fp, tn):
        return 2 * tp / (2 * tp + fn + fp) if tp + fn + fp else 1.0

    rng = np.random.default_rng(1)
    for _ in range(50):
        matrix = rng.integers(1, 6, size=(4, 4))
        for average in ("micro", "macro", "weighted"):
            assert sce.averaged_binary_measure(matrix, f1, average=average) == pytest.approx(
                sce.fbeta_from_confusion(matrix, average=average), rel=1e-12)


def test_averaged_binary_measure_names_a_measure_returning_no_number():
    with pytest.raises(TypeError, match="binary_measure must return a number"):
        sce.averaged_binary_measure([[1, 0], [0, 1]], lambda tp, fn, fp, tn: "x")
