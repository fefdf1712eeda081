"""Grouped (cluster) resampling (``groups=``) of the intervals and the paired comparisons,
and the progress of long resampling calls (``verbose=``)."""

import sys

import numpy as np
import pytest

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._cli import _progress

RNG = np.random.default_rng(0)
Y_TRUE = RNG.integers(0, 3, 60)
Y_PRED = np.where(RNG.random(60) < 0.7, Y_TRUE, RNG.integers(0, 3, 60))
Y_OTHER = np.where(RNG.random(60) < 0.6, Y_TRUE, RNG.integers(0, 3, 60))
PROBABILITIES = RNG.dirichlet(np.ones(3), 60)
INDICATOR = (RNG.random((60, 4)) < 0.4).astype(int)
INDICATOR_PRED = np.where(RNG.random((60, 4)) < 0.2, 1 - INDICATOR, INDICATOR)
INDICATOR_OTHER = np.where(RNG.random((60, 4)) < 0.3, 1 - INDICATOR, INDICATOR)
GROUPS = np.repeat(np.arange(12), 5)

TARGETS = {"labels": (Y_TRUE, Y_PRED, Y_OTHER),
           "probabilities": (Y_TRUE, PROBABILITIES, PROBABILITIES[::-1]),
           "indicators": (INDICATOR, INDICATOR_PRED, INDICATOR_OTHER)}


def _repeat(y, times):
    return np.repeat(np.asarray(y), times, axis=0)


# --- Errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("groups, message", [
    (np.arange(59), "one group id per instance, 60"),
    (np.zeros((60, 2)), "one group id per instance"),
    (np.zeros(60), "holds 1 group"),
    (np.where(np.arange(60) == 7, np.nan, GROUPS), r"missing ids .* rows \[7\]"),
    (np.array([None] + ["a"] * 59, dtype=object), r"missing ids .* rows \[0\]"),
])
@pytest.mark.parametrize("call", ["interval", "comparison"])
def test_bad_groups_are_refused_naming_them(groups, message, call):
    with pytest.raises(ValueError, match=message):
        if call == "interval":
            sce.score_confidence_interval(Y_TRUE, Y_PRED, groups=groups, n_resamples=10)
        else:
            sce.compare_scores(Y_TRUE, Y_PRED, Y_OTHER, groups=groups, n_resamples=10)


def test_methods_of_independent_instances_refuse_groups():
    with pytest.raises(ValueError, match="analytic.*groups"):
        sce.score_confidence_interval(Y_TRUE, Y_PRED, scoring="tcm_accuracy", method="analytic",
                                      groups=GROUPS)
    for method in ("mcnemar", "mcnemar-mid-p"):
        with pytest.raises(ValueError, match="groups"):
            sce.compare_scores(Y_TRUE, Y_PRED, Y_OTHER, method=method, groups=GROUPS)


# --- Groups resampled as units -------------------------------------------------------------


@pytest.mark.parametrize("method", ["percentile", "bca", "bayesian"])
@pytest.mark.parametrize("targets", sorted(TARGETS))
def test_copies_in_one_group_resample_as_the_one_instance(targets, method):
    """Each instance copied three times into its own group: the groups are drawn (weighed,
    left out) as the instances of the original data with groups of one, so every
    resampled score is the same, on every kind of target."""
    y_true, y_pred, _ = TARGETS[targets]
    singles = np.arange(len(y_true))
    original = sce.score_confidence_interval(y_true, y_pred, method=method, n_resamples=200,
                                             random_state=3, groups=singles)
    copied = sce.score_confidence_interval(_repeat(y_true, 3), _repeat(y_pred, 3),
                                           method=method, n_resamples=200, random_state=3,
                                           groups=_repeat(singles, 3))
    np.testing.assert_allclose(copied.distribution, original.distribution, atol=1e-12)
    assert (copied.low, copied.high) == pytest.approx((original.low, original.high),
                                                      abs=1e-12)


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian"])
@pytest.mark.parametrize("targets", sorted(TARGETS))
def test_copies_in_one_group_compare_as_the_one_instance(targets, method):
    """The same for the paired comparisons: a permutation swaps the two predictions of a
    whole group."""
    y_true, a, b = TARGETS[targets]
    singles = np.arange(len(y_true))
    original = sce.compare_scores(y_true, a, b, method=method, n_resamples=300,
                                  random_state=5, groups=singles)
    copied = sce.compare_scores(_repeat(y_true, 3), _repeat(a, 3), _repeat(b, 3),
                                method=method, n_resamples=300, random_state=5,
                                groups=_repeat(singles, 3))
    np.testing.assert_allclose(copied.distribution, original.distribution, atol=1e-12)
    assert copied.pvalue == pytest.approx(original.pvalue, abs=1e-12)


