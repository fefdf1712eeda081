"""Command line: ``python -m sklearn_confusion_ext demo``.

The demo trains a classifier on scikit-learn's shipped digits data and prints
the transport-based confusion matrix of its hard and of its soft
(``predict_proba``) predictions, with the transport classification report.
"""

import argparse
import sys

import numpy as np


def demo(stream=sys.stdout):
    """Print a short report of the transport-based confusion matrix on the digits data."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import confusion_matrix
    from sklearn.model_selection import train_test_split

    from . import transport_classification_report, transport_confusion_matrix

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X / 16, y, test_size=0.5,
                                                        random_state=0, stratify=y)
    model = LogisticRegression(C=0.05, max_iter=2000).fit(X_train, y_train)
    hard = model.predict(X_test)
    soft = model.predict_proba(X_test)
    one_hot = np.eye(len(model.classes_))[np.searchsorted(model.classes_, y_test)]

    def show(title, matrix):
        print(f"\n{title}", file=stream)
        with np.printoptions(precision=1, suppress=True, linewidth=120):
            print(matrix, file=stream)

    print("sklearn-confusion-ext demo: digits (8x8 images, 10 classes), "
          f"{len(y_test)} test images, logistic regression.", file=stream)
    classic = confusion_matrix(y_test, hard)
    tcm_hard = transport_confusion_matrix(y_test, hard)
    show("Transport confusion matrix of the hard predictions "
         f"(equal to sklearn's confusion_matrix: {np.array_equal(classic, tcm_hard)}):",
         tcm_hard)
    show("Transport confusion matrix of the predicted probabilities: the probability "
         "mass each true class\nsent to each class (rows: true, columns: predicted):",
         transport_confusion_matrix(one_hot, soft, empty="error"))
    print("\nTransport classification report of the predicted probabilities:", file=stream)
    print(transport_classification_report(one_hot, soft, empty="error", digits=3),
          file=stream)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sklearn_confusion_ext",
                                     description="sklearn-confusion-ext command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="report the transport confusion matrix on built-in data")
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo()
    return 0


if __name__ == "__main__":
    sys.exit(main())
