"""Dirichlet posteriors of the rows of a confusion matrix.

Barranco-Chamorro and Carrillo-Garcia, "Techniques to Deal with Off-Diagonal Elements in
Confusion Matrices", Mathematics 2021, Section 4: each row ``k`` (actual class ``k``) is
multinomial with probabilities ``theta_{j|k} = P[predicted j | actual k]``; with a
``Dirichlet(alpha_k)`` prior the posterior is ``Dirichlet(n_k + alpha_k)``, and each
``theta_{j|k}`` is ``Beta(alpha_kj, alpha_k0 - alpha_kj)`` (Lemma 3).
"""

import warnings
from numbers import Real

import numpy as np
from scipy import integrate, optimize, special, stats

from .._core.config import check_result_size
from .._core.matrix_checks import (
    RENAMED_LABELS_ATTRIBUTE,
    check_confusion_matrix,
    check_display_labels,
)
from .._core.params import (
    ALLOW_FRACTIONAL,
    ARRAY,
    CALLABLE,
    NON_NEGATIVE_INT,
    POSITIVE_INT,
    PRIOR_NAMES,
    PROBABILITY_LEVEL,
    RANDOM_STATE,
    Interval,
    NumberArray,
    Options,
    quoted,
    validate_params,
)
from .._core.results import ConfidenceInterval, Result, _Bare, _Table
from .table_tests import ROW_NAMES, check_fractional

# A Dirichlet prior: one positive value for every cell, a name, or one value per cell.
PRIOR = [Interval(Real, 0, None, closed="neither"), PRIOR_NAMES, NumberArray()]


@validate_params({"matrix": [ARRAY], "prior": PRIOR, **ROW_NAMES,
                  "allow_fractional": ALLOW_FRACTIONAL}, renamed={"confusion": "matrix"})
def dirichlet_posterior(matrix, *, prior="perks", display_labels=None, labels=None,
                        allow_fractional="warn"):
    """Posterior of the misclassification probabilities of each actual class (Section 4).

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Counts, rows actual and columns predicted classes; fractional pseudo-counts (a
        transport confusion matrix, say) are accepted with ``allow_fractional=True``.

        .. versionchanged:: 0.1
           Renamed from ``confusion``, which still works with a ``FutureWarning`` until
           0.2.
    prior : float, {"uniform", "perks"} or array-like of shape (n_classes, n_classes), \
default="perks"
        Dirichlet prior parameters: a positive scalar for every cell, "perks"
        (``1 / n_classes`` per cell, one pseudo-instance per row, Remark A1), "uniform"
        (1 per cell, the paper's noninformative prior: ``prior=1.0`` or ``"uniform"``
        reproduces the paper's tables), or one positive value per cell. The parameters of
        each row (counts plus prior) must sum below the largest float (1.8e308), else a
        ``ValueError``.

        The default is chosen by the coverage of the credible intervals of rows near
        100 % right (user guide, :ref:`dirichlet-prior-coverage`): a prior of 1 per cell
        adds ``n_classes - 1`` pseudo-errors to each row, so a perfect row of 89 instances
        at 10 classes reads ``P[k | k]`` 0.909 [0.845, 0.957], an interval that misses
        a true 1 (and 0.97 and 0.99) every time; under "perks" it reads 0.990
        [0.962, 1]. "perks" pulls each cell's marginal towards 0 instead: at many classes
        and some errors in a row, the intervals of off-diagonal cells with no count are
        too short (0.5 per cell, Jeffreys' prior, covers those cells and misses the
        diagonal of good classes).
    display_labels : array-like of shape (n_classes,), default=None
        Class names, kept for display (default ``0 .. n_classes - 1``).
    labels : array-like of shape (n_classes,), default=None
        Deprecated name of ``display_labels``.

        .. deprecated:: 0.1
           ``labels`` was renamed ``display_labels`` in 0.1 and will be removed in 0.2
           (elsewhere in the library ``labels=`` selects and reorders classes).
    allow_fractional : {"warn", True, False}, default="warn"
        What to do when ``matrix`` does not look like counts: rows, columns or all
        cells normalized to sum to 1, or most non-zero cells not whole numbers (see
        :ref:`fractional-matrices`). A normalized matrix holds one pseudo-instance per row,
        so its posterior is as wide as one instance allows and dominated by the prior.
        "warn" computes and warns, False raises ``ValueError``, True accepts fractional
        pseudo-counts silently (a transport confusion matrix of ``N`` instances).

    Returns
    -------
    ConfusionPosterior

    See Also
    --------
    ConfusionPosterior : The posterior itself, built from its Dirichlet parameters.
    PosteriorIntervalDisplay : Its credible intervals, drawn.
    stuart_maxwell_test, marginal_homogeneity_posthoc : The frequentist tests of the
        off-diagonal cells.

    Notes
    -----
    Each row ``k`` is multinomial with probabilities ``theta_(j|k)``; under a
    ``Dirichlet(alpha_k)`` prior its posterior is ``Dirichlet(n_k + alpha_k)`` (the
    paper's Section 4, after Lemma 3), and each ``theta_(j|k)`` is the Beta marginal of
    equation 15.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 4 (equations 13-16, Lemmas 2-3), Tables 27-29 (the IBD example) and
       Remark A1 (the Perks prior).

    Examples
    --------
    >>> from sklearn_confusion_ext import dirichlet_posterior
    >>> ibd = [[37, 1, 15], [6, 19, 26], [15, 3, 77]]
    >>> posterior = dirichlet_posterior(ibd, prior="uniform")  # the paper's prior
    >>> posterior.mean()[0].round(7)  # Table 27
    array([0.6785714, 0.0357143, 0.2857143])

    A class that is always right (89 of 89, ten classes):

    >>> perfect = np.diag([89] * 10)
    >>> low, high = dirichlet_posterior(perfect).credible_interval(0.95)
    >>> print(f"{low[0, 0]:.3f} {high[0, 0]:.3f}")
    0.962 1.000
    """
    given = matrix
    matrix = _check_confusion(matrix, allow_fractional)
    names = check_display_labels(display_labels, labels, matrix.shape[0], given)
    alpha = matrix + _check_prior(prior, matrix.shape)
    _check_totals(alpha, "prior", prior)
    return ConfusionPosterior(alpha, display_labels=names)


