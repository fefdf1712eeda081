"""Row operations that work alike on dense ndarrays and scipy.sparse CSR arrays."""

import numpy as np
import scipy.sparse as sp


def scale_rows(matrix, scale):
    """Multiply each row of a dense or CSR array by ``scale``, in place; sparse stays sparse."""
    if sp.issparse(matrix):
        matrix.data *= np.repeat(scale, np.diff(matrix.indptr))
    else:
        matrix *= scale[:, None]
    return matrix


def scaled_rows(matrix, scale):
    """A copy of ``matrix`` with each row multiplied by ``scale``."""
    if sp.issparse(matrix):
        return scale_rows(matrix.copy(), scale)
    return matrix * scale[:, None]


def weighted_sum(matrix, weights):
    """``sum_n weights[n] * matrix[n]``, a dense vector."""
    return np.asarray(matrix.T @ weights).ravel()


def row_sums(matrix):
    if sp.issparse(matrix):
        return np.asarray(matrix.sum(axis=1)).ravel()
    return matrix @ np.ones(matrix.shape[1])


def multiply(a, b):
    """Element-wise product, sparse when either side is."""
    return a.multiply(b) if sp.issparse(a) else a * b


def dense(matrix):
    return matrix.toarray() if sp.issparse(matrix) else matrix
