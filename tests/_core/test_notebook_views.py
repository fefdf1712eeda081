"""What a notebook shows: results' reprs and HTML views, their tables as DataFrames, a
labelled view of any matrix, the accumulator's classes, and multi-panel Displays drawn in
the box of one Axes."""

import dataclasses
import inspect
import sys
from html.parser import HTMLParser

import numpy as np
import pytest
from test_common import REGISTRY

import sklearn_confusion_ext as sce

pandas = pytest.importorskip("pandas")

LONG = "a class name well beyond twenty characters <b>&"


# --- Every public result, generated from __all__ ----------------------------------------------


def _big_results():
    """Large instances of the results: many classes, many resamples, long names, NaN."""
    rng = np.random.default_rng(0)
    n = 60
    names = [f"{LONG} {k}" for k in range(n)]
    counts = rng.integers(0, 30, (n, n)) + np.diag(rng.integers(50, 100, n))
    accumulator = sce.ConfusionAccumulator("classic")
    accumulator.update([names[k % n] for k in range(300)], [names[(k * 7) % n]
                                                             for k in range(300)])
    measures = tuple(f"measure {k}" for k in range(30))
    return {
        "ConfidenceIntervalResult": sce.ConfidenceIntervalResult(
            estimate=rng.random(n), low=np.zeros(n), high=np.full(n, np.nan),
            standard_error=rng.random(n), distribution=rng.random((9999, n)),
            method="bca", confidence_level=0.95, score="tcm_f1", class_names=names),
        "ComparisonResult": sce.ComparisonResult(
            estimate=0.1, low=np.nan, high=0.3, pvalue=0.01, method="bootstrap",
            confidence_level=0.95, alternative="two-sided", distribution=rng.random(9999),
            score="tcm_f1_macro"),
        "McNemarResult": sce.McNemarResult(np.inf, 1e-300),
        "MarginalHomogeneityResult": sce.MarginalHomogeneityResult(1e300, 0.0, df=59),
        "PosthocResult": sce.marginal_homogeneity_posthoc(counts, display_labels=names),
        "AuditResult": sce.AuditResult({f"property {k}": bool(k % 2) for k in range(40)},
                                       {f"property {k}": {"values": list(range(1000))}
                                        for k in range(0, 40, 2)}, baseline_order=2),
        "InconsistencyResult": sce.InconsistencyResult(
            rng.random((30, 30)), measures, n_inconsistent=np.ones((30, 30)),
            n_pairs=10 ** 6, scores=rng.random((1, 500, 30))),
        "DiscriminatingTripletsResult": sce.discriminating_triplets(6),
        "ConfusionPosterior": sce.dirichlet_posterior(counts, display_labels=names),
        "ConfusionAccumulator": accumulator,
    }


def _public_results():
    """Every public class but the Displays, and an instance of it: the large one above, or
    the registry's minimal one."""
    big = _big_results()
    for name in sce.__all__:
        cls = getattr(sce, name)
        if not inspect.isclass(cls) or name.endswith("Display"):
            continue
        if name in big:
            yield name, big[name]
        else:
            assert REGISTRY[name].minimal is not None, f"{name}: no instance to test"
            yield name, cls(**REGISTRY[name].minimal())


RESULTS = dict(_public_results())


