"""Displays of the confusion matrices, built like ``sklearn.metrics.ConfusionMatrixDisplay``.

matplotlib is optional: it is imported inside ``plot``, after a check that raises a helpful
``ImportError`` when it is missing. Constructors only store data; the ``from_*``
classmethods build the matrix with the library's functions and call ``plot``.

Each public Display lists every keyword of its ``from_*`` methods (its builder's own, then
the layout and drawing keywords), checked by :func:`validate_params` before any work, and
hands them, with its builder, to the shared implementation in ``_ConfusionDisplay``.
Parameter docs shared by several methods are written once below and filled in by
:func:`fill_doc`.
"""

import functools
import math
from numbers import Real

import numpy as np
import scipy.sparse as sp

from .._core.confusion import NONE_LABEL, Confusion, normalize_confusion
from .._core.docs import fill_doc
from .._core.params import ARRAY, BOOLEAN, Interval, Label, Options, validate_params
from .._core.probabilities import checked_probabilities, with_positive
from .._core.targets import check_target_set
from .._core.user_warnings import warn
from .._decisions.thresholds import threshold_confusion_matrices
from .._matrices.mlcm import mlcm_confusion
from .._matrices.rejection import REJECTED_LABEL, check_reject_label, rejections
from .._matrices.transport import (
    SUBPIXEL,
    bounds_as_center,
    transport_confusion,
    transport_confusions,
)
from .._reading.rankings import prevalence_ranking
from .._statistics.cv_reports import CV_MATRICES, cross_validated_confusion_matrices
from .data_checks import display_array, same_shape
from .declarations import (
    DISPLAY_PLOT,
    FROM_ESTIMATOR,
    FROM_PREDICTIONS,
    MATRIX_DISPLAY,
    MLCM_DISPLAY,
    TRANSPORT_DISPLAY,
)
from .layout import fit_title, grown_size, set_class_ticks
from .matplotlib_check import check_matplotlib
from .model_curves import estimator_scores, positive_column
from .value_format import format_values, value_decimals

# The matrix at a decision threshold of a binary score (TransportConfusionMatrixDisplay).
AT_THRESHOLD = {"threshold": [None, Interval(Real, None, None)], "pos_label": [None, Label()]}

# Above this many classes, values are hidden unless include_values=True is passed.
_MAX_CLASSES_WITH_VALUES = 20

_DOCS = {
    "constructor": """\
confusion_matrix : ndarray of shape (n_classes, n_classes)
    The matrix to draw, rows true classes and columns predicted classes: square, of
    finite non-negative values (``ValueError`` otherwise); a matrix of shape
    (n_rows, n_columns) whose columns are other classes than its rows is drawn with
    ``column_labels``.
display_labels : list of str, default=None
    Row names, one per row (and column names unless ``column_labels`` is given); row and
    column indices by default. :meth:`plot` checks the length.
column_labels : list of str, default=None
    Column names, one per column, when the columns are ordered differently from the
    rows (or are other classes: needed for a matrix that is not square).""",
    "labels": """\
labels : array-like, default=None
    1-D targets: the class labels to show, in that order. 2-D targets: integer column
    indices; the full matrix is computed, then those rows and columns are kept in that
    order, with the "none" class last.
sample_weight : array-like of shape (n_samples,), default=None
    Weight of each instance.""",
    "layout": """\
normalize : {"true", "pred", "all"}, default=None
    Normalize over true rows, predicted columns or the whole matrix.
display_labels : list of str, default=None
    Names of the classes, in the order of the matrix's rows before ``order``; the class
    labels by default. When the matrix ends with the "none" class (2-D targets), name
    the other classes and "none" is appended (a list ending with "none" is taken as it
    is). Another length raises ``ValueError``.
order : {"test-training"}, default=None
    Order rows by prevalence in ``y_true`` and columns by prevalence in ``y_train`` (or
    ``y_true``), most common first (Erbani et al. 2024, Section VI-A); "none" stays last.
    None keeps the classes' order.
y_train : array-like, default=None
    Training targets, for ``order="test-training"``.
include_values : bool, default=None
    Write the value of each cell; by default only up to 20 classes, or at any number of
    classes with ``include_counts=True`` (which writes the counts under the values).""",
    "drawing": """\
cmap : str or matplotlib Colormap, default="viridis"
    Colormap of the cells.
xticks_rotation : {"auto", "vertical", "horizontal"} or float, default="auto"
    Rotation of the column names in degrees; "auto" keeps them horizontal when they fit
    side by side and turns them otherwise. Names longer than 20 characters keep their
    start and end around an ellipsis; when the names cannot all be written without
    overlapping, every k-th class is named.
values_format : str, default=None
    Format spec of the values (``format(value, values_format)``, e.g. ``".1f"``). By
    default the values decide: integers when every value is one (counts); otherwise
    decimals enough for three significant digits of the largest value, at most two
    (``170``, ``45.6``, ``0.95``), and two decimals on a normalized matrix; a nonzero
    value too small for those decimals is written ``"<0.01"``, zero ``"0"``; no
    scientific notation below 1e5.
ax : matplotlib Axes, default=None
    Axes to draw on. By default a new figure, sized to the number of classes (at most
    12 x 10 inches).
colorbar : bool, default=True
    Draw a colorbar.
im_kw : dict, default=None
    Extra keyword arguments of ``matplotlib.axes.Axes.imshow``.
text_kw : dict, default=None
    Extra keyword arguments of ``matplotlib.axes.Axes.text``.
title : str or None, default="auto"
    Title of the axes. "auto" names the matrix and, when the Display built it, its
    weighting (or method) and normalization on a second line, e.g. "Transport confusion
    matrix" over "(weighting: uniform, normalized over true classes)"; None or "" draws
    no title; any other string is the title.
include_counts : bool, default=False
    Write each cell's count, the matrix before ``normalize``, under its normalized value:
    ``0.85`` over ``(170)``, so that a rate is read with the number of instances behind
    it (an empty cell stays "0"); counts of fractional matrices (soft labels, weights) are
    written like the values of an unnormalized matrix. ``from_predictions`` and
    ``from_estimator`` keep the counts in ``counts``; without ``normalize``, or on a
    Display built from a matrix (no counts), the values are written once.""",
    "estimator": """\
estimator : fitted classifier
    A fitted estimator with ``predict`` (and ``predict_proba`` for
    ``response_method="predict_proba"``).
X : array-like of shape (n_samples, n_features)
    Input samples.
y : array-like or sparse matrix
    True targets: class labels or a binary indicator matrix.
response_method : {"auto", "predict", "predict_proba"}, default="auto"
    ``"predict"``: hard predictions (on class labels, the classic confusion matrix);
    ``"predict_proba"``: the predicted probabilities as soft predictions against the true
    class labels (the columns are ``estimator.classes_``, the default ``labels``; no
    "none" class) or the true indicator matrix; ``"auto"``: ``"predict"``.""",
    "weighting": """\
weighting : {"uniform", "true", "pred"} or callable, default="uniform"
    Weight of each instance's transport plan, as in :func:`transport_confusion_matrix`.
empty : {"null_class", "skip", "error"}, default="null_class"
    What to do with an instance whose label or prediction has no mass, as in
    :func:`transport_confusion_matrix`.
subpixel : bool, default=False
    Draw the sub-pixel confusion matrix instead (:func:`subpixel_confusion_matrix` with
    ``form="center"``; SCM\\ :sup:`ext` of Erbani et al. 2024 with the default weighting):
    each cell is the interval of its value over all optimal plans, colored by its centre
    and written "centre±half-width" as the paper's Tables 6c and 7c (the diagonal, shared
    by every plan, as a single value). ``normalize`` divides both by the transport
    matrix's row, column or total sums (true masses, predicted masses), so the cells
    bound the normalized values of every optimal plan.""",
    "threshold": """\
threshold : float, default=None
    The matrix of the decisions at a threshold of a score, as
    :func:`threshold_confusion_matrices` reads it (its matrix at ``threshold``). Binary
    scores (1-D ``y_pred``, the score of the positive class: a probability or decision
    value): predicted positive where the score is at least ``threshold``; the classes are
    those of ``y_true`` (or ``labels``, both of them), in sorted order. Multiclass
    probabilities (2-D ``y_pred``, a column per class, named by ``labels`` as in
    :func:`threshold_confusion_matrices`): the top label is answered where its
    probability is at least ``threshold``, else the instance is rejected; the matrix is
    ``target="top_label"``'s, ``n_classes x (n_classes + 1)``, its last column
    "rejected".
pos_label : int, float, bool or str, default=None
    With ``threshold`` on binary scores: the positive class; by default 1 where the
    classes are {0, 1} or {-1, 1} (scikit-learn's rule).""",
    "reject_label": """\
reject_label : int, float, bool or str, default=None
    1-D labels: the value of ``y_pred`` that says the classifier abstained, as in
    :func:`transport_confusion_matrix`; the matrix is ``n_classes x (n_classes + 1)``,
    its last column, "rejected", the abstentions of each true class (``normalize="true"``:
    each class's shares of answers and rejections). Not with ``subpixel``; with
    ``order``, the rejected column stays last.""",
    "method": """\
method : {"heydarian", "krstinic"}, default="heydarian"
    Which multi-label confusion matrix, as in :func:`mlcm`.""",
}


