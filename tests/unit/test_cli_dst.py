"""The DST commands on tiny hand-made inputs: score-dst, score-dst-flags, score-dst-human,
score-dst-paired and tables-dst (records, per-turn Parquet, tables, plot, metrics JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from mwzrepro.cli import cli
from mwzrepro.core.errors import InputError
from mwzrepro.core.io import read_metadata, read_table, write_table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dst"
ONES = [1] * 30


def state_rows(d, t, pairs):
    return [{"dialogue_id": d, "turn": t, "domain": dom, "slot": s, "value": v,
             "alternatives": [v], "position": i} for i, (dom, s, v) in enumerate(pairs)]


@pytest.fixture()
def gold_dir(tmp_path):
    """Two dialogues: mul0001 (3 user turns) and pmul1455 (1 turn, excluded by default)."""
    rows = (state_rows("mul0001", 1, [("hotel", "name", "cityroomz")])
            + state_rows("mul0001", 2, [("hotel", "name", "cityroomz"),
                                         ("hotel", "type", "guesthouse")])
            + state_rows("pmul1455", 0, [("train", "day", "monday")]))
    out = tmp_path / "gold"
    write_table(pd.DataFrame(rows), out / "states.parquet", "states")
    write_table(pd.DataFrame([
        {"dialogue_id": "mul0001", "source_id": "MUL0001", "split": "test", "n_turns": 6},
        {"dialogue_id": "pmul1455", "source_id": "PMUL1455", "split": "test", "n_turns": 2},
    ]), out / "dialogues.parquet", "dialogues")
    return out


def predictions_file(path, states):
    df = pd.DataFrame([
        {"dialogue_id": d, "turn": t, "response": "ok", "response_norm": "ok",
         "state_json": None if s is None else json.dumps(s), "active_domains": None}
        for (d, t), s in states.items()])
    write_table(df, path, "predictions")
    return path


def run(args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result


def common(tmp_path, system, version="mwz21"):
    out = tmp_path / "scores" / version
    return ["--system", system, "--version", version, "--out", out / f"{system}.json",
            "--out-turns", out / f"{system}.parquet"]


def score_dst(tmp_path, gold_dir, system, states, *extra):
    preds = predictions_file(tmp_path / f"{system}.parquet", states)
    return run(["score-dst", "--predictions", preds, "--states", gold_dir / "states.parquet",
                "--dialogues", gold_dir / "dialogues.parquet", *common(tmp_path, system),
                *extra])


GOOD = {
    ("mul0001", 0): {},
    ("mul0001", 1): {"hotel": {"name": "cityroomz", "arrive": "10:00"}},
    ("mul0001", 2): {"hotel": {"name": "cityroomz", "type": "guest house"}},
}


def test_score_dst_record_and_turns(tmp_path, gold_dir):
    res = score_dst(tmp_path, gold_dir, "sys", GOOD, "--forget", "0.95,6")
    assert res.exit_code == 0, res.output
    rec = json.loads((tmp_path / "scores/mwz21/sys.json").read_text())
    s = rec["scores"]
    assert (s["turns"], s["m1"], s["m2"]) == (3, 2, 2)
    assert list(s["fga"])[:4] == ["0.25", "0.5", "0.75", "1.0"]
    assert round(float(list(s["fga"])[4]), 4) == 0.4993  # --forget 0.95,6 (spec §6.4)
    assert rec["coverage"]["excluded"] == ["pmul1455"]
    assert rec["coverage"]["dropped_pred_slots"] == {"hotel-arrive": 1}
    assert rec["fuzzy"]["scores"]["jga"] == 1.0  # guest house ~ guesthouse at θ = 0.9
    assert "|local:subset|" in rec["signature"] and "|excl:pmul1455|" in rec["signature"]
    assert "|match:fuzzy-levenshtein|theta:0.9|" in rec["fuzzy"]["signature"]
    turns = read_table(tmp_path / "scores/mwz21/sys.parquet", "dst_turns")
    assert turns["kind"].tolist() == ["EXACT", "EXACT", "TYPE1"]
    assert read_metadata(tmp_path / "scores/mwz21/sys.parquet")["dst"]["scores"] == s


def test_score_dst_unknown_slot_without_filter_is_an_error(tmp_path, gold_dir):
    res = score_dst(tmp_path, gold_dir, "sys", GOOD, "--unknown-slots", "error")
    assert isinstance(res.exception, InputError)
    assert "dialogue mul0001, turn 1: slot hotel-arrive" in str(res.exception)


def test_score_dst_missing_policy(tmp_path, gold_dir):
    short = {k: v for k, v in GOOD.items() if k[1] < 2}
    res = score_dst(tmp_path, gold_dir, "sys", short)
    assert res.exit_code == 0
    cov = json.loads((tmp_path / "scores/mwz21/sys.json").read_text())["coverage"]
    assert cov["missing_turns"] == {"mul0001": [2]} and cov["scored_turns"] == 2
    res = score_dst(tmp_path, gold_dir, "sys", short, "--missing", "error")
    assert "dialogue mul0001, turn 2: missing prediction" in str(res.exception)


def test_score_dst_without_states(tmp_path, gold_dir):
    res = score_dst(tmp_path, gold_dir, "nostate", {k: None for k in GOOD})
    assert res.exit_code == 0
    rec = json.loads((tmp_path / "scores/mwz21/nostate.json").read_text())
    assert rec["has_states"] is False and rec["scores"] is None
    assert len(read_table(tmp_path / "scores/mwz21/nostate.parquet", "dst_turns")) == 0


def test_score_dst_flags(tmp_path, gold_dir):
    flags = tmp_path / "flags.json"
    wrong_type = ONES[:20] + [0] + ONES[21:]
    flags.write_text(json.dumps({"MUL0001.json": {"0": ONES, "1": ONES, "2": wrong_type},
                                 "PMUL1455.json": {"0": ONES}}))
    res = run(["score-dst-flags", "--flags", flags, "--states", gold_dir / "states.parquet",
               "--dialogues", gold_dir / "dialogues.parquet", *common(tmp_path, "trippy")])
    assert res.exit_code == 0, res.output
    rec = json.loads((tmp_path / "scores/mwz21/trippy.json").read_text())
    s = rec["scores"]
    assert (s["m1"], s["jga"], s["aga"], s["aga_relative"]) == (2, 2 / 3, 0.75, None)
    assert rec["settings"]["fga_local_match"] == "error_set" and rec["fuzzy"] is None


@pytest.mark.parametrize(
    "content, message",
    [
        ({"MUL0001.json": {"0": ONES, "2": ONES}}, "dialogue MUL0001.json, turn 1: missing"),
        ({"MUL0001.json": {"0": ONES[:29]}}, "dialogue MUL0001.json, turn 0: flag vector must "
                                             "be 30"),
    ],
)
def test_score_dst_flags_malformed(tmp_path, content, message):
    flags = tmp_path / "flags.json"
    flags.write_text(json.dumps(content))
    res = run(["score-dst-flags", "--flags", flags, *common(tmp_path, "t")])
    assert isinstance(res.exception, InputError) and message in str(res.exception)
    assert "flags.json" in str(res.exception)


def test_score_dst_human_and_paired(tmp_path):
    res = run(["score-dst-human", "--logs-dir", FIXTURES, *common(tmp_path, "sample")])
    assert res.exit_code == 0, res.output
    rec = json.loads((tmp_path / "scores/mwz21/sample.json").read_text())
    assert rec["scores"]["m2"] == 2 and rec["input"] == "log"
    paired = tmp_path / "paired.json"
    paired.write_text(json.dumps({"MUL0002.json": {
        "0": {"gt": {"hotel": {"people": "2"}}, "pr": {"hotel": {"book people": "2"}}},
        "1": {"gt": {"hotel": {"people": "2", "area": "east"}}, "pr": {"hotel": {}}}}}))
    res = run(["score-dst-paired", "--input", paired, *common(tmp_path, "trade")])
    assert res.exit_code == 0, res.output
    s = json.loads((tmp_path / "scores/mwz21/trade.json").read_text())["scores"]
    assert (s["turns"], s["m1"], s["aga"]) == (2, 1, 0.5)
    paired.write_text(json.dumps({"MUL0002.json": {"0": {"gt": {}}}}))
    res = run(["score-dst-paired", "--input", paired, *common(tmp_path, "trade")])
    assert "dialogue MUL0002.json, turn 0: needs 'gt' and 'pr'" in str(res.exception)


def test_tables_dst(tmp_path, gold_dir):
    assert score_dst(tmp_path, gold_dir, "sys", GOOD).exit_code == 0
    assert score_dst(tmp_path, gold_dir, "nostate", {k: None for k in GOOD}).exit_code == 0
    assert run(["score-dst-human", "--logs-dir", FIXTURES, "--label", "SOM-DST sample",
                *common(tmp_path, "sample")]).exit_code == 0
    outs = tmp_path / "out"

    def tables():
        return run(["tables-dst", "--scores-dir", tmp_path / "scores",
                    "--table", outs / "dst", "--fuzzy-table", outs / "dst_fuzzy",
                    "--metrics", outs / "dst.json", "--plot", outs / "fga.csv",
                    "--plot-image", outs / "fga.svg", "--plot-lambda-max", "1",
                    "--plot-lambda-step", "0.25"])

    res = tables()
    assert res.exit_code == 0, res.output
    md = (outs / "dst.md").read_text()
    lines = [x for x in md.splitlines() if x.startswith("| ")]
    assert lines[0].startswith("| Model | Gold | Input | #Dialogues | #Turns | #M1 | #M2 | JGA |"
                               " SA | AGA | FGA λ=0.25 | FGA λ=0.5 | FGA λ=0.75 | FGA λ=1 |")
    assert lines[1].startswith("| SOM-DST sample | mwz21 | human-eval logs | 1 | 3 | 1 | 2 |")
    assert lines[2].startswith("| sys | mwz21 | predicted states | 1 | 3 | 2 | 2 | 66.67 |")
    assert "no predicted states (not scored): nostate@mwz21" in md
    metrics = json.loads((outs / "dst.json").read_text())
    assert sorted(metrics["rows"]) == ["sample@mwz21", "sys@mwz21"]
    assert metrics["not_scored"] == ["nostate@mwz21"]
    plot = pd.read_csv(outs / "fga.csv")
    assert plot["lambda"].tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert plot.loc[0, "sys@mwz21"] == pytest.approx(66.6667, abs=1e-4)  # FGA(0) = JGA
    svg = (outs / "fga.svg").read_bytes()
    assert tables().exit_code == 0 and (outs / "fga.svg").read_bytes() == svg  # deterministic
    assert b"<dc:date>" not in svg


def test_tables_dst_refuses_mixed_settings(tmp_path, gold_dir):
    assert score_dst(tmp_path, gold_dir, "a", GOOD).exit_code == 0
    assert score_dst(tmp_path, gold_dir, "b", GOOD, "--lambdas", "0.5").exit_code == 0
    res = run(["tables-dst", "--scores-dir", tmp_path / "scores", "--table", tmp_path / "t",
               "--fuzzy-table", tmp_path / "f", "--metrics", tmp_path / "m.json",
               "--plot", tmp_path / "p.csv", "--plot-image", tmp_path / "p.svg"])
    assert res.exit_code != 0 and "different settings" in str(res.exception)
