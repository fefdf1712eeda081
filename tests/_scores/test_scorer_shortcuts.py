"""The shortcuts of a scorer's fold of 1-D labels equal their general paths.

A scorer's fold (a few hundred integer labels) takes three shortcuts: 1-D NumPy label arrays
skip the conversions that lists, frames and other libraries' arrays need
(``check_target_set``, ``dispatch.confusions``); integer labels of a dense range are counted,
without a sort (``_dense_integer_codes``); the matrix of counted labels is the counts
themselves (``build``); and the averaged scores skip the masks of undefined scores. Each must
give what its general path gives, bit for bit: the same results, errors and warnings, on
integer, string, object and pandas labels, with sample weights, ``labels=``, classes missing
from one side, a single class, and every ``zero_division``. The last tests check that these
comparisons catch a shortcut that drifts.
"""

import warnings

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core import kinds, labels, targets


class _Plain(np.ndarray):
    """An ndarray subclass: the same labels, read by the general path (not an ndarray)."""


class _Classifier:
    """A fitted classifier's face for a scorer: fixed predictions and classes."""

    def __init__(self, y_pred, classes):
        self.y_pred, self.classes_ = y_pred, classes

    def predict(self, X):
        return self.y_pred


def _cases():
    """``(name, y_true, y_pred)``: integer labels of every width and sign, dense and with
    holes, classes only predicted or only true, one class, one instance; floats holding
    integers, booleans, strings and objects; a range too wide to count."""
    rng = np.random.default_rng(25)
    cases = []
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64):
        for n_classes, n_samples in ((5, 300), (2, 40), (1, 9), (12, 60), (3, 1)):
            y_true = rng.integers(0, n_classes, n_samples)
            y_pred = np.where(rng.random(n_samples) < 0.6, y_true,
                              rng.integers(0, n_classes, n_samples))
            cases.append((f"{np.dtype(dtype)} C={n_classes} N={n_samples}",
                          y_true.astype(dtype), y_pred.astype(dtype)))
    y = rng.integers(0, 4, 80)
    cases += [
        ("negative and offset", y - 3, (y + 1) % 4 - 3),
        ("offset", y + 100, (y * 3) % 4 + 100),
        ("holes", y * 5, np.roll(y, 3) * 5),
        ("a class only predicted", y % 3, y),
        ("a class only true", y, y % 3),
        ("int8 extremes", np.array([-128, 127, 0, 5], np.int8),
         np.array([127, -128, 0, 0], np.int8)),
        ("int32 beside int64", y.astype(np.int32), np.roll(y, 1)),
        ("wide range", y * 10 ** 9, np.roll(y, 2) * 10 ** 9),
        ("floats", y.astype(float), np.roll(y, 1).astype(float)),
        ("booleans", y > 1, np.roll(y, 1) > 1),
        ("strings", np.array(list("abcd"))[y], np.array(list("abcd"))[np.roll(y, 1)]),
        ("objects", np.array(list("abcd"), dtype=object)[y],
         np.array(list("abcd"), dtype=object)[np.roll(y, 1)]),
    ]
    return cases


CASES = _cases()


def _options(y_true, y_pred):
    """Keyword sets: none, sample weights (and all-zero ones), ``labels=`` (a subset, the
    reverse order, a label absent from both targets), ``zero_division`` and ``beta``."""
    present = np.unique(np.concatenate([y_true, y_pred]))
    absent = "zz" if present.dtype.kind in "USO" else 7
    weights = np.linspace(0.5, 2.0, len(y_true))
    return [{}, {"sample_weight": weights}, {"sample_weight": np.zeros(len(y_true))},
            {"labels": list(present[:2])}, {"labels": list(present[::-1])},
            {"labels": [present[0], absent]} if absent not in present.tolist() else {},
            {"zero_division": 1.0}, {"zero_division": np.nan}, {"zero_division": 0.0},
            {"beta": 2.0, "sample_weight": weights}]


