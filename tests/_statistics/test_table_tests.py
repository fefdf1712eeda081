"""Off-diagonal tests (Barranco-Chamorro and Carrillo-Garcia, Mathematics 2021)."""

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import binomtest

from sklearn_confusion_ext import (
    MarginalHomogeneityResult,
    McNemarResult,
    PosthocResult,
    bhapkar_test,
    marginal_homogeneity_posthoc,
    mcnemar_test,
    stuart_maxwell_test,
)

LAND_USE = np.array([[65, 6, 0, 4], [4, 81, 11, 7], [22, 5, 85, 3], [24, 8, 19, 90]])
GENRES = np.array([
    [10, 4, 3, 7, 1, 2, 0, 11, 11, 1], [0, 39, 2, 1, 1, 0, 1, 4, 2, 0],
    [0, 8, 23, 1, 4, 6, 1, 7, 0, 0], [0, 1, 0, 18, 8, 7, 1, 2, 11, 2],
    [3, 8, 2, 0, 11, 4, 1, 9, 11, 1], [2, 0, 3, 0, 3, 36, 1, 5, 0, 0],
    [2, 11, 7, 2, 5, 3, 4, 12, 3, 1], [1, 4, 1, 3, 1, 3, 0, 36, 0, 1],
    [2, 4, 3, 2, 4, 2, 1, 10, 22, 0], [0, 9, 6, 2, 2, 8, 0, 9, 2, 12]])
GENRE_NAMES = ["Rom", "Mys", "Hor", "His", "Fic", "Fan", "Com", "Chi", "Bio", "Adv"]
IBD = np.array([[37, 1, 15], [6, 19, 26], [15, 3, 77]])


def _close(got, printed):
    """Equal to a printed value at its printed precision."""
    text = f"{printed!r}"
    digits = len(text.split("e")[0].replace("-", "").replace(".", "").lstrip("0")) or 1
    np.testing.assert_allclose(got, printed, rtol=10 ** (1 - digits) * 0.51, atol=0)


def test_table_9_land_use_one_versus_all():
    result = marginal_homogeneity_posthoc(LAND_USE)
    table_9 = {"less": [1e-7, 0.7336454, 0.5512891, 0.9999994],
               "greater": [1.0000, 0.3776143, 0.5512891, 0.0000022],
               "two_sided": [2e-7, 0.7552287, 1.0000000, 0.0000045]}
    for kind, printed in table_9.items():
        for got, value in zip(getattr(result, f"pvalue_{kind}"), printed):
            _close(got, value)
    # Tables 5-8 are the collapsed 2 x 2 matrices; McNemar on them gives the same.
    np.testing.assert_array_equal(result.statistic, [10, 22, 30, 51])
    np.testing.assert_array_equal(result.n_discordant, [60, 41, 60, 65])
    table_5 = [[65, 10], [50, 309]]
    assert mcnemar_test(table_5, alternative="less").pvalue == result.pvalue_less[0]


def test_tables_5_to_8_auxiliary_matrices():
    result = marginal_homogeneity_posthoc(LAND_USE)
    printed = {"FallenLeaf": [[65, 10], [50, 309]], "Conifers": [[81, 22], [19, 312]],
               "Agricultural": [[85, 30], [30, 289]], "Scrub": [[90, 51], [14, 279]]}
    assert result.auxiliary_tables.shape == (4, 2, 2)
    np.testing.assert_array_equal(result.auxiliary_tables, list(printed.values()))
    # McNemar of each auxiliary table (Section 3.3) is the post-hoc test of its class.
    for table, less, greater in zip(result.auxiliary_tables, result.pvalue_less,
                                    result.pvalue_greater):
        assert mcnemar_test(table, alternative="less").pvalue == less
        assert mcnemar_test(table, alternative="greater").pvalue == greater


@settings(max_examples=60, deadline=None)
@given(arrays(np.int64, st.tuples(st.integers(2, 6)).map(lambda n: (n[0], n[0])),
              elements=st.integers(0, 50)))
