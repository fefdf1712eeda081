"""The report of probabilities: its calibration section (the top label's reliability summary,
the ECE with its interval under --confidence, the Brier score's parts) and ``--cost-matrix
FILE`` (the expected cost of the decisions), in the text, the JSON and the HTML page."""

import json

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._cli import main
from sklearn_confusion_ext._cli.report import CALIBRATION_BINS


def _probabilities(tmp_path, n_classes, n=600, seed=0, decimals=6):
    """Class names and overconfident probabilities (a softmax sharpened), written as CSV with
    ``decimals`` decimals (rows then sum to 1 within 1e-6 only, as a user's file does)."""
    rng = np.random.default_rng(seed)
    names = np.array([f"c{i:02d}" for i in range(n_classes)])
    logits = rng.normal(size=(n, n_classes)) * 1.5
    honest = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    y = names[(honest.cumsum(axis=1) < rng.random((n, 1))).sum(axis=1)]
    proba = honest ** 1.5 / (honest ** 1.5).sum(axis=1, keepdims=True)
    (tmp_path / "true.txt").write_text("".join(f"{name}\n" for name in y))
    np.savetxt(tmp_path / "proba.csv", proba, delimiter=",", fmt=f"%.{decimals}f")
    proba = np.loadtxt(tmp_path / "proba.csv", delimiter=",")  # as the report reads it
    return tmp_path / "true.txt", tmp_path / "proba.csv", y, proba, names


def _run(capsys, true, pred, *options):
    status = main(["report", "--true", str(true), "--pred", str(pred), *options])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _json(capsys, true, pred, *options):
    status, out, _ = _run(capsys, true, pred, "--format", "json", *options)
    assert status == 0
    return json.loads(out)


def _quiet(function, *args, **kwargs):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# --- Calibration -----------------------------------------------------------------------------


def test_calibration_section_is_the_librarys(tmp_path, capsys):
    """The JSON's calibration is reliability_curve (top label, 10 bins, the band at the
    --confidence level), expected_calibration_error in the same bins with the interval of
    score_confidence_interval under --confidence, --seed and --resamples (its own method,
    the norm bound, whatever --interval-method), the classwise ECE and
    brier_score_decomposition."""
    true, pred, y, proba, names = _probabilities(tmp_path, 3)
    options = ("--confidence", "0.9", "--seed", "3", "--resamples", "99",
               "--interval-method", "basic")
    calibration = _json(capsys, true, pred, *options)["calibration"]
    curve = _quiet(sce.reliability_curve, y, proba, n_bins=CALIBRATION_BINS, target="top_label",
                   labels=names, confidence_level=0.9)
    reliability = calibration["reliability"]
    np.testing.assert_allclose(reliability["prob_pred"], curve.prob_pred, rtol=1e-12)
    np.testing.assert_allclose(reliability["prob_true"], curve.prob_true, rtol=1e-12)
    np.testing.assert_allclose(reliability["low"], curve.low, rtol=1e-12)
    np.testing.assert_allclose(reliability["high"], curve.high, rtol=1e-12)
    assert reliability["bin_count"] == curve.bin_count.tolist()
    np.testing.assert_allclose(reliability["bin_low"], curve.bin_index / CALIBRATION_BINS,
                               atol=1e-12)
    assert calibration["band_level"] == 0.9 and calibration["n_bins"] == CALIBRATION_BINS
    interval = _quiet(sce.score_confidence_interval, y, proba,
                      scoring=sce.expected_calibration_error, confidence_level=0.9,
                      n_resamples=99, random_state=3, n_bins=CALIBRATION_BINS, labels=names)
    ece = calibration["expected_calibration_error"]
    assert ece["method"] == interval.method == "norm_bound"
    assert ece["estimate"] == pytest.approx(interval.estimate, rel=1e-12)
    assert (ece["low"], ece["high"]) == pytest.approx((interval.low, interval.high), rel=1e-12)
    assert ece["low"] < ece["estimate"] < ece["high"]
    assert calibration["classwise_expected_calibration_error"] == pytest.approx(_quiet(
        sce.expected_calibration_error, y, proba, n_bins=CALIBRATION_BINS,
        target="classwise", labels=names), rel=1e-12)
    parts = _quiet(sce.brier_score_decomposition, y, proba, n_bins=CALIBRATION_BINS,
                   labels=names)
    for name, value in calibration["brier_score_decomposition"].items():
        assert value == pytest.approx(getattr(parts, name), rel=1e-12), name
    # Without --confidence: the estimate alone, the band at 95 %.
    calibration = _json(capsys, true, pred)["calibration"]
    assert set(calibration["expected_calibration_error"]) == {"norm", "estimate"}
    assert calibration["band_level"] == 0.95


