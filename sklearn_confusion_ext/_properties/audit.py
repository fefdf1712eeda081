"""Property audit of classification measures (Gosgens et al., NeurIPS 2021, Section 3).

:func:`audit_measure` checks a measure ``M(y_true, y_pred)`` (higher is better) for the
nine properties of Section 3, exhaustively on every confusion matrix with at most
``max_n`` elements (exact expectations for the constant baseline), then on random
matrices and labelings up to a few times larger. Properties are read as the paper's proofs
(Appendix C) use them; see the notes of :func:`audit_measure`.
"""

import itertools
import math
import numbers
import sys
import time
from collections.abc import Mapping
from functools import cache

import numpy as np
from scipy.special import gammaln

from .._core.params import (
    CALLABLE,
    NON_NEGATIVE_INT,
    RANDOM_STATE,
    Interval,
    validate_params,
)
from .._core.results import Result, _Bare, _Table

PROPERTIES = (
    "maximal_agreement",
    "minimal_agreement",
    "symmetry",
    "class_symmetry",
    "distance",
    "monotonicity",
    "strong_monotonicity",
    "constant_baseline",
    "approximate_constant_baseline",
    "second_order_constant_baseline",
    "scale_invariance",
)
_TOLERANCE = 1e-9
# Definition 13 is checked up to this order (an exact constant baseline reaches it).
_MAX_ORDER = 5
# Moves of one cell pair around a_i b_j (n^2 elements in all) at which the measure is fitted.
_BASELINE_STEPS = np.arange(-200, 201, 10)
_BASELINE_SIZES = {2: [((30, 70), (60, 40)), ((50, 50), (25, 75)), ((80, 20), (50, 50))],
                   3: [((20, 30, 50), (40, 35, 25)), ((60, 20, 20), (30, 30, 40))]}
# Largest number of labelings of one size whose pairwise distances are tabulated.
_MAX_LABELINGS = 512
# Matrices between two progress lines of a verbose audit.
_PROGRESS_EVERY = 20_000


class AuditResult(Result, Mapping):
    """Which properties a measure satisfies, with a counterexample for each failure.

    Returned by :func:`audit_measure`: a read-only mapping from property name to bool.

    Parameters
    ----------
    satisfied : dict of str to bool
        Whether each property holds.
    counterexamples : dict of str to dict
        For each failed property, the confusion matrices (rows true, columns predicted)
        or labelings that break it, with the measure's values.
    baseline_order : int, default=None
        The order of the approximate constant baseline (Definition 13), when audited.

    Attributes
    ----------
    counterexamples : dict of str to dict
        The evidence of each failed property, as given.
    baseline_order : int or None
        The order of the approximate constant baseline, None when not audited.

    See Also
    --------
    audit_measure : Builds it for a classification measure.
    audit_quantification_measure : Builds it for a quantification error.

    Examples
    --------
    >>> from sklearn_confusion_ext import AuditResult
    >>> result = AuditResult({"symmetry": False}, {"symmetry": {"values": [0.1, 0.2]}})
    >>> result["symmetry"], result.counterexamples["symmetry"]["values"]
    (False, [0.1, 0.2])
    """

    @validate_params({"satisfied": [dict], "counterexamples": [dict],
                      "baseline_order": [None, Interval(numbers.Integral, 0, None)]})
    def __init__(self, satisfied, counterexamples, *, baseline_order=None):
        self._satisfied = dict(satisfied)
        self.counterexamples = dict(counterexamples)
        self.baseline_order = None if baseline_order is None else int(baseline_order)

    def __getitem__(self, name):
        return self._satisfied[name]

    def __iter__(self):
        return iter(self._satisfied)

    def __len__(self):
        return len(self._satisfied)

    def _summary(self):
        held = sum(map(bool, self._satisfied.values()))
        return [("satisfied", _Bare(f"{held} of {len(self._satisfied)} properties")),
                ("baseline_order", self.baseline_order)]

    def _table(self):
        return _Table("property", list(self._satisfied), {
            "satisfied": [bool(value) for value in self._satisfied.values()],
            "counterexample": [name in self.counterexamples for name in self._satisfied]})


@validate_params({"measure": [CALLABLE], "n_classes": [Interval(numbers.Integral, 2, None)],
                  "max_n": [Interval(numbers.Integral, 2, None)], "n_trials": [NON_NEGATIVE_INT],
                  "random_state": RANDOM_STATE,
                  "max_evaluations": [Interval(numbers.Integral, 1000, None)],
                  "verbose": [NON_NEGATIVE_INT]})
