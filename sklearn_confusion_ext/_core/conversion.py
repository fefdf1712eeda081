"""Conversion of one target to an array: a 1-D ndarray, a 2-D ndarray or a checked CSR array.

Lists, tuples, masked arrays, pandas' nullable numbers, ``MultiOutputClassifier``'s list of
probability arrays and every scipy.sparse format become NumPy or canonical float64 CSR
arrays; a sparse array's raw structure (index pointers, indices, coordinates) is checked
before any scipy routine reads it. The values of 2-D masses are checked here too: their row
sums (:func:`checked_row_sums`), refusing NaN, infinite and negative entries naming the row,
block by block (:func:`csr_rows`, :func:`mass_block`) or over the whole array on all cores.
"""

import numpy as np
import scipy.sparse as sp

from .arrays import row_sums
from .chunks import chunk_rows, map_chunks
from .raw_values import _check_strings_only, as_numpy
from .target_kinds import _only_zeros_and_ones
from .user_warnings import warn


def _as_target(name, y, compact=False):
    """Return ``y`` as a 1-D ndarray, a 2-D ndarray or a canonical CSR array."""
    y = _as_array(name, y, compact)
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    return y


def _as_array(name, y, compact=False):
    if sp.issparse(y):
        if y.ndim != 2:
            raise ValueError(f"{name} must be 1-D or 2-D; got a sparse array of shape {y.shape}.")
        y = _checked_csr(name, y)
        if y.shape[1] == 1:
            return _as_array(name, y.toarray(), compact)
        return y
    if isinstance(y, str) or not hasattr(y, "__len__") and not hasattr(y, "__array__"):
        raise TypeError(
            f"{name} must be array-like (class labels or an (n_samples, n_classes) "
            f"array); got {type(y).__name__}."
        )
    if isinstance(y, (list, tuple)) and y and all(np.ndim(p) == 2 for p in y):
        y = _positive_class_columns(name, y)
    if isinstance(y, np.ma.MaskedArray):
        if np.ma.getmaskarray(y).any():
            raise ValueError(
                f"{name} is a masked array with {np.ma.count_masked(y)} masked entries; masks "
                "are not read: drop the masked samples (or fill them) before scoring.")
        y = np.ma.getdata(y)
    raw, y = y, _numpy_of_nullable(name, y)
    _refuse_complex(name, y.dtype)
    if y.dtype.kind in "US" and not hasattr(raw, "dtype"):
        _check_strings_only(name, np.asarray(raw, dtype=object))
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim == 1:
        return y
    if y.ndim != 2:
        fix = (f" (one (n_samples, 2) array per label, as MultiOutputClassifier.predict_proba "
               f"gives them? pass the list itself, or {_POSITIVE_CLASS_FIX})"
               if y.ndim == 3 and y.shape[2] == 2 else "")
        raise ValueError(f"{name} must be 1-D or 2-D; got an array of shape {y.shape}{fix}.")
    if y.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} is 2-D with dtype {y.dtype}; 2-D targets must hold numbers "
            "(binary indicators or non-negative soft labels)."
        )
    # float32 masses stay float32: their blocks are computed in float32 (summed in float64).
    # Small integers stay as they are where the kind asks (``compact``): each block of rows
    # becomes float32 (exact for them) in cache, never the whole array (see ``mass_block``).
    if compact and _is_small_integer(y.dtype):
        return y
    # Wider integers (int32, int64: what ``astype(int)`` gives) stay as they are too when
    # they are 0/1 indicators (one pass, no float64 copy of the whole array): float32 holds
    # 0 and 1 exactly. Other values become float64 as before (and are refused as before).
    if compact and y.dtype.kind in "iu" and _only_zeros_and_ones(y):
        return y
    return np.asarray(y, dtype=np.float32 if y.dtype == np.float32 else np.float64)


_POSITIVE_CLASS_FIX = "np.column_stack([p[:, 1] for p in proba])"


def _positive_class_columns(name, arrays):
    """The (n_samples, n_labels) positive-class probabilities of a list of one
    (n_samples, 2) array per label, as ``MultiOutputClassifier.predict_proba`` (and the
    multi-output forests) give them: column 1 of each, the probability of label value 1."""
    shapes = [np.shape(p) for p in arrays]
    if any(shape[1] != 2 for shape in shapes) or len({shape[0] for shape in shapes}) != 1:
        raise ValueError(
            f"{name} is a list of {len(arrays)} 2-D arrays of shapes "
            f"{', '.join(map(str, shapes[:4]))}{', ...' if len(shapes) > 4 else ''}; a list "
            "is read as MultiOutputClassifier.predict_proba's one (n_samples, 2) array per "
            "label (columns: label 0, label 1), all with the same n_samples. A label seen "
            "with one value in training has one column: build the positive-class matrix "
            f"yourself ({_POSITIVE_CLASS_FIX}, with 0 or 1 where a label had one class).")
    return np.column_stack([np.asarray(p)[:, 1] for p in arrays])


