"""Placeholder vocabularies of the response normalization (spec-standard-evaluation §3.2 and
this module's addendum): ``reference`` (the spec's table, :data:`~mwzrepro.core.slot_map.
SLOT_MAP`, the default) and ``extended``.

Spec addendum: ``placeholders = extended`` (signature field ``ph:ext``)
-----------------------------------------------------------------------

**Why.** The reference normalization deletes every bracket it does not know (§3.2). Systems
published since 2021 write domain-prefixed booking placeholders (``[hotel_ref]``,
``[train_bookpeople]``, ``[restaurant_bookday]``), MultiWOZ 2.2 slot names
(``[train-leaveat]``) and ``[value_<slot>]`` forms the table lacks; deleting
``[hotel_ref]`` means the booking reference is never "provided", which can cost tens of points
of Success while Inform stays high. ``extended`` maps these forms to the unified names the
references use, so such a file is scored on what it says. It is a setting, never the default:
numbers under it are not comparable with the leaderboard, and the signatures say so.

**Rule** (a rule, not a table; :mod:`mwzrepro.core.placeholder_resolver`). A
placeholder may contain ``-`` (2.2 names; the reference pattern ``[\\w\\s]+`` does not match
them, so under ``reference`` they stay in the text). Its content is resolved:

1. a name of the reference table (§3.2) keeps its reference meaning;
2. else it is read as words — split on ``_``, ``-``, spaces and the case changes of joined
   words (``hotelRef``) — with at most one domain word (a MultiWOZ domain, its plural or a
   near miss such as ``restuarant``), qualifiers (``value``, ``booking``, ``book``,
   ``reservation``) and a slot phrase;
3. the slot phrase is looked up in the synonym lexicon (:mod:`mwzrepro.core.
   placeholder_lexicon`: every slot part of the reference table, and the families below),
   then matched with ``rapidfuzz`` for near misses (``[phone_nubmer]``);
4. a name resolves only when the rule gives exactly one slot; its unified name is the
   reference table's for that slot. Anything else (``[db_3]``, a bare domain ``[hotel]``,
   two domains, two close slots) is deleted and listed, as under ``reference``.

Synonym families (sources: the reference table's own slot names, the MultiWOZ 2.2 slot
names, and the descriptive names of 2023–2024 LLM-based systems):

* reference (REFERENCE): ``reference``, ``ref``, ``number``, ``confirmation (code)``, ``id``
  after a booking word;
* phone (PHONE): ``phone``, ``telephone``, ``phone number``, ``number`` with ``taxi``;
* time and duration (TIME): ``time``, ``duration``, ``travel time``, ``journey time``;
  leave and arrive (TIME): ``departure time``, ``arrival time``, ``leaveat``, ``arriveby``;
* food (FOOD): ``type`` with ``food``, ``cuisine``;
* people (COUNT): ``people``, ``persons``, ``guests``, ``number of people``, ``party size``;
  stay (COUNT): ``nights``, ``length of stay``;
* postcode (POST): ``postal code``, ``post code``, ``zip (code)``;
* train id (TRAINID): ``number`` or ``id`` with ``train``; ``id`` with another domain: ID.

Compared with the earlier rule of ``extended`` (a ``<domain>_``/``value_`` prefix and a slot
of the table's vocabulary), every name it mapped maps to the same unified name, except
``[train id]`` and ``[train-id]``, which now read as the table's ``train_id`` (TRAINID; the
earlier rule gave ID).

>>> unified_name("hotel_ref"), unified_name("train_bookpeople"), unified_name("train-leaveat")
('REFERENCE', 'COUNT', 'TIME')
>>> unified_name("value_bookday"), unified_name("hotel_id"), unified_name("train_id")
('DAY', 'ID', 'TRAINID')
>>> unified_name("de luca cucina and bar") is None
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mwzrepro.core.placeholder_resolver import unified_name
from mwzrepro.core.slot_map import SLOT_MAP

__all__ = ["PLACEHOLDER_VOCABULARIES", "SIGNATURE_VALUES", "unified_name", "gains_of",
           "signature_fields", "stamp_scores"]

#: Values of the ``placeholders`` setting (block ``standard``); ``reference`` is the default.
PLACEHOLDER_VOCABULARIES = ("reference", "extended")

#: Signature value (field ``ph``) of each vocabulary; None = no field (the default).
SIGNATURE_VALUES = {"reference": None, "extended": "ext"}


def gains_of(found: Counter[str]) -> dict[str, int]:
    """``{bracket content: count}`` of the placeholders that ``extended`` maps and
    ``reference`` does not (it deletes them, or leaves 2.2 names with ``-`` as text): where
    the two vocabularies give different normalized responses. ``found`` counts every bracket
    content of the raw responses (group 1 of :data:`~mwzrepro.core.slot_map.
    EXTENDED_PLACEHOLDER_RE` on the lowercased text). Sorted by name.

    >>> gains_of(Counter({"hotel_ref": 2, "hotel_name": 1, "xyz": 1}))
    {'hotel_ref': 2}
    """
    return {k: found[k] for k in sorted(found)
            if k not in SLOT_MAP and unified_name(k) is not None}


def signature_fields(placeholders: str | None) -> dict[str, str]:
    """The signature fields of a vocabulary (``{}`` for the default, so that no signature
    made under ``reference`` changes).

    >>> signature_fields("extended"), signature_fields("reference"), signature_fields(None)
    ({'ph': 'ext'}, {}, {})
    """
    value = SIGNATURE_VALUES.get(placeholders or "reference")
    return {"ph": value} if value else {}


def stamp_scores(scores: Any, metadata: dict[str, Any], placeholders: str | None
                 ) -> tuple[Any, dict[str, Any]]:
    """A pipeline ``scores`` table (column ``signature``) and its Parquet metadata (keys
    ``signature`` and ``signatures``) with the vocabulary's signature field added
    (:func:`signature_fields`; ``placeholders`` is the ``predictions`` table's metadata
    value, absent under ``reference``). Unchanged objects under ``reference``.
    """
    from mwzrepro.core.signature import add_fields

    fields = signature_fields(placeholders)
    if not fields:
        return scores, metadata
    if "signature" in scores.columns:
        scores = scores.assign(signature=[add_fields(s, fields) for s in scores["signature"]])
    meta = dict(metadata)
    if isinstance(meta.get("signature"), str):
        meta["signature"] = add_fields(meta["signature"], fields)
    if isinstance(meta.get("signatures"), dict):
        meta["signatures"] = {k: add_fields(v, fields) for k, v in meta["signatures"].items()}
    return scores, meta
