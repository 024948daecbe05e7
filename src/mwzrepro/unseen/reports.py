"""The mapping and leak reports of the unseen-entity test set
(spec-unseen-entity-test-set §9 items 2–3).

* :func:`mapping_report` — one row per (dialogue, entity): family, canonical, variants,
  replacement, SGD source and how many mentions/values were rewritten (§9 item 2).
* :func:`leak_report` — residual variants in text, leaks in structured fields, span errors,
  spans nested in another entity's mention, overlapping mentions, unresolved booking names
  (§9 item 3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.unseen.entities import act_role, goal_role, state_role
from mwzrepro.unseen.families import BOOKED_ROLES
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.testset import UnseenResult
from mwzrepro.unseen.text import find_many, index_patterns, norm, norm_words, span_of, view

__all__ = ["MAPPING_COLUMNS", "LEAK_COLUMNS", "mapping_report", "leak_report",
           "state_values", "act_values", "goal_values", "ws_words"]

MAPPING_COLUMNS = [
    "dialogue_id", "family", "canonical", "variants", "raw_values", "replacement_key",
    "replacement_surface", "sgd_sources", "n_text", "n_message", "n_state", "n_act", "n_span",
    "n_goal", "n_booked", "grounded",
]
LEAK_COLUMNS = ["dialogue_id", "leak_index", "kind", "location", "family", "canonical", "text",
                "detail"]


def mapping_report(result: UnseenResult) -> pd.DataFrame:
    """The mapping report (§9 item 2): columns :data:`MAPPING_COLUMNS`, one row per
    (dialogue, entity), key (dialogue_id, family, canonical)."""
    rows = []
    for sid, plan in result.plans.items():
        counts = result.reports[sid]["counts"]
        for key in plan.order:
            ent = plan.entities[key]
            cand = result.assignments[sid][key]
            c = counts[key]
            rows.append({
                "dialogue_id": canonical_dialogue_id(sid), "family": key[0], "canonical": key[1],
                "variants": sorted(" ".join(v) for v in ent.variants),
                "raw_values": sorted(ent.raws),
                "replacement_key": cand.key, "replacement_surface": cand.surface,
                "sgd_sources": list(cand.sources),
                **{f"n_{f}": int(c[f]) for f in ("text", "message", "state", "act", "span",
                                                 "goal", "booked")},
                "grounded": bool(c["text"] > 0),
            })
    return pd.DataFrame(rows, columns=MAPPING_COLUMNS)


def ws_words(text: str) -> list[str]:
    """The whitespace tokens of ``text``."""
    return re.findall(r"\S+", text)


def state_values(entry: Mapping[str, Any]):
    """(domain, slot, value) of metadata ``semi`` slots and ``booked`` names."""
    for dom, parts in (entry.get("metadata") or {}).items():
        if not isinstance(parts, dict):
            continue
        for slot, value in (parts.get("semi") or {}).items():
            yield "state", dom, slot.lower(), value
        for b in (parts.get("book") or {}).get("booked") or []:
            if isinstance(b, dict) and "name" in b:
                yield "booked", dom, "name", b["name"]


def act_values(entry: Mapping[str, Any]):
    """(act, slot, value) of every dialogue-act pair."""
    for act, pairs in (entry.get("dialog_act") or {}).items():
        for pair in pairs:
            if isinstance(pair, list) and len(pair) >= 2:
                yield act, str(pair[0]), pair[1]


def goal_values(dialogue: Mapping[str, Any]):
    """(domain, kind, slot, value) of the goal's info/fail_info/book/fail_book slots."""
    for dom, parts in (dialogue.get("goal") or {}).items():
        if isinstance(parts, dict):
            for kind in ("info", "fail_info", "book", "fail_book"):
                for slot, value in (parts.get(kind) or {}).items():
                    yield dom, kind, slot, value


