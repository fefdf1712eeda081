"""The transport matrices of array-API targets summed on their device (a GPU's route).

PyTorch CPU tensors normally take the NumPy route (views of their memory); here they are
also sent down the route CUDA tensors take (``torch_device``), so that the device code is
tested without a GPU. Every result equals NumPy's, and the sums come to the host once per
call, however many chunks the rows are read in.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from float_bounds import assert_within_float32_bound, float32_term_roundings

import sklearn_confusion_ext as sce

compat = pytest.importorskip("array_api_compat")

LIBRARIES = ["array_api_strict", "torch_device"]
N_CLASSES = 5


@pytest.fixture(params=LIBRARIES)
def to_device(request, monkeypatch):
    """``asarray`` of the library, whose arrays take the device route."""
    if request.param == "torch_device":
        torch = pytest.importorskip("torch")
        from sklearn_confusion_ext._core import array_api

        # CUDA tensors are not CPU tensors: the same route, on the CPU.
        monkeypatch.setattr(array_api, "is_cpu_tensor", lambda array: False)
        return torch.asarray
    return pytest.importorskip("array_api_strict").asarray


def _host(result):
    if isinstance(result, tuple):
        return tuple(_host(part) for part in result)
    return np.from_dlpack(result)


def _targets(rng, form, n_samples=300, dtype=np.float64):
    labels = rng.integers(0, N_CLASSES, n_samples)
    scores = rng.dirichlet(np.ones(N_CLASSES), n_samples).astype(dtype)
    if form == "labels_vs_probabilities":
        return labels, scores
    if form == "probabilities_vs_labels":
        return scores, labels
    if form == "labels":
        return labels, rng.integers(0, N_CLASSES, n_samples)
    if form == "soft":
        return (rng.random((n_samples, N_CLASSES)).astype(dtype),
                rng.random((n_samples, N_CLASSES)).astype(dtype))
    y_true = (rng.random((n_samples, N_CLASSES)) < 0.4).astype(dtype)  # indicators
    y_true[:, 0] = 1  # no empty row: the device sums take them
    return y_true, np.roll(y_true, 1, axis=1)


def _mass_plus_one(y_true, y_pred):
    """A weighting callable of any array library (NumPy gets labels as sparse rows)."""
    if sp.issparse(y_true):
        return np.asarray(y_true.sum(axis=1)).ravel() + 1.0
    xp = compat.array_namespace(y_true)
    return xp.sum(y_true, axis=1) + 1.0


def _float64_matrix(y_true, y_pred, **params):
    """The matrix of float32 targets' values computed in float64 (without the warning that
    float32 probabilities, read in float64, do not sum to 1 to float64's tolerance)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sce.transport_confusion_matrix(np.asarray(y_true, dtype=np.float64),
                                              np.asarray(y_pred, dtype=np.float64), **params)


FORMS = ["labels_vs_probabilities", "probabilities_vs_labels", "labels", "soft", "indicator"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_device_sums_equal_numpy(rng, to_device, form, dtype):
    """Every weighting, with and without sample weights, in one chunk and in many, for the
    TCM and the SCM bounds: the NumPy figures (float32 within float32's precision)."""
    y_true, y_pred = _targets(rng, form, dtype=dtype)
    sample_weight = rng.random(len(y_true))
    exact = [y.astype(np.float64) for y in (y_true, y_pred)]  # the float32 values, exactly
    expected_matrix = sce.transport_confusion_matrix if dtype == np.float64 else \
        _float64_matrix

    def check(got, expected):
        if dtype == np.float32:  # float32's bound for a sum of len(y_true) terms
            assert_within_float32_bound(got, expected, len(y_true),
                                        float32_term_roundings(N_CLASSES))
        else:
            np.testing.assert_allclose(got, expected, atol=1e-10)

    for weighting, weights in (("uniform", None), ("true", sample_weight), ("pred", None),
                               (_mass_plus_one, sample_weight)):
        expected = expected_matrix(*exact, weighting=weighting, sample_weight=weights)
        for chunk_size in (None, 7):
            got = sce.transport_confusion_matrix(
                to_device(y_true), to_device(y_pred), weighting=weighting,
                chunk_size=chunk_size,
                sample_weight=None if weights is None else to_device(weights))
            assert compat.array_namespace(got) is compat.array_namespace(
                to_device(y_true))
            check(_host(got), expected)
    bounds = sce.subpixel_confusion_matrix(to_device(y_true), to_device(y_pred),
                                           sample_weight=to_device(sample_weight),
                                           chunk_size=11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # float32 probabilities in float64
        expected = sce.subpixel_confusion_matrix(*exact, sample_weight=sample_weight)
    check(np.stack(_host(bounds)), np.stack(expected))


@pytest.mark.parametrize("form", ["soft", "labels_vs_probabilities"])
def test_float32_products_in_blocks_summed_in_float64(rng, to_device, monkeypatch, form):
    """float32 rows are multiplied in blocks (one batched product), the blocks summed in
    float64: the float64 figures within float32's bound, with blocks of 20 rows (16, but
    at least 4 a class), a last partial block included."""
    from sklearn_confusion_ext._core import device_sums

    monkeypatch.setattr(device_sums, "FLOAT32_PRODUCT_ROWS", 16)
    y_true, y_pred = _targets(rng, form, n_samples=310, dtype=np.float32)
    exact = _float64_matrix(y_true, y_pred, weighting="true")
    for chunk_size in (None, 90):  # 310 rows: 15 blocks and 10 rows; 4 blocks and 10 rows
        got = sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred),
                                             weighting="true", chunk_size=chunk_size)
        assert_within_float32_bound(_host(got), exact, 310,
                                    float32_term_roundings(N_CLASSES))


