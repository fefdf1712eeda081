"""Error messages name what the user passed, and are raised when the call is made; generated
over the common registry (``test_common.REGISTRY``, the declarations on the decorators).

* **Only public names.** A refusal names the arguments of the callable the user called,
  never a name the user cannot have passed: a result's own field (``total_confused`` of
  :class:`ConfusedPairsResult`), an argument of a function the package called inside
  (``p_pred`` of the quantification errors, ``rho`` of a result), or the "should have
  refused" fallback of a result's field check. :func:`internal_names` says which names of
  a message are such; the data sweep below calls every public callable with data that
  its declared constraints accept but its computation may not (every number of an array
  argument at the float64 maximum, cells whose sums overflow, subnormal values) and checks
  each refusal with it, and ``test_fuzz.py`` and ``test_extremes.py`` check their
  refusals with it too.
* **Repeated class names** are refused, with the reports' message, by every function that
  keys a table by class name.
* **Lazy results check early.** A callable whose result does its work later (a scorer, an
  iterator of samples, an accumulator) refuses a bad argument when it is called, not at
  the first fold, sample or batch.
"""

import dataclasses
import functools
import inspect
import re

import numpy as np
import pytest
from declarations import DECLARATIONS
from sweeps import run_child
from test_common import (
    DISPLAYS,
    REGISTRY,
    call,
    minimal_keywords,
    public_callable,
    public_keys,
)

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.params import ArrayLike, constraints_of

# --- Which names of a message are internal --------------------------------------------------


@functools.cache
def _parameters(key):
    """The names the user may pass to the callable of ``key`` (a method: its owner's too)."""
    owner, _, method = key.partition(".")
    names = set(DECLARATIONS.get(owner, {})) | set(DECLARATIONS.get(key, {}))
    function, _ = public_callable(key)
    if inspect.isclass(function):
        function = function.__init__
    names |= set(inspect.signature(function).parameters)
    return names


def _result_classes():
    return {name for name in sce.__all__ if inspect.isclass(getattr(sce, name))
            and dataclasses.is_dataclass(getattr(sce, name))}


def _internal_vocabulary():
    """Every field of a public result class and every argument of a public callable."""
    names = {field.name for name in _result_classes()
             for field in dataclasses.fields(getattr(sce, name))}
    return names | {name for key in public_keys() for name in DECLARATIONS[key]}


_VOCABULARY = _internal_vocabulary()
# Names a message may give as advice whatever was called: the package's settings
# (set_config's arguments, in the memory budget's message).
_ADVICE = set(inspect.signature(sce.set_config).parameters)
_PARAMETER_OF = re.compile(r"The '(\w+)' parameter of ([\w.]+)")
_FALLBACK = "should have refused the argument that leads there"
_SHAPE = re.compile(r"\((?:n_\w+|\d+)(?:, (?:n_\w+|\d+))+\)")


def internal_names(key, message):
    """The names in ``message``, an error raised by the callable of ``key``, that its user
    cannot have passed: a parameter of another callable or a field of a result class (as
    words with an underscore, or as "The 'x' parameter of Y" of another Y), and the result
    field check's fallback. Empty for a message that names only public arguments."""
    public = _parameters(key) | _ADVICE
    owner = key.partition(".")[0]
    message = _SHAPE.sub("(shape)", message)  # "(n_samples, n_classes)" names no argument
    found = set()
    for name, of in _PARAMETER_OF.findall(message):
        if of.partition("(")[0].partition(".")[0] != owner or name not in public:
            found.add(f"{name} of {of}")
    for word in set(re.findall(r"\b[A-Za-z]\w*_\w+\b", message)):
        if word in _VOCABULARY and word not in public:
            found.add(word)
    found |= {name for name in _result_classes() if name != owner
              and re.search(rf"\b{name}\b", message)}
    if _FALLBACK in message:
        found.add("the result's field check")
    return sorted(found)


def test_internal_names_are_found():
    assert internal_names("most_confused_pairs", "The 'total_confused' parameter of "
                          "ConfusedPairsResult must be a finite real number >= 0; got inf.") \
        == ["ConfusedPairsResult", "total_confused", "total_confused of ConfusedPairsResult"]
    assert internal_names("evaluate_quantifier", "p_pred must hold finite non-negative "
                                                 "prevalences.") == ["p_pred"]
    assert internal_names("friedman_posthoc", "friedman_posthoc: these arguments give a "
                          "critical difference of inf, which must be finite; friedman_posthoc "
                          "should have refused the argument that leads there.") == [
        "the result's field check"]
    assert internal_names("absolute_error", "p_pred must hold finite non-negative "
                                            "prevalences.") == []
    assert internal_names("ConfusionAccumulator.update", "the batch has 2 classes (columns) "
                                                         "but n_classes=3.") == []
    assert internal_names("prevalence", "Pass soft labels as a 2-D (n_samples, n_classes) "
                                        "array.") == []
    assert internal_names("most_confused_pairs", "would hold 8 TiB, above the package's budget "
                                                 "of max_matrix_mib=1024 MiB") == []


