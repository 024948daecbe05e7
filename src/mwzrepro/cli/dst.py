"""Pipeline phases of DST scoring (spec-dst-metrics):

* ``score-dst`` — end-to-end systems' predicted states (``predictions`` tables) against the
  gold states of one dataset version (subset rule LM + R1): one system (``--predictions``,
  ``--out``, ``--out-turns``) or several in one process (``--predictions-dir``, ``--out-dir``,
  ``--system`` repeated; the gold states are read once);
* ``score-dst-flags`` — per-slot correctness vectors (TripPy's released results; error-set
  rule), AGA from the gold states' presence;
* ``score-dst-human`` — the FGA release's 100 human-evaluation logs (SOM-DST sample, gold and
  predictions from the logs);
* ``score-dst-paired`` — paired state files (the layout of the authors' TRADE/SOM-DST results).

Each command takes every key of the ``dst`` block of ``params.yaml`` as an option
(:class:`mwzrepro.dst.params.DSTParams`) and writes, per scored source, a JSON record (corpus
figures as fractions, settings, signatures, coverage) and a ``dst_turns`` Parquet file
(per-turn outcomes; the record is in its metadata). The tables are ``tables-dst``
(:mod:`mwzrepro.cli.dst_tables`).
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging
from mwzrepro.cli.prepare import verify_raw
from mwzrepro.core.errors import InputError
from mwzrepro.core.io import read_table, write_json, write_table
from mwzrepro.core.params import click_options, from_options
from mwzrepro.dst.params import DSTParams
from mwzrepro.dst.readers.flags import read_flag_file
from mwzrepro.dst.readers.gold import gold_from_tables
from mwzrepro.dst.readers.human_eval import read_human_eval_logs
from mwzrepro.dst.readers.paired import read_paired_states
from mwzrepro.dst.runs import DSTRun, RunResult, score_flags, score_paired, score_predictions

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


def scoring_options(version_help: str, version_required: bool = True):
    """Options shared by every ``score-dst*`` command: row name, label, gold version, outputs,
    every key of the ``dst`` block, ``--log``."""
    def decorate(func):
        opts = [
            click.option("--label", default=None,
                         help="Model name shown in tables (default: the system)."),
            click.option("--version", "version", required=version_required, default=None,
                         help=version_help),
            click.option("--out", type=PATH, default=None, help="JSON record to write."),
            click.option("--out-turns", type=PATH, default=None,
                         help="Per-turn dst_turns Parquet to write."),
            click_options(DSTParams),
            log_option,
        ]
        return functools.reduce(lambda f, o: o(f), reversed(opts), func)

    return decorate


def _params(kw: dict[str, Any]) -> DSTParams:
    return from_options(DSTParams, kw, "dst")


def _write(run: DSTRun, system: str, label: str | None, version: str, result: RunResult,
           out: Path, out_turns: Path, log: Any) -> None:
    """Write one run's record and per-turn table, and log its figures."""
    record = run.record(system, label or system, version, result)
    frame, meta = run.turns(record, result)
    write_table(frame, out_turns, "dst_turns", meta)
    write_json(record, out)
    scores = result.scores
    if scores is None:
        log.info("score-dst %s on %s: no predicted states; nothing scored", system, version)
        return
    fga = " ".join(f"FGA({lam:g})={100 * v:.2f}" for lam, v in scores.fga.items())
    log.info(
        "DST %s on %s: %d dialogues, %d turns, #M1=%d, #M2=%d, JGA=%.2f, SA=%.2f, AGA=%s, "
        "%s", system, version, scores.dialogues, scores.turns, scores.m1, scores.m2,
        100 * scores.jga, 100 * scores.sa,
        "n/a" if scores.aga is None else f"{100 * scores.aga:.2f}", fga)
    if result.fuzzy is not None:
        log.info("fuzzy JGA (%s, θ=%s): %.2f", run.fuzzy.name, float(run.fuzzy.threshold),
                 100 * result.fuzzy.jga)
    for note in result.notes:
        log.warning("%s", note)


def _outputs(out: Path | None, out_turns: Path | None) -> tuple[Path, Path]:
    if out is None or out_turns is None:
        raise click.UsageError("--out and --out-turns are required")
    return out, out_turns


#: ``--sources``: verify raw inputs (under ``data/raw/``) against the sources registry.
sources_option = click.option(
    "--sources", "registry", type=IN_FILE, default=None,
    help="Sources registry: verify the raw input files' git blob SHA-1 (files under data/raw/).")


def _verify(registry: Path | None, paths: list[Path]) -> None:
    """Verify raw inputs against the registry (no-op without ``--sources``)."""
    if registry is not None:
        verify_raw((registry,), list(paths))


@click.command("score-dst")
@click.option("--system", "systems", multiple=True, required=True,
              help="System (row name); repeat it with --predictions-dir to score several.")
@click.option("--predictions", type=IN_FILE, default=None,
              help="<system>.parquet (predictions table) of the one --system.")
@click.option("--predictions-dir", type=IN_DIR, default=None,
              help="Directory of <system>.parquet predictions tables (one per --system).")
@click.option("--out-dir", type=PATH, default=None,
              help="With --predictions-dir: writes <system>.json and <system>.parquet here.")
@click.option("--states", type=IN_FILE, required=True, help="Gold states.parquet of the version.")
@click.option("--dialogues", type=IN_FILE, required=True, help="dialogues.parquet of the "
              "version (number of user turns).")
