"""The rows of ``inform_success_grounded`` computed once (:mod:`mwzrepro.scorer.grounded_rows`)
and the round trip's stored inputs (:mod:`mwzrepro.scorer.lexicalized.round_trip_inputs`) on
the two-dialogue mwz21 fixture mirror: the inputs written and read back fill the same text
as the inputs computed in place; the rows scored in two forked workers, each prepared and
linked once, are the rows of ``Evaluator.evaluate`` plus ``filled_accuracy`` one after
another; inputs of another prediction file are refused."""

from __future__ import annotations

import json

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.scorer.grounded_rows import GroundedInput, grounded_rows
from mwzrepro.scorer.lexicalized.grounded_table import ORACLE_ROW, corpus_text
from mwzrepro.scorer.lexicalized.round_trip import filled_accuracy, round_trip
from mwzrepro.scorer.lexicalized.round_trip_inputs import (
    own_counters,
    read_round_trip_inputs,
    round_trip_inputs,
    write_round_trip_inputs,
)
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_lexicalized_scoring import LEXICAL, evaluator

#: PREDICTIONS with a venue named in words (the fixture database's dojo noodle bar): its
#: value is the system's own, the fill writes the others.
OWN = {**PREDICTIONS, "sng9001": [
    {"response": "[restaurant_name] is at a2 .", "state": PREDICTIONS["sng9001"][0]["state"]},
    PREDICTIONS["sng9001"][1]]}


@pytest.fixture(scope="module")
def grounded(mini):
    return evaluator(mini, lexicalized=True, setting="all", bleu=False, richness=False)


def test_stored_inputs_fill_the_same_text(grounded, tmp_path):
    path, predictions = tmp_path / "own.json", tmp_path / "predictions.json"
    predictions.write_text(json.dumps(OWN), encoding="utf-8")
    inputs = round_trip_inputs(OWN, grounded.resources)
    assert own_counters(inputs)[("sng9001", 0)] == {("address", "a2"): 1}
    assert inputs["domains"] == {"sng9001": [["restaurant"], ["restaurant"]],
                                 "sng9002": [["taxi"]]}
    write_round_trip_inputs(inputs, predictions, path)
    stored = read_round_trip_inputs(path, predictions)
    assert round_trip(OWN, grounded, stored) == round_trip(OWN, grounded)
    assert (filled_accuracy(OWN, round_trip(OWN, grounded), grounded, "own", stored)
            == filled_accuracy(OWN, round_trip(OWN, grounded), grounded, "own"))


def test_inputs_of_another_file_are_refused(grounded, tmp_path):
    path, predictions = tmp_path / "own.json", tmp_path / "predictions.json"
    predictions.write_text(json.dumps(OWN), encoding="utf-8")
    with pytest.raises(InputError, match="own.json: missing; the round-trip inputs of"):
        read_round_trip_inputs(path, predictions)
    write_round_trip_inputs(round_trip_inputs(OWN, grounded.resources), predictions, path)
    predictions.write_text(json.dumps(PREDICTIONS), encoding="utf-8")
    with pytest.raises(InputError, match=r"computed from another version of .*SHA-256"):
        read_round_trip_inputs(path, predictions)


def test_heard_keeps_the_order_of_the_domains(tmp_path):
    """The fill reads a turn's heard domains in order (the last is the venue in focus): the
    stored file keeps it."""
    path, predictions = tmp_path / "x.json", tmp_path / "p.json"
    predictions.write_text("{}", encoding="utf-8")
    heard = {"sng9001": [{"restaurant": ["3"], "attraction": ["1"]}]}
    write_round_trip_inputs({"heard": heard, "domains": {}, "own": {}}, predictions, path)
    assert list(read_round_trip_inputs(path, predictions)["heard"]["sng9001"][0]) == [
        "restaurant", "attraction"]


def test_rows_in_workers_are_the_rows_one_by_one(grounded):
    rows = [GroundedInput("mine", "filled", OWN), GroundedInput("lex", "as given", LEXICAL),
            GroundedInput("plain", "filled", PREDICTIONS,
                          round_trip_inputs(PREDICTIONS, grounded.resources))]
    results, filled = grounded_rows(grounded, rows, jobs=2)
    assert list(results) == [ORACLE_ROW, "mine", "lex", "plain"] and list(filled) == [
        "mine", "plain"]
    assert results[ORACLE_ROW] == grounded.evaluate(corpus_text(grounded.resources),
                                                    ORACLE_ROW).to_dict()
    assert results["lex"] == grounded.evaluate(LEXICAL, "lex").to_dict()
    for label, data in (("mine", OWN), ("plain", PREDICTIONS)):
        lexical = round_trip(data, grounded)
        assert results[label] == grounded.evaluate(lexical, label).to_dict()
        assert filled[label] == filled_accuracy(data, lexical, grounded, label)
    # the fill names the state's first venue, charlie chan (address a1): the system's own
    # "a2" is the one value checked, and wrong; the filled postcode of turn 1 is in a response
    # that names no venue, so it is not checked
    assert lexical_of(grounded)["sng9001"][0]["response"] == "charlie chan is at a2 ."
    assert filled["mine"]["own"] == {"correct": 0, "count": 1}
    assert (filled["mine"]["total"], filled["mine"]["count"]) == (None, 0)


