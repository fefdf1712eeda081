"""The transport matrix, the MLCM and their F1 scores as torchmetrics ``Metric`` objects.

A ``Metric`` follows torchmetrics' conventions, not scikit-learn's: ``update(preds,
target)`` (predictions first), ``compute()`` returns tensors, ``reset()`` forgets, and
its state (the full matrix, a fixed ``(C, C)`` or ``(C + 1, C + 1)`` tensor) is summed
across processes (``dist_reduce_fx="sum"``) under DDP. Each batch's matrix is built by
the library's own builders (the one entrance, :func:`~.._core.dispatch.confusions`, with
the reading of 2-D targets declared for the whole stream as
:class:`ConfusionAccumulator`'s ``target_kind`` declares it), so the summed matrix is
what the one-shot function returns on the concatenated batches; normalization and scores
are read off the summed matrix by the library's functions.

This module imports torchmetrics: it is reached through the public submodule
:mod:`sklearn_confusion_ext.torch` only, never by ``import sklearn_confusion_ext``.
"""

from numbers import Real

import numpy as np

try:
    import torch
    from torchmetrics import Metric
except ImportError as error:  # the [torch] extra
    raise ImportError("sklearn_confusion_ext.torch needs torchmetrics (and PyTorch): pip "
                      "install 'sklearn-confusion-ext[torch]'.") from error

from .._core.confusion import normalize_confusion
from .._core.dispatch import confusions
from .._core.kinds import KINDS
from .._core.params import (
    EMPTY,
    INCLUDE_NONE,
    MLCM_METHOD,
    NORMALIZE,
    POSITIVE_INT,
    WEIGHTING,
    ZERO_DIVISION,
    Interval,
    Options,
    validate_params,
)
from .._core.target_kinds import MULTILABEL, SOFT
from .._matrices import mlcm as _mlcm_kinds  # noqa: F401 (registers the MLCM kinds)
from .._matrices import transport as _transport_kinds  # noqa: F401 (registers "transport")
from .from_confusion import precision_recall_fscore_support_from_confusion

_TASK = [Options("multiclass", "multilabel")]
_AVERAGE = [None, Options("micro", "macro", "weighted")]
_THRESHOLD = [Interval(Real, 0, 1)]


class _ConfusionMetric(Metric):
    """The state and ``update`` shared by the metrics: one full matrix, summed."""

    is_differentiable = False
    full_state_update = False
    _kind = None  # the name of the MatrixKind
    _n_name = "num_classes"  # the name of the width argument, for the messages

    def __init__(self, n, params, true_kind, **kwargs):
        super().__init__(**kwargs)
        self._n, self._params, self._true_kind = n, params, true_kind
        # 0/1 indicators get the "none" class (the TCM's empty rows, MLCM's NTL/NPL)
        self._has_none = true_kind == MULTILABEL and (
            self._kind != "transport" or params.get("empty") == "null_class")
        size = n + self._has_none
        self.add_state("confmat", default=torch.zeros(size, size, dtype=torch.float64),
                       dist_reduce_fx="sum")
        self.add_state("n_samples", default=torch.zeros((), dtype=torch.float64),
                       dist_reduce_fx="sum")

    def update(self, preds, target, sample_weight=None):
        """Add a batch: ``preds`` first, ``target`` second (torchmetrics' order).

        Parameters
        ----------
        preds : Tensor of shape (N,) or (N, C)
            Predicted class labels, probabilities or soft predictions (MLCM: 0/1
            indicators or probabilities, thresholded).
        target : Tensor of shape (N,) or (N, C)
            True class labels, soft labels or 0/1 indicators.
        sample_weight : Tensor of shape (N,), default=None
            Sample weights.

        Returns
        -------
        None
        """
        preds, target = self._checked(preds, target)
        # 1-D labels (on either side): the classes 0..n-1, every one listed
        labels = np.arange(self._n) if preds.ndim == 1 or target.ndim == 1 else None
        decided_by = f"{type(self).__name__}(task={self._task!r}) declares"
        true_kind = self._true_kind if target.ndim == 2 else None
        kind = KINDS[self._kind]
        matrix = kind.finish(confusions(kind, target, preds, labels=labels,
                                        sample_weight=sample_weight, params=self._params,
                                        true_kind=true_kind, decided_by=decided_by), None)
        self.confmat += torch.as_tensor(matrix, dtype=self.confmat.dtype,
                                        device=self.confmat.device)
        self.n_samples += target.shape[0]

    def _checked(self, preds, target):
        """``(preds, target)`` as tensors whose labels and widths fit the metric."""
        checked = []
        for name, y in (("preds", preds), ("target", target)):
            if not isinstance(y, torch.Tensor):
                y = torch.as_tensor(np.asarray(y))
            if y.ndim == 2 and y.shape[1] != self._n:
                raise ValueError(f"{name} has {y.shape[1]} columns; {self._n_name}={self._n} "
                                 "expects one per class.")
            if y.ndim == 1 and y.numel() and y.dtype != torch.bool and bool(
                    (y.min() < 0) | (y.max() >= self._n)):
                raise ValueError(f"{name} holds class labels outside 0..{self._n - 1} (min "
                                 f"{y.min().item():g}, max {y.max().item():g}); "
                                 f"{self._n_name}={self._n}.")
            checked.append(y)
        preds, target = checked
        if self._true_kind == MULTILABEL and target.ndim != 2:
            raise ValueError(f"target has shape {tuple(target.shape)}; {type(self).__name__}"
                             f" with task='multilabel' takes (N, {self._n}) 0/1 indicators.")
        return preds, target

    def _matrix(self):
        """The summed matrix as a float64 NumPy array (refused before any batch)."""
        if not bool(self.n_samples > 0):
            raise ValueError(f"{type(self).__name__}.compute() before any update: call "
                             "update(preds, target) first.")
        return self.confmat.detach().to("cpu", torch.float64).numpy()

    def _as_state_tensor(self, array):
        return torch.as_tensor(np.asarray(array, dtype=float), dtype=self.confmat.dtype,
                               device=self.confmat.device)

    @property
    def _task(self):
        return "multilabel" if self._true_kind == MULTILABEL else "multiclass"


