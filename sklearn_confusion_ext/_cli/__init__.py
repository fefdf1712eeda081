"""Command line: ``python -m sklearn_confusion_ext demo``, ``... report`` and ``... compare``.

``demo`` trains small models on data shipped with scikit-learn (no download) and prints a
report of every method of the library. ``report`` prints the same report for a user's own
predictions read from text (CSV, TSV, whitespace-separated) or ``.npy`` files; files are
data, never code, and a bad file or option gives one error line and exit status 2. Both
print text at the terminal's width (``--width``; :mod:`.text`), save the plots
(``--plots DIR``) and write one self-contained HTML page (``--html FILE``; :mod:`.html`);
``report --format json`` prints the report's data at full precision. ``--confidence LEVEL``
adds an interval to every score of the classification reports (``--interval-method``: how,
``--resamples N``: from how many resamples; ``--seed N``, printed beside them, 0 by default so
that the same command prints the same bounds). On probabilities beside labels the report says
that its scores are those of answering at random from the probabilities and adds the report of
the argmax decisions and a calibration section (the top label's reliability summary, its
ECE, with an interval under ``--confidence``, and the Brier score's parts). ``--cost-matrix
FILE`` adds the expected cost of the decisions (:func:`.files.load_cost_matrix` reads it).
``--most-confused N`` lists the largest off-diagonal cells after the matrix. ``compare``
runs :func:`compare_scores` on two models' prediction files (:mod:`.compare`).
``--verbose`` (and a terminal) shows the time of each long step on standard error.
Each warning the library raises during a command is printed once, as a ``note:`` line on
standard error, as the command's own notes are.
"""

import argparse
import contextlib
import json
import math
import sys
import textwrap
import time
import warnings
from numbers import Real
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .._core.config import config_context
from .._core.params import (
    CONFIDENCE_LEVEL,
    NON_NEGATIVE_INT,
    POSITIVE_INT,
    REPORT_INTERVALS,
    Interval,
    Options,
    options_of,
)
from .demo import demo_sections
from .files import COST_MATRIX_HELP, InputError, load_targets, read_target
from .html import NO_FIGURES, html_page
from .report import (
    DEFAULT_INTERVAL_METHOD,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    build_report,
    figures,
    has_matplotlib,
    save_plots,
)
from .text import MIN_WIDTH, confused_pairs, format_report, terminal_width

_READING = """\
Reading text files (the options apply to both files):
  delimiter  comma, tab or semicolon when it separates fields on every line,
             else whitespace when a line holds several numbers, else one value
             per line (labels may hold spaces); a delimiter on some lines only
             is refused.
  header     the first line is a header line when it holds text above lines
             of numbers, when it has several fields and one holds text, or
             when its first field is empty (pandas' to_csv() with the index).
             In a file of text labels, a number above the labels is a header
             (pandas names an unnamed Series "0"), and a first line that
             appears again is a label. A first line that appears nowhere else,
             or a line 0,1,...,k-1 of k >= 3 numbers (pandas' names of unnamed
             columns), may be either: the reading whose number of samples
             matches the other file's is taken; if both files are undecided,
             their first lines are header lines where each appears nowhere in
             either file (two named Series), else they are refused. A number
             above integer labels is a label (undetectable: pandas' unnamed
             Series "0"), unless the other file holds one sample less or starts
             with 0,1,...,k-1. Pass --header or --no-header to decide.
             The header line of indicator (or soft-label) files names their
             classes, as --labels with one name per column does.
  index      with a header line whose first field is empty, a first column of
             distinct integers is pandas' index and is dropped; any other
             first column so named is refused (pass --index-column).
  values     one value per line is a class label (integers or names); rows of
             several numbers are indicators or soft labels, finite, at most
             1e12 in absolute value.
.npy files hold a 1-D or 2-D array of numbers or strings (no pickles); a
header that does not match the file's size is refused before loading."""

