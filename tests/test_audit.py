"""The property audit reproduces Table 2 of Gosgens et al. (2021) in the binary case."""

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix

from sklearn_confusion_ext import (
    AuditResult,
    audit_measure,
    confusion_entropy,
    correlation_distance,
    generalized_means_score,
    symmetric_balanced_accuracy_score,
)
from sklearn_confusion_ext._audit import PROPERTIES


def _matrix(y_true, y_pred):
    matrix = confusion_matrix(y_true, y_pred, labels=[0, 1]).astype(float)
    present = (matrix.sum(axis=0) + matrix.sum(axis=1)) > 0
    return matrix[np.ix_(present, present)]


def balanced_accuracy(y_true, y_pred):
    """Table 1's BA with Appendix B's resolutions (absent classes, constant labelings)."""
    matrix = _matrix(y_true, y_pred)
    if len(matrix) == 2 and np.count_nonzero(matrix) == 1 and np.trace(matrix) == 0:
        return 0.0
    n, true_sizes, pred_sizes = matrix.sum(), matrix.sum(axis=1), matrix.sum(axis=0)
    return float(np.mean(np.divide(np.diag(matrix), true_sizes, out=pred_sizes / n,
                                   where=true_sizes > 0)))


def cohen_kappa(y_true, y_pred):
    """Table 1's kappa; both labelings constant on one class is maximal agreement."""
    matrix = _matrix(y_true, y_pred)
    n, true_sizes, pred_sizes = matrix.sum(), matrix.sum(axis=1), matrix.sum(axis=0)
    denominator = n * n - true_sizes @ pred_sizes
    if denominator == 0:
        return 1.0
    return float((n * np.trace(matrix) - true_sizes @ pred_sizes) / denominator)


def _binary_cells(y_true, y_pred):
    (c00, c01), (c10, c11) = confusion_matrix(y_true, y_pred, labels=[0, 1])
    return c11, c10, c01


def f1(y_true, y_pred):
    """Table 1's F1; no positive anywhere is maximal agreement (Appendix B)."""
    c11, c10, c01 = _binary_cells(y_true, y_pred)
    return 1.0 if c11 + c10 + c01 == 0 else 2 * c11 / (2 * c11 + c10 + c01)


def jaccard(y_true, y_pred):
    c11, c10, c01 = _binary_cells(y_true, y_pred)
    return 1.0 if c11 + c10 + c01 == 0 else c11 / (c11 + c10 + c01)


MEASURES = {
    "Acc": accuracy_score,
    "BA": balanced_accuracy,
    "F1": f1,
    "J": jaccard,
    "kappa": cohen_kappa,
    "CC": lambda t, p: generalized_means_score(t, p, r=0, labels=[0, 1]),
    "SBA": lambda t, p: symmetric_balanced_accuracy_score(t, p, labels=[0, 1]),
    "GM(r=1)": lambda t, p: generalized_means_score(t, p, r=1, labels=[0, 1]),
    "GM(r=-2)": lambda t, p: generalized_means_score(t, p, r=-2, labels=[0, 1]),
    "GM(r=3)": lambda t, p: generalized_means_score(t, p, r=3, labels=[0, 1]),
    "CE": lambda t, p: -confusion_entropy(t, p, labels=[0, 1]),
    "CD": lambda t, p: -correlation_distance(t, p, labels=[0, 1]),
}


def _table_2():
    """The binary rows of Table 2, as printed in doc/user_guide/measures.rst."""
    guide = Path(__file__).resolve().parents[1] / "doc" / "user_guide" / "measures.rst"
    guide = guide.read_text()
    table = guide.split(".. csv-table:: Properties of binary classification measures")[1]
    rows = {}
    for line in table.splitlines()[1:]:
        if line.strip().startswith(":") or not line.strip():
            continue
        if not line.startswith("   "):
            break
        name, *marks = (cell.strip().strip('"') for cell in line.split(","))
        rows[name] = [mark == "yes" for mark in marks]
    return rows


TABLE_2 = _table_2()


def test_documented_table_covers_the_measures():
    assert set(TABLE_2) == set(MEASURES)
    assert all(len(row) == len(PROPERTIES) for row in TABLE_2.values())


@pytest.mark.parametrize("name", list(MEASURES))
def test_audit_reproduces_table_2(name):
    result = audit_measure(MEASURES[name], max_n=5, n_trials=150, random_state=0)
    assert isinstance(result, AuditResult)
    assert list(result) == list(PROPERTIES)
    assert dict(result) == dict(zip(PROPERTIES, TABLE_2[name]))
    assert set(result.counterexamples) == {p for p, ok in result.items() if not ok}


def test_counterexamples_are_real():
    result = audit_measure(MEASURES["F1"], max_n=4, n_trials=50, random_state=1)
    minimal = result.counterexamples["minimal_agreement"]
    zero_diagonal, other = (np.array(m) for m in minimal["matrices"])
    assert not np.diag(zero_diagonal).any() and np.diag(other).any()
    assert minimal["values"][0] == minimal["values"][1]  # F1 = 0 with c00 > 0 too
    symmetric = result.counterexamples["class_symmetry"]
    first, second = (np.array(m) for m in symmetric["matrices"])
    np.testing.assert_array_equal(second, first[::-1, ::-1])
    assert symmetric["values"][0] != symmetric["values"][1]
    a, b, c = (np.array(x) for x in result.counterexamples["distance"]["labelings"])

    def d(x, y):
        return 1 - MEASURES["F1"](x, y)

    assert d(a, c) > d(a, b) + d(b, c)
    assert "never raises" in result.counterexamples["strong_monotonicity"]["reason"]


