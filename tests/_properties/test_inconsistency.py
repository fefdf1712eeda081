"""Inconsistency of measures: Gosgens et al. (2021), Section 5 and Appendix E.

The paper's own numbers: the table of indistinguishable measures of Section 5.1 (n = 2 to
10), the six discriminating triplets of Table 8 (each pair of measures as printed), the
SST-5 rankings of Table 5 and the ImageNet scores of Tables 4 and 11. Properties: the
inconsistency matrix is symmetric, counts what a loop over pairs counts, is zero between a
measure and a strictly increasing transformation of it, is transitive, and adds over groups.
"""

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
    jaccard_score,
    matthews_corrcoef,
)
from test_measures import TRIPLETS

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import (
    DiscriminatingTripletsResult,
    InconsistencyResult,
    confusion_entropy,
    correlation_distance,
    discriminating_triplets,
    generalized_means_score,
    indistinguishable_measures,
    measure_inconsistency,
    measure_inconsistency_from_confusion,
    symmetric_balanced_accuracy_score,
)
from sklearn_confusion_ext._properties.inconsistency import _BINARY, _SECTION5

BINARY = ("Acc", "BA", "F1", "kappa", "CE", "GM1", "CC", "SBA")

# Section 5.1, table "Indistinguishable measures".
SECTION_5_1 = {
    2: [{"Acc", "BA", "F1", "kappa", "CE", "GM1", "CC", "SBA"}],
    3: [{"Acc", "BA", "kappa", "GM1", "CC", "SBA"}],
    4: [{"BA", "kappa", "GM1", "CC", "SBA"}],
    5: [{"BA", "kappa", "GM1", "CC", "SBA"}],
    6: [{"GM1", "CC", "SBA"}],
    7: [{"GM1", "CC", "SBA"}],
    8: [{"CC", "SBA"}],
    9: [],
    10: [],
}

# Table 8, upper part: (A, B1, B2), as test_measures.py writes them.
TABLE_8_TRIPLETS = TRIPLETS
# Table 8, lower part: the triplet (1-based) discriminating each pair; rows and columns BINARY.
TABLE_8_PAIRS = """
Acc   - 1 2 6 6 1 5 5
BA    1 - 1 1 1 3 3 1
F1    2 1 - 2 2 1 2 2
kappa 6 1 2 - 4 1 3 3
CE    6 1 2 4 - 1 3 3
GM1   1 3 1 1 1 - 5 1
CC    5 3 2 3 3 5 - 4
SBA   5 1 2 3 3 1 4 -
"""


def _table_8_pairs():
    rows = [line.split() for line in TABLE_8_PAIRS.strip().splitlines()]
    assert [row[0] for row in rows] == list(BINARY)
    return np.array([[0 if cell == "-" else int(cell) for cell in row[1:]] for row in rows])


def section5(name):
    """A Section 5 measure as a function of 0/1 labelings."""
    return lambda y_true, y_pred: _SECTION5[name](confusion_matrix(y_true, y_pred,
                                                                   labels=[0, 1]))


# --- Section 5.1 --------------------------------------------------------------------------


@pytest.mark.parametrize("n", sorted(SECTION_5_1))
def test_indistinguishable_measures_reproduce_section_5_1(n):
    assert indistinguishable_measures(n=n) == SECTION_5_1[n]


@pytest.mark.parametrize("n", [3, 6, 8])
def test_measures_given_as_functions_of_labelings_give_the_same_groups(n):
    measures = {name: section5(name) for name in BINARY}
    assert indistinguishable_measures(measures, n) == SECTION_5_1[n]


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.slow
def test_the_confusion_matrix_shortcut_equals_every_triplet_of_labelings(n):
    # Brute force over every (A, B1, B2) of labelings with both classes: the pairs of
    # measures that some triplet tells apart.
    labelings = [np.array(bits) for bits in itertools.product((0, 1), repeat=n)
                 if 0 < sum(bits) < n]
    distinguished = np.zeros((len(BINARY), len(BINARY)), dtype=bool)
    for y_true in labelings:
        result = measure_inconsistency(
            y_true, labelings, measures={name: section5(name) for name in BINARY})
        distinguished |= result.n_inconsistent > 0
    groups = []
    for i in range(len(BINARY)):
        group = {BINARY[j] for j in np.flatnonzero(~distinguished[i])}
        if len(group) > 1 and group not in groups:
            groups.append(group)
    assert groups == SECTION_5_1[n] == indistinguishable_measures(n=n)


