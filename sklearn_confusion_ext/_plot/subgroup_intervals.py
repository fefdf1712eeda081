"""Forest plot of one classifier's score in each subgroup of its instances, with the
score on all of them as a reference line (:func:`score_by_subgroup`)."""

from numbers import Real

import numpy as np

from .._core.params import (
    ARRAY,
    CALLABLE,
    CONFIDENCE_LEVEL,
    N_RESAMPLES,
    RANDOM_STATE,
    Interval,
    NaN,
    validate_params,
)
from .._core.targets import check_target_set
from .._statistics.subgroups import score_by_subgroup
from .declarations import FOREST_PLOT, FROM_ESTIMATOR
from .matplotlib_check import check_matplotlib
from .score_intervals import ScoreIntervalDisplay

_FROM = {"scoring": [str, CALLABLE], "confidence_level": [CONFIDENCE_LEVEL],
         "n_resamples": N_RESAMPLES, "sample_weight": [None, ARRAY],
         "random_state": RANDOM_STATE, **FOREST_PLOT}


class SubgroupIntervalDisplay(ScoreIntervalDisplay):
    """Forest plot of a score in each subgroup, with a line at the score on all instances.

    One row per subgroup (top to bottom), its score as a marker on its interval; a
    vertical dashed line marks ``overall``; the subgroups whose difference from the rest
    is significant after the correction are drawn in a second color and named in the
    legend. :meth:`from_predictions` and :meth:`from_estimator` compute the rows with
    :func:`score_by_subgroup`. Built on :class:`ScoreIntervalDisplay`, whose drawing it
    shares (every k-th subgroup named where the names would overlap).

    Parameters
    ----------
    estimates, low, high : array-like of shape (n_subgroups,)
        The subgroups' scores and their intervals (NaN in all three: an empty subgroup,
        its row left empty).
    display_labels : list of str, default=None
        The subgroups' names.
    overall : float, default=None
        The score on all the instances, drawn as a vertical line; None draws none.
    significant : array-like of bool, default=None
        The subgroups that differ from the rest (drawn apart); None: none marked.
    score_name : str, default="score"
        What the values are, on the x-axis and in the title.

    Attributes
    ----------
    estimates, low, high : ndarray of shape (1, n_subgroups)
        The values drawn.
    overall, significant
        As given.
    result_ : SubgroupResult
        Set by :meth:`from_predictions` and :meth:`from_estimator`.
    figure_, ax_ : matplotlib Figure and Axes
        Drawn on.
    line_ : matplotlib Line2D or None
        The line of ``overall``.

    See Also
    --------
    score_by_subgroup : The rows drawn.
    ScoreIntervalDisplay : Per-class intervals.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import SubgroupIntervalDisplay
    >>> display = SubgroupIntervalDisplay(
    ...     estimates=[0.9, 0.7], low=[0.85, 0.6], high=[0.94, 0.78],
    ...     display_labels=["north", "south"], overall=0.8, significant=[True, True],
    ...     score_name="accuracy").plot()
    >>> [label.get_text() for label in display.ax_.get_yticklabels()]
    ['north', 'south']
    >>> display.line_.get_xdata()[0]
    0.8
    """

    @validate_params({"estimates": [ARRAY], "low": [ARRAY], "high": [ARRAY],
                      "display_labels": [None, ARRAY],
                      "overall": [None, Interval(Real, None, None), NaN()],
                      "significant": [None, ARRAY], "score_name": [str]})
    def __init__(self, *, estimates, low, high, display_labels=None, overall=None,
                 significant=None, score_name="score"):
        super().__init__(estimates=estimates, low=low, high=high,
                         display_labels=display_labels, score_name=score_name)
        if self.estimates.shape[0] != 1:
            raise ValueError("estimates must be 1-D, one score per subgroup; got shape "
                             f"{self.estimates.shape}.")
        self.overall = None if overall is None else float(overall)
        if significant is not None:
            significant = np.asarray(significant, dtype=bool).ravel()
            if significant.size != self.estimates.shape[1]:
                raise ValueError(f"significant must hold one flag per subgroup, "
                                 f"{self.estimates.shape[1]}; got {significant.size}.")
        self.significant = significant

    @classmethod
    @validate_params({"y_true": [ARRAY], "y_pred": [ARRAY], "subgroups": [ARRAY], **_FROM})
    def from_predictions(cls, y_true, y_pred, *, subgroups, scoring="accuracy",
                         confidence_level=0.95, n_resamples=999, sample_weight=None,
                         random_state=None, ax=None, title="auto"):
        """Compute every subgroup's score and interval, then draw them.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            True and predicted class labels.
        subgroups : array-like of shape (n_samples,)
            The subgroup of each instance, as in :func:`score_by_subgroup`.
        scoring, confidence_level, n_resamples, sample_weight, random_state
            As in :func:`score_by_subgroup` (fewer resamples by default: a picture).
        ax : matplotlib Axes, default=None
            Axes to draw on; by default a new figure.
        title : str or None, default="auto"
            "auto" names the score and the level; None or "" draws none.

        Returns
        -------
        SubgroupIntervalDisplay
            With ``result_``, ``figure_`` and ``ax_``.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import SubgroupIntervalDisplay
        >>> display = SubgroupIntervalDisplay.from_predictions(
        ...     [0, 1] * 30, [0, 1] * 25 + [1, 0] * 5, subgroups=["a", "b", "c"] * 20,
        ...     random_state=0)
        >>> display.result_.size.tolist()
        [20.0, 20.0, 20.0]
        """
        result = score_by_subgroup(y_true, y_pred, subgroups=subgroups, scoring=scoring,
                                   confidence_level=confidence_level,
                                   n_resamples=n_resamples, sample_weight=sample_weight,
                                   random_state=random_state)
        display = cls(estimates=result.estimate, low=result.low, high=result.high,
                      display_labels=[str(name) for name in result.subgroups],
                      overall=result.overall, significant=result.significant,
                      score_name=result.score or "score")
        display.result_ = result
        correction = {"holm": "Holm", "bonferroni": "Bonferroni",
                      "fdr_bh": "Benjamini-Hochberg"}.get(result.correction, "uncorrected")
        display._about = (f"{100 * result.confidence_level:g}% bootstrap intervals, "
                          f"{correction} tests")
        return display.plot(ax=ax, title=title)

    @classmethod
    @validate_params({name: FROM_ESTIMATOR[name] for name in ("estimator", "X", "y")}
                     | {"subgroups": [ARRAY], **_FROM})
    def from_estimator(cls, estimator, X, y, *, subgroups, scoring="accuracy",
                       confidence_level=0.95, n_resamples=999, sample_weight=None,
                       random_state=None, ax=None, title="auto"):
        """Predict ``X`` with ``estimator``, then :meth:`from_predictions`.

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict``.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True class labels.
        subgroups, scoring, confidence_level, n_resamples, sample_weight, random_state, \
ax, title
            As in :meth:`from_predictions`.

        Returns
        -------
        SubgroupIntervalDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_confusion_ext import SubgroupIntervalDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
        >>> display = SubgroupIntervalDisplay.from_estimator(
        ...     tree, X, y, subgroups=X[:, 0] > 5.8, random_state=0)
        >>> display.result_.subgroups
        (False, True)
        """
        # y checked under its own name before the estimator runs
        check_target_set({"y": y}, one_hot=False)
        n_rows = np.shape(y)[0]
        y_pred = estimator.predict(X)
        if np.shape(y_pred)[0] != n_rows:
            raise ValueError(f"y has {n_rows} samples but the estimator predicts "
                             f"{np.shape(y_pred)[0]} on X; pass one label of y per row of X.")
        return cls.from_predictions(y, y_pred, subgroups=subgroups,
                                    scoring=scoring, confidence_level=confidence_level,
                                    n_resamples=n_resamples, sample_weight=sample_weight,
                                    random_state=random_state, ax=ax, title=title)

    @validate_params(FOREST_PLOT)
    def plot(self, *, ax=None, title="auto"):
        """Draw the forest plot, the line of ``overall`` and the marked subgroups.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; by default a new figure.
        title : str or None, default="auto"
            "auto": "<score> per subgroup"; None or "" draws none.

        Returns
        -------
        self
            With ``figure_``, ``ax_`` and ``line_``.
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        if title == "auto":
            title = f"{self.score_name} per subgroup"
            if self._about is not None:
                title = f"{title}\n({self._about})"
        super().plot(ax=ax, title=title)
        self.line_, handles = None, []
        if self.overall is not None and np.isfinite(self.overall):
            self.line_ = self.ax_.axvline(self.overall, color="0.3", linestyle="--",
                                          linewidth=1, label="all instances")
            handles.append(self.line_)
        if self.significant is not None and self.significant.any():
            rows = np.flatnonzero(self.significant)
            handles += self.ax_.plot(self.estimates[0, rows], rows, linestyle="none",
                                     marker="o", markersize=7, color="C3",
                                     label="differs from the rest")
        if handles:
            self.ax_.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1),
                            fontsize="small")
        return self
