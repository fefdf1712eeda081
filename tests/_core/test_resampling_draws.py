"""The resamples' draws: a pure function of random_state (whatever the threads, n_jobs and
the memory budget), drawn from independent streams on threads, with the laws of the
bootstrap (multinomial counts), the Bayesian bootstrap (flat Dirichlet weights) and the
permutation test (fair coin flips)."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import chunks, kernels, resampling


def _labels_beside_probabilities(rng, n_samples=400, n_classes=6):
    y_true = rng.integers(0, n_classes, n_samples)
    logits = rng.normal(size=(n_samples, n_classes))
    logits[np.arange(n_samples), y_true] += 2.0
    scores = np.exp(logits)
    return y_true, scores / scores.sum(axis=1, keepdims=True)


def _soft(rng, n_samples=300, n_classes=5):
    return (rng.dirichlet(np.ones(n_classes), n_samples),
            rng.dirichlet(np.ones(n_classes), n_samples))


def _multilabel(rng, n_samples=300, n_classes=4):
    y_true = (rng.random((n_samples, n_classes)) < 0.4).astype(int)
    flip = rng.random((n_samples, n_classes)) < 0.2
    return y_true, np.where(flip, 1 - y_true, y_true)


TARGETS = {"probabilities": _labels_beside_probabilities, "soft": _soft,
           "multilabel": _multilabel}


# --- The same numbers whatever the threads and the budget ----------------------------------


@pytest.mark.parametrize("method", ["percentile", "bca", "bayesian"])
@pytest.mark.parametrize("targets", sorted(TARGETS))
def test_interval_is_a_function_of_random_state_only(targets, method, monkeypatch):
    """Same random_state: the same resampled values with n_jobs=1 and 2, on 8 cores
    (the draws and the products on threads) and in blocks of a few resamples (as under a
    small memory budget)."""
    y_true, y_pred = TARGETS[targets](np.random.default_rng(3))

    def run(**keywords):
        return sce.score_confidence_interval(y_true, y_pred, method=method, n_resamples=70,
                                             random_state=7, **keywords)

    reference = run(n_jobs=1)
    monkeypatch.setattr(chunks, "_cpu_count", lambda: 8)  # threads_for reads it
    monkeypatch.setattr(resampling, "_THREADED_VALUES", 0)
    monkeypatch.setattr(resampling, "_THREADED_PRODUCTS", 0)
    for result in (run(n_jobs=2), run(n_jobs=-1), run()):
        np.testing.assert_array_equal(result.distribution, reference.distribution)
        assert (result.low, result.high) == (reference.low, reference.high)
    monkeypatch.setattr(resampling, "_WEIGHT_ENTRIES", 1000)  # 3 resamples a block
    tiny = run(n_jobs=2)
    np.testing.assert_array_equal(tiny.distribution, reference.distribution)


@pytest.mark.filterwarnings("ignore:the posterior differences never")
@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian"])
def test_comparison_is_a_function_of_random_state_only(method, monkeypatch):
    rng = np.random.default_rng(4)
    y_true, first = _labels_beside_probabilities(rng)
    second = np.roll(first, 1, axis=1) * 0.3 + first * 0.7

    def run():
        return sce.compare_scores(y_true, first, second, method=method, n_resamples=70,
                                  random_state=2)

    reference = run()
    monkeypatch.setattr(chunks, "_cpu_count", lambda: 5)
    monkeypatch.setattr(resampling, "_THREADED_VALUES", 0)
    monkeypatch.setattr(resampling, "_THREADED_PRODUCTS", 0)
    threaded = run()
    monkeypatch.setattr(resampling, "_WEIGHT_ENTRIES", 1000)  # 2 resamples a block
    tiny = run()
    for result in (threaded, tiny):
        np.testing.assert_array_equal(result.distribution, reference.distribution)
        assert result.pvalue == reference.pvalue


@pytest.mark.parametrize("draws", ["counts", "dirichlet", "swaps"])
@pytest.mark.parametrize("n_values", [3, 1000, 200_000])
def test_every_resample_is_drawn_from_its_own_stream(draws, n_values):
    """Resample r's row is the same in batches of any size and on any number of threads,
    and streams hold more than one resample only where a resample draws few values."""
    def rows(batch, n_jobs, n_resamples=70 if n_values < 10 ** 5 else 5):
        rng = np.random.default_rng(11)
        draw = {"counts": resampling._counts, "dirichlet": resampling._dirichlet,
                "swaps": resampling._coin_flips}[draws](n_values)
        return np.concatenate(list(resampling._draw_rows(rng, n_values, n_resamples, batch,
                                                         draw, n_jobs)))

    reference = rows(70, 1)
    for batch, n_jobs in ((1, 1), (3, 4), (32, 2), (33, None), (64, -1)):
        np.testing.assert_array_equal(rows(batch, n_jobs), reference)
    if n_values >= 1000:  # no stream repeated
        assert len(np.unique(reference, axis=0)) == len(reference)
    streams = resampling.Streams(np.random.default_rng(0), n_values)
    assert streams.rows == min(32, max(1, resampling._STREAM_VALUES // n_values))


@pytest.mark.parametrize("source", ["counts", "dirichlet", "swaps", "group counts",
                                    "group swaps"])
def test_batches_drawn_into_one_buffer_are_the_new_batches(source):
    """``reuse=True`` (the callers that use a batch before the next) draws every batch into
    one buffer, with the values of new batches; the buffer is reused (a new one a batch is
    tens of MiB the threads fault in), and the caller's rows only change by the next
    draw."""
    def batches(reuse, n_values=5_000, n_resamples=23):
        rng = np.random.default_rng(8)
        keywords = {"entries": 0, "owner": "test", "n_jobs": 2}
        if source == "swaps":
            return resampling.swap_indicators(rng, n_values, n_resamples, reuse=reuse,
                                              **keywords)
        if source.startswith("group"):
            groups = (np.arange(n_values) % 97, 97)
            if source == "group swaps":
                return resampling.group_swap_indicators(rng, groups, n_resamples, **keywords)
            return resampling.group_weights(rng, groups, n_resamples, False, **keywords)
        return resampling.instance_weights(rng, n_values, n_resamples, source == "dirichlet",
                                           reuse=reuse, **keywords)

    original = resampling._WEIGHT_ENTRIES
    resampling._WEIGHT_ENTRIES = 5_000 * 5  # batches of 5 resamples: five batches
    try:
        new = [batch.copy() for batch in batches(False)]
        drawn, previous = [], None
        for batch in batches(True):
            if previous is not None and not source.startswith("group"):
                assert np.shares_memory(batch, previous), "the buffer was not reused"
            drawn.append(batch.copy())
            previous = batch
    finally:
        resampling._WEIGHT_ENTRIES = original
    assert len(new) == 5
    for ours, theirs in zip(drawn, new):
        np.testing.assert_array_equal(ours, theirs)


def test_the_caller_s_generator_advances_alike_whatever_the_resamples():
    """The streams take one draw of the caller's generator: what it draws next (BCa's
    jackknife groups) is the same whatever n_resamples."""
    after = []
    for n_resamples in (1, 40, 300):
        rng = np.random.default_rng(5)
        list(resampling.instance_weights(rng, 50, n_resamples, False))
        after.append(rng.integers(0, 2 ** 62))
    assert after[0] == after[1] == after[2]


# --- The laws of the draws -----------------------------------------------------------------


def _weights(kind, n_values, n_resamples, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "swaps":
        batches = resampling.swap_indicators(rng, n_values, n_resamples)
    else:
        batches = resampling.instance_weights(rng, n_values, n_resamples, kind == "dirichlet")
    return np.concatenate(list(batches))


def test_bootstrap_counts_are_multinomial():
    """Counts of n draws with replacement among n instances: mean 1, variance (n - 1) / n,
    covariance -1 / n; and on n = 4 the frequencies of the 35 possible count vectors fit
    the multinomial law (chi-square)."""
    counts = _weights("counts", 50, 4000)
    assert np.all(counts.sum(axis=1) == 50)
    assert counts.mean() == pytest.approx(1.0, abs=0.01)
    assert counts.var(axis=0, ddof=1).mean() == pytest.approx(49 / 50, rel=0.03)
    covariance = np.cov(counts[:, :2].T)[0, 1]
    assert covariance == pytest.approx(-1 / 50, abs=0.03)

    n, n_resamples = 4, 20_000
    drawn = _weights("counts", n, n_resamples, seed=1).astype(int)
    outcomes = [c for c in itertools.product(range(n + 1), repeat=n) if sum(c) == n]
    index = {outcome: k for k, outcome in enumerate(outcomes)}
    observed = np.bincount([index[tuple(row)] for row in drawn], minlength=len(outcomes))
    expected = np.array([math.factorial(n) / math.prod(map(math.factorial, c)) / n ** n
                         for c in outcomes]) * n_resamples
    assert stats.chisquare(observed, expected).pvalue > 1e-3


def test_bayesian_weights_are_flat_dirichlet():
    """Weights / n of the Bayesian bootstrap on n = 3: each marginal Beta(1, 2) (KS), sum
    n; on n = 1000 the mean 1 and variance (n - 1) / (n + 1) of each weight."""
    weights = _weights("dirichlet", 3, 6000)
    np.testing.assert_allclose(weights.sum(axis=1), 3.0, rtol=1e-12)
    for column in range(3):
        assert stats.kstest(weights[:, column] / 3, stats.beta(1, 2).cdf).pvalue > 1e-3
    large = _weights("dirichlet", 1000, 300, seed=2)
    assert large.mean() == pytest.approx(1.0, abs=1e-9)
    assert large.var(axis=0, ddof=1).mean() == pytest.approx(999 / 1001, rel=0.03)


def test_swaps_are_fair_independent_coin_flips():
    """The permutation test's swaps: on n = 3 the 8 patterns equally likely (chi-square);
    on n = 1000 the mean 1/2 and no correlation between instances."""
    swaps = _weights("swaps", 3, 16_000).astype(int)
    assert set(np.unique(swaps)) == {0, 1}
    patterns = np.bincount(swaps @ np.array([1, 2, 4]), minlength=8)
    assert stats.chisquare(patterns).pvalue > 1e-3
    large = _weights("swaps", 1000, 400, seed=3)
    assert large.mean() == pytest.approx(0.5, abs=0.01)
    correlation = np.corrcoef(large[:, :50].T)[np.triu_indices(50, 1)]
    assert np.abs(correlation).mean() < 0.06


# --- The products -----------------------------------------------------------------------------


@pytest.mark.parametrize("targets", ["probabilities", "soft"])
def test_products_are_the_same_on_threads_and_in_any_batch(targets, monkeypatch):
    """The grouped products (labels beside probabilities) and the soft labels' products:
    each resample's matrix is the same bit for bit whatever the batch and the threads,
    and equals the per-instance outer products."""
    from sklearn_confusion_ext._core.kinds import KINDS

    y_true, y_pred = TARGETS[targets](np.random.default_rng(6))
    products = resampling.grouped_rows(KINDS["transport"], {}, y_true, y_pred, None)
    weights = _weights("counts", len(y_true), 45, seed=4)
    reference = products.matrices(weights, presorted=True, n_jobs=1)
    monkeypatch.setattr(resampling, "_THREADED_PRODUCTS", 0)
    for n_jobs in (2, 3, -1):
        np.testing.assert_array_equal(products.matrices(weights, presorted=True,
                                                        n_jobs=n_jobs), reference)
    for first, stop in ((0, 1), (3, 40), (40, 45)):
        np.testing.assert_array_equal(products.matrices(weights[first:stop], presorted=True,
                                                        n_jobs=2), reference[first:stop])
    expected = resampling.resampled_matrices(KINDS["transport"], {}, y_true, y_pred, None,
                                             weights[:, np.argsort(products.order)], "test")
    np.testing.assert_allclose(reference, expected, rtol=1e-12, atol=1e-12)


def test_the_resampling_pool_is_started_once_and_not_inherited_by_a_fork():
    """Every batch reuses one pool (its threads start once per process, not per batch),
    a call asking for more threads gets a larger pool, and a forked child, which has none
    of its parent's threads, starts its own (the parent's would never run its tasks)."""
    import multiprocessing
    import threading

    before = threading.active_count()
    pool = chunks.shared_pool(2)
    assert chunks.shared_pool(1) is pool and chunks.shared_pool(2) is pool
    rng = np.random.default_rng(0)
    list(resampling.instance_weights(rng, 100_000, 64, False, n_jobs=2))
    assert chunks.shared_pool(2) is pool
    assert threading.active_count() <= before + max(2, chunks._cpu_count())
    larger = chunks.shared_pool(chunks._pool_size + 1)
    assert larger is not pool and chunks.shared_pool(2) is larger
    _draws_in_a_child()  # the larger pool's threads started in this process
    if "fork" not in multiprocessing.get_all_start_methods():
        return
    with multiprocessing.get_context("fork").Pool(1) as workers:
        child = workers.apply_async(_draws_in_a_child).get(timeout=60)
    np.testing.assert_array_equal(child, _draws_in_a_child())


def _draws_in_a_child():
    rng = np.random.default_rng(4)
    return np.concatenate(list(resampling.instance_weights(rng, 100_000, 8, False,
                                                           n_jobs=2)))


# --- The compiled counts: NumPy's own draws, counted as they are drawn ---------------------

DRAWS = kernels.compiled_draw_kernels()
needs_draw_kernel = pytest.mark.skipif(DRAWS is None, reason="the draw kernel is not built")


def _numpy_counts(generator, n_values, n_rows):
    return np.stack([np.bincount(generator.integers(0, n_values, n_values),
                                 minlength=n_values) for _ in range(n_rows)])


@needs_draw_kernel
@pytest.mark.parametrize("dtype", [np.uint8, np.float64])
@pytest.mark.parametrize("half_drawn", [False, True])
@pytest.mark.parametrize("n_values", [2, 3, 255, 256, 1000, 99_991])
def test_compiled_counts_are_numpy_s_draws(n_values, half_drawn, dtype):
    """The kernel's counts are those of ``Generator(PCG64).integers(0, n, n)`` row after
    row, from any state (half of a 64-bit output left over or not), and the state it
    hands back is where NumPy's generator is after the same draws."""
    def generator():
        drawn = np.random.Generator(np.random.PCG64(n_values + half_drawn))
        drawn.integers(0, 2 ** 32, int(half_drawn), dtype=np.uint32)
        return drawn

    theirs, ours = generator(), generator()
    expected = _numpy_counts(theirs, n_values, 3)
    counts = np.empty((3, n_values), dtype=dtype)
    state = DRAWS.count_pcg64_draws(ours.bit_generator.state, counts, np.inf)
    np.testing.assert_array_equal(counts, expected)
    ours.bit_generator.state = state
    assert ours.bit_generator.state == theirs.bit_generator.state
    assert ours.integers(0, 2 ** 63) == theirs.integers(0, 2 ** 63)


