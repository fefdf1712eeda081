"""The cost of decisions: the expected cost of predictions, the decisions that minimise it
under predicted probabilities, and a scorer of it.

A cost matrix ``cost[i, j]`` is the cost of deciding class ``j`` for an instance of true
class ``i``: rows are true classes and columns decisions, the layout of a confusion matrix
(Elkan 2001 writes the transpose). Costs may be negative (a benefit). The expected cost of
hard predictions is linear in their confusion matrix ``M``: ``(M * cost).sum() / M.sum()``.
Under a row of probabilities ``p``, deciding ``j`` costs ``(p @ cost)[j]`` in expectation,
and the Bayes decision is its argmin (Elkan 2001, eq. 1); the decisions of ``n`` rows are
one matrix product, computed in row chunks, never a loop over instances.

The expected cost of labels is registered with the resolver of the statistics
(:func:`~sklearn_confusion_ext._scores.resolved.register_matrix_metric`), so that its
intervals and paired comparisons read it off the resampled matrices.
"""

import math
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import make_scorer

from .._core.chunks import chunk_rows
from .._core.frames import _column_names
from .._core.labels import check_label_list
from .._core.params import (
    ARRAY,
    BOOLEAN,
    TARGETS,
    Interval,
    Label,
    Options,
    quoted,
    validate_params,
)
from .._core.probabilities import checked_probabilities, refuse_unsorted_columns
from .._core.targets import check_targets
from .._core.user_warnings import warn
from .._matrices.rejection import check_reject_label, rejections
from .._matrices.transport import transport_confusion
from .._scores.from_confusion import confusion_for_labels
from .._scores.resolved import register_matrix_metric
from .._scores.scorers import ScoreRequester, _predictions

# --- The cost matrix ----------------------------------------------------------------------


def check_cost_matrix(cost_matrix, n_classes=None, classes=None):
    """``cost_matrix`` as a float64 ``(C, C)`` array of finite costs (``C = n_classes``
    when given, ``classes`` their labels for the message); ValueError naming it."""
    if sp.issparse(cost_matrix):
        cost_matrix = cost_matrix.toarray()
    try:
        cost = np.asarray(cost_matrix)
    except ValueError:  # ragged nested lists
        raise ValueError("cost_matrix must be a square matrix of costs; its rows have "
                         "different lengths.") from None
    if cost.ndim != 2 or cost.shape[0] != cost.shape[1] or cost.shape[0] == 0:
        raise ValueError(f"cost_matrix must be a square (n_classes, n_classes) matrix of "
                         f"costs (rows true classes, columns decisions); got shape "
                         f"{cost.shape}.")
    if cost.dtype.kind not in "biuf":
        raise ValueError(f"cost_matrix must hold real numbers; got dtype {cost.dtype}.")
    cost = cost.astype(np.float64)
    if not np.isfinite(cost).all():
        row, column = np.argwhere(~np.isfinite(cost))[0]
        raise ValueError(f"cost_matrix must hold finite costs; cost_matrix[{row}, {column}] "
                         f"is {cost[row, column]}.")
    if n_classes is not None and cost.shape[0] != n_classes:
        named = "" if classes is None else f" {quoted(list(np.asarray(classes).tolist()))}"
        raise ValueError(
            f"cost_matrix has shape {cost.shape} but there are {n_classes} classes{named}; "
            "its rows are the true classes and its columns the decisions, in the order of "
            "labels= (default: the sorted classes). Pass labels= to name the classes of "
            "the cost matrix.")
    return cost


def _cost_of_matrix(matrix, cost, normalize):
    """The cost of the counts ``matrix`` (rows true classes, columns decisions) under
    ``cost`` (None: 0-1 costs, read off the diagonal with no matrix of costs): the mean
    (``normalize``) or the total; the mean of an empty matrix is 0.0, with a warning.
    Where counts times costs overflow, both are scaled first: the mean stays finite."""
    largest = matrix.max(initial=0.0)
    if largest == 0:
        if normalize:
            warn("The expected cost is ill-defined where no instance is counted and is set "
                 "to 0.0.", UndefinedMetricWarning)
        return 0.0
    count_scale = cost_scale = 1.0
    with np.errstate(over="ignore", invalid="ignore"):
        total, spent = _spent(matrix, cost)
        if not (np.isfinite(total) and np.isfinite(spent)):
            count_scale = largest
            cost_scale = 1.0 if cost is None else float(np.abs(cost).max()) or 1.0
            total, spent = _spent(matrix / count_scale,
                                  None if cost is None else cost / cost_scale)
        if normalize:  # a mean cost lies between the smallest and the largest cost
            bounds = (0.0, 1.0) if cost is None else (cost.min(), cost.max())
            return float(np.clip(spent / total * cost_scale, *bounds))
        spent = spent * count_scale * cost_scale
    if not np.isfinite(spent):
        raise ValueError("The total cost overflows float64 (the weighted counts times "
                         "cost_matrix); pass normalize=True for the mean cost, or scale "
                         "cost_matrix or sample_weight down.")
    return float(spent)


