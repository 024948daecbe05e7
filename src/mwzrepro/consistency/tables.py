"""Report tables of the annotation-consistency correction: the paper's Table 1 (dialogues) and
Table 6 (turns) shapes next to the published numbers, the per-slot user/system provenance
(Figure 4), the comparison with the spec's expected values (§9.4) and tolerances (§12.7–12.8),
and Table 3 (manual verification) recomputed from its confusion matrix.

Inputs are the :func:`mwzrepro.consistency.counts.count_changes` frames keyed by
``(version, split)`` and the parsed ``qian2021.yaml`` (``published``: ``table1``/``table6`` rows
``[domain, slot, count, percent]`` per split, ``spec_expected`` rows as mappings, ``table3``).
Cells of the rendered tables are strings ``count (pct%)``.

:func:`assemble_tables` puts together all ``tables-consistency`` writes: the five tables with
captions and notes, the metrics record (``results/metrics/consistency.json``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from mwzrepro.consistency.counts import (
    PAPER_EXEMPT,
    TABLE_ROWS,
    changed_totals,
    paper_tolerance_ok,
    spec_tolerance_ok,
    verification_stats,
)
from mwzrepro.core.io import dumps_json

__all__ = [
    "version_label",
    "published_rows",
    "spec_rows",
    "counts_table",
    "provenance_table",
    "reference_table",
    "table3_frame",
    "spec_dialogues_ok",
    "Table",
    "ConsistencyTables",
    "records",
    "assemble_tables",
]

Key = tuple[str, str]


def version_label(version: str) -> str:
    """``mwz21`` → ``2.1``, ``mwz20`` → ``2.0`` (other labels unchanged)."""
    if version.startswith("mwz") and version[3:].isdigit() and len(version) == 5:
        return f"{version[3]}.{version[4]}"
    return version


def published_rows(published: Mapping[str, Any], table: str, split: str
                   ) -> dict[Key, tuple[float, float]]:
    """``{(domain, slot): (count, percent)}`` of the paper's ``table1``/``table6`` column."""
    return {(r[0], r[1] or ""): (r[2], r[3]) for r in published[table][split]}


def spec_rows(published: Mapping[str, Any], split: str) -> dict[Key, dict[str, float]]:
    """``{(domain, slot): {dialogues, turns, detections?, dialogue_pct?, turn_pct?}}`` of §9.4."""
    return {(r["domain"], r["slot"] or ""): r for r in published["spec_expected"].get(split, [])}


def _cell(count: float, pct: float, decimals: int) -> str:
    if pct != pct:  # NaN
        return f"{int(count)}"
    return f"{int(count)} ({pct:.{decimals}f}%)"


def counts_table(
    counts: Mapping[tuple[str, str], pd.DataFrame],
    published: Mapping[str, Any],
    unit: str,
) -> pd.DataFrame:
    """Table 1 (``unit="dialogues"``) or Table 6 (``unit="turns"``) with every measured
    (version, split) column, the spec's expected 2.1 values and the paper's columns.

    Returns:
        24 rows (:data:`TABLE_ROWS`); columns ``domain``, ``slot``, then per split (val, test,
        then others): measured ``<version> <split>`` columns, ``spec 2.1 <split>`` (counts of
        §9.4), ``paper <split> (2.2)``; finally ``paper train (2.2)``.
    """
    if unit not in ("dialogues", "turns"):
        raise ValueError(f"unit must be 'dialogues' or 'turns', not {unit!r}")
    pct_col = "dialogue_pct" if unit == "dialogues" else "turn_pct"
    decimals = 1 if unit == "dialogues" else 2
    table = "table1" if unit == "dialogues" else "table6"
    splits = sorted({s for _, s in counts}, key=lambda s: ({"val": 0, "test": 1}.get(s, 2), s))
    df = pd.DataFrame(TABLE_ROWS, columns=["domain", "slot"])
    for split in splits:
        for version in sorted(v for v, s in counts if s == split):
            c = counts[(version, split)].set_index(["domain", "slot"])
            df[f"{version_label(version)} {split}"] = [
                _cell(c.loc[k, unit], c.loc[k, pct_col], decimals) for k in TABLE_ROWS]
        spec = spec_rows(published, split)
        if spec:
            df[f"spec 2.1 {split}"] = [
                "–" if k not in spec else (
                    _cell(spec[k][unit], spec[k].get(pct_col, float("nan")), decimals))
                for k in TABLE_ROWS]
        if split in published.get(table, {}):
            paper = published_rows(published, table, split)
            df[f"paper {split} (2.2)"] = [_cell(*paper[k], decimals) if k in paper else "–"
                                          for k in TABLE_ROWS]
    if "train" in published.get(table, {}) and "train" not in splits:
        paper = published_rows(published, table, "train")
        df["paper train (2.2)"] = [_cell(*paper[k], decimals) if k in paper else "–"
                                   for k in TABLE_ROWS]
    return df


