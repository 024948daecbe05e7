"""UniConv-style delexicalized references (Nekvinda & Dušek 2021, Table 4 row "UniConv").

Re-implements the system-response delexicalization of UniConv (Le et al. 2020) as published in
``henryhungle/UniConv`` at commit ``e2b9bc8``: ``preprocess_data.py`` (``delexicalize_data``,
``get_state``, ``get_act``, ``get_goal``) and ``utils/delexicalizer.py``
(``prepare_slot_values_independent``, ``replace_slots``, ``tag_slots``, ``tag_slots_by_db``,
``clean_sys_delex_utt``, ``fix_phone_req_slots``), with ``utils/nlp.py`` (:mod:`.multiwoz_text`)
and ``utils/mapping.pair`` (:mod:`.word_pairs`; a pinned source).

Order of replacement in a system turn: belief-state values (``<domain>_<slot>``; a ``yes``/
``no`` value replaces the slot's name), booked reference numbers, then, when the turn has
dialogue acts, the database values of the active domains (domains already tagged or in the
state, plus police and hospital). Each value word becomes a tag; runs of one tag collapse to
one bare token such as ``hotel_parking``, which :func:`bracket_tags` turns into
``[hotel_parking]`` before response normalization (spec-paper-tables §1). Taxi values and
digits stay words, except phone numbers when the taxi goal requests a phone.

Differences, documented: the source iterates Python sets (domains, database values), whose
order changes from run to run; here domains follow :data:`DOMAINS` and values their first
appearance in the database. The source reads the original MultiWOZ 2.1 ``data.json`` and
``dialogue_acts.json``; here the ConvLab-2 copy of the 2.1 test split (same dialogues, acts
on the system log entries, tokenized text whose clitics are rejoined first), where a turn
with no dialogue act stands for the source's ``No Annotation``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mwzrepro.prepare.delex.multiwoz_text import detokenize_clitics, normalize_text
from mwzrepro.prepare.delex.references import reference_row, references_frame, system_turns
from mwzrepro.prepare.delex.word_pairs import WordPairs

__all__ = ["DOMAINS", "DB_FIELDS", "slot_values", "delexicalize_system", "bracket_tags",
           "build_references"]

DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "hospital", "police")

#: Database fields whose values are tagged in every active domain (others only when the
#: turn's inform acts name the field).
DB_FIELDS: dict[str, frozenset[str]] = {
    "restaurant": frozenset("address area food id introduction name phone postcode pricerange "
                            "type signature".split()),
    "hotel": frozenset("address area internet parking name phone postcode pricerange type"
                       .split()),
    "attraction": frozenset("address area name phone postcode type entrancefee pricerange"
                            .split()),
    "train": frozenset("arriveBy day departure destination duration leaveAt price trainID"
                       .split()),
    "taxi": frozenset({"taxi_colors", "taxi_types"}),
    "hospital": frozenset("department address postcode phone name".split()),
    "police": frozenset("name address phone postcode".split()),
}

#: Hospital and police facts UniConv adds to the databases (field, value).
_EXTRA_FACTS = {
    "hospital": (("address", "Hills Rd"), ("address", "Hills Road"), ("postcode", "CB20QQ"),
                 ("phone", "01223245151"), ("phone", "1223245151"), ("phone", "0122324515"),
                 ("name", "Addenbrookes Hospital")),
    "police": (("address", "Parkside"), ("postcode", "CB11JG"), ("phone", "01223358966"),
               ("phone", "1223358966"), ("name", "Parkside Police Station")),
}
_ADDRESS_VARIANTS = (("road", "rd"), ("rd", "road"), ("street", "st"), ("st", "street"))
_NAME_VARIANTS = (("b & b", "bed and breakfast"), ("bed and breakfast", "b & b"),
                  ("hotel", ""), ("restaurant", ""))
_DONTCARE = frozenset({"dont care", "dontcare", "don't care", "do n't care"})
_TAG_RE = re.compile(r"(?<!\S)((?:%s)_[^\s]+)" % "|".join(DOMAINS))


def slot_values(dbs: Mapping[str, Any], pairs: WordPairs = ()) -> dict[str, dict[str, list[str]]]:
    """UniConv's ``dsv_dict``: ``{domain: {field: [normalized values]}}`` from the databases
    (taxi left empty, as the source skips it), with address (road/rd, street/st) and name
    (b & b / bed and breakfast, without hotel/restaurant) variants, the hospital and police
    facts, train prices and entrance fees also as ``x.y pounds``/``x.y gbp``, and
    ``entrancefee`` as a copy of ``entrance fee``. Phone numbers are kept verbatim.
    """
    def add(values: dict[str, None], value: str) -> None:
        values.setdefault(value, None)

    out: dict[str, dict[str, dict[str, None]]] = {d: {} for d in DOMAINS}
    for domain in DOMAINS:
        if domain == "taxi":
            continue
        for row in dbs[domain]:
            for key, value in row.items():
                if isinstance(value, list):
                    continue
                if isinstance(value, dict):
                    for price in value.values():
                        add(out[domain].setdefault(key, {}), price)
                    continue
                value = value.lower() if isinstance(value, str) else str(value)
                if value == "?":
                    continue
                values = out[domain].setdefault(key, {})
                add(values, value if key == "phone" else normalize_text(value, pairs))
                variants = {"address": _ADDRESS_VARIANTS, "name": _NAME_VARIANTS}.get(key, ())
                for old, new in variants:
                    if old in value:
                        add(values, normalize_text(value.replace(old, new), pairs))
                        break
        for key, value in _EXTRA_FACTS.get(domain, ()):
            add(out[domain].setdefault(key, {}),
                value if key == "phone" else normalize_text(value.lower(), pairs))
    for domain, key in (("train", "price"), ("attraction", "entrance fee")):
        values = out[domain].setdefault(key, {})
        for price in list(values):
            words = price.split()
            if len(words) == 2 and words[1] == "pounds":
                number = str(float(words[0]))
                add(values, f"{number} pounds")
                add(values, f"{number} gbp")
    out["attraction"]["entrancefee"] = dict(out["attraction"].get("entrance fee", {}))
    return {d: {k: list(v) for k, v in fields.items()} for d, fields in out.items()}


def _replace(text: str, slot: str, value: str, tag: str) -> str:
    """``replace_slots`` on the delexicalized stream: every `` value `` becomes one tag per
    value word; a ``yes``/``no`` value replaces the slot's own name."""
    if value in ("yes", "no"):
        target, width = slot, 1
    else:
        target, width = value, len(value.split())
    return (f" {text} ").replace(f" {target} ", " " + " ".join([tag] * width) + " ")[1:-1]


