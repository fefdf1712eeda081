"""Scorers for scikit-learn's model selection from a quantification error: on each fold the
true class prevalences against those a classifier's predictions give (Sebastiani 2020)."""

import inspect

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.labels import check_label_list
from .._core.params import ARRAY, CALLABLE, Options, check_keywords, validate_params
from .._scores.scorers import ScoreRequester, register_named_scorer
from .errors import (
    absolute_error,
    kl_divergence,
    normalized_absolute_error,
    normalized_kl_divergence,
    prevalence,
    relative_absolute_error,
)
from .estimates import _PREVALENCE_ESTIMATES

# A scorer's eps="auto" is the paper's 1 / (2 |sample|) on each fold.
_AUTO = Options("auto")


class QuantificationScorer(ScoreRequester):
    """A scikit-learn scorer comparing true and predicted prevalences on a fold.

    Built by :func:`make_quantification_scorer`; a picklable module-level class, so it
    works with ``n_jobs > 1``. Calling it returns the negated error (greater is better).

    Parameters
    ----------
    error : callable
        One of the quantification errors (:func:`absolute_error` ...).
    method : {"classify_and_count", "probabilistic_classify_and_count"}
        Count ``predict`` outputs, or average ``predict_proba`` columns.
    labels : array-like or None
        Classes, in order; by default ``estimator.classes_``.
    error_params : dict
        Extra keyword arguments of ``error`` (``eps``).

    Examples
    --------
    >>> from sklearn_confusion_ext import make_quantification_scorer, absolute_error
    >>> scorer = make_quantification_scorer(absolute_error)
    >>> scorer
    make_quantification_scorer(absolute_error, method='classify_and_count')
    """

    def __init__(self, error, method, labels, error_params):
        self.error, self.method, self.labels = error, method, labels
        self.error_params = dict(error_params)

    def __repr__(self):
        params = "".join(f", {k}={v!r}" for k, v in self.error_params.items())
        labels = "" if self.labels is None else f", labels={list(self.labels)!r}"
        return (f"make_quantification_scorer({self.error.__name__}, method={self.method!r}"
                f"{labels}{params})")

    def __call__(self, estimator, X, y_true, sample_weight=None):
        check_is_fitted(estimator)
        n_samples = y_true.shape[0] if hasattr(y_true, "shape") else len(y_true)
        if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
            raise ValueError("Quantification scorers take single-label targets; for "
                             "multi-label quantification score each class as a binary "
                             "problem (Sebastiani 2020, Section 2).")
        classes = np.asarray(estimator.classes_ if self.labels is None else self.labels)
        true = prevalence(y_true, labels=classes, sample_weight=sample_weight)
        predicted = _PREVALENCE_ESTIMATES[self.method](estimator, X, classes, "estimator",
                                                       sample_weight)
        params = dict(self.error_params)
        if _AUTO.is_satisfied_by(params.get("eps")):
            params["eps"] = 1 / (2 * n_samples)
        return -self.error(true, predicted, **params)


# How a scorer reads the predicted prevalence off a classifier.
SCORER_METHOD = [Options("classify_and_count", "probabilistic_classify_and_count")]


@validate_params({"error": [CALLABLE], "method": SCORER_METHOD, "labels": [None, ARRAY]})
def make_quantification_scorer(error, *, method="classify_and_count", labels=None,
                               **error_params):
    """Scorer for :func:`~sklearn.model_selection.cross_val_score` and
    :class:`~sklearn.model_selection.GridSearchCV` from a quantification error.

    On each validation fold it compares the true class prevalences with the predicted
    ones, counted from ``predict`` ("classify_and_count") or averaged from
    ``predict_proba`` ("probabilistic_classify_and_count"), and returns the negated
    error, as scikit-learn's ``neg_*`` scorers do.

    Parameters
    ----------
    error : callable
        A quantification error, e.g. :func:`absolute_error` or :func:`kl_divergence`.
    method : {"classify_and_count", "probabilistic_classify_and_count"}, \
default="classify_and_count"
        How the predicted prevalence is obtained.
    labels : array-like, default=None
        The classes, in order; by default the estimator's ``classes_``.
    **error_params
        Passed to ``error`` (``eps``; ``aggregate`` is not allowed), and checked against
        its parameters when the scorer is built: a keyword ``error`` does not take, or a
        value it refuses, raises at once rather than on every fold. ``eps="auto"`` smooths
        with the paper's ``1 / (2 * fold size)``.

    Returns
    -------
    QuantificationScorer

    See Also
    --------
    evaluate_quantifier : Every error over the samples of a protocol.
    absolute_error : An error to score with.
    get_scorer : The scorers by name, ``neg_absolute_error`` among them.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: the errors of Section 4, equations
    (1)-(17); classify and count, Section 1.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn_confusion_ext import make_quantification_scorer, kl_divergence
    >>> X, y = load_iris(return_X_y=True)
    >>> scorer = make_quantification_scorer(kl_divergence, eps=1e-3)
    >>> scores = cross_val_score(LogisticRegression(max_iter=500), X, y, scoring=scorer, cv=3)
    >>> bool((scores <= 0).all())
    True
    """
    if "aggregate" in error_params:
        raise ValueError("aggregate is not a scorer parameter: a fold gives one sample.")
    if labels is not None:  # checked here, not on every fold
        check_label_list(labels)
    passed_by_scorer = list(inspect.signature(error).parameters)[:2]
    distributions = sorted(set(passed_by_scorer) & set(error_params))
    if distributions:
        raise TypeError(f"make_quantification_scorer got {distributions}: the scorer passes "
                        "each fold's true and predicted prevalences itself.")
    checked = dict(error_params)
    if _AUTO.is_satisfied_by(checked.get("eps")):
        checked["eps"] = 0.5  # 1 / (2 * fold size) for a fold of one element, the largest
    check_keywords(error, checked, "make_quantification_scorer")
    return QuantificationScorer(error, method, labels, error_params)


# The names of the classify-and-count errors for get_scorer (the table of score names,
# _scores/names.py): smoothed with eps = 1 / (2 * fold size) where the error needs it.
for _name, _error, _eps in (
        ("neg_absolute_error", absolute_error, None),
        ("neg_normalized_absolute_error", normalized_absolute_error, None),
        ("neg_relative_absolute_error", relative_absolute_error, "auto"),
        ("neg_kl_divergence", kl_divergence, "auto"),
        ("neg_normalized_kl_divergence", normalized_kl_divergence, "auto")):
    register_named_scorer(_name, lambda error=_error, eps=_eps: make_quantification_scorer(
        error, **({} if eps is None else {"eps": eps})))
