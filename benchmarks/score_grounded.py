"""Benchmark: ``mwzrepro score --lexicalized --setting grounded`` of one system, whole
process, next to ``mwzrepro score --lexicalized`` of the same file (issue 27; target: at most
1.5× the lexicalized time).

The input is the system's published (delexicalized) prediction file lexicalized as a system
does at run time (as ``benchmarks/score_lexicalized.py`` builds it). Both calls run with
``--no-result-cache`` on resources already built in a temporary cache (one untimed warm-up
call of each builds them, the grounded one its per-resource-set tables too: the user turns'
and the corpus text's links), from an empty directory; the minimum of ``--repeat`` wall times
is reported.

Usage::

    .venv/bin/python benchmarks/score_grounded.py [--mirror ../shared/mirror]
        [--system ubar] [--mwzrepro .venv/bin/mwzrepro] [--repeat 3]

Wall times depend on other load on the machine; the load average is printed with them.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from score_cli import prediction, scorer_arguments, scorer_sandbox, timed  # noqa: E402
from score_lexicalized import lexicalized_file  # noqa: E402


def main() -> None:
    args = scorer_arguments(__doc__.split("\n\n")[0]).parse_args()
    mirror = args.mirror.resolve()
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-grounded-") as tmp:
        work = Path(tmp)
        empty, env = scorer_sandbox(work, mirror)
        cmd = [args.mwzrepro, "score", "--no-result-cache"]
        delex = prediction(mirror, args.system)
        timed(cmd + [str(delex)], empty, env)  # warm-up: builds the resources
        lex = work / f"{args.system}-lexicalized.json"
        lexicalized_file(delex, lex, env)
        rows = [
            ("lexicalized file, --lexicalized", [str(lex), "--lexicalized"]),
            ("  ... --setting grounded", [str(lex), "--lexicalized", "--setting", "grounded"]),
        ]
        for _, extra in rows:
            timed(cmd + extra, empty, env)  # warm-up of each
        walls = {label: min(timed(cmd + extra, empty, env) for _ in range(args.repeat))
                 for label, extra in rows}
        print(f"mwzrepro score {args.system} (all metrics), {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.2f}, best of {args.repeat}")
        for label, wall in walls.items():
            print(f"  {label:<40} {wall:6.2f} s wall")
        ratio = walls[rows[1][0]] / walls[rows[0][0]]
        print(f"  ratio grounded / lexicalized           {ratio:6.2f}  (target <= 1.5)")


if __name__ == "__main__":
    main()
