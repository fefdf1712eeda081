"""Scores read off a confusion matrix: precision, recall, F, accuracy, reports.

The matrix-level functions here serve every builder (TCM, MLCM, ...): a
builder returns a :class:`~sklearn_confusion_ext._core.confusion.Confusion` and these
functions read it, as eqs. (36)-(43) of Erbani et al. (2024) do for the TCM.
Per-class counts are always taken from the full matrix, then the classes
asked for with ``labels=`` are kept, as :mod:`sklearn.metrics` does.
"""


import math
import warnings
from collections import Counter

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ._core.arrays import to_numpy
from ._core.bounds import (
    average_at_bound,
    bca_interval,
    effective_trials,
    honest_bounds,
    percentile_interval,
    proportion_trials,
)
from ._core.confusion import Confusion, class_counts, every_class
from ._core.dispatch import confusions
from ._core.params import quoted, validate_params
from ._core.resampling import (
    REPORT_RESAMPLES,
    Progress,
    batches_terms,
    cell_draws,
    cell_matrices,
    full_blocks,
    grouped_rows,
    instance_weights,
    label_cells,
    leave_out_weights,
    matrix_entries,
    resampled_matrices,
)
from ._core.user_warnings import warn
from ._core.validation import (
    check_column_selection,
    check_confusion_matrix,
    check_label_list,
    check_sample_weight,
    common_integer_labels,
)


def reported_classes(confusion, include_none):
    """Positions (into the full matrix) of the classes that get their own row.

    The "none" class joins only when ``include_none`` is True, or when it is
    "auto" and some instance had an empty label (its row has mass).
    """
    selection = confusion.selection
    if not confusion.has_none:
        return selection
    if include_none == "auto":
        include_none = bool(confusion.matrix[-1].sum() > 0)
    return selection if include_none else selection[:-1]


def confusion_for_labels(confusion, labels):
    """``labels=`` of a score function, applied to the full confusion built without it.

    As scikit-learn's scores (not its ``confusion_matrix``) read ``labels``, a listed class
    may be absent from ``y_true`` or from both targets, even every listed class (a
    cross-validation fold without a rare class): its counts are zero. Absent classes share
    one appended zero row and column, so the matrix grows by one whatever ``labels`` holds.
    2-D targets take column indices (column names, for named DataFrame columns). Returns the
    confusion with ``labels`` selected and the names of the selected classes (None: the
    matrix's own labels).
    """
    if labels is None:
        return confusion, None
    if hasattr(labels, "__dlpack__") and not isinstance(labels, np.ndarray):
        labels = to_numpy(labels)
    has_none = confusion.has_none
    classes = confusion.display_labels[:len(confusion.display_labels) - has_none]
    parts = {"n_samples": confusion.n_samples, "n_skipped": confusion.n_skipped,
             "namespace": confusion.namespace, "true_classes": confusion.true_classes}
    if confusion.true_classes is None:
        selection = check_column_selection(labels, len(classes), classes)
        return Confusion.from_parts(confusion.matrix, classes, selection, has_none,
                                    **parts), None
    present = np.asarray(classes)
    listed = check_label_list(labels, present)
    listed, present = common_integer_labels({"labels": listed, "the targets": present})
    # The matrix's classes are sorted for 1-D labels, in the order of labels= for labels
    # beside scores (which name the columns): find the listed ones in either.
    order = np.argsort(present, kind="stable")
    position = order[np.minimum(np.searchsorted(present[order], listed), len(present) - 1)]
    found = present[position] == listed
    if found.all():
        return Confusion.from_parts(confusion.matrix, classes, position, False, **parts), None
    n_classes = len(present)
    matrix = np.zeros((n_classes + 1, n_classes + 1))
    matrix[:n_classes, :n_classes] = confusion.matrix
    selection = np.where(found, position, n_classes)
    absent = listed[~found][0]
    return (Confusion.from_parts(matrix, [*classes, absent], selection, False, **parts),
            [str(label) for label in listed])


