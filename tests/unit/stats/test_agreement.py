"""Cohen's κ from the 2×2 table against a worked example (Wikipedia, "Cohen's kappa": 50
proposals read by two readers, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: p_o = 0.7,
p_e = 0.5, κ = 0.4)."""

from __future__ import annotations

import pytest

from mwzrepro.stats.agreement import agreement


def test_worked_example():
    first = [True] * 25 + [False] * 25
    second = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15
    a = agreement(first, second)
    assert a["percent"] == 70.0
    assert a["kappa"] == pytest.approx(0.4)
    assert a["table"] == {"both_true": 20, "first_only": 5, "second_only": 10,
                          "both_false": 15}


def test_disagreeing_constant_judges_and_bad_input():
    assert agreement([True, True], [False, False])["kappa"] == 0.0     # p_e = 0
    with pytest.raises(ValueError):
        agreement([True], [True, False])
