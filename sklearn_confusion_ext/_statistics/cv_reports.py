"""Cross-validation reports: the matrices of every fold, an interval for one model's
cross-validated score, and a classification report across folds.

* :func:`cross_validated_confusion_matrices` reads the folds of
  ``sklearn.model_selection.cross_validate(..., return_estimator=True,
  return_indices=True)`` (or fits an estimator on ``cv``'s folds itself) and builds each
  fold's transport confusion matrix (Erbani et al. 2024) on its test instances: the
  pooled matrix (every test instance once) and the mean and spread of each cell over the
  folds, the view skore gives of a cross-validation.
* :func:`cross_validated_score_interval` is the interval of one model's mean score over
  (repeated) k-fold cross-validation with Nadeau and Bengio's corrected variance
  ``(1 / J + n_test / n_train) s^2`` ("Inference for the Generalization Error", Machine
  Learning 2003): the folds share their training data, so the naive ``s^2 / J`` is too
  small. The correction is :func:`~.cross_validated.corrected_variance`, the one the
  corrected resampled t-test of :func:`compare_cv_scores` uses.
* :func:`cross_validation_report` lays out precision, recall and F1 per class as
  scikit-learn's ``classification_report``, each pooled value beside its mean and
  standard deviation over the folds.
"""

import math
from collections.abc import Mapping
from dataclasses import KW_ONLY, replace
from numbers import Integral, Real

import numpy as np
from scipy import stats

from .._core.confusion import Confusion
from .._core.params import (
    ARRAY,
    CONFIDENCE_LEVEL,
    EMPTY,
    NORMALIZE,
    PARALLEL,
    REPORT,
    WEIGHTING,
    HasMethods,
    Interval,
    Options,
    quoted,
    validate_params,
)
from .._core.results import Result, _result, _Table, interval_method
from .._core.user_warnings import warn
from .._matrices.transport import transport_confusion
from .._scores.from_confusion import confusion_for_labels
from .._scores.reports import (
    check_target_names,
    classification_report_from_confusion,
    report_reader,
    report_row_names,
)
from .cross_validated import (
    _check_sizes,
    _no_spread,
    _numbers,
    _score_label,
    _scores_of,
    corrected_variance,
)

# --- The declarations -------------------------------------------------------------------

# The folds: cross_validate's result, or an estimator fit here on cv's folds.
CV_FOLDS = {
    "cv_results": [dict, HasMethods("fit", description="an unfitted estimator")],
    "X": [ARRAY], "y": [ARRAY],
    "cv": [None, Interval(Integral, 2, None),
           HasMethods("split", description="a cross-validation splitter"), list],
    "groups": [None, ARRAY], "n_jobs": PARALLEL["n_jobs"],
    "response_method": [Options("auto", "predict", "predict_proba")],
    "labels": [None, ARRAY], "sample_weight": [None, ARRAY], "weighting": WEIGHTING,
    "empty": EMPTY}
CV_MATRICES = {**CV_FOLDS, "normalize": NORMALIZE}
CV_INTERVAL = {
    "scores": [ARRAY, dict], "n_train": [None, Interval(Real, 0, None, closed="neither"),
                                         ARRAY],
    "n_test": [None, Interval(Real, 0, None, closed="neither"), ARRAY],
    "scoring": [None, str], "method": [Options("corrected_ttest", "naive_ttest")],
    "confidence_level": [CONFIDENCE_LEVEL]}
INTERVAL_METHODS = {
    "corrected_ttest": "corrected t interval (Nadeau and Bengio 2003)",
    "naive_ttest": "naive t interval (ignores the folds' overlap)"}


# --- The folds --------------------------------------------------------------------------


def _n_samples(values):
    return values.shape[0] if hasattr(values, "shape") else len(values)


