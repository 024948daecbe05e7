"""Dialects of predicted dialogue states: the domains and slot names a state may
use, the ones the ontology does not know, and — under ``placeholders = extended`` — their
resolution by the placeholder-name rule (:mod:`mwzrepro.core.placeholder_resolver`).

Spec addendum (states; signature field ``ph:ext`` as for placeholders)
----------------------------------------------------------------------

**Why.** The reference evaluator uses a predicted state as written: a misspelled domain
(``"restuarant": {"food": "indian"}``) or a slot it does not know (``"hotel": {"colour":
"red"}``) silently changes the active domains, the database queries and the state metrics
(on a public file: Inform 83.4 → 77.1 and JGA → 0.0). States in the MultiWOZ 2.2 dialect
(``book_day``, ``leave_at``) lose their booking slots the same way.

**What is known.** The ontology is :data:`ONTOLOGY`: the domain-slot pairs of the MultiWOZ
2.1 ontology under the reference evaluator's slot names (§4.1: ``leave``, ``arrive``,
``bookday``, ``bookpeople``, ``bookstay``, ``booktime``, as its gold states write them), with
``hospital``/``police``/``bus``. A slot is *known* when its name after §4.1
(:func:`~mwzrepro.core.normalize_state.normalize_slot_name`: lowercase, spaces removed,
``arriveby``/``leaveat``) is a slot of some domain, or one of the mwzeval booking names
:data:`MWZEVAL_BOOKING_SLOTS` (``people``, ``day``, ``stay``, ``time``) that the published
systems write; a known slot under another domain (``attraction``-``food``) is a prediction,
not a dialect, and is left alone.

**Every run** lists the unknown domains and the unknown ``domain-slot`` names with the number
of turns whose state has them (one warning line each); under ``reference`` they are scored as
given, as the reference evaluator does.

**Under extended** each unknown name is resolved by the placeholder-name rule: a domain is a
domain word (``restuarant`` → ``restaurant``); a slot is a concept whose state name the domain
has (:data:`~mwzrepro.core.placeholder_lexicon.CONCEPT_STATE_SLOTS`: ``book_day`` →
``bookday``, ``leave_at`` → ``leave``, ``book_people`` → ``bookpeople``, ``train-leaveat`` in
``train`` → ``leave``); a slot naming another domain stays unknown. A resolved name never
overrides one the state gives in its known form (the given value wins). What stays unknown is
dropped, so that it changes no number; the warning says which. The state-based blocks (the
reference evaluator's state metrics, the DST metrics) carry ``ph:ext`` in their signatures
when ``extended`` changed a state of the file (Inform/Success, BLEU and richness always do
under ``extended``); under ``reference``, the "with placeholders=extended" line gives
Inform, Success, BLEU and the joint accuracy with the resolved states.

>>> state = {"restuarant": {"food": "indian"}, "hotel": {"book_day": "monday", "colour": "red"}}
>>> resolve_state(state)
{'hotel': {'bookday': 'monday'}, 'restaurant': {'food': 'indian'}}
>>> dict(scan_states([state]).unknown_slots)
{('hotel', 'book_day'): 1, ('hotel', 'colour'): 1}
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from mwzrepro.core.normalize_state import normalize_slot_name
from mwzrepro.core.placeholder_lexicon import CONCEPT_STATE_SLOTS
from mwzrepro.core.placeholder_resolver import domain_word, resolve

__all__ = ["ONTOLOGY", "MWZEVAL_BOOKING_SLOTS", "KNOWN_SLOTS", "StateDialects", "resolve_domain",
           "resolve_slot", "resolve_state", "resolve_state_json", "cells_have_unknown", "scan_states",
           "scan_predictions", "state_names", "state_warnings"]

#: Domain → slots (the reference evaluator's normalized names; module docstring).
ONTOLOGY: dict[str, frozenset[str]] = {d: frozenset(s.split()) for d, s in {
    "attraction": "area name type",
    "hotel": "area bookday bookpeople bookstay internet name parking pricerange stars type",
    "restaurant": "area bookday bookpeople booktime food name pricerange",
    "taxi": "arrive departure destination leave",
    "train": "arrive bookpeople day departure destination leave",
    "hospital": "department", "police": "", "bus": "day departure destination leave",
}.items()}

#: Booking slots without ``book`` as the published systems' mwzeval states write them.
MWZEVAL_BOOKING_SLOTS = frozenset({"people", "day", "stay", "time"})

#: Every slot name a state may use as it is.
KNOWN_SLOTS = frozenset().union(*ONTOLOGY.values()) | MWZEVAL_BOOKING_SLOTS


def resolve_domain(domain: str) -> str | None:
    """The ontology domain an unknown domain name resolves to, or None.

    >>> resolve_domain("restuarant"), resolve_domain("Hotels"), resolve_domain("shop")
    ('restaurant', 'hotel', None)
    """
    found = domain_word(str(domain).strip().lower())
    return found if found in ONTOLOGY else None


def resolve_slot(domain: str, slot: str) -> str | None:
    """The state slot name an unknown slot of a known ``domain`` resolves to, or None.

    >>> resolve_slot("hotel", "book_day"), resolve_slot("train", "train-leaveat")
    ('bookday', 'leave')
    >>> resolve_slot("hotel", "colour"), resolve_slot("hotel", "restaurant_food")
    (None, None)
    """
    r = resolve(str(slot))
    if r.concept is None or (r.domain is not None and r.domain != domain):
        return None
    return next((s for s in CONCEPT_STATE_SLOTS.get(r.concept, ())
                 if s in ONTOLOGY.get(domain, ())), None)


def _known_slot(slot: Any) -> bool:
    return isinstance(slot, str) and _known_name(slot)


@lru_cache(maxsize=4096)
def _known_name(slot: str) -> bool:
    return normalize_slot_name(slot) in KNOWN_SLOTS


def resolve_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A state ``{domain: {slot: value}}`` with its unknown names resolved and the rest of the
    unknown names dropped (module docstring); entries that are not mappings are kept for the
    validation that follows."""
    out: dict[str, Any] = {}
    pending: list[tuple[str, dict[str, Any]]] = []
    for domain, slots in state.items():
        if not isinstance(slots, Mapping):
            out[domain] = slots
            continue
        target = domain if domain in ONTOLOGY else resolve_domain(domain)
        if target is None:
            continue
        kept: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for slot, value in slots.items():
            if _known_slot(slot):
                kept[slot] = value
            else:
                name = resolve_slot(target, slot)
                if name is not None:
                    extra.setdefault(name, value)
        given = {normalize_slot_name(s) for s in kept}
        kept.update((k, v) for k, v in extra.items() if k not in given)
        if target == domain:
            out[domain] = kept
        else:
            pending.append((target, kept))
    for target, slots in pending:
        merged = out.setdefault(target, {})
        if isinstance(merged, dict):
            given = {normalize_slot_name(s) for s in merged}
            merged.update((k, v) for k, v in slots.items()
                          if normalize_slot_name(k) not in given)
    return out


