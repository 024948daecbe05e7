"""Standard evaluation (spec-standard-evaluation): pipeline phases ``goals``,
``score-success``, ``score-richness`` and ``tables-standard``.

* ``goals``: per (version, split), the evaluator's resources from the canonical tables —
  ``eval_goals`` (§5.2), ``booked_domains`` (§5.3), ``gold_states`` (§5.4/§4) and
  ``turn_domains`` (ground-truth active domains, §10).
* ``score-success``: Inform/Success of systems (and of the reference corpus, the "oracle") on
  one version, standard and optimistic settings, plus the §13 state metrics when a system's
  own states are used. Options of the blocks ``inform`` and ``standard``.
* ``score-richness``: lexical richness (§12) of systems or of a version's references. Options
  of the block ``richness``.
* ``tables-standard``: in :mod:`mwzrepro.cli.tables_standard`.

The user command ``score`` is in :mod:`mwzrepro.cli.score`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import (  # models by name: loading this module imports no pydantic
    INFORM_PARAMS,
    RICHNESS_PARAMS,
    STANDARD_PARAMS,
    log_option,
    setup_logging,
)
from mwzrepro.cli.systems import IN_DIR, IN_FILE, PATH, system_jobs, systems_options
from mwzrepro.core.params import click_options, from_options

#: The venue database files, one option each (spec §5.1).
_DB_OPTIONS = ("restaurant", "hotel", "attraction", "train")


def _db_options(f):
    f = click.option("--verify-db/--no-verify-db", default=True, show_default=True,
                     help="Refuse database files whose SHA-256 is not the normative one "
                          "(spec §5.1); --no-verify-db for test fixtures.")(f)
    for domain in reversed(_DB_OPTIONS):
        f = click.option(f"--{domain}-db", type=IN_FILE, required=True,
                         help=f"{domain}_db.json of the evaluator's database (spec §5.1).")(f)
    return f


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
    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.core.signature import NORMALIZATION_VERSION
    from mwzrepro.standard.active_domains import build_turn_domains
    from mwzrepro.standard.booked import build_booked_domains
    from mwzrepro.standard.goals import build_eval_goals
    from mwzrepro.standard.gold_states import build_gold_states

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
@click.option("--version", "version", required=True, help="Dataset version of the resources.")
@click.option("--eval-goals", type=IN_FILE, required=True, help="eval_goals.parquet")
@click.option("--booked-domains", type=IN_FILE, required=True, help="booked_domains.parquet")
@click.option("--gold-states", type=IN_FILE, required=True, help="gold_states.parquet")
@click.option("--turn-domains", type=IN_FILE, required=True,
              help="turn_domains.parquet (ground-truth active domains, optimistic setting).")
@_db_options
@click_options(INFORM_PARAMS)
@click_options(STANDARD_PARAMS, exclude=("placeholders",))
@systems_options
@click.option("--references", type=IN_FILE, default=None,
              help="references.parquet: the reference corpus scored as system 'oracle'.")
@click.option("--predictions", type=IN_FILE, default=None,
              help="predictions.parquet of the system (one system).")
@click.option("--coverage", type=IN_FILE, default=None,
              help="coverage.parquet of the system (one system; expected dialogues/turns).")
@click.option("--out", type=PATH, default=None, help="scores Parquet to write (one system).")
@click.option("--out-dialogues", type=PATH, default=None,
              help="success_dialogues Parquet to write (one system; per dialogue and domain).")
@click.option("--inputs-dir", type=IN_DIR, default=None,
              help="success-inputs output of this version: scores each --system (the oracle "
              "included) from <dir>/<system>.parquet instead of --predictions-dir and "
              "--references (same files; needs --out-dir). The inputs carry the "
              "standard.* settings they were prepared with; --matching must be theirs.")
@log_option
def score_success(version: str, eval_goals: Path, booked_domains: Path, gold_states: Path,
                  turn_domains: Path, restaurant_db: Path, hotel_db: Path,
                  attraction_db: Path, train_db: Path, verify_db: bool, systems: tuple[str, ...],
                  predictions_dir: Path | None, out_dir: Path | None, references: Path | None,
                  predictions: Path | None, coverage: Path | None, out: Path | None,
                  out_dialogues: Path | None, inputs_dir: Path | None, log_file: Path | None,
                  **params: Any) -> None:
    """Pipeline step (yours: mwzrepro score): Inform/Success (standard and optimistic) of
    systems on one version; §13 state metrics when a system's own states are used. The system
    ``oracle`` is the reference corpus (--references). Resources and the venue database are
    loaded once for all systems; with --inputs-dir the systems come prepared by
    success-inputs (only Inform/Success is computed here)."""
    from mwzrepro.core.gc_pause import paused_gc
    from mwzrepro.core.io import load_writer, read_metadata, read_table
    from mwzrepro.core.workers import fork_map
    from mwzrepro.core.venue_database import NORMATIVE_SHA256, VenueDatabase
    from mwzrepro.standard.scoring import (
        ORACLE,
        EvalResources,
        score_prepared,
        score_success,
    )
    from mwzrepro.standard.success_inputs import TABLE, prepared_from_table
    from mwzrepro.standard.params import StandardParams  # its methods: the model itself

    log = setup_logging(log_file)

    inform = from_options(INFORM_PARAMS, params, "inform")
    standard = from_options(StandardParams, params, "standard")
    outputs = {"out": out, "out_dialogues": out_dialogues}
    suffixes = {"out": ".parquet", "out_dialogues": ".dialogues.parquet"}
    if inputs_dir is not None:
        if predictions_dir is not None or references is not None or out_dir is None:
            raise click.UsageError("--inputs-dir needs --out-dir, without --predictions-dir "
                                   "and --references")
        jobs = system_jobs(systems, None, None, inputs_dir, outputs, out_dir, suffixes,
                           with_coverage=False)
    else:
        single = out_dir is None and predictions_dir is None
        if single and (predictions is None) == (references is None):
            raise click.UsageError("give exactly one of --predictions and --references")
        jobs = system_jobs(systems, predictions, coverage, predictions_dir, outputs, out_dir,
                           suffixes, from_references=frozenset({ORACLE}))
        if any(j.predictions is None for j in jobs) and references is None:
            raise click.UsageError(f"system {ORACLE!r} needs --references")
    resources = EvalResources.from_tables(  # prepared inputs hold the gold states they use
        read_table(eval_goals, "eval_goals"), read_table(booked_domains, "booked_domains"),
        None if inputs_dir else read_table(gold_states, "gold_states"),
        read_table(turn_domains, "turn_domains"))
    db = VenueDatabase.from_files(
        {"restaurant": restaurant_db, "hotel": hotel_db, "attraction": attraction_db,
         "train": train_db}, matching=inform.matching, threshold=inform.fuzzy_threshold,
        expected_sha256=NORMATIVE_SHA256 if verify_db else None)
    refs = read_table(references, "references") if references is not None else None

    def score_job(job: Any) -> str:
        if inputs_dir is not None:  # prepared by success-inputs
            meta = read_metadata(job.predictions)
            prep, rows = prepared_from_table(read_table(job.predictions, TABLE), meta,
                                             inform.matching, where=str(job.predictions))
            with paused_gc():  # see mwzrepro.core.gc_pause
                result = score_prepared(job.system, version, prep, rows, resources, db,
                                        inform)
            return _write_success(result, meta.get("placeholders"), job.outputs)
        kwargs, vocabulary = _system_inputs(job, refs, references)
        with paused_gc():  # see mwzrepro.core.gc_pause
            result = score_success(job.system, version, resources, db, inform, standard,
                                   **kwargs)
        return _write_success(result, vocabulary, job.outputs)

    # Systems are independent (read-only resources and database): one per core, forked after
    # the resources and the table writer are loaded; the same bytes as one process
    # (mwzrepro.core.workers).
    load_writer()
    for summary in fork_map(score_job, jobs):
        log.info("%s", summary)


def _system_inputs(job: Any, refs: Any, references: Path | None
                   ) -> tuple[dict[str, Any], str | None]:
    """The keyword arguments of :func:`~mwzrepro.standard.scoring.score_success` (and
    ``success_inputs``) for one system job — its prediction table (and expected turns from
    its coverage table), or the ``refs`` read from ``references`` for the oracle — and the
    prediction file's placeholder vocabulary (None for the references)."""
    from mwzrepro.core.io import read_metadata, read_table
    from mwzrepro.standard.scoring import expected_from_coverage

    if job.predictions is None:
        kwargs: dict[str, Any] = {"references": refs, "where": references.name}
        vocabulary = None
    else:
        kwargs = {"predictions": read_table(job.predictions, "predictions"),
                  "where": job.predictions.name}
        vocabulary = read_metadata(job.predictions).get("placeholders")
    if job.coverage is not None:
        kwargs["expected"] = expected_from_coverage(read_table(job.coverage, "coverage"))
    return kwargs, vocabulary


