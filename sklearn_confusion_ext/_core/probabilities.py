"""Probabilities or scores beside class labels, checked once, in one read.

:func:`checked_probabilities` turns ``(y_true, y_prob)``, 1-D class labels beside a 1-D
positive-class probability (or score) or a 2-D array with a column per class (a
classifier's ``predict_proba``, or ``decision_function`` with ``scores=True``), into the
class code of each instance, the array as float64 (no copy when it is float64 already),
its classes, its positive class and the checked weights, as :class:`Probabilities`.

A 2-D array is read in row chunks (of cache size on the NumPy reference; 16 MiB ones on
the calling thread for the compiled pass), each chunk once: its row sums (the
warning of rows that do not sum to 1, scikit-learn's ``log_loss`` policy), its smallest
entry (negative and NaN entries refused) and, on request, each row's largest entry and its
column (the top label) on the chunk still in cache. The rows that do not sum to 1 are read
divided by their sums (``norms``) wherever a probability is read, never by dividing a copy
of the whole array; rows within rounding of 1 are read as given.

Rules of the classes. 2-D: the columns are the classes ``labels`` names, in order
(default: the sorted labels of ``y_true``, one per column). 1-D: the classes are
``labels`` (at most two, those of ``y_true`` among them) or those of ``y_true`` (at most
two); the positive class is ``pos_label``, by default ``labels[-1]`` where ``labels`` is
given, else scikit-learn's rule (1 for the classes {0, 1} or {-1, 1}; other classes need
``pos_label``). A positive class absent from a ``y_true`` of one class is added to the
classes (every instance negative, as in one fold of a cross-validation).

This is the one check of labels beside probabilities or scores: the calibration code, the
decisions (thresholds, abstention, Bayes decisions), top-k accuracy and the threshold of
the confusion matrix Display all read their input through it, so that the same bad input
gets the same error everywhere (``tests/_core/test_probability_contract.py``).
"""

from dataclasses import dataclass, field, replace

import numpy as np
import scipy.sparse as sp

from .chunks import chunk_rows, map_chunks
from .config import _settings
from .conversion import _as_array, checked_row_sums
from .frames import _aligned_frames, _column_names
from .labels import check_label_list, common_integer_labels, label_codes, score_columns
from .params import quoted
from .target_kinds import _SUM_TOLERANCE, warn_unless_probabilities
from .targets import check_target_set
from .weights import check_sample_weight


@dataclass(frozen=True)
class Probabilities:
    """Checked probabilities (or scores) beside class labels.

    ``codes``: each instance's class, a position in ``classes`` (None without ``y_true``);
    ``prob``: float64 (2-D float32 as given with ``keep_float32``), 1-D (of the positive
    class) or 2-D (a column per class), as given:
    rows that do not sum to 1 are divided by ``norms`` where read (:meth:`column`,
    :meth:`top_label`); ``norms``: None, or each row's divisor (1.0 for the rows that
    sum to 1 within rounding); ``positive``: the position of the positive class (of a 1-D
    ``prob``; the last column for 2-D unless ``pos_label`` named one);
    ``sample_weight``: the checked weights, or None for unit weights; ``scores``: whether
    ``prob`` holds unbounded scores rather than probabilities."""

    codes: object
    prob: object
    classes: object
    positive: int
    sample_weight: object
    norms: object = None
    scores: bool = False
    _top: list = field(default_factory=list, repr=False, compare=False)

    @property
    def one_dimensional(self):
        return self.prob.ndim == 1

    @property
    def n_samples(self):
        return self.prob.shape[0]

    def column(self, k):
        """The (n_samples,) probabilities of the class of column ``k`` (divided by the
        rows' sums where they do not sum to 1)."""
        values = self.prob[:, k]
        if values.dtype != np.float64:  # a float32 prob kept (keep_float32)
            values = values.astype(np.float64)
        return values if self.norms is None else values / self.norms

    def columns(self, start, stop):
        """The probabilities of columns ``start`` to ``stop`` as contiguous rows, of shape
        ``(stop - start, n_samples)`` (divided by the rows' sums where they do not sum to
        1), copied in row chunks: the columns' cache lines are read once, where reading
        column after column would read them once per column."""
        n_samples = self.prob.shape[0]
        out = np.empty((stop - start, n_samples))
        step = chunk_rows(8 * (stop - start))
        for first in range(0, n_samples, step):
            out[:, first:first + step] = self.prob[first:first + step, start:stop].T
        if self.norms is not None:
            out /= self.norms
        return out

    def top_label(self):
        """``(predicted, confidence)``: each row's first column of largest probability
        (as ``argmax`` and ``predict`` break ties) and that probability (divided by the
        row's sum where it does not sum to 1), read in row chunks, once. A 1-D ``prob``
        of two classes: the positive class where its probability exceeds its complement
        (a tie to the other class), and the larger of the two."""
        if self.prob.ndim == 1:
            complement = 1.0 - self.prob
            above = self.prob > complement
            predicted = np.where(above, self.positive, 1 - self.positive).astype(np.intp)
            return predicted, np.maximum(self.prob, complement)
        if not self._top:
            self._top.append(_top_labels(self.prob, self.norms))
        return self._top[0]


