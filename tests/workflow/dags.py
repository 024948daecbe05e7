"""Both views of the pipeline, read the way each runner sees them, for the workflow tests.

* Snakemake: :func:`snakemake_jobs` runs ``workflow/scripts/snakemake_jobs.py`` in a
  subprocess (the ``--forceall`` DAG of the default target, or the jobs ``snakemake -n``
  would run: rule, wildcards, outputs, inputs, shell command, params).
* DVC: :func:`dvc_stages` reads ``dvc.repo.Repo(workdir).index.stages`` (foreach expanded:
  name, cmd, deps, outs, declared params).

Everything is derived from the files in the workspace: nothing here lists rules or stages.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import yaml

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SCRIPTS = REPO / "workflow" / "scripts"
#: What the pipeline needs besides data: the workflow definition, parameters and code.
WORKFLOW_FILES = ("Snakefile", "dvc.yaml", "params.yaml", ".dvcignore", "workflow", "src",
                  "profiles")


def tool_env(**extra: str) -> dict[str, str]:
    """Environment for subprocesses: the venv's ``bin`` first on PATH (``mwzrepro``,
    ``snakemake``, ``dvc``), DVC analytics and Git prompts off, and ``MWZREPRO_MIRROR`` (if
    set) as an absolute path: the subprocesses run in other directories, where a path
    relative to the test run's directory would point elsewhere."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["DVC_NO_ANALYTICS"] = "1"
    env["GIT_TERMINAL_PROMPT"] = "0"
    env.update(extra)
    if env.get("MWZREPRO_MIRROR"):
        env["MWZREPRO_MIRROR"] = os.path.abspath(env["MWZREPRO_MIRROR"])
    return env


def copy_workflow(dest: Path, params: dict | None = None) -> Path:
    """Copy the repository's workflow files (:data:`WORKFLOW_FILES`, those present) into
    ``dest``; write ``params`` as ``params.yaml`` if given. Returns ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    # The area pipelines' dvc.lock files record this checkout's run, like the root dvc.lock
    # (not a workflow file either).
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "dvc.lock")
    for name in WORKFLOW_FILES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore, dirs_exist_ok=True)
        elif src.is_file():
            shutil.copy2(src, dest / name)
    if params is not None:
        (dest / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    return dest


def run_script(name: str, *args: str, cwd: Path) -> str:
    """stdout of ``python workflow/scripts/<name> ARGS`` (the repository's copy) in ``cwd``;
    AssertionError with its stderr on failure."""
    proc = subprocess.run([sys.executable, str(SCRIPTS / name), *args], cwd=cwd,
                          capture_output=True, text=True, env=tool_env())
    assert proc.returncode == 0, f"{name} {' '.join(args)} failed:\n{proc.stderr[-4000:]}"
    return proc.stdout


def load_script(name: str) -> ModuleType:
    """The repository's ``workflow/scripts/<name>.py`` imported as module ``name`` (for the
    tests of the generators it holds)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- Snakemake side -------------------------------------------------------------------------


def snakemake_jobs(workdir: Path, targets: tuple[str, ...] = (), needrun: bool = False,
                   **env: str) -> list[dict]:
    """Jobs of the ``--forceall`` DAG in ``workdir`` (with ``needrun``: the jobs ``snakemake
    -n`` would run); see ``workflow/scripts/snakemake_jobs.py`` for the fields."""
    args = [str(workdir), *(["--needrun"] if needrun else []), *targets]
    proc = subprocess.run([sys.executable, str(SCRIPTS / "snakemake_jobs.py"), *args],
                          capture_output=True, text=True, env=tool_env(**env), cwd=workdir)
    assert proc.returncode == 0, f"Snakemake DAG of {workdir} failed:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout)


def job_key(job: dict) -> str:
    """The DVC stage name of a Snakemake job: ``score-bleu@mwz21``, ``tables-bleu``."""
    base = job["rule"].replace("_", "-")
    values = list(job["wildcards"].values())
    return f"{base}@{'-'.join(values)}" if values else base


# --- DVC side -------------------------------------------------------------------------------


def pipeline_docs(workdir: Path) -> dict[str, dict]:
    """Every ``dvc.yaml`` of ``workdir`` parsed, by path relative to it: the root one first,
    then each area's (``workflow/scripts/dvc_pipelines.py``)."""
    from mwzrepro.cli.workflow import pipeline_files

    return {p.relative_to(workdir).as_posix(): yaml.safe_load(p.read_text())
            for p in pipeline_files(workdir)}


@dataclass
class Stage:
    """One expanded DVC stage."""

    name: str  # e.g. "score-bleu@mwz21"
    cmd: str
    deps: list[str]
    outs: list[str]
    params: set[str] = field(default_factory=set)  # params.yaml keys its command interpolates
    uncached: set[str] = field(default_factory=set)  # outs with cache: false

    @property
    def base(self) -> str:
        """The stage family (the dvc.yaml key): ``score-bleu``."""
        return self.name.split("@")[0]


def dvc_stages(workdir: Path) -> list[Stage]:
    """Every pipeline stage of the ``dvc.yaml`` files of ``workdir`` as DVC resolves it
    (needs a ``.dvc`` directory; see :func:`dvc_init`); each runs in ``workdir``. A stage's
    ``params`` are the ``params.yaml`` keys DVC interpolated into its command (its tracked
    vars: stages list no ``params:``, their resolved command carries the values)."""
    from dvc.dependency.param import ParamsDependency
    from dvc.repo import Repo
    from dvc.stage import PipelineStage

    out = []
    with Repo(str(workdir)) as repo:
        for st in repo.index.stages:
            if not isinstance(st, PipelineStage):
                continue
            assert Path(st.wdir) == Path(repo.root_dir), f"{st.addressing} runs in {st.wdir}"
            assert not any(isinstance(d, ParamsDependency) for d in st.deps), (
                f"{st.name}: lists params:; its command carries them")
            deps = [str(d.def_path) for d in st.deps]
            params: set[str] = set()
            for file, values in st.tracked_vars.items():
                # DVC names the file relative to the process's working directory
                assert Path(file).resolve() == Path(repo.root_dir, "params.yaml").resolve(), (
                    f"{st.name}: values from {file}; params.yaml is the one file")
                params.update(values)
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


def dvc_json(workdir: Path, *args: str) -> dict:
    """``dvc <args> --json`` in ``workdir`` (``{}`` for empty output); for ``status``, keyed
    by stage name (DVC addresses a stage of an area's dvc.yaml as ``<file>:<name>``)."""
    proc = subprocess.run(["dvc", *args, "--json"], cwd=workdir, capture_output=True,
                          text=True, env=tool_env())
    assert proc.returncode == 0, f"dvc {' '.join(args)} failed:\n{proc.stderr[-3000:]}"
    out = json.loads(proc.stdout) if proc.stdout.strip() else {}
    if args[:1] == ("status",):
        from mwzrepro.cli.workflow import stage_name

        out = {stage_name(k): v for k, v in out.items()}
    return out


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
