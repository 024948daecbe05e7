"""Pipeline phases ``score-bleu`` (one system against one version's references) and
``tables-bleu`` (the paper's Table 4 shape: systems × reference versions)."""

from __future__ import annotations

from pathlib import Path

import click

from mwzrepro.cli.options import log_option, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("score-bleu")
@click.option("--predictions", type=IN_FILE, required=True, help="<system>.parquet")
@click.option("--coverage", type=IN_FILE, required=True, help="<system>.coverage.parquet")
@click.option("--references", type=IN_FILE, required=True, help="references.parquet")
@click.option("--version", "version", required=True, help="Dataset version of the references.")
@click.option("--system", required=True, help="System name.")
@click.option("--out", type=PATH, required=True, help="Scores Parquet to write.")
@log_option
def score_bleu(predictions: Path, coverage: Path, references: Path, version: str, system: str,
               out: Path, log_file: Path | None) -> None:
    """Corpus BLEU (sacrebleu) of one system against span-based references of one version."""
    import pandas as pd

    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.bleu.score import corpus_bleu

    log = setup_logging(log_file)
    preds = read_table(predictions, "predictions")
    cov = read_table(coverage, "coverage")
    result = corpus_bleu(preds, read_table(references, "references"), version, system)
    sig = result.signature.format()
    rows = [
        ("bleu", "total", result.score),
        ("dialogues", "covered", float((cov["predicted_turns"] > 0).sum())),
        ("dialogues", "expected", float(len(cov))),
        ("turns", "covered", float(cov["predicted_turns"].sum())),
        ("turns", "expected", float(cov["expected_turns"].sum())),
    ]
    df = pd.DataFrame(
        [{"system": system, "version": version, "metric": m, "setting": "", "key": k,
          "value": v, "signature": sig} for m, k, v in rows]
    )
    write_table(df, out, "scores", {"signature": sig, "sacrebleu": result.sacrebleu_signature})
    log.info("BLEU %s on %s references: %.2f over %d turns", system, version, result.score,
             result.turns)


@click.command("tables-bleu")
@click.option("--scores-dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              required=True, help="Directory with <version>/<system>.parquet BLEU scores.")
@click.option("--table", type=PATH, required=True, help="Output stem (writes .md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True, help="Plot data CSV to write.")
@log_option
def tables_bleu(scores_dir: Path, table: Path, metrics: Path, plot: Path,
                log_file: Path | None) -> None:
    """Assemble BLEU of every system against every reference version (paper Table 4 shape)."""
    import pandas as pd

    from mwzrepro.core.io import read_table, write_json, write_text
    from mwzrepro.core.signature import Signature, check_compatible
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    files = sorted(scores_dir.glob("*/*.parquet"))
    if not files:
        raise click.UsageError(f"no BLEU scores under {scores_dir}")
    scores = pd.concat([read_table(f, "scores") for f in files], ignore_index=True)
    bleu = scores[scores["metric"] == "bleu"]
    versions = sorted(bleu["version"].unique())
    notes = []
    column_sig = {}
    for v in versions:
        sigs = bleu.loc[bleu["version"] == v, "signature"]
        check_compatible(sigs, vary=("system",), where=f"BLEU column {v}")
        column_sig[v] = Signature.parse(sigs.iloc[0]).without(["system"]).format()
        notes.append(f"{v}: {column_sig[v]}")
    wide = bleu.pivot(index="system", columns="version", values="value")[versions]
    cov = scores[(scores["metric"] == "dialogues")].pivot_table(
        index="system", columns="key", values="value", aggfunc="first")
    wide["dialogues"] = [
        f"{int(cov.loc[s, 'covered'])}/{int(cov.loc[s, 'expected'])}" for s in wide.index
    ]
    out = wide.reset_index().rename(columns={"system": "system"})
    out.columns = ["system"] + [f"BLEU ({v} refs)" for v in versions] + ["dialogues"]
    notes.append("BLEU: sacrebleu corpus BLEU (0-100) of normalized responses against "
                 "span-based delexicalized references of each version's test set.")
    render_table(out, table, "BLEU against span-based references, by reference version",
                 decimals=2, notes=notes)
    payload = {
        "bleu": {v: {s: round(float(wide.loc[s, v]), 4) for s in wide.index} for v in versions},
        "signatures": column_sig,
    }
    write_json(payload, metrics)
    long = bleu[["system", "version", "value"]].rename(columns={"value": "bleu"})
    long = long.sort_values(["system", "version"])
    write_text(long.to_csv(index=False, lineterminator="\n", float_format="%.4f"), plot)
    log.info("tables-bleu: %d systems x %d versions", len(wide), len(versions))


COMMANDS = [score_bleu, tables_bleu]
