"""DAMD's database value dictionaries: which database value stands for which slot, for
delexicalizing turns without span annotations (:func:`.damd.delex_by_values`).

Re-implements ``DataPreprocessor.get_delex_valdict`` of ``thu-spmi/damd-multiwoz`` at
``9b0456d`` (``preprocess.py``), with the database preprocessing it relies on
(``preprocess_db``: ``clean_dataset.clean_slot_values`` and spaCy tokenization of every value).

Differences, all documented here: spaCy's English tokenizer is replaced by
:func:`tokenize_value`, a small rule set that reproduces what spaCy does to the database values
(``'s``, ``n't``, trailing punctuation, hyphens); the ambiguous values are ordered
alphabetically (the source iterates a Python set, whose order changes between runs); and the
hotel field ``takesbookings`` of the MultiWOZ database is skipped like the field ``n`` it
replaces in DAMD's copy of the database.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.prepare.delex.damd_clean import clean_text
from mwzrepro.prepare.delex.word_pairs import WordPairs

__all__ = ["ValueDictionaries", "DOMAINS", "SKIPPED_FIELDS", "tokenize_value",
           "value_dictionaries"]

#: Domains in DAMD's order (``ontology.all_domains``); the order decides ties.
DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "police", "hospital")

#: Database fields whose values are not delexicalized by dictionary (after renaming).
SKIPPED_FIELDS: dict[str, frozenset[str]] = {
    "taxi": frozenset({"taxi_phone"}),
    "police": frozenset({"id"}),
    "hospital": frozenset({"id"}),
    "hotel": frozenset({"id", "location", "internet", "parking", "takesbookings", "stars",
                        "price", "n", "postcode", "phone"}),
    "attraction": frozenset({"id", "location", "pricerange", "price", "openhours", "postcode",
                             "phone"}),
    "train": frozenset({"price", "id"}),
    "restaurant": frozenset({"id", "location", "introduction", "signature", "type",
                             "postcode", "phone"}),
}

#: DAMD's slot names of database fields (``ontology.normlize_slot_names`` and the renames of
#: ``clean_slot_values``).
_FIELD_NAMES = {"price range": "pricerange", "car type": "car", "entrance fee": "price",
                "duration": "time", "leaveat": "leave", "arriveby": "arrive", "trainid": "id"}

#: Value repairs of ``clean_slot_values`` that database values reach (after ``clean_text``).
_VALUE_FIXES = {("attraction", "type", "concerthall"): "concert hall",
                ("attraction", "type", "mutliple sports"): "multiple sports"}

#: Entries DAMD adds by hand after removing the ambiguous values.
_EXTRA_VALUES = (("parkside", "address"), ("parkside, cambridge", "address"),
                 ("cambridge belfry", "name"), ("hills road", "address"),
                 ("hills rd", "address"), ("Parkside Police Station", "name"))


@dataclass(frozen=True)
class ValueDictionaries:
    """``single``/``multi``: one-word / multi-word value → slot name, longest value first (ties
    in database order); ``ambiguous``: values that name more than one slot (a station that is
    both departure and destination, a time that is both arrival and departure)."""

    single: Mapping[str, str] = field(default_factory=dict)
    multi: Mapping[str, str] = field(default_factory=dict)
    ambiguous: Sequence[str] = ()


def tokenize_value(value: str) -> str:
    """Space-separated tokens of a cleaned database value, as spaCy's English tokenizer
    splits them: ``'s``/``n't`` and a closing ``'`` after ``s`` are tokens, leading
    ``"([`` and trailing ``,;:!?.)"]`` are split off, a hyphen before a letter or between
    digits is a token.

    >>> tokenize_value("saint john's college, 15-17 norman way")
    "saint john 's college , 15 - 17 norman way"
    >>> tokenize_value("queens' college alpha-milton")
    "queens ' college alpha - milton"
    """
    value = re.sub(r"(?<=[a-z0-9])-(?=[a-z])|(?<=[0-9])-(?=[0-9])", " - ", value)
    out: list[str] = []
    for chunk in value.split():
        head: list[str] = []
        tail: list[str] = []
        while len(chunk) > 1 and chunk[0] in "\"([":
            head.append(chunk[0])
            chunk = chunk[1:]
        while len(chunk) > 1 and chunk[-1] in ",;:!?.)\"]":
            tail.insert(0, chunk[-1])
            chunk = chunk[:-1]
        for clitic in ("'s", "n't"):
            if chunk.endswith(clitic) and len(chunk) > len(clitic):
                tail.insert(0, clitic)
                chunk = chunk[: -len(clitic)]
                break
        else:
            if chunk.endswith("s'"):
                tail.insert(0, "'")
                chunk = chunk[:-1]
        out += head + [chunk] + tail
    return " ".join(out)


def _rows(domain: str, rows: Any) -> list[Mapping[str, Any]]:
    if isinstance(rows, Mapping):
        rows = [rows]
    if not isinstance(rows, list) or not all(isinstance(r, Mapping) for r in rows):
        raise InputError(f"{domain} database: expected a list of objects")
    return rows


def value_dictionaries(dbs: Mapping[str, Any], pairs: WordPairs = ()) -> ValueDictionaries:
    """DAMD's value dictionaries from the MultiWOZ databases.

    Args:
        dbs: ``{domain: rows}`` for the seven domains of :data:`DOMAINS` (raw database JSON;
            taxi is one object, or a list holding it, with ``taxi_colors``/``taxi_types``).
        pairs: the word pairs of :func:`.damd_clean.clean_text`.

    Every string field outside :data:`SKIPPED_FIELDS` is cleaned (:func:`.damd_clean.clean_text`,
    lowercased), tokenized and mapped to its slot; a value seen under two slots is ambiguous
    and leaves the dictionaries (except ``cambridge``, kept under its last slot but never
    used); taxi colours and brands are ``car``.

    Raises:
        InputError: a domain is missing, or a non-skipped field is not a string.
    """

    value_slot: dict[str, str] = {}
    ambiguous: set[str] = set()
    for domain in DOMAINS:
        if domain not in dbs:
            raise InputError(f"DAMD value dictionaries need the {domain} database")
        rows = _rows(domain, dbs[domain])
        if domain == "taxi":
            for name, values in rows[0].items():
                if name.lower() not in SKIPPED_FIELDS["taxi"]:
                    for value in values:
                        value_slot[str(value).lower()] = "car"
            continue
        for row in rows:
            for key, value in row.items():
                key = key.lower()
                slot = _FIELD_NAMES.get(key, key)
                if slot in SKIPPED_FIELDS[domain] or key in SKIPPED_FIELDS[domain]:
                    continue
                if not isinstance(value, str):
                    raise InputError(f"{domain} database: field {key!r} is not a string: "
                                     f"{value!r}")
                cleaned = clean_text(value.lower(), pairs)
                cleaned = _VALUE_FIXES.get((domain, slot, cleaned), cleaned)
                cleaned = tokenize_value(cleaned).strip()
                if cleaned in value_slot and value_slot[cleaned] != slot:
                    ambiguous.add(cleaned)
                value_slot[cleaned] = slot
    ambiguous.discard("cambridge")
    for value in ambiguous:
        value_slot.pop(value, None)
    for value, slot in _EXTRA_VALUES:
        value_slot[value] = slot
    single: dict[str, str] = {}
    multi: dict[str, str] = {}
    for value, slot in value_slot.items():
        if value == "cambridge":
            continue
        (multi if len(value.split()) > 1 else single)[value] = slot

    def longest_first(d: dict[str, str]) -> dict[str, str]:
        return dict(sorted(d.items(), key=lambda kv: len(kv[0]), reverse=True))

    return ValueDictionaries(longest_first(single), longest_first(multi),
                             tuple(sorted(ambiguous)))
