"""Class labels: the ``labels=`` lists, the classes of 1-D targets and their encoding.

:func:`check_label_list` checks a ``labels=`` list against the targets' labels and
:func:`check_column_selection` the ``labels=`` of 2-D targets (column indices or names);
:func:`label_classes`, :func:`score_columns` (the one class rule of 2-D scores beside
labels) and :func:`category_order` give the classes in their order.
1-D labels are checked and encoded as the position of each instance's class
(:func:`label_codes`, :func:`one_hot`): integers of a small range by a count over the range,
without a sort, which also counts the pairs of two targets (:class:`PairCodes`); strings by
hashing; other labels by sorting. Integer labels of mixed signedness share one exact dtype
(:func:`common_integer_labels`).
"""

import weakref
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import unique_labels

from .arrays import to_numpy
from .params import quoted
from .raw_values import MIXED_TYPES, _check_strings_only, _hashable, _is_missing, as_numpy
from .target_kinds import _LARGEST_FLOAT_LABEL

# Integer labels spanning at most this many values (or twice their number) are encoded by
# a count over their range, without a sort.
_DENSE_LABEL_RANGE = 1 << 16

# Longest string labels encoded through integer keys (longer ones: by string comparisons).
_STRING_KEY_WIDTH = 16


def check_label_list(labels, present=None):
    """``labels`` of 1-D targets: unique class labels of the same type as ``present``
    (the labels of the targets; None checks the list alone). An array of another library,
    on any device, is read on the host."""
    if hasattr(labels, "__dlpack__") and not isinstance(labels, np.ndarray):
        labels = to_numpy(labels)
    raw, labels = labels, as_numpy("labels", labels, "a 1-D list of class labels")
    if labels.dtype.kind in "US" and not hasattr(raw, "dtype"):
        _check_strings_only("labels", np.asarray(raw, dtype=object))
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError("labels must be a non-empty 1-D list of class labels; got "
                         f"{quoted(labels)}.")
    if labels.dtype.kind in "Of":  # None or NaN first: it is neither a string nor a number
        missing = [value for value in labels.tolist() if value is None or _is_missing(value)]
        if missing:
            raise ValueError(f"labels holds a missing value ({quoted(missing[0])}), which is "
                             "no class label; list the classes to report.")
    if labels.dtype.kind == "O":
        _check_object_labels("labels", labels)
    if present is not None and _holds_strings(labels) != _holds_strings(present):
        kinds = {True: "strings", False: "numbers"}
        raise ValueError(
            f"labels holds {kinds[_holds_strings(labels)]} ({quoted(labels.tolist())}) but the "
            f"targets hold {kinds[_holds_strings(present)]} ({quoted(present.tolist())}); "
            "labels= lists class labels as the targets hold them.")
    try:
        unique, counts = np.unique(labels, return_counts=True)
    except TypeError as exc:
        raise ValueError(f"labels {quoted(labels.tolist())} cannot be sorted ({exc}); class "
                         "labels must be all strings or all numbers.") from None
    if (counts > 1).any():
        raise ValueError(f"labels must be unique; {quoted(unique[counts > 1].tolist())} "
                         "repeated.")
    return labels


def _holds_strings(labels):
    """Whether checked class labels (not both strings and numbers) are strings: by dtype,
    or by value for an object array (pandas' object columns, a list with None)."""
    if labels.dtype.kind == "O":
        return labels.size > 0 and isinstance(labels.flat[0], (str, bytes))
    return labels.dtype.kind in "US"


def _check_object_labels(name, y):
    """Labels in an object array: no missing values, not both strings and numbers."""
    kinds = set()
    for value in y.tolist():
        if value is None or _is_missing(value):
            raise ValueError(f"{name} contains a missing class label ({quoted(value)}); every "
                             "sample needs a label.")
        kinds.add(isinstance(value, (str, bytes)))
    if len(kinds) > 1:
        raise ValueError(f"{name} {MIXED_TYPES}")