def test_calibration_follows_the_columns_named_by_labels(tmp_path, capsys):
    """The columns are the classes in sorted order; --labels in another order orders the
    report, not the columns: the calibration is that of the columns' classes (reordered
    columns read as sorted ones give another ECE)."""
    true, pred, y, proba, names = _probabilities(tmp_path, 3, n=300, seed=1)
    order = [2, 0, 1]
    np.savetxt(tmp_path / "reordered.csv", proba[:, order], delimiter=",", fmt="%.6f")
    expected = _json(capsys, true, pred)["calibration"]
    got = _json(capsys, true, pred, "--labels", *names[order])["calibration"]
    assert got["expected_calibration_error"]["estimate"] == pytest.approx(
        expected["expected_calibration_error"]["estimate"], abs=1e-6)
    assert got["brier_score_decomposition"]["brier"] == pytest.approx(
        expected["brier_score_decomposition"]["brier"], abs=1e-6)
    wrong = _json(capsys, true, tmp_path / "reordered.csv")["calibration"]
    assert wrong["brier_score_decomposition"]["brier"] > \
        expected["brier_score_decomposition"]["brier"] + 0.1


@pytest.mark.parametrize("n_classes, width", [(3, 80), (3, 100), (40, 80), (40, 100)])
def test_calibration_text_fits_and_stays_compact(tmp_path, capsys, n_classes, width):
    """The text's calibration section: the reliability table has one row per non-empty bin
    whatever the number of classes, every line fits the width, the ECE reads
    ``estimate [low, high]`` under --confidence, and the y_pred rows' rounding is warned
    once (the calibration functions' own warning of it is not repeated)."""
    true, pred, *_ = _probabilities(tmp_path, n_classes, n=800)
    status, text, err = _run(capsys, true, pred, "--width", str(width), "--confidence", "0.95",
                             "--resamples", "49")
    assert status == 0
    assert max(map(len, text.splitlines())) <= width
    assert "y_prob's rows" not in err and err.count("rows do not sum to 1") <= 1
    flat = " ".join(text.split())
    titles = ["Classification report of the argmax decisions", "Calibration of the top label:",
              "Calibration errors in these bins (lower is better):", "Brier score and its parts",
              "Measures:"]
    positions = [flat.index(title) for title in titles]
    assert positions == sorted(positions)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("bin "))
    bins = lines[start + 1:lines.index("", start)]
    assert 1 <= len(bins) <= CALIBRATION_BINS
    assert all(line.split()[0].count("-") == 1 for line in bins)  # named by its edges
    ece = next(line for line in lines if line.startswith("ECE, top label (L1)"))
    assert ece.split()[-3].startswith("0.") and ece.endswith("]") and "[" in ece
    errors = flat[positions[2]:positions[3]]
    assert "Interval: 95% norm bound (the bootstrap of the bins' gaps: 49 resamples" in errors
    assert "bootstrap percentile" not in errors
    brier = flat[positions[3]:positions[4]]
    assert "summed over the classes" in brier
    for part in ("reliability", "resolution", "uncertainty", "within-bin variance"):
        assert f" {part} 0." in brier or f" {part} 1." in brier, part


def test_calibration_text_of_a_binary_model_and_without_confidence(tmp_path, capsys):
    true, pred, *_ = _probabilities(tmp_path, 2, n=300)
    status, text, _ = _run(capsys, true, pred)
    assert status == 0
    ece = next(line for line in text.splitlines() if line.startswith("ECE, top label"))
    assert "[" not in ece
    assert "bins of the probability of c01" in " ".join(text.split())


