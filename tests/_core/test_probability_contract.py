"""One contract for labels beside probabilities or scores: every public function that takes
them (the registry's functions of ``(y_true, y_prob)`` or ``(y_true, y_score)``, and the
other readers of the one check, ``sklearn_confusion_ext._core.probabilities``) gives the
same error, of the same type and words, to the same bad input.

Functions read their input as probabilities (in [0, 1], rows summing to 1) or as scores
(any finite numbers, a ``decision_function``); the words of a message say which ("scores
must be finite", "probabilities must be finite"), so the messages are compared within each
reading, the argument's name (``y_prob``, ``y_score``, ``y_pred``) left out.
"""

import inspect
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from test_common import PROBABILITY_KINDS, REGISTRY

import sklearn_confusion_ext as sce

# The positive class of a 1-D y_prob without pos_label: scikit-learn's rule (classes {0, 1}
# or {-1, 1}, else pos_label is needed) or the second of the two classes (a classifier's
# second column). Every registered function of probabilities must be declared here.
DEFAULT_POSITIVE = {
    "top_k_accuracy_score": "last",
    "top_k_confusion_matrix": "last",
    "reliability_curve": "scikit-learn",
    "expected_calibration_error": "scikit-learn",
    "brier_score_decomposition": "scikit-learn",
    "calibration_in_the_large": "scikit-learn",
    "calibration_test": "scikit-learn",
    "threshold_confusion_matrices": "scikit-learn",
    "risk_coverage_curve": "last",
}


def _registered():
    """The registered functions of labels beside probabilities (or scores). expected_cost
    takes probabilities as y_pred among the targets of every kind (soft labels too), read
    by the targets' reader (``_core/targets.py``), not by this one."""
    return {name: entry for name, entry in REGISTRY.items()
            if set(entry.targets) & set(PROBABILITY_KINDS)
            and entry.target_params[:1] == ("y_true",)
            and entry.target_params[1:2] in (("y_prob",), ("y_score",))}


class Reader:
    """A public function of (y_true, y_prob): how it is called and what it takes."""

    def __init__(self, name, call, argument, mode, *, positive="scikit-learn",
                 pos_label=False, labels=True, sample_weight=True, y_true=True,
                 one_class=True):
        self.name, self.call, self.argument = name, call, argument
        self.mode, self.positive, self.pos_label = mode, positive, pos_label
        self.labels, self.sample_weight, self.y_true = labels, sample_weight, y_true
        self.one_class = one_class  # takes a y_true of one class (a fold of one)

    def reading(self, y_prob):
        """"scores" or "probabilities": how it reads ``y_prob``."""
        return self.mode(y_prob) if callable(self.mode) else self.mode


def _registry_reader(name, entry):
    function = getattr(sce, name)
    parameters = inspect.signature(function).parameters
    return Reader(name, function, entry.target_params[1],
                  "scores" if "scores" in entry.targets else "probabilities",
                  positive=DEFAULT_POSITIVE[name], pos_label="pos_label" in parameters,
                  labels=entry.labels, sample_weight=entry.sample_weight)


def _display_at_threshold(y_true, y_pred, **keywords):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        return sce.TransportConfusionMatrixDisplay.from_predictions(
            y_true, y_pred, threshold=0.5, **keywords)
    finally:
        plt.close("all")


def _one_dimensional(y):
    try:
        return not sp.issparse(y) and np.ndim(y) == 1
    except ValueError:  # a ragged list: rows
        return False


READERS = [
    *(_registry_reader(name, entry) for name, entry in _registered().items()),
    # The other readers of the one check: the top label of threshold_confusion_matrices,
    # the Bayes decisions (no y_true: by position) and the Display at a threshold (a 1-D
    # score read at it, or 2-D probabilities' top label).
    Reader("threshold_confusion_matrices[top_label]",
           lambda y_true, y_score, **k: sce.threshold_confusion_matrices(
               y_true, y_score, target="top_label", **k), "y_score", "probabilities",
           positive="last"),
    Reader("cost_optimal_predictions",
           lambda y_true, y_prob, **k: sce.cost_optimal_predictions(
               y_prob, [[0, 1], [1, 0]], **k), "y_prob", "probabilities", labels=False,
           sample_weight=False, y_true=False),
    Reader("TransportConfusionMatrixDisplay.from_predictions[threshold]",
           _display_at_threshold, "y_pred",
           lambda y: "scores" if _one_dimensional(y) else "probabilities",
           positive="classes", pos_label=True, one_class=False),
]

