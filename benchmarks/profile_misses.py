"""Where the time goes in the speed rows that miss their targets (README, Speed).

Run: ``python benchmarks/profile_misses.py [--only gpu sparse resampling soft]``. Prints,
for each, the top functions (cProfile, by cumulative time) or the top device kernels
(``torch.profiler``, by CUDA time), with the sizes of ``compare.py``'s rows.
"""

import argparse
import cProfile
import pstats

import numpy as np
import scipy.sparse as sp
from _timing import best_time

import sklearn_confusion_ext as sce


def _cprofile(title, function, lines=14):
    function()  # warm
    profile = cProfile.Profile()
    profile.enable()
    function()
    profile.disable()
    print(f"\n== {title}")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(lines)


def profile_sparse(rng, n_samples=1_000_000, n_classes=1_000):
    def multilabel():
        rows = np.repeat(np.arange(n_samples), 3)
        matrix = sp.csr_array((np.ones(3 * n_samples), (rows, rng.integers(0, n_classes,
                                                                           3 * n_samples))),
                              shape=(n_samples, n_classes))
        matrix.data[:] = 1
        return matrix

    s_true, s_pred = multilabel(), multilabel()
    for n_jobs in (1, 4, None):
        seconds = best_time(
            lambda j=n_jobs: sce.transport_confusion_matrix(s_true, s_pred, n_jobs=j), 3)
        print(f"sparse TCM n_jobs={n_jobs}: {seconds:.3f} s")
    print(f"sparse S1.T @ S2: {best_time(lambda: s_true.T @ s_pred):.3f} s")
    _cprofile(f"sparse TCM, N={n_samples:,} C={n_classes:,}",
              lambda: sce.transport_confusion_matrix(s_true, s_pred))


def profile_resampling(rng, n_samples=100_000, n_classes=100):
    y_true = rng.integers(0, n_classes, n_samples)
    scores = rng.dirichlet(np.ones(n_classes), n_samples)
    _cprofile("BCa interval, labels vs probabilities, N=100,000 C=100, 9,999 resamples",
              lambda: sce.score_confidence_interval(y_true, scores, random_state=0), 22)


def profile_soft(rng, n_samples=1_000_000, n_classes=10):
    y_true, y_pred = rng.random((n_samples, n_classes)), rng.random((n_samples, n_classes))
    for n_jobs in (1, None):
        seconds = best_time(
            lambda j=n_jobs: sce.transport_confusion_matrix(y_true, y_pred, n_jobs=j), 3)
        print(f"soft TCM C={n_classes} n_jobs={n_jobs}: {seconds:.4f} s")
    print(f"one Y.T @ P: {best_time(lambda: y_true.T @ y_pred):.4f} s")


def profile_gpu(rng, n_samples=1_000_000, n_classes=100):
    try:
        import torch
    except ImportError:
        print("gpu: PyTorch is not installed")
        return
    if not torch.cuda.is_available():
        print("gpu: no CUDA device")
        return
    from torch.profiler import ProfilerActivity, profile

    labels = torch.asarray(rng.integers(0, n_classes, n_samples), device="cuda")
    scores = torch.asarray(rng.dirichlet(np.ones(n_classes), n_samples), device="cuda")
    soft = torch.asarray(rng.dirichlet(np.ones(n_classes), n_samples), device="cuda")
    for title, call in [("labels vs probabilities", lambda: sce.transport_confusion_matrix(
                            labels, scores)),
                        ("soft vs soft", lambda: sce.transport_confusion_matrix(soft, scores))]:
        call()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            call()
            torch.cuda.synchronize()
        print(f"\n== PyTorch {title}, float64, N={n_samples:,} C={n_classes}")
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=12,
                                        max_name_column_width=60))
        print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=8,
                                        max_name_column_width=60))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=None)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    profiles = {"gpu": profile_gpu, "sparse": profile_sparse,
                "resampling": profile_resampling, "soft": profile_soft}
    for name, function in profiles.items():
        if args.only is None or name in args.only:
            function(rng)


if __name__ == "__main__":
    main()
