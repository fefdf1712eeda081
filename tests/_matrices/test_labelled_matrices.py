"""A labelled matrix (a DataFrame, as confusion_frame gives) names its classes in every
function that takes a matrix and names its rows, as named DataFrame targets do."""

import numpy as np
import pytest

import sklearn_confusion_ext as sce

pd = pytest.importorskip("pandas")

NAMES = ["cat", "dog", "owl"]
COUNTS = [[20, 1, 0], [2, 15, 3], [0, 4, 18]]


def _frame(index=NAMES, columns=NAMES):
    return pd.DataFrame(COUNTS, index=index, columns=columns)


NAMED = {
    "dirichlet_posterior": lambda m: list(sce.dirichlet_posterior(m).display_labels),
    "marginal_homogeneity_posthoc": lambda m: list(
        sce.marginal_homogeneity_posthoc(m).to_frame().index),
    "most_confused_pairs": lambda m: sorted({name for pair in sce.most_confused_pairs(m)
                                             for name in (pair.true, pair.predicted)}),
}


@pytest.mark.parametrize("function", sorted(NAMED))
@pytest.mark.parametrize("named_axes", ["both", "columns", "index"])
def test_a_frame_names_the_classes(function, named_axes):
    frame = _frame(index=NAMES if named_axes != "columns" else None,
                   columns=NAMES if named_axes != "index" else None)
    assert NAMED[function](frame) == NAMES
    # the same frame through confusion_frame, and the plain array keeps the positions
    assert NAMED[function](sce.confusion_frame(np.array(COUNTS), labels=NAMES)) == NAMES
    assert NAMED[function](np.array(COUNTS)) == [0, 1, 2]


@pytest.mark.parametrize("function", sorted(NAMED))
def test_display_labels_win_over_the_frame(function):
    assert NAMED[function](_frame()) == NAMES
    other = ["a", "b", "c"]
    name = {"dirichlet_posterior": sce.dirichlet_posterior,
            "marginal_homogeneity_posthoc": sce.marginal_homogeneity_posthoc,
            "most_confused_pairs": sce.most_confused_pairs}[function]
    result = name(_frame(), display_labels=other)
    got = (list(result.display_labels) if function == "dirichlet_posterior" else
           list(result.to_frame().index) if function == "marginal_homogeneity_posthoc" else
           sorted({n for pair in result for n in (pair.true, pair.predicted)}))
    assert got == other


@pytest.mark.parametrize("function", [sce.dirichlet_posterior, sce.marginal_homogeneity_posthoc,
                                      sce.most_confused_pairs, sce.stuart_maxwell_test,
                                      sce.bhapkar_test])
def test_axes_naming_other_classes_are_refused(function):
    with pytest.raises(ValueError, match="index and columns name different classes"):
        function(_frame(columns=["owl", "dog", "cat"]))


def test_displays_title_their_panels_by_the_frame():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    for display in (sce.PosteriorIntervalDisplay, sce.PosteriorSimplexDisplay):
        drawn = display.from_confusion(_frame())
        titles = [ax.get_title() for ax in np.ravel(drawn.axes_) if ax.get_title()]
        assert titles and all(any(name in title for name in NAMES) for title in titles)
        plt.close("all")


@pytest.mark.parametrize("labels", [["cat", "dog", "cat"], [1, "1", 2]])
def test_repeated_labels_are_refused_as_the_reports_refuse_them(labels):
    # a frame with two rows and two columns of one name was returned
    with pytest.raises(ValueError, match=r"^The frame's rows and columns are keyed by class "
                                         r"name, and labels repeat \[('cat'|'1')\]; pass labels "
                                         r"with distinct names\.$"):
        sce.confusion_frame(np.array(COUNTS), labels=labels)
    with pytest.raises(ValueError, match=r"labels name a class 'none', the name of the "
                                         r"matrix's extra row and column"):
        sce.confusion_frame(np.ones((4, 4)), labels=["cat", "none", "owl"])