def common_integer_labels(named_labels):
    """The integer label arrays given, in one integer dtype that holds them all.

    NumPy compares and merges ``uint64`` with signed integers as float64, which merges
    distinct labels above 2**53; cast both to ``int64`` or to ``uint64`` instead, or
    raise ``ValueError`` when neither holds every label. Other arrays pass unchanged.
    """
    arrays = list(named_labels.values())
    integer = [y for y in arrays if y.dtype.kind in "iu"]
    if len(integer) < 2 or np.result_type(*integer).kind in "iu":
        return arrays
    # Python integers compare exactly (NumPy 1.24 compares uint64 with an int as float64).
    if all(y.size == 0 or int(y.max()) <= int(np.iinfo(np.int64).max) for y in integer
           if y.dtype.kind == "u"):
        common = np.int64
    elif all(y.size == 0 or int(y.min()) >= 0 for y in integer if y.dtype.kind == "i"):
        common = np.uint64
    else:
        raise ValueError(
            f"{' and '.join(named_labels)} hold both negative integer labels and labels above "
            "2**63 - 1, which no integer type holds together; use one integer type."
        )
    return [y.astype(common) if y.dtype.kind in "iu" else y for y in arrays]


def label_classes(first_name, first, present, labels):
    """The classes of 1-D targets, ``labels`` first, and the positions ``labels`` select.

    ``present``: the sorted labels of all targets; ``first``: the labels of the first
    target, where at least one of ``labels`` must appear.
    """
    if labels is None:
        return present, None
    listed = check_label_list(labels, present)
    listed, present = common_integer_labels({"labels": listed, "the targets": present})
    check_labels_occur(first_name, listed, first)
    return (np.concatenate([listed, np.setdiff1d(present, listed)]),
            np.arange(len(listed)))


def check_labels_occur(first_name, listed, first):
    """Raise ``ValueError`` unless one of the ``listed`` labels occurs in ``first``."""
    if not np.isin(listed, first).any():
        raise ValueError(
            f"None of labels {quoted(listed)} appear in {first_name}; at least "
            f"one label must be in {first_name}."
        )


def score_columns(label_names, present, scores_name, n_columns, labels, named=None):
    """The one class rule of 2-D scores (``scores_name``, of ``n_columns`` columns) beside
    1-D labels (``label_names``, holding the sorted labels ``present``): ``(classes,
    selection)``, the class of each column and the positions ``labels`` selects, in its
    order (None: every column, in order).

    The columns are the classes in sorted order, as a classifier's ``classes_`` (and
    scikit-learn's ``log_loss``, ``roc_auc_score``, ``top_k_accuracy_score`` read them):
    ``sorted(labels)`` where ``labels`` has one class per column, else the sorted union of
    ``present`` and ``labels``, which must then be one per column (default: ``present``).
    ``named``: the classes of the columns where something names them (a classifier's
    ``classes_``, a DataFrame's header), taken as they are. ``labels`` then selects and
    orders the classes, as beside 1-D labels."""
    who = " and ".join(label_names)
    verb = "holds" if len(label_names) == 1 else "hold"
    listed = None if labels is None else check_label_list(labels, present)
    if named is not None:  # checked as labels= is, against the labels (type, repeats)
        classes = check_label_list(named, present)
    elif listed is None:
        if len(present) != n_columns:
            raise ValueError(
                f"{who} {verb} {len(present)} distinct class label(s) {quoted(present)} but "
                f"{scores_name} has {n_columns} columns of scores; pass labels= with the "
                f"{n_columns} class labels of {scores_name}'s columns (its columns are the "
                "classes in sorted order, a classifier's classes_).")
        classes = present
    else:
        listed, present = common_integer_labels({"labels": listed, "the targets": present})
        classes = np.sort(listed) if len(listed) == n_columns else np.union1d(present, listed)
        if len(classes) != n_columns:
            raise ValueError(
                f"labels {quoted(listed)} and the classes of {who} {quoted(present)} make "
                f"{len(classes)} class(es) {quoted(classes)} but {scores_name} has "
                f"{n_columns} columns, the classes in sorted order; pass labels= with all "
                f"{n_columns} classes of {scores_name}'s columns, then take the rows and "
                "columns wanted from the result.")
    if named is None or labels is None:
        classes, present = common_integer_labels({"labels": classes, "the targets": present})
    unknown = np.setdiff1d(present, classes)
    if unknown.size:
        source = "labels " if named is None and listed is not None else ""
        raise ValueError(f"{who} {verb} class labels {quoted(unknown)} that are not in "
                         f"{source}{quoted(classes)}, the classes of {scores_name}'s columns; "
                         f"pass labels= with the {n_columns} classes of its columns.")
    if listed is None:
        return classes, None
    if named is not None:
        listed, classes = common_integer_labels({"labels": listed, "the columns": classes})
    position = {_hashable(c): i for i, c in enumerate(classes.tolist())}
    missing = [label for label in listed.tolist() if _hashable(label) not in position]
    if missing:
        raise ValueError(f"labels {quoted(missing)} are not among the classes "
                         f"{quoted(classes)} of {scores_name}'s columns.")
    selection = np.array([position[_hashable(label)] for label in listed.tolist()],
                         dtype=np.intp)
    return classes, selection


