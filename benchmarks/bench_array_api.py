"""Array API: the TCM and the MLCM of PyTorch tensors, on the GPU when there is one.

Times ``transport_confusion_matrix`` (N = 1,000,000 soft labels x 100 classes) and
``mlcm`` (N = 1,000,000 indicators x 20 classes) on NumPy and on PyTorch tensors, on
the CPU and, when ``torch.cuda.is_available()``, on the GPU (synchronised before the
clock stops). Without a GPU it says so and times the CPU only. Best of 5 runs each.

Run: ``python benchmarks/bench_array_api.py [--quick]`` (``--quick``: N = 100,000).
Needs PyTorch (``pip install torch==2.13.0`` on these machines: a CPU build).
"""

import argparse
from functools import partial

import numpy as np
from _timing import best_time

from sklearn_confusion_ext import mlcm, transport_confusion_matrix


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 100,000")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed: nothing to compare (pip install torch==2.13.0).")
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


def _synchronized(torch, function, y_true, y_pred):
    """``function(y_true, y_pred)``, returning once the device has finished it."""
    result = function(y_true, y_pred)
    if y_true.device.type == "cuda":
        torch.cuda.synchronize()
    return result


if __name__ == "__main__":
    main()
