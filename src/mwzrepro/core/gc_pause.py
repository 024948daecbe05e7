"""Scoring without Python's cyclic garbage collector running in the middle.

Scoring allocates millions of small tuples, dicts and strings (n-gram counts, states,
tokens) while the version's resources — gold states, references, their n-gram counts,
several million long-lived objects — sit in memory. Each allocation burst triggers
collections, and every full collection traverses all those long-lived objects again: about
4 of 14 s for the 19 public files. Scoring creates almost no reference cycles (reference
counting frees its temporaries), so :func:`paused_gc` turns the collector off for the
duration of one call and restores it afterwards; the next automatic collection then frees
whatever cycles the call left.

>>> import gc
>>> before = gc.isenabled()
>>> with paused_gc():
...     gc.isenabled()
False
>>> gc.isenabled() == before
True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic garbage collector inside the block; re-enable it on exit (also on
    an exception) if it was enabled before. Nested use keeps it off until the outermost
    block ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
