"""mwzrepro.core.gc_pause: the collector is off inside, restored after (also after an
exception), and an inner block does not turn it back on."""

from __future__ import annotations

import gc

import pytest

from mwzrepro.core.gc_pause import paused_gc


@pytest.fixture(autouse=True)
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_restored_after_an_exception():
    with pytest.raises(ValueError), paused_gc():
        assert not gc.isenabled()
        raise ValueError("bad input")
    assert gc.isenabled()


def test_nested_blocks_keep_it_off_until_the_outermost_ends():
    with paused_gc():
        with paused_gc():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_freeze_moves_what_the_block_kept_out_of_the_collector_and_restores_it():
    gc.unfreeze()
    with paused_gc(freeze=True):
        kept = [{"slot": i} for i in range(100)]
    try:
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(kept)  # the block's objects are frozen
        assert gc.get_count()[0] < len(kept)  # nothing left for the next young collection
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0


def test_freeze_at_exit_registers_gc_freeze_once(monkeypatch):
    import atexit

    from mwzrepro.core.gc_pause import freeze_at_exit

    registered = []
    monkeypatch.setattr(atexit, "register", registered.append)
    freeze_at_exit.cache_clear()
    freeze_at_exit()
    freeze_at_exit()  # main() runs many times in one test process
    assert registered == [gc.freeze]


def test_frozen_keeps_what_was_frozen_before():
    from mwzrepro.core.gc_pause import frozen

    gc.unfreeze()
    try:
        with frozen():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() == 0  # thawed: nothing was frozen before
        gc.freeze()
        before = gc.get_freeze_count()
        with frozen():
            pass
        assert gc.get_freeze_count() >= before  # still frozen: it was before the block
    finally:
        gc.unfreeze()
