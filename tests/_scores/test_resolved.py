"""The score a statistic is about, resolved once (``_scores/resolved.py``): every function
that resamples a score takes the same names, this library's and scikit-learn's scorer
names, and reads a scikit-learn name off the confusion matrix where this library has the
metric's reader (the fast path), else through scikit-learn's metric on each resample."""

import warnings

import numpy as np
import pytest
from sklearn import metrics

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._scores.resolved import _data, _resolve_score

RNG = np.random.default_rng(0)
Y_TRUE = RNG.integers(0, 3, 150)
Y_A = np.where(RNG.random(150) < 0.7, Y_TRUE, RNG.integers(0, 3, 150))
Y_B = np.where(RNG.random(150) < 0.5, Y_TRUE, RNG.integers(0, 3, 150))
# scikit-learn's names read off the matrix, and what the reader equals on every resample
FAST = ["accuracy", "balanced_accuracy", "f1_macro", "f1_weighted", "precision_micro",
        "recall_macro", "matthews_corrcoef"]
SLOW = ["jaccard_macro", "adjusted_rand_score"]


def _sklearn(name, y_true, y_pred, **keywords):
    scorer = metrics.get_scorer(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return scorer._sign * scorer._score_func(y_true, y_pred, **scorer._kwargs, **keywords)


@pytest.mark.parametrize("name", FAST + SLOW)
def test_scikit_learn_scorer_names_score_as_their_metric(name):
    """Before, score_confidence_interval(score="accuracy") and compare_scores were refused
    (only get_scorer and compare_cv took scikit-learn's names)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        interval = sce.score_confidence_interval(Y_TRUE, Y_A, scoring=name, n_resamples=99,
                                                 method="percentile", random_state=0)
        comparison = sce.compare_scores(Y_TRUE, Y_A, Y_B, scoring=name, n_resamples=99,
                                        random_state=0)
    expected = _sklearn(name, Y_TRUE, Y_A)
    assert interval.estimate == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert interval.low <= expected <= interval.high
    assert comparison.estimate == pytest.approx(expected - _sklearn(name, Y_TRUE, Y_B),
                                                  rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name", FAST)
def test_the_fast_path_reads_every_resample_as_the_metric(name):
    """The names read off the matrix are resampled through its cells, and each resampled
    matrix scores what scikit-learn's metric gives on the labelings it counts, the
    degenerate ones included (a constant labeling, a class never true), with the data's
    classes as ``labels=`` for precision, recall and F1 (the library's rule for metrics
    read off the matrix)."""
    data = _data(_resolve_score(name, None, {}, "test"), Y_TRUE, Y_A, None)
    assert data.cells is not None and data.score.metric is None  # through the matrix
    classes = np.asarray(data.confusion.display_labels)
    n_classes = len(classes)
    rng = np.random.default_rng(1)
    matrices = [rng.multinomial(len(Y_TRUE), data.confusion.matrix.ravel() / len(Y_TRUE))
                .reshape(n_classes, n_classes) for _ in range(20)]
    for cells in ([(0, 0)], [(1, 2)], [(0, 1), (0, 2)], [(0, 0), (1, 0)],
                  [(0, 2), (1, 2), (1, 1)], [(0, 0), (2, 1), (1, 1)]):
        matrix = np.zeros((n_classes, n_classes), dtype=int)
        for i, j in cells:
            matrix[i, j] += 3
        matrices.append(matrix)
    keywords = {"labels": classes} if name.split("_")[0] in ("f1", "precision", "recall") \
        else {}
    for matrix in matrices:
        rows, columns = np.nonzero(matrix)
        counts = matrix[rows, columns]
        y_true, y_pred = np.repeat(classes[rows], counts), np.repeat(classes[columns], counts)
        got = data.of_full_counts(matrix.astype(float).ravel()[None])[0]
        assert got == pytest.approx(_sklearn(name, y_true, y_pred, **keywords), rel=1e-12,
                                    abs=1e-15), (name, matrix)


def test_a_name_of_a_metric_without_a_reader_is_resampled_through_the_metric():
    score = _resolve_score("jaccard_macro", None, {}, "test")
    assert score.metric is not None and score.on_cells is None
    assert _data(score, Y_TRUE, Y_A, None).cells is None


def test_neg_names_keep_their_sign_and_scores_read_probabilities():
    proba = np.clip(np.eye(3)[Y_A] * 0.7 + 0.1, 0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sce.score_confidence_interval(Y_TRUE, proba, scoring="neg_log_loss",
                                               n_resamples=99, method="percentile",
                                               random_state=0)
    assert result.estimate == pytest.approx(-metrics.log_loss(Y_TRUE, proba), rel=1e-12)
    assert result.low <= result.estimate <= result.high < 0


def test_keywords_are_added_to_the_scorers_and_checked():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sce.score_confidence_interval(Y_TRUE, Y_A, scoring="f1_macro",
                                               zero_division=1.0, n_resamples=19,
                                               method="percentile", random_state=0)
    assert result.estimate == pytest.approx(
        metrics.f1_score(Y_TRUE, Y_A, average="macro", zero_division=1.0), rel=1e-12)
    with pytest.raises(TypeError, match="gamma"):
        sce.score_confidence_interval(Y_TRUE, Y_A, scoring="f1_macro", gamma=2)


def test_cohen_kappa_is_a_name_everywhere_a_score_is_named():
    """scikit-learn has cohen_kappa_score but no scorer name for it: ``"cohen_kappa"`` is
    this library's (its cohen_kappa_score), for get_scorer, the intervals and the
    comparisons alike, read off the matrix."""
    from sklearn.linear_model import LogisticRegression

    assert "cohen_kappa" in sce.get_scorer_names()
    assert "cohen_kappa" not in metrics.get_scorer_names()
    expected = sce.cohen_kappa_score(Y_TRUE, Y_A)
    assert expected == pytest.approx(metrics.cohen_kappa_score(Y_TRUE, Y_A), rel=1e-12)
    result = sce.score_confidence_interval(Y_TRUE, Y_A, scoring="cohen_kappa",
                                           n_resamples=99, method="percentile",
                                           random_state=0)
    assert result.estimate == pytest.approx(expected, rel=1e-12)
    difference = sce.compare_scores(Y_TRUE, Y_A, Y_B, scoring="cohen_kappa", n_resamples=19,
                                    random_state=0).estimate
    assert difference == pytest.approx(expected - sce.cohen_kappa_score(Y_TRUE, Y_B))
    X = np.column_stack([Y_A, RNG.random(150)])
    model = LogisticRegression(max_iter=500).fit(X, Y_TRUE)
    assert sce.get_scorer("cohen_kappa")(model, X, Y_TRUE) == pytest.approx(
        metrics.cohen_kappa_score(Y_TRUE, model.predict(X)))


def test_an_unknown_name_lists_both_tables():
    with pytest.raises(ValueError, match="acuracy.*tcm_accuracy.*scikit-learn's"):
        sce.score_confidence_interval(Y_TRUE, Y_A, scoring="acuracy")
