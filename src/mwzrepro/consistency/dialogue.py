"""One dialogue of a split prepared for the annotation-consistency scan
(spec-annotation-consistency §2.1–2.2; section numbers refer to that spec): the user
utterances U_t, the system utterances S_t before them, the original states O_t per user turn,
and the derived "labeled" test and visible state V_t the rules read.

Input is the canonical ``dialogues``, ``turns`` and ``states`` tables of one (version, split);
they are never modified.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from mwzrepro.consistency.context import VisibleState
from mwzrepro.consistency.lexicons import is_dontcare
from mwzrepro.core.errors import InputError

__all__ = ["StateRow", "Dialogue", "dialogues_from_tables", "is_labeled", "visible_state"]


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


def is_labeled(row: StateRow | None, policy: str) -> bool:
    """"(d, s) is labeled in O_t" (§4.5, §6.3): a non-empty value that is not ``dontcare``
    (unless ``policy`` is ``keep``, where ``dontcare`` is a real label)."""
    if row is None or not row.value.strip():
        return False
    return policy == "keep" or not is_dontcare(row.value)


def visible_state(state: Mapping[tuple[str, str], StateRow]) -> VisibleState:
    """V_t (§2.2) of an original state: lowercased primary values, the names per domain and
    the domains with a visible slot, ``dontcare`` and empty values left out."""
    values, names, domains = [], {}, set()
    for (d, s), row in state.items():
        if is_dontcare(row.value) or not row.value.strip():
            continue
        values.append(row.value.lower())
        domains.add(d)
        if s == "name":
            names[d] = row.value
    return VisibleState(tuple(values), names, frozenset(domains))