def test_multiclass_audit_of_sba_and_accuracy():
    sba = audit_measure(symmetric_balanced_accuracy_score, n_classes=3, max_n=4,
                        n_trials=100, random_state=0)
    assert sba["constant_baseline"] and sba["approximate_constant_baseline"]
    assert sba["maximal_agreement"] and sba["symmetry"] and sba["monotonicity"]
    assert not sba["distance"]
    # With a class absent from one labeling, Appendix B's resolution c_ii / a_i = b_i / n
    # credits it: multiclass SBA then loses minimal agreement (found at n = 2).
    assert not sba["minimal_agreement"]
    accuracy = audit_measure(accuracy_score, n_classes=3, max_n=4, n_trials=100,
                             random_state=0)
    assert accuracy["distance"] and not accuracy["constant_baseline"]


def test_reproducible_and_readable():
    first = audit_measure(accuracy_score, max_n=3, n_trials=50, random_state=3)
    second = audit_measure(accuracy_score, max_n=3, n_trials=50, random_state=3)
    assert dict(first) == dict(second) and first.counterexamples == second.counterexamples
    assert "constant_baseline" in repr(first) and "no" in repr(first)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"measure": "accuracy"}, TypeError,
     "'measure' parameter of audit_measure must be a callable; got 'accuracy'"),
    ({"n_classes": 1}, ValueError,
     "'n_classes' parameter of audit_measure must be an integer >= 2; got 1"),
    ({"n_classes": True}, TypeError, "'n_classes' parameter of audit_measure"),
    ({"max_n": 1}, ValueError, "'max_n' parameter of audit_measure must be an integer >= 2"),
    ({"n_trials": -1}, ValueError,
     "'n_trials' parameter of audit_measure must be an integer >= 0; got -1"),
    ({"n_trials": 2.5}, TypeError, "'n_trials' parameter of audit_measure must be an integer"),
    ({"random_state": "seed"}, TypeError, "'random_state' parameter of audit_measure"),
])
def test_bad_parameters(kwargs, error, match):
    arguments = {"measure": accuracy_score, **kwargs}
    with pytest.raises(error, match=match):
        audit_measure(**arguments)


def test_numpy_integers_are_accepted():
    expected = audit_measure(accuracy_score, n_classes=2, max_n=3, n_trials=20, random_state=1)
    got = audit_measure(accuracy_score, n_classes=np.int64(2), max_n=np.int32(3),
                        n_trials=np.int64(20), random_state=np.int64(1))
    assert dict(got) == dict(expected) and got.counterexamples == expected.counterexamples
    assert got["distance"] and not got["constant_baseline"]


def test_audit_result_checks_its_parameters():
    with pytest.raises(TypeError, match="'satisfied' parameter of AuditResult must be an "
                       "instance of dict; got"):
        AuditResult([("symmetry", True)], {})
    assert dict(AuditResult({"symmetry": True}, {})) == {"symmetry": True}


def test_non_finite_measure_values_are_reported():
    with pytest.raises(ValueError, match="resolve its singularities"):
        audit_measure(lambda t, p: float("nan"), max_n=2, n_trials=0)


def test_audit_refuses_unbounded_work_before_evaluating():
    calls = []

    def counted(y_true, y_pred):
        calls.append(1)
        return accuracy_score(y_true, y_pred)

    with pytest.raises(ValueError, match=r"2,256,511 times.*max_n=6 fits"):
        audit_measure(counted, n_classes=4)
    assert not calls
    with pytest.raises(ValueError, match="3,334 times, more than max_evaluations=1,000"):
        audit_measure(counted, max_n=3, n_trials=200, max_evaluations=1_000)


def test_audit_cache_stays_within_max_evaluations(capsys):
    audit_measure(accuracy_score, max_n=4, n_trials=20, random_state=0,
                  max_evaluations=2_000, verbose=1)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("[audit_measure]") and "baselines checked" in lines[-1]
    evaluations = int(lines[-1].split(": ")[1].split(" evaluations")[0].replace(",", ""))
    assert 0 < evaluations <= 2_000


@pytest.mark.parametrize("bad", ["0.5", None, float("nan"), [0.5]])
def test_audit_names_a_measure_that_returns_no_finite_number(bad):
    def broken_measure(y_true, y_pred):
        return bad

    error = ValueError if isinstance(bad, float) else TypeError
    with pytest.raises(error, match="measure broken_measure returned .* confusion matrix"):
        audit_measure(broken_measure, max_n=3, n_trials=5)


def test_quantification_audit_names_a_measure_returning_a_string(capsys):
    from sklearn_confusion_ext import absolute_error, audit_quantification_measure

    def text_error(p_true, p_pred):
        return "0.1"

    with pytest.raises(TypeError, match="measure text_error returned '0.1'.*p_true="):
        audit_quantification_measure(text_error, n_classes=2, n_trials=5)
    audit_quantification_measure(absolute_error, n_classes=(2, 3), n_trials=20, verbose=1)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "[audit_quantification_measure] 2 classes checked",
        "[audit_quantification_measure] 3 classes checked"]
