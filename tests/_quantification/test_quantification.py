"""Quantification error measures (Sebastiani 2020), prevalences, scorers, protocols."""

import pickle
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

import sklearn_confusion_ext as sce
from sklearn_confusion_ext import (
    absolute_error,
    discordance_ratio,
    kl_divergence,
    make_quantification_scorer,
    normalized_absolute_error,
    normalized_kl_divergence,
    normalized_relative_absolute_error,
    normalized_squared_error,
    pearson_divergence,
    prevalence,
    prevalence_protocol_samples,
    relative_absolute_error,
    squared_error,
)

# Appendix B columns, without PD (misprinted; see NOTES_ON_PAPERS.md).
MEASURES = [absolute_error, normalized_absolute_error, relative_absolute_error,
            normalized_relative_absolute_error, squared_error, discordance_ratio,
            kl_divergence, normalized_kl_divergence]
APPENDIX_B = {
    # (p, p_hat, eps): AE NAE RAE NRAE SE DR KLD NKLD
    "B.1 p'": ([0.01, 0.99], [1.00, 0.00], 1 / 2_000_000,
               [0.9900, 1.0000, 49.9975, 1.0000, 0.9801, 0.9950, 14.3076, 0.9999]),
    "B.1 p''": ([0.49, 0.51], [1.00, 0.00], 1 / 2_000_000,
                [0.5100, 1.0000, 1.0204, 1.0000, 0.2601, 0.7550, 6.7065, 0.9975]),
    "B.2 p'": ([0.20, 0.80], [0.25, 0.75], None,
               [0.0500, 0.0625, 0.1562, 0.0625, 0.0025, 0.1312, 0.0070, 0.0035]),
    "B.2 p''": ([0.20, 0.80], [0.15, 0.85], None,
                [0.0500, 0.0625, 0.1562, 0.0625, 0.0025, 0.1544, 0.0090, 0.0045]),
    "B.3 p'": ([0.20, 0.80], [0.70, 0.30], None,
               [0.5000, 0.6250, 1.5625, 0.6250, 0.2500, 0.6696, 0.5341, 0.2609]),
    "B.3 p''": ([0.25, 0.75], [0.75, 0.25], None,
                [0.5000, 0.6667, 1.3333, 0.6667, 0.2500, 0.6667, 0.5493, 0.2679]),
}


@pytest.mark.parametrize("row", list(APPENDIX_B))
def test_appendix_b_values(row):
    p, p_hat, eps, printed = APPENDIX_B[row]
    for measure, value in zip(MEASURES, printed):
        # The appendix truncates some values (0.9999 for 0.9999988): tolerance 1e-4.
        assert measure(p, p_hat, eps=eps) == pytest.approx(value, abs=1e-4), measure.__name__


def test_pearson_divergence_follows_eq_17():
    assert pearson_divergence([0.2, 0.8], [0.25, 0.75]) == pytest.approx(
        ((0.05 ** 2) / 0.25 + (0.05 ** 2) / 0.75) / 2)


def _direct(name, p, q):
    n = len(p)
    if name == "AE":
        return np.abs(q - p).sum() / n
    if name == "NAE":
        return np.abs(q - p).sum() / (2 * (1 - p.min()))
    if name == "RAE":
        return (np.abs(q - p) / p).sum() / n
    if name == "NRAE":
        return (np.abs(q - p) / p).sum() / (n - 1 + (1 - p.min()) / p.min())
    if name == "SE":
        return ((p - q) ** 2).sum() / n
    if name == "NSE":
        c = np.argmin(p)
        others = np.delete(p, c)
        return ((p - q) ** 2).sum() / ((1 - p[c]) ** 2 + (others ** 2).sum())
    if name == "DR":
        return (np.abs(p - q) / np.maximum(p, q)).sum() / n
    if name == "KLD":
        return (p * np.log(p / q)).sum()
    if name == "NKLD":
        return 2 * np.exp(_direct("KLD", p, q)) / (np.exp(_direct("KLD", p, q)) + 1) - 1
    return ((p - q) ** 2 / q).sum() / n  # PD


ALL = {"AE": absolute_error, "NAE": normalized_absolute_error, "RAE": relative_absolute_error,
       "NRAE": normalized_relative_absolute_error, "SE": squared_error,
       "NSE": normalized_squared_error, "DR": discordance_ratio, "KLD": kl_divergence,
       "NKLD": normalized_kl_divergence, "PD": pearson_divergence}
SMOOTHED = {"RAE", "NRAE", "DR", "KLD", "NKLD", "PD"}