class _TransportMetric(_ConfusionMetric):
    _kind = "transport"

    def __init__(self, num_classes, task, weighting, empty, **kwargs):
        super().__init__(num_classes, {"weighting": weighting, "empty": empty},
                         MULTILABEL if task == "multilabel" else SOFT, **kwargs)
        self.num_classes = num_classes


class _MLCMMetric(_ConfusionMetric):
    _n_name = "num_labels"

    def __init__(self, num_labels, method, threshold, **kwargs):
        self._kind = "mlcm" if method == "heydarian" else "mlcm_krstinic"
        super().__init__(num_labels, {}, MULTILABEL, **kwargs)
        self.num_labels, self.threshold = num_labels, threshold

    def _checked(self, preds, target):
        preds, target = super()._checked(preds, target)
        if preds.is_floating_point():
            if preds.numel() and bool((preds.min() < 0) | (preds.max() > 1)):
                raise ValueError(
                    f"preds holds values outside [0, 1] (min {float(preds.min()):g}, max "
                    f"{float(preds.max()):g}); pass 0/1 indicators or probabilities "
                    "(torch.sigmoid of logits), which are thresholded at threshold="
                    f"{self.threshold!r}.")
            preds = (preds > self.threshold).to(torch.int64)
        return preds, target


class TransportConfusionMatrix(_TransportMetric):
    """The transport confusion matrix as a torchmetrics ``Metric`` (``update(preds, target)``).

    torchmetrics' conventions: predictions first, ``compute()`` returns a tensor,
    ``reset()`` forgets, and the state, the full matrix, is summed across processes
    (``dist_reduce_fx="sum"``), so it can sit in a Lightning module. The result is
    :func:`~sklearn_confusion_ext.transport_confusion_matrix` ``(target, preds)`` of the
    concatenated batches (the library's order: rows true classes, columns predicted),
    float64. :class:`~sklearn_confusion_ext.ConfusionAccumulator` is the same sum in
    scikit-learn's order, ``update(y_true, y_pred)``.

    Parameters
    ----------
    num_classes : int
        The classes ``0 .. num_classes - 1``; 2-D targets have one column each.
    task : {"multiclass", "multilabel"}, default="multiclass"
        How a 2-D ``target`` is read, for every batch: ``"multiclass"``, soft labels (one-hot
        rows included), a ``(C, C)`` matrix; ``"multilabel"``, 0/1 indicators, a
        ``(C + 1, C + 1)`` matrix whose last row and column are "none" (empty label sets).
        1-D ``target`` (class labels) takes ``"multiclass"``; ``preds`` may be labels or
        ``(N, C)`` probabilities in either task.
    weighting : {"uniform", "true", "pred"} or callable, default="uniform"
        As in :func:`~sklearn_confusion_ext.transport_confusion_matrix`.
    empty : {"null_class", "skip", "error"}, default="null_class"
        As in :func:`~sklearn_confusion_ext.transport_confusion_matrix`.
    normalize : {None, "true", "pred", "all"}, default=None
        Normalization of the summed matrix, as in
        :func:`~sklearn_confusion_ext.transport_confusion_matrix`.
    **kwargs
        torchmetrics' ``Metric`` options (``sync_on_compute``, ``dist_sync_fn``, ...).

    See Also
    --------
    MLCM : The multi-label confusion matrix of Heydarian et al. (2022) as a ``Metric``.
    TransportF1Score : The F1 score read off this matrix.
    sklearn_confusion_ext.ConfusionAccumulator : The same sum, ``update(y_true, y_pred)``.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: equation 4 (the matrix as a sum over instances).

    Examples
    --------
    >>> import torch
    >>> from sklearn_confusion_ext.torch import TransportConfusionMatrix
    >>> metric = TransportConfusionMatrix(num_classes=3)
    >>> metric.update(torch.tensor([0, 2, 2]), torch.tensor([0, 1, 2]))  # preds, target
    >>> metric.update(torch.tensor([[0.5, 0.5, 0.0]]), torch.tensor([1]))
    >>> metric.compute()
    tensor([[1.0000, 0.0000, 0.0000],
            [0.5000, 0.5000, 1.0000],
            [0.0000, 0.0000, 1.0000]], dtype=torch.float64)
    """

    higher_is_better = None

    @validate_params({"num_classes": [POSITIVE_INT], "task": _TASK, "weighting": WEIGHTING,
                      "empty": EMPTY, "normalize": NORMALIZE})
    def __init__(self, num_classes, *, task="multiclass", weighting="uniform",
                 empty="null_class", normalize=None, **kwargs):
        super().__init__(num_classes, task, weighting, empty, **kwargs)
        self.normalize = normalize

    def compute(self):
        """The matrix of every batch so far (summed across processes).

        Returns
        -------
        Tensor of shape (C, C), or (C + 1, C + 1) with ``task="multilabel"``
        """
        return self._as_state_tensor(normalize_confusion(self._matrix(), self.normalize))


