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

**Rule.** Matching is case-insensitive (responses are lowercased first, §3.1 step 1), and a
placeholder may also contain ``-`` (2.2 names; the reference pattern ``[\\w\\s]+`` does not
match them, so under ``reference`` they stay in the text). A bracket content is looked up:

1. in the reference table (§3.2) — every reference name keeps its reference meaning;
2. else it is split at its first ``_``, ``-`` or space into a prefix and a slot; the prefix must
   be a domain of the reference table (``attraction``, ``hospital``, ``hotel``, ``police``,
   ``restaurant``, ``taxi``, ``train``) or ``value``; without such a prefix the whole content
   is the slot. The slot is written without ``_``, ``-`` and spaces (``book_people``,
   ``book people`` → ``bookpeople``) and looked up in :func:`slot_vocabulary`:

   * ``value_<slot>`` and a bare ``<slot>`` take the reference's name of the bare slot;
   * ``<domain>_<slot>`` takes the name most reference ``<domain>_<slot>`` entries of that slot
     have (``id``: ``ID``, as ``hospital_id``/``attraction_id``/``restaurant_id``; ``train_id``
     is in the reference table as ``TRAINID``), else the bare slot's name;
3. else the bracket is deleted and counted, as under ``reference``.

Families this adds (each derived from the reference table; the slot vocabulary is the
reference table's own bare names and the slot parts of its prefixed names):

* ``[<domain>_<slot>]`` for every domain and slot, including the booking slots
  (``_bookday``, ``_bookpeople``, ``_bookstay``, ``_booktime``), ``_ref``/``_reference``,
  ``_trainid``/``_id``, ``_leaveat``/``_arriveby``, ``_entrancefee``, ``_openhours``;
* the MultiWOZ 2.2 slot names, ``[<domain>-<slot>]`` and bare (``[train-leaveat]``,
  ``[hotel-bookstay]``, ``[bookday]``);
* ``[value_<slot>]`` for every slot (``[value_bookpeople]``, ``[value_trainid]``).

Slot spellings no reference name contains (the only hand-written part, :data:`ADDED_SLOTS`):

=================  ==========  ========================================================
slot               unified     why
=================  ==========  ========================================================
``departuretime``  ``TIME``    train departure time (``[train_departuretime]``, 2024)
``arrivaltime``    ``TIME``    its counterpart for arrival times
=================  ==========  ========================================================

>>> unified_name("hotel_ref"), unified_name("train_bookpeople"), unified_name("train-leaveat")
('REFERENCE', 'COUNT', 'TIME')
>>> unified_name("value_bookday"), unified_name("hotel_id"), unified_name("train_id")
('DAY', 'ID', 'TRAINID')
>>> unified_name("de luca cucina and bar") is None
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from mwzrepro.core.slot_map import EXTENDED_PLACEHOLDER_RE, SLOT_MAP

__all__ = ["PLACEHOLDER_VOCABULARIES", "ADDED_SLOTS", "SIGNATURE_VALUES", "domains",
           "slot_vocabulary", "unified_name", "extended_gains", "signature_fields",
           "stamp_scores"]

#: Values of the ``placeholders`` setting (block ``standard``); ``reference`` is the default.
PLACEHOLDER_VOCABULARIES = ("reference", "extended")

#: Signature value (field ``ph``) of each vocabulary; None = no field (the default).
SIGNATURE_VALUES = {"reference": None, "extended": "ext"}

#: Slot spellings absent from every reference name (module docstring table).
ADDED_SLOTS: dict[str, str] = {"departuretime": "TIME", "arrivaltime": "TIME"}

_SEPARATORS = re.compile(r"[_\-\s]+")
_SPLIT = re.compile(r"[_\-\s]")


def _compact(name: str) -> str:
    return _SEPARATORS.sub("", name)


@lru_cache(maxsize=1)
def domains() -> frozenset[str]:
    """The domains of the reference table: the prefixes of its ``<domain>_<slot>`` names.

    >>> sorted(domains())
    ['attraction', 'hospital', 'hotel', 'police', 'restaurant', 'taxi', 'train']
    """
    return frozenset(n.split("_", 1)[0] for n in SLOT_MAP
                     if "_" in n and not n.startswith("value_"))


@lru_cache(maxsize=1)
def slot_vocabulary() -> tuple[dict[str, str], dict[str, str]]:
    """``(bare, prefixed)``: unified name of each compact slot spelling, for bare and
    ``value_`` forms and for ``<domain>_`` forms (see the module docstring).

    >>> bare, prefixed = slot_vocabulary()
    >>> bare["bookpeople"], bare["id"], prefixed["id"], bare["departuretime"]
    ('COUNT', 'TRAINID', 'ID', 'TIME')
    """
    doms = domains()
    bare: dict[str, str] = {}
    votes: dict[str, Counter[str]] = {}
    for name, unified in SLOT_MAP.items():
        head, _, tail = name.partition("_")
        if head in doms and tail:
            votes.setdefault(_compact(tail), Counter())[unified] += 1
        elif head == "value" and tail:
            bare.setdefault(_compact(tail), unified)
        elif name not in doms:
            bare[_compact(name)] = unified
    for slot, counts in votes.items():
        bare.setdefault(slot, counts.most_common(1)[0][0])
    for slot, unified in ADDED_SLOTS.items():
        bare.setdefault(slot, unified)
    prefixed = {**bare, **{s: c.most_common(1)[0][0] for s, c in votes.items()}}
    return bare, prefixed


@lru_cache(maxsize=4096)
def unified_name(name: str) -> str | None:
    """The unified name of one (lowercased) bracket content under ``extended``, or None
    (deleted). Rule: module docstring.
    """
    name = name.strip()
    if name in SLOT_MAP:
        return SLOT_MAP[name]
    bare, prefixed = slot_vocabulary()
    parts = _SPLIT.split(name, maxsplit=1)
    if len(parts) == 2 and parts[0] in domains():
        return prefixed.get(_compact(parts[1]))
    if len(parts) == 2 and parts[0] == "value":
        return bare.get(_compact(parts[1]))
    return bare.get(_compact(name))


def extended_gains(responses: Iterable[str]) -> dict[str, int]:
    """``{bracket content: count}`` of the placeholders in raw ``responses`` that ``extended``
    maps and ``reference`` does not (it deletes them, or leaves 2.2 names with ``-`` as
    text): where the two vocabularies give different normalized responses. Sorted by name.

    >>> extended_gains(["[Hotel_Ref] and [hotel_name]", "[train-leaveat] [De Luca]"])
    {'hotel_ref': 1, 'train-leaveat': 1}
    """
    found: Counter[str] = Counter()
    for text in responses:
        if "[" in text:
            found.update(m.group(1) for m in EXTENDED_PLACEHOLDER_RE.finditer(text.lower()))
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
