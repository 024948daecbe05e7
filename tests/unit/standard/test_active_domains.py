"""Active domains (spec-standard-evaluation §8, §10 item 3)."""

from __future__ import annotations

import pandas as pd
import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.standard.active_domains import (
    build_turn_domains,
    domains_from_slot_names,
    estimate_from_states,
    turn_domains,
)

H1 = {"area": "east"}
H2 = {"area": "east", "stars": "4"}


# --- §8.2 estimation from states -------------------------------------------------------------

def test_turns_before_the_first_change_have_no_domain():
    assert estimate_from_states([{}, {}, {"hotel": H1}, {"hotel": H1}]) == [
        [], [], ["hotel"], ["hotel"]]


def test_empty_domain_dict_is_no_change():
    assert estimate_from_states([{"hotel": {}}, {"hotel": H1}]) == [[], ["hotel"]]


def test_removals_do_not_count_as_changes():
    assert estimate_from_states([{"hotel": H2}, {"hotel": H1}]) == [["hotel"], ["hotel"]]


def test_value_change_counts():
    states = [{"hotel": H1, "train": {"day": "monday"}},
              {"hotel": H1, "train": {"day": "friday"}}]
    assert estimate_from_states(states) == [["hotel"], ["train"]]


def test_switch_to_the_changed_domain_with_most_slots():
    states = [{"hotel": H1},
              {"hotel": H1, "taxi": {"leave": "10:00"},
               "train": {"day": "monday", "leave": "09:00"}}]
    assert estimate_from_states(states) == [["hotel"], ["train"]]


def test_ties_go_to_the_first_changed_domain_in_state_order():
    states = [{"hotel": H1},
              {"hotel": H1, "taxi": {"leave": "10:00"}, "train": {"day": "monday"}}]
    assert estimate_from_states(states) == [["hotel"], ["taxi"]]


def test_current_domain_kept_while_it_changes():
    states = [{"hotel": H1},
              {"hotel": H2, "train": {"day": "monday", "leave": "09:00", "arrive": "10:00"}}]
    assert estimate_from_states(states) == [["hotel"], ["hotel"]]


def test_unchanged_turn_after_multi_domain_change_moves_to_the_other_domain():
    both = {"hotel": H1, "train": {"day": "monday"}}
    # turn 0: both change, tie -> hotel; turn 1: nothing changed, previous change had two
    # domains -> the other one (train); turn 2: previous change list is now empty -> stay.
    assert estimate_from_states([both, both, both]) == [["hotel"], ["train"], ["train"]]


def test_unchanged_turn_skips_domains_no_longer_in_the_state():
    both = {"hotel": H1, "train": {"day": "monday"}}
    assert estimate_from_states([both, {"hotel": H1}]) == [["hotel"], ["hotel"]]


# --- §8.3 domains from slot names -------------------------------------------------------------

@pytest.mark.parametrize("raw, domains", [
    ("[restaurant_name] is near [hotel_name], [value_price]", ["hotel", "restaurant"]),
    ("[Restaurant_Name] is nice", ["restaurant"]),         # raw response is lowercased
    ("call [taxi_phone] or [police_phone]", ["police", "taxi"]),
    ("[attraction name] and [value_name]", []),           # no domain prefix
    ("the [train_id]s leave at [train_leaveat]", ["train"]),
    ("[bus_id] and [hotel-name]", []),                     # unknown domain; '-' not a placeholder
    ("no placeholders", []),
])
def test_domains_from_slot_names(raw, domains):
    assert domains_from_slot_names(raw) == domains


# --- §10 item 3: ground-truth turn domains (DAMD heuristic) ------------------------------------

def test_state_change_plus_act_domains_general_dropped_when_others():
    assert turn_domains([{"restaurant": {"food": "thai"}}], [["restaurant", "general"]]) == [
        ["restaurant"]]


def test_acts_add_domains_after_state_changes():
    assert turn_domains([{"hotel": H1}], [["train", "hotel"]]) == [["hotel", "train"]]


def test_booking_only_turn_falls_back_to_previous_domains():
    s = {"hotel": H1}
    assert turn_domains([s, s], [["hotel"], ["booking"]]) == [["hotel"], ["hotel"]]


def test_general_only_turn_stays_general_and_first_turn_default():
    s = {"hotel": H1}
    assert turn_domains([{}, s, s], [[], ["hotel"], ["general"]]) == [
        ["general"], ["hotel"], ["general"]]


def test_two_domains_with_general_drop_general():
    s = {"hotel": H1}
    assert turn_domains([s], [["general"]]) == [["hotel"]]


def test_continuing_domain_moves_first():
    train = {"train": {"day": "monday"}}
    both = {"train": {"day": "monday"}, "hotel": H1}
    assert turn_domains([train, both], [["train"], ["train"]]) == [["train"], ["train", "hotel"]]


def test_removal_is_a_belief_state_change():
    assert turn_domains([{"hotel": H2}, {"hotel": H1}], [[], []]) == [["hotel"], ["hotel"]]
    assert turn_domains([{"hotel": H2}, {"hotel": H1, "taxi": {"leave": "1"}}],
                        [[], ["general"]]) == [["hotel"], ["hotel", "taxi", "general"]]
    # (general is only dropped from exactly two domains, as in DAMD)


def test_length_mismatch_is_an_error():
    with pytest.raises(InputError):
        turn_domains([{}], [])


def test_build_turn_domains_from_tables():
    dialogues = pd.DataFrame({"dialogue_id": ["d1"], "source_id": ["D1.json"],
                              "split": ["test"], "n_turns": [6]})
    states = pd.DataFrame({
        "dialogue_id": ["d1", "d1", "d1"], "turn": [0, 1, 2],
        "domain": ["restaurant", "restaurant", "restaurant"],
        "slot": ["food", "food", "food"], "value": ["thai", "thai", "thai"],
        "alternatives": [["thai"]] * 3, "position": [0, 0, 0]})
    acts = pd.DataFrame({
        "dialogue_id": ["d1"] * 4, "turn_id": [0, 1, 3, 5], "act_index": [0, 0, 0, 0],
        "act": ["Train-Inform", "Restaurant-Inform", "Booking-Book", "general-bye"],
        "domain": ["train", "restaurant", "booking", "general"],
        "intent": ["inform", "inform", "book", "bye"], "slot": ["none"] * 4,
        "value": ["none"] * 4})
    td = build_turn_domains(states, acts, dialogues)
    # user act at turn_id 0 is ignored; system turn 1 books (fallback), turn 2 says bye
    assert td["domains"].tolist() == [["restaurant"], ["restaurant"], ["general"]]
    assert td["turn"].tolist() == [0, 1, 2]