# from_cv_results writes each cell's spread where the counts would go (its counts are in
# display.cv_matrices.counts): the drawing keywords without include_counts.
_DOCS["drawing_no_counts"] = _DOCS["drawing"].split("\ninclude_counts :")[0]
_fill_doc = fill_doc(_DOCS)


class _ConfusionDisplay:
    """What the confusion-matrix Displays share: storing, drawing, building and drawing."""

    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None):
        self.confusion_matrix = display_array(confusion_matrix, "confusion_matrix", ndim=2,
                                              bounds=(0, None), what="counts")
        n_rows, n_columns = self.confusion_matrix.shape
        if n_rows != n_columns and column_labels is None:
            raise ValueError(
                f"confusion_matrix must be square (one row and one column per class); got "
                f"shape {self.confusion_matrix.shape}. A matrix whose columns are other "
                f"classes than its rows needs column_labels naming its {n_columns} columns.")
        self.display_labels = display_labels
        self.column_labels = column_labels
        self.half_width = None
        # The matrix before normalize (set by from_predictions/from_estimator when they
        # normalize it), written under the values with include_counts=True.
        self.counts = None
        # Set by from_predictions/from_estimator: what the default title says besides the
        # matrix's name (its weighting or method) and the normalization applied.
        self._about, self._normalize = None, None

    # The two Displays' plot declarations are one (DISPLAY_PLOT); errors name the class the
    # method is called on.
    @validate_params(DISPLAY_PLOT)
    @_fill_doc
    def plot(self, *, include_values=True, cmap="viridis", xticks_rotation="auto",
             values_format=None, ax=None, colorbar=True, im_kw=None, text_kw=None,
             title="auto", include_counts=False):
        """Draw the matrix.

        Parameters
        ----------
        include_values : bool, default=True
            Write the value of each cell.
        %(drawing)s

        Returns
        -------
        self
            With ``figure_``, ``ax_``, ``im_`` and ``text_`` (an array of the cells' texts,
            or None when ``include_values=False``).

        Raises
        ------
        ValueError
            When ``display_labels`` (or ``column_labels``) does not name every row (column).

        See Also
        --------
        TransportConfusionMatrixDisplay.from_predictions : Build the matrix, then draw it.
        MLCMDisplay.from_predictions : Build the multi-label matrix, then draw it.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
        >>> display = TransportConfusionMatrixDisplay([[170.25, 0.0001], [0.7, 3.0]],
        ...                                           display_labels=["cat", "dog"])
        >>> display = display.plot(colorbar=False)
        >>> [text.get_text() for text in display.text_.ravel()]
        ['170', '<1', '1', '3']
        >>> display = display.plot(values_format=".1f", title="Two pets")
        >>> [text.get_text() for text in display.text_.ravel()], display.ax_.get_title()
        (['170.2', '0.0', '0.7', '3.0'], 'Two pets')
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        matrix = self.confusion_matrix
        if matrix.ndim != 2:
            raise ValueError(f"confusion_matrix must be 2-D; got shape {matrix.shape}.")
        n_rows, n_columns = matrix.shape
        rows = _names("display_labels", self.display_labels, n_rows, "rows")
        columns = rows if self.column_labels is None and n_rows == n_columns else _names(
            "column_labels", self.column_labels, n_columns, "columns")
        own_figure = ax is None
        if ax is None:
            per_class = (0.22, 0.22) if self.half_width is None else (0.55, 0.45)
            fig, ax = plt.subplots(figsize=grown_size(max(n_rows, n_columns), (5.4, 4.4),
                                                      per_class, (12, 10)),
                                   layout="constrained")
        else:
            fig = ax.figure
        im_kw = {"interpolation": "nearest", "cmap": cmap, **(im_kw or {})}
        self.im_ = ax.imshow(matrix, **im_kw)
        self.text_ = None
        both = include_counts and self._normalize is not None and self.counts is not None
        if both and not include_values:
            warn("include_counts=True writes each cell's count under its value, and "
                 "include_values=False writes no value: no count is written. Pass "
                 "include_values=True (or leave it to its default) to write both.",
                 UserWarning)
        if both and self.half_width is not None:
            raise ValueError("include_counts=True and the sub-pixel intervals do not fit in "
                             "one cell: pass one of them.")
        if include_values:
            texts = self._cell_texts(values_format)
            if both:
                counts = format_values(np.asarray(self.counts, dtype=float), None)
                texts = np.array([value if count == "0" else f"{value}\n({count})"
                                  for value, count in zip(texts.ravel(), counts.ravel())],
                                 dtype=object).reshape(texts.shape)
            self.text_ = np.empty_like(matrix, dtype=object)
            low, high = self.im_.cmap(0), self.im_.cmap(1.0)
            threshold = (matrix.max() + matrix.min()) / 2.0
            small = 10 if self.half_width is None else 5  # "centre±half-width" is wider
            if both:  # two lines a cell
                small //= 2
            size = {"fontsize": "small"} if max(n_rows, n_columns) > small else {}
            if both and max(n_rows, n_columns) > _MAX_CLASSES_WITH_VALUES:
                # Many classes: two lines in a small cell, written as small as fits it.
                size = {"fontsize": _fitting_size(ax, n_rows, n_columns, texts)}
            for i, j in np.ndindex(matrix.shape):
                color = low if matrix[i, j] > threshold else high
                self.text_[i, j] = ax.text(j, i, texts[i, j], ha="center", va="center",
                                           color=color, **{**size, **(text_kw or {})})
        if colorbar:
            fig.colorbar(self.im_, ax=ax)
        ax.set(ylabel="True label", xlabel="Predicted label")
        set_class_ticks(ax, "x", columns, xticks_rotation)
        set_class_ticks(ax, "y", rows)
        ax.set_ylim((n_rows - 0.5, -0.5))
        if title == "auto":
            title = self._default_title()
        if own_figure:  # the title may reach over the colour bar
            ax.set_title(title or "")
        else:  # Axes of the caller's figure: the title fits its Axes, off its neighbours
            fit_title(ax, title)
        self.figure_, self.ax_ = fig, ax
        return self

    def _cell_texts(self, values_format):
        """The text of each cell: its value, or "centre±half-width" where the Display has
        half-widths and the cell's is nonzero (both written with the same decimals)."""
        decimals = None if self._normalize is None else 2
        if self.half_width is None:
            return format_values(self.confusion_matrix, values_format, decimals=decimals)
        half_width = np.asarray(self.half_width, dtype=float)
        if half_width.shape != self.confusion_matrix.shape:
            raise ValueError(f"half_width has shape {half_width.shape}; the matrix has shape "
                             f"{self.confusion_matrix.shape}.")
        if decimals is None and values_format is None and (half_width > 0).any():
            # The matrix's decimals, or more (two at most) until every half-width shows.
            smallest = float(half_width[half_width > 0].min())
            decimals = max(value_decimals(self.confusion_matrix),
                           min(2, max(0, -math.floor(math.log10(smallest)))))
        both = format_values(np.concatenate([self.confusion_matrix, half_width]),
                             values_format, decimals=decimals)
        centers, halves = np.split(both, 2)
        texts = centers.copy()
        for index in zip(*np.nonzero(half_width > 0)):
            texts[index] = f"{centers[index]}\u00b1{halves[index]}"
        return texts

    def _default_title(self):
        """The matrix's name, then (from the ``from_*`` methods) its weighting or method and
        its normalization."""
        details = [] if self._about is None else [self._about]
        if self._normalize is not None:
            details.append(_NORMALIZED[self._normalize])
        if not details:
            return self._matrix_name
        return f"{self._matrix_name}\n({', '.join(details)})"  # two lines fit narrow figures

    @classmethod
    def _build_and_plot(cls, build, about, y_true, y_pred, *, labels, sample_weight, normalize,
                        display_labels, order, y_train, include_values, **drawing):
        """The ``from_predictions`` of every Display, on checked parameters: ``build(y_true,
        y_pred, labels=, sample_weight=)`` is the Display's builder with its own keywords,
        ``about`` its keywords as the default title says them."""
        if y_train is not None and order is None:
            raise ValueError("y_train is read only to order the columns: pass "
                             "order='test-training' with it.")
        built = build(y_true, y_pred, labels=labels, sample_weight=sample_weight)
        confusion, bounds = (built, None) if isinstance(built, Confusion) else built
        matrix, names = confusion.selected(), confusion.selected_labels()
        display_labels = _class_names(display_labels, names, confusion.has_none)
        rows = columns = np.arange(len(names))
        if order == "test-training":
            rows, columns = _test_training_order(confusion, y_true, y_train, labels)
        half_width, counts = None, None
        if bounds is None:
            counts = matrix[np.ix_(rows, columns)]
            matrix = normalize_confusion(matrix, normalize)
        else:  # the interval bounds over the transport matrix's sums
            totals = _totals(matrix, normalize)
            matrix, half_width = bounds_as_center(*(bound.selected() / totals
                                                    for bound in bounds))
            half_width = half_width[np.ix_(rows, columns)]
        matrix = matrix[np.ix_(rows, columns)]
        row_labels = [display_labels[i] for i in rows]
        column_labels = [display_labels[i] for i in columns]
        display = cls(matrix, display_labels=row_labels,
                      column_labels=None if column_labels == row_labels else column_labels)
        if half_width is not None:
            display.half_width = half_width
            display._matrix_name = "Sub-pixel confusion matrix"
        display.counts = counts
        display._about, display._normalize = about, normalize
        if include_values is None:  # include_counts=True asks for the values too
            include_values = (drawing.get("include_counts", False)
                              or matrix.shape[0] <= _MAX_CLASSES_WITH_VALUES)
        return display.plot(include_values=include_values, **drawing)

    @classmethod
    def _predict_and_plot(cls, build, about, estimator, X, y, *, response_method, labels,
                          **keywords):
        """The ``from_estimator`` of every Display, on checked parameters.

        With ``response_method="predict_proba"``, the probabilities (one column per class of
        ``estimator.classes_``) are the predictions; beside 1-D class labels ``y`` the
        columns are named by ``estimator.classes_``, and ``labels`` selects and orders the
        classes shown, as on labels.
        """
        # y checked under its own name before the estimator runs (the builders name their
        # arguments y_true and y_pred, which from_estimator has not)
        check_target_set({"y": y}, one_hot=False)
        n_rows = y.shape[0] if hasattr(y, "shape") else len(y)
        if response_method == "predict_proba":
            y_pred = _probabilities(estimator, X)
            if not sp.issparse(y) and np.ndim(y) == 1:
                classes = np.asarray(estimator.classes_)
                if labels is None:
                    labels = classes
                else:  # classes_ name the columns; labels= selects among them
                    build = functools.partial(build, column_labels=classes)
        else:
            y_pred = estimator.predict(X)
        if np.shape(y_pred)[0] != n_rows:
            raise ValueError(f"y has {n_rows} samples but the estimator predicts "
                             f"{np.shape(y_pred)[0]} on X; pass one label (row) of y per row "
                             "of X.")
        return cls._build_and_plot(build, about, y, y_pred, labels=labels, **keywords)


