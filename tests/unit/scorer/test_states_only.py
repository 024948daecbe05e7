"""A states-only file (a state tracker's output: a state on every turn, no response) is read
as such: ``score --metrics dst`` scores it without an empty-response warning, with the same
DST figures as the same states under responses; with a metric that reads responses the
warning stays."""

from __future__ import annotations

import json

from tests.unit.scorer.test_cli_score import write
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_input_drops import cli  # noqa: F401  (fixture)

STATES = {did: [{"state": t["state"]} for t in turns] for did, turns in PREDICTIONS.items()}
EMPTY = {did: [{"response": "", "state": t["state"]} for t in turns]
         for did, turns in PREDICTIONS.items()}


def test_states_only_file_scores_dst_without_an_empty_response_warning(cli, tmp_path):
    code, out, err = cli("score", write(tmp_path / "states.json", STATES), "--metrics", "dst",
                         "--format", "json")
    assert code == 0, err
    assert "empty" not in err
    code, full, _ = cli("score", write(tmp_path / "full.json", PREDICTIONS), "--metrics", "dst",
                        "--format", "json")
    assert json.loads(out)["dst_fga"]["jga"] == json.loads(full)["dst_fga"]["jga"]
    code, _, err = cli("score", write(tmp_path / "empty.json", EMPTY), "--metrics", "dst")
    assert code == 0 and "empty" not in err


def test_empty_responses_are_still_reported_when_responses_are_scored(cli, tmp_path):
    code, _, err = cli("score", write(tmp_path / "states.json", STATES), "--metrics",
                       "bleu,dst")
    assert code == 0, err
    assert "states.json: ALL responses are empty" in err
