"""The parameter contract: every public parameter's constraint, declared once, checked once.

:data:`PARAMETERS` maps each public function, class constructor and Display method to the
constraints of its parameters, as data: a value is valid when it satisfies one constraint of
its list. :func:`validate_params` wraps a public callable so that its arguments are checked
before any work, and :func:`check_params` checks keywords against a declaration (a scorer's
keywords against the function it will call, the accumulator's against its kind's builder).
The tests read the same data to generate invalid values (``tests/test_common.py``).

The idea is scikit-learn's ``sklearn/utils/_param_validation.py``; this is a small
independent implementation (scikit-learn's private modules change between releases).

Errors: a value of a type that no constraint takes raises ``TypeError``; a value of an
accepted type outside every constraint raises ``ValueError``. Both name the callable, the
parameter, what was found and what is expected. NumPy scalars count as numbers; ``bool`` is
not a number, and a boolean parameter takes ``True``/``False`` (or ``numpy.bool_``) only.
"""

import functools
import inspect
import math
import reprlib
import warnings
from abc import ABC, abstractmethod
from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .namespaces import call_returning_in_input_namespace
from .score_names import AVERAGES, PER_CLASS_SCORE_NAMES

# The longest quotation of a value in an error message: a message stays readable, and its size
# does not grow with the input (a list of 10**5 labels, a 5 MB line of a file).
QUOTE_LIMIT = 200
_QUOTE = reprlib.Repr()
_QUOTE.maxlevel, _QUOTE.maxstring, _QUOTE.maxother = 3, 80, 120
_QUOTE.maxlist = _QUOTE.maxtuple = _QUOTE.maxset = _QUOTE.maxfrozenset = 12
_QUOTE.maxdict = _QUOTE.maxdeque = _QUOTE.maxarray = 12


def quoted(value, limit=QUOTE_LIMIT):
    """``repr(value)`` for an error message, shortened to at most about ``limit`` characters
    (long sequences keep their first items, then ``...``). Every message that quotes a
    value the user passed quotes it through here."""
    if isinstance(value, np.ndarray) and value.ndim == 1:  # as a list, its first items
        value = value[:_QUOTE.maxlist + 1].tolist()
    text = _QUOTE.repr(value)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


class Constraint(ABC):
    """One constraint on a parameter's value."""

    def accepts_type(self, value):
        """Whether ``value`` is of a type this constraint is about (else: a TypeError)."""
        return self.is_satisfied_by(value)

    @abstractmethod
    def is_satisfied_by(self, value):
        """Whether ``value`` meets the constraint."""

    def invalid_values(self):
        """Values near this constraint that violate it (the tests try them)."""
        return []

    def valid_values(self):
        """Values that satisfy it, NumPy scalars included (the tests try them)."""
        return []


class Options(Constraint):
    """One of a fixed set of strings or numbers (compared by value: ``1 == np.int64(1)``)."""

    def __init__(self, *options):
        self.options = options

    def accepts_type(self, value):
        return any(_same_kind(value, option) for option in self.options)

    def is_satisfied_by(self, value):
        for option in self.options:
            if _same_kind(value, option) and value == option:
                return True
        return False

    def __str__(self):
        shown = ", ".join(repr(option) for option in self.options)
        return shown if len(self.options) == 1 else f"one of {{{shown}}}"

    def invalid_values(self):
        if any(isinstance(option, str) for option in self.options):
            return ["bogus"]
        return [0.5]

    def valid_values(self):
        return [np.float64(option) if _is_number(option) else option
                for option in self.options]


class NaN(Constraint):
    """``nan`` (``float("nan")`` or ``np.nan``)."""

    def accepts_type(self, value):
        return _is_number(value)

    def is_satisfied_by(self, value):
        return _is_number(value) and math.isnan(value)

    def __str__(self):
        return "nan"

    def valid_values(self):
        return [np.float32("nan")]


class Interval(Constraint):
    """A number of ``kind`` (``Integral`` or ``Real``) between ``left`` and ``right``.

    ``None`` leaves a side open; ``closed`` is "both", "left", "right" or "neither".
    Real intervals take finite numbers only: an infinite ``beta`` or ``eps`` is no value.
    """

    def __init__(self, kind, left, right, closed="both"):
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def accepts_type(self, value):
        return _is_number(value) and (self.kind is Real or isinstance(value, Integral))

    def is_satisfied_by(self, value):
        if not self.accepts_type(value) or not math.isfinite(value):
            return False
        if isinstance(value, np.floating):  # compared in float64: NumPy 2 rounds a bound to
            value = float(value)  # float32 beside a float32 (1 - 2**-52 read as 1.0)
        if self.left is not None and (value < self.left or (
                value == self.left and self.closed in ("right", "neither"))):
            return False
        return self.right is None or not (value > self.right or (
            value == self.right and self.closed in ("left", "neither")))

    def __str__(self):
        kind = "an integer" if self.kind is Integral else "a finite real number"
        if self.left is not None and self.right is not None:
            low = "[" if self.closed in ("both", "left") else "("
            high = "]" if self.closed in ("both", "right") else ")"
            return f"{kind} in {low}{self.left}, {self.right}{high}"
        if self.left is not None:
            return f"{kind} {'>=' if self.closed in ('both', 'left') else '>'} {self.left}"
        if self.right is not None:
            return f"{kind} {'<=' if self.closed in ('both', 'right') else '<'} {self.right}"
        return kind

    def invalid_values(self):
        values = ["1", True]
        if self.left is not None:
            values.append(self.left - 1)
            if self.closed in ("right", "neither"):
                values.append(self.left)
        if self.right is not None:
            values.append(self.right + 1)
            if self.closed in ("left", "neither"):
                values.append(self.right)
        if self.kind is Integral:
            values.append(1.5)
        else:
            values += [float("nan"), float("inf")]
        return values

    def valid_values(self):
        if self.left is not None and self.right is not None:
            value = (self.left + self.right) / 2
            value = math.floor(value) if self.kind is Integral else value
        elif self.left is not None:
            value = self.left + 1
        elif self.right is not None:
            value = self.right - 1
        else:
            value = 1
        if self.kind is Integral:
            return [np.int64(value), np.int32(value)]
        return [np.float32(value), np.float64(value), np.int64(round(value))] if float(
            value).is_integer() else [np.float32(value), np.float64(value)]


class Boolean(Constraint):
    """``True`` or ``False`` (``numpy.bool_`` too); not 0, 1 or a string."""

    def is_satisfied_by(self, value):
        return isinstance(value, (bool, np.bool_))

    def __str__(self):
        return "a boolean (True or False)"

    def invalid_values(self):
        return ["no", 1]

    def valid_values(self):
        return [np.True_, np.False_]


class CallableValue(Constraint):
    """A callable."""

    def is_satisfied_by(self, value):
        return callable(value)

    def __str__(self):
        return "a callable"

    def invalid_values(self):
        return [1.5]


class ArrayLike(Constraint):
    """An array-like: a sequence, an array of any library, a sparse matrix, a DataFrame."""

    def is_satisfied_by(self, value):
        if type(value) is np.ndarray:
            return True
        if sp.issparse(value):  # before Mapping: a DOK matrix is a dict
            return True
        if isinstance(value, (str, bytes, type, np.generic, Mapping)):
            return False
        return (hasattr(value, "__array__") or hasattr(value, "shape")
                or hasattr(type(value), "__dask_graph__")
                or hasattr(value, "__array_namespace__") or hasattr(value, "__len__"))

    def __str__(self):
        return "an array-like"

    def invalid_values(self):
        return [1.5]


