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
