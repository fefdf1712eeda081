"""Displays of the confusion matrices, built like ``sklearn.metrics.ConfusionMatrixDisplay``.

matplotlib is optional: it is imported inside ``plot``, after a check that raises a helpful
``ImportError`` when it is missing. Constructors only store data; the ``from_*``
classmethods build the matrix with the library's functions and call ``plot``.

Each public Display lists every keyword of its ``from_*`` methods (its builder's own, then
the layout and drawing keywords), checked by :func:`validate_params` before any work, and
hands them, with its builder, to the shared implementation in ``_ConfusionDisplay``.
Parameter docs shared by several methods are written once below and filled in by
:func:`_fill_doc`.
"""

import functools
import inspect

import numpy as np

from .._core.confusion import normalize_confusion
from .._core.params import validate_params
from .._mlcm import mlcm_confusion
from .._reading import prevalence_ranking
from .._transport import transport_confusion
from .matplotlib_check import check_matplotlib

# Above this many classes, values are hidden unless include_values=True is passed.
_MAX_CLASSES_WITH_VALUES = 20

_DOCS = {
    "constructor": """\
confusion_matrix : ndarray of shape (n_rows, n_columns)
    The matrix to draw, rows true classes and columns predicted classes.
display_labels : list of str, default=None
    Row names (and column names unless ``column_labels`` is given); row and column
    indices by default.
column_labels : list of str, default=None
    Column names, when the columns are ordered differently from the rows.""",
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
    Names of the classes, in the order of the matrix's rows before ``order`` (the last
    class of 2-D targets is "none"); the class labels by default.
order : {"test-training"}, default=None
    Order rows by prevalence in ``y_true`` and columns by prevalence in ``y_train`` (or
    ``y_true``), most common first (Erbani et al. 2024, Section VI-A); "none" stays last.
    None keeps the classes' order.
y_train : array-like, default=None
    Training targets, for ``order="test-training"``.
include_values : bool, default=None
    Write the value of each cell; by default only up to 20 classes.""",
    "drawing": """\
cmap : str or matplotlib Colormap, default="viridis"
    Colormap of the cells.
xticks_rotation : {"vertical", "horizontal"} or float, default="horizontal"
    Rotation of the column names.
values_format : str, default=None
    Format of the values (``format(value, values_format)``); integers if every value is
    one, ``".2g"`` otherwise.
ax : matplotlib Axes, default=None
    Axes to draw on; a new figure otherwise.
colorbar : bool, default=True
    Draw a colorbar.
im_kw : dict, default=None
    Extra keyword arguments of ``matplotlib.axes.Axes.imshow``.
text_kw : dict, default=None
    Extra keyword arguments of ``matplotlib.axes.Axes.text``.""",
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
    ``"predict_proba"``: the predicted probabilities as soft predictions, the true labels
    as one-hot rows (the columns are then named by ``estimator.classes_``, plus "none");
    ``"auto"``: ``"predict"``.""",
    "weighting": """\
weighting : {"uniform", "true", "pred"} or callable, default="uniform"
    Weight of each instance's transport plan, as in :func:`transport_confusion_matrix`.
empty : {"null_class", "skip", "error"}, default="null_class"
    What to do with an instance whose label or prediction has no mass, as in
    :func:`transport_confusion_matrix`.""",
    "method": """\
method : {"heydarian", "krstinic"}, default="heydarian"
    Which multi-label confusion matrix, as in :func:`mlcm`.""",
}


def _fill_doc(documented):
    """Fill the ``%(name)s`` fields of a function's or class's docstring with ``_DOCS``."""
    documented.__doc__ = inspect.cleandoc(documented.__doc__) % _DOCS
    return documented


