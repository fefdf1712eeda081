"""Evaluating a quantifier over the samples of a protocol with every error of Sebastiani
(2020), in one call, and the result that summarizes the errors across the samples."""

from numbers import Real

import numpy as np

from .._core.labels import check_label_list
from .._core.params import (
    ARRAY,
    CALLABLE,
    POSITIVE_INT,
    RANDOM_STATE,
    HasMethods,
    Interval,
    Options,
    quoted,
    validate_params,
)
from .._core.results import Result, _result, _Table
from . import errors as measures
from .errors import prevalence
from .estimates import _PREVALENCE_ESTIMATES, _check_estimator
from .protocols import PROTOCOL, prevalence_protocol_samples

# The errors of evaluate_quantifier, in the order of Sebastiani's Table 3 (the smoothed ones
# with eps = 1 / (2 * sample size), the paper's choice; the others ignore eps).
_EVALUATED_ERRORS = ("absolute_error", "normalized_absolute_error", "relative_absolute_error",
                     "normalized_relative_absolute_error", "squared_error",
                     "normalized_squared_error", "discordance_ratio", "kl_divergence",
                     "normalized_kl_divergence", "pearson_divergence",
                     "normalized_pearson_divergence")


@_result(kw_only=True, parameters={
    "errors": [dict], "true_prevalence": [ARRAY], "predicted_prevalence": [ARRAY],
    "class_names": [ARRAY], "protocol": [str], "sample_size": [POSITIVE_INT],
    "eps": [Interval(Real, 0, None, closed="neither")]})
class QuantifierEvaluation(Result):
    """Every quantification error of a quantifier over the samples of a protocol (see
    :func:`evaluate_quantifier`).

    ``mean()`` and ``std()`` give each error's mean and standard deviation across the
    samples; ``to_frame()`` gives one row per error, with the mean, standard deviation,
    median, minimum and maximum across the samples, and the repr prints that table.

    Attributes
    ----------
    errors : dict of str to ndarray of shape (n_samples,)
        Each error's value on each sample (lower is better).
    true_prevalence, predicted_prevalence : ndarray of shape (n_samples, n_classes)
        The prevalence vectors of each sample, over ``class_names``.
    class_names : ndarray
        The classes of the pool (or ``labels``), the columns of the prevalence vectors
        (formerly ``classes``, which still reads with a ``FutureWarning``).
    protocol : str
        The sampling protocol.
    sample_size : int
        Elements per sample.
    eps : float
        The smoothing of the smoothed errors, ``1 / (2 * sample_size)``.

    See Also
    --------
    evaluate_quantifier : Builds this result.
    prevalence_protocol_samples : The samples it is computed over.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: the errors of Section 4, equations
    (1)-(17), and their aggregation over samples, Section 5.3.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import QuantifierEvaluation
    >>> result = QuantifierEvaluation(
    ...     errors={"absolute_error": np.array([0.1, 0.3])},
    ...     true_prevalence=np.array([[0.5, 0.5], [0.2, 0.8]]),
    ...     predicted_prevalence=np.array([[0.4, 0.6], [0.5, 0.5]]),
    ...     class_names=np.array(["a", "b"]), protocol="artificial", sample_size=10,
    ...     eps=0.05)
    >>> result.mean()
    {'absolute_error': 0.2}
    """

    errors: dict
    true_prevalence: np.ndarray
    predicted_prevalence: np.ndarray
    class_names: np.ndarray
    protocol: str
    sample_size: int
    eps: float

    _renamed_fields = {"classes": "class_names"}

    def mean(self):
        """Each error's mean across the samples, as a dict."""
        return {name: float(np.mean(values)) for name, values in self.errors.items()}

    def std(self):
        """Each error's standard deviation across the samples (ddof=1), as a dict."""
        return {name: float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
                for name, values in self.errors.items()}

    def _summary(self):
        return [("protocol", self.protocol), ("n_samples", len(self.true_prevalence)),
                ("sample_size", self.sample_size), ("n_classes", len(self.class_names))]

    def _table(self):
        values = list(self.errors.values())
        return _Table("error", list(self.errors), {
            "mean": list(self.mean().values()), "std": list(self.std().values()),
            "median": [float(np.median(v)) for v in values],
            "min": [float(np.min(v)) for v in values],
            "max": [float(np.max(v)) for v in values]})


@validate_params({
    "quantifier": [CALLABLE, HasMethods("quantify", description="a quantifier"),
                   HasMethods("predict", description="a fitted classifier")],
    "X": [ARRAY], "y": [ARRAY],
    "method": [Options("auto", "quantify", "classify_and_count",
                       "probabilistic_classify_and_count")],
    "protocol": PROTOCOL, "n_samples": [POSITIVE_INT], "sample_size": [None, POSITIVE_INT],
    "labels": [None, ARRAY], "random_state": RANDOM_STATE})
