"""Package-level promises: public names, docstrings, the demo command."""

import inspect
import subprocess
import sys

import pytest

import sklearn_confusion_ext


def test_version_and_all():
    assert isinstance(sklearn_confusion_ext.__version__, str)
    assert sorted(sklearn_confusion_ext.__all__) == sorted(set(sklearn_confusion_ext.__all__))
    for name in sklearn_confusion_ext.__all__:
        assert getattr(sklearn_confusion_ext, name).__module__.startswith(
            "sklearn_confusion_ext._")


@pytest.mark.parametrize("name", sklearn_confusion_ext.__all__)
def test_public_names_have_numpydoc_with_examples(name):
    public = getattr(sklearn_confusion_ext, name)
    doc = inspect.getdoc(public)
    returns = "Yields" if inspect.isgeneratorfunction(public) else "Returns"
    sections = ("Examples",) + (() if inspect.isclass(public) else (returns,))
    if inspect.isclass(public) or inspect.signature(public).parameters:
        sections += ("Parameters",)
    for section in sections:
        assert f"\n{section}\n" in doc, f"{name} lacks a {section} section"


@pytest.mark.parametrize("name", sklearn_confusion_ext.__all__)
def test_metric_signatures_follow_sklearn(name):
    parameters = inspect.signature(getattr(sklearn_confusion_ext, name)).parameters
    keyword_only = [p for p in parameters.values() if p.kind == p.KEYWORD_ONLY]
    positional = [p for p in parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD]
    assert len(positional) <= 2
    if "sample_weight" in parameters:
        assert parameters["sample_weight"] in keyword_only


def test_demo_command_runs():
    result = subprocess.run([sys.executable, "-m", "sklearn_confusion_ext", "demo"],
                            capture_output=True, text=True, check=True, timeout=300)
    assert "is sklearn's confusion_matrix: True" in result.stdout
    for section in ("MLCM", "Marginal homogeneity", "Quantification", "weighting='true'"):
        assert section in result.stdout


def test_cli_requires_a_command():
    result = subprocess.run([sys.executable, "-m", "sklearn_confusion_ext"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "demo" in result.stderr


def test_api_page_lists_every_public_name():
    from pathlib import Path

    api = Path(__file__).resolve().parents[1] / "doc" / "api.rst"
    listed = {line.strip() for line in api.read_text().splitlines()}
    missing = set(sklearn_confusion_ext.__all__) - listed
    assert not missing, f"doc/api.rst does not list {sorted(missing)}"
