"""``correct``: the annotation-consistency correction of one (version, split)
(spec-annotation-consistency): canonical tables in → ``states_corrected.parquet``,
``consistency_changes.parquet``, the corrected split in its ConvLab layout, the split's
Table 1 / Table 6 counts (``consistency_counts``) and per-turn units (``consistency_units``).

The command takes every key of the ``consistency`` block of ``params.yaml`` as an option
(:class:`mwzrepro.consistency.params.ConsistencyParams`; nested keys joined with dashes, e.g.
``--fuzzy-name-match-threshold``). Lists are one string with ``|`` between items (``"a|b"``;
``""`` for none), pairs ``surface=label``, seed aliases ``alias=canonical@domain``, booleans
``true``/``false``. The optional overrides file is a TSV with the header
``dialogue_id turn domain slot value``. The tables are in :mod:`mwzrepro.cli.consistency_tables`
and :mod:`mwzrepro.cli.consistency_dst`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging
from mwzrepro.consistency.correct import correct_split, correction_signature
from mwzrepro.consistency.counts import count_changes, turn_units
from mwzrepro.consistency.export import export_convlab
from mwzrepro.consistency.lexicons import build_inventories, load_databases, load_ontology
from mwzrepro.consistency.params import ConsistencyParams
from mwzrepro.consistency.settings import correction_settings
from mwzrepro.core.io import read_table, write_table
from mwzrepro.core.params import click_options, from_options

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@click.command("correct")
@click.option("--dialogues", type=IN_FILE, required=True, help="Canonical dialogues.parquet.")
@click.option("--turns", type=IN_FILE, required=True, help="Canonical turns.parquet.")
@click.option("--states", type=IN_FILE, required=True, help="Canonical states.parquet.")
@click.option("--raw", type=IN_FILE, required=True,
              help="The split's raw ConvLab <split>.json.zip (for the export; only read).")
@click.option("--db-dir", type=IN_DIR, required=True,
              help="Directory with attraction/hotel/restaurant/train _db.json (§5).")
@click.option("--ontology", type=IN_FILE, required=True,
              help="MultiWOZ 2.1 ontology.json (cuisines, §5.2).")
@click.option("--version", "version", required=True, help="Dataset version label, e.g. mwz21.")
@click.option("--split", required=True, help="Split label: test, val or train.")
@click_options(ConsistencyParams)
@click.option("--out", type=PATH, required=True, help="states_corrected.parquet to write.")
@click.option("--changes", type=PATH, required=True,
              help="consistency_changes.parquet (change log) to write.")
@click.option("--export", "export_path", type=PATH, required=True,
              help="Corrected split in the source layout (<split>.json.zip) to write.")
@click.option("--counts", type=PATH, required=True,
              help="consistency_counts Parquet (Table 1 / Table 6 counts, §8) to write.")
@click.option("--units", type=PATH, required=True,
              help="consistency_units Parquet (per-turn context, the verification unit).")
@log_option
def correct(dialogues: Path, turns: Path, states: Path, raw: Path, db_dir: Path, ontology: Path,
            version: str, split: str, out: Path, changes: Path, export_path: Path, counts: Path,
            units: Path, log_file: Path | None, **kw: Any) -> None:
    """Annotation-consistency correction of one (version, split) (Qian et al. 2021)."""
    settings = correction_settings(from_options(ConsistencyParams, kw, "consistency"))
    log = setup_logging(log_file)
    tables = {name: read_table(path, name) for name, path in
              (("dialogues", dialogues), ("turns", turns), ("states", states))}
    inv = build_inventories(load_databases(db_dir), load_ontology(ontology), settings)
    result = correct_split(tables, inv, settings, where=f"{version}/{split}")
    export = export_convlab(raw, result.states, export_path)
    meta = {
        "version": version,
        "split": split,
        "signature": correction_signature(version, split, settings),
        "params": settings.to_dict(),
        "profile": settings.profile(),
        "inventories": inv.summary(),
        "coverage": result.coverage,
        "export": {"file": export_path.name, **export},
    }
    write_table(result.states, out, "states_corrected", meta)
    write_table(result.changes, changes, "consistency_changes", meta)
    write_table(count_changes(tables["states"], result.states, result.changes), counts,
                "consistency_counts", meta)
    write_table(turn_units(tables["turns"], tables["states"], result.states), units,
                "consistency_units", meta)
    added = result.states[result.states["origin"] != "original"]
    log.info("correct %s/%s: %d dialogues, %d user turns; %d detections; %d added slot-turns in "
             "%d dialogues; export %s (%d values)", version, split,
             result.coverage["dialogues"], result.coverage["user_turns"],
             len(result.changes[result.changes["rank"] == 0]), len(added),
             added["dialogue_id"].nunique(), export_path, export["values_written"])
    if settings.profile():
        log.warning("non-reference profile: %s", settings.profile())


COMMANDS = [correct]
