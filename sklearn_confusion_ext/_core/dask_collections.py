"""Dask collections: one partial matrix per block of rows, then a tree sum.

The dispatch hands Dask inputs here. Each block of rows is validated and built in a task of
its own (NumPy or scipy.sparse inside) into a :class:`~.sums.ConfusionSum`; the sums are
merged up a tree of fan-in ``_FAN_IN``, so only the small matrices travel between
workers. The graph runs on Dask's current scheduler:
with a ``dask.distributed.Client`` active, on that cluster's workers.
"""

import uuid
from functools import partial
from numbers import Integral

import numpy as np
import scipy.sparse as sp

from .array_api import check_any_targets
from .chunks import one_blas_thread
from .frames import _column_names
from .kinds import KINDS, build
from .raw_values import _is_missing
from .sums import ConfusionSum
from .target_kinds import SOFT

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
    try:  # Dask's own test: it answers without building the graph of an expression
        from dask import is_dask_collection as dask_test
    except ImportError:  # pragma: no cover - a __dask_graph__ without dask
        dask_test = None
    try:
        if dask_test is not None:
            return bool(dask_test(array))
        return array.__dask_graph__() is not None
    except (AttributeError, TypeError):  # an unbound or foreign __dask_graph__
        return False


def dask_confusions(kind, y_true, y_pred, *, labels, sample_weight, n_jobs, chunk_size,
                    params, column_labels=None, true_kind=None, decided_by=None):
    """The full :class:`Confusion` objects of ``kind`` (a name of the registry).

    ``params`` are the kind's parameters; ``labels`` is applied once, to the sum. 2-D
    scores beside 1-D labels have the classes of the one class rule as columns
    (:func:`~.labels.score_columns`: from ``labels``, or ``column_labels``, with the
    labels found in a first pass where they do not list every column), by default the
    sorted labels found in a first pass over the labels, so that every block agrees
    (for columns of Dask dataframes, in the pass of the sums where every partition
    holds every class: :class:`_Speculation`). A 2-D ``y_true`` is read as 0/1 indicators
    or soft labels as ``true_kind`` says, by default as the whole of it reads (never by the
    values of one block: a block of soft labels that happen to be 0 and 1 is still soft
    labels): each block is read by its own values in the one pass, and only when the
    blocks disagree (soft labels, some blocks of only 0 and 1) are they read again, as soft
    labels.

    Dask dataframes are read as pandas ones are: when every input is a Dask dataframe or
    series of the same number of partitions (columns of one dataframe), each task gets its
    partitions as the pandas objects they are, read once, and validates them by the rules
    of in-memory pandas targets (a DataFrame's column names are its classes, a
    categorical's categories are its classes, in their order); partition lengths are
    counted only to number the rows of an error. Other mixes are rechunked as Dask arrays
    (:func:`_row_blocks`), with the dataframes' names and categories kept
    (:func:`_pandas_forms`).
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
    inputs = {**named, "sample_weight": sample_weight}
    partitions = _partitions(inputs)
    found_first = column_labels is None and not named_columns and \
        len({getattr(y, "ndim", None) for y in named.values()}) > 1
    speculation = _speculation(named) if found_first and partitions is not None else None
    if found_first and speculation is None:
        column_labels = _labels_found(named, partitions)
    elif column_labels is not None and not named_columns:
        column_labels = _all_columns(named, partitions, column_labels)
    if n_jobs is None:
        n_jobs = 1  # Dask runs the blocks in parallel: threads within them oversubscribe
    settings = (kind, n_jobs, chunk_size, params, column_labels)
    # BLAS on one thread for the whole computation: Dask runs the blocks side by side, and
    # a block's products on one or two BLAS threads (as another call's limit, process-wide,
    # happened to be in force) gave other last bits: six calls on the same arrays gave up
    # to four results. A limit per block, set and lifted as blocks came and went, was not
    # enough.
    with one_blas_thread():
        total = _total(dask, settings, true_kind, decided_by, named, forms, inputs,
                       partitions, speculation, found_first)
    if total.sums is None:
        raise ValueError("y_true is empty; at least one sample is required.")
    return tuple(total.confusions(labels))


def _total(dask, settings, true_kind, decided_by, named, forms, inputs, partitions,
           speculation, found_first):
    """The :class:`ConfusionSum` of every block (:func:`dask_confusions`)."""
    total = None
    if partitions is not None:
        try:
            total = _reduced_partitions(settings, true_kind, decided_by, partitions,
                                        speculation, named)
        except _BlockError as error:  # the rows are counted now, for the message
            token = uuid.uuid4().hex
            lengths = _computed(partitions.graph, {
                (f"confusion-length-{token}", index): partitions.task(_length, index)
                for index in range(len(partitions.keys))})
            start = int(sum(lengths[:error.index]))
            raise ValueError(_block_message(error.index, range(
                start, start + lengths[error.index]), error.message)) from None
        except _Misaligned:  # partitions of unequal lengths: aligned by row below
            total = None
    if total is None:
        if found_first and speculation is not None:
            settings = settings[:4] + (_labels_found(named),)
        total = _reduced(dask, settings, true_kind, decided_by,
                         [(rows, block, forms) for rows, block in _row_blocks(inputs)])
    return total


# How the message of a block's error begins (a block is read with rows counted from 0).
def _block_message(index, rows, message):
    return (f"Dask block {index}, rows {rows.start} to {rows.stop - 1} (row numbers below "
            f"count from {rows.start}): {message}")


class _BlockError(ValueError):
    """A partition's ``ValueError``, before its rows are counted (its index, the message)."""

    def __init__(self, index, message):
        super().__init__(index, message)
        self.index, self.message = index, message

    def __str__(self):
        return f"Dask block {self.index}: {self.message}"