def _fitted_folds(cv_results, X, y, cv, groups, n_jobs):
    """``[(fitted estimator, test indices)]`` of cross_validate's result, or of the
    folds of ``cv`` on which the estimator ``cv_results`` is fit here."""
    n = _n_samples(y)
    if _n_samples(X) != n:
        raise ValueError(f"X has {_n_samples(X)} samples and y {n}; pass one row of y per "
                         "row of X.")
    if not isinstance(cv_results, Mapping):
        from sklearn.model_selection import cross_validate

        cv_results = cross_validate(cv_results, X, y, groups=groups,
                                    cv=5 if cv is None else cv, n_jobs=n_jobs,
                                    return_estimator=True, return_indices=True,
                                    error_score="raise")
    elif cv is not None or groups is not None:
        raise ValueError("cv and groups draw the folds of an estimator fit here; with "
                         "cross_validate's results the folds are its own: leave cv and "
                         "groups None.")
    missing = [key for key in ("estimator", "indices") if key not in cv_results]
    if missing:
        raise ValueError(
            f"cv_results must be cross_validate's result with return_estimator=True and "
            f"return_indices=True (keys 'estimator' and 'indices'); it lacks {missing} "
            f"(keys {quoted(sorted(map(str, cv_results)))}).")
    estimators, indices = cv_results["estimator"], cv_results["indices"]
    tests = indices.get("test") if isinstance(indices, Mapping) else None
    if tests is None or len(tests) != len(estimators):
        raise ValueError(f"cv_results['indices'] must hold one 'test' index array per "
                         f"estimator ({len(estimators)}); got {quoted(indices)}.")
    if len(estimators) < 2:
        raise ValueError(f"A report across folds needs at least 2 folds; cv_results holds "
                         f"{len(estimators)}.")
    folds = []
    for k, (estimator, test) in enumerate(zip(estimators, tests)):
        test = np.asarray(test)
        if test.ndim != 1 or test.size == 0 or test.dtype.kind not in "iu" or \
                test.min() < 0 or test.max() >= n:
            raise ValueError(f"cv_results['indices']['test'][{k}] must hold indices of the "
                             f"{n} rows of X and y; got {quoted(test)}. Pass the X and y "
                             "that cross_validate was called with.")
        folds.append((estimator, test))
    return folds


def _rows(values, index):
    from sklearn.utils import _safe_indexing

    return _safe_indexing(values, index)


def _class_set(y, labels):
    """The classes of 1-D labels every fold's matrix is built over (all of y's, with
    ``labels`` first), or None for 2-D targets (their columns are the classes)."""
    if hasattr(y, "shape") and len(y.shape) == 2 or np.ndim(y) == 2:
        return None
    from sklearn.utils.multiclass import unique_labels

    present = list(unique_labels(np.asarray(y)))
    if labels is None:
        return np.asarray(present)
    listed = list(np.asarray(labels))
    return np.asarray(listed + [label for label in present if label not in listed])


def _fold_probabilities(estimator, X, classes, k):
    """``predict_proba`` of one fold's estimator as (n, n_columns): its columns placed
    under ``classes`` (a class the fold's training set lacked has probability 0); a
    multi-output estimator's list of arrays as their positive columns."""
    if not callable(getattr(estimator, "predict_proba", None)):
        raise ValueError(f"response_method='predict_proba' needs estimators with "
                         f"predict_proba; fold {k}'s {type(estimator).__name__} has none.")
    probabilities = estimator.predict_proba(X)
    if isinstance(probabilities, list):
        return np.column_stack([np.asarray(p)[:, -1] for p in probabilities])
    probabilities = np.asarray(probabilities, dtype=float)
    if classes is None:
        return probabilities
    own = list(np.asarray(estimator.classes_))
    aligned = np.zeros((probabilities.shape[0], len(classes)))
    where = {label: j for j, label in enumerate(classes)}
    for column, label in enumerate(own):
        if label not in where:
            raise ValueError(f"fold {k}'s estimator predicts class {label!r}, which is not "
                             f"among the classes of y and labels ({quoted(list(classes))}).")
        aligned[:, where[label]] = probabilities[:, column]
    return aligned


