"""Inconsistency of classification measures (Gosgens et al. 2021, Section 5, Appendix E).

Two measures ``M1`` and ``M2`` are *consistent* on a triplet ``(A, B1, B2)`` of a true
labeling and two predictions when ``M1(A, B1) * M1(A, B2)`` implies
``M2(A, B1) * M2(A, B2)`` for each relation ``*`` of ``>``, ``<``, ``=``: they order the two
predictions the same way, ties included. The *inconsistency* of two measures over a set of
predictions of the same instances is the fraction of pairs of predictions on which they are
inconsistent (Tables 3, 9, 10, 12 and 13); *strict* inconsistency (Appendix E.1, Table 8)
counts only the pairs that the two measures order in opposite strict directions.

Every measure is evaluated once per prediction; the orders of all pairs of predictions are
then compared at once, as signs of score differences, with two matrix products.
"""

from dataclasses import KW_ONLY
from numbers import Integral, Real

import numpy as np

from .._core.config import check_result_size
from .._core.matrix_checks import check_confusion_matrix
from .._core.params import ARRAY, BOOLEAN, POSITIVE_INT, Interval, validate_params
from .._core.resampling import group_codes
from .._core.results import Result, _result
from .._core.targets import check_target_set
from .._scores.from_confusion import (
    accuracy_from_confusion,
    balanced_accuracy_from_confusion,
    cohen_kappa_from_confusion,
    confusion_entropy_from_confusion,
    fbeta_from_confusion,
    generalized_means_from_confusion,
    jaccard_from_confusion,
    matthews_corrcoef_from_confusion,
    symmetric_balanced_accuracy_from_confusion,
)

# --- The measures of Section 5 ----------------------------------------------------------------


def _binary_or_macro(measure):
    """``measure`` of the positive class of two, macro-averaged over more (Table 12)."""
    def read(matrix):
        return measure(matrix, average="binary" if np.shape(matrix) == (2, 2) else "macro")
    return read


def _one_minus_confusion_entropy(matrix):
    return 1.0 - confusion_entropy_from_confusion(matrix)


def _generalized_means_1(matrix):
    average = "binary" if np.shape(matrix) == (2, 2) else "macro"
    return generalized_means_from_confusion(matrix, r=1.0, average=average)


_SECTION5 = {
    "Acc": accuracy_from_confusion,
    "BA": balanced_accuracy_from_confusion,
    "F1": _binary_or_macro(fbeta_from_confusion),
    "J": _binary_or_macro(jaccard_from_confusion),
    "kappa": cohen_kappa_from_confusion,
    "CE": _one_minus_confusion_entropy,
    "GM1": _generalized_means_1,
    "CC": matthews_corrcoef_from_confusion,
    "SBA": symmetric_balanced_accuracy_from_confusion,
}
# Section 5.1 omits Jaccard, a monotone transformation of F1 on binary labelings.
_BINARY = ("Acc", "BA", "F1", "kappa", "CE", "GM1", "CC", "SBA")
_MULTICLASS = ("Acc", "BA", "F1", "J", "kappa", "CE", "GM1", "CC", "SBA")
# Scores closer than this (relative to max(1, |s|)) are a tie.
TOLERANCE = [Interval(Real, 0, None)]
N_ELEMENTS = [Interval(Integral, 2, None)]


# --- Results ---------------------------------------------------------------------------------


@_result(eq=False, parameters={
    "inconsistency": [ARRAY], "n_inconsistent": [ARRAY], "n_pairs": [POSITIVE_INT],
    "measure_names": [tuple], "scores": [ARRAY], "strict": [BOOLEAN]})