def _spent(matrix, cost):
    """The total count of ``matrix`` and its total cost under ``cost`` (None: 0-1)."""
    total = matrix.sum()
    if cost is None:
        return total, total - np.trace(matrix)
    return total, np.sum(matrix * cost)


# --- Decisions under probabilities ---------------------------------------------------------


def _columns(y):
    """The number of columns of a 2-D target (a single column reads as 1-D labels, as
    scikit-learn reads it); None for any other shape (validation names its fault)."""
    shape = _shape(y)
    return shape[1] if shape is not None and len(shape) == 2 and shape[1] != 1 else None


def _shape(y):
    """The shape of array-like ``y``; None for ragged lists (validation names them)."""
    shape = getattr(y, "shape", None)
    if shape is None:
        try:
            shape = np.shape(y)
        except (ValueError, TypeError):
            return None
    return tuple(shape)


def _bayes_decisions(y_prob, cost):
    """The column of least expected cost of each row of ``y_prob`` (dense or CSR) under
    ``cost`` (None: 0-1 costs, the column of largest probability), exact ties to the first:
    one matrix product per chunk of rows, the rows never copied whole."""
    n_samples, n_classes = y_prob.shape
    decisions = np.empty(n_samples, dtype=np.intp)
    step = chunk_rows(8 * n_classes)
    for start in range(0, n_samples, step):
        block = y_prob[start:start + step]
        if cost is None:
            chosen = block.argmax(axis=1)
            decisions[start:start + step] = np.asarray(chosen).ravel()
        else:
            decisions[start:start + step] = np.argmin(np.asarray(block @ cost), axis=1)
    return decisions


def _chow_decisions(y_prob, cost, reject_cost):
    """The decisions of Chow's reject rule: each row's column of least expected cost under
    ``cost`` (None: 0-1 costs), or ``n_classes`` (the "rejected" column) where that least
    expected cost, under the row divided by its sum, exceeds ``reject_cost``; chunked as
    :func:`_bayes_decisions`, with the same answers where it answers; a warning where
    ``reject_cost`` is below every cost, so that every instance is rejected."""
    least_cost = 0.0 if cost is None else float(cost.min())
    if reject_cost < least_cost:
        warn(f"reject_cost={reject_cost!r} is below every cost of answering (the least is "
             f"{least_cost:g}): every instance is rejected, whatever its probabilities.",
             UserWarning)
    n_samples, n_classes = y_prob.shape
    decisions = np.empty(n_samples, dtype=np.intp)
    step = chunk_rows(8 * n_classes)
    for start in range(0, n_samples, step):
        block = y_prob[start:start + step]
        sums = np.asarray(block.sum(axis=1), dtype=np.float64).ravel()
        if cost is None:  # answering the top label costs 1 - its probability
            chosen = np.asarray(block.argmax(axis=1)).ravel()
            top = block.max(axis=1)
            top = np.asarray(top.toarray() if sp.issparse(top) else top).ravel()
            least = 1.0 - top / sums
        else:
            expected = np.asarray(block @ cost)
            chosen = np.argmin(expected, axis=1)
            least = np.take_along_axis(expected, chosen[:, None], axis=1).ravel() / sums
        decisions[start:start + step] = np.where(least > reject_cost, n_classes, chosen)
    return decisions


def _refuse_empty_rows(name, norms):
    empty = np.flatnonzero(np.asarray(norms) == 0)
    if empty.size:
        raise ValueError(f"{name} row {empty[0]} has no probability mass (all zeros): no "
                         "decision can be read from it; pass a classifier's predict_proba.")


def _columns_sorted(y_pred, labels):
    """``labels`` beside unnamed 2-D probabilities checked as every class of their columns
    in sorted order (:func:`~.._core.probabilities.refuse_unsorted_columns`); the cost
    matrix is then in that order. Other targets unchanged."""
    if labels is not None and _column_names(y_pred) is None and np.ndim(y_pred) == 2:
        refuse_unsorted_columns(labels, np.shape(y_pred)[1], "y_pred", "expected_cost")


