"""The transport-based confusion matrix against the paper (Erbani et al. 2024)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linprog
from sklearn.metrics import confusion_matrix

from sklearn_confusion_ext import (
    subpixel_confusion_matrix,
    transport_confusion_matrix,
    transport_plan,
)

# Section III-G, classes (A, B, C, D): see NOTES_ON_PAPERS.md.
Y_TRUE = np.array([[0, 1, 0, 0], [0, 0, 2, 1], [3, 0, 1, 0], [3, 1, 0, 0]])
Y_PRED = np.array([[1, 0, 2, 0], [2, 2, 0, 0], [0, 1, 2, 1], [3, 0, 2, 3]])
A, B, C, D = range(4)


def _plan(entries):
    plan = np.zeros((4, 4))
    for (i, j), value in entries.items():
        plan[i, j] = value
    return plan


# Eqs. (18)-(28).
PLANS = [
    _plan({(B, A): 1 / 3, (B, C): 2 / 3}),
    _plan({(C, A): 1 / 3, (C, B): 1 / 3, (D, A): 1 / 6, (D, B): 1 / 6}),
    _plan({(C, C): 1 / 4, (A, B): 1 / 4, (A, C): 1 / 4, (A, D): 1 / 4}),
    _plan({(A, A): 3 / 8, (A, C): 3 / 20, (A, D): 9 / 40, (B, C): 1 / 10, (B, D): 3 / 20}),
]


@pytest.mark.parametrize("index", range(4))
def test_section_3g_plans(index):
    np.testing.assert_allclose(transport_plan(Y_TRUE[index], Y_PRED[index]), PLANS[index],
                               rtol=0, atol=1e-15)


@pytest.mark.parametrize("weighting, weights", [
    ("uniform", [1, 1, 1, 1]),  # eq. (29)
    ("true", [1, 3, 4, 4]),  # eq. (30)
    ("pred", [3, 4, 4, 8]),  # eq. (31)
])
def test_section_3g_weighted_matrices(weighting, weights):
    expected = sum(w * plan for w, plan in zip(weights, PLANS))
    got = transport_confusion_matrix(Y_TRUE, Y_PRED, weighting=weighting, empty="error")
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-14)
    # Eq. (15): weighting by a norm is the same as scaling the plans.
    np.testing.assert_allclose(
        transport_confusion_matrix(Y_TRUE, Y_PRED, sample_weight=weights, empty="error"),
        expected, atol=1e-14)


def _random_labels(rng, n_samples, n_classes):
    return rng.integers(0, n_classes, n_samples), rng.integers(0, n_classes, n_samples)


@pytest.mark.parametrize("seed", range(5))
def test_proposition_7_equals_sklearn_confusion_matrix(seed):
    rng = np.random.default_rng(seed)
    y_true, y_pred = _random_labels(rng, 500, 6)
    weights = rng.random(500)
    np.testing.assert_array_equal(transport_confusion_matrix(y_true, y_pred),
                                  confusion_matrix(y_true, y_pred))
    for normalize in (None, "true", "pred", "all"):
        np.testing.assert_allclose(
            transport_confusion_matrix(y_true, y_pred, sample_weight=weights,
                                       normalize=normalize),
            confusion_matrix(y_true, y_pred, sample_weight=weights, normalize=normalize),
            rtol=1e-12)
    for labels in ([2, 0, 5], [5, 4, 3, 2, 1, 0], [0, 7, 3]):
        np.testing.assert_allclose(
            transport_confusion_matrix(y_true, y_pred, labels=labels, normalize="true"),
            confusion_matrix(y_true, y_pred, labels=labels, normalize="true"))


def test_proposition_7_string_labels_and_weightings():
    y_true = np.array(["cat", "dog", "dog", "bird", "cat"])
    y_pred = np.array(["dog", "dog", "cat", "bird", "cat"])
    expected = confusion_matrix(y_true, y_pred)
    for weighting in ("uniform", "true", "pred"):
        np.testing.assert_array_equal(
            transport_confusion_matrix(y_true, y_pred, weighting=weighting), expected)
    # One-hot 2-D input is the same matrix, plus an empty "none" row and column.
    classes = np.unique(y_true)
    one_hot = (y_true[:, None] == classes).astype(int), (y_pred[:, None] == classes).astype(int)
    got = transport_confusion_matrix(*one_hot)
    np.testing.assert_array_equal(got[:3, :3], expected)
    assert got[3].sum() == 0 and got[:, 3].sum() == 0


def _random_soft(rng, n_samples, n_classes, density=0.5):
    y = rng.random((n_samples, n_classes)) * (rng.random((n_samples, n_classes)) < density)
    y[np.arange(n_samples), rng.integers(0, n_classes, n_samples)] += rng.random(n_samples) + 0.1
    return y


def test_proposition_10_marginal_sums(rng):
    y_true, y_pred = _random_soft(rng, 300, 7), _random_soft(rng, 300, 7)
    for y, y_hat in zip(y_true[:20], y_pred[:20]):
        plan = transport_plan(y, y_hat)
        np.testing.assert_allclose(plan.sum(axis=1), y / y.sum(), atol=1e-15)
        np.testing.assert_allclose(plan.sum(axis=0), y_hat / y_hat.sum(), atol=1e-15)
    weights = rng.random(300)
    matrix = transport_confusion_matrix(y_true, y_pred, sample_weight=weights, empty="error")
    u = y_true / y_true.sum(axis=1, keepdims=True)
    v = y_pred / y_pred.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(matrix.sum(axis=1), weights @ u, rtol=1e-12)
    np.testing.assert_allclose(matrix.sum(axis=0), weights @ v, rtol=1e-12)


def test_diagonalization_property(rng):
    y = _random_soft(rng, 50, 5)
    matrix = transport_confusion_matrix(y, 3.0 * y, empty="error")
    np.testing.assert_allclose(matrix, np.diag(np.diag(matrix)), atol=1e-13)
    mismatched = transport_plan([1, 2, 0], [1, 0, 2])
    assert mismatched[1, 2] > 0


def test_proportional_prediction_is_diagonal_never_nan():
    y = np.array([0.1, 0.7, 0.2, 0.3])
    plan = transport_plan(y, 2.5 * y)
    assert np.isfinite(plan).all()
    np.testing.assert_array_equal(plan, np.diag(np.diag(plan)))
    np.testing.assert_allclose(np.diag(plan), y / y.sum(), atol=1e-15)


def _optimal_plan_bounds(u, v):
    """Entry-wise min and max over all optimal plans, by linear programming."""
    n = len(u)
    cost = 1 - np.eye(n).ravel()
    a_eq = np.vstack([np.kron(np.eye(n), np.ones(n)), np.kron(np.ones(n), np.eye(n))])
    b_eq = np.concatenate([u, v])
    best = linprog(cost, A_eq=a_eq, b_eq=b_eq, bounds=(0, None)).fun
    a_opt = np.vstack([a_eq, cost])
    b_opt = np.append(b_eq, best)
    lower, upper = np.zeros(n * n), np.zeros(n * n)
    for k in range(n * n):
        objective = np.zeros(n * n)
        objective[k] = 1
        lower[k] = linprog(objective, A_eq=a_opt, b_eq=b_opt, bounds=(0, None)).fun
        upper[k] = -linprog(-objective, A_eq=a_opt, b_eq=b_opt, bounds=(0, None)).fun
    return best, lower.reshape(n, n), upper.reshape(n, n)


@pytest.mark.parametrize("seed", range(4))
def test_plan_is_optimal_and_scm_bounds_match_linear_programs(seed):
    rng = np.random.default_rng(seed)
    y, y_hat = _random_soft(rng, 1, 5)[0], _random_soft(rng, 1, 5)[0]
    u, v = y / y.sum(), y_hat / y_hat.sum()
    best, lower, upper = _optimal_plan_bounds(u, v)
    plan = transport_plan(y, y_hat)
    assert (plan >= 0).all()
    np.testing.assert_allclose((1 - np.eye(5)).ravel() @ plan.ravel(), best, atol=1e-9)
    np.testing.assert_allclose(np.diag(plan), np.minimum(u, v), atol=1e-15)
    got_lower, got_upper = subpixel_confusion_matrix([y], [y_hat], empty="error")
    np.testing.assert_allclose(got_lower, lower, atol=1e-8)
    np.testing.assert_allclose(got_upper, upper, atol=1e-8)
    assert (got_lower <= plan + 1e-12).all() and (plan <= got_upper + 1e-12).all()


def test_plan_is_the_maximum_entropy_optimal_plan(rng):
    y, y_hat = np.array([3.0, 1, 0, 0, 0]), np.array([0.0, 0, 1, 2, 1])
    plan = transport_plan(y, y_hat)

    def entropy(p):
        p = p[p > 0]
        return -(p * np.log(p)).sum()

    # Moving mass around any 2x2 rectangle of the off-diagonal block keeps the
    # plan optimal; entropy must not increase.
    for (i, k), (j, m) in [((0, 1), (2, 3)), ((0, 1), (3, 4)), ((0, 1), (2, 4))]:
        for eps in (1e-3, -1e-3):
            moved = plan.copy()
            moved[i, j] += eps
            moved[k, m] += eps
            moved[i, m] -= eps
            moved[k, j] -= eps
            if (moved >= 0).all():
                assert entropy(moved) < entropy(plan)


def test_scm_brackets_tcm_on_many_instances(rng):
    y_true, y_pred = _random_soft(rng, 400, 6), _random_soft(rng, 400, 6)
    weights = rng.random(400)
    tcm = transport_confusion_matrix(y_true, y_pred, weighting="true", sample_weight=weights)
    lower, upper = subpixel_confusion_matrix(y_true, y_pred, weighting="true",
                                             sample_weight=weights)
    assert lower.shape == upper.shape == tcm.shape == (6, 6)  # soft: no "none" class
    assert (lower <= tcm + 1e-12).all() and (tcm <= upper + 1e-12).all()
    np.testing.assert_allclose(np.diag(lower), np.diag(tcm))
    np.testing.assert_allclose(np.diag(upper), np.diag(tcm))


def test_scm_equals_tcm_when_plan_is_unique(rng):
    # Single labels: one underestimated class, so one optimal plan (Prop. 2).
    y_true, y_pred = rng.integers(0, 4, 200), rng.integers(0, 4, 200)
    lower, upper = subpixel_confusion_matrix(y_true, y_pred)
    np.testing.assert_allclose(lower, confusion_matrix(y_true, y_pred))
    np.testing.assert_allclose(upper, confusion_matrix(y_true, y_pred))


@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
def test_sparse_equals_dense(rng, weighting):
    y_true = (rng.random((300, 12)) < 0.2).astype(float)
    y_pred = (rng.random((300, 12)) < 0.2).astype(float)
    weights = rng.random(300)
    dense = transport_confusion_matrix(y_true, y_pred, weighting=weighting,
                                       sample_weight=weights)
    for convert in (sp.csr_matrix, sp.csr_array, sp.csc_matrix, sp.coo_array):
        np.testing.assert_allclose(
            transport_confusion_matrix(convert(y_true), convert(y_pred), weighting=weighting,
                                       sample_weight=weights), dense, atol=1e-12)
    mixed = transport_confusion_matrix(sp.csr_array(y_true), y_pred, weighting=weighting,
                                       sample_weight=weights)
    np.testing.assert_allclose(mixed, dense, atol=1e-12)
    bounds = subpixel_confusion_matrix(y_true, y_pred, weighting=weighting)
    sparse_bounds = subpixel_confusion_matrix(sp.csr_array(y_true), sp.csr_array(y_pred),
                                              weighting=weighting)
    np.testing.assert_allclose(bounds, sparse_bounds, atol=1e-12)


def test_chunked_and_threaded_sum_equals_one_block(rng, monkeypatch):
    import sklearn_confusion_ext._core.chunks as chunks

    y_true, y_pred = _random_soft(rng, 2000, 5), _random_soft(rng, 2000, 5)
    whole = transport_confusion_matrix(y_true, y_pred)
    calls = []
    original = chunks.map_chunks

    def counting_map_chunks(function, n_rows, step, n_jobs=None, chunks_per_thread=None):
        calls.append(step)
        return original(function, n_rows, step, n_jobs, chunks_per_thread)

    # Chunks sized by bytes: the partial 5 x 5 matrix's 200 bytes hold 5 rows of 40 bytes.
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 8)
    monkeypatch.setattr(chunks, "map_chunks", counting_map_chunks)
    np.testing.assert_allclose(transport_confusion_matrix(y_true, y_pred), whole, atol=1e-12)
    np.testing.assert_allclose(subpixel_confusion_matrix(y_true, y_pred)[0].sum(),
                               subpixel_confusion_matrix(y_true[:1000], y_pred[:1000])[0].sum()
                               + subpixel_confusion_matrix(y_true[1000:], y_pred[1000:])[0].sum())
    assert calls and min(calls) == 5


EMPTY_TRUE = np.array([[1, 0, 1], [0, 0, 0], [0, 1, 0], [0, 0, 0]])
EMPTY_PRED = np.array([[1, 0, 0], [0, 1, 1], [0, 0, 0], [0, 0, 0]])


def test_empty_null_class():
    got = transport_confusion_matrix(EMPTY_TRUE, EMPTY_PRED, weighting="true")
    expected = np.zeros((4, 4))
    expected[0, 0] = 0.5 * 2  # instance 0: weight |y| = 2, half its label found
    expected[2, 0] = 0.5 * 2  # the other half (class 2) predicted as class 0
    expected[3, 1] = expected[3, 2] = 0.5  # instance 1: empty label, weight 1
    expected[1, 3] = 1.0  # instance 2: empty prediction
    expected[3, 3] = 1.0  # instance 3: both empty
    np.testing.assert_allclose(got, expected)
    # Shape depends on the kind and the policy only.
    full = np.eye(3)
    assert transport_confusion_matrix(full, full).shape == (4, 4)
    assert transport_confusion_matrix(full, full, empty="skip").shape == (3, 3)


def test_empty_skip_warns_and_drops():
    with pytest.warns(UserWarning, match="3 instance"):
        got = transport_confusion_matrix(EMPTY_TRUE, EMPTY_PRED, empty="skip")
    np.testing.assert_allclose(got, transport_confusion_matrix(EMPTY_TRUE[:1], EMPTY_PRED[:1],
                                                               empty="error"))


def test_empty_error_names_rows():
    with pytest.raises(ValueError, match=r"y_true \(rows \[1, 3\]\) and y_pred \(rows \[2, 3\]\)"):
        transport_confusion_matrix(EMPTY_TRUE, EMPTY_PRED, empty="error")


def test_empty_sparse_matches_dense():
    dense = transport_confusion_matrix(EMPTY_TRUE, EMPTY_PRED, weighting="pred")
    sparse = transport_confusion_matrix(sp.csr_array(EMPTY_TRUE), sp.csr_array(EMPTY_PRED),
                                        weighting="pred")
    np.testing.assert_allclose(sparse, dense)


def test_labels_select_rows_and_columns_with_none_last(rng):
    y_true = (rng.random((100, 5)) < 0.3).astype(int)
    y_pred = (rng.random((100, 5)) < 0.3).astype(int)
    full = transport_confusion_matrix(y_true, y_pred)
    got = transport_confusion_matrix(y_true, y_pred, labels=[3, 0])
    np.testing.assert_allclose(got, full[np.ix_([3, 0, 5], [3, 0, 5])])
    np.testing.assert_allclose(
        transport_confusion_matrix(y_true, y_pred, labels=[3, 0], normalize="true"),
        got / got.sum(axis=1, keepdims=True))


def test_callable_weighting(rng):
    y_true, y_pred = _random_soft(rng, 50, 4), _random_soft(rng, 50, 4)

    def squared_norm(mass_true, mass_pred):
        return np.asarray(mass_true.sum(axis=1)).ravel() ** 2

    norms = y_true.sum(axis=1)
    np.testing.assert_allclose(
        transport_confusion_matrix(y_true, y_pred, weighting=squared_norm),
        transport_confusion_matrix(y_true, y_pred, sample_weight=norms ** 2), atol=1e-12)
    with pytest.raises(ValueError, match="weighting callable must return 50 weights"):
        transport_confusion_matrix(y_true, y_pred, weighting=lambda a, b: np.ones(3))
    with pytest.raises(ValueError, match="non-negative"):
        transport_confusion_matrix(y_true, y_pred, weighting=lambda a, b: -np.ones(50))


def test_invariances(rng):
    y_true, y_pred = _random_soft(rng, 80, 4), _random_soft(rng, 80, 4)
    base = transport_confusion_matrix(y_true, y_pred)
    order = rng.permutation(80)
    np.testing.assert_allclose(transport_confusion_matrix(y_true[order], y_pred[order]), base,
                               atol=1e-12)
    classes = rng.permutation(4)
    relabeled = transport_confusion_matrix(y_true[:, classes], y_pred[:, classes])
    np.testing.assert_allclose(relabeled[:4, :4], base[np.ix_(classes, classes)], atol=1e-12)
    np.testing.assert_allclose(transport_confusion_matrix(y_true.tolist(), y_pred.tolist()),
                               base)
    np.testing.assert_allclose(
        transport_confusion_matrix(y_true, y_pred, sample_weight=np.ones(80)), base)
    labels_true, labels_pred = rng.integers(0, 3, 60), rng.integers(0, 3, 60)
    names = np.array(["x", "y", "z"])
    np.testing.assert_array_equal(
        transport_confusion_matrix(names[labels_true], names[labels_pred]),
        transport_confusion_matrix(labels_true, labels_pred))
    np.testing.assert_array_equal(
        transport_confusion_matrix(labels_true, labels_pred, labels=[2, 1, 0]),
        transport_confusion_matrix(labels_true, labels_pred)[::-1, ::-1])


def test_result_dtype_is_float64():
    assert transport_confusion_matrix([1, 0], [1, 1]).dtype == np.float64
    assert transport_confusion_matrix([[True, False]], [[True, True]]).dtype == np.float64


@pytest.mark.parametrize("call, match", [
    (lambda: transport_confusion_matrix([0, 1], [0, 1], weighting="label"),
     "'weighting' parameter"),
    (lambda: transport_confusion_matrix([0, 1], [0, 1], normalize="rows"), "'normalize' parameter"),
    (lambda: transport_confusion_matrix([[1, 0]], [[1, 0]], empty="drop"), "'empty' parameter"),
    (lambda: transport_plan([1, 0], [1, 0, 0]), "same length"),
    (lambda: transport_plan([0, 0], [1, 0]), "no mass"),
    (lambda: transport_plan([-1, 2], [1, 0]), "non-negative"),
    (lambda: transport_plan([[1, 0]], [1, 0]), "1-D"),
])
def test_bad_parameters(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_no_warning_on_clean_input(rng):
    y_true, y_pred = _random_soft(rng, 30, 3), _random_soft(rng, 30, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        transport_confusion_matrix(y_true, y_pred)
        transport_confusion_matrix(y_true, 2 * y_true)


soft_rows = arrays(np.float64, (4,), elements=st.floats(0, 10, allow_subnormal=False))


@settings(max_examples=200, deadline=None)
@given(soft_rows, soft_rows)
def test_property_plan_is_an_optimal_coupling(y, y_hat):
    if y.sum() == 0 or y_hat.sum() == 0:
        return
    plan = transport_plan(y, y_hat)
    u, v = y / y.sum(), y_hat / y_hat.sum()
    assert np.isfinite(plan).all() and (plan >= 0).all()
    np.testing.assert_allclose(plan.sum(axis=1), u, atol=1e-9)
    np.testing.assert_allclose(plan.sum(axis=0), v, atol=1e-9)
    np.testing.assert_allclose(np.diag(plan), np.minimum(u, v), atol=1e-12)  # Prop. 1
    # Prop. 6: off-diagonal ij non-zero only if i underestimated and j overestimated.
    off = plan - np.diag(np.diag(plan))
    rows, columns = np.nonzero(off > 1e-12)
    assert (u[rows] > v[rows]).all() and (v[columns] > u[columns]).all()
    # Prop. 5: homogeneity, so scaling either side changes nothing.
    np.testing.assert_allclose(transport_plan(3 * y, 0.5 * y_hat), plan, atol=1e-12)


@pytest.mark.filterwarnings("ignore:A single label was found")
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40),
       st.sampled_from(["uniform", "true", "pred"]))
def test_property_single_label_equals_confusion_matrix(pairs, weighting):
    y_true, y_pred = map(np.array, zip(*pairs))
    np.testing.assert_array_equal(
        transport_confusion_matrix(y_true, y_pred, weighting=weighting),
        confusion_matrix(y_true, y_pred))


def test_bad_values_found_in_any_chunk_name_their_global_row(rng, monkeypatch):
    import sklearn_confusion_ext._core.chunks as chunks

    monkeypatch.setattr(chunks, "CHUNK_BYTES", 8)  # 64 rows a chunk: row 137 in the third
    y_true, y_pred = _random_soft(rng, 200, 4), _random_soft(rng, 200, 4)
    y_pred[137, 2] = np.nan
    with pytest.raises(ValueError, match="y_pred contains nan .*row 137"):
        transport_confusion_matrix(y_true, y_pred)
    y_pred[137, 2] = -1
    with pytest.raises(ValueError, match="y_pred has negative entries .*row 137"):
        transport_confusion_matrix(y_true, y_pred)
    with pytest.raises(ValueError, match="y_pred has negative entries .*row 137"):
        subpixel_confusion_matrix(y_true, y_pred)
    y_pred[137] = 0
    with pytest.raises(ValueError, match=r"rows \[137\]"):
        transport_confusion_matrix(y_true, y_pred, empty="error")
    with pytest.warns(UserWarning, match="1 instance"):
        transport_confusion_matrix(y_true, y_pred, empty="skip")


def test_subnormal_row_masses_give_the_matrix_of_the_rescaled_rows():
    y_true = np.array([[1e-310, 2e-310, 0], [0, 1, 0], [3e-320, 0, 5e-321]])
    y_pred = np.array([[1e-310, 0, 1e-310], [0, 1, 0], [0, 4e-321, 4e-321]])
    rescaled = transport_confusion_matrix(y_true / np.abs(y_true).max(axis=1, keepdims=True),
                                          y_pred / np.abs(y_pred).max(axis=1, keepdims=True))
    for convert in (np.asarray, sp.csr_array):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no overflow on the way
            matrix = transport_confusion_matrix(convert(y_true), convert(y_pred))
            lower, upper = subpixel_confusion_matrix(convert(y_true), convert(y_pred))
        np.testing.assert_allclose(matrix, rescaled, rtol=1e-6)
        assert np.isfinite(lower).all() and np.isfinite(upper).all()


def test_accuracy_of_huge_weights_is_finite_or_refused():
    from sklearn_confusion_ext import transport_accuracy_score

    assert transport_accuracy_score([0, 1], [0, 1], sample_weight=[4e299, 4e299]) == 1.0
    assert transport_accuracy_score([0, 1], [0, 0], sample_weight=[4e299, 4e299]) == 0.5
    with pytest.raises(ValueError, match="sample_weight sums to about 1e308"):
        transport_accuracy_score([0, 1], [0, 0], sample_weight=[1e308, 1e308])


def _rows_of_mixed_scales(rng, dtype, n_samples=3000, n_classes=6):
    """Soft rows whose masses span the type's range, some pairs equal or nearly equal."""
    y_true, y_pred = (rng.random((n_samples, n_classes)) ** 3 for _ in range(2))
    y_pred[::5] = y_true[::5]  # no deficit
    y_pred[1::5] = y_true[1::5] * (1 + 1e-13)  # a deficit of rounding size
    # Chunks of 500 rows: unit masses, masses across the range compared at the mass of
    # y_true (float32: 2**-20 to 2**20), then masses across the type (normalized rows).
    within, largest = (5.0, 30.0) if dtype == np.float32 else (25.0, 280.0)
    scales = np.ones((n_samples, 1))
    scales[1000:2000] = 10.0 ** rng.uniform(-within, within, (1000, 1))
    scales[2000:] = 10.0 ** rng.uniform(-largest, largest, (n_samples - 2000, 1))
    return (y_true * scales).astype(dtype), (y_pred * scales).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("function", [transport_confusion_matrix, subpixel_confusion_matrix])
