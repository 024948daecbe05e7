"""DAMD-style delexicalized references (Nekvinda & Dušek 2021, Table 4 row "DAMD").

Re-implements the response delexicalization of DAMD (Zhang et al., AAAI 2020) as published in
``thu-spmi/damd-multiwoz`` at commit ``9b0456d``:

* ``preprocess.py``: ``DataPreprocessor.delex_by_annotation`` (a system turn with span
  annotations), ``delex_by_valdict`` (a turn without: regular expressions, then database
  value dictionaries), ``get_delex_valdict`` (the dictionaries, :mod:`.damd_values`);
* ``clean_dataset.py``: ``clean_text`` and ``clean_time`` (run on every response;
  :mod:`.damd_clean`);
* ``ontology.py``: ``da_abbr_to_slot_name`` (span slot → placeholder name);
* ``data/multi-woz/mapping.pair`` (word pairs, :mod:`.word_pairs`; a pinned source).

Input: the MultiWOZ 2.0 test split in the ConvLab layout (DAMD reads ConvLab's
``annotated_user_da_with_span_full.json``, whose test dialogues are the ConvLab 2.0 test file),
lowercased as DAMD lowercases the whole file. Output: a ``references`` table whose ``delex`` is
DAMD's ``resp`` field (``[value_<slot>]`` placeholders) and ``reference`` its response
normalization (spec-standard-evaluation §3), ready for BLEU.

Example (spec-paper-tables §2): "cafe jello gallery has a free entrance fee . ..." becomes
"[value_name] has a [value_price] entrance fee . the address is cafe jello gallery ,
[value_address] and the post code is [value_postcode] . can i help you with anything else ?".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from mwzrepro.prepare.delex.damd_clean import clean_text, clean_time
from mwzrepro.prepare.delex.damd_values import ValueDictionaries
from mwzrepro.prepare.delex.references import reference_row, references_frame, system_turns
from mwzrepro.prepare.delex.word_pairs import WordPairs

__all__ = [
    "SPAN_SLOT_NAMES",
    "clean_time",
    "clean_text",
    "delex_by_spans",
    "delex_by_values",
    "delexicalize_turn",
    "build_references",
]

#: Span slot abbreviations with a different placeholder name (DAMD ``da_abbr_to_slot_name``);
#: every other (lowercased) span slot is its own name.
SPAN_SLOT_NAMES: dict[str, str] = {
    "addr": "address", "fee": "price", "post": "postcode", "ref": "reference",
    "ticket": "price", "depart": "departure", "dest": "destination",
}

#: Regular-expression delexicalization of turns without spans, in order (``delex_by_valdict``).
_VALUE_PATTERNS = tuple((re.compile(p), f"[value_{slot}]") for p, slot in (
    (r"\d{5}\s?\d{5,7}", "phone"),
    (r"\d[\s-]stars?", "stars"),
    (r"\$\d+|\$?\d+.?(\d+)?\s(pounds?|gbps?)", "price"),
    (r"tr[\d]{4}", "id"),
    (r"([a-z]{1}[\. ]?[a-z]{1}[\. ]?\d{1,2}[, ]+\d{1}[\. ]?[a-z]{1}[\. ]?[a-z]{1}"
     r"|[a-z]{2}\d{2}[a-z]{2})", "postcode"),
))

#: Words before an ambiguous value that make it an arrival time / a destination ...
_TOWARDS = frozenset("arrive arrives arrived arriving arrival destination there reach to by "
                     "before".split())
#: ... and words that make it a departure time / a departure place.
_FROM = frozenset("leave leaves leaving depart departs departing departure from after "
                  "pulls".split())


def delex_by_spans(text: str, spans: Iterable[Sequence[Any]]) -> str:
    """Replace annotated spans (``[act, slot, value, first word, last word]``, word indices
    over ``text.split()``) by ``[value_<slot>]`` (``delex_by_annotation``, before cleaning).

    Spans are applied in source order: each blanks its words and writes its placeholder on
    its first word, so a later span over the same words wins. ``open`` spans are ignored; a
    first word past the end writes to word 5 (the source's fallback).

    >>> delex_by_spans("the a and b is in the east", [["x", "name", "a and b", 1, 3],
    ...                                             ["x", "area", "east", 7, 7]])
    'the [value_name] is in the [value_area]'
    """
    words = text.split()
    for span in spans:
        slot = str(span[1]).lower()
        if slot == "open":
            continue
        slot = SPAN_SLOT_NAMES.get(slot, slot)
        first, last = int(span[3]), int(span[4])
        for i in range(first, last + 1):
            words[i] = ""
        words[first if first < len(words) else 5] = f"[value_{slot}]"
    out = " ".join(w for w in words if w)
    for merged, single in (
        ("[value_address] , [value_address] , [value_address]", "[value_address]"),
        ("[value_address] , [value_address]", "[value_address]"),
        ("[value_name] [value_name]", "[value_name]"),
        ("[value_name]([value_phone] )", "[value_name] ( [value_phone] )"),
    ):
        out = out.replace(merged, single)
    return out


def _resolve_ambiguous(text: str, values: Sequence[str]) -> str:
    """Values that are both arrival and departure (times, stations): the nearest preceding
    keyword decides (``delex_by_valdict``, last step)."""
    for value in values:
        at = text.find(" " + value)
        if at == -1:
            continue
        is_time = ":" in value
        for word in reversed(text[:at].split()):
            if word in _TOWARDS:
                slot = "arrive" if is_time else "destination"
            elif word in _FROM:
                slot = "leave" if is_time else "departure"
            else:
                continue
            text = text.replace(" " + value, f" [value_{slot}]")
    return text


def delex_by_values(text: str, values: ValueDictionaries, pairs: WordPairs = ()) -> str:
    """Delexicalize a turn without spans (``delex_by_valdict``): :func:`clean_text`, the
    phone/stars/price/train-id/postcode expressions, multi-word database values (substring
    replacement, longest first), single-word values (whole tokens), ambiguous values.

    >>> v = ValueDictionaries(single={"centre": "area"}, multi={"the gandhi": "name"},
    ...                       ambiguous=("ely",))
    >>> delex_by_values("The Gandhi is in the centre , call 01223 353942 . Trains from ely .", v)
    '[value_name] is in the [value_area] , call [value_phone] . trains from [value_departure] .'
    """
    text = clean_text(text, pairs)
    for pattern, placeholder in _VALUE_PATTERNS:
        text = pattern.sub(placeholder, text)
    for value, slot in values.multi.items():
        text = text.replace(value, f"[value_{slot}]")
    for value, slot in values.single.items():
        text = " ".join(f"[value_{slot}]" if w == value else w for w in text.split())
    text = _resolve_ambiguous(text, values.ambiguous)
    return text.replace("[value_car] [value_car]", "[value_car]")


def delexicalize_turn(entry: Mapping[str, Any], values: ValueDictionaries,
                      pairs: WordPairs = ()) -> str:
    """DAMD's ``resp`` of one ConvLab system log entry (text and span_info lowercased first).

    Spans present: :func:`delex_by_spans`, then :func:`clean_text`; no spans:
    :func:`delex_by_values`.
    """
    text = str(entry.get("text", "")).lower()
    spans = [[str(x).lower() if isinstance(x, str) else x for x in s]
             for s in entry.get("span_info") or []]
    if spans:
        return clean_text(delex_by_spans(text, spans), pairs)
    return delex_by_values(text, values, pairs)


def build_references(
    dialogues: Mapping[str, Mapping[str, Any]], values: ValueDictionaries,
    pairs: WordPairs = (), unknown: Counter[str] | None = None,
) -> pd.DataFrame:
    """DAMD-style ``references`` table of every system turn.

    Args:
        dialogues: raw ConvLab-layout dialogues ``{id: {"log": [...]}}`` (MultiWOZ 2.0 test).
        values: DAMD's database value dictionaries (:func:`.damd_values.value_dictionaries`).
        pairs: word pairs (DAMD's ``mapping.pair``), ``()`` if unavailable.
        unknown: receives placeholder names that response normalization deleted.

    Returns:
        ``references`` table: dialogue_id (lowercase, no ``.json``), turn (system-turn index),
        text (original utterance), delex (DAMD ``resp``), reference (normalized, §3).
    """
    return references_frame(
        reference_row(did, turn, entry["text"], delexicalize_turn(entry, values, pairs), unknown)
        for did, turn, entry, _dialogue in system_turns(dialogues))