class MLCM(_MLCMMetric):
    """The multi-label confusion matrix (MLCM) as a torchmetrics ``Metric``.

    torchmetrics' conventions, as :class:`TransportConfusionMatrix`: ``update(preds,
    target)``, ``compute()`` returns :func:`~sklearn_confusion_ext.mlcm` ``(target, preds)``
    of the concatenated batches as a float64 tensor, its last row "no true label" (NTL)
    and last column "no predicted label" (NPL); the state is summed across processes.

    Parameters
    ----------
    num_labels : int
        The labels (columns) of the 0/1 indicators.
    method : {"heydarian", "krstinic"}, default="heydarian"
        As in :func:`~sklearn_confusion_ext.mlcm`.
    threshold : float, default=0.5
        Floating-point ``preds`` (probabilities, in [0, 1]) predict the labels above it,
        as torchmetrics' multi-label metrics threshold them.
    normalize : {None, "true", "pred", "all"}, default=None
        Normalization of the summed matrix, as in :func:`~sklearn_confusion_ext.mlcm`.
    **kwargs
        torchmetrics' ``Metric`` options.

    See Also
    --------
    MLCMF1Score : The F1 score read off this matrix.
    TransportConfusionMatrix : The transport matrix as a ``Metric``.

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048: Algorithms 2-5.

    Examples
    --------
    >>> import torch
    >>> from sklearn_confusion_ext.torch import MLCM
    >>> metric = MLCM(num_labels=2)
    >>> metric.update(torch.tensor([[0.9, 0.8], [0.2, 0.7]]), torch.tensor([[1, 0], [0, 1]]))
    >>> metric.compute()
    tensor([[1., 1., 0.],
            [0., 1., 0.],
            [0., 0., 0.]], dtype=torch.float64)
    """

    higher_is_better = None

    @validate_params({"num_labels": [POSITIVE_INT], "method": MLCM_METHOD,
                      "threshold": _THRESHOLD, "normalize": NORMALIZE})
    def __init__(self, num_labels, *, method="heydarian", threshold=0.5, normalize=None,
                 **kwargs):
        super().__init__(num_labels, method, threshold, **kwargs)
        self.method, self.normalize = method, normalize

    def compute(self):
        """The MLCM of every batch so far (summed across processes).

        Returns
        -------
        Tensor of shape (num_labels + 1, num_labels + 1)
        """
        return self._as_state_tensor(normalize_confusion(self._matrix(), self.normalize))


def _f1(metric):
    """The F1 score of a metric's summed matrix (per class for ``average=None``)."""
    score = precision_recall_fscore_support_from_confusion(
        metric._matrix(), average=metric.average, zero_division=metric.zero_division,
        none_class=metric._has_none, include_none=metric.include_none)[2]
    return metric._as_state_tensor(score)


