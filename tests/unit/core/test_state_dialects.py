"""State dialects under ``placeholders = extended`` (:mod:`mwzrepro.core.state_dialects`), by
hand: a slot naming another domain is dropped, never resolved into this one, and a resolved
spelling never overrides the value the state gives in its known form."""

from __future__ import annotations

from mwzrepro.core.state_dialects import resolve_slot, resolve_state


def test_a_slot_naming_another_domain_is_dropped():
    # restaurant-area inside hotel: area is a hotel slot, but this one is the restaurant's
    assert resolve_slot("hotel", "restaurant-area") is None
    assert resolve_slot("hotel", "hotel-area") == "area"
    assert resolve_state({"hotel": {"restaurant-area": "north", "stars": "4"}}) == {
        "hotel": {"stars": "4"}}
    assert resolve_state({"hotel": {"hotel-area": "north"}}) == {"hotel": {"area": "north"}}


def test_the_known_form_wins_over_a_resolved_spelling():
    # the dialect spelling first, so that a later update would overwrite the known value
    assert resolve_state({"hotel": {"book_day": "monday", "bookday": "friday"}}) == {
        "hotel": {"bookday": "friday"}}
    assert resolve_state({"train": {"leave_at": "09:00", "leave": "10:00"}}) == {
        "train": {"leave": "10:00"}}
    # a misspelled domain merged into the known one: the known one's values win
    assert resolve_state({"hotels": {"area": "south", "stars": "3"},
                          "hotel": {"area": "north"}}) == {
        "hotel": {"area": "north", "stars": "3"}}
    # and the known form is matched after §4.1 (leaveAt is leave)
    assert resolve_state({"taxi": {"leave_at": "09:00", "leaveAt": "10:00"}}) == {
        "taxi": {"leaveAt": "10:00"}}


def test_state_warnings_list_every_unknown_name_and_skip_an_empty_kind():
    from collections import Counter

    from mwzrepro.core.state_dialects import StateDialects, state_warnings

    found = StateDialects(Counter(), Counter({("hotel", "colour"): 2, ("hotel", "size"): 1}))
    [line] = state_warnings(found, "x.json", "reference")
    assert line.endswith("resolves or ignores them): hotel-colour ×2 turns, hotel-size ×1 turns")
    [line] = state_warnings(found, "x.json", "extended")
    assert line.endswith("placeholders=extended: hotel-colour ignored (×2 turns), "
                         "hotel-size ignored (×1 turns)")


def test_scan_predictions_reads_the_state_of_every_turn_that_has_one():
    from mwzrepro.core.state_dialects import scan_predictions

    data = {"d1": [{"state": {"hotel": {"colour": "red"}}}, {"response": "hi"}, "text"],
            "d2": [{"state": {"hotel": {"colour": "blue"}}}], "d3": {"not": "a list"}}
    found = scan_predictions(data)
    assert dict(found.unknown_slots) == {("hotel", "colour"): 2}
    assert not found.unknown_domains


def test_a_slot_without_a_state_slot_in_its_domain_resolves_to_nothing():
    assert resolve_slot("taxi", "food") is None     # food is no taxi slot
    assert resolve_slot("hotel", "phone") is None   # a phone is never a state slot
    assert resolve_slot("shop", "area") is None     # not an ontology domain


def test_resolve_state_keeps_what_it_cannot_read_and_goes_on():
    state = {"hotel": "junk", "shop": {"area": "north"}, "restaurant": {"food": "thai"}}
    assert resolve_state(state) == {"hotel": "junk", "restaurant": {"food": "thai"}}


def test_scans_count_turns_and_read_escaped_keys():
    from mwzrepro.core.state_dialects import cells_have_unknown, scan_states

    found = scan_states([None, {"shop": {}}, {"shop": {}, "hotel": {"area": "x", "colour": 1}}])
    assert dict(found.unknown_domains) == {"shop": 2}
    assert dict(found.unknown_slots) == {("hotel", "colour"): 1}
    assert cells_have_unknown(['{"ho\\u0074el":{"are\\u0061":"x"}}']) is False
