"""The user command ``score``: one prediction file (reference evaluator format) scored with
every metric of the standard evaluation — BLEU, Inform/Success, richness, state metrics — with
signatures and coverage (:mod:`mwzrepro.standard.report`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import click

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)

#: Where ``score`` finds the venue database below ``--raw-dir`` (the pipeline's download
#: layout, workflow/resources/sources.yaml; spec §5.1 normative files).
DEFAULT_DB_FILES = {
    "restaurant": "multiwoz/db/restaurant_db.json",
    "hotel": "mwzeval/database/hotel_db.json",
    "attraction": "mwzeval/database/attraction_db.json",
    "train": "mwzeval/database/train_db.json",
}

#: Resource tables ``score`` reads from ``--data-dir/<version>/test/``.
RESOURCE_TABLES = ("turns", "references", "eval_goals", "booked_domains", "gold_states",
                   "turn_domains")


def _verify_option(f):
    return click.option("--verify-db/--no-verify-db", default=True, show_default=True,
                        help="Refuse database files whose SHA-256 is not the normative one "
                             "(spec §5.1); --no-verify-db for test fixtures.")(f)


def _matching_options(f):
    f = click.option("--threshold", type=float, default=90, show_default=True,
                     help="Fuzzy match threshold of the database (accept score >= it).")(f)
    f = click.option("--matching", type=click.Choice(["reference", "optimal"]),
                     default="reference", show_default=True,
                     help="partial_ratio: reference (fuzzywuzzy 0.18 + python-Levenshtein "
                          "0.12, the leaderboard) or optimal (rapidfuzz).")(f)
    return f


def _database(paths: Mapping[str, Path], matching: str, threshold: float, verify: bool = True):
    from mwzrepro.standard.database import NORMATIVE_SHA256, VenueDatabase

    return VenueDatabase.from_files(paths, matching=matching, threshold=threshold,
                                    expected_sha256=NORMATIVE_SHA256 if verify else None)


@click.command("score")
@click.argument("predictions_file", type=IN_FILE)
@click.option("--version", "version", default="mwz21", show_default=True,
              help="Dataset version whose goals/references/gold states to use.")
@click.option("--setting", type=click.Choice(["standard", "optimistic", "both"]),
              default="standard", show_default=True, help="Inform/Success setting.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--data-dir", type=IN_DIR, default=Path("data/interim"), show_default=True,
              help="The pipeline's data/interim: reads <version>/test/{turns,references,"
                   "eval_goals,booked_domains,gold_states,turn_domains}.parquet (built by "
                   "`snakemake` or `mwzrepro ingest/redelex/goals`).")
@click.option("--raw-dir", type=PATH, default=Path("data/raw"), show_default=True,
              help="The pipeline's data/raw: the venue database files "
                   "(multiwoz/db/restaurant_db.json, mwzeval/database/{hotel,attraction,"
                   "train}_db.json) unless given with --<domain>-db.")
@click.option("--restaurant-db", type=IN_FILE, default=None)
@click.option("--hotel-db", type=IN_FILE, default=None)
@click.option("--attraction-db", type=IN_FILE, default=None)
@click.option("--train-db", type=IN_FILE, default=None)
@_verify_option
@_matching_options
@click.option("--domain-source", type=click.Choice(["auto", "provided", "estimated",
                                                    "slot-names"]),
              default="auto", show_default=True,
              help="Active domains of the standard setting (auto = the reference "
                   "evaluator's rule).")
@click.option("--allow-missing-turns", is_flag=True, default=False,
              help="Accept dialogues with fewer turns than the test set (scored on the given "
                   "prefix, as the reference evaluator does) instead of stopping.")
@click.option("--system", default=None, help="System name (default: the file stem).")
@click.option("--out", type=PATH, default=None, help="Also write the JSON result here.")
def score(predictions_file: Path, version: str, setting: str, fmt: str, data_dir: Path,
          raw_dir: Path, restaurant_db: Path | None, hotel_db: Path | None,
          attraction_db: Path | None, train_db: Path | None, verify_db: bool, matching: str,
          threshold: float, domain_source: str, allow_missing_turns: bool, system: str | None,
          out: Path | None) -> None:
    """Score one prediction file (reference evaluator format) and print every metric —
    BLEU, Inform/Success, richness, state metrics — with signatures and coverage.

    A missing dialogue is reported in the coverage and the rest is scored; an unknown
    dialogue id or a wrong number of turns stops with an error naming them.
    """
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table, write_json
    from mwzrepro.standard.report import ScoreRequest, format_text, score_file

    base = data_dir / version / "test"
    missing = [t for t in RESOURCE_TABLES if not (base / f"{t}.parquet").is_file()]
    if missing:
        raise InputError(
            f"{base}: missing {', '.join(m + '.parquet' for m in missing)}; build them with "
            f"the pipeline (snakemake data/interim/{version}/test/eval_goals.parquet ...) or "
            "point --data-dir at the pipeline's data/interim")
    db_paths = {}
    given = {"restaurant": restaurant_db, "hotel": hotel_db, "attraction": attraction_db,
             "train": train_db}
    for domain, rel in DEFAULT_DB_FILES.items():
        path = given[domain] or raw_dir / rel
        if not path.is_file():
            raise InputError(f"{path}: venue database file not found (give --{domain}-db or "
                             "--raw-dir)")
        db_paths[domain] = path
    tables = {t: read_table(base / f"{t}.parquet", t) for t in RESOURCE_TABLES}
    try:
        data = json.loads(predictions_file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{predictions_file}: not valid JSON: {exc}") from None
    request = ScoreRequest(
        system=system or predictions_file.stem, version=version,
        settings=("standard", "optimistic") if setting == "both" else (setting,),
        matching=matching, threshold=threshold, domain_source=domain_source,
        allow_missing_turns=allow_missing_turns, source=predictions_file.name,
    )
    result = score_file(data, tables, _database(db_paths, matching, threshold, verify_db),
                        request)
    if out is not None:
        write_json(result, out)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False) if fmt == "json"
               else format_text(result))


COMMANDS = [score]
