"""The Bayesian signed-rank test of two models over several data sets.

Benavoli, Mangili, Corani, Zaffalon and Ruggeri (ICML 2014); Benavoli, Corani, Demsar and
Zaffalon, "Time for a change" (JMLR 18, 2017, Section 5): a Dirichlet process posterior on
the distribution of the per-data-set differences, with a prior pseudo-observation at 0,
read as the probabilities that model a is better, that the two are practically equivalent
(within ``rope``), and that model b is better.
"""

from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np

from .._core.config import check_result_size
from .._core.params import (
    ARRAY,
    BOOLEAN,
    RANDOM_STATE,
    Interval,
    quoted,
    validate_params,
)
from .._core.results import Result, _result
from .dataset_scores import N_DRAWS, PROBABILITIES, ROPE, _table, _two_models, _winning_shares

# Dirichlet weights are drawn and summed in blocks of this many samples (bounded memory),
# a block of at most _BLOCK_BYTES (where there are more than 2,000 data sets).
_BLOCK = 4096
_BLOCK_BYTES = 64 * 2 ** 20
# The former names of the keywords (one release of grace).
RENAMED = {"names": "models", "n_samples": "n_draws"}


@_result(parameters={
    **PROBABILITIES, "rope": ROPE, "samples": [ARRAY],
    "prior_strength": [Interval(Real, 0, None, closed="neither")], "models": [tuple],
    "n_datasets": [Interval(Integral, 2, None)]})
class BayesianSignedRankResult(Result):
    """Result of :func:`bayesian_signed_rank_test`.

    Unpacks to three probabilities whatever ``rope``:
    ``p_a_better, p_rope, p_b_better = result`` (``p_rope`` is 0 where ``rope`` is 0).

    Attributes
    ----------
    p_a_better, p_rope, p_b_better : float
        The posterior probability that model a is better, that the two are practically
        equivalent, and that model b is better: the share of the posterior samples in which
        that region holds the largest mass, a sample whose largest mass two regions share
        counting half to each (0 for ``p_rope`` where ``rope`` is 0).
    rope : float
        Half-width of the region of practical equivalence, in units of the score.
    samples : ndarray of shape (n_draws, 3)
        The posterior samples of the masses ``(a better, equivalent, b better)``: where
        a sample of the distribution of the differences puts ``(a - b + a' - b') / 2``
        (over pairs of data sets, the pseudo-observation included).
    prior_strength : float
        The weight of the prior pseudo-observation at difference 0.
    models : tuple of str
        The names of model a and model b.
    n_datasets : int
        The number of data sets.

    See Also
    --------
    bayesian_signed_rank_test : The test that returns it.
    BayesianHierarchicalResult : The hierarchical test's result, read alike.
    ComparisonSimplexDisplay : Draws ``samples`` on the triangle of the three regions.

    Examples
    --------
    >>> from sklearn_confusion_ext import bayesian_signed_rank_test
    >>> a = [0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87]
    >>> b = [0.89, 0.86, 0.74, 0.85, 0.90, 0.69, 0.80, 0.95, 0.60, 0.84]
    >>> p_a_better, p_rope, p_b_better = bayesian_signed_rank_test(a, b, rope=0.01,
    ...                                                             random_state=0)
    >>> round(p_a_better, 2), round(p_rope, 2), round(p_b_better, 2)
    (0.99, 0.01, 0.0)
    """

    _: KW_ONLY
    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    samples: object
    prior_strength: float
    models: tuple
    n_datasets: int

    _summary_fields = ("p_a_better", "p_rope", "p_b_better", "rope", "models",
                       "n_datasets")
    _unpacked = ("p_a_better", "p_rope", "p_b_better")



def _heaviside(values, threshold):
    """1 above ``threshold``, 1/2 at it, 0 below (the signed-rank test's indicator)."""
    return (values > threshold) + 0.5 * (values == threshold)


