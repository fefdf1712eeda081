"""Scorers for :func:`~sklearn.model_selection.cross_validate` and
:class:`~sklearn.model_selection.GridSearchCV`: every score of the library by name.

A scorer is a picklable callable ``scorer(estimator, X, y_true, sample_weight=None)``
(scikit-learn accepts any such callable as ``scoring=``). The transport-based and MLCM
scorers are small module-level classes: they need ``estimator.classes_`` to align
``predict_proba`` columns with the labels.
"""

import numpy as np
import scipy.sparse as sp
from scipy import special
from sklearn import get_config
from sklearn.metrics import get_scorer as sklearn_get_scorer
from sklearn.metrics import make_scorer
from sklearn.utils.metadata_routing import UNCHANGED, MetadataRequest

from .._core.params import AVERAGES, CALLABLE, Constraint, Options, unchecked, validate_params
from .from_confusion import WARN_FOR
from .from_predictions import (
    cohen_kappa_score,
    confusion_entropy,
    correlation_distance,
    generalized_means_score,
    mlcm_precision_recall_fscore_support,
    symmetric_balanced_accuracy_score,
    transport_accuracy_score,
    transport_precision_recall_fscore_support,
)
from .names import (
    SCALAR_SCORE_NAMES,
    SCORE_NAMES,
    score_name,
    sklearn_scorer_names,
)

# The scores a scorer calls on each fold: their fixed arguments were checked when the scorer
# was made, and the fold's data is validated by the function itself.
_TRANSPORT_ACCURACY = unchecked(transport_accuracy_score)
_TRANSPORT_PRFS = unchecked(transport_precision_recall_fscore_support)
_MLCM_PRFS = unchecked(mlcm_precision_recall_fscore_support)


class ScoreRequester:
    """The metadata routing of a scorer, as scikit-learn's scorers have it:
    ``set_score_request(sample_weight=...)`` and ``get_metadata_routing()``.

    With ``sklearn.set_config(enable_metadata_routing=True)``, ``cross_validate(...,
    params={"sample_weight": w})`` and ``GridSearchCV.fit(X, y, sample_weight=w)`` pass each
    fold's weights to a scorer that requested them (``True``, or an alias: the name of the
    metadata to read), and raise where weights are passed that no scorer requested or
    refused (``None``, the default), as with scikit-learn's own scorers. Routing off, the
    model-selection tools decide, as for scikit-learn's scorers. Built on the public
    :class:`sklearn.utils.metadata_routing.MetadataRequest` only; the state is a plain
    attribute, so the scorer pickles."""

    _sample_weight_request = None

    def set_score_request(self, *, sample_weight=UNCHANGED):
        """Request or refuse the ``sample_weight`` that a model-selection tool routes to
        this scorer (metadata routing, scikit-learn's ``set_score_request``).

        Parameters
        ----------
        sample_weight : bool, None or str, default=sklearn.utils.metadata_routing.UNCHANGED
            ``True``: the scorer weighs each fold's instances by the routed
            ``sample_weight``; ``False``: it never reads them; ``None`` (a new scorer's
            request): passing weights raises; a string: the name of the metadata to read
            as ``sample_weight``; ``UNCHANGED``: the request stays as it is.

        Returns
        -------
        self
        """
        if not get_config().get("enable_metadata_routing", False):
            raise RuntimeError(
                f"{self._routing_repr()}.set_score_request needs metadata routing: call "
                "sklearn.set_config(enable_metadata_routing=True) first (without it the "
                "request would never be read).")
        if not (isinstance(sample_weight, str) and sample_weight == UNCHANGED):
            # scikit-learn's own check of the alias (True, False, None or a valid name).
            MetadataRequest(owner=self._routing_repr()).score.add_request(
                param="sample_weight", alias=sample_weight)
            self._sample_weight_request = sample_weight
        return self

    def get_metadata_routing(self):
        """The scorer's request of ``sample_weight`` for its ``score`` (what
        :func:`sklearn.utils.metadata_routing.get_routing_for_object` reads).

        Returns
        -------
        sklearn.utils.metadata_routing.MetadataRequest
        """
        request = MetadataRequest(owner=self._routing_repr())
        request.score.add_request(param="sample_weight", alias=self._sample_weight_request)
        return request

    def _routing_repr(self):  # the scorer's name in scikit-learn's routing messages
        return repr(self)

    def _accept_sample_weight(self):  # asked by scikit-learn >= 1.8 with routing off
        return True


