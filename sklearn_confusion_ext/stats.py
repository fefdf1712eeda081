"""The statistical tests and posteriors: one place to find them, as :mod:`scipy.stats`.

The statistics paper's tests of the off-diagonal cells (McNemar, Stuart-Maxwell, Bhapkar and
their one-vs-all post-hoc tests), the Dirichlet posterior of a confusion matrix, the
intervals and paired comparisons of a score on one test set, the comparisons across
cross-validation folds and across data sets, and the results they return. The same names
are in the flat namespace (``sklearn_confusion_ext.mcnemar_test``); this module gathers the
family, as :mod:`scipy.stats.contingency` does:

>>> from sklearn_confusion_ext import stats
>>> result = stats.mcnemar_test([[10, 5], [3, 12]])
>>> result.statistic, round(result.pvalue, 4)
(5.0, 0.7266)
"""

from ._statistics.cross_validated import (
    BayesianCorrelatedTTestResult,
    CrossValidatedTestResult,
    compare_cv,
    compare_cv_scores,
)
from ._statistics.cv_reports import (
    CrossValidatedConfusionResult,
    CrossValidatedIntervalResult,
    cross_validated_confusion_matrices,
    cross_validated_score_interval,
    cross_validation_report,
)
from ._statistics.friedman import (
    FriedmanPosthocResult,
    FriedmanTestResult,
    friedman_posthoc,
    friedman_test,
)
from ._statistics.hierarchical import (
    BayesianHierarchicalResult,
    bayesian_hierarchical_test,
)
from ._statistics.intervals import (
    ConfidenceIntervalResult,
    score_confidence_interval,
)
from ._statistics.paired import (
    ComparisonResult,
    compare_scores,
)
from ._statistics.posterior import (
    ConfusionPosterior,
    dirichlet_posterior,
)
from ._statistics.power import (
    PowerResult,
    bootstrap_power,
    corrected_ttest_power,
    mcnemar_power,
    minimum_detectable_difference,
    required_sample_size,
)
from ._statistics.several_models import (
    CochranQResult,
    NoInformationRateResult,
    accuracy_vs_no_information_rate,
    cochran_q_test,
)
from ._statistics.signed_rank import (
    BayesianSignedRankResult,
    bayesian_signed_rank_test,
)
from ._statistics.subgroups import (
    SubgroupResult,
    score_by_subgroup,
)
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

__all__ = [
    # Tests of the off-diagonal cells of one matrix
    "mcnemar_test",
    "McNemarResult",
    "mcnemar_table",
    "stuart_maxwell_test",
    "bhapkar_test",
    "MarginalHomogeneityResult",
    "marginal_homogeneity_posthoc",
    "PosthocResult",
    # The posterior of a matrix
    "dirichlet_posterior",
    "ConfusionPosterior",
    # A score's interval, and two models on one test set
    "score_confidence_interval",
    "ConfidenceIntervalResult",
    "compare_scores",
    "ComparisonResult",
    # Several models on one test set
    "cochran_q_test",
    "CochranQResult",
    "accuracy_vs_no_information_rate",
    "NoInformationRateResult",
    # One model's score by subgroup
    "score_by_subgroup",
    "SubgroupResult",
    # Two models across cross-validation folds
    "compare_cv",
    "compare_cv_scores",
    "CrossValidatedTestResult",
    "BayesianCorrelatedTTestResult",
    # One model across cross-validation folds: its matrices, its score, its report
    "cross_validated_confusion_matrices",
    "CrossValidatedConfusionResult",
    "cross_validated_score_interval",
    "CrossValidatedIntervalResult",
    "cross_validation_report",
    # How many instances: power and detectable differences
    "mcnemar_power",
    "minimum_detectable_difference",
    "required_sample_size",
    "bootstrap_power",
    "corrected_ttest_power",
    "PowerResult",
    # Several models over several data sets
    "friedman_test",
    "FriedmanTestResult",
    "friedman_posthoc",
    "FriedmanPosthocResult",
    "bayesian_signed_rank_test",
    "BayesianSignedRankResult",
    "bayesian_hierarchical_test",
    "BayesianHierarchicalResult",
]
