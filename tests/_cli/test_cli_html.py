"""The HTML report of ``report --html`` and ``demo --html``: parsed with the standard
library's html.parser, and rendered by headless Chromium where one is installed."""

import base64
import json
import shutil
import subprocess
import sys
from html import escape
from html.parser import HTMLParser

import numpy as np
import pytest

from sklearn_confusion_ext._cli import main
from sklearn_confusion_ext._cli.html import heat_colours

HOSTILE = ["Blue jay <script>alert(1)</script>", "cat & dog", 'say "hi"']


class Page(HTMLParser):
    """The parts of a page the tests read: every start tag's attributes, the tables (cells
    as ``(tag, text, attributes)``), the headings and the text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.tables, self.headings, self.text = [], [], [], []
        self._cell = self._heading = None
        self._stack = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "table":
            self._stack.append({"class": attrs.get("class", ""), "rows": []})
            self.tables.append(self._stack[-1])
        elif tag == "tr" and self._stack:
            self._stack[-1]["rows"].append([])
        elif tag in ("td", "th") and self._stack:
            self._cell = [tag, "", attrs]
        elif tag in ("h1", "h2", "h3"):
            self._heading = ""

    def handle_endtag(self, tag):
        if tag == "table" and self._stack:
            self._stack.pop()
        elif tag in ("td", "th") and self._cell is not None:
            self._stack[-1]["rows"][-1].append(tuple(self._cell))
            self._cell = None
        elif tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append(self._heading.strip())
            self._heading = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell[1] += data
        if self._heading is not None:
            self._heading += data

    def matrices(self):
        return [table for table in self.tables if "matrix" in table["class"].split()]

    def table_after(self, heading):
        """The first data table whose header holds ``heading`` (its corner or a column)."""
        for table in self.tables:
            if any(text == heading for _, text, _ in table["rows"][0]):
                return table
        raise AssertionError(f"no table with a column {heading!r}")


def _write(tmp_path, true, pred, name="t"):
    true_path, pred_path = tmp_path / f"{name}_true.txt", tmp_path / f"{name}_pred.txt"
    true_path.write_text("".join(f"{label}\n" for label in true))
    pred_path.write_text("".join(f"{label}\n" for label in pred))
    return true_path, pred_path


def _report(tmp_path, capsys, true_path, pred_path, *options):
    html = tmp_path / "report.html"
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--delimiter", "none", "--html", str(html), *options]) == 0
    capsys.readouterr()
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--delimiter", "none", "--format", "json", *options]) == 0
    return html.read_text(encoding="utf-8"), json.loads(capsys.readouterr().out)


@pytest.fixture
def hostile_report(tmp_path, capsys):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 90)
    pred = np.where(rng.random(90) < 0.6, y, 0)  # class 0 over-predicted
    true_path, pred_path = _write(tmp_path, [HOSTILE[i] for i in y],
                                  [HOSTILE[i] for i in pred])
    return _report(tmp_path, capsys, true_path, pred_path, "--no-header")


def test_html_escapes_class_names_and_has_no_url(hostile_report):
    text, report = hostile_report
    page = Page(text)
    assert "<script>" not in text and not any(tag == "script" for tag, _ in page.tags)
    assert "&lt;script&gt;" in text and "cat &amp; dog" in text
    assert "://" not in text  # no URL of any scheme with an authority, anywhere
    for tag, attributes in page.tags:
        for name in ("src", "href"):
            value = attributes.get(name)
            assert value is None or value.startswith("data:"), (tag, value)
    assert not any(tag in ("link", "iframe", "object", "embed") for tag, _ in page.tags)
    assert sorted(report["classes"]) == sorted(HOSTILE)


def test_html_matrices_are_labelled_heat_maps(hostile_report):
    text, report = hostile_report
    page = Page(text)
    names = report["classes"]
    matrices = page.matrices()
    # the TCM (one: the weightings agree on single labels), the MLCM, the posterior means
    assert len(matrices) == 3
    for table, expected, extra in ((matrices[0], report["transport_confusion_matrix"]["uniform"],
                                    []),
                                   (matrices[1], report["mlcm"], ["none"])):
        header, *rows = table["rows"]
        assert [text for _, text, _ in header[1:]] == names + extra
        assert [row[0][1] for row in rows] == names + extra
        assert all(row[0][0] == "th" for row in rows)
        values = [[float(cell[1]) for cell in row[1:]] for row in rows]
        np.testing.assert_array_equal(values, expected)
        # the largest cell is the darkest, a zero cell the lightest, as heat_colours says
        flat = np.asarray(expected, dtype=float)
        i, j = np.unravel_index(flat.argmax(), flat.shape)
        assert f"background:{heat_colours(1.0)[0]}" in rows[i][j + 1][2]["style"]
        zeros = np.argwhere(flat == 0)
        if len(zeros):
            i, j = zeros[0]
            assert f"background:{heat_colours(0.0)[0]}" in rows[i][j + 1][2]["style"]
    assert "The three weightings (uniform, true, pred) give this same matrix" in text


def test_html_scores_tests_and_posteriors(hostile_report):
    text, report = hostile_report
    page = Page(text)
    names = report["classes"]
    scores = page.table_after("support")
    header, *rows = scores["rows"]
    assert [cell[1] for cell in header] == ["", "precision", "recall", "f1-score", "support"]
    by_name = {row[0][1]: [cell[1] for cell in row[1:]] for row in rows}
    assert set(by_name) == set(names) | {"accuracy", "macro avg", "weighted avg"}
    expected = report["transport_classification_report"]
    for name in names:
        assert float(by_name[name][0]) == pytest.approx(expected[name]["precision"], abs=5e-4)
        assert float(by_name[name][3]) == expected[name]["support"]
    assert float(by_name["accuracy"][2]) == pytest.approx(expected["accuracy"], abs=5e-4)
    assert by_name["accuracy"][3] == "90"
    # the tests' verdicts: class 0 is predicted far more often than it occurs
    tests = page.table_after("verdict")
    verdicts = {row[0][1]: row[-1][1] for row in tests["rows"][1:]}
    assert report["statistics"]["stuart_maxwell"]["pvalue"] < 0.05
    assert verdicts["Stuart-Maxwell"] == "reject homogeneity at 5%"
    assert verdicts["Bhapkar"] == report["statistics"]["bhapkar"]["verdict"]
    posthoc = page.table_after("p greater")
    verdicts = {row[0][1]: row[-1][1] for row in posthoc["rows"][1:]}
    assert verdicts == {name: row["verdict"]
                        for name, row in report["statistics"]["one_versus_all"].items()}
    assert verdicts[HOSTILE[0]] == "over-predicted"
    posterior = page.table_after("2.5%")
    for row in posterior["rows"][1:]:
        mean, lower, upper = (float(cell[1]) for cell in row[1:])
        assert 0 <= lower < mean < upper <= 1
    assert "Marginal homogeneity tests" in " ".join(page.headings)


def test_html_embeds_titled_figures(hostile_report):
    pytest.importorskip("matplotlib")
    text, _ = hostile_report
    images = [attributes for tag, attributes in Page(text).tags if tag == "img"]
    assert [image["alt"] for image in images] == [
        "Transport confusion matrix (weighting: uniform)",
        "MLCM (none: no true label / no predicted label)",
        "Dirichlet posterior of P[predicted | true] (Perks prior, 1/3 per cell)"]
    for image in images:
        prefix = "data:image/png;base64,"
        assert image["src"].startswith(prefix)
        assert base64.b64decode(image["src"][len(prefix):])[:8] == b"\x89PNG\r\n\x1a\n"


def test_html_without_matplotlib_has_the_tables_alone(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    true_path, pred_path = _write(tmp_path, "abcab", "abcca")
    text, _ = _report(tmp_path, capsys, true_path, pred_path)
    page = Page(text)
    assert not any(tag == "img" for tag, _ in page.tags)
    assert len(page.matrices()) == 3
    html = tmp_path / "plots"
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--plots",
                 str(html)]) == 2
    error = capsys.readouterr().err
    assert error == "error: --plots needs matplotlib: pip install matplotlib\n"


def test_html_at_40_classes(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the tables are under test
    names = [f"species number {i} with a long name" for i in range(40)]
    rng = np.random.default_rng(0)
    y = rng.integers(0, 40, 400)
    pred = np.where(rng.random(400) < 0.5, y, rng.integers(0, 40, 400))
    true_path, pred_path = _write(tmp_path, [names[i] for i in y], [names[i] for i in pred])
    text, report = _report(tmp_path, capsys, true_path, pred_path, "--no-header")
    matrix = Page(text).matrices()[0]
    header, *rows = matrix["rows"]
    assert len(rows) == 40 and all(len(row) == 41 for row in rows)
    assert [cell[1] for cell in header[1:]] == sorted(names) == report["classes"]
    assert "vertical" in matrix["class"].split()


def test_html_on_probabilities_says_what_the_scores_are_and_has_the_argmax_report(
        tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the tables are under test
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 200)
    logits = rng.normal(size=(200, 3))
    logits[np.arange(200), y] += 2.0
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    true_path, pred_path = tmp_path / "true.txt", tmp_path / "proba.npy"
    true_path.write_text("".join(f"{label}\n" for label in y))
    np.save(pred_path, proba)
    html = tmp_path / "report.html"
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--html",
                 str(html)]) == 0
    capsys.readouterr()
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--format",
                 "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    text = html.read_text(encoding="utf-8")
    page = Page(text)
    assert report["scores_meaning"] in "".join(page.text)
    assert f'<p class="meaning">{escape(report["scores_meaning"])}</p>' in text
    titles = ["Transport classification report (answers drawn at random from the "
              "probabilities)",
              "Classification report of the argmax decisions (the most probable class of "
              "each instance)"]
    assert [heading for heading in page.headings if heading in titles] == titles
    tables = [table for table in page.tables
              if [cell[1] for cell in table["rows"][0][1:]] == ["precision", "recall",
                                                                 "f1-score", "support"]]
    assert len(tables) == 2
    for table, key in zip(tables, ("transport_classification_report",
                                   "argmax_classification_report")):
        accuracy = next(row for row in table["rows"] if row[0][1] == "accuracy")
        assert float(accuracy[3][1]) == pytest.approx(report[key]["accuracy"], abs=5e-4)
    assert report["argmax_classification_report"]["accuracy"] == pytest.approx(
        np.mean(proba.argmax(axis=1) == y))


@pytest.mark.slow
def test_demo_html_has_its_three_parts(tmp_path, capsys):
    html = tmp_path / "demo.html"
    assert main(["demo", "--html", str(html)]) == 0
    assert f"Saved: {html}" in capsys.readouterr().out
    page = Page(html.read_text(encoding="utf-8"))
    assert [heading for heading in page.headings if heading[:2] in ("1.", "2.", "3.")] == [
        "1. Digits: predicted labels", "2. Digits: predicted probabilities", "3. Multi-label"]
    assert "://" not in html.read_text(encoding="utf-8")


def test_unwritable_html_path_is_one_error_line(tmp_path, capsys):
    true_path, pred_path = _write(tmp_path, "aba", "abb")
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--html",
                 str(tmp_path / "missing" / "report.html")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1


def test_heat_colours_keep_text_readable():
    light, dark = heat_colours(0.0), heat_colours(1.0)
    assert light == ("#f7fbff", "#1b1f24") and dark == ("#08306b", "#ffffff")
    backgrounds = [heat_colours(f)[0] for f in np.linspace(0, 1, 11)]
    brightness = [sum(int(b[i:i + 2], 16) for i in (1, 3, 5)) for b in backgrounds]
    assert brightness == sorted(brightness, reverse=True)  # darker as the value grows


# --- Headless Chromium: the page renders --------------------------------------------------

def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "chromium-headless-shell"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _screenshot(browser, page, png):
    result = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--disable-extensions", f"--user-data-dir={png.parent / 'profile'}",
         f"--screenshot={png}", "--window-size=1200,2000", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert png.exists(), result.stderr[-2000:]
    import matplotlib.image

    return matplotlib.image.imread(png)[..., :3]


def _ink(image):
    """The fraction of pixels that are not near-white, and the number of distinct colours."""
    pixels = (np.asarray(image) * 255).round().astype(np.uint8).reshape(-1, 3)
    return (pixels.min(axis=1) < 230).mean(), len(np.unique(pixels, axis=0))


@pytest.mark.skipif(_chromium() is None,
                    reason="no Chromium binary (chromium, chromium-browser, google-chrome or "
                           "chromium-headless-shell) on PATH; CI installs Debian's chromium")
@pytest.mark.slow
def test_html_renders_in_headless_chromium(hostile_report, tmp_path):
    pytest.importorskip("matplotlib")
    text, _ = hostile_report
    page = tmp_path / "page.html"
    page.write_text(text, encoding="utf-8")
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
    browser = _chromium()
    ink, colours = _ink(_screenshot(browser, blank, tmp_path / "blank.png"))
    assert ink == 0 and colours == 1  # the measure tells a blank page
    image = _screenshot(browser, page, tmp_path / "page.png")
    ink, colours = _ink(image)
    assert ink > 0.03 and colours > 50
    # the heat map's darkest blue is on screen
    assert (np.abs(image * 255 - np.array([8, 48, 107])).max(axis=-1) < 8).sum() > 100
