"""Resampled confusion matrices: the bootstrap's instance weights and the full matrices of
many resamples at once.

Every matrix here is a sum over instances, linear in each instance's weight, so the
matrices of ``B`` resamples of the instances (their rows of instance weights) are products
of the ``(B, n)`` weight matrix with the per-instance terms of the kind
(:class:`~._core.terms.Terms`), block of rows by block of rows: no resample rebuilds the
matrix from the targets. :func:`score_confidence_interval`, :func:`compare_scores` and the
reports' intervals all draw and build here.
"""

import numpy as np

from ._core.array_api import foreign_namespace
from ._core.arrays import as_float, dense
from ._core.config import check_result_size
from ._core.dask_collections import is_dask_collection
from ._core.terms import Terms, batched_term_sums
from ._core.validation import check_targets
from ._transport import DEFICIT_TOLERANCE, TRANSPORT, _split

# Entries of one block's dense outer products (the block's rows times C * C): 32 MiB.
_OUTER_ENTRIES = 1 << 22
# Entries of one batch of instance weights (resamples times instances): 64 MiB.
_WEIGHT_ENTRIES = 1 << 23


def instance_weights(rng, n_samples, n_resamples, bayesian):
    """Batches of rows of resampled instance weights, 64 MiB at most each: how many times
    the bootstrap draws each instance (or the Bayesian bootstrap's Dirichlet weights,
    scaled to sum to ``n_samples``)."""
    batch = max(1, _WEIGHT_ENTRIES // n_samples)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        if bayesian:
            yield rng.dirichlet(np.ones(n_samples), size=size) * n_samples
        else:
            yield np.stack([np.bincount(rng.integers(0, n_samples, n_samples),
                                        minlength=n_samples) for _ in range(size)]
                           ).astype(float)


def swap_indicators(rng, n_samples, n_resamples):
    """Batches of rows of 0/1 indicators, 64 MiB at most each: which instances of a paired
    comparison swap their two predictions (each with probability 1/2)."""
    batch = max(1, _WEIGHT_ENTRIES // n_samples)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        yield (rng.random((size, n_samples)) < 0.5).astype(float)


def batches_terms(kind, y_true, y_pred):
    """Whether :func:`resampled_matrices` builds ``kind`` over these targets (in-memory
    targets of NumPy, scipy.sparse, pandas or lists, and a kind written as terms)."""
    return (_terms_of(kind) is not None and foreign_namespace(y_true, y_pred) is None
            and not is_dask_collection(y_true, y_pred))


def resampled_matrices(kind, params, y_true, y_pred, sample_weight, weights, owner,
                       column_labels=None):
    """The full matrices of ``kind`` (with ``params``) under each row of instance
    ``weights`` (times ``sample_weight``), shape ``(n_weights, width, width)``; the block's
    dense outer products take at most 32 MiB."""
    targets = check_targets(y_true, y_pred, sample_weight=sample_weight,
                            column_labels=column_labels)
    instances = kind.instances(targets, {**kind.parameters, **params})
    n_classes, has_none = instances.n_classes, instances.has_none
    width = n_classes + has_none
    check_result_size(owner, (len(weights), width, width),
                      f"{len(weights)} resampled matrices of {width} x {width} classes",
                      "Pass fewer n_resamples")
    result = np.zeros((len(weights), n_classes + 1, n_classes + 1))
    terms = _terms_of(kind)(params)
    step = max(1, _OUTER_ENTRIES // (n_classes * n_classes))
    for start in range(0, targets.n_samples, step):
        rows = slice(start, min(targets.n_samples, start + step))
        arguments, _ = instances.read(rows)
        batched_term_sums(terms(*arguments), weights[:, rows], result)
    return result if has_none else result[:, :n_classes, :n_classes]


def _terms_of(kind):
    if kind is TRANSPORT:
        return lambda params: _plan_terms
    return kind.terms


def _plan_terms(u, v, weights, true_empty, pred_empty):
    """The transport plans of a block (Erbani et al. 2024, equation 8) as terms: the common
    mass on the diagonal, each deficit sent to the excess in proportion (the outer product
    of the deficit, over its mass, with the excess), an empty side on "none"."""
    common, deficit, excess = (dense(part) for part in _split(u, v))
    mass = deficit.sum(axis=1)
    scale = np.divide(weights, mass, out=np.zeros_like(mass), where=mass > DEFICIT_TOLERANCE)
    return Terms(diagonal=(common, weights), off_diagonal=(deficit, scale, excess),
                 none_row=(excess, weights * as_float(true_empty & ~pred_empty)),
                 none_column=(deficit, weights * as_float(pred_empty & ~true_empty)),
                 corner=weights * as_float(true_empty & pred_empty))
