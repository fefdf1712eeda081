# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled parsers of the command line's large text files (issue 39), one pass over the
bytes each, beside the readings they replace in ``files.py`` (pandas' C reader or
``numpy.loadtxt`` for a matrix; splitting in Python and ``np.array`` for labels):

- :func:`parse_matrix`: rows of numbers separated by one character (or runs of spaces),
  each number the one Python's ``float`` reads;
- :func:`encode_labels`: the lines of a file of labels as integer codes of its distinct
  lines (in the order they first appear), by a hash table over the bytes.

Each declines (returns None) whatever it does not read with certainty (a field that is
not a number, rows of different widths, a byte outside its grammar): the caller then
takes the slower reading, whose reference says what is wrong, line and field
(``tests/_cli/test_cli_reading.py`` checks both give the same arrays and errors).
"""

import numpy as np

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport strtod
from libc.string cimport memcmp, memcpy

cdef extern from *:
    """
    #include <float.h>
    #include <stdint.h>
    #include <string.h>
    /* x87 extended precision: a 64-bit significand, its first 8 bytes (little-endian) */
    #if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
    #define SCE_EXTENDED 1
    #else
    #define SCE_EXTENDED 0
    #endif
    static const double SCE_POW10[23] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
        1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    /* w * 10**e for w < 10**18 and |e| <= 27, correctly rounded, in *out; 0 where the
       extended-precision result lies too near a halfway point between two doubles (or
       where long double is not x87's), for strtod to decide. 10**e (5**27 < 2**64) and w
       are exact in extended precision, so the one operation rounds once to 64 bits; its
       rounding to 53 bits is then the correct one unless the 11 dropped bits are
       0x3ff..0x401 (the true value could lie on either side of the halfway point). */
    static inline int sce_extended(uint64_t w, int e, double *out) {
    #if SCE_EXTENDED
        /* exact: 10**k = 2**k * 5**k, 5**27 < 2**64 */
        static const long double p10[28] = {
            1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L,
            1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L,
            1e24L, 1e25L, 1e26L, 1e27L};
        long double x;
        uint64_t significand;
        int k;
        x = (long double)(int64_t)w;
        x = e < 0 ? x / p10[-e] : x * p10[e];
        memcpy(&significand, &x, 8);
        k = (int)(significand & 0x7ff);
        if (k >= 0x3ff && k <= 0x401) return 0;
        *out = (double)x;
        return 1;
    #else
        (void)w; (void)e; (void)out;
        return 0;
    #endif
    }
    """
    const double SCE_POW10[23]
    int sce_extended(uint64_t w, int e, double *out) nogil


cdef enum:
    MAX_FIELD = 400  # longer fields: the slower reading


cdef inline bint is_digit(unsigned char c) noexcept nogil:
    return c >= 48 and c <= 57


cdef Py_ssize_t parse_number(const unsigned char *p, Py_ssize_t i, Py_ssize_t n,
                             double *out) noexcept nogil:
    """The number written from ``p[i]`` on, as ``float`` reads it, in ``out``: the longest
    ``[+-]?(D+(.D*)?|.D+)([eE][+-]?D+)?`` there (D a digit); returns where it ends, or -1
    where none starts at ``i``, or one ends in ``e`` without digits (``float`` refuses
    both), or it is longer than MAX_FIELD."""
    cdef Py_ssize_t start = i, exponent_start
    cdef bint negative = False, exponent_negative = False
    cdef uint64_t w = 0
    cdef int n_kept = 0, dropped = 0, after_point = 0, exponent = 0, mantissa_digits = 0
    cdef double value
    cdef char buffer[MAX_FIELD + 1]
    cdef char *end
    if i < n and (p[i] == 43 or p[i] == 45):  # + -
        negative = p[i] == 45
        i += 1
    exponent_start = i
    while i < n and p[i] == 48:  # leading zeros
        i += 1
    while i < n and is_digit(p[i]) and n_kept < 19:
        w = w * 10 + (p[i] - 48)
        n_kept += 1
        i += 1
    while i < n and is_digit(p[i]):
        dropped += 1
        i += 1
    mantissa_digits = <int>(i - exponent_start)
    if i < n and p[i] == 46:  # .
        i += 1
        exponent_start = i
        if n_kept == 0:
            while i < n and p[i] == 48:  # zeros before the first significant digit
                i += 1
        while i < n and is_digit(p[i]) and n_kept < 19:
            w = w * 10 + (p[i] - 48)
            n_kept += 1
            i += 1
        after_point = <int>(i - exponent_start)
        while i < n and is_digit(p[i]):
            dropped += 1
            i += 1
        mantissa_digits += <int>(i - exponent_start)
    if mantissa_digits == 0:
        return -1
    if i < n and (p[i] == 101 or p[i] == 69):  # e E
        i += 1
        if i < n and (p[i] == 43 or p[i] == 45):
            exponent_negative = p[i] == 45
            i += 1
        exponent_start = i
        while i < n and is_digit(p[i]):
            if exponent < 100000:
                exponent = exponent * 10 + (p[i] - 48)
            i += 1
        if i == exponent_start:
            return -1
        if exponent_negative:
            exponent = -exponent
    if i - start > MAX_FIELD:
        return -1
    exponent -= after_point
    if dropped == 0 and n_kept <= 18:
        if w < (<uint64_t>1 << 53) and -22 <= exponent <= 22:
            # Clinger's fast path: both operands exact, one rounding
            value = <double>w
            value = value / SCE_POW10[-exponent] if exponent < 0 else value * SCE_POW10[exponent]
            out[0] = -value if negative else value
            return i
        if w == 0:
            out[0] = -0.0 if negative else 0.0
            return i
        if -27 <= exponent <= 27 and sce_extended(w, exponent, &value):
            out[0] = -value if negative else value
            return i
    memcpy(buffer, p + start, i - start)
    buffer[i - start] = 0
    value = strtod(buffer, &end)
    if end != buffer + (i - start):
        return -1
    out[0] = value
    return i


def parse_matrix(const unsigned char[::1] data, Py_ssize_t start, unsigned char separator,
                 Py_ssize_t n_columns=0):
    """The rows of numbers of ``data[start:]`` as an ``(n_rows, n_columns)`` float64 array,
    or None; ``n_columns`` below 1: the number of fields of the first non-blank line.

    Lines end at ``\\n`` or ``\\r``; blank lines are skipped. Fields are separated by
    ``separator``, or, where it is ``b" "``, by runs of spaces (leading and trailing
    spaces of a line ignored). None where a line has a field that is not a number, an
    empty field, another number of fields than ``n_columns`` or any other byte, or where
    the file holds no rows: the slower reading decides (and its reference says where).
    """
    cdef Py_ssize_t n = data.shape[0], i = start, j, n_rows = 0, column, stop
    cdef bint whitespace = separator == 32, bad = False
    cdef unsigned char c
    cdef double value
    cdef double[:, ::1] out
    cdef const unsigned char *p
    if start >= n:
        return None
    p = &data[0]
    if n_columns < 1:
        n_columns = _first_width(p, start, n, separator)
        if n_columns < 1:
            return None
    # rows counted first (an upper bound: every line break), so that the array is
    # allocated once
    for j in range(start, n):
        n_rows += (p[j] == 10) | (p[j] == 13)
    array = np.empty((n_rows + 1, n_columns), dtype=np.float64)
    out = array
    n_rows = 0
    with nogil:
        while i < n:
            c = p[i]
            if c == 10 or c == 13:
                i += 1
                continue
            if whitespace:
                while i < n and p[i] == 32:
                    i += 1
                if i == n or p[i] == 10 or p[i] == 13:
                    continue  # blank
            column = 0
            while True:
                stop = parse_number(p, i, n, &value)
                if stop < 0 or column == n_columns:
                    bad = True
                    break
                out[n_rows, column] = value
                column += 1
                i = stop
                if i == n or p[i] == 10 or p[i] == 13:
                    break
                if whitespace:
                    if p[i] != 32:
                        bad = True
                        break
                    while i < n and p[i] == 32:
                        i += 1
                    if i == n or p[i] == 10 or p[i] == 13:
                        break
                elif p[i] != separator:
                    bad = True
                    break
                else:
                    i += 1  # past the separator: a field follows, empty or not
            if bad or column != n_columns:
                bad = True
                break
            n_rows += 1
    if bad or n_rows == 0:
        return None
    return array[:n_rows]


cdef Py_ssize_t _first_width(const unsigned char *p, Py_ssize_t i, Py_ssize_t n,
                             unsigned char separator) noexcept:
    """The number of fields of the first non-blank line from ``p[i]`` on (0: none)."""
    cdef Py_ssize_t width = 0
    cdef bint inside = False
    while i < n and (p[i] == 10 or p[i] == 13 or (separator == 32 and p[i] == 32)):
        i += 1
    if i == n:
        return 0
    width = 0 if separator == 32 else 1
    while i < n and p[i] != 10 and p[i] != 13:
        if separator == 32:
            if p[i] != 32 and not inside:
                width += 1
            inside = p[i] != 32
        elif p[i] == separator:
            width += 1
        i += 1
    return width


def encode_labels(const unsigned char[::1] data):
    """The non-blank lines of ``data`` (ASCII) as ``(codes, labels)``: ``labels`` the list of
    distinct lines (``str``) in the order they first appear, ``codes`` the int64 index of
    each line's label, or None where ``data`` holds a byte other than a printable ASCII
    character, space excluded (which ``str.strip`` would leave), ``\\n`` or ``\\r`` (both
    end a line, as ``str.splitlines`` reads them)."""
    cdef Py_ssize_t n = data.shape[0], i = 0, line_start, n_lines = 0, n_labels = 0, j
    cdef Py_ssize_t size = 1024, mask, slot, length
    cdef unsigned char c
    cdef uint64_t h
    cdef int64_t[::1] codes
    cdef int64_t[::1] table
    cdef Py_ssize_t[::1] starts
    cdef Py_ssize_t[::1] lengths
    cdef int64_t code
    for j in range(n):
        c = data[j]
        if c == 10 or c == 13:
            n_lines += 1
        elif c <= 32 or c >= 127:
            return None
    code_array = np.empty(n_lines + 1, dtype=np.int64)
    codes = code_array
    table = np.full(size, -1, dtype=np.int64)
    starts = np.empty(size // 2, dtype=np.intp)
    lengths = np.empty(size // 2, dtype=np.intp)
    n_lines = 0
    mask = size - 1
    while i < n:
        line_start = i
        h = 14695981039346656037ULL  # FNV-1a
        while i < n and data[i] != 10 and data[i] != 13:
            h = (h ^ data[i]) * 1099511628211ULL
            i += 1
        length = i - line_start
        i += 1
        if length == 0:
            continue
        slot = <Py_ssize_t>(h & <uint64_t>mask)
        while True:
            code = table[slot]
            if code < 0:
                if 2 * (n_labels + 1) > size:
                    size, mask, table, starts, lengths = _grown(
                        size, data, table, starts, lengths, n_labels)
                    slot = <Py_ssize_t>(h & <uint64_t>mask)
                    while table[slot] >= 0:
                        slot = (slot + 1) & mask
                code = n_labels
                table[slot] = code
                starts[code] = line_start
                lengths[code] = length
                n_labels += 1
                break
            if lengths[code] == length and memcmp(&data[0] + starts[code],
                                                  &data[0] + line_start, length) == 0:
                break
            slot = (slot + 1) & mask
        codes[n_lines] = code
        n_lines += 1
    labels = [bytes(data[starts[k]:starts[k] + lengths[k]]).decode("ascii")
              for k in range(n_labels)]
    return code_array[:n_lines], labels


cdef tuple _grown(Py_ssize_t size, const unsigned char[::1] data, int64_t[::1] table,
                  Py_ssize_t[::1] starts, Py_ssize_t[::1] lengths, Py_ssize_t n_labels):
    """The hash table of :func:`encode_labels` at twice the size, its labels placed again."""
    cdef Py_ssize_t new_size = 2 * size, mask = new_size - 1, k, j, slot
    cdef uint64_t h
    cdef int64_t[::1] new_table = np.full(new_size, -1, dtype=np.int64)
    cdef Py_ssize_t[::1] new_starts = np.empty(new_size // 2, dtype=np.intp)
    cdef Py_ssize_t[::1] new_lengths = np.empty(new_size // 2, dtype=np.intp)
    for k in range(n_labels):
        h = 14695981039346656037ULL
        for j in range(starts[k], starts[k] + lengths[k]):
            h = (h ^ data[j]) * 1099511628211ULL
        slot = <Py_ssize_t>(h & <uint64_t>mask)
        while new_table[slot] >= 0:
            slot = (slot + 1) & mask
        new_table[slot] = k
        new_starts[k] = starts[k]
        new_lengths[k] = lengths[k]
    return new_size, mask, new_table, new_starts, new_lengths
