"""The confusion matrix at every decision threshold of a score: predict the positive class
where the score is at least the threshold. One sort and two cumulative sums give the
matrices at every threshold at once, as scikit-learn's ``_binary_clf_curve`` (the ROC and
precision-recall code) counts its true and false positives; 2-D scores give the
one-vs-rest matrices of each class on one grid of thresholds. ``target="top_label"``
gives the matrix of the decisions of a classifier that answers its top label where its top
probability is at least the threshold and abstains elsewhere: the true classes against the
predicted ones and a last "rejected" column, from one sort of the top probabilities and a
binary search per cell."""

import numpy as np

from .._core.config import check_result_size
from .._core.params import ARRAY, VERBOSE, Label, Options, quoted, validate_params
from .._core.probabilities import checked_probabilities, with_positive
from .._core.resampling import Progress
from .._core.results import Result, _result, _Table
from .._matrices.rejection import REJECTED_LABEL
from .abstention import _top_labels

TARGETS = ("binary", "classwise", "top_label")
# Cells of the top-label matrices computed at once (a block of thresholds): 4 Mi.
_TOP_LABEL_BLOCK = 1 << 22


@_result(kw_only=True, parameters={"thresholds": [ARRAY], "matrices": [ARRAY],
                                   "classes": [None, ARRAY], "pos_label": [None, Label()],
                                   "target": [None, Options(*TARGETS)]})
class ThresholdConfusionResult(Result):
    """The confusion matrices of a score at its decision thresholds (see
    :func:`threshold_confusion_matrices`).

    ``to_frame()`` gives a row per threshold (and class) with ``tn``, ``fp``, ``fn`` and
    ``tp``; the attributes ``tn``, ``fp``, ``fn`` and ``tp`` are the cells of
    ``matrices`` (``matrices[..., 0, 0]`` and so on). With ``target="top_label"`` the
    matrices are the decisions of the top label against the true classes, with a last
    "rejected" column: ``to_frame()`` gives a row per threshold and true class,
    ``rejected`` the last column, and ``tn``, ``fp``, ``fn``, ``tp`` are not defined.

    Attributes
    ----------
    thresholds : ndarray of shape (n_thresholds,)
        The thresholds: an instance is predicted positive where its score is at least
        the threshold. By default the distinct scores, in decreasing order.
    matrices : ndarray of shape (n_thresholds, 2, 2), (n_classes, n_thresholds, 2, 2) \
or (n_thresholds, n_classes, n_classes + 1)
        The matrix at each threshold in :func:`sklearn.metrics.confusion_matrix`'s layout,
        ``[[tn, fp], [fn, tp]]`` (rows the true class, negative first). Counts (int64)
        without ``sample_weight``, weighted counts (float64) with it. For 2-D scores,
        ``matrices[k]`` is class ``classes[k]`` against the rest, its column thresholded.
        With ``target="top_label"``, ``matrices[t]`` is the matrix of the decisions at
        ``thresholds[t]``: rows the true classes, columns the top labels answered, then
        the instances rejected (top probability below the threshold).
    classes : ndarray of shape (n_classes,) or None
        For 2-D scores (and ``target="top_label"``), the classes: the positive class of
        each set of matrices (the columns' labels), or the rows of the top-label
        matrices; None for 1-D scores.
    pos_label : int, float, bool, str or None
        For 1-D scores, the positive class; None for 2-D scores.
    target : {"binary", "classwise", "top_label"} or None
        What the matrices are of (see :func:`threshold_confusion_matrices`); None reads as
        "binary" for 1-D scores and "classwise" for 2-D ones.

    See Also
    --------
    threshold_confusion_matrices : Builds it.

    Examples
    --------
    >>> from sklearn_confusion_ext import threshold_confusion_matrices
    >>> result = threshold_confusion_matrices([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> result.thresholds.tolist()
    [0.8, 0.4, 0.35, 0.1]
    >>> result.tp.tolist(), result.fp.tolist()
    ([1, 1, 2, 2], [0, 1, 1, 2])
    """

    thresholds: np.ndarray
    matrices: np.ndarray
    classes: object = None
    pos_label: object = None
    target: object = None

    def _cell(self, row, column, name):
        if self.target == "top_label":
            raise ValueError(
                f"{name} is a cell of a 2 x 2 matrix; the matrices of target='top_label' "
                "are n_classes x (n_classes + 1) (the top labels, then 'rejected'): read "
                "matrices, or rejected.")
        return np.asarray(self.matrices)[..., row, column]

    @property
    def tn(self):
        """True negatives at each threshold: ``matrices[..., 0, 0]``."""
        return self._cell(0, 0, "tn")

    @property
    def fp(self):
        """False positives at each threshold: ``matrices[..., 0, 1]``."""
        return self._cell(0, 1, "fp")

    @property
    def fn(self):
        """False negatives at each threshold: ``matrices[..., 1, 0]``."""
        return self._cell(1, 0, "fn")

    @property
    def tp(self):
        """True positives at each threshold: ``matrices[..., 1, 1]``."""
        return self._cell(1, 1, "tp")

    @property
    def rejected(self):
        """``target="top_label"``: the rejections of each true class at each threshold,
        ``matrices[..., -1]``, of shape (n_thresholds, n_classes)."""
        if self.target != "top_label":
            raise ValueError("rejected is the last column of the matrices of "
                                 "target='top_label'; these are 2 x 2 matrices.")
        return np.asarray(self.matrices)[..., -1]

    def _summary(self):
        which = [("pos_label", self.pos_label)] if self.classes is None else \
            [("classes", self.classes)]
        top = [("target", self.target)] if self.target == "top_label" else []
        return [*which, *top, ("n_thresholds", len(self.thresholds))]

    def _table(self):
        if self.target == "top_label":
            return self._top_label_table()
        thresholds = np.asarray(self.thresholds)
        cells = {name: np.asarray(getattr(self, name)).ravel()
                 for name in ("tn", "fp", "fn", "tp")}
        if self.classes is None:
            return _Table("threshold", thresholds, cells)
        classes = np.asarray(self.classes)
        columns = {"class": np.repeat(classes, len(thresholds)), **cells}
        return _Table("threshold", np.tile(thresholds, len(classes)), columns)

    def _top_label_table(self):
        """A row per threshold and true class: the class ("true"), its decisions by
        predicted class, then its rejections."""
        thresholds, matrices = np.asarray(self.thresholds), np.asarray(self.matrices)
        classes = np.asarray(self.classes)
        names = [str(c) for c in classes.tolist()]
        if len(set(names)) < len(names) or {"true", REJECTED_LABEL} & set(names):
            names = [f"predicted {name}" for name in names]
        rows = matrices.reshape(-1, matrices.shape[-1])
        columns = {"true": np.tile(classes, len(thresholds)),
                   **{name: rows[:, j] for j, name in enumerate(names)},
                   REJECTED_LABEL: rows[:, -1]}
        return _Table("threshold", np.repeat(thresholds, len(classes)), columns)


