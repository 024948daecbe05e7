"""Prediction files: validation, coverage, normalization."""

import json

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.prepare.predictions import parse_predictions

EXPECTED = {"sng0001": 2, "pmul0002": 3}


def test_valid_file_with_missing_dialogue_reports_coverage() -> None:
    data = {"SNG0001.json": [{"response": "the [value_name] is nice ."},
                             {"response": "bye", "state": {"hotel": {"area": "east"}},
                              "active_domains": ["hotel"]}]}
    preds, cov = parse_predictions(data, EXPECTED, "f.json")
    assert preds["dialogue_id"].tolist() == ["sng0001", "sng0001"]
    assert preds["response_norm"].tolist() == ["the NAME is nice.", "bye"]
    assert preds["state_json"].tolist()[1] == '{"hotel":{"area":"east"}}'
    assert preds["active_domains"].tolist() == [None, ["hotel"]]
    assert cov.set_index("dialogue_id")["predicted_turns"].to_dict() == {
        "pmul0002": 0, "sng0001": 2}


def test_unknown_dialogue_ids_are_named() -> None:
    with pytest.raises(InputError, match="f.json: 2 dialogue id.*mul9998, mul9999"):
        parse_predictions({"mul9999": [], "MUL9998": [], "sng0001": []}, EXPECTED, "f.json")


def test_too_many_turns_is_an_error() -> None:
    data = {"sng0001": [{"response": "a"}] * 3}
    with pytest.raises(InputError, match="dialogue sng0001: 3 turns.*2 system turns"):
        parse_predictions(data, EXPECTED, "f.json")


def test_missing_trailing_turns_strict_and_lenient() -> None:
    data = {"pmul0002": [{"response": "a"}]}
    _, cov = parse_predictions(data, EXPECTED)
    assert int(cov.set_index("dialogue_id").loc["pmul0002", "predicted_turns"]) == 1
    with pytest.raises(InputError, match="1 turns"):
        parse_predictions(data, EXPECTED, allow_missing_turns=False)


@pytest.mark.parametrize(("turn", "message"), [
    ({"response": 3}, "turn 0: 'response' must be a string"),
    ({"text": "x"}, "turn 0: 'response' must be a string"),
    ({"response": "x", "state": ["a"]}, "turn 0: 'state' must be an object"),
    ({"response": "x", "active_domains": "hotel"}, "turn 0: 'active_domains' must be a list"),
])
def test_bad_turns_name_dialogue_and_turn(turn, message) -> None:
    with pytest.raises(InputError, match=message):
        parse_predictions({"sng0001": [turn]}, EXPECTED, "f.json")


def test_duplicate_ids_after_lowercasing() -> None:
    with pytest.raises(InputError, match="collide"):
        parse_predictions(json.loads('{"SNG0001": [], "sng0001.json": []}'), EXPECTED)
