"""Speed of the command line's file reader beside ``pandas.read_csv`` and ``numpy.loadtxt``.

Issue 39: the reader of ``python -m sklearn_confusion_ext report`` parsed text field by
field in Python, 22-150x slower than pandas. This prints, on the same files (written once
into a temporary folder, as pandas writes them: a header line, ``to_csv(index=False)``):

1. N = 200,000 rows of 10 probabilities (``DataFrame(proba).to_csv(index=False)``,
   full ``repr`` precision) and the same rounded to 4 decimals;
2. N = 200,000 integer labels (``Series(y).to_csv(index=False)``: a header line "0") and
   N string labels (``"class_07"``);

each read by the command line's reader (``read_target``: the header and delimiter
detected, the numbers checked; the pandas header ``0,...,9`` of the probabilities, which
the other file's length decides, read as a header line, as ``load_targets`` does), by
its path without pandas (pandas hidden, as where pandas is not installed; both
command-line rows run the compiled parsers of ``_cli/_text_kernels.pyx`` where the
package was built, and pandas or NumPy where it was not), by
``pandas.read_csv`` and by ``numpy.loadtxt`` (``dtype=str`` for the string labels), each
checked to give the same values. Each row gives the best of a few runs: wall time, CPU
time (``time.process_time``, every thread of the process) and both as a ratio to
``pandas.read_csv``'s. The quality bar of issue 39: the reader within 2x of
``pandas.read_csv``.

Run: ``python benchmarks/bench_cli_reading.py [--quick]`` (``--quick`` divides N by 10).
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

import numpy as np

from sklearn_confusion_ext._cli.files import AmbiguousHeaderError, read_target


def best_times(function, repeat=3):
    """The fastest wall time and the fastest CPU time of ``repeat`` runs, in seconds, and
    the last run's result."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


def cli_read(path, n_samples):
    """What the command line does with one file beside another of ``n_samples`` samples
    (``load_targets``): ``read_target`` with the header line detected; where the first
    line is undecided (pandas' column names ``0,1,...,k-1``) or a ``0`` above integer
    labels leaves one sample too many, the other file's number of samples decides: the
    file is read as below a header line (from the first reading where it has both)."""
    try:
        values = read_target(path)[0]
    except AmbiguousHeaderError as exc:
        readings = getattr(exc, "readings", None) or {}
        return readings[True][0] if True in readings else read_target(path, header=True)[0]
    return values if len(values) == n_samples else values[1:]


def without_pandas(function):
    """``function`` run as where pandas is not installed (``import pandas`` fails)."""
    def run():
        with mock.patch.dict(sys.modules, {"pandas": None}):
            return function()
    return run


def write_files(folder, n_samples, n_classes=10, seed=0):
    import pandas as pd

    rng = np.random.default_rng(seed)
    proba = rng.dirichlet([1.0] * n_classes, size=n_samples)
    labels = rng.integers(0, n_classes, n_samples)
    files = {"probabilities": folder / "proba.csv", "probabilities, 4 decimals":
             folder / "proba4.csv", "integer labels": folder / "labels.csv",
             "string labels": folder / "names.csv"}
    pd.DataFrame(proba).to_csv(files["probabilities"], index=False)
    pd.DataFrame(proba).to_csv(files["probabilities, 4 decimals"], index=False,
                               float_format="%.4f")
    pd.Series(labels).to_csv(files["integer labels"], index=False)
    pd.Series([f"class_{label:02d}" for label in labels]).to_csv(files["string labels"],
                                                                 index=False)
    return files


def main():
    import pandas as pd

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N / 10 (CI's smoke run)")
    args = parser.parse_args()
    n_samples = 20_000 if args.quick else 200_000
    with tempfile.TemporaryDirectory() as folder:
        files = write_files(Path(folder), n_samples)
        print(f"Reading text files of N = {n_samples:,} rows (best of 3 runs)\n")
        header = (f"{'file':<27}{'reader':<28}{'wall s':>8}{'cpu s':>8}"
                  f"{'wall/pandas':>13}{'cpu/pandas':>12}")
        print(header)
        print("-" * len(header))
        worst = 0.0
        for name, path in files.items():
            strings = name == "string labels"
            readers = {
                "pandas.read_csv": lambda path=path: pd.read_csv(path).to_numpy().squeeze(),
                "numpy.loadtxt": lambda path=path, strings=strings: np.loadtxt(
                    path, delimiter=",", skiprows=1, ndmin=1,
                    dtype=str if strings else float),
                "command line": lambda path=path: cli_read(path, n_samples),
                "command line, NumPy only": without_pandas(
                    lambda path=path: cli_read(path, n_samples)),
            }
            reference = None
            pandas_times = None
            for reader, function in readers.items():
                wall, cpu, values = best_times(function)
                values = np.asarray(values)
                if reference is None:
                    reference, pandas_times = values, (wall, cpu)
                elif strings:
                    assert np.array_equal(values.astype(str), reference.astype(str)), reader
                else:
                    np.testing.assert_array_equal(values.astype(float),
                                                  reference.astype(float), err_msg=reader)
                ratio = (wall / pandas_times[0], cpu / pandas_times[1])
                if reader.startswith("command line"):
                    worst = max(worst, ratio[0])
                print(f"{name:<27}{reader:<28}{wall:>8.3f}{cpu:>8.3f}"
                      f"{ratio[0]:>12.2f}x{ratio[1]:>11.2f}x")
            print()
        print(f"Slowest command-line reading against pandas.read_csv: {worst:.2f}x "
              "(the bar: 2x)")


if __name__ == "__main__":
    main()
