"""The fast reading of large text files (issue 39): the same arrays as the reference reading,
with pandas and without it; pandas' default files; the header rules it shares."""

import json
import sys

import numpy as np
import pytest

from sklearn_confusion_ext._cli import files, main
from sklearn_confusion_ext._cli.files import AmbiguousHeaderError, InputError, read_target


@pytest.fixture(params=["compiled", "pandas", "numpy"])
def reader(request, monkeypatch):
    """Every file of these tests takes the fast reading (no size threshold), through the
    compiled parsers (pandas hidden: where they decline, NumPy), or without them through
    pandas or, with pandas hidden, through NumPy alone."""
    monkeypatch.setattr(files, "FAST_MIN_CHARS", 0)
    if request.param == "compiled":
        if files.COMPILED is None:
            pytest.skip("the compiled parsers are not built")
    else:
        monkeypatch.setattr(files, "COMPILED", None)
    if request.param != "pandas":
        monkeypatch.setitem(sys.modules, "pandas", None)
    else:
        pytest.importorskip("pandas")
    return request.param


def _both(path, **options):
    """``read_target`` by the fast reading and by the reference reading (or the error
    each raises)."""
    results = []
    for fast in (True, False):
        try:
            if fast:
                result = read_target(path, **options)
            else:
                text = path.read_text(encoding="utf-8-sig")
                result = files._slow_text(path, text, options.get("header"),
                                          options.get("delimiter", "auto"),
                                          options.get("index_column", False))
        except InputError as exc:
            result = (type(exc), str(exc), getattr(exc, "n_lines", None))
        results.append(result)
    return results


def _same(fast, slow):
    if isinstance(slow, tuple) and isinstance(slow[0], type):
        assert fast == slow
        return
    assert fast[0].dtype == slow[0].dtype and fast[0].shape == slow[0].shape
    np.testing.assert_array_equal(fast[0], slow[0])
    assert fast[1] == slow[1]


