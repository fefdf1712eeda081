"""Bars of the class distributions of the test and training labels (Erbani et al. 2024,
Figure 3)."""

import numpy as np

from .._core.docs import fill_doc
from .._core.params import ARRAY, HasMethods, Options, validate_params
from .._core.targets import check_target_set
from .data_checks import display_array
from .declarations import FIGSIZE
from .layout import grown_size, set_class_ticks, short_names
from .matplotlib_check import check_matplotlib

# Up to this many classes the bars stand (names below them); above, they lie (names beside
# them, written horizontally).
_MAX_CLASSES_STANDING = 25

_DOCS = {
    "drawing": """\
order : {"training", "test"} or None, default="training"
    Order of the classes: by decreasing training prevalence (the columns of the
    test-training ranking; the test prevalence without training labels), by decreasing
    test prevalence (its rows), or None for the classes' order. Ties keep class order.
ax : matplotlib Axes, default=None
    Axes to draw on. By default a new figure sized to the number of classes (at most
    12 x 10 inches).
figsize : tuple of two floats, default=None
    Size in inches of the new figure (not with ``ax``).""",
}

_DRAWING = {"order": [None, Options("training", "test")],
            "ax": [None, HasMethods("bar", "barh", description="a matplotlib Axes")],
            **FIGSIZE}


