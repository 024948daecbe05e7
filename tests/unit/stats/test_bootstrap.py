"""Bootstrap over dialogues: resampling matrix, hand-checkable replicates, interval properties."""

from __future__ import annotations

import numpy as np
import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.stats.bootstrap import (
    Interval,
    Resampler,
    format_interval,
    interval_signature,
    percentile_interval,
    resample_counts,
)
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.units import DialogueStats


def inform(hits: list[int], ids: list[str] | None = None, system: str = "sys") -> DialogueStats:
    ids = ids or [f"d{i:03d}" for i in range(len(hits))]
    counts = np.array([[1, h] for h in hits], dtype=np.int64)
    return DialogueStats("inform", system, "ratio", tuple(ids), counts, np.ones(1),
                         100 * sum(hits) / len(hits))


def test_resample_counts_rows_are_multiplicities():
    c = resample_counts(7, 50, seed=3)
    assert c.shape == (50, 7) and c.dtype == np.int64
    assert (c.sum(axis=1) == 7).all() and (c >= 0).all()


def test_resample_counts_match_numpy_draws():
    # The matrix is exactly the bincount of default_rng(seed).integers(0, n, (B, n)).
    draws = np.random.default_rng(11).integers(0, 5, size=(4, 5))
    expected = np.stack([np.bincount(row, minlength=5) for row in draws])
    assert (resample_counts(5, 4, 11) == expected).all()


def test_same_seed_same_bounds_other_seed_other_bounds():
    hits = [1] * 70 + [0] * 30
    a = Resampler([f"d{i:03d}" for i in range(100)], 500, 7).replicate(inform(hits))
    b = Resampler([f"d{i:03d}" for i in range(100)], 500, 7).replicate(inform(hits))
    c = Resampler([f"d{i:03d}" for i in range(100)], 500, 8).replicate(inform(hits))
    assert a.interval == b.interval
    assert (a.values == b.values).all()
    assert (a.values != c.values).any()


def test_two_dialogue_corpus_by_hand():
    # Dialogues d0 (Inform hit) and d1 (miss): a resample draws (2,0), (1,1) or (0,2) copies,
    # so Inform is 100, 50 or 0 with probabilities 1/4, 1/2, 1/4.
    stats = inform([1, 0], ["d0", "d1"])
    r = Resampler(["d0", "d1"], 4000, 0)
    values = r.values(stats)
    expected = 100 * r.counts[:, 0] / 2
    assert (values == expected).all()
    shares = [np.mean(values == v) for v in (100.0, 50.0, 0.0)]
    assert shares == pytest.approx([0.25, 0.5, 0.25], abs=0.03)


def test_replicate_is_weighted_sum_of_dialogue_counts():
    stats = inform([1, 0, 1, 1, 0], ["a", "b", "c", "d", "e"])
    r = Resampler("abcde", 20, 5)
    hits = np.array([1, 0, 1, 1, 0])
    assert np.allclose(r.values(stats), 100 * (r.counts @ hits) / 5, rtol=0, atol=1e-12)


def test_constant_metric_has_zero_width():
    rep = Resampler([f"d{i:03d}" for i in range(50)], 300, 1).replicate(inform([1] * 50))
    assert rep.interval == Interval(100.0, 100.0, 100.0)
    assert rep.interval.half_width == 0.0


def test_interval_contains_point_estimate():
    rng = np.random.default_rng(0)
    for p in (0.2, 0.5, 0.77, 0.95):
        hits = (rng.random(400) < p).astype(int).tolist()
        rep = Resampler([f"d{i:03d}" for i in range(400)], 1000, 2).replicate(inform(hits))
        assert rep.interval.lower <= rep.interval.point <= rep.interval.upper