# --- Data the declared constraints accept, at the float64 extremes --------------------------


def _is_data(constraints):
    return bool(constraints) and all(isinstance(c, ArrayLike) for c in constraints)


def _numeric(value):
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return array if array.size and np.isfinite(array).all() and array.dtype.kind == "f" \
        else None


# How each array argument is made extreme: every nonzero number at the float64 maximum
# (sums overflow), the largest one at the maximum (the others scaled with it), all scaled to
# the smallest subnormal.
EXTREMES = {
    "all at 1.8e308": lambda a: np.where(a != 0, np.copysign(np.finfo(float).max, a), 0.0),
    "largest at 1.8e308": lambda a: a * (np.finfo(float).max / np.abs(a).max()),
    "scaled to 5e-324": lambda a: a * (5e-324 / np.abs(a).max()),
}


def data_cases():
    """``key:parameter:extreme`` for each array argument of a minimal call holding numbers."""
    cases = []
    for key in public_keys():
        owner, _, method = key.partition(".")
        if owner not in REGISTRY:
            continue
        keywords = minimal_keywords(owner) if not method else (
            REGISTRY[owner].methods.get(method, dict)())
        for name, value in keywords.items():
            declared = DECLARATIONS[key].get(name)
            array = _numeric(value)
            if declared is None or not _is_data(constraints_of(declared)) or array is None \
                    or not np.abs(array).max() > 0:
                continue
            cases += [f"{key}:{name}:{extreme}" for extreme in EXTREMES]
    return cases


_DATA_LOOP = """
import numpy as np
from test_common import REGISTRY, minimal_keywords
from test_error_messages import EXTREMES

for case in ARGS:
    key, name, extreme = case.split(":")
    owner, _, method = key.partition(".")
    keywords = minimal_keywords(owner) if not method else REGISTRY[owner].methods[method]()
    value = EXTREMES[extreme](np.asarray(keywords[name], dtype=float))
    signal.alarm(ALARM_S)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call(key, **{name: value})
            if hasattr(result, "__next__"):
                next(result)
        out = "ok"
    except Stopped:
        out = "stopped"
    except Exception as error:
        out = type(error).__name__ + ": " + str(error)[:400]
    finally:
        signal.alarm(0)
        import matplotlib.pyplot as plt
        plt.close("all")
    print(json.dumps({"case": case, "out": out}), flush=True)
"""


@pytest.mark.slow
def test_refusals_of_extreme_data_name_only_public_arguments():
    # found by this sweep (seen failing on the old code): most_confused_pairs of cells near
    # 1e308 refused naming ConfusedPairsResult's total_confused
    cases = data_cases()
    assert len(cases) > 150
    results, stderr = run_child(_DATA_LOOP, cases, alarm_s=5)
    assert {result["case"] for result in results} == set(cases), stderr
    defects = []
    for result in results:
        key, name, _ = result["case"].split(":")
        out = result["out"]
        if out == "ok":
            continue
        kind, _, message = out.partition(": ")
        if kind not in ("ValueError", "TypeError"):
            defects.append((result["case"], out[:200]))
        elif internal_names(key, message):
            defects.append((result["case"], internal_names(key, message), message[:200]))
    assert not defects, defects


# --- Repeated class names -------------------------------------------------------------------

# The arguments that name the classes of a table keyed by class name (Displays only draw
# them, as scikit-learn's ConfusionMatrixDisplay does).
CLASS_NAMES = ("display_labels", "target_names")


def _n_classes(key):
    """The number of classes of the minimal call of ``key``: the columns of its first 2-D
    data argument, or the labels of its first 1-D one."""
    for name, value in minimal_keywords(key).items():
        declared = DECLARATIONS[key].get(name)
        if declared is not None and (name in REGISTRY[key].target_params
                                     or _is_data(constraints_of(declared))):
            target = np.asarray(value, dtype=object)
            return target.shape[-1] if target.ndim == 2 else len(set(target.tolist()))
    raise AssertionError(f"{key} takes no data")


def repeated_name_cases():
    """Every callable that keys a table by class name: not the Displays, not the result
    classes (they hold what a function computed from checked names)."""
    cases = [(key, name) for key in public_keys()
             if key in REGISTRY and key not in DISPLAYS and key not in _result_classes()
             for name in CLASS_NAMES if name in DECLARATIONS[key]]
    return cases + [("confusion_frame", "labels")]


