"""The torchmetrics metrics (sklearn_confusion_ext.torch): torchmetrics' conventions
(``update(preds, target)``, ``compute``/``reset``, state summed across processes) and the
library's numbers on the concatenated batches."""

import copy
import pickle
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torchmetrics = pytest.importorskip("torchmetrics")

import sklearn_confusion_ext as sce  # noqa: E402
from sklearn_confusion_ext.torch import (  # noqa: E402
    MLCM,
    MLCMF1Score,
    TransportConfusionMatrix,
    TransportF1Score,
)

N_CLASSES = 4


def _targets(case, n=60, seed=0):
    """``(preds, target)`` tensors of one input kind, and the metric's constructor."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, N_CLASSES, n)
    probabilities = rng.dirichlet(np.ones(N_CLASSES), n)
    indicators = (rng.random((n, N_CLASSES)) < 0.4).astype(np.int64)
    indicators[:3] = 0  # empty label sets: the "none" class
    soft = rng.dirichlet(np.ones(N_CLASSES), n) * rng.uniform(0.5, 2, (n, 1))
    preds, target = {
        "labels": (rng.integers(0, N_CLASSES, n), labels),
        "probabilities": (probabilities, labels),
        "labels_beside_soft": (labels, rng.dirichlet(np.ones(N_CLASSES), n)),
        "soft": (probabilities, soft),
        "one_hot": (np.eye(N_CLASSES)[rng.integers(0, N_CLASSES, n)], np.eye(N_CLASSES)[labels]),
        "multilabel": (rng.random((n, N_CLASSES)), indicators),
    }[case]
    return torch.as_tensor(preds), torch.as_tensor(target)


MULTICLASS = ["labels", "probabilities", "labels_beside_soft", "soft", "one_hot"]


def _in_batches(metric, preds, target, sizes=(7, 30), sample_weight=None):
    for rows in np.split(np.arange(len(target)), list(sizes)):
        rows = torch.as_tensor(rows)
        weight = {} if sample_weight is None else {"sample_weight": sample_weight[rows]}
        metric.update(preds[rows], target[rows], **weight)
    return metric


def _numpy(tensor):
    return tensor.detach().cpu().numpy()


@pytest.mark.parametrize("case", MULTICLASS)
@pytest.mark.parametrize("weighting", ["uniform", "true"])
def test_transport_matrix_is_the_library_s_on_the_concatenation(case, weighting):
    preds, target = _targets(case)
    weight = torch.as_tensor(np.random.default_rng(1).uniform(0.5, 2, len(target)))
    metric = _in_batches(TransportConfusionMatrix(N_CLASSES, weighting=weighting),
                         preds, target, sample_weight=weight)
    labels = np.arange(N_CLASSES) if target.ndim == 1 or preds.ndim == 1 else None
    expected = sce.transport_confusion_matrix(target.numpy(), preds.numpy(), labels=labels,
                                              weighting=weighting, sample_weight=weight.numpy())
    if case == "one_hot":  # read as multi-label indicators: an empty "none" class
        np.testing.assert_array_equal(expected[-1], 0)
        expected = expected[:-1, :-1]
    result = metric.compute()
    assert isinstance(result, torch.Tensor) and result.dtype == torch.float64
    # a one-hot target is soft labels under task="multiclass": (C, C), no "none" class, as
    # the accumulator declared so reads it
    assert result.shape == (N_CLASSES, N_CLASSES)
    if target.ndim == 2:
        accumulator = sce.ConfusionAccumulator("transport", target_kind="soft",
                                               weighting=weighting, labels=labels)
        np.testing.assert_allclose(
            accumulator.update(target.numpy(), preds.numpy(), weight.numpy()).result(),
            expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_numpy(result), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_multilabel_transport_matrix_has_the_none_class(normalize):
    preds, target = _targets("multilabel")
    metric = _in_batches(TransportConfusionMatrix(N_CLASSES, task="multilabel",
                                                  normalize=normalize), preds, target)
    expected = sce.transport_confusion_matrix(target.numpy(), preds.numpy(),
                                              normalize=normalize)
    assert expected.shape == (N_CLASSES + 1, N_CLASSES + 1) and expected[-1].sum() > 0
    np.testing.assert_allclose(_numpy(metric.compute()), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_thresholds_probabilities_and_is_the_library_s(method):
    preds, target = _targets("multilabel")
    metric = _in_batches(MLCM(N_CLASSES, method=method, threshold=0.6), preds, target)
    expected = sce.mlcm(target.numpy(), (preds.numpy() > 0.6).astype(int), method=method)
    np.testing.assert_allclose(_numpy(metric.compute()), expected, rtol=1e-12)
    # 0/1 integer predictions are taken as they are
    hard = (preds > 0.6).to(torch.int64)
    again = MLCM(N_CLASSES, method=method, normalize="true")
    again.update(hard, target)
    np.testing.assert_allclose(
        _numpy(again.compute()),
        sce.mlcm(target.numpy(), hard.numpy(), method=method, normalize="true"), rtol=1e-12)


@pytest.mark.parametrize("average", [None, "macro", "micro", "weighted"])
def test_f1_scores_are_the_library_s(average):
    preds, target = _targets("probabilities")
    metric = _in_batches(TransportF1Score(N_CLASSES, average=average,
                                                    zero_division=0.0), preds, target)
    _, _, f1, _ = sce.transport_precision_recall_fscore_support(
        target.numpy(), preds.numpy(), labels=np.arange(N_CLASSES), average=average,
        zero_division=0.0)
    np.testing.assert_allclose(_numpy(metric.compute()), f1, rtol=1e-12)

    preds, target = _targets("multilabel")
    metric = _in_batches(MLCMF1Score(N_CLASSES, average=average, zero_division=0.0), preds, target)
    _, _, f1, _ = sce.mlcm_precision_recall_fscore_support(
        target.numpy(), (preds.numpy() > 0.5).astype(int), average=average,
        zero_division=0.0)
    np.testing.assert_allclose(_numpy(metric.compute()), f1, rtol=1e-12)

    metric = _in_batches(TransportF1Score(N_CLASSES, task="multilabel", average=average,
                                          zero_division=0.0),
                         preds, target)
    _, _, f1, _ = sce.transport_precision_recall_fscore_support(
        target.numpy(), preds.numpy(), average=average, zero_division=0.0)
    np.testing.assert_allclose(_numpy(metric.compute()), f1, rtol=1e-12)


def test_update_takes_preds_first_as_torchmetrics():
    # every instance of class 0 predicted 1: cell (0, 1), rows true classes
    preds, target = torch.tensor([1, 1, 1, 2]), torch.tensor([0, 0, 1, 2])
    metric = TransportConfusionMatrix(3)
    metric.update(preds, target)
    theirs = torchmetrics.classification.MulticlassConfusionMatrix(num_classes=3)
    theirs.update(preds, target)
    expected = np.array([[0, 2, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(_numpy(metric.compute()), expected)
    np.testing.assert_array_equal(_numpy(theirs.compute()), expected)
    # the accumulator is scikit-learn's order: the same matrix from (y_true, y_pred)
    accumulator = sce.ConfusionAccumulator("classic", labels=[0, 1, 2])
    np.testing.assert_array_equal(accumulator.update(target, preds).result(), expected)


def test_equals_torchmetrics_confusion_matrix_on_labels():
    preds, target = _targets("labels", n=500)
    metric = _in_batches(TransportConfusionMatrix(N_CLASSES), preds, target, (100, 350))
    theirs = _in_batches(torchmetrics.classification.MulticlassConfusionMatrix(N_CLASSES),
                         preds, target, (100, 350))
    np.testing.assert_array_equal(_numpy(metric.compute()), _numpy(theirs.compute()))


def _halves(metric_type, case, **options):
    preds, target = _targets(case)
    whole, first, second = (metric_type(N_CLASSES, **options) for _ in range(3))
    whole.update(preds, target)
    first.update(preds[:25], target[:25])
    second.update(preds[25:], target[25:])
    return whole, first, second


@pytest.mark.parametrize("metric_type, case, options", [
    (TransportConfusionMatrix, "soft", {}),
    (TransportConfusionMatrix, "multilabel", {"task": "multilabel"}),
    (MLCM, "multilabel", {}),
    (TransportF1Score, "probabilities", {}),
])
def test_states_of_two_processes_sum(metric_type, case, options):
    whole, first, second = _halves(metric_type, case, **options)
    expected = _numpy(whole.compute())

    # torchmetrics' own sync, with a gather that hands back two processes' states
    def gather(tensor, group=None):
        return [tensor, getattr(second, name_of[id(tensor)])]

    name_of = {id(getattr(first, name)): name for name in first._defaults}
    local = {name: getattr(first, name).clone() for name in first._defaults}
    first.sync(dist_sync_fn=gather, distributed_available=lambda: True)
    for name in first._defaults:
        np.testing.assert_allclose(_numpy(getattr(first, name)), _numpy(getattr(whole, name)),
                                   rtol=1e-12)
    first.unsync()
    for name in first._defaults:
        np.testing.assert_array_equal(_numpy(getattr(first, name)), _numpy(local[name]))

    if not hasattr(first, "merge_state"):  # torchmetrics >= 1.5
        return
    first.merge_state(second)
    np.testing.assert_allclose(_numpy(first.compute()), expected, rtol=1e-12)
    assert all(first._reductions[name] is not None for name in first._defaults)


def _ddp_worker(rank, path):
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{path}", rank=rank, world_size=2)
    preds, target = _targets("probabilities")
    rows = slice(0, 25) if rank == 0 else slice(25, None)
    metric = TransportConfusionMatrix(N_CLASSES)
    metric.update(preds[rows], target[rows])
    result = metric.compute()  # synchronized across the two processes
    torch.save(result, f"{path}.{rank}")
    dist.destroy_process_group()


@pytest.mark.slow  # 10-50 s: each process imports PyTorch, torchmetrics and the package
def test_ddp_with_two_processes_on_the_cpu(tmp_path):
    import torch.distributed as dist
    import torch.multiprocessing as mp

    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("this PyTorch build has no gloo backend")  # a test's own decision
    path = str(tmp_path / "rendezvous")
    mp.spawn(_ddp_worker, args=(path,), nprocs=2, join=True)
    preds, target = _targets("probabilities")
    expected = sce.transport_confusion_matrix(target.numpy(), preds.numpy())
    for rank in range(2):
        np.testing.assert_allclose(_numpy(torch.load(f"{path}.{rank}")), expected,
                                   rtol=1e-12)


def test_reset_forgets_and_compute_before_update_is_refused():
    preds, target = _targets("labels")
    metric = TransportConfusionMatrix(N_CLASSES)
    with pytest.raises(ValueError, match="before any update"), pytest.warns(
            UserWarning, match="called before the ``update``"):  # torchmetrics' warning
        metric.compute()
    metric.update(preds, target)
    metric.reset()
    assert not metric.confmat.any() and float(metric.n_samples) == 0
    metric.update(preds[:5], target[:5])
    np.testing.assert_array_equal(
        _numpy(metric.compute()),
        sce.transport_confusion_matrix(target[:5].numpy(), preds[:5].numpy(),
                                       labels=np.arange(N_CLASSES)))


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda m: pickle.loads(pickle.dumps(m))])
def test_copies_keep_the_state_and_options(copier):
    preds, target = _targets("multilabel")
    metric = MLCM(N_CLASSES, method="krstinic", threshold=0.3, normalize="pred")
    metric.update(preds, target)
    copied = copier(metric)
    np.testing.assert_array_equal(_numpy(copied.compute()), _numpy(metric.compute()))
    copied.update(preds, target)  # the copy goes on alone; its options came along
    expected = sce.mlcm(np.vstack([target.numpy()] * 2),
                        np.vstack([(preds.numpy() > 0.3).astype(int)] * 2),
                        method="krstinic", normalize="pred")
    np.testing.assert_allclose(_numpy(copied.compute()), expected, rtol=1e-12)


def test_float32_inputs_and_a_float32_state():
    preds, target = _targets("probabilities")
    metric = TransportConfusionMatrix(N_CLASSES)
    metric.update(preds.to(torch.float32), target)
    expected = sce.transport_confusion_matrix(target.numpy(), preds.numpy().astype(np.float32),
                                              labels=np.arange(N_CLASSES))
    np.testing.assert_allclose(_numpy(metric.compute()), expected, rtol=1e-12)
    metric.set_dtype(torch.float32)
    assert metric.compute().dtype == torch.float32
    np.testing.assert_allclose(_numpy(metric.compute()), expected, rtol=1e-6)
    metric.to("cpu")
    assert metric.compute().device.type == "cpu"


def test_refusals_name_the_argument():
    metric = TransportConfusionMatrix(3)
    with pytest.raises(ValueError, match=r"target holds class labels outside 0..2"):
        metric.update(torch.tensor([0, 1]), torch.tensor([0, 3]))
    with pytest.raises(ValueError, match=r"preds holds class labels outside 0..2 \(min -1, "):
        metric.update(torch.tensor([-1.0, 1.0]), torch.tensor([0, 1]))
    with pytest.raises(ValueError, match=r"preds has 4 columns; num_classes=3"):
        metric.update(torch.ones(2, 4) / 4, torch.tensor([0, 1]))
    with pytest.raises(ValueError, match=r"task='multilabel' takes \(N, 3\)"):
        TransportConfusionMatrix(3, task="multilabel").update(torch.tensor([0]),
                                                              torch.tensor([0]))
    with pytest.raises(ValueError, match=r"preds holds values outside \[0, 1\]"):
        MLCM(2).update(torch.tensor([[2.0, -1.0]]), torch.tensor([[1, 0]]))
    assert float(metric.n_samples) == 0  # nothing was added
    for bad in ({"num_classes": 0}, {"num_classes": 3, "task": "binary"},
                {"num_classes": 3, "normalize": "rows"}):
        with pytest.raises((ValueError, TypeError), match=next(iter(bad.keys() - {"num_classes"}),
                                                               "num_classes")):
            TransportConfusionMatrix(**bad)
    with pytest.raises(ValueError, match="threshold"):
        MLCM(2, threshold=1.5)


def test_the_package_never_imports_torchmetrics():
    code = ("import sys, sklearn_confusion_ext; "
            "print('torchmetrics' in sys.modules, 'torch' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=120)
    assert result.stdout.split() == ["False", "False"]
    assert "TransportConfusionMatrix" not in sce.__all__


@pytest.mark.parametrize("name", sce.torch.__all__ if hasattr(sce, "torch") else
                         ["TransportConfusionMatrix", "TransportF1Score", "MLCM",
                          "MLCMF1Score"])
def test_public_classes_have_numpydoc_with_examples(name):
    import inspect

    import sklearn_confusion_ext.torch as public

    public_class = getattr(public, name)
    assert public_class.__module__.startswith("sklearn_confusion_ext._")
    doc = inspect.getdoc(public_class)
    for section in ("Parameters", "Examples", "References"):
        assert f"\n{section}\n" in doc, (name, section)
    assert issubclass(public_class, torchmetrics.Metric)