def _fitting_size(ax, n_rows, n_columns, texts):
    """The font size (points) at which every text of ``texts`` (two lines at most) fits
    its cell of ``ax``, a character about 0.6 of the font size wide; 2 points at least,
    matplotlib's "small" at most."""
    from matplotlib.font_manager import FontProperties

    points = 72 / ax.figure.dpi
    height, width = ax.bbox.height * points / n_rows, ax.bbox.width * points / n_columns
    widest = max((len(line) for text in np.ravel(texts) for line in str(text).split("\n")),
                 default=1)
    small = FontProperties(size="small").get_size_in_points()
    return max(2.0, min(small, height / 2.6, width / (0.6 * widest + 0.4)))


def _totals(matrix, normalize):
    """What ``normalize`` divides ``matrix``'s cells by (1 for None, and where a sum is 0:
    the cells there are 0)."""
    if normalize is None:
        return 1.0
    totals = {"true": matrix.sum(axis=1, keepdims=True),
              "pred": matrix.sum(axis=0, keepdims=True),
              "all": matrix.sum(keepdims=True)}[normalize]
    return np.where(totals == 0, 1.0, totals)


def _transport_builder(weighting, empty, subpixel):
    """The builder of :class:`TransportConfusionMatrixDisplay`: the transport matrix, or
    with ``subpixel`` the transport matrix and its sub-pixel bounds (for their sums)."""
    build = functools.partial(transport_confusion, weighting=weighting, empty=empty)
    if not subpixel:
        return build

    def build_with_bounds(y_true, y_pred, *, labels, sample_weight, column_labels=None):
        bounds = transport_confusions(SUBPIXEL, y_true, y_pred, labels=labels,
                                      weighting=weighting, sample_weight=sample_weight,
                                      empty=empty, column_labels=column_labels)
        return build(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                     column_labels=column_labels), bounds

    return build_with_bounds