def _fold_confusions(cv_results, X, y, *, cv, groups, n_jobs, response_method, labels,
                     sample_weight, weighting, empty):
    """The pooled :class:`Confusion` (``labels`` selected) and each fold's full matrix
    (of the pooled one's shape), in fold order."""
    folds = _fitted_folds(cv_results, X, y, cv, groups, n_jobs)
    classes = _class_set(y, labels)
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if sample_weight.shape != (_n_samples(y),):
            raise ValueError(f"sample_weight must hold one weight per row of y "
                             f"({_n_samples(y)}); got shape {sample_weight.shape}.")
    built = []
    for k, (estimator, test) in enumerate(folds):
        X_test, y_test = _rows(X, test), _rows(y, test)
        if response_method == "predict_proba":
            y_pred = _fold_probabilities(estimator, X_test, classes, k)
        else:
            y_pred = estimator.predict(X_test)
        weights = None if sample_weight is None else sample_weight[test]
        built.append(transport_confusion(
            y_test, y_pred, labels=classes if classes is not None else labels,
            weighting=weighting, sample_weight=weights, empty=empty))
    first = built[0]
    for k, confusion in enumerate(built[1:], 1):
        if confusion.matrix.shape != first.matrix.shape or list(
                map(str, confusion.display_labels)) != list(map(str, first.display_labels)):
            raise ValueError(f"fold {k}'s matrix is over other classes than fold 0's "
                             f"({quoted(confusion.display_labels)} and "
                             f"{quoted(first.display_labels)}); pass labels= naming "
                             "every class.")
    pooled = replace(first, matrix=sum(c.matrix for c in built),
                     n_samples=sum(c.n_samples for c in built),
                     n_skipped=sum(c.n_skipped for c in built))
    if classes is not None and labels is not None:  # the listed classes, in their order
        pooled, _ = confusion_for_labels(
            Confusion.from_parts(pooled.matrix, classes, None, pooled.has_none,
                                 pooled.n_samples, true_classes=classes), labels)
    width = pooled.matrix.shape[0]
    full = np.stack([np.pad(c.matrix, (0, width - c.matrix.shape[0])) for c in built])
    return pooled, full


def _normalized(matrices, normalize):
    """Each matrix normalized; NaN where its row (column, whole) sums to 0."""
    if normalize is None:
        return matrices.astype(float)
    axis = {"true": 2, "pred": 1, "all": (1, 2)}[normalize]
    totals = matrices.sum(axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, matrices / np.where(totals > 0, totals, 1), np.nan)


def _fold_spread(values, what):
    """Mean and sample standard deviation over the folds (axis 0) of the defined values;
    a warning where some are undefined (0 mean and spread where no fold defines one, a
    NaN spread where only one does)."""
    defined = (~np.isnan(values)).sum(axis=0)
    filled = np.where(np.isnan(values), 0.0, values)
    mean = np.divide(filled.sum(axis=0), defined, out=np.zeros(values.shape[1:]),
                     where=defined > 0)
    deviations = np.where(np.isnan(values), 0.0, values - mean) ** 2
    std = np.divide(deviations.sum(axis=0), defined - 1, out=np.zeros(values.shape[1:]),
                    where=defined > 1)
    std = np.sqrt(std)
    n_folds = values.shape[0]
    partial = (defined < n_folds)
    if partial.any():
        std = np.where(defined == 1, np.nan, std)
        warn(f"{int(partial.sum())} {what} undefined on some folds (a class absent from a "
             "fold's test set, or never predicted there): their mean and standard "
             "deviation are over the folds that define them; 0 where none does, and the "
             "standard deviation NaN where only one does.", RuntimeWarning)
    return mean, std


# --- The matrices of the folds ------------------------------------------------------------


@_result(parameters={
    "matrices": [ARRAY], "counts": [ARRAY], "pooled": [ARRAY], "mean": [ARRAY],
    "std": [ARRAY], "display_labels": [list], "normalize": NORMALIZE,
    "n_samples": [Interval(Integral, 0, None)]})