@pytest.mark.parametrize("key, name", repeated_name_cases())
def test_repeated_class_names_are_refused_with_the_reports_message(key, name):
    # most_confused_pairs reported a pair true='a', predicted='a', and confusion_frame, the
    # posterior and the statistical tables' tables took two classes of one name
    names = ["a", "a", *(f"class {i}" for i in range(_n_classes(key) - 2))]
    with pytest.raises(ValueError, match=rf"keyed by class name, and {name} repeat \['a'\]; "
                                         rf"pass {name} with distinct names\.$"):
        call(key, **{name: names})


# --- Lazy results check early ---------------------------------------------------------------

# Class labels the declared constraints accept (an array) that no function takes.
BAD_LABELS = {"repeated": [0, 0], "missing": [0, None], "strings beside numbers": [0, "a"],
              "2-D": [[0, 1]]}


def _is_lazy(result):
    """A result that does its work later: a scorer, an iterator, an accumulator."""
    return (hasattr(result, "__next__") or hasattr(result, "merge") and hasattr(result, "result")
            or (callable(result) and not inspect.isclass(result)))


def lazy_cases():
    cases = []
    for key in public_keys():
        if key not in REGISTRY or "labels" not in DECLARATIONS[key]:
            continue
        if _is_lazy(call(key)):
            cases += [pytest.param(key, bad, id=f"{key}-{bad}") for bad in BAD_LABELS]
    return cases


@pytest.mark.parametrize("key, bad", lazy_cases())
def test_lazy_results_refuse_bad_labels_when_called(key, bad):
    # make_quantification_scorer's labels were checked on every fold, evaluate_quantifier's
    # after the protocol was set up
    with pytest.raises(ValueError, match=r"\blabels\b"):
        call(key, labels=BAD_LABELS[bad])


def test_lazy_results_are_found():
    keys = {case.values[0] for case in lazy_cases()}
    assert {"make_quantification_scorer", "ConfusionAccumulator"} <= keys, keys


# --- from_estimator names y, not the builders' y_true ------------------------------------------


def from_estimator_cases():
    # the Displays that predict with one fitted estimator (PosteriorDifferenceDisplay's
    # cross-validates two: compare_cv checks its y)
    return [key for key in public_keys()
            if key.endswith(".from_estimator") and "estimator" in DECLARATIONS[key]]


@pytest.mark.parametrize("key", from_estimator_cases())
def test_from_estimator_names_y(key):
    # the builders' "y_true contains NaN", "y_true and y_pred must have the same number of
    # samples": from_estimator takes y, and y_pred are the estimator's predictions
    keywords = REGISTRY[key.partition(".")[0]].methods["from_estimator"]()
    y = np.asarray(keywords["y"], dtype=float)
    for bad, match in ((np.where(np.arange(len(y)) == 0, np.nan, y), r"^y contains NaN"),
                       (y[:-1], rf"^y has {len(y) - 1} samples but the estimator predicts "
                                rf"{len(y)} on X")):
        with pytest.raises(ValueError, match=match) as caught:
            call(key, y=bad)
        assert not internal_names(key, str(caught.value)), str(caught.value)


# --- Labels where a count matrix is taken ---------------------------------------------------

_TAKES_ONE_MATRIX = sorted(
    key for key, entry in REGISTRY.items() if "matrix" in entry.targets and "." not in key
    and entry.target_params in (("matrix",), ("table",))
    and key != "averaged_binary_measure")  # (matrix, binary_measure): a callable second


@pytest.mark.parametrize("key", _TAKES_ONE_MATRIX)
def test_functions_of_a_matrix_given_labels_name_the_matrix_to_pass(key):
    """f(y_true, y_pred) on a function of a count matrix (every neighbour of
    most_confused_pairs takes labels) is refused with the call that builds the matrix,
    not "too many positional arguments"; one label array is refused likewise."""
    function, _ = public_callable(key)
    table = REGISTRY[key].target_params == ("table",)
    builder = "mcnemar_table" if table else "transport_confusion_matrix"
    assert builder in sce.__all__
    y_true, y_pred = np.array([0, 1, 2, 1, 0, 2]), np.array([0, 2, 2, 1, 1, 2])
    with pytest.raises(TypeError, match=rf"^{key} takes a square count matrix .* not two "
                       rf"label arrays \(y_true, y_pred\): pass {key}\({builder}\(y_true, "):
        function(y_true, y_pred)
    with pytest.raises(ValueError, match=rf"A 1-D array holds labels, not counts: pass the "
                       rf"matrix {builder}\(y_true, "):
        function(list(y_true))


def test_two_matrices_given_labels_name_the_matrix_to_pass():
    with pytest.raises(ValueError, match=r"^matrix_a must be a square matrix .* pass the "
                       r"matrix transport_confusion_matrix\(y_true, y_pred\)"):
        sce.f1_ranking_disorder([0, 1, 1], [1, 1, 0])
