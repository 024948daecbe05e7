"""The user command ``score``: one prediction file (the reference evaluator's input format)
scored from any directory — BLEU, Inform/Success, lexical richness and, when every turn has a
state, the reference evaluator's state metrics and the FGA paper's DST metrics — with
signatures and coverage.

On first use of a dataset version the raw files are fetched (``$MWZREPRO_MIRROR`` or the
pinned URLs), verified and built into the per-user cache (``$MWZREPRO_CACHE``); later calls
verify the cache and reuse it (:mod:`mwzrepro.scorer.resources.load`). Results go to stdout, logs
and warnings to stderr. Library: :class:`mwzrepro.scorer.evaluator.Evaluator`; renderings:
:mod:`mwzrepro.standard.report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import (
    INFORM_PARAMS,
    RICHNESS_PARAMS,
    STANDARD_PARAMS,
    AliasOption,
    setup_logging,
)
from mwzrepro.cli.score_conversations import conversation_option
from mwzrepro.cli.score_many import many_options
from mwzrepro.core.params import click_options, from_options, parse_list
from mwzrepro.standard.active_domains import SYSTEM_DOMAIN_SOURCES

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)

#: Metrics of ``--metrics`` (the reference evaluator's flags).
METRICS = ("bleu", "success", "richness", "dst")


def resource_options(f):
    """``--dataset-version``, ``--domain-source``, matching, turn policy, cache and mirror: the
    options shared by ``score`` and ``explain``."""
    opts = [
        click.option("--dataset-version", "--version", "version", cls=AliasOption,
                     type=click.Choice(["mwz20", "mwz21", "mwz22"]),
                     default="mwz21", show_default=True,
                     help="Dataset version of the references, goals and gold states "
                          "(mwz22: the leaderboard's references; fetched on first use)."),
        click.option("--domain-source", type=click.Choice(SYSTEM_DOMAIN_SOURCES),
                     default="auto", show_default=True,
                     help="Active domains of the standard setting: auto = the reference "
                          "evaluator's rule (provided if every turn has them, else estimated "
                          "from the states; spec-standard-evaluation §8)."),
        click_options(INFORM_PARAMS),
        click.option("--allow-missing-turns/--no-allow-missing-turns", default=True,
                     show_default=True,
                     help="Score dialogues with fewer turns than the test set on their prefix "
                          "(as the reference evaluator does), with a warning and the coverage "
                          "in the signatures; --no-allow-missing-turns (or --strict) stops "
                          "instead."),
        click.option("--lexicalized", is_flag=True, default=False,
                     help="Responses are lexicalized (real names, phones, references): "
                          "delexicalize them first against the venue database and the state "
                          "(predicted if every turn has one, else gold); signatures gain "
                          "lex:<version>-<pred|gold>. A file whose responses carry "
                          "placeholders (one in ten or more) is scored as it is."),
        click.option("--cache-dir", type=PATH, default=None,
                     help="Cache of the built resources (default: $MWZREPRO_CACHE, else the "
                          "per-user cache directory)."),
        click.option("--mirror", type=PATH, default=None,
                     help="Local mirror of the upstream files (<owner>/<repo>/<commit>/<path>; "
                          "default: $MWZREPRO_MIRROR, else the pinned URLs)."),
        click.option("--sources", "registry", type=IN_FILE, default=None,
                     help="Sources registry pinning the raw files (default: the one shipped "
                          "with the package)."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def make_evaluator(kw: dict[str, Any], metrics: tuple[str, ...] = METRICS,
                   setting: str = "standard", strict: bool = False, **extra: Any):
    """The :class:`~mwzrepro.scorer.evaluator.Evaluator` of the shared options ``kw``."""
    from mwzrepro.scorer.evaluator import Evaluator

    inform = from_options(INFORM_PARAMS, kw, "inform")
    return Evaluator(
        **{m: m in metrics for m in METRICS}, version=kw["version"], setting=setting,
        domain_source=kw["domain_source"], matching=inform.matching,
        fuzzy_threshold=inform.fuzzy_threshold, allow_missing_turns=kw["allow_missing_turns"],
        strict=strict, lexicalized=kw.get("lexicalized", False), cache_dir=kw["cache_dir"],
        mirror=kw["mirror"], registry=kw["registry"],
        **extra)


def _metrics(text: str) -> tuple[str, ...]:
    from mwzrepro.core.errors import ConfigError

    chosen = parse_list(text, ",")
    bad = [m for m in chosen if m not in METRICS]
    if bad or not chosen:
        raise ConfigError(f"--metrics: {', '.join(bad) or '(none)'}: expected a comma-separated "
                          f"subset of {', '.join(METRICS)}")
    return chosen


@click.command("score")
@click.argument("files", nargs=-1, required=True, type=PATH)
@resource_options
@click.option("--setting",
              type=click.Choice(["standard", "optimistic", "both", "grounded", "all"]),
              default="standard", show_default=True,
              help="Inform/Success setting (optimistic: the paper's §5.1 variant; grounded, with "
                   "--lexicalized: the venues and values the text gives, checked against the "
                   "database, plus a grounding block; all: the three).")
@click.option("--metrics", default=",".join(METRICS), show_default=True,
              help="Metrics to compute, comma-separated (dst: when every turn has a state); "
                   "several files: by default those of the table (bleu, success, dst).")
@click_options(STANDARD_PARAMS, exclude=("domain_sources",))
@click_options(RICHNESS_PARAMS)
@click.option("--format", "fmt",
              type=click.Choice(["text", "json", "markdown", "latex", "csv"]),
              default="text", show_default=True,
              help="Output: text (rounded as in the papers), json (full precision), markdown "
                   "or latex (paper-style rows with signatures and coverage as notes); csv: "
                   "the several-files table at full precision.")
@click.option("--units", type=click.Choice(["percent", "mwzeval"]), default="percent",
              show_default=True,
              help="Units of json/--out: percent everywhere, or the reference evaluator's "
                   "(slot precision and recall as fractions).")
@click.option("--strict", is_flag=True, default=False,
              help="Stop unless the file covers every test dialogue and turn.")
@click.option("--system", default=None, help="System name (default: the file stem).")
@click.option("--out", type=PATH, default=None,
              help="Also write the full-precision JSON result (several files: the table) "
                   "here.")
@click.option("--per-dialogue", type=PATH, default=None,
              help="Write one row per dialogue here (Inform/Success per domain, offered and "
                   "goal venues, requested and provided slots): .csv, .json or .jsonl; "
                   "several files: a directory receiving <name>.csv per file.")
@click.option("--dst-convention", default=None, metavar="NAME|all",
              help="Score the states under a DST scoring preset (fga, mwzeval, simpletod, "
                   "simpletod-original, trade, convlab3; spec-dst-metrics §12.9) or all of "
                   "them: text output is one row per preset (JGA, slot accuracy, signature), "
                   "json gains a dst_conventions block; several files are ranked under it.")
@click.option("--result-cache/--no-result-cache", default=True, show_default=True,
              help="Reuse the stored result when this exact file was scored with the same "
                   "settings, package and resources before (the cache verifies it).")
@many_options
@conversation_option
def score(files: tuple[Path, ...], setting: str, metrics: str, fmt: str, units: str,
          strict: bool, system: str | None, out: Path | None, per_dialogue: Path | None,
          result_cache: bool, dst_convention: str | None, **kw: Any) -> None:
    """Score prediction files (reference evaluator format) against the MultiWOZ test set.

    Several files (a directory: its *.json; a quoted glob: its matches) give one table, a row
    per file: Inform, Success, BLEU, Combined, JGA and FGA(0.5) for files with states, with
    --ci intervals and --paired-bs tests against the first file; rows whose signatures differ
    (coverage, lex:, ph:, ...) are marked and get no rank or test (--strict: an error).

    Prints the numbers (stdout) with their signatures and coverage; warnings (partial
    coverage, empty responses, deleted placeholders with counts and, when --placeholders
    extended would map some of them, the figures with it) go to stderr. Dialogue ids may be
    upper-case and end in .json. Nothing is written when the input is rejected.

    This is the command for your own file; score-bleu, score-success, ... are the pipeline's
    steps. --version is the former name of --dataset-version (still accepted).
    """
    from mwzrepro.cli.score_conversations import score_conversation_files, split_conversation_files
    from mwzrepro.cli.score_many import MANY_KEYS, expand_inputs, is_many, score_many
    from mwzrepro.core.gc_pause import paused_gc
    from mwzrepro.scorer.resources.cache import cache_root
    from mwzrepro.scorer.resources.stored_results import load_result
    from mwzrepro.scorer.results import with_units
    from mwzrepro.standard.report import format_result

    log = setup_logging(None)
    chosen = _metrics(metrics)
    paths = expand_inputs(files)
    if dst_convention is not None:
        from mwzrepro.scorer.dst_conventions import convention_names

        convention_names(dst_convention)  # an unknown name: one line, before any work
    paths, conversations = split_conversation_files(paths, kw)
    if conversations:
        if per_dialogue is not None:
            from mwzrepro.core.errors import ConfigError

            raise ConfigError("--per-dialogue: conversation files give one entry per "
                              "conversation in --format json (its 'conversations')")
        many = len(conversations) > 1 or bool(paths)
        score_conversation_files(conversations, fmt, None if paths else out, kw, many)
        if not paths:
            return None
    kw.pop("conversation_format")
    if dst_convention is not None:
        if len(paths) > 1:
            from mwzrepro.cli.score_many import _names

            return _rank_conventions(paths, _names(paths, kw["names"]), dst_convention, fmt,
                                     {k: v for k, v in kw.items() if k not in MANY_KEYS})
        kw["dst_convention"] = dst_convention
    if is_many(paths, fmt, kw):
        if system is not None:
            raise click.UsageError("--system names one file; with several give --names")
        with paused_gc(freeze=True):
            table_metrics = ("bleu", "success", "dst")  # the table's columns, by default
            return score_many(paths, fmt, setting, chosen if metrics != ",".join(METRICS)
                              else table_metrics, strict, per_dialogue, out, kw, _evaluator)
    form_values = tuple(kw.get("form") or ())
    kw = {k: v for k, v in kw.items() if k not in MANY_KEYS}
    if per_dialogue is not None and setting == "grounded":
        from mwzrepro.core.errors import ConfigError

        raise ConfigError("--per-dialogue has no grounded rows yet; use --setting all (its "
                          "rows are the standard setting's)")
    predictions_file = paths[0]
    name = system or predictions_file.stem
    options = {**{k: str(v) for k, v in kw.items()
                  if k not in ("lexicalized", "dst_convention") or v}, "metrics": chosen,
               "setting": setting, "strict": strict, "system": name,
               "input": predictions_file.name,
               **({"form": ",".join(form_values)} if form_values else {})}
    stored, key = None, None
    if result_cache and per_dialogue is None:
        key = _result_key(predictions_file, options, kw)
        stored = load_result(cache_root(kw["cache_dir"]), key)
    if stored is not None:
        log.info("%s: scored before with the same settings; stored result (%s)",
                 predictions_file.name, key)
        for warning in stored.get("warnings", []):
            log.warning("%s", warning)
    else:
        with paused_gc(freeze=True):  # reading the file too (mwzrepro.core.gc_pause)
            stored = _score(predictions_file, name, chosen, setting, strict, per_dialogue,
                            key, kw, form_values)
    if out is not None:
        from mwzrepro.core.io import write_text

        write_text(format_result(with_units(stored, units), "json"), out)
    if dst_convention is not None and fmt == "text":
        from mwzrepro.scorer.dst_conventions import format_conventions

        click.echo(format_conventions(stored["dst_conventions"], f"{name} on {kw['version']}: "
                                      f"JGA and slot accuracy by DST scoring preset"))
        return
    click.echo(format_result(with_units(stored, units if fmt == "json" else "percent"), fmt),
               nl=False)


def _rank_conventions(paths: list[Path], names: list[str], name: str, fmt: str,
                      kw: dict[str, Any]) -> None:
    """``score A B C --dst-convention NAME``: the files (rows ``names``, ``--names`` or the
    stems) ranked by JGA under the preset(s)."""
    import json

    from mwzrepro.scorer.dst_conventions import rank_conventions
    from mwzrepro.scorer.evaluator import read_predictions
    from mwzrepro.scorer.inputs import read_shape

    data = {}
    for row, path in zip(names, paths):
        data[row] = (read_predictions(path), path.name)
        read_shape(data[row][0], path.name)     # every file checked before any scoring
    evaluator = make_evaluator(kw, (), "standard", False, dst_convention=name)
    blocks = {row: evaluator.evaluate(d, row, source).dst_conventions.to_dict()
              for row, (d, source) in data.items()}
    if fmt == "json":
        click.echo(json.dumps(blocks, indent=2))
    else:
        click.echo(rank_conventions(blocks))


def _score(predictions_file: Path, name: str, chosen: list[str], setting: str, strict: bool,
           per_dialogue: Path | None, key: str | None, kw: dict[str, Any],
           form_values: tuple[str, ...] = ()) -> dict[str, Any]:
    """Score the file and store the result under ``key``: the mwzeval-units result dict
    (``form_values``: ``--form NAME=...`` with the row name ``name``)."""
    import logging

    from mwzrepro.scorer.resources.cache import cache_root
    from mwzrepro.scorer.evaluator import read_predictions
    from mwzrepro.scorer.inputs import read_shape
    from mwzrepro.scorer.lexicalized.file_form import lexicalized_form, parse_forms, with_form
    from mwzrepro.scorer.resources.stored_results import store_result
    from mwzrepro.standard.report import per_dialogue_text

    data = read_predictions(predictions_file)
    read_shape(data, predictions_file.name)       # before any resource is built
    evaluator = _evaluator(kw, chosen, setting, strict)
    # --lexicalized never delexicalizes a file that carries placeholders (file_form's rules)
    form, line = lexicalized_form(evaluator, parse_forms(form_values, [name]).get(name), data,
                                  predictions_file.name)
    if line:
        logging.getLogger("mwzrepro").warning("%s", line)
    if form is not None:
        evaluator = with_form(evaluator, form)
    result = evaluator.evaluate(data, name, predictions_file.name,
                                per_dialogue=per_dialogue is not None)
    stored = result.to_dict("mwzeval")
    if line:                                      # shown again with a stored result
        stored["warnings"] = [line, *stored["warnings"]]
    if key is not None:
        store_result(cache_root(kw["cache_dir"]), key, stored)
    if per_dialogue is not None:
        from mwzrepro.core.io import write_text

        write_text(per_dialogue_text(result.dialogues, per_dialogue), per_dialogue)
    return stored


def _evaluator(kw: dict[str, Any], chosen: tuple[str, ...], setting: str, strict: bool):
    """The evaluator of ``score``'s options (metrics, setting, standard and richness blocks)."""
    standard = from_options(STANDARD_PARAMS, kw, "standard")
    richness = from_options(RICHNESS_PARAMS, kw, "richness")
    return make_evaluator(kw, chosen, setting, strict, dst_convention=kw.get("dst_convention"),
                          state_match_threshold=standard.state_match_threshold,
                          placeholders=standard.placeholders,
                          msttr_window=richness.msttr_window)


def _result_key(predictions_file: Path, options: dict[str, Any], kw: dict[str, Any]) -> str:
    """The stored-result key of this call (:mod:`mwzrepro.scorer.resources.stored_results`)."""
    import hashlib

    from mwzrepro.scorer.resources.build import recipe
    from mwzrepro.scorer.resources.fetch import default_registry
    from mwzrepro.scorer.resources.stored_results import code_digest, result_key
    from mwzrepro.scorer.resources.load import build_key

    with open(predictions_file, "rb") as fh:
        file_sha = hashlib.file_digest(fh, "sha256").hexdigest()
    registry = Path(kw["registry"]).resolve() if kw["registry"] else default_registry()
    resources = build_key(recipe(kw["version"]), registry)["key"]
    return result_key(options, file_sha, resources, code_digest())


COMMANDS = [score]
HELP_GROUPS = {"scoring": [score]}  # mwzrepro --help's group (cli.GROUPS)
