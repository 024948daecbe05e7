"""Predicted belief states of an end-to-end system from its ``predictions`` table (mwzeval
format ``{domain: {slot: value}}`` as ``state_json`` per system turn; spec-dst-metrics §2.6,
§10; section numbers refer to that spec)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

from mwzrepro.core.columns import column, is_missing
from mwzrepro.dst.state import DSTError, State, canonical_dialogue_id, make_state, nested_triples

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["predictions_from_table"]


def predictions_from_table(
    predictions: pd.DataFrame | Mapping[str, list],
    where: str = "",
    dropped: Counter | None = None,
) -> dict[str, dict[int, State]] | None:
    """Predicted belief states from a ``predictions`` table (``state_json`` per system turn).

    System turn i carries the state after user turn i (§2.6), so the turn index is kept.
    mwzeval slot spellings (``arrive``, ``leave``, ``arrive by``, ``price range``, ``people``,
    ``day``, ``time``, ``stay``) are mapped to the canonical 30 slots by
    :func:`mwzrepro.dst.state.canonical_slot`.

    Args:
        predictions: the ``predictions`` table (dialogue_id, turn, state_json, ...): a
            DataFrame or its columns (:mod:`mwzrepro.core.columns`).
        where: file label for error messages.
        dropped: if given, predicted values for slots outside the 30 (``taxi-day``,
            ``hotel-arrive``, ``hospital-department``, ...) are removed and counted here — the
            explicit filter of §2.2; if ``None`` they are an error.

    Returns:
        ``{dialogue id: {turn: state}}``, or ``None`` when no turn has a state (the system
        releases no states).

    Raises:
        DSTError: some turns have a state and others do not; ``state_json`` that is not a JSON
            object of objects of strings; two values for one slot; an unknown slot when
            ``dropped`` is ``None``. Messages name ``where``, dialogue and turn.
    """
    sj = column(predictions, "state_json")
    dids, turns = column(predictions, "dialogue_id"), column(predictions, "turn")
    has = [not is_missing(text) for text in sj]
    if not any(has):
        return None
    if not all(has):
        i = has.index(False)
        raise DSTError(f"{where}: dialogue {dids[i]}, turn {int(turns[i])}: "
                       f"no predicted state, but other turns have one (states must be given "
                       f"for every turn or none)")
    out: dict[str, dict[int, State]] = {}
    # a state_json text seen before gives the same state and the same dropped values
    seen: dict[str, tuple[State, Counter | None]] = {}
    for did, turn, text in zip(dids, turns, sj):
        did = canonical_dialogue_id(did)
        hit = seen.get(text)
        if hit is None:
            here = f"{where}: dialogue {did}, turn {int(turn)}"
            try:
                raw = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DSTError(f"{here}: unreadable state_json: {exc}") from None
            delta: Counter | None = None if dropped is None else Counter()
            hit = seen[text] = (make_state(nested_triples(raw, here), here, delta), delta)
        if hit[1]:
            dropped.update(hit[1])
        out.setdefault(did, {})[int(turn)] = dict(hit[0])
    return out
