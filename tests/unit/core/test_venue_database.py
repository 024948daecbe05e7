"""spec-standard-evaluation §5.1 (loading) and §6 (query) on a small hand-written database."""

from __future__ import annotations

import json
import random

import pytest

from mwzrepro.core.venue_database import (
    DONTCARE_VALUES,
    VenueDatabase,
    database_field,
    file_sha256,
)
from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.fuzzy import partial_ratio_reference
from mwzrepro.core.normalize_state import normalize_value, time_to_minutes

RESTAURANTS = [
    {
        "address": "1 a st",
        "area": "centre",
        "food": "chinese",
        "id": "1",
        "introduction": "x",
        "location": [52.2, 0.1],
        "name": "golden house",
        "phone": "01223",
        "postcode": "cb1",
        "pricerange": "cheap",
        "type": "restaurant",
    },
    {
        "address": "2 b st",
        "area": "centre",
        "food": "asian oriental",
        "id": "2",
        "location": [52.2, 0.1],
        "name": "j restaurant",
        "phone": "01224",
        "postcode": "cb2",
        "pricerange": "cheap",
        "type": "restaurant",
        "signature": "noodles",
    },
    {
        "address": "3 c st",
        "area": "north",
        "food": "chinese",
        "id": "3",
        "location": [0, 0],
        "name": "the hotpot",
        "postcode": "cb3",
        "pricerange": "expensive",  # no phone
        "type": "restaurant",
    },
    {
        "address": "4 d st",
        "area": "south",
        "food": "portuguese",
        "id": "4",
        "location": [0, 0],
        "name": "nandos",
        "phone": "01225",
        "postcode": "cb4",
        "pricerange": "cheap",
        "type": "restaurant",
    },
]

HOTELS = [
    {
        "address": "h1",
        "area": "north",
        "internet": "yes",
        "parking": "yes",
        "id": "0",
        "location": [0, 0],
        "name": "alexander bed and breakfast",
        "phone": "1",
        "postcode": "p",
        "price": {"single": "40"},
        "pricerange": "cheap",
        "stars": "4",
        "takesbookings": "yes",
        "type": "guesthouse",
    },
    {
        "address": "h2",
        "area": "centre",
        "internet": "yes",
        "parking": "no",
        "id": "1",
        "location": [0, 0],
        "name": "rosas bed and breakfast",
        "phone": "2",
        "postcode": "p",
        "price": {"single": "25"},
        "pricerange": "cheap",
        "stars": "4",
        "takesbookings": "yes",
        "type": "guesthouse",
        "extra": "not queryable",
    },
    {
        "address": "h3",
        "area": "Centre",
        "internet": "no",
        "parking": "yes",
        "id": "2",
        "location": [0, 0],
        "name": "university arms hotel",
        "phone": "3",
        "postcode": "p",
        "price": {},
        "pricerange": "expensive",
        "stars": "4",
        "takesbookings": "yes",
        "type": "hotel",
    },
]

ATTRACTIONS = [
    {
        "address": "a1",
        "area": "centre",
        "entrance fee": "free",
        "id": "1",
        "location": [0, 0],
        "name": "all saints church",
        "openhours": "always",
        "phone": "1",
        "postcode": "p",
        "pricerange": "free",
        "type": "architecture",
    },
    {
        "address": "a2",
        "area": "west",
        "entrance fee": "?",
        "id": "2",
        "location": [0, 0],
        "name": "whipple museum of the history of science",
        "openhours": "?",
        "phone": "2",
        "postcode": "p",
        "pricerange": "?",
        "type": "museum",
    },
    {
        "address": "a3",
        "area": "east",
        "entrance fee": "5 pounds",
        "id": "3",
        "location": [0, 0],
        "name": "abbey pool and astroturf pitch",
        "openhours": "",
        "phone": "3",
        "postcode": "p",
        "pricerange": "moderate",
        "type": "swimmingpool",
    },
]

