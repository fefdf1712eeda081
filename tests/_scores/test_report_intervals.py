"""Bootstrap intervals of the classification reports (``confidence_level=``): one pass of
999 resamples whose per-class and averaged scores are those of score_confidence_interval
with the same seed, the default output unchanged, the text layout readable."""

import re
import warnings
from dataclasses import replace

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import classification_report

from sklearn_confusion_ext import (
    mlcm_classification_report,
    score_confidence_interval,
    transport_classification_report,
)
from sklearn_confusion_ext.exceptions import DegenerateIntervalWarning

SCORES = {"precision": "precision", "recall": "recall", "f1": "f1-score"}
REPORTS = {"tcm": transport_classification_report, "mlcm": mlcm_classification_report}


def _targets(kind, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "labels":
        y_true = rng.integers(0, 4, 300)
        return y_true, np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 4, 300))
    if kind == "multilabel":
        y_true = (rng.random((200, 4)) < 0.4).astype(int)
        return y_true, np.where(rng.random((200, 4)) < 0.8, y_true, 1 - y_true)
    return rng.integers(0, 4, 200), rng.dirichlet(np.ones(4), 200)  # labels against scores


def _rows(report):
    return [name for name, row in report.items()
            if isinstance(row, dict) and not name.endswith(" avg")]


def _interval(score, y_true, y_pred, **keywords):
    return score_confidence_interval(y_true, y_pred, scoring=score, method="percentile",
                                     n_resamples=999, confidence_level=0.9, random_state=3,
                                     **keywords)


CASES = [("tcm", "labels"), ("tcm", "multilabel"), ("tcm", "soft"), ("mlcm", "labels"),
         ("mlcm", "multilabel")]


