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
        # a result documents its fields under Attributes (as scipy's), not Parameters
        found = (f"\n{section}\n" in doc or section == "Parameters" and inspect.isclass(public)
                 and name.endswith(("Result", "Evaluation")) and "\nAttributes\n" in doc)
        assert found, f"{name} lacks a {section} section"


@pytest.mark.parametrize("name", sklearn_confusion_ext.__all__)
def test_metric_signatures_follow_sklearn(name):
    parameters = inspect.signature(getattr(sklearn_confusion_ext, name)).parameters
    keyword_only = [p for p in parameters.values() if p.kind == p.KEYWORD_ONLY]
    positional = [p for p in parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD]
    # Paired comparisons take the two classifiers' predictions (as mlxtend's mcnemar_table),
    # or the two models and the data (as cross_validate(estimator, X, y) and mlxtend's 5x2cv),
    # or cross_validate's results and the data (as RocCurveDisplay.from_cv_results).
    assert len(positional) <= 2 or [p.name for p in positional] in (
        ["y_true", "y_pred_a", "y_pred_b"], ["estimator_a", "estimator_b", "X", "y"],
        ["quantifier", "X", "y"], ["cv_results", "X", "y"])
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


def _api_pages():
    """The lines of doc/api.rst and of the pages of its toctree (doc/api/*.rst), in order."""
    from pathlib import Path

    doc = Path(__file__).resolve().parents[1] / "doc"
    lines = (doc / "api.rst").read_text().splitlines()
    pages = [line.strip() for line in lines if line.startswith("   api/")]
    assert pages, "doc/api.rst has no toctree of doc/api/ pages"
    for page in pages:
        lines += (doc / f"{page}.rst").read_text().splitlines()
    return lines


def test_api_page_lists_every_public_name():
    listed = {line.strip() for line in _api_pages()}
    missing = set(sklearn_confusion_ext.__all__) - listed
    assert not missing, f"the pages of doc/api.rst do not list {sorted(missing)}"


def _import_graph():
    """Modules of the package and the package modules each imports, functions included."""
    import ast
    from pathlib import Path

    root = Path(sklearn_confusion_ext.__file__).parent
    graph = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
                # A name may be a module itself (from . import _cli): kept if it is one.
                imported.update(f"{target}.{alias.name}" for alias in node.names)
                imported.add(target)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names
                                if a.name.startswith("sklearn_confusion_ext"))
        graph[module] = imported
    return {module: {m for m in imported if m in graph and m != module}
            for module, imported in graph.items()}