class _ConfusionDisplay:
    """What the confusion-matrix Displays share: storing, drawing, building and drawing."""

    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None):
        self.confusion_matrix = np.asarray(confusion_matrix)
        self.display_labels = display_labels
        self.column_labels = column_labels

    # The two Displays' plot declarations are one (DISPLAY_PLOT in _core/params.py); errors
    # name the class the method is called on.
    @validate_params("TransportConfusionMatrixDisplay.plot")
    @_fill_doc
    def plot(self, *, include_values=True, cmap="viridis", xticks_rotation="horizontal",
             values_format=None, ax=None, colorbar=True, im_kw=None, text_kw=None):
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

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
        >>> display = TransportConfusionMatrixDisplay([[2.0, 1.0], [0.5, 3.0]],
        ...                                           display_labels=["cat", "dog"])
        >>> display = display.plot(values_format=".1f", colorbar=False)
        >>> [text.get_text() for text in display.text_.ravel()]
        ['2.0', '1.0', '0.5', '3.0']
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        if ax is None:
            fig, ax = plt.subplots()
        else:
            fig = ax.figure
        matrix = self.confusion_matrix
        n_rows, n_columns = matrix.shape
        im_kw = {"interpolation": "nearest", "cmap": cmap, **(im_kw or {})}
        self.im_ = ax.imshow(matrix, **im_kw)
        self.text_ = None
        if include_values:
            self.text_ = np.empty_like(matrix, dtype=object)
            low, high = self.im_.cmap(0), self.im_.cmap(1.0)
            threshold = (matrix.max() + matrix.min()) / 2.0
            integral = np.allclose(matrix, np.round(matrix))
            for i, j in np.ndindex(matrix.shape):
                value = matrix[i, j]
                if values_format is not None:
                    text = format(value, values_format)
                else:
                    text = f"{value:.0f}" if integral else format(value, ".2g")
                color = low if value > threshold else high
                self.text_[i, j] = ax.text(j, i, text, ha="center", va="center",
                                           color=color, **(text_kw or {}))
        if colorbar:
            fig.colorbar(self.im_, ax=ax)
        rows = np.arange(n_rows) if self.display_labels is None else self.display_labels
        columns = rows if self.column_labels is None else self.column_labels
        ax.set(xticks=np.arange(n_columns), yticks=np.arange(n_rows), xticklabels=columns,
               yticklabels=rows, ylabel="True label", xlabel="Predicted label")
        ax.set_ylim((n_rows - 0.5, -0.5))
        plt.setp(ax.get_xticklabels(), rotation=xticks_rotation)
        self.figure_, self.ax_ = fig, ax
        return self

    @classmethod
    def _build_and_plot(cls, build, y_true, y_pred, *, labels, sample_weight, normalize,
                        display_labels, order, y_train, include_values, **drawing):
        """The ``from_predictions`` of every Display, on checked parameters: ``build(y_true,
        y_pred, labels=, sample_weight=)`` is the Display's builder with its own keywords."""
        if y_train is not None and order is None:
            raise ValueError("y_train is read only to order the columns: pass "
                             "order='test-training' with it.")
        confusion = build(y_true, y_pred, labels=labels, sample_weight=sample_weight)
        matrix, names = confusion.selected(), confusion.selected_labels()
        rows = columns = np.arange(len(names))
        if order == "test-training":
            rows, columns = _test_training_order(confusion, y_true, y_train, labels)
        matrix = normalize_confusion(matrix, normalize)[np.ix_(rows, columns)]
        if display_labels is None:
            display_labels = [str(name) for name in names]
        row_labels = [display_labels[i] for i in rows]
        column_labels = [display_labels[i] for i in columns]
        display = cls(matrix, display_labels=row_labels,
                      column_labels=None if column_labels == row_labels else column_labels)
        if include_values is None:
            include_values = matrix.shape[0] <= _MAX_CLASSES_WITH_VALUES
        return display.plot(include_values=include_values, **drawing)

    @classmethod
    def _predict_and_plot(cls, build, estimator, X, y, *, response_method, display_labels,
                          **keywords):
        """The ``from_estimator`` of every Display, on checked parameters."""
        if response_method == "predict_proba":
            from .._scorer import _predictions

            y_pred, y_true = _predictions(estimator, X, y, "predict_proba")
            if display_labels is None and y_true is not y:  # labels became one-hot rows
                display_labels = [str(c) for c in estimator.classes_] + ["none"]
        else:
            y_pred, y_true = estimator.predict(X), y
        return cls._build_and_plot(build, y_true, y_pred, display_labels=display_labels,
                                   **keywords)