def audit_measure(measure, *, n_classes=2, max_n=8, n_trials=2000, random_state=None,
                  max_evaluations=500_000, verbose=0):
    """Check a classification measure for the properties of Gosgens et al. (2021).

    Parameters
    ----------
    measure : callable
        ``measure(y_true, y_pred) -> float`` on 1-D integer labels ``0 .. n_classes - 1``
        (higher is better; negate a loss first). For ``n_classes=2`` class 1 is the
        positive class. It must return a finite number for every pair of labelings, so
        resolve its singularities first (e.g. ``zero_division=1`` for F1).
    n_classes : int, default=2
        Number of classes ``m``.
    max_n : int, default=8
        Every confusion matrix with ``1 <= n <= max_n`` elements is checked, and every
        triple of labelings of ``n`` elements while there are at most 512 labelings.
    n_trials : int, default=2000
        Random confusion matrices (and triples of labelings) with up to ``4 * max_n``
        elements checked after the exhaustive pass.
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the random pass.
    max_evaluations : int, default=500_000
        Bound on the work, at least 1,000: the audit is refused before any evaluation
        when it may need more calls of ``measure`` than this (see Notes), and every value
        is cached, so the cache holds at most this many numbers (about 200 bytes each for
        ``n_classes=4``). The default takes minutes for a fast measure.
    verbose : int, default=0
        Print each stage and, above 0, progress through the matrices (every 20,000) on
        standard error, with the evaluations so far and the time taken.

    Returns
    -------
    AuditResult
        Mapping from each property to True or False; ``.counterexamples`` holds, for each
        False, the matrices or labelings that break it.

    See Also
    --------
    AuditResult : The result.
    measure_inconsistency : How often two measures order predictions differently.
    audit_quantification_measure : The properties of quantification errors.

    Notes
    -----
    * ``maximal_agreement`` / ``minimal_agreement`` (Definitions 1-2): every diagonal
      (zero-diagonal) matrix gets the same value, and every other matrix a strictly smaller
      (larger) one.
    * ``symmetry`` (Def. 3): ``M(C) = M(C^T)``. ``class_symmetry`` (Def. 4): invariance to
      permuting the classes.
    * ``distance`` (Def. 5): symmetry, maximal agreement, and the triangle inequality for
      ``c_max - M`` over triples of labelings.
    * ``monotonicity`` (Def. 6): moving one element from an off-diagonal cell ``c_ab`` to
      ``c_aa`` or ``c_bb`` (no labeling constant) never *lowers* the measure.
      ``strong_monotonicity`` (Def. 7): increasing a diagonal cell or decreasing an
      off-diagonal one never lowers it, and each kind of change (each cell) raises it for
      some matrix. This is how the paper's proofs read the definitions: F1 and J are
      monotone although some moves leave them unchanged, and fail strong monotonicity
      because raising ``c00`` never changes them.
    * ``constant_baseline`` (Def. 8): the exact expectation of ``M`` over all labelings
      with given non-unary predicted class sizes is the same for every true labeling and
      every ``n`` (it may depend on the number of classes the two labelings use).
      ``approximate_constant_baseline`` (Def. 9): ``M`` of the matrix ``a_i b_j / n`` is
      that same constant; it is evaluated on the integer matrix
      ``a_i b_j``, which has the same proportions, so the measure must be scale-invariant.
    * ``scale_invariance`` (Def. 11): ``M(k C) = M(C)`` for ``k = 2, 3`` (every labeling
      repeated ``k`` times) on every matrix checked.
    * ``second_order_constant_baseline`` (Defs. 12-13 with ``k = 2``), and
      ``baseline_order`` of the result, the largest ``k <= 5`` for which the measure has a
      ``k``-th order approximate constant baseline (0: not even the approximate one; 5: at
      least 5, as every measure with an exact constant baseline of Table 1, being linear
      in ``c_ii``). Along a move that keeps the margins (``+t`` on ``c_ii`` and ``c_jj``,
      ``-t`` on ``c_ij`` and ``c_ji``; for two classes, ``t`` is ``p_AB - p_A p_B``), the
      measure is fitted by a polynomial in ``t`` around the matrix ``a_i b_j`` on a few
      class sizes, and its derivatives of order 2 to ``k`` must vanish there (a term of
      size at most ``1e-9`` at the largest ``|t|``, 0.02). The paper defines it for binary
      measures; for more classes this is every such move. It needs a scale-invariant
      measure.

    **Cost.** The exhaustive pass visits every ``m x m`` matrix (``m = n_classes``) with at
    most ``max_n`` elements, ``binomial(max_n + m**2, m**2) - 1`` of them, and each random
    trial one more; each matrix is evaluated with its transpose, its ``m!`` class
    permutations, its one-step changes (about ``3 m**2``, most of them shared with other
    matrices) and a multiple of it. The bound checked against ``max_evaluations`` is
    ``binomial(max_n + 1 + m**2, m**2) + binomial(max_n + m**2, m**2)
    + n_trials * (m! + 3 m**2 + 3) + m**(2 max_n') + 41 s binomial(m, 2)`` (``max_n'`` the
    largest ``n`` with at most 512 labelings, ``s`` the 2 or 3 pairs of class sizes of the
    baseline order). With ``m = 2`` and the defaults that is about 100,000 calls; ``m = 3``
    fits the default bound up to ``max_n = 10``, ``m = 4`` up to ``max_n = 5``: the number
    grows like ``max_n**(m**2)``.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): the properties of Section 3 (Definitions 1-13), Table 1, and the proofs of
    Appendix C.

    Examples
    --------
    >>> from sklearn.metrics import accuracy_score
    >>> from sklearn_confusion_ext import audit_measure
    >>> result = audit_measure(accuracy_score, max_n=5, n_trials=200, random_state=0)
    >>> result["distance"], result["constant_baseline"], result.baseline_order
    (True, False, 0)
    >>> low, high = result.counterexamples["constant_baseline"]["expectations"]
    >>> bool(low < high)  # expected accuracy of random predictions varies
    True
    """
    n_classes, max_n, n_trials = int(n_classes), int(max_n), int(n_trials)
    bound = _evaluation_bound(n_classes, max_n, n_trials, max_evaluations)
    if bound is None or bound > max_evaluations:
        # The bound grows with max_n: the largest that fits is found going up from 2.
        fitting = None
        for n in range(2, max_n):
            found = _evaluation_bound(n_classes, n, n_trials, max_evaluations)
            if found is None or found > max_evaluations:
                break
            fitting = n
        hint = f"max_n={fitting} fits; " if fitting is not None else ""
        times = f"{bound:,}" if bound is not None else \
            f"about 10^{_log_evaluation_bound(n_classes, max_n, n_trials) / math.log(10):.0f}"
        raise ValueError(
            f"audit_measure with n_classes={n_classes}, max_n={max_n} and n_trials={n_trials} "
            f"may evaluate the measure {times} times, more than max_evaluations="
            f"{max_evaluations:,}; {hint}lower max_n or n_trials, or raise max_evaluations "
            "(each value is cached).")
    _check_measure_takes_labels(measure, n_classes)
    audit = _Audit(measure, n_classes, max_n, np.random.default_rng(random_state), n_trials,
                   int(verbose))
    return audit.run()


