"""What a matrix of probabilities measures, and that nothing selects models on it blindly
(the user guide's page ``probabilities.rst``).

Against labels, the transport matrix of probabilities sums each instance's predicted
distribution into its true class's row, and its accuracy is the mean probability of the true
class: the score of answering at random from the probabilities. Such scores reward sharper
probabilities, deserved or not. The tests pin the readings the guide states, and check that
the README, the model-selection example, the demo and the docstrings of the scorer
factories and comparisons say it.
"""

import ast
import doctest
import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import log_loss

import sklearn_confusion_ext as sce

ROOT = Path(__file__).resolve().parents[2]


def _calibrated(rng, n_samples, n_classes, concentration=0.5):
    """Probabilities and labels drawn from them: honest (calibrated) by construction."""
    proba = rng.dirichlet([concentration] * n_classes, size=n_samples)
    y = (rng.random(n_samples)[:, None] > proba.cumsum(axis=1)[:, :-1]).sum(axis=1)
    return y, proba


def _sharpen(p, k):
    q = p ** k
    return q / q.sum(axis=1, keepdims=True)


def _brier(y, p):
    return float(np.mean(np.sum((p - np.eye(p.shape[1])[y]) ** 2, axis=1)))


@pytest.mark.parametrize("n_classes", [2, 3, 7])
@pytest.mark.parametrize("seed", [0, 1])
def test_rows_sum_the_probabilities_and_accuracy_is_mean_true_probability(n_classes, seed):
    rng = np.random.default_rng(seed)
    y, proba = _calibrated(rng, 200, n_classes)
    y[:n_classes] = np.arange(n_classes)  # every class present
    one_hot = np.eye(n_classes)[y]
    np.testing.assert_allclose(sce.transport_confusion_matrix(y, proba), one_hot.T @ proba,
                               atol=1e-12)
    assert sce.transport_accuracy_score(y, proba) == pytest.approx(
        np.mean(proba[np.arange(len(y)), y]), abs=1e-12)


def test_sharpening_honest_probabilities_raises_soft_scores_and_worsens_proper_scores():
    y, proba = _calibrated(np.random.default_rng(0), 1000, 4)
    soft_f1, losses, briers = [], [], []
    for k in (1, 2, 3, 5):
        q = _sharpen(proba, k)
        np.testing.assert_array_equal(q.argmax(axis=1), proba.argmax(axis=1))
        soft_f1.append(sce.transport_precision_recall_fscore_support(y, q, average="macro")[2])
        losses.append(log_loss(y, q))
        briers.append(_brier(y, q))
    # The figures of the user guide's doctest.
    np.testing.assert_allclose(soft_f1, [0.491, 0.562, 0.586, 0.604], atol=5e-4)
    np.testing.assert_allclose(losses, [0.914, 1.083, 1.381, 2.083], atol=5e-4)
    assert np.all(np.diff(soft_f1) > 0) and np.all(np.diff(losses) > 0)
    assert np.all(np.diff(briers) > 0)
    result = sce.compare_scores(y, _sharpen(proba, 3), proba, scoring="tcm_f1_macro",
                                n_resamples=999, random_state=0)
    assert result.estimate > 0.09 and result.pvalue < 0.01
    proper = sce.compare_scores(y, _sharpen(proba, 3), proba, scoring=log_loss,
                                labels=[0, 1, 2, 3], n_resamples=199, random_state=0)
    assert proper.estimate > 0.4 and proper.low > 0  # log-loss: the sharpened is worse


@pytest.mark.parametrize("concentration", [0.3, 1.0, 3.0])
def test_calibrated_soft_accuracy_is_one_minus_brier(concentration):
    # Brier = 1 - 2 E[p_true] + E[sum p^2] and calibration gives E[p_true] = E[sum p^2].
    y, proba = _calibrated(np.random.default_rng(1), 20_000, 5, concentration)
    soft = sce.transport_accuracy_score(y, proba)
    assert soft == pytest.approx(1 - _brier(y, proba), abs=0.01)
    sharpened = _sharpen(proba, 4)  # miscalibrated: the identity breaks
    assert sce.transport_accuracy_score(y, sharpened) - (1 - _brier(y, sharpened)) > 0.02


def _refit_scorer(source):
    """The scoring entry (an AST node) that ``refit=`` names in a GridSearchCV call."""
    tree = ast.parse(source)
    entries = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            entries.update({key.value: value for key, value in zip(node.keys, node.values)
                            if isinstance(key, ast.Constant)})
    refits = [keyword.value.value for node in ast.walk(tree) if isinstance(node, ast.Call)
              for keyword in node.keywords
              if keyword.arg == "refit" and isinstance(keyword.value, ast.Constant)]
    assert len(refits) == 1, refits
    return entries[refits[0]]


def _readme_model_selection():
    text = (ROOT / "README.rst").read_text()
    section = text[text.index("Model selection\n---"):]
    section = section[:section.index("\n---", section.index("---") + 4)]
    examples = doctest.DocTestParser().get_examples(section)
    return "".join(example.source for example in examples)


@pytest.mark.parametrize("where", ["README.rst", "examples/measures/plot_model_selection.py"])
def test_model_selection_examples_refit_on_labels(where):
    source = (_readme_model_selection() if where == "README.rst"
              else (ROOT / where).read_text())
    scorer = _refit_scorer(source)
    assert "predict_proba" not in ast.unparse(scorer), ast.unparse(scorer)
    assert "neg_log_loss" in source  # a proper score of the probabilities shown beside


def test_readme_model_selection_shows_soft_f1_choosing_the_sharpest_model():
    namespace = {}
    exec(compile(_readme_model_selection(), "README.rst", "exec"), namespace)
    results = namespace["search"].cv_results_
    sharpest = list(results["param_n_neighbors"]).index(1)
    assert results["rank_test_tcm_f1_proba"][sharpest] == 1
    assert results["rank_test_neg_log_loss"][sharpest] == 3
    assert namespace["search"].best_params_ == {"n_neighbors": 5}


def test_demo_explains_its_two_accuracies():
    from sklearn_confusion_ext._cli.demo import demo_sections

    sections = {name: (introduction, targets)
                for name, _, introduction, targets in demo_sections()}
    introduction, (y_true, proba) = sections["digits_soft"]
    hard = sce.transport_accuracy_score(*sections["digits"][1])
    soft = sce.transport_accuracy_score(y_true, proba)
    assert f"{soft:.3f}" == "0.559" and f"{hard:.3f}" == "0.922"
    assert f"accuracy is {soft:.3f} here and {hard:.3f} in part 1" in introduction
    # why is the report's own paragraph on probabilities (the mean probability of the
    # true class: test_cli.py::test_probabilities_report_says_what_its_scores_are_...)
    assert "said below the summary" in introduction
    assert "log-loss" in introduction


SOFT_SCORING = [name for name in sce.__all__ if callable(getattr(sce, name))
                and "response_method" in inspect.signature(getattr(sce, name)).parameters
                and name.startswith("make_")
                and "predict_proba" in (getattr(sce, name).__doc__ or "")]


@pytest.mark.parametrize("name", [*SOFT_SCORING, "compare_scores"])
def test_docstrings_say_soft_scores_are_not_proper(name):
    assert "make_transport_scorer" in SOFT_SCORING
    text = " ".join(getattr(sce, name).__doc__.split())
    assert "proper scoring rule" in text
    assert re.search(r"log_loss|neg_log_loss", text)
