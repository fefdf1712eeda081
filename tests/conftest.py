import os

import numpy as np
import pytest
from hypothesis import settings

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
