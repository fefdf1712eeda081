"""Quantification error measures (Sebastiani, "Evaluation Measures for Quantification: An
Axiomatic Approach", Information Retrieval Journal 2020), their maxima, and prevalence vectors.

Each measure compares a true class-prevalence vector ``p`` with a predicted one ``p_hat``,
or many of them (one per row), and aggregates over rows. Lower is better.
"""

from numbers import Real

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core.params import ARRAY, CALLABLE, Interval, Options, quoted, validate_params
from .._core.targets import check_target_set
from .._core.user_warnings import warn
from .._core.weights import check_sample_weight

_SUM_TOLERANCE = 1e-6
# Smoothing of eq. (6): a positive eps, or None for none.
EPS = [None, Interval(Real, 0, None, closed="neither")]
# The parameters of every measure: two prevalence vectors (or one per row), eq. (6)'s
# smoothing and the aggregation over samples (Section 5.3).
QUANTIFICATION_ERROR = {"p_true": [ARRAY], "p_pred": [ARRAY], "eps": EPS,
                        "aggregate": [None, Options("mean", "median", "weighted")]}


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    normalized_absolute_error : AE over its maximum, in [0, 1] (eq. 3).
    relative_absolute_error : The error relative to each class's prevalence.
    squared_error : The squared error SE (eq. 9).
    max_quantification_error : The largest AE for a true distribution (eq. 2).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (1), Section 4.1; the
    aggregation over samples, Section 5.3.

    Examples
    --------
    >>> from sklearn_confusion_ext import absolute_error
    >>> round(absolute_error([0.2, 0.8], [0.25, 0.75]), 4)  # Appendix B.2
    0.05
    """
    return _measure(p_true, p_pred, eps, aggregate, _ae, smoothed=False)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    absolute_error : AE (eq. 1).
    normalized_relative_absolute_error : RAE normalized the same way (eq. 8).
    normalized_squared_error : SE normalized the same way (eq. 11).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equations (2)-(3), Section 4.2.

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_absolute_error
    >>> round(normalized_absolute_error([0.2, 0.8], [0.25, 0.75]), 4)
    0.0625
    """
    return _measure(p_true, p_pred, eps, aggregate, _nae, smoothed=False)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    normalized_relative_absolute_error : RAE over its maximum, in [0, 1] (eq. 8).
    absolute_error : The error not relative to the prevalence (eq. 1).
    discordance_ratio : Relative to the larger of the two prevalences (eq. 13).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (5), Section 4.3; the
    smoothing, equation (6).

    Examples
    --------
    >>> from sklearn_confusion_ext import relative_absolute_error
    >>> relative_absolute_error([0.2, 0.8], [0.25, 0.75])
    0.15625
    """
    return _measure(p_true, p_pred, eps, aggregate, _rae)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    relative_absolute_error : RAE (eq. 5).
    normalized_absolute_error : AE normalized the same way (eq. 3).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equations (7)-(8), Section 4.4; the
    smoothing, equation (6).

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_relative_absolute_error
    >>> normalized_relative_absolute_error([0.2, 0.8], [0.25, 0.75])
    0.0625
    """
    return _measure(p_true, p_pred, eps, aggregate, _nrae)


@validate_params(QUANTIFICATION_ERROR)
def squared_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Squared error SE (equation 9): ``mean_c (p(c) - p_hat(c))^2``.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`absolute_error` (``eps`` unused).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    See Also
    --------
    normalized_squared_error : SE over its maximum, in [0, 1] (eq. 11).
    absolute_error : The absolute error AE (eq. 1).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (9), Section 4.5.

    Examples
    --------
    >>> from sklearn_confusion_ext import squared_error
    >>> round(squared_error([0.2, 0.8], [0.25, 0.75]), 6)
    0.0025
    """
    return _measure(p_true, p_pred, eps, aggregate, _se, smoothed=False)


@validate_params(QUANTIFICATION_ERROR)
def normalized_squared_error(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Normalized squared error NSE (equation 11): SE over its maximum for ``p``, in [0, 1].

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`absolute_error` (``eps`` unused).

    Returns
    -------
    float or ndarray of shape (n_samples,)

    See Also
    --------
    squared_error : SE (eq. 9).
    normalized_absolute_error : AE normalized the same way (eq. 3).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equations (10)-(11), Section 4.5.

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_squared_error
    >>> round(normalized_squared_error([0.2, 0.8], [0.25, 0.75]), 6)
    0.003906
    """
    return _measure(p_true, p_pred, eps, aggregate, _nse, smoothed=False)