def _check_measure_takes_labels(measure, n_classes):
    """One call of ``measure`` on two small labelings before the audit's work: a measure
    that cannot be called as ``measure(y_true, y_pred)`` is refused naming the argument
    (a function of a matrix failed deep inside the audit)."""
    y_true = np.arange(n_classes).repeat(2)
    y_pred = np.roll(y_true, 1)
    name = getattr(measure, "__name__", None) or repr(measure)
    try:
        value = measure(y_true, y_pred)
    except TypeError as error:
        raise TypeError(
            f"audit_measure: measure must be called as measure(y_true, y_pred) on 1-D labels "
            f"0 .. n_classes - 1; {name}(y_true, y_pred) raised TypeError: {error}. Audit a "
            "function of a confusion matrix through the labels, e.g. lambda y_true, y_pred: "
            "f(sklearn.metrics.confusion_matrix(y_true, y_pred, labels=range(n_classes))).") \
            from None
    matrix = np.zeros((n_classes, n_classes), dtype=int)
    np.add.at(matrix, (y_true, y_pred), 1)
    checked_measure_value(measure, value, f"the confusion matrix {matrix.tolist()}")


def _log_evaluation_bound(m, max_n, n_trials):
    """The natural log of the largest terms of :func:`_evaluation_bound`, from ``lgamma``:
    cheap however large ``m`` and ``max_n`` (their exact binomials and factorial are not)."""
    log_matrices = (math.lgamma(max_n + 2 + m * m) - math.lgamma(m * m + 1)
                    - math.lgamma(max_n + 2))
    log_trials = math.log(n_trials) + math.lgamma(m + 1) if n_trials else -math.inf
    return max(log_matrices, log_trials)


