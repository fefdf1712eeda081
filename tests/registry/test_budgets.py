"""Resampling within the memory budget.

Every allocation of the resampling that grows with an argument (``n_resamples`` with many
classes in :func:`score_confidence_interval` and :func:`compare_scores`, the reports'
``confidence_level``, :func:`prevalence_protocol_samples`' ``sample_size`` and
``n_samples``) is checked against ``max_matrix_mib`` before it is made: the resamples are
computed in blocks within the budget, with the same numbers as in one block for the same
``random_state``, and what cannot be split (one sample above the budget) is refused with
the budget's ``ValueError``.

The large cases run in a child process under an address-space limit, so that a regression
fails (MemoryError) instead of swapping the machine.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from sweeps import limit_address_space, run_child

import sklearn_confusion_ext as sce

resource = pytest.importorskip("resource")

# The child's address space (sweeps.LIMIT_BYTES, 1.5 GiB): the unchecked allocations here
# take 1.1 GiB and more (6.7 to 20.7 GiB at 300 and 1,000 classes), blocks of
# 64 MiB a few copies of one.

# Each scenario runs in the child and prints one JSON line: {"name", "ok", "value" or
# "error"}. The data: 2000 instances of 1-D labels over 120 classes (a 120 x 120 matrix,
# 112 KiB; 9999 resamples of it unblocked are 1.1 GiB), and 450 classes for the reports
# (999 resamples of a 450 x 450 matrix are 1.5 GiB).
_CHILD = textwrap.dedent("""
    import json, sys, traceback
    import numpy as np
    import sklearn_confusion_ext as sce

    def data(n_classes, n=2000, seed=0):
        rng = np.random.default_rng(seed)
        y = rng.integers(0, n_classes, n)
        a = np.where(rng.random(n) < 0.6, y, rng.integers(0, n_classes, n))
        b = np.where(rng.random(n) < 0.5, y, rng.integers(0, n_classes, n))
        return y, a, b

    y, a, _ = data(120)
    yc, ac, bc = data(120, n=800)  # at most 800 pairs of cells: one batch unblocked
    y6, a6, _ = data(450, n=3000)
    weight = np.random.default_rng(1).uniform(0.5, 2.0, len(y6))
    scenarios = {}
    for method in ("percentile", "basic", "bca", "bayesian"):
        scenarios[f"interval-{method}"] = (
            lambda m=method: sce.score_confidence_interval(
                y, a, scoring="tcm_accuracy", method=m, random_state=0).high)
    for method in ("bootstrap", "permutation", "bayesian"):
        scenarios[f"compare-{method}"] = (
            lambda m=method: sce.compare_scores(
                yc, ac, bc, scoring="tcm_accuracy", method=m, random_state=0).pvalue)
    scenarios["report-labels"] = lambda: sce.transport_classification_report(
        y6, a6, confidence_level=0.95, random_state=0, output_dict=True
    )["accuracy_high"]
    scenarios["report-weighted"] = lambda: sce.transport_classification_report(
        y6, a6, sample_weight=weight, confidence_level=0.95, random_state=0,
        output_dict=True)["accuracy_high"]
    scenarios["protocol-sample_size"] = lambda: len(next(sce.prevalence_protocol_samples(
        y, sample_size=10 ** 9, random_state=0)))
    scenarios["protocol-n_samples"] = lambda: [len(next(sce.prevalence_protocol_samples(
        y, n_samples=10 ** 12, sample_size=1000, protocol=p, random_state=0)))
        for p in ("natural", "artificial")]
    for name in sys.argv[1:]:
        try:
            out = {"name": name, "ok": True, "value": np.asarray(scenarios[name]()).tolist()}
        except ValueError as error:
            out = {"name": name, "ok": False, "error": "ValueError: " + str(error)}
        except MemoryError:
            out = {"name": name, "ok": False, "error": "MemoryError"}
        print(json.dumps(out), flush=True)
""")

_SCENARIOS = (
    [f"interval-{m}" for m in ("percentile", "basic", "bca", "bayesian")]
    + [f"compare-{m}" for m in ("bootstrap", "permutation", "bayesian")]
    + ["report-labels", "report-weighted", "protocol-sample_size", "protocol-n_samples"])


@pytest.fixture(scope="module")
def child_results():
    """Every scenario, run once in one child process under the address-space limit."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    completed = subprocess.run([sys.executable, "-c", _CHILD, *_SCENARIOS],
                               preexec_fn=limit_address_space, capture_output=True,
                               text=True, env=env, timeout=600)
    results = {}
    for line in completed.stdout.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            results[result["name"]] = result
    results["stderr"] = completed.stderr[-2000:]
    return results


