"""Top-k accuracy of scores, and the top-k view of a classifier of many classes.

With hundreds of classes the top label is often wrong where the class is still near the
top, and a confusion matrix of 1000 classes is read by its largest cells only. An
instance is a *top-k hit* where its true class is among the ``k`` classes of largest
score. Ties follow scikit-learn's :func:`~sklearn.metrics.top_k_accuracy_score`: among
equal scores the class of the larger index (the later column) ranks first, so that the
true class ``i`` of a row ``s`` ranks after every class ``j`` with ``s_j > s_i``, or
``s_j == s_i`` and ``j > i``; it is a hit where fewer than ``k`` classes rank before it.

That rank is counted, not sorted: each row chunk (of cache size) is compared once with
its true class's score, so the hits cost two comparisons an entry and never a sort or an
``argpartition`` (whose order among ties is unspecified, and would differ from
scikit-learn's on tied scores). The top-k view (:func:`top_k_confusion_matrix`) takes the
``k``-th largest score of the rows that miss (``np.partition``), with the same rule at
ties. No copy of the whole ``(n_samples, n_classes)`` array is made.

Top-k correctness is a 0/1 per instance: the intervals of the library read top-k accuracy
as the accuracy of those hits (:mod:`.resolved`), Wilson's interval where every resample
agrees (100 % top-k accuracy is no certainty).
"""

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core.chunks import chunk_rows, map_chunks
from .._core.config import check_result_size
from .._core.params import (
    ARRAY,
    BOOLEAN,
    POSITIVE_INT,
    Options,
    quoted,
    validate_params,
)
from .._core.probabilities import checked_probabilities
from .._core.results import Result, _result, _Table
from .._core.user_warnings import warn
from .._reading.confused_pairs import ConfusedPairsResult

_TOP_K = {"y_true": [ARRAY], "y_score": [ARRAY], "k": [POSITIVE_INT],
          "sample_weight": [None, ARRAY], "labels": [None, ARRAY]}


def top_k_hits(owner, y_true, y_score, *, k, labels=None, sample_weight=None):
    """``(hits, checked)``: whether each instance's true class is among its ``k`` classes
    of largest score (bool array), and the :class:`~.._core.probabilities.Probabilities`
    of the checked inputs; warns (``UndefinedMetricWarning``) where ``k`` is at least the
    number of classes, as scikit-learn does."""
    checked = checked_probabilities(owner, y_true, y_score, labels=labels, name="y_score",
                                    scores=True, default_positive="last",
                                    sample_weight=sample_weight)
    n_classes = _check_classes(owner, checked, k)
    if checked.one_dimensional:
        return _binary_hits(checked, k), checked
    hits = np.empty(checked.n_samples, dtype=bool)
    codes, prob = checked.codes, checked.prob

    def read(rows):
        ahead = _ahead(prob[rows], codes[rows])
        hits[rows] = np.count_nonzero(ahead, axis=1) < k

    for _ in map_chunks(read, checked.n_samples, chunk_rows(8 * n_classes)):
        pass
    return hits, checked


def _check_classes(owner, checked, k):
    """The number of classes of ``checked`` (two for a 1-D score: refused beside one
    class), after scikit-learn's warning where ``k`` is at least that number."""
    n_classes = 2 if checked.one_dimensional else checked.prob.shape[1]
    if checked.one_dimensional and len(checked.classes) != 2:
        raise ValueError(
            f"{owner}: a 1-D y_score is the score of the second of two classes, but y_true "
            f"holds the one class {quoted(checked.classes)}; pass labels= naming both "
            "classes.")
    if k >= n_classes:
        warn(f"{owner}: 'k' ({k}) greater than or equal to 'n_classes' ({n_classes}) will "
             "result in a perfect score and is therefore meaningless.",
             UndefinedMetricWarning)
    return n_classes


