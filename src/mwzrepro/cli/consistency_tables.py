"""Reports of the annotation-consistency correction (spec-annotation-consistency):

* ``tables-consistency`` — every counts file of a directory: Table 1 / Table 6 shapes next to
  the paper and the spec's expected values, provenance, tolerance report, Table 3 and
  ``results/metrics/consistency.json`` (assembly in :mod:`mwzrepro.consistency.tables`);
* ``consistency-sample`` — the manual-verification sample (§9.3).

Both take every key of the ``consistency`` block of ``params.yaml`` as an option
(:class:`mwzrepro.consistency.params.ConsistencyParams`): ``tables-consistency`` uses
``reference_version``, ``consistency-sample`` ``verification_seed`` and
``verification_sample``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import yaml

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.consistency.counts import draw_verification_sample
from mwzrepro.consistency.params import ConsistencyParams
from mwzrepro.consistency.tables import assemble_tables
from mwzrepro.core.errors import InputError
from mwzrepro.core.io import dumps_json, read_metadata, read_table, write_metrics, write_text
from mwzrepro.core.params import click_options, from_options, parse_list
from mwzrepro.core.tables import render_table

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@click.command("tables-consistency")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory of <version>/<split>.parquet consistency_counts files (from "
                   "`correct --counts`; <split>.units.parquet files are skipped).")
@click.option("--published", type=IN_FILE, required=True,
              help="workflow/resources/published/qian2021.yaml.")
@click.option("--tables-dir", type=PATH, required=True,
              help="Directory for consistency_table1, _table6, _provenance, _reference and "
                   "_table3 (.md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="consistency.json to write.")
@click_options(ConsistencyParams)
@record_option
@log_option
def tables_consistency(scores_dir: Path, published: Path, tables_dir: Path, metrics: Path,
                       record: Path | None,
                       log_file: Path | None, **kw: Any) -> None:
    """Counts tables (Table 1, Table 6), provenance, tolerance report and Table 3 of the
    annotation-consistency correction, and results/metrics/consistency.json."""
    params = from_options(ConsistencyParams, kw, "consistency")
    log = setup_logging(log_file)
    pub = yaml.safe_load(published.read_text(encoding="utf-8"))
    counts, metas = {}, {}
    for path in sorted(Path(scores_dir).glob("*/*.parquet")):
        if path.name.endswith(".units.parquet"):
            continue
        meta = read_metadata(path)
        key = (meta.get("version"), meta.get("split"))
        if key != (path.parent.name, path.stem):
            raise InputError(f"{path}: metadata names {key}, expected the file's "
                             f"<version>/<split> ({path.parent.name}, {path.stem})")
        counts[key] = read_table(path, "consistency_counts").sort_values("row")
        metas[key] = meta
    if not counts:
        raise InputError(f"{scores_dir}: no <version>/<split>.parquet counts files")
    out = assemble_tables(counts, metas, pub, params.reference_version)
    for t in out.tables:
        render_table(t.frame, Path(tables_dir) / t.stem, t.title, decimals=t.decimals,
                     notes=t.notes)
    write_metrics(out.metrics, metrics, record)
    chk = out.metrics["reference_check"]
    log.info("tables-consistency: %d datasets; %d reference cells, %d outside the spec "
             "tolerance, %d outside the paper tolerance", len(counts), chk["cells"],
             len(chk["outside_spec"]), len(chk["outside_paper"]))
    for row in chk["outside_spec"]:
        log.warning("outside spec tolerance: %s", dumps_json(row, indent=None))


@click.command("consistency-sample")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory of <version>/<split>.units.parquet files (`correct --units`).")
@click.option("--out", type=PATH, required=True,
              help="CSV of the sampled units with an empty judgement column.")
@click_options(ConsistencyParams)
@log_option
def consistency_sample(scores_dir: Path, out: Path, log_file: Path | None, **kw: Any) -> None:
    """Draw the manual-verification sample of spec-annotation-consistency §9.3 (Table 3) from
    the splits ``verification_sample.splits`` of ``verification_sample.version`` (splits
    without corrected data are reported and skipped)."""
    params = from_options(ConsistencyParams, kw, "consistency")
    sample_params, seed = params.verification_sample, params.verification_seed
    log = setup_logging(log_file)
    wanted = parse_list(sample_params.splits, "|", strip=False)
    have, missing = {}, []
    for split in wanted:
        path = Path(scores_dir) / sample_params.version / f"{split}.units.parquet"
        if path.is_file():
            have[split] = read_table(path, "consistency_units")
        else:
            missing.append(split)
    if not have:
        raise InputError(f"{scores_dir}/{sample_params.version}: none of the splits "
                         f"{list(wanted)} has a corrected units file")
    sample = draw_verification_sample(have, seed, sample_params.modified,
                                      sample_params.unmodified, sample_params.unit,
                                      sample_params.with_replacement)
    write_text(sample.to_csv(index=False, lineterminator="\n"), out)
    log.info("consistency-sample: %d modified and %d unmodified %ss from %s (seed %d); "
             "splits without data: %s", int(sample["modified"].sum()),
             int((~sample["modified"]).sum()), sample_params.unit, sorted(have), seed,
             missing or "none")


COMMANDS = [tables_consistency, consistency_sample]
