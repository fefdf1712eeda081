"""Hostile and extreme inputs, generated over the common registry (``test_common.REGISTRY``).

Every public function of sample targets, of labels beside probabilities or scores, of
confusion matrices and of prevalence vectors is called on inputs derived from a valid one,
and must give one of two outcomes (beside probabilities, an undefined measure may also be
NaN with an ``UndefinedMetricWarning``, never an infinity):

* **refused**: a ``ValueError`` or ``TypeError`` raised by the library whose message names
  the offending argument (never a bare ``IndexError``, ``ZeroDivisionError``, a NumPy
  ``RuntimeWarning``, or a crash);
* **answered**: a result whose every number is finite (reports: no ``nan``/``inf`` text),
  with no NumPy floating-point warning on the way.

Each class of defect has its generator here: corrupted values (NaN, infinite,
negative, complex), shapes (3-D, empty, mismatched, a 2-D ``sample_weight``), malformed
scipy.sparse structure (negative and out-of-range indices, inconsistent ``indptr``, in
CSR, CSC and COO), label types (``None``, ``pandas.NA``, strings beside numbers, ``"1"``
beside ``1``, uint64 labels beyond int64's range, report keys as class names), numeric
extremes (masses and weights from subnormal to near overflow, counts near 1e154 and
1e300, one-way discordance, tables at the boundary of every test) and degenerate matrices.
Hypothesis draws the positions and magnitudes (``derandomize=True``: CI sees the same
examples every run; set ``SCE_FUZZ_EXAMPLES`` for a longer run).
"""

import math
import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from declarations import DECLARATIONS
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_common import (
    PROBABILITY_KINDS,
    REGISTRY,
    SAMPLE_KINDS,
    assert_same,
    call,
    call_on,
    cases,
    minimal_keywords,
    random_targets,
    target_inputs,
    variant_cases,
)
from test_error_messages import internal_names

import sklearn_confusion_ext as sce

pd = pytest.importorskip("pandas")

EXAMPLES = int(os.environ.get("SCE_FUZZ_EXAMPLES", "12"))
# Shrinking a failure can take minutes over many functions: SCE_FUZZ_SHRINK=0 skips it.
PHASES = [Phase.explicit, Phase.reuse, Phase.generate] + (
    [Phase.shrink] if os.environ.get("SCE_FUZZ_SHRINK", "1") != "0" else [])
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck), phases=PHASES)
N_CLASSES = 3
REPORT_KEYS = ("accuracy", "macro avg", "weighted avg", "micro avg", "samples avg")


# --- Calling and judging ---------------------------------------------------------------------


