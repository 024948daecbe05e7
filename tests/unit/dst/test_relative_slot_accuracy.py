"""Relative Slot Accuracy (mwzrepro.dst.relative_slot_accuracy; Kim et al. 2022, Eq. 2): the
worked examples, hand-checkable fixtures, the corpus path through the per-turn outcomes,
properties and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mwzrepro.dst.corpus import aggregate, score_corpus
from mwzrepro.dst.metrics import flags_from_states, score_dialogue, score_dialogue_flags, \
    slot_accuracy
from mwzrepro.dst.relative_slot_accuracy import corpus_rsa, relative_slot_accuracy, rsa_terms
from mwzrepro.dst.state import DONTCARE, SLOT_INDEX, DialogueFlags, DialogueStates
from tests.unit.dst.test_metrics import fig1, nested

A, B, C = ("hotel", "area"), ("hotel", "name"), ("hotel", "stars")


def pct(v: float) -> float:
    return round(100 * v, 2)


# The hypothetical predictions P1 and P2 of the GCA paper (Aksu & Chen 2024; the authors'
# repository, data/poc/paper1.json and paper2.json): one dialogue of three turns, seven slots.
GOLD = [{"hotel": {"internet": "yes"}},
        {"hotel": {"internet": "yes", "parking": "yes"}},
        {"hotel": {"internet": "yes", "parking": "yes", "book day": "sunday",
                   "book people": "6", "book stay": "4", "pricerange": "cheap",
                   "type": "guest house"}}]
P1 = [{"hotel": {"internet": "no"}},
      {"hotel": {"internet": "no", "parking": "no"}},
      {"hotel": {"internet": "no", "parking": "no", "book day": "sunday", "book people": "6",
                 "book stay": "4", "pricerange": "cheap", "type": "guest house"}}]
P2 = [{"hotel": {"internet": "yes"}},
      {"hotel": {"internet": "yes", "parking": "no"}},
      {"hotel": {"internet": "yes", "parking": "no", "book day": "Monday", "book people": "3",
                 "book stay": "2", "pricerange": "expensive", "type": "hotel"}}]


def dialogue(gold, pred, did="mul0003") -> DialogueStates:
    return DialogueStates(did, tuple(nested(g) for g in gold), tuple(nested(p) for p in pred))


def test_gca_paper_hypothetical_predictions():
    """P1 gets 5 of the 7 slots right but its first two turns wrong; P2 gets turn 0 right and
    then 1 of 7: per turn (T* − M − W)/T* = 0/1, 0/2, 5/7 (P1) and 1/1, 1/2, 1/7 (P2), so RSA
    ranks P2 above P1, as the GCA paper says of every turn-level metric."""
    for pred, per_turn, total in ((P1, [(0, 1), (0, 2), (5, 7)], 23.81),
                                  (P2, [(1, 1), (1, 2), (1, 7)], 54.76)):
        d = dialogue(GOLD, pred)
        assert [rsa_terms(g, p) for g, p in zip(d.gold, d.pred)] == per_turn
        s, _ = score_corpus([d], [0.5])
        assert (pct(s.rsa), s.rsa_turns) == (total, 3)   # the authors' results/poc/paper1.json,
                                                          # paper2.json: RSA 23.81 and 54.76


def test_fga_running_example():
    """The FGA paper's running example PMUL2563: turn 0 has T* = 0 and is left out; then 1/1, 4/6,
    5/7, 5/8, 5/8 (the predicted attraction name adds a slot to T*)."""
    d = fig1()
    assert [relative_slot_accuracy(g, p) for g, p in zip(d.gold, d.pred)] == \
        [None, 1.0, 4 / 6, 5 / 7, 5 / 8, 5 / 8]
    s, _ = score_corpus([d], [0.5])
    assert (pct(s.rsa), s.rsa_turns) == (72.62, 5)
    # without a wrong value RSA_t equals relative AGA; with one it does not (next test)
    assert s.rsa == pytest.approx(s.aga_relative, abs=1e-15)


def test_hand_checkable_fixtures():
    # a wrong value counts once: T* = {A, B, C} = 3, correct = 0 → 0; SA counts it once too
    assert rsa_terms({A: "a", B: "b"}, {A: "z", C: "c"}) == (0, 3)
    assert slot_accuracy({A: "a", B: "b"}, {A: "z", C: "c"}) == 27 / 30
    # one of two right, one wrong: 1/2 (relative AGA: 1/3, the wrong slot in two triples)
    assert rsa_terms({A: "a", B: "b"}, {A: "a", B: "x"}) == (1, 2)
    assert rsa_terms({A: "a"}, {A: "a", C: "c"}) == (1, 2)
    # dontcare is a value (spec-dst-metrics §2.3)
    assert relative_slot_accuracy({A: DONTCARE}, {A: DONTCARE}) == 1.0
    # an empty gold state with a prediction is eligible and scores 0 (AGA skips such turns)
    assert relative_slot_accuracy({}, {A: "a"}) == 0.0
    assert relative_slot_accuracy({}, {}) is None


def test_flag_path_gives_the_same_rsa():
    """From per-slot flags with gold presence (TripPy's released form) T* = hits + wrong."""
    d = fig1()
    present = tuple(frozenset(SLOT_INDEX[s] for s in g) for g in d.gold)
    flags = score_dialogue_flags(DialogueFlags(d.dialogue_id, flags_from_states(d.gold, d.pred),
                                               present))
    assert aggregate(flags, [0.5]).rsa == aggregate(score_dialogue(d), [0.5]).rsa
    no_gold = score_dialogue_flags(DialogueFlags("m", flags_from_states(d.gold, d.pred)))
    assert aggregate(no_gold, [0.5]).rsa is None


def test_corpus_rsa_bad_terms():
    assert corpus_rsa([(0, 0)]) == (None, 0)
    for bad in [(-1, 2), (3, 2), (0, -1)]:
        with pytest.raises(ValueError, match="0 ≤ correct ≤ T"):
            corpus_rsa([bad])


VALUES = ["a", "b", DONTCARE]
state_st = st.dictionaries(st.sampled_from([A, B, C, ("train", "day")]),
                           st.sampled_from(VALUES), max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(state_st, state_st), min_size=1, max_size=8))
def test_properties(pairs):
    gold = tuple(g for g, _ in pairs)
    d = DialogueStates("d", gold, tuple(p for _, p in pairs))
    s = aggregate(score_dialogue(d), [0.5])
    direct = corpus_rsa(rsa_terms(g, p) for g, p in pairs)
    assert (s.rsa, s.rsa_turns) == direct      # the outcome path is Eq. 2
    for g, p in pairs:                          # T* ≤ 30: RSA_t never exceeds SA_t
        r = relative_slot_accuracy(g, p)
        assert r is None or 0 <= r <= slot_accuracy(g, p)
        assert (r == 1.0) == (g == p and bool(g or p))
    perfect = aggregate(score_dialogue(DialogueStates("d", gold, gold)), [0.5])
    assert perfect.rsa in (None, 1.0)           # prediction = gold: RSA = 100
    assert (perfect.rsa is None) == all(not g for g in gold)