# The report command's options, declared as the public callables' parameters are
# (argparse's choices and the options' checks come from here).
REPORT_OPTIONS = {
    "kind": [Options("auto", "single", "multilabel", "soft")],
    "format": [Options("text", "json")],
    "delimiter": [Options("auto", "comma", "tab", "semicolon", "whitespace", "none")],
    "max_matrix_mib": [POSITIVE_INT], "confidence": [CONFIDENCE_LEVEL],
    # --interval-method, --resamples: the reports' interval_method=, n_resamples=
    "interval_method": REPORT_INTERVALS["interval_method"],
    "resamples": REPORT_INTERVALS["n_resamples"], "seed": [NON_NEGATIVE_INT],
    "most_confused": [NON_NEGATIVE_INT]}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sklearn_confusion_ext",
                                     description="sklearn-confusion-ext command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_parser = commands.add_parser("demo", help="report every method on built-in data")
    _output_options(demo_parser)
    demo_parser.add_argument("--output", metavar="DIR",
                             help="deprecated name of --plots (will be removed in 0.2)")
    report_parser = commands.add_parser(
        "report", help="report on your own predictions", epilog=_READING,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    report_parser.add_argument("--true", required=True,
                               help="true labels (.npy, or text: .csv, .tsv, .txt; a pipe, or - "
                                    "for standard input)")
    report_parser.add_argument("--pred", required=True,
                               help="predictions (.npy, or text: .csv, .tsv, .txt): labels, "
                                    "indicators, soft labels, or probabilities against "
                                    "labels in --true (columns named by a header line, "
                                    "else the classes in sorted order: the sorted --labels "
                                    "where it names one class per column)")
    report_parser.add_argument("--kind", default="auto", choices=options_of(REPORT_OPTIONS, "kind"))
    report_parser.add_argument("--labels", nargs="+",
                               help="classes to report, in order; for indicator files, a "
                                    "name for each column (or column numbers to report "
                                    "some columns only)")
    report_parser.add_argument("--format", default="text",
                               choices=options_of(REPORT_OPTIONS, "format"))
    _output_options(report_parser)
    _reading_options(report_parser)
    report_parser.add_argument("--cost-matrix", metavar="FILE", help=COST_MATRIX_HELP)
    report_parser.add_argument("--max-matrix-mib", type=_max_matrix_mib, metavar="N",
                               help="refuse matrices above N MiB (default: the package's "
                                    "setting, sklearn_confusion_ext.get_config())")
    _compare_parser(commands)
    args = parser.parse_args(argv)
    width = terminal_width(args.width)
    # Every warning of the command (reading, report, plots, page) said once, as a note.
    with _said_once():
        if args.command == "compare":
            return _compare(args, width)
        return _command(args, width)


def _command(args, width):
    """The demo and report commands: one error line and exit status 2 for a bad file or
    option."""
    intervals = _interval_options(args)
    try:
        if args.command == "demo":
            if args.output is not None:
                print("warning: demo --output is deprecated and will be removed in 0.2; "
                      "use --plots", file=sys.stderr)
                if args.plots is None:
                    args.plots = args.output
            sections = [Section(name, heading, introduction,
                                _with_pairs(build_report(*targets, **intervals,
                                                         verbose=_progress(args)), args),
                                targets)
                        for name, heading, introduction, targets in demo_sections()]
            title, labels = "sklearn-confusion-ext demo", None
            saved = _write_files(sections, args, title, labels)
        else:
            with _step(args, f"reading {args.true} and {args.pred}"):
                y_true, y_pred, pred_columns, true_columns = load_targets(
                    args.true, args.pred, header=args.header, delimiter=args.delimiter,
                    index_column=args.index_column)
            column_names = _indicator_column_names(args.labels, y_true, y_pred,
                                                   true_columns, pred_columns)
            labels = None if column_names else _parse_labels(args.labels, y_true)
            if not column_names:  # a header names the columns; --labels selects among them
                named, y_pred = _columns_named_by_header(y_true, y_pred, pred_columns)
                labels = named if labels is None else labels
            y_pred = _rounded_probabilities(y_true, y_pred, args.pred)
            with config_context(max_matrix_mib=args.max_matrix_mib), \
                    _step(args, "the report (matrices, scores, tests)"):
                report = build_report(
                    y_true, y_pred, kind=args.kind, labels=labels, **intervals,
                    cost_matrix=args.cost_matrix, verbose=_progress(args))
                if column_names:
                    report = _named_columns(report, column_names)
                report = _with_pairs(report, args)
                if len(report["classes"]) == 1:
                    print(f"warning: {_printable(ONE_CLASS.format(report['classes'][0]))}",
                          file=sys.stderr)
                sections = [Section("", "", "", report, (y_true, y_pred))]
                title = f"sklearn-confusion-ext report: {args.pred} against {args.true}"
                saved = _write_files(sections, args, title, labels, column_names)
    except (InputError, ValueError, OSError) as exc:  # OSError: an unusable output path
        message = " ".join(str(exc).split())
        if "max_matrix_mib" in message:
            message += " From the command line: --max-matrix-mib N."
        elif "labels=" in message:
            message += " From the command line: --labels NAME [NAME ...]."
        print(f"error: {_printable(message)}", file=sys.stderr)
        return 2
    if getattr(args, "format", "text") == "json":  # report only: one section
        print(json.dumps(_strict_json(sections[0].report), indent=2, allow_nan=False))
        return 0
    if args.command == "demo":
        print(f"{_printable(title)}\n")
    for section in sections:
        if section.heading:
            print(f"{section.heading}\n{'=' * len(section.heading)}\n")
        if section.introduction:
            for paragraph in section.introduction.splitlines():
                print(textwrap.fill(paragraph, width=width))
            print()
        # Names escaped before the layout, so that columns align on what is printed.
        print(_printable(format_report(_escaped(section.report), width=width)))
    for path in saved:
        print(f"Saved: {path}")
    return 0


@contextlib.contextmanager
def _said_once():
    """Every warning raised while the command runs, of any category, printed once as one
    ``note:`` line on standard error when it is raised, as the command's own notes are:
    its message on one line (whitespace collapsed, control characters escaped), without
    Python's ``<frozen runpy>:88: UserWarning:`` prefix (issue 39: the report calls many
    functions on the same targets, and a rounding warning came 9-11 times)."""
    said = set()

    def note(message, category, filename, lineno, file=None, line=None):
        text = " ".join(str(message).split())
        if text not in said:
            said.add(text)
            print(f"note: {_printable(text)}", file=sys.stderr, flush=True)

    with warnings.catch_warnings():
        warnings.simplefilter("always")  # each message once: ``said``, not the registry
        for hidden in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                       ResourceWarning):  # hidden by Python's defaults: for developers
            warnings.filterwarnings("ignore", category=hidden)
        # One class: said once by the report, naming --labels (the library says labels=).
        warnings.filterwarnings("ignore", message="A single class was found")
        warnings.showwarning = note
        yield


