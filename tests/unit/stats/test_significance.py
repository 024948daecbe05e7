"""Paired p-values, Holm's correction, pairwise and adjacent families, compare()."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.stats.bootstrap import Resampler
from mwzrepro.stats.compare import compare, format_comparison
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.significance import (
    adjacent_tests,
    adjust_pvalues,
    holm,
    paired_pvalue,
    pairwise_tests,
    ranking_order,
)
from mwzrepro.stats.units import DialogueStats

IDS = tuple(f"d{i:03d}" for i in range(300))


def inform(system: str, hits: np.ndarray) -> DialogueStats:
    counts = np.column_stack([np.ones(len(hits), np.int64), hits.astype(np.int64)])
    return DialogueStats("inform", system, "ratio", IDS, counts, np.ones(1),
                         100 * int(hits.sum()) / len(hits))


def test_holm_known_examples():
    # R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") = 0.05 0.08 0.09 0.09 0.09
    assert holm([0.01, 0.02, 0.03, 0.04, 0.05]) == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    # order is kept; capped at 1
    assert holm([0.04, 0.01, 0.6]) == pytest.approx([0.08, 0.03, 0.6])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_adjust_methods():
    assert adjust_pvalues([0.01, 0.3], "bonferroni") == pytest.approx([0.02, 0.6])
    assert adjust_pvalues([0.01, 0.3], "none") == [0.01, 0.3]
    with pytest.raises(ConfigError):
        adjust_pvalues([0.1], "fdr")


def test_paired_pvalue_methods():
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.zeros(4)
    se = np.std(a, ddof=1)
    assert paired_pvalue(a, b, 2.5) == pytest.approx(math.erfc(2.5 / (math.sqrt(2) * se)))
    # centred differences -1.5, -0.5, 0.5, 1.5: one is >= 1.5 in size twice -> (2+1)/5
    assert paired_pvalue(a, b, 1.5, "empirical") == pytest.approx(3 / 5)
    assert paired_pvalue(a, a, 0.0) == 1.0
    assert paired_pvalue(a, a, 0.0, "empirical") == 1.0
    with pytest.raises(ConfigError):
        paired_pvalue(a, b, 1.0, "exact")


def test_clear_difference_is_significant_and_noise_is_not():
    rng = np.random.default_rng(0)
    strong = (rng.random(300) < 0.9).astype(int)
    weak = (rng.random(300) < 0.5).astype(int)
    twin = strong.copy()
    twin[:3] = 1 - twin[:3]  # differs on 3 dialogues only
    params = StatsParams(resamples=500)
    reps = Resampler.from_params(IDS, params).replicate_all(
        [inform("strong", strong), inform("weak", weak), inform("twin", twin)])
    tests = pairwise_tests("inform", reps, params)
    assert len(tests) == 3
    by_pair = {frozenset((t.a, t.b)): t for t in tests}
    assert by_pair[frozenset(("strong", "weak"))].significant
    assert not by_pair[frozenset(("strong", "twin"))].significant
    # the pinned figures of these draws (500 resamples of seed 0): difference, its 95 %
    # interval, p; Holm multiplies the smallest p by 3, the next by 2, the largest by 1
    got = {(t.a, t.b): (t.diff, t.lower, t.upper, t.p) for t in tests}
    assert got == {
        ("strong", "twin"): pytest.approx((1.0, 0.0, 7 / 3, 0.08325442336207786), rel=1e-9),
        ("strong", "weak"): pytest.approx((119 / 3, 33.0, 47.175, 8.832694717227607e-29),
                                          rel=1e-9),
        ("twin", "weak"): pytest.approx((116 / 3, 32.0, 137 / 3, 2.3679580125026153e-27),
                                        rel=1e-9)}
    assert {(t.a, t.b): t.p_adjusted / t.p for t in tests} == pytest.approx(
        {("strong", "weak"): 3, ("twin", "weak"): 2, ("strong", "twin"): 1}, rel=1e-12)
    order = ranking_order(reps)
    steps = adjacent_tests("inform", reps, params)
    assert [(t.a, t.b) for t in steps] == list(zip(order, order[1:]))


def test_compare_two_systems():
    rng = np.random.default_rng(1)
    a = {"inform": inform("a", (rng.random(300) < 0.8).astype(int))}
    b = {"inform": inform("b", (rng.random(300) < 0.6).astype(int))}
    params = StatsParams(resamples=400, seed=3)
    [row] = compare(a, b, params)
    assert row.diff == pytest.approx(a["inform"].point - b["inform"].point)
    # 81.33 - 62.33 = 19 points; 95 % interval and p of 400 resamples of seed 3
    assert (row.diff, row.lower, row.upper, row.p) == pytest.approx(
        (19.0, 12.65833333333334, 26.333333333333336, 1.580905693027275e-07), rel=1e-9)
    assert row.a.point == a["inform"].point
    # same resamples as the pairwise tables when given the same test set
    reps = Resampler.from_params(IDS, params).replicate_all([a["inform"], b["inform"]])
    [t] = pairwise_tests("inform", reps, params, systems=["a", "b"])
    assert (t.p, t.lower, t.upper) == (row.p, row.lower, row.upper)
    text = format_comparison([row], "a", "b")
    assert text.splitlines()[1].startswith("Inform") and text.splitlines()[1].endswith("*")
    with pytest.raises(InputError):
        compare(a, {"bleu": b["inform"]}, params)