def test_groups_of_one_instance_resample_as_the_instances():
    """Groups of one instance each are the instance bootstrap itself (the same draws where
    the instances are resampled through their weights)."""
    plain = sce.score_confidence_interval(INDICATOR, INDICATOR_PRED, method="bca",
                                          n_resamples=200, random_state=1)
    singles = sce.score_confidence_interval(INDICATOR, INDICATOR_PRED, method="bca",
                                            n_resamples=200, random_state=1,
                                            groups=np.arange(60))
    np.testing.assert_allclose(singles.distribution, plain.distribution, atol=1e-12)
    assert (singles.low, singles.high) == pytest.approx((plain.low, plain.high), abs=1e-12)


def test_a_group_is_drawn_whole():
    """Two groups, each of instances alike: a resample holds whole groups only, so the
    accuracy of a resample is that of one group, of the other, or of both."""
    y_true = np.zeros(40, dtype=int)
    y_pred = np.r_[np.zeros(20, dtype=int), np.ones(20, dtype=int)]
    groups = np.r_[["site a"] * 20, ["site b"] * 20]
    result = sce.score_confidence_interval(y_true, y_pred, scoring="tcm_accuracy",
                                           method="percentile", n_resamples=300,
                                           random_state=0, groups=groups)
    assert set(np.round(result.distribution, 12)) == {0.0, 0.5, 1.0}


def test_exact_permutation_enumerates_the_groups():
    """2 ** n_groups <= n_resamples: every subset of swapped groups once."""
    result = sce.compare_scores(Y_TRUE, Y_PRED, Y_OTHER, scoring="tcm_accuracy",
                                method="permutation", n_resamples=5000, random_state=0,
                                groups=GROUPS)
    assert result.distribution.shape == (2 ** 12,)
    # swapping every group is the opposite difference of swapping none
    np.testing.assert_allclose(np.sort(result.distribution), np.sort(-result.distribution),
                               atol=1e-12)


def _clustered(rng, n_groups=40, size=15, accuracy=0.8):
    """Binary labels whose predictions are right with a probability drawn per group
    (Beta(2, 0.5), mean 0.8): instances of one group are strongly correlated."""
    rates = rng.beta(2 * accuracy / 0.8, 0.5, n_groups)
    groups = np.repeat(np.arange(n_groups), size)
    y_true = rng.integers(0, 2, n_groups * size)
    right = rng.random(n_groups * size) < rates[groups]
    return y_true, np.where(right, y_true, 1 - y_true), groups


@pytest.mark.slow
def test_grouped_bootstrap_covers_where_the_instance_bootstrap_does_not():
    """Correlated instances (60 groups of 10, accuracy 0.8 on average, a rate per group):
    the instance bootstrap's 95 % intervals are far too narrow; the groups' cover near
    the nominal level (measured: instances 0.69, groups 0.955, of 200 data sets)."""
    rng = np.random.default_rng(12)
    hits = {"instances": 0, "groups": 0}
    n_data_sets = 200
    for seed in range(n_data_sets):
        y_true, y_pred, groups = _clustered(rng, n_groups=60, size=10)
        for name, given in (("instances", None), ("groups", groups)):
            result = sce.score_confidence_interval(y_true, y_pred, scoring="tcm_accuracy",
                                                   method="percentile", n_resamples=299,
                                                   random_state=seed, groups=given)
            hits[name] += result.low <= 0.8 <= result.high
    covered = {name: count / n_data_sets for name, count in hits.items()}
    assert covered["instances"] < 0.8, covered
    assert 0.91 <= covered["groups"] <= 0.98, covered


# --- Progress ------------------------------------------------------------------------------


def test_progress_is_printed_on_stderr_at_verbose_2(capsys):
    sce.score_confidence_interval(INDICATOR, INDICATOR_PRED, n_resamples=300, random_state=0,
                                  method="percentile", verbose=2)
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[-2].startswith("score_confidence_interval: resample 300/300, ")
    assert "s elapsed, ~0 s left" in lines[-2]
    assert lines[-1].startswith("score_confidence_interval: 300 resamples in ")


