"""``--confidence LEVEL`` (and ``--seed N``): bootstrap intervals of the classification
reports' scores in the text, the JSON and the HTML page of ``report`` (and ``demo``)."""

import json
import re
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

from sklearn_confusion_ext import mlcm_classification_report, transport_classification_report
from sklearn_confusion_ext._cli import main
from sklearn_confusion_ext._cli.report import (
    DEFAULT_INTERVAL_METHOD,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
)

SCORES = ("precision", "recall", "f1-score")


class Tables(HTMLParser):
    """The data tables of a page: rows of cell texts, and the note paragraphs."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tables, self.notes, self._cell, self._note = [], [], None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = ""
        elif tag == "p" and attrs.get("class") == "note":
            self._note = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(self._cell)
            self._cell = None
        elif tag == "p" and self._note is not None:
            self.notes.append(self._note)
            self._note = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._note is not None:
            self._note += data


@pytest.fixture
def label_files(tmp_path):
    rng = np.random.default_rng(0)
    names = np.array(["cat", "dog", "fox"])
    y = rng.integers(0, 3, 150)
    pred = np.where(rng.random(150) < 0.7, y, rng.integers(0, 3, 150))
    true_path, pred_path = tmp_path / "true.csv", tmp_path / "pred.csv"
    true_path.write_text("".join(f"{name}\n" for name in names[y]))
    pred_path.write_text("".join(f"{name}\n" for name in names[pred]))
    return true_path, pred_path, names[y], names[pred]


@pytest.fixture
def multilabel_files(tmp_path):
    rng = np.random.default_rng(1)
    y_true = (rng.random((120, 3)) < 0.4).astype(int)
    y_pred = np.where(rng.random((120, 3)) < 0.8, y_true, 1 - y_true)
    true_path, pred_path = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true_path, y_true)
    np.save(pred_path, y_pred)
    return true_path, pred_path, y_true, y_pred


def _json(capsys, true_path, pred_path, *options):
    capsys.readouterr()
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--format", "json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_the_intervals_of_the_reports(label_files, capsys):
    true_path, pred_path, y_true, y_pred = label_files
    report = _json(capsys, true_path, pred_path, "--confidence", "0.9", "--seed", "5")
    assert report["confidence"] == {"level": 0.9, "method": "percentile",
                                    "n_resamples": 999, "seed": 5}
    expected = transport_classification_report(y_true, y_pred, confidence_level=0.9,
                                               random_state=5, zero_division=0.0,
                                               output_dict=True)
    assert report["transport_classification_report"] == expected  # JSON keeps every digit
    scores = report["transport_classification_report"]
    assert scores["cat"]["precision_low"] < scores["cat"]["precision"] < \
        scores["cat"]["precision_high"]
    assert scores["accuracy_low"] < scores["accuracy"] < scores["accuracy_high"]
    assert "f1-score_high" in report["mlcm_classification_report"]["micro avg"]
    # the seed reproduces the report; the default leaves it without intervals
    assert _json(capsys, true_path, pred_path, "--confidence", "0.9", "--seed", "5") == report
    plain = _json(capsys, true_path, pred_path)
    assert "confidence" not in plain and "_low" not in json.dumps(plain)


def test_json_of_multilabel_targets(multilabel_files, capsys):
    true_path, pred_path, y_true, y_pred = multilabel_files
    report = _json(capsys, true_path, pred_path, "--confidence", "0.95", "--seed", "0")
    expected = mlcm_classification_report(y_true, y_pred, confidence_level=0.95,
                                          random_state=0, zero_division=0.0,
                                          output_dict=True)
    assert report["mlcm_classification_report"] == expected
    for name, row in report["transport_classification_report"].items():
        if isinstance(row, dict):
            for key in SCORES:
                assert row[f"{key}_low"] <= row[key] <= row[f"{key}_high"], name


def test_text_table_shows_the_intervals_within_80_columns(label_files, capsys):
    true_path, pred_path, *_ = label_files
    capsys.readouterr()
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--width", "80",
                 "--confidence", "0.9", "--seed", "5"]) == 0
    text = capsys.readouterr().out
    report = _json(capsys, true_path, pred_path, "--confidence", "0.9", "--seed", "5")
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert "(columns" not in text  # the scores table does not wrap into blocks
    start = lines.index("Transport classification report:")
    assert lines[start + 1].startswith("Intervals: 90% bootstrap percentile intervals (999 "
                                       "resamples")
    cell = r"(\d\.\d\d) \[(\d\.\d\d), (\d\.\d\d)\]"
    scores = report["transport_classification_report"]
    for name in ("cat", "dog", "fox", "macro avg", "weighted avg"):
        line = next(line for line in lines[start:] if line.strip().startswith(name + " "))
        found = re.findall(cell, line)
        assert len(found) == 3, line
        for (value, low, high), key in zip(found, SCORES):
            row = scores[name]
            assert (float(value), float(low), float(high)) == pytest.approx(
                (row[key], row[f"{key}_low"], row[f"{key}_high"]), abs=0.0051)
    accuracy = next(line for line in lines[start:] if line.strip().startswith("accuracy"))
    ((_, low, high),) = re.findall(cell, accuracy)
    assert (float(low), float(high)) == pytest.approx(
        (scores["accuracy_low"], scores["accuracy_high"]), abs=0.0051)
    assert text.count("Intervals: 90%") == 2  # the TCM and the MLCM reports


def test_html_shows_the_intervals(label_files, tmp_path, capsys):
    true_path, pred_path, *_ = label_files
    html = tmp_path / "report.html"
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--html",
                 str(html), "--confidence", "0.9", "--seed", "5"]) == 0
    report = _json(capsys, true_path, pred_path, "--confidence", "0.9", "--seed", "5")
    page = Tables(html.read_text(encoding="utf-8"))
    tables = [table for table in page.tables if "90% interval" in table[0]]
    assert len(tables) == 2  # the TCM's and the MLCM's scores
    assert sum("90% bootstrap percentile intervals" in note for note in page.notes) == 2
    for table, key in zip(tables, ("transport_classification_report",
                                   "mlcm_classification_report")):
        header, *rows = table
        assert header[1:] == ["precision", "90% interval", "recall", "90% interval",
                              "f1-score", "90% interval", header[-1]]
        scores = report[key]
        for name, *cells in rows:
            for j, score in enumerate(SCORES):
                value, interval = cells[2 * j], cells[2 * j + 1]
                if name == "accuracy":
                    if score != "f1-score":
                        assert value == interval == ""
                        continue
                    expected = (scores["accuracy"], scores["accuracy_low"],
                                scores["accuracy_high"])
                else:
                    row = scores[name]
                    expected = (row[score], row[f"{score}_low"], row[f"{score}_high"])
                low, high = interval.split("\u2013")
                assert (float(value), float(low), float(high)) == pytest.approx(
                    expected, abs=0.00051)


def test_html_without_confidence_has_no_interval_columns(label_files, tmp_path):
    true_path, pred_path, *_ = label_files
    html = tmp_path / "report.html"
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--html",
                 str(html)]) == 0
    page = Tables(html.read_text(encoding="utf-8"))
    assert not any("interval" in " ".join(table[0]) for table in page.tables)
    assert any(table[0][1:] == ["precision", "recall", "f1-score", "support"]
               for table in page.tables)


@pytest.mark.parametrize("option, value", [("--confidence", "1.5"), ("--confidence", "0"),
                                           ("--confidence", "1"), ("--confidence", "high"),
                                           ("--seed", "-1"), ("--seed", "1.5"),
                                           ("--resamples", "9"), ("--resamples", "1e3"),
                                           ("--interval-method", "wilson"),
                                           ("--interval-method", "analytic")])
def test_bad_confidence_and_seed_are_refused(label_files, capsys, option, value):
    true_path, pred_path, *_ = label_files
    with pytest.raises(SystemExit) as exit_status:
        main(["report", "--true", str(true_path), "--pred", str(pred_path), option, value])
    assert exit_status.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {option}" in error and repr(value) in error


def test_demo_takes_confidence(capsys):
    assert main(["demo", "--confidence", "0.8", "--seed", "0", "--width", "80"]) == 0
    text = capsys.readouterr().out
    # TCM x 3, the argmax decisions of the probabilities, MLCM x 2
    assert text.count("Intervals: 80% bootstrap percentile intervals") == 6
    assert max(map(len, text.splitlines())) <= 80
    assert re.search(r"accuracy\s+\d\.\d\d \[\d\.\d\d, \d\.\d\d\]", text)


def test_confidence_is_reproducible_by_default_and_prints_its_seed(label_files, tmp_path,
                                                                   capsys, monkeypatch):
    """Without --seed the intervals are drawn from seed 0, said beside them in the text, the
    JSON and the HTML: two runs of one command print the same bounds (they differed on
    every run with a fresh seed); --seed N draws others."""
    true_path, pred_path, y_true, y_pred = label_files
    first = _json(capsys, true_path, pred_path, "--confidence", "0.95")
    assert first["confidence"]["seed"] == DEFAULT_SEED == 0
    assert _json(capsys, true_path, pred_path, "--confidence", "0.95") == first
    assert _json(capsys, true_path, pred_path, "--confidence", "0.95", "--seed", "0") == first
    assert first["transport_classification_report"] == transport_classification_report(
        y_true, y_pred, confidence_level=0.95, random_state=0, zero_division=0.0,
        output_dict=True)
    other = _json(capsys, true_path, pred_path, "--confidence", "0.95", "--seed", "1")
    assert other["transport_classification_report"] != first["transport_classification_report"]
    texts = []
    for _ in range(2):
        assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                     "--confidence", "0.95"]) == 0
        texts.append(capsys.readouterr())
    assert texts[0] == texts[1] and texts[0].err == ""
    assert " ".join(texts[0].out.split()).count(
        "Intervals: 95% bootstrap percentile intervals (999 resamples of the instances, "
        "seed 0).") == 2
    html = tmp_path / "report.html"
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the notes are under test
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--html",
                 str(html), "--confidence", "0.95"]) == 0
    assert sum("seed 0)" in note for note in Tables(html.read_text(encoding="utf-8")).notes) \
        == 2


METHOD_NOTES = {"percentile": "bootstrap percentile intervals (250 resamples of the "
                              "instances, seed 3)",
                "basic": "basic bootstrap intervals (250 resamples of the instances, seed 3)",
                "bca": "BCa bootstrap intervals (bias-corrected and accelerated; 250 "
                       "resamples of the instances, seed 3)",
                "bayesian": "Bayesian equal-tailed intervals (250 posterior draws, seed 3)"}


@pytest.mark.parametrize("method", list(METHOD_NOTES))
def test_interval_method_and_resamples_reach_both_reports(label_files, capsys, method):
    """--interval-method and --resamples are the reports' interval_method= and
    n_resamples=: the JSON holds the reports' numbers, the note says which intervals."""
    true_path, pred_path, y_true, y_pred = label_files
    options = ["--confidence", "0.9", "--interval-method", method, "--resamples", "250",
               "--seed", "3"]
    capsys.readouterr()
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--format",
                 "json", *options]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["confidence"] == {"level": 0.9, "method": method, "n_resamples": 250,
                                    "seed": 3}
    keywords = {"confidence_level": 0.9, "interval_method": method, "n_resamples": 250,
                "random_state": 3, "zero_division": 0.0, "output_dict": True}
    assert report["transport_classification_report"] == transport_classification_report(
        y_true, y_pred, **keywords)
    assert report["mlcm_classification_report"] == mlcm_classification_report(
        y_true, y_pred, **keywords)
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--width",
                 "80", *options]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert text.count(f"Intervals: 90% {METHOD_NOTES[method]}.") == 2


