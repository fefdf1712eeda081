# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Row kernels of probability matrices (issue 37), each one pass over memory.

- :func:`check_rows`: of a block of rows of a (n, n_classes) float32 or float64 array,
  in one read, each row's sum (float64) and the block's smallest entry and, where asked,
  each row's first column of largest value and that value: the checking pass of
  ``_core/probabilities._checked_rows`` (its NumPy reference) and the top labels;
- :func:`bin_sums`: each instance's bin and the per-bin sums of a curve (weights,
  confidences, outcomes; under weights also the positive counts, the squares and the
  sums of the units): the bincounts of ``_calibration/bins.binned``;
- :func:`value_histogram` and :func:`gather_keys`: the exact order statistics of values
  in [0, 1] (the quantile edges of equal-mass bins) by a histogram, without a sort.

The loops release the GIL, so that row chunks on threads (``_core/chunks.map_chunks``)
run on every core. The sums' rounding differs from NumPy's (pairwise, BLAS) in the last
bits; everything else is the same: the errors are raised by the NumPy reference, on the
same chunks, from what these kernels report.
"""

cimport cython
from libc.math cimport floor

ctypedef fused real:
    float
    double

cdef extern from *:
    """
    /* Sum, min and max of one contiguous row, vectorized by the compiler
       (-fopenmp-simd: the reductions' order is free; a NaN makes the sum NaN, refused by
       the caller whatever min and max hold). */
    static inline void row_stats_d(const double *x, Py_ssize_t n, double *s_out,
                                   double *lo_out, double *hi_out) {
        double s = 0.0, lo = x[0], hi = x[0];
        #pragma omp simd reduction(+:s) reduction(min:lo) reduction(max:hi)
        for (Py_ssize_t j = 0; j < n; j++) {
            double v = x[j];
            s += v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        *s_out = s; *lo_out = lo; *hi_out = hi;
    }
    static inline void row_stats_f(const float *x, Py_ssize_t n, double *s_out,
                                   double *lo_out, double *hi_out) {
        double s = 0.0;
        float lo = x[0], hi = x[0];
        if (n >= 32) {  /* two loops (the row in L1): float lanes for min and max, double
                           ones for the sum; one loop of both was measured 1.7x slower */
            #pragma omp simd reduction(+:s)
            for (Py_ssize_t j = 0; j < n; j++) s += (double)x[j];
            #pragma omp simd reduction(min:lo) reduction(max:hi)
            for (Py_ssize_t j = 0; j < n; j++) {
                float v = x[j];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            *s_out = s; *lo_out = (double)lo; *hi_out = (double)hi;
            return;
        }
        #pragma omp simd reduction(+:s) reduction(min:lo) reduction(max:hi)
        for (Py_ssize_t j = 0; j < n; j++) {
            float v = x[j];
            s += (double)v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        *s_out = s; *lo_out = (double)lo; *hi_out = (double)hi;
    }
    /* The first column holding the row's largest value hi (found by the pass above; the
       row is in L1 now): short rows scanned whole without a branch (a branch mispredicted
       once per row cost more), long ones until it is found (measured faster on x86-64's
       baseline SSE2 than vectorized block tests). */
    #define FIRST_OF(NAME, T)                                                        \
    static inline Py_ssize_t NAME(const T *x, Py_ssize_t n, double hi) {             \
        T h = (T)hi;                                                                 \
        Py_ssize_t j, k = 0;                                                         \
        if (n <= 16) {                                                               \
            for (j = n - 1; j >= 0; j--) k = x[j] == h ? j : k;                      \
            return k;                                                                \
        }                                                                            \
        for (j = 0; j < n; j++) if (x[j] == h) return j;                             \
        return 0;                                                                    \
    }
    FIRST_OF(first_of_d, double)
    FIRST_OF(first_of_f, float)
    /* Long rows (256 columns and more, where the read of memory dominates; below, the
       two passes above were measured faster): sum, min, max and the first column of the
       max in one pass, blocks of 16 reduced vectorized, each block's max compared with
       the row's so far (strictly: the first block that holds it), then that block
       scanned; the columns after the last whole block one by one. */
    #define ROW_TOP(NAME, T)                                                         \
    static inline void NAME(const T *x, Py_ssize_t n, double *s_out, double *lo_out, \
                            double *hi_out, Py_ssize_t *k_out) {                     \
        double s = 0.0;                                                              \
        T lo = x[0], hi = x[0];                                                      \
        Py_ssize_t n_blocks = n / 16, b, j, block = 0, k = -1;                       \
        for (b = 0; b < n_blocks; b++) {                                             \
            const T *y = x + 16 * b;                                                 \
            T m = y[0];                                                              \
            _Pragma("omp simd reduction(+:s) reduction(min:lo) reduction(max:m)")    \
            for (j = 0; j < 16; j++) {                                               \
                T v = y[j];                                                          \
                s += (double)v;                                                      \
                lo = v < lo ? v : lo;                                                \
                m = v > m ? v : m;                                                   \
            }                                                                        \
            if (m > hi) { hi = m; block = b; }                                       \
        }                                                                            \
        for (j = 16 * n_blocks; j < n; j++) {                                        \
            T v = x[j];                                                              \
            s += (double)v;                                                          \
            lo = v < lo ? v : lo;                                                    \
            if (v > hi) { hi = v; k = j; }                                           \
        }                                                                            \
        if (k < 0) {                                                                 \
            for (j = 16 * block; j < 16 * block + 16; j++)                           \
                if (x[j] == hi) { k = j; break; }                                    \
            if (k < 0) k = 0;                                                        \
        }                                                                            \
        *s_out = s; *lo_out = (double)lo; *hi_out = (double)hi; *k_out = k;          \
    }
    ROW_TOP(row_top_d, double)
    ROW_TOP(row_top_f, float)
    """
    void row_stats_d(const double *x, Py_ssize_t n, double *s, double *lo,
                     double *hi) noexcept nogil
    void row_stats_f(const float *x, Py_ssize_t n, double *s, double *lo,
                     double *hi) noexcept nogil
    Py_ssize_t first_of_d(const double *x, Py_ssize_t n, double hi) noexcept nogil
    Py_ssize_t first_of_f(const float *x, Py_ssize_t n, double hi) noexcept nogil
    void row_top_d(const double *x, Py_ssize_t n, double *s, double *lo, double *hi,
                   Py_ssize_t *k) noexcept nogil
    void row_top_f(const float *x, Py_ssize_t n, double *s, double *lo, double *hi,
                   Py_ssize_t *k) noexcept nogil


cdef inline void _row(const real *x, Py_ssize_t n, double *s, double *lo,
                      double *hi) noexcept nogil:
    if real is double:
        row_stats_d(x, n, s, lo, hi)
    else:
        row_stats_f(x, n, s, lo, hi)


cdef inline void _row_top(const real *x, Py_ssize_t n, double *s, double *lo, double *hi,
                          Py_ssize_t *k) noexcept nogil:
    if real is double:
        row_top_d(x, n, s, lo, hi, k)
    else:
        row_top_f(x, n, s, lo, hi, k)


cdef inline Py_ssize_t _first(const real *x, Py_ssize_t n, double hi) noexcept nogil:
    if real is double:
        return first_of_d(x, n, hi)
    else:
        return first_of_f(x, n, hi)


def check_rows(const real[:, :] block, double[::1] sums, Py_ssize_t[::1] predicted=None,
               double[::1] largest=None):
    """The smallest entry of ``block`` (a 2-D float32 or float64 array of at least one
    column, any strides), each row's sum written into ``sums`` and, where ``predicted``
    and ``largest`` are given, each row's first column of largest value and that value.

    Row-contiguous blocks are read row by row (vectorized); column-contiguous ones
    (a chunk of an F-ordered array) column by column, each row's running sum, largest
    value and its first column kept; any other strides row by row, element by element.
    A NaN in a row makes its sum NaN (the caller refuses it); the smallest entry and the
    top label of such a row are then unspecified."""
    cdef Py_ssize_t n_rows = block.shape[0], n_cols = block.shape[1], i, j
    cdef bint top = predicted is not None
    cdef double s, lo, hi, low = 0.0, v
    cdef Py_ssize_t k
    if n_rows == 0:
        return 0.0
    if sums.shape[0] != n_rows or (top and (predicted.shape[0] != n_rows
                                            or largest.shape[0] != n_rows)):
        raise ValueError("the outputs must have one entry per row of the block")
    if n_cols == 0:
        raise ValueError("the block must have at least one column")
    low = block[0, 0]
    with nogil:
        if block.strides[1] == sizeof(real):  # row-contiguous
            for i in range(n_rows):
                if top and n_cols >= 256:
                    _row_top(&block[i, 0], n_cols, &s, &lo, &hi, &k)
                else:
                    _row(&block[i, 0], n_cols, &s, &lo, &hi)
                    if top:
                        k = _first(&block[i, 0], n_cols, hi)
                sums[i] = s
                if lo < low:
                    low = lo
                if top:
                    largest[i] = hi
                    predicted[i] = k
        elif block.strides[0] == sizeof(real):  # column-contiguous: column by column
            for i in range(n_rows):
                v = block[i, 0]
                sums[i] = v
                if v < low:
                    low = v
                if top:
                    largest[i] = v
                    predicted[i] = 0
            for j in range(1, n_cols):
                for i in range(n_rows):
                    v = block[i, j]
                    sums[i] += v
                    if v < low:
                        low = v
                    if top and v > largest[i]:
                        largest[i] = v
                        predicted[i] = j
        else:
            for i in range(n_rows):
                s = 0.0
                hi = block[i, 0]
                k = 0
                for j in range(n_cols):
                    v = block[i, j]
                    s += v
                    if v < low:
                        low = v
                    if v > hi:
                        hi = v
                        k = j
                sums[i] = s
                if top:
                    largest[i] = hi
                    predicted[i] = k
    return low


def bin_sums(const double[::1] confidence, const unsigned char[::1] outcome,
             const double[::1] units, const double[::1] weight_of, const double[::1] inner,
             bint uniform, const Py_ssize_t[::1] start, Py_ssize_t[::1] ids, double[::1] weight, double[::1] conf,
             double[::1] out, double[::1] count, double[::1] squares,
             double[::1] unit_sums):
    """Each instance's bin into ``ids`` and the per-bin sums, in instance order (the
    order, and so the rounding, of ``np.bincount``).

    ``inner``: the inner edges (``n_bins - 1``); an instance's bin is
    ``np.searchsorted(inner, p)`` (the number of inner edges below it), computed for
    equal-width bins (``uniform``) as ``floor(n_bins * p)`` corrected by one where the
    edges disagree, as ``bins.bin_ids`` does; else from ``start[key]``, the inner edges
    below ``key / n_keys`` (``key`` of :func:`value_histogram`, ``n_keys`` the length of
    ``start``), counting the edges below ``p`` from there (none or few: no search with a
    branch mispredicted per instance). Without weights (``units`` empty):
    ``weight`` (= ``count``) the instances, ``out`` those of outcome 1, ``conf`` the
    sums of ``p``. With weights ``weight_of`` and their ``units`` (the weights over the
    largest): ``weight``, ``count`` (of positive weight), ``conf`` (units * p), ``out``
    (units of outcome 1), ``squares`` (units ** 2) and ``unit_sums``."""
    cdef Py_ssize_t n = confidence.shape[0], n_bins = weight.shape[0], i, b, lo
    cdef Py_ssize_t n_keys = start.shape[0]
    cdef bint weighted = units.shape[0] > 0
    cdef double p, u, w, scaled
    if n_bins < 1 or inner.shape[0] != n_bins - 1 or ids.shape[0] != n \
            or outcome.shape[0] != n or (not uniform and n_keys == 0) or (weighted and (units.shape[0] != n
                                                       or weight_of.shape[0] != n)):
        raise ValueError("inconsistent lengths")
    with nogil:
        for i in range(n):
            p = confidence[i]
            if n_bins == 1:
                b = 0
            elif uniform:
                scaled = p * n_bins
                # NumPy's float -> intp cast truncates toward zero (p >= 0 here), then
                # clips (NaN, refused before, to the first bin)
                if not scaled >= 0:
                    b = 0
                elif scaled >= n_bins:
                    b = n_bins - 1
                else:
                    b = <Py_ssize_t>scaled
                # the edge below (-inf for the first bin) at or above p: one bin down;
                # the edge above (+inf for the last) below p: one bin up (both read at b)
                lo = b
                if b > 0 and inner[b - 1] >= p:
                    lo = b - 1
                if b < n_bins - 1 and inner[b] < p:
                    lo = lo + 1
                b = lo
            else:  # np.searchsorted(inner, p, side="left")
                b = start[_key(p, n_keys)]
                while b < n_bins - 1 and inner[b] < p:
                    b += 1
            ids[i] = b
            if weighted:
                u = units[i]
                w = weight_of[i]
                weight[b] += w
                count[b] += 1.0 if w > 0 else 0.0
                conf[b] += u * p
                out[b] += u if outcome[i] else 0.0
                squares[b] += u * u
                unit_sums[b] += u
            else:
                weight[b] += 1.0
                conf[b] += p
                out[b] += outcome[i]
    if not weighted:
        count[:] = weight


def value_histogram(const double[::1] values, long long[::1] counts):
    """The counts of ``values`` (in [0, 1]; others clipped) in ``counts.shape[0]``
    equal-width keys, ``floor(p * n_keys)``: monotone in ``p``."""
    cdef Py_ssize_t n = values.shape[0], n_keys = counts.shape[0], i
    with nogil:
        for i in range(n):
            counts[_key(values[i], n_keys)] += 1


cdef inline Py_ssize_t _key(double p, Py_ssize_t n_keys) noexcept nogil:
    cdef double scaled = p * n_keys
    if scaled < 0 or scaled != scaled:
        return 0
    if scaled >= n_keys:
        return n_keys - 1
    return <Py_ssize_t>scaled


def gather_keys(const double[::1] values, const unsigned char[::1] wanted,
                double[::1] out):
    """The values whose key (:func:`value_histogram`) is ``wanted``, in order, into
    ``out``; their number."""
    cdef Py_ssize_t n = values.shape[0], n_keys = wanted.shape[0], i, m = 0
    cdef Py_ssize_t size = out.shape[0]
    with nogil:
        for i in range(n):
            if wanted[_key(values[i], n_keys)]:
                if m < size:
                    out[m] = values[i]
                m += 1
    return m
