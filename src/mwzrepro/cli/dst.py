"""Pipeline phases of DST scoring (spec-dst-metrics):

* ``score-dst`` — an end-to-end system's predicted states (``predictions`` table) against the
  gold states of one dataset version (subset rule LM + R1);
* ``score-dst-flags`` — per-slot correctness vectors (TripPy's released results; error-set
  rule), AGA from the gold states' presence;
* ``score-dst-human`` — the FGA release's 100 human-evaluation logs (SOM-DST sample, gold and
  predictions from the logs);
* ``score-dst-paired`` — paired state files (the layout of the authors' TRADE/SOM-DST results);
* ``tables-dst`` — the FGA paper's Table 1 shape over all scored runs, a fuzzy-JGA table, the
  FGA-versus-λ plot data (CSV + SVG) and ``results/metrics/dst.json``.

Each ``score-*`` command writes a JSON record (corpus figures as fractions, settings,
signatures, coverage) and a ``dst_turns`` Parquet file (per-turn outcomes; the record is in
its metadata).
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)

#: Order of input kinds in the assembled table (the paper's rows first).
INPUT_ORDER = {"flags": 0, "log": 1, "paired": 2, "states": 3}


def _split_list(values: tuple[str, ...]) -> list[str]:
    """Repeated and/or comma/space-separated option values → a flat list (``""`` → [])."""
    out: list[str] = []
    for v in values:
        out.extend(x for x in v.replace(",", " ").split() if x)
    return out


def _lambdas(values: tuple[str, ...]) -> list[float]:
    try:
        lams = [float(x) for x in _split_list(values)]
    except ValueError as exc:
        raise click.BadParameter(f"λ values must be numbers: {exc}") from None
    if not lams or any(lam < 0 for lam in lams):
        raise click.BadParameter("give at least one λ, each ≥ 0")
    return lams


def scoring_options(func):
    """Options shared by every ``score-dst*`` command."""
    opts = [
        click.option("--system", required=True, help="Row name (system or source)."),
        click.option("--label", default=None, help="Model name shown in tables (default: "
                     "--system)."),
        click.option("--version", "version", required=True,
                     help="Dataset version of the gold states, e.g. mwz21."),
        click.option("--lambdas", multiple=True, default=("0.25,0.5,0.75,1.0",),
                     show_default=True, help="FGA λ values (comma-separated or repeated)."),
        click.option("--forget", "forget", default=None, metavar="P,T_F",
                     help="Also report FGA at λ = -ln(1-P)/T_F (spec §6.4 rule of thumb)."),
        click.option("--fga-variant", type=click.Choice(["scripts", "paper_literal"]),
                     default="scripts", show_default=True,
                     help="scripts: rule R1 (normative); paper_literal: Algorithm 1 as "
                          "printed (spec §9 D1)."),
        click.option("--matcher", type=click.Choice(["exact", "fuzzy-levenshtein",
                                                      "fuzzy-indel"]),
                     default="exact", show_default=True,
                     help="Value matcher of the main figures (spec §2.7)."),
        click.option("--fuzzy-matcher", type=click.Choice(["fuzzy-levenshtein", "fuzzy-indel"]),
                     default="fuzzy-levenshtein", show_default=True,
                     help="Matcher of the additional fuzzy figures (spec §8)."),
        click.option("--fuzzy-threshold", default="0.9", show_default=True,
                     help="Similarity threshold θ in [0, 1], inclusive (spec §8.2)."),
        click.option("--label-normalization", type=click.Choice(["none"]), default="none",
                     show_default=True,
                     help="Dataset-level label normalisation profile (spec §2.3)."),
        click.option("--excluded-dialogues", multiple=True, default=("PMUL1455",),
                     show_default=True,
                     help="Dialogue ids left out (comma-separated or repeated; '' for none)."),
        click.option("--out", type=PATH, required=True, help="JSON record to write."),
        click.option("--out-turns", type=PATH, required=True,
                     help="Per-turn dst_turns Parquet to write."),
        log_option,
    ]
    return functools.reduce(lambda f, o: o(f), reversed(opts), func)


class _Run:
    """Settings of one scoring run, its signatures, and the writer of its outputs."""

    def __init__(self, kw: dict[str, Any], input_kind: str, local_rule: str) -> None:
        from mwzrepro.dst.inputs import canonical_dialogue_id
        from mwzrepro.dst.metrics import lambda_from_forgetting, make_matcher

        self.system = kw["system"]
        self.label = kw["label"] or kw["system"]
        self.version = kw["version"]
        self.lambdas = _lambdas(kw["lambdas"])
        if kw["forget"]:
            try:
                p, tf = (float(x) for x in kw["forget"].split(","))
                self.lambdas.append(lambda_from_forgetting(p, tf))
            except ValueError as exc:
                raise click.BadParameter(f"--forget P,T_F: {exc}") from None
        self.variant = kw["fga_variant"]
        self.excluded = sorted({canonical_dialogue_id(x)
                                for x in _split_list(kw["excluded_dialogues"])})
        self.input_kind = input_kind
        self.local_rule = local_rule
        self.norm = kw["label_normalization"]
        try:
            self.matcher = make_matcher(kw["matcher"], kw["fuzzy_threshold"])
            self.fuzzy = make_matcher(kw["fuzzy_matcher"], kw["fuzzy_threshold"])
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
        self.out, self.out_turns = kw["out"], kw["out_turns"]
        self.log = setup_logging(kw["log_file"])

    def signature(self, matcher, metric: str = "DST") -> str:
        from mwzrepro.core.signature import Signature

        return Signature(metric, {
            "system": self.system,
            "ver": self.version,
            "input": self.input_kind,
            "local": self.local_rule,
            "fga": self.variant,
            "lambdas": ",".join(repr(x) for x in self.lambdas),
            "match": matcher.name,
            "theta": None if matcher.name == "exact" else str(float(matcher.threshold)),
            "norm": self.norm,
            "excl": ",".join(self.excluded) or "none",
            "slots": 30,
        }).format()

    def settings(self) -> dict[str, Any]:
        return {
            "lambdas": self.lambdas,
            "fga_local_match": self.local_rule,
            "fga_variant": self.variant,
            "matcher": self.matcher.name,
            "matcher_threshold": None if self.matcher.threshold is None
            else float(self.matcher.threshold),
            "fuzzy_matcher": self.fuzzy.name,
            "fuzzy_threshold": float(self.fuzzy.threshold),
            "label_normalization": self.norm,
            "excluded_dialogues": self.excluded,
            "n_slots": 30,
        }

    def write(self, scores, outcomes, fuzzy_scores, coverage, notes: list[str],
              has_states: bool = True) -> None:
        from mwzrepro.core.io import write_json, write_table
        from mwzrepro.dst.metrics import outcomes_frame

        record: dict[str, Any] = {
            "system": self.system,
            "label": self.label,
            "version": self.version,
            "input": self.input_kind,
            "has_states": has_states,
            "signature": self.signature(self.matcher),
            "settings": self.settings(),
            "scores": scores.as_dict() if scores is not None else None,
            "fuzzy": None if fuzzy_scores is None else {
                "signature": self.signature(self.fuzzy, "DST-fuzzy"),
                "matcher": self.fuzzy.name,
                "threshold": float(self.fuzzy.threshold),
                "scores": fuzzy_scores.as_dict(),
            },
            "coverage": coverage.as_dict() if coverage is not None else None,
            "notes": notes,
        }
        write_table(outcomes_frame(outcomes), self.out_turns, "dst_turns",
                    {"dst": {k: v for k, v in record.items() if k != "notes"}})
        write_json(record, self.out)
        if scores is None:
            self.log.info("score-dst %s on %s: no predicted states; nothing scored",
                          self.system, self.version)
            return
        fga = " ".join(f"FGA({lam:g})={100 * v:.2f}" for lam, v in scores.fga.items())
        self.log.info(
            "DST %s on %s: %d dialogues, %d turns, #M1=%d, #M2=%d, JGA=%.2f, SA=%.2f, AGA=%s, "
            "%s", self.system, self.version, scores.dialogues, scores.turns, scores.m1,
            scores.m2, 100 * scores.jga, 100 * scores.sa,
            "n/a" if scores.aga is None else f"{100 * scores.aga:.2f}", fga)
        if fuzzy_scores is not None:
            self.log.info("fuzzy JGA (%s, θ=%s): %.2f", self.fuzzy.name,
                          float(self.fuzzy.threshold), 100 * fuzzy_scores.jga)
        for note in notes:
            self.log.warning("%s", note)


#: ``--sources``: verify raw inputs (under ``data/raw/``) against the sources registry.
sources_option = click.option(
    "--sources", "registry", type=IN_FILE, default=None,
    help="Sources registry: verify the raw input files' git blob SHA-1 (files under data/raw/).")


def _verify(registry: Path | None, paths: list[Path]) -> None:
    """Verify raw inputs against the registry (no-op without ``--sources``)."""
    if registry is not None:
        from mwzrepro.cli.prepare import verify_raw

        verify_raw(registry, list(paths))


def _gold(states: Path, dialogues: Path, dropped: Counter):
    from mwzrepro.dst.inputs import gold_from_tables
    from mwzrepro.core.io import read_table

    return gold_from_tables(read_table(states, "states"), read_table(dialogues, "dialogues"),
                            str(states), dropped)


def _dst_error(exc: Exception) -> Exception:
    """A DST input error as :class:`mwzrepro.core.errors.InputError` (printed as one line)."""
    from mwzrepro.core.errors import InputError

    return InputError(str(exc))


@click.command("score-dst")
@click.option("--predictions", type=IN_FILE, required=True, help="<system>.parquet "
              "(predictions table).")
@click.option("--states", type=IN_FILE, required=True, help="Gold states.parquet of the version.")
@click.option("--dialogues", type=IN_FILE, required=True, help="dialogues.parquet of the "
              "version (number of user turns).")
@click.option("--missing", type=click.Choice(["error", "skip"]), default="skip",
              show_default=True, help="Gold dialogues/trailing turns without predictions: an "
              "error, or left out and listed in the coverage.")
@click.option("--unknown-slots", type=click.Choice(["filter", "error"]), default="filter",
              show_default=True, help="Predicted slots outside the 30: remove and report "
              "them, or fail (spec §2.2).")
@scoring_options
def score_dst(predictions: Path, states: Path, dialogues: Path, missing: str,
              unknown_slots: str, **kw: Any) -> None:
    """Score an end-to-end system's predicted states against gold states (JGA, SA, AGA, FGA,
    fuzzy JGA). A system without predicted states gets a record with has_states = false."""
    from mwzrepro.dst.inputs import align_states, predictions_from_table
    from mwzrepro.core.io import read_table
    from mwzrepro.dst.metrics import score_corpus

    run = _Run(kw, "states", "subset")
    try:
        dropped_gold: Counter = Counter()
        gold = _gold(states, dialogues, dropped_gold)
        dropped_pred: Counter | None = Counter() if unknown_slots == "filter" else None
        pred = predictions_from_table(read_table(predictions, "predictions"),
                                      str(predictions), dropped_pred)
        if pred is None:
            run.write(None, [], None, None, [], has_states=False)
            return
        dialogues_, cov = align_states(gold, pred, run.excluded, missing, str(predictions))
        cov.dropped_pred_slots = dict(dropped_pred or {})
        cov.dropped_gold_slots = dict(dropped_gold)
        scores, outcomes = score_corpus(dialogues_, run.lambdas, run.matcher, run.variant)
        fuzzy, _ = score_corpus(dialogues_, run.lambdas, run.fuzzy, run.variant)
    except ValueError as exc:  # DSTError, or e.g. FGA(0) undefined under paper_literal
        raise _dst_error(exc) from None
    notes = []
    if cov.missing_dialogues or cov.missing_turns:
        notes.append(f"{len(cov.missing_dialogues)} gold dialogue(s) and "
                     f"{sum(map(len, cov.missing_turns.values()))} trailing turn(s) without "
                     f"predictions were left out (coverage)")
    if cov.dropped_pred_slots:
        notes.append(f"removed {sum(cov.dropped_pred_slots.values())} predicted value(s) "
                     f"outside the 30 slots: {cov.dropped_pred_slots}")
    run.write(scores, outcomes, fuzzy, cov, notes)


@click.command("score-dst-flags")
@click.option("--flags", type=IN_FILE, required=True, help="Per-slot correctness vectors "
              "(e.g. trippy_result.json).")
@click.option("--states", type=IN_FILE, default=None, help="Gold states.parquet (for AGA's "
              "gold presence); without it AGA is not computed.")
@click.option("--dialogues", type=IN_FILE, default=None, help="dialogues.parquet of the same "
              "version (required with --states).")
@sources_option
@scoring_options
def score_dst_flags(flags: Path, states: Path | None, dialogues: Path | None,
                    registry: Path | None, **kw: Any) -> None:
    """Score per-slot correctness vectors (error-set local match, spec §7)."""
    from mwzrepro.dst.inputs import align_flags, read_flag_file
    from mwzrepro.dst.metrics import score_corpus_flags

    if (states is None) != (dialogues is None):
        raise click.UsageError("--states and --dialogues go together")
    run = _Run(kw, "flags", "error_set")
    _verify(registry, [flags])
    try:
        dropped_gold: Counter = Counter()
        gold = _gold(states, dialogues, dropped_gold) if states is not None else None
        vectors = read_flag_file(flags)
        dialogues_, cov = align_flags(vectors, gold, run.excluded, str(flags))
        cov.dropped_gold_slots = dict(dropped_gold)
        scores, outcomes = score_corpus_flags(dialogues_, run.lambdas, run.variant, str(flags))
    except ValueError as exc:  # DSTError, or e.g. FGA(0) undefined under paper_literal
        raise _dst_error(exc) from None
    notes = [] if gold is not None else ["AGA not computed: no gold states given"]
    run.write(scores, outcomes, None, cov, notes)


@click.command("score-dst-human")
@click.option("--logs-dir", type=IN_DIR, required=True,
              help="Directory of human-evaluation logs (*.json.txt).")
@sources_option
@scoring_options
def score_dst_human(logs_dir: Path, registry: Path | None, **kw: Any) -> None:
    """Score the human-evaluation logs (GT vs PR states, subset rule)."""
    from mwzrepro.dst.inputs import read_human_eval_logs, select_dialogues
    from mwzrepro.dst.metrics import score_corpus

    run = _Run(kw, "log", "subset")
    paths = sorted(logs_dir.glob("*.json.txt"))
    if not paths:
        raise click.UsageError(f"no *.json.txt logs in {logs_dir}")
    _verify(registry, paths)
    try:
        logs, notes = read_human_eval_logs(paths)
        dialogues_, cov = select_dialogues(logs, run.excluded, str(logs_dir))
        scores, outcomes = score_corpus(dialogues_, run.lambdas, run.matcher, run.variant)
        fuzzy, _ = score_corpus(dialogues_, run.lambdas, run.fuzzy, run.variant)
    except ValueError as exc:  # DSTError, or e.g. FGA(0) undefined under paper_literal
        raise _dst_error(exc) from None
    run.write(scores, outcomes, fuzzy, cov, notes)


@click.command("score-dst-paired")
@click.option("--input", "input_", type=IN_FILE, required=True,
              help="Paired state file {dialogue: {turn: {gt, pr}}} (TRADE/SOM-DST results).")
@sources_option
@scoring_options
def score_dst_paired(input_: Path, registry: Path | None, **kw: Any) -> None:
    """Score a paired gold/predicted state file (subset rule, spec §10 item 1)."""
    from mwzrepro.dst.inputs import read_paired_states, select_dialogues
    from mwzrepro.dst.metrics import score_corpus

    run = _Run(kw, "paired", "subset")
    _verify(registry, [input_])
    try:
        pairs = read_paired_states(input_)
        dialogues_, cov = select_dialogues(pairs, run.excluded, str(input_))
        scores, outcomes = score_corpus(dialogues_, run.lambdas, run.matcher, run.variant)
        fuzzy, _ = score_corpus(dialogues_, run.lambdas, run.fuzzy, run.variant)
    except ValueError as exc:  # DSTError, or e.g. FGA(0) undefined under paper_literal
        raise _dst_error(exc) from None
    run.write(scores, outcomes, fuzzy, cov, [])


# --------------------------------------------------------------------------------------------
# tables-dst

INPUT_NAMES = {"flags": "per-slot flags", "log": "human-eval logs", "paired": "paired states",
               "states": "predicted states"}


def _lam_label(lam: str) -> str:
    return f"{float(lam):g}"


@click.command("tables-dst")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory with <version>/<system>.json records of score-dst*.")
@click.option("--table", type=PATH, required=True,
              help="Output stem of the Table 1 shape (writes .md/.csv/.tex).")
@click.option("--fuzzy-table", type=PATH, required=True,
              help="Output stem of the JGA vs fuzzy JGA table.")
@click.option("--metrics", type=PATH, required=True, help="Metrics JSON to write.")
@click.option("--plot", type=PATH, required=True, help="FGA-versus-λ plot data CSV to write.")
@click.option("--plot-image", type=PATH, required=True, help="FGA-versus-λ SVG to write.")
@click.option("--plot-lambda-max", type=float, default=2.0, show_default=True,
              help="Largest λ of the plot grid.")
@click.option("--plot-lambda-step", type=float, default=0.05, show_default=True,
              help="Step of the plot grid.")
@log_option
def tables_dst(scores_dir: Path, table: Path, fuzzy_table: Path, metrics: Path, plot: Path,
               plot_image: Path, plot_lambda_max: float, plot_lambda_step: float,
               log_file: Path | None) -> None:
    """Assemble the FGA paper's Table 1 shape over every scored DST run, a fuzzy-JGA table,
    the FGA-vs-λ plot (CSV + SVG) and the DST metrics JSON."""
    import json

    import pandas as pd

    from mwzrepro.core.io import write_json, write_text
    from mwzrepro.dst.metrics import fga_from_counts
    from mwzrepro.core.signature import Signature, check_compatible
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    files = sorted(scores_dir.glob("*/*.json"))
    if not files:
        raise click.UsageError(f"no DST score records under {scores_dir}")
    records = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    scored = [r for r in records if r["scores"] is not None]
    skipped = sorted(f"{r['system']}@{r['version']}" for r in records if r["scores"] is None)
    if not scored:
        raise click.UsageError(f"no DST record under {scores_dir} has scores")
    scored.sort(key=lambda r: (INPUT_ORDER.get(r["input"], 9), r["version"], r["system"]))
    vary = ("system", "ver", "input", "local")
    check_compatible([r["signature"] for r in scored], vary=vary, where="DST Table 1")
    common_sig = Signature.parse(scored[0]["signature"]).without(vary).format()
    lambdas = list(scored[0]["scores"]["fga"])
    rows, fuzzy_rows, payload_rows, notes = [], [], {}, []
    for r in scored:
        s = r["scores"]
        key = f"{r['system']}@{r['version']}"
        pct = lambda v: None if v is None else 100 * v  # noqa: E731
        row = {"Model": r["label"], "Gold": r["version"], "Input": INPUT_NAMES[r["input"]],
               "#Dialogues": s["dialogues"], "#Turns": s["turns"], "#M1": s["m1"],
               "#M2": s["m2"], "JGA": pct(s["jga"]), "SA": pct(s["sa"]), "AGA": pct(s["aga"])}
        for lam in lambdas:
            row[f"FGA λ={_lam_label(lam)}"] = pct(s["fga"][lam])
        rows.append(row)
        entry = {k: s[k] for k in ("dialogues", "turns", "m1", "m2", "jga", "sa", "aga",
                                   "aga_relative")}
        entry["fga"] = dict(s["fga"])
        if r["fuzzy"] is not None:
            fz = r["fuzzy"]
            entry["fuzzy_jga"] = fz["scores"]["jga"]
            fuzzy_rows.append({"Model": r["label"], "Gold": r["version"],
                               "#Turns": s["turns"], "JGA": pct(s["jga"]),
                               f"fuzzy JGA ({fz['matcher']}, θ={fz['threshold']:g})":
                                   pct(fz["scores"]["jga"]),
                               "values rewritten": fz["scores"]["rewrites"]})
        cov = r["coverage"] or {}
        entry["coverage"] = {k: cov.get(k) for k in ("scored_dialogues", "scored_turns",
                                                      "gold_dialogues", "gold_turns",
                                                      "excluded")}
        entry["coverage"]["missing_dialogues"] = len(cov.get("missing_dialogues", []))
        entry["coverage"]["missing_turns"] = cov.get("n_missing_turns", 0)
        entry["dropped_pred_slots"] = sum((cov.get("dropped_pred_slots") or {}).values())
        entry["signature"] = r["signature"]
        payload_rows[key] = entry
        if cov.get("missing_dialogues") or cov.get("n_missing_turns"):
            notes.append(f"{r['label']} ({r['version']}): scored {cov['scored_dialogues']} of "
                         f"{cov['gold_dialogues'] - len(cov['excluded'])} dialogues, "
                         f"{cov['scored_turns']} turns (prediction file coverage)")
    notes.append(f"Signature common to all rows (each row adds system, ver, input and local; "
                 f"full signatures in the metrics JSON): {common_sig}")
    if skipped:
        notes.append("no predicted states (not scored): " + ", ".join(skipped))
    notes.append("Percentages, micro-averaged over turns. FGA with the error-set local match "
                 "for flag input and the subset rule (with R1) for states (spec-dst-metrics "
                 "§6-§7). AGA skips turns with an empty gold state.")
    render_table(pd.DataFrame(rows), table,
                 "DST evaluation (FGA paper Table 1 shape): JGA, SA, AGA and FGA", decimals=2,
                 notes=notes)
    if fuzzy_rows:
        fz_df = pd.DataFrame(fuzzy_rows)
    else:
        fz_df = pd.DataFrame(columns=["Model", "Gold", "#Turns", "JGA", "fuzzy JGA"])
    render_table(fz_df, fuzzy_table, "JGA and fuzzy JGA (predictions rewritten when the "
                 "normalised Levenshtein similarity reaches θ, spec-dst-metrics §8)",
                 decimals=2, notes=sorted({Signature.parse(r["fuzzy"]["signature"]).without(vary)
                                           .format() for r in scored if r["fuzzy"]}))

    # FGA versus λ, from the TYPE2 distance histograms (exact at every grid point)
    n = int(round(plot_lambda_max / plot_lambda_step))
    grid = [round(i * plot_lambda_step, 10) for i in range(n + 1)]
    curves = {}
    for r in scored:
        s = r["scores"]
        if r["settings"]["fga_variant"] == "paper_literal" and "inf" in s["type2_distances"]:
            pts = grid[1:]
        else:
            pts = grid
        curves[f"{r['system']}@{r['version']}"] = {
            lam: 100 * fga_from_counts(s["turns"], s["m1"], s["type2_distances"], lam)
            for lam in pts}
    plot_df = pd.DataFrame({"lambda": grid})
    for key, curve in curves.items():
        plot_df[key] = [curve.get(lam) for lam in grid]
    write_text(plot_df.to_csv(index=False, lineterminator="\n", float_format="%.4f"), plot)
    _plot_svg(plot_df, {f"{r['system']}@{r['version']}": f"{r['label']} ({r['version']})"
                        for r in scored}, plot_image, [float(x) for x in lambdas])
    write_json({"rows": payload_rows, "lambdas": [float(x) for x in lambdas],
                "not_scored": skipped}, metrics)
    log.info("tables-dst: %d scored runs, %d without states", len(scored), len(skipped))


def _plot_svg(df, labels: dict[str, str], path: Path, marks: list[float]) -> None:
    """FGA-versus-λ curves as a deterministic SVG (fixed hash salt, no date metadata).

    One colour per system, one line style per gold version; columns are ``system@version``.
    """
    from mwzrepro.core.plots import pyplot, save_svg, svg_style

    plt = pyplot()

    cols = list(df.columns[1:])
    systems = list(dict.fromkeys(c.split("@")[0] for c in cols))
    versions = sorted({c.split("@")[-1] for c in cols})
    styles = ["-", "--", ":", "-."]
    cmap = plt.get_cmap("tab20")
    with svg_style("mwzrepro-dst"):
        fig, ax = plt.subplots(figsize=(9, 5.5))
        for col in cols:
            system, version = col.split("@")[0], col.split("@")[-1]
            ax.plot(df["lambda"], df[col], label=labels.get(col, col), linewidth=1.2,
                    color=cmap(systems.index(system) % 20),
                    linestyle=styles[versions.index(version) % len(styles)])
        for lam in marks:
            ax.axvline(lam, color="0.8", linewidth=0.6, zorder=0)
        ax.set_xlabel("λ")
        ax.set_ylabel("FGA (%)")
        ax.set_title("Flexible Goal Accuracy versus λ (λ = 0 is JGA)")
        ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        ax.grid(True, linewidth=0.3)
        fig.tight_layout()
        save_svg(fig, path)


COMMANDS = [score_dst, score_dst_flags, score_dst_human, score_dst_paired, tables_dst]