def test_auxiliary_tables_collapse_the_matrix(matrix):
    matrix[0, 0] += 1  # a non-empty matrix
    result = marginal_homogeneity_posthoc(matrix)
    tables = result.auxiliary_tables
    # Each is the matrix collapsed to class i against the others: same total, the
    # class's row and column sums, and the tested cells.
    np.testing.assert_array_equal(tables.sum(axis=(1, 2)), np.full(len(matrix), matrix.sum()))
    np.testing.assert_array_equal(tables[:, 0, :].sum(axis=1), matrix.sum(axis=1))
    np.testing.assert_array_equal(tables[:, :, 0].sum(axis=1), matrix.sum(axis=0))
    np.testing.assert_array_equal(tables[:, 0, 0], np.diag(matrix))
    np.testing.assert_array_equal(tables[:, 0, 1], result.statistic)
    np.testing.assert_array_equal(tables[:, 0, 1] + tables[:, 1, 0], result.n_discordant)
    assert (tables >= 0).all()


def test_tables_21_22_genres_and_corrected_verdicts():
    result = marginal_homogeneity_posthoc(GENRES, display_labels=GENRE_NAMES)
    less = dict(zip(GENRE_NAMES, result.pvalue_less))
    greater = dict(zip(GENRE_NAMES, result.pvalue_greater))
    for name, printed in {"Mys": 3.781e-7, "Fan": 0.001900827, "Chi": 3e-10,
                          "Bio": 0.09090503}.items():
        _close(less[name], printed)
    for name, printed in {"Rom": 1.19307e-5, "His": 0.03245432, "Com": 5.2e-9,
                          "Adv": 4.715e-7}.items():
        _close(greater[name], printed)
    verdict = dict(zip(GENRE_NAMES, result.verdict))
    # The paper lists Biographical and History too; after Bonferroni they are not significant.
    assert [n for n in GENRE_NAMES if verdict[n] == "over-predicted"] == ["Mys", "Fan", "Chi"]
    assert [n for n in GENRE_NAMES if verdict[n] == "under-predicted"] == ["Rom", "Com", "Adv"]
    uncorrected = marginal_homogeneity_posthoc(GENRES, display_labels=GENRE_NAMES, method=None)
    assert uncorrected.verdict[GENRE_NAMES.index("His")] == "under-predicted"
    assert "Mys" in repr(result) and "over-predicted" in repr(result)


def test_table_26_ibd_one_versus_all():
    result = marginal_homogeneity_posthoc(IBD, display_labels=["nonIBD", "UC", "CD"])
    table_26 = {"less": [0.2556879, 0.9999998864, 0.001896853],
                "greater": [0.8379957, 0.0000009708, 0.999226416],
                "two_sided": [0.5113758, 0.0000019416, 0.003793706]}
    for kind, printed in table_26.items():
        for got, value in zip(getattr(result, f"pvalue_{kind}"), printed):
            _close(got, value)
    assert result.verdict.tolist() == ["no evidence", "under-predicted", "over-predicted"]


def test_table_25_and_the_tables_that_do_not_reproduce():
    stuart_maxwell, bhapkar = stuart_maxwell_test(IBD), bhapkar_test(IBD)
    _close(stuart_maxwell.statistic, 21.783)
    _close(bhapkar.statistic, 24.461)
    _close(stuart_maxwell.pvalue, 1.861e-5)
    _close(bhapkar.pvalue, 4.88e-6)
    assert stuart_maxwell.df == bhapkar.df == 2
    # Tables 4 and 20 print 11.202 and 94.19; the matrices of Tables 3 and 19 give these.
    _close(stuart_maxwell_test(LAND_USE).statistic, 33.475)
    _close(stuart_maxwell_test(GENRES).statistic, 111.448)
    n = GENRES.sum()
    sm = stuart_maxwell_test(GENRES).statistic
    assert bhapkar_test(GENRES).statistic == pytest.approx(sm / (1 - sm / n))