class NumberArray(Constraint):
    """An array-like of numbers (a prior): strings or ragged rows are no value."""

    def is_satisfied_by(self, value):
        if not ArrayLike().is_satisfied_by(value) or sp.issparse(value):
            return False
        try:
            return np.asarray(value).dtype.kind in "biuf"
        except (ValueError, TypeError):
            return False

    def accepts_type(self, value):
        return ArrayLike().is_satisfied_by(value)

    def __str__(self):
        return "an array-like of numbers"

    def invalid_values(self):
        return [["a", "b"]]


class FigureSize(Constraint):
    """A figure size in inches: two finite positive numbers (a tuple, a list, an array)."""

    def is_satisfied_by(self, value):
        if not ArrayLike().is_satisfied_by(value) or np.ndim(value) != 1 or len(value) != 2:
            return False
        return all(Interval(Real, 0, None, closed="neither").is_satisfied_by(side)
                   for side in value)

    def accepts_type(self, value):
        return ArrayLike().is_satisfied_by(value)

    def __str__(self):
        return "two positive numbers (width, height) in inches"

    def invalid_values(self):
        return [(1, 2, 3), (0, 3), 1.5]


class Label(Constraint):
    """One class label: a string, a number or a boolean."""

    def is_satisfied_by(self, value):
        return isinstance(value, (str, Real, bool, np.bool_))

    def __str__(self):
        return "a class label (a string, a number or a boolean)"

    def invalid_values(self):
        return [[1, 2]]


class HasMethods(Constraint):
    """An object with the named methods (an estimator, a matplotlib Axes)."""

    def __init__(self, *methods, description):
        self.methods, self.description = methods, description

    def is_satisfied_by(self, value):
        return all(callable(getattr(value, method, None)) for method in self.methods)

    def __str__(self):
        return self.description

    def invalid_values(self):
        return [1.5]


class HasAttributes(Constraint):
    """An object with the named attributes (a test's result that a Display reads)."""

    def __init__(self, *attributes, description):
        self.attributes, self.description = attributes, description

    def is_satisfied_by(self, value):
        return all(hasattr(value, attribute) for attribute in self.attributes)

    def __str__(self):
        return self.description

    def invalid_values(self):
        return [1.5]


class RandomState(Constraint):
    """A non-negative integer seed or a ``numpy.random.Generator`` (``default_rng``'s)."""

    def is_satisfied_by(self, value):
        if isinstance(value, np.random.Generator):
            return True
        return Interval(Integral, 0, None).is_satisfied_by(value)

    def accepts_type(self, value):
        return self.is_satisfied_by(value) or Interval(Integral, 0, None).accepts_type(value)

    def __str__(self):
        return "an integer seed >= 0 or a numpy.random.Generator"

    def invalid_values(self):
        return [-1, "seed"]

    def valid_values(self):
        return [np.int64(0), np.random.default_rng(0)]


class InstanceOf(Constraint):
    """An instance of a type (a string, a dict); written as the bare type in a declaration."""

    def __init__(self, kind):
        self.kind = kind

    def is_satisfied_by(self, value):
        return isinstance(value, self.kind)

    def __str__(self):
        return f"an instance of {self.kind.__name__}"

    def invalid_values(self):
        return [1.5] if self.kind is not float else ["1.5"]


class NoneValue(Constraint):
    """``None``; written ``None`` in a declaration."""

    def is_satisfied_by(self, value):
        return value is None

    def __str__(self):
        return "None"


def _is_number(value):
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def _same_kind(value, option):
    if isinstance(option, str):
        return isinstance(value, str)
    return _is_number(value) and _is_number(option)


def _either(descriptions):
    if len(descriptions) == 1:
        return descriptions[0]
    return ", ".join(descriptions[:-1]) + " or " + descriptions[-1]


def constraints_of(declared):
    """A declaration's list as constraints: ``None`` and bare types become constraints."""
    return [NoneValue() if constraint is None else InstanceOf(constraint)
            if isinstance(constraint, type) else constraint for constraint in declared]


def check_value(owner, name, value, declared):
    """Raise ``TypeError``/``ValueError`` unless ``value`` satisfies one of ``declared``."""
    _check_constraints(owner, name, value, constraints_of(declared))


def _check_constraints(owner, name, value, constraints):
    for constraint in constraints:
        if constraint.is_satisfied_by(value):
            return
    expected = _either([str(constraint) for constraint in constraints
                        if not isinstance(constraint, Refused)])
    error = ValueError if any(c.accepts_type(value) for c in constraints) else TypeError
    reason = next((f": {c.reason}" for c in constraints
                   if isinstance(c, Refused) and c.accepts_type(value)), ".")
    raise error(f"The {name!r} parameter of {owner} must be {expected}; got "
                f"{quoted(value)}{reason}")


class Refused(Constraint):
    """A value users bring from elsewhere (scikit-learn's ``average="samples"``) that is
    refused with the reason why, never satisfied."""

    def __init__(self, value, reason):
        self.value, self.reason = value, reason

    def accepts_type(self, value):
        return _same_kind(value, self.value) and value == self.value

    def is_satisfied_by(self, value):
        return False

    def __str__(self):
        return ""

    def invalid_values(self):
        return [self.value]


def check_params(owner, values, declaration=None):
    """Check ``values`` (a dict) against ``PARAMETERS[owner]`` (or ``declaration``).

    A keyword that is not declared raises ``TypeError`` naming the accepted ones.
    """
    declaration = PARAMETERS[owner] if declaration is None else declaration
    for name, value in values.items():
        if name not in declaration:
            takes = _either(sorted(declaration)) if declaration else "no keyword argument"
            raise TypeError(f"{owner} got an unexpected keyword argument {name!r}; it takes "
                            f"{takes}.")
        check_value(owner, name, value, declaration[name])


_NO_DEFAULT = object()


def unchecked(function):
    """A :func:`validate_params` function without its argument checks, for a caller that
    checked its fixed arguments once (a scorer, when it was made) and passes on data that
    the function's own validation reads anyway (fold after fold)."""
    return function.__wrapped__


def _plain_binder(signature):
    """``binder(args, kwargs)``: the arguments by name when the call plainly fits the
    signature (no more positional arguments than it takes, known keywords, none twice, every
    required one there), else None (``Signature.bind`` then binds it, or names the fault).
    Signatures with ``*args``, ``**kwargs`` or positional-only parameters are left to it."""
    kinds = {p.kind for p in signature.parameters.values()}
    if kinds & {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD,
                inspect.Parameter.POSITIONAL_ONLY}:
        return lambda args, kwargs: None
    positional = [name for name, p in signature.parameters.items()
                  if p.kind is p.POSITIONAL_OR_KEYWORD]
    names = set(signature.parameters)
    required = {name for name, p in signature.parameters.items() if p.default is p.empty}

    def binder(args, kwargs):
        if len(args) > len(positional):
            return None
        arguments = dict(zip(positional, args))
        if arguments.keys() & kwargs or not kwargs.keys() <= names:
            return None
        arguments.update(kwargs)
        return arguments if required <= arguments.keys() else None

    return binder


