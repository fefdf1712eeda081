"""Array API: the TCM and the MLCM of PyTorch tensors, on the GPU when there is one.

Times ``transport_confusion_matrix`` (N = 1,000,000 soft labels x 100 classes) and
``mlcm`` (N = 1,000,000 indicators x 20 classes) on NumPy and on PyTorch tensors, on
the CPU and, when ``torch.cuda.is_available()``, on the GPU (synchronised before the
clock stops). Without a GPU it says so and times the CPU only. Best of 5 runs each.

Then the three headline cases at N = 100,000, C = 100 (class labels, labels beside
probabilities, soft labels beside soft labels), PyTorch CPU tensors against the same
NumPy arrays, interleaved, best of 5 each: the target is at most 1.5x NumPy (CPU tensors
are read as NumPy views, once, and the result converted back once).

Then the resampled intervals (``--intervals``): ``score_confidence_interval`` of labels
beside probabilities (N = 20,000, C = 10, 999 resamples, percentile and BCa) on NumPy
arrays, PyTorch CPU tensors and ``array_api_strict`` arrays, interleaved, best of 3: the
bounds must be NumPy's to the bit, and CPU tensors within 1.5x NumPy's time (they are
resampled on views of their memory by the same batched builders).

Run: ``python benchmarks/bench_array_api.py [--quick] [--cpu-rows] [--intervals]``
(``--quick``: N = 100,000; ``--cpu-rows``: only the PyTorch CPU against NumPy rows;
``--intervals``: only the resampled intervals). Needs PyTorch (``pip install
torch==2.13.0`` on these machines: a CPU build).
"""

import argparse
from functools import partial

import numpy as np
from _timing import best_time

from sklearn_confusion_ext import mlcm, transport_confusion_matrix


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 100,000")
    parser.add_argument("--cpu-rows", action="store_true",
                        help="only PyTorch CPU against NumPy on the headline cases")
    parser.add_argument("--intervals", action="store_true",
                        help="only the resampled intervals of NumPy, PyTorch CPU and "
                             "array_api_strict arrays")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed: nothing to compare (pip install torch==2.13.0).")
        return
    intervals(torch)
    if args.intervals:
        return
    cpu_rows(torch)
    if args.cpu_rows:
        return
    n_samples = 100_000 if args.quick else 1_000_000
    rng = np.random.default_rng(0)
    cases = {
        "transport_confusion_matrix, soft, C=100": (
            transport_confusion_matrix, rng.random((n_samples, 100)),
            rng.random((n_samples, 100))),
        "mlcm, indicators, C=20": (
            mlcm, (rng.random((n_samples, 20)) < 0.1).astype(float),
            (rng.random((n_samples, 20)) < 0.1).astype(float)),
    }
    devices = ["cpu"]
    if torch.cuda.is_available():
        devices.append("cuda")
        print(f"GPU: {torch.cuda.get_device_name(0)}")
    else:
        print("No GPU here (torch.cuda.is_available() is False): PyTorch runs on the CPU only.")
    for name, (function, y_true, y_pred) in cases.items():
        reference = function(y_true, y_pred)
        numpy_time = best_time(partial(function, y_true, y_pred))
        line = f"{name}, N={n_samples:,}: NumPy {numpy_time:.3f} s"
        for device in devices:
            run = partial(_synchronized, torch, function,
                          *(torch.asarray(y, device=device) for y in (y_true, y_pred)))
            np.testing.assert_allclose(run().cpu().numpy(), reference, atol=1e-6)
            elapsed = best_time(run)
            line += f", torch {device} {elapsed:.3f} s ({numpy_time / elapsed:.2f}x)"
        print(line)


TARGET_CPU_RATIO = 1.5


