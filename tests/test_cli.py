"""The report command line: good files, bad files, JSON output, plots."""

import json
import pickle
import subprocess
import sys

import numpy as np
import pytest

from sklearn_confusion_ext._cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "sklearn_confusion_ext", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def label_files(tmp_path):
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    true.write_text("cat\ndog\ndog\nfox\ncat\nfox\n")
    pred.write_text("cat\ndog\ncat\nfox\ncat\ndog\n")
    return true, pred


def test_report_text_and_json_on_label_files(label_files, capsys):
    true, pred = label_files
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 0
    text = capsys.readouterr().out
    assert "6 samples, single-label targets, classes cat, dog, fox" in text
    assert "Marginal homogeneity" in text
    assert main(["report", "--true", str(true), "--pred", str(pred), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["transport_confusion_matrix"]["uniform"] == [[2, 0, 0], [1, 1, 0], [0, 1, 1]]
    assert report["statistics"]["one_versus_all"]["cat"]["verdict"] == "no evidence"


def test_report_on_npy_multilabel_with_plots(tmp_path, capsys, rng):
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, (rng.random((40, 3)) < 0.4).astype(int))
    np.save(pred, (rng.random((40, 3)) < 0.4).astype(int))
    plots = tmp_path / "plots"
    code = main(["report", "--true", str(true), "--pred", str(pred), "--kind", "multilabel",
                 "--plots", str(plots), "--format", "json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["transport_confusion_matrix"]) == {"uniform", "true", "pred"}
    assert len(report["mlcm"]) == 4
    assert sorted(p.name for p in plots.iterdir()) == ["mlcm.png",
                                                       "transport_confusion_matrix.png"]


def _bad(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.mark.parametrize("name, content, message", [
    ("pred.csv", "1,0\n0\n", "different numbers of columns"),
    ("pred.csv", "1,0\nnan,1\n", "NaN or infinite"),
    ("pred.csv", "1,0\n1e300,1\n", "values above"),
    ("pred.csv", "1,0\nx,1\n", "not a number"),
    ("pred.csv", "", "empty"),
    ("pred.npy", pickle.dumps({"evil": True}), "not a plain .npy array"),
    ("pred.csv", b"\xff\xfe\x00garbage", "not a UTF-8 text file"),
])
def test_bad_files_give_one_line_and_exit_2(tmp_path, capsys, name, content, message):
    true = _bad(tmp_path, "true.csv", "1,0\n0,1\n")
    pred = _bad(tmp_path, name, content)
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: ") and message in error


def test_pickled_object_array_in_npy_is_refused(tmp_path, capsys):
    true = _bad(tmp_path, "true.csv", "0\n1\n")
    pred = tmp_path / "pred.npy"
    np.save(pred, np.array([{"a": 1}, {"b": 2}], dtype=object), allow_pickle=True)
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 2
    assert "not a plain .npy array" in capsys.readouterr().err


def test_missing_file_mismatched_shapes_and_kind(tmp_path, capsys, label_files):
    true, pred = label_files
    assert main(["report", "--true", str(tmp_path / "nope.csv"), "--pred", str(pred)]) == 2
    assert "no such file" in capsys.readouterr().err
    short = _bad(tmp_path, "short.csv", "cat\ndog\n")
    assert main(["report", "--true", str(true), "--pred", str(short)]) == 2
    assert "same number of samples" in capsys.readouterr().err
    assert main(["report", "--true", str(true), "--pred", str(pred), "--kind", "soft"]) == 2
    assert "--kind soft does not match" in capsys.readouterr().err


def test_cli_subprocess_exit_status(tmp_path):
    true = _bad(tmp_path, "true.csv", "0\n1\n")
    result = run("report", "--true", str(true), "--pred", str(tmp_path / "missing.npy"))
    assert result.returncode == 2 and result.stderr.startswith("error: ")
    assert result.stdout == ""


def test_report_choices_are_the_declared_options(label_files, capsys):
    from sklearn_confusion_ext._core.params import options_of

    with pytest.raises(SystemExit) as caught:
        main(["report", "--help"])
    assert caught.value.code == 0
    usage = capsys.readouterr().out
    for option in ("kind", "format"):
        assert "{" + ",".join(options_of("report", option)) + "}" in usage
    true, pred = label_files
    with pytest.raises(SystemExit) as caught:
        main(["report", "--true", str(true), "--pred", str(pred), "--format", "yaml"])
    assert caught.value.code == 2 and "invalid choice: 'yaml'" in capsys.readouterr().err
    for kind in options_of("report", "kind"):
        expected = 0 if kind in ("auto", "single") else 2
        assert main(["report", "--true", str(true), "--pred", str(pred), "--kind", kind]) \
            == expected


def test_plots_path_that_is_a_file_is_one_error_line(tmp_path, capsys):
    (tmp_path / "t.csv").write_text("a\nb\nb\n")
    (tmp_path / "taken").write_text("")
    status = main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                   str(tmp_path / "t.csv"), "--plots", str(tmp_path / "taken")])
    error = capsys.readouterr().err
    assert status == 2 and error.startswith("error: ") and len(error.splitlines()) == 1


def test_one_class_and_strict_json(tmp_path, capsys):
    import json

    (tmp_path / "one.csv").write_text("a\na\na\n")
    assert main(["report", "--true", str(tmp_path / "one.csv"), "--pred",
                 str(tmp_path / "one.csv")]) == 0
    assert "3 samples, single-label targets, classes a" in capsys.readouterr().out
    (tmp_path / "t.csv").write_text("a\nb\na\nb\n")
    (tmp_path / "p.csv").write_text("a\na\na\na\n")
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"), "--format", "json"]) == 0

    def refuse(token):
        raise ValueError(f"not strict JSON: {token}")

    report = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert report["n_samples"] == 4