def checked_probabilities(owner, y_true, y_prob, *, labels=None, pos_label=None,
                          sample_weight=None, name="y_prob", scores=False,
                          default_positive="scikit-learn", top_label=False, sparse=False,
                          keep_float32=False):
    """The :class:`Probabilities` of 1-D labels ``y_true`` beside ``y_prob`` (argument
    ``name``).

    ``scores``: ``y_prob`` holds scores (any finite numbers, a ``decision_function``), not
    probabilities (in [0, 1], 2-D rows summing to 1, warned where they do not).
    ``default_positive``: a 1-D ``y_prob``'s positive class without ``pos_label``:
    ``"scikit-learn"`` (``labels[-1]`` where ``labels`` is given, else 1 for the classes
    {0, 1} or {-1, 1}), ``"classes"`` (1 for the classes {0, 1} or {-1, 1} whatever the
    order of ``labels``, the rule of scikit-learn's ``roc_curve``) or ``"last"`` (the last
    of the classes, a classifier's second column; never an error, so that a caller may
    refuse what it refuses first and then name the positive class with
    :func:`with_positive`). ``top_label``: read each row's top label in the checking pass (2-D).
    ``sparse``: keep a scipy.sparse ``y_prob`` as a CSR array (else read densely).
    ``keep_float32``: keep a 2-D float32 ``y_prob`` as float32 (no float64 copy; the
    caller reads it through :meth:`Probabilities.column`, ``columns``, ``top_label``).
    ``y_true=None``: probabilities alone (``codes`` and ``classes`` None). ``owner``
    names the function in messages that need it."""
    if y_true is not None and _column_names(y_prob) is not None:
        # A DataFrame's columns name its classes, as everywhere in the library (read by
        # position, its shuffled columns gave another number silently)
        (_, y_prob), labels, _ = _aligned_frames({"y_true": y_true, name: y_prob},
                                                 (name, _column_names(y_prob)), labels, labels)
    prob = _checked_array(name, y_prob, scores, sparse, keep_float32)
    n_samples = prob.shape[0]
    codes = classes = None
    if y_true is not None:
        codes, present = _label_codes(y_true, name)
        if codes.shape[0] != n_samples:
            raise ValueError(f"y_true and {name} must have the same number of samples; got "
                             f"{codes.shape[0]} and {n_samples}.")
    if prob.ndim == 1:
        if not scores:
            _refuse_outside_unit_interval(name, prob)
        if y_true is None:
            return Probabilities(None, prob, None, 1, check_sample_weight(
                sample_weight, n_samples, name), scores=scores)
        classes = _binary_classes(present, name, labels, scores)
        codes = label_codes(present, classes)[codes] if len(present) else codes
        classes, position = _positive(owner, classes, pos_label, labels, default_positive,
                                      name, scores)
        return Probabilities(codes, prob, classes, position,
                             check_sample_weight(sample_weight, n_samples), scores=scores)
    if y_true is not None:
        classes = _every_column(present, name, prob.shape[1], labels, owner)
        if not np.array_equal(classes, present):  # classes of y_true missing from a fold
            codes = label_codes(present, classes)[codes]
    position = prob.shape[1] - 1
    if pos_label is not None and classes is not None:
        matches = _matches(classes, pos_label)
        if matches.size == 0:
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes "
                             f"{quoted(classes)} of {name}'s columns.")
        position = int(matches[0])
    norms, top = _checked_rows(name, prob, scores, top_label, dtype=_given_dtype(y_prob))
    weights = check_sample_weight(sample_weight, n_samples,
                                  "y_true" if y_true is not None else name)
    return Probabilities(codes, prob, classes, position, weights, norms, scores,
                         [] if top is None else [top])


