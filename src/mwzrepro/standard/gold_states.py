"""Gold dialogue states per system turn, in the reference evaluator's normalized form
(spec-standard-evaluation §5.4 and §4), built from a version's canonical ``states`` table.

Gold state of system turn *i* = the belief state after user turn *i* (``states.turn == i``),
as ``{domain: {slot: value}}`` with

* domains and slots in the source order (``position``), which decides ties in active-domain
  estimation (§8.2);
* ``dontcare`` values dropped, like the MultiWOZ 2.2 gold states of the reference evaluator,
  which skip every slot whose value list contains ``dontcare`` (§5.4). For 2.0/2.1 states we
  drop the spellings :data:`DONTCARE_VALUES` (2.1 writes ``dontcare``, 2.0 ``dont care``), so a
  predicted ``dontcare`` is a false positive in the state metrics (§13) for every version;
* slot names and values normalized with :func:`mwzrepro.core.normalize_state.normalize_state` (§4.1/4.2):
  the canonical ``book people`` becomes ``bookpeople`` (the 2.2 name), ``arriveby`` →
  ``arrive``, ``leaveat`` → ``leave``, names/types/food/times canonicalized;
* a domain kept only if at least one slot remains.

Stored as the ``gold_states`` table (one row per system turn, the state as compact JSON with
key order kept, like ``predictions.state_json``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.normalize_state import normalize_state

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DONTCARE_VALUES", "build_gold_states", "gold_states_to_dict", "state_to_json"]

#: Values meaning "the user does not care" in 2.0/2.1 states; dropped from gold states.
DONTCARE_VALUES = frozenset({"dontcare", "dont care", "don't care", "do n't care",
                             "do not care"})


def state_to_json(state: dict[str, dict[str, str]]) -> str:
    """Compact JSON of a state, key order kept (the ``state_json`` convention)."""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))


def build_gold_states(states: pd.DataFrame, dialogues: pd.DataFrame) -> pd.DataFrame:
    """The ``gold_states`` table: normalized gold state of every system turn (module doc).

    Args:
        states: canonical ``states`` table (dialogue_id, turn = user-turn index, domain,
            slot, value, alternatives, position).
        dialogues: canonical ``dialogues`` table (``n_turns // 2`` system turns each; turns
            without a state row get ``{}``).

    Returns:
        DataFrame with columns dialogue_id, turn (system-turn index), state_json.

    Raises:
        InputError: a state row refers to a dialogue or turn that ``dialogues`` lacks.
    """
    import pandas as pd

    n_sys = dict(zip(dialogues["dialogue_id"], dialogues["n_turns"] // 2))
    s = states[~states["value"].isin(DONTCARE_VALUES)]
    s = s.sort_values(["dialogue_id", "turn", "position"], kind="mergesort")
    raw: dict[tuple[str, int], dict[str, dict[str, str]]] = {}
    for did, turn, domain, slot, value in zip(
        s["dialogue_id"], s["turn"], s["domain"], s["slot"], s["value"]
    ):
        if did not in n_sys or not 0 <= int(turn) < n_sys[did]:
            raise InputError(
                f"states table: dialogue {did}, turn {turn} has no system turn in the "
                "dialogues table"
            )
        raw.setdefault((did, int(turn)), {}).setdefault(domain, {})[slot] = value
    rows = []
    for did in sorted(n_sys):
        for t in range(int(n_sys[did])):
            state = normalize_state(raw.get((did, t), {}))
            state = {d: slots for d, slots in state.items() if slots}
            rows.append({"dialogue_id": did, "turn": t, "state_json": state_to_json(state)})
    return pd.DataFrame(rows, columns=["dialogue_id", "turn", "state_json"])


def gold_states_to_dict(table: pd.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """``{dialogue_id: [state per system turn]}`` from a ``gold_states`` table.

    Raises:
        InputError: a dialogue's turns are not 0, 1, ..., n-1.
    """
    out: dict[str, list[dict[str, Any]]] = {}
    t = table.sort_values(["dialogue_id", "turn"], kind="mergesort")
    for did, turn, sj in zip(t["dialogue_id"], t["turn"], t["state_json"]):
        lst = out.setdefault(did, [])
        if int(turn) != len(lst):
            raise InputError(f"gold_states: dialogue {did} has a gap before turn {turn}")
        lst.append(json.loads(sj))
    return out
