"""Each rule family of spec-annotation-consistency §7 firing and not firing, on hand-made
dialogues with the fixture databases (tests/fixtures/consistency)."""

from __future__ import annotations

import pytest

from tests.unit.consistency.helpers import added, detections, run

NORTH = {"hotel-area": "north"}


def one(slot: str, turns, **kw):
    """Detections of ``slot`` in a one-dialogue run."""
    return detections(run({"d1": turns}, **kw), slot)


# ------------------------------------------------------------------------------ HTYPE §7.1
def test_htype_ht1_guesthouse_from_user() -> None:
    got = one("hotel-type", [("", "I need a guesthouse in the north .", NORTH)])
    assert got == [(0, ("guesthouse",), "HT1", "user")]


def test_htype_ht2_generic_hotel_and_blockers() -> None:
    assert one("hotel-type", [("", "I need a hotel in the north .", NORTH)]) == [
        (0, ("hotel",), "HT2", "user")]
    # "taxi" in W blocks HT2 (and S is empty, so HT3 cannot fire)
    assert one("hotel-type", [("", "I need a taxi from my hotel in the north .", NORTH)]) == []
    # "the hotel" blocks, except in the goal-template phrase "the hotel should"
    assert one("hotel-type", [("", "Where is the hotel ?", NORTH)]) == []
    assert one("hotel-type", [("", "The hotel should be in the north .", NORTH)]) == [
        (0, ("hotel",), "HT2", "user")]


def test_htype_ht3_system_and_stop_at_labeled() -> None:
    turns = [("", "I need a place to stay in the north .", NORTH),
             ("There are 3 hotels in the north .", "Any is fine .", NORTH)]
    assert one("hotel-type", turns) == [(1, ("hotel",), "HT3", "system")]
    blocked = [turns[0], ("I like that hotel in the north .", "Ok .", NORTH)]
    assert one("hotel-type", blocked) == []
    labeled = [("", "I need a place to stay .", {"hotel-type": "guesthouse"}),
               ("There are 3 hotels in the north .", "Ok .", {"hotel-type": "guesthouse"})]
    assert one("hotel-type", labeled) == []  # scan stops at the first labeled turn


# ------------------------------------------------------------------------------ ATYPE §7.2
CENTRE = {"attraction-area": "centre"}


def test_atype_user_and_parking_guard() -> None:
    assert one("attraction-type", [("", "I want to visit a museum .", CENTRE)]) == [
        (0, ("museum",), "AT-U", "user")]
    assert one("attraction-type", [("", "A museum with parking please .", CENTRE)]) == []


def test_atype_system_multi_values_need_a_name() -> None:
    turns = [("", "What is there to see ?", CENTRE),
             ("There are colleges and museums .", "Ok .", CENTRE)]
    assert one("attraction-type", turns) == []  # AT-M: two types, no name -> discarded
    named = {"attraction-area": "centre", "attraction-name": "christ's college"}
    turns[1] = ("There are colleges and museums .", "Ok .", named)
    # the named attraction's database type resolves the ambiguity
    assert one("attraction-type", turns) == [(1, ("college",), "AT-M", "system")]
    assert one("attraction-type", turns, atype_resolve_by_db=False) == [
        (1, ("college", "museum"), "AT-S", "system")]


def test_atype_is_respelled_in_the_split_spelling() -> None:
    # the split writes "night club"; the lexicon's canonical value is "nightclub" (§2.3)
    turns = [("", "I want to go dancing .", CENTRE),
             ("There is a nightclub in the centre .", "Ok .", CENTRE)]
    other = [("", "Hi .", {"attraction-type": "night club"})]
    res = run({"d1": turns, "d2": other})
    assert added(res, "d1")[(1, "attraction-type")] == "night club"


# ------------------------------------------------------------------------------- AREA §7.3
ASC = {"attraction-name": "all saints church"}


def test_area_attraction_rules() -> None:
    a1 = [("", "Tell me about all saints church .", ASC),
          ("All Saints Church is in the centre .", "Thanks .", ASC)]
    assert one("attraction-area", a1) == [(1, ("centre",), "A1", "system")]
    cc = {"attraction-name": "christ's college"}
    a2a = [("", "Tell me about christ 's college .", cc),
           ("It is a college in the west .", "Thanks .", cc)]
    assert one("attraction-area", a2a) == [(1, ("west",), "A2a", "system")]
    unnamed = [("", "I want a museum .", {"attraction-type": "museum"}),
               ("It is in the east .", "Thanks .", {"attraction-type": "museum"})]
    assert one("attraction-area", unnamed) == []  # every AREA-A rule needs a name


