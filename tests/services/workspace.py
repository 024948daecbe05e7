"""The pipeline subset the service tests move around, and how they look at workspaces.

The subset is the BLEU spine (``download`` → ``ingest`` → ``redelex`` → ``predictions`` →
``score_bleu`` → ``tables_bleu``) for one dataset version and two systems
(:func:`tests.workflow.repos.reduced_params`): 7 jobs, about 20 s on one core.

Every external command runs under ``timeout -k 10 N`` (a stuck server or scheduler must end
the test, not hang CI).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from mwzrepro.cli.workflow import stage_addresses
from tests.workflow.dags import REPO, copy_workflow, run_script, tool_env
from tests.workflow.repos import commit_all, init_repo, reduced_params

#: The final stage of the subset (DVC name) and its Snakemake rule.
STAGE = "tables-bleu"
RULE = "tables_bleu"
#: How DVC's commands address it: in its area's dvc.yaml (the same file in the repository and
#: in the subset, workflow/scripts/dvc_pipelines.py).
DVC_STAGE = stage_addresses(REPO)[STAGE]
#: What the pipeline writes (compared byte for byte between workspaces).
OUTPUT_DIRS = ("data", "results")


def run(args: list[str], cwd: Path, timeout: int = 300, check: bool = True,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``timeout -k 10 <timeout> args`` in ``cwd`` with the venv's tools first on PATH;
    AssertionError with the output's tail when ``check`` and it fails."""
    full_env = tool_env(**(env or {}))
    proc = subprocess.run(["timeout", "-k", "10", str(timeout), *args], cwd=cwd,
                          capture_output=True, text=True, env=full_env)
    if check and proc.returncode != 0:
        what = "timed out" if proc.returncode in (124, 137) else f"exit {proc.returncode}"
        raise AssertionError(f"`{' '.join(args)}` failed in {cwd} ({what}):\n"
                             f"{(proc.stdout + proc.stderr)[-5000:]}")
    return proc


def output_hashes(ws: Path) -> dict[str, str]:
    """SHA-1 of every file the pipeline wrote ({path relative to ws: hex})."""
    out = {}
    for top in OUTPUT_DIRS:
        for path in sorted((ws / top).rglob("*")):
            if path.is_file():
                out[str(path.relative_to(ws))] = hashlib.sha1(path.read_bytes()).hexdigest()
    return out


def tree_state(ws: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of every file in a workspace except Git's and DVC's own scratch
    (``.git/``, ``.dvc/tmp/``): what "leave the workspace untouched" compares."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(ws):
        rel = Path(dirpath).relative_to(ws)
        if rel == Path("."):
            dirnames[:] = [d for d in dirnames if d != ".git"]
        if rel == Path(".dvc"):
            dirnames[:] = [d for d in dirnames if d != "tmp"]
        for name in filenames:
            st = (Path(dirpath) / name).stat()
            state[str(rel / name)] = (st.st_size, st.st_mtime_ns)
    return state


def planned_jobs(ws: Path, env: dict[str, str] | None = None) -> str:
    """``snakemake -n tables_bleu`` output; "" when it plans nothing."""
    proc = run(["snakemake", "--dry-run", RULE], ws, timeout=120, env=env)
    text = proc.stdout + proc.stderr
    return "" if "Nothing to be done" in text else text


@dataclass
class Published:
    """A Git+DVC repository where Snakemake built the subset locally and `mwzrepro record`
    recorded it (committed; DVC cache filled; no remote pushed yet)."""

    ws: Path
    hashes: dict[str, str]  # output_hashes of the local run
    seconds: float  # the local `snakemake` run


def build_published(root: Path, mirror: Path) -> Published:
    """Build the subset in ``root/base`` (``dvc.yaml`` regenerated for it; ``snakemake
    --cores 2 tables_bleu``; ``mwzrepro record tables-bleu``) and commit it. Its default DVC
    remote is the local directory ``root/store`` (unused: the service tests name theirs)."""
    ws = copy_workflow(root / "base", params=reduced_params())
    # The reduced params.yaml changes structural keys: dvc.yaml is regenerated from it.
    run_script("make_dvc_yaml.py", "--workdir", str(ws), cwd=ws)
    init_repo(ws, root / "store")
    env = {"MWZREPRO_MIRROR": str(mirror)}
    t0 = time.perf_counter()
    run(["snakemake", "--cores", "2", RULE], ws, timeout=900, env=env)
    seconds = time.perf_counter() - t0
    run(["mwzrepro", "record", STAGE], ws, timeout=300)
    commit_all(ws, "results of the BLEU spine")
    return Published(ws=ws, hashes=output_hashes(ws), seconds=seconds)


def git_clone(src: Path, dest: Path) -> Path:
    """A fresh ``git clone`` (no DVC cache, no outputs, no `.dvc/config.local`)."""
    run(["git", "clone", "-q", str(src), str(dest)], src.parent, timeout=120)
    return dest


def dvc_remote(ws: Path, name: str, url: str, default: bool = False,
               **local: str) -> None:
    """``dvc remote add NAME URL`` (shared config, committed) and ``dvc remote modify --local
    NAME key value`` for each credential (``.dvc/config.local``, never committed)."""
    run(["dvc", "remote", "add", "--force", *(["-d"] if default else []), name, url], ws)
    for key, value in local.items():
        run(["dvc", "remote", "modify", "--local", name, key, value], ws)