def _write_success(result: Any, vocabulary: str | None, outputs: dict[str, Path]) -> str:
    """Write one system's ``scores`` and ``success_dialogues`` (the placeholder vocabulary's
    signature field added); its log line."""
    from mwzrepro.core.io import write_table
    from mwzrepro.core.placeholders import stamp_scores

    scores, meta = stamp_scores(result.scores, result.metadata, vocabulary)
    write_table(scores, outputs["out"], "scores", meta)
    write_table(result.per_dialogue, outputs["out_dialogues"], "success_dialogues", meta)
    return result.summary


# --- success-inputs --------------------------------------------------------------------------


@click.command("success-inputs")
@click.option("--version", "version", required=True, help="Dataset version of the resources.")
@click.option("--gold-states", type=IN_FILE, required=True, help="gold_states.parquet")
@click_options(INFORM_PARAMS, exclude=("fuzzy_threshold",))
@click_options(STANDARD_PARAMS, exclude=("placeholders",))
@systems_options
@click.option("--references", type=IN_FILE, required=True,
              help="references.parquet: the reference corpus, prepared as system 'oracle'.")
@log_option
def success_inputs(version: str, gold_states: Path, systems: tuple[str, ...],
                   predictions_dir: Path | None, out_dir: Path | None, references: Path,
                   log_file: Path | None, **params: Any) -> None:
    """What score-success computes of each system without the fuzzy threshold — prepared
    dialogues, coverage and §13 state metrics — as <out-dir>/<system>.parquet
    (mwzrepro.standard.success_inputs), for ``score-success --inputs-dir``."""
    from mwzrepro.core.gc_pause import paused_gc
    from mwzrepro.core.io import load_writer, read_table, write_table
    from mwzrepro.core.workers import fork_map
    from mwzrepro.standard.gold_states import gold_states_to_dict
    from mwzrepro.standard.scoring import ORACLE, EvalResources
    from mwzrepro.standard.scoring import success_inputs as prepare
    from mwzrepro.standard.success_inputs import TABLE, inputs_metadata, inputs_table
    from mwzrepro.standard.params import StandardParams  # its methods: the model itself

    log = setup_logging(log_file)

    inform = from_options(INFORM_PARAMS, params, "inform")
    standard = from_options(StandardParams, params, "standard")
    jobs = system_jobs(systems, None, None, predictions_dir, {"out": None}, out_dir,
                       {"out": ".parquet"}, from_references=frozenset({ORACLE}))
    resources = EvalResources({}, {}, gold_states_to_dict(read_table(gold_states,
                                                                     "gold_states")))
    refs = read_table(references, "references")

    def prepare_job(job: Any) -> str:
        kwargs, vocabulary = _system_inputs(job, refs, references)
        with paused_gc():
            prep, rows = prepare(job.system, version, resources, inform.matching, standard,
                                 **kwargs)
        write_table(inputs_table(prep), job.outputs["out"], TABLE,
                    inputs_metadata(prep, rows, inform.matching, vocabulary))
        return f"{job.system} on {version}: {len(prep.dialogues)} dialogues prepared"

    load_writer()
    for line in fork_map(prepare_job, jobs):
        log.info("%s", line)


