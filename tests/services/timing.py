"""Seconds spent by the service tests, printed at the end of the session by
``tests/services/conftest.py`` (what the services add to CI time, issue 13)."""

from __future__ import annotations

import time

#: Seconds of each timed step ({what: seconds}), in the order they happened: installs,
#: server starts, pushes, round trips, the SLURM run.
TIMINGS: dict[str, float] = {}


class Timer:
    """``with Timer("lab-ssh: dvc push"):`` records the block's seconds in :data:`TIMINGS`
    (also when the block fails)."""

    def __init__(self, what: str):
        self.what = what

    def __enter__(self) -> Timer:
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        TIMINGS[self.what] = time.perf_counter() - self.t0