@needs_draw_kernel
@pytest.mark.parametrize("limit", [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 3.0,
                                   5.0, 5.5, 6.0, 6.5, 254.5, 255.0, 300.0, np.inf, np.nan])
def test_compiled_uint8_counts_refuse_exactly_a_count_above_the_limit(limit):
    """The uint8 counts are refused where a count is above ``limit`` (compared as
    integers: a fractional, negative, infinite or NaN limit as the float comparison
    reads it), and kept otherwise, with NumPy's counts."""
    state = np.random.Generator(np.random.PCG64(11)).bit_generator.state
    expected = np.empty((3, 40))
    DRAWS.count_pcg64_draws(state, expected, np.inf)
    counts = np.empty((3, 40), dtype=np.uint8)
    after = DRAWS.count_pcg64_draws(state, counts, limit)
    assert (after is None) == bool(np.any(expected > limit))
    if after is not None:
        np.testing.assert_array_equal(counts, expected)


@needs_draw_kernel
def test_compiled_counts_refuse_what_they_cannot_hold():
    """None (the generator's state untouched) where a uint8 count passes the limit; a
    range outside NumPy's 32-bit draws is refused."""
    generator = np.random.Generator(np.random.PCG64(0))
    before = generator.bit_generator.state
    counts = np.empty((2, 50), dtype=np.uint8)
    assert DRAWS.count_pcg64_draws(before, counts, 1) is None
    assert generator.bit_generator.state == before
    assert DRAWS.count_pcg64_draws(before, counts, 255) is not None
    for n_values in (0, 1):
        with pytest.raises(ValueError, match="2 to 2 \\*\\* 32 - 1 values"):
            DRAWS.count_pcg64_draws(before, np.empty((1, n_values)), np.inf)


