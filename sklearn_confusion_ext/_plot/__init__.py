"""Displays, built like scikit-learn's ``sklearn.metrics`` Display classes."""

from .class_distribution import ClassDistributionDisplay
from .comparison_simplex import ComparisonSimplexDisplay
from .confusion_matrix import MLCMDisplay, TransportConfusionMatrixDisplay
from .critical_difference import CriticalDifferenceDisplay
from .posterior_difference import PosteriorDifferenceDisplay
from .posterior_intervals import PosteriorIntervalDisplay
from .posterior_simplex import PosteriorSimplexDisplay
from .ranking_comparison import RankingComparisonDisplay
from .reliability import ReliabilityDisplay
from .risk_coverage import RiskCoverageDisplay
from .score_intervals import ScoreIntervalDisplay
from .subgroup_intervals import SubgroupIntervalDisplay
from .thresholds import ThresholdCurveDisplay

__all__ = [
    "ClassDistributionDisplay",
    "ComparisonSimplexDisplay",
    "CriticalDifferenceDisplay",
    "MLCMDisplay",
    "PosteriorDifferenceDisplay",
    "PosteriorIntervalDisplay",
    "PosteriorSimplexDisplay",
    "RankingComparisonDisplay",
    "ReliabilityDisplay",
    "RiskCoverageDisplay",
    "ScoreIntervalDisplay",
    "SubgroupIntervalDisplay",
    "ThresholdCurveDisplay",
    "TransportConfusionMatrixDisplay",
]
