"""What the comparisons over several data sets share: the table of scores (one row per data
set, one column per model) checked once, the models' names, and the reading of a
posterior's three regions (a better, practically equivalent, b better) that the signed-rank
and the hierarchical tests both report.

The bottom of :mod:`.friedman`, :mod:`.signed_rank` and :mod:`.hierarchical`; it imports
none of them.
"""

from numbers import Integral, Real

import numpy as np

from .._core.params import Interval, quoted

# The probabilities of the three regions and the half-width of the middle one, as the
# Bayesian tests over data sets report them; their posterior draws (at least 100).
PROBABILITIES = {name: [Interval(Real, 0, 1)] for name in ("p_a_better", "p_rope",
                                                          "p_b_better")}
ROPE = [Interval(Real, 0, None)]
N_DRAWS = [Interval(Integral, 100, None)]


def _table(scores, greater_is_better, names, name="scores"):
    """``(values, models, datasets)``: the (n_datasets, n_models) float array of ``scores``
    oriented so that higher is better, the models' names (``names``, the ``models=`` of the
    public functions, else a DataFrame's columns) and the data sets' names."""
    models = datasets = None
    if hasattr(scores, "columns") and hasattr(scores, "index"):  # a pandas DataFrame
        models = [str(column) for column in scores.columns]
        datasets = [str(index) for index in scores.index]
        scores = scores.to_numpy()
    try:
        values = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a table of numbers (n_datasets, n_models); got "
                        f"{quoted(scores)}.") from None
    if values.ndim != 2:
        raise ValueError(f"{name} must be 2-D, one row per data set and one column per "
                         f"model; got shape {values.shape}.")
    n_datasets, n_models = values.shape
    if n_models < 2:
        raise ValueError(f"{name} must hold at least 2 models (columns) to compare; got "
                         f"{n_models}.")
    if n_datasets < 2:
        raise ValueError(f"{name} must hold at least 2 data sets (rows); got {n_datasets}. "
                         "A comparison on one data set is a paired test of its folds "
                         "(compare_cv) or of its predictions (compare_scores).")
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"{name} has {values[i, j]} at data set {i}, model {j} "
                         f"({len(bad)} non-finite score(s)): every model needs a score on "
                         "every data set.")
    if names is not None:
        names = [str(model) for model in names]
        if len(names) != n_models:
            raise ValueError(f"models must name the {n_models} models (columns of {name}); "
                             f"got {len(names)} names.")
        models = names
    if models is None:
        models = [f"model {j}" for j in range(n_models)]
    if len(set(models)) != n_models:
        raise ValueError(f"The models' names must be distinct; got {models}.")
    return (values if greater_is_better else -values), tuple(models), (
        None if datasets is None else tuple(datasets))


def _two_models(models, default):
    """The two models' names: ``models`` checked (two of them), else ``default``."""
    if models is None:
        return default
    if len(models) != 2:
        raise ValueError(f"models must name the two models; got {len(models)} names.")
    return tuple(str(model) for model in models)


def _winning_shares(samples):
    """The share of the rows of ``samples`` (masses of the regions: a better, equivalent, b
    better) in which each region holds the largest mass, a row whose largest mass two or
    three regions share exactly counting 1/2 or 1/3 to each.

    Benavoli et al. (2017, Section 5) read the probability of a region as that of its mass
    being the largest; where masses tie (identical models: every difference 0, each side
    half the mass) no region is larger, and a tie broken towards the first region (NumPy's
    argmax, baycomp's rounding) made identical models read "a better" with probability 1.
    """
    samples = np.asarray(samples, dtype=float)
    largest = samples == samples.max(axis=1, keepdims=True)
    return (largest / largest.sum(axis=1, keepdims=True)).mean(axis=0)

