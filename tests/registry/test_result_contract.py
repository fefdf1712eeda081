"""One result contract, generated from the registry (``tests/registry/test_common.py``).

For every registered statistic and comparison (a public function whose result lives in
``_statistics`` or unpacks like scipy's), called with each value of each option it
declares (every ``Options`` and boolean parameter, and ``rope`` at 0 and above 0), alone
and, for the options that choose the test (``test``, ``method``, ``exact``,
``alternative``, ``rope``), in every combination:

* (a) a result type unpacks one way whatever the options: to the fields of
  :data:`CONTRACT`, in that order and length, or not at all;
* (b) on identical inputs (the two models' predictions or scores equal, the models' columns
  of a table equal, a table equal to its transpose) no model wins: two-sided p-values are
  1, the two one-sided p-values equal (and at least 1/2), the Bayesian probabilities of
  the two models equal, differences 0; or the input is refused where that is documented.
"""

import copy
import dataclasses
import inspect
import itertools
import warnings

import numpy as np
import pytest
from declarations import DECLARATIONS
from sklearn.dummy import DummyClassifier
from test_common import REGISTRY, minimal_keywords

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.params import Boolean, Options, constraints_of

BAYESIAN = ("p_a_better", "p_rope", "p_b_better")
# What each result type unpacks to, in order; None: it does not unpack (a table, an
# estimate with its interval). A new result type is not done until it is declared here.
CONTRACT = {
    "McNemarResult": ("statistic", "pvalue"),
    "MarginalHomogeneityResult": ("statistic", "pvalue"),
    "PosthocResult": ("statistic", "pvalue_two_sided_corrected"),
    "CrossValidatedTestResult": ("statistic", "pvalue"),
    "FriedmanTestResult": ("statistic", "pvalue"),
    "CochranQResult": ("statistic", "pvalue"),
    "NoInformationRateResult": ("accuracy", "pvalue"),
    "BayesianCorrelatedTTestResult": BAYESIAN,
    "BayesianSignedRankResult": BAYESIAN,
    "BayesianHierarchicalResult": BAYESIAN,
    "FriedmanPosthocResult": None,
    "ConfidenceIntervalResult": None,
    "ComparisonResult": None,
    "InconsistencyResult": ("inconsistency", "measure_names"),
    "DiscriminatingTripletsResult": ("triplets", "triplet_index"),
    "ReliabilityCurveResult": ("prob_true", "prob_pred"),
    "BrierDecompositionResult": None,
    "PowerResult": None,
    "SubgroupResult": None,
    "CrossValidatedConfusionResult": None,
    "CrossValidatedIntervalResult": None,
}
# The options that choose the test, combined with each other; the others vary one at a time.
CHOOSING = ("test", "method", "exact", "alternative", "rope")
# Ten folds testing on half their data: every test of compare_cv_scores takes them
# (5x2cv needs 10 folds of two halves).
FOLDS = np.round(np.random.default_rng(0).normal(0.8, 0.03, 10), 4)
LABELS = ([0, 1, 2, 2, 1, 0, 2, 1, 0, 1, 2, 0], [0, 2, 2, 1, 1, 0, 2, 0, 0, 1, 2, 1],
          [0, 1, 1, 2, 1, 0, 0, 1, 2, 1, 2, 0])
# Inputs where the registry's minimal call takes fewer of the options' values.
BASES = {
    "compare_cv_scores": lambda: {"scores_a": FOLDS, "scores_b": FOLDS - np.round(
        np.random.default_rng(1).normal(0.01, 0.02, 10), 4), "n_train": 1, "n_test": 1},
    # quick models (a fit is no part of the contract): 12 accepted calls of 20 fits each
    "compare_cv": lambda: {
        "estimator_a": DummyClassifier(), "X": np.arange(40.0)[:, None],
        "estimator_b": DummyClassifier(strategy="stratified", random_state=0),
        "y": np.arange(40) % 2, "n_splits": 2, "n_repeats": 5, "random_state": 0},
    "compare_scores": lambda: {"y_true": LABELS[0], "y_pred_a": LABELS[1],
                               "y_pred_b": LABELS[2], "n_resamples": 20, "random_state": 0},
    # 1-D labels and an accuracy: every interval method applies (analytic's closed forms)
    "score_confidence_interval": lambda: {"y_true": LABELS[0], "y_pred": LABELS[1],
                                          "scoring": "tcm_accuracy", "n_resamples": 20,
                                          "random_state": 0},
}

