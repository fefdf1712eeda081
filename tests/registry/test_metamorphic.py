"""Metamorphic relations of every matrix kind, generated from the registry: the targets
split into pieces of every composition (accumulator batches, Dask blocks) give the one-shot
result; pickled accumulators merge; duplicating the instances doubles the counts.

The pieces are chosen so that some of them are all 0/1 while the whole input is not (soft
labels or probabilities whose first rows are one-hot): the target kind is decided once for
the whole input, never per piece.
"""

import itertools
import pickle
import warnings

import numpy as np
import pytest
from kinds import one_shot

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._core.kinds import KINDS

N_SAMPLES = 6
FORMS = ("labels", "probabilities", "multilabel", "soft")
# Each kind with its defaults and with other values of its own parameters.
OTHER_PARAMS = {"transport": {"weighting": "true", "empty": "skip"},
                "subpixel": {"weighting": "pred"}, "mlct": {"unique": False}}
CASES = [(kind, params) for kind in sorted(KINDS)
         for params in ({}, OTHER_PARAMS.get(kind)) if params is not None]


def _compositions(n):
    """Every composition of ``n`` (ordered sizes of consecutive pieces)."""
    for cuts in itertools.product((False, True), repeat=n - 1):
        sizes, size = [], 1
        for cut in cuts:
            if cut:
                sizes.append(size)
                size = 0
            size += 1
        yield tuple(sizes + [size])


COMPOSITIONS = list(_compositions(N_SAMPLES))
# For Dask (each costs a graph): one block, an all-0/1 first block, single rows, uneven.
DASK_COMPOSITIONS = [(6,), (2, 4), (1, 1, 4), (3, 3), (1, 2, 3), (4, 2)]


def _targets(form, seed=0):
    """``(y_true, y_pred, sample_weight)`` of ``N_SAMPLES`` rows; the first two rows of
    soft labels and probabilities are one-hot, so the pieces (2, ...) hold a piece of
    0/1 values only; the indicators have an instance without a class."""
    rng = np.random.default_rng(seed)
    names = np.array(["ant", "bee", "cat"])
    weights = rng.random(N_SAMPLES) + 0.5

    def soft():
        rows = rng.dirichlet(np.ones(3), N_SAMPLES)
        rows[:2] = np.eye(3)[[2, 0]]
        return rows

    if form == "labels":
        return names[[0, 1, 2, 1, 0, 2]], names[[0, 2, 2, 1, 1, 0]], weights
    if form == "probabilities":
        return names[[2, 1, 0, 1, 0, 2]], soft(), weights
    if form == "multilabel":
        y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 0], [0, 0, 1], [1, 0, 0]])
        y_pred = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]])
        return y_true, y_pred, weights
    return soft(), soft()[::-1], weights


