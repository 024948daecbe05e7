"""Pipeline phases that prepare data: ``download``, ``ingest``, ``redelex`` (``predictions``:
:mod:`mwzrepro.cli.predictions`; ``add-system``: :mod:`mwzrepro.cli.submissions`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from mwzrepro.cli.options import log_option, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("download")
@click.option("--sources", "registries", type=IN_FILE, multiple=True,
              help="Sources registry (src/mwzrepro/resources/sources.yaml), for --group or --id; "
                   "repeat it to add the project's submissions.yaml (read as one registry).")
@click.option("--group", default=None,
              help="Fetch every `sources:` entry of this group (first component of its path, "
                   "e.g. mwz21, sgd) to OUT_DIR/<path>; what the pipeline does.")
@click.option("--out-dir", type=PATH, default=None,
              help="Directory the group's files are written under (data/raw).")
@click.option("--id", "source_id", default=None, help="Registry id of one file to fetch.")
@click.option("--url", default=None, help="Pinned upstream URL of one file (with --sha1).")
@click.option("--sha1", default=None, help="Expected git blob SHA-1 of the file.")
@click.option("--out", type=PATH, default=None, help="Destination of one file (--id, --url).")
@click.option("--mirror", default="", show_default=True,
              help="Local mirror directory (<owner>/<repo>/<commit>/<path> layout); empty: "
                   "$MWZREPRO_MIRROR, else the upstream URL. A relative path is resolved "
                   "against the current directory.")
@log_option
def download(registries: tuple[Path, ...], group: str | None, out_dir: Path | None,
             source_id: str | None, url: str | None, sha1: str | None, out: Path | None,
             mirror: str, log_file: Path | None) -> None:
    """Fetch pinned upstream files, verify their git blob SHA-1, write them atomically.

    Give --sources with --group and --out-dir (every file of a group, what the pipeline
    does), --sources with --id and --out (one registered file), or --url, --sha1 and --out.
    """
    from mwzrepro.core.errors import DownloadError
    from mwzrepro.core.sources import Source, fetch, groups, load_registries, resolve_mirror

    log = setup_logging(log_file)
    mirror_dir = resolve_mirror(mirror)
    named = ", ".join(str(r) for r in registries)
    if registries and group is not None and out_dir is not None:
        members = groups(load_registries(registries, "sources")).get(group)
        if not members:
            raise DownloadError(f"{named}: no `sources:` entry in group {group!r}")
        jobs = [(s, out_dir / s.path) for s in members]
    elif registries and source_id is not None and out is not None:
        sources = load_registries(registries)
        if source_id not in sources:
            raise DownloadError(f"{named}: no source with id {source_id!r}")
        jobs = [(sources[source_id], out)]
    elif url and sha1 and out is not None:
        jobs = [(Source(id=out.name, path=str(out), url=url, sha1=sha1, role=""), out)]
    else:
        raise click.UsageError("give --sources with --group and --out-dir, --sources with --id "
                               "and --out, or --url, --sha1 and --out")
    for source, dest in jobs:
        origin = fetch(source, dest, mirror_dir)
        log.info("download %s -> %s (git blob %s)", origin, dest, source.sha1)


def verify_raw(registries: tuple[Path, ...], paths: list[Path]) -> None:
    """Verify raw input files against the entry whose ``data/raw/<path>`` they are in
    ``registries`` (registry files, read as one).

    Raises:
        mwzrepro.core.errors.DownloadError: a file has no registry entry or a different git blob id.
    """
    from mwzrepro.core.errors import DownloadError
    from mwzrepro.core.sources import load_registries, verify_file

    by_path = {s.path: s for s in load_registries(registries).values()}
    for p in paths:
        rel = p.as_posix().split("data/raw/", 1)[-1]
        if rel not in by_path:
            raise DownloadError(f"{p}: not a registered raw file (no entry with path {rel!r})")
        verify_file(p, by_path[rel].sha1)


@click.command("ingest")
@click.option("--format", "fmt", type=click.Choice(["convlab", "mwz22"]), required=True,
              help="Source layout: convlab (MultiWOZ 2.0/2.1) or mwz22 (official 2.2).")
@click.option("--input", "inputs", type=IN_FILE, multiple=True, required=True,
              help="Raw file(s): one ConvLab zip, or the 2.2 dialogue files of a split.")
@click.option("--dialog-acts", type=IN_FILE, default=None, help="2.2 dialog_acts.json.")
@click.option("--sources", "registry", type=IN_FILE, required=True,
              help="Sources registry used to verify the raw inputs.")
@click.option("--split", required=True, help="Split label: test, val or train.")
@click.option("--out-dir", type=PATH, required=True,
              help="Directory for the canonical tables (<table>.parquet).")
@log_option
def ingest(fmt: str, inputs: tuple[Path, ...], dialog_acts: Path | None, registry: Path,
           split: str, out_dir: Path, log_file: Path | None) -> None:
    """Convert raw MultiWOZ files into the canonical Parquet tables of one (version, split)."""
    from mwzrepro.prepare.ingest import CANONICAL_TABLES
    from mwzrepro.core.io import write_table

    log = setup_logging(log_file)
    verify_raw((registry,), list(inputs) + ([dialog_acts] if dialog_acts else []))
    if fmt == "convlab":
        from mwzrepro.prepare.ingest.convlab import read_convlab

        if len(inputs) != 1:
            raise click.UsageError("--format convlab takes exactly one --input")
        tables, skipped = read_convlab(inputs[0], split)
    else:
        from mwzrepro.prepare.ingest.mwz22 import read_mwz22

        tables, skipped = read_mwz22(list(inputs), dialog_acts, split)
    for item in skipped:
        log.warning("skipped annotation: %s: %s %s", item["where"], item.get("reason"),
                    item.get("span"))
    meta = {"inputs": [p.name for p in inputs], "skipped_annotations": skipped}
    for name in CANONICAL_TABLES:
        write_table(tables[name], out_dir / f"{name}.parquet", name, meta)
    log.info("ingest %s: %d dialogues, %d turns, %d spans, %d skipped", split,
             len(tables["dialogues"]), len(tables["turns"]), len(tables["spans"]), len(skipped))


@click.command("redelex")
@click.option("--turns", type=IN_FILE, required=True, help="Canonical turns.parquet.")
@click.option("--spans", type=IN_FILE, required=True, help="Canonical spans.parquet.")
@click.option("--out", type=PATH, required=True, help="references.parquet to write.")
@log_option
def redelex(turns: Path, spans: Path, out: Path, log_file: Path | None) -> None:
    """Span-based re-delexicalization of the reference responses (one version, one split)."""
    from mwzrepro.prepare.delex.span import build_references
    from mwzrepro.core.io import read_table, write_table

    log = setup_logging(log_file)
    unknown: Counter[str] = Counter()
    refs = build_references(read_table(turns, "turns"), read_table(spans, "spans"), unknown)
    write_table(refs, out, "references",
                {"delex": "span", "unknown_placeholders": dict(sorted(unknown.items()))})
    log.info("redelex: %d references, unknown placeholders %s", len(refs), dict(unknown))


COMMANDS = [download, ingest, redelex]
HELP_GROUPS = {"workflow": [download]}  # mwzrepro --help's group (cli.GROUPS)
