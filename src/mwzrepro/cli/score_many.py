"""``mwzrepro score FILE [FILE ...]`` with several files: one table, one row per file
(:mod:`mwzrepro.scorer.leaderboard.evaluate_many`; renderings :mod:`mwzrepro.scorer.leaderboard.report`),
sacrebleu-style intervals (``--ci``) and paired tests against the first file (``--paired-bs``),
rows compared by their signatures (:mod:`mwzrepro.scorer.leaderboard.comparability`).

A directory stands for its ``*.json`` files and a glob pattern (quoted, so that the shell
leaves it alone) for its matches, each in sorted order; rows are named by the file stems or
``--names``. One file without ``--ci``/``--paired-bs``/``--format csv`` is the one-file
command, unchanged (:mod:`mwzrepro.cli.score`).
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import click

from mwzrepro.core.params import click_options, from_options
from mwzrepro.core.params_defaults import table_entry
from mwzrepro.scorer.lexicalized.file_form import FORM_VALUES

#: The stats block's model, by name: its options come from the generated params table (no
#: pydantic import when the one-file command runs).
StatsParams = "mwzrepro.stats.params:StatsParams"
#: Its leaves that are not options here (--paired-bs-n is the number of resamples).
_STATS_EXCLUDE = ("resamples",)

__all__ = ["many_options", "form_option", "expand_inputs", "is_many", "score_many", "MANY_KEYS"]

#: Keyword arguments of the options below (removed before the one-file command runs); the
#: StatsParams ones from its option rows, as :func:`click_options` adds them.
MANY_KEYS = ("names", "ci", "paired_bs", "paired_bs_n",
             *(row["param"] for row in table_entry(StatsParams)["options"]
               if row["path"] not in _STATS_EXCLUDE),
             "jobs", "keep_going", "form", "shared")


def form_option(name_means: str):
    """``--form NAME=FORM[,FORM]`` (repeatable): one file's form when several are scored or
    compared in one call (:mod:`mwzrepro.scorer.lexicalized.file_form`); ``name_means`` says what NAME
    is for the command (its row name, the label of A or B)."""
    return click.option(
        "--form", multiple=True,
        help=f"Per-file form, repeatable: NAME={', NAME='.join(FORM_VALUES)} (NAME: "
             f"{name_means}). --lexicalized never delexicalizes a file that carries "
             "placeholders.")


def many_options(f):
    """The options of several files (module docstring)."""
    opts = [
        click.option("--names", default=None,
                     help="Several files: row names, comma-separated, one per file (default: "
                          "the file stems)."),
        click.option("--ci", is_flag=True, default=False,
                     help="Add 95 % paired-bootstrap intervals to every cell (the pipeline's "
                          "resampling: same resamples and seed, same intervals)."),
        click.option("--paired-bs", is_flag=True, default=False,
                     help="Test each system against the first (the baseline) with a paired "
                          "bootstrap; p-values corrected across systems (--correction)."),
        click.option("--paired-bs-n", type=click.IntRange(min=2), default=1000,
                     show_default=True, help="Bootstrap resamples of --ci and --paired-bs."),
        click_options(StatsParams, exclude=_STATS_EXCLUDE),
        click.option("--jobs", type=click.IntRange(min=1), default=None,
                     help="Worker processes scoring the files (default: every core the "
                          "process may use, or $MWZREPRO_JOBS)."),
        click.option("--keep-going", is_flag=True, default=False,
                     help="Several files: score the files that can be scored and list the "
                          "failures (default: the first bad file stops the call, nothing "
                          "written)."),
        form_option("the row name"),
        click.option("--shared", is_flag=True, default=False,
                     help="Several files: score every file on the dialogues and turns all of "
                          "them give, with a warning, so that rows differing only in coverage "
                          "are ranked and tested (as compare does with two files)."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def expand_inputs(paths: tuple[Path, ...]) -> list[Path]:
    """The prediction files of the arguments: a file as given, a directory as its ``*.json``
    (sorted), a glob pattern as its matches (sorted).

    Raises:
        click.BadParameter: an argument that is none of these, or matches no file.
    """
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(q for q in p.glob("*.json") if q.is_file())
            if not found:
                raise click.BadParameter(f"directory '{p}' has no *.json file",
                                         param_hint="'FILES...'")
            out += found
        elif p.is_file():
            out.append(p)
        elif glob.has_magic(str(p)):
            found = sorted(Path(q) for q in glob.glob(str(p)) if Path(q).is_file())
            if not found:
                raise click.BadParameter(f"pattern '{p}' matches no file",
                                         param_hint="'FILES...'")
            out += found
        else:
            raise click.BadParameter(f"Path '{p}' does not exist.", param_hint="'FILES...'")
    return out


def is_many(files: list[Path], fmt: str, kw: dict[str, Any]) -> bool:
    """Whether the call is the several-files command (module docstring)."""
    return len(files) > 1 or fmt == "csv" or kw["ci"] or kw["paired_bs"]


def _names(files: list[Path], names: str | None) -> list[str]:
    from mwzrepro.core.errors import ConfigError

    chosen = [n.strip() for n in names.split(",")] if names else [f.stem for f in files]
    if len(chosen) != len(files):
        raise ConfigError(f"--names: {len(chosen)} names for {len(files)} files")
    dup = sorted({n for n in chosen if chosen.count(n) > 1})
    if dup:
        raise ConfigError(f"two files would share the row name {', '.join(dup)}: give "
                          "--names")
    return chosen


def score_many(files: list[Path], fmt: str, setting: str, chosen: tuple[str, ...],
               strict: bool, per_dialogue: Path | None, out: Path | None,
               kw: dict[str, Any], evaluator_of: Any) -> None:
    """Score ``files`` into one table and print it (``out``: also the JSON; per_dialogue: a
    directory receiving ``<name>.csv`` per file). Nothing is written unless every file was
    scored (or ``--keep-going``)."""
    from mwzrepro.core.io import write_text
    from mwzrepro.scorer.lexicalized.file_form import parse_forms
    from mwzrepro.scorer.leaderboard.report import format_leaderboard
    from mwzrepro.standard.report import per_dialogue_text

    names = _names(files, kw["names"])
    forms = parse_forms(kw["form"], names)
    params = from_options(StatsParams, {**kw, "resamples": kw["paired_bs_n"]}, "stats")
    evaluator = evaluator_of(kw, chosen, setting, strict)
    board = evaluator.evaluate_many(dict(zip(names, files)), ci=kw["ci"],
                                    paired_bs=kw["paired_bs"], params=params, forms=forms,
                                    strict=strict, keep_going=kw["keep_going"],
                                    jobs=kw["jobs"], per_dialogue=per_dialogue is not None,
                                    shared=kw["shared"])
    text = format_leaderboard(board, fmt)
    if per_dialogue is not None:
        for name, result in board.results.items():
            path = per_dialogue / f"{name}.csv"
            write_text(per_dialogue_text(result.dialogues, path), path)
    if out is not None:
        write_text(format_leaderboard(board, "json"), out)
    click.echo(text, nl=False)
    for name, msg in board.failures.items():
        click.echo(f"FAILED {name}: {msg}", err=True)
