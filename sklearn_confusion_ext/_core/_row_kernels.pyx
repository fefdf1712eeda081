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

The loops release the GIL. The checking pass runs its chunks on the calling thread
(``_core/probabilities._checked_rows``): it is bound by the read of memory, where threads
were measured to cost CPU time without saving wall time. The sums' rounding differs from NumPy's (pairwise, BLAS) in the last
bits; everything else is the same: the errors are raised by the NumPy reference, on the
same chunks, from what these kernels report.
"""

cimport cython
import numpy as np
from libc.math cimport floor
from libc.string cimport memcpy

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

    /* Rows of 8 columns and more (float64; 16, float32): sum, min, max and the first
       column of the max in one pass without a branch per element nor per row, in
       vectors of 32 bytes (GCC's and Clang's vector types, lowered to SSE2 on the
       baseline x86-64 and to AVX2 in the copy chosen at import): two accumulators of 4
       float64 lanes (8 float32 lanes), each lane keeping its largest value and the first
       column it was seen in (a strict comparison: a later equal value never replaces
       it), the lanes then reduced (the largest value, and among the lanes holding it the
       smallest column: the first one, as argmax), the columns after the last whole
       block one by one. The first-column scan above cost a mispredicted branch per
       row, half the time of the pass at 100 columns. */
    #if defined(__GNUC__)
    #define RK_VECTORS 1
    #define RK_BODY static inline __attribute__((always_inline))
    typedef double rk_v4d __attribute__((vector_size(32)));
    typedef long long rk_v4l __attribute__((vector_size(32)));
    typedef float rk_v8f __attribute__((vector_size(32)));
    typedef int rk_v8i __attribute__((vector_size(32)));
    typedef float rk_v4f __attribute__((vector_size(16)));
    #else
    #define RK_BODY static inline
    #endif
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(_WIN32)
    #define RK_X86_DISPATCH 1
    #endif

    #ifdef RK_VECTORS
    /* m ? b : a, lane by lane (m: all ones or all zeros) */
    RK_BODY rk_v4d rk_sel_d(rk_v4d a, rk_v4d b, rk_v4l m) {
        return (rk_v4d)(((rk_v4l)a & ~m) | ((rk_v4l)b & m));
    }
    RK_BODY rk_v4l rk_sel_l(rk_v4l a, rk_v4l b, rk_v4l m) { return (a & ~m) | (b & m); }
    RK_BODY rk_v8f rk_sel_f(rk_v8f a, rk_v8f b, rk_v8i m) {
        return (rk_v8f)(((rk_v8i)a & ~m) | ((rk_v8i)b & m));
    }
    RK_BODY rk_v8i rk_sel_i(rk_v8i a, rk_v8i b, rk_v8i m) { return (a & ~m) | (b & m); }

    RK_BODY void rk_top_vd(const double *x, Py_ssize_t n, double *s_out, double *lo_out,
                           double *hi_out, Py_ssize_t *k_out) {  /* n >= 8 */
        rk_v4d a, b, s0, s1, lo0, lo1, hi0, hi1, top;
        rk_v4l k0 = {0, 1, 2, 3}, k1 = {4, 5, 6, 7}, j0 = k0, j1 = k1, m, c0, c1;
        const rk_v4l eight = {8, 8, 8, 8}, none = {n, n, n, n};
        Py_ssize_t j, last = n - n % 8, l, k;
        double sl[4], lol[4], hil[4], s, lo, hi, v;
        long long kl[4];
        memcpy(&s0, x, 32); memcpy(&s1, x + 4, 32);
        lo0 = hi0 = s0; lo1 = hi1 = s1;
        for (j = 8; j < last; j += 8) {
            memcpy(&a, x + j, 32); memcpy(&b, x + j + 4, 32);
            j0 += eight; j1 += eight;
            s0 += a; s1 += b;
            lo0 = rk_sel_d(lo0, a, a < lo0); lo1 = rk_sel_d(lo1, b, b < lo1);
            m = a > hi0; hi0 = rk_sel_d(hi0, a, m); k0 = rk_sel_l(k0, j0, m);
            m = b > hi1; hi1 = rk_sel_d(hi1, b, m); k1 = rk_sel_l(k1, j1, m);
        }
        s0 += s1;
        lo0 = rk_sel_d(lo0, lo1, lo1 < lo0);
        top = rk_sel_d(hi0, hi1, hi1 > hi0);
        memcpy(sl, &s0, 32); memcpy(lol, &lo0, 32); memcpy(hil, &top, 32);
        s = (sl[0] + sl[1]) + (sl[2] + sl[3]);
        lo = lol[0]; hi = hil[0];
        for (l = 1; l < 4; l++) {
            lo = lol[l] < lo ? lol[l] : lo;
            hi = hil[l] > hi ? hil[l] : hi;
        }
        top = (rk_v4d){hi, hi, hi, hi};
        c0 = rk_sel_l(none, k0, hi0 == top);  /* the lanes holding the max: their column */
        c1 = rk_sel_l(none, k1, hi1 == top);
        c0 = rk_sel_l(c0, c1, c1 < c0);
        memcpy(kl, &c0, 32);
        k = kl[0];
        for (l = 1; l < 4; l++) k = kl[l] < k ? kl[l] : k;
        for (j = last; j < n; j++) {
            v = x[j];
            s += v;
            lo = v < lo ? v : lo;
            if (v > hi) { hi = v; k = j; }
        }
        *s_out = s; *lo_out = lo; *hi_out = hi; *k_out = k;
    }

    RK_BODY void rk_top_vf(const float *x, Py_ssize_t n, double *s_out, double *lo_out,
                           double *hi_out, Py_ssize_t *k_out) {  /* 16 <= n < 2^31 */
        rk_v8f a, b, lo0, lo1, hi0, hi1, top;
        rk_v4f h;
        rk_v4d s0 = {0, 0, 0, 0}, s1 = s0;
        rk_v8i k0 = {0, 1, 2, 3, 4, 5, 6, 7}, k1 = k0 + 8, j0 = k0, j1 = k1, m, c0, c1;
        const rk_v8i sixteen = {16, 16, 16, 16, 16, 16, 16, 16};
        const rk_v8i none = {(int)n, (int)n, (int)n, (int)n, (int)n, (int)n, (int)n,
                             (int)n};
        Py_ssize_t j, last = n - n % 16, l, k;
        double sl[4], s;
        float lol[8], hil[8], lo, hi, v;
        int kl[8];
        memcpy(&lo0, x, 32); memcpy(&lo1, x + 8, 32);
        hi0 = lo0; hi1 = lo1;
        for (j = 0; j < last; j += 16) {
            memcpy(&a, x + j, 32); memcpy(&b, x + j + 8, 32);
            memcpy(&h, x + j, 16); s0 += __builtin_convertvector(h, rk_v4d);
            memcpy(&h, x + j + 4, 16); s1 += __builtin_convertvector(h, rk_v4d);
            memcpy(&h, x + j + 8, 16); s0 += __builtin_convertvector(h, rk_v4d);
            memcpy(&h, x + j + 12, 16); s1 += __builtin_convertvector(h, rk_v4d);
            lo0 = rk_sel_f(lo0, a, a < lo0); lo1 = rk_sel_f(lo1, b, b < lo1);
            m = a > hi0; hi0 = rk_sel_f(hi0, a, m); k0 = rk_sel_i(k0, j0, m);
            m = b > hi1; hi1 = rk_sel_f(hi1, b, m); k1 = rk_sel_i(k1, j1, m);
            j0 += sixteen; j1 += sixteen;
        }
        s0 += s1;
        lo0 = rk_sel_f(lo0, lo1, lo1 < lo0);
        top = rk_sel_f(hi0, hi1, hi1 > hi0);
        memcpy(sl, &s0, 32); memcpy(lol, &lo0, 32); memcpy(hil, &top, 32);
        s = (sl[0] + sl[1]) + (sl[2] + sl[3]);
        lo = lol[0]; hi = hil[0];
        for (l = 1; l < 8; l++) {
            lo = lol[l] < lo ? lol[l] : lo;
            hi = hil[l] > hi ? hil[l] : hi;
        }
        top = (rk_v8f){hi, hi, hi, hi, hi, hi, hi, hi};
        c0 = rk_sel_i(none, k0, hi0 == top);
        c1 = rk_sel_i(none, k1, hi1 == top);
        c0 = rk_sel_i(c0, c1, c1 < c0);
        memcpy(kl, &c0, 32);
        k = kl[0];
        for (l = 1; l < 8; l++) k = kl[l] < k ? kl[l] : k;
        for (j = last; j < n; j++) {
            v = x[j];
            s += (double)v;
            lo = v < lo ? v : lo;
            if (v > hi) { hi = v; k = j; }
        }
        *s_out = s; *lo_out = (double)lo; *hi_out = (double)hi; *k_out = k;
    }
    #define RK_MIN_VD 8
    #define RK_MIN_VF 16
    #else
    #define RK_MIN_VD PY_SSIZE_T_MAX
    #define RK_MIN_VF PY_SSIZE_T_MAX
    #define rk_top_vd row_top_d
    #define rk_top_vf row_top_f
    #endif

    /* Rows of a row-contiguous block (row i at x + i * stride): each row's sum into
       sums and, where pred is given, its first column of largest value and that value;
       the smallest entry of the block (at most low). */
    #define RK_ROWS(NAME, T, STATS, FIRST, TOPV, MIN_V)                             \
    RK_BODY double NAME(const T *x, Py_ssize_t n_rows, Py_ssize_t n, Py_ssize_t stride,\
                        double *sums, Py_ssize_t *pred, double *largest, double low,  \
                        int wide) {                                                  \
        double s, lo, hi;                                                            \
        Py_ssize_t i, k = 0;                                                         \
        int vectors = wide && pred && n >= MIN_V && n <= 0x7fffffff;                  \
        for (i = 0; i < n_rows; i++) {                                               \
            const T *row = x + i * stride;                                           \
            if (vectors) {                                                           \
                TOPV(row, n, &s, &lo, &hi, &k);                                      \
            } else {                                                                 \
                STATS(row, n, &s, &lo, &hi);                                         \
                if (pred) k = FIRST(row, n, hi);                                     \
            }                                                                        \
            sums[i] = s;                                                             \
            if (lo < low) low = lo;                                                  \
            if (pred) { largest[i] = hi; pred[i] = k; }                              \
        }                                                                            \
        return low;                                                                  \
    }
    RK_ROWS(rk_rows_d_body, double, row_stats_d, first_of_d, rk_top_vd, RK_MIN_VD)
    RK_ROWS(rk_rows_f_body, float, row_stats_f, first_of_f, rk_top_vf, RK_MIN_VF)

    #define RK_PARAMS(T) const T *x, Py_ssize_t n_rows, Py_ssize_t n, Py_ssize_t stride, \
        double *sums, Py_ssize_t *pred, double *largest, double low
    #define RK_PASS x, n_rows, n, stride, sums, pred, largest, low
    /* The baseline's copy keeps the scans above: GCC lowers the 32-byte vectors to
       SSE2 through the stack (measured 4x slower than the scan there); the AVX2 copy
       runs the vectors on rows of 8 (16) columns and more, where they were measured
       faster, and the baseline's loops below (AVX2 made them slower on short rows). */
    static double rk_rows_d_base(RK_PARAMS(double)) {
        return rk_rows_d_body(RK_PASS, 0);
    }
    static double rk_rows_f_base(RK_PARAMS(float)) {
        return rk_rows_f_body(RK_PASS, 0);
    }
    static int rk_avx2 = 0;
    #ifdef RK_X86_DISPATCH
    __attribute__((target("avx2")))
    static double rk_rows_d_avx2(RK_PARAMS(double)) { return rk_rows_d_body(RK_PASS, 1); }
    __attribute__((target("avx2")))
    static double rk_rows_f_avx2(RK_PARAMS(float)) { return rk_rows_f_body(RK_PASS, 1); }
    #endif
    /* 1 where the processor has AVX2 (then its copy runs), else 0 */
    static int rk_has_avx2(void) {
    #ifdef RK_X86_DISPATCH
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") ? 1 : 0;
    #else
        return 0;
    #endif
    }
    static double rk_rows_d(RK_PARAMS(double)) {
    #ifdef RK_X86_DISPATCH
        if (rk_avx2 && n >= RK_MIN_VD) return rk_rows_d_avx2(RK_PASS);
    #endif
        return rk_rows_d_base(RK_PASS);
    }
    static double rk_rows_f(RK_PARAMS(float)) {
    #ifdef RK_X86_DISPATCH
        if (rk_avx2 && n >= RK_MIN_VF) return rk_rows_f_avx2(RK_PASS);
    #endif
        return rk_rows_f_base(RK_PASS);
    }
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
    double rk_rows_d(const double *x, Py_ssize_t n_rows, Py_ssize_t n, Py_ssize_t stride,
                     double *sums, Py_ssize_t *pred, double *largest,
                     double low) noexcept nogil
    double rk_rows_f(const float *x, Py_ssize_t n_rows, Py_ssize_t n, Py_ssize_t stride,
                     double *sums, Py_ssize_t *pred, double *largest,
                     double low) noexcept nogil
    int rk_has_avx2()
    int rk_avx2

rk_avx2 = rk_has_avx2()
# Whether the row kernels run their AVX2 copy (x86 only; else the baseline's, SSE2 on x86-64).
VECTOR_EXTENSIONS = "avx2" if rk_avx2 else "baseline"


def _use_vector_extensions(bint on):
    """Run the AVX2 copy of the row loop (``on``, where the processor has it) or the
    baseline's; the previous choice. For the tests, which check both against NumPy."""
    global rk_avx2
    cdef bint previous = rk_avx2
    rk_avx2 = 1 if (on and rk_has_avx2()) else 0
    return bool(previous)


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
        if block.strides[1] == sizeof(real):  # row-contiguous: the C loop
            if real is double:
                low = rk_rows_d(&block[0, 0], n_rows, n_cols,
                                block.strides[0] // <Py_ssize_t>sizeof(double), &sums[0],
                                &predicted[0] if top else NULL,
                                &largest[0] if top else NULL, low)
            else:
                low = rk_rows_f(&block[0, 0], n_rows, n_cols,
                                block.strides[0] // <Py_ssize_t>sizeof(float), &sums[0],
                                &predicted[0] if top else NULL,
                                &largest[0] if top else NULL, low)
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
    below the lowest value of ``key`` (``key`` of :func:`value_histogram` among as many
    keys as ``start`` holds), counting the edges below ``p`` from there (none or few: no search with a
    branch mispredicted per instance). Without weights (``units`` empty):
    ``weight`` (= ``count``) the instances, ``out`` those of outcome 1, ``conf`` the
    sums of ``p``. With weights ``weight_of`` and their ``units`` (the weights over the
    largest): ``weight``, ``count`` (of positive weight), ``conf`` (units * p), ``out``
    (units of outcome 1), ``squares`` (units ** 2) and ``unit_sums``."""
    cdef Py_ssize_t n = confidence.shape[0], n_bins = weight.shape[0], i, b
    cdef Py_ssize_t n_keys = start.shape[0]
    cdef bint weighted = units.shape[0] > 0
    cdef double p, u, w
    cdef const double *edges
    if n_bins < 1 or inner.shape[0] != n_bins - 1 or ids.shape[0] != n \
            or outcome.shape[0] != n or (not uniform and n_keys == 0) or (weighted and (units.shape[0] != n
                                                       or weight_of.shape[0] != n)):
        raise ValueError("inconsistent lengths")
    edges = &inner[0] if n_bins > 1 else NULL
    with nogil:
        for i in range(n):
            p = confidence[i]
            if n_bins == 1:
                b = 0
            elif uniform:
                b = _uniform_bin(p, n_bins, edges)
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
    """The counts of ``values`` (non-negative; the keys beyond ``counts.shape[0]``
    clipped to the last) in their keys, the top bits of each value (``KEY_SHIFT``):
    monotone in the value."""
    cdef Py_ssize_t n = values.shape[0], n_keys = counts.shape[0], i
    with nogil:
        for i in range(n):
            counts[_key(values[i], n_keys)] += 1


# The keys of the order statistics: a positive double's bits, read as an unsigned integer,
# grow with its value, so its top bits (its exponent and the first 7 bits of its mantissa,
# 128 keys an octave: the bits shifted right by KEY_SHIFT) are a key monotone in the value,
# N_KEYS of them for [0, 1]. Equal-width keys crowded the probabilities near 0 of a class
# (most of a one-vs-rest column) into the first key, so that NumPy's partition ran.
cdef enum:
    _SHIFT = 45
KEY_SHIFT = _SHIFT
N_KEYS = 1 << 17  # 1.0 is key 130944: its bits 0x3FF0000000000000 >> KEY_SHIFT


cdef inline Py_ssize_t _key(double p, Py_ssize_t n_keys) noexcept nogil:
    cdef unsigned long long bits
    cdef Py_ssize_t key
    if not p > 0:  # 0 and -0.0 (NaN, refused before): the first key
        return 0
    memcpy(&bits, &p, sizeof(double))
    key = <Py_ssize_t>(bits >> _SHIFT)
    return key if key < n_keys else n_keys - 1


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


cdef inline Py_ssize_t _uniform_bin(double p, Py_ssize_t n_bins,
                                    const double *inner) noexcept nogil:
    """``np.searchsorted(inner, p)`` of equal-width ``inner`` edges (``n_bins - 1`` of
    them; unread where ``n_bins`` is 1): ``floor(n_bins * p)`` clipped, corrected by one
    where the edges disagree, as ``bins.bin_ids`` does. The one place every compiled
    equal-width binning takes its bin from."""
    cdef double scaled = p * n_bins
    cdef Py_ssize_t b, lo
    if n_bins == 1:
        return 0
    # NumPy's float -> intp cast truncates toward zero (p >= 0 here), then clips (NaN,
    # refused before, to the first bin)
    if not scaled >= 0:
        b = 0
    elif scaled >= n_bins:
        b = n_bins - 1
    else:
        b = <Py_ssize_t>scaled
    # the edge below (-inf for the first bin) at or above p: one bin down; the edge above
    # (+inf for the last) below p: one bin up (both read at b)
    lo = b
    if b > 0 and inner[b - 1] >= p:
        lo = b - 1
    if b < n_bins - 1 and inner[b] < p:
        lo = lo + 1
    return lo


cdef void _classwise_rows(const real *x, Py_ssize_t n, Py_ssize_t n_classes,
                          Py_ssize_t stride, const double *norms, const double *edges,
                          Py_ssize_t n_bins, double *cells) noexcept nogil:
    """The bins of every class of row-contiguous rows (row ``i`` at ``x + i * stride``),
    in instance order: ``cells[2 * (c * n_bins + b)]`` counts the instances whose
    probability of class ``c`` (divided by ``norms[i]`` where given) falls in bin ``b``,
    the next cell sums those probabilities (a pair a bin: one cache line for both);
    ``edges``: the inner edges (:func:`_uniform_bin`)."""
    cdef Py_ssize_t i, c
    cdef const real *row
    cdef double p, norm
    cdef double *cell
    for i in range(n):
        row = x + i * stride
        if norms != NULL:
            norm = norms[i]
            for c in range(n_classes):
                p = row[c]
                p = p / norm
                cell = cells + 2 * (c * n_bins + _uniform_bin(p, n_bins, edges))
                cell[0] += 1.0
                cell[1] += p
        else:
            for c in range(n_classes):
                p = row[c]
                cell = cells + 2 * (c * n_bins + _uniform_bin(p, n_bins, edges))
                cell[0] += 1.0
                cell[1] += p


def classwise_sums(const real[:, :] prob, const Py_ssize_t[::1] codes,
                   const double[::1] inner, const double[::1] norms, double[:, ::1] weight,
                   double[:, ::1] conf, double[:, ::1] out):
    """The equal-width bins of every class's one-vs-rest curve in one read of ``prob``
    (n, n_classes), unweighted: for each class ``c`` (row ``c`` of the outputs) and bin
    ``b``, ``weight`` the instances whose probability of ``c`` falls in ``b``, ``conf``
    the sum of those probabilities, ``out`` those of class ``c`` (``codes``), each
    probability divided by its row's ``norms`` where given (else ``norms`` empty). The
    sums run in instance order, the order and so the rounding of ``np.bincount`` on the
    columns; an instance's bin is ``np.searchsorted(inner, p)`` (``inner``: the
    ``n_bins - 1`` inner edges of equal width). The outcomes need only each row's entry
    of its class: one update a row, not one a column."""
    cdef Py_ssize_t n = prob.shape[0], n_classes = prob.shape[1], n_bins = weight.shape[1]
    cdef Py_ssize_t i, c, b, t
    cdef bint by_norm = norms.shape[0] > 0
    cdef double p, norm = 1.0
    if codes.shape[0] != n or (by_norm and norms.shape[0] != n) \
            or inner.shape[0] != n_bins - 1 or n_bins < 1 \
            or weight.shape[0] != n_classes or conf.shape[0] != n_classes \
            or out.shape[0] != n_classes or conf.shape[1] != n_bins \
            or out.shape[1] != n_bins:
        raise ValueError("inconsistent lengths")
    for i in range(n):
        if not 0 <= codes[i] < n_classes:
            raise ValueError("codes outside the classes")
    if n == 0:
        return
    cdef const double *edges = &inner[0] if n_bins > 1 else NULL
    # each class's bins as (count, sum) pairs side by side, from what the outputs hold
    cdef double[::1] cells = np.stack([weight, conf], axis=-1).ravel()
    with nogil:
        if prob.strides[0] == sizeof(real) and n_classes > 1:  # column-contiguous
            for c in range(n_classes):
                for i in range(n):
                    p = prob[i, c]
                    if by_norm:
                        p = p / norms[i]
                    b = _uniform_bin(p, n_bins, edges)
                    weight[c, b] += 1.0
                    conf[c, b] += p
        elif prob.strides[1] == sizeof(real):  # row-contiguous: rows through a pointer
            _classwise_rows(&prob[0, 0], n, n_classes,
                            prob.strides[0] // <Py_ssize_t>sizeof(real),
                            &norms[0] if by_norm else NULL, edges, n_bins, &cells[0])
            for c in range(n_classes):
                for b in range(n_bins):
                    weight[c, b] = cells[2 * (c * n_bins + b)]
                    conf[c, b] = cells[2 * (c * n_bins + b) + 1]
        else:
            for i in range(n):
                if by_norm:
                    norm = norms[i]
                for c in range(n_classes):
                    p = prob[i, c]
                    if by_norm:
                        p = p / norm
                    b = _uniform_bin(p, n_bins, edges)
                    weight[c, b] += 1.0
                    conf[c, b] += p
        for i in range(n):  # the outcomes: each row's entry of its class
            t = codes[i]
            p = prob[i, t]
            if by_norm:
                p = p / norms[i]
            out[t, _uniform_bin(p, n_bins, edges)] += 1.0
