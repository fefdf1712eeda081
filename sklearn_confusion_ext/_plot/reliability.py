"""The reliability diagram: observed frequency against mean predicted probability per bin,
with each bin's band, the diagonal of perfect calibration and the histogram of the
predicted probabilities; several models on one Axes, one panel per class on request."""

import math

import numpy as np

from .._calibration.bins import STRATEGIES
from .._calibration.curves import (
    N_BINS,
    TARGETS,
    ReliabilityCurveResult,
    reliability_curve,
)
from .._core.params import (
    ARRAY,
    BOOLEAN,
    CONFIDENCE_LEVEL,
    ESTIMATOR,
    Label,
    Options,
    quoted,
    validate_params,
)
from .data_checks import display_array, ordered_bounds, same_shape
from .declarations import FIGSIZE, PANELS_AX
from .layout import bounding_axes, panel_axes, short_name
from .matplotlib_check import check_matplotlib
from .model_curves import curve_color, estimator_scores, legend_of_curves

# The gids of what is drawn, to find the curves (and histogram) of earlier models on an Axes.
_CURVE, _BAND, _HISTOGRAM = "reliability-curve", "reliability-band", "reliability-histogram"
_DRAWING = {"name": [None, str], "per_class": [BOOLEAN], "hist": [BOOLEAN], **PANELS_AX,
            **FIGSIZE}