def test_uncovered_dialogues_count_for_nothing():
    # The system covers d0..d2 of d0..d3: Inform is over the covered dialogues drawn.
    stats = inform([1, 1, 0], ["d0", "d1", "d2"])
    r = Resampler(["d0", "d1", "d2", "d3"], 200, 4)
    covered = r.counts[:, :3]
    expected = np.where(covered.sum(1) > 0,
                        100 * covered @ np.array([1, 1, 0]) / np.maximum(covered.sum(1), 1),
                        np.nan)
    assert np.allclose(r.values(stats), expected, equal_nan=True)


def test_dialogue_outside_test_set_is_an_error():
    with pytest.raises(InputError, match="dx"):
        Resampler(["d0"], 5, 0).values(inform([1, 1], ["d0", "dx"]))


def test_percentile_interval_all_nan_is_an_error():
    with pytest.raises(InputError):
        percentile_interval(np.full(5, np.nan), 1.0, 0.95)


def test_formatting_and_signature():
    assert format_interval(Interval(76.6, 74.0, 79.2), 1) == "76.6 ±2.6"
    assert format_interval(Interval(16.38, 15.92, 16.84), 2, "bounds") == "16.38 [15.92, 16.84]"
    sig = interval_signature("Inform", "Inform/Success|system:a|ver:mwz21|dom:estimated|"
                             "set:standard|v:0.1.0", StatsParams(resamples=200, seed=9),
                             vary=("system", "dom"))
    assert sig == ("Inform-CI|ver:mwz21|set:standard|unit:dialogue|bs:200|seed:9|"
                   "ci:percentile|conf:0.95|v:0.1.0")


def test_replicate_all_rejects_duplicate_system():
    r = Resampler(["d0", "d1"], 5, 0)
    with pytest.raises(InputError, match="twice"):
        r.replicate_all([inform([1, 0], ["d0", "d1"]), inform([0, 0], ["d0", "d1"])])


def test_pinned_bounds_of_a_fixed_seed_at_95_percent():
    # 100 dialogues, 70 Inform hits, 500 resamples of seed 7: the default level is 95 %
    # (a 90 % interval of the same draws is [62, 78])
    resampler = Resampler([f"d{i:03d}" for i in range(100)], 500, 7)
    stats = inform([1] * 70 + [0] * 30)
    assert resampler.replicate(stats).interval == Interval(70.0, 61.0, 79.0)
    assert resampler.replicate(stats, 0.90).interval == Interval(70.0, 62.0, 78.0)
    # 10 dialogues, 40 resamples of seed 3: the two lowest figures are 30 and 40, the two
    # highest 100; numpy's linear quantile at 0.025 sits at position 0.025 · 39 = 0.975
    # (30 + 0.975 · 10 = 39.75), at 0.975 at 38.025 (between two 100s)
    ids = [f"d{i}" for i in range(10)]
    rep = Resampler(ids, 40, 3).replicate(inform([1] * 7 + [0] * 3, ids))
    assert sorted(rep.values)[:2] == [30.0, 40.0] and sorted(rep.values)[-2:] == [100.0, 100.0]
    assert (rep.interval.point, rep.interval.upper) == (70.0, 100.0)
    assert rep.interval.lower == pytest.approx(39.75, abs=1e-12)


def test_percentile_interval_by_hand_at_95_percent():
    # 0, 1, ..., 100: the 2.5th and 97.5th percentiles are 2.5 and 97.5 (90 %: 5 and 95)
    got = percentile_interval(np.arange(101.0), 50.0, 0.95)
    assert (got.point, got.lower, got.upper) == (50.0, pytest.approx(2.5, abs=1e-12), 97.5)
    got = percentile_interval(np.arange(101.0), 50.0, 0.90)
    assert (got.lower, got.upper) == (pytest.approx(5.0, abs=1e-12), 95.0)
    # NaN resamples (a draw without the system's dialogues) are left out: 2.5 % of 0..10
    got = percentile_interval(np.array([np.nan, *range(11)], dtype=float), 5.0, 0.95)
    assert (got.lower, got.upper) == pytest.approx((0.25, 9.75), abs=1e-12)
