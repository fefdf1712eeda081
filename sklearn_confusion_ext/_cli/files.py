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
  undecided, they are refused (pass ``--header`` or ``--no-header``).
- Index column: with a header line whose first field is empty, the first column is pandas'
  index when it holds distinct integers, and is dropped; otherwise the file is refused
  (``--index-column`` drops a first column whatever it holds).
"""

import csv
import math
import stat
import sys
from pathlib import Path

import numpy as np

from .._core.params import quoted

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

    def __init__(self, message, n_lines):
        super().__init__(message)
        self.n_lines = n_lines


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
        raise ambiguous["true"][1]
    for name, (path, exc) in ambiguous.items():
        # No reading matching: either one gives a different number of samples (reported
        # downstream), so the file is read as it is.
        n_other = len(targets["pred" if name == "true" else "true"][0])
        as_header = n_other == exc.n_lines - 1
        if as_header:
            # Never silently: the other file's length decided it.
            print(f"note: {exc} -- read as a header line, which leaves {n_other} samples as "
                  f"in the other file; pass --no-header if it is data", file=sys.stderr)
        targets[name] = read_target(path, header=as_header, text=texts.get(name), **options)
    return (*targets["true"][:1], *targets["pred"], targets["true"][1])


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
    if text is None:
        try:
            # utf-8-sig: spreadsheet programs start UTF-8 files with a byte order mark.
            text = path.read_text(encoding="utf-8-sig")
        except (UnicodeDecodeError, OSError) as exc:
            raise InputError(f"{path}: not a UTF-8 text file ({exc})") from None
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
    first, rest = rows[0], rows[1:]
    if len(first) > 1 and first[0] == "":
        return True  # an unnamed first column: pandas' index
    if all(_is_number(field) for field in first):
        if (len(first) >= 3 and rest
                and all(float(field) == column for column, field in enumerate(first))):
            raise AmbiguousHeaderError(
                f"{path}: the first line {quoted(','.join(first))} may be a header line "
                "(pandas names unnamed columns so) or a row of data; "
                f"{_HEADER_FIX.replace('a label', 'data')}", len(rows))
        # pandas names an unnamed Series "0": a number above text labels is that name.
        return (len(first) == 1 and bool(rest)
                and not any(_is_number(row[0]) for row in rest))
    if len(first) > 1:
        return True  # rows of several fields hold numbers: text can only be names
    if rest and all(_is_number(row[0]) for row in rest):
        return True
    if any(row[0] == first[0] for row in rest):
        return False
    raise AmbiguousHeaderError(
        f"{path}: the first line {quoted(first[0])} appears nowhere else in the file: it may "
        f"be a header line (as pandas' to_csv writes) or a class seen once; {_HEADER_FIX}",
        len(rows))


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
