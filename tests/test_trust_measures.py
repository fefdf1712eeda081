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