def _interval_options(args):
    """``build_report``'s interval keywords from the options: the defaults where they are
    not given (a fixed seed: the same command prints the same bounds), and a warning line
    for each option given without ``--confidence``, where it does nothing."""
    if args.confidence is None:
        for name, value in (("--interval-method", args.interval_method),
                            ("--resamples", args.resamples), ("--seed", args.seed)):
            if value is not None:
                print(f"warning: {name} has no effect without --confidence (no intervals)",
                      file=sys.stderr)
    return {"confidence": args.confidence,
            "interval_method": args.interval_method or DEFAULT_INTERVAL_METHOD,
            "n_resamples": DEFAULT_RESAMPLES if args.resamples is None else args.resamples,
            "seed": DEFAULT_SEED if args.seed is None else args.seed}


def _with_pairs(report, args):
    """The report with its most-confused pairs (``--most-confused``), where there are any."""
    pairs = confused_pairs(report, args.most_confused)
    if pairs is not None:
        report["most_confused_pairs"] = pairs
    return report


def _printable(text):
    """``text`` with its control characters (ANSI escapes, carriage returns, a label's
    newline read from a .npy file) written as escapes, so that a label cannot move the
    cursor or recolour the terminal; the report's own line breaks stay."""
    return "".join(
        character if character == "\n" or (character.isprintable() or character == " ")
        else repr(character)[1:-1] for character in text)