def _ndim(y):
    """The number of dimensions of array-like ``y``; 2 for a ragged list (read as rows of
    probabilities, whose check names the fault)."""
    try:
        return np.ndim(y)
    except ValueError:
        return 2


def _at_threshold(y_true, y_score, threshold, pos_label, labels, sample_weight, about):
    """``(y_pred, labels, about)``: the decisions of a binary score at ``threshold``
    (positive where ``y_score >= threshold``, as ``threshold_confusion_matrices`` reads
    it), the two classes in sorted order, and the title's words with the rule."""
    if np.ndim(y_score) != 1:
        raise ValueError(f"threshold={threshold!r} reads y_pred as the score of the positive "
                         f"class (1-D); got y_pred of shape {np.shape(y_score)}.")
    owner = "TransportConfusionMatrixDisplay.from_predictions"
    scored = checked_probabilities(owner, y_true, y_score, labels=labels,
                                   sample_weight=sample_weight, name="y_pred", scores=True,
                                   default_positive="last")
    if len(scored.classes) != 2:
        raise ValueError(f"threshold={threshold!r} decides between two classes; y_true holds "
                         f"{len(scored.classes)}: pass labels= with both classes.")
    scored = with_positive(owner, scored, pos_label, labels=labels,
                           default_positive="classes", name="y_pred")
    positive, classes = scored.positive, scored.classes
    y_pred = np.where(scored.prob >= float(threshold), classes[positive],
                      classes[1 - positive])
    rule = f"predicted {classes[positive]} where score >= {float(threshold):.3g}"
    return y_pred, classes, f"{about}, {rule}"


def _with_rejections(y_true, y_pred, *, threshold, pos_label, reject_label, labels,
                     sample_weight, weighting, empty, subpixel, about):
    """``(matrix, classes, about)``: the ``(C, C + 1)`` matrix of decisions with a last
    "rejected" column, unnormalized, of 1-D labels with ``reject_label`` (the transport
    matrix of :func:`transport_confusion_matrix`'s ``reject_label``) or of 2-D
    probabilities at a ``threshold`` of the top probability
    (:func:`threshold_confusion_matrices`' ``target="top_label"``), its classes, and the
    title's words with the rule."""
    if subpixel:
        raise ValueError("subpixel=True draws the intervals of soft predictions; "
                         f"{'reject_label' if reject_label is not None else 'threshold'}= "
                         "draws hard decisions with a rejected column: pass one of them.")
    if reject_label is None:  # multiclass probabilities at a threshold
        if pos_label is not None:
            raise ValueError(f"pos_label={pos_label!r} names the positive class of a 1-D "
                             "score; with 2-D probabilities threshold= answers each "
                             "instance's top label: leave pos_label=None.")
        if weighting != "uniform":
            raise ValueError(f"weighting={weighting!r} weighs transport plans; the top-label "
                             "decisions of threshold= on 2-D probabilities are hard labels: "
                             "leave weighting='uniform'.")
        try:
            at = threshold_confusion_matrices(y_true, y_pred, thresholds=[threshold],
                                              target="top_label", labels=labels,
                                              sample_weight=sample_weight)
        except ValueError as error:  # its y_score is this Display's y_pred
            raise ValueError(str(error).replace("y_score", "y_pred")) from None
        classes = [c.item() if isinstance(c, np.generic) else c for c in at.classes]
        # hard decisions: the weighting (uniform) is left out of the title, kept short
        rule = f"rejected: top p < {float(threshold):.3g}"
        return np.asarray(at.matrices[0], dtype=np.float64), classes, rule
    if threshold is not None or pos_label is not None:
        raise ValueError(f"reject_label={reject_label!r} reads 1-D decisions, the reject "
                         "label among them; threshold= (and pos_label=) make decisions from "
                         "scores: pass one of them (threshold= on 2-D probabilities rejects "
                         "below it).")
    built = check_reject_label(reject_label, y_true, y_pred, labels)
    confusion = transport_confusion(y_true, y_pred, labels=built, weighting=weighting,
                                    sample_weight=sample_weight, empty=empty)
    found = rejections(confusion, reject_label)
    rule = f"rejected: {reject_label!r}"
    return found.matrix, list(found.classes), (rule if weighting == "uniform" else
                                               f"{about}, {rule}")


def _plot_rejections(cls, matrix, classes, about, *, y_true, normalize, display_labels,
                     order, y_train, include_values, **drawing):
    """Draw a ``(C, C + 1)`` matrix of decisions whose last column is "rejected", as
    ``_build_and_plot`` draws a matrix of classes: ``order`` moves the classes (rows by
    test prevalence, columns by training prevalence), never the rejected column."""
    if y_train is not None and order is None:
        raise ValueError("y_train is read only to order the columns: pass "
                         "order='test-training' with it.")
    n_classes = len(classes)
    names = _class_names(display_labels, classes, False)
    rows = columns = np.arange(n_classes)
    if order == "test-training":
        rows, columns = prevalence_ranking(y_true, y_train, labels=classes)
    columns = np.append(columns, n_classes)  # "rejected" stays last
    counts = matrix[np.ix_(rows, columns)]
    shown = normalize_confusion(matrix, normalize)[np.ix_(rows, columns)]
    display = cls(shown, display_labels=[names[i] for i in rows],
                  column_labels=[*(names[i] for i in columns[:-1]), REJECTED_LABEL])
    display.counts = counts
    display._about, display._normalize = about, normalize
    if include_values is None:  # include_counts=True asks for the values too
        include_values = (drawing.get("include_counts", False)
                          or n_classes <= _MAX_CLASSES_WITH_VALUES)
    return display.plot(include_values=include_values, **drawing)


def _transport_about(weighting, subpixel):
    """The default title's second line of a transport Display."""
    about = _weighting_about(weighting)
    return f"centre \u00b1 half-width, {about}" if subpixel else about


_NORMALIZED = {"true": "normalized over true classes", "pred": "normalized over predicted "
               "classes", "all": "normalized over all instances"}


def _names(parameter, names, n, what):
    """``names`` as str, one per row (or column) of the matrix; indices when None."""
    if names is None:
        return [str(k) for k in range(n)]
    names = [str(name) for name in names]
    if len(names) != n:
        raise ValueError(f"{parameter} has {len(names)} names for a matrix of {n} {what}; "
                         f"pass {n} names.")
    return names


def _class_names(display_labels, names, has_none):
    """The display names of the matrix's classes ``names`` (the builder's labels): the
    builder's by default; a user's list names every class, and "none" is appended for
    the matrices that end with it."""
    if display_labels is None:
        return [str(name) for name in names]
    display_labels = [str(name) for name in display_labels]
    n_classes = len(names) - has_none
    if has_none and len(display_labels) == n_classes:
        return display_labels + [NONE_LABEL]
    if len(display_labels) != len(names):
        plus = (f" (plus '{NONE_LABEL}'); pass {n_classes} names, or {n_classes + 1} "
                f"ending with '{NONE_LABEL}'" if has_none else f"; pass {n_classes} names")
        raise ValueError(f"display_labels has {len(display_labels)} names for {n_classes} "
                         f"classes{plus}.")
    return display_labels