def _every_column(present, name, n_columns, labels, owner):
    """The classes of the ``n_columns`` columns of ``name`` beside ``y_true`` (of the
    sorted classes ``present``) by the library's one class rule (:func:`score_columns`:
    the classes in sorted order), for a function that reads every column into one number
    or result: ``labels`` may name every class, in sorted order (where ``y_true`` lacks
    some), never select or reorder the columns: a subset or another order is refused."""
    classes, selection = score_columns(["y_true"], present, name, n_columns, labels)
    if selection is not None and (len(selection) != n_columns
                                  or np.any(selection != np.arange(n_columns))):
        who = f"{owner} reads" if owner else "this function reads"
        raise ValueError(
            f"labels={quoted(np.asarray(labels).tolist())} selects or reorders the columns "
            f"of {name}, but {who} every column: its columns are the classes "
            f"{quoted(classes)} in sorted order (a classifier's classes_). Pass labels=None, "
            f"or the classes in sorted order, {quoted(classes)}.")
    return np.asarray(classes)


def refuse_unsorted_columns(labels, n_columns, name, owner):
    """``labels`` checked as the classes of every one of the ``n_columns`` columns of
    ``name`` in sorted order (a classifier's ``classes_``), for a function that reads every
    column by position: a subset or another order is refused, never read as naming the
    columns (the library's one class rule: the columns are the classes in sorted order).
    Returns the checked labels."""
    listed = check_label_list(labels)
    order = np.argsort(listed, kind="stable")
    if len(listed) != n_columns or np.any(order != np.arange(n_columns)):
        expected = f"{n_columns} classes in sorted order"
        raise ValueError(
            f"labels={quoted(listed.tolist())} must be the classes of every column of {name} "
            f"in sorted order (a classifier's classes_), as {owner} reads the columns: "
            f"expected {expected}; got {len(listed)} label(s)"
            f"{'' if len(listed) != n_columns else ' in another order'}. Put the columns in "
            "sorted order, or pass a DataFrame whose column names name them.")
    return listed


# --- The array ------------------------------------------------------------------------------


def _given_dtype(y):
    dtype = getattr(y, "dtype", None)
    return dtype if isinstance(dtype, np.dtype) else np.dtype(np.float64)


def _checked_array(name, y, scores, sparse, keep_float32=False):
    """``y`` as a float64 1-D or 2-D array (or CSR, ``sparse``) of finite numbers (a 2-D
    float32 array as given, ``keep_float32``)."""
    what = "scores" if scores else "probabilities in [0, 1]"
    if y is None:
        raise TypeError(f"{name} must be array-like ({what}); got None.")
    try:
        array = _as_array(name, y)
    except ValueError as error:  # a list of strings and numbers: no scores either
        if "mixes strings and numbers" not in str(error):
            raise
        raise ValueError(f"{name} must hold numbers ({what}); got strings among them.") \
            from None
    if sp.issparse(array) and not sparse:
        array = dense_of_sparse(name, array)
    if array.ndim == 1 and array.dtype.kind in "OUS":
        try:
            array = np.asarray(array, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must hold numbers ({what}); got values such as "
                             f"{quoted(_first_non_number(array))}.") from None
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers ({what}); got dtype {array.dtype}.")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    if array.ndim == 2 and array.shape[1] == 0:
        raise ValueError(f"{name} has no columns; at least one class is required.")
    if sp.issparse(array):
        return array if array.dtype == np.float64 else array.astype(np.float64)
    kept = keep_float32 and array.ndim == 2 and array.dtype == np.float32
    array = np.asarray(array, dtype=np.float32 if kept else np.float64)  # no copy, any order
    if array.ndim == 1:
        _refuse_not_finite_1d(name, array, what)
    return array


