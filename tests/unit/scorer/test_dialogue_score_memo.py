"""The scores of a ``tables-grounded`` row kept dialogue by dialogue
(:mod:`mwzrepro.scorer.lexicalized.dialogue_score_memo`), on the two-dialogue mwz21 fixture:
on random mappings whose states hold misspelt venues and foods, the scores at one fuzzy
threshold from the memo of a run at another are those computed without a memo, in every
setting and grounding figure; a dialogue whose queries answer otherwise is scored again; the
row's file is read back only under its key."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.scorer.lexicalized.dialogue_score_memo import (
    DialogueScoreMemo,
    load_scores,
    save_scores,
)
from mwzrepro.scorer.lexicalized.prepared_memo import PreparedMemo
from mwzrepro.scorer.scoring import score_prepared
from tests.unit.scorer.test_lexicalized_scoring import evaluator

#: Thresholds at which the fixture database answers the states below differently
#: (partial ratios: "chnese" 83 to "chinese", "dojo nodle bar" 93 to "dojo noodle bar" and 80
#: to "jinling noodle bar", "charly chan" 82 to "charlie chan").
THRESHOLDS = (75, 85, 95)


@pytest.fixture(scope="module")
def by_threshold(mini):
    return {t: evaluator(mini, lexicalized=True, setting="all", bleu=False, richness=False,
                         fuzzy_threshold=t) for t in THRESHOLDS}


STATES = [{"restaurant": {"food": "chnese", "area": "centre"}},
          {"restaurant": {"name": "dojo nodle bar"}},
          {"restaurant": {"name": "charly chan", "pricerange": "cheap"}},
          {"restaurant": {"food": "chinese", "area": "centre", "pricerange": "cheap"}},
          {"taxi": {"destination": "ballare"}}, {}]
TEXTS = ["[Dojo Noodle Bar] is at a2 .", "the postcode is CB1 2DP .", "call 07712 345678 .",
         "charlie chan is in the centre , its phone is 01223 361763 .",
         "i recommend The Golden Dragon .", "[restaurant_name] is a cheap place .",
         "thank you , goodbye ."]


def turn():
    return st.fixed_dictionaries({"response": st.sampled_from(TEXTS),
                                  "state": st.sampled_from(STATES)})


@st.composite
def mappings(draw):
    """A mapping of the fixture's dialogues (2 and 1 system turns), sometimes one only."""
    out = {"sng9001": draw(st.lists(turn(), min_size=2, max_size=2))}
    if draw(st.booleans()):
        out["sng9002"] = draw(st.lists(turn(), min_size=1, max_size=1))
    return out


def figures(result):
    """A result's dict and its attribute checks (which the dict leaves out)."""
    return result.to_dict(), result.grounding.checks


def scored(ev, data, entries=None):
    """``(figures, the memo)`` of ``data`` scored from a memo holding ``entries``."""
    prepared = PreparedMemo()
    prep = prepared.prepare(ev, data, "x.json")
    memo = DialogueScoreMemo(entries, prepared.keys)
    return figures(score_prepared(ev, data, prep, "sys", "x.json", memo=memo)), memo


def plain(ev, data):
    return figures(score_prepared(ev, data, ev._prepare(data, "x.json"), "sys", "x.json"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mappings(), mappings(), st.sampled_from(THRESHOLDS), st.sampled_from(THRESHOLDS))
def test_scores_from_a_memo_at_another_threshold_are_the_plain_scores(
        by_threshold, first, second, a, b):
    _, memo = scored(by_threshold[a], first)
    for data in (second, first):
        got, again = scored(by_threshold[b], data, memo.used)
        assert got == plain(by_threshold[b], data)


def test_a_dialogue_whose_queries_answer_otherwise_is_scored_again(by_threshold):
    data = {"sng9001": [{"response": "[restaurant_name] is a cheap place .", "state": STATES[0]},
                        {"response": "the postcode is CB1 2DP .", "state": STATES[0]}],
            "sng9002": [{"response": "thank you , goodbye .", "state": STATES[4]}]}
    low, high = by_threshold[75], by_threshold[95]
    assert plain(low, data)[0]["success"] != plain(high, data)[0]["success"]  # "chnese" flips
    _, memo = scored(low, data)
    assert memo.anew == len(memo.used) == 8  # 2 dialogues x (standard, optimistic,
    # grounded, grounding)
    same, again = scored(low, data, memo.used)
    assert again.anew == 0 and same == plain(low, data)
    got, again = scored(high, data, memo.used)
    assert got == plain(high, data)
    # the taxi dialogue queries nothing and is read; the restaurant one asked the database
    assert 0 < again.anew < 8


def test_without_a_digest_the_figure_is_computed(by_threshold):
    db = VenueDatabase({"hotel": [{"id": "1", "name": "acorn", "area": "north"}]})
    memo = DialogueScoreMemo({}, {})
    assert memo.value(("x",), "d1", db, lambda d: d.query("hotel", {"area": "north"})) == ["1"]
    assert memo.used == {} and memo.anew == 0


def test_unreplayable_queries_are_not_kept():
    db = VenueDatabase({"hotel": [{"id": "1", "name": "acorn", "area": "north"}]})
    memo = DialogueScoreMemo(keys={"d1": b"k"})
    memo.value(("x",), "d1", db, lambda d: d.query("hotel", {"area": ["north"]}))
    assert memo.used == {} and memo.anew == 1


def test_the_file_is_read_back_only_under_its_key(by_threshold, mini, tmp_path):
    ev = by_threshold[85]
    data = {"sng9001": [{"response": "[Dojo Noodle Bar] is at a2 .", "state": STATES[1]},
                        {"response": "bye .", "state": STATES[1]}]}
    _, memo = scored(ev, data)
    save_scores(memo, tmp_path, "augpt, filled", "k1", ev)
    assert [p.name for p in (tmp_path / "scores").iterdir()] == ["augpt_filled.pickle"]
    back = load_scores(tmp_path, "augpt, filled", "k1", ev, {"d": b"x"})
    assert back.entries.keys() == memo.used.keys() and back.keys == {"d": b"x"}
    assert load_scores(tmp_path, "augpt, filled", "k2", ev, {}).entries == {}
    other = evaluator(mini, lexicalized=True, setting="standard", bleu=False, richness=False)
    assert load_scores(tmp_path, "augpt, filled", "k1", other, {}).entries == {}
    (tmp_path / "scores" / "augpt_filled.pickle").write_bytes(b"damaged")
    assert load_scores(tmp_path, "augpt, filled", "k1", ev, {}).entries == {}
