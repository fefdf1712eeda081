"""Forest plot of the Dirichlet posteriors of the rows of a confusion matrix."""

import numpy as np

from .._core.params import validate_params
from .._posterior import dirichlet_posterior
from .matplotlib_check import check_matplotlib


class PosteriorIntervalDisplay:
    """Forest plot of the Dirichlet posterior of each actual class (Barranco-Chamorro 2021).

    One panel per actual class: for each predicted class, the posterior mean of
    ``P[predicted j | actual k]`` and its credible interval.

    Parameters
    ----------
    mean, lower, upper : ndarray of shape (n_classes, n_classes)
        Posterior means and interval bounds, rows actual classes.
    display_labels : list, default=None
        Class names.

    Attributes
    ----------
    mean, lower, upper, figure_, axes_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import PosteriorIntervalDisplay
    >>> display = PosteriorIntervalDisplay.from_confusion(
    ...     [[37, 1, 15], [6, 19, 26], [15, 3, 77]], display_labels=["nonIBD", "UC", "CD"])
    >>> round(float(display.upper[1, 2]), 4)  # Table A2, HPD upper bound of P[CD | UC]
    0.6316
    """

    @validate_params("PosteriorIntervalDisplay")
    def __init__(self, *, mean, lower, upper, display_labels=None):
        self.mean, self.lower, self.upper = (np.asarray(x) for x in (mean, lower, upper))
        self.display_labels = display_labels

    @classmethod
    @validate_params()
    def from_confusion(cls, confusion, *, prior=1.0, level=0.95, method="hpd",
                       display_labels=None, figsize=None):
        """Posterior of a confusion matrix (:func:`dirichlet_posterior`), then plot.

        Parameters
        ----------
        confusion : array-like of shape (n_classes, n_classes)
            Counts, rows actual and columns predicted classes.
        prior : float, {"uniform", "perks"} or array-like, default=1.0
            Dirichlet prior, as in :func:`dirichlet_posterior`.
        level : float, default=0.95
            Posterior mass of each interval, in (0, 1).
        method : {"hpd", "equal-tailed"}, default="hpd"
            Highest posterior density or equal-tailed intervals, as in
            :meth:`ConfusionPosterior.credible_interval`.
        display_labels : list of str, default=None
            Class names; class indices by default.
        figsize : tuple of two floats, default=None
            Figure size in inches; sized to the number of classes by default.

        Returns
        -------
        display : PosteriorIntervalDisplay
            With ``mean``, ``lower``, ``upper``, ``figure_`` and ``axes_``.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import PosteriorIntervalDisplay
        >>> display = PosteriorIntervalDisplay.from_confusion([[8, 2], [1, 9]], level=0.9)
        >>> display.mean.round(3)
        array([[0.75 , 0.25 ],
               [0.167, 0.833]])
        >>> [ax.get_title() for ax in display.axes_.ravel()]
        ['actual 0', 'actual 1']
        """
        posterior = dirichlet_posterior(confusion, prior=prior)
        lower, upper = posterior.credible_interval(level, method=method)
        display = cls(mean=posterior.mean(), lower=lower, upper=upper,
                      display_labels=display_labels)
        return display.plot(figsize=figsize)

    @validate_params()
    def plot(self, *, figsize=None):
        """Draw one panel per actual class.

        Parameters
        ----------
        figsize : tuple of two floats, default=None
            Figure size in inches; sized to the number of classes by default.

        Returns
        -------
        self
            With ``figure_`` and ``axes_`` (one panel per actual class).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import PosteriorIntervalDisplay
        >>> display = PosteriorIntervalDisplay(
        ...     mean=[[0.8, 0.2], [0.3, 0.7]], lower=[[0.6, 0.1], [0.1, 0.5]],
        ...     upper=[[0.9, 0.4], [0.5, 0.9]], display_labels=["cat", "dog"])
        >>> display = display.plot(figsize=(6, 2))
        >>> [ax.get_title() for ax in display.axes_.ravel()]
        ['actual cat', 'actual dog']
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        n_classes = self.mean.shape[0]
        names = ([str(k) for k in range(n_classes)] if self.display_labels is None
                 else [str(name) for name in self.display_labels])
        n_columns = int(np.ceil(np.sqrt(n_classes)))
        n_rows = -(-n_classes // n_columns)
        if figsize is None:
            figsize = (4 * n_columns, 0.4 * n_classes * n_rows + 1.2)
        fig, axes = plt.subplots(n_rows, n_columns, squeeze=False, figsize=tuple(figsize),
                                 layout="constrained")
        positions = np.arange(n_classes)
        for k, ax in enumerate(axes.ravel()):
            if k >= n_classes:
                ax.set_visible(False)
                continue
            errors = np.vstack([self.mean[k] - self.lower[k], self.upper[k] - self.mean[k]])
            ax.errorbar(self.mean[k], positions, xerr=np.maximum(errors, 0), fmt="o",
                        capsize=3)
            ax.set(yticks=positions, yticklabels=names, xlim=(0, 1),
                   title=f"actual {names[k]}")
            ax.invert_yaxis()
            ax.grid(axis="x", alpha=0.3)
            if k + n_columns >= n_classes:  # no panel below
                ax.set_xlabel("P[predicted | actual]")
        self.figure_, self.axes_ = fig, axes
        return self