class InconsistencyResult(Result):
    """Result of :func:`measure_inconsistency`.

    Unpacks like scipy's results: ``inconsistency, measure_names = result``.

    Attributes
    ----------
    inconsistency : ndarray of shape (n_measures, n_measures)
        Fraction of the pairs of predictions on which each two measures are inconsistent;
        symmetric, zero diagonal.
    n_inconsistent : ndarray of shape (n_measures, n_measures)
        Number of those pairs (sum it over experiments to aggregate them, as the paper
        aggregates days and horizons).
    n_pairs : int
        Number of pairs of predictions compared (within each group).
    measure_names : tuple of str
        Names of the measures, in the order of the rows and columns.
    scores : ndarray of shape (n_groups, n_predictions, n_measures)
        Value of each measure for each prediction (in each group; one group without
        ``groups``).
    strict : bool
        Whether only opposite strict orders count (Appendix E.1).

    See Also
    --------
    measure_inconsistency : Builds it from labels and predictions.
    measure_inconsistency_from_confusion : Builds it from confusion matrices.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): Section 5, Tables 3, 9, 10, 12 and 13.

    Examples
    --------
    >>> from sklearn_confusion_ext import measure_inconsistency
    >>> y_true = [0, 0, 0, 0, 1, 1]
    >>> result = measure_inconsistency(y_true, [[0, 0, 0, 0, 0, 1], [0, 0, 1, 1, 1, 1]])
    >>> inconsistency, measure_names = result
    >>> measure_names[:3], inconsistency[0, :3].tolist(), int(result.n_inconsistent[0, 1])
    (('Acc', 'BA', 'F1'), [0.0, 1.0, 1.0], 1)
    """

    inconsistency: np.ndarray
    measure_names: tuple
    _: KW_ONLY
    n_inconsistent: np.ndarray
    n_pairs: int
    scores: np.ndarray
    strict: bool = False

    _unpacked = ("inconsistency", "measure_names")

    _summary_fields = ("n_pairs", "strict")
    _table_index, _table_index_name, _table_matrix = "measure_names", "measure", "inconsistency"
    _table_percent = True  # as the paper's tables


@_result(eq=False, parameters={"triplets": [ARRAY], "triplet_index": [ARRAY],
                                "measure_names": [tuple]})
class DiscriminatingTripletsResult(Result):
    """Result of :func:`discriminating_triplets`: Table 8 of Gosgens et al. (2021).

    Unpacks like scipy's results: ``triplets, triplet_index = result``.

    Attributes
    ----------
    triplets : ndarray of shape (n_triplets, 3, n)
        Each triplet ``(A, B1, B2)``: a true binary labeling and two predictions.
    triplet_index : ndarray of shape (n_measures, n_measures)
        Index in ``triplets`` of a triplet on which the two measures order ``B1`` and
        ``B2`` in opposite strict directions; -1 on the diagonal and for the pairs that no
        triplet of this size discriminates.
    measure_names : tuple of str
        Names of the measures, in the order of the rows and columns.

    See Also
    --------
    discriminating_triplets : Builds it.
    indistinguishable_measures : The pairs no triplet tells apart.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): Appendix E.1, Table 8.

    Examples
    --------
    >>> from sklearn_confusion_ext import discriminating_triplets
    >>> result = discriminating_triplets(4)
    >>> int(result.triplet_index[0, 0]), len(result.measure_names)
    (-1, 8)
    """

    triplets: np.ndarray
    triplet_index: np.ndarray
    _: KW_ONLY
    measure_names: tuple

    _unpacked = ("triplets", "triplet_index")

    _summary_fields = ("triplets",)
    _table_index, _table_index_name, _table_matrix = "measure_names", "measure", "triplet_index"


def _bits(labeling):
    return "(" + ", ".join(str(int(x)) for x in labeling) + ")"


# --- Public functions --------------------------------------------------------------------------


@validate_params({"y_true": [ARRAY], "y_preds": [ARRAY, dict], "measures": [None, dict],
                  "groups": [None, ARRAY], "strict": [BOOLEAN], "tolerance": TOLERANCE})
