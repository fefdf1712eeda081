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
