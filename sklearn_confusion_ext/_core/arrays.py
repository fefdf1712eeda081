"""Row operations that work alike on dense ndarrays, scipy.sparse CSR arrays and the
arrays of other libraries implementing the array API standard (PyTorch, CuPy, ...).

NumPy and scipy.sparse take their fastest NumPy route; any other array is computed
with its own namespace (through ``array-api-compat``), on its own device.
"""

import numpy as np
import scipy.sparse as sp


def namespace(array):
    """``numpy`` for NumPy and scipy.sparse arrays, else the array's array-API namespace."""
    if isinstance(array, np.ndarray) or sp.issparse(array) or np.isscalar(array):
        return np
    import array_api_compat

    return array_api_compat.array_namespace(array)


def scale_rows(matrix, scale):
    """Multiply each row of a dense or CSR array by ``scale``, in place; sparse stays sparse."""
    if sp.issparse(matrix):
        matrix.data *= np.repeat(scale, np.diff(matrix.indptr))
    else:
        matrix *= in_dtype_of(matrix, scale)[:, None]
    return matrix


# Instance weights that float32 blocks take as float32 scales: beside normalized masses, and
# divided by the smallest deficits a plan keeps (1e-12), they stay normal float32 numbers.
FLOAT32_WEIGHTS = (1e-30, 1e26)


def float64_for_weights(weights, *blocks):
    """``blocks``, as float64 where they are float32 NumPy arrays and a positive weight lies
    outside ``FLOAT32_WEIGHTS`` (as a float32 scale it would underflow to zero or overflow);
    else as they are."""
    single = [isinstance(block, np.ndarray) and block.dtype == np.float32 for block in blocks]
    if not any(single) or not isinstance(weights, np.ndarray) or not weights.size:
        return blocks
    low, high = FLOAT32_WEIGHTS
    if np.min(weights, where=weights > 0, initial=low) >= low and weights.max() <= high:
        return blocks
    return tuple(block.astype(np.float64) if is_single else block
                 for block, is_single in zip(blocks, single))


def in_dtype_of(matrix, scale):
    """``scale`` in the dtype of a float32 NumPy ``matrix`` (a mixed product is slower)."""
    if isinstance(matrix, np.ndarray) and matrix.dtype == np.float32:
        return np.asarray(scale, dtype=np.float32)
    return scale


def scaled_rows(matrix, scale):
    """A copy of ``matrix`` with each row multiplied by ``scale``."""
    if sp.issparse(matrix):
        return scale_rows(matrix.copy(), scale)
    return matrix * scale[:, None]


def divided_rows(matrix, norms, out=None):
    """Each row divided by its norm (zero rows stay zero); ``out``: a NumPy array to fill.

    One reciprocal per row and a multiplication, except for rows whose norm is so small
    (subnormal) that its reciprocal overflows: those are divided exactly.
    """
    xp = namespace(norms)
    # Below the smallest normal number of the rows' type, a reciprocal overflows (the masses
    # of other array libraries are float64).
    single = isinstance(matrix, np.ndarray) and matrix.dtype == np.float32
    smallest = np.finfo(np.float32 if single else np.float64).tiny
    tiny = (norms > 0) & (norms < float(smallest))
    with np.errstate(over="ignore"):
        inverse = safe_divide(1.0, xp.where(tiny, xp.ones_like(norms), norms))
    if sp.issparse(matrix):
        result = scale_rows(matrix.copy(), inverse)
        if tiny.any():
            rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
            exact = tiny[rows]
            result.data[exact] = matrix.data[exact] / norms[rows[exact]]
        return result
    if xp is np:
        result = np.multiply(matrix, in_dtype_of(matrix, inverse)[:, None], out=out)
        if tiny.any():
            result[tiny] = matrix[tiny] / norms[tiny, None]
        return result
    result = matrix * inverse[:, None]
    if any_true(tiny):
        safe_norms = xp.where(tiny, norms, xp.ones_like(norms))
        result = xp.where(tiny[:, None], matrix / safe_norms[:, None], result)
    return result


def weighted_sum(matrix, weights):
    """``sum_n weights[n] * matrix[n]``, a dense vector."""
    total = matrix.T @ weights
    return np.asarray(total).ravel() if namespace(weights) is np else total