# Calls on other inputs than the base's, for an option value only they take: the
# calibration error's interval (method="norm_bound") reads probabilities.
EXTRA_CALLS = {
    "score_confidence_interval": [{
        "y_pred": np.tile([[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.1, 0.3, 0.6]], (4, 1)),
        "scoring": sce.expected_calibration_error, "method": "norm_bound"}],
    # acceptance with a margin: each test that takes one, both hypotheses
    "compare_scores": [{"method": method, "margin": 0.02, "hypothesis": hypothesis}
                       for method in ("bootstrap", "bayesian", "mcnemar-score")
                       for hypothesis in ("non-inferiority", "superiority")],
    "compare_cv_scores": [{"method": method, "margin": 0.01, "hypothesis": hypothesis}
                          for method in ("corrected_ttest", "bayesian", "5x2cv_ttest",
                                         "naive_ttest")
                          for hypothesis in ("non-inferiority", "superiority")],
}


# The modules of the statistics and comparisons, and of the other results that unpack.
MODULES = ("sklearn_confusion_ext._statistics.",
           "sklearn_confusion_ext._properties.inconsistency")


def _scope(name):
    obj = getattr(sce, name)
    return (REGISTRY[name].returns == "result" and not isinstance(obj, type)
            and getattr(obj, "__module__", "").startswith(MODULES))


def _base(name):
    return BASES[name]() if name in BASES else minimal_keywords(name)


def _options(name):
    """``{parameter: values}`` of every option ``name`` declares, and rope's 0 and 0.01."""
    options = {}
    for parameter, declared in DECLARATIONS[name].items():
        constraints = constraints_of(declared)
        values = [value for c in constraints if isinstance(c, Options) for value in c.options]
        if any(isinstance(c, Boolean) for c in constraints):
            values += [True, False]
        if parameter == "rope":
            values = [0.0, 0.01]
        if values:
            options[parameter] = values
    return options


def _calls(name):
    """Keyword sets of ``name``'s calls: the choosing options in every combination, each
    other option alone, over the registry's variants."""
    options = _options(name)
    choosing = {p: v for p, v in options.items() if p in CHOOSING}
    other = {p: v for p, v in options.items() if p not in CHOOSING}
    combined = [dict(zip(choosing, values)) for values in itertools.product(*choosing.values())]
    alone = [{parameter: value} for parameter, values in other.items() for value in values]
    variants = [{}, *REGISTRY[name].variants]
    calls = {}
    for variant in variants:
        for keywords in combined + alone:
            call = {**variant, **keywords}
            calls.setdefault(repr(sorted(call.items(), key=str)), call)
    return list(calls.values()) + EXTRA_CALLS.get(name, [])


def _run(function, keywords):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(**keywords), None
        except (TypeError, ValueError) as error:
            return None, error


def _in_scope(result):
    return type(result).__module__.startswith(MODULES) or type(result).__name__ in CONTRACT


CONTRACT_CASES = [name for name in REGISTRY if _scope(name)]


