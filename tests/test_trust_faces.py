"""Trust at the faces of the library (issue 24): statistics that need counts, Displays that
need valid data, the command line on pipes and hostile names.

Generated over the registry where the issue asks: every statistic of a count matrix, every
Display class.
"""

import inspect
import warnings

import numpy as np
import pytest
from declarations import DECLARATIONS
from test_common import REGISTRY

import sklearn_confusion_ext as sce

IBD = np.array([[37, 1, 15], [6, 19, 26], [15, 3, 77]], dtype=float)
PAIR = np.array([[65, 10], [50, 309]], dtype=float)

# Every public statistic of a count matrix: the registered functions of the statistics and
# posterior modules that take a matrix.
COUNT_STATISTICS = sorted(
    name for name, entry in REGISTRY.items()
    if entry.targets == ("matrix",) and inspect.isfunction(getattr(sce, name))
    and getattr(sce, name).__module__ in ("sklearn_confusion_ext._statistics.table_tests",
                                          "sklearn_confusion_ext._statistics.posterior"))


def _call(name, matrix, **kwargs):
    function = getattr(sce, name)
    argument = "table" if name == "mcnemar_test" else "confusion"
    if name == "mcnemar_test":
        kwargs.setdefault("exact", False)  # the exact test refuses non-integers anyway
    return function(**{argument: matrix}, **kwargs)


def _counts(name):
    return PAIR if name == "mcnemar_test" else IBD


def _not_counts(name):
    """Matrices that are not counts: row-, column- and all-normalized, and probability-based
    pseudo-counts (most cells fractional)."""
    counts = _counts(name)
    pseudo = counts + np.linspace(0.13, 0.87, counts.size).reshape(counts.shape)
    return {"normalize=true": counts / counts.sum(axis=1, keepdims=True),
            "normalize=pred": counts / counts.sum(axis=0, keepdims=True),
            "normalize=all": counts / counts.sum(),
            "pseudo-counts": pseudo}


def test_count_statistics_are_found():
    assert set(COUNT_STATISTICS) == {"mcnemar_test", "stuart_maxwell_test", "bhapkar_test",
                                     "marginal_homogeneity_posthoc", "dirichlet_posterior"}


@pytest.mark.parametrize("name", COUNT_STATISTICS)
def test_count_statistics_warn_or_refuse_what_is_not_counts(name):
    """A chi-square test or a Dirichlet-multinomial posterior of proportions reads a sample
    size the data do not have (Stuart-Maxwell of a row-normalized IBD gives p = 0.998 where
    the counts give 1.9e-5): every such statistic warns, or refuses with
    allow_fractional=False; the exact tests refuse any non-integer matrix."""
    takes_option = "allow_fractional" in DECLARATIONS[name]
    for how, matrix in _not_counts(name).items():
        if not takes_option:  # exact binomial tests: integers only, whatever the option
            with pytest.raises(ValueError, match="fractional counts"):
                _call(name, matrix)
            continue
        with pytest.warns(UserWarning, match="does not look like a matrix of counts") as record:
            _call(name, matrix)
        assert "allow_fractional=True" in str(record[0].message), how
        with pytest.raises(ValueError, match="allow_fractional=False"):
            _call(name, matrix, allow_fractional=False)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _call(name, matrix, allow_fractional=True)


@pytest.mark.parametrize("name", COUNT_STATISTICS)
def test_count_statistics_say_nothing_about_counts(name):
    """Counts, integer-valued weights and a few fractional cells (a TCM with a handful of
    soft rows) pass silently, and allow_fractional does not change the result."""
    counts = _counts(name)
    identity = np.eye(len(counts)) + 1  # whole numbers whose rows do not sum to 1
    few = counts.copy()
    few[0, 0] += 0.5
    for matrix in (counts, identity, few):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.filterwarnings("ignore", message=".*(no information|no misclass).*")
            if name == "marginal_homogeneity_posthoc" and matrix is few:
                continue
            first = _call(name, matrix)
            if "allow_fractional" in DECLARATIONS[name]:
                second = _call(name, matrix, allow_fractional=False)
                assert repr(first) == repr(second)


def test_posterior_update_warns_on_proportions():
    posterior = sce.dirichlet_posterior(IBD, prior=1.0)
    with pytest.warns(UserWarning, match="does not look like a matrix of counts"):
        posterior.update(IBD / IBD.sum())
    with pytest.raises(ValueError, match="allow_fractional=False"):
        posterior.update(IBD / IBD.sum(), allow_fractional=False)
    updated = posterior.update(IBD / IBD.sum(), allow_fractional=True)
    np.testing.assert_allclose(updated.alpha, IBD + 1 + IBD / IBD.sum())


