"""Gold belief states from the canonical ``states`` and ``dialogues`` tables of one (version,
split) (spec-dst-metrics §2.4/§2.5; section numbers refer to that spec)."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from mwzrepro.dst.state import (
    Alternatives,
    DSTError,
    GoldDialogue,
    State,
    canonical_slot,
    canonical_value,
    make_state,
)

__all__ = ["gold_from_tables"]


def gold_from_tables(
    states: pd.DataFrame,
    dialogues: pd.DataFrame,
    where: str = "",
    dropped: Counter | None = None,
) -> dict[str, GoldDialogue]:
    """Gold belief states per dialogue from the canonical ``states`` and ``dialogues`` tables.

    Args:
        states: the ``states`` table (dialogue_id, turn = user-turn index, domain, slot with
            canonical names, value verbatim, alternatives, position).
        dialogues: the ``dialogues`` table (dialogue_id, n_turns = log length); N = n_turns/2.
        where: file label for error messages.
        dropped: if given, gold values outside the 30 slots are counted here (they are not in
            𝒮 and are always left out, §2.2).

    Returns:
        ``{dialogue id: GoldDialogue}`` with N canonical states each (turns without a row
        have the empty state); values canonicalised per §2.3, alternatives likewise (first =
        canonical spelling).

    Raises:
        DSTError: a state row for an unknown dialogue or a turn ≥ N, or two values for one slot
            (names ``where``, dialogue and turn).
    """
    dropped = Counter() if dropped is None else dropped
    n_user = {str(d): int(n) // 2 for d, n in zip(dialogues["dialogue_id"], dialogues["n_turns"])}
    rows: dict[tuple[str, int], list[tuple[str, str, str, list[str]]]] = {}
    cols = ["dialogue_id", "turn", "domain", "slot", "value", "alternatives"]
    ordered = states.sort_values(["dialogue_id", "turn", "position"], kind="mergesort")
    for did, turn, domain, slot, value, alts in ordered[cols].itertuples(index=False):
        did, turn = str(did), int(turn)
        if did not in n_user:
            raise DSTError(f"{where}: dialogue {did}, turn {turn}: state row for a dialogue "
                           f"missing from the dialogues table")
        if not 0 <= turn < n_user[did]:
            raise DSTError(f"{where}: dialogue {did}, turn {turn}: state turn outside the "
                           f"{n_user[did]} user turns")
        alt_list = list(alts) if alts is not None and len(alts) else [value]
        rows.setdefault((did, turn), []).append((domain, slot, value, alt_list))
    out: dict[str, GoldDialogue] = {}
    for did, n in n_user.items():
        states_t: list[State] = []
        alts_t: list[Alternatives] = []
        for t in range(n):
            here = f"{where}: dialogue {did}, turn {t}"
            trip = rows.get((did, t), [])
            state = make_state(((d, s, v) for d, s, v, _ in trip), here, dropped)
            alts: dict = {}
            for d, s, _, al in trip:
                pair = canonical_slot(d, s)
                if pair in state:
                    vals = [canonical_value(a, here) for a in al]
                    vals = [state[pair]] + [v for v in vals if v is not None and v != state[pair]]
                    alts[pair] = tuple(dict.fromkeys(vals))
            states_t.append(state)
            alts_t.append(alts)
        out[did] = GoldDialogue(tuple(states_t), tuple(alts_t))
    return out