def measure_inconsistency(y_true, y_preds, *, measures=None, groups=None, strict=False,
                          tolerance=1e-12):
    """How often two measures order two predictions differently (Section 5).

    Two measures are inconsistent on a pair of predictions ``B1, B2`` of the labels
    ``y_true`` when one finds ``B1`` better than, worse than or equal to ``B2`` and the
    other does not find the same; the inconsistency of two measures is the fraction of the
    pairs of predictions on which they are, as Tables 3, 9, 10, 12 and 13 of Gosgens et al.
    (2021) report in percent.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_preds : array-like of shape (n_predictions, n_samples), DataFrame or dict
        Predictions of the same instances (several classifiers, thresholds, ...): one row
        each, or one column each of a DataFrame, or the values of a dict name -> prediction.
    measures : dict of str to callable, default=None
        ``name -> measure(y_true, y_pred)``, a number where higher is better (negate a loss
        first). Each is called once per prediction (and group). ``None`` takes the measures
        of Section 5 with the singularities resolved as Appendix B says: for two classes
        (the greater label positive) Acc, BA, F1, kappa, CE, GM1, CC, SBA as in Table 3;
        for more, the same with Jaccard added, F1, Jaccard and GM1 macro-averaged, as in
        Table 12. CE is scored as ``1 - CE`` so that higher is better (Table 4 prints it so).
    groups : array-like of shape (n_samples,), default=None
        Group of each instance (a day and a horizon of the weather experiment): each
        measure is computed on each group separately and only predictions of the same group
        are compared; the counts add over groups.
    strict : bool, default=False
        Count only the pairs that the two measures order in opposite strict directions
        (Appendix E.1), not those where one of them sees a tie and the other does not.
    tolerance : float, default=1e-12
        Two scores that differ by at most ``tolerance * max(1, |s1|, |s2|)`` are a tie, so
        that rounding does not break ties between equal values computed differently.

    Returns
    -------
    InconsistencyResult
        ``inconsistency`` (the fractions, a symmetric matrix with the measures in
        ``measure_names`` order), ``n_inconsistent``, ``n_pairs`` and the ``scores``.

    Raises
    ------
    ValueError
        If a measure returns a value that is not a finite number.

    See Also
    --------
    measure_inconsistency_from_confusion : The same from confusion matrices.
    indistinguishable_measures : The measures no triplet tells apart.
    discriminating_triplets : Few triplets that tell every pair apart.
    InconsistencyResult : The result.

    Notes
    -----
    A strictly increasing transformation of a measure (Jaccard of F1, correlation distance
    of CC) is never inconsistent with it; consistency is transitive, so two measures
    consistent with a third on every pair are consistent with each other.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): Section 5 and Appendix E; Tables 3, 9, 10, 12 and 13; strict inconsistency,
    Appendix E.1 (Table 8); the singularities, Appendix B.

    Examples
    --------
    >>> from sklearn_confusion_ext import measure_inconsistency
    >>> y_true = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    >>> y_preds = [[0, 0, 0, 0, 0, 0, 0, 0, 1, 1],  # cautious
    ...            [0, 0, 0, 1, 1, 1, 1, 1, 1, 1],  # eager
    ...            [0, 0, 0, 0, 0, 1, 0, 1, 1, 1]]
    >>> result = measure_inconsistency(y_true, y_preds)
    >>> result.n_pairs
    3
    >>> result  # doctest: +NORMALIZE_WHITESPACE
    InconsistencyResult(n_pairs=3, strict=False)
    measure (%)   Acc     BA     F1  kappa     CE    GM1     CC    SBA
    Acc           0.0   66.7   66.7   33.3   66.7   33.3   33.3   33.3
    BA           66.7    0.0   33.3   33.3  100.0   66.7   66.7   66.7
    F1           66.7   33.3    0.0   33.3  100.0   66.7   66.7   66.7
    kappa        33.3   33.3   33.3    0.0   66.7   33.3   33.3   33.3
    CE           66.7  100.0  100.0   66.7    0.0   33.3   33.3   33.3
    GM1          33.3   66.7   66.7   33.3   33.3    0.0    0.0    0.0
    CC           33.3   66.7   66.7   33.3   33.3    0.0    0.0    0.0
    SBA          33.3   66.7   66.7   33.3   33.3    0.0    0.0    0.0

    Any measures, scikit-learn's for instance (negate a loss):

    >>> from sklearn.metrics import accuracy_score, balanced_accuracy_score
    >>> measures = {"accuracy": accuracy_score, "balanced": balanced_accuracy_score}
    >>> inconsistency, names = measure_inconsistency(y_true, y_preds, measures=measures)
    >>> float(inconsistency[0, 1])
    0.6666666666666666
    """
    names, scores = _scores(y_true, y_preds, measures, groups)
    return _compared(names, scores, strict, tolerance)


