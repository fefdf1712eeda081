"""Bounded resources: chunked builders stay within their memory budget; threads leave BLAS
as they found it."""

import threading
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_info, threadpool_limits

from sklearn_confusion_ext import mlcm, subpixel_confusion_matrix, transport_confusion_matrix

MIB = 1 << 20


def _peak_traced(function, *args, **kwargs):
    """``function(*args, **kwargs)`` and the peak of the memory traced during the call."""
    tracemalloc.start()
    try:
        result = function(*args, **kwargs)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _multilabel(rng, n_samples, n_classes, labels_per_row):
    columns = np.stack([rng.choice(n_classes, labels_per_row, replace=False)
                        for _ in range(n_samples)]) if labels_per_row > 8 else \
        rng.integers(0, n_classes, size=(n_samples, labels_per_row))
    rows = np.repeat(np.arange(n_samples), labels_per_row)
    matrix = sp.csr_array((np.ones(rows.size), (rows, columns.ravel())),
                          shape=(n_samples, n_classes))
    matrix.data[:] = 1.0
    return matrix


def _dense_bounds(y_true, y_pred):
    """The SCM bounds of dense rows, straight from Proposition 9 (a small oracle)."""
    u = y_true / y_true.sum(axis=1, keepdims=True)
    v = y_pred / y_pred.sum(axis=1, keepdims=True)
    common = np.minimum(u, v)
    deficit, excess = u - common, v - common
    mass = deficit.sum(axis=1)[:, None, None]
    lower = np.maximum(deficit[:, :, None] + excess[:, None, :] - mass, 0).sum(axis=0)
    upper = np.minimum(deficit[:, :, None], excess[:, None, :]).sum(axis=0)
    diagonal = np.diag(common.sum(axis=0))
    return diagonal + lower, diagonal + upper


def test_subpixel_sparse_multilabel_is_bounded(rng):
    # 30,000 x 100 sparse rows took one 65,536-row chunk densified to (rows, C, C): 4.6 GB.
    y_true, y_pred = _multilabel(rng, 30_000, 100, 3), _multilabel(rng, 30_000, 100, 3)
    (lower, upper), peak = _peak_traced(subpixel_confusion_matrix, y_true, y_pred)
    assert peak < 96 * MIB
    expected = subpixel_confusion_matrix(y_true[:500].toarray(), y_pred[:500].toarray())
    first = subpixel_confusion_matrix(y_true[:500], y_pred[:500])
    np.testing.assert_allclose(first[0], expected[0], atol=1e-12)
    np.testing.assert_allclose(first[1], expected[1], atol=1e-12)
    assert lower.sum() <= upper.sum()


def test_subpixel_labels_are_bounded(rng):
    # 1-D labels become sparse one-hot rows: one pair per misclassified instance.
    y_true, y_pred = rng.integers(0, 200, 2_000), rng.integers(0, 200, 2_000)
    (lower, upper), peak = _peak_traced(subpixel_confusion_matrix, y_true, y_pred)
    assert peak < 16 * MIB
    expected = np.zeros((200, 200))
    np.add.at(expected, (y_true, y_pred), 1.0)
    np.testing.assert_array_equal(lower, expected)
    np.testing.assert_array_equal(upper, expected)


def test_subpixel_dense_wide_rows_are_bounded(rng):
    # Rows of 1,000 classes weigh 8 MB each in (rows, C, C): 16 rows in one chunk took
    # three such temporaries (380 MB); now the chunk holds what the budget allows.
    y_true, y_pred = rng.random((16, 1_000)), rng.random((16, 1_000))
    (lower, upper), peak = _peak_traced(subpixel_confusion_matrix, y_true, y_pred,
                                        empty="error")
    assert peak < 160 * MIB
    expected_lower, expected_upper = _dense_bounds(y_true, y_pred)
    np.testing.assert_allclose(lower, expected_lower, atol=1e-12)
    np.testing.assert_allclose(upper, expected_upper, atol=1e-12)


def test_subpixel_one_row_over_budget(rng, monkeypatch):
    # A row larger than the whole budget is still computed, one row at a time.
    from sklearn_confusion_ext._matrices import transport

    monkeypatch.setattr(transport, "_BOUNDS_CHUNK_BYTES", 1)
    y_true, y_pred = rng.random((3, 40)), rng.random((3, 40))
    lower, upper = subpixel_confusion_matrix(y_true, y_pred, empty="error")
    expected_lower, expected_upper = _dense_bounds(y_true, y_pred)
    np.testing.assert_allclose(lower, expected_lower, atol=1e-12)
    np.testing.assert_allclose(upper, expected_upper, atol=1e-12)
    sparse = subpixel_confusion_matrix(sp.csr_array(y_true), sp.csr_array(y_pred),
                                       empty="error")
    np.testing.assert_allclose(sparse[0], expected_lower, atol=1e-12)
    np.testing.assert_allclose(sparse[1], expected_upper, atol=1e-12)


