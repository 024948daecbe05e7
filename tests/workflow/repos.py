"""Throwaway Git+DVC repositories holding a small real subset of the pipeline, for the
reproducibility-workflow tests (issue 6): one dataset (the predictions' test version, test
split), that version as the only reference version, the first two systems of params.yaml, and
that test split as the only entity-bias source.

The reduced params.yaml changes structural keys (datasets, versions, systems), so the
workspace's ``dvc.yaml`` is regenerated from it (``workflow/scripts/make_dvc_yaml.py``).
Which parameter is changed and which stages are built are derived from that ``dvc.yaml``: the
parameter is the first of :data:`PARAM_CANDIDATES` some stage uses (the entity-bias count
unit first: its stages are the cheapest that change a metrics figure); the targets are the
final stages (nothing depends on them) downstream of its stages.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

from tests.workflow.dags import (
    REPO,
    copy_workflow,
    dvc_json,
    dvc_stages,
    params_leaves,
    run_script,
    tool_env,
)

#: Parameters to change, in order of preference (the first one a stage uses is taken).
PARAM_CANDIDATES = ("bias.bias_count_unit", "inform.fuzzy_threshold", "dst.fuzzy_threshold")
#: The other value of a parameter with named values.
ALTERNATIVE = {"turn": "dialogue", "dialogue": "turn"}


def run(args: list[str], cwd: Path, mirror: Path | None = None,
        check: bool = True) -> subprocess.CompletedProcess:
    """Run a command (venv tools first on PATH); AssertionError with its output on failure."""
    env = tool_env(**({"MWZREPRO_MIRROR": str(mirror)} if mirror else {}))
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"`{' '.join(args)}` failed in {cwd} (exit {proc.returncode}):\n"
                             f"{(proc.stdout + proc.stderr)[-5000:]}")
    return proc


def git(cwd: Path, *args: str) -> str:
    return run(["git", *args], cwd).stdout


def reduced_params() -> dict:
    """The repository's params.yaml with one dataset, one version and two systems (and the
    unseen-entity bases and bias sources of that version, so that the DAG is complete)."""
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    version = params["predictions"]["test_version"]
    params["datasets"] = {k: v for k, v in params["datasets"].items()
                          if v["version"] == version and v["split"] == "test"}
    params["versions"] = [version]
    params["systems"] = params["systems"][:2]
    params["unseen"]["bases"] = {version: params["unseen"]["bases"][version]}
    params["bias"]["sources"] = [s for s in params["bias"]["sources"]
                                 if s["version"] == version and s["split"] == "test"]
    return params


def write_params_keeping_its_form(ws: Path, params: dict) -> None:
    """Write ``params`` (a reduction of the repository's params.yaml: fewer keys and list
    items, no new ones) as ``ws/params.yaml`` in the repository file's own form: its comments,
    quoting and flow style, the left-out keys and items deleted in place (ruamel round trip,
    quotes preserved). The recipes' "there and back" then sees the form a user has."""
    from ruamel.yaml import YAML

    rt = YAML()
    rt.preserve_quotes = True
    data = rt.load((REPO / "params.yaml").read_text(encoding="utf-8"))

    def reduce(node, value):
        if isinstance(node, dict):
            for key in [k for k in node if k not in value]:
                del node[key]
            for key, sub in value.items():
                if isinstance(sub, (dict, list)):
                    reduce(node[key], sub)
        elif isinstance(node, list):
            for i in reversed(range(len(node))):
                if node[i] not in value:
                    del node[i]
        assert node == value, f"not a reduction of params.yaml: {value!r}"

    reduce(data, params)
    with (ws / "params.yaml").open("w", encoding="utf-8") as out:
        rt.dump(data, out)


def changed_value(value):
    """The value the tests set the parameter to: 90 → 85 (ints), 0.9 → 0.85 (fractions),
    turn → dialogue (:data:`ALTERNATIVE`)."""
    if isinstance(value, str) and value in ALTERNATIVE:
        return ALTERNATIVE[value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"cannot derive a changed value from {value!r}")
    return value - 5 if isinstance(value, int) else round(value - 0.05, 4)


def set_param(ws: Path, key: str, value) -> None:
    """Set one params.yaml value (rewrites the file; comments do not matter here)."""
    path = ws / "params.yaml"
    params = yaml.safe_load(path.read_text())
    node = params
    *parents, leaf = key.split(".")
    for p in parents:
        node = node[p]
    assert leaf in node, f"{key} not in {path}"
    node[leaf] = value
    path.write_text(yaml.safe_dump(params, sort_keys=False))


@dataclass
class Pipeline:
    """What the tests change and build, derived from the workspace's dvc.yaml."""

    param: str
    old: object
    new: object
    users: set[str]  # expanded stages whose command uses the parameter
    targets: list[str]  # final stages built by the tests (no foreach)
    outs: dict[str, list[str]] = field(default_factory=dict)  # stage -> outs (ancestry)
    dvc_targets: list[str] = field(default_factory=list)  # the targets as DVC addresses them


