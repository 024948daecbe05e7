"""BLEU of 13 systems under six reference delexicalization styles next to the published values,
with the ranking each style induces (Nekvinda & Dušek 2021, Table 4; spec-paper-tables §1).

Inputs are the ``scores`` rows of :func:`mwzrepro.bleu.styles.score_styles` (``setting`` =
style) and the parsed ``table4`` block of the published file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import Signature, check_compatible
from mwzrepro.paper.published import Table4
from mwzrepro.prepare.delex.styles import STYLES

__all__ = ["TOLERANCE", "bleu_matrix", "table4", "ranking", "metrics_payload", "plot_rows"]

#: Acceptance tolerance of a re-implemented style, in BLEU points (spec-paper-tables §1).
TOLERANCE = 0.3


def bleu_matrix(scores: pd.DataFrame, systems: Iterable[str]) -> pd.DataFrame:
    """BLEU as a styles × systems frame (rows in :data:`STYLES` order, only styles present;
    columns ``systems``, NaN where a system was not scored).

    Raises:
        InputError: no BLEU rows; SignatureMismatch: one style mixes settings.
    """
    bleu = scores[scores["metric"] == "bleu"]
    if bleu.empty:
        raise InputError("no BLEU scores to assemble into Table 4")
    for style, rows in bleu.groupby("setting"):
        check_compatible(rows["signature"], vary=("system",), where=f"Table 4 row {style}")
    wide = bleu.pivot(index="setting", columns="system", values="value")
    order = [s for s in STYLES if s in wide.index]
    return wide.reindex(index=order, columns=list(systems))


def table4(scores: pd.DataFrame, published: Table4) -> pd.DataFrame:
    """The table: for each style a computed row (BLEU, 0–100, unrounded) and the paper's row,
    then the systems' reported values.

    Returns:
        Columns ``style``, ``values`` (``computed``/``paper``), one column per system title in
        the paper's order, ``within 0.3`` (computed rows: systems within :data:`TOLERANCE` of
        the paper, as ``n/13``) and ``max |diff|``. Paper values are strings with the paper's
        one decimal, so every rendering shows them as printed.
    """
    systems = published.systems
    wide = bleu_matrix(scores, systems)
    titles = [published.titles[s] for s in systems]
    rows: list[dict[str, Any]] = []
    for style in wide.index:
        ours = wide.loc[style]
        paper = pd.Series(published.rows.get(style, [float("nan")] * len(systems)), systems)
        diff = (ours - paper).abs()
        row = {"style": STYLES[style].title, "values": "computed"}
        row.update({t: float(ours[s]) for t, s in zip(titles, systems)})
        row["within 0.3"] = f"{int((diff <= TOLERANCE + 1e-9).sum())}/{len(systems)}"
        row["max |diff|"] = float(diff.max())
        rows.append(row)
        if style in published.rows:
            prow = {"style": STYLES[style].title, "values": "paper"}
            prow.update({t: f"{paper[s]:.1f}" for t, s in zip(titles, systems)})
            rows.append(prow | {"within 0.3": "", "max |diff|": ""})
    if "reported" in published.rows:
        rrow = {"style": "Reported", "values": "paper"}
        rrow.update({t: f"{published.value('reported', s):.1f}" for t, s in zip(titles, systems)})
        rows.append(rrow | {"within 0.3": "", "max |diff|": ""})
    return pd.DataFrame(rows, columns=["style", "values", *titles, "within 0.3", "max |diff|"])


def ranking(scores: pd.DataFrame, published: Table4) -> pd.DataFrame:
    """Rank of each system (1 = highest BLEU) under each style, computed and published.

    Returns:
        One row per system (paper order): ``system``, then per style ``<style>`` (our rank) and
        ``<style> (paper)``, then ``rank range`` (best–worst of our ranks).
    """
    systems = published.systems
    wide = bleu_matrix(scores, systems)
    out = pd.DataFrame({"system": [published.titles[s] for s in systems]})
    ours_ranks = []
    for style in wide.index:
        ours = wide.loc[style].rank(ascending=False, method="min")
        ours_ranks.append(ours)
        out[STYLES[style].title] = [int(ours[s]) for s in systems]
        if style in published.rows:
            paper = pd.Series(published.rows[style], systems).rank(ascending=False, method="min")
            out[f"{STYLES[style].title} (paper)"] = [int(paper[s]) for s in systems]
    ranks = pd.concat(ours_ranks, axis=1)
    out["rank range"] = [f"{int(ranks.loc[s].min())}-{int(ranks.loc[s].max())}" for s in systems]
    return out


def metrics_payload(scores: pd.DataFrame, published: Table4) -> dict[str, Any]:
    """Metrics JSON: ``bleu_styles`` ``{style: {system: BLEU (4 decimals)}}``, ``paper``
    (same shape, published), ``within_tolerance`` ``{style: systems within 0.3}`` and
    ``signatures`` ``{style: signature without system}``."""
    systems = published.systems
    wide = bleu_matrix(scores, systems)
    bleu = scores[scores["metric"] == "bleu"]
    payload: dict[str, Any] = {"bleu_styles": {}, "paper": {}, "within_tolerance": {},
                               "signatures": {}}
    for style in wide.index:
        row = wide.loc[style].dropna()
        payload["bleu_styles"][style] = {s: round(float(row[s]), 4) for s in systems if s in row}
        if style in published.rows:
            payload["paper"][style] = dict(zip(systems, published.rows[style]))
            diff = (wide.loc[style] - pd.Series(published.rows[style], systems)).abs()
            payload["within_tolerance"][style] = int((diff <= TOLERANCE + 1e-9).sum())
        sig = bleu.loc[bleu["setting"] == style, "signature"].iloc[0]
        payload["signatures"][style] = Signature.parse(sig).without(["system"]).format()
    payload["paper"]["reported"] = dict(zip(systems, published.rows.get("reported", [])))
    return payload


def plot_rows(scores: pd.DataFrame, published: Table4) -> pd.DataFrame:
    """Plot data, one row per style (paper row order) and one column per system: ``style``
    (style key) then the system stems, BLEU values — one line per system across the styles,
    so ranking changes show as crossing lines (DVC: ``x: style``, ``y`` = the systems)."""
    wide = bleu_matrix(scores, published.systems)
    out = wide.reset_index(names="style")
    out.columns = ["style", *published.systems]
    return out