@validate_params({"matrices": [ARRAY], "measures": [None, dict], "strict": [BOOLEAN],
                  "tolerance": TOLERANCE})
def measure_inconsistency_from_confusion(matrices, *, measures=None, strict=False,
                                         tolerance=1e-12):
    """How often two measures order two confusion matrices differently (Section 5).

    :func:`measure_inconsistency` on confusion matrices already counted, as the weather
    experiment of Section 5.1 logs them: one matrix per prediction, or one per prediction
    and group (day and horizon), pairs compared within a group.

    Parameters
    ----------
    matrices : array-like of shape (n_predictions, n_classes, n_classes) or \
            (n_groups, n_predictions, n_classes, n_classes)
        Confusion matrices (rows true classes, columns predicted classes); the matrices of
        a group are predictions of the same instances, so share their row sums.
    measures : dict of str to callable, default=None
        ``name -> measure(matrix)``, higher is better. ``None`` takes the measures of
        Section 5 (see :func:`measure_inconsistency`): class 1 of a 2 x 2 matrix is the
        positive class.
    strict : bool, default=False
        Count only opposite strict orders (Appendix E.1).
    tolerance : float, default=1e-12
        Two scores that differ by at most ``tolerance * max(1, |s1|, |s2|)`` are a tie.

    Returns
    -------
    InconsistencyResult

    See Also
    --------
    measure_inconsistency : The same from labels and predictions.
    InconsistencyResult : The result.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): Section 5.1 (the weather experiment) and Appendix E.1.

    Examples
    --------
    Appendix E.1's average matrices (in %) of the ten-minute rain forecast for the two
    smallest thresholds: accuracy prefers the second, balanced accuracy the first.

    >>> from sklearn_confusion_ext import measure_inconsistency_from_confusion
    >>> matrices = [[[93.55, 1.12], [0.22, 5.11]], [[93.76, 0.91], [0.29, 5.04]]]
    >>> result = measure_inconsistency_from_confusion(matrices)
    >>> [round(float(x), 4) for x in result.scores[0, :, 0]]  # Acc
    [0.9866, 0.988]
    >>> [round(float(x), 4) for x in result.scores[0, :, 1]]  # BA
    [0.9734, 0.968]
    >>> int(result.n_inconsistent[0, 1])
    1
    """
    matrices = np.asarray(matrices)
    if matrices.ndim not in (3, 4) or matrices.shape[-1] != matrices.shape[-2]:
        raise ValueError("matrices must have shape (n_predictions, n_classes, n_classes) or "
                         "(n_groups, n_predictions, n_classes, n_classes); got shape "
                         f"{matrices.shape}.")
    for index in np.ndindex(matrices.shape[:-2]):
        check_confusion_matrix(matrices[index], f"matrices[{', '.join(map(str, index))}]",
                               nonzero=True)
    if matrices.ndim == 3:
        matrices = matrices[None]
    names, scores = _matrix_scores(matrices.astype(np.float64), measures)
    return _compared(names, scores, strict, tolerance)