Y = [0, 1, 1]
P = [[0.8, 0.2], [0.3, 0.7], [0.5, 0.5]]

# name: (y_true, y_prob, keywords, what the reader must take, the error's words). What it
# must take: "probabilities" (read as probabilities), "no y_true" (read without y_true
# too: 2-D, nothing of the classes), "labels", "sample_weight", "pos_label", "rule" (a
# 1-D default positive class by scikit-learn's rule), "one class" (a y_true of one class:
# the Display at a threshold refuses it first, as it decides between two).
HOSTILE = {
    "strings": (Y, ["a", "b", "c"], {}, (), "must hold numbers .*got values such as 'a'"),
    "strings and numbers": (Y, [0.1, "b", 0.3], {}, (), "got strings among them"),
    "object columns": (Y, np.array([[0.5, "a"]] * 3, dtype=object), {}, ("no y_true",),
                       "2-D with dtype object"),
    "ragged": (Y, [[0.5, 0.5], [1.0], [0.5, 0.5]], {}, ("no y_true",), "ragged list"),
    "empty": ([], [], {}, (), "is empty; at least one sample"),
    "empty 2-D": ([], np.empty((0, 2)), {}, ("no y_true",), "is empty; at least one sample"),
    "no columns": (Y, np.empty((3, 0)), {}, ("no y_true",), "has no columns"),
    "nan 1-D": (Y, [0.1, np.nan, 0.3], {}, (), r"contains nan \(first at row 1\)"),
    "infinity 1-D": (Y, [0.1, -np.inf, 0.3], {}, (), r"contains infinity \(first at row 1"),
    "nan 2-D": (Y, [[0.8, 0.2], [0.3, 0.7], [np.nan, 0.5]], {}, ("no y_true",),
                r"contains nan \(first at row 2\)"),
    "infinity 2-D": (Y, [[0.8, 0.2], [0.3, np.inf], [0.5, 0.5]], {}, ("no y_true",),
                     r"contains infinity \(first at row 1\)"),
    "negative": (Y, [[0.8, 0.2], [1.3, -0.3], [0.5, 0.5]], {},
                 ("probabilities", "no y_true"), r"negative entries \(min -0.3, first at row 1"),
    "outside [0, 1]": (Y, [0.1, 1.5, 0.3], {}, ("probabilities",),
                       r"outside \[0, 1\]: row 1 holds 1.5"),
    "a row of zeros": (Y, [[0.8, 0.2], [0.0, 0.0], [0.5, 0.5]], {},
                       ("probabilities", "no y_true"), "row 1 sums to 0"),
    "a row beyond the largest float": (Y, [[0.8, 0.2], [1e308, 1e308], [0.5, 0.5]], {},
                                       ("probabilities", "no y_true"),
                                       "row 1 sums beyond the largest float"),
    "more samples": ([0, 1], P, {}, (), "same number of samples; got 2 and 3"),
    "2-D y_true": ([[0, 1], [1, 0], [1, 0]], P, {}, (),
                   r"y_true must be 1-D class labels .*shape \(3, 2\)"),
    "more columns than classes": (Y, [[0.6, 0.2, 0.2]] * 3, {}, (),
                                  "y_true holds 2 distinct class label.*has 3 columns"),
    "three classes beside 1-D": ([0, 1, 2], [0.2, 0.4, 0.5], {}, (),
                                 "y_true holds 3 classes .* 1-D .* of one class of two"),
    "sample_weight too short": (Y, P, {"sample_weight": [1, 1]}, ("sample_weight",),
                                "sample_weight has 2 entries but y_true has 3 samples"),
    "negative sample_weight": (Y, P, {"sample_weight": [1, -1, 1]}, ("sample_weight",),
                               "sample_weight has negative entries"),
    "nan sample_weight": (Y, P, {"sample_weight": [1, np.nan, 1]}, ("sample_weight",),
                          "sample_weight contains NaN"),
    "2-D sample_weight": (Y, P, {"sample_weight": [[1], [1], [1]]}, ("sample_weight",),
                          "sample_weight must be 1-D"),
    "a class not in labels": ([0, 1, 2], [[0.6, 0.4]] * 3, {"labels": [0, 1]}, ("labels",),
                              r"class labels \[2\] that are not in labels \[0, 1\]"),
    "a class not in labels, 1-D": ([0, 1, 2], [0.2, 0.4, 0.5], {"labels": [0, 1]},
                                   ("labels",), r"class labels \[2\] that are not in labels"),
    "string classes without pos_label": (["a", "b", "b"], [0.2, 0.4, 0.5], {}, ("rule",),
                                         "pos_label is not specified"),
    "pos_label not a class": (Y, [0.2, 0.4, 0.5], {"pos_label": 7}, ("pos_label",),
                              r"pos_label=7 is not a class of y_true \[0, 1\]"),
    "pos_label of another type": ([0, 0, 0], [0.2, 0.4, 0.5], {"pos_label": "x"},
                                  ("pos_label", "one class"),
                                  r"pos_label='x' is not a class of y_true \[0\]"),
    "sparse beyond the budget": (Y, sp.csr_array((3, 200_000)), {}, (),
                                 "read densely.*above the package's budget"),
}


