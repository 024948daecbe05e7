"""Standard evaluation (spec-standard-evaluation): pipeline phases ``goals``,
``score-success``, ``score-richness``, ``tables-standard``, and the user command ``score``.

* ``goals``: per (version, split), the evaluator's resources from the canonical tables —
  ``eval_goals`` (§5.2), ``booked_domains`` (§5.3), ``gold_states`` (§5.4/§4) and
  ``turn_domains`` (ground-truth active domains, §10).
* ``score-success``: Inform/Success of one system (or the reference corpus, the "oracle") on
  one version, standard and optimistic settings, plus the §13 state metrics when the system's
  own states are used.
* ``score-richness``: lexical richness (§12) of one system or of a version's references.
* ``tables-standard``: the paper's Table 5 (Inform/Success, ours and published, a block of rows
  per version) and Table 6 (richness, a reference-corpus column per version) shapes, the §13
  state-metrics table, and ``results/metrics/standard.json``.
* ``score``: everything above plus BLEU for one prediction file, printed with signatures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging

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


def _db_options(f):
    f = _verify_option(f)
    for domain in ("train", "attraction", "hotel", "restaurant"):
        f = click.option(f"--{domain}-db", type=IN_FILE, required=True,
                         help=f"{domain}_db.json of the evaluator's database (spec §5.1).")(f)
    return f


def parse_domain_sources(text: str) -> dict[str, str]:
    """``"dots=estimated,soloist=slot-names"`` → ``{"dots": "estimated", ...}``.

    Raises:
        click.BadParameter: malformed entry or unknown source.
    """
    from mwzrepro.standard.active_domains import DOMAIN_SOURCES

    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        system, sep, source = part.partition("=")
        if not sep or source not in DOMAIN_SOURCES or not system:
            raise click.BadParameter(
                f"{part!r}: expected SYSTEM=SOURCE with SOURCE in {DOMAIN_SOURCES}",
                param_hint="--domain-sources")
        out[system] = source
    return out


def _load_resources(eval_goals: Path, booked_domains: Path, gold_states: Path,
                    turn_domains: Path | None) -> dict[str, Any]:
    from mwzrepro.standard.goals import eval_goals_to_dict
    from mwzrepro.standard.gold_states import gold_states_to_dict
    from mwzrepro.core.io import read_table

    res: dict[str, Any] = {
        "goals": eval_goals_to_dict(read_table(eval_goals, "eval_goals")),
        "booked": _lists(read_table(booked_domains, "booked_domains")),
        "gold": gold_states_to_dict(read_table(gold_states, "gold_states")),
        "turn_domains": None,
    }
    if turn_domains is not None:
        res["turn_domains"] = _lists(read_table(turn_domains, "turn_domains"))
    return res


def _lists(table) -> dict[str, list[list[str]]]:
    """``{dialogue_id: [domains per turn]}`` of a booked_domains or turn_domains table."""
    from mwzrepro.standard.booked import booked_domains_to_dict

    return booked_domains_to_dict(table)


def _database(paths: Mapping[str, Path], matching: str, threshold: float, verify: bool = True):
    from mwzrepro.standard.database import NORMATIVE_SHA256, VenueDatabase

    return VenueDatabase.from_files(paths, matching=matching, threshold=threshold,
                                    expected_sha256=NORMATIVE_SHA256 if verify else None)


def _prepare_settings(prep, resources: Mapping[str, Any]) -> dict[str, Any]:
    """``{"standard": prep, "optimistic": prep with ground-truth domains}``."""
    out = {"standard": prep}
    if resources.get("turn_domains") is not None:
        out["optimistic"] = prep.with_domains("ground-truth", resources["turn_domains"])
    return out


# --- goals -----------------------------------------------------------------------------------


@click.command("goals")
@click.option("--dialogues", type=IN_FILE, required=True, help="Canonical dialogues.parquet.")
@click.option("--goals", "goals_file", type=IN_FILE, required=True,
              help="Canonical goals.parquet.")
@click.option("--booked", type=IN_FILE, required=True, help="Canonical booked.parquet.")
@click.option("--states", type=IN_FILE, required=True, help="Canonical states.parquet.")
@click.option("--acts", type=IN_FILE, required=True, help="Canonical acts.parquet.")
@click.option("--out-dir", type=PATH, required=True,
              help="Writes eval_goals, booked_domains, gold_states, turn_domains .parquet.")
@log_option
def goals(dialogues: Path, goals_file: Path, booked: Path, states: Path, acts: Path,
          out_dir: Path, log_file: Path | None) -> None:
    """Evaluator resources of one (version, split): goals, booked domains, gold states and
    ground-truth turn domains (spec-standard-evaluation §5.2–5.4, §10)."""
    from mwzrepro.standard.active_domains import build_turn_domains
    from mwzrepro.standard.booked import build_booked_domains
    from mwzrepro.standard.goals import build_eval_goals
    from mwzrepro.standard.gold_states import build_gold_states
    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.core.signature import NORMALIZATION_VERSION

    log = setup_logging(log_file)
    dl = read_table(dialogues, "dialogues")
    st = read_table(states, "states")
    meta = {"normalization": NORMALIZATION_VERSION,
            "inputs": [p.name for p in (dialogues, goals_file, booked, states, acts)]}
    eg = build_eval_goals(read_table(goals_file, "goals"))
    write_table(eg, out_dir / "eval_goals.parquet", "eval_goals", meta)
    bd = build_booked_domains(read_table(booked, "booked"), dl)
    write_table(bd, out_dir / "booked_domains.parquet", "booked_domains", meta)
    gs = build_gold_states(st, dl)
    write_table(gs, out_dir / "gold_states.parquet", "gold_states",
                {**meta, "dontcare": "dropped"})
    td = build_turn_domains(st, read_table(acts, "acts"), dl)
    write_table(td, out_dir / "turn_domains.parquet", "turn_domains",
                {**meta, "heuristic": "damd-turn-domain"})
    log.info("goals: %d dialogues, %d goal rows, %d system turns", len(dl), len(eg), len(gs))


# --- score-success ---------------------------------------------------------------------------


@click.command("score-success")
@click.option("--predictions", type=IN_FILE, default=None,
              help="predictions.parquet of the system (omit with --references).")
@click.option("--references", type=IN_FILE, default=None,
              help="references.parquet: score the reference corpus itself (oracle row).")
@click.option("--coverage", type=IN_FILE, default=None,
              help="coverage.parquet of the system (expected dialogues/turns).")
@click.option("--system", required=True, help="System name (use 'oracle' with --references).")
@click.option("--version", "version", required=True, help="Dataset version of the resources.")
@click.option("--eval-goals", type=IN_FILE, required=True, help="eval_goals.parquet")
@click.option("--booked-domains", type=IN_FILE, required=True, help="booked_domains.parquet")
@click.option("--gold-states", type=IN_FILE, required=True, help="gold_states.parquet")
@click.option("--turn-domains", type=IN_FILE, required=True,
              help="turn_domains.parquet (ground-truth active domains, optimistic setting).")
@_db_options
@_matching_options
@click.option("--domain-sources", default="", show_default=True,
              help="Active-domain source per system, 'sys=source,...' (auto, provided, "
                   "estimated, slot-names); systems not listed use auto.")
@click.option("--state-threshold", type=float, default=95, show_default=True,
              help="State metrics (§13): a value matches when partial_ratio > this.")
@click.option("--out", type=PATH, required=True, help="scores Parquet to write.")
@click.option("--out-dialogues", type=PATH, required=True,
              help="success_dialogues Parquet to write (per dialogue and domain).")
@log_option
def score_success(predictions: Path | None, references: Path | None, coverage: Path | None,
                  system: str, version: str, eval_goals: Path, booked_domains: Path,
                  gold_states: Path, turn_domains: Path, restaurant_db: Path, hotel_db: Path,
                  attraction_db: Path, train_db: Path, verify_db: bool, matching: str,
                  threshold: float, domain_sources: str, state_threshold: float, out: Path,
                  out_dialogues: Path, log_file: Path | None) -> None:
    """Inform/Success (standard and optimistic) of one system on one version; §13 state
    metrics when the system's own states are used."""
    import pandas as pd

    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.standard.inputs import prepare_predictions, prepare_references
    from mwzrepro.standard.scores import (
        coverage_scores,
        state_match_scores,
        success_scores,
    )

    log = setup_logging(log_file)
    if (predictions is None) == (references is None):
        raise click.UsageError("give exactly one of --predictions and --references")
    res = _load_resources(eval_goals, booked_domains, gold_states, turn_domains)
    db = _database({"restaurant": restaurant_db, "hotel": hotel_db,
                    "attraction": attraction_db, "train": train_db}, matching, threshold,
                   verify_db)
    source = parse_domain_sources(domain_sources).get(system, "auto")
    if predictions is not None:
        prep = prepare_predictions(read_table(predictions, "predictions"), res["gold"],
                                   source, where=f"{predictions.name}")
    else:
        prep = prepare_references(read_table(references, "references"), res["gold"],
                                  "estimated" if source == "auto" else source,
                                  where=f"{references.name}")
    expected = None
    if coverage is not None:
        cov = read_table(coverage, "coverage")
        expected = dict(zip(cov["dialogue_id"], cov["expected_turns"].astype(int)))
    scores, per_dialogue = success_scores(system, version, _prepare_settings(prep, res),
                                          res["goals"], res["booked"], db, matching, threshold)
    parts = [scores, coverage_scores(system, version, prep, expected)]
    if prep.state_source == "predicted":
        parts.append(state_match_scores(system, version, prep, res["gold"], matching,
                                        state_threshold))
    table = pd.concat(parts, ignore_index=True)
    sigs = dict(zip(table["metric"] + "/" + table["setting"], table["signature"]))
    meta = {"signatures": dict(sorted(sigs.items())), "state_source": prep.state_source,
            "domain_source": prep.domain_source}
    write_table(table, out, "scores", meta)
    write_table(per_dialogue, out_dialogues, "success_dialogues", meta)
    tot = scores[scores["key"] == "total"].set_index(["metric", "setting"])["value"]
    log.info("%s on %s (%s states, %s domains): standard %.1f/%.1f, optimistic %.1f/%.1f",
             system, version, prep.state_source, prep.domain_source,
             tot.get(("inform", "standard"), float("nan")),
             tot.get(("success", "standard"), float("nan")),
             tot.get(("inform", "optimistic"), float("nan")),
             tot.get(("success", "optimistic"), float("nan")))


