"""Reading the user's targets from CSV, text or ``.npy`` files: data, never code.

The rules, which the report command's help repeats:

- ``.npy``: the header is read first and must describe a 1-D or 2-D array of numbers or
  strings whose size is exactly the data that follows it; the array is then loaded with
  ``allow_pickle=False``. A header that claims more (or less) data than the file holds is
  refused before anything is allocated.
- Text: blank lines are skipped. The delimiter, unless given, is the one of comma, tab and
  semicolon that separates fields on every line, else whitespace if a line holds several
  words, else none (one value per line). A delimiter found on some lines only, or two found
  on every line, is refused: the user names it.
- Header line, unless ``--header``/``--no-header`` says: the first line is a header when
  it holds text and the other lines hold numbers, when it has several fields one of which
  holds text (data of several columns are numbers), or when it starts with an empty field
  (pandas' ``to_csv()`` with its index). In a one-column file of text labels, a first line
  that holds a number above text labels is pandas' name ``0`` of an unnamed Series, so a
  header; a first line of text that appears again is a class; one that appears nowhere else
  is either a header or a class seen once. So is a first line ``0,1,...,k-1`` of three or
  more fields (the names pandas gives unnamed columns). Such a file takes the reading whose
  number of samples matches the other file's (:func:`load_targets`; when none does, it is
  read without a header line and the numbers of samples differ); when both files are
  undecided, their first lines are header lines where each appears nowhere in either file
  (two named Series, ``Series.to_csv(index=False)``), else they are refused (pass
  ``--header`` or ``--no-header``). A number above numbers is data: ``0`` above integer
  labels (pandas' name of an unnamed Series) is read as a label, undetectable, unless the
  other file holds one sample less, or starts with ``0,1,...,k-1`` above its rows (pandas'
  names of unnamed columns): both are then header lines, with a note.
- Large files (:data:`FAST_MIN_CHARS`) are read by :func:`_fast_text` (compiled parsers
  where the package was built), with the same results.
- Index column: with a header line whose first field is empty, the first column is pandas'
  index when it holds distinct integers, and is dropped; otherwise the file is refused
  (``--index-column`` drops a first column whatever it holds).
"""

import csv
import io
import itertools
import math
import re
import stat
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from .._core.params import quoted

# The compiled parsers of large text files (``_text_kernels.pyx``), or None in a source
# tree that was never built: pandas' C reader or NumPy then parse.
try:
    from ._text_kernels import encode_labels, parse_matrix
except ImportError:
    COMPILED = None
else:
    COMPILED = SimpleNamespace(encode_labels=encode_labels, parse_matrix=parse_matrix)

_MAX_ABS_VALUE = 1e12
_MAX_EXACT_INTEGER = 2**53  # beyond it a float no longer tells neighbouring integers apart
_DELIMITERS = {"comma": ",", "tab": "\t", "semicolon": ";"}
_DELIMITER_FIX = "pass --delimiter (comma, tab, semicolon, whitespace or none)"
_HEADER_FIX = "pass --header if it is a header line, --no-header if it is a label"


class InputError(ValueError):
    """A problem with the user's files or options: one line, exit status 2."""


class AmbiguousHeaderError(InputError):
    """The first line of a text file may be a header line or data; ``n_lines`` is the number
    of lines of data it holds if it has no header line."""

    def __init__(self, message, n_lines, first_line=None, values=None, readings=None):
        super().__init__(message)
        self.n_lines = n_lines
        # ``{as_header: (array, names)}``: the file read both ways, where it was read once.
        self.readings = readings or {}
        # A one-column file: its first line and the set of its other lines (the labels it
        # holds if that line is a header line).
        self.first_line, self.values = first_line, values


def load_targets(true_path, pred_path, *, header=None, delimiter="auto",
                 index_column=False):
    """Read ``y_true`` and ``y_pred``; a header line that one file's content leaves open is
    decided by the other file's number of samples (the reading that matches it).

    Returns ``(y_true, y_pred, pred_columns, true_columns)``: ``pred_columns`` names the
    columns of a 2-D ``y_pred`` read below a header line (``DataFrame(proba,
    columns=clf.classes_)``), ``true_columns`` those of a 2-D ``y_true`` (the classes of an
    indicator file), else None."""
    if str(true_path) == "-" and str(pred_path) == "-":
        raise InputError("-: standard input can be read once: pass '-' for one of the two "
                         "files at most")
    options = {"delimiter": delimiter, "index_column": index_column}
    targets, ambiguous, texts = {}, {}, {}
    for name, path in (("true", true_path), ("pred", pred_path)):
        if _is_stream(path) and Path(path).suffix != ".npy":
            # A pipe, FIFO or standard input is read once, here: a second reading (the
            # header decided below) would find it empty.
            texts[name] = _read_stream(path)
        try:
            targets[name] = read_target(path, header=header, text=texts.get(name), **options)
        except AmbiguousHeaderError as exc:
            ambiguous[name] = (path, exc)
    if len(ambiguous) == 2:
        first, second = ambiguous["true"][1], ambiguous["pred"][1]
        if not _series_names(first, second):
            raise first
        # Series.to_csv(index=False) of two named Series: each first line appears nowhere
        # in either file, and both files keep as many samples read as header lines.
        print(f"note: the first lines {quoted(first.first_line)} of {true_path} and "
              f"{quoted(second.first_line)} of {pred_path} appear nowhere else in either "
              "file: read as header lines (the names pandas' to_csv writes); pass "
              "--no-header if they are labels", file=sys.stderr)
        for name, (path, _) in ambiguous.items():
            targets[name] = read_target(path, header=True, text=texts.get(name), **options)
        ambiguous = {}
    paths = {"true": true_path, "pred": pred_path}
    for name, (path, exc) in ambiguous.items():
        # No reading matching: either one gives a different number of samples (reported
        # downstream), so the file is read as it is.
        other = "pred" if name == "true" else "true"
        n_other = len(targets[other][0])
        if n_other == exc.n_lines and exc.first_line is None and \
                _starts_with_zero(targets[other][0], paths[other], texts.get(other)):
            # Series(y).to_csv(index=False) beside DataFrame(proba).to_csv(index=False):
            # "0" above the labels and "0,1,...,k-1" above the rows are pandas' names.
            print(f"note: the first lines of {paths[other]} ('0') and {path} "
                  "('0,1,...') are the names pandas gives an unnamed Series and unnamed "
                  "columns: read as header lines; pass --no-header if they are data",
                  file=sys.stderr)
            targets[other] = (targets[other][0][1:], targets[other][1])
            targets[name] = _reading(exc, True) or read_target(
                path, header=True, text=texts.get(name), **options)
            continue
        as_header = n_other == exc.n_lines - 1
        if as_header:
            # Never silently: the other file's length decided it.
            # the situation without the error's advice, which the note gives once
            situation = str(exc).split("; pass ")[0]
            print(f"note: {situation}: read as a header line, which leaves {n_other} samples "
                  "as in the other file; pass --no-header if it is data", file=sys.stderr)
        targets[name] = _reading(exc, as_header) or read_target(
            path, header=as_header, text=texts.get(name), **options)
    if header is None:
        _unnamed_series(targets, {"true": true_path, "pred": pred_path}, texts, options)
    return (*targets["true"][:1], *targets["pred"], targets["true"][1])