def test_random_distributions_against_direct_formulas(rng):
    for _ in range(30):
        n_classes = int(rng.integers(2, 6))
        p, q = rng.dirichlet(np.ones(n_classes)), rng.dirichlet(np.ones(n_classes))
        eps = 1 / (2 * int(rng.integers(10, 1000)))
        for name, measure in ALL.items():
            assert measure(p, q) == pytest.approx(_direct(name, p, q), rel=1e-12)
            if name in SMOOTHED:
                ps, qs = (eps + p) / (eps * n_classes + 1), (eps + q) / (eps * n_classes + 1)
                assert measure(p, q, eps=eps) == pytest.approx(_direct(name, ps, qs), rel=1e-12)
            else:  # the paper does not smooth AE, NAE, SE, NSE
                assert measure(p, q, eps=eps) == measure(p, q)


def test_against_quapy(rng):
    error = pytest.importorskip("quapy.error")
    peers = {"AE": error.ae, "NAE": error.nae, "RAE": error.rae, "NRAE": error.nrae,
             "SE": error.se, "KLD": error.kld, "NKLD": error.nkld}
    for _ in range(20):
        p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        for name, peer in peers.items():
            arguments = {"eps": 1e-3} if name in SMOOTHED else {}
            assert ALL[name](p, q, **arguments) == pytest.approx(peer(p, q, **arguments),
                                                                 rel=1e-9)


def test_aggregation_over_samples(rng):
    p, q = rng.dirichlet(np.ones(3), size=50), rng.dirichlet(np.ones(3), size=50)
    each = kl_divergence(p, q, aggregate=None)
    assert each.shape == (50,)
    np.testing.assert_allclose(each, [kl_divergence(a, b) for a, b in zip(p, q)])
    assert kl_divergence(p, q) == pytest.approx(each.mean())
    assert kl_divergence(p, q, aggregate="median") == pytest.approx(np.median(each))


