"""Which path runs each compiled kernel.

The kernels (``_kernels.pyx``, compiled by ``pip install .``) each fuse into one pass over
memory what their NumPy reference does in several; the reference stays, is tested equal to
the kernel on every kind of target (``tests/_core/test_kernels.py``), and runs where the package
is used from a source tree that was never built. ``COMPILED`` is the compiled module, or
None there.
"""

try:
    from . import _kernels as COMPILED
except ImportError:  # a source tree that was never built: the NumPy references run
    COMPILED = None
# The most classes of soft labels beside soft labels whose plans one pass of the compiled
# kernel sums, outer products included (``soft_plan_sums_small``; 0 where never built or
# built without vector extensions); more take ``soft_plan_parts`` and a matrix product.
SMALL_SOFT_CLASSES = 0 if COMPILED is None else COMPILED.SMALL_CLASSES
# The plans of two CSR arrays (``_sparse_kernels.pyx``), or None where never built.
try:
    from . import _sparse_kernels as SPARSE_COMPILED
except ImportError:
    SPARSE_COMPILED = None
# The row kernels of probability matrices (``_row_kernels.pyx``: the checking pass, top
# labels, binned sums), or None where never built.
try:
    from . import _row_kernels as ROW_COMPILED
except ImportError:
    ROW_COMPILED = None

# The bootstrap's draws counted as they are drawn (``_draw_kernels.pyx``), or None where
# never built.
try:
    from . import _draw_kernels as DRAW_COMPILED
except ImportError:
    DRAW_COMPILED = None


def compiled_kernels():
    """The compiled kernels' module, or None where the NumPy references run."""
    return COMPILED


def compiled_sparse_kernels():
    """The compiled kernel of the plans of two CSR arrays, or None where the NumPy
    reference runs."""
    return SPARSE_COMPILED


def compiled_row_kernels():
    """The compiled row kernels of probability matrices, or None where the NumPy
    references run."""
    return ROW_COMPILED


def compiled_draw_kernels():
    """The compiled kernel of the bootstrap's counts (NumPy's PCG64 draws, counted as they
    are drawn), or None where NumPy draws and counts them."""
    return DRAW_COMPILED
