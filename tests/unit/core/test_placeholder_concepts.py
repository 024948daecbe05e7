"""The placeholder resolver's synonym table read for its *meaning*: the concept (the MultiWOZ
slot) each descriptive spelling resolves to, written out by hand — two concepts can share a
unified name (``arrival station`` and ``departure station`` are both ``PLACE``), so testing
the unified name alone cannot see one read as the other."""

from __future__ import annotations

import pytest

from mwzrepro.core.placeholder_resolver import resolve, table_name
from mwzrepro.core.state_dialects import resolve_slot

CONCEPTS = {
    # places of a trip: both PLACE, but opposite ends
    "arrival station": "destination", "destination station": "destination",
    "dropoff location": "destination", "departure station": "departure",
    "origin": "departure", "pickup location": "departure",
    # times: all TIME, three different slots
    "arrival time": "arrive", "arrives by": "arrive", "departure time": "leave",
    "pickup time": "leave", "travel time": "duration", "journey duration": "duration",
    # bookings: all COUNT or DAY, different slots
    "number of people": "people", "guests": "people", "number of nights": "stay",
    "length of stay": "stay", "weekday": "day",
    # prices: PRICE, but a venue's fee is not a ticket price, nor a price range
    "entry fee": "entrancefee", "ticket price": "price", "price level": "pricerange",
    # the rest
    "star rating": "stars", "wifi": "internet", "part of town": "area", "cuisine": "food",
    "postal code": "postcode", "confirmation number": "reference", "telephone": "phone",
}


@pytest.mark.parametrize("phrase, concept", CONCEPTS.items())
def test_each_descriptive_spelling_names_its_slot(phrase, concept):
    assert resolve(phrase).concept == concept
    assert resolve(phrase.replace(" ", "_")).concept == concept


def test_the_concept_decides_the_state_slot_and_the_table_name():
    assert resolve_slot("train", "arrival_time") == "arrive"
    assert resolve_slot("train", "departure_time") == "leave"
    assert resolve_slot("taxi", "arrival_station") == "destination"
    assert resolve_slot("taxi", "departure_station") == "departure"
    assert resolve_slot("hotel", "number_of_nights") == "bookstay"
    assert table_name("train_arrival_station") == "train_destination"
    assert table_name("train_departure_station") == "train_departure"


@pytest.mark.parametrize("name, concept, domain, reason", [
    ("num", "reference", None, "lexicon"),              # number alone: the reference
    ("no", "reference", None, "lexicon"),
    ("taxi_num", "phone", "taxi", "lexicon"),           # a taxi's number: its phone
    ("train_no", "trainid", "train", "lexicon"),        # a train's number: its id
    ("booking_id", "reference", None, "lexicon"),       # a booked id: the reference
    ("hotel_id", "id", "hotel", "lexicon"),
    ("phones", "phone", None, "lexicon"),               # a plural slot phrase
    ("restaurant_prices", "price", "restaurant", "lexicon"),
    ("hotels_phone", "phone", "hotel", "lexicon"),      # a plural domain word
    ("phonehotel", "phone", "hotel", "lexicon"),        # joined: a slot phrase, then a domain
    ("the_phone", "phone", None, "lexicon"),            # a filler dropped
    ("number_of_the_people", "people", None, "near miss of numberofpeople"),
    ("postcdes", "postcode", None, "near miss of postcode"),
    ("Hotels", None, "hotel", "no slot word"),
    ("xy", None, None, "no slot phrase 'xy'"),
    ("abcdefgh", None, None, "no slot phrase 'abcdefgh'"),
])
def test_resolutions_with_their_reasons(name, concept, domain, reason):
    r = resolve(name)
    assert (r.concept, r.domain, r.reason) == (concept, domain, reason)