def _signed_rank_masses(differences, weights, rope):
    """The masses ``(above rope, within, below -rope)`` of each Dirichlet weight vector
    (rows of ``weights``, the first for the pseudo-observation at 0) on the Walsh averages
    ``(z_i + z_j) / 2`` of the differences ``z`` (0 prepended)."""
    z = np.concatenate([[0.0], differences])
    sums = z[:, None] + z[None, :]
    # 2 * rope in Python floats: inf beyond 9e307 (every finite sum within), where a NumPy
    # scalar's product warned of an overflow
    above = _heaviside(sums, 2 * float(rope))
    below = _heaviside(-sums, 2 * float(rope))
    mass_above = np.einsum("si,ij,sj->s", weights, above, weights)
    mass_below = np.einsum("si,ij,sj->s", weights, below, weights)
    within = 1.0 - mass_below - mass_above if rope > 0 else np.zeros_like(mass_above)
    return np.column_stack([mass_above, within, mass_below])


@validate_params({
    "scores_a": [ARRAY], "scores_b": [ARRAY], "rope": ROPE,
    "prior_strength": [Interval(Real, 0, None, closed="neither")], "n_draws": N_DRAWS,
    "greater_is_better": [BOOLEAN], "random_state": RANDOM_STATE, "models": [None, ARRAY]},
    renamed=RENAMED)
