"""Scorer inputs: the all-or-nothing rules for states and active domains (spec §2.2, §9.1)
and the active-domain sources (§8)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.standard.inputs import dialogue_order, prepare_predictions, prepare_references

GOLD = {"a": [{"hotel": {"area": "north"}}, {"hotel": {"area": "north", "stars": "4"}}],
        "b": [{"train": {"day": "monday"}}]}
TRUTH = {"a": [["hotel"], ["hotel", "taxi"]], "b": [["train"]]}


def preds(rows):
    """rows: (dialogue, turn, raw response, state dict or None, domains or None)."""
    return pd.DataFrame([
        {"dialogue_id": d, "turn": t, "response": r, "response_norm": r.upper(),
         "state_json": None if s is None else json.dumps(s), "active_domains": a}
        for d, t, r, s, a in rows])


FULL = [("b", 0, "[train_id] leaves", {"train": {"leaveAt": "9"}}, ["train"]),
        ("a", 0, "[hotel_name] ok", {"hotel": {"area": "east"}}, ["hotel"]),
        ("a", 1, "[value_name] ok", {"hotel": {"area": "east", "stars": "4"}}, ["hotel"])]


def test_predicted_states_and_provided_domains_when_complete():
    p = prepare_predictions(preds(FULL), GOLD)
    assert (p.state_source, p.domain_source) == ("predicted", "provided")
    assert list(p.dialogues) == ["b", "a"]                 # input order kept
    assert p.dialogues["b"]["states"] == [{"train": {"leave": "09:00"}}]  # normalized
    assert p.dialogues["a"]["responses"] == ["[HOTEL_NAME] OK", "[VALUE_NAME] OK"]
    assert p.n_turns == 3


def test_one_missing_state_switches_every_turn_to_gold():
    rows = list(FULL)
    rows[2] = rows[2][:3] + (None, ["hotel"])
    p = prepare_predictions(preds(rows), GOLD)
    assert p.state_source == "gold"
    assert p.dialogues["a"]["states"] == GOLD["a"] and p.dialogues["b"]["states"] == GOLD["b"]


def test_empty_state_object_counts_as_present():
    rows = [r[:3] + ({},) + r[4:] for r in FULL]
    assert prepare_predictions(preds(rows), GOLD).state_source == "predicted"


def test_one_missing_domain_list_switches_to_estimation_from_the_chosen_states():
    rows = list(FULL)
    rows[0] = rows[0][:4] + (None,)
    p = prepare_predictions(preds(rows), GOLD)
    assert p.domain_source == "estimated"
    assert p.dialogues["a"]["active_domains"] == [["hotel"], ["hotel"]]
    with pytest.raises(InputError, match="provided"):
        prepare_predictions(preds(rows), GOLD, "provided")


def test_forced_sources():
    p = prepare_predictions(preds(FULL), GOLD, "slot-names")
    assert p.dialogues["a"]["active_domains"] == [["hotel"], []]
    assert p.dialogues["b"]["active_domains"] == [["train"]]
    g = prepare_predictions(preds(FULL), GOLD, "ground-truth", TRUTH)
    assert g.dialogues["a"]["active_domains"] == TRUTH["a"]
    assert p.with_domains("ground-truth", TRUTH).dialogues["a"]["active_domains"] == TRUTH["a"]
    with pytest.raises(InputError):
        prepare_predictions(preds(FULL), GOLD, "ground-truth", {"a": TRUTH["a"]})
    with pytest.raises(ConfigError):
        prepare_predictions(preds(FULL), GOLD, "magic")


def test_gold_states_missing_or_too_short():
    rows = [r[:3] + (None, r[4]) for r in FULL]
    with pytest.raises(InputError, match="dialogue b"):
        prepare_predictions(preds(rows), {"a": GOLD["a"]})
    with pytest.raises(InputError, match="dialogue a has 2 turns"):
        prepare_predictions(preds(rows), {"a": GOLD["a"][:1], "b": GOLD["b"]})


def test_bad_state_and_turn_gap_name_dialogue_and_turn():
    bad = preds(FULL)
    bad.loc[2, "state_json"] = json.dumps({"hotel": {"name": 5}})
    with pytest.raises(InputError, match="dialogue a, turn 1"):
        prepare_predictions(bad, GOLD, where="x.json")
    gap = preds(FULL)
    gap.loc[2, "turn"] = 3
    with pytest.raises(InputError, match="dialogue a"):
        prepare_predictions(gap, GOLD)


def test_dialogue_order():
    assert dialogue_order(["c", "a", "b", "a"], None) == ["c", "a", "b"]
    assert dialogue_order(["a", "b", "c"], ["c", "x", "a"]) == ["c", "a", "b"]
    p = prepare_predictions(preds(FULL), GOLD, order=["a", "b"])
    assert list(p.dialogues) == ["a", "b"]


def test_references_as_oracle():
    refs = pd.DataFrame({"dialogue_id": ["a", "a", "b"], "turn": [0, 1, 0],
                         "text": ["x"] * 3, "delex": ["[hotel_name]", "y", "[train_id]"],
                         "reference": ["NAME", "y", "TRAINID"]})
    p = prepare_references(refs, GOLD)
    assert (p.state_source, p.domain_source) == ("gold", "estimated")
    assert p.dialogues["a"] == {"responses": ["NAME", "y"], "raw_responses": ["[hotel_name]", "y"],
                                "states": GOLD["a"], "active_domains": [["hotel"], ["hotel"]]}
    assert prepare_references(refs, GOLD, "ground-truth", TRUTH).dialogues["a"][
        "active_domains"] == TRUTH["a"]


def test_first_bad_row_wins_and_turn_gap_message_is_exact():
    # a bad state before the gap is reported first (row order after sorting), as row by row
    both = preds(FULL + [("a", 3, "x", {"hotel": {}}, ["hotel"])])
    both.loc[2, "state_json"] = "{not json"
    with pytest.raises(InputError, match="dialogue a, turn 1: state"):
        prepare_predictions(both, GOLD)
    gap = preds(FULL + [("a", 3, "x", {"hotel": {}}, ["hotel"])])
    with pytest.raises(InputError, match=r"^x: dialogue a: turn 3 follows turn 1 \(turns"):
        prepare_predictions(gap, GOLD, where="x")
    first = preds([("a", 1, "x", {}, ["hotel"])])
    with pytest.raises(InputError, match="turn 1 follows turn -1"):
        prepare_predictions(first, GOLD)


def test_repeated_state_strings_share_one_normalized_state():
    p = prepare_predictions(preds(FULL + [("a", 2, "x", {"hotel": {"area": "east"}}, None)]),
                            GOLD)
    a = p.dialogues["a"]
    assert a["states"] == [{"hotel": {"area": "east"}}, {"hotel": {"area": "east", "stars": "4"}},
                           {"hotel": {"area": "east"}}]
    assert a["states"][0] is a["states"][2]
    # estimated domains: turn 2 removes a slot (no change) and keeps the current domain
    assert a["active_domains"] == [["hotel"], ["hotel"], ["hotel"]]
    assert p.domain_source == "estimated"


def test_empty_predictions_table():
    p = prepare_predictions(preds(FULL).iloc[:0], GOLD)
    assert p.dialogues == {} and p.n_turns == 0
