"""Common tests over a registry of the whole public API.

After scikit-learn's ``sklearn/metrics/tests/test_common.py`` and imbalanced-learn's
``imblearn/tests/test_public_functions.py``: every name of ``__all__`` is registered below with
its tags, and generic tests run over the registry:

* the registry is ``__all__``, its tags agree with the signatures and the results, and test
  results unpack like scipy's;
* the parameter contract (``_core/params.py``): every public callable is declared and
  decorated, its declaration names its signature, defaults satisfy it, every invalid value the
  constraints generate is refused with a message naming the callable and the parameter, and
  NumPy scalars work wherever Python numbers and booleans do;
* scikit-learn's invariances for every function of targets, with its defaults and with each
  registered variant of its keywords: sample order, input containers (list, ndarray, every
  scipy.sparse format as array and matrix, pandas), unit and integer sample weights, string
  labels, class permutations and ``labels=`` selections, untouched inputs, finite results
  (hypothesis), ``n_jobs``/``chunk_size``, symmetry and the direction of scores; over
  sample targets and over labels beside probabilities or scores (``PROBABILITY_KINDS``:
  float32, read-only and non-contiguous arrays too).

Hostile inputs (NaN, malformed sparse structure, extension dtypes...) are fuzzed elsewhere
(test_fuzz.py, for every kind an entry declares).

A new public name is not done until it is registered here.
"""

import copy
import dataclasses
import functools
import inspect
import numbers
import tracemalloc
import types
import warnings
from collections.abc import Callable, Mapping

import numpy as np
import pytest
import scipy.sparse as sp
from declarations import CLI_ONLY, DECLARATIONS
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.tree import DecisionTreeClassifier

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.params import (
    ArrayLike,
    Boolean,
    Interval,
    NaN,
    Options,
    RandomState,
    _plain_binder,
    constraints_of,
    options_of,
)

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:  # the Displays' cases skip
    plt = None

# --- Small valid inputs ------------------------------------------------------------------

# Kinds of targets: 1-D class labels, 2-D 0/1 indicators, 2-D non-negative soft labels.
SAMPLE_KINDS = ("labels", "multilabel", "soft")
# Kinds of 1-D labels beside a classifier's outputs: its (n, C) predict_proba, a 1-D
# probability of the positive class (labels {0, 1}), (n, C) unbounded decision_function
# scores. The invariances run over these too (an entry declares those it takes).
PROBABILITY_KINDS = ("probabilities", "binary_probabilities", "scores")
TARGET_KINDS = (*SAMPLE_KINDS, *PROBABILITY_KINDS)
SAMPLES = {
    "labels": ([0, 1, 2, 2, 1, 0, 2, 1], [0, 2, 2, 1, 1, 0, 2, 0]),
    "multilabel": ([[1, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [1, 0, 1]],
                   [[1, 0, 0], [0, 1, 1], [0, 0, 1], [1, 0, 0], [1, 0, 1]]),
    "soft": ([[0.7, 0.3, 0.0], [0.0, 1.0, 0.0], [0.2, 0.2, 0.6], [0.5, 0.0, 0.5]],
             [[0.6, 0.2, 0.2], [0.1, 0.9, 0.0], [0.0, 0.3, 0.7], [1.0, 0.0, 0.0]]),
}
IBD = [[37, 1, 15], [6, 19, 26], [15, 3, 77]]  # Barranco-Chamorro 2021, Table 1
# Probabilities of three classes for six instances (the Displays of probabilities).
PROBABILITIES = [[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4],
                 [0.5, 0.4, 0.1], [0.4, 0.4, 0.2]]
# Three models' scores on 12 data sets (rows), a model's ranks varying (Friedman tests).
ACROSS_DATASETS = np.round(np.random.default_rng(0).normal([0.8, 0.78, 0.7], 0.05, (12, 3)),
                           3)
OTHER = [[30, 10, 13], [6, 25, 20], [9, 9, 77]]
# Two models' scores on 5 folds of 3 data sets (the hierarchical test).
FOLDS_A = np.round(np.random.default_rng(1).normal(0.8, 0.03, (3, 5)), 3)
FOLDS_SHIFT = np.round(np.random.default_rng(2).normal(0.01, 0.02, (3, 5)), 3)


def accuracy(y_true, y_pred):
    """A fast measure for the audits (module level: audits may pickle it)."""
    return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))


@functools.cache
def fitted():
    """A fitted classifier and its data, for ``from_estimator`` and the scorers."""
    rng = np.random.default_rng(0)
    X = rng.random((30, 2))
    y = (3 * X[:, 0] + rng.normal(0, 0.3, 30)).clip(0, 2.9).astype(int)
    # One split: imperfect, and a class is never predicted (zero_division matters).
    return DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y), X, y


@functools.cache
def fitted_binary():
    """A fitted binary classifier with probabilities and its data (the threshold Display)."""
    from sklearn.linear_model import LogisticRegression

    estimator, X, y = fitted()
    y = (y > 0).astype(int)
    return LogisticRegression().fit(X, y), X, y


def score_fitted(scorer):
    """What a scorer gives on the fitted classifier: the scorer as compared."""
    estimator, X, y = fitted()
    return scorer(estimator, X, y)


def accumulated(accumulator):
    """An accumulator as compared: its result on two-class targets."""
    accumulator.update([[1, 0], [1, 1], [0, 1]], [[1, 1], [0, 1], [0, 1]])
    return accumulator.result()


def two_models_on_iris():
    """A minimal valid compare_cv call: two models, iris, 2 x 2 folds."""
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    return {"estimator_a": GaussianNB(), "estimator_b": DecisionTreeClassifier(random_state=0),
            "X": X, "y": y, "n_splits": 2, "n_repeats": 2, "random_state": 0}


def one_model_cv_on_iris():
    """A minimal valid cv_results call: a quick model cross-validated on iris's 3 folds
    (the estimator form, so that every keyword, cv too, applies; the tests of
    tests/_statistics/test_cv_reports.py read cross_validate's results)."""
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    X, y = load_iris(return_X_y=True)
    return {"cv_results": GaussianNB(), "X": X, "y": y, "cv": 3}


def settings_inside(context):
    """A settings context as compared: the settings inside it."""
    with context:
        return sce.get_config()


# --- The registry --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Entry:
    """Tags of one public name.

    targets: kinds of inputs taken, among SAMPLE_KINDS (sample targets), PROBABILITY_KINDS
        (labels beside probabilities or scores), "matrix" (a confusion matrix),
        "prevalence" (prevalence vectors) and "other".
    target_params: the parameters that take those inputs.
    sample_weight, labels: whether it takes ``sample_weight``, and ``labels`` selecting classes.
    returns: "matrix", "score", "result" (a small result object) or "other".
    greater_is_better: for scores, their direction; symmetric: for scores, f(a, b) == f(b, a)
        (a matrix function: f(M) == f(M.T)).
    class_axes: axes of the result (of each array of a tuple result) indexed by the classes,
        in class order, possibly followed by the "none" class; () for a result invariant to
        class permutations; None when not tested (reports name the classes).
    fixed: keywords given to every call (e.g. ``average="macro"`` for any number of classes).
    variants: other keywords under which the invariances must hold too.
    minimal: () -> keywords of a minimal valid call (default: built from SAMPLES).
    methods: for classes, method name -> () -> keywords of a minimal valid call of it.
    compare: what of the result is compared (a scorer is applied, a generator listed).
    repeated: (compared result, keywords) -> what of it integer weights give as repeated
        rows (default: all of it); None where nothing (documented: bands and debiased
        terms count Kish's effective instances, quantile bins the instances, not weights).
    """

    targets: tuple = ("other",)
    target_params: tuple = ("y_true", "y_pred")
    sample_weight: bool = False
    labels: bool = False
    returns: str = "other"
    greater_is_better: bool | None = None
    symmetric: bool | None = None
    class_axes: tuple | None = None
    fixed: dict = dataclasses.field(default_factory=dict)
    variants: tuple = ()
    minimal: Callable | None = None
    methods: dict = dataclasses.field(default_factory=dict)
    compare: Callable = lambda result: result  # noqa: E731
    repeated: Callable | None = None

    def __post_init__(self):
        # (y_true, y_prob) or (y_true, y_score) without declared targets: labels beside
        # probabilities (and scores); an entry taking fewer kinds declares them.
        first, *rest = self.target_params
        if self.targets == ("other",) and first == "y_true" and rest[:1] in (
                ["y_prob"], ["y_score"]):
            kinds = ("probabilities", "binary_probabilities") + (
                ("scores",) if rest[0] == "y_score" else ())
            object.__setattr__(self, "targets", kinds)


def metric(targets=SAMPLE_KINDS, **tags):
    """A function of sample targets, with sample_weight and labels."""
    return Entry(targets=targets, sample_weight=True, labels=True, **tags)


def score(greater_is_better, symmetric, **tags):
    return metric(returns="score", greater_is_better=greater_is_better, symmetric=symmetric,
                  class_axes=(), **tags)


def quantification_error(symmetric):
    return Entry(targets=("prevalence",), target_params=("p_true", "p_pred"), returns="score",
                 greater_is_better=False, symmetric=symmetric,
                 minimal=lambda: {"p_true": [0.2, 0.5, 0.3], "p_pred": [0.25, 0.45, 0.3]})


def from_confusion(greater_is_better, **tags):
    return Entry(targets=("matrix",), target_params=("matrix",), returns="score",
                 greater_is_better=greater_is_better, symmetric=True, **tags)


def statistical_test(returns="result"):
    return Entry(targets=("matrix",), target_params=("matrix",), returns=returns,
                 minimal=lambda: {"matrix": IBD})


def scorer_factory(minimal=dict):
    return Entry(minimal=minimal, compare=score_fitted)


def confusion_display(binary=False):
    """A confusion-matrix Display; ``binary``: its from_* take two classes (where a score
    may be read at a threshold=)."""
    multilabel = {"y_true": SAMPLES["multilabel"][0], "y_pred": SAMPLES["multilabel"][1]}
    if binary:
        multilabel = {"y_true": [0, 1, 1, 0, 1, 0], "y_pred": [0.0, 1.0, 0.0, 0.0, 1.0, 1.0]}
    return Entry(
        minimal=lambda: {"confusion_matrix": [[2.0, 1.0], [0.0, 3.0]]},
        methods={"plot": dict, "from_predictions": lambda: dict(multilabel),
                 "from_estimator": lambda: dict(zip(("estimator", "X", "y"),
                                                    fitted_binary() if binary else fitted()))})


PER_CLASS = dict(returns="other", class_axes=(0,))  # precision, recall, F, support
MATRIX = dict(returns="matrix", class_axes=(0, 1))
MULTILABEL = ("labels", "multilabel")  # 0/1 only: 1-D labels are read as one-hot rows