def category_order(categories, classes):
    """The positions of ``classes`` in the order of ``categories`` (a categorical's), the
    classes outside the categories after them, in their own order."""
    rank = {_hashable(c): i for i, c in enumerate(np.asarray(categories).tolist())}
    keys = [rank.get(_hashable(c), len(rank)) for c in np.asarray(classes).tolist()]
    return np.argsort(keys, kind="stable")


def check_column_selection(labels, n_classes, names=None):
    """``labels`` of 2-D targets: unique integer column indices in ``[0, n_classes)``, or,
    where ``names`` (the classes of the columns) are not the default ``0 .. C-1`` (named
    DataFrame columns), column names, returned as positions."""
    if names is not None and list(names) != list(range(len(names))):
        return _selected_columns(labels, list(names))
    selection = np.asarray(labels)
    if selection.ndim != 1 or selection.size == 0 or selection.dtype.kind not in "iu":
        raise ValueError(
            "For 2-D targets labels must be a non-empty 1-D list of integer "
            f"column indices; got {quoted(labels)}."
        )
    if selection.min() < 0 or selection.max() >= n_classes:
        raise ValueError(
            f"labels must be column indices in [0, {n_classes}); got {quoted(selection)}."
        )
    if len(np.unique(selection)) != len(selection):
        raise ValueError(f"labels must be unique; got {quoted(selection)}.")
    return selection


def _selected_columns(labels, names):
    """``labels=`` of 2-D targets with named columns: column names, as positions."""
    listed = check_label_list(labels).tolist()
    position = {_hashable(name): i for i, name in enumerate(names)}
    unknown = [label for label in listed if _hashable(label) not in position]
    if unknown:
        raise ValueError(f"labels {quoted(unknown)} are not among the column names "
                         f"{quoted(names)}; with DataFrame targets, labels= names columns.")
    return np.array([position[_hashable(label)] for label in listed])


def _checked_labels(names, targets, count_pairs=False):
    """1-D label arrays checked as class labels, in one integer dtype where they are
    integers, the sorted labels they hold together, and the position of each instance's
    label among those (None where they were not found on the way)."""
    dtype = targets[0].dtype
    if dtype.kind in "iu" and all(y.dtype == dtype for y in targets):  # nothing to check
        return _checked_label_codes(names, targets, count_pairs)
    found = _string_object_codes(targets)
    if found is not None:
        return found
    for name, y in zip(names, targets):
        if y.dtype.kind == "f":
            if not np.isfinite(y).all():
                raise ValueError(f"{name} contains NaN or infinite class labels.")
            if not np.array_equal(y, np.round(y)):
                raise ValueError(
                    f"{name} holds non-integer floats; 1-D targets must be class "
                    "labels. Pass soft labels as a 2-D (n_samples, n_classes) array."
                )
            largest = np.abs(y).max(initial=0.0)
            if largest > _LARGEST_FLOAT_LABEL:
                raise ValueError(
                    f"{name} holds float class labels as large as {largest:g}, beyond 2**53, "
                    "where floats no longer tell integers apart; pass integer or string "
                    "labels.")
        elif y.dtype.kind == "O":
            _check_object_labels(name, y)
    targets = common_integer_labels(dict(zip(names, targets)))
    return _checked_label_codes(names, targets, count_pairs)


