"""Pipeline phases of the entity-bias measures (spec-unseen-entity-test-set Part B, §11); both
take every option of the ``bias`` block (:class:`mwzrepro.unseen.params.BiasParams`) but
``sources``, which the workflow expands into one ``bias`` job per (version, split):

* ``bias`` — H1/H0 and H∞/H0 per slot of one (version, split) → Parquet;
* ``tables-bias`` — every bias table in paper Table 2 shape, with the training-split row marked
  as not computed when the training split is unavailable; ``results/metrics/bias.json``; the
  value distribution of the most biased slots as CSV plot data and SVG.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, IN_FILE, PATH
from mwzrepro.core.params import click_options, from_options
from mwzrepro.unseen.params import BiasParams

#: Keys of the ``bias`` block expanded by the workflow, not options.
WORKFLOW_ONLY = ("sources",)


@click.command("bias")
@click.option("--states", type=IN_FILE, required=True, help="Canonical states.parquet.")
@click.option("--version", "version", required=True, help="Dataset version label.")
@click.option("--split", required=True, help="Split label (test, val, test_unseen, ...).")
@click.option("--out", type=PATH, required=True, help="entity_bias Parquet to write.")
@click.option("--out-values", type=PATH, required=True,
              help="entity_bias_values Parquet (value distribution) to write.")
@click_options(BiasParams, exclude=WORKFLOW_ONLY)
@log_option
def bias(states: Path, version: str, split: str, out: Path, out_values: Path,
         log_file: Path | None, **options: Any) -> None:
    """H1/H0 and H∞/H0 per slot of one (version, split), counted per ``bias_count_unit``
    (spec-unseen-entity-test-set §11)."""
    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.unseen.bias import measure_bias

    log = setup_logging(log_file)
    params = from_options(BiasParams, options, "bias")
    table, values, meta = measure_bias(read_table(states, "states"), version, split,
                                       params.bias_count_unit)
    write_table(table, out, "entity_bias", meta)
    write_table(values, out_values, "entity_bias_values", meta)
    log.info("bias %s/%s: %d slots with R >= 2", version, split,
             int(table["h1_h0"].notna().sum()))


@click.command("tables-bias")
@click.option("--scores-dir", type=IN_DIR, default=None,
              help="Directory searched (recursively) for entity_bias Parquet files.")
@click.option("--scores", "score_files", type=IN_FILE, multiple=True,
              help="entity_bias Parquet files (repeat); the matching *.values.parquet next "
                   "to each is read for the plot.")
@click.option("--table", type=PATH, required=True, help="Stem of the Table 2 shaped table.")
@click.option("--metrics", type=PATH, required=True, help="results/metrics/bias.json.")
@click.option("--plot", type=PATH, required=True, help="Plot data CSV (value distribution).")
@click.option("--plot-image", type=PATH, required=True, help="SVG of the plot.")
@click_options(BiasParams, exclude=WORKFLOW_ONLY)
@record_option
@log_option
def tables_bias(scores_dir: Path | None, score_files: tuple[Path, ...], table: Path,
                metrics: Path, record: Path | None, plot: Path, plot_image: Path,
                log_file: Path | None,
                **options: Any) -> None:
    """Entity-bias tables in paper Table 2 shape, metrics JSON and plot
    (spec-unseen-entity-test-set §11, §13)."""
    from mwzrepro.core.io import read_metadata, read_table, write_metrics, write_text
    from mwzrepro.unseen.bias_plot import plot_value_distribution
    from mwzrepro.unseen.bias_tables import bias_tables

    log = setup_logging(log_file)
    params = from_options(BiasParams, options, "bias")
    if scores_dir is not None:
        score_files = score_files + tuple(
            p for p in sorted(scores_dir.rglob("*.parquet"))
            if not p.name.endswith(".values.parquet"))
    if not score_files:
        raise click.UsageError("give --scores-dir or at least one --scores")
    tables, values, sigs = {}, {}, {}
    for f in sorted(score_files):
        t = read_table(f, "entity_bias").sort_values("rank").reset_index(drop=True)
        key = f"{t['version'].iloc[0]}/{t['split'].iloc[0]}"
        tables[key] = t
        sigs[key] = read_metadata(f).get("signature", "")
        vf = f.with_name(f.name.replace(".parquet", ".values.parquet"))
        if vf.exists():
            values[key] = read_table(vf, "entity_bias_values")
    out = bias_tables(tables, sigs, values, params)
    for suffix, spec in out.tables.items():
        spec.render(table.with_name(f"{table.name}{suffix}"))
    write_metrics(out.metrics, metrics, record)
    write_text(out.plot_csv(), plot)
    plot_value_distribution(out.plot, plot_image, title=out.plot_title)
    log.info("tables-bias: %d splits, reference split %s unavailable for %s", len(tables),
             params.bias_split, out.missing)


COMMANDS = [bias, tables_bias]