def test_indistinguishable_groups_keep_the_order_of_measures():
    measures = {"SBA": section5("SBA"), "Acc": section5("Acc"), "CC": section5("CC")}
    assert indistinguishable_measures(measures, 8) == [{"SBA", "CC"}]
    assert indistinguishable_measures(measures, 2) == [{"SBA", "Acc", "CC"}]


# --- Table 8 ------------------------------------------------------------------------------


def test_table_8_lower_part_is_symmetric():
    pairs = _table_8_pairs()
    np.testing.assert_array_equal(pairs, pairs.T)


@pytest.mark.parametrize("k", range(6))
def test_table_8_triplets_discriminate_their_pairs_as_printed(k):
    a, b1, b2 = TABLE_8_TRIPLETS[k]
    result = measure_inconsistency(a, [b1, b2], strict=True)
    assert result.measure_names == BINARY
    listed = _table_8_pairs() == k + 1
    assert listed.any()
    # Every pair the table assigns to this triplet is strictly discriminated by it.
    assert (result.n_inconsistent[listed] == 1).all(), result


def test_table_8_triplets_discriminate_every_pair():
    discriminated = np.zeros((8, 8), dtype=bool)
    for a, b1, b2 in TABLE_8_TRIPLETS:
        discriminated |= measure_inconsistency(a, [b1, b2], strict=True).n_inconsistent > 0
    assert discriminated[~np.eye(8, dtype=bool)].all()


def test_discriminating_triplets_cover_every_pair_at_n_10():
    result = discriminating_triplets(10)
    assert isinstance(result, DiscriminatingTripletsResult)
    triplets, index = result
    assert result.measure_names == BINARY
    assert len(triplets) <= len(TABLE_8_TRIPLETS)
    assert (np.diag(index) == -1).all()
    off = ~np.eye(8, dtype=bool)
    assert (index[off] >= 0).all()
    np.testing.assert_array_equal(index, index.T)
    for i, j in zip(*np.nonzero(off)):
        a, b1, b2 = triplets[index[i, j]]
        assert a.shape == (10,) and 0 < a.sum() < 10 and 0 < b1.sum() < 10
        assert 0 < b2.sum() < 10
        strict = measure_inconsistency(a, [b1, b2], strict=True).n_inconsistent
        assert strict[i, j] == 1


def test_discriminating_triplets_leave_indistinguishable_pairs_out():
    result = discriminating_triplets(8)
    names = list(result.measure_names)
    assert result.triplet_index[names.index("CC"), names.index("SBA")] == -1
    assert (result.triplet_index >= 0).sum() == 8 * 7 - 2
    assert repr(result).startswith("DiscriminatingTripletsResult(triplets=<")


# --- Tables 4, 5 and 11: orders the paper prints ------------------------------------------

# Table 5: rank (1 best) of seven algorithms on SST-5 by each measure.
TABLE_5 = {
    "Acc": [1, 2, 3, 4, 5, 6, 7], "BA": [1, 4, 3, 5, 2, 6, 7],
    "F1": [1, 5, 3, 4, 2, 6, 7], "J": [1, 5, 3, 4, 2, 6, 7],
    "kappa": [1, 4, 3, 5, 2, 6, 7], "CE": [1, 2, 5, 3, 6, 7, 4],
    "GM1": [1, 5, 3, 4, 2, 6, 7], "CC": [1, 2, 3, 5, 4, 6, 7],
    "CCmacro": [1, 2, 4, 5, 3, 6, 7], "SBA": [1, 2, 4, 3, 5, 7, 6],
}
# Table 11: ImageNet, ten models (Acc/BA, F1, J, kappa, 1-CE, GM1, CC, CCmac, SBA).
TABLE_11 = np.array([
    [88.33, 88.21, 80.43, 88.32, 94.42, 88.19, 88.32, 88.31, 88.44],
    [88.23, 88.08, 80.25, 88.21, 94.38, 88.07, 88.22, 88.20, 88.35],
    [87.15, 87.01, 78.63, 87.13, 93.86, 87.00, 87.13, 87.14, 87.30],
    [86.83, 86.64, 78.08, 86.82, 93.64, 86.63, 86.82, 86.78, 86.95],
    [86.46, 86.30, 77.525, 86.44, 93.41, 86.28, 86.44, 86.419, 86.57],
    [86.43, 86.27, 77.531, 86.42, 93.51, 86.26, 86.42, 86.423, 86.60],
    [86.32, 86.17, 77.311, 86.30, 93.37, 86.16, 86.30, 86.31, 86.48],
    [86.31, 86.12, 77.314, 86.29, 93.41, 86.10, 86.30, 86.28, 86.47],
    [86.08, 85.89, 76.97, 86.06, 93.21, 85.87, 86.07, 86.02, 86.19],
    [85.72, 85.55, 76.51, 85.70, 93.05, 85.53, 85.70, 85.70, 85.89],
])
TABLE_11_NAMES = ("Acc", "F1", "J", "kappa", "1-CE", "GM1", "CC", "CCmac", "SBA")