def evaluate_quantifier(quantifier, X, y, *, method="auto", protocol="artificial",
                        n_samples=100, sample_size=None, labels=None, random_state=None):
    """Every quantification error of a quantifier over the samples of a protocol, in one call.

    Draws ``n_samples`` samples of ``(X, y)`` with :func:`prevalence_protocol_samples`,
    estimates each sample's class prevalences with the quantifier, and scores them against
    the true ones with every error of Sebastiani (2020) (:func:`absolute_error` ...
    :func:`normalized_pearson_divergence`; the smoothed ones with ``eps = 1 / (2 *
    sample_size)``): the evaluation QuaPy's protocols give, with the mean and the spread
    of each error across the samples. Every prevalence vector is over the same classes
    (the pool's, or ``labels``), a sample lacking a class holding 0 there.

    Parameters
    ----------
    quantifier : object or callable
        A quantifier with ``quantify(X)`` (QuaPy's interface) or a callable ``f(X)``,
        returning the prevalence vector over the classes (``labels``) in their order; or a
        fitted classifier, whose predictions are counted (see ``method``).
    X : array-like of shape (n_elements, n_features)
        The pool's features (rows are indexed; pandas objects by position).
    y : array-like of shape (n_elements,)
        The pool's class labels.
    method : {"auto", "quantify", "classify_and_count", \
"probabilistic_classify_and_count"}, default="auto"
        "quantify": ``quantifier.quantify(X)`` or ``quantifier(X)``; "classify_and_count":
        the prevalence of ``predict(X)``; "probabilistic_classify_and_count": the mean of
        ``predict_proba(X)`` (its columns named by ``classes_``); "auto": "quantify" for an
        object with ``quantify`` or a plain callable, else "classify_and_count".
    protocol : {"natural", "artificial"}, default="artificial"
        As in :func:`prevalence_protocol_samples`: the artificial-prevalence protocol
        (prevalences drawn uniformly from the simplex) tests a quantifier across shifts;
        the natural one at the pool's prevalence.
    n_samples : int, default=100
        Number of samples.
    sample_size : int, default=None
        Elements per sample; by default the size of the pool.
    labels : array-like, default=None
        The classes, in order (of the prevalence vectors, and of what ``quantify``
        returns); by default the sorted classes of ``y``.
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    QuantifierEvaluation
        ``errors`` per sample, the prevalence vectors, ``mean()``, ``std()``; its repr and
        ``to_frame()`` give each error's mean, standard deviation, median and range.

    Raises
    ------
    TypeError
        Before any sample is drawn, when ``quantifier`` lacks what ``method`` calls
        (``quantify`` or a call, ``predict``, ``predict_proba`` and ``classes_``).
    ValueError
        When what the quantifier returns on a sample is no prevalence vector over the
        classes (``quantifier.quantify(X)`` or ``quantifier(X)``: a vector of
        ``n_classes`` non-negative numbers summing to 1 within 1e-6), or its predictions
        are not one label of the classes per row (``quantifier.predict(X)``), or its
        probabilities not a non-negative ``(n_rows, len(classes_))`` array
        (``quantifier.predict_proba(X)``); the message names the call and quotes what it
        returned.

    See Also
    --------
    QuantifierEvaluation : The result.
    prevalence_protocol_samples : The samples it draws.
    make_quantification_scorer : One error as a scikit-learn scorer.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: the errors of Section 4, equations
    (1)-(17), smoothed by equation (6) with eps = 1 / (2 * sample_size); the evaluation over
    samples, Sections 5.3 and 6.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_confusion_ext import evaluate_quantifier
    >>> X, y = load_iris(return_X_y=True)
    >>> model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    >>> result = evaluate_quantifier(model, X[1::2], y[1::2], n_samples=50, sample_size=30,
    ...                              random_state=0)
    >>> result.true_prevalence.shape, len(result.errors)
    ((50, 3), 11)
    >>> round(result.mean()["absolute_error"], 3)
    0.021
    """
    y_pool = np.asarray(y)
    if labels is not None:  # checked before any sample is drawn
        check_label_list(labels)
    samples = prevalence_protocol_samples(y_pool, n_samples=n_samples, sample_size=sample_size,
                                          protocol=protocol, random_state=random_state)
    classes = samples.classes if labels is None else np.asarray(labels)
    missing = np.setdiff1d(samples.classes, classes)
    if len(missing):
        raise ValueError(f"labels {quoted(list(classes))} leave out the classes "
                         f"{quoted(missing.tolist())} of y; list every class of the pool.")
    if len(X) != len(y_pool):
        raise ValueError(f"X has {len(X)} rows and y {len(y_pool)} labels; one label per row "
                         "is expected.")
    if method == "auto":
        method = ("quantify" if hasattr(quantifier, "quantify") or not hasattr(
            quantifier, "predict") else "classify_and_count")
    _check_estimator(quantifier, method, "quantifier")
    estimate = _PREVALENCE_ESTIMATES[method]
    true, predicted = [], []
    for sample in samples:
        true.append(prevalence(y_pool[sample], labels=classes))
        predicted.append(estimate(quantifier, _rows(X, sample), classes))
    true, predicted = np.array(true), np.array(predicted)
    size = len(y_pool) if sample_size is None else int(sample_size)
    eps = 1.0 / (2 * size)
    errors = {name: np.asarray(getattr(measures, name)(true, predicted, eps=eps,
                                                        aggregate=None))
              for name in _EVALUATED_ERRORS}
    return QuantifierEvaluation(errors=errors, true_prevalence=true,
                                predicted_prevalence=predicted, class_names=classes,
                                protocol=protocol, sample_size=size, eps=eps)


def _rows(X, positions):
    """The rows of ``X`` at ``positions`` (pandas objects by position)."""
    return X.iloc[positions] if hasattr(X, "iloc") else X[positions]