def cpu_rows(torch, n_samples=100_000, n_classes=100, repeat=5):
    """Print PyTorch CPU tensors against NumPy on the headline cases (interleaved, best of
    ``repeat``); returns ``{case: (numpy_seconds, torch_seconds)}``."""
    import time

    rng = np.random.default_rng(0)
    labels = rng.integers(0, n_classes, n_samples), rng.integers(0, n_classes, n_samples)
    scores = [rng.dirichlet(np.ones(n_classes), n_samples) for _ in range(2)]
    cases = {"class labels": labels, "labels beside probabilities": (labels[0], scores[1]),
             "soft labels beside soft labels": tuple(scores)}
    print(f"PyTorch CPU tensors against NumPy, transport_confusion_matrix, N={n_samples:,}, "
          f"C={n_classes} (target at most {TARGET_CPU_RATIO}x):")
    results = {}
    for case, arrays in cases.items():
        tensors = tuple(torch.asarray(y) for y in arrays)
        np.testing.assert_allclose(transport_confusion_matrix(*tensors).numpy(),
                                   transport_confusion_matrix(*arrays), rtol=1e-12,
                                   atol=1e-9)
        times = {"numpy": [], "torch": []}
        for _ in range(repeat):  # interleaved: both see the same load
            for name, targets in (("numpy", arrays), ("torch", tensors)):
                start = time.perf_counter()
                transport_confusion_matrix(*targets)
                times[name].append(time.perf_counter() - start)
        numpy_time, torch_time = min(times["numpy"]), min(times["torch"])
        ratio = torch_time / numpy_time
        results[case] = (numpy_time, torch_time)
        print(f"  {case}: NumPy {numpy_time * 1e3:.1f} ms, torch cpu {torch_time * 1e3:.1f} ms"
              f", ratio {ratio:.2f}x ({'within' if ratio <= TARGET_CPU_RATIO else 'above'} "
              f"{TARGET_CPU_RATIO}x)")
    return results


def intervals(torch, n_samples=20_000, n_classes=10, n_resamples=999, repeat=3):
    """Print the resampled intervals of labels beside probabilities on NumPy arrays,
    PyTorch CPU tensors and ``array_api_strict`` arrays (interleaved, best of ``repeat``);
    returns ``{(method, library): (seconds, low, high)}`` (wall seconds; the CPU seconds,
    all threads, are printed beside them: on shared cores they are the steadier)."""
    import time

    from sklearn_confusion_ext import score_confidence_interval

    rng = np.random.default_rng(0)
    labels = rng.integers(0, n_classes, n_samples)
    scores = rng.dirichlet(np.ones(n_classes), n_samples)
    libraries = {"numpy": np.asarray, "torch cpu": torch.asarray}
    try:
        import array_api_strict

        libraries["array_api_strict"] = array_api_strict.asarray
    except ImportError:
        pass
    print(f"score_confidence_interval, labels beside probabilities, N={n_samples:,}, "
          f"C={n_classes}, {n_resamples} resamples (target: NumPy's bounds to the bit, "
          f"CPU tensors at most {TARGET_CPU_RATIO}x NumPy's time):")
    results = {}
    for method in ("percentile", "bca"):
        times = {name: [] for name in libraries}
        cpu = {name: [] for name in libraries}
        bounds = {}
        for _ in range(repeat):
            for name, asarray in libraries.items():
                arrays = asarray(labels), asarray(scores)
                start, cpu_start = time.perf_counter(), time.process_time()
                result = score_confidence_interval(*arrays, method=method,
                                                   n_resamples=n_resamples, random_state=0)
                times[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - cpu_start)
                bounds[name] = (result.low, result.high)
        line = f"  {method}:"
        for name in libraries:
            low, high = bounds[name]
            same = "same bits" if bounds[name] == bounds["numpy"] else "OTHER BOUNDS"
            results[method, name] = (min(times[name]), low, high)
            line += (f" {name} {min(times[name]):.2f} s (CPU {min(cpu[name]):.2f} s) "
                     f"[{low:.6f}, {high:.6f}]") + (
                "" if name == "numpy" else f" ({same}, "
                f"{min(times[name]) / min(times['numpy']):.2f}x wall, "
                f"{min(cpu[name]) / min(cpu['numpy']):.2f}x CPU)") + ";"
        print(line.rstrip(";"))
    return results


def _synchronized(torch, function, y_true, y_pred):
    """``function(y_true, y_pred)``, returning once the device has finished it."""
    result = function(y_true, y_pred)
    if y_true.device.type == "cuda":
        torch.cuda.synchronize()
    return result


if __name__ == "__main__":
    main()
