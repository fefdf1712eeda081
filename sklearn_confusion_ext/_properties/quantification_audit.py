"""Property audit of quantification error measures (Sebastiani 2020, Section 3).

:func:`audit_quantification_measure` searches random scenarios, shaped like the paper's
Appendix B counterexamples, for violations of the eight properties of Table 1.
"""

import sys
import time
from numbers import Integral

import numpy as np

from .._core.config import check_result_size
from .._core.params import (
    ARRAY,
    CALLABLE,
    NON_NEGATIVE_INT,
    POSITIVE_INT,
    RANDOM_STATE,
    Interval,
    check_value,
    validate_params,
)
from .._quantification.errors import project_prevalence
from .audit import AuditResult, checked_measure_value

QUANTIFICATION_PROPERTIES = ("IoI", "NN", "MAX", "MON", "IMP", "REL", "ABS", "IND")
_EQUAL = 1e-9  # relative tolerance of "equal" values
# MAX holds "at a first approximation" for NKLD (footnote 14): maxima within 0.1 %.
_MAX_TOLERANCE = 1e-3
# A codeframe: at least two classes.
CODEFRAME_SIZE = Interval(Integral, 2, None)


@validate_params({"measure": [CALLABLE], "n_classes": [CODEFRAME_SIZE, ARRAY],
                  "n_trials": [POSITIVE_INT], "random_state": RANDOM_STATE,
                  "verbose": [NON_NEGATIVE_INT]})
def audit_quantification_measure(measure, *, n_classes=(2, 3, 4), n_trials=2000,
                                 random_state=None, verbose=0):
    """Check a quantification error measure for the properties of Sebastiani (2020).

    Parameters
    ----------
    measure : callable
        ``measure(p_true, p_pred) -> float``, an error (lower is better) on prevalence
        vectors. Fix its smoothing first, e.g. ``lambda p, q: kl_divergence(p, q,
        eps=1e-12)``.
    n_classes : int or sequence of int, default=(2, 3, 4)
        Codeframe sizes to test, each at least 2 (``IND`` needs one of at least 3).
    n_trials : int, default=2000
        Random scenarios per property and codeframe size.
    random_state : int, numpy.random.Generator or None, default=None
    verbose : int, default=0
        Print progress (each codeframe size, the evaluations so far and the time taken) on
        standard error.

    Returns
    -------
    AuditResult
        Mapping from "IoI", "NN", "MAX", "MON", "IMP", "REL", "ABS", "IND" to bool;
        ``.counterexamples`` gives, for each failure, the distributions and values.

    See Also
    --------
    audit_measure : The properties of classification measures (Gösgens et al.).
    max_quantification_error : The largest error of a true distribution (MAX).
    project_prevalence : The projection that IND compares (Property 8).

    Notes
    -----
    * IoI: ``D(p, p) = 0`` and ``D(p, q) > 0`` for ``q != p``. NN: ``D >= 0``.
    * MAX: the largest error over predictions (the vertices of the simplex and random
      points) is the same for every true distribution and codeframe, within 0.1 % (the
      paper's "first approximation" for NKLD, whose maximum creeps toward 1).
    * MON, IMP, REL, ABS and IND are checked in their binary forms (Properties 9-12) as the
      paper's proofs do: the scenario moves mass between two classes and every other class
      is estimated exactly (for IND: the classes outside the sub-codeframe are predicted
      at their true prevalence). Read literally, with the other classes free to vary, REL
      and IND would contradict the paper's own Table 1. The paper's Example 1, its
      illustration of REL, breaks REL for RAE, which Table 1 credits with it:
      ``RAE(p', p_hat') = 0.4137 < 0.4167 = RAE(p'', p_hat'')`` for ``p' = (0.15, 0.35,
      0.40, 0.10)``, ``p_hat' = (0.10, 0.55, 0.30, 0.05)``, ``p'' = (0.20, 0.30, 0.40,
      0.10)``, ``p_hat'' = (0.15, 0.50, 0.30, 0.05)``, because ``c3`` and ``c4`` are
      mispredicted too. Literal IND fails for AE: with ``p = (0.25, 0.25, 0.5)``, the
      predictions ``(0.4, 0.4, 0.2)`` and ``(0.25, 0.55, 0.2)`` agree outside ``{c1, c2}``
      and tie at AE 0.2, but their projections on ``{c1, c2}`` score 0 and 0.1875.
    * MON: moving a prediction further from ``p`` on two classes raises the error. IMP:
      over- and under-estimating by the same amount give the same error. REL: the same
      absolute error on a rarer class costs more. ABS: it costs the same. IND: restricted to
      a sub-codeframe (renormalized), two predictions are ordered as on the whole.
    * Cost: about ``n_trials * (8 + (n + 10) / 100)`` calls of ``measure`` for a codeframe
      of size ``n`` (plus 4 per trial when ``n >= 3``), so linear in ``n_trials``
      and in the number of sizes; nothing is cached, and memory stays constant.

    References
    ----------
    F. Sebastiani, "Evaluation Measures for Quantification: An Axiomatic Approach",
    Information Retrieval Journal 23, 255-288, 2020: the properties IoI, NN, MAX, MON, IMP,
    REL, ABS and IND of Section 3 (Properties 1-8, binary forms Properties 9-12), Table 1,
    and the counterexamples of Appendix B.

    Examples
    --------
    >>> from sklearn_confusion_ext import absolute_error, audit_quantification_measure
    >>> result = audit_quantification_measure(absolute_error, n_trials=200, random_state=0)
    >>> [name for name, holds in result.items() if not holds]
    ['MAX', 'REL']
    """
    sizes = _codeframe_sizes(n_classes)
    for size in sizes:  # a scenario holds a few prevalence vectors of its size
        check_result_size("audit_quantification_measure", (8 * int(size),),
                          f"the prevalence vectors of a codeframe of n_classes={size}",
                          remedy="Pass smaller codeframe sizes (n_classes=)")
    audit = _QuantificationAudit(measure, sizes, int(n_trials),
                                 np.random.default_rng(random_state), int(verbose))
    return audit.run()


