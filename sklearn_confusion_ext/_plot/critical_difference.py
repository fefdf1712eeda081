"""Demsar's critical-difference diagram: the models' average ranks over several data sets
on one axis, with the groups that do not differ significantly joined by bars."""

from numbers import Real

import numpy as np

from .._core.docs import fill_doc
from .._core.params import ARRAY, Interval, validate_params
from .._core.renames import RenamedAttributes
from .._statistics.friedman import friedman_posthoc
from .data_checks import display_array
from .declarations import CRITICAL_DIFFERENCE_PLOT
from .layout import short_names
from .matplotlib_check import check_matplotlib

_DOCS = {"drawing": """\
ax : matplotlib Axes, default=None
    Axes to draw on; a new figure sized to the number of models by default.
title : str or None, default="auto"
    Title of the axes: "auto" names the post-hoc test and its level; None or "" draws
    none."""}


# The keywords from_scores passes on take the post-hoc test's constraints.
_FROM_SCORES = {**{name: friedman_posthoc.parameter_constraints[name] for name in (
    "scores", "method", "control", "alpha", "greater_is_better")}, "models": [None, ARRAY]}


class CriticalDifferenceDisplay(RenamedAttributes):
    """Critical-difference diagram of several models over several data sets (Demsar 2006).

    The axis holds the average ranks, the best (rank 1) on the right; each model hangs
    from its average rank, the better half to the right and the others to the left, its
    name and rank at the end of its line. Thick bars join the groups of models that do not
    differ significantly (:meth:`FriedmanPosthocResult.groups`); the critical difference,
    where the test has one, is drawn above the axis (Demsar's Figure 1(a)), or, with a
    control model, as the interval of one critical difference either side of the control's
    rank (Figure 1(b)).

    Parameters
    ----------
    average_ranks : array-like of shape (n_models,)
        The average rank of each model (1 is the best).
    models : sequence of str, default=None
        The models' names; ``"model 0"``, ``"model 1"``... by default. (``names``, its
        former name, works with a ``FutureWarning`` until 0.2.)
    critical_difference : float, default=None
        The critical difference to draw; None draws none.
    groups : list of sequences of str, default=None
        The groups of models joined by a bar (names of ``models``).
    control : str, default=None
        The control model: the critical difference is drawn around its rank.

    Attributes
    ----------
    models : list of str
        The models' names (``names`` reads it with a ``FutureWarning`` until 0.2).
    result_ : FriedmanPosthocResult
        Set by :meth:`from_scores`.
    figure_ : matplotlib Figure
    ax_ : matplotlib Axes

    See Also
    --------
    friedman_posthoc : The post-hoc test drawn.
    friedman_test : Whether the models differ at all.
    ComparisonSimplexDisplay : Two models over several data sets, Bayesian.
    PosteriorDifferenceDisplay : Two models across the folds of one data set.

    References
    ----------
    .. [1] J. Demsar, "Statistical Comparisons of Classifiers over Multiple Data Sets",
       Journal of Machine Learning Research 7, 1-30, 2006, Section 3.2.2 (the post-hoc tests and
       the critical difference) and Figure 1 (the diagram).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import CriticalDifferenceDisplay
    >>> display = CriticalDifferenceDisplay(
    ...     [3.143, 2.000, 2.893, 1.964], models=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
    ...     critical_difference=1.25,
    ...     groups=[("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]).plot()
    >>> [float(x) for x in display.ax_.get_xlim()]  # the best rank on the right
    [4.0, 1.0]
    """

    _renamed_fields = {"names": "models"}

    @validate_params({"average_ranks": [ARRAY], "models": [None, ARRAY],
                      "critical_difference": [None, Interval(Real, 0, None)],
                      "groups": [None, ARRAY], "control": [None, str]},
                     renamed=_renamed_fields)
    def __init__(self, average_ranks, *, models=None, critical_difference=None, groups=None,
                 control=None):
        ranks = display_array(average_ranks, "average_ranks", ndim=1, bounds=(1, None),
                              what="average ranks")
        n_models = ranks.size
        if n_models < 2:
            raise ValueError(f"average_ranks must hold at least 2 models; got {n_models}.")
        if ranks.max() > n_models + 1e-9:
            raise ValueError(f"average_ranks must lie in [1, {n_models}] for {n_models} "
                             f"models; got a rank of {ranks.max():g}.")
        names = ([f"model {j}" for j in range(n_models)] if models is None
                 else [str(name) for name in models])
        if len(names) != n_models:
            raise ValueError(f"models must name the {n_models} models; got {len(names)}.")
        groups = [] if groups is None else [tuple(str(m) for m in group) for group in groups]
        for k, group in enumerate(groups):
            if not group:
                raise ValueError(f"groups[{k}] is empty; each group names the models (of "
                                 f"models) that one bar joins.")
            unknown = [m for m in group if m not in names]
            if unknown:
                raise ValueError(f"groups names {unknown}, which are not in models {names}.")
        if control is not None and control not in names:
            raise ValueError(f"control={control!r} is not in models {names}.")
        self.average_ranks, self.models = ranks, names
        self.critical_difference = (None if critical_difference is None
                                    else float(critical_difference))
        self.groups, self.control = groups, control

    @classmethod
    @validate_params({**_FROM_SCORES, **CRITICAL_DIFFERENCE_PLOT}, renamed={"names": "models"})
    @fill_doc(_DOCS)
    def from_scores(cls, scores, *, method="nemenyi", control=None, alpha=0.05,
                    greater_is_better=True, models=None, ax=None, title="auto"):
        """Run the post-hoc test on a table of scores, then draw its diagram.

        Parameters
        ----------
        scores, method, control, alpha, greater_is_better, models
            As in :func:`friedman_posthoc` (``names``, the former name of ``models``, works
            with a ``FutureWarning`` until 0.2).
        %(drawing)s

        Returns
        -------
        display : CriticalDifferenceDisplay
            With ``result_``, the :class:`FriedmanPosthocResult`.

        See Also
        --------
        CriticalDifferenceDisplay.plot : Draw average ranks computed elsewhere.
        friedman_posthoc : The test.

        References
        ----------
        .. [1] J. Demsar, "Statistical Comparisons of Classifiers over Multiple Data Sets",
           Journal of Machine Learning Research 7, 1-30, 2006, Section 3.2.2 (the post-hoc tests
           and the critical difference) and Figure 1 (the diagram).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import CriticalDifferenceDisplay
        >>> scores = [[0.9, 0.8, 0.7, 0.6], [0.85, 0.8, 0.6, 0.65], [0.7, 0.75, 0.5, 0.55],
        ...           [0.95, 0.9, 0.8, 0.7], [0.8, 0.7, 0.75, 0.6], [0.9, 0.85, 0.8, 0.8],
        ...           [0.6, 0.55, 0.5, 0.45], [0.7, 0.72, 0.6, 0.61], [0.9, 0.8, 0.85, 0.7],
        ...           [0.88, 0.86, 0.8, 0.79], [0.91, 0.9, 0.7, 0.72]]
        >>> display = CriticalDifferenceDisplay.from_scores(
        ...     scores, models=["forest", "boosting", "tree", "stump"])
        >>> round(display.result_.critical_difference, 3), display.groups
        (1.414, [('forest', 'boosting'), ('boosting', 'tree'), ('tree', 'stump')])
        """
        result = friedman_posthoc(scores, method=method, control=control, alpha=alpha,
                                  greater_is_better=greater_is_better, models=models)
        display = cls(result.average_ranks, models=list(result.models),
                      critical_difference=result.critical_difference,
                      groups=result.groups(), control=result.control)
        display.result_ = result
        if title == "auto":
            test = {"nemenyi": "Nemenyi", "holm": "Holm",
                    "bonferroni-dunn": "Bonferroni-Dunn"}[result.method]
            versus = f" vs {result.control}" if result.control is not None else ""
            title = (f"{test}{versus}, alpha = {result.alpha:g}, "
                     f"{result.n_datasets} data sets")
        return display.plot(ax=ax, title=title)

    @validate_params(CRITICAL_DIFFERENCE_PLOT)
    @fill_doc(_DOCS)
    def plot(self, *, ax=None, title="auto"):
        """Draw the diagram.

        Parameters
        ----------
        %(drawing)s

        Returns
        -------
        self
            With ``figure_`` and ``ax_``.

        See Also
        --------
        CriticalDifferenceDisplay.from_scores : Run the post-hoc test, then draw it.
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        ranks, n_models = self.average_ranks, self.average_ranks.size
        order = np.argsort(ranks, kind="stable")  # best first
        n_right = (n_models + 1) // 2  # the better half hangs right
        n_rows = max(n_right, n_models - n_right)
        groups = [sorted(self.models.index(m) for m in g) for g in self.groups]
        # Vertical layout (data units, y grows downward): the axis at 0, the group bars
        # below it, then one row per model.
        bar_step = 0.22
        first_row = 0.45 + bar_step * len(groups)
        row_step = 0.36
        bottom = first_row + row_step * (n_rows - 1) + 0.3
        if ax is None:
            width = 6.4 if n_models <= 8 else 8.0
            fig, ax = plt.subplots(figsize=(width, 0.9 + 0.33 * bottom * 2.2),
                                   layout="constrained")
        else:
            fig = ax.figure
        low, high = 1, max(n_models, int(np.ceil(ranks.max())))
        ax.set_xlim(high, low)  # the best ranks on the right, as Demsar draws them
        top = -0.75 if self.critical_difference is not None else -0.4
        ax.set_ylim(bottom, top)
        ax.axis("off")
        # The axis of average ranks, its ticks and numbers.
        ax.plot([low, high], [0, 0], color="black", linewidth=1)
        for tick in range(low, high + 1):
            ax.plot([tick, tick], [0, -0.1], color="black", linewidth=1)
            ax.text(tick, -0.14, str(tick), ha="center", va="bottom", fontsize="small")
        for half in np.arange(low + 0.5, high, 1.0):
            ax.plot([half, half], [0, -0.05], color="black", linewidth=0.7)
        # The models: a line down from the rank, then out to the side with the name
        # (long names shortened, kept apart where they differ in the middle).
        drawn = short_names(self.models)
        for position, j in enumerate(order):
            right = position < n_right
            row = position if right else n_models - 1 - position
            y = first_row + row_step * row
            end = low - 0.05 * (high - low) if right else high + 0.05 * (high - low)
            ax.plot([ranks[j], ranks[j], end], [0, y, y], color="0.25", linewidth=0.9)
            label = f"{drawn[j]} ({ranks[j]:.2f})"
            if self.models[j] == self.control:
                label += " [control]"
            ax.text(end, y, (" " if right else "") + label + ("" if right else " "),
                    ha="left" if right else "right", va="center", fontsize="small",
                    clip_on=False)
        # The groups not significantly different: thick bars just below the axis.
        span = 0.03 * (high - low)
        for g, members in enumerate(groups):
            y = 0.3 + bar_step * g
            lo, hi = ranks[members].min(), ranks[members].max()
            ax.plot([lo - span, hi + span], [y, y], color="black", linewidth=3.5,
                    solid_capstyle="round")
        # The critical difference.
        cd = self.critical_difference
        if cd is not None and self.control is None:
            y = -0.55
            ax.plot([high, high - cd], [y, y], color="black", linewidth=1.2)
            for x in (high, high - cd):
                ax.plot([x, x], [y - 0.06, y + 0.06], color="black", linewidth=1.2)
            ax.text(high - cd / 2, y - 0.06, f"CD = {cd:.2f}", ha="center", va="bottom",
                    fontsize="small")
        elif cd is not None:
            c = ranks[self.models.index(self.control)]
            lo, hi = max(low, c - cd), min(high, c + cd)
            ax.plot([lo, hi], [-0.5, -0.5], color="C3", linewidth=2.5,
                    solid_capstyle="butt")
            ax.text(c, -0.56, f"control ± CD ({cd:.2f})", ha="center", va="bottom",
                    fontsize="small", color="C3")
        if title == "auto":
            title = "Average ranks (1 is the best)"
        if title:
            ax.set_title(title, fontsize="medium")
        self.figure_, self.ax_ = fig, ax
        return self
