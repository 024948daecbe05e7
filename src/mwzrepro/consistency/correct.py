"""Annotation-consistency correction of MultiWOZ dialogue states (Qian et al., SIGDIAL 2021;
spec-annotation-consistency).

Input: the canonical tables of one (version, split) — ``dialogues``, ``turns``, ``states`` —
plus the §5 inventories. Output (:func:`correct_split`):

* ``states_corrected``: the corrected cumulative states B'_t, same columns as ``states`` plus
  provenance (which rule added which slot, detected at which turn; §6.6 items 1 and 3);
* ``consistency_changes``: the change log, one row per detected value (§6.6 item 2).

The scan skeleton (§4.5), merging (§4.6), the multi-value policy (§6.4), carry-forward (§6.1),
the ``dontcare`` policy (§6.3) and overrides (§10) are implemented here; the detection rules
are in :mod:`mwzrepro.consistency.rules`, the inventories in
:mod:`mwzrepro.consistency.lexicons`. Inputs are never modified.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from mwzrepro.consistency.lexicons import Inventories, Labeller, is_dontcare
from mwzrepro.consistency.params import ConsistencyParams, Override
from mwzrepro.consistency.context import Hit, TurnContext, VisibleState
from mwzrepro.consistency.rules import FAMILIES, Family
from mwzrepro.core.errors import InputError
from mwzrepro.core.schemas import TABLES

__all__ = [
    "SCOPE",
    "DOMAIN_ORDER",
    "SEMI_ORDER",
    "StateRow",
    "Dialogue",
    "Detection",
    "CorrectionResult",
    "dialogues_from_tables",
    "merge_hits",
    "detect_dialogue",
    "correct_split",
]

#: The 17 corrected (domain, slot) pairs, in §3 order.
SCOPE: tuple[tuple[str, str], ...] = tuple((f.domain, f.slot) for f in FAMILIES)

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


@dataclass(frozen=True)
class StateRow:
    """One slot of an original state: primary value, all alternatives, source position."""

    domain: str
    slot: str
    value: str
    alternatives: tuple[str, ...]
    position: int


@dataclass
class Dialogue:
    """One dialogue prepared for scanning (§2.1).

    Attributes:
        dialogue_id: canonical id. users: U_0..U_{N−1}. systems: S_0..S_{N−1} (S_0 = '').
        states: O_t per user turn: ``{(domain, slot): StateRow}`` in source order.
    """

    dialogue_id: str
    users: list[str]
    systems: list[str]
    states: list[dict[tuple[str, str], StateRow]] = field(default_factory=list)

    @property
    def n_turns(self) -> int:
        """N, the number of user turns."""
        return len(self.users)


@dataclass(frozen=True)
class Detection:
    """The merged detection A_t of one family at one turn (§4.6, §6.4).

    Attributes:
        values: merged labels, primary first. hits: the hit behind each value.
        applied: values written to the state under ``multi_value_policy``.
    """

    dialogue_id: str
    turn: int
    domain: str
    slot: str
    values: tuple[str, ...]
    hits: tuple[Hit | None, ...]
    applied: tuple[str, ...]

    @property
    def side(self) -> str:
        """Side of the primary value (``user``, ``system`` or ``override``)."""
        h = self.hits[0]
        return h.side if h is not None else "override"

    @property
    def rule(self) -> str:
        """Rule id of the primary value (``override`` for forced decisions)."""
        h = self.hits[0]
        return h.rule if h is not None else "override"


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


# ------------------------------------------------------------------------------ input
def dialogues_from_tables(tables: Mapping[str, pd.DataFrame], where: str = "") -> list[Dialogue]:
    """Prepare every dialogue of a split from its canonical ``dialogues``, ``turns`` and
    ``states`` tables, in dialogue-id order.

    Raises:
        InputError: a dialogue without turns, a turn whose speaker does not match its log
            position, or a state row whose user turn does not exist (names ``where``, the
            dialogue and the turn).
    """
    label = f"{where}: " if where else ""
    turns = tables["turns"].sort_values(["dialogue_id", "turn_id"], kind="mergesort")
    by_dialogue: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for did, tid, spk, text in zip(turns["dialogue_id"], turns["turn_id"], turns["speaker"],
                                   turns["text"]):
        by_dialogue[did].append((int(tid), spk, text))
    ids = sorted(set(tables["dialogues"]["dialogue_id"]) | set(by_dialogue))
    out: dict[str, Dialogue] = {}
    for did in ids:
        rows = by_dialogue.get(did)
        if not rows:
            raise InputError(f"{label}dialogue {did}: no turns")
        users, systems = [], []
        for k, (tid, spk, text) in enumerate(rows):
            expected = "user" if tid % 2 == 0 else "system"
            if tid != k or spk != expected:
                raise InputError(f"{label}dialogue {did}, turn {tid}: expected the {expected} "
                                 f"utterance at log position {k}, found {spk!r} at {tid}")
            if spk == "user":
                systems.append(rows[k - 1][2] if k else "")
                users.append(text)
        out[did] = Dialogue(did, users, systems, [{} for _ in users])
    st = tables["states"].sort_values(["dialogue_id", "turn", "position"], kind="mergesort")
    for did, t, d, s, v, alts, pos in zip(st["dialogue_id"], st["turn"], st["domain"],
                                          st["slot"], st["value"], st["alternatives"],
                                          st["position"]):
        dia = out.get(did)
        if dia is None or not 0 <= int(t) < dia.n_turns:
            raise InputError(f"{label}dialogue {did}, turn {t}: state row for a user turn "
                             "that does not exist")
        alts_t = tuple(alts) if alts is not None and len(alts) else (v,)
        dia.states[int(t)][(d, s)] = StateRow(d, s, v, alts_t, int(pos))
    return [out[d] for d in ids]


def _labeled(row: StateRow | None, policy: str) -> bool:
    """"(d, s) is labeled in O_t" (§4.5, §6.3)."""
    if row is None or not row.value.strip():
        return False
    return policy == "keep" or not is_dontcare(row.value)


def _visible(state: Mapping[tuple[str, str], StateRow]) -> VisibleState:
    values, names, domains = [], {}, set()
    for (d, s), row in state.items():
        if is_dontcare(row.value) or not row.value.strip():
            continue
        values.append(row.value.lower())
        domains.add(d)
        if s == "name":
            names[d] = row.value
    return VisibleState(tuple(values), names, frozenset(domains))


# ---------------------------------------------------------------------------- detection
def merge_hits(hits: Sequence[Hit]) -> list[Hit]:
    """Merge the values one family found at one turn (§4.6).

    Compares values without a leading "the "; a value contained in another is dropped in
    favour of the longer one; duplicates are dropped; survivors are ordered by their first
    evidence position in W_t. Returns one hit per surviving value (its first evidence).
    """
    first: dict[str, Hit] = {}
    for h in sorted(hits, key=lambda h: (h.order, h.value)):
        first.setdefault(h.value, h)

    def bare(v: str) -> str:
        v = v.lower()
        return v[4:] if v.startswith("the ") else v

    keep = []
    for v, h in first.items():
        bv = bare(v)
        dominated = False
        for o, ho in first.items():
            if o == v:
                continue
            bo = bare(o)
            if bv == bo:
                if len(o) > len(v) or (len(o) == len(v) and ho.order < h.order):
                    dominated = True
            elif bv in bo:
                dominated = True
            if dominated:
                break
        if not dominated:
            keep.append(h)
    return sorted(keep, key=lambda h: (h.order, h.value))


def _apply_policy(values: tuple[str, ...], policy: str) -> tuple[str, ...]:
    if policy == "skip" and len(values) > 1:
        return ()
    if policy == "first":
        return values[:1]
    return values


def detect_dialogue(
    dialogue: Dialogue,
    inv: Inventories,
    params: ConsistencyParams,
    labeller: Labeller,
    families: Sequence[Family] = FAMILIES,
) -> dict[tuple[str, str], dict[int, Detection]]:
    """Run every family's scan (§4.5) over one dialogue.

    Returns:
        ``{(domain, slot): {t: Detection}}`` with only non-empty detections; a family runs only
        if the dialogue is domain-related for its domain (§2.2).
    """
    contexts: list[TurnContext] = []
    visible = [_visible(s) for s in dialogue.states]
    prev = None
    for t in range(dialogue.n_turns):
        prev = TurnContext(t, dialogue.users[t], dialogue.systems[t], visible[t], prev, inv,
                           params)
        contexts.append(prev)
    related = set().union(*(v.domains for v in visible)) if visible else set()
    out: dict[tuple[str, str], dict[int, Detection]] = {}
    for fam in families:
        if fam.domain not in related:
            continue
        found: dict[int, Detection] = {}
        for t, c in enumerate(contexts):
            if _labeled(dialogue.states[t].get((fam.domain, fam.slot)), params.dontcare_policy):
                if fam.scan == "skip":
                    continue
                break
            hits = fam.user(c)
            if not hits:
                hits = fam.system(c)
                if (hits and params.require_no_rejection
                        and any(cue in c.u for cue in params.rejection_cues)):
                    hits = []
            if not hits:
                continue
            if fam.respell:
                hits = [Hit(labeller(fam.domain, fam.slot, h.value), h.rule, h.side, h.where,
                            h.start, h.end, h.order) for h in hits]
            merged = merge_hits(hits)
            values = tuple(h.value for h in merged)
            found[t] = Detection(dialogue.dialogue_id, t, fam.domain, fam.slot, values,
                                 tuple(merged), _apply_policy(values, params.multi_value_policy))
        if found:
            out[(fam.domain, fam.slot)] = found
    return out


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
            if _labeled(dialogue.states[t].get((d, s)), policy):
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
    params: ConsistencyParams,
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
