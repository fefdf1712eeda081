"""``threshold_confusion_matrices(..., target="top_label")``: the matrix of the decisions of
a classifier that answers its top label where its top probability is at least the
threshold, with a last "rejected" column; checked against a direct loop, against the
matrix of the decisions (``transport_confusion_matrix(reject_label=)``) and against
:func:`risk_coverage_curve`. And ``verbose=`` of the one-vs-rest matrices."""

import numpy as np
import pytest

import sklearn_confusion_ext as sce

REJECT = -1


def _probabilities(n=250, n_classes=4, seed=0, decimals=2):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, n_classes)) * 1.5
    y_prob = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    y_true = np.array([rng.choice(n_classes, p=p) for p in y_prob])
    if decimals is not None:  # ties of top probabilities
        y_prob = np.round(y_prob, decimals)
        y_prob /= y_prob.sum(axis=1, keepdims=True)
    return y_true, y_prob, rng.random(n) * 2


def _loop(y_true, y_prob, threshold, weights=None):
    """The matrix of the decisions at ``threshold``, one instance at a time."""
    n_classes = y_prob.shape[1]
    weights = np.ones(len(y_true)) if weights is None else weights
    matrix = np.zeros((n_classes, n_classes + 1))
    for t, p, w in zip(y_true, y_prob, weights):
        top = int(np.argmax(p))
        matrix[t, top if p[top] >= threshold else n_classes] += w
    return matrix


@pytest.mark.parametrize("weighted", [False, True])
def test_matrices_at_every_top_probability_are_the_loops(weighted):
    y_true, y_prob, weights = _probabilities()
    sample_weight = weights if weighted else None
    result = sce.threshold_confusion_matrices(y_true, y_prob, target="top_label",
                                              sample_weight=sample_weight)
    top = y_prob.max(axis=1)
    np.testing.assert_array_equal(result.thresholds, np.unique(top)[::-1])
    assert result.matrices.shape == (len(result.thresholds), 4, 5)
    assert result.matrices.dtype == (np.float64 if weighted else np.int64)
    for threshold, matrix in zip(result.thresholds, result.matrices):
        np.testing.assert_allclose(matrix, _loop(y_true, y_prob, threshold, sample_weight),
                                   rtol=1e-12, atol=1e-12)
    # every row sums to its class's total, at every threshold
    totals = np.bincount(y_true, sample_weight, minlength=4)
    np.testing.assert_allclose(result.matrices.sum(axis=2),
                               np.broadcast_to(totals, (len(result.thresholds), 4)))
    np.testing.assert_array_equal(result.classes, [0, 1, 2, 3])
    assert result.target == "top_label"


def test_given_thresholds_are_the_matrices_of_the_decisions():
    y_true, y_prob, weights = _probabilities(seed=1, decimals=None)
    thresholds = [-np.inf, 0.0, 0.3, 0.5, 0.5, 0.9, 1.0, np.inf]
    result = sce.threshold_confusion_matrices(y_true, y_prob, thresholds=thresholds,
                                              target="top_label", sample_weight=weights)
    np.testing.assert_array_equal(result.thresholds, thresholds)
    for threshold, matrix in zip(thresholds, result.matrices):
        decisions = np.where(y_prob.max(axis=1) >= threshold, y_prob.argmax(axis=1), REJECT)
        np.testing.assert_allclose(matrix, sce.transport_confusion_matrix(
            y_true, decisions, labels=[0, 1, 2, 3], reject_label=REJECT,
            sample_weight=weights), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(result.rejected[0], 0)  # -inf answers everything
    np.testing.assert_array_equal(result.matrices[-1][:, :-1], 0)  # inf rejects it all


def test_coverage_and_risk_are_the_risk_coverage_curve():
    y_true, y_prob, weights = _probabilities(seed=2)
    for sample_weight in (None, weights):
        curve = sce.risk_coverage_curve(y_true, y_prob, sample_weight=sample_weight)
        result = sce.threshold_confusion_matrices(y_true, y_prob, target="top_label",
                                                  sample_weight=sample_weight)
        np.testing.assert_array_equal(result.thresholds, curve.thresholds)
        total = result.matrices[0].sum()
        answered = total - result.rejected.sum(axis=1)
        right = np.trace(result.matrices[:, :, :-1], axis1=1, axis2=2)
        np.testing.assert_allclose(answered / total, curve.coverage, rtol=1e-12)
        np.testing.assert_allclose(1 - right / answered, curve.risk, rtol=1e-10,
                                   atol=1e-12)


def test_zero_weights_are_no_instances():
    y_true, y_prob, weights = _probabilities(seed=3)
    weights[::3] = 0.0
    result = sce.threshold_confusion_matrices(y_true, y_prob, target="top_label",
                                              sample_weight=weights)
    kept = weights > 0
    expected = sce.threshold_confusion_matrices(y_true[kept], y_prob[kept],
                                                target="top_label", labels=[0, 1, 2, 3],
                                                sample_weight=weights[kept])
    np.testing.assert_array_equal(result.thresholds, expected.thresholds)
    np.testing.assert_allclose(result.matrices, expected.matrices, rtol=1e-12)


def test_binary_probabilities_and_string_labels():
    y_true = np.array(["no", "yes", "yes", "no", "yes"])
    p_yes = np.array([0.2, 0.9, 0.45, 0.6, 0.7])
    result = sce.threshold_confusion_matrices(y_true, p_yes, thresholds=[0.65],
                                              target="top_label")
    # confidences 0.8, 0.9, 0.55, 0.6, 0.7: answered rows 0, 1, 4
    np.testing.assert_array_equal(result.matrices[0], [[1, 0, 1], [0, 2, 1]])
    np.testing.assert_array_equal(result.classes, ["no", "yes"])
    two_columns = sce.threshold_confusion_matrices(
        y_true, np.column_stack([1 - p_yes, p_yes]), thresholds=[0.65], target="top_label")
    np.testing.assert_array_equal(two_columns.matrices, result.matrices)


def test_frame_and_cells():
    pytest.importorskip("pandas")
    y_true, y_prob, _ = _probabilities(n=40, n_classes=3, seed=4)
    result = sce.threshold_confusion_matrices(y_true, y_prob, thresholds=[0.4, 0.8],
                                              target="top_label")
    frame = result.to_frame()
    assert list(frame.columns) == ["true", "0", "1", "2", "rejected"]
    assert frame.index.name == "threshold"
    np.testing.assert_array_equal(frame.index, [0.4] * 3 + [0.8] * 3)
    np.testing.assert_array_equal(frame.iloc[:, 1:].to_numpy(),
                                  result.matrices.reshape(6, 4))
    for cell in ("tn", "fp", "fn", "tp"):
        with pytest.raises(ValueError, match="top_label"):
            getattr(result, cell)
    binary = sce.threshold_confusion_matrices([0, 1, 1], [0.2, 0.7, 0.4])
    assert binary.target == "binary"
    with pytest.raises(ValueError, match="rejected"):
        _ = binary.rejected
    assert "top_label" in repr(result)


def test_frame_columns_that_would_clash_with_class_names():
    pytest.importorskip("pandas")
    y_true = np.array(["rejected", "true", "true"])
    y_prob = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])
    frame = sce.threshold_confusion_matrices(y_true, y_prob, thresholds=[0.5],
                                             target="top_label").to_frame()
    assert list(frame.columns) == ["true", "predicted rejected", "predicted true",
                                   "rejected"]


