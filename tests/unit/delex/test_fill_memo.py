"""The fill memo (:mod:`mwzrepro.prepare.delex.fill_memo`): a fill read from the memo is the fill
made afresh, at any other fuzzy threshold; a dialogue whose query answers changed is filled
again. Hand-made database: ``north american`` scores 86 against ``mexican`` (reference
partial_ratio, database value first), so it selects the Mexican restaurant at threshold 85,
not at 90."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mwzrepro.core.fuzzy import partial_ratio
from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.prepare.delex.fill_memo import FillMemo
from mwzrepro.prepare.delex.relexicalize import lexicalize_predictions

RESTAURANTS = [
    {"id": "1", "name": "nandos", "food": "portuguese", "area": "south", "phone": "01223327908",
     "pricerange": "cheap", "address": "cambridge leisure park", "postcode": "cb17dy"},
    {"id": "2", "name": "the gardenia", "food": "mexican", "area": "centre",
     "phone": "01223356354", "pricerange": "cheap", "address": "2 rose crescent",
     "postcode": "cb23ll"},
    {"id": "3", "name": "curry garden", "food": "indian", "area": "centre",
     "phone": "01223302330", "pricerange": "expensive", "address": "106 regent street",
     "postcode": "cb21dp"},
]

#: Food and name values of the states in the property test (some close to a database value).
FOODS = ["portuguese", "portugese", "north american", "mexican", "indian", "indan", "thai"]
NAMES = ["nandos", "nandoz", "curry garden", "curry gardens", "gardenia", "the garden"]


def db(threshold: float) -> VenueDatabase:
    return VenueDatabase({"restaurant": RESTAURANTS}, threshold=threshold)


def dialogue(food: str) -> list[dict]:
    return [{"response": "[value_name] serves [value_food] food , call [restaurant_phone] .",
             "state": {"restaurant": {"food": food}}},
            {"response": "it is in the [value_area] .", "state": {"restaurant": {"food": food}}}]


def test_the_example_scores_between_the_thresholds():
    assert 85 <= partial_ratio("mexican", "north american") < 90


def test_a_dialogue_whose_answers_changed_is_filled_again():
    data = {"d1": dialogue("north american"), "d2": dialogue("portuguese")}
    memo = FillMemo()
    at90 = lexicalize_predictions(data, db(90), consistent=True, memo=memo)
    # nothing selected at 90: the first restaurant
    assert at90["d1"][0]["response"] == "nandos serves portuguese food , call 01223327908 ."
    assert len(memo.entries) == 2
    memo.added.clear()
    at85 = lexicalize_predictions(data, db(85), consistent=True, memo=memo)
    assert at85 == lexicalize_predictions(data, db(85), consistent=True)
    assert at85["d1"][0]["response"] == "the gardenia serves mexican food , call 01223356354 ."
    assert list(memo.added) == [FillMemo.key("d1", data["d1"], [True, (), ()])]  # d2 reused
    assert at85["d2"] == at90["d2"]


def test_a_memo_entry_is_of_its_inputs_only():
    memo = FillMemo()
    lexicalize_predictions({"d1": dialogue("indian")}, db(90), consistent=True, memo=memo)
    other = {"d1": dialogue("portuguese")}
    assert (lexicalize_predictions(other, db(90), consistent=True, memo=memo)
            == lexicalize_predictions(other, db(90), consistent=True))
    plain = lexicalize_predictions({"d1": dialogue("indian")}, db(90), memo=memo)
    assert plain == lexicalize_predictions({"d1": dialogue("indian")}, db(90))
    assert len(memo.entries) == 3   # the mode is part of the key


def test_bad_turns_are_refused_before_any_fill():
    memo = FillMemo()
    with pytest.raises(Exception, match=r"dialogue d2, turn 1: expected an object"):
        lexicalize_predictions({"d1": dialogue("indian"), "d2": [{"response": "x"}, 3]},
                               db(90), memo=memo)
    assert memo.entries == {}


turn = st.fixed_dictionaries({
    "response": st.sampled_from([
        "[value_name] serves [value_food] food .", "call [restaurant_phone] .",
        "[restaurant_name] is in the [value_area] , [restaurant_name] too .",
        "the address is [value_address] [value_postcode] .", "ok ."]),
    "state": st.fixed_dictionaries({"restaurant": st.dictionaries(
        st.sampled_from(["food", "name", "area"]),
        st.sampled_from(FOODS + NAMES + ["centre", "south"]), max_size=2)}),
})


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["d1", "d2", "d3"]), st.lists(turn, min_size=1,
                                                                      max_size=4),
                       min_size=1),
       st.integers(50, 100), st.integers(50, 100), st.booleans())
def test_a_fill_from_the_memo_is_the_fill_made_afresh(data, before, after, consistent):
    memo = FillMemo()
    lexicalize_predictions(data, db(before), consistent=consistent, memo=memo)
    assert (lexicalize_predictions(data, db(after), consistent=consistent, memo=memo)
            == lexicalize_predictions(data, db(after), consistent=consistent))


def test_odd_text_is_filled_and_kept():
    """A lone surrogate (JSON allows ``\\ud800``) or a non-str state value is no error."""
    memo = FillMemo()
    data = {"d1": [{"response": "[value_name] \ud800 .", "state": {"restaurant": {"food": 3}}}]}
    assert (lexicalize_predictions(data, db(90), consistent=True, memo=memo)
            == lexicalize_predictions(data, db(90), consistent=True))
    assert len(memo.entries) == 1
