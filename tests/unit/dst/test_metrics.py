"""Unit tests of mwzrepro.dst.metrics and mwzrepro.dst.corpus against spec-dst-metrics: the
running example, the FGA rule fixtures, published weights, properties."""

from __future__ import annotations

import importlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mwzrepro.dst import metrics as dst
from mwzrepro.dst.corpus import (
    aggregate,
    fga_from_counts,
    score_corpus,
    score_corpus_two_matchers,
)
from mwzrepro.dst.matchers import LevenshteinMatcher
from mwzrepro.dst.metrics import (
    classify_turns,
    fga_weight,
    flags_from_states,
    lambda_from_forgetting,
    score_dialogue,
    score_dialogue_flags,
)
from mwzrepro.dst.state import (
    DONTCARE,
    SLOT_INDEX,
    DialogueFlags,
    DialogueStates,
    DSTError,
    make_state,
)

LAMBDAS = [0.25, 0.5, 0.75, 1.0]


def nested(d: dict) -> dict:
    """{domain: {slot: value}} (aliases allowed) → canonical state."""
    return make_state((dom, s, v) for dom, slots in d.items() for s, v in slots.items())


# ------------------------------------------------------------------------------------------
# §11.1 the running example (paper Figure 1, PMUL2563)

FIG1_GOLD = [
    {},
    {"hotel": {"name": "cityroomz"}},
    {"hotel": {"area": "centre", "day": "wednesday", "people": "4", "stay": "2",
               "name": "cityroomz", "stars": "0"}},
    {"attraction": {"area": "centre"},
     "hotel": {"area": "centre", "day": "wednesday", "people": "4", "stay": "2",
               "name": "cityroomz", "stars": "0"}},
    {"attraction": {"area": "centre"},
     "hotel": {"area": "centre", "day": "wednesday", "people": "4", "stay": "2",
               "name": "cityroomz", "stars": "0"}},
    {"attraction": {"area": "centre"},
     "hotel": {"area": "centre", "day": "wednesday", "people": "4", "stay": "2",
               "name": "cityroomz", "stars": "0"}},
]
FIG1_PRED = [
    {},
    {"hotel": {"name": "cityroomz"}},
    {"hotel": {"day": "wednesday", "people": "4", "stay": "2", "name": "cityroomz"}},
    {"attraction": {"area": "centre"},
     "hotel": {"day": "wednesday", "people": "4", "stay": "2", "name": "cityroomz"}},
    {"attraction": {"area": "centre", "name": "all saints church"},
     "hotel": {"day": "wednesday", "people": "4", "stay": "2", "name": "cityroomz"}},
    {"attraction": {"area": "centre", "name": "all saints church"},
     "hotel": {"day": "wednesday", "people": "4", "stay": "2", "name": "cityroomz"}},
]


def fig1() -> DialogueStates:
    return DialogueStates("pmul2563", tuple(nested(g) for g in FIG1_GOLD),
                          tuple(nested(p) for p in FIG1_PRED))


W1 = 1 - math.exp(-0.5)
W2 = 1 - math.exp(-1.0)


def test_running_example_per_turn():
    outs = score_dialogue(fig1())
    assert [o.exact for o in outs] == [True, True, False, False, False, False]
    assert [o.kind for o in outs] == ["EXACT", "EXACT", "TYPE1", "TYPE2", "TYPE1", "TYPE2"]
    assert [o.x for o in outs] == [None, None, None, 1.0, None, 1.0]
    assert [o.local for o in outs] == [None, True, False, True, False, True]
    assert [30 - o.n_wrong for o in outs] == [30, 30, 28, 28, 27, 27]
    assert [(o.hits, o.gold_slots) for o in outs] == [(0, 0), (1, 1), (4, 6), (5, 7), (5, 7),
                                                     (5, 7)]
    assert [o.union for o in outs][1:] == [1, 6, 7, 8, 8]
    weights = [fga_weight(o.kind, o.x, 0.5) for o in outs]
    assert weights == pytest.approx([1, 1, 0, 0.393469, 0, 0.393469], abs=1e-6)
    # the paper's 46.33 is the mean of the weights rounded to two decimals (spec §9 D4)
    assert round(100 * sum(round(w, 2) for w in weights) / 6, 2) == 46.33


