"""The statistical results' common form: frozen dataclasses whose fields are checked on
construction, which unpack like scipy.stats' results (``statistic, pvalue = result``), and
which a person can read: a short repr naming what the result is with rounded figures, a
small HTML table in Jupyter, and ``to_frame()`` where the result holds a table.

One implementation serves every result: a class declares what its summary line shows
(``_summary_fields``) and, where it holds a table, which attributes make it
(``_table_index`` with ``_table_columns``, or a square ``_table_matrix``), or overrides
:meth:`Result._summary` / :meth:`Result._table`. Every result derives from :class:`Result`.
"""

import functools
import html
import math
import re
import sys
from dataclasses import dataclass, fields, is_dataclass
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from .params import validate_params
from .renames import RenamedAttributes

# The most rows and columns a printed table shows (the first and last halves, as pandas).
MAX_ROWS = 20
MAX_COLUMNS = 10
# The longest text of one cell or one name, cut in the middle with an ellipsis: in the
# printed text (a terminal's width) and in the HTML view (where a table cell wraps).
MAX_CELL = 40
MAX_HTML_CELL = 200
# The most items of a sequence written out in the summary line.
MAX_ITEMS = 6


def _result(parameters=None, **options):
    """A frozen dataclass whose constructor checks its fields against ``parameters`` (their
    declaration, written on the decorator as a function's is);
    a :class:`Result` keeps its repr (the dataclass's would print every array).

    A field refused while a function of the package builds the result is no error of the
    caller's about that field, which the caller never named: it is re-raised naming the
    public function and the argument that led to it (``_field_arguments``: field ->
    the public arguments it is computed from), see :func:`_refused_field`.
    """

    def decorate(cls):
        settings = ({"repr": False} if issubclass(cls, Result) else {}) | options
        cls = dataclass(frozen=True, **settings)(cls)
        # A field's former name (``_renamed_fields``) is a former keyword of the constructor.
        names = {field.name for field in fields(cls)}
        renamed = {old: new for old, new in getattr(cls, "_renamed_fields", {}).items()
                   if new in names and old not in names}
        validated = validate_params(parameters or cls.__name__, renamed=renamed)(
            cls.__init__)

        @functools.wraps(validated)
        def __init__(self, *args, **kwargs):
            try:
                validated(self, *args, **kwargs)
            except (TypeError, ValueError) as error:
                refused = _refused_field(cls, error, sys._getframe(1))
                if refused is None:
                    raise
                raise refused from None

        cls.__init__ = __init__
        return cls

    return decorate


_REFUSED = re.compile(r"The '(\w+)' parameter of \w+ must be (.*); got (.*)\.$", re.DOTALL)


def _refused_field(cls, error, frame):
    """The error to raise for ``error``, a field of ``cls`` refused, where the package built
    the result (``frame`` is where it was built); None where the caller built it (its own
    arguments are the fields, and the error names them as it is).

    The error names the outermost public function of the package on the stack (the call
    the user made) and, where ``cls._field_arguments`` maps the field to the arguments it
    is computed from, those arguments with their values: ``friedman_posthoc: alpha=1e-20
    gives a critical difference of inf; ...``. A field without such a map is a value the
    function should have refused an argument for: the error says so.
    """
    package = __name__.partition(".")[0]
    if not frame.f_globals.get("__name__", "").startswith(package + "."):
        return None
    match = _REFUSED.match(str(error))
    if match is None:
        return None
    field, expected, got = match.groups()
    public, arguments = frame.f_code.co_name, {}
    names = set(getattr(sys.modules.get(package), "__all__", ()))
    while frame is not None:
        if (frame.f_globals.get("__name__", "").startswith(package + ".")
                and frame.f_code.co_name in names):
            public, arguments = frame.f_code.co_name, frame.f_locals
        frame = frame.f_back
    given = [name for name in getattr(cls, "_field_arguments", {}).get(field, ())
             if name in arguments]
    what = field.replace("_", " ")
    what = ("an " if what[0] in "aeiou" else "a ") + what
    if given:
        shown = ", ".join(f"{name}={_cut(repr(arguments[name]), 60)}" for name in given)
        return type(error)(f"{public}: {shown} gives {what} of {got}, which must be "
                           f"{expected}: pass {' and '.join(given)} within the reach of "
                           "this computation.")
    return type(error)(f"{public}: these arguments give {what} of {got}, which must be "
                       f"{expected}; {public} should have refused the argument that leads "
                       "there. Please report this call.")


def _cut(text, limit=MAX_CELL):
    """``text`` of at most ``limit`` characters, its start and end kept around an ellipsis."""
    text = str(text)
    if len(text) <= limit:
        return text
    end = (limit - 1) // 2
    return text[:limit - 1 - end] + "\u2026" + text[-end:]


