"""Benchmark: ``Evaluator.evaluate`` on the 19 public prediction files of the reference
evaluator's repository, in one process, on one core — issue 21's in-process acceptance figures.

Reported:

* 19 files, all metrics with DST (``dst=True, setting="both"``): wall and CPU time, and the
  peak resident memory of the process (target: <= 10 s, <= 400 MiB);
* one system without DST (``dst=False``), the mean over ``--repeat`` calls on warm resources
  (target: <= 0.4 s);
* the reference evaluator (``mwzeval``) beside ours when it is importable; it is a GitHub
  project, not on PyPI, so usually it is not, and the output says so.

Resources come from the per-user cache (built on first use from ``--mirror``); the time to
load them is printed separately. The machine's load average is printed with the times.

Usage::

    .venv/bin/python benchmarks/score_public.py [--mirror ../shared/mirror]
        [--system damd] [--repeat 3] [--dump results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EVALUATOR = "Tomiinek/MultiWOZ_Evaluation"


def reference_evaluator(files: list[Path]) -> str:
    """Time of mwzeval on the same files (all metrics with DST), or why it is not reported."""
    try:
        from mwzeval.metrics import Evaluator as Reference
    except ImportError:
        return ("reference evaluator (mwzeval): not installed — it is a GitHub project, not "
                "on PyPI, and this machine has no GitHub access; not timed")
    ref = Reference(bleu=True, success=True, richness=True, dst=True)
    start, cpu = time.perf_counter(), time.process_time()
    for f in files:
        ref.evaluate(json.loads(f.read_text()))
    return (f"reference evaluator (mwzeval): {time.perf_counter() - start:.2f} s wall "
            f"({time.process_time() - cpu:.2f} s CPU) for {len(files)} files")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", type=Path, default=Path(
        os.environ.get("MWZREPRO_MIRROR", REPO.parent / "shared" / "mirror")))
    ap.add_argument("--system", default="damd")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dump", type=Path, help="write every result (to_dict) as JSON here")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core

    files = sorted(args.mirror.glob(f"{EVALUATOR}/*/predictions/*.json"))
    if len(files) != 19:
        raise SystemExit(f"expected 19 prediction files under {args.mirror / EVALUATOR}, "
                         f"found {len(files)}")
    import logging

    logging.getLogger("mwzrepro").setLevel(logging.ERROR)  # coverage warnings are expected
    start = time.perf_counter()
    from mwzrepro import Evaluator

    full = Evaluator(dst=True, setting="both", mirror=args.mirror)
    t_load = time.perf_counter() - start

    start, cpu = time.perf_counter(), time.process_time()
    results = {f.stem: full.evaluate_file(f) for f in files}
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB (Linux)

    one = Evaluator(dst=False, setting="both", mirror=args.mirror)
    path = next(f for f in files if f.stem == args.system)
    data = json.loads(path.read_text())
    one.evaluate(data, args.system)  # warm the no-DST evaluator's own lazy parts
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        one.evaluate(data, args.system)
        times.append(time.perf_counter() - start)

    print(f"score_public: {len(files)} public files, one core, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"resources loaded in {t_load:.2f} s (not in the totals)")
    print(f"19 files, all metrics with DST: {wall:.2f} s wall ({cpu:.2f} s CPU); peak RSS "
          f"{peak:.0f} MiB   [targets <= 10 s, <= 400 MiB]")
    print(f"one system ({args.system}), no DST, warm: {min(times):.3f} s best, "
          f"{sum(times) / len(times):.3f} s mean of {len(times)}   [target <= 0.4 s]")
    print(reference_evaluator(files))
    if args.dump:
        args.dump.write_text(json.dumps({s: r.to_dict() for s, r in results.items()},
                                        sort_keys=True, indent=1, default=str))
    sys.exit(0)


if __name__ == "__main__":
    main()
