"""scikit-learn compatible confusion matrices, measures and tests from recent papers.

Functions are called like :mod:`sklearn.metrics`: ``f(y_true, y_pred, *, labels=None,
sample_weight=None, ...)``.
"""

from ._mlcm import mlcm, multilabel_confusion_tensor
from ._mlcm_scores import (
    mlcm_classification_report,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_recall_fscore_support,
)
from ._reading import f1_ranking_disorder, prevalence_ranking
from ._transport import (
    subpixel_confusion_matrix,
    transport_confusion_matrix,
    transport_plan,
)
from ._transport_scores import (
    transport_accuracy_score,
    transport_classification_report,
    transport_multilabel_confusion_matrix,
    transport_precision_recall_fscore_support,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "f1_ranking_disorder",
    "mlcm",
    "mlcm_classification_report",
    "mlcm_multilabel_confusion_matrix",
    "mlcm_precision_recall_fscore_support",
    "multilabel_confusion_tensor",
    "prevalence_ranking",
    "subpixel_confusion_matrix",
    "transport_accuracy_score",
    "transport_classification_report",
    "transport_confusion_matrix",
    "transport_multilabel_confusion_matrix",
    "transport_plan",
    "transport_precision_recall_fscore_support",
]