def _is_small_integer(dtype):
    """Booleans and 8- or 16-bit integers: float32 holds each of them exactly."""
    return dtype.kind in "biu" and dtype.itemsize <= 2


def _refuse_label_rows(names, targets, raw):
    """A ``(1, n)`` row of ``n > 1`` values read as a row of class labels is refused, as
    scikit-learn refuses it: an ``np.matrix`` (``np.matrix(y)``), or a row beside ``n``
    1-D labels (``y.reshape(1, -1)``). A single row beside another single row stays one
    instance of soft labels or indicators (the papers' worked examples are such rows), with
    a warning where both hold integers and one an integer other than 0 and 1: ``n`` class
    labels of three or more classes reshaped to rows look the same (0/1 rows are one
    instance of multi-label indicators, as a row selected from a matrix of them)."""
    lengths = {y.shape[0] for y in targets if y.ndim == 1}
    rows = []
    for name, y, original in zip(names, targets, raw):
        if y.ndim == 2 and y.shape[0] == 1 and y.shape[1] > 1:
            rows.append((name, original))
            if isinstance(original, np.matrix) or y.shape[1] in lengths:
                raise ValueError(
                    f"{name} is a single row of shape {y.shape}, read as one instance of "
                    f"{y.shape[1]} classes, but it looks like a row of {y.shape[1]} class "
                    "labels ("
                    f"{'an np.matrix' if isinstance(original, np.matrix) else 'beside labels'}"
                    f"); pass labels 1-D ({name}.ravel()), as scikit-learn does (one instance "
                    "of soft labels: a 2-D ndarray beside another).")
    if len(rows) == len(targets) > 1 and all(_given_dtype(y).kind in "iu" for _, y in rows) \
            and not all(_only_zeros_and_ones(y) for y in targets):
        shown = " and ".join(name for name, _ in rows)
        n_classes = targets[0].shape[1]
        warn(f"{shown} are single rows of {n_classes} integers, read as one instance of "
             f"{n_classes} classes (integer masses). If they are the class "
             f"labels of {n_classes} instances, pass them 1-D ({rows[0][0]}.ravel()), as "
             "scikit-learn requires (it refuses a row of labels). One instance of masses "
             "given as floats does not warn.")


def _given_dtype(y):
    """The dtype a target was given in (a list: NumPy's reading of it; read for one row)."""
    dtype = getattr(y, "dtype", None)
    return dtype if isinstance(dtype, np.dtype) else np.asarray(y).dtype


def _numpy_of_nullable(name, y):
    """``y`` as a NumPy array; pandas' nullable numbers (``Int64``, ``Float64``,
    ``boolean``), which older pandas turns into object arrays, keep their NumPy type. In
    a frame (scores, soft labels), a missing value becomes NaN, which the value checks
    refuse naming its row."""
    frame = _numpy_of_nullable_frame(y)
    if frame is not None:
        return frame
    numpy_dtype = getattr(getattr(y, "dtype", None), "numpy_dtype", None)
    if numpy_dtype is None or not hasattr(y, "to_numpy"):
        return as_numpy(name, y)
    if np.asarray(y.isna() if hasattr(y, "isna") else np.isnan(y)).any():
        raise ValueError(f"{name} has missing values (pandas.NA); every sample needs a "
                         "class label.")
    return y.to_numpy(dtype=numpy_dtype)


def _numpy_of_nullable_frame(y):
    """A pandas frame with nullable number columns (``Float64``, ``Int64``, ``boolean``)
    and no column of another kind as one NumPy array of their common type (float64 where a
    value is missing: NaN there); None for anything else."""
    dtypes = getattr(y, "dtypes", None)
    if getattr(y, "ndim", None) != 2 or dtypes is None or not hasattr(y, "to_numpy") or \
            not any(hasattr(dtype, "numpy_dtype") for dtype in dtypes):
        return None
    numpy_dtypes = [getattr(dtype, "numpy_dtype", dtype) for dtype in dtypes]
    if not all(isinstance(dtype, np.dtype) and dtype.kind in "biuf" for dtype in numpy_dtypes):
        return None
    dtype = np.result_type(*numpy_dtypes)
    if np.asarray(y.isna()).any():
        return y.to_numpy(dtype=np.result_type(dtype, np.float64), na_value=np.nan)
    return y.to_numpy(dtype=dtype)


