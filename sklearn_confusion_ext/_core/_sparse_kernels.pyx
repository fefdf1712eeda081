# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""Compiled kernel of the transport plans of two CSR arrays (the TCM and its SCM bounds).

The NumPy reference (``_matrices/transport.py``: ``_plan_block`` and ``_bounds_block``
over the rows of a chunk) builds the common mass, the deficits and the excesses as new CSR
arrays, with scipy routines that each hold the GIL; this kernel merges each row's two
sorted index lists once and adds the row's plan to dense sums, without the GIL, so the
threads of :func:`~.chunks.sum_over_chunks` run it side by side. Each value is computed as
the reference computes it (the rows divided by their norms as :func:`~.arrays.divided_rows`
does, the deficit's scale as ``_plan_scale``); only the order of the sums differs. It is
tested equal to the reference in ``tests/_core/test_sparse_kernels.py``; :mod:`.kernels` says
which path runs.
"""

from libc.float cimport DBL_MIN
from libc.stdlib cimport free, malloc

ctypedef fused true_index:
    int
    long long

ctypedef fused pred_index:
    int
    long long

ctypedef fused index_type:
    int
    long long


def sparse_plan_sums(const true_index[::1] true_indptr, const true_index[::1] true_indices,
                     const double[::1] true_data, const pred_index[::1] pred_indptr,
                     const pred_index[::1] pred_indices, const double[::1] pred_data,
                     Py_ssize_t start, Py_ssize_t stop, const double[::1] true_norm,
                     const double[::1] pred_norm, const double[::1] weights,
                     double deficit_tolerance, bint bounds, double[::1] diagonal,
                     double[:, ::1] first, double[:, ::1] second, double[::1] none_row,
                     double[::1] none_column, double[::1] corner):
    """Add the weighted plans of rows ``start:stop`` of two CSR arrays to the sums, up to
    the first row that is not canonical; return that row (``stop`` where every row was).

    A row is summed where each side's column indices are strictly increasing and lie in
    ``[0, n_classes)`` and its index pointers lie within its arrays (validation makes every
    sparse target so); the first other row stops the pass, and the rows before it are
    summed (the caller sums the rest by the NumPy reference).

    Row ``n``'s masses are its stored values over its norm (``true_norm[n]``,
    ``pred_norm[n]``, the validated row sums), its weight ``weights[n - start]``. A row
    with both sides empty adds its weight to ``corner[0]``; with only ``y_true`` empty, its
    normalized prediction to ``none_row``; with only ``y_pred`` empty, its normalized label
    to ``none_column``. Other rows add their common mass ``min(u, v)`` to ``diagonal`` and,
    where their deficit mass ``s`` exceeds ``deficit_tolerance``, each pair of a deficit
    ``d_i`` and an excess ``e_j`` to cell ``(i, j)``: ``d_i * (w / s) * e_j`` to ``first``
    (the plan, equation 8; ``bounds`` false), or the Frechet bounds ``w * max(d_i + e_j -
    s, 0)`` to ``first`` and ``w * min(d_i, e_j)`` to ``second`` (``bounds`` true, rows of
    positive weight). Every sum is weighted by the row's weight; rows of weight zero add
    nothing.
    """
    cdef Py_ssize_t n_classes = diagonal.shape[0], first_left
    if not (0 <= start <= stop < true_indptr.shape[0] and stop < pred_indptr.shape[0]
            and stop <= true_norm.shape[0] and stop <= pred_norm.shape[0]
            and weights.shape[0] == stop - start and corner.shape[0] == 1
            and true_data.shape[0] == true_indices.shape[0]
            and pred_data.shape[0] == pred_indices.shape[0]
            and first.shape[0] == first.shape[1] == n_classes
            and none_row.shape[0] == none_column.shape[0] == n_classes
            and (not bounds or second.shape[0] == second.shape[1] == n_classes)):
        raise ValueError("sparse_plan_sums: arrays of inconsistent shapes.")
    cdef Py_ssize_t *deficit_at = <Py_ssize_t *> malloc(n_classes * sizeof(Py_ssize_t))
    cdef Py_ssize_t *excess_at = <Py_ssize_t *> malloc(n_classes * sizeof(Py_ssize_t))
    cdef double *deficits = <double *> malloc(n_classes * sizeof(double))
    cdef double *excesses = <double *> malloc(n_classes * sizeof(double))
    if not (deficit_at and excess_at and deficits and excesses):
        free(deficit_at)
        free(excess_at)
        free(deficits)
        free(excesses)
        raise MemoryError()
    try:
        with nogil:
            first_left = _sparse_plan_sums(
                true_indptr, true_indices, true_data, pred_indptr, pred_indices, pred_data,
                start, stop, true_norm, pred_norm, weights, deficit_tolerance, bounds,
                diagonal, first, second, none_row, none_column, corner, deficit_at,
                excess_at, deficits, excesses)
    finally:
        free(deficit_at)
        free(excess_at)
        free(deficits)
        free(excesses)
    return first_left


cdef inline bint _canonical_row(const index_type[::1] indices, Py_ssize_t begin,
                                Py_ssize_t end, Py_ssize_t size,
                                Py_ssize_t n_classes) noexcept nogil:
    """Whether ``indices[begin:end]`` is a row of a canonical CSR array of ``size`` entries
    and ``n_classes`` columns: within the array, strictly increasing, in range."""
    cdef Py_ssize_t k
    if not 0 <= begin <= end <= size:
        return False
    for k in range(begin, end):
        if indices[k] < 0 or indices[k] >= n_classes or \
                (k > begin and indices[k] <= indices[k - 1]):
            return False
    return True


cdef inline double _normalized(double value, double norm, double inverse) noexcept nogil:
    """``value / norm`` as :func:`~.arrays.divided_rows` computes it: times the reciprocal,
    except below the smallest normal norm (whose reciprocal overflows): divided."""
    if norm < DBL_MIN:
        return value / norm
    return value * inverse


cdef Py_ssize_t _sparse_plan_sums(
        const true_index[::1] true_indptr, const true_index[::1] true_indices,
        const double[::1] true_data, const pred_index[::1] pred_indptr,
        const pred_index[::1] pred_indices, const double[::1] pred_data, Py_ssize_t start,
        Py_ssize_t stop, const double[::1] true_norm, const double[::1] pred_norm,
        const double[::1] weights, double deficit_tolerance, bint bounds,
        double[::1] diagonal, double[:, ::1] first, double[:, ::1] second,
        double[::1] none_row, double[::1] none_column, double[::1] corner,
        Py_ssize_t *deficit_at, Py_ssize_t *excess_at, double *deficits,
        double *excesses) noexcept nogil:
    cdef Py_ssize_t n, a, a_end, b, b_end, j, k, l, n_deficits, n_excesses
    cdef Py_ssize_t n_classes = diagonal.shape[0]
    cdef Py_ssize_t true_size = true_indices.shape[0], pred_size = pred_indices.shape[0]
    cdef double weight, t_norm, p_norm, t_inverse, p_inverse, u, v, common, deficit
    cdef double excess, deficit_mass, scale, scaled, low
    cdef double *row
    cdef double *upper_row
    for n in range(start, stop):
        a, a_end = true_indptr[n], true_indptr[n + 1]
        b, b_end = pred_indptr[n], pred_indptr[n + 1]
        if not (_canonical_row(true_indices, a, a_end, true_size, n_classes)
                and _canonical_row(pred_indices, b, b_end, pred_size, n_classes)):
            return n
        weight = weights[n - start]
        if weight == 0:
            continue
        t_norm, p_norm = true_norm[n], pred_norm[n]
        t_inverse = 1.0 / t_norm if t_norm >= DBL_MIN else 1.0
        p_inverse = 1.0 / p_norm if p_norm >= DBL_MIN else 1.0
        if t_norm == 0 or p_norm == 0:  # the "none" class (an empty side is unit mass there)
            if t_norm == 0 and p_norm == 0:
                corner[0] += weight
            elif t_norm == 0:
                for k in range(b, b_end):
                    none_row[pred_indices[k]] += \
                        _normalized(pred_data[k], p_norm, p_inverse) * weight
            else:
                for k in range(a, a_end):
                    none_column[true_indices[k]] += \
                        _normalized(true_data[k], t_norm, t_inverse) * weight
            continue
        # One merge of the two sorted index lists: the common mass, deficits and excesses.
        n_deficits = n_excesses = 0
        deficit_mass = 0.0
        while a < a_end or b < b_end:
            if b == b_end or (a < a_end and true_indices[a] < pred_indices[b]):
                u = _normalized(true_data[a], t_norm, t_inverse)
                deficit_mass += u
                if u > 0:
                    deficit_at[n_deficits], deficits[n_deficits] = true_indices[a], u
                    n_deficits += 1
                a += 1
            elif a == a_end or pred_indices[b] < true_indices[a]:
                v = _normalized(pred_data[b], p_norm, p_inverse)
                if v > 0:
                    excess_at[n_excesses], excesses[n_excesses] = pred_indices[b], v
                    n_excesses += 1
                b += 1
            else:
                u = _normalized(true_data[a], t_norm, t_inverse)
                v = _normalized(pred_data[b], p_norm, p_inverse)
                common = u if u < v else v
                diagonal[true_indices[a]] += common * weight
                deficit, excess = u - common, v - common
                deficit_mass += deficit
                if deficit > 0:
                    deficit_at[n_deficits], deficits[n_deficits] = true_indices[a], deficit
                    n_deficits += 1
                if excess > 0:
                    excess_at[n_excesses], excesses[n_excesses] = pred_indices[b], excess
                    n_excesses += 1
                a += 1
                b += 1
        if not deficit_mass > deficit_tolerance:  # a proportional instance: its diagonal
            continue
        if not bounds:
            scale = weight / deficit_mass
            for k in range(n_deficits):
                row = &first[deficit_at[k], 0]
                scaled = deficits[k] * scale
                for l in range(n_excesses):
                    row[excess_at[l]] += scaled * excesses[l]
        elif weight > 0:
            for k in range(n_deficits):
                row, upper_row = &first[deficit_at[k], 0], &second[deficit_at[k], 0]
                deficit = deficits[k]
                for l in range(n_excesses):
                    j, excess = excess_at[l], excesses[l]
                    low = deficit + excess - deficit_mass
                    if low > 0:
                        row[j] += weight * low
                    upper_row[j] += weight * (deficit if deficit < excess else excess)
    return stop
