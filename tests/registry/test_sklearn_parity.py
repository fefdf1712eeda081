"""scikit-learn's own classification tests, run on the transport functions.

The docstrings promise scikit-learn's results on 1-D class labels. This module
imports the installed ``sklearn/metrics/tests/test_classification.py`` (it is not
copied here), rebinds its metric names to the transport functions, and runs every
test function that uses one of them, with its parametrizations. A test that fails
must be listed in ``INTENDED_DIFFERENCES`` with the reason; the table is checked
both ways (a listed test must still fail). The user guide's "Parity with
scikit-learn" page explains the differences and gives the tally.

Skipped when the installed scikit-learn ships without its tests.
"""

import importlib
import importlib.util
import inspect
import itertools
import re
import types
import warnings
from functools import partial

import numpy as np
import pytest
import sklearn
from sklearn import metrics

from sklearn_confusion_ext import (
    transport_accuracy_score,
    transport_classification_report,
    transport_confusion_matrix,
    transport_multilabel_confusion_matrix,
    transport_precision_recall_fscore_support,
)

MODULE = "sklearn.metrics.tests.test_classification"

if importlib.util.find_spec("sklearn.metrics.tests") is None or \
        importlib.util.find_spec(MODULE) is None:
    pytest.skip(f"the installed scikit-learn {sklearn.__version__} ships without {MODULE}",
                allow_module_level=True)

with warnings.catch_warnings():  # marks of scikit-learn's own pytest setup
    warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
    sklearn_tests = importlib.import_module(MODULE)


# The scikit-learn names, as the transport functions (or a score of their one result).
def _score(index, y_true, y_pred, *, labels=None, pos_label=1, average="binary",
           sample_weight=None, zero_division="warn", beta=1.0):
    return transport_precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division)[index]


def precision_score(y_true, y_pred, **params):
    return _score(0, y_true, y_pred, **params)


def recall_score(y_true, y_pred, **params):
    return _score(1, y_true, y_pred, **params)


def f1_score(y_true, y_pred, **params):
    return _score(2, y_true, y_pred, **params)


def fbeta_score(y_true, y_pred, *, beta, **params):
    return _score(2, y_true, y_pred, beta=beta, **params)


REBOUND = {
    "confusion_matrix": transport_confusion_matrix,
    "multilabel_confusion_matrix": transport_multilabel_confusion_matrix,
    "precision_recall_fscore_support": transport_precision_recall_fscore_support,
    "accuracy_score": transport_accuracy_score,
    "classification_report": transport_classification_report,
    "precision_score": precision_score,
    "recall_score": recall_score,
    "f1_score": f1_score,
    "fbeta_score": fbeta_score,
}
ORIGINALS = {id(getattr(metrics, name)): name for name in REBOUND}

# scikit-learn's tests that do not pass here, by case-id pattern ("name" is a test without
# parameters, "name[*]" every case of one; "*" is the only wildcard). Kinds:
# - "wording": the same exception or warning class on the same input, in our words; the
#   case runs with pytest.raises/pytest.warns not matching the message, and must pass.
# - "differs": a difference by design; the case must fail (strict xfail).
# - "open": a defect outside the files that this suite was written with; strict xfail, so
#   that its fix shows here.
# A pattern that matches no case of the installed scikit-learn is allowed only in
# VERSION_SPECIFIC, with the versions it exists in.
MULTILABEL = ("multi-label targets are scored from the transport matrix (mass spread by the "
              "plan, empty rows in a 'none' class), not per indicator column")
