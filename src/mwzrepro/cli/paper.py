"""Pipeline phases for the remaining paper tables (spec-paper-tables): ``redelex-style`` (the
references of one delexicalization style), ``score-bleu-styles`` (BLEU of every system under
every style), ``tables-bleu-styles`` (Table 4, ranking, metrics, plot data),
``tables-delex-example`` (Table 2), ``tables-outputs`` (Tables 8 and 9) and
``tables-fga-stats`` (FGA Table 2)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from mwzrepro.cli.options import log_option, record_option, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)

#: Database files of the styles that consult the MultiWOZ databases.
_DB_DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "police", "hospital")


def _read_dbs(db_dir: Path) -> dict:
    import json

    from mwzrepro.core.errors import InputError

    dbs = {}
    for domain in _DB_DOMAINS:
        path = db_dir / f"{domain}_db.json"
        try:
            dbs[domain] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{path}: cannot read the {domain} database: {exc}") from None
    return dbs


def _path_pairs(text: str, what: str) -> dict[str, Path]:
    from mwzrepro.core.params import parse_pairs

    pairs = dict(parse_pairs(text, ","))
    missing = [p for p in pairs.values() if not Path(p).is_file()]
    if missing:
        raise click.UsageError(f"{what}: no such file {missing[0]}")
    return {k: Path(v) for k, v in pairs.items()}


@click.command("redelex-style")
@click.option("--style", type=click.Choice(["hdsa", "damd", "augpt", "uniconv"]), required=True,
              help="Reference style to build (span references come from `redelex`; LAVA is "
                   "scored against the hdsa references).")
@click.option("--dialogues", type=IN_FILE, default=None,
              help="Raw ConvLab test file (damd: MultiWOZ 2.0; augpt, uniconv: 2.1).")
@click.option("--extra-dialogues", type=IN_FILE, multiple=True,
              help="augpt: further raw splits whose belief values feed the name cleaning "
                   "(the validation split); repeatable.")
@click.option("--db-dir", type=IN_DIR, default=None,
              help="Directory of <domain>_db.json (damd, uniconv: MultiWOZ databases; augpt: "
                   "ConvLab-2 databases).")
@click.option("--word-pairs", type=IN_FILE, default=None,
              help="damd, uniconv: the style's mapping.pair word pairs (optional; without "
                   "it the style runs with none, signature pairs:no).")
@click.option("--hdsa", type=IN_FILE, default=None, help="hdsa: HDSA's test_reference.json.")
@click.option("--turns", type=IN_FILE, default=None,
              help="hdsa: canonical turns.parquet of the test split (original text).")
@click.option("--out", type=PATH, required=True, help="references parquet to write.")
@log_option
def redelex_style(style: str, dialogues: Path | None, extra_dialogues: tuple[Path, ...],
                  db_dir: Path | None, word_pairs: Path | None, hdsa: Path | None,
                  turns: Path | None, out: Path, log_file: Path | None) -> None:
    """Delexicalize the test references in one published style (Nekvinda & Dušek, Table 4)."""
    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.prepare.delex.styles import STYLES
    from mwzrepro.prepare.delex.word_pairs import read_word_pairs
    from mwzrepro.prepare.ingest.convlab import load_convlab

    log = setup_logging(log_file)
    needs = {"hdsa": ("hdsa", "turns"), "damd": ("dialogues", "db_dir"),
             "augpt": ("dialogues", "db_dir"), "uniconv": ("dialogues", "db_dir")}[style]
    given = {"hdsa": hdsa, "turns": turns, "dialogues": dialogues, "db_dir": db_dir}
    missing = [n for n in needs if given[n] is None]
    if missing:
        raise click.UsageError(f"--style {style} needs --{missing[0].replace('_', '-')}")
    unknown: Counter[str] = Counter()
    pairs = read_word_pairs(word_pairs) if style in ("damd", "uniconv") else ()
    if style == "hdsa":
        from mwzrepro.prepare.delex import hdsa as mod

        refs = mod.build_references(mod.read_hdsa_references(hdsa), read_table(turns, "turns"),
                                    unknown, str(hdsa))
    elif style == "damd":
        from mwzrepro.prepare.delex import damd as mod
        from mwzrepro.prepare.delex.damd_values import value_dictionaries

        values = value_dictionaries(_read_dbs(db_dir), pairs)
        refs = mod.build_references(load_convlab(dialogues), values, pairs, unknown)
    elif style == "augpt":
        from mwzrepro.prepare.delex import augpt as mod
        from mwzrepro.prepare.delex.convlab_db import ConvlabDatabase

        dbs = _read_dbs(db_dir)
        names = {str(r["name"]).replace("'", ""): str(r["name"]) for r in dbs["attraction"]}
        test = load_convlab(dialogues)
        words = mod.ontology_words([test, *(load_convlab(p) for p in extra_dialogues)], names)
        refs = mod.build_references(test, ConvlabDatabase(dbs, words), names, unknown)
    else:
        from mwzrepro.prepare.delex import uniconv as mod

        fields = mod.slot_values(_read_dbs(db_dir), pairs)
        refs = mod.build_references(load_convlab(dialogues), fields, pairs, unknown)
    meta = {"delex": style, "source": STYLES[style].source, "version": STYLES[style].version,
            "unknown_placeholders": dict(sorted(unknown.items()))}
    if STYLES[style].word_pairs:
        meta["word_pairs"] = bool(pairs)
    write_table(refs, out, "references", meta)
    log.info("redelex-style %s: %d references%s, unknown placeholders %s", style, len(refs),
             "" if not STYLES[style].word_pairs else f" (word pairs: {len(pairs)})",
             dict(unknown))


@click.command("score-bleu-styles")
@click.option("--references", "references", required=True,
              help="STYLE=references.parquet items, comma-separated (span, hdsa, damd, augpt, "
                   "uniconv, lava; lava takes the hdsa file).")
@click.option("--predictions-dir", type=IN_DIR, required=True,
              help="Directory with <system>.parquet prediction tables.")
@click.option("--systems", required=True, help="Comma-separated systems to score.")
@click.option("--out", type=PATH, required=True, help="Scores parquet to write.")
@log_option
def score_bleu_styles(references: str, predictions_dir: Path, systems: str, out: Path,
                      log_file: Path | None) -> None:
    """Corpus BLEU of every system against every style's references (Table 4)."""
    from mwzrepro.bleu.styles import score_styles
    from mwzrepro.core.io import read_metadata, read_table, write_table
    from mwzrepro.core.params import parse_list

    log = setup_logging(log_file)
    ref_paths = _path_pairs(references, "--references")
    refs = {s: read_table(p, "references") for s, p in ref_paths.items()}
    pairs = {s: bool(read_metadata(p).get("word_pairs", False)) for s, p in ref_paths.items()}
    preds = {s: read_table(predictions_dir / f"{s}.parquet", "predictions")
             for s in parse_list(systems, ",")}
    scores = score_styles(preds, refs, pairs)
    write_table(scores, out, "scores", {"styles": sorted(refs)})
    log.info("score-bleu-styles: %d systems x %d styles", len(preds), len(refs))


