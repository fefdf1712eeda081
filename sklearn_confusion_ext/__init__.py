"""scikit-learn compatible confusion matrices, measures and tests from recent papers.

Functions are called like :mod:`sklearn.metrics`: ``f(y_true, y_pred, *, labels=None,
sample_weight=None, ...)``.
"""

from ._core.accumulator import ConfusionAccumulator
from ._core.config import config_context, get_config, set_config
from ._matrices.frame import confusion_frame
from ._matrices.mlcm import (
    mlcm,
    mlcm_categories,
    mlcm_counts_from_confusion,
    multilabel_confusion_tensor,
    normalize_confusion_matrix,
)
from ._matrices.transport import (
    subpixel_confusion_matrix,
    transport_confusion_matrix,
    transport_plan,
)
from ._plot import (
    MLCMDisplay,
    PosteriorIntervalDisplay,
    PosteriorSimplexDisplay,
    RankingComparisonDisplay,
    ScoreIntervalDisplay,
    TransportConfusionMatrixDisplay,
)
from ._plot.class_distribution import ClassDistributionDisplay
from ._plot.comparison_simplex import ComparisonSimplexDisplay
from ._plot.critical_difference import CriticalDifferenceDisplay
from ._plot.posterior_difference import PosteriorDifferenceDisplay
from ._properties.audit import AuditResult, audit_measure
from ._properties.inconsistency import (
    DiscriminatingTripletsResult,
    InconsistencyResult,
    discriminating_triplets,
    indistinguishable_measures,
    measure_inconsistency,
    measure_inconsistency_from_confusion,
)
from ._properties.quantification_audit import audit_quantification_measure
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
from ._quantification.evaluation import QuantifierEvaluation, evaluate_quantifier
from ._quantification.protocols import prevalence_protocol_samples
from ._quantification.scorers import make_quantification_scorer
from ._reading.confused_pairs import ConfusedPairsResult, most_confused_pairs
from ._reading.rankings import f1_ranking_disorder, prevalence_ranking, prevalence_ranking_breaks
from ._scores.from_confusion import (
    accuracy_from_confusion,
    averaged_binary_measure,
    balanced_accuracy_from_confusion,
    cohen_kappa_from_confusion,
    confusion_entropy_from_confusion,
    correlation_distance_from_confusion,
    fbeta_from_confusion,
    generalized_means_from_confusion,
    jaccard_from_confusion,
    matthews_corrcoef_from_confusion,
    precision_recall_fscore_support_from_confusion,
    symmetric_balanced_accuracy_from_confusion,
)
from ._scores.from_predictions import (
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_entropy,
    correlation_distance,
    generalized_means_score,
    matthews_corrcoef,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_recall_fscore_support,
    symmetric_balanced_accuracy_score,
    transport_accuracy_score,
    transport_multilabel_confusion_matrix,
    transport_precision_recall_fscore_support,
)
from ._scores.reports import mlcm_classification_report, transport_classification_report
from ._scores.scorers import get_scorer, get_scorer_names, make_mlcm_scorer, make_transport_scorer
from ._statistics.cross_validated import (
    BayesianCorrelatedTTestResult,
    CrossValidatedTestResult,
    compare_cv,
    compare_cv_scores,
)
from ._statistics.friedman import (
    FriedmanPosthocResult,
    FriedmanTestResult,
    friedman_posthoc,
    friedman_test,
)
from ._statistics.hierarchical import BayesianHierarchicalResult, bayesian_hierarchical_test
from ._statistics.intervals import ConfidenceIntervalResult, score_confidence_interval
from ._statistics.paired import ComparisonResult, compare_scores
from ._statistics.posterior import ConfusionPosterior, dirichlet_posterior
from ._statistics.signed_rank import BayesianSignedRankResult, bayesian_signed_rank_test
from ._statistics.table_tests import (
    MarginalHomogeneityResult,
    McNemarResult,
    PosthocResult,
    bhapkar_test,
    marginal_homogeneity_posthoc,
    mcnemar_table,
    mcnemar_test,
    stuart_maxwell_test,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "AuditResult",
    "BayesianCorrelatedTTestResult",
    "BayesianHierarchicalResult",
    "BayesianSignedRankResult",
    "ComparisonResult",
    "ComparisonSimplexDisplay",
    "CriticalDifferenceDisplay",
    "CrossValidatedTestResult",
    "ConfidenceIntervalResult",
    "ClassDistributionDisplay",
    "ConfusedPairsResult",
    "ConfusionAccumulator",
    "confusion_frame",
    "ConfusionPosterior",
    "DiscriminatingTripletsResult",
    "FriedmanPosthocResult",
    "FriedmanTestResult",
    "InconsistencyResult",
    "MLCMDisplay",
    "MarginalHomogeneityResult",
    "McNemarResult",
    "PosteriorDifferenceDisplay",
    "PosteriorIntervalDisplay",
    "PosteriorSimplexDisplay",
    "PosthocResult",
    "RankingComparisonDisplay",
    "ScoreIntervalDisplay",
    "TransportConfusionMatrixDisplay",
    "absolute_error",
    "accuracy_from_confusion",
    "balanced_accuracy_from_confusion",
    "balanced_accuracy_score",
    "cohen_kappa_from_confusion",
    "cohen_kappa_score",
    "fbeta_from_confusion",
    "jaccard_from_confusion",
    "matthews_corrcoef",
    "matthews_corrcoef_from_confusion",
    "averaged_binary_measure",
    "audit_measure",
    "audit_quantification_measure",
    "bhapkar_test",
    "config_context",
    "confusion_entropy",
    "confusion_entropy_from_confusion",
    "correlation_distance",
    "correlation_distance_from_confusion",
    "dirichlet_posterior",
    "score_confidence_interval",
    "discordance_ratio",
    "discriminating_triplets",
    "f1_ranking_disorder",
    "evaluate_quantifier",
    "QuantifierEvaluation",
    "most_confused_pairs",
    "generalized_means_from_confusion",
    "generalized_means_score",
    "get_config",
    "get_scorer",
    "get_scorer_names",
    "indistinguishable_measures",
    "kl_divergence",
    "make_mlcm_scorer",
    "make_quantification_scorer",
    "max_normalized_kl_divergence",
    "max_quantification_error",
    "project_prevalence",
    "normalized_pearson_divergence",
    "make_transport_scorer",
    "marginal_homogeneity_posthoc",
    "measure_inconsistency",
    "measure_inconsistency_from_confusion",
    "bayesian_hierarchical_test",
    "bayesian_signed_rank_test",
    "compare_cv",
    "compare_cv_scores",
    "compare_scores",
    "friedman_posthoc",
    "friedman_test",
    "mcnemar_table",
    "mcnemar_test",
    "mlcm",
    "mlcm_categories",
    "mlcm_classification_report",
    "mlcm_multilabel_confusion_matrix",
    "mlcm_counts_from_confusion",
    "normalize_confusion_matrix",
    "mlcm_precision_recall_fscore_support",
    "multilabel_confusion_tensor",
    "normalized_absolute_error",
    "normalized_kl_divergence",
    "normalized_relative_absolute_error",
    "normalized_squared_error",
    "pearson_divergence",
    "precision_recall_fscore_support_from_confusion",
    "prevalence",
    "prevalence_protocol_samples",
    "prevalence_ranking",
    "prevalence_ranking_breaks",
    "relative_absolute_error",
    "set_config",
    "squared_error",
    "stuart_maxwell_test",
    "subpixel_confusion_matrix",
    "symmetric_balanced_accuracy_from_confusion",
    "symmetric_balanced_accuracy_score",
    "transport_accuracy_score",
    "transport_classification_report",
    "transport_confusion_matrix",
    "transport_multilabel_confusion_matrix",
    "transport_plan",
    "transport_precision_recall_fscore_support",
]


# The public submodules of self-contained families (their names are in the flat namespace too).
from . import quantification, stats  # noqa: E402, F401