REGISTRY = {
    # Transport-based confusion matrix (Erbani et al. 2024)
    "transport_confusion_matrix": metric(**MATRIX, variants=(
        {"weighting": "true"}, {"weighting": "pred", "normalize": "true"},
        {"normalize": "all"}, {"empty": "skip"})),
    "subpixel_confusion_matrix": metric(**MATRIX, variants=(
        {"weighting": "true", "empty": "skip"},)),
    "transport_plan": Entry(returns="matrix", target_params=("y_true_row", "y_pred_row"),
                            minimal=lambda: {"y_true_row": [0, 1, 1], "y_pred_row": [1, 0, 1]}),
    "transport_multilabel_confusion_matrix": metric(returns="matrix", class_axes=(0,), variants=(
        {"weighting": "pred"}, {"include_none": True})),
    "transport_precision_recall_fscore_support": metric(**PER_CLASS, variants=(
        {"average": "macro"}, {"average": "weighted", "beta": 2.0}, {"average": "micro"},
        {"weighting": "true", "zero_division": 1.0})),
    "transport_accuracy_score": score(True, True, variants=(
        {"normalize": False}, {"weighting": "true"})),
    "transport_classification_report": metric(fixed={"random_state": 0},
                                              variants=({"output_dict": True},)),
    # Multi-label confusion matrices (Heydarian et al. 2022, Krstinic et al.)
    "mlcm": metric(MULTILABEL, **MATRIX, variants=(
        {"method": "krstinic"}, {"normalize": "pred"})),
    # One category per instance: the invariances compare the count of each category.
    "mlcm_categories": Entry(targets=MULTILABEL,
                             compare=lambda result: np.bincount(result, minlength=4)),
    "multilabel_confusion_tensor": metric(MULTILABEL, returns="matrix", class_axes=(1, 2),
                                          variants=({"unique": False}, {"normalize": True})),
    "mlcm_multilabel_confusion_matrix": metric(MULTILABEL, returns="matrix", class_axes=(0,),
                                               variants=({"method": "krstinic"},)),
    "mlcm_precision_recall_fscore_support": metric(MULTILABEL, **PER_CLASS, variants=(
        {"average": "macro"}, {"average": "weighted", "method": "krstinic"})),
    "mlcm_classification_report": metric(MULTILABEL, fixed={"random_state": 0},
                                         variants=({"output_dict": True},)),
    "precision_recall_fscore_support_from_confusion": Entry(
        targets=("matrix",), target_params=("matrix",), labels=True,
        minimal=lambda: {"matrix": IBD}),
    # Classification measures (Gosgens et al. 2021)
    "generalized_means_score": score(True, True, fixed={"average": "macro"}, variants=(
        {"r": 0.0}, {"r": -1.0, "average": "weighted"}, {"average": "micro"},
        {"r": 0.0, "average": "symmetric_weighted"})),
    "symmetric_balanced_accuracy_score": score(True, True, variants=({"weighting": "true"},)),
    "correlation_distance": score(False, True, variants=(
        {"weighting": "true"}, {"form": "chord", "average": "macro"})),
    "confusion_entropy": score(False, True, variants=({"weighting": "pred"},)),
    "generalized_means_from_confusion": from_confusion(
        True, fixed={"average": "macro"}, variants=({"average": "symmetric_weighted"},)),
    "symmetric_balanced_accuracy_from_confusion": from_confusion(True),
    "correlation_distance_from_confusion": from_confusion(False, variants=(
        {"form": "chord"}, {"average": "micro"})),
    "confusion_entropy_from_confusion": from_confusion(False),
    "accuracy_from_confusion": from_confusion(True),
    "balanced_accuracy_from_confusion": Entry(
        targets=("matrix",), target_params=("matrix",), returns="score",
        greater_is_better=True, symmetric=False),
    "cohen_kappa_from_confusion": from_confusion(True),
    "fbeta_from_confusion": from_confusion(True, fixed={"average": "macro"},
                                           variants=({"beta": 2.0, "average": "weighted"},)),
    "jaccard_from_confusion": from_confusion(True, fixed={"average": "macro"}),
    "matthews_corrcoef_from_confusion": from_confusion(True),
    "averaged_binary_measure": Entry(
        targets=("matrix",), target_params=("matrix",),
        minimal=lambda: {"matrix": IBD},
        fixed={"binary_measure": lambda tp, fn, fp, tn: (tp + tn) / (tp + fn + fp + tn)}),
    "mlcm_counts_from_confusion": Entry(targets=("matrix",), target_params=("matrix",),
                                        minimal=lambda: {"matrix": IBD}),
    "confusion_frame": Entry(targets=("matrix",), target_params=("matrix",),
                             minimal=lambda: {"matrix": IBD}),
    "normalize_confusion_matrix": Entry(targets=("matrix",), target_params=("matrix",),
                                        returns="matrix", minimal=lambda: {"matrix": IBD}),
    "balanced_accuracy_score": score(True, False, variants=({"weighting": "true"},)),
    "cohen_kappa_score": score(True, True, variants=({"weighting": "pred"},)),
    "matthews_corrcoef": score(True, True, variants=({"weighting": "true"},)),
    "audit_measure": Entry(returns="result", minimal=lambda: {
        "measure": accuracy, "n_classes": 2, "max_n": 3, "n_trials": 10, "random_state": 0}),
    "AuditResult": Entry(returns="result", minimal=lambda: {
        "satisfied": {"symmetry": False}, "counterexamples": {"symmetry": {"values": [1, 2]}}}),
    "measure_inconsistency": Entry(returns="result", minimal=lambda: {
        "y_true": [0, 1, 2, 2, 1, 0], "y_preds": [[0, 1, 2, 1, 1, 0], [0, 2, 2, 2, 1, 1],
                                                  [1, 1, 2, 2, 0, 0]]}),
    "measure_inconsistency_from_confusion": Entry(returns="result", minimal=lambda: {
        "matrices": [IBD, OTHER, np.transpose(IBD)]}),
    "indistinguishable_measures": Entry(minimal=lambda: {"n": 4}),
    "discriminating_triplets": Entry(returns="result", minimal=lambda: {"n": 4}),
    "InconsistencyResult": Entry(returns="result", minimal=lambda: {
        "inconsistency": np.array([[0.0, 1.0], [1.0, 0.0]]),
        "n_inconsistent": np.array([[0, 1], [1, 0]]), "n_pairs": 1,
        "measure_names": ("a", "b"), "scores": np.array([[[0.1, 0.2], [0.2, 0.1]]])}),
    "DiscriminatingTripletsResult": Entry(returns="result", minimal=lambda: {
        "triplets": np.array([[[1, 0], [1, 0], [0, 1]]]),
        "triplet_index": np.array([[-1, 0], [0, -1]]), "measure_names": ("a", "b")}),
    # Statistics of the off-diagonal cells (Barranco-Chamorro and Carrillo-Garcia 2021)
    "mcnemar_test": Entry(targets=("matrix",), target_params=("table",), returns="result",
                          minimal=lambda: {"table": [[5, 3], [1, 4]]}),
    "stuart_maxwell_test": statistical_test(),
    "bhapkar_test": statistical_test(),
    "marginal_homogeneity_posthoc": statistical_test(),
    "dirichlet_posterior": statistical_test(returns="other"),  # a ConfusionPosterior
    "McNemarResult": Entry(returns="result",
                           minimal=lambda: {"statistic": 1.0, "pvalue": 0.5}),
    "MarginalHomogeneityResult": Entry(
        returns="result", minimal=lambda: {"statistic": 1.0, "pvalue": 0.5, "df": 2}),
    "PosthocResult": Entry(returns="result", minimal=lambda: {
        "class_names": ["a", "b"], "statistic": np.array([1.0, 2.0]),
        "n_discordant": np.array([3.0, 3.0]),
        "auxiliary_tables": np.array([[[4.0, 1.0], [2.0, 3.0]], [[3.0, 2.0], [1.0, 4.0]]]),
        "pvalue_less": np.array([0.5, 0.9]),
        "pvalue_greater": np.array([0.9, 0.5]), "pvalue_two_sided": np.array([1.0, 1.0]),
        "pvalue_less_corrected": np.array([1.0, 1.0]),
        "pvalue_greater_corrected": np.array([1.0, 1.0]),
        "pvalue_two_sided_corrected": np.array([1.0, 1.0]),
        "verdict": np.array(["no evidence", "no evidence"]), "method": "bonferroni",
        "alpha": 0.05}),
    "ConfusionPosterior": Entry(
        minimal=lambda: {"alpha": [[3, 1, 1], [1, 4, 1], [1, 1, 5]]},
        methods={"credible_interval": dict,
                 "rvs": lambda: {"size": 2, "random_state": 0},
                 "update": lambda: {"matrix": IBD},
                 "prob_confusion_exceeds": lambda: {"i": 0, "j": 2},
                 "score_distribution": lambda: {"scoring": "accuracy", "size": 5,
                                                "random_state": 0}}),
    # Uncertainty and comparison of scores
    # On sample targets of every kind; resamples depend on the order of the instances
    # (except on 1-D labels), so the invariances compare the estimates.
    "score_confidence_interval": Entry(
        targets=SAMPLE_KINDS, returns="result", sample_weight=True,
        fixed={"method": "percentile", "n_resamples": 20, "random_state": 0},
        variants=({"scoring": "tcm_recall", "average": None},
                  {"scoring": "generalized_means"}),
        compare=lambda result: result.estimate),
    "compare_scores": Entry(targets=SAMPLE_KINDS, returns="result", sample_weight=True,
                            target_params=("y_true", "y_pred_a", "y_pred_b"),
                            fixed={"n_resamples": 20, "random_state": 0},
                            variants=({"method": "permutation"}, {"method": "bayesian"},
                                      {"margin": 0.02, "hypothesis": "superiority"},
                                      {"method": "bayesian", "margin": 0.02}),
                            compare=lambda result: result.estimate),
    "mcnemar_table": Entry(targets=("labels",), returns="matrix", sample_weight=True,
                           target_params=("y_true", "y_pred_a", "y_pred_b")),
    "ConfidenceIntervalResult": Entry(returns="result", minimal=lambda: {
        "estimate": 0.5, "low": 0.4, "high": 0.6, "standard_error": 0.05,
        "distribution": None, "method": "analytic", "confidence_level": 0.95}),
    "ComparisonResult": Entry(returns="result", minimal=lambda: {
        "estimate": 0.1, "low": 0.0, "high": 0.2, "pvalue": 0.04, "method": "bootstrap",
        "confidence_level": 0.95, "alternative": "two-sided", "distribution": None}),
    # Several models on one test set: Cochran's Q takes (n_models, n_samples) predictions
    # (no kind of the generated targets; its invariances are in test_several_models.py);
    # the test against the no-information rate is invariant to the classes
    "cochran_q_test": Entry(returns="result", sample_weight=True, minimal=lambda: {
        "y_true": [0, 1, 2, 2, 1, 0, 2, 1],
        "y_preds": [[0, 2, 2, 1, 1, 0, 2, 0], [0, 1, 2, 2, 1, 1, 2, 1],
                    [1, 1, 2, 0, 1, 0, 0, 1]]}),
    "CochranQResult": Entry(returns="result", minimal=lambda: {
        "statistic": 2.0, "pvalue": 0.37, "df": 2, "models": ("a", "b", "c"),
        "accuracy": np.array([0.6, 0.7, 0.5]), "n_samples": 10.0}),
    "accuracy_vs_no_information_rate": Entry(
        targets=("labels",), returns="result", sample_weight=True, class_axes=()),
    "NoInformationRateResult": Entry(returns="result", minimal=lambda: {
        "accuracy": 0.8, "pvalue": 0.01, "low": 0.7, "high": 0.9,
        "no_information_rate": 0.6}),
    # One model's score by subgroup: subgroups= is required and follows the instances
    # (no kind of the generated targets; its invariances are in test_subgroups.py)
    "score_by_subgroup": Entry(returns="result", sample_weight=True, minimal=lambda: {
        "y_true": [0, 1, 2, 2, 1, 0, 2, 1, 0, 1, 2, 0],
        "y_pred": [0, 2, 2, 1, 1, 0, 2, 0, 0, 1, 2, 1],
        "subgroups": ["a", "b", "c"] * 4, "n_resamples": 20, "random_state": 0}),
    "SubgroupResult": Entry(returns="result", minimal=lambda: {
        "subgroups": ("a", "b"), "size": np.array([5.0, 5.0]),
        **{name: np.array([0.8, 0.6]) for name in ("estimate", "low", "high")},
        **{name: np.array([0.2, -0.2]) for name in (
            "difference", "difference_low", "difference_high", "detectable_difference")},
        "pvalue": np.array([0.4, 0.4]), "pvalue_corrected": np.array([0.8, 0.8]),
        "confusion_matrices": np.array([[[2.0, 1.0], [0.0, 2.0]], [[1.0, 1.0], [1.0, 2.0]]]),
        "display_labels": np.array([0, 1]), "overall": 0.7}),
    # Comparisons across cross-validation folds
    # method="bayesian": the one test that takes every declared rope
    "compare_cv": Entry(returns="result",
                        minimal=lambda: {**two_models_on_iris(), "method": "bayesian"}),
    "compare_cv_scores": Entry(returns="result", minimal=lambda: {
        "scores_a": [0.9, 0.8, 0.85, 0.95], "scores_b": [0.8, 0.82, 0.8, 0.9],
        "n_train": 9, "n_test": 1, "method": "bayesian"}),
    "CrossValidatedTestResult": Entry(returns="result", minimal=lambda: {
        "statistic": 2.0, "pvalue": 0.1, "df": 3.0, "method": "corrected_ttest",
        "score": "accuracy", "models": ("a", "b"), "alternative": "two-sided",
        "estimate": 0.05, "scores_a": np.array([0.9, 0.8, 0.85, 0.95]),
        "scores_b": np.array([0.8, 0.82, 0.8, 0.9]), "n_train": np.full(4, 9.0),
        "n_test": np.ones(4)},
        methods={"confidence_interval": dict}),
    "BayesianCorrelatedTTestResult": Entry(returns="result", minimal=lambda: {
        "p_a_better": 0.9, "p_rope": 0.07, "p_b_better": 0.03, "rope": 0.01, "mean": 0.05,
        "scale": 0.02, "df": 3.0, "rho": 0.1, "score": "accuracy", "models": ("a", "b"),
        "scores_a": np.array([0.9, 0.8, 0.85, 0.95]),
        "scores_b": np.array([0.8, 0.82, 0.8, 0.9])}),
    # One model across cross-validation folds: its matrices, its score's interval, its report
    "cross_validated_confusion_matrices": Entry(sample_weight=True, labels=True,
                                                returns="result", minimal=one_model_cv_on_iris),
    "CrossValidatedConfusionResult": Entry(returns="result", minimal=lambda: {
        "matrices": np.array([[[3.0, 1.0], [0.0, 4.0]], [[2.0, 2.0], [1.0, 3.0]]]),
        "counts": np.array([[[3.0, 1.0], [0.0, 4.0]], [[2.0, 2.0], [1.0, 3.0]]]),
        "pooled": np.array([[5.0, 3.0], [1.0, 7.0]]), "mean": np.array([[2.5, 1.5],
                                                                         [0.5, 3.5]]),
        "std": np.full((2, 2), 0.7071), "display_labels": ["a", "b"], "normalize": None,
        "n_samples": 16}),
    "cross_validated_score_interval": Entry(returns="result", minimal=lambda: {
        "scores": [0.9, 0.8, 0.85, 0.95], "n_train": 9, "n_test": 1}),
    "CrossValidatedIntervalResult": Entry(returns="result", minimal=lambda: {
        "estimate": 0.875, "low": 0.8, "high": 0.95, "df": 3.0, "standard_error": 0.02,
        "confidence_level": 0.95, "method": "corrected_ttest", "score": "accuracy",
        "scores": np.array([0.9, 0.8, 0.85, 0.95]), "n_train": np.full(4, 9.0),
        "n_test": np.ones(4)}, methods={"confidence_interval": dict}),
    "cross_validation_report": Entry(sample_weight=True, labels=True,
                                     minimal=one_model_cv_on_iris),
    # How many instances: power and detectable differences (no targets: a design; the
    # references are in tests/_statistics/test_power.py)
    "mcnemar_power": Entry(minimal=lambda: {"n_samples": 200, "difference": 0.05,
                                            "discordance": 0.5}),
    "minimum_detectable_difference": Entry(minimal=lambda: {"n_samples": 200,
                                                            "discordance": 0.5}),
    "required_sample_size": Entry(minimal=lambda: {"difference": 0.3, "discordance": 0.5}),
    "bootstrap_power": Entry(returns="result", minimal=lambda: {
        "n_samples": 50, "difference": 0.1, "discordance": 0.5, "n_simulations": 20,
        "n_resamples": 10, "random_state": 0}),
    "corrected_ttest_power": Entry(returns="result", minimal=lambda: {
        "difference": 0.01, "std": 0.02, "n_folds": 5, "n_simulations": 20,
        "random_state": 0}),
    "PowerResult": Entry(returns="result", minimal=lambda: {
        "power": 0.8, "standard_error": 0.013, "low": 0.77, "high": 0.82,
        "n_simulations": 1000, "method": "bootstrap", "alpha": 0.05,
        "alternative": "two-sided"}),
    # Several models over several data sets (Demsar 2006; Benavoli et al. 2017)
    "friedman_test": Entry(returns="result", minimal=lambda: {"scores": ACROSS_DATASETS}),
    # method="holm": the one method that takes every declared control (None, a position)
    "friedman_posthoc": Entry(returns="result", minimal=lambda: {
        "scores": ACROSS_DATASETS, "method": "holm"},
                              variants=({"method": "nemenyi"},
                                        {"method": "bonferroni-dunn", "control": 0})),
    "bayesian_signed_rank_test": Entry(returns="result", minimal=lambda: {
        "scores_a": [0.9, 0.8, 0.85, 0.95, 0.7], "scores_b": [0.8, 0.82, 0.8, 0.9, 0.7],
        "n_draws": 200, "random_state": 0}),
    # fold scores of two models on 3 data sets (Corani et al. 2017); few draws: a quick call
    "bayesian_hierarchical_test": Entry(returns="result", minimal=lambda: {
        "scores_a": FOLDS_A, "scores_b": FOLDS_A - FOLDS_SHIFT, "n_train": 4, "n_test": 1,
        "n_draws": 100, "burn_in": 50, "random_state": 0}),
    "FriedmanTestResult": Entry(returns="result", minimal=lambda: {
        "statistic": 3.0, "pvalue": 0.05, "df": (2.0, 22.0), "chi2_statistic": 5.0,
        "chi2_pvalue": 0.08, "average_ranks": np.array([1.5, 2.0, 2.5]),
        "models": ("a", "b", "c"), "n_datasets": 12}),
    "FriedmanPosthocResult": Entry(returns="result", minimal=lambda: {
        "pvalue": np.array([[1.0, 0.2], [0.2, 1.0]]),
        "statistic": np.array([[0.0, 1.2], [-1.2, 0.0]]),
        "significant": np.zeros((2, 2), dtype=bool), "average_ranks": np.array([1.3, 1.7]),
        "critical_difference": 0.5, "standard_error": 0.3, "method": "nemenyi",
        "alpha": 0.05, "models": ("a", "b")}),
    "BayesianSignedRankResult": Entry(returns="result", minimal=lambda: {
        "p_a_better": 0.7, "p_rope": 0.2, "p_b_better": 0.1, "rope": 0.01,
        "samples": np.full((4, 3), 1 / 3), "prior_strength": 0.5, "models": ("a", "b"),
        "n_datasets": 5}),
    "BayesianHierarchicalResult": Entry(returns="result", minimal=lambda: {
        "p_a_better": 0.7, "p_rope": 0.2, "p_b_better": 0.1, "rope": 0.01,
        "samples": np.full((4, 3), 1 / 3), "next_dataset": np.full(3, 1 / 3),
        "mean_difference": np.full(3, 1 / 3), "draws": {"mu0": np.zeros(4)},
        "observed": np.zeros(2), "shrunken": np.zeros(2), "shrunken_std": np.ones(2),
        "dataset_probabilities": np.full((2, 3), 1 / 3), "rho": np.full(2, 0.2), "rhat": 1.0,
        "ess": 400.0, "n_chains": 2, "n_draws": 2, "burn_in": 0, "models": ("a", "b"),
        "n_datasets": 2, "n_folds": 5}),
    # Quantification (Sebastiani 2020)
    "absolute_error": quantification_error(True),
    "normalized_absolute_error": quantification_error(False),
    "relative_absolute_error": quantification_error(False),
    "normalized_relative_absolute_error": quantification_error(False),
    "squared_error": quantification_error(True),
    "normalized_squared_error": quantification_error(False),
    "discordance_ratio": quantification_error(True),
    "kl_divergence": quantification_error(False),
    "normalized_kl_divergence": quantification_error(False),
    "pearson_divergence": quantification_error(False),
    "max_normalized_kl_divergence": dataclasses.replace(quantification_error(False),
                                                        fixed={"eps": 1e-3}),
    "normalized_pearson_divergence": dataclasses.replace(quantification_error(False),
                                                         fixed={"eps": 1e-3}),
    "project_prevalence": Entry(target_params=("p",),
                                minimal=lambda: {"p": [0.2, 0.5, 0.3], "labels": [0, 2]}),
    "max_quantification_error": Entry(
        targets=("prevalence",), target_params=("p_true",),
        minimal=lambda: {"p_true": [0.2, 0.5, 0.3]},
        fixed={"error": sce.kl_divergence, "eps": 1e-3}),
    "prevalence": metric(("labels", "multilabel"), target_params=("y",), class_axes=(0,)),
    "prevalence_protocol_samples": Entry(
        minimal=lambda: {"y": [0, 1, 0, 1, 1, 2], "n_samples": 3, "sample_size": 4,
                         "random_state": 0},
        compare=list),
    "make_quantification_scorer": scorer_factory(lambda: {"error": sce.absolute_error}),
    "evaluate_quantifier": Entry(returns="result", minimal=lambda: {
        "quantifier": lambda X: np.array([0.5, 0.5]), "X": np.arange(8.0)[:, None],
        "y": [0, 1] * 4, "n_samples": 3, "sample_size": 4, "random_state": 0},
        compare=lambda result: result.errors["absolute_error"]),
    "QuantifierEvaluation": Entry(returns="result", minimal=lambda: {
        "errors": {"absolute_error": np.array([0.1, 0.2])},
        "true_prevalence": np.array([[0.5, 0.5], [0.25, 0.75]]),
        "predicted_prevalence": np.array([[0.4, 0.6], [0.45, 0.55]]),
        "class_names": np.array([0, 1]), "protocol": "natural", "sample_size": 4,
        "eps": 0.125}),
    "audit_quantification_measure": Entry(returns="result", minimal=lambda: {
        "measure": sce.absolute_error, "n_classes": (2, 3), "n_trials": 5, "random_state": 0}),
    # Reading confusion matrices (Erbani et al. 2024, Sections VI-VII)
    "prevalence_ranking": Entry(targets=SAMPLE_KINDS, target_params=("y_test", "y_train"),
                                labels=True),
    "f1_ranking_disorder": Entry(
        targets=("matrix",), target_params=("matrix_a", "matrix_b"), returns="score",
        minimal=lambda: {"matrix_a": IBD, "matrix_b": OTHER}),
    "prevalence_ranking_breaks": Entry(targets=("matrix",), target_params=("matrix",),
                                       minimal=lambda: {"matrix": IBD,
                                                        "row_order": [2, 0, 1]}),
    "most_confused_pairs": Entry(targets=("matrix",), target_params=("matrix",),
                                 returns="result", minimal=lambda: {"matrix": IBD}),
    "ConfusedPairsResult": Entry(returns="result", minimal=lambda: {
        "true": np.array(["a"]), "predicted": np.array(["b"]), "count": np.array([2.0]),
        "fraction_of_true": np.array([0.5]), "fraction_of_predicted": np.array([1.0]),
        "normalize": None, "n_confused": 1, "total_confused": 2.0}),
    # Top-k: labels beside scores (a column per class, or 1-D of the second of two); the
    # references (scikit-learn's, ties, weights, a loop over instances, the intervals) are
    # in tests/_scores/test_top_k.py
    "top_k_accuracy_score": Entry(
        target_params=("y_true", "y_score"), sample_weight=True, labels=True,
        returns="score", greater_is_better=True, class_axes=(),
        variants=({"k": 1}, {"k": 3, "normalize": False}), minimal=lambda: {
            "y_true": [0, 1, 2, 2], "y_score": [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2],
                                                [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]}),
    "top_k_confusion_matrix": Entry(
        target_params=("y_true", "y_score"), sample_weight=True, labels=True,
        returns="result", variants=({"k": 1}, {"k": 2}), minimal=lambda: {
            "y_true": [0, 1, 2, 2], "k": 2, "y_score": [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2],
                                                        [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]}),
    "TopKConfusionResult": Entry(
        returns="result", methods={"most_confused_pairs": dict}, minimal=lambda: {
            "matrix": np.array([[2.0, 0.0], [1.0, 1.0]]), "classes": np.array([0, 1]), "k": 1,
            "support": np.array([2.0, 2.0]), "hit_rate": np.array([1.0, 0.5]),
            "top_k_accuracy": 0.75}),
    # Calibration: labels beside probabilities (1-D of the positive class, or predict_proba);
    # the invariances run over the kinds "probabilities" and "binary_probabilities" (an
    # entry of (y_true, y_prob) takes them unless it declares its targets); the references
    # are in tests/_calibration/test_calibration.py. target="classwise": any number of classes
    "reliability_curve": Entry(target_params=("y_true", "y_prob"), sample_weight=True,
                               labels=True, returns="result", fixed={"target": "classwise"},
                               variants=({"target": "top_label", "strategy": "quantile"},
                                         {"n_bins": 3, "confidence_level": 0.9}),
                               repeated=lambda curve, keywords: None if keywords.get(
                                   "strategy") == "quantile" else (
                                   curve.prob_true, curve.prob_pred, curve.bin_count,
                                   curve.bin_index, curve.class_label, curve.bin_edges),
                               minimal=lambda: {
                                   "y_true": [0, 1, 1, 0, 1, 0],
                                   "y_prob": [0.1, 0.8, 0.6, 0.4, 0.9, 0.3]}),
    "ReliabilityCurveResult": Entry(returns="result", minimal=lambda: {
        "prob_true": np.array([0.0, 1.0]), "prob_pred": np.array([0.2, 0.8]),
        "bin_count": np.array([3.0, 3.0]), "n_effective": np.array([3.0, 3.0]),
        "low": np.array([0.0, 0.4]), "high": np.array([0.6, 1.0]),
        "bin_index": np.array([0, 1]), "class_label": np.array([1, 1]),
        "bin_edges": np.array([0.0, 0.5, 1.0]), "target": "binary", "strategy": "uniform",
        "confidence_level": 0.95}),
    "expected_calibration_error": Entry(
        target_params=("y_true", "y_prob"), sample_weight=True, labels=True, returns="score",
        greater_is_better=False, symmetric=False, class_axes=(), variants=(
            {"target": "classwise", "norm": "l2", "debiased": True},
            {"strategy": "quantile", "norm": "max", "n_bins": 4}),
        repeated=lambda error, keywords: None if keywords.get("strategy") == "quantile"
        or keywords.get("debiased") else error, minimal=lambda: {
            "norm": "l2",  # debiased=True is of the L2 error only
            "y_true": [0, 1, 2, 2, 1, 0],
            "y_prob": [[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4],
                       [0.5, 0.4, 0.1], [0.4, 0.4, 0.2]]}),
    "brier_score_decomposition": Entry(
        target_params=("y_true", "y_prob"), sample_weight=True, labels=True, returns="result",
        class_axes=(), variants=({"n_bins": 3},),  # parts summed over the classes: of any
        compare=lambda parts: dataclasses.replace(parts, classes=[]),  # class order
        minimal=lambda: {"y_true": [0, 1, 2, 2, 1, 0],
                         "y_prob": [[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6],
                                    [0.3, 0.3, 0.4], [0.5, 0.4, 0.1], [0.4, 0.4, 0.2]]}),
    "BrierDecompositionResult": Entry(returns="result", minimal=lambda: {
        "brier": 0.2, "reliability": 0.05, "resolution": 0.1, "uncertainty": 0.25,
        "within_bin_variance": 0.01, "within_bin_covariance": 0.01, "n_bins": 10,
        "classes": np.array([1])}),
    # calibration in the large: the prevalences (the intervals resample the instances in
    # their order; their references are in tests/_calibration/test_in_the_large.py); eps
    # "auto" is 1 / (2 n_samples), of the rows: repeated rows give the prevalences only
    "calibration_in_the_large": Entry(
        target_params=("y_true", "y_prob"), sample_weight=True, labels=True,
        returns="result", fixed={"confidence_level": None, "random_state": 0,
                                 "n_resamples": 20},
        variants=({"measure": "kl_divergence"}, {"measure": "squared_error", "eps": None}),
        repeated=lambda result, keywords: (result.true_prevalence,
                                           result.predicted_prevalence),
        minimal=lambda: {"y_true": [0, 1, 2, 2, 1, 0],
                         "y_prob": [[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6],
                                    [0.3, 0.3, 0.4], [0.5, 0.4, 0.1], [0.4, 0.4, 0.2]]}),
    "CalibrationInTheLargeResult": Entry(returns="result", minimal=lambda: {
        "class_names": np.array([0, 1]), "true_prevalence": np.array([0.5, 0.5]),
        "predicted_prevalence": np.array([0.4, 0.6]), "difference": np.array([-0.1, 0.1]),
        "difference_low": np.array([-0.2, 0.0]), "difference_high": np.array([0.0, 0.2]),
        "measure": "absolute_error", "error": 0.1, "low": 0.02, "high": 0.2}),
    # the test of calibration, resampled (it draws one outcome per instance in their order:
    # its statistic is compared, not its p-value); Spiegelhalter's is infinite, exactly,
    # where a probability of 0 or 1 is contradicted and no other has variance, and its
    # invariances are in tests/_calibration/test_calibration_test.py; a weight is one
    # weighted observation, not repeated rows (documented)
    "calibration_test": Entry(
        target_params=("y_true", "y_prob"), sample_weight=True, labels=True,
        returns="result", fixed={"method": "resampled", "n_resamples": 19,
                                 "random_state": 0},
        variants=({"target": "top_label", "strategy": "quantile", "n_bins": 4},),
        compare=lambda result: (result.method, result.statistic, result.pvalue
                                if result.method == "spiegelhalter" else None),
        repeated=lambda result, keywords: None,
        minimal=lambda: {"y_true": [0, 1, 1, 0, 1, 0],
                         "y_prob": [0.1, 0.8, 0.6, 0.4, 0.9, 0.3]}),
    "CalibrationTestResult": Entry(returns="result", minimal=lambda: {
        "statistic": 1.2, "pvalue": 0.23, "method": "spiegelhalter", "target": "binary"}),
    # Decisions: labels beside scores (1-D of one class, or one column per class), through
    # the invariances and the hostile inputs of the kinds they declare; the references
    # are in tests/_decisions/test_thresholds.py and test_abstention.py
    "threshold_confusion_matrices": Entry(
        targets=PROBABILITY_KINDS, target_params=("y_true", "y_score"), sample_weight=True,
        labels=True, returns="result", variants=({"thresholds": [-1.0, 0.25, 0.5, 2.0]},),
        minimal=lambda: {
            "y_true": [0, 1, 1, 0, 1, 0], "y_score": [0.1, 0.8, 0.4, 0.4, 0.9, 0.3]}),
    "ThresholdConfusionResult": Entry(returns="result", minimal=lambda: {
        "thresholds": np.array([0.8, 0.4]), "matrices": np.array([[[3, 0], [2, 1]],
                                                                 [[2, 1], [1, 2]]]),
        "pos_label": 1}),
    "risk_coverage_curve": Entry(
        targets=("probabilities", "binary_probabilities"), target_params=("y_true", "y_prob"),
        sample_weight=True, labels=True, returns="result",
        variants=({"confidence_level": 0.9},), repeated=lambda curve, keywords: (
            curve.thresholds, curve.coverage, curve.risk, curve.area), minimal=lambda: {
            "y_true": [0, 1, 2, 2, 1, 0],
            "y_prob": [[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4],
                       [0.5, 0.4, 0.1], [0.4, 0.4, 0.2]]}),
    "RiskCoverageResult": Entry(returns="result", minimal=lambda: {
        "thresholds": np.array([0.9, 0.6]), "coverage": np.array([0.5, 1.0]),
        "risk": np.array([0.0, 0.25]), "area": 0.0625, "n_answered": np.array([2, 4]),
        "low": np.array([0.0, 0.05]), "high": np.array([0.66, 0.7]),
        "confidence_level": 0.95}),
    # Scorers
    "get_scorer": scorer_factory(lambda: {"scoring": "tcm_f1_macro"}),
    "get_scorer_names": Entry(minimal=dict),
    "make_transport_scorer": scorer_factory(),
    "make_mlcm_scorer": scorer_factory(),
    # The cost of decisions (default 0-1 costs: any number of classes; the cost matrices'
    # own cases are in tests/_decisions/test_cost.py)
    "expected_cost": score(False, True, targets=("labels", "probabilities"),
                           variants=({"normalize": False},)),
    "cost_optimal_predictions": Entry(minimal=lambda: {
        "y_prob": [[0.7, 0.3], [0.2, 0.8], [0.95, 0.05]], "cost_matrix": [[0, 1], [5, 0]]}),
    "make_cost_scorer": scorer_factory(lambda: {"cost_matrix": [[0, 1, 1], [5, 0, 1],
                                                                 [10, 2, 0]]}),
    # Package settings (tests/conftest.py restores them after every test)
    "get_config": Entry(minimal=dict),
    "set_config": Entry(minimal=dict, compare=lambda result: sce.get_config()),
    "config_context": Entry(minimal=dict, compare=settings_inside),
    # Scaling out
    "ConfusionAccumulator": Entry(
        minimal=dict, compare=accumulated,
        methods={"update": lambda: {"y_true": [[1, 0]], "y_pred": [[0, 1]]},
                 "merge": lambda: {"other": sce.ConfusionAccumulator()},
                 "result": dict}),
    # Displays
    "TransportConfusionMatrixDisplay": dataclasses.replace(
        confusion_display(binary=True), methods={
            **confusion_display(binary=True).methods, "from_cv_results": one_model_cv_on_iris}),
    "MLCMDisplay": confusion_display(),
    "PosteriorIntervalDisplay": Entry(
        minimal=lambda: {"mean": [[0.8, 0.2], [0.3, 0.7]], "low": [[0.6, 0.1], [0.1, 0.5]],
                         "high": [[0.9, 0.4], [0.5, 0.9]]},
        methods={"plot": dict, "from_confusion": lambda: {"matrix": IBD}}),
    "PosteriorSimplexDisplay": Entry(
        minimal=lambda: {"alpha": [[38, 2, 16]]},
        methods={"plot": dict, "from_confusion": lambda: {"matrix": IBD},
                 "from_predictions": lambda: {"y_true": SAMPLES["labels"][0],
                                              "y_pred": SAMPLES["labels"][1]}}),
    "RankingComparisonDisplay": Entry(
        minimal=lambda: {"f1_a": [0.9, 0.5, 0.7], "f1_b": [0.8, 0.6, 0.4]},
        methods={"plot": dict,
                 "from_confusion": lambda: {"matrices": [IBD, OTHER, IBD]},
                 # the former constructors (tests/registry/test_deprecations.py calls them)
                 "from_matrices": lambda: {"matrix_a": IBD, "matrix_b": OTHER},
                 "from_matrices_pairwise": lambda: {"matrices": [IBD, OTHER, IBD]}}),
    "ClassDistributionDisplay": Entry(
        minimal=lambda: {"test_prevalence": [0.5, 0.3, 0.2],
                         "training_prevalence": [0.6, 0.3, 0.1]},
        methods={"plot": dict,
                 "from_labels": lambda: {"y_test": SAMPLES["labels"][0],
                                         "y_train": SAMPLES["labels"][1]}}),
    "PosteriorDifferenceDisplay": Entry(
        minimal=lambda: {"mean": 0.02, "scale": 0.01, "df": 9, "rope": 0.01},
        methods={"plot": dict,
                 "from_scores": lambda: {"scores_a": [0.9, 0.8, 0.85, 0.95],
                                         "scores_b": [0.8, 0.82, 0.8, 0.9], "n_train": 3,
                                         "n_test": 1},
                 "from_estimator": two_models_on_iris,
                 "from_estimators": two_models_on_iris}),  # the former name
    "ComparisonSimplexDisplay": Entry(
        minimal=lambda: {"samples": [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]],
                         "rope": 0.01, "models": ("a", "b")},
        methods={"plot": dict,
                 "from_result": lambda: {"result": sce.bayesian_signed_rank_test(
                     ACROSS_DATASETS[:, 0], ACROSS_DATASETS[:, 1], rope=0.01, n_draws=200,
                     random_state=0)},
                 "from_scores": lambda: {"scores_a": ACROSS_DATASETS[:, 0],
                                         "scores_b": ACROSS_DATASETS[:, 1], "rope": 0.01,
                                         "n_draws": 200, "random_state": 0}}),
    "CriticalDifferenceDisplay": Entry(
        minimal=lambda: {"average_ranks": [1.5, 2.0, 2.5], "models": ["a", "b", "c"],
                         "critical_difference": 0.9, "groups": [("a", "b", "c")]},
        methods={"plot": dict, "from_scores": lambda: {"scores": ACROSS_DATASETS,
                                                       "method": "holm"}}),
    "ScoreIntervalDisplay": Entry(
        minimal=lambda: {"estimates": [0.8, 0.5, 0.6], "low": [0.7, 0.3, 0.5],
                         "high": [0.9, 0.7, 0.7]},
        methods={"plot": dict,
                 "from_predictions": lambda: {"y_true": SAMPLES["labels"][0],
                                              "y_pred": SAMPLES["labels"][1],
                                              "n_resamples": 20, "random_state": 0}}),
    "SubgroupIntervalDisplay": Entry(
        minimal=lambda: {"estimates": [0.8, 0.5, 0.6], "low": [0.7, 0.3, 0.5],
                         "high": [0.9, 0.7, 0.7], "overall": 0.65},
        methods={"plot": dict,
                 "from_predictions": lambda: {"y_true": SAMPLES["labels"][0],
                                              "y_pred": SAMPLES["labels"][1],
                                              "subgroups": [0, 1] * 4,
                                              "n_resamples": 20, "random_state": 0},
                 "from_estimator": lambda: {"estimator": fitted()[0], "X": fitted()[1],
                                            "y": fitted()[2], "subgroups": [0, 1, 2] * 10,
                                            "n_resamples": 20, "random_state": 0}}),
    # Displays of probabilities and decisions (issue 37)
    "ReliabilityDisplay": Entry(
        minimal=lambda: {"prob_true": [0.1, 0.6, 0.9], "prob_pred": [0.2, 0.5, 0.8],
                         "low": [0.0, 0.3, 0.6], "high": [0.4, 0.8, 1.0],
                         "bin_count": [4, 3, 5]},
        methods={"plot": dict,
                 "from_result": lambda: {"result": sce.reliability_curve(
                     [0, 0, 1, 1, 1, 0], [0.1, 0.3, 0.6, 0.8, 0.9, 0.4], n_bins=3)},
                 "from_predictions": lambda: {"y_true": [0, 1, 2, 2, 1, 0],
                                              "y_prob": PROBABILITIES, "target": "top_label",
                                              "n_bins": 3},
                 "from_estimator": lambda: {**dict(zip(("estimator", "X", "y"), fitted())),
                                            "target": "top_label", "n_bins": 3}}),
    "RiskCoverageDisplay": Entry(
        minimal=lambda: {"coverage": [0.5, 1.0], "risk": [0.0, 0.25], "low": [0.0, 0.05],
                         "high": [0.6, 0.7], "area": 0.0625},
        methods={"plot": dict,
                 "from_result": lambda: {"result": sce.risk_coverage_curve(
                     [0, 1, 2, 2, 1, 0], PROBABILITIES)},
                 "from_predictions": lambda: {"y_true": [0, 1, 2, 2, 1, 0],
                                              "y_prob": PROBABILITIES},
                 "from_estimator": lambda: dict(zip(("estimator", "X", "y"), fitted()))}),
    "ThresholdCurveDisplay": Entry(
        minimal=lambda: {"thresholds": [0.8, 0.4], "matrices": [[[3, 0], [2, 1]],
                                                                [[2, 1], [1, 2]]]},
        methods={"plot": dict,
                 "from_result": lambda: {"result": sce.threshold_confusion_matrices(
                     [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.4, 0.4, 0.9, 0.3])},
                 "from_predictions": lambda: {"y_true": [0, 1, 1, 0, 1, 0],
                                              "y_score": [0.1, 0.8, 0.4, 0.4, 0.9, 0.3],
                                              "threshold": 0.5},
                 "from_estimator": lambda: dict(zip(("estimator", "X", "y"),
                                                    fitted_binary()))}),
}