@validate_params({"measures": [None, dict], "n": N_ELEMENTS, "tolerance": TOLERANCE})
def indistinguishable_measures(measures=None, n=8, *, tolerance=1e-12):
    """Groups of binary measures that no triplet of labelings of ``n`` elements tells apart.

    Section 5.1 of Gosgens et al. (2021): over every triplet ``(A, B1, B2)`` of binary
    labelings of ``n`` elements in which both classes occur, two measures are
    indistinguishable when they are consistent (order ``B1`` and ``B2`` the same way, ties
    included) on all of them. Consistency on all triplets is an equivalence, so the
    measures fall into groups.

    Parameters
    ----------
    measures : dict of str to callable, default=None
        ``name -> measure(y_true, y_pred)`` on 0/1 labels, class 1 positive, higher is
        better. ``None`` takes the binary measures of Section 5.1 (Acc, BA, F1, kappa, CE,
        GM1, CC, SBA; CE scored as ``1 - CE``).
    n : int, default=8
        Number of elements.
    tolerance : float, default=1e-12
        Scores closer than this (relative to ``max(1, |s|)``) are a tie.

    Returns
    -------
    list of set of str
        The groups of two or more mutually indistinguishable measures, in the order of
        their first member in ``measures``; an empty list when every pair is
        distinguishable.

    See Also
    --------
    discriminating_triplets : Triplets that tell the measures apart.
    measure_inconsistency : The inconsistency over given predictions.

    Notes
    -----
    Every measure is taken to depend on the labelings through their confusion matrix only
    (true of every measure of the paper): it is called once per confusion matrix of ``n``
    elements with both classes in both labelings (a representative pair of labelings),
    which covers every triplet, about ``n**3 / 6`` calls instead of ``(2**n - 2)**2``.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): Section 5.1.

    Examples
    --------
    >>> from sklearn_confusion_ext import indistinguishable_measures
    >>> [sorted(group) for group in indistinguishable_measures(n=8)]
    [['CC', 'SBA']]
    >>> [sorted(group) for group in indistinguishable_measures(n=4)]
    [['BA', 'CC', 'GM1', 'SBA', 'kappa']]
    """
    _check_situations("indistinguishable_measures", n, measures, every_pair=False)
    names, situations = _binary_situations(measures, n)
    agree = None
    for scores in situations:
        counts = _inconsistent_counts(_pair_signs(scores[None], tolerance), strict=False)
        agree = counts == 0 if agree is None else agree & (counts == 0)
    groups, seen = [], set()
    for i, name in enumerate(names):
        if name in seen:
            continue
        group = {names[j] for j in np.flatnonzero(agree[i])}
        seen |= group
        if len(group) > 1:
            groups.append(group)
    return groups


