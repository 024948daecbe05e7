"""Unit tests of mwzrepro.dst.matchers against spec-dst-metrics §2.7 and §8 (§11.5 fuzzy
matching table, rewriting of predictions)."""

from __future__ import annotations

import pytest

from mwzrepro.dst.matchers import (
    IndelMatcher,
    LevenshteinMatcher,
    make_matcher,
    rewrite_predictions,
)
from mwzrepro.dst.metrics import score_dialogue
from mwzrepro.dst.state import DONTCARE, DialogueStates

A, B, C = ("hotel", "area"), ("hotel", "name"), ("hotel", "stars")
LAMBDAS = [0.25, 0.5, 0.75, 1.0]


# ------------------------------------------------------------------------------------------
# §11.5 fuzzy matching

FUZZY_TABLE = [
    # gold, prediction, lev, Lev %, Indel %, partial %, accept
    ("huntingdon marriott", "huntingdon marriott hotel", 6, 76.00, 86.36, 100.00, False),
    ("guesthouse", "guest house", 1, 90.91, 95.24, 90.00, True),
    ("nightclub", "night club", 1, 90.00, 94.74, 88.89, True),
    ("concerthall", "concert hall", 1, 91.67, 95.65, 90.91, True),
    ("alpha-milton guest house", "alpha milton guest house", 1, 95.83, 95.83, 95.83, True),
    ("restaurant two two", "restaurant 2 two", 3, 83.33, 88.24, 93.33, False),
    ("the cambridge punter", "cambridge punter", 4, 80.00, 88.89, 100.00, False),
    ("saint johns college", "saint john's college", 1, 95.00, 97.44, 94.74, True),
    ("museum of archaelogy and anthropology", "museum of archaeology and anthropology", 1,
     97.37, 98.67, 97.30, True),
    ("17:15", "17:45", 1, 80.00, 80.00, 80.00, False),
    ("2", "12", 1, 50.00, 66.67, 100.00, False),
    ("tuesday", "thursday", 2, 75.00, 80.00, 76.92, False),
    ("centre", "center", 2, 66.67, 83.33, 90.91, False),
]


@pytest.mark.parametrize("gold, pred, lev, lev_pct, indel_pct, partial_pct, accept", FUZZY_TABLE)
def test_fuzzy_unit_table(gold, pred, lev, lev_pct, indel_pct, partial_pct, accept):
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Levenshtein

    assert Levenshtein.distance(gold, pred) == lev
    assert round(100 * (1 - lev / max(len(gold), len(pred))), 2) == lev_pct
    assert round(fuzz.ratio(gold, pred), 2) == indel_pct
    assert round(fuzz.partial_ratio(gold, pred), 2) == partial_pct
    m = LevenshteinMatcher(0.9)
    assert m.accepts(gold, pred) is accept
    # Indel similarity is never below Levenshtein similarity (§8.3)
    assert indel_pct >= lev_pct
    if accept:
        assert IndelMatcher(0.9).accepts(gold, pred)


def test_fuzzy_boundary_is_inclusive_and_rational():
    # nightclub/night club is exactly 0.9: accepted at 0.9, rejected just above
    assert LevenshteinMatcher("0.9").accepts("nightclub", "night club")
    assert not LevenshteinMatcher("0.9001").accepts("nightclub", "night club")
    assert LevenshteinMatcher(1).accepts("a", "a") and not LevenshteinMatcher(1).accepts("a", "b")
    # the Indel profile accepts a pair Levenshtein rejects
    assert IndelMatcher(0.86).accepts("huntingdon marriott", "huntingdon marriott hotel")
    assert not LevenshteinMatcher(0.86).accepts("huntingdon marriott", "huntingdon marriott hotel")


def test_fuzzy_never_matches_dontcare():
    m = LevenshteinMatcher(0.0)
    assert not m.accepts(DONTCARE, "dontcar") and not m.accepts("cheap", DONTCARE)
    assert m.accepts(DONTCARE, DONTCARE)


def test_make_matcher():
    assert make_matcher("exact").name == "exact"
    m = make_matcher("fuzzy-levenshtein", 0.95)
    assert m.name == "fuzzy-levenshtein" and str(m.threshold) == "19/20"
    with pytest.raises(ValueError, match="unknown matcher"):
        make_matcher("fuzzy-partial")
    with pytest.raises(ValueError):
        make_matcher("fuzzy-levenshtein", 1.5)


def test_fuzzy_turn_fixture():
    gold = {("hotel", "type"): "guesthouse", ("hotel", "area"): "centre"}
    pred = {("hotel", "type"): "guest house", ("hotel", "area"): "centre"}
    d = DialogueStates("d", (gold,), (pred,))
    assert not score_dialogue(d)[0].exact
    at90 = score_dialogue(d, LevenshteinMatcher(0.9))[0]
    assert at90.exact and at90.rewrites == 1
    assert not score_dialogue(d, LevenshteinMatcher(0.95))[0].exact


def test_rewriting_rules():
    gold = {A: "guesthouse", B: "centre"}
    pred = {A: "guest house", C: "centre"}
    out = rewrite_predictions(gold, pred, LevenshteinMatcher(0.9))
    assert out == {A: "guesthouse", C: "centre"}  # never adds or removes slots
    assert rewrite_predictions(gold, pred) == pred  # exact matcher
    # 2.2 alternatives: equality with any alternative rewrites to the first spelling
    alts = {A: ("guesthouse", "guest house")}
    assert rewrite_predictions(gold, pred, alternatives=alts)[A] == "guesthouse"


def test_rewriting_feeds_turn_level_states():
    """T'_t is computed from the rewritten B'_{t-1}: a fuzzy-accepted spelling that persists
    is not a new turn-level prediction."""
    gold = ({A: "nightclub"}, {A: "nightclub", B: "x"})
    pred = ({A: "night club"}, {A: "night club", B: "y"})
    d = DialogueStates("d", gold, pred)
    exact = score_dialogue(d)
    fuzzy = score_dialogue(d, LevenshteinMatcher(0.9))
    assert [o.kind for o in exact] == ["TYPE1", "TYPE1"]
    assert [o.kind for o in fuzzy] == ["EXACT", "TYPE1"]