class _Misaligned(Exception):
    """Partitions of the inputs that do not hold the same number of rows."""


def _reduced(dask, settings, true_kind, decided_by, blocks):
    """The :class:`ConfusionSum` of ``(rows, block, forms)`` blocks, in one pass over them
    (two where the blocks of a 2-D ``y_true`` are read differently: see
    :func:`dask_confusions`)."""
    block_sum = dask.delayed(_block_sum, pure=False)
    partial = [block_sum(settings, true_kind, decided_by, forms, index, rows, *block)
               for index, (rows, block, forms) in enumerate(blocks)]
    merge = dask.delayed(_merged, pure=False)
    while len(partial) > 1:
        partial = [merge(*partial[start:start + _FAN_IN])
                   for start in range(0, len(partial), _FAN_IN)]
    ((total, readings, _),) = dask.compute(partial[0])
    if true_kind is None and len(readings) > 1:  # soft labels, some blocks of only 0 and 1
        return _reduced(dask, settings, SOFT, _READ_AS_A_WHOLE, blocks)
    return total


_READ_AS_A_WHOLE = "the whole of y_true (0/1 indicators or soft labels) reads as"


class _Partitions:
    """The pandas partitions of Dask dataframe inputs: ``graph``, one dict holding the tasks
    of every input, ``keys``, one tuple a partition of the keys its inputs are read from,
    and ``select``: None where those keys are the inputs' own parts (in the order of the
    inputs given), else a :class:`_Selection` that takes the inputs from the parts of
    their common source inside each task (:meth:`task`)."""

    def __init__(self, graph, keys, select=None):
        self.graph, self.keys, self.select = graph, keys, select

    def task(self, function, index):
        """A task calling ``function`` with the inputs' parts of partition ``index``."""
        if self.select is None:
            return (function, *self.keys[index])
        return (_selected, function, self.select, *self.keys[index])


def _selected(function, select, *parts):
    return function(*select(*parts))


