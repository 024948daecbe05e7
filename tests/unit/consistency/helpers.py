"""Hand-made dialogues for the annotation-consistency tests (spec-annotation-consistency).

A dialogue is written as a list of user turns ``(S_t, U_t, O_t)``: the system utterance before
the user turn (``""`` at t = 0), the user utterance, and the original state after it as
``{"domain-slot": value}``. :func:`tables` turns that into canonical ``dialogues``, ``turns``
and ``states`` tables; :func:`run` applies the correction with the fixture databases.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import pandas as pd

from mwzrepro.consistency.correct import correct_split
from mwzrepro.consistency.lexicons import build_inventories, load_databases, load_ontology
from mwzrepro.consistency.settings import CorrectionSettings
from mwzrepro.core.schemas import TABLES

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "consistency"

Turn = tuple[str, str, dict[str, str]]


def tables(dialogues: dict[str, list[Turn]]) -> dict[str, pd.DataFrame]:
    """Canonical tables of hand-made dialogues (one closing system turn is appended)."""
    d_rows, t_rows, s_rows = [], [], []
    for did, turns in dialogues.items():
        log = []
        for t, (system, user, _) in enumerate(turns):
            if t:
                log.append(("system", system))
            else:
                assert system == "", "S_0 must be empty"
            log.append(("user", user))
        log.append(("system", "Goodbye ."))
        d_rows.append({"dialogue_id": did, "source_id": did.upper(), "split": "test",
                       "n_turns": len(log)})
        for i, (spk, text) in enumerate(log):
            t_rows.append({"dialogue_id": did, "turn_id": i, "speaker": spk, "text": text})
        for t, (_, _, state) in enumerate(turns):
            for pos, (key, value) in enumerate(state.items()):
                domain, slot = key.split("-", 1)
                s_rows.append({"dialogue_id": did, "turn": t, "domain": domain, "slot": slot,
                               "value": value, "alternatives": [value], "position": pos})
    out = {
        "dialogues": pd.DataFrame(d_rows, columns=list(TABLES["dialogues"].columns)),
        "turns": pd.DataFrame(t_rows, columns=list(TABLES["turns"].columns)),
        "states": pd.DataFrame(s_rows, columns=list(TABLES["states"].columns)),
    }
    for name in ("turns", "states"):
        for col in ("turn_id", "turn", "position"):
            if col in out[name]:
                out[name][col] = out[name][col].astype("int32")
    return out


def settings(**kw) -> CorrectionSettings:
    """The reference profile with the settings ``kw`` changed (flat names, parsed values)."""
    return dataclasses.replace(CorrectionSettings.reference(), **kw)


@functools.lru_cache(maxsize=None)
def inventories(params: CorrectionSettings | None = None):
    """Inventories from the fixture databases and ontology (cached per parameter set)."""
    params = params or CorrectionSettings.reference()
    return build_inventories(load_databases(FIXTURES / "db"),
                             load_ontology(FIXTURES / "ontology.json"), params)


def run(dialogues: dict[str, list[Turn]], **kw):
    """Correct hand-made dialogues under the reference profile with the settings ``kw``
    changed; returns the :class:`CorrectionResult`."""
    params = settings(**kw)
    return correct_split(tables(dialogues), inventories(params), params, where="fixture")


def added(result, did: str | None = None) -> dict[tuple[int, str], str]:
    """``{(turn, "domain-slot"): value}`` of the added/filled slots."""
    st = result.states
    st = st[st["origin"] != "original"]
    if did is not None:
        st = st[st["dialogue_id"] == did]
    return {(int(t), f"{d}-{s}"): v for t, d, s, v in
            zip(st["turn"], st["domain"], st["slot"], st["value"])}


def detections(result, slot: str) -> list[tuple[int, tuple[str, ...], str, str]]:
    """``[(turn, values, rule of the primary, side)]`` of one ``domain-slot``."""
    ch = result.changes
    d, s = slot.split("-", 1)
    ch = ch[(ch["domain"] == d) & (ch["slot"] == s)]
    out = []
    for t, grp in ch.groupby("turn", sort=True):
        grp = grp.sort_values("rank")
        out.append((int(t), tuple(grp["value"]), grp["rule"].iloc[0], grp["side"].iloc[0]))
    return out


def convlab_json(dialogues: dict[str, list[Turn]]) -> dict:
    """A ConvLab-layout JSON for hand-made dialogues (metadata with all 7 domains)."""
    t = tables(dialogues)
    out = {}
    semi = {"taxi": ["leaveAt", "destination", "departure", "arriveBy"], "police": [],
            "restaurant": ["food", "pricerange", "name", "area"], "hospital": ["department"],
            "hotel": ["name", "area", "parking", "pricerange", "stars", "internet", "type"],
            "attraction": ["type", "name", "area"],
            "train": ["leaveAt", "destination", "day", "arriveBy", "departure"]}
    book = {"restaurant": ["people", "day", "time"], "hotel": ["people", "day", "stay"],
            "train": ["people"]}
    for did, turns in dialogues.items():
        log = []
        texts = t["turns"][t["turns"]["dialogue_id"] == did]["text"].tolist()
        for i, text in enumerate(texts):
            entry = {"text": text, "metadata": {}, "dialog_act": {}, "span_info": []}
            if i % 2:
                state = turns[min(i // 2, len(turns) - 1)][2]
                meta = {}
                for dom, slots in semi.items():
                    s = {k: state.get(f"{dom}-{k.lower()}", "") for k in slots}
                    b = {"booked": []} | {k: state.get(f"{dom}-book {k}", "")
                                          for k in book.get(dom, [])}
                    meta[dom] = {"book": b, "semi": s}
                entry["metadata"] = meta
            log.append(entry)
        out[did.upper()] = {"goal": {}, "log": log}
    return out