def outcome(name, inputs, named=()):
    """Call ``name`` on ``inputs``: ("refused", message) or ("answered", result).

    A refusal must be a ValueError or TypeError naming one of ``named`` (default: the
    parameters that were given); NumPy floating-point warnings are errors.
    """
    keywords = {**REGISTRY[name].fixed, **inputs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("error", category=RuntimeWarning, module="numpy")
        warnings.filterwarnings("error", message=".*(overflow|invalid value|divide by zero)",
                                category=RuntimeWarning)
        try:
            result = getattr(sce, name)(**keywords)
        except (ValueError, TypeError) as error:
            message = str(error)
            names = named or tuple(inputs)
            assert any(argument in message for argument in names), (
                f"{name}: the message does not name any of {names}: {message}")
            assert not internal_names(name, message), (
                f"{name}: the message names {internal_names(name, message)}: {message}")
            return "refused", message
    return "answered", result


def assert_finite(name, result, where=""):
    """Every number of ``result`` is finite; a text report prints no nan or inf."""
    if isinstance(result, str):
        words = result.replace("\n", " ").split()
        assert not {"nan", "inf", "-inf"} & set(words), f"{name}{where}:\n{result}"
        return
    for leaf in _leaves(result):
        assert np.isfinite(leaf).all(), f"{name}{where}: {leaf}"


def _leaves(result):
    from test_common import numeric_leaves

    return numeric_leaves(result)


def assert_refused(name, inputs, named=()):
    status, value = outcome(name, inputs, named)
    assert status == "refused", f"{name} accepted hostile input and returned {value!r}"
    return value


def assert_refused_or_finite(name, inputs, named=()):
    status, value = outcome(name, inputs, named)
    if status == "answered":
        assert_finite(name, value)
    return status, value


def valid_inputs(name, kind, seed=0, n_samples=12):
    """A valid call of ``name`` on targets of ``kind`` (every class present in y_true)."""
    targets = random_targets(kind, np.random.default_rng(seed), n_samples, N_CLASSES)
    return target_inputs(REGISTRY[name].target_params, [np.asarray(y) for y in targets])


def with_probabilities(soft_cases):
    """``soft_cases`` and, for each function of ``(y_true, y_pred)`` among them, the same
    function on 1-D labels against probabilities (the "probabilities" kind)."""
    return [*soft_cases, *(
        pytest.param(case.values[0], "probabilities", id=f"{case.values[0]}-probabilities")
        for case in soft_cases if case.values[1] == "soft"
        and REGISTRY[case.values[0]].target_params == ("y_true", "y_pred"))]


def probability_cases():
    """Functions of labels beside probabilities or scores, for each kind they declare."""
    return cases(kinds=PROBABILITY_KINDS)


def sample_cases():
    return with_probabilities(cases(kinds=SAMPLE_KINDS)) + probability_cases()


def weighted_cases():
    return [case for case in sample_cases() if REGISTRY[case.values[0]].sample_weight]


def last_target(name):
    return REGISTRY[name].target_params[-1]


# --- Corrupted values and shapes -------------------------------------------------------------


def _with_value(y, value, position):
    y = np.array(y, dtype=np.result_type(y, type(value)))
    y.flat[position % y.size] = value
    return y


VALUE_CORRUPTIONS = {
    "nan": lambda y, at: _with_value(y, np.nan, at),
    "inf": lambda y, at: _with_value(y, np.inf, at),
    "-inf": lambda y, at: _with_value(y, -np.inf, at),
    "complex": lambda y, at: np.asarray(y) + 1j,
    "3-D": lambda y, at: np.asarray(y).reshape(*np.shape(y), 1, 1)[..., 0] if np.ndim(y) == 2
    else np.asarray(y)[:, None, None],
    "one row fewer": lambda y, at: np.asarray(y)[:-1],
    "strings in numbers": lambda y, at: _with_value(np.asarray(y, dtype=object), "x", at),
    "None inside": lambda y, at: _with_value(np.asarray(y, dtype=object), None, at),
    "pandas NA inside": lambda y, at: _with_value(np.asarray(y, dtype=object), pd.NA, at),
}
# Negative entries are refused only in 2-D targets (a negative class label is a label).
NEGATIVE = {"negative": lambda y, at: _with_value(y, -0.5, at)}


@FUZZ
@given(at=st.integers(0, 10 ** 6), corruption=st.sampled_from(sorted(VALUE_CORRUPTIONS)),
       which=st.integers(0, 1))
@pytest.mark.parametrize("name, kind", sample_cases())
def test_corrupted_targets_are_refused_naming_the_argument(name, kind, at, corruption, which):
    inputs = valid_inputs(name, kind)
    params = REGISTRY[name].target_params
    target = params[which % len(params)]
    inputs[target] = VALUE_CORRUPTIONS[corruption](inputs[target], at)
    if corruption == "one row fewer" and len(params) == 1:
        return  # one target: a shorter one is still valid
    if corruption == "one row fewer" and name == "prevalence_ranking":
        return  # test and training sets have their own sizes
    assert_refused(name, inputs, named=params)


@FUZZ
@given(at=st.integers(0, 10 ** 6), which=st.integers(0, 1))
@pytest.mark.parametrize("name, kind", cases(kinds=("multilabel", "soft")))
def test_negative_masses_are_refused(name, kind, at, which):
    inputs = valid_inputs(name, kind)
    params = REGISTRY[name].target_params
    target = params[which % len(params)]
    inputs[target] = NEGATIVE["negative"](inputs[target].astype(float), at)
    assert_refused(name, inputs, named=params)


@pytest.mark.parametrize("name, kind", sample_cases())
def test_empty_targets_are_refused(name, kind):
    inputs = {key: value[:0] for key, value in valid_inputs(name, kind).items()}
    assert_refused(name, inputs)


WEIGHT_CORRUPTIONS = {
    "nan": lambda n: np.r_[np.ones(n - 1), np.nan],
    "inf": lambda n: np.r_[np.ones(n - 1), np.inf],
    "negative": lambda n: np.r_[np.ones(n - 1), -1.0],
    "2-D": lambda n: np.ones((n, 1)),
    "2-D row": lambda n: np.ones((1, n)),
    "too short": lambda n: np.ones(n - 1),
    "complex": lambda n: np.ones(n) + 1j,
    "strings": lambda n: np.array(["1"] * n),
    "scalar": lambda n: np.float64(1.0),
}


@pytest.mark.parametrize("corruption", sorted(WEIGHT_CORRUPTIONS))
@pytest.mark.parametrize("name, kind", weighted_cases())
def test_corrupted_sample_weight_is_refused(name, kind, corruption):
    inputs = valid_inputs(name, kind)
    n_samples = len(next(iter(inputs.values())))
    inputs["sample_weight"] = WEIGHT_CORRUPTIONS[corruption](n_samples)
    assert_refused(name, inputs, named=("sample_weight",))


# --- Malformed scipy.sparse structure --------------------------------------------------------


def _csr_parts(y):
    y = sp.csr_array(np.asarray(y, dtype=float))
    return y.data.copy(), y.indices.copy(), y.indptr.copy(), y.shape


def _raw(fmt, data, indices, indptr, shape):
    """A sparse array holding exactly the given arrays, whatever they hold."""
    matrix = (sp.csr_array if fmt == "csr" else sp.csc_array)((np.ones(1), [0], [0, 1]),
                                                              shape=(1, 1))
    matrix.data, matrix.indices, matrix.indptr = data, indices, indptr
    matrix._shape = shape
    return matrix


def _structure(y, breakage, at):
    data, indices, indptr, shape = _csr_parts(y)
    fmt = "csr"
    if breakage.endswith("(csc)"):
        csc = sp.csc_array(sp.csr_array((data, indices, indptr), shape=shape))
        data, indices, indptr, fmt = csc.data.copy(), csc.indices.copy(), csc.indptr.copy(), "csc"
        breakage = breakage[:-len(" (csc)")]
    minor = shape[1] if fmt == "csr" else shape[0]
    spot = at % max(len(indices), 1)
    if breakage == "negative index":
        indices[spot] = -1 - at % 3
    elif breakage == "index out of range":
        indices[spot] = minor + at % 3
    elif breakage == "decreasing indptr":
        middle = 1 + at % (len(indptr) - 2) if len(indptr) > 2 else 1
        indptr[middle] = indptr[-1] + 1
    elif breakage == "indptr end beyond data":
        indptr[-1] = len(indices) + 1 + at % 3
    elif breakage == "indptr too short":
        indptr = indptr[:-1]
    elif breakage == "indices shorter than data":
        indices = indices[:-1]
    return _raw(fmt, data, indices, indptr, shape)


def _coo_out_of_range(y, breakage, at):
    coo = sp.coo_array(np.asarray(y, dtype=float))
    row, col = coo.row.copy(), coo.col.copy()
    spot = at % max(len(row), 1)
    if breakage == "coo row out of range":
        row[spot] = coo.shape[0] + at % 3
    else:
        col[spot] = -1
    broken = sp.coo_array((np.ones(1), ([0], [0])), shape=(1, 1))
    broken.data, broken.row, broken.col = coo.data.copy(), row, col
    broken._shape = coo.shape
    return broken


STRUCTURE_BREAKAGES = (
    "negative index", "index out of range", "decreasing indptr", "indptr end beyond data",
    "indptr too short", "indices shorter than data", "negative index (csc)",
    "index out of range (csc)", "coo row out of range", "coo negative column")


def _try_break(y, breakage, at):
    try:
        if breakage.startswith("coo"):
            return _coo_out_of_range(y, breakage, at)
        return _structure(y, breakage, at)
    except (AttributeError, ValueError) as error:  # a SciPy that refuses to hold it
        pytest.skip(f"this SciPy cannot hold such a matrix: {error}")


@FUZZ
@given(at=st.integers(0, 10 ** 6), breakage=st.sampled_from(STRUCTURE_BREAKAGES),
       which=st.integers(0, 1))
@pytest.mark.parametrize("name, kind", cases(kinds=("multilabel", "soft")))
def test_malformed_sparse_structure_is_refused(name, kind, at, breakage, which):
    inputs = valid_inputs(name, kind)
    params = REGISTRY[name].target_params
    target = params[which % len(params)]
    inputs[target] = _try_break(inputs[target], breakage, at)
    assert_refused(name, inputs, named=params)


# --- Labels of every type --------------------------------------------------------------------


def _relabeled(name, encode):
    """Results on labels 0..2 and on ``encode(labels)``: they must be the same numbers."""
    inputs = valid_inputs(name, "labels", seed=7)
    encoded = {key: encode(value) for key, value in inputs.items()}
    return outcome(name, inputs)[1], outcome(name, encoded)


ENCODINGS = {
    "uint64 beyond int64": lambda y: np.asarray(y, dtype=np.uint64) + np.uint64(2 ** 63),
    "negative int64": lambda y: np.asarray(y) - 2 ** 62,
    "float integers": lambda y: np.asarray(y, dtype=float) * 1e15,
    "object integers": lambda y: np.asarray(y, dtype=object),
    "strings": lambda y: np.array(["c0", "c1", "c2"])[y],
    "report keys": lambda y: np.array(["accuracy", "macro avg", "weighted avg"])[y],
    "pandas Int64": lambda y: pd.array(y, dtype="Int64"),
    "pandas category": lambda y: pd.Series(np.array(["a", "b", "c"])[y], dtype="category"),
    "pandas string": lambda y: pd.Series(np.array(["a", "b", "c"])[y], dtype="string"),
}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("name, kind", cases(kinds=("labels",)))
def test_any_label_type_gives_the_numbers_of_integer_labels(name, kind, encoding):
    reference, (status, result) = _relabeled(name, ENCODINGS[encoding])
    if encoding == "report keys" and status == "refused":
        assert "collide" in result or "report" in result, result
        return
    if encoding == "object integers" and status == "refused":
        return  # scikit-learn's unique_labels refuses object arrays of numbers too
    assert status == "answered", result
    if isinstance(reference, str):  # a text report: the same lines after the class names
        numbers = [line.split()[-4:] for line in reference.splitlines() if line.strip()]
        assert numbers == [line.split()[-4:] for line in result.splitlines() if line.strip()]
        return
    if isinstance(reference, dict):  # a dict report: one row per class, same values
        assert len(result) == len(reference), sorted(result)
        reference, result = list(reference.values()), list(result.values())
    for expected, actual in zip(_leaves(reference), _leaves(result), strict=True):
        np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-12)