class CrossValidatedConfusionResult(Result):
    """The transport confusion matrices of the folds of a cross-validation.

    Built by :func:`cross_validated_confusion_matrices`; does not unpack.

    Attributes
    ----------
    matrices : ndarray of shape (n_folds, n_classes, n_classes)
        Each fold's matrix on its test instances, normalized as ``normalize`` says (NaN
        where a fold's row, column or whole sums to 0: the rate is undefined there).
    counts : ndarray of shape (n_folds, n_classes, n_classes)
        Each fold's matrix before normalization.
    pooled : ndarray of shape (n_classes, n_classes)
        The sum of the folds' counts (each test instance once, for a single k-fold
        cross-validation), normalized as ``normalize`` says.
    mean, std : ndarray of shape (n_classes, n_classes)
        Per cell, the mean and the sample standard deviation (``ddof=1``) of ``matrices``
        over the folds that define it.
    display_labels : list
        The classes of the rows and columns (the "none" class last for 2-D targets).
    normalize : {None, "true", "pred", "all"}
        The normalization.
    n_samples : int
        The test instances read over all folds.
    n_folds : int
        The number of folds (a property).

    See Also
    --------
    cross_validated_confusion_matrices : Build it.
    TransportConfusionMatrixDisplay.from_cv_results : Draw it.
    cross_validation_report : The per-class scores across folds.

    Notes
    -----
    The repr is a summary line and the table of the cells (``to_frame()``: one row per
    cell, columns ``true``, ``predicted``, ``pooled``, ``mean``, ``std``).

    Examples
    --------
    >>> from sklearn_confusion_ext import CrossValidatedConfusionResult
    >>> result = CrossValidatedConfusionResult(
    ...     matrices=[[[3.0, 1.0], [0.0, 4.0]], [[2.0, 2.0], [1.0, 3.0]]],
    ...     counts=[[[3.0, 1.0], [0.0, 4.0]], [[2.0, 2.0], [1.0, 3.0]]],
    ...     pooled=[[5.0, 3.0], [1.0, 7.0]], mean=[[2.5, 1.5], [0.5, 3.5]],
    ...     std=[[0.7071, 0.7071], [0.7071, 0.7071]], display_labels=["a", "b"],
    ...     normalize=None, n_samples=16)
    >>> result.n_folds
    2
    >>> result.to_frame()[["pooled", "mean"]]
           pooled  mean
    cell
    a -> a    5.0   2.5
    a -> b    3.0   1.5
    b -> a    1.0   0.5
    b -> b    7.0   3.5
    """

    _: KW_ONLY
    matrices: object
    counts: object
    pooled: object
    mean: object
    std: object
    display_labels: list
    normalize: object
    n_samples: int

    _summary_fields = ("n_folds", "display_labels", "normalize", "n_samples")

    @property
    def n_folds(self):
        """The number of folds."""
        return int(np.shape(self.matrices)[0])

    def _table(self):
        names = [str(label) for label in self.display_labels]
        n = len(names)
        true = [names[i] for i in range(n) for _ in range(n)]
        predicted = names * n
        return _Table("cell", [f"{t} -> {p}" for t, p in zip(true, predicted)], {
            "true": true, "predicted": predicted,
            "pooled": np.ravel(self.pooled), "mean": np.ravel(self.mean),
            "std": np.ravel(self.std)})