class _MatrixScorer(ScoreRequester):
    """Precision, recall, F-beta or accuracy of a confusion-matrix builder, on a fold."""

    def __init__(self, metric, average, response_method, params):
        self.metric, self.average = metric, average
        self.response_method, self.params = response_method, dict(params)

    def __repr__(self):
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return (f"{self._factory}({self.metric!r}, average={self.average!r}, "
                f"response_method={self.response_method!r}{params})")

    def __call__(self, estimator, X, y_true, sample_weight=None):
        y_pred, y_true = _predictions(estimator, X, y_true, self.response_method)
        labels = column_labels(estimator, y_true, y_pred)
        if self.metric == "accuracy":
            return self._accuracy(y_true, y_pred, sample_weight, labels)
        index = {"precision": 0, "recall": 1, "f1": 2}[self.metric]
        # Only the score asked for warns where it is undefined, as scikit-learn's f1 scorer
        # warns of the F-score alone: one warning per call, not three.
        token = WARN_FOR.set((index,))
        try:
            scores = self._prfs(y_true, y_pred, sample_weight, labels)
        finally:
            WARN_FOR.reset(token)
        return float(scores[index])


class TransportScorer(_MatrixScorer):
    """Scorer of the transport-based confusion matrix; see :func:`make_transport_scorer`."""

    _factory = "make_transport_scorer"

    def _accuracy(self, y_true, y_pred, sample_weight, labels):
        params = {k: v for k, v in self.params.items() if k in ("weighting", "empty")}
        return _TRANSPORT_ACCURACY(y_true, y_pred, sample_weight=sample_weight,
                                   labels=labels, **params)

    def _prfs(self, y_true, y_pred, sample_weight, labels):
        return _TRANSPORT_PRFS(
            y_true, y_pred, average=self.average, sample_weight=sample_weight, labels=labels,
            **self.params)


class MLCMScorer(_MatrixScorer):
    """Scorer of the multi-label confusion matrix; see :func:`make_mlcm_scorer`."""

    _factory = "make_mlcm_scorer"

    def _accuracy(self, y_true, y_pred, sample_weight, labels):
        # Micro precision = micro recall = trace / total on the whole MLCM.
        return float(_MLCM_PRFS(
            y_true, y_pred, average="micro", sample_weight=sample_weight, labels=labels,
            method=self.params.get("method", "heydarian"))[0])

    def _prfs(self, y_true, y_pred, sample_weight, labels):
        return _MLCM_PRFS(
            y_true, y_pred, average=self.average, sample_weight=sample_weight, labels=labels,
            **self.params)


class ResponseMethod(Constraint):
    """A ``response_method`` as :func:`sklearn.metrics.make_scorer` takes it: ``"predict"``,
    ``"predict_proba"`` or ``"decision_function"``, or a tuple (or list) of them in order
    of preference, the first the estimator has answering (each once)."""

    METHODS = ("predict", "predict_proba", "decision_function")

    def accepts_type(self, value):
        return isinstance(value, (str, tuple, list))

    def is_satisfied_by(self, value):
        if isinstance(value, str):
            return value in self.METHODS
        return isinstance(value, (tuple, list)) and len(value) > 0 and \
            len(set(map(str, value))) == len(value) and \
            all(isinstance(method, str) and method in self.METHODS for method in value)

    def __str__(self):
        return ("one of {'predict', 'predict_proba', 'decision_function'} or a tuple of "
                "them (an order of preference, each once)")

    def invalid_values(self):
        return ["bogus", (), ("predict_proba", "bogus"), ("predict", "predict")]

    def valid_values(self):
        return ["decision_function", ("decision_function", "predict_proba"),
                ["predict_proba", "predict"]]


RESPONSE_METHOD = [ResponseMethod()]


def response_method_of(estimator, response_method, owner="the scorer"):
    """The name of the first method of ``response_method`` (a name or a tuple of them, in
    order of preference) that ``estimator`` has, as scikit-learn's scorers resolve it."""
    methods = (response_method,) if isinstance(response_method, str) else response_method
    for method in methods:
        if getattr(estimator, method, None) is not None:
            return method
    raise AttributeError(f"{type(estimator).__name__} has none of the methods "
                         f"{', '.join(methods)} that {owner}'s response_method="
                         f"{response_method!r} asks for.")


# What a scorer factory takes of its own (the reading and its average).
SCORER_METRIC = [Options("accuracy", "precision", "recall", "f1")]
_SCORER = {"metric": SCORER_METRIC, "average": [Options(*AVERAGES)]}


