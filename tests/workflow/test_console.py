"""Snakemake's console at normal verbosity lists no package source files: a job's ``input:``
line and its reason show the source files its command loads as one entry (``<N package source
files>``, workflow/scripts/console_listing.py), while the data files and the shell command
stay as they were. A dry run of the BLEU table from an empty workspace: every job of its DAG
is listed."""

from __future__ import annotations

import re
import subprocess

from tests.workflow.dags import copy_workflow, tool_env


def test_dry_run_lists_no_source_file(tmp_path) -> None:
    ws = copy_workflow(tmp_path / "ws")
    proc = subprocess.run(["snakemake", "-n", "-j1", "results/tables/bleu.md"], cwd=ws,
                          capture_output=True, text=True, env=tool_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    console = proc.stdout + proc.stderr
    assert "rule tables_bleu:" in console and "Shell command: mwzrepro tables-bleu" in console
    assert not re.findall(r"src/mwzrepro/\S+\.py", console)
    inputs = [line for line in console.splitlines() if line.startswith("    input: ")]
    assert inputs and all(re.search(r"<\d+ package source files?>", line) for line in inputs
                          if not line.endswith("sources.yaml"))
    assert "data/raw/mwz21/test.json.zip" in console          # data files are still named