def _one_shot(kind, y_true, y_pred, weights, params):
    """The one-shot function's result, or the ValueError it raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # empty="skip" warns
            return one_shot(kind, y_true, y_pred, weights, None, params)
    except ValueError as error:
        return error


def _pieces(composition):
    stops = np.cumsum(composition)
    return [slice(stop - size, stop) for size, stop in zip(composition, stops)]


def _accumulated(kind, params, y_true, y_pred, weights, composition):
    # Labels beside probabilities: the class of each column, for pieces without some class.
    labels = ["ant", "bee", "cat"] if y_true.ndim != y_pred.ndim else None
    accumulator = sce.ConfusionAccumulator(kind, labels=labels, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rows in _pieces(composition):
            accumulator.update(y_true[rows], y_pred[rows], sample_weight=weights[rows])
        return accumulator, accumulator.result()


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("kind, params", CASES)
def test_batches_of_every_composition_equal_one_shot(kind, params, form):
    y_true, y_pred, weights = _targets(form)
    expected = _one_shot(kind, y_true, y_pred, weights, params)
    for composition in COMPOSITIONS:
        if isinstance(expected, ValueError):  # a kind that does not take the form
            with pytest.raises(ValueError):
                _accumulated(kind, params, y_true, y_pred, weights, composition)
            continue
        accumulator, got = _accumulated(kind, params, y_true, y_pred, weights, composition)
        np.testing.assert_allclose(got, expected, atol=1e-12, err_msg=str(composition))
        assert accumulator.n_samples_ == N_SAMPLES


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("kind, params", CASES)
def test_dask_blocks_of_several_compositions_equal_one_shot(kind, params, form):
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    y_true, y_pred, weights = _targets(form)
    expected = _one_shot(kind, y_true, y_pred, weights, params)
    function = getattr(sce, KINDS[kind].function)
    options = {**params, **({"method": "krstinic"} if kind == "mlcm_krstinic" else {})}
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for composition in DASK_COMPOSITIONS:
            true, pred, weight = (da.from_array(y, chunks=(composition,) + y.shape[1:])
                                  for y in (y_true, y_pred, weights))
            if isinstance(expected, ValueError):
                with pytest.raises(ValueError):
                    _built(kind, function, true, pred, weight, options)
                continue
            got = _built(kind, function, true, pred, weight, options)
            np.testing.assert_allclose(got, expected, atol=1e-12, err_msg=str(composition))


def _built(kind, function, y_true, y_pred, weights, options):
    if kind == "classic":  # no function of its own: the accumulator's Dask path
        return sce.ConfusionAccumulator("classic").update(
            y_true, y_pred, sample_weight=weights).result()
    return function(y_true, y_pred, sample_weight=weights, **options)


# The kinds with the forms their one-shot function takes.
TAKEN = [(kind, params, form) for kind, params in CASES for form in FORMS
         if not isinstance(_one_shot(kind, *_targets(form), params), ValueError)]


@pytest.mark.parametrize("kind, params, form", TAKEN)
def test_pickled_copies_merge_and_duplicated_instances_double_the_counts(kind, params, form):
    cloudpickle = pytest.importorskip("cloudpickle")
    y_true, y_pred, weights = _targets(form)
    expected = _one_shot(kind, y_true, y_pred, weights, params)
    doubled = _one_shot(kind, np.concatenate([y_true, y_true]),
                        np.concatenate([y_pred, y_pred]), np.concatenate([weights, weights]),
                        params)
    np.testing.assert_allclose(doubled, 2 * np.asarray(expected), atol=1e-12)
    accumulator, _ = _accumulated(kind, params, y_true, y_pred, weights, (2, 1, 3))
    for dumps in (pickle.dumps, cloudpickle.dumps):
        copy = pickle.loads(dumps(accumulator))
        for total in (accumulator + copy, copy + accumulator):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                np.testing.assert_allclose(total.result(), doubled, atol=1e-12)
            assert total.n_samples_ == 2 * N_SAMPLES


@pytest.mark.parametrize("kind, params", [(kind, params) for kind, params, form in TAKEN
                                          if form == "soft"])
def test_pieces_read_one_kind_in_every_order_of_workers(kind, params):
    """Workers that each saw a piece (one all 0/1, one soft) merge in either order to the
    one-shot result; a declared target_kind refuses a piece of the other kind."""
    y_true, y_pred, weights = _targets("soft")
    expected = _one_shot(kind, y_true, y_pred, weights, params)
    parts = [_accumulated(kind, params, y_true[rows], y_pred[rows], weights[rows],
                          (rows.stop - rows.start,))[0] for rows in _pieces((2, 4))]
    for left, right in (parts, parts[::-1]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose((left + right).result(), expected, atol=1e-12)
    declared = sce.ConfusionAccumulator(kind, target_kind="multilabel", **params)
    declared.update(y_true[:2], y_pred[:2])
    with pytest.raises(ValueError, match="target_kind='multilabel' declares 2-D y_true of "
                                         "0/1 multi-label indicators"):
        declared.update(y_true[2:], y_pred[2:])
    assert declared.n_samples_ == 2


@pytest.mark.parametrize("form", ["probabilities", "soft"])
def test_dask_blocks_of_every_composition_of_soft_rows_equal_one_shot(form):
    """Every composition of the rows into Dask blocks, among them blocks of one-hot rows
    only, for the builder whose targets may be soft (the others run on several above)."""
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    y_true, y_pred, weights = _targets(form)
    expected = _one_shot("transport", y_true, y_pred, weights, {})
    with dask.config.set(scheduler="synchronous"):
        for composition in COMPOSITIONS:
            true, pred, weight = (da.from_array(y, chunks=(composition,) + y.shape[1:])
                                  for y in (y_true, y_pred, weights))
            got = sce.transport_confusion_matrix(true, pred, sample_weight=weight)
            np.testing.assert_allclose(got, expected, atol=1e-12, err_msg=str(composition))
