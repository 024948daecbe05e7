# Shared helpers of every rule: the mirror path, template mode (for the generated dvc.yaml),
# the sources registry, derived code dependencies, option rendering, wildcard constraints.
import copy
import os

import yaml

from code_deps import code_deps
from dvc_template import MARKER, TEMPLATE_ENV, placeholders

# A relative MWZREPRO_MIRROR is resolved against the directory snakemake runs in, before any
# job sees it (jobs inherit the environment; download.mirror is resolved by the command).
MIRROR_ENV = "MWZREPRO_MIRROR"
if os.environ.get(MIRROR_ENV):
    os.environ[MIRROR_ENV] = os.path.abspath(os.environ[MIRROR_ENV])

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
# Final targets; every rules file appends its own.
ALL_TARGETS = []
# Conda environment file of every job (set per job with the conda directive, --sdm conda).
ENV = "../envs/mwzrepro.yaml"


def code(command):
    """The package source files `mwzrepro <command>` may load, derived from the import graph
    (workflow/scripts/code_deps.py): inputs of the step, so an edit reruns exactly the steps
    whose process loads the edited module. Cached under .snakemake/ by the sources' hash."""
    return code_deps(command, "src", cache=".snakemake/mwzrepro-code-deps.json")


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


def quote(value):
    """A params.yaml value for the shell, in double quotes (values hold apostrophes, e.g. the
    seed alias "rosa's bed and breakfast"); booleans as true/false."""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    bad = sorted(set(text) & set('"$`\\')) if not MARKER.fullmatch(text) else []
    if bad:
        raise WorkflowError(
            f"params.yaml value {text!r}: the characters {''.join(bad)} "
            "cannot be passed on a command line"
        )
    return f'"{text}"'


def options(block, exclude=(), rename=None):
    """`--key "value"` for every leaf of params.yaml block `block` (nested keys joined by "-",
    `--outer-inner`): the option names the commands derive from the block's parameter model.
    Sorted by key, so that reordering params.yaml changes no command. `exclude` names dotted
    keys left out (structural ones such as bias.sources); `rename` maps a dotted key to
    another option name."""
    rename = rename or {}
    parts = []

    def walk(node, path):
        for key, value in sorted(node.items()):
            dotted = ".".join(path + [key])
            if dotted in exclude:
                continue
            if isinstance(value, dict):
                walk(value, path + [key])
                continue
            if isinstance(value, list):
                raise WorkflowError(f"params.yaml {block}.{dotted}: a list cannot be an option")
            name = rename.get(dotted, "-".join(path + [key]).replace("_", "-"))
            parts.append(f"--{name} {quote(value)}")

    walk(config[block], [])
    return " ".join(parts)


wildcard_constraints:
    version=r"mwz2[0-9]+",
    split=r"[a-z_]+",
    system=r"[a-z0-9][a-z0-9_.-]*",
