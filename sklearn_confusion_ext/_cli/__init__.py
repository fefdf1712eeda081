"""Command line: ``python -m sklearn_confusion_ext demo`` and ``... report``.

``demo`` trains small models on data shipped with scikit-learn (no download) and prints a
report of every method of the library, optionally saving the plots. ``report`` prints the
same report for a user's own predictions read from CSV or ``.npy`` files; files are data,
never code, and a bad file gives one error line and exit status 2.
"""

import argparse
import json
import math
import sys

import numpy as np

from .._core.params import options_of
from .demo import demo
from .files import InputError, load_target
from .report import build_report, format_report, save_plots


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sklearn_confusion_ext",
                                     description="sklearn-confusion-ext command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_parser = commands.add_parser("demo", help="report every method on built-in data")
    demo_parser.add_argument("--output", help="directory for the PNG plots")
    report_parser = commands.add_parser("report", help="report on your own predictions")
    report_parser.add_argument("--true", required=True, help="true labels (.csv or .npy)")
    report_parser.add_argument("--pred", required=True, help="predictions (.csv or .npy)")
    report_parser.add_argument("--kind", default="auto", choices=options_of("report", "kind"))
    report_parser.add_argument("--labels", nargs="+", help="classes to report, in order")
    report_parser.add_argument("--format", default="text",
                               choices=options_of("report", "format"))
    report_parser.add_argument("--plots", help="directory for the PNG plots")
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo(args.output)
        return 0
    try:
        y_true, y_pred = load_target(args.true), load_target(args.pred)
        labels = _parse_labels(args.labels, y_true)
        report = build_report(y_true, y_pred, kind=args.kind, labels=labels)
        if args.plots:
            save_plots(y_true, y_pred, args.plots, labels=labels)
    except (InputError, ValueError, OSError) as exc:  # OSError: --plots is not a folder
        message = " ".join(str(exc).split())
        print(f"error: {message}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(_strict_json(report), indent=2, allow_nan=False))
    else:
        print(format_report(report), end="")
    return 0


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