def _evaluation_bound(m, max_n, n_trials, limit=None):
    """Most calls of the measure an audit can make (each matrix is evaluated once); None
    where it is certainly above ``limit``, by a factor ``e**100`` (its exact value is not
    computed then: the binomials and factorial of a huge ``m`` or ``max_n`` take hours)."""
    if limit is not None and _log_evaluation_bound(m, max_n, n_trials) > math.log(limit) + 100:
        return None
    labelings = 0  # the most elements whose every labeling is enumerated
    while labelings < max_n and m ** (labelings + 1) <= _MAX_LABELINGS:
        labelings += 1
    moves = len(_BASELINE_SIZES.get(m, [None])) * math.comb(m, 2) * len(_BASELINE_STEPS)
    return (math.comb(max_n + 1 + m * m, m * m) + math.comb(max_n + m * m, m * m)
            + n_trials * (math.factorial(m) + 3 * m * m + 3) + m ** (2 * labelings) + moves)


def checked_measure_value(measure, value, where):
    """``value`` as a float, or an error naming ``measure`` and what it was evaluated on."""
    name = getattr(measure, "__name__", None) or repr(measure)
    is_number = isinstance(value, numbers.Real) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "biuf")
    if not is_number:
        raise TypeError(f"measure {name} returned {value!r} (type {type(value).__name__}) "
                        f"for {where}; it must return a real number.")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"measure {name} returned {value} for {where}; resolve its "
                         "singularities so that it returns a finite number.")
    return value


