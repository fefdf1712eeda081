"""Sweeps of the registry's parameters (``registry/test_budgets.py``,
``registry/test_extremes.py``, ``registry/test_error_messages.py``): a loop of calls run in
one child process under an address-space limit, each call under an alarm, each outcome
printed as a line of JSON.

The child's script is :data:`PROLOGUE` then the sweep's own loop, which reads ``ARGS`` (the
arguments given to :func:`run_child`), sets ``signal.alarm(ALARM_S)`` around each call and
catches ``Stopped`` where the alarm rang.
"""

import json
import os
import subprocess
import sys
import textwrap

# The child's address space: the interpreter, NumPy, SciPy and scikit-learn take about
# 0.5 GiB of it.
LIMIT_BYTES = 1536 * 2 ** 20

PROLOGUE = textwrap.dedent("""
    import json, signal, sys, time, warnings
    sys.path[:0] = [sys.argv[1], sys.argv[1] + "/registry"]
    ALARM_S, ARGS = int(sys.argv[2]), sys.argv[3:]
    import matplotlib
    matplotlib.use("Agg")

    import sklearn_confusion_ext as sce
    from test_common import call

    class Stopped(Exception):
        pass

    def stop(*args):
        raise Stopped()

    signal.signal(signal.SIGALRM, stop)
""")


def limit_address_space():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def run_child(loop, args, alarm_s=3, timeout=600):
    """The JSON lines ``loop`` (the sweep's code after :data:`PROLOGUE`) printed over
    ``args``, and the end of the child's standard error; BLAS on one thread."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", PROLOGUE + textwrap.dedent(loop),
         os.path.dirname(os.path.abspath(__file__)), str(alarm_s), *args],
        preexec_fn=limit_address_space, capture_output=True, text=True, env=env,
        timeout=timeout)
    results = [json.loads(line) for line in completed.stdout.splitlines()
               if line.startswith("{")]
    return results, completed.stderr[-2000:]