def test_slot_accuracy_eq1_and_sa_example():
    """Eq. (1) with the |P ∩ Q| term; the paper's SA example is turn 2: 28/30 (spec §9 D5)."""
    d = fig1()
    assert dst.slot_accuracy(d.gold[2], d.pred[2]) == 28 / 30
    assert round(100 * dst.slot_accuracy(d.gold[2], d.pred[2]), 2) == 93.33
    wrong_value = ({A: "a", B: "b"}, {A: "z", C: "c"})
    assert dst.slot_accuracy(*wrong_value) == 27 / 30  # A counted once, B missing, C extra
    assert dst.wrong_slots(*wrong_value) == {A, B, C}


def test_running_example_totals():
    s, _ = score_corpus([fig1()], [0.0, *LAMBDAS, 1e6])
    assert (s.dialogues, s.turns, s.m1, s.m2, s.aga_turns) == (1, 6, 2, 4, 5)
    pct = lambda v: round(100 * v, 2)  # noqa: E731
    assert pct(s.jga) == 33.33 and pct(s.sa) == 94.44
    assert pct(s.aga) == 76.19 and pct(s.aga_relative) == 72.62
    assert [pct(s.fga[lam]) for lam in LAMBDAS] == [40.71, 46.45, 50.92, 54.40]
    assert s.fga[0.5] == pytest.approx((2 + 2 * W1) / 6, abs=1e-15)
    assert s.fga[0.0] == s.jga
    assert pct(s.fga[1e6]) == 66.67
    assert s.type2_distances == {"1": 2}


def test_running_example_through_the_flag_path():
    d = fig1()
    flags = flags_from_states(d.gold, d.pred)
    errors = [frozenset(i for i, f in enumerate(v) if f == 0) for v in flags]
    assert errors == [frozenset(), frozenset(), {15, 18}, {15, 18}, {15, 18, 22},
                      {15, 18, 22}]
    present = tuple(frozenset(SLOT_INDEX[s] for s in g) for g in d.gold)
    outs = score_dialogue_flags(DialogueFlags("pmul2563", flags, present))
    assert [o.kind for o in outs] == ["EXACT", "EXACT", "TYPE1", "TYPE2", "TYPE1", "TYPE2"]
    s = aggregate(outs, LAMBDAS)
    ref, _ = score_corpus([d], LAMBDAS)
    assert (s.m1, s.m2, s.jga, s.sa, s.aga, s.fga) == (ref.m1, ref.m2, ref.jga, ref.sa, ref.aga,
                                                       ref.fga)
    assert s.aga_relative is None  # not computable from flags
    without_gold = aggregate(score_dialogue_flags(DialogueFlags("pmul2563", flags)), LAMBDAS)
    assert without_gold.aga is None and without_gold.jga == ref.jga


# ------------------------------------------------------------------------------------------
# §11.2 hand-checkable FGA rule fixtures, three variants. A, B, C are hotel-area, hotel-name
# and hotel-stars so that the flag path can run on the same states.

A, B, C = ("hotel", "area"), ("hotel", "name"), ("hotel", "stars")