@lru_cache(maxsize=1 << 14)
def resolve_state_json(state_json: str | None) -> str | None:
    """:func:`resolve_state` of a ``state_json`` cell (compact JSON, as
    :mod:`mwzrepro.prepare.predictions` writes it); the cell itself when nothing changes."""
    if state_json is None or not _unknown_key(_JSON_STRING.findall(state_json)):
        return state_json
    state = json.loads(state_json)
    out = resolve_state(state)
    return state_json if out == state else json.dumps(out, ensure_ascii=False,
                                                      separators=(",", ":"))


#: Every JSON string of a state cell and what follows it: ``:{`` (a domain key), ``:`` (a
#: slot key) or nothing (a value).
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"(:\{|:)?')


def _unknown_key(strings: Iterable[tuple[str, str]]) -> bool:
    """Whether one of the keys among ``(string, what follows it)`` pairs of compact state
    JSON is outside the ontology: ``:{`` follows a domain key, ``:`` a slot key, nothing a
    value (escaped keys are decoded by ``json``)."""
    for key, kind in strings:
        if not kind:
            continue
        if "\\" in key:
            key = json.loads(f'"{key}"')
        if (key not in ONTOLOGY) if kind == ":{" else not _known_name(key):
            return True
    return False


def cells_have_unknown(cells: Iterable[str | None]) -> bool:
    """Whether any ``state_json`` cell of a column has a domain or slot name outside the
    ontology: one regular-expression pass over the distinct cells (every run makes it).

    >>> cells_have_unknown(['{"hotel":{"area":"x"}}', None])
    False
    >>> cells_have_unknown(['{"hotel":{"colour":"red"}}'])
    True
    """
    text = "\n".join(dict.fromkeys(c for c in cells if c))
    return _unknown_key(set(_JSON_STRING.findall(text)))


