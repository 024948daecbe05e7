"""The figures on stdout carry their own caveats (not on stderr alone, which the docs suggest
redirecting): a file that looks lexicalized scored without ``--lexicalized`` gets a WARNING
line in the text and ``caveats`` in the JSON; with ``--lexicalized`` and no states in the file
the standard block reads the gold states and is labelled an oracle-state upper bound, and the
grounded block (the system's own venues) comes first."""

from __future__ import annotations

import copy
import json

from tests.unit.scorer.test_cli_score import write
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_input_drops import cli  # noqa: F401  (fixture)
from tests.unit.scorer.test_lexicalized_scoring import LEXICAL

#: LEXICAL with a plain venue name: the detector fires (test_dialects).
LOOKS_LEXICAL = copy.deepcopy(LEXICAL)
LOOKS_LEXICAL["sng9001"][0]["response"] = "Dojo Noodle Bar is at a2 ."
#: The same text without states: --lexicalized reads the gold states (lex:1-gold).
NO_STATES = {did: [{"response": t["response"]} for t in turns]
             for did, turns in LOOKS_LEXICAL.items()}


def test_lexicalized_looking_file_warns_on_stdout_too(cli, tmp_path):
    path = write(tmp_path / "llm.json", LOOKS_LEXICAL)
    code, out, err = cli("score", path, "--no-result-cache")
    assert code == 0, err
    hint = next(line for line in err.splitlines() if "responses look lexicalized" in line)
    warning = next(line for line in out.splitlines() if line.startswith("WARNING "))
    assert warning.startswith("WARNING NOT THE FILE'S SCORE: its responses look lexicalized")
    assert hint.split("WARNING ", 1)[-1] in warning           # the same evidence and figures
    assert out.index("WARNING NOT THE FILE'S SCORE") < out.index("====== SUCCESS")
    code, out, _ = cli("score", path, "--format", "json", "--no-result-cache")
    doc = json.loads(out)
    assert len(doc["caveats"]) == 1 and "with --lexicalized: Inform" in doc["caveats"][0]
    code, out, _ = cli("score", path, "--format", "markdown", "--no-result-cache")
    assert "- WARNING NOT THE FILE'S SCORE" in out


def test_delexicalized_file_has_no_caveat(cli, tmp_path):
    code, out, _ = cli("score", write(tmp_path / "mine.json", PREDICTIONS), "--format", "json",
                       "--no-result-cache")
    assert code == 0 and "caveats" not in json.loads(out)
    code, out, _ = cli("score", write(tmp_path / "mine.json", PREDICTIONS), "--no-result-cache")
    assert "WARNING" not in out


def test_gold_states_are_labelled_an_upper_bound_and_grounded_comes_first(cli, tmp_path):
    path = write(tmp_path / "llm.json", NO_STATES)
    code, out, err = cli("score", path, "--lexicalized", "--setting", "all",
                         "--no-result-cache")
    assert code == 0, err
    assert "WARNING llm.json: ORACLE-STATE UPPER BOUND: the file has no states" in out
    assert "====== SUCCESS (standard; ORACLE-STATE UPPER BOUND) ======" in out
    assert "====== SUCCESS (optimistic; ORACLE-STATE UPPER BOUND) ======" in out
    assert out.index("====== SUCCESS (grounded) ======") < out.index("====== SUCCESS (standard")
    code, out, _ = cli("score", path, "--lexicalized", "--setting", "all", "--format", "json",
                       "--no-result-cache")
    doc = json.loads(out)
    assert list(doc["sources"]) == ["grounded", "standard", "optimistic"]
    assert doc["sources"]["standard"]["upper_bound"] == "oracle states"
    assert "upper_bound" not in doc["sources"]["grounded"]
    assert "lex:1-gold" in doc["signatures"]["success"]
    assert any("ORACLE-STATE UPPER BOUND" in c for c in doc["caveats"])


def test_predicted_states_are_no_upper_bound(cli, tmp_path):
    code, out, _ = cli("score", write(tmp_path / "llm.json", LOOKS_LEXICAL), "--lexicalized",
                       "--format", "json", "--no-result-cache")
    doc = json.loads(out)
    assert code == 0 and "caveats" not in doc
    assert "upper_bound" not in doc["sources"]["standard"]
