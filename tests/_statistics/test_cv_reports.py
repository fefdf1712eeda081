"""Cross-validation reports: the folds' matrices, the interval of one model's score across
folds (Nadeau and Bengio's corrected variance) and the classification report across folds."""

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris, make_multilabel_classification
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import KFold, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_confusion_ext import (
    compare_cv_scores,
    cross_validated_confusion_matrices,
    cross_validated_score_interval,
    cross_validation_report,
    transport_classification_report,
    transport_confusion_matrix,
)


@pytest.fixture(scope="module")
def iris_cv():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    results = cross_validate(GaussianNB(), X, y, cv=cv, return_estimator=True,
                             return_indices=True)
    return X, y, results


def fold_predictions(results, X, method="predict"):
    return [(test, getattr(est, method)(X[test]))
            for est, test in zip(results["estimator"], results["indices"]["test"])]


# --- The folds' matrices ------------------------------------------------------------------


def test_matrices_are_each_folds_confusion_matrix(iris_cv):
    X, y, results = iris_cv
    result = cross_validated_confusion_matrices(results, X, y)
    expected = np.stack([confusion_matrix(y[test], pred)
                         for test, pred in fold_predictions(results, X)])
    np.testing.assert_array_equal(result.matrices, expected)
    np.testing.assert_array_equal(result.pooled, expected.sum(axis=0))
    np.testing.assert_allclose(result.mean, expected.mean(axis=0))
    np.testing.assert_allclose(result.std, expected.std(axis=0, ddof=1))  # sample std
    assert result.display_labels == [0, 1, 2] and result.n_folds == 5
    assert result.n_samples == 150


def test_normalized_rows_and_pooled(iris_cv):
    X, y, results = iris_cv
    result = cross_validated_confusion_matrices(results, X, y, normalize="true")
    np.testing.assert_allclose(result.matrices.sum(axis=2), 1.0)
    counts = result.counts.sum(axis=0)
    np.testing.assert_allclose(result.pooled, counts / counts.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(result.mean, result.matrices.mean(axis=0))
    pred = cross_validated_confusion_matrices(results, X, y, normalize="pred")
    np.testing.assert_allclose(np.nansum(pred.matrices, axis=1)[pred.counts.sum(axis=1) > 0],
                               1.0)


def test_a_class_absent_from_a_fold_is_left_out_with_a_warning():
    X, y = load_iris(return_X_y=True)
    # fold 0 tests on classes 0 and 1 only
    splits = [(np.arange(40, 150), np.arange(0, 80)), (np.arange(0, 100), np.arange(100, 150)),
              (np.r_[0:20, 60:150], np.r_[20:40, 40:60])]
    results = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=splits,
                             return_estimator=True, return_indices=True)
    with pytest.warns(RuntimeWarning, match="undefined on some folds"):
        result = cross_validated_confusion_matrices(results, X, y, normalize="true")
    assert np.isnan(result.matrices[0, 2]).all()
    # the mean of row 2 is over the two folds that test on class 2
    np.testing.assert_allclose(result.mean[2], np.nanmean(result.matrices[:, 2], axis=0))
    assert not np.isnan(result.mean).any()


def test_estimator_form_equals_cv_results_form():
    X, y = load_iris(return_X_y=True)
    cv = KFold(4, shuffle=True, random_state=1)
    results = cross_validate(GaussianNB(), X, y, cv=cv, return_estimator=True,
                             return_indices=True)
    from_results = cross_validated_confusion_matrices(results, X, y)
    fitted_here = cross_validated_confusion_matrices(GaussianNB(), X, y, cv=cv)
    np.testing.assert_array_equal(from_results.matrices, fitted_here.matrices)


def test_probabilities_aligned_to_the_classes_when_a_fold_lacks_one():
    X, y = load_iris(return_X_y=True)
    # fold 0's training set lacks class 2: its estimator has two columns
    splits = [(np.arange(0, 100), np.r_[90:110]), (np.arange(50, 150), np.r_[0:60])]
    results = cross_validate(GaussianNB(), X, y, cv=splits, return_estimator=True,
                             return_indices=True)
    result = cross_validated_confusion_matrices(results, X, y,
                                                response_method="predict_proba")
    first = results["estimator"][0]
    proba = np.zeros((20, 3))
    proba[:, [0, 1]] = first.predict_proba(X[90:110])
    np.testing.assert_allclose(result.matrices[0], transport_confusion_matrix(
        y[90:110], proba, labels=[0, 1, 2]))
    np.testing.assert_allclose(result.matrices.sum(axis=(1, 2)), [20, 60])


def test_labels_select_and_order(iris_cv):
    X, y, results = iris_cv
    full = cross_validated_confusion_matrices(results, X, y)
    picked = cross_validated_confusion_matrices(results, X, y, labels=[2, 0])
    np.testing.assert_array_equal(picked.matrices, full.matrices[:, [2, 0]][:, :, [2, 0]])
    assert picked.display_labels == [2, 0]


