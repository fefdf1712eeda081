"""The skip policy refuses, in CI, a test that skips for a missing peer."""

import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = '''
import pytest


def test_oracle_of_a_missing_peer():
    pytest.importorskip("no_such_peer_module")


def test_oracle_allowed_to_skip():
    pytest.skip("could not import 'stan': No module named 'stan'")


def test_own_decision():
    pytest.skip("the name fixes the average")
'''


@pytest.mark.parametrize("strict", [True, False])
def test_a_missing_peer_fails_the_strict_run_only(tmp_path, strict):
    (tmp_path / "conftest.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {HERE!r})
        from skip_policy import pytest_configure  # noqa: F401
    """))
    (tmp_path / "test_peer.py").write_text(TESTS)
    environment = {**os.environ, "SCE_SKIP_POLICY": "strict" if strict else ""}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(tmp_path)], capture_output=True, text=True, env=environment,
                         cwd=tmp_path, timeout=300)
    assert "3 skipped" in run.stdout, run.stdout + run.stderr
    assert run.returncode == (1 if strict else 0), run.stdout + run.stderr
    refused = run.stdout.split("skips refused in CI")[-1] if strict else ""
    assert ("no_such_peer_module" in refused) == strict
    assert "stan" not in refused and "fixes the average" not in refused
