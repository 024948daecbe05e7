"""Inform and Success (spec-standard-evaluation §9 standard, §10 optimistic): every special
case on hand-made dialogues over the fixture database tests/fixtures/standard/db/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.standard.inform_success import (
    dialogue_rows,
    evaluate_dialogue,
    rate,
    rates_of_rows,
    reduce_constraints,
)

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "standard"

CHEAP_CHINESE = {"food": "chinese", "pricerange": "cheap"}
CENTRE = {**CHEAP_CHINESE, "area": "centre"}          # venues 1, 2, 3
SOUTH = {**CHEAP_CHINESE, "area": "south"}            # venue 4
ITALIAN = {"food": "italian", "pricerange": "cheap"}  # venue 6


@pytest.fixture(scope="module")
def db():
    return VenueDatabase.from_files(
        {d: FIX / "db" / f"{d}_db.json" for d in ("restaurant", "hotel", "attraction", "train")},
        expected_sha256=None)


def goal(domain, informable, requestable=()):
    return {domain: {"informable": dict(informable), "requestable": list(requestable),
                     "booking": []}}


def run(db, g, turns, booked=None, setting="standard"):
    """turns: (normalized response, state, active domains) triples."""
    booked = booked if booked is not None else [[] for _ in turns]
    return evaluate_dialogue(g, booked, [t[0] for t in turns], [t[1] for t in turns],
                             [t[2] for t in turns], db, setting)


# --- §9.4 worked example ---------------------------------------------------------------------

def test_worked_example_sng0580(db):
    case = json.loads((FIX / "sng0580.json").read_text())
    exp = case["expected"]
    assert db.query("restaurant", case["goal"]["restaurant"]["informable"]) == exp["goal_venues"]
    turns = case["turns"]
    out = evaluate_dialogue(case["goal"], case["booked"], [t["response"] for t in turns],
                            [t["state"] for t in turns], [t["active_domains"] for t in turns],
                            db)
    assert out.offered["restaurant"] == exp["offered"]
    assert out.inform == {"restaurant": exp["inform"], "total": exp["inform"]}
    assert out.success == {"restaurant": exp["success"], "total": exp["success"]}


# --- venue offers ----------------------------------------------------------------------------

def test_offer_outside_the_goal_venues_fails_inform(db):
    g = goal("restaurant", CHEAP_CHINESE, ["ADDRESS"])
    out = run(db, g, [("NAME at ADDRESS", {"restaurant": ITALIAN}, ["restaurant"])])
    assert out.offered["restaurant"] == ["6"]
    assert out.inform["restaurant"] is False
    assert out.success == {"restaurant": False, "total": False}  # no success without inform


def test_no_offer_fails_inform(db):
    g = goal("restaurant", CHEAP_CHINESE)
    out = run(db, g, [("there are COUNT places", {"restaurant": CENTRE}, ["restaurant"])])
    assert out.offered["restaurant"] == []
    assert out.inform["total"] is False


def test_name_detected_only_as_uppercase_placeholder(db):
    g = goal("restaurant", CHEAP_CHINESE)
    out = run(db, g, [("the name is charlie chan", {"restaurant": CENTRE}, ["restaurant"])])
    assert out.inform["restaurant"] is False


def test_inactive_domain_is_not_updated(db):
    g = goal("restaurant", CHEAP_CHINESE, ["ADDRESS"])
    out = run(db, g, [("NAME at ADDRESS", {"restaurant": CENTRE}, ["hotel"])])
    assert out.offered["restaurant"] == []
    assert out.inform["restaurant"] is False


def test_later_offer_replaces_unless_previous_still_consistent(db):
    g = goal("restaurant", CHEAP_CHINESE)
    # previous offer {1,2,3} is a subset of the broader result {1,2,3,4}: kept
    out = run(db, g, [("NAME", {"restaurant": CENTRE}, ["restaurant"]),
                      ("NAME", {"restaurant": CHEAP_CHINESE}, ["restaurant"])])
    assert out.offered["restaurant"] == ["1", "2", "3"]
    # previous offer {4} is not in {1,2,3}: replaced
    out = run(db, g, [("NAME", {"restaurant": SOUTH}, ["restaurant"]),
                      ("NAME", {"restaurant": CENTRE}, ["restaurant"])])
    assert out.offered["restaurant"] == ["1", "2", "3"]


def test_name_turn_without_state_for_the_domain_empties_the_offer(db):
    # pitfall 13: M = [] replaces a non-empty previous offer
    g = goal("restaurant", CHEAP_CHINESE)
    out = run(db, g, [("NAME", {"restaurant": CENTRE}, ["restaurant"]),
                      ("NAME", {"hotel": {"area": "north"}}, ["restaurant"])])
    assert out.offered["restaurant"] == []
    assert out.inform["restaurant"] is False


def test_empty_domain_state_queries_everything(db):
    g = goal("restaurant", CHEAP_CHINESE)
    out = run(db, g, [("NAME", {"restaurant": {}}, ["restaurant"])])
    assert out.offered["restaurant"] == ["1", "2", "3", "4", "5", "6"]
    assert out.inform["restaurant"] is False


# --- automatic matches ----------------------------------------------------------------------

def test_goal_with_name_is_matched_automatically(db):
    g = goal("restaurant", {"name": "hakka"}, ["PHONE"])
    out = run(db, g, [("sorry", {}, ["restaurant"]), ("the phone is PHONE", {}, ["restaurant"])])
    assert out.inform["restaurant"] is True and out.offered["restaurant"] is None
    assert out.success["restaurant"] is True


def test_taxi_is_matched_and_needs_its_requestables(db):
    g = goal("taxi", {"leave": "17:15", "destination": "pizza hut"}, ["PHONE"])
    out = run(db, g, [("booked, the car is a TYPE", {}, ["taxi"])])
    assert out.inform == {"taxi": True, "total": True}
    assert out.success == {"taxi": False, "total": False}
    out = run(db, g, [("booked, contact number PHONE", {}, ["taxi"])])
    assert out.success == {"taxi": True, "total": True}


@pytest.mark.parametrize("domain", ["police", "hospital"])
def test_police_and_hospital_are_matched(db, domain):
    out = run(db, goal(domain, {}, ["ADDRESS"]), [("it is at ADDRESS", {}, [domain])])
    assert out.inform[domain] and out.success[domain]


TRAIN_GOAL = {"day": "monday", "departure": "cambridge", "destination": "london kings cross",
              "arrive": "06:00"}  # only TR0001 arrives by 06:00


def test_train_without_trainid_request_and_no_offer_is_matched(db):
    g = goal("train", TRAIN_GOAL, ["REFERENCE"])
    out = run(db, g, [("the train leaves at TIME", {"train": TRAIN_GOAL}, ["train"])])
    assert out.inform["train"] is True


def test_train_offering_a_wrong_train_fails_even_without_trainid_request(db):
    # pitfall 12: offering a wrong train fails inform
    g = goal("train", TRAIN_GOAL, ["REFERENCE"])
    wrong = {**TRAIN_GOAL, "arrive": "08:00"}  # TR0001 and TR0002
    out = run(db, g, [("TRAINID arrives at TIME", {"train": wrong}, ["train"])])
    assert out.offered["train"] == ["TR0001", "TR0002"]
    assert out.inform["train"] is False
    out = run(db, g, [("TRAINID arrives at TIME", {"train": TRAIN_GOAL}, ["train"])])
    assert out.inform["train"] is True


def test_train_with_trainid_request_needs_an_offer(db):
    g = goal("train", TRAIN_GOAL, ["TRAINID"])
    out = run(db, g, [("the train leaves at TIME", {"train": TRAIN_GOAL}, ["train"])])
    assert out.inform["train"] is False


# --- requestables ---------------------------------------------------------------------------

def test_reference_counts_only_in_booked_turns(db):
    g = goal("hotel", {"name": "acorn guest house"}, ["REFERENCE"])
    turns = [("your reference is REFERENCE", {}, ["hotel"])]
    assert run(db, g, turns, booked=[[]]).success["hotel"] is False
    assert run(db, g, turns, booked=[["restaurant"]]).success["hotel"] is False
    assert run(db, g, turns, booked=[["hotel"]]).success["hotel"] is True


def test_requestables_recorded_for_every_active_goal_domain(db):
    g = {**goal("hotel", {"name": "acorn guest house"}, ["PHONE"]),
         **goal("taxi", {}, ["PHONE"])}
    out = run(db, g, [("PHONE", {}, ["hotel", "taxi"])])
    assert out.success == {"hotel": True, "taxi": True, "total": True}
    out = run(db, g, [("PHONE", {}, ["hotel"])])
    assert out.success == {"hotel": True, "taxi": False, "total": False}


def test_one_failed_domain_fails_total_inform_and_all_success(db):
    g = {**goal("restaurant", CHEAP_CHINESE, ["ADDRESS"]), **goal("taxi", {}, [])}
    out = run(db, g, [("NAME at ADDRESS", {"restaurant": ITALIAN}, ["restaurant", "taxi"])])
    assert out.inform == {"restaurant": False, "taxi": True, "total": False}
    assert out.success == {"restaurant": False, "taxi": False, "total": False}


def test_turn_loop_stops_at_the_shortest_sequence(db):
    g = goal("restaurant", CHEAP_CHINESE, ["POST"])
    turns = [("NAME", {"restaurant": CENTRE}, ["restaurant"]), ("POST", {}, ["restaurant"])]
    assert run(db, g, turns, booked=[[], []]).success["total"] is True
    assert run(db, g, turns, booked=[[]]).success["total"] is False  # second turn not seen


# --- optimistic setting (§10) ---------------------------------------------------------------

def test_optimistic_uses_intersection(db):
    g = goal("restaurant", {**CHEAP_CHINESE, "area": "centre"})  # venues 1, 2, 3
    turns = [("NAME", {"restaurant": CHEAP_CHINESE}, ["restaurant"])]  # offers 1, 2, 3, 4
    assert run(db, g, turns).inform["restaurant"] is False
    assert run(db, g, turns, setting="optimistic").inform["restaurant"] is True


def test_optimistic_reduced_search_by_name(db):
    g = goal("restaurant", CHEAP_CHINESE)
    state = {"restaurant": {"name": "charlie chan", "area": "north"}}  # wrong area
    turns = [("NAME", state, ["restaurant"])]
    assert run(db, g, turns).offered["restaurant"] == []
    opt = run(db, g, turns, setting="optimistic")
    assert opt.offered["restaurant"] == ["1"] and opt.inform["restaurant"] is True


def test_reduce_constraints():
    assert reduce_constraints("hotel", {"name": "x", "area": "y"}) == {"name": "x"}
    assert reduce_constraints("train", {"trainid": "TR1", "day": "monday"}) == {"trainid": "TR1"}
    assert reduce_constraints("train", {"name": "x", "day": "monday"}) == {"name": "x",
                                                                           "day": "monday"}
    assert reduce_constraints("hotel", {"name": "dontcare", "area": "y"}) == {
        "name": "dontcare", "area": "y"}
    assert reduce_constraints("taxi", {"name": "x", "leave": "1"}) == {"name": "x", "leave": "1"}


def test_unknown_setting(db):
    with pytest.raises(ConfigError):
        run(db, goal("taxi", {}), [], setting="lenient")


# --- aggregation (§9.3) ---------------------------------------------------------------------

@pytest.mark.parametrize("hits, count, expected", [
    (1, 16, 6.2),     # 6.25 is exact in binary: ties to even
    (3, 16, 18.8),    # 18.75 -> 18.8 (even)
    (2, 3, 66.7),
    (944, 944, 100.0),
    (0, 5, 0.0),
])
def test_rate_rounding(hits, count, expected):
    assert rate(hits, count) == expected


def test_rates_per_domain_denominators_and_success_zero_after_failed_inform(db):
    goals = {"d1": goal("taxi", {}, ["PHONE"]),
             "d2": {**goal("taxi", {}, []), **goal("restaurant", CHEAP_CHINESE)},
             "d3": goal("restaurant", CHEAP_CHINESE)}
    dialogues = {
        "d1": {"responses": ["PHONE"], "states": [{}], "active_domains": [["taxi"]]},
        "d2": {"responses": ["NAME"], "states": [{"restaurant": ITALIAN}],
               "active_domains": [["restaurant", "taxi"]]},
        "d3": {"responses": ["NAME"], "states": [{"restaurant": CENTRE}],
               "active_domains": [["restaurant"]]},
    }
    booked = {d: [[]] for d in dialogues}
    rows = dialogue_rows(dialogues, goals, booked, db)
    assert all(list(row) == ["setting", "dialogue_id", "domain", "inform", "success"]
               for row in rows)
    r = rates_of_rows(rows)
    assert r["inform"] == {"restaurant": 50.0, "taxi": 100.0, "total": 66.7}
    # d2 fails inform, so its taxi success counts 0 although taxi wants nothing
    assert r["success"] == {"restaurant": 50.0, "taxi": 50.0, "total": 66.7}
    with pytest.raises(InputError, match="d4"):
        dialogue_rows({"d4": dialogues["d1"]}, goals, booked, db)
    with pytest.raises(ValueError):
        rates_of_rows(rows + [{**row, "setting": "optimistic"} for row in rows])


def test_dialogue_rows_score_in_the_setting_given_and_name_what_is_missing(db):
    # §10: the optimistic setting credits an offer the standard one does not (the
    # intersection case above), and every row carries its setting
    goals = {"d1": goal("restaurant", {**CHEAP_CHINESE, "area": "centre"})}
    dialogues = {"d1": {"responses": ["NAME"], "states": [{"restaurant": CHEAP_CHINESE}],
                        "active_domains": [["restaurant"]]}}
    booked = {"d1": [[]]}
    opt = dialogue_rows(dialogues, goals, booked, db, setting="optimistic")
    assert [(r["setting"], r["domain"], r["inform"]) for r in opt] == [
        ("optimistic", "restaurant", True), ("optimistic", "total", True)]
    assert [r["inform"] for r in dialogue_rows(dialogues, goals, booked, db)] == [False, False]
    with pytest.raises(InputError) as err:
        dialogue_rows({"d9": dialogues["d1"]}, goals, booked, db)
    assert str(err.value) == ": dialogue d9 has no goal"
    with pytest.raises(InputError) as err:
        dialogue_rows(dialogues, goals, {}, db, where="sys.json")
    assert str(err.value) == "sys.json: dialogue d1 has no booked-domain list"


def test_rates_of_rows_list_domains_sorted_then_total_and_refuse_mixed_settings():
    rows = [{"setting": "standard", "domain": d, "inform": True, "success": False}
            for d in ("train", "total", "attraction")]
    assert list(rates_of_rows(rows)["inform"]) == ["attraction", "train", "total"]
    assert rates_of_rows(rows[:1]) == {"inform": {"train": 100.0}, "success": {"train": 0.0}}
    with pytest.raises(ValueError) as err:
        rates_of_rows(rows + [{**rows[0], "setting": "optimistic"}])
    assert str(err.value) == ("rates_of_rows(): rows of several settings; select one setting "
                              "first")


def test_an_inactive_domain_is_skipped_not_the_turn(db):
    # the goal lists the hotel first; only the restaurant is active: its offer still counts
    g = {**goal("hotel", {"area": "north"}), **goal("restaurant", CENTRE)}
    trace: list = []
    out = evaluate_dialogue(g, [[]], ["NAME"], [{"restaurant": CENTRE}], [["restaurant"]], db,
                            trace=trace)
    assert out.offered["restaurant"] == ["1", "2", "3"] and out.inform["restaurant"] is True
    # a turn that offers nothing records no query result
    evaluate_dialogue(g, [[]], ["bye"], [{}], [["restaurant"]], db, trace=trace)
    assert [r["found"] for r in trace] == [["1", "2", "3"], None]


def test_offers_against_goal_venues_subset_or_intersection():
    from mwzrepro.standard.inform_success import outcome_of

    g = goal("restaurant", CHEAP_CHINESE)
    query = lambda domain, constraints: ["1", "2", "3"]  # noqa: E731
    some = {"restaurant": ["1", "4"]}
    assert outcome_of(g, some, {"restaurant": set()}, query).inform["restaurant"] is False
    assert outcome_of(g, some, {"restaurant": set()}, query, True).inform["restaurant"] is True
    none = {"restaurant": ["4"]}
    assert outcome_of(g, none, {"restaurant": set()}, query, True).inform["restaurant"] is False


def test_an_unknown_setting_is_named(db):
    with pytest.raises(ConfigError) as err:
        run(db, goal("taxi", {}), [], setting="lenient")
    assert str(err.value) == ("unknown Inform/Success setting 'lenient'; expected "
                              "('standard', 'optimistic')")