DISPLAYS = ("TransportConfusionMatrixDisplay", "MLCMDisplay", "PosteriorIntervalDisplay",
            "PosteriorDifferenceDisplay",
            "CriticalDifferenceDisplay",
            "ComparisonSimplexDisplay",
            "PosteriorSimplexDisplay",
            "RankingComparisonDisplay", "ScoreIntervalDisplay", "SubgroupIntervalDisplay",
            "ClassDistributionDisplay", "ReliabilityDisplay", "RiskCoverageDisplay",
            "ThresholdCurveDisplay")


# --- Calling the registry -------------------------------------------------------------------


def target_inputs(params, targets):
    """Keywords of ``params`` (a registry entry's target_params) from ``(y_true, y_pred)``
    targets; a third target, the second classifier of a paired comparison, is ``y_true``
    (a perfect prediction)."""
    targets = list(targets)
    return dict(zip(params, targets + [targets[0]] * (len(params) - len(targets))))


def minimal_keywords(name):
    entry = REGISTRY[name]
    if entry.minimal is not None:
        return {**entry.minimal(), **entry.fixed}
    kind = "multilabel" if "multilabel" in entry.targets else entry.targets[0]
    if kind == "matrix":
        return {entry.target_params[0]: IBD, **entry.fixed}
    return {**target_inputs(entry.target_params, SAMPLES[kind]), **entry.fixed}


