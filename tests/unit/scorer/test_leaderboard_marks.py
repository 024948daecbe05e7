"""The leaderboard's conclusions on hand-checkable inputs: significance marks read Holm's
corrected p-value, not the raw one; exact ties on Combined share the smaller rank and the
next rank counts the rows above it; two files covering different dialogues are flagged as
compared on the shared dialogues only."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mwzrepro.scorer.leaderboard.compare import SharedComparison
from mwzrepro.scorer.leaderboard.evaluate_many import combined_ranks
from mwzrepro.scorer.leaderboard.stats import paired_tests
from mwzrepro.stats.params import StatsParams
from tests.unit.stats.test_significance_edges import constant

B = 39   # resamples: the smallest empirical p-value is 1 / (B + 1) = 0.025


def test_significance_is_read_from_the_holm_corrected_p_value():
    # Two systems each 10 points above the baseline on every one of 39 resamples. Empirical
    # p: the centred differences are all 0, none reaches |10|, so p = (0 + 1) / 40 = 0.025
    # for each. Raw: 0.025 < 0.05, significant. Holm over the family of 2: the smaller
    # p × 2 = 0.05, the other max(0.05, 0.025 × 1) = 0.05; 0.05 < 0.05 is false: neither is.
    reps = {"base": {"inform": constant(70.0, B)}, "a": {"inform": constant(80.0, B)},
            "b": {"inform": constant(80.0, B)}}
    params = StatsParams(pvalue="empirical", correction="holm", alpha=0.05)
    out = paired_tests(reps, "base", ["base", "a", "b"], ["inform"], params)
    for row in ("a", "b"):
        r = out[row]["inform"]
        assert (r.diff, r.lower, r.upper) == (10.0, 10.0, 10.0)
        assert r.p == pytest.approx(0.025) and r.p_adjusted == pytest.approx(0.05)
        assert r.significant is False
    # one system alone: a family of 1, Holm changes nothing, 0.025 < 0.05 is significant
    alone = paired_tests(reps, "base", ["base", "a"], ["inform"], params)["a"]["inform"]
    assert alone.p_adjusted == pytest.approx(0.025) and alone.significant is True
    # no correction: the raw p-values decide
    raw = paired_tests(reps, "base", ["base", "a", "b"], ["inform"],
                       StatsParams(pvalue="empirical", correction="none"))
    assert raw["a"]["inform"].significant is True


def test_ties_on_combined_share_the_smaller_rank():
    combined = pd.Series([90.0, 95.0, 95.0, 80.0, 99.0, 95.0])
    comparable = pd.Series([True, True, True, True, False, True])
    # 99.0 is not comparable: no rank, and it pushes nobody down. The three 95.0 share 1;
    # 90.0 comes after three rows: 4 (not 2); 80.0: 5.
    assert combined_ranks(combined, comparable).tolist() == [4, 1, 1, 5, pd.NA, 1]


def test_different_dialogues_of_equal_count_are_compared_on_the_shared_ones():
    # A and B each cover 500 of 1000 test dialogues, 250 of them the same ones
    done = SharedComparison([], 250, (500, 500), 1000)
    assert done.shared_only is True
    assert done.warning(("A", "B")).startswith(
        "DIFFERENT COVERAGE: A covers 500 and B 500 of the 1000 test dialogues; compared on "
        "the 250 dialogues both cover")
    # the same 500 dialogues each: still not the test set's figures
    assert SharedComparison([], 500, (500, 500), 1000).shared_only is True
    # both cover every test dialogue: the full comparison, no warning
    full = SharedComparison([], 1000, (1000, 1000), 1000)
    assert full.shared_only is False and full.warning(("A", "B")) == ""


def test_compare_shared_resamples_only_the_dialogues_both_files_cover(monkeypatch):
    from types import SimpleNamespace

    import mwzrepro.stats.bleu_stats as bleu_stats
    from mwzrepro.scorer.leaderboard import compare as compare_module
    from mwzrepro.scorer.leaderboard.compare import compare_shared
    from mwzrepro.stats.units import DialogueStats

    test = [f"d{i}" for i in range(8)]
    # A covers d0-d3, B covers d2-d5: 4 of 8 each, 2 shared (d2, d3). Inform hits on the
    # shared ones: A 1, 0 (50 %); B 1, 1 (100 %); the files' own figures are not these.
    hits = {"A": dict(zip(test[:4], [1, 1, 1, 0])), "B": dict(zip(test[2:6], [1, 1, 0, 0]))}

    def stats(_ctx, data, name, _lam, _refs, _drops=None):
        ids = tuple(sorted(hits[name]))
        counts = np.array([[1, hits[name][d]] for d in ids], dtype=np.int64)
        return {"inform": DialogueStats("inform", name, "ratio", ids, counts, np.ones(1),
                                        100 * counts[:, 1].mean())}

    monkeypatch.setattr(compare_module, "prediction_stats", stats)
    monkeypatch.setattr(bleu_stats, "BleuReferences", lambda refs: None)
    ctx = SimpleNamespace(resources=SimpleNamespace(references=None, expected=test))
    done = compare_shared((ctx, ctx), {}, {}, StatsParams(resamples=20), ("A", "B"))
    assert (done.dialogues, done.covered, done.test_dialogues) == (2, (4, 4), 8)
    assert done.shared_only is True
    [row] = done.rows
    assert (row.a.point, row.b.point, row.diff) == (50.0, 100.0, -50.0)


def test_combined_is_resampled_from_inform_success_and_bleu():
    from mwzrepro.scorer.leaderboard.stats import replicate_rows
    from mwzrepro.stats.units import DialogueStats

    ids = tuple(f"d{i:02d}" for i in range(12))

    def rate(metric, hits):
        counts = np.array([[1, h] for h in hits], dtype=np.int64)
        return DialogueStats(metric, "x", "ratio", ids, counts, np.ones(1),
                             100 * sum(hits) / len(hits))

    stats = {m: rate(m, h * 4) for m, h in (("inform", [1, 1, 0]), ("success", [1, 0, 0]),
                                            ("bleu", [0, 1, 1]))}
    params = StatsParams(resamples=50, seed=3, confidence=0.5)
    out = replicate_rows({"x": stats, "y": {"inform": stats["inform"]}},
                         {"x": 60.0, "y": 50.0}, ids, params)
    x = out["x"]
    # on every resample: (Inform + Success) / 2 + BLEU of that resample
    expected = 0.5 * (x["inform"].values + x["success"].values) + x["bleu"].values
    assert np.array_equal(x["combined"].values, expected)
    assert x["combined"].interval.point == 60.0
    lo, hi = np.quantile(expected, [0.25, 0.75])                # at params.confidence
    inform = x["inform"]
    assert (inform.interval.lower, inform.interval.upper) == tuple(
        np.quantile(inform.values, [0.25, 0.75]))
    assert inform.interval.lower < inform.interval.upper
    assert (x["combined"].interval.lower, x["combined"].interval.upper) == (lo, hi)
    assert "combined" not in out["y"]                       # no Success, no BLEU: no Combined
    assert np.array_equal(out["y"]["inform"].values, x["inform"].values)  # shared resamples