def row_sums(matrix):
    """Row sums (float64 for NumPy: float32 rows are summed by a float32 product, never
    converted whole, and their sums returned as float64)."""
    if sp.issparse(matrix):
        return np.asarray(matrix.sum(axis=1)).ravel()
    if isinstance(matrix, np.ndarray):
        ones = np.ones(matrix.shape[1],
                       dtype=np.float32 if matrix.dtype == np.float32 else np.float64)
        return (matrix @ ones).astype(np.float64, copy=False)
    return namespace(matrix).sum(matrix, axis=1)


def multiply(a, b):
    """Element-wise product, sparse when either side is."""
    return a.multiply(b) if sp.issparse(a) else a * b


def dense(matrix):
    return matrix.toarray() if sp.issparse(matrix) else matrix


def as_float(array):
    """``array`` (booleans, integers) as float64, in its own namespace."""
    xp = namespace(array)
    if xp is np:
        return np.asarray(array, dtype=np.float64)
    return xp.astype(array, xp.float64)


def safe_divide(numerator, denominator):
    """``numerator / denominator`` where the denominator is positive, else 0.

    ``numerator`` is a number or an array (booleans count as 0/1) shaped like
    ``denominator``.
    """
    xp = namespace(denominator)
    positive = denominator > 0
    if xp is np:  # the ufunc broadcasts a number and reads booleans as 0/1
        return np.divide(numerator, denominator, out=np.zeros(np.shape(denominator)),
                         where=positive)
    # Arrays, not Python scalars, in where(): older versions of the standard take no scalars.
    one, zero = xp.ones_like(denominator), xp.zeros_like(denominator)
    numerator = one * numerator if isinstance(numerator, (int, float)) else as_float(numerator)
    return xp.where(positive, numerator / xp.where(positive, denominator, one), zero)


def masked_sum(values, mask):
    """The sum of ``values`` where ``mask`` holds, as a 0-d array."""
    xp = namespace(values)
    if xp is np:
        return np.asarray(values[mask].sum())
    return xp.sum(values * as_float(mask))


def minimum(a, b, out=None):
    """Element-wise minimum (``out``: a NumPy array to write it to)."""
    xp = namespace(a)
    if xp is np:
        return np.minimum(a, b, out=out)
    return xp.where(a < b, a, b)  # minimum() is in the standard from its 2023.12 version


def positive_part(array):
    """``max(array, 0)``, element-wise."""
    xp = namespace(array)
    if xp is np:
        return np.maximum(array, 0)
    return array * as_float(array > 0)


def count_true(mask):
    """The number of true entries of a boolean vector, as a 0-d array."""
    xp = namespace(mask)
    if xp is np:
        return np.asarray(np.count_nonzero(mask))
    return xp.sum(xp.astype(mask, xp.int64))


def any_true(mask):
    """Whether a boolean array holds a true entry (a Python bool)."""
    if isinstance(mask, np.ndarray):
        return bool(mask.any())
    return bool(namespace(mask).any(mask))


def ones_like(vector):
    return namespace(vector).ones_like(vector)


def zeros_like(vector):
    return namespace(vector).zeros_like(vector)


def to_numpy(array):
    """A NumPy copy of an array from any namespace or device (NumPy arrays unchanged)."""
    if isinstance(array, np.ndarray):
        return array
    import array_api_compat

    if array_api_compat.is_cupy_array(array):
        return array.get()
    if array_api_compat.is_torch_array(array):
        return array.detach().cpu().numpy()
    if array.dtype == namespace(array).bool:  # NumPy before 1.25 reads no DLPack booleans
        xp = namespace(array)
        return np.from_dlpack(xp.astype(array, xp.uint8)).astype(bool)
    return np.from_dlpack(array)  # CPU arrays of any other library


def zero_diagonal(matrix):
    """``matrix`` (square) with a zero diagonal; NumPy arrays are changed in place."""
    if isinstance(matrix, np.ndarray):
        np.fill_diagonal(matrix, 0)
        return matrix
    import array_api_compat

    xp = namespace(matrix)
    off = 1 - xp.eye(matrix.shape[0], dtype=matrix.dtype, device=array_api_compat.device(matrix))
    return matrix * off
