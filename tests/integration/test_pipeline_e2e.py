"""End-to-end: the real pipeline on the data mirror, in a throwaway copy of the repository.

One full ``snakemake`` run (session fixture) regenerates every table; the tests then check the
BLEU table against pinned figures, that a second run has nothing to do, that two cold runs
give byte-identical artefacts, and that a corrupted raw file or an empty mirror stops the
pipeline with a clear message and no partial output.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

BIN = Path(sys.executable).parent


def _copy_repo(dest: Path) -> Path:
    """Copy the files Git knows (tracked, or untracked and not ignored) into ``dest``."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    return dest


def _env(mirror: Path | str) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env['PATH']}"
    env["MWZREPRO_MIRROR"] = str(mirror)
    return env


def _snakemake(cwd: Path, mirror: Path | str, *args: str, check: bool = True):
    proc = subprocess.run(
        [str(BIN / "snakemake"), "all", *args, "-j2", "--quiet"], cwd=cwd, env=_env(mirror),
        capture_output=True, text=True,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {args} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}")
    return proc


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="session")
def pipeline_run(tmp_path_factory: pytest.TempPathFactory, mirror: Path) -> Path:
    """A copy of the repository after one full ``snakemake`` run on the mirror."""
    work = _copy_repo(tmp_path_factory.mktemp("e2e"))
    _snakemake(work, mirror)
    return work


def test_bleu_table_covers_all_systems_and_versions(pipeline_run: Path) -> None:
    metrics = json.loads((pipeline_run / "results/metrics/bleu.json").read_text())
    assert sorted(metrics["bleu"]) == ["mwz20", "mwz21"]
    for version in ("mwz20", "mwz21"):
        assert len(metrics["bleu"][version]) == 19
    # Regression figures (span-based references of each version; the leaderboard's 2.2
    # references give e.g. HDSA 20.7, LAVA 10.8, SOLOIST 13.6, LABES 18.9).
    assert metrics["bleu"]["mwz21"]["hdsa"] == pytest.approx(20.77, abs=0.01)
    assert metrics["bleu"]["mwz21"]["lava"] == pytest.approx(10.69, abs=0.01)
    assert metrics["bleu"]["mwz21"]["soloist"] == pytest.approx(13.61, abs=0.01)
    assert metrics["bleu"]["mwz20"]["mars"] == pytest.approx(19.78, abs=0.01)
    table = (pipeline_run / "results/tables/bleu.md").read_text()
    assert "| labes | 18.98 | 18.98 | 944/1000 |" in table
    for ext in (".csv", ".tex"):
        assert (pipeline_run / f"results/tables/bleu{ext}").stat().st_size > 0


def test_second_run_has_nothing_to_do(pipeline_run: Path, mirror: Path) -> None:
    proc = _snakemake(pipeline_run, mirror, "-n")
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_two_cold_runs_are_byte_identical(pipeline_run: Path, mirror: Path,
                                          tmp_path: Path) -> None:
    other = _copy_repo(tmp_path / "again")
    targets = [
        "data/interim/mwz21/test/turns.parquet",
        "data/interim/mwz21/test/states.parquet",
        "data/interim/mwz21/test/references.parquet",
        "data/interim/predictions/ubar.parquet",
        "results/scores/bleu/mwz21/ubar.parquet",
    ]
    proc = subprocess.run(
        [str(BIN / "snakemake"), *targets, "-j2", "--quiet"], cwd=other, env=_env(mirror),
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    for t in targets:
        assert _digest(other / t) == _digest(pipeline_run / t), t
    # Table assembly is deterministic too: re-render from the same scores.
    out = tmp_path / "tables" / "bleu"
    subprocess.run(
        [str(BIN / "mwzrepro"), "tables-bleu", "--scores-dir",
         str(pipeline_run / "results/scores/bleu"), "--table", str(out), "--metrics",
         str(tmp_path / "bleu.json"), "--plot", str(tmp_path / "plot.csv")],
        check=True, capture_output=True,
    )
    for ext in (".md", ".csv", ".tex"):
        assert _digest(out.with_suffix(ext)) == _digest(
            pipeline_run / f"results/tables/bleu{ext}"
        )
    assert _digest(tmp_path / "bleu.json") == _digest(pipeline_run / "results/metrics/bleu.json")
    assert _digest(tmp_path / "plot.csv") == _digest(pipeline_run / "results/plots/bleu.csv")


def test_corrupted_raw_file_stops_the_pipeline(mirror: Path, tmp_path: Path) -> None:
    work = _copy_repo(tmp_path / "corrupt")
    target = "data/interim/mwz21/test/turns.parquet"
    proc = subprocess.run([str(BIN / "snakemake"), target, "-j1", "--quiet"], cwd=work,
                          env=_env(mirror), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    raw = work / "data/raw/mwz21/test.json.zip"
    data = bytearray(raw.read_bytes())
    data[1000] ^= 0xFF
    raw.write_bytes(bytes(data))
    proc = subprocess.run([str(BIN / "snakemake"), "-j1", target], cwd=work,
                          env=_env(mirror), capture_output=True, text=True)
    assert proc.returncode != 0
    log = proc.stdout + proc.stderr
    assert "data/raw/mwz21/test.json.zip" in log
    assert "992547e1533b907a5fb876279c50d1887f945fa9" in log  # the pinned id
    assert "does not match" in log


def test_empty_mirror_fails_fast_without_partial_files(tmp_path: Path) -> None:
    work = _copy_repo(tmp_path / "empty")
    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    proc = subprocess.run(
        [str(BIN / "snakemake"), "-j1", "data/raw/mwz21/test.json.zip"], cwd=work,
        env=_env(empty), capture_output=True, text=True,
    )
    assert proc.returncode != 0
    log = proc.stdout + proc.stderr
    assert "not in the mirror" in log and "992547e1533b907a5fb876279c50d1887f945fa9" in log
    raw_dir = work / "data/raw"
    leftovers = [p for p in raw_dir.rglob("*") if p.is_file()] if raw_dir.exists() else []
    assert leftovers == []
