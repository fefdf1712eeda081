"""Quantification error measures (Sebastiani, "Evaluation Measures for Quantification: An
Axiomatic Approach", Information Retrieval Journal 2020), prevalence vectors, scorers and
sampling protocols.

Each measure compares a true class-prevalence vector ``p`` with a predicted one ``p_hat``,
or many of them (one per row), and aggregates over rows. Lower is better.
"""

import inspect

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils.validation import check_is_fitted

from ._core.config import resample_block
from ._core.params import Options, check_keywords, quoted, validate_params
from ._core.results import _result, _Table, _Tabulated
from ._core.user_warnings import warn
from ._core.validation import check_label_list, check_sample_weight, check_target_set

_SUM_TOLERANCE = 1e-6
# A scorer's eps="auto" is the paper's 1 / (2 |sample|) on each fold.
_AUTO = Options("auto")


@validate_params()
def absolute_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Absolute error AE (equation 1): ``mean_c |p_hat(c) - p(c)|``.

    Parameters
    ----------
    p_true, p_pred : array-like of shape (n_classes,) or (n_samples, n_classes)
        True and predicted prevalence vectors (distributions over the classes), one per
        row for many test samples.
    eps : float, default=None
        Smoothing of eq. (6); the paper does not smooth AE, so it is not used here (the
        parameter keeps one signature for every measure).
    aggregate : {"mean", "median", "weighted", None}, default="mean"
        How to aggregate the values of several samples (Section 5.3); None returns one
        value per sample. "weighted" is the mean with each sample weighted by the inverse
        of its largest possible error (:func:`max_quantification_error`), which the
        paper suggests for the measures without MAX: every sample then weighs as if its
        error ranged over [0, 1].

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import absolute_error
    >>> round(absolute_error([0.2, 0.8], [0.25, 0.75]), 4)  # Appendix B.2
    0.05
    """
    return _measure(p_true, p_pred, eps, aggregate, _ae, smoothed=False)


@validate_params()
def normalized_absolute_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Normalized absolute error NAE (equation 3): AE divided by its maximum for ``p``, in [0, 1].

    ``sum_c |p_hat(c) - p(c)| / (2 (1 - min_c p(c)))``.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`absolute_error` (``eps`` unused: the paper does not smooth NAE).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_absolute_error
    >>> round(normalized_absolute_error([0.2, 0.8], [0.25, 0.75]), 4)
    0.0625
    """
    return _measure(p_true, p_pred, eps, aggregate, _nae, smoothed=False)


@validate_params()
def relative_absolute_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Relative absolute error RAE (equation 5): ``mean_c |p_hat(c) - p(c)| / p(c)``.

    Parameters
    ----------
    p_true, p_pred, aggregate
        As in :func:`absolute_error`.
    eps : float, default=None
        Additive smoothing of eq. (6), ``(eps + p(c)) / (eps |C| + sum p)``, applied to both
        distributions; the paper uses ``1 / (2 |sample|)``. Without it a zero true
        prevalence raises ``ValueError``, and so does one so small (below about
        ``1e-308``) that RAE exceeds the largest float.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import relative_absolute_error
    >>> relative_absolute_error([0.2, 0.8], [0.25, 0.75])
    0.15625
    """
    return _measure(p_true, p_pred, eps, aggregate, _rae)


@validate_params()
def normalized_relative_absolute_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Normalized relative absolute error NRAE (equation 8), in [0, 1].

    ``sum_c |p_hat(c) - p(c)| / p(c)`` over ``|C| - 1 + (1 - min p) / min p``.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`relative_absolute_error`.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_relative_absolute_error
    >>> normalized_relative_absolute_error([0.2, 0.8], [0.25, 0.75])
    0.0625
    """
    return _measure(p_true, p_pred, eps, aggregate, _nrae)


@validate_params()
def squared_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Squared error SE (equation 9): ``mean_c (p(c) - p_hat(c))^2``.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`absolute_error` (``eps`` unused).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import squared_error
    >>> round(squared_error([0.2, 0.8], [0.25, 0.75]), 6)
    0.0025
    """
    return _measure(p_true, p_pred, eps, aggregate, _se, smoothed=False)


@validate_params()
def normalized_squared_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Normalized squared error NSE (equation 11): SE over its maximum for ``p``, in [0, 1].

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`absolute_error` (``eps`` unused).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_squared_error
    >>> round(normalized_squared_error([0.2, 0.8], [0.25, 0.75]), 6)
    0.003906
    """
    return _measure(p_true, p_pred, eps, aggregate, _nse, smoothed=False)


