"""Benchmark: every figure of issue 19's acceptance table in one run, with the load average.

1. a fresh clone of this checkout's ``HEAD`` (``git clone``; setup excluded: the clone runs this
   checkout's venv with its own ``src/`` first on ``PYTHONPATH``);
2. cold ``snakemake -jN`` in it (the mirror as data), then a no-op ``snakemake -jN``;
3. ``mwzrepro record`` (not timed), then ``dvc status`` on no change (best of three);
4. ``inform.fuzzy_threshold`` 90 -> 85 and ``dvc repro``: wall seconds and the stages run;
5. back to 90 and ``dvc repro`` (the run cache restores every stage);
6. unless ``--skip-tests``: the README's test command (``make test``) in another fresh clone
   (this checkout's venv linked in, ``make -o .venv/.installed``: setup excluded), and
   ``make test-fast`` (skipped with a message when the Makefile has no such target).

Every timing prints with the 1-minute load average just before it (the machine may be shared:
figures are upper bounds). ``--check FILE`` (``sha1sum`` format, paths relative to the
workspace) compares the cold run's outputs with a baseline.

Usage::

    MWZREPRO_MIRROR=../shared/mirror .venv/bin/python benchmarks/loop.py [--jobs 2]
        [--skip-tests | --only-tests] [--check OUTPUTS.sha1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline import (  # noqa: E402
    CACHED_STAGE,
    RUNNING_STAGE,
    check,
    env,
    measured,
    set_param,
    stages,
)

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TARGETS = {  # figure -> target (seconds); None: no target
    "dvc status, no change": 1.0,
    "dvc repro after inform.fuzzy_threshold 90 -> 85": 15.0,
    "dvc repro back to 90, from the run cache": 5.0,
    "cold snakemake from a fresh clone, setup excluded": 120.0,
    "no-op snakemake": 2.0,
    "README test command (make test), fresh clone": 360.0,
    "make test-fast": 60.0,
}


#: CPU seconds (user + system) of the last :func:`timed` command and its children: on a
#: shared machine the wall time is an upper bound, the CPU time what the work costs.
LAST_CPU = [0.0]


def timed(args: list[str], cwd: Path, ok: bool = True) -> tuple[float, float, str]:
    """(wall seconds, load average before, output) of one command; exits on failure.
    Its CPU seconds go to :data:`LAST_CPU`."""
    load = os.getloadavg()[0]
    wall, LAST_CPU[0], proc = measured(args, cwd)
    if ok and proc.returncode:
        sys.exit(f"`{' '.join(args)}` failed in {cwd}:\n{(proc.stdout + proc.stderr)[-4000:]}")
    return wall, load, proc.stdout + proc.stderr


def clone(dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True)
    if (REPO / ".dvc" / "config.local").is_file():
        shutil.copy2(REPO / ".dvc" / "config.local", dest / ".dvc" / "config.local")
    return dest


def report(figure: str, seconds: float | None, load: float, note: str = "") -> None:
    target = TARGETS.get(figure)
    if seconds is None:
        print(f"| {figure} | skipped | {target:g} s | {note} |")
        return
    verdict = "" if target is None else ("ok" if seconds <= target else "OVER")
    print(f"| {figure} | {seconds:.1f} s ({LAST_CPU[0]:.1f} s CPU) | {target:g} s {verdict} | "
          f"load {load:.1f}{'; ' + note if note else ''} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--skip-tests", action="store_true")
    parser.add_argument("--only-tests", action="store_true",
                        help="Only the test-suite figures (steps 6).")
    parser.add_argument("--check", type=Path, default=None)
    parser.add_argument("--keep", type=Path, default=None,
                        help="Build in this (new) directory and keep it.")
    args = parser.parse_args()
    if not os.environ.get("MWZREPRO_MIRROR") and (REPO.parent / "shared" / "mirror").is_dir():
        os.environ["MWZREPRO_MIRROR"] = str(REPO.parent / "shared" / "mirror")
    tmp = tempfile.TemporaryDirectory(prefix="mwzrepro-loop-")
    root = Path(tmp.name)
    print(f"machine: {os.cpu_count()} cores; {' '.join(os.uname()[2:4])}; "
          f"load averages {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| figure | wall (CPU of all processes) | target | load average before, notes |\n"
          "|---|---|---|---|")
    if not args.only_tests:
        pipeline_figures(clone(args.keep.resolve() if args.keep else root / "ws"), args)
    if args.skip_tests:
        report("README test command (make test), fresh clone", None, 0, "--skip-tests")
        report("make test-fast", None, 0, "--skip-tests")
    else:
        test_figures(clone(root / "tests"))
    tmp.cleanup()


def pipeline_figures(work: Path, args: argparse.Namespace) -> None:
    """Steps 2-5 in the fresh clone ``work``."""
    snakemake = [str(BIN / "snakemake"), f"-j{args.jobs}", "--quiet"]
    wall, load, _ = timed(snakemake, work)
    report("cold snakemake from a fresh clone, setup excluded", wall, load, f"-j{args.jobs}")
    if args.check:
        bad = check(work, args.check)
        print(f"byte check: {'all identical' if not bad else f'{len(bad)} differ: {bad[:10]}'}")
    wall, load, out = timed(snakemake, work)
    report("no-op snakemake", wall, load,
           "nothing to do" if "Nothing to be done" in out else "WORK WAS DONE")
    timed([str(BIN / "mwzrepro"), "record"], work)
    runs = []
    for _ in range(3):
        runs.append((*timed([str(BIN / "dvc"), "status", "-q"], work, ok=False), LAST_CPU[0]))
    wall, load, out, LAST_CPU[0] = min(runs)
    report("dvc status, no change", wall, load, "clean" if not out.strip() else "NOT CLEAN")
    set_param(work, "inform.fuzzy_threshold", 85)
    wall, load, out = timed([str(BIN / "dvc"), "repro"], work)
    ran = stages(RUNNING_STAGE, out)
    report("dvc repro after inform.fuzzy_threshold 90 -> 85", wall, load,
           f"{len(ran)} stages: {', '.join(ran)}")
    set_param(work, "inform.fuzzy_threshold", 90)
    wall, load, out = timed([str(BIN / "dvc"), "repro"], work)
    report("dvc repro back to 90, from the run cache", wall, load,
           f"run {len(stages(RUNNING_STAGE, out))}, "
           f"from the run cache {len(stages(CACHED_STAGE, out))}")


def test_figures(tests: Path) -> None:
    """Step 6 in the fresh clone ``tests``; setup excluded: this checkout's venv stands in
    (``make -o``: not remade)."""
    (tests / ".venv").symlink_to(BIN.parent)
    make = ["make", "-o", ".venv/.installed"]
    wall, load, out = timed([*make, "test"], tests, ok=False)
    summary = [line for line in out.splitlines() if re.match(r"(FAILED|ERROR) |=+ .* in ", line)]
    report("README test command (make test), fresh clone", wall, load,
           (summary or out.strip().splitlines() or ["?"])[-1][:120])
    for line in summary[:-1]:
        print(f"    {line[:200]}")
    has_fast = subprocess.run(["make", "-n", "test-fast"], cwd=tests,
                              capture_output=True).returncode == 0
    if has_fast:
        wall, load, out = timed([*make, "test-fast"], tests, ok=False)
        report("make test-fast", wall, load, (out.strip().splitlines() or ["?"])[-1][:120])
    else:
        report("make test-fast", None, 0, "the Makefile has no test-fast target yet")


if __name__ == "__main__":
    main()
