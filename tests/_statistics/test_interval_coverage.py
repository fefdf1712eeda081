"""Statistical tests of the confidence intervals of scores (score_confidence_interval).

These check what the intervals claim, not only that they run: coverage of the true value
in simulated data sets, the bootstrap distribution against an instance bootstrap written by
hand, the interval bounds against scipy.stats.bootstrap, statsmodels and the
``confidenceinterval`` package. Every simulation has a fixed seed. The p-values of the
comparisons under the null hypothesis and under a planted difference are in
``test_paired.py``.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import f1_score

from sklearn_confusion_ext import (
    compare_scores,
    score_confidence_interval,
    transport_precision_recall_fscore_support,
)

# --- Data generators -----------------------------------------------------------------------

# Three classes: prevalences and P[predicted j | true i]; the true macro recall is the
# mean of the diagonal.
PREVALENCE = np.array([0.4, 0.35, 0.25])
CONDITIONAL = np.array([[0.8, 0.15, 0.05], [0.2, 0.7, 0.1], [0.1, 0.3, 0.6]])
TRUE_MACRO_RECALL = float(np.mean(np.diag(CONDITIONAL)))


def binary_labels(rng, n_samples, accuracy):
    """Binary labels and predictions that are right with probability ``accuracy``."""
    y_true = rng.integers(0, 2, n_samples)
    right = rng.random(n_samples) < accuracy
    return y_true, np.where(right, y_true, 1 - y_true)


def predictions(rng, y_true, conditional):
    """A prediction of each label, drawn from its row of ``conditional``."""
    draws = rng.random(len(y_true))[:, None]
    return np.minimum((draws > np.cumsum(conditional[y_true], axis=1)).sum(axis=1),
                      len(conditional) - 1)


def three_class_labels(rng, n_samples, conditional=CONDITIONAL):
    y_true = rng.choice(3, n_samples, p=PREVALENCE)
    return y_true, predictions(rng, y_true, conditional)


def coverage(data_sets, truth, score, method):
    hits = 0
    for seed, (y_true, y_pred) in enumerate(data_sets):
        result = score_confidence_interval(y_true, y_pred, scoring=score, method=method,
                                           n_resamples=999, random_state=seed)
        hits += result.low <= truth <= result.high
    return hits / len(data_sets)


# --- Coverage by simulation ----------------------------------------------------------------

N_DATA_SETS = 2_000
ACCURACY, N_BINARY = 0.8, 200
N_THREE_CLASSES = 500


@pytest.fixture(scope="module")
def binary_data_sets():
    rng = np.random.default_rng(20240415)
    return [binary_labels(rng, N_BINARY, ACCURACY) for _ in range(N_DATA_SETS)]


@pytest.fixture(scope="module")
def three_class_data_sets():
    rng = np.random.default_rng(20240416)
    return [three_class_labels(rng, N_THREE_CLASSES) for _ in range(N_DATA_SETS)]


# Binary accuracy on a lattice of n = 200 instances: the exact coverages (infinitely many
# resamples) are 0.9585 (Wilson), 0.956 (percentile) and 0.948 (Bayesian, Beta(k + 2,
# n - k + 2)); at n = 100 the percentile's is 0.963, too close to 0.97 for a seeded test.
@pytest.mark.parametrize("method", ["percentile", "bca", "bayesian", "analytic"])
@pytest.mark.slow
def test_binary_accuracy_intervals_cover_the_true_rate(binary_data_sets, method):
    covered = coverage(binary_data_sets, ACCURACY, "tcm_accuracy", method)
    assert 0.93 <= covered <= 0.97, f"{method}: coverage {covered:.3f} of 95 % intervals"


@pytest.mark.parametrize("method", ["percentile", "bca", "bayesian", "analytic"])
@pytest.mark.slow
def test_macro_recall_intervals_cover_the_true_value(three_class_data_sets, method):
    covered = coverage(three_class_data_sets, TRUE_MACRO_RECALL, "tcm_recall_macro", method)
    assert 0.93 <= covered <= 0.97, f"{method}: coverage {covered:.3f} of 95 % intervals"


@pytest.fixture(scope="module")
def ten_class_data_sets():
    """Ten balanced classes, each recalled with probability 0.8 (errors spread evenly)."""
    rng = np.random.default_rng(20240417)
    data_sets = []
    for _ in range(1_000):
        y_true = rng.integers(0, 10, 1_000)
        wrong = (y_true + rng.integers(1, 10, 1_000)) % 10
        data_sets.append((y_true, np.where(rng.random(1_000) < 0.8, y_true, wrong)))
    return data_sets


# The default prior (None: the observed cells) covers as the bootstrap does; a prior of 1 per
# cell would add C pseudo-counts to each row and centre macro recall on 0.73 for a true 0.8.
@pytest.mark.slow
def test_bayesian_macro_recall_intervals_cover_the_true_value_on_ten_classes(
        ten_class_data_sets):
    covered = coverage(ten_class_data_sets, 0.8, "tcm_recall_macro", "bayesian")
    assert 0.93 <= covered <= 0.97, f"bayesian: coverage {covered:.3f} of 95 % intervals"


def test_weighted_recall_has_no_analytic_interval_and_says_which_apply():
    y_true, y_pred = three_class_labels(np.random.default_rng(0), 90)
    with pytest.raises(ValueError, match="analytic.*percentile.*basic.*bca.*bayesian"):
        score_confidence_interval(y_true, y_pred, scoring="tcm_recall_weighted",
                                  method="analytic")


def _modified_wilson(successes, n, alpha):
    """statsmodels' Wilson interval with Brown, Cai and DasGupta's (2001, 4.1.1) ends
    one to x* successes or failures from a bound: the one-sided Poisson bound."""
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    low, high = proportion.proportion_confint(successes, n, alpha=alpha, method="wilson")
    near = 2 if n <= 50 else 3
    if 1 <= successes <= near:
        low = stats.chi2.ppf(alpha, 2 * successes) / (2 * n)
    if 1 <= n - successes <= near:
        high = 1 - stats.chi2.ppf(alpha, 2 * (n - successes)) / (2 * n)
    return low, high


def test_wilson_intervals_equal_statsmodels():
    rng = np.random.default_rng(1)
    for n_samples, accuracy in [(20, 0.9), (57, 0.5), (400, 0.97), (10, 0.9), (80, 0.97)]:
        y_true, y_pred = binary_labels(rng, n_samples, accuracy)
        for level in (0.9, 0.95, 0.99):
            result = score_confidence_interval(y_true, y_pred, scoring="tcm_accuracy",
                                               method="analytic", confidence_level=level)
            low, high = _modified_wilson(np.sum(y_true == y_pred), n_samples, 1 - level)
            np.testing.assert_allclose([result.low, result.high], [low, high], rtol=1e-12)
            # binary recall: Wilson on the positive row
            result = score_confidence_interval(y_true, y_pred, scoring="tcm_recall",
                                               average="binary", method="analytic",
                                               confidence_level=level)
            positives = y_true == 1
            low, high = _modified_wilson(np.sum(y_pred[positives] == 1), positives.sum(),
                                         1 - level)
            np.testing.assert_allclose([result.low, result.high], [low, high], rtol=1e-12)


def test_wilson_is_modified_near_the_bounds_only():
    # 9 of 10 right: Wilson's upper end 0.982 misses a true 0.99 (its coverage there is
    # 90 %); the Poisson end is 1 - chi2_2(0.05) / 20. Far from the bounds: Wilson's.
    y_true = np.zeros(10, dtype=int)
    result = score_confidence_interval(y_true, np.r_[np.zeros(9, int), 1], scoring="tcm_accuracy",
                                       method="analytic")
    assert result.high == pytest.approx(1 - stats.chi2.ppf(0.05, 2) / 20, rel=1e-12)
    assert result.high > 0.99
    z = stats.norm.ppf(0.975)
    result = score_confidence_interval(y_true, np.r_[np.zeros(5, int), np.ones(5, int)],
                                       scoring="tcm_accuracy", method="analytic")
    half = z / (1 + z ** 2 / 10) * np.sqrt(0.25 / 10 + z ** 2 / 400)
    assert result.low == pytest.approx(0.5 - half, rel=1e-12)


# --- Cell-multinomial resampling against instance resampling ------------------------------


def instance_bootstrap(rng, y_true, y_pred, n_resamples, score):
    """The textbook bootstrap: draw instance indices with replacement, score each draw."""
    n_samples = len(y_true)
    values = np.empty(n_resamples)
    for row in range(n_resamples):
        index = rng.integers(0, n_samples, n_samples)
        values[row] = score(y_true[index], y_pred[index])
    return values


def macro_f1(y_true, y_pred):
    return transport_precision_recall_fscore_support(y_true, y_pred, average="macro",
                                                     zero_division=0.0)[2]


def vectorized_accuracy(y_true, y_pred, axis=-1):
    return np.mean(y_true == y_pred, axis=axis)


def vectorized_macro_f1(y_true, y_pred, axis=-1):
    """Macro F1 of three classes (0 for a class absent from both), along ``axis``."""
    scores = []
    for label in range(3):
        true, pred = y_true == label, y_pred == label
        tp = np.sum(true & pred, axis=axis)
        denominator = np.sum(true, axis=axis) + np.sum(pred, axis=axis)
        scores.append(np.divide(2 * tp, denominator, out=np.zeros(np.shape(tp)),
                                where=denominator > 0))
    return np.mean(scores, axis=0)


def test_cell_resampling_has_the_distribution_of_instance_resampling():
    rng = np.random.default_rng(2)
    y_true, y_pred = three_class_labels(rng, 150)
    ours = score_confidence_interval(y_true, y_pred, scoring="tcm_f1_macro", method="percentile",
                                     n_resamples=5_000, random_state=3,
                                     zero_division=0.0).distribution
    assert ours.shape == (5_000,)
    index = rng.integers(0, 150, (5_000, 150))
    by_hand = vectorized_macro_f1(y_true[index], y_pred[index])
    assert stats.ks_2samp(ours, by_hand).pvalue > 0.01
    # The test has power: a bootstrap of 100 of the 150 instances is told apart.
    index = rng.integers(0, 100, (5_000, 100))
    fewer = vectorized_macro_f1(y_true[index], y_pred[index])
    assert stats.ks_2samp(ours, fewer).pvalue < 1e-4


def test_multilabel_resampled_matrices_have_the_distribution_of_instance_resampling():
    rng = np.random.default_rng(4)
    y_true = (rng.random((120, 4)) < 0.35).astype(int)
    y_pred = np.where(rng.random((120, 4)) < 0.8, y_true, 1 - y_true)
    ours = score_confidence_interval(y_true, y_pred, scoring="tcm_f1_macro", method="percentile",
                                     n_resamples=800, random_state=5,
                                     zero_division=0.0).distribution
    by_hand = instance_bootstrap(rng, y_true, y_pred, 800, macro_f1)
    assert stats.ks_2samp(ours, by_hand).pvalue > 0.01


# --- Bounds against scipy.stats.bootstrap ---------------------------------------------------


@pytest.mark.parametrize("method", ["bca", "percentile", "basic"])
@pytest.mark.parametrize("score, statistic, n_classes", [
    ("tcm_accuracy", vectorized_accuracy, 2),
    ("tcm_f1_macro", vectorized_macro_f1, 3),
])
def test_bounds_equal_scipy_bootstrap_within_monte_carlo_error(method, score, statistic,
                                                               n_classes):
    rng = np.random.default_rng(6)
    if n_classes == 2:
        y_true, y_pred = binary_labels(rng, 60, 0.75)
    else:
        y_true, y_pred = three_class_labels(rng, 60)
    ours = score_confidence_interval(y_true, y_pred, scoring=score, method=method,
                                     n_resamples=9_999, random_state=7)
    theirs = stats.bootstrap((y_true, y_pred), statistic, paired=True, vectorized=True,
                             n_resamples=9_999, method="BCa" if method == "bca" else method,
                             random_state=np.random.default_rng(8)).confidence_interval
    np.testing.assert_allclose([ours.low, ours.high], [theirs.low, theirs.high], atol=0.02)
    assert ours.estimate == pytest.approx(statistic(y_true, y_pred))


def test_bca_of_2d_targets_equals_scipy_bootstrap_within_monte_carlo_error():
    """One-hot rows take the instance-weight path (a full jackknife at 60 instances)."""
    rng = np.random.default_rng(9)
    y_true, y_pred = binary_labels(rng, 60, 0.7)
    ours = score_confidence_interval(np.eye(2)[y_true], np.eye(2)[y_pred],
                                     scoring="tcm_accuracy", method="bca", n_resamples=2_000,
                                     random_state=10)
    theirs = stats.bootstrap((y_true, y_pred), vectorized_accuracy, paired=True,
                             vectorized=True, n_resamples=9_999, method="BCa",
                             random_state=np.random.default_rng(11)).confidence_interval
    np.testing.assert_allclose([ours.low, ours.high], [theirs.low, theirs.high], atol=0.02)


# --- Analytic F1 intervals ------------------------------------------------------------------


def delta_method_f1(y_true, y_pred, average, confidence_level=0.95, step=1e-7):
    """Takahashi et al.'s delta method written independently: a numerical gradient of F1
    in the cell proportions and the multinomial covariance diag(p) - p p^T."""
    classes = np.unique(np.concatenate([y_true, y_pred]))
    counts = np.array([[np.sum((y_true == i) & (y_pred == j)) for j in classes]
                       for i in classes], dtype=float)
    n_samples = counts.sum()

    def f1(cells):
        matrix = cells.reshape(counts.shape)
        tp = np.diag(matrix)
        per_class = 2 * tp / (matrix.sum(axis=1) + matrix.sum(axis=0))
        if average == "binary":
            return per_class[-1]
        if average == "macro":
            return per_class.mean()
        return tp.sum() / matrix.sum()

    p = counts.ravel() / n_samples
    gradient = np.array([(f1(p + step * e) - f1(p - step * e)) / (2 * step)
                         for e in np.eye(p.size)])
    variance = gradient @ (np.diag(p) - np.outer(p, p)) @ gradient / n_samples
    half = stats.norm.ppf(0.5 + confidence_level / 2) * np.sqrt(variance)
    return f1(p), f1(p) - half, f1(p) + half


F1_CASES = {
    "binary": ([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1] * 5, [0, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1] * 5),
    "multiclass": ([0, 1, 2, 2, 1, 0, 2, 2, 1, 0, 1, 2, 0] * 4,
                   [0, 2, 2, 2, 1, 0, 1, 2, 1, 1, 1, 0, 0] * 4),
}


@pytest.mark.parametrize("case, average, score", [
    ("binary", "binary", f1_score),  # scikit-learn's metric: its average="binary" default
    ("binary", "macro", "tcm_f1_macro"),
    ("binary", "micro", "tcm_f1_micro"),
    ("multiclass", "macro", "tcm_f1_macro"),
    ("multiclass", "micro", "tcm_f1_micro"),
])
def test_analytic_f1_is_the_delta_method(case, average, score):
    y_true, y_pred = (np.array(y) for y in F1_CASES[case])
    result = score_confidence_interval(y_true, y_pred, scoring=score, method="analytic",
                                       confidence_level=0.9)
    expected = delta_method_f1(y_true, y_pred, average, confidence_level=0.9)
    np.testing.assert_allclose([result.estimate, result.low, result.high], expected,
                               atol=1e-6)


@pytest.mark.parametrize("case, average", [("binary", None), ("binary", "macro"),
                                           ("multiclass", None), ("multiclass", "macro")])
def test_analytic_f1_standard_error_is_the_bootstrap_standard_deviation(case, average):
    """The delta method approximates the sampling spread that the bootstrap measures
    (per class, the positive class of the binary case among them, and macro)."""
    y_true, y_pred = (np.array(y) for y in F1_CASES[case])
    analytic, bootstrap = (score_confidence_interval(
        y_true, y_pred, scoring="tcm_f1_macro", average=average, method=method,
        n_resamples=20_000, random_state=17) for method in ("analytic", "percentile"))
    np.testing.assert_allclose(analytic.standard_error, bootstrap.standard_error, rtol=0.1)


@pytest.mark.parametrize("method", ["analytic", "percentile"])
def test_binary_average_of_a_named_score_is_the_positive_class(method):
    y_true, y_pred = (np.array(y) for y in F1_CASES["binary"])
    result = score_confidence_interval(y_true, y_pred, scoring="tcm_f1", average="binary",
                                       method=method, n_resamples=999, random_state=0)
    assert result.estimate == pytest.approx(f1_score(y_true, y_pred))
    assert result.low < result.estimate < result.high


@pytest.mark.parametrize("case", ["binary", "multiclass"])
def test_analytic_micro_f1_equals_confidenceinterval(case):
    package = pytest.importorskip("confidenceinterval")
    y_true, y_pred = (np.array(y) for y in F1_CASES[case])
    estimate, (low, high) = package.f1_score(y_true, y_pred, average="micro")
    result = score_confidence_interval(y_true, y_pred, scoring="tcm_f1_micro",
                                       method="analytic")
    np.testing.assert_allclose([result.estimate, result.low, result.high],
                               [estimate, low, high], atol=1e-6)


def test_analytic_binary_f1_differs_from_confidenceinterval_by_its_covariance_term():
    """confidenceinterval 1.0.5 writes the multinomial covariance of the flattened cells as
    ``np.diag(p) - p * p.transpose()`` (a 1-D ``p``: ``diag(p) - p**2`` broadcast over
    rows, not ``diag(p) - p p^T``), which adds ``-(sum d)(sum p**2 d) / n`` to the variance
    of the delta method (gradient ``d``). The library's interval is the correct one; it
    equals the package's once that term is accounted for."""
    package = pytest.importorskip("confidenceinterval")
    y_true, y_pred = (np.array(y) for y in F1_CASES["binary"])
    estimate, (low, high) = package.f1_score(y_true, y_pred, average="binary")
    result = score_confidence_interval(y_true, y_pred, scoring=f1_score, method="analytic")
    assert result.estimate == pytest.approx(estimate, abs=1e-12)
    z = stats.norm.ppf(0.975)
    counts = np.array([[np.sum((y_true == i) & (y_pred == j)) for j in (0, 1)]
                       for i in (0, 1)], dtype=float).ravel()
    p = counts / counts.sum()
    denominator = p[1] + p[2] + 2 * p[3]
    d = np.array([0, -estimate / denominator, -estimate / denominator,
                  2 * (1 - estimate) / denominator])
    theirs = ((high - low) / (2 * z)) ** 2
    extra = d.sum() * np.sum(p ** 2 * d) / len(y_true)
    assert abs(theirs - result.standard_error ** 2) > 1e-5  # the package is off
    assert theirs == pytest.approx(result.standard_error ** 2 - extra, rel=1e-5)


