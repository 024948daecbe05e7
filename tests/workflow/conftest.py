"""Session fixtures of the workflow tests: one copy of the workflow files (no data) and its
Snakemake DAG, built once and shared by every module that only reads them (the DAG once per
test run: its paths are relative, the same in every xdist worker's copy)."""

from __future__ import annotations

import pytest

from tests.once import build_once
from tests.workflow.dags import copy_workflow, dvc_init, snakemake_jobs


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    """A copy of the workflow files with ``dvc init --no-scm`` (read-only for tests)."""
    ws = copy_workflow(tmp_path_factory.mktemp("workflow"))
    dvc_init(ws)
    return ws


@pytest.fixture(scope="session")
def jobs(workspace, tmp_path_factory):
    """Every job of the ``--forceall`` DAG of ``rule all`` in :func:`workspace`."""
    _, info = build_once(tmp_path_factory, "workflow-jobs",
                         lambda _: {"jobs": snakemake_jobs(workspace)})
    return info["jobs"]
