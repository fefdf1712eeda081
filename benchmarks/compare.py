"""One benchmark that tells the truth: every speed target of the library beside its anchor.

Each row times a call of this library and the call it is measured against (scikit-learn,
a plain NumPy/SciPy product, the physical floor, a bootstrap of scipy or of
``confidenceinterval``) on the same arrays, the runs of the two interleaved so that a slow
spell of the machine hits both alike, the best of ``k`` kept, in wall time and, apart, in
CPU time (``time.process_time``: the work a call costs, every thread counted; on a shared
machine the steadier of the two). ``ratio`` is ours / anchor in both (below 1: ours is
faster); a row's target is checked on the CPU ratio. The table is reStructuredText, ready
for the documentation's benchmarks page; the machine and date come first.

Run: ``python benchmarks/compare.py [--quick] [--repeat K] [--only NAME ...]`` (``--quick``
divides N by 10, except the fold-size rows, which stay at N = 300, and takes the best of 2;
CI runs it; ``--only`` runs the named groups of rows: gpu, labels, strings, probabilities,
fold, dense, mlcm, sparse, uncertainty, dask, tensors; ``--gpu`` adds the GPU rows to all
the others; ``--gpu-only`` runs only them; ``--gpu-dry-run`` checks them on the CPU, no GPU needed).
Labels vs probabilities run C = 1,000 at N / 10 (800 MB of float64); their working memory
is measured up to N = 1e8 (C = 2) where 8 GB are free.
The figures measure the library as installed (an editable install: the working tree).
"""

import argparse
import datetime
import os
import platform
import time
from dataclasses import dataclass
from functools import partial

import numpy as np
import scipy
import scipy.sparse as sp
import sklearn
from _timing import kernel_alone, probabilities, settle
from bench_uncertainty import labels, macro_f1_statistic, seed_keyword
from scipy import stats
from sklearn import metrics
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits

import sklearn_confusion_ext as sce

N_CLASSES = 100


