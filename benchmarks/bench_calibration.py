"""Speed of calibration and decisions beside one read of the probabilities and the peers.

Prints, in one process and on the same data (N = 1,000,000 instances, C = 100 classes,
float64 probabilities of an overconfident model; binary problems of N probabilities):

1. the floor, one read of the (N, C) probabilities: ``P.sum(axis=0)`` (a streaming read)
   and ``P.max(axis=1)`` (a read that reduces each row, as the top label does);
2. ``reliability_curve`` (``target="top_label"`` on (N, C), ``"binary"`` on N),
   ``expected_calibration_error``, ``brier_score_decomposition``,
   ``risk_coverage_curve`` and ``threshold_confusion_matrices`` (binary, N thresholds);
3. beside scikit-learn's ``calibration_curve`` and ``brier_score_loss`` and torchmetrics'
   ``MulticlassCalibrationError`` (skipped, with a line saying so, where torchmetrics is
   not installed), each checked to give the same values.

Each row gives the best of a few runs: wall time, CPU time (``time.process_time``, every
thread of the process) and both as a ratio to the floor's. The quality bar of issue 37:
the reliability curve and ECE within 1.5x of one read of the probabilities.

Before them, the table of the compiled row kernels (``_core/_row_kernels.pyx``, issue 37):
at N = 1,000,000 and C = 10 and 100, float64 and float32, the floors ``P.sum(axis=0)`` and
``P.max(axis=1)``, the internal top-label path (the checking pass, the top labels and the
binned sums) on the NumPy reference and on the compiled kernel, and the whole public calls
(ECE top label, equal width and equal mass; ``reliability_curve`` top label; classwise
ECE), each as wall and CPU time and their ratios to ``P.sum(axis=0)``.

Run: ``python benchmarks/bench_calibration.py [--quick] [--kernels-only]`` (``--quick``
divides N by 10; ``--kernels-only`` prints the first table alone).
"""

import argparse
import time
from functools import partial

import numpy as np
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from sklearn_confusion_ext import (
    brier_score_decomposition,
    expected_calibration_error,
    reliability_curve,
    risk_coverage_curve,
    threshold_confusion_matrices,
)
from sklearn_confusion_ext._core.probabilities import checked_probabilities