_RNG = np.random.default_rng(0)
_PROBA = _RNG.dirichlet([1.0] * 4, size=50)
_ROWS = "".join(",".join(repr(float(x)) for x in row) + "\n" for row in _PROBA)
_LABELS = _RNG.integers(0, 3, 50)
FILES = {
    "pandas DataFrame, full precision": "0,1,2,3\n" + _ROWS,
    # (fuzz: the fast reading raised the 1e12 check before the undecided header)
    "pandas DataFrame, a value above 1e12": "0,1,2,3\n" + _ROWS + "1e13,0,0,0\n",
    "named columns": "a,b,c,d\n" + _ROWS,
    "a byte order mark and blank lines first": "\ufeff\n\na,b,c,d\n" + _ROWS,
    "no header": _ROWS,
    "4 decimals, CRLF": "".join(",".join(f"{x:.4f}" for x in row) + "\r\n" for row in _PROBA),
    "index column": ",a,b,c,d\n" + "".join(f"{i}," + line + "\n"
                                          for i, line in enumerate(_ROWS.splitlines())),
    "repeated index": ",a,b,c,d\n" + "".join("7," + line + "\n"
                                            for line in _ROWS.splitlines()),
    "savetxt spaces": "".join(" ".join(f"{x:.18e}" for x in row) + "\n" for row in _PROBA),
    "tabs": "\n".join("\t".join(f"{x:.6g}" for x in row) for row in _PROBA),
    "semicolons, blank lines": "a;b;c;d\n\n" + _ROWS.replace(",", ";") + "\n\n",
    "a nan": _ROWS.replace(_ROWS.splitlines()[30].split(",")[1], "nan", 1),
    "True (pandas reads 1.0)": _ROWS + "True,0,0,0\n",
    "a column of True and False (pandas reads 1.0 and 0.0)": "".join(
        f"{bool(i % 2)}," + ",".join(line.split(",")[1:]) + "\n"
        for i, line in enumerate(_ROWS.splitlines())),
    "a missing field": _ROWS + "0.5,0.5,0\n",
    "an extra field": _ROWS + "0.5,0.5,0,0,0\n",
    "1e13": _ROWS + "1e13,0,0,0\n",
    "quoted": _ROWS + '"0.5",0.5,0,0\n',
    "a space in a field": _ROWS + "0.5,0 .5,0,0\n",
    "integer labels": "".join(f"{y}\n" for y in _LABELS),
    "unnamed Series": "0\n" + "".join(f"{y}\n" for y in _LABELS),
    "integers beyond 64 bits": "".join(f"{y}\n" for y in _LABELS) + "9" * 20 + "\n",
    "integer labels with +, 007, 7.0": "+1\n007\n7.0\n" + "".join(f"{y}\n" for y in _LABELS),
    "a float among labels": "0.5\n" + "".join(f"{y}\n" for y in _LABELS),
    "string labels": "".join(f"class_{y}\n" for y in _LABELS),
    "named string labels": "label\n" + "".join(f"class_{y}\n" for y in _LABELS),
    "pandas index, string labels": ",0\n" + "".join(f"{i},class_{y}\n"
                                                   for i, y in enumerate(_LABELS)),
    "pandas index, integer labels": ",0\n" + "".join(f"{i},{y}\n"
                                                    for i, y in enumerate(_LABELS)),
    "labels with a comma later": "".join(f"class_{y}\n" for y in _LABELS) + "a,b\n",
    "a label seen once above": "bird\n" + "".join(f"class_{y}\n" for y in _LABELS),
    "a form feed line break": "".join(f"{y}\n" for y in _LABELS) + "1\x0c2\n",
    "unicode labels": "".join(f"caf\u00e9_{y}\n" for y in _LABELS),
    # issue 39, the C paths without pandas (integers, labels of a known width)
    "integer labels, CRLF, no last line break": "\r\n".join(str(y) for y in _LABELS),
    "integer labels, blank lines": "\n\n" + "\n\n".join(str(y) for y in _LABELS) + "\n\n",
    "integer labels, a lone sign": "".join(f"{y}\n" for y in _LABELS) + "+\n",
    "integer labels, 1-2": "".join(f"{y}\n" for y in _LABELS) + "1-2\n",
    "integer labels, int64's bounds": "".join(f"{y}\n" for y in _LABELS)
    + "9223372036854775807\n-9223372036854775808\n",
    "integer labels, beyond int64's bounds": "".join(f"{y}\n" for y in _LABELS)
    + "9223372036854775808\n",
    "string labels of different widths": "".join(f"{'x' * (y + 1)}_{y}\n" for y in _LABELS),
    "string labels, CRLF": "".join(f"class_{y}\r\n" for y in _LABELS),
    "pandas index, labels of different widths": ",0\n" + "".join(
        f"{i * 1000},c{'x' * y}\n" for i, y in enumerate(_LABELS)),
    "a trailing delimiter": "".join(line + ",\n" for line in _ROWS.splitlines()),
    "an inf": _ROWS + "inf,0,0,0\n",
    "huge numbers": _ROWS + "1e300,0,0,0\n",
    "exponents": "".join(",".join(f"{x:.3E}" for x in row) + "\n" for row in _PROBA),
}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("header", [None, True, False], ids=["detect", "header", "no-header"])
def test_fast_reading_gives_the_reference_arrays(tmp_path, reader, name, header):
    path = tmp_path / "f.csv"
    path.write_text(FILES[name], encoding="utf-8")
    fast, slow = _both(path, header=header)
    _same(fast, slow)


def test_fast_reading_keeps_every_float(tmp_path, reader):
    """17 significant digits, subnormals, exponents: each number is the one float() reads
    (pandas' default conversion before pandas 3 was not correctly rounded)."""
    rng = np.random.default_rng(1)
    values = np.concatenate([rng.random(2996), rng.random(1000) * 10.0 ** rng.integers(
        -300, 11, 1000), [5e-324, 2.2250738585072014e-308, 0.1, 1 / 3]])
    text = "".join(f"{float(a)!r},{float(b)!r}\n" for a, b in values.reshape(-1, 2))
    path = tmp_path / "f.csv"
    path.write_text(text)
    fast, slow = _both(path)
    _same(fast, slow)
    np.testing.assert_array_equal(fast[0], values.reshape(-1, 2))