@validate_params()
def discordance_ratio(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Discordance ratio DR (equation 13): ``mean_c |p(c) - p_hat(c)| / max(p(c), p_hat(c))``.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`relative_absolute_error`.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import discordance_ratio
    >>> round(discordance_ratio([0.2, 0.8], [0.25, 0.75]), 5)
    0.13125
    """
    return _measure(p_true, p_pred, eps, aggregate, _dr)


@validate_params()
def kl_divergence(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Kullback-Leibler divergence KLD (equation 14): ``sum_c p(c) log(p(c) / p_hat(c))``.

    Computed as ``sum_c p(c) (log p(c) - log p_hat(c))`` over the classes with
    ``p(c) > 0``, so denormal prevalences give the finite value (at most about 745).

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`relative_absolute_error`; without ``eps`` a zero predicted prevalence
        where the true one is positive raises ``ValueError``.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import kl_divergence
    >>> round(kl_divergence([0.2, 0.8], [0.25, 0.75]), 4)
    0.007
    """
    return _measure(p_true, p_pred, eps, aggregate, _kld)


@validate_params()
def normalized_kl_divergence(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Normalized KLD (equation 16): ``2 e^KLD / (e^KLD + 1) - 1``, in [0, 1].

    Computed as the equal ``tanh(KLD / 2)``, which cannot overflow; it rounds to 1 for
    a KLD above about 37.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`kl_divergence`.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_kl_divergence
    >>> round(normalized_kl_divergence([0.2, 0.8], [0.25, 0.75]), 4)
    0.0035
    """
    return _measure(p_true, p_pred, eps, aggregate, _nkld)


@validate_params()
def pearson_divergence(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Pearson divergence PD (equation 17): ``mean_c (p(c) - p_hat(c))^2 / p_hat(c)``.

    The PD column of the paper's Appendix B does not follow eq. (17); this is eq. (17).

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`relative_absolute_error`; without ``eps`` a zero predicted prevalence
        raises ``ValueError``, and so does one so small (below about ``1e-308``) that PD
        exceeds the largest float.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import pearson_divergence
    >>> round(pearson_divergence([0.2, 0.8], [0.25, 0.75]), 5)
    0.00667
    """
    return _measure(p_true, p_pred, eps, aggregate, _pd)


@validate_params()
def max_normalized_kl_divergence(p_true, p_pred, *, eps=None, aggregate="mean"):
    """KLD over its largest value for ``p``, ``KLD(p, p_hat) / z_KLD(p)``, in [0, 1].

    The normalization of KLD by its maximum that Section 4.8 of the paper proposes
    before turning to the logistic NKLD (:func:`normalized_kl_divergence`, eq. 16,
    which keeps the name NKLD). ``z_KLD`` is the KLD of the perverse estimator, all
    the mass on the rarest class (:func:`max_quantification_error`), with both
    distributions smoothed by eq. (6), so this measure has MAX exactly: 1 for the
    perverse estimator of every ``p``.

    Parameters
    ----------
    p_true, p_pred, aggregate
        As in :func:`absolute_error`.
    eps : float
        Smoothing of eq. (6), as in :func:`kl_divergence`; required, since without it
        the largest KLD is infinite (a predicted prevalence of 0).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import max_normalized_kl_divergence
    >>> round(max_normalized_kl_divergence([0.01, 0.99], [0.02, 0.98], eps=1 / 2000), 6)
    0.000405
    >>> max_normalized_kl_divergence([0.01, 0.99], [1.0, 0.0], eps=1 / 2000)
    1.0
    """
    _require_eps(eps, "max_normalized_kl_divergence", "KLD")
    return _measure(p_true, p_pred, eps, aggregate, _MaxNormalized(_kld, float(eps)))


@validate_params()
def normalized_pearson_divergence(p_true, p_pred, *, eps=None, aggregate="mean"):
    """PD over its largest value for ``p``, ``PD(p, p_hat) / z_PD(p)``, in [0, 1].

    Pearson divergence (eq. 17) normalized by the PD of the perverse estimator, as NAE,
    NRAE and NSE normalize AE, RAE and SE: ``z_PD`` of eq. (18), computed exactly
    (:func:`max_quantification_error`). Both distributions are smoothed by eq. (6).

    Parameters
    ----------
    p_true, p_pred, aggregate
        As in :func:`absolute_error`.
    eps : float
        Smoothing of eq. (6), as in :func:`pearson_divergence`; required, since without
        it the largest PD is infinite (a predicted prevalence of 0).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_pearson_divergence
    >>> round(normalized_pearson_divergence([0.2, 0.8], [0.25, 0.75], eps=1 / 200), 6)
    0.000102
    >>> normalized_pearson_divergence([0.2, 0.8], [1.0, 0.0], eps=1 / 200)
    1.0
    """
    _require_eps(eps, "normalized_pearson_divergence", "PD")
    return _measure(p_true, p_pred, eps, aggregate, _MaxNormalized(_pd, float(eps)))


@validate_params()
def max_quantification_error(error, p_true, *, eps=None):
    """The largest value a quantification error takes for a true distribution: ``z_D(p)``.

    The error of the perverse estimator (Section 3.1), which puts all the mass on the
    rarest class of ``p``: ``z_AE`` (eq. 2), ``z_RAE`` (eq. 7), ``z_SE`` (eq. 10),
    ``z_KLD`` (eq. 15) and ``z_PD`` (eq. 18) of the paper, and the maximum of every other
    measure of this module (1 for NAE, NSE and the measures normalized by their maximum;
    just below 1 for NRAE and NKLD when smoothed). It is the largest error over all
    predicted distributions: every measure but DR is convex in the prediction, so its
    maximum is at a vertex of the simplex, the rarest class's. Smoothed DR can peak off
    the vertices (the mass split over the rarest classes in proportion to the square
    roots of their prevalences); its maximum is computed exactly too.

    With ``eps``, the measures that the paper smooths (RAE, NRAE, DR, KLD, NKLD, PD and
    the measures normalized by their maximum) are smoothed by eq. (6) on both sides, the
    perverse estimator included, exactly as the measure itself computes them: this is
    the maximum of ``error(p_true, p_pred, eps=eps)`` over ``p_pred``. Eq. (15) and (18)
    write the smoothed perverse estimator as ``1 - (|C| - 1) eps`` and ``eps``, a first
    approximation of eq. (6)'s ``(1 + eps) / (1 + |C| eps)`` and ``eps / (1 + |C| eps)``
    (and eq. 18 drops the square of its first term): the two agree to about ``|C| eps``.

    Parameters
    ----------
    error : callable
        A measure of this module, e.g. :func:`kl_divergence` or :func:`absolute_error`.
    p_true : array-like of shape (n_classes,) or (n_samples, n_classes)
        True prevalence vectors, one per row for many test samples.
    eps : float, default=None
        Smoothing of eq. (6), as the measure takes it. Without it the maximum of KLD and
        PD is infinite, which raises ``ValueError`` (NKLD's is then 1, its supremum).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_confusion_ext import absolute_error, kl_divergence, \\
    ...     max_quantification_error
    >>> max_quantification_error(absolute_error, [0.01, 0.99])  # eq. (2)
    0.99
    >>> round(max_quantification_error(kl_divergence, [0.01, 0.99], eps=1 / 2000), 2)
    7.46
    """
    formula, smoothed = _measure_formula(error, eps)
    p_true = _check_distributions(p_true, p_true)[0]
    if eps is not None and smoothed:
        p_true = smooth(p_true, float(eps))
    if eps is None and formula in (_kld, _pd):
        _require_eps(eps, "max_quantification_error", error.__name__)
    if eps is None and formula is _nkld:
        maximum = np.ones(p_true.shape[:-1])
    else:
        maximum = _maximum(formula, p_true, float(eps) if smoothed and eps is not None
                           else None)
    return float(maximum) if maximum.ndim == 0 else maximum


@validate_params()
def project_prevalence(p, classes):
    """The projection of a prevalence vector on a sub-codeframe (Section 3.2, Example 2).

    The distribution on the classes ``classes`` whose ratios between prevalences are those
    of ``p``: ``p[classes] / p[classes].sum()``. Property 8 (IND) compares errors of
    projections.

    Parameters
    ----------
    p : array-like of shape (n_classes,) or (n_samples, n_classes)
        Prevalence vectors summing to 1, one per row for many samples.
    classes : array-like of int
        Positions of the classes of the sub-codeframe, in the order wanted, each at most once.

    Returns
    -------
    ndarray of shape (len(classes),) or (n_samples, len(classes))

    Examples
    --------
    Example 2 of Sebastiani (2020), the projection on ``{c_1, c_2, c_3}``:

    >>> from sklearn_confusion_ext import project_prevalence
    >>> project_prevalence([0.32, 0.00, 0.48, 0.20], [0, 1, 2]).round(2)
    array([0.4, 0. , 0.6])
    """
    p = _check_distributions(p, p, names=("p", "p"))[0]
    n_classes = p.shape[-1]
    positions = np.asarray(classes)
    if positions.ndim != 1 or positions.size == 0 or positions.dtype.kind not in "iu" or \
            positions.min() < 0 or positions.max() >= n_classes or \
            np.unique(positions).size != positions.size:
        raise ValueError(f"classes must be distinct positions among the {n_classes} classes "
                         f"of p (0..{n_classes - 1}); got {quoted(classes)}.")
    part = p[..., positions]
    mass = part.sum(axis=-1, keepdims=True)
    if (mass <= 0).any():
        raise ValueError("The projection of p on the classes given is undefined: p puts no "
                         "mass on them (a row of p is 0 on every class of classes).")
    return part / mass


def smooth(p, eps):
    """Additive smoothing of equation (6): ``(eps + p(c)) / (eps |C| + sum_c p(c))``.

    An ``eps`` above 1 divides numerator and denominator by ``eps`` first, so a huge
    ``eps`` gives the uniform distribution rather than an overflow.
    """
    p = np.asarray(p, dtype=np.float64)
    scale = max(float(eps), 1.0)
    p, eps = p / scale, eps / scale
    return (eps + p) / (eps * p.shape[-1] + p.sum(axis=-1, keepdims=True))


def _mean(values, axis=-1):
    """The mean, computed as ``sum(values / n)`` where ``sum(values)`` would overflow."""
    with np.errstate(over="ignore"):
        mean = np.mean(values, axis=axis)
    if np.isfinite(mean).all():
        return mean
    return (np.asarray(values) / np.shape(values)[axis]).sum(axis=axis)


def _require_finite(values, name, what):
    if not np.isfinite(values).all():
        raise ValueError(f"{name}: {what}, so the measure exceeds the largest float; pass "
                         "eps=, or a larger one (the paper uses 1 / (2 * sample size)), to "
                         "smooth the distributions.")


def _require_eps(eps, function, measure):
    if eps is None:
        raise ValueError(f"{function}: the largest {measure} is infinite without smoothing "
                         "(a predicted prevalence of 0); pass eps= (the paper uses "
                         "1 / (2 * sample size)).")


def _perverse(p, eps):
    """The perverse estimator of each row of ``p``: all the mass on its rarest class."""
    perverse = np.zeros_like(p)
    np.put_along_axis(perverse, np.argmin(p, axis=-1)[..., None], 1.0, axis=-1)
    return perverse if eps is None else smooth(perverse, eps)


def _maximum(formula, p, eps):
    """``formula``'s largest value for each row of ``p`` (already smoothed with ``eps``)."""
    if formula is _dr and eps is not None:
        return _discordance_maximum(p, eps)
    return np.asarray(formula(p, _perverse(p, eps)), dtype=np.float64)


def _discordance_maximum(p, eps):
    """The largest DR for each row of the smoothed ``p`` over smoothed predictions.

    Smoothed predictions are the vectors ``x >= lo = eps / (1 + |C| eps)`` summing to 1.
    A class predicted below its prevalence costs ``1 - x / p`` (best at ``x = lo``), one
    above it ``1 - p / x``, concave in ``x``: the best split of a mass ``M`` over a set
    ``O`` of such classes puts ``x`` in proportion to ``sqrt(p)`` and costs
    ``|O| - (sum_O sqrt(p))^2 / M``. The best ``O`` holds the ``k`` rarest classes for
    some ``k``; for ``k > 1`` it lies off the vertices of the simplex.
    """
    n_classes = p.shape[-1]
    low = eps / (1 + n_classes * eps) if eps <= 1 else 1 / (1 / eps + n_classes)
    ordered = np.sort(p, axis=-1)
    k = np.arange(1, n_classes + 1)
    over = np.cumsum(np.sqrt(ordered), axis=-1) ** 2 / (1 - (n_classes - k) * low)
    under_terms = 1 - low / ordered
    # the classes after the k rarest: suffix sums of their costs
    under = np.cumsum(under_terms[..., ::-1], axis=-1)[..., ::-1]
    under = np.concatenate([under[..., 1:], np.zeros(p.shape[:-1] + (1,))], axis=-1)
    return np.maximum((under + k - over).max(axis=-1) / n_classes, 0.0)


def _ratio(values, maxima):
    """``values / maxima``; 0 where the maximum is 0 (every prediction then scores 0)."""
    zero = maxima <= 0
    if zero.any():
        warn("eps is so large that smoothing makes every distribution the same (the largest "
             "error is 0): the normalized error is 0 there.", UndefinedMetricWarning)
    return np.where(zero, 0.0, values / np.where(zero, 1.0, maxima))


class _MaxNormalized:
    """``formula(p, q) / formula's maximum for p`` (a measure normalized by its z)."""

    def __init__(self, formula, eps):
        self.formula, self.eps = formula, eps

    def __call__(self, p, q):
        return _ratio(self.formula(p, q), _maximum(self.formula, p, self.eps))


def _weighted_mean(values, maxima):
    """The mean of ``values`` weighted by ``1 / maxima`` (Section 5.3)."""
    informative = maxima > 0
    if not informative.all():
        warn("a sample's largest error is 0 (eps so large that smoothing makes every "
             "distribution the same): it gets weight 0 in aggregate='weighted'.",
             UndefinedMetricWarning)
        if not informative.any():
            return 0.0
        values, maxima = values[informative], maxima[informative]
    weights = maxima.min() / maxima  # in (0, 1]: 1 / maxima would overflow for tiny ones
    return float((weights * values).sum() / weights.sum())


def _ae(p, q):
    return np.abs(q - p).mean(axis=-1)


def _nae(p, q):
    return np.abs(q - p).sum(axis=-1) / (2 * (1 - p.min(axis=-1)))


def _rae(p, q):
    _require_positive(p, "p_true", "a true prevalence is 0 (RAE divides by it)")
    with np.errstate(over="ignore"):
        relative = np.abs(q - p) / p
    _require_finite(relative, "p_true", f"a true prevalence is as small as {p.min():.3g} "
                    "(RAE divides by it)")
    return _mean(relative)


def _nrae(p, q):
    _require_positive(p, "p_true", "a true prevalence is 0 (NRAE divides by it)")
    smallest = p.min(axis=-1, keepdims=True)
    # numerator and denominator of eq. (8) times min p: both finite for denormal prevalences
    numerator = (np.abs(q - p) * (smallest / p)).sum(axis=-1)
    smallest = smallest[..., 0]
    return numerator / ((p.shape[-1] - 1) * smallest + (1 - smallest))


def _se(p, q):
    return ((p - q) ** 2).mean(axis=-1)


def _nse(p, q):
    worst = np.argmin(p, axis=-1)[..., None]
    perverse = np.zeros_like(p)
    np.put_along_axis(perverse, worst, 1.0, axis=-1)
    return ((p - q) ** 2).sum(axis=-1) / ((p - perverse) ** 2).sum(axis=-1)


def _dr(p, q):
    largest = np.maximum(p, q)
    _require_positive(largest, "p_true", "a class has prevalence 0 in both distributions "
                      "(DR divides by the larger)")
    return (np.abs(p - q) / largest).mean(axis=-1)


def _kld(p, q):
    _require_positive(np.where(p > 0, q, 1.0), "p_pred",
                      "a predicted prevalence is 0 where the true one is not (KLD divides by it)")
    # log p - log q rather than log(p / q): the ratio overflows for denormal q; terms with
    # p = 0 are 0 (xlogy's convention)
    positive = p > 0
    log_ratio = np.log(np.where(positive, p, 1.0)) - np.log(np.where(positive, q, 1.0))
    # KLD >= 0 (Gibbs' inequality); rounding can leave -1e-17 between near-equal rows
    return np.maximum((p * log_ratio).sum(axis=-1), 0.0)


def _nkld(p, q):
    # eq. (16), 2 e^K / (e^K + 1) - 1, is tanh(K / 2): no overflow of e^K
    return np.tanh(_kld(p, q) / 2)


def _pd(p, q):
    _require_positive(q, "p_pred", "a predicted prevalence is 0 (PD divides by it)")
    with np.errstate(over="ignore"):
        terms = (p - q) ** 2 / q
    _require_finite(terms, "p_pred", f"a predicted prevalence is as small as {q.min():.3g} "
                    "(PD divides by it)")
    return _mean(terms)


def _require_positive(values, name, what):
    if (values <= 0).any():
        raise ValueError(f"{name}: {what}; pass eps= (the paper uses 1 / (2 * sample size)) "
                         "to smooth the distributions.")


def _measure(p_true, p_pred, eps, aggregate, formula, smoothed=True):
    p_true, p_pred = _check_distributions(p_true, p_pred)
    eps = float(eps) if eps is not None and smoothed else None
    if eps is not None:
        p_true, p_pred = smooth(p_true, eps), smooth(p_pred, eps)
    if aggregate == "weighted" and p_true.ndim == 2 and formula in (_kld, _pd):
        _require_eps(eps, "aggregate='weighted'", "KLD" if formula is _kld else "PD")
    values = formula(p_true, p_pred)
    if values.ndim == 0 or aggregate is None:
        return float(values) if values.ndim == 0 else values
    if aggregate == "weighted":
        maxima = (np.ones(len(values)) if formula is _nkld and eps is None
                  else _maximum(formula, p_true, eps))
        return _weighted_mean(values, maxima)
    return float(_mean(values) if aggregate == "mean" else np.median(values))


def _measure_formula(error, eps):
    """The formula of a measure of this module and whether the paper smooths it."""
    for function, formula, smoothed in _MEASURES:
        if error is function:
            return formula, smoothed
    for function, formula in _MAX_NORMALIZED:
        if error is function:
            _require_eps(eps, "max_quantification_error", function.__name__)
            return _MaxNormalized(formula, float(eps)), True
    names = ", ".join(function.__name__ for function, *_ in (*_MEASURES, *_MAX_NORMALIZED))
    raise ValueError(f"max_quantification_error: error must be one of the measures of this "
                     f"module ({names}); got {getattr(error, '__name__', repr(error))}.")


def _check_distributions(p_true, p_pred, names=("p_true", "p_pred")):
    arrays = []
    for name, p in zip(names, (p_true, p_pred)):
        p = np.asarray(p)
        if p.ndim not in (1, 2) or p.shape[-1] < 2 or p.size == 0 or p.dtype.kind not in "biuf":
            raise ValueError(f"{name} must be a prevalence vector of at least two classes, or "
                             f"one per row; got an array of shape {p.shape}.")
        p = p.astype(np.float64)
        if not np.isfinite(p).all() or p.min() < 0:
            raise ValueError(f"{name} must hold finite non-negative prevalences.")
        sums = p.sum(axis=-1)
        if np.abs(sums - 1).max() > _SUM_TOLERANCE:
            raise ValueError(f"{name} must sum to 1 (a distribution over the classes); a row "
                             f"sums to {sums.ravel()[np.argmax(np.abs(sums - 1))]:g}.")
        arrays.append(p)
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"p_true and p_pred must have the same shape; got {arrays[0].shape} "
                         f"and {arrays[1].shape}.")
    return arrays


_MEASURES = (
    (absolute_error, _ae, False), (normalized_absolute_error, _nae, False),
    (relative_absolute_error, _rae, True), (normalized_relative_absolute_error, _nrae, True),
    (squared_error, _se, False), (normalized_squared_error, _nse, False),
    (discordance_ratio, _dr, True), (kl_divergence, _kld, True),
    (normalized_kl_divergence, _nkld, True), (pearson_divergence, _pd, True),
)
# Measures normalized by their maximum: (function, the measure's formula).
_MAX_NORMALIZED = ((max_normalized_kl_divergence, _kld),
                   (normalized_pearson_divergence, _pd))


@validate_params()
def prevalence(y, *, labels=None, sample_weight=None):
    """Class prevalence vector of labels (Section 2).

    Parameters
    ----------
    y : array-like or sparse matrix
        1-D class labels, or a 2-D multi-label indicator matrix (multi-label
        quantification as one binary problem per class).
    labels : array-like, default=None
        1-D labels: the classes, in order (absent ones get 0). 2-D: column indices.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    ndarray of shape (n_labels,)
        For 1-D labels the fraction of (weighted) samples in each class, summing to 1; for
        a 2-D indicator the fraction of samples that carry each class.

    Examples
    --------
    >>> from sklearn_confusion_ext import prevalence
    >>> prevalence(["a", "b", "b", "c"])
    array([0.25, 0.5 , 0.25])
    >>> prevalence(["a", "b", "b", "c"], labels=["c", "z", "b"])
    array([0.25, 0.  , 0.5 ])
    >>> prevalence([[1, 0], [1, 1], [0, 0]])
    array([0.66666667, 0.33333333])
    """
    target_set = check_target_set({"y": y}, labels)
    mass = target_set.masses[0]
    weights = check_sample_weight(sample_weight, mass.shape[0], "y")
    if weights is None:
        weights = np.ones(mass.shape[0])
    if weights.size == 0 or weights.max() == 0:
        raise ValueError("sample_weight sums to 0; prevalences need a positive total weight.")
    weights = weights / weights.max()  # the sum of huge weights would overflow
    counts = np.asarray(mass.T @ weights).ravel()
    selection = target_set.selection
    if selection is not None:
        counts = counts[selection]
    return counts / weights.sum()


class QuantificationScorer:
    """A scikit-learn scorer comparing true and predicted prevalences on a fold.

    Built by :func:`make_quantification_scorer`; a picklable module-level class, so it
    works with ``n_jobs > 1``. Calling it returns the negated error (greater is better).

    Parameters
    ----------
    error : callable
        One of the quantification measures of this module.
    method : {"classify_and_count", "probabilistic_classify_and_count"}
        Count ``predict`` outputs, or average ``predict_proba`` columns.
    labels : array-like or None
        Classes, in order; by default ``estimator.classes_``.
    error_params : dict
        Extra keyword arguments of ``error`` (``eps``).

    Examples
    --------
    >>> from sklearn_confusion_ext import make_quantification_scorer, absolute_error
    >>> scorer = make_quantification_scorer(absolute_error)
    >>> scorer
    make_quantification_scorer(absolute_error, method='classify_and_count')
    """

    def __init__(self, error, method, labels, error_params):
        self.error, self.method, self.labels = error, method, labels
        self.error_params = dict(error_params)

    def __repr__(self):
        params = "".join(f", {k}={v!r}" for k, v in self.error_params.items())
        labels = "" if self.labels is None else f", labels={list(self.labels)!r}"
        return (f"make_quantification_scorer({self.error.__name__}, method={self.method!r}"
                f"{labels}{params})")

    def __call__(self, estimator, X, y_true, sample_weight=None):
        check_is_fitted(estimator)
        n_samples = y_true.shape[0] if hasattr(y_true, "shape") else len(y_true)
        if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
            raise ValueError("Quantification scorers take single-label targets; for "
                             "multi-label quantification score each class as a binary "
                             "problem (Sebastiani 2020, Section 2).")
        classes = np.asarray(estimator.classes_ if self.labels is None else self.labels)
        true = prevalence(y_true, labels=classes, sample_weight=sample_weight)
        predicted = _PREVALENCE_ESTIMATES[self.method](estimator, X, classes, "estimator",
                                                       sample_weight)
        params = dict(self.error_params)
        if _AUTO.is_satisfied_by(params.get("eps")):
            params["eps"] = 1 / (2 * n_samples)
        return -self.error(true, predicted, **params)


@validate_params()
def make_quantification_scorer(error, *, method="classify_and_count", labels=None,
                               **error_params):
    """Scorer for :func:`~sklearn.model_selection.cross_val_score` and
    :class:`~sklearn.model_selection.GridSearchCV` from a quantification error.

    On each validation fold it compares the true class prevalences with the predicted
    ones, counted from ``predict`` ("classify_and_count") or averaged from
    ``predict_proba`` ("probabilistic_classify_and_count"), and returns the negated
    error, as scikit-learn's ``neg_*`` scorers do.

    Parameters
    ----------
    error : callable
        A measure of this module, e.g. :func:`absolute_error` or :func:`kl_divergence`.
    method : {"classify_and_count", "probabilistic_classify_and_count"}, \
default="classify_and_count"
        How the predicted prevalence is obtained.
    labels : array-like, default=None
        The classes, in order; by default the estimator's ``classes_``.
    **error_params
        Passed to ``error`` (``eps``; ``aggregate`` is not allowed), and checked against
        its parameters when the scorer is built: a keyword ``error`` does not take, or a
        value it refuses, raises at once rather than on every fold. ``eps="auto"`` smooths
        with the paper's ``1 / (2 * fold size)``.

    Returns
    -------
    QuantificationScorer

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn_confusion_ext import make_quantification_scorer, kl_divergence
    >>> X, y = load_iris(return_X_y=True)
    >>> scorer = make_quantification_scorer(kl_divergence, eps=1e-3)
    >>> scores = cross_val_score(LogisticRegression(max_iter=500), X, y, scoring=scorer, cv=3)
    >>> bool((scores <= 0).all())
    True
    """
    if "aggregate" in error_params:
        raise ValueError("aggregate is not a scorer parameter: a fold gives one sample.")
    if labels is not None:  # checked here, not on every fold
        check_label_list(labels)
    passed_by_scorer = list(inspect.signature(error).parameters)[:2]
    distributions = sorted(set(passed_by_scorer) & set(error_params))
    if distributions:
        raise TypeError(f"make_quantification_scorer got {distributions}: the scorer passes "
                        "each fold's true and predicted prevalences itself.")
    checked = dict(error_params)
    if _AUTO.is_satisfied_by(checked.get("eps")):
        checked["eps"] = 0.5  # 1 / (2 * fold size) for a fold of one element, the largest
    check_keywords(error, checked, "make_quantification_scorer")
    return QuantificationScorer(error, method, labels, error_params)


@validate_params()
def prevalence_protocol_samples(y, *, n_samples=100, sample_size=None, protocol="natural",
                                random_state=None):
    """Index arrays of test samples for evaluating quantifiers over many samples (Section 5.3).

    The two protocols that Section 6 of the paper contrasts: ``"natural"`` samples show
    the prevalence of the pool up to sampling noise; ``"artificial"`` first draws a
    prevalence vector uniformly from the simplex, then that many elements of each class
    (with replacement when a class is too small), the artificial-prevalence protocol of
    the quantification literature.

    A natural sample smaller than the pool is drawn without replacement (distinct
    elements, as a real test set holds), so a class of prevalence ``p`` in a pool of
    ``N`` has, in a sample of ``n``, a share of variance ``p (1 - p) / n * (N - n) /
    (N - 1)`` (hypergeometric). A sample as large as the pool, or larger, is drawn with
    replacement: without, every sample of ``N`` would be the pool itself, of one
    prevalence. The default ``sample_size`` is the size of the pool, so by default each
    natural sample is a bootstrap resample of the pool: its shares vary with variance
    ``p (1 - p) / N`` (binomial), as those of a fresh test set of the same size from a
    population of the pool's prevalence would, and the errors are on the scale of the
    user's own test set. A smaller ``sample_size`` gives smaller samples, whose spread
    shrinks to zero as the size nears the pool's (they then hold almost the whole pool):
    for samples that vary as fresh test sets would, keep the default or a size well below
    the pool's.

    Parameters
    ----------
    y : array-like of shape (n_elements,)
        1-D class labels of the pool.
    n_samples : int, default=100
        Number of samples.
    sample_size : int, default=None
        Elements per sample; by default the size of ``y`` (drawn with replacement).
    protocol : {"natural", "artificial"}, default="natural"
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    iterator of ndarray of int
        ``n_samples`` arrays of positions into ``y``, one per sample, drawn lazily; its
        ``classes`` attribute holds the pool's classes, sorted, for
        ``prevalence(y[sample], labels=samples.classes)``: a sample that lacks a class
        keeps its place in the vector (0), so the vectors of all samples align. The
        parameters and ``y`` are checked when the function is called, not at the first
        ``next()``: a ``sample_size`` whose one sample (8 bytes a position) is above the
        package's budget ``max_matrix_mib`` (:func:`set_config`) is refused with a
        ``ValueError``; ``n_samples`` costs no memory, the samples being drawn one at a time.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import prevalence_protocol_samples
    >>> y = np.array([0] * 70 + [1] * 30)
    >>> samples = prevalence_protocol_samples(y, n_samples=5, random_state=0)
    >>> [float(np.mean(y[s] == 0)) for s in samples]  # the pool's 0.7, up to noise
    [0.7, 0.59, 0.65, 0.68, 0.68]
    >>> samples = list(prevalence_protocol_samples(y, n_samples=3, sample_size=10,
    ...                                            protocol="artificial", random_state=0))
    >>> [len(s) for s in samples]
    [10, 10, 10]

    A sample that lacks a class keeps the full class vector with the protocol's classes:

    >>> from sklearn_confusion_ext import prevalence
    >>> y = np.array(["a"] * 8 + ["b"] * 2)
    >>> samples = prevalence_protocol_samples(y, n_samples=1, sample_size=3, random_state=1)
    >>> prevalence(y[next(samples)], labels=samples.classes)
    array([1., 0.])

    :func:`evaluate_quantifier` draws the samples and scores a quantifier on each in one call.
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError(f"y must be non-empty 1-D class labels; got shape {y.shape}.")
    # checked as every function checks labels (a missing label, strings beside numbers, NaN)
    targets = check_target_set({"y": y}, one_hot=False)
    classes, codes = np.asarray(targets.classes), targets.codes[0]
    members = [np.flatnonzero(codes == k) for k in range(len(classes))]
    size = len(y) if sample_size is None else int(sample_size)
    # each sample is an array of `size` positions (8 bytes each, as float64): checked here,
    # before the first draw; the samples are drawn one at a time, so n_samples costs none
    resample_block("prevalence_protocol_samples", int(n_samples), size,
                   f"sample_size={size} positions", "Pass a smaller sample_size",
                   unit="sample")
    return ProtocolSamples(classes, _protocol_samples(
        len(y), members, int(n_samples), size, protocol, np.random.default_rng(random_state)))


class ProtocolSamples:
    """The samples of :func:`prevalence_protocol_samples`: an iterator of index arrays that
    also knows the pool's classes (``classes``), so that the prevalence of a sample lacking
    a class keeps the full class vector: ``prevalence(y[s], labels=samples.classes)``."""

    def __init__(self, classes, samples):
        self.classes, self._samples = classes, samples

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._samples)

    def __repr__(self):
        return f"<prevalence_protocol_samples over {len(self.classes)} classes>"


def _protocol_samples(n_elements, members, n_samples, size, protocol, rng):
    """The samples of :func:`prevalence_protocol_samples`, its arguments checked."""
    for _ in range(n_samples):
        if protocol == "natural":
            yield rng.choice(n_elements, size=size, replace=size >= n_elements)
            continue
        counts = rng.multinomial(size, rng.dirichlet(np.ones(len(members))))
        yield np.concatenate([rng.choice(pool, size=count, replace=count > len(pool))
                              for pool, count in zip(members, counts)])


# The errors of evaluate_quantifier, in the order of Sebastiani's Table 3 (the smoothed ones
# with eps = 1 / (2 * sample size), the paper's choice; the others ignore eps).
_EVALUATED_ERRORS = ("absolute_error", "normalized_absolute_error", "relative_absolute_error",
                     "normalized_relative_absolute_error", "squared_error",
                     "normalized_squared_error", "discordance_ratio", "kl_divergence",
                     "normalized_kl_divergence", "pearson_divergence",
                     "normalized_pearson_divergence")


@_result(kw_only=True)
class QuantifierEvaluation(_Tabulated):
    """Every quantification error of a quantifier over the samples of a protocol (see
    :func:`evaluate_quantifier`).

    Parameters
    ----------
    errors : dict of str to ndarray of shape (n_samples,)
        Each error's value on each sample (lower is better).
    true_prevalence, predicted_prevalence : ndarray of shape (n_samples, n_classes)
        The prevalence vectors of each sample, over ``classes``.
    classes : ndarray
        The classes of the pool (or ``labels``), the columns of the prevalence vectors.
    protocol : str
        The sampling protocol.
    sample_size : int
        Elements per sample.
    eps : float
        The smoothing of the smoothed errors, ``1 / (2 * sample_size)``.

    ``to_frame()`` gives one row per error, with the mean, standard deviation, median,
    minimum and maximum across the samples.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import QuantifierEvaluation
    >>> result = QuantifierEvaluation(
    ...     errors={"absolute_error": np.array([0.1, 0.3])},
    ...     true_prevalence=np.array([[0.5, 0.5], [0.2, 0.8]]),
    ...     predicted_prevalence=np.array([[0.4, 0.6], [0.5, 0.5]]),
    ...     classes=np.array(["a", "b"]), protocol="artificial", sample_size=10, eps=0.05)
    >>> result.mean()
    {'absolute_error': 0.2}
    """

    errors: dict
    true_prevalence: np.ndarray
    predicted_prevalence: np.ndarray
    classes: np.ndarray
    protocol: str
    sample_size: int
    eps: float

    def mean(self):
        """Each error's mean across the samples, as a dict."""
        return {name: float(np.mean(values)) for name, values in self.errors.items()}

    def std(self):
        """Each error's standard deviation across the samples (ddof=1), as a dict."""
        return {name: float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
                for name, values in self.errors.items()}

    def _summary(self):
        return [("protocol", self.protocol), ("n_samples", len(self.true_prevalence)),
                ("sample_size", self.sample_size), ("n_classes", len(self.classes))]

    def _table(self):
        values = list(self.errors.values())
        return _Table("error", list(self.errors), {
            "mean": list(self.mean().values()), "std": list(self.std().values()),
            "median": [float(np.median(v)) for v in values],
            "min": [float(np.min(v)) for v in values],
            "max": [float(np.max(v)) for v in values]})


@validate_params()
def evaluate_quantifier(quantifier, X, y, *, method="auto", protocol="artificial",
                        n_samples=100, sample_size=None, labels=None, random_state=None):
    """Every quantification error of a quantifier over the samples of a protocol, in one call.

    Draws ``n_samples`` samples of ``(X, y)`` with :func:`prevalence_protocol_samples`,
    estimates each sample's class prevalences with the quantifier, and scores them against
    the true ones with every error of Sebastiani (2020) (:func:`absolute_error` ...
    :func:`normalized_pearson_divergence`; the smoothed ones with ``eps = 1 / (2 *
    sample_size)``): the evaluation QuaPy's protocols give, with the mean and the spread
    of each error across the samples. Every prevalence vector is over the same classes
    (the pool's, or ``labels``), a sample lacking a class holding 0 there.

    Parameters
    ----------
    quantifier : object or callable
        A quantifier with ``quantify(X)`` (QuaPy's interface) or a callable ``f(X)``,
        returning the prevalence vector over ``classes`` in their order; or a fitted
        classifier, whose predictions are counted (see ``method``).
    X : array-like of shape (n_elements, n_features)
        The pool's features (rows are indexed; pandas objects by position).
    y : array-like of shape (n_elements,)
        The pool's class labels.
    method : {"auto", "quantify", "classify_and_count", \
"probabilistic_classify_and_count"}, default="auto"
        "quantify": ``quantifier.quantify(X)`` or ``quantifier(X)``; "classify_and_count":
        the prevalence of ``predict(X)``; "probabilistic_classify_and_count": the mean of
        ``predict_proba(X)`` (its columns named by ``classes_``); "auto": "quantify" for an
        object with ``quantify`` or a plain callable, else "classify_and_count".
    protocol : {"natural", "artificial"}, default="artificial"
        As in :func:`prevalence_protocol_samples`: the artificial-prevalence protocol
        (prevalences drawn uniformly from the simplex) tests a quantifier across shifts;
        the natural one at the pool's prevalence.
    n_samples : int, default=100
        Number of samples.
    sample_size : int, default=None
        Elements per sample; by default the size of the pool.
    labels : array-like, default=None
        The classes, in order (of the prevalence vectors, and of what ``quantify``
        returns); by default the sorted classes of ``y``.
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    QuantifierEvaluation
        ``errors`` per sample, the prevalence vectors, ``mean()``, ``std()``; its repr and
        ``to_frame()`` give each error's mean, standard deviation, median and range.

    Raises
    ------
    TypeError
        Before any sample is drawn, when ``quantifier`` lacks what ``method`` calls
        (``quantify`` or a call, ``predict``, ``predict_proba`` and ``classes_``).
    ValueError
        When what the quantifier returns on a sample is no prevalence vector over the
        classes (``quantifier.quantify(X)`` or ``quantifier(X)``: a vector of
        ``n_classes`` non-negative numbers summing to 1 within 1e-6), or its predictions
        are not one label of the classes per row (``quantifier.predict(X)``), or its
        probabilities not a non-negative ``(n_rows, len(classes_))`` array
        (``quantifier.predict_proba(X)``); the message names the call and quotes what it
        returned.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_confusion_ext import evaluate_quantifier
    >>> X, y = load_iris(return_X_y=True)
    >>> model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    >>> result = evaluate_quantifier(model, X[1::2], y[1::2], n_samples=50, sample_size=30,
    ...                              random_state=0)
    >>> result.true_prevalence.shape, len(result.errors)
    ((50, 3), 11)
    >>> round(result.mean()["absolute_error"], 3)
    0.021
    """
    y_pool = np.asarray(y)
    if labels is not None:  # checked before any sample is drawn
        check_label_list(labels)
    samples = prevalence_protocol_samples(y_pool, n_samples=n_samples, sample_size=sample_size,
                                          protocol=protocol, random_state=random_state)
    classes = samples.classes if labels is None else np.asarray(labels)
    missing = np.setdiff1d(samples.classes, classes)
    if len(missing):
        raise ValueError(f"labels {quoted(list(classes))} leave out the classes "
                         f"{quoted(missing.tolist())} of y; list every class of the pool.")
    if len(X) != len(y_pool):
        raise ValueError(f"X has {len(X)} rows and y {len(y_pool)} labels; one label per row "
                         "is expected.")
    if method == "auto":
        method = ("quantify" if hasattr(quantifier, "quantify") or not hasattr(
            quantifier, "predict") else "classify_and_count")
    _check_estimator(quantifier, method, "quantifier")
    estimate = _PREVALENCE_ESTIMATES[method]
    true, predicted = [], []
    for sample in samples:
        true.append(prevalence(y_pool[sample], labels=classes))
        predicted.append(estimate(quantifier, _rows(X, sample), classes))
    true, predicted = np.array(true), np.array(predicted)
    size = len(y_pool) if sample_size is None else int(sample_size)
    eps = 1.0 / (2 * size)
    module = globals()
    errors = {name: np.asarray(module[name](true, predicted, eps=eps, aggregate=None))
              for name in _EVALUATED_ERRORS}
    return QuantifierEvaluation(errors=errors, true_prevalence=true,
                                predicted_prevalence=predicted, classes=classes,
                                protocol=protocol, sample_size=size, eps=eps)


def _rows(X, positions):
    """The rows of ``X`` at ``positions`` (pandas objects by position)."""
    return X.iloc[positions] if hasattr(X, "iloc") else X[positions]


def _check_estimator(estimator, method, name):
    """Refuse, before any sample is drawn, an ``estimator`` (the argument ``name``) that
    lacks what ``method`` calls."""
    if method == "quantify":
        if not callable(getattr(estimator, "quantify", estimator)):
            raise TypeError(f"method='quantify' calls {name}.quantify(X) or {name}(X); got "
                            f"{type(estimator).__name__}, which has no quantify method and "
                            "is not callable.")
        return
    needed = "predict" if method == "classify_and_count" else "predict_proba"
    for attribute in (needed, *(("classes_",) if needed == "predict_proba" else ())):
        if not hasattr(estimator, attribute):
            raise TypeError(f"method={method!r} reads {name}.{attribute}; got "
                            f"{type(estimator).__name__}, which has none (pass a fitted "
                            "classifier, or another method).")


def _described(value):
    """What an estimator returned, for a message: its type and a short repr."""
    return f"{type(value).__name__} {quoted(value, 80)}"


def _quantified(quantifier, X, classes, name="quantifier"):
    method = getattr(quantifier, "quantify", None)
    source = f"{name}.quantify(X)" if method is not None else f"{name}(X)"
    returned = (method or quantifier)(X)
    expected = (f"expected {len(classes)} prevalences (non-negative, summing to 1) over the "
                f"classes {quoted(np.asarray(classes).tolist())}, in their order")
    try:
        estimate = np.asarray(returned, dtype=np.float64)
    except (TypeError, ValueError):
        hint = ("; for a mapping, return its values in the order of the classes"
                if isinstance(returned, dict) else "")
        raise ValueError(f"{source} returned {_described(returned)}, which is no vector of "
                         f"numbers; {expected}{hint}.") from None
    if estimate.ndim > 1 and max(estimate.shape) != estimate.size:
        raise ValueError(f"{source} returned an array of shape {estimate.shape}; {expected}.")
    estimate = estimate.ravel()
    if estimate.shape != (len(classes),) or returned is None:
        found = "None" if returned is None else f"{estimate.size} prevalences"
        raise ValueError(f"{source} returned {found} for {len(classes)} classes; {expected}; "
                         "pass labels= in the order it returns them.")
    return _checked_estimate(estimate, source, expected)


def _checked_estimate(estimate, source, expected):
    """``estimate`` (prevalences an estimator gave), refused where it is no distribution."""
    if not np.isfinite(estimate).all() or (estimate < 0).any():
        problem = "non-finite" if not np.isfinite(estimate).all() else "negative"
        raise ValueError(f"{source} returned {problem} prevalences "
                         f"{quoted(estimate.tolist())}; {expected}.")
    if abs(estimate.sum() - 1) > _SUM_TOLERANCE:
        raise ValueError(f"{source} returned prevalences {quoted(estimate.tolist())} summing "
                         f"to {estimate.sum():g}; {expected}.")
    return estimate


def _classified_and_counted(classifier, X, classes, name="quantifier", sample_weight=None):
    predicted = np.asarray(classifier.predict(X))
    n_rows, source = _n_rows(X), f"{name}.predict(X)"
    if predicted.ndim != 1 or len(predicted) != n_rows:
        raise ValueError(f"{source} returned an array of shape {predicted.shape} for {n_rows} "
                         "rows of X; expected one class label per row.")
    classes = np.asarray(classes).tolist()
    known = set(classes)
    unknown = sorted({label for label in predicted.tolist() if label not in known}, key=str)
    if unknown:
        raise ValueError(f"{source} returned labels {quoted(unknown)} that are not among the "
                         f"classes {quoted(classes)}; pass labels= with every class the "
                         "classifier predicts.")
    return prevalence(predicted, labels=classes, sample_weight=sample_weight)


def _probabilities_averaged(classifier, X, classes, name="quantifier", sample_weight=None):
    returned = classifier.predict_proba(X)
    known = np.asarray(classifier.classes_).tolist()
    n_rows, source = _n_rows(X), f"{name}.predict_proba(X)"
    expected = (f"expected an array of shape ({n_rows}, {len(known)}): non-negative "
                f"probabilities, a row per row of X, a column per class of {name}.classes_")
    try:
        probabilities = np.asarray(returned, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{source} returned {_described(returned)}, which is no array of "
                         f"numbers; {expected}.") from None
    if probabilities.shape != (n_rows, len(known)):
        raise ValueError(f"{source} returned an array of shape {probabilities.shape}; "
                         f"{expected}.")
    if not np.isfinite(probabilities).all() or (probabilities < 0).any():
        problem = "non-finite" if not np.isfinite(probabilities).all() else "negative"
        raise ValueError(f"{source} returned {problem} probabilities; {expected}.")
    columns = np.column_stack([probabilities[:, known.index(c)] if c in known
                               else np.zeros(n_rows) for c in np.asarray(classes).tolist()])
    weights = np.ones(n_rows) if sample_weight is None else \
        np.asarray(sample_weight, dtype=np.float64)
    estimate = weights @ columns / weights.sum()
    if not estimate.sum() > 0:
        raise ValueError(f"{source} gives the classes {quoted(np.asarray(classes).tolist())} "
                         f"no probability on these rows; {expected}, summing to 1.")
    return estimate / estimate.sum()


def _n_rows(X):
    return X.shape[0] if hasattr(X, "shape") else len(X)


_PREVALENCE_ESTIMATES = {"quantify": _quantified, "classify_and_count": _classified_and_counted,
                         "probabilistic_classify_and_count": _probabilities_averaged}