def _binary_predicted(checked):
    """scikit-learn's top-1 class (0 or 1, a position) of a 1-D score of the second
    class: above the threshold 0.5 (scores in [0, 1]) or 0 (any others)."""
    score = checked.prob
    threshold = 0.5 if score.min() >= 0 and score.max() <= 1 else 0.0
    predicted = (score > threshold).astype(np.intp)
    return predicted if checked.positive == 1 else 1 - predicted


def _binary_hits(checked, k):
    """scikit-learn's hits of a 1-D score of the second class: with ``k = 1`` the class
    predicted above the threshold 0.5 (scores in [0, 1]) or 0 (any others); with ``k``
    of 2 or more, every instance."""
    if k >= 2:
        return np.ones(checked.n_samples, dtype=bool)
    return _binary_predicted(checked) == checked.codes


def _ahead(block, codes):
    """Which classes rank before the true class ``codes`` of each row of ``block``:
    a larger score, or an equal one in a later column (scikit-learn's order at ties)."""
    true = np.take_along_axis(block, codes[:, None], axis=1)
    ahead = block > true
    ahead |= (block == true) & (np.arange(block.shape[1]) > codes[:, None])
    return ahead


def _top_k_mask(block, k):
    """The ``k`` classes of largest score of each row of ``block`` (a bool mask), ties
    taken from the later columns first, as :func:`_ahead` ranks them."""
    n_classes = block.shape[1]
    kth = np.partition(block, n_classes - k, axis=1)[:, n_classes - k][:, None]
    above = block > kth
    tied = block == kth
    room = k - np.count_nonzero(above, axis=1)
    # rank of each tied entry counted from the last column (1: the last tied column)
    from_last = np.cumsum(tied[:, ::-1], axis=1)[:, ::-1]
    return above | (tied & (from_last <= room[:, None]))


def _average(hits, weights, normalize, owner):
    if not normalize:
        return float(np.count_nonzero(hits)) if weights is None else float(hits @ weights)
    if weights is None:
        return float(np.count_nonzero(hits) / hits.size)
    total = weights.sum()
    if not total > 0:
        warn(f"{owner}: sample_weight sums to 0; top-k accuracy is undefined (nan).",
             UndefinedMetricWarning)
        return float("nan")
    return float(hits @ weights / total)


@validate_params({**_TOP_K, "normalize": [BOOLEAN]})
def top_k_accuracy_score(y_true, y_score, *, k=2, normalize=True, sample_weight=None,
                         labels=None):
    """Top-k accuracy: how often the true class is among the ``k`` classes of largest score.

    A drop-in replacement of :func:`sklearn.metrics.top_k_accuracy_score`, with its
    parameters, defaults and values (ties included: among equal scores the later column
    ranks first, as scikit-learn's notes say), read in row chunks without sorting or
    copying ``y_score``; its interval is an interval of a proportion
    (:func:`score_confidence_interval` with ``scoring=top_k_accuracy_score``: Wilson's
    where every resample agrees, so that 100 % top-k accuracy has an interval below 1).

    Beyond scikit-learn's: a pandas DataFrame's columns name their classes (in any order;
    ``labels``, as scikit-learn's, lists the classes in sorted order), and 2-D
    scores of two columns beside binary labels are read as the two classes' scores
    (scikit-learn refuses them).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of each class (``predict_proba`` or ``decision_function``), one column per
        class, the classes in sorted order (a classifier's ``classes_``); or,
        with two classes, 1-D scores of the second class: with ``k=1`` the second class is
        predicted above 0.5 (scores in [0, 1]) or 0 (others), and ``k >= 2`` gives 1.
    k : int, default=2
        Number of classes of largest score that count as hits.
    normalize : bool, default=True
        The fraction of hits (True) or their (weighted) number.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    labels : array-like of shape (n_classes,), default=None
        The classes: every class of the columns of ``y_score``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused (scikit-learn's
        ``top_k_accuracy_score`` refuses them too).

    Returns
    -------
    float
        With ``normalize=True``, in [0, 1]; nan (with an ``UndefinedMetricWarning``) where
        the weights sum to 0. ``k`` at least the number of classes warns, as
        scikit-learn does (every instance is a hit).

    See Also
    --------
    top_k_confusion_matrix : Per class: how often it is in the top k, and which classes
        take the places above it.
    score_confidence_interval : Its interval (``scoring=top_k_accuracy_score, k=...``).
    sklearn.metrics.top_k_accuracy_score : scikit-learn's.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import top_k_accuracy_score
    >>> y_true = np.array([0, 1, 2, 2])
    >>> y_score = np.array([[0.5, 0.2, 0.2],   # 0 is in the top 2
    ...                     [0.3, 0.4, 0.2],   # 1 is in the top 2
    ...                     [0.2, 0.4, 0.3],   # 2 is in the top 2
    ...                     [0.7, 0.2, 0.1]])  # 2 is not
    >>> top_k_accuracy_score(y_true, y_score, k=2)
    0.75
    >>> top_k_accuracy_score(y_true, y_score, k=2, normalize=False)
    3.0
    """
    owner = "top_k_accuracy_score"
    hits, checked = top_k_hits(owner, y_true, y_score, k=k, labels=labels,
                               sample_weight=sample_weight)
    return _average(hits, checked.sample_weight, normalize, owner)