def _cost_of_probabilities(y_true, y_pred, cost_matrix, labels, sample_weight, normalize,
                           reject_cost=None):
    _columns_sorted(y_pred, labels)
    targets = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    _refuse_empty_rows("y_pred", targets.pred_norm)
    classes, n_classes = targets.classes, len(targets.classes)
    cost = None
    if cost_matrix is not None:
        order = targets.selection  # a categorical's order of the columns' classes
        cost = check_cost_matrix(cost_matrix, n_classes,
                                 classes if order is None else classes[order])
        if order is not None:  # the cost of the columns, in their own order
            reordered = np.empty_like(cost)
            reordered[np.ix_(order, order)] = cost
            cost = reordered
    true_codes = targets.y_true.indices  # one-hot rows: the column of each true class
    weights = targets.sample_weight
    if reject_cost is not None:  # Chow's rule: the matrix with its "rejected" column
        decisions = _chow_decisions(targets.y_pred, cost, reject_cost)
        counts = np.bincount(true_codes.astype(np.intp) * (n_classes + 1) + decisions,
                             weights=weights, minlength=n_classes * (n_classes + 1))
        cost = (1.0 - np.eye(n_classes)) if cost is None else cost
        cost = np.column_stack([cost, np.full(n_classes, float(reject_cost))])
        return _cost_of_matrix(counts.reshape(n_classes, n_classes + 1), cost, normalize)
    decisions = _bayes_decisions(targets.y_pred, cost)
    if cost is None:  # 0-1 costs: the weighted counts of right and wrong decisions only
        right = true_codes == decisions
        counts = np.bincount(right.astype(np.intp), weights=weights, minlength=2)
        return _cost_of_matrix(np.array([[counts[1], counts[0]], [0.0, 0.0]]), None,
                               normalize)
    counts = np.bincount(true_codes.astype(np.intp) * n_classes + decisions,
                         weights=weights, minlength=n_classes * n_classes)
    return _cost_of_matrix(counts.reshape(n_classes, n_classes), cost, normalize)


def _cost_with_rejections(y_true, y_pred, cost_matrix, labels, sample_weight, normalize,
                          reject_label, reject_cost):
    """The cost of decisions with abstentions: the matrix with its "rejected" column
    (:mod:`.._matrices.rejection`) under the cost matrix with a last column of
    ``reject_cost``."""
    built = check_reject_label(reject_label, y_true, y_pred, labels)
    confusion = transport_confusion(y_true, y_pred, labels=built, weighting="uniform",
                                    sample_weight=sample_weight, empty="null_class")
    found = rejections(confusion, reject_label)
    n_classes = len(found.classes)
    cost = (1.0 - np.eye(n_classes)) if cost_matrix is None else check_cost_matrix(
        cost_matrix, n_classes, found.classes)
    cost = np.column_stack([cost, np.full(n_classes, float(reject_cost))])
    return _cost_of_matrix(found.matrix, cost, normalize)


# --- The public functions ------------------------------------------------------------------


@validate_params({**TARGETS, "cost_matrix": [None, ARRAY], "labels": [None, ARRAY],
                  "sample_weight": [None, ARRAY], "normalize": [BOOLEAN],
                  "reject_label": [None, Label()],
                  "reject_cost": [None, Interval(Real, None, None)]})
