"""Displays refuse inconsistent data at construction, before anything is drawn, with a
ValueError that names the argument, what was found and what is expected.

The generated sweep over every Display's data (NaN, infinite, negative, empty, reversed
intervals) is ``test_display_constructors_refuse_invalid_data_naming_the_argument`` in
``registry/test_display_data.py``; these are the cases it does not generate, each of which was drawn
silently or failed with NumPy's or Python's message.
"""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sklearn_confusion_ext as sce  # noqa: E402


@pytest.fixture(autouse=True)
def no_figure_is_left():
    plt.close("all")
    yield
    assert not plt.get_fignums(), "a refused Display drew a figure"


@pytest.mark.parametrize("display", ["TransportConfusionMatrixDisplay", "MLCMDisplay"])
@pytest.mark.parametrize("labels", [None, ["a", "b"]])
def test_a_matrix_that_is_not_square_needs_its_column_names(display, labels):
    # It was drawn, its columns named by the rows' names or by indices.
    with pytest.raises(ValueError, match=r"^confusion_matrix must be square \(one row and one "
                                         r"column per class\); got shape \(2, 3\)\..*"
                                         r"column_labels naming its 3 columns"):
        getattr(sce, display)([[1, 2, 3], [4, 5, 6]], display_labels=labels)
    # A square matrix whose columns are ordered apart is drawn as before.
    drawn = getattr(sce, display)([[1, 2], [3, 4]], display_labels=["a", "b"],
                                  column_labels=["b", "a"]).plot(colorbar=False)
    assert [t.get_text() for t in drawn.ax_.get_xticklabels()] == ["b", "a"]
    plt.close("all")


def test_an_empty_group_of_the_critical_difference_diagram_is_named():
    # It failed when drawn: "zero-size array to reduction operation minimum which has no
    # identity".
    with pytest.raises(ValueError, match=r"^groups\[1\] is empty"):
        sce.CriticalDifferenceDisplay([1.5, 2.5, 2.0], models=["x", "y", "z"],
                                      groups=[("x", "z"), ()])


@pytest.mark.parametrize("alpha, message", [
    ([[38.0, 0.0, 16.0]], r"^alpha must hold positive Dirichlet parameters; got 0 at \(0, 1\)"),
    ([[38.0, 2.0, 16.0], [1.0, 2.0, -0.5]],
     r"^alpha must hold positive Dirichlet parameters; got -0\.5 at \(1, 2\)"),
    ([[38.0, np.nan, 16.0]], r"^alpha must hold finite Dirichlet parameters; got nan at "
                             r"\(0, 1\)"),
    ([[38.0, np.inf, 16.0]], r"^alpha must hold finite Dirichlet parameters; got inf"),
    # "zero-size array to reduction operation minimum which has no identity"
    (np.empty((0, 3)), r"^alpha is empty \(shape \(0, 3\)\)"),
    # NumPy's "could not convert string to float: 'a'"
    ([["a", "b", "c"]], r"^alpha must be an array of numbers \(Dirichlet parameters\); got "
                        r"\[\['a', 'b', 'c'\]\]"),
    ([[1.0, 2.0]], r"^alpha must hold the three Dirichlet parameters of each panel, shape "
                   r"\(n_panels, 3\); got shape \(1, 2\)"),
])
def test_simplex_parameters_are_refused_saying_what_and_where(alpha, message):
    # "alpha must hold finite positive Dirichlet parameters." said neither the value nor
    # where it was.
    with pytest.raises(ValueError, match=message):
        sce.PosteriorSimplexDisplay(alpha)


def test_every_display_refuses_before_drawing_and_never_with_an_internal_message():
    """Each Display's data of one wrong kind, one Display at a time: the error names an
    argument of the constructor (never NumPy's or Python's words) and no figure is made."""
    internal = ("zero-size array", "max() arg", "could not convert", "inhomogeneous",
                "has no identity", "setting an array element")
    cases = [
        ("TransportConfusionMatrixDisplay", {"confusion_matrix": [[1.0, 2.0, 3.0]]}),
        ("TransportConfusionMatrixDisplay", {"confusion_matrix": [[1.0, 2.0], [3.0]]}),
        ("MLCMDisplay", {"confusion_matrix": np.empty((0, 0))}),
        ("PosteriorIntervalDisplay", {"mean": [[0.5, 0.5]], "low": [[0.4, 0.4]],
                                      "high": [[0.6, 0.6]]}),
        ("PosteriorSimplexDisplay", {"alpha": []}),
        ("ScoreIntervalDisplay", {"estimates": [0.5], "low": [0.7], "high": [0.6]}),
        ("SubgroupIntervalDisplay", {"estimates": [0.5, 0.6], "low": [0.4, 0.5],
                                     "high": [0.6, 0.7], "significant": [True]}),
        ("RankingComparisonDisplay", {"f1_a": [], "f1_b": []}),
        ("ClassDistributionDisplay", {"test_prevalence": [[0.5, 0.5]]}),
        ("PosteriorDifferenceDisplay", {"mean": [], "scale": 0.1, "df": 3}),
        ("CriticalDifferenceDisplay", {"average_ranks": [1.0, 2.0], "groups": [[]]}),
        ("ComparisonSimplexDisplay", {"samples": [[0.5, 0.5]]}),
        ("ReliabilityDisplay", {"prob_true": [0.5, 0.7], "prob_pred": [0.5]}),
        ("RiskCoverageDisplay", {"coverage": [1.0, 0.5], "risk": [0.1, 0.2]}),
        ("ThresholdCurveDisplay", {"thresholds": [0.5], "matrices": [[1.0, 2.0]]}),
    ]
    assert {name for name, _ in cases} == {name for name in sce.__all__
                                           if name.endswith("Display")}
    for name, data in cases:
        with pytest.raises(ValueError) as error:
            getattr(sce, name)(**data)
        message = str(error.value)
        assert any(message.startswith(argument) or f"{argument} " in message
                   for argument in data), (name, message)
        assert not any(words in message for words in internal), (name, message)