FIXTURES = {
    "F2": (
        [{A: "a", B: "b"}, {A: "a", B: "b"}, {A: "a", B: "b", C: "c"}],
        [{A: "z", B: "y"}, {A: "a", B: "y"}, {A: "a", B: "y", C: "c"}],
        {"normative": [("TYPE1", None), ("TYPE2", 1.0), ("TYPE2", 2.0)],
         "flag": [("TYPE1", None), ("TYPE1", None), ("TYPE2", 1.0)],
         "paper_literal": [("TYPE1", None), ("TYPE2", 1.0), ("TYPE2", 2.0)]},
        [28, 29, 29],
    ),
    "F3": (
        [{A: "a"}, {A: "a", B: "b"}, {A: "a", B: "c"}],
        [{A: "a"}, {A: "a", B: "z"}, {A: "a", B: "z"}],
        {"normative": [("EXACT", None), ("TYPE1", None), ("TYPE1", None)],
         "flag": [("EXACT", None), ("TYPE1", None), ("TYPE2", 1.0)],
         "paper_literal": [("EXACT", None), ("TYPE1", None), ("TYPE1", None)]},
        [30, 29, 29],
    ),
    "F4": (
        [{A: "a"}, {A: "a"}, {A: "a"}],
        [{A: "a"}, {}, {}],
        {"normative": [("EXACT", None), ("TYPE1", None), ("TYPE2", 1.0)],
         "flag": [("EXACT", None), ("TYPE1", None), ("TYPE2", 1.0)],
         "paper_literal": [("EXACT", None), ("TYPE2", math.inf), ("TYPE2", math.inf)]},
        [30, 29, 29],
    ),
}
EXPECTED_WEIGHTS = {
    ("F2", "normative"): [0, W1, W2], ("F2", "flag"): [0, 0, W1],
    ("F2", "paper_literal"): [0, W1, W2],
    ("F3", "normative"): [1, 0, 0], ("F3", "flag"): [1, 0, W1],
    ("F3", "paper_literal"): [1, 0, 0],
    ("F4", "normative"): [1, 0, W1], ("F4", "flag"): [1, 0, W1],
    ("F4", "paper_literal"): [1, 1, 1],
}


def run_variant(name: str, variant: str):
    gold, pred, _, _ = FIXTURES[name]
    d = DialogueStates(name, tuple(gold), tuple(pred))
    if variant == "flag":
        return score_dialogue_flags(DialogueFlags(name, flags_from_states(gold, pred)))
    return score_dialogue(d, variant="paper_literal" if variant == "paper_literal" else "scripts")


@pytest.mark.parametrize("name", sorted(FIXTURES))
@pytest.mark.parametrize("variant", ["normative", "flag", "paper_literal"])
def test_fga_rule_fixtures(name, variant):
    outs = run_variant(name, variant)
    assert [(o.kind, o.x) for o in outs] == FIXTURES[name][2][variant]
    assert [30 - o.n_wrong for o in outs] == FIXTURES[name][3]
    weights = [fga_weight(o.kind, o.x, 0.5) for o in outs]
    assert weights == pytest.approx(EXPECTED_WEIGHTS[(name, variant)], abs=1e-12)


def test_paper_literal_lambda_zero_is_undefined_with_infinite_distance():
    outs = run_variant("F4", "paper_literal")
    with pytest.raises(ValueError, match="undefined"):
        aggregate(outs, [0.0])
    assert aggregate(outs, [0.5]).fga[0.5] == 1.0
    # under R1 λ = 0 reduces to JGA
    s = aggregate(run_variant("F4", "normative"), [0.0])
    assert s.fga[0.0] == s.jga == pytest.approx(1 / 3)


def test_classify_turns_validates_arguments():
    with pytest.raises(ValueError, match="fga_variant"):
        classify_turns([True], [None], "literal")
    with pytest.raises(ValueError):
        classify_turns([True, False], [None])
    with pytest.raises(ValueError, match="≥ 0"):
        fga_weight("TYPE2", 1.0, -0.1)


# ------------------------------------------------------------------------------------------
# §6.4 weights and the rule of thumb

WEIGHT_TABLE = {
    0.25: [0.2212, 0.3935, 0.5276, 0.6321, 0.7135, 0.7769],
    0.5: [0.3935, 0.6321, 0.7769, 0.8647, 0.9179, 0.9502],
    0.75: [0.5276, 0.7769, 0.8946, 0.9502, 0.9765, 0.9889],
    1.0: [0.6321, 0.8647, 0.9502, 0.9817, 0.9933, 0.9975],
}