def test_multilabel_folds():
    X, Y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    results = cross_validate(KNeighborsClassifier(3), X, Y, cv=KFold(3),
                             return_estimator=True, return_indices=True)
    result = cross_validated_confusion_matrices(results, X, Y)
    assert result.display_labels[-1] == "none" and result.matrices.shape == (3, 4, 4)
    for k, (test, pred) in enumerate(fold_predictions(results, X)):
        np.testing.assert_allclose(result.matrices[k],
                                   transport_confusion_matrix(Y[test], pred))


def test_sample_weight_reads_each_folds_rows(iris_cv):
    X, y, results = iris_cv
    weights = np.linspace(0.5, 2.0, len(y))
    result = cross_validated_confusion_matrices(results, X, y, sample_weight=weights)
    for k, (test, pred) in enumerate(fold_predictions(results, X)):
        np.testing.assert_allclose(result.matrices[k], confusion_matrix(
            y[test], pred, sample_weight=weights[test]))


def test_frame_and_repr(iris_cv):
    X, y, results = iris_cv
    result = cross_validated_confusion_matrices(results, X, y)
    frame = result.to_frame()
    assert list(frame.columns) == ["true", "predicted", "pooled", "mean", "std"]
    assert frame.loc["1 -> 2", "pooled"] == result.pooled[1, 2]
    assert frame.loc["2 -> 1", "std"] == result.std[2, 1]
    assert repr(result).startswith("CrossValidatedConfusionResult(n_folds=5")
    assert "<table>" in result._repr_html_()


@pytest.mark.parametrize("change, message", [
    (lambda r: {k: v for k, v in r.items() if k != "indices"}, "return_indices=True"),
    (lambda r: {k: v for k, v in r.items() if k != "estimator"}, "return_estimator=True"),
    (lambda r: {**r, "indices": {"test": r["indices"]["test"][:2]}}, "one 'test' index"),
    (lambda r: {"estimator": r["estimator"][:1],
                "indices": {"test": r["indices"]["test"][:1]}}, "at least 2 folds"),
    (lambda r: {**r, "indices": {"test": [t + 1000 for t in r["indices"]["test"]]}},
     "indices of the 150 rows"),
])
def test_bad_cv_results_are_refused(iris_cv, change, message):
    X, y, results = iris_cv
    with pytest.raises(ValueError, match=message):
        cross_validated_confusion_matrices(change(results), X, y)


def test_cv_only_with_an_estimator(iris_cv):
    X, y, results = iris_cv
    with pytest.raises(ValueError, match="leave cv and"):
        cross_validated_confusion_matrices(results, X, y, cv=3)
    with pytest.raises(ValueError, match="X has 149 samples"):
        cross_validated_confusion_matrices(results, X[1:], y)


# --- The interval of one model's score ------------------------------------------------------


SCORES = np.array([0.91, 0.88, 0.90, 0.93, 0.86, 0.92])


def test_naive_interval_is_the_one_sample_t_interval():
    result = cross_validated_score_interval(SCORES, method="naive_ttest",
                                            confidence_level=0.9)
    expected = stats.ttest_1samp(SCORES, 0).confidence_interval(0.9)
    np.testing.assert_allclose(result.confidence_interval(), expected, rtol=1e-12)
    assert result.df == 5 and result.estimate == pytest.approx(SCORES.mean())


def test_corrected_interval_by_hand():
    result = cross_validated_score_interval(SCORES, n_train=9, n_test=1)
    se = np.sqrt(SCORES.var(ddof=1) * (1 / 6 + 1 / 9))
    q = stats.t.ppf(0.975, 5)
    assert result.standard_error == pytest.approx(se, rel=1e-12)
    np.testing.assert_allclose(result.confidence_interval(),
                               (SCORES.mean() - q * se, SCORES.mean() + q * se), rtol=1e-12)


def test_corrected_interval_is_compare_cv_scores_interval_of_the_difference_from_zero():
    """One home of the correction: the interval of the scores is the corrected t-test's
    interval of their difference from a model that scores 0 on every fold."""
    result = cross_validated_score_interval(SCORES, n_train=80, n_test=20)
    test = compare_cv_scores(SCORES, np.zeros(6), n_train=80, n_test=20)
    np.testing.assert_allclose(result.confidence_interval(), test.confidence_interval(),
                               rtol=1e-12)


def test_interval_reads_cross_validate_results():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    results = cross_validate(GaussianNB(), X, y, cv=cv, scoring=["accuracy", "f1_macro"],
                             return_indices=True)
    result = cross_validated_score_interval(results, scoring="f1_macro")
    np.testing.assert_array_equal(result.scores, results["test_f1_macro"])
    np.testing.assert_array_equal(result.n_train, 120)
    assert result.score == "f1_macro"
    by_hand = cross_validated_score_interval(results["test_f1_macro"], n_train=120,
                                             n_test=30)
    assert (result.low, result.high) == (by_hand.low, by_hand.high)
    frame = result.to_frame()
    assert list(frame.columns) == ["score", "n_train", "n_test"] and len(frame) == 5
    assert repr(result).startswith("CrossValidatedIntervalResult(method='corrected_ttest'")


