"""Session fixtures of the workflow tests: one copy of the workflow files (no data) and its
Snakemake DAG, built once and shared by every module that only reads them."""

from __future__ import annotations

import pytest

from tests.workflow.dags import copy_workflow, dvc_init, snakemake_jobs


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    """A copy of the workflow files with ``dvc init --no-scm`` (read-only for tests)."""
    ws = copy_workflow(tmp_path_factory.mktemp("workflow"))
    dvc_init(ws)
    return ws


@pytest.fixture(scope="session")
def jobs(workspace):
    """Every job of the ``--forceall`` DAG of ``rule all`` in :func:`workspace`."""
    return snakemake_jobs(workspace)