def multilabel_counts_from_confusion(confusion, include_none="auto", true_negatives="rest"):
    """One ``[[TN, FP], [FN, TP]]`` per reported class, shaped like scikit-learn's.

    ``true_negatives="rest"`` counts everything outside the class's row and
    column (scikit-learn, TCM eq. 36); ``"diagonal"`` the other diagonal cells
    only (MLCM eq. 16).
    """
    tp, fp, fn, tn = class_counts(confusion.matrix)
    if true_negatives == "diagonal":
        tn = tp.sum() - tp
    classes = reported_classes(confusion, include_none)
    return np.stack([tn, fp, fn, tp], axis=1)[classes].reshape(-1, 2, 2)


def accuracy_from_confusion(matrix, normalize=True):
    """Diagonal mass over total mass (equation 43); ``normalize=False`` gives the diagonal mass."""
    if not normalize:
        return float(np.trace(matrix))
    largest = matrix.max(initial=0.0)
    if largest == 0:
        warn("Accuracy is ill-defined on an empty matrix and is set to 0.0.",
             UndefinedMetricWarning)
        return 0.0
    scaled = matrix / largest  # sums of masses near the largest float stay finite
    # The diagonal's sum may round above the whole sum's: a score is never above 1.
    return min(float(np.trace(scaled) / scaled.sum()), 1.0)


def precision_recall_fscore_from_confusion(confusion, *, beta=1.0, average=None,
                                           zero_division="warn", include_none="auto",
                                           classes=None):
    """Precision, recall, F-beta and support read off a confusion (equations 37-42).

    Parameters
    ----------
    confusion : Confusion
        The full matrix and the selected classes.
    beta : float
        Weight of recall in the F-score.
    average : {None, "micro", "macro", "weighted"}
        ``None`` returns per-class arrays; "micro" pools the counts of the
        reported classes (the "none" class always included); "macro" and
        "weighted" average the per-class scores, equally or by support.
    zero_division : {"warn", 0.0, 1.0, np.nan}
        Value of a score whose denominator is zero; "warn" gives 0.0 and an
        ``UndefinedMetricWarning``.
    include_none : {"auto", True, False}
        Whether the "none" class gets its own row (see :func:`reported_classes`).
    classes : ndarray of int, default=None
        Overrides the reported classes (positions in the full matrix).

    Returns
    -------
    precision, recall, fbeta, support
        Arrays for ``average=None``; floats and ``None`` support otherwise.
    """
    # TP, the true mass (row sums) and the predicted mass (column sums) of every class: as
    # scikit-learn, F-beta's denominator is beta^2 * true + predicted.
    matrix = confusion.matrix
    counts = np.array([matrix.diagonal(), matrix.sum(axis=1), matrix.sum(axis=0)])
    if classes is None:
        classes = reported_classes(confusion, include_none)
    # Every class in order (the common case): the counts as they are.
    tp, true_sum, pred_sum = counts if classes is every_class(len(matrix)) else \
        counts[:, classes]
    support = true_sum
    if average == "micro":
        tp, true_sum, pred_sum = counts[:, confusion.selection].sum(axis=1, keepdims=True)
    f_numerator, f_denominator = fbeta_terms(tp, true_sum, pred_sum, beta)
    scores = _ratios(np.array([tp, tp, f_numerator]),
                     np.array([pred_sum, true_sum, f_denominator]), zero_division)
    if average is None:
        return (*scores, support)
    if average == "micro":
        return (*scores[:, 0].tolist(), None)
    return (*_averages(scores, support if average == "weighted" else None, zero_division),
            None)


def fbeta_terms(tp, true_sum, pred_sum, beta):
    """Numerator and denominator of F-beta from the true positives and the true and
    predicted masses (arrays alike): as scikit-learn, ``(1 + beta^2) tp`` over
    ``beta^2 true + predicted``. Beyond ``beta = 1e75`` both are divided through by
    ``1 + beta^2`` (its products overflow): F-beta is recall to the last digit, and 0
    where only predicted mass is left (a class with no true mass)."""
    beta2 = float(beta) * float(beta)  # inf beyond 1.3e154, without an overflow warning
    if beta2 == 1.0:  # F1: 1.0 * true_sum is true_sum
        return 2.0 * tp, true_sum + pred_sum
    if beta2 <= 1e150:
        return (1 + beta2) * tp, beta2 * true_sum + pred_sum
    return tp, np.where(true_sum == 0, pred_sum, true_sum + pred_sum / (1 + beta2))