@validate_params(CV_MATRICES)
def cross_validated_confusion_matrices(cv_results, X, y, *, response_method="auto",
                                       labels=None, sample_weight=None,
                                       weighting="uniform", empty="null_class",
                                       normalize=None, cv=None, groups=None, n_jobs=None):
    """The transport confusion matrix of every fold of a cross-validation.

    Each fold's fitted estimator predicts its test instances, and
    :func:`transport_confusion_matrix` builds their matrix (the classic confusion matrix
    on class labels; probabilities with ``response_method="predict_proba"``; multi-label
    indicators): the folds' matrices, the pooled matrix and the mean and standard
    deviation of each cell over the folds.

    Parameters
    ----------
    cv_results : dict or estimator
        The result of ``sklearn.model_selection.cross_validate(estimator, X, y, ...,
        return_estimator=True, return_indices=True)`` (keys ``"estimator"`` and
        ``"indices"``, as scikit-learn's ``RocCurveDisplay.from_cv_results`` reads it), or
        an unfitted estimator, then cross-validated here on ``cv``'s folds.
    X : array-like of shape (n_samples, n_features)
        The inputs cross_validate was called with.
    y : array-like of shape (n_samples,) or (n_samples, n_classes)
        The targets it was called with: class labels or a binary indicator matrix.
    response_method : {"auto", "predict", "predict_proba"}, default="auto"
        ``"predict"`` (and ``"auto"``): hard predictions; ``"predict_proba"``: the
        probabilities as soft predictions (a class a fold's training set lacked gets
        probability 0).
    labels : array-like, default=None
        1-D targets: the classes to show, in that order (every class of ``y`` by
        default); 2-D targets: column indices, as in :func:`transport_confusion_matrix`.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each instance (of ``X``'s rows; each fold reads its test rows').
    weighting, empty
        As in :func:`transport_confusion_matrix`.
    normalize : {"true", "pred", "all"}, default=None
        Normalize each fold's matrix, and the pooled one, over true rows, predicted
        columns or the whole matrix.
    cv : int, cross-validation splitter or list, default=None
        With an estimator only: ``cross_validate``'s ``cv`` (5-fold by default, stratified
        for a classifier).
    groups : array-like of shape (n_samples,), default=None
        With an estimator only: ``cross_validate``'s ``groups``.
    n_jobs : int, default=None
        With an estimator only: fits in parallel, as ``cross_validate``'s ``n_jobs``.

    Returns
    -------
    CrossValidatedConfusionResult
        ``matrices``, ``counts``, ``pooled``, ``mean``, ``std`` and ``display_labels``.

    Raises
    ------
    ValueError
        Where ``cv_results`` lacks ``"estimator"`` or ``"indices"``, its test indices do
        not index ``y``, or it holds fewer than 2 folds.

    Warns
    -----
    RuntimeWarning
        Where a normalized cell is undefined on some folds (a class absent from a fold's
        test set): its mean and spread are over the folds that define it.

    See Also
    --------
    TransportConfusionMatrixDisplay.from_cv_results : Draw the mean (or pooled) matrix.
    cross_validation_report : Precision, recall and F1 across folds.
    cross_validated_score_interval : An interval of the mean cross-validated score.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: equation 4, the matrix of each fold.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_confusion_ext import cross_validated_confusion_matrices
    >>> X, y = load_iris(return_X_y=True)
    >>> cv_results = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=5,
    ...                             return_estimator=True, return_indices=True)
    >>> result = cross_validated_confusion_matrices(cv_results, X, y, normalize="true")
    >>> result.matrices.shape, result.n_folds
    ((5, 3, 3), 5)
    >>> result.pooled.diagonal().round(2)
    array([1.  , 0.94, 0.94])
    >>> result.std.diagonal().round(3)
    array([0.   , 0.089, 0.055])
    """
    pooled, full = _fold_confusions(
        cv_results, X, y, cv=cv, groups=groups, n_jobs=n_jobs,
        response_method=response_method, labels=labels, sample_weight=sample_weight,
        weighting=weighting, empty=empty)
    selection = pooled.selection
    counts = full[:, selection][:, :, selection]
    matrices = _normalized(counts, normalize)
    mean, std = _fold_spread(matrices, "cell(s) are")
    pooled_matrix = np.nan_to_num(_normalized(pooled.selected()[None], normalize)[0])
    return CrossValidatedConfusionResult(
        matrices=matrices, counts=counts, pooled=pooled_matrix, mean=mean, std=std,
        display_labels=[label.item() if isinstance(label, np.generic) else label
                        for label in pooled.selected_labels()], normalize=normalize,
        n_samples=int(pooled.n_samples))


# --- An interval of one model's cross-validated score ---------------------------------------


@_result(parameters={
    "estimate": [Interval(Real, None, None)], "low": [Interval(Real, None, None)],
    "high": [Interval(Real, None, None)], "df": [Interval(Real, 0, None, closed="neither")],
    "standard_error": [Interval(Real, 0, None)], "confidence_level": [CONFIDENCE_LEVEL],
    "method": [Options(*INTERVAL_METHODS)], "score": [str], "scores": [ARRAY],
    "n_train": [None, ARRAY], "n_test": [None, ARRAY]})