def test_zero_denominators_ask_for_eps():
    with pytest.raises(ValueError, match="p_true: a true prevalence is 0.*pass eps="):
        relative_absolute_error([0.0, 1.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="p_pred: a predicted prevalence is 0.*eps="):
        kl_divergence([0.5, 0.5], [1.0, 0.0])
    with pytest.raises(ValueError, match="eps="):
        pearson_divergence([0.5, 0.5], [1.0, 0.0])
    assert np.isfinite(kl_divergence([0.5, 0.5], [1.0, 0.0], eps=1e-3))
    assert kl_divergence([0.0, 1.0], [0.5, 0.5]) == pytest.approx(np.log(2))  # 0 log 0 = 0


def test_prevalence():
    np.testing.assert_allclose(prevalence([0, 1, 1, 2]), [0.25, 0.5, 0.25])
    np.testing.assert_allclose(prevalence([0, 1, 1, 2], sample_weight=[2, 1, 1, 0]),
                               [0.5, 0.5, 0.0])
    np.testing.assert_allclose(prevalence([[1, 0, 1], [1, 1, 0]], labels=[2, 0]), [0.5, 1.0])
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        prevalence([0, 1], sample_weight=[0, 0])


@pytest.mark.parametrize("method", ["classify_and_count", "probabilistic_classify_and_count"])
def test_scorer_in_cross_val_score_with_two_jobs(method):
    X, y = make_classification(n_samples=300, n_classes=3, n_informative=4, random_state=0)
    scorer = make_quantification_scorer(normalized_kl_divergence, method=method, eps=1 / 200)
    scorer = pickle.loads(pickle.dumps(scorer))
    model = LogisticRegression(max_iter=500)
    scores = cross_val_score(model, X, y, scoring=scorer, cv=3, n_jobs=2)
    assert scores.shape == (3,) and (scores <= 0).all() and (scores > -1).all()
    fitted = model.fit(X, y)
    if method == "classify_and_count":
        expected = prevalence(fitted.predict(X))
    else:
        expected = fitted.predict_proba(X).mean(axis=0)
    assert scorer(fitted, X, y) == pytest.approx(
        -normalized_kl_divergence(prevalence(y), expected, eps=1 / 200))


def test_protocols():
    y = np.array([0] * 80 + [1] * 20)
    natural = list(prevalence_protocol_samples(y, n_samples=200, sample_size=50,
                                               random_state=0))
    assert all(len(s) == 50 for s in natural)
    assert np.mean([np.mean(y[s] == 1) for s in natural]) == pytest.approx(0.2, abs=0.02)
    artificial = list(prevalence_protocol_samples(y, n_samples=400, sample_size=50,
                                                  protocol="artificial", random_state=0))
    shares = np.array([np.mean(y[s] == 1) for s in artificial])
    assert shares.mean() == pytest.approx(0.5, abs=0.05)  # uniform over the simplex
    assert shares.min() < 0.1 and shares.max() > 0.9
    again = list(prevalence_protocol_samples(y, n_samples=3, random_state=4))
    np.testing.assert_array_equal(again[0], list(prevalence_protocol_samples(
        y, n_samples=3, random_state=4))[0])


@pytest.mark.parametrize("call, match", [
    (lambda: absolute_error([0.5, 0.5], [0.2, 0.2, 0.6]), "same shape"),
    (lambda: absolute_error([0.5, 0.6], [0.5, 0.5]), "p_true must sum to 1"),
    (lambda: absolute_error([0.5, 0.5], [1.5, -0.5]), "p_pred must hold finite non-negative"),
    (lambda: absolute_error([np.nan, 1], [0.5, 0.5]), "p_true must hold finite"),
    (lambda: absolute_error([1.0], [1.0]), "at least two classes"),
    (lambda: make_quantification_scorer(absolute_error, aggregate=None), "aggregate is not"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, error, match", [
    (lambda: absolute_error([0.5, 0.5], [0.5, 0.5], aggregate="max"), ValueError,
     r"'aggregate' parameter of absolute_error must be None or one of \{'mean', 'median', "
     r"'weighted'\}; got 'max'"),
    (lambda: kl_divergence([0.5, 0.5], [0.5, 0.5], eps=0), ValueError,
     r"'eps' parameter of kl_divergence must be None or a finite real number > 0; got 0"),
    (lambda: pearson_divergence([0.5, 0.5], [0.5, 0.5], eps=np.inf), ValueError,
     r"'eps' parameter of pearson_divergence"),
    (lambda: squared_error([0.5, 0.5], [0.5, 0.5], eps="1e-3"), TypeError,
     r"'eps' parameter of squared_error"),
    (lambda: make_quantification_scorer("ae"), TypeError,
     r"'error' parameter of make_quantification_scorer must be a callable; got 'ae'"),
    (lambda: make_quantification_scorer(absolute_error, method="em"), ValueError,
     r"'method' parameter of make_quantification_scorer must be one of"),
    (lambda: prevalence([0, 1], sample_weight="ones"), TypeError,
     r"'sample_weight' parameter of prevalence"),
])
def test_invalid_parameters_name_the_function_and_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("keywords, error, match", [
    ({"protocol": "app"}, ValueError,
     r"'protocol' parameter of prevalence_protocol_samples must be one of"),
    ({"n_samples": 0}, ValueError,
     r"'n_samples' parameter of prevalence_protocol_samples must be an integer >= 1; got 0"),
    ({"sample_size": 2.5}, TypeError, r"'sample_size' parameter"),
    ({"random_state": "seed"}, TypeError, r"'random_state' parameter"),
    ({"y": [[0, 1]]}, ValueError, r"y must be non-empty 1-D class labels; got shape \(1, 2\)"),
    ({"y": []}, ValueError, r"y must be non-empty 1-D class labels; got shape \(0,\)"),
    # a bare TypeError of NumPy's sort ("'<' not supported ..."), or NaN counted as a class
    ({"y": np.array([None, 1, 2], dtype=object)}, ValueError,
     r"^y contains a missing class label \(None\)"),
    ({"y": np.array(["a", 1], dtype=object)}, ValueError, r"^y mixes strings and numbers"),
    ({"y": [0.0, 1.0, np.nan]}, ValueError, r"^y contains NaN"),
])
def test_protocol_checks_when_called_not_at_the_first_sample(keywords, error, match):
    # The call raises: no next() is needed (it used to be a generator function).
    with pytest.raises(error, match=match):
        prevalence_protocol_samples(**{"y": [0, 1], **keywords})


def test_protocol_returns_an_iterator():
    samples = prevalence_protocol_samples([0, 0, 1, 1, 2], n_samples=np.int64(3),
                                          sample_size=np.int32(4), random_state=np.int64(1))
    assert isinstance(samples, Iterator) and iter(samples) is samples
    listed = list(samples)
    assert [len(sample) for sample in listed] == [4, 4, 4]
    assert list(samples) == []  # consumed once, like any generator
    again = prevalence_protocol_samples([0, 0, 1, 1, 2], n_samples=3, sample_size=4,
                                        random_state=1)
    for got, expected in zip(listed, again):
        np.testing.assert_array_equal(got, expected)


def test_scorer_checks_the_error_keywords_when_built():
    # These built silently and gave [nan nan nan] from cross_val_score.
    with pytest.raises(ValueError, match=r"'eps' parameter of make_quantification_scorer must "
                       r"be None or a finite real number > 0; got -1"):
        make_quantification_scorer(absolute_error, eps=-1)
    with pytest.raises(TypeError, match=r"make_quantification_scorer got an unexpected keyword "
                       r"argument 'epsilon'"):
        make_quantification_scorer(kl_divergence, epsilon=1e-3)
    with pytest.raises(TypeError, match=r"\['p_true'\]: the scorer passes each fold's"):
        make_quantification_scorer(kl_divergence, p_true=[0.5, 0.5])
    with pytest.raises(ValueError, match="aggregate is not a scorer parameter"):
        make_quantification_scorer(kl_divergence, aggregate="median", eps="auto")

    def error_without_eps(p_true, p_pred):
        return float(np.abs(np.subtract(p_true, p_pred)).sum())

    with pytest.raises(TypeError, match=r"\['eps'\] that error_without_eps does not take"):
        make_quantification_scorer(error_without_eps, eps="auto")
    assert repr(make_quantification_scorer(error_without_eps)) == \
        "make_quantification_scorer(error_without_eps, method='classify_and_count')"
    with pytest.raises(TypeError, match="eps"):
        make_quantification_scorer(kl_divergence, eps="automatic")


def test_scorer_eps_auto_is_half_the_inverse_fold_size():
    X, y = make_classification(n_samples=90, n_classes=3, n_informative=4, random_state=1)
    model = LogisticRegression(max_iter=500).fit(X, y)
    scorer = make_quantification_scorer(kl_divergence, eps="auto")
    assert "eps='auto'" in repr(scorer)
    expected = -kl_divergence(prevalence(y), prevalence(model.predict(X)), eps=1 / 180)
    assert scorer(model, X, y) == pytest.approx(expected, rel=1e-12)
    assert scorer(model, X[:30], y[:30]) == pytest.approx(
        -kl_divergence(prevalence(y[:30], labels=[0, 1, 2]),
                       prevalence(model.predict(X[:30]), labels=[0, 1, 2]), eps=1 / 60),
        rel=1e-12)
    scores = cross_val_score(LogisticRegression(max_iter=500), X, y, scoring=scorer, cv=3)
    assert np.isfinite(scores).all() and (scores <= 0).all()


def test_numpy_scalars_are_accepted():
    p, q = [0.2, 0.8, 0.0], [0.25, 0.7, 0.05]
    for measure in (kl_divergence, relative_absolute_error, pearson_divergence):
        eps = np.float32(1e-3)
        assert measure(p, q, eps=eps) == measure(p, q, eps=float(eps))
        assert measure(p, q, eps=eps) == pytest.approx(measure(p, q, eps=1e-3), rel=1e-4)
    scorer = make_quantification_scorer(kl_divergence, eps=np.float64(1e-3))
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X, y)
    assert scorer(model, X, y) == make_quantification_scorer(kl_divergence, eps=1e-3)(
        model, X, y)


def test_scorer_repr_and_iris_doc_example():
    scorer = make_quantification_scorer(kl_divergence, eps=1e-3)
    assert repr(scorer) == "make_quantification_scorer(kl_divergence, " \
        "method='classify_and_count', eps=0.001)"
    X, y = load_iris(return_X_y=True)
    assert (cross_val_score(LogisticRegression(max_iter=500), X, y, scoring=scorer, cv=3)
            <= 0).all()


# Table 1 of Sebastiani (2020): IoI NN MAX MON IMP REL ABS IND.
TABLE_1 = {
    "AE": "YYNYYNYY", "NAE": "YYYYYNNY", "RAE": "YYNYYYNY", "NRAE": "YYYYYNNY",
    "SE": "YYNYYNYY", "DR": "YYNYNYNY", "KLD": "YYNYNNNY", "NKLD": "YYYYNNNY",
    "PD": "YYNYNNNY",
}


def _smoothed(measure):
    return lambda p, q: measure(p, q, eps=1e-12)


AUDITED = {"AE": absolute_error, "NAE": normalized_absolute_error,
           "RAE": _smoothed(relative_absolute_error),
           "NRAE": _smoothed(normalized_relative_absolute_error), "SE": squared_error,
           "DR": _smoothed(discordance_ratio), "KLD": _smoothed(kl_divergence),
           "NKLD": _smoothed(normalized_kl_divergence), "PD": _smoothed(pearson_divergence)}


@pytest.mark.parametrize("name", list(TABLE_1))
def test_audit_reproduces_table_1(name):
    from sklearn_confusion_ext import audit_quantification_measure

    result = audit_quantification_measure(AUDITED[name], n_trials=300, random_state=0)
    expected = dict(zip(result, (mark == "Y" for mark in TABLE_1[name])))
    if name == "DR":
        # Table 1 credits DR with REL; the audit finds a binary counterexample (checked by
        # hand in test_discordance_ratio_breaks_relativity), so it reports False.
        expected["REL"] = False
    assert dict(result) == expected
    assert set(result.counterexamples) == {p for p, ok in result.items() if not ok}


def test_discordance_ratio_breaks_relativity():
    # Property 6 in binary form: the same over-estimate a on the rarer class c1 must cost
    # more when c1 is rarer. With a = 0.3: p' = (0.35, 0.65) -> (0.65, 0.35) and
    # p'' = (0.45, 0.55) -> (0.75, 0.25). The paper's argument looks at c1 only; the term of
    # c2, whose prevalence also changes, reverses the order.
    first = discordance_ratio([0.35, 0.65], [0.65, 0.35])
    second = discordance_ratio([0.45, 0.55], [0.75, 0.25])
    assert first == pytest.approx((0.3 / 0.65 + 0.3 / 0.65) / 2)
    assert second == pytest.approx((0.3 / 0.75 + 0.3 / 0.55) / 2)
    assert first < second  # REL requires first > second


def test_quantification_audit_parameters():
    from sklearn_confusion_ext import audit_quantification_measure

    with pytest.raises(TypeError, match="'measure' parameter of audit_quantification_measure "
                       "must be a callable"):
        audit_quantification_measure("AE")
    # Each size of a sequence is checked against the same constraint as a single size.
    with pytest.raises(ValueError, match="'n_classes' parameter of audit_quantification_measure "
                       "must be an integer >= 2; got 1"):
        audit_quantification_measure(absolute_error, n_classes=(1, 3))
    with pytest.raises(ValueError, match="'n_classes' parameter .* must be an integer >= 2"):
        audit_quantification_measure(absolute_error, n_classes=1)
    with pytest.raises(TypeError, match="'n_classes' parameter .* got 2.5"):
        audit_quantification_measure(absolute_error, n_classes=[2, 2.5])
    with pytest.raises(ValueError, match="at least one codeframe size"):
        audit_quantification_measure(absolute_error, n_classes=[])
    with pytest.raises(ValueError, match="'n_trials' parameter of audit_quantification_measure "
                       "must be an integer >= 1; got 0"):
        audit_quantification_measure(absolute_error, n_trials=0)
    with pytest.raises(ValueError, match="smooth it"):
        audit_quantification_measure(kl_divergence_unsmoothed, n_trials=5, random_state=0)


def test_quantification_audit_takes_numpy_integers():
    from sklearn_confusion_ext import audit_quantification_measure

    expected = audit_quantification_measure(absolute_error, n_classes=(2, 3), n_trials=20,
                                            random_state=0)
    got = audit_quantification_measure(absolute_error, n_classes=np.array([2, 3]),
                                       n_trials=np.int64(20), random_state=np.int64(0))
    assert dict(got) == dict(expected)
    np.testing.assert_equal(got.counterexamples, expected.counterexamples)
    assert [name for name, holds in got.items() if not holds] == ["MAX", "REL"]
    single = audit_quantification_measure(absolute_error, n_classes=np.int32(3), n_trials=5,
                                          random_state=0)
    assert dict(single) == dict(audit_quantification_measure(
        absolute_error, n_classes=[3], n_trials=5, random_state=0))


def kl_divergence_unsmoothed(p, q):
    return float("inf") if (q == 0).any() else kl_divergence(p, q)


def test_quantification_scorer_refuses_multilabel_targets_clearly():
    from sklearn.datasets import make_multilabel_classification
    from sklearn.neighbors import KNeighborsClassifier

    X, Y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    model = KNeighborsClassifier().fit(X, Y)
    with pytest.raises(ValueError, match="single-label targets"):
        make_quantification_scorer(absolute_error)(model, X, Y)


ALL_MEASURES = [absolute_error, normalized_absolute_error, relative_absolute_error,
                normalized_relative_absolute_error, squared_error, normalized_squared_error,
                discordance_ratio, kl_divergence, normalized_kl_divergence, pearson_divergence]


def test_kl_divergence_with_denormal_prevalences_is_finite():
    # 0.5 (log 0.5 - log 1) + 0.5 (log 0.5 - log 1e-320): the ratio 0.5 / 1e-320 overflows
    expected = 0.5 * np.log(0.5) + 0.5 * (np.log(0.5) - np.log(1e-320))
    assert kl_divergence([0.5, 0.5], [1.0, 1e-320]) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(367.72, abs=0.01)
    assert normalized_kl_divergence([0.5, 0.5], [1.0, 1e-320]) == 1.0
    # tanh(K / 2) is eq. (16) where e^K does not overflow
    kld = kl_divergence([0.2, 0.8], [0.25, 0.75])
    assert normalized_kl_divergence([0.2, 0.8], [0.25, 0.75]) == pytest.approx(
        2 * np.exp(kld) / (np.exp(kld) + 1) - 1, rel=1e-12)


def test_measures_on_denormal_prevalences_are_finite_or_refused():
    p, q = [1.0, 1e-320], [1e-320, 1.0]
    for measure in ALL_MEASURES:
        for eps in (None, 5e-324, 1e-320, 1e-3, 1e308):
            try:
                value = measure(p, q, eps=eps)
            except ValueError as error:
                assert measure in (relative_absolute_error, pearson_divergence)
                assert "exceeds the largest float" in str(error)
                assert str(error).startswith("p_true" if measure is relative_absolute_error
                                             else "p_pred")
            else:
                assert np.isfinite(value) and value >= 0
    # NRAE multiplies eq. (8) through by min p: maximal error, exactly 1
    assert normalized_relative_absolute_error(p, q) == pytest.approx(1.0)
    # a huge eps smooths both distributions to uniform: no error at all
    assert kl_divergence(p, q, eps=1e308) == 0.0


def test_prevalence_with_huge_and_tiny_weights():
    # Within the documented range (total at most 1e300, largest at least 1e-290): exact;
    # beyond it, refused naming sample_weight, as everywhere (never NaN or 0).
    np.testing.assert_allclose(prevalence([0, 1, 1], sample_weight=[3e299, 3e299, 3e299]),
                               [1 / 3, 2 / 3])
    np.testing.assert_allclose(prevalence([0, 1], sample_weight=[1e-290, 5e-324]),
                               [1, 0], atol=1e-30)
    for weights in ([1e308, 1e308], [5e-324, 5e-324]):
        with pytest.raises(ValueError, match="sample_weight.*by a constant"):
            prevalence([0, 1], sample_weight=weights)
    with pytest.raises(ValueError, match="sample_weight"):
        prevalence([0, 1], sample_weight=[[1.0], [2.0]])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(-330, 0)), min_size=2, max_size=5),
       st.lists(st.tuples(st.floats(0, 1), st.integers(-330, 0)), min_size=5, max_size=5),
       st.one_of(st.none(), st.floats(5e-324, 1e308)))
