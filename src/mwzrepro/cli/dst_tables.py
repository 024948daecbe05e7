"""``tables-dst``: the FGA paper's Table 1 shape over every scored DST run, a fuzzy-JGA table,
the FGA-versus-λ plot data (CSV + SVG) and ``results/metrics/dst.json`` (spec-dst-metrics;
assembly in :mod:`mwzrepro.dst.tables`). Takes every key of the ``dst`` block as an option
(only the plot grid is used)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.core.errors import InputError
from mwzrepro.core.io import write_metrics, write_text
from mwzrepro.core.params import click_options, from_options
from mwzrepro.core.tables import render_table
from mwzrepro.dst.params import DSTParams
from mwzrepro.dst.plot import fga_lambda_svg
from mwzrepro.dst.tables import assemble_tables

PATH = click.Path(path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@click.command("tables-dst")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory with <version>/<system>.json records of score-dst*.")
@click.option("--table", type=PATH, required=True,
              help="Output stem of the Table 1 shape (writes .md/.csv/.tex).")
@click.option("--fuzzy-table", type=PATH, required=True,
              help="Output stem of the JGA vs fuzzy JGA table.")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True, help="FGA-versus-λ plot data CSV to write.")
@click.option("--plot-image", type=PATH, required=True, help="FGA-versus-λ SVG to write.")
@click_options(DSTParams)
@record_option
@log_option
def tables_dst(scores_dir: Path, table: Path, fuzzy_table: Path, metrics: Path,
               record: Path | None, plot: Path,
               plot_image: Path, log_file: Path | None, **kw: Any) -> None:
    """Assemble the FGA paper's Table 1 shape over every scored DST run, a fuzzy-JGA table,
    the FGA-vs-λ plot (CSV + SVG) and the DST metrics JSON."""
    params = from_options(DSTParams, kw, "dst")
    log = setup_logging(log_file)
    files = sorted(scores_dir.glob("*/*.json"))
    if not files:
        raise InputError(f"{scores_dir}: no DST score records <version>/<system>.json")
    records = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    out = assemble_tables(records, params.plot_lambda_max, params.plot_lambda_step,
                          str(scores_dir))
    for t, stem in ((out.table, table), (out.fuzzy, fuzzy_table)):
        render_table(t.frame, stem, t.title, decimals=2, notes=t.notes)
    write_text(out.plot.to_csv(index=False, lineterminator="\n", float_format="%.4f"), plot)
    fga_lambda_svg(out.plot, out.plot_labels, plot_image, out.marks)
    write_metrics(out.metrics, metrics, record)
    log.info("tables-dst: %d scored runs, %d without states", out.scored, len(out.skipped))


COMMANDS = [tables_dst]