def lookup(values):
    """A 'measure' reading a printed value: the prediction is the model's number."""
    return lambda y_true, y_pred: values[int(y_pred[0])]


def test_table_5_consistent_rankings_are_the_ones_the_paper_names():
    measures = {name: lookup(-np.array(ranks)) for name, ranks in TABLE_5.items()}
    result = measure_inconsistency([0], [[k] for k in range(7)], measures=measures)
    assert result.n_pairs == 21
    consistent = {frozenset((result.measure_names[i], result.measure_names[j]))
                  for i, j in zip(*np.nonzero(result.n_inconsistent == 0)) if i < j}
    # "the only consistent rankings are the one provided by kappa and BA and the second
    # given by F1, GM, and Jaccard"
    assert consistent == {frozenset(pair) for pair in (
        ("kappa", "BA"), ("F1", "GM1"), ("F1", "J"), ("GM1", "J"))}
    # Accuracy and F1 differ on 5 pairs of the 21 (FastText, Flair+BERT, Logistic, SVM).
    assert result.n_inconsistent[0, 2] == 5


def test_tables_4_and_11_imagenet_orders():
    measures = {name: lookup(TABLE_11[:, m]) for m, name in enumerate(TABLE_11_NAMES)}
    models = [[k] for k in range(10)]
    top_four = measure_inconsistency([0], models[:4], measures=measures, strict=True)
    assert (top_four.n_inconsistent == 0).all()  # "inconsistent starting from the fifth"
    fifth_sixth = measure_inconsistency([0], models[4:6], measures=measures, strict=True)
    disagree = {name for name, count in zip(TABLE_11_NAMES, fifth_sixth.n_inconsistent[0])
                if count}
    # Table 4: Confusion Entropy, Jaccard and SBA (and CC macro) disagree with accuracy.
    assert disagree == {"J", "1-CE", "CCmac", "SBA"}


# --- The measures of Section 5 ------------------------------------------------------------


def test_binary_section5_measures_are_the_classic_ones():
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, 40)
    y_preds = [np.where(rng.random(40) < p, 1 - y_true, y_true) for p in (0.1, 0.3, 0.5)]
    result = measure_inconsistency(y_true, y_preds)
    expected = {
        "Acc": accuracy_score, "BA": balanced_accuracy_score, "F1": f1_score,
        "kappa": cohen_kappa_score, "CC": matthews_corrcoef,
        "CE": lambda t, p: 1 - confusion_entropy(t, p),
        "GM1": generalized_means_score, "SBA": symmetric_balanced_accuracy_score,
    }
    assert result.measure_names == BINARY
    for m, name in enumerate(BINARY):
        np.testing.assert_allclose(result.scores[0, :, m],
                                   [expected[name](y_true, y) for y in y_preds], atol=1e-12)


def test_multiclass_section5_measures_are_table_12s():
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 4, 60)
    y_preds = [np.where(rng.random(60) < p, rng.integers(0, 4, 60), y_true)
               for p in (0.2, 0.5, 0.9)]
    result = measure_inconsistency(y_true, y_preds)
    assert result.measure_names == ("Acc", "BA", "F1", "J", "kappa", "CE", "GM1", "CC",
                                    "SBA")
    expected = {
        "Acc": accuracy_score, "BA": balanced_accuracy_score,
        "F1": lambda t, p: f1_score(t, p, average="macro"),
        "J": lambda t, p: jaccard_score(t, p, average="macro"),
        "kappa": cohen_kappa_score, "CC": matthews_corrcoef,
        "CE": lambda t, p: 1 - confusion_entropy(t, p),
        "GM1": lambda t, p: generalized_means_score(t, p, average="macro"),
        "SBA": symmetric_balanced_accuracy_score,
    }
    for m, name in enumerate(result.measure_names):
        np.testing.assert_allclose(result.scores[0, :, m],
                                   [expected[name](y_true, y) for y in y_preds], atol=1e-12)


