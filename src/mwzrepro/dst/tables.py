"""Assembly of the DST tables from the records of every scoring run (spec-dst-metrics §10;
section numbers refer to that spec): the FGA paper's Table 1 shape (JGA, SA, AGA and FGA per
run, then Relative Slot Accuracy and Granular Change Accuracy), the JGA-versus-fuzzy-JGA
table, the FGA-versus-λ curves and the metrics JSON.

Input records are those of :meth:`mwzrepro.dst.runs.DSTRun.record`. Numbers in the tables are
percentages (``100 ·`` the stored fractions); the metrics JSON keeps fractions. Runs are put in
one table only if their signatures agree on every field but system, gold version, input kind
and local rule.

Example (the plot grid):
    >>> lambda_grid(1.0, 0.25)
    [0.0, 0.25, 0.5, 0.75, 1.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from mwzrepro.core.signature import Signature, check_compatible, table_signature
from mwzrepro.dst.corpus import fga_from_counts
from mwzrepro.dst.state import DSTError

__all__ = ["INPUT_ORDER", "INPUT_NAMES", "VARY", "Table", "DSTTables", "lambda_grid",
           "fga_curves", "assemble_tables"]

#: Order of input kinds in the assembled table (the paper's rows first).
INPUT_ORDER = {"flags": 0, "log": 1, "paired": 2, "states": 3}
#: Input kind → the name shown in the ``Input`` column.
INPUT_NAMES = {"flags": "per-slot flags", "log": "human-eval logs", "paired": "paired states",
               "states": "predicted states"}
#: Signature fields that may differ between the rows of one table.
VARY = ("system", "ver", "input", "local")

TABLE_TITLE = "DST evaluation (FGA paper Table 1 shape): JGA, SA, AGA and FGA, then RSA and GCA"
FUZZY_TITLE = ("JGA and fuzzy JGA (predictions rewritten when the normalised Levenshtein "
               "similarity reaches θ, spec-dst-metrics §8)")


@dataclass
class Table:
    """One table to render: frame, caption, notes (percentages with 2 decimals)."""

    frame: pd.DataFrame
    title: str
    notes: list[str] = field(default_factory=list)


@dataclass
class DSTTables:
    """Everything ``tables-dst`` writes.

    Attributes:
        table: the Table 1 shape. fuzzy: JGA versus fuzzy JGA.
        plot: FGA (percent) versus λ: column ``lambda`` then one column per run
            (``system@version``); ``None`` where FGA is undefined.
        plot_labels: ``{system@version: legend label}``. marks: the table's λ values.
        metrics: the metrics JSON (``rows``, ``lambdas``, ``not_scored``).
        scored, skipped: number of scored runs; runs without predicted states.
    """

    table: Table
    fuzzy: Table
    plot: pd.DataFrame
    plot_labels: dict[str, str]
    marks: list[float]
    metrics: dict[str, Any]
    scored: int
    skipped: list[str]


def _lam_label(lam: str) -> str:
    return f"{float(lam):g}"


def _pct(v: float | None) -> float | None:
    return None if v is None else 100 * v


def lambda_grid(lambda_max: float, step: float) -> list[float]:
    """λ = 0, step, 2·step, … up to ``lambda_max`` (rounded to 10 decimals)."""
    n = int(round(lambda_max / step))
    return [round(i * step, 10) for i in range(n + 1)]


def fga_curves(records: Sequence[Mapping[str, Any]], grid: Sequence[float]) -> pd.DataFrame:
    """FGA(λ) in percent of every scored record at every grid point, exact from each record's
    TYPE2 distance histogram (§6.6). Under ``paper_literal`` with x = ∞ TYPE2 turns, λ = 0 is
    undefined (§9 D1) and left empty."""
    curves = {}
    for r in records:
        s = r["scores"]
        if r["settings"]["fga_variant"] == "paper_literal" and "inf" in s["type2_distances"]:
            pts = list(grid[1:])
        else:
            pts = list(grid)
        curves[f"{r['system']}@{r['version']}"] = {
            lam: 100 * fga_from_counts(s["turns"], s["m1"], s["type2_distances"], lam)
            for lam in pts}
    df = pd.DataFrame({"lambda": list(grid)})
    for key, curve in curves.items():
        df[key] = [curve.get(lam) for lam in grid]
    return df


def _coverage_entry(cov: Mapping[str, Any]) -> dict[str, Any]:
    entry = {k: cov.get(k) for k in ("scored_dialogues", "scored_turns", "gold_dialogues",
                                     "gold_turns", "excluded")}
    entry["missing_dialogues"] = len(cov.get("missing_dialogues", []))
    entry["missing_turns"] = cov.get("n_missing_turns", 0)
    return entry


def assemble_tables(records: Sequence[Mapping[str, Any]], lambda_max: float,
                    lambda_step: float, where: str = "") -> DSTTables:
    """The DST tables, plot data and metrics from the records of every run.

    Args:
        records: parsed JSON records, in any order (runs without states are listed as not
            scored).
        lambda_max, lambda_step: the FGA-versus-λ grid.
        where: label of the records' directory, for messages.

    Raises:
        DSTError: no record has scores.
        SignatureMismatch: two runs with different settings (beyond :data:`VARY`).
    """
    scored = [r for r in records if r["scores"] is not None]
    skipped = sorted(f"{r['system']}@{r['version']}" for r in records if r["scores"] is None)
    if not scored:
        raise DSTError(f"no DST record under {where} has scores")
    scored.sort(key=lambda r: (INPUT_ORDER.get(r["input"], 9), r["version"], r["system"]))
    check_compatible([r["signature"] for r in scored], vary=VARY, where="DST Table 1")
    common_sig = table_signature([r["signature"] for r in scored], per_row=VARY)
    local = sorted({(r["input"], Signature.parse(r["signature"]).fields.get("local"))
                    for r in scored})
    lambdas = list(scored[0]["scores"]["fga"])
    rows, fuzzy_rows, payload_rows, notes = [], [], {}, []
    for r in scored:
        s = r["scores"]
        row = {"Model": r["label"], "Gold": r["version"], "Input": INPUT_NAMES[r["input"]],
               "#Dialogues": s["dialogues"], "#Turns": s["turns"], "#M1": s["m1"],
               "#M2": s["m2"], "JGA": _pct(s["jga"]), "SA": _pct(s["sa"]),
               "AGA": _pct(s["aga"])}
        for lam in lambdas:
            row[f"FGA λ={_lam_label(lam)}"] = _pct(s["fga"][lam])
        row["RSA"], row["GCA"] = _pct(s.get("rsa")), _pct(s.get("gca"))
        rows.append(row)
        entry = {k: s[k] for k in ("dialogues", "turns", "m1", "m2", "jga", "sa", "aga",
                                   "aga_relative")}
        entry["fga"] = dict(s["fga"])
        if r["fuzzy"] is not None:
            fz = r["fuzzy"]
            entry["fuzzy_jga"] = fz["scores"]["jga"]
            fuzzy_rows.append({"Model": r["label"], "Gold": r["version"],
                               "#Turns": s["turns"], "JGA": _pct(s["jga"]),
                               f"fuzzy JGA ({fz['matcher']}, θ={fz['threshold']:g})":
                                   _pct(fz["scores"]["jga"]),
                               "values rewritten": fz["scores"]["rewrites"]})
        cov = r["coverage"] or {}
        entry["coverage"] = _coverage_entry(cov)
        entry["dropped_pred_slots"] = sum((cov.get("dropped_pred_slots") or {}).values())
        entry["signature"] = table_signature([r["signature"]])
        entry["rsa"], entry["gca"] = s.get("rsa"), s.get("gca")
        payload_rows[f"{r['system']}@{r['version']}"] = entry
        if cov.get("missing_dialogues") or cov.get("n_missing_turns"):
            notes.append(f"{r['label']} ({r['version']}): scored {cov['scored_dialogues']} of "
                         f"{cov['gold_dialogues'] - len(cov['excluded'])} dialogues, "
                         f"{cov['scored_turns']} turns (prediction file coverage)")
    notes.append(f"Signature of every row (<row>: the row's own value; ver is its Gold "
                 f"column, input its Input column, local by input: "
                 f"{', '.join(f'{i} {v}' for i, v in local)}; each row's signature is in "
                 f"results/records/dst.json): {common_sig}")
    if skipped:
        notes.append("no predicted states (not scored): " + ", ".join(skipped))
    notes.append("Percentages, micro-averaged over turns. FGA with the error-set local match "
                 "for flag input and the subset rule (with R1) for states (spec-dst-metrics "
                 "§6-§7). AGA skips turns with an empty gold state.")
    notes.append("RSA: Relative Slot Accuracy (Kim et al. 2022, Eq. 2), correct slots over the "
                 "slots of gold or prediction, mean over turns where either is non-empty. GCA: "
                 "Granular Change Accuracy (Aksu & Chen 2024), over the turn-to-turn state "
                 "changes; not computable from per-slot flags (empty cell). See "
                 "docs/specification.md, spec-dst-metrics addenda.")
    if fuzzy_rows:
        fz_df = pd.DataFrame(fuzzy_rows)
    else:
        fz_df = pd.DataFrame(columns=["Model", "Gold", "#Turns", "JGA", "fuzzy JGA"])
    fuzzy_sigs = [r["fuzzy"]["signature"] for r in scored if r["fuzzy"]]
    # every field kept, ver (the Gold column) and the input's fields as <row> where they vary
    fuzzy_notes = [f"Signature of every row (<row>: the row's own value; ver is its Gold "
                   f"column): {table_signature(fuzzy_sigs, per_row=VARY)}"] if fuzzy_sigs \
        else []
    marks = [float(x) for x in lambdas]
    return DSTTables(
        table=Table(pd.DataFrame(rows), TABLE_TITLE, notes),
        fuzzy=Table(fz_df, FUZZY_TITLE, fuzzy_notes),
        plot=fga_curves(scored, lambda_grid(lambda_max, lambda_step)),
        plot_labels={f"{r['system']}@{r['version']}": f"{r['label']} ({r['version']})"
                     for r in scored},
        marks=marks,
        metrics={"rows": payload_rows, "lambdas": marks, "not_scored": skipped},
        scored=len(scored),
        skipped=skipped,
    )
