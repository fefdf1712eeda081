"""``reject_label=``: abstentions in the matrix of decisions (a last "rejected" column), in
its frame and Display, in the transport classification report (coverage, the scores among
the answered, the rejections of each class) and in the expected cost (``reject_cost=``).
Each is checked against a direct loop over the instances."""

import warnings

import numpy as np
import pytest

import sklearn_confusion_ext as sce

REJECT = -1


def _data(n=300, n_classes=4, seed=0, reject_rate=0.3):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, n_classes, n))
    y_pred = np.where(rng.random(n) < reject_rate, REJECT, y_pred)
    return y_true, y_pred, rng.random(n) * 3


def _loop_matrix(y_true, y_pred, classes, weights=None, reject=REJECT):
    """The matrix with its rejected column, one instance at a time."""
    weights = np.ones(len(y_true)) if weights is None else weights
    position = {c: i for i, c in enumerate(classes)}
    matrix = np.zeros((len(classes), len(classes) + 1))
    for t, p, w in zip(y_true, y_pred, weights):
        if t not in position:
            continue
        if p == reject:
            matrix[position[t], -1] += w
        elif p in position:
            matrix[position[t], position[p]] += w
    return matrix


@pytest.mark.parametrize("weighted", [False, True])
def test_matrix_is_the_loops(weighted):
    y_true, y_pred, weights = _data()
    sample_weight = weights if weighted else None
    matrix = sce.transport_confusion_matrix(y_true, y_pred, reject_label=REJECT,
                                            sample_weight=sample_weight)
    np.testing.assert_allclose(matrix, _loop_matrix(y_true, y_pred, [0, 1, 2, 3],
                                                    sample_weight), rtol=1e-12)
    # the rows sum to the supports; the rejected column to the abstentions
    supports = np.bincount(y_true, sample_weight, minlength=4)
    np.testing.assert_allclose(matrix.sum(axis=1), supports, rtol=1e-12)
    rejected = y_pred == REJECT
    np.testing.assert_allclose(matrix[:, -1].sum(), (np.ones(len(y_true)) if sample_weight
                                                     is None else weights)[rejected].sum())
    # the first columns are the matrix of the answered instances
    np.testing.assert_allclose(matrix[:, :-1], sce.transport_confusion_matrix(
        y_true[~rejected], y_pred[~rejected], labels=[0, 1, 2, 3],
        sample_weight=None if sample_weight is None else weights[~rejected]))


def test_labels_select_and_order_the_rows():
    y_true, y_pred, _ = _data(seed=1)
    matrix = sce.transport_confusion_matrix(y_true, y_pred, reject_label=REJECT,
                                            labels=[3, 1, 7])
    np.testing.assert_array_equal(matrix, _loop_matrix(y_true, y_pred, [3, 1, 7]))


def test_no_abstention_gives_a_column_of_zeros():
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    matrix = sce.transport_confusion_matrix(y_true, y_pred, reject_label=REJECT)
    np.testing.assert_array_equal(matrix[:, :-1], sce.transport_confusion_matrix(y_true,
                                                                                 y_pred))
    np.testing.assert_array_equal(matrix[:, -1], 0)


def test_a_class_rejected_only_is_a_row():
    # class 2 is never answered: its row still shows its rejections
    matrix = sce.transport_confusion_matrix([0, 1, 2, 2], [0, 0, REJECT, REJECT],
                                            reject_label=REJECT)
    np.testing.assert_array_equal(matrix, [[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 2]])


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_normalize_includes_the_rejected_column(normalize):
    y_true, y_pred, _ = _data(seed=2)
    counts = _loop_matrix(y_true, y_pred, [0, 1, 2, 3])
    axis = {"true": 1, "pred": 0, "all": None}[normalize]
    expected = counts / counts.sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(sce.transport_confusion_matrix(
        y_true, y_pred, reject_label=REJECT, normalize=normalize), expected, rtol=1e-12)


def test_string_and_categorical_labels():
    import pandas as pd

    y_true = ["owl", "cat", "dog", "dog", "cat"]
    y_pred = ["owl", "?", "dog", "?", "dog"]
    matrix = sce.transport_confusion_matrix(y_true, y_pred, reject_label="?")
    np.testing.assert_array_equal(matrix, _loop_matrix(y_true, y_pred, ["cat", "dog", "owl"],
                                                       reject="?"))
    # a categorical's categories order the classes
    categorical = pd.Series(pd.Categorical(y_true, categories=["owl", "dog", "cat"]))
    matrix = sce.transport_confusion_matrix(categorical, pd.Series(y_pred), reject_label="?")
    np.testing.assert_array_equal(matrix, _loop_matrix(y_true, y_pred, ["owl", "dog", "cat"],
                                                       reject="?"))