# The scores of precision_recall_fscore_from_confusion, in order, and the mass whose absence
# leaves each undefined (the words of scikit-learn's warnings).
_UNDEFINED = (("Precision", "predicted"), ("Recall", "true"), ("F-score", "true nor predicted"))


def _ratios(numerators, denominators, zero_division):
    """Precision, recall and F-beta per class (rows: ``_UNDEFINED``'s order, one array
    operation for the three); a zero denominator gives ``zero_division``, and with "warn"
    0.0 and one warning per score, as scikit-learn warns."""
    if denominators.all():  # every score defined (the common case): no masks
        result = np.divide(numerators, denominators)
        return np.minimum(result, 1.0, out=result)  # rounding never exceeds 1
    undefined = denominators == 0
    value = np.nan if zero_division == "warn" else float(zero_division)
    defined = ~undefined
    result = np.divide(numerators, denominators, out=np.full(numerators.shape, value),
                       where=defined)
    np.minimum(result, 1.0, out=result, where=defined)
    if zero_division == "warn":
        result[undefined] = 0.0
        for (metric, side), missing in zip(_UNDEFINED, undefined):
            if missing.any():
                warn(f"{metric} is ill-defined and being set to 0.0 in "
                     f"{np.count_nonzero(missing)} class(es) with no {side} mass. Use "
                     "`zero_division` to control this behavior.", UndefinedMetricWarning)
    return result


def _averages(scores, weights, zero_division):
    """Average of each row's defined (non-nan) scores, as floats, by ``weights`` (None:
    equal); equal weights when theirs are all zero, as scikit-learn averages (a "weighted"
    average over classes absent from ``y_true``)."""
    if weights is None:  # each row's mean: its sum over its count, as NumPy's mean
        n_scores, sums = scores.shape[1], scores.sum(axis=1).tolist()
        # Scores lie in [0, 1] or are NaN: a row sums to NaN where it holds a NaN.
        if not any(map(math.isnan, sums)):
            return [min(total / n_scores, 1.0) for total in sums]
    if np.isnan(scores).any():
        weights = np.ones(scores.shape[1]) if weights is None else weights
        return [_average(row, weights, zero_division) for row in scores]
    if weights.sum() == 0:
        means = scores.sum(axis=1)
        means /= scores.shape[1]
        return np.minimum(means, 1.0, out=means).tolist()
    return np.minimum(scores @ weights / weights.sum(), 1.0).tolist()


def _average(scores, weights, zero_division):
    defined = ~np.isnan(scores)
    if not defined.any():
        return 0.0 if zero_division == "warn" else float(zero_division)
    scores, weights = scores[defined], weights[defined]
    total = weights.sum()
    if total == 0:
        return min(float(scores.mean()), 1.0)
    return min(float(scores @ weights / total), 1.0)