def best_times(function, repeat=5):
    """The fastest wall time and the fastest CPU time of ``repeat`` runs, in seconds."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def overconfident(rng, n_samples, n_classes, step=65_536):
    """Labels drawn from softmax(logits) and the probabilities softmax(1.5 logits), built
    in row chunks (the benchmark's own memory stays one (N, C) array)."""
    prob = np.empty((n_samples, n_classes))
    y = np.empty(n_samples, dtype=np.intp)
    for start in range(0, n_samples, step):
        logits = 2.0 * rng.standard_normal((min(step, n_samples - start), n_classes))
        truth = np.exp(logits - logits.max(axis=1, keepdims=True))
        truth /= truth.sum(axis=1, keepdims=True)
        u = rng.random(truth.shape[0])[:, None]
        y[start:start + step] = np.minimum((truth.cumsum(axis=1) < u).sum(axis=1),
                                           n_classes - 1)
        sharp = np.exp(1.5 * (logits - logits.max(axis=1, keepdims=True)))
        prob[start:start + step] = sharp / sharp.sum(axis=1, keepdims=True)
    return y, prob


def torch_calibration_error():
    """torchmetrics' functional ECE, or None where it is not installed."""
    try:
        import torch
        from torchmetrics.functional.classification import multiclass_calibration_error
    except ImportError:
        return None
    return torch, multiclass_calibration_error


def _internal_top_label(y, prob, strategy):
    """The internal path of the top-label ECE: the checked probabilities (one pass: row
    sums, smallest entry, top labels) and the binned sums of the top label."""
    from sklearn_confusion_ext._calibration.bins import binned, curves

    data = checked_probabilities("bench", y, prob, top_label=True, keep_float32=True)
    (_, confidence, outcome), = curves(data, "top_label")
    return binned(confidence, outcome, None, 15, strategy)


def _without_row_kernels(function):
    """``function`` run on the NumPy references (the row kernels switched off)."""
    from sklearn_confusion_ext._core import kernels

    def run():
        saved, kernels.ROW_COMPILED = kernels.ROW_COMPILED, None
        try:
            return function()
        finally:
            kernels.ROW_COMPILED = saved
    return run


def _cases(y, prob, compiled):
    """The rows of :func:`kernel_table` of one (N, C) array."""
    cases = [("P.max(axis=1)", lambda: prob.max(axis=1))]
    if compiled is not None:
        cases += [
            ("internal top label, NumPy reference",
             _without_row_kernels(lambda: _internal_top_label(y, prob, "uniform"))),
            ("internal top label, compiled",
             lambda: _internal_top_label(y, prob, "uniform"))]
    return cases + [
        ("ECE top label, equal width", lambda: expected_calibration_error(y, prob, n_bins=15)),
        ("ECE top label, equal mass",
         lambda: expected_calibration_error(y, prob, n_bins=15, strategy="quantile")),
        ("reliability_curve top label",
         lambda: reliability_curve(y, prob, target="top_label", n_bins=15)),
        ("ECE classwise, equal width",
         lambda: expected_calibration_error(y, prob, n_bins=15, target="classwise")),
        ("ECE classwise, equal mass",
         lambda: expected_calibration_error(y, prob, n_bins=15, target="classwise",
                                            strategy="quantile"))]


def kernel_table(n_samples, repeat):
    """The table of issue 37: the floors, the NumPy and compiled internal paths and the
    public calls, side by side (best CPU and wall time of ``repeat`` rounds, the floor
    timed in each round beside each row)."""
    try:
        from sklearn_confusion_ext._core.kernels import compiled_row_kernels
        compiled = compiled_row_kernels() is not None
    except ImportError:  # before the row kernels existed
        compiled = None
    print(f"Row kernels (issue 37): N={n_samples:,}, best of {repeat} (min CPU time); "
          f"ratios to the floor P.sum(axis=0); compiled row kernels: {compiled}")
    print(f"{'':44s} {'wall s':>8s} {'CPU s':>8s} {'wall x':>7s} {'CPU x':>7s}")
    for n_classes in (10, 100):
        y, prob64 = overconfident(np.random.default_rng(0), n_samples, n_classes)
        for dtype in (np.float64, np.float32):
            prob = prob64 if dtype == np.float64 else prob64.astype(np.float32)
            cases = _cases(y, prob, compiled)
            print(f"C={n_classes} {np.dtype(dtype).name}")
            floor = np.array([np.inf, np.inf])
            results = []
            for name, function in cases:
                best = np.array([np.inf, np.inf])
                for _ in range(repeat):
                    floor = np.minimum(floor, best_times(partial(prob.sum, axis=0), 1))
                    best = np.minimum(best, best_times(function, 1))
                results.append((name, best))
            for name, (wall, cpu) in [("floor: P.sum(axis=0)", floor), *results]:
                print(f"  {name:42s} {wall:8.4f} {cpu:8.4f} {wall / floor[0]:7.2f} "
                      f"{cpu / floor[1]:7.2f}")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10")
    parser.add_argument("--kernels-only", action="store_true",
                        help="the table of the row kernels alone")
    args = parser.parse_args()
    kernel_table(1_000_000 // (10 if args.quick else 1), 3 if args.quick else 5)
    if args.kernels_only:
        return
    n_samples, n_classes = 1_000_000 // (10 if args.quick else 1), 100
    repeat = 3 if args.quick else 5
    rng = np.random.default_rng(0)
    y, prob = overconfident(rng, n_samples, n_classes)
    y_binary = rng.integers(0, 2, n_samples)
    p_binary = np.clip(rng.random(n_samples) * 0.6 + 0.4 * y_binary, 0.0, 1.0)

    rows = []
    floors = {"sum": [np.inf, np.inf], "max": [np.inf, np.inf]}
    reads = {"sum": lambda: prob.sum(axis=0), "max": lambda: prob.max(axis=1)}

    def row(name, function):
        """Best times of ``function``, the floors timed beside it in each round (the
        machine's load drifts: the ratios compare runs made side by side)."""
        wall = cpu = np.inf
        for _ in range(repeat):
            for key, read in reads.items():
                floors[key] = np.minimum(floors[key], best_times(read, 1))
            wall, cpu = np.minimum((wall, cpu), best_times(function, 1))
        rows.append((name, wall, cpu))

    row("reliability_curve top_label (N, C)",
        lambda: reliability_curve(y, prob, target="top_label", n_bins=15))
    row("expected_calibration_error (N, C)",
        lambda: expected_calibration_error(y, prob, n_bins=15))
    row("risk_coverage_curve (N, C)", lambda: risk_coverage_curve(y, prob))
    row("reliability_curve binary (N,)", lambda: reliability_curve(y_binary, p_binary))
    row("brier_score_decomposition (N,)",
        lambda: brier_score_decomposition(y_binary, p_binary))
    row("threshold_confusion_matrices (N,)",
        lambda: threshold_confusion_matrices(y_binary, p_binary))
    row("sklearn calibration_curve (N,)",
        lambda: calibration_curve(y_binary, p_binary, n_bins=10))
    row("sklearn brier_score_loss (N,)", lambda: brier_score_loss(y_binary, p_binary))
    peer = torch_calibration_error()
    if peer is not None:
        torch, calibration_error = peer
        preds, target = torch.from_numpy(prob), torch.from_numpy(y)
        row("torchmetrics MulticlassCalibrationError (N, C)",
            lambda: calibration_error(preds, target, num_classes=n_classes, n_bins=15))

    print(f"N={n_samples:,} C={n_classes}, best of {repeat}; ratios to the floor "
          f"P.sum(axis=0) and, in brackets, P.max(axis=1)")
    print(f"{'':48s} {'wall s':>8s} {'CPU s':>8s} {'wall x':>14s} {'CPU x':>14s}")
    rows[:0] = [("floor: P.sum(axis=0)", *floors["sum"]),
                ("floor: P.max(axis=1)", *floors["max"])]
    for name, wall, cpu in rows:
        ratios = [f"{value / floors['sum'][k]:5.2f} ({value / floors['max'][k]:4.2f})"
                  for k, value in enumerate((wall, cpu))]
        print(f"{name:48s} {wall:8.4f} {cpu:8.4f} {ratios[0]:>14s} {ratios[1]:>14s}")

    # The same values as the peers
    ours = reliability_curve(y_binary, p_binary, n_bins=10)
    prob_true, prob_pred = calibration_curve(y_binary, p_binary, n_bins=10)
    bins_agree = np.allclose(ours.prob_true, prob_true, rtol=1e-12, atol=0) and \
        np.allclose(ours.prob_pred, prob_pred, rtol=1e-12, atol=0)
    top = reliability_curve(y, prob, target="top_label", n_bins=15)
    top_true, top_pred = calibration_curve(prob.argmax(axis=1) == y, prob.max(axis=1),
                                           n_bins=15)
    bins_agree &= np.allclose(top.prob_true, top_true, rtol=1e-12, atol=0) and \
        np.allclose(top.prob_pred, top_pred, rtol=1e-12, atol=0)
    brier = brier_score_decomposition(y_binary, p_binary).brier
    print(f"reliability_curve (binary, top label) equals calibration_curve (rtol 1e-12): "
          f"{bins_agree}; "
          f"brier - brier_score_loss = {brier - brier_score_loss(y_binary, p_binary):.1e}")
    if peer is None:
        print("torchmetrics is not installed: its CalibrationError is skipped")
    else:
        theirs = float(calibration_error(preds, target, num_classes=n_classes, n_bins=15))
        ece = expected_calibration_error(y, prob, n_bins=15)
        print(f"ECE {ece:.8f}, torchmetrics {theirs:.8f} (float32): difference "
              f"{abs(ece - theirs):.1e} (target ~1e-6)")


if __name__ == "__main__":
    main()