def validate_params(parameters=None, *, renamed=None):
    """Decorate a public function or method: its arguments are checked before it runs.

    ``parameters`` is its declaration, written beside it (as scikit-learn's
    ``@validate_params({...})``): each parameter's list of constraints. (A string or None
    still names an entry of :data:`PARAMETERS`, by default the ``__qualname__``, while the
    table empties into the modules.) The declaration is kept on the decorated callable as
    ``parameter_constraints``, where the common tests read it. It must name every
    parameter of the signature (checked at import). A method's
    errors name the class it was called on, so a subclass's message names the public class.
    An argument that is its parameter's default object itself is not checked again (the
    common tests check that every default satisfies its constraints): a scorer passing its
    defaults on, fold after fold, pays nothing for them.

    ``renamed`` maps a parameter's former name to its name (``{"confusion": "matrix"}``):
    the former name still works for one release, with a ``FutureWarning`` naming both
    (:func:`renamed_keywords`); passing both is a ``TypeError``. It is kept on the callable
    as ``renamed_parameters``, where the common tests find every alias to call.
    """
    renamed = dict(renamed or {})

    def decorate(function):
        entry = function.__qualname__
        if isinstance(parameters, Mapping):
            declaration = parameters
        else:
            entry = parameters or entry
            declaration = PARAMETERS[entry]
        signature = inspect.signature(function)
        named = [name for name, p in signature.parameters.items()
                 if name not in ("self", "cls") and p.kind is not p.VAR_KEYWORD]
        if set(named) != set(declaration):
            raise RuntimeError(f"{entry} declares {sorted(declaration)}; the "
                               f"signature has {sorted(named)}.")
        constraints = {name: constraints_of(declared) for name, declared in declaration.items()}
        defaults = {name: p.default for name, p in signature.parameters.items()
                    if p.default is not p.empty}
        method = next(iter(signature.parameters), None) in ("self", "cls")
        binder = _plain_binder(signature)
        name = "" if function.__name__ == "__init__" else "." + function.__name__
        # Results in the namespace of array-API inputs (array_api.in_input_namespace).
        arrays = () if method else tuple(
            parameter for parameter, declared in constraints.items()
            if any(isinstance(constraint, ArrayLike) for constraint in declared))

        @functools.wraps(function)
        def checked(*args, **kwargs):
            if method:
                owner = args[0] if isinstance(args[0], type) else type(args[0])
                where = f"{owner.__name__}{name}"
            else:
                where = entry
            if renamed and not kwargs.keys().isdisjoint(renamed):
                kwargs = renamed_keywords(where, kwargs, renamed)
            arguments = binder(args, kwargs)
            if arguments is None:
                try:
                    arguments = signature.bind(*args, **kwargs).arguments
                except TypeError as error:  # an unknown keyword, a missing argument
                    raise TypeError(f"{where}: {error}") from None
            for parameter, value in arguments.items():
                if parameter in constraints and value is not defaults.get(parameter, _NO_DEFAULT):
                    _check_constraints(where, parameter, value, constraints[parameter])
            if arrays:
                return call_returning_in_input_namespace(
                    function, [arguments.get(parameter) for parameter in arrays], args, kwargs)
            return function(*args, **kwargs)

        checked.parameter_constraints = declaration
        checked.renamed_parameters = renamed
        if not renamed.keys().isdisjoint(declaration) or not set(renamed.values()) <= set(
                declaration):
            raise RuntimeError(f"{entry} renames {renamed}: each former name must be gone "
                               "from the declaration and each new name in it.")
        return checked

    return decorate


# The release that renamed parameters and result fields, and the one that drops the names.
RENAMED_IN, REMOVED_IN = "0.1", "0.2"


def renamed_message(where, old, new, what="parameter"):
    """The ``FutureWarning`` of a former name: what it is now and when it goes."""
    return (f"{where}: the {what} {old!r} was renamed {new!r} in {RENAMED_IN} and will be "
            f"removed in {REMOVED_IN}; use {new!r}.")


def renamed_keywords(where, kwargs, renamed):
    """``kwargs`` with each former name of ``renamed`` (old -> new) replaced by its new one,
    warning once for each; both names given is a ``TypeError``."""
    kwargs = dict(kwargs)
    for old, new in renamed.items():
        if old not in kwargs:
            continue
        if new in kwargs:
            raise TypeError(f"{where}: pass {new!r} only; {old!r} is its former name (renamed "
                            f"in {RENAMED_IN}, removed in {REMOVED_IN}).")
        warnings.warn(renamed_message(where, old, new), FutureWarning, stacklevel=4)
        kwargs[new] = kwargs.pop(old)
    return kwargs


# --- The declarations -------------------------------------------------------------------

ARRAY = ArrayLike()
BOOLEAN = Boolean()
CALLABLE = CallableValue()
POSITIVE_INT = Interval(Integral, 1, None)
NON_NEGATIVE_INT = Interval(Integral, 0, None)
PROBABILITY_LEVEL = Interval(Real, 0, 1, closed="neither")


class ConfidenceLevel(Interval):
    """A two-sided interval's level: in (0, 1) and at most ``1 - 2**-52``. Above it, the
    upper tail ``(1 + level) / 2`` rounds to 1 in float64 and its normal quantile is
    infinite (``score_confidence_interval(method="bca")`` failed in NumPy's percentile,
    ``method="analytic"`` gave NaN ends, ``compare_scores(method="mcnemar")`` an infinite
    end)."""

    def __init__(self):
        super().__init__(Real, 0, 1 - 2 ** -52, closed="right")

    def __str__(self):
        return "a finite real number in (0, 1), at most 1 - 2**-52 = 0.9999999999999998"

    def invalid_values(self):
        return super().invalid_values() + [1 - 2 ** -53]

    def valid_values(self):
        return PROBABILITY_LEVEL.valid_values()


CONFIDENCE_LEVEL = ConfidenceLevel()

TARGETS = {"y_true": [ARRAY], "y_pred": [ARRAY]}
PARALLEL = {
    "n_jobs": [None, Interval(Integral, 1, None), Interval(Integral, None, -1)],
    "chunk_size": [None, POSITIVE_INT],
}
NORMALIZE = [None, Options("true", "pred", "all")]
WEIGHTING = [Options("uniform", "true", "pred"), CALLABLE]
EMPTY = [Options("null_class", "skip", "error")]
MLCM_METHOD = [Options("heydarian", "krstinic")]
BETA = [Interval(Real, 0, None)]
ZERO_DIVISION = [Options("warn"), Options(0.0, 1.0), NaN()]
INCLUDE_NONE = [Options("auto"), BOOLEAN]
# Digits of a report: float64 holds 17 significant digits; more only pads the text.
REPORT_DIGITS = Interval(Integral, 0, 17)
REPORT = {"target_names": [None, ARRAY], "digits": [REPORT_DIGITS],
          "output_dict": [BOOLEAN], "zero_division": ZERO_DIVISION,
          "include_none": INCLUDE_NONE}
# The keywords of every TCM builder, and of every MLCM one.
TRANSPORT = {**TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
             "weighting": WEIGHTING, "empty": EMPTY}
MLCM = {**TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
        "method": MLCM_METHOD}
MEASURE_SCORE = {**TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
                 "weighting": WEIGHTING}
QUANTIFICATION_ERROR = {"p_true": [ARRAY], "p_pred": [ARRAY],
                        "eps": [None, Interval(Real, 0, None, closed="neither")],
                        "aggregate": [None, Options("mean", "median", "weighted")]}