def public_callable(key):
    """The public callable of a DECLARATIONS key: a function, a class (its constructor) or a
    method, with whether it is an instance method."""
    owner, _, method = key.partition(".")
    obj = getattr(sce, owner)
    if not method:
        return obj, False
    function = getattr(obj, method)
    return function, not inspect.ismethod(function)


def call(key, **overrides):
    """Call the public callable of ``key`` with its minimal keywords, then ``overrides``."""
    owner, _, method = key.partition(".")
    if owner in DISPLAYS and plt is None:
        pytest.skip("matplotlib is not installed")
    if not method:
        return getattr(sce, owner)(**{**minimal_keywords(owner), **overrides})
    function, bound_to_instance = public_callable(key)
    if bound_to_instance:
        function = getattr(getattr(sce, owner)(**minimal_keywords(owner)), method)
    return function(**{**REGISTRY[owner].methods[method](), **overrides})


def compared(key, result):
    """What of ``result`` is compared: the entry's ``compare`` of a function or constructor."""
    return REGISTRY[key].compare(result) if "." not in key else result


def public_keys():
    return [key for key in DECLARATIONS if key not in CLI_ONLY]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    if plt is not None:
        plt.close("all")


# --- Comparing results -----------------------------------------------------------------------


def assert_same(actual, expected, *, rtol=1e-12, atol=1e-12, where="result"):
    """Equal results: numbers and arrays within rtol, NaN equal to NaN; tuples, dicts,
    strings, dataclasses (field by field), generators (listed), sparse matrices (dense) and
    other objects (their public attributes)."""
    if isinstance(expected, types.GeneratorType):
        actual, expected = list(actual), list(expected)
    if sp.issparse(expected) or sp.issparse(actual):
        actual = actual.toarray() if sp.issparse(actual) else actual
        expected = expected.toarray() if sp.issparse(expected) else expected
    if expected is None or isinstance(expected, (str, bytes)):
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
    elif dataclasses.is_dataclass(expected):
        assert type(actual) is type(expected), f"{where}: {type(actual)} != {type(expected)}"
        for field in dataclasses.fields(expected):
            assert_same(getattr(actual, field.name), getattr(expected, field.name), rtol=rtol,
                        atol=atol, where=f"{where}.{field.name}")
    elif isinstance(expected, Mapping):
        assert isinstance(actual, Mapping), f"{where}: {type(actual)} is not a mapping"
        assert list(actual) == list(expected), f"{where}: keys {list(actual)} != {list(expected)}"
        for key in expected:
            assert_same(actual[key], expected[key], rtol=rtol, atol=atol, where=f"{where}[{key!r}]")
        if hasattr(expected, "__dict__"):
            assert_same(public_attributes(actual), public_attributes(expected), rtol=rtol,
                        atol=atol, where=where)
    elif isinstance(expected, (tuple, list)) and not _is_numeric_list(expected):
        assert isinstance(actual, (tuple, list)), f"{where}: {type(actual)} is not a sequence"
        assert len(actual) == len(expected), f"{where}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, rtol=rtol, atol=atol, where=f"{where}[{i}]")
    elif isinstance(expected, (numbers.Number, np.generic, np.ndarray, list, tuple)):
        a, e = np.asarray(actual), np.asarray(expected)
        assert a.shape == e.shape, f"{where}: shape {a.shape} != {e.shape}"
        if e.dtype.kind in "iufc" and a.dtype.kind in "iufc":
            np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(a, e, err_msg=where)
    elif hasattr(expected, "__dict__") and not callable(expected):
        assert type(actual) is type(expected), f"{where}: {type(actual)} != {type(expected)}"
        assert_same(public_attributes(actual), public_attributes(expected), rtol=rtol, atol=atol,
                    where=where)
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def _is_numeric_list(value):
    return all(isinstance(v, (numbers.Number, np.generic)) for v in value) and len(value) > 0