class ConfusionPosterior(Result):
    """Independent Dirichlet distributions, one per actual class (row).

    Mirrors scipy's frozen distributions: ``mean``, ``var``, ``std``, ``mode``, ``rvs``.

    Parameters
    ----------
    alpha : array-like of shape (n_classes, n_classes)
        Positive Dirichlet parameters; row ``k`` is the distribution of
        ``P[predicted j | actual k]`` over ``j``.
    display_labels : array-like of shape (n_classes,), default=None
        Class names (default ``0 .. n_classes - 1``).
    labels : array-like of shape (n_classes,), default=None
        Deprecated name of ``display_labels`` (keyword-only).

        .. deprecated:: 0.1
           Use ``display_labels``; ``labels`` will be removed in 0.2, and so will the
           ``labels`` attribute.

    Attributes
    ----------
    alpha : ndarray of shape (n_classes, n_classes)
        The Dirichlet parameters, row ``k`` those of actual class ``k``.
    display_labels : list
        The class names.
    labels : list
        Deprecated name of ``display_labels`` (a ``FutureWarning``; removed in 0.2).

    See Also
    --------
    dirichlet_posterior : The posterior of a confusion matrix under a prior.
    PosteriorIntervalDisplay, PosteriorSimplexDisplay : The posterior, drawn.

    References
    ----------
    .. [1] Barranco-Chamorro, I. and Carrillo-Garcia, R. M. (2021). "Techniques to Deal
       with Off-Diagonal Elements in Confusion Matrices". Mathematics, 9(24), 3233,
       Section 4: Lemma 2 (the mode), Lemma 3 and equations 15-16 (the Beta marginals,
       their means and variances), Section 5.3.3 (the sequential update).

    Examples
    --------
    >>> from sklearn_confusion_ext import ConfusionPosterior
    >>> posterior = ConfusionPosterior([[66, 7, 1, 5], [5, 82, 12, 8], [23, 6, 86, 4],
    ...                                 [25, 9, 20, 91]])
    >>> posterior.mode()[0].round(3)  # Remark 4
    array([0.867, 0.08 , 0.   , 0.053])
    """

    @validate_params({"alpha": [ARRAY], **ROW_NAMES})
    def __init__(self, alpha, display_labels=None, *, labels=None):
        alpha = np.asarray(alpha, dtype=np.float64)
        if alpha.ndim != 2 or alpha.shape[0] != alpha.shape[1] or alpha.shape[0] < 2:
            raise ValueError(f"alpha must be a square matrix with at least two classes; got "
                             f"shape {alpha.shape}.")
        if not np.isfinite(alpha).all() or alpha.min() <= 0:
            raise ValueError("alpha must hold finite positive Dirichlet parameters.")
        _check_totals(alpha, "alpha")
        self.alpha = alpha
        self.display_labels = check_display_labels(display_labels, labels, alpha.shape[0])

    labels = RENAMED_LABELS_ATTRIBUTE

    def _summary(self):
        return [("n_classes", self.alpha.shape[0]), ("rows", _Bare("Dirichlet(alpha[k])"))]

    def _table(self):
        """Per actual class: its parameters' total, the posterior mean and 95% equal-tailed
        interval of its recall, and the class it is most often mistaken for."""
        mean = self.mean()
        lower, upper = self.credible_interval(0.95)
        diagonal = np.arange(len(mean))
        off = np.where(np.eye(len(mean), dtype=bool), -np.inf, mean)
        confused = off.argmax(axis=1)
        return _Table("actual", self.display_labels, {
            "alpha_total": self._totals[:, 0], "recall_mean": mean[diagonal, diagonal],
            "recall_low": lower[diagonal, diagonal], "recall_high": upper[diagonal, diagonal],
            "most_confused_with": [self.display_labels[j] for j in confused],
            "confused_mean": mean[diagonal, confused]})

    @property
    def _totals(self):
        return self.alpha.sum(axis=1, keepdims=True)

    @property
    def _rest(self):
        """``alpha_k0 - alpha_kj`` summed over the other cells (exact beside a huge cell)."""
        n_classes = self.alpha.shape[0]
        return np.stack([np.delete(self.alpha, j, axis=1).sum(axis=1)
                         for j in range(n_classes)], axis=1)

    def mean(self):
        """Posterior means ``alpha_kj / alpha_k0`` (equation 16), the Bayes estimates.

        Returns
        -------
        ndarray of shape (n_classes, n_classes)

        See Also
        --------
        ConfusionPosterior.mode, ConfusionPosterior.var : The other summaries of each cell.
        ConfusionPosterior.credible_interval : The interval around each cell's mean.
        """
        return self.alpha / self._totals

    def var(self):
        """Posterior variances ``alpha_kj (alpha_k0 - alpha_kj) / (alpha_k0^2 (alpha_k0 + 1))``.

        Computed as ``mean (1 - mean) / (alpha_k0 + 1)``, which neither overflows nor
        underflows for parameters from 1e-300 to 1e300 (equation 16).

        Returns
        -------
        ndarray of shape (n_classes, n_classes)

        See Also
        --------
        ConfusionPosterior.std : Their square roots.
        ConfusionPosterior.mean : The posterior means.
        """
        totals = self._totals
        mean = self.alpha / totals
        return mean * (self._rest / totals) / (totals + 1)

    def std(self):
        """Posterior standard deviations, the square roots of :meth:`var`.

        Returns
        -------
        ndarray of shape (n_classes, n_classes)

        See Also
        --------
        ConfusionPosterior.var : The posterior variances.
        """
        return np.sqrt(self.var())

    def mode(self):
        """Posterior modes of each row (Lemma 2).

        With every ``alpha_kj > 1`` the mode is ``(alpha_kj - 1) / (alpha_k0 - r)``. An
        entry with ``alpha_kj <= 1`` sits at the boundary, 0, and the others share
        ``(alpha_kj - 1) / sum(alpha_ki - 1 over alpha_ki > 1)``; a row with no entry above
        1 has its mode at the vertex of its largest parameter (the first, on ties).

        Returns
        -------
        ndarray of shape (n_classes, n_classes)
            Each row sums to 1.

        See Also
        --------
        ConfusionPosterior.mean : The posterior means, the Bayes estimates.
        """
        return dirichlet_mode(self.alpha)

    @validate_params({"level": [PROBABILITY_LEVEL],
                      "method": [Options("equal-tailed", "hpd")]})
    def credible_interval(self, level=0.95, method="equal-tailed"):
        """Credible intervals of every ``P[predicted j | actual k]`` from its Beta marginal.

        Parameters
        ----------
        level : float, default=0.95
            Posterior mass of each interval, in (0, 1).
        method : {"equal-tailed", "hpd"}, default="equal-tailed"
            Quantiles ``(1 - level) / 2`` and ``(1 + level) / 2``, or the highest posterior
            density interval: the shortest interval with that mass, ``[0, q_level]`` when the
            density decreases from 0 (``alpha_kj <= 1``) and ``[q_{1-level}, 1]`` when it
            increases to 1 (for a U-shaped marginal, both parameters at most 1, the interval
            at its heavier end).

            At a bound where the Beta marginal's density is infinite, the equal-tailed
            interval reaches that bound: its lower end is 0 where ``alpha_kj < 1`` (a cell
            with no count under a prior below 1) and its upper end is 1 where the rest of
            the row's parameters sum below 1 (a row with all its count in that cell, under
            "perks"); the other end stays the quantile. This is Brown, Cai and DasGupta's
            (2001) rule for the Jeffreys interval at ``x = 0`` and ``x = n``: the plain
            quantiles leave out the bound where the mass piles up, and miss a true 0 or 1
            every time. Such an interval holds at least ``(1 + level) / 2`` of the mass.
            Under the paper's prior of 1 per cell no parameter is below 1 and the quantiles
            are the paper's (Tables 15-18, A1-A3).

        Returns
        -------
        ConfidenceInterval
            The named pair ``low, high`` of ndarrays of shape (n_classes, n_classes),
            which unpacks as ``low, high = posterior.credible_interval()``. Always
            finite, in [0, 1]. Where scipy's Beta quantile fails (NaN, for
            parameters near 0 or huge ones such as ``Beta(3, 1e154)`` on older scipy), the
            quantile is read from the mirrored ``Beta(b, a)`` and else from the limiting
            Gamma form ``G_a / (G_a + b)``: with ``a -> 0`` the mass concentrates at 0,
            with ``b -> 0`` at 1, and with huge ``a + b`` at the mean.

        See Also
        --------
        PosteriorIntervalDisplay : These intervals, drawn.

        References
        ----------
        .. [1] Barranco-Chamorro and Carrillo-Garcia (2021), Lemma 3 (the Beta marginals)
           and Tables 15-18 (the land-use example's 95 % intervals).
        .. [2] Brown, L. D., Cai, T. T. and DasGupta, A. (2001). "Interval estimation for
           a binomial proportion". Statistical Science, 16(2), 101-133 (the ends at 0
           and 1).

        Examples
        --------
        >>> from sklearn_confusion_ext import dirichlet_posterior
        >>> low, high = dirichlet_posterior([[5, 0], [0, 3]], prior=1e-300).credible_interval()
        >>> low.round(3), high.round(3)
        (array([[1., 0.],
               [0., 1.]]), array([[1., 0.],
               [0., 1.]]))
        """
        level = float(level)
        a, b = self.alpha, self._rest
        if method == "equal-tailed":
            low = np.where(a < 1, 0.0, _beta_ppf((1 - level) / 2, a, b))
            high = np.where(b < 1, 1.0, _beta_ppf((1 + level) / 2, a, b))
            return ConfidenceInterval(low, high)
        bounds = np.array([_beta_hpd(x, y, level) for x, y in zip(a.ravel(), b.ravel())])
        return ConfidenceInterval(bounds[:, 0].reshape(a.shape), bounds[:, 1].reshape(a.shape))

    @validate_params({"size": [POSITIVE_INT], "random_state": RANDOM_STATE})
    def rvs(self, size=1, random_state=None):
        """Random conditional-probability matrices, shape ``(size, n_classes, n_classes)``.

        Parameters
        ----------
        size : int, default=1
            Number of matrices.
        random_state : int, numpy.random.Generator or None, default=None
            Seed or generator.

        Returns
        -------
        ndarray of shape (size, n_classes, n_classes)
            Each matrix's row ``k`` is a draw of ``P[predicted j | actual k]``.

        See Also
        --------
        ConfusionPosterior.score_distribution : Draws of a score of the whole matrix.
        """
        n_classes = self.alpha.shape[0]
        check_result_size("ConfusionPosterior.rvs", (size, n_classes, n_classes),
                          f"{size} matrices of {n_classes} x {n_classes} classes",
                          "Draw fewer matrices (size=)")
        rng = np.random.default_rng(random_state)
        return np.stack([_dirichlet_rvs(rng, row, size) for row in self.alpha], axis=1)

    @validate_params({"scoring": [str, CALLABLE],
                      "size": [POSITIVE_INT], "random_state": RANDOM_STATE},
                     renamed={"score": "scoring"})
    def score_distribution(self, scoring, size=1000, random_state=None):
        """Posterior draws of a score of the whole confusion matrix.

        The row posteriors are the conditionals, given the row totals, of one Dirichlet
        over all the cells, ``Dirichlet(alpha)`` (counts plus prior): whole matrices are
        drawn from it and the score read off each one.

        Parameters
        ----------
        scoring : {"accuracy", "recall_macro", "precision_macro", "f1_macro", "f1_micro", \
"generalized_means", "symmetric_balanced_accuracy"} or callable
            A score of the matrix, or ``f(matrix) -> float`` (rows actual classes).

            .. versionchanged:: 0.1
               Renamed from ``score``, which still works with a ``FutureWarning`` until
               0.2.
        size : int, default=1000
            Number of draws.
        random_state : int, numpy.random.Generator or None, default=None
            Seed or generator.

        Returns
        -------
        ndarray of shape (size,)

        See Also
        --------
        ConfusionPosterior.rvs : Draws of the row-conditional probabilities.
        score_confidence_interval : ``method="bayesian"`` draws a score from the same
            whole-matrix posterior, from targets.

        Examples
        --------
        >>> from sklearn_confusion_ext import dirichlet_posterior
        >>> posterior = dirichlet_posterior([[37, 1, 15], [6, 19, 26], [15, 3, 77]])
        >>> draws = posterior.score_distribution("accuracy", size=4000, random_state=0)
        >>> round(float(draws.mean()), 2), [round(float(q), 2) for q in
        ...                                  np.quantile(draws, [0.025, 0.975])]
        (0.66, [0.6, 0.73])
        """
        function = _matrix_score(scoring)
        n_classes = self.alpha.shape[0]
        check_result_size("ConfusionPosterior.score_distribution",
                          (size, n_classes, n_classes),
                          f"{size} matrices of {n_classes} x {n_classes} classes",
                          "Draw fewer matrices (size=)")
        rng = np.random.default_rng(random_state)
        cells = _dirichlet_rvs(rng, self.alpha.ravel(), size)
        matrices = cells.reshape(size, n_classes, n_classes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(matrices)

    @validate_params({"matrix": [ARRAY], "allow_fractional": ALLOW_FRACTIONAL},
                     renamed={"confusion": "matrix"})
    def update(self, matrix, allow_fractional="warn"):
        """The posterior after observing another confusion matrix (Section 5.3.3).

        The current posterior is the prior of the new data: ``alpha + matrix``.

        Parameters
        ----------
        matrix : array-like of shape (n_classes, n_classes)
            Counts of the new data, rows actual and columns predicted classes.

            .. versionchanged:: 0.1
               Renamed from ``confusion``, which still works with a ``FutureWarning``
               until 0.2.
        allow_fractional : {"warn", True, False}, default="warn"
            As in :func:`dirichlet_posterior`: warn, refuse (False) or accept (True) a
            matrix that does not look like counts.

        Returns
        -------
        ConfusionPosterior

        See Also
        --------
        dirichlet_posterior : The first posterior, of a matrix under a prior.

        References
        ----------
        .. [1] Barranco-Chamorro and Carrillo-Garcia (2021), Section 5.3.3 and Tables
           30-33 (the IBD example's second matrix and its posterior).
        """
        matrix = _check_confusion(matrix, allow_fractional)
        if matrix.shape != self.alpha.shape:
            raise ValueError(f"matrix has shape {matrix.shape}; the posterior is over "
                             f"{self.alpha.shape[0]} classes.")
        return ConfusionPosterior(self.alpha + matrix, display_labels=self.display_labels)

    @validate_params({"i": [NON_NEGATIVE_INT], "j": [NON_NEGATIVE_INT]})
    def prob_confusion_exceeds(self, i, j):
        """Posterior probability that class ``i`` is mistaken for ``j`` more than ``j`` for ``i``.

        ``P[theta_{j|i} > theta_{i|j}]``, the two being independent Beta marginals of
        different rows. Beyond the paper: the asymmetry question of its abstract. Values
        near 1 mean ``i -> j`` confusions dominate.

        With ``N`` the narrower of the two marginals and ``W`` the other,
        ``P[N > W] = int f_N(x) F_W(x) dx`` is integrated over the window from the
        lowest to the highest ``1e-15`` and ``1 - 1e-15`` quantile of the two marginals,
        with break points at their quantiles, so adaptive quadrature sees the narrow
        peaks of large counts (1e7 and beyond) as well as flat small-count marginals
        (the mass left out is below 1e-14). The smaller of
        ``P[N > W]`` and ``P[W > N]`` is integrated (absolute accuracy about 1e-13; a
        probability below that may come out as 0) and the other is one minus it, so
        ``prob_confusion_exceeds(i, j) + prob_confusion_exceeds(j, i) == 1`` to rounding.

        Parameters
        ----------
        i, j : int
            Two different class positions.

        Returns
        -------
        float

        See Also
        --------
        marginal_homogeneity_posthoc : The frequentist test of each class's
            over- or under-prediction.

        Examples
        --------
        >>> from sklearn_confusion_ext import dirichlet_posterior
        >>> posterior = dirichlet_posterior([[90000, 1000], [1200, 80000]])
        >>> round(posterior.prob_confusion_exceeds(1, 0), 6)
        1.0
        >>> posterior.prob_confusion_exceeds(0, 1) < 1e-10
        True
        """
        n_classes = self.alpha.shape[0]
        for name, value in (("i", i), ("j", j)):
            if value >= n_classes:
                raise ValueError(f"{name} must be a class position in [0, {n_classes}); "
                                 f"got {value!r}.")
        if i == j:
            raise ValueError("i and j must be different classes.")
        rest = self._rest
        forward = (self.alpha[i, j], rest[i, j])
        backward = (self.alpha[j, i], rest[j, i])
        return _prob_beta_greater(forward, backward)


def dirichlet_mode(alpha):
    """Modes of the Dirichlet distributions of the rows of ``alpha`` (Lemma 2, with the
    boundary rule of :meth:`ConfusionPosterior.mode`)."""
    excess = np.maximum(alpha - 1, 0)
    totals = excess.sum(axis=1, keepdims=True)
    modes = np.divide(excess, totals, out=np.zeros_like(excess), where=totals > 0)
    flat = totals.ravel() == 0
    modes[flat, np.argmax(alpha[flat], axis=1)] = 1.0
    return modes


def dirichlet_logpdf(points, alpha):
    """Log density of ``Dirichlet(alpha)`` at ``points`` of shape ``(..., r)`` on the simplex.

    ``+inf`` at a boundary point where a parameter is below 1, ``-inf`` where one is above
    1 (``xlogy``: a parameter of exactly 1 contributes nothing there).
    """
    alpha = np.asarray(alpha, dtype=float)
    normalizer = special.gammaln(alpha.sum()) - special.gammaln(alpha).sum()
    with np.errstate(invalid="ignore"):
        return normalizer + special.xlogy(alpha - 1, points).sum(axis=-1)


def _per_class(matrices):
    """Batched true positives, row and column sums of ``(size, C, C)`` matrices."""
    return (np.diagonal(matrices, axis1=1, axis2=2), matrices.sum(axis=2),
            matrices.sum(axis=1))


def _ratio(numerator, denominator):
    return np.divide(numerator, denominator, out=np.zeros_like(numerator),
                     where=denominator > 0)


def _matrix_score(score):
    """A batched function of ``(size, C, C)`` matrices for a score name or a callable."""
    from .._scores.from_confusion import (
        generalized_means_from_confusion,
        symmetric_balanced_accuracy_from_confusion,
    )

    def recall(m):
        tp, rows, _ = _per_class(m)
        return _ratio(tp, rows).mean(axis=1)

    def precision(m):
        tp, _, columns = _per_class(m)
        return _ratio(tp, columns).mean(axis=1)

    def f1(m):
        tp, rows, columns = _per_class(m)
        return _ratio(2 * tp, rows + columns).mean(axis=1)

    def accuracy(m):
        return np.trace(m, axis1=1, axis2=2) / m.sum(axis=(1, 2))

    def one_by_one(function):
        return lambda m: np.array([float(function(matrix)) for matrix in m])

    named = {"accuracy": accuracy, "f1_micro": accuracy, "recall_macro": recall,
             "precision_macro": precision, "f1_macro": f1,
             "generalized_means": one_by_one(generalized_means_from_confusion),
             "symmetric_balanced_accuracy": one_by_one(
                 symmetric_balanced_accuracy_from_confusion)}
    if callable(score):
        return one_by_one(score)
    if score not in named:
        raise ValueError(f"scoring must be one of {sorted(named)} or a callable f(matrix); got "
                         f"{score!r}.")
    return named[score]


def _beta_sd(params):
    a, b = params
    total = a + b
    return np.sqrt((a / total) * (b / total) / (total + 1))


def _prob_beta_greater(first, second):
    """``P[X > Y]`` for independent ``X ~ Beta(*first)`` and ``Y ~ Beta(*second)``."""
    if first == second:
        return 0.5
    if min(*first, *second) < 1:  # an infinite density at 0 or 1: over a probability scale
        return _prob_beta_greater_by_quantiles(first, second)
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            value = _prob_beta_greater_by_density(first, second)
    except (OverflowError, FloatingPointError):  # Boost's density of parameters near 1e200
        value = np.nan
    return value if np.isfinite(value) else _prob_beta_greater_by_quantiles(first, second)


def _prob_beta_greater_by_quantiles(first, second):
    """``P[X > Y]`` as ``int_0^1 P[wide > ppf_narrow(u)] du``: a bounded integrand that
    varies smoothly when the quantiles are those of the narrower Beta."""
    if _beta_sd(first) < _beta_sd(second):
        return 1.0 - _prob_beta_greater_by_quantiles_of(second, first)
    return _prob_beta_greater_by_quantiles_of(first, second)


def _prob_beta_greater_by_quantiles_of(first, second):
    with warnings.catch_warnings(), np.errstate(over="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", integrate.IntegrationWarning)  # roundoff notices
        value, _ = integrate.quad(
            lambda u: _beta_sf_at_quantile(first, second, u), 0.0, 1.0,
            points=[1e-12, 1e-9, 1e-4, 0.5, 1 - 1e-4, 1 - 1e-9, 1 - 1e-12], limit=500,
            epsabs=1e-11, epsrel=1e-9)
    return min(max(float(value), 0.0), 1.0)


def _prob_beta_greater_by_density(first, second):
    """``P[X > Y]`` as the narrow density times the wide cdf, over the window where the
    two Betas hold their mass (parameters at least 1: finite densities)."""
    swapped = (_beta_sd(first), *first) > (_beta_sd(second), *second)
    narrow, wide = (second, first) if swapped else (first, second)
    narrow_beta, wide_beta = stats.beta(*narrow), stats.beta(*wide)
    levels = [1e-15, 1e-9, 1e-4, 0.5, 1 - 1e-4, 1 - 1e-9, 1 - 1e-15]
    quantiles = np.concatenate([_beta_ppf(levels, *narrow), _beta_ppf(levels, *wide)])
    lower, upper = quantiles.min(), quantiles.max()
    points = np.unique(quantiles[(quantiles > lower) & (quantiles < upper)])

    def integral(function):
        if upper <= lower:
            return float(function(lower) > 0.5)
        value, _ = integrate.quad(lambda x: narrow_beta.pdf(x) * function(x), lower, upper,
                                  points=points if points.size else None, limit=500,
                                  epsabs=1e-13, epsrel=1e-10)
        return min(max(value, 0.0), 1.0)

    narrow_greater = integral(wide_beta.cdf)
    if narrow_greater > 0.5:
        narrow_greater = 1.0 - integral(wide_beta.sf)
    return float(1.0 - narrow_greater if swapped else narrow_greater)


_TAIL = np.log(1e-12)  # below this log-distance from 0 or 1, the power-law tails are exact


def _log_tail_mass(log_t, a, b):
    """``log P[X <= t]`` for ``X ~ Beta(a, b)`` and small ``t``: the power law
    ``t^a / (a B(a, b))``. With ``b, a`` swapped, ``log P[X >= 1 - t]``."""
    return a * log_t - np.log(a) - special.betaln(a, b)


def _log_tail_point(log_p, a, b):
    """The inverse of :func:`_log_tail_mass`: ``log t`` where the lower tail holds ``p``."""
    return (log_p + np.log(a) + special.betaln(a, b)) / a


def _beta_sf_at_quantile(first, second, u):
    """``P[X > y]`` for ``X ~ Beta(*first)`` at ``y``, the ``u``-quantile of ``Beta(*second)``.

    Parameters below 1 put quantiles within 1e-300 of 0 or 1, where they round to 0 or 1
    and every comparison ties. There the tails are power laws, ``P[Y <= y] ~ y^a /
    (a B(a, b))``, so the quantile and the probability are read from their logarithms.
    """
    (a, b), (c, d) = first, second
    if 0.0 < u < 1.0:
        # Y's quantile near 0 (its tail is a power law while y * d is small), then X's cdf
        log_y = _log_tail_point(np.log(u), c, d)
        if log_y + np.log1p(d) < _TAIL:
            if log_y + np.log1p(b) >= _TAIL:
                return _beta_sf(np.exp(log_y), a, b)
            return float(-np.expm1(min(_log_tail_mass(log_y, a, b), 0.0)))
        log_1my = _log_tail_point(np.log1p(-u), d, c)  # the same near 1
        if log_1my + np.log1p(c) < _TAIL:
            if log_1my + np.log1p(a) >= _TAIL:
                return 1.0 - _beta_sf(np.exp(log_1my), b, a)
            return float(np.exp(min(_log_tail_mass(log_1my, b, a), 0.0)))
    return _beta_sf(_beta_ppf(u, c, d).item(), a, b)


# Below this parameter SciPy's Beta (Boost) is wrong (sf(0.5; 1e-300, 4e-300) = 0) or, in
# SciPy 1.10, aborts the interpreter (ppf(0.975; 1e-300, 4e-300)): the tails are used.
_TINY_PARAMETER = 1e-100


def _tiny_beta_ppf(q, a, b):
    """Quantiles of ``Beta(a, b)`` with a parameter below ``_TINY_PARAMETER``: its mass sits
    within ``exp(-1/a)`` of 0 and 1, where ``P[X <= y] = y^a / (a B(a, b))`` and
    ``P[X >= 1 - t] = t^b / (b B(a, b))`` hold to the float precision."""
    log_lower = _log_tail_point(np.log(q), a, b)
    log_upper = _log_tail_point(np.log1p(-q), b, a)  # log of 1 - quantile
    return np.where(log_lower < np.log(0.5), np.exp(log_lower),
                    np.where(log_upper < np.log(0.5), -np.expm1(log_upper), 0.5))


def _beta_sf(y, a, b):
    """``P[X > y]`` for ``X ~ Beta(a, b)``, through the tails for tiny parameters."""
    if min(a, b) >= _TINY_PARAMETER:
        return float(stats.beta.sf(y, a, b))
    if y <= 0.5:
        return float(-np.expm1(min(_log_tail_mass(np.log(y), a, b), 0.0))) if y > 0 else 1.0
    return float(np.exp(min(_log_tail_mass(np.log1p(-y), b, a), 0.0))) if y < 1 else 0.0


def _beta_ppf(q, a, b):
    """Beta quantiles, finite where scipy's are NaN (parameters near 0 or huge)."""
    q, a, b = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (q, a, b)))
    tiny = np.minimum(a, b) < _TINY_PARAMETER
    quantiles = np.full(q.shape, np.nan)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # boost's failures on old scipy
        if tiny.any():  # two-point distributions: the power-law tails, in logarithms
            quantiles[tiny] = _tiny_beta_ppf(q[tiny], a[tiny], b[tiny])
        # Both parameters huge: scipy's quantiles drift from 1e13 on (at 1e17 the upper
        # 97.5% quantile lay 24 standard deviations out, at 1e50 below the lower one: a
        # reversed interval), where the Beta is normal to within 1e-6 of a deviation.
        huge = np.minimum(a, b) >= _HUGE_PARAMETER
        plain = ~tiny & ~huge
        quantiles[plain] = stats.beta.ppf(q[plain], a[plain], b[plain])
        if huge.any():
            quantiles[huge] = _normal_beta_ppf(q[huge], a[huge], b[huge])
        bad = ~np.isfinite(quantiles) & ~tiny
        if bad.any():
            quantiles[bad] = 1.0 - stats.beta.ppf(1.0 - q[bad], b[bad], a[bad])
        bad = ~np.isfinite(quantiles) & ~tiny
        if bad.any():
            low = a[bad] <= b[bad]
            small = np.where(low, a[bad], b[bad])
            large = np.where(low, b[bad], a[bad])
            gamma = stats.gamma.ppf(np.where(low, q[bad], 1.0 - q[bad]), small)
            share = gamma / (gamma + large)
            quantiles[bad] = np.where(low, share, 1.0 - share)
    return np.clip(quantiles, 0.0, 1.0)