@validate_params({"y_true": [ARRAY], "y_score": [ARRAY], "thresholds": [None, ARRAY],
                  "target": [None, Options("classwise", "top_label")],
                  "pos_label": [None, Label()], "labels": [None, ARRAY],
                  "sample_weight": [None, ARRAY], "verbose": VERBOSE})
def threshold_confusion_matrices(y_true, y_score, *, thresholds=None, target=None,
                                 pos_label=None, labels=None, sample_weight=None, verbose=0):
    """The confusion matrix at every decision threshold of a score.

    An instance is predicted positive where its score is at least the threshold
    (``y_score >= t``, as :func:`sklearn.metrics.roc_curve` reads its thresholds). For 1-D
    scores, the matrix of the positive class against the other at each threshold; for
    2-D scores (``predict_proba`` or ``decision_function`` of a multiclass classifier),
    each class against the rest with its own column as the score, every class on the
    same thresholds. The scores are sorted once and the matrices at all thresholds come
    from two cumulative sums (true and false positives), as scikit-learn's ROC code counts
    them, in time ``O(n log n)`` per class whatever the number of thresholds.

    With ``target="top_label"``, the matrix of the decisions of a classifier that may
    abstain at each threshold: it answers its top label (``predict``'s decision) where
    its top probability is at least the threshold and abstains elsewhere, as
    :func:`risk_coverage_curve` reads it. Each matrix is the confusion matrix of those
    decisions (:func:`transport_confusion_matrix` of the labels), the true classes
    against the top labels answered, with a last column of the instances rejected,
    ``n_classes x (n_classes + 1)``: the matrix of
    ``transport_confusion_matrix(y_true, y_pred, reject_label=...)`` with ``y_pred`` the
    decisions at that threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores, higher for the positive class: the probability or decision value of the
        positive class (1-D), or one column per class (2-D: one-vs-rest), each column
        thresholded as it is (no normalization). A sparse array is read densely.
    thresholds : array-like of shape (n_thresholds,), default=None
        The thresholds to read the matrices at, in the order given (``-inf`` predicts
        every instance positive, ``inf`` none). None: every distinct score, in decreasing
        order (for 2-D scores, every distinct score of any column), the thresholds
        where a matrix changes.
    target : {"classwise", "top_label"}, default=None
        For 2-D scores: ``"classwise"`` (None), each class against the rest, its column
        thresholded; ``"top_label"``, the decisions of the top label where the top
        probability is at least the threshold, with a "rejected" column (the scores must
        then be probabilities, read as :func:`risk_coverage_curve` reads them; a 1-D
        ``y_score`` is the probability of the second of two classes). None for 1-D
        scores is the binary matrix of ``pos_label``.
    pos_label : int, float, bool or str, default=None
        1-D scores: the positive class. None: 1, where ``y_true`` takes values in {0, 1}
        or {-1, 1} (scikit-learn's rule); else it must be given. 2-D scores: must be None
        (each class is in turn the positive one).
    labels : array-like, default=None
        2-D scores: every class of the columns of a 2-D ``y_score``, in sorted order (a classifier's
        ``classes_``), needed where ``y_true`` lacks one; a subset or another order is
        refused (default: the
        sorted labels of ``y_true``, one per column).
        1-D scores: the (at most two) classes of the problem, those of ``y_true`` among
        them, where ``y_true`` may hold only one of them.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the matrices hold weighted counts.
    verbose : int, default=0
        Progress on standard error of a long call, as the resampling functions print
        theirs: the one-vs-rest matrices of many classes (a sort of each column), or the
        top-label matrices at many thresholds (computed a block of thresholds at a time).
        ``1`` a line every two seconds where the call is expected to take more than a few
        seconds, ``2`` a line after every column (block of thresholds).

    Returns
    -------
    ThresholdConfusionResult
        ``thresholds``, ``matrices`` of shape (n_thresholds, 2, 2) (1-D scores) or
        (n_classes, n_thresholds, 2, 2) (2-D scores) in
        :func:`sklearn.metrics.confusion_matrix`'s layout ``[[tn, fp], [fn, tp]]``, or
        (n_thresholds, n_classes, n_classes + 1) (``target="top_label"``), ``classes``,
        ``pos_label`` and ``target``; ``to_frame()`` gives a row per threshold (and
        class).

    Raises
    ------
    ValueError
        Where the scores are not finite numbers, the lengths differ, ``pos_label`` is no
        class (or is given with 2-D scores), a threshold is NaN, or the matrices of 2-D
        scores at every distinct score exceed the memory budget
        (:func:`set_config`'s ``max_matrix_mib``; pass fewer ``thresholds``); with
        ``target="top_label"``, where the scores are no probabilities (negative entries,
        a row of zeros, 1-D values outside [0, 1]) or ``pos_label`` is given.

    See Also
    --------
    risk_coverage_curve : Abstaining below a threshold of the top probability.
    transport_confusion_matrix : The matrix of decisions; ``reject_label=`` adds the
        rejected column.
    sklearn.metrics.confusion_matrix_at_thresholds : scikit-learn's counts (1-D scores,
        at the distinct scores), which these equal.
    sklearn.metrics.roc_curve : The rates these matrices give, at the same thresholds.
    sklearn.metrics.confusion_matrix : The matrix at one threshold.
    sklearn.model_selection.TunedThresholdClassifierCV : Chooses one threshold by
        cross-validation.

    Notes
    -----
    At the thresholds of the distinct scores ``s_1 > s_2 > ... > s_T``, ``tp`` and ``fp``
    at ``s_j`` are the weighted numbers of positives and negatives whose score is at
    least ``s_j``: cumulative sums over the scores sorted in decreasing order, read at
    the last instance of each tied score (instances of equal scores are predicted alike);
    ``fn`` and ``tn`` are the positives and negatives left. Given thresholds are placed
    among the sorted scores by binary search. A 1-D score that is the probability of the
    positive class gives, at threshold 0.5, the matrix of ``predict``'s decisions
    (``predict_proba(X)[:, 1] >= 0.5``, up to scikit-learn's tie at exactly 0.5).

    With ``target="top_label"``, the instances are sorted once by top probability
    ``c_i``; the instances answered at ``t`` are the first ``a(t) = #{i : c_i >= t}``.
    Each instance's cell (its true class, its top label) and rank make one sorted key,
    and the (weighted) number of instances of a cell among the first ``a(t)`` is a binary
    search of it, so that the matrices at ``T`` thresholds take
    ``O(n log n + T C^2 log n)`` time. The rejected column is each class's total less
    its answered instances; ``coverage(t) = 1 - rejected.sum() / total`` and the risk
    among the answered, one less the trace over the answered, are
    :func:`risk_coverage_curve`'s at its thresholds.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27
       (2006) 861-874: one sort of the scores gives the counts at every threshold.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_confusion_ext import threshold_confusion_matrices
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    >>> proba = model.predict_proba(X_test)[:, 1]
    >>> result = threshold_confusion_matrices(y_test, proba, thresholds=[0.1, 0.5, 0.9])
    >>> result.to_frame()
               tn  fp  fn  tp
    threshold
    0.1        46   7   0  90
    0.5        50   3   3  87
    0.9        52   1  13  77

    Every class of iris against the rest, on one grid of thresholds:

    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> proba = LogisticRegression(max_iter=1000).fit(X, y).predict_proba(X)
    >>> result = threshold_confusion_matrices(y, proba, thresholds=[0.5])
    >>> result.matrices.shape
    (3, 1, 2, 2)
    >>> result.matrices[:, 0].tolist()
    [[[100, 0], [0, 50]], [[99, 1], [3, 47]], [[97, 3], [1, 49]]]

    The decisions of the top label where its probability is at least 0.9, and the
    instances rejected (the last column):

    >>> result = threshold_confusion_matrices(y, proba, thresholds=[0.9],
    ...                                       target="top_label")
    >>> result.matrices[0].tolist()
    [[50, 0, 0, 0], [0, 24, 0, 26], [0, 0, 29, 21]]
    >>> result.to_frame()
               true   0   1   2  rejected
    threshold
    0.9           0  50   0   0         0
    0.9           1   0  24   0        26
    0.9           2   0   0  29        21
    """
    # Scores (a decision_function) but for the top label, read as a probability; the
    # positive class of 1-D scores is named after the refusals below (pos_label=None)
    top_label = target == "top_label"
    scored = checked_probabilities("threshold_confusion_matrices", y_true, y_score,
                                   labels=labels, sample_weight=sample_weight,
                                   name="y_score", scores=not top_label,
                                   default_positive="last", top_label=top_label)
    if scored.sample_weight is not None and not scored.sample_weight.any():
        raise ValueError("sample_weight sums to 0: no instance to count.")
    given = None if thresholds is None else _checked_thresholds(thresholds)
    counted = scored.sample_weight is None
    if target == "top_label":
        if pos_label is not None:
            raise ValueError(f"pos_label={pos_label!r} applies to the binary matrices of 1-D "
                             "scores; target='top_label' answers each instance's top label: "
                             "leave pos_label=None.")
        grid, matrices = _top_label_matrices(scored, given, verbose)
        return ThresholdConfusionResult(thresholds=grid, matrices=_as_counts(matrices, counted),
                                        classes=scored.classes, target="top_label")
    if scored.one_dimensional:
        if target is not None:
            raise ValueError(f"target={target!r} applies to 2-D scores (one column per "
                             "class); y_score is 1-D, the score of the positive class: leave "
                             "target=None, or pass target='top_label' with probabilities.")
        scored = with_positive("threshold_confusion_matrices", scored, pos_label,
                               labels=labels, default_positive="classes", name="y_score")
        is_positive = scored.codes == scored.positive  # a class absent: every one negative
        if given is None:
            check_result_size("threshold_confusion_matrices", (scored.n_samples, 4),
                              "one 2 x 2 matrix per distinct score")
        else:  # given thresholds were unchecked: 10**9 of them took 32 GB
            check_result_size("threshold_confusion_matrices", (len(given), 4),
                              f"{len(given)} thresholds of 2 x 2 matrices",
                              remedy="Pass fewer thresholds (thresholds=, e.g. "
                              "np.linspace(0, 1, 101))")
        grid, matrices = _matrices(scored.prob, is_positive, scored.sample_weight, given)
        label = scored.classes[scored.positive]
        label = label.item() if isinstance(label, np.generic) else label
        return ThresholdConfusionResult(thresholds=grid, matrices=_as_counts(matrices, counted),
                                        pos_label=label, target="binary")
    if pos_label is not None:
        raise ValueError(f"pos_label={pos_label!r} applies to 1-D scores; with 2-D y_score "
                         "each class is in turn the positive one (one-vs-rest): leave "
                         "pos_label=None.")
    n_classes = scored.prob.shape[1]
    weights = scored.sample_weight
    if given is None:
        # Every distinct score of any column: sorted once per column, merged.
        rows = slice(None) if weights is None else weights > 0
        given = np.unique(np.concatenate(
            [np.unique(scored.prob[rows, k]) for k in range(n_classes)]))[::-1]
    check_result_size("threshold_confusion_matrices", (n_classes, len(given), 4),
                      f"{n_classes} classes x {len(given)} thresholds of 2 x 2 matrices",
                      remedy="Pass fewer thresholds (thresholds=, e.g. "
                      "np.linspace(0, 1, 101))")
    progress = Progress(verbose, n_classes, "threshold_confusion_matrices", what="column")
    matrices = np.stack([
        _matrices(scored.prob[:, k], scored.codes == k, weights, given)[1]
        for k in progress.track(range(n_classes), size=lambda k: 1)])
    progress.close()
    return ThresholdConfusionResult(thresholds=given, matrices=_as_counts(matrices, counted),
                                    classes=scored.classes, target="classwise")


