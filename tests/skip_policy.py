"""The oracle tests must run in CI: a pytest plugin that fails the run where a test skips
because an optional peer (statsmodels, QuaPy, mlcm, mlxtend, baycomp, scikit-posthocs,
autorank, ...) could not be imported, unless the skip is allowed below with its reason.

On where ``SCE_SKIP_POLICY=strict`` (``.ci/run`` sets it for its first environment, which
installs the test extra; the floors' environment installs only the floors and is not
checked). Locally, without it, a missing peer skips as usual. After the run the plugin
prints each skip it refused and sets the exit status to 1.
"""

import os
import re

import pytest

# Skips allowed in the strict environment: a pattern of the skip's reason, and why.
ALLOWED = {
    r"could not import 'stan'": (
        "PyStan 3 compiles each Stan model with a C++ toolchain at test time and is not in "
        "the test extra; the hierarchical test's other oracle cases run baycomp's centred "
        "model, and the library's own sampler is checked against exact posteriors"),
    r"(cupy|dpnp) is not installed: not checking array_api input": (
        "scikit-learn's own array-API tests (run by test_sklearn_parity.py) of CuPy and "
        "dpnp, GPU array libraries that need a device; the library's array-API tests run "
        "on array_api_strict and PyTorch"),
}
# Reasons that mean a peer was missing (anything else is a test's own decision).
_MISSING = re.compile(r"could not import|No module named|not installed|needs? (?:the )?"
                      r"optional", re.IGNORECASE)


def _strict():
    return os.environ.get("SCE_SKIP_POLICY", "") == "strict"


class SkipPolicy:
    def __init__(self):
        self.refused = []

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report):
        if not report.skipped or not isinstance(report.longrepr, tuple):
            return
        reason = str(report.longrepr[2])
        if not _MISSING.search(reason):
            return
        if any(re.search(pattern, reason) for pattern in ALLOWED):
            return
        self.refused.append((report.nodeid, reason))

    def pytest_sessionfinish(self, session):
        if self.refused:
            session.exitstatus = 1

    def pytest_terminal_summary(self, terminalreporter):
        if not self.refused:
            return
        terminalreporter.section("skips refused in CI (SCE_SKIP_POLICY=strict)", red=True)
        for nodeid, reason in self.refused:
            terminalreporter.line(f"{nodeid}: {reason}")
        terminalreporter.line("Install the peer (the test extra), or allow the skip with its "
                              "reason in tests/skip_policy.py.")


def pytest_configure(config):
    if _strict() and not hasattr(config, "workerinput"):  # the controller sees every report
        config.pluginmanager.register(SkipPolicy(), "sce-skip-policy")
