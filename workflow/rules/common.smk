# Shared helpers: the sources registry, code-dependency lists, wildcard constraints.
import yaml

SOURCES = yaml.safe_load(open("workflow/resources/sources.yaml"))["sources"]
REGISTRY = "workflow/resources/sources.yaml"
# Final targets; every rules file appends its own.
ALL_TARGETS = []
# Conda environment file of every job (set per job with the conda directive, --sdm conda).
ENV = "../envs/mwzrepro.yaml"


def code(*modules):
    """Package source files a step runs (inputs on both sides: edits rerun the step)."""
    return [f"src/mwzrepro/{m}" for m in ("core/io.py", "core/schemas.py") + modules]


def raw(source_id):
    """The data/raw/ path of a registry entry."""
    return f"data/raw/{SOURCES[source_id]['path']}"


wildcard_constraints:
    version=r"mwz2[0-9]+",
    split=r"[a-z_]+",
    system=r"[a-z0-9][a-z0-9_.-]*",