@pytest.mark.parametrize("lam", sorted(WEIGHT_TABLE))
def test_weight_table(lam):
    assert [round(fga_weight("TYPE2", x, lam), 4) for x in range(1, 7)] == WEIGHT_TABLE[lam]
    for x in range(1, 7):
        assert fga_weight("TYPE2", x, lam) == pytest.approx(1 - math.exp(-lam * x), abs=1e-12)


def test_rule_of_thumb():
    assert round(lambda_from_forgetting(0.95, 6), 4) == 0.4993
    assert lambda_from_forgetting(0.0, 6) == 0.0
    turns_needed = [round(-math.log(0.05) / lam, 2) for lam in LAMBDAS]
    assert turns_needed == [11.98, 5.99, 3.99, 3.00]
    # at λ(p, t_f) a TYPE2 turn t_f turns after the error earns exactly p
    lam = lambda_from_forgetting(0.8, 4)
    assert fga_weight("TYPE2", 4, lam) == pytest.approx(0.8, abs=1e-12)
    for p, tf in [(1.0, 6), (-0.1, 6), (0.5, 0)]:
        with pytest.raises(ValueError):
            lambda_from_forgetting(p, tf)


# ------------------------------------------------------------------------------------------
# Properties (§6.7, §8.4), hypothesis-based

VALUES = ["a", "b", "ab", DONTCARE]
SMALL_SLOTS = [A, B, C, ("train", "day")]
state_st = st.dictionaries(st.sampled_from(SMALL_SLOTS), st.sampled_from(VALUES), max_size=4)
dialogue_st = st.lists(st.tuples(state_st, state_st), min_size=1, max_size=8)


def make_dialogues(pairs_list):
    return [DialogueStates(f"d{i}", tuple(g for g, _ in pairs), tuple(p for _, p in pairs))
            for i, pairs in enumerate(pairs_list)]


@settings(max_examples=200, deadline=None)
@given(st.lists(dialogue_st, min_size=1, max_size=4),
       st.sampled_from(["scripts", "paper_literal"]))
def test_fga_properties(pairs_list, variant):
    lams = [0.0, 0.1, 0.25, 0.5, 1.0, 3.0, 60.0] if variant == "scripts" else [0.1, 0.5, 60.0]
    outs = [o for d in make_dialogues(pairs_list) for o in score_dialogue(d, variant=variant)]
    s = aggregate(outs, lams)
    values = [s.fga[lam] for lam in lams]
    assert values == sorted(values)  # non-decreasing in λ
    assert s.jga - 1e-12 <= values[0] and values[-1] <= s.m2 / s.turns + 1e-12
    if variant == "scripts":
        assert s.fga[0.0] == s.jga
        assert all(o.x is None or (o.x >= 1 and not math.isinf(o.x)) for o in outs)
    assert s.fga[60.0] == pytest.approx(s.m2 / s.turns, abs=1e-12)
    assert 0 <= s.sa <= 1 and s.m1 <= s.m2 <= s.turns
    for lam in lams:  # the distance histogram reproduces FGA at any λ
        assert fga_from_counts(s.turns, s.m1, s.type2_distances, lam) == s.fga[lam]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(state_st, min_size=1, max_size=6), min_size=1, max_size=3))
def test_perfect_prediction_scores_100(states_list):
    ds = [DialogueStates(f"d{i}", tuple(s), tuple(dict(x) for x in s))
          for i, s in enumerate(states_list)]
    s, _ = score_corpus(ds, LAMBDAS)
    assert s.jga == s.sa == 1.0 and s.m1 == s.m2 == s.turns
    assert all(v == 1.0 for v in s.fga.values())
    assert s.aga in (None, 1.0) and s.aga_relative in (None, 1.0)


