"""Every real-valued parameter of the registry at the extremes its constraint accepts.

For each public callable and each of its parameters declared with ``Interval(Real, ...)`` on
its ``@validate_params``, the sweep calls it (its other arguments minimal, ``test_common.call``)
with the ends of the interval where closed (``-0.0`` too where 0 is), the neighbours of an
open end (``np.nextafter``), the smallest subnormal, 1e-300, 1e300 and the largest float,
each as a Python float, ``np.float64`` and ``np.float32`` (its own extremes in float32).
Each call either refuses the value (``ValueError``/``TypeError`` naming the parameter) or
returns a result whose every number is finite, or non-finite by a documented policy (the
allowlist below names the docstring of each); never another exception, a ``MemoryError``
or a hang. The sweep runs in one child process under an address-space limit, each call
under an alarm.
"""

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from sweeps import run_child
from test_error_messages import internal_names

resource = pytest.importorskip("resource")

_ALARM_S = 3


def extreme_values(interval, dtypes=(float, np.float64, np.float32)):
    """(label, value) pairs at the extremes ``interval`` (an ``Interval`` over Real) accepts,
    as Python floats, float64 and float32 scalars; each is accepted by ``interval``."""
    values = []
    for dtype in dtypes:
        finfo = np.finfo(np.float32 if dtype is np.float32 else np.float64)
        kind = np.float32 if dtype is np.float32 else np.float64
        tiny = kind(finfo.smallest_subnormal) if hasattr(finfo, "smallest_subnormal") \
            else np.nextafter(kind(0), kind(1))
        big = kind(finfo.max)
        left, right = interval.left, interval.right
        with np.errstate(over="ignore"):  # 1e300 is inf in float32: not accepted
            candidates = [kind(0.0), kind(-0.0), tiny, -tiny, kind(1e-300), kind(-1e-300),
                          kind(1e300), kind(-1e300), big, -big]
        for end, inward in ((left, math.inf), (right, -math.inf)):
            if end is None:
                continue
            candidates += [kind(end), np.nextafter(kind(end), kind(inward))]
            with np.errstate(over="ignore"):
                candidates += [kind(end) + kind(math.copysign(step, inward))
                               for step in (1e-300, 1e300)]
        seen = set()
        for value in candidates:
            value = dtype(value)
            if not interval.is_satisfied_by(value):
                continue
            key = (repr(float(value)), math.copysign(1.0, float(value)))
            if key in seen:
                continue
            seen.add(key)
            label = f"{type(value).__name__}({float(value)!r})"
            values.append((label, value))
    return values


_SWEEP_LOOP = """
import numpy as np
from test_common import DISPLAYS, DECLARATIONS, numeric_leaves
from test_extremes import extreme_values
from numbers import Real

from sklearn_confusion_ext._core.params import Interval

for pair in ARGS:
    key, name, *extra = pair.split(":", 2)
    extra = json.loads(extra[0]) if extra else {}
    intervals = [c for c in DECLARATIONS[key][name]
                 if isinstance(c, Interval) and c.kind is Real]
    # Displays (a third of the time) take their numbers as the functions they call:
    # Python floats and float32 there, float64 too elsewhere
    dtypes = (float, np.float32) if key.partition(".")[0] in DISPLAYS else (
        float, np.float64, np.float32)
    for label, value in [v for interval in intervals
                         for v in extreme_values(interval, dtypes)]:
        signal.alarm(ALARM_S)
        started = time.perf_counter()
        caught = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = call(key, **extra, **{name: value})
                if hasattr(result, "__next__"):
                    result = next(result)
                leaves = numeric_leaves(result)
                bad = sorted({("nan" if np.isnan(x) else "inf")
                              for leaf in leaves for x in np.ravel(leaf)
                              if not np.isfinite(x)})
            out = "ok" if not bad else "nonfinite: " + ",".join(bad)
        except Stopped:
            out = "stopped"
        except MemoryError as error:
            out = "MemoryError: " + str(error)[:300]
        except Exception as error:
            out = type(error).__name__ + ": " + str(error)[:300]
        finally:
            signal.alarm(0)
            import matplotlib.pyplot as plt
            plt.close("all")
        shown = sorted({w.category.__name__ + ": " + str(w.message)[:120] for w in caught})
        print(json.dumps({"pair": pair, "value": label, "out": out, "warnings": shown,
                          "seconds": time.perf_counter() - started}), flush=True)
"""