def test_section5_measures_resolve_singularities_as_appendix_b():
    # A constant prediction: CC and GM1 at their baseline 0; BA's recall of the class
    # absent from y_true... here every class is in y_true: BA = 1/2.
    result = measure_inconsistency([0, 0, 1, 1], [[1, 1, 1, 1], [0, 0, 0, 0]])
    scores = dict(zip(result.measure_names, result.scores[0, 0]))
    assert scores["CC"] == 0.0 and scores["GM1"] == 0.0 and scores["BA"] == 0.5
    assert scores["kappa"] == 0.0
    # No positive in either labeling: F1 is maximal agreement (1), not 0 or NaN.
    result = measure_inconsistency([0, 0, 0], [[0, 0, 0], [0, 1, 0]])
    scores = dict(zip(result.measure_names, result.scores[0, 0]))
    assert scores["F1"] == 1.0 and scores["kappa"] == 1.0 and scores["CC"] == 1.0
    # A class absent from y_true: its recall c_ii / a_i becomes b_i / n.
    result = measure_inconsistency([0, 0, 1, 1], [[0, 2, 1, 1], [0, 0, 1, 1]])
    scores = dict(zip(result.measure_names, result.scores[0, 0]))
    assert scores["BA"] == pytest.approx((1 / 2 + 1 + 1 / 4) / 3)
    # Both labelings constant, on different classes: minimal agreement.
    result = measure_inconsistency([0, 0, 0], [[1, 1, 1], [0, 0, 0]])
    scores = dict(zip(result.measure_names, result.scores[0, 0]))
    assert scores["BA"] == 0.0 and scores["Acc"] == 0.0 and scores["SBA"] == 0.0
    assert np.isfinite(result.scores).all()


# --- Properties of the inconsistency ------------------------------------------------------


def loop_counts(scores, strict):
    """The definition, one pair at a time."""
    n_predictions, n_measures = scores.shape
    counts = np.zeros((n_measures, n_measures), dtype=int)
    for i, j in itertools.combinations(range(n_predictions), 2):
        signs = np.sign(scores[i] - scores[j])
        for a, b in itertools.product(range(n_measures), repeat=2):
            if strict:
                counts[a, b] += signs[a] * signs[b] < 0
            else:
                counts[a, b] += signs[a] != signs[b]
    return counts


score_tables = st.integers(2, 7).flatmap(lambda k: st.lists(
    st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, -1.0]), min_size=3, max_size=3),
    min_size=k, max_size=k)).map(np.array)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(score_tables, st.booleans())
def test_inconsistency_counts_what_a_loop_over_pairs_counts(table, strict):
    measures = {f"m{m}": lookup(table[:, m]) for m in range(table.shape[1])}
    result = measure_inconsistency([0], [[k] for k in range(len(table))],
                                   measures=measures, strict=strict)
    assert isinstance(result, InconsistencyResult)
    np.testing.assert_array_equal(result.n_inconsistent, loop_counts(table, strict))
    n_pairs = len(table) * (len(table) - 1) // 2
    assert result.n_pairs == n_pairs
    np.testing.assert_array_equal(result.inconsistency, result.n_inconsistent / n_pairs)
    np.testing.assert_array_equal(result.n_inconsistent, result.n_inconsistent.T)
    assert (np.diag(result.n_inconsistent) == 0).all()
    if not strict:
        # Consistency is an equivalence: zero inconsistency is transitive.
        zero = result.n_inconsistent == 0
        assert ((zero.astype(int) @ zero.astype(int) > 0) <= zero).all()
        loose = measure_inconsistency([0], [[k] for k in range(len(table))],
                                      measures=measures, strict=True)
        assert (loose.n_inconsistent <= result.n_inconsistent).all()


labelings = st.integers(4, 12).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 2), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(0, 2), min_size=n, max_size=n), min_size=2, max_size=5)))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(labelings)
def test_increasing_transformations_are_never_inconsistent(drawn):
    y_true, y_preds = drawn
    measures = {
        "CC": lambda t, p: _SECTION5["CC"](confusion_matrix(t, p, labels=[0, 1, 2])),
        "-CD": lambda t, p: -correlation_distance(t, p, labels=[0, 1, 2]),
        "CC^3": lambda t, p: _SECTION5["CC"](confusion_matrix(t, p, labels=[0, 1, 2])) ** 3,
    }
    result = measure_inconsistency(y_true, y_preds, measures=measures)
    np.testing.assert_array_equal(result.n_inconsistent, 0)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(labelings, st.lists(st.integers(0, 2), min_size=12, max_size=12))