def test_area_masks_entity_names_and_street_phrases() -> None:
    name = {"attraction-name": "the cherry hinton village centre"}
    turns = [("", "Where is the cherry hinton village centre ?", name),
             ("The Cherry Hinton Village Centre is nice .", "Thanks .", name)]
    assert one("attraction-area", turns) == []
    assert one("attraction-area", turns, mask_entity_names=False) == [
        (1, ("centre",), "A1", "system")]
    street = [("", "Tell me about all saints church .", ASC),
              ("All Saints Church is on east road .", "Thanks .", ASC)]
    assert one("attraction-area", street) == []
    assert one("attraction-area", street, mask_street_phrases=False) == [
        (1, ("east",), "A1", "system")]


def test_area_hotel_rules_and_no_user_side() -> None:
    acorn = {"hotel-name": "acorn guest house"}
    h1 = [("", "Tell me about acorn guest house .", acorn),
          ("Acorn Guest House is in the north .", "Thanks .", acorn)]
    assert one("hotel-area", h1) == [(1, ("north",), "H1", "system")]
    ht = {"hotel-type": "guesthouse"}
    h2 = [("", "I need a guesthouse .", ht), ("There are 2 guesthouses in the east .", "Ok .", ht)]
    assert one("hotel-area", h2) == [(1, ("east",), "H2", "system")]
    blocked = [h2[0], ("There is a restaurant and a hotel in the east .", "Ok .", ht)]
    assert one("hotel-area", blocked) == []
    user = [("", "I want a guesthouse in the west .", ht)]
    assert one("hotel-area", user) == []  # §7.3: no user-side area rule by default
    assert one("hotel-area", user, area_user_side=True) == [(0, ("west",), "AR-U", "user")]


def test_area_restaurant_rules() -> None:
    loch = {"restaurant-name": "loch fyne"}
    assert one("restaurant-area", [("", "Is loch fyne good ?", loch),
                                   ("Loch Fyne is in the centre .", "Ok .", loch)]) == [
        (1, ("centre",), "R1", "system")]
    food = {"restaurant-food": "indian"}
    assert one("restaurant-area", [("", "Indian food please .", food),
                                   ("There is a restaurant in the west .", "Ok .", food)]) == [
        (1, ("west",), "R2", "system")]
    assert one("restaurant-area", [("", "Is loch fyne good ?", loch),
                                   ("It is in the south .", "Great .", loch)]) == [
        (1, ("south",), "R3a", "system")]
    assert one("restaurant-area", [("", "Is loch fyne good ?", loch),
                                   ("It is in the south .", "Any restaurant .", loch)]) == []
    assert one("restaurant-area", [("", "Indian food please .", food),
                                   ("Try the golden curry in the east .", "Ok .", food)]) == [
        (1, ("east",), "R3b", "system")]
    assert one("restaurant-area", [("", "Indian food please .", food),
                                   ("It is in the east .", "Ok .", food)]) == []  # no cue
    assert one("restaurant-area", [("", "Indian food please .", food),
                                   ("There is a museum in the east .", "Ok .", food)]) == []


# ------------------------------------------------------------------------------ PRICE §7.4
RA = {"restaurant-area": "centre"}


def test_price_restaurant_user_side_and_state_guard() -> None:
    assert one("restaurant-pricerange", [("", "I want a cheap restaurant .", RA)]) == [
        (0, ("cheap",), "PR-U", "user")]
    in_state = {"restaurant-area": "centre", "hotel-pricerange": "cheap"}
    assert one("restaurant-pricerange", [("", "I want a cheap restaurant .", in_state)]) == []
    # "inexpensive" maps to moderate and never yields expensive (leading space, D9)
    assert one("restaurant-pricerange", [("", "Something inexpensive please .", RA)]) == [
        (0, ("moderate",), "PR-U", "user")]


def test_price_system_branches() -> None:
    turns = [("", "I want food in the centre .", RA), ("They are all expensive .", "Ok .", RA)]
    assert one("restaurant-pricerange", turns) == [(1, ("expensive",), "PR-Sn", "system")]
    turns[1] = ("The hotel is expensive .", "Ok .", RA)
    assert one("restaurant-pricerange", turns) == []
    loch = {"restaurant-name": "loch fyne"}
    named = [("", "Is loch fyne good ?", loch), ("Loch Fyne is expensive .", "Ok .", loch)]
    assert one("restaurant-pricerange", named) == [(1, ("expensive",), "PR-Sa", "system")]
    hotel = {"hotel-type": "hotel"}
    assert one("hotel-pricerange", [("", "A hotel please .", hotel),
                                    ("All of them are cheap .", "Ok .", hotel)]) == [
        (1, ("cheap",), "PH-Sn", "system")]
    assert one("hotel-pricerange", [("", "How expensive is it ?", hotel)]) == []


