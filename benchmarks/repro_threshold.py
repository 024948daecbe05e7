"""Benchmark: `dvc repro` after `inform.fuzzy_threshold` 90 -> 85 on a built workspace (issue 10
item 7 target: <= 20 s, re-running only Inform/Success and what reads it).

Unlike ``benchmarks/pipeline.py`` (which builds everything from nothing first), this works on a
copy of an already built and recorded workspace (``snakemake`` then ``mwzrepro record``):

1. ``cp -a`` the workspace (``--from``) to ``--workspace`` (the original is never touched);
   its ``.venv`` is made to point at the copy (script shebangs, editable install);
   ``--src DIR`` replaces the copy's ``src/`` (to time other code: the copy is then re-recorded
   with ``dvc commit -f``, which assumes that code writes the same bytes);
2. ``dvc status`` (timed: DVC's fixed cost of one command), which must be clean;
3. ``inform.fuzzy_threshold`` -> 85 in params.yaml, ``dvc repro`` (timed): wall and CPU
   seconds, the stages it ran, and each stage's seconds (from its ``Running stage`` line to
   the next: the command plus DVC's bookkeeping of it);
4. the threshold restored, ``dvc repro`` again (timed too: it normally checks the old
   outputs out of DVC's run cache) and ``dvc status`` must be clean again.

Prints the load average before the run (the machine may be shared: figures are upper bounds).

Usage::

    .venv/bin/python benchmarks/repro_threshold.py [--from .] [--workspace DIR]
        [--src src] [--yaml-c] [--keep]

``--from`` defaults to this checkout (after ``make tables``); ``--workspace`` to a new
directory under the system's temporary directory.
        [--threshold 85]
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
# the same params.yaml editing and DVC log lines as the cold benchmark
from pipeline import (  # noqa: E402
    CACHED_STAGE,
    set_param,
    stage_name,
    stages_run,
    streamed,
)

REPO = Path(__file__).resolve().parents[1]


def relocate_venv(work: Path, origin: Path) -> Path:
    """Make ``work/.venv`` (a copy of ``origin/.venv``) run its own interpreter and import
    ``work/src``: rewrite script shebangs and the editable-install ``.pth`` files. Returns
    the copy's ``bin`` directory, or this interpreter's when the copy has no venv."""
    venv = work / ".venv"
    if not (venv / "bin" / "python").exists():
        return Path(sys.executable).parent
    old, new = str(origin / ".venv"), str(venv)
    for script in (venv / "bin").iterdir():
        if script.is_symlink() or not script.is_file():
            continue
        data = script.read_bytes()
        if data.startswith(f"#!{old}/".encode()):
            script.write_bytes(data.replace(old.encode(), new.encode(), 1))
    for pth in venv.glob("lib/python*/site-packages/*.pth"):
        text = pth.read_text()
        if str(origin / "src") in text:
            pth.write_text(text.replace(str(origin / "src"), str(work / "src")))
    return venv / "bin"


def run(args: list[str], cwd: Path, bindir: Path, check: bool = True
        ) -> tuple[float, float, list[tuple[float, str]]]:
    """(wall seconds, CPU seconds of the children, output lines with their seconds since the
    start) of one command."""
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}",
               DVC_NO_ANALYTICS="1")
    env.pop("PYTHONPATH", None)
    if env.get("MWZREPRO_MIRROR"):
        env["MWZREPRO_MIRROR"] = os.path.abspath(env["MWZREPRO_MIRROR"])
    wall, cpu, code, lines = streamed(args, cwd, env)
    if check and code:
        text = "\n".join(line for _, line in lines)
        sys.exit(f"`{' '.join(args)}` failed:\n{text[-4000:]}")
    return wall, cpu, lines


def cached_stages(lines: list[tuple[float, str]]) -> list[str]:
    """Stages DVC restored from its run cache instead of running them."""
    return [stage_name(m.group(1)) for _, line in lines if (m := re.search(CACHED_STAGE, line))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="origin", type=Path, default=REPO,
                        help="A built, recorded workspace (only read).")
    parser.add_argument("--workspace", type=Path, default=None,
                        help="Where to copy it (must not exist; default: a new temporary "
                        "directory).")
    parser.add_argument("--src", type=Path, default=None,
                        help="Replace the copy's src/ with this tree and re-record.")
    parser.add_argument("--threshold", type=float, default=85)
    parser.add_argument("--yaml-c", action="store_true",
                        help="Install ruamel.yaml.clib in the copy's venv (uv) first: DVC "
                             "then parses dvc.yaml, dvc.lock and params.yaml in C.")
    parser.add_argument("--keep", action="store_true", help="Keep the copy.")
    args = parser.parse_args()
    if args.workspace is None:
        args.workspace = Path(tempfile.mkdtemp(prefix="mwzrepro-repro-")) / "ws"
    origin, work = args.origin.resolve(), args.workspace.resolve()
    if work.exists():
        sys.exit(f"{work} exists; give a new --workspace")
    if not (origin / "dvc.lock").is_file():
        sys.exit(f"{origin}: no dvc.lock (build and record it first: snakemake; mwzrepro record)")
    if not os.environ.get("MWZREPRO_MIRROR") and (REPO.parent / "shared" / "mirror").is_dir():
        os.environ["MWZREPRO_MIRROR"] = str(REPO.parent / "shared" / "mirror")
    load = os.getloadavg()[0]
    subprocess.run(["cp", "-a", str(origin), str(work)], check=True)
    try:
        bindir = relocate_venv(work, origin)
        if args.yaml_c:
            uv = next((str(b / "uv") for b in (bindir, Path(sys.executable).parent)
                       if (b / "uv").is_file()), shutil.which("uv") or "uv")
            subprocess.run([uv, "pip", "install", "-q", "--python", str(bindir / "python"),
                            "ruamel.yaml.clib"], check=True)
        if args.src is not None:
            shutil.rmtree(work / "src")
            shutil.copytree(args.src.resolve(), work / "src",
                            ignore=shutil.ignore_patterns("__pycache__"))
            # record the new code's hashes without rerunning (assumes identical outputs)
            run([str(bindir / "dvc"), "commit", "-f", "-q", "--no-relink"], work, bindir)
        threshold = int(args.threshold) if float(args.threshold).is_integer() else args.threshold
        status, status_cpu, out = run([str(bindir / "dvc"), "status", "-q"], work, bindir,
                                      check=False)
        print(f"load average before: {load:.1f}; workspace {work} (copy of {origin})")
        print(f"dvc status (no change): {status:6.1f} s wall, {status_cpu:6.1f} s CPU")
        if out:
            print("    " + "\n    ".join(line for _, line in out[:20]))
            sys.exit("the workspace is not recorded: run `mwzrepro record` in it first")
        set_param(work, "inform.fuzzy_threshold", threshold)
        wall, cpu, out = run([str(bindir / "dvc"), "repro"], work, bindir)
        ran = stages_run(out, wall)
        print(f"dvc repro after inform.fuzzy_threshold 90 -> {threshold}: {wall:6.1f} s wall, "
              f"{cpu:6.1f} s CPU, {len(ran)} stages run")
        for stage, start, seconds in ran:
            print(f"    {stage:28s} starts at {start:5.1f} s, {seconds:5.1f} s with DVC's "
                  "bookkeeping")
        if cached_stages(out):
            print(f"    from the run cache (not run): {', '.join(cached_stages(out))}")
        set_param(work, "inform.fuzzy_threshold", 90)
        wall, cpu, out = run([str(bindir / "dvc"), "repro"], work, bindir)
        print(f"dvc repro after restoring 90: {wall:6.1f} s wall, {cpu:6.1f} s CPU; run: "
              f"{', '.join(s for s, _, _ in stages_run(out, wall)) or '-'}; from the run "
              f"cache: {', '.join(cached_stages(out)) or '-'}")
        _, _, out = run([str(bindir / "dvc"), "status", "-q"], work, bindir, check=False)
        print(f"dvc status after restoring: {'clean' if not out else 'NOT CLEAN'}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