@validate_params()
def precision_recall_fscore_support_from_confusion(confusion, *, labels=None, beta=1.0,
                                                   average=None, zero_division="warn",
                                                   none_class=False, include_none="auto"):
    """Precision, recall, F-beta and support of a confusion matrix.

    For a matrix built elsewhere or in pieces, such as
    :meth:`ConfusionAccumulator.result`: recall of class ``k`` is the diagonal
    cell over row ``k``, precision over column ``k`` (Erbani et al. 2024,
    eqs. 37-42; Heydarian et al. 2022, eqs. 2-7). On the full matrix this
    returns what :func:`transport_precision_recall_fscore_support` and
    :func:`mlcm_precision_recall_fscore_support` return on the instances.

    Parameters
    ----------
    confusion : array-like of shape (n_classes, n_classes)
        Rows are true classes, columns predicted classes; non-negative.
    labels : array-like of int, default=None
        Row indices of the classes to report, in that order (the "none" class,
        with ``none_class``, is not listed: it follows ``include_none``). The
        counts are read from the whole matrix, as the one-shot functions read
        them, so pass a matrix over every class.
    beta : float, default=1.0
        Weight of recall in the F-score. Beyond 1e75 the F-score is computed divided
        through by ``1 + beta^2``: recall to the last digit (0 for a class with predicted
        mass and no true mass).
    average : {None, "micro", "macro", "weighted"}, default=None
        ``None`` returns per-class arrays; "micro" pools the counts of the
        reported classes ("none" included); "macro" averages per-class scores
        equally, "weighted" by support.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score whose denominator is zero; "warn" gives 0.0 with an
        ``UndefinedMetricWarning``.
    none_class : bool, default=False
        Whether the last row and column is the "none" class of 2-D targets
        (the TCM's empty labels, MLCM's NTL/NPL, the MLCT's "unknown").
    include_none : {"auto", True, False}, default="auto"
        With ``none_class``: whether "none" gets its own entry and joins the
        macro and weighted averages ("auto": when its row has mass).

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        Row sums of the reported classes; ``None`` when ``average`` is set.

    Examples
    --------
    >>> from sklearn_confusion_ext import (
    ...     ConfusionAccumulator, precision_recall_fscore_support_from_confusion)
    >>> accumulator = ConfusionAccumulator("mlcm")
    >>> accumulator.update([[1, 1, 0], [0, 1, 0]], [[1, 0, 0], [0, 1, 1]]).update(
    ...     [[0, 0, 1]], [[0, 0, 1]])
    ConfusionAccumulator('mlcm'): 3 samples seen, classes_=[0, 1, 2]
    >>> precision, recall, f1, weight = precision_recall_fscore_support_from_confusion(
    ...     accumulator.result(), none_class=True)
    >>> precision, recall.round(3)
    (array([1. , 1. , 0.5]), array([1.   , 0.333, 1.   ]))
    """
    matrix = check_confusion_matrix(confusion, min_classes=1 + bool(none_class))
    n_classes = matrix.shape[0] - bool(none_class)
    selection = None if labels is None else check_column_selection(labels, n_classes)
    return precision_recall_fscore_from_confusion(
        Confusion.from_parts(matrix, range(n_classes), selection, bool(none_class)),
        beta=beta, average=average, zero_division=zero_division, include_none=include_none)


def binary_matrix(confusion, pos_label):
    """The 2 x 2 matrix (negative, positive) that ``average="binary"`` reads.

    scikit-learn's rule: 1-D targets of at most two classes; ``pos_label`` must be one of
    them only when two are present. With one class present that is not ``pos_label``,
    every instance is negative and the positive class is empty (its scores then follow
    ``zero_division``), as a cross-validation fold with one class gives.
    """
    classes = confusion.display_labels
    if confusion.has_none or len(classes) > 2:
        kind = "multilabel or soft" if confusion.has_none else "multiclass"
        raise ValueError(f"Target is {kind} but average='binary'; choose another average "
                         "setting.")
    positive = [i for i, label in enumerate(classes) if label == pos_label]
    if not positive and len(classes) == 2:
        raise ValueError(f"pos_label={pos_label!r} is not a valid label; it should be one "
                         f"of {list(classes)}.")
    matrix = np.zeros((2, 2))
    if positive:
        order = [i for i in range(len(classes)) if i != positive[0]] + positive
        matrix[2 - len(order):, 2 - len(order):] = confusion.matrix[np.ix_(order, order)]
    else:
        matrix[0, 0] = confusion.matrix.sum()
    return matrix


