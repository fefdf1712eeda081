"""Sphinx configuration of the sklearn-confusion-ext documentation."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

import sklearn_confusion_ext  # noqa: E402

project = "sklearn-confusion-ext"
author = "sklearn-confusion-ext developers"
copyright = "2026, sklearn-confusion-ext developers"
release = version = sklearn_confusion_ext.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "matplotlib.sphinxext.plot_directive",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
# Read signatures from the code, never from a docstring's first line: the methods a class
# inherits from ``collections.abc.Mapping`` (AuditResult) start with ``D.get(k[,d]) -> D[k]
# if k in D, else d``, whose "return type" the strict build (``-n``) cannot resolve.
autodoc_docstring_signature = False
autosummary_generate = True
# Class pages: the class template documents every public method and attribute
# (``:members:``); numpydoc adds the tables of methods and attributes above them.
numpydoc_show_class_members = True
numpydoc_class_members_toctree = False
# The torchmetrics metrics (api/torch.rst) inherit torch.nn.Module's hundred members: their
# pages list their own (update, compute) only.
numpydoc_show_inherited_class_members = {
    f"sklearn_confusion_ext.torch.{name}": False
    for name in ("TransportConfusionMatrix", "TransportF1Score", "MLCM", "MLCMF1Score")}
exclude_patterns = ["_build", "_templates", "_generated", "auto_examples/*.ipynb",
                    "auto_examples/*.py"]

# The benchmarks page includes this build's quick run of benchmarks/compare.py, which CI
# writes before building the pages (``--output``); a build without it says so.
_THIS_BUILD = os.path.join(os.path.dirname(__file__), "_generated",
                           "benchmarks_this_build.rst")
if not os.path.exists(_THIS_BUILD):
    os.makedirs(os.path.dirname(_THIS_BUILD), exist_ok=True)
    with open(_THIS_BUILD, "w") as placeholder:
        placeholder.write("These pages were built without a run of the benchmarks: ``python "
                          "benchmarks/compare.py --quick --output "
                          "doc/_generated/benchmarks_this_build.rst`` writes it.\n")
html_theme = "pydata_sphinx_theme"
html_title = "sklearn-confusion-ext"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
# Long API names break after an underscore (a <wbr> after each), not inside a word.
html_js_files = ["break_names.js"]
html_theme_options = {
    # The navigation lists the API's sections (doc/api/*.rst) and opens the current one.
    "navigation_depth": 2,
    "show_nav_level": 1,
    # An API object's page has its methods' table and "Examples using": the column gets
    # the width of the right-hand "On this page" there, for code of 88 characters.
    # (pages that no pattern matches, generated/*, have none; patterns must not overlap).
    "secondary_sidebar_items": {
        page: ["page-toc", "sourcelink"]
        for page in ("index", "install", "api", "benchmarks", "contributing", "changelog",
                     "api/*", "user_guide/*", "auto_examples/**")},
}
# Pages without pages below them have no left-hand navigation: their column (the
# benchmarks' wide tables) takes its width.
html_sidebars = {page: [] for page in ("install", "benchmarks", "contributing", "changelog")}
# "On this page" names a method ``plot()``, not ``TransportConfusionMatrixDisplay.plot()``.
toc_object_entries_show_parents = "hide"
# Display pages draw their own figure: numpydoc runs an Examples section that imports
# matplotlib through matplotlib's plot directive, as scikit-learn's pages do.
numpydoc_use_plots = True
plot_include_source = True
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 90)]

# The build is offline: each project's inventory is a small file committed in
# _intersphinx/ (written by _intersphinx/make_inventories.py) listing the names these pages
# use, with their addresses on the project's site.
intersphinx_mapping = {
    "sklearn": ("https://scikit-learn.org/stable/", "_intersphinx/sklearn-objects.inv"),
    "numpy": ("https://numpy.org/doc/stable/", "_intersphinx/numpy-objects.inv"),
    "scipy": ("https://docs.scipy.org/doc/scipy/", "_intersphinx/scipy-objects.inv"),
    "matplotlib": ("https://matplotlib.org/stable/", "_intersphinx/matplotlib-objects.inv"),
    "pandas": ("https://pandas.pydata.org/docs/", "_intersphinx/pandas-objects.inv"),
}

sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    # One titled section per folder of examples/ (its GALLERY_HEADER.rst), in this order.
    "subsection_order": ["../examples/confusion_matrices", "../examples/measures",
                         "../examples/uncertainty", "../examples/comparisons",
                         "../examples/calibration", "../examples/quantification",
                         "../examples/scale"],
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    # "Examples using X" on the API pages and ``.. minigallery::`` in the user guide.
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("sklearn_confusion_ext",),
    "reference_url": {"sklearn_confusion_ext": None},
    "remove_config_comments": True,
}