def _passed_on(function, names):
    """The constraints of the keywords a scorer factory passes on to ``function``: its own
    declaration's, so a scorer that would fail on every fold is never built."""
    return {name: function.parameter_constraints[name] for name in names}


@validate_params({
    **_SCORER, "response_method": RESPONSE_METHOD,
    **_passed_on(transport_precision_recall_fscore_support,
                 ("weighting", "beta", "zero_division", "empty"))})
def make_transport_scorer(metric="f1", *, average="macro", weighting="uniform",
                          response_method="predict", beta=1.0, zero_division="warn",
                          empty="null_class"):
    """Scorer from the transport-based confusion matrix (Erbani et al. 2024).

    Parameters
    ----------
    metric : {"accuracy", "precision", "recall", "f1"}, default="f1"
        The score read off the matrix (``"f1"`` uses ``beta``).
    average : {"micro", "macro", "weighted"}, default="macro"
        Averaging of the per-class scores (unused for accuracy).
    weighting : {"uniform", "true", "pred"} or callable, default="uniform"
        Instance weights of the matrix.
    response_method : {"predict", "predict_proba", "decision_function"} or tuple of \
them, default="predict"
        Hard predictions, or the predicted probabilities scored against the true labels
        (columns named by ``estimator.classes_``); a tuple is an order of preference, the
        first method the estimator has answering, as in :func:`sklearn.metrics.make_scorer`
        (``("predict_proba", "decision_function")`` also scores an ``SVC`` without
        probabilities). ``"decision_function"``: the scores read as probabilities through
        the softmax of each row (a binary classifier's one score ``s`` through the logistic
        function, ``1 / (1 + exp(-s))`` for ``classes_[1]``; each label's own logistic for
        a multi-label target), the link of logistic regression, whose scores so give its
        ``predict_proba``; other models' scores are no calibrated probabilities, and their
        scale sets how soft the matrix is. A score of probabilities is the score
        of answering at random from them (its accuracy is the mean probability of the
        true class): sharper probabilities raise it, deserved or not. It is not a proper
        scoring rule and rewards over-confidence, so select models on the predicted
        classes or on ``"neg_log_loss"`` / ``"neg_brier_score"`` (user guide,
        "Probabilities: what a soft matrix measures").
    beta : float, default=1.0
        F-beta's weight of recall.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score with a zero denominator, for instance on a fold where a class is
        absent; "warn" gives 0.0 and an ``UndefinedMetricWarning``.
    empty : {"null_class", "skip", "error"}, default="null_class"
        Policy for instances with no class at all.

    Returns
    -------
    TransportScorer
        A picklable scorer ``scorer(estimator, X, y_true, sample_weight=None)``.

    See Also
    --------
    make_mlcm_scorer : The MLCM's scorer factory.
    get_scorer : A scorer by name.
    transport_precision_recall_fscore_support : The scores it reads.

    References
    ----------
    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: Section V.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn_confusion_ext import make_transport_scorer
    >>> X, y = load_iris(return_X_y=True)
    >>> scorer = make_transport_scorer("f1", response_method="predict_proba")
    >>> scores = cross_val_score(LogisticRegression(max_iter=500), X, y, scoring=scorer, cv=3)
    >>> bool(((0 < scores) & (scores < 1)).all())
    True
    """
    params = {"weighting": weighting, "zero_division": zero_division, "empty": empty}
    if metric == "f1" and beta != 1.0:
        params["beta"] = beta
    return TransportScorer(metric, average, response_method, params)


@validate_params({
    **_SCORER, **_passed_on(mlcm_precision_recall_fscore_support, ("method", "zero_division"))})
def make_mlcm_scorer(metric="f1", *, average="macro", method="heydarian",
                     zero_division="warn"):
    """Scorer from the multi-label confusion matrix (Heydarian et al. 2022).

    Parameters
    ----------
    metric : {"accuracy", "precision", "recall", "f1"}, default="f1"
        ``"accuracy"`` is the trace over the total of the MLCM (its micro average).
    average : {"micro", "macro", "weighted"}, default="macro"
    method : {"heydarian", "krstinic"}, default="heydarian"
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"

    Returns
    -------
    MLCMScorer
        A picklable scorer on hard (``predict``) predictions.

    See Also
    --------
    make_transport_scorer : The TCM's scorer factory.
    get_scorer : A scorer by name.
    mlcm_precision_recall_fscore_support : The scores it reads.

    References
    ----------
    M. Heydarian, T. E. Doyle, R. Samavi, "MLCM: Multi-Label Confusion Matrix", IEEE
    Access 10 (2022), doi:10.1109/ACCESS.2022.3151048: eqs. (2)-(7).

    Examples
    --------
    >>> from sklearn_confusion_ext import make_mlcm_scorer
    >>> make_mlcm_scorer("recall", average="weighted")
    make_mlcm_scorer('recall', average='weighted', response_method='predict', \
method='heydarian', zero_division='warn')
    """
    return MLCMScorer(metric, average, "predict",
                      {"method": method, "zero_division": zero_division})