class CrossValidatedIntervalResult(Result):
    """The interval of a model's mean score over cross-validation folds.

    Built by :func:`cross_validated_score_interval`; does not unpack (read ``estimate``,
    ``low`` and ``high``, or ``confidence_interval()``).

    Attributes
    ----------
    estimate : float
        The mean of the per-fold scores.
    low, high : float
        The interval's ends: ``estimate`` plus or minus the Student-t quantile with
        ``df`` degrees of freedom times ``standard_error`` (not clipped to the score's
        range).
    df : float
        ``J - 1`` for ``J`` folds.
    standard_error : float
        ``sqrt((1/J + n_test/n_train) s^2)`` for ``"corrected_ttest"``, ``sqrt(s^2 / J)``
        for ``"naive_ttest"``.
    confidence_level : float
        The interval's level.
    method : {"corrected_ttest", "naive_ttest"}
        The variance used.
    score : str
        The score's name.
    scores : ndarray of shape (n_folds,)
        The per-fold scores, in fold order.
    n_train, n_test : ndarray of shape (n_folds,) or None
        The folds' training and test sizes, where known.

    See Also
    --------
    cross_validated_score_interval : Build it.
    CrossValidatedTestResult : Two models compared on the same folds.

    Notes
    -----
    The repr is the summary line; ``to_frame()`` gives the folds (columns ``score``,
    ``n_train``, ``n_test``).

    Examples
    --------
    >>> from sklearn_confusion_ext import cross_validated_score_interval
    >>> result = cross_validated_score_interval([0.91, 0.88, 0.90, 0.93], n_train=9,
    ...                                         n_test=1)
    >>> low, high = result.confidence_interval()
    >>> round(result.estimate, 4), round(low, 4), round(high, 4)
    (0.905, 0.8652, 0.9448)
    """

    _: KW_ONLY
    estimate: float
    low: float
    high: float
    df: float
    standard_error: float
    confidence_level: float
    method: str
    score: str
    scores: object
    n_train: object = None
    n_test: object = None

    _summary_fields = ("method", "score", "estimate", "low", "high", "confidence_level",
                       "df", "standard_error")
    confidence_interval = interval_method()

    def _table(self):
        columns = {"score": self.scores}
        if self.n_train is not None:
            columns.update(n_train=self.n_train, n_test=self.n_test)
        return _Table("fold", range(np.size(self.scores)), columns)

    def __repr__(self):
        return self._line()


