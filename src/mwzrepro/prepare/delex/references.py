"""The ``references`` table every reference delexicalization style writes (span, HDSA, DAMD,
AuGPT, UniConv; Nekvinda & Dušek 2021, Table 4): one row per system turn with the original
text, the style's delexicalized response and the BLEU reference (the response normalized as
in spec-standard-evaluation §3).

>>> rows = [reference_row("d1", 0, "The Ivy is nice .", "[restaurant_name] is nice .")]
>>> references_frame(rows)[["dialogue_id", "turn", "reference"]].values.tolist()
[['d1', 0, 'NAME is nice.']]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pandas as pd

from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.core.normalize import normalize_response

__all__ = ["REFERENCE_COLUMNS", "reference_row", "references_frame", "system_turns"]

#: Columns of a ``references`` table, in order.
REFERENCE_COLUMNS = ["dialogue_id", "turn", "text", "delex", "reference"]


def reference_row(dialogue_id: str, turn: int, text: str, delex: str,
                  unknown: Counter[str] | None = None) -> dict[str, Any]:
    """One ``references`` row: ``turn`` is the system-turn index; ``reference`` is ``delex``
    normalized (:func:`mwzrepro.core.normalize.normalize_response`, which counts the
    placeholder names it deletes into ``unknown``)."""
    return {"dialogue_id": dialogue_id, "turn": turn, "text": text, "delex": delex,
            "reference": normalize_response(delex, unknown)}


def references_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """The ``references`` table (:data:`REFERENCE_COLUMNS`) of :func:`reference_row` rows."""
    return pd.DataFrame(list(rows), columns=REFERENCE_COLUMNS)


def system_turns(dialogues: Mapping[str, Mapping[str, Any]]
                 ) -> Iterator[tuple[str, int, Mapping[str, Any], Mapping[str, Any]]]:
    """``(dialogue id, system-turn index, log entry, dialogue)`` of every system turn of raw
    ConvLab-layout dialogues ``{source id: {"log": [user, system, ...]}}``, in order; ids
    canonical (:func:`mwzrepro.core.ids.canonical_dialogue_id`)."""
    for source_id, dialogue in dialogues.items():
        did = canonical_dialogue_id(source_id)
        for turn_id, entry in enumerate(dialogue["log"]):
            if turn_id % 2 == 1:
                yield did, turn_id // 2, entry, dialogue
