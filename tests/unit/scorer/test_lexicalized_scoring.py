"""``Evaluator(lexicalized=True)``, ``mwzrepro score --lexicalized`` and ``mwzrepro explain
--lexicalized`` on the two-dialogue mwz21 fixture mirror: the lexicalized twin of the
hand-checked predictions scores the same, the signatures say ``lex:1-pred``/``lex:1-gold``,
and without the option nothing changes."""

from __future__ import annotations

import json

from mwzrepro import Evaluator
from mwzrepro.scorer.lexicalized.detect import lexicalized_hint
from tests.unit.scorer.test_cli_score import run
from tests.unit.scorer.test_evaluator import PREDICTIONS

#: PREDICTIONS written as an LLM would (fixture database: dojo noodle bar at "a2").
LEXICAL = {
    "sng9001": [
        {"response": "[Dojo Noodle Bar] is at a2 .",
         "state": PREDICTIONS["sng9001"][0]["state"]},
        {"response": "the postcode is CB1 2DP .", "state": PREDICTIONS["sng9001"][1]["state"]},
    ],
    "sng9002": [
        {"response": "booked , the number is 07712 345678 .",
         "state": PREDICTIONS["sng9002"][0]["state"]},
    ],
}


def evaluator(mini, **kw):
    return Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=mini["cache"],
                     **kw)


def test_lexicalized_twin_scores_like_the_delexicalized_file(mini):
    plain = evaluator(mini).evaluate(PREDICTIONS).to_dict()
    lex = evaluator(mini, lexicalized=True).evaluate(LEXICAL)
    d = lex.to_dict()
    assert d["success"] == plain["success"]
    assert d["success"]["success"]["total"] == 100.0
    for name, sig in lex.signatures().items():
        assert sig.endswith("|lex:1-pred|v:0.1.0"), name
    for sig in plain["signatures"].values():
        assert "lex:" not in sig
    # the plain evaluator sees no venue and no requestable in the lexical file
    assert evaluator(mini).evaluate(LEXICAL).to_dict()["success"]["inform"]["total"] == 50.0


def test_gold_states_when_a_turn_has_none(mini):
    data = {k: [{"response": t["response"]} for t in v] for k, v in LEXICAL.items()}
    result = evaluator(mini, lexicalized=True).evaluate(data)
    assert all("|lex:1-gold|" in s for s in result.signatures().values())
    assert data["sng9001"][0] == {"response": "[Dojo Noodle Bar] is at a2 ."}  # not modified


def test_slot_names_domains_warn(mini):
    result = evaluator(mini, lexicalized=True, domain_source="slot-names").evaluate(LEXICAL)
    assert any("slot-names" in w for w in result.warnings)


def test_cli_score_and_explain(mini, monkeypatch, capsys, tmp_path):
    path = tmp_path / "llm.json"
    path.write_text(json.dumps(LEXICAL), encoding="utf-8")
    common = ("--mirror", mini["mirror"], "--sources", mini["registry"], "--cache-dir",
              tmp_path / "cache")
    code, out, _ = run(monkeypatch, capsys, "score", path, *common, "--lexicalized",
                       "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["success"]["success"]["total"] == 100.0
    assert d["signatures"]["bleu"].endswith("|lex:1-pred|v:0.1.0")
    code, out, _ = run(monkeypatch, capsys, "score", path, *common, "--format", "json")
    plain = json.loads(out)
    assert code == 0 and not any("lex:" in s for s in plain["signatures"].values())
    # a venue name in brackets is text, not a placeholder (scorer.lexicalized.form_measure):
    # the file reads as lexicalized, and the plain run says what --lexicalized would give
    assert any("responses look lexicalized (100.0% carry no placeholder" in w
               for w in plain["warnings"])
    code, out, _ = run(monkeypatch, capsys, "explain", path, "sng9001", *common,
                       "--lexicalized")
    assert code == 0
    assert "  given:           [Dojo Noodle Bar] is at a2 .\n" \
           "  delexicalized:   [name] is at [address] .\n" in out
    assert "lex:1-pred" in out
    code, out, _ = run(monkeypatch, capsys, "explain", path, "sng9001", *common,
                       "--lexicalized", "--format", "json")
    assert json.loads(out)["lexicalized"][1] == {"before": "the postcode is CB1 2DP .",
                                                 "after": "the postcode is [postcode] ."}


# --- the lexicalized-file hint (scorer.lexicalized.detect): its figures are those of a
# lexicalized=True run, its evidence the shares of the responses; silent for a
# delexicalized file and a file without text


def _responses(data):
    return [t.get("response", "") for turns in data.values() for t in turns]


def test_the_hint_gives_what_the_option_gives(mini):
    hint = lexicalized_hint(evaluator(mini), LEXICAL, _responses(LEXICAL), "llm.json")
    result = evaluator(mini, lexicalized=True).evaluate(LEXICAL)
    success = result.to_dict()["success"]
    assert (hint.inform, hint.success, hint.bleu) == (
        success["inform"]["total"], success["success"]["total"], result.bleu.score)
    assert (hint.without_placeholder, hint.lex) == (1.0, "1-pred")
    assert hint.naming_values == 2 / 3          # a venue name and a postcode of 3 responses


def test_no_hint_for_placeholders_or_for_no_text(mini):
    ev = evaluator(mini)
    assert lexicalized_hint(ev, PREDICTIONS, _responses(PREDICTIONS), "sys.json") is None
    states_only = {d: [{"state": t["state"]} for t in turns] for d, turns in LEXICAL.items()}
    assert lexicalized_hint(ev, states_only, _responses(states_only), "s.json") is None
