"""The posterior of the mean difference of two models' scores across cross-validation folds
(the Bayesian correlated t-test), with the region of practical equivalence shaded."""

from numbers import Real

import numpy as np

from .._core.docs import fill_doc
from .._core.params import ARRAY, Interval, validate_params
from .._core.renames import RenamedAttributes, renamed_constructor
from .._statistics.cross_validated import compare_cv, compare_cv_scores
from .data_checks import display_array
from .declarations import POSTERIOR_PLOT
from .layout import short_name
from .matplotlib_check import check_matplotlib

_DOCS = {"drawing": """\
ax : matplotlib Axes, default=None
    Axes to draw on; a new 6.4 x 4 inch figure by default.
title : str or None, default="auto"
    Title of the axes: "auto" names the test; None or "" draws none."""}

# The colors of the three regions: model a better, practically equivalent, model b better.
_COLORS = ("C0", "0.6", "C1")


def _probability(p):
    """"P = 0.123" for reading: three decimals, "P < 0.001" and "P > 0.999" at the ends."""
    if 0 < p < 0.0005:
        return "P < 0.001"
    if 0.9995 <= p < 1:
        return "P > 0.999"
    return f"P = {p:.3f}"


def _one_number(value, name, low):
    """``value`` (a number or an array of one) as a float, checked like every Display's data."""
    array = display_array(value, name, ndim=None, bounds=(low, None), what="numbers")
    if array.size != 1:
        raise ValueError(f"{name} must be one number; got shape {array.shape}.")
    return float(array.ravel()[0])


def _name(name):
    """A model's name as drawn: whole up to 30 characters, else shortened."""
    return name if len(name) <= 30 else short_name(name)


# The view reaches the rope's ends up to this many widths of the posterior (its 99.9%
# range) beyond it; a wider rope shades the whole view (its width is in the legend). The
# view reached 1.3 * rope: at rope=1.8e308 an infinite limit (refused by matplotlib), at
# 1e300 a singular transform on matplotlib 3.5.
_REACH = 10


# The keywords the constructors pass on to the test take its constraints.
_FROM_SCORES, _FROM_ESTIMATOR = (
    {name: declared for name, declared in function.parameter_constraints.items()
     if name in names}
    for function, names in (
        (compare_cv_scores, ("scores_a", "scores_b", "n_train", "n_test", "rope", "scoring",
                             "models")),
        (compare_cv, ("estimator_a", "estimator_b", "X", "y", "scoring", "n_splits",
                      "n_repeats", "groups", "rope", "random_state", "n_jobs", "models"))))