def test_interval_options_without_confidence_say_they_do_nothing(label_files, capsys):
    true_path, pred_path, *_ = label_files
    plain = _json(capsys, true_path, pred_path)
    capsys.readouterr()
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path), "--format",
                 "json", "--seed", "4", "--resamples", "100", "--interval-method",
                 "bca"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == plain
    assert captured.err.splitlines() == [
        f"warning: {name} has no effect without --confidence (no intervals)"
        for name in ("--interval-method", "--resamples", "--seed")]


def test_command_line_defaults_are_the_reports(capsys):
    """--interval-method, --resamples: the reports' defaults and options."""
    import inspect

    from declarations import DECLARATIONS

    from sklearn_confusion_ext._core.params import options_of

    for function in (transport_classification_report, mlcm_classification_report):
        parameters = inspect.signature(function).parameters
        assert parameters["interval_method"].default == DEFAULT_INTERVAL_METHOD
        assert parameters["n_resamples"].default == DEFAULT_RESAMPLES
        assert options_of(function, "interval_method") == \
            options_of(DECLARATIONS["report"], "interval_method")
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert "{" + ",".join(options_of(DECLARATIONS["report"], "interval_method")) + "}" in usage
    assert f"(default: {DEFAULT_INTERVAL_METHOD})" in usage
    assert f"(default: {DEFAULT_SEED}," in usage