SAMPLES = "no average='samples' (a per-instance average of multi-label targets)"
INTENDED_DIFFERENCES = {
    # 1-D class labels
    "test_confusion_matrix_dtype": (
        "differs", "matrices are float64 (masses may be fractional); scikit-learn counts "
                   "in int64 without float weights"),
    "test_confusion_matrix_normalize[None-i-2]": (
        "differs", "matrices are float64, also unnormalized"),
    "test_classification_report_labels_target_names_unequal_length": (
        "differs", "target_names of another length than labels is refused (ValueError), "
                   "not truncated with a warning"),
    "test_classification_report_zero_division_warning[warn]": (
        "differs", "the UndefinedMetricWarning's advice reads 'Use `zero_division` to "
                   "control this behavior'; the test looks for scikit-learn's sentence"),
    "test_precision_recall_f_binary_single_class": (
        "differs", "beta must be finite (F-beta at beta=inf is the recall)"),
    "test_classification_report_no_labels_target_names_unequal_length": (
        "wording", "ValueError that names the classes"),
    "test_confusion_matrix_error[empty list]": ("wording", "ValueError naming labels"),
    "test_confusion_matrix_error[unknown labels]": (
        "wording", "ValueError naming the labels absent from y_true"),
    "test_precision_recall_f_unused_pos_label": ("wording", "UserWarning"),
    "test_prf_average_binary_data_non_binary": ("wording", "ValueError"),
    "test_confusion_matrix_single_label": ("wording", "UserWarning"),
    "test_confusion_matrix_on_zero_length_input[*]": (
        "differs", "empty targets are refused with a ValueError"),
    "test_classification_report_output_dict_empty_input": (
        "differs", "empty targets are refused with a ValueError"),
    # multi-label targets, and parameters only scikit-learn has
    "test_multilabel_accuracy_score_subset_accuracy": (
        "differs", "multi-label accuracy is the transport matrix's diagonal share, not the "
                   "subset (exact match) accuracy"),
    "test_multilabel_classification_report": ("differs", f"{MULTILABEL}; {SAMPLES}"),
    "test_multilabel_confusion_matrix_multilabel*": ("differs", MULTILABEL),
    "test_multilabel_confusion_matrix_errors": (
        "differs", "no samplewise= parameter (per-instance matrices of multi-label targets); "
                   "other messages worded differently"),
    "test_precision_recall_f1_no_labels[0-*]": ("differs", MULTILABEL),
    "test_precision_recall_f1_no_labels[nan-*]": ("differs", MULTILABEL),
    "test_precision_recall_f1_no_labels[1-samples-*]": ("differs", SAMPLES),
    "test_precision_recall_f1_no_labels_average_none[*]": ("differs", MULTILABEL),
    "test_precision_recall_f1_no_labels_average_none_warn": ("differs", MULTILABEL),
    "test_precision_recall_f1_no_labels_check_warnings[*]": ("differs", MULTILABEL),
    "test_precision_recall_f1_score_multilabel_1": ("differs", f"{MULTILABEL}; {SAMPLES}"),
    "test_precision_recall_f1_score_multilabel_2": ("differs", f"{MULTILABEL}; {SAMPLES}"),
    "test_precision_recall_f1_score_with_an_empty_prediction[*]": (
        "differs", f"{MULTILABEL}; {SAMPLES}"),
    "test_precision_refcall_f1_score_multilabel_unordered_labels[*]": (
        "differs", f"{MULTILABEL}; no warn_for= parameter"),
    "test_precision_recall_f_extra_labels": (
        "differs", f"its multi-label half: {SAMPLES}; labels beyond the indicator columns"),
    "test_prf_no_warnings_if_zero_division_set[*]": ("differs", SAMPLES),
    "test_prf_warnings": (
        "differs", f"{SAMPLES}; the test compares scikit-learn's warning sentences"),
    "test_precision_warnings[warn]": (
        "differs", f"{MULTILABEL}; scikit-learn's warning sentences"),
    "test_recall_warnings[warn]": ("differs", f"{MULTILABEL}; scikit-learn's warning sentences"),
    "test_fscore_warnings[warn]": ("differs", f"{MULTILABEL}; scikit-learn's warning sentences"),
}
# Patterns of tests that exist only in some scikit-learn versions.
VERSION_SPECIFIC = {
    "test_confusion_matrix_single_label": "a test of recent scikit-learn (not in 1.3)",
    "test_confusion_matrix_on_zero_length_input[*]": (
        "scikit-learn 1.3 returns empty results on empty targets; recent versions raise too"),
    "test_classification_report_output_dict_empty_input": "as the one above",
}


def _uses_rebound_name(function, seen=None):
    """Whether ``function`` (or a module-level helper it calls) reads a rebound name."""
    seen = set() if seen is None else seen
    if function in seen:
        return False
    seen.add(function)
    codes = [inspect.unwrap(function).__code__]  # under @ignore_warnings
    names = set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    if names & set(REBOUND):
        return True
    helpers = (getattr(sklearn_tests, name, None) for name in names)
    return any(isinstance(helper, types.FunctionType)
               and helper.__module__ == MODULE and _uses_rebound_name(helper, seen)
               for helper in helpers)


def _rebind(value):
    """A parameter value with scikit-learn's metric functions replaced by ours."""
    if isinstance(value, partial):
        return partial(_rebind(value.func), *value.args, **value.keywords)
    if callable(value) and id(value) in ORIGINALS:
        return REBOUND[ORIGINALS[id(value)]]
    if isinstance(value, (tuple, list)):
        return type(value)(_rebind(item) for item in value)
    return value


def _marks(function, name):
    return [mark for mark in getattr(function, "pytestmark", []) if mark.name == name]