# --- score-richness --------------------------------------------------------------------------


@click.command("score-richness")
@click.option("--predictions", type=IN_FILE, default=None, help="predictions.parquet")
@click.option("--references", type=IN_FILE, default=None,
              help="references.parquet: richness of the reference corpus.")
@click.option("--system", required=True, help="System name ('reference' for --references).")
@click.option("--version", "version", default="",
              help="Dataset version (for --references).")
@click.option("--window", type=int, default=50, show_default=True, help="MSTTR window.")
@click.option("--out", type=PATH, required=True, help="scores Parquet to write.")
@log_option
def score_richness(predictions: Path | None, references: Path | None, system: str, version: str, window: int, out: Path,
                   log_file: Path | None) -> None:
    """Lexical richness (spec §12) of one system's normalized responses or of a version's
    normalized references.

    Dialogues are taken in the prediction file's order (kept by the ``predictions`` phase in
    the Parquet metadata; MSTTR depends on it), references in sorted id order."""
    from mwzrepro.core.io import read_metadata, read_table, write_table
    from mwzrepro.standard.inputs import dialogue_order
    from mwzrepro.standard.scores import richness_scores

    log = setup_logging(log_file)
    if (predictions is None) == (references is None):
        raise click.UsageError("give exactly one of --predictions and --references")
    if predictions is not None:
        df = read_table(predictions, "predictions")
        col = "response_norm"
    else:
        if not version:
            raise click.UsageError("--references needs --version")
        df = read_table(references, "references")
        col = "reference"
    order = None
    if predictions is not None:
        order = read_metadata(predictions).get("dialogue_order")
    ids = dialogue_order(sorted(df["dialogue_id"].unique()), order)
    rank = {d: i for i, d in enumerate(ids)}
    df = df.assign(_rank=df["dialogue_id"].map(rank)).sort_values(["_rank", "turn"],
                                                                  kind="mergesort")
    table = richness_scores(system, df[col].tolist(),
                            version if references is not None else None, window)
    write_table(table, out, "scores", {"signature": table["signature"].iloc[0],
                                       "dialogue_order": "file" if order else "sorted"})
    vals = dict(zip(table["key"], table["value"]))
    log.info("richness %s: avg len %.2f, CBE %.2f, %d words, %d trigrams", system,
             vals["avg_lengths"], vals["cond_entropy"], vals["num_unigrams"],
             vals["num_trigrams"])


