"""threshold_confusion_matrices: the 2 x 2 matrix at every threshold of a score, against
scikit-learn's counts at its thresholds (``confusion_matrix_at_thresholds``, and the
private ``_binary_clf_curve`` of older releases) and against
:func:`sklearn.metrics.confusion_matrix` at each threshold in a loop; ties, weights
(zero weights included), given thresholds, one-vs-rest for 2-D scores, the positive
class rule and the refusals."""

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import sklearn_confusion_ext as sce


def _binary(seed, n=200, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = rng.random(n) + 0.4 * y
    if ties:  # many instances share a score
        score = np.round(score, 1)
    return y, score, rng.integers(0, 4, n).astype(float)  # zero weights among them


def _sklearn_counts(y, score, weight=None, pos_label=None):
    """scikit-learn's (tn, fp, fn, tp, thresholds) at its thresholds."""
    from sklearn import metrics

    if hasattr(metrics, "confusion_matrix_at_thresholds"):  # scikit-learn >= 1.8
        return metrics.confusion_matrix_at_thresholds(y, score, pos_label=pos_label,
                                                      sample_weight=weight)
    from sklearn.metrics._ranking import _binary_clf_curve

    fps, tps, thresholds = _binary_clf_curve(y, score, pos_label=pos_label,
                                             sample_weight=weight)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds


def _loop(y_positive, score, thresholds, weight=None):
    """The matrix at each threshold, one confusion_matrix call per threshold."""
    return np.array([confusion_matrix(y_positive, score >= t, labels=[False, True],
                                      sample_weight=weight) for t in thresholds])


@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_equals_scikit_learns_counts_at_its_thresholds(seed, weighted, ties):
    y, score, weight = _binary(seed, ties=ties)
    weight = weight if weighted else None
    result = sce.threshold_confusion_matrices(y, score, sample_weight=weight)
    tns, fps, fns, tps, thresholds = _sklearn_counts(y, score, weight)
    np.testing.assert_array_equal(result.thresholds, thresholds)
    for ours, theirs in zip((result.tn, result.fp, result.fn, result.tp),
                            (tns, fps, fns, tps)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-9)
    assert result.matrices.dtype == (np.float64 if weighted else np.int64)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_equals_confusion_matrix_at_each_threshold(seed, weighted):
    y, score, weight = _binary(seed, n=60)
    weight = weight if weighted else None
    result = sce.threshold_confusion_matrices(y, score, sample_weight=weight)
    np.testing.assert_allclose(result.matrices, _loop(y == 1, score, result.thresholds,
                                                      weight), rtol=1e-12, atol=1e-9)
    # the distinct scores of nonzero weight, decreasing: where a matrix changes
    kept = score if weight is None else score[weight > 0]
    np.testing.assert_array_equal(result.thresholds, np.unique(kept)[::-1])


@pytest.mark.parametrize("weighted", [False, True])
def test_given_thresholds_in_their_order(weighted):
    y, score, weight = _binary(5, n=80)
    weight = weight if weighted else None
    # on scores, between them, beyond them and unsorted
    thresholds = [0.5, -np.inf, np.inf, 0.55, score.max(), score.min(), 10.0, -3.0, 0.5]
    result = sce.threshold_confusion_matrices(y, score, thresholds=thresholds,
                                              sample_weight=weight)
    np.testing.assert_array_equal(result.thresholds, thresholds)
    np.testing.assert_allclose(result.matrices, _loop(y == 1, score, thresholds, weight),
                               rtol=1e-12, atol=1e-9)
    everything = result.matrices[1]  # -inf: every instance positive
    assert everything[0, 0] == everything[1, 0] == 0
    nothing = result.matrices[2]  # inf: none
    assert nothing[0, 1] == nothing[1, 1] == 0


def test_one_threshold_is_the_matrix_of_predictions():
    y, score, _ = _binary(6, n=50)
    result = sce.threshold_confusion_matrices(y, score, thresholds=[0.7])
    np.testing.assert_array_equal(result.matrices[0], confusion_matrix(y, score >= 0.7))


def test_all_tied_scores_give_one_threshold():
    result = sce.threshold_confusion_matrices([0, 1, 1, 0, 1], [0.3] * 5)
    assert result.thresholds.tolist() == [0.3]
    assert result.matrices.tolist() == [[[0, 2], [0, 3]]]


@pytest.mark.parametrize("weighted", [False, True])
def test_multiclass_is_one_versus_rest_on_one_grid(weighted):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 90)
    proba = np.round(rng.dirichlet(np.ones(3), 90), 2)  # ties within and across columns
    weight = rng.integers(0, 3, 90).astype(float) if weighted else None
    result = sce.threshold_confusion_matrices(y, proba, sample_weight=weight)
    kept = proba if weight is None else proba[weight > 0]
    np.testing.assert_array_equal(result.thresholds, np.unique(kept)[::-1])
    assert result.matrices.shape == (3, len(result.thresholds), 2, 2)
    assert result.classes.tolist() == [0, 1, 2] and result.pos_label is None
    for k in range(3):
        np.testing.assert_allclose(result.matrices[k],
                                   _loop(y == k, proba[:, k], result.thresholds, weight),
                                   rtol=1e-12, atol=1e-9)
        # each class's own binary matrices, on the common grid
        own = sce.threshold_confusion_matrices(y == k, proba[:, k], sample_weight=weight,
                                               thresholds=result.thresholds)
        np.testing.assert_allclose(result.matrices[k], own.matrices)
    frame = result.to_frame()
    assert len(frame) == 3 * len(result.thresholds)
    assert frame["class"].tolist() == np.repeat([0, 1, 2], len(result.thresholds)).tolist()
    np.testing.assert_allclose(frame["tp"], result.tp.ravel())