def public_attributes(obj):
    """Attributes that are data (not fitted artists, not private)."""
    return {name: value for name, value in vars(obj).items()
            if not name.startswith("_") and not name.endswith("_")}


def numeric_leaves(result):
    """Every number of a result (arrays, tuples, dicts, dataclasses), as float arrays."""
    if isinstance(result, (str, bytes)) or result is None:
        return []
    if dataclasses.is_dataclass(result):
        return [leaf for field in dataclasses.fields(result)
                for leaf in numeric_leaves(getattr(result, field.name))]
    if isinstance(result, Mapping):
        return [leaf for value in result.values() for leaf in numeric_leaves(value)]
    if isinstance(result, (tuple, list)):
        return [leaf for value in result for leaf in numeric_leaves(value)]
    if hasattr(result, "__dict__"):
        return numeric_leaves(public_attributes(result))
    array = np.asarray(result)
    return [array.astype(float)] if array.dtype.kind in "biuf" else []


# --- Random valid inputs ---------------------------------------------------------------------

N_CLASSES = 4


def random_targets(kind, rng, n_samples=40, n_classes=N_CLASSES):
    """y_true, y_pred of one kind; 1-D labels use every class in y_true."""
    if kind == "labels":
        y_true = rng.integers(0, n_classes, n_samples)
        y_true[:n_classes] = np.arange(n_classes)
        return y_true, rng.integers(0, n_classes, n_samples)
    if kind == "multilabel":
        return tuple((rng.random((n_samples, n_classes)) < 0.4).astype(int) for _ in range(2))
    if kind in ("probabilities", "scores"):  # labels against predict_proba, decision_function
        y_true = rng.integers(0, n_classes, n_samples)
        y_true[:n_classes] = np.arange(n_classes)
        if kind == "scores":  # unbounded, negative too
            return y_true, rng.normal(0.0, 3.0, (n_samples, n_classes))
        return y_true, rng.dirichlet(np.ones(n_classes), n_samples)
    if kind == "binary_probabilities":  # labels {0, 1} against the probability of 1
        y_true = rng.integers(0, 2, n_samples)
        y_true[:2] = [0, 1]
        return y_true, rng.random(n_samples)
    return tuple(_soft(rng, n_samples, n_classes) for _ in range(2))