def provenance_table(counts: Mapping[tuple[str, str], pd.DataFrame]) -> pd.DataFrame:
    """Per (version, split, domain, slot): detections, user-side and system-side detections and
    the user share in percent (§8 item 7, the paper's Figure 4)."""
    rows = []
    for (version, split), c in sorted(counts.items()):
        for r in c[c["slot"].isin(["total", ""]) == False].itertuples(index=False):  # noqa: E712
            rows.append({"version": version_label(version), "split": split, "domain": r.domain,
                         "slot": r.slot, "detections": int(r.detections),
                         "user": int(r.user_detections), "system": int(r.system_detections),
                         "user share %": float(r.user_share_pct)})
    df = pd.DataFrame(rows)
    if len(df):
        df["user share %"] = df["user share %"].astype("float64")
    return df


def reference_table(
    counts: Mapping[tuple[str, str], pd.DataFrame],
    published: Mapping[str, Any],
    version: str = "mwz21",
) -> pd.DataFrame:
    """Measured 2.1 counts against the spec's expected values (§9.4, tolerance §12.7) and the
    paper's Table 1 (tolerance §12.8), one row per (split, domain, slot) with a reference.

    Columns: ``split``, ``domain``, ``slot``; ``dialogues``, ``spec dialogues``, ``turns``,
    ``spec turns``, ``detections``, ``spec detections`` (ints, None where the spec has no
    number); ``within spec`` — the §12.7 acceptance: the dialogue count within ±3 or ±3 %
    (whichever is larger), for totals the percentages within ±1 point; ``turns/detections
    within`` — the same ±3/±3 % band applied to turns and detections (informative);
    ``paper dialogues`` and ``within paper`` (§12.8; ``exempt`` for the exempt cells).
    Flags are the strings ``yes``/``no`` (``–`` when not applicable).
    """
    rows = []
    for (ver, split), c in sorted(counts.items()):
        if ver != version:
            continue
        cc = c.set_index(["domain", "slot"])
        spec = spec_rows(published, split)
        paper = published_rows(published, "table1", split) if split in published.get(
            "table1", {}) else {}
        for k in TABLE_ROWS:
            if k not in spec and k not in paper:
                continue
            m = cc.loc[k]
            s = spec.get(k)
            p = paper.get(k)
            is_total = k[1] in ("total", "")
            row: dict[str, Any] = {
                "split": split, "domain": k[0], "slot": k[1],
                "dialogues": int(m["dialogues"]), "spec dialogues": _int(s, "dialogues"),
                "turns": int(m["turns"]), "spec turns": _int(s, "turns"),
                "detections": None if is_total else int(m["detections"]),
                "spec detections": _int(s, "detections"),
                "within spec": "–" if s is None else _yes(spec_dialogues_ok(m, s, k)),
                "turns/detections within": "–" if s is None else _yes(
                    spec_tolerance_ok(m["turns"], s["turns"])
                    and ("detections" not in s
                         or spec_tolerance_ok(m["detections"], s["detections"]))),
                "paper dialogues": None if p is None else int(p[0]),
            }
            if p is None:
                row["within paper"] = "–"
            elif (split, k[0], k[1]) in PAPER_EXEMPT:
                row["within paper"] = "exempt"
            elif k[0] == "total":
                row["within paper"] = _yes(paper_tolerance_ok(m["dialogue_pct"], p[1], "total"))
            elif k[1] == "total":
                row["within paper"] = _yes(
                    paper_tolerance_ok(m["dialogue_pct"], p[1], "domain_total"))
            else:
                row["within paper"] = _yes(paper_tolerance_ok(m["dialogues"], p[0], "slot"))
            rows.append(row)
    df = pd.DataFrame(rows)
    for col in ("spec dialogues", "spec turns", "detections", "spec detections",
                "paper dialogues"):
        if col in df:
            df[col] = pd.Series([None if v is None or v != v else int(v) for v in df[col]],
                                dtype=object, index=df.index)
    return df