@pytest.mark.parametrize("form", ["indicator", "soft"])
def test_float32_rows_within_float32_accuracy(to_device, form):
    """5,000 float32 rows in one chunk: each cell within float32's error bound of the
    float64 matrix (5,000 terms + the roundings of a term, times eps, times the cell), as
    NumPy's float32 figures are. The bound is the worst case of any order of the sums, so
    it holds on every version of every library (an absolute 1e-3 did not: NumPy's own
    float32 cell of 914.75 came out 914.752 on a fresh install)."""
    y_true, y_pred = _targets(np.random.default_rng(0), form, n_samples=5_000,
                              dtype=np.float32)
    exact = _float64_matrix(y_true, y_pred)
    roundings = float32_term_roundings(N_CLASSES)
    assert_within_float32_bound(sce.transport_confusion_matrix(y_true, y_pred), exact,
                                5_000, roundings)  # NumPy's own float32 figures
    got = sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred))
    assert_within_float32_bound(_host(got), exact, 5_000, roundings)


def test_torch_sparse_segmented_sum_equals_numpy(rng, monkeypatch):
    """PyTorch's other way to sum float64 rows by class (a sparse CSR product), which the
    GPU benchmark times beside index_add_."""
    torch = pytest.importorskip("torch")
    from sklearn_confusion_ext._core import array_api, device_sums

    monkeypatch.setattr(array_api, "is_cpu_tensor", lambda array: False)
    monkeypatch.setattr(device_sums, "TORCH_SEGMENTED_SUM", "sparse")
    for form in ("labels_vs_probabilities", "probabilities_vs_labels"):
        y_true, y_pred = _targets(rng, form)
        weights = rng.random(len(y_true))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # torch's beta warning is not the user's
            got = sce.transport_confusion_matrix(torch.asarray(y_true), torch.asarray(y_pred),
                                                 sample_weight=torch.asarray(weights),
                                                 chunk_size=64)
        np.testing.assert_allclose(got.numpy(), sce.transport_confusion_matrix(
            y_true, y_pred, sample_weight=weights), atol=1e-12)


def test_labels_subsets_and_orders_on_the_device(rng, to_device):
    """labels= in another order, a subset (1-D labels) or naming the columns (scores)."""
    y_true, y_pred = _targets(rng, "labels")
    for labels in ([4, 2, 0], [3, 1, 0, 2, 4, 7]):
        np.testing.assert_array_equal(
            _host(sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred),
                                                 labels=labels, chunk_size=13)),
            sce.transport_confusion_matrix(y_true, y_pred, labels=labels))
    y_true, scores = _targets(rng, "labels_vs_probabilities")
    columns = [40, 30, 20, 10, 0]  # the columns' class labels, not sorted
    named = np.asarray(columns)[y_true]
    np.testing.assert_allclose(
        _host(sce.transport_confusion_matrix(to_device(named), to_device(scores),
                                             labels=columns, chunk_size=13)),
        sce.transport_confusion_matrix(named, scores, labels=columns), atol=1e-12)


