"""The conversation form and setting (``mwzrepro score conversations.jsonl``,
``Evaluator.evaluate_conversations``) on the two-dialogue mwz21 fixture mirror: hand-checked
conversations against the test set's goal of SNG9001 (a cheap Chinese restaurant in the
centre; address and postcode requested — the fixture's postcodes, ``cb11``, have no postcode
shape, so lex:1 never reads one and Success needs a given goal) and a given goal, the CLI's blocks, ``explain``, the
autotod dialect, and bad input (one line, nothing written)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mwzrepro import Evaluator
from mwzrepro.core.errors import InputError
from tests.unit.scorer.test_bad_input_property import result_or_one_line
from tests.unit.scorer.test_cli_score import run

#: SNG9001 answered right: the fixture database's charlie chan (chinese, cheap, centre; a1,
#: cb11).
RIGHT = {"dialogue_id": "SNG9001.json", "turns": [
    {"user": "i want a cheap chinese restaurant in the centre .",
     "system": "[Charlie Chan] is a nice place . it is at a1 ."},
    {"user": "what is the postcode ?", "system": "the postcode is cb11 . goodbye ."}]}
#: The same goal, given, answered with an expensive restaurant in the north (hakka: a5).
WRONG_VENUE = {"dialogue_id": "sim-0002", "goal": {"restaurant": {
    "info": {"food": "chinese", "pricerange": "cheap", "area": "centre"},
    "reqt": ["address", "postcode"]}}, "turns": [
    {"user": "i want a cheap chinese restaurant in the centre .",
     "system": "[Hakka] is a nice place . it is at a5 ."},
    {"user": "what is the postcode ?", "system": "the postcode is cb15 . goodbye ."}]}
#: Any length, a given goal (no test dialogue of that id): dojo noodle bar's address (a2),
#: answered with jinling noodle bar's (a3).
GIVEN = {"dialogue_id": "sim-0001", "goal": {
    "restaurant": {"info": {"name": "dojo noodle bar"}, "reqt": ["address"],
                   "fail_info": {}}, "hotel": {}},
    "turns": [{"user": "hello", "system": "hi , how can i help ?"},
              {"user": "tell me about dojo noodle bar", "system": "[Dojo Noodle Bar] is a "
               "chinese place in the centre ."},
              {"user": "its address ?", "system": "it is at a3 ."}]}


def evaluator(mini):
    return Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=mini["cache"],
                     lexicalized=True)


def test_right_and_wrong_venue(mini):
    ev = evaluator(mini)
    right = ev.evaluate_conversations([RIGHT])
    assert right.inform == {"restaurant": 100.0, "total": 100.0}
    assert right.success == {"restaurant": 0.0, "total": 0.0}      # no postcode read
    assert right.attribute_accuracy["correct"] == right.attribute_accuracy["count"] == 1
    assert right.turns == {"conversations": 1, "total": 2, "mean": 2.0, "min": 2, "max": 2}
    wrong = ev.evaluate_conversations([WRONG_VENUE])
    assert wrong.inform["total"] == 0.0 and wrong.success["total"] == 0.0
    both = ev.evaluate_conversations([RIGHT, WRONG_VENUE, GIVEN])
    assert both.inform["total"] == 66.7
    assert "set:conversation" in both.signature and "lex:1-none" in both.signature
    assert both.to_dict()["grounding"]["entity_f1"].startswith("undefined")


def test_given_goal_checks_the_value(mini):
    out = evaluator(mini).evaluate_conversations([GIVEN])
    # a name goal: Inform; the address a3 is jinling noodle bar's, not dojo's (a2)
    assert out.inform["total"] == 100.0 and out.success["total"] == 0.0
    assert out.attribute_accuracy["per_slot"]["address"] == {"accuracy": 0.0, "correct": 0,
                                                             "count": 1}
    fixed = {**GIVEN, "turns": GIVEN["turns"][:2] + [{"user": "its address ?",
                                                      "system": "it is at a2 ."}]}
    assert evaluator(mini).evaluate_conversations([fixed]).success["total"] == 100.0


@pytest.mark.parametrize("record, message", [
    ({"dialogue_id": "sng9001"}, "c.jsonl, record 1 (dialogue sng9001): needs 'turns'"),
    ({**GIVEN, "goal": {"restaurant": {"info": ["name"]}}},
     "c.jsonl, record 1 (dialogue sim-0001): goal: restaurant.info must be an object"),
    ({**GIVEN, "goal": None}, "c.jsonl, record 1 (dialogue sim-0001): no 'goal' and the "
     "test set has no dialogue sim-0001"),
    ({**RIGHT, "turns": [{"user": "hi"}]}, "c.jsonl, record 1 (dialogue SNG9001.json), "
     "turn 0: needs a string 'system'"),
])
def test_bad_input_one_line_nothing_written(mini, monkeypatch, capsys, tmp_path, record,
                                            message):
    path, out = tmp_path / "c.jsonl", tmp_path / "out.json"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        evaluator(mini).evaluate_conversations(path)
    code, stdout, err = run(monkeypatch, capsys, "score", path, "--form", "conversation",
                            "--mirror", mini["mirror"], "--sources", mini["registry"],
                            "--cache-dir", mini["cache"], "--out", out)
    assert code == 1 and stdout == "" and not out.exists()
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_score_explain_and_autotod(mini, monkeypatch, capsys, tmp_path):
    path = tmp_path / "conversations.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (RIGHT, WRONG_VENUE)),
                    encoding="utf-8")
    common = ("--mirror", mini["mirror"], "--sources", mini["registry"], "--cache-dir",
              mini["cache"])
    code, out, _ = run(monkeypatch, capsys, "score", path, *common)
    assert code == 0
    assert "2 conversation(s), 4 turns (mean 2.0, 2–2); goals: 1 given, 1 from the test set" \
        in out
    assert "restaurant   Inform  50.0  Success   0.0" in out
    assert "entity F1       undefined" in out and "|set:conversation|" in out
    code, out, _ = run(monkeypatch, capsys, "score", path, *common, "--format", "json",
                       "--ci")
    d = json.loads(out)
    assert d["success"]["conversation"]["inform"]["total"] == 50.0
    assert d["intervals"]["inform"]["lower"] == 0.0 and d["intervals"]["inform"]["upper"] == 100.0
    code, out, _ = run(monkeypatch, capsys, "explain", path, "sim-0002", *common)
    assert code == 0
    assert "names:   restaurant:hakka (NOT a goal venue)" in out
    assert "value:   address 'a5' of restaurant:hakka: correct" in out
    code, out, _ = run(monkeypatch, capsys, "explain", path, "SNG9001.json", *common)
    assert "names:   restaurant:charlie chan (goal venue)" in out
    given = tmp_path / "given.json"
    given.write_text(json.dumps([GIVEN]), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "explain", given, "sim-0001", *common)
    assert "value:   address 'a3' of restaurant:dojo noodle bar: WRONG" in out
    assert out.endswith("outcome: restaurant Inform yes Success no, total Inform yes "
                        "Success no\n")
    code, out, _ = run(monkeypatch, capsys, "explain", given, "sim-0001", *common,
                       "--format", "json")
    turn = json.loads(out)["turns"][2]
    assert turn["values"] == [{"slot": "address", "text": "a3", "correct": False,
                               "venue": "restaurant:dojo noodle bar"}]
    assert turn["active"] == ["restaurant"] and turn["booked"] == []
    autotod = tmp_path / "autotod.jsonl"
    autotod.write_text(json.dumps({
        "dialog_id": "SNG9001.json", "eval_summary": {"restaurant": {"inform": 1,
                                                                     "success": 1}},
        "run_result": {"goals": {"restaurant": {"info": {"food": "chinese", "pricerange":
                                                         "cheap", "area": "centre"},
                                                "reqt": ["address"]}},
                       "dialog_pred": [{"turn_idx": i, "user": t["user"], "agent": t["system"]}
                                       for i, t in enumerate(RIGHT["turns"], 1)]}}) + "\n",
        encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "score", autotod, *common,
                       "--conversation-format", "autotod")
    assert code == 0 and "total        Inform 100.0  Success 100.0" in out
    assert "AGREEMENT WITH THE FILE'S OWN JUDGE" in out
    assert "success   restaurant      1    100.0       –" in out
    code, out, _ = run(monkeypatch, capsys, "score", autotod, *common,
                       "--conversation-format", "autotod", "--format", "json")
    table = json.loads(out)["judge_agreement"]["table"]
    assert table[-1] == {"judgement": "all", "domain": "all", "n": 2, "percent": 100.0,
                         "kappa": None, "ours": 100.0, "theirs": 100.0}

_SCALAR = st.none() | st.booleans() | st.integers() | st.text(max_size=10)
_JSON = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=10)
#: Texts that reach the linking: venue names, values, references, brackets.
_TEXT = st.sampled_from(["[Charlie Chan] is at a1 .", "booked , reference number is AB12CD34 .",
                         "try [Hakka] or dojo noodle bar", "the taxi is a red car", "[[x]] ][",
                         ""]) | st.text(max_size=20)
_TURN = st.fixed_dictionaries({"user": _TEXT, "system": _TEXT}) | _JSON
_GOAL = st.fixed_dictionaries({"restaurant": st.fixed_dictionaries(
    {"info": st.dictionaries(st.sampled_from(["food", "area", "name", "pricerange"]),
                             st.sampled_from(["chinese", "centre", "hakka", "cheap"]) | _JSON,
                             max_size=3)},
    optional={"reqt": st.lists(st.sampled_from(["phone", "address", "postcode"])) | _JSON,
              "book": st.dictionaries(st.sampled_from(["people", "day"]), _SCALAR)})}) | _JSON
_RECORD = st.fixed_dictionaries(
    {"dialogue_id": st.sampled_from(["sng9001", "SNG9002.json", "sim-1"]) | _JSON,
     "turns": st.lists(_TURN, max_size=4) | _JSON}, optional={"goal": _GOAL})
_GOOD = st.fixed_dictionaries(
    {"dialogue_id": st.sampled_from(["sng9001", "SNG9002.json", "sim-1"]),
     "turns": st.lists(st.fixed_dictionaries({"user": _TEXT, "system": _TEXT}), min_size=1,
                       max_size=4)}, optional={"goal": _GOAL})
CONVERSATIONS = st.one_of(st.lists(_GOOD, min_size=1, max_size=2), st.lists(_GOOD, min_size=1,
                                                                           max_size=2),
                          st.lists(_RECORD, max_size=3), _RECORD, _JSON)


@pytest.fixture(scope="module")
def shared(mini):
    return evaluator(mini)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=CONVERSATIONS)
def test_random_conversations_score_or_one_line(shared, data):
    result_or_one_line(lambda: shared.evaluate_conversations(data, source="random.jsonl"))


def test_several_files_conversations_apart(mini, monkeypatch, capsys, tmp_path):
    from tests.unit.scorer.test_evaluator import PREDICTIONS

    conv, aligned = tmp_path / "sim.jsonl", tmp_path / "system.json"
    conv.write_text(json.dumps(RIGHT) + "\n", encoding="utf-8")
    aligned.write_text(json.dumps(PREDICTIONS), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "score", conv, aligned, "--metrics", "success",
                       "--mirror", mini["mirror"], "--sources", mini["registry"],
                       "--cache-dir", mini["cache"])
    assert code == 0
    head, rest = out.split("signature: Inform/Success|", 1)
    assert "NOT comparable with the turn-aligned rows" in head
    assert "sim                          1      2   100.0      0.0   100.0" in head
    assert "set:conversation" in rest.splitlines()[0]
    assert "system" in rest and "set:conversation" not in "\n".join(rest.splitlines()[1:])