@pytest.mark.parametrize("builder", [transport_confusion_matrix, mlcm])
def test_sparse_chunks_are_sized_by_their_entries(rng, builder):
    # 10,000 rows of 200 labels a side fitted one 65,536-row chunk: 4,000,000 entries.
    y_true, y_pred = _multilabel(rng, 10_000, 400, 200), _multilabel(rng, 10_000, 400, 200)
    matrix, peak = _peak_traced(builder, y_true, y_pred)
    assert peak < 96 * MIB
    halves = [builder(y_true[rows], y_pred[rows]) for rows in (slice(0, 5_000),
                                                               slice(5_000, None))]
    np.testing.assert_allclose(matrix, halves[0] + halves[1], rtol=1e-12)


def test_chunk_starts_bound_each_chunk():
    from sklearn_confusion_ext._core.chunks import chunk_starts

    sizes = np.array([1, 1, 50, 1, 1, 1, 1, 1, 1, 1, 30, 2])
    cumulative = np.concatenate([[0], np.cumsum(sizes)])
    starts = chunk_starts(cumulative, 10)
    ends = [*starts[1:], len(sizes)]
    assert starts[0] == 0 and np.all(np.diff(starts) > 0)
    for start, end in zip(starts, ends):
        # At most the budget plus one row; a row over the budget stands alone.
        chunk = sizes[start:end]
        assert chunk.sum() <= 10 + chunk.max()
        assert end - start == 1 or chunk.max() <= 10
    assert list(chunk_starts(np.zeros(1), 10)) == []  # no rows, no chunk


def _blas_threads():
    return sorted(info["num_threads"] for info in threadpool_info()
                  if info["user_api"] == "blas")


def test_concurrent_threaded_calls_restore_blas_threads(rng):
    y_true, y_pred = rng.random((60_000, 20)), rng.random((60_000, 20))
    expected = transport_confusion_matrix(y_true, y_pred, n_jobs=1)
    results, errors = [], []

    def call():
        try:
            for _ in range(5):
                results.append(transport_confusion_matrix(y_true, y_pred, n_jobs=2))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        threads = [threading.Thread(target=call) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        assert _blas_threads() == before
    for result in results:
        np.testing.assert_allclose(result, expected, rtol=1e-12)


class _FakeBlas:
    """A process-wide thread count with threadpoolctl's limit/restore protocol."""

    def __init__(self, num_threads):
        self.num_threads = num_threads

    def limit(self, limits, user_api):
        assert user_api == "blas"
        snapshot, self.num_threads = self.num_threads, limits
        blas = self

        class Limiter:
            def restore_original_limits(self):
                blas.num_threads = snapshot

        return Limiter()


def test_blas_limit_restored_when_calls_end_in_the_order_they_began(monkeypatch):
    # The sequence that left BLAS at one thread: A limits, B limits, A restores, B restores
    # (each restoring its own snapshot, B's being A's limit). Played on a fake BLAS, as
    # OpenBLAS may ignore a limit set from a thread other than the main one.
    import sklearn_confusion_ext._core.chunks as chunks

    blas = _FakeBlas(4)
    monkeypatch.setattr(chunks, "_thread_controller", lambda: blas)
    a_entered, b_entered, a_left = threading.Event(), threading.Event(), threading.Event()
    inside = []

    def first():
        with chunks._one_blas_thread():
            a_entered.set()
            b_entered.wait(10)
            inside.append(blas.num_threads)
        a_left.set()

    def second():
        a_entered.wait(10)
        with chunks._one_blas_thread():
            b_entered.set()
            a_left.wait(10)
            inside.append(blas.num_threads)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert inside == [1, 1]
    assert blas.num_threads == 4


@pytest.mark.parametrize("n_jobs", [1, None])
def test_chunks_on_the_calling_thread_use_one_blas_thread(n_jobs, monkeypatch):
    """More than one chunk on the calling thread: each chunk's product runs on one BLAS
    thread (BLAS's own threads on cache-sized products made soft labels 7x slower with
    n_jobs=1 on a busy 2-core machine); a call of one chunk leaves BLAS as it is (a
    limit costs more than such a call), and the limit is lifted when the call ends."""
    import sklearn_confusion_ext._core.chunks as chunks

    blas = _FakeBlas(4)
    monkeypatch.setattr(chunks, "_thread_controller", lambda: blas)
    seen = []

    def record(rows):
        seen.append(blas.num_threads)
        return (np.ones(1), rows.stop - rows.start)

    chunks.sum_over_chunks(record, 30, 10, n_jobs)  # 3 chunks, too few for threads
    assert seen == [1, 1, 1] and blas.num_threads == 4
    seen.clear()
    chunks.sum_over_chunks(record, 30, 30, n_jobs)
    assert seen == [4] and blas.num_threads == 4