def dense_of_sparse(name, array):
    """A sparse ``array`` (argument ``name``) as a dense one, refused before allocating
    where that exceeds the budget (a sparse (10**6, 10**5) y_prob of a million entries
    took 800 GB, unchecked)."""
    n_bytes = 8.0 * array.shape[0] * array.shape[1]
    budget = _settings()["max_matrix_mib"]
    if n_bytes > budget * 2 ** 20:
        raise ValueError(
            f"{name} is a sparse array of shape {array.shape}, read densely: "
            f"{n_bytes / 2 ** 20:.0f} MiB, above the package's budget of "
            f"max_matrix_mib={budget} MiB. Pass it dense, or raise the budget with "
            "sklearn_confusion_ext.set_config(max_matrix_mib=...) if the machine has the "
            "memory.")
    return array.toarray()


def _first_non_number(array):
    for value in array.tolist():
        try:
            float(value)
        except (TypeError, ValueError):
            return value
    return array.tolist()[:3]


def _refuse_not_finite_1d(name, array, what):
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.add.reduce(array)  # NaN or infinite unless every value is finite
    if np.isfinite(total):
        return
    finite = np.isfinite(array)
    if finite.all():  # finite values whose sum overflows
        return
    _raise_not_finite(name, array[~finite][0], int(np.argmin(finite)), what)


def _raise_not_finite(name, value, row, what):
    shown = "nan" if np.isnan(value) else "infinity"
    kind = "scores" if what == "scores" else "probabilities"
    raise ValueError(f"{name} contains {shown} (first at row {row}); {kind} must be finite.")


def _refuse_outside_unit_interval(name, prob):
    if prob.min() >= 0 and prob.max() <= 1:
        return
    row = int(np.argmax((prob < 0) | (prob > 1)))
    raise ValueError(f"{name} is 1-D, the probability of the positive class, but has values "
                     f"outside [0, 1]: row {row} holds {prob[row]:g}.")


# Cache-sized chunks per call of the compiled checking pass (16 MiB of rows): the chunk's
# outputs stay in cache where the block is column-contiguous (an F-ordered array)
_KERNEL_CHUNKS = 8


