"""Benchmark: every figure of issue 19's acceptance table in one run, with the load average.

1. a fresh clone of this checkout's ``HEAD`` (``git clone``; setup excluded: the clone runs this
   checkout's venv with its own ``src/`` first on ``PYTHONPATH``);
2. cold ``snakemake -jN`` in it (the mirror as data), then a no-op ``snakemake -jN`` (with
   ``--repeat N``, N no-op runs in each workspace in turn, and their median);
3. ``mwzrepro record`` (not timed), then ``dvc status`` on no change (best of three);
4. ``inform.fuzzy_threshold`` 90 -> 85 and ``dvc repro``: wall seconds and the stages run
   (after the table, each stage's seconds: where a regression sits);
5. back to 90 and ``dvc repro`` (the run cache restores every stage); with ``--repeat N``,
   steps 4 and 5 again until each has run N times in each workspace, each time from the same
   state (DVC's run cache and ``data/memo`` as ``mwzrepro record`` left them, the memo written
   to disk: step 4 runs every stage again and step 5 restores them from the entries that
   ``mwzrepro record`` saved), and their medians (a single run moves by a second or two on a
   shared machine, which is a tenth of the figure);
6. unless ``--skip-tests``: the README's test command (``make test``) in another fresh clone
   (this checkout's venv linked in, ``make -o .venv/.installed``: setup excluded), and
   ``make test-fast`` (skipped with a message when the Makefile has no such target).

Every timing prints with the 1-minute load average just before it (the machine may be shared:
figures are upper bounds). ``--check FILE`` (``sha1sum`` format, paths relative to the
workspace) compares the cold run's outputs with a baseline.

``--baseline REV`` (a commit of this repository, e.g. the previous landed one) also clones
this checkout at ``REV`` and runs each of steps 2-5 for ``REV`` and then for ``HEAD`` before
the next step, on the same machine under the same load, and prints both figures with the
ratios ``HEAD / REV`` of wall and CPU seconds: a slower machine moves both sides, a regression
moves the ratio. Both sides run this checkout's venv (each with its own ``src/``), so a
change of the locked dependencies between the two is not measured. ``--figures`` runs a
reduced set (``cold`` always; ``repro`` and ``restore`` bring ``status``, which records the
cold run in DVC), and ``--dry-run`` prepares the clones and prints the plan.

Usage::

    MWZREPRO_MIRROR=../shared/mirror .venv/bin/python benchmarks/loop.py [--jobs 2]
        [--skip-tests | --only-tests] [--check OUTPUTS.sha1] [--keep DIR]
        [--baseline REV] [--figures cold noop status repro restore] [--repeat N]
        [--dry-run]
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
    stages_run,
    streamed,
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


def clone(dest: Path, rev: str | None = None) -> Path:
    """A fresh clone of this checkout in ``dest`` (its own work tree), at ``rev`` if given
    (default: HEAD)."""
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True)
    if rev is not None:
        subprocess.run(["git", "checkout", "-q", "--detach", rev], cwd=dest, check=True)
    if (REPO / ".dvc" / "config.local").is_file():
        shutil.copy2(REPO / ".dvc" / "config.local", dest / ".dvc" / "config.local")
    return dest


def _target(figure: str) -> float | None:
    """The figure's target; a median of repeated runs has the target of one run."""
    return TARGETS.get(figure.split(", median of")[0])


