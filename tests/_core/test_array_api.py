"""Arrays of other array-API libraries are computed there and come back there."""

import re
import warnings

import numpy as np
import pytest
from kinds import CASES, one_shot, random_targets

from sklearn_confusion_ext import (
    ConfusionAccumulator,
    mlcm,
    transport_confusion_matrix,
    transport_precision_recall_fscore_support,
)

compat = pytest.importorskip("array_api_compat")


def _library(name):
    if name == "torch":
        torch = pytest.importorskip(
            "torch", reason="PyTorch is not installed (pip install torch==2.13.0: CPU build)")
        return torch.asarray
    return pytest.importorskip("array_api_strict").asarray


LIBRARIES = ["array_api_strict", "torch"]
ANIMALS = ["ant", "bee", "cat", "dog"]


def _numeric_targets(rng, form):
    """Random targets; 1-D labels as integers (no strings outside NumPy)."""
    y_true, y_pred = random_targets(rng, form)
    if form == "labels":
        return np.searchsorted(ANIMALS, y_true), np.searchsorted(ANIMALS, y_pred), [3, 0, 4]
    return y_true, y_pred, [3, 0]


def _assert_in_namespace_of(result, example):
    for matrix in result if isinstance(result, tuple) else (result,):
        assert compat.array_namespace(matrix) is compat.array_namespace(example)
        assert compat.device(matrix) == compat.device(example)


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("kind, form, params", CASES)
def test_every_kind_equals_numpy_and_returns_in_the_input_namespace(rng, library, kind, form,
                                                                     params):
    asarray = _library(library)
    y_true, y_pred, labels = _numeric_targets(rng, form)
    weights = rng.random(len(y_true))
    function = "transport" if kind == "classic" else kind  # the library's own builder
    for chosen in (None, labels):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns
            expected = one_shot(kind, y_true, y_pred, weights, chosen, params)
            got = one_shot(function, asarray(y_true), asarray(y_pred), asarray(weights),
                           chosen, params)
            accumulator = ConfusionAccumulator(kind, labels=chosen, **params)
            for rows in (slice(0, 50), slice(50, None)):
                accumulator.update(asarray(y_true[rows]), asarray(y_pred[rows]),
                                   sample_weight=asarray(weights[rows]))
        for result in (got, accumulator.result()):
            _assert_in_namespace_of(result, asarray(y_true))
            np.testing.assert_allclose(_host(result), expected, atol=1e-10)


def _host(result):
    if isinstance(result, tuple):
        return tuple(_host(matrix) for matrix in result)
    return np.from_dlpack(result)


@pytest.mark.parametrize("library", LIBRARIES)
def test_chunks_and_normalize_on_the_device(rng, library):
    asarray = _library(library)
    y_true, y_pred = rng.random((3000, 6)), rng.random((3000, 6))
    expected = transport_confusion_matrix(y_true, y_pred, normalize="true", weighting="pred")
    got = transport_confusion_matrix(asarray(y_true), asarray(y_pred), normalize="true",
                                     weighting="pred", chunk_size=128, n_jobs=2)
    _assert_in_namespace_of(got, asarray(y_true))
    np.testing.assert_allclose(np.from_dlpack(got), expected, atol=1e-12)
    # Derived scores read the same matrix.
    np.testing.assert_allclose(
        transport_precision_recall_fscore_support(asarray(y_true), asarray(y_pred))[:3],
        transport_precision_recall_fscore_support(y_true, y_pred)[:3])


