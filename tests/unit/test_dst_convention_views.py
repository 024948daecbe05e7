"""The interned views of the DST scoring conventions (mwzrepro.dst.conventions.views): a
corpus's turns as positions into its distinct raw states, one view id per distinct view, one
cache shared by corpora on the same raw states (the gold of a version across systems), the
warmed gold views, and the first unreadable value in turn order; scores equal those of a
fresh cache per corpus."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mwzrepro.core.errors import InputError
from mwzrepro.dst.conventions.ladder import ladder_conventions
from mwzrepro.dst.conventions.presets import PRESETS
from mwzrepro.dst.conventions.scoring import score_corpus, turn_outcomes
from mwzrepro.dst.conventions.switches import Convention
from mwzrepro.dst.conventions.tables import figure_conventions, system_figures
from mwzrepro.dst.conventions.turns import RawDialogue, distinct_turns
from mwzrepro.dst.conventions.views import ViewCache, turn_index

NORTH, DONTCARE = (("hotel", "area", "north"),), (("hotel", "area", "dontcare"),)
P_NORTH, P_SOUTH = {"hotel": {"area": "north"}}, {"hotel": {"area": "South "}}


def test_turn_index_positions_and_dialogue_scope():
    """Three turns over two dialogues: gold NORTH twice (one position), the excluded PMUL1455
    left out under dial:fga; turns count the gold turns of each dialogue."""
    corpus = [RawDialogue("mul0001", (NORTH, DONTCARE), (P_NORTH, P_SOUTH)),
              RawDialogue("pmul1455", (NORTH,), (P_SOUTH,))]
    ix = turn_index(corpus)
    assert ix.gold == (NORTH, DONTCARE) and ix.pred == (P_NORTH, P_SOUTH)
    assert ix.gold_at.tolist() == [0, 1, 0] and ix.pred_at.tolist() == [0, 1, 1]
    assert ix.first_seen == ((0, 0), (1, 0), (0, 1), (1, 1))
    assert ix.in_fga.tolist() == [True, True, False]
    assert ix.dialogues == {"all": 2, "fga": 1} and ix.turns == {"all": 3, "fga": 2}


def test_equal_views_share_one_id_across_sides_and_conventions():
    """Gold 'north' and predicted 'north' are one view; 'South ' is 'south' under fga and
    its own view under clean:none; dropping gold dontcare empties the second gold turn."""
    cache = ViewCache()
    ix = cache.turn_index([RawDialogue("mul0001", (NORTH, DONTCARE), (P_NORTH, P_SOUTH))])
    gids, pids = cache.turn_ids(ix, Convention())
    assert gids.tolist() == [0, 1] and pids.tolist() == [0, 2]
    assert cache.views == [{("hotel", "area"): "north"}, {("hotel", "area"): "dontcare"},
                           {("hotel", "area"): "south"}]
    gids, _ = cache.turn_ids(ix, Convention(gdc="drop"))
    assert gids.tolist() == [0, 3] and cache.views[3] == {}
    _, pids = cache.turn_ids(ix, Convention(clean="none"))
    assert cache.views[pids[1]] == {("hotel", "area"): "South "}


def test_turn_outcomes_count_wrong_slots_per_turn():
    """Turn 1: gold dontcare, predicted south (one wrong slot); under pscope:gold-dom a
    prediction of a domain the gold lacks is dropped."""
    cache = ViewCache()
    corpus = [RawDialogue("mul0001", (NORTH, DONTCARE, ()),
                          (P_NORTH, P_SOUTH, {"taxi": {"day": "monday"}}))]
    ix = cache.turn_index(corpus)
    joint, wrong = turn_outcomes(cache, ix, Convention())
    assert joint.tolist() == [1, 0, 1] and wrong.tolist() == [0, 1, 0]  # taxi: not in the 30
    joint, wrong = turn_outcomes(cache, ix, Convention(slots="all"))
    assert joint.tolist() == [1, 0, 0] and wrong.tolist() == [0, 1, 1]
    joint, wrong = turn_outcomes(cache, ix, Convention(slots="all", pscope="gold-dom"))
    assert joint.tolist() == [1, 0, 1] and wrong.tolist() == [0, 1, 0]


def test_one_cache_serves_corpora_on_the_same_gold():
    """Two systems on one gold: the second adds no gold view, and every count equals a
    fresh cache's."""
    gold = [NORTH, DONTCARE]
    a = [RawDialogue("mul0001", tuple(gold), (P_NORTH, P_NORTH))]
    b = [RawDialogue("mul0001", tuple(gold), (P_SOUTH, {"hotel": {"area": "dontcare"}}))]
    cache = ViewCache()
    cache.warm_gold(gold, PRESETS.values())
    n_gold_views = len(cache.views)
    for corpus in (a, b):
        for c in PRESETS.values():
            assert score_corpus(corpus, c, cache) == score_corpus(corpus, c)
    assert score_corpus(b, PRESETS["fga"], cache).joint == 1  # the dontcare turn
    assert cache.views[:n_gold_views] == [{("hotel", "area"): "north"},
                                          {("hotel", "area"): "dontcare"}, {}]


