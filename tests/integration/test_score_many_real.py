"""``mwzrepro score`` on the 19 public prediction files in one call (issue 32 acceptance), on
the real data mirror:

* with ``--ci --paired-bs`` every interval equals the pipeline's (the committed
  ``results/metrics/stats_mwz21.json``: same 1000 test dialogues, 1000 resamples, seed 0) and
  every uncorrected paired p-value against the baseline the pipeline's pairwise table
  (``stats_pairs_mwz21.csv`` of a built workspace) for the same pair;
* every row equals the one-file command;
* partial files (BORT, DAMD, MinTL: 999 dialogues, LABES 944, PPTOD one turn short) are marked
  ``cov:`` and get no rank and no test;
* ``compare`` of a 200-dialogue file with a full one is made on the 200 shared dialogues.

Inform/Success of DoTS and SOLOIST are left out of the interval check: the pipeline scores
them with the leaderboard's domain sources (``estimated``, ``slot-names``), the command with
the reference evaluator's rule (``auto``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mwzrepro.cli import main
from tests.conftest import REPO

pytestmark = pytest.mark.mirror

EVALUATOR = "Tomiinek/MultiWOZ_Evaluation"
#: Systems the pipeline scores with another active-domain source than ``auto``.
OTHER_DOMAINS = {"dots", "soloist"}
PIPELINE = json.loads((REPO / "results/metrics/stats_mwz21.json").read_text())


def _predictions(mirror: Path) -> Path:
    hits = sorted((mirror / EVALUATOR).glob("*/predictions"))
    if not hits:
        pytest.skip(f"{EVALUATOR}/predictions is not in the mirror at {mirror}")
    return hits[0]


def _run(monkeypatch, capsys, *args) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["mwzrepro", *map(str, args)])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def board(mirror, scorer_cache, tmp_path_factory) -> dict:
    """The JSON table of the 19 files with --ci --paired-bs (baseline: augpt, the first)."""
    import subprocess

    out = tmp_path_factory.mktemp("board") / "board.json"
    run = subprocess.run(
        [sys.executable, "-c", "from mwzrepro.cli import main; main()", "score", str(_predictions(mirror)), "--ci",
         "--paired-bs", "--format", "json", "--out", str(out), "--mirror", str(mirror),
         "--cache-dir", str(scorer_cache)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(out.read_text())


def test_intervals_are_the_pipelines(board):
    rows = {r["system"]: r for r in board["systems"]}
    assert len(rows) == 19 and board["dialogues"] == 1000
    checked = 0
    for metric in ("inform", "success", "bleu", "jga", "fga"):
        for system, ref in PIPELINE["figures"][metric]["systems"].items():
            if metric in ("inform", "success") and system in OTHER_DOMAINS:
                continue
            row = rows[system]
            assert (row[f"{metric}_lower"], row[f"{metric}_upper"]) == pytest.approx(
                (ref["lower"], ref["upper"]), abs=1e-9), (system, metric)
            assert row[metric] == pytest.approx(ref["point"], abs=0.05 + 1e-9)
            checked += 1
    assert checked == 2 * 17 + 19 + 2 * 13


def test_partial_files_are_marked_and_not_ranked(board):
    rows = {r["system"]: r for r in board["systems"]}
    marked = {s: r["differs"] for s, r in rows.items() if r["differs"]}
    assert marked == {"bort": "cov:999/1000", "damd": "cov:999/1000", "labes": "cov:944/1000",
                      "mintl": "cov:999/1000", "pptod": "cov:turns=7371/7372"}
    for s in marked:
        assert rows[s]["rank"] is None and rows[s]["inform_p"] is None
    ranked = sorted((r["rank"], s) for s, r in rows.items() if r["rank"] is not None)
    assert [s for _, s in ranked[:3]] == ["marco", "galaxy-policy", "hdno"]   # by Combined
    assert board["comparability"]["differing"] == {"cov": sorted(marked)}


@pytest.mark.slow
def test_paired_p_values_are_the_pipelines(board, built_workspace):
    import pandas as pd

    pairs = pd.read_csv(built_workspace / "results/tables/stats_pairs_mwz21.csv")
    rows = {r["system"]: r for r in board["systems"]}
    checked = 0
    for metric in ("inform", "success", "bleu", "jga", "fga"):
        for system, row in rows.items():
            if system == "augpt" or row[f"{metric}_p"] is None or (
                    metric in ("inform", "success") and system in OTHER_DOMAINS):
                continue
            match = pairs[(pairs["figure"] == metric) & pairs["a"].isin([system, "augpt"])
                          & pairs["b"].isin([system, "augpt"])]
            if match.empty:          # a reduced workspace holds three systems
                continue
            ref = match.iloc[0]
            sign = 1 if ref["a"] == system else -1
            assert row[f"{metric}_diff"] == pytest.approx(sign * ref["diff"], abs=1e-9)
            assert row[f"{metric}_p"] == pytest.approx(ref["p"], rel=1e-9), (system, metric)
            checked += 1
    assert checked >= 1


def test_rows_equal_the_one_file_command(board, mirror, scorer_cache, monkeypatch, capsys):
    rows = {r["system"]: r for r in board["systems"]}
    for system in ("augpt", "labes", "hdsa"):
        code, out, err = _run(monkeypatch, capsys, "score",
                              _predictions(mirror) / f"{system}.json", "--format", "json",
                              "--no-result-cache", "--mirror", mirror, "--cache-dir",
                              scorer_cache)
        assert code == 0, err
        one = json.loads(out)
        row = rows[system]
        assert (row["inform"], row["success"], row["bleu"], row["combined"]) == (
            one["success"]["inform"]["total"], one["success"]["success"]["total"],
            one["bleu"]["mwz21"], one["combined"])
        assert row["signatures"] == {k: v for k, v in one["signatures"].items()
                                     if k != "richness"}   # not a column of the table
        fga = one["dst_fga"]
        assert (row["jga"], row["fga"]) == ((fga["jga"], fga["fga"]["0.5"]) if fga
                                            else (None, None))


def test_compare_200_of_1000_on_the_shared_dialogues(mirror, scorer_cache, tmp_path,
                                                      monkeypatch, capsys):
    files = _predictions(mirror)
    full = json.loads((files / "augpt.json").read_text())
    part = {d: full[d] for d in sorted(full)[:200]}
    (tmp_path / "part.json").write_text(json.dumps(part))
    common = ["--mirror", mirror, "--cache-dir", scorer_cache, "--format", "json"]
    code, out, err = _run(monkeypatch, capsys, "compare", tmp_path / "part.json",
                          files / "ubar.json", *common)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["dialogues"] == 200 and doc["coverage"]["shared_only"]
    assert "DIFFERENT COVERAGE: part covers 200 and ubar 1000 of the 1000 test dialogues; " \
        "compared on the 200 dialogues both cover (paired)" in err
    assert "over the 200 of 1000 test dialogues both files cover" in doc["note"]
    # AuGPT's own 200 dialogues against UBAR's same 200: A's figure is the full file's
    # figure on those dialogues, not UBAR's 1000-dialogue figure
    code, sub, _ = _run(monkeypatch, capsys, "compare", tmp_path / "part.json",
                        tmp_path / "part.json", *common)
    a_alone = {m["metric"]: m["a"]["point"] for m in json.loads(sub)["metrics"]}
    for m in doc["metrics"]:
        assert m["a"]["point"] == pytest.approx(a_alone[m["metric"]], abs=1e-9)
    assert {m["metric"]: m["b"]["point"] for m in doc["metrics"]}["inform"] != 83.4
    code, out, err = _run(monkeypatch, capsys, "compare", tmp_path / "part.json",
                          files / "ubar.json", *common, "--strict")
    assert code == 1 and "--strict" in err.strip().splitlines()[-1]