@settings(max_examples=200, deadline=None)
@given(dialogue_st)
def test_flag_path_agrees_with_state_path_on_jga_sa_aga(pairs):
    d = make_dialogues([pairs])[0]
    present = tuple(frozenset(SLOT_INDEX[s] for s in g) for g in d.gold)
    ref = aggregate(score_dialogue(d), [0.5])
    fl = aggregate(score_dialogue_flags(DialogueFlags(d.dialogue_id,
                                                      flags_from_states(d.gold, d.pred),
                                                      present)), [0.5])
    assert (fl.m1, fl.jga, fl.sa, fl.aga, fl.aga_turns) == (ref.m1, ref.jga, ref.sa, ref.aga,
                                                            ref.aga_turns)


fuzzy_values = ["guesthouse", "guest house", "nightclub", "night club", "centre", "center",
                DONTCARE, "cheap"]
fuzzy_state = st.dictionaries(st.sampled_from(SMALL_SLOTS), st.sampled_from(fuzzy_values),
                              max_size=3)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(fuzzy_state, fuzzy_state), min_size=1, max_size=6))
def test_fuzzy_jga_properties(pairs):
    d = make_dialogues([pairs])
    jga = score_corpus(d, [0.5])[0].jga
    fuzzy = [score_corpus(d, [0.5], LevenshteinMatcher(t))[0].jga
             for t in ("0.5", "0.8", "0.9", "0.95", "1")]
    assert all(f >= jga for f in fuzzy)
    assert fuzzy == sorted(fuzzy, reverse=True)  # never increases as θ grows
    assert fuzzy[-1] == jga


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.tuples(fuzzy_state, fuzzy_state), min_size=1, max_size=5),
                min_size=1, max_size=3),
       st.sampled_from(["0.5", "0.9", "1"]), st.sampled_from(["scripts", "paper_literal"]))
def test_two_matchers_equal_two_corpus_scores(pairs_list, threshold, variant):
    ds = make_dialogues(pairs_list)
    fuzzy = LevenshteinMatcher(threshold)
    main, outs, second = score_corpus_two_matchers(ds, [0.5], None, fuzzy, variant)
    assert (main, outs) == score_corpus(ds, [0.5], None, variant)
    assert second == score_corpus(ds, [0.5], fuzzy, variant)[0]


def test_empty_corpus_is_an_error():
    with pytest.raises(ValueError):
        aggregate([], [0.5])


def test_flag_vector_validation_names_dialogue_and_turn():
    bad = DialogueFlags("mul0001", ((1,) * 30, (1,) * 29))
    with pytest.raises(DSTError, match="f.json: dialogue mul0001, turn 1: flag vector"):
        score_dialogue_flags(bad, where="f.json")
    with pytest.raises(DSTError, match="turn 0"):
        score_dialogue_flags(DialogueFlags("m", ((2,) + (1,) * 29,)))
    with pytest.raises(DSTError, match="gold states for 1 turns"):
        score_dialogue_flags(DialogueFlags("m", ((1,) * 30,) * 2, (frozenset(),)))


@pytest.mark.parametrize("module", ["state", "matchers", "metrics", "corpus"])
def test_module_exports_exist(module):
    mod = importlib.import_module(f"mwzrepro.dst.{module}")
    assert all(hasattr(mod, name) for name in mod.__all__)


def test_the_forgetting_rule_of_thumb_bounds():
    from mwzrepro.core.errors import ConfigError

    # p = 0.95 after half a turn: λ = −ln(0.05) / 0.5
    assert dst.lambda_from_forgetting(0.95, 0.5) == pytest.approx(-math.log(0.05) / 0.5)
    for p in (1, 1.5, -0.1):
        with pytest.raises(ConfigError) as err:
            dst.lambda_from_forgetting(p, 6)
        assert str(err.value) == f"p must satisfy 0 ≤ p < 1, got {p}"
    with pytest.raises(ConfigError) as err:
        dst.lambda_from_forgetting(0.5, 0)
    assert str(err.value) == "t_f must be > 0, got 0"


