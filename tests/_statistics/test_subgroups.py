"""score_by_subgroup, SubgroupResult and SubgroupIntervalDisplay.

Oracles: scikit-learn's ``confusion_matrix`` and metrics on each subgroup and on its rest
(the matrices, scores and differences), fairlearn's ``MetricFrame`` (``by_group``) where
installed, the library's own Holm correction, and a small simulation of the test's
level (the full tables are benchmarks/coverage_subgroups.py's, in the user guide).
"""

import tracemalloc
import warnings

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, confusion_matrix, f1_score

from sklearn_confusion_ext import (
    SubgroupIntervalDisplay,
    SubgroupResult,
    config_context,
    score_by_subgroup,
)
from sklearn_confusion_ext._statistics.table_tests import _correct
from sklearn_confusion_ext.exceptions import DegenerateIntervalWarning


def _data(n=300, n_groups=3, seed=0, accuracies=None):
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, n_groups, n)
    y_true = rng.integers(0, 3, n)
    accuracies = np.full(n_groups, 0.8) if accuracies is None else np.asarray(accuracies)
    right = rng.random(n) < accuracies[groups]
    y_pred = np.where(right, y_true, (y_true + rng.integers(1, 3, n)) % 3)
    return y_true, y_pred, np.array(["abc"[g] if n_groups <= 3 else g for g in groups])


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.mark.parametrize("scoring, metric", [
    ("accuracy", accuracy_score),
    ("balanced_accuracy", balanced_accuracy_score),
    ("f1_macro", lambda t, p: f1_score(t, p, average="macro", labels=[0, 1, 2])),
])
def test_scores_matrices_and_differences_equal_sklearn_on_each_part(scoring, metric):
    y_true, y_pred, groups = _data()
    result = score_by_subgroup(y_true, y_pred, subgroups=groups, scoring=scoring,
                               n_resamples=99, random_state=0)
    assert result.subgroups == ("a", "b", "c")
    assert result.overall == pytest.approx(metric(y_true, y_pred), abs=1e-12)
    for g, name in enumerate(result.subgroups):
        own, rest = groups == name, groups != name
        np.testing.assert_array_equal(result.confusion_matrices[g],
                                      confusion_matrix(y_true[own], y_pred[own],
                                                       labels=[0, 1, 2]))
        assert result.size[g] == own.sum()
        assert result.estimate[g] == pytest.approx(metric(y_true[own], y_pred[own]),
                                                   abs=1e-12)
        assert result.difference[g] == pytest.approx(
            metric(y_true[own], y_pred[own]) - metric(y_true[rest], y_pred[rest]), abs=1e-12)
        assert result.low[g] <= result.estimate[g] <= result.high[g]
        assert result.difference_low[g] <= result.difference[g] <= result.difference_high[g]
    assert result.display_labels.tolist() == [0, 1, 2]


def test_fairlearn_metric_frame_by_group():
    metrics = pytest.importorskip("fairlearn.metrics")
    y_true, y_pred, groups = _data(seed=3)
    frame = metrics.MetricFrame(metrics={"accuracy": accuracy_score,
                                         "balanced": balanced_accuracy_score},
                                y_true=y_true, y_pred=y_pred, sensitive_features=groups)
    for scoring, column in (("accuracy", "accuracy"), ("balanced_accuracy", "balanced")):
        result = score_by_subgroup(y_true, y_pred, subgroups=groups, scoring=scoring,
                                   n_resamples=99, random_state=0)
        expected = frame.by_group[column]
        np.testing.assert_allclose(result.estimate,
                                   [expected[name] for name in result.subgroups], atol=1e-12)
        assert result.overall == pytest.approx(frame.overall[column], abs=1e-12)


def test_instance_order_and_label_types_do_not_matter():
    y_true, y_pred, groups = _data(seed=1)
    result = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=99,
                               random_state=0)
    order = np.random.default_rng(5).permutation(len(y_true))
    permuted = score_by_subgroup(y_true[order], y_pred[order], subgroups=groups[order],
                                 n_resamples=99, random_state=0)
    np.testing.assert_array_equal(result.confusion_matrices, permuted.confusion_matrices)
    np.testing.assert_allclose(result.estimate, permuted.estimate)
    codes = score_by_subgroup(y_true, y_pred, subgroups=np.searchsorted(["a", "b", "c"],
                                                                        groups),
                              n_resamples=99, random_state=0)
    np.testing.assert_allclose(codes.estimate, result.estimate)
    assert codes.subgroups == (0, 1, 2)