@pytest.mark.parametrize("name", [s for s in _SCENARIOS if s != "protocol-sample_size"])
@pytest.mark.slow
def test_large_resampling_runs_within_the_budget(child_results, name):
    # 1.1 GiB and more unblocked (6.7 to 20.7 GiB at 300 and 1,000 classes) run in
    # blocks under a limit of 1.5 GiB
    result = child_results.get(name)
    assert result is not None, child_results["stderr"]
    assert result["ok"], result["error"]
    if name.startswith(("interval", "report")):
        assert 0.0 < result["value"] <= 1.0
    elif name.startswith("compare"):
        assert 0.0 < result["value"] <= 1.0  # a p-value
    else:
        assert result["value"] == [1000, 1000]


def test_protocol_sample_above_the_budget_is_refused(child_results):
    # one sample of 10**9 positions is 7.5 GiB: refused before the first draw, naming
    # sample_size, the size of one sample and the budget
    result = child_results.get("protocol-sample_size")
    assert result is not None, child_results["stderr"]
    assert not result["ok"]
    assert result["error"].startswith("ValueError: prevalence_protocol_samples would hold "
                                      "7.5 GiB per sample (sample_size=1000000000")
    assert "max_matrix_mib=1024" in result["error"]


def test_protocol_sample_size_refused_when_called():
    with pytest.raises(ValueError, match=r"sample_size=200000 positions; 3 asked for.*"
                                         r"max_matrix_mib=1 MiB"):
        with sce.config_context(max_matrix_mib=1):
            sce.prevalence_protocol_samples([0, 1, 1], n_samples=3, sample_size=200000)
    with sce.config_context(max_matrix_mib=1):  # 131072 positions: 1 MiB, within
        sample = next(sce.prevalence_protocol_samples([0, 1, 1], sample_size=131072,
                                                      random_state=0))
    assert sample.shape == (131072,)


# --- Blocked and unblocked give the same numbers ---------------------------------------

_N_CLASSES = 60  # a full matrix of 61 x 61 float64: 29 KiB, 35 resamples per MiB


def _labels(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, _N_CLASSES, n)
    a = np.where(rng.random(n) < 0.6, y, rng.integers(0, _N_CLASSES, n))
    b = np.where(rng.random(n) < 0.5, y, rng.integers(0, _N_CLASSES, n))
    return y, a, b


def _probabilities(y, seed):
    rng = np.random.default_rng(seed)
    scores = rng.random((len(y), _N_CLASSES)) + 3 * np.eye(_N_CLASSES)[y] * rng.random(
        (len(y), 1))
    return scores / scores.sum(axis=1, keepdims=True)


def _both(function):
    """``function()`` under the default budget (one block) and under 1 MiB (blocks of
    about 35 resamples)."""
    default = function()
    with sce.config_context(max_matrix_mib=1):
        blocked = function()
    return default, blocked


@pytest.mark.parametrize("method", ["percentile", "basic", "bca", "bayesian"])
@pytest.mark.parametrize("targets", ["labels", "weighted", "probabilities"])
def test_interval_blocked_equals_unblocked(method, targets):
    y, a, _ = _labels()
    weight = np.random.default_rng(2).uniform(0.5, 2.0, len(y)) if targets == "weighted" \
        else None
    if targets == "probabilities":
        a = _probabilities(y, 3)
    if method == "bayesian" and targets == "weighted":
        pytest.skip("method='bayesian' refuses sample_weight")
    n_resamples = 199 if targets == "probabilities" else 999
    default, blocked = _both(lambda: sce.score_confidence_interval(
        y, a, scoring="tcm_accuracy", method=method, n_resamples=n_resamples,
        sample_weight=weight, random_state=7))
    assert default.distribution.shape == (n_resamples,)
    np.testing.assert_array_equal(blocked.distribution, default.distribution)
    assert (blocked.low, blocked.high) == (default.low, default.high)


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "bayesian"])
@pytest.mark.parametrize("targets", ["labels", "weighted"])
def test_compare_blocked_equals_unblocked(method, targets):
    y, a, b = _labels()
    weight = np.random.default_rng(2).uniform(0.5, 2.0, len(y)) if targets == "weighted" \
        else None
    if method == "bayesian" and targets == "weighted":
        pytest.skip("method='bayesian' refuses sample_weight")
    default, blocked = _both(lambda: sce.compare_scores(
        y, a, b, scoring="tcm_accuracy", method=method, n_resamples=999,
        sample_weight=weight, random_state=7))
    np.testing.assert_array_equal(blocked.distribution, default.distribution)
    assert (blocked.low, blocked.high, blocked.pvalue) == (
        default.low, default.high, default.pvalue)


