"""Issue 18 on the two-dialogue fixture mirror: legacy generation files, list-valued states
(the documented rule, its signature field, and the former ``TypeError: unhashable type:
'list'`` of the active-domain estimation at turn 0), and deeply nested JSON (the former
``RecursionError``) — each one line or a score, never a traceback."""

from __future__ import annotations

import copy
import json

import pytest

from mwzrepro.core.errors import InputError
from tests.unit.scorer.test_cli_score import run, write
from tests.unit.scorer.test_evaluator import PREDICTIONS, evaluator

CHEAP_CENTRE = {"pricerange": "cheap", "area": "centre"}


def test_legacy_file_is_read_and_logged(mini, caplog):
    legacy = {f"{d.upper()}.json": [t["response"] for t in turns]
              for d, turns in PREDICTIONS.items()}
    caplog.set_level("INFO", logger="mwzrepro")
    r = evaluator(mini).evaluate(legacy, source="old.json")
    plain = evaluator(mini).evaluate({d: [{"response": t["response"]} for t in turns]
                                      for d, turns in PREDICTIONS.items()})
    assert r.to_dict() | {"input": None} == plain.to_dict() | {"input": None}
    assert r.success["standard"].state_source == "gold"
    assert "old.json: legacy generation file {\"ID.json\": [\"response\", ...]}: 2 dialogue(s)" \
        " read as responses without states" in caplog.text


def test_legacy_mixed_with_objects_is_one_line(mini):
    with pytest.raises(InputError, match=r"dialogue sng9001 mixes plain strings .*accepted "
                                         r"shapes: .*legacy generation files"):
        evaluator(mini).evaluate({"sng9001": ["a", {"response": "b"}]})


def test_list_value_at_turn_0_without_active_domains(mini):
    """The estimation of active domains (spec §8.2) used to end in ``TypeError: unhashable
    type: 'list'`` here; now the alternatives are read by the documented rule."""
    data = copy.deepcopy(PREDICTIONS)
    for t in data["sng9001"]:
        t["state"] = {"restaurant": {"food": ["Chinese", "Italian"], **CHEAP_CENTRE}}
    e = evaluator(mini, dst=True)
    r = e.evaluate(data)
    assert r.success["standard"].domain_source == "estimated"
    rows = {x["dialogue_id"]: x for x in e.per_dialogue(data)}
    # any alternative: the three cheap Chinese venues of the centre and the Italian one
    assert rows["sng9001"]["offered"] == {"restaurant": ["1", "2", "3", "6"]}
    sig = r.signatures()
    assert all("|alt:any|" in sig[k] for k in ("success", "dst", "dst_fga", "dst_fga_fuzzy"))
    assert "alt:" not in sig["bleu"] and "alt:" not in sig["richness"]
    # the state metrics count two alternatives wrong: with the plain value "chinese", §13
    # joint accuracy is 2/3 and the FGA paper's JGA 1/3 (sng9001's turn 0); with the list,
    # both sng9001 turns lose the food slot: 1/3 and 0, slot accuracy 2 of 90 slots lower
    assert r.dst.joint_accuracy == pytest.approx(100 / 3)
    assert r.dst_fga.jga == 0.0
    for t in data["sng9001"]:
        t["state"]["restaurant"]["food"] = "chinese"
    plain = e.evaluate(data)
    assert plain.dst.joint_accuracy == pytest.approx(200 / 3)
    assert plain.dst_fga.jga == pytest.approx(100 / 3)
    assert plain.dst_fga.sa - r.dst_fga.sa == pytest.approx(100 * 2 / 90)


def test_one_alternative_is_the_plain_value(mini):
    listed = copy.deepcopy(PREDICTIONS)
    for turns in listed.values():
        for t in turns:
            t["state"] = {d: {s: [v] for s, v in slots.items()}
                          for d, slots in t["state"].items()}
    e = evaluator(mini, dst=True)
    a, b = e.evaluate(listed).to_dict(), e.evaluate(PREDICTIONS).to_dict()
    assert {k: a[k] for k in ("success", "dst", "dst_fga")} == \
        {k: b[k] for k in ("success", "dst", "dst_fga")}
    assert "|alt:any|" in a["signatures"]["success"]


def test_a_venue_matching_any_area_is_accepted(mini):
    data = copy.deepcopy(PREDICTIONS)
    data["sng9001"][0]["state"] = {"restaurant": {"food": "chinese", "pricerange": "cheap",
                                                  "area": ["centre", "south"]}}
    rows = {x["dialogue_id"]: x for x in evaluator(mini).per_dialogue(data)}
    assert rows["sng9001"]["offered"] == {"restaurant": ["1", "2", "3", "4"]}


@pytest.mark.parametrize("value, message", [
    ({"a": 1}, "a value must be a string or a list of strings"),
    ([["nested"]], "a list value must hold strings"),
])
def test_other_values_are_one_line(mini, value, message):
    data = copy.deepcopy(PREDICTIONS)
    data["sng9002"][0]["state"] = {"taxi": {"destination": value}}
    with pytest.raises(InputError, match=f"dialogue sng9002, turn 0: state: .*{message}"):
        evaluator(mini).evaluate(data)


def test_deep_nesting_is_one_line(mini, tmp_path, monkeypatch, capsys):
    """``[[[[…]]]]`` used to end in a RecursionError traceback."""
    deep = "[" * 100_000 + "]" * 100_000
    path = write(tmp_path / "deep.json", deep)
    code, out, err = run(monkeypatch, capsys, "score", path, "--mirror", mini["mirror"],
                         "--sources", mini["registry"], "--out", tmp_path / "r.json")
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.strip() == "mwzrepro: error: deep.json: JSON nested too deeply to be a " \
                          "prediction file"
    assert not (tmp_path / "r.json").exists()
    state: object = "x"
    for _ in range(100_000):
        state = [state]
    data = {"sng9001": [{"response": "a", "state": {"restaurant": {"food": state}}}]}
    with pytest.raises(InputError, match="nested too deeply|list value must hold strings"):
        evaluator(mini).evaluate(data)
    with pytest.raises(InputError, match="top level must be an object"):
        evaluator(mini).evaluate(json.loads("[" * 500 + "]" * 500))
