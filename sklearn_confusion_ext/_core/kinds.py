"""The registry of matrix kinds, and the one way every kind is built from validated targets.

Every confusion matrix of the library is a sum over instances of a diagonal plus an outer
product, so each kind is described by the same few pieces (:class:`MatrixKind`): how its
instances are read in blocks of rows (an :class:`Instances` subclass), the block function
that turns one block into partial sums, its own parameters, and its finishing step (what
the public function returns). The matrix modules register their kinds here
(``_matrices/transport.py``: classic, transport, subpixel; ``_matrices/mlcm.py``: mlcm,
mlcm_krstinic, mlct), each with its one-shot function's declaration (this floor names no
public function of theirs); the one-shot functions, :class:`ConfusionAccumulator` and the
Dask blocks all build through :func:`build`, so a new kind is one :func:`register` call
plus its block function.

A block function returns its partial sums as groups of five parts, one group per matrix:
the diagonal, the off-diagonal matrix, and the row, column and corner of the "none" class.
"""

from abc import ABC, abstractmethod
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .chunks import chunk_rows, chunk_starts, sum_over_chunks
from .config import check_result_size
from .confusion import Confusion

# Working bytes of a chunk of sparse targets: per stored entry and per row (measured on
# the sparse blocks), and the budget of one chunk (65,536 rows of three labels a side).
_SPARSE_ENTRY_BYTES = 64
_SPARSE_ROW_BYTES = 128
_SPARSE_CHUNK_BYTES = 1 << 25
# Parts of one matrix in a block function's result.
_PARTS = 5

KINDS = {}


@dataclass(frozen=True)
class MatrixKind:
    """One kind of confusion matrix.

    Attributes
    ----------
    name : str
        Its name for :class:`ConfusionAccumulator` (``kind=``).
    function : str
        The name of the public one-shot function (errors and the memory budget name it).
    constraints : dict
        The one-shot function's declaration (its ``parameter_constraints``), handed in
        where the kind is registered: the constraints of the kind's parameters and of
        ``normalize``, which :class:`ConfusionAccumulator` checks.
    parameters : dict
        The kind's own parameters and their defaults (``weighting``, ``empty``, ...).
    instances : callable
        ``instances(targets, params, n_jobs, chunk_size)`` -> :class:`Instances`; raises
        ``ValueError`` for targets the kind does not take.
    block : callable
        ``block(params)`` -> the block function ``f(*instances.read(rows)[0])``.
    finish : callable
        ``finish(confusions, normalize)`` -> what the one-shot function returns.
    row_bytes : callable
        Working bytes per row for ``n_classes`` classes (sizes the chunks).
    chunk_bytes : int or None
        Bytes of one chunk (None: the cache-sized default).
    deferred_checks : callable
        ``deferred_checks(params)``: whether dense values may be checked block by block
        (else the whole targets are checked before the blocks run).
    n_matrices : int
        Matrices in one result (the subpixel bounds and the tensor have two): with the
        number of classes, the size checked against the memory budget before any work.
    classic_on_labels : callable
        ``classic_on_labels(params)``: whether the kind's matrices of 1-D class labels are
        the classic confusion matrix (each of its ``n_matrices``, the "none" class empty):
        they are then counts of the pairs of label codes, one ``bincount``.
    compact_integers : bool
        Whether 2-D targets of small integers without sample weights are read as float32
        (exact: the kind's blocks only count them) instead of float64.
    terms : callable or None
        ``terms(params)`` -> ``f(*instances.read(rows)[0])`` giving the block as
        :class:`~.terms.Terms`, for kinds of one matrix written that way: their matrices
        under many instance weightings are then built at once (the bootstrap's resamples).
    target_kinds : tuple of str
        The readings of 2-D ``y_true`` the kind takes (``"multilabel"``, ``"soft"``; none:
        1-D class labels only); :class:`ConfusionAccumulator` refuses a ``target_kind``
        outside them when it is built.
    """

    name: str
    function: str
    constraints: dict
    parameters: dict
    instances: object
    block: object
    finish: object
    row_bytes: object = field(default=lambda n_classes: 8 * n_classes)
    chunk_bytes: object = None
    deferred_checks: object = field(default=lambda params: False)
    n_matrices: int = 1
    classic_on_labels: object = field(default=lambda params: False)
    compact_integers: bool = False
    terms: object = None
    target_kinds: tuple = ("multilabel", "soft")


def register(kind):
    """Add ``kind`` to the registry and return it."""
    KINDS[kind.name] = kind
    return kind