# Statistical tests name their rows with display_labels; labels is its deprecated name.
ROW_NAMES = {"display_labels": [None, ARRAY], "labels": [None, ARRAY]}
CORRECTION = [None, Options("bonferroni", "holm", "fdr_bh")]
# Statistics that need counts: warn on, refuse or accept a matrix that is not counts.
ALLOW_FRACTIONAL = [Options("warn"), BOOLEAN]
# A test's statistic: Bhapkar's is infinite when the Stuart-Maxwell statistic equals n.
STATISTIC = [Interval(Real, None, None), Options(math.inf)]
PVALUE = [Interval(Real, 0, 1)]
CODEFRAME_SIZE = Interval(Integral, 2, None)
PRIOR_NAMES = Options("uniform", "perks")
SCORER_METRIC = [Options("accuracy", "precision", "recall", "f1")]
RANDOM_STATE = [None, RandomState()]
# The intervals of a classification report's scores (None: no intervals).
# verbose=: progress of a long resampling on standard error (0: none).
VERBOSE = [Interval(Integral, 0, None)]
# Fewer than 10 resamples give no interval (nor a standard error of one resample).
N_RESAMPLES = [Interval(Integral, 10, None)]
REPORT_INTERVALS = {"confidence_level": [None, CONFIDENCE_LEVEL],
                    "interval_method": [Options("percentile", "basic", "bca", "bayesian")],
                    "n_resamples": N_RESAMPLES,
                    "random_state": RANDOM_STATE, "verbose": VERBOSE}
ESTIMATOR = [HasMethods("predict", description="a fitted estimator with predict")]
# What every interval and comparison of a score takes.
UNCERTAINTY = {
    "score": [str, CALLABLE], "confidence_level": [CONFIDENCE_LEVEL],
    "n_resamples": N_RESAMPLES, "sample_weight": [None, ARRAY],
    "random_state": RANDOM_STATE, "groups": [None, ARRAY], "verbose": VERBOSE,
    "kind": [None, Options("classic", "transport", "subpixel", "mlcm", "mlcm_krstinic",
                           "mlct")]}
DISPLAY_PLOT = {
    "include_values": [BOOLEAN],
    "cmap": [str, HasMethods("__call__", "reversed", description="a matplotlib Colormap")],
    "xticks_rotation": [Options("auto", "vertical", "horizontal"), Interval(Real, None, None)],
    "values_format": [None, str],
    "ax": [None, HasMethods("imshow", description="a matplotlib Axes")],
    "colorbar": [BOOLEAN], "im_kw": [None, dict], "text_kw": [None, dict],
    # "auto": the matrix's name (with its weighting and normalization from from_*); None: none
    "title": [None, str],
    # With normalize: each cell's count under its normalized value.
    "include_counts": [BOOLEAN],
}
DISPLAY_BUILD = {
    "labels": [None, ARRAY], "sample_weight": [None, ARRAY], "normalize": NORMALIZE,
    "display_labels": [None, ARRAY], "order": [None, Options("test-training")],
    "y_train": [None, ARRAY], **{k: v for k, v in DISPLAY_PLOT.items()},
    "include_values": [None, BOOLEAN],
}
TRANSPORT_DISPLAY = {"weighting": WEIGHTING, "empty": EMPTY, "subpixel": [BOOLEAN]}
MLCM_DISPLAY = {"method": MLCM_METHOD}
FROM_ESTIMATOR = {"estimator": ESTIMATOR, "X": [ARRAY], "y": [ARRAY],
                  "response_method": [Options("auto", "predict", "predict_proba")]}
MATRIX_DISPLAY = {"confusion_matrix": [ARRAY], "display_labels": [None, ARRAY],
                  "column_labels": [None, ARRAY]}
FIGSIZE = {"figsize": [None, FigureSize()]}
# The multi-panel Displays draw on one Axes, a sequence of Axes or a Figure (or SubFigure).
PANELS_AX = {"ax": [None, HasMethods("plot", description="a matplotlib Axes"), ARRAY,
                    HasMethods("add_subplot", description="a matplotlib Figure or SubFigure")]}
# The paired tests across cross-validation folds (compare_cv, compare_cv_scores).
CV_TEST = {
    "test": [Options("corrected_ttest", "bayesian", "5x2cv_ttest", "5x2cv_ftest",
                     "naive_ttest")],
    "rope": [Interval(Real, 0, None)],
    "alternative": [Options("two-sided", "greater", "less")], "names": [None, ARRAY]}
CV_FROM_ESTIMATORS = {
    "estimator_a": [HasMethods("fit", description="an estimator")],
    "estimator_b": [HasMethods("fit", description="an estimator")],
    "X": [ARRAY], "y": [ARRAY], "scoring": [None, str, CALLABLE],
    "n_splits": [None, Interval(Integral, 2, None)], "n_repeats": [None, POSITIVE_INT],
    "groups": [None, ARRAY], "rope": CV_TEST["rope"], "random_state": RANDOM_STATE,
    "n_jobs": PARALLEL["n_jobs"], "names": CV_TEST["names"]}
CV_FROM_SCORES = {
    "scores_a": [ARRAY, dict], "scores_b": [ARRAY, dict],
    "n_train": [None, Interval(Real, 0, None, closed="neither"), ARRAY],
    "n_test": [None, Interval(Real, 0, None, closed="neither"), ARRAY],
    "rope": CV_TEST["rope"], "scoring": [None, str, CALLABLE], "names": CV_TEST["names"]}
# The comparisons over several data sets (friedman_test, friedman_posthoc).
ACROSS_DATASETS = {"scores": [ARRAY], "greater_is_better": [BOOLEAN], "names": [None, ARRAY]}
POSTHOC_ACROSS_DATASETS = {
    "method": [Options("nemenyi", "holm", "bonferroni-dunn")],
    "control": [None, str, Interval(Integral, 0, None)], "alpha": [PROBABILITY_LEVEL]}
CRITICAL_DIFFERENCE_PLOT = {"ax": [None, HasMethods("plot", "text",
                                                    description="a matplotlib Axes")],
                            "title": [None, str]}
# The posterior of the difference draws on one Axes.
POSTERIOR_PLOT = {"ax": [None, HasMethods("plot", "fill_between",
                                          description="a matplotlib Axes")],
                  "title": [None, str]}
# The posterior of a comparison over data sets on a triangle draws on one Axes.
SIMPLEX_PLOT = {"ax": [None, HasMethods("scatter", "add_patch",
                                        description="a matplotlib Axes")],
                "max_points": [POSITIVE_INT], "title": [None, str]}
# A forest plot of scores and their intervals draws on one Axes.
FOREST_PLOT = {"ax": [None, HasMethods("plot", "hlines", description="a matplotlib Axes")],
               "title": [None, str]}


def _displays(name, own):
    return {
        name: MATRIX_DISPLAY,
        f"{name}.plot": DISPLAY_PLOT,
        f"{name}.from_predictions": {**TARGETS, **DISPLAY_BUILD, **own},
        f"{name}.from_estimator": {**FROM_ESTIMATOR, **DISPLAY_BUILD, **own},
    }


