"""Pipeline step ``tables-grounded``: standard against grounded Inform/Success of lexicalized
text (the setting's addendum: :mod:`mwzrepro.standard.grounded`),
``results/tables/inform_success_grounded`` and its metrics
(:mod:`mwzrepro.scorer.lexicalized.grounded_table`).

The scorer's resources of the version are built in a temporary cache from the raw files the
pipeline already downloaded (``--raw-dir``, registry paths, verified by their pinned ids):
nothing is fetched, nothing is kept outside the declared outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, PATH
from mwzrepro.core.params import click_options, from_options
from mwzrepro.standard.params import InformParams


@click.command("tables-grounded")
@click.option("--raw-dir", type=IN_DIR, required=True,
              help="data/raw: the version's test file and the four database files (registry "
                   "paths), and mwzeval/predictions/<system>.json.")
@click.option("--version", "version", default="mwz21", show_default=True,
              type=click.Choice(["mwz21"]),
              help="Dataset version (the grounded resources exist for 2.1 only).")
@click.option("--system", "systems", multiple=True,
              help="A system of delexicalized output (repeatable), filled from its own "
                   "predicted state (the round trip); systems whose file gives no predicted "
                   "states are left out (logged).")
@click.option("--lexicalized-system", "lexicalized", multiple=True,
              help="A system of the lexicalized kind (repeatable; add-system --form "
                   "lexicalized): its file scored as given.")
@click_options(InformParams)
@click.option("--table", type=PATH, required=True,
              help="Output stem: writes <stem>.md, .csv and .tex.")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@record_option
@log_option
def tables_grounded(raw_dir: Path, version: str, systems: tuple[str, ...],
                    lexicalized: tuple[str, ...], table: Path, metrics: Path,
                    record: Path | None, log_file: Path | None, **params: Any) -> None:
    """Pipeline step: Inform/Success of lexicalized text, standard and grounded, with
    attribute accuracy, entity F1 and unknown venues: the corpus's own lexicalized responses
    ("oracle, lexicalized"), each lexicalized system as given and each other system's output
    relexicalized from its own predicted state; metrics JSON (numbers only with --record
    beside it)."""
    import json
    import tempfile

    from mwzrepro.scorer.evaluator import Evaluator
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import write_metrics
    from mwzrepro.scorer.resources.build import recipe
    from mwzrepro.scorer.resources.fetch import registry_sources
    from mwzrepro.scorer.lexicalized.grounded_table import ORACLE_ROW, corpus_text, grounded_table, has_states
    from mwzrepro.scorer.lexicalized.round_trip import filled_accuracy, round_trip

    log = setup_logging(log_file)
    inform = from_options(InformParams, params, "inform")
    needed = registry_sources(recipe(version).source_ids())
    missing = [s.path for s in needed.values() if not (raw_dir / s.path).is_file()]
    predictions = {s: raw_dir / "mwzeval" / "predictions" / f"{s}.json"
                   for s in (*systems, *lexicalized)}
    missing += [str(p) for p in predictions.values() if not p.is_file()]
    if missing:
        raise InputError(f"{raw_dir}: missing {', '.join(missing)} (run the download step)")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mwzrepro-grounded-") as tmp:
        (Path(tmp) / "raw").symlink_to(raw_dir.resolve(), target_is_directory=True)
        e = Evaluator(bleu=False, success=True, richness=False, version=version,
                      lexicalized=True, setting="all", matching=inform.matching,
                      fuzzy_threshold=inform.fuzzy_threshold, cache_dir=tmp, progress=False)
        results[ORACLE_ROW] = e.evaluate(corpus_text(e.resources), ORACLE_ROW).to_dict()
        filled: dict[str, Any] = {}
        for system, path in predictions.items():
            data = json.loads(path.read_text(encoding="utf-8"))
            if system in lexicalized:
                results[system] = e.evaluate(data, system).to_dict()
                continue
            if not has_states(data):
                log.info("tables-grounded: %s gives no predicted states, left out", system)
                continue
            lexical = round_trip(data, e)
            results[system] = e.evaluate(lexical, system).to_dict()
            filled[system] = filled_accuracy(data, lexical, e, system)
    spec, out = grounded_table(results, version, dict.fromkeys(lexicalized, "as given"),
                               filled)
    spec.render(table)
    write_metrics(out, metrics, record)
    log.info("tables-grounded: %s, %d rows", version, len(results))


COMMANDS = [tables_grounded]
