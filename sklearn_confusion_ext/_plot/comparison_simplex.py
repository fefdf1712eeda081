"""The posterior of a comparison of two models over several data sets on a triangle: each
posterior sample of the masses (a better, practically equivalent, b better) is a point in
barycentric coordinates (Benavoli, Corani, Demsar and Zaffalon 2017, "Time for a change")."""

import warnings
from numbers import Real

import numpy as np

from .._core.docs import fill_doc
from .._core.params import ARRAY, HasAttributes, Interval, Options, validate_params
from .._core.renames import RenamedAttributes
from .._statistics.hierarchical import bayesian_hierarchical_test
from .._statistics.signed_rank import bayesian_signed_rank_test
from .data_checks import display_array
from .declarations import SIMPLEX_PLOT
from .matplotlib_check import check_matplotlib
from .posterior_difference import _COLORS, _name, _probability

# The corners of the three masses: model a better at the bottom left, practically
# equivalent at the top, model b better at the bottom right (as baycomp draws them).
_CORNERS = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])
_CENTROID = _CORNERS.mean(axis=0)
# The limits of the Axes: room for the corners' names at the sides and at the top, for
# the bottom corners' names and a caption below.
_XLIM, _YLIM = (-0.32, 1.32), (-0.25, _CORNERS[1, 1] + 0.14)
# The samples' colors, by region: PosteriorDifferenceDisplay's, with the equivalence grey
# darker than its region's fill so that its points show on it.
_POINT_COLORS = np.array([_COLORS[0], "0.35", _COLORS[2]], dtype=object)
# Rounding allowed in the samples: a mass computed as 1 minus the others may be -1e-16,
# and the masses of a sample sum to 1 to the last bits.
_TOLERANCE = 1e-9
# The probabilities given may be rounded (three decimals printed): they sum to 1 within.
_PROBABILITY_SUM_TOLERANCE = 0.005
# Rows of samples checked at once: the checks' temporaries stay small for any sample count.
_BLOCK = 1 << 18
# The parameters of only one of the two tests, by test (None: the test's default).
_OWN = {"signed_rank": ("prior_strength",),
        "hierarchical": ("n_train", "n_test", "n_chains", "burn_in")}

# The parameters from_scores passes on take the tests' constraints; those with another
# default in each test, or of one test only, are None by default (the test's default).
_SIGNED_RANK, _HIERARCHICAL = (test.parameter_constraints for test in (
    bayesian_signed_rank_test, bayesian_hierarchical_test))
_FROM_SCORES = {
    **{name: _SIGNED_RANK[name] for name in ("scores_a", "scores_b", "rope",
                                             "greater_is_better", "random_state")},
    "models": [None, ARRAY],
    "method": [Options("signed_rank", "hierarchical")],
    **{name: [None, *_SIGNED_RANK[name]] for name in ("prior_strength", "n_draws")},
    **{name: _HIERARCHICAL[name] for name in ("n_train", "n_test")},
    **{name: [None, *_HIERARCHICAL[name]] for name in ("n_chains", "burn_in")}}

_DOCS = {"drawing": """\
ax : matplotlib Axes, default=None
    Axes to draw on; a new 6.4 x 5.6 inch figure by default.
max_points : int, default=3000
    The most posterior samples drawn as points: more samples are thinned to this many,
    evenly spaced in their order (every chain of a hierarchical test alike), so that the
    picture is the same at every call and is drawn fast for any sample count.
title : str or None, default="auto"
    Title of the axes: "auto" names the test (where the display was built from its
    result); None or "" draws none."""}


