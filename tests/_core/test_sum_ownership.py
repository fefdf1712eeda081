"""Which partial sums are taken, not copied: the first chunk's own new arrays become the
sums of :func:`~sklearn_confusion_ext._core.chunks.sum_over_chunks` where the caller says so
(``fresh_parts``), the full matrix is written into the off-diagonal sum and returned without
a copy of its selection; every other part is copied, the numbers are the same bit for bit,
and nothing returned shares memory with another result or with an input."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_confusion_ext import subpixel_confusion_matrix, transport_confusion_matrix
from sklearn_confusion_ext._core import chunks, confusion, kinds
from sklearn_confusion_ext._matrices import transport


def test_a_fresh_part_becomes_the_sum_only_where_the_caller_says_so():
    made = []

    def fresh(rows):
        made.append(np.full(3, float(rows.stop - rows.start)))
        return (made[-1],)

    (taken,) = chunks.sum_over_chunks(fresh, 10, 10, n_jobs=1, fresh_parts=True)
    assert taken is made[0]  # one chunk: its own array is the sum
    (copied,) = chunks.sum_over_chunks(fresh, 10, 10, n_jobs=1)
    assert copied is not made[1] and not np.shares_memory(copied, made[1])
    (summed,) = chunks.sum_over_chunks(fresh, 30, 10, n_jobs=1, fresh_parts=True)
    assert summed is made[2] and np.array_equal(summed, np.full(3, 30.0))


@pytest.mark.parametrize("n_rows", [10, 40])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_the_same_array_twice_in_a_tuple_gives_two_sums(n_rows, n_jobs):
    def twice(rows):
        zeros = np.zeros(2)
        zeros += rows.start  # one array for two parts, as the kernels' "none" parts
        return zeros, zeros, np.asarray(rows.stop - rows.start)

    first, second, count = chunks.sum_over_chunks(twice, n_rows, 10, n_jobs, 1,
                                                  fresh_parts=True)
    expected = np.full(2, float(sum(range(0, n_rows, 10))))
    assert first is not second and not np.shares_memory(first, second)
    assert np.array_equal(first, expected) and np.array_equal(second, expected)
    assert count.dtype == np.float64 and count == n_rows


def test_a_read_only_part_is_copied_and_left_as_it_was():
    shared = np.arange(4.0)
    shared.flags.writeable = False  # a cached array, shared by every chunk

    (total,) = chunks.sum_over_chunks(lambda rows: (shared,), 30, 10, n_jobs=1,
                                      fresh_parts=True)
    assert total is not shared and total.flags.writeable
    assert np.array_equal(total, 3 * np.arange(4.0))
    assert np.array_equal(shared, np.arange(4.0))


@pytest.mark.parametrize("n_rows", [10, 30])
def test_a_view_of_the_callers_data_is_copied_and_left_as_it_was(n_rows):
    data = np.arange(60.0).reshape(30, 2)
    before = data.copy()
    # the rows themselves, one column, and a transposed view: none owns its memory
    total_rows, column, transposed = chunks.sum_over_chunks(
        lambda rows: (data[rows.start], data[rows, 0], data[rows].T), n_rows, 10,
        n_jobs=1, fresh_parts=True)
    assert np.array_equal(data, before)
    for total in (total_rows, column, transposed):
        assert not np.shares_memory(total, data)
    assert np.array_equal(total_rows, data[:n_rows:10].sum(axis=0))
    assert np.array_equal(transposed, sum(data[start:start + 10].T
                                          for start in range(0, n_rows, 10)))


def test_float32_parts_are_summed_in_float64():
    parts = [np.full(3, 0.1, dtype=np.float32) for _ in range(3)]
    (total,) = chunks.sum_over_chunks(lambda rows: (parts[rows.start // 10],), 30, 10,
                                      n_jobs=1, fresh_parts=True)
    assert total.dtype == np.float64 and total is not parts[0]
    assert np.array_equal(total, 3 * np.float64(np.float32(0.1)) * np.ones(3))
    assert all(part.dtype == np.float32 and np.all(part == np.float32(0.1)) for part in parts)


def test_device_parts_are_summed_on_their_device_and_left_as_they_were():
    xp = pytest.importorskip("array_api_strict")
    parts = [xp.asarray(np.full(2, float(k))) for k in range(3)]

    total, on_host = chunks.sum_over_chunks(
        lambda rows: (parts[rows.start // 10], np.ones(2)), 30, 10, n_jobs=1,
        fresh_parts=True)
    assert isinstance(total, np.ndarray) and np.array_equal(total, [3.0, 3.0])
    assert np.array_equal(on_host, [3.0, 3.0])
    assert [float(part[0]) for part in parts] == [0.0, 1.0, 2.0]


def test_the_full_matrix_written_in_place_has_the_same_bits():
    rng = np.random.default_rng(0)
    for n_classes in (1, 2, 7, 50):
        diagonal = rng.random(n_classes)
        off_diagonal = rng.random((n_classes, n_classes))
        off_diagonal[rng.random(off_diagonal.shape) < 0.3] = -0.0  # 0.0 + -0.0 is 0.0
        diagonal[rng.random(n_classes) < 0.5] = -0.0
        off_diagonal[np.diag_indices(n_classes)][:1] = -0.0
        zeros = np.zeros(n_classes)
        expected = kinds._full_matrix(diagonal, off_diagonal.copy(), zeros, zeros,
                                      np.asarray(0.0), False)
        written = off_diagonal.copy()
        matrix = kinds._full_matrix(diagonal, written, zeros, zeros, np.asarray(0.0), False,
                                    owned=True)
        assert matrix is written and matrix.flags.c_contiguous
        assert matrix.tobytes() == expected.tobytes()


def test_the_full_matrix_is_not_written_into_parts_it_does_not_own():
    counts = np.arange(9.0).reshape(3, 3).copy()  # owns its memory (a reshape does not)
    parts = (np.zeros(3), counts, np.zeros(3), np.zeros(3), np.asarray(0.0))
    assert kinds._own_arrays(parts)
    assert not kinds._own_arrays(parts * 2)  # one count matrix for both bounds
    assert not kinds._own_arrays((*parts[:4], counts[0]))  # a view
    matrix = kinds._full_matrix(*parts, False, owned=False)
    assert matrix is not counts and np.array_equal(counts, np.arange(9.0).reshape(3, 3))


def test_the_selection_of_every_class_is_the_matrix_only_where_asked():
    matrix = np.arange(16.0).reshape(4, 4)
    every = confusion.Confusion.from_parts(matrix, range(4), None, False)
    assert every.selected(copy=False) is matrix
    assert every.selected() is not matrix
    some = confusion.Confusion.from_parts(matrix, range(4), [2, 0], False)
    assert np.array_equal(some.selected(copy=False), matrix[np.ix_([2, 0], [2, 0])])
    with_none = confusion.Confusion.from_parts(np.arange(25.0).reshape(5, 5), range(4),
                                               [0, 1, 2, 3], True)  # "none" kept last
    assert with_none.selected(copy=False) is with_none.matrix
    some_with_none = confusion.Confusion.from_parts(with_none.matrix, range(4), [0, 1, 3],
                                                    True)
    assert np.array_equal(some_with_none.selected(copy=False),
                          with_none.matrix[np.ix_([0, 1, 3, 4], [0, 1, 3, 4])])
    cut = confusion.Confusion(matrix, list(range(4)), np.arange(3), False)
    selected = cut.selected(copy=False)
    assert selected.shape == (3, 3) and not np.shares_memory(selected, matrix)


def _old_copies(monkeypatch):
    """Every part copied, every matrix new, every selection a copy (the code before)."""
    monkeypatch.setattr(chunks, "_owned_part", lambda part: False)
    monkeypatch.setattr(kinds, "_in_place", lambda diagonal, off_diagonal: False)
    selected = confusion.Confusion.selected
    monkeypatch.setattr(confusion.Confusion, "selected",
                        lambda self, copy=True: selected(self, copy=True))


def _random_case(rng):
    n_classes = int(rng.choice([2, 3, 10, 17, 100, 700, 2000]))
    n = n_classes + int(rng.integers(1, 3000 if n_classes <= 100 else 1200))
    dtype = [np.float64, np.float32][int(rng.integers(2))]
    scores = rng.random((n, n_classes)).astype(dtype)
    scores /= scores.sum(axis=1, keepdims=True, dtype=dtype)
    if rng.random() < 0.3:  # rows off 1
        scores[rng.integers(n, size=3)] *= dtype(1.5)
    if rng.random() < 0.3:  # rows of tiny mass mid-chunk: the NumPy reference sums them
        scores[rng.integers(n // 3, n, size=2)] *= dtype(1e-30 if dtype == np.float64
                                                         else 1e-8)
    labels = rng.integers(0, n_classes, n)
    labels[rng.permutation(n)[:n_classes]] = np.arange(n_classes)
    keywords = {"n_jobs": int(rng.choice([1, 2]))}
    if rng.random() < 0.4:
        keywords["chunk_size"] = int(rng.integers(1, n))
    if rng.random() < 0.3:
        keywords["sample_weight"] = rng.random(n)
    weighting = rng.integers(4)
    if weighting:
        keywords["weighting"] = ["true", "pred", lambda a, b: np.full(a.shape[0], 0.5)][
            weighting - 1]
    if rng.random() < 0.3:
        keywords["labels"] = rng.permutation(n_classes)[:int(rng.integers(1, n_classes + 1))]
    side = rng.integers(5)
    if side == 0:
        return (scores, labels), keywords  # labels as predictions
    if side == 1 and n_classes <= 100:  # soft rows on both sides (the compiled soft plans)
        keywords.pop("labels", None)
        return (rng.random((n, n_classes)).astype(dtype), scores), keywords
    if side == 2 and n_classes <= 100:  # two CSR targets (the compiled sparse plans)
        keywords.pop("labels", None)
        rows = np.arange(n + 1)
        return tuple(sp.csr_array(sp.random(n, n_classes, density=0.1, random_state=seed)
                                  + sp.csr_array((np.ones(n), (np.arange(n) * step) % n_classes,
                                                  rows), shape=(n, n_classes)))
                     for seed, step in ((1, 1), (2, 7))), keywords
    return (labels, scores), keywords


def _results(function, arguments, keywords):
    """The bytes, type, shape and order of each result, and the warnings given."""
    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always")
        result = function(*arguments, **keywords)
    result = result if isinstance(result, tuple) else (result,)
    return [(part.tobytes(), part.dtype, part.shape, part.flags.c_contiguous)
            for part in result], [str(warning.message) for warning in given]


@pytest.mark.parametrize("seed", range(6))
def test_the_same_bits_as_with_every_copy(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    for _ in range(12):
        arguments, keywords = _random_case(rng)
        function = transport_confusion_matrix
        if rng.random() < 0.2 and arguments[0].shape[-1] <= 100 and not sp.issparse(
                arguments[0]):
            function = subpixel_confusion_matrix
        elif rng.random() < 0.2:
            keywords["normalize"] = "true"
        taken = _results(function, arguments, keywords)
        with monkeypatch.context() as patch:
            _old_copies(patch)
            copied = _results(function, arguments, keywords)
        assert taken == copied


def test_many_groups_have_the_same_bits_as_with_every_copy(monkeypatch):
    """Enough rows for several groups of the compiled kernel (8 MB of scores a group)."""
    rng = np.random.default_rng(7)
    for n_classes, n, dtype in ((10, 250_000, np.float64), (100, 30_000, np.float32),
                                (1000, 6_000, np.float64)):
        scores = rng.random((n, n_classes)).astype(dtype)
        scores /= scores.sum(axis=1, keepdims=True, dtype=dtype)
        scores[n // 2] *= dtype(1e-30 if dtype == np.float64 else 1e-8)  # reference rows
        labels = rng.integers(0, n_classes, n)
        labels[:n_classes] = np.arange(n_classes)
        for n_jobs in (1, 2):
            taken = _results(transport_confusion_matrix, (labels, scores), {"n_jobs": n_jobs})
            with monkeypatch.context() as patch:
                _old_copies(patch)
                copied = _results(transport_confusion_matrix, (labels, scores),
                                  {"n_jobs": n_jobs})
            assert taken == copied


@pytest.mark.parametrize("n_classes", [3, 10, 1000])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_result_written_to_changes_no_later_call(n_classes, dtype, n_jobs):
    rng = np.random.default_rng(n_classes)
    n = 40 * n_classes
    scores = rng.random((n, n_classes)).astype(dtype)
    scores /= scores.sum(axis=1, keepdims=True, dtype=dtype)
    labels = rng.integers(0, n_classes, n)
    weights = rng.random(n)
    inputs = [scores, labels, weights]
    kept = [array.copy() for array in inputs]
    for keywords in ({}, {"sample_weight": weights}, {"labels": np.arange(n_classes)}):
        first = transport_confusion_matrix(labels, scores, n_jobs=n_jobs, **keywords)
        expected = first.copy()
        assert not any(np.shares_memory(first, array) for array in inputs)
        first += 1.0
        again = transport_confusion_matrix(labels, scores, n_jobs=n_jobs, **keywords)
        assert again.tobytes() == expected.tobytes()
        assert not np.shares_memory(first, again)
    low, high = subpixel_confusion_matrix(labels, scores, n_jobs=n_jobs)
    assert not np.shares_memory(low, high)
    high_before = high.copy()
    low += 1.0
    assert high.tobytes() == high_before.tobytes()
    assert all(np.array_equal(array, copy) for array, copy in zip(inputs, kept))


@pytest.mark.parametrize("labels_given", [False, True])
@pytest.mark.parametrize("present", [[0, 1, 2, 3], [0, 2, 3], [3], [-2, 5, 7]])
def test_the_classes_of_labels_beside_scores_counted_once_are_those_counted_again(
        present, labels_given):
    """The counts validation found give ``true_classes`` as a second count gives them."""
    from dataclasses import replace

    from sklearn_confusion_ext._core.targets import check_targets

    rng = np.random.default_rng(len(present))
    classes = np.union1d(present, [0, 1, 2, 3]) if labels_given else np.asarray(present)
    y_true = rng.choice(present, 50)
    y_true[:len(present)] = present
    scores = rng.random((50, len(classes)))
    scores /= scores.sum(axis=1, keepdims=True)
    for true, pred in ((y_true, scores), (scores, y_true)):
        targets = check_targets(true, pred, labels=classes if labels_given else None)
        counted_again = replace(targets, true_counts=None)
        assert np.array_equal(targets.true_classes, counted_again.true_classes)
        assert targets.true_classes.dtype == counted_again.true_classes.dtype


def test_the_row_starts_of_one_hot_labels_are_known_without_reading_them(monkeypatch):
    from sklearn_confusion_ext._core import labels as label_module

    matrix = label_module.one_hot(np.array([2, 0, 1, 1]), np.arange(3))
    starts = matrix.indptr
    assert not starts.flags.writeable
    with monkeypatch.context() as patch:  # known: not compared
        patch.setattr(label_module.np, "array_equal", None)
        assert label_module.one_entry_a_row(starts)
    assert label_module.one_entry_a_row(np.arange(5))  # others are read
    assert not label_module.one_entry_a_row(np.array([0, 1, 1, 3, 4]))
    changed = starts.copy()
    changed[2] = 1
    assert not label_module.one_entry_a_row(changed)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_the_parts_handed_back_once_added_are_no_sum(n_jobs):
    """A chunk's parts handed to ``added`` may be written again (a later group's sums):
    the sums are not among them, and writing them changes no sum."""
    handed = []

    def overwrite(parts):
        handed.extend(id(part) for part in parts)
        for part in parts:
            part.fill(np.nan)

    first, second = chunks.sum_over_chunks(
        lambda rows: (np.full(3, float(rows.start)), np.ones((2, 2))), 50, 10, n_jobs, 1,
        fresh_parts=True, added=overwrite)
    assert np.array_equal(first, np.full(3, 100.0)) and np.array_equal(second, 5 * np.ones((2, 2)))
    assert len(handed) == 8 and id(first) not in handed and id(second) not in handed


def test_a_group_sum_kept_for_a_later_group_is_one_of_its_own():
    spare = []
    matrix = np.zeros((3, 3))
    transport._keep_sum(spare, 3, (None, matrix.T))  # the labels as predictions: a transpose
    assert spare == [matrix]
    for other in (np.zeros((3, 4)), np.zeros((3, 3), dtype=np.float32), np.asfortranarray(
            np.zeros((3, 3))), np.zeros((6, 3))[::2]):
        transport._keep_sum(spare, 3, (None, other))
    assert len(spare) == 1