def _outcome(function, *args, **kwargs):
    """The result (or the error's type and message) and the warnings of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(*args, **kwargs)
        except (ValueError, TypeError) as error:
            result = (type(error).__name__, str(error))
    return result, [(type(w.message).__name__, str(w.message)) for w in caught]


def _assert_identical(one, other):
    """Two results equal bit for bit: arrays of the same dtype and bytes (NaN equal to NaN),
    floats of the same type and bits, containers item by item."""
    if isinstance(one, np.ndarray) or isinstance(other, np.ndarray):
        assert isinstance(one, np.ndarray) and isinstance(other, np.ndarray)
        assert one.dtype == other.dtype and one.shape == other.shape
        np.testing.assert_array_equal(one, other, strict=True)
    elif isinstance(one, (tuple, list)):
        assert type(one) is type(other) and len(one) == len(other)
        for a, b in zip(one, other):
            _assert_identical(a, b)
    elif isinstance(one, dict):
        assert list(one) == list(other)
        for key in one:
            _assert_identical(one[key], other[key])
    elif isinstance(one, float):
        assert type(one) is type(other)
        assert np.isnan(one) and np.isnan(other) or one == other
    else:
        assert one == other


def _assert_same_outcomes(fast, general):
    (fast_result, fast_warnings), (general_result, general_warnings) = fast, general
    assert fast_warnings == general_warnings
    _assert_identical(fast_result, general_result)


def _calls(y_true, y_pred, options):
    """``name -> call()`` of what a fold runs through the shortcuts: the scores at every
    average, the accuracy, the matrices (TCM, its sub-pixel bounds, MLCM) and the scorers."""
    weights = {k: v for k, v in options.items() if k in ("sample_weight", "labels")}
    calls = {f"prfs {average}": lambda average=average: (
        sce.transport_precision_recall_fscore_support(y_true, y_pred, average=average,
                                                      **options))
        for average in (None, "macro", "micro", "weighted")}
    calls["accuracy"] = lambda: sce.transport_accuracy_score(y_true, y_pred, **weights)
    calls["tcm"] = lambda: sce.transport_confusion_matrix(y_true, y_pred, **weights)
    calls["subpixel"] = lambda: sce.subpixel_confusion_matrix(y_true, y_pred, **weights)
    calls["mlcm"] = lambda: sce.mlcm(y_true, y_pred, **weights)
    classes = np.unique(np.asarray(y_true))
    for name in ("tcm_f1_macro", "tcm_precision_weighted", "tcm_recall_micro", "tcm_accuracy"):
        scorer = sce.get_scorer(name)
        calls[name] = lambda scorer=scorer: scorer(_Classifier(y_pred, classes), None, y_true,
                                                   options.get("sample_weight"))
    return calls


def _compare(y_true, y_pred, other_true, other_pred):
    for options in _options(y_true, y_pred):
        fast_calls = _calls(y_true, y_pred, options)
        general_calls = _calls(other_true, other_pred, options)
        for name, call in fast_calls.items():
            fast, general = _outcome(call), _outcome(general_calls[name])
            try:
                _assert_same_outcomes(fast, general)
            except AssertionError as error:
                raise AssertionError(f"{name} with {options}: {error}") from None


@pytest.mark.parametrize("name, y_true, y_pred", CASES, ids=[case[0] for case in CASES])
def test_numpy_labels_equal_the_general_path(name, y_true, y_pred):
    """1-D NumPy arrays (the shortcut) and the same labels as an ndarray subclass, which
    takes the general route of every other input: the same outcomes, bit for bit."""
    _compare(y_true, y_pred, y_true.view(_Plain), y_pred.view(_Plain))


@pytest.mark.parametrize("name, y_true, y_pred", CASES[:8], ids=[case[0] for case in CASES[:8]])
def test_numpy_labels_equal_lists_and_pandas(name, y_true, y_pred):
    """Labels as lists and as pandas Series (the general route) against the same labels as
    int64 NumPy arrays: the same outcomes."""
    pd = pytest.importorskip("pandas")
    y_true, y_pred = y_true.astype(np.int64), y_pred.astype(np.int64)
    _compare(y_true, y_pred, y_true.tolist(), y_pred.tolist())
    _compare(y_true, y_pred, pd.Series(y_true), pd.Series(y_pred))


def _sorted_path(monkeypatch):
    """Integer labels found by sorting (``unique_labels``) and encoded by search, as labels
    of a range too wide to count are: the dense count switched off."""
    monkeypatch.setattr(labels, "_dense_integer_codes", lambda targets, count_pairs=False: None)


def _outcomes(y_true, y_pred):
    return {(name, repr(options)): _outcome(call)
            for options in _options(y_true, y_pred)
            for name, call in _calls(y_true, y_pred, options).items()}


INTEGER_CASES = [case for case in CASES if case[1].dtype.kind in "iu"]


@pytest.mark.parametrize("name, y_true, y_pred", INTEGER_CASES,
                         ids=[case[0] for case in INTEGER_CASES])
def test_counted_labels_equal_sorted_labels(monkeypatch, name, y_true, y_pred):
    """Integer labels counted over their range (the shortcut, with the counts of their pairs
    found on the way) and the same labels sorted and searched: the same outcomes (the label
    arrays may differ in integer type, not in value)."""
    counted = _outcomes(y_true, y_pred)
    _sorted_path(monkeypatch)
    for key, general in _outcomes(y_true, y_pred).items():
        try:
            _assert_same_outcomes(counted[key], general)
        except AssertionError as error:
            raise AssertionError(f"{key}: {error}") from None


@pytest.mark.parametrize("name, y_true, y_pred", CASES, ids=[case[0] for case in CASES])
def test_counted_matrix_equals_the_transport_plans(name, y_true, y_pred):
    """The matrix of 1-D labels is their pair counts (the shortcut); a weighting callable of
    unit weights sums every instance's transport plan instead: the same matrices and scores,
    bit for bit (the sums of ones and of sample weights are exact here)."""
    ones = lambda t, p: np.ones(t.shape[0])  # noqa: E731
    for options in ({}, {"sample_weight": np.arange(len(y_true)) % 3}):
        for function in (sce.transport_confusion_matrix, sce.subpixel_confusion_matrix):
            counted = _outcome(function, y_true, y_pred, **options)
            planned = _outcome(function, y_true, y_pred, weighting=ones, **options)
            _assert_same_outcomes(counted, planned)
        for average in (None, "macro", "weighted"):
            counted = _outcome(sce.transport_precision_recall_fscore_support, y_true, y_pred,
                               average=average, **options)
            planned = _outcome(sce.transport_precision_recall_fscore_support, y_true, y_pred,
                               average=average, weighting=ones, **options)
            _assert_same_outcomes(counted, planned)


def test_two_bounds_of_counted_labels_are_two_arrays():
    """The sub-pixel bounds of 1-D labels are two equal matrices, never one array twice."""
    lower, upper = sce.subpixel_confusion_matrix([0, 1, 1, 2], [0, 2, 1, 2])
    np.testing.assert_array_equal(lower, [[1, 0, 0], [0, 1, 1], [0, 0, 1]])
    np.testing.assert_array_equal(lower, upper)
    assert not np.shares_memory(lower, upper)


def _reference_scores(matrix, beta, average, zero_division):
    """Precision, recall and F-beta of a matrix by scikit-learn's definitions, with masks
    throughout (no shortcut): NaN scores are left out of the averages."""
    tp, true, pred = np.diagonal(matrix), matrix.sum(axis=1), matrix.sum(axis=0)
    if average == "micro":  # pooled (summed in another order: to the last bits)
        tp, true, pred = np.array([tp, true, pred]).sum(axis=1, keepdims=True)
    beta2 = beta * beta
    numerators = np.array([tp, tp, (1 + beta2) * tp])
    denominators = np.array([pred, true, beta2 * true + pred])
    undefined = denominators == 0
    value = np.nan if zero_division == "warn" else float(zero_division)
    scores = np.divide(numerators, denominators, out=np.full(numerators.shape, value),
                       where=~undefined)
    np.minimum(scores, 1.0, out=scores, where=~undefined)
    if zero_division == "warn":
        scores[undefined] = 0.0
    if average is None:
        return (*scores, true), True
    if average == "micro":
        return (*scores[:, 0].tolist(), None), False
    if average == "macro" and not np.isnan(scores).any():  # NumPy's mean of each row
        return (*np.minimum(scores.mean(axis=1), 1.0).tolist(), None), True
    weights = true if average == "weighted" else np.ones(len(tp))
    averages = []
    for row in scores:
        defined = ~np.isnan(row)
        if not defined.any():
            averages.append(0.0 if zero_division == "warn" else float(zero_division))
        elif average == "macro" or weights[defined].sum() == 0:
            averages.append(min(float(np.mean(row[defined])), 1.0))
        else:
            averages.append(min(float(row[defined] @ weights[defined]
                                      / weights[defined].sum()), 1.0))
    return (*averages, None), False  # dot products: to the last bits


@pytest.mark.parametrize("n_classes", [1, 2, 5, 9, 17, 40])
def test_scores_equal_the_masked_reference(n_classes):
    """The scores of a matrix (no masks where every denominator is defined; F1 without
    1.0 * true; the unweighted average in Python floats) equal scikit-learn's definitions
    computed with masks throughout, bit for bit (averages over NaN-free scores; to the last
    bits otherwise), on counts and on fractional masses, with empty rows and columns."""
    rng = np.random.default_rng(n_classes)
    for trial in range(12):
        matrix = rng.integers(0, 6, (n_classes, n_classes)).astype(float)
        if trial % 3 == 1:
            matrix *= rng.random((n_classes, n_classes)) * 1e-3
        if trial % 4 == 2:  # a class nobody has or predicts
            matrix[n_classes // 2, :] = 0
            matrix[:, n_classes // 2] = 0
        for beta in (1, 1.0, np.float32(1.0), 0.5, 2.0, 0.0):
            for zero_division in ("warn", 0.0, 1.0, np.nan):
                for average in (None, "macro", "micro", "weighted"):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        result = sce.precision_recall_fscore_support_from_confusion(
                            matrix, beta=beta, average=average, zero_division=zero_division)
                    expected, exact = _reference_scores(matrix, beta, average,
                                                        zero_division)
                    if exact:
                        _assert_identical(list(result), list(expected))
                    else:
                        np.testing.assert_allclose(result[:3], expected[:3], rtol=1e-13)


def test_undefined_scores_warn_as_before():
    """A fold without a class: the same warnings and zero_division values as scikit-learn
    (the shortcut of defined scores does not skip them)."""
    y_true, y_pred = np.array([0, 0, 1, 1]), np.array([0, 0, 0, 0])
    with pytest.warns(Warning) as caught:
        result = sce.transport_precision_recall_fscore_support(y_true, y_pred, average="macro")
    assert [str(w.message) for w in caught] == [
        "Precision is ill-defined and being set to 0.0 in 1 class(es) with no predicted "
        "mass. Use `zero_division` to control this behavior."]
    assert result == (0.25, 0.5, 1 / 3, None)
    result = sce.transport_precision_recall_fscore_support(y_true, y_pred, average="macro",
                                                           zero_division=np.nan)
    assert result[0] == 0.5 and result[1] == 0.5


# --- The comparisons catch a shortcut that drifts -----------------------------------------

def _drifting_counts(monkeypatch):
    """A dense count that miscounts one pair: the shortcut drifting from the sorted path."""
    real = labels._dense_integer_codes

    def drifting(targets, count_pairs=False):
        found = real(targets, count_pairs)
        if found is not None and found[2][0] is not None:
            found[2][0][0, 0] += 1
        return found

    monkeypatch.setattr(labels, "_dense_integer_codes", drifting)


def test_a_drifting_count_is_caught(monkeypatch):
    """The comparison of counted and sorted labels fails on a count that drifts by one."""
    name, y_true, y_pred = CASES[0]
    with monkeypatch.context() as patched:
        _drifting_counts(patched)
        counted = _outcomes(y_true, y_pred)
    _sorted_path(monkeypatch)
    general = _outcomes(y_true, y_pred)
    with pytest.raises(AssertionError):
        for key in general:
            _assert_same_outcomes(counted[key], general[key])


def test_a_drifting_counted_matrix_is_caught(monkeypatch):
    """The comparison with the transport plans fails on counted matrices that drift in the
    last bit."""
    real = kinds.label_counts
    monkeypatch.setattr(kinds, "label_counts", lambda targets: np.nextafter(real(targets), 9))
    name, y_true, y_pred = CASES[0]
    with pytest.raises(AssertionError):
        test_counted_matrix_equals_the_transport_plans(name, y_true, y_pred)


def test_a_drifting_numpy_shortcut_is_caught(monkeypatch):
    """The comparison of NumPy arrays and the general route fails where the shortcut of
    NumPy labels reads them otherwise (here: one label changed on the way)."""
    real = targets._encode_labels

    def drifting(names, targets, *args, **kwargs):
        if len(args) == 3:  # called by the shortcut (the general route passes categories)
            targets = [y.copy() for y in targets]
            targets[0][0] = targets[1][0]
        return real(names, targets, *args, **kwargs)

    monkeypatch.setattr(targets, "_encode_labels", drifting)
    name, y_true, y_pred = CASES[0]
    assert y_true[0] != y_pred[0]
    with pytest.raises(AssertionError):
        test_numpy_labels_equal_the_general_path(name, y_true, y_pred)


def test_every_class_in_order_is_shared_and_read_only():
    """The selection of every class in order is one shared read-only array (recognized by
    identity: no comparison, no fancy index); what a matrix function returns is still a new,
    writable array, and scores' supports are the row sums."""
    from sklearn_confusion_ext._core.confusion import Confusion, every_class

    matrix = np.array([[2.0, 1.0], [0.0, 3.0]])
    confusion = Confusion.from_parts(matrix, np.array([0, 1]), None, False)
    assert confusion.selection is every_class(2)
    assert not confusion.selection.flags.writeable
    selected = confusion.selected()
    assert selected.flags.writeable and not np.shares_memory(selected, matrix)
    result = sce.transport_confusion_matrix([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
    result[0, 0] = 9.0  # the caller's own array
    np.testing.assert_array_equal(
        sce.transport_confusion_matrix([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1]),
        [[2, 1], [0, 3]])
    *_, support = sce.transport_precision_recall_fscore_support([0, 0, 0, 1], [0, 1, 1, 1])
    np.testing.assert_array_equal(support, [3.0, 1.0])
