"""Bootstrap time for 19 systems × 5 figures × 1000 resamples on one core (issue 14 target:
≤ 30 s).

Times, on one BLAS thread:

1. (``--workspace`` only) building the per-dialogue statistics from a built workspace's files
   (sacrebleu statistics of every predicted turn, Inform/Success and DST counts), done once;
2. the bootstrap proper: one (B × D) resampling matrix, every system's figure on every
   resample, percentile intervals, and the paired tests of all 171 pairs and 18 adjacent
   steps of each figure.

Without ``--workspace`` the figures are synthetic with the real shapes (1000 dialogues,
7372 turns, 10 BLEU statistics per dialogue, 8 FGA distance columns).

Usage::

    .venv/bin/python benchmarks/bootstrap.py [--workspace .] [--version mwz21]
        [--resamples 1000] [--seed 0]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, before numpy loads

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from mwzrepro.stats.bootstrap import Resampler  # noqa: E402
from mwzrepro.stats.params import StatsParams  # noqa: E402
from mwzrepro.stats.significance import adjacent_tests, pairwise_tests  # noqa: E402
from mwzrepro.stats.units import DialogueStats  # noqa: E402

FIGURES = ("bleu", "inform", "success", "jga", "fga")


def synthetic(n_systems: int = 19, n_dialogues: int = 1000, seed: int = 1) -> dict[str, list]:
    """Per-dialogue statistics shaped like the real ones (full-sample points are not needed
    for timing and are left at 0 where costly)."""
    rng = np.random.default_rng(seed)
    ids = tuple(f"d{i:04d}" for i in range(n_dialogues))
    turns = rng.integers(2, 15, n_dialogues)
    out: dict[str, list] = {k: [] for k in FIGURES}
    for k in range(n_systems):
        name = f"sys{k:02d}"
        hyp = turns * rng.integers(10, 16, n_dialogues)
        ref = turns * rng.integers(10, 16, n_dialogues)
        totals = np.stack([np.maximum(hyp - turns * j, 0) for j in range(4)], axis=1)
        correct = (totals * rng.uniform(0.1, 0.5, (n_dialogues, 1)) / (1 + np.arange(4))
                   ).astype(np.int64)
        bleu = np.column_stack([hyp, ref, correct, totals]).astype(np.int64)
        out["bleu"].append(DialogueStats("bleu", name, "bleu", ids, bleu, None, 0.0))
        for fig, p in (("inform", 0.8), ("success", 0.7)):
            hits = (rng.random(n_dialogues) < p).astype(np.int64)
            out[fig].append(DialogueStats(fig, name, "ratio", ids,
                                          np.column_stack([np.ones_like(hits), hits]),
                                          np.ones(1), 100 * hits.mean()))
        m1 = rng.binomial(turns, 0.35)
        out["jga"].append(DialogueStats("jga", name, "ratio", ids, np.column_stack([turns, m1]),
                                        np.ones(1), 100 * m1.sum() / turns.sum()))
        type2 = rng.multinomial(1, [0.5, 0.25, 0.12, 0.06, 0.04, 0.02, 0.007, 0.003],
                                size=n_dialogues) * rng.binomial(turns - m1, 0.5)[:, None]
        weights = np.concatenate([[1.0], -np.expm1(-0.5 * np.arange(1, 9))])
        counts = np.column_stack([turns, m1, type2])
        out["fga"].append(DialogueStats("fga", name, "ratio", ids, counts, weights, 0.0))
    return out


def from_workspace(root: Path, version: str, lam: float) -> tuple[dict[str, list], tuple]:
    """Per-dialogue statistics of every system from a built workspace."""
    from mwzrepro.core.io import read_table
    from mwzrepro.stats.bleu_stats import BleuReferences
    from mwzrepro.stats.units import dst_stats, success_stats

    refs = read_table(root / f"data/interim/{version}/test/references.parquet", "references")
    bleu_refs = BleuReferences(refs)
    out: dict[str, list] = {k: [] for k in FIGURES}
    for f in sorted((root / f"results/scores/bleu/{version}").glob("*.parquet")):
        s = f.stem
        preds = read_table(root / f"data/interim/predictions/{s}.parquet", "predictions")
        out["bleu"].append(bleu_refs.stats(preds, s))
        table = read_table(root / f"results/scores/success/{version}/{s}.dialogues.parquet",
                           "success_dialogues")
        for fig in ("inform", "success"):
            out[fig].append(success_stats(table, "standard", fig, s))
        turns = read_table(root / f"results/scores/dst/{version}/{s}.parquet", "dst_turns")
        if not turns.empty:
            out["jga"].append(dst_stats(turns, "jga", s))
            out["fga"].append(dst_stats(turns, "fga", s, lam))
    return out, tuple(refs["dialogue_id"].unique())


def run(stats: dict[str, list], ids: tuple, params: StatsParams) -> dict[str, float]:
    """The bootstrap proper; returns seconds per stage."""
    times = {}
    t0 = time.perf_counter()
    resampler = Resampler.from_params(ids, params)
    times["resampling matrix"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    reps = {k: resampler.replicate_all(v, params.confidence) for k, v in stats.items()}
    times["figures on every resample + intervals"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for k, r in reps.items():
        pairwise_tests(k, r, params)
        adjacent_tests(k, r, params)
    times["pairwise + adjacent tests"] = time.perf_counter() - t0
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workspace", type=Path, default=None)
    ap.add_argument("--version", default="mwz21")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    params = StatsParams(resamples=args.resamples, seed=args.seed)
    if args.workspace:
        t0 = time.perf_counter()
        stats, ids = from_workspace(args.workspace, args.version, params.fga_lambda)
        print(f"per-dialogue statistics from {args.workspace}: "
              f"{time.perf_counter() - t0:.2f} s")
    else:
        stats = synthetic()
        ids = stats["inform"][0].dialogue_ids
    sizes = ", ".join(f"{k} {len(v)}" for k, v in stats.items())
    print(f"systems per figure: {sizes}; dialogues {len(ids)}; resamples {params.resamples}")
    times = run(stats, ids, params)
    for stage, sec in times.items():
        print(f"  {stage:<40} {sec:7.3f} s")
    total = sum(times.values())
    print(f"bootstrap total {total:.3f} s (target <= 30 s): {'OK' if total <= 30 else 'SLOW'}")


if __name__ == "__main__":
    main()