@_result(kw_only=True, parameters={
    "matrix": [ARRAY], "classes": [ARRAY], "k": [POSITIVE_INT], "support": [ARRAY],
    "hit_rate": [ARRAY], "top_k_accuracy": [float]})
class TopKConfusionResult(Result):
    """The top-k view of a classifier's scores (see :func:`top_k_confusion_matrix`).

    ``to_frame()`` gives one row per true class: its support, its top-k hits, its hit rate
    (top-k recall) and the class most often ranked above it within the top k; the method
    :meth:`most_confused_pairs` ranks the pairs ``(true class, class above it)``.

    Attributes
    ----------
    matrix : ndarray of shape (n_classes, n_classes)
        ``matrix[i, j]`` (``j != i``): the (weighted) number of instances of true class
        ``i`` where class ``j`` is among the top ``k`` and ranked above ``i``;
        ``matrix[i, i]``: those where ``i`` is in the top ``k`` (its hits). With ``k=1``
        it is the confusion matrix of the top-ranked class. A row sums to its hits plus,
        for each instance, the number of classes above the true class within the top k
        (at most ``k``): not to the support, for ``k > 1``.
    classes : ndarray of shape (n_classes,)
        The class of each row and column.
    k : int
    support : ndarray of shape (n_classes,)
        The (weighted) number of instances of each true class.
    hit_rate : ndarray of shape (n_classes,)
        ``matrix[i, i] / support[i]``, each class's top-k recall (nan for a class without
        instances, warned).
    top_k_accuracy : float
        The fraction of hits over all instances (:func:`top_k_accuracy_score`).

    See Also
    --------
    top_k_confusion_matrix : Builds it.
    most_confused_pairs : The largest off-diagonal cells of a confusion matrix.

    Examples
    --------
    >>> from sklearn_confusion_ext import top_k_confusion_matrix
    >>> result = top_k_confusion_matrix([0, 1, 2], [[0.6, 0.3, 0.1], [0.5, 0.4, 0.1],
    ...                                             [0.5, 0.4, 0.1]], k=2)
    >>> result.matrix
    array([[1., 0., 0.],
           [1., 1., 0.],
           [1., 1., 0.]])
    >>> result.hit_rate
    array([1., 1., 0.])
    """

    matrix: np.ndarray
    classes: np.ndarray
    k: int
    support: np.ndarray
    hit_rate: np.ndarray
    top_k_accuracy: float

    def _summary(self):
        return [("k", self.k), ("n_classes", len(self.classes)),
                ("top_k_accuracy", self.top_k_accuracy)]

    def _table(self):
        matrix = np.asarray(self.matrix, dtype=float)
        above = matrix.copy()
        np.fill_diagonal(above, -1.0)
        most = above.argmax(axis=1)
        count = above[np.arange(len(most)), most]
        names = np.asarray(self.classes, dtype=object)
        return _Table("class", list(self.classes), {
            "support": np.asarray(self.support), "hits": np.diagonal(matrix).copy(),
            "hit_rate": np.asarray(self.hit_rate),
            "most_often_above": [names[j] if c > 0 else None for j, c in zip(most, count)],
            "times_above": np.where(count > 0, count, 0.0)})

    @validate_params({"top": [None, POSITIVE_INT],
                      "normalize": [None, Options("true", "pred")]})
    def most_confused_pairs(self, *, top=10, normalize=None):
        """The pairs ``(true class i, class j ranked above it in the top k)``, largest
        first, as :func:`~sklearn_confusion_ext.most_confused_pairs` ranks a confusion
        matrix's cells.

        Parameters
        ----------
        top : int or None, default=10
            The most pairs returned; None: every nonzero pair.
        normalize : {None, "true", "pred"}, default=None
            What ranks the pairs: the cell; "true", ``matrix[i, j] / support[i]`` (the
            share of class ``i``'s instances where ``j`` takes a top-k place above it);
            "pred", its share of every place ``j`` takes above a true class.

        Returns
        -------
        ConfusedPairsResult
            ``fraction_of_true`` is ``matrix[i, j] / support[i]`` and
            ``fraction_of_predicted`` the share of column ``j``'s off-diagonal cells.

        Examples
        --------
        >>> from sklearn_confusion_ext import top_k_confusion_matrix
        >>> result = top_k_confusion_matrix(["a", "b", "c", "c"], [[0.6, 0.3, 0.1],
        ...     [0.5, 0.4, 0.1], [0.5, 0.4, 0.1], [0.2, 0.3, 0.5]], k=1)
        >>> [(pair.true, pair.predicted, pair.count) for pair in result.most_confused_pairs()]
        [('b', 'a', 1.0), ('c', 'a', 1.0)]
        """
        matrix = np.asarray(self.matrix, dtype=float)
        off = matrix * ~np.eye(len(matrix), dtype=bool)
        rows, columns = np.nonzero(off)
        counts = off[rows, columns]
        support = np.asarray(self.support, dtype=float)[rows]
        placed = off.sum(axis=0)[columns]
        with np.errstate(invalid="ignore", divide="ignore"):
            of_true = np.where(support > 0, counts / np.where(support > 0, support, 1), 0.0)
            of_pred = counts / placed
        key = {"true": of_true, "pred": of_pred}.get(normalize, counts)
        order = np.argsort(-key, kind="stable")[:top]
        names = np.asarray(self.classes, dtype=object)
        return ConfusedPairsResult(
            true=names[rows[order]], predicted=names[columns[order]], count=counts[order],
            fraction_of_true=of_true[order], fraction_of_predicted=of_pred[order],
            normalize=normalize, n_confused=int(len(counts)),
            total_confused=float(counts.sum()))