def _checked_rows(name, prob, scores, top_label, dtype):
    """``(norms, top)`` of 2-D ``prob``: one pass in row chunks, each chunk read once for
    its row sums and smallest entry and, with ``top_label``, its top labels; the row sums
    warned (probabilities) and kept as divisors where they are not 1."""
    if sp.issparse(prob):  # CSR (cost_optimal_predictions): its stored values
        if scores:
            if not np.isfinite(prob.data).all():
                row = int(np.searchsorted(prob.indptr, np.argmin(np.isfinite(prob.data)),
                                          side="right") - 1)
                _raise_not_finite(name, prob.data[~np.isfinite(prob.data)][0], row,
                                  "scores")
            return None, None
        sums = checked_row_sums(name, prob)
        return _norms(name, sums, dtype, prob), None
    n_samples, n_classes = prob.shape
    kernel = _row_kernel(prob)
    # The compiled pass is bound by the read of memory: on the calling thread, in chunks
    # of _KERNEL_CHUNKS cache-sized ones (threads measured to burn CPU time without
    # shortening the wall time: 1.2x the CPU time of one thread at N = 1e6, C = 100 on
    # the busy 2-core machine)
    step = chunk_rows(8 * n_classes, scale=_KERNEL_CHUNKS if kernel is not None else 1)
    ones = np.ones(n_classes)
    sums = np.empty(n_samples)
    predicted = np.empty(n_samples, dtype=np.intp) if top_label else None
    largest = np.empty(n_samples) if top_label else None
    smallest = np.empty(-(-n_samples // step))

    def read(rows):
        block = prob[rows]
        if kernel is not None:  # the same sums, smallest entry and top labels, one pass
            smallest[rows.start // step] = kernel.check_rows(
                block, sums[rows], *((predicted[rows], largest[rows]) if top_label else ()))
            return
        with np.errstate(over="ignore", invalid="ignore"):
            np.matmul(block, ones, out=sums[rows])
        smallest[rows.start // step] = block.min()
        if top_label:
            predicted[rows], largest[rows] = _top_of_block(block)

    for _ in map_chunks(read, n_samples, step, n_jobs=1 if kernel is not None else None):
        pass
    low = smallest.min()
    with np.errstate(invalid="ignore"):
        clean = np.isfinite(sums).all() and (scores or low >= 0)
    if not clean:
        _raise_bad_rows(name, prob, sums, scores, step)
    if scores:
        return None, (predicted, largest) if top_label else None
    norms = _norms(name, sums, dtype, prob)
    if top_label:
        return norms, (predicted, largest if norms is None else largest / norms)
    return norms, None


def _row_kernel(prob):
    """The compiled row kernels (``_row_kernels.pyx``) where they are built and ``prob``
    is float32 or float64, else None (the NumPy reference reads it)."""
    from .kernels import compiled_row_kernels

    kernel = compiled_row_kernels()
    return kernel if kernel is not None and prob.dtype in (np.float32, np.float64) else None


def _raise_bad_rows(name, prob, sums, scores, step):
    """The error of the first chunk that holds a NaN, infinite or negative entry, or a row
    whose sum overflows."""
    what = "scores" if scores else "probabilities"
    for start in range(0, prob.shape[0], step):
        block = prob[start:start + step]
        finite = np.isfinite(block)
        if not finite.all():
            row = int(np.flatnonzero(~finite.all(axis=1))[0])
            _raise_not_finite(name, block[row][~finite[row]][0], start + row, what)
        if not scores and block.min() < 0:
            row = int(np.flatnonzero(block.min(axis=1) < 0)[0])
            raise ValueError(f"{name} has negative entries (min {prob.min():g}, first at row "
                             f"{start + row}); probabilities must be non-negative.")
    if scores:
        return  # finite scores whose sum overflows: never summed again
    row = int(np.argmax(~np.isfinite(sums)))
    raise ValueError(f"{name}'s row {row} sums beyond the largest float: pass "
                     "probabilities (each row summing to 1).")


def refuse_empty_rows(name, sums):
    """Refuse rows of no probability mass, naming ``name`` and the first such row."""
    empty = ~(np.asarray(sums) > 0)
    if empty.any():
        raise ValueError(f"{name}'s row {int(np.argmax(empty))} sums to 0: it gives no class "
                         "any probability (no probability mass); pass a classifier's "
                         "predict_proba.")


def _norms(name, sums, dtype, prob):
    """The divisor of each row (None where every row sums to 1 within the tolerance of its
    dtype), after the warning of rows that do not."""
    lowest, highest = sums.min(), sums.max()
    if not lowest > 0:
        refuse_empty_rows(name, sums)
    tolerance = _SUM_TOLERANCE[np.dtype(dtype) == np.float32]
    # |s - 1| is monotone on each side of 1: the extremes tell whether any row is off
    if max(abs(lowest - 1.0), abs(highest - 1.0)) <= tolerance:
        return None
    off = np.abs(sums - 1.0) > tolerance
    warn_unless_probabilities(name, sums, dtype, rows=prob)
    return np.where(off, sums, 1.0)


def _top_labels(prob, norms):
    """Each row's top label and its probability (``prob`` 2-D), read in row chunks."""
    if sp.issparse(prob):
        raise TypeError("top labels of a sparse y_prob are not read")  # never asked
    n_samples, n_classes = prob.shape
    predicted, largest = np.empty(n_samples, dtype=np.intp), np.empty(n_samples)

    def read(rows):
        predicted[rows], largest[rows] = _top_of_block(prob[rows])

    for _ in map_chunks(read, n_samples, chunk_rows(8 * n_classes)):
        pass
    return predicted, largest if norms is None else largest / norms


def _top_of_block(block):
    """The first column of largest value of each row of ``block`` and that value (read
    from the flat block where it is C-contiguous: a take, no index arrays per row)."""
    top = block.argmax(axis=1)
    if block.flags.c_contiguous:
        return top, block.ravel()[np.arange(0, block.size, block.shape[1]) + top]
    return top, np.take_along_axis(block, top[:, None], axis=1)[:, 0]


# --- The classes ----------------------------------------------------------------------------


def _label_codes(y_true, name):
    """The codes of 1-D labels ``y_true`` into their sorted classes, and those classes."""
    try:
        shape = np.shape(y_true)
    except ValueError:  # a ragged list (NumPy's words named nothing): refused naming it below
        shape = ()
    if len(shape) == 2 and shape[1] > 1:
        raise ValueError(f"y_true must be 1-D class labels beside {name}; got an array of "
                         f"shape {shape} (pass the class of each instance, e.g. "
                         "y.argmax(axis=1)).")
    target = check_target_set({"y_true": y_true}, one_hot=False)
    if not target.single_label:
        raise ValueError(f"y_true must be 1-D class labels beside {name}; got a 2-D array "
                         "(pass the class of each instance, e.g. y.argmax(axis=1)).")
    codes, classes = target.codes[0], np.asarray(target.classes)
    order = np.argsort(classes, kind="stable")
    if np.array_equal(order, np.arange(len(classes))):
        return codes, classes
    return np.argsort(order)[codes], classes[order]  # a categorical's order: sorted


def _binary_classes(present, name, labels, scores):
    """The classes of a problem read through one column: ``labels`` or those present."""
    if labels is None:
        classes = present
    else:
        classes = check_label_list(labels, present)
        classes, present = common_integer_labels({"labels": classes, "the targets": present})
        unknown = np.setdiff1d(present, classes)
        if unknown.size:
            raise ValueError(f"y_true holds class labels {quoted(unknown)} that are not in "
                             f"labels {quoted(classes)}: beside a 1-D {name}, labels names "
                             "both classes.")
    if len(classes) > 2:
        where = "labels lists" if labels is not None else "y_true holds"
        what = "score" if scores else "probability"
        raise ValueError(
            f"{where} {len(classes)} classes {quoted(classes)}, but a 1-D {name} is the "
            f"{what} of one class of two: pass 2-D {'scores' if scores else 'probabilities'}"
            ", one column per class (a classifier's predict_proba), for one-vs-rest.")
    return np.asarray(classes)


def with_positive(owner, data, pos_label, *, labels=None, default_positive="scikit-learn",
                  name="y_prob"):
    """``data`` (the :class:`Probabilities` of a 1-D ``y_prob`` beside ``y_true``) with
    the positive class ``pos_label`` (by the rule ``default_positive`` where None, as in
    :func:`checked_probabilities`), the class added where it is absent from a ``y_true``
    of one class."""
    classes, position = _positive(owner, data.classes, pos_label, labels, default_positive,
                                  name, data.scores)
    return replace(data, classes=classes, positive=position)


def _positive(owner, classes, pos_label, labels, rule, name, scores):
    """``(classes, position)`` of the positive class of a 1-D ``y_prob``."""
    if pos_label is None:
        if rule == "last" or labels is not None and rule != "classes":
            return classes, len(classes) - 1
        pos_label = _default_pos_label(classes, name, scores)
    matches = _matches(classes, pos_label)
    if matches.size:
        return classes, int(matches[0])
    if len(classes) == 2 or labels is not None or not _comparable(classes, pos_label):
        raise ValueError(f"pos_label={pos_label!r} is not a class of y_true "
                         f"{quoted(classes)}: it should be one of them.")
    # one class only, not the positive one: every instance is negative
    return np.asarray([*classes.tolist(), pos_label]), len(classes)


def _default_pos_label(classes, name, scores):
    """scikit-learn's rule: with ``pos_label=None`` the classes must be {0, 1}, {-1, 1}
    or one of them, and the positive class is 1."""
    values = classes.tolist()
    if classes.dtype.kind in "biuf" and (all(v in (0, 1) for v in values)
                                         or all(v in (-1, 1) for v in values)):
        return 1
    what = "score" if scores else "probability"
    raise ValueError(f"y_true takes values in {quoted(classes)} and pos_label is not "
                     "specified: either make y_true take values in {0, 1} or {-1, 1}, or "
                     f"pass pos_label= to name the class whose {what} {name} is.")


def _comparable(classes, pos_label):
    """Whether ``pos_label`` can be one of ``classes``: a string among strings, a number
    among numbers, a bool among bools."""
    kind = classes.dtype.kind
    if kind == "O":
        return True
    if kind in "US":
        return isinstance(pos_label, str)
    if isinstance(pos_label, (bool, np.bool_)):
        return kind == "b"
    return isinstance(pos_label, (int, float, np.number))


def _matches(classes, pos_label):
    """The positions in ``classes`` of ``pos_label`` (of a comparable type)."""
    if classes.dtype.kind == "O":
        return np.flatnonzero([isinstance(c, str) == isinstance(pos_label, str)
                               and c == pos_label for c in classes.tolist()])
    if not _comparable(classes, pos_label):
        return np.array([], dtype=int)
    return np.flatnonzero(classes == pos_label)
