"""Phases ``stats-resample`` (one metric family of one version on the shared resamples),
``stats-bootstrap`` (intervals and significance of one version's figures),
``stats-ranking`` (ranking stability across conditions) and the user command
``stats-compare`` (two systems, metric by metric)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging
from mwzrepro.core.params import click_options, from_options
from mwzrepro.stats.params import StatsParams

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


def _inputs(func: Any) -> Any:
    """The score inputs of one version (the pipeline's own files)."""
    for opt in reversed([
        click.option("--version", "version", required=True, help="Dataset version (mwz21)."),
        click.option("--references", type=IN_FILE, required=True,
                     help="data/interim/<version>/test/references.parquet (defines the test "
                     "dialogues and the BLEU references)."),
        click.option("--predictions-dir", type=IN_DIR, required=True,
                     help="Directory with <system>.parquet prediction tables."),
        click.option("--bleu-dir", type=IN_DIR, required=True,
                     help="results/scores/bleu/<version>: <system>.parquet BLEU scores; their "
                     "stems are the systems."),
        click.option("--success-dir", type=IN_DIR, required=True,
                     help="results/scores/success/<version>: <system>.dialogues.parquet."),
        click.option("--dst-dir", type=IN_DIR, required=True,
                     help="results/scores/dst/<version>: <system>.parquet per-turn DST."),
    ]):
        func = opt(func)
    return func


def _load(version: str, references: Path, predictions_dir: Path, bleu_dir: Path,
          success_dir: Path, dst_dir: Path, systems: list[str], params: StatsParams,
          log: Any) -> tuple[dict[str, list], dict[str, list[str]], tuple[str, ...]]:
    """Per-dialogue statistics of every figure and system: ``({key: [DialogueStats]},
    {key: [upstream signature]}, test dialogue ids)`` (every family, mwzrepro.stats.family)."""
    from mwzrepro.core.io import read_table
    from mwzrepro.stats.family import FAMILIES, load_family

    refs = read_table(references, "references")
    stats: dict[str, list] = {}
    sigs: dict[str, list[str]] = {}
    for family in FAMILIES:
        s, g = load_family(family, systems, params, references=refs,
                           predictions_dir=predictions_dir, bleu_dir=bleu_dir,
                           success_dir=success_dir, dst_dir=dst_dir, log=log)
        stats.update(s)
        sigs.update(g)
    log.info("stats %s: %d systems loaded", version, len(systems))
    return stats, sigs, tuple(sorted(set(refs["dialogue_id"])))


def _systems(bleu_dir: Path, chosen: tuple[str, ...]) -> list[str]:
    found = sorted(p.stem for p in bleu_dir.glob("*.parquet"))
    if chosen:
        missing = sorted(set(chosen) - set(found))
        if missing:
            raise click.UsageError(f"no BLEU scores for {', '.join(missing)} in {bleu_dir}")
        return sorted(chosen)
    if not found:
        raise click.UsageError(f"no <system>.parquet BLEU scores in {bleu_dir}")
    return found


def _per_version(versions: tuple[str, ...], **options: tuple[Any, ...]) -> None:
    """Check that each per-version option is given once per ``--version`` (or not at all).

    Raises:
        click.UsageError: an option given another number of times.
    """
    for name, values in options.items():
        if values and len(values) != len(versions):
            raise click.UsageError(f"--{name} is given {len(values)} times for "
                                   f"{len(versions)} --version; give it once per version")
    if len(set(versions)) != len(versions):
        raise click.UsageError(f"a --version is given twice: {', '.join(versions)}")


@click.command("stats-resample")
@click.option("--version", "versions", multiple=True, required=True,
              help="Dataset version (mwz21); repeatable: one process resamples several "
              "versions, and every per-version option is given once per --version, in the "
              "same order.")
@click.option("--family", type=click.Choice(["bleu", "success", "dst"]), required=True,
              help="Metric family: bleu (BLEU), success (Inform/Success, both settings) or "
              "dst (JGA, FGA).")
@click.option("--references", type=IN_FILE, multiple=True, required=True,
              help="data/interim/<version>/test/references.parquet (defines the test "
              "dialogues and the BLEU references); per version.")
@click.option("--system", "systems", multiple=True, required=True,
              help="A system (repeatable).")
@click.option("--predictions-dir", type=IN_DIR, default=None,
              help="bleu: directory with <system>.parquet prediction tables.")
@click.option("--bleu-dir", type=IN_DIR, multiple=True,
              help="bleu: results/scores/bleu/<version> (<system>.parquet); per version.")
@click.option("--success-dir", type=IN_DIR, multiple=True,
              help="success: results/scores/success/<version> (<system>.dialogues.parquet); "
              "per version.")
@click.option("--dst-dir", type=IN_DIR, multiple=True,
              help="dst: results/scores/dst/<version> (<system>.parquet per-turn DST); per "
              "version.")
@click_options(StatsParams)
@click.option("--out", type=PATH, multiple=True, required=True,
              help="stats_replicates Parquet to write (each figure on every resample); per "
              "version.")
@click.option("--tables-dir", type=PATH, required=True,
              help="Writes stats_significance_<v>_<figure> (.md/.csv/.tex) of the family's "
              "figures.")
@click.option("--plots-dir", type=PATH, required=True,
              help="Writes stats_significance_<v>_<figure>.svg heat maps of its figures.")
@log_option
def stats_resample(versions: tuple[str, ...], family: str, references: tuple[Path, ...],
                   systems: tuple[str, ...], predictions_dir: Path | None,
                   bleu_dir: tuple[Path, ...], success_dir: tuple[Path, ...],
                   dst_dir: tuple[Path, ...], out: tuple[Path, ...], tables_dir: Path,
                   plots_dir: Path, log_file: Path | None, **kw: Any) -> None:
    """One metric family's figures on each version's shared bootstrap resamples, for every
    system, and their pairwise significance tables and heat maps (the rest is
    stats-bootstrap's; an Inform/Success change resamples only that family). The versions
    share one process: its imports and its workers drawing every heat map."""
    from mwzrepro.core.io import read_table
    from mwzrepro.stats.bootstrap import Resampler
    from mwzrepro.stats.catalog import METRICS
    from mwzrepro.stats.family import family_replicates, load_family, write_replicates
    from mwzrepro.stats.report import significance_sheets

    log = setup_logging(log_file)
    params = from_options(StatsParams, kw, "stats")
    _per_version(versions, references=references, out=out, **{
        "bleu-dir": bleu_dir, "success-dir": success_dir, "dst-dir": dst_dir})
    keys = [m.key for m in METRICS if m.source == family]
    writers: list[Any] = []
    sheets: dict[str, dict] = {}
    for i, version in enumerate(versions):
        refs = read_table(references[i], "references")
        stats, sigs = load_family(
            family, sorted(set(systems)), params, references=refs,
            predictions_dir=predictions_dir, bleu_dir=bleu_dir[i] if bleu_dir else None,
            success_dir=success_dir[i] if success_dir else None,
            dst_dir=dst_dir[i] if dst_dir else None, log=log)
        resampler = Resampler.from_params(refs["dialogue_id"], params)
        results = family_replicates(stats, resampler, params.confidence)
        sheets[version] = significance_sheets(version, results, sigs, params, keys)
        writers.append(functools.partial(write_replicates, out[i], version, family, results,
                                         sigs, len(resampler.dialogue_ids)))
        log.info("stats %s %s: %d figures resampled", version, family, len(results))
    _write_sheets(sheets, tables_dir, plots_dir, writers)


def _write_sheets(sheets: dict[str, dict], tables_dir: Path, plots_dir: Path,
                  also: list[Any] = ()) -> None:
    """stats_significance_<version>_<figure>.{md,csv,tex} and .svg of each sheet of
    ``{version: {figure: Sheet}}``; ``also`` (functions of no argument) run beside them."""
    from mwzrepro.core.tables import render_table
    from mwzrepro.core.workers import fork_map
    from mwzrepro.stats.plots import plot_significance

    def write_sheet(version: str, key: str) -> None:
        sheet = sheets[version][key]
        stem = f"stats_significance_{version}_{key}"
        render_table(sheet.table, tables_dir / stem, sheet.title, notes=sheet.notes)
        plot_significance(sheet.tests, sheet.order, plots_dir / f"{stem}.svg", sheet.title)

    # the heat maps are most of the time: one per core, the other writing first beside them
    tasks = list(also) + [functools.partial(write_sheet, v, k)
                          for v, by_key in sheets.items() for k in by_key]
    fork_map(lambda task: task(), tasks)


@click.command("stats-bootstrap")
@click.option("--version", "versions", multiple=True, required=True,
              help="Dataset version (mwz21); repeatable (one process for several versions; "
              "--metrics is given once per --version, in the same order).")
@click.option("--replicates", "replicates", type=IN_FILE, multiple=True, required=True,
              help="stats-resample output of one family and version (repeatable: every "
              "family of every version; each file names its version).")
@click_options(StatsParams)
@click.option("--tables-dir", type=PATH, required=True,
              help="Writes stats_ci_<v>, stats_adjacent_<v> (.md/.csv/.tex) and "
              "stats_pairs_<v>.csv.")
@click.option("--metrics", type=PATH, multiple=True, required=True,
              help="Metrics JSON to write (numbers only); per version.")
@click.option("--record", "records", type=PATH, multiple=True,
              help="Full record to write (figures with signatures); per version "
              "(mwzrepro.core.io.write_metrics; without it, --metrics gets the full record).")
@log_option
def stats_bootstrap(versions: tuple[str, ...], replicates: tuple[Path, ...], tables_dir: Path,
                    metrics: tuple[Path, ...], records: tuple[Path, ...], log_file: Path | None,
                    **kw: Any) -> None:
    """95 % intervals (paired bootstrap over test dialogues) of BLEU, Inform, Success (both
    settings), JGA and FGA(λ) for every system of each version, every pair's test and the
    significance of each step of each ranking, from every family's stats-resample output
    (which wrote the pairwise significance tables and heat maps)."""
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_metadata
    from mwzrepro.core.tables import render_table  # noqa: F401  (loaded before the fork:
    from mwzrepro.stats.report import version_report  # noqa: F401  the workers inherit them)
    from mwzrepro.core.workers import fork_map

    log = setup_logging(log_file)
    params = from_options(StatsParams, kw, "stats")
    _per_version(versions, metrics=metrics, record=records)
    of_version = {p: read_metadata(p).get("version") for p in replicates}
    stray = [f"{p} ({v})" for p, v in of_version.items() if v not in versions]
    if stray:
        raise InputError(f"replicates of no --version {', '.join(versions)}: "
                         f"{', '.join(stray)}")
    jobs = [(v, [p for p in replicates if of_version[p] == v], metrics[i],
             records[i] if records else None)
            for i, v in enumerate(versions)]
    for lines in fork_map(lambda job: _bootstrap_version(*job, tables_dir, params), jobs):
        for line in lines:
            log.info("%s", line)


def _bootstrap_version(version: str, replicates: list[Path], metrics: Path,
                       record: Path | None,
                       tables_dir: Path, params: StatsParams) -> list[str]:
    """Write stats-bootstrap's outputs of one version; its log lines."""
    from mwzrepro.core.io import write_metrics, write_text
    from mwzrepro.core.tables import render_table
    from mwzrepro.stats.family import read_replicates
    from mwzrepro.stats.report import version_report

    results, sigs, dialogues = read_replicates(replicates, version, params.confidence)
    rep = version_report(version, results, sigs, dialogues, params)
    render_table(rep.ci, tables_dir / f"stats_ci_{version}", rep.ci_title, notes=rep.ci_notes)
    render_table(rep.adjacent, tables_dir / f"stats_adjacent_{version}", rep.adjacent_title,
                 decimals={"diff": 2, "p": 4, "p (corr.)": 4}, notes=rep.adjacent_notes)
    write_text(rep.pairs.to_csv(index=False, lineterminator="\n",
                                float_format=lambda x: repr(float(x))),
               tables_dir / f"stats_pairs_{version}.csv")
    write_metrics(rep.metrics, metrics, record)
    return [f"stats {version} {key}: {sig} of {n} adjacent steps significant"
            for key, (sig, n) in rep.adjacent_counts.items()]


@click.command("stats-ranking")
@click.option("--stats", "stats_files", type=IN_FILE, multiple=True, required=True,
              help="stats-bootstrap metrics JSON of a version (repeatable, in column order).")
@click.option("--consistency-dst", type=IN_FILE, default=None,
              help="consistency_dst.json: JGA/FGA against corrected gold states (condition "
              "'<version> corrected').")
@click.option("--published", type=IN_FILE, default=None,
              help="leaderboard.yaml: the leaderboard's BLEU/Inform/Success (condition "
              "'leaderboard 2.2').")
@click.option("--bleu-styles", type=IN_FILE, default=None,
              help="bleu_styles.json: BLEU of every system under every reference style "
              "(conditions 'ref:<style>' of the metric 'bleu-styles').")
@click.option("--dst-presets", type=IN_FILE, default=None,
              help="dst_conventions.json: JGA of every system under every DST scoring preset "
              "(conditions '<version> <preset>' of the metric 'dst-presets', compared within "
              "a version).")
@click_options(StatsParams)
@click.option("--table", type=PATH, required=True, help="τ table stem (.md/.csv/.tex).")
@click.option("--ranks-table", type=PATH, required=True, help="Ranks table stem.")
@click.option("--plots-dir", type=PATH, required=True,
              help="Writes stats_bump_<metric>.svg per metric.")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@record_option
@log_option
def stats_ranking(stats_files: tuple[Path, ...], consistency_dst: Path | None,
                  published: Path | None, bleu_styles: Path | None,
                  dst_presets: Path | None, table: Path,
                  ranks_table: Path, plots_dir: Path, metrics: Path,
                  record: Path | None, log_file: Path | None,
                  **kw: Any) -> None:
    """Kendall's τ-b between the rankings of every pair of conditions (versions, settings,
    corrected annotations, the published leaderboard, reference styles, DST scoring presets),
    the systems moving
    most, bump charts."""
    import yaml

    from mwzrepro.core.io import write_metrics
    from mwzrepro.core.tables import render_table
    from mwzrepro.core.workers import fork_map
    from mwzrepro.stats.plots import plot_bump
    from mwzrepro.stats.report import ranking_report

    log = setup_logging(log_file)
    params = from_options(StatsParams, kw, "stats")
    versions = [json.loads(p.read_text(encoding="utf-8")) for p in stats_files]
    corrected = json.loads(consistency_dst.read_text(encoding="utf-8")) if consistency_dst \
        else None
    board = yaml.safe_load(published.read_text(encoding="utf-8")) if published else None
    styles = json.loads(bleu_styles.read_text(encoding="utf-8")) if bleu_styles else None
    presets = json.loads(dst_presets.read_text(encoding="utf-8")) if dst_presets else None
    rep = ranking_report(versions, corrected, board, params, styles, presets)
    render_table(rep.tau, table, rep.tau_title, decimals={"tau_b": 3, "largest move": 1},
                 notes=rep.tau_notes)
    render_table(rep.ranks, ranks_table, rep.ranks_title, decimals=1, notes=rep.ranks_notes)
    fork_map(lambda metric: plot_bump(rep.bump[metric], plots_dir / f"stats_bump_{metric}.svg",
                                      rep.bump_titles[metric]), list(rep.bump))  # one per core
    write_metrics(rep.metrics, metrics, record)
    for c in rep.comparisons:
        log.info("ranking %s: %s vs %s: tau_b %.3f over %d systems", c.metric, c.a, c.b,
                 c.tau, c.systems)


@click.command("stats-compare")
@_inputs
@click.option("--system-a", required=True, help="System A (a BLEU score file stem).")
@click.option("--system-b", required=True, help="System B.")
@click_options(StatsParams, exclude=("correction",))
@click.option("--out", type=PATH, default=None, help="Also write the comparison as JSON.")
@log_option
def stats_compare(version: str, references: Path, predictions_dir: Path, bleu_dir: Path,
                  success_dir: Path, dst_dir: Path, system_a: str, system_b: str,
                  out: Path | None, log_file: Path | None, **kw: Any) -> None:
    """Pipeline tool (to compare your own files: mwzrepro compare): two systems of the
    pipeline's scores on one version, each figure with its interval, A − B, the paired
    bootstrap interval of the difference and its p-value (uncorrected)."""
    from mwzrepro.core.io import write_json
    from mwzrepro.stats.compare import comparison_note, compare, format_comparison

    log = setup_logging(log_file)
    params = from_options(StatsParams, {**kw, "correction": "none"}, "stats")  # uncorrected
    chosen = _systems(bleu_dir, (system_a, system_b))
    stats, _sigs, test_ids = _load(version, references, predictions_dir, bleu_dir,
                                   success_dir, dst_dir, chosen, params, log)
    by_system: dict[str, dict] = {system_a: {}, system_b: {}}
    for key, items in stats.items():
        for s in items:
            by_system[s.system][key] = s
    rows = compare(by_system[system_a], by_system[system_b], params, test_ids)
    click.echo(format_comparison(rows, system_a, system_b, params=params), nl=False)
    click.echo(comparison_note(params, len(test_ids)))
    if out is not None:
        write_json({"version": version, "a": system_a, "b": system_b,
                    "params": params.model_dump(), "figures": [r.as_dict() for r in rows]},
                   out)


COMMANDS = [stats_resample, stats_bootstrap, stats_ranking, stats_compare]