@scoring_options("Dataset version of the gold states, e.g. mwz21.")
def score_dst(systems: tuple[str, ...], predictions: Path | None, predictions_dir: Path | None,
              out_dir: Path | None, states: Path, dialogues: Path, label: str | None,
              version: str, out: Path | None, out_turns: Path | None, log_file: Path | None,
              **kw: Any) -> None:
    """Score end-to-end systems' predicted states against gold states (JGA, SA, AGA, FGA,
    fuzzy JGA). A system without predicted states gets a record with has_states = false."""
    if predictions_dir is not None:
        if predictions is not None or out is not None or out_turns is not None:
            raise click.UsageError("--predictions-dir goes with --out-dir, not with "
                                   "--predictions/--out/--out-turns")
        if out_dir is None:
            raise click.UsageError("--predictions-dir needs --out-dir")
        if label is not None and len(systems) > 1:
            raise click.UsageError("--label names one system; omit it with several")
        jobs = [(s, predictions_dir / f"{s}.parquet", out_dir / f"{s}.json",
                 out_dir / f"{s}.parquet") for s in systems]
    else:
        if predictions is None or len(systems) != 1 or out_dir is not None:
            raise click.UsageError("give --predictions with one --system (and --out, "
                                   "--out-turns), or --predictions-dir with --out-dir")
        jobs = [(systems[0], predictions, *_outputs(out, out_turns))]
    run = DSTRun(_params(kw), "states")
    log = setup_logging(log_file)
    dropped_gold: Counter = Counter()
    gold = gold_from_tables(read_table(states, "states"), read_table(dialogues, "dialogues"),
                            str(states), dropped_gold)
    for system, pred_path, json_path, turns_path in jobs:
        if not pred_path.is_file():
            raise InputError(f"{pred_path}: predictions file of system {system!r} not found")
        result = score_predictions(run, gold, dropped_gold,
                                   read_table(pred_path, "predictions"), str(pred_path))
        _write(run, system, label, version, result, json_path, turns_path, log)


@click.command("score-dst-flags")
@click.option("--system", required=True, help="Row name of the source, e.g. trippy.")
@click.option("--flags", type=IN_FILE, required=True, help="Per-slot correctness vectors "
              "(e.g. trippy_result.json).")
@click.option("--states", type=IN_FILE, default=None, help="Gold states.parquet (for AGA's "
              "gold presence); without it AGA is not computed.")
@click.option("--dialogues", type=IN_FILE, default=None, help="dialogues.parquet of the same "
              "version (required with --states).")
@sources_option
@scoring_options("Gold version (default: --flags-version).", version_required=False)
def score_dst_flags(system: str, flags: Path, states: Path | None, dialogues: Path | None,
                    registry: Path | None, label: str | None, version: str | None,
                    out: Path | None, out_turns: Path | None, log_file: Path | None,
                    **kw: Any) -> None:
    """Score per-slot correctness vectors (error-set local match, spec-dst-metrics §7)."""
    if (states is None) != (dialogues is None):
        raise click.UsageError("--states and --dialogues go together")
    params = _params(kw)
    out, out_turns = _outputs(out, out_turns)
    run = DSTRun(params, "flags")
    log = setup_logging(log_file)
    _verify(registry, [flags])
    dropped_gold: Counter = Counter()
    gold = None
    if states is not None and dialogues is not None:
        gold = gold_from_tables(read_table(states, "states"),
                                read_table(dialogues, "dialogues"), str(states), dropped_gold)
    result = score_flags(run, read_flag_file(flags), gold, dropped_gold, str(flags))
    _write(run, system, label, version or params.flags_version, result, out, out_turns, log)


@click.command("score-dst-human")
@click.option("--system", required=True, help="Row name of the source, e.g. som-dst-sample.")
@click.option("--logs-dir", type=IN_DIR, required=True,
              help="Directory of human-evaluation logs (*.json.txt).")
@sources_option
@scoring_options("Version label (default: --human-version).", version_required=False)
def score_dst_human(system: str, logs_dir: Path, registry: Path | None, label: str | None,
                    version: str | None, out: Path | None, out_turns: Path | None,
                    log_file: Path | None, **kw: Any) -> None:
    """Score the human-evaluation logs (GT vs PR states, subset rule)."""
    params = _params(kw)
    out, out_turns = _outputs(out, out_turns)
    run = DSTRun(params, "log")
    log = setup_logging(log_file)
    paths = sorted(logs_dir.glob("*.json.txt"))
    if not paths:
        raise click.UsageError(f"no *.json.txt logs in {logs_dir}")
    _verify(registry, paths)
    logs, notes = read_human_eval_logs(paths)
    result = score_paired(run, logs, str(logs_dir), notes)
    _write(run, system, label, version or params.human_version, result, out, out_turns, log)


@click.command("score-dst-paired")
@click.option("--system", required=True, help="Row name of the source, e.g. trade.")
@click.option("--input", "input_", type=IN_FILE, required=True,
              help="Paired state file {dialogue: {turn: {gt, pr}}} (TRADE/SOM-DST results).")
@sources_option
@scoring_options("Dataset version of the gold states, e.g. mwz21.")
def score_dst_paired(system: str, input_: Path, registry: Path | None, label: str | None,
                     version: str, out: Path | None, out_turns: Path | None,
                     log_file: Path | None, **kw: Any) -> None:
    """Score a paired gold/predicted state file (subset rule, spec-dst-metrics §10 item 1)."""
    params = _params(kw)
    out, out_turns = _outputs(out, out_turns)
    run = DSTRun(params, "paired")
    log = setup_logging(log_file)
    _verify(registry, [input_])
    result = score_paired(run, read_paired_states(input_), str(input_))
    _write(run, system, label, version, result, out, out_turns, log)


COMMANDS = [score_dst, score_dst_flags, score_dst_human, score_dst_paired]
