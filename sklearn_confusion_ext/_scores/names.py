"""The one table of score names.

Every function that takes a score by name reads it here: :func:`get_scorer` and
:func:`get_scorer_names`, :func:`score_confidence_interval`, :func:`compare_scores`,
:class:`ScoreIntervalDisplay` (its ``scoring`` options) and the docs. A name says which matrix
(``tcm_``, ``mlcm_``), which reading (accuracy, precision, recall, F1) and which average
(``_micro``, ``_macro``, ``_weighted``); precision, recall and F1 without an average are per
class, one value per class, as ``average=None`` gives them. The measures of the
generalized-means paper and the quantification errors have names of their own.

scikit-learn's scorer names (``accuracy``, ``f1_macro``, ``neg_log_loss`` ...) are accepted
by :func:`get_scorer` beside these, and give scikit-learn's own scorers; every function that
resamples a score takes them too (:mod:`.resolved`), as scikit-learn's metric of the
predictions. The two sets are
disjoint (this library's names carry the matrix, ``tcm_accuracy``, or name measures
scikit-learn has not); were a name in both, scikit-learn's meaning would win in
:func:`get_scorer`, so that it stays a drop-in replacement of scikit-learn's.
"""

from dataclasses import dataclass

from .._core.params import AVERAGES

READINGS = ("precision", "recall", "f1")
MATRICES = ("tcm", "mlcm")
MEASURES = ("generalized_means", "symmetric_balanced_accuracy", "cohen_kappa",
            "neg_correlation_distance", "neg_confusion_entropy")
QUANTIFICATION_ERRORS = ("neg_absolute_error", "neg_normalized_absolute_error",
                         "neg_relative_absolute_error", "neg_kl_divergence",
                         "neg_normalized_kl_divergence")


@dataclass(frozen=True)
class ScoreName:
    """What a score name means: ``family`` is ``"tcm"``, ``"mlcm"``, ``"measure"`` or
    ``"quantification"``; ``reading`` the reading of a matrix (or the measure's name);
    ``average`` the average of precision, recall and F1 (None: per class)."""

    family: str
    reading: str
    average: str | None = None

    @property
    def per_class(self):
        """Whether the name gives one value per class (precision, recall, F1, no average)."""
        return self.reading in READINGS and self.average is None

    @property
    def of_targets(self):
        """Whether the name scores targets (the quantification errors score prevalences
        of an estimator's predictions: scorers only)."""
        return self.family != "quantification"


def _table():
    table = {}
    for matrix in MATRICES:
        table[f"{matrix}_accuracy"] = ScoreName(matrix, "accuracy")
        for reading in READINGS:
            table[f"{matrix}_{reading}"] = ScoreName(matrix, reading)
            for average in AVERAGES:
                table[f"{matrix}_{reading}_{average}"] = ScoreName(matrix, reading, average)
    table.update((name, ScoreName("measure", name)) for name in MEASURES)
    table.update((name, ScoreName("quantification", name)) for name in QUANTIFICATION_ERRORS)
    return table


SCORE_NAMES = _table()
# One number per call: the names of get_scorer (a scorer returns one number).
SCALAR_SCORE_NAMES = tuple(name for name, meaning in SCORE_NAMES.items()
                           if not meaning.per_class)
# One value per class: the names ScoreIntervalDisplay draws (with their macro average).
PER_CLASS_SCORE_NAMES = tuple(name for name, meaning in SCORE_NAMES.items()
                              if meaning.per_class)


def sklearn_scorer_names():
    """The scorer names of the installed scikit-learn (:func:`get_scorer` accepts them)."""
    from sklearn.metrics import get_scorer_names

    return frozenset(get_scorer_names())


def score_name(name, owner, *, scalar=False, of_targets=False, extra_names=()):
    """The :class:`ScoreName` of ``name``; a ValueError naming ``owner`` (a ``scoring``) where
    the name is not in the table, or gives values per class where ``scalar`` is asked, or
    scores prevalences where ``of_targets`` is asked."""
    meaning = SCORE_NAMES.get(name) if isinstance(name, str) else None
    accepted = [n for n, m in SCORE_NAMES.items()
                if not (scalar and m.per_class) and not (of_targets and not m.of_targets)]
    if meaning is None or name not in accepted:
        if meaning is not None and meaning.per_class:
            reason = (f"{name!r} gives one value per class; {owner} needs one number: add an "
                      f"average ({', '.join(f'{name}_{a}' for a in AVERAGES)})")
        elif meaning is not None:
            reason = (f"{name!r} scores the prevalences of an estimator's predictions (a "
                      f"scorer of get_scorer), not targets")
        else:
            reason = f"{name!r} is not a score name of sklearn_confusion_ext"
        others = ""
        if extra_names:
            others = (f"; and scikit-learn's {len(extra_names)} scorer names "
                      f"({', '.join(sorted(extra_names)[:3])}, ...: "
                      "sklearn.metrics.get_scorer_names())")
        raise ValueError(f"{reason}. {owner} takes one of: {', '.join(accepted)}{others}.")
    return meaning