def test_groups_add_their_pairs(drawn, group_ids):
    y_true, y_preds = drawn
    groups = np.array(group_ids[:len(y_true)])
    measures = {name: section5(name) for name in ("Acc", "BA", "F1")}
    y_true, y_preds = np.array(y_true) % 2, np.array(y_preds) % 2
    whole = measure_inconsistency(y_true, y_preds, measures=measures, groups=groups)
    parts = [measure_inconsistency(y_true[groups == g], y_preds[:, groups == g],
                                   measures=measures) for g in np.unique(groups)]
    np.testing.assert_array_equal(whole.n_inconsistent,
                                  sum(part.n_inconsistent for part in parts))
    assert whole.n_pairs == sum(part.n_pairs for part in parts)
    assert whole.scores.shape == (len(parts), len(y_preds), 3)


def test_ties_count_unless_strict():
    # F1 ties (c11 = 1 in both) while accuracy does not: inconsistent, not strictly.
    y_true = [1, 1, 0, 0, 0, 0]
    y_preds = [[1, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]]
    measures = {"F1": section5("F1"), "Acc": section5("Acc")}
    assert measure_inconsistency(y_true, y_preds, measures=measures).n_inconsistent[0, 1] == 0
    y_preds = [[1, 0, 1, 0, 0, 0], [0, 1, 1, 0, 0, 0]]  # same F1 (1/2), same accuracy
    assert measure_inconsistency(y_true, y_preds, measures=measures).n_inconsistent[0, 1] == 0
    y_preds = [[1, 1, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0]]  # F1 2/3 both; Acc 4/6 vs 5/6
    plain = measure_inconsistency(y_true, y_preds, measures=measures)
    strict = measure_inconsistency(y_true, y_preds, measures=measures, strict=True)
    assert plain.n_inconsistent[0, 1] == 1 and strict.n_inconsistent[0, 1] == 0


def test_rounding_does_not_break_ties():
    measures = {"a": lookup([0.1 + 0.2, 0.3]), "b": lookup([1.0, 1.0])}
    result = measure_inconsistency([0], [[0], [1]], measures=measures)
    assert result.n_inconsistent[0, 1] == 0
    result = measure_inconsistency([0], [[0], [1]], measures=measures, tolerance=0.0)
    assert result.n_inconsistent[0, 1] == 1


def test_repr_prints_percentages():
    text = repr(measure_inconsistency([0, 0, 1, 1], [[0, 1, 1, 1], [0, 0, 0, 1]]))
    assert "n_pairs=1" in text and "100.0" in text and "Acc" in text and "nan" not in text


# --- Errors ---------------------------------------------------------------------------------


def test_a_measure_returning_nan_is_refused():
    measures = {"ok": section5("Acc"), "bad": lambda t, p: float("nan")}
    with pytest.raises(ValueError, match=r"measures\['bad'\] returned nan"):
        measure_inconsistency([0, 1], [[0, 1], [1, 0]], measures=measures)
    with pytest.raises(ValueError, match=r"measures\['bad'\] returned nan"):
        indistinguishable_measures(measures, 3)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="at least two"):
        measure_inconsistency([0, 1], [[0, 1]])
    with pytest.raises(ValueError, match=r"y_preds\[1\] has 3 samples"):
        measure_inconsistency([0, 1], [[0, 1], [0, 1, 1]])
    with pytest.raises(ValueError, match="single 1-D"):
        measure_inconsistency([0, 1], np.array([0, 1]))
    with pytest.raises(ValueError, match="groups must hold one group id per instance"):
        measure_inconsistency([0, 1], [[0, 1], [1, 1]], groups=[0])
    with pytest.raises(ValueError, match="measures is empty"):
        measure_inconsistency([0, 1], [[0, 1], [1, 1]], measures={})
    with pytest.raises(TypeError, match="callable"):
        measure_inconsistency([0, 1], [[0, 1], [1, 1]], measures={"a": 1})
    with pytest.raises(ValueError, match="n"):
        indistinguishable_measures(n=1)


def test_binary_names_are_section_5_1s():
    assert _BINARY == BINARY


# --- Appendix E.1: the rain forecast's average confusion matrices -------------------------