def _partitions(inputs):
    """The inputs' pandas partitions (:class:`_Partitions`) when every input given is a
    Dask dataframe or series and all have the same number of partitions; else None.

    Where every input is columns of one Dask dataframe (a chain of column selections and
    renames of the same expression: :func:`_one_source`), no task of Dask's stands between
    the source and the sums. A source made by ``from_pandas`` is in memory: the inputs are
    taken from the whole frame once, here, where each is a view of it (columns side by
    side, one column, renamed), as NumPy views where the tasks would read them as NumPy
    (:func:`_as_numpy_views`), and the graph holds their slices at Dask's partitions'
    rows; only the columns read get Dask's conversion of object strings
    (:func:`_pandas_source`). Otherwise each task takes the inputs' columns from the
    source's partition itself (:class:`_Selection`).

    Otherwise the graphs of all the inputs are built once, together, unoptimized: columns
    of one dataframe share its partitions' tasks (each partition is read once), every pass
    (the labels found, the sums) culls the same graph, and no column projection is
    pushed into a source (it would read the source once per input; optimizing a graph of
    in-memory pandas partitions copies them). The passes add their tasks to that graph by
    the keys of the partitions (:func:`_computed`): no ``Delayed`` object per partition,
    each of which would carry the whole graph into every task that reads it."""
    given = [y for y in inputs.values() if y is not None]
    if not all(is_dask_collection(y) and hasattr(y, "to_dask_array") for y in given) or \
            len({y.npartitions for y in given}) != 1:
        return None
    shared = _one_source(given)
    if shared is not None:
        return shared
    import dask.dataframe as dd

    keys = [y.__dask_keys__() for y in given]
    together = dd.map_partitions(_zipped, *given, meta=(None, object), token="confusion-inputs",
                                 enforce_metadata=False, transform_divisions=False,
                                 align_dataframes=False)
    graph = together.__dask_graph__()
    if not all(key in graph for own in keys for key in own):  # pragma: no cover
        # a Dask whose unoptimized graph renames its inputs' tasks: one graph each
        parts = [y.to_delayed(optimize_graph=False) for y in given]
        graph = {key: task for own in parts for part in own
                 for key, task in dict(part.dask).items()}
        keys = [[part.key for part in own] for own in parts]
    return _Partitions(dict(graph), list(zip(*keys)))


def _column_steps():
    """``{expression class: how a task replays it}`` for the steps of dask-expr that take
    columns of a frame (selections, renames), by exact class (a subclass may compute
    something else); empty without dask-expr."""
    try:
        from dask.dataframe.dask_expr._expr import Projection, RenameFrame, RenameSeries
    except ImportError:  # pragma: no cover - a Dask before dask-expr
        return {}
    return {Projection: _projected, RenameFrame: RenameFrame.operation,
            RenameSeries: RenameSeries.operation}


def _one_source(given):
    """:class:`_Partitions` reading every input from the partitions of one source
    expression, of which each input is a chain of column steps (:func:`_column_steps`);
    None where the inputs are not such columns of one source."""
    steps = _column_steps()
    source, chains = None, []
    for y in given:
        expr, chain = getattr(y, "expr", None), []
        while type(expr) in steps:
            chain.append((steps[type(expr)], tuple(expr.operand(name)
                                                   for name in expr._parameters[1:])))
            expr = expr.operand(expr._parameters[0])
        if expr is None or source is not None and expr is not source:
            return None
        source = expr
        chains.append(tuple(reversed(chain)))
    try:
        pandas = _pandas_source(source)
        from dask._collections import new_collection
    except Exception:  # noqa: BLE001 - dask-expr's private names changed: the plain path
        return None
    if pandas is None:  # another source: its own tasks, built alone, the steps replayed
        collection = new_collection(source)
        graph, keys = dict(collection.__dask_graph__()), collection.__dask_keys__()
        select = _Selection(chains, False)
    else:
        frame, locations, strings = pandas
        head = frame.iloc[:0]
        planned = [_planned(head, chain) for chain in chains]
        token = uuid.uuid4().hex
        spans = list(zip(locations[:-1], locations[1:]))
        if all(views for _, views in planned):
            # every input a view of the frame: taken from it once, here, then sliced by rows
            wholes = _as_numpy_views([_Selection([chain], False)(frame)[0]
                                      for chain, _ in planned], strings)
            graph, keys = {}, []
            for index, (start, stop) in enumerate(spans):
                own = [(f"confusion-source-{token}-{position}", index)
                       for position in range(len(wholes))]
                graph.update({key: whole[start:stop] if isinstance(whole, np.ndarray) else
                              _as_dask_reads(whole.iloc[start:stop], strings)
                              for key, whole in zip(own, wholes)})
                keys.append(tuple(own))
            if len(keys) != given[0].npartitions:  # pragma: no cover
                return None
            return _Partitions(graph, keys)
        keys = [(f"confusion-source-{token}", index) for index in range(len(spans))]
        graph = {key: frame.iloc[start:stop] for key, (start, stop) in zip(keys, spans)}
        select = _Selection([chain for chain, _ in planned], strings)
    if len(keys) != given[0].npartitions:  # pragma: no cover - not one partition a key
        return None
    return _Partitions(graph, [(key,) for key in keys], select)