def test_a_kernel_whose_counts_differ_is_not_used(monkeypatch):
    """The kernel is checked against NumPy's draws at first use: one that differs (a
    future NumPy's bounded draws) leaves the counting to NumPy."""
    class Shifted:
        @staticmethod
        def count_pcg64_draws(state, out, limit):
            out[:] = 0
            out[:, 0] = out.shape[1]
            return state

    assert not resampling._same_draws(Shifted)
    if DRAWS is not None:
        assert resampling._same_draws(DRAWS)
    monkeypatch.setattr(resampling, "compiled_draw_kernels", lambda: Shifted)
    monkeypatch.setattr(resampling, "_FUSED", None)
    assert resampling._compact_counts() is None
    assert not hasattr(resampling._counts(100), "rows")


def _batches(compact, n_values=3_000, n_resamples=75, n_jobs=1, seed=2):
    return list(resampling.instance_weights(np.random.default_rng(seed), n_values,
                                            n_resamples, False, n_jobs=n_jobs,
                                            compact=compact))


@needs_draw_kernel
@pytest.mark.parametrize("n_values", [3, 300, 3_000])
def test_compact_counts_are_the_float_counts(n_values, monkeypatch):
    """compact=True: uint8 counts, eight times the resamples a batch (in whole products
    of 32), the values of the float64 counts whatever the batches and the threads; and
    the float64 counts are those NumPy draws and counts (the kernel off)."""
    reference = np.concatenate(_batches(False, n_values))
    compact = _batches(True, n_values)
    assert all(batch.dtype == np.uint8 for batch in compact)
    np.testing.assert_array_equal(np.concatenate(compact), reference)
    monkeypatch.setattr(resampling, "_WEIGHT_ENTRIES", n_values * 5)
    monkeypatch.setattr(resampling, "_THREADED_VALUES", 0)
    small = _batches(True, n_values, n_jobs=2)
    assert len(small[0]) == 32 and len(_batches(False, n_values)[0]) == 5
    np.testing.assert_array_equal(np.concatenate(small), reference)
    monkeypatch.setattr(resampling, "_FUSED", (None,))  # NumPy's draws and bincount
    np.testing.assert_array_equal(np.concatenate(_batches(False, n_values)), reference)
    assert _batches(True, n_values)[0].dtype == np.float64