@validate_params(CV_INTERVAL)
def cross_validated_score_interval(scores, *, n_train=None, n_test=None, scoring=None,
                                   method="corrected_ttest", confidence_level=0.95):
    """Confidence interval of one model's cross-validated score, for the folds' overlap.

    The folds of a k-fold cross-validation train on overlapping data, so their scores
    are correlated, and the usual ``s^2 / J`` underestimates the variance of their mean:
    a t interval on it covers the model's score less often than it says. Nadeau and
    Bengio's corrected variance ``(1/J + n_test/n_train) s^2`` accounts for it (the one
    of the corrected resampled t-test of :func:`compare_cv_scores`); the interval is
    ``mean +/- t_{J-1} * sqrt((1/J + n_test/n_train) s^2)``.

    Parameters
    ----------
    scores : array-like of shape (n_folds,) or (n_repeats, n_splits), or dict
        The per-fold scores, or ``cross_validate``'s result (``scoring`` names its
        ``test_*`` key where it holds several; ``n_train`` and ``n_test`` are read from its
        ``indices`` where it was called with ``return_indices=True``).
    n_train, n_test : float or array-like of shape (n_folds,), default=None
        The folds' training and test sizes (one number each or one per fold; only the
        ratio ``mean(n_test) / mean(n_train)`` enters: ``n_train=9, n_test=1`` for
        10-fold cross-validation). Needed by ``"corrected_ttest"``.
    scoring : str, default=None
        The score's name, and the ``test_*`` key of a dict.
    method : {"corrected_ttest", "naive_ttest"}, default="corrected_ttest"
        ``"corrected_ttest"``: Nadeau and Bengio's corrected variance; ``"naive_ttest"``:
        ``s^2 / J``, for contrast (its coverage falls short: see the user guide).
    confidence_level : float, default=0.95
        The interval's level, in (0, 1).

    Returns
    -------
    CrossValidatedIntervalResult
        ``estimate``, ``low``, ``high``, ``df``, ``standard_error``.

    Warns
    -----
    RuntimeWarning
        Where the per-fold scores have no spread: the variance is 0 and the interval the
        single value ``estimate``.

    See Also
    --------
    compare_cv_scores : Two models' scores on the same folds, tested.
    cross_validated_confusion_matrices : The folds' confusion matrices.

    Notes
    -----
    The correction is derived for random train/test splits of equal sizes and is known
    to be approximately valid (Nadeau and Bengio 2003; Bouckaert and Frank 2004): the
    coverage simulation of the user guide measures it on repeated k-fold
    cross-validation.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the Generalization Error", Machine
       Learning 52(3), 239-281, 2003: the corrected variance.
    .. [2] R. R. Bouckaert and E. Frank, "Evaluating the Replicability of Significance
       Tests for Comparing Learning Algorithms", PAKDD 2004.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_confusion_ext import cross_validated_score_interval
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    >>> cv_results = cross_validate(GaussianNB(), X, y, cv=cv, scoring="accuracy",
    ...                             return_indices=True)
    >>> result = cross_validated_score_interval(cv_results)
    >>> round(result.estimate, 3), [round(end, 3) for end in result.confidence_interval()]
    (0.938, [0.913, 0.964])
    >>> naive = cross_validated_score_interval(cv_results, method="naive_ttest")
    >>> [round(end, 3) for end in naive.confidence_interval()]  # too narrow
    [0.926, 0.951]
    """
    score = _score_label(scoring)
    if isinstance(scores, Mapping):
        if scoring is None:
            keys = [key for key in scores if isinstance(key, str) and key.startswith("test_")]
            score = keys[0][len("test_"):] if len(keys) == 1 else score
        scores, folds, _ = _scores_of(scores, "scores", scoring)
        if folds is not None and n_train is None and n_test is None:
            n_train = [len(fold) for fold in folds["train"]]
            n_test = [len(fold) for fold in folds["test"]]
    values = _numbers("scores", scores, "one number per fold")
    if values.ndim not in (1, 2):
        raise ValueError(f"scores must be 1-D (one score per fold) or 2-D (n_repeats, "
                         f"n_splits); got shape {values.shape}.")
    values = values.ravel()
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise ValueError(f"scores has {values[bad[0]]} at fold {bad[0]} ({bad.size} "
                         "non-finite score(s)): every fold needs a score.")
    if values.size < 2:
        raise ValueError(f"An interval across folds needs at least 2 folds; got "
                         f"{values.size}.")
    n_train, n_test = _check_sizes(n_train, n_test, values.size, method)
    ratio = 0.0 if method == "naive_ttest" else float(n_test.mean() / n_train.mean())
    # on the scores divided by their largest magnitude: s^2 of scores near 1e308 overflows
    scale = float(np.max(np.abs(values))) or 1.0
    scaled = values / scale
    if _no_spread(scaled):
        warn(f"method={method!r}: the per-fold scores have no spread (variance 0); the "
             "interval is the single value of their mean. With so few folds or so coarse "
             "a score, there is no estimate of the variance.", RuntimeWarning)
    standard_error = scale * math.sqrt(corrected_variance(scaled, ratio))
    estimate = scale * float(scaled.mean())
    df = float(values.size - 1)
    q = float(stats.t.ppf((1 + float(confidence_level)) / 2, df))
    with np.errstate(over="ignore"):
        ends = np.array([estimate - q * standard_error, estimate + q * standard_error])
    if not np.isfinite(ends).all():
        raise ValueError(f"scores up to {scale:.3g} in magnitude give an interval whose ends "
                         f"{quoted(ends.tolist())} overflow float64; pass scores of a "
                         "smaller scale (divide them by a constant, then scale the interval "
                         "back).")
    return CrossValidatedIntervalResult(
        estimate=estimate, low=float(ends[0]), high=float(ends[1]), df=df,
        standard_error=standard_error,
        confidence_level=float(confidence_level), method=method, score=score,
        scores=values, n_train=n_train, n_test=n_test)


# --- A classification report across folds ----------------------------------------------------


