"""Rewriting one dialogue with its replacements (spec-unseen-entity-test-set §8):
utterances, span word indices, dialogue-act values, states, ``booked`` names, goal values and
goal messages, with per-entity counts of what was replaced.
"""

from __future__ import annotations

import bisect
import copy
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.unseen.entities import act_role, goal_role, state_role
from mwzrepro.unseen.families import BOOKED_ROLES
from mwzrepro.unseen.mentions import Mention, rewrite
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.plan import DialoguePlan, EntityKey, ws_tokens
from mwzrepro.unseen.replacements import Candidate
from mwzrepro.unseen.text import match_case, tokenise_like

__all__ = ["apply_plan"]


@dataclass
class _Counts:
    text: Counter = field(default_factory=Counter)
    message: Counter = field(default_factory=Counter)
    state: Counter = field(default_factory=Counter)
    act: Counter = field(default_factory=Counter)
    span: Counter = field(default_factory=Counter)
    goal: Counter = field(default_factory=Counter)
    booked: Counter = field(default_factory=Counter)
    slots: Counter = field(default_factory=Counter)


def apply_plan(dialogue: Mapping[str, Any], plan: DialoguePlan,
               assignment: Mapping[EntityKey, Candidate], params: UnseenParams
               ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Rewrite one dialogue with its assignment (§8).

    Returns:
        ``(new dialogue, report)``: a deep copy with every replacement applied, and
        ``{"counts": {entity key: {field: n}}, "slots": Counter((field, domain, slot)),
        "span_errors": [...]}``.
    """
    new = copy.deepcopy(dict(dialogue))
    counts = _Counts()
    span_errors: list[dict[str, Any]] = []
    rat = params.replace_attraction_type

    def rewrite_value(value: str, role: str | None, fld: str) -> str:
        if not isinstance(value, str) or role is None:
            return value
        parts = value.split("|")
        out = []
        for p in parts:
            hit = plan.key_of(p, role)
            if hit is None or hit[0] not in assignment:
                out.append(p)
                continue
            key, suffix = hit
            nv = assignment[key].value + ("" if not suffix else " " + " ".join(suffix))
            getattr(counts, fld)[key] += 1
            out.append(nv)
        return "|".join(out)

    def surface(m: Mention, text: str, tokenised: bool) -> str:
        s = match_case(text[m.start:m.end], assignment[m.key].surface)
        return tokenise_like(s) if tokenised else s

    def rewrite_text(text: str, mentions: list[Mention], tokenised: bool, fld: str):
        repl = []
        for m in mentions:
            if m.key in assignment:
                repl.append((m.start, m.end, surface(m, text, tokenised)))
                getattr(counts, fld)[m.key] += 1
        return rewrite(text, repl)

    for turn_id, entry in enumerate(new.get("log") or []):
        text = str(entry.get("text", ""))
        new_text, omap = rewrite_text(text, plan.turn_mentions[turn_id], plan.tokenised, "text")
        entry["text"] = new_text
        old_ws, new_ws = ws_tokens(text), ws_tokens(new_text)
        old_words = [text[s:e] for s, e in old_ws]
        new_words = [new_text[s:e] for s, e in new_ws]
        new_starts = [s for s, _ in new_ws]
        span_values: dict[tuple[str, str, str], str] = {}
        for k, span in enumerate(entry.get("span_info") or []):
            if len(span) != 5:
                continue
            act, slot, value, a, b = span
            a, b = int(a), int(b)
            role = act_role(str(act), str(slot), rat)
            if not (0 <= a <= b < len(old_ws)):
                if role is not None and isinstance(value, str):
                    span[2] = rewrite_value(value, role, "span")
                continue
            s, e = old_ws[a][0], old_ws[b][1]
            kind = omap.overlap_kind(s, e)
            if kind in ("partial", "inside"):
                span_errors.append({
                    "turn_id": turn_id, "span_index": k, "span": list(span), "kind": kind,
                    "reason": "span partially overlaps a replaced mention" if kind == "partial"
                    else "span lies inside the replaced mention of another entity"})
            ns, ne = omap.map(s, "start"), omap.map(e, "end")
            na = max(0, _token_at(new_starts, ns))
            nb = max(na, _token_at(new_starts, ne - 1))
            held = " ".join(old_words[a : b + 1]).lower() == str(value).lower()
            if kind == "covers" and held:
                nv = " ".join(new_words[na : nb + 1])
                if str(value) == str(value).lower():
                    nv = nv.lower()
                hit = plan.key_of(value, role) if role else None
                if hit is not None:
                    counts.span[hit[0]] += 1
            elif role is not None:
                nv = rewrite_value(value, role, "span")
            else:
                nv = value
            span_values[(str(act), str(slot), str(value))] = nv
            span[2], span[3], span[4] = nv, na, nb
        for act, pairs in (entry.get("dialog_act") or {}).items():
            for pair in pairs:
                if not (isinstance(pair, list) and len(pair) >= 2 and isinstance(pair[1], str)):
                    continue
                role = act_role(act, str(pair[0]), rat)
                old = pair[1]
                k3 = (act, str(pair[0]), old)
                if k3 in span_values:
                    pair[1] = span_values[k3]
                    if role is not None and (hit := plan.key_of(old, role)) is not None:
                        counts.act[hit[0]] += 1
                elif role is not None:
                    pair[1] = rewrite_value(old, role, "act")
                if pair[1] != old:
                    counts.slots[("act", act.lower(), str(pair[0]).lower())] += 1
        for dom, parts in (entry.get("metadata") or {}).items():
            if not isinstance(parts, dict):
                continue
            semi = parts.get("semi") or {}
            for slot in list(semi):
                role = state_role(dom, slot.lower(), rat)
                if role is not None and isinstance(semi[slot], str):
                    old = semi[slot]
                    semi[slot] = rewrite_value(old, role, "state")
                    if semi[slot] != old:
                        counts.slots[("state", dom, slot.lower())] += 1
            fam = BOOKED_ROLES.get(dom)
            for booked in (parts.get("book") or {}).get("booked") or []:
                if fam and isinstance(booked, dict) and isinstance(booked.get("name"), str):
                    old = booked["name"]
                    booked["name"] = rewrite_value(old, fam, "booked")
                    if booked["name"] != old:
                        counts.slots[("booked", dom, "name")] += 1
    goal = new.get("goal") or {}
    for dom, parts in goal.items():
        if not isinstance(parts, dict):
            continue
        for kind in ("info", "fail_info", "book", "fail_book"):
            for slot, value in list((parts.get(kind) or {}).items()):
                role = goal_role(dom, slot, rat)
                if role is not None and isinstance(value, str):
                    nv = rewrite_value(value, role, "goal")
                    parts[kind][slot] = nv
                    if nv != value:
                        counts.slots[("goal", dom, slot.lower())] += 1
    msgs = goal.get("message")
    if isinstance(msgs, list):
        k = 0
        for i, msg in enumerate(msgs):
            if isinstance(msg, str):
                msgs[i], _ = rewrite_text(msg, plan.message_mentions[k], False, "message")
                k += 1
    per_entity = {}
    for key in plan.order:
        per_entity[key] = {f: getattr(counts, f)[key]
                           for f in ("text", "message", "state", "act", "span", "goal", "booked")}
    return new, {"counts": per_entity, "slots": counts.slots, "span_errors": span_errors}


def _token_at(starts: list[int], pos: int) -> int:
    return bisect.bisect_right(starts, pos) - 1