def _as_numpy_views(wholes, strings):
    """The inputs taken from a whole pandas source (``wholes``), those that the tasks would
    read as NumPy arrays (:func:`_numbers_as_numpy`, decided by their types and column
    names, the same in every partition) as NumPy views of the source (a block's values,
    no copy), so that the partitions are slices of them; the others (and any that NumPy
    would copy) unchanged."""
    heads = [_as_dask_reads(whole.iloc[:1], strings) for whole in wholes]
    read = _numbers_as_numpy(*heads)
    views = []
    for whole, head, own in zip(wholes, heads, read):
        if isinstance(own, np.ndarray) and np.shares_memory(own, np.asarray(head)):
            whole = np.asarray(whole)  # one block: its values, as each partition's are
        views.append(whole)
    return views


def _as_dask_reads(y, strings):
    """``y`` with Dask's conversion of object strings to pyarrow strings where
    ``strings``."""
    if not strings:
        return y
    from dask.dataframe._pyarrow import to_pyarrow_string

    return to_pyarrow_string(y)


def _pandas_source(source):
    """``(frame, locations, strings)`` of a source made by ``dask.dataframe.from_pandas``:
    the pandas object, the rows where Dask's partitions of it start (and the end), and
    whether Dask converts object strings of it to pyarrow strings (where it holds any);
    None for another source (or a ``from_pandas`` of selected partitions or columns)."""
    from dask.dataframe._pyarrow import is_object_string_dtype, is_object_string_index
    from dask.dataframe.dask_expr.io.io import FromPandas

    if type(source) is not FromPandas or source._filtered or \
            source.operand("columns") is not None or source.operand("_series"):
        return None
    frame = source.frame._data  # sorted by its index where Dask sorts it
    dtypes = list(frame.dtypes) if getattr(frame, "ndim", 1) == 2 else [frame.dtype]
    strings = bool(source.pyarrow_strings_enabled) and (
        any(is_object_string_dtype(dtype) for dtype in dtypes) or
        is_object_string_index(frame.index))
    return frame, list(source._locations()), strings


def _planned(head, chain):
    """``(steps, views)``: the column steps ``chain`` of a source whose partitions have the
    columns of ``head`` (an empty frame of them), each replayed on ``head`` once, here, so
    that they cost least: a selection of columns side by side is a slice of positions
    (:func:`_column_slice`), a rename of columns sets the names it gave
    (:func:`_columns_named`); other steps are replayed as they are. ``views``: whether
    every step is a view of its frame (a slice of columns, one column, a rename), so that
    the chain may be taken from the whole source at once."""
    from dask.dataframe.dask_expr._expr import RenameFrame

    planned, y, views = [], head, True
    for function, operands in chain:
        after = function(y, *operands)
        if function is _projected and getattr(after, "ndim", 1) == 2:
            span = _side_by_side(y, operands[0])
            if span is not None:
                function, operands = _column_slice, span
        elif function is RenameFrame.operation and getattr(after, "ndim", 1) == 2:
            function, operands = _columns_named, (after.columns,)
        # a view: a slice of columns, a column, a rename (others may copy)
        views &= function in (_column_slice, _columns_named) or (
            function is _projected and getattr(y, "ndim", 1) == 2 and
            getattr(after, "ndim", 1) == 1)
        planned.append((function, operands))
        y = after
    return tuple(planned), views


class _Selection:
    """The inputs of a task taken from the partition of their common source: each input's
    chain of column steps (``(function, operands)``, from the source outwards), then,
    where ``strings``, Dask's conversion of object strings to pyarrow strings (which
    ``from_pandas`` applies to the whole partition, and commutes with the steps)."""

    def __init__(self, chains, strings):
        self.chains, self.strings = chains, strings

    def __call__(self, part):
        inputs = []
        for chain in self.chains:
            y = part
            for function, operands in chain:
                y = function(y, *operands)
            if self.strings:
                from dask.dataframe._pyarrow import to_pyarrow_string

                y = to_pyarrow_string(y)
            inputs.append(y)
        return inputs


