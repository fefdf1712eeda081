"""The risk-coverage curve of selective classification: the error rate among the answered
instances against the share answered, with its band and its area in the legend; several
models on one Axes."""

from numbers import Real

import numpy as np

from .._core.params import (
    ARRAY,
    CONFIDENCE_LEVEL,
    ESTIMATOR,
    HasMethods,
    Interval,
    validate_params,
)
from .._decisions.abstention import RiskCoverageResult, risk_coverage_curve
from .data_checks import display_array, ordered_bounds, same_shape
from .matplotlib_check import check_matplotlib
from .model_curves import curve_color, estimator_scores, legend_of_curves

_CURVE, _BAND = "risk-coverage-curve", "risk-coverage-band"
_PLOT = {"ax": [None, HasMethods("plot", "fill_between", description="a matplotlib Axes")]}
_DRAWING = {"name": [None, str], **_PLOT}


class RiskCoverageDisplay:
    """Risk-coverage curve: the error rate of the answered instances (the selective risk)
    against the share answered (the coverage), for a classifier that answers only where
    its top probability is at least a threshold (:func:`risk_coverage_curve`).

    The curve is drawn as the step function its area integrates (``risk[j]`` on
    ``(coverage[j - 1], coverage[j]]``), with Wilson's band of the risk at each point
    shaded; the legend gives each model's area (AURC, lower is better). Pass the ``ax_``
    of a first Display as ``ax`` of the next to compare models on one Axes.

    Parameters
    ----------
    coverage, risk : array-like of shape (n_points,)
        The coverage (increasing) and the risk at each point, in [0, 1].
    low, high : array-like of shape (n_points,), default=None
        The band of the risk; none drawn by default.
    area : float, default=None
        The area under the curve, written in the legend.
    name : str, default=None
        The model's name, in the legend.

    Attributes
    ----------
    coverage, risk, low, high : ndarray or None
        The data drawn.
    area : float or None
        The area written.
    result_ : RiskCoverageResult
        Set by the ``from_*`` methods: the curve drawn.
    line_ : matplotlib Line2D
        The curve: the points ``(0, risk[0])``, then ``(coverage, risk)``, drawn as steps
        (``drawstyle="steps-pre"``).
    band_ : matplotlib PolyCollection or None
        The band.
    ax_ : matplotlib Axes
        The Axes drawn on.
    figure_ : matplotlib Figure
        The figure drawn on.

    See Also
    --------
    risk_coverage_curve : The curve, its band and its area.
    ReliabilityDisplay : Whether the probabilities abstained on are calibrated.

    References
    ----------
    .. [1] Y. Geifman and R. El-Yaniv, "Selective classification for deep neural
       networks", NeurIPS 2017.
    .. [2] Y. Geifman, G. Uziel and R. El-Yaniv, "Bias-reduced uncertainty estimation for
       deep neural classifiers", ICLR 2019 (the area, AURC).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import RiskCoverageDisplay
    >>> display = RiskCoverageDisplay([0.5, 1.0], [0.0, 0.25], area=0.125,
    ...                               name="forest").plot()
    >>> [text.get_text() for text in display.ax_.get_legend().get_texts()]
    ['forest (AURC = 0.125)']
    """

    @validate_params({"coverage": [ARRAY], "risk": [ARRAY], "low": [None, ARRAY],
                      "high": [None, ARRAY], "area": [None, Interval(Real, 0, 1)],
                      "name": [None, str]})
    def __init__(self, coverage, risk, *, low=None, high=None, area=None, name=None):
        checked = {}
        for argument, values in (("coverage", coverage), ("risk", risk), ("low", low),
                                 ("high", high)):
            if values is not None:
                checked[argument] = display_array(values, argument, ndim=1, bounds=(0, 1),
                                                  what="rates")
        same_shape(checked)
        if (low is None) != (high is None):
            raise ValueError("low and high are the ends of the band: pass both, or neither.")
        if low is not None:
            ordered_bounds(checked["low"], checked["high"], "low", "high")
        decreasing = np.diff(checked["coverage"]) < 0
        if decreasing.any():
            where = int(np.argmax(decreasing))
            raise ValueError(f"coverage must increase: coverage[{where + 1}] = "
                             f"{checked['coverage'][where + 1]:.6g} < coverage[{where}] = "
                             f"{checked['coverage'][where]:.6g}.")
        self.coverage, self.risk = checked["coverage"], checked["risk"]
        self.low, self.high = checked.get("low"), checked.get("high")
        self.area, self.name = None if area is None else float(area), name

    @classmethod
    @validate_params({"result": [RiskCoverageResult], **_DRAWING})
    def from_result(cls, result, *, name=None, ax=None):
        """Draw a curve :func:`risk_coverage_curve` returned.

        Parameters
        ----------
        result : RiskCoverageResult
            The curve, its band and its area.
        name : str, default=None
            The model's name, in the legend.
        ax : matplotlib Axes, default=None
            Axes to draw on (the ``ax_`` of an earlier Display adds this curve); a new
            figure by default.

        Returns
        -------
        display : RiskCoverageDisplay

        See Also
        --------
        RiskCoverageDisplay.from_predictions : Compute the curve, then draw it.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import RiskCoverageDisplay, risk_coverage_curve
        >>> curve = risk_coverage_curve([0, 1, 1], [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7]])
        >>> display = RiskCoverageDisplay.from_result(curve, name="model")
        >>> display.ax_.get_xlabel(), display.ax_.get_ylabel()
        ('Coverage (share answered)', 'Risk (error rate among the answered)')
        """
        display = cls(result.coverage, result.risk, low=result.low, high=result.high,
                      area=result.area, name=name)
        display.result_ = result
        return display.plot(ax=ax)

    @classmethod
    @validate_params({"y_true": [ARRAY], "y_prob": [ARRAY], "labels": [None, ARRAY],
                      "sample_weight": [None, ARRAY], "confidence_level": [CONFIDENCE_LEVEL],
                      **_DRAWING})
    def from_predictions(cls, y_true, y_prob, *, labels=None, sample_weight=None,
                         confidence_level=0.95, name=None, ax=None):
        """Compute the risk-coverage curve of probabilities (:func:`risk_coverage_curve`)
        and draw it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True class labels.
        y_prob : array-like of shape (n_samples, n_classes) or (n_samples,)
            Predicted probabilities (``predict_proba``), or the second class's of two.
        labels : array-like, default=None
            The class of each column of ``y_prob``.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.
        confidence_level : float, default=0.95
            The level of the band.
        name : str, default=None
            The model's name, in the legend.
        ax : matplotlib Axes, default=None
            Axes to draw on (the ``ax_`` of an earlier Display adds this curve).

        Returns
        -------
        display : RiskCoverageDisplay

        See Also
        --------
        risk_coverage_curve : The curve drawn.
        RiskCoverageDisplay.from_estimator : From a fitted classifier.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import RiskCoverageDisplay
        >>> display = RiskCoverageDisplay.from_predictions(
        ...     [0, 1, 1, 0], [[0.9, 0.1], [0.4, 0.6], [0.3, 0.7], [0.45, 0.55]],
        ...     name="model")
        >>> display.result_.risk.round(3).tolist()
        [0.0, 0.0, 0.0, 0.25]
        >>> [text.get_text() for text in display.ax_.get_legend().get_texts()]
        ['model (AURC = 0.0625)']
        """
        result = risk_coverage_curve(y_true, y_prob, labels=labels,
                                     sample_weight=sample_weight,
                                     confidence_level=confidence_level)
        return cls.from_result(result, name=name, ax=ax)

    @classmethod
    @validate_params({"estimator": ESTIMATOR, "X": [ARRAY], "y": [ARRAY],
                      "sample_weight": [None, ARRAY], "confidence_level": [CONFIDENCE_LEVEL],
                      **_DRAWING})
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, confidence_level=0.95,
                       name=None, ax=None):
        """The risk-coverage curve of a fitted classifier's ``predict_proba`` on ``X``.

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba``; its ``classes_`` name the columns.
        X : array-like of shape (n_samples, n_features)
            Input samples.
        y : array-like of shape (n_samples,)
            True class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.
        confidence_level : float, default=0.95
            The level of the band.
        name : str, default=None
            The model's name; the estimator's class name by default.
        ax : matplotlib Axes, default=None
            Axes to draw on (the ``ax_`` of an earlier Display adds this curve).

        Returns
        -------
        display : RiskCoverageDisplay

        See Also
        --------
        RiskCoverageDisplay.from_predictions : From probabilities already predicted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_confusion_ext import RiskCoverageDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> model = LogisticRegression(max_iter=1000).fit(X, y)
        >>> display = RiskCoverageDisplay.from_estimator(model, X, y)
        >>> display.line_.get_label().startswith("LogisticRegression (AURC = ")
        True
        """
        scores, classes = estimator_scores(estimator, X, y, "predict_proba",
                                           "RiskCoverageDisplay.from_estimator")
        return cls.from_predictions(
            y, scores, labels=classes, sample_weight=sample_weight,
            confidence_level=confidence_level,
            name=type(estimator).__name__ if name is None else name, ax=ax)

    @validate_params(_PLOT)
    def plot(self, *, ax=None):
        """Draw the curve, its band and its area.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (the ``ax_`` of an earlier Display adds this curve); a new
            figure by default.

        Returns
        -------
        self

        See Also
        --------
        RiskCoverageDisplay.from_predictions : Compute the curve, then draw it.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import RiskCoverageDisplay
        >>> first = RiskCoverageDisplay([0.5, 1.0], [0.0, 0.2], name="a").plot()
        >>> second = RiskCoverageDisplay([0.5, 1.0], [0.1, 0.3], name="b").plot(
        ...     ax=first.ax_)
        >>> from matplotlib.colors import to_hex
        >>> [to_hex(line.get_color()) for line in second.ax_.get_lines()]
        ['#1f77b4', '#ff7f0e']
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        if ax is None:
            fig, ax = plt.subplots(figsize=(5.6, 4.2), layout="constrained")
        else:
            fig = ax.figure
        color = curve_color(ax, _CURVE)
        n_before = len([line for line in ax.get_lines() if line.get_gid() == _CURVE])
        # The step function the area integrates, from coverage 0.
        x = np.r_[0.0, self.coverage]
        self.band_ = None
        if self.low is not None:
            self.band_ = ax.fill_between(x, np.r_[self.low[0], self.low],
                                         np.r_[self.high[0], self.high], step="pre",
                                         color=color, alpha=0.2, linewidth=0)
            self.band_.set_gid(f"{_BAND}-{n_before}")
        label = self.name if self.name is not None else "_curve"
        if self.area is not None:
            area = f"AURC = {self.area:.3g}"
            label = area if self.name is None else f"{self.name} ({area})"
        (self.line_,) = ax.plot(x, np.r_[self.risk[0], self.risk], drawstyle="steps-pre",
                                color=color, label=label)
        self.line_.set_gid(_CURVE)
        ax.set_xlim(0, 1)
        # The band of the first few answered is wide (Wilson's of a handful of instances):
        # the view covers the risk and the band from 5 % coverage, so that the curves stay
        # readable; the band above is cut at the top.
        top = float(self.risk.max())
        if self.high is not None:
            wide = self.coverage >= 0.05
            top = max(top, float(self.high[wide].max()) if wide.any() else top)
        top = min(1.0, 1.15 * top) if top > 0 else 0.05
        if n_before:
            top = max(top, ax.get_ylim()[1])
        ax.set_ylim(0, top)
        ax.set_xlabel("Coverage (share answered)")
        ax.set_ylabel("Risk (error rate among the answered)")
        ax.grid(alpha=0.3)
        legend_of_curves(ax, _CURVE, _BAND, loc="upper center", fontsize="small")
        self.figure_, self.ax_ = fig, ax
        return self
