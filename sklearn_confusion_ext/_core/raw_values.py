"""Raw values as the target checks first read them, the vocabulary the split checks share.

A list or array-like becomes a NumPy array here (a ragged nested list is refused naming the
argument and the first row whose length differs); a NumPy scalar becomes its Python value
(to key labels and column names); a label is told missing (None, NaN, pandas' NA); and a
list that NumPy read as strings but also held numbers is refused with the one message for
mixed label types. Everything here is used by more than one of the modules that check
targets, labels, weights and frames, and imports none of them.
"""

import numpy as np

MIXED_TYPES = ("mixes strings and numbers, so its values are not class labels: Mix of label "
               "input types (string and number).")


def as_numpy(name, y, expected="1-D class labels or an (n_samples, n_classes) array"):
    """``np.asarray(y)``; a ragged nested list, which NumPy refuses with its own words
    ("inhomogeneous shape"), raises ``ValueError`` naming ``name``, the first row whose
    length differs and what is ``expected``."""
    try:
        return np.asarray(y)
    except ValueError:
        if not isinstance(y, (list, tuple)):
            raise
    lengths = [len(row) if hasattr(row, "__len__") and not isinstance(row, (str, bytes))
               else None for row in y]
    first = lengths[0]
    row = next((i for i, length in enumerate(lengths) if length != first), None)
    if row is None:  # the rows agree: the raggedness lies deeper
        found = "its rows hold sequences of different lengths"
    else:
        found = (f"row 0 {_length_words(first)} but row {row} "
                 f"{_length_words(lengths[row])}")
    raise ValueError(f"{name} is a ragged list: {found}; expected {expected}, every row of "
                     "the same length.") from None


def _length_words(length):
    if length is None:
        return "is a single value"
    return f"has {length} value{'s' if length != 1 else ''}"


def _hashable(value):
    """A NumPy scalar as its Python value (to key labels and column names); others as given."""
    return value.item() if isinstance(value, np.generic) else value


def _is_missing(value):
    """Whether a label is NaN-like: unequal to itself, or without a truth value (pandas NA)."""
    try:
        return bool(value != value)
    except (TypeError, ValueError):
        return True


def _check_strings_only(name, values):
    """Raise ``ValueError`` if a list that NumPy read as strings also held numbers."""
    if not all(isinstance(value, (str, bytes)) for value in values.ravel()):
        raise ValueError(f"{name} {MIXED_TYPES}")