def real_parameters():
    from numbers import Real

    from test_common import DECLARATIONS, public_keys

    from sklearn_confusion_ext._core.params import Interval

    pairs = [f"{key}:{name}" for key in public_keys()
             for name, constraints in DECLARATIONS[key].items()
             if isinstance(constraints, list) and any(
                 isinstance(c, Interval) and c.kind is Real for c in constraints)]
    return pairs + [f"{key}:{name}:{json.dumps({**_labels(key), **extra})}"
                    for key, name, extra in _VARIANTS]


def _labels(key):
    """1-D labels for ``key``'s targets (the methods of the variants need them), as lists."""
    from test_common import REGISTRY, SAMPLES, target_inputs

    inputs = target_inputs(REGISTRY[key].target_params, SAMPLES["labels"])
    return {**{name: np.asarray(value).tolist() for name, value in inputs.items()},
            "scoring": "tcm_accuracy"}


# The registry's minimal calls take one method of each interval; the level's extremes
# reach the others' quantiles differently (bca's and analytic's normal quantile of the
# upper tail, mcnemar's).
_VARIANTS = [("score_confidence_interval", "confidence_level", {"method": method})
             for method in ("basic", "bca", "bayesian", "analytic")] + [
    ("score_confidence_interval", "prior", {"method": "bayesian"})] + [
    ("compare_scores", "confidence_level", {"method": method})
    for method in ("permutation", "bayesian", "mcnemar", "mcnemar-mid-p", "mcnemar-score")] + [
    ("compare_scores", "margin", {"method": method})
    for method in ("bayesian", "mcnemar-score")]


def run_sweep(pairs, alarm_s=_ALARM_S, timeout=600):
    return run_child(_SWEEP_LOOP, pairs, alarm_s, timeout)


# Non-finite numbers in a result that are a documented policy, by (key, name): none so far.
# Each entry names the docstring that documents the NaN or infinity it allows, e.g.
# ("compare_scores", "confidence_level"): "ComparisonResult: low/high are NaN when ...".
# (function, parameter) whose non-finite result at an extreme is a documented policy:
# no accuracy difference reaches the power asked (a discordance of 1e-300, a power of
# 1 - 1e-16): nan with a RuntimeWarning, as the docstring says.
_NONFINITE_POLICY = {("minimum_detectable_difference", "discordance"),
                     ("minimum_detectable_difference", "power"),
                     ("minimum_detectable_difference", "alpha")}


@pytest.fixture(scope="module")
def sweep():
    pairs = real_parameters()
    results, stderr = run_sweep(pairs)
    return pairs, results, stderr


def _names_it(message, name):
    import re

    return re.search(rf"\b{re.escape(name)}\b", message) is not None


@pytest.mark.slow
def test_every_real_parameter_at_its_accepted_extremes(sweep):
    # Found by this sweep (seen failing on the old code): fbeta_from_confusion's beta >= 1e155
    # raised OverflowError; n_train/n_test far apart (5e-324 beside 9, or 1e300 beside 9)
    # were refused naming BayesianCorrelatedTTestResult's rho or scale, and hung
    # bayesian_hierarchical_test's sampler on NaN; dirichlet_posterior's prior of 1.8e308
    # gave means of 0 and NaN variances, of 1e300 reversed credible intervals (the interval
    # Display refused them, the simplex Display failed in matplotlib); a
    # confidence_level of 1 - 2**-53 failed in NumPy's percentile (bca) or gave NaN ends
    # (analytic); PosteriorDifferenceDisplay's rope of 1.8e308 gave infinite axis limits;
    # score_confidence_interval(method="bayesian")'s prior of 1.8e308 gave NaN ends; NumPy
    # warned of overflows inside the F-betas, the t-tests and the signed-rank test.
    pairs, results, stderr = sweep
    assert len(pairs) > 100
    seen = {result["pair"] for result in results}
    assert seen == set(pairs), (set(pairs) - seen, stderr)
    defects = []
    for result in results:
        key, name = result["pair"].split(":")[:2]
        out = result["out"]
        leaked = [w for w in result["warnings"] if " encountered in " in w]
        if leaked:  # an intermediate overflow or NaN of an accepted value
            defects.append((result["pair"], result["value"], leaked))
        if out == "ok":
            continue
        if out.startswith(("ValueError:", "TypeError:")) and _names_it(out, name) \
                and not internal_names(key, out.partition(": ")[2]):
            continue
        if out.startswith("nonfinite") and (key, name) in _NONFINITE_POLICY:
            continue
        defects.append((result["pair"], result["value"], out[:160]))
    assert not defects, defects


# --- The defects the sweep found, one by one (public API) --------------------------------

import warnings  # noqa: E402

