"""``compare``: the paired comparison of two models' prediction files on the same true labels
(:func:`compare_scores`: McNemar's tests, the paired bootstrap, the permutation test, the
Bayesian bootstrap; ``--groups FILE`` resamples groups of instances), as JSON-ready data and
as text laid out by :mod:`.text`'s table formatter."""

import math
import textwrap

import numpy as np

from .files import InputError
from .text import format_number, format_table

# What each --method computes, for the text.
METHODS = {
    "bootstrap": "paired bootstrap (instances resampled jointly; percentile interval)",
    "permutation": "permutation test (each instance's two predictions swapped at random; "
                   "the bootstrap's interval)",
    "bayesian": "Bayesian bootstrap (posterior of the difference; equal-tailed interval)",
    "mcnemar": "exact McNemar test (accuracy; Wald interval of the paired difference)",
    "mcnemar-mid-p": "McNemar mid-p test (accuracy; Wald interval of the paired difference)",
    "mcnemar-score": "Tango's score test (accuracy; score interval)",
}
MCNEMAR = ("mcnemar", "mcnemar-mid-p", "mcnemar-score")


def build_comparison(y_true, y_pred_a, y_pred_b, *, method, scoring=None, groups=None,
                     confidence=0.95, n_resamples=9999, seed=0, margin=None,
                     hypothesis=None, alternative="two-sided", verbose=0):
    """The comparison as JSON-ready data: the score, the method, the difference ``a - b``,
    its interval and p-value (and the margin's verdict), each model's score where the
    method gives it (McNemar: the accuracies and the 2 x 2 table)."""
    from .. import compare_scores, mcnemar_table

    options = {"method": method, "scoring": scoring, "confidence_level": confidence,
               "alternative": alternative, "groups": groups, "verbose": verbose}
    if method not in MCNEMAR:
        options.update(n_resamples=n_resamples, random_state=seed)
    if margin is not None:
        options.update(margin=margin, hypothesis=hypothesis)
    result = compare_scores(y_true, y_pred_a, y_pred_b, **options)
    comparison = {
        "score": result.score, "method": method, "description": METHODS[method],
        "n_samples": int(len(y_true)), "confidence_level": result.confidence_level,
        "alternative": result.alternative, "estimate": result.estimate, "low": result.low,
        "high": result.high, "pvalue": result.pvalue}
    if method not in MCNEMAR:
        comparison.update(n_resamples=n_resamples, seed=seed)
    if groups is not None:
        comparison["n_groups"] = int(len(np.unique(groups)))
    if result.margin is not None:
        comparison.update(margin=result.margin, hypothesis=result.hypothesis,
                          verdict=result.verdict)
    if method in MCNEMAR:
        table = np.asarray(mcnemar_table(y_true, y_pred_a, y_pred_b))
        total = table.sum()
        comparison["accuracy_a"] = float(table[0].sum() / total)
        comparison["accuracy_b"] = float(table[:, 0].sum() / total)
        comparison["mcnemar_table"] = table.tolist()
    return comparison


def format_comparison(comparison, names, *, width):
    """The comparison as readable text, no line wider than ``width``; ``names``: the files
    of the true labels and of the two models' predictions."""
    def prose(text):
        return textwrap.fill(text, width=width, break_on_hyphens=False)

    true_name, a_name, b_name = names
    level = f"{comparison['confidence_level'] * 100:.4g}%"
    lines = [prose(f"Paired comparison of two models on the same {comparison['n_samples']} "
                   f"instances ({true_name}): a = {a_name}, b = {b_name}."),
             prose(f"Score: {comparison['score']}; method: {comparison['description']}"
                   + (f", {comparison['n_resamples']} resamples, seed {comparison['seed']}"
                      if "n_resamples" in comparison else "")
                   + (f"; {comparison['n_groups']} groups resampled as units"
                      if "n_groups" in comparison else "") + ".")]
    interval = (f"[{format_number(comparison['low'])}, {format_number(comparison['high'])}]"
                if math.isfinite(comparison["high"]) else
                f"[{format_number(comparison['low'])}, inf)")
    rows = []
    if "accuracy_a" in comparison:
        rows += [("accuracy of a", [format_number(comparison["accuracy_a"]), ""]),
                 ("accuracy of b", [format_number(comparison["accuracy_b"]), ""])]
    rows += [("difference a - b", [format_number(comparison["estimate"]),
                                   f"{interval} ({level} interval)"]),
             ("p-value", [f"{comparison['pvalue']:.3g}", f"({comparison['alternative']})"])]
    lines += [""] + format_table("", ["", ""], rows, width=width, align=[">", "<"])
    if "verdict" in comparison:
        lines += ["", prose(f"Verdict ({comparison['hypothesis']}, margin "
                            f"{comparison['margin']:g}): {comparison['verdict']}.")]
    else:
        rejected = comparison["pvalue"] < 1 - comparison["confidence_level"]
        lines += ["", prose(
            f"At {(1 - comparison['confidence_level']) * 100:.4g}%: "
            + ("the two models' scores differ (the difference is significant)."
               if rejected else "no evidence that the two models' scores differ."))]
    if "mcnemar_table" in comparison:
        table = comparison["mcnemar_table"]
        cells = [[f"{value:g}" for value in row] for row in table]
        lines += ["", "McNemar table (instances; the test reads the discordant cells):"]
        lines += format_table("", ["b right", "b wrong"],
                              [("a right", cells[0]), ("a wrong", cells[1])], width=width)
    return "\n".join(lines) + "\n"


def read_groups(path, n_samples, reader):
    """The group of each instance from ``--groups FILE`` (one id per line, read as labels),
    checked against the number of samples."""
    groups = reader(path)
    if np.ndim(groups) != 1:
        raise InputError(f"--groups {path}: expected one group id per line; got rows of "
                         f"{np.shape(groups)[1]} fields")
    if len(groups) != n_samples:
        raise InputError(f"--groups {path}: holds {len(groups)} group ids for "
                         f"{n_samples} samples; expected one per sample")
    return groups