def _turn_state(
    metadata: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]], pairs: WordPairs,
) -> tuple[dict[str, dict[str, str]], list[tuple[str, str]], set[str]]:
    """``get_state``: informable values per domain (database fields only, taxi any), the
    ``(domain, reference)`` of every booking, and the domains with any booking value."""
    state: dict[str, dict[str, str]] = {}
    refs: list[tuple[str, str]] = []
    booking_domains: set[str] = set()
    for domain in DOMAINS:
        parts = metadata.get(domain) or {}
        book = parts.get("book") or {}
        if any(len(v) > 0 for v in book.values()):
            booking_domains.add(domain)
        for booking in book.get("booked") or []:
            if isinstance(booking, Mapping) and "reference" in booking:
                refs.append((domain, normalize_text(str(booking["reference"]), pairs)))
        for key, value in (parts.get("semi") or {}).items():
            if not value or value == "not mentioned" or value in _DONTCARE:
                continue
            domain_state = state.setdefault(domain, {})
            if key in fields.get(domain, {}) or domain == "taxi":
                domain_state[key] = normalize_text(value, pairs)
    return state, refs, booking_domains


def _inform_fields(acts: Mapping[str, Any], domains: list[str]) -> set[str]:
    """``get_act`` and ``tag_slots_by_db``: the (lowercased) slots of the inform acts of the
    given domains, pooled."""
    out: set[str] = set()
    for act, pairs in acts.items():
        domain, _, intent = act.partition("-")
        if intent.lower() == "inform" and domain.lower() in domains:
            out.update(str(p[0]).lower() for p in pairs)
    return out


