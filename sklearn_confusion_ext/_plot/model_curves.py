"""What the Displays of curves share (reliability, risk-coverage, thresholds): one curve per
model on one Axes, several models on the same Axes in distinct colours, and the scores of a
fitted estimator."""

import numpy as np

from .._core.targets import check_target_set


def curve_color(ax, group):
    """The colour of the next curve of ``group`` on ``ax``: the k-th colour of the colour
    cycle, k the number of curves of ``group`` already drawn there (each curve's Line2D
    carries the gid ``group``), so that a second model drawn on the Axes of a first gets
    the next colour."""
    import matplotlib.pyplot as plt

    colors = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    return colors[len(curves_on(ax, group)) % len(colors)]


def curves_on(ax, group):
    """The curves (Line2D) of ``group`` drawn on ``ax``, in the order drawn."""
    return [line for line in ax.get_lines() if line.get_gid() == group]


def legend_of_curves(ax, group, bands, extra=(), **legend_kw):
    """One legend of every curve of ``group`` on ``ax`` (its label), each drawn over its
    band (the collection of gid ``f"{bands}-{k}"`` for the k-th curve, where drawn), then
    ``extra`` (handle, label) pairs."""
    handles, labels = [], []
    collections = {collection.get_gid(): collection for collection in ax.collections}
    for k, line in enumerate(curves_on(ax, group)):
        if line.get_label().startswith("_"):  # unnamed: no entry
            continue
        band = collections.get(f"{bands}-{k}")
        handles.append((band, line) if band is not None else line)
        labels.append(line.get_label())
    for handle, label in extra:
        handles.append(handle)
        labels.append(label)
    if handles:
        from matplotlib.legend_handler import HandlerTuple

        ax.legend(handles, labels, handler_map={tuple: HandlerTuple(ndivide=1)},
                  **legend_kw)


def estimator_scores(estimator, X, y, response_method, owner):
    """``(scores, classes)`` of a fitted classifier on ``X``: ``predict_proba`` (2-D, a
    column per class of ``classes_``) or ``decision_function``; ``"auto"`` is
    ``predict_proba`` where the estimator has it, else ``decision_function``. ``y`` is
    checked under its own name first, and its length against the scores."""
    check_target_set({"y": y}, one_hot=False)
    n_rows = y.shape[0] if hasattr(y, "shape") else len(y)
    if response_method == "auto":
        response_method = "predict_proba" if hasattr(estimator, "predict_proba") else \
            "decision_function"
    if not hasattr(estimator, response_method):
        raise ValueError(f"{owner}: the estimator {type(estimator).__name__} has no "
                         f"{response_method}; pass a fitted classifier that has it, or "
                         "another response_method.")
    scores = np.asarray(getattr(estimator, response_method)(X))
    if scores.shape[0] != n_rows:
        raise ValueError(f"y has {n_rows} samples but the estimator predicts "
                         f"{scores.shape[0]} on X; pass one label of y per row of X.")
    classes = getattr(estimator, "classes_", None)
    return scores, None if classes is None else np.asarray(classes)


def positive_column(scores, classes, pos_label, owner):
    """The 1-D score of the positive class from an estimator's 2-D ``predict_proba`` (or
    1-D ``decision_function``, the score of ``classes[1]``), with the positive class:
    ``pos_label``, by default ``classes[1]`` as scikit-learn's binary Displays."""
    if classes is None or len(classes) != 2:
        raise ValueError(f"{owner} reads one score of a binary classifier; the estimator "
                         f"has {'no classes_' if classes is None else len(classes)} "
                         f"{'' if classes is None else 'classes'}: pass a binary classifier.")
    listed = classes.tolist()
    if pos_label is None:
        pos_label = listed[1]
    if pos_label not in listed:
        raise ValueError(f"pos_label={pos_label!r} is not a class of the estimator; it "
                         f"should be one of {listed}.")
    column = listed.index(pos_label)
    if scores.ndim == 2:
        return scores[:, column], pos_label
    return (scores if column == 1 else -scores), pos_label


def axis_view(values, extra=()):
    """Limits covering the finite ``values`` and the finite ``extra`` (a marker), padded
    by 4 %; extras that would make the span overflow are left out of view."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    for value in extra:
        if value is None or not np.isfinite(value):
            continue
        with np.errstate(over="ignore", invalid="ignore"):
            span = max(high, value) - min(low, value)
        if np.isfinite(span) and span < 1e300:
            low, high = min(low, value), max(high, value)
    pad = 0.04 * (high - low) if high > low else 0.5
    return low - pad, high + pad