def build(kind, targets, params, n_jobs=None, chunk_size=None, instances=None):
    """The full :class:`Confusion` objects of ``kind`` over validated in-memory targets
    (``instances``: their :class:`Instances`, when the caller keeps them)."""
    if instances is None:
        instances = kind.instances(targets, params, n_jobs, chunk_size)
    width = instances.n_classes + instances.has_none
    matrices = f"{kind.n_matrices} matri{'ces' if kind.n_matrices > 1 else 'x'}"
    check_result_size(kind.function, (kind.n_matrices, width, width),
                      f"{matrices} of {width} x {width} classes")
    counted = getattr(targets, "codes", None) is not None and kind.classic_on_labels(params)
    if counted and not instances.has_none:  # the matrix is the counts: no parts to join
        matrices = [label_counts(targets)]
        matrices += [matrices[0].copy() for _ in range(1, kind.n_matrices)]
        return tuple(map(instances.confusion_of_matrix, matrices))
    if counted:  # counts, or sums of checked weights whose total is below MAX_TOTAL_WEIGHT
        sums, n_skipped = label_pair_counts(targets) * kind.n_matrices, 0
    else:
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below
            sums, n_skipped = instances.sum(kind.block(params),
                                            kind.row_bytes(instances.n_classes),
                                            kind.chunk_bytes)
    if not counted and not all(np.isfinite(part).all() for part in sums):
        # Every input was checked finite: only a total beyond float64 gets here.
        raise ValueError(
            f"{kind.function}: the weighted masses of y_true and y_pred (instance weights "
            "times sample_weight) total beyond the float64 range. Divide the masses or the "
            "sample weights by a constant."
        )
    owned = not counted and _own_arrays(sums)
    return tuple(instances.confusion(*sums[start:start + _PARTS], n_skipped=n_skipped,
                                     owned=owned)
                 for start in range(0, len(sums), _PARTS))


def _own_arrays(parts):
    """Whether each of ``parts`` is a writable NumPy array of its own memory, none of them
    twice: the sums of :func:`~.chunks.sum_over_chunks`, which the matrix may be written
    into (the sums of a device, views of one transfer, and counts shared by two matrices
    are not)."""
    return (len({id(part) for part in parts}) == len(parts)
            and all(type(part) is np.ndarray and part.flags.owndata and part.flags.writeable
                    for part in parts))


def label_counts(targets):
    """The classic confusion matrix of 1-D labels (their ``codes``), a new float array:
    the counts (or summed sample weights) of the pairs (true code, predicted code), one
    ``bincount``."""
    if targets.pair_counts is not None:
        return targets.pair_counts.astype(float)  # counted by the validation
    n_classes = len(targets.classes)
    true, pred = targets.codes
    pairs = np.multiply(true, n_classes, dtype=np.int64)
    pairs += pred
    counts = np.bincount(pairs, weights=targets.sample_weight,
                         minlength=n_classes * n_classes)
    return counts.astype(float).reshape(n_classes, n_classes)


def label_pair_counts(targets):
    """The five parts of the classic confusion matrix of 1-D labels (:func:`label_counts`),
    the "none" class empty."""
    n_classes = len(targets.classes)
    counts = label_counts(targets)
    diagonal = np.diagonal(counts).copy()
    np.fill_diagonal(counts, 0.0)
    return (diagonal, counts, np.zeros(n_classes), np.zeros(n_classes), np.asarray(0.0))


def _full_matrix(diagonal, off_diagonal, none_row, none_column, corner, has_none,
                 owned=False):
    """``diag(diagonal) + off_diagonal``, bordered by the "none" row, column and corner
    where ``has_none``: the bordered matrix is written into one array (``np.block`` made a
    second copy of ``(C + 1)**2`` cells: 36.7 -> 15.1 us at C = 100, 3.4 -> 0.77 ms at
    1,000), with the same values bit for bit (its off-diagonal cells are ``0.0 + x``, as
    the sum made them). ``owned``: the parts are the caller's own arrays, none another's
    (:func:`_own_arrays`); a C-ordered float64 ``off_diagonal`` then becomes the matrix,
    written in place with the same values (no new ``C x C`` array, no second one for
    ``np.diag``)."""
    if not has_none:
        if owned and _in_place(diagonal, off_diagonal):
            cells = np.arange(len(diagonal))
            on_diagonal = diagonal + off_diagonal[cells, cells]  # as diag(d) + off adds them
            np.add(off_diagonal, 0.0, out=off_diagonal)  # 0.0 + x elsewhere: -0.0 becomes 0.0
            off_diagonal[cells, cells] = on_diagonal
            return off_diagonal
        return np.diag(diagonal) + off_diagonal
    n_classes = len(diagonal)
    matrix = np.empty((n_classes + 1, n_classes + 1),
                      dtype=np.result_type(diagonal, off_diagonal, float))
    np.add(off_diagonal, 0.0, out=matrix[:n_classes, :n_classes])
    cells = np.arange(n_classes)
    matrix[cells, cells] = diagonal + off_diagonal[cells, cells]
    matrix[:n_classes, n_classes] = none_column
    matrix[n_classes, :n_classes] = none_row
    matrix[n_classes, n_classes] = corner
    return matrix