def report_row_names(confusion, target_names, include_none, class_names=None):
    """The name of each reported class's row: ``target_names`` checked against the classes
    of ``confusion`` (one per class, optionally one more for the "none" class), else the
    classes' own (or ``class_names``); refused, naming the argument, where a name repeats
    or is a summary row's. The reports call it before their intervals' resampling."""
    classes = reported_classes(confusion, include_none)
    names = [str(confusion.display_labels[i]) for i in classes]
    if class_names is not None:
        names[:len(class_names)] = class_names
    if target_names is not None:
        n_named = len(confusion.selection) - confusion.has_none
        target_names = [str(name) for name in target_names]
        if confusion.has_none and len(target_names) == n_named + 1:  # "none" named too
            if len(names) > n_named:
                names[n_named] = target_names[n_named]
            target_names = target_names[:n_named]
        if len(target_names) != n_named:
            none = (" (and optionally a last name for the 'none' class, named 'none' by "
                    "default)" if confusion.has_none else "")
            raise ValueError(
                f"target_names has {len(target_names)} names but the report has "
                f"{n_named} classes ({names[:n_named]}); pass one name per class{none}."
            )
        names[:n_named] = target_names
    _check_row_names(names, "target_names" if target_names is not None
                     else "the class labels of y_true and y_pred")
    return names


def classification_report_from_confusion(confusion, *, target_names=None, digits=2,
                                         output_dict=False, zero_division="warn",
                                         include_none="auto", support_name="support",
                                         accuracy_row=True, class_names=None, intervals=None):
    """Text or dict report of per-class and averaged scores, as scikit-learn's.

    With ``accuracy_row``, an "accuracy" row appears when every class of the
    matrix is reported (micro precision, recall and F are then all equal to
    the accuracy); otherwise a "micro avg" row does. ``support_name`` names
    the last column (the MLCM paper calls it "weight"). ``class_names``: the
    labels of the reported classes, where the matrix's own do not name them
    (see :func:`confusion_for_labels`). ``intervals``: ``(low, high)``, each of
    shape ``(n_rows, 3)`` in the order of :func:`report_reader`'s values; each
    score then gets ``<score>_low`` and ``<score>_high`` beside it (the accuracy:
    ``accuracy_low`` and ``accuracy_high``), and the text prints them in brackets.
    """
    classes = reported_classes(confusion, include_none)
    names = report_row_names(confusion, target_names, include_none, class_names)
    per_class = precision_recall_fscore_from_confusion(
        confusion, average=None, zero_division=zero_division, classes=classes)
    headers = ["precision", "recall", "f1-score", support_name]
    report = {name: dict(zip(headers, (float(value) for value in values)))
              for name, *values in zip(names, *per_class)}
    total_support = float(per_class[3].sum())
    all_reported = accuracy_row and bool(
        np.isin(np.arange(confusion.matrix.shape[0]), confusion.selection).all())
    for average in ("micro", "macro", "weighted"):
        scores = precision_recall_fscore_from_confusion(
            confusion, average=average, zero_division=zero_division, classes=classes)
        if average == "micro" and all_reported:
            report["accuracy"] = scores[0]
            continue
        report[f"{average} avg"] = dict(zip(headers, (*scores[:3], total_support)))
    if intervals is not None:
        report = _with_intervals(report, *intervals)
    if output_dict:
        return report
    return _format_report(report, names, digits, support_name)


_SCORE_KEYS = ("precision", "recall", "f1-score")


