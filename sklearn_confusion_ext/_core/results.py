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


def _unquoted(value):
    """A summary value as the HTML view writes it: :func:`_shown`, strings without quotes
    (a table cell says where a value starts and ends)."""
    if isinstance(value, str):
        return _cut(value, 80)
    if isinstance(value, (list, tuple)) and 0 < len(value) <= MAX_ITEMS and all(
            isinstance(item, str) for item in value):
        return ", ".join(_cut(item) for item in value)
    return _shown(value)


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

    def __init__(self, index_name, index, columns, percent=False, *, pvalues=False,
                 adjusted=None, alpha=None):
        self.index_name, self.index = index_name, list(index)
        self.columns = {name: list(values) for name, values in columns.items()}
        self.percent = percent  # fractions written in percent, as papers print them
        # Every cell a p-value (a post-hoc matrix); else the columns named pvalue*.
        self.pvalues = pvalues
        # What the p-values were adjusted by (a correction's name, or True), where every
        # p-value column is adjusted; else the columns named *corrected or *adjusted are.
        self.adjusted = adjusted
        # The level the adjusted p-values are read at: the HTML view marks those below it.
        self.alpha = _level(alpha)

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
        shown_rows = _kept(len(self.index), MAX_ROWS)
        # One format per column, chosen from the rows shown; one for the whole of a
        # matrix of p-values, whose columns are alike.
        shown = {j: [self.columns[names[j]][i] for i in shown_rows if i is not None]
                 for j in shown_columns if j is not None}
        if self.pvalues and shown:
            together = _column_texts([value for column in shown.values()
                                      for value in column], "pvalue", limit)
            size = len(next(iter(shown.values())))
            texts = {j: together[k * size:(k + 1) * size] for k, j in enumerate(shown)}
        else:
            texts = {j: _column_texts(values, self._column_kind(names[j]), limit)
                     for j, values in shown.items()}
        index = _index_texts([self.index[i] for i in shown_rows if i is not None], limit)
        rows, k = [], 0
        for i in shown_rows:
            if i is None:
                rows.append(["\u2026"] * len(header))
                continue
            rows.append([index[k]] + [
                "\u2026" if j is None else texts[j][k] for j in shown_columns])
            k += 1
        return header, rows

    def _column_kind(self, name):
        """How a column's numbers are written: "percent", "pvalue" or "number"."""
        if self.percent:
            return "percent"
        if self.pvalues or str(name).startswith("pvalue"):
            return "pvalue"
        return "number"

    def _marked(self, name):
        """Whether the HTML view marks the cells of column ``name`` below ``alpha``: the
        adjusted p-values (all of them where the table says they are all adjusted)."""
        if self.alpha is None or self._column_kind(name) != "pvalue":
            return False
        if self.adjusted:
            return True
        adjusted = [column for column in self.columns if self._column_kind(column) == "pvalue"
                    and re.search(r"(corrected|adjusted)$", str(column))]
        return str(name) in map(str, adjusted) if adjusted else False

    def caption(self, marks=True):
        """What the HTML view says under the table: what the cells are, what is marked
        (where ``marks``)."""
        words = []
        if self.pvalues:
            words.append("Cells are adjusted p-values" if self.adjusted else
                         "Cells are p-values")
            if isinstance(self.adjusted, str):
                words[-1] += f" ({self.adjusted})"
        marked = [str(name) for name in self.columns if self._marked(name)]
        if marked and marks:
            words.append(f"bold: p < {_number(self.alpha)}" if self.pvalues else
                         f"bold: adjusted p-values below {_number(self.alpha)} "
                         f"({', '.join(marked)})")
        text = "; ".join(words)
        return text[:1].upper() + text[1:] + "." if text else ""

    def text(self):
        header, rows = self.cells()
        widths = [max(len(line[k]) for line in [header, *rows]) for k in range(len(header))]
        lines = [f"{line[0]:<{widths[0]}}" + "".join(
            f"  {cell:>{width}}" for cell, width in zip(line[1:], widths[1:]))
            for line in [header, *rows]]
        if self.pvalues:  # say what the numbers are: a matrix reads like one of scores
            lines.append(self.caption(marks=False))
        return "\n".join(line.rstrip() for line in lines)

    def html(self):
        header, rows = self.cells(MAX_HTML_CELL)
        names = list(self.columns)
        shown_columns = _kept(len(names), MAX_COLUMNS)
        shown_rows = [i for i in _kept(len(self.index), MAX_ROWS)]
        marked = [j is not None and self._marked(names[j]) for j in shown_columns]
        head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
        lines = []
        for i, row in zip(shown_rows, rows):
            cells = []
            for j, mark, cell in zip(shown_columns, marked, row[1:]):
                value = None if i is None or j is None else self.columns[names[j]][i]
                if mark and _below(value, self.alpha):
                    cells.append(f"<td style='font-weight:bold' title='p &lt; "
                                 f"{_number(self.alpha)}'>{html.escape(cell)}</td>")
                else:
                    cells.append(f"<td>{html.escape(cell)}</td>")
            lines.append("<tr><th>" + html.escape(row[0]) + "</th>" + "".join(cells)
                         + "</tr>")
        caption = self.caption()
        caption = (f"<caption style='caption-side:bottom'>{html.escape(caption)}</caption>"
                   if caption else "")
        return (f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(lines)}"
                "</tbody></table>")