def test_measures_are_finite_on_valid_distributions(true_parts, pred_parts, eps):
    def distribution(parts):
        values = np.array([m * 10.0 ** e for m, e in parts])
        if values.sum() == 0:
            values[0] = 1.0
        return values / values.sum()

    p = distribution(true_parts)
    q = distribution(pred_parts[:len(p)])
    for measure in ALL_MEASURES:
        try:
            value = measure(p, q, eps=eps)
        except ValueError as error:  # a zero (or overflowing) denominator, named
            assert str(error).startswith(("p_true:", "p_pred:"))
        else:
            assert np.isfinite(value) and value >= 0


def test_protocol_samples_know_the_pool_classes():
    """A sample lacking a class keeps the full class vector with samples.classes (before,
    prevalence(y[s]) of such a sample was one class shorter and nothing named the pool's)."""
    import sklearn_confusion_ext as sce

    y = np.array(["a"] * 8 + ["b"] * 2)
    samples = sce.prevalence_protocol_samples(y, n_samples=50, sample_size=3, random_state=0)
    np.testing.assert_array_equal(samples.classes, ["a", "b"])
    vectors = [sce.prevalence(y[s], labels=samples.classes) for s in samples]
    assert all(v.shape == (2,) for v in vectors)
    assert any(v[1] == 0 for v in vectors) and any(v[1] > 0 for v in vectors)