def _same_or_named(actual, expected, names, where="result"):
    """Equal numbers, where each integer class label ``k`` of ``expected`` may be
    ``names[k]`` in ``actual`` (a field of class labels)."""
    import dataclasses

    if dataclasses.is_dataclass(expected):
        for field in dataclasses.fields(expected):
            _same_or_named(getattr(actual, field.name), getattr(expected, field.name), names,
                           f"{where}.{field.name}")
        return
    if isinstance(expected, (tuple, list)) and not np.isscalar(expected):
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            _same_or_named(a, e, names, f"{where}[{i}]")
        return
    values = np.asarray(expected, dtype=object)
    labels = values.size and all(isinstance(v, (int, np.integer)) and 0 <= v < len(names)
                                 for v in values.ravel().tolist())
    if labels and np.asarray(actual, dtype=object).ravel().tolist() == [
            names[v] for v in values.ravel().tolist()]:
        return
    assert_same(actual, expected, where=where)


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] != "binary_probabilities"])
def test_any_label_type_beside_probabilities_gives_the_numbers_of_integer_labels(
        name, kind, encoding):
    """y_true of every label type (sorted as 0, 1, 2 are) beside 2-D probabilities or
    scores: the numbers of integer labels, its class labels named as given."""
    inputs = valid_inputs(name, kind, seed=7)
    first = REGISTRY[name].target_params[0]
    encode = ENCODINGS[encoding]
    names = np.asarray(encode(np.arange(N_CLASSES)), dtype=object).tolist()
    status, result = outcome(name, {**inputs, first: encode(inputs[first])})
    if encoding == "object integers" and status == "refused":
        return  # scikit-learn's unique_labels refuses object arrays of numbers too
    assert status == "answered", result
    _same_or_named(REGISTRY[name].compare(result), call_on(name, inputs), names)


MIXED_LABELS = {
    "'1' beside 1": ([1, 0, "1", 2, 0, 1], [1, 0, 1, 2, 0, 1]),
    "strings beside numbers": (["a", 0, "b", 2, 0, 1], [1, 0, 1, 2, 0, 1]),
    "uint64 beside int64": (np.array([2 ** 63, 1, 0], dtype=np.uint64), np.array([0, 1, 0])),
}


