"""Displays of the confusion matrices, built like ``sklearn.metrics.ConfusionMatrixDisplay``.

matplotlib is optional: it is imported inside ``plot``, after a check that raises a helpful
``ImportError`` when it is missing. Constructors only store data; the ``from_*``
classmethods build the matrix with the library's functions and call ``plot``.
"""

import numpy as np

from .._core.confusion import NORMALIZE_OPTIONS, normalize_confusion
from .._core.validation import check_option
from .._mlcm import mlcm_confusion
from .._reading import prevalence_ranking
from .._transport import transport_confusion
from .matplotlib_check import check_matplotlib

# Above this many classes, values are hidden unless include_values=True is passed.
_MAX_CLASSES_WITH_VALUES = 20


class _ConfusionDisplay:
    def __init__(self, confusion_matrix, *, display_labels=None, column_labels=None):
        self.confusion_matrix = np.asarray(confusion_matrix)
        self.display_labels = display_labels
        self.column_labels = column_labels

    def plot(self, *, include_values=True, cmap="viridis", xticks_rotation="horizontal",
             values_format=None, ax=None, colorbar=True, im_kw=None, text_kw=None):
        """Draw the matrix.

        Parameters
        ----------
        include_values : bool, default=True
            Write the value of each cell.
        cmap : str or matplotlib Colormap, default="viridis"
        xticks_rotation : {"vertical", "horizontal"} or float, default="horizontal"
        values_format : str, default=None
            Format of the values; integers if every value is one, ``".2g"`` otherwise.
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure otherwise.
        colorbar : bool, default=True
        im_kw, text_kw : dict, default=None
            Extra arguments of ``imshow`` and ``text``.

        Returns
        -------
        self
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
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None,
                         normalize=None, display_labels=None, order=None, y_train=None,
                         include_values=None, ax=None, **params):
        """Build the matrix from predictions and plot it.

        Parameters
        ----------
        y_true, y_pred : array-like or sparse matrix
            Targets, as the matrix function of the display takes them.
        labels, sample_weight
            As in that function.
        normalize : {"true", "pred", "all"}, default=None
            Normalize over rows, columns or the whole matrix.
        display_labels : list, default=None
            Names of the rows and columns (the last class of 2-D targets is "none").
        order : {"test-training"}, default=None
            Order rows by prevalence in ``y_true`` and columns by prevalence in ``y_train``
            (or ``y_true``), most common first (Erbani et al. 2024, Section VI-A); "none"
            stays last.
        y_train : array-like, default=None
            Training targets for ``order="test-training"``.
        include_values : bool, default=None
            Write the values; by default only up to 20 classes.
        ax : matplotlib Axes, default=None
        **params
            Other parameters of the matrix function (``weighting``, ``empty``,
            ``method``) and of :meth:`plot`.

        Returns
        -------
        display
        """
        plot_keys = ("cmap", "xticks_rotation", "values_format", "colorbar", "im_kw",
                     "text_kw")
        plot_params = {key: params.pop(key) for key in plot_keys if key in params}
        check_option("order", order, (None, "test-training"))
        confusion = cls._confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                                   **params)
        matrix, names = confusion.selected(), confusion.selected_labels()
        rows = columns = np.arange(len(names))
        if order == "test-training":
            rows, columns = _test_training_order(confusion, y_true, y_train, labels)
        check_option("normalize", normalize, NORMALIZE_OPTIONS)
        matrix = normalize_confusion(matrix, normalize)[np.ix_(rows, columns)]
        if display_labels is None:
            display_labels = [str(name) for name in names]
        row_labels = [display_labels[i] for i in rows]
        column_labels = [display_labels[i] for i in columns]
        display = cls(matrix, display_labels=row_labels,
                      column_labels=None if column_labels == row_labels else column_labels)
        if include_values is None:
            include_values = matrix.shape[0] <= _MAX_CLASSES_WITH_VALUES
        return display.plot(include_values=include_values, ax=ax, **plot_params)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, response_method="auto", **params):
        """Predict with a fitted estimator, build the matrix and plot it.

        Parameters
        ----------
        estimator : fitted classifier
        X : array-like
        y : array-like or sparse matrix
            True targets.
        response_method : {"auto", "predict", "predict_proba"}, default="auto"
            ``"predict"``: hard predictions (the classic matrix on single labels);
            ``"predict_proba"``: probabilities as soft predictions; ``"auto"``:
            ``"predict"``.
        **params
            As in :meth:`from_predictions`.

        Returns
        -------
        display
        """
        check_option("response_method", response_method, ("auto", "predict", "predict_proba"))
        if response_method == "predict_proba":
            from .._scorer import _predictions

            y_pred, y = _predictions(estimator, X, y, "predict_proba")
            params.setdefault("display_labels", None)
            if params["display_labels"] is None and np.asarray(y).ndim == 2:
                params["display_labels"] = [str(c) for c in estimator.classes_] + ["none"]
        else:
            y_pred = estimator.predict(X)
        return cls.from_predictions(y, y_pred, **params)


class TransportConfusionMatrixDisplay(_ConfusionDisplay):
    """Display of the transport-based confusion matrix.

    Mirrors :class:`sklearn.metrics.ConfusionMatrixDisplay`; build it with
    :meth:`from_predictions` or :meth:`from_estimator` (their extra parameters go to
    :func:`transport_confusion_matrix`: ``weighting``, ``empty``).

    Parameters
    ----------
    confusion_matrix : ndarray of shape (n_rows, n_columns)
    display_labels : list, default=None
        Row names (and column names unless ``column_labels`` is given).
    column_labels : list, default=None
        Column names when the columns are ordered differently.

    Attributes
    ----------
    confusion_matrix, im_, text_, ax_, figure_

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

    @staticmethod
    def _confusion(y_true, y_pred, *, labels, sample_weight, weighting="uniform",
                   empty="null_class"):
        return transport_confusion(y_true, y_pred, labels=labels, weighting=weighting,
                                   sample_weight=sample_weight, empty=empty)


class MLCMDisplay(_ConfusionDisplay):
    """Display of the multi-label confusion matrix (MLCM).

    Like :class:`TransportConfusionMatrixDisplay`; the extra parameter of the ``from_*``
    methods is ``method`` ("heydarian" or "krstinic"). The last row is NTL and the last
    column NPL, both labelled "none".

    Parameters
    ----------
    confusion_matrix : ndarray of shape (n_rows, n_columns)
    display_labels, column_labels : list, default=None

    Attributes
    ----------
    confusion_matrix, im_, text_, ax_, figure_

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

    @staticmethod
    def _confusion(y_true, y_pred, *, labels, sample_weight, method="heydarian"):
        return mlcm_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                              method=method)


def _test_training_order(confusion, y_true, y_train, labels):
    """Positions (into the selected matrix) by test and by training prevalence."""
    if labels is None and not confusion.has_none:  # 1-D labels: the matrix's own classes
        labels = [confusion.display_labels[i] for i in confusion.selection]
    rows, columns = prevalence_ranking(y_true, y_train, labels=labels)
    if confusion.has_none:  # "none" stays last
        none = len(confusion.selection) - 1
        rows, columns = np.append(rows, none), np.append(columns, none)
    return rows, columns
