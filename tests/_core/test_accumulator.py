"""Streaming accumulation equals the one-shot functions."""

import functools
import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from kinds import CASES, one_shot, random_batches, random_targets
from sklearn.metrics import confusion_matrix

from sklearn_confusion_ext import (
    ConfusionAccumulator,
    mlcm,
    multilabel_confusion_tensor,
    subpixel_confusion_matrix,
    transport_confusion_matrix,
)
from sklearn_confusion_ext._core.kinds import KINDS


@pytest.mark.parametrize("kind, form, params", CASES)
def test_batches_equal_the_one_shot_function(rng, kind, form, params):
    y_true, y_pred = random_targets(rng, form)
    weights = rng.random(len(y_true))
    labels = ["dog", "ant", "emu"] if form == "labels" else [3, 0]
    for chosen in (None, labels):
        accumulator = ConfusionAccumulator(kind, labels=chosen, **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns per batch
            for rows in random_batches(rng, len(y_true)):
                accumulator.update(y_true[rows], y_pred[rows], sample_weight=weights[rows])
            expected = one_shot(kind, y_true, y_pred, weights, chosen, params)
        np.testing.assert_allclose(accumulator.result(), expected, atol=1e-10)
        assert accumulator.n_samples_ == len(y_true)


def test_merge_pickle_reset_and_normalize(rng):
    y_true, y_pred = random_targets(rng, "indicator", 200)
    left, right = ConfusionAccumulator("transport"), ConfusionAccumulator("transport")
    left.update(y_true[:80], y_pred[:80])
    left = pickle.loads(pickle.dumps(left))  # mid-stream round trip
    right.update(sp.csr_array(y_true[80:]), sp.csr_array(y_pred[80:]))
    merged = left + right
    np.testing.assert_allclose(merged.result(normalize="true"),
                               transport_confusion_matrix(y_true, y_pred, normalize="true"))
    assert left.n_samples_ == 80 and merged.n_samples_ == 200
    left.merge(right)
    np.testing.assert_allclose(left.result(), merged.result())
    left.reset()
    with pytest.raises(ValueError, match="no batch yet"):
        left.result()


def test_new_classes_in_later_batches_and_mismatches():
    accumulator = ConfusionAccumulator("classic")
    accumulator.update(["b", "a"], ["a", "a"])
    accumulator.update(["c", "b"], ["c", "d"])
    np.testing.assert_array_equal(accumulator.result(),
                                  confusion_matrix(["b", "a", "c", "b"], ["a", "a", "c", "d"]))
    with pytest.raises(ValueError, match="mix strings and numbers"):
        accumulator.update([1, 2], [1, 2])
    mixed = ConfusionAccumulator("transport")
    mixed.update([0, 1], [1, 1])
    with pytest.raises(ValueError, match="mixes 1-D class labels and 2-D"):
        mixed.update([[1, 0]], [[1, 0]])
    wide = ConfusionAccumulator("mlcm")
    wide.update([[1, 0, 1]], [[1, 1, 0]])
    with pytest.raises(ValueError, match="the previous batches had 3"):
        wide.update([[1, 0]], [[1, 0]])
    with pytest.raises(ValueError, match="n_classes=4"):
        ConfusionAccumulator("mlcm", n_classes=4).update([[1, 0, 1]], [[1, 1, 0]])
    with pytest.raises(ValueError, match="kind='classic' takes 1-D"):
        ConfusionAccumulator("classic").update([[1, 0]], [[1, 0]])
    with pytest.raises(TypeError, match="ConfusionAccumulator.kind='mlcm'. got an unexpected "
                                        "keyword argument 'weighting'; it takes no keyword"):
        ConfusionAccumulator("mlcm", weighting="true")
    with pytest.raises(ValueError, match="'weighting' parameter of ConfusionAccumulator"):
        ConfusionAccumulator("transport", weighting="bogus")
    with pytest.raises(TypeError, match="'unique' parameter"):
        ConfusionAccumulator("mlct", unique="no")
    with pytest.raises(ValueError, match="'kind' parameter"):
        ConfusionAccumulator("tensor")
    with pytest.raises(ValueError, match="same kind"):
        ConfusionAccumulator("mlcm").merge(ConfusionAccumulator("mlct"))


@pytest.mark.parametrize("labels, batches, match", [
    (["z"], [(["a"], ["z"]), (["b"], ["b"])], r"None of labels \['z'\] appear in y_true"),
    (["a", "a"], [(["a"], ["b"])], "labels must be unique"),
    ([1], [(["a"], ["b"])], r"labels holds numbers \(\[1\]\) but the targets hold strings"),
    ([3], [([[1, 0]], [[0, 1]])], r"labels must be column indices in \[0, 2\)"),
])
def test_labels_are_checked_as_the_one_shot_functions_check_them(labels, batches, match):
    all_true = [row for y_true, _ in batches for row in y_true]
    all_pred = [row for _, y_pred in batches for row in y_pred]
    with pytest.raises(ValueError, match=match):
        transport_confusion_matrix(all_true, all_pred, labels=labels)
    if len(set(map(str, labels))) < len(labels):  # the list alone is wrong: refused at once
        with pytest.raises(ValueError, match=match):
            ConfusionAccumulator("transport", labels=labels)
        return
    merged = ConfusionAccumulator("transport", labels=labels)
    for y_true, y_pred in batches:  # one accumulator per batch, merged as workers would
        part = ConfusionAccumulator("transport", labels=labels)
        part.update(y_true, y_pred)
        merged.merge(part)
    with pytest.raises(ValueError, match=match):
        merged.result()


@pytest.mark.parametrize("n_jobs, chunk_size", [(1, None), (2, 7), (-1, 50), (None, 1)])
def test_n_jobs_and_chunk_size_do_not_change_results(rng, n_jobs, chunk_size):
    y_true, y_pred = rng.random((300, 5)), rng.random((300, 5))
    binary_true, binary_pred = (y_true < 0.3).astype(int), (y_pred < 0.3).astype(int)
    options = {"n_jobs": n_jobs, "chunk_size": chunk_size}
    np.testing.assert_allclose(transport_confusion_matrix(y_true, y_pred, **options),
                               transport_confusion_matrix(y_true, y_pred), rtol=1e-12)
    np.testing.assert_allclose(subpixel_confusion_matrix(y_true, y_pred, **options),
                               subpixel_confusion_matrix(y_true, y_pred), rtol=1e-12)
    np.testing.assert_array_equal(mlcm(binary_true, binary_pred, **options),
                                  mlcm(binary_true, binary_pred))
    np.testing.assert_allclose(multilabel_confusion_tensor(binary_true, binary_pred, **options),
                               multilabel_confusion_tensor(binary_true, binary_pred),
                               rtol=1e-12)


@pytest.mark.parametrize("options, error, match", [
    ({"n_jobs": 0}, ValueError, "'n_jobs' parameter"),
    ({"n_jobs": 1.5}, TypeError, "'n_jobs' parameter"),
    ({"chunk_size": 0}, ValueError, "'chunk_size' parameter"),
    ({"chunk_size": -5}, ValueError, "'chunk_size' parameter"),
])
def test_bad_parallelism_parameters(options, error, match):
    with pytest.raises(error, match=match):
        transport_confusion_matrix([0, 1], [0, 1], **options)
    with pytest.raises(error, match=match):
        mlcm([[1, 0]], [[1, 0]], **options)
    with pytest.raises(error, match=match):
        ConfusionAccumulator("mlcm", **options)


@pytest.mark.parametrize("kind, form, params", CASES)
def test_derived_scores_accept_the_result(rng, kind, form, params):
    """Precision/recall/F, the measures and the tests read ``result()`` as the one-shot."""
    from sklearn_confusion_ext import (
        generalized_means_from_confusion,
        mlcm_precision_recall_fscore_support,
        precision_recall_fscore_support_from_confusion,
        stuart_maxwell_test,
        transport_precision_recall_fscore_support,
    )

    y_true, y_pred = random_targets(rng, form)
    weights = rng.random(len(y_true))
    accumulator = ConfusionAccumulator(kind, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty="skip" warns
        for rows in random_batches(rng, len(y_true)):
            accumulator.update(y_true[rows], y_pred[rows], sample_weight=weights[rows])
        matrix = accumulator.result()
        if kind == "subpixel":
            matrix = matrix[1]
        elif kind == "mlct":
            matrix = matrix[0]
        none_class = accumulator.confusions()[0].has_none  # a last "none" row?
        assert none_class == (kind.startswith("mlc") or (  # only 0/1 y_true can be empty
            form == "indicator" and params.get("empty") != "skip"))
        one_shot_scores = {"transport": transport_precision_recall_fscore_support,
                           "classic": transport_precision_recall_fscore_support,
                           "mlcm": mlcm_precision_recall_fscore_support}.get(kind)
        labels = ["cat", "ant"] if form == "labels" else [2, 0]
        positions = [2, 0]  # "cat" and "ant" are rows 2 and 0 of the sorted classes
        for average in (None, "macro", "micro"):
            got = precision_recall_fscore_support_from_confusion(
                matrix, labels=positions, average=average, none_class=none_class)
            if one_shot_scores is not None:
                expected = one_shot_scores(y_true, y_pred, labels=labels, average=average,
                                           sample_weight=weights, **params)
                for value, reference in zip(got[:3], expected[:3]):
                    np.testing.assert_allclose(value, reference, atol=1e-12)
    # The measures and the statistics take the same matrix.
    square = matrix if not none_class else matrix[:-1, :-1]
    assert np.isfinite(generalized_means_from_confusion(square, r=1, average="macro"))
    if kind == "classic":
        expected = confusion_matrix(y_true, y_pred, sample_weight=weights)
        assert stuart_maxwell_test(np.round(matrix)).statistic == pytest.approx(
            stuart_maxwell_test(np.round(expected)).statistic)
        assert generalized_means_from_confusion(matrix, r=0, average="macro") == pytest.approx(
            generalized_means_from_confusion(expected, r=0, average="macro"))


def test_reading_the_sums_changes_nothing():
    accumulator = ConfusionAccumulator("transport", labels=["cat", "zebra"])
    accumulator.update(["cat", "dog"], ["dog", "dog"])
    first = [c.matrix.copy() for c in accumulator.confusions()]
    assert accumulator.confusions()[0].display_labels == ["cat", "dog", "zebra"]
    again = accumulator.confusions()
    np.testing.assert_array_equal(again[0].matrix, first[0])
    # The label asked for but never seen was added to the copy read, not to the sums.
    accumulator.update(["zebra"], ["cat"])
    np.testing.assert_array_equal(accumulator.result(),
                                  transport_confusion_matrix(["cat", "dog", "zebra"],
                                                             ["dog", "dog", "cat"],
                                                             labels=["cat", "zebra"]))


def test_every_registered_kind_is_a_kind_option():
    from declarations import DECLARATIONS

    from sklearn_confusion_ext._core.kinds import KINDS
    from sklearn_confusion_ext._core.params import options_of

    assert set(options_of(DECLARATIONS["ConfusionAccumulator"], "kind")) == set(KINDS)
    for kind in KINDS.values():  # a kind's parameters are its one-shot function's
        assert set(kind.parameters) <= set(DECLARATIONS[kind.function])


def _row_count(y_true, y_pred):
    return np.ones(y_true.shape[0])


class _Scaled:
    """A callable weighting object of a module-level class: it pickles by value."""

    def __init__(self, scale):
        self.scale = scale

    def __call__(self, y_true, y_pred):
        return self.scale * np.ones(y_true.shape[0])

    def weight(self, y_true, y_pred, scale=None):
        return self(y_true, y_pred) * (1.0 if scale is None else float(np.sum(scale)))


def _scaled(y_true, y_pred, scale=1.0):
    return np.sum(scale) * np.ones(y_true.shape[0])


# Weightings written in every way a user writes one, each beside one that differs.
WEIGHTINGS = {
    "module function": (lambda: _row_count, lambda: _scaled),
    "lambda": (lambda: (lambda t, p: np.ones(t.shape[0])),
               lambda: (lambda t, p: np.ones(t.shape[0]))),
    "callable object": (lambda: _Scaled(1.0), lambda: _Scaled(100.0)),
    "bound method": (lambda: _Scaled(1.0).weight, lambda: _Scaled(100.0).weight),
    "partial with an array": (lambda: functools.partial(_scaled, scale=np.ones(2)),
                              lambda: functools.partial(_scaled, scale=np.full(2, 3.0))),
    "bound partial": (lambda: functools.partial(_Scaled(2.0).weight, scale=[1, 2]),
                      lambda: functools.partial(_Scaled(2.0).weight, scale=[1, 3])),
}


@pytest.mark.parametrize("form", WEIGHTINGS)
def test_pickled_copies_merge_and_different_weightings_never_do(rng, form):
    cloudpickle = pytest.importorskip("cloudpickle")
    y_true, y_pred = random_targets(rng, "soft", 40)
    same, other = WEIGHTINGS[form]
    weighting = same()
    accumulator = ConfusionAccumulator("transport", weighting=weighting)
    accumulator.update(y_true[:25], y_pred[:25])
    dumps = [cloudpickle.dumps] + ([pickle.dumps] if form != "lambda" else [])
    for dump in dumps:  # a worker's copy, then its own batch: the total of all batches
        copy = pickle.loads(dump(accumulator)).update(y_true[25:], y_pred[25:])
        for total in (accumulator + copy, copy + accumulator):
            np.testing.assert_allclose(total.result(), transport_confusion_matrix(
                np.vstack([y_true, y_true[:25]]), np.vstack([y_pred, y_pred[:25]]),
                weighting=weighting))
    # The same weighting object given twice is the same parameter.
    ConfusionAccumulator("transport", weighting=weighting).merge(accumulator)
    different = ConfusionAccumulator("transport", weighting=other())
    for left, right in ((accumulator, different), (different, accumulator)):
        with pytest.raises(ValueError, match="same kind and parameters.*differ in weighting"):
            left.merge(right)
    if form != "lambda":  # written again, the weighting is still the same (by value)
        ConfusionAccumulator("transport", weighting=same()).merge(accumulator)


def test_weightings_that_differ_from_the_default_never_merge_with_it():
    with pytest.raises(ValueError, match="differ in weighting"):
        ConfusionAccumulator("transport").merge(
            ConfusionAccumulator("transport", weighting="true"))
    with pytest.raises(ValueError, match="differ in kind 'mlcm' here, 'mlct' in other"):
        ConfusionAccumulator("mlcm").merge(ConfusionAccumulator("mlct"))


def test_update_returns_the_accumulator_for_chaining():
    from sklearn_confusion_ext import ConfusionAccumulator, transport_confusion_matrix

    accumulator = ConfusionAccumulator()
    assert accumulator.update([0, 1], [0, 0]) is accumulator
    np.testing.assert_array_equal(
        ConfusionAccumulator().update([0, 1], [0, 0]).update([1], [1]).result(),
        transport_confusion_matrix([0, 1, 1], [0, 0, 1]))


def _trees(leaves):
    """Every binary merge tree over ``leaves`` in this order (nested pairs)."""
    if len(leaves) == 1:
        yield leaves[0]
        return
    for cut in range(1, len(leaves)):
        for left in _trees(leaves[:cut]):
            for right in _trees(leaves[cut:]):
                yield (left, right)


def _merged(tree):
    if isinstance(tree, tuple):
        return _merged(tree[0]) + _merged(tree[1])
    return tree


@pytest.mark.parametrize("kind, form, params", CASES)
def test_merge_trees_of_every_shape_and_order_equal_the_one_shot_result(rng, kind, form,
                                                                        params):
    import itertools

    y_true, y_pred = random_targets(rng, form, 60)
    weights = rng.random(len(y_true))
    labels = ["dog", "ant", "emu"] if form == "labels" else [3, 0]
    pieces = np.split(np.arange(60), [9, 10, 37])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # empty="skip" warns
        expected = one_shot(kind, y_true, y_pred, weights, labels, params)
        parts = [ConfusionAccumulator(kind, labels=labels, **params).update(
            y_true[rows], y_pred[rows], sample_weight=weights[rows]) for rows in pieces]
    n_trees = 0
    for order in itertools.permutations(parts):
        for tree in _trees(list(order)):
            total = _merged(tree)
            np.testing.assert_allclose(total.result(), expected, atol=1e-10)
            assert total.n_samples_ == 60
            n_trees += 1
    assert n_trees == 24 * 5
    for part, rows in zip(parts, pieces):  # merging left every part as it was
        assert part.n_samples_ == len(rows)


@pytest.mark.parametrize("kind, form, params",
                         [case for case in CASES if case[1] == "labels"])
@pytest.mark.parametrize("categorical", [False, True])
def test_merged_into_an_empty_accumulator_the_classes_keep_the_one_shot_order(
        rng, kind, form, params, categorical):
    """Without labels=, the classes of a merge tree are ordered as the one-shot function
    orders them (sorted; a categorical's in its categories' order), also where the first
    batches lack the first classes: an accumulator's classes are in the order its
    batches met them, and merged into an empty one they were taken for a categorical's
    order (the matrix came back in the order bee, cat, dog, ant)."""
    import pandas as pd

    y_true, y_pred = random_targets(rng, form, 60)
    late = (y_true == "ant") | (y_pred == "ant")  # the first batches never meet "ant"
    order = np.concatenate([np.flatnonzero(~late), np.flatnonzero(late)])
    y_true, y_pred = y_true[order], y_pred[order]
    if categorical:
        categories = ["dog", "ant", "emu", "bee", "cat"]
        y_true, y_pred = (pd.Categorical(y, categories=categories) for y in (y_true, y_pred))
    whole = ConfusionAccumulator(kind, **params).update(y_true, y_pred)
    if categorical:  # the categories that occur ("emu" does not), in their order
        assert whole.classes_.tolist() == ["dog", "ant", "bee", "cat"]
    else:
        assert whole.classes_.tolist() == ["ant", "bee", "cat", "dog"]
        np.testing.assert_allclose(whole.result(),
                                   one_shot(kind, y_true, y_pred, None, None, params))
    # two accumulators, each of a batch without "ant" and then one with it
    halves = [np.arange(0, 20), np.arange(40, 50), np.arange(20, 40), np.arange(50, 60)]
    first, second = (ConfusionAccumulator(kind, **params).update(
        y_true[a], y_pred[a]).update(y_true[b], y_pred[b])
        for a, b in (halves[:2], halves[2:]))
    empty = functools.partial(ConfusionAccumulator, kind, **params)
    for total in (first + second, second + first, empty().merge(first).merge(second),
                  empty().merge(second).merge(first), empty().merge(first + second),
                  empty() + first + second):
        assert total.classes_.tolist() == whole.classes_.tolist()
        np.testing.assert_allclose(total.result(), whole.result(), atol=1e-12)


@pytest.mark.parametrize("left, right, match", [
    ({"labels": [0, 1]}, {"labels": [0, 1, 2]}, r"labels \[0, 1\] here, \[0, 1, 2\] in other"),
    ({"labels": [0, 1]}, {}, r"labels \[0, 1\] here, None in other"),
    ({"labels": [1, 0]}, {"labels": [0, 1]}, "differ in labels"),
    ({"n_classes": 3}, {}, "n_classes 3 here, None in other"),
])
def test_accumulators_of_other_labels_never_merge_in_either_order(left, right, match):
    kind = "transport" if "n_classes" in left else "classic"  # classic takes no n_classes
    a = ConfusionAccumulator(kind, **left).update([0], [0])
    b = ConfusionAccumulator(kind, **right).update([2], [2])
    with pytest.raises(ValueError, match=match):
        a + b
    with pytest.raises(ValueError, match="differ in"):
        b + a
    with pytest.raises(ValueError, match="differ in"):
        b.merge(a)
    assert b.n_samples_ == 1
    # The same labels, given as another sequence type, are the same.
    same = ConfusionAccumulator("classic", labels=np.array([0, 1, 2])).update([1], [1])
    total = ConfusionAccumulator("classic", labels=range(3)).update([2], [2]) + same
    np.testing.assert_array_equal(total.result(), np.diag([0.0, 1.0, 1.0]))


def test_target_kind_declared_or_decided_by_the_whole_stream():
    one_hot, soft = np.array([[1, 0], [0, 1]]), np.array([[0.25, 0.75], [0.5, 0.5]])
    empty = np.array([[0, 0], [1, 0]])
    # Declared soft: a batch of 0/1 values is soft labels, its rows of zeros are refused.
    declared = ConfusionAccumulator("transport", target_kind="soft").update(one_hot, soft)
    np.testing.assert_allclose(declared.result(),
                               transport_confusion_matrix(one_hot, soft)[:2, :2])
    with pytest.raises(ValueError, match="all-zero rows in y_true"):
        declared.update(empty, one_hot)
    with pytest.raises(ValueError, match="target_kind='soft' declares 2-D y_true"):
        declared.update([0, 1], [0, 1])
    assert declared.n_samples_ == 2
    # Undeclared: indicators until a batch of soft labels comes, then soft labels.
    stream = ConfusionAccumulator("transport").update(one_hot, one_hot)
    assert stream.result().shape == (3, 3)  # 0/1 indicators so far: a "none" class
    stream.update(soft, soft).update(one_hot, soft)
    np.testing.assert_allclose(stream.result(), transport_confusion_matrix(
        np.vstack([one_hot, soft, one_hot]), np.vstack([one_hot, soft, soft])))
    counted = ConfusionAccumulator("transport").update(empty, one_hot)
    with pytest.raises(ValueError, match="counted instances with no class"):
        counted.update(soft, soft)
    with pytest.raises(ValueError, match="'target_kind' parameter"):
        ConfusionAccumulator("transport", target_kind="labels")
    with pytest.raises(ValueError, match="differ in target_kind 'soft' here, None in other"):
        declared.merge(stream)


def test_batches_of_categoricals_and_named_frames_keep_their_classes():
    pd = pytest.importorskip("pandas")
    levels = pd.CategoricalDtype(["low", "medium", "high", "unused"], ordered=True)
    true = pd.Series(["high", "low", "medium", "low"], dtype=levels)
    pred = pd.Series(["low", "low", "high", "medium"], dtype=levels)
    accumulator = ConfusionAccumulator("classic")
    for rows in (slice(0, 1), slice(1, 4)):
        accumulator.update(true[rows], pred[rows])
    np.testing.assert_array_equal(accumulator.result(), transport_confusion_matrix(true, pred))
    frame = pd.DataFrame([[1, 0, 1], [0, 1, 0], [1, 1, 0]], columns=["cat", "dog", "fox"])
    shuffled = frame[["fox", "cat", "dog"]]
    for labels in (None, ["fox", "cat"]):
        named = ConfusionAccumulator("mlcm", labels=labels)
        named.update(frame[:1], shuffled[:1]).update(frame[1:], shuffled[1:])
        np.testing.assert_array_equal(named.result(), mlcm(frame, shuffled, labels=labels))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_accumulators_beyond_the_memory_budget_are_refused_when_built(kind):
    from sklearn_confusion_ext import config_context

    n_matrices = KINDS[kind].n_matrices
    fits = 250 if n_matrices == 1 else 170  # 0.48 / 0.44 MiB, below the 1 MiB budget
    two_dimensional = bool(KINDS[kind].target_kinds)  # n_classes: the width of 2-D targets
    with config_context(max_matrix_mib=1):
        for options in ({"labels": range(400)}, {"n_classes": 400})[:1 + two_dimensional]:
            with pytest.raises(ValueError, match=r"ConfusionAccumulator\(kind='.*budget of "
                                                 r"max_matrix_mib=1 MiB"):
                ConfusionAccumulator(kind, **options)
        ConfusionAccumulator(kind, labels=range(fits))
        if two_dimensional:
            ConfusionAccumulator(kind, n_classes=fits - 1)
        if n_matrices > 1:  # two matrices of 260 classes do not fit (one does)
            with pytest.raises(ValueError, match="2 matrices of at least 260 x 260"):
                ConfusionAccumulator(kind, labels=range(260))


def test_the_budget_is_checked_before_allocating_in_a_child_process_with_little_memory():
    import subprocess
    import sys

    code = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
import sklearn_confusion_ext as sce
try:
    sce.ConfusionAccumulator("classic", labels=range(10**5))
except ValueError as error:
    assert "74.5 GiB" in str(error) and "max_matrix_mib=1024" in str(error), error
    print("refused when built")
accumulator = sce.ConfusionAccumulator("classic", labels=range(10**4)).update([0], [0])
with sce.config_context(max_matrix_mib=100):
    try:
        accumulator.result()
    except ValueError as error:
        assert "the sum of the batches would return" in str(error), error
        print("refused when read")
"""
    environment = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                   "MKL_NUM_THREADS": "1", "PATH": ""}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=environment)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["refused when built", "refused when read"]


@pytest.mark.parametrize("left", sorted(KINDS))
@pytest.mark.parametrize("right", sorted(KINDS))
def test_accumulators_of_other_kinds_are_refused_naming_both(left, right):
    # a kind with a parameter the other lacks raised KeyError: "'weighting='"
    if left == right:
        return
    a, b = ConfusionAccumulator(left), ConfusionAccumulator(right)
    for here, other in ((a, b), (b, a)):
        with pytest.raises(ValueError, match=rf"differ in kind '{here.kind}' here, "
                                             rf"'{other.kind}' in other"):
            here.merge(other)
    with pytest.raises(ValueError, match=r"differ in kind 'transport' here, 'classic' in "
                                         r"other; weighting='uniform' here, kind='classic' "
                                         r"takes no weighting in other; empty='null_class' "
                                         r"here, kind='classic' takes no empty in other\."):
        ConfusionAccumulator("transport").merge(ConfusionAccumulator("classic"))
    with pytest.raises(ValueError, match=r"differ in weighting='true' here, "
                                         r"weighting='uniform' in other\."):
        ConfusionAccumulator("transport", weighting="true").merge(ConfusionAccumulator())


BATCHES = {"labels": ([0, 1, 1], [0, 1, 0]),
           "multilabel": ([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]]),
           "soft": ([[0.5, 0.5], [0.0, 1.0]], [[1.0, 0.0], [0.2, 0.8]])}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("settings", [{"target_kind": "multilabel"}, {"target_kind": "soft"},
                                      {"n_classes": 2}])
def test_settings_no_batch_can_meet_are_refused_when_built(kind, settings):
    # kind='classic' with target_kind or n_classes was built, then refused every batch at
    # update; the multi-label kinds took target_kind='soft' and read the batches as 0/1
    # indicators
    readings = KINDS[kind].target_kinds
    declared = settings.get("target_kind", "multilabel")
    if declared not in readings:
        with pytest.raises(ValueError, match=rf"kind='{kind}' takes .*{next(iter(settings))}="):
            ConfusionAccumulator(kind, **settings)
        return
    accepted = []
    for form, (y_true, y_pred) in BATCHES.items():
        try:
            ConfusionAccumulator(kind, **settings).update(y_true, y_pred).result()
        except ValueError:
            continue
        accepted.append(form)
    assert declared in accepted, accepted
