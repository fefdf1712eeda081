"""Warnings of sklearn_confusion_ext, to filter by category (as :mod:`sklearn.exceptions`).

The undefined scores warn with scikit-learn's own
:class:`sklearn.exceptions.UndefinedMetricWarning`.
"""

from ._core.user_warnings import DegenerateIntervalWarning

__all__ = ["DegenerateIntervalWarning"]