@validate_params({"n": N_ELEMENTS, "measures": [None, dict], "tolerance": TOLERANCE})
def discriminating_triplets(n=10, *, measures=None, tolerance=1e-12):
    """Few triplets of binary labelings that tell every pair of measures apart (Table 8).

    Appendix E.1 of Gosgens et al. (2021): a triplet ``(A, B1, B2)`` of a true binary
    labeling and two predictions discriminates two measures when one finds ``B1`` strictly
    closer to ``A`` and the other ``B2``. Among all triplets of ``n`` elements (both classes
    in every labeling), a greedy cover chooses few that discriminate every pair that some
    triplet discriminates (the paper lists six for ``n = 10``).

    Parameters
    ----------
    n : int, default=10
        Number of elements.
    measures : dict of str to callable, default=None
        As in :func:`indistinguishable_measures`.
    tolerance : float, default=1e-12
        Scores closer than this (relative to ``max(1, |s|)``) are a tie.

    Returns
    -------
    DiscriminatingTripletsResult
        ``triplets`` and, for each pair of measures, the index of a triplet that
        discriminates it (``triplet_index``, -1 where none does).

    See Also
    --------
    indistinguishable_measures : The pairs no triplet tells apart.
    DiscriminatingTripletsResult : The result.
    measure_inconsistency : The inconsistency over given predictions.

    References
    ----------
    M. Gösgens, A. Zhiyanov, A. Tikhonov, L. Prokhorenkova, "Good Classification Measures
    and How to Find Them", Advances in Neural Information Processing Systems 34 (NeurIPS
    2021): Appendix E.1, Table 8.

    Examples
    --------
    >>> from sklearn_confusion_ext import discriminating_triplets
    >>> result = discriminating_triplets(10)
    >>> len(result.triplets) <= 6, bool((result.triplet_index >= 0).sum() == 8 * 7)
    (True, True)
    """
    _check_situations("discriminating_triplets", n, measures, every_pair=True)
    names, situations = _binary_situations(measures, n)
    candidates, covers = [], []
    for (a1, matrices), scores in zip(_matrices_by_true_size(n), situations):
        signs = _pair_signs(scores[None], tolerance)
        positive, negative = (signs > 0), (signs < 0)
        discriminated = (positive[:, :, None] & negative[:, None, :]) | (
            negative[:, :, None] & positive[:, None, :])
        first, second = np.triu_indices(len(matrices), 1)
        candidates += [(a1, matrices[i], matrices[j]) for i, j in zip(first, second)]
        covers.append(discriminated.reshape(len(first), -1))
    covers = np.concatenate(covers)
    chosen, uncovered = [], covers.any(axis=0)
    while uncovered.any():
        best = int(np.argmax((covers & uncovered).sum(axis=1)))
        chosen.append(best)
        uncovered &= ~covers[best]
    n_measures = len(names)
    triplet_index = np.full(n_measures * n_measures, -1)
    for k, candidate in reversed(list(enumerate(chosen))):
        triplet_index[covers[candidate]] = k
    triplets = np.array([_triplet(*candidates[k], n) for k in chosen], dtype=int).reshape(
        len(chosen), 3, n)
    return DiscriminatingTripletsResult(
        triplets, triplet_index.reshape(n_measures, n_measures), measure_names=names)


# --- Machinery ---------------------------------------------------------------------------------


def _scores(y_true, y_preds, measures, groups):
    """Names and scores of shape (n_groups, n_predictions, n_measures)."""
    if hasattr(y_preds, "ndim") and getattr(y_preds, "ndim", 2) == 1 or isinstance(
            y_preds, (str, bytes)):
        raise ValueError("y_preds must hold several predictions, shape "
                         "(n_predictions, n_samples); got a single 1-D array.")
    if hasattr(y_preds, "columns"):  # a DataFrame: one column per classifier
        y_preds = [y_preds[column] for column in y_preds.columns]
    elif isinstance(y_preds, dict):  # name -> predictions
        y_preds = list(y_preds.values())
    y_preds = list(y_preds)
    n_samples = len(y_true)
    for k, y_pred in enumerate(y_preds):
        if len(y_pred) != n_samples:
            raise ValueError(f"y_preds[{k}] has {len(y_pred)} samples; y_true has "
                             f"{n_samples}.")
    if groups is None:
        group_of = np.zeros(n_samples, dtype=np.intp)
    else:
        group_of = group_codes(groups, n_samples)[0]
    n_groups = int(group_of.max()) + 1
    if measures is None:
        return _section5_scores(y_true, y_preds, group_of, n_groups)
    names = tuple(measures)
    if not names:
        raise ValueError("measures is empty; give at least one name -> callable.")
    y_true_array = np.asarray(y_true)
    pred_arrays = [np.asarray(y_pred) for y_pred in y_preds]
    scores = np.empty((n_groups, len(y_preds), len(names)))
    for g in range(n_groups):
        rows = group_of == g
        for k, y_pred in enumerate(pred_arrays):
            for m, name in enumerate(names):
                scores[g, k, m] = _finite(name, measures[name],
                                          (y_true_array[rows], y_pred[rows]),
                                          f"y_preds[{k}]")
    return names, scores


