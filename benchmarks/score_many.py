"""Benchmark: ``mwzrepro score`` on the 19 public prediction files in one call, as a whole
process on 2 cores (issue 32's acceptance figures).

Reported, each the best and the median of ``--repeat`` runs of the whole process (start-up,
warm resources from the cache, JSON parsing, scoring, output), pinned to two cores:

* ``mwzrepro score <dir>`` (every metric, DST included): target <= 8 s;
* the same with ``--ci --paired-bs`` (1000 resamples): target <= 20 s;
* for scale, the one-file loop a user would otherwise write (19 processes, one after another).

The processes run in a sandbox (:func:`score_cli.scorer_sandbox`: an empty working directory,
a fresh resource cache built by a first, untimed call), so the user's own cache is left alone.
The machine's load average is printed before and after: the machine is shared, and a busy
machine inflates every figure (the CPU seconds of the process and its workers are printed
beside the wall time).

Usage::

    .venv/bin/python benchmarks/score_many.py [--mirror ../shared/mirror] [--repeat 3]
        [--cores 2] [--no-loop] [--system ubar] [--mwzrepro .venv/bin/mwzrepro]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from score_cli import prediction, scorer_arguments, scorer_sandbox  # noqa: E402


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _run(cmd: list[str], cores: set[int], cwd: Path, env: dict[str, str]
         ) -> tuple[float, float]:
    """(wall, CPU of the process and its children) of one whole ``mwzrepro`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, preexec_fn=lambda: os.sched_setaffinity(0, cores))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _report(label: str, runs: list[tuple[float, float]], target: float | None) -> None:
    walls = [w for w, _ in runs]
    cpu = statistics.median(c for _, c in runs)
    goal = f"   [target <= {target:g} s]" if target else ""
    print(f"{label}: {min(walls):.2f} s best, {statistics.median(walls):.2f} s median of "
          f"{len(walls)} (CPU {cpu:.2f} s){goal}")


def main() -> None:
    ap = scorer_arguments(__doc__.split("\n\n")[0])
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--no-loop", action="store_true", help="skip the one-file loop")
    args = ap.parse_args()
    mirror = args.mirror.resolve()
    cores = set(sorted(os.sched_getaffinity(0))[: args.cores])
    mine = prediction(mirror, args.system)
    files = sorted(mine.parent.glob("*.json"))
    if len(files) != 19:
        raise SystemExit(f"expected 19 prediction files in {mine.parent}")
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-many-") as tmp:
        empty, env = scorer_sandbox(Path(tmp), mirror)
        score = [args.mwzrepro, "score"]

        def run(*extra: str) -> tuple[float, float]:
            return _run(score + list(extra), cores, empty, env)

        run(str(mine), "--no-result-cache")  # builds the sandbox's cache
        print(f"score_many: 19 public files, whole process on {len(cores)} core(s) "
              f"{sorted(cores)}; load average before: {_load()}")
        plain = [run(str(mine.parent)) for _ in range(args.repeat)]
        _report("19 files, every metric with DST", plain, 8)
        stats = [run(str(mine.parent), "--ci", "--paired-bs") for _ in range(args.repeat)]
        _report("19 files, --ci --paired-bs (1000 resamples)", stats, 20)
        if not args.no_loop:
            start = time.perf_counter()
            for f in files:
                run(str(f), "--no-result-cache")
            print(f"for scale: 19 one-file processes one after another: "
                  f"{time.perf_counter() - start:.2f} s")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
