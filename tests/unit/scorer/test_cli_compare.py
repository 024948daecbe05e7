"""``mwzrepro compare A.json B.json`` on the mwz21 fixture mirror (two test dialogues): the
hand-checkable differences, the formats, the JSON file, agreement with ``Evaluator.compare``,
DST metrics only when both files carry states, and one-line errors for bad input."""

from __future__ import annotations

import copy
import json

import pytest

from mwzrepro import Evaluator
from tests.unit.scorer.test_cli_score import run, write
from tests.unit.scorer.test_evaluator import PREDICTIONS

#: B fails Success on sng9001 (no postcode), so Success differs by 1 of 2 dialogues.
WORSE = copy.deepcopy(PREDICTIONS)
WORSE["sng9001"][1]["response"] = "goodbye ."


@pytest.fixture
def compare(mini, monkeypatch, capsys, tmp_path):
    """``compare(a, b, *options)`` with the fixture mirror and registry and a fresh cache."""
    def call(a, b, *extra):
        return run(monkeypatch, capsys, "compare", write(tmp_path / "a.json", a),
                   write(tmp_path / "b.json", b), "--mirror", mini["mirror"],
                   "--sources", mini["registry"], "--cache-dir", tmp_path / "cache",
                   "--resamples", "200", *extra)
    return call


def test_json_gives_each_metric_its_difference_and_interval(compare, mini, tmp_path):
    code, out, err = compare(PREDICTIONS, WORSE, "--format", "json", "--out",
                             tmp_path / "cmp.json")
    assert code == 0, err
    doc = json.loads(out)
    assert json.loads((tmp_path / "cmp.json").read_text()) == doc
    assert (doc["a"], doc["b"], doc["version"], doc["dialogues"]) == ("a", "b", "mwz21", 2)
    rows = {m["metric"]: m for m in doc["metrics"]}
    # both files carry a state on every turn: JGA and FGA(0.5) are compared too
    assert list(rows) == ["inform", "success", "bleu", "jga", "fga"]
    assert rows["success"]["diff"] == 50.0 and rows["inform"]["diff"] == 0.0
    assert rows["jga"]["diff"] == 0.0 and rows["fga"]["title"] == "FGA(0.5)"
    # Inform is 100 % for both on every resample: a zero-width interval, no difference
    assert rows["inform"]["lower"] == rows["inform"]["upper"] == 0.0
    # a resample draws sng9001 (where only A succeeds) 0, 1 or 2 times: a difference of 0, 50
    # or 100 with chances 1/4, 1/2, 1/4, so each end holds more than 2.5 % of the 200 draws
    assert (rows["success"]["lower"], rows["success"]["upper"]) == (0.0, 100.0)
    # the same numbers as the Python API with the same parameters
    from mwzrepro.stats.params import StatsParams

    api = Evaluator(mirror=mini["mirror"], registry=mini["registry"],
                    cache_dir=tmp_path / "cache", dst=True).compare(
        PREDICTIONS, WORSE, StatsParams(resamples=200))
    assert [r.as_dict() for r in api] == [
        {k: v for k, v in m.items() if k not in ("title", "significant")} for m in doc["metrics"]]


def test_text_and_markdown(compare):
    code, out, _ = compare(PREDICTIONS, WORSE)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "a (A) vs b (B), mwz21 test, standard setting"
    assert lines[1].split() == ["metric", "a", "b", "A", "−", "B", "interval", "p", "sig."]
    assert lines[3].startswith("Success") and "+50.00" in lines[3]
    assert lines[-1].startswith("paired bootstrap over 2 test dialogues: 200 resamples, seed 0")
    code, out, _ = compare(PREDICTIONS, WORSE, "--format", "markdown", "--name-a", "mine",
                           "--name-b", "theirs")
    assert out.splitlines()[1] == "| metric | mine | theirs | A − B | interval | p | sig. |"


def test_dst_only_when_both_files_have_states(compare):
    stateless = {d: [{"response": t["response"]} for t in turns]
                 for d, turns in PREDICTIONS.items()}
    code, out, err = compare(PREDICTIONS, stateless, "--format", "json")
    assert code == 0, err
    assert [m["metric"] for m in json.loads(out)["metrics"]] == ["inform", "success", "bleu"]


def test_bad_input_is_one_line_naming_the_file(compare):
    code, out, err = compare(PREDICTIONS, {})
    assert code == 1 and out == ""
    assert err.strip().splitlines() == ["mwzrepro: error: b.json: no dialogues (the object is empty)"]
