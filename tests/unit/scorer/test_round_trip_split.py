"""The filled attribute accuracy's split of value checks (:func:`mwzrepro.scorer.lexicalized.
round_trip.split_own`): a value the system's original response gives once is its own once;
the same value written again by the fill counts as filled."""

from __future__ import annotations

from collections import Counter

from mwzrepro.scorer.lexicalized.round_trip import split_own


def _check(slot, text, correct=True):
    return {"slot": slot, "text": text, "correct": correct}


def test_a_value_the_system_wrote_once_is_its_own_once():
    # turn 0 of d1: the original response said "centre" once and "cheap" once
    own = {("d1", 0): Counter({("area", "centre"): 1, ("pricerange", "cheap"): 1})}
    checks = [("d1", 0, _check("area", "Centre")),            # own (same comparable form)
              ("d1", 0, _check("area", "city centre")),       # filled: "centre" used up
              ("d1", 0, _check("pricerange", "cheap", False)),  # own, wrong
              ("d1", 1, _check("area", "centre")),            # filled: another turn
              ("d2", 0, _check("area", "centre"))]            # filled: another dialogue
    filled, mine = split_own(checks, own)
    assert [c["text"] for c in mine] == ["Centre", "cheap"]
    assert [c["text"] for c in filled] == ["city centre", "centre", "centre"]
    assert own[("d1", 0)][("area", "centre")] == 1            # the caller's counts kept


def test_values_are_matched_in_their_slot_s_comparable_form_each_as_often_as_given():
    # "moderately priced" is the price range "moderate" (value_key of the slot); the
    # original said it twice, so two checks are the system's own and the third is filled
    own = {("d1", 0): Counter({("pricerange", "moderate"): 2})}
    checks = [("d1", 0, _check("pricerange", "moderately priced"))] * 3
    filled, mine = split_own(checks, own)
    assert (len(mine), len(filled)) == (2, 1)
