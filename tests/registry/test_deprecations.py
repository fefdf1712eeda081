"""Every former name works for one release with a ``FutureWarning`` naming its new name, and
gives what the new name gives; passing both names is an error. Generated from the renames
declared beside the callables (``validate_params(renamed=...)``) and on the result classes
(``_renamed_fields``), so a rename is tested the moment it is declared."""

import inspect
import warnings

import numpy as np
import pytest
from declarations import RENAMED
from test_common import (
    DISPLAYS,
    IBD,
    OTHER,
    REGISTRY,
    assert_same,
    compared,
    minimal_keywords,
    plt,
)

import sklearn_confusion_ext as sce

PARAMETER_RENAMES = [(key, old, new) for key, renames in RENAMED.items()
                     for old, new in renames.items()]
RESULT_RENAMES = [(name, old, new) for name in sce.__all__
                  if inspect.isclass(getattr(sce, name))
                  for old, new in getattr(getattr(sce, name), "_renamed_fields", {}).items()]


def _function_and_keywords(key):
    """The public callable of ``key`` (a method bound where it is one) and its keywords."""
    owner, _, method = key.partition(".")
    if owner in DISPLAYS and plt is None:
        pytest.skip("matplotlib is not installed")
    if not method:
        return getattr(sce, owner), minimal_keywords(owner)
    function = inspect.getattr_static(getattr(sce, owner), method)
    if isinstance(function, (classmethod, staticmethod)):
        function = getattr(getattr(sce, owner), method)
    else:
        function = getattr(getattr(sce, owner)(**minimal_keywords(owner)), method)
    return function, REGISTRY[owner].methods[method]()


def _value_of(function, keywords, new):
    """The value passed under both names: the registry's, else the parameter's default."""
    if new in keywords:
        return keywords.pop(new)
    return inspect.signature(function).parameters[new].default


def _comparable(key, result):
    if "." not in key:
        return compared(key, result)
    if hasattr(result, "figure_"):  # a Display: its data, not its figure
        return {name: value for name, value in vars(result).items()
                if not name.endswith("_") and not callable(value)}
    return result


@pytest.mark.parametrize("key, old, new", PARAMETER_RENAMES)
def test_a_former_parameter_name_warns_and_gives_the_same(key, old, new):
    function, keywords = _function_and_keywords(key)
    value = _value_of(function, keywords, new)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = function(**keywords, **{new: value})
    with pytest.warns(FutureWarning, match=rf"{old}'? was renamed '?{new}") as record:
        actual = function(**keywords, **{old: value})
    assert any(issubclass(w.category, FutureWarning) for w in record)
    assert_same(_comparable(key, actual), _comparable(key, expected))
    with pytest.raises(TypeError, match=rf"pass '{new}' only"):
        function(**keywords, **{old: value, new: value})


@pytest.mark.parametrize("name, old, new", RESULT_RENAMES)
def test_a_former_result_field_warns_and_reads_the_field(name, old, new):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = getattr(sce, name)(**minimal_keywords(name))
    with pytest.warns(FutureWarning, match=rf"{old}'? was renamed '?{new}"):
        value = getattr(result, old)
    assert value is getattr(result, new) or np.array_equal(value, getattr(result, new))


def test_renames_are_declared_where_they_are_tested():
    # The two sweeps above are generated: this one fails if the generation finds nothing
    # while renames exist (a broken lookup would otherwise skip every alias silently).
    declared = sum(len(r) for r in RENAMED.values())
    assert len(PARAMETER_RENAMES) == declared


# --- The Displays' former constructors ---------------------------------------------------------

# Each Display's former constructors (``_renamed_constructors``: former name -> constructor).
CONSTRUCTOR_RENAMES = [(name, old, new) for name in DISPLAYS for old, new in getattr(
    getattr(sce, name), "_renamed_constructors", {}).items()]
# The constructor call that builds what a former constructor's registry call builds, where
# their arguments differ (else the constructor's own registry call).
EQUIVALENT_CALLS = {
    ("RankingComparisonDisplay", "from_matrices"): lambda: {
        "matrices": [IBD, OTHER], "models": ("A", "B")},
}


@pytest.mark.parametrize("name, old, new", CONSTRUCTOR_RENAMES)
def test_a_former_constructor_warns_and_builds_the_same(name, old, new):
    if plt is None:
        pytest.skip("matplotlib is not installed")
    display, methods = getattr(sce, name), REGISTRY[name].methods
    former = methods.get(old, methods[new])()
    current = EQUIVALENT_CALLS.get((name, old), methods[new])()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(display, new)(**current)
    with pytest.warns(FutureWarning, match=rf"{name}: the constructor '{old}' was renamed "
                                           rf"'{new}'"):
        actual = getattr(display, old)(**former)
    assert type(actual) is display and hasattr(actual, "figure_")
    assert_same(_comparable(f"{name}.{old}", actual), _comparable(f"{name}.{new}", expected))
    # the former name is no declared public callable: the constructor is
    assert f"{name}.{old}" not in RENAMED and f"{name}.{new}" in RENAMED


def test_the_displays_constructors_are_few():
    # from_predictions, from_estimator and the few a Display needs (a matrix, a result, a
    # table of scores, labels alone): documented in one table (doc/user_guide/integration.rst)
    constructors = {attribute for name in DISPLAYS for attribute in dir(getattr(sce, name))
                    if attribute.startswith("from_")
                    and attribute not in getattr(getattr(sce, name), "_renamed_constructors",
                                                 {})}
    assert constructors == {"from_predictions", "from_estimator", "from_cv_results",
                            "from_confusion", "from_result", "from_scores", "from_labels"}
    assert len(CONSTRUCTOR_RENAMES) == 3