def _level(alpha):
    """``alpha`` where it is a significance level (a number in (0, 1)), else None."""
    if isinstance(alpha, (Real, np.floating)) and not isinstance(alpha, (bool, np.bool_)):
        return float(alpha) if 0 < alpha < 1 else None
    return None


def _below(value, alpha):
    """Whether ``value`` is a number below ``alpha``."""
    return (isinstance(value, (Real, np.number)) and not isinstance(value, (bool, np.bool_))
            and float(value) < alpha)


# P-values below this are written as below it (a float's tail is no more exact there).
PVALUE_FLOOR = 1e-300


def _column_texts(values, kind, limit=MAX_CELL):
    """The cells of one column, written in one format chosen for the whole column (as
    pandas writes a column): whole numbers without ``.0`` (counts: a column of 0 and 1
    only keeps a decimal, as rates); p-values with four significant digits of the
    smallest (six decimals at most, as pandas), the whole column in scientific notation
    where one is below 1e-4 (below :data:`PVALUE_FLOOR`, ``<1e-300``); other numbers
    with the decimals that show four significant digits of each (six at most), aligned
    and without the trailing zeros they all have, the whole column in scientific
    notation where one is below 1e-4 or above 1e6. Labels, booleans and what is not a
    column of numbers are written cell by cell."""
    numbers = [float(value) for value in values
               if isinstance(value, (Real, np.number)) and not isinstance(
                   value, (bool, np.bool_, Integral, np.integer))]
    if not numbers or len(numbers) + sum(
            isinstance(value, (Integral, np.integer)) and not isinstance(
                value, (bool, np.bool_)) for value in values) != len(values):
        if kind == "percent":
            return [f"{100 * float(value):.1f}" if isinstance(value, (Real, np.floating))
                    and not isinstance(value, (bool, np.bool_)) else _cell(value, limit)
                    for value in values]
        return [_cell(value, limit) for value in values]  # not a column of numbers
    finite = [abs(value) for value in numbers if math.isfinite(value)]
    if kind == "percent":
        write = "{:.1f}".format
        return [_special(value) or write(100 * float(value)) for value in values]
    if kind == "pvalue":
        shown = [value for value in finite if value >= PVALUE_FLOOR]
        smallest = min(shown, default=1.0)
        if smallest < 1e-4:
            write = "{:.3e}".format
        else:
            write = f"{{:.{_decimals([smallest])}f}}".format
        return [_special(value) or (f"<{PVALUE_FLOOR:.0e}" if 0 <= float(value)
                                   < PVALUE_FLOOR else write(float(value)))
                for value in values]
    if (all(value == int(value) for value in finite) and 1 < max(finite, default=0) < 1e15):
        # counts (a column of 0 and 1 only may be rates, proportions: it keeps a decimal)
        return [_special(value) or str(int(value)) for value in values]
    nonzero = [value for value in finite if value > 0]
    if nonzero and (min(nonzero) < 1e-4 or max(nonzero) >= 1e6):
        write = "{:.3e}".format
    else:
        write = f"{{:.{_decimals(nonzero)}f}}".format
    texts = [_special(value) or write(float(value)) for value in values]
    return _trimmed(texts)


