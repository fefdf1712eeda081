"""Every Display refuses invalid data at construction, naming the argument: generated over
every public Display class, its constructor data (``DISPLAY_DATA``) corrupted one way at a
time. The cases the sweep does not generate are in ``_plot/test_plot_data_checks.py``."""

import numpy as np
import pytest

import sklearn_confusion_ext as sce

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
        data={"mean": [[0.7, 0.3], [0.2, 0.8]], "low": [[0.5, 0.1], [0.05, 0.6]],
              "high": [[0.9, 0.5], [0.4, 0.95]]},
        square=("mean", "low", "high"), non_negative=("mean", "low", "high"),
        interval=("low", "high")),
    "PosteriorSimplexDisplay": dict(data={"alpha": [[38.0, 2.0, 16.0]]},
                                    non_negative=("alpha",)),
    "ScoreIntervalDisplay": dict(
        data={"estimates": [[0.9, 0.6]], "low": [[0.8, 0.4]], "high": [[0.95, 0.75]]},
        interval=("low", "high")),
    "SubgroupIntervalDisplay": dict(
        data={"estimates": [0.9, 0.6], "low": [0.8, 0.4], "high": [0.95, 0.75]},
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
    "ReliabilityDisplay": dict(
        data={"prob_true": [0.1, 0.6, 0.9], "prob_pred": [0.2, 0.5, 0.8],
              "low": [0.0, 0.3, 0.6], "high": [0.4, 0.8, 1.0], "bin_count": [4.0, 3.0, 5.0]},
        non_negative=("prob_true", "prob_pred", "low", "high", "bin_count"),
        interval=("low", "high")),
    "RiskCoverageDisplay": dict(
        data={"coverage": [0.5, 1.0], "risk": [0.0, 0.25], "low": [0.0, 0.05],
              "high": [0.6, 0.7]},
        non_negative=("coverage", "risk", "low", "high"), interval=("low", "high")),
    "ThresholdCurveDisplay": dict(
        data={"thresholds": [0.8, 0.4], "matrices": [[[3.0, 0.0], [2.0, 1.0]],
                                                     [[2.0, 1.0], [1.0, 2.0]]]},
        non_negative=("matrices",)),
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