def _soft(rng, n_samples, n_classes):
    """Soft labels with zeros, every row of positive mass (no row is empty)."""
    y = rng.random((n_samples, n_classes)) * (rng.random((n_samples, n_classes)) < 0.7)
    y[np.arange(n_samples), rng.integers(0, n_classes, n_samples)] += 0.1
    return y


def random_inputs(name, kind, rng):
    """Random valid values of the entry's target parameters."""
    entry = REGISTRY[name]
    if kind in TARGET_KINDS:
        values = random_targets(kind, rng)
    elif kind == "prevalence":
        values = tuple(rng.dirichlet(np.ones(N_CLASSES)) for _ in range(2))
    else:  # count matrices shaped like the minimal call's (McNemar's table is 2 x 2)
        shape = np.shape(minimal_keywords(name)[entry.target_params[0]])
        values = tuple(rng.integers(0, 20, shape) + np.eye(shape[0], dtype=int)
                       for _ in range(2))
    return target_inputs(entry.target_params, values)


def call_on(name, inputs, **keywords):
    """Call a registered function on target inputs, with its fixed keywords; what of the
    result is compared (the entry's ``compare``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compared(name, getattr(sce, name)(**inputs,
                                                 **{**REGISTRY[name].fixed, **keywords}))


def cases(predicate=lambda name, entry: True, kinds=TARGET_KINDS):
    """(name, kind) of every registered function satisfying ``predicate``, for each of the
    kinds of inputs it takes among ``kinds``."""
    return [pytest.param(name, kind, id=f"{name}-{kind}")
            for name, entry in REGISTRY.items() if predicate(name, entry)
            for kind in entry.targets if kind in kinds]


def variant_cases(predicate=lambda name, entry: True, kinds=TARGET_KINDS):
    """(name, kind, keywords) of :func:`cases`, with no keywords and with each variant."""
    return [pytest.param(*case.values, keywords, id=f"{case.id}-{_show(keywords)}")
            for case in cases(predicate, kinds)
            for keywords in ({}, *REGISTRY[case.values[0]].variants)]


def _show(keywords):
    return ",".join(f"{k}={v}" for k, v in keywords.items()) or "defaults"


# --- 1. The registry is the public API --------------------------------------------------------


def test_registry_covers_public_api():
    assert sorted(set(sce.__all__) - set(REGISTRY)) == [], "register these public names"
    assert sorted(set(REGISTRY) - set(sce.__all__)) == [], "these registered names are not public"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_registry_tags_match_signatures(name):
    entry, obj = REGISTRY[name], getattr(sce, name)
    parameters = inspect.signature(obj).parameters
    assert ("sample_weight" in parameters) == entry.sample_weight
    assert not entry.labels or "labels" in parameters
    assert set(entry.fixed) <= set(parameters)
    if entry.targets != ("other",):
        assert set(entry.target_params) <= set(parameters)
    assert entry.returns in ("matrix", "score", "result", "other")
    assert entry.greater_is_better is None or entry.returns == "score"
    for method in entry.methods:
        assert callable(getattr(obj, method, None)), f"{name} has no method {method}"


def _arrays(result):
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.parametrize("name", [name for name, entry in REGISTRY.items()
                                  if entry.returns != "other"])
def test_returns_what_the_registry_says(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = call(name)
    returns = REGISTRY[name].returns
    if returns == "score":
        assert isinstance(result, float), f"{type(result).__name__}, not a float"
    elif returns == "matrix":
        assert all(isinstance(part, np.ndarray) and part.ndim >= 2 for part in _arrays(result))
    else:
        assert dataclasses.is_dataclass(result) or isinstance(result, Mapping)


@pytest.mark.parametrize("name", ["mcnemar_test", "stuart_maxwell_test", "bhapkar_test"])
def test_test_results_unpack_like_scipy(name):
    result = call(name)
    assert {"statistic", "pvalue"} <= {field.name for field in dataclasses.fields(result)}
    unpacked = tuple(result)
    fields = [getattr(result, field.name) for field in dataclasses.fields(result)]
    assert len(unpacked) >= 2 and list(unpacked) == fields[:len(unpacked)]
    statistic, pvalue, *rest = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)


# --- 2. The declarations are the signatures ---------------------------------------------------


def test_every_declaration_names_a_public_callable():
    for key in public_keys():
        owner, _, method = key.partition(".")
        assert owner in sce.__all__, f"DECLARATIONS[{key!r}] names no public name"
        assert not method or callable(getattr(getattr(sce, owner), method, None)), key


def _public_methods(cls):
    """Methods defined in this package with parameters besides self/cls."""
    for name, member in inspect.getmembers(cls, callable):
        if name.startswith("_") or not getattr(member, "__module__", "").startswith(
                "sklearn_confusion_ext"):
            continue
        if name in getattr(cls, "_renamed_constructors", {}):  # a former name, undeclared
            continue
        parameters = [p for p in inspect.signature(member).parameters if p not in ("self",)]
        if parameters:
            yield name


# Declared elsewhere: result(normalize) takes what its kind's one-shot function takes (a bool
# for "mlct"), so it is checked against that function's declaration (tested below).
KIND_DEPENDENT = ("ConfusionAccumulator.result",)


@pytest.mark.parametrize("key", sorted(set(sce.__all__) | {
    f"{name}.{method}" for name in sce.__all__ if inspect.isclass(getattr(sce, name))
    for method in _public_methods(getattr(sce, name))} - set(KIND_DEPENDENT)))
def test_every_public_callable_is_declared(key):
    assert key in DECLARATIONS


ACCUMULATOR_KINDS = options_of(DECLARATIONS["ConfusionAccumulator"], "kind")


@pytest.mark.parametrize("kind", ACCUMULATOR_KINDS)
def test_accumulator_result_checks_normalize_against_its_kind(kind):
    accumulator = sce.ConfusionAccumulator(kind)
    for value in ("bogus", 1.5):
        with pytest.raises((TypeError, ValueError)) as caught:
            accumulator.result(normalize=value)
        assert "'normalize'" in str(caught.value) and ".result" in str(caught.value)


@pytest.mark.parametrize("kind", ACCUMULATOR_KINDS)
def test_accumulator_result_message_names_each_option_once(kind):
    with pytest.raises((TypeError, ValueError)) as caught:
        sce.ConfusionAccumulator(kind).result(normalize="bogus")
    assert "None, None" not in str(caught.value), str(caught.value)


def _signature_parameters(key):
    function, _ = public_callable(key)
    if inspect.isclass(function):
        function = function.__init__
    signature = inspect.signature(function)
    return function, {name: p for name, p in signature.parameters.items()
                      if name not in ("self", "cls") and p.kind is not p.VAR_KEYWORD}


def test_plain_binding_agrees_with_signature_bind():
    # validate_params binds plain calls itself (Signature.bind took a tenth of a fold-size
    # score); any call it does not bind goes to Signature.bind, which binds it or names the
    # fault.
    def function(a, b=2, *, c=3):
        pass

    signature = inspect.signature(function)
    binder = _plain_binder(signature)
    calls = [((1,), {}), ((1, 5), {"c": 4}), ((), {"a": 1, "c": 4}), ((1,), {"b": 2}),
             ((1, 2, 3), {}), ((1,), {"a": 1}), ((1,), {"d": 1}), ((), {"b": 1})]
    for args, kwargs in calls:
        try:
            expected = dict(signature.bind(*args, **kwargs).arguments)
        except TypeError:
            expected = None
        assert binder(args, kwargs) == expected, (args, kwargs)


@pytest.mark.parametrize("key", public_keys())
def test_calls_that_do_not_bind_name_the_callable(key):
    function, _ = public_callable(key)
    function = function.__init__ if inspect.isclass(function) else function
    with pytest.raises(TypeError, match="bogus_keyword") as caught:
        call(key, bogus_keyword=1)
    takes_keywords = any(p.kind is p.VAR_KEYWORD  # passed on, with an error of their own
                         for p in inspect.signature(function).parameters.values())
    assert takes_keywords or key.split(".")[-1].replace("__init__", "") in str(caught.value)


@pytest.mark.parametrize("key", public_keys())
def test_declaration_is_the_signature(key):
    function, parameters = _signature_parameters(key)
    declaration = DECLARATIONS[key]
    problems = []
    if sorted(parameters) != sorted(declaration):
        problems.append(f"the signature has {sorted(parameters)}, DECLARATIONS[{key!r}] declares "
                        f"{sorted(declaration)}")
    for name, parameter in parameters.items():
        if name in declaration and parameter.default is not parameter.empty and not any(
                c.is_satisfied_by(parameter.default) for c in constraints_of(declaration[name])):
            problems.append(f"the default {name}={parameter.default!r} violates its constraints")
    declared = getattr(function, "parameter_constraints", None)
    if declared is None:
        problems.append("not decorated with validate_params")
    elif sorted(declared) != sorted(declaration):
        problems.append(f"decorated with the declaration of {sorted(declared)}")
    assert not problems, f"{key}: " + "; ".join(problems)


# --- 3. Invalid values are refused, naming the parameter --------------------------------------


def _is_data(constraints):
    """A required array of data (y_true, X, a confusion matrix): fuzzed elsewhere."""
    return all(isinstance(c, ArrayLike) for c in constraints)


def invalid_cases():
    for key in public_keys():
        for name, declared in DECLARATIONS[key].items():
            constraints = constraints_of(declared)
            if _is_data(constraints):
                continue
            seen = set()
            for constraint in constraints:
                for value in constraint.invalid_values():
                    tag = (type(value), repr(value))
                    if tag in seen or any(c.is_satisfied_by(value) for c in constraints):
                        continue
                    seen.add(tag)
                    error = ValueError if any(c.accepts_type(value) for c in constraints) \
                        else TypeError
                    yield pytest.param(key, name, value, error, id=f"{key}-{name}={value!r}")


@pytest.mark.parametrize("key, name, value, error", list(invalid_cases()))
def test_invalid_value_is_refused(key, name, value, error):
    with pytest.raises((TypeError, ValueError)) as caught:
        call(key, **{name: value})
    message = str(caught.value)
    assert f"'{name}'" in message and key in message, message
    assert caught.type is error, f"{caught.type.__name__}, not {error.__name__}: {message}"


# --- 4. NumPy scalars work wherever Python numbers (and booleans) do -------------------------


def numpy_scalar_cases():
    for key in public_keys():
        for name, declared in DECLARATIONS[key].items():
            constraints = constraints_of(declared)
            for constraint in constraints:
                if not isinstance(constraint, (Interval, Options, NaN, Boolean, RandomState)):
                    continue
                for value in constraint.valid_values():
                    if isinstance(value, np.generic):
                        yield pytest.param(key, name, value,
                                           id=f"{key}-{name}={type(value).__name__}({value})")


@pytest.mark.parametrize("key, name, value", list(numpy_scalar_cases()))
def test_numpy_scalar_equals_python_scalar(key, name, value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = compared(key, call(key, **{name: value.item()}))
        actual = compared(key, call(key, **{name: value}))
    assert_same(actual, expected)


# --- 5. Invariances of the functions of targets -----------------------------------------------

SPARSE = [f"{fmt}_{container}" for fmt in ("csr", "csc", "coo", "lil", "dok", "bsr", "dia")
          for container in ("array", "matrix")]


def reference(name, kind, seed=0):
    rng = np.random.default_rng(seed)
    inputs = random_inputs(name, kind, rng)
    weights = rng.integers(1, 5, len(next(iter(inputs.values()))))
    return inputs, weights


@pytest.mark.parametrize("name, kind, keywords", variant_cases())
def test_sample_order_does_not_matter(name, kind, keywords):
    inputs, weights = reference(name, kind)
    order = np.random.default_rng(1).permutation(len(weights))
    weighted = {"sample_weight": weights} if REGISTRY[name].sample_weight else {}
    shuffled = {"sample_weight": weights[order]} if weighted else {}
    assert_same(call_on(name, {k: v[order] for k, v in inputs.items()}, **shuffled, **keywords),
                call_on(name, inputs, **weighted, **keywords))


def _container(values, container):
    if container == "list":
        return values.tolist()
    if container == "pandas":  # a shuffled, non-default index; columns named by their class,
        pd = pytest.importorskip("pandas")  # in a shuffled order (read by name)
        index = 10 + 3 * np.random.default_rng(2).permutation(len(values))
        if values.ndim == 1:
            return pd.Series(values, index=index)
        columns = np.roll(np.arange(values.shape[1]), 1)
        return pd.DataFrame(values[:, columns], index=index, columns=columns)
    if container in ("bool", "float32"):
        return values.astype(container)
    if container == "read-only":
        values = values.copy()
        values.flags.writeable = False
        return values
    if container == "non-contiguous":  # a column slice of a wider array, every other row
        wide = np.repeat(np.stack([values, values], axis=-1), 2, axis=0)
        return wide[::2, ..., 0] if values.ndim == 1 else wide[::2, :, 0]
    return getattr(sp, container)(values)


# Beside 1-D labels, the other containers are of the probabilities (or scores) only.
_OF_SCORES_ONLY = ("float32", "read-only", "non-contiguous", *SPARSE)


def _containers(kind):
    if kind == "labels":
        return ("list", "pandas")
    if kind in PROBABILITY_KINDS:
        return ("list", "pandas", "float32", "read-only", "non-contiguous",
                *(SPARSE if kind != "binary_probabilities" else ()))
    return ("list", "pandas", *SPARSE, *(("bool", "float32") if kind == "multilabel" else ()))


@pytest.mark.parametrize("name, kind, container", [
    pytest.param(*case.values, container, id=f"{case.id}-{container}") for case in cases()
    for container in _containers(case.values[1])])
def test_input_containers_give_the_same_result(name, kind, container):
    inputs, weights = reference(name, kind)
    weighted = {"sample_weight": weights} if REGISTRY[name].sample_weight else {}
    contained = {"sample_weight": _container(weights, container)} if (
        weighted and container in ("list", "pandas", "float32")) else weighted
    scores_only = kind in PROBABILITY_KINDS and container in _OF_SCORES_ONLY
    given = {k: v if scores_only and k == "y_true" else _container(v, container)
             for k, v in inputs.items()}
    expected = call_on(name, inputs, **weighted)
    if container in SPARSE and kind in PROBABILITY_KINDS:
        # sparse probabilities: the dense result, or refused naming them (never another number)
        try:
            actual = call_on(name, given, **contained)
        except (TypeError, ValueError) as error:
            assert REGISTRY[name].target_params[-1] in str(error), error
            return
        assert_same(actual, expected)
        return
    # float32 masses are computed in float32 blocks (summed in float64): float32 precision
    # (probabilities rounded to float32 move sums of their differences by 1e-8 or so).
    float32 = container == "float32"
    assert_same(call_on(name, given, **contained), expected, rtol=1e-6 if float32 else 1e-12,
                atol=1e-6 if float32 and kind in PROBABILITY_KINDS else 1e-12)


@pytest.mark.parametrize("name, kind, keywords",
                         variant_cases(lambda name, entry: entry.sample_weight))
def test_unit_weights_equal_no_weights(name, kind, keywords):
    inputs, weights = reference(name, kind)
    assert_same(call_on(name, inputs, sample_weight=np.ones(len(weights)), **keywords),
                call_on(name, inputs, **keywords))


@pytest.mark.parametrize("name, kind, keywords",
                         variant_cases(lambda name, entry: entry.sample_weight))
def test_integer_weights_equal_repeated_rows(name, kind, keywords):
    inputs, weights = reference(name, kind)
    repeated = {k: np.repeat(v, weights, axis=0) for k, v in inputs.items()}
    part = REGISTRY[name].repeated or (lambda result, keywords: result)
    expected = part(call_on(name, repeated, **keywords), keywords)
    if expected is None:
        pytest.skip("integer weights are not repeated instances here (documented)")
    assert_same(part(call_on(name, inputs, sample_weight=weights, **keywords), keywords),
                expected, rtol=1e-10)


ANIMALS = np.array(["ant", "bee", "cat", "dog"])  # sorted like 0, 1, 2, 3


@pytest.mark.parametrize("name, kind, keywords", variant_cases(kinds=("labels",)))
def test_string_and_integer_labels_agree(name, kind, keywords):
    inputs, weights = reference(name, kind)
    named = {k: ANIMALS[v] for k, v in inputs.items()}
    if "target_names" in inspect.signature(getattr(sce, name)).parameters:
        keywords = {**keywords, "target_names": ["c0", "c1", "c2", "c3"]}
    assert_same(call_on(name, named, **keywords), call_on(name, inputs, **keywords))
    if REGISTRY[name].labels:
        assert_same(call_on(name, named, labels=ANIMALS[[2, 0, 3, 1]], **keywords),
                    call_on(name, inputs, labels=[2, 0, 3, 1], **keywords))


def _column_order(kind):
    """A permutation of the classes of ``kind``'s targets (of two, for a 1-D probability)."""
    return np.array([1, 0]) if kind == "binary_probabilities" else np.array([2, 0, 3, 1])