def _number(value):
    """A number for reading: four significant digits, no exponent for ordinary values."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (Integral, np.integer)):
        return str(int(value))
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if value == 0 or 1e-4 <= abs(value) < 1e6:
        text = f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"
        return text if "." in text else text + ".0"  # a float reads as one
    return f"{value:.3g}"


def _shown(value):
    """The text of one value of a summary line or a table cell: never the whole of an
    array or a long sequence, only its size."""
    if value is None:
        return "None"
    if isinstance(value, _Bare):
        return _cut(value, 80)
    if isinstance(value, str):
        return repr(_cut(value))
    if isinstance(value, (Real, np.number, np.bool_)):
        return _number(value)
    if isinstance(value, (list, tuple, np.ndarray)):
        array = np.asarray(value, dtype=object)
        if array.ndim == 1 and array.size <= MAX_ITEMS:
            items = ", ".join(_shown(item) if not isinstance(item, str) else repr(_cut(item))
                              for item in array)
            return f"[{items}]" if not isinstance(value, tuple) else f"({items})"
        return f"<{len(value) if array.ndim == 0 else 'x'.join(map(str, array.shape))} values>"
    if isinstance(value, dict):
        return f"<{len(value)} entries>"
    return _cut(repr(value))


class _Bare(str):
    """A summary value written without quotes ("5 of 9")."""


def _cell(value, limit=MAX_CELL):
    """A table cell's text: strings bare, booleans as yes or no."""
    if isinstance(value, (str, np.str_)):
        return _cut(value, limit)
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    return _shown(value)


def _kept(n, limit):
    """The positions shown of ``n`` rows (columns): all, or the first and last halves with
    None marking the gap."""
    if n <= limit:
        return list(range(n))
    half = limit // 2
    return list(range(half)) + [None] + list(range(n - half, n))


