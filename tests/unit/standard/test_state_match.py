"""State metrics of the reference evaluator (spec-standard-evaluation §13)."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.core.fuzzy import partial_ratio
from mwzrepro.standard.state_match import flatten_state, state_match

GOLD = {"d": [{"restaurant": {"area": "city centre", "food": "thai"}},
              {"restaurant": {"area": "city centre", "food": "thai"},
               "hotel": {"stars": "4"}}]}


def test_flatten():
    assert flatten_state({"a": {"x": "1"}, "b": {"y": "2"}}) == {("a", "x"): "1",
                                                                  ("b", "y"): "2"}


def test_perfect_prediction():
    r = state_match({"d": GOLD["d"]}, GOLD)
    assert r["joint_accuracy"] == pytest.approx(100.0)
    assert r["slot_f1"] == pytest.approx(100.0)
    assert (r["tp"], r["fp"], r["fn"], r["turns"]) == (5, 0, 0, 2)
    assert r["slot_precision"] == pytest.approx(1.0)  # a fraction, not a percentage


def test_substring_like_fuzzy_match_and_dontcare_false_positive():
    pred = {"d": [{"restaurant": {"area": "centre", "food": "thai"}},            # centre ~ city centre
                  {"restaurant": {"area": "centre", "food": "thai", "pricerange": "dontcare"},
                   "hotel": {"stars": "4"}}]}
    r = state_match(pred, GOLD)
    # turn 0 joint; turn 1 has an extra key (the dontcare slot is absent from gold states)
    assert r["joint_accuracy"] == pytest.approx(50.0)
    assert (r["tp"], r["fp"], r["fn"]) == (5, 1, 0)
    p, rc = 5 / (6 + 1e-10), 5 / (5 + 1e-10)
    assert r["slot_precision"] == p and r["slot_recall"] == rc
    assert r["slot_f1"] == 2 * p * rc / (p + rc + 1e-10) * 100


def test_wrong_value_is_fp_and_fn_and_threshold_is_strict():
    pred = {"d": [{"restaurant": {"area": "north", "food": "thai"}}]}
    r = state_match(pred, GOLD)
    assert (r["tp"], r["fp"], r["fn"], r["turns"]) == (1, 1, 1, 1)
    assert r["joint_accuracy"] == 0
    # 'thai' vs 'thaii': partial_ratio 100 (substring) -> match; 'thia' vs 'thai' -> 75
    assert state_match({"d": [{"restaurant": {"area": "city centre", "food": "thaii"}}]},
                       GOLD)["tp"] == 2
    assert state_match({"d": [{"restaurant": {"area": "city centre", "food": "thia"}}]},
                       GOLD)["tp"] == 1


def test_more_turns_than_gold_or_unknown_dialogue_is_an_error():
    with pytest.raises(InputError, match="x"):
        state_match({"x": [{}]}, GOLD)
    with pytest.raises(InputError, match="3 predicted turns"):
        state_match({"d": [{}, {}, {}]}, GOLD)


def test_equal_values_match_unless_threshold_is_100_and_none_never_matches():
    pred = {"d": [{"restaurant": {"area": "city centre", "food": "thai"}}]}
    assert state_match(pred, GOLD)["tp"] == 2
    assert state_match(pred, GOLD, threshold=100)["tp"] == 0  # 100 is not > 100
    assert state_match(pred, GOLD, matching="optimal")["tp"] == 2
    none = {"d": [{"restaurant": {"area": None, "food": "thai"}}]}
    r = state_match(none, {"d": [{"restaurant": {"area": None, "food": "thai"}}]})
    assert (r["tp"], r["fp"], r["fn"], r["joint_accuracy"]) == (1, 1, 1, 0)


@pytest.mark.parametrize("matching", ["reference", "optimal"])
def test_a_score_equal_to_the_threshold_does_not_match(matching):
    # 'kings college chapal' vs 'kings college chapel': both 20 characters, one substitution
    # = Indel distance 2 over the whole window: (40 - 2) / 40 = 0.95 -> 95 in both modes
    # (reference: fuzzywuzzy 0.18's partial_ratio, rounded; optimal: rapidfuzz's
    # fuzz.partial_ratio, 95.0), exactly the default threshold: no match, as 95 is not > 95
    assert partial_ratio("kings college chapal", "kings college chapel", matching) == 95
    gold = {"d": [{"attraction": {"name": "kings college chapel"}}]}
    pred = {"d": [{"attraction": {"name": "kings college chapal"}}]}
    r = state_match(pred, gold, matching)
    assert (r["tp"], r["fp"], r["fn"], r["joint_accuracy"]) == (0, 1, 1, 0)
    r = state_match(pred, gold, matching, threshold=94)
    assert (r["tp"], r["fp"], r["fn"], r["joint_accuracy"]) == (1, 0, 0, pytest.approx(100.0))
    # 'thaii' vs 'thai' scores 100 (a substring): no match at threshold 100, a match below it
    assert partial_ratio("thaii", "thai", matching) == 100
    thaii = {"d": [{"restaurant": {"area": "city centre", "food": "thaii"}}]}
    assert state_match(thaii, GOLD, matching, threshold=100)["tp"] == 0
    assert state_match(thaii, GOLD, matching, threshold=99)["tp"] == 2


def test_the_default_threshold_is_95_and_the_matching_mode_is_used():
    # 25 characters, one substitution: (50 - 2) / 50 = 96 in the reference mode, > 95
    assert partial_ratio("abcdefghijklmnopqrstuvwxy", "abcdefghijklmnopqrstuvwxz") == 96
    gold = {"d": [{"hotel": {"name": "abcdefghijklmnopqrstuvwxz"}}]}
    assert state_match({"d": [{"hotel": {"name": "abcdefghijklmnopqrstuvwxy"}}]}, gold)["tp"] == 1
    # 'indian' vs 'brazlidian': reference 83, optimal 91 (core.fuzzy): only optimal > 85
    gold = {"d": [{"restaurant": {"food": "brazlidian"}}]}
    pred = {"d": [{"restaurant": {"food": "indian"}}]}
    assert state_match(pred, gold, "optimal", threshold=85)["tp"] == 1
    assert state_match(pred, gold, "reference", threshold=85)["tp"] == 0


def test_values_that_are_not_strings_are_compared_as_their_text():
    gold = {"d": [{"hotel": {"stars": "4", "parking": "yes"}}]}
    r = state_match({"d": [{"hotel": {"stars": 4, "parking": None}}]}, gold)
    assert (r["tp"], r["fp"], r["fn"]) == (1, 1, 1)           # 4 is '4'; None never matches
    # an unhashable value (a list) is compared too, as its text
    r = state_match({"d": [{"hotel": {"stars": ["4"]}}]}, {"d": [{"hotel": {"stars": ["4"]}}]})
    assert (r["tp"], r["fp"], r["fn"]) == (1, 0, 0)


def test_counts_add_up_over_turns_and_the_rates_are_the_reference_formulas():
    gold = {"d": [{"hotel": {"area": "north", "stars": "4"}}] * 2}
    # each turn: area right, stars wrong, an extra slot: tp 1, fp 2, fn 1
    pred = {"d": [{"hotel": {"area": "north", "stars": "2", "type": "hotel"}}] * 2}
    r = state_match(pred, gold)
    assert (r["tp"], r["fp"], r["fn"], r["turns"]) == (2, 4, 2, 2)
    assert r["slot_precision"] == 2 / (6 + 1e-10) and r["slot_recall"] == 2 / (4 + 1e-10)
    one_right = {"d": [{"hotel": {"area": "north", "stars": "4"}}, {}]}
    assert state_match(one_right, gold)["joint_accuracy"] == 1 / (2 + 1e-10) * 100


def test_an_error_without_a_label_starts_with_the_dialogue():
    with pytest.raises(InputError) as err:
        state_match({"x": [{}]}, GOLD)
    assert str(err.value) == ": dialogue x has no gold states"


def test_none_never_matches_whatever_the_threshold():
    none = {"d": [{"hotel": {"parking": None}}]}
    gold = {"d": [{"hotel": {"parking": "yes"}}]}
    assert state_match(none, gold, threshold=-1)["tp"] == 0