@dataclass
class StateDialects:
    """Unknown names of the predicted states of one file, each with the number of turns
    whose state has it: domains, and ``(domain, slot)`` for slots of known domains."""

    unknown_domains: Counter[str] = field(default_factory=Counter)
    unknown_slots: Counter[tuple[str, str]] = field(default_factory=Counter)

    def __bool__(self) -> bool:
        return bool(self.unknown_domains or self.unknown_slots)


def scan_states(states: Iterable[Any]) -> StateDialects:
    """The :class:`StateDialects` of predicted states (one per turn; anything that is not a
    ``{domain: {slot: value}}`` mapping is skipped)."""
    out = StateDialects()
    for state in states:
        if not isinstance(state, Mapping):
            continue
        for domain, slots in state.items():
            if domain not in ONTOLOGY:
                out.unknown_domains[str(domain)] += 1
            elif isinstance(slots, Mapping):
                out.unknown_slots.update((domain, str(s)) for s in slots if not _known_slot(s))
    return out


def scan_predictions(data: Mapping[str, Any]) -> StateDialects:
    """:func:`scan_states` of the turns of a prediction mapping ``{dialogue id: [turn, ...]}``
    (turns without a ``state`` object are skipped)."""
    return scan_states(t.get("state") for turns in data.values() if isinstance(turns, list)
                       for t in turns if isinstance(t, Mapping))


def _named(key: str | tuple[str, str]) -> tuple[str, str | None]:
    """``(display name, resolved name or None)`` of an unknown domain or (domain, slot)."""
    if isinstance(key, tuple):
        return f"{key[0]}-{key[1]}", resolve_slot(*key)
    return key, resolve_domain(key)


def _labels(counts: Counter[Any]) -> list[tuple[str, str, int]]:
    """``(display name, "<name> → <resolved>" or "<name> ignored", turns)`` of unknown names
    (domains or (domain, slot) pairs, with their turn counts), sorted by name and target."""
    return [(name, f"{name} → {target}" if target else f"{name} ignored", n)
            for (name, target), n in sorted((_named(k), n) for k, n in counts.items())]


def state_names(found: StateDialects) -> dict[str, int]:
    """``{"<name> → <resolved>" or "<name> ignored": turns}`` of the unknown names (what
    ``extended`` does with each), domains first, then slots, each sorted.

    >>> state_names(StateDialects(Counter({"restuarant": 3}), Counter({("hotel", "colour"): 2})))
    {'restuarant → restaurant': 3, 'hotel-colour ignored': 2}
    """
    return {label: n for counts in (found.unknown_domains, found.unknown_slots)
            for _, label, n in _labels(counts)}


def state_warnings(found: StateDialects, source: str, placeholders: str) -> list[str]:
    """One warning line for unknown domains and one for unknown slots (none when there are
    none); under ``extended`` each says how every name is resolved or that it is ignored.

    >>> found = StateDialects(Counter({"restuarant": 3}), Counter({("hotel", "colour"): 2}))
    >>> for line in state_warnings(found, "x.json", "reference"): print(line)
    x.json: predicted states name domains the ontology does not know, scored as given (as the reference evaluator does; placeholders=extended resolves or ignores them): restuarant ×3 turns
    x.json: predicted states name slots the ontology does not know, scored as given (as the reference evaluator does; placeholders=extended resolves or ignores them): hotel-colour ×2 turns
    >>> state_warnings(found, "x.json", "extended")[1]
    'x.json: predicted states name slots the ontology does not know; placeholders=extended: hotel-colour ignored (×2 turns)'
    """
    lines = []
    for kind, counts in (("domains", found.unknown_domains), ("slots", found.unknown_slots)):
        if not counts:
            continue
        named = _labels(counts)
        if placeholders == "extended":
            parts = [f"{label} (×{n} turns)" for _, label, n in named]
            lines.append(f"{source}: predicted states name {kind} the ontology does not know; "
                         f"placeholders=extended: {', '.join(parts)}")
        else:
            parts = [f"{name} ×{n} turns" for name, _, n in named]
            lines.append(f"{source}: predicted states name {kind} the ontology does not know, "
                         "scored as given (as the reference evaluator does; "
                         f"placeholders=extended resolves or ignores them): {', '.join(parts)}")
    return lines