@pytest.mark.parametrize("method", ["classify_and_count", "probabilistic_classify_and_count",
                                    "quantify"])
def test_evaluate_quantifier_equals_the_loop_it_replaces(method):
    """Every error on every sample, as the loop over prevalence_protocol_samples a user
    writes by hand gives them (smoothing eps = 1 / (2 * sample size))."""
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    import sklearn_confusion_ext as sce

    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    pool_X, pool_y = X[1::2], y[1::2]

    def quantify(rows):
        return np.bincount(model.predict(rows), minlength=3) / len(rows)

    quantifier = quantify if method == "quantify" else model
    result = sce.evaluate_quantifier(quantifier, pool_X, pool_y, method=method, n_samples=20,
                                     sample_size=25, random_state=3)
    samples = sce.prevalence_protocol_samples(pool_y, n_samples=20, sample_size=25,
                                              protocol="artificial", random_state=3)
    true, predicted = [], []
    for s in samples:
        true.append(sce.prevalence(pool_y[s], labels=[0, 1, 2]))
        if method == "probabilistic_classify_and_count":
            predicted.append(model.predict_proba(pool_X[s]).mean(axis=0))
        else:
            predicted.append(sce.prevalence(model.predict(pool_X[s]), labels=[0, 1, 2]))
    np.testing.assert_allclose(result.true_prevalence, true)
    np.testing.assert_allclose(result.predicted_prevalence, predicted)
    for name in ("absolute_error", "kl_divergence", "normalized_relative_absolute_error"):
        expected = [getattr(sce, name)(t, p, eps=1 / 50) for t, p in zip(true, predicted)]
        np.testing.assert_allclose(result.errors[name], expected)
        assert result.mean()[name] == pytest.approx(np.mean(expected))
        assert result.std()[name] == pytest.approx(np.std(expected, ddof=1))
    assert len(result.errors) == 11 and "mean" in repr(result)
    pandas = pytest.importorskip("pandas")
    frame = result.to_frame()
    assert isinstance(frame, pandas.DataFrame)
    assert frame.loc["absolute_error", "mean"] == pytest.approx(
        result.mean()["absolute_error"])