def _generalized_means_macro(y_true, y_pred, sample_weight=None):
    return generalized_means_score(y_true, y_pred, r=1.0, average="macro",
                                   sample_weight=sample_weight)


# The named scorers that are no matrix's reading (a new scorer on each call): the measures,
# and those a family above this floor registers (the quantification errors, in
# _quantification/scorers.py: register_named_scorer).
_MEASURE_SCORERS = {
    "generalized_means": lambda: make_scorer(_generalized_means_macro),
    "symmetric_balanced_accuracy": lambda: make_scorer(symmetric_balanced_accuracy_score),
    "cohen_kappa": lambda: make_scorer(cohen_kappa_score),
    "neg_correlation_distance": lambda: make_scorer(correlation_distance,
                                                    greater_is_better=False),
    "neg_confusion_entropy": lambda: make_scorer(confusion_entropy, greater_is_better=False),
}


def register_named_scorer(name, make):
    """Make :func:`get_scorer` give ``make()`` (a new scorer on each call) for ``name``, a
    name of the table (:mod:`.names`) that is no matrix's reading: the families above the
    scores (the quantification errors) register their scorers here, so that this floor
    imports none of them."""
    if name not in SCORE_NAMES or SCORE_NAMES[name].family in ("tcm", "mlcm"):
        raise ValueError(f"{name!r} is not a name of a measure's scorer in the table of "
                         "score names (_scores/names.py).")
    _MEASURE_SCORERS[name] = make


def _named_scorer(name):
    """The scorer of a name of the one table (:mod:`.names`) that gives one
    number: a new object on each call (no shared mutable state)."""
    meaning = SCORE_NAMES[name]
    if meaning.family == "tcm":
        return make_transport_scorer(meaning.reading, average=meaning.average or "macro")
    if meaning.family == "mlcm":
        return make_mlcm_scorer(meaning.reading, average=meaning.average or "macro")
    return _MEASURE_SCORERS[name]()


@validate_params({})
def get_scorer_names():
    """Names accepted by :func:`get_scorer`: this library's and scikit-learn's.

    The names of this library's one table of score names (``tcm_f1_macro``,
    ``generalized_means`` ...) and every name of :func:`sklearn.metrics.get_scorer_names`
    (``accuracy``, ``f1_macro``, ``neg_log_loss`` ...), sorted, each once.

    Returns
    -------
    list of str

    See Also
    --------
    get_scorer : A scorer by name.
    sklearn.metrics.get_scorer_names : scikit-learn's names.

    Examples
    --------
    >>> from sklearn_confusion_ext import get_scorer_names
    >>> names = get_scorer_names()
    >>> "tcm_f1_macro" in names, "neg_log_loss" in names
    (True, True)
    """
    return sorted(set(SCALAR_SCORE_NAMES) | set(sklearn_scorer_names()))


