"""Dask collections: one partial matrix per block of rows, then a tree sum.

The dispatch hands Dask inputs here. Each block of rows is validated and built in a task of
its own (NumPy or scipy.sparse inside) into a :class:`~.sums.ConfusionSum`; the sums are
merged up a tree of fan-in ``_FAN_IN``, so only the small matrices travel between
workers. The graph runs on Dask's current scheduler:
with a ``dask.distributed.Client`` active, on that cluster's workers.
"""

import numpy as np
import scipy.sparse as sp

from .array_api import check_any_targets
from .kinds import KINDS, build
from .sums import ConfusionSum
from .validation import MULTILABEL, SOFT, is_binary

# Accumulators merged by one task of the tree sum.
_FAN_IN = 8


def is_dask_collection(*arrays):
    """Whether any of ``arrays`` is a Dask collection (array, series, dataframe, or an
    ``xarray.DataArray`` over a Dask array).

    A collection is recognized by what it is, as Dask recognizes it: a graph, not the
    method that could return one (an in-memory ``xarray.DataArray`` has
    ``__dask_graph__`` and returns None: it is read as any array).
    """
    return any(_is_dask_collection(array) for array in arrays)


def _is_dask_collection(array):
    if not hasattr(type(array), "__dask_graph__"):
        return False
    try:
        return array.__dask_graph__() is not None
    except (AttributeError, TypeError):  # an unbound or foreign __dask_graph__
        return False


def dask_confusions(kind, y_true, y_pred, *, labels, sample_weight, n_jobs, chunk_size,
                    params, column_labels=None, true_kind=None, decided_by=None):
    """The full :class:`Confusion` objects of ``kind`` (a name of the registry).

    ``params`` are the kind's parameters; ``labels`` is applied once, to the sum. 1-D
    labels beside 2-D scores name the columns with ``labels`` (or ``column_labels``), by
    default the sorted labels found in a first pass, so that every block agrees. A 2-D
    ``y_true`` is read as 0/1 indicators or soft labels as ``true_kind`` says, by default
    as a first pass over the whole of it finds (never by the values of one block: a block
    of soft labels that happen to be 0 and 1 is still soft labels). Dask dataframes are
    read as pandas ones are: each block is rebuilt as a pandas object of the collection's
    column names or categorical dtype (:func:`_pandas_forms`), so a DataFrame's column
    names are its classes and a categorical's categories are its classes, in their order.
    """
    try:
        import dask
    except ImportError:
        raise ImportError("Dask inputs need dask: pip install 'sklearn-confusion-ext[dask]'."
                          ) from None
    named = {"y_true": y_true, "y_pred": y_pred}
    named, forms = _pandas_forms(named)
    if labels is not None:
        column_labels = labels
    named_columns = any(form[0] == "frame" for form in forms.values())
    if column_labels is None and not named_columns and \
            len({getattr(y, "ndim", None) for y in named.values()}) > 1:
        column_labels = _labels_found(named)
    blocks = _row_blocks({**named, "sample_weight": sample_weight})
    if true_kind is None and getattr(y_true, "ndim", None) == 2:
        true_kind = _true_kind(blocks)
        decided_by = "the whole of y_true (0/1 indicators or soft labels) reads as"
    if n_jobs is None:
        n_jobs = 1  # Dask runs the blocks in parallel: threads within them oversubscribe
    block_sum = dask.delayed(_block_sum, pure=False)
    partial = [block_sum(kind, n_jobs, chunk_size, params, column_labels, true_kind,
                         decided_by, forms, index, rows, *block)
               for index, (rows, block) in enumerate(blocks)]
    merge = dask.delayed(_merged, pure=False)
    while len(partial) > 1:
        partial = [merge(*partial[start:start + _FAN_IN])
                   for start in range(0, len(partial), _FAN_IN)]
    (total,) = dask.compute(partial[0])
    return tuple(total.confusions(labels))


def _row_blocks(named):
    """``(rows, (y_true, y_pred[, sample_weight]))`` per block: a range and delayed blocks.

    Every input becomes a Dask array chunked like the first Dask array's rows, with all
    its columns in one chunk; blocks of no rows are left out.
    """
    import dask.array as da

    arrays = {name: _as_dask_array(name, y) for name, y in named.items() if y is not None}
    reference = next(a for a in arrays.values() if isinstance(a, da.Array))
    rows = reference.chunks[0]
    n_samples = sum(rows)
    for name, array in arrays.items():
        if not isinstance(array, da.Array):
            if sp.issparse(array):
                raise ValueError(f"{name} is a scipy.sparse matrix beside a Dask input; wrap "
                                 "it with dask.array.from_array(..., asarray=False).")
            array = np.asarray(array)
        if array.ndim not in (1, 2):
            raise ValueError(f"{name} must be 1-D or 2-D; got shape {array.shape}.")
        if array.shape[0] != n_samples:
            raise ValueError(f"{name} has {array.shape[0]} rows; the other inputs have "
                             f"{n_samples}.")
        if isinstance(array, da.Array):
            array = array.rechunk((rows,) + tuple((-1,) * (array.ndim - 1)))
        else:
            array = da.from_array(array, chunks=(rows,) + array.shape[1:])
        arrays[name] = array
    if n_samples == 0:
        raise ValueError("y_true is empty; at least one sample is required.")
    columns = [arrays[name].to_delayed().ravel() for name in arrays]
    stops = np.cumsum(rows)
    return [(range(stop - size, stop), block)
            for block, size, stop in zip(zip(*columns), rows, stops.tolist()) if size > 0]