def report(figure: str, seconds: float | None, load: float, note: str = "") -> None:
    target = _target(figure)
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
    parser.add_argument("--baseline", metavar="REV", default=None,
                        help="Also build REV (a fresh clone checked out at REV) and run each "
                             "pipeline figure for REV and for HEAD in turn; print both and "
                             "their ratios.")
    parser.add_argument("--figures", nargs="+", choices=FIGURE_KEYS, default=list(FIGURE_KEYS),
                        help="Run only these pipeline figures (a reduced set: 'cold' is "
                             "always run, the others need its workspace).")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="Run the threshold change and the restore N times in each workspace, "
                             "in turn, and print their medians too (step 5).")
    parser.add_argument("--dry-run", action="store_true",
                        help="Prepare the workspaces and print the steps, run nothing.")
    args = parser.parse_args()
    if not os.environ.get("MWZREPRO_MIRROR") and (REPO.parent / "shared" / "mirror").is_dir():
        os.environ["MWZREPRO_MIRROR"] = str(REPO.parent / "shared" / "mirror")
    tmp = tempfile.TemporaryDirectory(prefix="mwzrepro-loop-")
    root = Path(args.keep.resolve() if args.keep else tmp.name)
    print(f"machine: {os.cpu_count()} cores; {' '.join(os.uname()[2:4])}; "
          f"load averages {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.only_tests:
        works = {"HEAD": clone(root / "ws")}
        if args.baseline:
            works = {args.baseline: clone(root / "baseline", args.baseline), **works}
        if args.dry_run:
            for label, work in works.items():
                print(f"{label}: {work} at {_head(work)}")
            print("steps, each for " + " then ".join(works) + ": " + ", ".join(wanted(args)))
            tmp.cleanup()
            return
        header(list(works))
        run_figures(works, args)
    if args.skip_tests:
        report("README test command (make test), fresh clone", None, 0, "--skip-tests")
        report("make test-fast", None, 0, "--skip-tests")
    elif not args.dry_run:
        if args.only_tests:
            header(["HEAD"])
        test_figures(clone(root / "tests"))
    if not args.only_tests and not args.dry_run:
        stage_table(works)
    tmp.cleanup()


def _head(work: Path) -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=work, check=True,
                          capture_output=True, text=True).stdout.strip()


#: Columns of the comparison (``--baseline``): set by :func:`header`.
SIDES: list[str] = []


def header(sides: list[str]) -> None:
    SIDES[:] = sides
    if len(sides) == 1:
        print("| figure | wall (CPU of all processes) | target | load average before, notes |\n"
              "|---|---|---|---|")
        return
    base, cur = sides
    print(f"| figure | {base}: wall (CPU) | {cur}: wall (CPU) | ratio wall | ratio CPU | "
          f"target ({cur}) | load before ({base}; {cur}), notes |\n|---|---|---|---|---|---|---|")


def compare(figure: str, runs: list[tuple[float, float, float, str]]) -> None:
    """One row of the comparison: ``runs`` = [(wall, cpu, load, note) of the baseline, of
    HEAD]."""
    (bw, bc, bl, bn), (cw, cc, cl, cn) = runs
    target = _target(figure)
    verdict = "" if target is None else (" ok" if cw <= target else " OVER")

    def ratio(a: float, b: float) -> str:
        return f"{b / a:.2f}×" if a > 0 else "–"

    notes = "; ".join(n for n in (f"{SIDES[0]}: {bn}" if bn else "",
                                  f"{SIDES[1]}: {cn}" if cn else "") if n)
    print(f"| {figure} | {bw:.1f} s ({bc:.1f} s) | {cw:.1f} s ({cc:.1f} s) | {ratio(bw, cw)} | "
          f"{ratio(bc, cc)} | {target:g} s{verdict} | load {bl:.1f}; {cl:.1f}"
          f"{'; ' + notes if notes else ''} |", flush=True)


def run_figures(works: dict[str, Path], args: argparse.Namespace) -> None:
    """Steps 2-5, each for every workspace of ``works`` in turn (the baseline first)."""
    for key in wanted(args):
        runs = []
        for work in works.values():
            figure, wall, load, note = FIGURES[key](work, args)
            runs.append((wall, LAST_CPU[0], load, note))
        if len(runs) == 1:
            LAST_CPU[0] = runs[0][1]
            report(figure, runs[0][0], runs[0][2], runs[0][3])
        else:
            compare(figure, runs)
        if key == "noop" and args.repeat > 1:
            repeat_noop(works, args, runs)
        if key == "restore" and args.repeat > 1:
            repeat_repro(works, args.repeat)
        if key == "cold" and args.check:
            for label, work in works.items():
                bad = check(work, args.check)
                print(f"byte check ({label}): "
                      f"{'all identical' if not bad else f'{len(bad)} differ: {bad[:10]}'}")


