"""DataFrames (pandas, polars) whose columns or categories name the classes.

The first 2-D frame with named columns names the classes of 2-D targets: every other frame
is reordered to its columns by name, ``labels=`` selects columns by name, and beside 1-D
labels its names are checked against them. A categorical 1-D target (pandas ``Categorical``,
polars ``Enum``) gives the order of its classes. A confusion matrix given as a frame names
its classes by its columns or index (:func:`frame_class_names`). pandas is never imported:
frames are read through their attributes.
"""

from numbers import Integral

import numpy as np
import scipy.sparse as sp

from .conversion import _numpy_of_nullable
from .labels import _selected_columns, check_label_list
from .params import quoted
from .raw_values import _hashable


def _frame_columns(named_targets):
    """``(name, column names)`` of the first 2-D DataFrame (pandas, polars) among the targets
    whose columns name classes; None where every frame has the default columns (pandas'
    ``0 .. C-1``, polars' ``column_0 ...``) or there is no frame."""
    for name, y in named_targets.items():
        names = _column_names(y)
        if names is not None:
            return name, names
    return None


def _column_names(y):
    """A 2-D frame's column names as a list (None: not a frame, or default names)."""
    columns = getattr(y, "columns", None)
    if columns is None or sp.issparse(y) or len(getattr(y, "shape", ())) != 2 or \
            y.shape[1] < 2:
        return None
    names = [name.item() if isinstance(name, np.generic) else name for name in columns]
    if all(isinstance(name, Integral) and not isinstance(name, bool) and name == position
           for position, name in enumerate(names)):
        return None
    if all(name == f"column_{position}" for position, name in enumerate(names)):
        return None
    return names


def _aligned_frames(named_targets, columns, column_labels, labels):
    """The targets with every frame's columns in the order of the classes, the classes, and
    ``labels`` of 2-D targets as column positions.

    The first frame with named columns (``columns``: its argument name and names) names the
    classes, sorted as 1-D labels are (in the frame's order where names of different types
    do not sort; beside 1-D labels too: the columns of scores are the classes in sorted
    order); beside 1-D labels, ``column_labels`` (where given) must name the same set.
    Every frame whose columns
    are that set (default ``0 .. C-1`` columns beside integer names too) is reordered by
    name; another set of names is refused; other 2-D targets (arrays, frames with default
    columns) are read by position, in the first frame's order. Between 2-D targets,
    ``labels`` selects columns by name."""
    first, names = columns
    classes = set(map(_hashable, names))
    if len(classes) != len(names):
        raise ValueError(f"{first} has repeated column names {quoted(names)}; each column "
                         "of a DataFrame names one class.")
    frames = {name: _raw_columns(y) for name, y in named_targets.items()}
    frames = {name: own for name, own in frames.items() if own is not None}
    any_labels = any(np.ndim(y) == 1 for name, y in named_targets.items()
                     if name not in frames)
    if any_labels and column_labels is not None:  # the same set; the columns stay sorted
        _checked_column_labels(first, names, column_labels)
    try:
        order = sorted(names)
    except TypeError:
        order = names
    raw = []
    for name, y in named_targets.items():
        own = frames.get(name)
        if own is not None and set(own) != classes and _column_names(y) is not None:
            raise ValueError(f"{name}'s columns {quoted(own)} are not the classes "
                             f"{quoted(names)} of {first}'s columns; a DataFrame's columns "
                             "name its classes, so both must name the same set.")
        if own is None or set(own) != classes:  # by position, in the first frame's order
            own = names if np.ndim(y) == 2 and np.shape(y)[1] == len(names) else order
        if own != order:
            y = _reordered(name, y, own, order)
        raw.append(y)
    selection = labels
    if labels is not None and not any_labels:
        selection = _selected_columns(labels, order)
    return raw, np.asarray(order), selection


def _raw_columns(y):
    """The column names of a 2-D frame of at least two columns (defaults included)."""
    if getattr(y, "columns", None) is None or sp.issparse(y) or \
            len(getattr(y, "shape", ())) != 2 or y.shape[1] < 2:
        return None
    return [_hashable(name) for name in y.columns]


def _checked_column_labels(first, names, column_labels):
    """``labels=`` beside a DataFrame of scores: the same set as its columns."""
    listed = [_hashable(label) for label in check_label_list(column_labels).tolist()]
    if set(listed) != set(map(_hashable, names)):
        raise ValueError(f"labels {quoted(listed)} are not the classes {quoted(names)} that "
                         f"{first}'s columns name; beside a DataFrame of scores, labels= must "
                         "name the same classes (in any order).")
    return listed


def _reordered(name, y, own, order):
    """The columns of a 2-D target ``name`` (named ``own``) in the order ``order``: a NumPy
    array (a sparse one stays sparse)."""
    position = {_hashable(name): i for i, name in enumerate(own)}
    columns = [position[_hashable(name)] for name in order]
    if sp.issparse(y):
        return sp.csr_array(y)[:, columns]
    return _numpy_of_nullable(name, y)[:, columns]


def _categories(named_targets):
    """The categories of the first categorical 1-D target (pandas ``Categorical`` or a
    Series of category dtype, polars ``Enum``), in their order, followed by the other
    categoricals' own; None if there is none. Read from the dtype: pandas is not imported."""
    found = []
    for y in named_targets.values():
        categories = getattr(getattr(y, "dtype", None), "categories", None)
        if categories is None or len(getattr(y, "shape", (0, 0))) != 1:
            continue
        categories = np.asarray(categories)
        found.append(categories if categories.dtype.kind != "O" else
                     np.asarray(categories.tolist(), dtype=object))
    if not found:
        return None
    categories = list(found[0].tolist())
    seen = set(categories)
    for other in found[1:]:
        extra = [c for c in other.tolist() if c not in seen]
        categories += extra
        seen.update(extra)
    return np.asarray(categories, dtype=found[0].dtype if len(found) == 1 else None)


def frame_class_names(matrix, name="confusion"):
    """The class names of a confusion matrix given as a pandas DataFrame: its columns, or its
    index where the columns are only positions; None for other inputs. Rows and columns of
    one matrix are one set of classes in one order, so a frame whose two axes name different
    classes is refused rather than read by one of them."""
    if not (hasattr(matrix, "columns") and hasattr(matrix, "index")
            and hasattr(matrix, "iloc")):
        return None
    axes = [list(axis) for axis in (matrix.columns, matrix.index)
            if type(axis).__name__ != "RangeIndex"]
    if not axes:
        return None
    if len(axes) == 2 and axes[0] != axes[1]:
        raise ValueError(
            f"{name} is a DataFrame whose index and columns name different classes "
            f"({quoted(axes[1])} and {quoted(axes[0])}); a confusion matrix has one class "
            "order for both axes: reorder one axis (frame.loc[order, order]) or pass "
            "display_labels=.")
    return axes[0]