def _as_dask_array(name, y):
    """A Dask array for a Dask array, series or dataframe; anything else unchanged."""
    if not is_dask_collection(y):
        return y
    if not hasattr(y, "to_dask_array") and not hasattr(y, "to_delayed"):
        # An xarray.DataArray over a Dask array: that array (its coordinates are not read).
        data = getattr(y, "data", None)
        if is_dask_collection(data):
            y = data
    if hasattr(y, "to_dask_array"):  # dask.dataframe: partition lengths are counted first
        if getattr(y, "ndim", 2) == 1 and y.dtype.kind not in "biuf":
            y = y.astype(object)  # string columns become object arrays of labels
        return y.to_dask_array(lengths=True)
    if not hasattr(y, "chunks"):
        raise ValueError(f"{name} is a Dask collection of type {type(y).__name__}; pass a "
                         "dask.array.Array, a dask.dataframe.Series or DataFrame.")
    if any(np.isnan(size) for size in y.chunks[0]):
        return y.compute_chunk_sizes()
    return y


def _pandas_forms(named):
    """``(named, forms)``: the inputs (categoricals of unknown categories made known, a
    first pass) and, for each Dask dataframe among them, how its blocks are rebuilt as
    pandas objects: ``("frame", column names)`` for a DataFrame whose columns name
    classes, ``("categorical", dtype)`` for a Series of category dtype."""
    forms, named = {}, dict(named)
    for name, y in named.items():
        if not is_dask_collection(y) or not hasattr(y, "to_dask_array"):
            continue
        if getattr(y, "ndim", 1) == 2:
            columns = list(y.columns)
            if columns != list(range(len(columns))):
                forms[name] = ("frame", columns)
        elif getattr(y.dtype, "categories", None) is not None or str(y.dtype) == "category":
            if not y.cat.known:
                y = named[name] = y.cat.as_known()
            forms[name] = ("categorical", y.dtype)
    return named, forms


def _rebuilt(form, block):
    """A block of a Dask dataframe as the pandas object it was (see :func:`_pandas_forms`)."""
    if form is None:
        return block
    import pandas as pd

    if form[0] == "frame":
        return pd.DataFrame(np.asarray(block), columns=form[1])
    return pd.Series(pd.Categorical(np.asarray(block), dtype=form[1]))


def _true_kind(blocks):
    """"multilabel" when every block of ``y_true`` holds only 0 and 1, else "soft" (a
    first pass over ``y_true``, one small task per block)."""
    import dask

    binary = dask.delayed(_only_zeros_and_ones, pure=True)
    found = dask.compute(*[binary(block[0]) for _, block in blocks])
    return MULTILABEL if all(found) else SOFT


def _only_zeros_and_ones(y):
    """Whether a block holds only 0 and 1 (False for what validation will refuse)."""
    y = y if sp.issparse(y) else np.asarray(y)
    if y.ndim != 2 or (y.dtype.kind not in "biuf"):
        return False
    return is_binary(y)


def _labels_found(named):
    """The sorted class labels of the 1-D targets among ``named`` (one pass over them)."""
    import dask

    unique = dask.delayed(np.unique, pure=True)
    found = []
    for name, y in named.items():
        if getattr(y, "ndim", None) != 1:
            continue
        array = _as_dask_array(name, y)
        found += ([unique(block) for block in array.to_delayed().ravel()]
                  if hasattr(array, "to_delayed") else [np.unique(np.asarray(array))])
    return np.unique(np.concatenate([np.asarray(values) for values in dask.compute(*found)]))


def _block_sum(kind, n_jobs, chunk_size, params, column_labels, true_kind, decided_by, forms,
               index, rows, y_true, y_pred, sample_weight=None):
    """One block's :class:`ConfusionSum` (a task); errors say which block and rows it holds."""
    kind = KINDS[kind]
    y_true, y_pred = (_rebuilt(forms.get(name), y) for name, y in (("y_true", y_true),
                                                                   ("y_pred", y_pred)))
    try:
        targets = check_any_targets(y_true, y_pred, sample_weight=sample_weight,
                                    defer_value_checks=kind.deferred_checks(params),
                                    column_labels=column_labels)
        if true_kind is not None:
            targets = targets.read_as(true_kind, decided_by)
        confusions = build(kind, targets, params, n_jobs, chunk_size)
    except ValueError as error:
        raise ValueError(f"Dask block {index}, rows {rows.start} to {rows.stop - 1} (row "
                         f"numbers below count from {rows.start}): {error}") from None
    return ConfusionSum().add(confusions, targets.true_classes is not None)


def _merged(*sums):
    """The sum of block sums (a task of the tree sum); the inputs are left unchanged."""
    total = ConfusionSum()
    for one in sums:
        total.merge(one)
    return total
