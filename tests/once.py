"""Expensive fixtures built once per test run, whatever the number of pytest-xdist workers.

``make test`` runs the suite with ``pytest -n auto``: each worker is its own process with its
own session fixtures and its own temporary directory (``tmp_path_factory.getbasetemp()`` is
``.../pytest-N/popen-gwK``). A fixture that builds something big and read-only (the built
workspace, the published BLEU spine) goes through :func:`build_once`: the first worker to
ask builds it in a directory of the run shared by every worker (``.../pytest-N``), under a
file lock; the others wait for the lock and reuse it. A build that skips or fails is
recorded, so that the other workers skip or fail at once with the same reason instead of
building again. Without xdist the shared directory is the session's own temporary directory.
"""

from __future__ import annotations

import json
import os
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

#: Seconds a worker waits for another worker's build before failing (the slowest build, the
#: reduced workspace, takes a few minutes on a loaded two-core machine).
WAIT_SECONDS = 3600


def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary directory of this test run shared by every xdist worker (its basetemp's
    parent under xdist, the basetemp itself without)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_once(tmp_path_factory: pytest.TempPathFactory, name: str,
               build: Callable[[Path], dict]) -> tuple[Path, dict]:
    """``(directory, info)``: ``build(directory)`` run by the first worker of the run that
    asks for ``name`` (``directory`` = ``<run dir>/<name>``, not yet created; ``info`` is
    what ``build`` returned, a JSON-serializable dict). Later calls, in any worker, return the
    same pair without building. If the build skipped or failed, they skip or fail with its
    reason.
    """
    root = run_dir(tmp_path_factory)
    dest, record_file = root / name, root / f"{name}.json"
    with FileLock(root / f"{name}.lock", timeout=WAIT_SECONDS):
        if not record_file.exists():
            try:
                record = {"info": build(dest)}
            except pytest.skip.Exception as exc:
                record_file.write_text(json.dumps({"skip": str(exc.msg)}))
                raise
            except (Exception, pytest.fail.Exception) as exc:
                tail = "".join(traceback.format_exception_only(type(exc), exc))[-4000:]
                record_file.write_text(json.dumps({"error": tail}))
                raise
            record_file.write_text(json.dumps(record))
            return dest, record["info"]
    record = json.loads(record_file.read_text())
    if "skip" in record:
        pytest.skip(record["skip"])
    if "error" in record:
        pytest.fail(f"building {name} failed (in another worker of this run):\n"
                    f"{record['error']}")
    return dest, record["info"]
