"""The command line of issue 26: the most-confused pairs, indicator columns named by --labels
or a header, the one-class warning, and --html without matplotlib."""

import json
import sys

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._cli import main


def _labels(tmp_path, n_classes, n=500, seed=0):
    rng = np.random.default_rng(seed)
    names = [f"species_{i:02d}" for i in range(n_classes)]
    y = rng.integers(0, n_classes, n)
    pred = np.where(rng.random(n) < 0.7, y, (y + rng.integers(1, 3, n)) % n_classes)
    true_path, pred_path = tmp_path / "true.txt", tmp_path / "pred.txt"
    true_path.write_text("\n".join(names[i] for i in y) + "\n")
    pred_path.write_text("\n".join(names[i] for i in pred) + "\n")
    return true_path, pred_path, [names[i] for i in y], [names[i] for i in pred], names


def test_most_confused_pairs_listed_beyond_ten_classes(tmp_path, capsys):
    """40 classes: the report lists the 10 largest off-diagonal cells after the matrix, the
    same pairs as most_confused_pairs; 3 classes: only on --most-confused."""
    true_path, pred_path, y, pred, names = _labels(tmp_path, 40)
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = sce.most_confused_pairs(confusion_matrix(y, pred, labels=names),
                                       display_labels=names)
    pairs = report["most_confused_pairs"]["pairs"]
    assert [(p["true"], p["predicted"], p["count"]) for p in pairs] == [
        (p.true, p.predicted, p.count) for p in expected]
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--width", "80"]) == 0
    text = capsys.readouterr().out
    first = expected[0]
    assert f"10 of {expected.n_confused} confused pairs" in text
    assert f"{first.true} -> {first.predicted}" in text
    assert text.index("Most-confused") < text.index("Transport classification report")
    assert max(map(len, text.splitlines())) <= 80

    true_path, pred_path, *_ = _labels(tmp_path, 3)
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path)]) == 0
    assert "Most-confused" not in capsys.readouterr().out
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--most-confused", "2", "--html", str(tmp_path / "r.html")]) == 0
    text = capsys.readouterr().out
    assert "2 of 6 confused pairs" in text
    page = (tmp_path / "r.html").read_text()
    assert "<h3>Most-confused class pairs</h3>" in page


def test_most_confused_zero_leaves_them_out_and_a_negative_is_refused(tmp_path, capsys):
    true_path, pred_path, *_ = _labels(tmp_path, 12)
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--most-confused", "0", "--format", "json"]) == 0
    assert "most_confused_pairs" not in json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit):
        main(["report", "--true", str(true_path), "--pred", str(pred_path),
              "--most-confused", "-1"])
    assert "--most-confused" in capsys.readouterr().err


def test_html_without_matplotlib_says_figures_are_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    true_path, pred_path, *_ = _labels(tmp_path, 3, n=30)
    page_path = tmp_path / "r.html"
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--html", str(page_path)]) == 0
    captured = capsys.readouterr()
    assert len(captured.err.splitlines()) == 1 and captured.err.startswith("warning: ")
    assert "figures" in captured.err and "pip install matplotlib" in captured.err
    page = page_path.read_text()
    assert "pip install matplotlib" in page and "<img" not in page
