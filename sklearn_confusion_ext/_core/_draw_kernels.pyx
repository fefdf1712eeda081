# cython: boundscheck=False, wraparound=False, cdivision=True
"""The bootstrap's draws counted as they are drawn (``_core/resampling.py``).

A bootstrap resample of ``n`` instances is ``n`` draws with replacement, and the products
take how many times each instance is drawn. NumPy draws them as
``Generator(PCG64).integers(0, n, n)``: a call of the bit generator through a function
pointer for every value, into an ``int64`` array that is then counted. This kernel runs
the same PCG64 stream (the 128-bit LCG with the XSL-RR output, each 64-bit output split
into two 32-bit values, low half first) and the same bounded draw (Lemire's multiply and
its rejection, NumPy's ``random_bounded_uint64_fill`` for a range below 2 ** 32), inlined,
and counts each value into its instance's cell as it is drawn: the same values, in the same
order, with the generator's state carried in and out, so that NumPy can go on with it.
``tests/_core/test_resampling_draws.py`` checks it against NumPy's own draws; the caller
checks it once more at first use and draws with NumPy where they ever differ.
"""

from libc.math cimport floor
from libc.stdint cimport uint8_t, uint32_t, uint64_t

ctypedef fused count_t:
    uint8_t
    double

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__SIZEOF_INT128__)
    typedef unsigned __int128 sce_u128;
    static inline void sce_pcg_step(uint64_t *hi, uint64_t *lo, uint64_t inc_hi,
                                    uint64_t inc_lo) {
        const sce_u128 mult = (((sce_u128)2549297995355413924ULL) << 64)
                              | (sce_u128)4865540595714422341ULL;
        sce_u128 s = (((sce_u128)*hi) << 64) | (sce_u128)*lo;
        s = s * mult + ((((sce_u128)inc_hi) << 64) | (sce_u128)inc_lo);
        *hi = (uint64_t)(s >> 64);
        *lo = (uint64_t)s;
    }
    #else
    static inline uint64_t sce_mulhi64(uint64_t a, uint64_t b) {
        uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
        uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
        uint64_t hi_hi = a_hi * b_hi;
        uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
        return hi_hi + (hi_lo >> 32) + (cross >> 32);
    }
    static inline void sce_pcg_step(uint64_t *hi, uint64_t *lo, uint64_t inc_hi,
                                    uint64_t inc_lo) {
        const uint64_t mult_hi = 2549297995355413924ULL, mult_lo = 4865540595714422341ULL;
        uint64_t new_hi = sce_mulhi64(*lo, mult_lo) + *hi * mult_lo + *lo * mult_hi;
        uint64_t new_lo = *lo * mult_lo;
        uint64_t sum_lo = new_lo + inc_lo;
        new_hi += inc_hi + (sum_lo < new_lo);
        *hi = new_hi;
        *lo = sum_lo;
    }
    #endif
    static inline uint64_t sce_pcg_output(uint64_t hi, uint64_t lo) {
        unsigned int rot = (unsigned int)(hi >> 58);
        uint64_t value = hi ^ lo;
        return (value >> rot) | (value << ((-rot) & 63));
    }
    """
    void sce_pcg_step(uint64_t *hi, uint64_t *lo, uint64_t inc_hi, uint64_t inc_lo) nogil
    uint64_t sce_pcg_output(uint64_t hi, uint64_t lo) nogil


cdef struct Stream:
    uint64_t hi, lo, inc_hi, inc_lo
    int has_uint32
    uint32_t uinteger


cdef inline uint32_t next_uint32(Stream *stream) noexcept nogil:
    cdef uint64_t value
    if stream.has_uint32:
        stream.has_uint32 = 0
        return stream.uinteger
    sce_pcg_step(&stream.hi, &stream.lo, stream.inc_hi, stream.inc_lo)
    value = sce_pcg_output(stream.hi, stream.lo)
    stream.has_uint32 = 1
    stream.uinteger = <uint32_t>(value >> 32)
    return <uint32_t>value


cdef inline uint32_t bounded(Stream *stream, uint32_t n_values,
                             uint32_t threshold) noexcept nogil:
    """A value in ``[0, n_values)``: Lemire's method as NumPy's
    ``buffered_bounded_lemire_uint32`` draws it."""
    cdef uint64_t m = (<uint64_t>next_uint32(stream)) * n_values
    cdef uint32_t leftover = <uint32_t>m
    if leftover < n_values:
        while leftover < threshold:
            m = (<uint64_t>next_uint32(stream)) * n_values
            leftover = <uint32_t>m
    return <uint32_t>(m >> 32)


def count_pcg64_draws(object state, count_t[:, ::1] out, double limit):
    """Each row of ``out`` (``uint8`` or ``float64``): how many times each of its
    ``n = out.shape[1]`` columns is drawn in ``n`` draws of
    ``Generator(PCG64).integers(0, n, n)``, from the PCG64 ``state``
    (``bit_generator.state``, a dict); the rows drawn in order. Returns the state after
    the draws, to set back on the bit generator, or None where a ``uint8`` count passes
    ``limit`` (or 255: ``out`` is then not usable, draw again in a wider type; ``limit``
    is not read for float64 counts).

    ``n`` must be in ``[2, 2 ** 32)``."""
    cdef Py_ssize_t n_rows = out.shape[0], n = out.shape[1], row, i
    cdef Stream stream
    cdef uint32_t threshold
    cdef count_t *cells
    cdef uint64_t total
    cdef bint overflow = False
    # the largest count that passes ``limit``: counts are integers, so the check of every
    # count against the limit is an integer comparison (a uint8 read as double each took a
    # tenth of the draws' time)
    cdef int most = 255
    if limit < 255:  # NaN and above 255: every uint8 count passes
        most = <int>floor(limit) if limit >= -1 else -1
    if n < 2 or n > 0xFFFFFFFF:
        raise ValueError(f"count_pcg64_draws draws from 2 to 2 ** 32 - 1 values; got {n}.")
    mask = (1 << 64) - 1
    inner = state["state"]
    stream.hi, stream.lo = (inner["state"] >> 64) & mask, inner["state"] & mask
    stream.inc_hi, stream.inc_lo = (inner["inc"] >> 64) & mask, inner["inc"] & mask
    stream.has_uint32, stream.uinteger = int(state["has_uint32"]), int(state["uinteger"])
    # NumPy's threshold for the range's inclusive top, n - 1
    threshold = <uint32_t>((<uint32_t>0xFFFFFFFF - <uint32_t>(n - 1)) % <uint32_t>n)
    with nogil:
        for row in range(n_rows):
            cells = &out[row, 0]
            for i in range(n):
                cells[i] = 0
            for i in range(n):
                cells[bounded(&stream, <uint32_t>n, threshold)] += 1
            if count_t is uint8_t:
                # a count past 255 wraps, and takes 256 off the row's sum: checked after
                # the row, not at every draw
                total = 0
                for i in range(n):
                    if cells[i] > most:
                        overflow = True
                    total += cells[i]
                if total != <uint64_t>n:
                    overflow = True
                if overflow:
                    break
    if overflow:
        return None
    return {"bit_generator": "PCG64",
            "state": {"state": (int(stream.hi) << 64) | int(stream.lo),
                      "inc": (int(stream.inc_hi) << 64) | int(stream.inc_lo)},
            "has_uint32": int(stream.has_uint32), "uinteger": int(stream.uinteger)}