def test_random_state_reproduces_whatever_the_budget():
    y_true, y_pred, groups = _data(seed=2)
    one = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=5000,
                            random_state=7)
    with config_context(max_matrix_mib=1):  # blocks of 3640 resamples (288 bytes each)
        other = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=5000,
                                  random_state=7)
    for name in ("low", "high", "difference_low", "pvalue"):
        np.testing.assert_array_equal(getattr(one, name), getattr(other, name))


def test_corrections_are_cochran_q_tests():
    y_true, y_pred, groups = _data(n=1000, n_groups=5, seed=4,
                                   accuracies=[0.6, 0.8, 0.8, 0.8, 0.95])
    results = {method: score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=199,
                                         correction=method, random_state=0)
               for method in ("holm", "bonferroni", "fdr_bh", None)}
    raw = results[None].pvalue
    for method, result in results.items():
        np.testing.assert_array_equal(result.pvalue, raw)
        np.testing.assert_allclose(result.pvalue_corrected, _correct(raw, method))
        np.testing.assert_array_equal(result.significant, result.pvalue_corrected < 0.05)
    assert results["holm"].significant[[0, 4]].all()  # 0.6 and 0.95 against about 0.8


def test_level_of_the_corrected_test_small_simulation():
    """Every subgroup alike: Holm's family-wise error stays near 5 % (a bootstrap test
    of a one-instance subgroup would reject nearly always)."""
    rng = np.random.default_rng(11)
    groups = np.repeat([0, 1, 2, 3], [1, 10, 40, 100])
    rejections = 0
    for r in range(120):
        y_true = rng.integers(0, 2, len(groups))
        y_pred = np.where(rng.random(len(groups)) < 0.8, y_true, 1 - y_true)
        result = _quiet(score_by_subgroup, y_true, y_pred, subgroups=groups,
                        n_resamples=99, random_state=r)
        rejections += bool(result.significant.any())
    assert rejections / 120 <= 0.12


def test_one_member_subgroup_is_honest():
    y_true, y_pred, groups = _data(seed=5)
    groups = groups.astype(object)
    y_pred[0] = (y_true[0] + 1) % 3  # the lone member is wrong
    groups[0] = "alone"
    with pytest.warns(DegenerateIntervalWarning, match="score_by_subgroup"):
        result = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=199,
                                   min_difference=0.2, random_state=0)
    g = result.subgroups.index("alone")
    assert result.size[g] == 1 and result.estimate[g] == 0.0
    assert result.low[g] == 0.0 and result.high[g] > 0.5  # Wilson's of one trial
    assert result.difference_high[g] - result.difference_low[g] > 0.5
    assert result.pvalue[g] > 0.1  # one wrong instance among 80 % right: no evidence
    assert result.too_small[g]
    with pytest.warns(DegenerateIntervalWarning):
        mcc = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=99,
                                scoring="matthews_corrcoef", random_state=0)
    assert np.isnan(mcc.low[g]) and np.isnan(mcc.high[g])  # never a point


def test_too_small_flag_follows_size():
    y_true, y_pred, _ = _data(n=1100, seed=6)
    groups = np.repeat(["small", "large", "other"], [100, 500, 500])
    result = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=999,
                               min_difference=0.15, random_state=0)
    large, small = result.subgroups.index("large"), result.subgroups.index("small")
    assert result.detectable_difference[small] > result.detectable_difference[large]
    # sd of a difference of accuracies, 0.8 at 100 against 1000: about 0.042; times
    # z_{1 - 0.05 / 6} + z_{0.8} = 3.24
    assert result.detectable_difference[small] == pytest.approx(0.136, abs=0.012)
    assert result.detectable_difference[large] == pytest.approx(0.078, abs=0.008)
    assert not result.too_small[small]
    assert score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=999,
                             min_difference=0.1, random_state=0).too_small[small]
    assert result.n_too_small == 0


