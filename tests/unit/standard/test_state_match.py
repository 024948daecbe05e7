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
