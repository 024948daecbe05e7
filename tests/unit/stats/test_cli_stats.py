"""The stats commands on a small synthetic workspace written with the pipeline's own schemas:
outputs, determinism (byte-identical reruns, SVG included), consistency checks, params."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from mwzrepro.bleu.score import corpus_bleu
from mwzrepro.cli.stats import COMMANDS
from mwzrepro.core.errors import ConfigError
from mwzrepro.core.io import write_table
from mwzrepro.core.params import cli_args, validate_block
from mwzrepro.stats.catalog import METRICS
from mwzrepro.stats.params import StatsParams

CMD = {c.name: c for c in COMMANDS}
SYSTEMS = ("alpha", "beta", "gamma")
N = 40
WORDS = ["the", "hotel", "is", "in", "the", "centre", "[value_name]", "book", "it", "."]


def _text(rng: np.random.Generator, n: int) -> str:
    return " ".join(rng.choice(WORDS, size=n))


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    rng = np.random.default_rng(0)
    ids = [f"d{i:03d}" for i in range(N)]
    refs = pd.DataFrame([(d, t, "x", "x", _text(rng, 8)) for d in ids for t in range(2)],
                        columns=["dialogue_id", "turn", "text", "delex", "reference"])
    write_table(refs, root / "refs.parquet", "references")
    quality = {"alpha": 0.9, "beta": 0.6, "gamma": 0.3}
    for s in SYSTEMS:
        keep = ids if s != "gamma" else ids[:-3]  # gamma misses three dialogues
        preds = refs[refs["dialogue_id"].isin(keep)].copy()
        preds["response_norm"] = [r if rng.random() < quality[s] else _text(rng, 7)
                                  for r in preds["reference"]]
        preds["response"] = preds["response_norm"]
        preds["state_json"] = None
        preds["active_domains"] = None
        preds = preds[["dialogue_id", "turn", "response", "response_norm", "state_json",
                       "active_domains"]]
        write_table(preds, root / "pred" / f"{s}.parquet", "predictions")
        b = corpus_bleu(preds, refs, "v1", s)
        sig = b.signature.format()
        write_table(pd.DataFrame([{"system": s, "version": "v1", "metric": "bleu",
                                   "setting": "", "key": "total", "value": b.score,
                                   "signature": sig}]),
                    root / "bleu" / f"{s}.parquet", "scores")
        rows = [(setting, d, "total", bool(rng.random() < quality[s] + bonus),
                 bool(rng.random() < quality[s]))
                for setting, bonus in (("standard", 0.0), ("optimistic", 0.05)) for d in keep]
        sigs = {f"{m}/{st}": f"Inform/Success|system:{s}|ver:v1|set:{st}|v:0.1.0"
                for m in ("inform", "success") for st in ("standard", "optimistic")}
        write_table(pd.DataFrame(rows, columns=["setting", "dialogue_id", "domain", "inform",
                                                "success"]),
                    root / "success" / f"{s}.dialogues.parquet", "success_dialogues",
                    {"signatures": sigs})
        turns = []
        if s != "beta":  # beta has no predicted states
            for d in keep:
                for t in range(3):
                    kind = rng.choice(["EXACT", "TYPE1", "TYPE2"],
                                      p=[quality[s], (1 - quality[s]) / 2, (1 - quality[s]) / 2])
                    turns.append((d, t, kind == "EXACT", False, str(kind),
                                  float(t + 1) if kind == "TYPE2" else np.nan, 0, -1, -1, -1, 0))
        cols = ["dialogue_id", "turn", "exact", "local", "kind", "x", "n_wrong", "gold_slots",
                "hits", "union", "rewrites"]
        df = pd.DataFrame(turns, columns=cols).astype(
            {"turn": "int32", "n_wrong": "int32", "gold_slots": "int32", "hits": "int32",
             "union": "int32", "rewrites": "int32"})
        write_table(df, root / "dst" / f"{s}.parquet", "dst_turns",
                    {"dst": {"signature": f"DST|system:{s}|ver:v1|v:0.1.0"}})
    return root


def _inputs(ws: Path) -> list[str]:
    return ["--version", "v1", "--references", str(ws / "refs.parquet"),
            "--predictions-dir", str(ws / "pred"), "--bleu-dir", str(ws / "bleu"),
            "--success-dir", str(ws / "success"), "--dst-dir", str(ws / "dst")]


FAMILY_DIRS = {"bleu": ("--predictions-dir", "pred", "--bleu-dir", "bleu"),
               "success": ("--success-dir", "success"), "dst": ("--dst-dir", "dst")}


def _resample(ws: Path, family: str, out: Path, *extra: str):
    """stats-resample of one family: replicates to ``out``, its significance tables and heat
    maps to ``out``'s grandparent's tables/ and plots/."""
    dirs = FAMILY_DIRS[family]
    args = ["--version", "v1", "--family", family, "--references", str(ws / "refs.parquet"),
            *[a for s in SYSTEMS for a in ("--system", s)],
            *[str(ws / d) if i % 2 else d for i, d in enumerate(dirs)],
            "--out", str(out), "--tables-dir", str(out.parent.parent / "tables"),
            "--plots-dir", str(out.parent.parent / "plots"), *extra]
    return CliRunner().invoke(CMD["stats-resample"], args)


def _bootstrap(ws: Path, out: Path, *extra: str) -> None:
    """stats-resample of every family, then stats-bootstrap (as the workflow runs them)."""
    files = []
    for family in FAMILY_DIRS:
        files.append(out / "replicates" / f"{family}.parquet")
        res = _resample(ws, family, files[-1], "--resamples", "200", *extra)
        assert res.exit_code == 0, res.output
    args = ["--version", "v1", *[a for f in files for a in ("--replicates", str(f))],
            "--resamples", "200", "--tables-dir", str(out / "tables"),
            "--metrics", str(out / "stats_v1.json"), *extra]
    res = CliRunner().invoke(CMD["stats-bootstrap"], args, catch_exceptions=False)
    assert res.exit_code == 0, res.output


def test_bootstrap_outputs_and_determinism(workspace: Path, tmp_path: Path):
    _bootstrap(workspace, tmp_path / "a")
    _bootstrap(workspace, tmp_path / "b")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*")
                   if p.is_file() and p.parent.name != "replicates")
    expected = {f"tables/stats_significance_v1_{m.key}.{ext}" for m in METRICS
                for ext in ("md", "csv", "tex")}
    expected |= {f"plots/stats_significance_v1_{m.key}.svg" for m in METRICS}
    expected |= {f"tables/stats_{t}_v1.{ext}" for t in ("ci", "adjacent")
                 for ext in ("md", "csv", "tex")}
    expected |= {"tables/stats_pairs_v1.csv", "stats_v1.json"}
    assert {str(f) for f in files} == expected
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    metrics = json.loads((tmp_path / "a" / "stats_v1.json").read_text())
    assert metrics["dialogues"] == N and metrics["params"]["resamples"] == 200
    jga = metrics["figures"]["jga"]
    assert sorted(jga["systems"]) == ["alpha", "gamma"]  # beta has no states
    assert {k: (f["pairs"]["tests"], f["pairs"]["significant"])
            for k, f in metrics["figures"].items()} == {
        "bleu": (3, 3), "inform": (3, 3), "success": (3, 2), "inform-optimistic": (3, 3),
        "success-optimistic": (3, 3), "jga": (1, 1), "fga": (1, 1)}
    # the fixture's Inform: alpha 37 of 40 dialogues, beta 24 of 40, gamma 11 of its 37; the
    # 95 % intervals of 200 resamples of seed 0
    assert {s: (v["point"], v["lower"], v["upper"])
            for s, v in metrics["figures"]["inform"]["systems"].items()} == {
        "alpha": (92.5, 85.0, 100.0), "beta": (60.0, 42.5, 72.5),
        "gamma": pytest.approx((1100 / 37, 15.779352226720649, 48.648648648648646), rel=1e-9)}
    bleu = metrics["figures"]["bleu"]
    assert "bs:200|seed:0" in bleu["signature"] and bleu["condition"] == "v1"
    for fig in metrics["figures"].values():
        for v in fig["systems"].values():
            assert v["lower"] <= v["point"] <= v["upper"]
    ci = (tmp_path / "a" / "tables" / "stats_ci_v1.md").read_text()
    assert "| beta |" in ci and " ±" in ci and "| – |" in ci


def test_bleu_must_match_the_pipelines_number(workspace: Path, tmp_path: Path):
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(workspace, ws)
    p = ws / "bleu" / "alpha.parquet"
    df = pd.read_parquet(p)
    df["value"] = df["value"] + 1
    write_table(df, p, "scores")
    res = _resample(ws, "bleu", tmp_path / "out" / "replicates" / "bleu.parquet")
    assert res.exit_code != 0 and "stale" in str(res.exception)
    assert not (tmp_path / "out").exists()


def test_one_family_resampled_alone_gives_the_same_outputs(workspace: Path, tmp_path: Path):
    """Issue 19: each family is resampled in its own process on the shared resamples; the
    assembled outputs equal resampling every family in one process (stats-compare's loader,
    the library's own path), figure by figure, and a family file holds only its figures."""
    from mwzrepro.core.io import read_metadata
    from mwzrepro.stats.bootstrap import Resampler
    from mwzrepro.stats.family import family_replicates, read_replicates

    _bootstrap(workspace, tmp_path)
    files = sorted((tmp_path / "replicates").glob("*.parquet"))
    figures = {f.stem: list(read_metadata(f)["figures"]) for f in files}
    assert figures == {"bleu": ["bleu"], "dst": ["jga", "fga"],
                       "success": ["inform", "success", "inform-optimistic",
                                   "success-optimistic"]}
    params = StatsParams(resamples=200)
    results, sigs, dialogues = read_replicates(files, "v1", params.confidence)
    assert dialogues == N and list(results) == [m.key for m in METRICS]
    from mwzrepro.cli.stats import _load

    import logging

    stats, _, ids = _load("v1", workspace / "refs.parquet", workspace / "pred",
                          workspace / "bleu", workspace / "success", workspace / "dst",
                          list(SYSTEMS), params, logging.getLogger("test"))
    together = family_replicates(stats, Resampler(ids, 200, params.seed), params.confidence)
    for key, reps in together.items():
        assert list(results[key]) == list(reps), key
        for system, rep in reps.items():
            got = results[key][system]
            assert got.interval == rep.interval, (key, system)
            assert np.array_equal(got.values, rep.values, equal_nan=True), (key, system)


def test_ranking_and_compare(workspace: Path, tmp_path: Path):
    _bootstrap(workspace, tmp_path)
    # two reference styles that swap alpha and gamma (bleu_styles.json's layout)
    styles = tmp_path / "bleu_styles.json"
    styles.write_text(json.dumps({"bleu_styles": {
        "span": {"alpha": 17.0, "beta": 15.0, "gamma": 16.0},
        "hdsa": {"alpha": 14.0, "beta": 13.0, "gamma": 15.0}}}))
    res = CliRunner().invoke(CMD["stats-ranking"], [
        "--stats", str(tmp_path / "stats_v1.json"), "--bleu-styles", str(styles),
        "--table", str(tmp_path / "tau"),
        "--ranks-table", str(tmp_path / "ranks"), "--plots-dir", str(tmp_path / "plots"),
        "--metrics", str(tmp_path / "ranking.json")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    ranking = json.loads((tmp_path / "ranking.json").read_text())
    assert ranking["conditions"]["inform"] == ["v1", "v1 optimistic"]
    assert ranking["conditions"]["bleu-styles"] == ["ref:span", "ref:hdsa"]
    tau = next(c for c in ranking["comparisons"] if c["metric"] == "bleu-styles")
    # ranks (alpha, beta, gamma): span 1 3 2, hdsa 2 3 1 -> one discordant pair of three
    assert tau["tau"] == pytest.approx(1 / 3)
    for metric in ("bleu", "bleu-styles", "inform", "success", "jga", "fga"):
        assert (tmp_path / "plots" / f"stats_bump_{metric}.svg").is_file()
    res = CliRunner().invoke(CMD["stats-compare"], _inputs(workspace) + [
        "--system-a", "alpha", "--system-b", "gamma", "--resamples", "200",
        "--out", str(tmp_path / "cmp.json")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0].split()[:3] == ["metric", "alpha", "gamma"]
    cmp = json.loads((tmp_path / "cmp.json").read_text())
    # the same resamples as the pairwise table: identical p-value
    pairs = pd.read_csv(tmp_path / "tables" / "stats_pairs_v1.csv")
    row = pairs[(pairs["figure"] == "inform") & pairs["a"].isin(["alpha", "gamma"])
                & pairs["b"].isin(["alpha", "gamma"])]
    got = next(f for f in cmp["figures"] if f["metric"] == "inform")
    assert len(row) == 1
    assert got["p"] == pytest.approx(float(row["p"].iloc[0]), rel=1e-12)


def test_stats_params_validation_and_cli_args():
    assert validate_block(StatsParams, {"resamples": 500}, "stats").resamples == 500
    with pytest.raises(ConfigError, match="stats.confidence"):
        validate_block(StatsParams, {"confidence": 1.5}, "stats")
    with pytest.raises(ConfigError, match="stats.correction"):
        validate_block(StatsParams, {"correction": "fdr"}, "stats")
    with pytest.raises(ConfigError, match="unknown key"):
        validate_block(StatsParams, {"resample": 5}, "stats")
    assert cli_args(StatsParams, {"seed": 3}) == (
        '--alpha "0.05" --confidence "0.95" --correction "holm" --fga-lambda "0.5" '
        '--pvalue "normal" --resamples "1000" --seed "3"')


def test_several_versions_in_one_process_give_each_versions_files(workspace: Path,
                                                                   tmp_path: Path):
    """Issue 19: stats-resample and stats-bootstrap take every version in one process (each
    per-version option once per --version); each version's files are the bytes of a run of
    that version alone (here v2 is a copy of v1's inputs, written under its own name)."""
    def resample(out: Path, versions: tuple[str, ...]):
        args = [a for v in versions for a in ("--version", v)] + ["--family", "success"]
        args += [a for _ in versions for a in ("--references", str(workspace / "refs.parquet"))]
        args += [a for s in SYSTEMS for a in ("--system", s)]
        args += [a for _ in versions for a in ("--success-dir", str(workspace / "success"))]
        args += [a for v in versions for a in ("--out", str(out / "replicates" / f"{v}.parquet"))]
        args += ["--resamples", "200", "--tables-dir", str(out / "tables"),
                 "--plots-dir", str(out / "plots")]
        return CliRunner().invoke(CMD["stats-resample"], args)

    def bootstrap(out: Path, versions: tuple[str, ...]):
        args = [a for v in versions for a in ("--version", v)]
        args += [a for v in versions for a in ("--replicates",
                                                str(out / "replicates" / f"{v}.parquet"))]
        args += [a for v in versions for a in ("--metrics", str(out / f"stats_{v}.json"))]
        args += ["--resamples", "200", "--tables-dir", str(out / "tables")]
        return CliRunner().invoke(CMD["stats-bootstrap"], args)

    for out, versions in ((tmp_path / "alone", ("v1",)), (tmp_path / "both", ("v1", "v2"))):
        for run in (resample, bootstrap):
            res = run(out, versions)
            assert res.exit_code == 0, (res.output, res.exception)
    alone = sorted(p.relative_to(tmp_path / "alone") for p in (tmp_path / "alone").rglob("*")
                   if p.is_file())
    both = {p.relative_to(tmp_path / "both") for p in (tmp_path / "both").rglob("*")
            if p.is_file()}
    assert len(alone) == 2 + 4 * 4 + 3 * 2 + 1  # replicates+json, 4 figures, ci/adjacent, pairs
    assert set(alone) < both and {str(p).replace("v1", "v2") for p in alone} == {
        str(p) for p in both - set(alone)}
    for f in alone:
        assert (tmp_path / "alone" / f).read_bytes() == (tmp_path / "both" / f).read_bytes(), f
    args = ["--version", "v1", "--version", "v2", "--family", "success", "--references",
            str(workspace / "refs.parquet"), "--system", "alpha", "--success-dir",
            str(workspace / "success"), "--out", str(tmp_path / "x.parquet"),
            "--tables-dir", str(tmp_path / "t"), "--plots-dir", str(tmp_path / "p")]
    res = CliRunner().invoke(CMD["stats-resample"], args)
    assert res.exit_code == 2 and "--references is given 1 times for 2 --version" in res.output