@needs_draw_kernel
def test_a_count_past_the_compact_type_is_drawn_again_in_float64(monkeypatch):
    """A batch with a count the uint8 counts cannot hold (here: above 5) is float64,
    its rows drawn by NumPy from the same states: the same values, and the batches
    after it go on in uint8, from where the streams are (streams of 32 resamples cut
    across batches of 20)."""
    reference = np.concatenate(_batches(False, 40, n_resamples=300))
    monkeypatch.setattr(resampling, "_COUNT_LIMIT", 5)
    monkeypatch.setattr(resampling, "_WEIGHT_ENTRIES", 100)  # 20 resamples a batch
    for n_jobs in (1, 2):
        batches = _batches(True, 40, n_resamples=300, n_jobs=n_jobs)
        assert {batch.dtype for batch in batches} == {np.dtype(np.uint8),
                                                       np.dtype(np.float64)}
        np.testing.assert_array_equal(np.concatenate(batches), reference)


@pytest.mark.parametrize("presorted", [True, False])
def test_compact_products_are_the_float_products(presorted, monkeypatch):
    """The grouped products of uint8 counts (read as float64 a product at a time) are
    those of the same counts in float64, bit for bit, with a last product padded."""
    from sklearn_confusion_ext._core.kinds import KINDS

    y_true, y_pred = TARGETS["probabilities"](np.random.default_rng(9))
    products = resampling.grouped_rows(KINDS["transport"], {}, y_true, y_pred, None)
    weights = _weights("counts", len(y_true), 45, seed=5)
    expected = products.matrices(weights, presorted=presorted, n_jobs=1)
    monkeypatch.setattr(resampling, "_THREADED_PRODUCTS", 0)
    for n_jobs in (1, 2):
        np.testing.assert_array_equal(products.matrices(
            weights.astype(np.uint8), presorted=presorted, n_jobs=n_jobs), expected)