def _probabilities(estimator, X):
    """``estimator.predict_proba(X)`` as an (n_samples, n_columns) array: a binary
    classifier's 1-D positive-class output completed with its negative column, a
    multi-output estimator's list of (n_samples, 2) arrays as their positive columns."""
    probabilities = estimator.predict_proba(X)
    if isinstance(probabilities, list):
        return np.column_stack([np.asarray(p)[:, -1] for p in probabilities])
    probabilities = np.asarray(probabilities)
    if probabilities.ndim == 1:
        return np.column_stack([1 - probabilities, probabilities])
    return probabilities


@_fill_doc
class TransportConfusionMatrixDisplay(_ConfusionDisplay):
    """Display of the transport-based confusion matrix.

    Mirrors :class:`sklearn.metrics.ConfusionMatrixDisplay`: the constructor only stores
    the matrix; :meth:`plot` draws it; :meth:`from_predictions` and :meth:`from_estimator`
    build it with :func:`transport_confusion_matrix` and draw it.

    Parameters
    ----------
    %(constructor)s
    half_width : ndarray of shape (n_rows, n_columns), default=None
        Half-widths of intervals centred on ``confusion_matrix`` (the sub-pixel matrix of
        :func:`subpixel_confusion_matrix` with ``form="center"``): cells with a positive
        half-width are written "centre±half-width", as Erbani et al. (2024) print
        SCM\\ :sup:`ext` in Tables 6c and 7c.

    Attributes
    ----------
    confusion_matrix : ndarray of shape (n_rows, n_columns)
        The matrix (with ``half_width``, the intervals' centres).
    half_width : ndarray of shape (n_rows, n_columns) or None
        The intervals' half-widths.
    im_ : matplotlib AxesImage
        The image of the matrix.
    text_ : ndarray of matplotlib Text, or None
        The cells' texts; None when the values are not written.
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure drawn on.

    See Also
    --------
    transport_confusion_matrix : The matrix.
    subpixel_confusion_matrix : The intervals of ``subpixel=True``.
    MLCMDisplay : The display of the multi-label confusion matrix.
    PosteriorIntervalDisplay : The posterior of each row of a count matrix.
    ClassDistributionDisplay : The class distributions behind ``order``.
    RankingComparisonDisplay : How two or more matrices rank the classes.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: equation 4 (the matrix), Section VI-A
       (``order="test-training"``), Proposition 9 and Tables 6c and 7c
       (``subpixel=True``, SCM\\ :sup:`ext`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
    >>> display = TransportConfusionMatrixDisplay.from_predictions(
    ...     [[1, 1, 0], [0, 0, 1]], [[1, 0, 1], [0, 0, 1]], weighting="true")
    >>> display.confusion_matrix.shape, [t.get_text() for t in display.ax_.get_yticklabels()]
    ((4, 4), ['0', '1', '2', 'none'])

    Intervals written as the paper prints SCM\\ :sup:`ext` (Table 6c, first row):

    >>> display = TransportConfusionMatrixDisplay(
    ...     [[121.6, 32.6], [24.0, 86.9]], half_width=[[0, 9.3], [8.0, 0]])
    >>> display = display.plot(values_format=".1f", colorbar=False)
    >>> [text.get_text() for text in display.text_.ravel()]
    ['121.6', '32.6±9.3', '24.0±8.0', '86.9']
    """

    _matrix_name = "Transport confusion matrix"

    @validate_params({**MATRIX_DISPLAY, "half_width": [None, ARRAY]})
    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None,
                 half_width=None):
        super().__init__(confusion_matrix, display_labels=display_labels,
                         column_labels=column_labels)
        if half_width is not None:
            half_width = display_array(half_width, "half_width", ndim=2, bounds=(0, None),
                                       what="half-widths")
            same_shape({"confusion_matrix": self.confusion_matrix, "half_width": half_width})
        self.half_width = half_width

    @classmethod
    @validate_params({**FROM_PREDICTIONS, **TRANSPORT_DISPLAY, **AT_THRESHOLD,
                      "reject_label": [None, Label()]})
    @_fill_doc
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None,
                         weighting="uniform", empty="null_class", subpixel=False,
                         threshold=None, pos_label=None, reject_label=None,
                         normalize=None, display_labels=None, order=None, y_train=None,
                         include_values=None, cmap="viridis", xticks_rotation="auto",
                         values_format=None, ax=None, colorbar=True, im_kw=None,
                         text_kw=None, title="auto", include_counts=False):
        """Build the transport-based confusion matrix of predictions and plot it.

        Parameters
        ----------
        y_true : array-like or sparse matrix
            Ground truth: 1-D class labels, a 2-D binary indicator matrix of shape
            (n_samples, n_classes), or 2-D non-negative soft labels.
        y_pred : array-like or sparse matrix
            Predictions, of the same kind and shape as ``y_true``; with ``threshold``,
            the 1-D scores of the positive class, or 2-D probabilities (a column per
            class) beside 1-D ``y_true``.
        %(labels)s
        %(weighting)s
        %(threshold)s
        %(reject_label)s
        %(layout)s
        %(drawing)s

        Returns
        -------
        display : TransportConfusionMatrixDisplay
            With ``confusion_matrix``, ``figure_``, ``ax_``, ``im_`` and ``text_``.

        See Also
        --------
        transport_confusion_matrix : The matrix.
        TransportConfusionMatrixDisplay.from_estimator : Predict with a fitted estimator first.
        TransportConfusionMatrixDisplay.plot : Draw a matrix computed elsewhere.
        MLCMDisplay.from_predictions : The multi-label confusion matrix.

        References
        ----------
        .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
           "Confusion Matrices: A Unified Theory". IEEE Access, 12,
           doi:10.1109/ACCESS.2024.3507199: equation 4 (the matrix), Section VI-A
           (``order="test-training"``), Proposition 9 and Tables 6c and 7c (``subpixel=True``,
           SCM\\ :sup:`ext`).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
        >>> display = TransportConfusionMatrixDisplay.from_predictions(
        ...     ["cat", "dog", "dog", "fox"], ["cat", "dog", "cat", "fox"])
        >>> display.confusion_matrix
        array([[1., 0., 0.],
               [1., 1., 0.],
               [0., 0., 1.]])
        >>> [text.get_text() for text in display.ax_.get_xticklabels()]
        ['cat', 'dog', 'fox']

        The sub-pixel intervals, as centre±half-width (the diagonal is exact):

        >>> display = TransportConfusionMatrixDisplay.from_predictions(
        ...     [[2, 1, 0, 0], [1, 0, 0, 0]], [[0, 0, 1, 2], [1, 0, 0, 0]], subpixel=True)
        >>> [text.get_text() for text in display.text_[0]]
        ['1.00', '0', '0.17±0.17', '0.50±0.17']
        >>> display.ax_.get_title()
        'Sub-pixel confusion matrix\\n(centre ± half-width, weighting: uniform)'

        The matrix of the decisions at a threshold of a score (positive where the score is
        at least 0.3):

        >>> display = TransportConfusionMatrixDisplay.from_predictions(
        ...     [0, 0, 1, 1, 1], [0.1, 0.35, 0.2, 0.3, 0.9], threshold=0.3)
        >>> display.confusion_matrix
        array([[1., 1.],
               [1., 2.]])
        >>> display.ax_.get_title()
        'Transport confusion matrix\\n(weighting: uniform, predicted 1 where score >= 0.3)'

        A classifier that abstains: its abstentions (``-1``) in a last column,
        "rejected"; or, from multiclass probabilities, the top label answered where its
        probability is at least ``threshold``:

        >>> display = TransportConfusionMatrixDisplay.from_predictions(
        ...     [0, 1, 2, 2], [0, -1, 2, -1], reject_label=-1)
        >>> display.confusion_matrix
        array([[1., 0., 0., 0.],
               [0., 0., 0., 1.],
               [0., 0., 1., 1.]])
        >>> [text.get_text() for text in display.ax_.get_xticklabels()]
        ['0', '1', '2', 'rejected']
        >>> proba = [[0.9, 0.05, 0.05], [0.4, 0.35, 0.25], [0.1, 0.1, 0.8], [0.2, 0.5, 0.3]]
        >>> display = TransportConfusionMatrixDisplay.from_predictions(
        ...     [0, 1, 2, 2], proba, threshold=0.6)
        >>> display.confusion_matrix
        array([[1., 0., 0., 0.],
               [0., 0., 0., 1.],
               [0., 0., 1., 1.]])
        """
        about = _transport_about(weighting, subpixel)
        if reject_label is not None or (threshold is not None and _ndim(y_pred) == 2):
            matrix, classes, about = _with_rejections(
                y_true, y_pred, threshold=threshold, pos_label=pos_label,
                reject_label=reject_label, labels=labels, sample_weight=sample_weight,
                weighting=weighting, empty=empty, subpixel=subpixel, about=about)
            return _plot_rejections(
                cls, matrix, classes, about, y_true=y_true, normalize=normalize,
                display_labels=display_labels, order=order, y_train=y_train,
                include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
                values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
                text_kw=text_kw, title=title, include_counts=include_counts)
        if threshold is not None:
            y_pred, labels, about = _at_threshold(y_true, y_pred, threshold, pos_label,
                                                  labels, sample_weight, about)
        elif pos_label is not None:
            raise ValueError("pos_label names the positive class of a score read at a "
                             "threshold: pass threshold= with it.")
        return cls._build_and_plot(
            _transport_builder(weighting, empty, subpixel),
            about, y_true, y_pred, labels=labels,
            sample_weight=sample_weight,
            normalize=normalize, display_labels=display_labels, order=order, y_train=y_train,
            include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
            values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
            text_kw=text_kw, title=title,
            include_counts=include_counts)

    @classmethod
    @validate_params({**FROM_ESTIMATOR, **TRANSPORT_DISPLAY, **AT_THRESHOLD,
                      "response_method": [Options("auto", "predict", "predict_proba",
                                                  "decision_function")],
                      "reject_label": [None, Label()]})
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, response_method="auto", labels=None,
                       sample_weight=None, weighting="uniform", empty="null_class",
                       subpixel=False, threshold=None, pos_label=None, reject_label=None,
                       normalize=None,
                       display_labels=None, order=None, y_train=None,
                       include_values=None, cmap="viridis", xticks_rotation="auto",
                       values_format=None, ax=None, colorbar=True, im_kw=None, text_kw=None,
                       title="auto", include_counts=False):
        """Predict with a fitted estimator, build the transport-based matrix and plot it.

        Parameters
        ----------
        %(estimator)s
            ``"decision_function"``: with ``threshold`` only, the score thresholded.
        %(labels)s
        %(weighting)s
        threshold : float, default=None
            The matrix of the decisions at a threshold of a binary classifier's score:
            the positive class's ``predict_proba`` column (``response_method="auto"``
            where the estimator has it, or ``"predict_proba"``), or its
            ``decision_function`` (``"auto"`` without ``predict_proba``, or
            ``"decision_function"``; negated where ``pos_label`` is ``classes_[0]``),
            predicted positive where at least ``threshold``. A multiclass classifier's
            ``predict_proba``: its top label answered where its probability is at least
            ``threshold``, else rejected (a last "rejected" column, as
            :meth:`from_predictions` draws it).
        pos_label : int, float, bool or str, default=None
            With ``threshold``: the positive class, ``classes_[1]`` by default (as
            scikit-learn's binary Displays).
        reject_label : int, float, bool or str, default=None
            The value of ``predict`` that says the estimator abstained (with
            ``response_method`` "auto" or "predict"): its matrix with a last "rejected"
            column, as :meth:`from_predictions` draws it.
        %(layout)s
        %(drawing)s

        Returns
        -------
        display : TransportConfusionMatrixDisplay
            With ``confusion_matrix``, ``figure_``, ``ax_``, ``im_`` and ``text_``.

        See Also
        --------
        transport_confusion_matrix : The matrix.
        TransportConfusionMatrixDisplay.from_predictions : From predictions already made.
        TransportConfusionMatrixDisplay.plot : Draw a matrix computed elsewhere.
        MLCMDisplay.from_estimator : The multi-label confusion matrix.

        References
        ----------
        .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
           "Confusion Matrices: A Unified Theory". IEEE Access, 12,
           doi:10.1109/ACCESS.2024.3507199: equation 4 (the matrix), Section VI-A
           (``order="test-training"``), Proposition 9 and Tables 6c and 7c (``subpixel=True``,
           SCM\\ :sup:`ext`).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> model = LogisticRegression(max_iter=500).fit(X, y)
        >>> display = TransportConfusionMatrixDisplay.from_estimator(
        ...     model, X, y, response_method="predict_proba")
        >>> [text.get_text() for text in display.ax_.get_xticklabels()]  # classes_, no "none"
        ['0', '1', '2']
        >>> display.confusion_matrix.sum(axis=1).round(6)  # 50 flowers of each species
        array([50., 50., 50.])
        >>> [text.get_text() for text in display.text_[0]]  # a mass below 0.05 is "<0.1"
        ['48.8', '1.2', '<0.1']
        >>> display = TransportConfusionMatrixDisplay.from_estimator(
        ...     model, X, y, response_method="predict_proba", normalize="true")
        >>> display.ax_.get_title()
        'Transport confusion matrix\\n(weighting: uniform, normalized over true classes)'
        >>> [text.get_text() for text in display.text_[0]]
        ['0.98', '0.02', '<0.01']
        """
        owner = "TransportConfusionMatrixDisplay.from_estimator"
        if reject_label is not None:
            if threshold is not None or response_method not in ("auto", "predict"):
                raise ValueError(f"reject_label={reject_label!r} reads the abstentions of "
                                 "predict (response_method 'auto' or 'predict'); threshold= "
                                 "on predict_proba rejects below it: pass one of them.")
            check_target_set({"y": y}, one_hot=False)
            return cls.from_predictions(
                y, estimator.predict(X), labels=labels, sample_weight=sample_weight,
                weighting=weighting, empty=empty, subpixel=subpixel,
                reject_label=reject_label, normalize=normalize,
                display_labels=display_labels, order=order, y_train=y_train,
                include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
                values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
                text_kw=text_kw, title=title, include_counts=include_counts)
        if threshold is None and pos_label is not None:
            raise ValueError("pos_label names the positive class of a score read at a "
                             "threshold: pass threshold= with it.")
        if threshold is None and response_method == "decision_function":
            raise ValueError("response_method='decision_function' gives scores, read at a "
                             "threshold: pass threshold= with it.")
        if threshold is not None:
            if response_method == "predict":
                raise ValueError("threshold= reads a score (predict_proba or "
                                 "decision_function), not response_method='predict'.")
            scores, classes = estimator_scores(estimator, X, y, response_method, owner)
            if classes is not None and len(classes) > 2 and scores.ndim == 2:
                if response_method == "decision_function" or not hasattr(
                        estimator, "predict_proba"):
                    raise ValueError(f"{owner}: threshold= on a multiclass classifier is a "
                                     "threshold of its top probability: it reads "
                                     "predict_proba, which the response_method does not "
                                     "give; pass response_method='predict_proba'.")
                score = scores  # the top label answered where its probability >= threshold
            else:
                score, pos_label = positive_column(scores, classes, pos_label, owner)
            return cls.from_predictions(
                y, score, labels=classes if labels is None else labels,
                sample_weight=sample_weight, weighting=weighting, empty=empty,
                subpixel=subpixel, threshold=threshold, pos_label=pos_label,
                normalize=normalize, display_labels=display_labels, order=order,
                y_train=y_train, include_values=include_values, cmap=cmap,
                xticks_rotation=xticks_rotation, values_format=values_format, ax=ax,
                colorbar=colorbar, im_kw=im_kw, text_kw=text_kw, title=title,
                include_counts=include_counts)
        return cls._predict_and_plot(
            _transport_builder(weighting, empty, subpixel),
            _transport_about(weighting, subpixel), estimator, X, y,
            response_method=response_method, labels=labels,
            sample_weight=sample_weight, normalize=normalize, display_labels=display_labels,
            order=order, y_train=y_train, include_values=include_values, cmap=cmap,
            xticks_rotation=xticks_rotation, values_format=values_format, ax=ax,
            colorbar=colorbar, im_kw=im_kw, text_kw=text_kw, title=title,
            include_counts=include_counts)

    @classmethod
    @validate_params({**CV_MATRICES, **{name: declared for name, declared in
                                        DISPLAY_PLOT.items() if name != "include_counts"},
                      "values": [Options("mean", "pooled")],
                      "display_labels": [None, ARRAY], "include_values": [None, BOOLEAN]})
    @_fill_doc
    def from_cv_results(cls, cv_results, X, y, *, response_method="auto", labels=None,
                        sample_weight=None, weighting="uniform", empty="null_class",
                        normalize=None, values="mean", cv=None, groups=None, n_jobs=None,
                        display_labels=None, include_values=None, cmap="viridis",
                        xticks_rotation="auto", values_format=None, ax=None, colorbar=True,
                        im_kw=None, text_kw=None, title="auto"):
        """Draw the transport confusion matrix over the folds of a cross-validation.

        The folds' matrices are :func:`cross_validated_confusion_matrices`'; the cells are
        colored by their mean over the folds and written "mean±std" (``values="mean"``),
        or by the pooled matrix (every test instance once), written "pooled±spread"
        where the spread is the folds' standard deviation on the pooled matrix's scale:
        the rates' own with ``normalize``, ``n_folds`` times the counts' without
        (``values="pooled"``). The signature mirrors scikit-learn's
        ``RocCurveDisplay.from_cv_results(cv_results, X, y, ...)``.

        Parameters
        ----------
        cv_results : dict or estimator
            ``cross_validate``'s result with ``return_estimator=True`` and
            ``return_indices=True``, or an unfitted estimator cross-validated here on
            ``cv``'s folds (as :func:`cross_validated_confusion_matrices` reads it).
        X : array-like of shape (n_samples, n_features)
            The inputs cross_validate was called with.
        y : array-like of shape (n_samples,) or (n_samples, n_classes)
            The targets it was called with.
        response_method, labels, sample_weight, weighting, empty, normalize, cv, groups, \
n_jobs
            As in :func:`cross_validated_confusion_matrices`.
        values : {"mean", "pooled"}, default="mean"
            The matrix drawn: the mean of the folds' matrices, or the pooled one.
        display_labels : list of str, default=None
            Names of the classes; the class labels by default.
        include_values : bool, default=None
            Write the value of each cell; by default only up to 20 classes.
        %(drawing_no_counts)s

        Returns
        -------
        display : TransportConfusionMatrixDisplay
            With ``confusion_matrix`` (the drawn matrix), ``half_width`` (the spread
            written beside each cell), ``cv_matrices`` (the
            :class:`CrossValidatedConfusionResult`), ``figure_``, ``ax_``, ``im_`` and
            ``text_``.

        See Also
        --------
        cross_validated_confusion_matrices : The folds' matrices.
        cross_validation_report : Precision, recall and F1 across folds.
        TransportConfusionMatrixDisplay.from_estimator : One fitted model, one test set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.model_selection import cross_validate
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(DecisionTreeClassifier(random_state=0), X, y,
        ...                             cv=5, return_estimator=True, return_indices=True)
        >>> display = TransportConfusionMatrixDisplay.from_cv_results(
        ...     cv_results, X, y, normalize="true")
        >>> [text.get_text() for text in display.text_[1]]
        ['0', '0.94±0.09', '0.06±0.09']
        >>> display.ax_.get_title()
        'Transport confusion matrix over 5 folds\\n(mean ± std, weighting: uniform, \
normalized over true classes)'
        """
        result = cross_validated_confusion_matrices(
            cv_results, X, y, response_method=response_method, labels=labels,
            sample_weight=sample_weight, weighting=weighting, empty=empty,
            normalize=normalize, cv=cv, groups=groups, n_jobs=n_jobs)
        if values == "mean":
            matrix, spread = result.mean, result.std
        else:
            matrix = result.pooled
            spread = result.std * (1 if normalize is not None else result.n_folds)
        names = _class_names(display_labels, result.display_labels,
                             result.display_labels[-1:] == [NONE_LABEL])
        display = cls(matrix, display_labels=names,
                      half_width=np.nan_to_num(spread))
        display.cv_matrices = result
        display._matrix_name = f"{cls._matrix_name} over {result.n_folds} folds"
        spread_name = "mean ± std" if values == "mean" else "pooled ± spread"
        display._about = f"{spread_name}, {_transport_about(weighting, False)}"
        display._normalize = normalize
        if include_values is None:
            include_values = matrix.shape[0] <= _MAX_CLASSES_WITH_VALUES
        return display.plot(include_values=include_values, cmap=cmap,
                            xticks_rotation=xticks_rotation, values_format=values_format,
                            ax=ax, colorbar=colorbar, im_kw=im_kw, text_kw=text_kw,
                            title=title)