@pytest.mark.parametrize("form", ["labels_vs_probabilities", "soft"])
def test_empty_rows_follow_empty_on_the_device(rng, to_device, form):
    """A row with no mass: skipped with a warning, refused naming it, as NumPy does."""
    y_true, y_pred = _targets(rng, form)
    y_pred[123] = 0
    with pytest.warns(UserWarning) as device_warnings:
        got = sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred),
                                             empty="skip", chunk_size=50)
    with pytest.warns(UserWarning) as numpy_warnings:
        expected = sce.transport_confusion_matrix(y_true, y_pred, empty="skip")
    np.testing.assert_allclose(_host(got), expected, atol=1e-12)
    assert {str(w.message) for w in device_warnings} == {str(w.message) for w in numpy_warnings}
    for empty in ("error", "null_class"):
        with pytest.raises(ValueError, match=r"all-zero rows in y_pred \(rows \[123\]\)"), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the row of no mass does not sum to 1 either
            sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred), empty=empty,
                                           chunk_size=50)


def test_the_none_class_of_indicators_on_the_device(rng, to_device):
    y_true, y_pred = _targets(rng, "indicator")
    y_true[[5, 77], :] = 0
    y_pred[[77, 200], :] = 0
    np.testing.assert_allclose(
        _host(sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred),
                                             chunk_size=64)),
        sce.transport_confusion_matrix(y_true, y_pred), atol=1e-12)


@pytest.mark.parametrize("form", ["labels_vs_probabilities", "probabilities_vs_labels", "soft"])
def test_bad_values_are_refused_naming_the_row(rng, to_device, form):
    y_true, y_pred = _targets(rng, form)
    bad, name = (y_pred, "y_pred") if y_pred.ndim == 2 else (y_true, "y_true")
    bad[211, 1] = -0.25
    with pytest.raises(ValueError, match=f"{name} has negative entries .* row 211"):
        sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred), chunk_size=100)
    bad[211, 1] = np.nan
    with pytest.raises(ValueError, match=f"{name} contains nan .* row 211"):
        sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred), chunk_size=100)
    bad[211, 1] = np.inf
    with pytest.raises(ValueError, match=f"{name} contains inf .* row 211"):
        sce.transport_confusion_matrix(to_device(y_true), to_device(y_pred))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_probability_warning_is_given_once_as_numpy_gives_it(rng, to_device, dtype):
    y_true, scores = _targets(rng, "labels_vs_probabilities", dtype=dtype)
    scores[150:] *= 2  # percentages, scaled scores: rows not summing to 1
    with warnings.catch_warnings(record=True) as device_warnings:
        warnings.simplefilter("always")
        got = sce.transport_confusion_matrix(to_device(y_true), to_device(scores),
                                             chunk_size=20)
    with warnings.catch_warnings(record=True) as numpy_warnings:
        warnings.simplefilter("always")
        expected = sce.transport_confusion_matrix(y_true, scores, chunk_size=20)
    assert len(device_warnings) == 1
    assert "row 150 sums to 2" in str(device_warnings[0].message)
    assert [str(w.message) for w in device_warnings] == [str(w.message)
                                                          for w in numpy_warnings]
    if dtype == np.float32:
        assert_within_float32_bound(_host(got), _float64_matrix(y_true, scores), len(y_true),
                                    float32_term_roundings(N_CLASSES))
    else:
        np.testing.assert_allclose(_host(got), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("form", ["labels_vs_probabilities", "labels", "soft", "indicator"])
def test_one_read_back_per_call_however_many_chunks(rng, monkeypatch, form):
    """The sums stay on the device across chunks: what comes to the host (transfers,
    scalars read to decide) does not grow with the number of chunks (it grew by several a
    chunk: the partial matrices and the checks of each chunk)."""
    xp = pytest.importorskip("array_api_strict")
    array_type = type(xp.asarray(0.0))
    reads = []
    for method in ("__dlpack__", "__array__", "__bool__", "__float__", "__int__", "__index__"):
        original = getattr(array_type, method, None)
        if original is None:
            continue

        def counted(self, *args, _original=original, _method=method, **kwargs):
            reads.append(_method)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(array_type, method, counted)
    y_true, y_pred = _targets(rng, form, n_samples=400)
    counts = {}
    for chunk_size in (None, 10):  # one chunk, and 40
        reads.clear()
        sce.transport_confusion_matrix(xp.asarray(y_true), xp.asarray(y_pred),
                                       chunk_size=chunk_size,
                                       sample_weight=xp.asarray(np.ones(400)))
        counts[chunk_size] = len(reads)
    assert counts[10] == counts[None], counts
