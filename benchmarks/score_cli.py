"""Benchmark: ``mwzrepro score`` as a user runs it — whole processes, from an empty directory —
and the install size of the scorer with and without the workflow extra.

Calls timed (wall clock of the whole process; one system's prediction file):

1. first call, cold cache: fetch and verify the raw files (from the mirror), build the
   MultiWOZ 2.1 resources, score;
2. later call, same file: the stored result is verified and printed (the issue's target for a
   later call: <= 1.5 s);
3. later call, same file, ``--no-result-cache``: full scoring on the cached resources;
4. later call, another system's file: full scoring on the cached resources (first time for
   that file);
5. start-up (issue 21: <= 0.3 s): a process that imports exactly the modules call 3 imports
   (read from its ``-X importtime`` report) and verifies the cached resources
   (``load_resources``), without scoring: interpreter, imports and cache verification; the
   imports alone (the report's top-level cumulative times) and ``mwzrepro score --help``
   are printed too, with whether pandas or pydantic were among the imports.

With ``--install``, two fresh virtual environments get ``pip install`` of this repository,
without and with ``[workflow]``, and their sizes are reported (``du`` of the environment,
minus an empty environment). That needs PyPI (or pip's cache) and takes a few minutes.

Usage::

    .venv/bin/python benchmarks/score_cli.py [--mirror ../shared/mirror] [--system ubar]
        [--other damd] [--mwzrepro .venv/bin/mwzrepro] [--repeat 3] [--install]

Wall times depend on other load on the machine; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EVALUATOR = "Tomiinek/MultiWOZ_Evaluation"


def prediction(mirror: Path, system: str) -> Path:
    hits = sorted((mirror / EVALUATOR).glob(f"*/predictions/{system}.json"))
    if not hits:
        raise SystemExit(f"no predictions/{system}.json under {mirror / EVALUATOR}")
    return hits[0]


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{run.stderr}")
    return wall


def best_walls(cmd: list[str], rows: dict[str, list[str]], cwd: Path, env: dict[str, str],
               repeat: int, system: str) -> dict[str, float]:
    """``{label: best wall seconds}`` of ``cmd + arguments`` for each row, the rows run in
    turn ``repeat`` times (alternating, so a load change hits every row alike); prints the
    heading and one line per row."""
    walls: dict[str, list[float]] = {label: [] for label in rows}
    for _ in range(repeat):
        for label, extra in rows.items():
            walls[label].append(timed(cmd + extra, cwd, env))
    print(f"mwzrepro score {system} (all metrics), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}, best of {repeat}")
    best = {label: min(w) for label, w in walls.items()}
    for label, wall in best.items():
        print(f"  {label:<42} {wall:6.2f} s wall")
    return best


#: A process doing what ``mwzrepro score`` does before scoring: the score path's imports
#: (argv[1]: JSON list of top-level modules) and the verification of the cached resources.
STARTUP = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
from mwzrepro.scorer.resources.load import load_resources
load_resources("mwz21")
"""


def score_path_imports(cmd: list[str], cwd: Path, env: dict[str, str]
                       ) -> tuple[list[str], float, set[str]]:
    """The top-level modules ``cmd`` imports, in order, the sum of their cumulative import
    times (seconds), and every module it imports, from Python's ``-X importtime`` report."""
    run = subprocess.run(cmd, cwd=cwd, env={**env, "PYTHONPROFILEIMPORTTIME": "1"},
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{run.stderr}")
    names, total, every = [], 0.0, set()
    for line in run.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        every.add(name.strip())
        if not name[1:2].isspace():  # depth 0: imported by the program itself
            names.append(name.strip())
            total += int(cumulative) / 1e6
    return names, total, every


def du(path: Path) -> int:
    return int(subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True,
                              check=True).stdout.split()[0]) * 1024


def install_sizes(work: Path) -> dict[str, float]:
    """MB of a fresh environment with ``pip install .`` and ``.[workflow]`` (minus an empty
    environment)."""
    source = work / "source"
    shutil.copytree(REPO / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source)
    sizes = {}
    venv.create(work / "empty", with_pip=True)
    base = du(work / "empty")
    for label, spec in (("core", str(source)), ("workflow", f"{source}[workflow]")):
        env_dir = work / label
        venv.create(env_dir, with_pip=True)
        subprocess.run([env_dir / "bin" / "python", "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", spec], check=True)
        sizes[label] = (du(env_dir) - base) / 1e6
    return sizes


def scorer_arguments(description: str) -> argparse.ArgumentParser:
    """The options every scorer benchmark takes: --mirror, --system, --mwzrepro, --repeat."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--mirror", type=Path,
                    default=Path(os.environ.get("MWZREPRO_MIRROR", REPO.parent / "shared" /
                                                "mirror")))
    ap.add_argument("--system", default="ubar")
    ap.add_argument("--mwzrepro", default=str(REPO / ".venv" / "bin" / "mwzrepro"))
    ap.add_argument("--repeat", type=int, default=3)
    return ap


def scorer_sandbox(work: Path, mirror: Path) -> tuple[Path, dict[str, str]]:
    """An empty working directory under ``work`` and the scorer's environment: ``mirror`` as
    data, a fresh resource cache in ``work/cache``."""
    empty = work / "empty-cwd"
    empty.mkdir()
    return empty, {**os.environ, "MWZREPRO_MIRROR": str(mirror.resolve()),
                   "MWZREPRO_CACHE": str(work / "cache")}


def main() -> None:
    ap = scorer_arguments(__doc__.split("\n\n")[0])
    ap.add_argument("--other", default="damd")
    ap.add_argument("--install", action="store_true")
    args = ap.parse_args()
    mirror = args.mirror.resolve()
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-") as tmp:
        work = Path(tmp)
        empty, env = scorer_sandbox(work, mirror)
        cmd = [args.mwzrepro, "score"]
        mine, other = prediction(mirror, args.system), prediction(mirror, args.other)
        rows = [("first call, cold cache", timed(cmd + [str(mine)], empty, env))]
        for label, extra, path in (
            ("later call, same file (stored result)", [], mine),
            ("later call, same file, --no-result-cache", ["--no-result-cache"], mine),
        ):
            walls = [timed(cmd + [str(path)] + extra, empty, env) for _ in range(args.repeat)]
            rows.append((label, min(walls)))
        rows.append((f"later call, another file ({args.other})",
                     timed(cmd + [str(other)], empty, env)))
        names, imports, every = score_path_imports(cmd + [str(mine), "--no-result-cache"], empty, env)
        python = str(Path(args.mwzrepro).parent / "python")  # the scorer's interpreter
        startup = [python, "-c", STARTUP, json.dumps(names)]
        rows.append(("start-up: imports + cache verification",
                     min(timed(startup, empty, env) for _ in range(args.repeat))))
        rows.append(("  of which the imports (-X importtime)", imports))
        rows.append(("mwzrepro score --help",
                     min(timed(cmd + ["--help"], empty, env) for _ in range(args.repeat))))
        heavy = sorted(every & {"pandas", "numpy", "pyarrow", "pydantic"})
        print(f"mwzrepro score {args.system}.json (all metrics), {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.2f}")
        for label, wall in rows:
            print(f"  {label:<45} {wall:6.2f} s wall")
        print(f"  score path imports pandas/numpy/pyarrow/pydantic: {', '.join(heavy) or 'none'}")
        if args.install:
            sizes = install_sizes(work / "install")
            print("install size (pip install ., above an empty environment):")
            for label, mb in sizes.items():
                print(f"  {label:<45} {mb:6.0f} MB")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
