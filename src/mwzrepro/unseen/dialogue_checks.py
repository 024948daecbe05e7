"""Checks 4–7 of the unseen-entity test set's acceptance (spec-unseen-entity-test-set §13),
each comparing the base split with the transformation result dialogue by dialogue: structure
(4), consistency of the replacements (5), spans (6) and grounding in the text (7). Each
returns one entry of :func:`mwzrepro.unseen.validate.validation_report`'s ``checks``:
``{"pass": bool, **figures}`` (:func:`check_result`).
"""

from __future__ import annotations

from typing import Any

from mwzrepro.prepare.ingest.convlab import EMPTY_MARKERS
from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.entities import state_role
from mwzrepro.unseen.reports import state_values, ws_words
from mwzrepro.unseen.testset import UnseenResult
from mwzrepro.unseen.text import (
    find_many,
    index_patterns,
    is_empty_or_dontcare,
    norm_words,
    span_of,
    view,
)

__all__ = ["check_result", "consistency_check", "grounding_check", "span_check",
           "structure_check"]


def check_result(ok: bool, **figures) -> dict[str, Any]:
    """One check of the report: ``{"pass": bool, **figures}``.

    >>> check_result(1, dialogues=2)
    {'pass': True, 'dialogues': 2}
    """
    return {"pass": bool(ok), **figures}


def structure_check(base, new, base_tables, new_tables, rat) -> dict[str, Any]:
    """Check 4: the same dialogues, turns, speakers, span counts and state keys as the base,
    and every value of a non-replaced slot (dontcare included) unchanged."""
    ids_same = list(base) == list(new)
    turn_mismatch = []
    span_mismatch = 0
    for sid in base:
        bl, nl = base[sid].get("log") or [], (new.get(sid) or {}).get("log") or []
        if len(bl) != len(nl):
            turn_mismatch.append(sid)
            continue
        for eb, en in zip(bl, nl):
            if len(eb.get("span_info") or []) != len(en.get("span_info") or []):
                span_mismatch += 1
    bt, nt = base_tables["turns"], new_tables["turns"]
    speakers_same = (bt[["dialogue_id", "turn_id", "speaker"]].reset_index(drop=True)
                     .equals(nt[["dialogue_id", "turn_id", "speaker"]].reset_index(drop=True)))
    keys = ["dialogue_id", "turn", "domain", "slot"]
    bs = base_tables["states"].sort_values(keys).reset_index(drop=True)
    ns = new_tables["states"].sort_values(keys).reset_index(drop=True)
    keys_same = bs[keys].equals(ns[keys])
    nonrep_diff = dontcare_diff = 0
    if keys_same:
        replaced = [state_role(d, s, rat) is not None for d, s in zip(bs["domain"], bs["slot"])]
        for rep, bv, nv in zip(replaced, bs["value"], ns["value"]):
            if is_empty_or_dontcare(bv) and bv not in EMPTY_MARKERS and bv != nv:
                dontcare_diff += 1
            elif not rep and bv != nv:
                nonrep_diff += 1
    ok = (ids_same and not turn_mismatch and not span_mismatch and speakers_same and keys_same
          and not nonrep_diff and not dontcare_diff)
    return check_result(ok, same_dialogue_ids=ids_same, dialogues=len(base),
                  dialogues_with_other_turn_count=turn_mismatch[:10],
                  turns_with_other_span_count=span_mismatch, same_speakers=speakers_same,
                  same_state_slot_keys=keys_same, state_rows=int(len(bs)),
                  non_replaced_values_changed=nonrep_diff, dontcare_values_changed=dontcare_diff)


def consistency_check(base, result: UnseenResult, catalog: EntityCatalog) -> dict[str, Any]:
    """Check 5: one replacement per entity, no two entities sharing one, and every taxi
    departure/destination naming a database entity replaced by that entity's replacement."""
    dup = []
    taxi_total = taxi_bad = 0
    for sid, assignment in result.assignments.items():
        plan = result.plans[sid]
        if set(assignment) != set(plan.entities):
            dup.append(f"{sid}: entities without a replacement")
        keys = [c.key for c in assignment.values()]
        if len(keys) != len(set(keys)):
            dup.append(f"{sid}: two entities share a replacement")
        for eo, en in zip(base[sid].get("log") or [], result.data[sid].get("log") or []):
            for dom in ("taxi",):
                so = ((eo.get("metadata") or {}).get(dom) or {}).get("semi") or {}
                sn = ((en.get("metadata") or {}).get(dom) or {}).get("semi") or {}
                for slot in ("departure", "destination"):
                    v = so.get(slot)
                    if not isinstance(v, str) or is_empty_or_dontcare(v):
                        continue
                    hit = plan.key_of(v, "DERIVED")
                    if hit is None or not catalog.is_known(hit[0]) or hit[0][0] == "CITY":
                        continue
                    taxi_total += 1
                    if sn.get(slot) != assignment[hit[0]].value:
                        taxi_bad += 1
    return check_result(not dup and taxi_bad == 0, problems=dup[:10],
                  taxi_values_naming_db_entities=taxi_total,
                  taxi_values_without_entity_replacement=taxi_bad)