TRAINS = [
    {
        "arriveBy": "05:51",
        "day": "monday",
        "departure": "cambridge",
        "destination": "london kings cross",
        "duration": "51 minutes",
        "leaveAt": "05:00",
        "price": "23.60 pounds",
        "trainID": "TR7075",
    },
    {
        "arriveBy": "09:51",
        "day": "monday",
        "departure": "cambridge",
        "destination": "london liverpool street",
        "duration": "88 minutes",
        "leaveAt": "08:23",
        "price": "16.60",
        "trainID": "TR1111",
    },
    {
        "arriveBy": "16:00",
        "day": "tuesday",
        "departure": "london kings cross",
        "destination": "cambridge",
        "duration": "51 minutes",
        "leaveAt": "15:09",
        "price": "23.60 pounds",
        "trainID": "TR2222",
    },
    {
        "arriveBy": "00:00",
        "day": "friday",
        "departure": "norwich",
        "destination": "cambridge",
        "duration": "79 minutes",
        "leaveAt": "22:41",
        "price": "17.60 pounds",
        "trainID": "TR3333",
    },
]

TABLES = {"restaurant": RESTAURANTS, "hotel": HOTELS, "attraction": ATTRACTIONS, "train": TRAINS}


@pytest.fixture(scope="module")
def db():
    return VenueDatabase(TABLES)


@pytest.fixture(scope="module")
def db_optimal():
    return VenueDatabase(TABLES, matching="optimal")


# --- §5.1 loading ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("id", "id"),
        ("entrance fee", "entrancefee"),
        ("trainID", "trainid"),
        ("arriveBy", "arrive"),
        ("leaveAt", "leave"),
        ("Name", "name"),
        ("ID", "id"),
    ],
)
def test_database_field(raw, expected):
    assert database_field(raw) == expected


def test_queryable_keys_come_from_the_first_entity_after_deletion(db):
    assert db.keys("restaurant") == {
        "address",
        "area",
        "food",
        "id",
        "name",
        "phone",
        "postcode",
        "pricerange",
        "type",
    }
    assert db.keys("hotel") == {
        "address",
        "area",
        "id",
        "internet",
        "name",
        "parking",
        "phone",
        "postcode",
        "pricerange",
        "stars",
        "type",
    }  # 'extra' of the 2nd entity is not queryable
    assert db.keys("attraction") == {
        "address",
        "area",
        "entrancefee",
        "id",
        "name",
        "phone",
        "postcode",
        "pricerange",
        "type",
    }
    assert db.keys("train") == {
        "arrive",
        "day",
        "departure",
        "destination",
        "duration",
        "leave",
        "price",
        "trainid",
    }
    assert db.keys("taxi") == frozenset()
    assert "introduction" not in db.entities("restaurant")[0]
    assert "location" not in db.entities("hotel")[0]
    assert "openhours" not in db.entities("attraction")[0]


def test_ids(db):
    assert db.ids("restaurant") == ["1", "2", "3", "4"]
    assert db.ids("train") == ["TR7075", "TR1111", "TR2222", "TR3333"]
    assert db.domains == ("restaurant", "attraction", "hotel", "train")


def test_constructor_errors():
    with pytest.raises(ConfigError, match="taxi"):
        VenueDatabase({"taxi": [{"id": "1"}]})
    with pytest.raises(ConfigError, match="matching mode"):
        VenueDatabase(TABLES, matching="exact")
    with pytest.raises(InputError, match="no entities"):
        VenueDatabase({"hotel": []})
    with pytest.raises(InputError, match="trainid"):
        VenueDatabase({"train": [{"day": "monday"}]})


def test_from_files_checks_checksums(tmp_path):
    path = tmp_path / "restaurant_db.json"
    path.write_text(json.dumps(RESTAURANTS))
    with pytest.raises(
        InputError, match=r"restaurant_db\.json.*normative restaurant.*budzianowski"
    ):
        VenueDatabase.from_files({"restaurant": path})
    loaded = VenueDatabase.from_files({"restaurant": path}, expected_sha256=None)
    assert loaded.query("restaurant", {"area": "centre"}) == ["1", "2"]
    assert VenueDatabase.from_files(
        {"restaurant": path}, expected_sha256={"restaurant": file_sha256(path)}
    ).ids("restaurant") == ["1", "2", "3", "4"]
    bad = tmp_path / "hotel_db.json"
    bad.write_text('{"a": 1}')
    with pytest.raises(InputError, match="JSON array"):
        VenueDatabase.from_files({"hotel": bad}, expected_sha256=None)


# --- §6 query -------------------------------------------------------------------------------


