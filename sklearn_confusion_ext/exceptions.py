"""Warnings of sklearn_confusion_ext, to filter by category (as :mod:`sklearn.exceptions`).

The undefined scores warn with scikit-learn's own
:class:`sklearn.exceptions.UndefinedMetricWarning`.
"""

__all__ = ["DegenerateIntervalWarning"]


class DegenerateIntervalWarning(UserWarning):
    """An interval whose resampled (or closed-form) distribution is a single value.

    The data cannot show the uncertainty there: a class 100 % right (every resample of
    it is 100 % right), a score that identical resamples leave unchanged. A proportion
    (accuracy, precision, recall, F) then gets Wilson's score interval of its trials
    instead of a point; any other score keeps its point, and the warning says so.

    Examples
    --------
    >>> import warnings
    >>> from sklearn_confusion_ext import score_confidence_interval
    >>> from sklearn_confusion_ext.exceptions import DegenerateIntervalWarning
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DegenerateIntervalWarning)
    ...     result = score_confidence_interval([0] * 20, [0] * 20, score="tcm_accuracy",
    ...                                        random_state=0)
    >>> result.estimate, round(result.low, 3), result.high
    (1.0, 0.839, 1.0)
    """
