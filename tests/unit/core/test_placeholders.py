"""The ``extended`` placeholder vocabulary (mwzrepro.core.placeholders, issue 18): every
family it maps, case-insensitively, with the reference table unchanged under both settings."""

from __future__ import annotations

from collections import Counter

import pytest

from mwzrepro.core.normalize import SLOT_MAP, normalize_response
from mwzrepro.core.placeholder_lexicon import DOMAIN_WORDS, TABLE_SLOTS
from mwzrepro.core.placeholders import gains_of, unified_name
from mwzrepro.core.slot_map import EXTENDED_PLACEHOLDER_RE

DOMAIN_SLOT = [  # none of these is in the reference table (the test checks it)
    # booking slots
    ("hotel_bookday", "DAY"), ("restaurant_bookday", "DAY"), ("hotel_bookpeople", "COUNT"),
    ("train_bookpeople", "COUNT"), ("hotel_bookstay", "COUNT"), ("restaurant_booktime", "TIME"),
    # references
    ("hotel_ref", "REFERENCE"), ("train_ref", "REFERENCE"), ("taxi_reference", "REFERENCE"),
    # train ids (train_trainid and train_id are reference names)
    ("taxi_trainid", "TRAINID"), ("hotel_id", "ID"), ("police_id", "ID"),
    # times
    ("taxi_arrive_by", "TIME"), ("restaurant_leaveat", "TIME"), ("hotel_arriveby", "TIME"),
    ("train_departuretime", "TIME"), ("train_arrivaltime", "TIME"),
    # fees and the rest of the ontology
    ("hotel_entrancefee", "PRICE"), ("attraction_openhours", "OPEN"),
    ("restaurant_stars", "COUNT"), ("taxi_price", "PRICE"), ("hotel_food", "FOOD"),
    ("police_department", "DEPARTMENT"), ("taxi_address", "ADDRESS"),
    ("hotel_book_people", "COUNT"), ("restaurant_book time", "TIME"),
]
MWZ22 = [("hotel-bookday", "DAY"), ("train-leaveat", "TIME"), ("train-arriveby", "TIME"),
         ("attraction-entrancefee", "PRICE"), ("restaurant-pricerange", "PRICE"),
         ("train-trainid", "TRAINID"), ("hotel-ref", "REFERENCE"), ("book_people", "COUNT"),
         ("arrive-by", "TIME")]
VALUE = [("value_bookpeople", "COUNT"), ("value_bookday", "DAY"), ("value_trainid", "TRAINID"),
         ("value_entrancefee", "PRICE"), ("value_ref", "REFERENCE"), ("value_leaveat", "TIME")]


@pytest.mark.parametrize("name, unified", DOMAIN_SLOT + MWZ22 + VALUE)
def test_each_family_maps_case_insensitively(name, unified):
    assert unified_name(name) == unified
    assert name not in SLOT_MAP
    text = f"it is [{name.upper()}] here"
    assert normalize_response(text, placeholders="extended") == f"it is {unified} here"
    deleted: Counter[str] = Counter()
    ref = normalize_response(text, deleted)
    assert unified not in ref.split()          # the reference table does not know it
    if "-" in name:                            # not a placeholder there: left as text
        assert ref.startswith("it is [") and not deleted
    else:
        assert ref == "it is here" and deleted == {name: 1}


def test_the_reference_table_keeps_its_meaning_under_extended():
    assert all(unified_name(name) == unified for name, unified in SLOT_MAP.items())
    text = "[hotel_name] at [value_address] , [train_id] leaves at [value_time] ."
    assert normalize_response(text) == normalize_response(text, placeholders="extended")


def test_unknown_brackets_are_still_deleted_and_counted():
    deleted: Counter[str] = Counter()
    out = normalize_response("try [de luca cucina and bar] or [hotel_ref] .", deleted,
                             "extended")
    assert out == "try or REFERENCE." and deleted == {"de luca cucina and bar": 1}


def test_plural_suffixes_as_in_the_reference():
    assert normalize_response("[hotel_bookpeople]s and [train-ref]-s", None, "extended") == \
        "COUNT and REFERENCE"


def test_every_slot_part_of_the_reference_table_is_in_the_lexicon():
    """The resolver reads the table's own names word by word with the table's meaning."""
    for name, unified in SLOT_MAP.items():
        head, _, tail = name.partition("_")
        slot = tail if tail and head in DOMAIN_WORDS | {"value"} else name
        if slot in DOMAIN_WORDS:                   # "train": a table name, no slot part
            continue
        assert slot.replace(" ", "") in TABLE_SLOTS, name
        for spelling in (name.replace("_", "-"), name.replace("_", " ").upper()):
            assert unified_name(spelling) == unified, spelling


def test_gains_are_what_extended_adds():
    responses = ["[Hotel_Ref] [hotel_name]", "[hotel_ref] [train-leaveat]", "[De Luca]", "x"]
    found = Counter(m.group(1) for text in responses
                    for m in EXTENDED_PLACEHOLDER_RE.finditer(text.lower()))
    assert gains_of(found) == {"hotel_ref": 2, "train-leaveat": 1}