class Seconds(float):
    """Wall-clock seconds of a call (the float's value) carrying the CPU seconds of the same
    calls (``cpu``: ``time.process_time``, every thread of the process). Scaling and
    adding keep both, so a row's arithmetic (``10 * t["floor"]``, ``t["a"] / 99``) keeps
    its CPU time; a plain float has no CPU time (``cpu`` is None)."""

    def __new__(cls, wall, cpu=None):
        seconds = super().__new__(cls, wall)
        seconds.cpu = cpu
        return seconds

    def _map(self, other, operation):
        if isinstance(other, Seconds):
            cpu = None if None in (self.cpu, other.cpu) else operation(self.cpu, other.cpu)
            return Seconds(operation(float(self), float(other)), cpu)
        return Seconds(operation(float(self), other),
                       None if self.cpu is None else operation(self.cpu, other))

    def __mul__(self, other):
        return self._map(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._map(other, lambda a, b: a / b)

    def __add__(self, other):
        return self._map(other, lambda a, b: a + b)

    __radd__ = __add__


def cpu_of(value):
    return getattr(value, "cpu", None)


@dataclass
class Row:
    """One line of the table: ours against one anchor, with the issue's target if any.

    ``ours`` and ``anchor`` are :class:`Seconds` (wall time with its CPU time) or plain
    seconds. ``target`` is ``("ratio", r)`` (ours / anchor at most r: in CPU time where
    both carry it, the work a call costs on a shared machine, else in wall time) or
    ``("time", s)`` (ours at most s wall seconds), or None.
    """

    what: str
    ours: float
    anchor_name: str
    anchor: float
    target: tuple = None
    # A row that is no timing (bytes a row): ``ours`` and ``anchor`` as they are.
    unit: str = None

    @property
    def ratio(self):
        return self.ours / self.anchor if self.anchor else np.nan

    @property
    def cpu_ratio(self):
        ours, anchor = cpu_of(self.ours), cpu_of(self.anchor)
        return ours / anchor if ours is not None and anchor else np.nan

    def met(self):
        if self.target is None:
            return ""
        kind, bound = self.target
        if kind == "ratio":
            value = self.cpu_ratio if np.isfinite(self.cpu_ratio) else self.ratio
        else:
            value = self.ours
        return "yes" if value <= bound else "no"


def interleaved_best(functions, repeat, calls=1, warm_up=True):
    """:class:`Seconds` per call of each of ``functions`` (a dict): the best of ``repeat``
    rounds in wall time and, apart, in CPU time, each round timing ``calls`` calls of every
    function in turn, after one untimed call of each (first-call costs: imports, caches,
    thread pools) unless ``warm_up`` is False; each timing starts once the process is idle
    (:func:`settle`: no BLAS thread of the call before still spinning)."""
    if warm_up:
        for function in functions.values():
            function()
    wall = dict.fromkeys(functions, np.inf)
    cpu = dict.fromkeys(functions, np.inf)
    for _ in range(repeat):
        for name, function in functions.items():
            settle()
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(calls):
                function()
            cpu[name] = min(cpu[name], (time.process_time() - start_cpu) / calls)
            wall[name] = min(wall[name], (time.perf_counter() - start) / calls)
    return {name: Seconds(wall[name], cpu[name]) for name in functions}


def pair_code_floor(y_true, y_pred, n_classes, weights=None):
    """The physical floor of a confusion matrix of codes: one bincount of the pair codes."""
    return np.bincount(y_true * n_classes + y_pred, weights=weights,
                       minlength=n_classes * n_classes).reshape(n_classes, n_classes)


# ---------------------------------------------------------------- 1. 1-D labels, N x C = 100

def rows_labels(rng, n_samples, repeat):
    n = f"N={n_samples:,} C={N_CLASSES}"
    y_true, y_pred = labels(rng, n_samples, N_CLASSES)
    names = np.array([f"class {i:03d}" for i in range(N_CLASSES)])
    s_true, s_pred = names[y_true], names[y_pred]
    weight = rng.random(n_samples)
    accumulator = sce.ConfusionAccumulator("transport")

    def accumulate():
        accumulator.reset()
        accumulator.update(y_true, y_pred)
        return accumulator.result()

    t = interleaved_best({
        "tcm": lambda: sce.transport_confusion_matrix(y_true, y_pred),
        "sk": lambda: metrics.confusion_matrix(y_true, y_pred),
        "floor": lambda: pair_code_floor(y_true, y_pred, N_CLASSES),
        "tcm_str": lambda: sce.transport_confusion_matrix(s_true, s_pred),
        "sk_str": lambda: metrics.confusion_matrix(s_true, s_pred),
        "tcm_w": lambda: sce.transport_confusion_matrix(y_true, y_pred, sample_weight=weight),
        "sk_w": lambda: metrics.confusion_matrix(y_true, y_pred, sample_weight=weight),
        "floor_w": lambda: pair_code_floor(y_true, y_pred, N_CLASSES, weight),
        "mlcm": lambda: sce.mlcm(y_true, y_pred),
        "acc": accumulate,
        "prf": lambda: sce.transport_precision_recall_fscore_support(y_true, y_pred,
                                                                      average="macro"),
        "f1": lambda: metrics.f1_score(y_true, y_pred, average="macro"),
    }, repeat)
    cm, floor = "sklearn confusion_matrix", "np.bincount of pair codes"
    return [
        Row(f"TCM, integer labels {n}", t["tcm"], cm, t["sk"], ("ratio", 0.2)),
        Row("same", t["tcm"], floor, t["floor"], ("ratio", 3.0)),
        Row(f"TCM, string labels {n}", t["tcm_str"], cm, t["sk_str"], ("ratio", 1 / 3)),
        Row("same", t["tcm_str"], floor + " (of codes)", t["floor"]),
        Row(f"TCM, integer labels, sample_weight {n}", t["tcm_w"], cm, t["sk_w"],
            ("ratio", 0.2)),
        Row("same", t["tcm_w"], "np.bincount(weights=) of pair codes", t["floor_w"],
            ("ratio", 3.0)),
        Row(f"mlcm, integer labels {n}", t["mlcm"], cm, t["sk"], ("ratio", 0.2)),
        Row(f"ConfusionAccumulator, one update {n}", t["acc"], cm, t["sk"], ("ratio", 0.2)),
        Row(f"TCM macro precision/recall/F {n}", t["prf"], "sklearn f1_score macro", t["f1"]),
        Row("same", t["prf"], cm, t["sk"], ("ratio", 0.2)),
    ]


# ------------------------------------------------------------------ 2. fold size, N=300 C=5

def rows_fold(rng, repeat, calls=200):
    y_true, y_pred = labels(rng, 300, 5)
    x = rng.normal(size=(300, 20)) + y_true[:, None] * 0.3
    classifier = LogisticRegression(max_iter=1000).fit(x, y_true)
    ours, theirs = sce.get_scorer("tcm_f1_macro"), metrics.get_scorer("f1_macro")
    t = interleaved_best({
        "prf": lambda: sce.transport_precision_recall_fscore_support(y_true, y_pred,
                                                                      average="macro"),
        "f1": lambda: metrics.f1_score(y_true, y_pred, average="macro"),
        "ours": lambda: ours(classifier, x, y_true),
        "theirs": lambda: theirs(classifier, x, y_true),
        "predict": lambda: classifier.predict(x),
    }, repeat, calls)
    return [
        Row("TCM macro F, N=300 C=5 (one CV fold)", t["prf"], "sklearn f1_score macro",
            t["f1"], ("ratio", 0.2)),
        Row("scorer tcm_f1_macro, LogisticRegression N=300 C=5", t["ours"],
            "sklearn scorer f1_macro", t["theirs"]),
        Row("same", t["ours"], "classifier.predict alone", t["predict"], ("ratio", 2.0)),
    ]


# ------------------------------------------------------------------ 1b. string labels

def rows_strings(rng, n_samples, repeat):
    """String and object labels, as NumPy unicode, object arrays and pandas columns."""
    n = f"N={n_samples:,} C={N_CLASSES}"
    y_true, y_pred = labels(rng, n_samples, N_CLASSES)
    names = np.array([f"class {i:03d}" for i in range(N_CLASSES)])
    forms = {"NumPy unicode": (names[y_true], names[y_pred]),
             "object array": (names[y_true].astype(object), names[y_pred].astype(object))}
    try:
        import pandas as pd
    except ImportError:
        print("pandas is not installed: its string and category rows are left out.")
    else:
        forms["pandas string"] = tuple(pd.Series(names[y], dtype="string")
                                       for y in (y_true, y_pred))
        forms["pandas category"] = tuple(pd.Series(pd.Categorical(names[y], categories=names))
                                         for y in (y_true, y_pred))
    rows = []
    for form, (a, b) in forms.items():
        t = interleaved_best({
            "tcm": lambda a=a, b=b: sce.transport_confusion_matrix(a, b),
            "sk": lambda a=a, b=b: metrics.confusion_matrix(a, b),
        }, repeat)
        rows.append(Row(f"TCM, {form} labels {n}", t["tcm"], "sklearn confusion_matrix",
                        t["sk"], ("ratio", 0.33)))
    return rows


# ------------------------------------------------------------------ 1c. labels vs probabilities

def _numpy_reference(function):
    """``function()`` on the NumPy reference of the compiled kernels (as a tree never
    built runs it)."""
    from sklearn_confusion_ext._core import kernels

    old, kernels.COMPILED = kernels.COMPILED, None
    try:
        return function()
    finally:
        kernels.COMPILED = old


def rows_probabilities_floor(rng, n_samples, repeat, class_counts=(10, 100, 1_000)):
    """Labels vs probabilities at the compute floor (issue 40), in CPU and wall time
    against one read of P (``P.sum(axis=0)``, one thread): the whole call (``n_jobs=1``)
    and the compiled kernel alone (one thread, no validation), float64 and float32, at
    C = 10 and 100 (N = ``n_samples``) and C = 1,000 (N / 10); what the compiled kernel
    saves over the NumPy reference; two threads against one (wall)."""
    from sklearn_confusion_ext._core.kernels import compiled_kernels

    compiled = compiled_kernels() is not None
    if not compiled:
        print("the compiled kernels are not built: the kernel rows are left out.")
    rows = []
    for n_classes in class_counts:
        n = n_samples if n_classes < 1_000 else n_samples // 10
        y_true = rng.integers(0, n_classes, n)
        codes = y_true.astype(np.int32)
        for dtype, name in [(np.float64, "float64"), (np.float32, "float32")]:
            scores = probabilities(rng, n, n_classes, dtype)
            functions = {
                "read": lambda p=scores: p.sum(axis=0),
                "call": lambda p=scores, y=y_true: sce.transport_confusion_matrix(
                    y, p, n_jobs=1),
                "two": lambda p=scores, y=y_true: sce.transport_confusion_matrix(
                    y, p, n_jobs=2),
                "reference": lambda p=scores, y=y_true: _numpy_reference(
                    lambda: sce.transport_confusion_matrix(y, p, n_jobs=1)),
            }
            if compiled:
                functions["kernel"] = lambda p=scores, c=codes, k=n_classes: \
                    kernel_alone(p, c, k)
            t = interleaved_best(functions, repeat)
            what = f"labels vs P, {name}, N={n:,} C={n_classes:,}"
            read = "one read of P (P.sum(axis=0))"

            def row(label, key, anchor_name, anchor_key, target=None, t=t):
                return Row(label, t[key], anchor_name, t[anchor_key], target)

            rows.append(row(f"TCM {what}, whole call, n_jobs=1", "call", read, "read",
                            ("ratio", 1.3)))
            if compiled:
                rows.append(row(f"compiled kernel alone, {what}", "kernel", read, "read",
                                ("ratio", 1.1)))
            rows.append(row(f"TCM {what}, compiled (n_jobs=1)", "call",
                            "the NumPy reference (n_jobs=1)", "reference"))
            rows.append(Row(f"TCM {what}, n_jobs=2 (wall)", float(t["two"]), "n_jobs=1 (wall)",
                            float(t["call"]), ("ratio", 0.6)))
            del scores
    return rows


def rows_probabilities_memory(rng, sizes=(10_000, 100_000, 1_000_000, 10_000_000,
                                          100_000_000)):
    """The peak working memory of labels vs probabilities (float32 P, C = 10; C = 2 at
    N = 1e8, run only where 8 GB are free), in bytes a row: what ``tracemalloc`` sees
    NumPy allocate during the call (the inputs are not counted)."""
    import tracemalloc

    rows, last = [], None
    for n in sizes:
        n_classes = 10 if n < 100_000_000 else 2
        if n >= 100_000_000 and _available_bytes() < 8 * 2 ** 30:
            print(f"N={n:,}: left out (under 8 GB of memory free)")
            continue
        y_true = rng.integers(0, n_classes, n, dtype=np.int32)
        scores = probabilities(rng, n, n_classes, np.float32)
        sce.transport_confusion_matrix(y_true[:100], scores[:100])  # first-call costs
        tracemalloc.start()
        sce.transport_confusion_matrix(y_true, scores)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append(Row(f"working memory, labels vs P, float32, N={n:,} C={n_classes}",
                        peak / n, "bytes a row (tracemalloc peak / N); the label codes",
                        8.0, ("ratio", 1.0), unit="B/row"))
        if last is not None and n_classes == last[2]:  # the fixed part taken out
            rows.append(Row(f"same, each row from N={last[0]:,} to N={n:,}",
                            (peak - last[1]) / (n - last[0]), "the label codes", 8.0,
                            ("ratio", 1.0), unit="B/row"))
        last = (n, peak, n_classes)
        del scores, y_true
    return rows


def _available_bytes():
    try:
        with open("/proc/meminfo") as meminfo:
            return next(int(line.split()[1]) * 1024 for line in meminfo
                        if line.startswith("MemAvailable"))
    except (OSError, StopIteration):
        return 0


def rows_probabilities(rng, n_samples, repeat, class_counts=(100, 1_000)):
    """Class labels against a classifier's probabilities: the floor is one read of P."""
    rows = rows_probabilities_floor(rng, n_samples, repeat) + rows_probabilities_memory(
        rng, (10_000, 100_000, 1_000_000) if n_samples < 1_000_000 else
        (10_000, 100_000, 1_000_000, 10_000_000, 100_000_000))
    for n_classes in class_counts:
        if n_classes >= 1_000:
            n_samples //= 10  # 800 MB of float64
        y_true = rng.integers(0, n_classes, n_samples)
        for dtype, name in [(np.float64, "float64"), (np.float32, "float32")]:
            scores = probabilities(rng, n_samples, n_classes, dtype)
            one_hot = sp.csr_array((np.ones(n_samples, dtype=dtype), y_true,
                                    np.arange(n_samples + 1)), shape=(n_samples, n_classes))
            t = interleaved_best({
                "tcm": lambda p=scores, y=y_true: sce.transport_confusion_matrix(y, p),
                "reverse": lambda p=scores, y=y_true: sce.transport_confusion_matrix(p, y),
                "f1": lambda p=scores, y=y_true: sce.transport_precision_recall_fscore_support(
                    y, p, average="macro"),
                "read": lambda p=scores: p.sum(axis=0),
                "sparse": lambda p=scores, s=one_hot: s.T @ p,
            }, repeat)
            what = f"labels vs probabilities, {name}, N={n_samples:,} C={n_classes:,}"
            rows += [
                Row(f"TCM {what}", t["tcm"], "one read of P (P.sum(axis=0))", t["read"],
                    ("ratio", 1.5)),
                Row("same", t["tcm"], "scipy.sparse one-hot.T @ P", t["sparse"]),
                Row(f"TCM probabilities vs labels, {name}, C={n_classes:,}", t["reverse"],
                    "one read of P", t["read"], ("ratio", 1.5)),
                Row(f"TCM macro precision/recall/F {what}", t["f1"], "one read of P",
                    t["read"], ("ratio", 1.5)),
            ]
            del scores, one_hot
    return rows


# ------------------------------------------------------------------ 1d. on a GPU

def _gpu_libraries(dry_run=False):
    """``{name: (to_device, synchronize, bincount, device name)}`` of CuPy and PyTorch where
    they import and see a GPU; the reason printed for each one left out. ``dry_run``:
    PyTorch CPU tensors sent down the route CUDA tensors take (to check the rows where there
    is no GPU; its figures are not GPU figures)."""
    found = {}
    try:
        import array_api_compat  # noqa: F401  (the library reads device arrays through it)
    except ImportError as error:
        print(f"GPU rows left out: {error} (pip install array-api-compat)")
        return {}
    if dry_run:
        import torch

        from sklearn_confusion_ext._core import array_api

        array_api.is_cpu_tensor = lambda array: False  # this process only: a dry run
        torch.set_num_threads(1)  # a shared machine: its threads would wait for each other
        return {"PyTorch CPU dry run": (torch.asarray, lambda: None, torch.bincount,
                                        "the CPU (dry run, not a GPU figure)")}
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
        name = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
        found["CuPy"] = (cupy.asarray, cupy.cuda.get_current_stream().synchronize,
                         cupy.bincount, name)
    except Exception as error:  # ImportError, or a CUDA error without a GPU
        print(f"CuPy on a GPU left out: {type(error).__name__}: {error}")
    try:
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False")
        found["PyTorch"] = (lambda a: torch.asarray(a, device="cuda"),
                            torch.cuda.synchronize, torch.bincount,
                            torch.cuda.get_device_name(0))
    except Exception as error:
        print(f"PyTorch on a GPU left out: {type(error).__name__}: {error}")
    return found


def rows_gpu(rng, n_samples, repeat, n_classes=N_CLASSES, dry_run=False):
    """The TCM of device arrays (labels vs probabilities, soft vs soft, 1-D labels) beside
    the bare device floor of the same arrays: one read of P (the faster of
    ``P.sum(axis=0)`` and ``P.sum(axis=1)``), one GEMM ``Y.T @ P``, one ``bincount`` of
    the pair codes. Every timed call ends with a device synchronization (the stream's
    work done; the matrix comes back as a device array), after one untimed call of each.
    float32 and float64, CuPy and PyTorch; the device named in each floor."""
    rows = []
    y_true = rng.integers(0, n_classes, n_samples)
    y_other = rng.integers(0, n_classes, n_samples)
    for library, (to_device, synchronize, bincount, device) in \
            _gpu_libraries(dry_run).items():
        for dtype, name in [(np.float64, "float64"), (np.float32, "float32")]:
            arrays = [to_device(a) for a in (
                y_true, probabilities(rng, n_samples, n_classes, dtype),
                rng.random((n_samples, n_classes), dtype=np.float32).astype(dtype))]
            rows += _device_rows(f"{library} {name}, N={n_samples:,} C={n_classes}",
                                 *arrays, synchronize, repeat, device)
            del arrays
        labels = [to_device(a) for a in (y_true, y_other)]
        rows.append(_device_label_row(f"{library}, N={n_samples:,} C={n_classes}", *labels,
                                      n_classes, synchronize, bincount, repeat, device))
        del labels
    return rows


def _synchronized(function, synchronize):
    def call():
        result = function()
        synchronize()
        return result
    return call


def _device_rows(what, labels, scores, soft, synchronize, repeat, device):
    synchronize()
    t = interleaved_best({name: _synchronized(function, synchronize) for name, function in {
        "tcm": lambda: sce.transport_confusion_matrix(labels, scores),
        "read": lambda: scores.sum(axis=0),
        "read rows": lambda: scores.sum(axis=1),
        "soft": lambda: sce.transport_confusion_matrix(soft, scores),
        "gemm": lambda: soft.T @ scores,
    }.items()}, repeat)
    read = min(t["read"], t["read rows"])
    rows = [Row(f"GPU TCM labels vs probabilities, {what}", t["tcm"],
                f"one read of P on {device}", read, ("ratio", 1.5))]
    if type(scores).__module__.startswith("torch") and "float64" in str(scores.dtype):
        # PyTorch's other segmented sum (a sparse CSR product), the faster to be the default.
        from sklearn_confusion_ext._core import device_sums

        def sparse_sum():
            device_sums.TORCH_SEGMENTED_SUM = "sparse"
            try:
                return sce.transport_confusion_matrix(labels, scores)
            finally:
                device_sums.TORCH_SEGMENTED_SUM = "index_add"

        try:
            sparse = interleaved_best({"sparse": _synchronized(sparse_sum, synchronize)},
                                      repeat)["sparse"]
            rows.append(Row("same, PyTorch's sparse CSR product instead of index_add_",
                            sparse, f"one read of P on {device}", read, ("ratio", 1.5)))
        except Exception as error:  # a beta API: say why, keep the other rows
            print(f"sparse CSR row left out: {type(error).__name__}: {error}")
    return rows + [Row(f"GPU soft TCM, {what}", t["soft"], f"one Y.T @ P on {device}",
                       t["gemm"], ("ratio", 1.15))]


def _device_label_row(what, y_true, y_pred, n_classes, synchronize, bincount, repeat,
                      device):
    synchronize()
    t = interleaved_best({name: _synchronized(function, synchronize) for name, function in {
        "tcm": lambda: sce.transport_confusion_matrix(y_true, y_pred),
        "bincount": lambda: bincount(y_true * n_classes + y_pred,
                                     minlength=n_classes * n_classes),
    }.items()}, repeat)
    return Row(f"GPU TCM, integer labels, {what}", t["tcm"],
               f"bincount of pair codes on {device}", t["bincount"], ("ratio", 2))


# ------------------------------------------------------------------ 3. dense soft labels

def one_blas_thread(function):
    """On a machine shared with other jobs, BLAS threads wait for each other's busy cores
    (a 2-thread product was measured 1-15x slower than a 1-thread one there): the floor is
    the faster of the two."""
    with threadpool_limits(1, user_api="blas"):
        return function()


def rows_dense(rng, n_samples, repeat, class_counts=(10, N_CLASSES, 1_000)):
    """Soft labels against soft labels: the floor is one GEMM Y.T @ P of the same arrays.
    N x C is at most that of C = 100 (C = 1,000: N / 10; 16 GB of float64 otherwise)."""
    rows = []
    for n_classes in class_counts:
        n_rows = int(n_samples * min(1, N_CLASSES / n_classes))
        for dtype, name in [(np.float64, "float64"), (np.float32, "float32")]:
            y_true = rng.random((n_rows, n_classes), dtype=dtype)
            y_pred = rng.random((n_rows, n_classes), dtype=dtype)
            t = interleaved_best({
                "tcm": lambda a=y_true, b=y_pred: sce.transport_confusion_matrix(a, b),
                "gemm": lambda a=y_true, b=y_pred: a.T @ b,
                "gemm_1": lambda a=y_true, b=y_pred: one_blas_thread(lambda: a.T @ b),
            }, repeat)
            # the floor: the faster GEMM in wall time and, apart, in CPU time (one BLAS
            # thread costs the least CPU; all of them can take the least wall time)
            floor = Seconds(min(t["gemm"], t["gemm_1"]),
                            min(t["gemm"].cpu, t["gemm_1"].cpu))
            rows.append(Row(f"soft TCM, {name}, N={n_rows:,} C={n_classes:,}", t["tcm"],
                            f"one {name} Y.T @ P (1 or all BLAS threads)", floor,
                            ("ratio", 1.5 if n_classes <= 10 else 1.15)))
            del y_true, y_pred
    return rows


# ------------------------------------------------------------------ 4. MLCM, q = 20

def rows_mlcm(rng, n_samples, repeat, n_classes=20):
    y_true = (rng.random((n_samples, n_classes)) < 0.15).astype(np.int8)
    y_pred = (rng.random((n_samples, n_classes)) < 0.15).astype(np.int8)
    t = interleaved_best({
        "mlcm": lambda: sce.mlcm(y_true, y_pred),
        "sk": lambda: metrics.multilabel_confusion_matrix(y_true, y_pred),
    }, repeat)
    return [Row(f"MLCM, N={n_samples:,} q={n_classes}", t["mlcm"],
                "sklearn multilabel_confusion_matrix", t["sk"], ("ratio", 0.3))]


# ------------------------------------------------------------------ 5. sparse TCM

def sparse_multilabel(rng, n_samples, n_classes, labels_per_row=3):
    columns = rng.integers(0, n_classes, size=(n_samples, labels_per_row))
    rows = np.repeat(np.arange(n_samples), labels_per_row)
    matrix = sp.csr_matrix((np.ones(rows.size), (rows, columns.ravel())),
                           shape=(n_samples, n_classes))
    matrix.data[:] = 1.0  # a label drawn twice in a row counts once
    return matrix


def rows_sparse(rng, n_samples, repeat, n_classes=1_000):
    s_true = sparse_multilabel(rng, n_samples, n_classes)
    s_pred = sparse_multilabel(rng, n_samples, n_classes)
    t = interleaved_best({
        "tcm": lambda: sce.transport_confusion_matrix(s_true, s_pred),
        "product": lambda: s_true.T @ s_pred,
    }, repeat)
    return [Row(f"sparse TCM, N={n_samples:,} C={n_classes:,} ~3 labels a row", t["tcm"],
                "sparse S1.T @ S2", t["product"], ("ratio", 1.0))]


# ------------------------------------------------------------------ uncertainty

def rows_uncertainty(rng, divisor, repeat, n_classes=10, n_resamples=999):
    def ci(y_true, y_pred):
        return lambda: sce.score_confidence_interval(
            y_true, y_pred, scoring="tcm_f1_macro", method="bca", n_resamples=n_resamples,
            random_state=0)

    n_samples = 10_000 // divisor
    y_true, y_pred = labels(rng, n_samples, n_classes)
    statistic = macro_f1_statistic(n_classes)
    t = interleaved_best({
        "ours": ci(y_true, y_pred),
        "scipy": lambda: stats.bootstrap((y_true, y_pred), statistic, paired=True,
                                         vectorized=True, n_resamples=n_resamples,
                                         method="BCa", **seed_keyword(0)),
    }, max(1, repeat // 2))
    rows = [Row(f"BCa interval of macro F, N={n_samples:,} C={n_classes}, "
                f"{n_resamples} resamples", t["ours"],
                "scipy.stats.bootstrap (vectorized)", t["scipy"])]
    rows += rows_resampled_products(rng, divisor, repeat)
    rows += rows_permutation(rng, repeat)
    try:
        import confidenceinterval
    except ImportError:
        print("confidenceinterval is not installed: its row is left out.")
        return rows
    n_samples = 2_000 // divisor
    y_true, y_pred = labels(rng, n_samples, n_classes)
    t = interleaved_best({
        "ours": ci(y_true, y_pred),
        "theirs": lambda: confidenceinterval.f1_score(
            y_true, y_pred, average="macro", method="bootstrap_bca",
            n_resamples=n_resamples, random_state=np.random.default_rng(0)),
    }, 1, warm_up=False)  # theirs scores one resample at a time: seconds a run
    rows.append(Row(f"same, N={n_samples:,}", t["ours"], "confidenceinterval.f1_score "
                    "(bootstrap_bca, 1 run)", t["theirs"]))
    return rows


def rows_permutation(rng, repeat, n_samples=12):
    """The exact permutation test with a metric callable (``2 ** 12`` swaps <= the default
    9,999 resamples): the floor is the callable called once a subset, the work the exact
    test needs (each subset's second score is its complement's first); earlier versions
    also scored a bootstrap interval of 9,999 resamples (over 250 s)."""
    y_true, y_pred_a = labels(rng, n_samples, 3)
    y_pred_b = np.where(rng.random(n_samples) < 0.5, y_true, y_pred_a)

    def f1(y, p):
        return metrics.f1_score(y, p, average="macro")

    subsets = (np.arange(2 ** n_samples)[:, None] >> np.arange(n_samples)) & 1 > 0
    t = interleaved_best({
        "ours": lambda: sce.compare_scores(y_true, y_pred_a, y_pred_b, scoring=f1,
                                           method="permutation", random_state=0),
        "floor": lambda: [f1(y_true, np.where(swap, y_pred_b, y_pred_a)) for swap in subsets],
    }, max(1, repeat // 3), warm_up=False)
    return [Row(f"exact permutation test, f1_score callable, n={n_samples} "
                f"({2 ** n_samples:,} swaps)", t["ours"],
                f"the callable on each of the {2 ** n_samples:,} subsets", t["floor"],
                ("ratio", 1.2))]


def rows_resampled_products(rng, divisor, repeat, n_classes=N_CLASSES):
    """Intervals whose resampled matrices are products: labels vs probabilities (9,999
    BCa resamples, on one thread and on every core; the floor, their GEMM: the grouped
    products' B * N * C multiply-adds timed as one ``(B, N) @ (N, C)`` product on one
    thread) and soft labels (per resample; floor, one ``(C x N) @ (N x C)`` product a
    resample, the GEMM each resample needs)."""
    from bench_uncertainty import probabilities

    n_samples, n_resamples = 100_000 // divisor, 9_999
    y_true, scores = probabilities(rng, n_samples, n_classes)
    weights = np.ones((n_resamples // 10, n_samples))

    def one_thread(function):
        def run():
            with threadpool_limits(1):
                return function()
        return run

    t = interleaved_best({
        "one thread": one_thread(lambda: sce.score_confidence_interval(
            y_true, scores, random_state=0, n_jobs=1)),
        "all cores": lambda: sce.score_confidence_interval(y_true, scores, random_state=0),
        "floor": one_thread(lambda: weights @ scores),
    }, max(2, repeat // 3))
    floor = "their GEMM: B*N*C multiply-adds as one (B, N) @ (N, C), 1 thread"
    rows = [Row(f"BCa interval, labels vs probabilities, N={n_samples:,} C={n_classes}, "
                f"{n_resamples:,} resamples, 1 thread (n_jobs=1)", t["one thread"], floor,
                10 * t["floor"], ("ratio", 1.3)),
            Row(f"same, all {os.cpu_count()} cores (n_jobs=None)", t["all cores"], floor,
                10 * t["floor"], ("ratio", 1.3)),
            Row("same", t["all cores"], "ours on 1 thread (n_jobs=1)", t["one thread"])]
    soft_true = rng.dirichlet(np.full(n_classes, 0.3), n_samples)
    soft_pred = rng.dirichlet(np.full(n_classes, 0.3), n_samples)
    counts = np.bincount(rng.integers(0, n_samples, n_samples), minlength=n_samples)
    scaled = soft_true * counts[:, None]
    soft_resamples = 99
    t = interleaved_best({
        "ours": lambda: sce.score_confidence_interval(
            soft_true, soft_pred, method="percentile", n_resamples=soft_resamples,
            random_state=0),
        "floor": lambda: [scaled.T @ soft_pred for _ in range(10)],
    }, max(2, repeat // 3))
    rows.append(Row(f"soft labels, a resample of a percentile interval, N={n_samples:,} "
                    f"C={n_classes}", t["ours"] / soft_resamples,
                    "its GEMM, one (C x N) @ (N x C)", t["floor"] / 10, ("ratio", 2.0)))
    return rows


# ------------------------------------------------------------------ PyTorch CPU tensors

def rows_tensors(divisor, repeat, n_classes=10, n_resamples=999):
    """Resampled intervals of labels beside probabilities on PyTorch CPU tensors (through
    array-api-compat, as a user passes them) against the same NumPy arrays: the same
    bounds to the bit (checked here; a row that differs says so) at NumPy's speed."""
    try:
        import array_api_compat  # noqa: F401  (the library reads tensors through it)
        import torch
    except ImportError as error:
        print(f"PyTorch rows skipped: {error}")
        return []
    rng = np.random.default_rng(0)
    n_samples = 20_000 // divisor
    y_true = rng.integers(0, n_classes, n_samples)
    scores = rng.dirichlet(np.ones(n_classes), n_samples)
    tensors = torch.asarray(y_true), torch.asarray(scores)
    rows = []
    for method in ("percentile", "bca"):
        def interval(arrays, method=method):
            result = sce.score_confidence_interval(*arrays, method=method,
                                                   n_resamples=n_resamples, random_state=0)
            return float(result.low), float(result.high)

        same = interval(tensors) == interval((y_true, scores))
        t = interleaved_best({"torch": partial(interval, tensors),
                              "numpy": partial(interval, (y_true, scores))},
                             max(2, repeat // 3))
        rows.append(Row(f"{method} interval on PyTorch CPU tensors, N={n_samples:,} "
                        f"C={n_classes}, {n_resamples} resamples"
                        + ("" if same else " (OTHER BOUNDS THAN NUMPY'S)"), t["torch"],
                        "the same on NumPy arrays", t["numpy"], ("ratio", 1.2)))
    return rows


# ------------------------------------------------------------------ Dask dataframes, C = 20

def rows_dask(n_samples, repeat, n_classes=20, n_partitions=16):
    """Columns of one Dask dataframe against the same data as Dask arrays chunked like its
    partitions (the local threaded scheduler), and against Dask's own read of the columns
    (every partition computed, nothing done with it: ``bench_dask.frame_read``)."""
    from functools import partial

    try:
        from bench_dask import dataframe_cases, frame_read
        cases = dataframe_cases(n_samples, n_classes, n_partitions)
    except ImportError as error:  # dask or pandas missing: the rows say so
        print(f"dask rows skipped: {error}")
        return []
    rows = []
    for case, (arrays, columns) in cases.items():
        t = interleaved_best({
            "frame": partial(sce.transport_confusion_matrix, *columns),
            "array": partial(sce.transport_confusion_matrix, *arrays),
            "read": partial(frame_read, columns),
        }, repeat)
        what = (f"TCM, Dask dataframe columns, {case.split(' (')[0]}, N={n_samples:,} "
                f"C={n_classes}, {n_partitions} partitions")
        rows += [Row(what, t["frame"], "the same data as Dask arrays", t["array"],
                     ("ratio", 1.3)),
                 Row("same", t["frame"], "Dask's own read of the columns", t["read"])]
    return rows


# ------------------------------------------------------------------ output

def seconds(value):
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3g} ms"
    return f"{value * 1e3:.3f} ms"


def target_text(target):
    if target is None:
        return ""
    kind, bound = target
    return f"<= {bound:.3g}x" if kind == "ratio" else f"<= {seconds(bound)}"


def both(value, unit=None):
    """Wall time, and the CPU time in parentheses where it was measured; a row that is no
    timing in its own ``unit`` (bytes a row)."""
    if unit is not None:
        return f"{value:.3g} {unit}"
    cpu = cpu_of(value)
    return seconds(value) + ("" if cpu is None else f" ({seconds(cpu)} CPU)")


def ratios(row):
    cpu = row.cpu_ratio
    return f"{row.ratio:.3g}x" + ("" if not np.isfinite(cpu) else f" ({cpu:.3g}x CPU)")


def rst_table(rows):
    cells = [("what", "ours: wall (CPU)", "anchor: wall (CPU)", "ratio: wall (CPU)",
              "target", "met")] + [
        (row.what, both(row.ours, row.unit),
         f"{row.anchor_name} {both(row.anchor, row.unit)}", ratios(row),
         target_text(row.target), row.met()) for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(cells[0]))]
    rule = "  ".join("=" * width for width in widths)

    def line(values):
        return "  ".join(value.ljust(width) for value, width in zip(values, widths)).rstrip()

    return "\n".join([rule, line(cells[0]), rule, *map(line, cells[1:]), rule])


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo
                         if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{model}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"NumPy {np.__version__}, SciPy {scipy.__version__}, "
            f"scikit-learn {sklearn.__version__}")


def load():
    """The load average over the last minute, per core: near 0 on a quiet machine."""
    try:
        return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    except (AttributeError, OSError):
        return "load average unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10, best of 2")
    parser.add_argument("--repeat", type=int, default=None, help="best of K (default 7)")
    parser.add_argument("--only", nargs="+", default=None, help="groups of rows to run")
    parser.add_argument("--gpu", action="store_true",
                        help="also the CuPy/PyTorch rows on a GPU (skipped, with the reason, "
                             "where there is none)")
    parser.add_argument("--gpu-only", action="store_true",
                        help="only the GPU rows (the same as --only gpu)")
    parser.add_argument("--gpu-dry-run", action="store_true",
                        help="only the GPU rows, with PyTorch CPU tensors sent down the CUDA "
                             "route, at N / 100: checks the rows where there is no GPU")
    parser.add_argument("--output", default=None,
                        help="also write the machine, the date and the table to this file "
                             "(reStructuredText: the documentation's benchmarks page "
                             "includes doc/_generated/benchmarks_this_build.rst)")
    args = parser.parse_args()
    if args.gpu_only or args.gpu_dry_run:
        args.only, args.gpu = ["gpu"], True
    divisor = 10 if args.quick else 1
    repeat = args.repeat or (2 if args.quick else 7)
    heading = f"{datetime.datetime.now():%Y-%m-%d %H:%M}; {machine()}; {load()} at the start"
    print(heading)
    print(f"best of {repeat}, runs interleaved; ratio = ours / anchor"
          + (" (--quick: N / 10)" if args.quick else ""))
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    groups = {
        "gpu": lambda: rows_gpu(rng, 1_000_000 // (100 if args.gpu_dry_run else divisor),
                                repeat, dry_run=args.gpu_dry_run),
        "labels": lambda: rows_labels(rng, 1_000_000 // divisor, repeat),
        "strings": lambda: rows_strings(rng, 200_000 // divisor, repeat),
        "probabilities": lambda: rows_probabilities(rng, 1_000_000 // divisor, repeat),
        "fold": lambda: rows_fold(rng, repeat),
        "dense": lambda: rows_dense(rng, 1_000_000 // divisor, repeat),
        "mlcm": lambda: rows_mlcm(rng, 1_000_000 // divisor, repeat),
        "sparse": lambda: rows_sparse(rng, 1_000_000 // divisor, repeat),
        "uncertainty": lambda: rows_uncertainty(rng, divisor, repeat),
        "dask": lambda: rows_dask(1_000_000 // divisor, repeat),
        "tensors": lambda: rows_tensors(divisor, repeat),
    }
    rows = []
    for name, group in groups.items():
        if (name in args.only) if args.only else (name != "gpu" or args.gpu):
            done = group()
            rows += done
            # Each group's rows as they come (a run cut short still shows them).
            print(f"{name}: {time.perf_counter() - start:.0f} s", *(
                f"  {row.what}: {both(row.ours, row.unit)} vs {row.anchor_name} "
                f"{both(row.anchor, row.unit)}, {ratios(row)} {row.met()}" for row in done),
                sep="\n", flush=True)
    table = rst_table(rows)
    ending = f"{time.perf_counter() - start:.0f} s in all; {load()} at the end"
    print(table)
    print(ending)
    if args.output:
        with open(args.output, "w") as output:
            output.write(f"{heading}; best of {repeat}"
                         + (", N / 10" if args.quick else "") + ".\n\n"
                         + (table if rows else "No row ran.") + f"\n\n{ending}.\n")


if __name__ == "__main__":
    main()