@validate_params(QUANTIFICATION_ERROR)
def discordance_ratio(p_true, p_pred, *, eps=None, aggregate="mean"):
    """Discordance ratio DR (equation 13): ``mean_c |p(c) - p_hat(c)| / max(p(c), p_hat(c))``.

    Parameters
    ----------
    p_true, p_pred, eps, aggregate
        As in :func:`relative_absolute_error`.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    See Also
    --------
    relative_absolute_error : Relative to the true prevalence (eq. 5).
    max_quantification_error : The largest DR for a true distribution.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (13), Section 4.6; the
    smoothing, equation (6).

    Examples
    --------
    >>> from sklearn_confusion_ext import discordance_ratio
    >>> round(discordance_ratio([0.2, 0.8], [0.25, 0.75]), 5)
    0.13125
    """
    return _measure(p_true, p_pred, eps, aggregate, _dr)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    normalized_kl_divergence : The logistic normalization NKLD, in [0, 1] (eq. 16).
    max_normalized_kl_divergence : KLD over its maximum (Section 4.8).
    pearson_divergence : The Pearson divergence PD (eq. 17).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (14), Section 4.7; the
    smoothing, equation (6).

    Examples
    --------
    >>> from sklearn_confusion_ext import kl_divergence
    >>> round(kl_divergence([0.2, 0.8], [0.25, 0.75]), 4)
    0.007
    """
    return _measure(p_true, p_pred, eps, aggregate, _kld)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    kl_divergence : KLD (eq. 14).
    max_normalized_kl_divergence : KLD over its maximum, which has MAX exactly.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (16), Section 4.8; the
    smoothing, equation (6).

    Examples
    --------
    >>> from sklearn_confusion_ext import normalized_kl_divergence
    >>> round(normalized_kl_divergence([0.2, 0.8], [0.25, 0.75]), 4)
    0.0035
    """
    return _measure(p_true, p_pred, eps, aggregate, _nkld)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    normalized_pearson_divergence : PD over its maximum, in [0, 1] (eq. 18).
    kl_divergence : The Kullback-Leibler divergence KLD (eq. 14).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (17), Section 4.9; the
    smoothing, equation (6).

    Examples
    --------
    >>> from sklearn_confusion_ext import pearson_divergence
    >>> round(pearson_divergence([0.2, 0.8], [0.25, 0.75]), 5)
    0.00667
    """
    return _measure(p_true, p_pred, eps, aggregate, _pd)


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    kl_divergence : KLD (eq. 14).
    normalized_kl_divergence : The logistic normalization NKLD (eq. 16).
    max_quantification_error : The maximum it divides by.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equation (15) and Section 4.8; the
    smoothing, equation (6).

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


@validate_params(QUANTIFICATION_ERROR)
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

    See Also
    --------
    pearson_divergence : PD (eq. 17).
    max_quantification_error : The maximum it divides by (eq. 18).

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: equations (17)-(18), Section 4.9; the
    smoothing, equation (6).

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


@validate_params({"error": [CALLABLE], "p_true": [ARRAY], "eps": EPS})
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

    See Also
    --------
    audit_quantification_measure : Checks MAX, among the other properties.
    normalized_absolute_error : AE divided by this maximum.
    max_normalized_kl_divergence : KLD divided by this maximum.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: the perverse estimator, Section 3.1;
    the maxima, equations (2), (7), (10), (15) and (18); the smoothing, equation (6).

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


@validate_params({"p": [ARRAY], "labels": [ARRAY]}, renamed={"classes": "labels"})
def project_prevalence(p, labels):
    """The projection of a prevalence vector on a sub-codeframe (Section 3.2, Example 2).

    The distribution on the classes ``labels`` whose ratios between prevalences are those
    of ``p``: ``p[labels] / p[labels].sum()``. Property 8 (IND) compares errors of
    projections.

    Parameters
    ----------
    p : array-like of shape (n_classes,) or (n_samples, n_classes)
        Prevalence vectors summing to 1, one per row for many samples.
    labels : array-like of int
        Positions of the classes of the sub-codeframe, in the order wanted, each at most
        once (renamed from ``classes``, which still works with a ``FutureWarning``).

    Returns
    -------
    ndarray of shape (len(labels),) or (n_samples, len(labels))

    See Also
    --------
    audit_quantification_measure : Checks IND (Property 8) with projections.
    prevalence : The prevalence vector of labels.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: Section 3.2, Example 2 and Property 8
    (IND).

    Examples
    --------
    Example 2 of Sebastiani (2020), the projection on ``{c_1, c_2, c_3}``:

    >>> from sklearn_confusion_ext import project_prevalence
    >>> project_prevalence([0.32, 0.00, 0.48, 0.20], [0, 1, 2]).round(2)
    array([0.4, 0. , 0.6])
    """
    p = _check_distributions(p, p, names=("p", "p"))[0]
    n_classes = p.shape[-1]
    positions = np.asarray(labels)
    if positions.ndim != 1 or positions.size == 0 or positions.dtype.kind not in "iu" or \
            positions.min() < 0 or positions.max() >= n_classes or \
            np.unique(positions).size != positions.size:
        raise ValueError(f"labels must be distinct positions among the {n_classes} classes "
                         f"of p (0..{n_classes - 1}); got {quoted(labels)}.")
    part = p[..., positions]
    mass = part.sum(axis=-1, keepdims=True)
    if (mass <= 0).any():
        raise ValueError("The projection of p on the classes given is undefined: p puts no "
                         "mass on them (a row of p is 0 on every class of labels).")
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


@validate_params({"y": [ARRAY], "labels": [None, ARRAY], "sample_weight": [None, ARRAY]})
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

    See Also
    --------
    project_prevalence : A prevalence vector on a sub-codeframe.
    prevalence_protocol_samples : Samples whose prevalences it reads.
    evaluate_quantifier : Compares true and estimated prevalences.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: Section 2 (prevalence; multi-label
    quantification as one binary problem per class).

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
