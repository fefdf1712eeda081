# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""Compiled kernels: one pass over memory where NumPy needs several.

Each kernel has a reference in NumPy that it is tested equal to (``tests/_core/test_kernels.py``);
:mod:`.kernels` says which path runs. The kernels release the GIL, so the threads of
:func:`~.chunks.sum_over_chunks` run them side by side.
"""

from libc.math cimport fabs, isfinite

ctypedef fused floating:
    float
    double

ctypedef fused code_type:
    int
    long long


cdef extern from *:
    """
    /* The kernel of labels beside scores (sum_rows_by_class) on rows of adjacent values,
       in C: the row and the matrix it is added to are declared restrict (they never
       overlap), so that the compiler packs both loops into vectors without a run-time
       overlap test, and, on x86, a second copy is compiled for AVX and FMA and chosen at
       import where the processor has them (the package's build flags target the baseline
       x86-64, SSE2). Each row is read once from memory: its checked sum, in the same loop
       as the scaled sum of the row before it into its class's row of the output (read
       again from the L1 cache). */
    #include <math.h>
    #include <stdlib.h>
    #include <string.h>
    #if defined(__GNUC__)  /* GCC and Clang: vector types, lowered to the target's width */
    #define SCE_VECTORS 1
    typedef double sce_v4d __attribute__((vector_size(32)));
    typedef long long sce_v4l __attribute__((vector_size(32)));
    typedef float sce_v8f __attribute__((vector_size(32)));
    typedef int sce_v8i __attribute__((vector_size(32)));
    #endif
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(_WIN32)
    #define SCE_X86_DISPATCH 1
    #endif
    #if defined(__GNUC__)
    #define SCE_BODY static inline __attribute__((always_inline))
    #define SCE_RESTRICT __restrict__
    #elif defined(_MSC_VER)
    #define SCE_BODY static __forceinline
    #define SCE_RESTRICT __restrict
    #else
    #define SCE_BODY static inline
    #define SCE_RESTRICT
    #endif

    static int sce_avx_fma = 0;

    static void sce_init_dispatch(void) {
    #ifdef SCE_X86_DISPATCH
        __builtin_cpu_init();
        sce_avx_fma = __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
    #endif
    }

    /* The checks after a row's sum; the row's factor w / s, or -1 where it fails. */
    /* norm_low: 1 / norm_limit, divided once by the caller (a division on each row was
       in its chain of checks). */
    SCE_BODY double sce_row_scale(double norm, Py_ssize_t i, const double *multipliers,
                                  int by_norm, double norm_low, double norm_limit,
                                  double smallest, double largest, double tolerance,
                                  Py_ssize_t *off_row, double *off_sum) {
        double weight;
        if (!(isfinite(norm) && norm_low <= norm && norm <= norm_limit))
            return -1.0;
        weight = multipliers ? multipliers[i] : 1.0;
        if (by_norm)
            weight = weight * norm;
        if (!(weight == 0 || (smallest <= weight && weight <= largest)))  /* NaN fails */
            return -1.0;
        if (*off_row < 0 && fabs(norm - 1.0) > tolerance) {
            *off_row = i;
            *off_sum = norm;
        }
        return weight / norm;
    }

    SCE_BODY Py_ssize_t sce_code(const void *codes, int wide_codes, Py_ssize_t i) {
        return wide_codes ? (Py_ssize_t)((const long long *)codes)[i]
                          : (Py_ssize_t)((const int *)codes)[i];
    }
    #define SCE_ARGUMENTS(T) const T *SCE_RESTRICT scores, Py_ssize_t row_stride, \
        Py_ssize_t n, const void *codes, int wide_codes, Py_ssize_t start, Py_ssize_t stop, \
        const double *SCE_RESTRICT multipliers, int by_norm, double norm_limit, \
        double smallest, double largest, double tolerance, double *SCE_RESTRICT out, \
        Py_ssize_t *off_row, double *off_sum
    #define SCE_PASS scores, row_stride, n, codes, wide_codes, start, stop, multipliers, \
        by_norm, norm_limit, smallest, largest, tolerance, out, off_row, off_sum

    /* 1 where a value of the row is negative (-0.0 and NaN are not): the exact test, run
       only where a sign bit of the row is set. */
    #define SCE_DEFINE_NEGATIVE(T, S) \
    SCE_BODY int sce_negative_##S(const T *SCE_RESTRICT row, Py_ssize_t n) { \
        Py_ssize_t j; \
        int any = 0; \
        for (j = 0; j < n; j++) \
            any |= row[j] < 0; \
        return any; \
    }
    SCE_DEFINE_NEGATIVE(double, double)
    SCE_DEFINE_NEGATIVE(float, float)

    #ifdef SCE_VECTORS
    typedef float sce_v4f __attribute__((vector_size(16)));
    /* Four values of a row, times scale, added to four values of the output in float64
       (a vector of each; the same products and sums as value by value). */
    SCE_BODY void sce_add4_double(double *SCE_RESTRICT target,
                                  const double *SCE_RESTRICT added, double scale) {
        sce_v4d sums, values;
        memcpy(&sums, target, sizeof sums);
        memcpy(&values, added, sizeof values);
        sums += scale * values;
        memcpy(target, &sums, sizeof sums);
    }
    SCE_BODY void sce_add4_float(double *SCE_RESTRICT target,
                                 const float *SCE_RESTRICT added, double scale) {
        sce_v4d sums;
        sce_v4f values;
        memcpy(&sums, target, sizeof sums);
        memcpy(&values, added, sizeof values);
        sums += scale * __builtin_convertvector(values, sce_v4d);
        memcpy(target, &sums, sizeof sums);
    }
    #endif

    /* A row's sum (eight running sums in the row's type), or -1 where a value is
       negative; a NaN or an infinity makes it non-finite. In the same loop, where adding
       (a constant at each call), the row before it, added, times scale, is added to target
       (sce_rows_*: the sum of the row arriving from memory beside the addition of the row
       before it, read again from the L1 cache, so that the two overlap; the same sum and
       the same additions as one after the other). sce_norm_* (below) is the sum alone. */
    SCE_BODY double sce_norm_add_double(const double *SCE_RESTRICT row, Py_ssize_t n,
                                        int adding, const double *SCE_RESTRICT added,
                                        double *SCE_RESTRICT target, double scale) {
        Py_ssize_t j, n_wide = n - n % 8;
    #ifdef SCE_VECTORS
        /* the eight accumulators as two vectors of four (the same sums in the same order);
           the values' sign bits OR-ed together (one instruction a vector, where a compare
           and a mask took three), and the exact test of a negative value run only where a
           sign bit is set (a -0.0 or a NaN's sign sets it too: that row is tested again) */
        sce_v4d first = {0, 0, 0, 0}, second = {0, 0, 0, 0}, value4, pairs;
        sce_v4l signs = {0, 0, 0, 0}, bits4;
        long long bits, any;
        double head;
        for (j = 0; j < n_wide; j += 8) {
            memcpy(&value4, row + j, sizeof value4);
            memcpy(&bits4, row + j, sizeof bits4);
            first += value4;
            signs |= bits4;
            memcpy(&value4, row + j + 4, sizeof value4);
            memcpy(&bits4, row + j + 4, sizeof bits4);
            second += value4;
            signs |= bits4;
            if (adding) {
                sce_add4_double(target + j, added + j, scale);
                sce_add4_double(target + j + 4, added + j + 4, scale);
            }
        }
        head = first[0];
        any = (signs[0] | signs[1]) | (signs[2] | signs[3]);
        for (j = n_wide; j < n; j++) {
            head += row[j];
            memcpy(&bits, row + j, sizeof bits);
            any |= bits;
            if (adding)
                target[j] += scale * added[j];
        }
        if (any < 0 && sce_negative_double(row, n))
            return -1.0;
        first[0] = head;
        /* ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)), s0-s3 first's lanes, s4-s7
           second's: the pairs side by side in one vector */
        pairs = __builtin_shuffle(first, second, (sce_v4l){0, 4, 2, 6})
                + __builtin_shuffle(first, second, (sce_v4l){1, 5, 3, 7});
        return (pairs[0] + pairs[2]) + (pairs[1] + pairs[3]);
    #else
        Py_ssize_t k;
        double sums[8] = {0, 0, 0, 0, 0, 0, 0, 0}, lowest[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        double norm, low;
        for (j = 0; j < n_wide; j += 8)
            for (k = 0; k < 8; k++) {
                double value = row[j + k];
                sums[k] += value;
                lowest[k] = value < lowest[k] ? value : lowest[k];
            }
        for (j = n_wide; j < n; j++) {
            double value = row[j];
            sums[0] += value;
            lowest[0] = value < lowest[0] ? value : lowest[0];
        }
        low = lowest[0];
        for (k = 1; k < 8; k++)
            low = lowest[k] < low ? lowest[k] : low;
        if (adding)
            for (j = 0; j < n; j++)
                target[j] += scale * added[j];
        norm = low < 0 ? -1.0 : (((sums[0] + sums[1]) + (sums[2] + sums[3]))
                                 + ((sums[4] + sums[5]) + (sums[6] + sums[7])));
        return norm;
    #endif
    }


    /* The same in float32 (the additions in float64). */
    SCE_BODY double sce_norm_add_float(const float *SCE_RESTRICT row, Py_ssize_t n,
                                       int adding, const float *SCE_RESTRICT added,
                                       double *SCE_RESTRICT target, double scale) {
        Py_ssize_t j, k, n_wide = n - n % 8;
        float sums[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        double norm;
    #ifdef SCE_VECTORS
        /* four vectors of eight running sums over 32 values a step (one vector's
           chain of additions, 3 cycles each, held a row of 1,000 floats at 1.3-2x
           a read), then one over eight, the four added lane by lane; the sign bits as
           in sce_norm_double */
        sce_v8f all = {0, 0, 0, 0, 0, 0, 0, 0}, value8;
        sce_v8f all1 = all, all2 = all, all3 = all;
        sce_v8i signs = {0, 0, 0, 0, 0, 0, 0, 0}, bits8;
        int bits, any;
        for (j = 0; j + 32 <= n_wide; j += 32) {
            memcpy(&value8, row + j, sizeof value8);
            memcpy(&bits8, row + j, sizeof bits8);
            all += value8;
            signs |= bits8;
            memcpy(&value8, row + j + 8, sizeof value8);
            memcpy(&bits8, row + j + 8, sizeof bits8);
            all1 += value8;
            signs |= bits8;
            memcpy(&value8, row + j + 16, sizeof value8);
            memcpy(&bits8, row + j + 16, sizeof bits8);
            all2 += value8;
            signs |= bits8;
            memcpy(&value8, row + j + 24, sizeof value8);
            memcpy(&bits8, row + j + 24, sizeof bits8);
            all3 += value8;
            signs |= bits8;
            if (adding)
                for (k = 0; k < 32; k += 4)
                    sce_add4_float(target + j + k, added + j + k, scale);
        }
        for (; j < n_wide; j += 8) {
            memcpy(&value8, row + j, sizeof value8);
            memcpy(&bits8, row + j, sizeof bits8);
            all += value8;
            signs |= bits8;
            if (adding) {
                sce_add4_float(target + j, added + j, scale);
                sce_add4_float(target + j + 4, added + j + 4, scale);
            }
        }
        all = (all + all1) + (all2 + all3);
        any = ((signs[0] | signs[1]) | (signs[2] | signs[3]))
              | ((signs[4] | signs[5]) | (signs[6] | signs[7]));
        for (k = 0; k < 8; k++)
            sums[k] = all[k];
        for (j = n_wide; j < n; j++) {
            sums[0] += row[j];
            memcpy(&bits, row + j, sizeof bits);
            any |= bits;
            if (adding)
                target[j] += scale * (double)added[j];
        }
        if (any < 0 && sce_negative_float(row, n))
            return -1.0;
    #else
        float lowest[8] = {0, 0, 0, 0, 0, 0, 0, 0}, low;
        for (j = 0; j < n_wide; j += 8)
            for (k = 0; k < 8; k++) {
                float value = row[j + k];
                sums[k] += value;
                lowest[k] = value < lowest[k] ? value : lowest[k];
            }
        for (j = n_wide; j < n; j++) {
            float value = row[j];
            sums[0] += value;
            lowest[0] = value < lowest[0] ? value : lowest[0];
        }
        low = lowest[0];
        for (k = 1; k < 8; k++)
            low = lowest[k] < low ? lowest[k] : low;
        if (adding)
            for (j = 0; j < n; j++)
                target[j] += scale * (double)added[j];
        if (low < 0)
            return -1.0;
    #endif
        norm = (((double)sums[0] + sums[1]) + (sums[2] + sums[3]))
               + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
        return norm;
    }
    #define sce_norm_double(row, n) sce_norm_add_double(row, n, 0, NULL, NULL, 0.0)
    #define sce_norm_float(row, n) sce_norm_add_float(row, n, 0, NULL, NULL, 0.0)

    /* The kernels of labels beside scores, once for each type T of the scores (S the
       names' suffix): float32 rows are added to the float64 output in float64. */
    #define SCE_DEFINE_ROWS(T, S) \
    /* The rows in turn: row i + 1's checked sum in the same loop as row i's scaled \
       addition to its class's row of the output (the checks of a row, then its addition, \
       one after the other, left the memory idle over the addition: at C = 1,000 they took \
       1.9x a read of the scores in float64, 2.3x in float32; in one loop, 1.3x and 1.5x). \
       The first row that fails ends the pass after the rows before it. */ \
    SCE_BODY Py_ssize_t sce_rows_##S(SCE_ARGUMENTS(T)) { \
        Py_ssize_t i, j; \
        const double norm_low = 1.0 / norm_limit; \
        const T *SCE_RESTRICT row = scores + start * row_stride; \
        double *SCE_RESTRICT target; \
        double scale; \
        if (start >= stop) \
            return stop; \
        scale = sce_row_scale(sce_norm_##S(row, n), start, multipliers, by_norm, norm_low, \
                              norm_limit, smallest, largest, tolerance, off_row, off_sum); \
        if (scale < 0) \
            return start; \
        for (i = start; i + 1 < stop; i++) { \
            const T *SCE_RESTRICT next = row + row_stride; \
            target = out + n * sce_code(codes, wide_codes, i); \
            scale = sce_row_scale(sce_norm_add_##S(next, n, 1, row, target, scale), i + 1, \
                                  multipliers, by_norm, norm_low, norm_limit, smallest, \
                                  largest, tolerance, off_row, off_sum); \
            if (scale < 0) \
                return i + 1; \
            row = next; \
        } \
        target = out + n * sce_code(codes, wide_codes, stop - 1); \
        for (j = 0; j < n; j++) \
            target[j] += scale * (double)row[j]; \
        return stop; \
    }

    /* Two copies of the kernel: one for the baseline, one for AVX and FMA (chosen at import
       where the processor has them); sce_sum_rows_* call the one chosen. */
    #define SCE_ROWS_COPY(T, S, ATTRIBUTE, SUFFIX) \
    ATTRIBUTE static Py_ssize_t sce_rows_##S##SUFFIX(SCE_ARGUMENTS(T)) { \
        return sce_rows_##S(SCE_PASS); \
    }
    #ifdef SCE_X86_DISPATCH
    #define SCE_ROWS_DISPATCH(T, S) \
    static Py_ssize_t sce_sum_rows_##S(SCE_ARGUMENTS(T)) { \
        return sce_avx_fma ? sce_rows_##S##_avx(SCE_PASS) : sce_rows_##S##_baseline(SCE_PASS); \
    }
    #else
    #define SCE_ROWS_DISPATCH(T, S) \
    static Py_ssize_t sce_sum_rows_##S(SCE_ARGUMENTS(T)) { \
        return sce_rows_##S##_baseline(SCE_PASS); \
    }
    #endif
    SCE_DEFINE_ROWS(double, double)
    SCE_DEFINE_ROWS(float, float)
    SCE_ROWS_COPY(double, double, , _baseline)
    SCE_ROWS_COPY(float, float, , _baseline)
    #ifdef SCE_X86_DISPATCH
    SCE_ROWS_COPY(double, double, __attribute__((target("avx,fma"))), _avx)
    SCE_ROWS_COPY(float, float, __attribute__((target("avx,fma"))), _avx)
    #endif
    SCE_ROWS_DISPATCH(double, double)
    SCE_ROWS_DISPATCH(float, float)

    /* Soft labels beside soft labels at n <= 16 classes (soft_plan_sums_small): each row
       in at most four vectors of four lanes (lanes from n on zero), its checks, common
       mass, deficit and excess in those vectors, and its outer product (deficit times
       excess, as in soft_plan_parts then the chunk's matrix product) added in float64 to
       a 16 x 16 block of running sums that stays in the L1 cache: no (rows, n) buffers
       and no matrix product of a thin chunk. The diagonal takes the same products in the
       same order as soft_plan_parts (no contraction into FMA below: the pragmas), so its
       sums are the same to the last bit; the deficit's mass is summed as a tree of lanes
       (not in turn), and each cell of the outer products in turn over the rows, in
       float64 also for float32 rows. W is a constant in each copy (the loops unroll). */
    #ifdef SCE_VECTORS
    #define SCE_SMALL 1
    #define SCE_SMALL_MAX 16
    typedef int sce_v4i __attribute__((vector_size(16)));
    #if defined(__clang__)
    #pragma STDC FP_CONTRACT OFF
    #elif defined(__GNUC__)
    #pragma GCC push_options
    #pragma GCC optimize("fp-contract=off")
    #endif
    #define SCE_SMALL_ARGUMENTS(T) const T *SCE_RESTRICT y_true, Py_ssize_t true_stride, \
        const T *SCE_RESTRICT y_pred, Py_ssize_t pred_stride, Py_ssize_t n, \
        Py_ssize_t n_total, Py_ssize_t start, Py_ssize_t stop, \
        const double *SCE_RESTRICT multipliers, int norm_weighting, double norm_limit, \
        double smallest, double largest, double tolerance, double *SCE_RESTRICT diagonal, \
        double *SCE_RESTRICT off_diagonal
    #define SCE_SMALL_PASS y_true, true_stride, y_pred, pred_stride, n, n_total, start, \
        stop, multipliers, norm_weighting, norm_limit, smallest, largest, tolerance, \
        diagonal, off_diagonal

    /* T the rows' type, VT four of them, MT its lane mask, S the name's suffix; CONVERT
       a VT to four doubles. */
    #define SCE_DEFINE_SMALL(T, VT, MT, S, CONVERT) \
    SCE_BODY VT sce_small_load_##S(const T *SCE_RESTRICT row, int fast, Py_ssize_t n, \
                                   int w, MT keep) { \
        T copy[4]; \
        VT x; \
        int lane; \
        if (fast) { /* the lanes past the row's end lie inside the array */ \
            memcpy(&x, row + 4 * w, sizeof x); \
            return (VT)((MT)x & keep); \
        } \
        for (lane = 0; lane < 4; lane++) \
            copy[lane] = 4 * w + lane < n ? row[4 * w + lane] : 0; \
        memcpy(&x, copy, sizeof x); \
        return x; \
    } \
    /* the row's sum as _checked_sum takes it (eight running sums in T, the same order), \
       or -1 where a value is negative */ \
    SCE_BODY double sce_small_norm_##S(const VT *SCE_RESTRICT x, Py_ssize_t n, \
                                       const int W) { \
        VT first = {0, 0, 0, 0}, second = {0, 0, 0, 0}; \
        MT negative = {0, 0, 0, 0}; \
        Py_ssize_t n_wide = n - n % 8; \
        int w, j; \
        T head; \
        for (w = 0; w < W; w++) \
            negative |= x[w] < 0; \
        if (negative[0] | negative[1] | negative[2] | negative[3]) \
            return -1.0; \
        if (W >= 2 && n >= 8) { \
            first += x[0]; \
            second += x[1]; \
        } \
        if (W >= 4 && n >= 16) { \
            first += x[2]; \
            second += x[3]; \
        } \
        head = first[0]; \
        for (j = 0; j < 4 * W; j++) /* the rest, in turn on the first running sum */ \
            if (j >= n_wide && j < n) \
                head += x[j / 4][j % 4]; \
        return (((double)head + first[1]) + (first[2] + first[3])) \
            + ((second[0] + second[1]) + (second[2] + second[3])); \
    } \
    /* a row's parts: its factor w / s (-1 where a check fails, as _soft_row_scale), \
       its common mass, its scaled deficit and its excess in float64 */ \
    SCE_BODY double sce_small_row_##S(const T *SCE_RESTRICT true_row, \
            const T *SCE_RESTRICT pred_row, int true_fast, int pred_fast, Py_ssize_t n, \
            double multiplier, int norm_weighting, double low, double norm_limit, \
            double smallest, double largest, double tolerance, const MT *SCE_RESTRICT keep, \
            sce_v4d *SCE_RESTRICT common_out, sce_v4d *SCE_RESTRICT deficit_out, \
            sce_v4d *SCE_RESTRICT excess_out, const int W) { \
        VT u[4], v[4], common[4], deficit[4], mass = {0, 0, 0, 0}; \
        double true_norm, pred_norm, weight, scale; \
        T ratio, deficit_mass, row_scale; \
        int w; \
        for (w = 0; w < W; w++) { \
            u[w] = sce_small_load_##S(true_row, true_fast, n, w, keep[w]); \
            v[w] = sce_small_load_##S(pred_row, pred_fast, n, w, keep[w]); \
        } \
        true_norm = sce_small_norm_##S(u, n, W); \
        pred_norm = sce_small_norm_##S(v, n, W); \
        if (!(isfinite(true_norm) && isfinite(pred_norm) && low <= true_norm \
              && true_norm <= norm_limit && low <= pred_norm && pred_norm <= norm_limit)) \
            return -1.0; \
        weight = multiplier; \
        if (norm_weighting == 1) \
            weight = weight * true_norm; \
        else if (norm_weighting == 2) \
            weight = weight * pred_norm; \
        if (!(weight == 0 || (smallest <= weight && weight <= largest))) \
            return -1.0; \
        scale = weight / true_norm; \
        ratio = (T)(true_norm / pred_norm); \
        for (w = 0; w < W; w++) { \
            MT less; \
            v[w] = v[w] * ratio; \
            less = u[w] < v[w]; \
            common[w] = (VT)((less & (MT)u[w]) | (~less & (MT)v[w])); \
            deficit[w] = u[w] - common[w]; \
            excess_out[w] = CONVERT(v[w] - common[w]); \
            common_out[w] = CONVERT(common[w]); \
            mass += deficit[w]; \
        } \
        deficit_mass = (mass[0] + mass[1]) + (mass[2] + mass[3]); \
        row_scale = deficit_mass > tolerance * true_norm ? (T)(scale / deficit_mass) : 0; \
        for (w = 0; w < W; w++) \
            deficit_out[w] = CONVERT(deficit[w] * row_scale); \
        return scale; \
    } \
    SCE_BODY Py_ssize_t sce_small_##S(SCE_SMALL_ARGUMENTS(T), const int W) { \
        MT keep[4]; \
        sce_v4d diag[4], acc[SCE_SMALL_MAX][4]; \
        sce_v4d common1[4], deficit1[4], excess1[4], common2[4], deficit2[4], excess2[4]; \
        double low = 1.0 / norm_limit, scale1, scale2; \
        const T *true_end = y_true + (true_stride > 0 ? (n_total - 1) * true_stride : 0) + n; \
        const T *pred_end = y_pred + (pred_stride > 0 ? (n_total - 1) * pred_stride : 0) + n; \
        Py_ssize_t i, j, k, failed = stop; \
        int w, lane; \
        for (w = 0; w < W; w++) { \
            for (lane = 0; lane < 4; lane++) { \
                keep[w][lane] = 4 * w + lane < n ? -1 : 0; \
                diag[w][lane] = 0; \
            } \
            for (j = 0; j < SCE_SMALL_MAX; j++) \
                acc[j][w] = diag[w]; \
        } \
        /* two rows a step: their parts side by side (two chains of divisions in flight), \
           the diagonal in the rows' order, the two outer products added together */ \
        for (i = start; i < stop; i += 2) { \
            const T *true_row = y_true + i * true_stride, *pred_row = y_pred + i * pred_stride; \
            int pair = i + 1 < stop; \
            scale1 = sce_small_row_##S(true_row, pred_row, true_row + 4 * W <= true_end, \
                pred_row + 4 * W <= pred_end, n, multipliers ? multipliers[i] : 1.0, \
                norm_weighting, low, norm_limit, smallest, largest, tolerance, keep, \
                common1, deficit1, excess1, W); \
            if (pair) { \
                true_row += true_stride; \
                pred_row += pred_stride; \
                scale2 = sce_small_row_##S(true_row, pred_row, true_row + 4 * W <= true_end, \
                    pred_row + 4 * W <= pred_end, n, multipliers ? multipliers[i + 1] : 1.0, \
                    norm_weighting, low, norm_limit, smallest, largest, tolerance, keep, \
                    common2, deficit2, excess2, W); \
            } \
            if (scale1 < 0) { \
                failed = i; \
                break; \
            } \
            for (w = 0; w < W; w++) \
                diag[w] += scale1 * common1[w]; \
            if (!pair || scale2 < 0) { \
                for (j = 0; j < n; j++) \
                    for (w = 0; w < W; w++) \
                        acc[j][w] += deficit1[j / 4][j % 4] * excess1[w]; \
                if (pair) \
                    failed = i + 1; \
                break; \
            } \
            for (w = 0; w < W; w++) \
                diag[w] += scale2 * common2[w]; \
            for (j = 0; j < n; j++) \
                for (w = 0; w < W; w++) \
                    acc[j][w] += deficit1[j / 4][j % 4] * excess1[w] \
                        + deficit2[j / 4][j % 4] * excess2[w]; \
        } \
        for (w = 0; w < W; w++) \
            for (lane = 0; lane < 4 && 4 * w + lane < n; lane++) \
                diagonal[4 * w + lane] += diag[w][lane]; \
        for (j = 0; j < n; j++) \
            for (k = 0; k < n; k++) \
                off_diagonal[j * n + k] += acc[j][k / 4][k % 4]; \
        return failed; \
    }

    #define SCE_IDENTITY(x) (x)
    #define SCE_TO_DOUBLE(x) __builtin_convertvector((x), sce_v4d)
    SCE_DEFINE_SMALL(double, sce_v4d, sce_v4l, double, SCE_IDENTITY)
    SCE_DEFINE_SMALL(float, sce_v4f, sce_v4i, float, SCE_TO_DOUBLE)

    /* n a constant in each copy (1 to 16 classes): every loop of a row unrolls; the
       baseline copies of both types, and on x86 an AVX and FMA copy of float64 (float32
       takes sce_small8_float_avx there, below) */
    #define SCE_SMALL_CASE(S, K) case K: return sce_small_##S(y_true, true_stride, y_pred, \
        pred_stride, K, n_total, start, stop, multipliers, norm_weighting, norm_limit, \
        smallest, largest, tolerance, diagonal, off_diagonal, (K + 3) / 4);
    #define SCE_SMALL_COPIES(T, S, ATTRIBUTE, SUFFIX) \
    ATTRIBUTE static Py_ssize_t sce_small_##S##SUFFIX(SCE_SMALL_ARGUMENTS(T)) { \
        switch (n) { \
        SCE_SMALL_CASE(S, 1) SCE_SMALL_CASE(S, 2) SCE_SMALL_CASE(S, 3) SCE_SMALL_CASE(S, 4) \
        SCE_SMALL_CASE(S, 5) SCE_SMALL_CASE(S, 6) SCE_SMALL_CASE(S, 7) SCE_SMALL_CASE(S, 8) \
        SCE_SMALL_CASE(S, 9) SCE_SMALL_CASE(S, 10) SCE_SMALL_CASE(S, 11) \
        SCE_SMALL_CASE(S, 12) SCE_SMALL_CASE(S, 13) SCE_SMALL_CASE(S, 14) \
        SCE_SMALL_CASE(S, 15) SCE_SMALL_CASE(S, 16) \
        default: return start; \
        } \
    }
    SCE_SMALL_COPIES(double, double, , _baseline)
    SCE_SMALL_COPIES(float, float, , _baseline)
    #ifdef SCE_X86_DISPATCH
    SCE_SMALL_COPIES(double, double, __attribute__((target("avx,fma"))), _avx)



    /* float32 rows with AVX and FMA (sce_small8_float_avx): the 4-lane copy above spent
       its time converting each 4-lane float vector to doubles and back, and its 16 x 4
       running sums did not fit the 16 vector registers (each outer product a load and a
       store of every sum). Here a row is one or two 8-lane float vectors: its checks,
       common mass, deficit and excess in float32 (the same operations, so the same
       values, as above), both row sums at once (the lanes of the two rows side by side,
       in _checked_sum's order: the same norms to the last bit), and only the parts that
       are summed are widened to float64. Where eight rows in turn allow it (their loads
       inside the arrays, their checks passed), they are taken at once, a lane a row
       (sce8_rows8: the same operations on each row, so the same values; their 24 divisions
       six vector divisions; at C = 10 the kernel alone went from 46 to 26 ns a row on a
       2-core AMD EPYC, 2026-12-04). The deficits and excesses of a block of
       SCE_SMALL8_BLOCK rows are written to a small float64 buffer (L1), and the block's
       outer products are added group by group of classes, each group's running sums held
       in registers over the block's rows: one FMA per 4 cells a row. A product of two
       float32 values is exact in float64, so its FMA rounds as the product then the sum
       did: each cell still adds the rows' products in the rows' order, in float64; the
       diagonal is the same mul and add as soft_plan_parts (no contraction). */
    #include <immintrin.h>
    #define SCE_AVX_BODY static inline __attribute__((always_inline, target("avx,fma")))
    #define SCE_SMALL8_BLOCK 32

    /* the float vector w of a row (lanes from n on zero); n a constant */
    SCE_AVX_BODY __m256 sce8_load(const float *SCE_RESTRICT row, int fast, int n, int w,
                                  __m256 keep) {
        float copy[8];
        int lane;
        if (fast) { /* the lanes past the row's end lie inside the array */
            __m256 x = _mm256_loadu_ps(row + 8 * w);
            return 8 * w + 8 <= n ? x : _mm256_and_ps(x, keep);
        }
        for (lane = 0; lane < 8; lane++)
            copy[lane] = 8 * w + lane < n ? row[8 * w + lane] : 0.0f;
        return _mm256_loadu_ps(copy);
    }

    /* lane k of the 128-bit half h of u and of v, in lanes 0 and 4 of the result */
    SCE_AVX_BODY __m256 sce8_lane(__m256 u, __m256 v, int k) {
        __m256 halves = (k & 4) ? _mm256_permute2f128_ps(u, v, 0x31)
                                : _mm256_permute2f128_ps(u, v, 0x20);
        switch (k & 3) {
        case 0: return halves;
        case 1: return _mm256_permute_ps(halves, 0x55);
        case 2: return _mm256_permute_ps(halves, 0xAA);
        default: return _mm256_permute_ps(halves, 0xFF);
        }
    }

    /* the sums of a true and a pred row as _checked_sum takes them (eight running sums
       s0 .. s7 in float32, the lanes from n_wide on added in turn to s0, then
       (((double)s0 + s1) + (float)(s2 + s3)) + (float)((s4 + s5) + (s6 + s7))): true's in
       lane 0 of the result, pred's in lane 1; both rows' lanes side by side in one vector
       (true's lower half, pred's upper), so that each step serves both. */
    SCE_AVX_BODY __m128d sce8_norms(const __m256 *u, const __m256 *v, int n) {
        __m256 su = _mm256_setzero_ps(), sv = _mm256_setzero_ps();
        __m256 low, high, head, pairs, quads, parts;
        __m256d true_parts, pred_parts, even, odd;
        __m128d sums;
        int n_wide = n - n % 8, j;
        if (n >= 8) {
            su = u[0];
            sv = v[0];
        }
        if (n >= 16) {
            su = su + u[1];
            sv = sv + v[1];
        }
        low = _mm256_permute2f128_ps(su, sv, 0x20);  /* s0 .. s3 of true, of pred */
        high = _mm256_permute2f128_ps(su, sv, 0x31); /* s4 .. s7 */
        head = low;
        for (j = n_wide; j < n; j++)
            head = head + sce8_lane(u[j / 8], v[j / 8], j % 8);
        pairs = low + _mm256_permute_ps(low, 0xB1);  /* lane 2: s2 + s3 */
        quads = high + _mm256_permute_ps(high, 0xB1);
        quads = quads + _mm256_permute_ps(quads, 0x4E);  /* lane 0: (s4 + s5) + (s6 + s7) */
        parts = _mm256_blend_ps(head, low, 0x22);     /* s0, s1, */
        parts = _mm256_blend_ps(parts, pairs, 0x44);  /* s2 + s3, */
        parts = _mm256_blend_ps(parts, _mm256_permute_ps(quads, 0x00), 0x88); /* the rest */
        true_parts = _mm256_cvtps_pd(_mm256_castps256_ps128(parts));
        pred_parts = _mm256_cvtps_pd(_mm256_extractf128_ps(parts, 1));
        even = _mm256_unpacklo_pd(true_parts, pred_parts); /* part 0 and 2 of each */
        odd = _mm256_unpackhi_pd(true_parts, pred_parts);  /* part 1 and 3 */
        sums = _mm256_castpd256_pd128(even) + _mm256_castpd256_pd128(odd);
        sums = sums + _mm256_extractf128_pd(even, 1);
        return sums + _mm256_extractf128_pd(odd, 1);
    }

    /* a row's parts (as sce_small_row_float): its factor w / s (-1 where a check fails),
       its common mass added to diag, its scaled deficit in float64 to deficit_out (a value
       each SCE_SMALL8_BLOCK doubles: the block's deficits are stored class by class) and
       its excess to excess_out (4 * ND values) */
    SCE_AVX_BODY double sce8_row(const float *SCE_RESTRICT true_row,
            const float *SCE_RESTRICT pred_row, int true_fast, int pred_fast, int n,
            double multiplier, int norm_weighting, double low, double norm_limit,
            double smallest, double largest, double tolerance, __m256 keep,
            __m256d *SCE_RESTRICT diag, double *SCE_RESTRICT deficit_out,
            double *SCE_RESTRICT excess_out) {
        const int NV = (n + 7) / 8, ND = (n + 3) / 4;
        __m256 u[2], v[2], common[2], deficit[2], excess[2], ratio, row_scale, negative;
        __m256 mass;
        __m256d scale_wide;
        __m128d norms;
        double true_norm, pred_norm, weight, scale, deficit_mass_wide;
        float deficit_mass, row_factor;
        int w;
        negative = _mm256_setzero_ps();
        for (w = 0; w < NV; w++) {
            u[w] = sce8_load(true_row, true_fast, n, w, keep);
            v[w] = sce8_load(pred_row, pred_fast, n, w, keep);
            negative = _mm256_or_ps(negative, _mm256_or_ps(
                _mm256_cmp_ps(u[w], _mm256_setzero_ps(), _CMP_LT_OQ),
                _mm256_cmp_ps(v[w], _mm256_setzero_ps(), _CMP_LT_OQ)));
        }
        if (_mm256_movemask_ps(negative))
            return -1.0;
        norms = sce8_norms(u, v, n);
        true_norm = _mm_cvtsd_f64(norms);
        pred_norm = _mm_cvtsd_f64(_mm_unpackhi_pd(norms, norms));
        if (!(isfinite(true_norm) && isfinite(pred_norm) && low <= true_norm
              && true_norm <= norm_limit && low <= pred_norm && pred_norm <= norm_limit))
            return -1.0;
        weight = multiplier;
        if (norm_weighting == 1)
            weight = weight * true_norm;
        else if (norm_weighting == 2)
            weight = weight * pred_norm;
        if (!(weight == 0 || (smallest <= weight && weight <= largest)))
            return -1.0;
        scale = weight / true_norm;
        ratio = _mm256_set1_ps((float)(true_norm / pred_norm));
        mass = _mm256_setzero_ps();
        for (w = 0; w < NV; w++) {
            v[w] = _mm256_mul_ps(v[w], ratio);
            common[w] = _mm256_min_ps(u[w], v[w]); /* u < v ? u : v, as soft_plan_parts */
            deficit[w] = _mm256_sub_ps(u[w], common[w]);
            excess[w] = _mm256_sub_ps(v[w], common[w]);
            mass = _mm256_add_ps(mass, deficit[w]);
        }
        /* the deficit's mass: a tree of lanes (within rounding of the sum in turn) */
        {
            __m128 m = _mm_add_ps(_mm256_castps256_ps128(mass), _mm256_extractf128_ps(mass, 1));
            m = _mm_add_ps(m, _mm_movehl_ps(m, m));
            m = _mm_add_ss(m, _mm_shuffle_ps(m, m, 1));
            deficit_mass = _mm_cvtss_f32(m);
        }
        deficit_mass_wide = deficit_mass;
        row_factor = deficit_mass_wide > tolerance * true_norm
            ? (float)(scale / deficit_mass_wide) : 0.0f;
        row_scale = _mm256_set1_ps(row_factor);
        scale_wide = _mm256_set1_pd(scale);
        for (w = 0; w < ND; w++) {
            __m128 c = (w & 1) ? _mm256_extractf128_ps(common[w / 2], 1)
                               : _mm256_castps256_ps128(common[w / 2]);
            __m128 e = (w & 1) ? _mm256_extractf128_ps(excess[w / 2], 1)
                               : _mm256_castps256_ps128(excess[w / 2]);
            __m256 d8 = _mm256_mul_ps(deficit[w / 2], row_scale);
            __m128 d = (w & 1) ? _mm256_extractf128_ps(d8, 1) : _mm256_castps256_ps128(d8);
            diag[w] = _mm256_add_pd(diag[w], _mm256_mul_pd(scale_wide, _mm256_cvtps_pd(c)));
            {
                double lanes[4];
                int k;
                _mm256_storeu_pd(lanes, _mm256_cvtps_pd(d));
                for (k = 0; k < 4; k++)
                    deficit_out[(4 * w + k) * SCE_SMALL8_BLOCK] = lanes[k];
            }
            _mm256_store_pd(excess_out + 4 * w, _mm256_cvtps_pd(e));
        }
        return scale;
    }

    /* the outer products of a block's rows added to acc (n x 4 ND): deficits class by
       class (SCE_SMALL8_BLOCK doubles apart), excesses row by row (16 doubles apart),
       group by group of G classes of the deficit */
    SCE_AVX_BODY void sce8_outer(const double *SCE_RESTRICT deficits,
                                 const double *SCE_RESTRICT excesses, int rows, int n,
                                 double *SCE_RESTRICT acc) {
        const int ND = (n + 3) / 4, G = ND == 1 ? 12 : ND == 2 ? 6 : ND == 3 ? 3 : 2;
        int j0, j, w, r;
        for (j0 = 0; j0 < n; j0 += G) {
            __m256d sums[12];
            for (j = 0; j < G; j++)
                for (w = 0; w < ND; w++)
                    if (j0 + j < n)
                        sums[j * ND + w] = _mm256_load_pd(acc + (j0 + j) * 16 + 4 * w);
            for (r = 0; r < rows; r++) {
                __m256d e[4];
                for (w = 0; w < ND; w++)
                    e[w] = _mm256_load_pd(excesses + 16 * r + 4 * w);
                for (j = 0; j < G; j++)
                    if (j0 + j < n) {
                        __m256d d = _mm256_broadcast_sd(
                            deficits + (j0 + j) * SCE_SMALL8_BLOCK + r);
                        for (w = 0; w < ND; w++)
                            sums[j * ND + w] = _mm256_fmadd_pd(d, e[w], sums[j * ND + w]);
                    }
            }
            for (j = 0; j < G; j++)
                for (w = 0; w < ND; w++)
                    if (j0 + j < n)
                        _mm256_store_pd(acc + (j0 + j) * 16 + 4 * w, sums[j * ND + w]);
        }
    }

    /* Eight rows at once (sce8_rows8): the rows' values turned column by column into vectors
       whose lanes are the rows (an 8 x 8 transpose), so that each step of a row's parts,
       its sums, checks and three divisions included, serves eight rows; the parts turned
       back into rows for the diagonal's sums (in the rows' order) and the outer products.
       Each lane runs the operations of sce8_row on its row in the same order: the same
       values to the last bit. */
    SCE_AVX_BODY void sce8_transpose(__m256 *x) {
        __m256 t0 = _mm256_unpacklo_ps(x[0], x[1]), t1 = _mm256_unpackhi_ps(x[0], x[1]);
        __m256 t2 = _mm256_unpacklo_ps(x[2], x[3]), t3 = _mm256_unpackhi_ps(x[2], x[3]);
        __m256 t4 = _mm256_unpacklo_ps(x[4], x[5]), t5 = _mm256_unpackhi_ps(x[4], x[5]);
        __m256 t6 = _mm256_unpacklo_ps(x[6], x[7]), t7 = _mm256_unpackhi_ps(x[6], x[7]);
        __m256 q0 = _mm256_shuffle_ps(t0, t2, 0x44), q1 = _mm256_shuffle_ps(t0, t2, 0xEE);
        __m256 q2 = _mm256_shuffle_ps(t1, t3, 0x44), q3 = _mm256_shuffle_ps(t1, t3, 0xEE);
        __m256 q4 = _mm256_shuffle_ps(t4, t6, 0x44), q5 = _mm256_shuffle_ps(t4, t6, 0xEE);
        __m256 q6 = _mm256_shuffle_ps(t5, t7, 0x44), q7 = _mm256_shuffle_ps(t5, t7, 0xEE);
        x[0] = _mm256_permute2f128_ps(q0, q4, 0x20);
        x[1] = _mm256_permute2f128_ps(q1, q5, 0x20);
        x[2] = _mm256_permute2f128_ps(q2, q6, 0x20);
        x[3] = _mm256_permute2f128_ps(q3, q7, 0x20);
        x[4] = _mm256_permute2f128_ps(q0, q4, 0x31);
        x[5] = _mm256_permute2f128_ps(q1, q5, 0x31);
        x[6] = _mm256_permute2f128_ps(q2, q6, 0x31);
        x[7] = _mm256_permute2f128_ps(q3, q7, 0x31);
    }

    /* the norms of eight rows (column c of them in x[c], a lane a row) as sce8_norms takes
       each: lanes 0 .. 3 in low, 4 .. 7 in high */
    SCE_AVX_BODY void sce8_norms8(const __m256 *x, int n, __m256d *low, __m256d *high) {
        const int n_wide = n - n % 8;
        __m256 s[8], head, pairs, quads;
        int k, j;
        for (k = 0; k < 8; k++) {
            s[k] = _mm256_setzero_ps();
            if (n_wide >= 8)
                s[k] = x[k];
            if (n_wide >= 16)
                s[k] = s[k] + x[8 + k];
        }
        head = s[0];
        for (j = n_wide; j < n; j++)
            head = head + x[j];
        pairs = s[2] + s[3];
        quads = (s[4] + s[5]) + (s[6] + s[7]);
    #define SCE8_NORM_HALF(OUT, PART) \
        OUT = ((_mm256_cvtps_pd(PART(head)) + _mm256_cvtps_pd(PART(s[1]))) \
               + _mm256_cvtps_pd(PART(pairs))) + _mm256_cvtps_pd(PART(quads));
    #define SCE8_LOW(v) _mm256_castps256_ps128(v)
    #define SCE8_HIGH(v) _mm256_extractf128_ps(v, 1)
        SCE8_NORM_HALF(*low, SCE8_LOW)
        SCE8_NORM_HALF(*high, SCE8_HIGH)
    #undef SCE8_NORM_HALF
    }

    /* 1 where each lane of a pair of norm vectors passes sce8_row's checks */
    SCE_AVX_BODY int sce8_norms_pass(__m256d t, __m256d p, __m256d low, __m256d limit) {
        const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
        const __m256d infinity = _mm256_set1_pd(INFINITY);
        __m256d ok = _mm256_and_pd(
            _mm256_cmp_pd(_mm256_and_pd(t, magnitude), infinity, _CMP_LT_OQ),
            _mm256_cmp_pd(_mm256_and_pd(p, magnitude), infinity, _CMP_LT_OQ));
        ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(low, t, _CMP_LE_OQ),
                                             _mm256_cmp_pd(t, limit, _CMP_LE_OQ)));
        ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(low, p, _CMP_LE_OQ),
                                             _mm256_cmp_pd(p, limit, _CMP_LE_OQ)));
        return _mm256_movemask_pd(ok) == 15;
    }

    /* the weight checks of four lanes: 1 where each weight is 0 or in [smallest, largest] */
    SCE_AVX_BODY int sce8_weights_pass(__m256d weight, __m256d smallest, __m256d largest) {
        __m256d ok = _mm256_or_pd(
            _mm256_cmp_pd(weight, _mm256_setzero_pd(), _CMP_EQ_OQ),
            _mm256_and_pd(_mm256_cmp_pd(smallest, weight, _CMP_LE_OQ),
                          _mm256_cmp_pd(weight, largest, _CMP_LE_OQ)));
        return _mm256_movemask_pd(ok) == 15;
    }

    /* the factor of four lanes: (float)(scale / mass) where mass > tolerance * norm, else 0 */
    SCE_AVX_BODY __m128 sce8_row_factor(__m256d scale, __m128 mass, __m256d tolerance,
                                        __m256d norm) {
        __m256d wide = _mm256_cvtps_pd(mass);
        __m256d keep = _mm256_cmp_pd(wide, _mm256_mul_pd(tolerance, norm), _CMP_GT_OQ);
        return _mm256_cvtpd_ps(_mm256_and_pd(keep, _mm256_div_pd(scale, wide)));
    }

    /* Rows i .. i + 7 (each with fast loads) as eight calls of sce8_row would take them:
       returns 1 and adds their common masses to diag and writes their deficits and excesses
       (rows 16 doubles apart) where every row passes its checks; returns 0, having changed
       nothing, where one does not (sce8_row then takes the rows one by one). */
    SCE_AVX_BODY int sce8_rows8(const float *SCE_RESTRICT y_true, Py_ssize_t true_stride,
            const float *SCE_RESTRICT y_pred, Py_ssize_t pred_stride, Py_ssize_t i, int n,
            const double *SCE_RESTRICT multipliers, int norm_weighting, double low,
            double norm_limit, double smallest, double largest, double tolerance, __m256 keep,
            __m256d *SCE_RESTRICT diag, double *SCE_RESTRICT deficit_out,
            double *SCE_RESTRICT excess_out) {
        const int NV = (n + 7) / 8, ND = (n + 3) / 4;
        __m256 u[16], v[16], common[16], negative = _mm256_setzero_ps(), ratio, mass[8], row_scale;
        __m256d true_low, true_high, pred_low, pred_high, weight_low, weight_high;
        __m256d scale_low, scale_high, limit = _mm256_set1_pd(norm_limit);
        __m256d low_v = _mm256_set1_pd(low), tolerance_v = _mm256_set1_pd(tolerance);
        __m256d sums[4];
        double scales[8];
        int r, w, c, k;
        for (r = 0; r < 8; r++) {
            const float *true_row = y_true + (i + r) * true_stride;
            const float *pred_row = y_pred + (i + r) * pred_stride;
            for (w = 0; w < NV; w++) {
                u[8 * w + r] = sce8_load(true_row, 1, n, w, keep);
                v[8 * w + r] = sce8_load(pred_row, 1, n, w, keep);
                negative = _mm256_or_ps(negative, _mm256_or_ps(
                    _mm256_cmp_ps(u[8 * w + r], _mm256_setzero_ps(), _CMP_LT_OQ),
                    _mm256_cmp_ps(v[8 * w + r], _mm256_setzero_ps(), _CMP_LT_OQ)));
            }
        }
        if (_mm256_movemask_ps(negative))
            return 0;
        for (w = 0; w < NV; w++) { /* u[c], v[c]: column c of the eight rows */
            sce8_transpose(u + 8 * w);
            sce8_transpose(v + 8 * w);
        }
        sce8_norms8(u, n, &true_low, &true_high);
        sce8_norms8(v, n, &pred_low, &pred_high);
        if (!(sce8_norms_pass(true_low, pred_low, low_v, limit)
              && sce8_norms_pass(true_high, pred_high, low_v, limit)))
            return 0;
        if (multipliers) {
            weight_low = _mm256_loadu_pd(multipliers + i);
            weight_high = _mm256_loadu_pd(multipliers + i + 4);
        } else {
            weight_low = weight_high = _mm256_set1_pd(1.0);
        }
        if (norm_weighting == 1) {
            weight_low = _mm256_mul_pd(weight_low, true_low);
            weight_high = _mm256_mul_pd(weight_high, true_high);
        } else if (norm_weighting == 2) {
            weight_low = _mm256_mul_pd(weight_low, pred_low);
            weight_high = _mm256_mul_pd(weight_high, pred_high);
        }
        {
            __m256d smallest_v = _mm256_set1_pd(smallest), largest_v = _mm256_set1_pd(largest);
            if (!(sce8_weights_pass(weight_low, smallest_v, largest_v)
                  && sce8_weights_pass(weight_high, smallest_v, largest_v)))
                return 0;
        }
        scale_low = _mm256_div_pd(weight_low, true_low);
        scale_high = _mm256_div_pd(weight_high, true_high);
        ratio = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_div_pd(true_high, pred_high)),
                                _mm256_cvtpd_ps(_mm256_div_pd(true_low, pred_low)));
        for (k = 0; k < 8; k++)
            mass[k] = _mm256_setzero_ps();
        for (c = n; c < 8 * NV; c++) /* the lanes past the rows' ends are zero */
            common[c] = u[c] = v[c] = _mm256_setzero_ps();
        for (c = 0; c < n; c++) { /* common[c]; u[c] becomes the deficit, v[c] the excess */
            v[c] = _mm256_mul_ps(v[c], ratio);
            common[c] = _mm256_min_ps(u[c], v[c]); /* u < v ? u : v, as soft_plan_parts */
            u[c] = _mm256_sub_ps(u[c], common[c]);
            v[c] = _mm256_sub_ps(v[c], common[c]);
            mass[c % 8] = _mm256_add_ps(mass[c % 8], u[c]);
        }
        { /* each row's deficit mass, the tree of sce8_row's lanes */
            __m256 total = _mm256_add_ps(
                _mm256_add_ps(_mm256_add_ps(mass[0], mass[4]), _mm256_add_ps(mass[2], mass[6])),
                _mm256_add_ps(_mm256_add_ps(mass[1], mass[5]), _mm256_add_ps(mass[3], mass[7])));
            row_scale = _mm256_set_m128(
                sce8_row_factor(scale_high, _mm256_extractf128_ps(total, 1), tolerance_v,
                                true_high),
                sce8_row_factor(scale_low, _mm256_castps256_ps128(total), tolerance_v,
                                true_low));
        }
        for (c = 0; c < n; c++) { /* the scaled deficits, a column at a time */
            __m256 d = _mm256_mul_ps(u[c], row_scale);
            _mm256_storeu_pd(deficit_out + c * SCE_SMALL8_BLOCK,
                             _mm256_cvtps_pd(_mm256_castps256_ps128(d)));
            _mm256_storeu_pd(deficit_out + c * SCE_SMALL8_BLOCK + 4,
                             _mm256_cvtps_pd(_mm256_extractf128_ps(d, 1)));
        }
        for (w = 0; w < NV; w++) { /* back to rows: x[8 * w + r], row r's vector w */
            sce8_transpose(common + 8 * w);
            sce8_transpose(v + 8 * w);
        }
        _mm256_storeu_pd(scales, scale_low);
        _mm256_storeu_pd(scales + 4, scale_high);
        for (w = 0; w < ND; w++)
            sums[w] = diag[w];
        for (r = 0; r < 8; r++) { /* the diagonal in the rows' order */
            __m256d scale_wide = _mm256_set1_pd(scales[r]);
            for (w = 0; w < ND; w++) {
                const int x = 8 * (w / 2) + r;
                __m128 cw = (w & 1) ? _mm256_extractf128_ps(common[x], 1)
                                    : _mm256_castps256_ps128(common[x]);
                __m128 ew = (w & 1) ? _mm256_extractf128_ps(v[x], 1)
                                    : _mm256_castps256_ps128(v[x]);
                sums[w] = _mm256_add_pd(sums[w], _mm256_mul_pd(scale_wide, _mm256_cvtps_pd(cw)));
                _mm256_store_pd(excess_out + 16 * r + 4 * w, _mm256_cvtps_pd(ew));
            }
        }
        for (w = 0; w < ND; w++)
            diag[w] = sums[w];
        return 1;
    }

    /* the rows in blocks of SCE_SMALL8_BLOCK, eight at once where they allow it */
    SCE_AVX_BODY Py_ssize_t sce_small8(SCE_SMALL_ARGUMENTS(float)) {
        const int NV = (n + 7) / 8, ND = (n + 3) / 4;
        double deficits[SCE_SMALL8_BLOCK * 16] __attribute__((aligned(32)));
        double excesses[SCE_SMALL8_BLOCK * 16] __attribute__((aligned(32)));
        double acc[SCE_SMALL_MAX * 16] __attribute__((aligned(32)));
        __m256d diag[4];
        __m256 keep;
        double low = 1.0 / norm_limit, scale;
        const float *true_end = y_true + (true_stride > 0 ? (n_total - 1) * true_stride : 0) + n;
        const float *pred_end = y_pred + (pred_stride > 0 ? (n_total - 1) * pred_stride : 0) + n;
        /* rows before this one have fast loads in groups of eight (strides not negative) */
        Py_ssize_t eights = stop, i = start, failed = stop;
        int w, j, k, rows;
        {
            int lanes[8];
            for (k = 0; k < 8; k++)
                lanes[k] = 8 * (NV - 1) + k < n ? -1 : 0;
            keep = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)lanes));
        }
        if (true_stride < 0 || pred_stride < 0)
            eights = start;
        else
            while (eights - 8 >= start
                   && !(y_true + (eights - 1) * true_stride + 8 * NV <= true_end
                        && y_pred + (eights - 1) * pred_stride + 8 * NV <= pred_end))
                eights--;
        for (w = 0; w < 4; w++)
            diag[w] = _mm256_setzero_pd();
        for (k = 0; k < SCE_SMALL_MAX * 16; k++)
            acc[k] = 0.0;
        while (i < stop) {
            rows = 0;
            while (rows < SCE_SMALL8_BLOCK && i < stop) {
                const float *true_row = y_true + i * true_stride;
                const float *pred_row = y_pred + i * pred_stride;
                if (rows + 8 <= SCE_SMALL8_BLOCK && i + 8 <= eights
                    && sce8_rows8(y_true, true_stride, y_pred, pred_stride, i, n, multipliers,
                                  norm_weighting, low, norm_limit, smallest, largest, tolerance,
                                  keep, diag, deficits + rows, excesses + 16 * rows)) {
                    rows += 8;
                    i += 8;
                    continue;
                }
                scale = sce8_row(true_row, pred_row, true_row + 8 * NV <= true_end,
                    pred_row + 8 * NV <= pred_end, n, multipliers ? multipliers[i] : 1.0,
                    norm_weighting, low, norm_limit, smallest, largest, tolerance, keep,
                    diag, deficits + rows, excesses + 16 * rows);
                if (scale < 0) {
                    failed = i;
                    break;
                }
                rows++;
                i++;
            }
            sce8_outer(deficits, excesses, rows, n, acc);
            if (failed < stop)
                break;
        }
        for (w = 0; w < ND; w++) {
            double lanes[4];
            _mm256_storeu_pd(lanes, diag[w]);
            for (k = 0; k < 4 && 4 * w + k < n; k++)
                diagonal[4 * w + k] += lanes[k];
        }
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++)
                off_diagonal[j * n + k] += acc[j * 16 + k];
        return failed;
    }

    #define SCE_SMALL8_CASE(K) case K: return sce_small8(y_true, true_stride, y_pred, \
        pred_stride, K, n_total, start, stop, multipliers, norm_weighting, norm_limit, \
        smallest, largest, tolerance, diagonal, off_diagonal);
    __attribute__((target("avx,fma")))
    static Py_ssize_t sce_small8_float_avx(SCE_SMALL_ARGUMENTS(float)) {
        switch (n) {
        SCE_SMALL8_CASE(1) SCE_SMALL8_CASE(2) SCE_SMALL8_CASE(3) SCE_SMALL8_CASE(4)
        SCE_SMALL8_CASE(5) SCE_SMALL8_CASE(6) SCE_SMALL8_CASE(7) SCE_SMALL8_CASE(8)
        SCE_SMALL8_CASE(9) SCE_SMALL8_CASE(10) SCE_SMALL8_CASE(11) SCE_SMALL8_CASE(12)
        SCE_SMALL8_CASE(13) SCE_SMALL8_CASE(14) SCE_SMALL8_CASE(15) SCE_SMALL8_CASE(16)
        default: return start;
        }
    }
    #endif
    #if defined(__GNUC__) && !defined(__clang__)
    #pragma GCC pop_options
    #endif
    #else
    #define SCE_SMALL 0
    #define SCE_SMALL_MAX 0
    #endif

    #if defined(__clang__)
    #pragma STDC FP_CONTRACT OFF
    #elif defined(__GNUC__)
    #pragma GCC push_options
    #pragma GCC optimize("fp-contract=off")
    #endif
    /* soft_plan_parts, in C so that a second copy is compiled for AVX and FMA (8 float
       lanes where the baseline has 4). A row's values lie true_step (pred_step) values
       apart: 1 in C order, more in a column slice or Fortran order, negative in a
       reversed view. The loop is written once (SCE_PARTS_BODY) and is the body of two
       functions of each copy (SCE_PARTS_COPY): one with the literal steps 1, 1 for rows
       of adjacent values, which the compiler packs into vectors as a loop written for
       them alone, one with the given steps for any other layout. (The body as a static
       inline function, called with 1, 1 and with the steps, was tried: its copy for
       adjacent values came out with other registers and ran 4% slower at C = 10 in
       float64; as a function body it compiles to the machine code of the loop for
       adjacent values alone.) Both run the same operations in the same order, the
       diagonal's products not contracted into FMA (the pragmas above), so every layout
       gives the same numbers to the last bit. */
    #define SCE_PARTS_ARGUMENTS(T) const T *SCE_RESTRICT y_true, Py_ssize_t true_stride, \
        const T *SCE_RESTRICT y_pred, Py_ssize_t pred_stride, Py_ssize_t n, \
        Py_ssize_t start, Py_ssize_t stop, const double *SCE_RESTRICT multipliers, \
        int norm_weighting, double norm_limit, double smallest, double largest, \
        double tolerance, T *SCE_RESTRICT deficits, T *SCE_RESTRICT excesses, \
        double *SCE_RESTRICT diagonal
    #define SCE_PARTS_PASS y_true, true_stride, y_pred, pred_stride, n, start, stop, \
        multipliers, norm_weighting, norm_limit, smallest, largest, tolerance, deficits, \
        excesses, diagonal
    #define SCE_PARTS_BODY(T, true_step, pred_step) { \
        Py_ssize_t i, j, k, n_wide = n - n % 8; \
        double low = 1.0 / norm_limit; \
        for (i = start; i < stop; i++) { \
            const T *SCE_RESTRICT true_row = y_true + i * true_stride; \
            const T *SCE_RESTRICT pred_row = y_pred + i * pred_stride; \
            T *SCE_RESTRICT deficit_row = deficits + (i - start) * n; \
            T *SCE_RESTRICT excess_row = excesses + (i - start) * n; \
            T sums[8], pred_sums[8], lowest[8], mass[8], ratio, deficit_mass, row_scale; \
            double true_norm, pred_norm, weight, scale; \
            for (k = 0; k < 8; k++) \
                sums[k] = pred_sums[k] = lowest[k] = mass[k] = 0; \
            /* the rows' sums in eight running sums of T (a vector's lanes), then as a \
               tree in double, and their lowest value */ \
            for (j = 0; j < n_wide; j += 8) \
                for (k = 0; k < 8; k++) { \
                    T u = true_row[(j + k) * true_step], v = pred_row[(j + k) * pred_step]; \
                    sums[k] += u; \
                    pred_sums[k] += v; \
                    lowest[k] = u < lowest[k] ? u : lowest[k]; \
                    lowest[k] = v < lowest[k] ? v : lowest[k]; \
                } \
            for (j = n_wide; j < n; j++) { \
                T u = true_row[j * true_step], v = pred_row[j * pred_step]; \
                sums[0] += u; \
                pred_sums[0] += v; \
                lowest[0] = u < lowest[0] ? u : lowest[0]; \
                lowest[0] = v < lowest[0] ? v : lowest[0]; \
            } \
            for (k = 1; k < 8; k++) \
                lowest[0] = lowest[k] < lowest[0] ? lowest[k] : lowest[0]; \
            if (lowest[0] < 0) /* a negative value fails the row */ \
                return i; \
            true_norm = (((double)sums[0] + sums[1]) + (sums[2] + sums[3])) \
                + ((sums[4] + sums[5]) + (sums[6] + sums[7])); \
            pred_norm = (((double)pred_sums[0] + pred_sums[1]) \
                + (pred_sums[2] + pred_sums[3])) \
                + ((pred_sums[4] + pred_sums[5]) + (pred_sums[6] + pred_sums[7])); \
            if (!(isfinite(true_norm) && isfinite(pred_norm) && low <= true_norm \
                  && true_norm <= norm_limit && low <= pred_norm && pred_norm <= norm_limit)) \
                return i; \
            weight = multipliers ? multipliers[i] : 1.0; \
            if (norm_weighting == 1) \
                weight = weight * true_norm; \
            else if (norm_weighting == 2) \
                weight = weight * pred_norm; \
            if (!(weight == 0 || (smallest <= weight && weight <= largest))) /* NaN fails */ \
                return i; \
            scale = weight / true_norm; \
            ratio = (T)(true_norm / pred_norm); \
            for (j = 0; j < n; j++) { \
                T u = true_row[j * true_step], v = pred_row[j * pred_step] * ratio; \
                T common = u < v ? u : v; \
                deficit_row[j] = u - common; \
                excess_row[j] = v - common; \
                diagonal[j] += scale * common; \
            } \
            /* the deficit's mass apart, in eight running sums: summed in turn in the loop \
               above, its chain of additions (one a class) took most of the loop's time */ \
            for (j = 0; j < n_wide; j += 8) \
                for (k = 0; k < 8; k++) \
                    mass[k] += deficit_row[j + k]; \
            for (j = n_wide; j < n; j++) \
                mass[0] += deficit_row[j]; \
            deficit_mass = ((mass[0] + mass[1]) + (mass[2] + mass[3])) \
                + ((mass[4] + mass[5]) + (mass[6] + mass[7])); \
            row_scale = deficit_mass > tolerance * true_norm ? (T)(scale / deficit_mass) : 0; \
            for (j = 0; j < n; j++) \
                deficit_row[j] *= row_scale; \
        } \
        return stop; \
    }
    #define SCE_PARTS_COPY(T, S, ATTRIBUTE, SUFFIX) \
    ATTRIBUTE static Py_ssize_t sce_parts_##S##_adjacent##SUFFIX(SCE_PARTS_ARGUMENTS(T)) \
        SCE_PARTS_BODY(T, 1, 1) \
    ATTRIBUTE static Py_ssize_t sce_parts_##S##_strided##SUFFIX(SCE_PARTS_ARGUMENTS(T), \
                                                             Py_ssize_t true_step, \
                                                             Py_ssize_t pred_step) \
        SCE_PARTS_BODY(T, true_step, pred_step)
    SCE_PARTS_COPY(double, double, , _baseline)
    SCE_PARTS_COPY(float, float, , _baseline)
    #ifdef SCE_X86_DISPATCH
    SCE_PARTS_COPY(double, double, __attribute__((target("avx,fma"))), _avx)
    SCE_PARTS_COPY(float, float, __attribute__((target("avx,fma"))), _avx)
    #endif
    static Py_ssize_t sce_soft_parts_double(SCE_PARTS_ARGUMENTS(double),
                                            Py_ssize_t true_step, Py_ssize_t pred_step,
                                            int extensions) {
        int adjacent = true_step == 1 && pred_step == 1;
    #ifdef SCE_X86_DISPATCH
        if (sce_avx_fma && extensions)
            return adjacent ? sce_parts_double_adjacent_avx(SCE_PARTS_PASS)
                : sce_parts_double_strided_avx(SCE_PARTS_PASS, true_step, pred_step);
    #endif
        return adjacent ? sce_parts_double_adjacent_baseline(SCE_PARTS_PASS)
            : sce_parts_double_strided_baseline(SCE_PARTS_PASS, true_step, pred_step);
    }
    static Py_ssize_t sce_soft_parts_float(SCE_PARTS_ARGUMENTS(float),
                                           Py_ssize_t true_step, Py_ssize_t pred_step,
                                           int extensions) {
        int adjacent = true_step == 1 && pred_step == 1;
    #ifdef SCE_X86_DISPATCH
        if (sce_avx_fma && extensions)
            return adjacent ? sce_parts_float_adjacent_avx(SCE_PARTS_PASS)
                : sce_parts_float_strided_avx(SCE_PARTS_PASS, true_step, pred_step);
    #endif
        return adjacent ? sce_parts_float_adjacent_baseline(SCE_PARTS_PASS)
            : sce_parts_float_strided_baseline(SCE_PARTS_PASS, true_step, pred_step);
    }
    #if defined(__GNUC__) && !defined(__clang__)
    #pragma GCC pop_options
    #endif

    /* 0 where the kernel does not exist here (no vector extensions: the caller takes
       soft_plan_parts); else the first row left (stop where none). */
    static int sce_small_available(void) { return SCE_SMALL; }
    static Py_ssize_t sce_soft_small_double(const double *y_true, Py_ssize_t true_stride,
        const double *y_pred, Py_ssize_t pred_stride, Py_ssize_t n, Py_ssize_t n_total,
        Py_ssize_t start, Py_ssize_t stop, const double *multipliers, int norm_weighting,
        double norm_limit, double smallest, double largest, double tolerance,
        double *diagonal, double *off_diagonal, int extensions) {
    #if SCE_SMALL
    #ifdef SCE_X86_DISPATCH
        if (sce_avx_fma && extensions)
            return sce_small_double_avx(SCE_SMALL_PASS);
    #endif
        return sce_small_double_baseline(SCE_SMALL_PASS);
    #else
        return start;
    #endif
    }
    static Py_ssize_t sce_soft_small_float(const float *y_true, Py_ssize_t true_stride,
        const float *y_pred, Py_ssize_t pred_stride, Py_ssize_t n, Py_ssize_t n_total,
        Py_ssize_t start, Py_ssize_t stop, const double *multipliers, int norm_weighting,
        double norm_limit, double smallest, double largest, double tolerance,
        double *diagonal, double *off_diagonal, int extensions) {
    #if SCE_SMALL
    #ifdef SCE_X86_DISPATCH
        if (sce_avx_fma && extensions)
            return sce_small8_float_avx(SCE_SMALL_PASS);
    #endif
        return sce_small_float_baseline(SCE_SMALL_PASS);
    #else
        return start;
    #endif
    }
    """
    void sce_init_dispatch()
    int sce_avx_fma
    Py_ssize_t sce_sum_rows_double(
        const double *scores, Py_ssize_t row_stride, Py_ssize_t n, const void *codes,
        int wide_codes, Py_ssize_t start, Py_ssize_t stop, const double *multipliers,
        int by_norm, double norm_limit, double smallest, double largest, double tolerance,
        double *out, Py_ssize_t *off_row, double *off_sum) noexcept nogil
    Py_ssize_t sce_sum_rows_float(
        const float *scores, Py_ssize_t row_stride, Py_ssize_t n, const void *codes,
        int wide_codes, Py_ssize_t start, Py_ssize_t stop, const double *multipliers,
        int by_norm, double norm_limit, double smallest, double largest, double tolerance,
        double *out, Py_ssize_t *off_row, double *off_sum) noexcept nogil

    int sce_small_available()
    Py_ssize_t sce_soft_small_double(
        const double *y_true, Py_ssize_t true_stride, const double *y_pred,
        Py_ssize_t pred_stride, Py_ssize_t n, Py_ssize_t n_total, Py_ssize_t start,
        Py_ssize_t stop, const double *multipliers, int norm_weighting, double norm_limit,
        double smallest, double largest, double tolerance, double *diagonal,
        double *off_diagonal, int extensions) noexcept nogil
    Py_ssize_t sce_soft_small_float(
        const float *y_true, Py_ssize_t true_stride, const float *y_pred,
        Py_ssize_t pred_stride, Py_ssize_t n, Py_ssize_t n_total, Py_ssize_t start,
        Py_ssize_t stop, const double *multipliers, int norm_weighting, double norm_limit,
        double smallest, double largest, double tolerance, double *diagonal,
        double *off_diagonal, int extensions) noexcept nogil
    int SCE_SMALL_MAX
    Py_ssize_t sce_soft_parts_double(
        const double *y_true, Py_ssize_t true_stride, const double *y_pred,
        Py_ssize_t pred_stride, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
        const double *multipliers, int norm_weighting, double norm_limit, double smallest,
        double largest, double tolerance, double *deficits, double *excesses,
        double *diagonal, Py_ssize_t true_step, Py_ssize_t pred_step,
        int extensions) noexcept nogil
    Py_ssize_t sce_soft_parts_float(
        const float *y_true, Py_ssize_t true_stride, const float *y_pred,
        Py_ssize_t pred_stride, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
        const double *multipliers, int norm_weighting, double norm_limit, double smallest,
        double largest, double tolerance, float *deficits, float *excesses,
        double *diagonal, Py_ssize_t true_step, Py_ssize_t pred_step,
        int extensions) noexcept nogil

sce_init_dispatch()
# Whether the kernel of labels beside scores runs its AVX and FMA copy (x86 only).
VECTOR_EXTENSIONS = "avx,fma" if sce_avx_fma else "baseline"
# The most classes :func:`soft_plan_sums_small` takes (0: it was compiled without vector
# extensions, and soft rows take :func:`soft_plan_parts` at every size).
SMALL_CLASSES = SCE_SMALL_MAX if sce_small_available() else 0


def sum_rows_by_class(const floating[:, :] scores, const code_type[::1] codes,
                      Py_ssize_t start, Py_ssize_t stop, const double[::1] multipliers,
                      bint by_norm, double norm_limit, double smallest, double largest,
                      double tolerance, double[:, ::1] out):
    """Add each row ``i`` of ``scores[start:stop]``, times ``w_i / s_i``, to row
    ``codes[i]`` of ``out``, where ``s_i`` is the row's sum and the weight ``w_i`` is
    ``multipliers[i]`` (1 where ``multipliers`` is empty), times ``s_i`` where ``by_norm``.

    The row's checks are part of the same pass: a row is summed only where its values are
    finite and non-negative, its sum lies in ``[1 / norm_limit, norm_limit]`` and its weight
    is zero or in ``[smallest, largest]``. The first row that fails stops the pass. Returns
    ``(stop_row, off_row, off_sum)``: the index of that row (``stop`` where every row
    passed; the rows before it are summed), and the first summed row whose sum is more
    than ``tolerance`` from 1 (the probability check) with its sum (-1 and NaN where
    none). Row sums are taken in the rows' type with eight accumulators; ``out`` in
    float64. Rows of adjacent values (C order, or a slice of rows) run the C kernel
    above (no per-row working memory: nothing is written but ``out``); other strides
    the loop below.

    The C kernel reads each row once: row ``i + 1``'s checked sum runs in the same loop
    as row ``i``'s scaled addition to ``out`` (the rows in turn, so each row of ``out``
    takes its rows in their order). No scratch is allocated.
    """
    cdef Py_ssize_t first_failed = stop, off_row = -1
    cdef Py_ssize_t step = scores.strides[1] // sizeof(floating)
    cdef double off_sum = float("nan")
    cdef const double *factors = &multipliers[0] if multipliers.shape[0] > 0 else NULL
    if stop <= start:
        return stop, off_row, off_sum
    with nogil:
        if step == 1 or scores.shape[1] == 1:
            if floating is double:
                first_failed = sce_sum_rows_double(
                    &scores[0, 0], scores.strides[0] // sizeof(double), scores.shape[1],
                    <const void *>&codes[0], code_type is not int, start, stop, factors,
                    by_norm, norm_limit, smallest, largest, tolerance, &out[0, 0],
                    &off_row, &off_sum)
            else:
                first_failed = sce_sum_rows_float(
                    &scores[0, 0], scores.strides[0] // sizeof(float), scores.shape[1],
                    <const void *>&codes[0], code_type is not int, start, stop, factors,
                    by_norm, norm_limit, smallest, largest, tolerance, &out[0, 0],
                    &off_row, &off_sum)
        else:
            first_failed = _sum_rows_by_class(scores, codes, start, stop, multipliers,
                                              by_norm, norm_limit, smallest, largest,
                                              tolerance, out, &off_row, &off_sum)
    return first_failed, off_row, off_sum


cdef Py_ssize_t _sum_rows_by_class(
        const floating[:, :] scores, const code_type[::1] codes, Py_ssize_t start,
        Py_ssize_t stop, const double[::1] multipliers, bint by_norm, double norm_limit,
        double smallest, double largest, double tolerance, double[:, ::1] out,
        Py_ssize_t *off_row, double *off_sum) noexcept nogil:
    """:func:`sum_rows_by_class` of rows whose values are not adjacent (Fortran order)."""
    cdef Py_ssize_t n_columns = scores.shape[1], i, j
    cdef Py_ssize_t step = scores.strides[1] // sizeof(floating)
    cdef bint weighted = multipliers.shape[0] > 0
    cdef double norm, weight, scale, low = 1.0 / norm_limit
    cdef const floating *row
    cdef double *target
    for i in range(start, stop):
        row = &scores[i, 0]
        norm = _checked_sum(row, n_columns, step)  # -1 where a value is negative
        if not (isfinite(norm) and low <= norm <= norm_limit):
            return i
        weight = multipliers[i] if weighted else 1.0
        if by_norm:
            weight = weight * norm
        if not (weight == 0 or smallest <= weight <= largest):  # NaN fails too
            return i
        if off_row[0] < 0 and fabs(norm - 1.0) > tolerance:
            off_row[0], off_sum[0] = i, norm
        scale = weight / norm
        target = &out[codes[i], 0]
        for j in range(n_columns):
            target[j] += scale * row[j * step]
    return stop


def soft_plan_parts(const floating[:, :] y_true, const floating[:, :] y_pred,
                    Py_ssize_t start, Py_ssize_t stop, const double[::1] multipliers,
                    int norm_weighting, double norm_limit, double smallest, double largest,
                    double deficit_tolerance, floating[:, ::1] deficits,
                    floating[:, ::1] excesses, double[::1] diagonal, bint extensions=True):
    """The transport plans of soft rows ``start:stop`` (equation 8), but their outer
    products: the caller sums ``deficits.T @ excesses`` (one matrix product).

    Row ``i`` of ``y_pred`` is scaled to the mass of ``y_true``'s, ``s_i``; the common mass
    ``min(u, v)`` times ``w_i / s_i`` is added to ``diagonal``, and row ``i - start`` of
    ``excesses`` receives the excess ``v - min(u, v)`` and of ``deficits`` the deficit
    ``u - min(u, v)`` times ``w_i / s_i`` over its mass (zero where that mass is rounding
    noise, below ``deficit_tolerance * s_i``). The weight ``w_i`` is ``multipliers[i]`` (1
    where it is empty) times ``s_i`` (``norm_weighting`` 1), the mass of ``y_pred``'s row
    (2) or 1 (0). The checks of :func:`sum_rows_by_class` come first, on both rows; the
    first row that fails stops the pass and is returned (``stop`` where none did).

    Rows of any strides (C or Fortran order, slices, reversed views, one side of each) run
    the one C loop above, on x86 its AVX and FMA copy where ``extensions`` (the default;
    False the baseline copy); rows of adjacent values take its copy for a step of one,
    which the compiler packs into vectors: the same numbers to the last bit on every
    layout. Arguments of shapes that do not fit together raise ``ValueError``.
    """
    cdef Py_ssize_t first_failed, n = y_true.shape[1], size = sizeof(floating)
    cdef Py_ssize_t true_step, pred_step
    cdef const double *factors = &multipliers[0] if multipliers.shape[0] > 0 else NULL
    _check_plan_parts_shapes(y_true.shape[0], n, y_pred.shape[0], y_pred.shape[1], start,
                             stop, multipliers.shape[0], deficits.shape[0], deficits.shape[1],
                             excesses.shape[0], excesses.shape[1], diagonal.shape[0])
    if stop <= start:
        return stop
    if (y_true.strides[0] % size or y_true.strides[1] % size or y_pred.strides[0] % size
            or y_pred.strides[1] % size):
        raise ValueError("soft_plan_parts reads rows whose strides are whole values; got "
                         f"{(y_true.strides[0], y_true.strides[1])} and "
                         f"{(y_pred.strides[0], y_pred.strides[1])} "
                         f"bytes for values of {size}.")
    # a row of one value has no step (any stride reads it): the loop for adjacent values
    true_step = y_true.strides[1] // size if n > 1 else 1
    pred_step = y_pred.strides[1] // size if n > 1 else 1
    with nogil:
        if floating is double:
            first_failed = sce_soft_parts_double(
                &y_true[0, 0], y_true.strides[0] // size, &y_pred[0, 0],
                y_pred.strides[0] // size, n, start, stop, factors, norm_weighting,
                norm_limit, smallest, largest, deficit_tolerance, &deficits[0, 0],
                &excesses[0, 0], &diagonal[0], true_step, pred_step, extensions)
        else:
            first_failed = sce_soft_parts_float(
                &y_true[0, 0], y_true.strides[0] // size, &y_pred[0, 0],
                y_pred.strides[0] // size, n, start, stop, factors, norm_weighting,
                norm_limit, smallest, largest, deficit_tolerance, &deficits[0, 0],
                &excesses[0, 0], &diagonal[0], true_step, pred_step, extensions)
    return first_failed


cdef _check_plan_parts_shapes(Py_ssize_t n_rows, Py_ssize_t n, Py_ssize_t pred_rows,
                              Py_ssize_t pred_n, Py_ssize_t start, Py_ssize_t stop,
                              Py_ssize_t n_multipliers, Py_ssize_t deficit_rows,
                              Py_ssize_t deficit_n, Py_ssize_t excess_rows,
                              Py_ssize_t excess_n, Py_ssize_t diagonal_n):
    """Raise ``ValueError`` where the arguments of :func:`soft_plan_parts` do not fit
    together: the loop reads and writes them without bounds checks."""
    cdef Py_ssize_t rows = stop - start if stop > start else 0
    problems = []
    if (pred_rows, pred_n) != (n_rows, n):
        problems.append(f"y_pred of shape {(pred_rows, pred_n)} beside y_true of shape "
                        f"{(n_rows, n)} (expected the same)")
    if rows and not 0 <= start < stop <= n_rows:
        problems.append(f"rows {start}:{stop} of {n_rows}")
    if rows and n_multipliers and n_multipliers < stop:
        problems.append(f"{n_multipliers} multipliers for rows up to {stop} (expected none "
                        "or one a row)")
    for name, shape in (("deficits", (deficit_rows, deficit_n)),
                        ("excesses", (excess_rows, excess_n))):
        if shape[1] != n or shape[0] < rows:
            problems.append(f"{name} of shape {shape} (expected at least {rows} rows of {n})")
    if diagonal_n != n:
        problems.append(f"diagonal of length {diagonal_n} (expected {n})")
    if problems:
        raise ValueError("soft_plan_parts got " + "; ".join(problems) + ".")


def soft_plan_sums_small(const floating[:, :] y_true, const floating[:, :] y_pred,
                         Py_ssize_t start, Py_ssize_t stop, const double[::1] multipliers,
                         int norm_weighting, double norm_limit, double smallest,
                         double largest, double deficit_tolerance, double[::1] diagonal,
                         double[:, ::1] off_diagonal, bint extensions=True):
    """:func:`soft_plan_parts` and the chunk's product ``deficits.T @ excesses`` in one
    pass, for rows of at most :data:`SMALL_CLASSES` adjacent values (a C-order array or a
    slice of rows of one): the plans of rows ``start:stop`` are added to ``diagonal`` and
    ``off_diagonal`` (float64, also for float32 rows). Each row is held in a few vectors
    and its outer product added to running sums that stay in the L1 cache (see the C
    kernels above; float32 rows on x86 with AVX and FMA: 8-lane vectors, eight rows at
    once in their lanes, and the outer products of blocks of 32 rows added group by group
    of classes). The checks, the weights and the diagonal's sums are those of
    :func:`soft_plan_parts` (the same to the last bit); the off-diagonal adds the same
    products in the order of the rows, in float64, where the matrix product's order was
    BLAS's. Returns the first row that fails a check (``stop`` where none did); the rows
    before it are summed.

    ``extensions`` (the default): the copy for this processor's vector extensions (on x86
    with AVX and FMA, float32 rows take their own 8-lane kernel); False the baseline copy
    (the tests' comparison: the same diagonal to the last bit, the off-diagonal to
    float64's rounding).
    """
    cdef Py_ssize_t first_failed = start, n = y_true.shape[1]
    cdef const double *factors = &multipliers[0] if multipliers.shape[0] > 0 else NULL
    if not (0 < n <= SMALL_CLASSES and y_pred.shape[1] == n
            and y_true.shape[0] == y_pred.shape[0]
            and (n == 1 or (y_true.strides[1] == sizeof(floating)
                            and y_pred.strides[1] == sizeof(floating)))
            and diagonal.shape[0] == n and off_diagonal.shape[0] == n
            and off_diagonal.shape[1] == n):
        raise ValueError("soft_plan_sums_small takes rows of at most SMALL_CLASSES "
                         "adjacent values and outputs of their size.")
    if stop <= start:
        return stop
    with nogil:
        if floating is double:
            first_failed = sce_soft_small_double(
                &y_true[0, 0], y_true.strides[0] // sizeof(double), &y_pred[0, 0],
                y_pred.strides[0] // sizeof(double), n, y_true.shape[0], start, stop,
                factors, norm_weighting, norm_limit, smallest, largest, deficit_tolerance,
                &diagonal[0], &off_diagonal[0, 0], extensions)
        else:
            first_failed = sce_soft_small_float(
                &y_true[0, 0], y_true.strides[0] // sizeof(float), &y_pred[0, 0],
                y_pred.strides[0] // sizeof(float), n, y_true.shape[0], start, stop,
                factors, norm_weighting, norm_limit, smallest, largest, deficit_tolerance,
                &diagonal[0], &off_diagonal[0, 0], extensions)
    return first_failed


cdef inline double _checked_sum(const floating *row, Py_ssize_t n_columns,
                                Py_ssize_t step) noexcept nogil:
    """The sum of a row of ``n_columns`` values ``step`` apart (eight accumulators, in the
    row's type), or -1 where a value is negative; a NaN or an infinity makes it
    non-finite."""
    cdef floating sums[8]
    cdef floating lowest[8]
    cdef floating value
    cdef Py_ssize_t j, k, n_wide = n_columns - n_columns % 8
    for k in range(8):
        sums[k] = 0
        lowest[k] = 0
    if step == 1:  # the contiguous loop, which the compiler packs into vectors
        for j in range(0, n_wide, 8):
            for k in range(8):
                value = row[j + k]
                sums[k] += value
                lowest[k] = value if value < lowest[k] else lowest[k]
    else:
        for j in range(0, n_wide, 8):
            for k in range(8):
                value = row[(j + k) * step]
                sums[k] += value
                lowest[k] = value if value < lowest[k] else lowest[k]
    for j in range(n_wide, n_columns):
        value = row[j * step]
        sums[0] += value
        lowest[0] = value if value < lowest[0] else lowest[0]
    for k in range(1, 8):
        lowest[0] = lowest[k] if lowest[k] < lowest[0] else lowest[0]
    if lowest[0] < 0:
        return -1.0
    return (((<double>sums[0] + sums[1]) + (sums[2] + sums[3]))
            + ((sums[4] + sums[5]) + (sums[6] + sums[7])))


cdef inline double _soft_row_scale(double true_norm, double pred_norm, double multiplier,
                                   int norm_weighting, double norm_limit, double smallest,
                                   double largest) noexcept nogil:
    """The checks of a soft row of both kernels: the row's factor ``w / s`` (its weight
    over the mass of ``y_true``'s row, ``true_norm``), or -1 where a norm is not finite or
    lies outside ``[1 / norm_limit, norm_limit]`` (a negative value: -1) or the weight,
    ``multiplier`` times the norm ``norm_weighting`` names (1 true, 2 pred, 0 none), is
    neither zero nor in ``[smallest, largest]``."""
    cdef double weight
    if not (isfinite(true_norm) and isfinite(pred_norm)
            and 1.0 / norm_limit <= true_norm <= norm_limit
            and 1.0 / norm_limit <= pred_norm <= norm_limit):
        return -1.0
    weight = multiplier
    if norm_weighting == 1:
        weight = weight * true_norm
    elif norm_weighting == 2:
        weight = weight * pred_norm
    if not (weight == 0 or smallest <= weight <= largest):  # NaN fails too
        return -1.0
    return weight / true_norm


def soft_plan_parts_columns(const floating[:, :] y_true, const floating[:, :] y_pred,
                            Py_ssize_t start, Py_ssize_t stop, const double[::1] multipliers,
                            int norm_weighting, double norm_limit, double smallest,
                            double largest, double deficit_tolerance,
                            floating[:, ::1] deficits, floating[:, ::1] excesses,
                            double[::1] diagonal, double[:, ::1] tile,
                            floating[:, ::1] tile_values):
    """:func:`soft_plan_parts` of column-major rows (a pandas frame's columns, a Dask
    dataframe's partitions), written column by column: ``deficits`` and ``excesses`` are
    ``(C, rows)``, the caller sums ``deficits @ excesses.T``.

    A row's values lie a column apart there: read row by row, each of the ``2 C`` columns
    is a stream of its own, and the row-major kernel took 1.6-2.2x as long as on the same
    rows stored row-major. Here each phase runs over a tile of rows, column by column, so
    every read and write is adjacent to the last: the rows' sums (in float64) and their
    lowest value, then their checks and scales in order (the first row that fails ends
    the pass after the rows before it, as in :func:`soft_plan_parts`), the common mass,
    deficit and excess, the deficit's factor. ``tile``: four rows of float64 scratch,
    ``tile_values`` three of the rows' type, as long as the tile. The rows of both targets
    must be adjacent (a row's stride one value: a column-major array, or rows of one)."""
    cdef Py_ssize_t first_failed
    if y_true.shape[0] > 1 and (y_true.strides[0] != sizeof(floating)
                                or y_pred.strides[0] != sizeof(floating)):
        raise ValueError("soft_plan_parts_columns reads column-major rows only")
    with nogil:
        first_failed = _soft_plan_parts_columns(
            y_true, y_pred, start, stop, multipliers, norm_weighting, norm_limit, smallest,
            largest, deficit_tolerance, deficits, excesses, diagonal, tile, tile_values)
    return first_failed


cdef Py_ssize_t _soft_plan_parts_columns(
        const floating[:, :] y_true, const floating[:, :] y_pred, Py_ssize_t start,
        Py_ssize_t stop, const double[::1] multipliers, int norm_weighting, double norm_limit,
        double smallest, double largest, double deficit_tolerance, floating[:, ::1] deficits,
        floating[:, ::1] excesses, double[::1] diagonal, double[:, ::1] tile,
        floating[:, ::1] tile_values) noexcept nogil:
    cdef Py_ssize_t n_columns = y_true.shape[1], size = tile.shape[1]
    cdef Py_ssize_t first, n_rows, n_good, j, r, k
    cdef bint weighted = multipliers.shape[0] > 0
    cdef double *true_sums = &tile[0, 0]
    cdef double *pred_sums = &tile[1, 0]
    cdef double *lowest = &tile[2, 0]
    cdef double *scales = &tile[3, 0]
    cdef floating *ratios = &tile_values[0, 0]
    cdef floating *masses = &tile_values[1, 0]
    cdef floating *commons = &tile_values[2, 0]
    cdef double sums[8]
    cdef floating u, v, common
    cdef const floating *true_column
    cdef const floating *pred_column
    cdef floating *deficit_column
    cdef floating *excess_column
    first = start
    while first < stop:
        n_rows = min(size, stop - first)
        for r in range(n_rows):
            true_sums[r] = 0
            pred_sums[r] = 0
            lowest[r] = 0
            masses[r] = 0
        for j in range(n_columns):
            true_column, pred_column = &y_true[first, j], &y_pred[first, j]
            for r in range(n_rows):
                u, v = true_column[r], pred_column[r]
                true_sums[r] += u
                pred_sums[r] += v
                lowest[r] = u if u < lowest[r] else lowest[r]
                lowest[r] = v if v < lowest[r] else lowest[r]
        n_good = n_rows
        for r in range(n_rows):  # a negative value fails as _checked_sum's -1 does
            scales[r] = _soft_row_scale(
                true_sums[r] if lowest[r] >= 0 else -1.0, pred_sums[r],
                multipliers[first + r] if weighted else 1.0, norm_weighting, norm_limit,
                smallest, largest)
            if scales[r] < 0:
                n_good = r
                break
            ratios[r] = <floating>(true_sums[r] / pred_sums[r])
        for j in range(n_columns):
            true_column, pred_column = &y_true[first, j], &y_pred[first, j]
            deficit_column = &deficits[j, first - start]
            excess_column = &excesses[j, first - start]
            for r in range(n_good):
                u, v = true_column[r], pred_column[r] * ratios[r]
                common = u if u < v else v
                commons[r] = common
                deficit_column[r] = u - common
                excess_column[r] = v - common
                masses[r] += u - common
            for k in range(8):  # the column's common mass: eight running sums
                sums[k] = 0
            r = 0
            while r + 8 <= n_good:
                for k in range(8):
                    sums[k] += scales[r + k] * commons[r + k]
                r += 8
            while r < n_good:
                sums[0] += scales[r] * commons[r]
                r += 1
            diagonal[j] += ((sums[0] + sums[1]) + (sums[2] + sums[3])) \
                + ((sums[4] + sums[5]) + (sums[6] + sums[7]))
        for r in range(n_good):  # the deficit's factor, in place of its mass
            masses[r] = <floating>(scales[r] / masses[r]) \
                if masses[r] > deficit_tolerance * true_sums[r] else 0
        for j in range(n_columns):
            deficit_column = &deficits[j, first - start]
            for r in range(n_good):
                deficit_column[r] *= masses[r]
        if n_good < n_rows:
            return first + n_good
        first += n_rows
    return stop


def count_draws(const long long[::1] draws, double[::1] out):
    """``out[k]``: how many of ``draws`` equal ``k`` (the bootstrap's counts of one resample;
    every draw lies in ``[0, len(out))``). ``np.bincount`` holds the GIL, so the resamples
    drawn on threads counted one at a time; this releases it, and writes the counts as the
    float64 weights the resampled products take, without an integer copy."""
    cdef Py_ssize_t i, n_draws = draws.shape[0]
    with nogil:
        out[:] = 0.0
        for i in range(n_draws):
            out[draws[i]] += 1.0