class _Cells(HTMLParser):
    """The text of each table cell (th and td), and every tag, of an HTML fragment."""

    def __init__(self):
        super().__init__()
        self.cells, self.tags, self._inside = [], [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag in ("th", "td"):
            self._inside = True
            self.cells.append("")

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.cells[-1] += data


def _cells(fragment):
    parser = _Cells()
    parser.feed(fragment)
    parser.close()
    return parser


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_every_result_has_a_short_repr_and_an_html_view(name):
    result = RESULTS[name]
    text = repr(result)
    lines = text.splitlines()
    assert lines[0].startswith(name), lines[0]
    # Bounded: never every resampled value, never every class (60 here), never a long name.
    assert len(text) < 6000 and len(lines) <= 25 and max(map(len, lines)) < 400, text
    fragment = result._repr_html_()
    parsed = _cells(fragment)
    assert name in fragment and "<b>" not in parsed.tags and "b" not in parsed.tags
    assert len(fragment) < 20000


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_reprs_never_fail(name):
    """A repr stands whatever the fields hold: a result is not checked again after
    construction, so break its fields behind the constructor's back."""
    result = RESULTS[name]
    if not dataclasses.is_dataclass(result):
        pytest.skip("not a dataclass")
    broken = object.__new__(type(result))
    for field in dataclasses.fields(result):
        object.__setattr__(broken, field.name, None)
    assert repr(broken).startswith(name) and name in broken._repr_html_()


def test_interval_repr_names_the_score_and_never_prints_the_resamples():
    y_true = [0, 0, 1, 1, 2, 2] * 20
    y_pred = [0, 1, 1, 1, 2, 0] * 20
    result = sce.score_confidence_interval(y_true, y_pred, scoring="tcm_accuracy",
                                           random_state=0)
    assert repr(result) == (
        "ConfidenceIntervalResult(score='tcm_accuracy', estimate=0.6667, low=0.575, "
        "high=0.75, confidence_level=0.95, method='bca', n_resamples=9999)")
    comparison = sce.compare_scores(y_true, y_true, y_pred, n_resamples=999, random_state=0)
    assert repr(comparison).startswith("ComparisonResult(score='tcm_f1_macro', estimate=")
    assert repr(comparison).endswith("method='bootstrap', alternative='two-sided', "
                                     "n_resamples=999)")
    assert len(repr(comparison)) < 250


def test_results_still_unpack_and_stay_frozen():
    result = sce.mcnemar_test([[65, 10], [50, 309]], exact=False)
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)
    assert repr(result) == ("McNemarResult(statistic=26.67, pvalue=2.42e-07, method='chi-square', "
                            "alternative='two-sided')")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.pvalue = 0.5
    table = [[37, 1, 15], [6, 19, 26], [15, 3, 77]]
    assert repr(sce.bhapkar_test(table)).endswith("df=2, method='bhapkar')")
    assert repr(sce.stuart_maxwell_test(table)).endswith("df=2, method='stuart_maxwell')")
    with pytest.warns(UserWarning, match="Bhapkar's statistic is undefined"):
        assert sce.bhapkar_test([[0, 5], [0, 0]]).method == "stuart_maxwell"  # its fallback
    assert sce.mcnemar_test([[5, 3], [1, 4]], exact="mid-p", alternative="less").method == "mid-p"
    statistic, pvalue = RESULTS["PosthocResult"]
    assert statistic is RESULTS["PosthocResult"].statistic


def test_html_view_renders_the_figures_and_escapes_the_names():
    land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
    names = ["Fallen<Leaf>", "Water & Shore", "Urban", "Forest"]
    result = sce.marginal_homogeneity_posthoc(land_use, display_labels=names)
    parsed = _cells(result._repr_html_())
    assert not {"leaf", "shore"} & set(parsed.tags)  # names are text, not tags
    cells = parsed.cells
    # The summary, then the table: a header row, then each class's row.
    assert cells[:4] == ["method", "bonferroni", "alpha", "0.05"]  # strings unquoted
    header = cells[4:14]
    assert header[:3] == ["class", "statistic", "n_discordant"]
    rows = [cells[14 + 10 * k: 24 + 10 * k] for k in range(4)]
    assert [row[0] for row in rows] == names
    assert [float(row[1]) for row in rows] == result.statistic.tolist()
    p_two = [float(row[header.index("pvalue_two_sided_corrected")]) for row in rows]
    np.testing.assert_allclose(p_two, result.pvalue_two_sided_corrected, rtol=1e-3)
    assert [row[-1] for row in rows] == result.verdict.tolist()


def test_text_table_is_cut_to_twenty_rows_with_an_ellipsis():
    text = repr(RESULTS["PosthocResult"])
    lines = text.splitlines()
    assert len(lines) == 1 + 1 + 21 and lines[12].split()[0] == "\u2026"
    assert lines[2].startswith("a class name") and "\u2026" in lines[2].split("  ")[0]