class TransportF1Score(_TransportMetric):
    """The F1 score of the transport confusion matrix as a torchmetrics ``Metric``.

    :func:`~sklearn_confusion_ext.transport_precision_recall_fscore_support`'s F-score
    ``(target, preds)`` of the concatenated batches, read off the summed matrix of
    :class:`TransportConfusionMatrix` (``update(preds, target)``, state summed across
    processes), as a float64 tensor.

    Parameters
    ----------
    num_classes, task, weighting, empty
        As in :class:`TransportConfusionMatrix`.
    average : {"macro", "micro", "weighted"} or None, default="macro"
        As in :func:`~sklearn_confusion_ext.precision_recall_fscore_support_from_confusion`
        (None: one score per class).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The score of a class with no true and no predicted mass; "warn" gives 0.0 with
        an ``UndefinedMetricWarning``.
    include_none : {"auto", True, False}, default="auto"
        ``task="multilabel"``: whether the "none" class is scored, as in
        :func:`~sklearn_confusion_ext.precision_recall_fscore_support_from_confusion`.
    **kwargs
        torchmetrics' ``Metric`` options.

    See Also
    --------
    TransportConfusionMatrix : The matrix it is read from.

    References
    ----------
    .. [1] Erbani, J., Portier, P.-E., Egyed-Zsigmond, E. and Nurbakova, D. (2024).
       "Confusion Matrices: A Unified Theory". IEEE Access, 12,
       doi:10.1109/ACCESS.2024.3507199: Definition 3, equations 37-42.

    Examples
    --------
    >>> import torch
    >>> from sklearn_confusion_ext.torch import TransportF1Score
    >>> metric = TransportF1Score(num_classes=3)
    >>> metric.update(torch.tensor([0, 2, 2, 1]), torch.tensor([0, 1, 2, 1]))
    >>> round(float(metric.compute()), 4)
    0.7778
    """

    higher_is_better = True

    @validate_params({"num_classes": [POSITIVE_INT], "task": _TASK, "weighting": WEIGHTING,
                      "empty": EMPTY, "average": _AVERAGE, "zero_division": ZERO_DIVISION,
                      "include_none": INCLUDE_NONE})
    def __init__(self, num_classes, *, task="multiclass", weighting="uniform",
                 empty="null_class", average="macro", zero_division="warn",
                 include_none="auto", **kwargs):
        super().__init__(num_classes, task, weighting, empty, **kwargs)
        self.average, self.zero_division = average, zero_division
        self.include_none = include_none

    def compute(self):
        """The F1 score of every batch so far (summed across processes).

        Returns
        -------
        Tensor of shape () or, with ``average=None``, (n_classes,)
        """
        return _f1(self)


class MLCMF1Score(_MLCMMetric):
    """The F1 score of the MLCM as a torchmetrics ``Metric``.

    :func:`~sklearn_confusion_ext.mlcm_precision_recall_fscore_support`'s F-score
    ``(target, preds)`` of the concatenated batches, read off the summed matrix of
    :class:`MLCM` (``update(preds, target)``, state summed across processes).

    Parameters
    ----------
    num_labels, method, threshold
        As in :class:`MLCM`.
    average : {"macro", "micro", "weighted"} or None, default="macro"
        As in :class:`TransportF1Score`.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        As in :class:`TransportF1Score`.
    include_none : {"auto", True, False}, default="auto"
        Whether NTL/NPL is scored, as in
        :func:`~sklearn_confusion_ext.precision_recall_fscore_support_from_confusion`.
    **kwargs
        torchmetrics' ``Metric`` options.

    See Also
    --------
    MLCM : The matrix it is read from.

    References
    ----------
    .. [1] Heydarian, M., Doyle, T. E. and Samavi, R. (2022). "MLCM: Multi-Label
       Confusion Matrix". IEEE Access, 10, doi:10.1109/ACCESS.2022.3151048: equations 2-7.

    Examples
    --------
    >>> import torch
    >>> from sklearn_confusion_ext.torch import MLCMF1Score
    >>> metric = MLCMF1Score(num_labels=2, average=None)
    >>> metric.update(torch.tensor([[1, 1], [0, 1]]), torch.tensor([[1, 0], [0, 1]]))
    >>> metric.compute()
    tensor([0.6667, 0.6667], dtype=torch.float64)
    """

    higher_is_better = True

    @validate_params({"num_labels": [POSITIVE_INT], "method": MLCM_METHOD,
                      "threshold": _THRESHOLD, "average": _AVERAGE,
                      "zero_division": ZERO_DIVISION, "include_none": INCLUDE_NONE})
    def __init__(self, num_labels, *, method="heydarian", threshold=0.5, average="macro",
                 zero_division="warn", include_none="auto", **kwargs):
        super().__init__(num_labels, method, threshold, **kwargs)
        self.method, self.average = method, average
        self.zero_division, self.include_none = zero_division, include_none

    def compute(self):
        """The F1 score of every batch so far (summed across processes).

        Returns
        -------
        Tensor of shape () or, with ``average=None``, (num_labels,) (or one more: NTL)
        """
        return _f1(self)