def delexicalize_system(text: str, entry: Mapping[str, Any], goal: Mapping[str, Any],
                        fields: Mapping[str, Mapping[str, list[str]]],
                        pairs: WordPairs = ()) -> str:
    """UniConv's delexicalized system response (``delex_system_txt``) of one ConvLab log
    entry: tags, then runs of one tag collapsed to ``<domain>_<slot>``."""
    words = normalize_text(detokenize_clitics(text), pairs)
    words = " ".join(words.split())
    state, refs, booking_domains = _turn_state(entry.get("metadata") or {}, fields, pairs)
    out = words
    for domain, slots in state.items():
        for slot, value in slots.items():
            out = _replace(out, slot, value, f"{domain}_inform_{slot}")
            if slot == "internet":
                out = _replace(out, "wifi", value, f"{domain}_inform_{slot}")
    for domain, ref in refs:
        for prefix in ("", "#", "ref#"):
            out = _replace(out, "reference", prefix + ref, f"{domain}_booking_reference")
    acts = entry.get("dialog_act") or {}
    if acts:
        active = [d for d in DOMAINS if f"{d}_" in out or state.get(d)
                  or d in booking_domains or d in ("police", "hospital")]
        informed = _inform_fields(acts, active)
        for domain in active:
            for key, values in fields.get(domain, {}).items():
                if key not in informed and key not in DB_FIELDS[domain]:
                    continue
                for value in values:
                    out = _replace(out, key, value, f"{domain}_value_{key}")
    tokens: list[str] = []
    delex = out.split()
    for i, token in enumerate(delex):
        if any(mark in token for mark in ("_inform_", "_value_", "_booking_")):
            if i > 0 and token == delex[i - 1]:
                continue
            parts = token.split("_")
            token = "_".join([parts[0], *parts[2:]])
        tokens.append(token)
    result = " ".join(tokens)
    taxi_requests = (goal.get("taxi") or {}).get("reqt") or []
    if "phone" in taxi_requests and "number" in result:
        for digits in re.findall(r"\d+", result):
            result = result.replace(digits, "taxi_phone")
    return result


def bracket_tags(text: str) -> str:
    """Put brackets around UniConv's bare tags so that response normalization sees
    placeholders: ``hotel_parking`` → ``[hotel_parking]``.

    >>> bracket_tags("hotel_name has free hotel_parking .")
    '[hotel_name] has free [hotel_parking] .'
    """
    return _TAG_RE.sub(r"[\1]", text)


def build_references(dialogues: Mapping[str, Mapping[str, Any]],
                     fields: Mapping[str, Mapping[str, list[str]]], pairs: WordPairs = (),
                     unknown: Counter[str] | None = None) -> pd.DataFrame:
    """UniConv-style ``references`` table of every system turn.

    Args:
        dialogues: raw ConvLab-2 dialogues (MultiWOZ 2.1 test) with ``goal`` and ``log``.
        fields: :func:`slot_values` of the MultiWOZ databases.
        pairs: UniConv's word pairs (``utils/mapping.pair``), ``()`` if unavailable.
        unknown: receives tags that response normalization deleted (e.g. ``hotel_day``).

    Returns:
        ``references`` table; ``delex`` is the bracketed UniConv output.
    """
    rows = []
    for did, turn, entry, dialogue in system_turns(dialogues):
        goal = dialogue.get("goal") or {}
        delex = bracket_tags(delexicalize_system(entry["text"], entry, goal, fields, pairs))
        rows.append(reference_row(did, turn, entry["text"], delex, unknown))
    return references_frame(rows)
