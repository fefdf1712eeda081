"""CriticalDifferenceDisplay: Demsar's critical-difference diagram of the Friedman post-hoc
tests (rendered with the Agg backend)."""

import numpy as np
import pytest
from test_friedman import NAMES, PAPER

import sklearn_confusion_ext as sce


def test_critical_difference_display():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    display = sce.CriticalDifferenceDisplay.from_scores(PAPER, models=NAMES, alpha=0.10)
    texts = [text.get_text().strip() for text in display.ax_.texts]
    assert "CD = 1.12" in texts
    assert {"C4.5 (3.14)", "C4.5+m+cf (1.96)"} <= set(texts)
    assert display.ax_.get_xlim() == (4.0, 1.0)  # best on the right
    bars = [line for line in display.ax_.lines if line.get_linewidth() == 3.5]
    spans = sorted(tuple(np.round(sorted(line.get_xdata()), 3)) for line in bars)
    assert len(spans) == 2  # the two groups of the paper's alpha = 0.10 reading
    control = sce.CriticalDifferenceDisplay.from_scores(
        PAPER, models=NAMES, method="bonferroni-dunn", control="C4.5")
    assert any("control ± CD (1.17)" in text.get_text() for text in control.ax_.texts)
    with pytest.raises(ValueError, match="not in models"):
        sce.CriticalDifferenceDisplay([1.5, 1.5], models=["a", "b"], groups=[("a", "c")])


@pytest.mark.parametrize("n_models", [3, 12, 20])
def test_critical_difference_display_is_readable(n_models):
    """Every name drawn once, distinct although long names differ in the middle, inside
    the figure and overlapping no other text."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    rng = np.random.default_rng(0)
    scores = np.linspace(0, 1.5, n_models) + rng.normal(0, 1, (15, n_models))
    names = [f"classifier number {j} with a long name" for j in range(n_models)]
    display = sce.CriticalDifferenceDisplay.from_scores(scores, models=names)
    figure = display.figure_
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    labels = [text for text in display.ax_.texts if text.get_text().strip().endswith(")")
              and "CD" not in text.get_text()]
    assert len(labels) == n_models
    assert len({text.get_text().strip().rsplit(" (", 1)[0] for text in labels}) == n_models
    boxes = [text.get_window_extent(renderer) for text in display.ax_.texts]
    inside = figure.bbox.padded(1)
    assert all(inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0
               and box.y1 <= inside.y1 for box in boxes)
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
