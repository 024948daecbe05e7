"""The pipeline phase ``predictions``: systems' prediction files (the reference evaluator's
input format) validated and normalized into ``predictions`` and ``coverage`` tables
(spec-standard-evaluation §2–3), with the placeholder vocabulary of ``standard.placeholders``
(:mod:`mwzrepro.core.placeholders`)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging
from mwzrepro.cli.prepare import IN_FILE, PATH, verify_raw
from mwzrepro.core.params import click_options, from_options
from mwzrepro.standard.params import StandardParams


@click.command("predictions")
@click.option("--input", "inputs", type=IN_FILE, multiple=True, required=True,
              help="Prediction file in the reference evaluator's format; repeat for several "
                   "systems (the file name without .json is the system name).")
@click.option("--sources", "registries", type=IN_FILE, multiple=True,
              help="Sources registry to verify the inputs (pipeline files; repeatable: the "
                   "shipped registry and submissions.yaml); omit for user files.")
@click.option("--turns", type=IN_FILE, required=True,
              help="Canonical turns.parquet of the test set the predictions are checked against.")
@click.option("--out-dir", type=PATH, default=None,
              help="Write <system>.parquet and <system>.coverage.parquet here for every input.")
@click.option("--out", type=PATH, default=None, help="predictions.parquet (one --input).")
@click.option("--coverage", type=PATH, default=None, help="coverage.parquet (one --input).")
@click_options(StandardParams, exclude=("domain_sources", "state_match_threshold"))
@log_option
def predictions(inputs: tuple[Path, ...], registries: tuple[Path, ...], turns: Path,
                out_dir: Path | None, out: Path | None, coverage: Path | None,
                log_file: Path | None, **kw: Any) -> None:
    """Validate and normalize systems' outputs (spec-standard-evaluation §2–3).

    One --input with --out and --coverage, or any number of --input with --out-dir (the
    pipeline: every system in one process, one pair of files per system).
    """
    from mwzrepro.core.io import read_table

    log = setup_logging(log_file)
    if out_dir is not None and out is None and coverage is None:
        targets = [(p, out_dir / f"{p.stem}.parquet", out_dir / f"{p.stem}.coverage.parquet")
                   for p in inputs]
    elif out_dir is None and out is not None and coverage is not None and len(inputs) == 1:
        targets = [(inputs[0], out, coverage)]
    else:
        raise click.UsageError("give one --input with --out and --coverage, or --out-dir")
    if registries:
        verify_raw(registries, list(inputs))
    from mwzrepro.prepare.predictions import expected_turns

    expected = expected_turns(read_table(turns, "turns"))
    placeholders = from_options(StandardParams, kw, "standard").placeholders
    for input_file, out_file, coverage_file in targets:
        _prediction_tables(input_file, expected, out_file, coverage_file, log, placeholders)


def _prediction_tables(input_file: Path, expected: dict[str, int], out: Path, coverage: Path,
                       log, placeholders: str = "reference") -> None:
    """Parse one prediction file and write its predictions and coverage tables."""
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import write_table
    from mwzrepro.prepare.predictions import parse_predictions

    try:
        data = json.loads(input_file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{input_file}: not valid JSON: {exc}") from None
    unknown: Counter[str] = Counter()
    preds, cov = parse_predictions(data, expected, str(input_file.name),
                                   unknown_placeholders=unknown, placeholders=placeholders)
    meta = {"input": input_file.name, "unknown_placeholders": dict(sorted(unknown.items()))}
    if placeholders != "reference":  # the default leaves the tables' bytes as they were
        meta["placeholders"] = placeholders
    # Rows are stored sorted; the file's dialogue order (MSTTR depends on it, spec §12.2) is
    # kept in the metadata.
    order = list(dict.fromkeys(preds["dialogue_id"]))
    write_table(preds, out, "predictions", {**meta, "dialogue_order": order})
    write_table(cov, coverage, "coverage", meta)
    covered = int((cov["predicted_turns"] > 0).sum())
    log.info("predictions %s: %d turns, %d/%d dialogues, unknown placeholders %s",
             input_file.name, len(preds), covered, len(cov), dict(unknown))


COMMANDS = [predictions]
