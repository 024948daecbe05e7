"""Benchmark: the pipeline's three figures of issue 10, in a throwaway copy of the repository.

1. cold: a fresh copy (the files Git knows), the whole workflow from nothing with the mirror
   (`snakemake -j N`), then `mwzrepro record` (outside the timing);
2. no-op: `snakemake -j N` again, which must find nothing to do;
3. threshold: `inform.fuzzy_threshold` 90 -> 85 in params.yaml, then `dvc repro` (without
   regenerating dvc.yaml): its time and the stages it ran.

Prints wall seconds, the CPU seconds of all jobs (user + system), the load average before the
run (the machine may be shared: figures are upper bounds), and the rules that cost most.

Usage:
    MWZREPRO_MIRROR=../shared/mirror .venv/bin/python benchmarks/pipeline.py [--jobs N]
        [--target T] [--check OUTPUTS.sha1] [--skip-repro] [--keep DIR]

``--check FILE`` compares the sha1 of every file listed in FILE (``sha1sum`` format, paths
relative to the workspace; the dvc.lock files are skipped) with the cold run's outputs and lists the
differences. ``--target`` limits the run (default: every table, ``rule all``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from mwzrepro.cli.workflow import stage_name

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
#: DVC's line for a stage it runs / restores from its run cache; group 1 is the stage's
#: address (``<file>:<name>`` for a stage of an area's dvc.yaml: :func:`stage_name`).
RUNNING_STAGE = r"Running stage '([^']+)'"
CACHED_STAGE = r"Stage '([^']+)' is cached"


def copy_repo(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, files):
        if (REPO / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, dest / rel)


def env(work: Path | None = None) -> dict[str, str]:
    """The venv's tools first on PATH, an absolute mirror path, and the copy's own code."""
    out = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", DVC_NO_ANALYTICS="1")
    if work is not None:
        out["PYTHONPATH"] = str(work / "src")
    if out.get("MWZREPRO_MIRROR"):
        out["MWZREPRO_MIRROR"] = os.path.abspath(out["MWZREPRO_MIRROR"])
    return out


def measured(args: list[str], cwd: Path) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall seconds, CPU seconds of the children, finished process) of one command run in
    ``cwd`` with :func:`env`, its output captured as text."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, env=env(cwd), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc


def streamed(args: list[str], cwd: Path, environ: dict[str, str] | None = None
             ) -> tuple[float, float, int, list[tuple[float, str]]]:
    """(wall seconds, CPU seconds of the children, exit code, output lines each with the second
    it arrived) of one command run in ``cwd`` (with :func:`env` unless ``environ`` is
    given), stderr merged into stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    lines = []
    with subprocess.Popen(args, cwd=cwd, env=environ if environ is not None else env(cwd),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout or ():
            lines.append((time.perf_counter() - start, line.rstrip("\n")))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode, lines


def stages_run(lines: list[tuple[float, str]], wall: float) -> list[tuple[str, float, float]]:
    """(stage, start second, seconds until the next stage starts or DVC ends) of every
    ``Running stage`` line of :func:`streamed` output: the command plus DVC's bookkeeping."""
    starts = [(t, stage_name(m.group(1))) for t, line in lines
              if (m := re.search(RUNNING_STAGE, line))]
    ends = [t for t, _ in starts[1:]] + [wall]
    return [(stage, t, end - t) for (t, stage), end in zip(starts, ends)]


def timed(args: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the children, output) of one command; exits on failure."""
    wall, cpu, proc = measured(args, cwd)
    if proc.returncode:
        sys.exit(f"`{' '.join(args)}` failed:\n{(proc.stdout + proc.stderr)[-4000:]}")
    return wall, cpu, proc.stdout + proc.stderr


def rule_costs(work: Path, top: int = 8) -> list[tuple[str, int, float]]:
    """(rule, jobs, summed job seconds) from Snakemake's metadata, most expensive first."""
    jobs: dict[tuple[str, str], float] = {}
    for f in (work / ".snakemake" / "metadata").iterdir():
        meta = json.loads(f.read_text())  # one record per output: a job is its command
        jobs[(meta["rule"], meta["shellcmd"])] = meta["endtime"] - meta["starttime"]
    per: dict[str, list[float]] = {}
    for (rule, _), seconds in jobs.items():
        per.setdefault(rule, []).append(seconds)
    rows = sorted(((r, len(v), sum(v)) for r, v in per.items()), key=lambda x: -x[2])
    return rows[:top]


def stages(pattern: str, out: str) -> list[str]:
    """The names of the stages in DVC's output ``out`` whose lines match ``pattern``
    (:data:`RUNNING_STAGE`, :data:`CACHED_STAGE`), sorted, each once."""
    return sorted({stage_name(address) for address in re.findall(pattern, out)})


def check(work: Path, listing: Path) -> list[str]:
    """Files of ``listing`` (sha1sum format) whose sha1 differs in ``work`` (or is missing)."""
    bad = []
    for line in listing.read_text().splitlines():
        digest, rel = line.split(maxsplit=1)
        if rel.endswith("dvc.lock"):
            continue
        path = work / rel
        if not path.is_file() or hashlib.sha1(path.read_bytes()).hexdigest() != digest:
            bad.append(rel)
    return bad


def set_param(work: Path, key: str, value) -> None:
    """Replace one scalar of params.yaml in place (comments and layout kept)."""
    path = work / "params.yaml"
    text = path.read_text()
    block, leaf = key.split(".")
    pattern = rf"(^{block}:\n(?:[ #].*\n)*?  {leaf}: )([^\n#]*)"
    new, n = re.subn(pattern, lambda m: m.group(1) + str(value), text, count=1, flags=re.M)
    if n != 1:
        sys.exit(f"cannot set {key} in {path}")
    path.write_text(new)
    assert yaml.safe_load(new)[block][leaf] == value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--target", default=None)
    parser.add_argument("--check", type=Path, default=None)
    parser.add_argument("--skip-repro", action="store_true")
    parser.add_argument("--keep", type=Path, default=None,
                        help="Build in this (new) directory and keep it.")
    args = parser.parse_args()
    if not os.environ.get("MWZREPRO_MIRROR"):
        default = REPO.parent / "shared" / "mirror"
        if default.is_dir():
            os.environ["MWZREPRO_MIRROR"] = str(default)
    tmp = None
    if args.keep:
        work = args.keep.resolve()
        work.mkdir(parents=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="mwzrepro-bench-")
        work = Path(tmp.name)
    target = [args.target] if args.target else []
    load = os.getloadavg()[0]
    copy_repo(work)
    snakemake = [str(BIN / "snakemake"), *target, f"-j{args.jobs}", "--quiet"]
    cold, cold_cpu, _ = timed(snakemake, work)
    noop, _, out = timed(snakemake, work)
    print(f"target {args.target or 'all'}, {args.jobs} jobs, load average before {load:.1f}")
    print(f"cold run:   {cold:7.1f} s wall, {cold_cpu:7.1f} s CPU of all jobs")
    for rule, n, seconds in rule_costs(work):
        print(f"    {rule:26s} {n:3d} jobs {seconds:7.1f} s")
    nothing = "Nothing to be done" in out
    print(f"no-op run:  {noop:7.1f} s wall ({'nothing to do' if nothing else 'WORK WAS DONE'})")
    if args.check:
        bad = check(work, args.check)
        print(f"byte check: {'all identical' if not bad else f'{len(bad)} differ'} "
              f"({args.check})")
        for rel in bad[:30]:
            print(f"    differs: {rel}")
    if not args.skip_repro and not args.target:
        subprocess.run(["git", "init", "-q"], cwd=work, check=True)
        if not (work / ".dvc").is_dir():  # the copy holds the repository's .dvc/config
            timed([str(BIN / "dvc"), "init", "-q"], work)
        timed([str(BIN / "mwzrepro"), "record"], work)
        set_param(work, "inform.fuzzy_threshold", 85)
        repro, repro_cpu, out = timed([str(BIN / "dvc"), "repro"], work)
        ran = stages(RUNNING_STAGE, out)
        print(f"dvc repro after inform.fuzzy_threshold 90 -> 85: {repro:7.1f} s wall, "
              f"{repro_cpu:7.1f} s CPU, {len(ran)} stages: {', '.join(ran)}")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
