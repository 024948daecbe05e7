"""The synonym lexicon of the placeholder-name resolver
(:mod:`mwzrepro.core.placeholder_resolver`; the addendum of :mod:`mwzrepro.core.placeholders`):
which words name a domain, which words only qualify a name, and which slot phrases name which
*concept* (a MultiWOZ slot), with the unified name (spec-standard-evaluation §3.2) and the
dialogue-state slot name each concept has.

Sources. The concepts are the slots of the MultiWOZ 2.1/2.2 ontology plus the
requestables that have placeholders (phone, postcode, reference, ...). :data:`TABLE_SLOTS`
is the slot part of every name of the reference table (:data:`~mwzrepro.core.slot_map.
SLOT_MAP`, after its ``<domain>_``/``value_`` prefix), so every table name is in the
lexicon with the meaning the table gives it (a test checks it); :data:`SYNONYMS` are the
descriptive spellings of LLM prompts and newer systems, one family per line (the synonym
families of :mod:`mwzrepro.core.placeholders`: ``reference``/``ref``/``number``/
``confirmation`` → reference, ``phone``/``telephone`` → phone,
``time``/``duration``/``travel time`` → duration, ``type`` with food → food,
``people``/``persons``/``guests`` → people, ``postal code``/``zip`` → postcode), the
MultiWOZ 2.2 names (``leaveat``, ``arriveby``, ``bookday``, ``bookpeople``, ...) and the
train-time forms of the earlier ``extended`` table (``departuretime``, ``arrivaltime``).

Phrases are written with spaces; the resolver compares them compacted (without spaces), so
``post code``, ``post_code`` and ``postcode`` are one entry.
"""

from __future__ import annotations

__all__ = ["DOMAIN_WORDS", "QUALIFIERS", "FILLERS", "TABLE_SLOTS", "SYNONYMS",
           "CONTEXT_NUMBER", "CONCEPT_TABLE_NAMES", "CONCEPT_STATE_SLOTS"]

#: Words that name a domain: the domains of the reference table and the ontology's ``bus``.
DOMAIN_WORDS = frozenset({"attraction", "hospital", "hotel", "police", "restaurant", "taxi",
                          "train", "bus"})

#: Words that qualify a name without naming a slot or a domain (removed before the slot
#: phrase is read): ``value_`` (the reference forms), the booking words (``booking`` is the
#: issue's domain-like word: ``[booking_reference]``, ``[hotel_booking_time]``).
QUALIFIERS = frozenset({"value", "booking", "book", "booked", "reservation", "reserved"})

#: Words dropped when the slot phrase is not found with them (``number of people``,
#: ``type of food`` are found with them).
FILLERS = frozenset({"the", "of", "a", "an", "for", "slot", "info", "information"})

#: Slot part of every reference-table name → concept (the table's own vocabulary).
TABLE_SLOTS: dict[str, str] = {
    "address": "address", "area": "area", "time": "time", "booktime": "time",
    "duration": "duration", "arriveby": "arrive", "arrive": "arrive", "leaveat": "leave",
    "leave": "leave", "day": "day", "bookday": "day", "destination": "destination",
    "departure": "departure", "place": "place", "food": "food", "name": "name",
    "phone": "phone", "postcode": "postcode", "price": "price", "entrancefee": "entrancefee",
    "pricerange": "pricerange", "ref": "reference", "reference": "reference",
    "stars": "stars", "stay": "stay", "bookstay": "stay", "people": "people",
    "bookpeople": "people", "choice": "choice", "count": "choice", "type": "type",
    "car": "car", "trainid": "trainid", "id": "id", "internet": "internet",
    "parking": "parking", "department": "department", "openhours": "openhours",
}