def _checked_samples(samples):
    """``samples`` as a float array of shape (n, 3) of masses summing to 1, or a
    ``ValueError`` naming the argument, what was found and what is expected."""
    array = display_array(samples, "samples", ndim=2, what="posterior masses")
    if array.shape[1] != 3:
        raise ValueError(f"samples must hold the three masses (a better, practically "
                         f"equivalent, b better) of each posterior sample, shape "
                         f"(n_samples, 3); got shape {array.shape}.")
    for start in range(0, array.shape[0], _BLOCK):
        block = array[start:start + _BLOCK]
        low = block.min(axis=1)
        if (low < -_TOLERANCE).any():
            row = int(np.argmax(low < -_TOLERANCE))
            column = int(np.argmin(block[row]))
            raise ValueError(f"samples must hold non-negative masses; got "
                             f"{block[row, column]:.6g} at {(start + row, column)}.")
        sums = block.sum(axis=1)
        off = np.abs(sums - 1) > 1e-6
        if off.any():
            row = int(np.argmax(off))
            raise ValueError(f"samples must hold masses summing to 1 in each row (a point of "
                             f"the triangle); row {start + row} sums to {sums[row]:.6g}.")
    return array


def _winners(samples):
    """How many samples have each mass as their largest (ties to the first, as the tests
    count them), block by block."""
    counts = np.zeros(3, dtype=np.int64)
    for start in range(0, samples.shape[0], _BLOCK):
        counts += np.bincount(np.argmax(samples[start:start + _BLOCK], axis=1), minlength=3)
    return counts


