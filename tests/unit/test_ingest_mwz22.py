"""The official MultiWOZ 2.2 reader (mwzrepro.prepare.ingest.mwz22) on a hand-written 2.2 fixture.

The fixture (tests/fixtures/mwz22/) follows data/MultiWOZ_2.2/README.md and schema.json:
three dialogues in two dialogue files plus a dialog_acts.json:

* SNG0001: restaurant search with area 'dontcare', then a booking; a 'copy_from' frame slot; an
  empty police frame; a double space in a system utterance.
* MUL0002: train with alternatives in slot_values (['20:00', '8pm']), then a booking.
* PMUL0003: hospital, then a taxi (two frames in one user turn); one act span whose value
  ('Hills Road') differs from the text it points at ('Hills Rd, Cambridge').

dialog_acts.json also holds an entry for a dialogue that is not in the files (ignored).
Expected values below are written out by hand from the utterances.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mwzrepro.prepare.ingest import CANONICAL_TABLES, IngestError
from mwzrepro.prepare.ingest.mwz22 import canonical_dialogue_id, read_mwz22, state_slot
from mwzrepro.core.io import read_table, write_table
from mwzrepro.core.schemas import TABLES, validate

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "mwz22"
FILES = [FIX / "test" / "dialogues_001.json", FIX / "test" / "dialogues_002.json"]
ACTS = FIX / "dialog_acts.json"


@pytest.fixture(scope="module")
def result():
    return read_mwz22(FILES, ACTS, "test")


@pytest.fixture(scope="module")
def tables(result):
    return result[0]


def rows(df, cols):
    return [tuple(r) for r in df[cols].itertuples(index=False, name=None)]


def text_of(tables, did, turn_id):
    t = tables["turns"]
    return t[(t.dialogue_id == did) & (t.turn_id == turn_id)].text.item()


# --- dialogues and turns --------------------------------------------------------------------


def test_returns_every_canonical_table_with_declared_columns(tables):
    assert tuple(tables) == CANONICAL_TABLES
    for name, df in tables.items():
        assert list(df.columns) == list(TABLES[name].columns), name
        validate(df, name)


def test_dialogue_ids_are_lowercased_up_to_first_dot(tables):
    assert rows(tables["dialogues"], ["dialogue_id", "source_id", "split", "n_turns"]) == [
        ("sng0001", "SNG0001.json", "test", 4),
        ("mul0002", "MUL0002.json", "test", 4),
        ("pmul0003", "PMUL0003.json", "test", 4),
    ]


def test_turns_positions_speakers_and_verbatim_text(tables):
    turns = tables["turns"]
    assert len(turns) == 12
    assert list(turns.speaker[:4]) == ["user", "system", "user", "system"]
    assert list(turns.turn_id[:4]) == [0, 1, 2, 3]
    # verbatim: case and the double space kept, no tokenization
    assert text_of(tables, "sng0001", 1) == (
        "Pizza Hut City Centre is a cheap italian place.  Shall I book it?"
    )
    assert text_of(tables, "mul0002", 2) == "Yes, 3 tickets please."


# --- spans ----------------------------------------------------------------------------------

SPAN_COLS = ["turn_id", "span_index", "act", "domain", "slot", "source_slot", "value", "start",
             "end"]


def spans_of(tables, did):
    s = tables["spans"]
    return rows(s[s.dialogue_id == did], SPAN_COLS)


def test_spans_restaurant_dialogue(tables):
    assert spans_of(tables, "sng0001") == [
        # user turn 0: frame span only (the dialog_acts span_info of user turns is not used)
        (0, 0, "", "restaurant", "food", "restaurant-food", "italian", 34, 41),
        (1, 0, "Restaurant-Inform", "restaurant", "name", "name", "pizza hut city centre", 0, 21),
        (1, 1, "Restaurant-Inform", "restaurant", "pricerange", "pricerange", "cheap", 27, 32),
        (1, 2, "Restaurant-Inform", "restaurant", "food", "food", "italian", 33, 40),
        # user turn 2: the copy_from slot (index 2) gives no span
        (2, 0, "", "restaurant", "bookpeople", "restaurant-bookpeople", "2", 24, 25),
        (2, 1, "", "restaurant", "booktime", "restaurant-booktime", "18:30", 36, 41),
        (3, 0, "Booking-Book", "booking", "ref", "ref", "AB12CD34", 33, 41),
    ]


def test_spans_train_dialogue_keep_source_order(tables):
    assert spans_of(tables, "mul0002") == [
        (0, 0, "", "train", "leaveat", "train-leaveat", "8pm", 42, 45),
        (1, 0, "Train-Inform", "train", "trainid", "trainid", "TR1234", 0, 6),
        (1, 1, "Train-Inform", "train", "leaveat", "leaveat", "20:11", 17, 22),
        (1, 2, "Train-Inform", "train", "arriveby", "arriveby", "21:00", 38, 43),
        # span_info order (price before ref) is kept, not sorted by offset
        (3, 0, "Train-OfferBooked", "train", "price", "price", "30.24 GBP", 42, 51),
        (3, 1, "Train-OfferBooked", "train", "ref", "ref", "XYZ9", 18, 22),
    ]


def test_spans_hospital_taxi_dialogue(tables):
    assert spans_of(tables, "pmul0003") == [
        (0, 0, "", "hospital", "department", "hospital-department", "neurology", 33, 42),
        (1, 0, "Hospital-Inform", "hospital", "postcode", "postcode", "cb20qq", 61, 67),
        (1, 1, "Hospital-Inform", "hospital", "address", "address", "Hills Road", 31, 50),
        (1, 2, "Hospital-Inform", "hospital", "department", "department", "neurology", 4, 13),
        (2, 0, "", "taxi", "departure", "taxi-departure", "Addenbrookes Hospital", 25, 46),
        (2, 1, "", "taxi", "destination", "taxi-destination", "cambridge station", 50, 67),
        (2, 2, "", "taxi", "leaveat", "taxi-leaveat", "10:15", 71, 76),
        (3, 0, "Taxi-Inform", "taxi", "type", "type", "black toyota", 23, 35),
        (3, 1, "Taxi-Inform", "taxi", "phone", "phone", "07218068540", 52, 63),
    ]


def test_span_offsets_point_at_the_text(tables):
    t = text_of(tables, "sng0001", 1)
    assert t[0:21] == "Pizza Hut City Centre"
    assert text_of(tables, "mul0002", 3)[42:51] == "30.24 GBP"
    assert text_of(tables, "pmul0003", 1)[31:50] == "Hills Rd, Cambridge"
    assert text_of(tables, "pmul0003", 2)[25:46] == "Addenbrookes Hospital"


def test_value_text_mismatch_is_reported_and_span_kept(result):
    _, issues = result
    # Case differences (pizza hut city centre / Pizza Hut City Centre, cb20qq / CB20QQ) are not
    # reported; the one real mismatch is, and the span stays (the reference evaluator
    # delexicalizes by offsets).
    assert issues == [
        {
            "where": "dialog_acts.json: dialogue PMUL0003.json, turn 1",
            "span": ["Hospital-Inform", "address", "Hills Road", 31, 50],
            "reason": "kept: value differs from text[start:end] = 'Hills Rd, Cambridge'",
        }
    ]


# --- acts -----------------------------------------------------------------------------------


def test_acts_of_every_turn(tables):
    acts = tables["acts"]
    assert len(acts) == 31
    a = acts[acts.dialogue_id == "sng0001"]
    assert rows(a[a.turn_id == 1], ["act_index", "act", "domain", "intent", "slot", "value"]) == [
        (0, "Restaurant-Inform", "restaurant", "inform", "name", "pizza hut city centre"),
        (1, "Restaurant-Inform", "restaurant", "inform", "pricerange", "cheap"),
        (2, "Restaurant-Inform", "restaurant", "inform", "food", "italian"),
        (3, "Booking-Inform", "booking", "inform", "none", "none"),
    ]
    a = acts[acts.dialogue_id == "mul0002"]
    assert rows(a[a.turn_id == 3], ["act_index", "intent", "slot", "value"]) == [
        (0, "offerbooked", "ref", "XYZ9"),
        (1, "offerbooked", "price", "30.24 GBP"),
    ]
    assert "sng9999" not in set(acts.dialogue_id)


# --- states ---------------------------------------------------------------------------------

STATE_COLS = ["turn", "domain", "slot", "value", "alternatives", "position"]


def states_of(tables, did):
    s = tables["states"]
    return [(t, d, sl, v, list(alt), p) for t, d, sl, v, alt, p in rows(s[s.dialogue_id == did],
                                                                        STATE_COLS)]


def test_states_restaurant_dontcare_and_book_slots(tables):
    assert states_of(tables, "sng0001") == [
        (0, "restaurant", "area", "dontcare", ["dontcare"], 0),
        (0, "restaurant", "food", "italian", ["italian"], 1),
        (0, "restaurant", "pricerange", "cheap", ["cheap"], 2),
        (1, "restaurant", "area", "dontcare", ["dontcare"], 0),
        (1, "restaurant", "book day", "friday", ["friday"], 1),
        (1, "restaurant", "book people", "2", ["2"], 2),
        (1, "restaurant", "book time", "18:30", ["18:30"], 3),
        (1, "restaurant", "food", "italian", ["italian"], 4),
        (1, "restaurant", "name", "pizza hut city centre", ["pizza hut city centre"], 5),
        (1, "restaurant", "pricerange", "cheap", ["cheap"], 6),
    ]


def test_states_train_alternatives(tables):
    assert states_of(tables, "mul0002") == [
        (0, "train", "day", "sunday", ["sunday"], 0),
        (0, "train", "destination", "cambridge", ["cambridge"], 1),
        (0, "train", "leaveat", "20:00", ["20:00", "8pm"], 2),
        (1, "train", "book people", "3", ["3"], 0),
        (1, "train", "day", "sunday", ["sunday"], 1),
        (1, "train", "destination", "cambridge", ["cambridge"], 2),
        (1, "train", "leaveat", "20:00", ["20:00", "8pm"], 3),
    ]


def test_states_keep_hospital_and_follow_frame_then_slot_order(tables):
    assert states_of(tables, "pmul0003") == [
        (0, "hospital", "department", "neurology", ["neurology"], 0),
        (1, "hospital", "department", "neurology", ["neurology"], 0),
        (1, "taxi", "leaveat", "10:15", ["10:15"], 1),
        (1, "taxi", "departure", "addenbrookes hospital", ["addenbrookes hospital"], 2),
        (1, "taxi", "destination", "cambridge station", ["cambridge station"], 3),
    ]


def test_no_booked_no_goals(tables):
    assert tables["booked"].empty
    assert tables["goals"].empty


def test_tables_round_trip_through_parquet(tables, tmp_path):
    for name, df in tables.items():
        path = tmp_path / f"{name}.parquet"
        write_table(df, path, name)
        back = read_table(path, name)
        assert len(back) == len(df), name
    states = read_table(tmp_path / "states.parquet", "states")
    row = states[(states.dialogue_id == "mul0002") & (states.turn == 0)
                 & (states.slot == "leaveat")]
    assert list(row.alternatives.item()) == ["20:00", "8pm"]


def test_without_dialog_acts(result):
    tables, _ = read_mwz22(FILES, None, "test")
    assert tables["acts"].empty
    spans = tables["spans"]
    assert set(spans.turn_id % 2) == {0}  # user-turn frame spans only
    assert len(spans) == 8
    assert tables["states"].equals(result[0]["states"])


# --- helpers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("restaurant-bookpeople", ("restaurant", "book people")),
        ("hotel-bookday", ("hotel", "book day")),
        ("hotel-bookstay", ("hotel", "book stay")),
        ("restaurant-booktime", ("restaurant", "book time")),
        ("train-leaveat", ("train", "leaveat")),
        ("Hotel-PriceRange", ("hotel", "pricerange")),
        ("hospital-department", ("hospital", "department")),
        ("bus-day", ("bus", "day")),
    ],
)
def test_state_slot(name, expected):
    assert state_slot(name) == expected


def test_state_slot_needs_domain():
    with pytest.raises(ValueError, match="domain-slot"):
        state_slot("pricerange")


@pytest.mark.parametrize(
    "source, expected", [("PMUL4398.json", "pmul4398"), ("SNG01862", "sng01862")]
)
def test_canonical_dialogue_id(source, expected):
    assert canonical_dialogue_id(source) == expected


# --- malformed input ------------------------------------------------------------------------


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def dump(obj, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


@pytest.fixture()
def data():
    return copy.deepcopy(load(FILES[0])), copy.deepcopy(load(ACTS))


def run(tmp_path, dialogues, acts, more=()):
    files = [dump(dialogues, tmp_path / "test" / "dialogues_001.json")]
    files += [dump(d, tmp_path / "test" / f"dialogues_00{i + 2}.json") for i, d in enumerate(more)]
    return read_mwz22(files, dump(acts, tmp_path / "dialog_acts.json"), "test")


def test_out_of_range_and_inverted_spans_are_skipped_and_reported(tmp_path, data):
    dialogues, acts = data
    acts["SNG0001.json"]["1"]["span_info"][1][4] = 999  # past the end of the utterance
    acts["SNG0001.json"]["1"]["span_info"][2][3:] = [40, 33]  # inverted
    dialogues[0]["turns"][0]["frames"][1]["slots"][0]["start"] = -1
    tables, issues = run(tmp_path, dialogues, acts)
    spans = tables["spans"]
    assert rows(spans[spans.dialogue_id == "sng0001"], ["turn_id", "span_index"]) == [
        (1, 0), (2, 0), (2, 1), (3, 0)
    ]
    assert [(i["where"], i["span"][3:], i["reason"].split(":")[0]) for i in issues] == [
        ("test/dialogues_001.json: dialogue SNG0001.json, turn 0", [-1, 41], "skipped"),
        ("dialog_acts.json: dialogue SNG0001.json, turn 1", [27, 999], "skipped"),
        ("dialog_acts.json: dialogue SNG0001.json, turn 1", [40, 33], "skipped"),
    ]


def test_non_integer_offset_is_an_error(tmp_path, data):
    dialogues, acts = data
    acts["MUL0002.json"]["1"]["span_info"][0][3] = "0"
    with pytest.raises(IngestError, match=r"dialog_acts\.json: dialogue MUL0002\.json, turn 1"):
        run(tmp_path, dialogues, acts)


def test_system_first_is_an_error(tmp_path, data):
    dialogues, acts = data
    dialogues[1]["turns"][0]["speaker"] = "SYSTEM"
    with pytest.raises(
        IngestError,
        match=r"test/dialogues_001\.json: dialogue MUL0002\.json, turn 0: speaker 'SYSTEM'",
    ):
        run(tmp_path, dialogues, acts)


def test_speakers_must_alternate(tmp_path, data):
    dialogues, acts = data
    dialogues[0]["turns"][3]["speaker"] = "USER"
    with pytest.raises(IngestError, match=r"SNG0001\.json, turn 3: speaker 'USER', expected"):
        run(tmp_path, dialogues, acts)


def test_turn_id_must_match_position(tmp_path, data):
    dialogues, acts = data
    dialogues[0]["turns"][2]["turn_id"] = "3"
    with pytest.raises(IngestError, match=r"SNG0001\.json, turn 2: turn_id '3' differs"):
        run(tmp_path, dialogues, acts)


def test_odd_number_of_turns_is_an_error(tmp_path, data):
    dialogues, acts = data
    del dialogues[1]["turns"][3]
    with pytest.raises(IngestError, match=r"MUL0002\.json: 'turns' must be a list of even"):
        run(tmp_path, dialogues, acts)


def test_duplicate_dialogue_id_across_files_is_an_error(tmp_path, data):
    dialogues, acts = data
    other = [copy.deepcopy(dialogues[0])]
    other[0]["dialogue_id"] = "sng0001.json"  # same id after lowercasing
    with pytest.raises(
        IngestError,
        match=r"test/dialogues_002\.json: dialogue sng0001\.json: dialogue id 'sng0001' already "
        r"read from test/dialogues_001\.json",
    ):
        run(tmp_path, dialogues, acts, more=[other])


def test_system_turn_missing_from_dialog_acts_is_an_error(tmp_path, data):
    dialogues, acts = data
    del acts["MUL0002.json"]["3"]
    with pytest.raises(IngestError, match=r"dialogue MUL0002\.json, turn 3: no entry"):
        run(tmp_path, dialogues, acts)


def test_dialogue_missing_from_dialog_acts_is_an_error(tmp_path, data):
    dialogues, acts = data
    del acts["MUL0002.json"]
    with pytest.raises(IngestError, match=r"dialog_acts\.json: no entry for dialogue MUL0002"):
        run(tmp_path, dialogues, acts)


def test_two_values_for_one_slot_is_an_error(tmp_path, data):
    dialogues, acts = data
    frames = dialogues[0]["turns"][0]["frames"]
    frames.append(copy.deepcopy(frames[1]))
    with pytest.raises(IngestError, match=r"turn 0: two values for restaurant-area"):
        run(tmp_path, dialogues, acts)


def test_slot_outside_its_frame_is_an_error(tmp_path, data):
    dialogues, acts = data
    dialogues[0]["turns"][0]["frames"][0]["state"]["slot_values"] = {"taxi-leaveat": ["10:00"]}
    with pytest.raises(IngestError, match=r"slot 'taxi-leaveat' in the frame of service 'police'"):
        run(tmp_path, dialogues, acts)


def test_state_values_must_be_lists(tmp_path, data):
    dialogues, acts = data
    dialogues[0]["turns"][0]["frames"][1]["state"]["slot_values"]["restaurant-food"] = "italian"
    with pytest.raises(IngestError, match=r"turn 0: slot_values\['restaurant-food'\] must be"):
        run(tmp_path, dialogues, acts)


def test_empty_markers_are_dropped(tmp_path, data):
    dialogues, acts = data
    values = dialogues[0]["turns"][0]["frames"][1]["state"]["slot_values"]
    values["restaurant-name"] = ["not mentioned"]
    values["restaurant-booktime"] = [""]
    values["restaurant-bookday"] = []
    values["restaurant-food"] = ["none", "italian"]
    tables, _ = run(tmp_path, dialogues, acts)
    s = tables["states"]
    got = [(sl, v, list(a)) for sl, v, a in
           rows(s[(s.dialogue_id == "sng0001") & (s.turn == 0)], ["slot", "value", "alternatives"])]
    assert got == [("area", "dontcare", ["dontcare"]), ("food", "italian", ["italian"]),
                   ("pricerange", "cheap", ["cheap"])]


def test_unreadable_file_names_the_file(tmp_path):
    bad = tmp_path / "dialogues_001.json"
    bad.write_text("[{", encoding="utf-8")
    with pytest.raises(IngestError, match=r"dialogues_001\.json: cannot read"):
        read_mwz22([bad], None, "test")
    with pytest.raises(IngestError, match=r"missing\.json: cannot read"):
        read_mwz22([FILES[0]], tmp_path / "missing.json", "test")


# --- same canonical tables as the ConvLab reader ------------------------------------------


def test_same_tables_as_convlab_reader_for_the_same_dialogue(tmp_path):
    """MUL0200 of the ConvLab fixture, written by hand in the 2.2 layout, gives the same turns,
    states and span positions/slots as the ConvLab reader gives for the 2.1 layout."""
    from mwzrepro.prepare.ingest.convlab import read_convlab

    user, system = "i need a train to ely .", "tr1234 leaves at 05:11 ."
    dialogue = {"dialogue_id": "MUL0200.json", "services": ["hotel", "train"], "turns": [
        {"turn_id": "0", "speaker": "USER", "utterance": user, "frames": [
            {"service": "hotel", "actions": [], "slots": [],
             "state": {"active_intent": "NONE", "requested_slots": [],
                       "slot_values": {"hotel-name": ["acorn guest house"],
                                       "hotel-bookstay": ["2"]}}},
            {"service": "train", "actions": [],
             "slots": [{"slot": "train-destination", "start": 18, "exclusive_end": 21,
                        "value": "ely"}],
             "state": {"active_intent": "find_train", "requested_slots": [],
                       "slot_values": {"train-destination": ["ely"],
                                       "train-departure": ["cambridge"],
                                       "train-bookpeople": ["1"]}}}]},
        {"turn_id": "1", "speaker": "SYSTEM", "utterance": system,
         "frames": [{"service": "train", "actions": [], "slots": []}]},
    ]}
    acts = {"MUL0200.json": {
        "0": {"dialog_act": {"Train-Inform": [["destination", "ely"]]}, "span_info": []},
        "1": {"dialog_act": {"Train-Inform": [["trainid", "tr1234"], ["leaveat", "05:11"]]},
              "span_info": [["Train-Inform", "trainid", "tr1234", 0, 6],
                            ["Train-Inform", "leaveat", "05:11", 17, 22]]}}}
    new, _ = run(tmp_path, [dialogue], acts)
    old, _ = read_convlab(FIX.parent / "convlab" / "tiny.json", "test")

    def only(df):
        return df[df.dialogue_id == "mul0200"].reset_index(drop=True)

    assert (len(only(new["turns"])), len(only(new["states"])), len(only(new["spans"]))) == (2, 5, 3)
    assert only(new["turns"]).equals(only(old["turns"]))
    assert only(new["states"]).equals(only(old["states"]))
    cols = ["dialogue_id", "turn_id", "span_index", "domain", "slot", "value", "start", "end"]
    assert only(new["spans"])[cols].equals(only(old["spans"])[cols])
    assert only(new["dialogues"]).n_turns.equals(only(old["dialogues"]).n_turns)