def _permuted_scores(y_score, order):
    """Scores whose column k is the former column ``order[k]``; a 1-D probability of the
    second class, of the other class where ``order`` swaps the two."""
    if np.ndim(y_score) == 1:
        return 1.0 - y_score if list(order) == [1, 0] else y_score
    return y_score[:, order]


def assert_same_naming(actual, expected, names, where="result"):
    """``actual`` (of string class labels ``names[k]``) is ``expected`` (of integer labels
    ``k``): numbers equal, each class label named."""
    if dataclasses.is_dataclass(expected):
        for field in dataclasses.fields(expected):
            assert_same_naming(getattr(actual, field.name), getattr(expected, field.name),
                               names, f"{where}.{field.name}")
        return
    values = np.asarray(actual, dtype=object) if isinstance(actual, (str, np.ndarray)) \
        else None
    if values is None or not any(isinstance(v, str) for v in values.ravel().tolist()):
        assert_same(actual, expected, where=where)
        return
    named = [names[v] if isinstance(v, numbers.Integral) and not isinstance(v, bool) else v
             for v in np.asarray(expected, dtype=object).ravel().tolist()]
    assert values.ravel().tolist() == named, f"{where}: {actual!r} != {expected!r} named"


@pytest.mark.parametrize("name, kind, keywords", variant_cases(kinds=PROBABILITY_KINDS))
def test_string_labels_beside_probabilities_agree(name, kind, keywords):
    """String labels beside probabilities or scores give the numbers of integer labels
    sorted alike, the result naming the classes; ``labels=`` in another order than sorted is
    refused alike, never read as naming the columns. (Strings beside a 1-D probability name
    the positive class: scikit-learn's default is of {0, 1} and {-1, 1}.)"""
    inputs, weights = reference(name, kind)
    first, last = REGISTRY[name].target_params
    named = {**inputs, first: ANIMALS[inputs[first]]}
    parameters = inspect.signature(getattr(sce, name)).parameters
    extra, named_extra = {}, {}
    if kind == "binary_probabilities" and "pos_label" in parameters:
        extra, named_extra = {"pos_label": 1}, {"pos_label": ANIMALS[1]}
    elif kind == "binary_probabilities" and REGISTRY[name].labels:
        extra, named_extra = {"labels": [0, 1]}, {"labels": ANIMALS[:2]}
    assert_same_naming(call_on(name, named, **named_extra, **keywords),
                       call_on(name, inputs, **extra, **keywords), ANIMALS)
    if REGISTRY[name].labels and kind == "binary_probabilities":  # labels[-1]: positive
        order = _column_order(kind)
        permuted = _permuted_scores(inputs[last], order)
        assert_same_naming(
            call_on(name, {**named, last: permuted}, **{**named_extra, "labels": ANIMALS[order]},
                    **keywords),
            call_on(name, {**inputs, last: permuted}, **{**extra, "labels": order}, **keywords),
            ANIMALS)
    elif REGISTRY[name].labels:
        order = _column_order(kind)
        for given, labels in ((named, ANIMALS[order]), (inputs, order)):
            with pytest.raises(ValueError, match="sorted order"):
                call_on(name, given, **{**named_extra, **extra, "labels": labels}, **keywords)


def taken(result, classes, axes, n_classes=N_CLASSES):
    """``result`` with the classes at positions ``classes`` along ``axes``, in that order
    (positions past ``n_classes``, the "none" class, stay last)."""
    if isinstance(result, tuple):
        return tuple(taken(part, classes, axes, n_classes) for part in result)
    if result is None or not axes or np.ndim(result) == 0:
        return result
    array = np.asarray(result)
    for axis in axes:
        array = array.take(np.concatenate([classes, np.arange(n_classes, array.shape[axis])]),
                           axis=axis)
    return array


@pytest.mark.parametrize("name, kind, keywords",
                         variant_cases(lambda name, entry: entry.class_axes is not None))
