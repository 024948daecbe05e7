"""Paired gold/predicted state files, the layout of the authors' TRADE and SOM-DST results
(``{dialogue: {turn: {"gt": state, "pr": state}}}``; spec-dst-metrics §10 item 1; section
numbers refer to that spec)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from mwzrepro.dst.state import (
    DialogueStates,
    DSTError,
    canonical_dialogue_id,
    make_state,
    nested_triples,
)

__all__ = ["read_paired_states"]


def read_paired_states(path: str | Path) -> dict[str, DialogueStates]:
    """Read a paired state file ``{dialogue id: {turn: {"gt": state, "pr": state}}}``.

    States are nested ``{domain: {slot: value}}``; slot names may carry or omit the ``book``
    prefix. Turn keys must be the decimal strings ``"0"`` … ``"N−1"``.

    Returns:
        ``{dialogue id (lowercase, no .json): DialogueStates}``.

    Raises:
        DSTError: unreadable JSON, wrong nesting, non-contiguous turns, a turn without ``gt``
            or ``pr``, an unknown slot or two values for one slot (names file, dialogue, turn).
    """
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DSTError(f"{path}: cannot read paired state file: {exc}") from None
    if not isinstance(raw, Mapping):
        raise DSTError(f"{path}: top level must be an object {{dialogue: {{turn: {{gt, pr}}}}}}")
    out: dict[str, DialogueStates] = {}
    for did_raw, turns in raw.items():
        did = canonical_dialogue_id(did_raw)
        here = f"{path.name}: dialogue {did_raw}"
        if not isinstance(turns, Mapping):
            raise DSTError(f"{here}: must map turn index to {{gt, pr}}")
        try:
            idx = sorted(int(k) for k in turns)
        except ValueError:
            raise DSTError(f"{here}: turn keys must be decimal integers") from None
        if idx != list(range(len(idx))):
            gap = next(t for t, k in enumerate(idx) if t != k)
            raise DSTError(f"{here}, turn {gap}: missing; turns must be contiguous from 0")
        gold, pred = [], []
        for t in idx:
            entry = turns.get(str(t))
            at = f"{here}, turn {t}"
            if not isinstance(entry, Mapping) or "gt" not in entry or "pr" not in entry:
                raise DSTError(f"{at}: needs 'gt' and 'pr' states")
            gold.append(make_state(nested_triples(entry["gt"], at + " gt"), at + " gt"))
            pred.append(make_state(nested_triples(entry["pr"], at + " pr"), at + " pr"))
        if did in out:
            raise DSTError(f"{here}: duplicate dialogue id after lowercasing")
        out[did] = DialogueStates(did, tuple(gold), tuple(pred))
    return out