@click.command("tables-bleu-styles")
@click.option("--scores", type=IN_FILE, required=True, help="score-bleu-styles output.")
@click.option("--published", type=IN_FILE, required=True, help="nekvinda2021.yaml.")
@click.option("--table", type=PATH, required=True, help="Table 4 output stem (.md/.csv/.tex).")
@click.option("--ranking", type=PATH, required=True, help="Ranking table output stem.")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True, help="Plot data CSV to write.")
@record_option
@log_option
def tables_bleu_styles(scores: Path, published: Path, table: Path, ranking: Path,
                       metrics: Path, record: Path | None, plot: Path,
                       log_file: Path | None) -> None:
    """Table 4 (BLEU by reference style, computed next to the paper) and the rankings."""
    from mwzrepro.core.io import read_table, write_metrics, write_text
    from mwzrepro.core.tables import render_table
    from mwzrepro.paper import table4 as t4
    from mwzrepro.paper.published import read_published

    log = setup_logging(log_file)
    pub = read_published(published).table4
    sc = read_table(scores, "scores")
    payload = t4.metrics_payload(sc, pub)
    notes = [f"{s}: {sig}" for s, sig in payload["signatures"].items()]
    notes += [f"{s}: {n}" for s, n in pub.notes.items()]
    notes.append("Computed rows: sacreBLEU corpus BLEU (0-100) of the normalized outputs against "
                 "each style's references; paper rows as printed (one decimal).")
    render_table(t4.table4(sc, pub), table,
                 "BLEU under six reference delexicalization styles (Nekvinda & Dusek 2021, "
                 "Table 4)", decimals=2, notes=notes)
    render_table(t4.ranking(sc, pub), ranking,
                 "System rank (1 = highest BLEU) under each reference style", notes=[
                     "Ranks of the computed BLEU; '(paper)' columns rank the published values "
                     "(ties share the best rank)."])
    write_metrics(payload, metrics, record)
    write_text(t4.plot_rows(sc, pub).to_csv(index=False, lineterminator="\n",
                                            float_format="%.4f"), plot)
    log.info("tables-bleu-styles: within 0.3 of the paper: %s", payload["within_tolerance"])


@click.command("tables-delex-example")
@click.option("--references", required=True,
              help="STYLE=references.parquet items, comma-separated.")