def _int(row: Mapping[str, Any] | None, key: str) -> int | None:
    return None if row is None or key not in row else int(row[key])


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def spec_dialogues_ok(m: Mapping[str, Any], s: Mapping[str, Any], key: Key) -> bool:
    """The §12.7 acceptance for one cell: totals with a percentage within ±1 point; otherwise
    the dialogue count within ±3 or ±3 %, whichever is larger."""
    if key[1] in ("total", "") and "dialogue_pct" in s:
        ok = abs(m["dialogue_pct"] - s["dialogue_pct"]) <= 1.0
        if "turn_pct" in s:
            ok = ok and abs(m["turn_pct"] - s["turn_pct"]) <= 1.0
        return bool(ok)
    return bool(spec_tolerance_ok(m["dialogues"], s["dialogues"]))


def table3_frame(published: Mapping[str, Any]) -> pd.DataFrame:
    """Table 3: the paper's confusion matrix and precision/recall/F1/accuracy recomputed from it
    (fractions), next to the values stated in the paper's text (§9.3, D12)."""
    t3 = published["table3"]
    tp, fp = t3["modified"]["judged_correct"], t3["modified"]["judged_wrong"]
    tn, fn = t3["unmodified"]["judged_correct"], t3["unmodified"]["judged_wrong"]
    stats = verification_stats(tp, fp, tn, fn)
    stated = t3.get("stated_in_text", {})
    return pd.DataFrame([
        {"statistic": k, "recomputed": v, "stated in paper": stated.get(k)}
        for k, v in stats.items()
    ] + [{"statistic": "matrix", "recomputed": None,
          "stated in paper": f"modified {tp}/{fp}, unmodified {tn}/{fn} (true/false)"}])


# ---------------------------------------------------------------------------------- assembly
@dataclass
class Table:
    """One table to render: file stem (under the tables directory), frame, caption, float
    decimals and notes."""

    stem: str
    frame: pd.DataFrame
    title: str
    decimals: int = 2
    notes: list[str] = field(default_factory=list)


