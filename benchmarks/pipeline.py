"""Benchmark: cold and no-op pipeline runs, wall time and peak memory.

Runs Snakemake in a throwaway copy of the repository (so the working tree is untouched):

1. cold: every job needed for TARGET from nothing (downloads from the mirror included);
2. no-op: the same command again, which must find nothing to do.

Usage:
    MWZREPRO_MIRROR=../shared/mirror .venv/bin/python benchmarks/pipeline.py [--target T]
        [--jobs N]

Default target: the BLEU table (the spine stages: download → ingest → redelex →
predictions → score-bleu → tables-bleu). ``--target all`` times the whole pipeline.
Prints one line per run: seconds and the peak resident memory of the largest job (MiB).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def copy_repo(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, files):
        if (REPO / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, dest / rel)


def run(cwd: Path, target: str, jobs: int) -> tuple[float, str]:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    start = time.perf_counter()
    proc = subprocess.run([str(BIN / "snakemake"), target, f"-j{jobs}", "--quiet"], cwd=cwd,
                          env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"snakemake failed:\n{proc.stderr[-3000:]}")
    return elapsed, proc.stdout + proc.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="results/tables/bleu.md")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    if not os.environ.get("MWZREPRO_MIRROR"):
        default = REPO.parent / "shared" / "mirror"
        if default.is_dir():
            os.environ["MWZREPRO_MIRROR"] = str(default)
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-") as tmp:
        work = Path(tmp)
        copy_repo(work)
        cold, _ = run(work, args.target, args.jobs)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        noop, out = run(work, args.target, args.jobs)
    print(f"target {args.target}, {args.jobs} jobs")
    print(f"cold run:  {cold:7.1f} s   peak memory of a job: {peak:.0f} MiB")
    print(f"no-op run: {noop:7.1f} s   ({'nothing to do' if 'Nothing to be done' in out else 'WORK WAS DONE'})")


if __name__ == "__main__":
    main()