def expected_cost(y_true, y_pred, *, cost_matrix=None, labels=None, sample_weight=None,
                  normalize=True, reject_label=None, reject_cost=None):
    """Expected cost of decisions: hard predictions, or the Bayes decisions of probabilities.

    On class labels, the (weighted) mean over instances of ``cost_matrix[true, predicted]``,
    read off their confusion matrix ``M`` as ``(M * cost_matrix).sum() / M.sum()``. On
    probabilities (``y_pred`` of shape ``(n_samples, n_classes)``, a classifier's
    ``predict_proba``, beside 1-D labels), the cost of the decisions that minimise the
    expected cost under them (:func:`cost_optimal_predictions`): with 0-1 costs the class
    of largest probability; with ``reject_cost``, Chow's rule: no answer, at that cost,
    where answering would cost more in expectation.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (one true class per instance: 2-D targets are refused).
    y_pred : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted class labels, or predicted probabilities, one column per class, the
        classes in sorted order (a classifier's ``classes_``; a DataFrame's column names);
        rows that do not sum to 1 are read divided by their sum, with a warning.
    cost_matrix : array-like of shape (n_classes, n_classes), default=None
        ``cost_matrix[i, j]``: the cost of deciding class ``j`` for an instance of class
        ``i`` (rows true classes, columns decisions, as a confusion matrix), in the order
        of ``labels`` (default: the sorted classes of both targets, or a categorical's
        categories in their order, as :func:`transport_confusion_matrix` orders them).
        Finite; negative costs are benefits. None: 0-1 costs (0 on the diagonal, 1
        elsewhere), whose expected cost is the error rate, ``1 - accuracy``.
    labels : array-like of shape (n_classes,), default=None
        The classes of the cost matrix, in its order. On labels, as ``labels=`` of
        :func:`sklearn.metrics.confusion_matrix`: a listed class absent from the data
        counts zero, and instances of unlisted classes are left out. Beside
        probabilities: every class of the columns, in sorted order (a classifier's
        ``classes_``, the cost matrix's order), needed where ``y_true`` lacks one; a
        subset or another order is refused.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    normalize : bool, default=True
        The mean cost per (weighted) instance; False: the total cost.
    reject_label : int, float, bool or str, default=None
        On labels: the value of ``y_pred`` that says the classifier abstained, as in
        :func:`transport_confusion_matrix` (never a class of ``y_true``, nor of
        ``labels`` or ``cost_matrix``). Needs ``reject_cost`` (which, without it, is
        ignored with a warning). Not beside probabilities, whose abstentions
        (``reject_cost`` alone) need no label.
    reject_cost : float, default=None
        The cost of one abstention, whatever the true class. On labels (with
        ``reject_label``): the cost matrix gains a last column of it beside the matrix's
        "rejected" column. On probabilities (alone, without ``reject_label``): the
        decisions are those of Chow's rule, :func:`cost_optimal_predictions` with
        ``reject_cost``, abstaining where the least expected cost of answering exceeds
        it, and each abstention costs it. Any finite number, as the costs of
        ``cost_matrix`` (a constant added to every cost and to it changes no decision). With
        0-1 costs and ``reject_cost=d``, the mean cost of answering where the top
        probability is at least ``t`` is ``coverage * risk + (1 - coverage) * d`` of
        :func:`risk_coverage_curve` at ``t``: abstaining pays where the risk of the
        answers it removes exceeds ``d`` (Chow 1970).

    Returns
    -------
    float
        Lower is better. Where no instance is counted (every weight zero, or ``labels``
        that no instance has), the mean is 0.0, with an ``UndefinedMetricWarning``.

    See Also
    --------
    cost_optimal_predictions : The Bayes decisions of probabilities.
    make_cost_scorer : The expected cost as a scorer, for GridSearchCV and
        TunedThresholdClassifierCV.
    transport_accuracy_score : The accuracy, one minus the expected 0-1 cost on labels.
    score_confidence_interval : Its interval (``scoring=expected_cost``, with
        ``cost_matrix=``).

    References
    ----------
    C. Elkan, "The Foundations of Cost-Sensitive Learning", Proceedings of the 17th
    International Joint Conference on Artificial Intelligence (IJCAI 2001), 973-978:
    eq. (1), the optimal decision (its cost matrix is the transpose of this one).
    C. K. Chow, "On optimum recognition error and reject tradeoff", IEEE Transactions on
    Information Theory 16 (1970) 41-46: the cost of rejections beside errors.

    Examples
    --------
    A missed positive costs 5, a false alarm 1:

    >>> from sklearn_confusion_ext import expected_cost
    >>> cost = [[0, 1], [5, 0]]
    >>> expected_cost([0, 0, 1, 1], [0, 1, 1, 0], cost_matrix=cost)
    1.5
    >>> expected_cost([0, 0, 1, 1], [0, 1, 1, 0], cost_matrix=cost, normalize=False)
    6.0

    On probabilities, the decision minimising the expected cost: a 30 % chance of the
    positive class is enough to decide it (``0.3 * 5 > 0.7 * 1``):

    >>> expected_cost([0, 1], [[0.7, 0.3], [0.9, 0.1]], cost_matrix=cost)
    3.0

    Abstaining (``-1``) at a cost of 0.4 instead of risking a missed positive:

    >>> expected_cost([0, 0, 1, 1], [0, 1, 1, -1], cost_matrix=cost, reject_label=-1,
    ...               reject_cost=0.4)
    0.35

    On probabilities, abstaining at a cost of 0.6 where answering costs more in
    expectation (Chow's rule): the first instance (an expected 0.7 to answer) is not
    answered, the second is, wrongly:

    >>> expected_cost([0, 1], [[0.7, 0.3], [0.9, 0.1]], cost_matrix=cost, reject_cost=0.6)
    2.8
    """
    if _columns(y_true) is not None:
        raise ValueError(
            f"expected_cost reads one true class per instance: y_true must be 1-D class "
            f"labels; got a 2-D y_true of shape {np.shape(y_true)} (pass the labels, "
            "e.g. the argmax of one-hot rows).")
    if reject_label is not None and reject_cost is None:
        raise ValueError(f"reject_label={reject_label!r} is given without reject_cost: an "
                         "abstention (reject_label, in y_pred) has a cost; pass reject_cost= "
                         "(e.g. below the error rate of the answers withheld).")
    if _columns(y_pred) is not None:
        if reject_label is not None:
            raise ValueError(f"reject_label={reject_label!r} applies to predicted labels; "
                             "y_pred holds probabilities (2-D), whose decisions abstain by "
                             "Chow's rule with reject_cost= alone (their abstentions need no "
                             "label): leave reject_label=None, or pass the decisions, the "
                             "reject label among them.")
        return _cost_of_probabilities(y_true, y_pred, cost_matrix, labels, sample_weight,
                                      normalize, reject_cost)
    if reject_cost is not None and reject_label is None:
        warn(f"reject_cost={reject_cost!r} is read only with reject_label= on labels (the "
             "value of y_pred that says the classifier abstained); without it, it is "
             "ignored. (On probabilities, reject_cost= alone abstains by Chow's rule.)",
             UserWarning)
    if reject_label is not None:
        return _cost_with_rejections(y_true, y_pred, cost_matrix, labels, sample_weight,
                                     normalize, reject_label, reject_cost)
    confusion = transport_confusion(y_true, y_pred, labels=labels, weighting="uniform",
                                    sample_weight=sample_weight, empty="null_class")
    matrix = confusion.selected()
    cost = None if cost_matrix is None else check_cost_matrix(
        cost_matrix, matrix.shape[0], confusion.selected_labels())
    return _cost_of_matrix(matrix, cost, normalize)