class _QuantificationAudit:
    def __init__(self, measure, sizes, n_trials, rng, verbose=0):
        self.measure, self.sizes, self.n_trials, self.rng = measure, sizes, n_trials, rng
        self.verbose, self.evaluations, self.started = verbose, 0, time.perf_counter()
        self.failures = {}

    def value(self, p, q):
        self.evaluations += 1
        where = f"p_true={p.tolist()}, p_pred={q.tolist()} (smooth it with eps= if it diverges)"
        return checked_measure_value(self.measure, self.measure(p, q), where)

    def fail(self, name, **evidence):
        self.failures.setdefault(name, {key: np.asarray(v).tolist() if isinstance(v, np.ndarray)
                                        else v for key, v in evidence.items()})

    def run(self):
        maxima = []
        for n in self.sizes:
            for _ in range(self.n_trials):
                p = self._distribution(n)
                self._identity_and_sign(p)
                self._two_class_moves(p)
            maxima.extend(self._maxima(n))
            if n >= 3:
                for _ in range(self.n_trials):
                    self._independence(n)
            for _ in range(self.n_trials):
                self._relativity(n)
            if self.verbose:
                print(f"[audit_quantification_measure] {n} classes checked: "
                      f"{self.evaluations:,} evaluations, "
                      f"{time.perf_counter() - self.started:.1f} s", file=sys.stderr, flush=True)
        values = [value for value, _ in maxima]
        if max(values) - min(values) > _MAX_TOLERANCE * max(abs(max(values)), 1e-12):
            low, high = maxima[int(np.argmin(values))], maxima[int(np.argmax(values))]
            self.fail("MAX", p_true=[low[1], high[1]], maxima=[low[0], high[0]],
                      reason="the largest error depends on the true distribution")
        satisfied = {name: name not in self.failures for name in QUANTIFICATION_PROPERTIES}
        return AuditResult(satisfied, {name: self.failures[name]
                                       for name in QUANTIFICATION_PROPERTIES
                                       if name in self.failures})

    def _distribution(self, n):
        """A random distribution, sometimes near a vertex or with a tiny class."""
        concentration = self.rng.choice([0.3, 1.0, 5.0])
        return self.rng.dirichlet(np.full(n, concentration))

    def _identity_and_sign(self, p):
        q = self._distribution(len(p))
        same, different = self.value(p, p), self.value(p, q)
        if abs(same) > 1e-12:
            self.fail("IoI", p_true=p, p_pred=p, value=same)
        if different <= 0 and not np.allclose(p, q):
            self.fail("IoI", p_true=p, p_pred=q, value=different)
        for value, prediction in ((same, p), (different, q)):
            if value < -1e-12:
                self.fail("NN", p_true=p, p_pred=prediction, value=value)

    def _two_class_moves(self, p):
        """MON and IMP: moves of mass between two classes, the others exact."""
        c1, c2 = self.rng.choice(len(p), size=2, replace=False)
        # IMP: +a on c1 and -a on c2, against -a on c1 and +a on c2.
        a = self.rng.uniform(0, min(p[c1], p[c2]))
        over, under = _shift(p, c1, c2, a), _shift(p, c1, c2, -a)
        first, second = self.value(p, over), self.value(p, under)
        if not _equal(first, second):
            self.fail("IMP", p_true=p, p_pred=[over, under], values=[first, second])
        # MON: already under on c1 (over on c2), then move delta further.
        x = self.rng.uniform(0, p[c1])
        delta = self.rng.uniform(0, p[c1] - x)
        if delta <= 1e-9:
            return
        closer, further = _shift(p, c1, c2, -x), _shift(p, c1, c2, -x - delta)
        first, second = self.value(p, closer), self.value(p, further)
        if not first < second or _equal(first, second):
            self.fail("MON", p_true=p, p_pred=[closer, further], values=[first, second])

    def _maxima(self, n):
        """The largest error of a few true distributions, over vertices and random points."""
        results = []
        for _ in range(max(5, self.n_trials // 100)):
            p = self._distribution(n)
            candidates = [np.eye(n)[k] for k in range(n)]
            candidates += [self._distribution(n) for _ in range(10)]
            results.append((max(self.value(p, q) for q in candidates), p))
        return results

    def _relativity(self, n):
        """REL and ABS: the same error ``a`` on class c1 of two true distributions."""
        c1, c2 = self.rng.choice(n, size=2, replace=False)
        base = self._distribution(n)
        total = base[c1] + base[c2]
        # p'(c1) < p''(c1) < p''(c2): both shares of the pair's total below one half.
        low, high = np.sort(self.rng.uniform(0, total / 2, size=2))
        if high - low < 1e-6 or low <= 1e-9:
            return
        p1, p2 = base.copy(), base.copy()
        p1[c1], p1[c2] = low, total - low
        p2[c1], p2[c2] = high, total - high
        a = self.rng.uniform(0, low)
        sign = self.rng.choice([-1.0, 1.0])
        q1, q2 = _shift(p1, c1, c2, sign * a), _shift(p2, c1, c2, sign * a)
        if a <= 1e-9 or min(q1.min(), q2.min()) < 0:
            return
        first, second = self.value(p1, q1), self.value(p2, q2)
        if not (first > second and not _equal(first, second)):
            self.fail("REL", p_true=[p1, p2], p_pred=[q1, q2], values=[first, second])
        if not _equal(first, second):
            self.fail("ABS", p_true=[p1, p2], p_pred=[q1, q2], values=[first, second])

    def _independence(self, n):
        """IND: two predictions differing inside a sub-codeframe C1, exact outside it."""
        k = int(self.rng.integers(2, n))
        p = self._distribution(n)
        inside = self.rng.permutation(n)[:k]
        mass = p[inside].sum()
        if mass <= 1e-6:
            return
        predictions = []
        for _ in range(2):
            q = p.copy()
            q[inside] = mass * self.rng.dirichlet(np.ones(k))
            predictions.append(q)
        whole = [self.value(p, q) for q in predictions]
        part = [self.value(project_prevalence(p, inside), project_prevalence(q, inside))
                for q in predictions]
        if _order(*whole) != _order(*part):
            self.fail("IND", p_true=p, p_pred=predictions, sub_codeframe=inside.tolist(),
                      values=whole, sub_codeframe_values=part)


def _shift(p, c1, c2, amount):
    """``p`` with ``amount`` added to class c1 and taken from class c2."""
    q = p.copy()
    q[c1] += amount
    q[c2] -= amount
    return np.clip(q, 0.0, None)


def _equal(first, second):
    return abs(first - second) <= _EQUAL * max(abs(first), abs(second), 1e-12)


def _order(first, second):
    """-1, 0 or 1: how two errors compare, ties within tolerance."""
    if _equal(first, second):
        return 0
    return -1 if first < second else 1


def _codeframe_sizes(n_classes):
    """The sizes ``n_classes`` names (one, or a sequence), each checked as one size."""
    sizes = [n_classes] if np.ndim(n_classes) == 0 else list(n_classes)
    if not sizes:
        raise ValueError("The 'n_classes' parameter of audit_quantification_measure must name "
                         f"at least one codeframe size; got {n_classes!r}.")
    for size in sizes:
        check_value("audit_quantification_measure", "n_classes", size, [CODEFRAME_SIZE])
    return [int(size) for size in sizes]
