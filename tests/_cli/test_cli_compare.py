"""The compare command, and the report's defects of issue 39 part 6: rounded probability
exports, matrices alike at the printed precision, the API's class order, progress."""

import json

import numpy as np
import pytest

from sklearn_confusion_ext import compare_scores, transport_confusion_matrix
from sklearn_confusion_ext._cli import main


def _models(tmp_path, n_classes=3, n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    a = np.where(rng.random(n) < 0.8, y, rng.integers(0, n_classes, n))
    b = np.where(rng.random(n) < 0.7, y, rng.integers(0, n_classes, n))
    paths = [tmp_path / name for name in ("t.csv", "a.csv", "b.csv")]
    for path, values in zip(paths, (y, a, b)):
        np.savetxt(path, values, fmt="%d")
    return (y, a, b), [str(path) for path in paths]


@pytest.mark.parametrize("method", ["mcnemar", "bootstrap"])
def test_compare_gives_the_api_result(tmp_path, capsys, method):
    (y, a, b), paths = _models(tmp_path)
    options = ["--method", method, "--n-resamples", "300", "--format", "json"]
    assert main(["compare", *paths, *options]) == 0
    comparison = json.loads(capsys.readouterr().out)
    expected = compare_scores(y, a, b, method=method, n_resamples=300, random_state=0) \
        if method != "mcnemar" else compare_scores(y, a, b, method=method)
    for name in ("estimate", "low", "high", "pvalue"):
        assert comparison[name] == pytest.approx(getattr(expected, name), rel=1e-12)
    assert comparison["score"] == expected.score
    if method == "mcnemar":
        assert comparison["accuracy_a"] == pytest.approx(np.mean(a == y))
        assert comparison["accuracy_b"] == pytest.approx(np.mean(b == y))
        assert np.sum(comparison["mcnemar_table"]) == len(y)


def test_compare_text_with_groups_scoring_and_margin(tmp_path, capsys):
    (y, a, b), paths = _models(tmp_path, n_classes=40, n=800)
    groups = tmp_path / "g.csv"
    np.savetxt(groups, np.arange(len(y)) // 4, fmt="%d")
    assert main(["compare", *paths, "--groups", str(groups), "--scoring", "tcm_accuracy",
                 "--n-resamples", "200", "--width", "80"]) == 0
    text = capsys.readouterr().out
    assert "200 groups resampled as units" in text and "difference a - b" in text
    assert max(map(len, text.splitlines())) <= 80
    expected = compare_scores(y, a, b, scoring="tcm_accuracy", n_resamples=200,
                              random_state=0, groups=np.arange(len(y)) // 4)
    assert f"{expected.estimate:.3f}" in text
    assert main(["compare", *paths, "--method", "mcnemar-score", "--margin", "0.02"]) == 0
    assert "Verdict (non-inferiority, margin 0.02): non-inferior" in capsys.readouterr().out


@pytest.mark.parametrize("options, message", [
    (["--method", "mcnemar", "--groups", "GROUPS"], "takes no groups"),
    (["--scoring", "no_such_score"], "From the command line: --scoring NAME."),
    (["--groups", "SHORT"], "holds 3 group ids for 300 samples"),
])
def test_compare_errors_are_one_line(tmp_path, capsys, options, message):
    _, paths = _models(tmp_path)
    (tmp_path / "g.csv").write_text("".join(f"{i % 7}\n" for i in range(300)))
    (tmp_path / "short.csv").write_text("1\n2\n3\n")
    options = [{"GROUPS": str(tmp_path / "g.csv"), "SHORT": str(tmp_path / "short.csv")}.get(
        option, option) for option in options]
    assert main(["compare", *paths, *options]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: ") and message in error


def test_rounded_probabilities_give_one_note_and_one_matrix(tmp_path, capsys):
    """Issue 39: a probability CSV rounded to 4 decimals gave the library's warning and three
    weighting matrices differing in their last printed digit."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 3000)
    proba = rng.dirichlet([1.0] * 3, size=3000)
    np.savetxt(tmp_path / "t.csv", y, fmt="%d")
    np.savetxt(tmp_path / "p.csv", proba, fmt="%.4f", delimiter=",")
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv")]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("note: ") and "4 decimals" in lines[0]
    assert captured.out.count("Transport confusion matrix") == 1
    assert "The three weightings (uniform, true, pred) give this same matrix" in captured.out


def test_matrices_alike_at_the_printed_precision_are_one(monkeypatch):
    """Weightings that differ below the printed two decimals print one matrix."""
    from sklearn_confusion_ext._cli import report

    calls = iter([np.array([[1.001, 2.0], [3.0, 4.0]]), np.array([[1.002, 2.0], [3.0, 4.0]]),
                  np.array([[1.0011, 2.0], [3.0, 4.0]])])
    import sklearn_confusion_ext

    monkeypatch.setattr(sklearn_confusion_ext, "transport_confusion_matrix",
                        lambda *args, **kwargs: next(calls, np.array([[1.001, 2.0],
                                                                      [3.0, 4.0]])))
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 20)
    built = report.build_report(y, rng.dirichlet([1.0, 1.0], size=20))
    assert list(built["transport_confusion_matrix"]) == ["uniform"]


def test_header_named_columns_follow_the_api_class_order(tmp_path, capsys):
    """Issue 39: the report kept the file's column order where the API sorts the classes."""
    rng = np.random.default_rng(0)
    names = np.array(["cat", "dog", "fox"])
    y = names[rng.integers(0, 3, 90)]
    proba = rng.dirichlet([1.0] * 3, size=90)
    order = [2, 0, 1]  # the file's columns: fox, cat, dog
    (tmp_path / "t.csv").write_text("".join(f"{label}\n" for label in y))
    np.savetxt(tmp_path / "p.csv", proba[:, order], delimiter=",",
               header=",".join(names[order]), comments="")
    assert main(["report", "--true", str(tmp_path / "t.csv"), "--pred",
                 str(tmp_path / "p.csv"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["classes"] == ["cat", "dog", "fox"]
    pd = pytest.importorskip("pandas")
    expected = transport_confusion_matrix(y, pd.DataFrame(proba[:, order],
                                                          columns=names[order]))
    np.testing.assert_allclose(report["transport_confusion_matrix"]["uniform"], expected,
                               rtol=1e-12)


def test_progress_only_with_verbose(tmp_path, capsys):
    _, paths = _models(tmp_path)
    args = ["report", "--true", paths[0], "--pred", paths[1]]
    assert main(args) == 0
    assert "progress:" not in capsys.readouterr().err
    assert main(args + ["--verbose"]) == 0
    err = capsys.readouterr().err
    assert "progress: reading " in err and "progress: the report" in err
    assert main(["compare", *paths, "--n-resamples", "50", "--verbose"]) == 0
    err = capsys.readouterr().err
    assert "progress: reading " in err and "progress: the comparison (bootstrap)" in err