def plan(ws: Path) -> Pipeline:
    """Choose the parameter and the target stages in ``ws`` (needs .dvc)."""
    import networkx as nx
    from dvc.repo import Repo

    declared = {s.name: s.params for s in dvc_stages(ws)}
    leaves = params_leaves(yaml.safe_load((ws / "params.yaml").read_text()))
    param = next((p for p in PARAM_CANDIDATES if any(p in d for d in declared.values())), None)
    assert param is not None, f"no stage uses any of {PARAM_CANDIDATES}"
    users = {n for n, d in declared.items() if param in d}
    with Repo(str(ws)) as repo:
        graph = repo.index.graph  # edges: stage -> the stages it depends on
        by_name = {s.name: s for s in graph.nodes if hasattr(s, "cmd") and s.cmd}
        # The report's stages read every table: the targets are the last stages before them.
        report = {s for n, s in by_name.items() if n.startswith("report-")}
        graph = graph.subgraph([s for s in graph.nodes if s not in report])
        by_name = {n: s for n, s in by_name.items() if s not in report}
        finals = {n for n, s in by_name.items() if graph.in_degree(s) == 0}
        targets = sorted(n for n in finals if "@" not in n and users & {
            a.name for a in nx.descendants(graph, by_name[n])})
        needed = set(targets)
        for t in targets:
            needed |= {a.name for a in nx.descendants(graph, by_name[t])}
        outs = {n: [str(o.def_path) for o in by_name[n].outs] for n in needed}
    assert users <= needed, f"stages using {param} outside the targets: {users - needed}"
    from mwzrepro.cli.workflow import stage_addresses

    addresses = stage_addresses(ws)
    return Pipeline(param, leaves[param], changed_value(leaves[param]), users, targets, outs,
                    [addresses[t] for t in targets])


def snakemake_targets(stages: list[str]) -> list[str]:
    return [s.replace("-", "_") for s in stages]


def init_repo(ws: Path, store: Path) -> None:
    """git init + dvc init, default remote ``store`` (a local directory), first commit."""
    shutil.copy2(REPO / ".gitignore", ws / ".gitignore")
    run(["git", "init", "-q", "-b", "main"], ws)
    git(ws, "config", "user.email", "tests@mwzrepro.invalid")
    git(ws, "config", "user.name", "mwzrepro tests")
    git(ws, "config", "commit.gpgsign", "false")
    run(["dvc", "init", "-q"], ws)
    run(["dvc", "config", "core.analytics", "false"], ws)
    run(["dvc", "remote", "add", "-d", "store", str(store)], ws)
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "workflow")


def commit_all(ws: Path, message: str) -> None:
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", message)


def copy_repo(src: Path, dest: Path) -> Path:
    """A copy of a whole workspace (Git, DVC cache, .snakemake metadata, file times)."""
    shutil.copytree(src, dest, symlinks=True)
    return dest


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - t0


def dvc_ran(output: str) -> set[str]:
    """Stages `dvc repro`/`dvc exp run` executed (its "Running stage 'X':" lines), by name
    (an area pipeline's stage is addressed as `<its dvc.yaml>:<name>`; names are unique)."""
    from mwzrepro.cli.workflow import stage_name

    return {stage_name(s) for s in re.findall(r"Running stage '([^']+)'", output)}


def dvc_status(ws: Path, stages: list[str]) -> dict:
    """``dvc status --json`` of the stages (DVC addresses, ``Pipeline.dvc_targets``) with
    what they depend on, keyed by stage name (:func:`tests.workflow.dags.dvc_json`)."""
    return dvc_json(ws, "status", *stages, "--with-deps")


def snakemake_summary(ws: Path, targets: list[str]) -> list[dict]:
    """`snakemake --summary`: one row per output (output_file, rule, status, plan)."""
    out = run(["snakemake", "--summary", *targets], ws).stdout
    start = out.index("output_file\t")
    return list(csv.DictReader(io.StringIO(out[start:]), delimiter="\t"))


def _owner(output: str, owner: dict[str, str]) -> str | None:
    """The stage whose out is ``output`` or a directory holding it."""
    path = PurePosixPath(output)
    for candidate in (path, *path.parents):
        if str(candidate) in owner:
            return owner[str(candidate)]
    return None


def stages_of(outputs: set[str], outs: dict[str, list[str]]) -> set[str]:
    """The stages (of ``outs``: stage → outputs, files or directories) producing these output
    files."""
    owner = {o: s for s, os_ in outs.items() for o in os_}
    found = {o: _owner(o, owner) for o in outputs}
    missing = {o for o, s in found.items() if s is None}
    assert not missing, f"outputs of no DVC stage: {sorted(missing)[:5]}"
    return set(found.values())


def tracked_files(ws: Path, outs: dict[str, list[str]]) -> dict[str, bytes]:
    """Bytes of every output file of the given stages (the files of a directory out)."""
    files = {}
    for os_ in outs.values():
        for o in os_:
            path = ws / o
            members = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() \
                else [path]
            files.update({p.relative_to(ws).as_posix(): p.read_bytes() for p in members})
    return files


def build_base(root: Path, mirror: Path) -> tuple[Path, Pipeline, float]:
    """A repository with the reduced pipeline built by Snakemake, recorded in DVC, committed
    and pushed to ``root/store``. Returns (workspace, plan, seconds of the Snakemake run)."""
    ws = copy_workflow(root / "base", params=reduced_params())
    run_script("make_dvc_yaml.py", "--workdir", str(ws), cwd=ws)
    init_repo(ws, root / "store")
    pipe = plan(ws)
    targets = snakemake_targets(pipe.targets)
    _, seconds = timed(run, ["snakemake", "--cores", "2", *targets], ws, mirror)
    run(["mwzrepro", "record", *pipe.targets], ws)
    commit_all(ws, "results")
    run(["dvc", "push", "-q", *pipe.dvc_targets, "--with-deps"], ws)
    return ws, pipe, seconds
