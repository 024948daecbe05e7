"""The ``dst_conventions`` (ladder) and ``dst_presets`` tables and their metrics JSON
(spec-dst-metrics §12). Percentages in the tables, two
decimals; fractions in the metrics JSON.

:func:`system_figures` scores one system on one gold version (every preset, the ladder from
``fga`` to ``mwzeval`` and the order effects); :func:`assemble` turns the figures of every run
into the two tables and the metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mwzrepro.dst.conventions.ladder import (
    LADDER_ORDER,
    climb,
    ladder_conventions,
    order_effects,
    shapley_effects,
)
from mwzrepro.dst.conventions.presets import PRESETS
from mwzrepro.dst.conventions.scoring import score_corpus
from mwzrepro.dst.conventions.switches import SWITCH_TITLES, Convention
from mwzrepro.dst.conventions.turns import RawDialogue
from mwzrepro.dst.conventions.views import ViewCache

__all__ = ["LADDER_START", "LADDER_END", "figure_conventions", "system_figures", "Assembled",
           "assemble"]

LADDER_START, LADDER_END = "fga", "mwzeval"
LADDER_TITLE = ("JGA from the FGA paper's convention (dst) to the reference evaluator's "
                "(state_match), one switch per rung")
PRESETS_TITLE = "JGA and slot accuracy of every system under every DST scoring preset"


def figure_conventions() -> list[Convention]:
    """Every convention :func:`system_figures` scores: the presets, then the ladder's
    (:func:`~mwzrepro.dst.conventions.ladder.ladder_conventions`)."""
    ladder = ladder_conventions(PRESETS[LADDER_START], PRESETS[LADDER_END])
    return list(dict.fromkeys([*PRESETS.values(), *ladder]))


def system_figures(system: str, label: str, version: str, corpus: Sequence[RawDialogue],
                   cache: ViewCache | None = None) -> dict[str, Any]:
    """The figures of one system on one version: ``{"system", "label", "version",
    "presets": {name: ConventionScores.as_dict()}, "ladder": [{"switch", "value", "jga",
    "change" (points)}], "order_effects": {switch: {"first", "ladder", "last"}},
    "shapley": {switch: points}}``. ``cache``: views shared with other runs (e.g. those on
    the same gold turns, warmed by :meth:`ViewCache.warm_gold` with
    :func:`figure_conventions`); a fresh one by default.

    Raises:
        InputError: a value the reference's normalization cannot read.
    """
    cache = cache or ViewCache()
    presets = {n: score_corpus(corpus, c, cache).as_dict(version) for n, c in PRESETS.items()}
    start, end = PRESETS[LADDER_START], PRESETS[LADDER_END]
    rungs = climb(corpus, start, end, cache)
    return {"system": system, "label": label, "version": version, "presets": presets,
            "ladder": [{"switch": r.switch, "value": r.value, "jga": r.scores.jga,
                        "change": r.change} for r in rungs],
            "order_effects": order_effects(corpus, start, end, rungs, cache),
            "shapley": shapley_effects(corpus, start, end, cache)}


@dataclass
class Assembled:
    """Both tables (frames, notes) and the metrics JSON."""

    ladder: pd.DataFrame
    ladder_notes: list[str]
    presets: pd.DataFrame
    presets_notes: list[str]
    metrics: dict[str, Any]


def _rung_name(r: dict[str, Any]) -> str:
    return f"{r['switch']}:{r['value']}" if r["switch"] else LADDER_START


def assemble(figures: Sequence[dict[str, Any]]) -> Assembled:
    """The two tables and the metrics from :func:`system_figures` of every run, rows ordered
    by version then system.

    Returns:
        :class:`Assembled`; ``metrics`` is ``{"presets": {version: {preset: {system: {"jga",
        "sa"}}}}, "ladder": {system@version: {rung: jga}}, "order_effects":
        {switch: {"first", "ladder", "last", "shapley"}}, "shapley": {system@version: {switch:
        points}}}`` (order effects averaged over the runs, points).
    """
    figures = sorted(figures, key=lambda f: (f["version"], f["system"]))
    ladder_rows, preset_rows = [], []
    metrics: dict[str, Any] = {"presets": {}, "ladder": {}, "order_effects": {},
                               "shapley": {}}
    effects: dict[str, dict[str, list[float]]] = {}
    for f in figures:
        row: dict[str, Any] = {"Model": f["label"], "Gold": f["version"]}
        for r in f["ladder"]:
            row[_rung_name(r)] = 100 * r["jga"]
            if r["switch"]:
                row[f"Δ {r['switch']}"] = r["change"]
        moved = max(f["ladder"][1:], key=lambda r: abs(r["change"]), default=None)
        row["largest move"] = _rung_name(moved) if moved else ""
        ladder_rows.append(row)
        metrics["ladder"][f"{f['system']}@{f['version']}"] = {
            _rung_name(r): r["jga"] for r in f["ladder"]}
        for switch, e in f["order_effects"].items():
            for k, v in {**e, "shapley": f["shapley"][switch]}.items():
                effects.setdefault(switch, {}).setdefault(k, []).append(v)
        metrics["shapley"][f"{f['system']}@{f['version']}"] = f["shapley"]
        prow: dict[str, Any] = {"Model": f["label"], "Gold": f["version"]}
        for name, s in f["presets"].items():
            prow[f"{name} JGA"] = 100 * s["jga"]
            prow[f"{name} SA"] = 100 * s["sa"]
            metrics["presets"].setdefault(f["version"], {}).setdefault(name, {})[
                f["system"]] = {"jga": s["jga"], "sa": s["sa"]}
        preset_rows.append(prow)
    metrics["order_effects"] = {
        s: {k: sum(v) / len(v) for k, v in e.items()} for s, e in effects.items()}
    order = [s for s in LADDER_ORDER if s in effects]
    ladder_notes = [
        f"Rungs from {LADDER_START} ({PRESETS[LADDER_START].signature(version='<row>')}) to "
        f"{LADDER_END} ({PRESETS[LADDER_END].signature(version='<row>')}; ver: the row's Gold "
        "column); each rung changes one switch, in this order: "
        + ", ".join(f"{s} ({SWITCH_TITLES[s]})" for s in order) + ". Δ: change of JGA in "
        "points; largest move: the rung that moves the system most.",
        "Order effects (mean over rows, points; switch changed first from fga / at its rung / "
        "last into mwzeval / averaged over every order, the Shapley value): " + "; ".join(
            f"{s} {e['first']:+.2f} / {e['ladder']:+.2f} / {e['last']:+.2f} / "
            f"{e['shapley']:+.2f}" for s, e in metrics["order_effects"].items()),
        "The first rung equals the dst table's JGA, the last the state_match table's joint "
        "accuracy (docs/scoring.md, Which JGA?).",
    ]
    presets_notes = [f"{n}: {c.signature(version='<row>')}" for n, c in PRESETS.items()]
    presets_notes.append("ver:<row>: the row's own Gold column.")
    presets_notes.append("Percentages over the scored turns; SA = 1 − wrong slots / (|S| · "
                         "turns). Presets and their scripts: spec-dst-metrics "
                         "§12.9.")
    return Assembled(pd.DataFrame(ladder_rows), ladder_notes, pd.DataFrame(preset_rows),
                     presets_notes, metrics)