def span_check(base, new, new_tables, kinds) -> dict[str, Any]:
    """Check 6: every span whose tokens read its value in the base still does in the new
    text (spans nested in another entity's mention excepted), and every character span lies
    inside its turn's text."""
    held = ok = 0
    failures = []
    for sid in base:
        for i, (eb, en) in enumerate(zip(base[sid].get("log") or [],
                                         new[sid].get("log") or [])):
            wb, wn = ws_words(str(eb.get("text", ""))), ws_words(str(en.get("text", "")))
            for sb, sn in zip(eb.get("span_info") or [], en.get("span_info") or []):
                a, b = int(sb[3]), int(sb[4])
                if not (0 <= a <= b < len(wb)):
                    continue
                if " ".join(wb[a : b + 1]).lower() != str(sb[2]).lower():
                    continue
                held += 1
                na, nb = int(sn[3]), int(sn[4])
                if " ".join(wn[na : nb + 1]).lower() == str(sn[2]).lower():
                    ok += 1
                else:
                    failures.append(f"{sid} turn {i}: {sn[:3]} tokens "
                                    f"{' '.join(wn[na:nb + 1])!r}")
    char_bad = 0
    sp = new_tables["spans"]
    turns = new_tables["turns"].set_index(["dialogue_id", "turn_id"])["text"]
    for did, tid, value, s, e in zip(sp["dialogue_id"], sp["turn_id"], sp["value"], sp["start"],
                                     sp["end"]):
        text = turns.loc[(did, tid)]
        if not (0 <= s <= e <= len(text)):
            char_bad += 1
    nested = kinds["nested_span"]
    return check_result(
        kinds["span_error"] == 0 and len(failures) <= nested and char_bad == 0,
        span_errors=kinds["span_error"], nested_spans=nested, spans_property_held_in_base=held,
        spans_property_still_held=ok, spans_property_lost=len(failures),
        examples=failures[:10], character_spans_outside_text=char_bad,
        note="spans nested in another entity's replaced mention (conflicting annotations, "
             "e.g. Type 'hotel' on the name 'Ashley Hotel') cannot keep their text; they are "
             "listed in the leak report as nested_span")


def _first_occurrence(plan, base_log) -> dict:
    """{entity key: first log position where one of its variants occurs in a base utterance,
    outside the mention of another entity} ("nandos" inside "nandos city centre" does not
    count)."""
    index = index_patterns(plan.owner)
    first: dict = {}
    for i, entry in enumerate(base_log):
        words = view(str(entry.get("text", "")))
        for a, b, p in find_many(words, index, possessive=True):
            key = plan.owner[p]
            if key in first:
                continue
            s, e = span_of(words, a, b, p)
            if any(m.key != key and m.start <= s and e <= m.end
                   for m in plan.turn_mentions[i]):
                continue
            first[key] = i
    return first


def grounding_check(base, result: UnseenResult, rat: bool) -> dict[str, Any]:
    """Check 7 (grounding). The new text must contain the entity's replacement (the station
    suffix of a value such as "ely train station" is not required). Entities that occur in the
    base text only through generic variants (not matched in free text by design) are counted
    apart."""
    checked = violations = generic = 0
    examples = []
    for sid, new in result.data.items():
        plan = result.plans[sid]
        bl, nl = base[sid].get("log") or [], new.get("log") or []
        first = _first_occurrence(plan, bl)
        assignment = result.assignments[sid]
        views: list = []
        for i in range(0, len(bl) - 1, 2):
            if i > 0:
                views.append(view(str(nl[i - 1].get("text", ""))))
            views.append(view(str(nl[i].get("text", ""))))
            for (k, dom, slot, bv), (_, _, _, nv) in zip(state_values(bl[i + 1]),
                                                         state_values(nl[i + 1])):
                role = state_role(dom, slot, rat) if k == "state" else None
                if role is None or not isinstance(bv, str) or is_empty_or_dontcare(bv):
                    continue
                hit = plan.key_of(bv, role)
                if hit is None or first.get(hit[0], len(bl)) > i:
                    continue
                if hit[0] not in plan.first_mention_keys():
                    generic += 1
                    continue
                checked += 1
                pattern = norm_words(assignment[hit[0]].value)
                index = index_patterns([pattern])
                if not any(find_many(w, index, possessive=True) for w in views):
                    violations += 1
                    if len(examples) < 10:
                        examples.append(f"{sid} turn {i // 2} {dom}-{slot}: {bv!r} -> {nv!r}")
    return check_result(violations == 0, grounded_values_checked=checked, violations=violations,
                  generic_only_values_not_checked=generic, examples=examples)
