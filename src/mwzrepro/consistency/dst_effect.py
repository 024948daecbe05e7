"""Effect of the annotation-consistency correction on DST scores (the analogue of Qian et al.
2021, Table 4): every system's predicted states scored against the original and the corrected
gold states with the project's DST metrics (spec-dst-metrics; JGA, FGA, fuzzy JGA).

No metric is implemented here; this module pairs inputs, calls the DST API
(:mod:`mwzrepro.dst`) and assembles the table (:func:`effect_table`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mwzrepro.core.params import parse_list
from mwzrepro.core.signature import Signature
from mwzrepro.dst.alignment import align_states
from mwzrepro.dst.corpus import score_corpus
from mwzrepro.dst.matchers import make_matcher
from mwzrepro.dst.params import DSTParams
from mwzrepro.dst.readers.gold import gold_from_tables
from mwzrepro.dst.readers.predictions import predictions_from_table
from mwzrepro.dst.state import GoldDialogue

__all__ = ["gold_views", "score_system", "effect_signature", "EffectTable", "effect_table"]

_STATE_COLUMNS = ["dialogue_id", "turn", "domain", "slot", "value", "alternatives", "position"]


def gold_views(
    original: pd.DataFrame,
    corrected: pd.DataFrame,
    dialogues: pd.DataFrame,
    corrected_alternatives: bool = True,
    where: str = "",
) -> dict[str, dict[str, GoldDialogue]]:
    """Gold states for scoring: ``{"original": gold, "corrected": gold}`` as returned by
    :func:`mwzrepro.dst.readers.gold.gold_from_tables` (``{dialogue id: GoldDialogue}``).

    Args:
        original: the ``states`` table; corrected: the ``states_corrected`` table of the same
            (version, split); dialogues: its ``dialogues`` table.
        corrected_alternatives: accept any value of a multi-valued addition (the 2.2+ release
            writes the list, §6.4); ``False`` keeps only the primary value (the 2.0/2.1 export).

    Raises:
        DSTError: a state row outside the dialogues' turns (names ``where``, dialogue, turn).
    """
    cor = corrected[_STATE_COLUMNS].copy()
    if not corrected_alternatives:
        cor["alternatives"] = [[v] for v in cor["value"]]
    return {
        "original": gold_from_tables(original[_STATE_COLUMNS], dialogues, where + " (original)"),
        "corrected": gold_from_tables(cor, dialogues, where + " (corrected)"),
    }


def score_system(
    predictions: pd.DataFrame,
    golds: Mapping[str, Mapping[str, GoldDialogue]],
    lambdas: Sequence[float],
    fuzzy_threshold: float | str,
    excluded: Iterable[str] = (),
    missing: str = "skip",
    source: str = "",
) -> dict[str, Any] | None:
    """Score one system's predicted states against each gold view.

    Args:
        predictions: the system's ``predictions`` table (``state_json`` per system turn i =
            the state after user turn i).
        golds: from :func:`gold_views`.
        lambdas: FGA λ values. fuzzy_threshold: θ of the Levenshtein matcher (spec-dst-metrics
            §8.2, inclusive). excluded, missing: as
            :func:`mwzrepro.dst.alignment.align_states`.
        source: label for messages.

    Returns:
        ``None`` if the system releases no states; else ``{gold view: {"jga", "fga": {λ: v},
        "fuzzy_jga", "turns", "dialogues", "coverage"}}`` with fractions in [0, 1], plus
        ``"dropped_pred_slots"``.

    Raises:
        DSTError: malformed predictions (names file, dialogue and turn).
    """
    dropped: Counter = Counter()
    pred = predictions_from_table(predictions, source, dropped)
    if pred is None:
        return None
    exact = make_matcher("exact")
    fuzzy = make_matcher("fuzzy-levenshtein", fuzzy_threshold)
    out: dict[str, Any] = {"dropped_pred_slots": dict(sorted(dropped.items()))}
    for view, gold in golds.items():
        dialogues, cov = align_states(gold, pred, excluded, missing, source)
        scores, _ = score_corpus(dialogues, lambdas, exact)
        fscores, _ = score_corpus(dialogues, lambdas, fuzzy)
        out[view] = {
            "jga": scores.jga,
            "fga": {repr(float(k)): v for k, v in scores.fga.items()},
            "fuzzy_jga": fscores.jga,
            "turns": scores.turns,
            "dialogues": scores.dialogues,
            "coverage": cov.as_dict(),
        }
    return out


def effect_signature(version: str, correction_signature: str | None, alternatives: bool,
                     lambdas: Sequence[float], fuzzy_threshold: float,
                     excluded: Sequence[str]) -> str:
    """Signature of the table: gold version, both gold views, the correction's profile and
    ``dontcare`` policy (from its signature), alternatives semantics, λ values, fuzzy θ,
    excluded dialogues.

    >>> effect_signature("mwz21", None, True, [0.5], 0.9, ["pmul1455"]).split("|")[1:9]
    ['ver:mwz21', 'gold:original,corrected', 'corr:unknown', 'alts:list', 'lambdas:0.5', 'fuzzy:lev>=0.9', 'excl:pmul1455', 'slots:30']
    """
    corr = Signature.parse(correction_signature).fields if correction_signature else {}
    return Signature("DST-consistency", {
        "ver": version, "gold": "original,corrected",
        "corr": corr.get("profile", "unknown"), "dontcare": corr.get("dontcare"),
        "alts": "list" if alternatives else "primary",
        "lambdas": ",".join(repr(x) for x in lambdas), "fuzzy": f"lev>={fuzzy_threshold}",
        "excl": ",".join(excluded) or "none", "slots": 30,
    }).format()


@dataclass
class EffectTable:
    """The Table 4 analogue: frame (percentages), caption, notes, metrics record."""

    frame: pd.DataFrame
    title: str
    notes: list[str]
    metrics: dict[str, Any]


def effect_table(
    predictions: Iterable[tuple[str, str, pd.DataFrame]],
    golds: Mapping[str, Mapping[str, GoldDialogue]],
    dst: DSTParams,
    version: str,
    corrected_alternatives: bool,
    correction_signature: str | None,
    published: Mapping[str, Any],
) -> EffectTable:
    """Score every system against both gold views and assemble the table.

    Args:
        predictions: ``(system, source file, predictions table)`` per system, in table order.
        golds: from :func:`gold_views`.
        dst: the ``dst`` parameters (``lambdas`` — the table shows the first —,
            ``fuzzy_threshold``, ``excluded_dialogues``, ``missing``).
        version: the gold version; corrected_alternatives: as :func:`gold_views`.
        correction_signature: the signature of the correction (metadata of
            ``states_corrected``), or ``None``.
        published: the parsed ``qian2021.yaml`` (its ``table4`` goes into the notes).

    Returns:
        :class:`EffectTable`: per scored system JGA, FGA at the first λ and fuzzy JGA against
        the original and the corrected gold (percent); metrics ``{signature, version, systems:
        {system: score_system result}, no_states}``.

    Raises:
        DSTError: malformed predictions (names file, dialogue and turn).
    """
    lambdas = [float(x) for x in parse_list(dst.lambdas, ",")]
    excluded = parse_list(dst.excluded_dialogues, ",")
    signature = effect_signature(version, correction_signature, corrected_alternatives,
                                 lambdas, dst.fuzzy_threshold, excluded)
    rows, record, no_states = [], {}, []
    lam = repr(float(lambdas[0]))
    for system, source, frame in predictions:
        res = score_system(frame, golds, lambdas, str(dst.fuzzy_threshold), excluded,
                           dst.missing, source)
        if res is None:
            no_states.append(system)
            continue
        o, c = res["original"], res["corrected"]
        rows.append({
            "system": system, "dialogues": o["dialogues"], "turns": o["turns"],
            "JGA": 100 * o["jga"], "JGA corrected": 100 * c["jga"],
            "Δ JGA": 100 * (c["jga"] - o["jga"]),
            f"FGA({lambdas[0]:g})": 100 * o["fga"][lam],
            f"FGA({lambdas[0]:g}) corrected": 100 * c["fga"][lam],
            "fuzzy JGA": 100 * o["fuzzy_jga"], "fuzzy JGA corrected": 100 * c["fuzzy_jga"],
        })
        record[system] = res
    pub = published.get("table4", {})
    paper = "; ".join(f"{m}: " + ", ".join(f"{c} {v[0]}" for c, v in zip(pub["columns"], vals))
                      for m, vals in pub.get("rows", {}).items())
    notes = [
        "Scores in percent. Gold: MultiWOZ test states of the named version, original and after "
        "the annotation-consistency correction (reference profile). The systems were trained "
        "on uncorrected annotations; the paper's gains (Table 4) come from training and "
        "testing on the corrected data.",
        "Systems without predicted states: " + (", ".join(no_states) or "none") + ".",
        f"Paper Table 4 (TRADE/SimpleTOD/DST-BART, trained on each version; JGA): {paper}.",
        f"signature: {signature}",
    ]
    return EffectTable(
        frame=pd.DataFrame(rows),
        title=f"DST scores against original and corrected gold states ({version} test)",
        notes=notes,
        metrics={"signature": signature, "version": version, "systems": record,
                 "no_states": no_states},
    )
