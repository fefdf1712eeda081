"""Targets from other array libraries (PyTorch, CuPy, ``array_api_strict``, ...).

Two routes, chosen once per call by :func:`host_views`:

- PyTorch tensors on the CPU share their memory with NumPy: they are read as NumPy views
  (no copy) and computed by the NumPy code, the fastest there is on the CPU; with or
  without ``array-api-compat`` installed (the plain install reads them as
  :func:`sklearn.metrics.confusion_matrix` does, through ``__array__``).
- Any other array-API array (a GPU tensor, CuPy, ``array_api_strict``) is validated and
  summed in its own namespace and on its own device, through ``array-api-compat``: only
  the per-chunk partial matrices, of size ``(n_classes + 1)**2``, travel to the host.

Where results go (scikit-learn's rule under ``array_api_dispatch=True``): with
``array-api-compat`` installed (the ``[array-api]`` extra), every array a public function
returns (matrices, per-class scores, supports) is an array of the input's namespace on its
device, and every scalar score is a Python float (:func:`in_input_namespace`); without it,
results are NumPy arrays and Python floats, as scikit-learn's are without array API
dispatch.
"""

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .arrays import as_float, namespace, ones_like, to_numpy
from .conversion import checked_row_sums
from .labels import check_column_selection, check_labels_occur, label_classes, score_columns
from .namespaces import compat_installed, foreign_namespace, is_cpu_tensor, is_foreign
from .target_kinds import (
    LABELS_VS_SCORES,
    MULTILABEL,
    SINGLE_LABEL,
    SOFT,
    is_binary,
    warn_unless_probabilities,
)
from .targets import Targets, check_targets
from .weights import check_sample_weight

# Libraries whose arrays are recognised even without ``__array_namespace__``.



def check_any_targets(y_true, y_pred, *, labels=None, sample_weight=None,
                      defer_value_checks=False, column_labels=None, compact=False):
    """:func:`~.targets.check_targets` for in-memory targets of any array library.

    Arrays of another array-API library (PyTorch, CuPy, ...) give :class:`DeviceTargets`,
    validated and later summed in their namespace, on their device.
    """
    space = foreign_namespace(y_true, y_pred, sample_weight)
    if space is not None:
        return check_device_targets(y_true, y_pred, labels=labels,
                                    sample_weight=sample_weight, space=space,
                                    column_labels=column_labels)
    return check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight,
                         defer_value_checks=defer_value_checks, column_labels=column_labels,
                         compact=compact)


def host_views(y_true, y_pred, sample_weight):
    """``(y_true, y_pred, sample_weight, space)``: CPU arrays of other libraries as NumPy.

    PyTorch CPU tensors become NumPy views of their memory (no copy). Without
    ``array-api-compat``, any other foreign array is read through NumPy too
    (``np.asarray``, as scikit-learn reads it), or refused with the fix when NumPy cannot
    read it (a GPU tensor). ``space`` is ``(xp, device)`` of the inputs where results must
    go back (``array-api-compat`` installed and an input read as a view), else None. Inputs
    that stay in their library (GPU, CuPy, ``array_api_strict``) are returned unchanged,
    with ``space`` None: their own route returns results in their namespace.
    """
    arrays = (y_true, y_pred, sample_weight)
    foreign = [array for array in arrays if is_foreign(array)]
    if not foreign:
        return (*arrays, None)
    if not compat_installed():
        return (*(_numpy_view(name, array) if is_foreign(array) else array
                  for name, array in zip(("y_true", "y_pred", "sample_weight"), arrays)),
                None)
    if not all(is_cpu_tensor(array) for array in foreign):
        return (*arrays, None)
    space = foreign_namespace(*foreign)
    return (*(_numpy_view(None, array) if is_foreign(array) else array for array in arrays),
            space)


def on_the_host(y_true, y_pred, sample_weight=None, params=None, labels=None):
    """``(y_true, y_pred, sample_weight, params, labels)`` for work that is done on the host
    whatever library the targets come from: the resampled matrices of the intervals and the
    comparisons (:mod:`.resampling`), which are host products of the instances' terms
    with resample weights drawn by NumPy.

    Arrays of another library become NumPy arrays: PyTorch CPU tensors views of their
    memory (no copy, as :func:`host_views` reads them), any other (a GPU tensor, CuPy,
    ``array_api_strict``) a copy, made once. So the same ``random_state`` gives the same
    numbers on every library, to the bit, and CPU tensors run at NumPy's speed (resampled
    one matrix at a time on their own route, they drew their weights for other instances
    than NumPy's grouped products do, and took 8 times as long). Callables among
    ``params`` (a weighting) still get arrays of the targets' library, and ``labels``
    given as such an array become NumPy. NumPy, sparse, pandas and Dask inputs are returned
    unchanged.
    """
    arrays = (y_true, y_pred, sample_weight)
    if not any(is_foreign(array) for array in arrays):
        return (*arrays, params, labels)
    space = foreign_namespace(*arrays)  # None without array-api-compat
    host = [_numpy_view(name, array) if is_foreign(array) and (
                space is None or is_cpu_tensor(array)) else
            to_numpy(array) if is_foreign(array) else array
            for name, array in zip(("y_true", "y_pred", "sample_weight"), arrays)]
    if space is not None and params:
        params = {name: in_namespace_callable(value, space) if callable(value) else value
                  for name, value in params.items()}
    if is_foreign(labels):
        labels = to_numpy(labels) if space is not None else np.asarray(labels)
    return (*host, params, labels)


