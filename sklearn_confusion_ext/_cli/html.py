"""The report as one self-contained HTML page: inline CSS, figures as base64 PNG, no URL of
any kind, every class name escaped (names are the user's data). Standard library only."""

import base64
import io
from html import escape

from .text import (
    CALIBRATION_ERRORS,
    COST,
    COST_NOTE,
    HOMOGENEITY,
    POSTHOC,
    QUANTIFICATION,
    brier_rows,
    brier_title,
    calibration_error_rows,
    confused_rows,
    confused_title,
    cost_rows,
    ece_interval_note,
    interval_note,
    matrix_cells,
    matrix_names,
    measure_rows,
    posterior_rows,
    posthoc_rows,
    reliability_rows,
    reliability_title,
    report_titles,
    score_rows,
    summary,
    test_rows,
)

_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1b1f24; margin: 0 auto; max-width: 1200px; padding: 1.5em 2em 4em; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #d0d7de; padding-bottom: .2em; margin-top: 2em; }
h3 { font-size: 1.05em; margin: 1.6em 0 .4em; }
p.note { color: #57606a; margin: .2em 0 .6em; }
p.meaning { background: #f6f8fa; border-left: 4px solid #0969da; padding: .5em .8em;
       margin: .6em 0 1em; max-width: 60em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .3em 0 1em; font-variant-numeric: tabular-nums; }
th, td { padding: .25em .6em; vertical-align: middle; }
th { font-weight: 600; text-align: left; }
td { text-align: right; }
table.data th[scope=col] { text-align: right; border-bottom: 1px solid #8c959f; }
table.data th[scope=row] { text-align: right; }
table.data tr.average th, table.data tr.average td { border-top: 1px solid #d0d7de; }
table.matrix td { min-width: 2.6em; border: 1px solid #fff; font-size: .92em; }
table.matrix th[scope=row] { text-align: right; white-space: nowrap; position: sticky;
       left: 0; background: #fff; }
table.matrix.dense td { min-width: 2.2em; padding: .1em .3em; font-size: .8em; }
table.matrix.dense th[scope=row] { padding: .1em .6em; font-size: .9em; }
table.matrix th[scope=col] { vertical-align: bottom; text-align: center; max-width: 9em;
       font-size: .9em; }
table.matrix.vertical th[scope=col] span { writing-mode: vertical-rl; transform: rotate(180deg);
       white-space: nowrap; display: inline-block; }
table.matrix th.corner { font-weight: normal; color: #57606a; font-size: .85em;
       vertical-align: bottom; }
td.reject { color: #b3261e; font-weight: 600; text-align: left; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
figcaption { color: #57606a; font-size: .9em; }
"""

# Light to dark blue, as matplotlib's "Blues": (position, (r, g, b)).
_SCALE = ((0.0, (247, 251, 255)), (0.35, (198, 219, 239)), (0.65, (107, 174, 214)),
          (1.0, (8, 48, 107)))


def heat_colours(fraction):
    """Background and text colours of a cell at ``fraction`` in [0, 1] of the scale."""
    fraction = min(max(fraction, 0.0), 1.0)
    for (start, low), (stop, high) in zip(_SCALE, _SCALE[1:]):
        if fraction <= stop:
            t = (fraction - start) / (stop - start)
            rgb = [round(a + t * (b - a)) for a, b in zip(low, high)]
            break
    luminance = sum(w * (c / 255) ** 2.2 for w, c in zip((0.2126, 0.7152, 0.0722), rgb))
    text = "#ffffff" if luminance < 0.2 else "#1b1f24"
    return "#{:02x}{:02x}{:02x}".format(*rgb), text


def _matrix(matrix, classes, caption):
    """A heat-map table: one background colour per cell from its value (the largest cell is
    darkest), class names on the rows (true) and columns (predicted)."""
    cells = matrix_cells(matrix)
    names = [escape(name) for name in matrix_names(classes, len(cells))]
    top = max((max(row) for row in matrix), default=0) or 1
    # Many long names stand on end; many classes take smaller cells.
    layout = " ".join(["matrix"] + ["vertical"] * (len(names) > 8 and max(map(len, names)) > 5)
                      + ["dense"] * (len(names) > 20))
    out = [f'<p class="note">{escape(caption)}</p>',
           f'<div class="scroll"><table class="{layout}">',
           '<thead><tr><th class="corner">true \\ pred</th>']
    out += [f'<th scope="col"><span>{name}</span></th>' for name in names]
    out.append("</tr></thead><tbody>")
    for name, values, texts in zip(names, matrix, cells):
        out.append(f'<tr><th scope="row">{name}</th>')
        for column, value, text in zip(names, values, texts):
            background, colour = heat_colours(value / top)
            out.append(f'<td style="background:{background};color:{colour}" '
                       f'title="{name} &#8594; {column}: {value:.6g}">{text}</td>')
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _table(columns, rows, *, average_from=None, corner=""):
    """A table of ``(name, cells)`` rows, numbers right-aligned and words left-aligned; rows
    from ``average_from`` on are set apart."""
    words = [any(_is_words(row[1][j]) for row in rows) for j in range(len(columns))]
    out = ['<div class="scroll"><table class="data"><thead><tr>',
           f'<th scope="col">{escape(corner)}</th>']
    out += [f'<th scope="col"{_WORDS if is_words else ""}>{escape(column)}</th>'
            for column, is_words in zip(columns, words)]
    out.append("</tr></thead><tbody>")
    for i, (name, cells) in enumerate(rows):
        average = ' class="average"' if i == average_from else ""
        out.append(f'<tr{average}><th scope="row">{escape(name)}</th>')
        for cell, is_words in zip(cells, words):
            style = (' class="reject"' if cell.startswith("reject")
                     or cell.endswith("-predicted") else _WORDS if is_words else "")
            out.append(f"<td{style}>{escape(cell)}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


_WORDS = ' style="text-align:left"'
_PLAIN = "Transport classification report"


def _is_words(cell):
    try:
        for part in cell.split("\u2013"):  # an interval, low-high
            float(part)
    except ValueError:
        return cell not in ("", "n/a")
    return False


def _scores(scores, report):
    """A classification report's table; with intervals, a column "95% interval" (its level)
    after each score, cells ``low–high``."""
    columns, classes, averages = score_rows(scores, intervals="columns")
    note = interval_note(report)
    if note:
        level = f"{report['confidence']['level'] * 100:.4g}%"
        columns = [f"{level} interval" if column == "interval" else column
                   for column in columns]
    return ((f'<p class="note">{escape(note)}</p>' if note else "")
            + _table(columns, classes + averages, average_from=len(classes)))


def _section(report, figures):
    classes = report["classes"]
    out = [f'<p class="note">{escape(summary(report))}</p>']
    if "scores_meaning" in report:
        out.append(f'<p class="meaning">{escape(report["scores_meaning"])}</p>')
    out.append("<h3>Transport confusion matrix</h3>")
    if "transport_weightings" in report:
        out.append(f'<p class="note">{escape(report["transport_weightings"])}</p>')
    for weighting, matrix in report["transport_confusion_matrix"].items():
        out.append(_matrix(matrix, classes, f"weighting={weighting!r}; rows: true classes, "
                                            "columns: predicted classes"))
    if report.get("most_confused_pairs"):
        pairs = report["most_confused_pairs"]
        columns, rows = confused_rows(pairs)
        out += ["<h3>Most-confused class pairs</h3>",
                f'<p class="note">{escape(confused_title(pairs))}</p>',
                _table(columns, rows, corner="true \u2192 predicted")]
    for key, title in report_titles(report):
        title = ("Per-class scores (transport confusion matrix)"
                 if key == "transport_classification_report" and title == _PLAIN else title)
        out += [f"<h3>{escape(title)}</h3>", _scores(report[key], report)]
    if "calibration" in report:
        calibration, note = report["calibration"], interval_note(report)
        columns, rows = reliability_rows(calibration)
        _, parts = brier_rows(calibration)
        out += ["<h3>Calibration</h3>",
                f'<p class="note">{escape(reliability_title(calibration))}.</p>',
                _table(columns, rows, corner="bin"),
                f'<p class="note">{escape(CALIBRATION_ERRORS)}.'
                f'{" " + escape(ece_interval_note(report)) if note else ""}</p>',
                _table(["value"], calibration_error_rows(calibration), corner="error"),
                f'<p class="note">{escape(brier_title(calibration, classes))}.</p>',
                _table(["value", ""], parts, corner="part")]
    if "cost" in report:
        cost, note = report["cost"], interval_note(report)
        out += ["<h3>Expected cost</h3>",
                f'<p class="note">{escape(COST)}.{" " + escape(note) if note else ""}'
                f'{" " + escape(COST_NOTE) if "bayes" in cost["decisions"] else ""}</p>',
                _table(["expected cost"], cost_rows(cost), corner="decisions"),
                _matrix(cost["cost_matrix"], cost["classes"], "the cost matrix as read, in "
                        "the report's order; rows: true classes, columns: decisions")]
    if "mlcm" in report:
        out += ["<h3>MLCM</h3>",
                _matrix(report["mlcm"], classes, "rows: true classes, columns: predicted "
                                                 "classes; none: no true label, no "
                                                 "predicted label"),
                "<h3>Per-class scores (MLCM)</h3>",
                _scores(report["mlcm_classification_report"], report)]
    out += ["<h3>Measures</h3>",
            _table(["value"], measure_rows(report["measures"]), corner="measure")]
    if "statistics" in report:
        statistics = report["statistics"]
        columns, rows = test_rows(statistics)
        out += [f"<h3>{escape(HOMOGENEITY)}</h3>", _table(columns, rows, corner="test")]
        columns, rows = posthoc_rows(statistics)
        out += [f"<h3>{escape(POSTHOC)}</h3>", _table(columns, rows, corner="class")]
        title, columns, rows = posterior_rows(statistics["posterior"], classes)
        out += [f"<h3>{escape(title)}</h3>", _table(columns, rows, corner="class"),
                _matrix(statistics["posterior"]["mean"], classes,
                        "posterior mean of P[predicted | true]; rows: true classes, "
                        "columns: predicted classes")]
    if "quantification" in report:
        out += [f"<h3>{escape(QUANTIFICATION)}</h3>",
                _table(["value"], measure_rows(report["quantification"]), corner="error")]
    for caption, figure in figures:
        out.append(f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,'
                   f'{_png(figure)}"><figcaption>{escape(caption)}</figcaption></figure>')
    return "".join(out)


def _png(figure):
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


NO_FIGURES = ("the HTML page has the tables only: its figures need matplotlib, which is not "
              "installed (pip install matplotlib)")


def html_page(title, sections, note=None):
    """The page: ``sections`` is a list of ``(heading, introduction, report, figures)``, with
    ``figures`` a list of ``(caption, matplotlib figure)`` (empty without matplotlib);
    ``note``: a sentence under the title (the figures missing)."""
    out = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{escape(title)}</h1>"]
    if note:
        out.append(f'<p class="note"><strong>Note:</strong> {escape(note[0].upper() + note[1:])}'
                   ".</p>")
    for heading, introduction, report, figures in sections:
        out.append("<section>")
        if heading:
            out.append(f"<h2>{escape(heading)}</h2>")
        if introduction:
            out.append(f"<p>{escape(introduction)}</p>")
        out.append(_section(report, figures))
        out.append("</section>")
    out.append("</body></html>\n")
    return "\n".join(out)
