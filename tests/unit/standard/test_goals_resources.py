"""Evaluator resources from canonical tables: goals (spec-standard-evaluation §5.2), booked
domains (§5.3) and gold states (§5.4 with §4 normalization)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mwzrepro.standard.booked import (
    booked_domains_from_dict,
    booked_domains_to_dict,
    build_booked_domains,
)
from mwzrepro.standard.goals import build_eval_goals, eval_goals_from_dict, eval_goals_to_dict
from mwzrepro.standard.gold_states import build_gold_states, gold_states_to_dict

GOAL_COLS = ["dialogue_id", "domain", "kind", "position", "slot", "value"]


def goal_rows(did, domain, kind, items):
    return [{"dialogue_id": did, "domain": domain, "kind": kind, "position": i, "slot": s,
             "value": v} for i, (s, v) in enumerate(items)]


def test_sng0073_goal_from_the_spec():
    # raw: {"taxi": {"info": {"leaveAt": "17:15", "destination": "pizza hut fen ditton",
    #        "departure": "saint john's college"}, "reqt": ["car type", "phone"],
    #        "fail_info": {}}}
    rows = goal_rows("sng0073", "taxi", "info", [("leaveAt", "17:15"),
                                                 ("destination", "pizza hut fen ditton"),
                                                 ("departure", "saint john's college")])
    rows += goal_rows("sng0073", "taxi", "reqt", [("car type", ""), ("phone", "")])
    got = eval_goals_to_dict(build_eval_goals(pd.DataFrame(rows, columns=GOAL_COLS)))
    assert got == {"sng0073": {"taxi": {
        "informable": {"leave": "17:15", "destination": "pizza hut fen ditton",
                       "departure": "saint john's college"},
        "requestable": ["PHONE"], "booking": []}}}
    assert json.dumps(got["sng0073"]) == (
        '{"taxi": {"informable": {"leave": "17:15", "destination": "pizza hut fen ditton", '
        '"departure": "saint john\'s college"}, "requestable": ["PHONE"], "booking": []}}')


def test_requestables_booking_and_value_normalization():
    rows = []
    # hotel: reqt in order, only delexicalizable ones; book -> REFERENCE last
    rows += goal_rows("d1", "hotel", "info", [("type", "guest house"), ("parking", "free")])
    rows += goal_rows("d1", "hotel", "reqt", [("postcode", ""), ("parking", ""),
                                              ("phone", "")])
    rows += goal_rows("d1", "hotel", "book", [("stay", "3"), ("invalid", "false"),
                                              ("pre_invalid", "true"), ("people", "2")])
    # train: REFERENCE (book) first, then TRAINID; other reqt ignored
    rows += goal_rows("d1", "train", "info", [("arriveBy", "by 15:00"), ("leaveAt", "9")])
    rows += goal_rows("d1", "train", "reqt", [("duration", ""), ("trainID", "")])
    rows += goal_rows("d1", "train", "book", [("people", "1")])
    # attraction: normalized type, ids/ reference requests mapped
    rows += goal_rows("d1", "attraction", "info", [("type", "mutliple sports"),
                                                   ("name", "the junction")])
    rows += goal_rows("d1", "attraction", "reqt", [("entrance fee", ""), ("address", "")])
    rows += goal_rows("d1", "attraction", "fail_info", [("area", "west")])
    rows += goal_rows("d1", "police", "fail_info", [("x", "y")])  # no info: no requestables
    got = eval_goals_to_dict(build_eval_goals(pd.DataFrame(rows, columns=GOAL_COLS)))["d1"]
    assert list(got) == ["hotel", "attraction", "train", "police"]  # §5.2 domain order
    assert got["hotel"] == {"informable": {"type": "guesthouse", "parking": "yes"},
                            "requestable": ["POST", "PHONE", "REFERENCE"],
                            "booking": {"stay": "3", "people": "2"}}
    assert got["train"]["informable"] == {"arrive": "15:00", "leave": "09:00"}
    assert got["train"]["requestable"] == ["REFERENCE", "TRAINID"]
    assert got["attraction"]["informable"] == {"type": "multiple sports",
                                               "name": "junction theatre"}
    assert got["attraction"]["requestable"] == ["ADDRESS"]
    assert got["police"] == {"informable": {}, "requestable": [], "booking": []}


def test_train_without_book_or_trainid_requests_nothing():
    rows = goal_rows("d2", "train", "info", [("day", "monday")])
    rows += goal_rows("d2", "train", "reqt", [("price", ""), ("leaveAt", "")])
    got = eval_goals_to_dict(build_eval_goals(pd.DataFrame(rows, columns=GOAL_COLS)))
    assert got["d2"]["train"]["requestable"] == []


def test_goal_dict_round_trip():
    goals = {"d1": {"restaurant": {"informable": {"food": "thai"},
                                   "requestable": ["PHONE", "REFERENCE"],
                                   "booking": {"people": "2"}},
                    "taxi": {"informable": {}, "requestable": [], "booking": []}}}
    assert eval_goals_to_dict(eval_goals_from_dict(goals)) == goals


def dialogues(**n_turns):
    return pd.DataFrame({"dialogue_id": list(n_turns), "source_id": list(n_turns),
                         "split": "test", "n_turns": list(n_turns.values())})


def test_booked_domains_pmul1635_shape_and_taxi_excluded():
    # spec §5.3 example: [[], [], [], [hotel], [hotel], [hotel], [hotel, train], ...]
    rows = []
    for t in range(3, 9):
        rows.append({"dialogue_id": "pmul1635", "turn": t, "domain": "hotel", "n_booked": 1,
                     "position": 1})
        rows.append({"dialogue_id": "pmul1635", "turn": t, "domain": "taxi", "n_booked": 1,
                     "position": 0})
    for t in range(6, 9):
        rows.append({"dialogue_id": "pmul1635", "turn": t, "domain": "train", "n_booked": 1,
                     "position": 2})
    table = build_booked_domains(pd.DataFrame(rows), dialogues(pmul1635=18))
    assert booked_domains_to_dict(table) == {"pmul1635": [
        [], [], [], ["hotel"], ["hotel"], ["hotel"], ["hotel", "train"], ["hotel", "train"],
        ["hotel", "train"]]}
    assert booked_domains_to_dict(booked_domains_from_dict(
        booked_domains_to_dict(table))) == booked_domains_to_dict(table)


def test_booked_row_outside_the_dialogue_is_an_error():
    rows = [{"dialogue_id": "x", "turn": 5, "domain": "hotel", "n_booked": 1, "position": 0}]
    with pytest.raises(ValueError, match="dialogue x, turn 5"):
        build_booked_domains(pd.DataFrame(rows), dialogues(x=4))


def state_rows(did, turn, items):
    return [{"dialogue_id": did, "turn": turn, "domain": d, "slot": s, "value": v,
             "alternatives": [v], "position": i} for i, (d, s, v) in enumerate(items)]


def test_gold_states_normalized_dontcare_dropped_and_ordered():
    rows = state_rows("d", 1, [
        ("train", "leaveat", "after 7 pm"), ("train", "book people", "2"),
        ("restaurant", "food", "dontcare"), ("restaurant", "name", "Nando's"),
        ("hotel", "area", "dont care"), ("taxi", "arriveby", "by 15:00"),
    ])
    table = build_gold_states(pd.DataFrame(rows), dialogues(d=6))
    states = gold_states_to_dict(table)["d"]
    assert states[0] == {} and states[2] == {}          # turns without rows: empty state
    assert states[1] == {"train": {"leave": "19:00", "bookpeople": "2"},
                         "restaurant": {"name": "nandos"},
                         "taxi": {"arrive": "15:00"}}      # hotel had only a dontcare slot
    assert list(states[1]) == ["train", "restaurant", "taxi"]
    assert table["state_json"].iloc[1].startswith('{"train":{"leave":"19:00"')