# --- score-richness --------------------------------------------------------------------------


@click.command("score-richness")
@click_options(RICHNESS_PARAMS)
@systems_options
@click.option("--predictions", type=IN_FILE, default=None,
              help="predictions.parquet (one system).")
@click.option("--references", type=IN_FILE, default=None,
              help="references.parquet: richness of the reference corpus (with --version, "
                   "--system reference).")
@click.option("--version", "version", default="", help="Dataset version (for --references).")
@click.option("--out", type=PATH, default=None, help="scores Parquet to write (one system).")
@log_option
def score_richness(systems: tuple[str, ...], predictions_dir: Path | None,
                   out_dir: Path | None, predictions: Path | None, references: Path | None,
                   version: str, out: Path | None, log_file: Path | None,
                   **params: Any) -> None:
    """Lexical richness (spec §12) of systems' normalized responses or of a version's
    normalized references.

    Dialogues are taken in the prediction file's order (kept by the ``predictions`` phase in
    the Parquet metadata; MSTTR depends on it), references in sorted id order."""
    from mwzrepro.core.io import read_metadata, read_table, write_table
    from mwzrepro.core.placeholders import stamp_scores
    from mwzrepro.standard.scoring import score_richness

    log = setup_logging(log_file)
    richness = from_options(RICHNESS_PARAMS, params, "richness")
    if references is not None:
        if predictions is not None or predictions_dir is not None or out_dir is not None:
            raise click.UsageError("--references scores one corpus: give --out, not "
                                   "--predictions/--predictions-dir/--out-dir")
        if not version:
            raise click.UsageError("--references needs --version")
        if out is None or len(systems) != 1:
            raise click.UsageError("--references needs one --system and --out")
        runs = [(systems[0], read_table(references, "references"), "reference", version,
                 {}, out)]
    else:
        jobs = system_jobs(systems, predictions, None, predictions_dir, {"out": out}, out_dir,
                           {"out": ".parquet"}, with_coverage=False)
        if jobs[0].predictions is None:
            raise click.UsageError("give --predictions, --predictions-dir or --references")
        runs = [(j.system, read_table(j.predictions, "predictions"), "response_norm", None,
                 read_metadata(j.predictions), j.outputs["out"]) for j in jobs]
    for system, table, column, ver, table_meta, path in runs:
        scores, meta = score_richness(system, table, column, richness.msttr_window, ver,
                                      table_meta.get("dialogue_order"))
        scores, meta = stamp_scores(scores, meta, table_meta.get("placeholders"))
        write_table(scores, path, "scores", meta)
        vals = dict(zip(scores["key"], scores["value"]))
        log.info("richness %s: avg len %.2f, CBE %.2f, %d words, %d trigrams", system,
                 vals["avg_lengths"], vals["cond_entropy"], vals["num_unigrams"],
                 vals["num_trigrams"])


COMMANDS = [goals, success_inputs, score_success, score_richness]
