"""torchmetrics ``Metric`` objects of the transport matrix, the MLCM and their F1 scores.

The ``[torch]`` extra (``pip install "sklearn-confusion-ext[torch]"``, which brings
torchmetrics; install the PyTorch build that fits your machine first). Unlike the rest of
the package, these follow torchmetrics' conventions, to drop into a Lightning module:
``update(preds, target)``, **predictions first**, the reverse of scikit-learn's
``(y_true, y_pred)`` and of :meth:`ConfusionAccumulator.update`; ``compute()`` returns
tensors; ``reset()``; the state is summed across processes under DDP. This submodule is
not imported by ``import sklearn_confusion_ext`` (which never imports torchmetrics), and
its names are not in the flat namespace:

>>> import torch
>>> from sklearn_confusion_ext.torch import TransportConfusionMatrix
>>> from sklearn_confusion_ext import transport_confusion_matrix
>>> preds, target = torch.tensor([1, 1, 2]), torch.tensor([0, 1, 2])
>>> metric = TransportConfusionMatrix(num_classes=3)
>>> metric.update(preds, target)
>>> bool((metric.compute() == transport_confusion_matrix(target, preds)).all())
True
"""

from ._scores.torchmetrics_metrics import (
    MLCM,
    MLCMF1Score,
    TransportConfusionMatrix,
    TransportF1Score,
)

__all__ = ["TransportConfusionMatrix", "TransportF1Score", "MLCM", "MLCMF1Score"]
