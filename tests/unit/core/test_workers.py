"""mwzrepro.core.workers: results in item order from forked workers, a worker's error raised
in the parent with its message, files written by workers, MWZREPRO_JOBS."""

from __future__ import annotations

import os

import pytest

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.workers import fork_map, worker_count


def test_results_in_item_order_from_other_processes(monkeypatch):
    monkeypatch.setenv("MWZREPRO_JOBS", "2")
    parent = os.getpid()
    out = fork_map(lambda x: (x * 10, os.getpid() != parent), [3, 1, 2, 5])
    assert [v for v, _ in out] == [30, 10, 20, 50]
    assert all(forked for _, forked in out)


def test_closure_writes_files(tmp_path, monkeypatch):
    monkeypatch.setenv("MWZREPRO_JOBS", "2")
    fork_map(lambda name: (tmp_path / name).write_text(name.upper()), ["a", "b", "c"])
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["A", "B", "C"]


def test_workers_see_the_parents_objects_frozen_and_the_parent_gets_them_back(monkeypatch):
    """The parent's objects are in the permanent generation while the workers run (their
    collections skip them) and collectable again afterwards."""
    import gc

    monkeypatch.setenv("MWZREPRO_JOBS", "2")
    gc.unfreeze()  # an earlier test in this process may have frozen (mwzrepro score)
    counts = fork_map(lambda _: gc.get_freeze_count(), [1, 2])
    assert min(counts) > 1000
    assert gc.get_freeze_count() == 0


def test_worker_error_keeps_its_type_and_message(monkeypatch):
    monkeypatch.setenv("MWZREPRO_JOBS", "2")

    def check(x):
        if x == 2:
            raise InputError(f"preds.json: dialogue D{x} turn 0: 'response' is missing")
        return x

    with pytest.raises(InputError, match="dialogue D2 turn 0"):
        fork_map(check, [1, 2, 3])


def test_one_job_runs_in_this_process(monkeypatch):
    monkeypatch.setenv("MWZREPRO_JOBS", "1")
    assert fork_map(lambda _: os.getpid(), [1, 2]) == [os.getpid()] * 2


def test_worker_count(monkeypatch):
    monkeypatch.setenv("MWZREPRO_JOBS", "3")
    assert (worker_count(10), worker_count(2), worker_count(0)) == (3, 2, 1)
    monkeypatch.setenv("MWZREPRO_JOBS", "0")
    with pytest.raises(ConfigError, match="MWZREPRO_JOBS"):
        worker_count(4)


def test_a_dead_worker_fails_the_call(monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    monkeypatch.setenv("MWZREPRO_JOBS", "2")
    with pytest.raises(BrokenProcessPool):
        fork_map(lambda x: os._exit(3) if x == 2 else x, [1, 2, 3])