def leak_report(base: Mapping[str, Any], result: UnseenResult, params: UnseenParams
                ) -> pd.DataFrame:
    """The leak report (§9 item 3), columns :data:`LEAK_COLUMNS`.

    Kinds:
        ``text_residual``: a variant of a replaced entity still in an utterance or goal
        message (detail says whether it lies inside another entity's replacement, which is not
        a defect); ``structured``: a variant inside a state, act, booked or goal value of a
        replaced slot; ``structured_other_slot``: the same in a non-replaced slot (an
        annotation error, kept byte-identical by §13 item 4);
        ``span_error``: a span partially overlapping a replaced mention; ``nested_span``: a
        span inside another entity's replaced mention (conflicting annotations);
        ``overlap_error``: partially overlapping mentions, neither replaced;
        ``unresolved_booking_name``: a booking name naming no entity (left unchanged).
    """
    rows: list[dict[str, Any]] = []

    def add(did, kind, location, family, canonical, text, detail=""):
        rows.append({"dialogue_id": did, "leak_index": 0, "kind": kind, "location": location,
                     "family": family, "canonical": canonical, "text": str(text),
                     "detail": detail})

    for sid, new in result.data.items():
        did = canonical_dialogue_id(sid)
        plan = result.plans[sid]
        owner = plan.owner
        index = index_patterns(owner)
        repl_words = {norm_words(c.key) for c in result.assignments[sid].values()}
        repl_index = index_patterns(repl_words)
        texts = [("turn", i, str(e.get("text", ""))) for i, e in enumerate(new.get("log") or [])]
        msgs = (new.get("goal") or {}).get("message") or []
        texts += [("goal message", i, m) for i, m in enumerate(msgs) if isinstance(m, str)]
        for where, i, text in texts:
            words = view(text)
            inside = [span_of(words, a, b, p) for a, b, p in find_many(words, repl_index, True)]
            for a, b, p in find_many(words, index, possessive=True):
                s, e = span_of(words, a, b, p)
                key = owner[p]
                if any(x <= s and e <= y for x, y in inside):
                    detail = "inside another entity's replacement"
                elif p in plan.generic:
                    detail = "generic variant, not matched in free text"
                else:
                    detail = "defect"
                add(did, "text_residual", f"{where} {i}", key[0], key[1], text[s:e], detail)
        rat = params.replace_attraction_type
        specific = {v: k for v, k in owner.items() if v not in plan.generic}
        for i, entry in enumerate(new.get("log") or []):
            for kind, dom, slot, value in state_values(entry):
                role = state_role(dom, slot, rat) if kind == "state" else BOOKED_ROLES.get(dom)
                if isinstance(value, str):
                    _structured(add, did, owner if role else specific,
                                f"{kind} {dom}-{slot} turn {i}", value, role is not None)
            for act, slot, value in act_values(entry):
                role = act_role(act, slot, rat)
                if isinstance(value, str):
                    _structured(add, did, owner if role else specific,
                                f"act {act} {slot} turn {i}", value, role is not None)
        for dom, kind, slot, value in goal_values(new):
            role = goal_role(dom, slot, rat)
            if isinstance(value, str):
                _structured(add, did, owner if role else specific,
                            f"goal {dom}.{kind}.{slot}", value, role is not None)
        for err in result.reports[sid]["span_errors"]:
            add(did, "span_error" if err["kind"] == "partial" else "nested_span",
                f"turn {err['turn_id']} span {err['span_index']}", "", "",
                str(err["span"]), err["reason"])
        for err in plan.overlap_errors:
            loc = (f"turn {err['turn_id']}" if "turn_id" in err else f"goal message "
                   f"{err['message']}")
            add(did, "overlap_error", loc, err["first"]["family"], err["first"]["canonical"],
                err["first"]["text"], f"overlaps {err['second']['text']!r} "
                f"({err['second']['family']} {err['second']['canonical']!r})")
        for u in plan.unresolved:
            add(did, "unresolved_booking_name", f"turn {u['turn_id']} {u['source']}", "", "",
                u["raw"], "names no database entity; left unchanged")
    df = pd.DataFrame(rows, columns=LEAK_COLUMNS)
    df["leak_index"] = df.groupby("dialogue_id").cumcount() if len(df) else []
    return df


def _structured(add, did, owner, location, value, replaced_slot: bool):
    nv = norm(value)
    for variant, key in owner.items():
        if " " + " ".join(variant) + " " in nv:
            if replaced_slot:
                add(did, "structured", location, key[0], key[1], value,
                    f"contains variant {' '.join(variant)!r}")
            else:
                add(did, "structured_other_slot", location, key[0], key[1], value,
                    f"contains variant {' '.join(variant)!r}; kept: values of non-replaced "
                    "slots stay byte-identical (§13 item 4), so an entity annotated in a "
                    "wrong slot remains")
            return
