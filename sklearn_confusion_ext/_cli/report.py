"""The report of every method that applies to a pair of targets: JSON-ready data, text,
and the plots."""

from pathlib import Path

import numpy as np

from .files import InputError


def build_report(y_true, y_pred, *, kind="auto", labels=None):
    """A JSON-ready report of every method that applies to these targets."""
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
    from .._core.validation import check_targets

    targets = check_targets(y_true, y_pred, labels=labels)
    found = targets.kind
    if kind != "auto" and kind != {"single-label": "single"}.get(found, found):
        raise InputError(f"--kind {kind} does not match the files, which hold {found} targets")
    names = [str(name) for name in (targets.classes if targets.selection is None
                                    else targets.classes[targets.selection])]
    report = {"kind": found, "classes": names, "n_samples": int(targets.n_samples)}
    weightings = ("uniform",) if found == "single-label" else ("uniform", "true", "pred")
    report["transport_confusion_matrix"] = {
        weighting: transport_confusion_matrix(y_true, y_pred, labels=labels,
                                              weighting=weighting).tolist()
        for weighting in weightings}
    report["transport_classification_report"] = transport_classification_report(
        y_true, y_pred, labels=labels, output_dict=True, zero_division=0.0)
    report["measures"] = {
        "generalized_means_r1_macro": generalized_means_score(y_true, y_pred, labels=labels,
                                                              average="macro"),
        "symmetric_balanced_accuracy": symmetric_balanced_accuracy_score(y_true, y_pred,
                                                                         labels=labels),
        "correlation_distance": correlation_distance(y_true, y_pred, labels=labels),
        "confusion_entropy": confusion_entropy(y_true, y_pred, labels=labels),
    }
    if found != "soft":
        report["mlcm"] = mlcm(y_true, y_pred, labels=labels).tolist()
        report["mlcm_classification_report"] = mlcm_classification_report(
            y_true, y_pred, labels=labels, output_dict=True, zero_division=0.0)
    # The tests and the quantification errors compare classes: one class has nothing to compare.
    if found == "single-label" and len(names) > 1:
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


def _add_statistics(report, counts, names, stuart_maxwell_test, bhapkar_test, posthoc,
                    dirichlet_posterior):
    import warnings

    statistics = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, test in (("stuart_maxwell", stuart_maxwell_test), ("bhapkar", bhapkar_test)):
            try:
                result = test(counts)
                statistics[name] = {"statistic": result.statistic, "pvalue": result.pvalue,
                                    "df": result.df}
            except ValueError as exc:
                statistics[name] = {"not_applicable": str(exc)}
    result = posthoc(counts, display_labels=names)
    statistics["one_versus_all"] = {name: {"pvalue_less": float(less),
                                           "pvalue_greater": float(greater),
                                           "verdict": str(verdict)}
                                    for name, less, greater, verdict in zip(
                                        names, result.pvalue_less, result.pvalue_greater,
                                        result.verdict)}
    statistics["posterior_mean"] = dirichlet_posterior(counts).mean().tolist()
    report["statistics"] = statistics


def format_report(report):
    """The report as readable text."""
    lines = [f"{report['n_samples']} samples, {report['kind']} targets, classes "
             f"{', '.join(report['classes'])}"]
    for weighting, matrix in report["transport_confusion_matrix"].items():
        lines += ["", f"Transport confusion matrix (weighting={weighting!r}):",
                  _format_matrix(matrix)]
    lines += ["", "Transport classification report:",
              _format_scores(report["transport_classification_report"])]
    if "mlcm" in report:
        lines += ["", "MLCM (last row: no true label, last column: no predicted label):",
                  _format_matrix(report["mlcm"])]
    lines += ["", "Measures:"]
    lines += [f"  {name:28s} {value:.4f}" for name, value in report["measures"].items()]
    if "statistics" in report:
        lines += ["", "Marginal homogeneity:"]
        for name in ("stuart_maxwell", "bhapkar"):
            result = report["statistics"][name]
            lines.append(f"  {name:15s} " + (
                f"statistic {result['statistic']:.3f}, df {result['df']}, "
                f"p-value {result['pvalue']:.3g}" if "statistic" in result
                else result["not_applicable"]))
        lines.append("  one versus all (Bonferroni):")
        for name, row in report["statistics"]["one_versus_all"].items():
            lines.append(f"    {name:12s} {row['verdict']}")
    if "quantification" in report:
        quantification = report["quantification"]
        lines += ["", "Quantification (classify and count):",
                  f"  normalized absolute error     "
                  f"{quantification['normalized_absolute_error']:.4f}",
                  f"  normalized KL divergence      "
                  f"{quantification['normalized_kl_divergence']:.4f}"]
    return "\n".join(lines) + "\n"


def _format_matrix(matrix):
    with np.printoptions(precision=2, suppress=True, linewidth=120):
        return str(np.asarray(matrix))


def _format_scores(scores):
    lines = []
    for name, row in scores.items():
        if isinstance(row, dict):
            lines.append(f"  {name:>14s}  precision {row['precision']:.3f}  recall "
                         f"{row['recall']:.3f}  f1 {row['f1-score']:.3f}")
        else:
            lines.append(f"  {name:>14s}  {row:.3f}")
    return "\n".join(lines)


def save_plots(y_true, y_pred, directory, labels=None):
    """PNG files of the displays that apply to these targets; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .. import (
        MLCMDisplay,
        PosteriorIntervalDisplay,
        TransportConfusionMatrixDisplay,
        transport_confusion_matrix,
    )
    from .._core.validation import check_targets

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    kind = check_targets(y_true, y_pred, labels=labels).kind
    paths = []

    def save(display, name):
        path = directory / name
        display.figure_.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(display.figure_)
        paths.append(path)

    save(TransportConfusionMatrixDisplay.from_predictions(y_true, y_pred, labels=labels,
                                                          xticks_rotation=45),
         "transport_confusion_matrix.png")
    if kind != "soft":
        save(MLCMDisplay.from_predictions(y_true, y_pred, labels=labels, xticks_rotation=45),
             "mlcm.png")
    if kind == "single-label":
        counts = transport_confusion_matrix(y_true, y_pred, labels=labels)
        save(PosteriorIntervalDisplay.from_confusion(counts), "posterior_intervals.png")
    return paths
