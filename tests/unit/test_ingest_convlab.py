"""The MultiWOZ 2.0/2.1 ConvLab reader (mwzrepro.prepare.ingest.convlab) on a hand-written fixture.

tests/fixtures/convlab/tiny.json holds two dialogues in the ConvLab layout:

* SNG0100 (id without ``.json``, as in ConvLab-2): a restaurant search and booking. The user
  text has a double space, the first system text a leading space and a tab; one system span is
  inverted (first word 4 > last word 3) and one lies past the last word; the final state has
  ``dontcare``, ``none`` (taxi) and a ``booked`` list; the goal has info, reqt and book parts.
* MUL0200.json (id with ``.json``, as in the original release): a train request whose state
  spans two domains with bookings in both.

Expected character offsets are counted by hand from the texts.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from mwzrepro.prepare.ingest import CANONICAL_TABLES, IngestError
from mwzrepro.prepare.ingest.convlab import convert_dialogues, read_convlab, span_slot_name
from mwzrepro.core.io import read_table, write_table
from mwzrepro.core.schemas import TABLES, validate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "convlab" / "tiny.json"


@pytest.fixture(scope="module")
def result():
    return read_convlab(FIXTURE, "val")


@pytest.fixture(scope="module")
def tables(result):
    return result[0]


def rows(df, cols):
    return [tuple(r) for r in df[cols].itertuples(index=False, name=None)]


def test_every_canonical_table_with_declared_columns(tables):
    assert tuple(tables) == CANONICAL_TABLES
    for name, df in tables.items():
        assert list(df.columns) == list(TABLES[name].columns), name
        validate(df, name)


def test_dialogue_ids_lowercased_without_json(tables):
    assert rows(tables["dialogues"], ["dialogue_id", "source_id", "split", "n_turns"]) == [
        ("sng0100", "SNG0100", "val", 4),
        ("mul0200", "MUL0200.json", "val", 2),
    ]


def test_turns_keep_text_verbatim(tables):
    turns = tables["turns"]
    assert rows(turns, ["dialogue_id", "turn_id", "speaker"]) == [
        ("sng0100", 0, "user"), ("sng0100", 1, "system"), ("sng0100", 2, "user"),
        ("sng0100", 3, "system"), ("mul0200", 0, "user"), ("mul0200", 1, "system"),
    ]
    assert turns.text[1] == " pizza hut city centre is a cheap place .\tits phone is 01223323737 ."


SPAN_COLS = ["dialogue_id", "turn_id", "span_index", "domain", "slot", "source_slot", "value",
             "start", "end"]


def test_word_spans_become_character_offsets(tables):
    assert rows(tables["spans"], SPAN_COLS) == [
        # double space before 'restaurant': 'centre' (word 7) starts at character 34
        ("sng0100", 0, 0, "restaurant", "pricerange", "Price", "cheap", 9, 14),
        ("sng0100", 0, 1, "restaurant", "area", "Area", "centre", 34, 40),
        # leading space: word 0 starts at character 1; the tab counts as one character;
        # span_index keeps the source position (1 and 4 were skipped)
        ("sng0100", 1, 0, "restaurant", "name", "Name", "pizza hut city centre", 1, 22),
        ("sng0100", 1, 2, "restaurant", "phone", "Phone", "01223323737", 55, 66),
        ("sng0100", 1, 3, "restaurant", "pricerange", "Price", "cheap", 28, 33),
        ("sng0100", 2, 0, "restaurant", "bookpeople", "People", "2", 12, 13),
        ("sng0100", 2, 1, "restaurant", "bookday", "Day", "friday", 24, 30),
        ("sng0100", 2, 2, "restaurant", "booktime", "Time", "18:00", 34, 39),
        ("sng0100", 3, 0, "booking", "ref", "Ref", "00000013", 47, 55),
        ("mul0200", 0, 0, "train", "destination", "Dest", "ely", 18, 21),
        ("mul0200", 1, 0, "train", "trainid", "Id", "tr1234", 0, 6),
        ("mul0200", 1, 1, "train", "leaveat", "Leave", "05:11", 17, 22),
    ]


def test_every_span_covers_its_value(tables):
    merged = tables["spans"].merge(tables["turns"], on=["dialogue_id", "turn_id"])
    for text, start, end, value in rows(merged, ["text", "start", "end", "value"]):
        assert text[start:end] == value


def test_inverted_and_out_of_range_spans_are_reported(result):
    _, skipped = result
    assert [(s["where"], s["span"]) for s in skipped] == [
        ("tiny.json: dialogue SNG0100, turn 1", ["Restaurant-Inform", "Area", "centre", 4, 3]),
        ("tiny.json: dialogue SNG0100, turn 1", ["Restaurant-Inform", "Choice", "one", 20, 20]),
    ]
    assert all("14 words" in s["reason"] for s in skipped)


def test_acts(tables):
    acts = tables["acts"]
    assert len(acts) == 13
    a = acts[(acts.dialogue_id == "sng0100") & (acts.turn_id == 3)]
    assert rows(a, ["act_index", "act", "domain", "intent", "slot", "value"]) == [
        (0, "Booking-Book", "booking", "book", "Ref", "00000013"),
        (1, "general-reqmore", "general", "reqmore", "none", "none"),
    ]


def test_states_book_prefix_dontcare_and_empty_markers(tables):
    got = [(d, t, dom, s, v, list(a), p) for d, t, dom, s, v, a, p in rows(
        tables["states"],
        ["dialogue_id", "turn", "domain", "slot", "value", "alternatives", "position"])]
    assert got == [
        ("sng0100", 0, "restaurant", "pricerange", "cheap", ["cheap"], 0),
        ("sng0100", 0, "restaurant", "area", "centre", ["centre"], 1),
        # turn 1 (log[3]): 'none' (taxi leaveAt), 'not mentioned' and '' are dropped;
        # 'dontcare' is kept; book slots get the 'book ' prefix; 'booked' is not a slot
        ("sng0100", 1, "restaurant", "food", "dontcare", ["dontcare"], 0),
        ("sng0100", 1, "restaurant", "pricerange", "cheap", ["cheap"], 1),
        ("sng0100", 1, "restaurant", "name", "pizza hut city centre", ["pizza hut city centre"],
         2),
        ("sng0100", 1, "restaurant", "area", "centre", ["centre"], 3),
        ("sng0100", 1, "restaurant", "book people", "2", ["2"], 4),
        ("sng0100", 1, "restaurant", "book day", "friday", ["friday"], 5),
        ("sng0100", 1, "restaurant", "book time", "18:00", ["18:00"], 6),
        ("mul0200", 0, "hotel", "name", "acorn guest house", ["acorn guest house"], 0),
        ("mul0200", 0, "hotel", "book stay", "2", ["2"], 1),
        ("mul0200", 0, "train", "destination", "ely", ["ely"], 2),
        ("mul0200", 0, "train", "departure", "cambridge", ["cambridge"], 3),
        ("mul0200", 0, "train", "book people", "1", ["1"], 4),
    ]


def test_booked_per_system_turn(tables):
    assert rows(tables["booked"], ["dialogue_id", "turn", "domain", "n_booked", "position"]) == [
        ("sng0100", 1, "restaurant", 1, 0),
        ("mul0200", 0, "hotel", 1, 0),
        ("mul0200", 0, "train", 1, 1),
    ]


def test_goals_long_format(tables):
    assert rows(tables["goals"], ["dialogue_id", "domain", "kind", "position", "slot",
                                  "value"]) == [
        ("sng0100", "restaurant", "info", 0, "pricerange", "cheap"),
        ("sng0100", "restaurant", "info", 1, "area", "centre"),
        ("sng0100", "restaurant", "reqt", 0, "phone", ""),
        ("sng0100", "restaurant", "book", 0, "people", "2"),
        ("sng0100", "restaurant", "book", 1, "day", "friday"),
        ("sng0100", "restaurant", "book", 2, "time", "18:00"),
        ("sng0100", "restaurant", "book", 3, "invalid", "false"),
    ]


def test_tables_round_trip_through_parquet(tables, tmp_path):
    for name, df in tables.items():
        write_table(df, tmp_path / f"{name}.parquet", name)
        assert len(read_table(tmp_path / f"{name}.parquet", name)) == len(df), name


def test_zip_gives_the_same_tables(tables, tmp_path):
    archive = tmp_path / "val.json.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(FIXTURE, "val.json")
    from_zip, skipped = read_convlab(archive, "val")
    for name in CANONICAL_TABLES:
        assert from_zip[name].equals(tables[name]), name
    assert skipped[0]["where"] == "val.json.zip: dialogue SNG0100, turn 1"


def test_zip_with_two_members_is_an_error(tmp_path):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.json", "{}")
        zf.writestr("b.json", "{}")
    with pytest.raises(IngestError, match=r"bad\.zip: expected one \.json member"):
        read_convlab(archive, "test")


def test_odd_log_is_an_error():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["MUL0200.json"]["log"].pop()
    with pytest.raises(IngestError, match=r"x\.json: dialogue MUL0200\.json: 'log' must be"):
        convert_dialogues(data, "test", source="x.json")


def test_colliding_ids_are_an_error():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["sng0100.json"] = data["SNG0100"]
    with pytest.raises(IngestError, match=r"'SNG0100' and 'sng0100\.json' collide"):
        convert_dialogues(data, "test")


@pytest.mark.parametrize(
    "domain, slot, expected",
    [
        ("Train", "Day", "day"),
        ("Booking", "Day", "bookday"),
        ("Train", "Time", "duration"),
        ("Restaurant", "Time", "booktime"),
        ("Train", "Ticket", "price"),
        ("Hotel", "Price", "pricerange"),
        ("Train", "Leave", "leaveat"),
        ("Taxi", "Arrive", "arriveby"),
        ("Taxi", "Car", "type"),
        ("Attraction", "Fee", "entrancefee"),
        ("Attraction", "Open", "openhours"),
        ("Hotel", "Addr", "address"),
        ("Hotel", "Post", "postcode"),
        ("Hotel", "Stay", "bookstay"),
        ("Hotel", "Foo", "foo"),
    ],
)
def test_span_slot_name(domain, slot, expected):
    assert span_slot_name(domain, slot) == expected