def test_rows_compared_at_the_mass_of_y_true_equal_normalized_rows(monkeypatch, dtype,
                                                                   function):
    # Dense rows in range are compared at the mass of y_true (y_pred scaled to it, weights
    # divided by it); the plan is homogeneous, so the sums equal those of normalized rows,
    # the deficit tolerance included (it is relative to the mass).
    from sklearn_confusion_ext._matrices import transport

    rng = np.random.default_rng(11)
    y_true, y_pred = _rows_of_mixed_scales(rng, dtype)
    y_true.flags.writeable = False  # read as it is, never written
    weight = rng.random(len(y_true)) * 10.0 ** rng.integers(-3, 3, len(y_true))
    scaled = function(y_true, y_pred, sample_weight=weight, chunk_size=500)
    monkeypatch.setattr(transport, "_EQUAL_MASS_LIMITS", {})
    normalized = function(y_true, y_pred, sample_weight=weight, chunk_size=500)
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(scaled, normalized, rtol=tolerance, atol=tolerance * weight.sum())


@pytest.mark.parametrize("n_samples, n_classes", [(120_000, 10), (20_000, 100), (3_000, 1_000)])
def test_float32_soft_labels_are_accurate_to_float32_rounding(n_samples, n_classes):
    """Soft labels against soft labels in float32: each chunk's outer products are one
    float32 GEMM (chunks of about 2 MiB: 26,214 rows at C = 10, 2,621 at C = 100), the
    chunks summed in float64. The accuracy this gives, stated: every cell within 1e-6 of
    itself (relative) of the float64 matrix of the same values (measured: 1.4e-7 to 2.7e-7
    with these chunks, 4e-7 to 6e-7 for one chunk of every row), in float64. Several
    chunks at each C, so the float64 sum of the chunks' float32 products is what runs."""
    rng = np.random.default_rng(5)
    y_true = rng.random((n_samples, n_classes), dtype=np.float32)
    y_pred = rng.random((n_samples, n_classes), dtype=np.float32) ** 2
    single = transport_confusion_matrix(y_true, y_pred)
    double = transport_confusion_matrix(y_true.astype(np.float64), y_pred.astype(np.float64))
    assert single.dtype == np.float64
    np.testing.assert_allclose(single, double, rtol=1e-6, atol=0)
    # the same rows in one chunk of float32 products: within the same bound
    np.testing.assert_allclose(transport_confusion_matrix(y_true, y_pred, chunk_size=n_samples),
                               double, rtol=1e-6, atol=0)


