"""What every Display checks of the data its constructor is given, before anything is drawn."""

import numpy as np

from .._core.params import quoted


def display_array(values, name, *, ndim, square=False, bounds=None, what="values",
                  allow_nan=False):
    """``values`` as a float ndarray of ``ndim`` dimensions (any if None), or a ``ValueError``
    naming ``name``.

    It must not be empty, hold only finite numbers, be square when ``square`` and lie within
    ``bounds`` (``(low, high)``, either None) when given. ``what`` says what the values are
    in the message ("counts", "probabilities", ...). ``allow_nan`` lets NaN through (an
    undefined value the display leaves empty); infinities never pass.
    """
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers ({what}); got "
                         f"{quoted(values)}.") from None
    if ndim is not None and array.ndim != ndim:
        shape = {1: "1-D", 2: "2-D"}[ndim]
        raise ValueError(f"{name} must be a {shape} array of {what}; got shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty (shape {array.shape}); the display needs at least "
                         f"one value to draw.")
    if square and array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be square (one row and one column per class); got "
                         f"shape {array.shape}.")
    bad = ~np.isfinite(array) & ~(allow_nan & np.isnan(array))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must hold finite {what}; got {array[where]} at {where} "
                         f"({int(bad.sum())} non-finite of {array.size}).")
    low, high = bounds if bounds is not None else (None, None)
    for limit, beyond, word in ((low, np.less, "least"), (high, np.greater, "most")):
        outside = beyond(array, limit) if limit is not None else None
        if outside is not None and outside.any():
            where = tuple(int(i) for i in np.argwhere(outside)[0])
            needed = ("non-negative " + what if (limit, word) == (0, "least")
                      else f"{what} of at {word} {limit}")
            raise ValueError(f"{name} must hold {needed}; got {array[where]:.6g} at "
                             f"{where}.")
    return array


def same_shape(arrays):
    """A ``ValueError`` unless the named arrays (a dict) have one shape."""
    shapes = {name: array.shape for name, array in arrays.items()}
    if len(set(shapes.values())) > 1:
        listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        *first, last = shapes
        raise ValueError(f"{', '.join(first)} and {last} must have the same shape; got "
                         f"{listed}.")


def ordered_bounds(low, high, low_name, high_name, tolerance=1e-12):
    """A ``ValueError`` where an interval's lower bound exceeds its upper bound."""
    reversed_ = low > high + tolerance
    if reversed_.any():
        where = tuple(int(i) for i in np.argwhere(reversed_)[0])
        raise ValueError(f"{low_name} must not exceed {high_name}: {low_name}{list(where)} = "
                         f"{low[where]:.6g} > {high_name}{list(where)} = {high[where]:.6g} "
                         f"({int(reversed_.sum())} reversed interval(s)).")


def same_undefined(arrays):
    """A ``ValueError`` unless the named arrays (a dict, one shape) are NaN at the same places:
    an undefined value is undefined with its bounds."""
    (first, reference), *others = arrays.items()
    for name, array in others:
        differ = np.isnan(reference) != np.isnan(array)
        if differ.any():
            where = tuple(int(i) for i in np.argwhere(differ)[0])
            raise ValueError(f"{first} and {name} must be NaN (undefined) at the same places; "
                             f"at {where} {first} is {reference[where]:.6g} and {name} "
                             f"{array[where]:.6g}.")