@validate_params({"y_prob": [ARRAY], "cost_matrix": [ARRAY], "labels": [None, ARRAY],
                  "reject_cost": [None, Interval(Real, None, None)],
                  "reject_label": [None, Label()]})
def cost_optimal_predictions(y_prob, cost_matrix, *, labels=None, reject_cost=None,
                             reject_label=None):
    """The decisions of least expected cost under predicted probabilities (Bayes decisions).

    For each row ``p`` of ``y_prob``, deciding class ``j`` costs ``(p @ cost_matrix)[j]``
    in expectation; the decision is the class of least expected cost, an exact tie going
    to the first class (in the order of the columns). With 0-1 costs it is the class of
    largest probability; a cost matrix that makes some errors dearer moves the decisions
    towards the classes whose misses cost most.

    With ``reject_cost``, abstaining is one more decision, of that cost whatever the
    class (Chow 1970): the decision is ``reject_label`` where the least expected cost of
    answering, ``min_j (p @ cost_matrix)[j]`` (``p`` divided by its sum), exceeds
    ``reject_cost``, and the class of least expected cost elsewhere (a tie answers). With
    0-1 costs (``np.ones((C, C)) - np.eye(C)``) this is Chow's rule: abstain where the top
    probability is below ``1 - reject_cost``, the rule of
    ``threshold_confusion_matrices(..., target="top_label")`` at that threshold; a
    ``reject_cost`` of ``1 - 1 / C`` or more never abstains (the least expected cost is at
    most that), and one below every cost always does (with a warning).

    Parameters
    ----------
    y_prob : array-like of shape (n_samples, n_classes)
        Predicted probabilities (a classifier's ``predict_proba``), dense or sparse;
        rows that do not sum to 1 are read divided by their sum (the decision is the
        same), with a warning.
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``cost_matrix[i, j]``: the cost of deciding class ``j`` for an instance of class
        ``i`` (rows true classes, columns decisions), in the order of the columns of
        ``y_prob``, the classes in sorted order. Finite; negative costs are benefits.
    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_prob`` (a classifier's ``classes_``, in sorted
        order): the decisions are these labels. None: the decisions are column indices.
    reject_cost : float, default=None
        The cost of an abstention, in the units of ``cost_matrix``: any finite number
        (costs may be negative, and a constant added to every cost and to it changes no
        decision). None: never abstain.
    reject_label : int, float, bool or str, default=None
        With ``reject_cost``, the decision that says "no answer": no class, of the kind of
        the decisions. None: ``-1`` for column indices (``labels=None``) and numeric
        ``labels``, ``"reject"`` for string ``labels``; where that default is one of
        ``labels`` (or for boolean labels), pass it. The decisions then go, as they are,
        to :func:`expected_cost` and :func:`transport_confusion_matrix` with the same
        ``reject_label=``.

    Returns
    -------
    ndarray of shape (n_samples,)
        The decision of each instance: a column index, or its label from ``labels``;
        with ``reject_cost``, ``reject_label`` where it abstains.

    See Also
    --------
    expected_cost : The expected cost of these decisions.
    make_cost_scorer : The expected cost as a scorer.
    sklearn.model_selection.TunedThresholdClassifierCV : A binary decision threshold tuned
        on a score, such as the cost of :func:`make_cost_scorer`.

    References
    ----------
    C. Elkan, "The Foundations of Cost-Sensitive Learning", Proceedings of the 17th
    International Joint Conference on Artificial Intelligence (IJCAI 2001), 973-978:
    eq. (1), the optimal decision (its cost matrix is the transpose of this one).
    C. K. Chow, "On optimum recognition error and reject tradeoff", IEEE Transactions on
    Information Theory 16 (1970) 41-46: the reject rule (``reject_cost``).

    Examples
    --------
    >>> from sklearn_confusion_ext import cost_optimal_predictions
    >>> proba = [[0.7, 0.3], [0.9, 0.1]]
    >>> cost_optimal_predictions(proba, [[0, 1], [1, 0]])
    array([0, 0])
    >>> cost_optimal_predictions(proba, [[0, 1], [5, 0]], labels=["healthy", "ill"])
    array(['ill', 'healthy'], dtype='<U7')

    Abstaining costs 0.6: the first instance would cost 0.7 in expectation to answer
    (``0.7 * 1`` deciding "ill"), the second 0.5 (``0.1 * 5`` deciding "healthy"):

    >>> cost_optimal_predictions(proba, [[0, 1], [5, 0]], labels=["healthy", "ill"],
    ...                          reject_cost=0.6)
    array(['reject', 'healthy'], dtype='<U7')
    """
    if reject_label is not None and reject_cost is None:
        raise ValueError(f"reject_label={reject_label!r} is given without reject_cost: the "
                         "decisions abstain only where answering costs more than an "
                         "abstention; pass reject_cost= (its cost).")
    names = None if labels is None else check_label_list(labels)
    if reject_cost is not None:  # before any work
        reject_label = _decision_reject_label(reject_label, names)
    shape = _shape(y_prob)
    if shape is not None and _columns(y_prob) is None:  # ragged: named by the check below
        raise ValueError(f"y_prob must be a 2-D array of shape (n_samples, n_classes) with "
                         f"two or more columns (a classifier's predict_proba); got shape "
                         f"{shape}.")
    # By position, the columns the classes in sorted order (labels= must list them so, and
    # cost_matrix follows them): no y_true to align a DataFrame's columns with
    masses = checked_probabilities("cost_optimal_predictions", None, y_prob, sparse=True).prob
    cost = check_cost_matrix(cost_matrix, masses.shape[1])
    if names is not None:
        refuse_unsorted_columns(names, masses.shape[1], "y_prob", "cost_optimal_predictions")
    if reject_cost is None:
        decisions = _bayes_decisions(masses, cost)
        return decisions if names is None else names[decisions]
    decisions = _chow_decisions(masses, cost, float(reject_cost))
    rejected = decisions == masses.shape[1]
    answered = np.where(rejected, 0, decisions)
    if names is None:
        return np.where(rejected, reject_label, answered)
    if names.dtype.kind not in "iufUS":  # no NumPy type holds both: keep each as it is
        out = names.astype(object)[answered]
        out[rejected] = reject_label
        return out
    return np.where(rejected, reject_label, names[answered])


