"""The parameter contract: every public parameter's constraint, declared once, checked once.

This module is the constraint language and the shared vocabulary of the declarations; it
names no public function. Each public function, class constructor and Display method
declares the constraints of its parameters beside its code, as data, on its decorator
(``@validate_params({"matrix": [ARRAY], ...})``): a value is valid when it satisfies one
constraint of its list. :func:`validate_params` wraps the callable so that its arguments
are checked before any work, and keeps the declaration on it (``parameter_constraints``);
:func:`check_params` checks keywords against a declaration (a scorer's keywords against
the function it will call, the accumulator's against its kind's builder). The tests read
the declarations from the public callables to generate invalid values
(``tests/declarations.py``, ``tests/registry/test_common.py``).

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
from abc import ABC, abstractmethod
from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .namespaces import call_returning_in_input_namespace
from .renames import renamed_keywords

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


def check_params(owner, values, declaration):
    """Check ``values`` (a dict) against ``declaration`` (``owner`` names the callable).

    A keyword that is not declared raises ``TypeError`` naming the accepted ones.
    """
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


def _aliased_keywords(where, kwargs, aliases):
    """``kwargs`` with each alias (scikit-learn's name) replaced by the parameter's name."""
    kwargs = dict(kwargs)
    for alias, name in aliases.items():
        if alias in kwargs:
            if name in kwargs:
                raise TypeError(f"{where}: pass {name!r} or {alias!r} (its scikit-learn "
                                "name), not both.")
            kwargs[name] = kwargs.pop(alias)
    return kwargs


# The parameters that take a square count matrix: what builds each from labels, and a note.
MATRIX_BUILDERS = {
    "matrix": ("transport_confusion_matrix(y_true, y_pred)",
               " (or sklearn.metrics.confusion_matrix(y_true, y_pred))"),
    "table": ("mcnemar_table(y_true, y_pred_a, y_pred_b)",
              ", the table of two models' correctness"),
}


def matrix_builder(name, where=None):
    """The call that builds the count matrix of a parameter ``name`` from labels, inside a
    call of ``where`` where given, with its note."""
    call, note = MATRIX_BUILDERS["table" if name == "table" else "matrix"]
    return (call if where is None else f"{where}({call})") + note


def labels_instead_of_matrix(where, signature, args):
    """The message for a function taking a count matrix called as ``f(y_true, y_pred)``
    (two 1-D arrays, one positional argument too many), naming the function that builds
    the matrix; else None."""
    first = next(iter(signature.parameters), None)
    positional = [p for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    if first not in MATRIX_BUILDERS or len(args) <= len(positional) or len(args) < 2 or \
            not all(np.ndim(arg) == 1 for arg in args[:2]):
        return None
    return (f"{where} takes a square count matrix {first!r}, not two label arrays (y_true, "
            f"y_pred): pass {matrix_builder(first, where)}.")


def validate_params(parameters, *, renamed=None, aliases=None):
    """Decorate a public function or method: its arguments are checked before it runs.

    ``parameters`` is its declaration, written beside it (as scikit-learn's
    ``@validate_params({...})``): each parameter's list of constraints. It is kept on the
    decorated callable as
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

    ``aliases`` maps another name of a parameter to its name, for good and without a
    warning: scikit-learn's name of an argument of a function of the same name
    (``{"y1": "y_true"}`` of ``cohen_kappa_score``); passing both is a ``TypeError``. It is
    kept on the callable as ``parameter_aliases``.
    """
    renamed = dict(renamed or {})
    aliases = dict(aliases or {})

    def decorate(function):
        entry, declaration = function.__qualname__, parameters
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
            if aliases and not kwargs.keys().isdisjoint(aliases):
                kwargs = _aliased_keywords(where, kwargs, aliases)
            arguments = binder(args, kwargs)
            if arguments is None:
                try:
                    arguments = signature.bind(*args, **kwargs).arguments
                except TypeError as error:  # an unknown keyword, a missing argument
                    labels_given = labels_instead_of_matrix(where, signature, args)
                    raise TypeError(labels_given or f"{where}: {error}") from None
            for parameter, value in arguments.items():
                if parameter in constraints and value is not defaults.get(parameter, _NO_DEFAULT):
                    _check_constraints(where, parameter, value, constraints[parameter])
            if arrays:
                return call_returning_in_input_namespace(
                    function, [arguments.get(parameter) for parameter in arrays], args, kwargs)
            return function(*args, **kwargs)

        checked.parameter_constraints = declaration
        checked.renamed_parameters = renamed
        checked.parameter_aliases = aliases
        if not renamed.keys().isdisjoint(declaration) or not set(renamed.values()) <= set(
                declaration):
            raise RuntimeError(f"{entry} renames {renamed}: each former name must be gone "
                               "from the declaration and each new name in it.")
        return checked

    return decorate




# --- The declarations -------------------------------------------------------------------

ARRAY = ArrayLike()
# The averages of per-class scores (scikit-learn's words), which the score names carry too.
AVERAGES = ("micro", "macro", "weighted")
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
# Statistics that need counts: warn on, refuse or accept a matrix that is not counts.
ALLOW_FRACTIONAL = [Options("warn"), BOOLEAN]
PVALUE = [Interval(Real, 0, 1)]
PRIOR_NAMES = Options("uniform", "perks")
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