@validate_params(_TOP_K)
def top_k_confusion_matrix(y_true, y_score, *, k=5, labels=None, sample_weight=None):
    """The top-k view for many classes: per true class, how often it is in the top k,
    and which classes take the top-k places above it.

    For a classifier of hundreds of classes, top-k accuracy says how often the true class
    is near the top, and this view says for which classes it is not and what ranks
    above them: ``matrix[i, j]`` counts the instances of true class ``i`` where class ``j``
    is among the ``k`` classes of largest score and ranked above ``i`` (ties as in
    :func:`top_k_accuracy_score`: the later column first), and ``matrix[i, i]`` those
    where ``i`` is in the top ``k``. With ``k=1`` it is the confusion matrix of the
    top-ranked class. The instances are read in row chunks, never sorted, the scores
    never copied whole.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples, n_classes) or (n_samples,)
        Scores of each class (``predict_proba`` or ``decision_function``), a column per
        class of ``labels`` (default the sorted classes of ``y_true``); 1-D: the score of
        the second of two classes, ranked first above :func:`top_k_accuracy_score`'s
        threshold (0.5 for scores in [0, 1], else 0).
    k : int, default=5
        The number of classes of largest score that count.
    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_score``.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    TopKConfusionResult
        ``matrix``, ``support``, ``hit_rate`` (each class's top-k recall) and
        ``top_k_accuracy``; ``to_frame()`` gives a row per class with the class most often
        ranked above it, and ``most_confused_pairs()`` the largest pairs.

    Raises
    ------
    ValueError
        Where the ``(n_classes, n_classes)`` matrix exceeds the package's budget
        (``max_matrix_mib``), before allocating it.

    See Also
    --------
    top_k_accuracy_score : The fraction of hits.
    most_confused_pairs : The largest cells of a confusion matrix.
    TopKConfusionResult : The result.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_confusion_ext import top_k_confusion_matrix
    >>> y_true = ["cat", "dog", "dog", "fox"]
    >>> y_score = np.array([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1], [0.2, 0.7, 0.1],
    ...                     [0.5, 0.4, 0.1]])
    >>> result = top_k_confusion_matrix(y_true, y_score, k=2)
    >>> result
    TopKConfusionResult(k=2, n_classes=3, top_k_accuracy=0.75)
    class  support  hits  hit_rate  most_often_above  times_above
    cat          1     1       1.0              None          0.0
    dog          2     2       1.0               cat          1.0
    fox          1     0       0.0               cat          1.0
    """
    owner = "top_k_confusion_matrix"
    checked = checked_probabilities(owner, y_true, y_score, labels=labels, name="y_score",
                                    scores=True, default_positive="last",
                                    sample_weight=sample_weight)
    n_classes = _check_classes(owner, checked, k)
    check_result_size(owner, (n_classes, n_classes),
                      f"1 matrix of {n_classes} x {n_classes} classes")
    prob = checked.prob
    if checked.one_dimensional:  # the class of scikit-learn's threshold first: (n, 2) 0/1
        prob = np.zeros((checked.n_samples, 2))
        prob[np.arange(checked.n_samples), _binary_predicted(checked)] = 1.0
    n_samples = prob.shape[0]
    codes, weights = checked.codes, checked.sample_weight
    cells = np.zeros(n_classes * n_classes)

    def read(rows):
        block, true = prob[rows], codes[rows]
        ahead = _ahead(block, true)
        hit = np.count_nonzero(ahead, axis=1) < k
        miss = np.flatnonzero(~hit)
        if miss.size:  # a miss: the classes above it in the top k are the whole top k
            ahead[miss] = _top_k_mask(block[miss], min(k, n_classes))
        ahead[np.flatnonzero(hit), true[hit]] = True  # the diagonal: the hits
        row, column = np.nonzero(ahead)
        mass = None if weights is None else weights[rows][row]
        return true[row] * n_classes + column, mass

    for index, mass in map_chunks(read, n_samples, chunk_rows(8 * n_classes)):
        np.add.at(cells, index, 1.0 if mass is None else mass)
    matrix = cells.reshape(n_classes, n_classes)
    support = np.bincount(codes, weights=weights, minlength=n_classes).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        hit_rate = np.diagonal(matrix) / support
    if not (support > 0).all():
        absent = [c.item() if isinstance(c, np.generic) else c
                  for c in np.asarray(checked.classes)[~(support > 0)][:3]]
        warn(f"{owner}: classes {absent} have no instance in y_true (or no weight): their "
             "hit rate is undefined (nan).", UndefinedMetricWarning)
    total = support.sum()
    accuracy = float(np.trace(matrix) / total) if total > 0 else float("nan")
    return TopKConfusionResult(matrix=matrix, classes=np.asarray(checked.classes), k=int(k),
                               support=support, hit_rate=hit_rate, top_k_accuracy=accuracy)