@pytest.mark.parametrize("library", LIBRARIES)
def test_bad_device_inputs(rng, library):
    asarray = _library(library)
    y_true, y_pred = rng.random((300, 4)), rng.random((300, 4))
    bad = y_true.copy()
    bad[211, 1] = -0.5
    with pytest.raises(ValueError, match="y_true has negative entries .* row 211"):
        transport_confusion_matrix(asarray(bad), asarray(y_pred), chunk_size=100)
    bad[211, 1] = np.nan
    with pytest.raises(ValueError, match="y_true contains nan .* row 211"):
        transport_confusion_matrix(asarray(bad), asarray(y_pred), chunk_size=100)
    with pytest.raises(ValueError, match="same number of samples; got 300 and 299"):
        transport_confusion_matrix(asarray(y_true), asarray(y_pred[:-1]))
    with pytest.raises(ValueError, match="same number of columns"):
        transport_confusion_matrix(asarray(y_true), asarray(y_pred[:, :3]))
    with pytest.raises(ValueError, match="non-integer .*soft labels as a 2-D"):
        transport_confusion_matrix(asarray(np.array([0.5, 1.0])), asarray(np.array([0., 1.])))
    with pytest.raises(ValueError, match="values other than 0 and 1"):
        mlcm(asarray(y_true), asarray(y_pred))
    with pytest.raises(ValueError, match="weighting callable must return 300 weights"):
        transport_confusion_matrix(asarray(y_true), asarray(y_pred),
                                   weighting=lambda t, p: np.ones(3))
    with pytest.raises(ValueError, match="sample_weight has negative entries"):
        transport_confusion_matrix(asarray(y_true), asarray(y_pred),
                                   sample_weight=asarray(-np.ones(300)))


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_weighting_callable_gets_the_library_arrays(rng, library):
    asarray = _library(library)
    seen = []

    def total_mass(y_true, y_pred):
        seen.append(compat.array_namespace(y_true))
        xp = compat.array_namespace(y_true)
        return xp.sum(y_true, axis=1) + xp.sum(y_pred, axis=1)

    y_true, y_pred = rng.random((200, 4)), rng.random((200, 4))
    got = transport_confusion_matrix(asarray(y_true), asarray(y_pred), weighting=total_mass)
    _assert_in_namespace_of(got, asarray(y_true))
    assert seen[-1] is compat.array_namespace(asarray(y_true))
    np.testing.assert_allclose(np.from_dlpack(got), transport_confusion_matrix(
        y_true, y_pred, weighting=lambda t, p: t.sum(axis=1) + p.sum(axis=1)))


def test_mixed_libraries_are_refused(rng):
    strict = _library("array_api_strict")
    torch = _library("torch")
    y = rng.random((10, 3))
    with pytest.raises(ValueError, match="different array libraries"):
        transport_confusion_matrix(strict(y), torch(y))


@pytest.mark.parametrize("library", LIBRARIES)
def test_numpy_beside_a_device_array_joins_it(rng, library):
    asarray = _library(library)
    y_true, y_pred = rng.random((50, 3)), rng.random((50, 3))
    got = transport_confusion_matrix(asarray(y_true), y_pred.tolist())
    _assert_in_namespace_of(got, asarray(y_true))
    np.testing.assert_allclose(np.from_dlpack(got), transport_confusion_matrix(y_true, y_pred))


def test_the_sums_run_on_the_input_arrays(rng, monkeypatch):
    """Arrays off the NumPy route (here array_api_strict, as a GPU tensor): the block sums
    see the library's own arrays, not NumPy copies (the SCM bounds of soft rows: the
    reference route; the TCM's device sums are tested in test_device_sums.py)."""
    xp = pytest.importorskip("array_api_strict")
    from sklearn_confusion_ext import subpixel_confusion_matrix
    from sklearn_confusion_ext._matrices import transport

    seen = []
    bounds_block = transport._bounds_block

    def spy(u, v, *rest):
        seen.append((type(u), type(v)))
        return bounds_block(u, v, *rest)

    monkeypatch.setattr(transport, "_bounds_block", spy)
    y = rng.random((40, 3))
    subpixel_confusion_matrix(xp.asarray(y), xp.asarray(y[::-1].copy()))
    strict = type(xp.asarray(y))
    assert seen and all(types == (strict, strict) for types in seen)


