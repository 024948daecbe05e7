"""Database values against the values a lexicalized response gives (the grounded setting,
:mod:`mwzrepro.standard.grounded`): the venue records behind entity ids, which field of a
venue a given value is checked against, and when two values are the same "up to formatting".

**Fields checked** (:data:`CHECKED_FIELDS`, ``{domain: {span slot: database fields}}``): phone,
address and postcode of restaurants, hotels, attractions and the police and hospital
stations; area, price range and food (restaurant), type (hotel, attraction), entrance fee
(attraction: ``free`` or an amount); for trains departure, destination, leave and arrive
times (a time is right when it is either) and price. Stars have no span in lex:1 (the
digit is a count), so they are not checked.

**Same value** (:func:`same_value`): phone — the same digits; postcode — the same letters and
digits (``c.b 2, 1 u.f`` = ``cb21uf``); address — the same tokens after ``rd``→``road``,
``st``→``street``, ``&``→``and``, or one a run of at least two tokens of the other (a
response may give ``83 regent street`` of ``83 regent street, cambridge``); area —
``city centre``/``town centre``/``center`` = ``centre``; price range — ``moderately
(priced)`` = ``moderate``, ``inexpensive``/``cheaply priced`` = ``cheap``; type — without
spaces and a plural ``s`` (``guest houses`` = ``guesthouse``); times — the same minutes
(``5:30 pm`` = ``17:30``); prices and fees — the same amount (``£10.10`` = ``10.10 pounds``;
``free`` and its forms = ``free``; a train price may be a booking total, a whole multiple of
the ticket price to 5 pence: ``70.8 GBP`` for three tickets at 23.60); anything else — the
same tokens. The type ``hotel`` is not checked: writers call guesthouses hotels.

>>> same_value("phone", "01223 356666", "01223356666"), same_value("postcode", "C.B 2, 1 A.W", "cb21aw")
(True, True)
>>> same_value("address", "83 Regent St", "83 regent street"), same_value("time", "5:30 pm", "17:30")
(True, True)
>>> same_value("type", "guest houses", "guesthouse"), same_value("price", "£17.6", "17.60 pounds")
(True, True)
>>> same_value("phone", "01223 356667", "01223356666")
False
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from mwzrepro.core.venue_database import ID_FIELD
from mwzrepro.prepare.delex.value_lexicon import STATIONS, tokens

__all__ = ["state_venue", "CHECKED_FIELDS", "CONTACT_SLOTS", "VenueRecords", "venue_records", "same_value",
           "value_key", "parse_minutes"]

_CONTACT = {"phone": ("phone",), "address": ("address",), "postcode": ("postcode",)}

#: ``{domain: {span slot: database fields it may be}}`` (module docstring).
CHECKED_FIELDS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "restaurant": {**_CONTACT, "area": ("area",), "pricerange": ("pricerange",),
                   "food": ("food",)},
    "hotel": {**_CONTACT, "area": ("area",), "pricerange": ("pricerange",), "type": ("type",)},
    "attraction": {**_CONTACT, "area": ("area",), "type": ("type",),
                   "entrancefee": ("entrancefee",), "price": ("entrancefee",)},
    "train": {"departure": ("departure",), "destination": ("destination",),
              "time": ("leave", "arrive"), "price": ("price",)},
    "police": _CONTACT, "hospital": _CONTACT,
}

#: Slots read against the venue in focus of the dialogue even when the response names none
#: (``its phone number is ...``); the others only against a venue the same sentence names.
CONTACT_SLOTS = frozenset(_CONTACT)

_AREAS = {"city centre": "centre", "town centre": "centre", "center": "centre",
          "city center": "centre"}
_PRICE_RANGES = {"moderately priced": "moderate", "moderately": "moderate",
                 "inexpensive": "cheap", "cheaply priced": "cheap"}
_FREE = re.compile(r"^(?:free|free of charge|free admission|free entrance|no entrance fee)$")
_AMOUNT = re.compile(r"\d+(?:\.\d+)?")
_TIME = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?\s*([ap])?\.?\s*m?\.?$")
_ADDRESS_FORMS = {"rd": "road", "st": "street"}


class VenueRecords:
    """The database rows behind entity ids: ``rows[(domain, id)] -> [row, ...]`` (a train id
    can run on several days and routes: all its rows), from a
    :class:`~mwzrepro.core.venue_database.VenueDatabase` (fields after spec-standard-evaluation §5.1) plus the
    police and hospital stations (id = their name)."""

    def __init__(self, database: Any) -> None:
        self.rows: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
        for domain in database.domains:
            for row in database.entities(domain):
                self.rows.setdefault((domain, str(row.get(ID_FIELD[domain]))), []).append(row)
        for domain, station in STATIONS.items():
            self.rows[(domain, station["name"])] = [station]

    def get(self, ref: tuple[str, str]) -> list[Mapping[str, Any]]:
        """The rows of one entity (``[]`` when unknown)."""
        return self.rows.get(ref, [])

    def check(self, ref: tuple[str, str], slot: str, given: str) -> bool | None:
        """Whether ``given`` (a span of ``slot``) is the entity's value: True/False, or None
        when the entity's domain has no such field (:data:`CHECKED_FIELDS`) or the entity is
        unknown."""
        fields = CHECKED_FIELDS.get(ref[0], {}).get(slot)
        rows = self.get(ref)
        if not fields or not rows:
            return None
        values = [row[f] for row in rows for f in fields
                  if isinstance(row.get(f), str) and row[f] != "?"]
        if not values or (slot == "type" and value_key("type", given) == "hotel"):
            return None
        return any(same_value(slot, given, v) for v in values)


@lru_cache(maxsize=4)
def venue_records(database: Any) -> VenueRecords:
    """:class:`VenueRecords` of a database, built once per database object."""
    return VenueRecords(database)


def _words(text: str) -> list[str]:
    return [t for t, _, _ in tokens(text) if t.isalnum()]


def parse_minutes(text: str) -> int | None:
    """Minutes since midnight of a written time (``17:15``, ``5.30 pm``, ``5 pm``), else None.

    >>> parse_minutes("5 pm"), parse_minutes("12:05 am"), parse_minutes("soon")
    (1020, 5, None)
    """
    m = _TIME.match(text.strip().lower())
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3) == "p" and hour < 12:
        hour += 12
    elif m.group(3) == "a" and hour == 12:
        hour = 0
    return 60 * hour + minute


def _amount(text: str) -> str | None:
    low = " ".join(text.lower().split())
    if _FREE.match(low):
        return "free"
    m = _AMOUNT.search(low)
    return f"{float(m.group()):.2f}" if m else None


@lru_cache(maxsize=1 << 16)
def value_key(slot: str, text: str) -> str:
    """The comparable form of a value of ``slot`` (:func:`same_value` compares these; entity
    F1 counts them).

    >>> value_key("pricerange", "Moderately priced"), value_key("address", "Hills Rd")
    ('moderate', 'hills road')
    """
    low = " ".join(_words(text))
    if slot == "phone":
        return re.sub(r"\D", "", text)
    if slot == "postcode":
        return re.sub(r"[^a-z0-9]", "", text.lower())
    if slot == "address":
        return " ".join(_ADDRESS_FORMS.get(w, w) for w in low.split())
    if slot == "area":
        return _AREAS.get(low, low)
    if slot == "pricerange":
        return _PRICE_RANGES.get(low, low)
    if slot == "type":
        squashed = low.replace(" ", "")
        return squashed[:-1] if squashed.endswith("s") and len(squashed) > 4 else squashed
    if slot == "time":
        minutes = parse_minutes(text)
        return low if minutes is None else f"{minutes // 60:02d}:{minutes % 60:02d}"
    if slot in ("price", "entrancefee"):
        return _amount(text) or low
    return low


def same_value(slot: str, given: str, true: str) -> bool:
    """Whether a given value of ``slot`` is the database value ``true`` up to formatting
    (module docstring)."""
    a, b = value_key(slot, given), value_key(slot, true)
    if not a:
        return False
    if a == b:
        return True
    if slot == "address":
        shorter, longer = sorted((a, b), key=len)
        return len(shorter.split()) >= 2 and f" {shorter} " in f" {longer} "
    if slot == "price" and a != "free" and b not in ("free", "0.00"):
        try:                            # a booking total: several tickets at the unit price
            n = float(a) / float(b)
        except ValueError:
            return False
        return 1 < round(n) <= 99 and abs(float(a) - round(n) * float(b)) <= 0.05
    return False


def state_venue(domain: str, state: Mapping[str, Any], database: Any) -> list[tuple[str, str]]:
    """``[(domain, entity id)]`` of the venue a state's ``name`` slot of ``domain`` names (the
    first database match; ``[]`` without a name or a match). ``state``: ``{domain: {slot:
    value}}``; ``database``: a :class:`~mwzrepro.core.venue_database.VenueDatabase`."""
    slots = state.get(domain)
    name = slots.get("name") if isinstance(slots, Mapping) else None
    if not isinstance(name, str) or not name:
        return []
    return [(domain, i) for i in database.query(domain, {"name": name})[:1]]