def _compared(names, scores, strict, tolerance):
    n_predictions = scores.shape[1]
    if n_predictions < 2:
        raise ValueError(f"{n_predictions} prediction given; at least two are needed to "
                         "compare their orders.")
    signs = _pair_signs(scores, tolerance)
    counts = _inconsistent_counts(signs, strict)
    n_pairs = signs.shape[0]
    return InconsistencyResult(counts / n_pairs, names, n_inconsistent=counts,
                               n_pairs=n_pairs, scores=scores, strict=strict)


def _matrix_scores(matrices, measures):
    """Names and scores (n_groups, n_predictions, n_measures) of matrices of that shape
    plus (n_classes, n_classes)."""
    if measures is None:
        names = _BINARY if matrices.shape[-1] == 2 else _MULTICLASS
        measures = {name: _SECTION5[name] for name in names}
    names = tuple(measures)
    if not names:
        raise ValueError("measures is empty; give at least one name -> callable.")
    scores = np.empty((*matrices.shape[:2], len(names)))
    for g, k in np.ndindex(matrices.shape[:2]):
        for m, name in enumerate(names):
            scores[g, k, m] = _finite(name, measures[name], (matrices[g, k],),
                                      f"prediction {k}")
    return names, scores


def _finite(name, measure, arguments, where):
    """``measure(*arguments)`` as a finite float, or an error naming the measure."""
    if not callable(measure):
        raise TypeError(f"measures[{name!r}] must be callable; got "
                        f"{type(measure).__name__}.")
    value = measure(*arguments)
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"measures[{name!r}] returned {value!r} on {where}; a number is "
                         "needed.") from None
    if not np.isfinite(value):
        raise ValueError(f"measures[{name!r}] returned {value} on {where}; resolve its "
                         "undefined cases first (e.g. zero_division=1.0).")
    return value


def _section5_scores(y_true, y_preds, group_of, n_groups):
    """The paper's measures on every prediction's confusion matrix, built in one bincount."""
    named = {"y_true": y_true, **{f"y_preds[{k}]": y for k, y in enumerate(y_preds)}}
    target_set = check_target_set(named)
    if target_set.codes is None or any(len(c) != len(group_of) for c in target_set.codes):
        raise ValueError("measures=None takes 1-D class labels; pass measures for other "
                         "targets.")
    codes = np.stack([np.asarray(c, dtype=np.int64) for c in target_set.codes])
    n_classes = max(len(target_set.classes), 2)
    true_codes, pred_codes = codes[0], codes[1:]
    n_predictions = len(y_preds)
    cell = ((group_of[None, :] * n_predictions + np.arange(n_predictions)[:, None])
            * n_classes + true_codes[None, :]) * n_classes + pred_codes
    matrices = np.bincount(cell.ravel(), minlength=n_groups * n_predictions * n_classes ** 2)
    return _matrix_scores(matrices.reshape(n_groups, n_predictions, n_classes, n_classes)
                          .astype(np.float64), None)


def _pair_signs(scores, tolerance):
    """Sign of ``score(B_i) - score(B_j)`` for every pair ``i < j`` of predictions of each
    group: an int8 array of shape (n_groups * n_pairs, n_measures), ties within tolerance 0."""
    first, second = np.triu_indices(scores.shape[1], 1)
    a, b = scores[:, first], scores[:, second]
    difference = a - b
    scale = np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))
    signs = np.where(np.abs(difference) <= tolerance * scale, 0, np.sign(difference))
    return signs.astype(np.int8).reshape(-1, scores.shape[2])


