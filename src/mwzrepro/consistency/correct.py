"""Annotation-consistency correction of MultiWOZ dialogue states (Qian et al., SIGDIAL 2021;
spec-annotation-consistency; section numbers refer to that spec).

Input: the canonical tables of one (version, split) — ``dialogues``, ``turns``, ``states`` —
plus the §5 inventories. Output (:func:`correct_split`):

* ``states_corrected``: the corrected cumulative states B'_t, same columns as ``states`` plus
  provenance (which rule added which slot, detected at which turn; §6.6 items 1 and 3);
* ``consistency_changes``: the change log, one row per detected value (§6.6 item 2).

Carry-forward (§6.1), the ``dontcare`` policy (§6.3) in writing, overrides (§10) and the change
log are implemented here; the scan, merging and multi-value policy in
:mod:`mwzrepro.consistency.detect`, the detection rules in :mod:`mwzrepro.consistency.rules`,
the inventories in :mod:`mwzrepro.consistency.lexicons`. Inputs are never modified.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
import rapidfuzz

from mwzrepro.consistency.detect import Detection, detect_dialogue
from mwzrepro.consistency.dialogue import Dialogue, dialogues_from_tables, is_labeled
from mwzrepro.consistency.lexicons import Inventories, Labeller
from mwzrepro.consistency.overrides import Override
from mwzrepro.consistency.settings import CorrectionSettings
from mwzrepro.consistency.rules import FAMILIES, SCOPE
from mwzrepro.consistency.text import PARTIAL_RATIO_IMPL
from mwzrepro.core.errors import InputError
from mwzrepro.core.schemas import TABLES
from mwzrepro.core.signature import Signature

__all__ = [
    "DOMAIN_ORDER",
    "SEMI_ORDER",
    "CorrectionResult",
    "correct_split",
    "correction_signature",
]

#: Domain order of the MultiWOZ 2.0/2.1 ``metadata`` object (for positions of added slots).
DOMAIN_ORDER: tuple[str, ...] = (
    "taxi", "police", "restaurant", "bus", "hospital", "hotel", "attraction", "train",
)
#: Order of the ``semi`` slots within each domain's ``metadata`` in MultiWOZ 2.0/2.1.
SEMI_ORDER: dict[str, tuple[str, ...]] = {
    "taxi": ("leaveat", "destination", "departure", "arriveby"),
    "restaurant": ("food", "pricerange", "name", "area"),
    "hotel": ("name", "area", "parking", "pricerange", "stars", "internet", "type"),
    "attraction": ("type", "name", "area"),
    "train": ("leaveat", "destination", "day", "arriveby", "departure"),
}


@dataclass
class CorrectionResult:
    """Output of :func:`correct_split`.

    Attributes:
        states: table ``states_corrected``. changes: table ``consistency_changes``.
        detections: every non-empty detection, ``{(dialogue_id, domain, slot): {t: Detection}}``.
        coverage: ``{"dialogues": int, "user_turns": int, "dialogues_without_state": int}``.
    """

    states: pd.DataFrame
    changes: pd.DataFrame
    detections: dict[tuple[str, str, str], dict[int, Detection]]
    coverage: dict[str, int]


def _apply_overrides(
    detections: dict[tuple[str, str, str], dict[int, Detection]],
    dialogues: Mapping[str, Dialogue],
    overrides: Sequence[Override],
) -> None:
    for o in overrides:
        dia = dialogues.get(o.dialogue_id)
        if dia is None or not 0 <= o.turn < dia.n_turns:
            raise InputError(f"override for dialogue {o.dialogue_id}, turn {o.turn}: no such "
                             "dialogue turn in this split")
        if (o.domain, o.slot) not in SCOPE:
            raise InputError(f"override for dialogue {o.dialogue_id}, turn {o.turn}: "
                             f"{o.domain}-{o.slot} is not a corrected slot")
        key = (o.dialogue_id, o.domain, o.slot)
        per_turn = detections.setdefault(key, {})
        if o.value.strip().lower() == "none":
            per_turn.pop(o.turn, None)
        else:
            per_turn[o.turn] = Detection(o.dialogue_id, o.turn, o.domain, o.slot, (o.value,),
                                         (None,), (o.value,))
        if not per_turn:
            del detections[key]


# ------------------------------------------------------------------------ carry-forward
def _insert_position(order: list[tuple[str, str]], d: str, s: str) -> None:
    """Insert (d, s) where the 2.0/2.1 metadata layout puts it."""
    semi = SEMI_ORDER.get(d, ())
    rank = semi.index(s) if s in semi else len(semi)
    same = [i for i, (dd, _) in enumerate(order) if dd == d]
    if same:
        for i in same:
            ss = order[i][1]
            other = semi.index(ss) if ss in semi else len(semi) + 1
            if other > rank:
                order.insert(i, (d, s))
                return
        order.insert(same[-1] + 1, (d, s))
        return
    drank = DOMAIN_ORDER.index(d) if d in DOMAIN_ORDER else len(DOMAIN_ORDER)
    for i, (dd, _) in enumerate(order):
        r = DOMAIN_ORDER.index(dd) if dd in DOMAIN_ORDER else len(DOMAIN_ORDER)
        if r > drank:
            order.insert(i, (d, s))
            return
    order.append((d, s))


def _corrected_rows(
    dialogue: Dialogue,
    detections: Mapping[tuple[str, str], Mapping[int, Detection]],
    policy: str,
) -> list[dict]:
    """B'_t for every turn of one dialogue (§6.1), as ``states_corrected`` rows."""
    written: dict[int, dict[tuple[str, str], Detection]] = defaultdict(dict)
    for (d, s), per_turn in detections.items():
        carried: Detection | None = None
        for t in range(dialogue.n_turns):
            if is_labeled(dialogue.states[t].get((d, s)), policy):
                carried = None
                continue
            det = per_turn.get(t)
            if det is not None and det.applied:
                carried = det
            if carried is not None:
                written[t][(d, s)] = carried
    rows = []
    for t in range(dialogue.n_turns):
        orig = dialogue.states[t]
        order = sorted(orig, key=lambda k: orig[k].position)
        for key in sorted(written[t], key=lambda k: SCOPE.index(k)):
            if key not in orig:
                _insert_position(order, *key)
        for pos, (d, s) in enumerate(order):
            det = written[t].get((d, s))
            row = orig.get((d, s))
            if det is None:
                rows.append({"dialogue_id": dialogue.dialogue_id, "turn": t, "domain": d,
                             "slot": s, "value": row.value, "alternatives": list(row.alternatives),
                             "position": pos, "origin": "original", "rule": None, "side": None,
                             "detected_turn": -1, "replaced_value": None})
            else:
                rows.append({"dialogue_id": dialogue.dialogue_id, "turn": t, "domain": d,
                             "slot": s, "value": det.applied[0],
                             "alternatives": list(det.applied), "position": pos,
                             "origin": "filled" if row is not None else "added",
                             "rule": det.rule, "side": det.side, "detected_turn": det.turn,
                             "replaced_value": row.value if row is not None else None})
    return rows