def test_domains_without_database(db):
    assert db.query("taxi", {"leave": "10:00"}) == []
    assert db.query("police", {}) == []
    assert db.query("Restaurant", {}) == []  # domain names are not lowercased


def test_no_constraints_returns_everything_in_file_order(db):
    assert db.query("hotel", {}) == ["0", "1", "2"]
    assert db.query("hotel", {"people": "3", "stay": "2", "day": "monday"}) == ["0", "1", "2"]


def test_exact_keys_are_case_sensitive(db):
    assert db.query("hotel", {"area": "centre"}) == ["1"]
    assert db.query("hotel", {"area": "Centre"}) == ["2"]
    assert db.query("restaurant", {"area": "centre", "pricerange": "cheap"}) == ["1", "2"]


def test_values_are_normalized_with_the_key_as_slot_name(db):
    assert db.query("hotel", {"type": "guest house"}) == ["0", "1"]
    assert db.query("hotel", {"type": "Guest House"}) == []  # type is not lowercased
    assert db.query("hotel", {"parking": "free"}) == ["0", "2"]
    assert db.query("attraction", {"type": "swimming pool"}) == ["3"]
    assert db.query("restaurant", {"food": " Brazilian "}) == ["4"]  # -> portuguese


def test_fuzzy_name_and_food(db):
    assert db.query("restaurant", {"food": "asian"}) == ["2"]  # substring-like
    assert db.query("restaurant", {"food": "chinese"}) == ["1", "3"]
    assert db.query("restaurant", {"name": "Nando's"}) == ["4"]  # name rule, then fuzzy
    assert db.query("hotel", {"name": "rosa's"}) == ["1"]
    assert db.query("hotel", {"name": "university hotel"}) == ["2"]
    assert db.query("attraction", {"name": "history of science museum"}) == ["2"]
    assert db.query("hotel", {"name": "the ritz"}) == []


def test_fuzzy_modes_differ_on_the_alexander_example(db, db_optimal):
    assert db.query("hotel", {"name": "rosas bed and breakfast"}) == ["1"]
    assert db_optimal.query("hotel", {"name": "rosas bed and breakfast"}) == ["0", "1"]


def test_train_fuzzy_places_and_times(db):
    # 'london' matches both London stations
    assert db.query("train", {"departure": "cambridge", "destination": "london"}) == [
        "TR7075",
        "TR1111",
    ]
    # arrive: at or before; leave: at or after (boundaries inclusive)
    assert db.query("train", {"departure": "cambridge", "arrive": "09:51"}) == ["TR7075", "TR1111"]
    assert db.query("train", {"departure": "cambridge", "arrive": "09:50"}) == ["TR7075"]
    assert db.query("train", {"leave": "08:23"}) == ["TR1111", "TR2222", "TR3333"]
    assert db.query("train", {"leave": "8:24 am"}) == ["TR2222", "TR3333"]
    assert db.query("train", {"arrive": "4pm", "day": "tuesday"}) == ["TR2222"]


def test_unparseable_times(db):
    # 0 minutes: arrive rejects every train except one arriving at 00:00; leave accepts all
    for raw in ["9.30", "tomorrow", "", "1:5", "before 5pm"]:
        assert time_to_minutes(normalize_value("arrive", raw)) == 0, raw
        assert db.query("train", {"arrive": raw}) == ["TR3333"], raw
        assert db.query("train", {"leave": raw}) == db.ids("train"), raw
    # whereas '9:30' is parseable ('09:30')
    assert db.query("train", {"arrive": "9:30"}) == ["TR7075", "TR3333"]


def test_empty_string_constraints(db):
    # non-time key: rejects every entity whose value is not '?'
    assert db.query("hotel", {"area": ""}) == []
    assert db.query("hotel", {"name": ""}) == []
    assert db.query("attraction", {"entrancefee": ""}) == ["2"]
    assert db.query("attraction", {"pricerange": ""}) == ["2"]
    # time key: '' -> '00:00' -> 0 minutes
    assert db.query("train", {"leave": ""}) == db.ids("train")


def test_unknown_value_passes(db):
    assert db.query("attraction", {"entrancefee": "free"}) == ["1", "2"]
    assert db.query("attraction", {"pricerange": "moderate", "area": "east"}) == ["3"]
    assert db.query("attraction", {"pricerange": "moderate"}) == ["2", "3"]


