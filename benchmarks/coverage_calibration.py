"""Coverage of the calibration and decision intervals and bands, by simulation.

Each test set draws ``n`` instances from a generator whose true probabilities are known:

- ``binary``: the model says ``p ~ U(0, 1)``, the truth is ``expit(slope * logit(p))``;
- ``3 classes``: logits ``z ~ N(0, 2.25 I)``, the model says ``softmax(z)``, the truth is
  ``softmax(slope * z)``.

``slope=1`` is a calibrated model, ``slope<1`` an overconfident one (its probabilities too
extreme), ``slope>1`` an underconfident one. The true values (the binned calibration
error in the data's bins' population version, each bin's frequency, the risk at a
threshold, the Brier score, the expected cost) are computed on two million instances of the
same generator, from the true probabilities themselves (not from drawn outcomes).

For each generator and size, ``--repeats`` test sets are drawn and the 95 % intervals
computed (999 resamples); the share that holds the true value is printed:

- ``ece``: ``score_confidence_interval(scoring=expected_calibration_error)`` (L1, top label,
  15 equal-width bins; the binary generator: its positive class, 10 bins), ``norm_bound``;
- ``ece (bca)``: the BCa interval of the same error, resampled as any metric (what the
  interval was before the norm bound), for comparison, on the first 20 test sets (n <= 1000);
- ``bins``: the reliability curve's Wilson band, over all non-empty bins;
- ``risk``: the risk-coverage curve's Wilson band at the thresholds 0.5, 0.7 and 0.9;
- ``brier``: ``scoring="neg_brier_score"`` (binary) and ``expected cost`` of the argmax
  decisions under a cost matrix (BCa).

    python benchmarks/coverage_calibration.py            # the user guide's table (~15 min)
    python benchmarks/coverage_calibration.py --quick    # a smoke run
"""

import argparse
import time
import warnings

import numpy as np
from scipy.special import expit, logit, softmax

from sklearn_confusion_ext import (
    expected_calibration_error,
    expected_cost,
    reliability_curve,
    risk_coverage_curve,
    score_confidence_interval,
)

COST = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 1.0], [1.0, 3.0, 0.0]])
THRESHOLDS = (0.5, 0.7, 0.9)


def model(kind, slope, n, rng):
    """(model probabilities, true probabilities), each (n, C)."""
    if kind == "binary":
        p = rng.uniform(1e-6, 1 - 1e-6, size=n)
        q = expit(slope * logit(p))
        return np.c_[1 - p, p], np.c_[1 - q, q]
    z = rng.normal(scale=1.5, size=(n, 3))
    return softmax(z, axis=1), softmax(slope * z, axis=1)


def outcomes(q, rng):
    """One class per row drawn from the true probabilities ``q``."""
    return (rng.random((len(q), 1)) > np.cumsum(q, axis=1)[:, :-1]).sum(axis=1)


def confidences(kind, p, q):
    """(confidence, its true frequency) of the curve the ECE reads."""
    if kind == "binary":
        return p[:, 1], q[:, 1]
    top = p.argmax(axis=1)
    return p.max(axis=1), q[np.arange(len(q)), top]


def truths(kind, slope, rng, size=2_000_000):
    p, q = model(kind, slope, size, rng)
    confidence, frequency = confidences(kind, p, q)
    n_bins = 10 if kind == "binary" else 15
    ids = np.clip(np.ceil(confidence * n_bins).astype(int) - 1, 0, n_bins - 1)
    ece = np.abs(np.bincount(ids, frequency - confidence, n_bins)).sum() / size
    order = np.argsort(-p.max(axis=1))
    wrong = 1 - q[np.arange(size), p.argmax(axis=1)]
    top = p.max(axis=1)[order]
    risk = {t: wrong[order][top >= t].mean() for t in THRESHOLDS}
    brier = np.mean(q[:, 1] * (1 - p[:, 1]) ** 2 + q[:, 0] * p[:, 1] ** 2) \
        if kind == "binary" else None
    decisions = p.argmax(axis=1)
    cost = np.mean((q * COST[:, decisions].T).sum(axis=1)) if kind != "binary" else None
    edges = np.linspace(0, 1, n_bins + 1)
    return dict(ece=ece, risk=risk, brier=brier, cost=cost, n_bins=n_bins, edges=edges,
                bin_ids=ids, confidence=confidence, frequency=frequency)