def _checked_label_codes(names, targets, count_pairs):
    """:func:`_checked_labels`' result for checked label arrays: integers of a dense range
    counted (:func:`_dense_integer_codes`), other labels sorted (``unique_labels``)."""
    dense_range = _dense_integer_codes(targets, count_pairs)
    if dense_range is not None:
        return (targets, *dense_range)
    try:
        present = unique_labels(*targets)
    except ValueError as exc:
        raise ValueError(f"{' and '.join(names)} are not class labels: {exc}") from None
    except TypeError as exc:
        raise ValueError(f"{' and '.join(names)} hold class labels that cannot be sorted "
                         f"together ({exc}); use labels of one type.") from None
    return targets, present, None, (None, None, None)


def _string_object_codes(targets):
    """:func:`_checked_labels`' result for object arrays (pandas string and categorical
    columns among them) holding only ``str`` labels, found by hashing: the distinct labels
    are checked and sorted (a few, not every instance; sorted as scikit-learn's
    ``unique_labels`` returns them, a NumPy unicode array) and each instance's position
    among them looked up in a dict. None for other targets (then checked one by one)."""
    if not targets or any(y.dtype.kind != "O" or y.ndim != 1 or not y.size for y in targets):
        return None
    values = [y.tolist() for y in targets]
    try:
        distinct = set().union(*values)
    except TypeError:  # unhashable labels
        return None
    if any(type(value) is not str for value in distinct):
        return None
    present = np.asarray(sorted(distinct))
    position = {label: code for code, label in enumerate(present.tolist())}
    codes = [np.fromiter(map(position.__getitem__, labels), dtype=np.intp, count=len(labels))
             for labels in values]
    return targets, present, codes, (None, None, None)


def _dense_integer_codes(targets, count_pairs=False):
    """``(present, codes, (pair_counts, true_counts, pairs))`` of integer labels in a range at
    most a few times their number, found without a sort: the labels present by a count
    over the range, each instance's position among them by a lookup (int32 where it fits),
    or the label's offset from the smallest when every label of the range is present. Two
    targets whose range squared is small are counted by pairs where ``count_pairs``, one
    ``bincount`` that also gives their unweighted confusion counts (``pair_counts``, and
    ``pairs``, a :class:`PairCodes` to count them again under weights; else None);
    ``true_counts``, the count of each label present in the first target. None for
    other labels."""
    if not all(y.dtype.kind in "iu" and y.size for y in targets):
        return None
    low = min([int(y.min()) for y in targets])
    span = max([int(y.max()) for y in targets]) - low + 1
    n_labels = sum([y.size for y in targets])
    if span > max(_DENSE_LABEL_RANGE, 2 * n_labels):
        return None
    dtype = np.result_type(*targets)
    offsets = [_offsets(y, low, span) for y in targets]
    offsets = [y.astype(np.intp) if y.dtype.kind == "u" and y.dtype.itemsize >= 8 else y
               for y in offsets]
    pair_counts = pairs = None
    if count_pairs and len(offsets) == 2 and offsets[0].size == offsets[1].size and \
            span * span <= max(_DENSE_LABEL_RANGE, n_labels):
        codes = np.multiply(offsets[0], span, dtype=np.int64)
        codes += offsets[1]
        pairs = PairCodes(codes, span)
        pair_counts = pairs.counts()  # over the whole range
        true_counts = pair_counts.sum(axis=1)
        # Every label of the range in y_true (the common case): y_pred's counts not needed.
        occurrences = None if true_counts.all() else pair_counts.sum(axis=0) + true_counts
    else:
        counts = [np.bincount(offset, minlength=span) for offset in offsets]
        true_counts = counts[0]
        occurrences = np.add.reduce(counts)
    if occurrences is None or occurrences.all():  # every label of the range
        present = np.arange(span, dtype=dtype)
        if low:
            present += dtype.type(low)
        return present, offsets, (pair_counts, true_counts, pairs)
    seen = occurrences > 0
    if pair_counts is not None:
        pairs = PairCodes(codes, span, seen)
    present = np.flatnonzero(seen).astype(dtype) + dtype.type(low)
    true_counts = true_counts[seen]
    if pair_counts is not None:
        pair_counts = pair_counts[np.ix_(seen, seen)]
    position = (np.cumsum(seen) - 1).astype(_index_type(span, max(y.size for y in targets)))
    return present, [position[offset] for offset in offsets], (pair_counts, true_counts, pairs)