@pytest.mark.parametrize("call, match", [
    (dict(y_true=[0, REJECT, 1], y_pred=[0, 1, 1]), "y_true holds reject_label"),
    (dict(y_true=[0, 1], y_pred=[0, 1], labels=[0, REJECT]), "labels .* name reject_label"),
    (dict(y_true=["a", "b"], y_pred=["a", "b"]), "not of the kind"),
    (dict(y_true=[0, 1], y_pred=[0, 1], labels=["a", "b"]), "different kinds"),
    (dict(y_true=[0, 1], y_pred=[[0.4, 0.6], [0.1, 0.9]]), "y_pred has 2 dimension"),
    (dict(y_true=[[1, 0], [0, 1]], y_pred=[[1, 0], [0, 1]]), "y_true has 2 dimension"),
])
def test_bad_reject_label_is_refused_naming_it(call, match):
    with pytest.raises(ValueError, match=match):
        sce.transport_confusion_matrix(reject_label=REJECT, **call)


@pytest.mark.parametrize("bad", [[1], {"a": 1}, None.__class__])
def test_reject_label_must_be_a_label(bad):
    for function in (sce.transport_confusion_matrix, sce.transport_classification_report,
                     sce.expected_cost):
        with pytest.raises(TypeError, match="reject_label"):
            function([0, 1], [0, 1], reject_label=bad)


def test_readers_of_square_matrices_refuse_the_rejected_column():
    matrix = sce.transport_confusion_matrix([0, 1, 1], [0, REJECT, 1], reject_label=REJECT)
    for reader in (sce.accuracy_from_confusion, sce.cohen_kappa_from_confusion,
                   sce.precision_recall_fscore_support_from_confusion,
                   sce.matthews_corrcoef_from_confusion):
        with pytest.raises(ValueError, match="rejected"):
            reader(matrix)
    # the answered part reads as a matrix of classes
    assert sce.accuracy_from_confusion(matrix[:, :-1]) == 1.0


def test_frame_names_the_rejected_column():
    pytest.importorskip("pandas")
    y_true, y_pred = ["cat", "dog", "dog"], ["cat", "?", "dog"]
    matrix = sce.transport_confusion_matrix(y_true, y_pred, reject_label="?")
    frame = sce.confusion_frame(matrix, y_true=y_true, y_pred=y_pred, reject_label="?")
    assert list(frame.columns) == ["cat", "dog", "rejected"]
    assert list(frame.index) == ["cat", "dog"]
    np.testing.assert_array_equal(frame.to_numpy(), matrix)
    assert list(sce.confusion_frame(matrix, labels=["c", "d"]).columns) == ["c", "d",
                                                                            "rejected"]
    with pytest.raises(ValueError, match="rejections"):
        sce.confusion_frame(matrix, labels=["c", "d", "e"])
    with pytest.raises(ValueError, match="finite non-negative"):
        sce.confusion_frame([[1.0, -1.0, 0.0], [0.0, 1.0, 2.0]])


