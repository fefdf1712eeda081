"""The compiled kernel of labels beside probabilities called alone, on a copy of ``out``:
the tests of its rows, sums and checks call it here."""

import numpy as np

from sklearn_confusion_ext._core import kernels

# norm_limit, smallest and largest weights of each dtype
LIMITS = {np.float64: (2.0 ** 100, 1e-200, 1e200), np.float32: (2.0 ** 20, 1e-14, 1e12)}


def sum_rows_by_class(scores, codes, start, stop, multipliers, by_norm, tolerance,
                      out=None):
    """``(result, matrix)``: the kernel's return value and ``out`` (zeros by default) plus
    the rows' sums (``out`` itself is left as it was), under each dtype's limits."""
    limits = LIMITS[scores.dtype.type]
    out = np.zeros((scores.shape[1], scores.shape[1])) if out is None else out.copy()
    result = kernels.COMPILED.sum_rows_by_class(scores, codes, start, stop, multipliers,
                                                by_norm, *limits, tolerance, out)
    return result, out


def rows_one_call_each(scores, codes, start, stop, multipliers, by_norm, tolerance, out):
    """The kernel called on one row at a time (its first row's sum, then its addition, with
    no row beside it), in place on ``out``: ``(stop_row, off_row, off_sum)`` as one call
    over ``start:stop`` returns them."""
    limits = LIMITS[scores.dtype.type]
    off_row, off_sum = -1, np.nan
    for i in range(start, stop):
        stop_i, off_i, sum_i = kernels.COMPILED.sum_rows_by_class(
            scores, codes, i, i + 1, multipliers, by_norm, *limits, tolerance, out)
        if off_row < 0 and off_i >= 0:
            off_row, off_sum = off_i, sum_i
        if stop_i == i:
            return i, off_row, off_sum
    return stop, off_row, off_sum
