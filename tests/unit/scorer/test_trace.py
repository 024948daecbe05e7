"""The Inform/Success trace (mwzrepro.standard.trace) on the §9.4 worked example fixture
(tests/fixtures/standard/sng0580.json: the paper's Appendix A dialogue on a fixture database
whose goal query gives 4 venues and whose state query gives 3 of them), and its agreement
with the scorer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.standard.inform_success import evaluate_dialogue
from mwzrepro.standard.report import format_trace
from mwzrepro.standard.trace import dialogue_row, trace_dialogue

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "standard"


@pytest.fixture(scope="module")
def example():
    return json.loads((FIX / "sng0580.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def db():
    return VenueDatabase.from_files(
        {d: FIX / "db" / f"{d}_db.json" for d in ("restaurant", "hotel", "attraction", "train")},
        expected_sha256=None)


def run(example, db, setting="standard"):
    turns = example["turns"]
    return trace_dialogue("sng0580", example["goal"], example["booked"],
                          [t["response"] for t in turns], [t["state"] for t in turns],
                          [t["active_domains"] for t in turns], db, setting,
                          user_utterances=["cheap chinese please", "in the centre", "postcode?"])


def test_worked_example_9_4(example, db):
    t = run(example, db)
    want = example["expected"]
    # turn 1: no NAME, nothing offered; turn 2: 3 venues offered, ADDRESS; turn 3: NAME
    # again, same venues (a subset of the offer: no update), POST
    assert [x.offers["restaurant"].change for x in t.turns] == ["-", "set", "no update"]
    assert t.turns[1].offers["restaurant"].offered == want["offered"]
    assert t.turns[2].offers["restaurant"].found == want["offered"]
    assert [x.provided for x in t.turns] == [{"restaurant": []}, {"restaurant": ["ADDRESS"]},
                                             {"restaurant": ["POST"]}]
    assert t.turns[2].provided_so_far == {"restaurant": ["ADDRESS", "POST"]}
    assert t.goal_venues == {"restaurant": want["goal_venues"]}          # 4 goal venues
    assert set(t.outcome.offered["restaurant"]) <= set(t.goal_venues["restaurant"])
    assert (t.outcome.inform["total"], t.outcome.success["total"]) == (want["inform"],
                                                                       want["success"])
    assert t.turns[0].user == "cheap chinese please"


def test_trace_outcome_is_the_scorers(example, db):
    turns = example["turns"]
    args = (example["goal"], example["booked"], [x["response"] for x in turns],
            [x["state"] for x in turns], [x["active_domains"] for x in turns], db)
    for setting in ("standard", "optimistic"):
        assert run(example, db, setting).outcome == evaluate_dialogue(*args, setting)


def test_dialogue_row_and_text(example, db):
    t = run(example, db)
    row = dialogue_row(t)
    assert row["offered"] == {"restaurant": ["1", "2", "3"]}
    assert row["goal_venues"] == {"restaurant": ["1", "2", "3", "4"]}
    assert row["requested"] == {"restaurant": ["ADDRESS", "POST"]}
    assert row["provided"] == {"restaurant": ["ADDRESS", "POST"]}
    text = format_trace(t)
    assert "offered restaurant: set: 1 2 3" in text
    assert "offered restaurant: no update (query: 1 2 3)" in text
    assert "provided restaurant: +POST -> ADDRESS, POST" in text
    assert "goal venues 1 2 3 4 (4)" in text and "total: inform True, success True" in text