def test_missing_labels_are_refused_naming_the_argument():
    y_true, y_pred, groups = _data(n=20)
    labels = groups.astype(object)
    labels[[4, 9]] = None
    with pytest.raises(ValueError, match=r"subgroups has 2 missing label\(s\).*row 4"):
        score_by_subgroup(y_true, y_pred, subgroups=labels)
    numbers = np.arange(20.0)
    numbers[7] = np.nan
    with pytest.raises(ValueError, match=r"subgroups has 1 missing.*row 7"):
        score_by_subgroup(y_true, y_pred, subgroups=numbers)
    with pytest.raises(ValueError, match="subgroups must hold one label per instance"):
        score_by_subgroup(y_true, y_pred, subgroups=groups[:-1])
    with pytest.raises(ValueError, match="at least 2"):
        score_by_subgroup(y_true, y_pred, subgroups=["a"] * 20)
    with pytest.raises(TypeError, match="subgroups"):
        score_by_subgroup(y_true, y_pred)


def test_empty_categories_are_reported_with_one_warning():
    pandas = pytest.importorskip("pandas")
    y_true, y_pred, groups = _data(n=60)
    categories = pandas.Categorical(groups, categories=["c", "unused", "a", "b", "none"])
    with pytest.warns(UserWarning, match="2 subgroup.*no instance.*unused categories") as \
            caught:
        result = score_by_subgroup(y_true, y_pred, subgroups=pandas.Series(categories),
                                   n_resamples=99, random_state=0)
    assert sum("no instance" in str(w.message) for w in caught) == 1
    assert result.subgroups == ("c", "unused", "a", "b", "none")
    assert result.size[1] == result.size[4] == 0
    assert np.isnan(result.estimate[[1, 4]]).all() and np.isnan(result.pvalue[[1, 4]]).all()
    tested = np.isfinite(result.pvalue)
    np.testing.assert_allclose(result.pvalue_corrected[tested],
                               _correct(result.pvalue[tested], "holm"))  # of 3, not 5
    assert result.confusion_matrices[1].sum() == 0


def test_missing_category_codes_are_refused():
    pandas = pytest.importorskip("pandas")
    y_true, y_pred, groups = _data(n=30)
    categories = pandas.Categorical(np.where(np.arange(30) == 12, None, groups))
    with pytest.raises(ValueError, match=r"subgroups has 1 missing.*row 12"):
        score_by_subgroup(y_true, y_pred, subgroups=categories)


def test_frequencies_equal_repeated_rows():
    y_true, y_pred, groups = _data(n=80, seed=8)
    weight = np.random.default_rng(0).integers(0, 4, 80)
    weighted = score_by_subgroup(y_true, y_pred, subgroups=groups, sample_weight=weight,
                                 n_resamples=99, random_state=0)
    rows = np.repeat(np.arange(80), weight)
    repeated = score_by_subgroup(y_true[rows], y_pred[rows], subgroups=groups[rows],
                                 n_resamples=99, random_state=0)
    np.testing.assert_array_equal(weighted.confusion_matrices, repeated.confusion_matrices)
    np.testing.assert_allclose(weighted.estimate, repeated.estimate)
    with pytest.raises(ValueError, match="frequencies"):
        score_by_subgroup(y_true, y_pred, subgroups=groups, sample_weight=weight * 0.5)


def test_other_targets_are_refused():
    with pytest.raises(ValueError, match="1-D class labels"):
        score_by_subgroup([[1, 0], [0, 1]], [[1, 0], [1, 0]], subgroups=[0, 1])


def _many(n, n_groups):
    rng = np.random.default_rng(9)
    y_true = rng.integers(0, 4, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 4, n))
    return y_true, y_pred, rng.integers(0, n_groups, n)


def test_thousands_of_subgroups():
    y_true, y_pred, groups = _many(10000, 2000)
    result = _quiet(score_by_subgroup, y_true, y_pred, subgroups=groups, n_resamples=10,
                    random_state=0)
    assert result.n_subgroups == len(np.unique(groups))
    np.testing.assert_array_equal(result.confusion_matrices.sum(axis=0),
                                  confusion_matrix(y_true, y_pred))
    one = np.flatnonzero(result.size == 1)
    assert one.size and (result.high[one] - result.low[one] > 0.5).all()


@pytest.mark.slow
def test_thousands_of_subgroups_within_memory():
    y_true, y_pred, groups = _many(20000, 5000)
    tracemalloc.start()
    result = _quiet(score_by_subgroup, y_true, y_pred, subgroups=groups, n_resamples=10,
                    random_state=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.n_subgroups == len(np.unique(groups))
    np.testing.assert_array_equal(result.confusion_matrices.sum(axis=0),
                                  confusion_matrix(y_true, y_pred))
    assert peak < 40 * 2 ** 20  # a (n_subgroups, 16) table and blocks, never n x groups


def test_too_few_resamples_for_the_correction_warn():
    y_true, y_pred, groups = _data(n=60)
    with pytest.warns(UserWarning, match="no subgroup can be significant.*above 59"):
        result = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=20,
                                   random_state=0)
    assert not result.significant.any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=20, correction=None,
                          random_state=0)


