"""Span-based re-delexicalization of reference responses (spec-standard-evaluation §5.4).

Every annotated value span of a system utterance is replaced by ``[slot]`` with the MultiWOZ 2.2
slot name, then the whole reference goes through response normalization (§3), which maps the
placeholder to its unified name (``[address]`` → ``ADDRESS``). The same algorithm serves every
version because the readers convert 2.0/2.1 word spans to character offsets on ingest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pandas as pd

from mwzrepro.prepare.delex.references import reference_row, references_frame

__all__ = ["delexicalize", "build_references"]


def delexicalize(text: str, spans: Iterable[tuple[int, int, str, str]]) -> str:
    """Replace value spans of ``text`` by ``[slot]`` placeholders (§5.4 steps 1–4).

    Args:
        text: the utterance.
        spans: ``(start, end, slot, value)`` with character offsets (``end`` exclusive), in
            source order.

    Returns:
        The delexicalized utterance. Spans are stable-sorted by start; a span starting before
        the end of the previously accepted span is skipped (overlap), and so is a span whose
        value is exactly ``dontcare``.

    >>> delexicalize("the grafton hotel is in the east", [(4, 17, "name", "grafton hotel"),
    ...                                                   (28, 32, "area", "east")])
    'the [name] is in the [area]'
    """
    out: list[str] = []
    pos = 0
    for start, end, slot, value in sorted(spans, key=lambda s: s[0]):
        if start < pos or value == "dontcare":
            continue
        out.append(text[pos:start])
        out.append(f"[{slot}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def build_references(
    turns: pd.DataFrame, spans: pd.DataFrame, unknown: Counter[str] | None = None
) -> pd.DataFrame:
    """Delexicalized, normalized references for every system turn of a (version, split).

    Args:
        turns: canonical ``turns`` table.
        spans: canonical ``spans`` table (all acts' spans are used).
        unknown: receives counts of placeholder names the normalization deleted.

    Returns:
        A ``references`` table: dialogue_id, turn (system-turn index), text, delex,
        reference (the BLEU reference, §3-normalized).
    """
    system = turns[turns["speaker"] == "system"]
    by_turn: dict[tuple[str, int], list[tuple[int, int, str, str]]] = {}
    ordered = spans.sort_values(["dialogue_id", "turn_id", "span_index"], kind="mergesort")
    for did, tid, start, end, slot, value in ordered[
        ["dialogue_id", "turn_id", "start", "end", "slot", "value"]
    ].itertuples(index=False):
        by_turn.setdefault((did, int(tid)), []).append((int(start), int(end), slot, value))
    rows = []
    for did, tid, text in system[["dialogue_id", "turn_id", "text"]].itertuples(index=False):
        delex = delexicalize(text, by_turn.get((did, int(tid)), []))
        rows.append(reference_row(did, int(tid) // 2, text, delex, unknown))
    return references_frame(rows)
