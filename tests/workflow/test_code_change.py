"""Acceptance: editing a constant in the module that holds the seed aliases
(``src/mwzrepro/core/venue_aliases.py``, imported by the correction's parameters and by the
unseen-entity build) makes
`snakemake -n` and `dvc status` plan exactly the steps whose commands load that module (the
unseen-entity test set, the correction, and for Snakemake what reads their outputs), and
nothing else.

Under DVC a stage depends on its command's code listing (data/code-deps/<command>.sha1,
workflow/scripts/code_digest.py), not on the source files: `dvc status` first names the
listings' stage (code-digests) only; once `dvc repro` has rerun it, exactly the loaders.

No data and no run: every output of the DAG is created empty with one timestamp (so
Snakemake finds nothing to do) except the code listings (written for real), `dvc commit`
records that state, then the module is edited.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from mwzrepro.cli.workflow import stage_addresses
from tests.workflow.dags import (
    copy_workflow,
    dvc_init,
    dvc_json,
    job_key,
    snakemake_jobs,
    tool_env,
)

pytestmark = pytest.mark.filterwarnings("ignore:_NoneStep.value:DeprecationWarning")

MODULE = "src/mwzrepro/core/venue_aliases.py"
#: The job writing the code listings (rule code_digests, stage code-digests).
DIGESTS = "code-digests"


def _descendants(jobs: list[dict], roots: set[str]) -> set[str]:
    """Jobs (by key) that read, directly or not, an output of a job in ``roots``."""
    producer = {o: job_key(j) for j in jobs for o in j["output"]}
    readers: dict[str, set[str]] = {}
    for j in jobs:
        for i in j["input"]:
            if i in producer:
                readers.setdefault(producer[i], set()).add(job_key(j))
    out, stack = set(), list(roots)
    while stack:
        for r in readers.get(stack.pop(), ()):
            if r not in out:
                out.add(r)
                stack.append(r)
    return out


def _edit_a_constant(path: Path) -> None:
    """Add a seed alias to the table (or, if the table moved, a module constant)."""
    text = path.read_text()
    new = text.replace('("caffe uno", "caffe uno", "restaurant"),',
                       '("caffe uno", "caffe uno", "restaurant"), '
                       '("cafe uno", "caffe uno", "restaurant"),', 1)
    path.write_text(new if new != text else text + "\n_EDITED_BY_TEST = 1\n")


@pytest.fixture(scope="module")
def edited(tmp_path_factory, jobs):
    """``jobs``: the session's DAG of the unedited workflow files (tests/workflow/conftest.py),
    the DAG of this copy before the edit."""
    ws = copy_workflow(tmp_path_factory.mktemp("code-change"))
    stamp = time.time()
    for job in jobs:
        for out in job["output"]:
            path = ws / out
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")
            os.utime(path, (stamp, stamp))
    listings = next(j for j in jobs if job_key(j) == DIGESTS)
    proc = subprocess.run(listings["shellcmd"], shell=True, cwd=ws, capture_output=True,
                          text=True, env=tool_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    for out in listings["output"]:
        os.utime(ws / out, (stamp, stamp))
    dvc_init(ws)
    # --no-relink: keep the files (and their times) as they are, as `mwzrepro record` does.
    proc = subprocess.run(["dvc", "commit", "--force", "--no-relink", "--quiet"], cwd=ws,
                          capture_output=True, text=True, env=tool_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert snakemake_jobs(ws, needrun=True) == [], "the fresh workspace is not up to date"
    assert dvc_json(ws, "status") == {}
    _edit_a_constant(ws / MODULE)
    planned = {job_key(j) for j in snakemake_jobs(ws, needrun=True)}
    changed = set(dvc_json(ws, "status"))
    digests = stage_addresses(ws)[DIGESTS]
    proc = subprocess.run(["dvc", "repro", "--single-item", digests], cwd=ws,
                          capture_output=True, text=True, env=tool_env())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    relisted = set(dvc_json(ws, "status"))
    return jobs, planned, changed, relisted


def test_snakemake_plans_the_loaders_and_what_reads_them(edited):
    jobs, planned, _, _ = edited
    loaders = {job_key(j) for j in jobs if MODULE in j["input"]}
    rules = {k.split("@")[0] for k in loaders}
    assert {"unseen", "correct", DIGESTS} <= rules
    # The other loaders read the correction's outputs anyway: nothing outside
    # {unseen, correct} and what reads them (and the listings' job, which reads every module).
    core = {k for k in loaders if k.split("@")[0] in ("unseen", "correct")}
    assert loaders <= core | _descendants(jobs, core) | {DIGESTS}
    assert planned == loaders | _descendants(jobs, loaders)
    assert not {k for k in planned if k.split("@")[0] in
                ("ingest", "predictions", "score-bleu", "score-success", "score-dst")}


def test_dvc_status_names_exactly_the_loaders(edited):
    """`dvc status` lists the stages whose own dependencies changed: the listings' stage, and
    once it has rerun, exactly the loaders (their downstream reruns when `dvc repro` finds
    their outputs changed)."""
    jobs, _, changed, relisted = edited
    loaders = {job_key(j) for j in jobs if MODULE in j["input"]}
    assert changed == {DIGESTS}
    assert relisted == loaders - {DIGESTS}