@pytest.mark.parametrize("mixture", sorted(MIXED_LABELS))
@pytest.mark.parametrize("name, kind", cases(kinds=("labels",)))
def test_labels_of_two_types_are_refused_or_kept_apart(name, kind, mixture):
    y_true, y_pred = MIXED_LABELS[mixture]
    params = REGISTRY[name].target_params
    inputs = target_inputs(params, (y_true, y_pred))
    status, value = assert_refused_or_finite(name, inputs, named=params)
    if mixture == "uint64 beside int64" and status == "answered" and name == "mlcm":
        assert value.shape[0] >= 3  # 2**63, 0 and 1 stay three classes (plus "none")
    if mixture != "uint64 beside int64":
        assert status == "refused"


# --- Numeric extremes ------------------------------------------------------------------------


@FUZZ
@given(exponent=st.sampled_from([-322, -315, -308, -300, -150, 150, 300, 306, 308]),
       at=st.integers(0, 10 ** 6), only_one=st.booleans())
@pytest.mark.parametrize("name, kind", with_probabilities(cases(kinds=("soft",)))
                         + probability_cases())
def test_soft_masses_from_subnormal_to_near_overflow(name, kind, exponent, at, only_one):
    inputs = valid_inputs(name, kind)
    target = REGISTRY[name].target_params[at % len(REGISTRY[name].target_params)]
    y = inputs[target].astype(float)
    if only_one:  # one row at the extreme, the others ordinary
        row = at % len(y)
        y[row] = np.where(y[row] > 0, y[row] * 10.0 ** exponent, 0.0) if exponent > -308 \
            else np.where(y[row] > 0, 5e-324 * (1 + at % 7), 0.0)
    else:
        y = y * 10.0 ** exponent if exponent > -308 else np.where(y > 0, 5e-324, 0.0)
    inputs[target] = y
    assert_refused_or_finite(name, inputs)


@FUZZ
@given(exponent=st.sampled_from([-322, -310, -300, 100, 300, 307, 308]),
       spread=st.booleans(), at=st.integers(0, 10 ** 6))
@pytest.mark.parametrize("name, kind", weighted_cases())
def test_sample_weights_from_subnormal_to_near_overflow(name, kind, exponent, spread, at):
    inputs = valid_inputs(name, kind)
    n_samples = len(next(iter(inputs.values())))
    weights = np.full(n_samples, 10.0 ** exponent if exponent > -320 else 5e-324)
    if spread:  # one ordinary weight among extremes
        weights[at % n_samples] = 1.0
    inputs["sample_weight"] = weights
    status, value = assert_refused_or_finite(name, inputs)
    if status == "answered" and not spread and REGISTRY[name].returns == "score" \
            and "normalize" not in REGISTRY[name].fixed:
        # Scaling every weight changes no normalized score.
        unweighted = outcome(name, {k: v for k, v in inputs.items() if k != "sample_weight"})
        if unweighted[0] == "answered" and name != "transport_accuracy_score":
            np.testing.assert_allclose(value, unweighted[1], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name, kind", with_probabilities(cases(kinds=("multilabel", "soft")))
                         + probability_cases())
def test_empty_instances_and_single_rows(name, kind):
    inputs = valid_inputs(name, kind)
    for target in REGISTRY[name].target_params:
        zeros = dict(inputs)
        zeros[target] = np.zeros_like(inputs[target])
        assert_refused_or_finite(name, zeros)
    one_row = {key: value[:1] for key, value in inputs.items()}
    assert_refused_or_finite(name, one_row)


# --- Labels beside probabilities or scores ---------------------------------------------------
# Each function of (y_true, y_prob) or (y_true, y_score) of the registry, on the kinds it
# declares: values outside [0, 1], rows not summing to 1, object arrays, columns that are
# not the classes, pos_label and labels= naming no class, n_bins beyond any memory.


def _scores(name):
    return REGISTRY[name].target_params[-1]


def _answered_or_undefined(name, inputs, named=()):
    """Refused naming an argument, or answered: finite, or NaN with an
    UndefinedMetricWarning (the policy of an undefined measure), never infinite."""
    from sklearn.exceptions import UndefinedMetricWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            status, value = "answered", getattr(sce, name)(**{**REGISTRY[name].fixed,
                                                              **inputs})
        except (ValueError, TypeError):
            status, value = outcome(name, inputs, named)  # the message names the argument
            assert status == "refused", value
    numpy = [w for w in caught if issubclass(w.category, RuntimeWarning)
             and "encountered in" in str(w.message)]  # NumPy's floating-point warnings
    assert not numpy, f"{name}: {numpy[0].message}"
    if status == "answered":
        undefined = any(issubclass(w.category, UndefinedMetricWarning) for w in caught)
        for leaf in _leaves(value):
            assert np.isfinite(leaf).all() or undefined and not np.isinf(leaf).any(), \
                f"{name}: {value!r}"
    return status, value, caught


@FUZZ
@given(at=st.integers(0, 10 ** 6), value=st.sampled_from([-0.5, -1e-300, 1.5, 1e300]))
@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] != "scores"
                                        and _scores(case.values[0]) != "y_score"])
def test_probabilities_outside_the_unit_interval(name, kind, at, value):
    """A negative probability is refused naming it; above 1: refused (1-D, a probability
    of one class) or, 2-D, read as a row of scores divided by its sum (with a warning)."""
    inputs = valid_inputs(name, kind)
    last = _scores(name)
    inputs[last] = _with_value(inputs[last].astype(float), value, at)
    if value < 0 or inputs[last].ndim == 1:
        assert_refused(name, inputs, named=(last,))
        return
    status, _, caught = _answered_or_undefined(name, inputs, named=(last,))
    assert status == "refused" or any(last in str(w.message) for w in caught), \
        f"{name}: a row summing to {value} read without a warning"


