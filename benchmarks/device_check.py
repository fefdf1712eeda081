"""Check the device sums on a GPU against NumPy before timing them (a few seconds).

For CuPy and PyTorch on CUDA (each where it imports and sees a GPU; ``--dry-run``: PyTorch
CPU tensors down the CUDA route, where there is no GPU), every target form (labels beside
probabilities on either side, 1-D labels, soft labels, indicators), float64 and float32,
each weighting with and without sample weights, in one chunk and in many, the SCM bounds,
PyTorch's two segmented sums, the probability warning (once) and the errors that name the
row: the result must equal NumPy's. Prints one line per library and exits 1 on a mismatch.

Run from the repository root: ``PYTHONPATH=. python benchmarks/device_check.py``.
"""

import argparse
import sys
import warnings

import numpy as np

import sklearn_confusion_ext as sce

N_CLASSES = 7
FORMS = ["labels_vs_probabilities", "probabilities_vs_labels", "labels", "soft", "indicator"]


def targets(rng, form, n_samples, dtype):
    labels = rng.integers(0, N_CLASSES, n_samples)
    scores = rng.dirichlet(np.ones(N_CLASSES), n_samples).astype(dtype)
    if form == "labels_vs_probabilities":
        return labels, scores
    if form == "probabilities_vs_labels":
        return scores, labels
    if form == "labels":
        return labels, rng.integers(0, N_CLASSES, n_samples)
    if form == "soft":
        return (rng.random((n_samples, N_CLASSES)).astype(dtype),
                rng.random((n_samples, N_CLASSES)).astype(dtype))
    y_true = (rng.random((n_samples, N_CLASSES)) < 0.4).astype(dtype)
    y_true[:, 0] = 1
    return y_true, np.roll(y_true, 1, axis=1)


def libraries(dry_run):
    found = {}
    if dry_run:
        import torch

        from sklearn_confusion_ext._core import array_api

        array_api.is_cpu_tensor = lambda array: False
        return {"PyTorch CPU dry run": (torch.asarray, lambda a: a.numpy())}
    try:
        import cupy

        cupy.cuda.runtime.getDeviceCount()
        found["CuPy"] = (cupy.asarray, cupy.asnumpy)
    except Exception as error:
        print(f"CuPy left out: {type(error).__name__}: {error}")
    try:
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False")
        found["PyTorch"] = (lambda a: torch.asarray(a, device="cuda"),
                            lambda a: a.cpu().numpy())
    except Exception as error:
        print(f"PyTorch on CUDA left out: {type(error).__name__}: {error}")
    return found


def check(name, to_device, to_host, rng, n_samples):
    failures = []

    def expect(what, got, expected, dtype=np.float64):
        tolerance = dict(rtol=1e-5, atol=1e-4) if dtype == np.float32 else dict(atol=1e-9)
        got = np.stack([to_host(part) for part in got]) if isinstance(got, tuple) \
            else to_host(got)
        if not np.allclose(got, np.stack(expected) if isinstance(expected, tuple)
                           else expected, **tolerance):
            failures.append(what)

    from sklearn_confusion_ext._core import device_sums

    for form in FORMS:
        for dtype in (np.float64, np.float32):
            y_true, y_pred = targets(rng, form, n_samples, dtype)
            weights = rng.random(n_samples)
            for weighting, sample_weight in (("uniform", None), ("true", weights),
                                             ("pred", None), ("uniform", weights)):
                expected = sce.transport_confusion_matrix(
                    y_true, y_pred, weighting=weighting, sample_weight=sample_weight)
                for chunk_size in (None, 997):
                    for segmented in ("index_add", "sparse"):
                        device_sums.TORCH_SEGMENTED_SUM = segmented
                        got = sce.transport_confusion_matrix(
                            to_device(y_true), to_device(y_pred), weighting=weighting,
                            chunk_size=chunk_size,
                            sample_weight=None if sample_weight is None
                            else to_device(sample_weight))
                        device_sums.TORCH_SEGMENTED_SUM = "index_add"
                        expect(f"{form} {np.dtype(dtype).name} {weighting} "
                               f"{'weighted' if sample_weight is not None else ''} "
                               f"chunk {chunk_size} {segmented}", got, expected, dtype)
            expect(f"{form} {np.dtype(dtype).name} SCM bounds",
                   sce.subpixel_confusion_matrix(to_device(y_true), to_device(y_pred),
                                                 chunk_size=997),
                   sce.subpixel_confusion_matrix(y_true, y_pred), dtype)
    y_true, scores = targets(rng, "labels_vs_probabilities", n_samples, np.float64)
    scores[n_samples // 2:] *= 2
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        sce.transport_confusion_matrix(to_device(y_true), to_device(scores), chunk_size=997)
    if len(seen) != 1 or f"row {n_samples // 2} sums to 2" not in str(seen[0].message):
        failures.append(f"the probability warning: {[str(w.message) for w in seen]}")
    scores[n_samples // 2:] /= 2
    scores[1234, 2] = -0.5
    try:
        sce.transport_confusion_matrix(to_device(y_true), to_device(scores))
        failures.append("a negative probability was not refused")
    except ValueError as error:
        if "row 1234" not in str(error):
            failures.append(f"the negative value's error: {error}")
    print(f"{name}: {'all equal to NumPy' if not failures else 'MISMATCH: ' + '; '.join(failures)}",
          flush=True)
    return not failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true",
                        help="PyTorch CPU tensors down the CUDA route (no GPU needed)")
    parser.add_argument("--n-samples", type=int, default=5_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    found = libraries(args.dry_run)
    if not found:
        print("no device library: nothing checked")
        return 0
    ok = [check(name, *functions, rng, args.n_samples) for name, functions in found.items()]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