@pytest.mark.parametrize("call, match", [
    (dict(y_score=[[0.5, 0.5], [-0.2, 1.2]]), "y_score has negative entries"),
    (dict(y_score=[[0.0, 0.0], [0.3, 0.7]]), "y_score's row 0 sums to 0"),
    (dict(y_score=[0.2, 1.5]), "y_score is 1-D.*outside"),
    (dict(y_score=[[0.5, 0.5], [0.3, 0.7]], pos_label=1), "pos_label=1 applies"),
])
def test_top_label_refuses_what_is_no_probability(call, match):
    with pytest.raises(ValueError, match=match):
        sce.threshold_confusion_matrices([0, 1], target="top_label", **call)


def test_target_is_checked():
    with pytest.raises(ValueError, match="target='classwise' applies to 2-D scores"):
        sce.threshold_confusion_matrices([0, 1], [0.2, 0.7], target="classwise")
    with pytest.raises((TypeError, ValueError), match="target"):
        sce.threshold_confusion_matrices([0, 1], [0.2, 0.7], target="ovr")
    y_true, y_prob, _ = _probabilities(n=30, n_classes=3, seed=5)
    np.testing.assert_array_equal(
        sce.threshold_confusion_matrices(y_true, y_prob, target="classwise").matrices,
        sce.threshold_confusion_matrices(y_true, y_prob).matrices)


def test_result_size_is_bounded():
    # 300 distinct thresholds of 30 x 31 float64 matrices: about 2.2 MiB
    y_true, y_prob, _ = _probabilities(n=300, n_classes=30, seed=6, decimals=None)
    with sce.config_context(max_matrix_mib=1):
        with pytest.raises(ValueError, match="fewer thresholds"):
            sce.threshold_confusion_matrices(y_true, y_prob, target="top_label")


# --- verbose= -----------------------------------------------------------------------------


def test_verbose_prints_the_columns_on_stderr(capsys):
    y_true, y_prob, _ = _probabilities(n=60, n_classes=3, seed=7)
    quiet = sce.threshold_confusion_matrices(y_true, y_prob)
    assert capsys.readouterr().err == ""
    loud = sce.threshold_confusion_matrices(y_true, y_prob, verbose=2)
    err = capsys.readouterr().err
    assert "threshold_confusion_matrices: column 3/3" in err
    assert err.count("\n") == 4  # a line a column, and the last one
    np.testing.assert_array_equal(loud.matrices, quiet.matrices)
    sce.threshold_confusion_matrices(y_true, y_prob, verbose=1)  # quick: silent
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("verbose", [-1, 1.5, "yes"])
def test_verbose_is_checked(verbose):
    with pytest.raises((TypeError, ValueError), match="verbose"):
        sce.threshold_confusion_matrices([0, 1], [0.2, 0.7], verbose=verbose)


def test_blocks_of_thresholds_give_the_same_matrices(monkeypatch, capsys):
    from sklearn_confusion_ext._decisions import thresholds as module

    y_true, y_prob, weights = _probabilities(n=120, n_classes=3, seed=8)
    whole = sce.threshold_confusion_matrices(y_true, y_prob, target="top_label",
                                             sample_weight=weights)
    monkeypatch.setattr(module, "_TOP_LABEL_BLOCK", 3 * 4 * 7)  # 7 thresholds a block
    blocked = sce.threshold_confusion_matrices(y_true, y_prob, target="top_label",
                                               sample_weight=weights, verbose=2)
    np.testing.assert_array_equal(blocked.matrices, whole.matrices)
    err = capsys.readouterr().err
    n = len(whole.thresholds)
    assert f"threshold {n}/{n}" in err
    assert err.count("\n") == -(-n // 7) + 1  # a line a block, and the last one