def _frames():
    pandas = pytest.importorskip("pandas")
    return pandas.DataFrame(P, columns=["x", "y"])


def _takes(reader, needs, y_prob, keywords):
    if "probabilities" in needs and reader.reading(y_prob) != "probabilities":
        return False
    if not reader.y_true and ("no y_true" not in needs or keywords):
        return False
    if "labels" in needs and not reader.labels:
        return False
    if "sample_weight" in needs and not reader.sample_weight:
        return False
    if "pos_label" in needs and not reader.pos_label:
        return False
    if "one class" in needs and not reader.one_class:
        return False
    return "rule" not in needs or reader.positive != "last"


def _error(reader, y_true, y_prob, keywords):
    """``(type, message)`` of the reader's error, the argument's name written ARG."""
    with warnings.catch_warnings(), sce.config_context(max_matrix_mib=1):
        warnings.simplefilter("ignore")
        try:
            reader.call(y_true, y_prob, **keywords)
        except (TypeError, ValueError) as error:
            return type(error).__name__, re.sub(rf"\b{reader.argument}\b", "ARG", str(error))
    return None, f"{reader.name} accepted it"


def test_every_registered_function_of_probabilities_is_read_by_the_contract():
    registered = set(_registered())
    assert registered == set(DEFAULT_POSITIVE), "declare its default positive class above"
    assert {"threshold_confusion_matrices", "risk_coverage_curve",
            "calibration_test", "top_k_accuracy_score"} <= registered


@pytest.mark.parametrize("case", [*HOSTILE, "DataFrame columns naming no class"])
def test_the_same_bad_input_gets_the_same_error_everywhere(case):
    if case == "DataFrame columns naming no class":
        y_true, y_prob, keywords, needs, words = Y, _frames(), {}, (), \
            r"labels holds strings \(\['x', 'y'\]\) but the targets hold numbers"
    else:
        y_true, y_prob, keywords, needs, words = HOSTILE[case]
    by_reading = {}
    for reader in READERS:
        if _takes(reader, needs, y_prob, keywords):
            found = _error(reader, y_true, y_prob, keywords)
            by_reading.setdefault(reader.reading(y_prob), {})[reader.name] = found
    assert by_reading, "no reader takes this input"
    for reading, errors in by_reading.items():
        assert len(set(errors.values())) == 1, (reading, errors)
        kind, message = next(iter(errors.values()))
        assert kind == "ValueError" and re.search(words, message), (reading, errors)
    if len(by_reading) == 2:  # scores and probabilities: the same words but the reading's
        (_, scores), (_, probabilities) = (next(iter(by_reading[r].values()))
                                           for r in ("scores", "probabilities"))
        assert re.sub(r"scores?|probabilit(y|ies)( in \[0, 1\])?", "", scores) == \
            re.sub(r"scores?|probabilit(y|ies)( in \[0, 1\])?", "", probabilities)


def test_scores_take_what_probabilities_refuse():
    # The readings differ only where they must: a decision_function's scores are any
    # finite numbers, 2-D rows of any sum.
    y_score = [[2.0, -1.0], [-0.5, 3.0], [0.0, 0.0]]
    for reader in READERS:
        if reader.reading(y_score) == "scores":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                reader.call(Y, y_score)
