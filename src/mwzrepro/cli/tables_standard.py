"""Pipeline step ``tables-standard``: the paper's Table 5 (Inform/Success) and Table 6
(richness) shapes, the §13 state-metrics table, and ``results/metrics/standard.json``."""

from __future__ import annotations

from pathlib import Path

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, IN_FILE, PATH

@click.command("tables-standard")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="results/scores: reads success/<version>/<system>.parquet (every system, "
                   "oracle), bleu/<version>/<system>.parquet (Combined), richness/<system>"
                   ".parquet and richness/reference/<version>.parquet.")
@click.option("--published", type=IN_FILE, required=True,
              help="workflow/resources/published/leaderboard.yaml")
@click.option("--table-dir", type=PATH, required=True,
              help="Writes inform_success, richness and state_match (.md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True,
              help="Plot data CSV: Inform/Success by setting, one row per system and version.")
@click.option("--submissions", type=IN_FILE, default=None,
              help="The project's submissions.yaml: model/type labels of your own systems "
                   "(mwzrepro add-system --model/--type).")
@record_option
@log_option
def tables_standard(scores_dir: Path, published: Path, table_dir: Path, metrics: Path,
                    record: Path | None, plot: Path, submissions: Path | None,
                    log_file: Path | None) -> None:
    """Pipeline step: Table 5 (Inform/Success, standard and optimistic, Combined, next to the
    published numbers) and Table 6 (richness, with each version's reference corpus) shapes,
    the §13 state metrics; metrics JSON (numbers only with --record beside it).

    Versions and systems are those found under --scores-dir (rows sorted by system); every
    system must have been scored on every version. Numbers whose signatures differ in
    anything but the system are refused before anything is written.
    """
    import yaml

    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table, write_metrics, write_text
    from mwzrepro.standard.combined_score import bleu_by_version
    from mwzrepro.standard.scoring import ORACLE
    from mwzrepro.standard.system_labels import with_submission_labels
    from mwzrepro.standard.tables import standard_tables

    log = setup_logging(log_file)
    success_dir = scores_dir / "success"
    vers = sorted(p.name for p in success_dir.iterdir() if p.is_dir()) \
        if success_dir.is_dir() else []
    if not vers:
        raise InputError(f"{success_dir}: no <version>/ directories with scores")
    per_version = {v: sorted(p.name[: -len(".parquet")] for p in (success_dir / v).glob(
        "*.parquet") if not p.name.endswith(".dialogues.parquet")) for v in vers}
    syss = sorted({s for lst in per_version.values() for s in lst} - {ORACLE})
    for v, lst in per_version.items():
        missing = [s for s in syss + [ORACLE] if s not in lst]
        if missing:
            raise InputError(f"{success_dir / v}: no scores for {', '.join(missing)}")
    pub = yaml.safe_load(published.read_text(encoding="utf-8"))
    if submissions is not None:
        pub = with_submission_labels(pub, yaml.safe_load(submissions.read_text(encoding="utf-8")))
    success = {v: {s: read_table(success_dir / v / f"{s}.parquet", "scores")
                   for s in syss + [ORACLE]} for v in vers}
    richness = {s: read_table(scores_dir / "richness" / f"{s}.parquet", "scores") for s in syss}
    ref_richness = {v: read_table(scores_dir / "richness" / "reference" / f"{v}.parquet",
                                  "scores") for v in vers}
    out = standard_tables(success, richness, ref_richness, pub,
                          bleu_by_version(scores_dir / "bleu", vers, syss))
    for stem, spec in out.tables.items():
        spec.render(table_dir / stem)
    write_metrics(out.metrics, metrics, record)
    write_text(out.plot.to_csv(index=False, lineterminator="\n"), plot)
    log.info("tables-standard: %d versions x %d systems", len(vers), len(syss))


COMMANDS = [tables_standard]
