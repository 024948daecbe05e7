"""Section 4 of spec-standard-evaluation: state and value normalization.

Every table row and every example of §4 is written out here literally (not imported from the
module), so a wrong rule in the module fails a test."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.core.normalize_state import (
    normalize_slot_name,
    normalize_state,
    normalize_value,
    time_to_minutes,
)

# §4.3 step 4, (input after steps 1-3, output), every row in the spec's order.
NAME_TABLE = [
    ("hotel du vin bistro", "hotel du vin and bistro"),
    ("the river bar and grill", "the river bar steakhouse and grill"),
    ("nando's", "nandos"),
    ("city center b and b", "city center north b and b"),
    ("acorn house", "acorn guest house"),
    ("caffee uno", "caffe uno"),
    ("cafe uno", "caffe uno"),
    ("rosa's", "rosas bed and breakfast"),
    ("restaurant called two two", "restaurant two two"),
    ("restaurant 2 two", "restaurant two two"),
    ("restaurant two 2", "restaurant two two"),
    ("restaurant 2 2", "restaurant two two"),
    ("restaurant 1 7", "restaurant one seven"),
    ("restaurant 17", "restaurant one seven"),
    ("lime house", "limehouse"),
    ("cityrooms", "cityroomz"),
    ("whale of time", "whale of a time"),
    ("huntingdon hotel", "huntingdon marriott hotel"),
    ("holiday inn exlpress, cambridge", "express by holiday inn cambridge"),
    ("university hotel", "university arms hotel"),
    ("arbury guesthouse and lodge", "arbury lodge guesthouse"),
    ("bridge house", "bridge guest house"),
    ("arbury guesthouse", "arbury lodge guesthouse"),
    ("nandos in the city centre", "nandos city centre"),
    ("broughton gallery", "broughton house gallery"),
    ("scudamores punt co", "scudamores punting co"),
    ("cambridge botanic gardens", "cambridge university botanic gardens"),
    ("the junction", "junction theatre"),
    ("trinity street college", "trinity college"),
    ("christ college", "christ's college"),
    ("christs", "christ's college"),
    ("history of science museum", "whipple museum of the history of science"),
    ("parkside pools", "parkside swimming pool"),
    ("the botanical gardens at cambridge university", "cambridge university botanic gardens"),
    ("cafe jello museum", "cafe jello gallery"),
]

TYPE_TABLE = [
    ("swimming pool", "swimmingpool"),
    ("mutliple sports", "multiple sports"),
    ("night club", "nightclub"),
    ("guest house", "guesthouse"),
]

FOOD_TABLE = [
    ("eriterean", "mediterranean"),
    ("brazilian", "portuguese"),
    ("sea food", "seafood"),
    ("portugese", "portuguese"),
    ("modern american", "north american"),
    ("americas", "north american"),
    ("intalian", "italian"),
    ("italain", "italian"),
    ("asian or oriental", "asian"),
    ("english", "british"),
    ("australasian", "australian"),
    ("gastropod", "gastropub"),
    ("brutish", "british"),
    ("bristish", "british"),
    ("europeon", "european"),
]

# §4.6 examples table: (input, output, minutes of the output per §4.8)
TIME_EXAMPLES = [
    ("16:00", "16:00", 960),
    ("4pm", "16:00", 960),
    ("4 pm", "16:00", 960),
    ("4:30pm", "16:30", 990),
    ("12pm", "24:00", 1440),
    ("7:15", "07:15", 435),
    ("7", "07:00", 420),
    ("1830", "18:30", 1110),
    ("0800", "08:00", 480),
    ("after 11:45", "11:45", 705),
    ("after 7 pm", "19:00", 1140),
    ("by 15:00", "15:00", 900),
    ("by15:00", "05:00", 300),
    ("afer 9", "09:00", 540),
    ("10:00 am", "10:00", 600),
    ("10 a.m.", "10:00", 600),
    ("07:00 p.m.", "19:00", 1140),
    ("13:00.", "13:00", 780),
    ("11 : 00", "11:00", 660),
    ("11 :00", "11:00", 660),
    ("9 : 30", "09:30", 570),
    ("noon", "12:00", 720),
    ("", "00:00", 0),
    ("   ", "00:00", 0),
    ("tomorrow", "tomorrow", 0),
    ("9.30", "9.30", 0),
    ("1:5", "1:5", 0),
    ("before 5pm", "before 5", 0),
    ("5:00pm.", "5:00pm", 0),
    ("12345", "12345:00", 0),
    ("12:30:00", "12:30:00", 750),
]

# §4.6 step 2 whole-string and prefix special cases
TIME_SPECIALS = [
    ("afternoon", "13:00"),
    ("lunch", "12:00"),
    ("noon", "12:00"),
    ("mid-day", "12:00"),
    ("around lunch time", "12:00"),
    ("morning", "08:00"),
    ("one o'clock p.m", "13:00"),
    ("one o'clock p.m. please", "13:00"),
    ("ten o'clock a.m", "10:00"),
    ("ten o'clock a.m. sharp", "10:00"),
    ("seven o'clock tomorrow evening", "07:00"),
    ("three forty five p.m", "15:45"),
    ("one thirty p.m.", "13:30"),
    ("six fourty five", "06:45"),
    ("eight thirty", "08:30"),
    ("  Afternoon ", "13:00"),
]


# --- §4.1 slot names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("arriveBy", "arrive"),
        ("arriveby", "arrive"),
        ("arrive by", "arrive"),
        ("leaveAt", "leave"),
        ("leave at", "leave"),
        ("book people", "bookpeople"),
        ("Price Range", "pricerange"),
        ("entrance fee", "entrancefee"),
        ("name", "name"),
        ("arrive", "arrive"),
        ("book\ttime", "book\ttime"),  # only ' ' is removed
    ],
)
def test_normalize_slot_name(raw, expected):
    assert normalize_slot_name(raw) == expected


# --- §4.3 names -----------------------------------------------------------------------------


@pytest.mark.parametrize("raw, expected", NAME_TABLE)
@pytest.mark.parametrize("slot", ["name", "destination", "departure"])
def test_name_rule_table(slot, raw, expected):
    assert normalize_value(slot, raw) == expected


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("  Rosa 's ", "rosas bed and breakfast"),  # strip, lowercase, " '" -> "'", rule
        ("Nando 's", "nandos"),
        ("A & B Guest House", "a and b guest house"),
        ("a&b guest house", "a and b guest house"),
        ("a &b", "a  and b"),  # ' & ' first, then the remaining '&' -> ' and '
        ("alexander bed and breakfast", "alexander bed and breakfast"),  # no 2023 b-and-b rule
        ("The Junction", "junction theatre"),
        ("Pizza Express Fen Ditton", "pizza express fen ditton"),
        ("the junction theatre", "the junction theatre"),  # exact match only
        ("cambridge", "cambridge"),
    ],
)
def test_name_steps(raw, expected):
    assert normalize_value("name", raw) == expected


def test_name_rules_apply_to_every_domain_slot():
    # "for every domain, including taxi and train": the dispatch is by slot name only
    state = {"taxi": {"destination": "christs"}, "train": {"departure": "Lime House"}}
    assert normalize_state(state) == {
        "taxi": {"destination": "christ's college"},
        "train": {"departure": "limehouse"},
    }


def test_name_normalization_is_idempotent_on_the_table():
    # §4.9: double application is harmless with the 2022-06-10 rules
    for raw, expected in NAME_TABLE:
        assert normalize_value("name", expected) == expected, raw


# --- §4.4 type, §4.5 food, §4.7 parking/internet --------------------------------------------


@pytest.mark.parametrize("raw, expected", TYPE_TABLE)
def test_type_table(raw, expected):
    assert normalize_value("type", raw) == expected


@pytest.mark.parametrize("raw", ["Guest House", " guest house", "concert hall", "guesthouse"])
def test_type_is_exact_match_without_stripping_or_lowercasing(raw):
    assert normalize_value("type", raw) == raw


@pytest.mark.parametrize("raw, expected", FOOD_TABLE)
def test_food_table(raw, expected):
    assert normalize_value("food", raw) == expected


@pytest.mark.parametrize(
    "raw, expected",
    [(" English ", "british"), ("Thai ", "thai"), ("SEA FOOD", "seafood"), ("", "")],
)
def test_food_strips_and_lowercases(raw, expected):
    assert normalize_value("food", raw) == expected


@pytest.mark.parametrize("slot", ["parking", "internet"])
@pytest.mark.parametrize(
    "raw, expected", [("free", "yes"), ("Free", "Free"), (" free", " free"), ("no", "no")]
)
def test_parking_internet_only_exact_free(slot, raw, expected):
    assert normalize_value(slot, raw) == expected


@pytest.mark.parametrize(
    "slot",
    [
        "area",
        "pricerange",
        "stars",
        "day",
        "people",
        "stay",
        "bookday",
        "booktime",
        "bookpeople",
        "department",
        "price",
    ],
)
def test_other_slots_unchanged(slot):
    assert normalize_value(slot, " Centre ") == " Centre "
    assert normalize_value(slot, "4pm") == "4pm"  # booktime is not time-normalized
    assert normalize_value(slot, "free") == "free"


# --- §4.6 time, §4.8 minutes ----------------------------------------------------------------


@pytest.mark.parametrize("raw, expected, minutes", TIME_EXAMPLES)
def test_time_examples(raw, expected, minutes):
    assert normalize_value("leave", raw) == expected
    assert time_to_minutes(expected) == minutes


@pytest.mark.parametrize("raw, expected", TIME_SPECIALS)
def test_time_special_cases(raw, expected):
    assert normalize_value("arrive", raw) == expected


@pytest.mark.parametrize("slot", ["arrive", "leave", "arriveby", "leaveat", "time"])
def test_time_dispatch(slot):
    assert normalize_value(slot, "4pm") == "16:00"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("12:30 pm", "24:30"),  # quirk: no bound check
        ("by 5pm", "17:00"),
        ("after 5:15 p.m.", "17:15"),
        ("4 :30 pm", "16:30"),  # int() accepts surrounding whitespace, minutes kept as text
        ("5.pm", "05:00"),  # pm stripped, "5." not digits -> continue; step 9 drops the dot
        ("5pm?", "5pm"),  # step 9 drops one trailing ., or ?
        ("9", "09:00"),
        ("09", "09:00"),
        ("0930", "09:30"),
        ("7:15,", "07:15"),
        ("am", "00:00"),  # suffix dropped, then empty
        ("By 15:00", "15:00"),
        ("10 am.", "10 am"),  # step 6 does not apply ('.'), step 9 drops the dot only
    ],
)
def test_time_further_cases(raw, expected):
    assert normalize_value("leave", raw) == expected


def test_time_unparseable_pm_raises_like_the_reference_crash():
    with pytest.raises(InputError, match="ab:30pm"):
        normalize_value("leave", "ab:30pm")


@pytest.mark.parametrize(
    "text, minutes",
    [
        ("07:15", 435),
        ("24:30", 1470),
        ("00:00", 0),
        ("12:30:00", 750),
        ("9:30", 0),
        ("7:15", 0),
        ("tomorrow", 0),
        (" 07:15", 0),
        ("", 0),
    ],
)
def test_time_to_minutes(text, minutes):
    assert time_to_minutes(text) == minutes


def test_time_to_minutes_crashes_where_the_reference_does():
    with pytest.raises(InputError, match="16:00orlater"):
        time_to_minutes("16:00orlater")


# --- §4.1 whole states ----------------------------------------------------------------------


def test_normalize_state_renames_and_normalizes_with_the_new_name():
    state = {
        "train": {
            "arriveBy": "4pm",
            "leave at": "by 15:00",
            "departure": "Cambridge ",
            "day": "Monday",
        },
        "Hotel": {"Parking": "free", "type": "guest house", "book stay": "2"},
    }
    out = normalize_state(state)
    assert out == {
        "train": {"arrive": "16:00", "leave": "15:00", "departure": "cambridge", "day": "Monday"},
        "Hotel": {"parking": "yes", "type": "guesthouse", "bookstay": "2"},  # domain as given
    }
    assert list(out) == ["train", "Hotel"]
    assert list(out["train"]) == ["arrive", "leave", "departure", "day"]
    assert state["train"]["arriveBy"] == "4pm"  # input not modified


def test_normalize_state_later_duplicate_wins_first_position_kept():
    out = normalize_state({"train": {"leaveAt": "10:00", "day": "monday", "leave at": "11:00"}})
    assert out == {"train": {"leave": "11:00", "day": "monday"}}
    assert list(out["train"]) == ["leave", "day"]


def test_normalize_state_empty_and_empty_domain():
    assert normalize_state({}) == {}
    assert normalize_state({"taxi": {}}) == {"taxi": {}}


def test_normalize_state_non_string_value():
    # unchanged where the reference only compares ...
    assert normalize_state({"hotel": {"stars": 4, "type": None}}) == {
        "hotel": {"stars": 4, "type": None}
    }
    # ... lists are alternatives (mwzrepro.core.alternatives; the reference crashes) ...
    assert normalize_state({"restaurant": {"name": [" A ", "b"], "food": ["Thai", "thai"],
                                           "area": []}}) == \
        {"restaurant": {"name": ("a", "b"), "food": "thai"}}
    # ... an error naming domain and slot for anything else
    with pytest.raises(InputError, match="'restaurant'.*'name'.*list value must hold strings"):
        normalize_state({"restaurant": {"name": [["a"], "b"]}})
    with pytest.raises(InputError, match="'restaurant'.*'area'.*string or a list of strings"):
        normalize_state({"restaurant": {"area": {"a": 1}}})
    with pytest.raises(InputError, match="'hotel'"):
        normalize_state({"hotel": "cheap"})