# --- Paired comparisons ---------------------------------------------------------------------


# --- Bad inputs -----------------------------------------------------------------------------

Y_TRUE, Y_PRED = [0, 1, 2, 1, 0, 2, 1, 1], [0, 2, 2, 1, 0, 1, 1, 0]


@pytest.mark.parametrize("function", [score_confidence_interval, compare_scores])
@pytest.mark.parametrize("level", [0, 1, -0.5, 1.5, 95, np.nan])
def test_confidence_level_outside_zero_one_is_refused(function, level):
    targets = (Y_TRUE, Y_PRED) if function is score_confidence_interval else \
        (Y_TRUE, Y_PRED, Y_TRUE)
    with pytest.raises(ValueError, match="confidence_level"):
        function(*targets, confidence_level=level)


@pytest.mark.parametrize("function", [score_confidence_interval, compare_scores])
@pytest.mark.parametrize("n_resamples", [0, -1])
def test_fewer_than_one_resample_is_refused(function, n_resamples):
    targets = (Y_TRUE, Y_PRED) if function is score_confidence_interval else \
        (Y_TRUE, Y_PRED, Y_TRUE)
    with pytest.raises(ValueError, match="n_resamples"):
        function(*targets, n_resamples=n_resamples)


@pytest.mark.parametrize("function", [score_confidence_interval, compare_scores])
def test_unknown_score_names_list_the_valid_ones(function):
    targets = (Y_TRUE, Y_PRED) if function is score_confidence_interval else \
        (Y_TRUE, Y_PRED, Y_TRUE)
    with pytest.raises(ValueError, match="tcm_f2_macro") as error:
        function(*targets, scoring="tcm_f2_macro")
    for valid in ("tcm_f1_macro", "tcm_accuracy", "mlcm_recall_micro", "generalized_means"):
        assert valid in str(error.value)


@pytest.mark.parametrize("score", ["generalized_means", "symmetric_balanced_accuracy",
                                   "neg_confusion_entropy", "tcm_f1_weighted"])
def test_analytic_where_no_closed_form_names_the_methods_that_apply(score):
    with pytest.raises(ValueError, match=score) as error:
        score_confidence_interval(Y_TRUE, Y_PRED, scoring=score, method="analytic")
    for method in ("percentile", "basic", "bca", "bayesian"):
        assert f"'{method}'" in str(error.value)


def test_analytic_on_multilabel_targets_names_the_methods_that_apply():
    y = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    with pytest.raises(ValueError, match="analytic.*'percentile'.*'bayesian'"):
        score_confidence_interval(y, y[::-1], scoring="tcm_accuracy", method="analytic")
