"""The prevalence vector an estimator gives on rows of features: a quantifier's
``quantify(X)``, the counted predictions of a classifier ("classify and count") or its
averaged probabilities ("probabilistic classify and count"), each checked as a
distribution over the classes before it is scored."""

import numpy as np

from .._core.params import quoted
from .errors import _SUM_TOLERANCE, prevalence


def _check_estimator(estimator, method, name):
    """Refuse, before any sample is drawn, an ``estimator`` (the argument ``name``) that
    lacks what ``method`` calls."""
    if method == "quantify":
        if not callable(getattr(estimator, "quantify", estimator)):
            raise TypeError(f"method='quantify' calls {name}.quantify(X) or {name}(X); got "
                            f"{type(estimator).__name__}, which has no quantify method and "
                            "is not callable.")
        return
    needed = "predict" if method == "classify_and_count" else "predict_proba"
    for attribute in (needed, *(("classes_",) if needed == "predict_proba" else ())):
        if not hasattr(estimator, attribute):
            raise TypeError(f"method={method!r} reads {name}.{attribute}; got "
                            f"{type(estimator).__name__}, which has none (pass a fitted "
                            "classifier, or another method).")


def _described(value):
    """What an estimator returned, for a message: its type and a short repr."""
    return f"{type(value).__name__} {quoted(value, 80)}"


def _quantified(quantifier, X, classes, name="quantifier"):
    method = getattr(quantifier, "quantify", None)
    source = f"{name}.quantify(X)" if method is not None else f"{name}(X)"
    returned = (method or quantifier)(X)
    expected = (f"expected {len(classes)} prevalences (non-negative, summing to 1) over the "
                f"classes {quoted(np.asarray(classes).tolist())}, in their order")
    try:
        estimate = np.asarray(returned, dtype=np.float64)
    except (TypeError, ValueError):
        hint = ("; for a mapping, return its values in the order of the classes"
                if isinstance(returned, dict) else "")
        raise ValueError(f"{source} returned {_described(returned)}, which is no vector of "
                         f"numbers; {expected}{hint}.") from None
    if estimate.ndim > 1 and max(estimate.shape) != estimate.size:
        raise ValueError(f"{source} returned an array of shape {estimate.shape}; {expected}.")
    estimate = estimate.ravel()
    if estimate.shape != (len(classes),) or returned is None:
        found = "None" if returned is None else f"{estimate.size} prevalences"
        raise ValueError(f"{source} returned {found} for {len(classes)} classes; {expected}; "
                         "pass labels= in the order it returns them.")
    return _checked_estimate(estimate, source, expected)


def _checked_estimate(estimate, source, expected):
    """``estimate`` (prevalences an estimator gave), refused where it is no distribution."""
    if not np.isfinite(estimate).all() or (estimate < 0).any():
        problem = "non-finite" if not np.isfinite(estimate).all() else "negative"
        raise ValueError(f"{source} returned {problem} prevalences "
                         f"{quoted(estimate.tolist())}; {expected}.")
    if abs(estimate.sum() - 1) > _SUM_TOLERANCE:
        raise ValueError(f"{source} returned prevalences {quoted(estimate.tolist())} summing "
                         f"to {estimate.sum():g}; {expected}.")
    return estimate


def _classified_and_counted(classifier, X, classes, name="quantifier", sample_weight=None):
    predicted = np.asarray(classifier.predict(X))
    n_rows, source = _n_rows(X), f"{name}.predict(X)"
    if predicted.ndim != 1 or len(predicted) != n_rows:
        raise ValueError(f"{source} returned an array of shape {predicted.shape} for {n_rows} "
                         "rows of X; expected one class label per row.")
    classes = np.asarray(classes).tolist()
    known = set(classes)
    unknown = sorted({label for label in predicted.tolist() if label not in known}, key=str)
    if unknown:
        raise ValueError(f"{source} returned labels {quoted(unknown)} that are not among the "
                         f"classes {quoted(classes)}; pass labels= with every class the "
                         "classifier predicts.")
    return prevalence(predicted, labels=classes, sample_weight=sample_weight)


def _probabilities_averaged(classifier, X, classes, name="quantifier", sample_weight=None):
    returned = classifier.predict_proba(X)
    known = np.asarray(classifier.classes_).tolist()
    n_rows, source = _n_rows(X), f"{name}.predict_proba(X)"
    expected = (f"expected an array of shape ({n_rows}, {len(known)}): non-negative "
                f"probabilities, a row per row of X, a column per class of {name}.classes_")
    try:
        probabilities = np.asarray(returned, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{source} returned {_described(returned)}, which is no array of "
                         f"numbers; {expected}.") from None
    if probabilities.shape != (n_rows, len(known)):
        raise ValueError(f"{source} returned an array of shape {probabilities.shape}; "
                         f"{expected}.")
    if not np.isfinite(probabilities).all() or (probabilities < 0).any():
        problem = "non-finite" if not np.isfinite(probabilities).all() else "negative"
        raise ValueError(f"{source} returned {problem} probabilities; {expected}.")
    columns = np.column_stack([probabilities[:, known.index(c)] if c in known
                               else np.zeros(n_rows) for c in np.asarray(classes).tolist()])
    weights = np.ones(n_rows) if sample_weight is None else \
        np.asarray(sample_weight, dtype=np.float64)
    estimate = weights @ columns / weights.sum()
    if not estimate.sum() > 0:
        raise ValueError(f"{source} gives the classes {quoted(np.asarray(classes).tolist())} "
                         f"no probability on these rows; {expected}, summing to 1.")
    return estimate / estimate.sum()


def _n_rows(X):
    return X.shape[0] if hasattr(X, "shape") else len(X)


_PREVALENCE_ESTIMATES = {"quantify": _quantified, "classify_and_count": _classified_and_counted,
                         "probabilistic_classify_and_count": _probabilities_averaged}