@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] != "scores"])
def test_certain_probabilities_right_and_wrong(name, kind):
    """Probabilities of exactly 0 and 1, always right or always wrong (an event of
    probability 0 that happens), of one instance or twelve: a finite result, or NaN with
    an UndefinedMetricWarning, or refused; never an infinity (a z statistic of 1 / 0)."""
    inputs = valid_inputs(name, kind)
    first, last = REGISTRY[name].target_params
    y_true = inputs[first]
    n_columns = 2 if inputs[last].ndim == 1 else inputs[last].shape[1]
    for shift in (0, 1):  # right, wrong
        predicted = (y_true + shift) % n_columns
        y_prob = predicted.astype(float) if inputs[last].ndim == 1 else \
            np.eye(n_columns)[predicted]
        for rows in (slice(None), slice(0, 1)):
            _answered_or_undefined(name, {first: y_true[rows], last: y_prob[rows]})


@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] == "probabilities"])
def test_rows_not_summing_to_one_are_read_divided_by_their_sums(name, kind):
    """Rows summing to 2, 0.5 or 1e-300 (subnormal entries among them): the result of the
    rows divided by their sums, with a warning naming y_prob; or refused naming it.
    Scores (y_score) are thresholded as given: their own test is the threshold grid."""
    inputs = valid_inputs(name, kind)
    last = _scores(name)
    if last == "y_score":
        pytest.skip("scores are read as they are (documented)")
    expected = call_on(name, inputs)
    for scale in (2.0, 0.5, 1e-300):
        scaled = inputs[last] * np.where(np.arange(len(inputs[last])) % 2, scale, 1.0)[:, None]
        status, value, caught = _answered_or_undefined(name, {**inputs, last: scaled},
                                                       named=(last,))
        if status == "refused":
            continue
        assert any(last in str(w.message) for w in caught), f"{name}: no warning at {scale}"
        assert_same(REGISTRY[name].compare(value), expected, rtol=1e-9, atol=1e-12,
                    where=f"rows scaled by {scale}")


def _sum_warnings(name, inputs):
    """The warnings of rows that do not sum to 1 of a call (None where it is refused)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            getattr(sce, name)(**inputs, **REGISTRY[name].fixed)
        except (TypeError, ValueError):
            return None
    return [str(w.message) for w in caught if "sum to 1" in str(w.message)]


@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] == "probabilities"])
def test_float32_probabilities_are_not_warned_about_their_sums(name, kind):
    """A float32 predict_proba (rows within float32 rounding of 1) is read without the
    warning of rows that do not sum to 1 (risk_coverage_curve and calibration_in_the_large
    warned, the latter naming y_pred, from float64 copies), dense or sparse where sparse
    scores are taken (a sparse float32 array, read as float64, was held to float64's
    tolerance); the same values in float64 warn sparse as dense (1 + 3e-8 is beyond
    float64's tolerance where the function warns)."""
    y_true, y_prob = random_targets(kind, np.random.default_rng(9), 500, N_CLASSES)
    first, last = REGISTRY[name].target_params
    narrow = y_prob.astype(np.float32)
    assert _sum_warnings(name, {first: y_true, last: narrow}) == []
    for sparse in (sp.csr_array, sp.csr_matrix):
        assert _sum_warnings(name, {first: y_true, last: sparse(narrow)}) in ([], None)
    wide = narrow.astype(np.float64)
    dense = _sum_warnings(name, {first: y_true, last: wide})
    assert _sum_warnings(name, {first: y_true, last: sp.csr_array(wide)}) in (dense, None)


@pytest.mark.parametrize("name, kind", probability_cases())
def test_object_arrays_of_numbers_are_their_numbers_or_refused(name, kind):
    """An object array of floats (a frame of mixed columns, a list with a None filled)
    gives the float64 result or is refused naming the argument, never another number."""
    inputs = valid_inputs(name, kind)
    last = _scores(name)
    status, value = outcome(name, {**inputs, last: inputs[last].astype(object)},
                            named=(last,))
    if status == "answered":
        assert_same(REGISTRY[name].compare(value), call_on(name, inputs))


@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] != "binary_probabilities"])
def test_columns_that_are_not_the_classes(name, kind):
    """2-D scores beside labels: a column fewer or more than the classes of y_true is
    refused naming the arrays or labels; labels= without a class of y_true is refused;
    labels= naming every column where y_true lacks a class is a result of those classes
    (finite, or undefined with a warning), or refused naming labels."""
    inputs = valid_inputs(name, kind)  # 3 classes, each in y_true
    first, last = REGISTRY[name].target_params
    y_true, y_score = inputs[first], inputs[last]
    named = (first, last, "labels")
    extra = np.c_[y_score, y_score[:, :1]]
    for columns in (y_score[:, :2], extra / extra.sum(axis=1, keepdims=True)):
        assert_refused(name, {first: y_true, last: columns}, named=named)
    if REGISTRY[name].labels:
        assert_refused(name, {**inputs, "labels": [0, 1]}, named=named)
        assert_refused(name, {**inputs, "labels": [0, 1, 7]}, named=named)
        absent = {first: np.where(y_true == 2, 0, y_true), last: y_score,
                  "labels": [0, 1, 2]}
        _answered_or_undefined(name, absent, named=("labels",))


@pytest.mark.parametrize("name, kind", [
    case for case in probability_cases() if case.values[1] == "binary_probabilities"
    and "pos_label" in DECLARATIONS[case.values[0]]])
def test_pos_label_of_no_class(name, kind):
    """Beside a 1-D probability, a pos_label that is no class of two is refused naming
    pos_label; y_true of one class beside pos_label=1 is every instance negative or
    positive, a documented result (finite, or undefined with a warning)."""
    inputs = valid_inputs(name, kind)
    first = REGISTRY[name].target_params[0]
    for pos_label in (7, "seven", 0.5):
        assert_refused(name, {**inputs, "pos_label": pos_label}, named=("pos_label",))
    for only in (0, 1):
        _answered_or_undefined(name, {**inputs, first: np.full_like(inputs[first], only),
                                      "pos_label": 1})


@pytest.mark.parametrize("name, kind", [
    case for case in probability_cases() if "n_bins" in DECLARATIONS[case.values[0]]])