def test_labels_and_multilabel_targets_have_no_calibration(tmp_path, capsys):
    (tmp_path / "t.txt").write_text("a\nb\nc\na\nb\n")
    (tmp_path / "p.txt").write_text("a\nc\nc\na\nb\n")
    report = _json(capsys, tmp_path / "t.txt", tmp_path / "p.txt")
    assert "calibration" not in report and "cost" not in report
    np.save(tmp_path / "t.npy", np.array([[1, 0], [0, 1], [1, 1]]))
    np.save(tmp_path / "p.npy", np.array([[0.9, 0.2], [0.3, 0.6], [0.5, 0.5]]))
    assert "calibration" not in _json(capsys, tmp_path / "t.npy", tmp_path / "p.npy")


def test_html_page_has_the_calibration_and_the_cost(tmp_path, capsys):
    from html.parser import HTMLParser

    true, pred, *_ = _probabilities(tmp_path, 3, n=200)
    (tmp_path / "cost.csv").write_text("0,1,1\n1,0,1\n4,4,0\n")
    page_path = tmp_path / "r.html"
    status, _, _ = _run(capsys, true, pred, "--cost-matrix", str(tmp_path / "cost.csv"),
                        "--confidence", "0.9", "--resamples", "29", "--html", str(page_path))
    assert status == 0
    page = page_path.read_text()
    HTMLParser().feed(page)
    assert page.index("<h3>Calibration</h3>") < page.index("<h3>Expected cost</h3>") < \
        page.index("<h3>Measures</h3>")
    assert "90% band" in page and "ECE, top label (L1)" in page and "Bayes decisions" in page
    assert "Intervals: 90% bootstrap percentile intervals (29 resamples" in page


# --- --cost-matrix ---------------------------------------------------------------------------


def _labels(tmp_path):
    rng = np.random.default_rng(4)
    names = np.array(["cat", "dog", "fox"])
    y = names[rng.integers(0, 3, 200)]
    pred = np.where(rng.random(200) < 0.7, y, names[rng.integers(0, 3, 200)])
    (tmp_path / "t.txt").write_text("".join(f"{name}\n" for name in y))
    (tmp_path / "p.txt").write_text("".join(f"{name}\n" for name in pred))
    return tmp_path / "t.txt", tmp_path / "p.txt", y, pred, names


COST = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [10.0, 1.0, -0.5]])  # a benefit too


@pytest.mark.parametrize("name, content", [
    ("plain.csv", "0,1,2\n1,0,3\n10,1,-0.5\n"),
    ("spaced.txt", "0 1 2\n1 0 3\n10 1 -0.5\n"),
    # a header line in another order: it names the rows too
    ("header.csv", "fox,cat,dog\n-0.5,10,1\n2,0,1\n3,1,0\n"),
    # pandas' DataFrame(cost, index=..., columns=...).to_csv(), rows and columns apart
    ("pandas.csv", ",dog,cat,fox\ncat,1,0,2\nfox,1,10,-0.5\ndog,0,1,3\n"),
    ("rows.tsv", "dog\t1\t0\t3\ncat\t0\t1\t2\nfox\t10\t1\t-0.5\n"),
    ("list.json", "[[0, 1, 2], [1, 0, 3], [10, 1, -0.5]]"),
    ("named.json", '{"labels": ["dog", "fox", "cat"], '
                   '"cost_matrix": [[0, 3, 1], [1, -0.5, 10], [1, 2, 0]]}'),
])
def test_cost_matrix_files_on_labels(tmp_path, capsys, name, content):
    """Every layout of the file gives the same matrix, in the report's order (the sorted
    classes), and the cost of expected_cost; negative costs are benefits."""
    true, pred, y, predicted, names = _labels(tmp_path)
    (tmp_path / name).write_text(content)
    cost = _json(capsys, true, pred, "--cost-matrix", str(tmp_path / name))["cost"]
    assert cost["classes"] == names.tolist() and cost["cost_matrix"] == COST.tolist()
    assert list(cost["decisions"]) == ["predictions"]
    assert cost["decisions"]["predictions"] == {"estimate": pytest.approx(
        sce.expected_cost(y, predicted, cost_matrix=COST, labels=names), rel=1e-12)}


