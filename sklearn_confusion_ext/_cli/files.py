"""Reading the user's targets from CSV or ``.npy`` files: data, never code."""

from pathlib import Path

import numpy as np

_MAX_ABS_VALUE = 1e12


class InputError(ValueError):
    """A problem with the user's files or options: one line, exit status 2."""


def load_target(path):
    """Read 1-D labels or a 2-D numeric matrix from a ``.npy`` or CSV file, safely.

    ``.npy`` is read with ``allow_pickle=False``. A CSV file holds one label per line, or
    one row of numbers per line, comma-separated, all rows of the same width; numbers
    must be finite and at most 1e12 in absolute value.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.suffix == ".npy":
        try:
            array = np.load(path, allow_pickle=False)
        except (ValueError, OSError) as exc:
            raise InputError(f"{path}: not a plain .npy array ({exc})") from None
        if array.dtype.kind not in "biufU" or array.ndim not in (1, 2):
            raise InputError(f"{path}: expected a 1-D or 2-D array of numbers or strings, got "
                             f"{array.ndim}-D {array.dtype}")
        if array.dtype.kind in "biuf":
            _check_numbers(path, array.astype(np.float64))
        return array
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError) as exc:
        raise InputError(f"{path}: not a UTF-8 text file ({exc})") from None
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    if not rows:
        raise InputError(f"{path}: the file is empty")
    fields = [[field.strip() for field in row.split(",")] for row in rows]
    widths = {len(row) for row in fields}
    if len(widths) != 1:
        raise InputError(f"{path}: rows have different numbers of columns {sorted(widths)}")
    if widths == {1}:
        labels = [row[0] for row in fields]
        numbers = [_parse_number(label) for label in labels]
        if all(number is not None and float(number).is_integer() for number in numbers):
            return np.array([int(number) for number in numbers])
        return np.array(labels)
    values = [[_parse_number(field) for field in row] for row in fields]
    for line, row in enumerate(values, start=1):
        if any(value is None for value in row):
            raise InputError(f"{path}: line {line} has a field that is not a number")
    array = np.array(values, dtype=np.float64)
    _check_numbers(path, array)
    return array


def _parse_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def _check_numbers(path, array):
    if not np.isfinite(array).all():
        raise InputError(f"{path}: contains NaN or infinite values")
    if array.size and np.abs(array).max() > _MAX_ABS_VALUE:
        raise InputError(f"{path}: contains values above {_MAX_ABS_VALUE:g} in absolute value")
