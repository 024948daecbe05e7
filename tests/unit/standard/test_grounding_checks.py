"""Attribute checks and entity values of one response, by hand (spans written out on the toy
restaurants of ``test_grounded``): which venue a value is checked against, which values are
not checked, and the comparable form each entity value takes."""

from __future__ import annotations

from mwzrepro.prepare.delex.delexicalize_responses import Span
from mwzrepro.standard.grounded_values import VenueRecords
from mwzrepro.standard.grounding_metrics import attribute_checks, entity_values
from tests.unit.standard.test_grounded import DB

RECORDS = VenueRecords(DB)


def _spans(text, *values):
    """Spans of ``(slot, given text, entities)`` at the slot's placeholders, in order."""
    out, pos = [], 0
    for slot, given, entities in values:
        pos = text.index(f"[{slot}]", pos)
        out.append(Span(slot, given, pos, pos + len(slot) + 2, entities))
        pos += 1
    return out


BANGKOK, NANDOS = (("restaurant", "1"),), (("restaurant", "3"),)


def test_values_are_checked_against_the_venue_named_before_them():
    text = ("[name] is in the [area] , [ref] . phone [phone] . [name] is [pricerange] . "
            "any in the [area] ?")
    spans = _spans(text, ("name", "Bangkok City", BANGKOK), ("area", "centre", ()),
                   ("ref", "ABCD1234", ()),                        # never checked
                   ("phone", "01223 354382", ()), ("name", "Nandos", NANDOS),
                   ("pricerange", "expensive", ()), ("area", "north", ()))
    out = attribute_checks(text, spans, [], [], RECORDS)
    assert [(c["slot"], c["text"], c["venue"], c["correct"]) for c in out] == [
        ("area", "centre", ["restaurant", "1"], True),          # same sentence
        ("phone", "01223 354382", ["restaurant", "1"], True),   # contact: a later sentence
        ("pricerange", "expensive", ["restaurant", "3"], False),  # nandos is cheap
    ]   # the last area: a sentence without a venue, a user's constraint -> not checked


def test_contact_values_fall_back_to_earlier_venues_and_the_state():
    text = "the phone is [phone] ."
    spans = _spans(text, ("phone", "01223 327908", ()))
    # the venue named last in an earlier turn, before the state's venue
    out = attribute_checks(text, spans, [("restaurant", "3")], [("restaurant", "1")], RECORDS)
    assert [(c["venue"], c["correct"]) for c in out] == [(["restaurant", "3"], True)]
    out = attribute_checks(text, spans, [], [("restaurant", "1")], RECORDS)
    assert [(c["venue"], c["correct"]) for c in out] == [(["restaurant", "1"], False)]
    # a fallback venue of a domain not active this turn: nothing checked
    assert attribute_checks(text, spans, [("restaurant", "3")], [], RECORDS,
                            active=["hotel"]) == []
    assert len(attribute_checks(text, spans, [("restaurant", "3")], [], RECORDS,
                                active=["restaurant"])) == 1
    # a taxi's phone: not a venue's
    taxi = "your taxi 's phone is [phone] ."
    assert attribute_checks(taxi, _spans(taxi, ("phone", "01223 327908", ())),
                            [("restaurant", "3")], [], RECORDS) == []
    # a car named only in a type span ("a white tesla") is a taxi too; any other type is not
    car = "a [type] will come , contact [phone] ."
    for kind, n in (("white tesla", 0), ("guesthouse", 1)):
        spans = _spans(car, ("type", kind, ()), ("phone", "01223 327908", ()))
        assert len(attribute_checks(car, spans, [("restaurant", "3")], [], RECORDS)) == n
    # in a taxi response the fallbacks are off (an address is the pickup's) and a phone is
    # the taxi's even after a venue's name; the venue's other values are still checked
    pickup = "the taxi will pick you up at [postcode] ."
    assert attribute_checks(pickup, _spans(pickup, ("postcode", "cb17dy", ())),
                            [("restaurant", "3")], [], RECORDS) == []
    named = "[name] is in the [area] ; your taxi 's phone is [phone] ."
    out = attribute_checks(named, _spans(named, ("name", "Nandos", NANDOS),
                                         ("area", "south", ()), ("phone", "01223 327908", ())),
                           [], [], RECORDS)
    assert [(c["slot"], c["correct"]) for c in out] == [("area", True)]
    # a descriptive value never falls back
    area = "it is in the [area] ."
    assert attribute_checks(area, _spans(area, ("area", "south", ())),
                            [("restaurant", "3")], [], RECORDS) == []


def test_a_value_right_for_one_of_several_named_venues_is_right():
    text = "[name] is in the [area] ."
    both = (("restaurant", "1"), ("restaurant", "5"))   # bangkok city (centre), curry garden
    out = attribute_checks(text, _spans(text, ("name", "x", both), ("area", "centre", ())),
                           [], [], RECORDS)
    assert [(c["venue"], c["correct"]) for c in out] == [(["restaurant", "1"], True)]
    out = attribute_checks(text, _spans(text, ("name", "x", both), ("area", "west", ())),
                           [], [], RECORDS)
    assert [(c["venue"], c["correct"]) for c in out] == [(["restaurant", "1"], False)]


def test_entity_values_take_their_comparable_forms():
    spans = [Span("ref", "ABCD1234", 0, 5),             # not counted, the rest still is
             Span("name", "Nandos or Bangkok City", 0, 6, (("restaurant", "3"),
                                                           ("restaurant", "1"))),
             Span("name", "The Golden Dragon", 0, 6),
             Span("trainid", "tr 1234", 0, 9), Span("phone", "01223 354382", 0, 7),
             Span("area", "City Centre", 0, 6)]
    assert entity_values(spans) == {
        ("name", "restaurant:1,restaurant:3"), ("name", "?the golden dragon"),
        ("trainid", "TR1234"), ("phone", "01223354382"), ("area", "centre")}
