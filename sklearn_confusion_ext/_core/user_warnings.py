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


# The data a warning of warn_once was said about, with the warning filters it was said
# under: the last few only.
_SAID = {}
_MOST_SAID = 64


def warn_once(message, category, about):
    """:func:`warn`, but once for the same ``about`` (a key of the data the warning is
    about, e.g. a table of scores) while the warning filters stay as they are: three
    functions called on one table say what is wrong with the table once, where each call
    from its own line (or notebook cell) would say it again. Filters that ask for every
    warning ("always", "error") get every one, and changing the filters (a
    ``warnings.catch_warnings`` block) forgets what was said, as Python's own
    once-per-location registry does."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    key = (category, about)
    filters = (id(warnings.filters), tuple(warnings.filters))
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    lineno = frame.f_lineno if frame is not None else 0
    repeats = _action(message, category, module, lineno) in ("always", "error")
    if not repeats and _SAID.get(key) == filters:
        return
    if len(_SAID) >= _MOST_SAID:
        del _SAID[next(iter(_SAID))]
    _SAID[key] = filters
    warnings.warn(message, category, stacklevel=level)


def _action(message, category, module, lineno):
    """The action of the first warning filter that matches, as ``warnings`` finds it."""
    for action, text, kind, where, line in warnings.filters:
        if ((text is None or text.match(message)) and issubclass(category, kind)
                and (where is None or where.match(module)) and (line == 0 or line == lineno)):
            return action
    return warnings.defaultaction


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