# From here on both parameters of a Beta marginal: its quantiles are the normal ones.
_HUGE_PARAMETER = 1e13


def _normal_beta_ppf(q, a, b):
    """Quantiles of ``Beta(a, b)`` with ``a, b >= 1e13`` from its normal limit: the mean
    ``a / (a + b)`` plus ``z_q`` standard deviations (the skewness is below 1e-6 there)."""
    total = a + b
    mean, rest = a / total, b / total
    return mean + stats.norm.ppf(q) * np.sqrt(mean * rest / (total + 1))


def _dirichlet_rvs(rng, alpha, size):
    """Dirichlet draws; a row of parameters all below 1e-6 draws its a -> 0 limit.

    That limit puts the whole mass on vertex ``j`` with probability ``alpha_j / alpha_0``
    (NumPy 1.24's ``dirichlet`` does not return for such rows).
    """
    if alpha.max() >= 1e-6:
        return rng.dirichlet(alpha, size)
    vertices = rng.choice(alpha.size, size=size, p=alpha / alpha.sum())
    return np.eye(alpha.size)[vertices]


def _beta_hpd(a, b, level):
    """Shortest interval holding ``level`` of ``Beta(a, b)``."""
    beta = stats.beta(a, b)
    if min(a, b) >= _HUGE_PARAMETER:  # a normal spike: symmetric, its HPD equal-tailed
        return float(_beta_ppf((1 - level) / 2, a, b)), float(_beta_ppf((1 + level) / 2, a, b))
    if a <= 1 < b or (a <= 1 and b <= 1 and a <= b):
        return 0.0, float(_beta_ppf(level, a, b))
    if b <= 1:
        return float(_beta_ppf(1 - level, a, b)), 1.0

    def density_gap(tail):
        return beta.pdf(beta.ppf(tail)) - beta.pdf(beta.ppf(tail + level))

    # Old scipy (Boost) warns where a huge parameter's quantile is out of its reach: the
    # ends are then not finite, and the equal-tailed interval below is used instead.
    with np.errstate(invalid="ignore", over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ends = density_gap(0.0), density_gap(1 - level)
    if not (np.isfinite(ends).all() and ends[0] * ends[1] < 0):
        # Huge parameters: the density is a normal spike, symmetric to rounding.
        return float(_beta_ppf((1 - level) / 2, a, b)), float(_beta_ppf((1 + level) / 2, a, b))
    tail = optimize.brentq(density_gap, 0.0, 1 - level, xtol=1e-15, rtol=1e-15)
    return float(beta.ppf(tail)), float(beta.ppf(tail + level))


def _check_confusion(matrix, allow_fractional):
    matrix = check_confusion_matrix(matrix, "matrix", min_classes=2)
    check_fractional(matrix, "matrix", allow_fractional, "A Dirichlet-multinomial posterior")
    return matrix


def _check_totals(alpha, name, value=None):
    """Refuse Dirichlet parameters whose row total overflows float64: the means, variances
    and intervals all divide by it (means of 0 and NaN variances at a total of inf)."""
    with np.errstate(over="ignore"):
        totals = alpha.sum(axis=1)
    if not np.isfinite(totals).all():
        k = int(np.flatnonzero(~np.isfinite(totals))[0])
        shown = name if value is None or np.ndim(value) else f"{name}={quoted(value)}"
        raise ValueError(
            f"{shown} gives Dirichlet parameters whose total overflows float64 (row {k} "
            f"sums to inf); the parameters of each row must sum below "
            f"{np.finfo(float).max:.4g} (a scalar prior: below "
            f"{np.finfo(float).max / alpha.shape[1]:.4g} for {alpha.shape[1]} classes).")


def _check_prior(prior, shape):
    if PRIOR_NAMES.is_satisfied_by(prior):
        return np.full(shape, 1.0 if prior == "uniform" else 1.0 / shape[0])
    prior = np.asarray(prior, dtype=np.float64)
    if prior.ndim == 0:
        prior = np.full(shape, float(prior))
    if prior.shape != shape:
        raise ValueError(f"prior must be a scalar or of shape {shape}; got shape {prior.shape}.")
    if not np.isfinite(prior).all() or prior.min() <= 0:
        raise ValueError("prior must hold finite positive Dirichlet parameters.")
    return prior