def _inconsistent_counts(signs, strict):
    """For each two measures, the number of pairs they order differently: ``n_pairs`` less
    the pairs with equal signs, or (strict) the pairs with opposite strict signs."""
    positive = (signs > 0).astype(np.float64)
    negative = (signs < 0).astype(np.float64)
    if strict:
        opposite = positive.T @ negative
        counts = opposite + opposite.T
    else:
        tied = (signs == 0).astype(np.float64)
        counts = signs.shape[0] - (positive.T @ positive + negative.T @ negative
                                   + tied.T @ tied)
    return np.rint(counts).astype(np.int64)


def _matrices_by_true_size(n):
    """For each number ``a1`` of true positives (1 .. n-1), the binary confusion matrices
    ``[[c00, c01], [c10, c11]]`` of ``n`` elements whose prediction holds both classes."""
    for a1 in range(1, n):
        a0 = n - a1
        c11, c01 = np.meshgrid(np.arange(a1 + 1), np.arange(a0 + 1), indexing="ij")
        c11, c01 = c11.ravel(), c01.ravel()
        b1 = c11 + c01
        keep = (b1 > 0) & (b1 < n)
        c11, c01 = c11[keep], c01[keep]
        matrices = np.stack([np.stack([a0 - c01, c01], axis=-1),
                             np.stack([a1 - c11, c11], axis=-1)], axis=1)
        yield a1, matrices


def _labelings(a1, matrix, n):
    """A representative pair of labelings with this confusion matrix: the true positives
    first."""
    (c00, c01), (c10, c11) = (int(x) for x in matrix[0]), (int(x) for x in matrix[1])
    y_true = np.repeat([1, 0], [a1, n - a1])
    y_pred = np.repeat([1, 0, 1, 0], [c11, c10, c01, c00])
    return y_true, y_pred


def _triplet(a1, first, second, n):
    y_true, b1 = _labelings(a1, first, n)
    return y_true, b1, _labelings(a1, second, n)[1]


def _check_situations(function, n, measures, every_pair):
    """Refuse, before any work, an ``n`` whose binary confusion matrices (about
    ``n**3 / 6``, each scored by every measure) take more than the memory budget, with,
    for each number of true positives, the pairs of its matrices (``every_pair``: all of
    them kept at once, as :func:`discriminating_triplets` chooses among them, with a
    candidate triplet each)."""
    n_measures = len(_BINARY) if measures is None else max(1, len(measures))
    # matrices with a1 true positives: (a1 + 1)(n - a1 + 1) at most, a1 = 1 .. n - 1
    total = (n + 2) * (n * (n + 1) // 2 - 1) - (n * (n + 1) * (2 * n + 1) // 6 - 1)
    largest = ((n + 2) // 2) ** 2
    if every_pair:  # all the pairs: the sum of m**2 / 2 over the a1, at most
        pairs = float(largest) * total / 2
        entries = total * n_measures + pairs * (n_measures ** 2 / 8 + 32)
    else:  # the pairs of one a1 at a time
        entries = total * n_measures + float(largest) ** 2 / 2 * n_measures ** 2 / 8
    check_result_size(function, (entries,),
                      f"the scores of {total:,} confusion matrices of n={n} elements by "
                      f"{n_measures} measures, and their pairs",
                      remedy="Pass a smaller n")


def _binary_situations(measures, n):
    """Names, and for each ``a1`` the scores (n_matrices, n_measures) of its matrices."""
    by_size = list(_matrices_by_true_size(n))
    if measures is None:
        situations = [_matrix_scores(matrices[None].astype(np.float64), None)[1][0]
                      for _, matrices in by_size]
        return _BINARY, situations
    names = tuple(measures)
    if not names:
        raise ValueError("measures is empty; give at least one name -> callable.")
    situations = []
    for a1, matrices in by_size:
        pairs = [_labelings(a1, matrix, n) for matrix in matrices]
        situations.append(np.array([[_finite(name, measures[name], (y_true, y_pred),
                                             f"y_true={_bits(y_true)}, y_pred={_bits(y_pred)}")
                                     for name in names] for y_true, y_pred in pairs]))
    return names, situations