def test_evaluate_quantifier_refuses_labels_missing_a_class_and_a_short_vector():
    import sklearn_confusion_ext as sce

    X, y = np.arange(12.0)[:, None], [0, 1, 2] * 4
    with pytest.raises(ValueError, match=r"leave out the classes \[2\]"):
        sce.evaluate_quantifier(lambda rows: [0.5, 0.5], X, y, labels=[0, 1], n_samples=2)
    with pytest.raises(ValueError, match="returned 2 prevalences for 3 classes"):
        sce.evaluate_quantifier(lambda rows: [0.5, 0.5], X, y, n_samples=2)


QUANTIFIER_OUTPUTS = {  # what a quantifier returned, and what the message must say of it
    "dict": ({0: 0.2, 1: 0.3, 2: 0.5}, r"returned dict \{0: 0\.2, 1: 0\.3, 2: 0\.5\}, which is "
                                        r"no vector of numbers; expected 3 prevalences"),
    "strings": (["a", "b", "c"], r"returned list \['a', 'b', 'c'\], which is no vector"),
    "None": (None, r"returned None for 3 classes"),
    "short": ([0.5, 0.5], r"returned 2 prevalences for 3 classes"),
    "matrix": (np.eye(3) / 3, r"returned an array of shape \(3, 3\)"),
    "negative": ([-0.1, 0.6, 0.5], r"returned negative prevalences \[-0\.1, 0\.6, 0\.5\]"),
    "nan": ([np.nan, 0.5, 0.5], r"returned non-finite prevalences \[nan, 0\.5, 0\.5\]"),
    "counts": ([10, 10, 10], r"returned prevalences \[10\.0, 10\.0, 10\.0\] summing to 30"),
}


