"""``tables-dst-conventions``: every end-to-end system's predicted states scored under every DST
scoring preset (``dst_presets``) and on the ladder from the FGA paper's convention to the
reference evaluator's (``dst_conventions``); assembly in :mod:`mwzrepro.dst.conventions.tables`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, IN_FILE, PATH
from mwzrepro.core.errors import InputError
from mwzrepro.core.gc_pause import paused_gc
from mwzrepro.core.io import read_table, write_metrics
from mwzrepro.core.tables import render_table
from mwzrepro.core.workers import fork_map
from mwzrepro.dst.conventions.tables import (
    LADDER_TITLE,
    PRESETS_TITLE,
    assemble,
    figure_conventions,
    system_figures,
)
from mwzrepro.dst.conventions.turns import distinct_turns, gold_turns, predicted_turns, raw_corpus
from mwzrepro.dst.conventions.views import ViewCache


@click.command("tables-dst-conventions")
@click.option("--predictions-dir", type=IN_DIR, required=True,
              help="Directory of <system>.parquet predictions tables (coverage files are "
                   "skipped; systems without states are listed, not scored).")
@click.option("--gold", nargs=3, multiple=True, required=True,
              type=(str, IN_FILE, IN_FILE),
              help="VERSION STATES DIALOGUES: a gold version's states.parquet and "
                   "dialogues.parquet (repeatable).")
@click.option("--ladder-table", type=PATH, required=True,
              help="dst_conventions table stem (.md/.csv/.tex).")
@click.option("--presets-table", type=PATH, required=True,
              help="dst_presets table stem (.md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@record_option
@log_option
def tables_dst_conventions(predictions_dir: Path, gold: tuple[tuple[str, Path, Path], ...],
                           ladder_table: Path, presets_table: Path, metrics: Path,
                           record: Path | None, log_file: Path | None) -> None:
    """JGA of every system under every DST scoring preset, and the ladder from fga to
    mwzeval."""
    log = setup_logging(log_file)
    files = sorted((p for p in predictions_dir.glob("*.parquet")
                    if not p.name.endswith(".coverage.parquet")), key=lambda p: p.stem)
    if not files:
        raise InputError(f"{predictions_dir}: no <system>.parquet prediction files")
    with paused_gc(freeze=True):  # reading the files too (mwzrepro.core.gc_pause)
        figures, skipped = _figures(files, gold)
    out = assemble(figures)
    if skipped:
        out.ladder_notes.append("no predicted states (not scored): " + ", ".join(skipped))
    out.metrics["not_scored"] = skipped
    render_table(out.ladder, ladder_table, LADDER_TITLE, decimals=2, notes=out.ladder_notes)
    render_table(out.presets, presets_table, PRESETS_TITLE, decimals=2,
                 notes=out.presets_notes)
    write_metrics(out.metrics, metrics, record)
    log.info("tables-dst-conventions: %d runs scored, %d systems without states", len(figures),
             len(skipped))


def _figures(files: list[Path], gold: tuple[tuple[str, Path, Path], ...]
             ) -> tuple[list[dict[str, Any]], list[str]]:
    """The figures of every run (system × gold version) and the systems without states."""
    predicted, skipped = {}, []
    for path in files:
        pred = predicted_turns(read_table(path, "predictions"), str(path))
        if pred is None:
            skipped.append(path.stem)
        else:
            predicted[path.stem] = pred
    golds, corpora = [], {}
    for version, states, dialogues in gold:
        golds.append(g := gold_turns(read_table(states, "states"),
                                     read_table(dialogues, "dialogues")))
        for system, pred in predicted.items():
            corpora.setdefault(system, []).append(
                (version, raw_corpus(g, pred, f"{system}.parquet")))
    # The gold views (the same for every system) are computed once, before the fork; a
    # worker scores one system on every version, its predicted views shared in a copy of
    # the gold views' cache (dropped after the system).
    cache = ViewCache()
    for g in golds:
        cache.warm_gold(distinct_turns(g), figure_conventions())

    def run(system: str) -> list[dict[str, Any]]:
        local = cache.copy()
        return [system_figures(system, system, version, corpus, local)
                for version, corpus in corpora[system]]

    return [f for runs in fork_map(run, list(corpora)) for f in runs], skipped


COMMANDS = [tables_dst_conventions]