# ------------------------------------------------------------------------------- FOOD §7.5
def test_food_rules() -> None:
    assert one("restaurant-food", [("", "I want indian food .", RA)]) == [
        (0, ("indian",), "FD-U", "user")]
    # merged: "european" is contained in "modern european" (§4.6)
    assert one("restaurant-food", [("", "Some modern european food .", RA)]) == [
        (0, ("modern european",), "FD-U", "user")]
    # word-bounded: the ontology's truncated "ital" does not match inside "italian"
    assert one("restaurant-food", [("", "I like italian food .", RA)]) == [
        (0, ("italian",), "FD-U", "user")]
    named = {"restaurant-name": "the indian palace"}
    assert one("restaurant-food", [("", "The indian palace please .", named)]) == []
    assert one("restaurant-food", [("", "Food in the centre .", RA),
                                   ("We have chinese food .", "Ok .", RA)]) == [
        (1, ("chinese",), "FD-Sn", "system")]
    loch = {"restaurant-name": "loch fyne"}
    assert one("restaurant-food", [("", "Is loch fyne good ?", loch),
                                   ("They serve seafood .", "Ok .", loch)]) == [
        (1, ("seafood",), "FD-Sb", "system")]
    assert one("restaurant-food", [("", "Is loch fyne good ?", loch),
                                   ("They serve seafood near the cinema .", "Ok .", loch)]) == []
    assert one("restaurant-food", [("", "Some local food please .", RA)]) == []  # blocklist


# -------------------------------------------------------------------------- PARK, NET §7.6-7
HT = {"hotel-type": "hotel"}


@pytest.mark.parametrize(
    ("user", "value", "rule"),
    [("I need free parking .", "yes", "PK-U"),
     ("I do n't need parking .", "no", "PK-U"),
     ("There is no parking needed .", "no", "PK-U"),
     ("I wonder whether they have parking .", "yes", "PK-Uq")],
)
def test_parking_user(user: str, value: str, rule: str) -> None:
    assert one("hotel-parking", [("", user, HT)]) == [(0, (value,), rule, "user")]


def test_parking_system() -> None:
    acorn = {"hotel-name": "acorn guest house"}
    assert one("hotel-parking", [("", "Tell me about acorn .", acorn),
                                 ("Acorn does not have parking .", "Ok .", acorn)]) == [
        (1, ("no",), "PK-Sa", "system")]
    assert one("hotel-parking", [("", "A hotel please .", HT),
                                 ("Do you need parking ?", "Not sure .", HT)]) == []
    assert one("hotel-parking", [("", "A hotel please .", HT),
                                 ("All of them have free parking .", "Ok .", HT)]) == [
        (1, ("yes",), "PK-Sb", "system")]


def test_internet_user_and_tight_system_distance() -> None:
    assert one("hotel-internet", [("", "It should have free wifi .", HT)]) == [
        (0, ("yes",), "IN-U", "user")]
    assert one("hotel-internet", [("", "Internet or not , I do n't mind .", HT)]) == [
        (0, ("yes",), "IN-Uq", "user")]
    acorn = {"hotel-name": "acorn guest house"}
    # tokdist(not, wifi) = 2: negated at distance 5 but not at IN-Sa's distance 2
    turns = [("", "Tell me about acorn .", acorn), ("It does not offer free wifi .", "Ok .", acorn)]
    assert one("hotel-internet", turns) == [(1, ("yes",), "IN-Sa", "system")]
    turns = [("", "A hotel please .", HT), ("It does not offer free wifi .", "Ok .", HT)]
    assert one("hotel-internet", turns) == [(1, ("no",), "IN-Sb", "system")]


# ------------------------------------------------------------------------------ STARS §7.8
@pytest.mark.parametrize(
    ("system", "values", "rule"),
    [("It has a four star rating .", ("4",), "ST-S"),
     ("There are 3-star hotels and 4 star ones .", ("3", "4"), "ST-S"),
     ("It has a star rating of 4 .", ("4",), "ST-R"),
     ("It is a lovely place .", (), None)],
)
def test_stars(system: str, values: tuple[str, ...], rule: str | None) -> None:
    got = one("hotel-stars", [("", "A hotel please .", HT), (system, "Ok .", HT)])
    assert got == ([(1, values, rule, "system")] if values else [])


# ------------------------------------------------------------------------------- NAME §7.9
ARCH = {"attraction-type": "architecture", "attraction-area": "centre"}