def test_comparison_progress_counts_the_swaps(capsys):
    """The permutation method draws its swaps only (its interval comes from them): the
    progress counts them, not a bootstrap beside them."""
    sce.compare_scores(INDICATOR, INDICATOR_PRED, INDICATOR_OTHER, method="permutation",
                       n_resamples=100, random_state=0, verbose=3)
    lines = capsys.readouterr().err.splitlines()
    assert lines[-2].startswith("compare_scores: swap 100/100")
    assert lines[-1].startswith("compare_scores: 100 swaps in ")


@pytest.mark.parametrize("report", [sce.transport_classification_report,
                                    sce.mlcm_classification_report])
def test_report_intervals_show_progress(report, capsys):
    report(INDICATOR, INDICATOR_PRED, confidence_level=0.9, random_state=0, verbose=2)
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith("classification report intervals: 999 resamples in ")


@pytest.mark.parametrize("verbose", [0, 1])
def test_quick_calls_print_nothing(verbose, capsys):
    """verbose=1 prints only where the resampling takes more than a few seconds."""
    sce.score_confidence_interval(Y_TRUE, Y_PRED, n_resamples=200, random_state=0,
                                  verbose=verbose)
    sce.compare_scores(Y_TRUE, Y_PRED, Y_OTHER, n_resamples=200, random_state=0,
                       verbose=verbose)
    assert capsys.readouterr().err == ""


def test_verbose_one_reports_a_slow_resampling(capsys, monkeypatch):
    """A resampling that takes seconds: lines with the time left, then the total."""
    from sklearn_confusion_ext._core import resampling

    clock = iter(np.arange(0.0, 10000.0, 5.0))
    monkeypatch.setattr(resampling.time, "perf_counter", lambda: next(clock))
    sce.score_confidence_interval(INDICATOR, INDICATOR_PRED, n_resamples=300, random_state=0,
                                  method="percentile", verbose=1)
    lines = capsys.readouterr().err.splitlines()
    assert lines and lines[-1].startswith("score_confidence_interval: 300 resamples in ")
    assert all("elapsed" in line for line in lines[:-1])


def test_verbose_is_checked():
    with pytest.raises(ValueError, match="verbose"):
        sce.score_confidence_interval(Y_TRUE, Y_PRED, verbose=-1)


def test_cli_shows_progress_on_a_terminal_only(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert _progress() == 1
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert _progress() == 0


# --- The resampling weights themselves ----------------------------------------------------


@pytest.mark.parametrize("n_values", [2, 7, 60])
def test_bayesian_bootstrap_weights_are_flat_dirichlet_scaled_to_the_count(n_values):
    """Rubin's Bayesian bootstrap: the weights of the n instances (or groups) are n times a
    flat Dirichlet draw, so each row sums to n (not 1: a matrix of the weighted instances
    holds n of them, as a bootstrap resample does) and each weight / n is Beta(1, n - 1)
    (scipy.stats.kstest over every drawn weight). The bootstrap's counts of draws sum to
    n and each is Binomial(n, 1/n)."""
    from scipy import stats

    from sklearn_confusion_ext._core.resampling import group_weights, instance_weights

    n_resamples = 4000
    weights = np.concatenate(list(instance_weights(np.random.default_rng(1), n_values,
                                                   n_resamples, True)))
    assert weights.shape == (n_resamples, n_values) and (weights > 0).all()
    np.testing.assert_allclose(weights.sum(axis=1), n_values, rtol=1e-12)
    assert stats.kstest(weights.ravel() / n_values, stats.beta(1, n_values - 1).cdf,
                        ).pvalue > 1e-3
    counts = np.concatenate(list(instance_weights(np.random.default_rng(1), n_values,
                                                  n_resamples, False)))
    np.testing.assert_array_equal(counts.sum(axis=1), n_values)
    assert (counts == np.round(counts)).all()
    expected = stats.binom(n_values, 1 / n_values)
    np.testing.assert_allclose(counts.mean(), expected.mean(), atol=4 * np.sqrt(
        expected.var() / counts.size))
    # Whole groups (here 4 groups of 3 instances and 1 of 2): each group's instances share
    # its weight, and the groups' weights sum to the number of groups.
    codes = np.repeat(np.arange(5), [3, 3, 3, 3, 2])
    for bayesian in (True, False):
        drawn = np.concatenate(list(group_weights(np.random.default_rng(2), (codes, 5), 500,
                                                  bayesian)))
        assert drawn.shape == (500, codes.size)
        first = drawn[:, [0, 3, 6, 9, 12]]
        np.testing.assert_array_equal(drawn, first[:, codes])
        np.testing.assert_allclose(first.sum(axis=1), 5, rtol=1e-12)