@_fill_doc
class TransportConfusionMatrixDisplay(_ConfusionDisplay):
    """Display of the transport-based confusion matrix.

    Mirrors :class:`sklearn.metrics.ConfusionMatrixDisplay`: the constructor only stores
    the matrix; :meth:`plot` draws it; :meth:`from_predictions` and :meth:`from_estimator`
    build it with :func:`transport_confusion_matrix` and draw it.

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
    transport_confusion_matrix : The matrix.
    MLCMDisplay : The display of the multi-label confusion matrix.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import TransportConfusionMatrixDisplay
    >>> display = TransportConfusionMatrixDisplay.from_predictions(
    ...     [[1, 1, 0], [0, 0, 1]], [[1, 0, 1], [0, 0, 1]], weighting="true")
    >>> display.confusion_matrix.shape, [t.get_text() for t in display.ax_.get_yticklabels()]
    ((4, 4), ['0', '1', '2', 'none'])
    """

    @validate_params("TransportConfusionMatrixDisplay")
    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None):
        super().__init__(confusion_matrix, display_labels=display_labels,
                         column_labels=column_labels)

    @classmethod
    @validate_params()
    @_fill_doc
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None,
                         weighting="uniform", empty="null_class", normalize=None,
                         display_labels=None, order=None, y_train=None, include_values=None,
                         cmap="viridis", xticks_rotation="horizontal", values_format=None,
                         ax=None, colorbar=True, im_kw=None, text_kw=None):
        """Build the transport-based confusion matrix of predictions and plot it.

        Parameters
        ----------
        y_true : array-like or sparse matrix
            Ground truth: 1-D class labels, a 2-D binary indicator matrix of shape
            (n_samples, n_classes), or 2-D non-negative soft labels.
        y_pred : array-like or sparse matrix
            Predictions, of the same kind and shape as ``y_true``.
        %(labels)s
        %(weighting)s
        %(layout)s
        %(drawing)s

        Returns
        -------
        display : TransportConfusionMatrixDisplay
            With ``confusion_matrix``, ``figure_``, ``ax_``, ``im_`` and ``text_``.

        See Also
        --------
        transport_confusion_matrix : The matrix.

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
        """
        build = functools.partial(transport_confusion, weighting=weighting, empty=empty)
        return cls._build_and_plot(
            build, y_true, y_pred, labels=labels, sample_weight=sample_weight,
            normalize=normalize, display_labels=display_labels, order=order, y_train=y_train,
            include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
            values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
            text_kw=text_kw)

    @classmethod
    @validate_params()
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, response_method="auto", labels=None,
                       sample_weight=None, weighting="uniform", empty="null_class",
                       normalize=None, display_labels=None, order=None, y_train=None,
                       include_values=None, cmap="viridis", xticks_rotation="horizontal",
                       values_format=None, ax=None, colorbar=True, im_kw=None, text_kw=None):
        """Predict with a fitted estimator, build the transport-based matrix and plot it.

        Parameters
        ----------
        %(estimator)s
        %(labels)s
        %(weighting)s
        %(layout)s
        %(drawing)s

        Returns
        -------
        display : TransportConfusionMatrixDisplay
            With ``confusion_matrix``, ``figure_``, ``ax_``, ``im_`` and ``text_``.

        See Also
        --------
        transport_confusion_matrix : The matrix.

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
        ...     model, X, y, response_method="predict_proba", values_format=".1f")
        >>> [text.get_text() for text in display.ax_.get_xticklabels()]
        ['0', '1', '2', 'none']
        >>> display.confusion_matrix.sum(axis=1).round(6)  # 50 flowers of each species
        array([50., 50., 50.,  0.])
        """
        build = functools.partial(transport_confusion, weighting=weighting, empty=empty)
        return cls._predict_and_plot(
            build, estimator, X, y, response_method=response_method, labels=labels,
            sample_weight=sample_weight, normalize=normalize, display_labels=display_labels,
            order=order, y_train=y_train, include_values=include_values, cmap=cmap,
            xticks_rotation=xticks_rotation, values_format=values_format, ax=ax,
            colorbar=colorbar, im_kw=im_kw, text_kw=text_kw)


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

    @validate_params("MLCMDisplay")
    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None):
        super().__init__(confusion_matrix, display_labels=display_labels,
                         column_labels=column_labels)

    @classmethod
    @validate_params()
    @_fill_doc
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None,
                         method="heydarian", normalize=None, display_labels=None, order=None,
                         y_train=None, include_values=None, cmap="viridis",
                         xticks_rotation="horizontal", values_format=None, ax=None,
                         colorbar=True, im_kw=None, text_kw=None):
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
            build, y_true, y_pred, labels=labels, sample_weight=sample_weight,
            normalize=normalize, display_labels=display_labels, order=order, y_train=y_train,
            include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
            values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
            text_kw=text_kw)

    @classmethod
    @validate_params()
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, response_method="auto", labels=None,
                       sample_weight=None, method="heydarian", normalize=None,
                       display_labels=None, order=None, y_train=None, include_values=None,
                       cmap="viridis", xticks_rotation="horizontal", values_format=None,
                       ax=None, colorbar=True, im_kw=None, text_kw=None):
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
            build, estimator, X, y, response_method=response_method, labels=labels,
            sample_weight=sample_weight, normalize=normalize, display_labels=display_labels,
            order=order, y_train=y_train, include_values=include_values, cmap=cmap,
            xticks_rotation=xticks_rotation, values_format=values_format, ax=ax,
            colorbar=colorbar, im_kw=im_kw, text_kw=text_kw)


def _test_training_order(confusion, y_true, y_train, labels):
    """Positions (into the selected matrix) by test and by training prevalence."""
    if labels is None and not confusion.has_none:  # 1-D labels: the matrix's own classes
        labels = [confusion.display_labels[i] for i in confusion.selection]
    rows, columns = prevalence_ranking(y_true, y_train, labels=labels)
    if confusion.has_none:  # "none" stays last
        none = len(confusion.selection) - 1
        rows, columns = np.append(rows, none), np.append(columns, none)
    return rows, columns
