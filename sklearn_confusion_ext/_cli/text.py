"""The report as text: numbers rounded for reading, tables with row and column names that
wrap in blocks of columns (each block repeating the row names) when wider than the terminal.

One table formatter (:func:`format_table`) lays out every table of the report: the matrices,
the scores in scikit-learn's ``classification_report`` layout, the tests and the posteriors.
The JSON output does not come through here and keeps full precision.
"""

import math
import shutil
import textwrap

import numpy as np

MIN_WIDTH = 40


def terminal_width(width=None):
    """``width`` if given, else the terminal's (80 when the output is not a terminal)."""
    if width is None:
        width = shutil.get_terminal_size((80, 24)).columns
    return max(MIN_WIDTH, int(width))


def format_number(value, decimals=3):
    """A score for reading, with ``decimals`` decimals; an undefined one as "n/a"."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:.{decimals}f}"


def format_counts(values):
    """Counts or masses for reading, all alike: integers when every value is one (up to
    floating-point noise), else two decimals; exact zeros stay "0", so empty cells stand
    out."""
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    integral = bool(np.all(np.abs(finite - np.round(finite))
                           <= 1e-9 * np.maximum(1.0, np.abs(finite))))
    return np.array(["n/a" if not math.isfinite(value) else "0" if value == 0
                     else f"{value:.0f}" if integral else f"{value:.2f}"
                     for value in values.ravel()], dtype=object).reshape(values.shape)


def matrix_cells(matrix):
    """The cells of a matrix as rows of strings (:func:`format_counts`)."""
    return format_counts(matrix).tolist()


def matrix_names(classes, n):
    """Row and column names of an ``n x n`` matrix over ``classes``: a matrix one larger has
    the "none" class (no label, no prediction) last."""
    return list(classes) + ["none"] * (n - len(classes))


def shorten(name, limit):
    """``name`` cut to ``limit`` characters, the cut marked with "~"."""
    return name if len(name) <= limit else name[:limit - 1] + "~"


def format_table(corner, columns, rows, *, width, align_names="<", align=None,
                 gap=2, min_column_width=0):
    """Lines of a table: ``rows`` is a list of ``(name, cells)`` (``None`` for a blank line),
    ``columns`` the column headers (all empty: no header line). Cells are right-aligned under
    their header (``align``: one of "<" and ">" per column); columns that do not fit in
    ``width`` go on in further blocks, each with the row names. A name longer than half the
    width is cut, the cut marked "~"."""
    align = align or [">"] * len(columns)
    names = [row[0] for row in rows if row is not None]
    name_width = min(max([len(corner), *map(len, names)]), max(12, width // 2))
    widths = [max([len(header), min_column_width]
                  + [len(row[1][j]) for row in rows if row is not None])
              for j, header in enumerate(columns)]
    blocks, start = [], 0
    while start < len(columns):
        stop, used = start, name_width
        while stop < len(columns) and (stop == start or used + gap + widths[stop] <= width):
            used += gap + widths[stop]
            stop += 1
        blocks.append(slice(start, stop))
        start = stop

    def line(name, name_align, cells, block):
        return (f"{shorten(name, name_width):{name_align}{name_width}}" + "".join(
            f"{'':{gap}}{cell:{side}{cell_width}}" for cell, side, cell_width
            in zip(cells[block], align[block], widths[block]))).rstrip()

    lines = []
    for block in blocks:
        if len(blocks) > 1:
            lines.append(f"(columns {block.start + 1}-{block.stop} of {len(columns)})"
                         if block.stop - block.start > 1
                         else f"(column {block.start + 1} of {len(columns)})")
        if any(columns) or corner:
            lines.append(line(corner, "<", columns, block))
        lines += ["" if row is None else line(row[0], align_names, row[1], block)
                  for row in rows]
        if block.stop < len(columns):
            lines.append("")
    return lines


def format_matrix(matrix, classes, *, width, corner="true \\ pred"):
    """Lines of a square matrix with the class names on its rows and columns. Where names
    wider than the numbers would push the table past ``width``, the classes are numbered and
    the columns headed by their numbers."""
    cells = matrix_cells(matrix)
    names = matrix_names(classes, len(cells))
    cell_width = max(len(cell) for row in cells for cell in row)
    name_width = max(len(corner), *map(len, names))
    named_width = name_width + sum(1 + max(cell_width, len(name), 3) for name in names)
    layout = {"width": width, "gap": 1, "min_column_width": 3}
    if named_width <= width or max(map(len, names)) <= max(cell_width, 5):
        return format_table(corner, names, list(zip(names, cells)), **layout)
    digits = len(str(len(names)))
    numbered = [f"{i:>{digits}} {name}" for i, name in enumerate(names, 1)]
    return (["(columns numbered as the rows)"]
            + format_table(corner, [str(i) for i in range(1, len(names) + 1)],
                           list(zip(numbered, cells)), **layout))


SCORES = ("precision", "recall", "f1-score")


def score_rows(scores, digits=3, intervals="brackets"):
    """The rows of a classification report's dict in scikit-learn's layout: the header, the
    classes, then accuracy and the averages; the support (MLCM: weight) as counts. Scores
    with intervals (``<score>_low`` and ``<score>_high``) read ``0.50 [0.36, 0.63]`` (two
    decimals: the text stays within 80 columns) with ``intervals="brackets"``, or take one
    more column each, ``0.356–0.631``, with ``intervals="columns"`` (headed "interval")."""
    support = "support" if any("support" in row for row in scores.values()
                               if isinstance(row, dict)) else "weight"
    total = next((row[support] for key, row in scores.items()
                  if isinstance(row, dict) and key.endswith(" avg")), None)
    names = [name for name in scores if name not in ("accuracy_low", "accuracy_high")]
    supports = format_counts([scores[name][support] if isinstance(scores[name], dict)
                              else total for name in names])
    has_intervals = "accuracy_low" in scores or any(
        "precision_low" in row for row in scores.values() if isinstance(row, dict))

    def cells(value, low, high):
        if not has_intervals:
            return [format_number(value, digits)]
        if intervals == "columns":
            return [format_number(value, digits),
                    f"{format_number(low, digits)}\u2013{format_number(high, digits)}"]
        return [f"{format_number(value, 2)} [{format_number(low, 2)}, "
                f"{format_number(high, 2)}]"]

    classes, averages = [], []
    for name, count in zip(names, supports):
        row = scores[name]
        if isinstance(row, dict):
            values = [cell for key in SCORES for cell in cells(
                row[key], row.get(f"{key}_low"), row.get(f"{key}_high"))]
            (averages if name.endswith(" avg") else classes).append((name, values + [count]))
        else:  # accuracy: one number, under f1-score, beside the total support
            value = cells(row, scores.get("accuracy_low"), scores.get("accuracy_high"))
            averages.append((name, [""] * (2 * len(value)) + value + [count]))
    columns = [column for key in SCORES for column in
               ([key, "interval"] if has_intervals and intervals == "columns" else [key])]
    return columns + [support], classes, averages


def format_scores(scores, *, width):
    """Lines of a classification report's dict, as scikit-learn prints one."""
    columns, classes, averages = score_rows(scores)
    return format_table("", columns, [None, *classes, None, *averages], width=width,
                        align_names=">")


