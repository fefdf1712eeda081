"""float32's error bound for a sum, the tolerance of every float32 result against float64.

A cell of a confusion matrix is a sum of per-instance terms. Computed in float32, each term
with at most ``k`` roundings of its own and the ``n`` terms added in any order (a BLAS
product's blocking, SIMD lanes, blocks of rows summed in float64 only shorten the chains),
the cell is within ``gamma_(n + k) * sum(|terms|)`` of the exact sum, where
``gamma_m = m u / (1 - m u)`` and ``u = 2**-24`` is float32's unit roundoff (Higham,
*Accuracy and Stability of Numerical Algorithms*, 2nd ed., 2002, Lemma 3.1 and Sec. 4.2).
While ``m u <= 1/2``, ``gamma_m <= m * eps`` (``eps = 2 u``): the number of terms times eps
times the sum of the terms' magnitudes. That bound holds on every BLAS, NumPy and array
library; a constant that happened to hold on one version does not (an absolute 1e-3 did
for a cell of 914.75 until a fresh install computed it as 914.752).

The exact reference is the float64 result of the same float32 values (its own error, about
``n * 2**-53``, is below the bound by a factor of ``2**29 / n``). The terms of the matrices
here are of one sign (non-negative masses and weights), so the sum of their magnitudes is
the reference cell itself, unless the caller gives it.
"""

import numpy as np

EPS32 = float(np.finfo(np.float32).eps)


def float32_term_roundings(n_classes):
    """Roundings within one term of a transport plan in float32 (its rows' mass ratio, the
    scaled masses, the deficit and the excess, the deficit's row mass of ``n_classes``
    values, its scale, the product): at most ``n_classes + 6``."""
    return n_classes + 6


def float32_sum_bound(n_terms, magnitudes, roundings=0):
    """``(n_terms + roundings) * eps * magnitudes``: the bound on the error of a float32
    sum of ``n_terms`` terms, each rounded ``roundings`` times, whose magnitudes sum to
    ``magnitudes`` (an array: a bound per cell)."""
    count = n_terms + roundings
    assert count * EPS32 / 2 <= 0.5, "gamma_m <= m eps holds for m u <= 1/2 only"
    return count * EPS32 * np.abs(np.asarray(magnitudes, dtype=float))


def assert_within_float32_bound(actual, exact, n_terms, roundings=0, magnitudes=None):
    """Each cell of ``actual`` (computed in float32) within :func:`float32_sum_bound` of
    ``exact`` (float64); ``magnitudes``: the sums of the terms' magnitudes per cell
    (default ``|exact|``, for terms of one sign)."""
    actual, exact = np.asarray(actual, dtype=float), np.asarray(exact, dtype=float)
    assert actual.shape == exact.shape, (actual.shape, exact.shape)
    bound = float32_sum_bound(n_terms, exact if magnitudes is None else magnitudes,
                              roundings)
    error = np.abs(actual - exact)
    beyond = ~(error <= bound)  # NaN is beyond
    if beyond.any():
        worst = np.unravel_index(np.argmax(np.where(beyond, error - bound, -np.inf)),
                                 error.shape)
        raise AssertionError(
            f"{int(beyond.sum())} of {error.size} cells beyond float32's error bound "
            f"({n_terms} terms + {roundings} roundings) x eps x sum of magnitudes; worst at "
            f"{tuple(int(i) for i in worst)}: {actual[worst]!r} against {exact[worst]!r}, "
            f"error {error[worst]:.3g} > bound {bound[worst]:.3g}")
