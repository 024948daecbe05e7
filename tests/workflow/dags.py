"""Both DAGs of the pipeline, read the way each runner sees them, for the workflow tests.

* Snakemake: :func:`snakemake_jobs` runs ``snakemake_dag.py`` in a subprocess (the full
  ``--forceall`` DAG of the default target: rule, outputs, inputs, shell command, params).
* DVC: :func:`dvc_stages` reads ``dvc.repo.Repo(workdir).index.stages`` (foreach/matrix
  expanded: name, cmd, deps, outs, declared params) and :func:`dvc_templates` the raw
  ``dvc.yaml`` (which ``${key}`` each stage interpolates).

Everything is derived from the files in the workspace: nothing here lists rules or stages.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
#: What the pipeline needs besides data: the workflow definition, parameters and code.
WORKFLOW_FILES = ("Snakefile", "dvc.yaml", "params.yaml", ".dvcignore", "workflow", "src",
                  "profiles")
_INTERP = re.compile(r"\$\{\s*([^}]+?)\s*\}")


def tool_env(**extra: str) -> dict[str, str]:
    """Environment for subprocesses: the venv's ``bin`` first on PATH (``mwzrepro``,
    ``snakemake``, ``dvc``), DVC analytics and Git prompts off."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["DVC_NO_ANALYTICS"] = "1"
    env["GIT_TERMINAL_PROMPT"] = "0"
    env.update(extra)
    return env


def copy_workflow(dest: Path, params: dict | None = None) -> Path:
    """Copy the repository's workflow files (:data:`WORKFLOW_FILES`, those present) into
    ``dest``; write ``params`` as ``params.yaml`` if given. Returns ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in WORKFLOW_FILES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore, dirs_exist_ok=True)
        elif src.is_file():
            shutil.copy2(src, dest / name)
    if params is not None:
        (dest / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    return dest


# --- Snakemake side -------------------------------------------------------------------------


def snakemake_jobs(workdir: Path, targets: tuple[str, ...] = ()) -> list[dict]:
    """Jobs of the ``--forceall`` DAG in ``workdir`` (see ``snakemake_dag.py`` for the
    fields). Raises AssertionError with Snakemake's message if the workflow does not load."""
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("snakemake_dag.py")), str(workdir),
         *targets],
        capture_output=True, text=True, env=tool_env(), cwd=workdir,
    )
    assert proc.returncode == 0, f"Snakemake DAG of {workdir} failed:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout)


# --- DVC side -------------------------------------------------------------------------------


@dataclass
class Stage:
    """One expanded DVC stage."""

    name: str  # e.g. "score-bleu@mwz20-augpt"
    cmd: str
    deps: list[str]
    outs: list[str]
    params: set[str] = field(default_factory=set)  # declared params.yaml keys
    uncached: set[str] = field(default_factory=set)  # outs with cache: false

    @property
    def base(self) -> str:
        """The stage family (the dvc.yaml key): ``score-bleu``."""
        return self.name.split("@")[0]


def dvc_stages(workdir: Path) -> list[Stage]:
    """Every pipeline stage of ``workdir/dvc.yaml`` as DVC resolves it (needs a ``.dvc``
    directory; see :func:`dvc_init`)."""
    from dvc.dependency.param import ParamsDependency
    from dvc.repo import Repo
    from dvc.stage import PipelineStage

    out = []
    with Repo(str(workdir)) as repo:
        for st in repo.index.stages:
            if not isinstance(st, PipelineStage):
                continue
            params: set[str] = set()
            deps = []
            for d in st.deps:
                if isinstance(d, ParamsDependency):
                    assert d.def_path == "params.yaml", (
                        f"{st.name}: params from {d.def_path}; params.yaml is the one file")
                    params.update(d.params or [])
                else:
                    deps.append(str(d.def_path))
            out.append(Stage(
                name=st.name, cmd=st.cmd if isinstance(st.cmd, str) else " && ".join(st.cmd),
                deps=deps, outs=[str(o.def_path) for o in st.outs], params=params,
                uncached={str(o.def_path) for o in st.outs if not o.use_cache},
            ))
    return sorted(out, key=lambda s: s.name)


def dvc_init(workdir: Path) -> None:
    """``dvc init --no-scm`` in ``workdir`` (enough for reading the index)."""
    from dvc.repo import Repo

    if not (workdir / ".dvc").is_dir():
        Repo.init(str(workdir), no_scm=True).close()


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in _strings(k) + _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def dvc_templates(workdir: Path) -> dict[str, dict]:
    """Per stage family of the raw ``dvc.yaml``: ``{"interpolated": set of params.yaml keys
    in ${...} of cmd/deps/outs, "declared": set of keys under params:, "loop": set of
    params.yaml keys a foreach/matrix iterates over}``. Keys are dotted (``dst.lambdas``);
    ``item``/``key`` references and keys of other vars files are left out."""
    doc = yaml.safe_load((workdir / "dvc.yaml").read_text())
    params = yaml.safe_load((workdir / "params.yaml").read_text()) or {}
    out = {}
    for name, spec in (doc.get("stages") or {}).items():
        body = spec.get("do", spec)
        loop = _strings(spec.get("foreach")) + _strings(spec.get("matrix"))
        interp = set()
        for s in _strings({k: body.get(k) for k in ("cmd", "deps", "outs")}):
            interp.update(_INTERP.findall(s))
        declared = set()
        for p in body.get("params") or []:
            if isinstance(p, str):
                declared.add(p)
            elif isinstance(p, dict):
                for f, keys in p.items():
                    if f == "params.yaml":
                        declared.update(keys or [])

        def own(keys):
            return {k for k in keys if k.split(".")[0] in params}

        out[name] = {
            "interpolated": own(interp),
            "declared": declared,
            "loop": own(k for s in loop for k in _INTERP.findall(s)),
        }
    return out


def expand_dep(dep: str, out_paths: set[str], workdir: Path) -> set[str]:
    """A DVC dependency as the set of files it stands for: itself if it is an output or a
    file; for a directory, the outputs of other stages under it (DVC links those stages),
    plus the files in it on disk that no stage outputs (e.g. code directories)."""
    if dep in out_paths:
        return {dep}
    prefix = dep.rstrip("/") + "/"
    under = {p for p in out_paths if p.startswith(prefix)}
    path = workdir / dep
    if path.is_dir():
        under |= {
            str(PurePosixPath(f.relative_to(workdir)))
            for f in path.rglob("*")
            if f.is_file() and "__pycache__" not in f.parts
        }
    return under or {dep}


def params_leaves(params: dict, prefix: str = "") -> dict[str, object]:
    """Leaves of a nested params dict as ``{"dst.lambdas": value}`` (lists are leaves)."""
    out: dict[str, object] = {}
    for k, v in params.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(params_leaves(v, key + "."))
        else:
            out[key] = v
    return out
