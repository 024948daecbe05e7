"""`mwzrepro record` / `mwzrepro sync` against stand-in `snakemake` and `dvc` executables that
log their arguments and print canned answers: the command sequences, and one clear error per
failed check. (The real runners are exercised in test_reproducibility.py.)"""

from __future__ import annotations

import os
import stat

import pytest
from click.testing import CliRunner

from mwzrepro.cli import cli

NOTHING = "Nothing to be done (all requested files are present and up to date)."
PENDING = "Job stats:\njob      count\n-----  -------\nscore_bleu    3\ntotal    3\n"


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """Stand-ins on PATH; ``fake(snakemake_n=..., dvc_status=...)`` sets their answers.
    Returns a function giving the logged calls. Commands run in an empty directory (never
    in the checkout: record edits dvc.lock)."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    bindir, log = tmp_path / "bin", tmp_path / "calls.log"
    bindir.mkdir()
    answers = tmp_path / "answers"
    answers.mkdir()

    def script(name: str) -> str:
        return f"""#!/bin/sh
echo "{name} $*" >> {log}
case "{name} $*" in
  "snakemake --dry-run"*) cat {answers}/snakemake_n ;;
  "dvc status --json"*) cat {answers}/dvc_status ;;
esac
exit 0
"""

    for name in ("snakemake", "dvc"):
        path = bindir / name
        path.write_text(script(name))
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")

    def configure(snakemake_n: str = NOTHING, dvc_status: str = "{}"):
        (answers / "snakemake_n").write_text(snakemake_n)
        (answers / "dvc_status").write_text(dvc_status)
        return lambda: log.read_text().splitlines() if log.exists() else []

    return configure


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_record_sequence(fake):
    calls = fake()
    result = invoke("record")
    assert result.exit_code == 0, result.output
    assert calls() == ["snakemake --dry-run", "dvc commit --force --no-relink",
                       "dvc status --json"]


def test_record_stages_map_to_rules(fake):
    calls = fake()
    assert invoke("record", "tables-bleu", "tables-standard").exit_code == 0
    assert calls() == [
        "snakemake code_digests --cores 1",
        "snakemake --dry-run tables_bleu tables_standard code_digests",
        "dvc commit --force --no-relink tables-bleu tables-standard --with-deps",
        "dvc status --json tables-bleu tables-standard --with-deps",
    ]


def test_record_refuses_pending_jobs(fake):
    calls = fake(snakemake_n=PENDING)
    result = invoke("record")
    assert result.exit_code == 1
    assert "still plans 3 jobs" in result.output
    assert not any(c.startswith("dvc commit") for c in calls())


def test_record_reports_unclean_status(fake):
    fake(dvc_status='{"score-bleu@mwz21-ubar": ["changed outs"]}')
    result = invoke("record")
    assert result.exit_code == 1
    assert "not clean" in result.output and "score-bleu@mwz21-ubar" in result.output


def test_record_rejects_foreach_stage(fake):
    fake()
    result = invoke("record", "score-bleu@mwz21-ubar")
    assert result.exit_code == 1 and "without a foreach key" in result.output


def test_sync_sequence(fake):
    calls = fake()
    result = invoke("sync", "--pull", "tables-bleu")
    assert result.exit_code == 0, result.output
    assert calls() == [
        "dvc pull tables-bleu --with-deps",
        "dvc status --json tables-bleu --with-deps",
        "snakemake --touch --forceall --cores 1 tables_bleu code_digests",
        "snakemake --dry-run tables_bleu code_digests",
    ]


def test_sync_refuses_unclean_status(fake):
    calls = fake(dvc_status='{"tables-bleu": [{"changed outs": {"x": "deleted"}}]}')
    result = invoke("sync")
    assert result.exit_code == 1 and "run `dvc pull`" in result.output
    assert not any(c.startswith("snakemake --touch") for c in calls())


def test_sync_reports_leftover_jobs(fake):
    fake(snakemake_n=PENDING)
    result = invoke("sync")
    assert result.exit_code == 1 and "still plans 3 jobs after" in result.output


def test_missing_executable(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    result = invoke("sync")
    assert result.exit_code == 1 and "`dvc` not found on PATH" in result.output


def test_record_drops_lock_entries_of_removed_stages(fake, tmp_path):
    """dvc commit keeps dvc.lock entries of stages dvc.yaml no longer has; record drops them
    first (the lock is parsed by every DVC command)."""
    import yaml

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "dvc.yaml").write_text(yaml.safe_dump({"stages": {
        "tables-bleu": {"cmd": "x"},
        "score-bleu": {"foreach": {"mwz21": {"version": "mwz21"}}, "do": {"cmd": "y"}}}}))
    entry = {"cmd": "x", "outs": [{"path": "a", "md5": "0" * 32, "size": 1}]}
    (ws / "dvc.lock").write_text(yaml.safe_dump({"schema": "2.0", "stages": {
        "tables-bleu": entry, "score-bleu@mwz21": entry, "score-bleu@mwz21-augpt": entry,
        "download@mwz21-test": entry}}))
    fake()
    result = invoke("record", "--workdir", str(ws))
    assert result.exit_code == 0, result.output
    assert "dropped 2 dvc.lock entries" in result.output
    lock = yaml.safe_load((ws / "dvc.lock").read_text())
    assert lock == {"schema": "2.0", "stages": {"tables-bleu": entry, "score-bleu@mwz21": entry}}


def test_record_area_pipelines(fake, tmp_path):
    """With the pipeline split by area (workflow/pipelines/<area>/dvc.yaml, each with its own
    lock): a stage of an area file is targeted as `<file>:<stage>`, each lock loses the
    entries its own dvc.yaml lacks, and the lock of an area that is gone is removed."""
    import yaml

    ws = tmp_path / "ws"
    (ws / "workflow/pipelines/stats").mkdir(parents=True)
    (ws / "workflow/pipelines/old").mkdir(parents=True)
    (ws / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"tables-bleu": {"cmd": "x"}}}))
    (ws / "workflow/pipelines/stats/dvc.yaml").write_text(yaml.safe_dump({"stages": {
        "stats-ranking": {"cmd": "y"}}}))
    entry = {"cmd": "x", "outs": [{"path": "a", "md5": "0" * 32, "size": 1}]}
    (ws / "workflow/pipelines/stats/dvc.lock").write_text(yaml.safe_dump({
        "schema": "2.0", "stages": {"stats-ranking": entry, "stats-old": entry}}))
    (ws / "workflow/pipelines/old/dvc.lock").write_text(yaml.safe_dump({
        "schema": "2.0", "stages": {"old-stage": entry}}))
    calls = fake()
    result = invoke("record", "--workdir", str(ws), "tables-bleu", "stats-ranking")
    assert result.exit_code == 0, result.output
    assert "dropped 2 dvc.lock entries" in result.output
    assert yaml.safe_load((ws / "workflow/pipelines/stats/dvc.lock").read_text())["stages"] \
        == {"stats-ranking": entry}
    assert not (ws / "workflow/pipelines/old").exists()
    assert "dvc commit --force --no-relink tables-bleu "\
           "workflow/pipelines/stats/dvc.yaml:stats-ranking --with-deps" in calls()


def test_record_refuses_stray_files_in_directory_deps(fake, tmp_path):
    """A file that no stage writes, inside a directory a stage depends on whole (the
    predictions of a system no longer in params.yaml), stops `record` before `dvc commit`,
    named: recorded into the directory's hash, a clone that pulls the outputs would never
    have it. A directory of the repository (no stage writes into it) may hold anything."""
    import yaml

    ws = tmp_path / "ws"
    (ws / "d/predictions").mkdir(parents=True)
    (ws / "src/pkg").mkdir(parents=True)
    for name in ("a.pq", "b.pq", "old.pq"):
        (ws / "d/predictions" / name).write_text(name)
    (ws / "src/pkg/mod.py").write_text("")
    (ws / "dvc.yaml").write_text(yaml.safe_dump({"stages": {
        "predictions": {"foreach": {"a": {"system": "a"}, "b": {"system": "b"}},
                        "do": {"cmd": "x", "outs": ["d/predictions/${item.system}.pq"]}},
        "score": {"cmd": "y", "deps": ["d/predictions", "src/pkg"], "outs": ["s.json"]}}}))
    lock = 'schema: "2.0"\nstages:\n  gone:\n    cmd: z\n'  # a stage no longer in dvc.yaml
    (ws / "dvc.lock").write_text(lock)
    calls = fake()
    result = invoke("record", "--workdir", str(ws))
    assert result.exit_code == 1
    assert (ws / "dvc.lock").read_text() == lock  # refused before anything is written
    assert "1 files that no stage writes" in result.output
    assert "d/predictions/old.pq" in result.output and "src/pkg" not in result.output
    assert "dvc commit" not in calls()
    (ws / "d/predictions/old.pq").unlink()
    assert invoke("record", "--workdir", str(ws)).exit_code == 0