class ClassDistributionDisplay:
    """Class distributions of the test and training labels (Erbani et al. 2024, Figure 3).

    Side-by-side bars of each class's share of the training and of the test labels: the
    class imbalance behind the test and training effects of Section VI-A, and whether the
    test set represents the training set. The constructor only stores the shares;
    :meth:`plot` draws them; :meth:`from_labels` computes and draws them.

    Parameters
    ----------
    test_prevalence : array-like of shape (n_classes,)
        Share of each class in the test labels.
    training_prevalence : array-like of shape (n_classes,), default=None
        Share of each class in the training labels; None draws the test bars alone.
    display_labels : list of str, default=None
        Class names; class indices by default.

    Attributes
    ----------
    test_prevalence, training_prevalence : ndarray of shape (n_classes,)
        The shares drawn (``training_prevalence`` may be None).
    bars_ : dict of str to matplotlib BarContainer
        The bars, under "training" and "test".
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure drawn on.

    See Also
    --------
    prevalence_ranking : The orders of the test-training ranking.
    prevalence : The class prevalences of labels.
    TransportConfusionMatrixDisplay : The matrix, ``order="test-training"``.
    RankingComparisonDisplay : How matrices rank the classes by F1-score.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Figure 3 (the class distributions of the data sets) and
       Section VI-A (the test-training ranking of the classes).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import ClassDistributionDisplay
    >>> display = ClassDistributionDisplay([0.5, 0.3, 0.2], [0.6, 0.3, 0.1],
    ...                                    display_labels=["cat", "dog", "fox"])
    >>> display = display.plot()
    >>> [text.get_text() for text in display.ax_.get_xticklabels()]
    ['cat', 'dog', 'fox']
    """

    @validate_params({"test_prevalence": [ARRAY], "training_prevalence": [None, ARRAY],
                      "display_labels": [None, ARRAY]})
    def __init__(self, test_prevalence, training_prevalence=None, *, display_labels=None):
        self.test_prevalence = display_array(test_prevalence, "test_prevalence", ndim=1,
                                             bounds=(0, None), what="shares")
        self.training_prevalence = (
            None if training_prevalence is None
            else display_array(training_prevalence, "training_prevalence", ndim=1,
                               bounds=(0, None), what="shares"))
        self.display_labels = display_labels
        if self.training_prevalence is not None and \
                self.training_prevalence.shape != self.test_prevalence.shape:
            raise ValueError(f"test_prevalence and training_prevalence must have one share "
                             f"per class each; got {self.test_prevalence.size} and "
                             f"{self.training_prevalence.size}.")

    @classmethod
    @validate_params({"y_test": [ARRAY], "y_train": [None, ARRAY], "labels": [None, ARRAY],
                      "display_labels": [None, ARRAY], **_DRAWING})
    @fill_doc(_DOCS)
    def from_labels(cls, y_test, y_train=None, *, labels=None, display_labels=None,
                    order="training", ax=None, figsize=None):
        """Compute the class distributions of test and training labels, then plot.

        A class's share is its mass over the total mass of the labels: its fraction of
        the instances for 1-D labels, of all the labels given for multi-label targets,
        of all the votes for soft labels (vote counts); the shares sum to 1.

        Parameters
        ----------
        y_test : array-like or sparse matrix
            Test labels: 1-D class labels, or 2-D indicator or soft labels.
        y_train : array-like or sparse matrix, default=None
            Training labels of the same kind.
        labels : array-like, default=None
            The classes to show (1-D targets: class labels; 2-D: column indices), as in
            :func:`prevalence_ranking`; shares stay those of all classes. By default all
            classes, sorted.
        display_labels : list of str, default=None
            Class names, in the order of ``labels``; the class labels by default.
        %(drawing)s

        Returns
        -------
        display : ClassDistributionDisplay
            With ``test_prevalence``, ``training_prevalence``, ``bars_``, ``ax_`` and
            ``figure_``.

        See Also
        --------
        ClassDistributionDisplay.plot : Draw class shares computed elsewhere.
        prevalence : The class prevalences of labels.

        References
        ----------
        .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
           "Confusion Matrices: A Unified Theory". IEEE Access, 12,
           doi:10.1109/ACCESS.2024.3507199: Figure 3 (the class distributions of the data sets)
           and Section VI-A (the test-training ranking of the classes).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ClassDistributionDisplay
        >>> display = ClassDistributionDisplay.from_labels(
        ...     ["a", "b", "b", "c"], ["c", "c", "a", "b", "c"])
        >>> display.test_prevalence, display.training_prevalence
        (array([0.25, 0.5 , 0.25]), array([0.2, 0.2, 0.6]))
        >>> [text.get_text() for text in display.ax_.get_xticklabels()]  # training order
        ['c', 'a', 'b']
        """
        named = {"y_test": y_test} if y_train is None else {"y_test": y_test,
                                                             "y_train": y_train}
        target_set = check_target_set(named, labels)
        selection = target_set.selection
        if selection is None:
            selection = np.arange(len(target_set.classes))
        shares = []
        for name, mass in zip(named, target_set.masses):
            largest = mass.max()  # shares are scale-free: sums of mass / largest stay finite
            totals = np.asarray((mass / largest if largest > 0 else mass).sum(axis=0),
                                dtype=float).ravel()
            if totals.sum() == 0:
                raise ValueError(f"{name} holds no label at all; class shares need at least "
                                 "one.")
            shares.append(totals[selection] / totals.sum())
        if display_labels is None:
            display_labels = [str(target_set.classes[i]) for i in selection]
        display = cls(shares[0], shares[1] if len(shares) > 1 else None,
                      display_labels=display_labels)
        return display.plot(order=order, ax=ax, figsize=figsize)

    @validate_params(_DRAWING)
    @fill_doc(_DOCS)
    def plot(self, *, order="training", ax=None, figsize=None):
        """Draw the bars.

        Parameters
        ----------
        %(drawing)s

        Returns
        -------
        self
            With ``bars_``, ``ax_`` and ``figure_``.

        See Also
        --------
        ClassDistributionDisplay.from_labels : Compute the class shares, then draw them.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ClassDistributionDisplay
        >>> display = ClassDistributionDisplay([0.5, 0.3, 0.2], [0.1, 0.3, 0.6])
        >>> display = display.plot(order="test")
        >>> [text.get_text() for text in display.ax_.get_xticklabels()]
        ['0', '1', '2']
        >>> sorted(display.bars_)
        ['test', 'training']
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        n_classes = self.test_prevalence.size
        names = ([str(k) for k in range(n_classes)] if self.display_labels is None
                 else [str(name) for name in self.display_labels])
        if len(names) != n_classes:
            raise ValueError(f"display_labels has {len(names)} names for {n_classes} "
                             f"classes; pass {n_classes} names.")
        ranked = {"training": self.training_prevalence, "test": self.test_prevalence}.get(
            order)
        if order == "training" and ranked is None:
            ranked = self.test_prevalence
        positions = (np.arange(n_classes) if order is None
                     else np.argsort(-ranked, kind="stable"))
        standing = n_classes <= _MAX_CLASSES_STANDING
        if ax is None:
            longest = max((len(name) for name in short_names(names)), default=1)
            size = (grown_size(n_classes, (4.5, 3.2 + 0.06 * longest), (0.35, 0), (12, 10))
                    if standing else
                    grown_size(n_classes, (4.5 + 0.07 * longest, 1.2), (0, 0.2), (12, 10)))
            fig, ax = plt.subplots(figsize=size if figsize is None else figsize,
                                   layout="constrained")
        else:
            if figsize is not None:
                raise ValueError("figsize sizes a new figure and cannot be given with ax; "
                                 "size the figure of ax instead.")
            fig = ax.figure
        series = [("training", self.training_prevalence, "tab:blue"),
                  ("test", self.test_prevalence, "tab:orange")]
        series = [(name, shares, color) for name, shares, color in series
                  if shares is not None]
        width = 0.8 / len(series)
        self.bars_ = {}
        for k, (name, shares, color) in enumerate(series):
            offsets = np.arange(n_classes) + (k - (len(series) - 1) / 2) * width
            draw = ax.bar if standing else ax.barh
            self.bars_[name] = draw(offsets, shares[positions], width, color=color,
                                    label=name)
        shown = [names[i] for i in positions]
        if standing:
            set_class_ticks(ax, "x", shown)
            ax.set(ylabel="Proportion of the labels", xlim=(-0.6, n_classes - 0.4))
        else:
            set_class_ticks(ax, "y", shown)
            ax.set(xlabel="Proportion of the labels", ylim=(n_classes - 0.4, -0.6))
        ax.legend(loc="upper right" if standing else "lower right", frameon=False)
        ax.set_title("Class distributions" if len(series) > 1 else "Class distribution",
                     fontsize="medium")
        self.ax_, self.figure_ = ax, fig
        return self
