"""Rates of the binary confusion matrix against the decision threshold of a score
(:func:`threshold_confusion_matrices`), with a marker at a chosen threshold."""

from numbers import Real

import numpy as np

from .._core.params import (
    ARRAY,
    ESTIMATOR,
    HasMethods,
    Interval,
    Label,
    Options,
    quoted,
    validate_params,
)
from .._decisions.thresholds import ThresholdConfusionResult, threshold_confusion_matrices
from .data_checks import display_array
from .matplotlib_check import check_matplotlib
from .model_curves import axis_view, curves_on, estimator_scores, positive_column

_CURVE = "threshold-curve"
# What can be drawn: its name in the legend, and how it is read off tn, fp, fn, tp.
_SCORES = {
    "tpr": "true positive rate (recall)", "fpr": "false positive rate",
    "tnr": "true negative rate", "fnr": "false negative rate", "precision": "precision",
    "recall": "recall", "f1": "F1-score", "accuracy": "accuracy",
    "predicted_positive_rate": "predicted positive rate",
}
_SCORE_LIST = [ARRAY, Options(*_SCORES)]
_THRESHOLD = [None, Interval(Real, None, None)]
_PLOT = {"scores": _SCORE_LIST, "threshold": _THRESHOLD,
         "ax": [None, HasMethods("plot", "axvline", description="a matplotlib Axes")]}
_DRAWING = {"name": [None, str], **_PLOT}


def _rates(matrices, score):
    """``score`` at each matrix of ``matrices`` (..., 2, 2); NaN where undefined (no
    predicted positive for precision, no positive for the true positive rate, ...)."""
    tn, fp, fn, tp = (matrices[..., i, j] for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
    ratios = {"tpr": (tp, tp + fn), "recall": (tp, tp + fn), "fpr": (fp, fp + tn),
              "tnr": (tn, fp + tn), "fnr": (fn, tp + fn), "precision": (tp, tp + fp),
              "f1": (2 * tp, 2 * tp + fp + fn), "accuracy": (tp + tn, tp + tn + fp + fn),
              "predicted_positive_rate": (tp + fp, tp + tn + fp + fn)}
    numerator, denominator = ratios[score]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0,
                                                              denominator, 1.0), np.nan)


