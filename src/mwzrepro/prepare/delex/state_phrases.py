"""The turn's state in the delexicalization rule (rule 3 of
:mod:`mwzrepro.prepare.delex.delexicalize_responses`): the phrases its values give, matched
before the database lexicon, and the state names found in a response only fuzzily.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mwzrepro.prepare.delex.value_lexicon import FUZZY_NAME_CUTOFF, tokens

__all__ = ["fuzzy_state_names", "state_phrases"]

#: State slots whose values are matched as phrases, and the placeholder they become.
_STATE_SLOTS = {"name": "name", "address": "address", "departure": "departure",
                "destination": "destination", "food": "food", "type": "type", "area": "area",
                "pricerange": "pricerange", "price range": "pricerange", "day": "day",
                "bookday": "day", "book day": "day"}
_SKIP_VALUES = frozenset({"", "yes", "no", "none", "dontcare", "dont care", "don't care",
                          "not mentioned", "?", "any"})


def state_phrases(state: Mapping[str, Any] | None) -> dict[tuple[str, ...], str]:
    """Phrases of a turn's state ``{domain: {slot: value}}`` (predicted or gold; other shapes
    are ignored): ``{token tuple: placeholder name}`` for the slots that name text
    (:data:`_STATE_SLOTS`); taxi departure/destination keep their side.

    >>> state_phrases({"taxi": {"departure": "the cambridge belfry"}, "hotel": {"stars": "4"}})
    {('the', 'cambridge', 'belfry'): 'departure'}
    """
    out: dict[tuple[str, ...], str] = {}
    if not isinstance(state, Mapping):
        return out
    for domain, slots in state.items():
        if not isinstance(slots, Mapping):
            continue
        for slot, value in slots.items():
            name = _STATE_SLOTS.get(str(slot).lower())
            if name is None or not isinstance(value, str):
                continue
            value = value.strip().lower()
            if value in _SKIP_VALUES or len(value) < 3:
                continue
            key = tuple(t for t, _, _ in tokens(value))
            if key and out.get(key) != "name":
                out[key] = name
    return out


def fuzzy_state_names(text: str, state: Mapping[str, Any] | None) -> list[tuple[int, int]]:
    """Where the state's names (``name`` slots of 5 characters or more) occur in ``text``
    though not verbatim (rule 3): ``[(start, end), ...]`` of the whole words around each
    ``rapidfuzz`` ``partial_ratio_alignment`` ≥ :data:`FUZZY_NAME_CUTOFF`, in state order.

    >>> fuzzy_state_names("try the lensfeld hotel", {"hotel": {"name": "lensfield hotel"}})
    [(8, 22)]
    """
    found: list[tuple[int, int]] = []
    if not isinstance(state, Mapping):
        return found
    from rapidfuzz import fuzz

    low = text.lower()
    for slots in state.values():
        name = slots.get("name") if isinstance(slots, Mapping) else None
        if not isinstance(name, str) or len(name) < 5 or name.lower() in _SKIP_VALUES:
            continue
        al = fuzz.partial_ratio_alignment(name.lower(), low,
                                          score_cutoff=FUZZY_NAME_CUTOFF)
        if al is None:
            continue
        start, end = _snap(low, al.dest_start, al.dest_end)
        if end > start:
            found.append((start, end))
    return found


def _snap(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` to whole words."""
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return start, end