class _Quantifier:
    def __init__(self, output):
        self.output = output

    def quantify(self, X):
        return self.output


@pytest.mark.parametrize("output", sorted(QUANTIFIER_OUTPUTS))
@pytest.mark.parametrize("form", ["callable", "quantify"])
def test_a_bad_quantifier_output_is_named_as_the_user_passed_it(output, form):
    # named p_pred (an argument of the errors, not of evaluate_quantifier), or a bare
    # float() error for a dict or strings
    import sklearn_confusion_ext as sce

    returned, match = QUANTIFIER_OUTPUTS[output]
    quantifier = (lambda rows: returned) if form == "callable" else _Quantifier(returned)
    source = r"quantifier\(X\) " if form == "callable" else r"quantifier\.quantify\(X\) "
    X, y = np.arange(12.0)[:, None], [0, 1, 2] * 4
    with pytest.raises(ValueError, match="^" + source + match) as caught:
        sce.evaluate_quantifier(quantifier, X, y, n_samples=2, random_state=0)
    message = str(caught.value)
    assert "over the classes [0, 1, 2], in their order" in message, message
    assert "p_pred" not in message and "p_true" not in message


class _Classifier(BaseEstimator):
    """A fitted classifier whose predictions are given."""

    def __init__(self, predict=None, predict_proba=None, classes=(0, 1, 2)):
        self.classes_ = np.asarray(classes)
        self._predict, self._predict_proba = predict, predict_proba
        self.calls = 0

    def fit(self, X, y):  # scikit-learn's check_is_fitted asks for one
        return self

    def predict(self, X):
        self.calls += 1
        return self._predict(len(X))

    def predict_proba(self, X):
        self.calls += 1
        return self._predict_proba(len(X))


