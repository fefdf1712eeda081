"""How the cells of a matrix are written: one rule for counts, masses and proportions."""

import math

import numpy as np

# From this magnitude on a cell is written with three significant digits ("1.23e+05"):
# a wider number does not fit in a cell.
_SCIENTIFIC_FROM = 1e5


def format_values(matrix, values_format=None, *, decimals=None):
    """The text of each cell of ``matrix``, an ndarray of str of the same shape.

    ``values_format`` (a format spec such as ``".1f"``) is applied to every value when
    given. Otherwise the values decide:

    - integer-valued matrices (counts) are written as integers;
    - other matrices get ``decimals`` decimals, by default enough for the largest value to
      show three significant digits, at most two (``45.6``, ``170``, ``0.95``), yet at least
      two significant digits of it (``0.031``, ``0.0031``);
    - a nonzero value that these decimals would round to zero is written ``"<0.01"`` (the
      smallest step shown), an exact zero ``"0"``;
    - values of magnitude 1e5 or more get three significant digits, ``"1.23e+05"``.
    """
    matrix = np.asarray(matrix, dtype=float)
    if values_format is not None:
        return _each(matrix, lambda value: format(value, values_format))
    if decimals is None:
        decimals = value_decimals(matrix)
    step = 10.0 ** -decimals
    tiny = f"<{step:.{decimals}f}"

    def write(value):
        if value == 0:
            return "0"
        if not math.isfinite(value):
            return str(value)
        if abs(value) >= _SCIENTIFIC_FROM:
            return format(value, ".3g")
        text = f"{value:.{decimals}f}"
        if float(text) == 0:  # nonzero, yet rounded to zero
            return tiny if value > 0 else f">-{step:.{decimals}f}"
        return text

    return _each(matrix, write)


def value_decimals(values):
    """The decimals :func:`format_values` writes ``values`` with: none for integers,
    else enough for three significant digits of the largest, at most two, at least two
    significant digits of it."""
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    largest = float(np.abs(finite).max()) if finite.size else 0.0
    integral = np.allclose(finite, np.round(finite), rtol=0, atol=1e-9 * max(largest, 1.0))
    return 0 if integral or largest == 0 else _decimals_for(largest)


def _decimals_for(largest):
    """Decimals for three significant digits of ``largest``, at most two, and at least two
    significant digits."""
    exponent = math.floor(math.log10(largest))
    return max(0, min(2 - exponent, 2), 1 - exponent)


def _each(matrix, write):
    text = np.empty(matrix.shape, dtype=object)
    for index, value in np.ndenumerate(matrix):
        text[index] = write(float(value))
    return text