def _reading(exc, as_header):
    """The reading of an undecided file that ``exc`` carries (built when asked), or None."""
    reading = exc.readings.get(as_header)
    return reading() if callable(reading) else reading


def _starts_with_zero(values, path, text):
    """Whether ``values``, integer labels read from a text file, were read from a first
    line ``0`` (what pandas writes as the name of an unnamed Series)."""
    if np.ndim(values) != 1 or np.asarray(values).dtype.kind not in "iu" or \
            values[0] != 0 or Path(path).suffix == ".npy":
        return False
    if text is None:
        with open(path, encoding="utf-8-sig") as file:
            text = file.read(1 << 12)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and lines[0] == "0"


def _series_names(first, second):
    """Whether two undecided one-column files start with the names of two Series: lines
    that appear nowhere in either file, above as many lines each."""
    return (first.first_line is not None and second.first_line is not None
            and first.n_lines == second.n_lines and first.first_line not in second.values
            and second.first_line not in first.values)


def _unnamed_series(targets, paths, texts, options):
    """A file of integer labels whose first line is ``0`` reads it as a label (a number is
    data), unless the other file holds one sample less: ``0`` is then the name pandas
    gives an unnamed Series (``Series(y).to_csv(index=False)``), read as a header line
    with a note."""
    lengths = {name: len(target[0]) for name, target in targets.items()}
    for name, other in (("true", "pred"), ("pred", "true")):
        values = targets[name][0]
        if lengths[name] != lengths[other] + 1 or \
                not _starts_with_zero(values, paths[name], texts.get(name)):
            continue
        print(f"note: {paths[name]}: the first line '0' is read as a header line (the name "
              "pandas gives an unnamed Series), which leaves as many samples as in the "
              "other file; pass --no-header if it is a label", file=sys.stderr)
        targets[name] = (values[1:], targets[name][1])  # as read below a header line


def _is_stream(path):
    """Whether ``path`` is ``-`` (standard input) or a pipe, FIFO or character device
    (``/dev/stdin``, the ``/dev/fd/N`` of a shell's process substitution)."""
    if str(path) == "-":
        return True
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _check_source(path):
    """A clear error for a path that cannot be read: missing, or a directory."""
    if str(path) == "-":
        return
    if Path(path).is_dir():
        raise InputError(f"{path}: is a directory; expected a file of labels or scores")
    if not Path(path).exists():
        raise InputError(f"{path}: no such file")


