"""The value rules of the grounded setting (``standard.grounded_values``) on hand-written
records: which venue field a value is checked against and when it is not checked, times of
day, amounts, addresses and booking totals."""

from __future__ import annotations

import pytest

from mwzrepro.standard.grounded_values import (
    VenueRecords,
    parse_minutes,
    same_value,
    state_venue,
    value_key,
)


@pytest.fixture(autouse=True)
def _computed():
    """value_key keeps its results (lru_cache): each test computes its own."""
    value_key.cache_clear()


class ToyDB:
    """Hotel 1 (a guesthouse, phone unknown '?'), restaurant 2; ``query`` returns ``ids``."""

    domains = ("hotel", "restaurant")

    def __init__(self, ids=("1",)):
        self.ids = list(ids)

    def entities(self, domain):
        if domain == "hotel":
            return [{"id": 1, "type": "guesthouse", "phone": "?", "area": "north"}]
        return [{"id": 2, "phone": "01223 356666", "food": "thai"}]

    def query(self, domain, constraints):
        return self.ids


def test_a_value_is_checked_only_against_a_known_field_of_a_known_venue():
    records = VenueRecords(ToyDB())
    assert records.get(("hotel", "9")) == []
    assert records.check(("restaurant", "2"), "phone", "01223356666") is True
    assert records.check(("restaurant", "2"), "food", "italian") is False
    assert records.check(("restaurant", "2"), "stars", "4") is None      # not a checked slot
    assert records.check(("taxi", "x"), "phone", "01223356666") is None  # not a venue domain
    assert records.check(("hotel", "1"), "phone", "01223356666") is None  # the value is '?'
    # the police and hospital stations are venues named by their names
    assert records.check(("police", "parkside police station"), "phone", "01223358966") is True


def test_the_type_hotel_is_not_checked_but_other_types_are():
    records = VenueRecords(ToyDB())
    assert records.check(("hotel", "1"), "type", "hotels") is None
    assert records.check(("hotel", "1"), "type", "guest houses") is True
    assert records.check(("hotel", "1"), "type", "b&b") is False
    assert records.check(("hotel", "1"), "area", "hotel") is False


def test_times_of_day():
    assert parse_minutes("12 pm") == 720 and parse_minutes("12:30") == 750
    assert parse_minutes("5 am") == 300 and parse_minutes("5.15 p.m.") == 1035


def test_amounts_and_free():
    assert value_key("price", "free of  charge") == "free"
    assert value_key("price", "£10") == "10.00"
    assert value_key("price", "to be confirmed") == "to be confirmed"


def test_addresses_match_on_a_run_of_at_least_two_tokens():
    assert same_value("address", "regent street", "83 regent street, cambridge") is True
    assert same_value("address", "cambridge", "83 regent street, cambridge") is False
    assert same_value("address", "hills road", "83 regent street") is False


def test_a_booking_total_is_two_to_99_tickets_and_only_for_a_price():
    assert same_value("price", "47.20 pounds", "23.60") is True             # 2 tickets
    assert same_value("price", "99", "1.00") is True                        # 99 tickets
    assert same_value("price", "free", "10 pounds") is False
    assert same_value("price", "5 pounds", "0.00") is False                 # a free ticket
    assert same_value("entrancefee", "5 pounds", "free") is False
    assert same_value("phone", "246", "123") is False                       # not a price
    assert same_value("price", "5 pounds", "to be confirmed") is False      # no amount
    assert same_value("phone", "no number", "01223356666") is False


def test_the_state_names_the_venue_by_its_first_match():
    assert state_venue("hotel", {"hotel": {"name": "a and b"}}, ToyDB(["1", "7"])) == [
        ("hotel", "1")]
    assert state_venue("hotel", {"hotel": {"name": ""}}, ToyDB()) == []
    assert state_venue("hotel", {}, ToyDB()) == []
