"""``tables-consistency-dst``: every end-to-end system's predicted states scored (JGA, FGA,
fuzzy JGA) against the original and the corrected gold states — the analogue of Qian et al.
2021, Table 4 (assembly in :mod:`mwzrepro.consistency.dst_effect`).

Takes every key of the ``consistency`` block (``dst_version``, ``dst_corrected_alternatives``
are used) and of the ``dst`` block (``lambdas``, ``fuzzy_threshold``, ``excluded_dialogues``,
``missing`` are used) of ``params.yaml`` as options.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pandas as pd
import yaml

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.consistency.dst_effect import effect_table, gold_views
from mwzrepro.consistency.params import ConsistencyParams
from mwzrepro.core.errors import InputError
from mwzrepro.core.io import read_metadata, read_table, write_metrics
from mwzrepro.core.params import click_options, from_options
from mwzrepro.core.tables import render_table
from mwzrepro.dst.params import DSTParams

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@click.command("tables-consistency-dst")
@click.option("--predictions-dir", type=IN_DIR, required=True,
              help="Directory of <system>.parquet predictions tables (coverage files are "
                   "skipped).")
@click.option("--states", type=IN_FILE, required=True, help="Original gold states.parquet.")
@click.option("--corrected", type=IN_FILE, required=True,
              help="states_corrected.parquet of the same version and split.")
@click.option("--dialogues", type=IN_FILE, required=True, help="dialogues.parquet.")
@click.option("--published", type=IN_FILE, required=True, help="qian2021.yaml (Table 4).")
@click.option("--table", type=PATH, required=True, help="Table stem to write.")
@click.option("--metrics", type=PATH, required=True, help="JSON to write.")
@click_options(ConsistencyParams)
@click_options(DSTParams)
@record_option
@log_option
def tables_consistency_dst(predictions_dir: Path, states: Path, corrected: Path,
                           dialogues: Path, published: Path, table: Path, metrics: Path,
                           record: Path | None,
                           log_file: Path | None, **kw: Any) -> None:
    """Effect of the correction on DST scores (analogue of the paper's Table 4)."""
    cons = from_options(ConsistencyParams, kw, "consistency")
    dst = from_options(DSTParams, kw, "dst")
    log = setup_logging(log_file)
    files = sorted((p for p in Path(predictions_dir).glob("*.parquet")
                    if not p.name.endswith(".coverage.parquet")), key=lambda p: p.stem)
    if not files:
        raise InputError(f"{predictions_dir}: no <system>.parquet prediction files")
    golds = gold_views(read_table(states, "states"), read_table(corrected, "states_corrected"),
                       read_table(dialogues, "dialogues"), cons.dst_corrected_alternatives,
                       str(states))

    def predictions() -> Iterator[tuple[str, str, pd.DataFrame]]:
        for path in files:
            yield path.stem, str(path), read_table(path, "predictions")

    out = effect_table(predictions(), golds, dst, cons.dst_version,
                       cons.dst_corrected_alternatives, read_metadata(corrected).get("signature"),
                       yaml.safe_load(published.read_text(encoding="utf-8")))
    render_table(out.frame, table, out.title, decimals=2, notes=out.notes)
    write_metrics(out.metrics, metrics, record)
    log.info("tables-consistency-dst: %d systems scored, %d without states", len(out.frame),
             len(out.metrics["no_states"]))


COMMANDS = [tables_consistency_dst]