def test_stuart_maxwell_of_proportions_is_the_issue_number():
    """The row-normalized IBD matrix reads as no evidence (p = 0.77) where its counts give
    p = 1.86e-5."""
    with pytest.warns(UserWarning, match="every non-empty row sums to 1"):
        result = sce.stuart_maxwell_test(IBD / IBD.sum(axis=1, keepdims=True))
    assert result.pvalue == pytest.approx(0.7679454502394865)
    assert sce.stuart_maxwell_test(IBD).pvalue == pytest.approx(1.861281620078911e-05)


# --- Displays: every constructor checks its data, naming the argument ---------------------

DISPLAYS = sorted(name for name in sce.__all__ if name.endswith("Display"))

# One valid construction of each Display: its data arguments (corrupted one by one below),
# which of them must be square, non-negative, and its interval bounds (low, high).
DISPLAY_DATA = {
    "TransportConfusionMatrixDisplay": dict(
        data={"confusion_matrix": [[5.0, 1.0], [2.0, 7.0]],
              "half_width": [[0.5, 0.2], [0.1, 0.3]]},
        square=("confusion_matrix",), non_negative=("confusion_matrix", "half_width")),
    "MLCMDisplay": dict(data={"confusion_matrix": [[5.0, 1.0, 0.0], [2.0, 7.0, 1.0],
                                                   [0.0, 1.0, 0.0]]},
                        square=("confusion_matrix",), non_negative=("confusion_matrix",)),
    "PosteriorIntervalDisplay": dict(
        data={"mean": [[0.7, 0.3], [0.2, 0.8]], "lower": [[0.5, 0.1], [0.05, 0.6]],
              "upper": [[0.9, 0.5], [0.4, 0.95]]},
        square=("mean", "lower", "upper"), non_negative=("mean", "lower", "upper"),
        interval=("lower", "upper")),
    "PosteriorSimplexDisplay": dict(data={"alpha": [[38.0, 2.0, 16.0]]},
                                    non_negative=("alpha",)),
    "ScoreIntervalDisplay": dict(
        data={"estimates": [[0.9, 0.6]], "low": [[0.8, 0.4]], "high": [[0.95, 0.75]]},
        interval=("low", "high")),
    "RankingComparisonDisplay": dict(data={"f1_a": [0.9, 0.5, 0.7], "f1_b": [0.8, 0.6, 0.7]},
                                     non_negative=("f1_a", "f1_b")),
    "ClassDistributionDisplay": dict(
        data={"test_prevalence": [0.5, 0.3, 0.2], "training_prevalence": [0.4, 0.4, 0.2]},
        non_negative=("test_prevalence", "training_prevalence")),
    "PosteriorDifferenceDisplay": dict(data={"mean": [0.02], "scale": [0.01], "df": [9.0]},
                                       non_negative=("scale", "df")),
    "CriticalDifferenceDisplay": dict(data={"average_ranks": [1.5, 2.25, 2.25]}),
    "ComparisonSimplexDisplay": dict(
        data={"samples": [[0.6, 0.0, 0.4], [0.3, 0.0, 0.7]], "probabilities": [0.5, 0.0, 0.5]},
        non_negative=("samples", "probabilities")),
}


def test_every_display_is_described():
    assert set(DISPLAYS) == set(DISPLAY_DATA)


def _corruptions(spec):
    """(argument, corrupted data, what the message must say) for a Display's data."""
    data = {name: np.array(value, dtype=float) for name, value in spec["data"].items()}
    for name, value in data.items():
        with_nan = value.copy()
        with_nan.flat[-1] = np.nan
        yield name, {**data, name: with_nan}, "finite|NaN (undefined) at the same places"
        with_inf = value.copy()
        with_inf.flat[0] = np.inf
        yield name, {**data, name: with_inf}, "finite"
        empty = np.empty((0,) * value.ndim)
        yield name, {**data, name: empty}, "empty|shape"
        if name in spec.get("non_negative", ()):
            negative = value.copy()
            negative.flat[0] = -0.25
            yield name, {**data, name: negative}, "at least 0|positive|non-negative"
        if name in spec.get("square", ()):
            yield name, {**data, name: value[:1]}, "square|same shape"
    if "interval" in spec:
        low, high = spec["interval"]
        yield low, {**data, low: data[high], high: data[low]}, f"{low} must not exceed {high}"


@pytest.mark.parametrize("name", DISPLAYS)
def test_display_constructors_refuse_invalid_data_naming_the_argument(name):
    """NaN, infinite, negative, empty, non-square data and reversed intervals: a ValueError
    that names the argument, at construction (they were drawn silently, or failed with
    "max() arg is an empty sequence" when drawn)."""
    spec = DISPLAY_DATA[name]
    cls = getattr(sce, name)
    cls(**{key: np.array(value) for key, value in spec["data"].items()})  # the valid one
    cases = list(_corruptions(spec))
    assert cases
    for argument, data, says in cases:
        with pytest.raises(ValueError, match=rf"{argument}") as error:
            cls(**data)
        assert any(word in str(error.value) for word in says.split("|")), (
            argument, str(error.value))