# What each --interval-method computes, and what its resamples are.
INTERVAL_METHODS = {
    "percentile": ("bootstrap percentile intervals", "resamples of the instances"),
    "basic": ("basic bootstrap intervals", "resamples of the instances"),
    "bca": ("BCa bootstrap intervals", "bias-corrected and accelerated; resamples of the "
                                       "instances"),
    "bayesian": ("Bayesian equal-tailed intervals", "posterior draws"),
}


def interval_note(report):
    """The sentence saying what the intervals of the scores are, with their seed (None
    without intervals)."""
    confidence = report.get("confidence")
    if confidence is None:
        return None
    name, draws = INTERVAL_METHODS[confidence["method"]]
    seed = "" if confidence["seed"] is None else f", seed {confidence['seed']}"
    detail, _, draws = draws.rpartition("; ")
    detail = f"{detail}; " if detail else ""
    return (f"Intervals: {confidence['level'] * 100:.4g}% {name} "
            f"({detail}{confidence['n_resamples']} {draws}{seed}).")


def report_titles(report):
    """``(key, title)`` of the classification reports of the transport matrix: its own,
    and on probabilities the report of their argmax decisions."""
    if "argmax_classification_report" not in report:
        return [("transport_classification_report", "Transport classification report")]
    return [("transport_classification_report",
             "Transport classification report (answers drawn at random from the "
             "probabilities)"),
            ("argmax_classification_report",
             "Classification report of the argmax decisions (the most probable class of "
             "each instance)")]


