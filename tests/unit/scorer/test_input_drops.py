"""Nothing an input holds is dropped without a word: a deleted placeholder and a predicted
slot outside the 30 DST slots (as KRLS's ``train-area``) are each reported, one line with
counts, by ``score``, ``compare`` and a leaderboard (``score A B C``) alike."""

from __future__ import annotations

import copy

import pytest

from tests.unit.scorer.test_cli_compare import WORSE
from tests.unit.scorer.test_cli_score import run, write
from tests.unit.scorer.test_evaluator import PREDICTIONS

#: PREDICTIONS with one unknown placeholder and a taxi area on both turns... of sng9002's one
#: turn and sng9001's two (three turns whose state gives ``taxi-area``).
DROPPING = copy.deepcopy(PREDICTIONS)
DROPPING["sng9002"][0]["response"] = "booked , the number is [taxi_phone] , ref [booking_reference] ."
for dialogue in DROPPING.values():
    for turn in dialogue:
        turn["state"] = {**turn["state"], "taxi": {**turn["state"].get("taxi", {}),
                                                   "area": "centre"}}

PLACEHOLDER = ("{name}: unknown placeholders deleted by normalization (spec-standard-evaluation §3.2): "
               "{{'booking_reference': 1}}")
SLOTS = ("{name}: predicted values of slots outside the 30 DST slots removed before the DST "
         "metrics (spec-dst-metrics §2.2): taxi-area ×3 turns")


@pytest.fixture
def cli(mini, monkeypatch, capsys, tmp_path):
    def call(command, *args):
        return run(monkeypatch, capsys, command, *args, "--mirror", mini["mirror"],
                   "--sources", mini["registry"], "--cache-dir", tmp_path / "cache")
    return call


def lines(err: str) -> list[str]:
    return [line.split("WARNING ", 1)[-1] for line in err.splitlines()]


def test_score_reports_each_drop_once(cli, tmp_path):
    code, out, err = cli("score", write(tmp_path / "drop.json", DROPPING), "--metrics",
                         "bleu,success,dst")
    assert code == 0, err
    got = lines(err)
    assert got.count(PLACEHOLDER.format(name="drop.json")) == 1
    assert got.count(SLOTS.format(name="drop.json")) == 1
    assert "taxi-area" not in out                   # stdout holds the figures only


def test_score_without_drops_says_nothing(cli, tmp_path):
    code, _, err = cli("score", write(tmp_path / "plain.json", PREDICTIONS), "--metrics",
                       "bleu,success,dst")
    assert code == 0, err
    assert "removed before the DST metrics" not in err and "deleted by" not in err


def test_compare_reports_the_drops_of_each_file(cli, tmp_path):
    code, _, err = cli("compare", write(tmp_path / "drop.json", DROPPING),
                       write(tmp_path / "worse.json", WORSE), "--resamples", "50")
    assert code == 0, err
    got = lines(err)
    assert got.count(PLACEHOLDER.format(name="drop")) == 1
    assert got.count(SLOTS.format(name="drop")) == 1
    assert not any(line.startswith("worse:") for line in got)


def test_leaderboard_reports_the_drops_of_every_row(cli, tmp_path):
    files = [write(tmp_path / f"{n}.json", d)
             for n, d in (("plain", PREDICTIONS), ("drop", DROPPING), ("again", DROPPING))]
    code, _, err = cli("score", *files, "--metrics", "bleu,success,dst")
    assert code == 0, err
    got = lines(err)
    for name in ("drop.json", "again.json"):
        assert got.count(PLACEHOLDER.format(name=name)) == 1
        assert got.count(SLOTS.format(name=name)) == 1
    assert not any(line.startswith("plain.json: unknown") for line in got)
