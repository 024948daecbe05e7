"""Success credit in the grounded setting on hand-made turns (spans written out, a
three-entity toy database): a REFERENCE needs a reference value in a booked turn, and a train
id is credited only when it satisfies the goal, even when a later turn offers the right
train."""

from __future__ import annotations

from mwzrepro.prepare.delex.delexicalize_responses import Span
from mwzrepro.standard.grounded import evaluate_grounded_dialogue


class ToyDB:
    """Restaurant 1 (thai) and trains TR1 (to cambridge) and TR9 (to london)."""

    domains = ("restaurant", "train")

    def query(self, domain, c):
        if domain == "restaurant":
            return ["1"] if c.get("food") == "thai" else []
        return {"cambridge": ["TR1"], "london": ["TR9"]}.get(c.get("destination"), [])

    def entities(self, domain):
        if domain == "restaurant":
            return [{"id": "1", "name": "bangkok city", "food": "thai"}]
        return [{"trainid": "TR1", "destination": "cambridge"},
                {"trainid": "TR9", "destination": "london"}]


DB = ToyDB()
NAME = Span("name", "Bangkok City", 0, 4, (("restaurant", "1"),))
REF = Span("ref", "ABCD1234", 26, 35)
RESTAURANT_GOAL = {"restaurant": {"informable": {"food": "thai"},
                                  "requestable": ["REFERENCE"]}}


def _booking(response, spans, booked=("restaurant",)):
    return evaluate_grounded_dialogue(
        RESTAURANT_GOAL, [list(booked)], [response], [{"restaurant": {"food": "thai"}}],
        [["restaurant"]], [spans], DB)


def test_a_reference_placeholder_without_a_value_provides_no_reference():
    # booked, the venue named, the response says REFERENCE: a placeholder the file already
    # had (no ref span) gives no value -> Inform yes, Success no
    out = _booking("NAME is booked , reference REFERENCE .", (NAME,))
    assert out.inform["total"] is True and out.success["total"] is False
    # with a value of reference shape: Success
    assert _booking("NAME is booked , reference REFERENCE .", (NAME, REF)).success["total"]
    # a reference value in a turn where the domain is not booked: nothing
    assert not _booking("NAME is booked , reference REFERENCE .", (NAME, REF),
                        booked=()).success["total"]


TRAIN_GOAL = {"train": {"informable": {"destination": "cambridge"}, "requestable": ["TRAINID"]}}


def _trains(first_id):
    # turn 1 names a train (lexicalized: a linked trainid span); turn 2 keeps a TRAINID
    # placeholder the file already had, so the state's query result (TR1) is offered there
    spans = [(Span("trainid", first_id, 0, 7, (("train", first_id),)),), ()]
    state = {"train": {"destination": "cambridge"}}
    return evaluate_grounded_dialogue(
        TRAIN_GOAL, [[], []], ["TRAINID leaves at 9 .", "TRAINID is the one ."],
        [state, state], [["train"], ["train"]], spans, DB)


def test_a_train_id_that_violates_the_goal_is_not_credited():
    # TR9 goes to london: offered in turn 1, replaced by TR1 in turn 2 (Inform holds), but
    # the only train id ever given is TR9's -> TRAINID not provided
    out = _trains("TR9")
    assert out.offered["train"] == ["TR1"]
    assert out.inform["total"] is True and out.success["total"] is False
    # the goal's own train named in turn 1: provided
    assert _trains("TR1").success["total"] is True


class _Records:
    """Every checked value is right: ``check`` records what it was asked."""

    def __init__(self):
        self.asked = []

    def check(self, ref, slot, text):
        self.asked.append((ref, slot, text))
        return True


def test_a_value_check_names_its_slot_text_and_venue():
    from mwzrepro.standard.grounded import _credited

    spans = [Span("phone", "01223 356666", 0, 7, ())]
    ok, checks = _credited("restaurant", "PHONE", spans, [("restaurant", "1")], [], None,
                           _Records())
    assert ok is True
    assert checks == [{"slot": "phone", "text": "01223 356666", "venue": ["restaurant", "1"],
                       "correct": True}]


def test_what_the_grounding_does_not_check_is_credited_as_given():
    from mwzrepro.standard.grounded import _credited

    # a train id asked of another domain, and a value of a domain without venues (taxi)
    records = _Records()
    assert _credited("taxi", "TRAINID", [], [], [], None, records) == (True, [])
    assert _credited("taxi", "PHONE", [], [("taxi", "x")], [], None, records) == (True, [])
    assert records.asked == []


def test_the_police_and_hospital_are_in_focus_without_being_named():
    from mwzrepro.standard.grounded import _focus_venues

    for domain, name in (("police", "parkside police station"),
                         ("hospital", "addenbrookes hospital")):
        assert _focus_venues(domain, {}, {}, {}, None) == [(domain, name)]
        assert _focus_venues(domain, {domain: ["other"]}, {}, {}, None) == [(domain, "other")]
