"""matplotlib is optional: each ``plot`` checks for it first, as scikit-learn's Displays do."""

import importlib.util


def check_matplotlib(caller):
    if importlib.util.find_spec("matplotlib") is None:
        raise ImportError(f"{caller} requires matplotlib: pip install matplotlib, or "
                          "pip install \"sklearn-confusion-ext[plot]\".")
