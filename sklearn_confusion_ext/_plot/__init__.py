"""Displays, built like scikit-learn's ``sklearn.metrics`` Display classes."""

from .confusion_matrix import MLCMDisplay, TransportConfusionMatrixDisplay
from .posterior_intervals import PosteriorIntervalDisplay
from .posterior_simplex import PosteriorSimplexDisplay
from .ranking_comparison import RankingComparisonDisplay
from .score_intervals import ScoreIntervalDisplay

__all__ = [
    "MLCMDisplay",
    "PosteriorIntervalDisplay",
    "PosteriorSimplexDisplay",
    "RankingComparisonDisplay",
    "ScoreIntervalDisplay",
    "TransportConfusionMatrixDisplay",
]
