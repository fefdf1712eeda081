"""The classification reports: per-class and averaged precision, recall and F1, with
their intervals.

:func:`classification_report_from_confusion` lays out the scores of any built matrix as
scikit-learn's report does; :func:`transport_classification_report` (Erbani et al. 2024)
and :func:`mlcm_classification_report` (Heydarian et al. 2022, Table 12) build the matrix
and report it. With ``confidence_level``, :func:`report_intervals` resamples the data once
and reads every score of the report off each resampled matrix (:func:`report_reader`).
"""

import warnings
from collections import Counter

import numpy as np
from sklearn.utils import _safe_indexing
from sklearn.utils.multiclass import unique_labels

from .._core.bounds import (
    average_at_bound,
    bca_interval,
    effective_trials,
    honest_bounds,
    percentile_interval,
    proportion_trials,
)
from .._core.dispatch import confusions
from .._core.params import (
    ARRAY,
    MLCM,
    REPORT,
    REPORT_INTERVALS,
    TRANSPORT,
    Label,
    quoted,
    validate_params,
)
from .._core.resampling import (
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
from .._core.subgroups import subgroup_codes, subgroup_rows
from .._core.user_warnings import warn
from .._core.weights import check_sample_weight
from .._matrices.mlcm import _MLCM_METHODS
from .._matrices.rejection import answered
from .._matrices.transport import TRANSPORT as TRANSPORT_KIND
from .from_confusion import (
    confusion_for_labels,
    precision_recall_fscore_from_confusion,
    reported_classes,
)


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
                                         accuracy_row=True, class_names=None, intervals=None,
                                         answered=None):
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
    ``answered``: the :class:`~.._matrices.rejection.Answered` instances the matrix was
    built from (a ``reject_label``); each row then gets its "rejected" count (the classes
    in the order of ``answered.labels``, the average rows their total) and the report a
    "coverage" entry, the share of the instances answered.
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
    if answered is not None:
        _add_rejections(report, names, answered)
    if output_dict:
        return report
    return _format_report(report, names, digits, support_name,
                          None if answered is None else answered.total)


def _add_rejections(report, names, answered):
    """The rejections of each class (and their total on the average rows) and the
    coverage, added to ``report`` in place."""
    for name, count in zip(names, answered.rejected):
        report[name]["rejected"] = float(count)
    for name, row in report.items():
        if name.endswith(" avg"):
            row["rejected"] = float(answered.rejected.sum())
    report["coverage"] = answered.coverage


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


def _format_report(report, names, digits, support_name, total=None):
    supports = [row[key] for row in report.values() if isinstance(row, dict)
                for key in (support_name, "rejected") if key in row]
    integral = np.allclose(supports, np.round(supports), rtol=0, atol=1e-9)
    support_format = "{:>9.0f}" if integral else f"{{:>9.{digits}f}}"
    rejections = "coverage" in report
    width = max(len(name) for name in [*names, "weighted avg"])

    def cell(value, low, high, mean=None, std=None):
        text = f"{value:.{digits}f}"
        if mean is not None:  # across folds (cross_validation_report): (mean±std)
            return f"{text} ({mean:.{digits}f}\u00b1{std:.{digits}f})"
        return text if low is None else f"{text} [{low:.{digits}f}, {high:.{digits}f}]"

    cells = {name: {key: cell(*(row.get(f"{key}{end}") for end in ("", "_low", "_high",
                                                                   "_mean", "_std")))
                    for key in _SCORE_KEYS} if isinstance(row, dict) else
             {"f1-score": cell(row, *(report.get(f"accuracy{end}") for end in (
                 "_low", "_high", "_mean", "_std")))}
             for name, row in report.items()
             if name not in ("accuracy_low", "accuracy_high", "accuracy_mean",
                             "accuracy_std", "coverage")}
    column = max([9, *(len(text) for row in cells.values() for text in row.values())])
    lines = [" " * width + " " + "".join(f" {header:>{column}}" for header in _SCORE_KEYS)
             + f" {support_name:>9}" + (f" {'rejected':>9}" if rejections else ""), ""]
    for name, row in cells.items():
        if name == "accuracy":
            line = " " * (2 * (column + 1)) + f" {row['f1-score']:>{column}} " + \
                support_format.format(report["macro avg"][support_name])
        else:
            line = ("".join(f" {row[key]:>{column}}" for key in _SCORE_KEYS)
                    + " " + support_format.format(report[name][support_name]))
            if rejections:
                line += " " + support_format.format(report[name]["rejected"])
        lines.append(f"{name:>{width}} " + line)
        if name == names[-1]:
            lines.append("")
    if rejections:  # the share answered, of every instance (answered and rejected)
        lines.append(f"{'coverage':>{width}} " + " " * (2 * (column + 1))
                     + f" {report['coverage']:>{column}.{digits}f} " + support_format.format(total))
    return "\n".join(lines) + "\n"