PARAMETERS = {
    # Transport-based confusion matrix (Erbani et al. 2024)
    "transport_confusion_matrix": {**TRANSPORT, "normalize": NORMALIZE, **PARALLEL},
    "subpixel_confusion_matrix": {**TRANSPORT, "form": [Options("bounds", "center")],
                                  **PARALLEL},
    "transport_plan": {"y_true_row": [ARRAY], "y_pred_row": [ARRAY]},
    "transport_multilabel_confusion_matrix": {**TRANSPORT, "include_none": INCLUDE_NONE},
    "transport_precision_recall_fscore_support": {
        **TRANSPORT, "beta": BETA, "pos_label": [Label()],
        "average": [None, Options("binary", *AVERAGES), Refused("samples", (
            "scikit-learn's 'samples' averages each instance's precision and recall of its "
            "label set; the instance's transport plan has one agreement, its diagonal mass, "
            "which is its precision and its recall alike, so a 'samples' average would give "
            "one number for three scores that scikit-learn's gives apart. The mean of that "
            "agreement over the instances is transport_accuracy_score; scikit-learn's "
            "per-instance scores of 0/1 indicators are "
            "sklearn.metrics.precision_recall_fscore_support(..., average='samples').")),
        ], "zero_division": ZERO_DIVISION,
        "include_none": INCLUDE_NONE},
    "transport_accuracy_score": {**TRANSPORT, "normalize": [BOOLEAN]},
    "transport_classification_report": {**TRANSPORT, **REPORT, **REPORT_INTERVALS},
    # Multi-label confusion matrices (Heydarian et al. 2022, Krstinic et al.)
    "mlcm": {**MLCM, "normalize": NORMALIZE, **PARALLEL},
    "mlcm_categories": TARGETS,
    "multilabel_confusion_tensor": {
        **TARGETS, "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
        "unique": [BOOLEAN], "normalize": [BOOLEAN], **PARALLEL},
    "mlcm_multilabel_confusion_matrix": MLCM,
    "mlcm_precision_recall_fscore_support": {
        **MLCM, "beta": BETA, "average": [None, Options(*AVERAGES), Refused("samples", (
            "the MLCM counts each instance in the cells of its category (Heydarian et al.: "
            "labels right, missed, extra), spread over its labels and the none class; the "
            "paper defines precision and recall of classes, not of instances. scikit-learn's "
            "per-instance scores of the same 0/1 indicators are "
            "sklearn.metrics.precision_recall_fscore_support(..., average='samples').")),
        ], "zero_division": ZERO_DIVISION, "include_none": INCLUDE_NONE},
    "mlcm_classification_report": {**MLCM, **REPORT, **REPORT_INTERVALS},
    "precision_recall_fscore_support_from_confusion": {
        "confusion": [ARRAY], "labels": [None, ARRAY], "beta": BETA,
        "average": [None, Options(*AVERAGES)], "zero_division": ZERO_DIVISION,
        "none_class": [BOOLEAN], "include_none": INCLUDE_NONE},
    # Classification measures (Gosgens et al. 2021)
    "generalized_means_from_confusion": {
        "matrix": [ARRAY], "r": [Interval(Real, None, None)],
        "average": [Options("binary", *AVERAGES, "symmetric_weighted")]},
    "symmetric_balanced_accuracy_from_confusion": {"matrix": [ARRAY]},
    "correlation_distance_from_confusion": {
        "matrix": [ARRAY], "form": [Options("angle", "chord")],
        "average": [Options("multiclass", *AVERAGES)]},
    "confusion_entropy_from_confusion": {
        "matrix": [ARRAY], "formula": [Options("filled", "table_1")]},
    "generalized_means_score": {
        **MEASURE_SCORE, "r": [Interval(Real, None, None)],
        "average": [Options("binary", *AVERAGES, "symmetric_weighted")],
        "pos_label": [Label()]},
    "symmetric_balanced_accuracy_score": MEASURE_SCORE,
    "correlation_distance": {**MEASURE_SCORE, "form": [Options("angle", "chord")],
                             "average": [Options("multiclass", *AVERAGES)]},
    "confusion_entropy": {**MEASURE_SCORE, "formula": [Options("filled", "table_1")]},
    "accuracy_from_confusion": {"matrix": [ARRAY]},
    "balanced_accuracy_from_confusion": {"matrix": [ARRAY]},
    "cohen_kappa_from_confusion": {"matrix": [ARRAY]},
    "fbeta_from_confusion": {"matrix": [ARRAY], "beta": BETA,
                             "average": [Options("binary", *AVERAGES)]},
    "jaccard_from_confusion": {"matrix": [ARRAY], "average": [Options("binary", *AVERAGES)]},
    "matthews_corrcoef_from_confusion": {"matrix": [ARRAY]},
    "averaged_binary_measure": {"matrix": [ARRAY], "binary_measure": [CALLABLE],
                                "average": [Options("micro", "macro", "weighted")]},
    "mlcm_counts_from_confusion": {"matrix": [ARRAY]},
    "confusion_frame": {"confusion": [ARRAY, HasMethods("result", "merge", description="a "
                                                        "ConfusionAccumulator")],
                        "labels": [None, ARRAY], "y_true": [None, ARRAY],
                        "y_pred": [None, ARRAY]},
    "normalize_confusion_matrix": {"matrix": [ARRAY],
                                   "normalize": [Options("true", "pred", "all")]},
    "project_prevalence": {"p": [ARRAY], "classes": [ARRAY]},
    # Drop-in replacements of scikit-learn's functions: its parameters, then this library's.
    "balanced_accuracy_score": {**MEASURE_SCORE, "adjusted": [BOOLEAN]},
    "cohen_kappa_score": {**MEASURE_SCORE, "weights": [None, Options("linear", "quadratic")],
                          "replace_undefined_by": [NaN(), Interval(Real, -1, 1)]},
    "matthews_corrcoef": MEASURE_SCORE,
    "audit_measure": {"measure": [CALLABLE], "n_classes": [Interval(Integral, 2, None)],
                      "max_n": [Interval(Integral, 2, None)], "n_trials": [NON_NEGATIVE_INT],
                      "random_state": RANDOM_STATE,
                      "max_evaluations": [Interval(Integral, 1000, None)],
                      "verbose": [NON_NEGATIVE_INT]},
    "AuditResult": {"satisfied": [dict], "counterexamples": [dict],
                    "baseline_order": [None, Interval(Integral, 0, None)]},
    "measure_inconsistency": {
        "y_true": [ARRAY], "y_preds": [ARRAY, dict], "measures": [None, dict],
        "groups": [None, ARRAY], "strict": [BOOLEAN],
        "tolerance": [Interval(Real, 0, None)]},
    "measure_inconsistency_from_confusion": {
        "matrices": [ARRAY], "measures": [None, dict], "strict": [BOOLEAN],
        "tolerance": [Interval(Real, 0, None)]},
    "indistinguishable_measures": {"measures": [None, dict], "n": [Interval(Integral, 2, None)],
                                   "tolerance": [Interval(Real, 0, None)]},
    "discriminating_triplets": {"n": [Interval(Integral, 2, None)], "measures": [None, dict],
                                "tolerance": [Interval(Real, 0, None)]},
    "InconsistencyResult": {
        "inconsistency": [ARRAY], "n_inconsistent": [ARRAY], "n_pairs": [POSITIVE_INT],
        "measure_names": [tuple], "scores": [ARRAY], "strict": [BOOLEAN]},
    "DiscriminatingTripletsResult": {"triplets": [ARRAY], "triplet_index": [ARRAY],
                                     "measure_names": [tuple]},
    # Statistics of the off-diagonal cells (Barranco-Chamorro and Carrillo-Garcia 2021)
    "mcnemar_test": {"table": [ARRAY], "exact": [BOOLEAN, Options("mid-p")],
                     "correction": [BOOLEAN],
                     "alternative": [Options("two-sided", "less", "greater")],
                     "allow_fractional": ALLOW_FRACTIONAL},
    "stuart_maxwell_test": {"confusion": [ARRAY], **ROW_NAMES,
                            "allow_fractional": ALLOW_FRACTIONAL},
    "bhapkar_test": {"confusion": [ARRAY], **ROW_NAMES, "allow_fractional": ALLOW_FRACTIONAL},
    "marginal_homogeneity_posthoc": {
        "confusion": [ARRAY], "alpha": [PROBABILITY_LEVEL], "method": CORRECTION,
        **ROW_NAMES},
    "McNemarResult": {"statistic": STATISTIC, "pvalue": PVALUE, "test": [None, str],
                      "alternative": [None, Options("two-sided", "less", "greater")]},
    "MarginalHomogeneityResult": {"statistic": STATISTIC, "pvalue": PVALUE,
                                  "df": [POSITIVE_INT], "test": [None, str]},
    "PosthocResult": {
        "display_labels": [ARRAY], "statistic": [ARRAY], "n_discordant": [ARRAY],
        "auxiliary_tables": [ARRAY],
        **{name: [ARRAY] for name in (
            "pvalue_less", "pvalue_greater", "pvalue_two_sided", "pvalue_less_corrected",
            "pvalue_greater_corrected", "pvalue_two_sided_corrected")},
        "verdict": [ARRAY], "method": CORRECTION, "alpha": [PROBABILITY_LEVEL]},
    "dirichlet_posterior": {
        "confusion": [ARRAY],
        "prior": [Interval(Real, 0, None, closed="neither"), PRIOR_NAMES, NumberArray()],
        **ROW_NAMES, "allow_fractional": ALLOW_FRACTIONAL},
    "ConfusionPosterior": {"alpha": [ARRAY], **ROW_NAMES},
    "ConfusionPosterior.credible_interval": {
        "level": [PROBABILITY_LEVEL], "method": [Options("equal-tailed", "hpd")]},
    "ConfusionPosterior.rvs": {"size": [POSITIVE_INT], "random_state": RANDOM_STATE},
    "ConfusionPosterior.update": {"confusion": [ARRAY], "allow_fractional": ALLOW_FRACTIONAL},
    "ConfusionPosterior.prob_confusion_exceeds": {"i": [NON_NEGATIVE_INT],
                                                  "j": [NON_NEGATIVE_INT]},
    "ConfusionPosterior.score_distribution": {"score": [str, CALLABLE],
                                              "size": [POSITIVE_INT],
                                              "random_state": RANDOM_STATE},
    # Uncertainty and comparison of scores
    "score_confidence_interval": {
        **TARGETS, **UNCERTAINTY,
        "method": [Options("percentile", "basic", "bca", "bayesian", "analytic")],
        "n_jobs": PARALLEL["n_jobs"],
        "prior": [None, Interval(Real, 0, None, closed="neither"), PRIOR_NAMES,
                  NumberArray()]},
    "compare_scores": {
        "y_true": [ARRAY], "y_pred_a": [ARRAY], "y_pred_b": [ARRAY], **UNCERTAINTY,
        "score": [None, str, CALLABLE],
        "method": [Options("bootstrap", "permutation", "bayesian", "mcnemar",
                           "mcnemar-mid-p")],
        "alternative": [Options("two-sided", "greater", "less")]},
    "mcnemar_table": {"y_true": [ARRAY], "y_pred_a": [ARRAY], "y_pred_b": [ARRAY],
                      "sample_weight": [None, ARRAY]},
    # Comparisons across cross-validation folds
    "compare_cv": {**CV_FROM_ESTIMATORS, **CV_TEST},
    "compare_cv_scores": {**CV_FROM_SCORES, **CV_TEST},
    "CrossValidatedTestResult": {
        "statistic": [Interval(Real, None, None), Options(math.inf, -math.inf)],
        "pvalue": PVALUE, "df": [Interval(Real, 0, None, closed="neither"), tuple],
        "test": [Options("corrected_ttest", "5x2cv_ttest", "5x2cv_ftest", "naive_ttest")],
        "score": [str], "models": [tuple], "alternative": [Options("two-sided", "greater",
                                                                   "less")],
        "difference": [Interval(Real, None, None)], "scores_a": [ARRAY],
        "scores_b": [ARRAY], "n_train": [None, ARRAY], "n_test": [None, ARRAY],
        "tested_difference": [None, Interval(Real, None, None)]},
    "BayesianCorrelatedTTestResult": {
        **{name: [Interval(Real, 0, 1)] for name in ("p_a_better", "p_rope", "p_b_better")},
        "rope": [Interval(Real, 0, None)], "mean": [Interval(Real, None, None)],
        "scale": [Interval(Real, 0, None)], "df": [Interval(Real, 0, None, closed="neither")],
        "rho": [Interval(Real, 0, 1, closed="neither")], "score": [str], "models": [tuple],
        "scores_a": [ARRAY], "scores_b": [ARRAY], "n_train": [None, ARRAY],
        "n_test": [None, ARRAY]},
    # Comparisons of several models over several data sets (Demsar 2006; Benavoli et al. 2017)
    "friedman_test": {**ACROSS_DATASETS, "tie_correction": [BOOLEAN]},
    "friedman_posthoc": {**ACROSS_DATASETS, **POSTHOC_ACROSS_DATASETS},
    "bayesian_signed_rank_test": {
        "scores_a": [ARRAY], "scores_b": [ARRAY], "rope": [Interval(Real, 0, None)],
        "prior_strength": [Interval(Real, 0, None, closed="neither")],
        "n_samples": [Interval(Integral, 100, None)], "greater_is_better": [BOOLEAN],
        "random_state": RANDOM_STATE, "names": [None, ARRAY]},
    "bayesian_hierarchical_test": {
        "scores_a": [ARRAY], "scores_b": [ARRAY],
        "n_train": CV_FROM_SCORES["n_train"], "n_test": CV_FROM_SCORES["n_test"],
        "rope": [Interval(Real, 0, None)], "n_samples": [Interval(Integral, 100, None)],
        "n_chains": [POSITIVE_INT], "burn_in": [NON_NEGATIVE_INT],
        "greater_is_better": [BOOLEAN], "random_state": RANDOM_STATE, "names": [None, ARRAY]},
    "FriedmanTestResult": {
        "statistic": [Interval(Real, 0, None), Options(math.inf)], "pvalue": PVALUE,
        "df": [tuple], "chi2_statistic": [Interval(Real, 0, None)], "chi2_pvalue": PVALUE,
        "average_ranks": [ARRAY], "models": [tuple], "n_datasets": [Interval(Integral, 2, None)],
        "tie_correction": [BOOLEAN], "datasets": [None, tuple]},
    "FriedmanPosthocResult": {
        "pvalue": [ARRAY], "statistic": [ARRAY], "significant": [ARRAY],
        "average_ranks": [ARRAY], "critical_difference": [None, Interval(Real, 0, None)],
        "standard_error": [Interval(Real, 0, None, closed="neither")],
        "method": [Options("nemenyi", "holm", "bonferroni-dunn")],
        "alpha": [PROBABILITY_LEVEL], "models": [tuple], "control": [None, str],
        "n_datasets": [Interval(Integral, 2, None)]},
    "BayesianSignedRankResult": {
        **{name: [Interval(Real, 0, 1)] for name in ("p_a_better", "p_rope", "p_b_better")},
        "rope": [Interval(Real, 0, None)], "samples": [ARRAY],
        "prior_strength": [Interval(Real, 0, None, closed="neither")], "models": [tuple],
        "n_datasets": [Interval(Integral, 2, None)]},
    "BayesianHierarchicalResult": {
        **{name: [Interval(Real, 0, 1)] for name in ("p_a_better", "p_rope", "p_b_better")},
        "rope": [Interval(Real, 0, None)], "samples": [ARRAY], "next_dataset": [ARRAY],
        "mean_difference": [ARRAY], "draws": [dict], "observed": [ARRAY], "shrunken": [ARRAY],
        "shrunken_std": [ARRAY], "dataset_probabilities": [ARRAY], "rho": [ARRAY],
        "rhat": [Interval(Real, 0, None), Options(math.inf)], "ess": [Interval(Real, 0, None)],
        "n_chains": [POSITIVE_INT], "n_samples": [POSITIVE_INT], "burn_in": [NON_NEGATIVE_INT],
        "models": [tuple], "n_datasets": [Interval(Integral, 2, None)],
        "n_folds": [Interval(Integral, 2, None)], "datasets": [None, tuple]},
    "ConfidenceIntervalResult": {
        **{name: [Interval(Real, None, None), NaN(), ARRAY]
           for name in ("estimate", "low", "high", "standard_error")},
        "distribution": [None, ARRAY], "method": [str],
        "confidence_level": [CONFIDENCE_LEVEL], "score": [None, str],
        "class_names": [None, ARRAY], "wilson_fallback": [None, BOOLEAN, ARRAY]},
    "ComparisonResult": {
        **{name: [Interval(Real, None, None), NaN()]
           for name in ("difference", "low", "high")},
        "pvalue": PVALUE, "method": [str], "confidence_level": [CONFIDENCE_LEVEL],
        "alternative": [str], "distribution": [None, ARRAY], "score": [None, str]},
    # Quantification (Sebastiani 2020)
    **{name: QUANTIFICATION_ERROR for name in (
        "absolute_error", "normalized_absolute_error", "relative_absolute_error",
        "normalized_relative_absolute_error", "squared_error", "normalized_squared_error",
        "discordance_ratio", "kl_divergence", "normalized_kl_divergence",
        "pearson_divergence", "max_normalized_kl_divergence",
        "normalized_pearson_divergence")},
    "max_quantification_error": {"error": [CALLABLE], "p_true": [ARRAY],
                                 "eps": [None, Interval(Real, 0, None, closed="neither")]},
    "prevalence": {"y": [ARRAY], "labels": [None, ARRAY], "sample_weight": [None, ARRAY]},
    "make_quantification_scorer": {
        "error": [CALLABLE],
        "method": [Options("classify_and_count", "probabilistic_classify_and_count")],
        "labels": [None, ARRAY]},
    "prevalence_protocol_samples": {
        "y": [ARRAY], "n_samples": [POSITIVE_INT], "sample_size": [None, POSITIVE_INT],
        "protocol": [Options("natural", "artificial")], "random_state": RANDOM_STATE},
    "evaluate_quantifier": {
        "quantifier": [CALLABLE, HasMethods("quantify", description="a quantifier"),
                       HasMethods("predict", description="a fitted classifier")],
        "X": [ARRAY], "y": [ARRAY],
        "method": [Options("auto", "quantify", "classify_and_count",
                           "probabilistic_classify_and_count")],
        "protocol": [Options("natural", "artificial")], "n_samples": [POSITIVE_INT],
        "sample_size": [None, POSITIVE_INT], "labels": [None, ARRAY],
        "random_state": RANDOM_STATE},
    "QuantifierEvaluation": {
        "errors": [dict], "true_prevalence": [ARRAY], "predicted_prevalence": [ARRAY],
        "classes": [ARRAY], "protocol": [str], "sample_size": [POSITIVE_INT],
        "eps": [Interval(Real, 0, None, closed="neither")]},
    "audit_quantification_measure": {
        "measure": [CALLABLE], "n_classes": [CODEFRAME_SIZE, ARRAY],
        "n_trials": [POSITIVE_INT], "random_state": RANDOM_STATE,
        "verbose": [NON_NEGATIVE_INT]},
    # Reading confusion matrices (Erbani et al. 2024, Sections VI-VII)
    "prevalence_ranking": {"y_test": [ARRAY], "y_train": [None, ARRAY],
                           "labels": [None, ARRAY]},
    "f1_ranking_disorder": {"matrix_a": [ARRAY], "matrix_b": [ARRAY]},
    "most_confused_pairs": {"confusion": [ARRAY], "display_labels": [None, ARRAY],
                            "top": [None, POSITIVE_INT], "normalize": NORMALIZE},
    "ConfusedPairsResult": {
        **{name: [ARRAY] for name in ("true", "predicted", "count", "fraction_of_true",
                                      "fraction_of_predicted")},
        "normalize": NORMALIZE, "n_confused": [NON_NEGATIVE_INT],
        "total_confused": [Interval(Real, 0, None)]},
    "prevalence_ranking_breaks": {"confusion_matrix": [ARRAY], "row_order": [None, ARRAY],
                                  "column_order": [None, ARRAY]},
    # Scorers
    "get_scorer": {"scoring": [None, str, CALLABLE]},
    "get_scorer_names": {},
    # Package settings
    "get_config": {},
    "set_config": {"max_matrix_mib": [None, POSITIVE_INT]},
    "config_context": {"max_matrix_mib": [None, POSITIVE_INT]},
    # Scaling out
    "ConfusionAccumulator": {
        "kind": [Options("classic", "transport", "subpixel", "mlcm", "mlcm_krstinic",
                         "mlct")],
        "n_classes": [None, POSITIVE_INT], "labels": [None, ARRAY],
        "target_kind": [None, Options("multilabel", "soft")], **PARALLEL},
    "ConfusionAccumulator.update": {**TARGETS, "sample_weight": [None, ARRAY]},
    "ConfusionAccumulator.merge": {"other": [HasMethods(
        "merge", "confusions", description="a ConfusionAccumulator")]},
    # Displays
    **_displays("TransportConfusionMatrixDisplay", TRANSPORT_DISPLAY),
    "TransportConfusionMatrixDisplay": {**MATRIX_DISPLAY, "half_width": [None, ARRAY]},
    **_displays("MLCMDisplay", MLCM_DISPLAY),
    "PosteriorIntervalDisplay": {"mean": [ARRAY], "lower": [ARRAY], "upper": [ARRAY],
                                 "display_labels": [None, ARRAY]},
    "PosteriorIntervalDisplay.from_confusion": {
        "confusion": [ARRAY],
        "prior": [Interval(Real, 0, None, closed="neither"), Options("uniform", "perks"),
                  NumberArray()],
        "level": [PROBABILITY_LEVEL], "method": [Options("hpd", "equal-tailed")],
        "display_labels": [None, ARRAY], "rows": [Options("auto"), ARRAY], **PANELS_AX,
        **FIGSIZE, "allow_fractional": ALLOW_FRACTIONAL},
    "PosteriorIntervalDisplay.plot": {"rows": [Options("auto"), ARRAY], **PANELS_AX,
                                      **FIGSIZE},
    "PosteriorSimplexDisplay": {"alpha": [ARRAY], "vertex_labels": [None, ARRAY],
                                "row_labels": [None, ARRAY]},
    **{f"PosteriorSimplexDisplay.{method}": {
        **inputs,
        "prior": [Interval(Real, 0, None, closed="neither"), PRIOR_NAMES, NumberArray()],
        "rows": [Options("auto"), ARRAY], "classes": [None, ARRAY],
        "display_labels": [None, ARRAY], "levels": [ARRAY], **PANELS_AX, **FIGSIZE}
       for method, inputs in (
           ("from_confusion", {"confusion": [ARRAY], "allow_fractional": ALLOW_FRACTIONAL}),
           ("from_predictions", {**TARGETS, "labels": [None, ARRAY],
                                 "sample_weight": [None, ARRAY]}))},
    "PosteriorSimplexDisplay.plot": {"levels": [ARRAY], **PANELS_AX, **FIGSIZE},
    "RankingComparisonDisplay": {"f1_a": [ARRAY], "f1_b": [None, ARRAY],
                                 "names": [None, ARRAY], "display_labels": [None, ARRAY]},
    "RankingComparisonDisplay.from_matrices_pairwise": {
        "matrices": [ARRAY, dict], "names": [None, ARRAY],
        "display_labels": [None, ARRAY], **PANELS_AX, **FIGSIZE},
    "RankingComparisonDisplay.from_matrices": {
        "matrix_a": [ARRAY], "matrix_b": [ARRAY], "names": [ARRAY],
        "display_labels": [None, ARRAY], **PANELS_AX, **FIGSIZE},
    "RankingComparisonDisplay.plot": {**PANELS_AX, **FIGSIZE},
    "ClassDistributionDisplay": {"test_prevalence": [ARRAY], "training_prevalence": [None, ARRAY],
                                 "display_labels": [None, ARRAY]},
    "ClassDistributionDisplay.from_labels": {
        "y_test": [ARRAY], "y_train": [None, ARRAY], "labels": [None, ARRAY],
        "display_labels": [None, ARRAY], "order": [None, Options("training", "test")],
        "ax": [None, HasMethods("bar", "barh", description="a matplotlib Axes")], **FIGSIZE},
    "ClassDistributionDisplay.plot": {
        "order": [None, Options("training", "test")],
        "ax": [None, HasMethods("bar", "barh", description="a matplotlib Axes")], **FIGSIZE},
    "ScoreIntervalDisplay": {"estimates": [ARRAY], "low": [ARRAY], "high": [ARRAY],
                             "class_names": [None, ARRAY], "model_names": [None, ARRAY],
                             "score_name": [str]},
    "ScoreIntervalDisplay.from_predictions": {
        "y_true": [ARRAY], "y_pred": [ARRAY, dict],
        "score": [Options(*PER_CLASS_SCORE_NAMES)],
        "method": [Options("percentile", "basic", "bca", "bayesian", "analytic")],
        "confidence_level": [CONFIDENCE_LEVEL], "n_resamples": N_RESAMPLES,
        "labels": [None, ARRAY], "sample_weight": [None, ARRAY],
        "random_state": RANDOM_STATE, "display_labels": [None, ARRAY], **FOREST_PLOT},
    "ScoreIntervalDisplay.plot": FOREST_PLOT,
    "PosteriorDifferenceDisplay": {  # numbers, or arrays of one (checked as Display data)
        "mean": [Interval(Real, None, None), ARRAY], "scale": [Interval(Real, 0, None), ARRAY],
        "df": [Interval(Real, 0, None, closed="neither"), ARRAY],
        "rope": [Interval(Real, 0, None), ARRAY], "names": [None, ARRAY],
        "score_name": [str]},
    "PosteriorDifferenceDisplay.from_scores": {**CV_FROM_SCORES, **POSTERIOR_PLOT},
    "PosteriorDifferenceDisplay.from_estimators": {**CV_FROM_ESTIMATORS, **POSTERIOR_PLOT},
    "PosteriorDifferenceDisplay.plot": POSTERIOR_PLOT,
    "ComparisonSimplexDisplay": {"samples": [ARRAY], "probabilities": [None, ARRAY],
                                 "rope": [Interval(Real, 0, None)], "names": [None, ARRAY]},
    "ComparisonSimplexDisplay.from_result": {
        "result": [HasAttributes(
            "samples", "p_a_better", "p_rope", "p_b_better", "rope", "models",
            description="a BayesianSignedRankResult or BayesianHierarchicalResult (the "
                        "result of bayesian_signed_rank_test or bayesian_hierarchical_test)")],
        **SIMPLEX_PLOT},
    "ComparisonSimplexDisplay.plot": SIMPLEX_PLOT,
    "CriticalDifferenceDisplay": {"average_ranks": [ARRAY], "names": [None, ARRAY],
                                  "critical_difference": [None, Interval(Real, 0, None)],
                                  "groups": [None, ARRAY], "control": [None, str]},
    "CriticalDifferenceDisplay.from_scores": {**ACROSS_DATASETS, **POSTHOC_ACROSS_DATASETS,
                                              **CRITICAL_DIFFERENCE_PLOT},
    "CriticalDifferenceDisplay.plot": CRITICAL_DIFFERENCE_PLOT,
}




