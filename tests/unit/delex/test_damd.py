"""DAMD-style delexicalization (thu-spmi/damd-multiwoz@9b0456d): the spec's Table 2 turn,
the text cleaning and the value dictionaries."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.prepare.delex.damd import (build_references, clean_text, clean_time, delex_by_spans,
                                         delex_by_values, delexicalize_turn)
from mwzrepro.prepare.delex.damd_values import (ValueDictionaries, tokenize_value,
                                                value_dictionaries)
from tests.unit.delex.fixtures import TABLE2_ENTRY, tiny_dbs

PAPER_TABLE2 = ("[value_name] has a [value_price] entrance fee . the address is cafe jello gallery "
                ", [value_address] and the post code is [value_postcode] . can i help you with "
                "anything else ?")


def test_table2_turn_matches_the_paper():
    # spec-paper-tables §2, DAMD row (the paper prints "[value name]" for "[value_name]").
    values = value_dictionaries(tiny_dbs())
    assert delexicalize_turn(TABLE2_ENTRY, values) == PAPER_TABLE2


def test_later_span_over_the_same_words_wins_and_open_is_ignored():
    spans = [["a", "Addr", "x y", 0, 1], ["a", "Name", "x y", 0, 1], ["a", "Open", "z", 2, 2]]
    assert delex_by_spans("x y z", spans) == "[value_name] z"


def test_span_past_the_end_writes_word_five():
    spans = [["a", "Ref", "abc", 9, 8]]
    assert delex_by_spans("a b c d e f g", spans) == "a b c d e [value_reference] g"


def test_adjacent_address_spans_merge():
    spans = [["a", "Addr", "x", 0, 0], ["a", "Addr", "y", 2, 2]]
    assert delex_by_spans("x , y .", spans) == "[value_address] ."


@pytest.mark.parametrize("raw, cleaned", [
    ("9 am", "09:00"), ("5pm", "17:00"), ("7:30pm", "19:30"), ("9:15", "09:15"),
    ("12:30pm", "24:30"), ("12pm", "12pm"), ("10:45", "10:45"),
])
def test_clean_time(raw, cleaned):
    assert clean_time(raw) == cleaned


@pytest.mark.parametrize("raw, cleaned", [
    ("Don't go/stay", "do n't go and stay"),
    ("The B & B guesthouses", "the bed and breakfast guest house"),
    ("postcode is c.b 1,2 q.a", "postcode is cb12qa"),
    ("it is on hills rd.thanks", "it is on hills rd . thanks"),
    ("\u2018quoted\u2019; yes", "quoted', yes"),
])
def test_clean_text(raw, cleaned):
    assert clean_text(raw) == cleaned


def test_clean_text_word_pairs_apply_last():
    pairs = (("hotels", "hotel -s"), ("one", "1"))
    assert clean_text("One of the hotels", pairs) == "1 of the hotel -s"


def test_value_dictionaries_skip_fields_remove_ambiguous_and_sort():
    v = value_dictionaries(tiny_dbs())
    # hotel phone/postcode/stars are skipped fields; restaurant type too
    assert "01223350059" not in v.single and "cb41er" not in v.single
    assert v.single.get("hotel") == "type" and "restaurant" not in v.single
    # stations that are both departure and destination and times that are both arrival and
    # departure are ambiguous; cambridge is dropped altogether
    assert v.ambiguous == ("05:51", "ely", "london kings cross")
    assert "ely" not in v.single and "cambridge" not in v.single
    assert v.single["07:08"] == "arrive" and v.single["07:34"] == "leave"
    assert v.multi["the gandhi"] == "name" and v.single["centre"] == "area"
    # taxi colours and brands are cars; hand-added entries are present
    assert v.single["toyota"] == "car" and v.multi["hills road"] == "address"
    lengths = [len(k) for k in v.multi]
    assert lengths == sorted(lengths, reverse=True)
    # entrance fee becomes 'price', which the attraction skips; durations are 'time'
    assert "free" not in v.single and v.multi["51 minutes"] == "time"


def test_value_dictionaries_need_every_domain():
    dbs = tiny_dbs()
    del dbs["police"]
    with pytest.raises(InputError, match="police"):
        value_dictionaries(dbs)


def test_delex_by_values_regexes_and_ambiguous_values():
    v = ValueDictionaries(single={"centre": "area"}, multi={}, ambiguous=("ely", "07:34"))
    text = "The train TR2125 from ely leaves at 7:34 am and costs 4.40 pounds . Call 01223 353942 ."
    assert delex_by_values(text, v) == (
        "the train [value_id] from [value_departure] leaves at [value_leave] and costs "
        "[value_price] . call [value_phone] .")


def test_tokenize_value_like_spacy():
    assert tokenize_value("king's college, 1-6 corn exchange") == \
        "king 's college , 1 - 6 corn exchange"


def test_build_references_numbers_system_turns():
    dialogues = {"PMUL2636.json": {"log": [{"text": "hi", "span_info": []}, TABLE2_ENTRY]}}
    refs = build_references(dialogues, value_dictionaries(tiny_dbs()))
    assert refs[["dialogue_id", "turn"]].values.tolist() == [["pmul2636", 0]]
    assert refs["reference"].iloc[0] == (
        "NAME has a PRICE entrance fee. the address is cafe jello gallery, ADDRESS and the post "
        "code is POST. can i help you with anything else?")