def _decision_reject_label(reject_label, names):
    """The reject label of :func:`cost_optimal_predictions`: ``reject_label``, or the
    default of the decisions' kind (``-1`` beside numbers, ``"reject"`` beside strings),
    checked to be no class (no column index either) and of the kind of the classes."""
    classes = [] if names is None else names.tolist()
    strings = names is not None and names.dtype.kind in "USO" and all(
        isinstance(name, str) for name in classes)
    booleans = names is not None and names.dtype.kind == "b"
    given = reject_label is not None
    if not given:
        if booleans:
            raise ValueError(f"labels {quoted(classes)} are booleans, beside which no reject "
                             "label is the default: pass reject_label= (e.g. -1).")
        reject_label = "reject" if strings else -1
    if not isinstance(reject_label, (str, np.str_)) and not math.isfinite(reject_label):
        raise ValueError(f"reject_label={reject_label!r} is no label a decision can equal: "
                         "pass a finite number or a string.")
    if isinstance(reject_label, (str, np.str_)) != strings:
        kind = "column indices (labels=None)" if names is None else (
            "strings" if strings else "numbers")
        raise ValueError(f"reject_label={reject_label!r} is not of the kind of the decisions, "
                         f"{kind}: pass a reject label of their kind (a string beside "
                         "strings, a number beside numbers).")
    if names is None:
        if not isinstance(reject_label, (str, np.str_)) and float(reject_label) >= 0 and \
                float(reject_label) == int(reject_label):
            raise ValueError(f"reject_label={reject_label!r} could be a column index, a "
                             "decision of labels=None: pass a negative reject label (the "
                             "default, -1), or labels= to name the classes.")
        return reject_label
    clash = [name for name in classes if isinstance(name, (str, np.str_)) == strings
             and name == reject_label]
    if clash:
        which = "" if given else " (the default)"
        raise ValueError(f"reject_label={reject_label!r}{which} is one of labels "
                         f"{quoted(classes)}: the reject label is no class; pass "
                         "reject_label= naming no class.")
    return reject_label