def _checked_thresholds(thresholds):
    array = np.asarray(thresholds)
    if array.ndim != 1 or array.dtype.kind not in "biuf" or array.size == 0:
        raise ValueError("thresholds must be a non-empty 1-D array of real numbers; got "
                         f"{quoted(thresholds)}.")
    array = array.astype(np.float64)
    if np.isnan(array).any():
        raise ValueError(f"thresholds holds NaN (at position {int(np.argmax(np.isnan(array)))}"
                         "); a threshold must be a real number (-inf and inf included).")
    return array


def _matrices(scores, is_positive, weights, thresholds=None):
    """``(thresholds, matrices)``: the (n_thresholds, 2, 2) float64 matrices of one score
    column at ``thresholds`` (None: at its distinct scores, decreasing)."""
    if weights is not None and not weights.all():  # a weight of 0: no instance (as in
        kept = weights > 0                         # scikit-learn), no threshold of its own
        scores, is_positive, weights = scores[kept], is_positive[kept], weights[kept]
    order = np.argsort(scores)[::-1]  # ties: counted together, in any order
    ranked = scores[order]
    positive = is_positive[order]
    if weights is None:
        true_positive = np.cumsum(positive, dtype=np.float64)
        false_positive = np.cumsum(~positive, dtype=np.float64)
    else:
        ranked_weights = weights[order]
        true_positive = np.cumsum(np.where(positive, ranked_weights, 0.0))
        false_positive = np.cumsum(np.where(positive, 0.0, ranked_weights))
    n_positive, n_negative = true_positive[-1], false_positive[-1]
    if thresholds is None:
        # The last instance of each run of equal scores: every tied instance in at once.
        last = np.r_[np.flatnonzero(np.diff(ranked)), ranked.size - 1]
        thresholds, tp, fp = ranked[last], true_positive[last], false_positive[last]
    else:
        # Instances scoring at least t: the first n - (position of t among the ascending
        # scores) of the decreasing ones.
        above = ranked.size - np.searchsorted(ranked[::-1], thresholds, side="left")
        tp = np.r_[0.0, true_positive][above]
        fp = np.r_[0.0, false_positive][above]
    matrices = np.empty((len(thresholds), 2, 2))
    matrices[:, 0, 0] = n_negative - fp
    matrices[:, 0, 1] = fp
    matrices[:, 1, 0] = n_positive - tp
    matrices[:, 1, 1] = tp
    return thresholds, matrices