def _numpy_view(name, array):
    """A NumPy view (or, where NumPy cannot share it, a copy) of a CPU array."""
    if is_cpu_tensor(array):
        return array.detach().resolve_conj().resolve_neg().numpy()
    try:
        read = np.asarray(array)
    except (TypeError, ValueError, RuntimeError) as error:
        read, reason = None, str(error)
    else:
        reason = "it has no __array__"
    if read is None or (read.ndim == 0 and read.dtype == object):  # not read as an array
        raise ImportError(f"{name} is a {type(array).__module__} array that NumPy cannot "
                          f"read ({reason}); arrays off the CPU are computed on their device "
                          "through array-api-compat: pip install "
                          "'sklearn-confusion-ext[array-api]'.") from None
    return read


def in_namespace_callable(function, space):
    """``function`` (a user's callable of the targets) called with arrays of ``space``: the
    NumPy views it is handed go back to the input's library, its result comes back as
    NumPy."""
    xp, device = space

    def called_in_namespace(*arrays):
        result = function(*(xp.asarray(array, device=device) if isinstance(array, np.ndarray)
                            else array for array in arrays))
        return to_numpy(result) if is_foreign(result) else result

    called_in_namespace.__wrapped__ = function
    return called_in_namespace


@dataclass(frozen=True)
class DeviceTargets(Targets):
    """:class:`Targets` held in another array library.

    ``y_true`` and ``y_pred`` are float64 or float32 masses of shape (n_samples,
    n_classes) (float32 stays float32 on the device; :meth:`rows` reads chunks as float64),
    or, for 1-D class labels (both targets, or those named in ``one_hot`` beside 2-D
    scores), the labels themselves, one-hot encoded chunk by chunk against
    ``class_values`` (``classes`` on the device). Values are checked chunk by chunk in
    :meth:`rows`; the transport matrices sum them on the device instead
    (:mod:`.device_sums`), checks included, read back once.
    """

    class_values: object = None
    space: tuple = None
    # The sorted labels of 1-D y_true, where validation found them (read once: on a GPU
    # each look at the labels is a sort and a synchronization).
    found_true_classes: object = field(default=None, compare=False, repr=False)

    @property
    def chunk_factor(self):
        """A GPU kernel launch costs more than a NumPy call: chunks 16 times the NumPy
        default on accelerators, twice on the CPU (measured best for PyTorch there)."""
        return 2 if "cpu" in str(self.space[1]).lower() else 16

    def threads(self, n_jobs):
        return 1 if n_jobs is None else n_jobs

    @property
    def namespace(self):
        return self.space

    def rows(self, rows):
        checked = []
        for name, y in (("y_true", self.y_true), ("y_pred", self.y_pred)):
            y = y[rows.start:rows.stop, ...]
            if self.single_label or name in self.one_hot:
                y = as_float(y[:, None] == self.class_values[None, :])
                checked += [y, ones_like(y[:, 0])]
            else:
                single = y.dtype == namespace(y).float32
                y = namespace(y).astype(y, namespace(y).float64, copy=False)
                checked += [y, _checked_row_sums(name, y, rows.start)]
                if self.one_hot and self.off_one.wants(rows.start):  # scores beside labels
                    warn_unless_probabilities(name, checked[-1],
                                              np.float32 if single else np.float64,
                                              self.off_one, rows.start, y)
        y_true, true_norm, y_pred, pred_norm = checked
        return y_true, y_pred, true_norm, pred_norm

    @cached_property
    def true_classes(self):
        if "y_true" in self.one_hot or self.single_label:
            if self.found_true_classes is not None:
                return self.found_true_classes
            return to_numpy(namespace(self.y_true).unique_values(self.y_true))
        return self.classes if self.one_hot else None

    @cached_property
    def kind(self):
        if self.single_label:
            return SINGLE_LABEL
        if self.one_hot:
            return LABELS_VS_SCORES
        return MULTILABEL if is_binary(self.y_true) and is_binary(self.y_pred) else SOFT

    @cached_property
    def can_be_empty(self):
        return not self.single_label and "y_true" not in self.one_hot and \
            is_binary(self.y_true)


