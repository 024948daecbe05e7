"""Pipeline phase ``tables-trace``: Nekvinda & Dušek 2021, Table 7 — the Inform/Success trace
of one dialogue of one system (UBAR on ``sng0580``, printed as ``sng0805`` in the paper) as a
table next to the paper's values (spec-paper-tables §3, :mod:`mwzrepro.standard.trace_table`).
The per-turn trace is the one ``mwzrepro explain`` prints (:mod:`mwzrepro.standard.trace`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging
from mwzrepro.cli.standard import _db_options
from mwzrepro.cli.systems import IN_FILE, PATH
from mwzrepro.core.params import click_options, from_options
from mwzrepro.standard.params import InformParams, StandardParams


@click.command("tables-trace")
@click.option("--system", required=True, help="System name (e.g. ubar).")
@click.option("--predictions", type=IN_FILE, required=True,
              help="predictions.parquet of the system.")
@click.option("--dialogue", "dialogue_id", required=True,
              help="Dialogue to trace (e.g. sng0580).")
@click.option("--version", "version", required=True, help="Dataset version of the resources.")
@click.option("--eval-goals", type=IN_FILE, required=True, help="eval_goals.parquet")
@click.option("--booked-domains", type=IN_FILE, required=True, help="booked_domains.parquet")
@click.option("--gold-states", type=IN_FILE, required=True, help="gold_states.parquet")
@click.option("--turns", type=IN_FILE, required=True,
              help="Canonical turns.parquet of the test split (user utterances).")
@click.option("--references", type=IN_FILE, required=True,
              help="references.parquet of the test split (ground-truth responses).")
@_db_options
@click_options(InformParams)
@click_options(StandardParams, exclude=("placeholders",))
@click.option("--table", type=PATH, required=True,
              help="Output stem: writes <stem>.md, .csv and .tex.")
@log_option
def tables_trace(system: str, predictions: Path, dialogue_id: str, version: str,
                 eval_goals: Path, booked_domains: Path, gold_states: Path, turns: Path,
                 references: Path, restaurant_db: Path, hotel_db: Path, attraction_db: Path,
                 train_db: Path, verify_db: bool, table: Path, log_file: Path | None,
                 **params: Any) -> None:
    """Table 7: the Inform/Success trace of DIALOGUE for SYSTEM (standard setting), one row
    per turn, next to the paper's offered venues and provided requestables."""
    from mwzrepro.core.io import read_table
    from mwzrepro.core.tables import render_table
    from mwzrepro.core.venue_database import NORMATIVE_SHA256, VenueDatabase
    from mwzrepro.standard.scoring import EvalResources
    from mwzrepro.standard.trace_table import pipeline_trace, trace_notes, trace_rows

    log = setup_logging(log_file)
    inform = from_options(InformParams, params, "inform")
    standard = from_options(StandardParams, params, "standard")
    def one_dialogue(path: Path, table: str) -> Any:  # the resources of the traced dialogue
        rows = read_table(path, table)
        return rows[rows["dialogue_id"] == dialogue_id]

    resources = EvalResources.from_tables(
        one_dialogue(eval_goals, "eval_goals"), one_dialogue(booked_domains, "booked_domains"),
        one_dialogue(gold_states, "gold_states"))
    db = VenueDatabase.from_files(
        {"restaurant": restaurant_db, "hotel": hotel_db, "attraction": attraction_db,
         "train": train_db}, matching=inform.matching, threshold=inform.fuzzy_threshold,
        expected_sha256=NORMATIVE_SHA256 if verify_db else None)
    trace = pipeline_trace(dialogue_id, read_table(predictions, "predictions"), resources, db,
                           read_table(turns, "turns"), read_table(references, "references"),
                           standard.domain_source(system), "standard", predictions.name)
    rows = trace_rows(trace)
    render_table(rows, table,
                 f"Inform/Success trace of {system} on {dialogue_id} "
                 "(Nekvinda & Dušek 2021, Table 7)",
                 notes=trace_notes(trace, system, version))
    log.info("tables-trace: %s %s, %d turns, %d of %d paper rows match", system, dialogue_id,
             len(rows), int((rows["Matches paper"] == "yes").sum()),
             int((rows["Matches paper"] != "").sum()))


COMMANDS = [tables_trace]