def test_names_of_forty_characters_print_whole_and_the_html_keeps_longer_ones():
    # the audit's property names (up to 30 characters) were cut at 26 in text and HTML
    audit = sce.audit_measure(sce.generalized_means_score, n_trials=50, max_n=4,
                              random_state=0)
    assert "second_order_constant_baseline" in repr(audit)
    long = "a class name of exactly fifty-one characters, long"
    posthoc = sce.marginal_homogeneity_posthoc(
        [[30, 5, 2], [4, 25, 6], [3, 7, 28]], display_labels=[long, "b" * 40, "c"])
    assert "b" * 40 in repr(posthoc) and long not in repr(posthoc)
    assert long in posthoc._repr_html_()


# --- One format per column -------------------------------------------------------------------

AUC = [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
       [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
       [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
       [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
       [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
       [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
       [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]]


def _body(result):
    """The printed table's rows, as lists of cells (the index first), without the line
    that says what a matrix's cells are."""
    return [line.split() for line in repr(result).splitlines()[2:]
            if not line.startswith("Cells are")]


def test_a_column_of_numbers_has_one_format():
    # Cochran's pairs: counts without ".0", each p-value column with its decimals.
    y_true = [0, 1] * 10
    y_preds = {"a": [0, 1] * 10, "b": [0, 1] * 7 + [1, 0] * 3, "c": [1, 1] * 10}
    rows = [row[3:] for row in _body(sce.cochran_q_test(y_true, y_preds))]  # "a vs b"
    assert [row[2:5] for row in rows] == [["6", "0", "6"], ["10", "0", "10"],
                                          ["7", "3", "7"]]
    assert [row[5] for row in rows] == ["0.031250", "0.001953", "0.343750"]
    assert [row[6] for row in rows] == ["0.062500", "0.005859", "0.343750"]
    # One p-value below 1e-4 puts its whole column in scientific notation.
    land_use = [[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]]
    posthoc = sce.marginal_homogeneity_posthoc(land_use)
    header = repr(posthoc).splitlines()[1].split()
    column = [row[header.index("pvalue_less")] for row in _body(posthoc)]
    assert column == ["8.082e-08", "7.336e-01", "5.513e-01", "1.000e+00"]
    assert [row[1] for row in _body(posthoc)] == ["10", "22", "30", "51"]  # statistic
    # Other numbers: the decimals of four significant digits of each, aligned.
    assert [row[-1] for row in _body(sce.friedman_test(AUC))] == [
        "3.143", "2.000", "2.893", "1.964"]
    frame = [row[1:] for row in _body(sce.dirichlet_posterior(
        [[8, 2], [1, 9]], prior=1.0, display_labels=["cat", "dog"]))]
    assert [row[0] for row in frame] == ["12", "12"]  # alpha_total, a count
    assert [row[1] for row in frame] == ["0.7500", "0.8333"]  # recall_mean
    assert {len(row[2]) for row in frame} == {6}


def test_a_matrix_of_p_values_has_one_format_and_the_floor():
    holm = sce.friedman_posthoc(AUC, method="holm", control="C4.5",
                                models=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    cells = [cell for row in _body(holm) for cell in row[1:]]
    assert {len(cell.split(".")[1]) for cell in cells if cell != "nan"} == {5}
    assert _body(holm)[0] == ["C4.5", "1.00000", "0.04716", "0.60841", "0.04716"]
    assert repr(holm).endswith("\nCells are adjusted p-values (holm).")
    tiny = sce.FriedmanPosthocResult(
        pvalue=np.array([[1.0, 0.0], [0.0, 1.0]]), statistic=np.zeros((2, 2)),
        significant=np.eye(2, dtype=bool), average_ranks=np.array([1.0, 2.0]),
        critical_difference=1.0, standard_error=0.5, method="nemenyi", alpha=0.05,
        models=("a", "b"), n_datasets=12)
    assert _body(tiny) == [["a", "1.000", "<1e-300"], ["b", "<1e-300", "1.000"]]


def test_html_marks_the_adjusted_p_values_below_alpha_and_says_what_the_cells_are():
    names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    nemenyi = sce.friedman_posthoc(AUC, models=names, alpha=0.10)
    fragment = nemenyi._repr_html_()
    assert "Cells are adjusted p-values (nemenyi); bold: p &lt; 0.1." in fragment
    marked = fragment.count("font-weight:bold")
    assert marked == int((nemenyi.pvalue < 0.10).sum()) > 0
    # Cochran's pairs: the corrected column only, not the raw p-values beside it.
    y_true = [0, 1] * 10
    y_preds = {"a": [0, 1] * 10, "b": [0, 1] * 7 + [1, 0] * 3, "c": [1, 1] * 10}
    cochran = sce.cochran_q_test(y_true, y_preds)
    fragment = cochran._repr_html_()
    assert "Bold: adjusted p-values below 0.05 (pvalue_corrected)." in fragment
    assert fragment.count("font-weight:bold") == int(
        (cochran.pairwise["pvalue_corrected"] < 0.05).sum()) == 1
    assert "<td style='font-weight:bold' title='p &lt; 0.05'>0.005859</td>" in fragment
    # The summary's strings without their quotes, the models listed.
    assert "<td style='text-align:left'>holm</td>" in fragment
    assert "<td style='text-align:left'>a, b, c</td>" in fragment
    # A result without a level marks nothing.
    assert "font-weight" not in sce.friedman_test(AUC)._repr_html_()


def test_the_few_data_sets_warning_is_said_once_for_one_table():
    import warnings

    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    scores = np.random.default_rng(0).random((8, 5))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        sce.friedman_test(scores)
        sce.friedman_posthoc(scores)
        sce.CriticalDifferenceDisplay.from_scores(scores)
        few = [w for w in caught if "data sets are few" in str(w.message)]
        assert len(few) == 1 and "friedman_test: 8 data sets" in str(few[0].message)
        sce.friedman_test(scores[:7])  # another table: said again
        assert sum("7 data sets are few" in str(w.message) for w in caught) == 1
    with warnings.catch_warnings(record=True) as caught:  # asked for every warning
        warnings.simplefilter("always")
        sce.friedman_test(scores)
        sce.friedman_posthoc(scores)
    assert sum("data sets are few" in str(w.message) for w in caught) == 2
    with pytest.warns(UserWarning, match="8 data sets are few"):  # new filters: said again
        sce.friedman_posthoc(scores)


# --- to_frame ---------------------------------------------------------------------------------


def test_to_frame_equals_the_attributes():
    posthoc = RESULTS["PosthocResult"]
    frame = posthoc.to_frame()
    assert list(frame.index) == posthoc.class_names and frame.index.name == "class"
    for column in frame.columns:
        assert frame[column].tolist() == getattr(posthoc, column).tolist()

    interval = sce.score_confidence_interval(["cat", "dog", "owl"] * 20,
                                             ["cat", "dog", "dog"] * 20, scoring="tcm_f1",
                                             average=None, n_resamples=99, random_state=0)
    frame = interval.to_frame()
    assert list(frame.index) == ["cat", "dog", "owl"] == interval.class_names
    for column in ("estimate", "low", "high", "standard_error"):
        np.testing.assert_array_equal(frame[column], getattr(interval, column))
    single = sce.score_confidence_interval([0, 1] * 30, [0, 1] * 25 + [1, 0] * 5,
                                           scoring="tcm_accuracy", method="analytic")
    assert single.to_frame().loc["tcm_accuracy", "high"] == single.high

    posterior = RESULTS["ConfusionPosterior"]
    frame = posterior.to_frame()
    lower, upper = posterior.credible_interval(0.95)
    np.testing.assert_array_equal(frame["recall_mean"], np.diag(posterior.mean()))
    np.testing.assert_array_equal(frame["recall_low"], np.diag(lower))
    np.testing.assert_array_equal(frame["recall_high"], np.diag(upper))
    np.testing.assert_array_equal(frame["alpha_total"], posterior.alpha.sum(axis=1))
    off = posterior.mean() - np.diag(np.full(len(posterior.alpha), np.inf))
    assert frame["most_confused_with"].tolist() == [posterior.display_labels[j]
                                                    for j in off.argmax(axis=1)]

    audit = RESULTS["AuditResult"]
    assert audit.to_frame()["satisfied"].to_dict() == dict(audit)
    inconsistency = RESULTS["InconsistencyResult"]
    np.testing.assert_array_equal(inconsistency.to_frame().to_numpy(),
                                  inconsistency.inconsistency)
    assert list(inconsistency.to_frame().columns) == list(inconsistency.measure_names)


def test_to_frame_without_pandas_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        RESULTS["PosthocResult"].to_frame()
    with pytest.raises(ImportError, match="pip install pandas"):
        sce.confusion_frame([[1, 0], [0, 1]])


# --- confusion_frame --------------------------------------------------------------------------


def test_confusion_frame_names_the_classes_as_the_function_orders_them():
    y_true = ["owl", "cat", "dog", "dog", "emu"]
    y_pred = ["owl", "cat", "cat", "dog", "owl"]
    matrix = sce.transport_confusion_matrix(y_true, y_pred)
    frame = sce.confusion_frame(matrix, y_true=y_true, y_pred=y_pred)
    assert list(frame.index) == list(frame.columns) == ["cat", "dog", "emu", "owl"]
    assert (frame.index.name, frame.columns.name) == ("true", "predicted")
    np.testing.assert_array_equal(frame.to_numpy(), matrix)
    assert frame.loc["dog", "cat"] == 1 and frame.loc["emu", "owl"] == 1
    chosen = sce.transport_confusion_matrix(y_true, y_pred, labels=["owl", "cat"])
    frame = sce.confusion_frame(chosen, y_true=y_true, y_pred=y_pred, labels=["owl", "cat"])
    assert list(frame.index) == ["owl", "cat"] and frame.loc["owl", "owl"] == 1
    assert list(sce.confusion_frame(chosen, labels=["owl", "cat"]).index) == ["owl", "cat"]


def test_confusion_frame_names_none_and_reads_accumulators():
    y_true, y_pred = [[1, 0, 1], [0, 0, 0]], [[1, 0, 0], [0, 1, 1]]
    frame = sce.confusion_frame(sce.mlcm(y_true, y_pred), y_true=y_true, y_pred=y_pred)
    assert list(frame.index) == [0, 1, 2, "none"] and frame.loc["none", 1] == 1
    columns = pandas.DataFrame(y_true, columns=["sun", "rain", "snow"])
    frame = sce.confusion_frame(sce.mlcm(columns, columns), y_true=columns, y_pred=columns)
    assert list(frame.columns) == ["rain", "snow", "sun", "none"]  # sorted, as mlcm sorts
    assert frame.loc["sun", "sun"] == 1 and frame.loc["snow", "snow"] == 1
    accumulator = sce.ConfusionAccumulator("classic", labels=["b", "a"])
    accumulator.update(["a", "b", "c"], ["a", "c", "b"])
    frame = sce.confusion_frame(accumulator)
    assert list(frame.index) == ["b", "a"]
    np.testing.assert_array_equal(frame.to_numpy(), accumulator.result())
    assert list(sce.confusion_frame([[1, 2], [3, 4]]).index) == [0, 1]


@pytest.mark.parametrize("keywords, message", [
    ({"matrix": [[1, 2], [3, 4]], "labels": ["a", "b", "c", "d"]},
     r"The matrix has 2 rows but the classes are 4"),
    ({"matrix": [[1, 2, 3]]}, r"square matrix with at least 1 class\(es\); got shape \(1, 3\)"),
    ({"matrix": [[1, 2], [3, 4]], "y_true": [0, 1]}, "pass y_true and y_pred together"),
])
def test_confusion_frame_refuses_what_it_cannot_name(keywords, message):
    with pytest.raises(ValueError, match=message):
        sce.confusion_frame(**keywords)


# --- ConfusionAccumulator ---------------------------------------------------------------------


def test_accumulator_exposes_its_classes_and_samples_seen():
    accumulator = sce.ConfusionAccumulator("mlcm")
    assert not hasattr(accumulator, "classes_") and accumulator.n_samples_seen_ == 0
    assert repr(accumulator) == "ConfusionAccumulator('mlcm'): no sample seen"
    accumulator.update([[1, 0, 1]], [[1, 0, 0]])
    accumulator.update([[0, 1, 0], [0, 0, 1]], [[0, 1, 1], [0, 0, 0]])
    assert accumulator.classes_.tolist() == [0, 1, 2] and accumulator.n_samples_seen_ == 3
    assert accumulator.result().shape == (4, 4)  # and "none"
    assert repr(accumulator) == "ConfusionAccumulator('mlcm'): 3 samples seen, classes_=[0, 1, 2]"
    many = sce.ConfusionAccumulator("classic")
    many.update([f"c{k:02d}" for k in range(40)], [f"c{k:02d}" for k in range(40)])
    assert many.classes_.tolist() == [f"c{k:02d}" for k in range(40)]
    assert repr(many).endswith("'c03', 'c04', ..., 'c36', 'c37', 'c38', 'c39'] (40 classes)")
    assert "40 samples seen" in many._repr_html_()


# --- One Axes as the box of a multi-panel Display ---------------------------------------------


def _multi_panel_displays():
    counts = [[30, 5, 2], [4, 25, 6], [1, 3, 40]]
    rng = np.random.default_rng(0)
    matrices = [np.diag(d) + rng.integers(0, 5, (5, 5))
                for d in ([50, 40, 30, 20, 10], [10, 20, 30, 40, 50], [30] * 5)]
    return {
        "PosteriorIntervalDisplay": lambda ax: sce.PosteriorIntervalDisplay.from_confusion(
            counts, ax=ax),
        "PosteriorSimplexDisplay": lambda ax: sce.PosteriorSimplexDisplay.from_confusion(
            counts, ax=ax),
        "RankingComparisonDisplay": lambda ax: sce.RankingComparisonDisplay.from_confusion(
            matrices[:2], ax=ax),
        "RankingComparisonDisplay grid": lambda ax:
            sce.RankingComparisonDisplay.from_confusion(matrices, ax=ax),
    }


@pytest.mark.parametrize("name, layout", [
    *((name, None) for name in sorted(_multi_panel_displays())),
    ("PosteriorIntervalDisplay", "constrained"), ("PosteriorSimplexDisplay", "constrained")])
def test_one_axes_is_the_box_of_the_panels(name, layout, tmp_path):
    plt = pytest.importorskip("matplotlib.pyplot")
    fig, (mine, box) = plt.subplots(1, 2, figsize=(12, 6), layout=layout)
    mine.plot([0, 1], [0, 1])
    display = _multi_panel_displays()[name](box)
    fig.savefig(tmp_path / "box.png", dpi=40)  # draws, so the layout is done
    assert display.figure_ is fig and display.bounding_ax_ is box
    assert not box.axison and mine.axison  # the box hidden, the other Axes untouched
    panels = np.ravel(display.axes_)
    assert len(panels) > 1 and box not in panels
    outer = box.get_position()
    # A constrained layout places the hidden box and the panels' grid apart: within 0.5%.
    slack = 1e-9 if layout is None else 5e-3
    for panel in panels:
        inner = panel.get_position()
        assert outer.x0 - slack <= inner.x0 < inner.x1 <= outer.x1 + slack
        assert outer.y0 - slack <= inner.y0 < inner.y1 <= outer.y1 + slack
    # The panels do not reach into the other Axes.
    assert all(panel.get_position().x0 > mine.get_position().x1 for panel in panels)
    plt.close(fig)


def test_an_axes_placed_by_position_is_a_box_too():
    plt = pytest.importorskip("matplotlib.pyplot")
    fig = plt.figure()
    box = fig.add_axes((0.1, 0.1, 0.4, 0.8))
    display = sce.PosteriorIntervalDisplay.from_confusion([[3, 1], [1, 4]], ax=box)
    outer = box.get_position()
    for panel in display.axes_:
        inner = panel.get_position()
        assert outer.x0 - 1e-9 <= inner.x0 and inner.x1 <= outer.x1 + 1e-9
        assert outer.y0 - 1e-9 <= inner.y0 and inner.y1 <= outer.y1 + 1e-9
    one = sce.PosteriorIntervalDisplay.from_confusion([[3, 1], [1, 4]], rows=[],
                                                      ax=plt.subplots()[1])
    assert one.bounding_ax_ is None and one.axes_[0].axison  # one panel: the Axes itself
    plt.close("all")
