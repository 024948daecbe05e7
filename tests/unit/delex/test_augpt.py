"""AuGPT-style delexicalization (ufal/augpt@fa8a579): the spec's Table 2 turn, which labels
a turn may delexicalize, and the span quirks."""

from __future__ import annotations

from mwzrepro.prepare.delex.augpt import (allowed_labels, belief_state, build_references,
                                          clear_whitespaces, delexicalize_spans)
from mwzrepro.prepare.delex.convlab_db import ConvlabDatabase
from tests.unit.delex.fixtures import TABLE2_ENTRY, TABLE2_METADATA, tiny_dbs

PAPER_TABLE2 = ("[address] has a free entrance fee. The address is cafe jello gallery, [address] "
                "and the post code is [postcode]. Can I help you with anything else?")


def test_table2_turn_matches_the_paper():
    # spec-paper-tables §2, AuGPT row, character for character.
    db = ConvlabDatabase(tiny_dbs())
    dialogues = {"PMUL2636.json": {"log": [{"text": "hi"}, TABLE2_ENTRY]}}
    refs = build_references(dialogues, db)
    assert refs["delex"].tolist() == [PAPER_TABLE2]
    assert refs["reference"].tolist() == [
        "ADDRESS has a free entrance fee. the address is cafe jello gallery, ADDRESS and the post "
        "code is POST. can i help you with anything else?"]


def test_belief_state_of_the_table2_turn():
    belief = belief_state(TABLE2_METADATA, TABLE2_ENTRY["dialog_act"])
    assert belief == {"hotel": {"name": "a and b guest house", "people": "6", "day": "tuesday",
                                "stay": "4"},
                      "attraction": {"type": "museum", "area": "west"}}


def test_allowed_labels_come_from_database_results_or_the_belief():
    db = ConvlabDatabase(tiny_dbs())
    found = allowed_labels({"attraction": {"type": "museum", "area": "west"}}, db)
    assert {"name", "address", "postcode", "phone", "fee", "price range", "reference"} <= found
    # no match: only the belief's own slots (plus reference)
    none = allowed_labels({"attraction": {"type": "boat"}}, db)
    assert none == {"reference", "type"}
    # train results bring leave at / arrive by, hence time
    train = allowed_labels({"train": {"departure": "ely", "day": "monday"}}, db)
    assert {"leave at", "arrive by", "time", "id", "price"} <= train
    assert allowed_labels({}, db) == {"reference"}


def test_nothing_but_references_without_a_belief():
    text = "Your reference is ABC123 . The Gandhi is at 72 regent street ."
    spans = [["Booking-Book", "Ref", "ABC123", 3, 3],
             ["Restaurant-Inform", "Name", "The Gandhi", 5, 6],
             ["Restaurant-Inform", "Addr", "72 regent street", 9, 11]]
    out = delexicalize_spans(text, spans, {"reference"})
    assert clear_whitespaces(out) == \
        "Your reference is [reference]. The Gandhi is at 72 regent street."


def test_span_quirks():
    allowed = {"area", "time", "stars", "address"}
    # 'the' before an area and 'of town' after it stay words
    assert delexicalize_spans("in the east of town", [["x", "Area", "the east of town", 1, 4]],
                              allowed) == "in the [area] of town"
    # a time span with minutes is a duration (label not 'time', so 'a' is absorbed)
    assert delexicalize_spans("takes 51 minutes", [["x", "Time", "51 minutes", 1, 2]],
                              allowed) == "takes [duration]"
    assert delexicalize_spans("a 4-star hotel", [["x", "Stars", "4", 1, 1]],
                              allowed) == "a [stars]-star hotel"
    # a span starting on punctuation writes the mark and the placeholder twice
    assert delexicalize_spans("at , x", [["x", "Addr", ", x", 1, 2]],
                              allowed) == "at , [address] [address]"
    # addresses joined by a comma merge
    assert delexicalize_spans("at x , y .", [["x", "Addr", "x", 1, 1], ["x", "Addr", "y", 3, 3]],
                              allowed) == "at [address] ."
    # labels outside DELEX_LABEL_MAP's delexicalized set stay words
    assert delexicalize_spans("on monday", [["x", "Day", "monday", 1, 1]], allowed) == "on monday"


def test_clear_whitespaces():
    assert clear_whitespaces("you 're  welcome , bye !") == "you're welcome, bye!"
