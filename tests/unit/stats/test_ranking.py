"""Kendall's τ-b, ranks with ties, and ranking comparisons across conditions."""

from __future__ import annotations

import math

import pytest

from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.ranking import compare_rankings, kendall_tau_b, rank_spread, rank_table, ranks
from mwzrepro.stats.report import ranking_conditions, ranking_report


def test_tau_b_without_ties_by_hand():
    # pairs of (x, y) = (1,3) (2,4) (3,1) (4,2) (5,5): 6 concordant, 4 discordant -> 2/10
    assert kendall_tau_b([1, 2, 3, 4, 5], [3, 4, 1, 2, 5]) == pytest.approx(0.2)
    assert kendall_tau_b([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0


def test_tau_b_with_ties_by_hand():
    # x = 12 2 1 12 2, y = 1 4 7 1 0: n_c = 2, n_d = 6, 2 pairs tied in x, 1 in y:
    # (2 - 6) / sqrt((10 - 2) * (10 - 1)) = -0.4714... (scipy.stats.kendalltau's example)
    assert kendall_tau_b([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) == pytest.approx(
        -0.47140452079103173, rel=1e-12)


def test_tau_b_undefined_and_errors():
    assert math.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau_b([1], [1]))
    with pytest.raises(ValueError):
        kendall_tau_b([1, 2], [1])


def test_ranks_average_ties():
    assert ranks({"a": 3.0, "b": 5.0, "c": 3.0, "d": 1.0}) == {"a": 2.5, "b": 1.0, "c": 2.5,
                                                                  "d": 4.0}


def test_compare_rankings_on_common_systems():
    conds = {"v20": {"a": 90.0, "b": 80.0, "c": 70.0, "d": 60.0},
             "v21": {"a": 70.0, "b": 80.0, "c": 90.0, "d": 60.0},
             "few": {"a": 1.0, "b": 2.0}}
    out = compare_rankings("inform", conds)
    assert [(c.a, c.b) for c in out] == [("v20", "v21"), ("v20", "few"), ("v21", "few")]
    first = out[0]
    # a and c swap (rank 1 <-> 3): 3 concordant (b-d, a-d, c-d), 3 discordant
    assert first.tau == pytest.approx(0.0) and first.max_move == 2.0
    assert first.movers == (("a", 1.0, 3.0), ("c", 3.0, 1.0))
    assert out[1].systems == 2 and out[1].tau == -1.0


def test_rank_table_and_spread():
    conds = {"x": {"a": 2.0, "b": 1.0}, "y": {"a": 1.0, "b": 2.0, "c": 3.0}}
    t = rank_table(conds)
    assert t["system"].tolist() == ["a", "b", "c"]
    assert t["x"].tolist()[:2] == [1.0, 2.0] and math.isnan(t["x"].tolist()[2])
    assert rank_spread(conds) == {"a": 2.0, "b": 0.0, "c": 0.0}


def test_ranking_conditions_from_stats_outputs():
    version = {"figures": {
        "inform": {"metric": "inform", "condition": "mwz21",
                   "systems": {"a": {"point": 80.0}, "b": {"point": 70.0}}},
        "fga": {"metric": "fga", "condition": "mwz21",
                "systems": {"a": {"point": 50.0}, "b": {"point": 55.0}}}}}
    corrected = {"version": "mwz21", "systems": {
        "a": {"corrected": {"jga": 0.3, "fga": {"0.5": 0.6}}},
        "b": {"corrected": {"jga": 0.2, "fga": {"0.5": 0.4}}}}}
    board = {"systems": {"a": {"inform": 81.0, "inform_optimistic": 90.0},
                         "b": {"inform": 71.0}}}
    conds = ranking_conditions([version], corrected, board, StatsParams())
    assert conds["inform"] == {"mwz21": {"a": 80.0, "b": 70.0},
                               "leaderboard 2.2": {"a": 81.0, "b": 71.0},
                               "paper 2.2 optimistic": {"a": 90.0}}
    assert conds["fga"]["mwz21 corrected"] == {"a": 60.0, "b": 40.0}
    assert conds["jga"] == {"mwz21 corrected": {"a": 30.0, "b": 20.0}}
    rep = ranking_report([version], corrected, board, StatsParams())
    fga = [c for c in rep.comparisons if c.metric == "fga"]
    assert len(fga) == 1 and fga[0].tau == -1.0
    # the bump chart leaves out conditions scoring fewer systems
    assert list(rep.bump["inform"]) == ["mwz21", "leaderboard 2.2"]
    # a and b in the same order in both inform conditions: tau 1; one system in common with
    # the optimistic condition: no tau (null in the JSON)
    assert [(c["a"], c["b"], c["systems"], c["tau"]) for c in rep.metrics["comparisons"]
            if c["metric"] == "inform"] == [
        ("mwz21", "leaderboard 2.2", 2, 1.0), ("mwz21", "paper 2.2 optimistic", 1, None),
        ("leaderboard 2.2", "paper 2.2 optimistic", 1, None)]
    assert rep.metrics["comparisons"][3]["movers"] == [
        {"system": "a", "rank_a": 2.0, "rank_b": 1.0},
        {"system": "b", "rank_a": 1.0, "rank_b": 2.0}]


def test_dst_presets_are_compared_within_a_version():
    """dst_conventions.json's preset JGAs (fractions) become conditions '<version> <preset>' of
    the metric dst-presets (percent); τ pairs only conditions of one version."""
    presets = {"presets": {
        v: {"fga": {"a": {"jga": 0.5}, "b": {"jga": 0.4}, "c": {"jga": 0.3}},
            "mwzeval": {"a": {"jga": 0.3}, "b": {"jga": 0.4}, "c": {"jga": 0.5}}}
        for v in ("mwz20", "mwz21")}}
    conds = ranking_conditions([], None, None, StatsParams(), None, presets)
    assert list(conds["dst-presets"]) == ["mwz20 fga", "mwz20 mwzeval", "mwz21 fga",
                                          "mwz21 mwzeval"]
    assert conds["dst-presets"]["mwz21 fga"] == {"a": 50.0, "b": 40.0, "c": 30.0}
    rep = ranking_report([], None, None, StatsParams(), None, presets)
    pairs = [(c.a, c.b, c.tau) for c in rep.comparisons]
    assert pairs == [("mwz20 fga", "mwz20 mwzeval", -1.0), ("mwz21 fga", "mwz21 mwzeval", -1.0)]