import sklearn_confusion_ext as sce  # noqa: E402


@pytest.mark.parametrize("beta", [1e155, 1e300, np.float64(1.7e308), np.float32(3.4e38)])
def test_huge_beta_gives_recall_without_overflow(beta):
    # ** raised OverflowError beyond 1.3e154 in fbeta_from_confusion; numpy's beta * beta
    # warned of an overflow in the others
    binary = [[5, 1], [2, 2]]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert sce.fbeta_from_confusion(binary, beta=beta) == 0.5  # recall of class 1
        assert sce.fbeta_from_confusion([[5, 1], [0, 0]], beta=beta) == 0.0  # only FP left
        matrix = [[5, 1, 0], [2, 2, 1], [0, 0, 3]]
        assert sce.fbeta_from_confusion(matrix, beta=beta, average="macro") == pytest.approx(
            (5 / 6 + 2 / 5 + 1) / 3, rel=1e-15)
        _, recall, f, _ = sce.precision_recall_fscore_support_from_confusion(
            matrix, beta=beta, average=None)
    np.testing.assert_allclose(f, recall, rtol=1e-15)


@pytest.mark.parametrize("beta", [1e160, np.float64(1e300), np.float64(1.7e308)])
def test_resampled_huge_beta_is_recall_without_warnings(beta):
    # the batched F-beta of the resamples warned (overflow, invalid) and gave NaN, so the
    # resamples were read one by one
    y = np.arange(40) % 3
    p = np.where(np.arange(40) % 5 == 0, (y + 1) % 3, y)
    keywords = dict(n_resamples=20, random_state=0, method="percentile")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        f = sce.score_confidence_interval(y, p, scoring="tcm_f1_macro", beta=beta, **keywords)
    recall = sce.score_confidence_interval(y, p, scoring="tcm_recall_macro", **keywords)
    np.testing.assert_allclose(f.distribution, recall.distribution, rtol=1e-15)
    assert f.estimate == pytest.approx(recall.estimate, rel=1e-15)


@pytest.mark.parametrize("call_it", [
    lambda: sce.compare_cv_scores([0.8, 0.82, 0.79], [0.7, 0.75, 0.74], method="bayesian",
                                  n_train=5e-324, n_test=1),
    lambda: sce.compare_cv_scores([0.8, 0.82, 0.79], [0.7, 0.75, 0.74], method="bayesian",
                                  n_train=9, n_test=1e300),
    lambda: sce.bayesian_hierarchical_test(np.random.default_rng(0).random((3, 5)),
                                           np.random.default_rng(1).random((3, 5)),
                                           n_train=1e-300, n_test=1),
])
def test_fold_sizes_of_far_scales_are_refused_naming_them(call_it):
    # refused naming BayesianCorrelatedTTestResult's rho, or the hierarchical sampler hung
    with pytest.raises(ValueError, match=r"n_train and n_test must be sizes of comparable "
                                         r"scale; (fold|data set) 0 has n_train="):
        call_it()


def test_prior_whose_total_overflows_is_refused():
    # means of 0 and NaN variances
    with pytest.raises(ValueError, match=r"prior=1\.7e\+308 gives Dirichlet parameters whose "
                                         r"total overflows float64 \(row 0 sums to inf\)"):
        sce.dirichlet_posterior([[3, 1], [1, 3]], prior=1.7e308)
    with pytest.raises(ValueError, match=r"alpha gives Dirichlet parameters"):
        sce.ConfusionPosterior([[1e308, 1e308], [1.0, 1.0]])


@pytest.mark.parametrize("prior", [1e13, 1e17, 1e50, 1e300])
@pytest.mark.parametrize("method", ["equal-tailed", "hpd"])
def test_huge_prior_intervals_are_normal_and_ordered(prior, method):
    # scipy's Beta quantiles: 24 deviations out at 1e17, reversed from 1e50 on
    posterior = sce.dirichlet_posterior([[37, 1, 15], [6, 19, 26], [15, 3, 77]], prior=prior)
    lower, upper = posterior.credible_interval(0.95, method=method)
    assert (lower <= upper).all()
    mean, std = posterior.mean(), posterior.std()
    if prior < 1e50:  # beyond, the deviation is below the mean's rounding
        np.testing.assert_allclose((upper - mean) / std, 1.959964, rtol=1e-5)
        np.testing.assert_allclose((mean - lower) / std, 1.959964, rtol=1e-5)
    else:
        np.testing.assert_allclose(lower, mean, rtol=1e-15)
        np.testing.assert_allclose(upper, mean, rtol=1e-15)