def _parametrizations(function):
    """``(id, kwargs, marks)`` for each combination of the function's parametrize marks.

    Ids name simple values (``zero_division=nan`` gives ``nan``) and number the others.
    """
    axes = []
    for mark in _marks(function, "parametrize"):  # the innermost first, as pytest's ids
        argnames, argvalues = mark.args[:2]
        if isinstance(argnames, str):
            argnames = [name.strip() for name in argnames.split(",") if name.strip()]
        ids = mark.kwargs.get("ids")
        cases = []
        for position, argvalue in enumerate(argvalues):
            values, case_marks = argvalue, ()
            if hasattr(argvalue, "values") and hasattr(argvalue, "marks"):  # pytest.param
                values, case_marks = argvalue.values, argvalue.marks
            elif len(argnames) == 1:
                values = (argvalue,)
            if isinstance(ids, (list, tuple)):
                case_id = str(ids[position])
            else:
                case_id = "-".join(_value_id(value, name, position)
                                   for name, value in zip(argnames, values))
            cases.append((case_id, dict(zip(argnames, values)), tuple(case_marks)))
        axes.append(cases)
    for combination in itertools.product(*axes):
        kwargs, marks = {}, []
        for _, case_kwargs, case_marks in combination:
            kwargs.update(case_kwargs)
            marks.extend(case_marks)
        yield "-".join(case_id for case_id, _, _ in combination), kwargs, marks


def _value_id(value, name, position):
    if value is None or isinstance(value, (str, bool, int, float)):
        return str(value)
    return f"{name}{position}"


def _difference(case_id):
    """The table's ``(kind, reason)`` for a case, or None."""
    found = [entry for pattern, entry in INTENDED_DIFFERENCES.items()
             if _matches(case_id, pattern)]
    assert len(found) <= 1, f"{case_id} matches several patterns of INTENDED_DIFFERENCES"
    return found[0] if found else None


def _matches(case_id, pattern):
    """Whether ``case_id`` matches ``pattern``, where only ``*`` is special."""
    return re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), case_id) is not None


def _cases():
    for name, function in sorted(vars(sklearn_tests).items()):
        if not (name.startswith("test_") and isinstance(function, types.FunctionType)
                and _uses_rebound_name(function)):
            continue
        for position, kwargs, case_marks in _parametrizations(function):
            case_id = f"{name}[{position}]" if position else name
            marks = [mark for mark in case_marks if mark.name in ("skip", "skipif")]
            kind, reason = _difference(case_id) or (None, None)
            if kind in ("differs", "open"):
                marks.append(pytest.mark.xfail(reason=f"{kind}: {reason}", strict=True))
            yield pytest.param(name, kwargs, kind == "wording", id=case_id, marks=marks)


class _MessagesUnmatched:
    """``pytest`` as the scikit-learn module sees it in a "wording" case: ``raises`` and
    ``warns`` check the class of what is raised or warned, not its message."""

    def __getattr__(self, name):
        return getattr(pytest, name)

    @staticmethod
    def raises(expected, *args, match=None, **kwargs):
        return pytest.raises(expected, *args, **kwargs)

    @staticmethod
    def warns(expected, *args, match=None, **kwargs):
        return pytest.warns(expected, *args, **kwargs)


CASES = list(_cases())


@pytest.mark.parametrize("name, kwargs, wording", CASES)
def test_sklearn_classification_test(name, kwargs, wording, monkeypatch):
    function = getattr(sklearn_tests, name)
    for rebound_name, ours in REBOUND.items():
        if hasattr(sklearn_tests, rebound_name):
            monkeypatch.setattr(sklearn_tests, rebound_name, ours)
    if wording:
        monkeypatch.setattr(sklearn_tests, "pytest", _MessagesUnmatched())
    kwargs = {key: _rebind(value) for key, value in kwargs.items()}
    for parameter in inspect.signature(function).parameters:
        if parameter == "global_random_seed":
            kwargs.setdefault(parameter, 42)  # scikit-learn's default seed
    with warnings.catch_warnings():
        for mark in _marks(function, "filterwarnings"):
            action, message, category = (mark.args[0].split(":") + ["", ""])[:3]
            warnings.filterwarnings(action, message=message, category=_category(category))
        function(**kwargs)


def _category(dotted):
    """The warning class a pytest ``filterwarnings`` mark names (Warning when none)."""
    module, _, name = dotted.rpartition(".")
    if not name:
        return Warning
    return getattr(importlib.import_module(module or "builtins"), name)


def test_every_intended_difference_matches_a_case():
    """No stale entry: each pattern matches a case here, or is known to be version-specific."""
    case_ids = [case.id for case in CASES]
    unmatched = {pattern for pattern in INTENDED_DIFFERENCES
                 if not any(_matches(case_id, pattern) for case_id in case_ids)}
    unmatched -= set(VERSION_SPECIFIC)
    assert not unmatched, f"patterns matching no test of {MODULE}: {sorted(unmatched)}"


def test_the_suite_runs_a_meaningful_share():
    """The rebinding found the tests: dozens of cases, not a silent empty run."""
    assert len(CASES) > 50
    assert np.isin(["test_confusion_matrix_binary", "test_classification_report_multiclass"],
                   [case.values[0] for case in CASES]).all()