def _projected(frame, columns):
    """``frame[columns]`` (Dask's column selection), as a slice of the frame's columns
    where the columns selected lie side by side in it, in their order: a view of the
    blocks, no copy (the same columns, names, types and values)."""
    span = _side_by_side(frame, columns)
    return frame[columns] if span is None else _column_slice(frame, *span)


def _side_by_side(frame, columns):
    """``(start, stop)``: the positions of ``columns`` (a list of names) among the
    columns of the DataFrame ``frame`` where they lie side by side there in that order;
    else None."""
    if not isinstance(columns, list) or not columns or getattr(frame, "ndim", 1) != 2 or \
            not frame.columns.is_unique:
        return None
    positions = frame.columns.get_indexer(columns)
    first = int(positions[0])
    if first < 0 or not np.array_equal(positions, np.arange(first, first + len(positions))):
        return None
    return first, first + len(positions)


def _column_slice(frame, start, stop):
    return frame.iloc[:, start:stop]


def _columns_named(frame, columns):
    return frame.set_axis(columns, axis=1)


def _zipped(*partitions):
    """The partitions of the inputs, side by side (the task that binds their graphs; also
    the task that gathers a pass's results)."""
    return partitions


def _computed(graph, layer, key=None):
    """The value of the task ``key`` of ``layer`` (a dict of tasks over the keys of
    ``graph``), or by default the values of all of ``layer``'s tasks in its order, computed
    on Dask's current scheduler; only the tasks of ``graph`` they need run."""
    from dask.delayed import Delayed

    if key is None:
        key = (f"confusion-gather-{uuid.uuid4().hex}", 0)
        layer = {**layer, key: (_zipped, *layer)}
    return Delayed(key, {**graph, **layer}).compute()


class _Speculation:
    """Column labels of 2-D scores beside 1-D labels, found in the pass of the sums: each
    partition takes the sorted labels of its 1-D target (``position``: 0 for ``y_true``,
    1 for ``y_pred``) as the classes of the ``n_columns`` columns where they are that many
    (every class is in the partition: the sorted labels of the whole are the same), and
    leaves its sums for a second pass, of it alone, where they are fewer."""

    def __init__(self, position, n_columns):
        self.position, self.n_columns = position, n_columns


def _speculation(named):
    """The :class:`_Speculation` of 1-D labels beside the 2-D columns of a Dask dataframe
    (None where the number of columns is not known)."""
    position = [getattr(y, "ndim", None) for y in named.values()].index(1)
    columns = getattr(list(named.values())[1 - position], "columns", None)
    return None if columns is None else _Speculation(position, len(columns))


def _reduced_partitions(settings, true_kind, decided_by, partitions, speculation=None,
                        named=None):
    """:func:`_reduced` over :class:`_Partitions` (errors of a partition are
    :class:`_BlockError`, unequal lengths :class:`_Misaligned`).

    With a :class:`_Speculation`, the labels beside the scores are found in the pass of the
    sums: one pass where every partition holds every class (a second over the partitions
    that do not); where the labels found are not one per column, or a partition fails,
    the pass is made again with the labels found in a pass of their own
    (:func:`_labels_found`), whose sums and errors are those of the plain path."""
    everything, undecided = range(len(partitions.keys)), None
    if speculation is not None:
        try:
            total, readings, found = _partition_pass(
                settings[:4] + (speculation,), true_kind, decided_by, partitions, everything)
        except _BlockError:
            found = None
        if found is None:  # an error, or nothing found: the plain path
            found = _labels_found(named, partitions)
        else:
            found, undecided = found
        if len(found) == speculation.n_columns and undecided is not None:
            settings = settings[:4] + (found,)
            if undecided:
                rest, more, _ = _partition_pass(settings, true_kind, decided_by, partitions,
                                                sorted(undecided))
                total.merge(rest)
                readings |= more
            if true_kind is not None or len(readings) <= 1:
                return total
            return _partition_pass(settings, SOFT, _READ_AS_A_WHOLE, partitions,
                                   everything)[0]
        settings = settings[:4] + (found,)
    total, readings, _ = _partition_pass(settings, true_kind, decided_by, partitions,
                                         everything)
    if true_kind is None and len(readings) > 1:  # soft labels, some blocks of only 0 and 1
        return _partition_pass(settings, SOFT, _READ_AS_A_WHOLE, partitions, everything)[0]
    return total