def verdict(pvalue, level=0.05):
    """The test's verdict on marginal homogeneity at ``level``."""
    if pvalue is None or not math.isfinite(pvalue):
        return "undefined p-value"
    if pvalue < level:
        return f"reject homogeneity at {level:.0%}"
    return f"homogeneity not rejected at {level:.0%}"


MEASURES = {"generalized_means_r1_macro": "generalized means (r = 1, macro)",
            "symmetric_balanced_accuracy": "symmetric balanced accuracy",
            "correlation_distance": "correlation distance",
            "confusion_entropy": "confusion entropy",
            "normalized_absolute_error": "normalized absolute error",
            "normalized_kl_divergence": "normalized KL divergence"}
QUANTIFICATION = "Quantification errors of the predicted class prevalences (classify and count)"


def summary(report):
    """One sentence: the samples, the kind of targets, the classes (named up to 20)."""
    classes = report["classes"]
    named = (f": {', '.join(classes)}" if len(classes) <= 20
             else ", named in the rows of the tables")
    return (f"{report['n_samples']} samples, {report['kind']} targets, {len(classes)} "
            f"class{'es' if len(classes) != 1 else ''}{named}.")


def measure_rows(measures):
    """``(name, [value])`` of each measure (or quantification error) in ``measures``."""
    return [(MEASURES.get(name, name.replace("_", " ")), [format_number(value, 4)])
            for name, value in measures.items() if not name.endswith("prevalence")]


def test_rows(statistics):
    """Columns and rows of the marginal homogeneity tests, with their verdicts."""
    rows = []
    for name in ("stuart_maxwell", "bhapkar"):
        result = statistics[name]
        rows.append((name.replace("_", "-").title(), [
            f"{result['statistic']:.3f}", str(result["df"]), f"{result['pvalue']:.3g}",
            result["verdict"]] if "statistic" in result
            else ["", "", "", result["not_applicable"]]))
    return ["statistic", "df", "p-value", "verdict"], rows


def posthoc_rows(statistics):
    """Columns and rows of the one-versus-all tests."""
    return ["p less", "p greater", "verdict"], [
        (name, [f"{row['pvalue_less_corrected']:.3g}", f"{row['pvalue_greater_corrected']:.3g}",
                row["verdict"]])
        for name, row in statistics["one_versus_all"].items()]


def describe_prior(prior, n_classes):
    """A Dirichlet prior for reading: "Perks prior, 1/10 per cell", "prior 1 per cell"."""
    if prior == "perks":
        return f"Perks prior, 1/{n_classes} per cell"
    return f"prior {format_counts(1.0 if prior == 'uniform' else prior)} per cell"


def posterior_rows(posterior, classes):
    """Title, columns and rows of the posterior of each class's recall, P[k | k]."""
    tail = (1 - posterior["level"]) / 2
    title = ("Posterior of P[predicted k | true k] (Dirichlet, "
             f"{describe_prior(posterior['prior'], len(posterior['mean']))}): mean and "
             f"{posterior['level']:.0%} equal-tailed interval")
    return title, ["mean", f"{tail:.1%}", f"{1 - tail:.1%}"], [
        (name, [f"{posterior[key][k][k]:.3f}" for key in ("mean", "lower", "upper")])
        for k, name in enumerate(classes)]


# More classes than this and the matrix is read through its most-confused pairs: the report
# lists them by default (--most-confused N asks for them at any size; 0 leaves them out).
READABLE_CLASSES = 10
DEFAULT_PAIRS = 10


def confused_pairs(report, top):
    """The ``top`` most-confused pairs of the report's transport confusion matrix (uniform
    weighting; the classic matrix on labels) as JSON-ready rows; ``top`` None: the
    default, :data:`DEFAULT_PAIRS` beyond :data:`READABLE_CLASSES` classes, else none."""
    from .. import most_confused_pairs

    matrix = report["transport_confusion_matrix"]["uniform"]
    if top is None:
        top = DEFAULT_PAIRS if len(report["classes"]) > READABLE_CLASSES else 0
    if top == 0:
        return None
    result = most_confused_pairs(matrix, top=top,
                                 display_labels=matrix_names(report["classes"], len(matrix)))
    return {"top": top, "n_confused": result.n_confused,
            "total_confused": result.total_confused,
            "pairs": [pair._asdict() for pair in result]}


def confused_title(pairs):
    """The title of the most-confused pairs' table."""
    shown = len(pairs["pairs"])
    return (f"Most-confused class pairs (transport confusion matrix): {shown} of "
            f"{pairs['n_confused']} confused pairs, largest cells first; 'of true': the cell "
            "over its true class, 'of pred': over its predicted class")


