"""Print the jobs of a Snakemake workflow's full DAG (``--forceall``) as JSON.

Run as a script in its own process (Snakemake changes the working directory and installs
global logging): ``python snakemake_dag.py WORKDIR [TARGET ...]``. Prints one JSON list, one
object per job except target-only rules without outputs (``rule all``):

``{"rule": str, "output": [path], "input": [path], "ancient": [path], "log": [path],
"shellcmd": str, "params": [str] (repr of each non-derived param value, what Snakemake's
params rerun trigger hashes), "temp": [path], "directory": [path], "protected": [path]}``.

Uses Snakemake's Python API (snakemake 9, pinned in uv.lock) plus ``Workflow._prepare_dag``
and ``_build_dag``, the two calls its own ``--summary``/``--dag`` commands make.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def jobs(workdir: Path, targets: list[str]) -> list[dict]:
    """The jobs Snakemake would run with ``--forceall`` for ``targets`` (default target if
    empty), in ``workdir`` (which holds ``Snakefile`` and ``params.yaml``)."""
    from snakemake.api import SnakemakeApi
    from snakemake.io import is_flagged
    from snakemake.settings.types import (
        DAGSettings,
        OutputSettings,
        Quietness,
        ResourceSettings,
    )

    out = []
    with SnakemakeApi(OutputSettings(quiet={Quietness.ALL}, dryrun=True)) as api:
        wf_api = api.workflow(
            resource_settings=ResourceSettings(cores=1),
            snakefile=workdir / "Snakefile",
            workdir=workdir,
        )
        dag_api = wf_api.dag(DAGSettings(targets=set(targets), forceall=True))
        workflow = dag_api.workflow_api._workflow
        workflow._prepare_dag(
            forceall=True, ignore_incomplete=True, lock_warn_only=True, nolock=True
        )
        workflow._build_dag()
        for job in workflow.dag.jobs:
            if not job.output:
                continue
            out.append(
                {
                    "rule": job.rule.name,
                    "output": [str(f) for f in job.output],
                    "input": [str(f) for f in job.input],
                    "ancient": [str(f) for f in job.input if is_flagged(f, "ancient")],
                    "log": [str(f) for f in job.log],
                    "shellcmd": job.shellcmd or "",
                    "params": [repr(p) for p in job.non_derived_params],
                    "temp": [str(f) for f in job.output if is_flagged(f, "temp")],
                    "directory": [str(f) for f in job.output if is_flagged(f, "directory")],
                    "protected": [str(f) for f in job.output if is_flagged(f, "protected")],
                }
            )
    return sorted(out, key=lambda j: j["output"])


if __name__ == "__main__":
    result = jobs(Path(sys.argv[1]).resolve(), sys.argv[2:])
    sys.stdout.write(json.dumps(result) + "\n")
