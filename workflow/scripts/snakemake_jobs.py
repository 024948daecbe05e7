"""The jobs of the Snakemake workflow's DAG, read with Snakemake's Python API.

Used by ``make_dvc_yaml.py`` (in template mode: commands with ``${block.key}``
placeholders) and by the workflow tests. Snakemake changes the working directory and
installs global logging, so call :func:`dag_jobs` in a process of its own (a script or a
subprocess), never inside a long-lived process that does other work.

``python workflow/scripts/snakemake_jobs.py WORKDIR [--needrun] [TARGET ...]`` prints the jobs
as JSON: the whole ``--forceall`` DAG, or with ``--needrun`` only the jobs ``snakemake -n``
would run.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def load_dag(workdir: Path, targets: list[str] | tuple[str, ...] = (),
             forceall: bool = True) -> Iterator[tuple[object, object]]:
    """``(workflow, dag)``: Snakemake's workflow and DAG of ``targets`` (default target if
    empty; with ``forceall`` every job of it) in ``workdir``, dry-run, for as long as the
    ``with`` block lasts (the Snakemake API is closed after it)."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import DAGSettings, OutputSettings, Quietness, ResourceSettings

    with SnakemakeApi(OutputSettings(quiet={Quietness.ALL}, dryrun=True)) as api:
        wf_api = api.workflow(
            resource_settings=ResourceSettings(cores=1),
            snakefile=workdir / "Snakefile",
            workdir=workdir,
        )
        dag_api = wf_api.dag(DAGSettings(targets=set(targets), forceall=forceall))
        workflow = dag_api.workflow_api._workflow
        workflow._prepare_dag(
            forceall=forceall, ignore_incomplete=True, lock_warn_only=True, nolock=True
        )
        workflow._build_dag()
        yield workflow, workflow.dag


def dag_jobs(workdir: Path, targets: list[str] | tuple[str, ...] = (),
             forceall: bool = True) -> list[dict]:
    """Jobs of the DAG of ``targets`` (default target if empty) in ``workdir``.

    With ``forceall`` every job of the DAG; otherwise only the jobs that need to run. Each
    job: ``{"rule", "area" (stem of the file defining the rule: ``standard`` for
    ``workflow/rules/standard.smk``), "wildcards": {name: value}, "output": [path],
    "input": [path], "ancient": [path], "log": [path], "shellcmd", "params": [repr of each
    non-derived param value, what Snakemake's params trigger hashes], "temp", "directory",
    "protected"}``, sorted by output; rules without outputs (``rule all``) are left out.
    """
    from snakemake.io import is_flagged

    out = []
    with load_dag(workdir, targets, forceall) as (workflow, dag):
        jobs = dag.jobs if forceall else dag.needrun_jobs()
        for job in jobs:
            if not job.output:
                continue
            out.append(
                {
                    "rule": job.rule.name,
                    "area": Path(str(job.rule.snakefile)).stem,
                    "wildcards": dict(job.wildcards_dict),
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
        order = [r.name for r in workflow.rules]
    for job in out:
        job["rule_index"] = order.index(job["rule"])
    return sorted(out, key=lambda j: j["output"])


if __name__ == "__main__":
    args = sys.argv[1:]
    needrun = "--needrun" in args
    args = [a for a in args if a != "--needrun"]
    result = dag_jobs(Path(args[0]).resolve(), args[1:], forceall=not needrun)
    sys.stdout.write(json.dumps(result) + "\n")
