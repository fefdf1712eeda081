"""Forest plots of per-class scores with their confidence intervals, one or several
classifiers side by side."""

from collections.abc import Mapping

import numpy as np

from .._core.docs import fill_doc
from .._core.params import (
    ARRAY,
    CONFIDENCE_LEVEL,
    N_RESAMPLES,
    RANDOM_STATE,
    Options,
    quoted,
    validate_params,
)
from .._core.renames import RenamedAttributes
from .._scores.names import PER_CLASS_SCORE_NAMES
from .._scores.reports import mlcm_classification_report, transport_classification_report
from .._statistics.intervals import score_confidence_interval
from .data_checks import display_array, ordered_bounds, same_shape, same_undefined
from .declarations import FOREST_PLOT
from .layout import short_names, tick_step
from .matplotlib_check import check_matplotlib

# The per-class scores drawn (names of _scores.names): the matrix, and what is read
# off it per class.
_MATRICES = {"tcm": "TCM", "mlcm": "MLCM"}
_READINGS = {"f1": "F1-score", "precision": "precision", "recall": "recall"}
_METHODS = {"percentile": "percentile bootstrap", "basic": "basic bootstrap",
            "bca": "BCa bootstrap", "bayesian": "Bayesian", "analytic": "analytic"}
# The name of the summary row that from_predictions appends.
MACRO_AVERAGE = "macro average"
# The rows of a classification report's dict after the classes.
_REPORT_SUMMARIES = ("accuracy", "micro avg", "macro avg", "weighted avg")
# The markers of the classifiers, in turn (their colors follow the color cycle).
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "p")

_DOCS = {"drawing": """\
ax : matplotlib Axes, default=None
    Axes to draw on. By default a new figure, sized to the number of rows and
    classifiers (at most 12 x 10 inches).
title : str or None, default="auto"
    Title of the axes. "auto" names the score and, when :meth:`from_predictions` made
    the intervals, their confidence level and method on a second line, e.g.
    "TCM F1-score per class" over "(95% BCa bootstrap intervals, 999 resamples)"; None or
    "" draws no title; any other string is the title.""",
}


