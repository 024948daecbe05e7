"""Scoring without Python's cyclic garbage collector running in the middle.

Scoring allocates millions of small tuples, dicts and strings (n-gram counts, states,
tokens) while the version's resources — gold states, references, their n-gram counts,
several million long-lived objects — sit in memory. Each allocation burst triggers
collections, and every full collection traverses all those long-lived objects again: about
4 of 14 s for the 19 public files. Scoring creates almost no reference cycles (reference
counting frees its temporaries), so :func:`paused_gc` turns the collector off for the
duration of one call and restores it afterwards; the next automatic collection then frees
whatever cycles the call left.

Re-enabling has a cost of its own: every object allocated during the pause still sits in the
youngest generation, so the first allocation after :func:`gc.enable` starts a collection that
traverses them all (0.15 s after one ``mwzrepro score``, the resources it loaded included).
``paused_gc(freeze=True)`` moves them to the permanent generation first (:func:`gc.freeze`):
for a process that keeps what it loaded (the command line's one scoring) the collector then
never traverses them again, neither after the block nor in the interpreter's final
collection at exit (which otherwise traversed the resources only to free them: 0.3 s after
``mwzrepro score``); cycles among them are freed only by :func:`gc.unfreeze` and a
collection, so the library's :meth:`~mwzrepro.scorer.evaluator.Evaluator.evaluate`, called in
loops, does not freeze.

Two more policies live here, for whole processes: :func:`freeze_at_exit` (a command's
interpreter skips its final traversal of everything the command loaded) and :func:`frozen`
(a parent's objects stay out of the collections of the workers it forks).

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
from functools import cache

__all__ = ["paused_gc", "frozen", "freeze_at_exit"]


@contextmanager
def paused_gc(freeze: bool = False) -> Iterator[None]:
    """Disable the cyclic garbage collector inside the block; re-enable it on exit (also on
    an exception) if it was enabled before. Nested use keeps it off until the outermost
    block ends. ``freeze``: on exit, first move every tracked object to the permanent
    generation (:func:`gc.freeze`; module docstring) — for a process's one long call.

    >>> import gc
    >>> with paused_gc(freeze=True):
    ...     kept = [[] for _ in range(3)]
    >>> gc.get_freeze_count() >= 3
    True
    >>> gc.unfreeze()
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def frozen() -> Iterator[None]:
    """Move every tracked object to the permanent generation (:func:`gc.freeze`) for the
    block: processes forked inside it never traverse (nor copy, on write) the inherited
    objects in their collections. Afterwards the objects are collectable again, unless
    something had frozen objects before the block (then they stay frozen).

    >>> import gc
    >>> with frozen():
    ...     gc.get_freeze_count() > 0
    True
    """
    thaw = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        yield
    finally:
        if thaw:
            gc.unfreeze()


@cache
def freeze_at_exit() -> None:
    """At interpreter exit, before its final garbage collection, freeze every object
    (:func:`gc.freeze`): that collection would otherwise traverse everything a command
    imported and loaded (pandas, pyarrow, matplotlib, the resources) only for the process to
    end, 0.1–0.2 s of every pipeline command. Registered once per process (later calls do
    nothing); nothing changes for a caller that goes on running."""
    import atexit

    atexit.register(gc.freeze)
