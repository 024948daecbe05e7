"""The DVC pipeline in several ``dvc.yaml`` files, one per area, each with its own small
``dvc.lock`` (DVC rewrites a stage's whole lock file, a round-trip YAML parse and
dump, after every stage it runs or restores; with one 230 KB lock that was half of DVC's own
time in a ``dvc repro``).

* An **area** is the rule file that defines a stage's rule: the stages of
  ``workflow/rules/standard.smk`` go to ``workflow/pipelines/standard/dvc.yaml``.
* The **root** ``dvc.yaml`` keeps the top-level ``metrics:`` and ``plots:``, the stages of
  :data:`ROOT_AREA` (the report) and every stage family with a job whose outputs no other
  job reads: a plain ``dvc repro`` (whose default target is ``./dvc.yaml``, with everything
  upstream) still reaches every stage of every file. Nothing else: the root lock is
  rewritten after each report stage, so it stays small (the tables are in their areas).
  ``dvc status``, ``dvc commit``, ``dvc pull`` and ``dvc push`` without targets cover every
  ``dvc.yaml`` of the repository, and ``dvc pull <output path>`` finds its stage anywhere.
* An area whose lock would hold more than :data:`LOCK_BUDGET` entries (deps and outs of its
  stages, :func:`lock_entries`) is split: each of its stage families gets its own
  file, ``workflow/pipelines/<area>.<family>/dvc.yaml`` (DVC rewrites the
  whole lock after each stage it runs or restores, a round-trip YAML parse and dump; the
  threshold loop's five ``stats`` stages rewrote the 40 KB ``stats`` lock five times, a
  third of a run-cache restore). The budget keeps the small areas whole: every file costs
  ``dvc status`` its parse, validation and ``vars`` load.
* An area stage runs in the repository root (``wdir``: :data:`WDIR`), so its paths, command
  and params are written exactly as in the root file; its ``${block.key}`` values come from
  the root ``params.yaml`` through ``vars:`` (DVC looks for ``params.yaml`` beside the
  ``dvc.yaml`` otherwise); the lock records them in the resolved command.

A stage outside the root file is addressed as ``<file>:<stage>`` in DVC's commands
(``dvc repro workflow/pipelines/tables/dvc.yaml:tables-bleu``); ``mwzrepro record`` and
``mwzrepro sync`` take stage names and resolve them (``mwzrepro.cli.workflow``).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from dvc_template import params_of  # workflow/scripts, beside this file

from mwzrepro.cli.workflow import PIPELINES_DIR

#: The area whose stages stay in the root ``dvc.yaml`` (workflow/rules/report.smk).
ROOT_AREA = "report"
#: An area stage's working directory, relative to its ``dvc.yaml``: the repository root.
WDIR = "/".join([".."] * (len(PurePosixPath(PIPELINES_DIR).parts) + 1))


#: Most lock entries (deps and outs of every stage) an area keeps in one file; a
#: larger area gets one file per stage family (``split``). About 130 bytes of lock each.
LOCK_BUDGET = 200


def pipeline_file(area: str, family: str | None = None) -> str:
    """The ``dvc.yaml`` of an area (or of one stage family of a split area), relative to the
    repository root.

    >>> pipeline_file("standard")
    'workflow/pipelines/standard/dvc.yaml'
    >>> pipeline_file("stats", "stats-bootstrap")
    'workflow/pipelines/stats.stats-bootstrap/dvc.yaml'
    """
    return f"{PIPELINES_DIR}/{area}{'.' + family if family else ''}/dvc.yaml"


def area_of(path: str) -> str:
    """The area (rule file) of a ``dvc.yaml`` under :data:`PIPELINES_DIR`.

    >>> area_of("workflow/pipelines/stats.stats-bootstrap/dvc.yaml")
    'stats'
    """
    return PurePosixPath(path).parent.name.split(".")[0]


def lock_entries(body: dict[str, Any]) -> int:
    """How many entries a stage family (plain or ``foreach``) writes into its lock: deps and
    outs of each of its stages.

    >>> lock_entries({"foreach": {"a": {}, "b": {}}, "do": {"deps": ["x", "y"], "outs": ["z"]}})
    6
    """
    spec = body.get("do", body)
    per_stage = sum(len(spec.get(key, [])) for key in ("deps", "outs"))
    return per_stage * len(body.get("foreach", [None]))


def _ancestors(path: str) -> list[str]:
    parts = PurePosixPath(path).parts
    return ["/".join(parts[:d]) for d in range(1, len(parts))]


def root_rules(jobs: list[dict], root_area: str = ROOT_AREA) -> set[str]:
    """The rules of ``root_area`` and every rule with a job whose outputs no other job reads
    (as an input equal to an output, inside it, or holding it): what a plain ``dvc repro``
    would not reach from the root file otherwise.

    >>> sorted(root_rules([{"rule": "a", "area": "x", "output": ["d/x"], "input": []},
    ...                    {"rule": "b", "area": "x", "output": ["d/y"], "input": ["d/x"]},
    ...                    {"rule": "c", "area": "x", "output": ["d/z/w"], "input": ["d/y"]},
    ...                    {"rule": "e", "area": "x", "output": ["d/v"], "input": ["d/z"]},
    ...                    {"rule": "r", "area": "report", "output": ["p"], "input": ["d/y"]}]))
    ['e', 'r']
    """
    inputs = {p for job in jobs for p in job["input"]}
    holding = {d for p in inputs for d in _ancestors(p)}
    return {job["rule"] for job in jobs
            if job["area"] == root_area
            or not any(o in inputs or o in holding or any(d in inputs for d in _ancestors(o))
                       for o in job["output"])}


def _in_root_dir(body: dict[str, Any]) -> dict[str, Any]:
    """A stage (or ``foreach`` family) of an area file, run in the repository root."""
    if "do" in body:
        return {**body, "do": {"wdir": WDIR, **body["do"]}}
    return {"wdir": WDIR, **body}


def split(doc: dict[str, Any], jobs: list[dict], stage_name,
          budget: int = LOCK_BUDGET) -> dict[str, dict[str, Any]]:
    """The pipeline ``doc`` (``{"stages", "metrics", "plots"}``, every stage in one file) as
    ``{file: document}``: the root ``dvc.yaml`` first, then one file per area (one per stage
    family of an area over ``budget`` lock entries), in the order of the stages. ``jobs``
    are the DAG's jobs (``rule``, ``area``, ``input``, ``output``); ``stage_name`` maps a
    rule to its stage family."""
    root_stages = {stage_name(r) for r in root_rules(jobs)}
    area = {stage_name(j["rule"]): j["area"] for j in jobs}
    root: dict[str, Any] = {}
    by_area: dict[str, dict[str, Any]] = {}
    for name, body in doc["stages"].items():
        if name in root_stages:
            root[name] = body
        else:
            by_area.setdefault(area[name], {})[name] = _in_root_dir(body)
    areas: dict[str, dict[str, Any]] = {}
    for name, stages in by_area.items():
        if sum(map(lock_entries, stages.values())) <= budget:
            areas[pipeline_file(name)] = stages
        else:
            areas.update({pipeline_file(name, family): {family: body}
                          for family, body in stages.items()})
    files: dict[str, dict[str, Any]] = {"dvc.yaml": {**doc, "stages": root}}
    for path, stages in areas.items():
        uses_params = any(params_of(body.get("do", body)["cmd"]) for body in stages.values())
        files[path] = {**({"vars": [f"{WDIR}/params.yaml"]} if uses_params else {}),
                       "stages": stages}
    return files