def _partition_pass(settings, true_kind, decided_by, partitions, indices):
    """``(ConfusionSum, readings, found)`` of the partitions ``indices``: a task each, then
    the tree sum, added to the inputs' graph."""
    token = uuid.uuid4().hex
    level = [(f"confusion-block-{token}", index) for index in indices]
    layer = {key: partitions.task(partial(_block_sum, settings, true_kind, decided_by, {},
                                          index, None), index)
             for key, index in zip(level, indices)}
    depth = 0
    while len(level) > 1:
        depth += 1
        merged = [(f"confusion-merge-{token}", depth, start)
                  for start in range(0, len(level), _FAN_IN)]
        layer.update({key: (_merged, *level[start:start + _FAN_IN])
                      for key, start in zip(merged, range(0, len(level), _FAN_IN))})
        level = merged
    return _computed(partitions.graph, layer, level[0])


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


def _all_columns(named, partitions, labels):
    """The classes of every column of 2-D scores beside 1-D labels, by the one class rule
    (:func:`~.labels.score_columns`), for ``labels`` that do not list them all: the sorted
    union of ``labels`` and the labels found in one pass, so that every block reads the
    same columns (each block's own labels would give each its own union); ``labels``
    unchanged for other targets, and where it has one class per column."""
    scores = [y for y in named.values() if getattr(y, "ndim", None) == 2]
    if len(scores) != 1 or len(named) - len(scores) < 1 or \
            not isinstance(scores[0].shape[1], Integral) or \
            len(np.asarray(labels)) == scores[0].shape[1]:
        return labels
    return np.union1d(_labels_found(named, partitions), np.asarray(labels))


def _labels_found(named, partitions=None):
    """The sorted class labels of the 1-D targets among ``named`` (one pass over them;
    over the :class:`_Partitions` ``partitions`` when given: the graph the sums read)."""
    import dask

    unique = dask.delayed(_unique, pure=True)
    found = []
    for position, (name, y) in enumerate(named.items()):
        if getattr(y, "ndim", None) != 1:
            continue
        if partitions is not None:
            token = uuid.uuid4().hex
            found += _computed(partitions.graph, {
                (f"confusion-labels-{token}", index):
                    partitions.task(partial(_unique_labels_of, position), index)
                for index in range(len(partitions.keys))})
            continue
        array = _as_dask_array(name, y)
        found += ([unique(block) for block in array.to_delayed().ravel()]
                  if hasattr(array, "to_delayed") else [_unique(np.asarray(array))])
    return np.unique(np.concatenate([np.asarray(values) for values in dask.compute(*found)]))


def _length(y, *others):
    """The number of rows of a partition (of its first input)."""
    return len(y)


def _unique_labels_of(position, *inputs):
    """:func:`_unique_labels` of the input at ``position``."""
    return _unique_labels(inputs[position])


def _unique_labels(series):
    """The sorted labels of a partition of a Dask series (strings as objects, as
    :func:`_as_dask_array` reads them)."""
    values = np.asarray(series)
    if values.dtype.kind in "biuf":
        return _unique(values)
    return _unique(np.asarray(series, dtype=object))


def _unique(values):
    """``np.unique(values)`` of a NumPy array, but missing labels (NaN, None, pandas.NA),
    left out: the checks of the sums refuse them, as for in-memory targets, naming the
    target (``np.unique`` cannot sort them beside strings)."""
    if values.dtype.kind == "O":
        try:
            return _sorted_unique(values)
        except TypeError:
            values = np.asarray([value for value in values.tolist()
                                 if value is not None and not _is_missing(value)],
                                dtype=object)
    found = _sorted_unique(values)
    if values.dtype.kind == "f" and found.size and np.isnan(found[-1]):  # NaN sorts last
        return found[~np.isnan(found)]
    if values.dtype.kind == "O":
        present = [value is not None and not _is_missing(value) for value in found.tolist()]
        if not all(present):
            return found[np.asarray(present, dtype=bool)]
    return found


