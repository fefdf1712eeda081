"""The report command line's options and conventions: the most-confused pairs, indicator
columns named by --labels or a header, the one-class warning, and --html without
matplotlib."""

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


INDICATORS_TRUE = "1,0,1\n0,1,0\n1,1,0\n0,0,1\n"
INDICATORS_PRED = "1,0,0\n0,1,1\n1,1,0\n0,1,1\n"


def _json_report(capsys, *args):
    assert main(["report", *map(str, args), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_labels_and_header_name_the_columns_of_indicator_files(tmp_path, capsys):
    """--labels cat dog fox names the three columns of indicator files, and so does a header
    line (before: --labels had to be integers, the header was dropped and the classes were
    0, 1, 2); column numbers still select columns."""
    true_path, pred_path = tmp_path / "t.csv", tmp_path / "p.csv"
    true_path.write_text(INDICATORS_TRUE)
    pred_path.write_text(INDICATORS_PRED)
    plain = _json_report(capsys, "--true", true_path, "--pred", pred_path)
    named = _json_report(capsys, "--true", true_path, "--pred", pred_path,
                         "--labels", "cat", "dog", "fox")
    assert plain["classes"] == ["0", "1", "2"] and named["classes"] == ["cat", "dog", "fox"]
    assert named["transport_confusion_matrix"] == plain["transport_confusion_matrix"]
    for section in ("transport_classification_report", "mlcm_classification_report"):
        assert named[section]["dog"] == plain[section]["1"]
        assert named[section]["macro avg"] == plain[section]["macro avg"]
    selected = _json_report(capsys, "--true", true_path, "--pred", pred_path,
                            "--labels", "2", "0")
    assert selected["classes"] == ["2", "0"]
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--labels", "cat", "dog"]) == 2
    assert "--labels names the 3 columns" in capsys.readouterr().err

    true_path.write_text("cat,dog,fox\n" + INDICATORS_TRUE)
    pred_path.write_text("cat,dog,fox\n" + INDICATORS_PRED)
    headed = _json_report(capsys, "--true", true_path, "--pred", pred_path)
    assert headed["classes"] == ["cat", "dog", "fox"]
    assert headed["transport_classification_report"] == named[
        "transport_classification_report"]
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path)]) == 0
    assert "3 classes: cat, dog, fox." in capsys.readouterr().out


def test_one_class_report_warns_once_naming_labels(tmp_path, capsys):
    """Before: the library's 'pass all known classes with labels=' three times on stderr."""
    true_path, pred_path = tmp_path / "t.txt", tmp_path / "p.txt"
    true_path.write_text("cat\ncat\ncat\n")
    pred_path.write_text("cat\ncat\ncat\n")
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path)]) == 0
    error = capsys.readouterr().err
    assert len(error.splitlines()) == 1 and "--labels" in error and "(cat)" in error
    assert "labels=" not in error
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--labels", "cat", "dog"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "2 classes: cat, dog." in captured.out


def test_plots_of_indicator_files_carry_the_column_names(tmp_path, monkeypatch):
    """--plots and --html drew indicator files' classes as 0, 1, 2 while the text named them
    (the figures were not given the names)."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    ticks = []
    original = Figure.savefig

    def spy(figure, *args, **kwargs):
        ticks.append([label.get_text() for ax in figure.axes
                      for label in ax.get_xticklabels()])
        return original(figure, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    true_path, pred_path = tmp_path / "t.csv", tmp_path / "p.csv"
    true_path.write_text(INDICATORS_TRUE)
    pred_path.write_text(INDICATORS_PRED)
    assert main(["report", "--true", str(true_path), "--pred", str(pred_path),
                 "--labels", "cat", "dog", "fox", "--plots", str(tmp_path / "plots")]) == 0
    assert ticks and all({"cat", "dog", "fox"} <= set(drawn) for drawn in ticks)
    assert not any({"0", "1", "2"} <= set(drawn) for drawn in ticks)


def test_library_warnings_are_one_line_each_once(tmp_path, capsys):
    """Scores whose rows do not sum to 1: the rows-do-not-sum-to-1 warning came twice,
    each under Python's '<frozen runpy>:88: UserWarning:'; now one 'note:' line.
    (Probabilities written with six decimals, which sum to 1 within their rounding, give
    one note instead: test_rounded_probabilities_give_one_note_and_one_matrix.)"""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 200)
    proba = rng.dirichlet([1.0] * 3, size=200) * 1.2
    (tmp_path / "t.txt").write_text("".join(f"{label}\n" for label in y))
    np.savetxt(tmp_path / "p.csv", proba, fmt="%.6f", delimiter=",")
    assert main(["report", "--true", str(tmp_path / "t.txt"), "--pred",
                 str(tmp_path / "p.csv")]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("note: y_pred's rows do not sum to 1")
    np.savetxt(tmp_path / "p.csv", proba / 1.2, fmt="%.6f", delimiter=",")
    assert main(["report", "--true", str(tmp_path / "t.txt"), "--pred",
                 str(tmp_path / "p.csv")]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("note: ") and "6 decimals" in lines[0]


def test_every_library_warning_is_one_note_once(tmp_path, capsys, monkeypatch):
    """Issue 39: the library's warnings, of any category and from any step of the
    command (reading, the report), each printed once as one 'note:' line when raised,
    without Python's '<frozen runpy>:88: UserWarning:' prefix; a multi-line message is one
    line; the command's own notes and output are unchanged."""
    import warnings

    import sklearn_confusion_ext._cli as cli

    true_path, pred_path, *_ = _labels(tmp_path, 3, n=60)
    build_report, load_targets = cli.build_report, cli.load_targets

    def noisy_report(*args, **kwargs):
        for _ in range(3):
            warnings.warn("scores undefined\n   for class 'x'", UserWarning, stacklevel=2)
            warnings.warn("invalid value in divide", RuntimeWarning, stacklevel=2)
            warnings.warn("a future change", FutureWarning, stacklevel=2)
        warnings.warn("developers only", DeprecationWarning, stacklevel=2)
        return build_report(*args, **kwargs)

    def noisy_reading(*args, **kwargs):
        # said again in the report: one note
        warnings.warn("invalid value in divide", RuntimeWarning, stacklevel=2)
        warnings.warn("read with care", UserWarning, stacklevel=2)
        return load_targets(*args, **kwargs)

    monkeypatch.setattr(cli, "build_report", noisy_report)
    monkeypatch.setattr(cli, "load_targets", noisy_reading)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing escapes to Python's display
        assert main(["report", "--true", str(true_path), "--pred", str(pred_path)]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "note: invalid value in divide", "note: read with care",
        "note: scores undefined for class 'x'", "note: a future change"]
    assert "Transport confusion matrix" in captured.out


@pytest.mark.slow
def test_warnings_are_notes_from_the_shell(tmp_path):
    """``python -m sklearn_confusion_ext report``: rows that do not sum to 1 give one
    note line, no '<frozen runpy>' prefix, no 'UserWarning'."""
    import subprocess

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 200)
    (tmp_path / "t.txt").write_text("".join(f"{label}\n" for label in y))
    np.savetxt(tmp_path / "p.csv", rng.dirichlet([1.0] * 3, size=200) * 1.2, fmt="%.6f",
               delimiter=",")
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_confusion_ext", "report", "--true",
         str(tmp_path / "t.txt"), "--pred", str(tmp_path / "p.csv")],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("note: y_pred's rows do not sum to 1")
    assert "runpy" not in result.stderr and "Warning" not in result.stderr