CLASSIFIER_OUTPUTS = {  # (method, classifier, the message)
    "labels of no class": ("classify_and_count", _Classifier(lambda n: np.full(n, 7)),
                           r"quantifier\.predict\(X\) returned labels \[7\] that are not among "
                           r"the classes \[0, 1, 2\]"),
    "a label too many": ("classify_and_count", _Classifier(lambda n: np.zeros(n + 1, int)),
                         r"quantifier\.predict\(X\) returned an array of shape \(7,\) for 6 "
                         r"rows of X"),
    "a column short": ("probabilistic_classify_and_count",
                       _Classifier(predict_proba=lambda n: np.full((n, 2), 0.5)),
                       r"quantifier\.predict_proba\(X\) returned an array of shape \(6, 2\); "
                       r"expected an array of shape \(6, 3\)"),
    "negative": ("probabilistic_classify_and_count",
                 _Classifier(predict_proba=lambda n: -np.ones((n, 3))),
                 r"quantifier\.predict_proba\(X\) returned negative probabilities"),
    "nan": ("probabilistic_classify_and_count",
            _Classifier(predict_proba=lambda n: np.full((n, 3), np.nan)),
            r"quantifier\.predict_proba\(X\) returned non-finite probabilities"),
    "zeros": ("probabilistic_classify_and_count",
              _Classifier(predict_proba=lambda n: np.zeros((n, 3))),
              r"quantifier\.predict_proba\(X\) gives the classes \[0, 1, 2\] no probability"),
}


@pytest.mark.parametrize("case", sorted(CLASSIFIER_OUTPUTS))
def test_a_bad_classifier_output_is_named_as_the_user_passed_it(case):
    # an IndexError (a column short), p_pred (NaN, zeros), "None of labels ... appear in y"
    # (labels of no class); a prediction too many and negative probabilities were accepted
    import sklearn_confusion_ext as sce

    method, classifier, match = CLASSIFIER_OUTPUTS[case]
    X, y = np.arange(12.0)[:, None], [0, 1, 2] * 4
    with pytest.raises(ValueError, match=match):
        sce.evaluate_quantifier(classifier, X, y, method=method, n_samples=2, sample_size=6,
                                random_state=0)


@pytest.mark.parametrize("case", sorted(CLASSIFIER_OUTPUTS))
def test_the_quantification_scorer_names_a_bad_estimator_output(case):
    import sklearn_confusion_ext as sce

    method, classifier, match = CLASSIFIER_OUTPUTS[case]
    scorer = sce.make_quantification_scorer(sce.absolute_error, method=method)
    with pytest.raises(ValueError, match=match.replace("quantifier", "estimator")):
        scorer(classifier, np.zeros((6, 1)), np.array([0, 1, 2] * 2))


@pytest.mark.parametrize("method, missing", [("quantify", "quantify"),
                                             ("probabilistic_classify_and_count",
                                              "predict_proba")])
def test_a_method_the_quantifier_lacks_is_refused_before_any_sample(method, missing):
    import sklearn_confusion_ext as sce

    class OnlyPredict:
        calls = 0

        def predict(self, X):
            OnlyPredict.calls += 1
            return np.zeros(len(X), int)

    with pytest.raises(TypeError, match=rf"method='{method}' .*quantifier\.{missing}"):
        sce.evaluate_quantifier(OnlyPredict(), np.zeros((6, 1)), [0, 1, 2] * 2, method=method,
                                n_samples=2)
    assert OnlyPredict.calls == 0


def test_project_prevalence_reproduces_example_2():
    np.testing.assert_allclose(sce.project_prevalence([0.32, 0.00, 0.48, 0.20], [0, 1, 2]),
                               [0.40, 0.00, 0.60])
    rows = sce.project_prevalence([[0.32, 0.00, 0.48, 0.20], [0.1, 0.2, 0.3, 0.4]], [3, 0])
    np.testing.assert_allclose(rows, [[0.2 / 0.52, 0.32 / 0.52], [0.8, 0.2]])


@pytest.mark.parametrize("classes, match", [
    ([0, 0], "distinct positions"), ([4], "distinct positions"), ([-1], "distinct"),
    ([], "distinct"), (list(range(10 ** 5)), "distinct"), ([1], "no mass")])
def test_project_prevalence_refuses_a_bad_sub_codeframe(classes, match):
    with pytest.raises(ValueError, match=match) as error:
        sce.project_prevalence([0.32, 0.00, 0.48, 0.20], classes)
    assert len(str(error.value)) < 500


def test_project_prevalence_names_its_argument():
    with pytest.raises(ValueError, match="^p must sum to 1"):
        sce.project_prevalence([0.5, 0.6], [0])