# --- The scorer ------------------------------------------------------------------------------


class CostScorer(ScoreRequester):
    """Scorer of the expected cost of the Bayes decisions of ``predict_proba`` (negated:
    greater is better); see :func:`make_cost_scorer`."""

    def __init__(self, cost_matrix, labels, reject_cost=None):
        self.cost_matrix, self.labels = cost_matrix, labels
        self.reject_cost = reject_cost

    def __repr__(self):
        labels = "" if self.labels is None else f", labels={self.labels.tolist()!r}"
        reject = "" if self.reject_cost is None else f", reject_cost={self.reject_cost!r}"
        return (f"make_cost_scorer({self.cost_matrix.tolist()!r}, "
                f"response_method='predict_proba'{labels}{reject})")

    def __call__(self, estimator, X, y_true, sample_weight=None):
        y_prob, y_true = _predictions(estimator, X, y_true, "predict_proba")
        classes = np.asarray(estimator.classes_)
        order = np.argsort(classes, kind="stable")  # the columns as the sorted classes
        y_prob, classes = np.asarray(y_prob)[:, order], classes[order]
        cost = self.cost_matrix
        if self.labels is not None:  # the cost matrix in the order of the sorted classes
            position = {label: index for index, label in enumerate(classes.tolist())}
            if sorted(map(str, self.labels.tolist())) != sorted(map(str, classes.tolist())) \
                    or any(label not in position for label in self.labels.tolist()):
                raise ValueError(
                    f"labels {quoted(self.labels.tolist())} of make_cost_scorer must name "
                    f"every class of the estimator's classes_ {quoted(classes.tolist())}, "
                    "once each: response_method='predict_proba' decides among them all.")
            at = [position[label] for label in self.labels.tolist()]
            cost = np.empty_like(self.cost_matrix)
            cost[np.ix_(at, at)] = self.cost_matrix
        return -expected_cost(y_true, y_prob, cost_matrix=cost, labels=classes,
                              sample_weight=sample_weight,
                              reject_cost=getattr(self, "reject_cost", None))


@validate_params({"cost_matrix": [ARRAY],
                  "response_method": [Options("predict", "predict_proba")],
                  "labels": expected_cost.parameter_constraints["labels"],
                  "reject_cost": expected_cost.parameter_constraints["reject_cost"],
                  "reject_label": expected_cost.parameter_constraints["reject_label"]})