def test_columns_are_the_sorted_classes():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 40)
    proba = rng.dirichlet(np.ones(3), 40)
    names = np.array(["ant", "bee", "cat"])
    by_name = sce.threshold_confusion_matrices(names[y], proba, labels=names,
                                               thresholds=[0.2, 0.6])
    plain = sce.threshold_confusion_matrices(y, proba, thresholds=[0.2, 0.6])
    np.testing.assert_array_equal(by_name.matrices, plain.matrices)
    assert by_name.classes.tolist() == ["ant", "bee", "cat"]
    with pytest.raises(ValueError, match="selects or reorders the columns of y_score"):
        sce.threshold_confusion_matrices(names[y], proba[:, [2, 0, 1]], labels=names[[2, 0, 1]])
    # a class absent from y_true, named by labels: no positives
    absent = sce.threshold_confusion_matrices(y[y < 2], proba[y < 2], labels=[0, 1, 2],
                                              thresholds=[0.5])
    assert absent.matrices[2, 0, 1].sum() == 0


def test_positive_class_as_scikit_learn_chooses_it():
    y, score, _ = _binary(9, n=40)
    named = np.array(["no", "yes"])[y]
    with pytest.raises(ValueError, match="pos_label is not specified"):
        sce.threshold_confusion_matrices(named, score)
    result = sce.threshold_confusion_matrices(named, score, pos_label="yes")
    np.testing.assert_array_equal(result.matrices,
                                  sce.threshold_confusion_matrices(y, score).matrices)
    assert result.pos_label == "yes" and result.classes is None
    flipped = sce.threshold_confusion_matrices(named, score, pos_label="no")
    tns, fps, fns, tps, _ = _sklearn_counts(named, score, pos_label="no")
    np.testing.assert_array_equal(flipped.tp, tps)
    signed = sce.threshold_confusion_matrices(2 * y - 1, score)  # {-1, 1}: 1 positive
    np.testing.assert_array_equal(signed.matrices, result.matrices)
    with pytest.raises(ValueError, match="pos_label='maybe' is not a class of y_true"):
        sce.threshold_confusion_matrices(named, score, pos_label="maybe")
    # one class present: every instance negative, as one fold of a cross-validation gives
    only = sce.threshold_confusion_matrices(np.zeros(5, dtype=int), [0.1, 0.2, 0.3, 0.4, 0.5])
    assert only.tp.sum() == 0 and only.fp.tolist() == [1, 2, 3, 4, 5]
    assert sce.threshold_confusion_matrices(["a", "a"], [0.1, 0.2], labels=["a", "b"],
                                            pos_label="b").tp.tolist() == [0, 0]
    assert only.pos_label == 1  # scikit-learn's positive class, absent from this fold


def test_labels_beside_a_1d_score_do_not_name_the_positive_class():
    # As roc_curve: the positive class is 1 of {0, 1} (or pos_label) whatever the order
    # of labels=, which names the classes only (the calibration functions, whose 1-D
    # y_prob is labels[-1]'s probability, read it otherwise).
    y, score, _ = _binary(11, n=30)
    by_default = sce.threshold_confusion_matrices(y, score)
    for labels in ([0, 1], [1, 0]):
        result = sce.threshold_confusion_matrices(y, score, labels=labels)
        np.testing.assert_array_equal(result.matrices, by_default.matrices)
        assert result.pos_label == 1
    with pytest.raises(ValueError, match="pos_label is not specified"):
        sce.threshold_confusion_matrices(np.array(["a", "b"])[y], score, labels=["a", "b"])


