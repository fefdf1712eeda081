"""Issue 24, the measures of Gosgens et al. (2021) at their edges: singularities read on exact
counts, bounded scores clipped at their bounds, the paper's Confusion Entropy as printed, and
the helpers that reproduce the papers' worked examples."""

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


def test_measure_inconsistency_sees_no_order_in_constant_labelings():
    """Two predictions against a constant truth: CC ties them (it ordered the rounding)."""
    y_true = [1] * 6
    y_preds = [[0, 1, 1, 1, 2, 2], [2, 1, 1, 0, 0, 0], [1, 1, 1, 1, 2, 0]]
    for y_pred in y_preds:
        assert sce.matthews_corrcoef(y_true, y_pred) == 0.0
    values = {sce.correlation_distance(y_true, y_pred) for y_pred in y_preds}
    assert values == {0.5}


@pytest.mark.parametrize("order", [["label" * 20] * 10 ** 4, list(range(10 ** 5)),
                                   np.arange(10 ** 5)[::-1]])
@pytest.mark.parametrize("name", ["row_order", "column_order"])
def test_ranking_breaks_message_quotes_a_short_order(order, name):
    """A wrong order is quoted, not printed whole (a message of about 1 MB)."""
    with pytest.raises(ValueError, match=f"{name} must be a permutation") as error:
        sce.prevalence_ranking_breaks(np.eye(3), **{name: order})
    assert len(str(error.value)) < 500


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


# --- Helpers the papers' readers need (issue 24) ----------------------------------------------

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


TABLE_8A = [
    [58, 1, 0, 1, 0, 5, 4, 2, 3, 7], [1, 105, 0, 0, 1, 1, 0, 0, 4, 13],
    [0, 2, 24, 0, 0, 0, 0, 0, 0, 3], [1, 1, 1, 9, 0, 4, 1, 0, 0, 4],
    [2, 5, 2, 1, 54, 2, 1, 0, 0, 7], [5, 3, 1, 0, 1, 10, 4, 2, 5, 20],
    [1, 0, 0, 5, 4, 9, 48, 6, 2, 24], [3, 1, 1, 0, 1, 9, 1, 42, 3, 18],
    [4, 5, 0, 0, 4, 8, 2, 0, 161, 11], [0] * 10]
# Table 9 of Heydarian et al. (2022): TN, FP, FN, TP of C_0 .. C_8 and NPL.
TABLE_9 = [(453, 17, 23, 58), (406, 18, 20, 105), (487, 5, 5, 24), (502, 7, 12, 9),
           (457, 11, 20, 54), (501, 38, 41, 10), (463, 13, 51, 48), (469, 10, 37, 42),
           (350, 17, 34, 161), (511, 107, 0, 0)]


def test_mlcm_counts_reproduce_table_9_from_table_8a():
    counts = sce.mlcm_counts_from_confusion(TABLE_8A)
    np.testing.assert_array_equal(counts.reshape(-1, 4), TABLE_9)
    # Section IV: FN and FP both sum to 243 over the classes; TN / TP = 9.00.
    assert counts[:, 1, 0].sum() == counts[:, 0, 1].sum() == 243
    assert counts[:, 0, 0].sum() / counts[:, 1, 1].sum() == pytest.approx(9.00, abs=0.005)


def test_mlcm_counts_agree_with_mlcm_multilabel_confusion_matrix():
    rng = np.random.default_rng(2)
    y_true, y_pred = rng.integers(0, 2, size=(2, 60, 4))
    np.testing.assert_array_equal(
        sce.mlcm_counts_from_confusion(sce.mlcm(y_true, y_pred)),
        sce.mlcm_multilabel_confusion_matrix(y_true, y_pred))


def test_normalize_confusion_matrix_reproduces_table_8b_row_5():
    normalized = sce.normalize_confusion_matrix(TABLE_8A)
    np.testing.assert_array_equal(np.round(100 * normalized[5]),
                                  [10, 6, 2, 0, 2, 20, 8, 4, 10, 39])
    np.testing.assert_array_equal(normalized[-1], 0.0)  # the NTL row of zeros stays zero
    np.testing.assert_allclose(normalized[:-1].sum(axis=1), 1.0)
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.integers(0, 2, size=(2, 60, 4))
    for normalize in ("true", "pred", "all"):
        np.testing.assert_allclose(
            sce.normalize_confusion_matrix(sce.mlcm(y_true, y_pred), normalize=normalize),
            sce.mlcm(y_true, y_pred, normalize=normalize))


def test_project_prevalence_reproduces_example_2():
    np.testing.assert_allclose(sce.project_prevalence([0.32, 0.00, 0.48, 0.20], [0, 1, 2]),
                               [0.40, 0.00, 0.60])
    rows = sce.project_prevalence([[0.32, 0.00, 0.48, 0.20], [0.1, 0.2, 0.3, 0.4]], [3, 0])
    np.testing.assert_allclose(rows, [[0.2 / 0.52, 0.32 / 0.52], [0.8, 0.2]])


@pytest.mark.parametrize("classes, match", [
    ([0, 0], "distinct positions"), ([4], "distinct positions"), ([-1], "distinct"),
    ([], "distinct"), (list(range(10 ** 5)), "distinct"), ([1], "no mass")])
def test_project_prevalence_refuses_a_bad_sub_codeframe(classes, match):
    with pytest.raises(ValueError, match=match) as error:
        sce.project_prevalence([0.32, 0.00, 0.48, 0.20], classes)
    assert len(str(error.value)) < 500


def test_project_prevalence_names_its_argument():
    with pytest.raises(ValueError, match="^p must sum to 1"):
        sce.project_prevalence([0.5, 0.6], [0])