def wanted(args: argparse.Namespace) -> list[str]:
    """The figures to run, in order: ``--figures`` with ``cold``, and ``status`` (which
    records the cold run in DVC) before ``repro`` or ``restore``."""
    keys = {"cold", *args.figures}
    if keys & {"repro", "restore"}:
        keys.add("status")
    return [k for k in FIGURE_KEYS if k in keys]


def _snakemake(args: argparse.Namespace) -> list[str]:
    return [str(BIN / "snakemake"), f"-j{args.jobs}", "--quiet"]


def cold(work: Path, args: argparse.Namespace) -> tuple[str, float, float, str]:
    wall, load, _ = timed(_snakemake(args), work)
    return "cold snakemake from a fresh clone, setup excluded", wall, load, f"-j{args.jobs}"


def noop(work: Path, args: argparse.Namespace) -> tuple[str, float, float, str]:
    wall, load, out = timed(_snakemake(args), work)
    return ("no-op snakemake", wall, load,
            "nothing to do" if "Nothing to be done" in out else "WORK WAS DONE")


def status(work: Path, args: argparse.Namespace) -> tuple[str, float, float, str]:
    timed([str(BIN / "mwzrepro"), "record"], work)
    runs = []
    for _ in range(3):
        runs.append((*timed([str(BIN / "dvc"), "status", "-q"], work, ok=False), LAST_CPU[0]))
    wall, load, out, LAST_CPU[0] = min(runs)
    return "dvc status, no change", wall, load, "clean" if not out.strip() else "NOT CLEAN"


#: ``{workspace: [[(stage, start second, seconds)] per run]}`` of the threshold change's
#: ``dvc repro`` (:func:`~pipeline.stages_run`), printed stage by stage after the figures.
STAGE_SECONDS: dict[Path, list[list[tuple[str, float, float]]]] = {}


#: ``{workspace: [(wall, CPU seconds)]}`` of every timed threshold change (``--repeat``).
REPRO_RUNS: dict[Path, list[tuple[float, float]]] = {}


#: ``{workspace: [(wall, CPU seconds)]}`` of every timed restore (``--repeat``).
RESTORE_RUNS: dict[Path, list[tuple[float, float]]] = {}


#: What each repeated threshold change starts from, as the first found it (``mwzrepro record``
#: had just run): ``(path in the workspace, suffix of its copy beside the workspace)``.
KEPT_STATE = (("data/memo", "memo"), (".dvc/cache/runs", "runs"))


def _copy(work: Path, suffix: str) -> Path:
    return work.parent / f"{work.name}.{suffix}"


def keep_state(work: Path) -> None:
    """Copy each directory of :data:`KEPT_STATE` beside the workspace, the first time only."""
    for path, suffix in KEPT_STATE:
        if (work / path).is_dir() and not _copy(work, suffix).exists():
            shutil.copytree(work / path, _copy(work, suffix))


def put_back_state(work: Path) -> None:
    """Each directory of :data:`KEPT_STATE` as :func:`keep_state` found it: its copy, or
    removed if there was none; then written to disk."""
    for path, suffix in KEPT_STATE:
        shutil.rmtree(work / path, ignore_errors=True)
        if _copy(work, suffix).exists():
            shutil.copytree(_copy(work, suffix), work / path)
    os.sync()


def repro(work: Path, args: argparse.Namespace) -> tuple[str, float, float, str]:
    keep_state(work)
    set_param(work, "inform.fuzzy_threshold", 85)
    load = os.getloadavg()[0]
    wall, LAST_CPU[0], code, lines = streamed([str(BIN / "dvc"), "repro"], work)
    if code:
        text = "\n".join(line for _, line in lines)
        sys.exit(f"`dvc repro` failed in {work}:\n{text[-4000:]}")
    STAGE_SECONDS.setdefault(work, []).append(stages_run(lines, wall))
    REPRO_RUNS.setdefault(work, []).append((wall, LAST_CPU[0]))
    ran = sorted(stage for stage, _, _ in STAGE_SECONDS[work][-1])
    return ("dvc repro after inform.fuzzy_threshold 90 -> 85", wall, load,
            f"{len(ran)} stages: {', '.join(ran)}")