@pytest.mark.parametrize("family, kind", CASES)
def test_per_class_intervals_are_those_of_score_confidence_interval(family, kind):
    """The same draws (cells of 1-D labels, instance weights otherwise) give the same
    intervals as one score at a time."""
    y_true, y_pred = _targets(kind)
    report = REPORTS[family](y_true, y_pred, confidence_level=0.9, random_state=3,
                             output_dict=True)
    rows = _rows(report)
    for which, key in SCORES.items():
        expected = _interval(f"{family}_{which}_macro", y_true, y_pred, average=None)
        assert len(rows) == len(expected.low)
        np.testing.assert_allclose([report[row][key] for row in rows], expected.estimate,
                                   rtol=1e-12)
        np.testing.assert_allclose([report[row][f"{key}_low"] for row in rows], expected.low,
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose([report[row][f"{key}_high"] for row in rows],
                                   expected.high, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("family, kind", CASES)
def test_averages_and_accuracy_are_those_of_score_confidence_interval(family, kind):
    y_true, y_pred = _targets(kind)
    report = REPORTS[family](y_true, y_pred, confidence_level=0.9, random_state=3,
                             output_dict=True)
    for average in ("macro", "weighted", "micro"):
        for which, key in SCORES.items():
            expected = _interval(f"{family}_{which}_{average}", y_true, y_pred)
            if average == "micro" and "accuracy" in report:
                low, high = report["accuracy_low"], report["accuracy_high"]
            else:
                low, high = (report[f"{average} avg"][f"{key}_{side}"]
                             for side in ("low", "high"))
            assert (low, high) == pytest.approx((expected.low, expected.high), abs=1e-12)


@pytest.mark.parametrize("family, kind", CASES)
def test_intervals_bracket_the_estimates(family, kind):
    y_true, y_pred = _targets(kind, seed=1)
    report = REPORTS[family](y_true, y_pred, confidence_level=0.95, random_state=0,
                             output_dict=True)
    checked = 0
    for name, row in report.items():
        if name == "accuracy":
            assert report["accuracy_low"] <= row <= report["accuracy_high"]
            checked += 1
        elif isinstance(row, dict):
            for key in SCORES.values():
                assert 0 <= row[f"{key}_low"] <= row[key] <= row[f"{key}_high"] <= 1, name
                checked += 1
    assert checked >= 15
    # a wider level gives wider intervals
    narrow = REPORTS[family](y_true, y_pred, confidence_level=0.5, random_state=0,
                             output_dict=True)
    for name in _rows(report):
        assert narrow[name]["recall_low"] >= report[name]["recall_low"]
        assert narrow[name]["recall_high"] <= report[name]["recall_high"]


def test_labels_zero_division_and_sample_weight_follow_the_scores():
    y_true, y_pred = _targets("labels")
    weights = np.random.default_rng(5).integers(1, 4, len(y_true))
    for keywords in ({"labels": [2, 0, 7], "zero_division": np.nan},
                     {"labels": [3, 1]}, {"sample_weight": weights}):
        report = transport_classification_report(
            y_true, y_pred, confidence_level=0.9, random_state=3, output_dict=True,
            **keywords)
        expected = _interval("tcm_recall_macro", y_true, y_pred, average=None, **keywords)
        rows = _rows(report)
        np.testing.assert_allclose([report[row]["recall_low"] for row in rows],
                                   expected.low, equal_nan=True)
        np.testing.assert_allclose([report[row]["recall_high"] for row in rows],
                                   expected.high, equal_nan=True)
    # a class absent from the targets is undefined (nan) in every resample
    absent = transport_classification_report(
        y_true, y_pred, labels=[2, 7], zero_division=np.nan, confidence_level=0.9,
        random_state=0, output_dict=True)["7"]
    assert np.isnan([absent["precision_low"], absent["recall_high"]]).all()


@pytest.mark.parametrize("order", [[3, 1, 0, 2], [3, 1]], ids=["permutation", "subset"])
def test_labels_beside_probabilities_are_resampled_with_the_data_columns(order):
    """Probabilities (columns: the classes in sorted order) with labels= in another order or
    a subset: each resample builds its matrix on the columns the data gave (the same instance
    weights as without labels=), though a resample may lack a class (its own union of labels
    and classes would be too few)."""
    y_true, y_pred = _targets("soft")
    y_true = np.where(y_true == 2, 0, y_true)  # class 2 rare: absent from some resamples
    y_true[:3] = 2
    named = transport_classification_report(y_true, y_pred, labels=order,
                                            confidence_level=0.9, random_state=4,
                                            output_dict=True)
    plain = transport_classification_report(y_true, y_pred, confidence_level=0.9,
                                            random_state=4, output_dict=True)
    assert _rows(named) == list(map(str, order))
    for name in map(str, order):
        for key in ("precision_low", "recall_high", "f1-score_low"):
            assert named[name][key] == pytest.approx(plain[name][key], abs=1e-12)


@pytest.mark.parametrize("family, kind", CASES)
def test_default_output_is_unchanged(family, kind):
    y_true, y_pred = _targets(kind)
    report = REPORTS[family]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = report(y_true, y_pred, output_dict=True)
        text = report(y_true, y_pred)
        with_intervals = report(y_true, y_pred, output_dict=True, confidence_level=0.9,
                                random_state=0)
    assert "[" not in text and "_low" not in str(plain)
    stripped = {name: ({key: value for key, value in row.items()
                        if not key.endswith(("_low", "_high"))}
                       if isinstance(row, dict) else row)
                for name, row in with_intervals.items()
                if name not in ("accuracy_low", "accuracy_high")}
    assert stripped == plain
    assert list(stripped) == list(plain)
    assert report(y_true, y_pred, confidence_level=None, random_state=7) == text


def test_default_text_is_scikit_learns():
    y_true, y_pred = _targets("labels")
    assert transport_classification_report(y_true, y_pred) == \
        classification_report(y_true, y_pred)


def test_text_shows_every_interval_compactly():
    y_true, y_pred = _targets("labels")
    text = transport_classification_report(y_true, y_pred, confidence_level=0.95,
                                           random_state=0)
    report = transport_classification_report(y_true, y_pred, confidence_level=0.95,
                                             random_state=0, output_dict=True)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0].split() == ["precision", "recall", "f1-score", "support"]
    cell = r"(\d\.\d\d) \[(\d\.\d\d), (\d\.\d\d)\]"
    for name in [*_rows(report), "macro avg", "weighted avg"]:
        line = next(line for line in lines if line.strip().startswith(name + " "))
        found = re.findall(cell, line)
        assert len(found) == 3, line
        for (value, low, high), key in zip(found, SCORES.values()):
            row = report[name]
            assert (float(value), float(low), float(high)) == pytest.approx(
                (row[key], row[f"{key}_low"], row[f"{key}_high"]), abs=0.0051)
    accuracy = next(line for line in lines if line.strip().startswith("accuracy"))
    ((value, low, high),) = re.findall(cell, accuracy)
    assert (float(low), float(high)) == pytest.approx(
        (report["accuracy_low"], report["accuracy_high"]), abs=0.0051)
    # the columns line up: every cell ends under its header
    header = lines[0]
    ends = [header.index(word) + len(word) for word in ("precision", "recall", "f1-score")]
    row = next(line for line in lines if line.strip().startswith("macro avg"))
    assert [match.end() for match in re.finditer(cell, row)] == ends


def test_mlcm_text_names_the_weight_column():
    y_true, y_pred = _targets("multilabel")
    text = mlcm_classification_report(y_true, y_pred, confidence_level=0.9, random_state=0,
                                      digits=3)
    assert text.splitlines()[0].split()[-1] == "weight"
    assert re.search(r"micro avg\s+\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", text)


def test_random_state_reproduces_and_generators_are_accepted():
    y_true, y_pred = _targets("multilabel")
    first = transport_classification_report(y_true, y_pred, confidence_level=0.9,
                                            random_state=11, output_dict=True)
    again = transport_classification_report(y_true, y_pred, confidence_level=0.9,
                                            random_state=np.random.default_rng(11),
                                            output_dict=True)
    other = transport_classification_report(y_true, y_pred, confidence_level=0.9,
                                            random_state=12, output_dict=True)
    assert first == again
    assert first != other


def test_resamples_do_not_warn_more_than_the_estimate():
    y_true, y_pred = [0, 0, 1, 1, 2] * 6, [0, 0, 1, 1, 1] * 6  # class 2 never predicted
    with warnings.catch_warnings(record=True) as plain:
        warnings.simplefilter("always")
        transport_classification_report(y_true, y_pred)
    with warnings.catch_warnings(record=True) as with_intervals:
        warnings.simplefilter("always")
        transport_classification_report(y_true, y_pred, confidence_level=0.9, random_state=0)
    # Class 2's recall is 0 of 6 in every resample (and so the macro and weighted recalls
    # are constant): one warning that those intervals are Wilson's, nothing more.
    degenerate = [w for w in with_intervals if w.category is DegenerateIntervalWarning]
    assert len(degenerate) == 1 and "Wilson" in str(degenerate[0].message)
    assert [str(w.message) for w in with_intervals if w not in degenerate] == \
        [str(w.message) for w in plain]
    assert any(issubclass(w.category, UndefinedMetricWarning) for w in plain)


@pytest.mark.parametrize("report", REPORTS.values())
@pytest.mark.parametrize("value, error", [(0, ValueError), (1, ValueError), (1.5, ValueError),
                                          (-0.1, ValueError), (float("nan"), ValueError),
                                          ("0.95", TypeError), (True, TypeError)])
def test_bad_confidence_level_is_named(report, value, error):
    with pytest.raises(error, match="confidence_level"):
        report([0, 1, 1], [0, 1, 0], confidence_level=value)


@pytest.mark.parametrize("report", REPORTS.values())
def test_bad_random_state_is_named(report):
    with pytest.raises(ValueError, match="random_state"):
        report([0, 1, 1], [0, 1, 0], confidence_level=0.9, random_state=-1)


# --- The report read off many matrices at once (a private helper) ----------------------------


@pytest.mark.parametrize("family, kind", CASES)
@pytest.mark.parametrize("keywords", [{}, {"zero_division": np.nan}, {"zero_division": 1.0},
                                      {"include_none": False}, {"include_none": True}])
def test_report_reader_equals_the_report_on_each_matrix(family, kind, keywords):
    from sklearn_confusion_ext._matrices.mlcm import mlcm_confusion
    from sklearn_confusion_ext._matrices.transport import transport_confusion
    from sklearn_confusion_ext._scores.from_confusion import confusion_for_labels
    from sklearn_confusion_ext._scores.reports import (
        classification_report_from_confusion,
        report_reader,
    )

    y_true, y_pred = _targets(kind)
    if family == "tcm":
        full = transport_confusion(y_true, y_pred, labels=None, weighting="uniform",
                                   sample_weight=None, empty="null_class")
        labels = [2, 0, 9] if kind == "labels" else None
    else:
        full = mlcm_confusion(y_true, y_pred, labels=None, sample_weight=None,
                              method="heydarian")
        labels = None
    confusion, _ = confusion_for_labels(full, labels)
    rng = np.random.default_rng(0)
    matrices = full.matrix * rng.integers(0, 3, (40, *full.matrix.shape))  # zero cells too
    matrices[0] = 0.0
    values = report_reader(confusion, **keywords)(matrices)
    width = confusion.matrix.shape[0]
    # the rows are the report's on the data: "auto" decided there, not on each matrix
    rows = {**keywords, "include_none": keywords.get("include_none", "auto")}
    if rows["include_none"] == "auto":
        rows["include_none"] = bool(confusion.has_none and confusion.matrix[-1].sum() > 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for matrix, value in zip(matrices, values):
            padded = np.zeros((width, width))
            padded[:len(matrix), :len(matrix)] = matrix
            report = classification_report_from_confusion(
                replace(confusion, matrix=padded), output_dict=True, **rows)
            expected = [[row[key] for key in SCORES.values()] if isinstance(row, dict)
                        else [row] * 3 for row in report.values()]
            np.testing.assert_allclose(value, expected, rtol=1e-12, atol=1e-15,
                                       equal_nan=True)


@pytest.mark.parametrize("family", ["tcm", "mlcm"])
def test_wrong_target_names_are_refused_before_the_resampling(family, monkeypatch):
    from sklearn_confusion_ext._scores import reports

    def resampling(*args, **kwargs):
        raise AssertionError("the intervals were resampled before target_names was checked")
    monkeypatch.setattr(reports, "report_intervals", resampling)
    report = {"tcm": transport_classification_report,
              "mlcm": mlcm_classification_report}[family]
    with pytest.raises(ValueError, match="target_names has 2 names but the report has 3"):
        report([0, 1, 2] * 5, [0, 1, 1] * 5, target_names=["a", "b"], confidence_level=0.9)


@pytest.mark.parametrize("family, kind, weighted", [
    ("tcm", "labels", True), ("tcm", "multilabel", False), ("tcm", "multilabel", True),
    ("tcm", "scores", False), ("mlcm", "multilabel", False), ("mlcm", "multilabel", True)])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_the_report_with_intervals_validates_its_targets_once(family, kind, weighted, method,
                                                              monkeypatch):
    """The report's matrix and its resampled matrices are read from one validation: the
    targets are checked once, the sample weights once, and the instances' terms are built
    once (a weighting callable is called once). Before, the intervals validated the
    targets again (check_targets twice, check_sample_weight three times) and built the
    transport terms a second time."""
    from sklearn_confusion_ext._core import dispatch, resampling, targets
    from sklearn_confusion_ext._scores import reports

    calls = {"check_targets": 0, "check_sample_weight": 0, "weighting": 0}

    def counted(module, name):
        original = getattr(module, name)

        def spy(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(module, name, spy)

    for module in (dispatch, resampling):
        counted(module, "check_targets")
    for module in (targets, reports):
        counted(module, "check_sample_weight")
    y_true, y_pred = _targets(kind)
    sample_weight = np.random.default_rng(1).uniform(0.5, 2, len(y_true)) if weighted else None
    keywords = {"sample_weight": sample_weight, "confidence_level": 0.9, "n_resamples": 50,
                "random_state": 0, "interval_method": method, "output_dict": True}
    if family == "tcm":
        def weighting(y_true, y_pred):
            calls["weighting"] += 1
            return np.ones(y_true.shape[0])
        keywords["weighting"] = weighting
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        counted_report = REPORTS[family](y_true, y_pred, **keywords)
    assert calls["check_targets"] == 1
    assert calls["check_sample_weight"] == 1
    assert calls["weighting"] == (1 if family == "tcm" else 0)
    monkeypatch.undo()
    if family == "tcm":
        keywords["weighting"] = "uniform"  # the same weights: the same report
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert REPORTS[family](y_true, y_pred, **keywords) == counted_report


@pytest.mark.parametrize("labels", [None, [0, 1]])
def test_point_interval_warning_counts_and_names_the_printed_cells(labels):
    """Issue 39: 3 classes print 16 scores (9 of the classes, the accuracy, 6 averages)
    but the warning counted 18 (the accuracy row's unprinted micro precision and recall);
    it now counts and names the printed cells. With labels= a subset, a 'micro avg' row
    prints its three scores."""
    from sklearn_confusion_ext import transport_classification_report

    y = np.array([0] * 30 + [1] * 30 + [2] * 30)
    pred = y.copy()
    pred[30:35], pred[60:63] = 2, 1
    with pytest.warns(DegenerateIntervalWarning) as caught:
        report = transport_classification_report(
            y, pred, labels=labels, target_names=["cat", "dog", "fox"][:len(labels or "abc")],
            confidence_level=0.95, random_state=0, output_dict=True)
    message = str(caught[0].message)
    printed = 3 * len(report) - (2 if "accuracy" in report else 0) - 3 * (
        "accuracy_low" in report) - 3 * ("accuracy_high" in report)
    n_rows = 3 if labels is None else 2
    assert printed == (3 * n_rows + 7 if labels is None else 3 * n_rows + 9)
    assert message.startswith("transport_classification_report's intervals: ")
    assert f"for 3 of its {printed} values (cat precision, cat recall, cat f1-score)" \
        in message
    # every cell at its bound: all printed cells, the accuracy once
    with pytest.warns(DegenerateIntervalWarning) as caught:
        transport_classification_report(y, y, confidence_level=0.95, random_state=0)
    message = str(caught[0].message)
    assert "for 16 of its 16 values (0 precision, 0 recall," in message
