# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""Compiled kernels: one pass over memory where NumPy needs several.

Each kernel has a reference in NumPy that it is tested equal to (``tests/test_kernels.py``);
:mod:`.kernels` says which path runs. The kernels release the GIL, so the threads of
:func:`~.chunks.sum_over_chunks` run them side by side.
"""

from libc.math cimport isfinite

ctypedef fused floating:
    float
    double

ctypedef fused code_type:
    int
    long long


def sum_rows_by_class(const floating[:, ::1] scores, const code_type[::1] codes,
                      Py_ssize_t start, Py_ssize_t stop, const double[::1] multipliers,
                      bint by_norm, double norm_limit, double smallest, double largest,
                      double[:, ::1] out, double[::1] norms):
    """Add each row ``i`` of ``scores[start:stop]``, times ``w_i / s_i``, to row
    ``codes[i]`` of ``out``, where ``s_i`` is the row's sum and the weight ``w_i`` is
    ``multipliers[i]`` (1 where ``multipliers`` is empty), times ``s_i`` where ``by_norm``.

    The row's checks are part of the same pass: a row is summed only where its values are
    finite and non-negative, its sum lies in ``[1 / norm_limit, norm_limit]`` and its weight
    is zero or in ``[smallest, largest]``. The first row that fails stops the pass: its
    index is returned (``stop`` where every row passed), and the rows before it are summed.
    ``norms[i - start]`` receives each summed row's sum (the probability check). Sums are
    taken in the rows' type with eight accumulators; ``out`` in float64.
    """
    cdef Py_ssize_t first_failed
    with nogil:
        first_failed = _sum_rows_by_class(scores, codes, start, stop, multipliers, by_norm,
                                          norm_limit, smallest, largest, out, norms)
    return first_failed


cdef Py_ssize_t _sum_rows_by_class(
        const floating[:, ::1] scores, const code_type[::1] codes, Py_ssize_t start,
        Py_ssize_t stop, const double[::1] multipliers, bint by_norm, double norm_limit,
        double smallest, double largest, double[:, ::1] out, double[::1] norms) noexcept nogil:
    cdef Py_ssize_t n_columns = scores.shape[1], i, j, k
    cdef Py_ssize_t n_wide = n_columns - n_columns % 8
    cdef bint weighted = multipliers.shape[0] > 0
    cdef double norm, weight, scale, low = 1.0 / norm_limit
    # Eight independent sums and minima of a row (the compiler packs them into vectors);
    # the sums in the rows' type, as NumPy's row sums (an overflow fails the check).
    cdef floating sums[8]
    cdef floating smallest_value[8]
    cdef floating value
    cdef const floating *row
    cdef double *target
    for i in range(start, stop):
        row = &scores[i, 0]
        for k in range(8):
            sums[k] = 0
            smallest_value[k] = 0
        for j in range(0, n_wide, 8):
            for k in range(8):
                value = row[j + k]
                sums[k] += value
                smallest_value[k] = value if value < smallest_value[k] else smallest_value[k]
        for j in range(n_wide, n_columns):
            value = row[j]
            sums[0] += value
            smallest_value[0] = value if value < smallest_value[0] else smallest_value[0]
        norm = (((<double>sums[0] + sums[1]) + (sums[2] + sums[3]))
                + ((sums[4] + sums[5]) + (sums[6] + sums[7])))
        for k in range(1, 8):
            smallest_value[0] = (smallest_value[k] if smallest_value[k] < smallest_value[0]
                                 else smallest_value[0])
        # A NaN or an infinity makes the sum non-finite; a negative value the minimum.
        if smallest_value[0] < 0 or not isfinite(norm) or not (low <= norm <= norm_limit):
            return i
        weight = multipliers[i] if weighted else 1.0
        if by_norm:
            weight = weight * norm
        if not (weight == 0 or smallest <= weight <= largest):  # NaN fails too
            return i
        norms[i - start] = norm
        scale = weight / norm
        target = &out[codes[i], 0]
        for j in range(n_columns):
            target[j] += scale * row[j]
    return stop