def _escaped(value):
    """The report with every string (class names, dict keys) written as :func:`_printable`
    writes it, newlines included: a name is one line."""
    if isinstance(value, dict):
        return {_escaped(key): _escaped(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_escaped(item) for item in value)
    if isinstance(value, str):
        return "\\n".join(_printable(line) for line in value.split("\n"))
    return value


def _output_options(parser):
    parser.add_argument("--plots", metavar="DIR",
                        help="directory for the PNG plots (needs matplotlib)")
    parser.add_argument("--html", metavar="FILE",
                        help="write the report as one self-contained HTML page (figures "
                             "embedded when matplotlib is installed)")
    parser.add_argument("--width", type=_width, metavar="N",
                        help="text width in characters (default: the terminal's, 80 when "
                             "the output is not a terminal); wider tables wrap in blocks of "
                             "columns")
    parser.add_argument("--confidence", type=_declared("confidence", float), metavar="LEVEL",
                        help="add an interval at this level (e.g. 0.95) to every precision, "
                             "recall, F1 and accuracy of the classification reports, to the "
                             "ECE of probabilities and to the costs of --cost-matrix; "
                             "reproducible: the same command prints the same bounds")
    parser.add_argument("--interval-method", choices=options_of(REPORT_OPTIONS, "interval_method"),
                        help="how --confidence's intervals are computed: the bootstrap's "
                             "percentile, basic or bca (bias-corrected and accelerated) "
                             "interval, or the bayesian posterior's (equal-tailed); the "
                             "ECE's interval is its own, the norm bound "
                             f"(default: {DEFAULT_INTERVAL_METHOD})")
    parser.add_argument("--resamples", type=_declared("resamples", int), metavar="N",
                        help="resamples (or posterior draws) of --confidence's intervals, "
                             f"at least 10 (default: {DEFAULT_RESAMPLES})")
    parser.add_argument("--seed", type=_declared("seed", int), metavar="N",
                        help="seed of the resampling of --confidence, printed beside the "
                             f"intervals (default: {DEFAULT_SEED}, so that two runs agree; "
                             "another seed draws other resamples)")
    parser.add_argument("--verbose", action="store_true",
                        help="progress of the long steps (reading, the report, the "
                             "resampling) on standard error (default: where it is a "
                             "terminal)")
    parser.add_argument("--most-confused", type=_declared("most_confused", int), metavar="N",
                        help="list the N most-confused class pairs (largest off-diagonal "
                             "cells) after the matrix; 0: none (default: 10 beyond 10 "
                             "classes, where the matrix is hard to read)")


class Section(NamedTuple):
    """One report of the output: the demo has three, each with its plots' folder ``name``."""

    name: str
    heading: str
    introduction: str
    report: dict
    targets: tuple


def _write_files(sections, args, title, labels, column_names=None):
    """Save the plots and the HTML page that the options ask for; returns their paths."""
    saved = []
    if args.plots:
        for section in sections:
            saved += save_plots(*section.targets, Path(args.plots) / section.name,
                                labels=labels, column_names=column_names)
    if args.html:
        drawn = has_matplotlib()
        if not drawn:
            print(f"warning: {NO_FIGURES}", file=sys.stderr)
        page = html_page(title, [
            (section.heading, section.introduction, section.report,
             [(caption, figure) for _, caption, figure
              in figures(*section.targets, labels=labels, column_names=column_names)]
             if drawn else [])
            for section in sections], note=None if drawn else NO_FIGURES)
        Path(args.html).write_text(page, encoding="utf-8")
        saved.append(Path(args.html))
    return saved


def _width(text):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < MIN_WIDTH:
        raise argparse.ArgumentTypeError(f"expected an integer >= {MIN_WIDTH}, got {text!r}")
    return value


def _declared(name, kind, options=None):
    """An argparse type: ``kind(text)`` that meets the declaration of the option ``name``
    (of the report's options, or of ``options``)."""
    constraint = (REPORT_OPTIONS if options is None else options)[name][0]

    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not constraint.is_satisfied_by(value):
            raise argparse.ArgumentTypeError(f"expected {constraint}, got {text!r}")
        return value
    return convert


_max_matrix_mib = _declared("max_matrix_mib", int)


def _columns_named_by_header(y_true, y_pred, pred_columns):
    """``(labels, y_pred)``: where the header line of the probabilities' file names class
    labels covering every label of ``y_true`` (``DataFrame(proba, columns=clf.classes_)``,
    in any order), the sorted names and the columns put in their order, as the API reads
    such a DataFrame (issue 39: the file's order was kept, so that a matrix read by
    position differed from the API's); else ``(None, y_pred)`` (the columns then follow
    the sorted labels)."""
    if pred_columns is None or np.ndim(y_true) != 1 or np.ndim(y_pred) != 2 or \
            len(set(pred_columns)) != len(pred_columns):
        return None, y_pred
    present = np.unique(y_true).tolist()
    try:
        named = ([int(name) for name in pred_columns]
                 if np.asarray(y_true).dtype.kind in "iu" else list(pred_columns))
    except ValueError:
        return None, y_pred
    if not set(present) <= set(named):
        return None, y_pred
    order = sorted(range(len(named)), key=named.__getitem__)
    return [named[k] for k in order], np.asarray(y_pred)[:, order]


def _rounded_probabilities(y_true, y_pred, path):
    """Probabilities beside labels written with few decimals (a text export rounded to 4,
    say) sum to 1 only within their rounding: each row divided by its sum, with one note
    (issue 39: the library's rows-do-not-sum-to-1 warning, and three weighting matrices
    differing in their last printed digit). Other rows are left to the library's warning."""
    if np.ndim(y_true) != 1 or np.ndim(y_pred) != 2 or \
            np.asarray(y_pred).dtype.kind != "f" or not len(y_pred):
        return y_pred
    y_pred = np.asarray(y_pred)
    decimals = next((d for d in range(1, 9) if np.all(np.abs(
        y_pred * 10.0 ** d - np.round(y_pred * 10.0 ** d)) <= 1e-6)), None)
    if decimals is None or y_pred.min() < 0:
        return y_pred
    sums = y_pred.sum(axis=1)
    off = np.abs(sums - 1.0)
    tolerance = 0.5 * 10.0 ** -decimals * y_pred.shape[1] + 1e-12
    if off.max() <= np.sqrt(np.finfo(np.float64).eps) or off.max() > tolerance:
        return y_pred
    row = int(np.argmax(off))
    total = f"{sums[row]:.{decimals + 2}g}"
    print(f"note: {_printable(str(path))}: the rows of probabilities sum to 1 within the "
          f"rounding of their {decimals} decimals (row {row} sums to {total}): each row "
          "is divided by its sum", file=sys.stderr)
    return y_pred / sums[:, None]


ONE_CLASS = ("the files hold one class ({}), so the report has one class and no error to "
             "show; if other classes exist, name them all with --labels NAME [NAME ...] "
             "(counted 0 here)")


def _indicator_column_names(labels, y_true, y_pred, true_columns, pred_columns):
    """The class names of the columns of indicator (or soft-label) files: ``--labels`` with
    one name per column that are not all column numbers, else the header line of either
    file; None for files of labels, and when nothing names the columns."""
    if np.ndim(y_true) != 2 or np.ndim(y_pred) != 2:
        return None
    n_columns = np.shape(y_true)[1]
    if labels is not None:
        if all(label.lstrip("-").isdigit() for label in labels):
            return None  # column numbers: the classes to report, as before
        if len(labels) != n_columns or len(set(labels)) != len(labels):
            raise InputError(
                f"--labels names the {n_columns} columns of the indicator files, one distinct "
                f"name each; got {len(labels)} name(s). To report some columns only, pass "
                "their numbers (0-based)")
        return list(labels)
    for columns in (true_columns, pred_columns):
        if columns is not None and len(columns) == n_columns and \
                len(set(columns)) == n_columns:
            return [str(name) for name in columns]
    return None


def _named_columns(report, names):
    """The report with the classes of indicator files (column numbers) named by ``names``:
    the class list and the rows of the classification reports."""
    def name(key):
        return names[int(key)] if isinstance(key, str) and key.isdigit() and \
            int(key) < len(names) else key

    report = dict(report)
    report["classes"] = [name(key) for key in report["classes"]]
    for section in ("transport_classification_report", "mlcm_classification_report"):
        if section in report:
            report[section] = {name(key): value for key, value in report[section].items()}
    return report


def _parse_labels(labels, y_true):
    if labels is None:
        return None
    if np.asarray(y_true).ndim == 2 or np.asarray(y_true).dtype.kind in "iuf":
        try:
            return [int(label) for label in labels]
        except ValueError:
            raise InputError("--labels must be integers for these targets") from None
    return labels


def _strict_json(value):
    """The report with NumPy numbers as Python ones and undefined numbers (nan, infinity) as
    null: strict JSON, which has no NaN or Infinity tokens."""
    if isinstance(value, dict):
        return {key: _strict_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(item) for item in value]
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _progress(args=None):
    """The progress of the long steps (reading, the report, the resampling of --confidence
    and compare) is shown where standard error is a terminal, as a long computation's
    should be, or with --verbose; never in a pipe or a log file otherwise."""
    return 1 if sys.stderr.isatty() or getattr(args, "verbose", False) else 0


@contextlib.contextmanager
def _step(args, what):
    """One line on standard error when a long step ends (``_progress``): what it did and
    how long it took (issue 39: 31 s of --confidence on 300,000 rows showed only the
    resampling's progress)."""
    start = time.perf_counter()
    yield
    if _progress(args):
        print(f"progress: {_printable(what)}: {time.perf_counter() - start:.1f} s",
              file=sys.stderr)


# The compare command's options, declared as compare_scores' parameters are.
COMPARE_OPTIONS = {
    "method": [Options("bootstrap", "permutation", "bayesian", "mcnemar", "mcnemar-mid-p",
                       "mcnemar-score")],
    "alternative": [Options("two-sided", "greater", "less")],
    "hypothesis": [Options("non-inferiority", "superiority")],
    "confidence": [CONFIDENCE_LEVEL], "n_resamples": [POSITIVE_INT],
    "random_state": [NON_NEGATIVE_INT], "margin": [Interval(Real, 0, None)]}


def _compare_parser(commands):
    parser = commands.add_parser(
        "compare", help="compare two models' predictions on the same true labels",
        description="Paired comparison of two models' predictions of the same instances "
                    "(compare_scores): the difference of a score, a minus b, its interval "
                    "and p-value. Files are read as report reads them.",
        epilog=_READING, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("y_true", help="true labels (.npy or text)")
    parser.add_argument("y_pred_a", help="predictions of model a")
    parser.add_argument("y_pred_b", help="predictions of model b")
    parser.add_argument("--method", default="bootstrap",
                        choices=options_of(COMPARE_OPTIONS, "method"),
                        help="mcnemar (exact), mcnemar-mid-p and mcnemar-score compare "
                             "accuracies of labels; bootstrap (default), permutation and "
                             "bayesian resample the instances (or --groups) for any score")
    parser.add_argument("--scoring", metavar="NAME",
                        help="the score to compare (a scorer name, e.g. tcm_accuracy, "
                             "tcm_f1_macro; default: tcm_f1_macro, accuracy for mcnemar)")
    parser.add_argument("--groups", metavar="FILE",
                        help="a group id per instance (patients, sites), resampled as "
                             "units; not with the McNemar methods")
    parser.add_argument("--confidence", type=_declared("confidence", float, COMPARE_OPTIONS),
                        default=0.95, metavar="LEVEL", help="level of the interval "
                        "(default: 0.95)")
    parser.add_argument("--n-resamples", type=_declared("n_resamples", int, COMPARE_OPTIONS),
                        default=9999, metavar="N", help="resamples (default: 9999)")
    parser.add_argument("--random-state", type=_declared("random_state", int,
                                                         COMPARE_OPTIONS),
                        default=DEFAULT_SEED, metavar="N",
                        help=f"seed of the resampling (default: {DEFAULT_SEED}: the same "
                             "command prints the same numbers)")
    parser.add_argument("--alternative", default="two-sided",
                        choices=options_of(COMPARE_OPTIONS, "alternative"),
                        help="greater: a scores higher than b")
    parser.add_argument("--margin", type=_declared("margin", float, COMPARE_OPTIONS),
                        metavar="M", help="non-inferiority (or superiority) margin in units "
                                          "of the score, e.g. 0.02")
    parser.add_argument("--hypothesis", choices=options_of(COMPARE_OPTIONS, "hypothesis"),
                        help="with --margin (default: non-inferiority)")
    parser.add_argument("--format", default="text", choices=("text", "json"))
    parser.add_argument("--width", type=_width, metavar="N",
                        help="text width in characters (default: the terminal's)")
    parser.add_argument("--verbose", action="store_true",
                        help="progress of the long steps on standard error (default: "
                             "where it is a terminal)")
    _reading_options(parser)


def _reading_options(parser):
    """How text files are read, the same for every command that reads prediction files."""
    header = parser.add_mutually_exclusive_group()
    header.add_argument("--header", dest="header", action="store_true", default=None,
                        help="text files start with a header line (default: detect)")
    header.add_argument("--no-header", dest="header", action="store_false",
                        help="text files have no header line")
    parser.add_argument("--delimiter", default="auto",
                        choices=options_of(REPORT_OPTIONS, "delimiter"),
                        help="what separates fields in text files; none: one value per line "
                             "(default: detect)")
    parser.add_argument("--index-column", action="store_true",
                        help="drop the first column of text files (row names)")


def _compare(args, width):
    """The compare command: one error line and exit status 2 for a bad file or option."""
    from .compare import build_comparison, format_comparison, read_groups

    reading = {"header": args.header, "delimiter": args.delimiter,
               "index_column": args.index_column}
    try:
        with _step(args, f"reading {args.y_true}, {args.y_pred_a} and {args.y_pred_b}"):
            predictions = []
            for path in (args.y_pred_a, args.y_pred_b):
                y_true, y_pred, columns, _ = load_targets(args.y_true, path, **reading)
                _, y_pred = _columns_named_by_header(y_true, y_pred, columns)
                predictions.append(_rounded_probabilities(y_true, y_pred, path))
            groups = None if args.groups is None else read_groups(
                args.groups, len(y_true), lambda path: read_target(path, **reading)[0])
        with _step(args, f"the comparison ({args.method})"):
            comparison = build_comparison(
                y_true, *predictions, method=args.method, scoring=args.scoring,
                groups=groups, confidence=args.confidence, n_resamples=args.n_resamples,
                seed=args.random_state, margin=args.margin, hypothesis=args.hypothesis,
                alternative=args.alternative, verbose=_progress(args))
    except (InputError, ValueError, TypeError, OSError) as exc:
        message = " ".join(str(exc).split())
        for name, option in (("scoring", "--scoring NAME"), ("groups", "--groups FILE"),
                             ("margin", "--margin M")):
            if name in message:
                message += f" From the command line: {option}."
                break
        print(f"error: {_printable(message)}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(_strict_json(comparison), indent=2, allow_nan=False))
    else:
        print(_printable(format_comparison(
            comparison, (args.y_true, args.y_pred_a, args.y_pred_b), width=width)), end="")
    return 0