@dataclass(frozen=True)
class PairCodes:
    """The pairs of two targets' integer labels as codes of their range
    (``true * span + pred``, from the smallest label) and the labels of the range that are
    present (``seen``, in order; None: all of them): their confusion counts are one
    ``bincount``."""

    codes: np.ndarray
    span: int
    seen: np.ndarray = None

    def counts(self, weights=None):
        """The counts of the pairs of labels present, weighted by ``weights``."""
        counts = np.bincount(self.codes, weights=weights, minlength=self.span * self.span)
        counts = counts.reshape(self.span, self.span)
        if self.seen is None or self.seen.all():
            return counts
        return counts[np.ix_(self.seen, self.seen)]


def _offsets(y, low, span):
    """``y - low`` (each in ``[0, span)``): in the type of ``y`` where it holds ``low`` and
    ``span - 1`` (no copy when ``low`` is 0), else as ``intp`` (int8 labels from -128 to
    127; unsigned labels beside negative ones)."""
    if low == 0:
        return y
    info = np.iinfo(y.dtype)
    if info.min <= low and span - 1 <= info.max:
        return y - y.dtype.type(low)
    return np.subtract(y, low, dtype=np.intp)


def _index_type(*sizes):
    return np.int32 if max(sizes) < np.iinfo(np.int32).max else np.intp


def label_codes(y, classes, dtype=np.intp):
    """The position in ``classes`` of each label of ``y`` (all among ``classes``), in
    ``dtype`` (an integer type that holds ``len(classes)``): by a table indexed by integer
    keys (integer labels, short strings) modulo a size where the classes' keys differ, else
    by binary search; computed by chunks of ``_CODE_CHUNK`` labels, so that nothing but the
    codes takes memory in proportion to ``y``."""
    keys = _string_keys(y, classes)
    if keys is not None:
        y, classes = keys
    if y.dtype.kind in "iu" and classes.dtype.kind in "iu" and len(classes):
        found = _range_codes(y, classes, dtype)
        if found is not None:
            return found
        found = _modular_codes(y, classes, dtype)
        if found is not None:
            return found
    order = np.argsort(classes, kind="stable").astype(dtype, copy=False)
    ordered = classes[order]
    codes = np.empty(y.shape[0], dtype=dtype)
    for start in range(0, y.shape[0], _CODE_CHUNK):
        stop = start + _CODE_CHUNK
        np.take(order, np.searchsorted(ordered, y[start:stop]), out=codes[start:stop])
    return codes


# Labels a chunk of label_codes: its temporaries (the keys' remainders, their positions)
# stay in the cache.
_CODE_CHUNK = 1 << 16


def _range_codes(y, classes, dtype=np.intp):
    """Codes of integer ``y`` among ``classes`` that are a range of consecutive integers
    (``0 .. C - 1``, as a classifier's ``classes_`` mostly are): ``y - classes[0]``, one
    subtraction a chunk of ``_CODE_CHUNK`` labels written into the codes (no table, no
    modulo, no temporary); None for other classes or for 64-bit unsigned labels."""
    if y.dtype.kind == "u" and y.dtype.itemsize >= 8:
        return None
    low, n_classes = int(classes[0]), len(classes)
    if int(classes[-1]) - low != n_classes - 1 or (
            n_classes > 2 and not np.all(np.diff(classes) == 1)):
        return None
    codes = np.empty(y.shape[0], dtype=dtype)
    for start in range(0, y.shape[0], _CODE_CHUNK):
        stop = start + _CODE_CHUNK
        np.subtract(y[start:stop], low, out=codes[start:stop], dtype=np.int64,
                    casting="unsafe")
    return codes


