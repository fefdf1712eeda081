"""Quantification: estimating class prevalences and measuring the error of an estimate.

The family of Sebastiani's "Evaluation measures for quantification" under names that read
as quantification at the call site. The same functions are in the flat namespace
(``sklearn_confusion_ext.absolute_error``) as a drop-in beside :mod:`sklearn.metrics`, where
``absolute_error`` or ``squared_error`` could be mistaken for regression metrics; import
them from here to make the meaning plain, as :mod:`sklearn.metrics.cluster` does:

>>> from sklearn_confusion_ext import quantification as q
>>> round(q.absolute_error([0.5, 0.3, 0.2], [0.4, 0.4, 0.2]), 4)
0.0667
>>> q.absolute_error is __import__("sklearn_confusion_ext").absolute_error
True
"""

from ._properties.quantification_audit import (
    audit_quantification_measure,
)
from ._quantification.errors import (
    absolute_error,
    discordance_ratio,
    kl_divergence,
    max_normalized_kl_divergence,
    max_quantification_error,
    normalized_absolute_error,
    normalized_kl_divergence,
    normalized_pearson_divergence,
    normalized_relative_absolute_error,
    normalized_squared_error,
    pearson_divergence,
    prevalence,
    project_prevalence,
    relative_absolute_error,
    squared_error,
)
from ._quantification.evaluation import (
    QuantifierEvaluation,
    evaluate_quantifier,
)
from ._quantification.protocols import (
    prevalence_protocol_samples,
)
from ._quantification.scorers import (
    make_quantification_scorer,
)

__all__ = [
    # The errors of an estimated prevalence, and their normalized forms
    "absolute_error",
    "normalized_absolute_error",
    "relative_absolute_error",
    "normalized_relative_absolute_error",
    "squared_error",
    "normalized_squared_error",
    "discordance_ratio",
    "kl_divergence",
    "normalized_kl_divergence",
    "pearson_divergence",
    "max_normalized_kl_divergence",
    "normalized_pearson_divergence",
    "max_quantification_error",
    # Prevalences
    "prevalence",
    "project_prevalence",
    # Scoring and evaluating a quantifier
    "make_quantification_scorer",
    "prevalence_protocol_samples",
    "evaluate_quantifier",
    "QuantifierEvaluation",
    # Whether a measure has the properties the paper asks of one
    "audit_quantification_measure",
]