def report_intervals(y_true, y_pred, sample_weight, full, confusion, kind, params, *,
                     column_labels=None, zero_division, include_none, confidence_level,
                     random_state, method="percentile", n_resamples=REPORT_RESAMPLES,
                     verbose=0, instances=None, row_names=None, accuracy_row=True,
                     report_name="the classification report"):
    """``(low, high)``, each of shape ``(n_rows, 3)``: the intervals of every score of the
    report of ``confusion`` (``full``, before ``labels=``; of ``kind`` with ``params``), by
    ``method`` ("percentile", "basic", "bca" or "bayesian"), from ``n_resamples``
    resamples whose scores are all read at once (:func:`report_reader`). A
    score at its bound in every resample (a class 100 % right) gets Wilson's interval of
    its trials, with a warning (:func:`~.._core.bounds.honest_bounds`).

    1-D labels without ``sample_weight``: the cells of ``full`` are resampled (a
    multinomial draw; for "bayesian" the Dirichlet posterior of the cells, no prior),
    never the instances, and BCa's jackknife leaves out one instance of each cell.
    Otherwise the instances are resampled (for "bayesian" weighted by the Bayesian
    bootstrap, for BCa's jackknife left out in 100 groups) and the full matrices of all
    resamples built at once (:func:`cell_matrices`, :func:`resampled_matrices`), or one by
    one for targets of another array library or Dask. The draws of "percentile" are those
    of :func:`score_confidence_interval` with the same ``random_state`` and
    ``n_resamples``. ``instances``: the validated instances ``full`` was built from
    (``confusions(..., with_instances=True)``): their sample weights, codes and terms are
    resampled, the targets never validated again. ``row_names`` (the reported classes'
    rows) and ``accuracy_row`` (as :func:`classification_report_from_confusion`): the
    warning about a point interval names and counts the printed scores, and
    ``report_name`` the report.
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
                                 single_label, column_labels, owner, instances)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the report on the data warns, resamples never
            values = np.concatenate([
                read(build(weights).reshape(-1, *shape))
                for weights in progress.track(instance_weights(
                    rng, n_samples, n_resamples, bayesian, matrix_entries(shape), owner,
                    reuse=True, compact=getattr(build, "compact", False)))])
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
                                 f"{report_name}'s intervals", "a score",
                                 widen=widen, shown=_printed_scores(
                                     confusion, include_none, row_names, accuracy_row))
    return low, high


def _printed_scores(confusion, include_none, row_names, accuracy_row):
    """The name of each score of :func:`report_reader`'s values that the report prints
    (``"cat recall"``, ``"accuracy"``), None for the micro precision and recall that an
    accuracy row does not print (issue 39: the warning counted 18 values of 16 cells)."""
    if row_names is None:
        row_names = report_row_names(confusion, None, include_none)
    all_reported = accuracy_row and bool(
        np.isin(np.arange(confusion.matrix.shape[0]), confusion.selection).all())
    rows = [*row_names, "accuracy" if all_reported else "micro avg", "macro avg",
            "weighted avg"]
    names = np.array([[f"{row} {key}" for key in _SCORE_KEYS] for row in rows],
                     dtype=object)
    if all_reported:
        names[len(row_names)] = ["accuracy", None, None]  # the precision (_with_intervals)
    return names


def _report_matrices(y_true, y_pred, sample_weight, full, kind, params, single_label,
                     column_labels, owner, instances=None):
    """``build(weights)``: the full matrices of the report's targets under each row of
    instance weights (times ``sample_weight``), at once where the targets allow; from
    ``instances`` (the checked targets and terms ``full`` was built from) where given."""
    user = check_sample_weight(sample_weight, full.n_samples) if instances is None else \
        instances.targets.sample_weight
    if single_label:
        cells = _instance_cells(full, y_true, y_pred, instances)
        return lambda weights: cell_matrices(cells, full.matrix.size, user, weights)
    grouped = grouped_rows(kind, params, y_true, y_pred, user, column_labels=column_labels,
                           instances=instances)
    if grouped is not None:  # labels beside scores: exchangeable draws, any order
        def products(weights):
            return grouped.matrices(weights, presorted=True)

        products.compact = True  # uint8 counts (instance_weights), the same products
        return products
    if batches_terms(kind, y_true, y_pred):
        return lambda weights: resampled_matrices(kind, params, y_true, y_pred, user,
                                                  weights, owner, column_labels=column_labels,
                                                  instances=instances)

    def one_by_one(weights):
        return np.stack([confusions(
            kind, y_true, y_pred, sample_weight=w if user is None else w * user,
            params=params, warn=False, column_labels=column_labels)[0].matrix
            for w in weights])
    return one_by_one


def _instance_cells(full, y_true, y_pred, instances):
    """The cell of each instance of 1-D labels in ``full``: the codes of its checked
    targets where they are kept (rows and columns in the order of their classes), else
    read again off the labels (:func:`~.._core.resampling.label_cells`)."""
    codes = None if instances is None else instances.targets.codes
    if codes is None:
        return label_cells(full, y_true, y_pred)
    true, pred = (np.asarray(code, dtype=np.intp) for code in codes)
    return true * full.matrix.shape[0] + pred


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


# --- The reports of the TCM and of the MLCM --------------------------------------------


@validate_params({**TRANSPORT, **REPORT, **REPORT_INTERVALS, "reject_label": [None, Label()],
                  "subgroups": [None, ARRAY]})
def transport_classification_report(y_true, y_pred, *, labels=None, target_names=None,
                                    weighting="uniform", sample_weight=None, digits=2,
                                    output_dict=False, zero_division="warn",
                                    empty="null_class", include_none="auto",
                                    confidence_level=None, interval_method="percentile",
                                    n_resamples=999, random_state=None, verbose=0,
                                    reject_label=None, subgroups=None):
    """Text report of the transport-based precision, recall and F1 per class.

    Laid out like :func:`sklearn.metrics.classification_report` and equal to
    it on 1-D labels. Supports are the weighted true masses of each class
    (printed as integers when they all are). With ``confidence_level``, every
    precision, recall and F1 (and the accuracy) gets its bootstrap interval.

    Parameters
    ----------
    y_true, y_pred, labels, weighting, sample_weight, empty
        As in :func:`transport_confusion_matrix`.
    target_names : list of str, default=None
        Display names of the classes, in order. The "none" class of multi-label
        targets is named "none", or by one more name at the end of the list.
    digits : int, default=2
        Digits of the floats in the text report.
    output_dict : bool, default=False
        Return a dict ``{class: {"precision": ..., "recall": ..., "f1-score":
        ..., "support": ...}, "accuracy": ..., "macro avg": {...},
        "weighted avg": {...}}`` instead of text. With ``confidence_level``,
        each score ``s`` of a row has ``"s_low"`` and ``"s_high"`` beside it
        (``"precision_low"``, ``"precision_high"``, ``"recall_low"``, ...,
        ``"f1-score_high"``), and the accuracy has ``"accuracy_low"`` and
        ``"accuracy_high"`` beside it.
    zero_division, include_none
        As in :func:`transport_precision_recall_fscore_support`.
    confidence_level : float in (0, 1), at most 1 - 2**-52, default=None
        If set, an interval of every score at this level, printed
        ``0.50 [0.36, 0.63]``: one pass of ``n_resamples`` resamples of the
        instances, all the report's scores read off each resampled matrix (on
        1-D labels without ``sample_weight``, resampled confusion cells), as
        :func:`score_confidence_interval` with the same ``method`` and
        ``n_resamples`` draws them. ``None``: no intervals.
    interval_method : {"percentile", "basic", "bca", "bayesian"}, default="percentile"
        How the intervals are made from the resamples, as in
        :func:`score_confidence_interval`'s ``method`` ("bayesian": on 1-D labels the
        Dirichlet posterior of the cells without a prior, otherwise the Bayesian
        bootstrap). An interval that would be a point (a class 100 % right: every
        resample agrees) is Wilson's score interval of its trials instead, with a
        :class:`~sklearn_confusion_ext.exceptions.DegenerateIntervalWarning` (the user
        guide's "At the boundary").
    n_resamples : int, default=999
        Resamples (or posterior draws) of the intervals.
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the resampling (with ``confidence_level``).
    verbose : int, default=0
        Progress of the resampling on standard error (with ``confidence_level``), as in
        :func:`score_confidence_interval`.
    reject_label : int, float, bool or str, default=None
        1-D labels: the value of ``y_pred`` that says the classifier abstained, as in
        :func:`transport_confusion_matrix`. The scores and supports are then those of
        the answered instances; each row gets a "rejected" column, the (weighted)
        abstentions of its class (the average rows: their total), and a last
        "coverage" line gives the (weighted) share of all the instances answered, beside
        their number (``report["coverage"]`` in the dict). The intervals
        (``confidence_level``) resample the answered instances: they are conditional on
        the instances answered. ``ValueError`` where ``y_true`` holds the reject label
        or every instance was rejected. None: no abstention.
    subgroups : array-like of shape (n_samples,), default=None
        The subgroup of each instance (sites, age bands), as in :func:`score_by_subgroup`:
        one report per subgroup, over the classes of all the data (``labels`` by default
        the classes of ``y_true`` and ``y_pred``), the texts one after the other under a
        line ``subgroup <label> (<n> instances)``, or with ``output_dict`` a dict
        ``{subgroup: report}``. Empty subgroups (unused categories of a pandas
        Categorical) are left out with a warning; missing labels are refused. None: one
        report of all the instances.

    Returns
    -------
    str or dict

    See Also
    --------
    transport_precision_recall_fscore_support : The scores of the report.
    mlcm_classification_report : The MLCM's report.
    risk_coverage_curve : The risk among the answered at every coverage.
    score_confidence_interval : The interval of one score.
    sklearn.metrics.classification_report : scikit-learn's, which this equals on labels.

    References
    ----------
    J. Erbani, P.-E. Portier, E. Egyed-Zsigmond, D. Nurbakova, "Confusion Matrices: A
    Unified Theory", IEEE Access (2024), doi:10.1109/ACCESS.2024.3507199: Section V,
    eqs. (37)-(43).

    Examples
    --------
    >>> from sklearn_confusion_ext import transport_classification_report
    >>> print(transport_classification_report(["a", "b", "b"], ["a", "b", "a"]))
                  precision    recall  f1-score   support
    <BLANKLINE>
               a       0.50      1.00      0.67         1
               b       1.00      0.50      0.67         2
    <BLANKLINE>
        accuracy                           0.67         3
       macro avg       0.75      0.75      0.67         3
    weighted avg       0.83      0.67      0.67         3
    <BLANKLINE>

    With 95 % intervals:

    >>> y_true, y_pred = [0, 0, 1, 1, 2, 2] * 20, [0, 1, 1, 1, 2, 0] * 20
    >>> print(transport_classification_report(y_true, y_pred, confidence_level=0.95,
    ...                                       random_state=0))
                          precision            recall          f1-score   support
    <BLANKLINE>
               0  0.50 [0.34, 0.65] 0.50 [0.34, 0.64] 0.50 [0.35, 0.62]        40
               1  0.67 [0.55, 0.79] 1.00 [0.91, 1.00] 0.80 [0.71, 0.88]        40
               2  1.00 [0.84, 1.00] 0.50 [0.33, 0.66] 0.67 [0.50, 0.79]        40
    <BLANKLINE>
        accuracy                                      0.67 [0.57, 0.74]       120
       macro avg  0.72 [0.63, 0.80] 0.67 [0.58, 0.74] 0.66 [0.57, 0.73]       120
    weighted avg  0.72 [0.63, 0.80] 0.67 [0.57, 0.74] 0.66 [0.56, 0.74]       120
    <BLANKLINE>
    >>> report = transport_classification_report(
    ...     y_true, y_pred, confidence_level=0.95, random_state=0, output_dict=True)
    >>> [round(report["0"][key], 3) for key in ("f1-score", "f1-score_low", "f1-score_high")]
    [0.5, 0.353, 0.617]
    >>> round(report["accuracy_low"], 3), round(report["accuracy_high"], 3)
    (0.575, 0.742)

    A classifier that abstains (``"?"``): the scores among its answers, the rejections of
    each class and the share answered.

    >>> print(transport_classification_report(
    ...     ["a", "a", "b", "b", "b"], ["a", "?", "b", "a", "?"], reject_label="?"))
                  precision    recall  f1-score   support  rejected
    <BLANKLINE>
               a       0.50      1.00      0.67         1         1
               b       1.00      0.50      0.67         2         1
    <BLANKLINE>
        accuracy                           0.67         3
       macro avg       0.75      0.75      0.67         3         2
    weighted avg       0.83      0.67      0.67         3         2
        coverage                           0.60         5
    <BLANKLINE>

    One report per subgroup of the instances, over the classes of all the data:

    >>> reports = transport_classification_report(
    ...     [0, 1, 1, 0, 0], [0, 1, 1, 1, 0], subgroups=["a", "a", "b", "b", "b"],
    ...     output_dict=True)
    >>> {name: round(report["accuracy"], 3) for name, report in reports.items()}
    {'a': 1.0, 'b': 0.667}
    """
    if subgroups is not None:
        return _by_subgroup(
            transport_classification_report, y_true, y_pred, subgroups, sample_weight,
            labels, reject_label=reject_label, target_names=target_names,
            weighting=weighting, digits=digits, output_dict=output_dict,
            zero_division=zero_division, empty=empty, include_none=include_none,
            confidence_level=confidence_level, interval_method=interval_method,
            n_resamples=n_resamples, random_state=random_state, verbose=verbose)
    check_target_names(target_names, labels)
    params = {"weighting": weighting, "empty": empty}
    kept = None
    if reject_label is not None:  # the report of the answers, with the rejections beside
        kept = answered(y_true, y_pred, sample_weight, labels, reject_label)
        names = kept.labels if target_names is None else target_names
        if "coverage" in map(str, names):
            raise ValueError("With reject_label, the report has a 'coverage' entry, and a "
                             "class is named 'coverage': pass target_names with another "
                             "name for it.")
        y_true, y_pred, sample_weight, labels = (kept.y_true, kept.y_pred,
                                                 kept.sample_weight, kept.labels)
    # the instances validated once: the intervals resample the terms the matrix was read from
    (full,), instances = confusions(TRANSPORT_KIND, y_true, y_pred, sample_weight=sample_weight,
                                    params=params, column_labels=labels, with_instances=True)
    confusion, class_names = confusion_for_labels(full, labels)
    # before the work
    row_names = report_row_names(confusion, target_names, include_none, class_names)
    intervals = None
    if confidence_level is not None:
        intervals = report_intervals(
            y_true, y_pred, sample_weight, full, confusion, TRANSPORT_KIND, params,
            column_labels=labels, zero_division=zero_division, include_none=include_none,
            confidence_level=confidence_level, method=interval_method,
            n_resamples=n_resamples, random_state=random_state, verbose=verbose,
            instances=instances, row_names=row_names,
            report_name="transport_classification_report")
    return classification_report_from_confusion(
        confusion, target_names=target_names, digits=digits, output_dict=output_dict,
        zero_division=zero_division, include_none=include_none, class_names=class_names,
        intervals=intervals, answered=kept)


@validate_params({**MLCM, **REPORT, **REPORT_INTERVALS, "subgroups": [None, ARRAY]})
def mlcm_classification_report(y_true, y_pred, *, labels=None, target_names=None,
                               sample_weight=None, digits=2, output_dict=False,
                               zero_division="warn", include_none="auto", method="heydarian",
                               confidence_level=None, interval_method="percentile",
                               n_resamples=999, random_state=None, verbose=0,
                               subgroups=None):
    """Per-class and averaged scores of the MLCM, laid out as the paper's Table 12.

    One row per class (precision, recall, F1-score, weight = the MLCM row
    sum), then ``micro avg``, ``macro avg`` and ``weighted avg``. With
    ``confidence_level``, every precision, recall and F1 gets its bootstrap
    interval.

    Parameters
    ----------
    y_true, y_pred, labels, sample_weight, method
        As in :func:`mlcm`.
    target_names : list of str, default=None
        Display names of the classes, in order. The "none" class of multi-label
        targets is named "none", or by one more name at the end of the list.
    digits : int, default=2
        Digits of the floats in the text report.
    output_dict : bool, default=False
        Return a dict of dicts instead of text. With ``confidence_level``, each
        score ``s`` of a row has ``"s_low"`` and ``"s_high"`` beside it
        (``"precision_low"``, ``"precision_high"``, ``"recall_low"``, ...,
        ``"f1-score_high"``).
    zero_division, include_none
        As in :func:`mlcm_precision_recall_fscore_support`.
    confidence_level : float in (0, 1), at most 1 - 2**-52, default=None
        If set, an interval of every score at this level, printed
        ``0.50 [0.36, 0.63]``: one pass of ``n_resamples`` resamples of the
        instances (instance weights; on 1-D labels without ``sample_weight``,
        the confusion cells), all the report's scores read off each resampled
        MLCM, as :func:`score_confidence_interval` with the same ``method`` and
        ``n_resamples`` draws them. ``None``: no intervals.
    interval_method : {"percentile", "basic", "bca", "bayesian"}, default="percentile"
        How the intervals are made, as in :func:`transport_classification_report`.
    n_resamples : int, default=999
        Resamples (or posterior draws) of the intervals.
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the resampling (with ``confidence_level``).
    verbose : int, default=0
        Progress of the resampling on standard error (with ``confidence_level``), as in
        :func:`score_confidence_interval`.

    subgroups : array-like of shape (n_samples,), default=None
        One report per subgroup of the instances, as in
        :func:`transport_classification_report`. None: one report.

    Returns
    -------
    str or dict

    See Also
    --------
    mlcm_precision_recall_fscore_support : The scores of the report.
    transport_classification_report : The TCM's report.
    score_confidence_interval : The interval of one score.

    References
    ----------
    M. Heydarian, T. E. Doyle, R. Samavi, "MLCM: Multi-Label Confusion Matrix", IEEE
    Access 10 (2022), doi:10.1109/ACCESS.2022.3151048: eqs. (2)-(7) and Table 12.

    Examples
    --------
    >>> from sklearn_confusion_ext import mlcm_classification_report
    >>> y_true = [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    >>> y_pred = [[1, 0, 1], [0, 1, 0], [0, 0, 1]]
    >>> print(mlcm_classification_report(y_true, y_pred, target_names=["cat", "dog", "fox"]))
                  precision    recall  f1-score    weight
    <BLANKLINE>
             cat       1.00      1.00      1.00         1
             dog       1.00      0.50      0.67         2
             fox       0.50      1.00      0.67         1
    <BLANKLINE>
       micro avg       0.75      0.75      0.75         4
       macro avg       0.83      0.83      0.78         4
    weighted avg       0.88      0.75      0.75         4
    <BLANKLINE>

    With 90 % intervals, on these instances repeated ten times:

    >>> report = mlcm_classification_report(y_true * 10, y_pred * 10, confidence_level=0.9,
    ...                                     random_state=0, output_dict=True)
    >>> [round(report["micro avg"][key], 3) for key in ("f1-score", "f1-score_low",
    ...                                                 "f1-score_high")]
    [0.75, 0.682, 0.833]
    >>> [round(report["1"][key], 3) for key in ("recall", "recall_low", "recall_high")]
    [0.5, 0.318, 0.685]
    """
    if subgroups is not None:
        return _by_subgroup(
            mlcm_classification_report, y_true, y_pred, subgroups, sample_weight, labels,
            target_names=target_names, digits=digits, output_dict=output_dict,
            zero_division=zero_division, include_none=include_none, method=method,
            confidence_level=confidence_level, interval_method=interval_method,
            n_resamples=n_resamples, random_state=random_state, verbose=verbose)
    check_target_names(target_names, labels)
    kind = _MLCM_METHODS[method]
    (confusion,), instances = confusions(kind, y_true, y_pred, labels=labels,
                                         sample_weight=sample_weight, with_instances=True)
    # before the resampling
    row_names = report_row_names(confusion, target_names, include_none)
    intervals = None
    if confidence_level is not None:
        intervals = report_intervals(
            y_true, y_pred, sample_weight, confusion, confusion, kind, {},
            zero_division=zero_division, include_none=include_none,
            confidence_level=confidence_level, method=interval_method,
            n_resamples=n_resamples, random_state=random_state, verbose=verbose,
            instances=instances, row_names=row_names, accuracy_row=False,
            report_name="mlcm_classification_report")
    return classification_report_from_confusion(
        confusion, target_names=target_names, digits=digits, output_dict=output_dict,
        zero_division=zero_division, include_none=include_none, support_name="weight",
        accuracy_row=False, intervals=intervals)


def _by_subgroup(report, y_true, y_pred, subgroups, sample_weight, labels, *,
                 reject_label=None, output_dict=False, **keywords):
    """``report`` of each subgroup's instances (``subgroups=``), over the classes of all
    the data: a dict ``{subgroup: report}``, or the texts one after the other under a
    line naming the subgroup and its instances. Empty subgroups (unused categories) are
    left out with one warning."""
    n_samples = np.shape(y_true)[0] if hasattr(y_true, "shape") else len(y_true)
    codes, names, _ = subgroup_codes(subgroups, n_samples)
    if labels is None and np.ndim(y_true) == 1 and np.ndim(y_pred) == 1:
        try:  # every subgroup's report has the rows of all the data's classes
            labels = [label for label in unique_labels(y_true, y_pred)
                      if reject_label is None or label != reject_label]
        except (TypeError, ValueError):
            labels = None  # the report names what it refuses
    weight = None if sample_weight is None else np.asarray(sample_weight)
    rejecting = {} if reject_label is None else {"reject_label": reject_label}
    reports, texts, empty = {}, [], []
    for g, rows in enumerate(subgroup_rows(codes, len(names))):
        if not rows.size:
            empty.append(names[g])
            continue
        part = report(_safe_indexing(y_true, rows), _safe_indexing(y_pred, rows),
                      labels=labels, sample_weight=None if weight is None else weight[rows],
                      output_dict=output_dict, **rejecting, **keywords)
        if output_dict:
            reports[names[g]] = part
        else:
            texts.append(f"subgroup {names[g]} ({rows.size} instances)\n\n{part}")
    if empty:
        warn(f"{report.__name__}: {len(empty)} subgroup(s) have no instance "
             f"({empty[:5]}{'...' if len(empty) > 5 else ''}): they have no report.")
    return reports if output_dict else "\n".join(texts)