def _modular_codes(y, classes, dtype=np.intp):
    """Codes of integer ``y`` through ``table[y % size]``, for the smallest ``size`` from
    twice the number of classes (up to 64 times) where the classes differ modulo ``size``;
    None if none does."""
    classes = classes.astype(np.uint64)  # two's complement: distinct stays distinct
    for size in range(2 * len(classes) + 1, 64 * len(classes) + 2):
        slots = classes % np.uint64(size)
        if np.unique(slots).size == len(classes):
            table = np.empty(size, dtype=dtype)
            table[slots.astype(np.intp)] = np.arange(len(classes))
            codes = np.empty(y.shape[0], dtype=dtype)
            for start in range(0, y.shape[0], _CODE_CHUNK):
                chunk = y[start:start + _CODE_CHUNK].astype(np.uint64, copy=False)
                np.take(table, (chunk % np.uint64(size)).astype(np.intp),
                        out=codes[start:start + _CODE_CHUNK])
            return codes
    return None


def _string_keys(y, classes):
    """Short fixed-width strings (``y`` and ``classes`` both 'U' or both 'S', at most
    16 characters) as integer keys, a polynomial of their characters, where the keys of
    ``classes`` are distinct (then equal labels have equal keys and distinct ones distinct
    keys); None otherwise."""
    kind = y.dtype.kind
    if kind not in "US" or classes.dtype.kind != kind:
        return None
    unit = 4 if kind == "U" else 1
    width = max(y.dtype.itemsize, classes.dtype.itemsize) // unit
    if width > _STRING_KEY_WIDTH or width == 0:
        return None
    keys = []
    for labels in (y, classes):
        characters = np.ascontiguousarray(labels, dtype=f"{kind}{width}").view(
            np.uint32 if kind == "U" else np.uint8).reshape(len(labels), width)
        key = np.zeros(len(labels), dtype=np.uint64)
        for column in range(width):
            key *= np.uint64(1_000_003)
            key += characters[:, column]
        keys.append(key)
    return tuple(keys) if np.unique(keys[1]).size == classes.size else None


def one_hot_codes(codes, n_classes, ones=None, starts=None):
    """Class positions as a sparse one-hot CSR array (its values ``ones`` and row starts
    ``starts`` when given); never densified."""
    n_samples = codes.shape[0]
    ones = np.ones(n_samples) if ones is None else ones
    starts = np.arange(n_samples + 1) if starts is None else starts
    return sp.csr_array((ones, codes, starts), shape=(n_samples, n_classes))


# The row starts ``0, 1, ..., n`` of the one-hot arrays :func:`one_hot` made (read-only),
# by ``id``, while they live: their readers know them one entry a row without reading them.
_ONE_ENTRY_STARTS = weakref.WeakValueDictionary()


def one_hot(y, classes):
    """Labels ``y`` (all among ``classes``) as a sparse one-hot CSR array, one column per
    class in the order of ``classes``; never densified. Its values are one read-only 1.0
    read as many (a zero stride: no memory a row), so that the array takes the codes and
    the row starts only (8 bytes a row where int32 indices fit); nothing writes them. The
    row starts are read-only and known as one entry a row (:func:`one_entry_a_row`)."""
    index_type = _index_type(y.shape[0] + 1, len(classes))  # int32 where it fits
    starts = np.arange(y.shape[0] + 1, dtype=index_type)
    starts.flags.writeable = False
    _ONE_ENTRY_STARTS[id(starts)] = starts
    return one_hot_codes(label_codes(y, classes, index_type), len(classes),
                         np.broadcast_to(np.float64(1.0), y.shape[:1]), starts)


def one_entry_a_row(indptr):
    """Whether the row starts ``indptr`` of a CSR array are ``0, 1, ..., n``: at once for
    the starts :func:`one_hot` made (read-only, so still those), else compared by chunks
    (no array as long as the rows)."""
    if _ONE_ENTRY_STARTS.get(id(indptr)) is indptr and not indptr.flags.writeable:
        return True
    step = 1 << 16
    return all(np.array_equal(indptr[start:start + step],
                              np.arange(start, min(start + step, indptr.shape[0])))
               for start in range(0, indptr.shape[0], step))
