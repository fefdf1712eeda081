"""Generalized Means and relatives (Gosgens et al., NeurIPS 2021)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
)

from sklearn_confusion_ext import (
    confusion_entropy,
    confusion_entropy_from_confusion,
    correlation_distance,
    correlation_distance_from_confusion,
    generalized_means_from_confusion,
    generalized_means_score,
    symmetric_balanced_accuracy_from_confusion,
    symmetric_balanced_accuracy_score,
)


def direct_generalized_means(matrix, r):
    """Definition 10 written out for a binary matrix, positive class 1."""
    (c00, c01), (c10, c11) = np.asarray(matrix, dtype=float)
    n = c00 + c01 + c10 + c11
    a1, a0, b1, b0 = c11 + c10, c01 + c00, c11 + c01, c10 + c00
    return (n * c11 - a1 * b1) / (0.5 * ((a1 * a0) ** r + (b1 * b0) ** r)) ** (1 / r)


def balanced_accuracy(matrix):
    matrix = np.asarray(matrix, dtype=float)
    return np.mean(np.diag(matrix) / matrix.sum(axis=1))


@pytest.mark.parametrize("r", [-3.0, -1.0, -0.5, 0.5, 1.0, 2.0, 7.0])
def test_definition_10_against_direct_formula(rng, r):
    for _ in range(20):
        matrix = rng.integers(1, 30, size=(2, 2))
        assert generalized_means_from_confusion(matrix, r=r) == pytest.approx(
            direct_generalized_means(matrix, r), rel=1e-12)


def test_statement_2_special_cases(rng):
    for _ in range(20):
        y_true, y_pred = rng.integers(0, 2, 40), rng.integers(0, 2, 40)
        matrix = confusion_matrix(y_true, y_pred)
        mcc = matthews_corrcoef(y_true, y_pred)
        assert generalized_means_score(y_true, y_pred, r=0) == pytest.approx(mcc, abs=1e-12)
        for tiny in (1e-14, 1e-9, -1e-9, 1e-5):  # continuous through r = 0
            assert generalized_means_score(y_true, y_pred, r=tiny) == pytest.approx(
                mcc, abs=1e-4 if abs(tiny) >= 1e-5 else 1e-9)
        harmonic = generalized_means_from_confusion(matrix, r=-1)
        assert harmonic == pytest.approx(
            balanced_accuracy(matrix) + balanced_accuracy(matrix.T) - 1, abs=1e-12)
        assert symmetric_balanced_accuracy_from_confusion(matrix) == pytest.approx(
            (harmonic + 1) / 2, abs=1e-12)


TRIPLETS = [
    ((1, 1, 1, 0, 1, 1, 0, 1, 1, 0), (1, 1, 1, 0, 1, 0, 1, 1, 1, 1),
     (1, 0, 0, 1, 0, 1, 0, 1, 1, 0)),
    ((0, 1, 1, 1, 1, 0, 1, 1, 0, 1), (1, 0, 0, 1, 0, 1, 0, 1, 1, 0),
     (0, 1, 0, 0, 0, 0, 0, 0, 0, 0)),
    ((0, 0, 0, 0, 1, 1, 1, 0, 1, 0), (1, 1, 1, 1, 1, 1, 1, 1, 0, 1),
     (0, 1, 1, 1, 1, 0, 1, 1, 0, 1)),
    ((0, 1, 1, 1, 1, 0, 1, 1, 0, 1), (1, 1, 1, 1, 1, 1, 1, 1, 0, 1),
     (0, 1, 0, 1, 1, 1, 1, 1, 0, 1)),
    ((0, 0, 0, 0, 1, 1, 1, 0, 1, 0), (0, 1, 1, 0, 0, 1, 0, 0, 0, 1),
     (0, 1, 0, 0, 0, 0, 0, 0, 0, 0)),
    ((1, 1, 1, 1, 1, 1, 1, 1, 0, 1), (1, 1, 1, 0, 1, 1, 0, 1, 1, 0),
     (0, 1, 1, 0, 0, 1, 0, 0, 0, 1)),
]
MEASURES = {  # higher is better for all of them
    "Acc": accuracy_score,
    "BA": balanced_accuracy_score,
    "F1": f1_score,
    "kappa": cohen_kappa_score,
    "CE": lambda a, b: -confusion_entropy(a, b),
    "GM1": lambda a, b: generalized_means_score(a, b, r=1),
    "CC": lambda a, b: generalized_means_score(a, b, r=0),
    "SBA": symmetric_balanced_accuracy_score,
}
# Lower part of Table 8: for each pair, the triplet that discriminates it.
TABLE_8 = {
    "Acc": [1, 2, 6, 6, 1, 5, 5], "BA": [1, 1, 1, 1, 3, 3, 1],
    "F1": [2, 1, 2, 2, 1, 2, 2], "kappa": [6, 1, 2, 4, 1, 3, 3],
    "CE": [6, 1, 2, 4, 1, 3, 3], "GM1": [1, 3, 1, 1, 1, 5, 1],
    "CC": [5, 3, 2, 3, 3, 5, 4], "SBA": [5, 1, 2, 3, 3, 1, 4],
}


def test_table_8_triplets_discriminate_the_listed_pairs():
    names = list(MEASURES)
    for first, row in TABLE_8.items():
        others = [name for name in names if name != first]
        for second, triplet in zip(others, row):
            a, b1, b2 = (np.array(labels) for labels in TRIPLETS[triplet - 1])
            first_gap = MEASURES[first](a, b1) - MEASURES[first](a, b2)
            second_gap = MEASURES[second](a, b1) - MEASURES[second](a, b2)
            assert first_gap * second_gap < 0, (first, second, triplet)


def one_vs_all(matrix, k):
    matrix = np.asarray(matrix, dtype=float)
    n, tp = matrix.sum(), matrix[k, k]
    fn, fp = matrix[k].sum() - tp, matrix[:, k].sum() - tp
    return np.array([[n - tp - fn - fp, fp], [fn, tp]])


def test_multiclass_averages_against_one_vs_all_by_hand():
    matrix = np.array([[5, 1, 2], [0, 4, 1], [3, 0, 6]])
    n = matrix.sum()
    for r in (-1.0, 0.0, 1.0, 2.5):
        scores = [generalized_means_from_confusion(one_vs_all(matrix, k), r=r)
                  for k in range(3)]
        assert generalized_means_from_confusion(matrix, r=r, average="macro") == \
            pytest.approx(np.mean(scores))
        assert generalized_means_from_confusion(matrix, r=r, average="weighted") == \
            pytest.approx(np.dot(matrix.sum(axis=1), scores) / n)
        trace = np.trace(matrix)
        micro = [[(3 - 2) * n + trace, n - trace], [n - trace, trace]]
        assert generalized_means_from_confusion(matrix, r=r, average="micro") == \
            pytest.approx(generalized_means_from_confusion(micro, r=r))


def test_multiclass_correlation_and_score_wrappers(rng):
    y_true, y_pred = rng.integers(0, 4, 200), rng.integers(0, 4, 200)
    mcc = matthews_corrcoef(y_true, y_pred)
    assert correlation_distance(y_true, y_pred) == pytest.approx(np.arccos(mcc) / np.pi)
    matrix = confusion_matrix(y_true, y_pred)
    for average in ("micro", "macro", "weighted"):
        assert generalized_means_score(y_true, y_pred, average=average) == \
            generalized_means_from_confusion(matrix, average=average)
    with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
        generalized_means_score(y_true, y_pred)


def test_confusion_entropy_as_table_1():
    # Appendix C.1: CE(C1) = 1 and CE(C2) > 1 for these matrices.
    assert confusion_entropy_from_confusion([[0, 6], [6, 0]]) == pytest.approx(1.0)
    assert confusion_entropy_from_confusion([[1, 5], [5, 1]]) > 1
    matrix = np.array([[3, 1, 0], [2, 4, 1], [0, 2, 5]], dtype=float)
    a, b, n = matrix.sum(axis=1), matrix.sum(axis=0), matrix.sum()
    total = 0.0
    for i, j in itertools.permutations(range(3), 2):
        for c in (matrix[j, i], matrix[i, j]):
            if c > 0:
                total += c * np.log(c / (a[j] + b[j])) / np.log(4)
    assert confusion_entropy_from_confusion(matrix) == pytest.approx(-total / (2 * n))
    assert confusion_entropy_from_confusion(np.diag([3, 4, 5])) == 0.0


def _all_labelings(sizes):
    """Every distinct labeling with these class sizes."""
    base = np.repeat(np.arange(len(sizes)), sizes)
    return {tuple(p) for p in itertools.permutations(base)}


@pytest.mark.parametrize("true_sizes", [(3, 3), (2, 4), (1, 5)])
@pytest.mark.parametrize("pred_sizes", [(3, 3), (1, 5), (5, 1), (0, 6)])
def test_exact_constant_baseline_binary(true_sizes, pred_sizes):
    y_true = np.repeat([0, 1], true_sizes)
    predictions = [np.array(p) for p in _all_labelings(pred_sizes)]
    for r in (-1.0, 0.0, 1.0, 2.0):
        expected = np.mean([generalized_means_score(y_true, p, r=r, labels=[0, 1])
                            for p in predictions])
        assert expected == pytest.approx(0.0, abs=1e-12)
    expected = np.mean([symmetric_balanced_accuracy_score(y_true, p, labels=[0, 1])
                        for p in predictions])
    assert expected == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("pred_sizes", [(2, 2, 2), (1, 1, 4), (0, 3, 3)])
def test_exact_constant_baseline_sba_multiclass(pred_sizes):
    y_true = np.repeat([0, 1, 2], (1, 2, 3))
    values = [symmetric_balanced_accuracy_from_confusion(
        confusion_matrix(y_true, np.array(p), labels=[0, 1, 2]))
        for p in _all_labelings(pred_sizes)]
    assert np.mean(values) == pytest.approx(1 / 3, abs=1e-12)


def test_singularities_never_nan():
    constant = [0, 0, 0, 0]
    varied = [0, 1, 0, 1]
    for r in (-1.0, 0.0, 1.0):
        assert generalized_means_score(varied, constant, r=r, labels=[0, 1]) == 0.0
        assert generalized_means_score(constant, varied, r=r, labels=[0, 1]) == 0.0
        assert generalized_means_score(constant, constant, r=r, labels=[0, 1]) == 1.0
        assert generalized_means_score([1, 1], [0, 0], r=r) == -1.0
    assert correlation_distance(constant, varied) == 0.5
    assert correlation_distance([2, 2, 2], [2, 2, 2]) == 0.0
    assert correlation_distance([1, 1, 1], [2, 2, 2]) == 1.0
    # c_ii / a_i with a_i = 0 becomes b_i / n (class 2 never true, predicted once).
    matrix = np.array([[2, 0, 1], [0, 1, 0], [0, 0, 0]])
    expected = (2 / 3 + 1 + 1 / 4 + 2 / 2 + 1 / 1 + 0 / 1) / 6
    assert symmetric_balanced_accuracy_from_confusion(matrix) == pytest.approx(expected)
    assert confusion_entropy([1, 1], [1, 1]) == 0.0


def test_unused_labels_change_nothing_and_one_hot_equals_labels(rng):
    y_true, y_pred = rng.integers(0, 3, 60), rng.integers(0, 3, 60)
    one_hot = np.eye(3)[y_true], np.eye(3)[y_pred]
    for function in (symmetric_balanced_accuracy_score, correlation_distance,
                     confusion_entropy):
        value = function(y_true, y_pred)
        assert function(y_true, y_pred, labels=[0, 1, 2, 7]) == pytest.approx(value)
        assert function(*one_hot) == pytest.approx(value, abs=1e-12)
    for average in ("micro", "macro", "weighted"):
        assert generalized_means_score(*one_hot, average=average) == pytest.approx(
            generalized_means_score(y_true, y_pred, average=average), abs=1e-12)


def test_soft_labels_use_the_transport_matrix(rng):
    from sklearn_confusion_ext import transport_confusion_matrix

    y_true, y_pred = rng.random((50, 3)), rng.random((50, 3))
    for weighting in ("uniform", "pred"):
        matrix = transport_confusion_matrix(y_true, y_pred, weighting=weighting)
        assert symmetric_balanced_accuracy_score(y_true, y_pred, weighting=weighting) == \
            pytest.approx(symmetric_balanced_accuracy_from_confusion(matrix))
        assert correlation_distance(y_true, y_pred, weighting=weighting) == \
            pytest.approx(correlation_distance_from_confusion(matrix))


@pytest.mark.parametrize("call, match", [
    (lambda: generalized_means_score([0, 1], [0, 1], r=np.nan), "'r' parameter"),
    (lambda: generalized_means_score([0, 1], [0, 1], r=np.inf), "'r' parameter"),
    (lambda: generalized_means_score([0, 1], [0, 1], average="samples"), "'average' parameter"),
    (lambda: generalized_means_score([0, 1, 1], [0, 1]), "same number of samples"),
    (lambda: generalized_means_score([0, 1], [0, 1], pos_label=2), "pos_label=2 is not"),
    (lambda: generalized_means_from_confusion(np.eye(3)), "needs a 2 x 2 matrix"),
    (lambda: generalized_means_from_confusion([[1, 2]]), "square"),
    (lambda: symmetric_balanced_accuracy_from_confusion([[1, -1], [0, 1]]), "non-negative"),
    (lambda: correlation_distance_from_confusion(np.zeros((2, 2))), "all zeros"),
    (lambda: confusion_entropy_from_confusion([[1, np.nan], [0, 1]]), "finite"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_confusion_entropy_never_calls_a_wrong_prediction_perfect():
    from sklearn.neighbors import KNeighborsClassifier

    from sklearn_confusion_ext import get_scorer

    # Two examples where Table 1's formula gives 0 to both. Here the classes absent from
    # one labeling hold one misclassified cell each: entropy 1, weight (a_j + b_j) / 2n.
    assert confusion_entropy([0, 1, 2, 3], [0, 1, 2, 4]) == pytest.approx(2 / 8)
    assert confusion_entropy_from_confusion([[0, 0, 0], [0, 1, 0], [1, 0, 0]]) == \
        pytest.approx(0.5)
    # The scorer inherits the fix: a classifier predicting [0, 1, 2, 4] for [0, 1, 2, 3].
    X = np.arange(4.0)[:, None]
    wrong = KNeighborsClassifier(n_neighbors=1).fit(X, [0, 1, 2, 4])
    assert get_scorer("neg_confusion_entropy")(wrong, X, [0, 1, 2, 3]) == pytest.approx(-0.25)


def test_confusion_entropy_rule_keeps_table_1_where_every_class_is_present(rng):
    for _ in range(20):
        matrix = rng.integers(0, 5, size=(4, 4))
        matrix[np.diag_indices(4)] += 1  # every class in both labelings
        a, b, n = matrix.sum(axis=1), matrix.sum(axis=0), matrix.sum()
        total = 0.0
        for i, j in itertools.permutations(range(4), 2):
            for c in (matrix[j, i], matrix[i, j]):
                if c > 0:
                    total += c * np.log(c / (a[j] + b[j])) / np.log(6)
        assert confusion_entropy_from_confusion(matrix) == pytest.approx(-total / (2 * n))


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 5).flatmap(lambda m: st.lists(
    st.integers(0, 4), min_size=m * m, max_size=m * m).map(
        lambda cells: np.reshape(cells, (m, m)))))
def test_confusion_entropy_is_zero_exactly_on_diagonal_matrices(matrix):
    if matrix.sum() == 0:
        return
    value = confusion_entropy_from_confusion(matrix)
    diagonal = not (matrix - np.diag(np.diag(matrix))).any()
    assert (value == 0.0) == diagonal
    assert value >= 0.0


def test_correlation_distance_forms_and_averages(rng):
    from sklearn_confusion_ext import matthews_corrcoef_from_confusion

    for _ in range(10):
        matrix = rng.integers(0, 9, size=(3, 3)) + np.eye(3, dtype=int)
        cc = matthews_corrcoef_from_confusion(matrix)
        assert correlation_distance_from_confusion(matrix, form="chord") == pytest.approx(
            np.sqrt(2 * (1 - cc)))
        per_class = np.array([correlation_distance_from_confusion(one_vs_all(matrix, k))
                              for k in range(3)])
        sizes = matrix.sum(axis=1)
        assert correlation_distance_from_confusion(matrix, average="macro") == \
            pytest.approx(per_class.mean())
        assert correlation_distance_from_confusion(matrix, average="weighted") == \
            pytest.approx(per_class @ sizes / sizes.sum())
        micro = generalized_means_from_confusion(matrix, r=0, average="micro")
        assert correlation_distance_from_confusion(matrix, average="micro") == \
            pytest.approx(np.arccos(micro) / np.pi)
        # Table 13: CD and its averages order predictions as CC and its averages do.
        for average in ("micro", "macro", "weighted"):
            chord = correlation_distance_from_confusion(matrix, form="chord", average=average)
            assert 0 <= chord <= 2
    y_true, y_pred = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
    assert correlation_distance(y_true, y_pred, form="chord", average="macro") == \
        correlation_distance_from_confusion(confusion_matrix(y_true, y_pred), form="chord",
                                            average="macro")


def test_symmetric_weighted_average_weighs_true_and_predicted_sizes_by_hand():
    """average="symmetric_weighted": each class's one-vs-all GM_r weighted by its mean size
    (a_i + b_i) / 2n, true and predicted sizes alike (here they differ: a = (12, 10, 10),
    b = (20, 7, 5)), no class constant in either labeling."""
    matrix = np.array([[10, 1, 1], [5, 5, 0], [5, 1, 4]])
    true_sizes, pred_sizes = matrix.sum(axis=1), matrix.sum(axis=0)
    for r in (-1.0, 1.0, 2.5):
        scores = [direct_generalized_means(one_vs_all(matrix, k), r) for k in range(3)]
        expected = np.dot(true_sizes + pred_sizes, scores) / (2 * matrix.sum())
        assert generalized_means_from_confusion(matrix, r=r, average="symmetric_weighted") \
            == pytest.approx(expected, rel=1e-12)
        # and not the true sizes' weights alone ("weighted"): the two differ here
        assert abs(expected - np.dot(true_sizes, scores) / matrix.sum()) > 0.01
    y_true = np.repeat([0, 0, 0, 1, 1, 1, 2, 2, 2], matrix.ravel())
    y_pred = np.repeat([0, 1, 2, 0, 1, 2, 0, 1, 2], matrix.ravel())
    scores = [direct_generalized_means(one_vs_all(matrix, k), 1.0) for k in range(3)]
    assert generalized_means_score(y_true, y_pred, average="symmetric_weighted") == \
        pytest.approx(np.dot(true_sizes + pred_sizes, scores) / (2 * matrix.sum()), rel=1e-12)
