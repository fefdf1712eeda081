"""Draw the figure of the README and of the site's landing page: ``doc/_static/overview.png``.

Run from the repository root: ``python doc/make_overview_figure.py``. One classifier's
probabilities on the wine data: the transport-based confusion matrix of its probabilities,
each class's F1 with its interval, and the reliability of its top label with its band.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_wine  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from sklearn_confusion_ext import (  # noqa: E402
    ReliabilityDisplay,
    ScoreIntervalDisplay,
    TransportConfusionMatrixDisplay,
)


def main():
    X, y = load_wine(return_X_y=True)
    names = load_wine().target_names
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05))
    proba = model.fit(X_train, y_train).predict_proba(X_test)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), width_ratios=(1.15, 1, 1),
                             layout="constrained")
    TransportConfusionMatrixDisplay.from_predictions(
        y_test, proba, normalize="true", display_labels=names, cmap="Blues", ax=axes[0],
        title="Transport confusion matrix\nof the probabilities (row shares)")
    ScoreIntervalDisplay.from_predictions(
        y_test, model.predict(X_test), scoring="tcm_f1", display_labels=names,
        random_state=0, ax=axes[1], title="F1 of each class, 95 % BCa intervals")
    ReliabilityDisplay.from_predictions(y_test, proba, target="top_label", n_bins=5,
                                        ax=axes[2], name="logistic regression")
    axes[2].set_title("Reliability of the top label,\n95 % band per bin")
    out = Path(__file__).parent / "_static" / "overview.png"
    fig.savefig(out, dpi=90)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
