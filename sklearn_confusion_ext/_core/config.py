"""Package settings, after scikit-learn's ``set_config``: the memory budget of a result.

A confusion matrix has ``n_classes ** 2`` cells however few instances it counts, so two
labels and ``labels=range(10**5)`` ask for 75 GiB. Every computation whose result grows
faster than its input (the matrix builders, :func:`transport_plan`,
:meth:`ConfusionPosterior.rvs`) checks the size of its result against ``max_matrix_mib``
before it allocates anything, and refuses with a ``ValueError`` that says how to go on.
Resampling (:func:`score_confidence_interval`, :func:`compare_scores`, the reports'
intervals) works in blocks of resamples within the budget (:func:`resample_block`), so
only one resample above it is refused.

:func:`set_config` changes the setting for the whole process; :func:`config_context`
changes it for the ``with`` block, in the calling thread.
"""

import threading
from contextlib import contextmanager

from .params import POSITIVE_INT, validate_params

# A float64 matrix of this many MiB has about 11,585 classes; the computation's working
# memory is a few copies of it per thread.
_DEFAULTS = {"max_matrix_mib": 1024}
_overrides = threading.local()


@validate_params({})
def get_config():
    """The current settings of the package.

    Returns
    -------
    dict
        ``{"max_matrix_mib": int}``: the largest result, in MiB (2**20 bytes), that a
        matrix builder, :func:`transport_plan` or :meth:`ConfusionPosterior.rvs` computes;
        a larger one is refused before anything is allocated.

    See Also
    --------
    set_config : Change the settings for the whole process.
    config_context : Change them for a ``with`` block.

    Examples
    --------
    >>> from sklearn_confusion_ext import get_config
    >>> get_config()["max_matrix_mib"]
    1024
    """
    return _settings()


def _settings():
    """The current settings (what :func:`get_config` returns, unchecked: called inside
    every build)."""
    return {**_DEFAULTS, **getattr(_overrides, "settings", {})}


@validate_params({"max_matrix_mib": [None, POSITIVE_INT]})
def set_config(max_matrix_mib=None):
    """Change the package's settings for the whole process.

    Parameters
    ----------
    max_matrix_mib : int, default=None
        The largest result, in MiB, that a matrix builder computes (default 1024: one
        float64 matrix of about 11,585 classes). The computation's working memory is a
        few copies of the result per thread. None leaves the setting unchanged.

    Returns
    -------
    None

    See Also
    --------
    config_context : Change the settings for a ``with`` block only.
    get_config : The current settings.

    Examples
    --------
    >>> from sklearn_confusion_ext import get_config, set_config
    >>> set_config(max_matrix_mib=4096)
    >>> get_config()["max_matrix_mib"]
    4096
    >>> set_config(max_matrix_mib=1024)
    """
    if max_matrix_mib is not None:
        _DEFAULTS["max_matrix_mib"] = int(max_matrix_mib)


@validate_params({"max_matrix_mib": [None, POSITIVE_INT]})
@contextmanager
def config_context(*, max_matrix_mib=None):
    """Change the package's settings inside a ``with`` block, in the calling thread.

    Parameters
    ----------
    max_matrix_mib : int, default=None
        As in :func:`set_config`; None keeps the current value.

    Returns
    -------
    context manager
        Enter it with ``with``; the previous settings come back when the block ends,
        whether or not it raises.

    See Also
    --------
    set_config : Change the settings for the whole process.
    get_config : The current settings.

    Notes
    -----
    The setting holds in the thread that enters the block. Dask computes its blocks in
    worker threads, which see the process-wide setting of :func:`set_config`.

    Examples
    --------
    >>> from sklearn_confusion_ext import config_context, transport_confusion_matrix
    >>> with config_context(max_matrix_mib=1):  # doctest: +ELLIPSIS
    ...     transport_confusion_matrix([0, 1], [0, 1], labels=range(1000))
    Traceback (most recent call last):
    ...
    ValueError: transport_confusion_matrix would return a result of 7.6 MiB (1 matrix of
    1000 x 1000 classes), above the package's budget of max_matrix_mib=1 MiB. ...
    """
    previous = getattr(_overrides, "settings", {})
    settings = dict(previous)
    if max_matrix_mib is not None:
        settings["max_matrix_mib"] = int(max_matrix_mib)
    _overrides.settings = settings
    try:
        yield
    finally:
        _overrides.settings = previous


_FEWER_CLASSES = "Ask for fewer classes (labels=, or targets with fewer labels or columns)"


def check_result_size(function, shape, what, remedy=_FEWER_CLASSES):
    """Raise ``ValueError`` before ``function`` allocates a float64 result of ``shape``
    beyond the budget; ``what`` describes the result to the user (e.g. "1 matrix of 3 x 3
    classes"), ``remedy`` says how to ask for less."""
    n_bytes = 8.0
    for size in shape:
        n_bytes *= size
    budget = _settings()["max_matrix_mib"]
    if n_bytes > budget * 2 ** 20:
        raise ValueError(
            f"{function} would return a result of {_readable(n_bytes)} ({what}), above the "
            f"package's budget of max_matrix_mib={budget} MiB. {remedy}, or raise the "
            "budget with sklearn_confusion_ext.set_config(max_matrix_mib=...) or "
            "config_context(max_matrix_mib=...) if the machine has the memory: the "
            "computation needs a few copies of the result per thread."
        )


# A block of resamples takes at most this much (or the budget, if smaller): resampled
# results reduced blockwise never hold more than a block at once.
_BLOCK_BYTES = 64 * 2 ** 20
# ... and holds at most this many resamples: progress (verbose=) is counted block by block,
# and a block of small resamples (a few instances or classes) as large as the bytes allow
# held a whole long call (100,000 resamples of 5 instances: one block of 58 s, no line).
BLOCK_RESAMPLES = 4096


def resample_block(function, n_resamples, entries, what, remedy=_FEWER_CLASSES,
                   unit="resample"):
    """How many resamples of ``entries`` float64 values each ``function`` computes per
    block: the blocks take at most ``max_matrix_mib`` (and 64 MiB; and hold at most
    ``BLOCK_RESAMPLES``), so the total asked for
    (``n_resamples``) never is allocated at once. Raise ``ValueError`` before anything is
    allocated where one resample alone (``what``; a ``unit``) is above the budget."""
    budget = _settings()["max_matrix_mib"]
    one = 8.0 * max(1, entries)
    if one > budget * 2 ** 20:
        raise ValueError(
            f"{function} would hold {_readable(one)} per {unit} ({what}; {n_resamples} "
            f"asked for, computed in blocks of whole {unit}s), above the package's budget "
            f"of max_matrix_mib={budget} MiB. {remedy}, or raise the budget with "
            "sklearn_confusion_ext.set_config(max_matrix_mib=...) or "
            "config_context(max_matrix_mib=...) if the machine has the memory."
        )
    return max(1, min(int(n_resamples), BLOCK_RESAMPLES,
                      int(min(budget * 2 ** 20, _BLOCK_BYTES) // one)))


def _readable(n_bytes):
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n_bytes /= 1024
        if n_bytes < 1024 or unit == "TiB":  # 1.8e+36 TiB, not 37 digits
            return f"{n_bytes:.1f} {unit}" if n_bytes < 1e6 else f"{n_bytes:.2g} {unit}"