@validate_params({"scoring": [None, str, CALLABLE]})
def get_scorer(scoring):
    """A scorer by name, for ``scoring=``: this library's names and scikit-learn's.

    A drop-in replacement of :func:`sklearn.metrics.get_scorer`, so that one
    ``scoring={...}`` dict is built with one function: a name of scikit-learn's
    (``"accuracy"``, ``"f1_macro"``, ``"neg_log_loss"`` ...) gives scikit-learn's own
    scorer, a callable or None is returned unchanged, as scikit-learn does, and the names
    of this library give its scorers. No name means two things: a name of both tables
    would give scikit-learn's scorer (scikit-learn's meaning wins, so that swapping the
    import changes nothing), and this library's names are chosen apart from scikit-learn's
    (``tcm_accuracy``, not ``accuracy``; a test checks it on the installed scikit-learn).

    This library's names (one table, which :func:`score_confidence_interval` and
    :func:`compare_scores` read too, beside scikit-learn's): ``tcm_accuracy``,
    ``tcm_{precision,recall,f1}_{micro,macro,weighted}`` (the transport-based confusion
    matrix, uniform weighting), ``mlcm_accuracy``,
    ``mlcm_{precision,recall,f1}_{micro,macro,weighted}``,
    ``generalized_means`` (r = 1, macro average), ``symmetric_balanced_accuracy``,
    ``cohen_kappa`` (:func:`cohen_kappa_score`: Cohen's kappa, 1 where both labelings put
    everything in one class; scikit-learn has the metric but no scorer name for it),
    ``neg_correlation_distance``, ``neg_confusion_entropy`` and the classify-and-count
    quantification errors ``neg_absolute_error``, ``neg_normalized_absolute_error``,
    ``neg_relative_absolute_error``, ``neg_kl_divergence``,
    ``neg_normalized_kl_divergence`` (smoothed with ``eps = 1 / (2 * fold size)``).
    ``tcm_f1``, ``mlcm_recall`` and the other names without an average give one value per
    class (for intervals and :class:`ScoreIntervalDisplay`): a scorer refuses them, naming
    the averaged names.

    Parameters
    ----------
    scoring : str, callable or None
        A name of :func:`get_scorer_names`; a callable (a scorer) or None is returned as is.

    Returns
    -------
    callable or None
        A picklable scorer ``scorer(estimator, X, y_true, sample_weight=None)``, a new object
        on each call.

    See Also
    --------
    get_scorer_names : The names it takes.
    make_transport_scorer : A TCM scorer with parameters.
    make_mlcm_scorer : An MLCM scorer with parameters.
    sklearn.metrics.get_scorer : scikit-learn's, whose names it takes too.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_confusion_ext import get_scorer
    >>> X, y = load_iris(return_X_y=True)
    >>> names = ("tcm_f1_macro", "generalized_means", "accuracy", "f1_macro")
    >>> scoring = {name: get_scorer(name) for name in names}
    >>> result = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=3,
    ...                         scoring=scoring)
    >>> sorted(key for key in result if key.startswith("test_"))
    ['test_accuracy', 'test_f1_macro', 'test_generalized_means', 'test_tcm_f1_macro']
    """
    if not isinstance(scoring, str):
        return scoring
    if scoring in sklearn_scorer_names():
        return sklearn_get_scorer(scoring)
    score_name(scoring, "get_scorer", scalar=True, extra_names=sklearn_scorer_names())
    return _named_scorer(scoring)


def _predictions(estimator, X, y_true, response_method):
    """``(y_pred, y_true)``: hard predictions, or the probabilities (one column per class of
    ``estimator.classes_``; a binary classifier's single column completed) beside the labels
    ``y_true`` unchanged (see :func:`column_labels`). ``response_method``: a name or an
    order of preference (:func:`response_method_of`); the scores of ``decision_function``
    are read through the softmax of each row (the logistic function of a binary
    classifier's one score, of each label of a multi-label target)."""
    response_method = response_method_of(estimator, response_method)
    if response_method == "predict":
        return estimator.predict(X), y_true
    if response_method == "decision_function":
        scores = np.asarray(estimator.decision_function(X), dtype=float)
        if scores.ndim == 1:  # a binary classifier's score of classes_[1]
            positive = special.expit(scores)
            return np.column_stack([1 - positive, positive]), y_true
        if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:  # a score per label
            return special.expit(scores), y_true
        return special.softmax(scores, axis=1), y_true
    probabilities = estimator.predict_proba(X)
    if isinstance(probabilities, list):  # multi-output: one (n, 2) array per label
        return np.column_stack([p[:, -1] for p in probabilities]), y_true
    probabilities = np.asarray(probabilities)
    if probabilities.ndim == 1:  # binary classifiers' positive-class column
        probabilities = np.column_stack([1 - probabilities, probabilities])
    return probabilities, y_true


def column_labels(estimator, y_true, y_pred):
    """The class of each column of ``y_pred`` when it holds scores beside 1-D labels
    ``y_true`` (``estimator.classes_``), else None."""
    if type(y_true) is not np.ndarray:
        y_true = y_true if sp.issparse(y_true) else np.asarray(y_true)
    if (y_pred.ndim if type(y_pred) is np.ndarray else np.ndim(y_pred)) == 2 and \
            (y_true.ndim == 1 or y_true.shape[1] == 1):
        return np.asarray(estimator.classes_)
    return None