@pytest.mark.parametrize("value", sorted(DONTCARE_VALUES))
def test_dontcare_strings_leave_the_key_unconstrained(db, value):
    assert db.query("hotel", {"area": value, "parking": "no"}) == ["1"]
    assert db.query("train", {"arrive": value, "departure": "norwich"}) == ["TR3333"]


@pytest.mark.parametrize("value", ["DontCare", "dont-care", " dontcare", "Don't care"])
def test_dontcare_detection_is_verbatim(db, value):
    assert db.query("hotel", {"area": value}) == []
    assert db.query("hotel", {"name": value}) == []


def test_missing_entity_field_fails_the_constraint(db):
    # restaurant 3 has no phone (the reference would crash; documented choice)
    assert db.query("restaurant", {"phone": "01224"}) == ["2"]
    assert db.query("restaurant", {"food": "chinese", "phone": "01223"}) == ["1"]


def test_non_string_values(db):
    assert db.query("hotel", {"stars": 4}) == []  # exact compare with '4'
    assert db.query("hotel", {"stars": ["4"]}) == []  # unhashable: no memo, no match
    with pytest.raises(InputError, match="hotel constraint 'name'"):
        db.query("hotel", {"name": 7})
    with pytest.raises(InputError, match="train constraint 'leave'"):
        db.query("train", {"leave": "16:00orlater"})


def test_memoization_is_safe(db):
    first = db.query("restaurant", {"food": "chinese"})
    first.append("mutated")
    hits = db._cached_query.cache_info().hits
    again = db.query("restaurant", {"food": "chinese", "people": "2"})  # same queryable items
    assert again == ["1", "3"]
    assert db._cached_query.cache_info().hits == hits + 1  # the second query was a cache hit


def test_fuzzy_pairs(db):
    pairs = db.fuzzy_pairs("restaurant", {"food": "asian", "name": "dontcare", "area": "x"})
    assert pairs == [
        ("food", "chinese", "asian"),
        ("food", "asian oriental", "asian"),
        ("food", "portuguese", "asian"),
    ]
    assert db.fuzzy_pairs("train", {"departure": "Cambridge"})[0] == (
        "departure",
        "cambridge",
        "cambridge",
    )


# --- the indexed query equals the literal algorithm of §6 -----------------------------------


def _literal_query(domain, constraints, keys, entities, id_field, fuzzy):
    """§6 written out as the reference loops it (no index, no memo)."""
    query = {}
    for key in keys:
        if key in constraints:
            if constraints[key] in DONTCARE_VALUES:
                continue
            query[key] = normalize_value(key, constraints[key])
            if key in ("arrive", "leave"):
                query[key] = time_to_minutes(query[key])
    out = []
    for entity in entities:
        ok = True
        for key, wanted in query.items():
            value = entity.get(key)
            if value == "?":
                continue
            if value is None:
                ok = False
            elif key == "arrive":
                ok = time_to_minutes(value) <= wanted
            elif key == "leave":
                ok = time_to_minutes(value) >= wanted
            elif key in fuzzy:
                ok = partial_ratio_reference(value, wanted) >= 90
            else:
                ok = value == wanted
            if not ok:
                break
        if ok:
            out.append(entity[id_field])
    return out


def test_indexed_query_equals_literal_algorithm(db):
    rng = random.Random(7)
    fuzzy = {
        "restaurant": {"name", "food"},
        "hotel": {"name"},
        "attraction": {"name"},
        "train": {"departure", "destination"},
    }
    id_field = {"restaurant": "id", "hotel": "id", "attraction": "id", "train": "trainid"}
    extra = ["dontcare", "", "?", "Centre", "4pm", "09:00", "london", "the", "rosa's", "cheap"]
    for _ in range(600):
        domain = rng.choice(sorted(TABLES))
        entities = db.entities(domain)
        keys = sorted(db.keys(domain))
        constraints = {}
        for key in rng.sample(keys, rng.randint(0, 3)):
            pool = [e[key] for e in entities if key in e] + extra
            constraints[key] = rng.choice(pool)
        expected = _literal_query(
            domain, constraints, keys, entities, id_field[domain], fuzzy[domain]
        )
        assert db.query(domain, constraints) == expected, (domain, constraints)