def _index_texts(values, limit=MAX_CELL):
    """The row names of a table: a column of floats (thresholds) in one format, as
    :func:`_column_texts` writes a column, with the decimals (or, in scientific notation,
    the significant digits) that write distinct values distinctly (issue 39: nine
    thresholds near 1 all read ``1.0``), 17 significant digits at most; other row names
    cell by cell."""
    floats = [float(value) for value in values if isinstance(value, (float, np.floating))]
    if not floats or len(floats) != len(values):
        return [_cell(value, limit) for value in values]
    texts = _column_texts(values, "number", limit)
    finite = sorted({value for value in floats if math.isfinite(value)})
    if len({text for value, text in zip(floats, texts) if math.isfinite(value)}) == \
            len(finite):
        return texts
    scientific = any("e" in text for text in texts)
    for digits in range(1, 18):
        write = (f"{{:.{digits}e}}" if scientific else f"{{:.{digits}f}}").format
        texts = [_special(value) or write(value) for value in floats]
        if len({write(value) for value in finite}) == len(finite):
            break
    return texts if scientific else _trimmed(texts)


def _special(value):
    """The text of NaN and infinities (None for any other number)."""
    value = float(value)
    return None if math.isfinite(value) else str(value)


def _decimals(magnitudes, digits=4, most=6):
    """The decimals that show ``digits`` significant digits of each of ``magnitudes``
    (positive numbers), at most ``most`` and at least one."""
    needed = [digits - 1 - math.floor(math.log10(value)) for value in magnitudes]
    return min(max([1, *needed]), most)


def _trimmed(texts):
    """Fixed-point texts without the trailing zeros every one of them has (one decimal
    kept), as pandas trims a column."""
    fixed = [text for text in texts if "." in text and "e" not in text]
    if not fixed or len(fixed) != sum(text not in ("nan", "inf", "-inf") for text in texts):
        return texts
    while all(text.endswith("0") and not text.endswith(".0") for text in fixed):
        texts = [text[:-1] if text in fixed else text for text in texts]
        fixed = [text[:-1] for text in fixed]
    return texts


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
    # A ``_table_matrix`` of p-values; whether they are adjusted (True, or the attribute
    # naming the correction, as "method"). The HTML view marks the adjusted p-values below
    # the result's ``alpha`` (its level, where it has one) and says so under the table.
    _table_pvalues = False
    _table_adjusted = None
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
        return _Table(self._table_index_name, index, columns, self._table_percent,
                      pvalues=self._table_pvalues, adjusted=self._adjusted(),
                      alpha=getattr(self, "alpha", None))

    def _adjusted(self):
        """What the table's p-values are adjusted by (see ``_table_adjusted``)."""
        adjusted = self._table_adjusted
        if isinstance(adjusted, str):
            return str(getattr(self, adjusted, None) or True)
        return adjusted

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
        if table is not None and table.alpha is None:  # a table built by a class's _table
            table.alpha = _level(getattr(self, "alpha", None))
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
                        f"<td style='text-align:left'>{html.escape(_unquoted(value))}</td>"
                        "</tr>"
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