def _blas_products(products, weights):
    """The grouped products as they were first written, the oracle of their numbers: each
    product of ``_PRODUCT_ROWS`` resamples (the last padded with zeros) one matmul of a
    stack of one, written in place into its row of the matrices. (NumPy's matmul of 2-D
    operands rounds some shapes otherwise than the same product in a stack.)"""
    size = resampling._PRODUCT_ROWS
    padded = -(-len(weights) // size) * size
    given = np.zeros((padded, weights.shape[1]))
    given[:len(weights)] = weights
    width = products.rows.shape[1]
    expected = np.zeros((padded, width, width))
    for row, (start, stop) in enumerate(products.bounds):
        if stop == start:
            continue
        for first in range(0, padded, size):
            with chunks.one_blas_thread():  # a product on threads may round otherwise
                np.matmul(given[None, first:first + size, start:stop],
                          products.rows[start:stop],
                          out=expected[None, first:first + size, row])
    return expected[:len(weights)]


@pytest.mark.parametrize("stack_entries", [1, 1 << 12, 1 << 18])
@pytest.mark.parametrize("n_samples, n_classes", [(500, 6), (20_000, 20)])
def test_grouped_products_are_one_blas_product_each(n_samples, n_classes, stack_entries,
                                                    monkeypatch):
    """The products written through a contiguous block and copied into the matrices give
    the numbers of one matmul a product written in place (the first grouped products),
    bit for bit, in stacks of any size, on any threads, from uint8 or float64 counts, with
    a class that no instance holds (its row zero) and a last product padded. (About a
    thousand instances a class beside 20 classes: a shape where OpenBLAS rounds a product
    of 64 rows otherwise than two of 32.)"""
    from sklearn_confusion_ext._core.kinds import KINDS

    y_true, y_pred = TARGETS["probabilities"](np.random.default_rng(14), n_samples,
                                              n_classes)
    y_true[y_true == 2] = 3  # class 2 labels no instance: an empty row of the matrix
    products = resampling.grouped_rows(KINDS["transport"], {}, y_true, y_pred, None,
                                       column_labels=np.arange(n_classes))
    assert 0 in np.diff(products.bounds, axis=1)
    weights = _weights("counts", len(y_true), 77, seed=3)
    expected = _blas_products(products, weights)
    monkeypatch.setattr(resampling, "_STACK_ENTRIES", stack_entries)
    monkeypatch.setattr(resampling, "_THREADED_PRODUCTS", 0)
    for n_jobs in (1, 2, -1):
        for given in (weights, weights.astype(np.uint8)):
            np.testing.assert_array_equal(
                products.matrices(given, presorted=True, n_jobs=n_jobs), expected)


def test_reused_matrices_are_each_call_s_own(monkeypatch):
    """matrices(reuse=True) writes over the last call's buffer: every call gives the
    matrices a new buffer gives, bit for bit, after calls of more and of fewer resamples
    (an empty row of the matrix stays zero), on one thread and on several."""
    from sklearn_confusion_ext._core.kinds import KINDS

    y_true, y_pred = TARGETS["probabilities"](np.random.default_rng(15), n_samples=400)
    y_true[y_true == 4] = 0
    products = resampling.grouped_rows(KINDS["transport"], {}, y_true, y_pred, None,
                                       column_labels=np.arange(6))
    monkeypatch.setattr(resampling, "_THREADED_PRODUCTS", 0)
    kept = None
    for seed, n_resamples, n_jobs in ((1, 64, 1), (2, 7, 2), (3, 100, 2), (4, 33, 1),
                                      (5, 64, -1)):
        weights = _weights("counts", len(y_true), n_resamples, seed=seed).astype(np.uint8)
        fresh = products.matrices(weights, presorted=True, n_jobs=n_jobs)
        reused = products.matrices(weights, presorted=True, n_jobs=n_jobs, reuse=True)
        np.testing.assert_array_equal(reused, fresh)
        assert not np.any(reused[:, 4])
        if kept is not None and len(kept) >= n_resamples:  # the one buffer, written over
            assert np.shares_memory(reused, kept)
        kept = reused if kept is None or len(reused) > len(kept) else kept


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_reused_matrices_never_alias_the_scores(method, monkeypatch):
    """A score read straight from the matrices (a view of them) is copied before the next
    block writes over them: the interval of many small blocks through the reused buffer
    is the one of a new buffer a block."""
    from sklearn_confusion_ext._scores import resolved

    y_true, y_pred = TARGETS["probabilities"](np.random.default_rng(16), n_samples=300)
    monkeypatch.setattr(resampling, "_WEIGHT_ENTRIES", 300 * 40 // 8)  # blocks of 32
    monkeypatch.setattr(resolved._Data, "of_full_counts",
                        lambda self, matrices: matrices[:, 0])  # a view: one cell's count

    def run():
        return sce.score_confidence_interval(y_true, y_pred, method=method,
                                             n_resamples=150, random_state=2)

    ours = run().distribution
    matrices = resampling.GroupedRows.matrices
    monkeypatch.setattr(resampling.GroupedRows, "matrices",
                        lambda self, weights, presorted=False, n_jobs=None, reuse=False:
                        matrices(self, weights, presorted, n_jobs))
    np.testing.assert_array_equal(ours, run().distribution)
    assert len(np.unique(ours)) > 10


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_intervals_of_labels_beside_probabilities_keep_their_numbers(method, monkeypatch):
    """The compact counts and their products give the interval NumPy's own draws, counted
    in float64, give (the path before them), bit for bit."""
    y_true, y_pred = TARGETS["probabilities"](np.random.default_rng(12), n_samples=700)

    def run():
        return sce.score_confidence_interval(y_true, y_pred, method=method,
                                             n_resamples=130, random_state=4)

    ours = run()
    monkeypatch.setattr(resampling, "_FUSED", (None,))
    theirs = run()
    np.testing.assert_array_equal(ours.distribution, theirs.distribution)
    assert (ours.low, ours.high) == (theirs.low, theirs.high)
