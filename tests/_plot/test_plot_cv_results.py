"""TransportConfusionMatrixDisplay.from_cv_results: what it draws is the folds' matrices
(their mean, or the pooled one) with each cell's spread over the folds."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_confusion_ext import TransportConfusionMatrixDisplay  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def iris_cv():
    X, y = load_iris(return_X_y=True)
    results = cross_validate(GaussianNB(), X, y, cv=StratifiedKFold(5, shuffle=True,
                                                                    random_state=0),
                             return_estimator=True, return_indices=True)
    folds = np.stack([confusion_matrix(y[test], est.predict(X[test])) for est, test in
                      zip(results["estimator"], results["indices"]["test"])])
    return X, y, results, folds


def test_mean_cells_written_mean_plus_minus_std(iris_cv):
    X, y, results, folds = iris_cv
    display = TransportConfusionMatrixDisplay.from_cv_results(results, X, y,
                                                              values_format=".2f")
    mean, std = folds.mean(axis=0), folds.std(axis=0, ddof=1)
    np.testing.assert_allclose(display.im_.get_array(), mean)
    for i, j in np.ndindex(3, 3):
        expected = f"{mean[i, j]:.2f}" + (f"\u00b1{std[i, j]:.2f}" if std[i, j] > 0 else "")
        assert display.text_[i, j].get_text() == expected
    assert display.ax_.get_title().startswith("Transport confusion matrix over 5 folds")
    assert "mean \u00b1 std" in display.ax_.get_title()


def test_pooled_counts_with_the_spread_on_their_scale(iris_cv):
    X, y, results, folds = iris_cv
    display = TransportConfusionMatrixDisplay.from_cv_results(results, X, y,
                                                              values="pooled")
    np.testing.assert_allclose(display.im_.get_array(), folds.sum(axis=0))
    np.testing.assert_allclose(display.half_width, 5 * folds.std(axis=0, ddof=1))
    rates = TransportConfusionMatrixDisplay.from_cv_results(
        results, X, y, values="pooled", normalize="true")
    pooled = folds.sum(axis=0)
    np.testing.assert_allclose(rates.im_.get_array(), pooled / pooled.sum(axis=1,
                                                                          keepdims=True))
    shares = folds / folds.sum(axis=2, keepdims=True)
    np.testing.assert_allclose(rates.half_width, shares.std(axis=0, ddof=1))


def test_display_labels_and_result_kept(iris_cv):
    X, y, results, folds = iris_cv
    display = TransportConfusionMatrixDisplay.from_cv_results(
        results, X, y, display_labels=["setosa", "versicolor", "virginica"], colorbar=False)
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == [
        "setosa", "versicolor", "virginica"]
    np.testing.assert_array_equal(display.cv_matrices.counts, folds)
    with pytest.raises(TypeError, match="include_counts"):
        TransportConfusionMatrixDisplay.from_cv_results(results, X, y, include_counts=True)


def test_forty_classes_hide_values_by_default(tmp_path):
    X, y = make_classification(n_samples=2000, n_features=40, n_informative=30,
                               n_classes=40, n_clusters_per_class=1, random_state=0)
    results = cross_validate(GaussianNB(), X, y, cv=3, return_estimator=True,
                             return_indices=True)
    display = TransportConfusionMatrixDisplay.from_cv_results(results, X, y,
                                                              normalize="true")
    assert display.text_ is None and display.confusion_matrix.shape == (40, 40)
    display.figure_.savefig(tmp_path / "forty.png")
