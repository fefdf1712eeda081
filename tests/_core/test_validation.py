"""The validation layer: every target kind in, one kind of mass array out, clear errors."""

import re
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_confusion_ext import (
    mlcm,
    prevalence,
    subpixel_confusion_matrix,
    transport_confusion_matrix,
)
from sklearn_confusion_ext._core.targets import check_target_set, check_targets


def test_one_d_labels_become_one_hot_with_labels_order():
    targets = check_targets(["b", "a", "c"], ["a", "a", "b"], labels=["c", "a", "z"])
    assert targets.kind == "single-label" and targets.single_label
    assert list(targets.classes) == ["c", "a", "z", "b"]
    assert list(targets.selection) == [0, 1, 2]
    y_true, y_pred, true_norm, pred_norm = targets.rows(slice(0, 3))  # codes, encoded here
    np.testing.assert_array_equal(y_true.toarray(), [[0, 0, 0, 1], [0, 1, 0, 0], [1, 0, 0, 0]])
    np.testing.assert_array_equal(y_pred.toarray(), [[0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(targets.codes[0], [3, 1, 0])
    np.testing.assert_array_equal(true_norm, 1.0)


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
    ([0, 1], [[1, 0, 0], [0, 1, 0]], {}, "holds 2 distinct class label.*labels= with the 3"),
    ([0, 1], [[1, 0], [0, 1]], {"labels": [0, 1, 2]},
     r"labels \[0, 1, 2\] and the classes of y_true .* make 3 class\(es\).*2 columns"),
    ([0, 5], [[1, 0], [0, 1]], {"labels": [0, 1]}, r"class labels \[5\] that are not in"),
    ([[1, -0.2]], [[1, 0]], {}, r"y_true has negative entries \(min -0.2, first at row 0\)"),
    ([[1, 0], [0, 1]], [[1, 0], [np.nan, 1]], {}, "y_pred contains nan .*row 1"),
    ([[1, 0]], [[np.inf, 0]], {}, "y_pred contains inf"),
    ([0.5, 1], [0, 1], {}, "non-integer floats"),
    ([0, np.nan], [0, 1], {}, "NaN or infinite class labels"),
    ([0, "a"], [0, 1], {}, "not class labels"),
    ([0, 1], [0, 1], {"labels": [0, 0]}, "labels must be unique"),
    ([0, 1], [0, 1], {"labels": []}, "non-empty"),
    ([0, 1], [0, 1], {"labels": [5, 6]}, "None of labels"),
    ([0, 1], [0, 1], {"labels": ["a"]},
     r"labels holds strings \(\[.a.\]\) but the targets hold numbers \(\[0, 1\]\)"),
    ([[1, 0]], [[1, 0]], {"labels": [2]}, r"column indices in \[0, 2\)"),
    ([[1, 0]], [[1, 0]], {"labels": ["a"]}, "integer column indices"),
    ([[1, 0]], [[1, 0]], {"labels": [1, 1]}, "labels must be unique"),
    ([0, 1], [0, 1], {"sample_weight": [1, -1]}, "sample_weight has negative entries"),
    ([0, 1], [0, 1], {"sample_weight": [1]}, "sample_weight has 1 entries"),
    ([0, 1], [0, 1], {"sample_weight": [1, np.nan]}, "sample_weight contains NaN"),
    ([0, 1], [0, 1], {"sample_weight": "ab"}, "sample_weight must be a 1-D array"),
    ([[["a"]]], [[["a"]]], {}, "y_true is a list of 1 2-D arrays of shapes \\(1, 1\\); a "
                              "list is read as MultiOutputClassifier"),
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


def _broken(fmt, attribute, value):
    """A valid 3 x 3 identity in format ``fmt`` whose raw ``attribute`` is then overwritten."""
    y = sp.csr_array(np.eye(3)).asformat(fmt)
    array = getattr(y, attribute)
    if np.shape(value) == array.shape:
        array[...] = value  # in place, as a crafted file or a foreign library could leave it
    else:
        setattr(y, attribute, np.asarray(value))
    return y


MALFORMED_SPARSE = [
    ("csr", "indices", [0, 7, 2], r"indices range over \[0, 7\], outside \[0, 3\)"),
    ("csr", "indices", [0, -1, 2], r"indices range over \[-1, 2\]"),
    ("csr", "indptr", [0, 2, 1, 3], "indptr decreases"),
    ("csr", "indptr", [1, 1, 2, 3], "indptr runs from 1 to 3; 0 to nnz=3"),
    ("csr", "indptr", [0, 1, 2, 2], "indptr runs from 0 to 2; 0 to nnz=3"),
    ("csr", "indptr", [0, 1, 3], "indptr has 3 entries; 4 expected"),
    ("csr", "data", [1.0, 1.0], r"3 indices but data of shape \(2,\)"),
    ("csr", "indices", [0, 1], r"2 indices but data of shape \(3,\)"),
    ("csc", "indices", [0, 9, 2], r"indices range over \[0, 9\]"),
    ("csc", "indptr", [0, 5, 2, 3], "indptr decreases"),
    ("coo", "col", [0, 1, 3], r"column indices range over \[0, 3\]"),
    ("coo", "row", [-4, 1, 2], r"row indices range over \[-4, 2\]"),
    ("bsr", "indices", [0, 1, 5], r"indices range over \[0, 5\]"),
]


@pytest.mark.parametrize("builder", [transport_confusion_matrix, subpixel_confusion_matrix,
                                     mlcm])
@pytest.mark.parametrize("fmt, attribute, value, match", MALFORMED_SPARSE)
def test_malformed_sparse_structure_is_refused_before_use(builder, fmt, attribute, value,
                                                          match):
    # Unchecked, the TCM dropped an instance and the SCM wrote out of bounds.
    good = sp.csr_array(np.eye(3))
    with pytest.raises(ValueError, match=f"y_pred is a malformed sparse array: .*{match}"):
        builder(good, _broken(fmt, attribute, value))
    with pytest.raises(ValueError, match="y is a malformed sparse array"):
        prevalence(_broken(fmt, attribute, value))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "lil", "dok", "dia"])
def test_every_well_formed_sparse_format_is_read(fmt):
    y_true = sp.csr_array([[1.0, 0, 0], [0, 0.5, 0.5], [0, 0, 1]])
    y_pred = sp.csr_array([[0, 1.0, 0], [0, 1, 0], [0, 0, 2]])
    expected = transport_confusion_matrix(y_true.toarray(), y_pred.toarray())
    np.testing.assert_allclose(
        transport_confusion_matrix(y_true.asformat(fmt), sp.csr_matrix(y_pred).asformat(fmt)),
        expected)


def test_sparse_input_is_not_modified_by_summing_duplicates():
    y = sp.csr_array((np.array([0.5, 0.5, 1.0]), np.array([1, 1, 0]), np.array([0, 2, 3])),
                     shape=(2, 2))
    np.testing.assert_allclose(transport_confusion_matrix(y, sp.csr_array(np.eye(2))),
                               transport_confusion_matrix([[0, 1], [1, 0]], np.eye(2)))
    np.testing.assert_array_equal(y.data, [0.5, 0.5, 1])
    np.testing.assert_array_equal(y.indices, [1, 1, 0])


@pytest.mark.parametrize("y_true", [
    sp.csr_array(np.eye(2) * (1 + 1j)),
    np.eye(2) * (1 + 0j),
    [1 + 0j, 0j],
])
def test_complex_targets_are_refused(y_true):
    y_pred = np.eye(2) if np.ndim(y_true) == 2 else [1, 0]
    with pytest.raises(ValueError, match="y_true has complex values"):
        transport_confusion_matrix(y_true, y_pred)
    with pytest.raises(ValueError, match="y_pred has complex values"):
        mlcm(y_pred, y_true)


def test_sparse_bad_value_row_is_found_without_densifying(monkeypatch):
    rows, columns = 200_000, 20_000  # dense: 30 GB
    columns_of_rows = np.random.default_rng(0).integers(0, columns, rows)
    y = sp.csr_array((np.ones(rows), columns_of_rows, np.arange(rows + 1)),
                     shape=(rows, columns))
    bad_row = rows - 3
    y.data[bad_row] = -0.5
    monkeypatch.setattr(sp.csr_array, "toarray", _no_densify)
    monkeypatch.setattr(sp.csr_matrix, "toarray", _no_densify)
    with pytest.raises(ValueError, match=rf"y_true has negative entries \(min -0.5, first at "
                                         rf"row {bad_row}\)"):
        transport_confusion_matrix(y, y)
    y.data[bad_row] = np.inf
    with pytest.raises(ValueError, match=rf"y contains inf \(first at row {bad_row}\)"):
        prevalence(y)


def _no_densify(self, *args, **kwargs):
    raise AssertionError("the whole sparse matrix was densified")


@pytest.mark.parametrize("weight", [np.ones((3, 1)), np.ones((1, 3)), [[1, 1, 1]]])
def test_two_d_sample_weight_is_refused(weight):
    with pytest.raises(ValueError, match=r"sample_weight must be 1-D.*shape \((3, 1|1, 3)\)"):
        transport_confusion_matrix([0, 1, 1], [0, 1, 0], sample_weight=weight)
    with pytest.raises(ValueError, match="sample_weight must be 1-D"):
        prevalence([0, 1, 1], sample_weight=weight)


def test_uint64_labels_beside_int64_stay_distinct():
    big = 2**63
    y_true = np.array([big, big + 1, 1], dtype=np.uint64)
    y_pred = np.array([2**63 - 1, 2**63 - 2, 1], dtype=np.int64)
    matrix = transport_confusion_matrix(y_true, y_pred)
    # classes 1, 2**63-2, 2**63-1, 2**63, 2**63+1: five distinct labels
    assert matrix.shape == (5, 5)
    np.testing.assert_array_equal(np.diag(matrix)[:5], [1, 0, 0, 0, 0])
    assert matrix[3, 2] == 1 and matrix[4, 1] == 1
    with pytest.raises(ValueError, match="y_true and y_pred hold both negative integer labels "
                                         "and labels above 2"):
        transport_confusion_matrix(y_true, np.array([-1, 0, 1]))


@pytest.mark.parametrize("y_true, match", [
    (["1", 1, "2"], "y_true mixes strings and numbers.*Mix of label input types"),
    (np.array(["a", 1, "b"], dtype=object), "y_true mixes strings and numbers"),
    (np.array(["a", None, "b"], dtype=object), r"y_true contains a missing class label \(None\)"),
    (np.array(["a", np.nan, "b"], dtype=object), r"y_true contains a missing class label \(nan\)"),
])
def test_mixed_or_missing_labels_name_the_argument(y_true, match):
    with pytest.raises(ValueError, match=match):
        transport_confusion_matrix(y_true, ["a", "a", "b"])
    with pytest.raises(ValueError, match=match.replace("y_true", "y")):
        prevalence(y_true)


def test_pandas_missing_labels_name_the_argument():
    pd = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match="y_pred contains a missing class label"):
        transport_confusion_matrix(["a", "b"], pd.Series(["a", pd.NA], dtype=object))
    with pytest.raises(ValueError, match="y_pred contains"):
        transport_confusion_matrix(["a", "b"], pd.array(["a", pd.NA], dtype="string"))


