"""scikit-learn compatible confusion matrices, measures and tests from recent papers.

Functions are called like :mod:`sklearn.metrics`: ``f(y_true, y_pred, *, labels=None,
sample_weight=None, ...)``.
"""

from . import quantification, stats
from ._calibration.brier import BrierDecompositionResult, brier_score_decomposition
from ._calibration.curves import (
    ReliabilityCurveResult,
    expected_calibration_error,
    reliability_curve,
)
from ._calibration.prevalence import CalibrationInTheLargeResult, calibration_in_the_large
from ._calibration.testing import CalibrationTestResult, calibration_test
from ._core.accumulator import ConfusionAccumulator
from ._core.config import config_context, get_config, set_config
from ._decisions.abstention import RiskCoverageResult, risk_coverage_curve
from ._decisions.cost import cost_optimal_predictions, expected_cost, make_cost_scorer
from ._decisions.thresholds import ThresholdConfusionResult, threshold_confusion_matrices
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
    ClassDistributionDisplay,
    ComparisonSimplexDisplay,
    CriticalDifferenceDisplay,
    MLCMDisplay,
    PosteriorDifferenceDisplay,
    PosteriorIntervalDisplay,
    PosteriorSimplexDisplay,
    RankingComparisonDisplay,
    ReliabilityDisplay,
    RiskCoverageDisplay,
    ScoreIntervalDisplay,
    SubgroupIntervalDisplay,
    ThresholdCurveDisplay,
    TransportConfusionMatrixDisplay,
)
from ._properties.audit import AuditResult, audit_measure
from ._properties.inconsistency import (
    DiscriminatingTripletsResult,
    InconsistencyResult,
    discriminating_triplets,
    indistinguishable_measures,
    measure_inconsistency,
    measure_inconsistency_from_confusion,
)
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
from ._scores.top_k import TopKConfusionResult, top_k_accuracy_score, top_k_confusion_matrix

# Two self-contained families are gathered in public submodules (as sklearn.metrics.cluster)
# and handed on flat: a new name of either is added there, in its family's __all__.
from .quantification import *  # noqa: F403
from .stats import *  # noqa: F403

__version__ = "0.1.0.dev0"

__all__ = [
    "transport_confusion_matrix",
    "subpixel_confusion_matrix",
    "transport_plan",
    "mlcm",
    "mlcm_categories",
    "multilabel_confusion_tensor",
    "mlcm_counts_from_confusion",
    "normalize_confusion_matrix",
    "confusion_frame",
    "ConfusionAccumulator",
    "transport_accuracy_score",
    "transport_precision_recall_fscore_support",
    "transport_multilabel_confusion_matrix",
    "mlcm_precision_recall_fscore_support",
    "mlcm_multilabel_confusion_matrix",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "matthews_corrcoef",
    "generalized_means_score",
    "symmetric_balanced_accuracy_score",
    "correlation_distance",
    "confusion_entropy",
    "top_k_accuracy_score",
    "accuracy_from_confusion",
    "balanced_accuracy_from_confusion",
    "cohen_kappa_from_confusion",
    "fbeta_from_confusion",
    "jaccard_from_confusion",
    "matthews_corrcoef_from_confusion",
    "precision_recall_fscore_support_from_confusion",
    "generalized_means_from_confusion",
    "symmetric_balanced_accuracy_from_confusion",
    "correlation_distance_from_confusion",
    "confusion_entropy_from_confusion",
    "averaged_binary_measure",
    "transport_classification_report",
    "mlcm_classification_report",
    "reliability_curve",
    "expected_calibration_error",
    "brier_score_decomposition",
    "calibration_in_the_large",
    "calibration_test",
    "threshold_confusion_matrices",
    "risk_coverage_curve",
    "expected_cost",
    "cost_optimal_predictions",
    "make_cost_scorer",
    "get_scorer",
    "get_scorer_names",
    "make_transport_scorer",
    "make_mlcm_scorer",
    "most_confused_pairs",
    "prevalence_ranking",
    "prevalence_ranking_breaks",
    "f1_ranking_disorder",
    "top_k_confusion_matrix",
    "audit_measure",
    "measure_inconsistency",
    "measure_inconsistency_from_confusion",
    "indistinguishable_measures",
    "discriminating_triplets",
    # sklearn_confusion_ext.stats and sklearn_confusion_ext.quantification: their functions
    # here, their result classes under "Results" below (doc/api/results.rst)
    *(name for name in stats.__all__ if not isinstance(getattr(stats, name), type)),
    *(name for name in quantification.__all__
      if not isinstance(getattr(quantification, name), type)),
    # Results: what the functions above return, in the order of their sections
    "ReliabilityCurveResult",
    "BrierDecompositionResult",
    "CalibrationInTheLargeResult",
    "CalibrationTestResult",
    "ThresholdConfusionResult",
    "RiskCoverageResult",
    "ConfusedPairsResult",
    "TopKConfusionResult",
    "AuditResult",
    "InconsistencyResult",
    "DiscriminatingTripletsResult",
    *(name for name in stats.__all__ if isinstance(getattr(stats, name), type)),
    *(name for name in quantification.__all__ if isinstance(getattr(quantification, name), type)),
    "TransportConfusionMatrixDisplay",
    "MLCMDisplay",
    "ScoreIntervalDisplay",
    "SubgroupIntervalDisplay",
    "PosteriorIntervalDisplay",
    "PosteriorSimplexDisplay",
    "PosteriorDifferenceDisplay",
    "ComparisonSimplexDisplay",
    "CriticalDifferenceDisplay",
    "RankingComparisonDisplay",
    "ClassDistributionDisplay",
    "ReliabilityDisplay",
    "RiskCoverageDisplay",
    "ThresholdCurveDisplay",
    "get_config",
    "set_config",
    "config_context",
]