# Review of the rows compared at the mass of y_true: y_pred of another type, weights far
# from the masses (each of these gave a wrong or refused matrix before being fixed).
# Both rows normalized: u = (.25, .75), (.5, .5); v = (.75, .25), (.25, .75).
_UNIT_TRUE = np.array([[1.0, 3.0], [2.0, 2.0]])
_UNIT_PRED = np.array([[3.0, 1.0], [1.0, 3.0]])
_UNIT_EXPECTED = np.array([[0.5, 0.25], [0.5, 0.75]])


@pytest.mark.parametrize("true_mass, pred_mass", [(1e-25, 1e25), (1e25, 1e-15)])
def test_float64_y_true_beside_float32_y_pred_far_apart_masses(true_mass, pred_mass):
    # y_pred is scaled to the mass of y_true by a ratio cast to float32: 1e-50 is 0 there
    # (the matrix silently all zeros), 1e40 is inf (a false "beyond the float64 range").
    y_true = _UNIT_TRUE * true_mass
    y_pred = (_UNIT_PRED * pred_mass).astype(np.float32)
    np.testing.assert_allclose(transport_confusion_matrix(y_true, y_pred), _UNIT_EXPECTED,
                               rtol=1e-6)


@pytest.mark.parametrize("dtype, mass, weight", [(np.float64, 1e25, 1e-280),
                                                 (np.float64, 1e20, 1e-290),
                                                 (np.float32, 1e3, 1e-37)])