class PosteriorDifferenceDisplay(RenamedAttributes):
    """The posterior of the mean difference of two models' scores, with the rope.

    The Bayesian correlated t-test's posterior (Student's t, see :func:`compare_cv_scores`)
    as a density: the area right of ``rope`` (model a better), within ``[-rope, rope]``
    (practically equivalent, shaded band) and left of ``-rope`` (model b better) filled in
    three colors, each named in the legend with its probability. A posterior of scale 0
    (folds without spread) is drawn as a point mass at its mean.

    Parameters
    ----------
    mean : float
        Location of the posterior: the mean per-fold difference ``a - b``.
    scale : float
        Scale of the posterior (0: a point mass).
    df : float
        Degrees of freedom of the posterior.
    rope : float, default=0.0
        Half-width of the region of practical equivalence.
    models : tuple of two str, default=None
        The models' names, ``("a", "b")`` by default. (``names``, its former name, works
        with a ``FutureWarning`` until 0.2.)
    score_name : str, default="score"
        What the scores are, on the x-axis.

    Attributes
    ----------
    models : tuple of two str or None
        The models' names (``names`` reads it with a ``FutureWarning`` until 0.2).
    result_ : BayesianCorrelatedTTestResult
        Set by :meth:`from_scores` and :meth:`from_estimator`.
    figure_ : matplotlib Figure
    ax_ : matplotlib Axes

    See Also
    --------
    compare_cv_scores : The test (``method="bayesian"``).
    ComparisonSimplexDisplay : Two models over several data sets, on a triangle.
    CriticalDifferenceDisplay : Several models over several data sets.
    ScoreIntervalDisplay : Scores with intervals on one test set.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
       2017, Section 4: the Bayesian correlated t-test (Corani and Benavoli 2015), its posterior
       Student t of the mean difference and the rope.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import PosteriorDifferenceDisplay
    >>> display = PosteriorDifferenceDisplay(mean=0.02, scale=0.01, df=9, rope=0.01,
    ...                                      models=("forest", "tree"),
    ...                                      score_name="accuracy").plot()
    >>> [text.get_text() for text in display.ax_.get_legend().get_texts()]
    ['forest better: P = 0.828', 'equivalent (rope ±0.01): P = 0.164', 'tree better: P = 0.007']
    """

    _renamed_fields = {"names": "models"}
    _renamed_constructors = {"from_estimators": "from_estimator"}

    @validate_params({  # numbers, or arrays of one (checked as Display data)
        "mean": [Interval(Real, None, None), ARRAY], "scale": [Interval(Real, 0, None), ARRAY],
        "df": [Interval(Real, 0, None, closed="neither"), ARRAY],
        "rope": [Interval(Real, 0, None), ARRAY], "models": [None, ARRAY],
        "score_name": [str]}, renamed=_renamed_fields)
    def __init__(self, *, mean, scale, df, rope=0.0, models=None, score_name="score"):
        self.mean, self.scale, self.df, self.rope = (
            _one_number(value, name, low)
            for name, value, low in (("mean", mean, None), ("scale", scale, 0),
                                     ("df", df, 0), ("rope", rope, 0)))
        if self.df == 0:
            raise ValueError("df must be positive (the posterior's degrees of freedom); got 0.")
        if models is not None:
            models = tuple(str(name) for name in models)
            if len(models) != 2:
                raise ValueError(f"models must name the two models; got {len(models)} names.")
        self.models, self.score_name = models, score_name

    def probabilities(self):
        """``(P[a better], P[equivalent], P[b better])`` of the posterior drawn.

        Returns
        -------
        tuple of three float
            The posterior mass right of ``rope``, within ``[-rope, rope]`` and left of
            ``-rope`` (the legend's probabilities).

        See Also
        --------
        BayesianCorrelatedTTestResult : The test's result, which unpacks to the same three.
        ComparisonSimplexDisplay : The same three masses of a comparison over data sets.
        """
        from scipy import stats

        if self.scale == 0:
            a = float(self.mean > self.rope) if self.rope else float(
                self.mean > 0) + 0.5 * (self.mean == 0)
            b = float(self.mean < -self.rope) if self.rope else 1.0 - a
            return a, 1.0 - a - b, b
        with np.errstate(over="ignore"):  # a rope of 1e308: (rope - mean) / scale is inf
            a = float(stats.t.sf(self.rope, self.df, loc=self.mean, scale=self.scale))
            b = float(stats.t.cdf(-self.rope, self.df, loc=self.mean, scale=self.scale))
        return a, (max(0.0, 1.0 - a - b) if self.rope else 0.0), b

    @classmethod
    def _from_result(cls, result, ax, title):
        display = cls(mean=result.mean, scale=result.scale, df=result.df, rope=result.rope,
                      models=result.models, score_name=result.score)
        display.result_ = result
        return display.plot(ax=ax, title=title)

    @classmethod
    @validate_params({**_FROM_SCORES, **POSTERIOR_PLOT}, renamed={"names": "models"})
    @fill_doc(_DOCS)
    def from_scores(cls, scores_a, scores_b, *, n_train=None, n_test=None, rope=0.0,
                    scoring=None, models=None, ax=None, title="auto"):
        """The posterior of the difference of per-fold scores, then plot.

        Parameters
        ----------
        scores_a, scores_b, n_train, n_test, rope, scoring, models
            As in :func:`compare_cv_scores` (``method="bayesian"``); ``names``, the former
            name of ``models``, works with a ``FutureWarning`` until 0.2.
        %(drawing)s

        Returns
        -------
        display : PosteriorDifferenceDisplay

        See Also
        --------
        PosteriorDifferenceDisplay.from_estimator : Cross-validate the models first.
        compare_cv_scores : The test.

        References
        ----------
        .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
           tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
           2017, Section 4: the Bayesian correlated t-test (Corani and Benavoli 2015), its
           posterior Student t of the mean difference and the rope.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import PosteriorDifferenceDisplay
        >>> display = PosteriorDifferenceDisplay.from_scores(
        ...     [0.91, 0.88, 0.90, 0.93], [0.86, 0.87, 0.85, 0.90], n_train=3, n_test=1,
        ...     rope=0.01)
        >>> [round(p, 3) for p in display.result_]
        [0.907, 0.066, 0.027]
        """
        result = compare_cv_scores(scores_a, scores_b, method="bayesian", n_train=n_train,
                                   n_test=n_test, rope=rope, scoring=scoring, models=models)
        return cls._from_result(result, ax, title)

    @classmethod
    @validate_params({**_FROM_ESTIMATOR, **POSTERIOR_PLOT}, renamed={"names": "models"})
    @fill_doc(_DOCS)
    def from_estimator(cls, estimator_a, estimator_b, X, y, *, scoring=None, n_splits=None,
                       n_repeats=None, groups=None, rope=0.0, random_state=None,
                       n_jobs=None, models=None, ax=None, title="auto"):
        """Cross-validate two models on the same folds, then plot the posterior.

        The two models are the estimators (unfitted: each fold fits them), as
        :func:`compare_cv` takes them; ``from_estimators``, this constructor's former
        name, works with a ``FutureWarning`` until 0.2.

        Parameters
        ----------
        estimator_a, estimator_b, X, y, scoring, n_splits, n_repeats, groups, rope, \
random_state, n_jobs, models
            As in :func:`compare_cv` (``method="bayesian"``); ``names``, the former name
            of ``models``, works with a ``FutureWarning`` until 0.2.
        %(drawing)s

        Returns
        -------
        display : PosteriorDifferenceDisplay

        See Also
        --------
        PosteriorDifferenceDisplay.from_scores : From per-fold scores.
        compare_cv : The test.

        References
        ----------
        .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
           tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
           2017, Section 4: the Bayesian correlated t-test (Corani and Benavoli 2015), its
           posterior Student t of the mean difference and the rope.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_wine
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_confusion_ext import PosteriorDifferenceDisplay
        >>> X, y = load_wine(return_X_y=True)
        >>> display = PosteriorDifferenceDisplay.from_estimator(
        ...     GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, rope=0.01,
        ...     n_repeats=3, random_state=0)
        >>> display.ax_.get_xlabel()
        'tcm_f1_macro: GaussianNB − DecisionTreeClassifier'
        """
        result = compare_cv(estimator_a, estimator_b, X, y, method="bayesian",
                            scoring=scoring, n_splits=n_splits, n_repeats=n_repeats,
                            groups=groups, rope=rope, random_state=random_state,
                            n_jobs=n_jobs, models=models)
        return cls._from_result(result, ax, title)

    from_estimators = renamed_constructor("from_estimators", "from_estimator")

    @validate_params(POSTERIOR_PLOT)
    @fill_doc(_DOCS)
    def plot(self, *, ax=None, title="auto"):
        """Draw the posterior density, its three regions and the rope.

        Parameters
        ----------
        %(drawing)s

        Returns
        -------
        self
            With ``figure_`` and ``ax_``.

        See Also
        --------
        PosteriorDifferenceDisplay.from_scores : Run the test, then draw its posterior.
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt
        from scipy import stats

        if ax is None:
            fig, ax = plt.subplots(figsize=(6.4, 4), layout="constrained")
        else:
            fig = ax.figure
        name_a, name_b = (_name(name) for name in (self.models or ("a", "b")))
        p_a, p_rope, p_b = self.probabilities()
        rope = self.rope
        labels = (f"{name_a} better: {_probability(p_a)}",
                  f"equivalent (rope ±{rope:g}): {_probability(p_rope)}",
                  f"{name_b} better: {_probability(p_b)}")
        if self.scale == 0:
            spread = max(abs(self.mean), 1e-3)
            low = -max(spread, min(rope, _REACH * spread)) * 1.5
            high = -low
        else:
            posterior = stats.t(self.df, loc=self.mean, scale=self.scale)
            low, high = posterior.ppf([0.0005, 0.9995])
            reach = min(1.3 * rope, max(abs(low), abs(high)) + _REACH * (high - low))
            low, high = min(low, -reach), max(high, reach)
        if rope:  # drawn to just beyond the view where wider
            band = min(rope, 2 * max(abs(low), abs(high)))
            ax.axvspan(-band, band, color=_COLORS[1], alpha=0.15, linewidth=0)
        ax.axvline(0, color="0.3", linewidth=0.8)
        if self.scale == 0:
            where = 0 if self.mean > rope else 2 if self.mean < -rope else 1
            ax.axvline(self.mean, color=_COLORS[where], linewidth=2.5, label=labels[where])
            ax.set_xlim(low, high)
            ax.set_yticks([])
            ax.text(self.mean, 0.5, " point mass (no spread)", rotation=90,
                    va="center", fontsize="small", transform=ax.get_xaxis_transform())
        else:
            edges = [edge for edge in (-rope, rope) if low <= edge <= high]
            x = np.unique(np.concatenate([np.linspace(low, high, 801), edges]))
            with np.errstate(over="ignore", under="ignore"):  # far tails: density 0
                density = posterior.pdf(x)
            ax.plot(x, density, color="black", linewidth=1.2)
            regions = (x >= rope, (x >= -rope) & (x <= rope), x <= -rope)
            for region, color, label in zip(regions, _COLORS, labels):
                if rope == 0 and color == _COLORS[1]:
                    continue
                ax.fill_between(x, density, where=region, color=color, alpha=0.45,
                                linewidth=0, label=label)
            ax.set_xlim(low, high)
            ax.set_ylim(0, density.max() * 1.08)
            ax.set_ylabel("posterior density")
        ax.set_xlabel(f"{self.score_name}: {name_a} − {name_b}")
        ax.legend(loc="best", fontsize="small", frameon=True)
        if title == "auto":
            title = "Posterior of the mean difference (Bayesian correlated t-test)"
        if title:
            ax.set_title(title, fontsize="medium")
        ax.grid(axis="x", alpha=0.3)
        self.figure_, self.ax_ = fig, ax
        return self
