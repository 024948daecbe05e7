"""Edges of the paired tests, by hand (each closes a survivor of the mutation run,
docs/benchmarks.md#mutation-testing): p-values from one or two resamples and from differences
without spread, corrections capped at 1, significance strictly below alpha, the ranking by
figure (not by name), a given system order, metric names and error messages."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mwzrepro.core.errors import ConfigError
from mwzrepro.scorer.leaderboard.stats import paired_tests
from mwzrepro.stats.bootstrap import Interval, Replicates
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.significance import (
    adjacent_tests,
    adjust_pvalues,
    holm,
    paired_pvalue,
    pairwise_tests,
    ranking_order,
)


def constant(point: float, b: int = 39) -> Replicates:
    """A figure equal to ``point`` on every one of ``b`` resamples (no spread)."""
    return Replicates(None, np.full(b, point), Interval(point, point, point))


def test_p_values_of_few_resamples_and_of_no_spread():
    # one resample: no standard error, a non-zero difference is certain (p = 0)
    assert paired_pvalue(np.array([1.0]), np.zeros(1), 1.0) == 0.0
    # two resamples 1 and 3: se = sqrt(2), p = erfc(2 / (sqrt(2) * sqrt(2))) = erfc(1)
    assert paired_pvalue(np.array([1.0, 3.0]), np.zeros(2), 2.0) == pytest.approx(math.erfc(1))
    # three equal differences: se = 0, the observed 2 is certain, an observed 0 is not
    assert paired_pvalue(np.full(3, 2.0), np.zeros(3), 2.0) == 0.0
    assert paired_pvalue(np.full(3, 2.0), np.full(3, 2.0), 0.0) == 1.0


def test_corrections_are_capped_at_one():
    assert holm([0.6, 0.7]) == pytest.approx([1.0, 1.0])            # 1.2 and 0.7 -> 1, 1
    assert adjust_pvalues([0.6, 0.2], "bonferroni") == pytest.approx([1.0, 0.4])


def test_unknown_methods_are_named():
    with pytest.raises(ConfigError, match="unknown method 'exact' \\(normal or empirical\\)"):
        paired_pvalue(np.zeros(2), np.zeros(2), 0.0, "exact")
    with pytest.raises(ConfigError, match="stats.correction: unknown method 'fdr'"):
        adjust_pvalues([0.1], "fdr")


# Figures chosen so that alphabetical order is the reverse of the ranking.
REPS = {"a": constant(70.0), "b": constant(80.0), "c": constant(90.0)}
EMPIRICAL = StatsParams(pvalue="empirical", alpha=0.05)


def test_the_ranking_is_by_figure_and_a_given_order_is_kept():
    assert ranking_order(REPS) == ["c", "b", "a"]
    assert [(t.metric, t.a, t.b) for t in adjacent_tests("inform", REPS, EMPIRICAL)] == [
        ("inform", "c", "b"), ("inform", "b", "a")]
    given = pairwise_tests("bleu", REPS, EMPIRICAL, systems=["a", "c", "b"])
    assert [(t.metric, t.a, t.b, t.diff) for t in given] == [
        ("bleu", "a", "c", -20.0), ("bleu", "a", "b", -10.0), ("bleu", "c", "b", 10.0)]


def test_a_corrected_p_value_equal_to_alpha_is_not_significant():
    # two pairs, each p = 1/40 = 0.025 (no centred difference reaches 10); Holm: 0.05, 0.05
    reps = {"a": constant(90.0), "b": constant(80.0), "c": constant(70.0)}
    tests = adjacent_tests("inform", reps, EMPIRICAL)
    assert [t.p_adjusted for t in tests] == pytest.approx([0.05, 0.05])
    assert [t.significant for t in tests] == [False, False]


def test_paired_tests_skip_metrics_and_rows_the_baseline_lacks():
    params = StatsParams(pvalue="empirical", correction="none")
    reps = {"base": {"inform": constant(70.0), "bleu": constant(10.0)},
            "a": {"inform": constant(80.0), "jga": constant(50.0), "bleu": constant(20.0)}}
    # the baseline has no jga (a file without states): jga is skipped, bleu still tested
    out = paired_tests(reps, "base", ["base", "a"], ["inform", "jga", "bleu"], params)
    assert sorted(out["a"]) == ["bleu", "inform"] and out["a"]["bleu"].diff == 10.0
    # a baseline without replicates at all: nothing to test against
    assert paired_tests({"a": reps["a"]}, "base", ["base", "a"], ["inform"], params) == {"a": {}}