def test_interval_needs_sizes_and_two_folds():
    with pytest.raises(ValueError, match="pass n_train and n_test"):
        cross_validated_score_interval(SCORES)
    with pytest.raises(ValueError, match="at least 2 folds"):
        cross_validated_score_interval([0.9], n_train=9, n_test=1)
    with pytest.raises(ValueError, match="non-finite"):
        cross_validated_score_interval([0.9, np.nan], n_train=9, n_test=1)


def test_interval_of_huge_scores():
    # s^2 of scores near 1e308 overflows: the interval is computed on the scores scaled
    result = cross_validated_score_interval([1e307, -1e307, 0.0], n_train=9, n_test=1,
                                            confidence_level=0.5)
    expected = cross_validated_score_interval([1.0, -1.0, 0.0], n_train=9, n_test=1,
                                              confidence_level=0.5)
    assert result.high == pytest.approx(1e307 * expected.high, rel=1e-12)
    with pytest.raises(ValueError, match="overflow float64"):
        cross_validated_score_interval([1e308, -1e308, 0.0], n_train=9, n_test=1)


def test_interval_without_spread_warns_and_is_a_point():
    with pytest.warns(RuntimeWarning, match="no spread"):
        result = cross_validated_score_interval([0.8, 0.8, 0.8], n_train=2, n_test=1)
    assert result.low == result.high == pytest.approx(0.8)


def test_corrected_interval_covers_more_often_than_the_naive_one():
    """A small simulation (< 2 s): 10x repeated 5-fold CV of class means on a population
    of known accuracy; the naive interval misses far more often than its 10 %."""
    rng = np.random.default_rng(0)
    missed = {"naive_ttest": 0, "corrected_ttest": 0}
    n, reps = 60, 80
    for _ in range(reps):
        # a constant classifier "predict 1" on labels 1 with probability 0.7: the fold
        # accuracies are overlapping-sample proportions of true score 0.7
        y = rng.random(n) < 0.7
        splits = [list(KFold(5, shuffle=True, random_state=seed).split(y))
                  for seed in rng.integers(1 << 30, size=10)]
        scores = np.array([y[test].mean() for repeat in splits for _, test in repeat])
        for method in missed:
            result = cross_validated_score_interval(scores, n_train=48, n_test=12,
                                                    method=method, confidence_level=0.9)
            missed[method] += not result.low <= 0.7 <= result.high
    assert missed["naive_ttest"] / reps > 0.4
    assert missed["corrected_ttest"] / reps < 0.2


# --- The report across folds --------------------------------------------------------------


def test_report_pooled_and_spread(iris_cv):
    X, y, results = iris_cv
    report = cross_validation_report(results, X, y, output_dict=True)
    folds = fold_predictions(results, X)
    pooled = transport_classification_report(
        np.concatenate([y[test] for test, _ in folds]),
        np.concatenate([pred for _, pred in folds]), output_dict=True)
    per_fold = [transport_classification_report(y[test], pred, output_dict=True)
                for test, pred in folds]
    for name in ("0", "1", "2", "macro avg", "weighted avg"):
        for key in ("precision", "recall", "f1-score"):
            values = [fold[name][key] for fold in per_fold]
            assert report[name][key] == pytest.approx(pooled[name][key])
            assert report[name][f"{key}_mean"] == pytest.approx(np.mean(values))
            assert report[name][f"{key}_std"] == pytest.approx(np.std(values, ddof=1))
        assert report[name]["support"] == pooled[name]["support"]
    accuracies = [fold["accuracy"] for fold in per_fold]
    assert report["accuracy"] == pytest.approx(pooled["accuracy"])
    assert report["accuracy_std"] == pytest.approx(np.std(accuracies, ddof=1))


def test_report_text(iris_cv):
    X, y, results = iris_cv
    text = cross_validation_report(results, X, y, target_names=["a", "b", "c"], digits=3)
    report = cross_validation_report(results, X, y, output_dict=True)
    row = report["1"]
    line = next(line for line in text.splitlines() if line.strip().startswith("b "))
    assert (f"{row['recall']:.3f} ({row['recall_mean']:.3f}\u00b1{row['recall_std']:.3f})"
            in line)
    assert text.rstrip().endswith("pooled (mean\u00b1std over 5 folds)")


def test_report_leaves_out_a_score_undefined_on_a_fold():
    X, y = load_iris(return_X_y=True)
    splits = [(np.arange(40, 150), np.arange(0, 80)), (np.arange(0, 100), np.arange(100, 150)),
              (np.r_[0:20, 60:150], np.r_[20:40, 40:60])]
    results = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=splits,
                             return_estimator=True, return_indices=True)
    with pytest.warns(RuntimeWarning, match="undefined on some folds"):
        report = cross_validation_report(results, X, y, output_dict=True, zero_division=0.0)
    recalls = []
    for estimator, (_, test) in zip(results["estimator"], splits):
        present = 2 in y[test]
        if present:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                recalls.append(transport_classification_report(
                    y[test], estimator.predict(X[test]), labels=[0, 1, 2],
                    output_dict=True, zero_division=0.0)["2"]["recall"])
    assert report["2"]["recall_mean"] == pytest.approx(np.mean(recalls))