def report_reader(confusion, *, zero_division="warn", include_none="auto"):
    """The scores of :func:`classification_report_from_confusion` of many matrices at once.

    Returns ``read(matrices)``: ``matrices`` of shape ``(n, W, W)`` are full matrices over the
    classes of the unselected ``confusion`` (``W`` its width, before
    :func:`confusion_for_labels` added a row of absent labels); ``read`` gives shape
    ``(n, n_reported + 3, 3)``: precision, recall and F1 of each reported class, then of the
    micro (the accuracy, when every class is reported), macro and weighted averages, with
    :func:`precision_recall_fscore_from_confusion`'s conventions and no warnings.
    """
    classes = reported_classes(confusion, include_none)
    pooled = confusion.selection
    width = confusion.matrix.shape[0]
    fill = 0.0 if zero_division == "warn" else float(zero_division)

    def ratio(numerator, denominator):
        values = np.full(np.broadcast(numerator, denominator).shape, fill)
        np.divide(numerator, denominator, out=values, where=denominator != 0)
        return values

    def scores(tp, fp, fn):
        return np.stack([ratio(tp, tp + fp), ratio(tp, tp + fn),
                         ratio(2 * tp, 2 * tp + fn + fp)], axis=-1)

    def average(values, weights):
        defined = ~np.isnan(values)
        weights = np.where(defined, weights[..., None], 0.0)
        plain = np.divide(np.where(defined, values, 0.0).sum(axis=1), defined.sum(axis=1),
                          out=np.full(values.shape[::2], fill), where=defined.any(axis=1))
        totals = weights.sum(axis=1)
        return np.divide((weights * np.where(defined, values, 0.0)).sum(axis=1), totals,
                         out=plain, where=totals > 0)

    def read(matrices):
        matrices = np.asarray(matrices, dtype=float)
        if matrices.shape[1] < width:  # labels absent from the targets: zero counts
            padding = width - matrices.shape[1]
            matrices = np.pad(matrices, ((0, 0), (0, padding), (0, padding)))
        tp = np.diagonal(matrices, axis1=1, axis2=2)
        fp, fn = matrices.sum(axis=1) - tp, matrices.sum(axis=2) - tp
        per_class = scores(tp[:, classes], fp[:, classes], fn[:, classes])
        micro = scores(*(count[:, pooled].sum(axis=1) for count in (tp, fp, fn)))
        macro = average(per_class, np.ones(len(classes)))
        weighted = average(per_class, tp[:, classes] + fn[:, classes])
        return np.concatenate([per_class, np.stack([micro, macro, weighted], axis=1)], axis=1)

    return read


def _with_intervals(report, low, high):
    """The report with ``<score>_low`` and ``<score>_high`` after each score."""
    result = {}
    for (name, row), row_low, row_high in zip(report.items(), low, high):
        if name == "accuracy":
            result.update({name: row, "accuracy_low": float(row_low[0]),
                           "accuracy_high": float(row_high[0])})
            continue
        result[name] = {}
        for key, value in row.items():
            result[name][key] = value
            if key in _SCORE_KEYS:
                j = _SCORE_KEYS.index(key)
                result[name].update({f"{key}_low": float(row_low[j]),
                                     f"{key}_high": float(row_high[j])})
    return result


def check_target_names(target_names, labels):
    """``target_names`` of a report, checked before any matrix is built: a 1-D list of
    distinct names that are not a summary row's; with ``labels=`` given, one name per label
    (and optionally a last one for the "none" class). Its length against the classes found
    in the data is checked once they are known."""
    if target_names is None:
        return
    if isinstance(target_names, (str, bytes)) or np.ndim(target_names) != 1:
        raise ValueError(f"target_names must be a 1-D list of class names; got "
                         f"{quoted(target_names)}.")
    names = [str(name) for name in target_names]
    _check_row_names(names, "target_names")
    if labels is not None and len(names) not in (len(labels), len(labels) + 1):
        raise ValueError(f"target_names has {len(names)} names but labels selects "
                         f"{len(labels)} classes; pass one name per class.")


def _check_row_names(names, source):
    """The report is keyed by row name: a repeated name, or one of the summary rows' names,
    would silently hide a class."""
    taken = {"accuracy", "micro avg", "macro avg", "weighted avg"}
    repeated = sorted(name for name, count in Counter(names).items() if count > 1)
    clashing = sorted(taken.intersection(names))
    if repeated or clashing:
        problem = (f"repeat {repeated}" if repeated else
                   f"include {clashing}, the name of a summary row of the report")
        raise ValueError(f"The report's rows are keyed by class name, and {source} {problem}; "
                         "pass target_names with distinct names.")