class _Audit:
    def __init__(self, measure, n_classes, max_n, rng, n_trials, verbose=0):
        self.measure, self.m, self.max_n = measure, n_classes, max_n
        self.rng, self.n_trials, self.verbose = rng, n_trials, verbose
        self.cache = {}
        self.failures = {}
        self.started = time.perf_counter()

    def value(self, matrix):
        """The measure on the labelings of an integer confusion matrix (memoized)."""
        matrix = np.asarray(matrix, dtype=np.int64)
        key = matrix.tobytes()
        if key not in self.cache:
            matrix = matrix.reshape(self.m, self.m)
            rows, columns = np.nonzero(matrix)
            counts = matrix[rows, columns]
            y_true, y_pred = np.repeat(rows, counts), np.repeat(columns, counts)
            self.cache[key] = checked_measure_value(
                self.measure, self.measure(y_true, y_pred),
                f"the confusion matrix {matrix.tolist()}")
        return self.cache[key]

    def progress(self, stage):
        if self.verbose:
            print(f"[audit_measure] {stage}: {len(self.cache):,} evaluations, "
                  f"{time.perf_counter() - self.started:.1f} s", file=sys.stderr, flush=True)

    def fail(self, name, **evidence):
        self.failures.setdefault(name, _jsonable(evidence))

    def run(self):
        matrices = [matrix for n in range(1, self.max_n + 1) for matrix in _matrices(n, self.m)]
        random_matrices = self._random_matrices()
        self.progress(f"{len(matrices):,} matrices with at most {self.max_n} elements, "
                      f"{len(random_matrices):,} random ones")
        self._agreement(matrices, random_matrices)
        self.progress("agreement checked")
        for index, matrix in enumerate(itertools.chain(matrices, random_matrices), 1):
            self._scale_invariance(matrix, 2 if index <= len(matrices) else 3)
            self._symmetries(matrix)
            self._monotonicity(matrix)
            if self.verbose > 0 and index % _PROGRESS_EVERY == 0:
                self.progress(f"symmetry and monotonicity, matrix {index:,}")
        self._strong_monotonicity_raises(matrices + random_matrices)
        self.progress("symmetry and monotonicity checked")
        self._triangle()
        self.progress("triangle inequality checked")
        self._baselines()
        order = self._baseline_order()
        self.progress("baselines checked")
        if {"symmetry", "maximal_agreement"} & set(self.failures):
            self.fail("distance", reason="a distance must be symmetric with maximal agreement",
                      failed=sorted({"symmetry", "maximal_agreement"} & set(self.failures)))
        satisfied = {name: name not in self.failures for name in PROPERTIES}
        return AuditResult(satisfied, {name: self.failures[name] for name in PROPERTIES
                                       if name in self.failures}, baseline_order=order)

    def _random_matrices(self):
        largest = 4 * self.max_n
        result = []
        for _ in range(self.n_trials):
            n = int(self.rng.integers(self.max_n + 1, largest + 1))
            cells = self.rng.multinomial(n, self.rng.dirichlet(np.ones(self.m * self.m)))
            result.append(cells.reshape(self.m, self.m))
        return result

    def _agreement(self, matrices, random_matrices):
        diagonal = [c for c in matrices if not (c - np.diag(np.diag(c))).any()]
        zero_diagonal = [c for c in matrices if not np.diag(c).any()]
        for name, extremes, better in (("maximal_agreement", diagonal, np.greater),
                                       ("minimal_agreement", zero_diagonal, np.less)):
            values = [self.value(c) for c in extremes]
            best = max(values) if better is np.greater else min(values)
            if max(values) - min(values) > _TOLERANCE:
                self.fail(name, matrices=[extremes[int(np.argmin(values))],
                                          extremes[int(np.argmax(values))]],
                          values=[min(values), max(values)],
                          reason="the extreme matrices do not all share one value")
                continue
            others = (c for c in itertools.chain(matrices, random_matrices)
                      if not any(c is e for e in extremes) and not _same_kind(c, name))
            for c in others:
                value = self.value(c)
                if not better(best, value) or abs(best - value) <= _TOLERANCE:
                    self.fail(name, matrices=[extremes[0], c], values=[best, value],
                              reason="a matrix that is not extreme reaches the extreme value")
                    break

    def _scale_invariance(self, matrix, factor):
        """Definition 11 on every labeling repeated ``factor`` times."""
        value, scaled = self.value(matrix), self.value(factor * matrix)
        if abs(scaled - value) > _TOLERANCE:
            self.fail("scale_invariance", matrices=[matrix, factor * matrix],
                      values=[value, scaled])

    def _symmetries(self, matrix):
        value = self.value(matrix)
        if abs(self.value(matrix.T) - value) > _TOLERANCE:
            self.fail("symmetry", matrices=[matrix, matrix.T],
                      values=[value, self.value(matrix.T)])
        for permutation in itertools.permutations(range(self.m)):
            permuted = matrix[np.ix_(permutation, permutation)]
            if abs(self.value(permuted) - value) > _TOLERANCE:
                self.fail("class_symmetry", matrices=[matrix, permuted],
                          values=[value, self.value(permuted)])
                return

    def _monotonicity(self, matrix):
        """Definitions 6 and 7: changes toward agreement must not lower the measure."""
        if _has_constant_labeling(matrix):
            return
        value = self.value(matrix)
        for a, b in itertools.permutations(range(self.m), 2):
            if matrix[a, b] == 0:
                continue
            for target in (a, b):
                moved = matrix.copy()
                moved[a, b] -= 1
                moved[target, target] += 1
                if self.value(moved) < value - _TOLERANCE:
                    self.fail("monotonicity", matrices=[matrix, moved],
                              values=[value, self.value(moved)])
        for changed in _strong_changes(matrix):
            if _both_extreme(matrix, changed):
                continue
            if self.value(changed) < value - _TOLERANCE:
                self.fail("strong_monotonicity", matrices=[matrix, changed],
                          values=[value, self.value(changed)],
                          reason="a change toward agreement lowers the measure")

    def _strong_monotonicity_raises(self, matrices):
        """Each kind of change (a cell) must raise the measure for some matrix."""
        never_raised = set(itertools.product(range(self.m), repeat=2))
        for matrix in matrices:
            if _has_constant_labeling(matrix):
                continue
            value = self.value(matrix)
            for cell, changed in zip(_cells(self.m), _strong_changes(matrix, keep_all=True)):
                if changed is not None and cell in never_raised \
                        and not _both_extreme(matrix, changed) \
                        and self.value(changed) > value + _TOLERANCE:
                    never_raised.discard(cell)
        if never_raised:
            cell = sorted(never_raised)[0]
            change = "increasing" if cell[0] == cell[1] else "decreasing"
            self.fail("strong_monotonicity", cell=list(cell),
                      reason=f"{change} cell {cell} never raises the measure")

    def _triangle(self):
        """Triangle inequality of ``c_max - M`` over triples of labelings."""
        c_max = self.value(np.diag([1] + [0] * (self.m - 1)))  # any diagonal matrix
        for n in range(1, self.max_n + 1):
            if self.m ** n > _MAX_LABELINGS:
                break
            labelings = np.array(list(itertools.product(range(self.m), repeat=n)))
            self._check_triangle(labelings, c_max)
        for _ in range(max(1, self.n_trials // 10)):
            n = int(self.rng.integers(self.max_n + 1, 4 * self.max_n + 1))
            labelings = self.rng.integers(0, self.m, size=(3, n))
            self._check_triangle(labelings, c_max)

    def _check_triangle(self, labelings, c_max):
        size = len(labelings)
        distance = np.empty((size, size))
        for i, j in itertools.product(range(size), repeat=2):
            distance[i, j] = c_max - self.value(_confusion(labelings[i], labelings[j], self.m))
        for a in range(size):
            # d(a, c) <= d(a, b) + d(b, c) for every b, c.
            slack = distance[a][:, None] + distance - distance[a][None, :]
            if slack.min() < -_TOLERANCE:
                b, c = np.unravel_index(np.argmin(slack), slack.shape)
                self.fail("distance", labelings=[labelings[a], labelings[b], labelings[c]],
                          distances={"d(A,B)": distance[a, b], "d(B,C)": distance[b, c],
                                     "d(A,C)": distance[a, c]},
                          reason="c_max - M breaks the triangle inequality")
                return

    def _baselines(self):
        """Definitions 8 and 9, exactly, over pairs of class-size vectors.

        Every pair with ``n <= max_n``; for two classes also random pairs with up to
        ``4 * max_n`` elements.
        """
        pairs = [(true_sizes, pred_sizes) for n in range(1, self.max_n + 1)
                 for true_sizes in _compositions(n, self.m)
                 for pred_sizes in _compositions(n, self.m) if max(pred_sizes) < n]
        if self.m == 2:
            for _ in range(self.n_trials // 20):
                n = int(self.rng.integers(self.max_n + 1, 4 * self.max_n + 1))
                positives = int(self.rng.integers(0, n + 1))
                predicted = int(self.rng.integers(1, n))  # non-unary
                pairs.append(((n - positives, positives), (n - predicted, predicted)))
        # The baseline may depend on the number of classes the two labelings use.
        groups = [int(np.count_nonzero(np.add(a, b))) for a, b in pairs]
        for name, evaluate in (("constant_baseline", self._expectation),
                               ("approximate_constant_baseline",
                                lambda a, b: self.value(np.outer(a, b)))):
            values = np.array([evaluate(a, b) for a, b in pairs])
            for group in sorted(set(groups)):
                members = np.flatnonzero(np.equal(groups, group))
                low = members[np.argmin(values[members])]
                high = members[np.argmax(values[members])]
                if values[high] - values[low] > 1e-7:
                    key = "expectations" if name == "constant_baseline" else "values"
                    self.fail(name, **{key: [values[low], values[high]]},
                              true_sizes=[pairs[low][0], pairs[high][0]],
                              pred_sizes=[pairs[low][1], pairs[high][1]])
                    break

    def _baseline_order(self):
        """Definition 13: the largest order ``k <= 5`` whose derivatives 2..k vanish at
        ``a_i b_j``, over margin-preserving moves; 0 without an approximate baseline."""
        if "approximate_constant_baseline" in self.failures:
            self.fail("second_order_constant_baseline",
                      reason="no approximate constant baseline (Definition 9)")
            return 0
        sizes = _BASELINE_SIZES.get(self.m) or [
            (tuple(range(20, 20 + 10 * self.m, 10)), tuple(range(10 * self.m + 10, 10, -10)))]
        order, evidence = _MAX_ORDER, None
        scale = _BASELINE_STEPS.max()
        for true_sizes, pred_sizes in sizes:
            center = np.outer(true_sizes, pred_sizes)
            t = _BASELINE_STEPS / center.sum()
            for i, j in itertools.combinations(range(self.m), 2):
                move = np.zeros((self.m, self.m), dtype=np.int64)
                move[[i, j], [i, j]] = 1
                move[[i, j], [j, i]] = -1
                values = np.array([self.value(center + step * move)
                                   for step in _BASELINE_STEPS])
                coefficients = np.polynomial.polynomial.polyfit(t / t.max(), values, 8)
                # Term l of the Taylor series at the largest |t|: M^(l) t^l / l!.
                for level in range(2, order + 1):
                    if abs(coefficients[level]) > _TOLERANCE:
                        order = level - 1
                        derivative = coefficients[level] * math.factorial(level) \
                            / t.max() ** level
                        evidence = {"true_sizes": list(true_sizes),
                                    "pred_sizes": list(pred_sizes), "classes": [i, j],
                                    "order": level, "derivative": derivative,
                                    "largest_term": coefficients[level],
                                    "largest_t": t.max(), "steps_of_move": int(scale)}
                        break
        if order < 2:
            self.fail("second_order_constant_baseline", **evidence,
                      reason=f"the derivative of order {evidence['order']} in p_AB at "
                             "p_A p_B does not vanish")
        return order

    def _expectation(self, true_sizes, pred_sizes):
        """Exact E[M] over labelings with the given predicted sizes (hypergeometric)."""
        total, weight = 0.0, 0.0
        for table in _tables(tuple(true_sizes), tuple(pred_sizes)):
            log_p = (gammaln(np.add(true_sizes, 1)).sum() + gammaln(np.add(pred_sizes, 1)).sum()
                     - gammaln(sum(true_sizes) + 1) - gammaln(np.add(table, 1)).sum())
            probability = np.exp(log_p)
            total += probability * self.value(np.asarray(table))
            weight += probability
        return total / weight


def _matrices(n, m):
    """Every m x m matrix of non-negative integers summing to n."""
    for cells in _compositions(n, m * m):
        yield np.asarray(cells).reshape(m, m)


@cache
def _compositions(n, parts):
    """Every tuple of ``parts`` non-negative integers summing to ``n``."""
    if parts == 1:
        return ((n,),)
    return tuple((first,) + rest for first in range(n + 1)
                 for rest in _compositions(n - first, parts - 1))


def _tables(row_sums, column_sums):
    """Every non-negative integer matrix with the given margins."""
    if len(row_sums) == 1:
        yield np.asarray([column_sums])
        return
    first, rest = row_sums[0], row_sums[1:]
    for row in _compositions(first, len(column_sums)):
        if all(r <= c for r, c in zip(row, column_sums)):
            remaining = tuple(c - r for r, c in zip(row, column_sums))
            for table in _tables(rest, remaining):
                yield np.vstack([row, table])


def _confusion(y_true, y_pred, m):
    return np.bincount(y_true * m + y_pred, minlength=m * m).reshape(m, m)


def _cells(m):
    return list(itertools.product(range(m), repeat=2))


def _strong_changes(matrix, keep_all=False):
    """Matrices one step toward agreement: +1 on a diagonal cell or -1 off it."""
    m = matrix.shape[0]
    for i, j in _cells(m):
        changed = matrix.copy()
        if i == j:
            changed[i, j] += 1
        elif matrix[i, j] > 0:
            changed[i, j] -= 1
        else:
            if keep_all:
                yield None
            continue
        if changed.sum() == 0:
            if keep_all:
                yield None
            continue
        yield changed


def _has_constant_labeling(matrix):
    n = matrix.sum()
    return (matrix.sum(axis=0) == n).any() or (matrix.sum(axis=1) == n).any()


def _is_diagonal(matrix):
    return not (matrix - np.diag(np.diag(matrix))).any()


def _both_extreme(first, second):
    """Both diagonal or both zero-diagonal: Definition 7 excludes such pairs."""
    return (_is_diagonal(first) and _is_diagonal(second)) or \
        (not np.diag(first).any() and not np.diag(second).any())


def _same_kind(matrix, name):
    return _is_diagonal(matrix) if name == "maximal_agreement" else not np.diag(matrix).any()


def _jsonable(evidence):
    """Arrays to lists, numbers to floats: counterexamples print and compare simply."""
    def convert(value):
        if isinstance(value, np.ndarray):
            return value.tolist()
        if isinstance(value, (list, tuple)):
            return [convert(item) for item in value]
        if isinstance(value, dict):
            return {key: convert(item) for key, item in value.items()}
        if isinstance(value, (np.floating, float)):
            return float(value)
        if isinstance(value, np.integer):
            return int(value)
        return value
    return convert(evidence)