def test_cpu_tensors_are_read_as_numpy_views(rng, monkeypatch):
    """PyTorch CPU tensors are computed by the NumPy code on views of their memory (no
    copy, no per-chunk conversion): the block sums see NumPy arrays sharing the tensors'
    memory, and the result comes back as a tensor."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    from sklearn_confusion_ext._matrices import transport

    seen = []
    plan_block = transport._plan_block

    def spy(u, v, *rest):
        seen.append((type(u), type(v)))
        return plan_block(u, v, *rest)

    monkeypatch.setattr(transport, "_plan_block", spy)
    # The NumPy reference of the compiled soft kernel calls the spied block function (the
    # kernel reads the same views: tests/_core/test_kernels.py checks it equals the reference).
    from sklearn_confusion_ext._core import kernels

    monkeypatch.setattr(kernels, "COMPILED", None)
    y_true, y_pred = rng.random((40, 3)), rng.random((40, 3))
    true, pred = torch.asarray(y_true), torch.asarray(y_pred)
    result = transport_confusion_matrix(true, pred, chunk_size=16)
    assert seen and all(types == (np.ndarray, np.ndarray) for types in seen)
    assert isinstance(result, torch.Tensor) and result.dtype == torch.float64
    np.testing.assert_array_equal(result.numpy(), transport_confusion_matrix(y_true, y_pred,
                                                                             chunk_size=16))
    from sklearn_confusion_ext._core.array_api import host_views

    view = host_views(true, pred, None)[0]
    assert np.shares_memory(view, true.numpy())
    # A tensor that requires grad, and a conjugate/negative view, are read alike.
    grad = torch.asarray(y_true, requires_grad=True)
    np.testing.assert_array_equal(transport_confusion_matrix(grad, pred, chunk_size=16).numpy(),
                                  result.numpy())


@pytest.mark.parametrize("library", LIBRARIES)
def test_accumulator_pickles_and_adds_mid_stream(rng, library):
    import pickle

    asarray = _library(library)
    y_true, y_pred = random_targets(rng, "soft", 90)
    accumulator = ConfusionAccumulator("transport", weighting="true")
    accumulator.update(asarray(y_true[:40]), asarray(y_pred[:40]))
    accumulator = pickle.loads(pickle.dumps(accumulator))
    other = ConfusionAccumulator("transport", weighting="true")
    other.update(asarray(y_true[40:]), asarray(y_pred[40:]))
    result = (accumulator + other).result()
    _assert_in_namespace_of(result, asarray(y_true))
    np.testing.assert_allclose(np.from_dlpack(result),
                               transport_confusion_matrix(y_true, y_pred, weighting="true"))


def test_labels_as_an_array_on_another_device():
    """labels= given as an array of the targets' library, on a non-default device."""
    xp = pytest.importorskip("array_api_strict")
    if not hasattr(xp, "Device"):
        pytest.skip("this array_api_strict has a single device (multiple devices: 2.1+)")
    device = xp.Device("device1")
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    on_device = [xp.asarray(y, device=device) for y in (y_true, y_pred)]
    labels = xp.asarray([2, 0, 5], device=device)
    matrix = transport_confusion_matrix(*on_device, labels=labels)
    assert compat.device(matrix) == device
    np.testing.assert_array_equal(
        np.from_dlpack(xp.asarray(matrix, device=xp.Device("CPU_DEVICE"))),
        transport_confusion_matrix(y_true, y_pred, labels=[2, 0, 5]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = transport_precision_recall_fscore_support(*on_device, labels=labels)
        expected = transport_precision_recall_fscore_support(y_true, y_pred, labels=[2, 0, 5])
    # Per-class scores come back on the device too (scikit-learn's array API rule).
    assert all(compat.device(array) == device for array in got)
    np.testing.assert_array_equal(
        np.stack([np.from_dlpack(xp.asarray(array, device=xp.Device("CPU_DEVICE")))
                  for array in got]), np.stack(expected))


# --- Every public function: results in the input's namespace, as scikit-learn returns them ---

def _registry_cases():
    """(name, kind of targets) of every registered function of arrays: sample targets,
    confusion matrices or prevalence vectors (classes, Displays and factories left out)."""
    import inspect

    from test_common import REGISTRY, SAMPLE_KINDS

    import sklearn_confusion_ext as sce

    return [pytest.param(name, kind, id=f"{name}-{kind}")
            for name, entry in sorted(REGISTRY.items())
            if inspect.isfunction(getattr(sce, name))
            for kind in entry.targets if kind in (*SAMPLE_KINDS, "matrix", "prevalence")]


REGISTRY_CASES = _registry_cases()


def _leaves(result, where="result"):
    """``(where, value)`` of every array or number a result is made of: its items when it
    is a tuple or a list of arrays, else the result."""
    if type(result) in (tuple, list) and not all(isinstance(v, (int, float)) for v in result):
        return [leaf for i, item in enumerate(result) for leaf in _leaves(item, f"{where}[{i}]")]
    return [(where, result)]


def _check_namespace_rule(got, expected, space, name):
    """``got`` equals ``expected`` (NumPy inputs' result) and follows scikit-learn's rule:
    arrays in ``space`` (None: NumPy arrays), scalar scores as Python floats."""
    got_leaves, expected_leaves = _leaves(got), _leaves(expected)
    assert [w for w, _ in got_leaves] == [w for w, _ in expected_leaves], name
    for (where, value), (_, reference) in zip(got_leaves, expected_leaves):
        label = f"{name}: {where}"
        if isinstance(reference, np.ndarray) and reference.ndim and \
                reference.dtype.kind in "biuf":
            if space is None:
                assert type(value) is np.ndarray, f"{label} is {type(value)}"
                host = value
            else:
                assert compat.array_namespace(value) is compat.array_namespace(space), label
                assert compat.device(value) == compat.device(space), label
                host = np.from_dlpack(value)
            assert host.dtype == reference.dtype, label
            np.testing.assert_allclose(host, reference, rtol=1e-12, atol=1e-12, err_msg=label)
        elif isinstance(reference, (float, np.floating)) or (
                isinstance(reference, np.ndarray) and reference.ndim == 0):
            assert type(value) is float, f"{label} is {type(value)}, not a Python float"
            np.testing.assert_allclose(value, float(reference), rtol=1e-12, atol=1e-12,
                                       err_msg=label)
        elif reference is None or isinstance(reference, (str, int, dict)):
            assert type(value) is type(reference), label
            if not isinstance(reference, dict):
                assert value == reference, label
        else:  # result objects: read as NumPy inputs give them
            assert type(value) is type(reference), label


def _registry_call(name, kind, convert):
    """The function's result on random inputs of ``kind``, and on them ``convert``-ed."""
    from test_common import REGISTRY, random_inputs

    import sklearn_confusion_ext as sce

    entry = REGISTRY[name]

    def call_on(name, inputs, **keywords):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(sce, name)(**inputs, **{**entry.fixed, **keywords})

    inputs = random_inputs(name, kind, np.random.default_rng(0))
    keywords = {}
    if entry.sample_weight:
        keywords["sample_weight"] = np.random.default_rng(1).random(40)
    expected = call_on(name, inputs, **keywords)
    converted = {key: convert(np.asarray(value)) for key, value in inputs.items()}
    if "sample_weight" in keywords:
        keywords["sample_weight"] = convert(keywords["sample_weight"])
    return call_on(name, converted, **keywords), expected


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("name, kind", REGISTRY_CASES)
def test_every_public_function_returns_in_the_input_namespace(name, kind, library):
    asarray = _library(library)
    got, expected = _registry_call(name, kind, asarray)
    _check_namespace_rule(got, expected, asarray(np.zeros(1)), name)


@pytest.mark.parametrize("name, kind", REGISTRY_CASES)
def test_cpu_tensors_work_with_the_plain_install(monkeypatch, name, kind):
    """Without array-api-compat (no [array-api] extra), CPU tensors are read through NumPy,
    as sklearn.metrics reads them, and the results are NumPy's."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    monkeypatch.setitem(__import__("sys").modules, "array_api_compat", None)
    got, expected = _registry_call(name, kind, torch.asarray)
    _check_namespace_rule(got, expected, None, name)


# --- The same random_state, the same numbers on every library --------------------------------

def _resampling_cases():
    """(name, kind, keywords) of every registered function of sample targets that takes
    ``random_state``, under each option of its ``method`` (every interval method, every
    comparison), the reports with their intervals; on every kind of targets it takes and on
    labels beside probabilities (a classifier's predict_proba) where it takes scores;
    unweighted, and weighted under the first method (another resampling path)."""
    import inspect

    from declarations import DECLARATIONS
    from test_common import REGISTRY, SAMPLE_KINDS

    import sklearn_confusion_ext as sce
    from sklearn_confusion_ext._core.params import options_of

    cases = []
    for name, entry in sorted(REGISTRY.items()):
        function = getattr(sce, name)
        if not inspect.isfunction(function) or \
                "random_state" not in inspect.signature(function).parameters:
            continue
        kinds = [kind for kind in entry.targets if kind in SAMPLE_KINDS]
        if "soft" in kinds:
            kinds.append("probabilities")
        variants = [{"method": method} for method in options_of(DECLARATIONS[name], "method")] \
            if "method" in DECLARATIONS[name] else [{}]
        if "output_dict" in DECLARATIONS[name]:  # the reports: their intervals, as numbers
            variants = [{**keywords, "confidence_level": 0.9, "output_dict": True}
                        for keywords in variants]
        for kind in kinds:
            for index, keywords in enumerate(variants):
                for weighted in ((False, True) if index == 0 and entry.sample_weight
                                 else (False,)):
                    cases.append(pytest.param(
                        name, kind, keywords, weighted,
                        id=f"{name}-{kind}-{_show(keywords)}{'-weighted' * weighted}"))
    return cases


def _show(keywords):
    return ",".join(f"{key}={value}" for key, value in keywords.items()) or "defaults"


RESAMPLING_CASES = _resampling_cases()


def _resampling_inputs(name, kind, weighted):
    """Targets of ``kind`` for the entry's target parameters (a second classifier of the
    same kind for a comparison), and sample weights where ``weighted``."""
    from test_common import REGISTRY
    from test_common import random_targets as registry_targets

    rng = np.random.default_rng(7)
    y_true, y_pred = registry_targets(kind, rng, n_samples=60)
    other = registry_targets(kind, rng, n_samples=60)[1]
    params = REGISTRY[name].target_params
    inputs = dict(zip(params, (y_true, y_pred, other)))
    if weighted:
        inputs["sample_weight"] = rng.random(60) + 0.5
    return inputs


def _equal_numbers(got, expected, where, device=False):
    """The same text and the same numbers, to the bit (NaN equal to NaN). ``device``: the
    targets were summed on their device (array_api_strict, a GPU's route), where a report's
    matrix of the data is the device's sum, in another order than NumPy's: its scores, and
    the bounds that are kept within reach of them, to 1e-13 (1.2e-16 seen)."""
    from test_common import assert_same, numeric_leaves

    if isinstance(expected, str):
        assert got == expected, where
        return
    if isinstance(expected, dict) and device:  # a report's dict
        assert_same(got, expected, rtol=1e-13, atol=1e-13, where=where)
        return
    got_leaves = [np.asarray(np.from_dlpack(leaf) if hasattr(leaf, "__dlpack__") and
                             not isinstance(leaf, np.ndarray) else leaf, dtype=float)
                  for leaf in numeric_leaves(_as_numpy(got))]
    expected_leaves = numeric_leaves(expected)
    assert len(got_leaves) == len(expected_leaves), where
    for index, (value, reference) in enumerate(zip(got_leaves, expected_leaves)):
        np.testing.assert_array_equal(value, reference, err_msg=f"{where}: number {index}")


def _as_numpy(result):
    """Arrays of another library in a result (tuples, dicts, result objects) as NumPy."""
    import dataclasses

    if isinstance(result, (str, bytes)) or result is None:
        return result
    if isinstance(result, dict):
        return {key: _as_numpy(value) for key, value in result.items()}
    if type(result) in (tuple, list):
        return type(result)(_as_numpy(value) for value in result)
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return {field.name: _as_numpy(getattr(result, field.name))
                for field in dataclasses.fields(result)}
    if not isinstance(result, np.ndarray) and hasattr(result, "__dlpack__"):
        return np.from_dlpack(result)
    return result


@pytest.fixture(params=["array_api_strict", "torch", "torch_device"])
def convert(request, monkeypatch):
    """``(asarray, on_device)`` of a library: array_api_strict, PyTorch CPU tensors, and
    CPU tensors sent down the route of a GPU's tensors (``torch_device``)."""
    if request.param == "torch_device":
        torch = pytest.importorskip("torch")
        from sklearn_confusion_ext._core import array_api

        monkeypatch.setattr(array_api, "is_cpu_tensor", lambda array: False)
        return torch.asarray, True
    return _library(request.param), request.param == "array_api_strict"


@pytest.mark.parametrize("name, kind, keywords, weighted", RESAMPLING_CASES)
def test_the_same_random_state_gives_the_same_numbers_on_every_library(
        convert, name, kind, keywords, weighted):
    """Every function that resamples, every method: the same targets as arrays of another
    library give NumPy's numbers to the bit (estimates, bounds, standard errors, p-values,
    the resampled distributions, the reports' text). Resampled one matrix at a time on
    their own route, PyTorch tensors beside probabilities drew the same weights for other
    instances than NumPy's grouped products: [0.098401, 0.100876] against NumPy's
    [0.098427, 0.100916] (N = 20,000, C = 10, 999 percentile resamples), in 8x the time."""
    from test_common import REGISTRY

    import sklearn_confusion_ext as sce

    convert, on_device = convert
    function = getattr(sce, name)
    inputs = _resampling_inputs(name, kind, weighted)
    fixed = {**REGISTRY[name].fixed, **keywords, "random_state": 3}

    def call(arrays):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(**arrays, **fixed)

    try:
        expected = call(inputs)
    except (ValueError, TypeError) as error:  # refused alike, with the same message
        with pytest.raises(type(error)) as refused:
            call({key: convert(value) for key, value in inputs.items()})
        assert str(refused.value) == str(error)
        return
    got = call({key: convert(value) for key, value in inputs.items()})
    _equal_numbers(got, expected, f"{name}({_show(keywords)})", on_device)


@pytest.mark.parametrize("library", LIBRARIES)
def test_resampled_weighting_callables_get_the_library_arrays(rng, library):
    """The resampled matrices are built on the host, but a weighting callable still gets
    arrays of the targets' library (and the numbers are NumPy's)."""
    from sklearn_confusion_ext import score_confidence_interval

    asarray = _library(library)
    seen = []

    def mass_plus_one(y_true, y_pred):
        seen.append(compat.array_namespace(y_true))
        return compat.array_namespace(y_true).sum(y_true, axis=1) + 1.0

    y_true, y_pred = rng.random((80, 3)), rng.random((80, 3))
    got = score_confidence_interval(asarray(y_true), asarray(y_pred), weighting=mass_plus_one,
                                    method="percentile", n_resamples=50, random_state=0)
    expected = score_confidence_interval(y_true, y_pred, method="percentile", n_resamples=50,
                                         weighting=lambda t, p: t.sum(axis=1) + 1.0,
                                         random_state=0)
    assert seen and all(xp is compat.array_namespace(asarray(y_true)) for xp in seen)
    assert (got.estimate, got.low, got.high) == (expected.estimate, expected.low,
                                                 expected.high)


def test_cpu_tensors_are_resampled_by_numpys_batched_builders(rng, monkeypatch):
    """CPU tensors beside probabilities are resampled as NumPy's are: views of their memory
    (no copy) in the grouped products, every resample's matrix at once; none is built from
    the targets one at a time (999 builds: 8x NumPy's time at N = 20,000, C = 10)."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    from sklearn_confusion_ext import score_confidence_interval
    from sklearn_confusion_ext._core import resampling
    from sklearn_confusion_ext._core.array_api import on_the_host
    from sklearn_confusion_ext._scores import resolved as scoring

    builds, grouped = [], []
    confusions, matrices = scoring.confusions, resampling.GroupedRows.matrices

    def counted(*args, **kwargs):
        builds.append(1)
        return confusions(*args, **kwargs)

    def spied(self, weights, *args, **kwargs):
        grouped.append(len(weights))
        return matrices(self, weights, *args, **kwargs)

    monkeypatch.setattr(scoring, "confusions", counted)
    monkeypatch.setattr(resampling.GroupedRows, "matrices", spied)
    y_true = rng.integers(0, 4, 300)
    scores = rng.dirichlet(np.ones(4), 300)
    for arrays in ((y_true, scores), (torch.asarray(y_true), torch.asarray(scores))):
        builds.clear(), grouped.clear()
        score_confidence_interval(*arrays, method="percentile", n_resamples=200,
                                  random_state=0)
        assert (len(builds), sum(grouped)) == (1, 200)
    tensor = torch.asarray(scores)
    assert np.shares_memory(on_the_host(torch.asarray(y_true), tensor)[1], tensor.numpy())


# --- CPU tensors under every kind of scoring: NumPy's numbers, at NumPy's speed ----------

_SCORINGS = ["tcm_f1_macro", "tcm_accuracy", "tcm_recall_weighted", "accuracy", "f1_macro",
             "balanced_accuracy", "matthews_corrcoef", "cohen_kappa", "jaccard_macro",
             "mlcm_f1_macro", "mlcm_precision_micro", "generalized_means",
             "symmetric_balanced_accuracy", "neg_confusion_entropy", "neg_log_loss",
             "top_k_accuracy"]


@pytest.mark.parametrize("kind", ["labels", "probabilities", "soft", "multilabel"])
@pytest.mark.parametrize("scoring", _SCORINGS)
def test_cpu_tensors_give_numpys_intervals_and_comparisons_under_every_scoring(scoring, kind):
    """score_confidence_interval (BCa, its jackknife included) and compare_scores of CPU
    tensors equal NumPy's to the bit under the library's scores, scikit-learn's scorer
    names (called on the tensors) and matrix scores, on every kind of targets, weighted
    and not; a scoring NumPy refuses on a kind is refused alike."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    from test_common import random_targets as registry_targets

    from sklearn_confusion_ext import compare_scores, score_confidence_interval

    rng = np.random.default_rng(11)
    y_true, y_pred = registry_targets(kind, rng, n_samples=50)
    other = registry_targets(kind, rng, n_samples=50)[1]
    weight = rng.random(50) + 0.5
    calls = [(score_confidence_interval, (y_true, y_pred), {"method": "bca"}),
             (score_confidence_interval, (y_true, y_pred), {"method": "percentile",
                                                           "sample_weight": weight}),
             (compare_scores, (y_true, y_pred, other), {})]
    for function, arrays, keywords in calls:
        def call(convert, function=function, arrays=arrays, keywords=keywords):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return function(*(convert(y) for y in arrays), scoring=scoring,
                                n_resamples=40, random_state=5,
                                **{key: convert(value) if key == "sample_weight" else value
                                   for key, value in keywords.items()})

        where = f"{function.__name__}({scoring}, {kind}, {keywords})"
        try:
            expected = call(np.asarray)
        except (ValueError, TypeError) as error:
            with pytest.raises(type(error)) as refused:
                call(torch.asarray)
            # the same words (a shape may be written as torch.Size([50, 4]))
            assert re.sub(r"torch\.Size\(\[([^]]*)\]\)", r"(\1)",
                          str(refused.value)) == str(error), where
            continue
        _equal_numbers(call(torch.asarray), expected, where)
