"""The grounded setting's per-turn trace (``standard.grounded.evaluate_grounded_dialogue``) on
hand-made turns over a toy database: which rule finds the venues (a named venue, or the state
for a placeholder left loose), what stays offered, which values are checked against which
venue, where the user's words move the focus, and when a train is matched without an offer."""

from __future__ import annotations

from mwzrepro.prepare.delex.delexicalize_responses import Span
from mwzrepro.standard.grounded import evaluate_grounded_dialogue


class ToyDB:
    """Thai restaurants 1 and 2 (1 central); hotel 5; train TR1 to cambridge."""

    domains = ("restaurant", "hotel", "train")

    def query(self, domain, c):
        if domain == "restaurant":
            return ["1"] if c.get("area") == "centre" else ["1", "2"]
        if domain == "train":
            return ["TR1"] if c.get("destination") == "cambridge" else []
        return ["5"] if domain == "hotel" else []

    def entities(self, domain):
        return {"restaurant": [{"id": "1", "phone": "01223356666", "address": "1 mill road"},
                               {"id": "2", "phone": "01223000000", "address": "2 hills road"}],
                "hotel": [{"id": "5", "phone": "01223555555"}],
                "train": [{"trainid": "TR1", "destination": "cambridge"}]}[domain]


DB = ToyDB()
GOAL = {"hotel": {"informable": {"area": "north"}, "requestable": []},
        "restaurant": {"informable": {"food": "thai"}, "requestable": ["PHONE", "ADDRESS"]}}
THAI = {"restaurant": {"food": "thai"}}


def _name(domain, eid, text="the place"):
    return Span("name", text, 0, 4, ((domain, eid),))


def _trace(responses, links, states, active, user_named=()):
    trace: list[dict] = []
    out = evaluate_grounded_dialogue(GOAL, [[] for _ in responses], responses, states, active,
                                     links, DB, trace, user_named)
    return out, trace


def test_the_trace_records_the_rule_the_venues_and_the_checked_values():
    out, trace = _trace(
        ["NAME is thai , call PHONE at ADDRESS .", "NAME is also thai .",
         "NAME is a hotel ."],
        [[_name("restaurant", "1"), Span("phone", "01223 356666", 20, 27, ()),
          Span("address", "2 hills road", 31, 40, ())], [], [_name("hotel", "5")]],
        [THAI, THAI, {**THAI, "hotel": {"area": "north"}}],
        [["restaurant"], ["restaurant"], ["restaurant"]])
    assert trace == [
        {"turn": 0, "domain": "restaurant", "named": ["1"], "rule": "named", "found": ["1"],
         "offered": ["1"], "provided": ["PHONE"],
         "checks": [{"slot": "phone", "text": "01223 356666", "venue": ["restaurant", "1"],
                     "correct": True},
                    {"slot": "address", "text": "2 hills road", "venue": ["restaurant", "1"],
                     "correct": False}]},
        # a loose NAME: the state's venues (1 and 2) are found; 1 is among them, so kept
        {"turn": 1, "domain": "restaurant", "named": None, "rule": "state", "found": ["1", "2"],
         "offered": ["1"], "provided": [], "checks": []},
        # the one NAME is the hotel's: nothing loose for the restaurant (hotel not active)
        {"turn": 2, "domain": "restaurant", "named": None, "rule": None, "found": None,
         "offered": ["1"], "provided": [], "checks": []},
    ]
    assert out.inform["restaurant"] is True


def test_the_user_naming_a_venue_moves_the_focus_of_a_later_value():
    _, trace = _trace(["its phone is PHONE ."], [[Span("phone", "01223000000", 13, 18, ())]],
                      [THAI], [["restaurant"]], user_named=[{"restaurant": ["2"]}])
    assert trace[0]["checks"] == [{"slot": "phone", "text": "01223000000",
                                   "venue": ["restaurant", "2"], "correct": True}]
    assert trace[0]["provided"] == ["PHONE"]


def test_a_loose_train_id_is_found_from_the_state_only_when_one_is_loose():
    goal = {"train": {"informable": {"destination": "cambridge"}, "requestable": ["TRAINID"]},
            "restaurant": GOAL["restaurant"]}
    state = {"train": {"destination": "cambridge"}, **THAI}
    trace: list[dict] = []
    evaluate_grounded_dialogue(
        goal, [[], []], ["NAME has TRAINID nearby .", "it leaves at 9 ."], [state, state],
        [["train"], ["train"]], [[_name("restaurant", "1")], []], DB, trace)
    assert [(r["rule"], r["found"]) for r in trace] == [("state", ["TR1"]), (None, None)]


def test_a_train_never_offered_is_matched_unless_its_id_is_requested():
    train = {"informable": {"destination": "cambridge"}, "requestable": []}
    out = evaluate_grounded_dialogue({"train": train}, [[]], ["bye ."], [{}], [["train"]], [[]],
                                     DB)
    assert out.offered["train"] is None and out.inform["train"] is True   # matched
    asked = {"train": {**train, "requestable": ["TRAINID"]}}
    out = evaluate_grounded_dialogue(asked, [[]], ["bye ."], [{}], [["train"]], [[]], DB)
    assert out.offered["train"] == [] and out.inform["train"] is False


def test_grounded_rows_skip_a_dialogue_without_goal_or_booking_list():
    from mwzrepro.standard.grounded import grounded_dialogue_rows

    goals = {"d1": {"restaurant": GOAL["restaurant"]}}
    dialogues = {d: {"responses": ["NAME is thai ."], "states": [THAI],
                     "active_domains": [["restaurant"]]} for d in ("d2", "d1", "d3")}
    links = {d: [[_name("restaurant", "1")]] for d in dialogues}
    rows = grounded_dialogue_rows(dialogues, links, {**goals, "d3": goals["d1"]},
                                  {"d1": [[]], "d2": [[]]}, DB)
    assert rows == [
        {"setting": "grounded", "dialogue_id": "d1", "domain": "restaurant", "inform": True,
         "success": False},
        {"setting": "grounded", "dialogue_id": "d1", "domain": "total", "inform": True,
         "success": False}]
    # the user's words of the dialogue move the focus: the phone value is checked against 2
    dialogues = {"d1": {"responses": ["call PHONE ."], "states": [THAI],
                        "active_domains": [["restaurant"]]}}
    links = {"d1": [[Span("phone", "01223000000", 5, 10, ())]]}
    goals = {"d1": {"restaurant": {"informable": {"name": "x"}, "requestable": ["PHONE"]}}}
    heard = {"d1": [{"restaurant": ["2"]}]}
    [_, total] = grounded_dialogue_rows(dialogues, links, goals, {"d1": [[]]}, DB, heard)
    assert total["success"] is True
    [_, total] = grounded_dialogue_rows(dialogues, links, goals, {"d1": [[]]}, DB)
    assert total["success"] is False


def test_a_train_id_is_credited_against_the_goal_s_trains():
    goal = {"train": {"informable": {"destination": "cambridge"}, "requestable": ["TRAINID"]}}
    tr1 = Span("trainid", "TR1", 0, 7, (("train", "TR1"),))
    out = evaluate_grounded_dialogue(goal, [[]], ["TRAINID leaves at 9 ."],
                                     [{"train": {"destination": "cambridge"}}], [["train"]],
                                     [[tr1]], DB)
    assert out.inform["train"] is True and out.success["train"] is True