def _refuse_complex(name, dtype):
    if dtype.kind == "c":
        raise ValueError(f"{name} has complex values (dtype {dtype}); targets must be real "
                         "class labels, binary indicators or soft labels.")


def _checked_csr(name, y):
    """A new canonical float64 CSR array of a sparse ``y`` whose structure is checked.

    The raw arrays of ``y``'s own format are checked (O(nnz)) before any scipy
    routine reads them: scipy's compiled conversions trust index arrays, and an
    index out of range there reads or writes out of bounds.
    """
    _refuse_complex(name, y.dtype)
    if y.dtype.kind not in "biuf":
        raise ValueError(f"{name} is a sparse array of dtype {y.dtype}; sparse targets must "
                         "hold numbers (binary indicators or non-negative soft labels).")
    n_rows, n_columns = y.shape
    fmt = y.format
    if fmt in ("csr", "csc"):
        n_major, n_minor = (n_rows, n_columns) if fmt == "csr" else (n_columns, n_rows)
        _check_compressed(name, y.indptr, y.indices, y.data, n_major, n_minor)
    elif fmt == "bsr":
        block_rows, block_columns = y.blocksize
        _check_compressed(name, y.indptr, y.indices, y.data, n_rows // block_rows,
                          n_columns // block_columns)
        if y.data.shape[1:] != (block_rows, block_columns):
            raise ValueError(f"{name} is a malformed sparse array: its blocks have shape "
                             f"{y.data.shape[1:]}, not its blocksize {y.blocksize}.")
    elif fmt == "lil":
        if len(y.rows) != n_rows or len(y.data) != n_rows or \
                any(len(r) != len(d) for r, d in zip(y.rows, y.data)):
            raise ValueError(f"{name} is a malformed sparse array: its rows and data lists "
                             "do not match its shape.")
    elif fmt == "dia":
        if y.data.ndim != 2 or y.offsets.ndim != 1 or len(y.offsets) != y.data.shape[0]:
            raise ValueError(f"{name} is a malformed sparse array: {len(y.offsets)} "
                             f"diagonal offsets for data of shape {y.data.shape}.")
    if fmt not in ("csr", "csc", "bsr"):
        y = y.tocoo()  # COO itself is not copied
        _check_coordinates(name, y.row, y.col, y.data, n_rows, n_columns)
    if y.format != "csr":  # the structure scipy's conversion built
        y = y.tocsr()
        _check_compressed(name, y.indptr, y.indices, y.data, n_rows, n_columns)
    y = sp.csr_array((np.array(y.data, dtype=np.float64), y.indices.copy(), y.indptr.copy()),
                     shape=(n_rows, n_columns))
    y.sum_duplicates()
    return y


def _check_index_array(name, what, array, size=None):
    if not isinstance(array, np.ndarray) or array.ndim != 1 or array.dtype.kind not in "iu":
        raise ValueError(f"{name} is a malformed sparse array: its {what} must be a 1-D "
                         "integer array.")
    if size is not None and array.shape[0] != size:
        raise ValueError(f"{name} is a malformed sparse array: its {what} has "
                         f"{array.shape[0]} entries; {size} expected.")


def _check_in_range(name, what, array, bound):
    if array.size and (array.min() < 0 or array.max() >= bound):
        raise ValueError(f"{name} is a malformed sparse array: its {what} range over "
                         f"[{array.min()}, {array.max()}], outside [0, {bound}).")


def _check_compressed(name, indptr, indices, data, n_major, n_minor):
    """Structure of a CSR / CSC (or BSR, in blocks) array: raise ``ValueError`` if broken."""
    _check_index_array(name, "indptr", indptr, n_major + 1)
    _check_index_array(name, "indices", indices)
    nnz = indices.shape[0]
    if not isinstance(data, np.ndarray) or data.ndim < 1 or data.shape[0] != nnz:
        raise ValueError(f"{name} is a malformed sparse array: {nnz} indices but data of "
                         f"shape {np.shape(data)}.")
    if indptr[0] != 0 or indptr[-1] != nnz:
        raise ValueError(f"{name} is a malformed sparse array: its indptr runs from "
                         f"{indptr[0]} to {indptr[-1]}; 0 to nnz={nnz} expected.")
    if n_major and np.diff(indptr).min() < 0:
        raise ValueError(f"{name} is a malformed sparse array: its indptr decreases.")
    _check_in_range(name, "indices", indices, n_minor)


def _check_coordinates(name, row, col, data, n_rows, n_columns):
    """Structure of a COO array: raise ``ValueError`` if broken."""
    if not isinstance(data, np.ndarray) or data.ndim != 1:
        raise ValueError(f"{name} is a malformed sparse array: its data must be 1-D.")
    for what, index, bound in (("row indices", row, n_rows), ("column indices", col, n_columns)):
        _check_index_array(name, what, index, data.shape[0])
        _check_in_range(name, what, index, bound)


def csr_rows(matrix, rows):
    """A slice of rows of a CSR array whose arrays view ``matrix``'s (only the slice's index
    pointers are new), without scipy's row indexing; other formats and steps: indexed.

    The blocks of validated targets are only read (every kind computes new arrays from
    them), so they need no copy of their own."""
    if matrix.format != "csr" or rows.step not in (None, 1):
        return matrix[rows]
    start, stop, _ = rows.indices(matrix.shape[0])
    stop = max(start, stop)
    indptr = matrix.indptr[start:stop + 1]
    first, last = indptr[0], indptr[-1]
    return sp.csr_array((matrix.data[first:last], matrix.indices[first:last], indptr - first),
                        shape=(stop - start, matrix.shape[1]), copy=False)


def mass_block(y):
    """Rows of a mass array as floats: the small integers that validation keeps compact
    become float32 (exact for them); float blocks and sparse ones are returned as they are."""
    if isinstance(y, np.ndarray) and y.dtype.kind in "biu":
        return y.astype(np.float32)
    return y


def checked_row_sums(name, y, first_row=0):
    """Row sums of (a block of rows of) a 2-D mass array, rejecting bad values.

    NaN, infinite and negative entries raise ``ValueError`` naming ``name``
    and the row (counted from ``first_row``). A non-finite entry makes its row
    sum non-finite and a negative one the minimum negative, so a clean block
    costs one product and one minimum.
    """
    y = mass_block(y)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        if sp.issparse(y):
            sums, smallest = row_sums(y), y.data.min(initial=np.inf)
        elif y.dtype == np.float64:
            sums, smallest = y @ np.ones(y.shape[1]), y.min(initial=np.inf)
        else:  # float32 rows: a float32 product, summed again in float64 if it overflows
            sums = (y @ np.ones(y.shape[1], dtype=y.dtype)).astype(np.float64)
            if not np.isfinite(sums).all():
                sums = y.sum(axis=1, dtype=np.float64)
            smallest = y.min(initial=np.inf)
    if np.isfinite(sums).all() and smallest >= 0:
        return sums
    if sp.issparse(y):
        _raise_sparse_bad_value(name, sp.csr_array(y), first_row)
    finite = np.isfinite(y)
    if not finite.all():
        row = np.flatnonzero(~finite.all(axis=1))[0]
        _raise_not_finite(name, y[row][~finite[row]][0], first_row + row)
    if smallest < 0:
        _raise_negative(name, smallest, first_row + np.flatnonzero(y.min(axis=1) < 0)[0])
    _raise_overflow(name)


def _raise_sparse_bad_value(name, y, first_row):
    """:func:`checked_row_sums`' error for a CSR block, read from its structure alone."""
    data = y.data
    bad = np.flatnonzero(~np.isfinite(data))
    if bad.size:
        _raise_not_finite(name, data[bad[0]], first_row + _row_of(y, bad[0]))
    negative = np.flatnonzero(data < 0)
    if negative.size:
        _raise_negative(name, data.min(), first_row + _row_of(y, negative[0]))
    _raise_overflow(name)


def _raise_overflow(name):
    raise ValueError(f"{name} has rows whose total mass overflows float64; divide the masses "
                     "by a constant (the normalized transport matrix does not change).")


def _row_of(y, position):
    """Row of the stored entry at ``position`` of a CSR array."""
    return int(np.searchsorted(y.indptr, position, side="right") - 1)


def _raise_not_finite(name, value, row):
    raise ValueError(f"{name} contains {value} (first at row {row}); masses must be finite.")


def _raise_negative(name, smallest, row):
    raise ValueError(
        f"{name} has negative entries (min {smallest:g}, first at row {row}); binary "
        "indicators and soft labels must be non-negative."
    )


def _scanned_row_sums(name, y):
    """:func:`checked_row_sums` of a whole array, in chunks on all cores."""
    if sp.issparse(y):
        return checked_row_sums(name, y)
    parts = map_chunks(lambda rows: checked_row_sums(name, y[rows], rows.start),
                       y.shape[0], chunk_rows(8 * y.shape[1]))
    return np.concatenate(list(parts))
