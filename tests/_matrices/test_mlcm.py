"""Multi-label confusion matrices (Heydarian et al. 2022; Krstinic et al. 2020, 2024)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import confusion_matrix

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import (
    mlcm,
    mlcm_classification_report,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_recall_fscore_support,
    multilabel_confusion_tensor,
    transport_confusion_matrix,
)

# Table 1 of Heydarian et al. (2022) and the per-instance matrices of its Table 4.
TABLE_1_TRUE = np.array([[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
                         [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]])
TABLE_1_PRED = np.array([[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
                         [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]])
TABLE_4 = [
    [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 0, 0, 0]],
    [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]],
    [[1, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0]],
    [[0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
]
TABLE_4J = [[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]


@pytest.mark.parametrize("instance", range(9))
def test_table_4_instance_by_instance(instance):
    got = mlcm(TABLE_1_TRUE[instance:instance + 1], TABLE_1_PRED[instance:instance + 1])
    np.testing.assert_array_equal(got, TABLE_4[instance])


def test_table_4j_and_table_5():
    np.testing.assert_array_equal(mlcm(TABLE_1_TRUE, TABLE_1_PRED), TABLE_4J)
    expected = np.zeros((6, 6))
    expected[0, 0] = 1
    expected[np.ix_([1, 2], [3, 4])] = 1
    np.testing.assert_array_equal(mlcm([[1, 1, 1, 0, 0]], [[1, 0, 0, 1, 1]]), expected)


def reference_mlcm(y_true, y_pred):
    """Algorithms 2-5, transcribed instance by instance."""
    q = y_true.shape[1]
    matrix = np.zeros((q + 1, q + 1))
    for t, p in zip(y_true, y_pred):
        true, pred = set(np.flatnonzero(t)), set(np.flatnonzero(p))
        found, missed, wrong = true & pred, true - pred, pred - true
        for r in found:
            matrix[r, r] += 1
        if not true and not pred:
            matrix[q, q] += 1
        if pred <= true:  # category one
            for r in missed:
                matrix[r, q] += 1
        elif true < pred:  # category two
            for r in true:
                for c in wrong:
                    matrix[r, c] += 1
            if not true:
                for c in wrong:
                    matrix[q, c] += 1
        else:  # category three
            for r in missed:
                for c in wrong:
                    matrix[r, c] += 1
    return matrix


def _extended(row):
    """The indicator with an "unknown" last class that replaces an empty vector."""
    return np.append(row, 1.0 if row.sum() == 0 else 0.0)


def reference_krstinic(y_true, y_pred):
    q = y_true.shape[1]
    matrix = np.zeros((q + 1, q + 1))
    for t, p in zip(y_true.astype(float), y_pred.astype(float)):
        y, y_hat = _extended(t), _extended(p)
        m = np.minimum(y, y_hat)
        true, pred = set(np.flatnonzero(y)), set(np.flatnonzero(y_hat))
        if true == pred:
            matrix += np.diag(y)
        elif true < pred:
            matrix += (np.outer(y, y_hat - m) + y.sum() * np.diag(y)) / y_hat.sum()
        elif pred < true:
            matrix += np.outer(y - m, y_hat) / y_hat.sum() + np.diag(y_hat)
        else:
            matrix += np.outer(y - m, y_hat - m) / (y_hat - m).sum() + np.diag(m)
    return matrix


def reference_tensor(y_true, y_pred, unique):
    q = y_true.shape[1]
    recall, precision = np.zeros((q + 1, q + 1)), np.zeros((q + 1, q + 1))
    for t, p in zip(y_true.astype(float), y_pred.astype(float)):
        t, p = _extended(t), _extended(p)
        t1 = t * p
        t2, p2 = t - t1, p - t1
        recall += np.diag(t1)
        precision += np.diag(t1)
        if unique:
            recall += np.outer(t2, p) / p.sum()
            precision += np.outer(t, p2) / t.sum()
        elif (t != p).any():
            if t2.sum() == 0:
                precision += np.outer(t, p2) / t.sum()
            elif p2.sum() == 0:
                recall += np.outer(t2, p) / p.sum()
            else:
                recall += np.outer(t2, p2) / p2.sum()
                precision += np.outer(t2, p2) / t2.sum()
    return np.stack([recall, precision])


def _random_indicators(rng, n_samples, n_classes, density=0.3):
    return (rng.random((n_samples, n_classes)) < density).astype(int)


@pytest.mark.parametrize("seed", range(4))
def test_methods_equal_per_instance_transcriptions(seed):
    rng = np.random.default_rng(seed)
    n_classes = [3, 5, 8, 12][seed]
    y_true = _random_indicators(rng, 400, n_classes, 0.25)
    y_pred = _random_indicators(rng, 400, n_classes, 0.25)
    np.testing.assert_array_equal(mlcm(y_true, y_pred), reference_mlcm(y_true, y_pred))
    np.testing.assert_allclose(mlcm(y_true, y_pred, method="krstinic"),
                               reference_krstinic(y_true, y_pred), atol=1e-12)
    for unique in (True, False):
        np.testing.assert_allclose(multilabel_confusion_tensor(y_true, y_pred, unique=unique),
                                   reference_tensor(y_true, y_pred, unique), atol=1e-12)


def test_krstinic_cases_by_hand():
    # (i) equal sets, (ii) y inside y_hat, (iii) y_hat inside y, (iv) neither,
    # then an empty label, an empty prediction and both empty.
    cases = [
        ([1, 1, 0], [1, 1, 0], [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]),
        ([1, 0, 0], [1, 1, 1], [[1 / 3, 1 / 3, 1 / 3, 0], [0] * 4, [0] * 4, [0] * 4]),
        ([1, 1, 1], [1, 0, 0], [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0] * 4]),
        ([1, 1, 0], [1, 0, 1], [[1, 0, 0, 0], [0, 0, 1, 0], [0] * 4, [0] * 4]),
        ([0, 0, 0], [0, 1, 1], [[0] * 4, [0] * 4, [0] * 4, [0, 0.5, 0.5, 0]]),
        ([1, 1, 0], [0, 0, 0], [[0, 0, 0, 1], [0, 0, 0, 1], [0] * 4, [0] * 4]),
        ([0, 0, 0], [0, 0, 0], [[0] * 4, [0] * 4, [0] * 4, [0, 0, 0, 1]]),
    ]
    for y, y_hat, expected in cases:
        np.testing.assert_allclose(mlcm([y], [y_hat], method="krstinic"), expected,
                                   err_msg=f"y={y}, y_hat={y_hat}")


def test_tensor_cases_by_hand():
    # y = {0, 1}, y_hat = {0, 2}: t1 = {0}, t2 = {1}, p2 = {2}.
    recall, precision = multilabel_confusion_tensor([[1, 1, 0]], [[1, 0, 1]], unique=False)
    np.testing.assert_allclose(recall[:3, :3], [[1, 0, 0], [0, 0, 1], [0, 0, 0]])
    np.testing.assert_allclose(precision[:3, :3], [[1, 0, 0], [0, 0, 1], [0, 0, 0]])
    # y inside y_hat: only the precision matrix gets off-diagonal counts.
    recall, precision = multilabel_confusion_tensor([[1, 0, 0]], [[1, 1, 1]], unique=False)
    np.testing.assert_allclose(recall[:3, :3], np.diag([1, 0, 0]))
    np.testing.assert_allclose(precision[:3, :3], [[1, 1, 1], [0, 0, 0], [0, 0, 0]])
    # y_hat inside y: only the recall matrix does.
    recall, precision = multilabel_confusion_tensor([[1, 1, 1]], [[1, 0, 0]], unique=False)
    np.testing.assert_allclose(recall[:3, :3], [[1, 0, 0], [1, 0, 0], [1, 0, 0]])
    np.testing.assert_allclose(precision[:3, :3], np.diag([1, 0, 0]))
    # Empty sides go to the unknown class.
    recall, precision = multilabel_confusion_tensor([[0, 0, 0], [1, 1, 0]],
                                                    [[0, 1, 1], [0, 0, 0]])
    np.testing.assert_allclose(recall[3], [0, 0.5, 0.5, 0])
    np.testing.assert_allclose(precision[3], [0, 1, 1, 0])
    np.testing.assert_allclose(recall[:, 3], [1, 1, 0, 0])
    np.testing.assert_allclose(precision[:, 3], [0.5, 0.5, 0, 0])


def test_tensor_normalize_gives_recall_and_precision_on_the_diagonals(rng):
    y_true = _random_indicators(rng, 200, 4, 0.4)
    y_pred = _random_indicators(rng, 200, 4, 0.4)
    counts = multilabel_confusion_tensor(y_true, y_pred)
    recall, precision = multilabel_confusion_tensor(y_true, y_pred, normalize=True)
    rows, columns = counts[0].sum(axis=1), counts[1].sum(axis=0)
    np.testing.assert_allclose(recall, counts[0] / np.where(rows == 0, 1, rows)[:, None])
    np.testing.assert_allclose(precision, counts[1] / np.where(columns == 0, 1, columns))
    # unique=True keeps the classical per-class recall on the diagonal.
    true_positives = (y_true * y_pred).sum(axis=0)
    np.testing.assert_allclose(np.diag(recall)[:4], true_positives / y_true.sum(axis=0))


def test_proposition_8_krstinic_equals_tcm_weighted_by_label_norm(rng):
    y_true = _random_indicators(rng, 500, 6, 0.4)
    y_pred = _random_indicators(rng, 500, 6, 0.4)
    true_sets, pred_sets = y_true.astype(bool), y_pred.astype(bool)
    inside = (~true_sets | pred_sets).all(axis=1) | (~pred_sets | true_sets).all(axis=1)
    keep = inside & (y_true.sum(axis=1) > 0) & (y_pred.sum(axis=1) > 0)  # cases i-iii
    assert keep.sum() > 50
    np.testing.assert_allclose(
        mlcm(y_true[keep], y_pred[keep], method="krstinic")[:6, :6],
        transport_confusion_matrix(y_true[keep], y_pred[keep], weighting="true")[:6, :6],
        atol=1e-12)
    case_iv = ~inside & (y_true.sum(axis=1) > 0) & (y_pred.sum(axis=1) > 0)
    assert not np.allclose(mlcm(y_true[case_iv], y_pred[case_iv], method="krstinic"),
                           transport_confusion_matrix(y_true[case_iv], y_pred[case_iv],
                                                      weighting="true"))


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_single_label_gives_classic_confusion_matrix(rng, method):
    y_true, y_pred = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
    got = mlcm(y_true, y_pred, method=method)
    np.testing.assert_array_equal(got[:4, :4], confusion_matrix(y_true, y_pred))
    assert got[4].sum() == 0 and got[:, 4].sum() == 0
    names = np.array(["a", "b", "c", "d"])
    np.testing.assert_array_equal(mlcm(names[y_true], names[y_pred], labels=["d", "a"]),
                                  np.pad(confusion_matrix(y_true, y_pred, labels=[3, 0]),
                                         (0, 1)))


def test_dense_equals_sparse_and_weights_repeat_rows(rng):
    y_true = _random_indicators(rng, 300, 6)
    y_pred = _random_indicators(rng, 300, 6)
    weights = rng.integers(0, 4, 300)
    repeated = np.repeat(y_true, weights, axis=0), np.repeat(y_pred, weights, axis=0)
    for method in ("heydarian", "krstinic"):
        dense = mlcm(y_true, y_pred, method=method, sample_weight=weights)
        np.testing.assert_allclose(
            mlcm(sp.csr_array(y_true), sp.csr_matrix(y_pred), method=method,
                 sample_weight=weights), dense, atol=1e-12)
        np.testing.assert_allclose(mlcm(*repeated, method=method), dense, atol=1e-12)
    for unique in (True, False):
        np.testing.assert_allclose(
            multilabel_confusion_tensor(sp.csr_array(y_true), sp.csr_array(y_pred),
                                        unique=unique, sample_weight=weights),
            multilabel_confusion_tensor(*repeated, unique=unique), atol=1e-12)


def test_labels_select_with_none_last_and_normalize(rng):
    y_true = _random_indicators(rng, 200, 5)
    y_pred = _random_indicators(rng, 200, 5)
    full = mlcm(y_true, y_pred)
    np.testing.assert_array_equal(mlcm(y_true, y_pred, labels=[4, 1]),
                                  full[np.ix_([4, 1, 5], [4, 1, 5])])
    rows = full.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(mlcm(y_true, y_pred, normalize="true"),
                               full / np.where(rows == 0, 1, rows))
    tensor = multilabel_confusion_tensor(y_true, y_pred, labels=[2, 0])
    np.testing.assert_allclose(
        tensor, multilabel_confusion_tensor(y_true, y_pred)[:, [2, 0, 5]][:, :, [2, 0, 5]])


def test_table_1_scores_by_hand():
    # Table 4j: TP (5, 2, 1, 1), row sums (11, 6, 1, 3), column sums (5, 5, 9, 2).
    precision, recall, f1, weight = mlcm_precision_recall_fscore_support(TABLE_1_TRUE,
                                                                         TABLE_1_PRED)
    np.testing.assert_allclose(precision, [1, 2 / 5, 1 / 9, 1 / 2])
    np.testing.assert_allclose(recall, [5 / 11, 2 / 6, 1, 1 / 3])
    np.testing.assert_allclose(f1, 2 * np.array([5, 2, 1, 1]) / (np.array([11, 6, 1, 3])
                                                                + np.array([5, 5, 9, 2])))
    np.testing.assert_array_equal(weight, [11, 6, 1, 3])
    expected = {"micro": (0.4286, 0.4286, 0.4286), "macro": (0.5028, 0.5303, 0.3972),
                "weighted": (0.7148, 0.4286, 0.4979)}
    for average, values in expected.items():
        got = mlcm_precision_recall_fscore_support(TABLE_1_TRUE, TABLE_1_PRED, average=average)
        np.testing.assert_allclose(got[:3], values, atol=5e-5)
        assert got[3] is None


def test_none_class_joins_only_when_ntl_row_has_mass():
    y_true, y_pred = TABLE_1_TRUE[[0, 1, 3, 4, 6, 7, 8]], TABLE_1_PRED[[0, 1, 3, 4, 6, 7, 8]]
    precision, *_ = mlcm_precision_recall_fscore_support(y_true, y_pred)
    assert precision.shape == (3,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        precision, *_ = mlcm_precision_recall_fscore_support(y_true, y_pred, include_none=True)
    assert precision.shape == (4,)
    report = mlcm_classification_report(TABLE_1_TRUE, TABLE_1_PRED, digits=4)
    lines = report.splitlines()
    assert lines[0].split() == ["precision", "recall", "f1-score", "weight"]
    assert lines[5].split() == ["none", "0.5000", "0.3333", "0.4000", "3"]
    assert lines[7].split() == ["micro", "avg", "0.4286", "0.4286", "0.4286", "21"]
    assert lines[8].split() == ["macro", "avg", "0.5028", "0.5303", "0.3972", "21"]
    assert lines[9].split() == ["weighted", "avg", "0.7148", "0.4286", "0.4979", "21"]


def test_table_12_from_table_8a():
    from sklearn_confusion_ext._core.confusion import Confusion
    from sklearn_confusion_ext._scores.reports import classification_report_from_confusion

    table_8a = np.array([
        [58, 1, 0, 1, 0, 5, 4, 2, 3, 7], [1, 105, 0, 0, 1, 1, 0, 0, 4, 13],
        [0, 2, 24, 0, 0, 0, 0, 0, 0, 3], [1, 1, 1, 9, 0, 4, 1, 0, 0, 4],
        [2, 5, 2, 1, 54, 2, 1, 0, 0, 7], [5, 3, 1, 0, 1, 10, 4, 2, 5, 20],
        [1, 0, 0, 5, 4, 9, 48, 6, 2, 24], [3, 1, 1, 0, 1, 9, 1, 42, 3, 18],
        [4, 5, 0, 0, 4, 8, 2, 0, 161, 11], [0] * 10], dtype=float)
    confusion = Confusion.from_parts(table_8a, list(range(9)), None, has_none=True)
    report = classification_report_from_confusion(confusion, output_dict=True,
                                                  support_name="weight", accuracy_row=False)
    table_12 = [(0.77, 0.72, 0.74, 81), (0.85, 0.84, 0.85, 125), (0.83, 0.83, 0.83, 29),
                (0.56, 0.43, 0.49, 21), (0.83, 0.73, 0.78, 74), (0.21, 0.20, 0.20, 51),
                (0.79, 0.48, 0.60, 99), (0.81, 0.53, 0.64, 79), (0.90, 0.83, 0.86, 195)]
    for label, row in enumerate(table_12):
        got = report[str(label)]
        np.testing.assert_allclose([got["precision"], got["recall"], got["f1-score"]],
                                   row[:3], atol=0.005 + 1e-9)
        assert got["weight"] == row[3]
    averages = {"micro avg": (0.68, 0.68, 0.68), "macro avg": (0.73, 0.62, 0.67),
                "weighted avg": (0.79, 0.68, 0.72)}
    for name, values in averages.items():
        got = report[name]
        np.testing.assert_allclose([got["precision"], got["recall"], got["f1-score"]],
                                   values, atol=0.005 + 1e-9)
        assert got["weight"] == 754
    # Table 8b is the row-normalized matrix in rounded percent.
    table_8b_row_5 = [10, 6, 2, 0, 2, 20, 8, 4, 10, 39]
    np.testing.assert_array_equal(np.round(100 * table_8a[5] / table_8a[5].sum()),
                                  table_8b_row_5)


def test_multilabel_confusion_matrix_uses_eq_16_true_negatives():
    counts = mlcm_multilabel_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED)
    matrix = np.array(TABLE_4J, dtype=float)
    tp = np.diag(matrix)
    np.testing.assert_array_equal(counts[:, 1, 1], tp)
    np.testing.assert_array_equal(counts[:, 0, 0], tp.sum() - tp)  # eq. (16)
    np.testing.assert_array_equal(counts[:, 0, 1], matrix.sum(axis=0) - tp)
    np.testing.assert_array_equal(counts[:, 1, 0], matrix.sum(axis=1) - tp)
    # Total FN equals total FP; total TN is q times total TP (Section III-D).
    assert counts[:, 1, 0].sum() == counts[:, 0, 1].sum()
    assert counts[:, 0, 0].sum() == 3 * tp.sum()


@pytest.mark.parametrize("call, match", [
    (lambda: mlcm([[0.5, 1]], [[1, 0]]), "y_true has values other than 0 and 1.*transport"),
    (lambda: mlcm([[1, 0]], [[2, 0]]), "y_pred has values other than 0 and 1"),
    (lambda: mlcm([[1, 0]], [[1, 0, 0]]), "same number of columns"),
    (lambda: mlcm([0, 1], [[1, 0, 0], [0, 1, 0]]), "2 distinct class label.*3 columns"),
    (lambda: mlcm([[1, 0]], [[1, 0]], method="sklearn"), "'method' parameter"),
    (lambda: mlcm([[1, 0]], [[1, 0]], normalize="rows"), "'normalize' parameter"),
    (lambda: multilabel_confusion_tensor([[1, 0]], [[0.2, 0]]), "y_pred has values other"),
    (lambda: mlcm_precision_recall_fscore_support([[1, 0]], [[1, 0]], average="binary"),
     "'average' parameter"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_boolean_parameters_take_booleans_only():
    with pytest.raises(TypeError, match="'unique' parameter of multilabel_confusion_tensor "
                                        "must be a boolean"):
        multilabel_confusion_tensor([[1, 0]], [[1, 0]], unique="yes")
    with pytest.raises(TypeError, match="'normalize' parameter"):
        multilabel_confusion_tensor([[1, 0]], [[1, 0]], normalize=1)
    np.testing.assert_array_equal(
        multilabel_confusion_tensor([[1, 0]], [[1, 0]], unique=np.True_),
        multilabel_confusion_tensor([[1, 0]], [[1, 0]], unique=True))


@pytest.fixture
def authors_mlcm(monkeypatch):
    package = pytest.importorskip("mlcm.mlcm", reason="the authors' mlcm package is not installed")
    monkeypatch.setattr(np, "int", int, raising=False)  # the package predates NumPy 1.24
    return package


def _has_package_departure(y_true, y_pred):
    """A correctly predicted label, a missed label and at least two wrong predictions."""
    t, p = y_true.astype(bool), y_pred.astype(bool)
    return ((t & p).any(axis=1) & (t & ~p).any(axis=1) & ((p & ~t).sum(axis=1) >= 2))


def test_authors_package_departs_exactly_where_the_notes_say(rng, authors_mlcm):
    # The package departs from Algorithm 5 on an instance exactly when it has a correctly
    # predicted label, a missed label and two wrong predictions: the broader condition
    # (two true labels, one missed, two wrong) includes instances with none found, where
    # the two agree.
    y_true = _random_indicators(rng, 600, 6, 0.35)
    y_pred = _random_indicators(rng, 600, 6, 0.35)
    t, p = y_true.astype(bool), y_pred.astype(bool)
    departs = _has_package_departure(y_true, y_pred)
    broader = (t.sum(axis=1) >= 2) & (t & ~p).any(axis=1) & ((p & ~t).sum(axis=1) >= 2)
    none_found = broader & ~departs
    counts = (int(departs.sum()), int(none_found.sum()), int((~departs).sum()))
    assert counts == (78, 40, 522)
    agrees = [np.array_equal(authors_mlcm.cm(y_true[[i]], y_pred[[i]], print_note=False)[0],
                             mlcm(y_true[[i]], y_pred[[i]])) for i in range(len(y_true))]
    np.testing.assert_array_equal(agrees, ~departs)
    package, _ = authors_mlcm.cm(y_true[~departs], y_pred[~departs], print_note=False)
    np.testing.assert_array_equal(mlcm(y_true[~departs], y_pred[~departs]), package)


def test_categories_of_table_1_and_of_the_algorithms(rng):
    from sklearn_confusion_ext import mlcm_categories

    np.testing.assert_array_equal(mlcm_categories(TABLE_1_TRUE, TABLE_1_PRED),
                                  [1, 1, 1, 2, 2, 2, 3, 3, 3])  # Table 1's column
    y_true = _random_indicators(rng, 300, 5, 0.3)
    y_pred = _random_indicators(rng, 300, 5, 0.3)
    categories = mlcm_categories(y_true, y_pred)
    assert set(categories) == {1, 2, 3}
    np.testing.assert_array_equal(mlcm_categories(sp.csr_matrix(y_true), y_pred), categories)
    for category in (1, 2, 3):  # each category fills the cells its algorithm fills
        rows = categories == category
        matrix = mlcm(y_true[rows], y_pred[rows])
        off = matrix[:-1, :-1] - np.diag(np.diag(matrix[:-1, :-1]))
        if category == 1:  # Algorithm 3: the diagonal and the NPL column only
            assert off.sum() == 0 and matrix[-1, :-1].sum() == 0
        elif category == 2:  # Algorithm 4: nothing missed, no NPL
            assert matrix[:-1, -1].sum() == 0 and off.sum() + matrix[-1, :-1].sum() > 0
        else:  # Algorithm 5: wrong predictions paired with missed labels, no NTL or NPL
            assert off.sum() > 0 and matrix[-1].sum() == 0 and matrix[:, -1].sum() == 0
    np.testing.assert_array_equal(mlcm_categories([0, 1, 2], [0, 2, 2]), [1, 3, 1])


def test_authors_package_departs_from_algorithm_5_on_table_5(authors_mlcm):
    y_true, y_pred = np.array([[1, 1, 1, 0, 0]]), np.array([[1, 0, 0, 1, 1]])
    package, _ = authors_mlcm.cm(y_true, y_pred, print_note=False)
    ours = mlcm(y_true, y_pred)
    difference = np.zeros((6, 6))
    difference[0, 4] = 1  # the package also charges the correctly predicted C0
    np.testing.assert_array_equal(package - ours, difference)


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


# --- The compute floor: no float64 copy, no second pass, the same numbers -------------------

def _indicator_pair(n_samples=3_000, n_classes=7, seed=4):
    rng = np.random.default_rng(seed)
    y_true = rng.random((n_samples, n_classes)) < 0.2
    y_pred = rng.random((n_samples, n_classes)) < 0.2
    y_true[:30] = False  # no true label (the NTL row), then no prediction (the NPL column)
    y_pred[20:50] = False
    return y_true, y_pred


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64",
                                   "bool", "float32"])
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_every_indicator_dtype_gives_the_float64_matrix_to_the_bit(dtype, method):
    """0/1 indicators of every dtype (int64 from astype(int), bool, int8, float32) give the
    float64 input's matrix, bit for bit, weighted and not; MLCM counts in blocks of any size
    too, and unit sample weights give the unweighted counts (float64 route) exactly.
    (Krstinic's fractions depend on the blocks' order of addition, and float32 masses'
    fractions and weights are summed in float32, by design: those are left out.)"""
    y_true, y_pred = _indicator_pair()
    reference = mlcm(y_true.astype(float), y_pred.astype(float), method=method)
    t, p = y_true.astype(dtype), y_pred.astype(dtype)
    if method == "heydarian" or dtype != "float32":  # float32 fractions stay float32
        np.testing.assert_array_equal(mlcm(t, p, method=method), reference)
    if method == "heydarian":
        for chunk_size in (1, 97):
            np.testing.assert_array_equal(
                mlcm(t, p, chunk_size=chunk_size, n_jobs=1), reference)
        np.testing.assert_array_equal(mlcm(t, p, sample_weight=np.ones(len(t))), reference)
        np.testing.assert_array_equal(mlcm(t, p, sample_weight=np.full(len(t), 3.0)),
                                      3 * reference)
    weight = np.random.default_rng(0).random(len(t))
    if dtype == "float32" and method == "heydarian":  # weighted pairs summed in float64
        off = ~np.eye(y_true.shape[1] + 1, dtype=bool)
        off[-1], off[:, -1] = False, False
        np.testing.assert_array_equal(
            mlcm(t, p, sample_weight=weight)[off],
            mlcm(y_true.astype(float), y_pred.astype(float), sample_weight=weight)[off])
    if dtype != "float32":
        np.testing.assert_array_equal(
            mlcm(t, p, method=method, sample_weight=weight),
            mlcm(y_true.astype(float), y_pred.astype(float), method=method,
                 sample_weight=weight))


def test_integer_indicators_are_read_without_a_float64_copy(monkeypatch):
    """int64 0/1 indicators (what astype(int) gives) stay int64, read block by block as
    float32, as int8 ones are (a float64 copy of 1e6 x 20 was 0.56x scikit-learn's time, not
    0.15x); each target is checked for 0/1 once (y_true's check also says it can be empty)."""
    from sklearn_confusion_ext._core import targets
    from sklearn_confusion_ext._core.targets import check_targets

    y_true, y_pred = (y.astype(np.int64) for y in _indicator_pair())
    checked = check_targets(y_true, y_pred, defer_value_checks=True, compact=True)
    assert checked.y_true is y_true and checked.y_pred is y_pred
    assert check_targets(y_true, y_pred).y_true.dtype == np.float64  # other kinds: float64
    two = y_true.copy()
    two[5, 0] = 2
    assert check_targets(two, y_pred, compact=True).y_true.dtype == np.float64
    with pytest.raises(ValueError, match="y_true has values other than 0 and 1"):
        mlcm(two, y_pred)
    large = y_true.copy()
    large[5, 0] = 2**40 + 1  # inexact in float32: refused, never counted
    with pytest.raises(ValueError, match="y_true has values other than 0 and 1"):
        mlcm(large, y_pred)
    calls = []
    original = targets.is_binary

    def counted(y):
        calls.append(1)
        return original(y)

    monkeypatch.setattr(targets, "is_binary", counted)
    mlcm(y_true, y_pred)
    assert len(calls) == 2  # require_binary's two; can_be_empty reuses y_true's
