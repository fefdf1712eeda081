"""The report of every method that applies to a pair of targets: JSON-ready data (laid out
as text by :mod:`.text` and as a page by :mod:`.html`) and the figures."""

import warnings
from pathlib import Path

import numpy as np

from .._core.target_kinds import LABELS_VS_SCORES, MULTILABEL, SINGLE_LABEL, is_binary
from .._core.targets import check_targets
from .files import InputError
from .text import describe_prior, format_counts, verdict

# The intervals of --confidence: the report functions' defaults, and a fixed seed, so that
# two runs of one command print the same bounds (--seed N draws other resamples).
DEFAULT_INTERVAL_METHOD = "percentile"
DEFAULT_RESAMPLES = 999
DEFAULT_SEED = 0
# Perks' 1/C per cell: its intervals cover classes near 100 % right, and perfect ones; a
# prior of 1 per cell (the paper's) adds C - 1 pseudo-errors to each row (user guide,
# "Which prior": benchmarks/coverage_dirichlet_prior.py).
POSTERIOR_PRIOR = "perks"
POSTERIOR_LEVEL = 0.95


def build_report(y_true, y_pred, *, kind="auto", labels=None, confidence=None, seed=None,
                 interval_method=DEFAULT_INTERVAL_METHOD, n_resamples=DEFAULT_RESAMPLES,
                 cost_matrix=None, verbose=0):
    """A JSON-ready report of every method that applies to these targets; ``confidence``: the
    level of the intervals of the classification reports' scores (``interval_method``: how
    they are computed, ``n_resamples``: from how many resamples, ``seed``: of their
    resampling; ``verbose``: their progress on standard error).

    Probabilities beside class labels also get the sentence ``scores_meaning`` (what their
    scores are: those of answering at random from the probabilities), the classification
    report of their argmax decisions, ``argmax_classification_report``, and ``calibration``
    (the top-label reliability summary, the ECE, with its interval under ``confidence``, and
    the Brier score's parts). ``cost_matrix`` (the path of ``--cost-matrix FILE``, or a
    matrix in the order of the report's classes) adds ``cost``: the expected cost of the
    decisions (of the argmax and of the Bayes decisions, for probabilities)."""
    from .. import (
        bhapkar_test,
        confusion_entropy,
        correlation_distance,
        dirichlet_posterior,
        generalized_means_score,
        marginal_homogeneity_posthoc,
        mlcm,
        mlcm_classification_report,
        normalized_absolute_error,
        normalized_kl_divergence,
        prevalence,
        stuart_maxwell_test,
        symmetric_balanced_accuracy_score,
        transport_classification_report,
        transport_confusion_matrix,
    )
    targets = check_targets(y_true, y_pred, labels=labels)
    found = targets.kind
    if kind != "auto" and kind not in _KIND_OPTIONS.get(found, (found,)):
        raise InputError(f"--kind {kind} does not match the files, which hold {found} targets")
    names = class_names(targets)
    report = {"kind": found, "classes": names, "n_samples": int(targets.n_samples)}
    intervals = {"confidence_level": confidence, "random_state": seed, "verbose": verbose}
    if confidence is not None:
        intervals.update(interval_method=interval_method, n_resamples=n_resamples)
        report["confidence"] = {"level": confidence, "method": interval_method,
                                "n_resamples": n_resamples, "seed": seed}
    matrices = {weighting: transport_confusion_matrix(y_true, y_pred, labels=labels,
                                                      weighting=weighting)
                for weighting in ("uniform", "true", "pred")}
    uniform = matrices["uniform"]
    # Probabilities written with six decimals give the same matrix to 1e-6 of its largest
    # cell; matrices that print alike are one matrix to the reader too (issue 39).
    if all(np.abs(matrix - uniform).max(initial=0) <= 1e-6 * max(1.0, uniform.max(initial=0))
           or np.array_equal(format_counts(matrix), format_counts(uniform))
           for matrix in matrices.values()):
        matrices = {"uniform": matrices["uniform"]}
        report["transport_weightings"] = _same_weightings(targets)
    report["transport_confusion_matrix"] = {weighting: matrix.tolist()
                                            for weighting, matrix in matrices.items()}
    report["transport_classification_report"] = transport_classification_report(
        y_true, y_pred, labels=labels, output_dict=True, zero_division=0.0, **intervals)
    if is_probabilities(targets):
        decisions = argmax_decisions(targets, y_pred)
        argmax_report = transport_classification_report(
            y_true, decisions, labels=targets.classes, output_dict=True, zero_division=0.0,
            **intervals)
        mean = report["transport_classification_report"].get("accuracy")
        if mean is None:  # --labels selected some classes: the report has no accuracy
            full = transport_confusion_matrix(y_true, y_pred, labels=targets.classes)
            mean = float(np.trace(full) / full.sum())  # over every instance
        report["scores_meaning"] = PROBABILITY_SCORES.format(
            mean=mean, argmax=argmax_report["accuracy"])
        report["argmax_classification_report"] = argmax_report
        report["calibration"] = calibration_summary(y_true, y_pred, targets.classes,
                                                    confidence, intervals)
    if cost_matrix is not None:
        report["cost"] = cost_summary(targets, y_true, y_pred, names, cost_matrix, intervals)
    report["measures"] = {
        "generalized_means_r1_macro": generalized_means_score(y_true, y_pred, labels=labels,
                                                              average="macro"),
        "symmetric_balanced_accuracy": symmetric_balanced_accuracy_score(y_true, y_pred,
                                                                         labels=labels),
        "correlation_distance": correlation_distance(y_true, y_pred, labels=labels),
        "confusion_entropy": confusion_entropy(y_true, y_pred, labels=labels),
    }
    if has_mlcm(targets):
        report["mlcm"] = mlcm(y_true, y_pred, labels=labels).tolist()
        report["mlcm_classification_report"] = mlcm_classification_report(
            y_true, y_pred, labels=labels, output_dict=True, zero_division=0.0, **intervals)
    # The tests and the quantification errors compare classes: one class has nothing to compare.
    if found == SINGLE_LABEL and len(names) > 1:
        counts = transport_confusion_matrix(y_true, y_pred, labels=labels)
        _add_statistics(report, counts, names, stuart_maxwell_test, bhapkar_test,
                        marginal_homogeneity_posthoc, dirichlet_posterior)
        true_prevalence = prevalence(y_true, labels=targets.classes)
        predicted_prevalence = prevalence(y_pred, labels=targets.classes)
        eps = 1 / (2 * targets.n_samples)
        report["quantification"] = {
            "true_prevalence": true_prevalence.tolist(),
            "predicted_prevalence": predicted_prevalence.tolist(),
            "normalized_absolute_error": normalized_absolute_error(true_prevalence,
                                                                   predicted_prevalence),
            "normalized_kl_divergence": normalized_kl_divergence(
                true_prevalence, predicted_prevalence, eps=eps),
        }
    return report


