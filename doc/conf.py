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
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

autosummary_generate = True
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py"]
html_theme = "pydata_sphinx_theme"
html_title = "sklearn-confusion-ext"

intersphinx_mapping = {}

sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
}