def bayesian_signed_rank_test(scores_a, scores_b, *, rope=0.0, prior_strength=0.5,
                              n_draws=50000, greater_is_better=True, random_state=None,
                              models=None):
    """Bayesian signed-rank test of two models over several data sets.

    Benavoli, Corani, Demsar and Zaffalon ("Time for a change", JMLR 2017, Section 5; the
    test of Benavoli et al., ICML 2014): the distribution of the per-data-set differences
    ``z = a - b`` gets a Dirichlet process posterior, the data plus one prior
    pseudo-observation at ``z = 0`` of weight ``prior_strength``. Each posterior sample
    weighs the observations by Dirichlet weights ``w`` and puts the mass
    ``sum_ij w_i w_j [z_i + z_j > 2 rope]`` on "model a better" (the signed-rank statistic's
    posterior), likewise below ``-2 rope`` for model b, and the rest on practical
    equivalence. The probabilities reported are the shares of samples in which each region
    holds the largest mass, as in ``baycomp``; a sample in which two regions hold the same
    largest mass counts half to each (baycomp's rounding and NumPy's argmax gave it to
    model a: identical models read "a better" with probability 0.68 and 1).

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_datasets,)
        One score per data set for each model (e.g. its mean cross-validation score), in
        the same order: two columns of the table of :func:`friedman_test`.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in units of the score (0.01:
        one point of accuracy). With 0, ``p_rope`` is 0 and there is no equivalence to
        conclude (see Notes).
    prior_strength : float, default=0.5
        Weight of the prior pseudo-observation at 0 (``baycomp``'s ``prior``).
    n_draws : int, default=50000
        Posterior draws; the probabilities' Monte Carlo standard error is at most
        ``0.5 / sqrt(n_draws)`` (0.002 by default). Draws above the memory budget
        (``max_matrix_mib``, :func:`set_config`) are refused before any is made (formerly
        ``n_samples=``, which still works with a ``FutureWarning``).
    greater_is_better : bool, default=True
        Whether a higher score is better (False: the differences change sign).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the Dirichlet samples.
    models : tuple of two str, default=None
        The models' names; the Series' names of pandas inputs, else ``("a", "b")``
        (formerly ``names=``, which still works with a ``FutureWarning``).

    Returns
    -------
    BayesianSignedRankResult
        ``p_a_better``, ``p_rope``, ``p_b_better`` and the ``samples``.

    See Also
    --------
    bayesian_hierarchical_test : The same question from every fold of every data set.
    friedman_test : Several models over the data sets, on their ranks.
    compare_cv_scores : Two models on the folds of one data set (``method="bayesian"``).
    ComparisonSimplexDisplay : Draws the posterior on the triangle of the three regions.

    Notes
    -----
    The test uses the per-data-set scores only, not their cross-validation variance
    (:func:`bayesian_hierarchical_test` models the folds too). The data sets are assumed
    independent.

    Ties: a pair of data sets whose differences sum to exactly ``2 rope`` (to 0 with
    ``rope=0``) puts half its mass on each side, as the signed-rank statistic counts ties.
    Identical models (every difference 0) thus give every sample the masses
    ``(1/2, 0, 1/2)`` with ``rope=0``, so that ``p_a_better = p_b_better = 0.5``, and
    ``p_rope = 1`` with any ``rope > 0``. With ``rope=0`` tied data sets weigh equally on
    both sides and cannot count as equivalence: the data sets that differ decide every
    sample, and one data set of ten in which a is better, the nine others tied, gives
    ``p_a_better = 1``. Pass a ``rope`` (Benavoli et al. recommend one) for ties to count
    as practical equivalence.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis", Journal of
       Machine Learning Research 18, 2017, Section 5: the Bayesian signed-rank test, its
       Dirichlet process posterior with a pseudo-observation at 0 and the three regions.
    .. [2] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri, "A Bayesian
       Wilcoxon signed-rank test based on the Dirichlet process", ICML 2014.

    Examples
    --------
    >>> from sklearn_confusion_ext import bayesian_signed_rank_test
    >>> a = [0.91, 0.85, 0.78, 0.88, 0.93, 0.70, 0.82, 0.95, 0.66, 0.87]
    >>> b = [0.90, 0.86, 0.78, 0.88, 0.92, 0.71, 0.82, 0.95, 0.65, 0.87]
    >>> result = bayesian_signed_rank_test(a, b, rope=0.02, random_state=0,
    ...                                    models=("forest", "boosting"))
    >>> round(result.p_rope, 2)  # practically equivalent within 2 points
    1.0
    """
    arrays = []
    default_names = []
    for name, scores in (("scores_a", scores_a), ("scores_b", scores_b)):
        default_names.append(getattr(scores, "name", None))
        try:
            array = np.asarray(scores, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold one number per data set; got "
                            f"{quoted(scores)}.") from None
        if array.ndim != 1:
            raise ValueError(f"{name} must be 1-D, one score per data set; got shape "
                             f"{array.shape}.")
        arrays.append(array)
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"scores_a and scores_b must hold the scores of the same data sets; "
                         f"got {arrays[0].size} and {arrays[1].size} scores.")
    table = np.column_stack(arrays)
    if models is None:
        names = tuple(str(n) if n is not None else default
                      for n, default in zip(default_names, ("a", "b")))
        if names[0] == names[1]:
            names = ("a", "b")
    else:
        names = _two_models(models, None)
    values, models, _ = _table(table, greater_is_better, names,
                               name="scores_a and scores_b")
    differences = values[:, 0] - values[:, 1]
    n_walsh = differences.size + 1
    # The result's samples and the two indicators of the Walsh averages, before any draw.
    n_samples = n_draws
    check_result_size("bayesian_signed_rank_test", (3 * n_samples + 2 * n_walsh ** 2,),
                      f"n_draws={n_samples} posterior draws of 3 masses, and two "
                      f"{n_walsh} x {n_walsh} tables of the data sets' pairs",
                      remedy="Ask for fewer posterior draws (n_draws=)"
                      if 3 * n_samples >= 2 * n_walsh ** 2 else "Compare fewer data sets")
    # A block of Dirichlet weights takes at most _BLOCK_BYTES.
    block = max(1, min(_BLOCK, _BLOCK_BYTES // (8 * n_walsh)))
    rng = np.random.default_rng(random_state)
    alphas = np.concatenate([[prior_strength], np.ones(differences.size)])
    samples = np.empty((n_samples, 3))
    for start in range(0, n_samples, block):
        stop = min(n_samples, start + block)
        weights = rng.dirichlet(alphas, stop - start)
        samples[start:stop] = _signed_rank_masses(differences, weights, rope)
    # The region of the largest mass wins; regions of equal largest mass share the sample.
    a_better, p_rope, b_better = (float(p) for p in _winning_shares(samples))
    return BayesianSignedRankResult(
        p_a_better=a_better, p_rope=p_rope, p_b_better=b_better, rope=float(rope),
        samples=samples, prior_strength=float(prior_strength),
        models=models, n_datasets=int(differences.size))