def test_undecided_header_is_read_once(tmp_path, reader, monkeypatch):
    """pandas' ``0,1,...,k-1`` above a matrix: the error carries both readings, so that the
    other file's length decides without parsing the file again."""
    path = tmp_path / "f.csv"
    path.write_text(FILES["pandas DataFrame, full precision"])
    with pytest.raises(AmbiguousHeaderError) as caught:
        read_target(path)
    assert caught.value.n_lines == 51 and set(caught.value.readings) == {True, False}
    np.testing.assert_array_equal(caught.value.readings[True][0], _PROBA)
    calls, parse = [], files.parse_numbers
    monkeypatch.setattr(files, "parse_numbers",
                        lambda body, *args: calls.append(args) or parse(body, *args))
    labels = tmp_path / "y.csv"
    labels.write_text("".join(f"{y}\n" for y in _LABELS))
    y_true, y_pred, names, _ = files.load_targets(labels, path)
    assert calls == [(",", np.int64), (",",)]  # the labels, and the matrix once
    np.testing.assert_array_equal(y_pred, _PROBA)
    assert names == ["0", "1", "2", "3"]


def _pandas_pair(tmp_path, true_series, pred):
    true_series.to_csv(tmp_path / "t.csv", index=False)
    if hasattr(pred, "columns"):
        pred.to_csv(tmp_path / "p.csv", index=False)
    else:
        pred.to_csv(tmp_path / "p.csv", index=False)
    return ["report", "--true", str(tmp_path / "t.csv"), "--pred", str(tmp_path / "p.csv"),
            "--format", "json"]


def test_pandas_default_files_need_no_header_option(tmp_path, capsys):
    """Issue 39: Series.to_csv(index=False) files needed --header (two named Series were
    refused), and an unnamed Series' header line 0 beside DataFrame(proba) gave one sample
    too many (the 0 read as a label, 0,1,2 as a row of scores)."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    names = np.array(["cat", "dog", "fox"])
    y, y_hat = names[rng.integers(0, 3, 60)], names[rng.integers(0, 3, 60)]
    args = _pandas_pair(tmp_path, pd.Series(y, name="y_true"), pd.Series(y_hat, name="y_pred"))
    assert main(args) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["n_samples"] == 60
    assert captured.err.startswith("note: the first lines 'y_true' of ")
    labels = rng.integers(0, 3, 60)
    proba = rng.dirichlet([1.0] * 3, size=60)
    args = _pandas_pair(tmp_path, pd.Series(labels), pd.DataFrame(proba))
    assert main(args) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["n_samples"] == 60
    assert captured.err.count("\n") == 1 and "names pandas gives an unnamed Series and " \
        "unnamed columns: read as header lines" in captured.err
    from sklearn_confusion_ext import transport_confusion_matrix

    np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"],
                               transport_confusion_matrix(labels, proba), rtol=1e-12)


def test_unnamed_series_beside_one_sample_less(tmp_path, capsys):
    """A number is data: ``0`` above integer labels is a label where both files keep as
    many samples so (documented: undetectable), and the header pandas writes where the
    other file holds one sample less."""
    (tmp_path / "t.csv").write_text("0\n1\n2\n1\n")
    (tmp_path / "p.csv").write_text("0\n1\n2\n2\n")
    args = ["report", "--true", str(tmp_path / "t.csv"), "--pred", str(tmp_path / "p.csv"),
            "--format", "json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["n_samples"] == 4
    (tmp_path / "p.csv").write_text("1\n2\n2\n")
    assert main(args) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["n_samples"] == 3
    assert captured.err.count("\n") == 1 and "pass --no-header if it is a label" in captured.err
    assert main(args + ["--no-header"]) == 2
    assert "same number of samples" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["integer labels", "integer labels, CRLF, no last line break",
                                  "string labels", "string labels of different widths",
                                  "pandas index, labels of different widths"])
def test_labels_take_the_fast_reading(tmp_path, reader, monkeypatch, name):
    """These files are read by the fast reading alone (the reference reading is not called),
    with pandas and without it (numpy.fromstring for integers; the labels' width found in
    C), giving the reference arrays, dtype included."""
    path = tmp_path / "f.csv"
    path.write_text(FILES[name], encoding="utf-8")
    slow = files._slow_text(path, FILES[name], None, "auto", False)

    def refused(*args):
        raise AssertionError("the reference reading was called")
    monkeypatch.setattr(files, "_slow_text", refused)
    _same(read_target(path), slow)
