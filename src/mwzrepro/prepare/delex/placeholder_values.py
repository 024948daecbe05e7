"""The values of relexicalization (:mod:`mwzrepro.prepare.delex.relexicalize`): the database
entity a domain's predicted state selects (spec-standard-evaluation §6 query, reference
matching) and the value each placeholder takes from that entity, the train and the turn's state.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.venue_database import ID_FIELD, VenueDatabase
from mwzrepro.prepare.delex.value_lexicon import STATIONS

__all__ = ["next_entity", "placeholder_value", "selected_entity", "venue_catalog"]

_REF_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"


@lru_cache(maxsize=4)
def venue_catalog(db: VenueDatabase) -> dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]:
    """``{domain: (entities, {id: first entity with that id})}``, read once per database."""
    out = {}
    for domain in db.domains:
        entities = db.entities(domain)
        by_id: dict[str, Any] = {}
        for i, e in zip(db.ids(domain), entities):
            by_id.setdefault(i, e)
        out[domain] = (entities, by_id)
    return out


def selected_entity(db: VenueDatabase, domain: str, state: Mapping[str, Any],
                    kept: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The entity (a field dict) whose values fill the domain's placeholders: the station of
    hospital/police; else ``kept`` while the domain's (normalized) state still selects it;
    else the first entity the state selects; else ``kept``, else the domain's first entity
    (``{}`` for a domain without database)."""
    if domain in STATIONS:
        return dict(STATIONS[domain])
    entities, by_id = venue_catalog(db).get(domain, ([], {}))
    if not entities:
        return {}
    ids = _selected(db, domain, state)
    if kept is not None and kept.get(ID_FIELD[domain]) in ids:
        return dict(kept)
    if ids:
        return by_id.get(ids[0], entities[0])
    return dict(kept) if kept is not None else entities[0]


def _selected(db: VenueDatabase, domain: str, state: Mapping[str, Any]) -> list[str]:
    """The ids the domain's state selects (spec §6 query); none without constraints or when
    the query refuses them."""
    constraints = state.get(domain)
    if not isinstance(constraints, Mapping) or not constraints:
        return []
    try:
        return db.query(domain, constraints)
    except InputError:
        return []


def next_entity(db: VenueDatabase, domain: str, state: Mapping[str, Any],
                used: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The first entity the domain's state selects (else the domain's first) that is not
    one of ``used``; the last of ``used`` when every one is."""
    entities, by_id = venue_catalog(db).get(domain, ([], {}))
    pool = [by_id[i] for i in _selected(db, domain, state) if i in by_id] or entities
    return dict(next((e for e in pool if e not in used), used[-1] if used else {}))


def _reference(key: str) -> str:
    digest = hashlib.sha256(key.encode()).digest()
    letters = "".join(_REF_ALPHABET[b % len(_REF_ALPHABET)] for b in digest[:4])
    digits = "".join(str(b % 10) for b in digest[4:8])
    return "".join(a + b for a, b in zip(letters, digits))


def placeholder_value(unified: str, name: str, domain: str | None, entity: Mapping[str, Any],
                      train_of: Callable[[], Mapping[str, Any]], slots: Mapping[str, Any],
                      key: str, before: str | None = None) -> str | None:
    """The value of one placeholder (the rules of :mod:`~.relexicalize`'s docstring), or None
    to leave it as it is.

    Args:
        unified: its unified name (spec-standard-evaluation §3.2: ``NAME``, ``PHONE``, ...).
        name: its lowercased written name (``hotel_name``, ``value_count``).
        domain: the domain it is read in (None: none known).
        entity: the entity of that domain (:func:`selected_entity`).
        train_of: gives the train entity (called only for train ids, prices, times, places).
        slots: the domain's state ``{normalized slot name: raw string value}``.
        key: seeds the booking reference and a missing phone number.
        before: the response text before the placeholder (the ``consistent`` mode), else None.

    >>> placeholder_value("DAY", "value_day", "hotel", {}, dict, {"bookday": "friday"}, "k")
    'friday'
    """
    def state_value(*names: str) -> str | None:
        for n in names:
            v = slots.get(n)
            if isinstance(v, str) and v and v not in ("dontcare", "not mentioned"):
                return v
        return None

    if before is not None and unified == "PRICE" and entity.get("entrancefee"):
        return entity["entrancefee"]
    train = train_of() if unified in ("TRAINID", "PRICE", "TIME", "PLACE") else {}
    if before is not None and domain == "train" and unified in ("TIME", "PLACE") and train:
        arrive = bool(re.search(r"\b(?:arriv\w*|to|in|into|by|reach\w*)\W*$", before))
        if unified == "TIME":
            return train.get("arrive" if "arrive" in name or arrive else "leave")
        side = "destination" if "dest" in name or (arrive and "depart" not in name) \
            else "departure"
        return train.get(side)
    if unified in ("NAME", "ADDRESS", "PHONE", "AREA", "FOOD"):
        value = entity.get(unified.lower()) or state_value(unified.lower())
        if value is None and unified == "PHONE":
            value = "07" + "".join(c for c in hashlib.sha256(key.encode()).hexdigest()
                                   if c.isdigit())[:9].ljust(9, "0")
        return value
    if unified == "POST":
        return entity.get("postcode")
    if unified == "TRAINID":
        return train.get("trainid")
    if unified == "REFERENCE":
        return _reference(key)
    if unified == "TYPE":
        if domain == "taxi" or "car" in name:
            return "black toyota"
        return entity.get("type") if domain in ("hotel", "attraction") else "hotel"
    if unified == "PRICE":
        if domain == "train" or "train" in name:
            return train.get("price")
        rng = entity.get("pricerange")
        return rng if rng and rng != "?" else "moderate"
    if unified == "TIME":
        t = state_value("booktime", "leave", "arrive") or train.get("leave")
        return t if t and re.fullmatch(r"\d{1,2}:\d{2}", t) else "12:15"
    if unified == "DAY":
        return state_value("bookday", "day") or "monday"
    if unified == "COUNT":
        if "star" in name:
            return str(entity.get("stars") or "4")
        if "people" in name or "stay" in name:
            v = state_value("bookpeople", "bookstay")
            return v if v and v.isdigit() else "2"
        return "3"
    if unified == "PLACE":
        side = "departure" if "depart" in name else "destination"
        v = state_value(side)
        return v or (train.get(side) if train.get(side) not in (None, "cambridge")
                     else "norwich")
    return None
