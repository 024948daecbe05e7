"""Acceptance checks of the unseen-entity test set (spec-unseen-entity-test-set §13) and the
stats of §9 item 4: :func:`validation_report`. Check 8 (determinism) is a property of whole
runs and is tested by re-running, not measured here. The mapping and leak reports are in
:mod:`mwzrepro.unseen.reports`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.prepare.ingest.convlab import EMPTY_MARKERS
from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.entities import act_role, goal_role, state_role
from mwzrepro.unseen.families import BOOKED_ROLES, POOL_MINIMUMS
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.replacements import Pools
from mwzrepro.unseen.reports import (
    act_values,
    goal_values,
    state_values,
    ws_words,
)
from mwzrepro.unseen.seen import SeenSet
from mwzrepro.unseen.testset import UnseenResult
from mwzrepro.unseen.text import (
    find_many,
    index_patterns,
    is_empty_or_dontcare,
    norm_words,
    span_of,
    view,
)

__all__ = ["validation_report"]


def _check(ok: bool, **figures) -> dict[str, Any]:
    return {"pass": bool(ok), **figures}


def validation_report(
    base: Mapping[str, Any],
    result: UnseenResult,
    base_tables: Mapping[str, pd.DataFrame],
    new_tables: Mapping[str, pd.DataFrame],
    seen: SeenSet,
    pools: Pools,
    catalog: EntityCatalog,
    params: UnseenParams,
    leaks: pd.DataFrame,
    containment: bool = True,
) -> dict[str, Any]:
    """The acceptance checks of §13 (1–7, 9) and the stats of §9 item 4.

    Args:
        base, result: the base split and the transformation result (ConvLab layout).
        base_tables, new_tables: canonical tables (``turns``, ``spans``, ``states``) of both.
        seen: S; pools: the admissible pools; catalog: MultiWOZ entities.
        params: the transformation parameters; leaks: :func:`leak_report`.
        containment: ``unseen_containment`` (U2 applied in check 1).

    Returns:
        ``{"checks": {name: {"pass": bool, ...figures}}, "stats": {...}}``; percentages are
        percent (0–100).
    """
    rat = params.replace_attraction_type
    checks: dict[str, Any] = {}
    # 1. unseen -------------------------------------------------------------------------
    bad_keys = sorted({(c.family, c.key, seen.check(c.key, c.family, containment))
                       for a in result.assignments.values() for c in a.values()
                       if seen.check(c.key, c.family, containment)})
    seen_values: list[str] = []
    not_entities = Counter()
    n_checked = 0
    for sid, new in result.data.items():
        plan = result.plans[sid]
        old = base[sid]
        for fld, role, bval, nval in _aligned_values(old, new, rat):
            if not isinstance(bval, str) or is_empty_or_dontcare(bval):
                continue
            if plan.key_of(bval, role) is None:
                not_entities[fld] += 1
                continue
            for part in nval.split("|"):
                n_checked += 1
                if part in seen:
                    seen_values.append(f"{canonical_dialogue_id(sid)} {fld}: {part!r}")
    checks["1_unseen"] = _check(
        not bad_keys and not seen_values, replacement_keys_failing=[list(x) for x in bad_keys],
        new_values_checked=n_checked, new_values_in_seen_set=len(seen_values),
        examples=seen_values[:10], kept_values_not_entities=dict(sorted(not_entities.items())),
        u3_applied=seen.training_text is not None)
    # 2-3. leaks --------------------------------------------------------------------------
    kinds = Counter(leaks["kind"]) if len(leaks) else Counter()
    residual = leaks[leaks["kind"] == "text_residual"] if len(leaks) else leaks
    detail = Counter(residual["detail"]) if len(residual) else Counter()
    defects = detail["defect"]
    checks["2_no_structured_leaks"] = _check(
        kinds["structured"] == 0, structured_leaks=kinds["structured"],
        entity_values_in_non_replaced_slots=kinds["structured_other_slot"],
        note="values of replaced slots are checked; entity values that annotators put into a "
             "non-replaced slot (e.g. train-leaveat 'leicester' in 2.0) are listed as "
             "structured_other_slot and kept byte-identical, as check 4 requires")
    checks["3_text_leaks"] = _check(
        defects == 0, residual_mentions=int(len(residual)), defects=defects,
        inside_other_replacement=detail["inside another entity's replacement"],
        generic_not_matched_in_free_text=detail["generic variant, not matched in free text"],
        overlap_errors=kinds["overlap_error"],
        note="SHOULD target 0; defects are residuals not inside another entity's replacement")
    # 4. structure --------------------------------------------------------------------------
    checks["4_structure"] = _structure_check(base, result.data, base_tables, new_tables, rat)
    # 5. consistency ------------------------------------------------------------------------
    checks["5_consistency"] = _consistency_check(base, result, catalog)
    # 6. spans ------------------------------------------------------------------------------
    checks["6_spans"] = _span_check(base, result.data, new_tables, kinds)
    # 7. grounding --------------------------------------------------------------------------
    checks["7_grounding"] = _grounding_check(base, result, rat)
    # 9. coverage ---------------------------------------------------------------------------
    changed, holding, total = _changed_turns(base_tables["states"], new_tables["states"],
                                             result, rat)
    share = 100.0 * changed / total if total else 0.0
    sizes = pools.sizes()
    enabled = sorted(params.enabled_families())
    small = {f: sizes.get(f, 0) for f in enabled if sizes.get(f, 0) < POOL_MINIMUMS.get(f, 50)}
    checks["9_coverage"] = _check(
        75.0 <= share <= 90.0 and not small, user_turns=total, turns_state_changed=changed,
        turns_state_changed_pct=round(share, 2), turns_holding_replaceable_value=holding,
        turns_holding_replaceable_value_pct=round(100.0 * holding / total, 2) if total else 0.0,
        pool_sizes={f: sizes.get(f, 0) for f in enabled}, pools_below_minimum=small,
        pool_minimums={f: POOL_MINIMUMS.get(f, 50) for f in enabled})
    stats = _stats(result, kinds, seen, params)
    return {"checks": checks, "all_pass": all(c["pass"] for c in checks.values()),
            "stats": stats}


def _aligned_values(old: Mapping[str, Any], new: Mapping[str, Any], rat: bool):
    """(field label, role, base value, new value) for every structured value of a replaced
    slot, aligned between base and new dialogue."""
    for i, (eo, en) in enumerate(zip(old.get("log") or [], new.get("log") or [])):
        for (k, dom, slot, bv), (_, _, _, nv) in zip(state_values(eo), state_values(en)):
            role = state_role(dom, slot, rat) if k == "state" else BOOKED_ROLES.get(dom)
            if role:
                yield f"{k} {dom}-{slot}", role, bv, nv
        for (act, slot, bv), (_, _, nv) in zip(act_values(eo), act_values(en)):
            role = act_role(act, slot, rat)
            if role:
                yield f"act {act}-{slot}", role, bv, nv
    for (dom, kind, slot, bv), (_, _, _, nv) in zip(goal_values(old), goal_values(new)):
        role = goal_role(dom, slot, rat)
        if role:
            yield f"goal {dom}-{slot}", role, bv, nv


def _structure_check(base, new, base_tables, new_tables, rat) -> dict[str, Any]:
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
    return _check(ok, same_dialogue_ids=ids_same, dialogues=len(base),
                  dialogues_with_other_turn_count=turn_mismatch[:10],
                  turns_with_other_span_count=span_mismatch, same_speakers=speakers_same,
                  same_state_slot_keys=keys_same, state_rows=int(len(bs)),
                  non_replaced_values_changed=nonrep_diff, dontcare_values_changed=dontcare_diff)


def _consistency_check(base, result: UnseenResult, catalog: EntityCatalog) -> dict[str, Any]:
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
    return _check(not dup and taxi_bad == 0, problems=dup[:10],
                  taxi_values_naming_db_entities=taxi_total,
                  taxi_values_without_entity_replacement=taxi_bad)


def _span_check(base, new, new_tables, kinds) -> dict[str, Any]:
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
    return _check(
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


def _grounding_check(base, result: UnseenResult, rat: bool) -> dict[str, Any]:
    """Check 7. The new text must contain the entity's replacement (the station suffix of a
    value such as "ely train station" is not required). Entities that occur in the base text
    only through generic variants (not matched in free text by design) are counted apart."""
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
    return _check(violations == 0, grounded_values_checked=checked, violations=violations,
                  generic_only_values_not_checked=generic, examples=examples)


def _changed_turns(bs: pd.DataFrame, ns: pd.DataFrame, result: UnseenResult, rat: bool
                   ) -> tuple[int, int, int]:
    keys = ["dialogue_id", "turn", "domain", "slot"]
    merged = bs.merge(ns, on=keys, how="outer", suffixes=("_b", "_n"))
    diff = merged[merged["value_b"] != merged["value_n"]]
    changed = diff[["dialogue_id", "turn"]].drop_duplicates()
    plans = {canonical_dialogue_id(sid): p for sid, p in result.plans.items()}
    holding = set()
    for did, turn, dom, slot, value in zip(bs["dialogue_id"], bs["turn"], bs["domain"],
                                           bs["slot"], bs["value"]):
        role = state_role(dom, slot, rat)
        if role and plans[did].key_of(value, role) is not None:
            holding.add((did, turn))
    # every user turn, including turns whose state is empty
    total = sum((len(d.get("log") or []) // 2) for d in result.data.values())
    return int(len(changed)), len(holding), total


def _stats(result: UnseenResult, kinds: Counter, seen: SeenSet, params: UnseenParams
           ) -> dict[str, Any]:
    ent = Counter()
    distinct: dict[str, set[str]] = {}
    ungrounded_entities = 0
    ungrounded_values = 0
    slots: dict[str, Counter] = {}
    for sid, plan in result.plans.items():
        rep = result.reports[sid]
        for key in plan.order:
            ent[key[0]] += 1
            distinct.setdefault(key[0], set()).add(result.assignments[sid][key].key)
            c = rep["counts"][key]
            if c["text"] == 0:
                ungrounded_entities += 1
                ungrounded_values += c["state"]
        for (fld, dom, slot), n in rep["slots"].items():
            slots.setdefault(fld, Counter())[f"{dom}-{slot}"] += n
    return {
        "entities_per_family": dict(sorted(ent.items())),
        "distinct_replacements_per_family": {f: len(v) for f, v in sorted(distinct.items())},
        "ungrounded_entities": ungrounded_entities,
        "ungrounded_state_values_replaced": ungrounded_values,
        "replacement_counts": {f: dict(sorted(c.items())) for f, c in sorted(slots.items())},
        "leak_kinds": dict(sorted(kinds.items())),
        "u3_applied": seen.training_text is not None,
        "training_split": "available" if seen.training_split else "unavailable",
        "seen_set_sources": seen.counts,
    }