def test_small_sample_weights_beside_large_masses(dtype, mass, weight):
    # The weights divided by |y| (and the plans' scales by |y| again) fall below the
    # normal range: the off-diagonal underflows (lost entirely at 1e-280 and mass 1e25).
    y_true, y_pred = (_UNIT_TRUE * mass).astype(dtype), _UNIT_PRED.astype(dtype)
    sample_weight = np.full(2, weight)
    expected = transport_confusion_matrix(_UNIT_TRUE.astype(dtype), y_pred,
                                          sample_weight=sample_weight)
    got = transport_confusion_matrix(y_true, y_pred, sample_weight=sample_weight)
    np.testing.assert_allclose(got / weight, expected / weight,
                               rtol=1e-5 if dtype == np.float32 else 1e-9)


def test_empty_null_class_weighted_by_predictions():
    """weighting="pred": an instance weighs its prediction's mass, an empty prediction 1 (as
    an empty label weighs 1 with weighting="true"), so that it stays in the "none" column."""
    got = transport_confusion_matrix([[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 0], [0, 1]],
                                     weighting="pred")
    expected = np.zeros((3, 3))
    expected[0, 0] = 1.0  # instance 0: found, weight |y_pred| = 1
    expected[1, 2] = 1.0  # instance 1: no prediction, weight 1, in the none column
    expected[0, 1] = expected[1, 1] = 0.5  # instance 2: half of class 0's mass moved to 1
    np.testing.assert_array_equal(got, expected)
    assert got.sum() == 3.0
    # By hand (classes 0, 1, 2, none): |y_pred| = 3, 0 (weight 1), 1 and 2.
    got = transport_confusion_matrix(EMPTY_TRUE, [[1, 1, 1], [0, 0, 0], [0, 1, 0], [1, 1, 0]],
                                     weighting="pred")
    expected = np.zeros((4, 4))
    # instance 0: u = (1/2, 0, 1/2), v = (1/3, 1/3, 1/3), times 3.
    expected[0, 0] = expected[2, 2] = 3 * 1 / 3
    expected[0, 1] = expected[2, 1] = 3 * 1 / 6
    expected[3, 3] = 1.0  # instance 1: neither a label nor a prediction, weight 1
    expected[1, 1] = 1.0  # instance 2: exact, weight 1
    expected[3, 0] = expected[3, 1] = 2 * 0.5  # instance 3: no label, weight |y_pred| = 2
    np.testing.assert_allclose(got, expected, atol=1e-15)
    assert got.sum() == pytest.approx(3 + 1 + 1 + 2)