class ComparisonSimplexDisplay(RenamedAttributes):
    """Posterior of a comparison of two models over data sets, drawn on a triangle.

    The Bayesian signed-rank test (:func:`bayesian_signed_rank_test`) and the Bayesian
    hierarchical test (:func:`bayesian_hierarchical_test`) give posterior samples of three
    masses that sum to 1: model a better (beyond ``rope``), practically equivalent (within
    ``rope``), model b better. Each sample is a point of a triangle in barycentric
    coordinates, the corner of each mass where that mass is 1, as Benavoli, Corani, Demsar
    and Zaffalon ("Time for a change", JMLR 2017) and ``baycomp``'s ``plot_simplex`` draw
    them: model a at the bottom left, practical equivalence at the top, model b at the
    bottom right. Lines from the centroid to the sides' midpoints split the triangle into
    the three regions where each mass is the largest; the probability written at each
    corner is the share of samples in its region (the test's ``p_a_better``, ``p_rope``,
    ``p_b_better``). A cloud in one region says which conclusion the data support; a
    cloud across a border, that they support none firmly. Where ``rope`` is 0 there is no
    practical equivalence: every sample lies on the bottom side, and the top region is
    greyed.

    Parameters
    ----------
    samples : array-like of shape (n_samples, 3)
        The posterior samples of the masses ``(a better, practically equivalent, b
        better)``, each row non-negative and summing to 1 (a result's ``samples``).
    probabilities : array-like of shape (3,), default=None
        ``(p_a_better, p_rope, p_b_better)`` written at the corners, summing to 1 (to
        rounding: within 0.005); by default the shares of ``samples`` in which each mass
        is the largest (ties to the first), as the tests compute them.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in units of the score. With
        0, the samples' middle mass and ``p_rope`` must be 0.
    models : tuple of two str, default=None
        The models' names, ``("a", "b")`` by default. (``names``, its former name, works
        with a ``FutureWarning`` until 0.2.)

    Attributes
    ----------
    samples : ndarray of shape (n_samples, 3)
        The samples given, as floats (a float array is kept, not copied).
    probabilities : ndarray of shape (3,)
        The probabilities written at the corners.
    rope : float
    models : tuple of two str or None
        The models' names (``names`` reads it with a ``FutureWarning`` until 0.2).
    result_ : BayesianSignedRankResult or BayesianHierarchicalResult
        Set by :meth:`from_result` and :meth:`from_scores`.
    figure_ : matplotlib Figure
    ax_ : matplotlib Axes
    scatter_ : matplotlib PathCollection
        The samples drawn, one point each (at most ``max_points``).
    drawn_ : ndarray of int
        The rows of ``samples`` drawn as points, in order.
    text_ : ndarray of matplotlib Text of shape (3,)
        The corners' names and probabilities: a better, practically equivalent, b better.
    regions_ : list of three matplotlib Polygon
        The regions where each mass is the largest, in the same order.
    borders_ : list of three matplotlib Line2D
        The borders between the regions, from the centroid to the sides' midpoints.

    See Also
    --------
    PosteriorDifferenceDisplay : the posterior of two models compared on one data set's
        cross-validation folds.
    CriticalDifferenceDisplay : several models over several data sets, by their ranks.
    bayesian_signed_rank_test : One of the two tests drawn.
    bayesian_hierarchical_test : The other.
    PosteriorSimplexDisplay : The posterior of a confusion matrix's row, on a triangle.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
       2017, Sections 5 and 6: the Bayesian signed-rank and hierarchical tests and their
       posteriors drawn on the triangle.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_confusion_ext import ComparisonSimplexDisplay
    >>> samples = [[0.7, 0.2, 0.1], [0.3, 0.6, 0.1], [0.5, 0.4, 0.1], [0.1, 0.3, 0.6]]
    >>> display = ComparisonSimplexDisplay(samples, rope=0.01,
    ...                                    models=("forest", "tree")).plot()
    >>> display.probabilities.tolist()  # the shares of samples in each region
    [0.5, 0.25, 0.25]
    >>> [text.get_text() for text in display.text_]
    ['forest better\\nP = 0.500', 'practically equivalent (rope ±0.01)\\nP = 0.250', \
'tree better\\nP = 0.250']
    >>> display.scatter_.get_offsets()[0].round(3).tolist()  # 0.7 a + 0.2 rope + 0.1 b
    [0.2, 0.173]
    """

    _renamed_fields = {"names": "models"}

    @validate_params({"samples": [ARRAY], "probabilities": [None, ARRAY],
                      "rope": [Interval(Real, 0, None)], "models": [None, ARRAY]},
                     renamed=_renamed_fields)
    def __init__(self, samples, *, probabilities=None, rope=0.0, models=None):
        samples = _checked_samples(samples)
        rope = float(rope)
        if probabilities is None:
            probabilities = _winners(samples) / samples.shape[0]
        else:
            probabilities = display_array(probabilities, "probabilities", ndim=1,
                                          bounds=(0, 1), what="probabilities")
            if probabilities.size != 3:
                raise ValueError(f"probabilities must hold (p_a_better, p_rope, p_b_better); "
                                 f"got {probabilities.size} numbers.")
            if abs(probabilities.sum() - 1) > _PROBABILITY_SUM_TOLERANCE:
                raise ValueError(f"probabilities must sum to 1 (a better, practically "
                                 f"equivalent, b better); got {probabilities.tolist()}, of "
                                 f"sum {probabilities.sum():.6g}.")
        if rope == 0:
            middle = max(float(samples[start:start + _BLOCK, 1].max())
                         for start in range(0, samples.shape[0], _BLOCK))
            if middle > _TOLERANCE:
                raise ValueError(f"samples put mass on practical equivalence (column 1, up to "
                                 f"{middle:.6g}) but rope is 0; pass the rope of the test that "
                                 "drew them.")
            if probabilities[1] > 0:
                raise ValueError(f"probabilities give practical equivalence "
                                 f"P = {probabilities[1]:.6g} but rope is 0; pass the rope "
                                 "of the test.")
        if models is not None:
            models = tuple(str(name) for name in models)
            if len(models) != 2:
                raise ValueError(f"models must name the two models; got {len(models)} "
                                 "names.")
        self.samples, self.probabilities, self.rope, self.models = (
            samples, probabilities, rope, models)

    @classmethod
    @validate_params({"result": [HasAttributes(
        "samples", "p_a_better", "p_rope", "p_b_better", "rope", "models",
        description="a BayesianSignedRankResult or BayesianHierarchicalResult (the result "
                    "of bayesian_signed_rank_test or bayesian_hierarchical_test)")],
        **SIMPLEX_PLOT})
    @fill_doc(_DOCS)
    def from_result(cls, result, *, ax=None, max_points=3000, title="auto"):
        """Draw the posterior of a Bayesian comparison over data sets.

        Parameters
        ----------
        result : BayesianSignedRankResult or BayesianHierarchicalResult
            What :func:`bayesian_signed_rank_test` or :func:`bayesian_hierarchical_test`
            returned: its ``samples``, probabilities, ``rope`` and ``models`` are drawn.
        %(drawing)s

        Returns
        -------
        display : ComparisonSimplexDisplay
            With ``result_``, the result drawn.

        See Also
        --------
        ComparisonSimplexDisplay.from_scores : Run the test, then draw it.
        bayesian_signed_rank_test : A result to draw.

        References
        ----------
        .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
           tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
           2017, Sections 5 and 6: the Bayesian signed-rank and hierarchical tests and their
           posteriors drawn on the triangle.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_confusion_ext import ComparisonSimplexDisplay, bayesian_signed_rank_test
        >>> a = [0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87]
        >>> b = [0.89, 0.86, 0.74, 0.85, 0.90, 0.69, 0.80, 0.95, 0.60, 0.84]
        >>> result = bayesian_signed_rank_test(a, b, rope=0.01, random_state=0,
        ...                                    models=("forest", "tree"))
        >>> display = ComparisonSimplexDisplay.from_result(result)
        >>> display.text_[0].get_text()
        'forest better\\nP = 0.992'
        >>> len(display.drawn_), len(result.samples)  # thinned for a fast, readable plot
        (3000, 50000)
        """
        display = cls(result.samples,
                      probabilities=[result.p_a_better, result.p_rope, result.p_b_better],
                      rope=result.rope, models=result.models)
        display.result_ = result
        return display.plot(ax=ax, max_points=max_points, title=title)

    @classmethod
    @validate_params({**_FROM_SCORES, **SIMPLEX_PLOT},
                     renamed={"names": "models", "test": "method", "n_samples": "n_draws"})
    @fill_doc(_DOCS)
    def from_scores(cls, scores_a, scores_b, *, method="signed_rank", rope=0.0,
                    prior_strength=None, n_train=None, n_test=None, n_draws=None,
                    n_chains=None, burn_in=None, greater_is_better=True, random_state=None,
                    models=None, ax=None, max_points=3000, title="auto"):
        """Compare two models over data sets with a Bayesian test, then draw its posterior.

        Parameters
        ----------
        scores_a, scores_b : array-like
            Each model's scores: one per data set, shape ``(n_datasets,)``, for
            ``method="signed_rank"``; one per fold of each data set, shape ``(n_datasets,
            n_folds)`` (or a DataFrame), for ``method="hierarchical"``.
        method : {"signed_rank", "hierarchical"}, default="signed_rank"
            The test: :func:`bayesian_signed_rank_test` or
            :func:`bayesian_hierarchical_test`. (``test``, its former name, works with a
            ``FutureWarning`` until 0.2.)
        rope, greater_is_better, random_state, models
            As in both tests (``names``, the former name of ``models``, works with a
            ``FutureWarning`` until 0.2).
        prior_strength : float, default=None
            As in :func:`bayesian_signed_rank_test` (None: its default, 0.5).
        n_train, n_test, n_chains, burn_in : default=None
            As in :func:`bayesian_hierarchical_test` (None: its defaults; ``n_train`` and
            ``n_test`` are required there).
        n_draws : int, default=None
            Posterior draws (per chain for the hierarchical test); None: the test's
            default (50,000 and 2,000). (``n_samples``, its former name, works with a
            ``FutureWarning`` until 0.2.)
        %(drawing)s

        Returns
        -------
        display : ComparisonSimplexDisplay
            With ``result_``, the test's result.

        Warns
        -----
        UserWarning
            Where a parameter of the other test is given: it is not used.

        See Also
        --------
        ComparisonSimplexDisplay.from_result : Draw a test already run.
        bayesian_hierarchical_test : The test of ``method="hierarchical"``.

        References
        ----------
        .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
           tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18,
           2017, Sections 5 and 6: the Bayesian signed-rank and hierarchical tests and their
           posteriors drawn on the triangle.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import numpy as np
        >>> from sklearn_confusion_ext import ComparisonSimplexDisplay
        >>> rng = np.random.default_rng(0)
        >>> b = rng.uniform(0.6, 0.9, (8, 1)) + rng.normal(0, 0.02, (8, 10))
        >>> a = b + rng.normal(0.02, 0.01, (8, 1)) + rng.normal(0, 0.01, (8, 10))
        >>> display = ComparisonSimplexDisplay.from_scores(
        ...     a, b, method="hierarchical", n_train=9, n_test=1, rope=0.01, n_draws=500,
        ...     burn_in=500, random_state=0, models=("forest", "tree"))
        >>> display.result_.samples.shape  # 4 chains of 500 draws
        (2000, 3)
        >>> display.ax_.get_title()
        'Bayesian hierarchical test, 8 data sets: posterior for a new data set'
        """
        given = {"prior_strength": prior_strength, "n_train": n_train, "n_test": n_test,
                 "n_chains": n_chains, "burn_in": burn_in}
        other = [name for other_test, names_ in _OWN.items() if other_test != method
                 for name in names_ if given[name] is not None]
        if other:
            warnings.warn(f"ComparisonSimplexDisplay.from_scores: {', '.join(other)} "
                          f"{'is a parameter' if len(other) == 1 else 'are parameters'} of "
                          f"the other test, not of method={method!r}: not used.", UserWarning,
                          stacklevel=3)
        own = {name: given[name] for name in _OWN[method] if given[name] is not None}
        if n_draws is not None:
            own["n_draws"] = n_draws
        run = (bayesian_signed_rank_test if method == "signed_rank"
               else bayesian_hierarchical_test)
        result = run(scores_a, scores_b, rope=rope, greater_is_better=greater_is_better,
                     random_state=random_state, models=models, **own)
        return cls.from_result(result, ax=ax, max_points=max_points, title=title)

    def _title(self):
        result = getattr(self, "result_", None)
        if result is None or not hasattr(result, "n_datasets"):
            return "Posterior of the comparison (each point: one posterior sample)"
        if hasattr(result, "next_dataset"):
            return (f"Bayesian hierarchical test, {result.n_datasets} data sets: posterior for "
                    "a new data set")
        return f"Bayesian signed-rank test, {result.n_datasets} data sets"

    @validate_params(SIMPLEX_PLOT)
    @fill_doc(_DOCS)
    def plot(self, *, ax=None, max_points=3000, title="auto"):
        """Draw the triangle, its three regions, the samples and the probabilities.

        Parameters
        ----------
        %(drawing)s

        Returns
        -------
        self
            With ``figure_``, ``ax_``, ``scatter_``, ``drawn_``, ``text_``, ``regions_``
            and ``borders_``.

        See Also
        --------
        ComparisonSimplexDisplay.from_result : Draw a test's result.
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Polygon

        if ax is None:
            fig, ax = plt.subplots(figsize=(6.4, 5.6), layout="constrained")
        else:
            fig = ax.figure
        n = self.samples.shape[0]
        drawn = (np.arange(n) if n <= max_points
                 else np.arange(max_points, dtype=np.int64) * n // max_points)
        shown = self.samples[drawn]
        points = (shown @ _CORNERS) / shown.sum(axis=1, keepdims=True)
        no_rope = self.rope == 0
        # The regions where each mass is the largest: a corner, the midpoints of its two
        # sides and the centroid.
        self.regions_ = []
        for j in range(3):
            corner, before, after = _CORNERS[j], _CORNERS[(j - 1) % 3], _CORNERS[(j + 1) % 3]
            outline = [corner, (corner + after) / 2, _CENTROID, (corner + before) / 2]
            greyed = no_rope and j == 1
            region = Polygon(outline, closed=True, facecolor="0.85" if greyed else _COLORS[j],
                             alpha=0.6 if greyed else 0.12, edgecolor="none",
                             hatch="///" if greyed else None, zorder=0)
            ax.add_patch(region)
            self.regions_.append(region)
        colors = _POINT_COLORS[np.argmax(shown, axis=1)]
        self.scatter_ = ax.scatter(points[:, 0], points[:, 1], s=14 if no_rope else 5,
                                   c=list(colors),
                                   alpha=0.25 if len(drawn) > 300 else 0.6, linewidths=0,
                                   zorder=3, rasterized=len(drawn) > 500)
        self.borders_ = [ax.plot(*np.column_stack([_CENTROID, (_CORNERS[j] + _CORNERS[
            (j + 1) % 3]) / 2]), color="0.2", linewidth=0.9, linestyle="--", zorder=4)[0]
            for j in range(3)]
        # The sides under the samples: with rope 0 every sample lies on the bottom side.
        ax.add_patch(Polygon(_CORNERS, closed=True, facecolor="none", edgecolor="black",
                             linewidth=1.2, zorder=2))
        self.text_ = np.asarray(self._corner_texts(ax, no_rope), dtype=object)
        # Below the bottom corners' names (two lines each), the samples drawn.
        counted = f"{len(drawn):,} of {n:,}" if len(drawn) < n else f"{n:,}"
        ax.annotate(f"{counted} posterior samples, one point each;\ndashed: where the two "
                    "largest masses are equal", xy=(0.5, 0), xytext=(0, -(12 + 2.5 * _small())),
                    textcoords="offset points", ha="center", va="top", fontsize="x-small",
                    color="0.35")
        ax.set(xlim=_XLIM, ylim=_YLIM)
        ax.set_aspect("equal")
        ax.axis("off")
        if title == "auto":
            title = self._title()
        if title:
            ax.set_title(title, fontsize="medium", pad=_title_pad(ax))
        self.figure_, self.ax_, self.drawn_ = fig, ax, drawn
        return self

    def _corner_texts(self, ax, no_rope):
        """Each corner's name and probability: below the bottom corners, above the top."""
        name_a, name_b = (_name(name) for name in (self.models or ("a", "b")))
        p_a, p_rope, p_b = self.probabilities
        equivalent = ("practically equivalent: no rope\n(rope = 0: the samples lie on the "
                      "bottom side)" if no_rope else
                      f"practically equivalent (rope ±{self.rope:g})\n{_probability(p_rope)}")
        # Placed in points from their corners: they keep their places on Axes of any size.
        return [ax.annotate(text, xy=_CORNERS[j], xytext=(0, 6 if j == 1 else -6),
                            textcoords="offset points", ha="center",
                            va="bottom" if j == 1 else "top", fontsize="small", color=color)
                for j, (text, color) in enumerate((
                    (f"{name_a} better\n{_probability(p_a)}", _COLORS[0]),
                    (equivalent, "0.5" if no_rope else "0.25"),
                    (f"{name_b} better\n{_probability(p_b)}", _COLORS[2])))]


def _title_pad(ax):
    """The title's distance in points above the Axes: the usual 6 points, more where the
    Axes are too small for the top corner's name (two lines) in the room above it."""
    points_per_unit = min(ax.bbox.width / np.ptp(_XLIM), ax.bbox.height / np.ptp(_YLIM)) \
        * 72 / ax.figure.dpi
    needed = 6 + 2 * 1.2 * _small()
    return 6 + max(0.0, needed - (_YLIM[1] - _CORNERS[1, 1]) * points_per_unit)


def _small():
    """The size in points of the "small" font the corners are named in."""
    from matplotlib.font_manager import FontProperties

    return FontProperties(size="small").get_size_in_points()