def test_budget_refuses_a_matrix_table_too_large():
    y_true = np.arange(200) % 50
    groups = np.arange(200) % 100
    with config_context(max_matrix_mib=1), pytest.raises(ValueError, match="budget"):
        score_by_subgroup(y_true, y_true, subgroups=groups, n_resamples=10)


def test_result_repr_html_and_frame():
    y_true, y_pred, groups = _data(seed=10)
    result = score_by_subgroup(y_true, y_pred, subgroups=groups, n_resamples=99,
                               min_difference=0.1, random_state=0)
    assert isinstance(result, SubgroupResult)
    text = repr(result)
    assert text.startswith("SubgroupResult(score='accuracy'") and "n_subgroups=3" in text
    assert "\na " in text or "\na  " in text
    assert "<th>b</th>" in result._repr_html_()
    frame = result.to_frame()
    assert frame.index.name == "subgroup" and list(frame.index) == ["a", "b", "c"]
    assert list(frame.columns[:4]) == ["size", "estimate", "low", "high"]
    np.testing.assert_allclose(frame["estimate"], result.estimate)
    np.testing.assert_array_equal(frame["too_small"], result.too_small)
    with pytest.raises(TypeError, match="does not unpack"):
        tuple(result)


def test_display_draws_the_result():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y_true, y_pred, groups = _data(n=400, seed=12, accuracies=[0.6, 0.85, 0.85])
    display = SubgroupIntervalDisplay.from_predictions(y_true, y_pred, subgroups=groups,
                                                       n_resamples=199, random_state=0)
    result = display.result_
    markers = display.ax_.lines[1]  # the intervals' caps, then the scores
    np.testing.assert_allclose(markers.get_xdata(), result.estimate)
    assert display.line_.get_xdata()[0] == pytest.approx(result.overall)
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == ["a", "b", "c"]
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert legend[0] == "all instances"
    assert ("differs from the rest" in legend) == bool(result.significant.any())
    plt.close("all")


# --- The reports by subgroup ------------------------------------------------------------


def test_reports_by_subgroup_are_the_reports_of_each_subgroup():
    from sklearn_confusion_ext import transport_classification_report

    y_true, y_pred, groups = _data(n=90, seed=13)
    y_true[groups == "a"] = np.where(y_true[groups == "a"] == 2, 0, y_true[groups == "a"])
    by_group = _quiet(transport_classification_report, y_true, y_pred, subgroups=groups,
                      output_dict=True)
    assert list(by_group) == ["a", "b", "c"]
    for name, report in by_group.items():
        rows = groups == name
        expected = _quiet(transport_classification_report, y_true[rows], y_pred[rows],
                          labels=[0, 1, 2], output_dict=True)
        assert report == expected
        assert set(report) >= {"0", "1", "2"} or set(report) >= {0, 1, 2}
    text = _quiet(transport_classification_report, y_true, y_pred, subgroups=groups)
    assert text.startswith(f"subgroup a ({(groups == 'a').sum()} instances)\n\n")
    assert text.count("subgroup ") == 3
    # the default is unchanged: one report of all the instances
    assert "subgroup" not in transport_classification_report(y_true, y_pred)


def test_mlcm_report_by_subgroup_and_its_empty_subgroups():
    pandas = pytest.importorskip("pandas")
    from sklearn_confusion_ext import mlcm_classification_report

    y_true = [[1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]] * 3
    y_pred = [[1, 0, 1], [0, 1, 0], [0, 0, 1], [1, 0, 0]] * 3
    site = pandas.Categorical(["x", "y"] * 6, categories=["x", "unused", "y"])
    with pytest.warns(UserWarning, match="1 subgroup.*no instance.*no report"):
        reports = mlcm_classification_report(y_true, y_pred, subgroups=site,
                                             output_dict=True, zero_division=0.0)
    assert list(reports) == ["x", "y"]
    assert reports["y"] == mlcm_classification_report(y_true[1::2], y_pred[1::2],
                                                      output_dict=True, zero_division=0.0)
    with pytest.raises(ValueError, match="subgroups has 1 missing"):
        mlcm_classification_report(y_true, y_pred, subgroups=[0] * 11 + [None])