def bin_truth(truth, edges_ids):
    """The true frequency of each bin of the equal-width bins."""
    ids, frequency = truth["bin_ids"], truth["frequency"]
    sums = np.bincount(ids, frequency, truth["n_bins"])
    counts = np.bincount(ids, minlength=truth["n_bins"])
    return sums[edges_ids] / counts[edges_ids]


def one_set(kind, slope, n, truth, rng, seed, with_bca):
    p, q = model(kind, slope, n, rng)
    y = outcomes(q, rng)
    covered = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        target = "binary" if kind == "binary" else "top_label"
        y_prob = p[:, 1] if kind == "binary" else p
        # binary: the positive class's curve (the classwise mean of two mirrored curves)
        keywords = {"n_bins": truth["n_bins"],
                    "target": "classwise" if kind == "binary" else "top_label"}
        result = score_confidence_interval(y, p, scoring=expected_calibration_error,
                                           n_resamples=999, random_state=seed, **keywords)
        covered["ece"] = result.low <= truth["ece"] <= result.high
        if with_bca:
            bca = score_confidence_interval(y, p, scoring=_AsMetric(keywords), method="bca",
                                            n_resamples=999, random_state=seed)
            covered["ece (bca)"] = bca.low <= truth["ece"] <= bca.high
        curve = reliability_curve(y, y_prob, n_bins=truth["n_bins"], target=target)
        true_bins = bin_truth(truth, curve.bin_index)
        covered["bins"] = np.mean((curve.low <= true_bins) & (true_bins <= curve.high))
        risk = risk_coverage_curve(y, p)
        hits = []
        for threshold in THRESHOLDS:
            at = np.flatnonzero(risk.thresholds >= threshold)
            if at.size:
                point = at[-1]
                hits.append(risk.low[point] <= truth["risk"][threshold] <= risk.high[point])
        covered["risk"] = np.mean(hits) if hits else np.nan
        if kind == "binary":
            brier = score_confidence_interval(y, p, scoring="neg_brier_score",
                                              n_resamples=999, random_state=seed)
            covered["brier"] = brier.low <= -truth["brier"] <= brier.high
        else:
            cost = score_confidence_interval(y, p.argmax(axis=1), scoring=expected_cost,
                                             cost_matrix=COST, n_resamples=999,
                                             random_state=seed)
            covered["cost"] = cost.low <= truth["cost"] <= cost.high
    return covered


class _AsMetric:
    """The ECE as an opaque metric: resampled, then BCa, as before the norm bound."""

    def __init__(self, keywords):
        self.keywords = keywords
        self.__name__ = "ece_as_metric"

    def __call__(self, y_true, y_prob, sample_weight=None):
        return expected_calibration_error(y_true, y_prob, sample_weight=sample_weight,
                                          **self.keywords)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    sizes = (100, 300) if args.quick else (100, 1000, 10000)
    repeats = 5 if args.quick else args.repeats
    generators = [("binary", 1.0), ("binary", 0.8), ("binary", 0.5), ("3 classes", 1.0),
                  ("3 classes", 1.5), ("3 classes", 0.7)]
    print(f"{'generator':<22}{'n':>7}{'true ECE':>10}  coverage of the 95 % intervals "
          f"({repeats} test sets)")
    for kind, slope in generators:
        truth = truths(kind, slope, np.random.default_rng(12345))
        for n in sizes:
            start = time.process_time()
            rng = np.random.default_rng([n, int(100 * slope), len(kind)])
            sets = [one_set(kind, slope, n, truth, rng, seed, with_bca=n <= 1000 and seed < 20)
                    for seed in range(repeats if n < 10000 else max(repeats // 2, 1))]
            shown = "  ".join(f"{name} {np.nanmean([s.get(name, np.nan) for s in sets]):.3f}"
                              for name in sets[0])
            print(f"{kind + f', slope {slope}':<22}{n:>7}{truth['ece']:>10.4f}  {shown}"
                  f"  [{time.process_time() - start:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