def stage_table(works: dict[str, Path]) -> None:
    """The threshold change's ``dvc repro`` stage by stage (seconds from a stage's ``Running
    stage`` line to the next: the command and DVC's bookkeeping; the median of the runs), a
    column per workspace."""
    import statistics

    runs = {}
    for label, work in works.items():
        per: dict[str, list[float]] = {}
        for run in STAGE_SECONDS.get(work, []):
            for stage, _, seconds in run:
                per.setdefault(stage, []).append(seconds)
        if per:
            runs[label] = {stage: statistics.median(v) for stage, v in per.items()}
    if not runs:
        return
    names = list(dict.fromkeys(stage for per in runs.values() for stage in per))
    print(f"\n`dvc repro` after the threshold change, stage by stage (s)\n\n"
          f"| stage | {' | '.join(runs)} |\n|---|{'---|' * len(runs)}")
    for name in names:
        cells = [f"{per[name]:.1f}" if name in per else "–" for per in runs.values()]
        print(f"| {name} | {' | '.join(cells)} |")


def restore(work: Path, args: argparse.Namespace) -> tuple[str, float, float, str]:
    set_param(work, "inform.fuzzy_threshold", 90)
    wall, load, out = timed([str(BIN / "dvc"), "repro"], work)
    RESTORE_RUNS.setdefault(work, []).append((wall, LAST_CPU[0]))
    return ("dvc repro back to 90, from the run cache", wall, load,
            f"run {len(stages(RUNNING_STAGE, out))}, "
            f"from the run cache {len(stages(CACHED_STAGE, out))}")


def repeat_noop(works: dict[str, Path], args: argparse.Namespace,
                first: list[tuple[float, float, float, str]]) -> None:
    """Step 2's no-op ``snakemake`` again in each workspace in turn until it ran
    ``args.repeat`` times there (``first``: the first runs, as :func:`run_figures` keeps
    them); prints the medians."""
    per = [[run[:2]] for run in first]
    for _ in range(args.repeat - 1):
        for i, work in enumerate(works.values()):
            wall = noop(work, args)[1]
            per[i].append((wall, LAST_CPU[0]))
    report_medians(f"no-op snakemake, median of {args.repeat}", per)


def repeat_repro(works: dict[str, Path], times: int) -> None:
    """Steps 4 and 5 again in each workspace in turn until each ran ``times`` times there,
    each from the state of the first (DVC's run cache and ``data/memo`` copied back as
    ``mwzrepro record`` left them, written to disk before the clock starts); prints the
    medians of both."""
    for _ in range(times - 1):
        for work in works.values():
            put_back_state(work)
            repro(work, argparse.Namespace())
            note = restore(work, argparse.Namespace())[3]
            if not note.startswith("run 0,"):
                print(f"restore in {work.name} ran stages again: {note}", flush=True)
    report_medians(f"dvc repro after inform.fuzzy_threshold 90 -> 85, median of {times}",
                   [REPRO_RUNS[work] for work in works.values()])
    report_medians(f"dvc repro back to 90, from the run cache, median of {times}",
                   [RESTORE_RUNS[work] for work in works.values()])


def report_medians(figure: str, per: list[list[tuple[float, float]]]) -> None:
    """Print ``figure`` as the medians of repeated runs, ``per``: ``[(wall, CPU seconds)]``
    of each workspace (the baseline first), with every run's wall seconds."""
    import statistics

    runs = [(statistics.median(w for w, _ in p), statistics.median(c for _, c in p),
             os.getloadavg()[0], "runs " + ", ".join(f"{w:.1f}" for w, _ in p)) for p in per]
    if len(runs) == 1:
        LAST_CPU[0] = runs[0][1]
        report(figure, runs[0][0], runs[0][2], runs[0][3])
    else:
        compare(figure, runs)


#: The pipeline figures in order (each needs the ones before it in its workspace; ``status``
#: records the run in DVC, which ``repro`` and ``restore`` need).
FIGURES = {"cold": cold, "noop": noop, "status": status, "repro": repro, "restore": restore}
FIGURE_KEYS = tuple(FIGURES)


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