def test_exact_permutation_blocked_equals_unblocked():
    # 12 instances, 4096 swaps enumerated: blocks of the enumeration within the budget
    rng = np.random.default_rng(0)
    y = np.arange(12) % 4
    a = np.where(rng.random(12) < 0.7, y, (y + 1) % 4)
    b = np.where(rng.random(12) < 0.5, y, (y + 2) % 4)
    with sce.config_context(max_matrix_mib=1):
        blocked = sce.compare_scores(y, a, b, scoring="tcm_accuracy", method="permutation",
                                     n_resamples=5000, random_state=0)
    default = sce.compare_scores(y, a, b, scoring="tcm_accuracy", method="permutation",
                                 n_resamples=5000, random_state=0)
    assert len(default.distribution) == 4096
    np.testing.assert_array_equal(blocked.distribution, default.distribution)
    assert blocked.pvalue == default.pvalue


@pytest.mark.parametrize("targets", ["labels", "weighted", "probabilities"])
def test_report_intervals_blocked_equal_unblocked(targets):
    y, a, _ = _labels()
    weight = np.random.default_rng(2).uniform(0.5, 2.0, len(y)) if targets == "weighted" \
        else None
    if targets == "probabilities":
        a = _probabilities(y, 3)
    default, blocked = _both(lambda: sce.transport_classification_report(
        y, a, sample_weight=weight, confidence_level=0.9, random_state=5,
        output_dict=True))
    assert blocked == default
    assert default["accuracy_low"] < default["accuracy"] < default["accuracy_high"]


def test_probabilities_budget_counts_the_request_not_a_batch():
    # the check once saw one internal batch whose size depended on N: 10,000 instances
    # were refused where 100,000 ran. Now the result is blocked: both run under 1 MiB,
    # with the numbers of the default budget
    rng = np.random.default_rng(0)
    for n in (400, 2000):
        y = rng.integers(0, _N_CLASSES, n)
        scores = rng.random((n, _N_CLASSES)) + 2 * np.eye(_N_CLASSES)[y]
        scores /= scores.sum(axis=1, keepdims=True)
        default, blocked = _both(lambda y=y, scores=scores: sce.score_confidence_interval(
            y, scores, scoring="tcm_accuracy", method="percentile", n_resamples=99,
            random_state=1))
        np.testing.assert_array_equal(blocked.distribution, default.distribution)


def test_distribution_above_the_budget_is_refused():
    # the distribution itself (n_resamples x values per score) cannot be blocked: refused
    # before any draw, counting the n_resamples asked for; an average fits
    y = np.arange(400) % 200
    with sce.config_context(max_matrix_mib=1):
        with pytest.raises(ValueError, match=r"1\.5 MiB \(a distribution of "
                                             r"n_resamples=999 resamples of 200 values\)"):
            sce.score_confidence_interval(y, y, scoring="tcm_f1", average=None,
                                          n_resamples=999, method="percentile")
        result = sce.score_confidence_interval(y, y, scoring="tcm_f1", average="macro",
                                               n_resamples=999, method="percentile")
    assert result.distribution.shape == (999,)
    # Resamples lose classes of two instances (scored 0): the interval reaches Wilson's of
    # the macro average's trials, and so 1 (it stopped below the estimate of 1)
    assert result.estimate == 1.0 and 0.5 < result.low < result.high == 1.0


def test_mlcm_report_intervals_blocked_equal_unblocked():
    # multi-label indicators: the instances are resampled and the matrices built in blocks
    rng = np.random.default_rng(4)
    y = (rng.random((200, _N_CLASSES)) < 0.05).astype(int)
    p = np.where(rng.random(y.shape) < 0.9, y, 1 - y)
    default, blocked = _both(lambda: sce.mlcm_classification_report(
        y, p, confidence_level=0.9, random_state=5, output_dict=True, zero_division=0.0))
    assert blocked == default
    low, high = default["micro avg"]["f1-score_low"], default["micro avg"]["f1-score_high"]
    assert low < default["micro avg"]["f1-score"] < high


# --- Every open-ended integer parameter of the registry, at 10**12 -------------------------