def _in_place(diagonal, off_diagonal):
    """Whether ``diag(diagonal) + off_diagonal`` may be written into ``off_diagonal``: both
    float64 (the sum's type), the matrix square, C-ordered (the order the sum gives) and
    of the diagonal's size."""
    return (isinstance(diagonal, np.ndarray) and diagonal.dtype == np.float64
            and diagonal.ndim == 1 and off_diagonal.dtype == np.float64
            and off_diagonal.shape == (diagonal.size, diagonal.size)
            and off_diagonal.flags.c_contiguous)


class Instances(ABC):
    """Validated targets read in blocks of rows and summed by a block function.

    Subclasses define :meth:`read` and say whether the matrix has a "none" class.
    """

    has_none = True

    def __init__(self, targets, n_jobs=None, chunk_size=None):
        self.targets, self.n_jobs, self.chunk_size = targets, n_jobs, chunk_size

    @property
    def n_classes(self):
        return len(self.targets.classes)

    @abstractmethod
    def read(self, rows):
        """``(arguments of the block function, instances left out)`` for a slice of rows."""

    def sum(self, block, row_bytes, chunk_bytes=None):
        """The sums of ``block`` over all row chunks, and the number of instances left out.

        Chunks are sized in bytes, never in a fixed number of rows: a dense row takes
        ``row_bytes``, a sparse row its stored entries. A chunk takes ``chunk_bytes``
        (sparse targets: ``_SPARSE_CHUNK_BYTES``), or as much as one partial
        ``n_classes x n_classes`` matrix when that is more (the sum holds one anyway), and
        at least one row. Array-API targets multiply the budget by their ``chunk_factor``.
        """
        def one_block(rows):
            arguments, n_left_out = self.read(rows)
            return (*block(*arguments), n_left_out)

        return self.sum_rows(one_block, self.chunk_step(row_bytes, chunk_bytes))

    def sum_rows(self, one_block, step, chunks_per_thread=None, fresh_parts=False,
                 added=None):
        """The sums of ``one_block(rows)`` (its last item the instances left out) over the
        chunks of ``step`` rows, and the number of instances left out (threads:
        :func:`~.chunks.map_chunks`; ``fresh_parts`` and ``added``: see
        :func:`~.chunks.sum_over_chunks`). The warning that
        scores beside labels are not probabilities names the first row off 1 whatever the
        order the threads read the chunks in: it is given once all are read
        (:class:`~.target_kinds.FirstRowOffOne`)."""
        off_one = getattr(self.targets, "off_one", None)
        with off_one.deferred() if off_one is not None else nullcontext():
            *sums, n_left_out = sum_over_chunks(one_block, self.targets.n_samples, step,
                                                self.targets.threads(self.n_jobs),
                                                chunks_per_thread, fresh_parts, added)
        return sums, int(n_left_out)

    def chunk_step(self, row_bytes, chunk_bytes=None):
        """Rows of a chunk (:meth:`sum`), or the starts of the chunks of sparse targets."""
        targets = self.targets
        partial_bytes = 8 * self.n_classes ** 2
        if self.chunk_size is not None:
            step = self.chunk_size
        elif getattr(targets, "codes", None) is not None and targets.y_true is None:
            # 1-D labels as codes: one entry a row on each side once encoded.
            step = max(1, _SPARSE_CHUNK_BYTES // (2 * _SPARSE_ENTRY_BYTES + _SPARSE_ROW_BYTES))
        elif sp.issparse(targets.y_true) and sp.issparse(targets.y_pred):
            entries = targets.y_true.indptr.astype(np.int64) + targets.y_pred.indptr
            cumulative = (_SPARSE_ENTRY_BYTES * entries
                          + _SPARSE_ROW_BYTES * np.arange(len(entries), dtype=np.int64))
            step = chunk_starts(cumulative, max(_SPARSE_CHUNK_BYTES, partial_bytes))
        else:
            step = chunk_rows(row_bytes, chunk_bytes, partial_bytes, targets.chunk_factor)
        return step

    def confusion(self, diagonal, off_diagonal, none_row, none_column, corner, n_skipped=0,
                  owned=False):
        """The full matrix, with the "none" row and column when the kind has them
        (``owned``: the parts may be written into, see :func:`_full_matrix`)."""
        return self.confusion_of_matrix(_full_matrix(diagonal, off_diagonal, none_row,
                                                     none_column, corner, self.has_none,
                                                     owned),
                                        n_skipped)

    def confusion_of_matrix(self, matrix, n_skipped=0):
        """The :class:`Confusion` of the full matrix ``matrix`` of these instances."""
        targets = self.targets
        return Confusion.from_parts(matrix, targets.classes, targets.selection, self.has_none,
                                    targets.n_samples, n_skipped, targets.namespace,
                                    targets.true_classes, targets.true_kind,
                                    targets.categories)