def _change_rows(det: Detection, dialogue: Dialogue, span_slot: bool,
                 add_system_spans: bool) -> list[dict]:
    rows = []
    for rank, (value, hit) in enumerate(zip(det.values, det.hits)):
        applied = value in det.applied
        if hit is None:
            surface, start, end, evidence, rule, side = None, -1, -1, "override", "override", \
                "override"
        else:
            text = dialogue.users[det.turn] if hit.where == "user" else dialogue.systems[det.turn]
            start, end = hit.start, hit.end
            surface = text[start:end] if start >= 0 else None
            evidence, rule, side = hit.where, hit.rule, hit.side
        span = bool(
            applied and span_slot and surface is not None
            and (evidence == "user" or (add_system_spans and evidence == "system"))
            and surface.lower() == value.lower()
        )
        rows.append({"dialogue_id": det.dialogue_id, "turn": det.turn, "domain": det.domain,
                     "slot": det.slot, "rank": rank, "value": value, "applied": applied,
                     "rule": rule, "side": side, "evidence": evidence, "surface": surface,
                     "start": start, "end": end, "span": span})
    return rows


def correct_split(
    tables: Mapping[str, pd.DataFrame],
    inventories: Inventories,
    params: CorrectionSettings,
    where: str = "",
) -> CorrectionResult:
    """Apply the annotation-consistency correction to one (version, split).

    Args:
        tables: canonical ``dialogues``, ``turns`` and ``states`` tables (not modified).
        inventories: from :func:`mwzrepro.consistency.lexicons.build_inventories`.
        params: every §10 parameter (``overrides`` included).
        where: a label (file or version/split) for error messages.

    Returns:
        :class:`CorrectionResult` with tables ``states_corrected`` (B'_t, rows sorted by key)
        and ``consistency_changes`` (the change log).

    Raises:
        InputError: malformed turns or states, or an override naming a missing turn or an
            uncorrected slot.
    """
    dialogues = dialogues_from_tables(tables, where)
    by_id = {d.dialogue_id: d for d in dialogues}
    labeller = Labeller(tables["states"])
    detections: dict[tuple[str, str, str], dict[int, Detection]] = {}
    for dia in dialogues:
        for (d, s), per_turn in detect_dialogue(dia, inventories, params, labeller).items():
            detections[(dia.dialogue_id, d, s)] = per_turn
    _apply_overrides(detections, by_id, params.overrides)
    per_dialogue: dict[str, dict[tuple[str, str], dict[int, Detection]]] = defaultdict(dict)
    for (did, d, s), per_turn in detections.items():
        per_dialogue[did][(d, s)] = per_turn
    families = {(f.domain, f.slot): f for f in FAMILIES}
    state_rows: list[dict] = []
    change_rows: list[dict] = []
    for dia in dialogues:
        dets = per_dialogue.get(dia.dialogue_id, {})
        state_rows += _corrected_rows(dia, dets, params.dontcare_policy)
        for (d, s), per_turn in sorted(dets.items()):
            for t in sorted(per_turn):
                change_rows += _change_rows(per_turn[t], dia, families[(d, s)].span_slot,
                                            params.add_system_spans)
    states = pd.DataFrame(state_rows, columns=list(TABLES["states_corrected"].columns))
    changes = pd.DataFrame(change_rows, columns=list(TABLES["consistency_changes"].columns))
    for col in ("turn", "position", "detected_turn"):
        states[col] = states[col].astype("int32")
    for col in ("turn", "rank", "start", "end"):
        changes[col] = changes[col].astype("int32")
    coverage = {
        "dialogues": len(dialogues),
        "user_turns": sum(d.n_turns for d in dialogues),
        "dialogues_without_state": sum(1 for d in dialogues if not any(d.states)),
    }
    return CorrectionResult(states, changes, detections, coverage)


def correction_signature(version: str, split: str, settings: CorrectionSettings) -> str:
    """Signature of a correction run: version, split, profile (``reference`` or the names of
    the settings that differ), ``dontcare`` and multi-value policies, the fuzzy matcher and
    its library version (or ``off``), the number of overrides.

    >>> correction_signature("mwz21", "test", CorrectionSettings.reference()).split("|")[:6]
    ['consistency', 'ver:mwz21', 'split:test', 'profile:reference', 'dontcare:fill', 'multi:alternatives']
    """
    return Signature("consistency", {
        "ver": version,
        "split": split,
        "profile": settings.profile_name(),
        "dontcare": settings.dontcare_policy,
        "multi": settings.multi_value_policy,
        "fuzzy": f"{PARTIAL_RATIO_IMPL}-{rapidfuzz.__version__}" if settings.fuzzy_enabled
        else "off",
        "overrides": len(settings.overrides),
    }).format()
