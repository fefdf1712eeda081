"""The kinds of targets and the limits of what targets may hold.

A pair of targets is of one kind: ``"single-label"`` (1-D class labels), ``"multilabel"``
(2-D 0/1 indicators), ``"soft"`` (2-D non-negative masses) or ``"labels-vs-scores"``
(1-D labels beside a classifier's 2-D scores); :func:`is_binary` tells indicators from
soft labels, and :func:`warn_unless_probabilities` warns when scores beside labels are not
probabilities. The limits are the bounds the checks hold targets to: the largest float class
label, the tolerance of a row of probabilities, and the bounds on sample weights.
"""

import math
import threading

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


class FirstRowOffOne:
    """The warning that 2-D scores beside labels are not probabilities, given once a call,
    naming the first row whose sum is not 1.

    Blocks of rows offer the first row off 1 they find (:func:`warn_unless_probabilities`).
    Outside :meth:`deferred` the first offer warns at once (blocks read in order). Inside,
    the blocks may be read in any order (threads): the smallest row offered is kept and
    warned of when every block was read, so the row named does not depend on which thread
    ran first; a call that raises (a NaN in a later row) gives its error alone, as the
    NumPy path, which checks a chunk's values before its sums, does within a chunk.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._first = None  # (row, name, its sum) of the smallest row offered
        self._deferring = 0
        self.warned = False

    def __getstate__(self):  # a lock does not pickle (targets sent to processes)
        return {key: value for key, value in self.__dict__.items() if key != "_lock"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def wants(self, start):
        """Whether a block from row ``start`` is to be checked: no warning was given, and
        no row before ``start`` was offered."""
        first = self._first
        return not self.warned and (first is None or start < first[0])

    def offer(self, name, row, total):
        """A block's first row off 1: warned at once, or kept if it is the smallest."""
        with self._lock:
            if self.warned or (self._first is not None and self._first[0] <= row):
                return
            self._first = (row, name, total)
            if self._deferring:
                return
        self._warn()

    def deferred(self):
        """A context: the offers kept while the blocks are read, the smallest warned of at
        its end (a method of this package, so that the warning names the caller's line)."""
        return self

    def __enter__(self):
        with self._lock:
            self._deferring += 1
        return self

    def __exit__(self, kind, error, traceback):
        with self._lock:
            self._deferring -= 1
            if self._deferring:
                return
            if kind is not None:  # the error alone
                self._first = None
                return
        self._warn()

    def _warn(self):
        with self._lock:
            if self.warned or self._first is None:
                return
            self.warned = True
            row, name, total = self._first
        digits = 6
        while f"{total:.{digits}g}" == "1" and digits < 17:  # 0.9999996 is not "1"
            digits += 1
        warn(f"{name}'s rows do not sum to 1 (row {row} sums to {total:.{digits}g}): "
             "beside class labels its columns are read as a classifier's probabilities, "
             "each row divided by its sum, so scaled scores, percentages and per-class "
             "sigmoids give the same result as probabilities. Pass predict_proba's "
             "probabilities (normalize scores, e.g. a softmax).")


def warn_unless_probabilities(name, sums, dtype, record=None, first_row=0, rows=None):
    """Warn, as ``sklearn.metrics.log_loss`` does, when the row sums of 2-D scores given
    beside 1-D labels (a classifier's ``predict_proba``) are not 1 within the square root
    of the machine epsilon of their dtype: the scores are read as probabilities after each
    row is divided by its sum, which hides scaled scores, percentages and per-class
    sigmoids. ``sums``: the row sums that validation computed anyway (of any array
    library), of the rows from ``first_row``; ``record``: the call's
    :class:`FirstRowOffOne`, which warns once for all its blocks (None: warn now);
    ``rows``: the rows summed (``rows[k]`` summed to ``sums[k]``; any array library,
    sparse too), of which the warning prints the named row's exact sum (``math.fsum``
    of its values), the same whichever path, kernel or type of sums found it off
    (None: ``sums``' value)."""
    record = FirstRowOffOne() if record is None else record
    if not record.wants(first_row):
        return
    xp = namespace(sums)
    tolerance = _SUM_TOLERANCE[np.dtype(dtype) == np.float32]
    off = xp.abs(sums - 1.0) > tolerance
    if not bool(xp.any(off)):
        return
    row = int(to_numpy(xp.nonzero(off)[0])[0]) if xp is not np else int(np.argmax(off))
    record.offer(name, first_row + row,
                 float(sums[row]) if rows is None else _exact_sum(rows, row, sums[row]))


def _exact_sum(rows, row, total):
    """The sum of ``rows[row]``'s values rounded once to float64 (``total`` where its
    values are not finite or their sum overflows)."""
    values = rows[row:row + 1].data if sp.issparse(rows) else to_numpy(rows[row:row + 1, ...])
    try:
        return math.fsum(np.asarray(values, dtype=np.float64).ravel().tolist())
    except (OverflowError, ValueError):
        return float(total)