@_fill_doc
class MLCMDisplay(_ConfusionDisplay):
    """Display of the multi-label confusion matrix (MLCM).

    Like :class:`TransportConfusionMatrixDisplay`, with :func:`mlcm` as the builder. The
    last row is NTL (no true label) and the last column NPL (no predicted label), both
    named "none".

    Parameters
    ----------
    %(constructor)s

    Attributes
    ----------
    confusion_matrix : ndarray of shape (n_rows, n_columns)
        The matrix.
    im_ : matplotlib AxesImage
        The image of the matrix.
    text_ : ndarray of matplotlib Text, or None
        The cells' texts; None when the values are not written.
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure drawn on.

    See Also
    --------
    mlcm : The matrix.
    TransportConfusionMatrixDisplay : The display of the transport-based matrix.
    PosteriorIntervalDisplay : The posterior of each row of a count matrix.
    ClassDistributionDisplay : The class distributions of the labels.

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048:
       Algorithms 2-5 and Table 4 (the matrix, its NTL row and NPL column).
    .. [2] Krstinic, D., Skelin, A. K., Slapnicar, I. and Braovic, M. (2024).
       "Multi-label confusion tensor". IEEE Access, 12, 9860-9870 (``method="krstinic"``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import MLCMDisplay
    >>> display = MLCMDisplay.from_predictions([[1, 1, 0], [0, 1, 0]], [[1, 0, 1], [0, 1, 0]])
    >>> display.confusion_matrix
    array([[1., 0., 0., 0.],
           [0., 1., 1., 0.],
           [0., 0., 0., 0.],
           [0., 0., 0., 0.]])
    """

    _matrix_name = "MLCM"

    @validate_params(MATRIX_DISPLAY)
    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None):
        super().__init__(confusion_matrix, display_labels=display_labels,
                         column_labels=column_labels)

    @classmethod
    @validate_params({**FROM_PREDICTIONS, **MLCM_DISPLAY})
    @_fill_doc
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None,
                         method="heydarian", normalize=None, display_labels=None, order=None,
                         y_train=None, include_values=None, cmap="viridis",
                         xticks_rotation="auto", values_format=None, ax=None,
                         colorbar=True, im_kw=None, text_kw=None, title="auto",
                         include_counts=False):
        """Build the multi-label confusion matrix of predictions and plot it.

        Parameters
        ----------
        y_true : array-like or sparse matrix of shape (n_samples, n_classes)
            Binary indicator matrix of the true labels; 1-D class labels are read as
            one-hot rows.
        y_pred : array-like or sparse matrix of shape (n_samples, n_classes)
            Binary indicator matrix of the predicted labels.
        %(labels)s
        %(method)s
        %(layout)s
        %(drawing)s

        Returns
        -------
        display : MLCMDisplay
            With ``confusion_matrix``, ``figure_``, ``ax_``, ``im_`` and ``text_``.

        See Also
        --------
        mlcm : The matrix.
        MLCMDisplay.from_estimator : Predict with a fitted estimator first.
        MLCMDisplay.plot : Draw a matrix computed elsewhere.
        TransportConfusionMatrixDisplay.from_predictions : The transport-based matrix.

        References
        ----------
        .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
           Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048:
           Algorithms 2-5 and Table 4 (the matrix, its NTL row and NPL column).
        .. [2] Krstinic, D., Skelin, A. K., Slapnicar, I. and Braovic, M. (2024).
           "Multi-label confusion tensor". IEEE Access, 12, 9860-9870 (``method="krstinic"``).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import MLCMDisplay
        >>> display = MLCMDisplay.from_predictions(
        ...     [[1, 1, 0], [0, 1, 0]], [[1, 0, 1], [0, 1, 0]], method="krstinic",
        ...     display_labels=["sky", "sea", "sand", "none"])
        >>> display.confusion_matrix
        array([[1., 0., 0., 0.],
               [0., 1., 1., 0.],
               [0., 0., 0., 0.],
               [0., 0., 0., 0.]])
        >>> [text.get_text() for text in display.ax_.get_yticklabels()]
        ['sky', 'sea', 'sand', 'none']
        """
        build = functools.partial(mlcm_confusion, method=method)
        return cls._build_and_plot(
            build, method, y_true, y_pred, labels=labels, sample_weight=sample_weight,
            normalize=normalize, display_labels=display_labels, order=order, y_train=y_train,
            include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
            values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
            text_kw=text_kw, title=title,
            include_counts=include_counts)

    @classmethod
    @validate_params({**FROM_ESTIMATOR, **MLCM_DISPLAY})
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, response_method="auto", labels=None,
                       sample_weight=None, method="heydarian", normalize=None,
                       display_labels=None, order=None, y_train=None, include_values=None,
                       cmap="viridis", xticks_rotation="auto", values_format=None,
                       ax=None, colorbar=True, im_kw=None, text_kw=None, title="auto",
                       include_counts=False):
        """Predict with a fitted estimator, build the multi-label matrix and plot it.

        Parameters
        ----------
        %(estimator)s
            MLCM takes 0/1 predictions: use ``"predict"`` (or ``"auto"``).
        %(labels)s
        %(method)s
        %(layout)s
        %(drawing)s

        Returns
        -------
        display : MLCMDisplay
            With ``confusion_matrix``, ``figure_``, ``ax_``, ``im_`` and ``text_``.

        See Also
        --------
        mlcm : The matrix.
        MLCMDisplay.from_predictions : From predictions already made.
        MLCMDisplay.plot : Draw a matrix computed elsewhere.
        TransportConfusionMatrixDisplay.from_estimator : The transport-based matrix.

        References
        ----------
        .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
           Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048:
           Algorithms 2-5 and Table 4 (the matrix, its NTL row and NPL column).
        .. [2] Krstinic, D., Skelin, A. K., Slapnicar, I. and Braovic, M. (2024).
           "Multi-label confusion tensor". IEEE Access, 12, 9860-9870 (``method="krstinic"``).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import make_multilabel_classification
        >>> from sklearn.neighbors import KNeighborsClassifier
        >>> from sklearn_confusion_ext import MLCMDisplay
        >>> X, Y = make_multilabel_classification(n_samples=200, n_classes=3, random_state=0)
        >>> model = KNeighborsClassifier().fit(X[:150], Y[:150])
        >>> display = MLCMDisplay.from_estimator(model, X[150:], Y[150:])
        >>> display.confusion_matrix.shape
        (4, 4)
        """
        build = functools.partial(mlcm_confusion, method=method)
        return cls._predict_and_plot(
            build, method, estimator, X, y, response_method=response_method, labels=labels,
            sample_weight=sample_weight, normalize=normalize, display_labels=display_labels,
            order=order, y_train=y_train, include_values=include_values, cmap=cmap,
            xticks_rotation=xticks_rotation, values_format=values_format, ax=ax,
            colorbar=colorbar, im_kw=im_kw, text_kw=text_kw, title=title,
            include_counts=include_counts)


def _weighting_about(weighting):
    """The weighting as the default title says it: its option, or the callable's name."""
    name = weighting if isinstance(weighting, str) else getattr(
        weighting, "__name__", type(weighting).__name__)
    return f"weighting: {name}"


def _test_training_order(confusion, y_true, y_train, labels):
    """Positions (into the selected matrix) by test and by training prevalence."""
    if labels is None and not confusion.has_none:  # 1-D labels: the matrix's own classes
        labels = [confusion.display_labels[i] for i in confusion.selection]
    rows, columns = prevalence_ranking(y_true, y_train, labels=labels)
    if confusion.has_none:  # "none" stays last
        none = len(confusion.selection) - 1
        rows, columns = np.append(rows, none), np.append(columns, none)
    return rows, columns
