"""Keep Snakemake's and DVC's views of one workspace in step (design.md, "Snakemake executes,
DVC records and shares"; background-snakemake-dvc-ecosystem §1.3 pitfall 4).

* ``mwzrepro record`` — after a Snakemake run: check ``snakemake -n`` plans nothing, check
  that no directory a stage depends on whole holds a file no stage writes, drop
  the ``dvc.lock`` entries of stages that their ``dvc.yaml`` no longer has (``dvc commit``
  keeps them, and DVC parses the whole lock file on every command; the root ``dvc.yaml`` and
  one per area under :data:`PIPELINES_DIR`), then ``dvc commit -f --no-relink`` (record
  every stage's deps/outs in every ``dvc.lock`` and the cache without
  rewriting workspace files, so their times stay as Snakemake left them), then check ``dvc
  status`` is clean.
* ``mwzrepro sync`` — after ``dvc pull`` (or with ``--pull``): check ``dvc status`` is clean,
  ``snakemake --touch --forceall -c1`` (``dvc pull`` leaves file times in no useful order;
  touching every output in DAG order marks them up to date and records Snakemake's metadata
  for every job, so its params trigger works afterwards; without ``--forceall`` only the jobs
  that looked outdated get metadata), then check ``snakemake -n`` plans nothing.

Both only run the ``snakemake`` and ``dvc`` executables (never import them), in ``--workdir``.
Any failed check is one error line naming the command and what it reported.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import click

NOTHING_TO_DO = "Nothing to be done"


class WorkflowError(click.ClickException):
    """A runner failed or the workspace is not in the state the command needs."""


def _run(args: list[str], workdir: Path) -> subprocess.CompletedProcess:
    """Run ``args`` in ``workdir``; raise WorkflowError (with the tail of its output) if the
    executable is missing or exits non-zero."""
    if shutil.which(args[0]) is None:
        raise WorkflowError(f"`{args[0]}` not found on PATH (activate the project's .venv)")
    click.echo(f"$ {' '.join(args)}", err=True)
    proc = subprocess.run(args, cwd=workdir, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
        raise WorkflowError(f"`{' '.join(args)}` failed (exit {proc.returncode}):\n{tail}")
    return proc


def snakemake_plan(workdir: Path, targets: tuple[str, ...] = ()) -> int:
    """Number of jobs ``snakemake -n`` would run (0 if it reports nothing to be done).

    Raises:
        WorkflowError: snakemake fails, or its dry-run output has neither the
            nothing-to-be-done line nor a job-stats total.
    """
    proc = _run(["snakemake", "--dry-run", *targets], workdir)
    text = proc.stdout + proc.stderr
    if NOTHING_TO_DO in text:
        return 0
    m = re.search(r"^total\s+(\d+)\s*$", text, flags=re.MULTILINE)
    if m is None:
        raise WorkflowError(f"cannot read the plan of `snakemake -n` in {workdir}:\n"
                            + "\n".join(text.strip().splitlines()[-10:]))
    return int(m.group(1))


def dvc_changes(workdir: Path, targets: tuple[str, ...] = ()) -> dict:
    """``dvc status --json``: {stage or file: [changes]}, empty when the workspace matches
    ``dvc.lock``."""
    proc = _run(["dvc", "status", "--json", *targets], workdir)
    out = proc.stdout.strip()
    return json.loads(out) if out else {}


def stage_names(dvc_yaml: dict) -> set[str] | None:
    """Names of the stages of a parsed ``dvc.yaml`` (``name``, ``name@key`` for a ``foreach``
    over a mapping); None when they cannot be listed without DVC (a ``matrix``, or a
    ``foreach`` over a list or an interpolated value).

    >>> sorted(stage_names({"stages": {"a": {"cmd": "x"},
    ...                                "b": {"foreach": {"k1": {}, "k2": {}}, "do": {}}}}))
    ['a', 'b@k1', 'b@k2']
    """
    names: set[str] = set()
    for name, body in (dvc_yaml.get("stages") or {}).items():
        if "matrix" in body:
            return None
        if "foreach" in body:
            if not isinstance(body["foreach"], dict):
                return None
            names.update(f"{name}@{key}" for key in body["foreach"])
        else:
            names.add(name)
    return names


#: Where the area pipelines live, relative to the workspace: ``<area>/dvc.yaml`` and its own
#: ``dvc.lock`` beside the root ``dvc.yaml`` (generated, workflow/scripts/dvc_pipelines.py).
PIPELINES_DIR = "workflow/pipelines"


def _load_yaml(path: Path) -> dict:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}


def pipeline_files(workdir: Path) -> list[Path]:
    """The workspace's ``dvc.yaml`` files: the root one (if present), then each area's under
    :data:`PIPELINES_DIR`, sorted."""
    root = [workdir / "dvc.yaml"] if (workdir / "dvc.yaml").is_file() else []
    return root + sorted((workdir / PIPELINES_DIR).glob("*/dvc.yaml"))


def remove_area_file(path: Path) -> None:
    """Delete ``path`` (an area's ``dvc.yaml`` or ``dvc.lock`` under :data:`PIPELINES_DIR`)
    and then its directory, when nothing else is left in it."""
    path.unlink()
    if not any(path.parent.iterdir()):
        path.parent.rmdir()


def _prune(lock: Path, names: set[str] | None) -> list[str]:
    """Remove from ``lock`` the entries of stages not in ``names`` (the whole file when
    ``names`` is empty); their names."""
    import yaml

    if not lock.is_file() or names is None:
        return []
    doc = _load_yaml(lock)
    stages = doc.get("stages") or {}
    stale = [n for n in stages if n not in names]
    if stale and not names:
        remove_area_file(lock)
    elif stale:
        doc["stages"] = {n: v for n, v in stages.items() if n in names}
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        lock.write_text(yaml.dump(doc, Dumper=dumper, sort_keys=False), encoding="utf-8")
    return stale


def prune_lock(workdir: Path) -> list[str]:
    """Remove from every ``dvc.lock`` of the workspace the entries of stages its ``dvc.yaml``
    no longer has, and the lock files of area pipelines that no longer exist; the names of
    the dropped entries."""
    if not (workdir / "dvc.yaml").is_file():
        return []
    stale = []
    for spec in pipeline_files(workdir):
        stale += _prune(spec.with_name("dvc.lock"), stage_names(_load_yaml(spec)))
    for lock in sorted((workdir / PIPELINES_DIR).glob("*/dvc.lock")):
        if not lock.with_name("dvc.yaml").is_file():
            stale += _prune(lock, set())
    return stale


def _filled(path: str, item: dict) -> str:
    """``path`` with each ``${item.<key>}`` replaced by the ``foreach`` item's value."""
    return re.sub(r"\$\{item\.(\w+)\}", lambda m: str(item[m.group(1)]), path)


def _stage_paths(dvc_yaml: dict) -> tuple[set[str], set[str]]:
    """(deps, outs) of every stage of a parsed ``dvc.yaml``, ``foreach`` items filled in
    (``${item.<key>}``; the generated files keep other interpolation out of paths)."""
    deps: set[str] = set()
    outs: set[str] = set()
    for body in (dvc_yaml.get("stages") or {}).values():
        spec = body.get("do", body)
        out_paths = [o if isinstance(o, str) else next(iter(o)) for o in spec.get("outs", [])]
        items = body.get("foreach") or {None: {}}
        for item in (items.values() if isinstance(items, dict) else [{}]):
            deps.update(_filled(d, item) for d in spec.get("deps", []))
            outs.update(_filled(o, item) for o in out_paths)
    return deps, outs


def stray_files(workdir: Path) -> list[str]:
    """Files inside a directory that a stage depends on as a whole which no stage writes
    (say, the predictions of a system removed from ``params.yaml``): recorded into the
    directory's hash, they would be missing from every clone that pulls the outputs, and
    its ``dvc status`` would never be clean."""
    deps: set[str] = set()
    outs: set[str] = set()
    for spec in pipeline_files(workdir):
        d, o = _stage_paths(_load_yaml(spec))
        deps |= d
        outs |= o
    stray = []
    for dep in sorted(deps - outs):
        if not (workdir / dep).is_dir():
            continue
        files = [p.relative_to(workdir) for p in sorted((workdir / dep).rglob("*")) if p.is_file()]
        unwritten = [f.as_posix() for f in files
                     if not any(p.as_posix() in outs for p in (f, *f.parents))]
        if len(unwritten) < len(files):  # a directory of the repository itself (src/) is not
            stray += unwritten           # the workflow's: it may hold anything
    return stray


def _summary(changes: dict, limit: int = 8) -> str:
    names = sorted(changes)
    more = f" (+{len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


workdir_option = click.option(
    "--workdir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=".",
    show_default=True, help="Workspace (holds Snakefile, dvc.yaml, params.yaml).")


stages_argument = click.argument("stages", nargs=-1, metavar="[STAGE]...")


#: The rule writing the code listings every DVC stage depends on (workflow/rules/code.smk);
#: no Snakemake job reads them, so a partial run names it as a target of its own.
CODE_DIGESTS_RULE = "code_digests"


def _snakemake_targets(stages: tuple[str, ...]) -> list[str]:
    """Snakemake targets of DVC stages: the rule of the same name (``tables-bleu`` is rule
    ``tables_bleu``: dvc.yaml is generated from the rules, workflow/scripts/make_dvc_yaml.py),
    plus the code listings' rule (the stages depend on its outputs under DVC only)."""
    bad = [s for s in stages if "@" in s]
    if bad:
        raise WorkflowError(f"give whole stages without a foreach key (e.g. tables-bleu), not "
                            f"{', '.join(bad)}")
    targets = [s.replace("-", "_") for s in stages]
    return [*targets, CODE_DIGESTS_RULE] if targets else []


def stage_addresses(workdir: Path) -> dict[str, str]:
    """How DVC names each stage family of the workspace: ``{name: address}``, the name
    itself for a stage of the root ``dvc.yaml``, ``<file>:<name>`` for one of an area file
    (``dvc repro NAME`` looks in ``./dvc.yaml`` only)."""
    where: dict[str, str] = {}
    for spec in reversed(pipeline_files(workdir)):
        rel = spec.relative_to(workdir).as_posix()
        for name in _load_yaml(spec).get("stages") or {}:
            where[name] = name if rel == "dvc.yaml" else f"{rel}:{name}"
    return where


def stage_name(address: str) -> str:
    """The stage name in a DVC stage address (``dvc status``, ``Running stage '...'``).

    >>> stage_name("workflow/pipelines/standard/dvc.yaml:score-success@mwz21")
    'score-success@mwz21'
    >>> stage_name("tables-bleu")
    'tables-bleu'
    """
    return address.rpartition(":")[2]


def _dvc_targets(stages: tuple[str, ...], workdir: Path) -> list[str]:
    """DVC targets: the stages, by address, and everything they depend on (default: the
    whole pipeline)."""
    if not stages:
        return []
    where = stage_addresses(workdir)
    return [*(where.get(s, s) for s in stages), "--with-deps"]


@click.command("record")
@workdir_option
@stages_argument
def record(workdir: Path, stages: tuple[str, ...]) -> None:
    """After `snakemake`: record the run in the dvc.lock files (`dvc commit -f --no-relink`).

    Refuses when `snakemake -n` still plans jobs (the outputs would be recorded stale).
    STAGE: final stages without foreach (e.g. tables-bleu) to record with everything they
    depend on, when only part of the pipeline was run (default: the whole pipeline).
    """
    if stages:  # a partial run may not have written the code listings the stages depend on
        _run(["snakemake", CODE_DIGESTS_RULE, "--cores", "1"], workdir)
    pending = snakemake_plan(workdir, tuple(_snakemake_targets(stages)))
    if pending:
        raise WorkflowError(f"`snakemake -n` still plans {pending} jobs in {workdir}: run "
                            "`snakemake` to completion before `mwzrepro record`")
    stray = stray_files(workdir)  # checked before anything is written
    if stray:
        raise WorkflowError(f"{len(stray)} files that no stage writes lie in directories "
                            f"that stages depend on whole: {_summary(dict.fromkeys(stray))}; "
                            "delete them (left from an earlier configuration?) and record again")
    stale = prune_lock(workdir)
    if stale:
        click.echo(f"dropped {len(stale)} dvc.lock entries of stages no longer in dvc.yaml",
                   err=True)
    dvc_targets = _dvc_targets(stages, workdir)
    _run(["dvc", "commit", "--force", "--no-relink", *dvc_targets], workdir)
    changes = dvc_changes(workdir, tuple(dvc_targets))
    if changes:
        raise WorkflowError(f"`dvc status` not clean after `dvc commit`: {_summary(changes)}")
    click.echo("recorded: dvc status is clean; commit the dvc.lock files, results/metrics, "
               "results/records and results/plots "
               "to Git, then `dvc push`", err=True)


@click.command("sync")
@workdir_option
@click.option("--pull/--no-pull", default=False, show_default=True,
              help="Run `dvc pull` first (fetch the tracked outputs from the remote).")
@click.option("--remote", "-r", default=None, help="DVC remote for --pull (default: core.remote).")
@stages_argument
def sync(workdir: Path, pull: bool, remote: str | None, stages: tuple[str, ...]) -> None:
    """After `dvc pull`: make Snakemake accept the pulled outputs as up to date.

    Checks `dvc status` is clean (everything pulled, nothing edited), runs
    `snakemake --touch --forceall -c1`, then checks `snakemake -n` plans nothing. Recomputes
    nothing.
    STAGE: final stages without foreach (e.g. tables-bleu) to sync with everything they
    depend on (default: the whole pipeline).
    """
    sm_targets = _snakemake_targets(stages)
    dvc_targets = _dvc_targets(stages, workdir)
    if pull:
        _run(["dvc", "pull", *(["--remote", remote] if remote else []), *dvc_targets], workdir)
    changes = dvc_changes(workdir, tuple(dvc_targets))
    if changes:
        raise WorkflowError(f"`dvc status` is not clean in {workdir} ({_summary(changes)}): "
                            "run `dvc pull` (or `dvc checkout`) first, or `dvc repro` if you "
                            "changed code or params")
    _run(["snakemake", "--touch", "--forceall", "--cores", "1", *sm_targets], workdir)
    pending = snakemake_plan(workdir, tuple(sm_targets))
    if pending:
        raise WorkflowError(f"`snakemake -n` still plans {pending} jobs after "
                            "`snakemake --touch`; see `snakemake -n` for the reasons")
    click.echo("synced: dvc status is clean and snakemake has nothing to do", err=True)


COMMANDS = [record, sync]
HELP_GROUPS = {"workflow": [record, sync]}  # mwzrepro --help's group (cli.GROUPS)
