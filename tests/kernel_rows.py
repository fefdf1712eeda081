"""The compiled kernel of labels beside probabilities called alone, on a copy of ``out``:
the tests that compare its ways of adding the rows (in turn, class by class, in the order of
the classes) call it here."""

import numpy as np

from sklearn_confusion_ext._core import kernels


def sum_rows_by_class(scores, codes, start, stop, multipliers, by_norm, tolerance,
                      out=None, *, by_class):
    """``(result, matrix)``: the kernel's return value and ``out`` (zeros by default) plus
    the rows' sums (``out`` itself is left as it was), under each dtype's limits."""
    limits = ((2.0 ** 100, 1e-200, 1e200) if scores.dtype == np.float64
              else (2.0 ** 20, 1e-14, 1e12))
    out = np.zeros((scores.shape[1], scores.shape[1])) if out is None else out.copy()
    result = kernels.COMPILED.sum_rows_by_class(scores, codes, start, stop, multipliers,
                                                by_norm, *limits, tolerance, out, by_class)
    return result, out
