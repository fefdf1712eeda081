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
    assert "6 samples, single-label targets, 3 classes: cat, dog, fox." in text
    assert "Marginal homogeneity" in text
    assert main(["report", "--true", str(true), "--pred", str(pred), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["transport_confusion_matrix"]["uniform"] == [[2, 0, 0], [1, 1, 0], [0, 1, 1]]
    assert report["statistics"]["one_versus_all"]["cat"]["verdict"] == "no evidence"


def test_report_on_npy_multilabel_with_plots(tmp_path, capsys, rng):
    pytest.importorskip("matplotlib")
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
    ("pred.csv", "1,0\n0\n", "comma separates fields on line 1 but not on line 2"),
    ("pred.csv", "1 0\n0\n", "line 1 has 2, line 2 has 1 (fields separated by whitespace)"),
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
    from declarations import DECLARATIONS

    from sklearn_confusion_ext._core.params import options_of

    with pytest.raises(SystemExit) as caught:
        main(["report", "--help"])
    assert caught.value.code == 0
    usage = capsys.readouterr().out
    for option in ("kind", "format"):
        assert "{" + ",".join(options_of(DECLARATIONS["report"], option)) + "}" in usage
    true, pred = label_files
    with pytest.raises(SystemExit) as caught:
        main(["report", "--true", str(true), "--pred", str(pred), "--format", "yaml"])
    assert caught.value.code == 2 and "invalid choice: 'yaml'" in capsys.readouterr().err
    for kind in options_of(DECLARATIONS["report"], "kind"):
        expected = 0 if kind in ("auto", "single") else 2
        assert main(["report", "--true", str(true), "--pred", str(pred), "--kind", kind]) \
            == expected


def test_one_class_and_strict_json(tmp_path, capsys):
    import json

    (tmp_path / "one.csv").write_text("a\na\na\n")
    assert main(["report", "--true", str(tmp_path / "one.csv"), "--pred",
                 str(tmp_path / "one.csv")]) == 0
    assert "3 samples, single-label targets, 1 class: a." in capsys.readouterr().out
    (tmp_path / "t.csv").write_text("a\nb\na\nb\n")
    (tmp_path / "p.csv").write_text("a\na\na\na\n")
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"), "--format", "json"]) == 0

    def refuse(token):
        raise ValueError(f"not strict JSON: {token}")

    report = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert report["n_samples"] == 4



# --- Files as people write them -------------------------------------------------------------

THREE_CLASSES_TRUE = [0, 1, 2, 2, 1, 0, 2]
THREE_CLASSES_PRED = [0, 2, 2, 2, 1, 1, 2]  # 5 of 7 right
NAMES = ["cat", "dog", "fox"]


def _lines(values):
    return "".join(f"{value}\n" for value in values)


def _pandas_index(values, name):
    return f",{name}\n" + "".join(f"{i},{value}\n" for i, value in enumerate(values))


def _savetxt(values, delimiter=" "):
    rows = np.eye(3)[values]
    return "".join(delimiter.join(f"{x:.18e}" for x in row) + "\n" for row in rows)


# What pandas' to_csv and NumPy's savetxt write (checked against them in
# test_files_written_by_pandas_and_numpy), so that these run without pandas.
WRITERS = {
    "pandas index=False, named": lambda y: "label\n" + _lines(y),
    "pandas index=False, unnamed": lambda y: "0\n" + _lines(y),
    "pandas default (index), named": lambda y: _pandas_index(y, "label"),
    "pandas default (index), unnamed": lambda y: _pandas_index(y, "0"),
    "one label per line": _lines,
    "one label per line, blank lines and a BOM": lambda y: "\ufeff\n" + _lines(y) + "\n\n",
}


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("names", [False, True], ids=["integers", "strings"])
def test_label_files_give_the_right_accuracy(tmp_path, capsys, writer, names):
    """A header line is never a class: 7 samples, 5 right (a header line read as a class
    gave accuracy 0.75 instead of 0.67 with exit status 0)."""
    true, pred = THREE_CLASSES_TRUE, THREE_CLASSES_PRED
    if names:
        true, pred = [NAMES[y] for y in true], [NAMES[y] for y in pred]
    if not names and writer == "pandas index=False, unnamed":
        pytest.skip("a header line 0 above integer labels in both files is a label: "
                    "undetectable (test_unnamed_series_beside_one_sample_less)")
    (tmp_path / "t.csv").write_text(WRITERS[writer](true), encoding="utf-8")
    (tmp_path / "p.csv").write_text(WRITERS[writer](pred), encoding="utf-8")
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_samples"] == 7
    assert report["classes"] == (NAMES if names else ["0", "1", "2"])
    assert report["transport_classification_report"]["accuracy"] == pytest.approx(5 / 7)


def test_issue_example_header_line_is_not_a_class(tmp_path, capsys):
    (tmp_path / "t.csv").write_text("label\n0\n1\n1\n")
    (tmp_path / "p.csv").write_text("label\n0\n1\n0\n")
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_samples"] == 3 and report["classes"] == ["0", "1"]
    assert report["transport_classification_report"]["accuracy"] == pytest.approx(2 / 3)


@pytest.mark.parametrize("writer", {
    "savetxt default (spaces)": lambda y: _savetxt(y),
    "savetxt tabs": lambda y: _savetxt(y, "\t"),
    "comma rows": lambda y: _savetxt(y, ","),
    "semicolon rows with header": lambda y: "a;b;c\n" + _savetxt(y, ";"),
    "pandas DataFrame, index": lambda y: ",a,b,c\n" + "".join(
        f"{i}," + ",".join(str(int(x)) for x in row) + "\n"
        for i, row in enumerate(np.eye(3)[y])),
}.items(), ids=lambda item: item[0])
def test_indicator_rows_in_every_layout(tmp_path, capsys, writer):
    _, write = writer
    (tmp_path / "t.txt").write_text(write(THREE_CLASSES_TRUE))
    (tmp_path / "p.txt").write_text(write(THREE_CLASSES_PRED))
    assert main(["report", "--true", str(tmp_path / "t.txt"), "--pred",
                 str(tmp_path / "p.txt"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_samples"] == 7 and len(report["classes"]) == 3
    assert np.trace(report["transport_confusion_matrix"]["uniform"]) == 5


def test_files_written_by_pandas_and_numpy(tmp_path):
    """The literal layouts above are what the writers write."""
    pd = pytest.importorskip("pandas")
    path = tmp_path / "f.csv"
    y = THREE_CLASSES_TRUE
    for series, index, writer in [
            (pd.Series(y, name="label"), False, "pandas index=False, named"),
            (pd.Series(y), False, "pandas index=False, unnamed"),
            (pd.Series(y, name="label"), True, "pandas default (index), named"),
            (pd.Series(y), True, "pandas default (index), unnamed")]:
        series.to_csv(path, index=index)
        assert path.read_text() == WRITERS[writer](y)
    np.savetxt(path, np.eye(3)[y])
    assert path.read_text() == _savetxt(y)


def _report(tmp_path, true_text, pred_text, *options):
    (tmp_path / "t.csv").write_text(true_text)
    (tmp_path / "p.csv").write_text(pred_text)
    return main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"), "--format", "json", *options])


def test_header_decided_by_the_other_file(tmp_path, capsys):
    """A first line seen once may be a header or a class: the other file's number of samples
    decides; when both files are undecided, the user does, and the message says how."""
    named = "species\n" + _lines(NAMES[y] for y in THREE_CLASSES_TRUE)
    predicted = ["cat", "fox", "fox", "fox", "dog", "dog", "cat"]  # 4 of 7 right
    for other in ("0\n" + _lines(predicted),  # pandas, unnamed Series
                  _lines(predicted)):  # no header line
        assert _report(tmp_path, named, other) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["n_samples"] == 7 and report["classes"] == NAMES
        assert report["transport_classification_report"]["accuracy"] == pytest.approx(4 / 7)
    both = "prediction\n" + _lines(predicted)
    # Two named Series (issue 39: refused, needing --header): each first line appears in
    # neither file, so both are header lines, with a note.
    assert _report(tmp_path, named, both) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["n_samples"] == 7
    assert captured.err.count("\n") == 1 and captured.err.startswith(
        "note: the first lines 'species' of ") and "pass --no-header" in captured.err
    # A first line that is a label of the other file may be a class seen once: refused.
    seen = "prediction\n" + _lines(predicted[:-1] + ["species"])
    assert _report(tmp_path, named, seen) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "the first line 'species' appears nowhere else" in error
    assert "pass --header if it is a header line, --no-header if it is a label" in error
    assert _report(tmp_path, named, seen, "--header") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 7
    # The same name above both (pandas' Series(y, name="label")): header lines too.
    assert _report(tmp_path, named, "species\n" + _lines(predicted)) == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 7
    assert _report(tmp_path, named, both, "--header") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_samples"] == 7
    assert report["transport_classification_report"]["accuracy"] == pytest.approx(4 / 7)
    # --no-header: the header lines are classes seen once, as asked.
    assert _report(tmp_path, named, both, "--no-header") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 8


def test_header_options(tmp_path, capsys):
    # A first line of numbers is data unless --header says otherwise.
    assert _report(tmp_path, "1\n0\n1\n", "1\n1\n1\n", "--header") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 2
    assert _report(tmp_path, "y\n0\n1\n", "y\n1\n1\n", "--no-header") == 0
    assert json.loads(capsys.readouterr().out)["classes"] == ["0", "1", "y"]
    assert _report(tmp_path, "y\n", "y\n", "--header") == 2
    assert "a header line and no data" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        _report(tmp_path, "0\n", "0\n", "--header", "--no-header")
    assert caught.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_unnamed_columns_line_is_decided_or_refused(tmp_path, capsys):
    """``0,1,2`` is what pandas writes for unnamed columns, and a valid row of masses."""
    rows = _savetxt(THREE_CLASSES_TRUE, ",")
    assert _report(tmp_path, "0,1,2\n" + rows, rows) == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 7
    assert _report(tmp_path, "0,1,2\n" + rows, "0,1,2\n" + rows) == 2
    assert "the first line '0,1,2' may be a header line" in capsys.readouterr().err
    assert _report(tmp_path, "0,1,2\n" + rows, "0,1,2\n" + rows, "--header") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 7


def test_index_column(tmp_path, capsys):
    """pandas' index is dropped when it is one (distinct integers, in any order: a test
    split keeps the rows' original index); anything else in an unnamed first column is
    refused with the fix."""
    shuffled = ",label\n17,cat\n3,dog\n8,cat\n"
    assert _report(tmp_path, shuffled, _pandas_index(["cat", "dog", "dog"], "0")) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_samples"] == 3 and report["classes"] == ["cat", "dog"]
    for text, found in ((",label\n1,cat\n1,dog\n", "its values repeat"),
                        (",label\na,cat\nb,dog\n", "line 2 holds 'a'")):
        assert _report(tmp_path, text, "cat\ndog\n") == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and found in error
        assert "to_csv(index=False), or pass --index-column" in error
    named_index = "id,label\na,cat\nb,dog\nc,dog\n"
    assert _report(tmp_path, named_index, "cat\ndog\ncat\n") == 2
    assert "line 2 has a field that is not a number ('a')" in capsys.readouterr().err
    assert _report(tmp_path, named_index, "id,label\nx,cat\ny,dog\nz,cat\n",
                   "--index-column") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 3
    assert _report(tmp_path, "cat\ndog\ncat\n", "cat\ndog\ncat\n", "--index-column") == 2
    assert "--index-column needs at least two columns" in capsys.readouterr().err


@pytest.mark.parametrize("text, options, message", [
    ("1,0;1\n0,1;0\n", (), "every line holds several delimiters (comma, semicolon)"),
    ("a;b\nc\nc\n", (), "semicolon separates fields on line 1 but not on line 2"),
    ("1 0\n0 x\n", (), "line 2 has a field that is not a number ('x')"),
    ("0.5\n0.25\n", (), "line 1 holds '0.5', a number that is not a class label"),
])
def test_delimiter_refusals(tmp_path, capsys, text, options, message):
    (tmp_path / "t.csv").write_text(text)
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "t.csv"), *options]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: ") and message in error


def test_delimiter_options_and_quoted_labels(tmp_path, capsys):
    cities = "New York\nParis\nNew York\n"
    # Lines of words only are labels holding spaces, one per line (rows split at whitespace
    # hold numbers).
    assert _report(tmp_path, cities, "Paris\nParis\nNew York\n") == 0
    assert json.loads(capsys.readouterr().out)["classes"] == ["New York", "Paris"]
    long_names = "class with a long name 0\nclass with a long name 1\nclass with a long name 0\n"
    assert _report(tmp_path, long_names, long_names) == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 3
    assert _report(tmp_path, cities, "Paris\nParis\nNew York\n", "--delimiter", "none") == 0
    assert json.loads(capsys.readouterr().out)["classes"] == ["New York", "Paris"]
    quoted = 'name\n"a,b"\nc\n"a,b"\n'  # pandas quotes a label holding the delimiter
    assert _report(tmp_path, quoted, 'c\nc\n"a,b"\n') == 0
    assert json.loads(capsys.readouterr().out)["classes"] == ["a,b", "c"]
    semicolons = "1;0\n0;1\n"
    assert _report(tmp_path, semicolons, semicolons, "--delimiter", "semicolon") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 2
    with pytest.raises(SystemExit) as caught:
        _report(tmp_path, semicolons, semicolons, "--delimiter", "|")
    assert caught.value.code == 2 and "invalid choice: '|'" in capsys.readouterr().err


def test_large_integer_labels_stay_distinct(tmp_path, capsys):
    """Integers beyond float precision are read as integers, not through a float."""
    labels = "9007199254740993\n9007199254740992\n9007199254740993\n"
    assert _report(tmp_path, labels, labels) == 0
    assert json.loads(capsys.readouterr().out)["classes"] == ["9007199254740992",
                                                              "9007199254740993"]
    assert _report(tmp_path, "1\n" + "9" * 20 + "\n1\n", "1\n1\n1\n") == 2
    assert "beyond 64-bit integers" in capsys.readouterr().err


# --- .npy headers (a header claiming 10**12 elements gave a MemoryError) --------------------


def _npy(path, header, data=b"", version=(1, 0)):
    from numpy.lib import format as npy_format

    with path.open("wb") as file:
        writer = (npy_format.write_array_header_1_0 if version == (1, 0)
                  else npy_format.write_array_header_2_0)
        writer(file, header)
        file.write(data)
    return path


@pytest.mark.parametrize("header, data, message", [
    ({"descr": "<f8", "fortran_order": False, "shape": (10**12,)}, b"\0" * 16,
     "header describes a (1000000000000,) array of float64 (8000000000000 bytes of data) "
     "but the file holds 16 bytes"),
    ({"descr": "<i8", "fortran_order": False, "shape": (10**6, 10**6)}, b"",
     "but the file holds 0 bytes"),
    ({"descr": "<i8", "fortran_order": False, "shape": (3,)}, b"\0" * 16,
     "(24 bytes of data) but the file holds 16 bytes"),
    ({"descr": "<i8", "fortran_order": False, "shape": (2,)}, b"\0" * 24,
     "(16 bytes of data) but the file holds 24 bytes"),
    ({"descr": "<U0", "fortran_order": False, "shape": (10**12,)}, b"",
     "items are empty strings"),
    ({"descr": "|O", "fortran_order": False, "shape": (10**12,)}, b"", "Python objects"),
    ({"descr": "<f8", "fortran_order": False, "shape": (2, 2, 2)}, b"\0" * 64,
     "expected a 1-D or 2-D array of numbers or strings, got 3-D float64"),
    ({"descr": "<i8", "fortran_order": False, "shape": (0,)}, b"", "holds no samples"),
])
def test_npy_header_is_checked_before_loading(tmp_path, capsys, header, data, message):
    true = _bad(tmp_path, "true.csv", "0\n1\n")
    pred = _npy(tmp_path / "pred.npy", header, data)
    assert pred.stat().st_size < 300
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: ") and message in error


def test_npy_versions_and_orders_load(tmp_path, capsys):
    from numpy.lib import format as npy_format

    labels = np.array(THREE_CLASSES_TRUE, dtype=">i4")
    header = npy_format.header_data_from_array_1_0(labels)
    _npy(tmp_path / "t.npy", header, labels.tobytes(), version=(2, 0))
    matrix = np.asfortranarray(np.eye(3)[THREE_CLASSES_PRED])
    np.save(tmp_path / "p.npy", matrix)
    np.save(tmp_path / "p1.npy", np.array(THREE_CLASSES_PRED))
    assert main(["report", "--true", str(tmp_path / "t.npy"), "--pred",
                 str(tmp_path / "p1.npy"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["transport_classification_report"]["accuracy"] == pytest.approx(5 / 7)
    np.save(tmp_path / "t2.npy", np.eye(3)[THREE_CLASSES_TRUE])
    assert main(["report", "--true", str(tmp_path / "t2.npy"), "--pred",
                 str(tmp_path / "p.npy"), "--format", "json"]) == 0
    assert np.trace(json.loads(capsys.readouterr().out)
                    ["transport_confusion_matrix"]["uniform"]) == 5


# --- Memory budget (a CSV of 10**5 classes asked for 75 GB) ----------------------------------


def test_many_classes_are_refused_before_allocating(tmp_path):
    resource = pytest.importorskip("resource")
    np.savetxt(tmp_path / "t.csv", np.arange(10**5), fmt="%d")
    np.savetxt(tmp_path / "p.csv", np.arange(10**5)[::-1], fmt="%d")
    result = run("report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert "max_matrix_mib=1024 MiB" in result.stderr
    assert "From the command line: --max-matrix-mib N." in result.stderr
    # Linux reports KiB: every child process so far stayed below 2 GiB.
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 2 * 2**20


def test_max_matrix_mib_option(tmp_path, capsys):
    from sklearn_confusion_ext import get_config

    before = get_config()
    labels = _lines(range(600))
    assert _report(tmp_path, labels, labels, "--max-matrix-mib", "1") == 2
    error = capsys.readouterr().err
    assert "(1 matrix of 600 x 600 classes), above the package's budget of " \
           "max_matrix_mib=1 MiB" in error
    assert get_config() == before
    assert _report(tmp_path, "a\nb\na\n", "a\na\nb\n", "--max-matrix-mib", "1") == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 3
    for value in ("0", "-3", "1.5", "many"):
        with pytest.raises(SystemExit) as caught:
            _report(tmp_path, "a\n", "a\n", "--max-matrix-mib", value)
        assert caught.value.code == 2
        assert f"expected an integer >= 1, got '{value}'" in capsys.readouterr().err


@pytest.mark.parametrize("place", ["taken", "taken/inside"])
def test_unusable_plots_path_is_one_error_line(tmp_path, capsys, place):
    (tmp_path / "t.csv").write_text("a\nb\nb\na\n")
    (tmp_path / "taken").write_text("")
    status = main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                   str(tmp_path / "t.csv"), "--plots", str(tmp_path / place)])
    error = capsys.readouterr().err
    assert status == 2 and error.startswith("error: ") and len(error.splitlines()) == 1


# --- What a person reads: names, widths, rounding, one matrix, probabilities ---------------

LONG_NAMES = [f"species_{i:02d}_with_a_rather_long_name" for i in range(40)]


def _classes_files(tmp_path, n_classes, names=None, n=400, seed=0):
    rng = np.random.default_rng(seed)
    names = names or [f"class_{i}" for i in range(n_classes)]
    y = rng.integers(0, n_classes, n)
    pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, n_classes, n))
    (tmp_path / "t.txt").write_text(_lines(names[i] for i in y))
    (tmp_path / "p.txt").write_text(_lines(names[i] for i in pred))
    return tmp_path / "t.txt", tmp_path / "p.txt"


def _text_report(capsys, true, pred, *options):
    assert main(["report", "--true", str(true), "--pred", str(pred), *options]) == 0
    return capsys.readouterr().out


def _matrix_from_text(text, title, n_classes):
    """The matrix printed under ``title``, its blocks of columns put back together: row
    name -> the numbers of that row."""
    lines = text[text.index(title):].splitlines()[1:]
    rows = {}
    for line in lines:
        if line.endswith(":"):  # the next title
            break
        fields = line.split()
        if not fields or line.startswith(("(", "true \\")) or not _is_number(fields[-1]):
            continue
        # the row's name: up to its last word, else (a class named by a number) its first field
        words = max((i for i, field in enumerate(fields) if not _is_number(field)), default=0) + 1
        rows.setdefault(" ".join(fields[:words]), []).extend(map(float, fields[words:]))
    assert len(rows) == n_classes
    return rows


def _is_number(field):
    try:
        float(field)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("width", [80, 120])
def test_text_at_40_classes_wraps_columns_with_names(tmp_path, capsys, width):
    true, pred = _classes_files(tmp_path, 40, LONG_NAMES)
    text = _text_report(capsys, true, pred, "--width", str(width))
    assert "..." not in text
    assert max(map(len, text.splitlines())) <= width
    for name in LONG_NAMES:
        assert f" {name} " in text  # a row of the numbered matrix
        assert f"\n{name} " in text or f" {name}  " in text  # a row of the other tables
    assert "(columns numbered as the rows)" in text and "(columns 1-" in text
    assert main(["report", "--true", str(true), "--pred", str(pred), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = _matrix_from_text(text, "Transport confusion matrix:", 40)
    expected = report["transport_confusion_matrix"]["uniform"]
    for k, name in enumerate(report["classes"]):
        assert rows[f"{k + 1} {name}"] == expected[k]  # the row numbered as its column


def test_text_at_3_classes_fits_and_keeps_names_on_columns(tmp_path, capsys):
    true, pred = _classes_files(tmp_path, 3, ["cat", "dog", "fox"])
    text = _text_report(capsys, true, pred)
    assert max(map(len, text.splitlines())) <= 80 and "..." not in text
    header = text[text.index("Transport confusion matrix:"):].splitlines()[3]
    assert header.split() == ["true", "\\", "pred", "cat", "dog", "fox"]
    # scikit-learn's classification_report layout, support included
    scores = text[text.index("Transport classification report:"):].splitlines()
    assert scores[1].split() == ["precision", "recall", "f1-score", "support"]
    assert scores[2] == ""
    cat = scores[3].split()
    assert cat[0] == "cat" and len(cat) == 5 and cat[4].isdigit()
    accuracy = next(line for line in scores if line.strip().startswith("accuracy")).split()
    assert accuracy[-1] == "400" and len(accuracy) == 3
    assert "The three weightings (uniform, true, pred) give this same matrix: every " \
           "instance has one true and one predicted label." in " ".join(text.split())
    assert text.count("Transport confusion matrix") == 1


def test_text_width_and_narrow_terminal(tmp_path, capsys, monkeypatch):
    import os

    true, pred = _classes_files(tmp_path, 12)
    monkeypatch.setattr("shutil.get_terminal_size",
                        lambda fallback=(80, 24): os.terminal_size((50, 24)))
    text = _text_report(capsys, true, pred)
    assert max(map(len, text.splitlines())) <= 50 and "(columns 1-" in text
    text = _text_report(capsys, true, pred, "--width", "200")
    assert "(columns 1-" not in text and max(map(len, text.splitlines())) > 80
    for value in ("10", "x", "-5"):
        with pytest.raises(SystemExit) as caught:
            main(["report", "--true", str(true), "--pred", str(pred), "--width", value])
        assert caught.value.code == 2
        assert f"expected an integer >= 40, got '{value}'" in capsys.readouterr().err


def test_soft_text_rounded_and_json_full_precision(tmp_path, capsys):
    rng = np.random.default_rng(2)
    true = rng.dirichlet(np.ones(3), 30)
    pred = rng.dirichlet(np.ones(3), 30) * rng.uniform(0.5, 2, (30, 1))  # rows not 1
    np.save(tmp_path / "t.npy", true)
    np.save(tmp_path / "p.npy", pred)
    text = _text_report(capsys, tmp_path / "t.npy", tmp_path / "p.npy")
    assert main(["report", "--true", str(tmp_path / "t.npy"), "--pred",
                 str(tmp_path / "p.npy"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    from sklearn_confusion_ext import transport_confusion_matrix

    for weighting in ("uniform", "true", "pred"):  # three matrices: the rows do not sum to 1
        exact = transport_confusion_matrix(true, pred, weighting=weighting)
        assert report["transport_confusion_matrix"][weighting] == exact.tolist()  # bit for bit
        rows = _matrix_from_text(text, f"(weighting={weighting!r}):", 3)
        np.testing.assert_array_equal([rows[str(k)] for k in range(3)], exact.round(2))
    assert "transport_weightings" not in report
    cell = f"{report['transport_confusion_matrix']['uniform'][0][1]:.2f}"
    assert cell in text and len(repr(report["transport_confusion_matrix"]["uniform"][0][1])) > 6


def test_labels_against_probabilities_files(tmp_path, capsys):
    """A classifier's predict_proba against its labels: columns in the order of the sorted
    labels, or of --labels; one matrix, no "none" class, equal to one-hot input."""
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    from sklearn_confusion_ext import transport_confusion_matrix

    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])
    model = LogisticRegression(max_iter=500).fit(X, names[y])
    proba = model.predict_proba(X)
    (tmp_path / "labels.csv").write_text("species\n" + _lines(names[y]))
    np.savetxt(tmp_path / "proba.csv", proba, delimiter=",")
    args = ["report", "--true", str(tmp_path / "labels.csv"), "--pred",
            str(tmp_path / "proba.csv")]
    assert main(args + ["--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["kind"] == "labels-vs-scores" and report["classes"] == list(names)
    expected = transport_confusion_matrix(np.eye(3)[y], proba)[:3, :3]  # no empty row
    np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"], expected,
                               rtol=1e-12)
    assert list(report["transport_confusion_matrix"]) == ["uniform"]
    assert "every row of both targets sums to one" in report["transport_weightings"]
    assert "mlcm" not in report
    text = _text_report(capsys, *args[2::2])
    assert "none" not in text and text.count("Transport confusion matrix") == 1
    assert "labels-vs-scores targets, 3 classes: setosa, versicolor, virginica." in text
    # --labels in another order orders the report; the columns stay the sorted classes
    order = [2, 0, 1]
    assert main(args + ["--labels", *names[order], "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["classes"] == list(names[order])
    np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"],
                               expected[np.ix_(order, order)], rtol=1e-12)
    # The scores of reordered columns are those of the reordered matrix.
    f1 = {name: row["f1-score"] for name, row in report["transport_classification_report"].items()
          if name in names}
    np.savetxt(tmp_path / "sorted.csv", proba, delimiter=",")
    assert main(args[:4] + [str(tmp_path / "sorted.csv"), "--format", "json"]) == 0
    in_order = json.loads(capsys.readouterr().out)["transport_classification_report"]
    assert f1 == pytest.approx({name: in_order[name]["f1-score"] for name in names})
    # A header line naming the columns (DataFrame(proba, columns=classes_)) names them;
    # the report is in the API's order of the classes, the sorted labels (issue 39).
    header = ",".join(names[order])
    np.savetxt(tmp_path / "named.csv", proba[:, order], delimiter=",", header=header,
               comments="")
    assert main(args[:4] + [str(tmp_path / "named.csv"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["classes"] == list(names)
    np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"], expected,
                               rtol=1e-12)
    assert main(args + ["--kind", "soft"]) == 0
    capsys.readouterr()
    assert main(args + ["--labels", "virginica", "setosa", "--format", "json"]) == 0  # selects
    report = json.loads(capsys.readouterr().out)
    assert report["classes"] == ["virginica", "setosa"]
    np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"],
                               expected[np.ix_([2, 0], [2, 0])], rtol=1e-12)
    assert main(args + ["--labels", "setosa", "dog"]) == 2
    error = capsys.readouterr().err
    # A note says the first label line was read as a header (the other file's length
    # decided it); the error is one line.
    lines = [line for line in error.splitlines() if not line.startswith("note: ")]
    assert len(lines) == 1 and "y_pred has 3 columns" in lines[0]
    assert error.endswith("From the command line: --labels NAME [NAME ...].\n")


def _probability_files(tmp_path, n_classes, n=600, seed=0):
    """Class names and a classifier's probabilities (``.npy``): the argmax is right far
    more often than the mean probability of the true class."""
    rng = np.random.default_rng(seed)
    names = np.array([f"c{i:02d}" for i in range(n_classes)])
    y = rng.integers(0, n_classes, n)
    logits = rng.normal(size=(n, n_classes))
    logits[np.arange(n), y] += 2.5
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    (tmp_path / "true.txt").write_text(_lines(names[y]))
    np.save(tmp_path / "proba.npy", proba)
    return tmp_path / "true.txt", tmp_path / "proba.npy", names[y], proba, names


@pytest.mark.parametrize("n_classes", [3, 40])
def test_probabilities_report_says_what_its_scores_are_beside_the_argmax_report(
        tmp_path, capsys, n_classes):
    """On probabilities the scores are those of answering at random from them (accuracy:
    the mean probability of the true class); the text and the JSON say so, with the numbers,
    and add scikit-learn's classification report of the argmax decisions."""
    from sklearn.metrics import classification_report

    true, pred, y, proba, names = _probability_files(tmp_path, n_classes)
    mean = proba[np.arange(len(y)), np.searchsorted(names, y)].mean()
    decisions = names[proba.argmax(axis=1)]
    argmax_accuracy = np.mean(decisions == y)
    assert argmax_accuracy > mean + 0.1  # the two readings differ: the report must say which
    assert main(["report", "--true", str(true), "--pred", str(pred), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["transport_classification_report"]["accuracy"] == pytest.approx(mean)
    meaning = report["scores_meaning"]
    assert "drawn at random" in meaning and "mean probability of the true class" in meaning
    assert f"{mean:.3f}" in meaning and f"{argmax_accuracy:.3f}" in meaning
    expected = classification_report(y, decisions, labels=names, output_dict=True,
                                     zero_division=0.0)
    argmax = report["argmax_classification_report"]
    assert list(argmax) == list(expected)
    for name, row in expected.items():
        assert argmax[name] == pytest.approx(row), name
    text = _text_report(capsys, true, pred)
    assert max(map(len, text.splitlines())) <= 80
    assert " ".join(meaning.split()) in " ".join(text.split())
    titles = ["Transport classification report (answers drawn at random from the "
              "probabilities):",
              "Classification report of the argmax decisions (the most probable class of "
              "each instance):", "Measures:"]
    flat = " ".join(text.split())
    positions = [flat.index(title) for title in titles]
    assert positions == sorted(positions)
    argmax_part = flat[positions[1]:positions[2]]
    assert f"accuracy {expected['accuracy']:.3f} {len(y)}" in argmax_part
    assert f"accuracy {mean:.3f} {len(y)}" in flat[positions[0]:positions[1]]


def test_argmax_decisions_follow_the_columns_and_take_the_first_on_ties(tmp_path, capsys):
    """The argmax decision of a row is the class of its column (the classes in sorted
    order), the first such column on ties, as scikit-learn's predict; labels and one-hot
    decisions are decisions already, with no second report and no note."""
    (tmp_path / "true.txt").write_text("a\nb\nc\na\nb\n")
    columns = ["c", "a", "b"]  # --labels: the report's order; the columns are a, b, c
    proba = np.array([[0.8, 0.0, 0.2], [0.2, 0.4, 0.4], [0.5, 0.0, 0.5], [0.45, 0.45, 0.1],
                      [0.1, 0.9, 0.0]])
    np.save(tmp_path / "proba.npy", proba)
    args = ["report", "--true", str(tmp_path / "true.txt"), "--format", "json"]
    assert main(args + ["--pred", str(tmp_path / "proba.npy"), "--labels", *columns]) == 0
    report = json.loads(capsys.readouterr().out)
    # rows' decisions: a, b (tie b/c), a (tie a/c), a (tie a/b), b: wrong on row 2 only
    # (ties to the last column: a, c, c, b, b, right on rows 0, 2 and 4)
    argmax = report["argmax_classification_report"]
    assert argmax["accuracy"] == pytest.approx(4 / 5)
    assert argmax["c"]["support"] == 1 and argmax["c"]["recall"] == 0
    assert argmax["a"]["recall"] == 1 and argmax["a"]["precision"] == pytest.approx(2 / 3)
    assert argmax["b"]["recall"] == 1
    np.save(tmp_path / "one_hot.npy", np.eye(3)[[0, 1, 2, 0, 1]])
    (tmp_path / "labels.txt").write_text("a\nb\nc\na\nb\n")
    for path, options in ((tmp_path / "one_hot.npy", ["--labels", *columns]),
                          (tmp_path / "labels.txt", [])):
        assert main(args + ["--pred", str(path), *options]) == 0
        report = json.loads(capsys.readouterr().out)
        assert "scores_meaning" not in report and "argmax_classification_report" not in report
        assert main(args[:-2] + ["--pred", str(path), *options]) == 0
        assert "argmax" not in capsys.readouterr().out


def test_figures_carry_titles(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from sklearn_confusion_ext._cli.report import figures

    titles = {}
    for name, title, figure in figures([0, 1, 2, 1], [0, 2, 2, 1]):
        shown = [ax.get_title() for ax in figure.axes] + [
            figure._suptitle.get_text() if figure._suptitle else ""]
        assert title in shown
        titles[name] = title
        plt.close(figure)
    assert titles == {
        "transport_confusion_matrix.png": "Transport confusion matrix (weighting: uniform)",
        "mlcm.png": "MLCM (none: no true label / no predicted label)",
        "posterior_intervals.png":
            "Dirichlet posterior of P[predicted | true] (Perks prior, 1/3 per cell)"}


@pytest.mark.slow
def test_demo_plots_and_deprecated_output(tmp_path):
    pytest.importorskip("matplotlib")
    result = run("demo", "--output", str(tmp_path / "old"), "--width", "100")
    assert result.returncode == 0
    assert result.stderr.startswith("warning: demo --output is deprecated")
    assert sorted(p.name for p in (tmp_path / "old" / "digits").iterdir()) == [
        "mlcm.png", "posterior_intervals.png", "transport_confusion_matrix.png"]
    lines = result.stdout.splitlines()
    assert "..." not in result.stdout
    assert max(len(line) for line in lines if not line.startswith("Saved: ")) <= 100
    assert "2. Digits: predicted probabilities" in lines
    assert "899 samples, labels-vs-scores targets, 10 classes: 0, 1, 2, 3, 4, 5, 6, 7, 8, " \
           "9." in lines
    result = run("demo", "--plots", str(tmp_path / "new"))
    assert result.returncode == 0 and result.stderr == ""
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == [
        "digits", "digits_soft", "multilabel"]


def test_names_longer_than_half_the_width_are_cut_and_marked(tmp_path, capsys):
    names = ["a" * 70 + "_first", "b" * 70 + "_second"]
    (tmp_path / "t.txt").write_text(_lines([names[0], names[1], names[1]]))
    (tmp_path / "p.txt").write_text(_lines([names[0], names[0], names[1]]))
    text = _text_report(capsys, tmp_path / "t.txt", tmp_path / "p.txt", "--no-header")
    assert max(map(len, text.splitlines())) <= 80
    assert "\n1 " + "a" * 37 + "~" in text  # 40 characters, the cut marked
    assert "b" * 39 + "~  " in text  # the scores' row name


# --- sources that are not regular files -----------------------------------------------------


def test_report_reads_a_fifo(label_files, tmp_path):
    """A FIFO (as a shell's process substitution gives) was 'no such file'."""
    import os
    import threading

    true, pred = label_files
    fifo = tmp_path / "pred.fifo"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "w") as stream:
            stream.write(pred.read_text())

    writer = threading.Thread(target=write)
    writer.start()
    result = run("report", "--true", str(true), "--pred", str(fifo), "--format", "json")
    writer.join(timeout=60)
    assert result.returncode == 0, result.stderr
    expected = run("report", "--true", str(true), "--pred", str(pred), "--format", "json")
    assert json.loads(result.stdout) == json.loads(expected.stdout)


def test_report_reads_standard_input_as_dash(label_files):
    true, pred = label_files
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_confusion_ext", "report", "--true", str(true),
         "--pred", "-", "--format", "json"], input=pred.read_text(), capture_output=True,
        text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    expected = run("report", "--true", str(true), "--pred", str(pred), "--format", "json")
    assert json.loads(result.stdout) == json.loads(expected.stdout)
    both = run("report", "--true", "-", "--pred", "-")
    assert both.returncode == 2 and "standard input can be read once" in both.stderr


def test_report_on_a_directory_says_so(label_files, tmp_path, capsys):
    true, _ = label_files
    assert main(["report", "--true", str(true), "--pred", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a directory" in err and "no such file" not in err


def test_header_decided_by_the_other_file_is_said(tmp_path, capsys):
    """A first label seen once, dropped as a header because the other file is one line
    shorter: it was silent."""
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    true.write_text("cat\ndog\ndog\ncat\n")
    pred.write_text("fox\ncat\ndog\ncat\ncat\n")
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 0
    err = capsys.readouterr().err
    assert "read as a header line" in err and "'fox'" in err and "--no-header" in err


def test_long_first_line_is_not_echoed_whole(tmp_path, capsys):
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    true.write_text("x" * 5_000_000 + "\ncat\ndog\n")
    pred.write_text("y" * 5_000_000 + "\ncat\ndog\n")
    # Two first lines seen nowhere else in either file: header lines, said in a short note.
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 0
    err = capsys.readouterr().err
    assert "appear nowhere else in either file" in err and len(err) < 2000
    pred.write_text("y" * 5_000_000 + "\ncat\n" + "x" * 5_000_000 + "\n")
    assert main(["report", "--true", str(true), "--pred", str(pred)]) == 2
    err = capsys.readouterr().err
    assert "appears nowhere else" in err and len(err) < 2000


def test_hostile_label_names_are_escaped_in_the_text_report(tmp_path, capsys):
    """A label holding an ANSI escape or a carriage return was printed raw."""
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    hostile = "\x1b[31mred\x1b[0m"
    true.write_text(f"{hostile}\ndog\ndog\n{hostile}\nc\rat\n")
    pred.write_text(f"{hostile}\ndog\n{hostile}\n{hostile}\nc\rat\n")
    assert main(["report", "--true", str(true), "--pred", str(pred), "--no-header"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out
    assert "\\x1b[31mred\\x1b[0m" in out


def test_escaped_names_keep_the_columns_aligned(tmp_path, capsys):
    """Names were escaped after the layout: a row with '\\x1b[31m' pushed its counts three
    columns right of the others."""
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    names = ["cat", "d\x1b[31mog", "fox"]
    true.write_text("".join(f"{names[k % 3]}\n" for k in range(12)))
    pred.write_text("".join(f"{names[(k * 7) % 3 if k % 4 else (k + 1) % 3]}\n"
                            for k in range(12)))
    assert main(["report", "--true", str(true), "--pred", str(pred), "--width", "80"]) == 0
    text = capsys.readouterr().out
    assert "\x1b" not in text and "d\\x1b[31mog" in text
    block = text.split("Transport confusion matrix:")[1].split(
        "Transport classification report:")[0].splitlines()
    start = next(i for i, line in enumerate(block) if line.startswith("true \\ pred"))
    rows = block[start:start + 4]  # the column names and the three rows
    assert len({len(row) for row in rows}) == 1, rows


def test_demo_says_its_argmax_report_is_part_ones():
    """The demo's part 2 says that its argmax decisions' report is part 1's (the model's
    predict is the argmax of its predict_proba): it is, number for number."""
    from sklearn_confusion_ext._cli.demo import demo_sections
    from sklearn_confusion_ext._cli.report import build_report

    labels, probabilities, _ = demo_sections()
    assert "the report of the argmax decisions is part 1's" in " ".join(
        probabilities[2].split())
    assert build_report(*probabilities[3])["argmax_classification_report"] == \
        build_report(*labels[3])["transport_classification_report"]


def test_report_posterior_of_a_perfect_class_reaches_one():
    # 89 of 89 right at ten classes: prior 1 per cell printed 0.909 [0.845, 0.957].
    from sklearn_confusion_ext._cli.report import build_report
    from sklearn_confusion_ext._cli.text import posterior_rows

    y_true = np.repeat(np.arange(10), 89)
    y_pred = y_true.copy()
    y_pred[89::7] = (y_pred[89::7] + 1) % 10  # every class but 0 makes mistakes
    posterior = build_report(y_true, y_pred)["statistics"]["posterior"]
    assert posterior["prior"] == "perks"
    assert posterior["upper"][0][0] == 1.0 and 0.95 < posterior["lower"][0][0] < 0.97
    assert posterior["mean"][0][0] == pytest.approx(89.1 / 90)
    title, _, rows = posterior_rows(posterior, [str(k) for k in range(10)])
    assert "Perks prior, 1/10 per cell" in title
    assert rows[0] == ("0", ["0.990", "0.962", "1.000"])
