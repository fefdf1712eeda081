"""Write the small intersphinx inventories that the offline documentation build reads.

The build runs without a network, so ``conf.py`` cannot download the inventories of
scikit-learn, NumPy, SciPy, Matplotlib and pandas. This script writes one ``*-objects.inv`` per
project, in Sphinx's inventory format (version 2), listing only the names these pages and
the gallery refer to, with their addresses on the projects' sites. Add a name here when a
page links a new one, then run ``python doc/_intersphinx/make_inventories.py`` and commit
the ``.inv`` files.
"""

import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

SKLEARN_FUNCTIONS = {
    "sklearn.calibration": ["calibration_curve"],
    "sklearn.metrics": [
        "accuracy_score", "balanced_accuracy_score", "brier_score_loss",
        "classification_report", "cohen_kappa_score", "confusion_matrix", "f1_score",
        "get_scorer", "get_scorer_names", "log_loss", "make_scorer", "matthews_corrcoef",
        "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score",
        "recall_score", "confusion_matrix_at_thresholds", "roc_curve",
        "top_k_accuracy_score",
    ],
    "sklearn.model_selection": ["cross_val_predict", "cross_val_score", "cross_validate",
                                "train_test_split"],
    "sklearn.datasets": ["load_digits", "load_iris", "load_wine", "make_classification",
                         "make_multilabel_classification"],
    "sklearn.utils.multiclass": ["type_of_target", "unique_labels"],
}
SKLEARN_CLASSES = {
    "sklearn.calibration": {"CalibratedClassifierCV": ["fit", "predict", "predict_proba"],
                            "CalibrationDisplay": ["from_estimator", "from_predictions",
                                                   "plot"]},
    "sklearn.metrics": {"ConfusionMatrixDisplay": ["from_estimator", "from_predictions", "plot"]},
    "sklearn.model_selection": {"GridSearchCV": ["fit", "predict"],
                                "StratifiedKFold": ["split"],
                                "TunedThresholdClassifierCV": ["fit", "predict"]},
    "sklearn.linear_model": {"LogisticRegression": ["fit", "predict", "predict_proba"]},
    "sklearn.ensemble": {"RandomForestClassifier": ["fit", "predict", "predict_proba"],
                         "HistGradientBoostingClassifier": ["fit", "predict", "predict_proba"]},
    "sklearn.inspection": {"PartialDependenceDisplay": ["from_estimator", "plot"]},
    "sklearn.multiclass": {"OneVsRestClassifier": ["fit", "predict", "predict_proba"]},
    "sklearn.multioutput": {"MultiOutputClassifier": ["fit", "predict", "predict_proba"]},
    "sklearn.neighbors": {"KNeighborsClassifier": ["fit", "predict", "predict_proba"]},
    "sklearn.pipeline": {"Pipeline": ["fit", "predict", "predict_proba"]},
    "sklearn.preprocessing": {"StandardScaler": ["fit", "transform", "fit_transform"]},
}


def sklearn_entries():
    """Names of scikit-learn's API reference (one page per function or class)."""
    entries = []
    modules = sorted((set(SKLEARN_FUNCTIONS) | set(SKLEARN_CLASSES)) - {"sklearn.utils.multiclass"})
    for module in modules:
        entries.append((module, "py:module", f"api/{module}.html#module-{module}"))
    for module, names in SKLEARN_FUNCTIONS.items():
        for name in names:
            full = f"{module}.{name}"
            entries.append((full, "py:function", f"modules/generated/{full}.html#{full}"))
    for module, classes in SKLEARN_CLASSES.items():
        for name, methods in classes.items():
            full = f"{module}.{name}"
            page = f"modules/generated/{full}.html"
            entries.append((full, "py:class", f"{page}#{full}"))
            for method in methods:
                entries.append((f"{full}.{method}", "py:method", f"{page}#{full}.{method}"))
    entries.append(("scoring_parameter", "std:label",
                    "modules/model_evaluation.html#scoring-parameter",
                    "The scoring parameter: defining model evaluation rules"))
    return entries