def test_permuting_classes_permutes_the_result(name, kind, keywords):
    inputs, weights = reference(name, kind)
    axes = REGISTRY[name].class_axes
    expected = call_on(name, inputs, **keywords)
    order = np.array([2, 0, 3, 1])
    given = inputs
    if kind == "labels":  # rename class c as order^-1[c]: new class k is old class order[k]
        renamed = {k: np.argsort(order)[v] for k, v in inputs.items()}
    elif kind in PROBABILITY_KINDS:  # labels renamed so, and column k the old column order[k]
        order = _column_order(kind)
        first, last = REGISTRY[name].target_params
        given = {first: inputs[first], last: _permuted_scores(inputs[last], order)}
        renamed = {**given, first: np.argsort(order)[inputs[first]]}
    else:  # new column k is old column order[k]
        renamed = {k: v[:, order] for k, v in inputs.items()}
    assert_same(call_on(name, renamed, **keywords), taken(expected, order, axes))
    # Beside scores the columns are the classes in sorted order: labels= in another order
    # never renames them (these functions read every column: refused)
    if REGISTRY[name].labels and kind in PROBABILITY_KINDS and kind != "binary_probabilities":
        with pytest.raises(ValueError, match="sorted order"):
            call_on(name, given, labels=order, **keywords)


@pytest.mark.parametrize("name, kind, keywords", [
    case for case in variant_cases(
        lambda name, entry: entry.labels and entry.class_axes not in (None, ()))
    # averages and normalizations are over the selected classes
    if case.values[2].get("average") is None and not case.values[2].get("normalize")])
def test_labels_subset_selects_from_the_full_result(name, kind, keywords):
    """``labels=`` keeps classes of the full computation (the one-shot functions' contract):
    selecting classes 3 and 1 gives the full result's entries of classes 3 and 1."""
    inputs, weights = reference(name, kind)
    expected = taken(call_on(name, inputs, **keywords), [3, 1], REGISTRY[name].class_axes)
    assert_same(call_on(name, inputs, labels=[3, 1], **keywords), expected)


def _snapshot(value):
    if sp.issparse(value):
        return (type(value), value.format, value.shape,
                [np.array(a, copy=True) for a in _sparse_arrays(value)])
    return copy.deepcopy(value)


def _sparse_arrays(value):
    if value.format in ("csr", "csc", "bsr"):
        return value.data, value.indices, value.indptr
    if value.format == "coo":
        return value.data, *value.coords
    return [value.toarray()]


def _unsorted_csr(values):
    """A valid CSR array whose column indices are not sorted within rows."""
    matrix = sp.csr_array(values)
    for row in range(matrix.shape[0]):
        start, stop = matrix.indptr[row], matrix.indptr[row + 1]
        matrix.indices[start:stop] = matrix.indices[start:stop][::-1].copy()
        matrix.data[start:stop] = matrix.data[start:stop][::-1].copy()
    matrix.has_sorted_indices = False
    return matrix


@pytest.mark.parametrize("name, kind", cases())
def test_inputs_are_not_modified(name, kind):
    entry = REGISTRY[name]
    inputs, weights = reference(name, kind)
    keywords = {"sample_weight": weights.astype(float)} if entry.sample_weight else {}
    if entry.labels:  # beside scores, every column in sorted order (the others refuse)
        keywords["labels"] = ([1, 0] if kind == "binary_probabilities" else [0, 1, 2, 3]
                              if kind in PROBABILITY_KINDS else [3, 1, 0, 2])
    containers = [inputs, {k: v.tolist() for k, v in inputs.items()}]
    if kind in ("probabilities", "scores"):  # beside 1-D labels
        containers.append({k: _unsorted_csr(v) if np.ndim(v) == 2 else v
                           for k, v in inputs.items()})
    elif kind in ("multilabel", "soft"):
        containers.append({k: _unsorted_csr(v) for k, v in inputs.items()})
    for given_inputs in containers:
        before = {k: _snapshot(v) for k, v in {**given_inputs, **keywords}.items()}
        call_on(name, given_inputs, **keywords)
        for k, v in {**given_inputs, **keywords}.items():
            assert_same(_snapshot(v), before[k], rtol=0, atol=0, where=k)


@pytest.mark.parametrize("key", public_keys())
def test_arguments_of_minimal_calls_are_not_modified(key):
    owner, _, method = key.partition(".")
    keywords = REGISTRY[owner].methods[method]() if method else minimal_keywords(owner)
    before = copy.deepcopy(keywords)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = call(key, **keywords)
    if isinstance(result, types.GeneratorType):
        list(result)
    for name, value in keywords.items():
        if isinstance(value, (list, dict, tuple, np.ndarray)):
            assert_same(value, before[name], rtol=0, atol=0, where=name)


@st.composite
def targets_strategy(draw, kinds):
    """A kind among ``kinds``, valid targets of that kind, and sample weights or None."""
    kind = draw(st.sampled_from(kinds))
    # A (n, 1) array is a column of 1-D labels, as in scikit-learn: 2-D targets have 2+ columns.
    n_samples = draw(st.integers(1, 6))
    n_classes = draw(st.integers(1 if kind == "labels" else 2, 4))
    if kind in PROBABILITY_KINDS:
        return (kind, *draw(_labels_and_scores(kind, n_samples, n_classes)))
    if kind == "labels":
        values, shape = st.integers(0, n_classes - 1), (n_samples,)
    elif kind == "multilabel":
        values, shape = st.sampled_from([0, 1]), (n_samples, n_classes)
    else:
        values, shape = st.sampled_from([0.0, 0.1, 0.5, 1.0, 3.0]), (n_samples, n_classes)
    size = int(np.prod(shape))
    targets = tuple(np.array(draw(st.lists(values, min_size=size, max_size=size))).reshape(shape)
                    for _ in range(2))
    weights = draw(st.none() | st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n_samples,
                                        max_size=n_samples).map(np.array))
    return kind, targets, weights, {}


@st.composite
def _labels_and_scores(draw, kind, n_samples, n_classes):
    """Labels (some classes absent) beside probabilities of rows not summing to 1 (each of
    some mass), 1-D probabilities at 0 and 1, or scores; the weights; ``labels=`` naming
    every column."""
    if kind == "binary_probabilities":
        n_classes, values, shape = 2, [0.0, 0.1, 0.5, 0.9, 1.0], (n_samples,)
    else:
        values = [-3.0, -0.5, 0.0, 0.5, 3.0] if kind == "scores" else [0.0, 0.1, 0.5, 1.0, 3.0]
        shape = (n_samples, n_classes)
    y_true = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n_samples,
                                    max_size=n_samples)))
    y_score = np.array(draw(st.lists(st.sampled_from(values), min_size=int(np.prod(shape)),
                                     max_size=int(np.prod(shape))))).reshape(shape)
    if kind == "probabilities":  # no row without mass
        y_score[np.arange(n_samples), np.arange(n_samples) % n_classes] += 0.05
    weights = draw(st.none() | st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n_samples,
                                        max_size=n_samples).map(np.array))
    return (y_true, y_score), weights, {"labels": np.arange(n_classes)}


@pytest.mark.parametrize("name", [name for name, entry in REGISTRY.items()
                                  if set(entry.targets) & set(TARGET_KINDS)])
def test_results_are_finite(name):
    entry = REGISTRY[name]

    @settings(max_examples=30, deadline=None, derandomize=True, database=None)
    @given(targets_strategy([k for k in entry.targets if k in TARGET_KINDS]),
           st.sampled_from(({}, *entry.variants)))
    def check(drawn, keywords):
        kind, values, weights, extra = drawn
        if entry.sample_weight and weights is not None:
            keywords = {**keywords, "sample_weight": weights}
        if entry.labels:
            keywords = {**keywords, **extra}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = compared(name, getattr(sce, name)(
                **target_inputs(entry.target_params, values), **{**entry.fixed, **keywords}))
        # Beside probabilities, an undefined result (a test statistic of 0 / 0) may be NaN
        # with an UndefinedMetricWarning (the policy); never a silent NaN or infinity
        undefined = kind in PROBABILITY_KINDS and any(
            issubclass(w.category, UndefinedMetricWarning) for w in caught)
        for leaf in numeric_leaves(result):
            assert np.isfinite(leaf).all() or undefined and not np.isinf(leaf).any(), \
                f"{kind} targets {values}, {keywords}: {result}"
        if isinstance(result, str):
            assert "nan" not in result.lower().split() and "inf" not in result.lower().split()

    check()


@pytest.mark.parametrize("name, kind", cases(kinds=("prevalence", "matrix")))
def test_results_on_matrices_and_prevalences_are_finite(name, kind):
    for seed in range(10):
        inputs = random_inputs(name, kind, np.random.default_rng(seed))
        for leaf in numeric_leaves(call_on(name, inputs)):
            assert np.isfinite(leaf).all(), f"{inputs}"


@pytest.mark.parametrize("chunk_size", [1, 7, None])
@pytest.mark.parametrize("n_jobs", [1, 2, -1])
@pytest.mark.parametrize("name, kind", cases(lambda name, entry: "n_jobs" in DECLARATIONS[name]))
def test_n_jobs_and_chunk_size_do_not_change_the_result(name, kind, n_jobs, chunk_size):
    rng = np.random.default_rng(3)
    inputs = target_inputs(REGISTRY[name].target_params,
                           random_targets(kind, rng, n_samples=300))
    weights = rng.random(300)
    chunks = {"chunk_size": chunk_size} if "chunk_size" in DECLARATIONS[name] else {}
    assert_same(call_on(name, inputs, sample_weight=weights, n_jobs=n_jobs, **chunks),
                call_on(name, inputs, sample_weight=weights, n_jobs=1))


def _swap(name, inputs):
    first, *rest = REGISTRY[name].target_params
    if not rest:  # one confusion matrix: swapping the labelings transposes it
        return {first: np.asarray(inputs[first]).T}
    return {first: inputs[rest[0]], rest[0]: inputs[first]}


@pytest.mark.parametrize("name, kind", cases(lambda name, entry: entry.symmetric is not None,
                                             kinds=(*SAMPLE_KINDS, "prevalence", "matrix")))
def test_symmetry(name, kind):
    inputs = random_inputs(name, kind, np.random.default_rng(4))
    swapped, straight = call_on(name, _swap(name, inputs)), call_on(name, inputs)
    if REGISTRY[name].symmetric:
        assert_same(swapped, straight)
    else:
        assert not np.isclose(swapped, straight, rtol=1e-8, atol=0), "symmetric after all?"


def _perfect(name, kind, inputs):
    first, *rest = REGISTRY[name].target_params
    if not rest:
        return {first: np.diag(np.asarray(inputs[first]).sum(axis=1))}
    return {first: inputs[first], rest[0]: inputs[first]}


@pytest.mark.parametrize("name, kind", cases(
    lambda name, entry: entry.greater_is_better is not None,
    kinds=(*SAMPLE_KINDS, "prevalence", "matrix")))
def test_perfect_predictions_score_best(name, kind):
    inputs = random_inputs(name, kind, np.random.default_rng(5))
    perfect, imperfect = call_on(name, _perfect(name, kind, inputs)), call_on(name, inputs)
    if REGISTRY[name].greater_is_better:
        assert perfect > imperfect
    else:
        assert perfect < imperfect


@pytest.mark.parametrize("name, kind", cases())
def test_results_beyond_the_memory_budget_are_refused_before_allocating(name, kind):
    # 700 classes make a 3.7 MiB matrix: above a 1 MiB budget. A function either refuses
    # before allocating, naming the setting, or never needs the matrix (prevalences).
    n_classes = 700
    n_samples = n_classes if kind in ("labels", "probabilities", "scores") else 50
    targets = random_targets(kind, np.random.default_rng(6), n_samples, n_classes)
    inputs = target_inputs(REGISTRY[name].target_params, targets)
    input_bytes = sum(np.asarray(y, dtype=float).nbytes for y in targets)
    tracemalloc.start()
    try:
        with sce.config_context(max_matrix_mib=1):
            call_on(name, inputs)
    except ValueError as error:
        assert "max_matrix_mib=1 MiB" in str(error)
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 2 ** 20 + 10 * input_bytes, f"peak {peak / 2 ** 20:.1f} MiB"
