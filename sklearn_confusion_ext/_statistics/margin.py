"""Acceptance with a margin: the non-inferiority and superiority forms of the paired
comparisons (:func:`~.paired.compare_scores`, :func:`~.cross_validated.compare_cv`,
:func:`~.cross_validated.compare_cv_scores`).

With a margin ``m >= 0`` the test is one-sided, of the difference ``a - b``:

* non-inferiority, H0: ``a - b <= -m`` against H1: ``a - b > -m`` ("a is at most ``m``
  worse than b");
* superiority, H0: ``a - b <= +m`` against H1: ``a - b > +m`` ("a beats b by more than
  ``m``").

The null difference ``-m`` or ``+m`` is rejected exactly when the lower bound of the
one-sided interval of the difference lies above it (each test computes its bound from the
same counts or the same statistic as its p-value). This module holds the declaration of
the two keywords, their checks and the wording of the verdict; the tests themselves live
beside their methods. References: Wellek, S. (2010). Testing Statistical Hypotheses of
Equivalence and Noninferiority, 2nd ed., Chapman & Hall, Chapters 1-2 and 5; Tango, T.
(1998), Statistics in Medicine 17(8), 891-908 (paired proportions).
"""

import html
import math
from numbers import Real

import numpy as np

from .._core.params import Interval, Options
from .._core.results import _number

HYPOTHESES = ("non-inferiority", "superiority")
# The declaration of the two keywords (compare_scores, compare_cv, compare_cv_scores).
MARGIN = {"margin": [None, Interval(Real, 0, None)],
          "hypothesis": [None, Options(*HYPOTHESES)]}


def decision_alpha(confidence_level):
    """The level of the margin's one-sided test, ``1 - confidence_level`` as the user
    wrote it: 0.05 for 0.95, not the float 0.050000000000000044, so that a p-value of
    exactly 0.05 is not below it."""
    return float(f"{1 - float(confidence_level):.12g}")


def null_difference(margin, hypothesis, alternative):
    """``(null difference, hypothesis)``: ``(-m, "non-inferiority")`` or ``(+m,
    "superiority")``; ``(None, None)`` without a margin. ``hypothesis`` without a margin,
    and ``alternative="less"`` with one, are refused."""
    if margin is None:
        if hypothesis is not None:
            raise ValueError(f"hypothesis={hypothesis!r} names the test of a margin, but "
                             "margin is None: pass margin= too (margin=0.02: two points of "
                             "the score), or leave hypothesis=None.")
        return None, None
    hypothesis = "non-inferiority" if hypothesis is None else hypothesis
    if alternative == "less":
        raise ValueError(f"alternative='less' does not go with margin={margin!r}: the "
                         f"{hypothesis} test is one-sided towards model a (H1: a - b > "
                         f"{'-' if hypothesis == 'non-inferiority' else '+'}margin, the "
                         "alternative 'greater'). Leave alternative as it is (or pass "
                         "'greater'); to test b against a, swap the two models.")
    margin = float(margin)
    # -0.0 for a margin of 0 tests exactly the one-sided null difference 0
    return (-margin if hypothesis == "non-inferiority" else margin), hypothesis


def refuse_margin(method, reason, instead):
    """The error of a method that has no margin test: why, and what to use."""
    return ValueError(f"method={method!r} takes no margin: {reason} Use {instead} for a "
                      "non-inferiority or superiority test (or leave margin=None).")


def snap_bound(bound, null, rejected):
    """The lower bound, moved by rounding error only (within ``1e-9`` of ``null``, where a
    bound computed apart from the p-value may fall on either side of it) to agree with
    the p-value's decision: above ``null`` exactly when the null difference is
    rejected. A bound farther away is left as it is (a disagreement there is a defect
    for the tests to see, not to hide)."""
    if not math.isfinite(bound) or abs(bound - null) > 1e-9 * max(1.0, abs(null)):
        return bound
    if rejected and not bound > null:
        return float(np.nextafter(null, math.inf))
    if not rejected and bound > null:
        return float(null)
    return float(bound)


def verdict_text(hypothesis, margin, rejected, *, bound=None, pvalue=None,
                 probability=None, level=None, models=("a", "b")):
    """The verdict worded for a release decision, with its evidence: the lower bound
    against the null difference, the p-value, or the posterior probability against the
    level."""
    a, b = models
    null = -margin if hypothesis == "non-inferiority" else margin
    evidence = []
    if bound is not None:
        evidence.append(f"lower bound {_number(bound)} {'>' if rejected else '<='} "
                        f"{_number(null)}")
    if probability is not None:
        against = "" if level is None else f" {'>' if rejected else '<='} {_number(level)}"
        evidence.append(f"P({a} - {b} > {_number(null)}) = {_number(probability)}{against}")
    if pvalue is not None:
        evidence.append(f"p = {_number(pvalue)}")
    shown = _number(margin)
    if hypothesis == "non-inferiority":
        head = (f"non-inferior: {a} is at most {shown} worse than {b}" if rejected else
                f"not shown non-inferior: {a} may be more than {shown} worse than {b}")
    else:
        head = (f"superior: {a} beats {b} by more than {shown}" if rejected else
                f"not shown superior: {a} may not beat {b} by more than {shown}")
    return f"{head} ({', '.join(evidence)})"


class MarginVerdict:
    """What a result with a margin shows beyond its summary: the verdict, on a line of its
    own in the repr, a paragraph of the HTML view (where a table cell would cut it)."""

    def _verdict_line(self):
        try:
            return None if self.margin is None else self.verdict
        except Exception as error:  # a repr never fails
            return f"<verdict unavailable: {type(error).__name__}>"

    def __repr__(self):
        text, verdict = super().__repr__(), self._verdict_line()
        return text if verdict is None else f"{text}\nverdict: {verdict}"

    def _repr_html_(self):
        text, verdict = super()._repr_html_(), self._verdict_line()
        if verdict is None:
            return text
        return (text[:-len("</div>")] + "<p><strong>verdict</strong>: "
                f"{html.escape(verdict)}</p></div>")