def make_cost_scorer(cost_matrix, *, response_method="predict", labels=None,
                     reject_cost=None, reject_label=None):
    """Scorer of the expected cost: its negative, greater is better (as ``neg_*`` scorers).

    For ``scoring=`` in :func:`~sklearn.model_selection.cross_validate`,
    :class:`~sklearn.model_selection.GridSearchCV` and, for a binary problem,
    :class:`~sklearn.model_selection.TunedThresholdClassifierCV`, which tunes the decision
    threshold of the positive class to the least cost (with the default
    ``response_method="predict"``: it reads the predictions at each threshold).

    Parameters
    ----------
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``cost_matrix[i, j]``: the cost of deciding class ``j`` for an instance of class
        ``i`` (rows true classes, columns decisions), in the order of ``labels``
        (default: the sorted classes, as a classifier's ``classes_``). Finite; negative
        costs are benefits.
    response_method : {"predict", "predict_proba"}, default="predict"
        ``"predict"``: the cost of the estimator's predictions (a scikit-learn scorer made
        by :func:`sklearn.metrics.make_scorer`, which ``TunedThresholdClassifierCV`` takes).
        ``"predict_proba"``: the cost of the Bayes decisions of its probabilities
        (:func:`cost_optimal_predictions`), columns named by ``estimator.classes_``: the
        model chosen as if it decided by the cost matrix. That cost reads the
        probabilities only through the decisions they lead to, so it is no proper scoring
        rule of them: two models with the same decisions score alike however far their
        probabilities are from the truth. To choose the probabilities themselves, score
        ``"neg_log_loss"`` (:func:`sklearn.metrics.log_loss`) or the Brier score.
    labels : array-like of shape (n_classes,), default=None
        The classes of the cost matrix, in its order. With ``"predict"``, a fold whose
        targets lack a class needs them: without ``labels`` the classes are those of the
        fold's ``y_true`` and predictions. With ``"predict_proba"``, every class of
        ``classes_``, in sorted order, the cost matrix's.
    reject_cost : float, default=None
        The cost of an abstention. With ``"predict_proba"``: the decisions abstain by
        Chow's rule where answering costs more in expectation
        (:func:`cost_optimal_predictions` with ``reject_cost``), each abstention at this
        cost. With ``"predict"``: the cost of the predictions equal to ``reject_label``
        (an estimator whose ``predict`` abstains); without ``reject_label`` it is
        ignored, with a warning, as by :func:`expected_cost`.
    reject_label : int, float, bool or str, default=None
        With ``"predict"`` and ``reject_cost``: the value of ``predict`` that says the
        estimator abstained (as in :func:`expected_cost`). Not with ``"predict_proba"``,
        whose abstentions need no label.

    Returns
    -------
    callable
        A picklable scorer ``scorer(estimator, X, y_true, sample_weight=None)`` giving
        ``-expected_cost``.

    See Also
    --------
    expected_cost : The score it negates.
    cost_optimal_predictions : The decisions of ``"predict_proba"``.
    get_scorer : The library's scorers by name.

    References
    ----------
    C. Elkan, "The Foundations of Cost-Sensitive Learning", Proceedings of the 17th
    International Joint Conference on Artificial Intelligence (IJCAI 2001), 973-978:
    eq. (1), the optimal decision (its cost matrix is the transpose of this one).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_confusion_ext import make_cost_scorer
    >>> X, y = load_breast_cancer(return_X_y=True)  # 0: malignant, 1: benign
    >>> cost = [[0, 10], [1, 0]]  # a missed malignant tumour costs 10, a false alarm 1
    >>> model = make_pipeline(StandardScaler(), LogisticRegression())
    >>> scores = cross_val_score(model, X, y, cv=5, scoring=make_cost_scorer(cost))
    >>> bool(scores.max() <= 0)  # the negative mean cost of each fold
    True

    With scikit-learn 1.5 or later, ``TunedThresholdClassifierCV(model,
    scoring=make_cost_scorer(cost))`` tunes the threshold of benign to the least cost
    (above 0.5 here: benign only when quite sure; see the user guide).
    """
    names = None if labels is None else check_label_list(labels)
    cost = check_cost_matrix(cost_matrix, None if names is None else len(names), names)
    if response_method == "predict_proba":
        if reject_label is not None:
            raise ValueError(f"reject_label={reject_label!r} names the abstentions of "
                             "predict; with response_method='predict_proba' the decisions "
                             "abstain by Chow's rule with reject_cost= alone: leave "
                             "reject_label=None.")
        return CostScorer(cost, names, None if reject_cost is None else float(reject_cost))
    if reject_label is not None and reject_cost is None:
        raise ValueError(f"reject_label={reject_label!r} is given without reject_cost: with "
                         "response_method='predict', an abstention is a prediction equal "
                         "to reject_label, at the cost reject_cost; pass both.")
    if reject_cost is not None and reject_label is None:  # expected_cost's policy
        warn(f"reject_cost={reject_cost!r} is read with response_method='predict' only "
             "beside reject_label= (the value of predict that abstains); without it, it is "
             "ignored. Pass response_method='predict_proba' to abstain by Chow's rule.",
             UserWarning)
        reject_cost = None
    keywords = {"cost_matrix": cost} if names is None else {"cost_matrix": cost,
                                                            "labels": names}
    if reject_cost is not None:
        keywords.update(reject_label=reject_label, reject_cost=float(reject_cost))
    return make_scorer(expected_cost, greater_is_better=False, **keywords)



# --- Read off resampled matrices --------------------------------------------------------------


def _cost_reader(params):
    """``expected_cost`` of 1-D labels with ``params`` as a reader of their full classic
    matrix (the resampled matrices' path), or None for keywords it does not read so."""
    if set(params) - {"cost_matrix", "labels", "normalize"}:
        return None
    cost_matrix, labels = params.get("cost_matrix"), params.get("labels")
    normalize = params.get("normalize", True)
    cost = None if cost_matrix is None else check_cost_matrix(cost_matrix)

    def read(confusion):
        matrix = confusion_for_labels(confusion, labels)[0].selected()
        if cost is not None and cost.shape[0] != matrix.shape[0]:
            check_cost_matrix(cost, matrix.shape[0])  # raises, naming cost_matrix
        return _cost_of_matrix(matrix, cost, normalize)

    def batched(matrices):
        if cost is not None and cost.shape[0] != matrices.shape[1]:
            check_cost_matrix(cost, matrices.shape[1])  # raises, naming cost_matrix
        totals = matrices.sum(axis=(1, 2))
        if cost is None:
            spent = totals - np.trace(matrices, axis1=1, axis2=2)
        else:
            spent = np.einsum("nij,ij->n", matrices, cost)
        return spent / totals if normalize else spent

    return read, batched if labels is None else None


register_matrix_metric(expected_cost, _cost_reader)