def test_import_graph_has_no_cycle():
    graph = _import_graph()
    graph = {module: {m for m in imported if m != "sklearn_confusion_ext"}
             for module, imported in graph.items() if module != "sklearn_confusion_ext"}
    state = {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                raise AssertionError("import cycle: " + " -> ".join(path + [target]))
            if target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_machinery_never_imports_the_papers_modules_or_the_faces():
    graph = _import_graph()
    for module, imported in graph.items():
        if module.startswith("sklearn_confusion_ext._core"):
            above = {m for m in imported if not m.startswith("sklearn_confusion_ext._core")}
            assert not above, f"{module} imports {sorted(above)} from above _core"
        if not module.startswith(("sklearn_confusion_ext._plot", "sklearn_confusion_ext._cli")):
            faces = {m for m in imported
                     if m.startswith(("sklearn_confusion_ext._plot", "sklearn_confusion_ext._cli"))}
            allowed = module in ("sklearn_confusion_ext", "sklearn_confusion_ext.__main__")
            assert allowed or not faces, f"{module} imports the faces {sorted(faces)}"


# The package's floors, lowest first: a room (a top-level module or folder) imports only
# rooms on its floor or below, and the rooms import each other in no circle. The same
# floors are drawn in doc/contributing.rst.
FLOORS = (
    ("_core",),                                  # the ground: contract, targets, kernels
    ("exceptions", "_matrices", "_reading"),     # the matrices; reading one matrix
    ("_scores",),                                # every score, by role
    ("_quantification", "_calibration", "_decisions"),  # prevalences; calibrated
                                                 # probabilities; thresholds, abstention, cost
    ("_properties", "_statistics"),              # properties of measures; statistics
    ("_plot",),                                  # the Displays
    ("quantification", "stats", "torch"),        # the public submodules: two families;
                                                 # torchmetrics' metrics (not imported flat)
    ("",),                                       # the flat public face: __init__
    ("_cli", "__main__"),                        # the command line
)


def _room(module):
    """The room of a module: its top-level module or folder under the package ('' for
    the package's __init__)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _rooms_graph():
    graph = {}
    for module, imported in _import_graph().items():
        graph.setdefault(_room(module), set()).update(
            _room(m) for m in imported if _room(m) != _room(module))
    return graph


def test_every_room_has_a_floor():
    placed = [room for floor in FLOORS for room in floor]
    assert len(placed) == len(set(placed))
    assert set(_rooms_graph()) == set(placed), "a room of the package is on no floor"


def test_no_import_runs_back_up_a_floor():
    floor_of = {room: level for level, floor in enumerate(FLOORS) for room in floor}
    for room, imported in _rooms_graph().items():
        above = sorted(m for m in imported if floor_of[m] > floor_of[room])
        assert not above, f"{room or '__init__'} (floor {floor_of[room] + 1}) imports {above}"


def test_the_rooms_import_each_other_in_no_circle():
    graph, state = _rooms_graph(), {}

    def visit(room, path):
        state[room] = "open"
        for target in sorted(graph[room]):
            assert state.get(target) != "open", "rooms in a circle: " + " -> ".join(
                path + [target])
            if target not in state:
                visit(target, path + [target])
        state[room] = "done"

    for room in sorted(graph):
        if room not in state:
            visit(room, [room])


def test_contributing_names_every_source_file():
    from pathlib import Path

    root = Path(sklearn_confusion_ext.__file__).parent
    text = (root.parent / "doc" / "contributing.rst").read_text()
    files = sorted(str(path.relative_to(root)) for pattern in ("*.py", "*.pyx")
                   for path in root.rglob(pattern) if "__pycache__" not in path.parts)
    missing = [name for name in files if f"``{name}``" not in text
               and f"``{name.rsplit('/', 1)[-1]}``" not in text]
    assert not missing, f"doc/contributing.rst does not name {missing}"


@pytest.mark.parametrize("submodule", ["quantification", "stats"])
def test_the_public_submodules_hand_on_the_flat_names(submodule):
    module = getattr(sklearn_confusion_ext, submodule)
    assert module.__all__ and len(set(module.__all__)) == len(module.__all__)
    for name in module.__all__:
        assert name in sklearn_confusion_ext.__all__, name
        assert getattr(module, name) is getattr(sklearn_confusion_ext, name), name


def test_the_stats_submodule_holds_every_statistic():
    # every public name defined in _statistics is in stats, so it is the family whole
    defined = {name for name in sklearn_confusion_ext.__all__
               if getattr(getattr(sklearn_confusion_ext, name), "__module__", "").startswith(
                   "sklearn_confusion_ext._statistics")}
    assert defined == set(sklearn_confusion_ext.stats.__all__)


def test_the_quantification_submodule_holds_every_quantification_name():
    defined = {name for name in sklearn_confusion_ext.__all__
               if getattr(getattr(sklearn_confusion_ext, name), "__module__", "").startswith(
                   ("sklearn_confusion_ext._quantification",
                    "sklearn_confusion_ext._properties.quantification_audit"))}
    assert defined == set(sklearn_confusion_ext.quantification.__all__)


def test_all_is_in_the_order_of_the_api_page():
    listed = [line.strip() for line in _api_pages()
              if line.startswith("   ") and line.strip() in sklearn_confusion_ext.__all__]
    assert listed == list(sklearn_confusion_ext.__all__)
