"""Independent items of one command on every core the process may use: a forked worker pool
that keeps the results in item order.

The pipeline's commands run one after another under ``dvc repro`` (DVC runs one stage at a
time), so a command whose items are independent (one system's scores, one figure's SVG)
leaves the second core idle. :func:`fork_map` runs them in forked workers: each worker
inherits what the parent loaded (resources, databases, imported modules) without pickling it,
and only each item's return value travels back. Every item is computed by the same function
on the same inputs as in one process, so the files written are the same bytes; the parent
receives the results in item order (log lines keep their order too).

The worker count is the number of cores the process may run on (``os.sched_getaffinity``),
or ``MWZREPRO_JOBS`` when set (``1``: no pool, everything in this process). A worker's
exception is raised in the parent (a :class:`~mwzrepro.core.errors.MwzreproError` keeps its
one-line message); a worker that dies (killed, out of memory) fails the call
(``BrokenProcessPool``) instead of leaving it waiting.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from mwzrepro.core.gc_pause import frozen

__all__ = ["fork_map", "worker_count"]

T = TypeVar("T")

#: The function and items of the running :func:`fork_map` (inherited by forked workers, so
#: neither needs to be picklable).
_TASK: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def worker_count(items: int, jobs: int | None = None) -> int:
    """Workers for ``items`` independent items: ``jobs`` when given (a command's ``--jobs``),
    else ``MWZREPRO_JOBS`` when set, else the cores this process may use; never more than
    ``items``, at least 1.

    >>> worker_count(5, jobs=2)
    2

    >>> worker_count(1)
    1
    >>> worker_count(0)
    1

    Raises:
        ConfigError: ``MWZREPRO_JOBS`` is not a positive integer.
    """
    setting = str(jobs) if jobs is not None else os.environ.get("MWZREPRO_JOBS", "").strip()
    if setting:
        if not setting.isdigit() or int(setting) < 1:
            from mwzrepro.core.errors import ConfigError

            raise ConfigError(f"{'--jobs' if jobs is not None else 'MWZREPRO_JOBS'}: "
                              f"{setting!r} is not a positive integer")
        cores = int(setting)
    else:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    return max(1, min(cores, items))


def _run(index: int) -> Any:
    assert _TASK is not None
    func, items = _TASK
    return func(items[index])


def fork_map(func: Callable[[Any], T], items: Sequence[Any],
             jobs: int | None = None, meanwhile: Callable[[], Any] | None = None) -> list[T]:
    """``[func(item) for item in items]``, computed in forked workers when more than one
    core is available (:func:`worker_count`); results in item order. ``func`` may be a
    closure (workers inherit it); its return values must be picklable. ``jobs``: the worker
    count (default: :func:`worker_count`'s). ``meanwhile``: work of this process that the
    workers do not need (an import for what comes after, say), run here once every worker
    is forked, while they work (without workers: after the items).

    >>> fork_map(lambda x: x * x, [1, 2, 3])
    [1, 4, 9]
    >>> done = []
    >>> fork_map(lambda x: x + 1, [1, 2], jobs=2, meanwhile=lambda: done.append("here"))
    [2, 3]
    >>> done
    ['here']

    Raises:
        whatever ``func`` raises for the first failing item the parent collects.
    """
    global _TASK
    items = list(items)
    jobs = worker_count(len(items), jobs)
    if jobs == 1 or "fork" not in _start_methods():
        out = [func(item) for item in items]
        if meanwhile is not None:
            meanwhile()
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _TASK = (func, items)
    # The workers' collections never traverse what they inherit (core.gc_pause.frozen).
    try:  # an executor, not a Pool: a worker that dies fails the call instead of hanging it
        with frozen(), ProcessPoolExecutor(
                jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            results = pool.map(_run, range(len(items)))  # every item submitted: all forked
            if meanwhile is not None:
                meanwhile()
            return list(results)
    finally:
        _TASK = None


def _start_methods() -> list[str]:
    import multiprocessing

    return multiprocessing.get_all_start_methods()
