"""The workflow passes `snakemake --lint` and is formatted with snakefmt (issue 6, item 7)."""

from __future__ import annotations

import re
import subprocess

from tests.workflow.dags import REPO, copy_workflow, tool_env

SNAKEFILES = [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]


def test_snakemake_lint(tmp_path):
    ws = copy_workflow(tmp_path / "ws")
    proc = subprocess.run(["snakemake", "--lint"], cwd=ws, capture_output=True, text=True,
                          env=tool_env())
    out = proc.stdout + proc.stderr
    findings = re.findall(r"^Lints for .*$|^    \* .*$", out, flags=re.MULTILINE)
    assert proc.returncode == 0 and not findings, (
        "snakemake --lint:\n" + ("\n".join(findings) or out[-3000:]))


def test_snakefmt_check():
    assert len(SNAKEFILES) > 1
    proc = subprocess.run(["snakefmt", "--check", "--diff", *map(str, SNAKEFILES)], cwd=REPO,
                          capture_output=True, text=True, env=tool_env())
    assert proc.returncode == 0, (
        "run `snakefmt Snakefile workflow/rules/` (config: [tool.snakefmt] in pyproject.toml):"
        f"\n{(proc.stdout + proc.stderr)[-4000:]}")
