"""The conversation setting's own rules (:mod:`mwzrepro.standard.conversation`) on a
two-venue database: the booked-domain rule from the text (a reference after a satisfying
venue, not before it; a name goal's booking while the agent named no venue), the active
domains carried over, and an unknown venue name dropping the offer."""

from __future__ import annotations

from mwzrepro.prepare.delex.delexicalize_responses import LinkedResponse, Span
from mwzrepro.standard.conversation import (
    booked_from_text,
    conversation_domains,
    evaluate_conversation,
)


class DB:
    domains = ("restaurant",)

    def query(self, domain, c):
        if c.get("name"):
            return {"bangkok city": ["1"], "nandos": ["2"]}.get(c["name"], [])
        return ["1"] if c.get("food") in (None, "thai") else []

    def entities(self, domain):
        return [{"id": "1", "name": "bangkok city"}, {"id": "2", "name": "nandos"}]


GOAL = {"restaurant": {"informable": {"food": "thai"}, "requestable": ["REFERENCE"],
                       "booking": {"people": "2"}}}
NAMED = [LinkedResponse("try [name] .", (Span("name", "Bangkok City", 4, 10,
                                              (("restaurant", "1"),)),), 0)]
REF = [LinkedResponse("booked , reference number is [ref] .",
                      (Span("ref", "AB12CD34", 29, 34),), 0)]
PLAIN = [LinkedResponse("a restaurant ?", (), 0)]


def run(systems, goal=GOAL):
    texts = [("a restaurant please", s.text) for s in systems]
    return evaluate_conversation(goal, [{}] * len(systems), systems, DB(), texts)


def test_reference_after_the_satisfying_venue_only():
    assert run(NAMED + REF).booked == [[], ["restaurant"]]
    assert run(NAMED + REF).outcome.success["total"] is True
    before = run(REF + NAMED)
    assert before.booked == [[], []]
    assert before.outcome.inform["total"] is True and before.outcome.success["total"] is False


def test_name_goal_booked_while_no_venue_named():
    goal = {"restaurant": {"informable": {"name": "nandos"}, "requestable": ["REFERENCE"],
                           "booking": {"people": "2"}}}
    assert run(PLAIN + REF, goal).outcome.success["total"] is True     # matched, booked
    wrong = run(NAMED + REF, goal)                 # the agent named another venue first
    assert wrong.booked == [[], []] and wrong.outcome.inform["total"] is False


def test_active_domains_carried_and_unknown_name_drops_the_offer():
    assert conversation_domains({"hotel": {}, "train": {}},
                                ["a room", "thanks", "and a train to ely"],
                                ["ok", "bye", "TR1234 leaves at 5"],
                                [{}, {}, {"train": ["TR1234"]}]) == [
        ["hotel"], ["hotel"], ["train"]]
    unknown = [LinkedResponse("try [name] .", (Span("name", "Golden Dragon", 4, 10, ()),), 0)]
    out = run(NAMED + unknown)
    assert out.outcome.offered["restaurant"] == []
    assert out.outcome.inform["total"] is False