@pytest.mark.parametrize("name", CONTRACT_CASES)
def test_each_result_type_unpacks_one_way_whatever_the_options(name):
    function, base = getattr(sce, name), _base(name)
    accepted, seen = {}, {}
    for keywords in _calls(name):
        result, error = _run(function, {**base, **keywords})
        if error is not None:
            continue
        for parameter, value in keywords.items():
            accepted.setdefault(parameter, set()).add(repr(value))
        if not _in_scope(result):
            continue
        kind = type(result).__name__
        assert kind in CONTRACT, f"{kind} declares no unpacking in CONTRACT"
        fields = CONTRACT[kind]
        if fields is None:
            with pytest.raises(TypeError):
                iter(result)
            shape = None
        else:
            unpacked = tuple(result)
            assert len(unpacked) == len(fields), (name, keywords, unpacked)
            for value, field in zip(unpacked, fields):
                assert value is getattr(result, field) or np.array_equal(
                    value, getattr(result, field)), (name, keywords, field)
            shape = fields
        seen.setdefault(kind, set()).add(shape)
    assert seen, f"{name}: no call gave a result"
    for kind, shapes in seen.items():
        assert len(shapes) == 1, (name, kind, shapes)
    # every value of the options that choose the test was run at least once
    for parameter, values in _options(name).items():
        if parameter in CHOOSING:
            assert {repr(v) for v in values} <= accepted.get(parameter, set()), (
                name, parameter, accepted.get(parameter))


def test_the_bayesian_results_unpack_to_three_whatever_rope():
    # compare_cv_scores(test="bayesian") unpacked to (P(a better), P(b better)) with rope=0,
    # so that `statistic, pvalue = ...` ran and read two probabilities
    a, b = FOLDS, FOLDS - 0.01 * np.arange(10) / 10
    result = sce.compare_cv_scores(a, b, method="bayesian", n_train=9, n_test=1)
    with pytest.raises(ValueError, match="too many values to unpack"):
        statistic, pvalue = result
    p_a_better, p_rope, p_b_better = result
    assert p_rope == 0.0 and p_a_better + p_b_better == pytest.approx(1.0)


# --- (b) Identical inputs: no winner -------------------------------------------------------


def _pairs(name):
    """The parameters ``x_a``, ``x_b`` of two models' inputs in ``name``'s signature."""
    parameters = inspect.signature(getattr(sce, name)).parameters
    return [(p, p[:-2] + "_b") for p in parameters
            if p.endswith("_a") and p[:-2] + "_b" in parameters]


def _identical(name, base):
    """``base`` with the two models' inputs made identical, or None where ``name`` is no
    statistic of two models or of a table."""
    pairs = _pairs(name)
    if pairs:
        for a, b in pairs:
            base[b] = copy.deepcopy(base[a])
        return base
    if "scores" in base and np.ndim(base["scores"]) == 2:  # models in columns
        column = np.asarray(base["scores"], dtype=float)[:, :1]
        return {**base, "scores": np.tile(column, (1, np.shape(base["scores"])[1]))}
    for table in ("table", "matrix"):
        if table in base and REGISTRY[name].targets == ("matrix",):
            matrix = np.asarray(base[table])
            return {**base, table: matrix + matrix.T}  # rows and columns alike
    return None


IDENTICAL_CASES = [name for name in CONTRACT_CASES if _identical(name, _base(name))]
# Identical inputs refused by a documented rule, with its message.
REFUSED = {"bayesian_hierarchical_test": "no spread over the folds of any data set"}


def _no_winner(name, result, keywords, function, inputs):
    where = (name, keywords)
    if hasattr(result, "p_a_better"):
        assert result.p_a_better == result.p_b_better, where
        if getattr(result, "rope", 0) > 0:
            assert result.p_rope == 1.0, where
        return
    if hasattr(result, "pvalue_two_sided"):  # the one-versus-all McNemar tests
        np.testing.assert_array_equal(result.pvalue_two_sided, 1.0)
        np.testing.assert_array_equal(result.pvalue_less, result.pvalue_greater)
        return
    if type(result).__name__ == "FriedmanPosthocResult":
        tested = ~np.isnan(result.pvalue)
        np.testing.assert_array_equal(result.pvalue[tested], 1.0)
        assert not result.significant.any(), where
        return
    if getattr(result, "margin", None) is not None:  # a margin: no superiority shown (two
        # identical models are non-inferior by any margin, which is no winner)
        assert result.hypothesis == "non-inferiority" or result.verdict.startswith(
            "not shown superior"), where
        return
    if hasattr(result, "estimate"):
        assert result.estimate == 0.0, where
    alternative = keywords.get("alternative", getattr(result, "alternative", None))
    if alternative in (None, "two-sided"):
        assert result.pvalue == 1.0, where
    else:  # the other side gives the same p-value: neither is favoured
        other = {"less": "greater", "greater": "less"}[alternative]
        mirrored, _ = _run(function, {**inputs, **keywords, "alternative": other})
        assert result.pvalue == mirrored.pvalue >= 0.5, where


