"""Benchmark: ``mwzrepro score --lexicalized`` of one system, whole process, next to the
delexicalized ``mwzrepro score`` of the same system (issue 18; target: at most 2× the
delexicalized time), and ``--lexicalized --setting grounded`` next to ``--lexicalized``
(issue 27; target: at most 1.5×; one untimed warm-up call of it stores the per-resource-set
grounding tables, as a user's first call does).

The lexicalized input is the system's published (delexicalized) prediction file lexicalized
as a system does at run time (:func:`mwzrepro.prepare.delex.relexicalize.lexicalize_predictions`:
each placeholder filled from the database entity its own predicted state selects). Both
calls run with ``--no-result-cache`` on resources already built in a temporary cache (one
untimed warm-up call builds them), from an empty directory; the minimum of ``--repeat``
wall times is reported.

Usage::

    .venv/bin/python benchmarks/score_lexicalized.py [--mirror ../shared/mirror]
        [--system ubar] [--mwzrepro .venv/bin/mwzrepro] [--repeat 3]

Wall times depend on other load on the machine; the load average is printed with them.
"""

from __future__ import annotations

import json
import os
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


def lexicalized_file(source: Path, target: Path, env: dict[str, str]) -> None:
    """Write the lexicalized copy of ``source`` (the database from the benchmark's cache)."""
    from mwzrepro.prepare.delex.relexicalize import lexicalize_predictions
    from mwzrepro.scorer.resources.load import load_resources

    os.environ.update({k: env[k] for k in ("MWZREPRO_MIRROR", "MWZREPRO_CACHE")})
    db = load_resources("mwz21").database()
    data = json.loads(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(lexicalize_predictions(data, db)), encoding="utf-8")


def main() -> None:
    args = scorer_arguments(__doc__.split("\n\n")[0]).parse_args()
    mirror = args.mirror.resolve()
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-lex-") as tmp:
        work = Path(tmp)
        empty, env = scorer_sandbox(work, mirror)
        cmd = [args.mwzrepro, "score", "--no-result-cache"]
        delex = prediction(mirror, args.system)
        timed(cmd + [str(delex)], empty, env)  # warm-up: builds the resources
        lex = work / f"{args.system}-lexicalized.json"
        lexicalized_file(delex, lex, env)
        rows = {
            "delexicalized file": [str(delex)],
            "lexicalized file, --lexicalized": [str(lex), "--lexicalized"],
            "  ... --setting grounded": [str(lex), "--lexicalized", "--setting", "grounded"],
        }
        timed(cmd + rows["  ... --setting grounded"], empty, env)  # warm-up: grounding tables
        walls = best_walls(cmd, rows, empty, env, args.repeat, args.system)
        labels = list(rows)
        ratio = walls[labels[1]] / walls[labels[0]]
        print(f"  ratio lexicalized / delexicalized      {ratio:6.2f}  (target <= 2.0)")
        ratio = walls[labels[2]] / walls[labels[1]]
        print(f"  ratio grounded / lexicalized           {ratio:6.2f}  (target <= 1.5)")


if __name__ == "__main__":
    main()