def test_bins_beyond_the_memory_budget_are_refused_before_allocating(name, kind):
    """n_bins=10**12 (or 10**8 under a budget of 1 MiB) is refused naming n_bins and the
    budget, before any array of bins is allocated."""
    import tracemalloc

    inputs = valid_inputs(name, kind)
    for n_bins, budget in ((10 ** 12, None), (10 ** 8, 1)):
        tracemalloc.start()
        try:
            with sce.config_context(**({} if budget is None else {"max_matrix_mib": budget})):
                message = assert_refused(name, {**inputs, "n_bins": n_bins},
                                         named=("n_bins",))
        finally:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        assert "max_matrix_mib" in message, message
        assert peak < 2 ** 20, f"{name}: peak {peak / 2 ** 20:.1f} MiB at n_bins={n_bins}"


@pytest.mark.parametrize("name, kind", [case for case in probability_cases()
                                        if case.values[1] != "binary_probabilities"])
def test_sparse_scores_read_densely_within_the_memory_budget(name, kind):
    """A sparse y_prob (one entry per row of 1,000 columns: 15 MiB dense) under a budget
    of 1 MiB: read sparse, or refused naming it and the budget before allocating (it was
    densified whatever its size: 800 GB for a (10**6, 10**5) array of 10**6 entries)."""
    import tracemalloc

    n_samples, n_classes = 2000, 1000
    y_true = np.arange(n_samples) % n_classes
    y_prob = sp.csr_array((np.ones(n_samples), (np.arange(n_samples), y_true)),
                          shape=(n_samples, n_classes))
    first, last = REGISTRY[name].target_params
    tracemalloc.start()
    try:
        with sce.config_context(max_matrix_mib=1):
            status, value = outcome(name, {first: y_true, last: y_prob}, named=(last,))
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert status == "answered" or "max_matrix_mib=1 MiB" in value, value
    assert peak < 2 ** 20 + 10 * y_prob.data.nbytes, f"{name}: peak {peak / 2 ** 20:.1f} MiB"


@pytest.mark.parametrize("name, kind", [
    case for case in probability_cases() if "thresholds" in DECLARATIONS[case.values[0]]])
def test_thresholds_beyond_the_memory_budget_are_refused_before_allocating(name, kind):
    """10**5 thresholds (3 MiB of matrices or more) under a budget of 1 MiB: refused naming
    the budget, before allocating (1-D scores' given thresholds were not checked)."""
    import tracemalloc

    inputs = valid_inputs(name, kind)
    thresholds = np.linspace(0.0, 1.0, 10 ** 5)
    tracemalloc.start()
    try:
        with sce.config_context(max_matrix_mib=1):
            message = assert_refused(name, {**inputs, "thresholds": thresholds},
                                     named=("thresholds",))
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert "max_matrix_mib=1 MiB" in message, message
    assert peak < 2 ** 20, f"{name}: peak {peak / 2 ** 20:.1f} MiB"


def _decision_functions():
    """Functions of probabilities alone (no y_true): their first parameter is y_prob."""
    import inspect

    return [name for name in REGISTRY if callable(getattr(sce, name)) and not
            isinstance(getattr(sce, name), type) and
            list(inspect.signature(getattr(sce, name)).parameters)[:1] == ["y_prob"]]


@pytest.mark.parametrize("corruption", sorted(VALUE_CORRUPTIONS) + ["negative", "empty",
                                                                    "1-D", "sparse"])
@pytest.mark.parametrize("name", _decision_functions())
def test_probabilities_alone_hostile(name, corruption):
    """Decisions read off probabilities alone: each corruption refused naming y_prob; a
    sparse y_prob the dense decisions (or refused naming it)."""
    keywords = minimal_keywords(name)
    y_prob = np.asarray(keywords["y_prob"], dtype=float)
    if corruption == "sparse":
        status, value = outcome(name, {**keywords, "y_prob": sp.csr_array(y_prob)},
                                named=("y_prob",))
        if status == "answered":
            assert_same(value, call(name))
        return
    if corruption == "one row fewer":
        return  # one target: a shorter one is still valid
    hostile = {"negative": lambda y, at: _with_value(y, -0.5, at),
               "empty": lambda y, at: y[:0], "1-D": lambda y, at: y[:, 0]}.get(
        corruption, VALUE_CORRUPTIONS.get(corruption))
    assert_refused(name, {**keywords, "y_prob": hostile(y_prob, 1)}, named=("y_prob",))


# --- Confusion matrices ----------------------------------------------------------------------


def matrix_cases():
    return cases(kinds=("matrix",))


def _square(name):
    return np.shape(minimal_keywords(name)[REGISTRY[name].target_params[0]])[0]


