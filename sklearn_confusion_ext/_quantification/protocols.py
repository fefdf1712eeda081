"""Sampling protocols: the test samples on which a quantifier is evaluated, at the pool's
prevalence or at prevalences drawn across the simplex (Sebastiani 2020, Sections 5.3, 6)."""

import numpy as np

from .._core.config import resample_block
from .._core.params import ARRAY, POSITIVE_INT, RANDOM_STATE, Options, validate_params
from .._core.targets import check_target_set

# The two protocols of Section 6: samples at the pool's prevalence, or at prevalences drawn
# uniformly from the simplex (the artificial-prevalence protocol).
PROTOCOL = [Options("natural", "artificial")]


@validate_params({"y": [ARRAY], "n_samples": [POSITIVE_INT], "sample_size": [None, POSITIVE_INT],
                  "protocol": PROTOCOL, "random_state": RANDOM_STATE})
def prevalence_protocol_samples(y, *, n_samples=100, sample_size=None, protocol="natural",
                                random_state=None):
    """Index arrays of test samples for evaluating quantifiers over many samples (Section 5.3).

    The two protocols that Section 6 of the paper contrasts: ``"natural"`` samples show
    the prevalence of the pool up to sampling noise; ``"artificial"`` first draws a
    prevalence vector uniformly from the simplex, then that many elements of each class
    (with replacement when a class is too small), the artificial-prevalence protocol of
    the quantification literature.

    A natural sample smaller than the pool is drawn without replacement (distinct
    elements, as a real test set holds), so a class of prevalence ``p`` in a pool of
    ``N`` has, in a sample of ``n``, a share of variance ``p (1 - p) / n * (N - n) /
    (N - 1)`` (hypergeometric). A sample as large as the pool, or larger, is drawn with
    replacement: without, every sample of ``N`` would be the pool itself, of one
    prevalence. The default ``sample_size`` is the size of the pool, so by default each
    natural sample is a bootstrap resample of the pool: its shares vary with variance
    ``p (1 - p) / N`` (binomial), as those of a fresh test set of the same size from a
    population of the pool's prevalence would, and the errors are on the scale of the
    user's own test set. A smaller ``sample_size`` gives smaller samples, whose spread
    shrinks to zero as the size nears the pool's (they then hold almost the whole pool):
    for samples that vary as fresh test sets would, keep the default or a size well below
    the pool's.

    Parameters
    ----------
    y : array-like of shape (n_elements,)
        1-D class labels of the pool.
    n_samples : int, default=100
        Number of samples.
    sample_size : int, default=None
        Elements per sample; by default the size of ``y`` (drawn with replacement).
    protocol : {"natural", "artificial"}, default="natural"
    random_state : int, numpy.random.Generator or None, default=None

    Returns
    -------
    iterator of ndarray of int
        ``n_samples`` arrays of positions into ``y``, one per sample, drawn lazily; its
        ``classes`` attribute holds the pool's classes, sorted, for
        ``prevalence(y[sample], labels=samples.classes)``: a sample that lacks a class
        keeps its place in the vector (0), so the vectors of all samples align. The
        parameters and ``y`` are checked when the function is called, not at the first
        ``next()``: a ``sample_size`` whose one sample (8 bytes a position) is above the
        package's budget ``max_matrix_mib`` (:func:`set_config`) is refused with a
        ``ValueError``; ``n_samples`` costs no memory, the samples being drawn one at a time.

    See Also
    --------
    evaluate_quantifier : Scores a quantifier on each sample.
    prevalence : The prevalence vector of a sample.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: evaluation over many samples, Section
    5.3; the natural and artificial protocols, Section 6.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import prevalence_protocol_samples
    >>> y = np.array([0] * 70 + [1] * 30)
    >>> samples = prevalence_protocol_samples(y, n_samples=5, random_state=0)
    >>> [float(np.mean(y[s] == 0)) for s in samples]  # the pool's 0.7, up to noise
    [0.7, 0.59, 0.65, 0.68, 0.68]
    >>> samples = list(prevalence_protocol_samples(y, n_samples=3, sample_size=10,
    ...                                            protocol="artificial", random_state=0))
    >>> [len(s) for s in samples]
    [10, 10, 10]

    A sample that lacks a class keeps the full class vector with the protocol's classes:

    >>> from sklearn_confusion_ext import prevalence
    >>> y = np.array(["a"] * 8 + ["b"] * 2)
    >>> samples = prevalence_protocol_samples(y, n_samples=1, sample_size=3, random_state=1)
    >>> prevalence(y[next(samples)], labels=samples.classes)
    array([1., 0.])

    :func:`evaluate_quantifier` draws the samples and scores a quantifier on each in one call.
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError(f"y must be non-empty 1-D class labels; got shape {y.shape}.")
    # checked as every function checks labels (a missing label, strings beside numbers, NaN)
    targets = check_target_set({"y": y}, one_hot=False)
    classes, codes = np.asarray(targets.classes), targets.codes[0]
    members = [np.flatnonzero(codes == k) for k in range(len(classes))]
    size = len(y) if sample_size is None else int(sample_size)
    # each sample is an array of `size` positions (8 bytes each, as float64): checked here,
    # before the first draw; the samples are drawn one at a time, so n_samples costs none
    resample_block("prevalence_protocol_samples", int(n_samples), size,
                   f"sample_size={size} positions", "Pass a smaller sample_size",
                   unit="sample")
    return ProtocolSamples(classes, _protocol_samples(
        len(y), members, int(n_samples), size, protocol, np.random.default_rng(random_state)))


class ProtocolSamples:
    """The samples of :func:`prevalence_protocol_samples`: an iterator of index arrays that
    also knows the pool's classes (``classes``), so that the prevalence of a sample lacking
    a class keeps the full class vector: ``prevalence(y[s], labels=samples.classes)``."""

    def __init__(self, classes, samples):
        self.classes, self._samples = classes, samples

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._samples)

    def __repr__(self):
        return f"<prevalence_protocol_samples over {len(self.classes)} classes>"


def _protocol_samples(n_elements, members, n_samples, size, protocol, rng):
    """The samples of :func:`prevalence_protocol_samples`, its arguments checked."""
    for _ in range(n_samples):
        if protocol == "natural":
            yield rng.choice(n_elements, size=size, replace=size >= n_elements)
            continue
        counts = rng.multinomial(size, rng.dirichlet(np.ones(len(members))))
        yield np.concatenate([rng.choice(pool, size=count, replace=count > len(pool))
                              for pool, count in zip(members, counts)])

