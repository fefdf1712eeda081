"""``demo``: small models trained on data shipped with scikit-learn (no download)."""

import sys
from pathlib import Path

import numpy as np

from .report import build_report, format_report, save_plots


def demo(output=None, stream=sys.stdout):
    """Print the report of every method on shipped data; save the plots in ``output``."""
    from sklearn.datasets import load_digits, make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import confusion_matrix
    from sklearn.model_selection import train_test_split
    from sklearn.neighbors import KNeighborsClassifier

    from .. import transport_confusion_matrix

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X / 16, y, test_size=0.5,
                                                        random_state=0, stratify=y)
    model = LogisticRegression(C=0.05, max_iter=2000).fit(X_train, y_train)
    hard = model.predict(X_test)
    equal = np.array_equal(confusion_matrix(y_test, hard),
                           transport_confusion_matrix(y_test, hard))
    print("sklearn-confusion-ext demo\n\n1. Digits (8x8 images, 10 classes), "
          f"{len(y_test)} test images, logistic regression. The transport confusion matrix "
          f"of the hard predictions is sklearn's confusion_matrix: {equal}.\n", file=stream)
    print(format_report(build_report(y_test, hard)), file=stream)
    soft = model.predict_proba(X_test)
    one_hot = np.eye(10)[y_test]
    print("2. The same model's predicted probabilities as soft labels:\n", file=stream)
    print(format_report(build_report(one_hot, soft)), file=stream)
    X_ml, Y_ml = make_multilabel_classification(n_samples=600, n_classes=5, n_labels=2,
                                                random_state=0)
    multilabel = KNeighborsClassifier().fit(X_ml[:400], Y_ml[:400]).predict(X_ml[400:])
    print("3. Multi-label data (5 classes, generated), k nearest neighbours:\n", file=stream)
    print(format_report(build_report(Y_ml[400:], multilabel)), file=stream)
    if output is not None:
        paths = []
        for name, (truth, prediction) in {"digits": (y_test, hard),
                                          "digits_soft": (one_hot, soft),
                                          "multilabel": (Y_ml[400:], multilabel)}.items():
            paths += save_plots(truth, prediction, Path(output) / name)
        print(f"Plots saved: {', '.join(str(path) for path in paths)}", file=stream)
