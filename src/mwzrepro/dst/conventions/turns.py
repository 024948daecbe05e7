"""The raw turns a convention scores: gold triples and predicted states per dialogue and turn,
before any cleaning (spec-dst-metrics §12).

Gold turn *t* of a dialogue is the belief state after user turn *t* (the ``states`` rows with
``turn == t``, in ``position`` order; N = ``n_turns // 2`` turns, turns without rows empty);
predicted turn *t* is the ``state_json`` of system turn *t* (spec-dst-metrics §2.6). The scored
turns of a dialogue are its predicted turns (contiguous from 0), as both the FGA scripts and the
reference evaluator do: a dialogue without predictions, and trailing turns without predictions,
are not scored.

>>> import pandas as pd
>>> states = pd.DataFrame({"dialogue_id": ["a"], "turn": [1], "domain": ["hotel"],
...                        "slot": ["area"], "value": ["north"], "position": [0]})
>>> gold = gold_turns(states, pd.DataFrame({"dialogue_id": ["a"], "n_turns": [4]}))
>>> gold["a"]
[(), (('hotel', 'area', 'north'),)]
>>> pred = predicted_turns({"dialogue_id": ["A.json"], "turn": [0],
...                         "state_json": ['{"hotel": {"area": "north"}}']})
>>> [d.dialogue_id for d in raw_corpus(gold, pred)], raw_corpus(gold, pred)[0].pred
(['a'], ({'hotel': {'area': 'north'}},))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mwzrepro.core.columns import column, is_missing
from mwzrepro.dst.state import DSTError, canonical_dialogue_id

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Triples", "RawDialogue", "gold_turns", "distinct_turns", "predicted_turns",
           "raw_corpus"]

#: The raw gold triples ``(domain, slot, value)`` of one turn, in ``position`` order.
Triples = tuple[tuple[str, str, Any], ...]


@dataclass(frozen=True)
class RawDialogue:
    """One dialogue's scored turns: ``gold[t]`` raw triples, ``pred[t]`` the raw predicted
    state ``{domain: {slot: value}}`` (equal states are one shared object)."""

    dialogue_id: str
    gold: tuple[Triples, ...]
    pred: tuple[Mapping[str, Any], ...]


def gold_turns(states: pd.DataFrame | Mapping[str, list],
               dialogues: pd.DataFrame | Mapping[str, list]) -> dict[str, list[Triples]]:
    """``{dialogue id: [raw gold triples per user turn]}`` from the ``states`` and
    ``dialogues`` tables (DataFrames or their columns; equal turns are one shared tuple).

    Raises:
        DSTError: a state row of a dialogue missing from ``dialogues`` or beyond its turns.
    """
    n_user = {str(d): int(n) // 2 for d, n in zip(dialogues["dialogue_id"], dialogues["n_turns"])}
    rows: dict[tuple[str, int], list[tuple[Any, str, str, Any]]] = {}
    for did, turn, position, domain, slot, value in zip(
            *(states[c] for c in ("dialogue_id", "turn", "position", "domain", "slot", "value"))):
        key = (did, turn) if type(did) is str and type(turn) is int else (str(did), int(turn))
        if key not in rows:
            if not 0 <= key[1] < n_user.get(key[0], 0):
                raise DSTError(f"states table: dialogue {key[0]}, turn {key[1]}: no such user "
                               f"turn in the dialogues table")
            rows[key] = []
        rows[key].append((position, domain, slot, value))
    shared: dict[Triples, Triples] = {}
    turns = {k: tuple(t[1:] for t in sorted(v, key=lambda t: t[0])) for k, v in rows.items()}
    return {did: [shared.setdefault(t := turns.get((did, i), ()), t) for i in range(n)]
            for did, n in n_user.items()}


def distinct_turns(gold: Mapping[str, Sequence[Triples]]) -> list[Triples]:
    """The distinct turn objects of :func:`gold_turns` (by identity, first seen first).

    >>> a, b = (("hotel", "area", "north"),), ()
    >>> distinct_turns({"x": [b, a], "y": [b, a, a]}) == [b, a]
    True
    """
    return list({id(t): t for turns in gold.values() for t in turns}.values())


def predicted_turns(predictions: pd.DataFrame | Mapping[str, list], where: str = ""
                    ) -> dict[str, dict[int, Mapping[str, Any]]] | None:
    """``{dialogue id: {turn: raw state}}`` of a ``predictions`` table, ``None`` when no turn
    has a state (equal ``state_json`` texts give one shared object).

    Raises:
        DSTError: some turns without a state while others have one; unreadable JSON or a state
            that is not an object of objects (names ``where``, dialogue and turn).
    """
    sj = column(predictions, "state_json")
    has = [not is_missing(text) for text in sj]
    if not any(has):
        return None
    dids, turns = column(predictions, "dialogue_id"), column(predictions, "turn")
    parsed: dict[str, Mapping[str, Any]] = {}
    out: dict[str, dict[int, Mapping[str, Any]]] = {}
    for did, turn, text, ok in zip(dids, turns, sj, has):
        if not ok:
            raise DSTError(f"{where}: dialogue {did}, turn {int(turn)}: no predicted state, "
                           f"but other turns have one")
        state = parsed.get(text)
        if state is None:  # a new text: parse and check it once
            here = f"{where}: dialogue {did}, turn {int(turn)}"
            try:
                state = parsed[text] = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DSTError(f"{here}: unreadable state_json: {exc}") from None
            if not isinstance(state, dict) or not all(isinstance(v, dict)
                                                      for v in state.values()):
                raise DSTError(f"{here}: state must be an object {{domain: {{slot: value}}}}")
        out.setdefault(canonical_dialogue_id(did), {})[int(turn)] = state
    return out


def raw_corpus(gold: Mapping[str, Sequence[Triples]],
               pred: Mapping[str, Mapping[int, Mapping[str, Any]]],
               where: str = "") -> list[RawDialogue]:
    """The scored dialogues (sorted by id): every predicted dialogue, its predicted turns.

    Raises:
        DSTError: a predicted dialogue absent from the gold, predicted turns not contiguous
            from 0, or more predicted than gold turns (names ``where`` and the dialogue).
    """
    out = []
    for did in sorted(pred):
        if did not in gold:
            raise DSTError(f"{where}: dialogue {did} is predicted but not in the gold states")
        turns = pred[did]
        k = len(turns)
        if sorted(turns) != list(range(k)) or k > len(gold[did]):
            raise DSTError(f"{where}: dialogue {did}: predicted turns must be 0..n-1 with n at "
                           f"most the {len(gold[did])} gold turns")
        out.append(RawDialogue(did, tuple(gold[did][:k]), tuple(turns[t] for t in range(k))))
    return out
