"""Entity-bias measures (spec-unseen-entity-test-set Part B, §11; acceptance §13 items 11-13)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.unseen.bias import (
    BIAS_SLOTS,
    TABLE2,
    TABLE2_NAME,
    bias_table,
    canonical_bias_value,
    normalised_entropies,
    spearman,
    table2_comparison,
    value_counts,
)


@pytest.mark.parametrize(
    "counts, h1, hinf",
    [
        ([5, 5, 5, 5], 1.000, 1.000),
        ([1, 1], 1.000, 1.000),
        ([3, 1], 0.811, 0.415),
        ([10023, 326, 9], 0.134, 0.030),
        ([8086, 760, 746, 711, 710, 695, 700, 690, 680, 660, 600, 560, 540], 0.753, 0.269),
    ],
)
def test_formula_unit_cases(counts, h1, hinf):
    """§13 item 11 (the last row is train-destination of the 2.2+ release notes, §11.3)."""
    got = normalised_entropies(counts)
    assert round(got[0], 3) == h1 and round(got[1], 3) == hinf


def test_single_value_is_na_and_zero_counts_are_not_values():
    assert all(math.isnan(x) for x in normalised_entropies([7]))
    assert all(math.isnan(x) for x in normalised_entropies([]))
    assert normalised_entropies([3, 1, 0, 0]) == normalised_entropies([3, 1])
    with pytest.raises(InputError):
        normalised_entropies([3, -1])


def test_min_entropy_uses_the_most_frequent_value():
    """§11.1: equation (2) is typeset with the rarest value; the project uses the most
    frequent one."""
    h1, hinf = normalised_entropies([9, 1])
    assert hinf == pytest.approx(-math.log(0.9) / math.log(2))
    assert h1 == pytest.approx(-(0.9 * math.log(0.9) + 0.1 * math.log(0.1)) / math.log(2))
    assert hinf < h1  # 0.152 < 0.469


def test_counted_values():
    assert canonical_bias_value("Cambridge ") == "cambridge"
    assert canonical_bias_value("a|b") == "a"
    assert canonical_bias_value("x", ["Y", "z"]) == "y"
    for v in ("dontcare", "don't care", "do n't care", "", "none", "not mentioned", "unknown"):
        assert canonical_bias_value(v) is None


def _states(rows):
    return pd.DataFrame(
        [{"dialogue_id": d, "turn": t, "domain": dom, "slot": s, "value": v,
          "alternatives": [v], "position": 0} for d, t, dom, s, v in rows])


def test_counting_unit_per_user_turn_and_per_dialogue():
    """§13 item 12: a value in the cumulative state for k turns counts k times."""
    states = _states([
        ("d1", 0, "train", "destination", "cambridge"),
        ("d1", 1, "train", "destination", "cambridge"),
        ("d1", 2, "train", "destination", "cambridge"),
        ("d2", 0, "train", "destination", "ely"),
        ("d2", 1, "train", "destination", "dontcare"),
        ("d2", 1, "train", "day", "unknown"),
        ("d2", 1, "police", "name", "parkside"),
    ])
    turn = value_counts(states)
    assert turn[["slot", "value", "count"]].values.tolist() == [
        ["destination", "cambridge", 3], ["destination", "ely", 1]]
    dial = value_counts(states, "dialogue")
    assert dial["count"].tolist() == [1, 1]
    with pytest.raises(ConfigError, match="bias.bias_count_unit"):
        value_counts(states, "week")


def test_table_shape_and_order():
    """§13 item 13: 31 slots, ascending H1/H0, with R, top value and share."""
    states = _states([("d", t, "hotel", "parking", "yes") for t in range(9)]
                     + [("d", 9, "hotel", "parking", "no")]
                     + [("d", t, "hotel", "area", a) for t, a in enumerate(["north", "south"])])
    table = bias_table(value_counts(states))
    assert len(table) == 31 == len(BIAS_SLOTS)
    assert list(table.columns) == ["rank", "slot", "table2_slot", "r", "n", "top_value",
                                   "top_share", "h1_h0", "hinf_h0", "paper_h1_h0",
                                   "paper_hinf_h0"]
    first, second = table.iloc[0], table.iloc[1]
    assert (first["table2_slot"], first["r"], first["top_value"]) == ("hotel-parking", 2, "yes")
    assert first["top_share"] == pytest.approx(0.9)
    assert second["table2_slot"] == "hotel-area" and second["h1_h0"] == pytest.approx(1.0)
    assert table["h1_h0"].iloc[2:].isna().all()  # R < 2: NA, listed last
    assert table["rank"].tolist() == list(range(1, 32))


def test_table2_reference_is_complete_and_ascending():
    assert len(TABLE2) == 31
    assert {name for name, _, _ in TABLE2} == set(TABLE2_NAME.values())
    h1 = [h for _, h, _ in TABLE2]
    assert h1 == sorted(h1)
    assert TABLE2_NAME["hotel-book stay"] == "hotel-stay"
    assert TABLE2_NAME["train-book people"] == "train-people"


def test_spearman_and_comparison_with_the_paper():
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert math.isnan(spearman([1], [1]))
    paper = pd.DataFrame([{"table2_slot": n, "h1_h0": h, "hinf_h0": i, "paper_h1_h0": h,
                           "paper_hinf_h0": i} for n, h, i in TABLE2])
    cmp = table2_comparison(paper)
    assert cmp["spearman_h1_h0_excluding_hotel_internet"] == pytest.approx(1.0)
    assert cmp["train-destination_abs_diff_h1_h0"] == 0.0