def test_weights_are_repeated_rows_and_ones_are_no_weights():
    y, score, weight = _binary(10, n=50)
    repeated = sce.threshold_confusion_matrices(np.repeat(y, weight.astype(int)),
                                                np.repeat(score, weight.astype(int)))
    weighted = sce.threshold_confusion_matrices(y, score, sample_weight=weight)
    np.testing.assert_array_equal(weighted.thresholds, repeated.thresholds)
    np.testing.assert_allclose(weighted.matrices, repeated.matrices)
    ones = sce.threshold_confusion_matrices(y, score, sample_weight=np.ones(len(y)))
    np.testing.assert_array_equal(ones.matrices, sce.threshold_confusion_matrices(
        y, score).matrices)


def test_sample_order_does_not_matter():
    y, score, weight = _binary(11, n=70)
    order = np.random.default_rng(0).permutation(len(y))
    a = sce.threshold_confusion_matrices(y, score, sample_weight=weight)
    b = sce.threshold_confusion_matrices(y[order], score[order], sample_weight=weight[order])
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_allclose(a.matrices, b.matrices, rtol=1e-12)


def test_frame_and_repr():
    result = sce.threshold_confusion_matrices([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    frame = result.to_frame()
    assert frame.index.name == "threshold" and list(frame.columns) == ["tn", "fp", "fn", "tp"]
    assert frame.loc[0.4].tolist() == [1, 1, 1, 1]
    assert repr(result).startswith("ThresholdConfusionResult(pos_label=1, n_thresholds=4)")
    with pytest.raises(TypeError, match="does not unpack"):
        iter(result)


@pytest.mark.parametrize("y_score, message", [
    ([0.1, np.nan, 0.3, 0.4], r"y_score contains nan \(first at row 1\)"),
    ([0.1, 0.2, np.inf, 0.4], r"y_score contains infinity \(first at row 2\)"),
    (["a", "b", "c", "d"], "y_score must hold numbers"),
    ([0.1, None, 0.3, 0.4], r"y_score contains nan \(first at row 1\)"),  # missing
    ([0.1, "x", 0.3, 0.4], "y_score must hold numbers.*strings among them"),
    ([0.1, 0.2, 0.3], "same number of samples"),
    (np.zeros((4, 2, 2)), "y_score must be 1-D or 2-D"),
    ([0.1, 0.2, 0.3, 1j], "y_score has complex values"),
])
def test_bad_scores_are_refused_naming_y_score(y_score, message):
    with pytest.raises(ValueError, match=message):
        sce.threshold_confusion_matrices([0, 1, 0, 1], y_score)


def test_bad_calls_are_refused():
    with pytest.raises(ValueError, match="y_true holds 3 classes"):
        sce.threshold_confusion_matrices([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="thresholds holds NaN"):
        sce.threshold_confusion_matrices([0, 1], [0.1, 0.2], thresholds=[0.5, np.nan])
    with pytest.raises(ValueError, match="thresholds must be a non-empty 1-D array"):
        sce.threshold_confusion_matrices([0, 1], [0.1, 0.2], thresholds=[["a"]])
    with pytest.raises(ValueError, match="pos_label=1 applies to 1-D scores"):
        sce.threshold_confusion_matrices([0, 1], [[0.9, 0.1], [0.2, 0.8]], pos_label=1)
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        sce.threshold_confusion_matrices([0, 1], [0.1, 0.2], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="y_true must be 1-D class labels"):
        sce.threshold_confusion_matrices([[0, 1], [1, 0]], [[0.9, 0.1], [0.2, 0.8]])
    with pytest.raises(ValueError, match="y_true holds 2 distinct class label"):
        sce.threshold_confusion_matrices([0, 1], np.full((2, 3), 1 / 3))
    with pytest.raises(ValueError, match="sample_weight has 1 entries"):
        sce.threshold_confusion_matrices([0, 1], [0.1, 0.2], sample_weight=[1.0])


def test_the_grid_of_many_columns_is_refused_beyond_the_budget():
    rng = np.random.default_rng(12)
    proba = rng.dirichlet(np.ones(30), 2000)
    y = rng.integers(0, 30, 2000)
    y[:30] = np.arange(30)
    with sce.config_context(max_matrix_mib=1):
        with pytest.raises(ValueError, match="max_matrix_mib=1 MiB.*thresholds="):
            sce.threshold_confusion_matrices(y, proba)
        small = sce.threshold_confusion_matrices(y, proba, thresholds=np.linspace(0, 1, 11))
    assert small.matrices.shape == (30, 11, 2, 2)


# --- Hostile inputs: the registry's generators (tests/registry/test_fuzz.py) -------------


def hostile_cases(name, score_name):
    """(targets, label) pairs of hostile inputs for ``name``: each value corruption and
    shape of the fuzz suite on ``y_true`` and on the scores, each corrupted weight."""
    from test_fuzz import VALUE_CORRUPTIONS, WEIGHT_CORRUPTIONS

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 12)
    y[:3] = [0, 1, 2]
    proba = rng.dirichlet(np.ones(3), 12)
    cases = []
    for corruption, corrupt in sorted(VALUE_CORRUPTIONS.items()):
        for at in (0, 5, 11):
            for target in ("y_true", score_name):
                inputs = {"y_true": y, score_name: proba}
                inputs[target] = corrupt(inputs[target], at)
                cases.append(pytest.param(inputs, (target,),
                                          id=f"{target}-{corruption}-{at}"))
    for corruption, weights in sorted(WEIGHT_CORRUPTIONS.items()):
        cases.append(pytest.param({"y_true": y, score_name: proba,
                                   "sample_weight": weights(12)}, ("sample_weight",),
                                  id=f"sample_weight-{corruption}"))
    cases.append(pytest.param({"y_true": y[:0], score_name: proba[:0]},
                              ("y_true", score_name), id="empty"))
    return cases


def assert_refused_naming(function, inputs, named):
    """A ValueError or TypeError naming one of ``named``, with no NumPy warning."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises((ValueError, TypeError)) as caught:
            function(**inputs)
    assert any(name in str(caught.value) for name in named), str(caught.value)


@pytest.mark.parametrize("inputs, named", hostile_cases("threshold_confusion_matrices",
                                                        "y_score"))
def test_hostile_inputs_are_refused_naming_the_argument(inputs, named):
    assert_refused_naming(sce.threshold_confusion_matrices, inputs, named)


@pytest.mark.parametrize("exponent", [-320, -300, -150, 150, 300, 307])
def test_scores_and_weights_from_subnormal_to_near_overflow(exponent):
    import warnings

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 30)
    score = rng.normal(size=30) * 10.0 ** exponent
    weight = np.full(30, 10.0 ** max(exponent, -300))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            result = sce.threshold_confusion_matrices(y, score, sample_weight=weight)
        except ValueError as error:
            assert "sample_weight" in str(error)
            return
    assert np.isfinite(result.matrices).all() and np.isfinite(result.thresholds).all()
    order = np.argsort(-result.thresholds)
    np.testing.assert_array_equal(order, np.arange(len(order)))


def test_distinct_thresholds_print_distinctly():
    """Issue 39: nine thresholds near 1 all printed '1.0'. The threshold column takes one
    format (as pandas writes a column) with the decimals that tell distinct values apart;
    an ordinary grid keeps four significant digits; repeated thresholds (one per class)
    stay repeated."""
    from sklearn_confusion_ext import threshold_confusion_matrices

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    scores = rng.random(200)
    near_one = np.r_[0.5, 1 - np.logspace(-2, -6, 9)]
    result = threshold_confusion_matrices(y, scores, thresholds=near_one)
    shown = [line.split()[0] for line in repr(result).splitlines()[2:]]
    assert len(set(shown)) == 10 and "1.0" not in shown and shown[0] == "0.500000"
    html = result._repr_html_()
    assert all(html.count(f"<th>{text}</th>") == 1 for text in shown)
    lines = repr(threshold_confusion_matrices(y, scores, thresholds=[0.25, 0.5, 0.75]))
    assert [line.split()[0] for line in lines.splitlines()[2:]] == ["0.25", "0.50", "0.75"]
    tiny = repr(threshold_confusion_matrices(y, scores,
                                             thresholds=[1e-9, 2e-9, 2.0000001e-9]))
    assert [line.split()[0] for line in tiny.splitlines()[2:]] == [
        "1.0000000e-09", "2.0000000e-09", "2.0000001e-09"]
    two = repr(threshold_confusion_matrices(y, np.c_[1 - scores, scores],
                                            thresholds=near_one[-3:]))
    assert [line.split()[0] for line in two.splitlines()[2:]] == [
        "0.999990", "0.999997", "0.999999"] * 2
