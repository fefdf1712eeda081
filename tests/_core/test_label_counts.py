"""1-D class labels count their pairs of codes: every kind whose matrices of single labels
are the classic confusion matrix builds them with one ``bincount``, equal to
building them through the kind's own block of one-hot rows."""

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.kinds import KINDS, build
from sklearn_confusion_ext._core.targets import check_targets

CLASSIC_KINDS = sorted(name for name, kind in KINDS.items()
                       if kind.classic_on_labels(kind.parameters))


def test_the_kinds_of_the_papers_count_pairs():
    assert set(CLASSIC_KINDS) >= {"classic", "transport", "subpixel", "mlcm",
                                  "mlcm_krstinic", "mlct"}


@pytest.mark.parametrize("name", CLASSIC_KINDS)
@pytest.mark.parametrize("labels, weighted", [
    ("integers", False), ("integers", True), ("strings", False), ("wide", True),
    ("selected", False), ("negative", True), ("gaps", True)])
def test_pair_counts_equal_the_block_of_one_hot_rows(name, labels, weighted):
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 6, 500), rng.integers(0, 6, 500)
    selection = None
    if labels == "strings":
        y_true, y_pred = (np.array(list("abcdef"))[y] for y in (y_true, y_pred))
    elif labels == "wide":  # beyond the range counted without a sort
        y_true, y_pred = y_true * 10**9, y_pred * 10**9
    elif labels == "negative":
        y_true, y_pred = y_true - 3, y_pred.astype(np.int32) - 3
    elif labels == "gaps":  # a range with holes; a class whose instances all weigh 0
        y_true, y_pred = 2 * y_true, 2 * y_pred
    elif labels == "selected":
        selection = [4, 1, 9]  # 9 is absent
        y_pred[y_pred == 4] = 2
    weights = rng.random(500) if weighted else None
    if labels == "gaps":
        weights[(y_true == 4) | (y_pred == 4)] = 0.0
    kind = KINDS[name]
    targets = check_targets(y_true, y_pred, labels=selection, sample_weight=weights)
    assert targets.codes is not None
    fast = build(kind, targets, dict(kind.parameters))
    y_true, y_pred, true_norm, pred_norm = targets.rows(slice(0, targets.n_samples))
    one_hot = dataclasses.replace(targets, y_true=y_true, y_pred=y_pred, true_norm=true_norm,
                                  pred_norm=pred_norm, codes=None)
    slow = build(kind, one_hot, dict(kind.parameters))
    for one, other in zip(fast, slow):
        np.testing.assert_allclose(one.matrix, other.matrix, rtol=1e-12, atol=1e-12)
        assert one.display_labels == other.display_labels
        assert (one.selection is None) == (other.selection is None)


def test_codes_of_a_dense_integer_range_need_no_sort(monkeypatch):
    # Integer labels in a small range find their classes by a count, never np.unique.
    rng = np.random.default_rng(1)
    y_true, y_pred = rng.integers(5, 105, 10_000), rng.integers(5, 105, 10_000)

    def refuse(*args, **kwargs):
        raise AssertionError("sorted")

    monkeypatch.setattr(np, "unique", refuse)
    targets = check_targets(y_true, y_pred)
    np.testing.assert_array_equal(targets.classes, np.arange(5, 105))
    np.testing.assert_array_equal(targets.classes[targets.codes[0]], y_true)
    np.testing.assert_array_equal(targets.classes[targets.codes[1]], y_pred)


@pytest.mark.parametrize("y_true, y_pred", [
    (np.array([-128, 127, 0, 5], dtype=np.int8), np.array([127, 127, -128, 5], dtype=np.int8)),
    (np.array([0, 1, -1, 1]), np.array([0, 1, 1, 0], dtype=np.uint8)),
    (np.array([0, 1, 255, 1], dtype=np.uint8), np.array([0, 1, 1, 0], dtype=np.uint16)),
    (np.array([0, 1, 2**63 + 5, 1], dtype=np.uint64), np.array([2**63 + 5, 1, 1, 0],
                                                                 dtype=np.uint64))])
@pytest.mark.parametrize("weighted", [False, True])
def test_integer_labels_at_the_ends_of_their_types(y_true, y_pred, weighted):
    # Offsets from the smallest label leave the labels' type where it cannot hold them
    # (int8 from -128 to 127 overflowed, unsigned labels beside negative ones raised).
    sample_weight = np.arange(1.0, 5.0) if weighted else None
    np.testing.assert_array_equal(
        sce.transport_confusion_matrix(y_true, y_pred, sample_weight=sample_weight),
        confusion_matrix(y_true, y_pred, sample_weight=sample_weight))