class _Table:
    """A table of a result: ``index`` names the rows (``index_name`` their kind),
    ``columns`` maps each column's name to its values, one per row."""

    def __init__(self, index_name, index, columns, percent=False):
        self.index_name, self.index = index_name, list(index)
        self.columns = {name: list(values) for name, values in columns.items()}
        self.percent = percent  # fractions written in percent, as papers print them

    def frame(self):
        pandas = _pandas()
        # A column of labels with None stays a column of objects: pandas read [3, None]
        # as the floats [3.0, nan], turning class labels into numbers (floats with None
        # stay floats with NaN)
        columns = {name: (pandas.Series(values, dtype=object).array
                          if _labels_with_none(values) else values)
                   for name, values in self.columns.items()}
        frame = pandas.DataFrame(columns, index=pandas.Index(self.index,
                                                             name=self.index_name))
        return frame

    def cells(self, limit=MAX_CELL):
        """The header and the rows as text, cut to :data:`MAX_ROWS` rows and
        :data:`MAX_COLUMNS` columns (an ellipsis where some are left out)."""
        names = list(self.columns)
        shown_columns = _kept(len(names), MAX_COLUMNS)
        corner = (self.index_name or "") + (" (%)" if self.percent else "")
        header = [_cut(corner, limit)] + [
            "\u2026" if j is None else _cut(names[j], limit) for j in shown_columns]
        rows = []
        for i in _kept(len(self.index), MAX_ROWS):
            if i is None:
                rows.append(["\u2026"] * len(header))
                continue
            rows.append([_cell(self.index[i], limit)] + [
                "\u2026" if j is None else self._cell(self.columns[names[j]][i], limit)
                for j in shown_columns])
        return header, rows

    def _cell(self, value, limit):
        if self.percent and isinstance(value, (Real, np.floating)):
            return f"{100 * float(value):.1f}"
        return _cell(value, limit)

    def text(self):
        header, rows = self.cells()
        widths = [max(len(line[k]) for line in [header, *rows]) for k in range(len(header))]
        lines = [f"{line[0]:<{widths[0]}}" + "".join(
            f"  {cell:>{width}}" for cell, width in zip(line[1:], widths[1:]))
            for line in [header, *rows]]
        return "\n".join(line.rstrip() for line in lines)

    def html(self):
        header, rows = self.cells(MAX_HTML_CELL)
        head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
        body = "".join(
            "<tr><th>" + html.escape(row[0]) + "</th>"
            + "".join(f"<td>{html.escape(cell)}</td>" for cell in row[1:]) + "</tr>"
            for row in rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _labels_with_none(values):
    """Whether ``values`` holds None beside values that are not floats (labels)."""
    return (any(value is None for value in values)
            and any(value is not None and not isinstance(value, float) for value in values))


def _pandas():
    try:
        import pandas
    except ImportError as error:
        raise ImportError("to_frame() needs pandas, an optional dependency: "
                          "pip install pandas") from error
    return pandas


class Result(RenamedAttributes):
    """The one base of every result: what it shows a person (a repr, an HTML view,
    ``to_frame()``), how it unpacks, and its former field names.

    Unpacking: ``_unpacked`` names the fields a tuple unpacking gives, in order, as scipy's
    results do (``statistic, pvalue = result``); the other fields are attributes only, as
    ``df`` of ``scipy.stats.ttest_ind``'s result. A result with ``_unpacked = ()`` (a table,
    an estimate with its interval) does not unpack: ``iter(result)`` is a ``TypeError``
    naming its attributes, never a silent tuple of the wrong things.

    ``confidence_interval()`` is declared where a result holds an interval
    (:func:`interval_method`).

    A class declares its summary line as ``_summary_fields`` (attribute names; by default
    a dataclass's fields) and its table as ``_table_index`` (the attribute naming the rows)
    with ``_table_columns`` (attributes of one value per row, or ``(column, attribute)``
    pairs), or as ``_table_matrix`` (a square array whose rows and columns
    ``_table_index`` names); :meth:`_summary` and :meth:`_table` may compute them instead.
    The repr names the class and shows the summary with four significant digits; arrays and
    long sequences appear by their size only, tables cut to :data:`MAX_ROWS` rows.
    """

    _unpacked = ()
    _summary_fields = None
    _table_index = None
    _table_index_name = None
    _table_columns = ()
    _table_matrix = None
    _table_percent = False
    _shows_one_row = True  # False where the summary line already shows a one-row table

    def _summary(self):
        """``(name, value)`` pairs of the summary line."""
        names = self._summary_fields
        if names is None:
            names = [f.name for f in fields(self)] if is_dataclass(self) else []
        return [(name, getattr(self, name)) for name in names]

    def _table(self):
        """The result's :class:`_Table`, or None."""
        if self._table_index is None:
            return None
        index = getattr(self, self._table_index)
        if self._table_matrix is not None:
            matrix = np.asarray(getattr(self, self._table_matrix))
            columns = {str(name): matrix[:, j] for j, name in enumerate(index)}
        else:
            columns = {}
            for column in self._table_columns:
                name, attribute = (column, column) if isinstance(column, str) else column
                columns[name] = np.asarray(getattr(self, attribute))
        return _Table(self._table_index_name, index, columns, self._table_percent)

    def _line(self):
        try:
            items = ", ".join(f"{name}={_shown(value)}" for name, value in self._summary())
        except Exception as error:  # a repr never fails
            items = f"<summary unavailable: {type(error).__name__}>"
        return f"{type(self).__name__}({items})"

    def _safe_table(self):
        """The table the repr shows, or None (a repr never fails)."""
        try:
            table = self._table()
        except Exception:
            return None
        if table is not None and len(table.index) == 1 and not self._shows_one_row:
            return None
        return table

    def __repr__(self):
        table = self._safe_table()
        line = self._line()
        return line if table is None else f"{line}\n{table.text()}"

    def _repr_html_(self):
        table = self._safe_table()
        try:
            summary = self._summary()
        except Exception as error:
            summary = [("summary", f"unavailable: {type(error).__name__}")]
        items = "".join(f"<tr><th style='text-align:left'>{html.escape(name)}</th>"
                        f"<td style='text-align:left'>{html.escape(_shown(value))}</td></tr>"
                        for name, value in summary)
        parts = [f"<div><strong>{html.escape(type(self).__name__)}</strong>",
                 f"<table>{items}</table>" if items else ""]
        if table is not None:
            parts.append(table.html())
        return "".join(parts) + "</div>"

    def to_frame(self):
        """The result's table as a ``pandas.DataFrame`` (pandas is optional).

        Returns
        -------
        pandas.DataFrame
            One row per entry of the table (a class, a property, a measure), one column per
            value, equal to the result's attributes; a result that holds no table gives its
            summary as one row named after its type.

        Raises
        ------
        ImportError
            When pandas is not installed.

        Examples
        --------
        >>> from sklearn_confusion_ext import dirichlet_posterior
        >>> posterior = dirichlet_posterior([[8, 2], [1, 9]], prior=1.0,
        ...                                 display_labels=["cat", "dog"])
        >>> posterior.to_frame()[["recall_mean", "most_confused_with"]].round(3)
                recall_mean most_confused_with
        actual
        cat           0.750                dog
        dog           0.833                cat
        """
        pandas = _pandas()
        table = self._table()
        if table is not None:
            return table.frame()
        return pandas.DataFrame({name: [value] for name, value in self._summary()},
                                index=pandas.Index([type(self).__name__], name="result"))

    def __iter__(self):
        if not self._unpacked:
            names = ", ".join(f.name for f in fields(self)) if is_dataclass(self) else ""
            raise TypeError(f"{type(self).__name__} does not unpack like a tuple; read its "
                            f"attributes ({names}).")
        return iter(tuple(getattr(self, name) for name in self._unpacked))

    def __len__(self):
        if not self._unpacked:
            raise TypeError(f"{type(self).__name__} has no len(); it does not unpack.")
        return len(self._unpacked)

    def __bool__(self):  # a result is a value, true whether or not it unpacks
        return True

    def __getitem__(self, index):
        return tuple(self)[index]


class ConfidenceInterval(NamedTuple):
    """The ends of an interval, as ``scipy.stats``' results give it."""

    low: object
    high: object


def interval_method(low="low", high="high"):
    """The ``confidence_interval()`` method of a result whose fields ``low`` and ``high``
    are an interval's ends (scipy's ``result.confidence_interval()``)."""

    def confidence_interval(self):
        """The interval's ends, as a ``(low, high)`` named tuple."""
        return ConfidenceInterval(getattr(self, low), getattr(self, high))

    return confidence_interval