def _sorted_unique(values):
    """``np.unique(values)`` of a NumPy array; integers of a range at most about twice as
    wide as their number are counted (one pass, no sort): the same values, type and order."""
    if values.dtype.kind in "iu" and values.size:
        low, high = values.min(), values.max()
        span = int(high) - int(low) + 1
        if span <= 2 * values.size + 1024:
            # offsets from the lowest label, as machine integers (modular arithmetic: exact,
            # since each is below span, for unsigned and narrow types alike)
            offsets = values.astype(np.intp, copy=False) - np.asarray(low).astype(np.intp)
            counts = np.bincount(offsets, minlength=span)
            return np.flatnonzero(counts).astype(values.dtype) + low
    return np.unique(values)


def _block_sum(settings, true_kind, decided_by, forms, index, rows, y_true, y_pred,
               sample_weight=None):
    """One block's ``(ConfusionSum, readings, found)`` (a task): ``readings`` holds how its
    2-D ``y_true`` was read ("multilabel" or "soft"; empty for 1-D labels); ``found``, where
    the column labels are a :class:`_Speculation`, the sorted labels of the partition and
    the set of its index where they are fewer than the columns (its sum is then left
    empty), else None. ``rows``: the
    block's rows, or None for a partition of dataframes (then an error is a
    :class:`_BlockError`, numbered by the caller, and partitions of unequal lengths a
    :class:`_Misaligned`). Errors say which block and rows it holds."""
    kind, n_jobs, chunk_size, params, column_labels = settings
    kind = KINDS[kind]
    found = None
    if rows is None:
        lengths = {len(y) for y in (y_true, y_pred, sample_weight) if y is not None}
        if len(lengths) > 1:
            raise _Misaligned
        if lengths == {0}:
            return ConfusionSum(), frozenset(), None
        if isinstance(column_labels, _Speculation):
            speculation = column_labels
            column_labels = _unique_labels((y_true, y_pred)[speculation.position])
            if len(column_labels) != speculation.n_columns:  # left for a second pass
                return ConfusionSum(), frozenset(), (column_labels, frozenset([index]))
            found = (column_labels, frozenset())
        y_true, y_pred, sample_weight = _numbers_as_numpy(y_true, y_pred, sample_weight)
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
        if rows is None:
            raise _BlockError(index, str(error)) from None
        raise ValueError(_block_message(index, rows, error)) from None
    readings = frozenset() if targets.true_kind is None else frozenset([targets.true_kind])
    return ConfusionSum().add(confusions, targets.true_classes is not None), readings, found


def _numbers_as_numpy(*partitions):
    """Pandas partitions that validation would only read as NumPy arrays, as those arrays
    (``np.asarray``, as it reads them), the others unchanged: the same targets, without
    pandas' attribute look-ups in every check. Numbers only (a Series of a NumPy number
    dtype, a DataFrame of NumPy number columns): categoricals, nullable numbers and strings
    are read by their dtype, and when any input is a DataFrame whose columns name classes,
    every frame is matched to it by column name (all stay pandas)."""
    if any(_column_names(y) is not None for y in partitions if y is not None):
        return partitions
    return tuple(np.asarray(y) if y is not None and _numpy_numbers(
        [y.dtype] if getattr(y, "ndim", 2) == 1 else list(getattr(y, "dtypes", [None])))
        else y for y in partitions)


def _numpy_numbers(dtypes):
    return all(isinstance(dtype, np.dtype) and dtype.kind in "biuf" for dtype in dtypes)


def _merged(*sums):
    """The sum of block sums, their readings and the labels they found (a task of the tree
    sum; see :func:`_block_sum`); the inputs are left unchanged."""
    readings = frozenset().union(*(read for _, read, _ in sums))
    found = [labels for _, _, labels in sums if labels is not None]
    if found:
        found = (np.unique(np.concatenate([np.asarray(labels) for labels, _ in found])),
                 frozenset().union(*(undecided for _, undecided in found)))
    total = ConfusionSum()
    if len(readings) > 1:  # read again as soft labels (see _reduced): nothing to add
        return total, readings, found or None
    for one, _, _ in sums:
        total.merge(one)
    return total, readings, found or None
