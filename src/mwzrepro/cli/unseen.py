"""Pipeline phases of the unseen-entity test set (spec-unseen-entity-test-set Part A); both
take every option of the ``unseen`` block (:class:`mwzrepro.unseen.params.UnseenParams`):

* ``sgd-pools`` — SGD schema and dialogue files → the cleaned replacement pools (§4.1–4.2),
  with a report of which SGD files and services were available;
* ``unseen`` — a base test split (ConvLab layout) + pools + MultiWOZ seen material → the
  unseen-entity copy as canonical tables and source-format JSON, the admissible pool, the
  mapping and leak reports, and the validation report (§5–§9, §13).

The entity-bias phases are in :mod:`mwzrepro.cli.bias`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, IN_FILE, PATH
from mwzrepro.core.params import click_options, from_options
from mwzrepro.unseen.params import UnseenParams

#: Keys of the ``unseen`` block expanded by the workflow, not options.
WORKFLOW_ONLY = ("bases",)


def _split_of(path: Path) -> str:
    """SGD split of a file from its parent directory (``.../train/schema.json`` → train)."""
    from mwzrepro.core.errors import InputError

    split = path.parent.name
    if split not in ("train", "dev", "test"):
        raise InputError(f"{path}: SGD files must sit in a train/, dev/ or test/ directory")
    return split


# -- sgd-pools ------------------------------------------------------------------------------


@click.command("sgd-pools")
@click.option("--sgd-dir", type=IN_DIR, default=None,
              help="Directory with <split>/schema.json and <split>/dialogues_NNN.json (every "
                   "file present is used); alternative to --schema/--dialogues.")
@click.option("--schema", "schemas", type=IN_FILE, multiple=True,
              help="SGD schema.json of a split (repeat; the split is the parent directory).")
@click.option("--dialogues", type=IN_FILE, multiple=True,
              help="SGD dialogues_NNN.json file (repeat; any subset of the release).")
@click.option("--sources", "registry", type=IN_FILE, default=None,
              help="Sources registry: SGD dialogue files registered but not given are "
                   "listed as missing in the report.")
@click.option("--out", type=PATH, required=True, help="sgd_pool Parquet file to write.")
@click.option("--report", type=PATH, required=True, help="JSON report to write.")
@click_options(UnseenParams, exclude=WORKFLOW_ONLY)
@log_option
def sgd_pools(sgd_dir: Path | None, schemas: tuple[Path, ...], dialogues: tuple[Path, ...],
              registry: Path | None, out: Path, report: Path, log_file: Path | None,
              **options: Any) -> None:
    """Build the SGD replacement pools (spec-unseen-entity-test-set §4.1–4.2) of the
    families ``pool_families`` from the splits ``sgd_splits``."""
    from mwzrepro.core.io import write_json, write_table
    from mwzrepro.unseen.sgd_pools import (
        build_pool,
        collect_raw_strings,
        family_sources,
        pool_report,
        read_sgd,
    )

    log = setup_logging(log_file)
    params = from_options(UnseenParams, options, "unseen")
    splits = params.sgd_split_list
    if sgd_dir is not None:
        schemas = schemas + tuple(sorted(sgd_dir.glob("*/schema.json")))
        dialogues = dialogues + tuple(sorted(sgd_dir.glob("*/dialogues_*.json")))
    if not schemas:
        raise click.UsageError("give --sgd-dir or at least one --schema")
    schema_files = {_split_of(p): p for p in schemas if _split_of(p) in splits}
    dialogue_files: dict[str, list[Path]] = {}
    for p in sorted(dialogues):
        if _split_of(p) in splits:
            dialogue_files.setdefault(_split_of(p), []).append(p)
    corpus = read_sgd(schema_files, dialogue_files)
    raw = collect_raw_strings(corpus, family_sources(params.pool_family_list,
                                                     params.city_pool_include_stations))
    pool, dropped = build_pool(raw, params)
    missing = _missing_sgd_files(registry, schemas, dialogues, splits) if registry else None
    rep = pool_report(params, pool, dropped, raw,
                      {s: p.name for s, p in schema_files.items()},
                      {s: [p.name for p in ps] for s, ps in dialogue_files.items()}, missing)
    write_table(pool, out, "sgd_pool", rep)
    write_json(rep, report)
    log.info("sgd-pools: %s (missing SGD dialogue files: %s)",
             rep["pool_sizes_before_unseen_filter"],
             {k: len(v) for k, v in (missing or {}).items()})


def _missing_sgd_files(registry: Path, schemas, dialogues, splits) -> dict[str, list[str]]:
    """``{split: [file names]}`` of SGD files in the sources registry that were not given."""
    from mwzrepro.core.sources import load_registry

    given = {p.as_posix().split("data/raw/", 1)[-1] for p in (*schemas, *dialogues)}
    given_names = {(p.parent.name, p.name) for p in (*schemas, *dialogues)}
    out: dict[str, list[str]] = {}
    for src in load_registry(registry).values():
        if src.role not in ("sgd-dialogues", "sgd-schema"):
            continue
        p = Path(src.path)
        if p.parent.name not in splits:
            continue
        if src.path in given or (p.parent.name, p.name) in given_names:
            continue
        out.setdefault(p.parent.name, []).append(p.name)
    return {k: sorted(v) for k, v in sorted(out.items())}


# -- unseen -----------------------------------------------------------------------------------


@click.command("unseen")
@click.option("--base", type=IN_FILE, required=True,
              help="Base test split, ConvLab 2.0/2.1 layout (.json or .json.zip).")
@click.option("--version", "version", required=True, help="Dataset version label (mwz21).")
@click.option("--base-label", default="", help="Name of the base (spec `base`, e.g. "
              "mwz21-test), written into the report.")
@click.option("--split", default="test", show_default=True, help="Split label of the base.")
@click.option("--sgd-pool", type=IN_FILE, required=True, help="sgd_pool Parquet (sgd-pools).")
@click.option("--database", "databases", type=IN_FILE, multiple=True, required=True,
              help="MultiWOZ database <domain>_db.json (repeat; attraction, hotel, restaurant "
                   "and train required).")
@click.option("--ontology", type=IN_FILE, required=True, help="MultiWOZ 2.1 ontology.json.")
@click.option("--schema22", type=IN_FILE, required=True, help="MultiWOZ 2.2 schema.json.")
@click.option("--out-dir", type=PATH, required=True,
              help="Directory for the canonical tables and the pool/mapping/leaks tables.")
@click.option("--export", type=PATH, required=True,
              help="The new test set in the base layout (JSON) to write.")
@click.option("--report", type=PATH, required=True,
              help="Validation report JSON to write (the full record: results/records/).")
@click.option("--metrics", type=PATH, default=None,
              help="Also write the report's numbers only, for dvc metrics diff "
                   "(results/metrics/; mwzrepro.core.io).")
@click_options(UnseenParams, exclude=WORKFLOW_ONLY)
@log_option
def unseen(base: Path, version: str, base_label: str, split: str, sgd_pool: Path,
           databases: tuple[Path, ...], ontology: Path, schema22: Path, out_dir: Path,
           export: Path, report: Path, metrics: Path | None, log_file: Path | None,
           **options: Any) -> None:
    """Build and validate the unseen-entity copy of a test split (spec-unseen-entity-test-set
    Part A); ``train`` is the training split's file ('' when unavailable: reported, U3 not
    applied)."""
    from mwzrepro.core.io import (dumps_json, read_table, write_json, write_metrics, write_table,
                                  write_text)
    from mwzrepro.prepare.ingest import CANONICAL_TABLES
    from mwzrepro.prepare.ingest.convlab import load_convlab
    from mwzrepro.unseen.build import load_databases, run_unseen

    log = setup_logging(log_file)
    params = from_options(UnseenParams, options, "unseen")
    train = params.train
    labels = {"version": version, "base": base_label or f"{version}-{split}",
              "base_file": base.name, "sgd_pool": sgd_pool.name,
              "databases": sorted(p.name for p in databases), "ontology": ontology.name,
              "schema22": schema22.name, "train": Path(train).name if train else None}
    out = run_unseen(
        load_convlab(base), read_table(sgd_pool, "sgd_pool"), load_databases(databases),
        json.loads(ontology.read_text(encoding="utf-8")),
        json.loads(schema22.read_text(encoding="utf-8")), params, split,
        load_convlab(train) if train else None, labels)
    meta = out.metadata
    for name in CANONICAL_TABLES:
        write_table(out.tables[name], out_dir / f"{name}.parquet", name, meta)
    write_table(out.pool, out_dir / "pool.parquet", "unseen_pool", meta)
    write_table(out.mapping, out_dir / "mapping.parquet", "unseen_mapping", meta)
    write_table(out.leaks, out_dir / "leaks.parquet", "unseen_leaks", meta)
    write_text(dumps_json(out.data, indent=None) + "\n", export)
    if metrics is None:
        write_json(out.report, report)
    else:
        write_metrics(out.report, metrics, report)
    for name, check in out.report["checks"].items():
        log.info("unseen %s check %s: %s", version, name, "pass" if check["pass"] else "FAIL")
    log.info("unseen %s: %d dialogues, pools %s, turns changed %s%%", version,
             len(out.data), out.report["checks"]["9_coverage"]["pool_sizes"],
             out.report["checks"]["9_coverage"]["turns_state_changed_pct"])


COMMANDS = [sgd_pools, unseen]
