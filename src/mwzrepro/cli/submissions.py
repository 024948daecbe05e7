"""``mwzrepro add-system``: register your own prediction file as a pipeline source.

Registrations live in the project's own registry, ``submissions.yaml`` at the project root
(section ``sources:``, the layout of the shipped ``src/mwzrepro/resources/sources.yaml``), never
in the package: a wheel built afterwards carries no private entry. The workflow, ``mwzrepro
download`` and the report's provenance page read both registries as one
(:func:`mwzrepro.core.sources.load_registries`).

An entry is the shipped registry's (``path``, ``url: file:<relative path>``, ``sha1`` = git
blob SHA-1, ``role: prediction``) plus optional table labels ``model`` and ``type`` (the
Inform/Success table's columns of those names; ``tables-standard --submissions``) and
``form: lexicalized`` for a file of lexicalized text (``--form``, read from the responses by
default): the workflow's ``lexicalized`` system kind, scored as given in the grounded table
(``tables-grounded --lexicalized-system``) and by no step that reads placeholders. A file
outside the project is copied to ``data/submissions/<name>.json`` first, so the registered path
is always relative to the project root.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

__all__ = ["add_system", "submission_entry", "COMMANDS"]

#: The project's registry of the user's own sources (relative to the project root).
SUBMISSIONS = Path("submissions.yaml")
#: Where files from outside the project are copied.
COPIES = Path("data/submissions")
#: The shipped registry (read to refuse an id it already has).
SHIPPED = Path("src/mwzrepro/resources/sources.yaml")

_HEADER = ("# Your own prediction files, registered with `mwzrepro add-system` (read with the\n"
           "# shipped src/mwzrepro/resources/sources.yaml; same layout, section `sources:`).\n")


def _source_id(name: str) -> str:
    """The registry id of system ``name``'s prediction file (``mwzeval-predictions-NAME``)."""
    return f"mwzeval-predictions-{name}"


def submission_entry(name: str, url: str, sha1: str, model: str | None = None,
                     kind: str | None = None, lexicalized: bool = False) -> str:
    """The YAML text of system ``name``'s registry entry (id ``mwzeval-predictions-NAME``,
    two-space indented under ``sources:``); ``form: lexicalized`` marks a file of lexicalized
    text (the ``lexicalized`` system kind).

    >>> print(submission_entry("mine", "file:mine.json", "ab12", model="GPT-x", kind="LLM",
    ...                        lexicalized=True), end="")
      mwzeval-predictions-mine:
        path: mwzeval/predictions/mine.json
        url: file:mine.json
        sha1: ab12
        role: prediction
        model: "GPT-x"
        type: "LLM"
        form: lexicalized
    """
    lines = [f"  {_source_id(name)}:", f"    path: mwzeval/predictions/{name}.json",
             f"    url: {url}", f"    sha1: {sha1}", "    role: prediction"]
    lines += [f"    {key}: {json.dumps(value)}" for key, value in (("model", model),
                                                               ("type", kind)) if value]
    lines += ["    form: lexicalized"] if lexicalized else []
    return "\n".join(lines) + "\n"


def _read_prediction_file(path: Path, form: str) -> tuple[bytes, bool]:
    """``(the file's bytes, whether it is lexicalized)`` after checking it is a prediction
    file (JSON in one of the scorer's accepted shapes, parsed by the scorer's
    ``read_predictions`` for its error messages); ``form`` ``auto`` reads the form from the
    responses (:func:`mwzrepro.scorer.lexicalized.file_form.looks_delexicalized`). Raises InputError (one
    line naming the file)."""
    from mwzrepro.scorer.evaluator import read_predictions
    from mwzrepro.scorer.lexicalized.file_form import looks_delexicalized
    from mwzrepro.scorer.inputs import read_shape

    data, _ = read_shape(read_predictions(path), path.name)
    lexicalized = form == "lexicalized" or (form == "auto" and not looks_delexicalized(data))
    return path.read_bytes(), lexicalized


