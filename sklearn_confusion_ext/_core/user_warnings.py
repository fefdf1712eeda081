"""Warnings that point at the user's line, however deep in the library they are raised."""

import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def warn(message, category=UserWarning):
    """``warnings.warn`` attributed to the first caller outside this package."""
    frame, level = sys._getframe(1), 2  # stacklevel 1 is this function
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


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
    ...     result = score_confidence_interval([0] * 20, [0] * 20, scoring="tcm_accuracy",
    ...                                        random_state=0)
    >>> result.estimate, round(result.low, 3), result.high
    (1.0, 0.839, 1.0)
    """