def _format_report(report, names, digits, support_name):
    supports = [row[support_name] for row in report.values() if isinstance(row, dict)]
    integral = np.allclose(supports, np.round(supports), rtol=0, atol=1e-9)
    support_format = "{:>9.0f}" if integral else f"{{:>9.{digits}f}}"
    width = max(len(name) for name in [*names, "weighted avg"])

    def cell(value, low, high):
        text = f"{value:.{digits}f}"
        return text if low is None else f"{text} [{low:.{digits}f}, {high:.{digits}f}]"

    cells = {name: {key: cell(row[key], row.get(f"{key}_low"), row.get(f"{key}_high"))
                    for key in _SCORE_KEYS} if isinstance(row, dict) else
             {"f1-score": cell(row, report.get("accuracy_low"), report.get("accuracy_high"))}
             for name, row in report.items() if name not in ("accuracy_low", "accuracy_high")}
    column = max([9, *(len(text) for row in cells.values() for text in row.values())])
    lines = [" " * width + " " + "".join(f" {header:>{column}}" for header in _SCORE_KEYS)
             + f" {support_name:>9}", ""]
    for name, row in cells.items():
        if name == "accuracy":
            line = " " * (2 * (column + 1)) + f" {row['f1-score']:>{column}} " + \
                support_format.format(report["macro avg"][support_name])
        else:
            line = ("".join(f" {row[key]:>{column}}" for key in _SCORE_KEYS)
                    + " " + support_format.format(report[name][support_name]))
        lines.append(f"{name:>{width}} " + line)
        if name == names[-1]:
            lines.append("")
    return "\n".join(lines) + "\n"


def report_intervals(y_true, y_pred, sample_weight, full, confusion, kind, params, *,
                     column_labels=None, zero_division, include_none, confidence_level,
                     random_state, method="percentile", n_resamples=REPORT_RESAMPLES,
                     verbose=0):
    """``(low, high)``, each of shape ``(n_rows, 3)``: the intervals of every score of the
    report of ``confusion`` (``full``, before ``labels=``; of ``kind`` with ``params``), by
    ``method`` ("percentile", "basic", "bca" or "bayesian"), from ``n_resamples``
    resamples whose scores are all read at once (:func:`~._scores.report_reader`). A
    score at its bound in every resample (a class 100 % right) gets Wilson's interval of
    its trials, with a warning (:func:`~._core.bounds.honest_bounds`).

    1-D labels without ``sample_weight``: the cells of ``full`` are resampled (a
    multinomial draw; for "bayesian" the Dirichlet posterior of the cells, no prior),
    never the instances, and BCa's jackknife leaves out one instance of each cell.
    Otherwise the instances are resampled (for "bayesian" weighted by the Bayesian
    bootstrap, for BCa's jackknife left out in 100 groups) and the full matrices of all
    resamples built at once (:func:`cell_matrices`, :func:`resampled_matrices`), or one by
    one for targets of another array library or Dask. The draws of "percentile" are those
    of :func:`score_confidence_interval` with the same ``random_state`` and
    ``n_resamples``.
    """
    read = report_reader(confusion, zero_division=zero_division, include_none=include_none)
    rng = np.random.default_rng(random_state)
    n_samples, shape = full.n_samples, full.matrix.shape
    two_dimensional = any(np.ndim(y) == 2 and np.shape(y)[1] > 1 for y in (y_true, y_pred))
    single_label = full.true_classes is not None and not two_dimensional
    owner = "the report's intervals (confidence_level=)"
    bayesian = method == "bayesian"
    progress = Progress(verbose, n_resamples, "classification report intervals")
    cells = single_label and sample_weight is None
    if cells:
        counts = np.rint(full.matrix).astype(np.int64).ravel()
        nonzero = np.flatnonzero(counts)
        blocks = (full_blocks(full.matrix, n_resamples, owner, lambda size: rng.dirichlet(
            counts[nonzero], size=size) * n_samples, nonzero) if bayesian else
            cell_draws(full.matrix, n_samples, rng, n_resamples, owner))
        values = np.concatenate([read(block.reshape(-1, *shape))
                                 for block in progress.track(blocks)])
    else:
        build = _report_matrices(y_true, y_pred, sample_weight, full, kind, params,
                                 single_label, column_labels, owner)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the report on the data warns, resamples never
            values = np.concatenate([
                read(build(weights).reshape(-1, *shape))
                for weights in progress.track(instance_weights(
                    rng, n_samples, n_resamples, bayesian, matrix_entries(shape), owner,
                    reuse=True))])
    progress.close()
    alpha = 1 - float(confidence_level)
    estimate = read(full.matrix[None])[0]
    if method in ("percentile", "bayesian"):
        low, high = percentile_interval(values, alpha)
    elif method == "basic":
        upper, lower = percentile_interval(values, alpha)
        low, high = 2 * estimate - lower, 2 * estimate - upper
    else:
        if cells:  # one instance of each nonzero cell left out
            left_out = np.repeat(full.matrix.ravel()[None], len(nonzero), axis=0)
            left_out[np.arange(len(nonzero)), nonzero] -= 1
            jackknife, multiplicity = read(left_out.reshape(-1, *shape)), \
                counts[nonzero].astype(float)
        else:
            jackknife = _grouped_jackknife(build, read, rng, n_samples, shape, owner)
            multiplicity = np.ones(len(jackknife))
        flat = (len(values), -1)  # BCa reads one column per score
        low, high = (bound.reshape(estimate.shape) for bound in bca_interval(
            values.reshape(flat), estimate.ravel(), jackknife.reshape(len(jackknife), -1),
            multiplicity, alpha))
    trials, widen = report_trials(confusion, include_none)
    trials = effective_trials(trials, sample_weight)
    low, high, _ = honest_bounds(estimate, low, high, trials, alpha,
                                 "the classification report's intervals", "a score",
                                 widen=widen)
    return low, high


