"""What pytest collects from the package itself (its doctests, ``--doctest-modules``).

The torchmetrics metrics subclass ``torchmetrics.Metric``: their modules import only with
the ``[torch]`` extra, and are left out where torchmetrics is not installed (the floors'
environment), and so is their user-guide page; their tests in ``tests/`` skip there
with the reason.
"""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("torchmetrics") else [
    "sklearn_confusion_ext/torch.py", "sklearn_confusion_ext/_scores/torchmetrics_metrics.py",
    "doc/user_guide/torch.rst"]
