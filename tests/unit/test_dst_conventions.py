"""DST scoring conventions (docs/specification.md, "DST scoring conventions"): every preset on a
hand-built turn where its script's documented behaviour shows, the switches' errors, the
ladder's rungs and the assembled tables."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import ConfigError
from mwzrepro.dst.conventions.ladder import climb, rung_conventions
from mwzrepro.dst.conventions.presets import PRESETS, preset
from mwzrepro.dst.conventions.scoring import ViewCache, score_corpus
from mwzrepro.dst.conventions.switches import Convention
from mwzrepro.dst.conventions.tables import assemble, system_figures
from mwzrepro.dst.conventions.turns import RawDialogue


def one_turn(gold: list[tuple[str, str, str]], pred: dict) -> list[RawDialogue]:
    return [RawDialogue("mul0001", (tuple(gold),), (pred,))]


def joint(corpus: list[RawDialogue]) -> dict[str, int]:
    return {name: score_corpus(corpus, c).joint for name, c in PRESETS.items()}


def test_gold_dontcare_kept_by_fga_dropped_by_mwzeval():
    """FGA keeps gold dontcare (spec-dst-metrics §2.3); the reference drops it from the gold
    (spec-standard-evaluation §5.4), so a correctly predicted dontcare is a false positive."""
    corpus = one_turn([("hotel", "area", "dontcare"), ("hotel", "stars", "4")],
                      {"hotel": {"area": "dontcare", "stars": "4"}})
    got = joint(corpus)
    assert got["fga"] == got["trade"] == got["convlab3"] == got["simpletod"] == 1
    assert got["mwzeval"] == 0
    s = score_corpus(corpus, PRESETS["mwzeval"])
    assert s.wrong == 1 and s.sa == 1 - 1 / 30


def test_simpletod_rules_for_none_and_dontcare():
    """SimpleTOD (compute_joint_acc.py line 36) removes predicted 'none' triples; its first
    commit (ignore_none_dontcare) also removes every dontcare triple on both sides."""
    none_pred = one_turn([("hotel", "stars", "4")],
                         {"hotel": {"stars": "4", "parking": "none"}})
    assert joint(none_pred)["simpletod"] == 1
    assert score_corpus(none_pred, Convention(dial="all", clean="lower", slots="all")).joint == 0
    missed_dontcare = one_turn([("hotel", "area", "dontcare"), ("hotel", "stars", "4")],
                               {"hotel": {"stars": "4"}})
    got = joint(missed_dontcare)
    assert got["simpletod-original"] == 1 and got["simpletod"] == 0 and got["fga"] == 0


def test_mwzeval_literal_names_and_fuzzy_values():
    """The reference compares its own slot names (a predicted 'people' is not the gold
    'book people') and accepts partial_ratio > 95 ('the cambridge belfry' in
    'cambridge belfry')."""
    names = one_turn([("hotel", "book people", "2")], {"hotel": {"people": "2"}})
    assert joint(names)["fga"] == 1 and joint(names)["mwzeval"] == 0
    fuzzy = one_turn([("hotel", "name", "cambridge belfry")],
                     {"hotel": {"name": "the cambridge belfry"}})
    assert joint(fuzzy)["fga"] == 0 and joint(fuzzy)["mwzeval"] == 1


def test_trade_default_cleaning():
    """TRADE's fix_general_label_error maps 'guesthouse' to 'guest house' and 'cen' to
    'centre' (utils/fix_label.py)."""
    corpus = one_turn([("hotel", "type", "guesthouse"), ("hotel", "area", "cen")],
                      {"hotel": {"type": "guest house", "area": "centre"}})
    got = joint(corpus)
    assert got["trade"] == 1 and got["fga"] == 0


def test_convlab3_whitespace_and_gold_slot_filter():
    """ConvLab-3's unified evaluation removes whitespace before comparing and ignores
    predictions outside the gold state's slots (evaluate_unified_datasets.py; ConvLab-3#132)."""
    corpus = one_turn([("train", "leaveat", "10:15")],
                      {"train": {"leaveAt": "10 : 15"}, "hotel": {"arrive": "monday"}})
    got = joint(corpus)
    assert got["convlab3"] == 1 and got["fga"] == 0 and got["mwzeval"] == 0


