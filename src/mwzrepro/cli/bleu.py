"""Pipeline phases ``score-bleu`` (systems against one version's references) and
``tables-bleu`` (the paper's Table 4 shape: systems × reference versions)."""

from __future__ import annotations

from pathlib import Path

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, IN_FILE, PATH, system_jobs, systems_options


@click.command("score-bleu")
@click.option("--references", type=IN_FILE, required=True, help="references.parquet")
@click.option("--version", "version", required=True, help="Dataset version of the references.")
@systems_options
@click.option("--predictions", type=IN_FILE, default=None,
              help="<system>.parquet (one system).")
@click.option("--coverage", type=IN_FILE, default=None,
              help="<system>.coverage.parquet (one system).")
@click.option("--out", type=PATH, default=None, help="Scores Parquet to write (one system).")
@log_option
def score_bleu(references: Path, version: str, systems: tuple[str, ...],
               predictions_dir: Path | None, out_dir: Path | None, predictions: Path | None,
               coverage: Path | None, out: Path | None, log_file: Path | None) -> None:
    """Corpus BLEU (sacrebleu) of systems against span-based references of one version
    (spec-standard-evaluation §11); the references are tokenized once for all systems."""
    from mwzrepro.bleu.score import bleu_scores, corpus_bleu
    from mwzrepro.core.io import read_metadata, read_table, write_table
    from mwzrepro.core.placeholders import stamp_scores

    log = setup_logging(log_file)
    jobs = system_jobs(systems, predictions, coverage, predictions_dir, {"out": out}, out_dir,
                       {"out": ".parquet"})
    if jobs[0].predictions is None or jobs[0].coverage is None:
        raise click.UsageError("give --predictions and --coverage (or --predictions-dir)")
    refs = read_table(references, "references")
    for job in jobs:
        result = corpus_bleu(read_table(job.predictions, "predictions"), refs, version,
                             job.system)
        df, meta = bleu_scores(result, read_table(job.coverage, "coverage"), job.system,
                               version)
        df, meta = stamp_scores(df, meta, read_metadata(job.predictions).get("placeholders"))
        write_table(df, job.outputs["out"], "scores", meta)
        log.info("BLEU %s on %s references: %.2f over %d turns", job.system, version,
                 result.score, result.turns)


@click.command("tables-bleu")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory with <version>/<system>.parquet BLEU scores.")
@click.option("--table", type=PATH, required=True, help="Output stem (writes .md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True, help="Plot data CSV to write.")
@record_option
@log_option
def tables_bleu(scores_dir: Path, table: Path, metrics: Path, record: Path | None,
                plot: Path,
                log_file: Path | None) -> None:
    """Assemble BLEU of every system against every reference version (paper Table 4 shape).
    Numbers whose signatures differ in anything but the system are refused."""
    import pandas as pd

    from mwzrepro.bleu.tables import TITLE, bleu_table
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table, write_metrics, write_text
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    files = sorted(scores_dir.glob("*/*.parquet"))
    if not files:
        raise InputError(f"{scores_dir}: no BLEU scores (<version>/<system>.parquet)")
    result = bleu_table(pd.concat([read_table(f, "scores") for f in files], ignore_index=True))
    render_table(result.table, table, TITLE, decimals=2, notes=result.notes)
    write_metrics(result.metrics, metrics, record)
    write_text(result.plot_csv(), plot)
    log.info("tables-bleu: %d systems x %d versions", result.n_systems, result.n_versions)


COMMANDS = [score_bleu, tables_bleu]
