"""Seconds spent by the service tests, printed at the end of the session by
``tests/conftest.py`` (what the services add to CI time, issue 13).

Under pytest-xdist each worker times its own steps: at its session's end it saves them
(:func:`save`) in the run's shared directory, where the controller reads them all
(:func:`collected`) for the summary.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

#: Seconds of each timed step ({what: seconds}), in the order they happened: installs,
#: server starts, pushes, round trips, the SLURM run.
TIMINGS: dict[str, float] = {}
#: The saved timings of one worker: ``service-timings-<worker id>.json`` in the run directory.
PATTERN = "service-timings-{}.json"


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


def save(run_dir: Path, worker: str) -> None:
    """Write this process's :data:`TIMINGS` (if any) for :func:`collected`."""
    if TIMINGS:
        (run_dir / PATTERN.format(worker)).write_text(json.dumps(TIMINGS))


def collected(run_dir: Path) -> dict[str, float]:
    """:data:`TIMINGS` of this process and of every worker that saved its own."""
    out = dict(TIMINGS)
    for path in sorted(run_dir.glob(PATTERN.format("*"))):
        out.update(json.loads(path.read_text()))
    return out
