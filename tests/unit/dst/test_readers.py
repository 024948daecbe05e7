"""Unit tests of mwzrepro.dst.inputs: readers of gold states, predicted states, flag files and
human-evaluation logs, alignment and coverage (spec-dst-metrics §2, §7.1, §10)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from mwzrepro.dst.alignment import align_flags, align_states, select_dialogues
from mwzrepro.dst.corpus import score_corpus
from mwzrepro.dst.metrics import score_dialogue
from mwzrepro.dst.readers.flags import parse_flags, read_flag_file
from mwzrepro.dst.readers.gold import gold_from_tables
from mwzrepro.dst.readers.human_eval import (
    parse_state_literal,
    read_human_eval_log,
    read_human_eval_logs,
)
from mwzrepro.dst.readers.predictions import predictions_from_table
from mwzrepro.dst.state import DONTCARE, DSTError, GoldDialogue, canonical_dialogue_id

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dst"
ONES = [1] * 30


def states_frame(rows):
    return pd.DataFrame(
        [{"dialogue_id": d, "turn": t, "domain": dom, "slot": s, "value": v,
          "alternatives": alts or [v], "position": i}
         for i, (d, t, dom, s, v, alts) in enumerate(rows)]
    )


def dialogues_frame(lengths):
    return pd.DataFrame([{"dialogue_id": d, "source_id": d.upper(), "split": "test",
                          "n_turns": 2 * n} for d, n in lengths.items()])


GOLD_ROWS = [
    ("mul0001", 1, "hotel", "name", "Cityroomz", None),
    ("mul0001", 1, "hotel", "book people", "4", None),
    ("mul0001", 2, "hotel", "name", "Cityroomz", None),
    ("mul0001", 2, "hotel", "type", "guesthouse", ["guesthouse", "guest house"]),
    ("mul0001", 2, "police", "name", "parkside", None),
    ("mul0001", 2, "hotel", "parking", "dont care", None),
    ("pmul1455", 0, "train", "day", "monday", None),
]


def gold():
    dropped = Counter()
    g = gold_from_tables(states_frame(GOLD_ROWS), dialogues_frame({"mul0001": 3, "pmul1455": 2}),
                         "states.parquet", dropped)
    return g, dropped


def test_gold_from_tables():
    g, dropped = gold()
    assert sorted(g) == ["mul0001", "pmul1455"]
    s = g["mul0001"].states
    assert s[0] == {}  # a turn without rows is the empty state
    assert s[1] == {("hotel", "name"): "cityroomz", ("hotel", "book people"): "4"}
    assert s[2] == {("hotel", "name"): "cityroomz", ("hotel", "type"): "guesthouse",
                    ("hotel", "parking"): DONTCARE}
    assert g["mul0001"].alternatives[2][("hotel", "type")] == ("guesthouse", "guest house")
    assert dropped == Counter({"police-name": 1})
    assert len(g["pmul1455"].states) == 2


def test_gold_rows_outside_the_dialogue_are_errors():
    rows = GOLD_ROWS + [("mul0001", 3, "hotel", "area", "east", None)]
    with pytest.raises(DSTError, match="states.parquet: dialogue mul0001, turn 3"):
        gold_from_tables(states_frame(rows), dialogues_frame({"mul0001": 3, "pmul1455": 2}),
                         "states.parquet")
    with pytest.raises(DSTError, match="dialogue pmul1455, turn 0"):
        gold_from_tables(states_frame(GOLD_ROWS), dialogues_frame({"mul0001": 3}), "s")


def pred_frame(states_by_turn):
    return pd.DataFrame([
        {"dialogue_id": d, "turn": t, "response": "", "response_norm": "",
         "state_json": None if s is None else json.dumps(s), "active_domains": None}
        for (d, t), s in states_by_turn.items()
    ])


def test_predictions_mwzeval_slot_names_and_reported_filter():
    df = pred_frame({
        ("mul0001", 0): {},
        ("mul0001", 1): {"hotel": {"name": "cityroomz", "people": "4", "arrive": "10:00"},
                         "taxi": {"leave at": "10:00", "day": "monday"}},
        ("mul0001", 2): {"hotel": {"name": "cityroomz", "type": "guest house",
                                   "parking": "not mentioned"},
                         "train": {"arriveBy": "12:00", "day": "friday", "people": "2"}},
    })
    dropped = Counter()
    p = predictions_from_table(df, "augpt.parquet", dropped)
    assert p["mul0001"][1] == {("hotel", "name"): "cityroomz",
                               ("hotel", "book people"): "4", ("taxi", "leaveat"): "10:00"}
    assert p["mul0001"][2] == {("hotel", "name"): "cityroomz", ("hotel", "type"): "guest house",
                               ("train", "arriveby"): "12:00", ("train", "day"): "friday",
                               ("train", "book people"): "2"}
    assert dropped == Counter({"hotel-arrive": 1, "taxi-day": 1})
    with pytest.raises(DSTError,
                       match="augpt.parquet: dialogue mul0001, turn 1: slot hotel-arrive"):
        predictions_from_table(df, "augpt.parquet")


def test_predictions_without_states_and_mixed_states():
    assert predictions_from_table(pred_frame({("a", 0): None, ("a", 1): None})) is None
    with pytest.raises(DSTError, match="f: dialogue a, turn 1: no predicted state"):
        predictions_from_table(pred_frame({("a", 0): {}, ("a", 1): None}), "f")
    bad = pred_frame({("a", 0): {"hotel": "cheap"}})
    with pytest.raises(DSTError, match="f: dialogue a, turn 0: state of domain 'hotel'"):
        predictions_from_table(bad, "f")
    two = pred_frame({("a", 0): {"taxi": {"arrive by": "10:00", "arriveby": "11:00"}}})
    with pytest.raises(DSTError, match="dialogue a, turn 0.*two values for taxi-arriveby"):
        predictions_from_table(two, "f")


def test_align_states_coverage_and_alternatives():
    g, _ = gold()
    pred = {"mul0001": {0: {}, 1: {("hotel", "name"): "cityroomz",
                                    ("hotel", "book people"): "4"},
                        2: {("hotel", "name"): "cityroomz", ("hotel", "type"): "guest house",
                            ("hotel", "parking"): DONTCARE}}}
    ds, cov = align_states(g, pred, excluded=["PMUL1455.json"], source="p")
    assert [d.dialogue_id for d in ds] == ["mul0001"]
    assert cov.as_dict()["excluded"] == ["pmul1455"] and cov.excluded_turns == 2
    assert (cov.gold_dialogues, cov.gold_turns, cov.scored_dialogues, cov.scored_turns) == \
        (2, 5, 1, 3)
    s, _ = score_corpus(ds, [0.5])
    assert s.jga == 1.0  # "guest house" is a 2.2 alternative → rewritten
    # PMUL1455 is excluded by default (spec §2.6) and reported
    assert align_states(g, pred, source="p")[1].excluded == ["pmul1455"]
    # without the exclusion pmul1455 has no predictions
    with pytest.raises(DSTError, match="p: dialogue pmul1455: no predictions"):
        align_states(g, pred, excluded=[], source="p")
    ds, cov = align_states(g, pred, excluded=[], missing="skip", source="p")
    assert cov.missing_dialogues == ["pmul1455"] and cov.scored_turns == 3


def test_align_states_turn_errors_and_truncation():
    g, _ = gold()
    full = {0: {}, 1: {}, 2: {}}
    with pytest.raises(DSTError, match="p: dialogue mul0001, turn 2: missing prediction"):
        align_states(g, {"mul0001": {0: {}, 1: {}}}, excluded=["pmul1455"], source="p")
    ds, cov = align_states(g, {"mul0001": {0: {}, 1: {}}}, excluded=["pmul1455"],
                           missing="skip", source="p")
    assert cov.missing_turns == {"mul0001": [2]} and cov.scored_turns == 2
    assert cov.as_dict()["n_missing_turns"] == 1
    with pytest.raises(DSTError, match="dialogue mul0001, turn 1: predicted turns are not "
                                       "contiguous"):
        align_states(g, {"mul0001": {0: {}, 2: {}}}, excluded=["pmul1455"], missing="skip")
    with pytest.raises(DSTError, match="dialogue mul0001, turn 3: prediction for a turn beyond"):
        align_states(g, {"mul0001": {**full, 3: {}}}, excluded=["pmul1455"])
    with pytest.raises(DSTError, match="dialogue sng0001 is predicted but not in the gold"):
        align_states(g, {"mul0001": full, "sng0001": {0: {}}}, excluded=["pmul1455"])
    with pytest.raises(ValueError):
        align_states(g, {}, missing="ignore")


# ------------------------------------------------------------------------------------------
# flag files (§7.1)


def test_flag_file_round_trip(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps({"MUL0001.json": {"0": ONES, "1": ONES, "2": [0] + ONES[1:]},
                                "PMUL1455.json": {"0": ONES, "1": ONES}}))
    flags = read_flag_file(path)
    assert sorted(flags) == ["mul0001", "pmul1455"] and len(flags["mul0001"]) == 3
    g, _ = gold()
    ds, cov = align_flags(flags, g, excluded=["PMUL1455"], source=str(path))
    assert [d.dialogue_id for d in ds] == ["mul0001"] and cov.scored_turns == 3
    assert ds[0].gold_present[1] == frozenset({11, 14})
    ds, cov = align_flags(flags, None, excluded=["PMUL1455"])
    assert ds[0].gold_present is None and cov.gold_turns == 5


@pytest.mark.parametrize(
    "content, message",
    [
        ({"MUL0001.json": {"0": ONES, "2": ONES}}, r"dialogue MUL0001.json, turn 1: missing"),
        ({"MUL0001.json": {"0": ONES, "1": ONES[:29]}},
         r"dialogue MUL0001.json, turn 1: flag vector must be 30 integers 0/1, got length 29"),
        ({"MUL0001.json": {"0": [2] + ONES[1:]}}, r"dialogue MUL0001.json, turn 0: flag vector"),
        ({"MUL0001.json": {"0": [True] + ONES[1:]}}, r"turn 0: flag vector"),
        ({"MUL0001.json": {"a": ONES}}, r"dialogue MUL0001.json: turn keys must be decimal"),
        ({"MUL0001.json": [ONES]}, r"dialogue MUL0001.json: must map turn index"),
        ([], r"top level must be an object"),
    ],
)
def test_malformed_flag_files(content, message):
    with pytest.raises(DSTError, match=message):
        parse_flags(content, "trippy_result.json")


def test_flag_file_unreadable(tmp_path):
    p = tmp_path / "f.json"
    p.write_text("{not json")
    with pytest.raises(DSTError, match="f.json: cannot read flag file"):
        read_flag_file(p)


def test_align_flags_turn_mismatch_names_dialogue_and_turn():
    g, _ = gold()
    flags = {"mul0001": (tuple(ONES),) * 2, "pmul1455": (tuple(ONES),) * 2}
    with pytest.raises(DSTError, match="t.json: dialogue mul0001, turn 2: 2 flag vectors but 3"):
        align_flags(flags, g, excluded=[], source="t.json")
    with pytest.raises(DSTError, match="dialogue pmul1455: gold dialogue without flag"):
        align_flags({"mul0001": (tuple(ONES),) * 3}, g, excluded=[], source="t.json")
    with pytest.raises(DSTError, match="dialogue sng0002 has flags but no gold"):
        align_flags({**flags, "sng0002": ()}, g, excluded=["pmul1455"])


# ------------------------------------------------------------------------------------------
# human-evaluation logs (§10 item 4)


def test_read_human_eval_log_fixture():
    d, notes = read_human_eval_log(FIXTURES / "SNG9001.json.txt")
    assert d.dialogue_id == "sng9001" and len(d.gold) == 3 and notes == []
    assert d.gold[0] == {} and d.pred[0] == {}
    assert d.gold[1][("hotel", "book people")] == "2"
    assert d.gold[2][("restaurant", "name")] == "rosa's"
    outs = score_dialogue(d)
    assert [(o.kind, o.x) for o in outs] == [("EXACT", None), ("TYPE1", None), ("TYPE2", 1.0)]


def edit_fixture(tmp_path, old, new, count=1):
    text = (FIXTURES / "SNG9001.json.txt").read_text()
    assert old in text
    p = tmp_path / "SNG9001.json.txt"
    p.write_text(text.replace(old, new, count))
    return p


def test_unreadable_state_line_names_file_dialogue_and_turn(tmp_path):
    p = edit_fixture(tmp_path, "PR  : {'hotel': {'area': 'centre', 'people': '2', "
                               "'day': 'friday'}}", "PR  : {'hotel': {'area': 'centre'")
    with pytest.raises(DSTError, match=r"SNG9001.json.txt: dialogue sng9001, turn 1, line \d+: "
                                       r"unreadable state"):
        read_human_eval_log(p)


def test_state_line_is_never_evaluated_as_code(tmp_path):
    p = edit_fixture(tmp_path, "PR  : {}", "PR  : __import__('os').getcwd()")
    with pytest.raises(DSTError, match="turn 0, line 8: unreadable state"):
        read_human_eval_log(p)


def test_matched_must_agree_with_states(tmp_path):
    p = edit_fixture(tmp_path, "Matched : False", "Matched : True")
    with pytest.raises(DSTError, match="dialogue sng9001, turn 1.*Matched : True but GT and PR "
                                       "states are different"):
        read_human_eval_log(p)
    p = edit_fixture(tmp_path, "Matched : True", "Matched : yes")
    with pytest.raises(DSTError, match="turn 0.*Matched must be True or False"):
        read_human_eval_log(p)


def test_missing_and_misnumbered_turns(tmp_path):
    p = edit_fixture(tmp_path, "Turn: 2", "Turn: 3")
    with pytest.raises(DSTError, match="turn 3.*expected 2"):
        read_human_eval_log(p)
    p = edit_fixture(tmp_path, "\nMatched : True\n", "\n")
    with pytest.raises(DSTError, match="dialogue sng9001, turn 0.*missing Matched"):
        read_human_eval_log(p)
    p = edit_fixture(tmp_path, "Dialogue ID : SNG9001.json", "Dialog : SNG9001.json")
    with pytest.raises(DSTError, match="no 'Dialogue ID :' line"):
        read_human_eval_log(p)


def test_stray_lines_are_reported_not_dropped(tmp_path):
    p = edit_fixture(tmp_path, "\nMatched : True\n", "\nMatched : True\nstray text\n")
    d, notes = read_human_eval_log(p)
    assert len(d.gold) == 3
    assert len(notes) == 1 and "dialogue sng9001, turn 0, line" in notes[0]
    assert "stray text" in notes[0]


def test_read_logs_and_select(tmp_path):
    logs, notes = read_human_eval_logs([FIXTURES / "SNG9001.json.txt"])
    ds, cov = select_dialogues(logs, excluded=["PMUL1455", "SNG9001"], source="logs")
    assert ds == [] and cov.excluded == ["sng9001"] and cov.excluded_absent == ["pmul1455"]
    other = tmp_path / "copy.json.txt"
    other.write_text((FIXTURES / "SNG9001.json.txt").read_text())
    with pytest.raises(DSTError, match="dialogue sng9001 appears in two log files"):
        read_human_eval_logs([FIXTURES / "SNG9001.json.txt", other])


def test_parse_state_literal():
    assert parse_state_literal("{{}}", "w") == {}
    assert parse_state_literal(" {'a': {'b': \"it's\"}} ", "w") == {"a": {"b": "it's"}}
    with pytest.raises(DSTError, match="w: state must be"):
        parse_state_literal("{'a': 1}", "w")


def test_canonical_dialogue_id():
    assert canonical_dialogue_id("PMUL2563.json") == "pmul2563"
    assert canonical_dialogue_id("sng0073") == "sng0073"


def test_gold_dialogue_is_plain_data():
    assert GoldDialogue((), ()) == GoldDialogue((), ())
