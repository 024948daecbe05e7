"""Pipeline phases that prepare data: ``download``, ``ingest``, ``redelex``, ``predictions``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from mwzrepro.cli.options import log_option, resolve_mirror, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("download")
@click.option("--url", default=None, help="Pinned upstream URL (with --sha1).")
@click.option("--sha1", default=None, help="Expected git blob SHA-1 of the file.")
@click.option("--sources", "registry", type=IN_FILE, default=None,
              help="Sources registry, to fetch by --id instead of --url/--sha1.")
@click.option("--id", "source_id", default=None, help="Registry id of the file to fetch.")
@click.option("--out", type=PATH, required=True, help="Destination file (under data/raw/).")
@click.option("--mirror", default="", show_default=True,
              help="Local mirror directory (<owner>/<repo>/<commit>/<path> layout); empty: "
                   "$MWZREPRO_MIRROR, else the upstream URL.")
@log_option
def download(url: str | None, sha1: str | None, registry: Path | None, source_id: str | None,
             out: Path, mirror: str, log_file: Path | None) -> None:
    """Fetch one pinned upstream file, verify its git blob SHA-1, write it atomically.

    Give either --url and --sha1 (what the pipeline does) or --sources and --id.
    """
    from mwzrepro.core.errors import DownloadError
    from mwzrepro.core.sources import Source, fetch, load_registry

    log = setup_logging(log_file)
    if registry is not None and source_id is not None:
        sources = load_registry(registry)
        if source_id not in sources:
            raise DownloadError(f"{registry}: no source with id {source_id!r}")
        source = sources[source_id]
    elif url and sha1:
        source = Source(id=out.name, path=str(out), url=url, sha1=sha1, role="")
    else:
        raise click.UsageError("give --url and --sha1, or --sources and --id")
    origin = fetch(source, out, resolve_mirror(mirror))
    log.info("download %s -> %s (git blob %s)", origin, out, source.sha1)


def verify_raw(registry: Path, paths: list[Path]) -> None:
    """Verify raw input files against the registry entry whose ``data/raw/<path>`` they are.

    Raises:
        mwzrepro.core.errors.DownloadError: a file has no registry entry or a different git blob id.
    """
    from mwzrepro.core.errors import DownloadError
    from mwzrepro.core.sources import load_registry, verify_file

    by_path = {s.path: s for s in load_registry(registry).values()}
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
    verify_raw(registry, list(inputs) + ([dialog_acts] if dialog_acts else []))
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


@click.command("predictions")
@click.option("--input", "input_file", type=IN_FILE, required=True,
              help="Prediction file in the reference evaluator's format.")
@click.option("--sources", "registry", type=IN_FILE, default=None,
              help="Sources registry to verify the input (pipeline files); omit for user files.")
@click.option("--turns", type=IN_FILE, required=True,
              help="Canonical turns.parquet of the test set the predictions are checked against.")
@click.option("--out", type=PATH, required=True, help="predictions.parquet to write.")
@click.option("--coverage", type=PATH, required=True, help="coverage.parquet to write.")
@log_option
def predictions(input_file: Path, registry: Path | None, turns: Path, out: Path, coverage: Path,
                log_file: Path | None) -> None:
    """Validate and normalize one system's outputs (spec-standard-evaluation §2–3)."""
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.prepare.predictions import expected_turns, parse_predictions

    log = setup_logging(log_file)
    if registry is not None:
        verify_raw(registry, [input_file])
    try:
        data = json.loads(input_file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{input_file}: not valid JSON: {exc}") from None
    unknown: Counter[str] = Counter()
    preds, cov = parse_predictions(data, expected_turns(read_table(turns, "turns")),
                                   str(input_file.name), unknown_placeholders=unknown)
    meta = {"input": input_file.name, "unknown_placeholders": dict(sorted(unknown.items()))}
    # Rows are stored sorted; the file's dialogue order (MSTTR depends on it, spec §12.2) is
    # kept in the metadata.
    order = list(dict.fromkeys(preds["dialogue_id"]))
    write_table(preds, out, "predictions", {**meta, "dialogue_order": order})
    write_table(cov, coverage, "coverage", meta)
    covered = int((cov["predicted_turns"] > 0).sum())
    log.info("predictions %s: %d turns, %d/%d dialogues, unknown placeholders %s",
             input_file.name, len(preds), covered, len(cov), dict(unknown))


@click.command("add-system")
@click.argument("prediction_file", type=IN_FILE)
@click.option("--name", required=True, help="System name (lowercase, e.g. mysystem).")
@click.option("--sources", "registry", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("workflow/resources/sources.yaml"), show_default=True,
              help="Sources registry to add the file to.")
def add_system(prediction_file: Path, name: str, registry: Path) -> None:
    """Register your own prediction file so that every table includes it.

    Adds an entry ``mwzeval-predictions-NAME`` (``url: file:<path>``, its git blob SHA-1) to the
    ``sources:`` section of the registry; then add NAME to ``systems`` in params.yaml and run
    the pipeline. The file is verified like every upstream file, so editing it later makes the
    pipeline stop until you register it again.
    """
    import re

    from mwzrepro.core.errors import InputError
    from mwzrepro.core.sources import git_blob_sha1, load_registry

    if not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", name):
        raise InputError(f"system name {name!r}: use lowercase letters, digits, '_', '.', '-'")
    sid = f"mwzeval-predictions-{name}"
    if sid in load_registry(registry):
        raise InputError(f"{registry}: {sid} is already registered; remove it first")
    rel = Path(prediction_file).resolve().relative_to(Path.cwd().resolve()).as_posix()
    entry = (
        f"  {sid}:\n    path: mwzeval/predictions/{name}.json\n    url: file:{rel}\n"
        f"    sha1: {git_blob_sha1(prediction_file.read_bytes())}\n    role: prediction\n"
    )
    text = registry.read_text(encoding="utf-8")
    marker = "\nextra:\n"
    if marker not in text:
        raise InputError(f"{registry}: no 'extra:' section to insert before")
    registry.write_text(text.replace(marker, "\n" + entry + marker[1:], 1), encoding="utf-8")
    click.echo(f"registered {sid} ({rel}); now add '{name}' to `systems` in params.yaml")


COMMANDS = [download, ingest, redelex, predictions, add_system]