@validate_params({**CV_FOLDS, **REPORT})
def cross_validation_report(cv_results, X, y, *, response_method="auto", labels=None,
                            target_names=None, sample_weight=None, weighting="uniform",
                            empty="null_class", digits=2, output_dict=False,
                            zero_division="warn", include_none="auto", cv=None,
                            groups=None, n_jobs=None):
    """Precision, recall and F1 per class across the folds of a cross-validation.

    Laid out like :func:`sklearn.metrics.classification_report`: each score is the
    pooled one (of the sum of the folds' transport confusion matrices, as
    :func:`transport_classification_report` reads it), then its mean and standard
    deviation over the folds, printed ``0.93 (0.93±0.04)``.

    Parameters
    ----------
    cv_results, X, y, response_method, labels, sample_weight, weighting, empty, cv, \
groups, n_jobs
        As in :func:`cross_validated_confusion_matrices`.
    target_names : list of str, default=None
        Display names of the classes, in order.
    digits : int, default=2
        Digits of the floats in the text report.
    output_dict : bool, default=False
        Return a dict laid out as :func:`transport_classification_report`'s, each score
        ``s`` with ``"s_mean"`` and ``"s_std"`` beside it (the accuracy with
        ``"accuracy_mean"`` and ``"accuracy_std"``).
    zero_division, include_none
        As in :func:`transport_precision_recall_fscore_support`, for the pooled scores.
        A score undefined on a fold (a class absent from its test set) is left out of the
        mean and standard deviation, with a warning.

    Returns
    -------
    str or dict
        The report.

    See Also
    --------
    transport_classification_report : The report of one test set.
    cross_validated_confusion_matrices : The folds' matrices.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: the transport-based precision, recall and F1.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_confusion_ext import cross_validation_report
    >>> X, y = load_iris(return_X_y=True)
    >>> cv_results = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=5,
    ...                             return_estimator=True, return_indices=True)
    >>> print(cross_validation_report(cv_results, X, y,
    ...                               target_names=["setosa", "versicolor", "virginica"]))
                         precision           recall         f1-score   support
    <BLANKLINE>
          setosa  1.00 (1.00±0.00) 1.00 (1.00±0.00) 1.00 (1.00±0.00)        50
      versicolor  0.94 (0.94±0.05) 0.94 (0.94±0.09) 0.94 (0.94±0.06)        50
       virginica  0.94 (0.95±0.08) 0.94 (0.94±0.05) 0.94 (0.94±0.05)        50
    <BLANKLINE>
        accuracy                                    0.96 (0.96±0.04)       150
       macro avg  0.96 (0.96±0.04) 0.96 (0.96±0.04) 0.96 (0.96±0.04)       150
    weighted avg  0.96 (0.96±0.04) 0.96 (0.96±0.04) 0.96 (0.96±0.04)       150
    <BLANKLINE>
    pooled (mean±std over 5 folds)
    <BLANKLINE>
    """
    check_target_names(target_names, labels)
    pooled, full = _fold_confusions(
        cv_results, X, y, cv=cv, groups=groups, n_jobs=n_jobs,
        response_method=response_method, labels=labels, sample_weight=sample_weight,
        weighting=weighting, empty=empty)
    names = report_row_names(pooled, target_names, include_none)
    report = classification_report_from_confusion(
        pooled, target_names=target_names, output_dict=True, zero_division=zero_division,
        include_none=include_none)
    values = report_reader(pooled, zero_division=np.nan, include_none=include_none)(full)
    mean, std = _fold_spread(values, "score(s) are")
    report = _with_spread(report, mean, std)
    if output_dict:
        return report
    from .._scores.reports import _format_report

    text = _format_report(report, names, digits, "support")
    return text + f"\npooled (mean\u00b1std over {full.shape[0]} folds)\n"


def _with_spread(report, mean, std):
    """The report with ``<score>_mean`` and ``<score>_std`` after each score."""
    keys = ("precision", "recall", "f1-score")
    result = {}
    for (name, row), row_mean, row_std in zip(report.items(), mean, std):
        if name == "accuracy":
            result.update({name: row, "accuracy_mean": float(row_mean[0]),
                           "accuracy_std": float(row_std[0])})
            continue
        result[name] = {}
        for key, value in row.items():
            result[name][key] = value
            if key in keys:
                j = keys.index(key)
                result[name].update({f"{key}_mean": float(row_mean[j]),
                                     f"{key}_std": float(row_std[j])})
    return result