def _read_stream(path):
    _check_source(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as stream:
                data = stream.read()
        return data.decode("utf-8-sig")
    except (UnicodeDecodeError, OSError) as exc:
        raise InputError(f"{path}: not a UTF-8 text stream ({exc})") from None


def read_target(path, *, header=None, delimiter="auto", index_column=False, text=None):
    """:func:`load_target`, and the names of a 2-D text file's columns from its header line
    (None without one); ``text`` is the content of a stream already read."""
    if text is None and _is_stream(path) and Path(path).suffix != ".npy":
        text = _read_stream(path)
    if text is not None:
        return _load_text(Path(path), header, delimiter, index_column, text=text)
    path = Path(path)
    if path.suffix == ".npy" or not path.is_file():
        return load_target(path, header=header, delimiter=delimiter,
                           index_column=index_column), None
    return _load_text(path, header, delimiter, index_column)


def load_target(path, *, header=None, delimiter="auto", index_column=False):
    """Read 1-D labels or a 2-D numeric matrix from a ``.npy`` or text file, safely.

    Parameters
    ----------
    path : str or Path
        A ``.npy`` file, or a text file (CSV, TSV, whitespace-separated, one label per line).
    header : bool or None, default=None
        Text files: whether the first line is a header line; None detects it (see the
        module's rules).
    delimiter : {"auto", "comma", "tab", "semicolon", "whitespace", "none"}, default="auto"
        Text files: what separates fields; "none" reads each line as one label.
    index_column : bool, default=False
        Text files: drop the first column (row names, as pandas' ``to_csv()`` writes them).

    Returns
    -------
    ndarray
        1-D labels (integers or strings) or a 2-D array of floats. Numbers must be finite
        and at most 1e12 in absolute value.
    """
    if _is_stream(path) and Path(path).suffix != ".npy":
        return _load_text(Path(path), header, delimiter, index_column,
                          text=_read_stream(path))[0]
    _check_source(path)
    path = Path(path)
    if not path.is_file() and path.suffix == ".npy":
        raise InputError(f"{path}: a .npy file must be a regular file (it is read twice)")
    if path.suffix == ".npy":
        return _load_npy(path)
    return _load_text(path, header, delimiter, index_column)[0]


# --- .npy -----------------------------------------------------------------------------------


def _load_npy(path):
    from numpy.lib import format as npy_format

    readers = {(1, 0): npy_format.read_array_header_1_0,
               (2, 0): npy_format.read_array_header_2_0}
    try:
        with path.open("rb") as file:
            version = npy_format.read_magic(file)
            if version not in readers:
                raise InputError(f"{path}: .npy format version {version[0]}.{version[1]} is "
                                 "not supported; expected 1.0 or 2.0 (what numpy.save writes "
                                 "for arrays of numbers or strings)")
            shape, _, dtype = readers[version](file)
            data_bytes = path.stat().st_size - file.tell()
    except (ValueError, TypeError, OSError, EOFError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"{path}: not a plain .npy array ({exc})") from None
    if dtype.hasobject:
        raise InputError(f"{path}: not a plain .npy array: it holds Python objects, which "
                         "only pickle can read; save an array of numbers or strings")
    if dtype.kind not in "biufU" or len(shape) not in (1, 2):
        raise InputError(f"{path}: expected a 1-D or 2-D array of numbers or strings, got "
                         f"{len(shape)}-D {dtype}")
    if dtype.itemsize == 0:
        raise InputError(f"{path}: the array's items are empty strings ({dtype}); expected "
                         "labels of at least one character")
    expected_bytes = math.prod(shape) * dtype.itemsize
    if expected_bytes != data_bytes:
        raise InputError(f"{path}: the header describes a {shape} array of {dtype} "
                         f"({expected_bytes} bytes of data) but the file holds {data_bytes} "
                         "bytes after its header; the file is truncated or not written by "
                         "numpy.save")
    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise InputError(f"{path}: not a plain .npy array ({exc})") from None
    if array.shape[0] == 0:
        raise InputError(f"{path}: the array holds no samples (shape {array.shape})")
    if array.dtype.kind in "biuf":
        _check_numbers(path, array.astype(np.float64))
    return array


# --- text -----------------------------------------------------------------------------------


def _load_text(path, header, delimiter, index_column, text=None):
    raw = None
    if text is None:
        try:
            # utf-8-sig: spreadsheet programs start UTF-8 files with a byte order mark.
            raw = path.read_bytes()
            if len(raw) >= FAST_MIN_CHARS and raw.isascii():
                # a large ASCII file: the fast reading decodes only what it needs (a
                # matrix: its first lines), and the reference reading the whole
                read = _fast_text(path, None, header, delimiter, index_column, raw)
                if read is not None:
                    return read
                return _slow_text(path, raw.decode("ascii"), header, delimiter,
                                  index_column)
            text = raw.decode("utf-8-sig")
        except (UnicodeDecodeError, OSError) as exc:
            raise InputError(f"{path}: not a UTF-8 text file ({exc})") from None
    read = _fast_text(path, text, header, delimiter, index_column, raw)
    if read is not None:
        return read
    return _slow_text(path, text, header, delimiter, index_column)


# --- The fast reading of large text files -----------------------------------------------------
#
# The reference reading splits and converts every field in Python: 12 s for 200,000 rows of
# 10 probabilities (issue 39). The fast reading decides the delimiter and the header line on
# the first lines with the same rules, then converts the body in one call: the compiled
# parser (``_text_kernels.parse_matrix``) where the package was built, else, or where it
# declines, pandas.read_csv where pandas is installed, else numpy.loadtxt (numpy.fromstring
# for one integer per line), after checking that it holds nothing but numbers and the
# delimiter; it builds a file of labels from its distinct labels (compiled: the codes of
# each line, ``_text_kernels.encode_labels``, no list of lines). Whatever
# it does not read with certainty (quotes, text in a matrix, other line breaks, a field it
# refuses, a repeated index, an error to report) goes to the reference reading, which says
# what is wrong as before: both give the same arrays (tests/_cli/test_cli_reading.py).

FAST_MIN_CHARS = 1 << 15  # smaller files: the reference reading, a few milliseconds
_SAMPLE_LINES = 20
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_NUMBER_BYTES = b"0123456789eE+-.\r\n"
_SEPARATORS = {"comma": ",", "tab": "\t", "semicolon": ";", "whitespace": " "}


def _fast_text(path, text, header, delimiter, index_column, raw=None):
    """``(array, names)`` as :func:`_slow_text` reads them, or None where the reference
    reading must decide; raises what the reference reading raises about the header line.
    ``raw``: the file's bytes, where ``text`` was decoded from them; ``text`` None: ``raw``
    is ASCII, decoded here only where the whole text is needed (a file of labels)."""
    if text is not None and (len(text) < FAST_MIN_CHARS or (
            not text.isascii() and _OTHER_LINE_BREAKS.search(text))):
        return None
    n_chars = len(raw) if text is None else len(text)
    for size in (1 << 12, 1 << 16):  # the first 4096 characters hold the sample, mostly
        prefix = raw[:size].decode("ascii") if text is None else text[:size]
        sample, offset, position = [], None, 0
        physical = prefix.splitlines(keepends=True)
        if len(prefix) < n_chars:
            physical = physical[:-1]  # the last line of the prefix may be cut
        for number, line in enumerate(physical, start=1):
            position += len(line)
            if line.strip():
                sample.append((number, line.strip()))
                offset = position if offset is None else offset
                if len(sample) == _SAMPLE_LINES:
                    break
        if len(sample) == _SAMPLE_LINES or len(prefix) == n_chars:
            break
    if len(sample) < 2:
        return None
    try:
        found = _detect_delimiter(path, sample) if delimiter == "auto" else delimiter
        rows = _split(path, sample, found)
    except InputError:
        return None
    if len({len(row) for row in rows}) != 1:
        return None
    first = rows[0]
    indexed = index_column or (header is not False and len(first) > 1 and first[0] == "")
    if len(first) - indexed == 1:
        if indexed and found != "comma":
            return None
        # (the sample's lines first: labels of text skip the scan of the whole text)
        if not indexed and found in ("comma", "none") and \
                all(line.lstrip("+-").isdigit() for _, line in sample[1:]) and \
                (text is None or text.isascii()):
            data = raw if text is None else text.encode("ascii")  # a character a byte
            if not data.translate(None, b"0123456789+-\r\n"):
                # Integers, one per line: a first line of a number above numbers is data
                # (the header rule), unless --header says otherwise.
                values = parse_numbers(data[offset:] if header else data, ",", np.int64)
                # -2**63: beyond int64's symmetric range, refused by the reference reading
                if values is not None and values.shape[1] == 1 and \
                        values.min(initial=0) > np.iinfo(np.int64).min:
                    return values[:, 0], None
        text = raw.decode("ascii") if text is None else text
        return _fast_labels(path, text, header, found, first, indexed, index_column)
    if found not in _SEPARATORS or indexed and not index_column and header is False:
        return None
    if text is None:  # ASCII: a character is a byte; a view, not a copy
        body = memoryview(raw)[offset:]
    elif raw is not None and text.isascii():
        body = raw[len(raw) - len(text) + offset:]  # after the byte order mark, if any
    else:
        body = text[offset:]
    return _fast_matrix(path, body, header, found, first, indexed, index_column)


def _fast_labels(path, text, header, delimiter, first, indexed, forced):
    """A file of labels, one per line (after pandas' index, ``indexed``)."""
    if '"' in text or "\t" in text or ";" in text or " " in text or \
            (delimiter == "comma" and not indexed and "," in text):
        return None
    if COMPILED is not None and not indexed and text.isascii():
        coded = COMPILED.encode_labels(text.encode("ascii"))
        if coded is not None:
            return _coded_labels(path, header, first, *coded)
    if text.isascii() and not any(space in text for space in "\r\x0b\x0c\x1c\x1d\x1e\x1f"):
        values = list(filter(None, text.split("\n")))  # no line to strip: split in C
    else:
        values = [line for line in map(str.strip, text.splitlines()) if line]
    if indexed:
        parts = [value.partition(",") for value in values]
        if any(not separator or "," in label for _, separator, label in parts):
            return None
        first_fields = [parts[0][0].strip(), parts[0][2].strip()]
    else:
        first_fields = [values[0]]
    if first_fields != first:
        return None
    rest = []  # the set of the labels below the first line, where the rule read it

    def rest_values():
        rest.append({part[0] for part in parts[1:]} if indexed
                    else set(itertools.islice(values, 1, None)))
        return rest[0]

    if header is None:
        header = _header_rule(path, first, len(values), rest_values)
    if header:
        values = values[1:]
        parts = parts[1:] if indexed else None
        if not values:
            return None
    if indexed:
        if not forced:
            index = [_integer(part[0].strip()) for part in parts]
            if None in index or len(set(index)) != len(index):
                return None
        values = [label.strip() for _, _, label in parts]
    if rest and not indexed:  # the set already read: the first label, if not a header
        distinct = rest[0] if header else rest[0] | {values[0]}
    else:
        distinct = set(values)
    integers = {value: _integer(value) for value in distinct}
    if None in integers.values():
        if all(_is_number(value) for value in distinct):
            return None  # a number that is not a label: the reference says where
        return _strings(values, distinct), None
    if any(abs(value) > np.iinfo(np.int64).max for value in integers.values()):
        return None
    return np.array([integers[value] for value in values], dtype=np.int64), None


def _coded_labels(path, header, first, codes, labels):
    """:func:`_fast_labels` from the compiled parser's reading of a file of labels, one per
    line: ``labels`` the distinct lines in the order they first appear, ``codes`` each
    line's index in ``labels`` (no list of the lines is built)."""
    if [labels[0]] != first:
        return None
    repeated = []  # whether the first line appears again, where asked

    def first_repeated():
        if not repeated:
            repeated.append(np.count_nonzero(codes == 0) > 1)
        return repeated[0]

    def rest_values():
        return set(labels) if first_repeated() else set(labels[1:])

    if header is None:
        header = _header_rule(path, first, len(codes), rest_values)
    if header:
        if len(codes) == 1:
            return None
        if first_repeated():
            codes = codes[1:]
        else:  # the header line's text is no label
            codes, labels = codes[1:] - 1, labels[1:]
    integers = [_integer(label) for label in labels]
    if None in integers:
        if all(_is_number(label) for label in labels):
            return None  # a number that is not a label: the reference says where
        return np.array(labels, dtype=f"<U{max(1, *map(len, labels))}")[codes], None
    if any(abs(value) > np.iinfo(np.int64).max for value in integers):
        return None
    return np.array(integers, dtype=np.int64)[codes], None


def _fast_matrix(path, body, header, delimiter, first, indexed, forced):
    """A matrix of numbers below its first line, ``first`` (a header line or a row);
    ``body``: the text (or ASCII bytes) after that line."""
    ambiguous = None
    if header is None:
        try:
            header = _header_rule(path, first, 2, set)
        except AmbiguousHeaderError as exc:
            ambiguous, header = exc, True
    if not isinstance(body, memoryview) and not body.isascii():
        return None
    separator = _SEPARATORS[delimiter]
    body = body.encode("ascii") if isinstance(body, str) else body
    array = parse_numbers(body, separator)
    if array is None or array.shape[1] != len(first) or not np.isfinite(array).all():
        return None
    first_row = [_number(field) for field in first]

    def reading(as_header):
        values, names = array, (list(first) if as_header else None)
        if not as_header:
            values = np.vstack([np.array(first_row, dtype=np.float64), array])
        if indexed:
            values, names = values[:, 1:], None if names is None else names[1:]
        if values.size and max(values.max(), -values.min()) > _MAX_ABS_VALUE:
            _check_numbers(path, values)
        return values, names

    if indexed and not forced:
        index = array[:, 0]
        if not (np.all(index == np.round(index)) and np.abs(index).max() <= _MAX_EXACT_INTEGER
                and len(np.unique(index)) == len(index)):
            return None
    if ambiguous is not None:
        if None in first_row:
            return None
        # The file read once, both ways: the other file's length decides (load_targets).
        # (a value the check refuses raises when the reading is asked for, after the
        # ambiguity, as in the reference reading)
        try:
            as_header = reading(True)
        except InputError:
            as_header = lambda: reading(True)  # noqa: E731
        readings = {True: as_header, False: lambda: reading(False)}
        raise AmbiguousHeaderError(str(ambiguous), len(array) + 1, readings=readings)
    if not header and (None in first_row or indexed):
        return None
    return reading(header)


def parse_numbers(body, separator, dtype=np.float64):
    """The rows of numbers of ``body`` (ASCII text or bytes of numbers and ``separator``, " " for
    whitespace) as a 2-D float64 array (or int64: one integer per line), each number the
    one ``float`` (or ``int``) reads; None where the parser refuses it, or, for floats,
    where ``body`` holds another byte (text, quotes, another delimiter: the reference
    reading decides).
    Floats: the compiled parser where the package was built
    (:func:`_text_kernels.parse_matrix`, one pass over the bytes: 60 ms for 200,000 rows of
    10 numbers of 17 digits, pandas' reader 80 ms); where it declines, or for integers,
    pandas' C reader
    where it is installed (from pandas 3 its default conversion is correctly rounded;
    before it, ``float_precision="round_trip"``), else ``numpy.loadtxt``."""
    if dtype is np.float64:
        body = body.encode("ascii") if isinstance(body, str) else body
        if COMPILED is not None:
            array = COMPILED.parse_matrix(body, 0, ord(separator))
            if array is not None:
                return array
        body = bytes(body)  # (a view of the file's bytes)
        if body.translate(None, _NUMBER_BYTES + separator.encode()):
            return None
    try:
        import pandas as pd
    except ImportError:
        pd = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if pd is not None:
                options = ({} if int(pd.__version__.split(".")[0]) >= 3
                           else {"float_precision": "round_trip"})
                source = io.BytesIO(body) if isinstance(body, bytes) else io.StringIO(body)
                frame = pd.read_csv(source, sep=r"\s+" if separator == " "
                                    else separator, header=None, dtype=dtype,
                                    na_filter=False, engine="c", quoting=csv.QUOTE_NONE,
                                    skip_blank_lines=True, **options)
                array = frame.to_numpy(dtype=dtype)
            elif dtype is np.int64:  # one integer per line
                array = _integers(body)[:, None]
            else:
                body = body.decode("ascii") if isinstance(body, bytes) else body
                array = np.loadtxt(io.StringIO(body), delimiter=None if separator == " "
                                   else separator, comments=None, quotechar=None,
                                   dtype=np.float64, ndmin=2)
        except Exception:  # noqa: BLE001 - any refusal: the reference reading says why
            return None
    return array if array.ndim == 2 and array.shape[0] else None


_MISPLACED_SIGN = re.compile(rb"[^\n][+-]|[+-](?![0-9])")


def _integers(body):
    """The integers of ``body``, one per line (ASCII digits, signs, line breaks): by
    ``numpy.fromstring`` (C, 4x faster than splitting in Python) where it reads exactly
    one number per line and none at the bounds of int64, where it saturates; else each
    line by ``int`` (raises beyond int64)."""
    data = body.encode("ascii") if isinstance(body, str) else body
    lines = data.replace(b"\r", b"").strip(b"\n")
    signs = (b"+" in lines or b"-" in lines) and _MISPLACED_SIGN.search(b"\n" + lines)
    if lines and b"\n\n" not in lines and not signs:  # fromstring skips a lone sign
        array = np.fromstring(lines, sep="\n", dtype=np.int64)
        bounds = np.iinfo(np.int64)
        if len(array) == lines.count(b"\n") + 1 and not (
                (array == bounds.max) | (array == bounds.min)).any():
            return array
    return np.array(data.split(), dtype=np.int64)


def _strings(values, distinct):
    """``np.array(values)`` for the labels ``values`` (``str``), ``distinct`` the set of
    them: their width given (the longest distinct label), which NumPy otherwise finds by
    reading every label twice; twice as fast on 200,000 labels."""
    return np.array(values, dtype=f"<U{max(1, *map(len, distinct))}")


def _slow_text(path, text, header, delimiter, index_column):
    """The reference reading, field by field: every rule and every error message. The fast
    reading (:func:`_fast_text`) gives its results on the files it reads, and hands any
    other file here."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    if not lines:
        raise InputError(f"{path}: the file is empty")
    if delimiter == "auto":
        delimiter = _detect_delimiter(path, lines)
    rows = _split(path, lines, delimiter)
    numbers = [row[0] for row in lines]
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        first = len(rows[0])
        other = next(i for i, row in enumerate(rows) if len(row) != first)
        hint = ("; for labels that contain spaces pass --delimiter none"
                if delimiter == "whitespace" else "")
        raise InputError(f"{path}: rows have different numbers of fields: line "
                         f"{numbers[0]} has {first}, line {numbers[other]} has "
                         f"{len(rows[other])} (fields separated by {_name(delimiter)}){hint}")
    if header is None:
        header = _detect_header(path, rows)
    names = None
    if header:
        names, rows, numbers = rows[0], rows[1:], numbers[1:]
        if not rows:
            raise InputError(f"{path}: the file holds a header line and no data")
    if index_column or (names is not None and len(names) > 1 and names[0] == ""):
        rows = _drop_index(path, rows, numbers, forced=index_column)
        names = None if names is None else names[1:]
    if len(rows[0]) == 1:
        return _labels(path, [row[0] for row in rows], numbers), None
    return _matrix(path, rows, numbers, delimiter), names


def _detect_delimiter(path, lines):
    on_every_line, on_some_lines = [], []
    for name, character in _DELIMITERS.items():
        separated = [character in line and len(_fields(line, character)) > 1
                     for _, line in lines]
        if all(separated):
            on_every_line.append(name)
        elif any(separated):
            without = lines[separated.index(False)][0]
            with_ = lines[separated.index(True)][0]
            on_some_lines.append(f"{name} separates fields on line {with_} but not on line "
                                 f"{without}")
    if len(on_every_line) > 1:
        raise InputError(f"{path}: every line holds several delimiters "
                         f"({', '.join(on_every_line)}); {_DELIMITER_FIX}")
    if on_every_line:
        return on_every_line[0]
    if on_some_lines:
        raise InputError(f"{path}: {on_some_lines[0]}; rows must all have the same fields; "
                         "if the character belongs to the labels pass --delimiter none")
    # Rows of several numbers split at whitespace; lines of words only are labels that hold
    # spaces ("class with a long name"), one per line.
    if any(len(words) > 1 and all(_is_number(word) for word in words)
           for words in (line.split() for _, line in lines)):
        return "whitespace"
    # One value per line; read as CSV so that a quoted label ("a,b", as pandas writes it)
    # loses its quotes.
    return "comma"


def _split(path, lines, delimiter):
    if delimiter == "none":
        return [[line] for _, line in lines]
    if delimiter == "whitespace":
        return [line.split() for _, line in lines]
    try:
        return [_fields(line, _DELIMITERS[delimiter]) for _, line in lines]
    except csv.Error as exc:
        raise InputError(f"{path}: not a CSV file ({exc})") from None


def _fields(line, character):
    """A line's fields; quoted ones (``"a,b"``, as pandas writes them) lose their quotes."""
    if '"' not in line:
        return [field.strip() for field in line.split(character)]
    return [field.strip() for field in next(csv.reader([line], delimiter=character))]


def _name(delimiter):
    return {"none": "nothing: one value per line", "whitespace": "whitespace"}.get(
        delimiter, repr(_DELIMITERS.get(delimiter)))


def _detect_header(path, rows):
    first = rows[0]
    return _header_rule(path, first, len(rows), lambda: {row[0] for row in rows[1:]})


def _header_rule(path, first, n_rows, rest_values):
    """Whether ``first`` (the fields of the first line) is a header line above ``n_rows - 1``
    more rows; ``rest_values()``: the set of the first fields of the other rows (read only
    for one-column files). One rule for the reference and the fast readings."""
    has_rest = n_rows > 1
    if len(first) > 1 and first[0] == "":
        return True  # an unnamed first column: pandas' index
    if all(_is_number(field) for field in first):
        if (len(first) >= 3 and has_rest
                and all(float(field) == column for column, field in enumerate(first))):
            raise AmbiguousHeaderError(
                f"{path}: the first line {quoted(','.join(first))} may be a header line "
                "(pandas names unnamed columns so) or a row of data; "
                f"{_HEADER_FIX.replace('a label', 'data')}", n_rows)
        if len(first) > 1 or not has_rest:
            return False
        # pandas names an unnamed Series "0": a number above text labels is that name.
        rest = rest_values()
        return not any(_is_number(value) for value in rest)
    if len(first) > 1:
        return True  # rows of several fields hold numbers: text can only be names
    rest = rest_values()
    if has_rest and all(_is_number(value) for value in rest):
        return True
    if first[0] in rest:
        return False
    raise AmbiguousHeaderError(
        f"{path}: the first line {quoted(first[0])} appears nowhere else in the file: it may "
        f"be a header line (as pandas' to_csv writes) or a class seen once; {_HEADER_FIX}",
        n_rows, first_line=first[0], values=rest)


def _drop_index(path, rows, numbers, forced):
    if len(rows[0]) < 2:
        raise InputError(f"{path}: --index-column needs at least two columns; the file has "
                         "one")
    if not forced:
        values = [_integer(row[0]) for row in rows]
        line = next((number for number, value in zip(numbers, values) if value is None),
                    None)
        if line is not None or len(set(values)) != len(values):
            found = (f"line {line} holds {rows[numbers.index(line)][0]!r}" if line is not None
                     else "its values repeat")
            raise InputError(f"{path}: the header line leaves the first column unnamed, as "
                             "pandas writes its index, but the column is not an index of "
                             f"distinct integers ({found}); write the file with "
                             "to_csv(index=False), or pass --index-column to drop the column")
    return [row[1:] for row in rows]


def _labels(path, labels, numbers):
    integers = [_integer(label) for label in labels]
    if any(value is None for value in integers):
        if all(_is_number(label) for label in labels):
            line = numbers[integers.index(None)]
            raise InputError(f"{path}: line {line} holds {labels[integers.index(None)]!r}, "
                             "a number that is not a class label; one value per line is a "
                             "label (an integer or a name); write probabilities or soft "
                             "labels as rows of one number per class")
        return np.array(labels)
    for number, value in zip(numbers, integers):
        if abs(value) > np.iinfo(np.int64).max:
            raise InputError(f"{path}: line {number} holds the label {value}, beyond 64-bit "
                             "integers")
    return np.array(integers, dtype=np.int64)


def _matrix(path, rows, numbers, delimiter):
    values = []
    for number, row in zip(numbers, rows):
        parsed = [_number(field) for field in row]
        if None in parsed:
            field = row[parsed.index(None)]
            hint = ("; for labels that contain spaces pass --delimiter none"
                    if delimiter == "whitespace" else
                    "; if the first column names the rows, pass --index-column"
                    if _number(row[0]) is not None and len(row) == 2 else "")
            raise InputError(f"{path}: line {number} has a field that is not a number "
                             f"({field!r}); rows of several fields hold indicators or soft "
                             f"labels, {len(row)} numbers separated by {_name(delimiter)}"
                             f"{hint}")
        values.append(parsed)
    array = np.array(values, dtype=np.float64)
    _check_numbers(path, array)
    return array


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def _is_number(text):
    return _number(text) is not None


def _integer(text):
    """The integer a label field writes (``7``, ``7.0``, ``7.000e+00``), or None."""
    try:
        return int(text)
    except ValueError:
        pass
    number = _number(text)
    if number is not None and number.is_integer() and abs(number) <= _MAX_EXACT_INTEGER:
        return int(number)
    return None


def _check_numbers(path, array):
    if not np.isfinite(array).all():
        raise InputError(f"{path}: contains NaN or infinite values")
    if array.size and np.abs(array).max() > _MAX_ABS_VALUE:
        raise InputError(f"{path}: contains values above {_MAX_ABS_VALUE:g} in absolute value")


# --- The cost matrix of --cost-matrix ---------------------------------------------------------

COST_MATRIX_HELP = (
    "a square matrix of costs: cost[i][j] is the cost of deciding class j for an instance of "
    "true class i (rows true classes, columns decisions), in the order of the report's classes "
    "(--labels, else the sorted labels) unless names say otherwise; negative costs are "
    "benefits. A text file (CSV, TSV, whitespace) holds one row of numbers per true class, "
    "optionally under a header line naming the classes (of the columns, and of the rows "
    "unless a first column names them, as pandas' DataFrame(cost, index=classes, "
    "columns=classes).to_csv() writes); a .json file an array of rows, or {\"labels\": [...], "
    "\"cost_matrix\": [[...], ...]}; a .npy file a square array. Named classes may come in any "
    "order. Adds the expected cost of the decisions "
    "(for probabilities: of the argmax and of the Bayes decisions, those of least expected "
    "cost), with an interval under --confidence")


def load_cost_matrix(path, classes):
    """The cost matrix of ``--cost-matrix FILE`` as a float64 ``(C, C)`` array in the order
    of ``classes`` (the report's class names: rows true classes, columns decisions).

    Text files: rows of numbers (the delimiter detected as for the targets), optionally
    under a header line naming the classes of the columns (a text field, or a line of the
    class names above ``C`` rows), and of the rows too unless a first column names them
    (text, or any first column under a header line whose first field is empty, as pandas
    writes a DataFrame's index). ``.json``: an array of ``C`` arrays of ``C`` numbers, or an object
    ``{"labels": [...], "cost_matrix": [[...]]}`` naming the classes of both. ``.npy``: a
    ``C x C`` array of numbers. Names, where given, must be the report's classes, each once,
    in any order. Every error names the option: ``--cost-matrix FILE: ...``."""
    try:
        matrix, row_names, column_names = _read_cost_matrix(
            Path(path) if str(path) != "-" else path, [str(name) for name in classes])
        return _in_report_order(path, matrix, row_names, column_names, list(classes))
    except InputError as exc:
        raise InputError(f"--cost-matrix {exc}") from None


def _read_cost_matrix(path, classes):
    """``(matrix, row_names, column_names)`` of a cost-matrix file, names None if absent.
    A first line that mixes numbers and text is a header line where its fields name
    classes of the report (``classes``), else a row of costs with a field to refuse."""
    _check_source(path)
    if Path(path).suffix == ".npy":
        array = _load_npy(Path(path))
        if array.dtype.kind not in "biuf":
            raise InputError(f"{path}: holds {array.dtype} values; expected a square array "
                             "of numbers (costs)")
        return array.astype(np.float64), None, None
    text = _read_stream(path)
    if Path(path).suffix == ".json":
        return _json_cost_matrix(path, text)
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    if not lines:
        raise InputError(f"{path}: the file is empty")
    delimiter = _detect_delimiter(path, lines)
    rows, numbers = _split(path, lines, delimiter), [number for number, _ in lines]
    column_names = row_names = None
    first = rows[0]
    if not all(_is_number(field) for field in first) and (
            first[0] == "" or not any(_is_number(field) for field in first)
            or {_name_of(field) for field in first} <= set(classes)):  # a header line
        column_names, rows, numbers = rows[0], rows[1:], numbers[1:]
        if not rows:
            raise InputError(f"{path}: the file holds a header line and no costs")
    corner = column_names is not None and column_names[0] == "" and \
        all(len(row) == len(column_names) for row in rows)
    if corner or all(not _is_number(row[0]) for row in rows):  # a first column of names
        row_names, rows = [row[0] for row in rows], [row[1:] for row in rows]
        if corner:
            column_names = column_names[1:]
    widths = [len(row) for row in rows]
    if len(set(widths)) != 1:
        other = next(i for i, width in enumerate(widths) if width != widths[0])
        raise InputError(f"{path}: rows have different numbers of costs: line {numbers[0]} "
                         f"has {widths[0]}, line {numbers[other]} has {widths[other]} "
                         f"(fields separated by {_name(delimiter)})")
    values = []
    for number, row in zip(numbers, rows):
        parsed = [_number(field) for field in row]
        if None in parsed:
            raise InputError(f"{path}: line {number} has a field that is not a number "
                             f"({quoted(row[parsed.index(None)])}); a cost matrix holds "
                             "numbers (class names only in a header line and a first "
                             "column)")
        values.append(parsed)
    matrix = np.array(values, dtype=np.float64)
    _check_numbers(path, matrix)
    if column_names is not None and len(column_names) != matrix.shape[1]:
        raise InputError(f"{path}: the header line names {len(column_names)} columns but the "
                         f"rows hold {matrix.shape[1]} costs")
    if column_names is None and matrix.shape[0] == matrix.shape[1] + 1:
        # a header line of numbers (integer class names) above a square matrix
        column_names, matrix = [_name_of(field) for field in rows[0]], matrix[1:]
        if row_names is not None:
            row_names = row_names[1:]
    return matrix, row_names, column_names


def _name_of(field):
    """A class name as written in a file: an integer written ``2`` or ``2.0`` reads ``2``."""
    value = _integer(field)
    return str(value) if value is not None else str(field)


def _json_cost_matrix(path, text):
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a JSON file ({exc})") from None
    names = None
    if isinstance(value, dict):
        if "cost_matrix" not in value or set(value) - {"labels", "cost_matrix"}:
            raise InputError(f"{path}: a JSON object must hold \"cost_matrix\" (its rows: "
                             "true classes, columns: decisions) and may hold \"labels\" (their "
                             f"classes); got the keys {quoted(sorted(value))}")
        names, value = value.get("labels"), value["cost_matrix"]
        if names is not None and not (isinstance(names, list) and all(
                isinstance(name, (str, int)) and not isinstance(name, bool)
                for name in names)):
            raise InputError(f"{path}: \"labels\" must be an array of class names (strings "
                             f"or integers); got {quoted(names)}")
        names = None if names is None else [str(name) for name in names]
    if not isinstance(value, list) or not value or not all(isinstance(row, list)
                                                           for row in value):
        raise InputError(f"{path}: expected an array of rows of costs ([[0, 1], [5, 0]]); "
                         f"got {quoted(value)}")
    widths = [len(row) for row in value]
    if len(set(widths)) != 1:
        other = next(i for i, width in enumerate(widths) if width != widths[0])
        raise InputError(f"{path}: rows have different numbers of costs: row 0 has "
                         f"{widths[0]}, row {other} has {widths[other]}")
    for i, row in enumerate(value):
        for j, cost in enumerate(row):
            if not isinstance(cost, (int, float)) or isinstance(cost, bool):
                raise InputError(f"{path}: row {i}, column {j} holds {quoted(cost)}, not a "
                                 "number; a cost matrix holds numbers")
    matrix = np.array(value, dtype=np.float64)
    _check_numbers(path, matrix)
    return matrix, names, names


def _in_report_order(path, matrix, row_names, column_names, classes):
    """``matrix`` checked against the report's ``classes`` (its shape, the names of its rows
    and columns) and put in their order."""
    n_classes = len(classes)
    shown = quoted(classes)
    if matrix.ndim != 2 or matrix.shape != (n_classes, n_classes):
        found = (f"a {matrix.shape[0]} x {matrix.shape[1]} matrix" if matrix.ndim == 2
                 else f"a {matrix.ndim}-D array of shape {matrix.shape}")
        raise InputError(
            f"{path}: holds {found}; expected a square {n_classes} x {n_classes} matrix, one "
            f"row per true class and one column per decision, for the report's "
            f"{n_classes} classes {shown} (in this order unless a header line names them)")
    if row_names is None:  # a header line names the classes of a square matrix
        row_names = column_names
    index = {name: k for k, name in enumerate(classes)}
    order = {}
    for names, what in ((column_names, "columns"), (row_names, "rows")):
        if names is None:
            continue
        names = [str(name) for name in names]
        missing = [name for name in classes if name not in names]
        unknown = [name for name in names if name not in index]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if missing or unknown or repeated:
            found = "; ".join(part for part in (
                f"not the report's classes: {quoted(unknown)}" if unknown else "",
                f"missing: {quoted(missing)}" if missing else "",
                f"named twice: {quoted(repeated)}" if repeated else "") if part)
            raise InputError(f"{path}: the names of its {what} must be the report's "
                             f"{n_classes} classes {shown}, each once; {found}")
        order[what] = [index[name] for name in names]
    result = np.empty_like(matrix)
    rows = order.get("rows", list(range(n_classes)))
    columns = order.get("columns", list(range(n_classes)))
    result[np.ix_(rows, columns)] = matrix
    return result