# --- tables-standard -------------------------------------------------------------------------


@click.command("tables-standard")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="results/scores: reads success/<version>/<system>.parquet (every system "
                   "and oracle.parquet for every version), richness/<system>.parquet and "
                   "richness/reference/<version>.parquet.")
@click.option("--published", type=IN_FILE, required=True,
              help="workflow/resources/published/leaderboard.yaml")
@click.option("--table-dir", type=PATH, required=True,
              help="Writes inform_success, richness and state_match (.md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True,
              help="Plot data CSV: Inform/Success by setting, one row per system and version.")
@log_option
def tables_standard(scores_dir: Path, published: Path, table_dir: Path, metrics: Path,
                    plot: Path, log_file: Path | None) -> None:
    """Table 5 (Inform/Success, standard and optimistic, next to the published numbers) and
    Table 6 (richness, with each version's reference corpus) shapes, the §13 state metrics;
    metrics JSON.

    Versions and systems are those found under --scores-dir (rows sorted by system); every
    system must have been scored on every version.
    """
    import yaml

    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table, write_json, write_text
    from mwzrepro.standard.tables import (
        inform_success_plot,
        inform_success_table,
        metrics_summary,
        richness_table,
        state_match_table,
    )
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    success_dir = scores_dir / "success"
    vers = sorted(p.name for p in success_dir.iterdir() if p.is_dir()) \
        if success_dir.is_dir() else []
    if not vers:
        raise InputError(f"{success_dir}: no <version>/ directories with scores")
    per_version = {v: sorted(p.name[: -len(".parquet")] for p in (success_dir / v).glob(
        "*.parquet") if not p.name.endswith(".dialogues.parquet")) for v in vers}
    syss = sorted({s for lst in per_version.values() for s in lst} - {"oracle"})
    for v, lst in per_version.items():
        missing = [s for s in syss + ["oracle"] if s not in lst]
        if missing:
            raise InputError(f"{success_dir / v}: no scores for {', '.join(missing)}")
    pub = yaml.safe_load(published.read_text(encoding="utf-8"))
    success = {v: {s: read_table(success_dir / v / f"{s}.parquet", "scores")
                   for s in syss + ["oracle"]} for v in vers}
    richness = {s: read_table(scores_dir / "richness" / f"{s}.parquet", "scores") for s in syss}
    ref_richness = {v: read_table(scores_dir / "richness" / "reference" / f"{v}.parquet",
                                  "scores") for v in vers}
    df, notes = inform_success_table(success, pub)
    render_table(df, table_dir / "inform_success",
                 "Inform and Success per test set version (Table 5 shape)", decimals=1,
                 notes=notes)
    df, notes = richness_table(richness, ref_richness, pub)
    render_table(df, table_dir / "richness",
                 "Lexical richness of system outputs and of the reference corpora "
                 "(Table 6 shape)", decimals=2, notes=notes)
    df, notes = state_match_table(success)
    render_table(df, table_dir / "state_match",
                 "State metrics of the reference evaluator for systems with predicted states",
                 decimals={"joint accuracy": 2, "slot F1": 2, "slot precision": 4,
                           "slot recall": 4}, notes=notes)
    write_json(metrics_summary(success, richness, ref_richness), metrics)
    write_text(inform_success_plot(success).to_csv(index=False, lineterminator="\n"), plot)
    log.info("tables-standard: %d versions x %d systems", len(vers), len(syss))


# --- score (user command) --------------------------------------------------------------------


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


COMMANDS = [goals, score_success, score_richness, tables_standard, score]
