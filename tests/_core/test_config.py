"""The package's settings: the memory budget of a result (``max_matrix_mib``)."""

import threading

import numpy as np
import pytest

import sklearn_confusion_ext as sce


def test_defaults_and_process_wide_setting():
    assert sce.get_config() == {"max_matrix_mib": 1024}
    sce.set_config(max_matrix_mib=2048)
    assert sce.get_config()["max_matrix_mib"] == 2048
    sce.set_config()  # None leaves it unchanged
    assert sce.get_config()["max_matrix_mib"] == 2048


def test_context_nests_restores_and_stays_in_its_thread():
    seen = {}

    def other_thread():
        seen["other"] = sce.get_config()["max_matrix_mib"]

    with sce.config_context(max_matrix_mib=5):
        with sce.config_context(max_matrix_mib=7):
            assert sce.get_config()["max_matrix_mib"] == 7
            thread = threading.Thread(target=other_thread)
            thread.start()
            thread.join()
        assert sce.get_config()["max_matrix_mib"] == 5
        with pytest.raises(RuntimeError), sce.config_context(max_matrix_mib=9):
            raise RuntimeError
        assert sce.get_config()["max_matrix_mib"] == 5
    assert sce.get_config()["max_matrix_mib"] == 1024
    assert seen["other"] == 1024


def test_two_labels_and_a_hundred_thousand_classes_are_refused_up_front():
    with pytest.raises(ValueError, match=r"74\.5 GiB \(1 matrix of 100000 x 100000 classes\)"):
        sce.transport_confusion_matrix([0, 1], [0, 1], labels=range(10 ** 5))


def test_raising_the_budget_lets_the_matrix_through():
    with sce.config_context(max_matrix_mib=1), pytest.raises(ValueError, match="max_matrix_mib"):
        sce.mlcm([[1, 0] * 300], [[0, 1] * 300])
    with sce.config_context(max_matrix_mib=4):
        assert sce.mlcm([[1, 0] * 300], [[0, 1] * 300]).shape == (601, 601)


def test_two_matrix_results_count_both():
    # subpixel bounds and the MLCT tensor are two matrices: 2 x 363 x 363 float64 > 2 MiB
    y = np.eye(362, dtype=int)[:3]
    with sce.config_context(max_matrix_mib=2):
        sce.transport_confusion_matrix(y, y)
        for function in (sce.subpixel_confusion_matrix, sce.multilabel_confusion_tensor):
            with pytest.raises(ValueError, match=r"2 matrices of 363 x 363"):
                function(y, y)


def test_transport_plan_and_posterior_draws_are_budgeted():
    with sce.config_context(max_matrix_mib=1):
        with pytest.raises(ValueError, match="transport_plan.*Pass shorter rows"):
            sce.transport_plan(np.ones(400), np.ones(400))
        posterior = sce.dirichlet_posterior([[5, 1], [2, 7]])
        with pytest.raises(ValueError, match=r"rvs.*Draw fewer matrices \(size=\)"):
            posterior.rvs(size=10 ** 6)
        assert posterior.rvs(size=1000, random_state=0).shape == (1000, 2, 2)


def test_batches_of_distinct_classes_cannot_grow_the_sum_past_the_budget():
    accumulator = sce.ConfusionAccumulator("classic")
    with sce.config_context(max_matrix_mib=1):
        accumulator.update(np.arange(300), np.arange(300))
        with pytest.raises(ValueError, match="the sum of the batches.*share their classes"):
            accumulator.update(np.arange(300, 600), np.arange(300, 600))
    assert accumulator.result().shape == (300, 300)