def test_cost_matrix_npy_and_the_interval_of_labels(tmp_path, capsys):
    true, pred, y, predicted, names = _labels(tmp_path)
    np.save(tmp_path / "cost.npy", COST)
    cost = _json(capsys, true, pred, "--cost-matrix", str(tmp_path / "cost.npy"),
                 "--confidence", "0.9", "--seed", "5", "--resamples", "199")["cost"]
    expected = sce.score_confidence_interval(
        y, predicted, scoring=sce.expected_cost, cost_matrix=COST, labels=names,
        method="percentile", confidence_level=0.9, n_resamples=199, random_state=5)
    value = cost["decisions"]["predictions"]
    assert (value["estimate"], value["low"], value["high"]) == pytest.approx(
        (expected.estimate, expected.low, expected.high), rel=1e-12)
    status, text, _ = _run(capsys, true, pred, "--cost-matrix", str(tmp_path / "cost.npy"),
                           "--confidence", "0.9", "--seed", "5", "--resamples", "199")
    line = next(line for line in text.splitlines() if line.startswith("predictions"))
    assert line.split()[1:] == [f"{expected.estimate:.3f}", f"[{expected.low:.3f},",
                                f"{expected.high:.3f}]"]
    matrix = text[text.index("Cost matrix, as read"):].splitlines()
    assert matrix[1].split() == ["true", "\\", "decided", "cat", "dog", "fox"]
    assert matrix[4].split() == ["fox", "10.00", "1.00", "-0.50"]


def test_cost_matrix_on_probabilities_costs_the_argmax_and_the_bayes_decisions(
        tmp_path, capsys):
    """Probabilities: the cost of the argmax decisions and of the Bayes decisions
    (expected_cost of the probabilities), the cost matrix in the order of --labels (the
    columns: the classes in sorted order);
    the Bayes decisions' interval is that of their labels, resampled."""
    true, pred, y, proba, names = _probabilities(tmp_path, 3, n=400)
    cost = np.array([[0, 1, 1], [1, 0, 1], [6, 6, 0]], dtype=float)
    order = [1, 2, 0]
    np.savetxt(tmp_path / "reordered.csv", proba, delimiter=",", fmt="%.6f")  # sorted
    np.savetxt(tmp_path / "cost.csv", cost[np.ix_(order, order)], delimiter=",")
    report = _json(capsys, true, tmp_path / "reordered.csv", "--labels", *names[order],
                   "--cost-matrix", str(tmp_path / "cost.csv"), "--confidence", "0.95",
                   "--resamples", "99")
    decisions = report["cost"]["decisions"]
    assert list(decisions) == ["argmax", "bayes"]
    argmax = names[proba.argmax(axis=1)]
    assert decisions["argmax"]["estimate"] == pytest.approx(
        sce.expected_cost(y, argmax, cost_matrix=cost, labels=names), rel=1e-12)
    bayes = _quiet(sce.expected_cost, y, proba, cost_matrix=cost, labels=names)
    assert decisions["bayes"]["estimate"] == pytest.approx(bayes, rel=1e-12)
    bayes_labels = _quiet(sce.cost_optimal_predictions, proba, cost, labels=names)
    interval = sce.score_confidence_interval(
        y, bayes_labels, scoring=sce.expected_cost, cost_matrix=cost, labels=names,
        method="percentile", n_resamples=99, random_state=0)
    assert (decisions["bayes"]["low"], decisions["bayes"]["high"]) == pytest.approx(
        (interval.low, interval.high), rel=1e-12)
    # The dear misses of class 2 move decisions to it: fewer of them than argmax's.
    assert decisions["bayes"]["estimate"] < decisions["argmax"]["estimate"]


def test_cost_matrix_at_40_classes_fits(tmp_path, capsys):
    true, pred, *_ = _probabilities(tmp_path, 40, n=800)
    cost = 1.0 - np.eye(40)
    np.savetxt(tmp_path / "cost.csv", cost, delimiter=",", fmt="%g")
    status, text, _ = _run(capsys, true, pred, "--cost-matrix", str(tmp_path / "cost.csv"),
                           "--width", "100")
    assert status == 0 and max(map(len, text.splitlines())) <= 100
    assert "Bayes decisions" in text and "Cost matrix, as read" not in text  # 40 x 40: not shown
    report = _json(capsys, true, pred, "--cost-matrix", str(tmp_path / "cost.csv"))
    decisions = report["cost"]["decisions"]  # 0-1 costs: the Bayes decision is the argmax
    assert decisions["bayes"]["estimate"] == pytest.approx(decisions["argmax"]["estimate"])
    accuracy = report["argmax_classification_report"]["accuracy"]
    assert decisions["argmax"]["estimate"] == pytest.approx(1 - accuracy)


