"""Statistics that need counts, generated over the registry: every public statistic of a
count matrix (the table tests and the posteriors) warns on or refuses a matrix that is not
counts. The Displays' sweep of invalid data is in ``test_display_data.py``.
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
    argument = "table" if name == "mcnemar_test" else "matrix"
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