def test_homogeneity_against_statsmodels(rng):
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    for _ in range(20):
        size = int(rng.integers(2, 7))
        table = rng.integers(0, 30, size=(size, size)) + np.diag(rng.integers(5, 50, size))
        table[rng.random((size, size)) < 0.2] += 1
        reference = contingency.SquareTable(table, shift_zeros=False)
        for ours, method in ((stuart_maxwell_test, "stuart_maxwell"),
                             (bhapkar_test, "bhapkar")):
            expected = reference.homogeneity(method=method)
            got = ours(table)
            assert got.statistic == pytest.approx(expected.statistic, rel=1e-9)
            assert got.pvalue == pytest.approx(expected.pvalue, rel=1e-6)
            assert got.df == expected.df


def test_mcnemar_against_scipy_and_statsmodels(rng):
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    for _ in range(30):
        table = rng.integers(0, 40, size=(2, 2))
        if table[0, 1] + table[1, 0] == 0:
            continue
        for alternative in ("two-sided", "less", "greater"):
            expected = binomtest(int(table[0, 1]), int(table[0, 1] + table[1, 0]), 0.5,
                                 alternative=alternative).pvalue
            got = mcnemar_test(table, alternative=alternative).pvalue
            assert got == pytest.approx(min(1.0, expected), rel=1e-9)
        for correction in (False, True):
            expected = contingency.mcnemar(table, exact=False, correction=correction)
            got = mcnemar_test(table, exact=False, correction=correction)
            assert got.statistic == pytest.approx(expected.statistic)
            assert got.pvalue == pytest.approx(expected.pvalue)


def test_no_discordant_pairs_warn_and_give_no_evidence():
    for kwargs in ({}, {"alternative": "less"}, {"exact": False},
                   {"exact": False, "correction": True}):
        with pytest.warns(UserWarning, match="no discordant pairs"):
            result = mcnemar_test([[5, 0], [0, 7]], **kwargs)
        assert (result.statistic, result.pvalue) == (0.0, 1.0)


def test_mid_p_without_discordant_pairs_is_its_formula_at_n_zero():
    # T ~ B(0, 1/2) is 0: P[T <= 0] - P[T = 0] / 2 = 1/2 each side, 2 min(1, 1) - 1 = 1
    # two-sided (it gave 1 for every side, the one-sided mid-p values summing to 2)
    pvalues = {}
    for alternative in ("two-sided", "less", "greater"):
        with pytest.warns(UserWarning, match="no discordant pairs"):
            result = mcnemar_test([[5, 0], [0, 7]], exact="mid-p", alternative=alternative)
        assert result.statistic == 0.0
        pvalues[alternative] = result.pvalue
    assert pvalues == {"two-sided": 1.0, "less": 0.5, "greater": 0.5}
    # the sides agree as for every n: one-sided values sum to 1, two-sided twice the smaller
    assert pvalues["less"] + pvalues["greater"] == 1.0
    assert pvalues["two-sided"] == min(1.0, 2 * min(pvalues["less"], pvalues["greater"]))
    for b, c in ((0, 1), (3, 2)):
        less, greater = (mcnemar_test([[5, b], [c, 7]], exact="mid-p", alternative=side).pvalue
                         for side in ("less", "greater"))
        assert less + greater == pytest.approx(1.0, abs=1e-15)