def lexical_of(grounded):
    return round_trip(OWN, grounded)


def test_a_memo_changes_no_row(grounded, mini, tmp_path):
    """Rows scored with a memo (empty, then read back by a run at another threshold) are the
    rows scored without; each row keeps its fills, preparations and scores in its own files;
    a second run at the same threshold makes nothing anew."""
    from mwzrepro.scorer.lexicalized.grounded_memo import open_memo

    rows = [GroundedInput("mine", "filled", OWN), GroundedInput("lex", "as given", LEXICAL)]
    path = tmp_path / "memo"
    memo = open_memo(path, grounded.resources)
    assert grounded_rows(grounded, rows, jobs=2, memo=memo) == grounded_rows(grounded, rows)
    assert memo.anew["filled"] == 2 and memo.anew["prepared"] == 4   # mine's and the oracle's
    assert sorted(p.relative_to(path).as_posix() for p in path.rglob("*.pickle")) == [
        "fills/mine.pickle", "prepared/mine.pickle", "prepared/oracle_lexicalized.pickle",
        "scores/mine.pickle", "scores/oracle_lexicalized.pickle"]
    other = evaluator(mini, lexicalized=True, setting="all", bleu=False, richness=False,
                      fuzzy_threshold=70)
    again = open_memo(path, other.resources)
    assert grounded_rows(other, rows, jobs=1, memo=again) == grounded_rows(other, rows)
    once_more = open_memo(path, other.resources)
    grounded_rows(other, rows, jobs=2, memo=once_more)
    assert once_more.anew == {"filled": 0, "prepared": 0, "scored": 0}


def test_the_round_trip_fills_from_the_venue_heard(grounded):
    """The round trip fills in the consistent mode: a venue the user named before the turn
    (``heard``: dojo noodle bar, id 2) is the venue in focus, so a response that names none
    gives its address (a2), not that of the state's first venue (charlie chan, a1); and the
    domains given place an unprefixed placeholder."""
    state = PREDICTIONS["sng9001"][0]["state"]
    data = {"sng9001": [{"response": "it is at [value_address] .", "state": state},
                        {"response": "the postcode is [value_postcode] .", "state": state}]}
    inputs = {"heard": {"sng9001": [{"restaurant": ["2"]}, {}]},
              "domains": {"sng9001": [["restaurant"], ["restaurant"]]}, "own": {}}
    filled = round_trip(data, grounded, inputs)
    assert [t["response"] for t in filled["sng9001"]] == ["it is at a2 .",
                                                         "the postcode is cb12 ."]
    unheard = {**inputs, "heard": {"sng9001": [{}, {}]}}
    assert [t["response"] for t in round_trip(data, grounded, unheard)["sng9001"]] == [
        "it is at a1 .", "the postcode is cb11 ."]


def test_stored_inputs_are_read_in_the_row_s_worker(grounded, tmp_path):
    """A row given the path of its stored inputs reads and checks them in its worker: the
    same row as with the inputs given; a system they mark as without states gives no row;
    inputs of another version of the file fail the call, naming it."""
    own, plain = tmp_path / "own.json", tmp_path / "plain.json"
    own.write_text(json.dumps(OWN), encoding="utf-8")
    plain.write_text(json.dumps({"sng9001": [{"response": "hi"}] * 2}), encoding="utf-8")
    write_round_trip_inputs(round_trip_inputs(OWN, grounded.resources), own,
                            tmp_path / "own.inputs.json")
    write_round_trip_inputs({"states": False}, plain, tmp_path / "plain.inputs.json")
    rows = [GroundedInput("mine", "filled", own, tmp_path / "own.inputs.json"),
            GroundedInput("plain", "filled", plain, tmp_path / "plain.inputs.json")]
    results, filled = grounded_rows(grounded, rows, jobs=2)
    assert list(results) == [ORACLE_ROW, "mine"] and list(filled) == ["mine"]
    assert results["mine"] == grounded_rows(grounded, [GroundedInput("mine", "filled", OWN)],
                                            jobs=1)[0]["mine"]
    own.write_text(json.dumps(PREDICTIONS), encoding="utf-8")
    with pytest.raises(InputError, match=r"own.inputs.json: computed from another version"):
        grounded_rows(grounded, rows, jobs=2)


def test_a_file_without_states_gives_no_row(grounded, tmp_path, caplog):
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"sng9001": [{"response": "hi"}] * 2}), encoding="utf-8")
    with caplog.at_level("INFO", logger="mwzrepro"):
        results, filled = grounded_rows(grounded, [GroundedInput("plain", "filled", plain)],
                                        jobs=1)
    assert list(results) == [ORACLE_ROW] and filled == {}
    assert "plain gives no predicted states, left out" in caplog.text
