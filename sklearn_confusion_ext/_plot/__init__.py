"""Displays, built like scikit-learn's ``sklearn.metrics`` Display classes."""

from .confusion_matrix import MLCMDisplay, TransportConfusionMatrixDisplay
from .posterior_intervals import PosteriorIntervalDisplay
from .ranking_comparison import RankingComparisonDisplay
from .score_intervals import ScoreIntervalDisplay

__all__ = [
    "MLCMDisplay",
    "PosteriorIntervalDisplay",
    "RankingComparisonDisplay",
    "ScoreIntervalDisplay",
    "TransportConfusionMatrixDisplay",
]