def test_uninformative_classes_are_dropped_and_disconnected_groups_refused():
    table = np.array([[10, 2, 0, 0], [5, 8, 0, 0], [0, 0, 7, 0], [0, 0, 0, 0]])
    with pytest.warns(UserWarning, match=r"Classes \[2, 3\]"):
        result = stuart_maxwell_test(table)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert result.statistic == pytest.approx(stuart_maxwell_test(table[:2, :2]).statistic)
    assert result.df == 1
    split = np.array([[5, 2, 0, 0], [1, 5, 0, 0], [0, 0, 5, 3], [0, 0, 1, 5]])
    with pytest.raises(ValueError, match=r"classes \[0, 1\] and classes \[2, 3\]"):
        stuart_maxwell_test(split)
    with pytest.raises(ValueError, match=r"classes \['a', 'b'\] and classes \['c', 'd'\]"):
        bhapkar_test(split, display_labels=["a", "b", "c", "d"])
    with pytest.warns(UserWarning, match=r"Classes \['fir', 'oak'\]"):
        stuart_maxwell_test(table, display_labels=["elm", "ash", "fir", "oak"])
    for test in (stuart_maxwell_test, bhapkar_test):  # no discordance: equal marginals
        with pytest.warns(UserWarning, match="no misclassification"):
            result = test(np.diag([3, 4, 5]))
        assert (result.statistic, result.pvalue, result.df) == (0.0, 1.0, 2)


def test_corrections_against_statsmodels(rng):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    from sklearn_confusion_ext._statistics.table_tests import _correct

    for _ in range(10):
        pvalues = rng.random(7) ** 3
        for method in ("bonferroni", "holm", "fdr_bh"):
            np.testing.assert_allclose(_correct(pvalues, method),
                                       multitest.multipletests(pvalues, method=method)[1])


