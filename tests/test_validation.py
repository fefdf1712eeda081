"""The validation layer: every target kind in, one kind of mass array out, clear errors."""

import re
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_confusion_ext import transport_confusion_matrix
from sklearn_confusion_ext._core.validation import check_target_set, check_targets


def test_one_d_labels_become_one_hot_with_labels_order():
    targets = check_targets(["b", "a", "c"], ["a", "a", "b"], labels=["c", "a", "z"])
    assert targets.kind == "single-label" and targets.single_label
    assert list(targets.classes) == ["c", "a", "z", "b"]
    assert list(targets.selection) == [0, 1, 2]
    np.testing.assert_array_equal(targets.y_true.toarray(),
                                  [[0, 0, 0, 1], [0, 1, 0, 0], [1, 0, 0, 0]])
    np.testing.assert_array_equal(targets.y_pred.toarray(),
                                  [[0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]])


def test_kinds_and_norms():
    binary = check_targets([[1, 0], [1, 1]], [[0, 1], [1, 0]])
    assert binary.kind == "multilabel"
    np.testing.assert_array_equal(binary.true_norm, [1, 2])
    soft = check_targets([[0.5, 0], [1, 1]], [[0, 1], [1, 0]])
    assert soft.kind == "soft"
    assert check_targets(sp.csr_matrix([[2.0, 0]]), sp.csr_matrix([[1.0, 0]])).kind == "soft"


def test_single_column_is_one_d():
    targets = check_targets(np.array([[0], [1], [1]]), np.array([[1], [1], [0]]))
    assert targets.kind == "single-label"
    targets = check_targets(sp.csr_matrix([[0], [2]]), [1, 2])
    assert list(targets.classes) == [0, 1, 2]


def test_integral_floats_are_labels():
    np.testing.assert_array_equal(transport_confusion_matrix([0.0, 1.0], [1.0, 1.0]),
                                  transport_confusion_matrix([0, 1], [1, 1]))


def test_target_set_for_unequal_lengths():
    target_set = check_target_set({"y_test": [0, 1, 1], "y_train": [2, 2]})
    assert [mass.shape for mass in target_set.masses] == [(3, 3), (2, 3)]


@pytest.mark.parametrize("y_true, y_pred, kwargs, match", [
    ([0, 1, 1], [0, 1], {}, "same number of samples; got 3 and 2"),
    ([], [], {}, "y_true is empty"),
    ([[1, 0]], [[1, 0, 0]], {}, "same number of columns"),
    ([0, 1], [[1, 0], [0, 1]], {}, "must all be 1-D class labels or all be 2-D"),
    ([[1, -0.2]], [[1, 0]], {}, r"y_true has negative entries \(min -0.2, first at row 0\)"),
    ([[1, 0], [0, 1]], [[1, 0], [np.nan, 1]], {}, "y_pred contains nan .*row 1"),
    ([[1, 0]], [[np.inf, 0]], {}, "y_pred contains inf"),
    ([0.5, 1], [0, 1], {}, "non-integer floats"),
    ([0, np.nan], [0, 1], {}, "NaN or infinite class labels"),
    ([0, "a"], [0, 1], {}, "not class labels"),
    ([0, 1], [0, 1], {"labels": [0, 0]}, "labels must be unique"),
    ([0, 1], [0, 1], {"labels": []}, "non-empty"),
    ([0, 1], [0, 1], {"labels": [5, 6]}, "None of labels"),
    ([0, 1], [0, 1], {"labels": ["a"]}, "labels holds strings but the targets hold numbers"),
    ([[1, 0]], [[1, 0]], {"labels": [2]}, r"column indices in \[0, 2\)"),
    ([[1, 0]], [[1, 0]], {"labels": ["a"]}, "integer column indices"),
    ([[1, 0]], [[1, 0]], {"labels": [1, 1]}, "labels must be unique"),
    ([0, 1], [0, 1], {"sample_weight": [1, -1]}, "sample_weight has negative entries"),
    ([0, 1], [0, 1], {"sample_weight": [1]}, "sample_weight has 1 entries"),
    ([0, 1], [0, 1], {"sample_weight": [1, np.nan]}, "sample_weight contains NaN"),
    ([0, 1], [0, 1], {"sample_weight": "ab"}, "sample_weight must be a 1-D array"),
    ([[["a"]]], [[["a"]]], {}, "must be 1-D or 2-D"),
    ([["a", "b"]], [["a", "b"]], {}, "2-D targets must hold numbers"),
])
def test_bad_input_raises_value_error_naming_the_argument(y_true, y_pred, kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_targets(y_true, y_pred, **kwargs)


def test_sparse_bad_values():
    with pytest.raises(ValueError, match="y_true has negative entries"):
        check_targets(sp.csr_matrix([[1.0, -1.0]]), sp.csr_matrix([[1.0, 0.0]]))
    with pytest.raises(ValueError, match="y_pred contains nan"):
        check_targets(sp.csr_matrix([[1.0, 0.0]]), sp.csr_matrix([[np.nan, 0.0]]))


def test_scalar_target_is_a_type_error():
    with pytest.raises(TypeError, match="y_true must be array-like"):
        check_targets(3, [1])
    with pytest.raises(TypeError, match="y_true must be array-like"):
        check_targets("abc", ["a"])


def test_input_arrays_are_not_modified(rng):
    y_true, y_pred = rng.random((20, 3)), rng.random((20, 3))
    copies = y_true.copy(), y_pred.copy()
    transport_confusion_matrix(y_true, y_pred)
    np.testing.assert_array_equal(y_true, copies[0])
    np.testing.assert_array_equal(y_pred, copies[1])
    sparse = sp.csr_array(y_true)
    transport_confusion_matrix(sparse, sp.csr_array(y_pred))
    np.testing.assert_array_equal(sparse.toarray(), copies[0])


class _FakeDaskArray:
    """Looks like a Dask collection (the protocol's ``__dask_graph__``)."""

    def __dask_graph__(self):
        return {}


class _FakeForeignArray:
    """Looks like an array of another array-API library."""

    def __array_namespace__(self, api_version=None):
        raise AssertionError("never called without array-api-compat")


@pytest.mark.parametrize("module, array, extra", [
    ("dask", _FakeDaskArray(), "sklearn-confusion-ext[dask]"),
    ("array_api_compat", _FakeForeignArray(), "sklearn-confusion-ext[array-api]"),
])
def test_optional_libraries_missing_say_which_extra(monkeypatch, module, array, extra):
    monkeypatch.setitem(sys.modules, module, None)  # import now raises ImportError
    with pytest.raises(ImportError, match=re.escape(extra)):
        transport_confusion_matrix(array, [[1, 0]])