@dataclass
class ConsistencyTables:
    """Everything ``tables-consistency`` writes: the tables and the metrics record."""

    tables: list[Table]
    metrics: dict[str, Any]


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows of ``df`` as JSON-ready dicts (numpy scalars as Python values, NaN as ``None``)."""
    out = []
    for row in df.to_dict(orient="records"):
        clean = {}
        for k, v in row.items():
            if hasattr(v, "item"):
                v = v.item()
            if isinstance(v, float) and math.isnan(v):
                v = None
            clean[k] = v
        out.append(clean)
    return out


def assemble_tables(
    counts: Mapping[tuple[str, str], pd.DataFrame],
    metas: Mapping[tuple[str, str], Mapping[str, Any]],
    published: Mapping[str, Any],
    reference_version: str,
) -> ConsistencyTables:
    """The counts tables (Table 1, Table 6), provenance, reference check and Table 3, and the
    metrics record.

    Args:
        counts: ``{(version, split): consistency_counts table}`` sorted by ``row``.
        metas: ``{(version, split): metadata of that counts file}`` (``signature``,
            ``profile``, ``coverage``).
        published: the parsed ``qian2021.yaml``.
        reference_version: the version compared with the spec's expected values (§9.4).

    Returns:
        :class:`ConsistencyTables`: tables ``consistency_table1``, ``_table6``,
        ``_provenance``, ``_reference``, ``_table3``; metrics with ``signatures``, ``changed``
        (:func:`~mwzrepro.consistency.counts.changed_totals`), ``datasets``
        (``"<version>/<split>"``: version label, signature, profile, coverage, counts) and
        ``reference_check`` (cells outside the spec's and the paper's tolerances).
    """
    signatures = sorted({m["signature"] for m in metas.values()})
    profiles = sorted({dumps_json(m["profile"], indent=None) for m in metas.values()})
    sig_notes = [f"signature: {s}" for s in signatures]
    notes = [
        "Cells: count (percent of the domain's dialogues/turns whose corrected state has a "
        "slot of that domain; total: any slot). Measured columns: rule output of "
        "spec-annotation-consistency on the named MultiWOZ version.",
        "spec 2.1: expected rule output of the spec (§9.4, MultiWOZ 2.1, reference profile). "
        "paper (2.2): Qian et al. 2021, computed by the authors' scripts on MultiWOZ 2.2 in "
        "the 2.1 layout (test column with 13 hard-coded test turns).",
        "The training split is not in the data mirror: its column holds the paper's numbers "
        "only. The ConvLab-2 validation split has 999 dialogues.",
        "Profiles (settings differing from the reference profile): " + "; ".join(profiles),
    ] + sig_notes
    ref = reference_table(counts, published, reference_version)
    tables = [
        Table("consistency_table1", counts_table(counts, published, "dialogues"),
              "Dialogues with at least one annotation-consistency change (Table 1 shape)",
              notes=notes),
        Table("consistency_table6", counts_table(counts, published, "turns"),
              "Turns with at least one annotation-consistency change (Table 6 shape; "
              "the paper's caption says dialogs)", notes=notes),
        Table("consistency_provenance", provenance_table(counts),
              "Detections per slot by side (user / system), the paper's Figure 4",
              decimals=1, notes=sig_notes),
        Table("consistency_reference", ref,
              f"{version_label(reference_version)} counts against the spec's expected "
              "values (§9.4; acceptance §12.7: dialogues ±3 or ±3 %, totals ±1 point) and "
              "the paper's Table 1 (§12.8: ±20 % or ±6; domain totals ±4, total ±2 points)",
              notes=["turns/detections within: the same ±3 / ±3 % band applied to turns "
                     "and detections (informative)."] + sig_notes),
        Table("consistency_table3", table3_frame(published),
              "Manual verification (paper Table 3): statistics recomputed from the confusion "
              "matrix", decimals=3,
              notes=["The paper's stated recall/precision/F1 (0.970/0.961/0.974) are "
                     "inconsistent: F1 cannot exceed both (spec §9.3)."]),
    ]
    has_ref = not ref.empty
    metrics = {
        "signatures": signatures, "changed": changed_totals(counts),
        "datasets": {
            f"{v}/{s}": {
                "version_label": version_label(v),
                "signature": metas[(v, s)]["signature"],
                "profile": metas[(v, s)]["profile"],
                "coverage": metas[(v, s)]["coverage"],
                "counts": records(counts[(v, s)].drop(columns=["row"])),
            } for v, s in sorted(counts)
        },
        "reference_check": {
            "version": reference_version,
            "cells": int(len(ref)),
            "outside_spec": records(ref[ref["within spec"] == "no"]) if has_ref else [],
            "turns_or_detections_outside_band": records(
                ref[ref["turns/detections within"] == "no"]) if has_ref else [],
            "outside_paper": records(ref[ref["within paper"] == "no"]) if has_ref else [],
        },
    }
    return ConsistencyTables(tables, metrics)
