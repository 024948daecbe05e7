"""Acceptance checks of the unseen-entity test set (spec-unseen-entity-test-set §13) and the
stats of §9 item 4: :func:`validation_report`. Check 8 (determinism) is a property of whole
runs and is tested by re-running, not measured here. Checks 4–7 compare base and new
dialogues in :mod:`mwzrepro.unseen.dialogue_checks`; the mapping and leak reports are in
:mod:`mwzrepro.unseen.reports`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.dialogue_checks import (
    check_result,
    consistency_check,
    grounding_check,
    span_check,
    structure_check,
)
from mwzrepro.unseen.entities import act_role, goal_role, state_role
from mwzrepro.unseen.families import BOOKED_ROLES, POOL_MINIMUMS
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.replacements import Pools
from mwzrepro.unseen.reports import act_values, goal_values, state_values
from mwzrepro.unseen.seen import SeenSet
from mwzrepro.unseen.testset import UnseenResult
from mwzrepro.unseen.text import is_empty_or_dontcare

__all__ = ["validation_report"]


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
    checks["1_unseen"] = check_result(
        not bad_keys and not seen_values, replacement_keys_failing=[list(x) for x in bad_keys],
        new_values_checked=n_checked, new_values_in_seen_set=len(seen_values),
        examples=seen_values[:10], kept_values_not_entities=dict(sorted(not_entities.items())),
        u3_applied=seen.training_text is not None)
    # 2-3. leaks --------------------------------------------------------------------------
    kinds = Counter(leaks["kind"]) if len(leaks) else Counter()
    residual = leaks[leaks["kind"] == "text_residual"] if len(leaks) else leaks
    detail = Counter(residual["detail"]) if len(residual) else Counter()
    defects = detail["defect"]
    checks["2_no_structured_leaks"] = check_result(
        kinds["structured"] == 0, structured_leaks=kinds["structured"],
        entity_values_in_non_replaced_slots=kinds["structured_other_slot"],
        note="values of replaced slots are checked; entity values that annotators put into a "
             "non-replaced slot (e.g. train-leaveat 'leicester' in 2.0) are listed as "
             "structured_other_slot and kept byte-identical, as check 4 requires")
    checks["3_text_leaks"] = check_result(
        defects == 0, residual_mentions=int(len(residual)), defects=defects,
        inside_other_replacement=detail["inside another entity's replacement"],
        generic_not_matched_in_free_text=detail["generic variant, not matched in free text"],
        overlap_errors=kinds["overlap_error"],
        note="SHOULD target 0; defects are residuals not inside another entity's replacement")
    # 4. structure --------------------------------------------------------------------------
    checks["4_structure"] = structure_check(base, result.data, base_tables, new_tables, rat)
    # 5. consistency ------------------------------------------------------------------------
    checks["5_consistency"] = consistency_check(base, result, catalog)
    # 6. spans ------------------------------------------------------------------------------
    checks["6_spans"] = span_check(base, result.data, new_tables, kinds)
    # 7. grounding --------------------------------------------------------------------------
    checks["7_grounding"] = grounding_check(base, result, rat)
    # 9. coverage ---------------------------------------------------------------------------
    changed, holding, total = _changed_turns(base_tables["states"], new_tables["states"],
                                             result, rat)
    share = 100.0 * changed / total if total else 0.0
    sizes = pools.sizes()
    enabled = sorted(params.enabled_families())
    small = {f: sizes.get(f, 0) for f in enabled if sizes.get(f, 0) < POOL_MINIMUMS.get(f, 50)}
    checks["9_coverage"] = check_result(
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