def test_display_draws_the_rejected_column(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matrix = sce.transport_confusion_matrix([0, 1, 1, 2], [0, REJECT, 1, REJECT],
                                            reject_label=REJECT)
    display = sce.TransportConfusionMatrixDisplay(
        matrix, display_labels=["a", "b", "c"], column_labels=["a", "b", "c", "rejected"])
    display.plot(colorbar=False)
    assert [t.get_text() for t in display.ax_.get_xticklabels()] == ["a", "b", "c",
                                                                     "rejected"]
    assert display.text_.shape == (3, 4)
    display.figure_.savefig(tmp_path / "rejected.png")
    plt.close("all")
    with pytest.raises(ValueError, match="column_labels"):
        sce.TransportConfusionMatrixDisplay(matrix, display_labels=["a", "b", "c"])


# --- The report ---------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_report_scores_the_answered_and_counts_the_rejected(weighted):
    y_true, y_pred, weights = _data(seed=3)
    sample_weight = weights if weighted else None
    report = sce.transport_classification_report(
        y_true, y_pred, reject_label=REJECT, sample_weight=sample_weight, output_dict=True)
    answered = y_pred != REJECT
    units = np.ones(len(y_true)) if sample_weight is None else weights
    expected = sce.transport_classification_report(
        y_true[answered], y_pred[answered], labels=[0, 1, 2, 3], output_dict=True,
        sample_weight=None if sample_weight is None else weights[answered])
    for name, row in expected.items():
        if isinstance(row, dict):
            for key, value in row.items():
                assert report[name][key] == pytest.approx(value, rel=1e-12)
        else:
            assert report[name] == pytest.approx(row, rel=1e-12)
    for k in range(4):
        rejected = units[(y_true == k) & ~answered].sum()
        assert report[str(k)]["rejected"] == pytest.approx(rejected, rel=1e-12)
    assert report["macro avg"]["rejected"] == pytest.approx(units[~answered].sum())
    assert report["coverage"] == pytest.approx(units[answered].sum() / units.sum(),
                                               rel=1e-12)


def test_report_text_shows_the_rejections_and_the_coverage():
    text = sce.transport_classification_report(
        ["a", "a", "b", "b", "b"], ["a", "?", "b", "a", "?"], reject_label="?")
    lines = text.splitlines()
    assert lines[0].split() == ["precision", "recall", "f1-score", "support", "rejected"]
    assert lines[2].split() == ["a", "0.50", "1.00", "0.67", "1", "1"]
    assert lines[-1].split() == ["coverage", "0.60", "5"]


def test_report_intervals_with_rejections():
    y_true, y_pred, _ = _data(n=200, seed=4)
    report = sce.transport_classification_report(
        y_true, y_pred, reject_label=REJECT, confidence_level=0.9, n_resamples=99,
        random_state=0, output_dict=True)
    answered = y_pred != REJECT
    expected = sce.transport_classification_report(
        y_true[answered], y_pred[answered], labels=[0, 1, 2, 3], confidence_level=0.9,
        n_resamples=99, random_state=0, output_dict=True)
    assert report["0"]["f1-score_low"] == expected["0"]["f1-score_low"]
    assert report["accuracy_high"] == expected["accuracy_high"]
    assert "coverage" in report


def test_report_refuses_what_cannot_be_reported():
    with pytest.raises(ValueError, match="Every instance of y_pred is reject_label"):
        sce.transport_classification_report([0, 1], [REJECT, REJECT], reject_label=REJECT)
    with pytest.raises(ValueError, match="y_true holds reject_label"):
        sce.transport_classification_report([0, REJECT], [0, 1], reject_label=REJECT)
    with pytest.raises(ValueError, match="y_pred has 2 dimension"):
        sce.transport_classification_report([0, 1], [[0.5, 0.5], [0.2, 0.8]],
                                            reject_label=REJECT)
    with pytest.raises(ValueError, match="a class is named 'coverage'"):
        sce.transport_classification_report(["coverage", "b"], ["?", "b"], reject_label="?")
    report = sce.transport_classification_report(
        ["coverage", "b"], ["?", "b"], reject_label="?", target_names=["b", "c"],
        output_dict=True)
    assert report["c"]["rejected"] == 1.0 and report["coverage"] == 0.5


def test_report_without_reject_label_is_unchanged():
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = sce.transport_classification_report(y_true, y_pred)
    assert "rejected" not in text and "coverage" not in text


# --- The cost -----------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("normalize", [True, False])
def test_cost_with_rejections_is_the_loops(weighted, normalize):
    y_true, y_pred, weights = _data(seed=5)
    sample_weight = weights if weighted else None
    cost_matrix = np.arange(16.0).reshape(4, 4) % 5
    units = np.ones(len(y_true)) if sample_weight is None else weights
    spent = sum(w * (0.7 if p == REJECT else cost_matrix[t, p])
                for t, p, w in zip(y_true, y_pred, units))
    expected = spent / units.sum() if normalize else spent
    assert sce.expected_cost(y_true, y_pred, cost_matrix=cost_matrix, reject_label=REJECT,
                             reject_cost=0.7, sample_weight=sample_weight,
                             normalize=normalize) == pytest.approx(expected, rel=1e-12)
    # 0-1 costs: the errors and the rejections at their cost
    errors = sum(w * (0.2 if p == REJECT else float(p != t))
                 for t, p, w in zip(y_true, y_pred, units))
    assert sce.expected_cost(y_true, y_pred, reject_label=REJECT, reject_cost=0.2,
                             sample_weight=sample_weight, normalize=normalize) == \
        pytest.approx(errors / units.sum() if normalize else errors, rel=1e-12)


def test_cost_of_abstaining_is_the_risk_coverage_trade():
    rng = np.random.default_rng(6)
    y_prob = rng.dirichlet(np.ones(3), 400)
    y_true = np.array([rng.choice(3, p=p) for p in y_prob])
    curve = sce.risk_coverage_curve(y_true, y_prob)
    for j in range(0, len(curve.thresholds), 37):
        decisions = np.where(y_prob.max(axis=1) >= curve.thresholds[j],
                             y_prob.argmax(axis=1), REJECT)
        cost = sce.expected_cost(y_true, decisions, labels=[0, 1, 2], reject_label=REJECT,
                                 reject_cost=0.3)
        expected = curve.coverage[j] * curve.risk[j] + (1 - curve.coverage[j]) * 0.3
        assert cost == pytest.approx(expected, rel=1e-12)


def test_cost_needs_both_reject_options():
    with pytest.raises(ValueError, match="reject_label=-1 is given without reject_cost"):
        sce.expected_cost([0, 1], [0, REJECT], reject_label=REJECT)
    with pytest.warns(UserWarning, match="reject_cost=0.5 is read only with reject_label"):
        assert sce.expected_cost([0, 1], [0, 0], reject_cost=0.5) == 0.5


def test_cost_refuses_rejections_beside_probabilities():
    with pytest.raises(ValueError, match="reject_label=-1 applies to predicted labels"):
        sce.expected_cost([0, 1], [[0.6, 0.4], [0.3, 0.7]], reject_label=REJECT,
                          reject_cost=0.5)
    with pytest.raises(ValueError, match="reject_cost"):
        sce.expected_cost([0, 1], [0, REJECT], reject_label=REJECT, reject_cost=np.inf)
    with pytest.raises(ValueError, match="cost_matrix"):
        sce.expected_cost([0, 1], [0, REJECT], reject_label=REJECT, reject_cost=0.5,
                          cost_matrix=np.zeros((3, 3)))