@st.composite
def count_matrices(draw, size):
    """Count tables at the edges: zeros, one cell, one-way discordance, huge, subnormal,
    fractional."""
    shape = draw(st.sampled_from(["random", "diagonal", "one cell", "one way", "one row"]))
    scale = draw(st.sampled_from([1.0, 1e-3, 1e-320, 1e6, 1e12, 1e154, 1e200, 1e300]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    if shape == "random":
        matrix = rng.integers(0, 30, (size, size)).astype(float)
    elif shape == "diagonal":
        matrix = np.diag(rng.integers(1, 30, size)).astype(float)
    elif shape == "one cell":
        matrix = np.zeros((size, size))
        matrix[rng.integers(size), rng.integers(size)] = rng.integers(1, 6)
    elif shape == "one way":  # discordance in one direction only
        matrix = np.triu(rng.integers(0, 6, (size, size))).astype(float)
    else:
        matrix = np.zeros((size, size))
        matrix[rng.integers(size)] = rng.integers(0, 6, size)
    return matrix * scale


@FUZZ
@given(data=st.data())
@pytest.mark.parametrize("name, kind", matrix_cases())
def test_count_matrices_at_the_edges(name, kind, data):
    size = _square(name)
    matrix = data.draw(count_matrices(size if name == "mcnemar_test" else
                                      data.draw(st.integers(2, 5))))
    target = REGISTRY[name].target_params[0]
    inputs = {target: matrix}
    if len(REGISTRY[name].target_params) > 1:
        inputs[REGISTRY[name].target_params[1]] = matrix.T.copy()
    if name == "dirichlet_posterior":  # priors from nearly nothing to Perks'
        inputs["prior"] = data.draw(st.sampled_from([1e-300, 1e-8, 0.5, 1.0, "perks"]))
    status, value = assert_refused_or_finite(name, inputs)
    if status == "answered":
        pvalues = [getattr(value, key) for key in dir(value) if key.startswith("pvalue")]
        for pvalue in pvalues:
            assert np.all((np.asarray(pvalue) >= 0) & (np.asarray(pvalue) <= 1)), pvalue
        if name != "dirichlet_posterior":
            return
        lower, upper = value.credible_interval()
        assert np.isfinite(lower).all() and np.isfinite(upper).all()
        i, j = 0, 1
        forward, backward = value.prob_confusion_exceeds(i, j), value.prob_confusion_exceeds(j, i)
        # Within 1e-4 at the extremes (counts near 1e300 with priors below 1)
        assert math.isclose(forward + backward, 1.0, abs_tol=1e-4), (forward, backward)


MATRIX_CORRUPTIONS = {
    "nan": lambda m: _with_value(m, np.nan, 1),
    "inf": lambda m: _with_value(m, np.inf, 1),
    "negative": lambda m: _with_value(m, -1.0, 1),
    "complex": lambda m: np.asarray(m) + 1j,
    "not square": lambda m: np.asarray(m)[:, :-1],
    "3-D": lambda m: np.asarray(m)[None],
    "strings": lambda m: np.asarray(m).astype(str),
    "empty": lambda m: np.zeros((0, 0)),
}


@pytest.mark.parametrize("corruption", sorted(MATRIX_CORRUPTIONS))
@pytest.mark.parametrize("name, kind", matrix_cases())
def test_corrupted_matrices_are_refused(name, kind, corruption):
    target = REGISTRY[name].target_params[0]
    matrix = np.asarray(minimal_keywords(name)[target], dtype=float)
    inputs = {**{k: v for k, v in minimal_keywords(name).items()
                 if k in REGISTRY[name].target_params},
              target: MATRIX_CORRUPTIONS[corruption](matrix)}
    assert_refused(name, inputs, named=REGISTRY[name].target_params)


# --- Prevalence vectors ----------------------------------------------------------------------


@st.composite
def prevalence_vectors(draw):
    size = draw(st.integers(2, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    kind = draw(st.sampled_from(["dirichlet", "one-hot", "with zeros", "subnormal", "tiny"]))
    vector = rng.dirichlet(np.ones(size))
    if kind == "one-hot":
        vector = np.eye(size)[rng.integers(size)]
    elif kind == "with zeros":
        vector[rng.integers(size)] = 0.0
    elif kind == "subnormal":
        vector[rng.integers(size)] = 5e-324 * rng.integers(1, 100)
    elif kind == "tiny":
        vector[rng.integers(size)] = 10.0 ** -rng.integers(100, 300)
    return vector / vector.sum()


def prevalence_cases():
    return cases(kinds=("prevalence",))


@FUZZ
@given(data=st.data())
@pytest.mark.parametrize("name, kind", prevalence_cases())
def test_prevalences_at_the_edges(name, kind, data):
    p_true = data.draw(prevalence_vectors())
    p_pred = data.draw(prevalence_vectors().filter(lambda v: len(v) == len(p_true)))
    inputs = {"p_true": p_true, "p_pred": p_pred}  # max_quantification_error takes p_true only
    assert_refused_or_finite(name, {k: inputs[k] for k in REGISTRY[name].target_params})


PREVALENCE_CORRUPTIONS = {
    "nan": lambda p: _with_value(p, np.nan, 0),
    "negative": lambda p: np.r_[-0.1, p[1:] + 0.1 / (len(p) - 1)],
    "not summing to one": lambda p: p * 2,
    "length": lambda p: p[:-1] / p[:-1].sum(),
    "2-D": lambda p: p[None],
    "one class": lambda p: np.ones(1),
}


# Hostile only beside the other distribution (a single one may be of two classes, or a row).
RELATIVE_CORRUPTIONS = ("2-D", "length")


@pytest.mark.parametrize("name, kind, which, corruption", [
    pytest.param(*case.values, which, corruption, id=f"{which}-{case.id}-{corruption}")
    for case in prevalence_cases() for which in ("p_true", "p_pred")
    for corruption in sorted(PREVALENCE_CORRUPTIONS)
    if which in REGISTRY[case.values[0]].target_params
    and (len(REGISTRY[case.values[0]].target_params) == 2
         or corruption not in RELATIVE_CORRUPTIONS)])
def test_corrupted_prevalences_are_refused(name, kind, which, corruption):
    # only the arguments the function takes: max_quantification_error was "refused" for an
    # unexpected keyword p_pred
    inputs = {"p_true": np.array([0.2, 0.5, 0.3]), "p_pred": np.array([0.25, 0.45, 0.3])}
    inputs[which] = PREVALENCE_CORRUPTIONS[corruption](inputs[which])
    assert_refused(name, {k: inputs[k] for k in REGISTRY[name].target_params},
                   named=("p_true", "p_pred"))


@pytest.mark.parametrize("name, kind, keywords", variant_cases(kinds=("soft",)))
def test_totals_beyond_float64_are_refused(name, kind, keywords):
    # Each row is finite, but 1,000 rows of masses near 1e307 (weighting="true") or huge
    # weights total beyond float64: refused naming the targets, never an infinite cell.
    rng = np.random.default_rng(8)
    y_true, y_pred = (rng.random((1000, N_CLASSES)) for _ in range(2))
    inputs = target_inputs(REGISTRY[name].target_params, (y_true * 1e307, y_pred * 1e307))
    status, value = outcome(name, {**inputs, **keywords},
                            named=REGISTRY[name].target_params)
    if status == "answered":
        assert_finite(name, value)


# --- Array kinds -----------------------------------------------------------------------------
# Every function of sample targets reads each kind of array as the NumPy array it holds, or
# refuses it naming the argument. A DataFrame's column names are classes (sorted as labels
# are, the columns aligned by name); a categorical's categories are classes, in their order.


def _read_only(y):
    y = np.array(y)
    y.flags.writeable = False
    return y


def _polars(y):
    pl = pytest.importorskip("polars")
    if y.ndim == 1:
        return pl.Series("y", y)
    return pl.DataFrame(y, schema=[f"column_{j}" for j in range(y.shape[1])], orient="row")


def _xarray(y):
    xr = pytest.importorskip("xarray")
    return xr.DataArray(y)


def _class_named_columns(y):
    """2-D: a DataFrame whose columns name their class, in a shuffled order; 1-D: a Series."""
    if y.ndim == 1:
        return pd.Series(y, index=np.arange(len(y))[::-1])
    columns = np.roll(np.arange(y.shape[1]), 2)
    return pd.DataFrame(y[:, columns], columns=columns)


# Each: the wrapped array, read as the NumPy array it wraps.
ARRAY_KINDS = {
    "read-only": _read_only,
    "big-endian": lambda y: y.astype(y.dtype.newbyteorder(">")),
    "masked, nothing masked": np.ma.masked_array,
    "polars": _polars,
    "xarray": _xarray,
    "pandas, class-named columns": _class_named_columns,
}


@pytest.mark.parametrize("array_kind", sorted(ARRAY_KINDS))
@pytest.mark.parametrize("name, kind", sample_cases())
def test_array_kinds_give_the_numpy_result(name, kind, array_kind):
    inputs = valid_inputs(name, kind)
    wrapped = {key: ARRAY_KINDS[array_kind](value) for key, value in inputs.items()}
    assert_same(call_on(name, wrapped), call_on(name, inputs))


@pytest.mark.parametrize("ordered", [True, False])
@pytest.mark.parametrize("name, kind", cases(lambda name, entry: entry.labels,
                                             kinds=("labels",)) + [
    case for case in sample_cases() if case.values[1] == "probabilities"])
def test_categoricals_with_unused_categories(name, kind, ordered):
    """Labels: the categories that occur, in the categories' order, are the classes (as
    ``labels=`` of them gives them); an unused category is no class, as in scikit-learn.
    Beside unnamed scores (read as the sorted labels), sorted categories and an unused one
    give the result of the plain labels."""
    inputs = valid_inputs(name, kind)
    labels = [value for value in inputs.values() if value.ndim == 1]
    present = list(np.unique(np.concatenate(labels)))
    if kind != "probabilities":
        present = present[::-1]
    categories = present + [N_CLASSES + 10]
    wrapped = {key: pd.Categorical(value, categories=categories, ordered=ordered)
               if value.ndim == 1 else value for key, value in inputs.items()}
    expected = {} if kind == "probabilities" else {"labels": present}
    assert_same(call_on(name, wrapped), call_on(name, inputs, **expected))


@pytest.mark.parametrize("name, kind", [case for case in cases(kinds=("labels",))
                                        if len(REGISTRY[case.values[0]].target_params) > 1])
def test_a_row_of_labels_is_refused_naming_it(name, kind):
    inputs = valid_inputs(name, kind)
    first = REGISTRY[name].target_params[0]
    for row in (inputs[first].reshape(1, -1), np.matrix(inputs[first])):
        assert_refused(name, {**inputs, first: row}, named=(first,))


@pytest.mark.parametrize("name, kind", sample_cases())
def test_masked_entries_are_refused_naming_the_argument(name, kind):
    inputs = valid_inputs(name, kind)
    last = last_target(name)
    mask = np.zeros(np.shape(inputs[last]), dtype=bool)
    mask.flat[3] = True
    assert_refused(name, {**inputs, last: np.ma.masked_array(inputs[last], mask=mask)},
                   named=(last,))


HUGE_VALUES = {
    "labels=": lambda inputs: {"labels": np.arange(10 ** 5) + 10 ** 6},
    "a huge target": lambda inputs: {
        key: np.asarray(["x" * 1000] * 10 ** 4 if np.ndim(value) == 1 else value)
        for key, value in inputs.items()},
    "sample_weight of the wrong length": lambda inputs: {"sample_weight": np.ones(10 ** 5)},
}


@pytest.mark.parametrize("huge", sorted(HUGE_VALUES))
@pytest.mark.parametrize("name, kind", sample_cases())
def test_messages_on_huge_inputs_stay_short(name, kind, huge):
    """A message quotes at most a few hundred characters of any value (params.quoted)."""
    entry = REGISTRY[name]
    if huge == "labels=" and not entry.labels or \
            huge.startswith("sample_weight") and not entry.sample_weight:
        return
    inputs = valid_inputs(name, kind)
    hostile = {**inputs, **HUGE_VALUES[huge](inputs)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            getattr(sce, name)(**{**entry.fixed, **hostile})
        except (ValueError, TypeError) as error:
            assert len(str(error)) < 2000, (name, len(str(error)), str(error)[:300])


@pytest.mark.parametrize("key", [key for key in DECLARATIONS if key != "report"])
def test_messages_of_declared_parameters_stay_short(key):
    """Every declared parameter given a huge list of strings: a short message."""
    for parameter in DECLARATIONS[key]:
        try:
            call(key, **{parameter: ["label" * 20] * 10 ** 4})
        except (ValueError, TypeError) as error:
            assert len(str(error)) < 2000, (key, parameter, str(error)[:300])
        except Exception:  # noqa: BLE001 (other failures are other tests' business)
            pass