# The calibration section: the top label's reliability curve in equal-width bins (few rows
# whatever the number of classes), its ECE in the same bins, the Brier score's parts.
CALIBRATION_BINS = 10


def _interval(scoring, y_true, y_pred, intervals, own_method=False, **params):
    """``{"estimate", "low", "high"}`` of ``scoring`` under the report's interval options
    (``--confidence``, ``--interval-method``, ``--resamples``, ``--seed``): the estimate
    alone without ``--confidence``. ``own_method``: the score's own interval, whatever
    ``--interval-method`` (the calibration error's norm bound), named under "method"."""
    from .. import score_confidence_interval

    if intervals["confidence_level"] is None:
        return {"estimate": float(scoring(y_true, y_pred, **params))}
    result = score_confidence_interval(
        y_true, y_pred, scoring=scoring,
        method=None if own_method else intervals["interval_method"],
        confidence_level=intervals["confidence_level"],
        n_resamples=intervals["n_resamples"], random_state=intervals["random_state"],
        verbose=intervals["verbose"], **params)
    return {"estimate": float(result.estimate), "low": float(result.low),
            "high": float(result.high), **({"method": result.method} if own_method else {})}


def calibration_summary(y_true, y_prob, classes, confidence, intervals):
    """The calibration of probabilities beside labels: the top label's reliability curve
    (per non-empty bin: its edges, the mean probability, the observed frequency of a right
    top label, Wilson's band at ``confidence``, else 95 %, and the count), the top-label
    ECE (L1) in the same bins with its own interval (the norm bound, whatever
    ``--interval-method``), the classwise ECE and the Brier score's parts."""
    from .. import brier_score_decomposition, expected_calibration_error, reliability_curve

    band = POSTERIOR_LEVEL if confidence is None else confidence
    with warnings.catch_warnings():
        # said once already, of y_pred, by the report's first function
        warnings.filterwarnings("ignore", message="y_prob's rows do not sum to 1")
        curve = reliability_curve(y_true, y_prob, n_bins=CALIBRATION_BINS, target="top_label",
                                  labels=classes, confidence_level=band)
        edges = curve.bin_edges
        # Its own interval (norm_bound): the bootstrap's intervals of the biased binned
        # error miss a calibrated model's 0 (the user guide, Calibration).
        ece = _interval(expected_calibration_error, y_true, y_prob,
                        {**intervals, "confidence_level": confidence}, own_method=True,
                        n_bins=CALIBRATION_BINS, labels=classes)
        classwise = expected_calibration_error(y_true, y_prob, n_bins=CALIBRATION_BINS,
                                               target="classwise", labels=classes)
        parts = brier_score_decomposition(y_true, y_prob, n_bins=CALIBRATION_BINS,
                                          labels=classes)
    return {
        "target": "top_label", "n_bins": CALIBRATION_BINS, "strategy": "uniform",
        "band_level": band,
        "reliability": {"bin_low": edges[curve.bin_index].tolist(),
                        "bin_high": edges[curve.bin_index + 1].tolist(),
                        "prob_pred": curve.prob_pred.tolist(),
                        "prob_true": curve.prob_true.tolist(), "low": curve.low.tolist(),
                        "high": curve.high.tolist(), "bin_count": curve.bin_count.tolist()},
        "expected_calibration_error": {"norm": "l1", **ece},
        "classwise_expected_calibration_error": classwise,
        "brier_score_decomposition": {name: getattr(parts, name) for name in (
            "brier", "reliability", "resolution", "uncertainty", "within_bin_variance",
            "within_bin_covariance")},
    }