def test_dialogue_scope_and_prediction_scope():
    corpus = [RawDialogue("pmul1455", ((),), ({"hotel": {"area": "north"}},)),
              RawDialogue("mul0002", ((("taxi", "leaveat", "10:00"),),),
                          ({"taxi": {"leaveAt": "10:00"}, "hotel": {"area": "north"}},))]
    s = score_corpus(corpus, Convention())
    assert (s.dialogues, s.turns, s.joint) == (1, 1, 0)
    assert score_corpus(corpus, Convention(dial="all")).turns == 2
    assert score_corpus(corpus, Convention(pscope="gold-dom")).joint == 1


def test_unknown_preset_and_switch_value_are_one_line_errors():
    with pytest.raises(ConfigError, match=r"^unknown DST convention 'jga'; known: fga, "
                                          r"mwzeval, simpletod, simpletod-original, trade, "
                                          r"convlab3$"):
        preset("jga")
    with pytest.raises(ConfigError, match="switch match: unknown value 'fuzzy'"):
        Convention(match="fuzzy")


def test_ladder_changes_one_switch_per_rung():
    rungs = rung_conventions(PRESETS["fga"], PRESETS["mwzeval"])
    assert rungs[0][1] == PRESETS["fga"] and rungs[-1][1] == PRESETS["mwzeval"]
    for (_, a), (switch, b) in zip(rungs, rungs[1:]):
        assert b.differences(a) == [switch]


def test_ladder_and_tables_on_a_hand_built_corpus():
    """Gold dontcare and 'book people': fga 1/2 turns, dropping gold dontcare 0/2 (the
    predicted dontcare becomes a false positive), reference names 0/2, fuzzy 0/2."""
    corpus = [RawDialogue("mul0001",
                          ((("hotel", "area", "dontcare"),), (("hotel", "book people", "2"),)),
                          ({"hotel": {"area": "dontcare"}}, {"hotel": {"people": "2"}}))]
    rungs = climb(corpus, PRESETS["fga"], PRESETS["mwzeval"])
    assert [(r.switch, r.scores.joint) for r in rungs] == [
        ("", 2), ("dial", 2), ("gdc", 1), ("slots", 1), ("names", 0), ("clean", 0),
        ("match", 0)]
    assert [round(r.change, 2) for r in rungs] == [0, 0, -50, 0, -50, 0, 0]
    out = assemble([system_figures("sys", "Sys", "mwz21", corpus)])
    row = out.ladder.iloc[0]
    assert row["fga"] == 100 and row["match:fuzzy95"] == 0 and row["Δ gdc"] == -50
    assert row["largest move"] == "gdc:drop"  # the first of two equal moves
    assert out.metrics["presets"]["mwz21"]["fga"]["sys"]["jga"] == 1.0
    assert out.metrics["order_effects"]["names"] == pytest.approx(
        {"first": -50.0, "ladder": -50.0, "last": -50.0, "shapley": -50.0})
    # Shapley values sum to the whole change (efficiency): fga 100 % → mwzeval 0 %
    shapley = out.metrics["shapley"]["sys@mwz21"]
    assert sum(shapley.values()) == pytest.approx(-100)
    assert shapley["gdc"] == pytest.approx(-50) and shapley["match"] == 0


def test_label_cleaning_none_compares_values_verbatim():
    corpus = one_turn([("hotel", "area", "north")], {"hotel": {"area": " North"}})
    assert score_corpus(corpus, Convention(clean="none")).joint == 0
    assert score_corpus(corpus, Convention(clean="lower")).joint == 1
    assert score_corpus(corpus, Convention()).joint == 1


def test_cache_scores_a_convention_once_per_corpus():
    """A cache shared by the ladder, its order effects and the Shapley values scores each
    convention once per corpus object; another corpus is scored afresh."""
    cache = ViewCache()
    hit = one_turn([("hotel", "area", "north")], {"hotel": {"area": "north"}})
    miss = one_turn([("hotel", "area", "north")], {"hotel": {"area": "south"}})
    first = score_corpus(hit, Convention(), cache)
    assert score_corpus(hit, Convention(), cache) is first and first.joint == 1
    assert score_corpus(miss, Convention(), cache).joint == 0
    assert score_corpus(hit, Convention(), cache).joint == 1