@pytest.mark.parametrize("call, match", [
    (lambda: mcnemar_test(np.eye(3)), "must be 2 x 2"),
    (lambda: mcnemar_test([[1, 2]]), "square"),
    (lambda: mcnemar_test([[1, -2], [3, 4]]), "non-negative"),
    (lambda: mcnemar_test([[1, np.nan], [3, 4]]), "finite"),
    (lambda: mcnemar_test([[1, 2.5], [3, 4]]), "fractional counts"),
    (lambda: mcnemar_test([[1, 2], [3, 4]], exact=False, alternative="less"), "exact=True"),
    (lambda: stuart_maxwell_test([[1, 2, 3], [4, 5, 6]]), "square"),
    (lambda: marginal_homogeneity_posthoc(LAND_USE, display_labels=["a"]),
     "display_labels has 1 names for 4 classes"),
    (lambda: marginal_homogeneity_posthoc(LAND_USE + 0.5), "fractional counts"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, error, match", [
    (lambda: mcnemar_test([[1, 2], [3, 4]], alternative="bigger"), ValueError,
     r"'alternative' parameter of mcnemar_test must be one of \{'two-sided', 'less', "
     r"'greater'\}; got 'bigger'"),
    (lambda: mcnemar_test([[1, 2], [3, 4]], exact="no"), ValueError,
     r"'exact' parameter of mcnemar_test must be a boolean \(True or False\) or 'mid-p'"),
    (lambda: mcnemar_test([[1, 2], [3, 4]], exact=1), TypeError,
     r"'exact' parameter of mcnemar_test must be a boolean"),
    (lambda: mcnemar_test([[1, 2], [3, 4]], correction=1), TypeError,
     r"'correction' parameter of mcnemar_test must be a boolean"),
    (lambda: marginal_homogeneity_posthoc(LAND_USE, alpha=1.5), ValueError,
     r"'alpha' parameter of marginal_homogeneity_posthoc must be a finite real number in "
     r"\(0, 1\); got 1.5"),
    (lambda: marginal_homogeneity_posthoc(LAND_USE, alpha=np.nan), ValueError,
     r"'alpha' parameter of marginal_homogeneity_posthoc"),
    (lambda: marginal_homogeneity_posthoc(LAND_USE, alpha="0.05"), TypeError,
     r"'alpha' parameter of marginal_homogeneity_posthoc"),
    (lambda: marginal_homogeneity_posthoc(LAND_USE, method="sidak"), ValueError,
     r"'method' parameter of marginal_homogeneity_posthoc must be None or one of"),
    (lambda: stuart_maxwell_test(IBD, display_labels="abc"), TypeError,
     r"'display_labels' parameter of stuart_maxwell_test must be None or an array-like"),
])
def test_invalid_parameters_name_the_function_and_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_numpy_scalars_are_accepted():
    expected = marginal_homogeneity_posthoc(GENRES, alpha=0.01, method="holm")
    got = marginal_homogeneity_posthoc(GENRES, alpha=np.float32(0.01), method="holm")
    assert got.verdict.tolist() == expected.verdict.tolist()
    assert got.alpha == float(np.float32(0.01))
    np.testing.assert_array_equal(got.pvalue_less_corrected, expected.pvalue_less_corrected)
    assert mcnemar_test([[5, 3], [9, 4]], exact=np.False_, correction=np.True_) == \
        mcnemar_test([[5, 3], [9, 4]], exact=False, correction=True)


def test_results_unpack_like_scipy():
    statistic, pvalue = mcnemar_test([[65, 10], [50, 309]], alternative="less")
    result = mcnemar_test([[65, 10], [50, 309]], alternative="less")
    assert (statistic, pvalue) == (result.statistic, result.pvalue) == (10.0, result[1])
    assert len(result) == 2 and tuple(result) == (10.0, result.pvalue)
    assert pvalue == pytest.approx(1e-7, abs=5e-8)  # Table 9
    for test in (stuart_maxwell_test, bhapkar_test):
        result = test(IBD)
        statistic, pvalue = result  # df is an attribute, as in scipy's ttest results
        assert (statistic, pvalue, result.df) == (result.statistic, result.pvalue, 2)
        assert result[-1] == pvalue and result[:1] == (statistic,)
        with pytest.raises(ValueError, match="not enough values to unpack"):
            statistic, pvalue, df = result
    assert stuart_maxwell_test(IBD).statistic == pytest.approx(21.783, abs=5e-4)


def test_posthoc_unpacks_to_the_corrected_two_sided_pvalues():
    result = marginal_homogeneity_posthoc(IBD, method="holm")
    statistic, pvalue = result
    np.testing.assert_array_equal(statistic, [16, 32, 18])
    np.testing.assert_array_equal(pvalue, result.pvalue_two_sided_corrected)
    # Holm over Table 26's two-sided p-values 0.5113758, 0.0000019416, 0.003793706.
    raw = result.pvalue_two_sided
    np.testing.assert_allclose(pvalue, [raw[0], 3 * raw[1], 2 * raw[2]], rtol=1e-12)
    np.testing.assert_allclose(pvalue, [0.5113758, 3 * 0.0000019416, 2 * 0.003793706],
                               rtol=5e-5)
    assert len(result) == 2


def test_results_are_public_frozen_and_checked():
    assert type(mcnemar_test([[5, 3], [1, 4]])) is McNemarResult
    assert type(bhapkar_test(IBD)) is MarginalHomogeneityResult
    assert type(marginal_homogeneity_posthoc(IBD)) is PosthocResult
    result = MarginalHomogeneityResult(3.5, 0.25, df=2)
    assert (result.statistic, result.pvalue, result.df) == (3.5, 0.25, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.df = 3
    with pytest.raises(TypeError):  # df is keyword-only: the tuple is (statistic, pvalue)
        MarginalHomogeneityResult(3.5, 0.25, 2)
    with pytest.raises(ValueError, match=r"'pvalue' parameter of McNemarResult .* got 1.5"):
        McNemarResult(1.0, 1.5)
    with pytest.raises(ValueError, match=r"'df' parameter of MarginalHomogeneityResult"):
        MarginalHomogeneityResult(1.0, 0.5, df=0)
    assert McNemarResult(np.inf, 0.0).statistic == np.inf  # not policed here


def test_display_labels_and_the_deprecated_labels():
    names = ["nonIBD", "UC", "CD"]
    result = marginal_homogeneity_posthoc(IBD, display_labels=names)
    assert result.class_names == names and "nonIBD" in repr(result)
    with pytest.warns(FutureWarning, match="labels was renamed display_labels in 0.1 and will "
                      "be removed in 0.2"):
        old = marginal_homogeneity_posthoc(IBD, labels=names)
    assert old.class_names == names
    np.testing.assert_array_equal(old.pvalue_less, result.pvalue_less)
    with pytest.warns(FutureWarning, match="renamed display_labels"):
        assert result.labels == names  # the result's old attribute name, read-only
    assert "labels" not in {field.name for field in dataclasses.fields(result)}
    split = np.array([[5, 2, 0, 0], [1, 5, 0, 0], [0, 0, 5, 3], [0, 0, 1, 5]])
    for test in (stuart_maxwell_test, bhapkar_test):
        with pytest.warns(FutureWarning, match="renamed display_labels"):
            with pytest.raises(ValueError, match=r"classes \['a', 'b'\] and classes"):
                test(split, labels=["a", "b", "c", "d"])
        with pytest.warns(FutureWarning, match="renamed display_labels"):
            assert test(IBD, labels=names) == test(IBD)
        with pytest.raises(ValueError, match="Pass display_labels only"):
            test(IBD, display_labels=names, labels=names)
    with pytest.raises(ValueError, match="Pass display_labels only"):
        marginal_homogeneity_posthoc(IBD, display_labels=names, labels=names)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # display_labels does not warn
        bhapkar_test(IBD, display_labels=names)


def test_fractional_matrices_work_where_counts_need_not_be_integers():
    table = LAND_USE + 0.25
    with pytest.warns(UserWarning, match="16 of its 16 non-zero cells are not whole"):
        assert np.isfinite(stuart_maxwell_test(table).statistic)
    assert np.isfinite(stuart_maxwell_test(table, allow_fractional=True).statistic)
    assert np.isfinite(mcnemar_test([[1.5, 2.5], [3.5, 4.5]], exact=False,
                                    allow_fractional=True).pvalue)


def test_warnings_point_at_the_callers_line():
    # The decorator adds a frame: fixed stack levels would name params.py.
    with pytest.warns(UserWarning, match="no discordant pairs") as record:
        mcnemar_test([[5, 0], [0, 7]])
    with pytest.warns(UserWarning, match=r"Classes \[2\]") as dropped:
        stuart_maxwell_test(np.array([[10, 2, 0], [5, 8, 0], [0, 0, 7]]))
    with pytest.warns(FutureWarning, match="renamed display_labels") as renamed:
        bhapkar_test(IBD, labels=["a", "b", "c"])
    assert [w.filename for w in (*record, *dropped, *renamed)] == [__file__] * 3


def test_bhapkar_at_its_boundary_warns_and_returns_stuart_maxwell():
    # SM = N (empty diagonal, every misclassification one way): SM / (1 - SM / N) is
    # undefined; five elements must not give statistic inf and p-value 0.
    for table in ([[0, 5], [0, 0]], [[0, 0], [7, 0]], [[0, 3, 0], [0, 0, 0], [2, 0, 0]]):
        stuart_maxwell = stuart_maxwell_test(table)
        with pytest.warns(UserWarning, match="Bhapkar's statistic is undefined"):
            result = bhapkar_test(table)
        assert result == stuart_maxwell
        assert np.isfinite(result.statistic) and result.pvalue > 0
    with pytest.warns(UserWarning, match="undefined"):
        assert bhapkar_test([[0, 5], [0, 0]]).pvalue == pytest.approx(0.025347318677468325)
    # one element on the diagonal: defined again, SM / (1 - SM / N) = 5 / (1 - 5 / 6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bhapkar_test([[1, 5], [0, 0]]).statistic == pytest.approx(30.0)


@pytest.mark.parametrize("scale", [1e-320, 1e-300, 1.0, 1e12, 1e154, 1e300])
def test_asymptotic_tests_stay_finite_and_scale_with_the_counts(scale):
    two = np.array([[3.0, 1.0], [2.0, 5.0]])
    three = np.array([[37.0, 1, 15], [6, 19, 26], [15, 3, 77]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # tiny scales are fractional on purpose: the arithmetic is under test here
        mcnemar = mcnemar_test(two * scale, exact=False, allow_fractional=True)
        results = [stuart_maxwell_test(three * scale, allow_fractional=True),
                   bhapkar_test(three * scale, allow_fractional=True)]
    # McNemar's (b - c)^2 / (b + c) = 1/3 and the Stuart-Maxwell statistic scale with n
    assert mcnemar.statistic == pytest.approx(scale / 3, rel=1e-12)
    assert results[0].statistic == pytest.approx(21.783 * scale, rel=1e-4)
    for result in (mcnemar, *results):
        assert np.isfinite([result.statistic, result.pvalue]).all()
        assert 0 <= result.pvalue <= 1


@pytest.mark.parametrize("scale", [1e12, 1e154])
def test_exact_and_posthoc_tests_stay_finite_with_huge_counts(scale):
    table = np.array([[1, 1, 0], [2, 1, 1], [0, 1, 1]]) * scale
    result = marginal_homogeneity_posthoc(table)
    assert result.statistic.tolist() == [scale, 3 * scale, scale]
    for pvalues in (result.pvalue_less, result.pvalue_greater, result.pvalue_two_sided,
                    result.pvalue_two_sided_corrected):
        assert np.isfinite(pvalues).all() and ((pvalues >= 0) & (pvalues <= 1)).all()
    # class 2 is balanced (T = n_discordant / 2): no evidence at any size
    assert result.verdict.tolist() == ["over-predicted", "under-predicted", "no evidence"]
    exact = mcnemar_test(table[:2, :2])
    assert exact.statistic == scale and np.isfinite(exact.pvalue)


def test_fractional_and_denormal_counts_stay_finite():
    fractional = {"allow_fractional": True}  # the arithmetic is under test
    assert stuart_maxwell_test([[0.5, 0.25], [0.1, 0.0]], **fractional).statistic == (
        pytest.approx(0.15 ** 2 / 0.35))
    result = stuart_maxwell_test([[0.5, 1e-320], [3e-320, 0.0]], **fractional)
    assert result.statistic == pytest.approx(2e-320 ** 2 / 4e-320, rel=1e-3)
    assert mcnemar_test([[0.0, 1e-320], [0.0, 0.0]], exact=False,
                        **fractional).statistic == 1e-320
    with np.errstate(over="ignore"), pytest.raises(ValueError, match="more than the largest"):
        stuart_maxwell_test([[1e308, 1e308], [1e308, 1e308]])


@pytest.mark.parametrize("b, c", [(3, 9), (9, 3), (1, 7), (6, 6), (0, 4), (20, 35)])
def test_mcnemar_two_sided_mid_p_is_twice_the_smaller_binomial_side_less_the_point(b, c):
    """Two-sided mid-p (Fagerland et al. 2013): 2 min(P[T <= b], P[T >= b]) - P[T = b] for
    T ~ B(b + c, 1/2), scipy.stats.binom; by hand for (3, 9): P[T <= 3] = 299/4096 and
    P[T = 3] = 220/4096 give 378/4096; (1, 7) is the paper's 0.039."""
    from scipy.stats import binom

    n = b + c
    point = binom.pmf(b, n, 0.5)
    expected = min(1.0, 2 * min(binom.cdf(b, n, 0.5), binom.sf(b - 1, n, 0.5)) - point)
    result = mcnemar_test([[4, b], [c, 5]], exact="mid-p")
    assert result.pvalue == pytest.approx(expected, rel=1e-12)
    if (b, c) == (3, 9):
        assert result.pvalue == pytest.approx(378 / 4096, rel=1e-12)
    if (b, c) == (1, 7):
        assert round(result.pvalue, 3) == 0.039
    if b == c:
        assert result.pvalue == pytest.approx(1.0, rel=1e-12)
    # the exact test's p-value less the observed table's probability, where b != c
    if b != c:
        assert result.pvalue == pytest.approx(mcnemar_test([[4, b], [c, 5]]).pvalue - point,
                                              rel=1e-12)