def test_unorderable_labels_across_targets_name_both():
    with pytest.raises(ValueError, match="y_true and y_pred are not class labels: Mix of label"):
        transport_confusion_matrix(np.array(["a", "b"], dtype=object), [1, 2])
    # scikit-learn 1.3's unique_labels refuses these first, in its own words.
    with pytest.raises(ValueError, match="y_true and y_pred (hold class labels that cannot be "
                                         "sorted together|are not class labels)"):
        transport_confusion_matrix(np.array([1j, 2j], dtype=object), [1, 2])


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


def test_float_labels_beyond_two_to_the_53_are_refused():
    # Found by the fuzz suite: scikit-learn's type_of_target cast them to int64 with a
    # RuntimeWarning; float64 no longer tells such integers apart.
    from sklearn_confusion_ext import transport_confusion_matrix

    with pytest.raises(ValueError, match=r"y_true holds float class labels as large as 3e\+150"):
        transport_confusion_matrix(np.array([0.0, 1.0, 3.0]) * 1e150, [0, 1, 2])


def test_a_row_sum_near_one_is_printed_apart_from_one():
    # probabilities saved with six decimals: the warning read "row 0 sums to 1"
    import sklearn_confusion_ext as sce

    with pytest.warns(UserWarning, match=r"row 0 sums to 0\.9999996\)"):
        sce.transport_confusion_matrix([0, 1], [[0.5, 0.4999996], [0.5, 0.5]])