@click.option("--published", type=IN_FILE, required=True, help="nekvinda2021.yaml.")
@click.option("--table", type=PATH, required=True, help="Output stem (.md/.csv/.tex).")
@log_option
def tables_delex_example(references: str, published: Path, table: Path,
                         log_file: Path | None) -> None:
    """Table 2: one response under each delexicalization style, next to the paper."""
    from mwzrepro.core.io import read_table
    from mwzrepro.core.tables import render_table
    from mwzrepro.paper.published import read_published
    from mwzrepro.paper.table2 import delex_example

    log = setup_logging(log_file)
    pub = read_published(published).table2
    paths = _path_pairs(references, "--references")
    refs = {s: read_table(p, "references") for s, p in paths.items()}
    df = delex_example(refs, pub)
    render_table(df, table, f"One response under each reference style ({pub.dialogue_id} "
                 f"turn {pub.turn}; Nekvinda & Dusek 2021, Table 2)",
                 notes=[f"Source response: {pub.source}",
                        "same: ours equals the paper's text up to case, spacing before "
                        "punctuation and '_' in placeholders."])
    log.info("tables-delex-example: %d styles, %d as in the paper", len(df),
             int((df["same"] == "yes").sum()))


@click.command("tables-outputs")
@click.option("--turns", type=IN_FILE, required=True, help="Test turns.parquet (2.1).")
@click.option("--references", type=IN_FILE, required=True, help="Span references.parquet.")
@click.option("--predictions-dir", type=IN_DIR, required=True,
              help="Directory with <system>.parquet prediction tables (every system is shown).")
@click.option("--published", type=IN_FILE, required=True, help="nekvinda2021.yaml.")
@click.option("--table8", type=PATH, required=True, help="Table 8 output stem.")
@click.option("--table9", type=PATH, required=True, help="Table 9 output stem.")
@log_option
def tables_outputs(turns: Path, references: Path, predictions_dir: Path, published: Path,
                   table8: Path, table9: Path, log_file: Path | None) -> None:
    """Tables 8 and 9: every system's normalized output for one turn, next to the paper."""
    from mwzrepro.core.io import read_table
    from mwzrepro.core.tables import render_table
    from mwzrepro.paper.outputs import outputs_table
    from mwzrepro.paper.published import read_published

    log = setup_logging(log_file)
    pub = read_published(published)
    tt, refs = read_table(turns, "turns"), read_table(references, "references")
    preds = {p.name.removesuffix(".parquet"): read_table(p, "predictions")
             for p in sorted(predictions_dir.glob("*.parquet"))
             if not p.name.endswith(".coverage.parquet")}
    for number, block, stem in ((8, pub.table8, table8), (9, pub.table9, table9)):
        df = outputs_table(tt, refs, preds, block)
        render_table(df, stem, f"Normalized outputs for {block.dialogue_id}, system turn "
                     f"{block.turn} (Nekvinda & Dusek 2021, Table {number})",
                     notes=["Outputs after response normalization (spec-standard-evaluation "
                            "§3); corpus = the span reference of MultiWOZ 2.1."])
        log.info("tables-outputs: table %d, %d rows", number, len(df))


@click.command("tables-fga-stats")
@click.option("--dialogues", required=True,
              help="VERSION/SPLIT=dialogues.parquet items, comma-separated "
                   "(e.g. mwz21/test=...,mwz21/val=...).")
@click.option("--published", type=IN_FILE, required=True, help="nekvinda2021.yaml.")
@click.option("--table", type=PATH, required=True, help="Output stem (.md/.csv/.tex).")
@log_option
def tables_fga_stats(dialogues: str, published: Path, table: Path,
                     log_file: Path | None) -> None:
    """FGA paper Table 2: conversations, turns and average turns per split."""
    from mwzrepro.core.io import read_table
    from mwzrepro.core.tables import render_table
    from mwzrepro.paper.published import read_published
    from mwzrepro.paper.statistics import fga_table2

    log = setup_logging(log_file)
    tables = {}
    for key, path in _path_pairs(dialogues, "--dialogues").items():
        version, _, split = key.partition("/")
        if not split:
            raise click.UsageError(f"--dialogues: expected VERSION/SPLIT=PATH, got {key!r}")
        tables[(version, split)] = read_table(path, "dialogues")
    df = fga_table2(tables, read_published(published).fga_table2)
    render_table(df, table, "Elementary statistics of MultiWOZ (Dey et al. 2022, Table 2)",
                 decimals=2, notes=["turns = user-system exchanges (half the log entries)."])
    log.info("tables-fga-stats: %d rows", len(df))


COMMANDS = [redelex_style, score_bleu_styles, tables_bleu_styles, tables_delex_example,
            tables_outputs, tables_fga_stats]