def test_bayesian_interval_prior_whose_total_overflows_is_refused():
    # NumPy's Dirichlet drew NaN: NaN ends and standard error, without a warning
    y, p = [0, 1, 2, 2, 1, 0, 2, 1], [0, 2, 2, 1, 1, 0, 2, 0]
    with pytest.raises(ValueError, match=r"prior=1\.7e\+308 gives Dirichlet parameters whose "
                                         r"total overflows float64 \(9 cells\)"):
        sce.score_confidence_interval(y, p, scoring="tcm_accuracy", method="bayesian",
                                      prior=1.7e308, n_resamples=20, random_state=0)
    result = sce.score_confidence_interval(y, p, scoring="tcm_accuracy", method="bayesian",
                                           prior=1e307, n_resamples=20, random_state=0)
    assert result.low == result.high == pytest.approx(1 / 3)  # the prior's: 3 of 9 cells


def test_confidence_level_whose_upper_tail_rounds_to_one_is_refused():
    # bca failed in NumPy's percentile, analytic gave NaN ends, mcnemar an infinite end
    y = np.arange(40) % 3
    p = np.where(np.arange(40) % 5 == 0, (y + 1) % 3, y)
    for method in ("bca", "analytic"):
        with pytest.raises(ValueError, match=r"'confidence_level' parameter of "
                                             r"score_confidence_interval .* at most 1 - 2\*\*-52"):
            sce.score_confidence_interval(y, p, scoring="tcm_accuracy", method=method,
                                          confidence_level=1 - 2 ** -53)
    with pytest.raises(ValueError, match="'confidence_level' parameter of compare_scores"):
        sce.compare_scores(y, p, y, scoring="tcm_accuracy", method="mcnemar",
                           confidence_level=np.float64(1 - 2 ** -53))
    result = sce.score_confidence_interval(y, p, scoring="tcm_accuracy", method="analytic",
                                           confidence_level=1 - 2 ** -52)
    assert np.isfinite([result.low, result.high]).all() and result.low < result.high


def test_float32_level_compared_in_float64():
    # NumPy 2 compared np.float32(1.0) with the bound 1 - 2**-52 in float32 (as 1.0)
    from numbers import Real

    from sklearn_confusion_ext._core.params import Interval

    assert not Interval(Real, 0, 1 - 2 ** -52).is_satisfied_by(np.float32(1.0))
    assert not Interval(Real, 1e-300, None).is_satisfied_by(np.float32(1e-46))
    assert Interval(Real, 0, 1 - 2 ** -52).is_satisfied_by(np.float32(0.99999994))


def test_displays_draw_extreme_priors_and_ropes():
    plt = pytest.importorskip("matplotlib.pyplot")
    # the simplex Display failed in matplotlib (contour levels not increasing), the
    # difference Display on infinite axis limits
    display = sce.PosteriorSimplexDisplay.from_confusion([[5, 1, 1], [1, 5, 1], [1, 1, 5]],
                                                         prior=1e300)
    assert np.isfinite(display.log_density_levels_).all()
    for rope in (1e300, 1.7e308):  # the rope shades the whole view, named in the legend
        display = sce.PosteriorDifferenceDisplay(mean=0.02, scale=0.01, df=9,
                                                 rope=rope).plot()
        low, high = display.ax_.get_xlim()
        assert -2 < low < -0.1 and 0.1 < high < 2
        assert f"rope ±{rope:g}" in display.ax_.get_legend().get_texts()[1].get_text()
    display = sce.PosteriorDifferenceDisplay(mean=0.02, scale=0.01, df=9, rope=0.2).plot()
    assert display.ax_.get_xlim() == pytest.approx((-0.26, 0.26))  # the rope's ends shown
    display = sce.PosteriorDifferenceDisplay(mean=0.02, scale=0.0, df=9, rope=1e300).plot()
    assert display.ax_.get_xlim() == pytest.approx((-0.3, 0.3))
    plt.close("all")


def test_command_line_confidence_takes_the_functions_bound(tmp_path):
    # the report's --confidence accepted 1 - 2**-53, which the intervals refuse
    path = tmp_path / "labels.csv"
    path.write_text("0,0\n1,1\n2,1\n0,0\n1,1\n2,2\n")
    completed = subprocess.run(
        [sys.executable, "-m", "sklearn_confusion_ext", "report", str(path),
         "--confidence", repr(1 - 2 ** -53)], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2
    assert ("argument --confidence: expected a finite real number in (0, 1), at most "
            "1 - 2**-52 = 0.9999999999999998, got '0.9999999999999999'") in completed.stderr