class ScoreIntervalDisplay(RenamedAttributes):
    """Forest plot of per-class scores and their confidence intervals.

    One row per class (top to bottom), each classifier's score as a marker on its
    interval; several classifiers are drawn side by side within each row, offset and told
    apart by marker and color, with a legend. :meth:`from_predictions` computes the
    intervals with :func:`score_confidence_interval` and appends the macro average as a
    last row, set apart by a line. Up to about 40 classes every class is named; when the
    names cannot all be written without overlapping, every k-th class is named (the
    macro average always).

    Parameters
    ----------
    estimates, low, high : array-like of shape (n_rows,) or (n_models, n_rows)
        The scores and the bounds of their intervals: one row per class (a 1-D array for
        one classifier). NaN (in all three) marks an undefined score, whose row is left
        empty; infinities, NaN in only some of them and ``low > high`` raise ``ValueError``.
    display_labels : list of str, default=None
        The name of each row; row indices by default. Names longer than 20 characters keep
        their start and end around an ellipsis. (``class_names``, its former name, works
        with a ``FutureWarning`` until 0.2.)
    models : list of str, default=None
        The name of each classifier, in the legend; without them one classifier has no
        legend and several are named "model 0", "model 1", ... (``model_names``, its
        former name, works with a ``FutureWarning`` until 0.2.)
    score_name : str, default="score"
        What the values are, on the x-axis and in the title.

    Attributes
    ----------
    estimates, low, high : ndarray of shape (n_models, n_rows)
        The values drawn.
    display_labels, models : list of str or None
        The names given (``class_names`` and ``model_names`` read them with a
        ``FutureWarning`` until 0.2).
    results_ : list of (ConfidenceIntervalResult, ConfidenceIntervalResult)
        Set by :meth:`from_predictions`: for each classifier, the per-class intervals and
        the macro average's, as :func:`score_confidence_interval` returned them.
    figure_ : matplotlib Figure
        The figure drawn on.
    ax_ : matplotlib Axes
        The axes drawn on.

    See Also
    --------
    score_confidence_interval : The intervals drawn.
    PosteriorIntervalDisplay : Intervals of the cells of a matrix.
    PosteriorDifferenceDisplay : The posterior of two models' difference across folds.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
       Chapman & Hall, Chapters 13-14 (percentile and BCa intervals).
    .. [2] Wilson, E. B. (1927). "Probable inference, the law of succession, and
       statistical inference". Journal of the American Statistical Association, 22(158),
       209-212 (the interval where every resample agreed).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import ScoreIntervalDisplay
    >>> display = ScoreIntervalDisplay(
    ...     estimates=[[0.9, 0.6, 0.75], [0.8, 0.7, 0.75]],
    ...     low=[[0.8, 0.4, 0.65], [0.7, 0.5, 0.65]],
    ...     high=[[0.95, 0.75, 0.85], [0.9, 0.85, 0.85]],
    ...     display_labels=["cat", "dog", "mean"], models=["forest", "tree"],
    ...     score_name="recall")
    >>> display = display.plot()
    >>> [label.get_text() for label in display.ax_.get_yticklabels()]
    ['cat', 'dog', 'mean']
    >>> [text.get_text() for text in display.ax_.get_legend().get_texts()]
    ['forest', 'tree']
    """

    _renamed_fields = {"class_names": "display_labels", "model_names": "models"}

    @validate_params({"estimates": [ARRAY], "low": [ARRAY], "high": [ARRAY],
                      "display_labels": [None, ARRAY], "models": [None, ARRAY],
                      "score_name": [str]}, renamed=_renamed_fields)
    def __init__(self, *, estimates, low, high, display_labels=None, models=None,
                 score_name="score"):
        self.estimates, self.low, self.high = (
            np.atleast_2d(display_array(values, name, ndim=None, what="scores",
                                        allow_nan=True))
            for name, values in (("estimates", estimates), ("low", low), ("high", high)))
        arrays = {"estimates": self.estimates, "low": self.low, "high": self.high}
        same_shape(arrays)
        same_undefined(arrays)
        ordered_bounds(self.low, self.high, "low", "high")
        self.display_labels, self.models = display_labels, models
        self.score_name = score_name
        # Set by from_predictions: the rows at the end that summarize the classes (the
        # macro average), and how the intervals were made (the title's second line).
        self._n_summary, self._about = 0, None

    @classmethod
    @validate_params({
        "y_true": [ARRAY], "y_pred": [ARRAY, dict],
        "scoring": [Options(*PER_CLASS_SCORE_NAMES)],
        "method": [Options("percentile", "basic", "bca", "bayesian", "analytic")],
        "confidence_level": [CONFIDENCE_LEVEL], "n_resamples": N_RESAMPLES,
        "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
        "random_state": RANDOM_STATE, "display_labels": [None, ARRAY], **FOREST_PLOT},
        renamed={"score": "scoring"})
    @fill_doc(_DOCS)
    def from_predictions(cls, y_true, y_pred, *, scoring="tcm_f1", method="bca",
                         confidence_level=0.95, n_resamples=999, labels=None,
                         sample_weight=None, random_state=None, display_labels=None,
                         ax=None, title="auto", **score_params):
        """Per-class scores of one or several classifiers with their intervals, then plot.

        Each classifier's per-class scores get their intervals from
        :func:`score_confidence_interval` (with ``average=None``), and its macro average
        from a second call (``scoring + "_macro"``); every call gets ``random_state`` as
        it is, so an integer seed gives the intervals that
        ``score_confidence_interval(..., random_state=seed)`` gives.

        Parameters
        ----------
        y_true : array-like or sparse matrix
            True targets of any kind the library takes: 1-D class labels, multi-label
            indicators, soft labels.
        y_pred : array-like, sparse matrix, or dict of str to them
            The predictions of one classifier (labels, indicators, soft labels or
            probabilities), or a dict naming several classifiers' predictions of the same
            instances, drawn side by side in the dict's order.
        scoring : {"tcm_f1", "tcm_precision", "tcm_recall", "mlcm_f1", "mlcm_precision", \
"mlcm_recall"}, default="tcm_f1"
            The per-class score: F1-score, precision or recall read off the transport-based
            confusion matrix (:func:`transport_precision_recall_fscore_support`) or the
            MLCM (:func:`mlcm_precision_recall_fscore_support`) with ``average=None``; the
            last row is its macro average (``"tcm_f1_macro"``, ...). On 1-D labels both
            matrices are the classic confusion matrix. (``score``, its former name, works
            with a ``FutureWarning`` until 0.2.)
        method : {"percentile", "basic", "bca", "bayesian", "analytic"}, default="bca"
            How the intervals are made, as in :func:`score_confidence_interval`.
        confidence_level : float, default=0.95
            Nominal coverage of each interval, in (0, 1).
        n_resamples : int, default=999
            Resamples (or posterior draws) of each interval.
        labels : array-like, default=None
            The classes drawn, in that order: class labels of 1-D targets, column indices
            of 2-D targets, as in the score's function. By default every class (of 2-D
            targets, plus the "none" class where an instance has no true label); several
            classifiers of 1-D labels are scored over the labels of all of them.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each instance.
        random_state : int, numpy.random.Generator or None, default=None
            Seed of the resampling.
        display_labels : list of str, default=None
            Names of the classes, in the order of ``labels`` (of the columns of 2-D
            targets); the class labels by default. A trailing "none" class keeps its name.
        %(drawing)s
        **score_params
            Keywords of the score: ``beta`` and ``zero_division``; ``weighting`` and
            ``empty`` for the TCM (``average`` is set by the Display).

        Returns
        -------
        display : ScoreIntervalDisplay
            With ``estimates``, ``low``, ``high``, ``results_``, ``figure_`` and ``ax_``.

        See Also
        --------
        ScoreIntervalDisplay.plot : Draw intervals computed elsewhere.
        transport_classification_report : The same scores and intervals, as a report.

        References
        ----------
        .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
           Chapman & Hall, Chapters 13-14 (percentile and BCa intervals).
        .. [2] Wilson, E. B. (1927). "Probable inference, the law of succession, and
           statistical inference". Journal of the American Statistical Association, 22(158),
           209-212 (the interval where every resample agreed).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ScoreIntervalDisplay
        >>> y_true = ["cat", "dog", "fox", "dog"] * 25
        >>> predictions = {"good": ["cat", "dog", "fox", "fox"] * 25,
        ...                "poor": ["dog", "dog", "fox", "cat"] * 25}
        >>> display = ScoreIntervalDisplay.from_predictions(
        ...     y_true, predictions, scoring="tcm_recall", random_state=0)
        >>> display.display_labels
        ['cat', 'dog', 'fox', 'macro average']
        >>> display.estimates.round(2)
        array([[1.  , 0.5 , 1.  , 0.83],
               [0.  , 0.5 , 1.  , 0.5 ]])
        >>> print(display.ax_.get_title())
        TCM recall per class
        (95%% BCa bootstrap intervals, 999 resamples;
        Wilson's where every resample agreed)
        """
        if isinstance(y_pred, Mapping):
            if not y_pred:
                raise ValueError("y_pred is an empty dict; pass one classifier's "
                                 "predictions, or a dict of name: predictions.")
            model_names, predictions = [str(name) for name in y_pred], list(y_pred.values())
        else:
            model_names, predictions = None, [y_pred]
        if "average" in score_params:
            raise ValueError(f"average cannot be given: the display draws "
                             f"scoring={quoted(scoring)} per class (average=None) and its "
                             "macro "
                             "average.")
        if labels is None and len(predictions) > 1 and _all_labels(y_true, *predictions):
            from sklearn.utils.multiclass import unique_labels

            labels = unique_labels(y_true, *predictions)
        family = scoring.partition("_")[0]
        keywords = {**score_params, **({} if labels is None else {"labels": labels})}
        interval = {"method": method, "confidence_level": confidence_level,
                    "n_resamples": n_resamples, "sample_weight": sample_weight}
        names, results = None, []
        for prediction in predictions:
            classes = _class_labels(family, y_true, prediction, labels, sample_weight,
                                    score_params)
            if names is not None and classes != names:
                raise ValueError(f"y_pred's classifiers are scored over different classes "
                                 f"({names} and {classes}); pass labels= to name them.")
            names = classes
            results.append(tuple(
                score_confidence_interval(y_true, prediction, scoring=name, **interval,
                                          random_state=random_state, **keywords, **extra)
                for name, extra in ((scoring, {"average": None}), (scoring + "_macro", {}))))
        class_names = _display_names(display_labels, names)
        rows = [np.append(per_class.estimate, macro.estimate) for per_class, macro in results]
        lows = [np.append(per_class.low, macro.low) for per_class, macro in results]
        highs = [np.append(per_class.high, macro.high) for per_class, macro in results]
        display = cls(estimates=rows, low=lows, high=highs,
                      display_labels=[*class_names, MACRO_AVERAGE],
                      models=model_names, score_name=_score_name(scoring, score_params))
        display.results_ = results
        display._n_summary = 1
        level = f"{100 * confidence_level:.4g}% {_METHODS[method]} intervals"
        display._about = level if method == "analytic" else \
            f"{level}, {n_resamples} {'draws' if method == 'bayesian' else 'resamples'}"
        if any(np.any(result.wilson_fallback) for pair in results for result in pair):
            display._about += ";\nWilson's where every resample agreed"
        return display.plot(ax=ax, title=title)

    @validate_params(FOREST_PLOT)
    @fill_doc(_DOCS)
    def plot(self, *, ax=None, title="auto"):
        """Draw the forest plot.

        Parameters
        ----------
        %(drawing)s

        Returns
        -------
        self
            With ``figure_`` and ``ax_``.

        Raises
        ------
        ValueError
            When ``estimates``, ``low`` and ``high`` differ in shape, or ``display_labels``
            (``models``) does not name every row (classifier).

        See Also
        --------
        ScoreIntervalDisplay.from_predictions : Compute the intervals, then draw them.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_confusion_ext import ScoreIntervalDisplay
        >>> display = ScoreIntervalDisplay(estimates=[0.9, 0.5], low=[0.8, 0.3],
        ...                                high=[0.95, 0.7], score_name="F1-score")
        >>> fig, (left, right) = plt.subplots(1, 2)
        >>> display = display.plot(ax=right, title="Two classes")
        >>> display.ax_ is right, right.get_title(), right.get_xlabel()
        (True, 'Two classes', 'F1-score')
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        estimates, low, high = self.estimates, self.low, self.high
        if not estimates.shape == low.shape == high.shape or estimates.ndim != 2:
            raise ValueError(f"estimates, low and high must have one shape, (n_rows,) or "
                             f"(n_models, n_rows); got {estimates.shape}, {low.shape} and "
                             f"{high.shape}.")
        n_models, n_rows = estimates.shape
        names = _names("display_labels", self.display_labels, n_rows, "rows",
                       [str(k) for k in range(n_rows)])
        models = _names("models", self.models, n_models, "classifiers",
                        [f"model {k}" for k in range(n_models)])
        legend = n_models > 1 or self.models is not None
        if ax is None:
            fig, ax = plt.subplots(figsize=_default_size(names, models if legend else []),
                                   layout="constrained")
        else:
            fig = ax.figure
        positions = _row_positions(n_rows, self._n_summary)
        offsets = _offsets(n_models)
        colors = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
        size = 4 if n_rows * n_models > 60 else 6
        for k, model in enumerate(models):
            where = positions + offsets[k]
            color = colors[k % len(colors)]
            ax.hlines(where, low[k], high[k], color=color, linewidth=1.5)
            ax.plot(np.concatenate([low[k], high[k]]), np.concatenate([where, where]),
                    linestyle="none", marker="|", markersize=size, color=color)
            ax.plot(estimates[k], where, linestyle="none", marker=_MARKERS[k % len(_MARKERS)],
                    markersize=size, color=color, label=model)
        if self._n_summary:
            ax.axhline((positions[-self._n_summary - 1] + positions[-self._n_summary]) / 2,
                       color="0.5", linewidth=0.8)
        ax.set_xlim(*_score_range(low, high, estimates))
        ax.set_ylim(positions[-1] + 0.6, positions[0] - 0.6)  # the first row on top
        _set_row_ticks(ax, names, positions, self._n_summary)
        ax.set_xlabel(self.score_name)
        ax.grid(axis="x", alpha=0.3)
        if legend:  # beside the rows, which it would hide at many classes
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
        if title == "auto":
            title = f"{self.score_name} per class"
            if self._about is not None:
                title = f"{title}\n({self._about})"
        if title:
            ax.set_title(title, fontsize="medium")
        self.figure_, self.ax_ = fig, ax
        return self


def _all_labels(*targets):
    """Whether every target is 1-D (class labels), so that their labels can be pooled."""
    import scipy.sparse as sp

    return all(not sp.issparse(target) and np.ndim(target) == 1 for target in targets)


def _class_labels(family, y_true, y_pred, labels, sample_weight, score_params):
    """The names of the classes the per-class score reports, as its classification
    report names them (the "none" class included when it is reported)."""
    if family == "tcm":
        builder = {k: score_params[k] for k in ("weighting", "empty") if k in score_params}
        report = transport_classification_report(
            y_true, y_pred, labels=labels, sample_weight=sample_weight, output_dict=True,
            zero_division=0.0, **builder)
    else:
        report = mlcm_classification_report(y_true, y_pred, labels=labels,
                                             sample_weight=sample_weight, output_dict=True,
                                             zero_division=0.0)
    names = list(report)
    while names[-1] in _REPORT_SUMMARIES:  # the summaries follow the classes
        names.pop()
    return names


def _display_names(display_labels, names):
    """The names of the classes: ``display_labels`` (a trailing "none" class keeps its
    name when they name the other classes), else the class labels."""
    if display_labels is None:
        return names
    display_labels = [str(name) for name in display_labels]
    has_none = names[-1] == "none" and len(display_labels) == len(names) - 1
    if has_none:
        return [*display_labels, "none"]
    if len(display_labels) != len(names):
        raise ValueError(f"display_labels has {len(display_labels)} names for the "
                         f"{len(names)} classes drawn ({names}); pass {len(names)} names.")
    return display_labels


def _score_name(score, score_params):
    """"TCM F1-score", "MLCM recall", "TCM F2-score" (beta=2)."""
    family, _, reading = score.partition("_")
    name = _READINGS[reading]
    beta = score_params.get("beta", 1.0)
    if reading == "f1" and beta != 1:
        name = f"F{beta:g}-score"
    return f"{_MATRICES[family]} {name}"


def _names(parameter, names, n, what, default):
    if names is None:
        return default
    names = [str(name) for name in names]
    if len(names) != n:
        raise ValueError(f"{parameter} has {len(names)} names for {n} {what}; pass {n} "
                         f"names.")
    return names


def _row_positions(n_rows, n_summary):
    """y of each row: the classes at 0, 1, ..., the summary rows after a half-row gap."""
    positions = np.arange(n_rows, dtype=float)
    positions[n_rows - n_summary:] += 0.5 if n_summary < n_rows else 0.0
    return positions


def _offsets(n_models):
    """The offsets of the classifiers within a row, centred, within +-0.3 of a row."""
    step = min(0.6 / n_models, 0.25)
    return (np.arange(n_models) - (n_models - 1) / 2) * step


def _score_range(low, high, estimates):
    """The x-limits: from a little below the lowest bound (a tenth, at least 0) to 1, with
    room for the markers of values on the limits."""
    values = np.concatenate([low.ravel(), high.ravel(), estimates.ravel()])
    values = values[np.isfinite(values)]
    if not values.size:
        return 0.0, 1.0
    left = max(0.0, np.floor(10 * (values.min() - 0.02)) / 10)
    right = max(1.0, float(values.max()))
    pad = 0.04 * (right - left)  # a marker on a bound (a score of 0 or 1) stays whole
    return (left - pad if values.min() - left < pad else left), right + pad


def _set_row_ticks(ax, names, positions, n_summary):
    """Name the rows: every class when the names fit without overlapping, else every k-th;
    the summary rows always, the class names next to them dropped where they would
    touch."""
    shortened = short_names(names)
    step = tick_step(ax, "y", len(names))
    n_classes = len(names) - n_summary
    shown = [k for k in range(0, n_classes, step)
             if n_summary == 0 or positions[n_classes] - positions[k] >= step]
    shown += list(range(n_classes, len(names)))
    ax.set_yticks(positions[shown], [shortened[k] for k in shown])


def _default_size(names, models):
    """Width and height of a new figure: the class names beside the rows, the legend of
    ``models`` (when drawn), a quarter inch per row and a little more per classifier, at
    most 12 x 10 inches."""
    width = 5.5 + 0.07 * max(len(name) for name in short_names(names))
    if models:
        width += 0.6 + 0.06 * max(len(model) for model in models)
    height = 1.6 + len(names) * (0.22 + 0.06 * min(max(len(models) - 1, 0), 4))
    return min(width, 12), min(max(height, 2.8), 10)