def _report_matrices(y_true, y_pred, sample_weight, full, kind, params, single_label,
                     column_labels, owner):
    """``build(weights)``: the full matrices of the report's targets under each row of
    instance weights (times ``sample_weight``), at once where the targets allow."""
    user = check_sample_weight(sample_weight, full.n_samples)
    if single_label:
        cells = label_cells(full, y_true, y_pred)
        return lambda weights: cell_matrices(cells, full.matrix.size, user, weights)
    grouped = grouped_rows(kind, params, y_true, y_pred, user, column_labels=column_labels)
    if grouped is not None:  # labels beside scores: exchangeable draws, any order
        return lambda weights: grouped.matrices(weights, presorted=True)
    if batches_terms(kind, y_true, y_pred):
        return lambda weights: resampled_matrices(kind, params, y_true, y_pred, user,
                                                  weights, owner, column_labels=column_labels)

    def one_by_one(weights):
        return np.stack([confusions(
            kind, y_true, y_pred, sample_weight=w if user is None else w * user,
            params=params, warn=False, column_labels=column_labels)[0].matrix
            for w in weights])
    return one_by_one


def _grouped_jackknife(build, read, rng, n_samples, shape, owner):
    """The report's scores with each of at most 100 groups of instances left out."""
    groups = np.array_split(rng.permutation(n_samples), min(n_samples, 100))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.concatenate([read(build(weights).reshape(-1, *shape)) for weights in
                               leave_out_weights(groups, n_samples, int(np.prod(shape)),
                                                 owner)])


def report_trials(confusion, include_none):
    """``(trials, widen)`` of each score of the report of ``confusion``, shaped as
    :func:`report_reader`'s rows (precision, recall and F1 of each reported class, then of
    the micro, macro and weighted averages): their trials
    (:func:`~._core.bounds.proportion_trials`) and whether the average reads a class at its
    bound (:func:`~._core.bounds.average_at_bound`)."""
    classes = reported_classes(confusion, include_none)
    matrix = confusion.matrix
    trials, widen = [], []
    for average in (None, "micro", "macro", "weighted"):
        trials.append(np.stack([np.atleast_1d(proportion_trials(
            matrix, reading, average=average, classes=classes, pooled=confusion.selection))
            for reading in ("precision", "recall", "f1")], axis=-1))
        widen.append(np.broadcast_to([average_at_bound(
            matrix, reading, average=average, classes=classes)
            for reading in ("precision", "recall", "f1")], trials[-1].shape))
    return np.concatenate(trials, axis=0), np.concatenate(widen, axis=0)