def cost_summary(targets, y_true, y_pred, names, cost_matrix, intervals):
    """The expected cost of the decisions under ``cost_matrix`` (a ``--cost-matrix`` path,
    or a matrix in the order of ``names``): of the predictions (labels), or of the argmax
    and the Bayes decisions (probabilities); intervals under ``--confidence``. The Bayes
    decisions are made once, so that their cost is resampled as that of labels."""
    from .. import cost_optimal_predictions, expected_cost
    from .files import _in_report_order, load_cost_matrix

    if not (targets.single_label or is_probabilities(targets)):
        raise InputError("--cost-matrix needs one true class per instance (class labels in "
                         f"--true) beside labels or probabilities; these are {targets.kind} "
                         "targets")
    if isinstance(cost_matrix, (str, Path)):
        cost = load_cost_matrix(cost_matrix, names)
    else:
        cost = _in_report_order("--cost-matrix", np.asarray(cost_matrix, dtype=float), None,
                                None, names)
    classes = (targets.classes if targets.selection is None
               else targets.classes[targets.selection])
    if is_probabilities(targets):
        with warnings.catch_warnings():  # said once already, of y_pred
            warnings.filterwarnings("ignore", message="y_prob's rows do not sum to 1")
            columns, column_cost = targets.classes, cost  # the columns: sorted classes
            if targets.selection is not None and len(targets.selection) == len(columns):
                column_cost = np.empty_like(cost)  # --labels' order, back to the columns'
                column_cost[np.ix_(targets.selection, targets.selection)] = cost
            bayes = cost_optimal_predictions(y_pred, column_cost, labels=columns)
        decisions = [("argmax", argmax_decisions(targets, y_pred)), ("bayes", bayes)]
    else:
        decisions = [("predictions", np.asarray(y_pred))]
    return {"cost_matrix": cost.tolist(), "classes": list(names), "decisions": {
        name: _interval(expected_cost, y_true, predicted, intervals, cost_matrix=cost,
                        labels=classes) for name, predicted in decisions}}


PROBABILITY_SCORES = (
    "Probabilities are scored as answers drawn at random from them: each instance adds its "
    "probabilities to the row of its true class, so the transport confusion matrix holds "
    "the expected counts of those answers, and the transport report's scores and the "
    "measures are theirs. Accuracy "
    "{mean:.3f} is the mean probability of the true class; the argmax decisions (the most "
    "probable class, what predict() answers) are right on {argmax:.3f} of the instances: "
    "their classification report follows the transport one.")


def is_probabilities(targets):
    """Whether ``y_pred`` holds a classifier's probabilities (or scores) beside class labels,
    rather than 0/1 decisions: its argmax decisions then get a report of their own."""
    return targets.kind == LABELS_VS_SCORES and targets.one_hot == ("y_true",) and \
        not is_binary(targets.y_pred)


def argmax_decisions(targets, y_pred):
    """The class of each row's largest probability (the first such column on ties, as
    ``classes_[np.argmax(predict_proba(X), axis=1)]``, scikit-learn's ``predict``)."""
    return targets.classes[np.argmax(np.asarray(y_pred), axis=1)]


# --kind's options that each kind of targets matches: "soft" names 2-D soft predictions,
# against 2-D soft labels or against class labels.
_KIND_OPTIONS = {SINGLE_LABEL: ("single",), LABELS_VS_SCORES: ("soft", LABELS_VS_SCORES)}


