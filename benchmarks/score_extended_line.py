"""Benchmark: the cost of the "with placeholders=extended" line (issue 28; target: a file that
triggers it is scored, whole process, in at most 1.25× the time of the same file without it).

The file without the line is a system's published prediction file; the file with it is the
same file with every ``[value_reference]`` written ``[reference_number]`` (the descriptive
dialect of LLM prompts): under ``placeholders=reference`` those are deleted, and the second pass
(:mod:`mwzrepro.scorer.dialects.placeholder_pass`) rescores only the dialogues and BLEU segments they
change. Both calls run ``mwzrepro score --no-result-cache`` (all metrics) on resources
already built in a temporary cache (one untimed warm-up call builds them), from an empty
directory, alternately; the minimum of ``--repeat`` wall times is reported.

Usage::

    .venv/bin/python benchmarks/score_extended_line.py [--mirror ../shared/mirror]
        [--system ubar] [--mwzrepro .venv/bin/mwzrepro] [--repeat 5]

Wall times depend on other load on the machine; the load average is printed with them.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from score_cli import (  # noqa: E402
    best_walls,
    prediction,
    scorer_arguments,
    scorer_sandbox,
    timed,
)


def descriptive_file(source: Path, target: Path) -> int:
    """Write ``source`` with ``[value_reference]`` as ``[reference_number]``; the count."""
    data = json.loads(source.read_text(encoding="utf-8"))
    n = 0
    for turns in data.values():
        for turn in turns:
            n += turn["response"].count("[value_reference]")
            turn["response"] = turn["response"].replace("[value_reference]",
                                                        "[reference_number]")
    target.write_text(json.dumps(data), encoding="utf-8")
    return n


def main() -> None:
    ap = scorer_arguments(__doc__.split("\n\n")[0])
    ap.set_defaults(repeat=5)
    args = ap.parse_args()
    mirror = args.mirror.resolve()
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-ext-") as tmp:
        work = Path(tmp)
        empty, env = scorer_sandbox(work, mirror)
        cmd = [args.mwzrepro, "score", "--no-result-cache"]
        plain = prediction(mirror, args.system)
        timed(cmd + [str(plain)], empty, env)  # warm-up: builds the resources
        dialect = work / f"{args.system}-descriptive.json"
        n = descriptive_file(plain, dialect)
        rows = {"published file (no extended line)": [str(plain)],
                f"[reference_number] x{n} (extended line)": [str(dialect)]}
        best = best_walls(cmd, rows, empty, env, args.repeat, args.system)
        first, second = best.values()
        print(f"  ratio with / without the line              {second / first:6.2f}  "
              "(target <= 1.25)")


if __name__ == "__main__":
    main()