@pytest.mark.parametrize("name, content, message", [
    ("small.csv", "0,1\n1,0\n", "holds a 2 x 2 matrix; expected a square 3 x 3 matrix"),
    ("wide.csv", "0,1,2,3\n1,0,1,1\n1,1,0,1\n", "holds a 3 x 4 matrix"),
    ("ragged.csv", "0,1,2\n1,0\n1,1,0\n", "rows have different numbers of costs: line 1 has 3, "
                                          "line 2 has 2"),
    ("text.csv", "0,1,x\n1,0,1\n1,1,0\n", "line 1 has a field that is not a number ('x')"),
    ("inner.csv", "0,1,2\n1,zero,1\n1,1,0\n", "line 2 has a field that is not a number"),
    ("nan.csv", "0,1,nan\n1,0,1\n1,1,0\n", "contains NaN or infinite values"),
    ("names.csv", "cat,dog,cow\n0,1,2\n1,0,1\n1,1,0\n",
     "the names of its columns must be the report's 3 classes ['cat', 'dog', 'fox'], each "
     "once; not the report's classes: ['cow']; missing: ['fox']"),
    ("twice.csv", ",cat,dog,fox\ncat,0,1,2\ncat,1,0,1\nfox,1,1,0\n", "named twice: ['cat']"),
    ("empty.csv", "\n\n", "the file is empty"),
    ("header.csv", "cat,dog,fox\n", "a header line and no costs"),
    ("bad.json", "[[0, 1, 2], [1, 0", "not a JSON file"),
    ("keys.json", '{"cost": [[0]]}', "a JSON object must hold \"cost_matrix\""),
    ("bool.json", "[[0, 1, 2], [1, 0, true], [1, 1, 0]]", "row 1, column 2 holds True"),
    ("flat.json", "[0, 1, 2]", "expected an array of rows of costs"),
    ("inf.json", "[[0, 1, 2], [1, 0, Infinity], [1, 1, 0]]", "contains NaN or infinite"),
])
def test_malformed_cost_matrix_is_one_error_line_naming_the_option(tmp_path, capsys, name,
                                                                   content, message):
    true, pred, *_ = _labels(tmp_path)
    (tmp_path / name).write_text(content)
    status, out, err = _run(capsys, true, pred, "--cost-matrix", str(tmp_path / name))
    assert status == 2 and out == ""
    assert err.startswith(f"error: --cost-matrix {tmp_path / name}: ")
    assert len(err.splitlines()) == 1 and message in err


def test_cost_matrix_missing_file_npy_of_text_and_multilabel_targets(tmp_path, capsys):
    true, pred, *_ = _labels(tmp_path)
    status, _, err = _run(capsys, true, pred, "--cost-matrix", str(tmp_path / "none.csv"))
    assert status == 2 and err == f"error: --cost-matrix {tmp_path / 'none.csv'}: no such file\n"
    np.save(tmp_path / "names.npy", np.array([["a", "b"], ["c", "d"]]))
    status, _, err = _run(capsys, true, pred, "--cost-matrix", str(tmp_path / "names.npy"))
    assert status == 2 and "expected a square array of numbers" in err
    np.save(tmp_path / "t.npy", np.array([[1, 0], [0, 1], [1, 1]]))
    np.save(tmp_path / "p.npy", np.array([[1, 0], [1, 1], [1, 1]]))
    (tmp_path / "cost.csv").write_text("0,1\n1,0\n")
    status, _, err = _run(capsys, tmp_path / "t.npy", tmp_path / "p.npy", "--cost-matrix",
                          str(tmp_path / "cost.csv"))
    assert status == 2 and err.startswith("error: --cost-matrix needs one true class per "
                                          "instance")


def test_help_documents_the_cost_matrix(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--cost-matrix FILE" in help_text
    assert "rows true classes, columns decisions" in help_text
    assert "Bayes decisions" in help_text
