"""The grounded Inform/Success setting (issue 27) on a hand-checkable toy database:
worked examples of each rule and the property of the issue — a lexicalized dialogue whose named
venues and values all come from one goal-satisfying entity scores grounded Inform = standard
Inform."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mwzrepro.core.normalize import normalize_response
from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.prepare.delex.delexicalize_responses import Delexicalizer
from mwzrepro.prepare.delex.value_lexicon import ValueLexicon
from mwzrepro.standard.grounded import evaluate_grounded_dialogue
from mwzrepro.standard.grounded_values import VenueRecords
from mwzrepro.standard.grounding_metrics import attribute_checks
from mwzrepro.standard.inform_success import evaluate_dialogue


def _restaurant(i, name, area, food, price, phone, postcode, address):
    return {"id": str(i), "name": name, "area": area, "food": food, "pricerange": price,
            "phone": phone, "postcode": postcode, "address": address, "type": "restaurant"}


RESTAURANTS = [
    _restaurant(1, "bangkok city", "centre", "thai", "expensive", "01223354382", "cb21dp",
                "24 green street city centre"),
    _restaurant(2, "sala thong", "west", "thai", "expensive", "01223323178", "cb39ey",
                "35 newnham road newnham"),
    _restaurant(3, "nandos", "south", "portuguese", "cheap", "01223327908", "cb17dy",
                "cambridge leisure park clifton way"),
    _restaurant(4, "the golden curry", "centre", "indian", "expensive", "01223329432",
                "cb12az", "mill road city centre"),
    _restaurant(5, "curry garden", "centre", "indian", "expensive", "01223302330", "cb21dp",
                "106 regent street city centre"),
]
DB = VenueDatabase({"restaurant": RESTAURANTS})
DELEX = Delexicalizer(ValueLexicon.from_entities({"restaurant": RESTAURANTS}))


def _score(goal, texts, states, setting_fn):
    links = [DELEX.link(t, s) for t, s in zip(texts, states)]
    responses = [normalize_response(r.text) for r in links]
    n = len(texts)
    active = [["restaurant"]] * n
    if setting_fn == "standard":
        return evaluate_dialogue(goal, [[]] * n, responses, states, active, DB)
    return evaluate_grounded_dialogue(goal, [[]] * n, responses, states, active,
                                      [r.spans for r in links], DB)


GOAL = {"restaurant": {"informable": {"food": "indian", "area": "centre"},
                       "requestable": ["PHONE"]}}
STATE = {"restaurant": {"food": "indian", "area": "centre"}}


def test_the_named_venue_is_the_offer():
    right = ["The Golden Curry serves indian food , phone 01223 329432 ."]
    wrong = ["Nandos serves indian food , phone 01223 329432 ."]
    assert _score(GOAL, right, [STATE], "grounded").success["total"] is True
    assert _score(GOAL, wrong, [STATE], "standard").inform["total"] is True   # blind
    out = _score(GOAL, wrong, [STATE], "grounded")
    assert out.inform["total"] is False and out.offered["restaurant"] == ["3"]


def test_a_value_counts_only_when_it_is_the_venues():
    texts = ["Curry Garden is nice .", "Their phone is 01223 329432 ."]  # golden curry's
    assert _score(GOAL, texts, [STATE] * 2, "standard").success["total"] is True
    out = _score(GOAL, texts, [STATE] * 2, "grounded")
    assert out.inform["total"] is True and out.success["total"] is False
    texts[1] = "Their phone is 01223 302330 ."
    assert _score(GOAL, texts, [STATE] * 2, "grounded").success["total"] is True


def test_a_name_goal_is_checked_when_a_venue_is_named():
    goal = {"restaurant": {"informable": {"name": "nandos"}, "requestable": []}}
    state = {"restaurant": {"name": "nandos"}}
    assert _score(goal, ["Sala Thong is great ."], [state], "standard").inform["total"]
    assert not _score(goal, ["Sala Thong is great ."], [state], "grounded").inform["total"]
    assert _score(goal, ["Nandos is great ."], [state], "grounded").inform["total"]
    assert _score(goal, ["It is great ."], [state], "grounded").inform["total"]  # none named


def test_attribute_checks_read_the_nearest_named_venue():
    linked = DELEX.link("Nandos is in the south , Bangkok City in the west . Phone 01223354382 .")
    checks = attribute_checks(linked.text, linked.spans, [], [], VenueRecords(DB))
    assert [(c["slot"], c["text"], c["venue"], c["correct"]) for c in checks] == [
        ("area", "south", ["restaurant", "3"], True),
        ("area", "west", ["restaurant", "1"], False),
        ("phone", "01223354382", ["restaurant", "1"], True)]


_TEMPLATES = ["{name} is a nice {food} place .", "It is in the {area} .",
              "Their phone number is {phone} .", "The address is {address} , {postcode} .",
              "You could try {name} .", "Anything else ?", "{Name} , at {address} ."]


@given(goal_keys=st.sets(st.sampled_from(["food", "area", "pricerange", "name"]), min_size=1),
       pick=st.integers(0, 4), turns=st.lists(st.sampled_from(_TEMPLATES), min_size=1,
                                              max_size=5),
       name_in_state=st.booleans())
@settings(max_examples=150, deadline=None)
def test_one_goal_entity_scores_grounded_inform_as_standard(goal_keys, pick, turns,
                                                            name_in_state):
    entity = RESTAURANTS[pick]
    informable = {k: entity[k] for k in goal_keys}
    goal = {"restaurant": {"informable": informable, "requestable": ["PHONE"]}}
    state = {"restaurant": dict(informable, **({"name": entity["name"]}
                                               if name_in_state else {}))}
    texts = [t.format(Name=entity["name"].title(), **entity) for t in turns]
    states = [state] * len(texts)
    standard = _score(goal, texts, states, "standard")
    grounded = _score(goal, texts, states, "grounded")
    assert grounded.inform == standard.inform
    # a phone given once the venue is named (or the state names it) is the venue's own
    named_at = next((i for i, t in enumerate(turns) if "name}" in t.lower()), None)
    phone_after = any("{phone}" in t for t in turns[named_at or 0:]) if (
        named_at is not None or name_in_state) else False
    if standard.success["total"] and phone_after:
        assert grounded.success["total"]