@pytest.mark.parametrize("name", IDENTICAL_CASES)
def test_identical_inputs_give_no_winner(name):
    function = getattr(sce, name)
    inputs = _identical(name, _base(name))
    accepted = 0
    for keywords in _calls(name):
        result, error = _run(function, {**inputs, **keywords})
        if error is not None:
            if name in REFUSED:
                assert REFUSED[name] in str(error), error
            continue
        accepted += 1
        _no_winner(name, result, keywords, function, inputs)
    assert accepted or name in REFUSED, name


def test_identical_inputs_cover_every_comparison():
    # the generator found each statistic of two models or of a table
    assert set(IDENTICAL_CASES) >= {
        "mcnemar_test", "stuart_maxwell_test", "bhapkar_test", "marginal_homogeneity_posthoc",
        "compare_scores", "compare_cv", "compare_cv_scores", "friedman_test",
        "friedman_posthoc", "bayesian_signed_rank_test", "bayesian_hierarchical_test"}


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("exact", [True, "mid-p", False])
def test_mcnemar_without_discordant_pairs_favours_no_side(exact, alternative):
    # identical classifiers: a diagonal table (no discordant pairs)
    result, error = _run(sce.mcnemar_test, {"table": [[5, 0], [0, 7]], "exact": exact,
                                            "alternative": alternative})
    if exact is False and alternative != "two-sided":
        assert "exact" in str(error)
        return
    assert result.statistic == 0.0
    assert result.pvalue == (0.5 if exact == "mid-p" and alternative != "two-sided" else 1.0)


# --- One base, one shape ----------------------------------------------------------------------

RESULT_TYPES = sorted(name for name in sce.__all__ if inspect.isclass(getattr(sce, name))
                      and dataclasses.is_dataclass(getattr(sce, name)))


def test_the_results_are_the_dataclasses_of_the_public_names():
    # the sweeps below are generated from __all__: they would pass on nothing found
    assert len(RESULT_TYPES) >= 15 and "McNemarResult" in RESULT_TYPES


@pytest.mark.parametrize("name", RESULT_TYPES)
def test_every_result_derives_from_the_one_base(name):
    from sklearn_confusion_ext._core.results import Result

    assert issubclass(getattr(sce, name), Result)


@pytest.mark.parametrize("name", RESULT_TYPES)
def test_every_field_is_documented_under_attributes(name):
    cls = getattr(sce, name)
    doc = inspect.getdoc(cls)
    assert "\nAttributes\n----------\n" in doc, f"{name} documents no Attributes"
    attributes = doc.split("\nAttributes\n----------\n", 1)[1]
    # numpydoc's "name : type" lines, several names sharing one ("low, high : float")
    documented = {name.strip() for line in attributes.splitlines()
                  if " : " in line and not line.startswith(" ")
                  for name in line.split(" : ")[0].split(",")}
    missing = [f.name for f in dataclasses.fields(cls)
               if not f.name.startswith("_") and f.name not in documented]
    assert not missing, f"{name} does not document {missing} under Attributes"


@pytest.mark.parametrize("name", RESULT_TYPES)
def test_a_result_holding_an_interval_gives_it_as_scipy_does(name):
    cls = getattr(sce, name)
    names = {f.name for f in dataclasses.fields(cls)}
    if not {"low", "high"} <= names:
        assert not {"lower", "upper", "low", "high"} & names, f"{name}: half an interval"
        return
    assert callable(getattr(cls, "confidence_interval", None)), name
    result = cls(**minimal_keywords(name))
    low, high = result.confidence_interval()
    assert low is result.low and high is result.high