#: Descriptive spellings → concept (module docstring; phrases with spaces).
SYNONYMS: dict[str, str] = {
    # reference
    "reference number": "reference", "ref number": "reference", "ref no": "reference",
    "reference code": "reference", "ref code": "reference", "confirmation": "reference",
    "confirmation number": "reference", "confirmation code": "reference",
    "confirmation id": "reference", "reference id": "reference",
    # phone
    "telephone": "phone", "telephone number": "phone", "phone number": "phone",
    "phone no": "phone", "contact number": "phone", "tel": "phone",
    # durations and times
    "travel time": "duration", "journey time": "duration", "trip time": "duration",
    "ride time": "duration", "travel duration": "duration", "journey duration": "duration",
    "trip duration": "duration", "journey length": "duration",
    "departure time": "leave", "leave time": "leave", "leaving time": "leave",
    "depart time": "leave", "pickup time": "leave", "pick up time": "leave",
    "leave at": "leave", "leaves at": "leave", "departs at": "leave",
    "arrival time": "arrive", "arrive time": "arrive", "arriving time": "arrive",
    "arrive by": "arrive", "arrives by": "arrive", "arrives at": "arrive",
    # food
    "food type": "food", "type of food": "food", "cuisine": "food", "cuisine type": "food",
    "type of cuisine": "food",
    # people, stay, day
    "persons": "people", "person": "people", "guests": "people", "number of people": "people",
    "number of persons": "people", "number of guests": "people", "party size": "people",
    "group size": "people", "num people": "people",
    "nights": "stay", "number of nights": "stay", "length of stay": "stay",
    "stay length": "stay", "duration of stay": "stay",
    "date": "day", "weekday": "day",
    # postcode
    "postal code": "postcode", "post code": "postcode", "zip": "postcode",
    "zip code": "postcode", "zipcode": "postcode",
    # places of a trip
    "departure station": "departure", "departure location": "departure",
    "departure place": "departure", "departure city": "departure", "origin": "departure",
    "pickup location": "departure", "pick up location": "departure",
    "destination station": "destination", "destination location": "destination",
    "destination place": "destination", "destination city": "destination",
    "arrival station": "destination", "dropoff location": "destination",
    "drop off location": "destination",
    # prices
    "cost": "price", "fare": "price", "ticket price": "price", "total cost": "price",
    "total price": "price", "total fare": "price", "entry fee": "entrancefee",
    "admission fee": "entrancefee", "admission": "entrancefee",
    "admission price": "entrancefee", "price level": "pricerange",
    # the rest
    "star rating": "stars", "star": "stars", "rating": "stars", "wifi": "internet",
    "wi fi": "internet", "internet access": "internet", "choices": "choice",
    "number of choices": "choice", "options": "choice", "number of options": "choice",
    "num choices": "choice", "car type": "car", "car model": "car", "vehicle": "car",
    "vehicle type": "car", "opening hours": "openhours", "open hours": "openhours",
    "opening times": "openhours", "hours": "openhours", "part of town": "area",
    "neighborhood": "area", "neighbourhood": "area", "district": "area",
    "street address": "address",
    # the earlier extended table's forms no reference table name contains
    "departuretime": "leave", "arrivaltime": "arrive",
}

#: ``number`` alone: the reference, except with ``taxi`` (the car's phone) and ``train``
#: (the train id).
CONTEXT_NUMBER: dict[str, str] = {"": "reference", "taxi": "phone", "train": "trainid"}

#: Concept → the reference-table name whose unified name it takes, where that is not the
#: concept itself (every other concept is a table name: every unified name comes from the
#: table); ``id`` with a domain other than ``train`` takes ``attraction_id``'s (ID), as the
#: table's ``hospital_id``/``attraction_id``/``restaurant_id`` (the resolver's rule step 6).
CONCEPT_TABLE_NAMES: dict[str, str] = {"arrive": "arriveby", "leave": "leaveat",
                                       "place": "value_place"}

#: Concept → the state slot names (the reference evaluator's normalized names, §4.1, as its
#: gold states write them) it can be, first the booking form; the one the domain has is used.
CONCEPT_STATE_SLOTS: dict[str, tuple[str, ...]] = {
    "name": ("name",), "area": ("area",), "food": ("food",), "pricerange": ("pricerange",),
    "type": ("type",), "stars": ("stars",), "internet": ("internet",),
    "parking": ("parking",), "departure": ("departure",), "destination": ("destination",),
    "leave": ("leave",), "arrive": ("arrive",), "day": ("bookday", "day"),
    "people": ("bookpeople",), "stay": ("bookstay",), "time": ("booktime",),
    "department": ("department",),
}