class ThresholdCurveDisplay:
    """Rates of the binary confusion matrix against the decision threshold of a score.

    An instance is predicted positive where its score is at least the threshold, as
    :func:`threshold_confusion_matrices` reads it; each score chosen (true and false
    positive rates, precision, F1-score, ...) is drawn as the step function of the
    threshold it is (constant between two distinct scores), with a vertical line and a
    marker on each curve at a chosen ``threshold``. Named as scikit-learn names its
    curves of one quantity against another (``RocCurveDisplay``, ``DetCurveDisplay``,
    ``ValidationCurveDisplay``): the threshold is the x-axis. Several models: pass the
    ``ax_`` of a first Display as ``ax`` of the next (each model in a colour, each score
    in a line style).

    Parameters
    ----------
    thresholds : array-like of shape (n_thresholds,)
        The thresholds, as :func:`threshold_confusion_matrices` returns them (decreasing,
        the distinct scores).
    matrices : array-like of shape (n_thresholds, 2, 2)
        The matrix ``[[tn, fp], [fn, tp]]`` at each threshold (counts or weighted counts).
    pos_label : int, float, bool or str, default=None
        The positive class, on the axis's label.
    name : str, default=None
        The model's name, in the legend.

    Attributes
    ----------
    thresholds, matrices : ndarray
        The data.
    result_ : ThresholdConfusionResult
        Set by the ``from_*`` methods: the matrices drawn.
    lines_ : dict of str to matplotlib Line2D
        Each score's curve.
    values_ : dict of str to ndarray
        Each score at each threshold (NaN where undefined, left as a gap).
    threshold_values_ : dict of str to float or None
        Each score at the chosen threshold (None without one).
    threshold_line_ : matplotlib Line2D or None
        The vertical line at the chosen threshold.
    ax_ : matplotlib Axes
        The Axes drawn on.
    figure_ : matplotlib Figure
        The figure drawn on.

    See Also
    --------
    threshold_confusion_matrices : The matrices drawn.
    TransportConfusionMatrixDisplay.from_predictions : The matrix at one threshold
        (``threshold=``).
    sklearn.model_selection.TunedThresholdClassifierCV : Choose the threshold by
        cross-validation.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import ThresholdCurveDisplay
    >>> display = ThresholdCurveDisplay.from_predictions(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], scores=["tpr", "fpr"], threshold=0.4)
    >>> display.values_["tpr"].tolist()  # at the thresholds 0.1, 0.35, 0.4, 0.8
    [1.0, 1.0, 0.5, 0.5]
    >>> display.threshold_values_
    {'tpr': 0.5, 'fpr': 0.5}
    """

    @validate_params({"thresholds": [ARRAY], "matrices": [ARRAY],
                      "pos_label": [None, Label()], "name": [None, str]})
    def __init__(self, thresholds, matrices, *, pos_label=None, name=None):
        self.thresholds = display_array(thresholds, "thresholds", ndim=1,
                                        what="thresholds")
        self.matrices = display_array(matrices, "matrices", ndim=None, bounds=(0, None),
                                      what="counts")
        if self.matrices.ndim != 3 or self.matrices.shape[1:] != (2, 2) or \
                self.matrices.shape[0] != self.thresholds.shape[0]:
            raise ValueError(f"matrices must hold one 2 x 2 matrix per threshold, shape "
                             f"({self.thresholds.shape[0]}, 2, 2); got shape "
                             f"{self.matrices.shape}.")
        self.pos_label, self.name = pos_label, name

    @classmethod
    @validate_params({"result": [ThresholdConfusionResult], **_DRAWING})
    def from_result(cls, result, *, scores=("tpr", "fpr", "precision"), threshold=None,
                    name=None, ax=None):
        """Draw the matrices :func:`threshold_confusion_matrices` returned (of a 1-D
        score).

        Parameters
        ----------
        result : ThresholdConfusionResult
            The matrices at the thresholds of one score.
        scores, threshold, ax
            As in :meth:`plot`.
        name : str, default=None
            The model's name, in the legend.

        Returns
        -------
        display : ThresholdCurveDisplay

        See Also
        --------
        ThresholdCurveDisplay.from_predictions : Compute the matrices, then draw them.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ThresholdCurveDisplay
        >>> from sklearn_confusion_ext import threshold_confusion_matrices
        >>> result = threshold_confusion_matrices([0, 1, 1], [0.2, 0.6, 0.9])
        >>> display = ThresholdCurveDisplay.from_result(result, scores="precision")
        >>> display.values_["precision"].round(3).tolist()
        [0.667, 1.0, 1.0]
        """
        if np.ndim(result.matrices) != 3 or np.shape(result.matrices)[1:] != (2, 2):
            raise ValueError(f"result holds matrices of shape {np.shape(result.matrices)} "
                             "(the one-vs-rest matrices of 2-D scores, or those of the top "
                             "label); this display draws the 2 x 2 matrices of one score: "
                             "pass the result of a 1-D y_score (one class's column).")
        display = cls(result.thresholds, result.matrices, pos_label=result.pos_label,
                      name=name)
        display.result_ = result
        return display.plot(scores=scores, threshold=threshold, ax=ax)

    @classmethod
    @validate_params({"y_true": [ARRAY], "y_score": [ARRAY], "pos_label": [None, Label()],
                      "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                      **_DRAWING})
    def from_predictions(cls, y_true, y_score, *, pos_label=None, labels=None,
                         sample_weight=None, scores=("tpr", "fpr", "precision"),
                         threshold=None, name=None, ax=None):
        """The rates at every threshold of a binary score
        (:func:`threshold_confusion_matrices`), then plot.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True class labels, of two classes.
        y_score : array-like of shape (n_samples,)
            The score of the positive class (probability or decision value).
        pos_label : int, float, bool or str, default=None
            The positive class, by scikit-learn's rule as in
            :func:`threshold_confusion_matrices`.
        labels : array-like, default=None
            The two classes, where ``y_true`` holds only one.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.
        scores, threshold, ax
            As in :meth:`plot`.
        name : str, default=None
            The model's name, in the legend.

        Returns
        -------
        display : ThresholdCurveDisplay

        See Also
        --------
        threshold_confusion_matrices : The matrices drawn.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ThresholdCurveDisplay
        >>> display = ThresholdCurveDisplay.from_predictions(
        ...     ["no", "yes", "yes", "no"], [0.2, 0.7, 0.4, 0.5], pos_label="yes",
        ...     scores=["f1"], threshold=0.45)
        >>> round(display.threshold_values_["f1"], 3)
        0.5
        >>> display.ax_.get_xlabel()
        'Threshold (positive class: yes where score >= threshold)'
        """
        if np.ndim(y_score) == 2:
            raise ValueError("y_score is 2-D; ThresholdCurveDisplay draws the rates of one "
                             "score: pass the positive class's column (e.g. "
                             "predict_proba(X)[:, 1]).")
        result = threshold_confusion_matrices(y_true, y_score, pos_label=pos_label,
                                              labels=labels, sample_weight=sample_weight)
        return cls.from_result(result, scores=scores, threshold=threshold, name=name,
                               ax=ax)

    @classmethod
    @validate_params({"estimator": ESTIMATOR, "X": [ARRAY], "y": [ARRAY],
                      "response_method": [Options("auto", "predict_proba",
                                                  "decision_function")],
                      "pos_label": [None, Label()], "sample_weight": [None, ARRAY],
                      **_DRAWING})
    def from_estimator(cls, estimator, X, y, *, response_method="auto", pos_label=None,
                       sample_weight=None, scores=("tpr", "fpr", "precision"),
                       threshold=None, name=None, ax=None):
        """The rates of a fitted binary classifier's score on ``X`` at every threshold.

        Parameters
        ----------
        estimator : fitted binary classifier
            With ``predict_proba`` or ``decision_function``.
        X : array-like of shape (n_samples, n_features)
            Input samples.
        y : array-like of shape (n_samples,)
            True class labels.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            The score: the positive class's probability (``"auto"``: where the estimator
            has ``predict_proba``), or the decision function (negated where ``pos_label``
            is ``classes_[0]``).
        pos_label : int, float, bool or str, default=None
            The positive class: ``classes_[1]`` by default, as scikit-learn's Displays.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.
        scores, threshold, ax
            As in :meth:`plot`.
        name : str, default=None
            The model's name; the estimator's class name by default.

        Returns
        -------
        display : ThresholdCurveDisplay

        See Also
        --------
        ThresholdCurveDisplay.from_predictions : From scores already computed.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_breast_cancer
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn_confusion_ext import ThresholdCurveDisplay
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> model = GaussianNB().fit(X, y)
        >>> display = ThresholdCurveDisplay.from_estimator(model, X, y, threshold=0.5)
        >>> sorted(display.lines_)
        ['fpr', 'precision', 'tpr']
        """
        owner = "ThresholdCurveDisplay.from_estimator"
        response, classes = estimator_scores(estimator, X, y, response_method, owner)
        score, pos_label = positive_column(response, classes, pos_label, owner)
        return cls.from_predictions(
            y, score, pos_label=pos_label, labels=classes, sample_weight=sample_weight,
            scores=scores, threshold=threshold,
            name=type(estimator).__name__ if name is None else name, ax=ax)

    @validate_params(_PLOT)
    def plot(self, *, scores=("tpr", "fpr", "precision"), threshold=None, ax=None):
        """Draw the scores against the threshold.

        Parameters
        ----------
        scores : str or list of str, default=("tpr", "fpr", "precision")
            What to draw, among "tpr" (recall), "fpr", "tnr", "fnr", "precision",
            "recall", "f1", "accuracy" and "predicted_positive_rate" (the share predicted
            positive). Undefined values (precision where nothing is predicted positive)
            are left as gaps.
        threshold : float, default=None
            A threshold to mark: a vertical line, and on each curve its value there (the
            matrix at the smallest threshold of ``thresholds`` at least ``threshold``,
            exact on the distinct scores that :func:`threshold_confusion_matrices` gives
            by default; above every threshold, no instance is predicted positive).
        ax : matplotlib Axes, default=None
            Axes to draw on (the ``ax_`` of an earlier Display adds this model's curves);
            a new figure by default.

        Returns
        -------
        self

        See Also
        --------
        ThresholdCurveDisplay.from_predictions : Compute the matrices, then draw them.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ThresholdCurveDisplay
        >>> display = ThresholdCurveDisplay([0.8, 0.4], [[[3, 0], [1, 1]], [[2, 1], [0, 2]]])
        >>> display = display.plot(scores="recall", threshold=0.5)
        >>> display.values_["recall"].tolist(), display.threshold_values_["recall"]
        ([1.0, 0.5], 0.5)
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        scores = [scores] if isinstance(scores, str) else [str(s) for s in scores]
        unknown = [s for s in scores if s not in _SCORES]
        if unknown or not scores:
            raise ValueError(f"scores must name one or more of {list(_SCORES)}; got "
                             f"{quoted(unknown[0]) if unknown else 'none'}"
                             f"{f' among {len(unknown)} unknown' if len(unknown) > 1 else ''}.")
        if ax is None:
            fig, ax = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
        else:
            fig = ax.figure
        order = np.argsort(self.thresholds, kind="stable")  # increasing thresholds
        x = self.thresholds[order]
        matrices = self.matrices[order]
        # one colour per model (its scores told apart by line style)
        n_models = len({line.get_color() for line in curves_on(ax, _CURVE)})
        colors = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
        color = colors[n_models % len(colors)]
        styles = ("-", "--", ":", "-.")
        self.lines_, self.values_, self.threshold_values_ = {}, {}, {}
        at = None if threshold is None else _matrix_at(x, matrices, float(threshold))
        low, high = axis_view(x, () if threshold is None else (float(threshold),))
        # a threshold too far from the scores to share their view is read, not drawn
        shown = at is not None and low <= float(threshold) <= high
        for k, score in enumerate(scores):
            values = _rates(matrices, score)
            self.values_[score] = values
            label = _SCORES[score] if self.name is None else f"{self.name}: {_SCORES[score]}"
            # between two distinct scores the matrix is the one at the upper: steps-pre
            (line,) = ax.plot(x, values, drawstyle="steps-pre", color=color,
                              linestyle=styles[k % len(styles)], label=label)
            line.set_gid(_CURVE)
            self.lines_[score] = line
            self.threshold_values_[score] = None
            if at is not None:
                value = float(_rates(at, score))
                self.threshold_values_[score] = None if np.isnan(value) else value
                if shown and not np.isnan(value):
                    ax.plot([threshold], [value], marker="o", color=color,
                            linestyle="none", markersize=6, zorder=4)
        self.threshold_line_ = None
        if shown:
            self.threshold_line_ = ax.axvline(threshold, color="0.35", linewidth=1,
                                              linestyle=(0, (4, 3)),
                                              label=f"threshold {float(threshold):.3g}"
                                              if n_models == 0 else "_threshold")
        if n_models:
            low, high = min(low, ax.get_xlim()[0]), max(high, ax.get_xlim()[1])
        ax.set_xlim(low, high)
        ax.set_ylim(-0.03, 1.03)
        positive = "" if self.pos_label is None else f"positive class: {self.pos_label} " \
            "where score >= threshold"
        ax.set_xlabel("Threshold" + (f" ({positive})" if positive else ""))
        ax.set_ylabel("Rate")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="best")
        self.figure_, self.ax_ = fig, ax
        return self


def _matrix_at(thresholds, matrices, threshold):
    """The matrix at ``threshold`` (``thresholds`` increasing): that of the smallest
    threshold at least it; above every threshold, nothing predicted positive."""
    position = np.searchsorted(thresholds, threshold, side="left")
    if position < thresholds.size:
        return matrices[position]
    totals = matrices[0].sum(axis=1)  # negatives, positives
    return np.array([[totals[0], 0.0], [totals[1], 0.0]])