# Parameters whose work grows with them but not the memory it holds (streamed, or each
# unit done and dropped): at 10**12 they run until stopped, as scikit-learn's do; within
# the address-space limit.
_TIME_ONLY = {("compare_scores", "n_resamples"), ("compare_cv", "n_repeats"),
              ("PosteriorDifferenceDisplay.from_estimator", "n_repeats"),
              ("evaluate_quantifier", "n_samples"),
              ("audit_quantification_measure", "n_trials"),
              # simulations run in blocks within the budget; McNemar's closed form sums
              # the discordant counts' central range (about 14 sqrt(n) values) in blocks
              ("bootstrap_power", "n_simulations"), ("corrected_ttest_power", "n_simulations"),
              ("mcnemar_power", "n_samples"), ("minimum_detectable_difference", "n_samples")}

_SWEEP_LOOP = """
warnings.simplefilter("ignore")
for pair in ARGS:
    key, name = pair.split(":")
    signal.alarm(ALARM_S)
    try:
        result = call(key, **{name: 10 ** 12})
        if hasattr(result, "__next__"):
            next(result)
        out = "ok"
    except Stopped:
        out = "stopped"
    except MemoryError as error:
        out = "MemoryError: " + str(error)
    except Exception as error:
        out = type(error).__name__ + ": " + str(error)
    finally:
        signal.alarm(0)
        sce.set_config(max_matrix_mib=1024)  # set_config:max_matrix_mib raised it
    print(json.dumps({"pair": pair, "out": out}), flush=True)
"""


def _open_integer_parameters():
    from numbers import Integral

    from test_common import DECLARATIONS, public_keys

    from sklearn_confusion_ext._core.params import Interval

    return [f"{key}:{name}" for key in public_keys()
            for name, constraints in DECLARATIONS[key].items()
            if isinstance(constraints, list) and any(
                isinstance(c, Interval) and c.kind is Integral and c.right is None
                for c in constraints)]


@pytest.fixture(scope="module")
def sweep_results():
    """Each open-ended integer parameter of every registered callable at 10**12, its
    other arguments minimal, in one child process under the address-space limit."""
    pairs = _open_integer_parameters()
    results, stderr = run_child(_SWEEP_LOOP, pairs, timeout=900)
    return pairs, {result["pair"]: result["out"] for result in results}, stderr


@pytest.mark.slow
def test_every_size_growing_integer_is_checked_before_its_memory(sweep_results):
    # Found by this sweep: the Bayesian tests' n_samples, n_chains and burn_in, the
    # inconsistency searches' n and audit_quantification_measure's n_classes allocated
    # (MemoryError of 224 GiB to 29 TiB), and audit_measure's n_classes and max_n hung in
    # the exact count of its bound. Each is now refused, naming the argument.
    pairs, results, stderr = sweep_results
    assert len(pairs) > 50
    missing = [pair for pair in pairs if pair not in results]
    assert not missing, (missing, stderr)
    memory = {pair: out for pair, out in results.items() if "MemoryError" in out}
    assert not memory, memory
    stopped = {pair for pair, out in results.items() if out == "stopped"}
    assert stopped <= {f"{key}:{name}" for key, name in _TIME_ONLY}, stopped


@pytest.mark.parametrize("call_it, names", [
    (lambda: sce.bayesian_signed_rank_test(np.arange(5.0), np.arange(5.0)[::-1],
                                           n_draws=10 ** 10), "n_draws=10000000000"),
    (lambda: sce.bayesian_hierarchical_test(
        np.random.default_rng(0).random((3, 5)), np.random.default_rng(1).random((3, 5)),
        n_train=9, n_test=1, n_chains=10 ** 7), "n_chains=10000000"),
    (lambda: sce.bayesian_hierarchical_test(
        np.random.default_rng(0).random((3, 5)), np.random.default_rng(1).random((3, 5)),
        n_train=9, n_test=1, burn_in=10 ** 12), "burn_in=1000000000000"),
    (lambda: sce.indistinguishable_measures(n=400), "n=400"),
    (lambda: sce.discriminating_triplets(n=10 ** 12), "n=1000000000000"),
    (lambda: sce.audit_quantification_measure(sce.absolute_error, n_classes=10 ** 12),
     "n_classes=1000000000000"),
])
def test_size_growing_arguments_are_refused_naming_them(call_it, names):
    with pytest.raises(ValueError, match=f"{names}.*max_matrix_mib=1024"):
        call_it()


def test_audit_measure_refuses_huge_sizes_at_once():
    # the bound's exact binomials and factorial of 10**12 classes took hours
    from sklearn.metrics import accuracy_score

    for keywords, found in [({"n_classes": 10 ** 12}, r"about 10\^"),
                            ({"max_n": 10 ** 12}, "max_n=36 fits")]:
        with pytest.raises(ValueError, match=found):
            sce.audit_measure(accuracy_score, **keywords)
