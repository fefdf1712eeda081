"""The one entrance of every matrix builder: targets of any library to full confusions.

Dask collections are recognized here and reduced block by block
(:mod:`.dask_collections`); in-memory targets (NumPy, scipy.sparse, pandas, lists, or
arrays of another array-API library, recognized by :func:`~.array_api.check_any_targets`)
are validated and built by :func:`~.kinds.build`. PyTorch CPU tensors are read here, once,
as NumPy views (:func:`~.array_api.host_views`) and their confusions marked to go back to
PyTorch. Nothing below this module knows about Dask.
"""

from dataclasses import replace

import numpy as np

from .array_api import check_any_targets, host_views, in_namespace_callable, to_numpy
from .confusion import warn_skipped
from .dask_collections import dask_confusions, is_dask_collection
from .kinds import build
from .targets import check_targets


def confusions(kind, y_true, y_pred, *, labels=None, sample_weight=None, n_jobs=None,
               chunk_size=None, params=None, warn=True, column_labels=None, true_kind=None,
               decided_by=None, with_instances=False):
    """The full :class:`~.confusion.Confusion` objects of ``kind`` (a :class:`MatrixKind`).

    ``params``: the kind's own parameters (checked by the public caller); ``warn``: warn
    about the instances ``empty="skip"`` left out (else they are only counted);
    ``column_labels``: the ``labels=`` that give the columns of 2-D scores beside 1-D
    labels (the one class rule), for the callers that read ``labels=`` after building, or
    a classifier's ``classes_`` beside ``labels`` (see
    :func:`~.targets.check_targets`); ``true_kind``: how a 2-D ``y_true`` is read
    ("multilabel" or "soft"), decided for a whole input of which these targets are a piece
    (``decided_by`` says by what, for the messages; see :meth:`Targets.read_as`). Dask
    inputs decide it once over the whole ``y_true`` when it is not given.

    ``with_instances``: return ``(confusions, instances)``, the validated
    :class:`~.kinds.Instances` the matrices were read from, for a resampling of the same
    data that reads their per-instance terms (:mod:`.resampling`) instead of validating
    the targets again; None for Dask collections and targets kept on another library's
    device (the resampling reads those on the host itself).
    """
    params = {**kind.parameters, **(params or {})}
    # NumPy arrays (the common case): nothing to read as NumPy, no Dask, no other library.
    numpy = type(y_true) is np.ndarray and type(y_pred) is np.ndarray and \
        (sample_weight is None or type(sample_weight) is np.ndarray)
    space = None
    if not numpy:
        y_true, y_pred, sample_weight, space = host_views(y_true, y_pred, sample_weight)
    if space is not None:  # CPU tensors read as NumPy views: their callables get tensors
        labels, column_labels = _host(labels), _host(column_labels)
        params = {name: in_namespace_callable(value, space) if callable(value) else value
                  for name, value in params.items()}
    instances = None
    if not numpy and is_dask_collection(y_true, y_pred, sample_weight):
        result = dask_confusions(kind.name, y_true, y_pred, labels=labels,
                                 sample_weight=sample_weight, n_jobs=n_jobs,
                                 chunk_size=chunk_size, params=params,
                                 column_labels=column_labels, true_kind=true_kind,
                                 decided_by=decided_by)
    else:
        targets = (check_targets if numpy else check_any_targets)(
            y_true, y_pred, labels=labels, sample_weight=sample_weight,
            defer_value_checks=kind.deferred_checks(params), column_labels=column_labels,
            compact=kind.compact_integers and sample_weight is None)
        if true_kind is not None:
            targets = targets.read_as(true_kind, decided_by)
        instances = kind.instances(targets, params, n_jobs, chunk_size)
        result = build(kind, targets, params, n_jobs, chunk_size, instances=instances)
    if space is not None:
        result = tuple(replace(confusion, namespace=space) for confusion in result)
    if warn:
        warn_skipped(result[0].n_skipped)
    if with_instances:
        host = instances is not None and instances.targets.namespace is None
        return result, instances if host else None
    return result


def _host(labels):
    """``labels=`` given as an array of the inputs' library, as NumPy."""
    if labels is None or isinstance(labels, (list, tuple, np.ndarray)) or \
            not hasattr(labels, "__dlpack__"):
        return labels
    return to_numpy(labels)
