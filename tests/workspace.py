"""A workspace the pipeline has built, for the tests that read its outputs (the report in a
browser, the statistics on the real score files).

:func:`built_workspace` takes, in this order:

1. the directory named by ``MWZREPRO_WORKSPACE`` (it must be built);
2. the checkout, when the pipeline has run there (``make tables``);
3. otherwise (a fresh clone, CI) a reduced workspace built from the mirror in a temporary
   directory: :func:`workspace_params`, every target of the workflow for the test split of
   one version and :data:`SYSTEMS` (about a minute on two cores). It is built once per test
   run, by the first pytest-xdist worker that needs it, and shared with the others
   (:func:`tests.once.build_once`).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO, mirror_dir
from tests.once import build_once
from tests.workflow.dags import copy_workflow, tool_env
from tests.workflow.repos import reduced_params

#: The systems of the reduced workspace: AuGPT (the Inform-width acceptance test, 76.6 %),
#: LABES, and UBAR (Table 7's trace).
SYSTEMS = ["augpt", "labes", "ubar"]
#: Names the built workspace to use instead of the checkout or a reduced build.
WORKSPACE_ENV = "MWZREPRO_WORKSPACE"


def is_built(workdir: Path) -> bool:
    """Whether the whole workflow has run in ``workdir`` (tables and report pages present)."""
    return (workdir / "results" / "report" / "pages").is_dir() and any(
        (workdir / "results" / "tables").glob("*.md"))


def workspace_params() -> dict:
    """The workflow tests' reduced params.yaml (one version's test split) with
    :data:`SYSTEMS`."""
    params = reduced_params()
    params["systems"] = list(SYSTEMS)
    return params


def build_reduced(root: Path) -> Path:
    """``snakemake --cores 2`` (every target) of :func:`workspace_params` in ``root/ws``;
    skips when there is no mirror to build from."""
    mirror = mirror_dir()
    if not (mirror / "MANIFEST.tsv").is_file():
        pytest.skip(f"no built workspace and no data mirror at {mirror} to build one: run "
                    f"`make tables`, set {WORKSPACE_ENV}, or set MWZREPRO_MIRROR")
    ws = copy_workflow(root / "ws", params=workspace_params())
    done = subprocess.run(["snakemake", "--cores", "2"], cwd=ws, capture_output=True,
                          text=True, env=tool_env(MWZREPRO_MIRROR=str(mirror)), timeout=1800)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert is_built(ws), f"snakemake left no results/tables or results/report/pages in {ws}"
    return ws


def built_workspace(tmp_path_factory) -> Path:
    """The workspace (see the module docstring)."""
    env = os.environ.get(WORKSPACE_ENV)
    if env:
        assert is_built(Path(env)), (
            f"{WORKSPACE_ENV}={env} holds no built results/tables and results/report/pages "
            "(run `snakemake -j8` there)")
        return Path(env)
    if is_built(REPO):
        return REPO
    _, info = build_once(tmp_path_factory, "built-workspace",
                         lambda root: {"ws": str(build_reduced(root))})
    return Path(info["ws"])
