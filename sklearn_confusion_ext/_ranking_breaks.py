"""The cells of a confusion matrix that break the test-training ranking (Erbani et al. 2024,
Section VI-A).

With rows ordered by test prevalence and columns by training prevalence, the values are
expected to decrease to the right and downwards: a diagonal entry is expected to be higher
than the next one, and an off-diagonal entry, diagonal entries ignored, higher than the
one to its right or below it. A cell higher than the cell before it stands out.
"""

import numpy as np

from ._core.params import quoted, validate_params
from ._core.validation import check_confusion_matrix


@validate_params()
def prevalence_ranking_breaks(confusion_matrix, *, row_order=None, column_order=None):
    """Cells that break the test-training ranking of Section VI-A (Erbani et al. 2024).

    In the matrix reordered by ``row_order`` (test prevalence) and ``column_order``
    (training prevalence), as :func:`prevalence_ranking` returns them, the paper expects
    "for diagonal entries, entry ``i`` [...] higher than entry ``i + 1``. For off-diagonal
    entries, ignoring diagonal ones, an entry ``ij`` [...] higher than the one to its
    right or below it". A cell breaks the ranking when it is strictly higher than the cell
    before it:

    - a diagonal cell (true class = predicted class), than the diagonal cell of the row
      above it (the diagonal read in the row order);
    - an off-diagonal cell, than the nearest off-diagonal cell to its left in its row, or
      above it in its column (diagonal cells are skipped).

    As the paper warns, a break does not tell which of the two cells is off: the cell may
    be too high, or the one before it too low; both are returned.

    Parameters
    ----------
    confusion_matrix : array-like of shape (n_classes, n_classes)
        Non-negative confusion matrix, rows true and columns predicted classes, in the
        classes' order (before ranking).
    row_order : array-like of int, default=None
        The rows in test-prevalence order (a permutation of the class positions, e.g.
        the first output of :func:`prevalence_ranking`). None: the matrix's order.
    column_order : array-like of int, default=None
        The columns in training-prevalence order. None: ``row_order``.

    Returns
    -------
    cells : ndarray of shape (n_breaks, 2)
        ``(true class, predicted class)`` positions, in ``confusion_matrix``, of the cells
        higher than the cell before them, in reading order of the ranked matrix (a cell
        higher than both its left and its upper neighbour appears twice).
    previous : ndarray of shape (n_breaks, 2)
        The position of the cell before each one, which it exceeds.

    See Also
    --------
    prevalence_ranking : The test-training ranking.
    TransportConfusionMatrixDisplay : ``order="test-training"`` draws the ranked matrix.

    Examples
    --------
    >>> from sklearn_confusion_ext import prevalence_ranking_breaks
    >>> matrix = [[50, 9, 4],
    ...           [6, 30, 7],
    ...           [2, 1, 12]]
    >>> cells, previous = prevalence_ranking_breaks(matrix)
    >>> cells.tolist(), previous.tolist()
    ([[1, 2], [1, 2]], [[0, 2], [1, 0]])

    Cell (1, 2), class 1 taken for class 2, is higher than (0, 2) above it and than
    (1, 0) on its left (the diagonal cell (1, 1) is skipped).
    """
    matrix = check_confusion_matrix(confusion_matrix, "confusion_matrix")
    n_classes = matrix.shape[0]
    rows = _order(row_order, "row_order", n_classes)
    columns = rows if column_order is None else _order(column_order, "column_order",
                                                       n_classes)
    ranked = matrix[np.ix_(rows, columns)]
    off_diagonal = rows[:, None] != columns[None, :]
    # Each pair: (ranked position of the cell, ranked position of the cell before it).
    pairs = []
    diagonal = matrix[rows, rows]
    for a in np.flatnonzero(diagonal[1:] > diagonal[:-1]) + 1:
        pairs.append(((a, _position(columns, rows[a])),
                      (a - 1, _position(columns, rows[a - 1]))))
    for along_rows in (True, False):
        values, mask = (ranked, off_diagonal) if along_rows else (ranked.T, off_diagonal.T)
        for line in range(n_classes):
            positions = np.flatnonzero(mask[line])
            line_values = values[line, positions]
            for t in np.flatnonzero(line_values[1:] > line_values[:-1]) + 1:
                cell, before = (line, positions[t]), (line, positions[t - 1])
                if not along_rows:
                    cell, before = cell[::-1], before[::-1]
                pairs.append((cell, before))
    pairs.sort(key=lambda pair: (*pair[0], *pair[1]))
    cells = np.array([(rows[a], columns[b]) for (a, b), _ in pairs], dtype=np.intp)
    previous = np.array([(rows[a], columns[b]) for _, (a, b) in pairs], dtype=np.intp)
    return cells.reshape(-1, 2), previous.reshape(-1, 2)


def _order(order, name, n_classes):
    """``order`` checked as a permutation of ``range(n_classes)``, or the identity."""
    if order is None:
        return np.arange(n_classes)
    order = np.asarray(order)
    if order.ndim != 1 or order.dtype.kind not in "iu" or \
            not np.array_equal(np.sort(order), np.arange(n_classes)):
        raise ValueError(f"{name} must be a permutation of the {n_classes} class positions "
                         f"0..{n_classes - 1}; got {quoted(order)}.")
    return order


def _position(order, value):
    return int(np.flatnonzero(order == value)[0])