def _scorer_factory(function, own, passed_on):
    """A scorer factory's declaration: its own parameters and those it passes on to
    ``function``, whose constraints they take, so a scorer that would fail on every fold
    is never built."""
    return {**own, **{name: PARAMETERS[function][name] for name in passed_on}}


# The parameters it passes on take the tests' constraints; those with another default in
# each test, or of one test only, are None by default (the test's default).
_SIGNED_RANK, _HIERARCHICAL = (PARAMETERS[name] for name in (
    "bayesian_signed_rank_test", "bayesian_hierarchical_test"))
PARAMETERS["ComparisonSimplexDisplay.from_scores"] = {
    **{name: _SIGNED_RANK[name] for name in ("scores_a", "scores_b", "rope",
                                             "greater_is_better", "random_state", "names")},
    "test": [Options("signed_rank", "hierarchical")],
    **{name: [None, *_SIGNED_RANK[name]] for name in ("prior_strength", "n_samples")},
    **{name: _HIERARCHICAL[name] for name in ("n_train", "n_test")},
    **{name: [None, *_HIERARCHICAL[name]] for name in ("n_chains", "burn_in")},
    **SIMPLEX_PLOT}

_SCORER = {"metric": SCORER_METRIC, "average": [Options(*AVERAGES)]}
PARAMETERS["make_transport_scorer"] = _scorer_factory(
    "transport_precision_recall_fscore_support",
    {**_SCORER, "response_method": [Options("predict", "predict_proba")]},
    ("weighting", "beta", "zero_division", "empty"))
PARAMETERS["make_mlcm_scorer"] = _scorer_factory(
    "mlcm_precision_recall_fscore_support", _SCORER, ("method", "zero_division"))


def options_of(declared, name):
    """The options a parameter takes (for argparse's ``choices``): ``declared`` is a
    declaration or a decorated callable (a class: its constructor)."""
    if not isinstance(declared, Mapping):
        declared = getattr(declared, "__init__", declared) if inspect.isclass(declared) \
            else declared
        declared = declared.parameter_constraints
    return [option for constraint in declared[name]
            if isinstance(constraint, Options) for option in constraint.options]


def check_keywords(function, keywords, owner):
    """Check keywords that ``owner`` will pass to ``function`` (a scorer's, say).

    ``function`` decorated with :func:`validate_params` is checked against its declaration;
    any other callable against its signature's names.
    """
    declaration = getattr(function, "parameter_constraints", None)
    if declaration is not None:
        check_params(owner, keywords, declaration)
        return
    parameters = inspect.signature(function).parameters
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return
    unknown = sorted(set(keywords) - set(parameters))
    if unknown:
        raise TypeError(f"{owner} got keyword(s) {unknown} that {function.__name__} does not "
                        f"take; it takes {sorted(parameters)}.")
