"""Pipeline steps of ``results/tables/inform_success_grounded``: ``grounded-inputs`` (what no
``inform.*`` parameter changes) and ``tables-grounded`` (standard against grounded
Inform/Success of lexicalized text and its metrics,
:mod:`mwzrepro.scorer.lexicalized.grounded_table`).

``grounded-inputs`` builds the scorer's resources of the version in a temporary cache from the
raw files the pipeline already downloaded (``--raw-dir``, registry paths, verified by their
pinned ids: nothing is fetched) and writes, under ``--out``, the resource set
(``resources/``: its files and manifest, as the cache holds them) with its grounding tables
(:data:`~mwzrepro.scorer.lexicalized.grounding.GROUNDING_FILE`), and each system's round-trip
inputs (``round_trip/<system>.json``, :mod:`mwzrepro.scorer.lexicalized.round_trip_inputs`;
for a system without predicted states, only the file's SHA-256 and ``"states": false``).
``tables-grounded --inputs`` verifies the set against its manifest and this package's build
key and reads it in place; without ``--inputs`` it computes the same in a temporary cache (a
run by hand)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.cli.systems import IN_DIR, PATH
from mwzrepro.core.params import click_options, from_options
from mwzrepro.scorer.prediction_file import read_predictions
from mwzrepro.standard.params import InformParams

_RAW_DIR = click.option(
    "--raw-dir", type=IN_DIR, required=True,
    help="data/raw: mwzeval/predictions/<system>.json, and the version's test file and the "
         "four database files (registry paths) unless tables-grounded gets --inputs.")
_VERSION = click.option("--version", "version", default="mwz21", show_default=True,
                        type=click.Choice(["mwz21"]),
                        help="Dataset version (the grounded resources exist for 2.1 only).")
_SYSTEMS = click.option(
    "--system", "systems", multiple=True,
    help="A system of delexicalized output (repeatable), filled from its own predicted state "
         "(the round trip); systems whose file gives no predicted states are left out "
         "(logged).")


def _predictions(raw_dir: Path, systems: tuple[str, ...], build: bool,
                 version: str) -> dict[str, Path]:
    """``{system: prediction file}``, every file checked (and the raw files of the resources
    when ``build``).

    Raises:
        InputError: a missing file (all named, in one line).
    """
    from mwzrepro.core.errors import InputError
    from mwzrepro.scorer.resources.build import recipe
    from mwzrepro.scorer.resources.fetch import registry_sources

    missing = []
    if build:
        needed = registry_sources(recipe(version).source_ids())
        missing = [s.path for s in needed.values() if not (raw_dir / s.path).is_file()]
    predictions = {s: raw_dir / "mwzeval" / "predictions" / f"{s}.json" for s in systems}
    missing += [str(p) for p in predictions.values() if not p.is_file()]
    if missing:
        raise InputError(f"{raw_dir}: missing {', '.join(missing)} (run the download step)")
    return predictions


def _load_table_module() -> None:
    """Import what builds the table (pandas; 0.5 s), which the rows' workers do not need:
    done while they work."""
    import mwzrepro.core.tables  # noqa: F401


@click.command("grounded-inputs")
@_RAW_DIR
@_VERSION
@_SYSTEMS
@click.option("--out", type=PATH, required=True,
              help="Output directory (replaced): resources/ (the scorer's resource set with "
                   "its grounding tables) and round_trip/<system>.json.")
@log_option
def grounded_inputs(raw_dir: Path, version: str, systems: tuple[str, ...], out: Path,
                    log_file: Path | None) -> None:
    """Pipeline step: the inputs of tables-grounded that no inform.* parameter changes — the
    scorer's resource set of the version with its grounding tables (lex:1 links of the
    corpus text and user utterances) and each round-trip system's links and estimated
    domains."""
    import shutil
    import tempfile

    from mwzrepro.core.io import write_text
    from mwzrepro.core.workers import fork_map
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of
    from mwzrepro.scorer.lexicalized.grounded_table import has_states
    from mwzrepro.scorer.lexicalized.grounding import GROUNDING_FILE, grounding_tables_of
    from mwzrepro.scorer.lexicalized.round_trip_inputs import (
        round_trip_inputs,
        write_round_trip_inputs,
    )
    from mwzrepro.scorer.resources.load import load_resources

    log = setup_logging(log_file)
    predictions = _predictions(raw_dir, systems, True, version)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mwzrepro-grounded-") as tmp, \
            tempfile.TemporaryDirectory(prefix=f".{out.name}-", dir=out.parent) as staging:
        (Path(tmp) / "raw").symlink_to(raw_dir.resolve(), target_is_directory=True)
        resources = load_resources(version, tmp, progress=False)
        target = Path(staging) / "out"
        shutil.copytree(resources.directory, target / "resources")
        write_text(grounding_tables_of(resources), target / "resources" / GROUNDING_FILE)
        delexicalizer_of(resources)
        with_states = {}
        for system, path in predictions.items():
            data = read_predictions(path)
            if has_states(data):
                with_states[system] = data
            else:
                log.info("grounded-inputs: %s gives no predicted states, left out", system)
                write_round_trip_inputs({"states": False}, path,
                                        target / "round_trip" / f"{system}.json")
        done = fork_map(lambda s: round_trip_inputs(with_states[s], resources), list(with_states))
        for system, inputs in zip(with_states, done):
            write_round_trip_inputs(inputs, predictions[system],
                                    target / "round_trip" / f"{system}.json")
        shutil.rmtree(out, ignore_errors=True)
        target.rename(out)
    log.info("grounded-inputs: %s, %d round-trip systems", version, len(with_states))


@click.command("tables-grounded")
@_RAW_DIR
@_VERSION
@_SYSTEMS
@click.option("--lexicalized-system", "lexicalized", multiple=True,
              help="A system of the lexicalized kind (repeatable; add-system --form "
                   "lexicalized): its file scored as given.")
@click.option("--inputs", "inputs_dir", type=PATH, default=None,
              help="The output of grounded-inputs for these systems (default: computed here, "
                   "in a temporary cache).")
@click_options(InformParams)
@click.option("--table", type=PATH, required=True,
              help="Output stem: writes <stem>.md, .csv and .tex.")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--memo", "memo_dir", type=PATH, default=None,
              help="Keep each row's fills, preparations and scores between runs in this "
                   "directory, dialogue by dialogue: a run after a threshold change "
                   "recomputes only what the threshold changes; the same bytes either way.")
@record_option
@log_option
def tables_grounded(raw_dir: Path, version: str, systems: tuple[str, ...],
                    lexicalized: tuple[str, ...], inputs_dir: Path | None, table: Path,
                    metrics: Path, memo_dir: Path | None, record: Path | None,
                    log_file: Path | None, **params: Any) -> None:
    """Pipeline step: Inform/Success of lexicalized text, standard and grounded, with
    attribute accuracy, entity F1 and unknown venues: the corpus's own lexicalized responses
    ("oracle, lexicalized"), each lexicalized system as given and each other system's output
    relexicalized from its own predicted state, the rows in parallel; metrics JSON (numbers
    only with --record beside it)."""
    import tempfile

    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import write_metrics
    from mwzrepro.scorer.evaluator import Evaluator
    from mwzrepro.scorer.grounded_rows import GroundedInput, grounded_rows
    from mwzrepro.scorer.lexicalized.grounded_memo import open_memo
    from mwzrepro.scorer.lexicalized.grounded_table import grounded_table
    from mwzrepro.scorer.lexicalized.round_trip_inputs import check_round_trip_inputs
    from mwzrepro.scorer.resources.build import recipe
    from mwzrepro.scorer.resources.cache import verify_manifest
    from mwzrepro.scorer.resources.fetch import default_registry
    from mwzrepro.scorer.resources.load import build_key

    log = setup_logging(log_file)
    inform = from_options(InformParams, params, "inform")
    predictions = _predictions(raw_dir, (*systems, *lexicalized), inputs_dir is None, version)
    if inputs_dir is not None:
        key = build_key(recipe(version), default_registry())["key"]
        problems = verify_manifest(inputs_dir / "resources", {"key": key})
        if problems:
            raise InputError(f"{inputs_dir}: no verified {version} resource set of this "
                             f"package ({problems[0]}); run `mwzrepro grounded-inputs`")
    rows = []   # each file (and its stored inputs) is read in its row's worker
    for system, path in predictions.items():
        if system in lexicalized:
            rows.append(GroundedInput(system, "as given", path))
            continue
        stored = None if inputs_dir is None else inputs_dir / "round_trip" / f"{system}.json"
        if stored is not None:
            check_round_trip_inputs(stored, path)
        rows.append(GroundedInput(system, "filled", path, stored))
    with tempfile.TemporaryDirectory(prefix="mwzrepro-grounded-") as tmp:
        if inputs_dir is None:
            (Path(tmp) / "raw").symlink_to(raw_dir.resolve(), target_is_directory=True)
        else:  # the prepared set in the cache's place: verified, read where it is
            (Path(tmp) / "resources" / version).mkdir(parents=True)
            (Path(tmp) / "resources" / version / key).symlink_to(
                (inputs_dir / "resources").resolve(), target_is_directory=True)
        e = Evaluator(bleu=False, success=True, richness=False, version=version,
                      lexicalized=True, setting="all", matching=inform.matching,
                      fuzzy_threshold=inform.fuzzy_threshold, cache_dir=tmp, progress=False)
        e.settings = ("standard", "grounded")  # the table's two; not the optimistic one
        memo = None if memo_dir is None else open_memo(memo_dir, e.resources)
        results, filled = grounded_rows(e, rows, memo=memo, meanwhile=_load_table_module)
    if memo is not None:
        log.info("tables-grounded: memo %s: %d dialogues filled anew, %d prepared anew, %d "
                 "dialogue figures scored anew", memo_dir, memo.anew["filled"],
                 memo.anew["prepared"], memo.anew["scored"])
    spec, out = grounded_table(results, version, dict.fromkeys(lexicalized, "as given"),
                               filled)
    spec.render(table)
    write_metrics(out, metrics, record)
    log.info("tables-grounded: %s, %d rows", version, len(results))


COMMANDS = [grounded_inputs, tables_grounded]