def has_mlcm(targets):
    """Whether the MLCM applies: 0/1 indicators (or class labels) on both sides."""
    return targets.kind in (SINGLE_LABEL, MULTILABEL) or (
        targets.kind == LABELS_VS_SCORES and is_binary(targets.y_pred))


def class_names(targets):
    """The names of the reported classes (those of ``labels=``, when given)."""
    return [str(name) for name in (targets.classes if targets.selection is None
                                   else targets.classes[targets.selection])]


def _add_statistics(report, counts, names, stuart_maxwell_test, bhapkar_test, posthoc,
                    dirichlet_posterior):
    statistics = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, test in (("stuart_maxwell", stuart_maxwell_test), ("bhapkar", bhapkar_test)):
            try:
                result = test(counts)
                statistics[name] = {"statistic": result.statistic, "pvalue": result.pvalue,
                                    "df": result.df, "verdict": verdict(result.pvalue)}
            except ValueError as exc:
                statistics[name] = {"not_applicable": str(exc)}
    result = posthoc(counts, display_labels=names)
    statistics["one_versus_all"] = {
        name: {"pvalue_less": float(less), "pvalue_greater": float(greater),
               "pvalue_less_corrected": float(less_corrected),
               "pvalue_greater_corrected": float(greater_corrected), "verdict": str(verdict)}
        for name, less, greater, less_corrected, greater_corrected, verdict in zip(
            names, result.pvalue_less, result.pvalue_greater, result.pvalue_less_corrected,
            result.pvalue_greater_corrected, result.verdict)}
    posterior = dirichlet_posterior(counts, prior=POSTERIOR_PRIOR)
    lower, upper = posterior.credible_interval(POSTERIOR_LEVEL)
    statistics["posterior_mean"] = posterior.mean().tolist()
    statistics["posterior"] = {"prior": POSTERIOR_PRIOR, "level": POSTERIOR_LEVEL,
                               "mean": statistics["posterior_mean"], "lower": lower.tolist(),
                               "upper": upper.tolist()}
    report["statistics"] = statistics


def _same_weightings(targets):
    """Why the three weightings gave one matrix."""
    if targets.single_label:
        why = ": every instance has one true and one predicted label"
    elif all(np.allclose(_row_sums(y), 1.0, rtol=0, atol=1e-4)
             for y in (targets.y_true, targets.y_pred)):
        why = ": every row of both targets sums to one, so no weighting rescales a row"
    else:
        why = " on these targets"
    return f"The three weightings (uniform, true, pred) give this same matrix{why}."


def _row_sums(y):
    return np.asarray(y.sum(axis=1)).ravel()


def has_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def figures(y_true, y_pred, *, labels=None, column_names=None):
    """``(file name, title, figure)`` of each display that applies to these targets
    (``column_names``: the names of indicator files' columns, from --labels or a header)."""
    import matplotlib

    matplotlib.use("Agg")
    from .. import (
        MLCMDisplay,
        PosteriorIntervalDisplay,
        TransportConfusionMatrixDisplay,
        transport_confusion_matrix,
    )

    targets = check_targets(y_true, y_pred, labels=labels)
    title = "Transport confusion matrix (weighting: uniform)"
    display = TransportConfusionMatrixDisplay.from_predictions(
        y_true, y_pred, labels=labels, display_labels=column_names, title=title)
    yield "transport_confusion_matrix.png", title, display.figure_
    if has_mlcm(targets):
        title = "MLCM (none: no true label / no predicted label)"
        display = MLCMDisplay.from_predictions(y_true, y_pred, labels=labels,
                                               display_labels=column_names, title=title)
        yield "mlcm.png", title, display.figure_
    if targets.kind == SINGLE_LABEL:
        counts = transport_confusion_matrix(y_true, y_pred, labels=labels)
        title = ("Dirichlet posterior of P[predicted | true] "
                 f"({describe_prior(POSTERIOR_PRIOR, len(counts))})")
        figure = PosteriorIntervalDisplay.from_confusion(
            counts, prior=POSTERIOR_PRIOR, level=POSTERIOR_LEVEL, method="equal-tailed",
            display_labels=class_names(targets)[:len(counts)]).figure_
        figure.suptitle(title)  # above the panels' own titles
        yield "posterior_intervals.png", title, figure


def save_plots(y_true, y_pred, directory, labels=None, column_names=None):
    """PNG files of the displays that apply to these targets; returns their paths."""
    if not has_matplotlib():
        raise InputError("--plots needs matplotlib: pip install matplotlib")
    import matplotlib.pyplot as plt

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, _, figure in figures(y_true, y_pred, labels=labels, column_names=column_names):
        path = directory / name
        figure.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(figure)
        paths.append(path)
    return paths
