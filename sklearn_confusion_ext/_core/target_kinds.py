"""The kinds of targets and the limits of what targets may hold.

A pair of targets is of one kind: ``"single-label"`` (1-D class labels), ``"multilabel"``
(2-D 0/1 indicators), ``"soft"`` (2-D non-negative masses) or ``"labels-vs-scores"``
(1-D labels beside a classifier's 2-D scores); :func:`is_binary` tells indicators from
soft labels, and :func:`warn_unless_probabilities` warns when scores beside labels are not
probabilities. The limits are the bounds the checks hold targets to: the largest float class
label, the tolerance of a row of probabilities, and the bounds on sample weights.
"""

import numpy as np
import scipy.sparse as sp

from .arrays import namespace, to_numpy
from .user_warnings import warn

SINGLE_LABEL = "single-label"
MULTILABEL = "multilabel"
SOFT = "soft"
LABELS_VS_SCORES = "labels-vs-scores"

# Rows read at first when checking that a target holds only 0 and 1: soft labels and
# probabilities are found there, without a pass over the whole array.
_FIRST_ROWS = 1024

# Float class labels must be integers that float64 holds exactly.
_LARGEST_FLOAT_LABEL = 2.0 ** 53

# Row sums of probabilities: 1 within the square root of the machine epsilon of their dtype
# (float32, else float64), as in sklearn.metrics.log_loss.
_SUM_TOLERANCE = {True: float(np.sqrt(np.finfo(np.float32).eps)),
                  False: float(np.sqrt(np.finfo(np.float64).eps))}

# The largest total of sample weights: every weighted count, and the products of marginals
# that scores form after scaling, stay finite below it.
MAX_TOTAL_WEIGHT = 1e300

# The smallest largest weight: below it, weighted counts of fractional masses are subnormal.
MIN_LARGEST_WEIGHT = 1e-290


def target_kind(single_label, masses):
    """The kind of targets: 1-D labels, 2-D binary indicators or 2-D soft labels."""
    if single_label:
        return SINGLE_LABEL
    return MULTILABEL if all(is_binary(y) for y in masses) else SOFT


def is_binary(y):
    """Whether a 2-D mass array holds only zeros and ones (the first rows are read first:
    soft labels and probabilities are told there without a pass over the whole array)."""
    if not (sp.issparse(y) or isinstance(y, np.ndarray)):
        xp = namespace(y)
        return bool(xp.all((y == 0) | (y == 1)))
    if sp.issparse(y):
        return _only_zeros_and_ones(y.data)
    return _only_zeros_and_ones(y[:_FIRST_ROWS]) and _only_zeros_and_ones(y[_FIRST_ROWS:])


def _only_zeros_and_ones(values):
    if values.dtype.kind == "b":
        return True
    if values.dtype.kind in "iu":  # read as unsigned, a negative integer is large
        return values.size == 0 or values.view(f"u{values.dtype.itemsize}").max() <= 1
    return np.count_nonzero(values) == np.count_nonzero(values == 1)


def warn_unless_probabilities(name, sums, dtype, warned=None, first_row=0):
    """Warn, as ``sklearn.metrics.log_loss`` does, when the row sums of 2-D scores given
    beside 1-D labels (a classifier's ``predict_proba``) are not 1 within the square root
    of the machine epsilon of their dtype: the scores are read as probabilities after each
    row is divided by its sum, which hides scaled scores, percentages and per-class
    sigmoids. ``sums``: the row sums that validation computed anyway (of any array
    library); ``warned``: a list, appended to once warned (a block warns once)."""
    xp = namespace(sums)
    tolerance = _SUM_TOLERANCE[np.dtype(dtype) == np.float32]
    off = xp.abs(sums - 1.0) > tolerance
    if not bool(xp.any(off)):
        return
    if warned is not None:
        if warned:
            return
        warned.append(True)
    row = int(to_numpy(xp.nonzero(off)[0])[0]) if xp is not np else int(np.argmax(off))
    total, digits = float(sums[row]), 6
    while f"{total:.{digits}g}" == "1" and digits < 17:  # 0.9999996 is not "1"
        digits += 1
    warn(f"{name}'s rows do not sum to 1 (row {first_row + row} sums to "
         f"{total:.{digits}g}): beside class labels its columns are read as a "
         "classifier's probabilities, each row divided by its sum, so scaled scores, "
         "percentages and per-class sigmoids give the same result as probabilities. "
         "Pass predict_proba's probabilities (normalize scores, e.g. a softmax).")
