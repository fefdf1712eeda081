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


def build_report(y_true, y_pred, *, kind="auto", labels=None):
    """A JSON-ready report of every method that applies to these targets."""
    from . import (
        bhapkar_test,
        confusion_entropy,
        correlation_distance,
        dirichlet_posterior,
        generalized_means_score,
        marginal_homogeneity_posthoc,
        mlcm,
        mlcm_classification_report,
        normalized_absolute_error,
        normalized_kl_divergence,
        prevalence,
        stuart_maxwell_test,
        symmetric_balanced_accuracy_score,
        transport_classification_report,
        transport_confusion_matrix,
    )
    from ._validation import check_targets

    targets = check_targets(y_true, y_pred, labels=labels)
    found = targets.kind
    if kind != "auto" and kind != {"single-label": "single"}.get(found, found):
        raise InputError(f"--kind {kind} does not match the files, which hold {found} targets")
    names = [str(name) for name in (targets.classes if targets.selection is None
                                    else targets.classes[targets.selection])]
    report = {"kind": found, "classes": names, "n_samples": int(targets.n_samples)}
    weightings = ("uniform",) if found == "single-label" else ("uniform", "true", "pred")
    report["transport_confusion_matrix"] = {
        weighting: transport_confusion_matrix(y_true, y_pred, labels=labels,
                                              weighting=weighting).tolist()
        for weighting in weightings}
    report["transport_classification_report"] = transport_classification_report(
        y_true, y_pred, labels=labels, output_dict=True, zero_division=0.0)
    report["measures"] = {
        "generalized_means_r1_macro": generalized_means_score(y_true, y_pred, labels=labels,
                                                              average="macro"),
        "symmetric_balanced_accuracy": symmetric_balanced_accuracy_score(y_true, y_pred,
                                                                         labels=labels),
        "correlation_distance": correlation_distance(y_true, y_pred, labels=labels),
        "confusion_entropy": confusion_entropy(y_true, y_pred, labels=labels),
    }
    if found != "soft":
        report["mlcm"] = mlcm(y_true, y_pred, labels=labels).tolist()
        report["mlcm_classification_report"] = mlcm_classification_report(
            y_true, y_pred, labels=labels, output_dict=True, zero_division=0.0)
    if found == "single-label":
        counts = transport_confusion_matrix(y_true, y_pred, labels=labels)
        _add_statistics(report, counts, names, stuart_maxwell_test, bhapkar_test,
                        marginal_homogeneity_posthoc, dirichlet_posterior)
        true_prevalence = prevalence(y_true, labels=targets.classes)
        predicted_prevalence = prevalence(y_pred, labels=targets.classes)
        eps = 1 / (2 * targets.n_samples)
        report["quantification"] = {
            "true_prevalence": true_prevalence.tolist(),
            "predicted_prevalence": predicted_prevalence.tolist(),
            "normalized_absolute_error": normalized_absolute_error(true_prevalence,
                                                                   predicted_prevalence),
            "normalized_kl_divergence": normalized_kl_divergence(
                true_prevalence, predicted_prevalence, eps=eps),
        }
    return report


def _add_statistics(report, counts, names, stuart_maxwell_test, bhapkar_test, posthoc,
                    dirichlet_posterior):
    import warnings

    statistics = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, test in (("stuart_maxwell", stuart_maxwell_test), ("bhapkar", bhapkar_test)):
            try:
                result = test(counts)
                statistics[name] = {"statistic": result.statistic, "pvalue": result.pvalue,
                                    "df": result.df}
            except ValueError as exc:
                statistics[name] = {"not_applicable": str(exc)}
    result = posthoc(counts, labels=names)
    statistics["one_versus_all"] = {name: {"pvalue_less": float(less),
                                           "pvalue_greater": float(greater),
                                           "verdict": str(verdict)}
                                    for name, less, greater, verdict in zip(
                                        names, result.pvalue_less, result.pvalue_greater,
                                        result.verdict)}
    statistics["posterior_mean"] = dirichlet_posterior(counts).mean().tolist()
    report["statistics"] = statistics


def format_report(report):
    """The report as readable text."""
    lines = [f"{report['n_samples']} samples, {report['kind']} targets, classes "
             f"{', '.join(report['classes'])}"]
    for weighting, matrix in report["transport_confusion_matrix"].items():
        lines += ["", f"Transport confusion matrix (weighting={weighting!r}):",
                  _format_matrix(matrix)]
    lines += ["", "Transport classification report:",
              _format_scores(report["transport_classification_report"])]
    if "mlcm" in report:
        lines += ["", "MLCM (last row: no true label, last column: no predicted label):",
                  _format_matrix(report["mlcm"])]
    lines += ["", "Measures:"]
    lines += [f"  {name:28s} {value:.4f}" for name, value in report["measures"].items()]
    if "statistics" in report:
        lines += ["", "Marginal homogeneity:"]
        for name in ("stuart_maxwell", "bhapkar"):
            result = report["statistics"][name]
            lines.append(f"  {name:15s} " + (
                f"statistic {result['statistic']:.3f}, df {result['df']}, "
                f"p-value {result['pvalue']:.3g}" if "statistic" in result
                else result["not_applicable"]))
        lines.append("  one versus all (Bonferroni):")
        for name, row in report["statistics"]["one_versus_all"].items():
            lines.append(f"    {name:12s} {row['verdict']}")
    if "quantification" in report:
        quantification = report["quantification"]
        lines += ["", "Quantification (classify and count):",
                  f"  normalized absolute error     "
                  f"{quantification['normalized_absolute_error']:.4f}",
                  f"  normalized KL divergence      "
                  f"{quantification['normalized_kl_divergence']:.4f}"]
    return "\n".join(lines) + "\n"