def confused_rows(pairs):
    """Columns and rows (``true -> predicted``) of the most-confused pairs."""
    cells = format_counts([pair["count"] for pair in pairs["pairs"]])
    return ["count", "of true", "of pred"], [
        (f"{pair['true']} -> {pair['predicted']}",
         [count, f"{pair['fraction_of_true']:.1%}", f"{pair['fraction_of_predicted']:.1%}"])
        for pair, count in zip(pairs["pairs"], cells)]


def with_interval(value, digits=3):
    """``{"estimate", "low", "high"}`` (the bounds under ``--confidence`` only) for reading:
    ``0.083 [0.056, 0.135]``, or the estimate alone."""
    text = format_number(value["estimate"], digits)
    if "low" in value:
        text += f" [{format_number(value['low'], digits)}, {format_number(value['high'], digits)}]"
    return text


def reliability_title(calibration):
    """The title of the reliability summary: what is binned, the bins, the band."""
    return (f"Calibration of the top label: the largest probability of each instance against "
            f"whether its class is right, in {calibration['n_bins']} equal-width bins (empty "
            f"bins left out); gap: observed frequency - mean probability (below 0: "
            f"overconfident); band: the {calibration['band_level']:.0%} Wilson interval of "
            f"the observed frequency")


def reliability_rows(calibration):
    """Columns and rows (one per non-empty bin, named by its edges) of the reliability
    summary."""
    curve = calibration["reliability"]
    level = f"{calibration['band_level']:.0%}"
    counts = format_counts(curve["bin_count"])
    return ["mean prob", "observed", "gap", f"{level} band", "count"], [
        (f"{low:.2f}-{high:.2f}",
         [f"{mean:.3f}", f"{observed:.3f}", f"{observed - mean:+.3f}",
          f"[{band_low:.3f}, {band_high:.3f}]", count])
        for low, high, mean, observed, band_low, band_high, count in zip(
            curve["bin_low"], curve["bin_high"], curve["prob_pred"], curve["prob_true"],
            curve["low"], curve["high"], counts)]


CALIBRATION_ERRORS = "Calibration errors in these bins (lower is better)"


def ece_interval_note(report):
    """What the ECE's interval is: its own method, the norm bound, at the level, resamples
    and seed of ``--confidence`` (None without intervals)."""
    confidence = report.get("confidence")
    if confidence is None:
        return None
    seed = "" if confidence["seed"] is None else f", seed {confidence['seed']}"
    return (f"Interval: {confidence['level'] * 100:.4g}% norm bound (the bootstrap of the "
            f"bins' gaps: {confidence['n_resamples']} resamples of the instances{seed}), the "
            "calibration error's own interval, whatever --interval-method.")


def calibration_error_rows(calibration):
    """Rows of the expected calibration errors: the top label's (with its interval under
    ``--confidence``) and the classwise mean."""
    return [("ECE, top label (L1)", [with_interval(calibration["expected_calibration_error"])]),
            ("ECE, classwise (mean over the classes)",
             [format_number(calibration["classwise_expected_calibration_error"])])]


def brier_title(calibration, classes):
    """The title of the Brier score's parts: what is binned, and how the parts add up."""
    binned = (f"the probability of {classes[-1]}" if len(classes) <= 2 else
              "each class's probability against the class, each part summed over the "
              "classes as the multiclass score is")
    return (f"Brier score and its parts (Murphy 1973; {calibration['n_bins']} equal-width bins "
            f"of {binned}; brier = reliability - resolution + uncertainty + within-bin "
            "variance - within-bin covariance)")


_BRIER_PARTS = {"brier": ("Brier score", "lower is better: a proper score, to choose models on"),
                "reliability": ("reliability", "lower is better: the squared gaps of the bins"),
                "resolution": ("resolution", "higher is better: the bins tell instances apart"),
                "uncertainty": ("uncertainty", "of the data, the same for every model"),
                "within_bin_variance": ("within-bin variance", ""),
                "within_bin_covariance": ("within-bin covariance", "")}


def brier_rows(calibration):
    """Columns and rows of the Brier score's parts, each with what it says."""
    parts = calibration["brier_score_decomposition"]
    return ["value", ""], [(name, [format_number(parts[key], 4), meaning])
                           for key, (name, meaning) in _BRIER_PARTS.items()]


COST = ("Expected cost of the decisions under --cost-matrix (rows true classes, columns "
        "decisions): the mean cost per instance, lower is better")
