"""UniConv-style delexicalization (henryhungle/UniConv@e2b9bc8): the spec's Table 2 turn
(and why the paper's text differs), state tags, booked references, bracketing."""

from __future__ import annotations

from mwzrepro.prepare.delex.uniconv import (bracket_tags, build_references, delexicalize_system,
                                            slot_values)
from tests.unit.delex.fixtures import (CAFE_JELLO, MAGDALENE, TABLE2_ENTRY, TABLE2_GOAL,
                                       TABLE2_TEXT, tiny_dbs)

PAPER_TABLE2 = ("[attraction_name] has a [attraction_pricerange] entrance fee . the address is "
                "[attraction_name] , 13 [attraction_address] and the post code is "
                "[attraction_postcode] . can i help you with anything else ?")


def _delex(dbs):
    return bracket_tags(delexicalize_system(TABLE2_TEXT, TABLE2_ENTRY, TABLE2_GOAL,
                                            slot_values(dbs)))


def test_table2_turn_in_database_order():
    # Our order: the full database address of cafe jello gallery is replaced first.
    assert _delex(tiny_dbs()) == (
        "[attraction_name] has a [attraction_pricerange] entrance fee . the address is "
        "[attraction_address] and the post code is [attraction_postcode] . can i help you with "
        "anything else ?")


def test_table2_turn_reproduces_the_paper_when_magdalene_street_comes_first():
    # spec-paper-tables §2, UniConv row: the paper's run met 'magdalene street' first (the
    # source iterates a Python set of values, whose order varies between runs).
    assert _delex(tiny_dbs(attractions=(MAGDALENE, CAFE_JELLO))) == PAPER_TABLE2


def test_slot_values_variants_and_prices():
    fields = slot_values(tiny_dbs())
    assert fields["attraction"]["address"][:2] == ["cafe jello gallery , 13 magdalene street",
                                                   "cafe jello gallery , 13 magdalene st"]
    assert "ashley" in fields["hotel"]["name"]  # name without 'hotel'
    assert fields["hotel"]["price"] == ["75", "65"]
    assert {"23.6 pounds", "23.6 gbp"} <= set(fields["train"]["price"])
    assert fields["attraction"]["entrancefee"] == fields["attraction"]["entrance fee"]
    assert "addenbrookes hospital" in fields["hospital"]["name"]
    assert fields["taxi"] == {}
    assert list(fields["attraction"]) == ["address", "area", "entrance fee", "id", "name",
                                          "openhours", "phone", "postcode", "pricerange", "type",
                                          "entrancefee"]


def test_state_values_yes_no_and_booked_references():
    entry = {"dialog_act": {},
             "metadata": {"hotel": {"semi": {"parking": "yes", "name": "ashley hotel"},
                                    "book": {"booked": [{"name": "ashley hotel",
                                                         "reference": "ABCD1234"}]}}}}
    text = "Ashley hotel has free parking . Reference number is : ABCD1234 ."
    out = delexicalize_system(text, entry, {}, slot_values(tiny_dbs()))
    # no dialogue act: no database pass; ':' is removed by the MultiWOZ normalization
    assert out == "hotel_name has free hotel_parking . reference number is hotel_reference ."


def test_taxi_phone_when_the_goal_requests_it():
    entry = {"dialog_act": {"Taxi-Inform": [["Phone", "07218068540"]]}, "metadata": {}}
    out = delexicalize_system("Contact number is 07218068540 .", entry,
                              {"taxi": {"reqt": ["phone"]}}, slot_values(tiny_dbs()))
    assert bracket_tags(out) == "contact number is [taxi_phone] ."


def test_build_references_normalizes_bracketed_tags():
    dialogues = {"PMUL2636.json": {"goal": TABLE2_GOAL, "log": [{"text": "hi"}, TABLE2_ENTRY]}}
    refs = build_references(dialogues, slot_values(tiny_dbs()))
    assert refs["reference"].tolist() == [
        "NAME has a PRICE entrance fee. the address is ADDRESS and the post code is POST. can i "
        "help you with anything else?"]