def test_local_match_reads_the_turn_level_changes_as_triples():
    # T_t = {area=north} is in B'_t and T'_t = {area=north} in B_t: a local match
    assert dst.local_match({}, {"hotel-area": "north"}, {}, {"hotel-area": "north"}) is True
    # the prediction adds a wrong value this turn: T'_t ⊄ B_t
    assert dst.local_match({}, {"hotel-area": "north"}, {},
                           {"hotel-area": "north", "hotel-stars": "4"}) is False
    # an error carried from the previous turn is not this turn's change
    prev = {"hotel-stars": "4"}
    assert dst.local_match({}, {"hotel-area": "north"}, prev,
                           {**prev, "hotel-area": "north"}) is True
    # the gold change is missed
    assert dst.local_match({}, {"hotel-area": "north"}, {}, {}) is False


def test_the_given_matcher_rewrites_a_near_spelling():
    slot = ("attraction", "type")
    d = DialogueStates("d", ({slot: "nightclub"},), ({slot: "night club"},))
    # θ = 0.9 accepts nightclub / night club (exactly 0.9); the exact default does not
    assert dst.rewritten_predictions(d, LevenshteinMatcher(0.9)) == ([{slot: "nightclub"}], [1])
    assert dst.rewritten_predictions(d) == ([{slot: "night club"}], [0])
    [o] = dst.score_dialogue(d, LevenshteinMatcher(0.9))
    assert (o.exact, o.rewrites) == (True, 1)


def test_fga_weight_errors_say_why():
    from mwzrepro.core.errors import ConfigError

    with pytest.raises(ValueError) as err:
        dst.fga_weight("TYPE2", None, 0.5)
    assert str(err.value) == "a TYPE2 turn needs its distance x"
    with pytest.raises(ConfigError) as err:
        dst.fga_weight("TYPE2", math.inf, 0)
    assert str(err.value) == ("FGA(λ=0) is undefined for a TYPE2 turn with x = ∞ "
                              "(fga_variant 'paper_literal', spec §9 D1)")


def test_classify_turns_needs_one_local_test_per_turn():
    with pytest.raises(ValueError) as err:
        classify_turns([True, False], [None])
    assert str(err.value) == "exact and local must have one entry per turn"


def test_rewrites_read_the_gold_alternatives_and_count_changed_values():
    area, food = ("hotel", "area"), ("restaurant", "food")
    d = DialogueStates("d", ({area: "centre", food: "thai"},), ({area: "center", food: "thai"},),
                       alternatives=({area: ("centre", "center")},))
    assert dst.rewritten_predictions(d) == ([{area: "centre", food: "thai"}], [1])
    [o] = dst.score_dialogue(d)
    assert (o.dialogue_id, o.turn, o.exact, o.rewrites) == ("d", 0, True, 1)


def test_each_outcome_carries_its_dialogue_turn_and_changes():
    from mwzrepro.dst.granular_change_accuracy import dialogue_changes

    area = ("hotel", "area")
    gold, pred = ({}, {area: "north"}), ({}, {area: "south"})
    out = dst.score_dialogue(DialogueStates("d7", gold, pred))
    assert [(o.dialogue_id, o.turn) for o in out] == [("d7", 0), ("d7", 1)]
    assert [o.changes for o in out] == dialogue_changes(gold, pred)


def test_flag_outcomes_carry_turns_and_unknown_counts_as_minus_one():
    right, one_wrong = (1,) * 30, (0,) + (1,) * 29
    out = score_dialogue_flags(DialogueFlags("d", (right, one_wrong)))
    assert [(o.dialogue_id, o.turn, o.exact, o.local) for o in out] == [
        ("d", 0, True, None), ("d", 1, False, False)]
    assert [(o.gold_slots, o.hits) for o in out] == [(-1, -1), (-1, -1)]
    from mwzrepro.core.errors import ConfigError

    with pytest.raises(ConfigError):
        score_dialogue_flags(DialogueFlags("d", (right,)), variant="lenient")
    with pytest.raises(DSTError) as err:
        score_dialogue_flags(DialogueFlags("d", ((1,) * 29,)))
    assert str(err.value).startswith("dialogue d, turn 0: flag vector must be 30 integers")
