"""MultiWOZ 2.2 end to end on a fixture mirror in the 2.2 layout (the real 2.2 dialogues are
not in the data mirror): fetch and verify, ingest with character spans and dialog_acts.json,
span references, goals and bookings from a 2.1 file, scoring, trace.

Fixture (tests/unit/scorer/fixture_mirror.py): SNG0001 (cheap italian restaurant, booked at
system turn 1), MUL0002 (train to cambridge on sunday, no such train in the fixture
database, booked at turn 1), PMUL0003 (hospital address and postcode, then a taxi phone).
Every number below is worked out by hand from those dialogues."""

from __future__ import annotations

import copy

import pytest

from mwzrepro import Evaluator

REFERENCES = {   # the 2.2 system utterances delexicalized with their act spans (§5.4)
    "sng0001": ["[name] is a [pricerange] [food] place.  Shall I book it?",
                "Booked! Your reference number is [ref] ."],
    "mul0002": ["[trainid] leaves at [leaveat] and arrives by [arriveby]. Want a ticket?",
                "Booked, reference [ref] . The total fee is [price]."],
    "pmul0003": ["The [department] department is at [address], postcode [postcode].",
                 "Your taxi is booked: a [type], contact number [phone]."],
}


@pytest.fixture(scope="module")
def e22(mini22):
    return Evaluator(version="mwz22", mirror=mini22["mirror"], registry=mini22["registry"],
                     cache_dir=mini22["cache"])


def as_predictions(texts):
    return {d: [{"response": t} for t in ts] for d, ts in texts.items()}


def test_references_are_the_span_delexicalized_utterances(e22):
    refs = e22.resources.references
    got = {d: g.sort_values("turn")["delex"].tolist() for d, g in refs.groupby("dialogue_id")}
    assert got == REFERENCES
    ref = refs.set_index(["dialogue_id", "turn"])["reference"]
    assert ref[("sng0001", 0)] == "NAME is a PRICE FOOD place. shall i book it?"
    assert ref[("mul0002", 0)] == "TRAINID leaves at TIME and arrives by TIME. want a ticket?"


def test_oracle_scores(e22):
    r = e22.evaluate(as_predictions(REFERENCES))
    assert r.bleu.score == pytest.approx(100.0) and r.bleu.reference == "mwz22"
    s = r.success["standard"]
    # gold states (no predicted ones), domains estimated from them. SNG0001: the state query
    # (cheap italian) gives venue 6 = the goal venue; REFERENCE in the booked turn 1.
    # MUL0002: no sunday train in the database: offered stays empty, the goal does not
    # request TRAINID -> matched; REFERENCE at the booked turn. PMUL0003: hospital and taxi
    # matched automatically; ADDRESS, POST (hospital turn) and PHONE (taxi turn) provided.
    assert (s.state_source, s.domain_source) == ("gold", "estimated")
    assert s.inform == {"hospital": 100.0, "restaurant": 100.0, "taxi": 100.0,
                        "train": 100.0, "total": 100.0}
    assert s.success == s.inform
    assert "ver:mwz22" in s.signature


def test_a_missing_reference_fails_success_of_one_dialogue(e22):
    texts = copy.deepcopy(REFERENCES)
    texts["sng0001"][1] = "Booked! Enjoy your meal."
    s = e22.evaluate(as_predictions(texts)).success["standard"]
    assert s.inform["total"] == 100.0
    assert s.success == {"hospital": 100.0, "restaurant": 0.0, "taxi": 100.0, "train": 100.0,
                         "total": 66.7}


def test_trace_on_2_2(e22):
    t = e22.explain(as_predictions(REFERENCES), "SNG0001")
    assert t.turns[0].offers["restaurant"].offered == ["6"]
    assert t.goal_venues == {"restaurant": ["6"]}
    assert t.turns[1].provided == {"restaurant": ["REFERENCE"]}
    assert t.turns[1].user.startswith("Yes, please book it for 2 people")