def _project_path(path: Path, name: str, data: bytes) -> str:
    """``path`` relative to the project root (the working directory); a file outside it is
    copied to :data:`COPIES` first. Raises InputError when a different copy exists."""
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import atomic_path

    root = Path.cwd().resolve()
    resolved = path.resolve()
    if resolved.is_relative_to(root):
        return resolved.relative_to(root).as_posix()
    dest = COPIES / f"{name}.json"
    if dest.exists() and dest.read_bytes() != data:
        raise InputError(f"{dest}: a different file is already there; remove it or choose "
                         "another --name")
    with atomic_path(dest) as tmp:
        tmp.write_bytes(data)
    return dest.as_posix()


@click.command("add-system")
@click.argument("prediction_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", required=True, help="System name (lowercase, e.g. mysystem).")
@click.option("--model", default=None, help="Model label for the tables (e.g. \"GPT-2\").")
@click.option("--type", "kind", default=None,
              help="System type label for the tables (e.g. \"end-to-end\", \"policy\").")
@click.option("--form", type=click.Choice(["auto", "delexicalized", "lexicalized"]),
              default="auto", show_default=True,
              help="The file's text: lexicalized files (values, no placeholders) are the "
                   "lexicalized system kind, scored in the grounded table only; auto: "
                   "lexicalized when under 10 % of the responses carry a [slot] placeholder.")
@click.option("--submissions", "--sources", "registry", default=str(SUBMISSIONS),
              type=click.Path(dir_okay=False, path_type=Path), show_default=True,
              help="The project's registry of your own files (created if missing).")
def add_system(prediction_file: Path, name: str, model: str | None, kind: str | None,
               form: str, registry: Path) -> None:
    """Register your own prediction file (any path) so that every table includes it.

    Adds ``mwzeval-predictions-NAME`` to the project's ``submissions.yaml`` (never to the
    package); a file outside the project is copied to ``data/submissions/NAME.json``. Then add
    NAME to ``systems`` in params.yaml and run the pipeline. The file is verified like every
    upstream file (git blob SHA-1), so editing it later stops the pipeline until you register
    it again.
    """
    import yaml

    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import write_text
    from mwzrepro.core.sources import git_blob_sha1, load_registries

    if not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", name):
        raise InputError(f"system name {name!r}: use lowercase letters, digits, '_', '.', '-'")
    sid = _source_id(name)
    text = registry.read_text(encoding="utf-8") if registry.exists() else _HEADER + "sources:\n"
    known = [p for p in (SHIPPED, registry) if p.exists()]
    if sid in load_registries(known):
        raise InputError(f"{sid} is already registered ({', '.join(map(str, known))}); "
                         "remove it first")
    if not re.search(r"^sources:[ \t]*(\{\})?[ \t]*$", text, re.MULTILINE):
        raise InputError(f"{registry}: no top-level 'sources:' section to add to")
    data, lexicalized = _read_prediction_file(prediction_file, form)
    rel = _project_path(prediction_file, name, data)
    text = re.sub(r"^sources:[ \t]*\{\}[ \t]*$", "sources:", text, count=1, flags=re.MULTILINE)
    entry = submission_entry(name, f"file:{rel}", git_blob_sha1(data), model, kind, lexicalized)
    new = text.rstrip("\n") + "\n" + entry
    if sid not in (yaml.safe_load(new) or {}).get("sources", {}):
        raise InputError(f"{registry}: 'sources:' must be its last section to add to")
    write_text(new, registry)
    where = ("lexicalized text: the grounded table (inform_success_grounded) scores it"
             if lexicalized else "delexicalized text: every table scores it")
    click.echo(f"registered {sid} ({rel}) in {registry} as {where}; now add '{name}' to "
               "`systems` in params.yaml and run the pipeline")


COMMANDS = [add_system]
HELP_GROUPS = {"workflow": [add_system]}  # mwzrepro --help's group (cli.GROUPS)