def numpy_entries():
    """A few NumPy names the pages use."""
    generated = ["ndarray", "array", "round", "printoptions", "set_printoptions"]
    entries = [("numpy", "py:module", "reference/index.html#module-numpy")]
    kinds = {"ndarray": "py:class", "printoptions": "py:function"}
    for name in generated:
        full = f"numpy.{name}"
        entries.append((full, kinds.get(name, "py:function"),
                        f"reference/generated/{full}.html#{full}"))
    entries.append(("numpy.random.default_rng", "py:function",
                    "reference/random/generator.html#numpy.random.default_rng"))
    entries.append(("numpy.ma.MaskedArray", "py:class",
                    "reference/maskedarray.baseclass.html#numpy.ma.MaskedArray"))
    return entries


def scipy_entries():
    """SciPy's sparse matrices and statistics modules."""
    return [
        ("scipy.sparse", "py:module", "reference/sparse.html#module-scipy.sparse"),
        ("scipy.stats", "py:module", "reference/stats.html#module-scipy.stats"),
        ("scipy.stats.dirichlet", "py:data",
         "reference/generated/scipy.stats.dirichlet.html#scipy.stats.dirichlet"),
        ("scipy.stats.beta", "py:data",
         "reference/generated/scipy.stats.beta.html#scipy.stats.beta"),
        ("scipy.stats.bootstrap", "py:function",
         "reference/generated/scipy.stats.bootstrap.html#scipy.stats.bootstrap"),
        ("scipy.stats.ttest_rel", "py:function",
         "reference/generated/scipy.stats.ttest_rel.html#scipy.stats.ttest_rel"),
        ("scipy.stats.ttest_1samp", "py:function",
         "reference/generated/scipy.stats.ttest_1samp.html#scipy.stats.ttest_1samp"),
        ("scipy.stats.friedmanchisquare", "py:function",
         "reference/generated/scipy.stats.friedmanchisquare.html"
         "#scipy.stats.friedmanchisquare"),
    ]


def matplotlib_entries():
    """The Matplotlib names of the Displays' attributes and of the examples."""
    entries = [("matplotlib.pyplot", "py:module",
                "api/pyplot_summary.html#module-matplotlib.pyplot")]
    for name in ["subplots", "show", "figure"]:
        full = f"matplotlib.pyplot.{name}"
        entries.append((full, "py:function", f"api/_as_gen/{full}.html#{full}"))
    entries.append(("matplotlib.axes.Axes", "py:class", "api/axes_api.html#matplotlib.axes.Axes"))
    entries.append(("matplotlib.figure.Figure", "py:class",
                    "api/_as_gen/matplotlib.figure.Figure.html#matplotlib.figure.Figure"))
    return entries


def pandas_entries():
    """The pandas names of the ``to_frame()`` methods and the labelled views."""
    entries = [("pandas", "py:module", "reference/index.html#module-pandas")]
    for name in ["DataFrame", "Series", "Index", "MultiIndex"]:
        full = f"pandas.{name}"
        entries.append((full, "py:class", f"reference/api/{full}.html#{full}"))
    for name in ["read_csv", "crosstab"]:
        full = f"pandas.{name}"
        entries.append((full, "py:function", f"reference/api/{full}.html#{full}"))
    return entries


def write(path, project, entries):
    """Write one inventory in Sphinx's format: four header lines, then zlib-compressed rows."""
    header = ("# Sphinx inventory version 2\n"
              f"# Project: {project}\n"
              "# Version: stable\n"
              "# The remainder of this file is compressed using zlib.\n")
    rows = "".join(f"{name} {role} 1 {uri} {display[0] if display else '-'}\n"
                   for name, role, uri, *display in sorted(set(entries)))
    path.write_bytes(header.encode() + zlib.compress(rows.encode(), 9))


if __name__ == "__main__":
    write(HERE / "sklearn-objects.inv", "scikit-learn", sklearn_entries())
    write(HERE / "numpy-objects.inv", "NumPy", numpy_entries())
    write(HERE / "scipy-objects.inv", "SciPy", scipy_entries())
    write(HERE / "matplotlib-objects.inv", "Matplotlib", matplotlib_entries())
    write(HERE / "pandas-objects.inv", "pandas", pandas_entries())