def _top_label_matrices(scored, thresholds=None, verbose=0):
    """``(thresholds, matrices)``: the (n_thresholds, C, C + 1) float64 matrices of the
    top-label decisions at ``thresholds`` (None: at the distinct top probabilities,
    decreasing), the last column the instances whose top probability is below it."""
    predicted, confidence = _top_labels(scored, "y_score")
    codes, weights = scored.codes, scored.sample_weight
    n_classes = len(scored.classes)
    if weights is not None and not weights.all():  # a weight of 0: no instance
        kept = weights > 0
        predicted, confidence, codes, weights = (predicted[kept], confidence[kept],
                                                 codes[kept], weights[kept])
    n = confidence.shape[0]
    order = np.argsort(confidence, kind="stable")[::-1]  # ties: answered together
    ranked = confidence[order]
    if thresholds is None:
        last = np.r_[np.flatnonzero(np.diff(ranked)), n - 1]
        thresholds, answered = ranked[last], last + 1
    else:
        # the instances whose top probability is at least t: the first ones of the ranking
        answered = n - np.searchsorted(ranked[::-1], thresholds, side="left")
    check_result_size("threshold_confusion_matrices",
                      (len(thresholds), n_classes, n_classes + 1),
                      f"{len(thresholds)} thresholds of {n_classes} x {n_classes + 1} "
                      "matrices", remedy="Pass fewer thresholds (thresholds=, e.g. "
                      "np.linspace(0, 1, 101))")
    progress = Progress(verbose, len(thresholds), "threshold_confusion_matrices",
                        what="threshold")
    # Each instance's cell and rank in one key, sorted: cell by cell, by rank within.
    cells = (codes[order].astype(np.int64) * n_classes + predicted[order])
    by_cell = np.argsort(cells, kind="stable")  # ranks stay increasing within a cell
    keys = cells[by_cell] * (n + 1) + by_cell
    if weights is None:
        cumulative = np.arange(n + 1, dtype=np.float64)
    else:
        cumulative = np.r_[0.0, np.cumsum(weights[order][by_cell])]
    cell_starts = np.arange(n_classes * n_classes) * (n + 1)
    starts = cumulative[np.searchsorted(keys, cell_starts)]
    # The rejected: each class's instances from rank a(t) on, by one more key (class,
    # rank), not its total less its answered: a class with none rejected reads exactly 0.
    true_ranked = codes[order].astype(np.int64)
    by_class = np.argsort(true_ranked, kind="stable")
    class_keys = true_ranked[by_class] * (n + 1) + by_class
    if weights is None:
        class_cumulative = cumulative
    else:
        class_cumulative = np.r_[0.0, np.cumsum(weights[order][by_class])]
    class_starts = np.arange(n_classes) * (n + 1)
    class_totals = class_cumulative[np.searchsorted(class_keys, class_starts + n + 1)]
    answered = np.asarray(answered)
    matrices = np.empty((len(thresholds), n_classes, n_classes + 1))
    # thresholds a block at a time: the working memory is a few blocks of matrices
    step = max(1, _TOP_LABEL_BLOCK // (n_classes * (n_classes + 1)))
    blocks = range(0, len(thresholds), step)
    for start in progress.track(blocks, size=lambda start: min(step, len(thresholds) - start)):
        block = answered[start:start + step, None]
        ends = cumulative[np.searchsorted(keys, cell_starts[None, :] + block)]
        matrices[start:start + step, :, :n_classes] = (ends - starts).reshape(
            -1, n_classes, n_classes)
        firsts = class_cumulative[np.searchsorted(class_keys, class_starts[None, :] + block)]
        matrices[start:start + step, :, n_classes] = class_totals - firsts
    progress.close()
    return np.asarray(thresholds, dtype=np.float64), matrices


def _as_counts(matrices, counted):
    """Counts as int64 where no weights were given (they are whole numbers)."""
    return np.rint(matrices).astype(np.int64) if counted else matrices
