"""Bootstrap intervals on the pipeline's real score files (issue 14 acceptance).

The files are those the pipeline writes under ``results/scores`` and ``data/interim`` of a
built workspace (the ``built_workspace`` fixture, tests/workspace.py): $MWZREPRO_WORKSPACE,
this checkout after ``make tables``, or else a reduced workspace built from the mirror (the
mwz21 test split; AuGPT, LABES and UBAR), as in CI's fresh clone.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from mwzrepro.core.io import read_metadata, read_table
from mwzrepro.stats.bleu_stats import BleuReferences
from mwzrepro.stats.bootstrap import Resampler
from mwzrepro.stats.units import dst_stats, success_stats

pytestmark = [pytest.mark.slow, pytest.mark.mirror]


@pytest.fixture(scope="module")
def workspace(built_workspace: Path) -> Path:
    return built_workspace


def need(path: Path) -> Path:
    assert path.is_file(), f"{path}: the built workspace lacks this output"
    return path


def test_inform_interval_is_the_binomial_prediction(workspace: Path):
    # AuGPT: Inform 76.6 % on the 1000 test dialogues of MultiWOZ 2.1 (leaderboard value).
    table = read_table(need(workspace / "results/scores/success/mwz21/augpt.dialogues.parquet"),
                       "success_dialogues")
    stats = success_stats(table, "standard", "inform", "augpt")
    assert len(stats.dialogue_ids) == 1000 and round(stats.point, 1) == 76.6
    rep = Resampler(stats.dialogue_ids, 1000, 0).replicate(stats)
    p = stats.point / 100
    predicted = 100 * 1.959964 * math.sqrt(p * (1 - p) / 1000)  # 2.62 points
    assert predicted == pytest.approx(2.62, abs=0.01)
    assert rep.interval.half_width == pytest.approx(predicted, rel=0.10)
    # the committed results/metrics/stats_mwz21.json (the pipeline's stats-bootstrap)
    assert (rep.interval.lower, rep.interval.upper) == pytest.approx((73.9, 79.2), abs=1e-9)


def test_every_systems_inform_and_success_width_follow_the_binomial(workspace: Path):
    files = sorted((workspace / "results/scores/success/mwz21").glob("*.dialogues.parquet"))
    assert len(files) >= 3, f"no success scores under {workspace}/results/scores/success/mwz21"
    for f in files:
        table = read_table(f, "success_dialogues")
        for metric in ("inform", "success"):
            s = success_stats(table, "standard", metric, f.stem)
            n, p = len(s.dialogue_ids), s.point / 100
            predicted = 100 * 1.959964 * math.sqrt(p * (1 - p) / n)
            hw = Resampler(s.dialogue_ids, 1000, 0).replicate(s).interval.half_width
            assert hw == pytest.approx(predicted, rel=0.15), (f.stem, metric)


@pytest.mark.parametrize("system", ["augpt", "labes", "ubar"])
def test_bleu_at_full_sample_is_the_pipelines_number(workspace: Path, system: str):
    refs = read_table(need(workspace / "data/interim/mwz21/test/references.parquet"),
                      "references")
    preds = read_table(need(workspace / f"data/interim/predictions/{system}.parquet"),
                       "predictions")
    scores = read_table(need(workspace / f"results/scores/bleu/mwz21/{system}.parquet"),
                        "scores")
    stats = BleuReferences(refs).stats(preds, system)
    assert stats.point == float(scores.loc[scores["metric"] == "bleu", "value"].iloc[0])


def test_dst_points_are_the_pipelines_numbers(workspace: Path):
    path = need(workspace / "results/scores/dst/mwz21/ubar.parquet")
    turns = read_table(path, "dst_turns")
    scores = read_metadata(path)["dst"]["scores"]
    assert dst_stats(turns, "jga", "ubar").point == 100 * scores["jga"]
    for lam, value in scores["fga"].items():
        assert dst_stats(turns, "fga", "ubar", float(lam)).point == 100 * value


def test_compare_command_equals_the_pipelines_pairwise_table(workspace: Path, mirror: Path,
                                                              scorer_cache: Path, monkeypatch,
                                                              capsys):
    """`mwzrepro compare augpt.json ubar.json` (the scorer, from the two prediction files)
    gives the pipeline's pairwise rows (stats_pairs_mwz21.csv): the same resamples of the
    same 1000 test dialogues, so the same differences, intervals and p-values."""
    import json
    import sys

    import pandas as pd

    from mwzrepro.cli import main
    from tests.conftest import mirror_file

    files = [mirror_file(mirror, "Tomiinek/MultiWOZ_Evaluation", f"predictions/{s}.json")
             for s in ("augpt", "ubar")]
    monkeypatch.setattr(sys, "argv", ["mwzrepro", "compare", *map(str, files), "--format",
                                      "json", "--mirror", str(mirror), "--cache-dir",
                                      str(scorer_cache)])
    try:
        main()
    except SystemExit as exc:
        assert exc.code in (0, None), capsys.readouterr().err
    doc = json.loads(capsys.readouterr().out)
    assert doc["dialogues"] == 1000
    pairs = pd.read_csv(need(workspace / "results/tables/stats_pairs_mwz21.csv"))
    for row in doc["metrics"]:
        match = pairs[(pairs["figure"] == row["metric"]) & pairs["a"].isin(["augpt", "ubar"])
                      & pairs["b"].isin(["augpt", "ubar"])]
        assert len(match) == 1, row["metric"]
        ref = match.iloc[0]
        sign = 1 if ref["a"] == "augpt" else -1
        lower, upper = sorted((sign * ref["lower"], sign * ref["upper"]))
        assert row["diff"] == pytest.approx(sign * ref["diff"], abs=1e-9), row["metric"]
        assert (row["lower"], row["upper"]) == pytest.approx((lower, upper), abs=1e-9)
        assert row["p"] == pytest.approx(ref["p"], rel=1e-9), row["metric"]
    assert [r["metric"] for r in doc["metrics"]] == ["inform", "success", "bleu", "jga", "fga"]
    assert [round(r["diff"], 2) for r in doc["metrics"]] == [-6.8, -9.8, -0.97, 13.97, 8.13]
