"""User goals in the reference evaluator's structure (spec-standard-evaluation §5.2).

The canonical ``goals`` table (raw 2.0/2.1 ``goal`` field, long format) is turned into the
``eval_goals`` table and from there into the dict the Inform/Success scorer reads::

    {dialogue_id: {domain: {"informable": {slot: value, ...},     # normalized (§4.1/§4.2)
                            "requestable": [UNIFIED NAME, ...],   # PHONE, ADDRESS, POST,
                                                                  # REFERENCE, TRAINID
                            "booking": {slot: value, ...} or []}}}

Derivation (§5.2, the requestable logic of the original MultiWOZ evaluation script): domains
in the order restaurant, hotel, attraction, train, taxi, hospital, police; a domain is in the
goal iff the canonical table has at least one row for it (the raw goal entry is non-empty; the
raw data never has an empty ``info``/``reqt``/``book`` part in a used domain).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.normalize_state import normalize_slot_name, normalize_value

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "GOAL_DOMAINS",
    "REQUESTABLE_NAMES",
    "Goal",
    "domain_goal",
    "build_eval_goals",
    "eval_goals_to_dict",
    "eval_goals_from_dict",
]

#: Goal domains in the order the reference goal file lists them (§5.2).
GOAL_DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "hospital", "police")

#: ``reqt`` items of non-train domains that become requestables, with their unified names.
REQUESTABLE_NAMES = {
    "phone": "PHONE",
    "address": "ADDRESS",
    "postcode": "POST",
    "reference": "REFERENCE",
    "id": "TRAINID",
}

#: One domain goal: ``{"informable": dict, "requestable": list, "booking": dict | list}``.
Goal = dict[str, Any]


def domain_goal(parts: Mapping[str, list[tuple[str, str]]], domain: str) -> Goal:
    """One domain's goal (module docstring's structure) from its raw parts ``{kind: [(slot,
    value), ...]}`` (kinds ``info``, ``reqt``, ``book``; §5.2)."""
    requestable: list[str] = []
    if "info" in parts:
        reqt = [slot for slot, _ in parts.get("reqt", [])]
        if domain == "train":
            if "book" in parts:
                requestable.append("REFERENCE")
            if "trainID" in reqt:
                requestable.append("TRAINID")
        else:
            requestable.extend(REQUESTABLE_NAMES[s] for s in reqt if s in REQUESTABLE_NAMES)
            if "book" in parts:
                requestable.append("REFERENCE")
    informable: dict[str, str] = {}
    for slot, value in parts.get("info", []):
        new = normalize_slot_name(slot)
        informable[new] = normalize_value(new, value)
    booking: dict[str, str] | list = []
    if "book" in parts:
        booking = {s: v for s, v in parts["book"] if s not in ("invalid", "pre_invalid")}
    return {"informable": informable, "requestable": requestable, "booking": booking}


def build_eval_goals(goals: pd.DataFrame) -> pd.DataFrame:
    """The ``eval_goals`` table from the canonical ``goals`` table (§5.2).

    Args:
        goals: canonical ``goals`` table (dialogue_id, domain, kind, position, slot, value).

    Returns:
        ``eval_goals`` rows: dialogue_id, domain, kind (``informable``: normalized slot name
        and value; ``requestable``: unified name in ``slot``, ``value`` empty; ``booking``:
        raw booking slot/value without ``invalid``/``pre_invalid``), position (order within
        (dialogue, domain, kind)). Domains outside :data:`GOAL_DOMAINS` are ignored.
    """
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for did, goal in _raw_goals(goals).items():
        for domain, parts in goal.items():
            g = domain_goal(parts, domain)
            for i, (s, v) in enumerate(g["informable"].items()):
                rows.append(_row(did, domain, "informable", i, s, v))
            for i, s in enumerate(g["requestable"]):
                rows.append(_row(did, domain, "requestable", i, s, ""))
            if isinstance(g["booking"], dict):
                for i, (s, v) in enumerate(g["booking"].items()):
                    rows.append(_row(did, domain, "booking", i, s, v))
            if not (g["informable"] or g["requestable"] or g["booking"]):
                # keep the domain visible even when every part is empty (never in practice)
                rows.append(_row(did, domain, "present", 0, "", ""))
    return pd.DataFrame(rows, columns=["dialogue_id", "domain", "kind", "position", "slot",
                                       "value"])


def _row(did: str, domain: str, kind: str, pos: int, slot: str, value: str) -> dict[str, Any]:
    return {"dialogue_id": did, "domain": domain, "kind": kind, "position": pos, "slot": slot,
            "value": value}


def _raw_goals(goals: pd.DataFrame) -> dict[str, dict[str, dict[str, list[tuple[str, str]]]]]:
    """``{did: {domain: {kind: [(slot, value), ...]}}}`` with domains in GOAL_DOMAINS order."""
    out: dict[str, dict[str, dict[str, list[tuple[str, str]]]]] = {}
    g = goals[goals["domain"].isin(GOAL_DOMAINS)].sort_values(
        ["dialogue_id", "domain", "kind", "position"], kind="mergesort"
    )
    for did, domain, kind, slot, value in zip(
        g["dialogue_id"], g["domain"], g["kind"], g["slot"], g["value"]
    ):
        out.setdefault(did, {}).setdefault(domain, {}).setdefault(kind, []).append((slot, value))
    return {
        did: {d: doms[d] for d in GOAL_DOMAINS if d in doms} for did, doms in sorted(out.items())
    }


def eval_goals_to_dict(table: pd.DataFrame) -> dict[str, dict[str, Goal]]:
    """The reference evaluator's goal dict (module docstring) from an ``eval_goals`` table.

    Domains come in :data:`GOAL_DOMAINS` order, slots in ``position`` order.
    """
    out: dict[str, dict[str, Goal]] = {}
    t = table.sort_values(["dialogue_id", "domain", "kind", "position"], kind="mergesort")
    for did, domain, kind, slot, value in zip(
        t["dialogue_id"], t["domain"], t["kind"], t["slot"], t["value"]
    ):
        g = out.setdefault(did, {}).setdefault(
            domain, {"informable": {}, "requestable": [], "booking": []}
        )
        if kind == "informable":
            g["informable"][slot] = value
        elif kind == "requestable":
            g["requestable"].append(slot)
        elif kind == "booking":
            if not isinstance(g["booking"], dict):
                g["booking"] = {}
            g["booking"][slot] = value
    order = {d: i for i, d in enumerate(GOAL_DOMAINS)}
    return {
        did: dict(sorted(doms.items(), key=lambda kv: order.get(kv[0], len(order))))
        for did, doms in out.items()
    }


def eval_goals_from_dict(goals: Mapping[str, Mapping[str, Goal]]) -> pd.DataFrame:
    """Inverse of :func:`eval_goals_to_dict` (e.g. to store the reference goal file
    ``goals.json`` of the reference evaluator as an ``eval_goals`` table)."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for did, doms in goals.items():
        for domain, g in doms.items():
            for i, (s, v) in enumerate(g.get("informable", {}).items()):
                rows.append(_row(did, domain, "informable", i, s, str(v)))
            for i, s in enumerate(g.get("requestable", [])):
                rows.append(_row(did, domain, "requestable", i, s, ""))
            booking = g.get("booking") or {}
            for i, (s, v) in enumerate(booking.items()):
                rows.append(_row(did, domain, "booking", i, s, str(v)))
            if not rows or rows[-1]["domain"] != domain or rows[-1]["dialogue_id"] != did:
                rows.append(_row(did, domain, "present", 0, "", ""))
    return pd.DataFrame(rows, columns=["dialogue_id", "domain", "kind", "position", "slot",
                                       "value"])