def check_device_targets(y_true, y_pred, *, labels, sample_weight, space,
                         column_labels=None):
    """:func:`check_targets` for arrays of another library; see :class:`DeviceTargets`."""
    xp, device = space
    named = {"y_true": _as_device_array(xp, device, "y_true", y_true),
             "y_pred": _as_device_array(xp, device, "y_pred", y_pred)}
    (true, pred) = named.values()
    if true.shape[0] != pred.shape[0]:
        raise ValueError("y_true and y_pred must have the same number of samples; got "
                         f"{true.shape[0]} and {pred.shape[0]}.")
    n_samples = true.shape[0]
    weight = check_sample_weight(None if sample_weight is None else host_array(sample_weight),
                                 n_samples)
    if weight is not None:
        weight = xp.asarray(weight, device=device)
    for name, y in named.items():
        if y.ndim == 1 and xp.isdtype(y.dtype, "real floating") and not bool(
                xp.all(xp.isfinite(y)) and xp.all(y == xp.round(y))):
            raise ValueError(f"{name} holds NaN, infinite or non-integer class labels; "
                             "pass soft labels as a 2-D (n_samples, n_classes) array.")
    if true.ndim == 1 and pred.ndim == 1:
        first = to_numpy(xp.unique_values(true))
        present = np.union1d(first, to_numpy(xp.unique_values(pred)))
        classes, selection = label_classes("y_true", first, present, labels)
        return DeviceTargets(true, pred, classes, selection, True, None, None, weight, (),
                             class_values=xp.asarray(classes, device=device), space=space,
                             found_true_classes=first)
    if true.ndim != pred.ndim:  # labels beside scores: the columns named on the host
        one_hot = tuple(name for name, y in named.items() if y.ndim == 1)
        scores_name, scores = next((name, y) for name, y in named.items() if y.ndim == 2)
        found = {name: to_numpy(xp.unique_values(named[name])) for name in one_hot}
        present = np.unique(np.concatenate(list(found.values())))
        # the one class rule (labels select; column_labels, read after building, do not)
        classes, selection = score_columns(
            one_hot, present, scores_name, scores.shape[1],
            labels if labels is not None else column_labels,
            named=column_labels if labels is not None else None)
        if labels is None:
            selection = None
        elif "y_true" in found:
            check_labels_occur("y_true", classes[selection], found["y_true"])
        scores = _float_masses(xp, scores)
        true, pred = (scores if y.ndim == 2 else y for y in (true, pred))
        return DeviceTargets(true, pred, classes, selection, False, None, None, weight, one_hot,
                             class_values=xp.asarray(classes, device=device), space=space,
                             found_true_classes=found.get("y_true"))
    if true.shape[1] != pred.shape[1]:
        raise ValueError("y_true and y_pred must have the same number of columns (classes); "
                         f"got {true.shape[1]} and {pred.shape[1]}.")
    if true.shape[1] == 0:
        raise ValueError("y_true and y_pred have no columns; at least one class is required.")
    selection = None if labels is None else check_column_selection(labels, true.shape[1])
    true, pred = (_float_masses(xp, y) for y in (true, pred))
    return DeviceTargets(true, pred, np.arange(true.shape[1]), selection, False, None, None,
                         weight, (), space=space)


def _float_masses(xp, y):
    """``y`` as float64, except float32, kept as it is (half the memory; the sums read it
    as float32 blocks summed in float64)."""
    if y.dtype == xp.float32:
        return y
    return xp.astype(y, xp.float64, copy=False)


def _as_device_array(xp, device, name, y):
    """``y`` as a 1-D or 2-D numeric array of ``xp`` on ``device`` (one column: 1-D)."""
    if not is_foreign(y):  # NumPy or a list beside the library's arrays: moved there
        y = xp.asarray(np.asarray(y), device=device)
    if y.ndim == 2 and y.shape[1] == 1:
        y = xp.reshape(y, (-1,))
    if y.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D or 2-D; got an array of shape {tuple(y.shape)}.")
    if not xp.isdtype(y.dtype, ("bool", "integral", "real floating")):
        raise ValueError(f"{name} must hold real numbers; got dtype {y.dtype}.")
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    return y


def host_array(array):
    """``array`` as NumPy if it comes from another array library, else unchanged."""
    return to_numpy(array) if is_foreign(array) else array


def _checked_row_sums(name, y, first_row):
    """Row sums of a chunk, checked on the device; a bad chunk is diagnosed on the host."""
    xp = namespace(y)
    sums = xp.sum(y, axis=1)
    if bool(xp.all(xp.isfinite(sums))) and bool(xp.min(y) >= 0):
        return sums
    checked_row_sums(name, to_numpy(y), first_row)  # raises, naming the row
    return sums
