"""The Bayesian signed-rank test of two models over several data sets (Benavoli, Corani,
Demsar and Zaffalon, JMLR 2017): against baycomp, its orientation and reproducibility, and
the shares of tied regions."""

import math

import numpy as np
import pytest
from test_friedman import TEN

import sklearn_confusion_ext as sce


def test_bayesian_signed_rank_posterior_masses_equal_baycomps_on_its_weights():
    baycomp = pytest.importorskip("baycomp")
    from sklearn_confusion_ext._statistics.signed_rank import _signed_rank_masses

    rng = np.random.default_rng(0)
    a = rng.uniform(0.6, 0.9, 12)
    b = a - 0.01 + rng.normal(0, 0.02, 12)
    for rope in (0.0, 0.01):
        reference = baycomp.SignedRankTest.sample(a, b, rope, prior=0.5, nsamples=500,
                                                  random_state=4)
        weights = np.random.RandomState(4).dirichlet(np.r_[0.5, np.ones(12)], 500)
        np.testing.assert_allclose(_signed_rank_masses(a - b, weights, rope), reference,
                                   atol=1e-12)


@pytest.mark.parametrize("shift, rope", [(0.01, 0.01), (0.02, 0.0)])
def test_bayesian_signed_rank_against_baycomp(shift, rope):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(7)
    a = rng.uniform(0.6, 0.95, 15)
    b = a - shift + rng.normal(0, 0.02, 15)
    ours = sce.bayesian_signed_rank_test(a, b, rope=rope, random_state=0)
    test = baycomp.SignedRankTest(a, b, rope, nsamples=50000, random_state=0)
    # baycomp's three shares (p_rope 0 where rope is 0): the order ours unpacks to
    expected = test.probs(with_rope=True)
    # Monte Carlo: two independent estimates of 50,000 samples each, 5 standard errors
    assert tuple(ours) == pytest.approx(expected, abs=5 * math.sqrt(0.5 / 50000))
    assert len(ours) == 3 and (rope > 0 or ours.p_rope == 0)
    assert sum(ours) == pytest.approx(1.0)


def test_bayesian_signed_rank_is_reproducible_and_oriented():
    a = np.array([0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87])
    b = a - 0.02
    first = sce.bayesian_signed_rank_test(a, b, rope=0.005, random_state=3, n_draws=2000)
    again = sce.bayesian_signed_rank_test(a, b, rope=0.005, random_state=3, n_draws=2000)
    assert tuple(first) == tuple(again) and first.p_a_better > 0.95
    swapped = sce.bayesian_signed_rank_test(b, a, rope=0.005, random_state=3, n_draws=2000)
    assert swapped.p_b_better == first.p_a_better
    losses = sce.bayesian_signed_rank_test(-a, -b, rope=0.005, random_state=3,
                                           n_draws=2000, greater_is_better=False)
    assert tuple(losses) == tuple(first)
    wide = sce.bayesian_signed_rank_test(a, b, rope=0.05, random_state=3, n_draws=2000)
    assert wide.p_rope == 1.0


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_bayesian_signed_rank_of_identical_models_favours_neither(greater_is_better):
    # every sample's masses tie at (1/2, 0, 1/2): the tie went to a (argmax), P(a) = 1.0
    result = sce.bayesian_signed_rank_test(TEN, TEN, random_state=0, n_draws=1000,
                                           greater_is_better=greater_is_better)
    assert tuple(result) == (0.5, 0.0, 0.5)
    # a's and b's masses equal in every sample, to the last bit
    np.testing.assert_array_equal(result.samples[:, 0], result.samples[:, 2])
    np.testing.assert_allclose(result.samples, np.tile([0.5, 0.0, 0.5], (1000, 1)),
                               atol=1e-14)
    within = sce.bayesian_signed_rank_test(TEN, TEN, rope=0.01, random_state=0,
                                           n_draws=1000)
    assert tuple(within) == (0.0, 1.0, 0.0)


def test_bayesian_signed_rank_one_differing_dataset_decides_every_sample():
    # the documented reading of rope=0: nine ties weigh alike on both sides, so the one
    # data set that differs decides each sample, in its own direction (as baycomp)
    for shift, expected in ((0.01, (0.0, 0.0, 1.0)), (-0.01, (1.0, 0.0, 0.0))):
        b = TEN.copy()
        b[3] += shift
        result = sce.bayesian_signed_rank_test(TEN, b, random_state=0, n_draws=1000)
        assert tuple(result) == expected
        assert (result.samples[:, 2] > result.samples[:, 0]).all() == (shift > 0)
        mirrored = sce.bayesian_signed_rank_test(b, TEN, random_state=0, n_draws=1000)
        assert tuple(mirrored) == expected[::-1]
    # with a rope, the ties count as equivalence
    b = TEN.copy()
    b[3] += 0.01
    assert sce.bayesian_signed_rank_test(TEN, b, rope=0.02, random_state=0,
                                         n_draws=1000).p_rope == 1.0


def test_tied_regions_share_the_sample():
    from sklearn_confusion_ext._statistics.dataset_scores import _winning_shares

    samples = [[0.5, 0.0, 0.5], [0.2, 0.6, 0.2], [0.7, 0.1, 0.2], [0.4, 0.4, 0.2],
               [1 / 3, 1 / 3, 1 / 3]]
    np.testing.assert_allclose(_winning_shares(samples), np.array(
        [0.5 + 1 + 0.5 + 1 / 3, 1 + 0.5 + 1 / 3, 0.5 + 1 / 3]) / 5, rtol=1e-15)