def test_a_copy_keeps_what_it_adds():
    cache = ViewCache()
    cache.warm_gold([NORTH], [Convention()])
    local = cache.copy()
    corpus = [RawDialogue("mul0001", (NORTH,), (P_SOUTH,))]
    assert score_corpus(corpus, Convention(), local).joint == 0
    assert local.views == [{("hotel", "area"): "north"}, {("hotel", "area"): "south"}]
    assert cache.views == [{("hotel", "area"): "north"}] and not cache.memo


def test_figure_conventions_are_every_convention_system_figures_scores():
    """The warmed list is complete: the conventions system_figures scores (the cache's
    memo) are exactly figure_conventions(): 6 presets and the ladder's 2^6 subsets, two
    presets (fga, mwzeval) among them."""
    cache = ViewCache()
    system_figures("s", "s", "mwz21", [RawDialogue("mul0001", (NORTH,), (P_NORTH,))], cache)
    scored = {k for k in cache.memo if isinstance(k, Convention)}
    assert scored == set(figure_conventions()) and len(scored) == 6 + 64 - 2
    assert len(ladder_conventions(PRESETS["fga"], PRESETS["mwzeval"])) == 64


def test_the_first_unreadable_value_in_turn_order_is_raised():
    """Turn 0's prediction comes before turn 1's gold (both unreadable by the reference's
    time normalization, spec-standard-evaluation §4.6 step 7): the error names turn 0's
    value; warming the gold views alone names the gold's."""
    bad_gold = (("train", "leaveat", "ab:10 pm"),)
    corpus = [RawDialogue("mul0001", ((), bad_gold),
                          ({"train": {"leaveAt": "cd:20 pm"}}, {}))]
    with pytest.raises(InputError, match="'cd:20 pm'"):
        score_corpus(corpus, PRESETS["mwzeval"])
    with pytest.raises(InputError, match="'ab:10 pm'"):
        ViewCache().warm_gold(distinct_turns({"mul0001": list(corpus[0].gold)}),
                              [PRESETS["mwzeval"]])
    assert distinct_turns({"mul0001": list(corpus[0].gold)}) == [(), bad_gold]


VALUES = st.sampled_from(["north", "North ", "dontcare", "none", "4 pm", "16:00", ""])
STATE = st.dictionaries(st.sampled_from(["area", "leaveat", "book people", "people"]),
                        VALUES, max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(STATE, STATE, STATE), min_size=1, max_size=4))
def test_shared_cache_scores_equal_fresh_scores(turns):
    """Two systems' predictions on one gold, scored through one warmed cache (copied per
    system as the command does), count as with a fresh cache per corpus."""
    gold = [tuple(("hotel", s, v) for s, v in g.items()) for g, _, _ in turns]
    systems = [[RawDialogue("mul0001", tuple(gold), tuple({"hotel": p[i]} for p in turns))]
               for i in (1, 2)]
    cache = ViewCache()
    cache.warm_gold(gold, figure_conventions())
    for corpus in systems:
        local = cache.copy()
        for c in figure_conventions():
            assert score_corpus(corpus, c, local) == score_corpus(corpus, c)
