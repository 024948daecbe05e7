"""Granular Change Accuracy (mwzrepro.dst.granular_change_accuracy; Aksu & Chen 2024): the
paper's worked example, the authors' other sample dialogues, hand-checkable change fixtures,
the corpus path, properties and bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mwzrepro.dst.corpus import aggregate, score_corpus
from mwzrepro.dst.granular_change_accuracy import (
    ChangeCounts,
    dialogue_changes,
    gca_from_counts,
    turn_changes,
)
from mwzrepro.dst.metrics import flags_from_states, score_dialogue, score_dialogue_flags
from mwzrepro.dst.state import DONTCARE, DialogueFlags, DialogueStates
from tests.unit.dst.test_metrics import fig1
from tests.unit.dst.test_relative_slot_accuracy import GOLD, P1, P2, dialogue

A, B, C = ("hotel", "area"), ("hotel", "name"), ("hotel", "stars")


def pct(v: float) -> float:
    return round(100 * v, 2)


def test_paper_worked_example():
    """The paper's two hypothetical predictions: P1 (2 of 7 changes wrong) 73.33, P2 (6 of 7
    wrong) 15.49 — GCA ranks P1 first where JGA, FGA, AGA and RSA rank P2 first."""
    for pred, counts, gca in ((P1, (5, 2, 0, 0), 73.33), (P2, (1, 6, 0, 0), 15.49)):
        d = dialogue(GOLD, pred)
        assert ChangeCounts.total(dialogue_changes(d.gold, d.pred)) == counts
        s, _ = score_corpus([d], [0.5])
        assert (pct(s.gca), s.gca_changes) == (gca, dict(zip(
            ("correct", "wrong", "over", "missed"), counts)))
    s1, s2 = (score_corpus([dialogue(GOLD, p)], [0.5])[0] for p in (P1, P2))
    assert s1.gca > s2.gca and s1.jga < s2.jga and s1.rsa < s2.rsa


def test_error_position_does_not_matter():
    """The authors' sample pair ``hypothetical_p1/p2`` (SNG0779, six turns, internet and
    parking): one error at the last turn or at the first gives the same GCA, 52.38 (c = w =
    1), while JGA gives 5/6 and 0."""
    gold = [{"hotel": {"internet": "yes"}}] * 5 + [{"hotel": {"internet": "yes",
                                                              "parking": "yes"}}]
    late = [{"hotel": {"internet": "yes"}}] * 5 + [{"hotel": {"internet": "yes",
                                                              "parking": "no"}}]
    early = [{"hotel": {"internet": "no"}}] * 5 + [{"hotel": {"internet": "no",
                                                              "parking": "yes"}}]
    a, b = (score_corpus([dialogue(gold, p, "sng0779")], [0.5])[0] for p in (late, early))
    assert pct(a.gca) == pct(b.gca) == 52.38 and (a.m1, b.m1) == (5, 0)
    # the authors' results/paper_sample_dials/hypothetical_p1.json and _p2.json: RSA 91.67, 8.33
    assert (pct(a.rsa), pct(b.rsa)) == (91.67, 8.33)


def test_authors_sample_dialogue():
    """The authors' real sample ``sample_1`` (MUL1110, 7 turns): the hotel name is right, the
    attraction type is never predicted (missed), the dontcare name is predicted as a venue
    (wrong) and the dontcare area is missed; their results/paper_sample_dials/sample_1.json:
    JGA 28.57, RSA 53.57, GCA 31.43."""
    hotel = {"hotel": {"name": "el shaddia guesthouse"}}
    museum = {**hotel, "attraction": {"type": "museum"}}
    dontcare = {**hotel, "attraction": {"type": "museum", "name": "dontcare",
                                        "area": "dontcare"}}
    artworks = {**hotel, "attraction": {"name": "cambridge artworks"}}
    d = dialogue([hotel, hotel, museum, museum, dontcare, dontcare, dontcare],
                 [hotel, hotel, hotel, hotel, artworks, artworks, artworks], "mul1110")
    s, _ = score_corpus([d], [0.5])
    assert (pct(s.jga), pct(s.rsa), pct(s.gca)) == (28.57, 53.57, 31.43)
    assert s.gca_changes == {"correct": 1, "wrong": 1, "over": 0, "missed": 2}


def test_fga_running_example():
    """PMUL2563: turn 1 hotel name (correct); turn 2 day, people, stay correct, area and stars
    missed; turn 3 attraction area (correct); turn 4 attraction name over-predicted; the
    error carried into turn 5 is not judged again: c = 5, w = 0, o = 1, m = 2; with w = 0,
    GCA = c (D_p + D_r) / (D_p² + D_r²) = 5 · 13 / (36 + 49)."""
    outs = score_dialogue(fig1())
    assert [tuple(o.changes) for o in outs] == [(0, 0, 0, 0), (1, 0, 0, 0), (3, 0, 0, 2),
                                               (1, 0, 0, 0), (0, 0, 1, 0), (0, 0, 0, 0)]
    s = aggregate(outs, [0.5])
    assert s.gca == float(Fraction(65, 85)) and pct(s.gca) == 76.47


def test_change_fixtures():
    # a slot changes in both: judged once on the values after the turn
    assert turn_changes({}, {A: "a"}, {}, {A: "a"}) == (1, 0, 0, 0)
    assert turn_changes({}, {A: "a"}, {}, {A: "z"}) == (0, 1, 0, 0)
    # a late correct prediction (only the prediction changes) is a correct change
    assert turn_changes({A: "a"}, {A: "a"}, {A: "z"}, {A: "a"}) == (1, 0, 0, 0)
    # an old error carried over is not judged again
    assert turn_changes({A: "a"}, {A: "a"}, {A: "z"}, {A: "z"}) == (0, 0, 0, 0)
    # removals: both remove (correct), only the prediction (missed), only the gold (over)
    assert turn_changes({A: "a"}, {}, {A: "a"}, {}) == (1, 0, 0, 0)
    assert turn_changes({A: "a"}, {A: "a"}, {A: "a"}, {}) == (0, 0, 0, 1)
    assert turn_changes({A: "a"}, {}, {A: "a"}, {A: "a"}) == (0, 0, 1, 0)
    # a new gold value the prediction removes: missed once (the released code: wrong + missed)
    assert turn_changes({A: "a"}, {A: "b"}, {A: "a"}, {}) == (0, 0, 0, 1)
    assert turn_changes({}, {A: DONTCARE, B: "b"}, {}, {C: "c"}) == (0, 0, 1, 2)


def test_gca_formula_and_edge_cases():
    # the harmonic mean written out: weights α·D_p, α·D_r, (1−α)·D_p, (1−α)·D_r over P, R,
    # LP, LR; counts (c, w, o, m) = (3, 1, 2, 1): D_p = 6, D_r = 5
    c, w, o, m = 3, 1, 2, 1
    alpha = Fraction(10, 11)
    d_p, d_r = c + w + o, c + w + m
    weights = [alpha * d_p, alpha * d_r, (1 - alpha) * d_p, (1 - alpha) * d_r]
    values = [Fraction(c, d_p), Fraction(c, d_r), Fraction(c + w, d_p), Fraction(c + w, d_r)]
    expected = sum(weights) / sum(wt / v for wt, v in zip(weights, values))
    assert gca_from_counts(ChangeCounts(c, w, o, m)) == float(expected)
    assert gca_from_counts(ChangeCounts(4)) == 1.0
    assert gca_from_counts(ChangeCounts(0, 0, 0, 3)) == 0.0
    assert gca_from_counts(ChangeCounts()) is None
    for bad in (ChangeCounts(-1, 0, 0, 0),):
        with pytest.raises(ValueError, match="≥ 0"):
            gca_from_counts(bad)
    with pytest.raises(ValueError, match="α"):
        gca_from_counts(ChangeCounts(1), Fraction(1))
    with pytest.raises(ValueError, match="one state per turn"):
        dialogue_changes([{}], [])


def test_flag_input_has_no_gca():
    d = fig1()
    outs = score_dialogue_flags(DialogueFlags(d.dialogue_id, flags_from_states(d.gold, d.pred)))
    assert all(o.changes is None for o in outs)
    s = aggregate(outs, [0.5])
    assert s.gca is None and s.gca_changes is None
    assert s.as_dict()["gca"] is None


VALUES = ["a", "b", DONTCARE]
state_st = st.dictionaries(st.sampled_from([A, B, C, ("train", "day")]),
                           st.sampled_from(VALUES), max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(state_st, state_st), min_size=1, max_size=6),
                min_size=1, max_size=3))
def test_properties(pairs_list):
    ds = [DialogueStates(f"d{i}", tuple(g for g, _ in p), tuple(q for _, q in p))
          for i, p in enumerate(pairs_list)]
    s, _ = score_corpus(ds, [0.5])
    assert s.gca is None or 0 <= s.gca <= 1
    counts = ChangeCounts(**s.gca_changes)
    assert (s.gca == 1.0) == (counts.correct > 0 and sum(counts) == counts.correct)
    # the summation order does not matter (rational arithmetic)
    assert score_corpus(ds[::-1], [0.5])[0].gca == s.gca
    # prediction = gold: every change correct, GCA = 100 (None when no slot ever changes)
    perfect, _ = score_corpus([DialogueStates(d.dialogue_id, d.gold, d.gold) for d in ds],
                              [0.5])
    assert perfect.gca in (None, 1.0)
    assert (perfect.gca is None) == all(not g for d in ds for g in d.gold)
