import os
import sys

import numpy as np
import pytest
from hypothesis import settings

# The tests are in one folder per module of the package (``_scores/``, ``_statistics/``, ...)
# and ``registry/``, the suites generated over the public API; the helpers they share
# (``declarations.py``, ``kinds.py``, ``sweeps.py``, ...) are here. Test files import
# each other's helpers by module name (``from test_common import REGISTRY``): every folder
# is on ``sys.path``, as pytest's default import mode puts the folder of each file it
# collects there (so a test file's name is unique across the folders).
_TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(_TESTS, name) for name in sorted(os.listdir(_TESTS))
                if os.path.isdir(os.path.join(_TESTS, name)) and not name.startswith((".", "__"))
                and os.path.join(_TESTS, name) not in sys.path]

# Property tests in CI draw the same examples on every run (a seed derived from each test,
# so a failure reproduces: run with CI=true, or HYPOTHESIS_PROFILE=ci), print the example
# that failed, and keep no database between runs. Locally they draw afresh each run.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if _CI else "default"))


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _restore_package_settings():
    """Every test starts from, and leaves, the package's settings as they were."""
    from sklearn_confusion_ext import get_config, set_config

    settings = get_config()
    yield
    set_config(**settings)


def pytest_configure(config):
    """The skip policy of CI (tests/skip_policy.py): oracle tests may not skip there."""
    from skip_policy import pytest_configure as configure_skip_policy

    configure_skip_policy(config)


@pytest.fixture(autouse=True)
def _restore_matplotlib_settings():
    """Every test starts from, and leaves, matplotlib's settings (rcParams) as they were.

    The package's Displays change none (``test_plot_drawn.py`` checks it), but a peer used
    as an oracle does: importing QuaPy (``quapy/__init__.py`` imports ``quapy.plot``) sets
    ``figure.figsize``, ``figure.dpi`` (200) and ``font.size`` (18) for the whole process, so
    the layout tests that measure drawn text (names thinned where they would overlap, titles
    clear of the corners' names) failed whenever ``test_quantification.py::test_against_quapy``
    ran before them (reverse file order) and passed alone. Where matplotlib is first imported
    during a test, its settings as read at import (``rcParamsOrig``) are restored. The
    backend is left as it is.
    """
    matplotlib = sys.modules.get("matplotlib")
    saved = None if matplotlib is None else dict(dict.items(matplotlib.rcParams))
    yield
    matplotlib = sys.modules.get("matplotlib")
    if matplotlib is None:
        return
    if saved is None:
        saved = dict(dict.items(matplotlib.rcParamsOrig))
    current = matplotlib.rcParams
    changed = {key: value for key, value in saved.items()
               if key != "backend" and dict.get(current, key, value) != value}
    if changed:
        current.update(changed)
