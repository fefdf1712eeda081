"""``demo``: small models trained on data shipped with scikit-learn (no download)."""

import numpy as np


def demo_sections():
    """``(name, heading, introduction, (y_true, y_pred))`` of each part of the demo; its
    plots go in the folder ``name``."""
    from sklearn.datasets import load_digits, make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import confusion_matrix
    from sklearn.model_selection import train_test_split
    from sklearn.neighbors import KNeighborsClassifier

    from .. import transport_accuracy_score, transport_confusion_matrix

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X / 16, y, test_size=0.5,
                                                        random_state=0, stratify=y)
    model = LogisticRegression(C=0.05, max_iter=2000).fit(X_train, y_train)
    hard = model.predict(X_test)
    equal = np.array_equal(confusion_matrix(y_test, hard),
                           transport_confusion_matrix(y_test, hard))
    soft = model.predict_proba(X_test)
    hard_accuracy = transport_accuracy_score(y_test, hard)
    soft_accuracy = transport_accuracy_score(y_test, soft)  # mean probability of the truth
    X_ml, Y_ml = make_multilabel_classification(n_samples=600, n_classes=5, n_labels=2,
                                                random_state=0)
    multilabel = KNeighborsClassifier().fit(X_ml[:400], Y_ml[:400]).predict(X_ml[400:])
    return [
        ("digits", "1. Digits: predicted labels",
         f"Digits (8x8 images, 10 classes), {len(y_test)} test images, logistic regression, "
         "its predicted labels.\n"
         f"The transport confusion matrix is sklearn's confusion_matrix: {equal}.",
         (y_test, hard)),
        ("digits_soft", "2. Digits: predicted probabilities",
         "The same model's predicted probabilities (predict_proba, columns in the order of "
         "model.classes_) against the true labels.\n"
         f"Why the accuracy is {soft_accuracy:.3f} here and {hard_accuracy:.3f} in part 1 "
         "is said below the summary; the report of the argmax decisions is part 1's. The "
         "matrix shows where the model's belief goes; sharper probabilities score higher, "
         "deserved or not, so choose models on labels or on log-loss.",
         (y_test, soft)),
        ("multilabel", "3. Multi-label",
         "Multi-label data (5 classes, generated), k nearest neighbours.",
         (Y_ml[400:], multilabel)),
    ]
