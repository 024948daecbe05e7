# Shared helpers of every rule: the mirror path, template mode (for the generated dvc.yaml),
# the sources registry, derived code dependencies, option rendering (the library's cli_args),
# wildcard constraints.
import copy
import os

import yaml

from code_deps import code_deps
from code_digest import DIGEST_DIR, digest_path
from dvc_template import TEMPLATE_ENV, is_structural, placeholder, placeholders, to_marker
from workflow_params import area_model

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import cli_args, quoted

# A relative MWZREPRO_MIRROR is resolved against the directory snakemake runs in, before any
# job sees it (jobs inherit the environment; download.mirror is resolved by the command).
MIRROR_ENV = "MWZREPRO_MIRROR"
if os.environ.get(MIRROR_ENV):
    os.environ[MIRROR_ENV] = os.path.abspath(os.environ[MIRROR_ENV])

# Snakemake already runs its jobs side by side on every core it is given: the commands that
# fork one worker per core under `dvc repro` (mwzrepro.core.workers) run in one process
# here (forked workers each import and memoize again: a cold -j2 run took about 35 s more
# CPU). An explicit MWZREPRO_JOBS is kept.
os.environ.setdefault("MWZREPRO_JOBS", "1")

# Template mode (workflow/scripts/make_dvc_yaml.py): every non-structural params.yaml value
# becomes a placeholder ($<block.key>, written ${block.key} in dvc.yaml), so the generated
# commands follow params.yaml.
TEMPLATE = os.environ.get(TEMPLATE_ENV) == "1"
# The values themselves, for the few decisions about which targets exist (template mode
# replaces `config`'s values by placeholders).
VALUES = copy.deepcopy(config)
if TEMPLATE:
    config.update(placeholders(config))

REGISTRY = "src/mwzrepro/resources/sources.yaml"
with open(REGISTRY, encoding="utf-8") as _fh:
    SOURCES = yaml.load(_fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["sources"]
# The project's registry of the user's own files (`add-system`), read with the
# shipped one. Commands get it only when it registers something their job uses, so an empty
# submissions.yaml changes no command.
SUBMISSIONS = "submissions.yaml"
SUBMITTED = {}
if os.path.exists(SUBMISSIONS):
    with open(SUBMISSIONS, encoding="utf-8") as _fh:
        SUBMITTED = (yaml.safe_load(_fh) or {}).get("sources") or {}
_clash = sorted(set(SUBMITTED) & set(SOURCES))
if _clash:
    raise ValueError(f"{SUBMISSIONS}: {', '.join(_clash)} already in {REGISTRY}")
SOURCES = {**SOURCES, **SUBMITTED}


def registries(entries=None):
    """The registry files for a job reading `entries` (registry entries; None: every one):
    the shipped registry, and submissions.yaml when one of them is the user's."""
    own = {e["path"] for e in SUBMITTED.values()}
    mine = bool(own) if entries is None else any(e["path"] in own for e in entries)
    return [REGISTRY] + ([SUBMISSIONS] if mine else [])


def sources_args(paths):
    """`--sources FILE` for each of `paths` (the registries() of a job)."""
    return " ".join(f"--sources {p}" for p in paths)


# Final targets; every rules file appends its own.
ALL_TARGETS = []
# Conda environment file of every job (set per job with the conda directive, --sdm conda).
ENV = "../envs/mwzrepro.yaml"


# The commands whose code some job depends on (code.smk writes their listings).
CODE_COMMANDS = set()


def code_files(command):
    """The package source files `mwzrepro <command>` may load, derived from the import graph
    (workflow/scripts/code_deps.py). Cached under .snakemake/ by the sources' hash."""
    return code_deps(command, "src", cache=".snakemake/mwzrepro-code-deps.json")


def code(command):
    """The code inputs of a job running `mwzrepro <command>`: its source files, so an edit
    reruns exactly the jobs whose process loads the edited module (Snakemake compares file
    times, which costs little). In template mode (the generated dvc.yaml) instead the listing
    of their hashes that the code_digests job writes (workflow/scripts/code_digest.py): one DVC
    dependency entry per stage instead of one per source file. (A Snakemake job cannot read
    the listing: rewriting it would rerun every job.)"""
    CODE_COMMANDS.add(command)
    if TEMPLATE:
        return [digest_path(command)]
    return code_files(command)


def raw(source_id):
    """The data/raw/ path of a registry entry."""
    return f"data/raw/{SOURCES[source_id]['path']}"


def db_files(prefix):
    """Every *_db.json venue database of the registry under data/raw/<prefix>/."""
    return sorted(
        f"data/raw/{e['path']}"
        for e in SOURCES.values()
        if e["path"].startswith(f"{prefix}/") and e["path"].endswith("_db.json")
    )


def param(key):
    """The params.yaml value of dotted `key` as one shell word (the library's quoted), or its
    placeholder in template mode when the key is not structural."""
    if TEMPLATE and not is_structural(key):
        return f'"{placeholder(key)}"'
    value = VALUES
    for part in key.split("."):
        value = value[part]
    try:
        return quoted(value, key)
    except ConfigError as exc:
        raise WorkflowError(f"params.yaml: {exc}") from None


def options(block, exclude=()):
    """`--key "value"` for every leaf of params.yaml block `block` (nested keys joined by "-",
    `--outer-inner`), rendered by the library's cli_args from the block's parameter model
    (workflow_params.AREA_MODELS): the options the commands derive from that same model.
    In template mode each value is its placeholder. `exclude` names dotted keys left out
    (structural ones such as bias.sources)."""
    try:
        text = cli_args(
            area_model(block), VALUES[block], block, template=TEMPLATE, exclude=tuple(exclude)
        )
    except ConfigError as exc:
        raise WorkflowError(f"params.yaml: {exc}") from None
    return to_marker(text)


wildcard_constraints:
    version=r"mwz2[0-9]+",
    split=r"[a-z_]+",
    system=r"[a-z0-9][a-z0-9_.-]*",