def _format_matrix(matrix):
    with np.printoptions(precision=2, suppress=True, linewidth=120):
        return str(np.asarray(matrix))


def _format_scores(scores):
    lines = []
    for name, row in scores.items():
        if isinstance(row, dict):
            lines.append(f"  {name:>14s}  precision {row['precision']:.3f}  recall "
                         f"{row['recall']:.3f}  f1 {row['f1-score']:.3f}")
        else:
            lines.append(f"  {name:>14s}  {row:.3f}")
    return "\n".join(lines)


def save_plots(y_true, y_pred, directory, labels=None):
    """PNG files of the displays that apply to these targets; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from . import (
        MLCMDisplay,
        PosteriorIntervalDisplay,
        TransportConfusionMatrixDisplay,
        transport_confusion_matrix,
    )
    from ._validation import check_targets

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    kind = check_targets(y_true, y_pred, labels=labels).kind
    paths = []

    def save(display, name):
        path = directory / name
        display.figure_.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(display.figure_)
        paths.append(path)

    save(TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred, labels=labels,
                                                          xticks_rotation=45),
         "transport_confusion_matrix.png")
    if kind != "soft":
        save(MLCMDisplay.from_predictions(y_true, y_pred, labels=labels, xticks_rotation=45),
             "mlcm.png")
    if kind == "single-label":
        counts = transport_confusion_matrix(y_true, y_pred, labels=labels)
        save(PosteriorIntervalDisplay.from_confusion(counts), "posterior_intervals.png")
    return paths


def demo(output=None, stream=sys.stdout):
    """Print the report of every method on shipped data; save the plots in ``output``."""
    from sklearn.datasets import load_digits, make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import confusion_matrix
    from sklearn.model_selection import train_test_split
    from sklearn.neighbors import KNeighborsClassifier

    from . import transport_confusion_matrix

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X / 16, y, test_size=0.5,
                                                        random_state=0, stratify=y)
    model = LogisticRegression(C=0.05, max_iter=2000).fit(X_train, y_train)
    hard = model.predict(X_test)
    equal = np.array_equal(confusion_matrix(y_test, hard),
                           transport_confusion_matrix(y_test, hard))
    print("sklearn-confusion-ext demo\n\n1. Digits (8x8 images, 10 classes), "
          f"{len(y_test)} test images, logistic regression. The transport confusion matrix "
          f"of the hard predictions is sklearn's confusion_matrix: {equal}.\n", file=stream)
    print(format_report(build_report(y_test, hard)), file=stream)
    soft = model.predict_proba(X_test)
    one_hot = np.eye(10)[y_test]
    print("2. The same model's predicted probabilities as soft labels:\n", file=stream)
    print(format_report(build_report(one_hot, soft)), file=stream)
    X_ml, Y_ml = make_multilabel_classification(n_samples=600, n_classes=5, n_labels=2,
                                                random_state=0)
    multilabel = KNeighborsClassifier().fit(X_ml[:400], Y_ml[:400]).predict(X_ml[400:])
    print("3. Multi-label data (5 classes, generated), k nearest neighbours:\n", file=stream)
    print(format_report(build_report(Y_ml[400:], multilabel)), file=stream)
    if output is not None:
        paths = []
        for name, (truth, prediction) in {"digits": (y_test, hard),
                                          "digits_soft": (one_hot, soft),
                                          "multilabel": (Y_ml[400:], multilabel)}.items():
            paths += save_plots(truth, prediction, Path(output) / name)
        print(f"Plots saved: {', '.join(str(path) for path in paths)}", file=stream)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sklearn_confusion_ext",
                                     description="sklearn-confusion-ext command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_parser = commands.add_parser("demo", help="report every method on built-in data")
    demo_parser.add_argument("--output", help="directory for the PNG plots")
    report_parser = commands.add_parser("report", help="report on your own predictions")
    report_parser.add_argument("--true", required=True, help="true labels (.csv or .npy)")
    report_parser.add_argument("--pred", required=True, help="predictions (.csv or .npy)")
    report_parser.add_argument("--kind", default="auto",
                               choices=["auto", "single", "multilabel", "soft"])
    report_parser.add_argument("--labels", nargs="+", help="classes to report, in order")
    report_parser.add_argument("--format", default="text", choices=["text", "json"])
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
    except (InputError, ValueError) as exc:
        message = " ".join(str(exc).split())
        print(f"error: {message}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(report, indent=2, default=_json_default))
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


def _json_default(value):
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    raise TypeError(f"cannot serialize {type(value).__name__}")


if __name__ == "__main__":
    sys.exit(main())
