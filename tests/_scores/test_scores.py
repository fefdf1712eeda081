"""Scores of the transport confusion matrix (Section V) against scikit-learn and by hand."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    accuracy_score,
    classification_report,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
)

from sklearn_confusion_ext import (
    transport_accuracy_score,
    transport_classification_report,
    transport_confusion_matrix,
    transport_multilabel_confusion_matrix,
    transport_precision_recall_fscore_support,
)


@pytest.fixture
def labels_1d(rng):
    y_true = rng.integers(0, 5, 300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 5, 300))
    return y_true, y_pred, rng.random(300)


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_prfs_equals_sklearn_on_labels(labels_1d, average, beta):
    y_true, y_pred, weights = labels_1d
    for labels in (None, [4, 1, 2]):
        got = transport_precision_recall_fscore_support(
            y_true, y_pred, beta=beta, average=average, labels=labels, sample_weight=weights)
        expected = precision_recall_fscore_support(
            y_true, y_pred, beta=beta, average=average, labels=labels, sample_weight=weights)
        for value, reference in zip(got, expected):
            if reference is None:
                assert value is None
            else:
                np.testing.assert_allclose(value, reference, rtol=1e-12)


def test_binary_average_equals_sklearn(rng):
    y_true, y_pred = rng.choice(["no", "yes"], 100), rng.choice(["no", "yes"], 100)
    for pos_label in ("yes", "no"):
        got = transport_precision_recall_fscore_support(y_true, y_pred, average="binary",
                                                        pos_label=pos_label)
        expected = precision_recall_fscore_support(y_true, y_pred, average="binary",
                                                   pos_label=pos_label)
        np.testing.assert_allclose(got[:3], expected[:3])
        assert got[3] is None
    with pytest.raises(ValueError, match="pos_label='maybe' is not a valid label"):
        transport_precision_recall_fscore_support(y_true, y_pred, average="binary",
                                                  pos_label="maybe")
    with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
        transport_precision_recall_fscore_support([0, 1, 2], [0, 1, 2], average="binary")
    with pytest.raises(ValueError, match="Target is multilabel or soft"):
        transport_precision_recall_fscore_support([[1, 0]], [[1, 0]], average="binary")


def test_accuracy_equals_sklearn(labels_1d):
    y_true, y_pred, weights = labels_1d
    assert transport_accuracy_score(y_true, y_pred) == pytest.approx(
        accuracy_score(y_true, y_pred))
    assert transport_accuracy_score(y_true, y_pred, sample_weight=weights) == pytest.approx(
        accuracy_score(y_true, y_pred, sample_weight=weights))
    assert transport_accuracy_score(y_true, y_pred, normalize=False) == accuracy_score(
        y_true, y_pred, normalize=False)
    with pytest.raises(TypeError, match="'normalize' parameter"):
        transport_accuracy_score(y_true, y_pred, normalize="true")


def test_multilabel_confusion_matrix_equals_sklearn(labels_1d):
    y_true, y_pred, weights = labels_1d
    np.testing.assert_allclose(
        transport_multilabel_confusion_matrix(y_true, y_pred, sample_weight=weights,
                                              labels=[3, 0]),
        multilabel_confusion_matrix(y_true, y_pred, sample_weight=weights, labels=[3, 0]))


def test_classification_report_equals_sklearn(labels_1d):
    y_true, y_pred, _ = labels_1d
    names = ["zero", "one", "two", "three", "four"]
    assert transport_classification_report(y_true, y_pred, target_names=names, digits=3) == \
        classification_report(y_true, y_pred, target_names=names, digits=3)
    assert transport_classification_report(y_true, y_pred, labels=[1, 3]) == \
        classification_report(y_true, y_pred, labels=[1, 3])
    got = transport_classification_report(y_true, y_pred, output_dict=True)
    expected = classification_report(y_true, y_pred, output_dict=True)
    assert got.keys() == expected.keys()
    for key, row in expected.items():
        if isinstance(row, dict):
            for metric, value in row.items():
                assert got[key][metric] == pytest.approx(value)
        else:
            assert got[key] == pytest.approx(row)


# Section III-G instances, with one more whose label is empty.
Y_TRUE = np.array([[0, 1, 0, 0], [0, 0, 2, 1], [3, 0, 1, 0], [3, 1, 0, 0]])
Y_PRED = np.array([[1, 0, 2, 0], [2, 2, 0, 0], [0, 1, 2, 1], [3, 0, 2, 3]])


@pytest.mark.parametrize("weighting", ["uniform", "true", "pred"])
def test_definition_3_from_matrix(weighting):
    matrix = transport_confusion_matrix(Y_TRUE, Y_PRED, weighting=weighting, empty="error")
    precision, recall, f1, support = transport_precision_recall_fscore_support(
        Y_TRUE, Y_PRED, weighting=weighting, empty="error")
    tp = np.diag(matrix)
    np.testing.assert_allclose(recall, tp / matrix.sum(axis=1))  # eq. (41)
    np.testing.assert_allclose(precision, tp / matrix.sum(axis=0))  # eq. (42)
    found = tp > 0
    np.testing.assert_allclose(f1[found], 2 * precision[found] * recall[found]
                               / (precision[found] + recall[found]))  # eq. (39)
    np.testing.assert_array_equal(f1[~found], 0.0)
    np.testing.assert_allclose(support, matrix.sum(axis=1))
    assert transport_accuracy_score(Y_TRUE, Y_PRED, weighting=weighting) == pytest.approx(
        tp.sum() / matrix.sum())  # eq. (43)
    counts = transport_multilabel_confusion_matrix(Y_TRUE, Y_PRED, weighting=weighting,
                                                   empty="error")
    total = matrix.sum()
    fp, fn = matrix.sum(axis=0) - tp, matrix.sum(axis=1) - tp
    np.testing.assert_allclose(counts[:, 1, 1], tp)
    np.testing.assert_allclose(counts[:, 0, 1], fp)
    np.testing.assert_allclose(counts[:, 1, 0], fn)
    np.testing.assert_allclose(counts[:, 0, 0], total - tp - fp - fn)
    # Micro over all classes is the accuracy.
    micro = transport_precision_recall_fscore_support(Y_TRUE, Y_PRED, weighting=weighting,
                                                      average="micro", empty="error")
    np.testing.assert_allclose(micro[:3], tp.sum() / total)


def test_none_class_rows_follow_include_none():
    # The "none" class belongs to multi-label indicator targets (0/1), where a label set
    # may be empty; soft targets have none, and an empty soft row is refused.
    y_true, y_pred = (Y_TRUE > 0).astype(int), (Y_PRED > 0).astype(int)
    with pytest.raises(ValueError, match=r"all-zero rows in y_true \(rows \[4\]\)"):
        transport_precision_recall_fscore_support(np.vstack([Y_TRUE, [0, 0, 0, 0]]),
                                                  np.vstack([Y_PRED, [1, 0, 0, 0]]))
    with_empty_label = np.vstack([y_true, [0, 0, 0, 0]]), np.vstack([y_pred, [1, 0, 0, 0]])
    with pytest.warns(UndefinedMetricWarning, match="Precision"):  # nothing predicted "none"
        precision, *_ = transport_precision_recall_fscore_support(*with_empty_label)
    assert precision.shape == (5,)  # "none" row has mass: joins
    precision, *_ = transport_precision_recall_fscore_support(y_true, y_pred)
    assert precision.shape == (4,)  # no empty label: left out
    with pytest.warns(UndefinedMetricWarning):  # "none" has no mass: P, R, F undefined
        precision, *_ = transport_precision_recall_fscore_support(y_true, y_pred,
                                                                  include_none=True)
    assert precision.shape == (5,)
    # An empty prediction only: "none" has no row mass, stays out, yet counts as FN.
    empty_pred = np.vstack([y_true, [1, 0, 0, 0]]), np.vstack([y_pred, [0, 0, 0, 0]])
    _, recall, _, support = transport_precision_recall_fscore_support(*empty_pred)
    matrix = transport_confusion_matrix(*empty_pred)
    assert recall.shape == (4,)
    np.testing.assert_allclose(recall, np.diag(matrix)[:4] / matrix.sum(axis=1)[:4])
    micro = transport_precision_recall_fscore_support(*with_empty_label, average="micro",
                                                      include_none=False)
    matrix = transport_confusion_matrix(*with_empty_label)
    assert micro[0] == pytest.approx(np.trace(matrix) / matrix.sum())
    macro = transport_precision_recall_fscore_support(*with_empty_label, average="macro",
                                                      include_none=False)
    per_class = transport_precision_recall_fscore_support(*with_empty_label, zero_division=0.0)
    assert macro[1] == pytest.approx(per_class[1][:4].mean())
    with pytest.raises(ValueError, match="'include_none' parameter"):
        transport_precision_recall_fscore_support(y_true, y_pred, include_none="yes")


def test_report_shows_none_row_and_float_supports():
    y_true = np.array([[1, 1, 0], [0, 0, 0], [0, 1, 0]])
    y_pred = np.array([[1, 0, 0], [0, 1, 0], [0, 1, 1]])
    with pytest.warns(UndefinedMetricWarning):
        report = transport_classification_report(y_true, y_pred, target_names=["a", "b", "c"])
    lines = report.splitlines()
    assert lines[2].split() == ["a", "0.50", "1.00", "0.67", "0.50"]
    assert lines[5].split()[0] == "none"
    assert "accuracy" in report
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined"):
        subset = transport_classification_report(y_true, y_pred, labels=[1])
    assert "micro avg" in subset and "accuracy" not in subset
    with pytest.raises(ValueError, match="target_names has 2 names but the report has 3 classes"):
        transport_classification_report(y_true, y_pred, target_names=["a", "b"])
    with pytest.raises(ValueError, match="'digits' parameter"):
        transport_classification_report(y_true, y_pred, digits=-1)


def test_zero_division_policies():
    y_true, y_pred = [0, 0, 1], [0, 0, 0]
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined"):
        precision, *_ = transport_precision_recall_fscore_support(y_true, y_pred)
    np.testing.assert_array_equal(precision, [2 / 3, 0.0])
    for value in (0.0, 1.0):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            precision, *_ = transport_precision_recall_fscore_support(
                y_true, y_pred, zero_division=value)
        np.testing.assert_array_equal(precision, [2 / 3, value])
    got = transport_precision_recall_fscore_support(y_true, y_pred, zero_division=np.nan,
                                                    average="macro")
    # Class 1 has no predicted mass: its precision (NaN) is left out of the
    # average; its F-score is defined (0), as in scikit-learn >= 1.4.
    np.testing.assert_allclose(got[:3], [2 / 3, 0.5, (0.8 + 0.0) / 2])
    with pytest.raises(ValueError, match="'zero_division' parameter"):
        transport_precision_recall_fscore_support(y_true, y_pred, zero_division=2)
    with pytest.raises(ValueError, match="'zero_division' parameter"):
        transport_precision_recall_fscore_support(y_true, y_pred, zero_division="ignore")
    with pytest.raises(ValueError, match="'average' parameter"):
        transport_precision_recall_fscore_support(y_true, y_pred, average="samples")
    with pytest.raises(ValueError, match="'beta' parameter"):
        transport_precision_recall_fscore_support(y_true, y_pred, beta=-1)


@pytest.mark.parametrize("y_true, y_pred", [
    ([0, 0, 0], [0, 0, 0]), ([1, 1, 1], [1, 1, 1]), ([0, 0, 1], [0, 1, 1]),
    ([0, 0, 0], [0, 1, 1]), ([0, 0, 0], [1, 1, 1]), (["a", "a"], ["a", "a"]),
])
@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_binary_average_follows_sklearn_on_one_class_folds(y_true, y_pred, zero_division):
    import sklearn
    from sklearn.metrics import precision_recall_fscore_support

    sklearn_version = tuple(int(part) for part in sklearn.__version__.split(".")[:2])
    if sklearn_version < (1, 4) and zero_division is np.nan:
        pytest.skip("scikit-learn < 1.4 derived F from a nan precision or recall; from 1.4 "
                    "on F is defined on the counts, as here")

    pos_label = "b" if isinstance(y_true[0], str) else 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = transport_precision_recall_fscore_support(
            y_true, y_pred, average="binary", pos_label=pos_label, zero_division=zero_division)
        theirs = precision_recall_fscore_support(
            y_true, y_pred, average="binary", pos_label=pos_label, zero_division=zero_division)
    np.testing.assert_equal(ours[:3], theirs[:3])
    assert ours[3] is None


def test_binary_average_rule_is_shared_by_generalized_means():
    from sklearn_confusion_ext import generalized_means_score

    # One class present, not pos_label: every instance negative, as scikit-learn reads it.
    assert generalized_means_score([0, 0, 0], [0, 0, 0]) == 1.0
    for function in (transport_precision_recall_fscore_support, generalized_means_score):
        with pytest.raises(ValueError, match="pos_label=2 is not a valid label"):
            function([0, 1], [0, 1], average="binary", pos_label=2)
        with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
            function([0, 1, 2], [0, 1, 2], average="binary")
        with pytest.raises(ValueError, match="Target is multilabel or soft"):
            function([[1, 0]], [[1, 0]], average="binary")


def test_warnings_point_at_the_callers_line():
    with pytest.warns(UserWarning) as record:
        transport_precision_recall_fscore_support([[1, 0], [0, 0]], [[1, 0], [1, 0]],
                                                  empty="skip", zero_division=0.0)
    assert {entry.filename for entry in record} == {__file__}
    with pytest.warns(UndefinedMetricWarning) as record:
        transport_precision_recall_fscore_support([0, 1], [0, 0], average="macro")
    assert {entry.filename for entry in record} == {__file__}


def test_averages_equal_sklearn_on_small_random_folds():
    import sklearn
    from sklearn.metrics import precision_recall_fscore_support

    if tuple(int(part) for part in sklearn.__version__.split(".")[:2]) < (1, 4):
        pytest.skip("scikit-learn < 1.4 averaged nan scores differently")
    rng = np.random.default_rng(0)
    for _ in range(60):  # folds of 1 to 5 instances, classes absent from either side
        n_classes, size = rng.integers(1, 4), rng.integers(1, 6)
        y_true, y_pred = rng.integers(0, n_classes, size), rng.integers(0, n_classes + 1, size)
        for zero_division in ("warn", 0.0, 1.0, np.nan):
            for average in ("micro", "macro", "weighted"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ours = transport_precision_recall_fscore_support(
                        y_true, y_pred, average=average, zero_division=zero_division)
                    theirs = precision_recall_fscore_support(
                        y_true, y_pred, average=average, zero_division=zero_division)
                np.testing.assert_allclose(ours[:3], theirs[:3], err_msg=f"{y_true} {y_pred} "
                                           f"{average} {zero_division}")


@pytest.mark.parametrize("y, target_names, match", [
    (["accuracy", "b"], None, r"include \['accuracy'\]"),
    ([0, 1], ["macro avg", "x"], r"include \['macro avg'\]"),
    ([0, 1], ["a", "a"], r"repeat \['a'\]"),
])
def test_report_row_names_never_hide_a_class(y, target_names, match):
    with pytest.raises(ValueError, match=match):
        transport_classification_report(y, y, target_names=target_names)


@pytest.mark.parametrize("labels", [[3, 4], [0, 3, 4, 1], [5], [2, 1, 0]])
def test_labels_absent_from_y_true_score_zero_as_in_sklearn(labels):
    """A fold without a rare class: scores of absent classes are zeros (with a warning),
    even when no listed class occurs in y_true; the matrix builder refuses, as sklearn's."""
    y_true, y_pred = [0, 1, 1, 2], [0, 2, 1, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for average in (None, "macro", "weighted", "micro"):
            got = transport_precision_recall_fscore_support(y_true, y_pred, labels=labels,
                                                            average=average)
            expected = precision_recall_fscore_support(y_true, y_pred, labels=labels,
                                                       average=average)
            for ours, theirs in zip(got, expected):
                np.testing.assert_array_equal(ours, theirs)
        np.testing.assert_array_equal(
            transport_multilabel_confusion_matrix(y_true, y_pred, labels=labels),
            multilabel_confusion_matrix(y_true, y_pred, labels=labels))
        assert transport_classification_report(y_true, y_pred, labels=labels) == \
            classification_report(y_true, y_pred, labels=labels)
    if not np.isin(labels, y_true).any():
        with pytest.warns(UndefinedMetricWarning, match="Recall is ill-defined"):
            transport_precision_recall_fscore_support(y_true, y_pred, labels=labels)
        with pytest.raises(ValueError, match="at least one label must be in y_true"):
            transport_confusion_matrix(y_true, y_pred, labels=labels)


def test_report_names_each_absent_class_and_keeps_the_accuracy_row():
    report = transport_classification_report(["a", "b"], ["a", "b"], labels=["c", "a", "b", "d"],
                                             output_dict=True, zero_division=0)
    assert list(report)[:4] == ["c", "a", "b", "d"]
    assert report["accuracy"] == 1.0
    assert report["c"]["support"] == report["d"]["support"] == 0
    assert "micro avg" in transport_classification_report(
        ["a", "b"], ["a", "b"], labels=["c", "d"], output_dict=True, zero_division=0)


def test_binary_average_ignores_labels_as_sklearn():
    """sklearn's average="binary" reports pos_label whatever labels= lists."""
    y_true, y_pred = [0, 1, 1, 0], [0, 1, 0, 0]
    assert transport_precision_recall_fscore_support(
        y_true, y_pred, labels=[0, 1, 2], average="binary") == \
        precision_recall_fscore_support(y_true, y_pred, labels=[0, 1, 2], average="binary")


@pytest.mark.parametrize("average", ["macro", "micro", "weighted", None])
def test_pos_label_ignored_warns_as_sklearn(average):
    with pytest.warns(UserWarning, match=r"pos_label=2 is not used.*labels=\[2\]"):
        transport_precision_recall_fscore_support([1, 2, 1], [1, 2, 2], pos_label=2,
                                                  average=average)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        transport_precision_recall_fscore_support([1, 2, 1], [1, 2, 2], pos_label=1,
                                                  average=average)


def test_report_target_names_may_name_the_none_class():
    y_true = [[1, 0, 0], [0, 0, 0], [0, 1, 1]]
    y_pred = [[1, 0, 0], [0, 1, 0], [0, 1, 1]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        named = transport_classification_report(y_true, y_pred, output_dict=True,
                                                target_names=["cat", "dog", "bird", "nothing"])
        default = transport_classification_report(y_true, y_pred, output_dict=True,
                                                  target_names=["cat", "dog", "bird"])
    assert list(named)[:4] == ["cat", "dog", "bird", "nothing"]
    assert list(default)[:4] == ["cat", "dog", "bird", "none"]
    assert named["nothing"] == default["none"]
    with pytest.raises(ValueError, match="2 names but the report has 3 classes.*'none'"):
        transport_classification_report(y_true, y_pred, target_names=["cat", "dog"])
    with pytest.raises(ValueError, match="4 names but the report has 3 classes"):
        transport_classification_report([0, 1, 2], [0, 1, 1], target_names=list("abcd"))


def test_f_beta_of_a_beta_whose_square_overflows_is_recall():
    # beta**2 beyond the float range made every F-beta NaN and their average 0.0.
    y_true, y_pred = [0, 1, 2, 1, 0], [0, 2, 2, 1, 1]
    _, recall, fbeta, _ = transport_precision_recall_fscore_support(
        y_true, y_pred, beta=1e160, average=None)
    np.testing.assert_array_equal(fbeta, recall)