# In %, thresholds in increasing order: (c00, c01, c10, c11), rows true classes.
TEN_MINUTES = [(93.55, 1.12, 0.22, 5.11), (93.76, 0.91, 0.29, 5.04), (93.84, 0.83, 0.33, 5.01),
               (93.91, 0.76, 0.36, 4.97), (94.10, 0.57, 0.49, 4.85), (94.33, 0.34, 0.75, 4.59)]
TWO_HOURS = [(90.41, 4.25, 1.47, 3.87), (91.32, 3.34, 1.74, 3.60), (91.67, 2.99, 1.87, 3.47),
             (91.96, 2.70, 1.99, 3.35), (92.94, 1.72, 2.51, 2.83), (93.98, 0.68, 3.43, 1.91)]


def best_thresholds(matrices):
    result = measure_inconsistency_from_confusion(np.reshape(matrices, (-1, 2, 2)))
    return result, dict(zip(result.measure_names, result.scores[0].argmax(axis=0)))


def test_appendix_e1_ten_minute_horizon():
    result, best = best_thresholds(TEN_MINUTES)
    # "accuracy grows from 98.66% to 98.80%"; BA falls, SBA rises (the two differences).
    acc, ba, sba = (result.scores[0, :2, result.measure_names.index(name)]
                    for name in ("Acc", "BA", "SBA"))
    np.testing.assert_allclose(acc, [0.9866, 0.9880], atol=1e-12)
    assert ba[1] < ba[0] and sba[1] > sba[0]
    # "Balanced Accuracy favors the smallest" threshold; most measures agree on one.
    assert best["BA"] == 0
    assert {best[name] for name in ("Acc", "F1", "kappa", "GM1", "CC", "SBA")} == {4}


def test_appendix_e1_two_hour_horizon():
    _, best = best_thresholds(TWO_HOURS)
    # "accuracy and CE prefer the largest threshold, while BA and SBA prefer the smallest";
    # the others favour thresholds in between.
    assert best["Acc"] == best["CE"] == 5
    assert best["BA"] == best["SBA"] == 0
    assert all(0 < best[name] < 5 for name in ("F1", "kappa", "GM1", "CC"))


def test_from_confusion_equals_the_labels_path_and_adds_groups():
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 3, 50)
    y_preds = [np.where(rng.random(50) < p, rng.integers(0, 3, 50), y_true)
               for p in (0.1, 0.4, 0.7, 0.9)]
    groups = np.arange(50) % 2
    matrices = np.array([[confusion_matrix(y_true[groups == g], y[groups == g],
                                           labels=[0, 1, 2]) for y in y_preds]
                         for g in (0, 1)])
    expected = measure_inconsistency(y_true, y_preds, groups=groups)
    result = measure_inconsistency_from_confusion(matrices)
    np.testing.assert_array_equal(result.n_inconsistent, expected.n_inconsistent)
    np.testing.assert_allclose(result.scores, expected.scores)
    custom = measure_inconsistency_from_confusion(
        matrices[0], measures={"trace": np.trace, "first": lambda m: m[0, 0]})
    assert custom.measure_names == ("trace", "first") and custom.scores.shape == (1, 4, 2)
    with pytest.raises(ValueError, match="shape"):
        measure_inconsistency_from_confusion(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"matrices\[1\]"):
        measure_inconsistency_from_confusion([np.eye(2), -np.eye(2)])


def test_predictions_as_dataframe_columns_or_a_dict():
    # One column per classifier, as a user holds them (found by a review: the column
    # names were iterated).
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, 50)
    frame = pd.DataFrame({f"c{k}": np.where(rng.random(50) < 0.2 + 0.1 * k, 1 - y_true, y_true)
                          for k in range(4)})
    rows = measure_inconsistency(y_true, [frame[c].to_numpy() for c in frame])
    for predictions in (frame, dict(frame.items())):
        np.testing.assert_array_equal(measure_inconsistency(y_true, predictions).inconsistency,
                                      rows.inconsistency)


def test_measure_inconsistency_sees_no_order_in_constant_labelings():
    """Two predictions against a constant truth: CC ties them (it ordered the rounding)."""
    y_true = [1] * 6
    y_preds = [[0, 1, 1, 1, 2, 2], [2, 1, 1, 0, 0, 0], [1, 1, 1, 1, 2, 0]]
    for y_pred in y_preds:
        assert sce.matthews_corrcoef(y_true, y_pred) == 0.0
    values = {sce.correlation_distance(y_true, y_pred) for y_pred in y_preds}
    assert values == {0.5}
