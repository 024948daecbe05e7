"""Per-dialogue statistics of Inform/Success and JGA/FGA, checked by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.stats.units import dialogue_union, dst_stats, fga_type2_weight, success_stats


def success_table() -> pd.DataFrame:
    rows = []
    for setting, inform, success in (("standard", [1, 1, 0], [1, 0, 0]),
                                     ("optimistic", [1, 1, 1], [1, 1, 0])):
        for i, (inf, suc) in enumerate(zip(inform, success)):
            rows.append((setting, f"d{i}", "hotel", True, True))
            rows.append((setting, f"d{i}", "total", bool(inf), bool(suc)))
    return pd.DataFrame(rows, columns=["setting", "dialogue_id", "domain", "inform",
                                       "success"])


def dst_table() -> pd.DataFrame:
    # d0: EXACT, TYPE1, TYPE2(x=1), TYPE2(x=2); d1: EXACT, EXACT, TYPE1
    return pd.DataFrame({
        "dialogue_id": ["d0"] * 4 + ["d1"] * 3,
        "turn": [0, 1, 2, 3, 0, 1, 2],
        "kind": ["EXACT", "TYPE1", "TYPE2", "TYPE2", "EXACT", "EXACT", "TYPE1"],
        "x": [np.nan, np.nan, 1.0, 2.0, np.nan, np.nan, np.nan],
    })


def test_success_stats_uses_total_rows_of_the_setting():
    s = success_stats(success_table(), "standard", "inform", "sys", "SIG")
    assert s.point == pytest.approx(200 / 3)
    assert s.counts.tolist() == [[1, 1], [1, 1], [1, 0]]
    o = success_stats(success_table(), "optimistic", "success", "sys")
    assert o.point == pytest.approx(200 / 3) and o.counts[:, 1].tolist() == [1, 1, 0]
    assert s.signature == "SIG"


def test_success_point_is_the_reference_evaluators_number_before_rounding():
    # round(100 * hits / count, 1) is what the scorer writes (spec §9.3)
    table = success_table()
    s = success_stats(table, "standard", "success", "sys")
    assert round(s.point, 1) == round(100 * 1 / 3, 1) == 33.3


def test_success_stats_errors():
    with pytest.raises(InputError):
        success_stats(success_table(), "nosuch", "inform", "sys")
    with pytest.raises(InputError):
        success_stats(success_table(), "standard", "bleu", "sys")


def test_jga_counts_exact_turns():
    s = dst_stats(dst_table(), "jga", "sys")
    assert s.counts.tolist() == [[4, 1], [3, 2]]
    assert s.point == 100 * (3 / 7)


def test_fga_by_hand():
    lam = 0.5
    s = dst_stats(dst_table(), "fga", "sys", lam)
    # columns: turns, EXACT, TYPE2 at x=1, TYPE2 at x=2
    assert s.counts.tolist() == [[4, 1, 1, 1], [3, 2, 0, 0]]
    w1, w2 = 1 - math.exp(-0.5), 1 - math.exp(-1.0)
    assert s.weights.tolist() == pytest.approx([1.0, w1, w2])
    assert s.point == pytest.approx(100 * (3 + w1 + w2) / 7, rel=1e-15)
    # the resampling formula gives the same figure at full sample
    assert s.values(s.counts.sum(axis=0, keepdims=True))[0] == pytest.approx(s.point)


def test_fga_weight():
    assert fga_type2_weight(2.0, 0.5) == pytest.approx(1 - math.exp(-1))
    assert fga_type2_weight(math.inf, 0.25) == 1.0
    assert fga_type2_weight(3.0, 0.0) == 0.0
    with pytest.raises(InputError):
        fga_type2_weight(math.inf, 0.0)
    with pytest.raises(InputError):
        fga_type2_weight(1.0, -1.0)


def test_dst_stats_errors():
    with pytest.raises(InputError):
        dst_stats(dst_table().iloc[:0], "jga", "sys")
    bad = dst_table()
    bad.loc[2, "x"] = np.nan
    with pytest.raises(InputError, match="distance"):
        dst_stats(bad, "fga", "sys")


def test_dialogue_union():
    a = dst_stats(dst_table(), "jga", "a")
    b = success_stats(success_table(), "standard", "inform", "b")
    assert dialogue_union([a, b]) == ("d0", "d1", "d2")
