import numpy as np
import pytest


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