_CURVE_OPTIONS = {"n_bins": N_BINS, "strategy": [Options(*STRATEGIES)],
                  "target": [Options(*TARGETS)], "pos_label": [None, Label()],
                  "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                  "confidence_level": [CONFIDENCE_LEVEL]}
_AXIS_LABELS = {"binary": ("Mean predicted probability", "Observed frequency"),
                "top_label": ("Mean confidence (top label)", "Accuracy"),
                "classwise": ("Mean predicted probability of the class",
                              "Observed frequency of the class")}


class ReliabilityDisplay:
    """Reliability diagram: the observed frequency against the mean predicted probability
    in each bin, with the bin's confidence band, the diagonal of perfect calibration and
    the histogram of the predicted probabilities (the bins' counts) in a small axis below.

    Built as :class:`sklearn.calibration.CalibrationDisplay`, with the band and the counts
    of :func:`reliability_curve`. Several models on one Axes: pass the ``ax_`` (or, per
    class, ``axes_``) of a first Display as ``ax`` of the next; each curve gets the next
    colour and its ``name`` in the legend, and its histogram is outlined in its colour on
    the same lower axis. With ``target="classwise"`` the curve of each class is drawn, on
    one Axes or (``per_class=True``) in one panel per class.

    Parameters
    ----------
    prob_true, prob_pred : array-like of shape (n_rows,)
        The observed frequency and the mean predicted probability of each bin, in [0, 1]
        (:func:`reliability_curve`'s ``prob_true`` and ``prob_pred``).
    low, high : array-like of shape (n_rows,), default=None
        The band of ``prob_true`` in each bin; none drawn by default.
    bin_count : array-like of shape (n_rows,), default=None
        The bins' (weighted) counts, drawn as the histogram; none by default.
    bin_edges : array-like of shape (n_bins + 1,) or (n_curves, n_bins + 1), default=None
        The bins' edges (one row per curve, in the order the curves first appear in
        ``class_label``): the histogram's bars span their bins; without them each count is
        a narrow bar at its bin's mean probability.
    bin_index : array-like of int of shape (n_rows,), default=None
        Each row's bin among the ``n_bins`` (needed with ``bin_edges``).
    class_label : array-like of shape (n_rows,), default=None
        The class each row is about (``target="classwise"``: one curve per class); None, or
        None in every row, for one curve.
    name : str, default=None
        The model's name, in the legend.
    target : {"binary", "top_label", "classwise"}, default="binary"
        What the curve reads, for the axes' labels.

    Attributes
    ----------
    prob_true, prob_pred, low, high, bin_count : ndarray or None
        The data drawn.
    result_ : ReliabilityCurveResult
        Set by the ``from_*`` methods: the curve drawn.
    line_ : matplotlib Line2D
        The curve (the first, where several classes are drawn).
    lines_, bands_, hists_ : list
        One per curve drawn: its Line2D, its band (a PolyCollection, or None) and its
        histogram (a StepPatch or BarContainer, or None).
    ax_ : matplotlib Axes
        The Axes of the curves (the first panel's with ``per_class=True``).
    axes_ : ndarray of matplotlib Axes
        The curves' Axes, one per panel.
    hist_axes_ : ndarray of matplotlib Axes or None
        The histograms' Axes below the panels (None where ``hist=False``).
    bounding_ax_ : matplotlib Axes or None
        With ``per_class=True`` and one Axes given as ``ax``: that Axes, hidden, the box
        the panels are drawn in.
    figure_ : matplotlib Figure
        The figure drawn on.

    See Also
    --------
    reliability_curve : The curve and its band.
    expected_calibration_error : The curve's distance to the diagonal in one number.
    sklearn.calibration.CalibrationDisplay : scikit-learn's diagram, without band nor
        counts.

    References
    ----------
    .. [1] Niculescu-Mizil, A. and Caruana, R. (2005). "Predicting Good Probabilities
       With Supervised Learning". ICML, Section 4.
    .. [2] Brocker, J. and Smith, L. A. (2007). "Increasing the Reliability of
       Reliability Diagrams". Weather and Forecasting, 22(3), 651-661.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import ReliabilityDisplay
    >>> display = ReliabilityDisplay([0.1, 0.5, 0.8], [0.15, 0.45, 0.85],
    ...                              low=[0.02, 0.3, 0.6], high=[0.3, 0.7, 0.9],
    ...                              bin_count=[20, 10, 30], name="forest").plot()
    >>> display.line_.get_xdata().tolist(), display.line_.get_ydata().tolist()
    ([0.15, 0.45, 0.85], [0.1, 0.5, 0.8])
    >>> [text.get_text() for text in display.ax_.get_legend().get_texts()]
    ['forest', 'perfectly calibrated']
    """

    @validate_params({"prob_true": [ARRAY], "prob_pred": [ARRAY], "low": [None, ARRAY],
                      "high": [None, ARRAY], "bin_count": [None, ARRAY],
                      "bin_edges": [None, ARRAY], "bin_index": [None, ARRAY],
                      "class_label": [None, ARRAY], "name": [None, str],
                      "target": [Options(*TARGETS)]})
    def __init__(self, prob_true, prob_pred, *, low=None, high=None, bin_count=None,
                 bin_edges=None, bin_index=None, class_label=None, name=None,
                 target="binary"):
        checked = {}
        for argument, values in (("prob_true", prob_true), ("prob_pred", prob_pred),
                                 ("low", low), ("high", high)):
            if values is not None:
                checked[argument] = display_array(values, argument, ndim=1, bounds=(0, 1),
                                                  what="probabilities")
        if bin_count is not None:
            checked["bin_count"] = display_array(bin_count, "bin_count", ndim=1,
                                                 bounds=(0, None), what="counts")
        same_shape(checked)
        if (low is None) != (high is None):
            raise ValueError("low and high are the ends of the band: pass both, or neither.")
        if low is not None:
            ordered_bounds(checked["low"], checked["high"], "low", "high")
        self.prob_true, self.prob_pred = checked["prob_true"], checked["prob_pred"]
        self.low, self.high = checked.get("low"), checked.get("high")
        self.bin_count = checked.get("bin_count")
        n_rows = self.prob_true.shape[0]
        self.class_label = None if class_label is None else np.asarray(class_label,
                                                                       dtype=object)
        if self.class_label is not None and self.class_label.shape != (n_rows,):
            raise ValueError(f"class_label must name the class of each of the {n_rows} "
                             f"rows; got shape {self.class_label.shape}.")
        self.bin_edges = self.bin_index = None
        if (bin_edges is None) != (bin_index is None):
            raise ValueError("bin_edges and bin_index place the histogram's bars: pass "
                             "both, or neither.")
        if bin_edges is not None:
            self.bin_edges = np.atleast_2d(display_array(bin_edges, "bin_edges", ndim=None,
                                                         bounds=(0, 1),
                                                         what="probabilities"))
            index = np.asarray(bin_index)
            n_bins = self.bin_edges.shape[1] - 1
            if index.shape != (n_rows,) or index.dtype.kind not in "iu" or (
                    index.size and (index.min() < 0 or index.max() >= n_bins)):
                raise ValueError(f"bin_index must give each of the {n_rows} rows its bin, "
                                 f"an integer in [0, {n_bins}); got {quoted(bin_index)}.")
            self.bin_index = index.astype(np.intp)
            if self.bin_edges.shape[0] != len(self._curves()):
                raise ValueError(f"bin_edges has {self.bin_edges.shape[0]} row(s) of edges "
                                 f"for {len(self._curves())} curve(s); pass one row per "
                                 "curve.")
        self.name, self.target = name, target

    def _curves(self):
        """``[(class_label, rows)]``: each curve's class (None for one curve) and its rows,
        in the order the classes first appear."""
        labels = self.class_label
        if labels is None or all(label is None for label in labels):
            return [(None, np.arange(self.prob_true.shape[0]))]
        keys = [repr(label) for label in labels]
        order = list(dict.fromkeys(keys))
        return [(labels[keys.index(key)], np.flatnonzero(np.asarray(keys) == key))
                for key in order]

    @classmethod
    @validate_params({"result": [ReliabilityCurveResult], **_DRAWING})
    def from_result(cls, result, *, name=None, per_class=False, hist=True, ax=None,
                    figsize=None):
        """Draw a curve :func:`reliability_curve` returned.

        Parameters
        ----------
        result : ReliabilityCurveResult
            The curve, its band and its counts.
        name : str, default=None
            The model's name, in the legend.
        per_class : bool, default=False
            With ``target="classwise"``: one panel per class (else every class's curve on
            one Axes).
        hist : bool, default=True
            Draw the histogram of the predicted probabilities below the curve.
        ax : matplotlib Axes, sequence of Axes, Figure or SubFigure, default=None
            Where to draw: a new figure by default; the ``ax_`` (``axes_``) of an earlier
            Display adds this curve to its Axes (and its histogram to theirs). With
            ``per_class=True``, one Axes per class, one Axes to draw the panels in, or a
            Figure.
        figsize : (float, float), default=None
            The size of a new figure, in inches.

        Returns
        -------
        display : ReliabilityDisplay
            With ``result_``, ``line_``, ``ax_``, ``figure_``.

        See Also
        --------
        ReliabilityDisplay.from_predictions : Compute the curve, then draw it.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ReliabilityDisplay, reliability_curve
        >>> curve = reliability_curve([0, 0, 1, 1, 1], [0.1, 0.3, 0.6, 0.8, 0.9], n_bins=2)
        >>> display = ReliabilityDisplay.from_result(curve, name="model")
        >>> display.line_.get_ydata().tolist()
        [0.0, 1.0]
        """
        display = cls(result.prob_true, result.prob_pred, low=result.low,
                      high=result.high, bin_count=result.bin_count,
                      bin_edges=result.bin_edges, bin_index=result.bin_index,
                      class_label=result.class_label if result.target == "classwise"
                      else None, name=name, target=result.target)
        display.result_ = result
        return display.plot(ax=ax, per_class=per_class, hist=hist, figsize=figsize)

    @classmethod
    @validate_params({"y_true": [ARRAY], "y_prob": [ARRAY], **_CURVE_OPTIONS, **_DRAWING})
    def from_predictions(cls, y_true, y_prob, *, n_bins=10, strategy="uniform",
                         target="binary", pos_label=None, labels=None, sample_weight=None,
                         confidence_level=0.95, name=None, per_class=False, hist=True,
                         ax=None, figsize=None):
        """Compute the reliability curve of probabilities (:func:`reliability_curve`)
        and draw it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            The true class labels.
        y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
            The probability of the positive class, or ``predict_proba``.
        n_bins : int, default=10
            The number of bins.
        strategy : {"uniform", "quantile"}, default="uniform"
            Equal-width bins, or bins at the quantiles of the probabilities.
        target : {"binary", "top_label", "classwise"}, default="binary"
            The positive class, the top label's confidence, or each class one-vs-rest.
        pos_label : int, float, bool or str, default=None
            The positive class of ``target="binary"``, as in :func:`reliability_curve`.
        labels : array-like, default=None
            The class of each column of ``y_prob``.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.
        confidence_level : float, default=0.95
            The level of each bin's band.
        name : str, default=None
            The model's name, in the legend.
        per_class : bool, default=False
            With ``target="classwise"``: one panel per class.
        hist : bool, default=True
            Draw the histogram of the predicted probabilities below the curve.
        ax : matplotlib Axes, sequence of Axes, Figure or SubFigure, default=None
            Where to draw; the ``ax_`` (``axes_``) of an earlier Display adds this curve.
        figsize : (float, float), default=None
            The size of a new figure, in inches.

        Returns
        -------
        display : ReliabilityDisplay

        See Also
        --------
        reliability_curve : The curve drawn.
        ReliabilityDisplay.from_estimator : From a fitted classifier.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ReliabilityDisplay
        >>> y_true = [0, 0, 0, 1, 1, 1, 0, 1]
        >>> y_prob = [0.1, 0.2, 0.6, 0.7, 0.9, 0.4, 0.3, 0.8]
        >>> display = ReliabilityDisplay.from_predictions(y_true, y_prob, n_bins=2,
        ...                                               name="model")
        >>> display.result_.prob_true.tolist(), display.line_.get_ydata().tolist()
        ([0.25, 0.75], [0.25, 0.75])
        >>> display.ax_.get_ylabel()
        'Observed frequency (positive class: 1)'
        """
        result = reliability_curve(y_true, y_prob, n_bins=n_bins, strategy=strategy,
                                   target=target, pos_label=pos_label, labels=labels,
                                   sample_weight=sample_weight,
                                   confidence_level=confidence_level)
        display = cls.from_result(result, name=name, per_class=per_class, hist=hist,
                                  ax=ax, figsize=figsize)
        if target == "binary" and result.class_label.size:
            display._positive = result.class_label[0]
            display._label_axes()
        return display

    @classmethod
    @validate_params({"estimator": ESTIMATOR, "X": [ARRAY], "y": [ARRAY],
                      **{k: v for k, v in _CURVE_OPTIONS.items() if k != "labels"},
                      **_DRAWING})
    def from_estimator(cls, estimator, X, y, *, n_bins=10, strategy="uniform",
                       target="binary", pos_label=None, sample_weight=None,
                       confidence_level=0.95, name=None, per_class=False, hist=True,
                       ax=None, figsize=None):
        """The reliability curve of a fitted classifier's ``predict_proba`` on ``X``.

        The columns are the classifier's ``classes_``; the model is named by its class
        by default. The other parameters are :meth:`from_predictions`'.

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba``.
        X : array-like of shape (n_samples, n_features)
            Input samples.
        y : array-like of shape (n_samples,)
            True class labels.
        n_bins, strategy, target, pos_label, sample_weight, confidence_level
            As in :meth:`from_predictions`.
        name : str, default=None
            The model's name; the estimator's class name by default.
        per_class, hist, ax, figsize
            As in :meth:`from_predictions`.

        Returns
        -------
        display : ReliabilityDisplay

        See Also
        --------
        ReliabilityDisplay.from_predictions : From probabilities already predicted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_confusion_ext import ReliabilityDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> model = LogisticRegression(max_iter=1000).fit(X, y)
        >>> display = ReliabilityDisplay.from_estimator(model, X, y, target="classwise",
        ...                                             per_class=True, n_bins=5)
        >>> [ax.get_title() for ax in display.axes_]
        ['class 0', 'class 1', 'class 2']
        """
        scores, classes = estimator_scores(estimator, X, y, "predict_proba",
                                           "ReliabilityDisplay.from_estimator")
        return cls.from_predictions(
            y, scores, n_bins=n_bins, strategy=strategy, target=target, pos_label=pos_label,
            labels=classes, sample_weight=sample_weight, confidence_level=confidence_level,
            name=type(estimator).__name__ if name is None else name, per_class=per_class,
            hist=hist, ax=ax, figsize=figsize)

    @validate_params({"per_class": [BOOLEAN], "hist": [BOOLEAN], **PANELS_AX, **FIGSIZE})
    def plot(self, *, ax=None, per_class=False, hist=True, figsize=None):
        """Draw the curves, their bands, the diagonal and the histograms.

        Parameters
        ----------
        ax : matplotlib Axes, sequence of Axes, Figure or SubFigure, default=None
            Where to draw: a new figure by default; the ``ax_`` (``axes_``) of an earlier
            Display adds these curves to its Axes.
        per_class : bool, default=False
            One panel per class (of a curve per class, ``class_label``).
        hist : bool, default=True
            Draw the histogram below the curve (where ``bin_count`` is given).
        figsize : (float, float), default=None
            The size of a new figure, in inches.

        Returns
        -------
        self

        See Also
        --------
        ReliabilityDisplay.from_predictions : Compute the curve, then draw it.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ReliabilityDisplay
        >>> first = ReliabilityDisplay([0.2, 0.7], [0.25, 0.75], name="a").plot()
        >>> second = ReliabilityDisplay([0.3, 0.6], [0.3, 0.7], name="b").plot(
        ...     ax=first.ax_)
        >>> [text.get_text() for text in second.ax_.get_legend().get_texts()]
        ['a', 'b', 'perfectly calibrated']
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        curves = self._curves()
        hist = hist and self.bin_count is not None
        n_panels = len(curves) if per_class else 1
        n_columns = 2 if n_panels == 4 else min(n_panels, 3)
        self._n_columns = n_columns
        n_rows = math.ceil(n_panels / n_columns)

        def arrange(container):
            grid = container.subplots(n_rows, n_columns, squeeze=False)
            for extra in grid.ravel()[n_panels:]:
                extra.set_axis_off()
            return list(grid.ravel()[:n_panels])

        size = (4.8, 5.0) if n_panels == 1 else (3.6 * n_columns, 3.9 * n_rows)
        self.bounding_ax_ = bounding_axes(ax, n_panels)
        fig, axes = panel_axes(ax, n_panels, "one per class", figsize, size, arrange)
        hist_axes = [_histogram_axes(one) if hist else None for one in axes]
        self.lines_, self.bands_, self.hists_ = [], [], []
        for k, (label, rows) in enumerate(curves):
            panel = k if per_class else 0
            self._draw_curve(axes[panel], hist_axes[panel], k, label, rows,
                             len(curves) > 1 and not per_class)
        for panel, one in enumerate(axes):
            if per_class and curves[panel][0] is not None:
                one.set_title(f"class {short_name(curves[panel][0])}", fontsize="medium")
            _reference_and_legend(one, legend=panel == 0)
        self.figure_, self.axes_ = fig, np.asarray(axes, dtype=object)
        self.hist_axes_ = None if not hist else np.asarray(hist_axes, dtype=object)
        self.ax_, self.line_ = axes[0], self.lines_[0]
        self._label_axes()
        return self

    def _draw_curve(self, ax, hist_ax, k, label, rows, named_by_class):
        color = curve_color(ax, _CURVE)
        n_before = len([line for line in ax.get_lines() if line.get_gid() == _CURVE])
        name = self.name
        if named_by_class:
            name = f"class {short_name(label)}" if name is None else \
                f"{name}: class {short_name(label)}"
        x, y = self.prob_pred[rows], self.prob_true[rows]
        order = np.argsort(x, kind="stable")
        band = None
        if self.low is not None:
            band = ax.fill_between(x[order], self.low[rows][order], self.high[rows][order],
                                   color=color, alpha=0.2, linewidth=0, zorder=1)
            band.set_gid(f"{_BAND}-{n_before}")
        (line,) = ax.plot(x[order], y[order], marker="s", markersize=4, color=color,
                          label=name if name is not None else "_curve", zorder=3)
        line.set_gid(_CURVE)
        drawn = None
        if hist_ax is not None:
            drawn = self._draw_histogram(hist_ax, k, rows, color)
        self.lines_.append(line)
        self.bands_.append(band)
        self.hists_.append(drawn)

    def _draw_histogram(self, ax, k, rows, color):
        counts = self.bin_count[rows]
        first = not any(patch.get_gid() == _HISTOGRAM for patch in ax.patches) and \
            not any(container.get_label() == _HISTOGRAM for container in ax.containers)
        if self.bin_edges is not None:
            edges = self.bin_edges[k] if self.bin_edges.shape[0] > 1 else self.bin_edges[0]
            values = np.zeros(edges.size - 1)
            values[self.bin_index[rows]] = counts
            drawn = ax.stairs(values, edges, fill=first, color=color,
                              alpha=0.35 if first else 1.0, linewidth=1.5)
            drawn.set_gid(_HISTOGRAM)
        else:
            drawn = ax.bar(self.prob_pred[rows], counts, width=0.02, color=color,
                           alpha=0.6, label=_HISTOGRAM)
        ax.set_ylim(bottom=0)
        ax.tick_params(labelsize="small")
        return drawn

    def _label_axes(self):
        """The axes' labels: what the curve reads (and the positive class, when the
        ``from_*`` methods know it)."""
        x_label, y_label = _AXIS_LABELS[self.target]
        positive = getattr(self, "_positive", None)
        if positive is not None:
            x_label += f" (positive class: {short_name(positive)})"
            y_label += f" (positive class: {short_name(positive)})"
        n_panels, n_columns = len(self.axes_), getattr(self, "_n_columns", 1)
        if n_panels > 1:  # panels of classes, each titled: the short words, once per row
            x_label, y_label = (words.replace(" of the class", "") for words in (x_label,
                                                                                y_label))
        for k, ax in enumerate(self.axes_):
            hist_ax = None if self.hist_axes_ is None else self.hist_axes_[k]
            first_column, last_row = k % n_columns == 0, k + n_columns >= n_panels
            ax.set_ylabel(y_label if first_column else "")
            if hist_ax is not None:
                hist_ax.set_ylabel("Count" if first_column else "", fontsize="small")
            (hist_ax if hist_ax is not None else ax).set_xlabel(x_label if last_row else "")
            if hist_ax is not None:
                ax.set_xlabel("")


def _histogram_axes(ax):
    """The Axes of the histograms below ``ax``: the one an earlier Display made (found by
    its label among the Axes sharing ``ax``'s x-axis), else a new one: ``ax``'s grid cell
    is split (four fifths for the curve, one fifth below for the histogram); an Axes
    placed by position gives the lower fifth of its place."""
    fig = ax.figure
    for other in fig.figure.axes:
        if other is not ax and other.get_label() == _HISTOGRAM and \
                other in ax.get_shared_x_axes().get_siblings(ax):
            return other
    spec = ax.get_subplotspec()
    if spec is not None:
        from matplotlib.gridspec import GridSpecFromSubplotSpec

        room = {} if fig.figure.get_layout_engine() is not None else {"hspace": 0.08}
        split = GridSpecFromSubplotSpec(2, 1, subplot_spec=spec, height_ratios=(4, 1),
                                        **room)
        ax.set_subplotspec(split[0])
        hist_ax = fig.add_subplot(split[1], sharex=ax, label=_HISTOGRAM)
    else:
        box = ax.get_position()
        ax.set_position([box.x0, box.y0 + 0.3 * box.height, box.width, 0.7 * box.height])
        hist_ax = fig.add_axes([box.x0, box.y0, box.width, 0.2 * box.height], sharex=ax,
                               label=_HISTOGRAM)
    ax.tick_params(labelbottom=False)
    return hist_ax


def _reference_and_legend(ax, legend=True):
    """The diagonal (once per Axes), the limits and (``legend``) the legend of every curve
    on ``ax``, in the lower right corner, where a curve would be far below the diagonal."""
    from matplotlib.lines import Line2D

    diagonal = [line for line in ax.get_lines() if line.get_gid() == "reliability-diagonal"]
    if not diagonal:
        (line,) = ax.plot([0, 1], [0, 1], linestyle="--", color="0.5", linewidth=1,
                          label="_perfectly calibrated", zorder=2)
        line.set_gid("reliability-diagonal")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("auto")
    ax.grid(alpha=0.3)
    named = [line for line in ax.get_lines()
             if line.get_gid() == _CURVE and not line.get_label().startswith("_")]
    reference = Line2D([], [], linestyle="--", color="0.5", linewidth=1)
    if named and legend:
        legend_of_curves(ax, _CURVE, _BAND, extra=[(reference, "perfectly calibrated")],
                         loc="lower right", fontsize="small")