def test_name_system_figure1() -> None:
    turns = [("", "I would like to see some architecture in the centre .", ARCH),
             ("I recommend the All Saints Church on Jesus Lane .", "What 's the fee ?", ARCH),
             ("It is free .", "Thanks .", ARCH)]
    res = run({"mul1088": turns})
    assert detections(res, "attraction-name") == [
        (1, ("all saints church",), "NM-S", "system")]
    got = added(res)
    assert got[(1, "attraction-name")] == got[(2, "attraction-name")] == "all saints church"


def test_name_user_side_and_guards() -> None:
    turns = [("", "I would like to see architecture .", ARCH),
             ("All Saints Church is nice .", "Is All Saints Church free ?", ARCH)]
    assert one("attraction-name", turns) == [(1, ("all saints church",), "NM-U", "user")]
    taxi = [("", "I would like to see architecture .", ARCH),
            ("Your taxi to all saints church is booked .", "Thanks .", ARCH)]
    assert one("attraction-name", taxi) == []
    # surface labels write the matched text instead of the canonical name
    alias = [("", "I would like to see architecture .", ARCH),
             ("Try All Saints on Jesus Lane .", "Ok .", ARCH)]
    assert one("attraction-name", alias) == [(1, ("all saints church",), "NM-S", "system")]
    assert one("attraction-name", alias, name_label="surface") == [
        (1, ("All Saints",), "NM-S", "system")]


def test_name_skips_labeled_turns_and_resumes() -> None:
    labeled = {"attraction-name": "all saints church"}
    turns = [("", "I want to see all saints church .", labeled),
             ("All Saints Church is on Jesus Lane .", "Thanks .", {}),  # annotation dropped
             ("Anything else ?", "No .", {})]
    res = run({"d1": turns})
    assert detections(res, "attraction-name") == [
        (1, ("all saints church",), "NM-S", "system")]
    assert added(res) == {(1, "attraction-name"): "all saints church",
                          (2, "attraction-name"): "all saints church"}


def test_name_fuzzy_restaurant() -> None:
    turns = [("", "I want indian food .", {"restaurant-food": "indian"}),
             ("I booked the golden cury for you .", "Thanks .", {"restaurant-food": "indian"})]
    assert one("restaurant-name", turns) == [(1, ("the golden curry",), "NM-F", "system")]
    assert one("restaurant-name", turns, fuzzy_enabled=False) == []
    generic = [turns[0], ("Any restaurant is fine .", "Ok .", {"restaurant-food": "indian"})]
    assert one("restaurant-name", generic) == []  # "j restaurant" is excluded
    assert one("restaurant-name", generic, fuzzy_exclude=()) == [
        (1, ("j restaurant",), "NM-F", "system")]


# ------------------------------------------------------------------------ TRAIN/TAXI §7.10
DAY = {"train-day": "monday"}


def test_train_places() -> None:
    assert one("train-departure", [("", "I am leaving from stevenage .", DAY)]) == [
        (0, ("stevenage",), "TD-U", "user")]
    assert one("train-destination", [("", "I need a train to london kings cross .", DAY)]) == [
        (0, ("london kings cross",), "TT-U", "user")]
    in_state = {"train-day": "monday", "train-departure": "cambridge"}
    assert one("train-destination", [("", "A train to cambridge please .", in_state)]) == []
    assert one("train-destination", [("", "A train please .", DAY),
                                     ("It arrives in ely at 10:00 .", "Ok .", DAY)]) == [
        (1, ("ely",), "TT-S", "system")]


def test_train_destination_known_false_positive_and_cue_parameter() -> None:
    turns = [("", "I am planning a trip to cambridge .", {}),
             ("How can I help ?", "I need to leave on friday .", {"train-day": "friday"})]
    assert one("train-destination", turns) == [(0, ("cambridge",), "TT-U", "user")]
    assert one("train-destination", turns, train_dest_require_train_cue=True) == []


def test_taxi_places() -> None:
    st = {"hotel-name": "acorn guest house", "taxi-leaveat": "10:00"}
    assert one("taxi-departure", [("", "I want to leave the hotel at 10:00 .", st)]) == [
        (0, ("acorn guest house",), "XD-U", "user")]
    no_hotel = {"taxi-leaveat": "10:00"}
    assert one("taxi-departure", [("", "I want to leave the hotel at 10:00 .", no_hotel)]) == []
    assert one("taxi-destination", [("", "I need a taxi to the junction .", no_hotel)]) == [
        (0, ("the junction",), "XT-U", "user")]
    assert one("taxi-destination", [("", "I need a taxi to cambridge .", no_hotel)]) == []
    assert one("taxi-destination", [("", "I need a car .", no_hotel),
                                    ("Your taxi will arrive at the junction .", "Ok .",
                                     no_hotel)]) == [(1, ("the junction",), "XT-S", "system")]