_DECISIONS = {"predictions": "predictions", "argmax": "argmax decisions",
              "bayes": "Bayes decisions"}
COST_NOTE = ("Argmax decisions: the most probable class of each instance; Bayes decisions: "
             "the class of least expected cost under its probabilities.")


def cost_rows(cost):
    """Rows of the expected costs of the decisions, with their intervals."""
    return [(_DECISIONS[name], [with_interval(value)])
            for name, value in cost["decisions"].items()]


HOMOGENEITY = ("Marginal homogeneity tests (null hypothesis: the true and the predicted "
               "class frequencies are the same)")
POSTHOC = ("One class versus all (exact McNemar tests, one-sided p-values with the "
           "Bonferroni correction, verdicts at 5%)")


def format_report(report, *, width):
    """The report as readable text, no line wider than ``width``."""
    def prose(text):
        return textwrap.fill(text, width=width, break_on_hyphens=False)

    classes = report["classes"]
    lines = [prose(summary(report))]
    if "scores_meaning" in report:
        lines += ["", prose(report["scores_meaning"])]
    matrices = report["transport_confusion_matrix"]
    for weighting, matrix in matrices.items():
        title = ("Transport confusion matrix" if len(matrices) == 1
                 else f"Transport confusion matrix (weighting={weighting!r})")
        lines += ["", title + ":"]
        if "transport_weightings" in report:
            lines.append(prose(report["transport_weightings"]))
        lines += format_matrix(matrix, classes, width=width)
    if report.get("most_confused_pairs"):
        pairs = report["most_confused_pairs"]
        columns, rows = confused_rows(pairs)
        lines += ["", prose(confused_title(pairs) + ":")]
        lines += format_table("true -> predicted", columns, rows, width=width)
    note = interval_note(report)
    for key, title in report_titles(report):
        lines += ["", prose(title + ":")]
        if note:
            lines.append(prose(note))
        lines += format_scores(report[key], width=width)
    if "mlcm" in report:
        lines += ["", prose("MLCM (row none: no true label, column none: no predicted "
                            "label):")]
        lines += format_matrix(report["mlcm"], classes, width=width)
        lines += ["", "MLCM classification report:"]
        if note:
            lines.append(prose(note))
        lines += format_scores(report["mlcm_classification_report"], width=width)
    if "calibration" in report:
        calibration = report["calibration"]
        columns, rows = reliability_rows(calibration)
        lines += ["", prose(reliability_title(calibration) + ":")]
        lines += format_table("bin", columns, rows, width=width)
        lines += ["", prose(CALIBRATION_ERRORS + ":")]
        if note:
            lines.append(prose(ece_interval_note(report)))
        lines += format_table("", [""], calibration_error_rows(calibration), width=width,
                              align=["<"])
        columns, rows = brier_rows(calibration)
        lines += ["", prose(brier_title(calibration, classes) + ":")]
        lines += format_table("", [""] * 2, rows, width=width, align=[">", "<"])
    if "cost" in report:
        cost = report["cost"]
        lines += ["", prose(COST + ":")]
        if note:
            lines.append(prose(note))
        lines += format_table("", [""], cost_rows(cost), width=width, align=["<"])
        if "bayes" in cost["decisions"]:
            lines.append(prose(COST_NOTE))
        if len(cost["classes"]) <= READABLE_CLASSES:
            lines += ["", "Cost matrix, as read in the report's order of the classes:"]
            lines += format_matrix(cost["cost_matrix"], cost["classes"], width=width,
                                   corner="true \\ decided")
    lines += ["", "Measures:"]
    lines += format_table("", [""], measure_rows(report["measures"]), width=width)
    if "statistics" in report:
        statistics = report["statistics"]
        columns, rows = test_rows(statistics)
        lines += ["", prose(HOMOGENEITY)]
        lines += format_table("test", columns, rows, width=width, align=[">", ">", ">", "<"])
        columns, rows = posthoc_rows(statistics)
        lines += ["", prose(POSTHOC + ":")]
        lines += format_table("class", columns, rows, width=width, align=[">", ">", "<"])
        title, columns, rows = posterior_rows(statistics["posterior"], classes)
        lines += ["", prose(title + ":")]
        lines += format_table("class", columns, rows, width=width)
    if "quantification" in report:
        lines += ["", prose(QUANTIFICATION + ":")]
        lines += format_table("", [""], measure_rows(report["quantification"]), width=width)
    return "\n".join(lines) + "\n"
