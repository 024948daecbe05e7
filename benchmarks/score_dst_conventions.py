"""Benchmark: ``mwzrepro score FILE --dst-convention all`` against ``mwzrepro score FILE``, whole
processes (target: at most 1.5 times the plain call; spec-dst-metrics §12.9).

Both run with ``--no-result-cache`` on warm resources in a sandbox (:func:`score_cli.
scorer_sandbox`: an empty working directory, a fresh resource cache built by a first, untimed
call), alternating, best of ``--repeat``; the ratio of the best walls is printed with the load
average (the machine is shared).

Usage::

    .venv/bin/python benchmarks/score_dst_conventions.py [--mirror ../shared/mirror]
        [--system augpt] [--repeat 3] [--mwzrepro .venv/bin/mwzrepro]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from score_cli import best_walls, prediction, scorer_arguments, scorer_sandbox, timed  # noqa: E402


def main() -> None:
    args = scorer_arguments(__doc__.split("\n\n")[0]).parse_args()
    mirror = args.mirror.resolve()
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-") as tmp:
        empty, env = scorer_sandbox(Path(tmp), mirror)
        path = str(prediction(mirror, args.system))
        cmd = [args.mwzrepro, "score", path, "--no-result-cache"]
        timed(cmd, empty, env)  # builds the resources: untimed
        best = best_walls(cmd, {"score FILE": [],
                                "score FILE --dst-convention all": ["--dst-convention", "all"]},
                          empty, env, args.repeat, args.system)
        ratio = best["score FILE --dst-convention all"] / best["score FILE"]
        print(f"  ratio {ratio:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
