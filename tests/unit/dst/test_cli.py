"""The DST commands on tiny hand-made inputs: score-dst (one system, and several in one
process), score-dst-flags, score-dst-human, score-dst-paired and tables-dst (records, per-turn
Parquet, tables, plot, metrics JSON), and their options derived from the ``dst`` block."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pandas as pd
import pytest
import yaml
from click.testing import CliRunner

from mwzrepro.cli import dst as cli_dst
from mwzrepro.cli import dst_tables as cli_dst_tables
from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.io import read_metadata, read_table, write_table
from mwzrepro.core.params import cli_args
from mwzrepro.dst.params import DSTParams

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dst"
REPO = Path(__file__).resolve().parents[3]
ONES = [1] * 30

#: The area's commands, independent of the CLI's command registry.
cli = click.Group(commands=cli_dst.COMMANDS + cli_dst_tables.COMMANDS)


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
    # RSA: turn 0 1/1, turn 1 0/2 (area missed, people dropped); GCA: people correct at turn
    # 0, then area and the dropped people missed: c = 1, m = 2, 1 · 4 / (1 + 9)
    assert (s["rsa"], s["rsa_turns"], s["gca"]) == (0.5, 2, 0.4)
    assert s["gca_changes"] == {"correct": 1, "wrong": 0, "over": 0, "missed": 2}
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
    assert lines[0] == ("| Model | Gold | Input | #Dialogues | #Turns | #M1 | #M2 | JGA |"
                        " SA | AGA | FGA λ=0.25 | FGA λ=0.5 | FGA λ=0.75 | FGA λ=1 | RSA | GCA |")
    assert lines[1].startswith("| SOM-DST sample | mwz21 | human-eval logs | 1 | 3 | 1 | 2 |")
    assert lines[2].startswith("| sys | mwz21 | predicted states | 1 | 3 | 2 | 2 | 66.67 |")
    assert "no predicted states (not scored): nostate@mwz21" in md
    fuzzy = (outs / "dst_fuzzy.md").read_text()
    sig = next(x for x in fuzzy.splitlines() if "DST-fuzzy|" in x)
    assert "DST-fuzzy|ver:mwz21|" in sig                 # the version, as in every signature
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


def test_score_dst_several_systems_in_one_process(tmp_path, gold_dir):
    """--predictions-dir with --system repeated writes exactly the one-system files."""
    preds = tmp_path / "preds"
    predictions_file(preds / "good.parquet", GOOD)
    predictions_file(preds / "nostate.parquet", {k: None for k in GOOD})
    gold = ["--states", gold_dir / "states.parquet", "--dialogues", gold_dir / "dialogues.parquet"]
    res = run(["score-dst", "--predictions-dir", preds, "--system", "good", "--system", "nostate",
               "--version", "mwz21", "--out-dir", tmp_path / "multi", *gold])
    assert res.exit_code == 0, res.output
    for system in ("good", "nostate"):
        res = run(["score-dst", "--predictions", preds / f"{system}.parquet", *gold,
                   *common(tmp_path, system)])
        assert res.exit_code == 0, res.output
        for ext in ("json", "parquet"):
            one = (tmp_path / "scores" / "mwz21" / f"{system}.{ext}").read_bytes()
            assert (tmp_path / "multi" / f"{system}.{ext}").read_bytes() == one
    rec = json.loads((tmp_path / "multi" / "good.json").read_text())
    assert rec["coverage"]["source"] == str(preds / "good.parquet")


@pytest.mark.parametrize("args, message", [
    (["--predictions-dir", "."], "--predictions-dir needs --out-dir"),
    (["--out-dir", "x"], "give --predictions with one --system"),
])
def test_score_dst_forms_are_exclusive(tmp_path, gold_dir, args, message):
    res = run(["score-dst", "--system", "a", "--system", "b", "--version", "mwz21",
               "--states", gold_dir / "states.parquet",
               "--dialogues", gold_dir / "dialogues.parquet", *args])
    assert res.exit_code == 2 and message in res.output


def _block_args(block: dict) -> list[str]:
    """The dst options exactly as the workflow renders the params.yaml block."""
    import shlex

    return shlex.split(cli_args(DSTParams, block, "dst"))


def test_every_command_takes_the_whole_dst_block(tmp_path, gold_dir):
    """params.yaml's `dst` block, rendered by cli_args, is accepted by every DST command and
    equals the model's defaults (one home per default)."""
    block = yaml.safe_load((REPO / "params.yaml").read_text())["dst"]
    assert DSTParams.model_validate(block) == DSTParams()
    args = _block_args(block)
    assert args[args.index("--lambdas") + 1] == "0.25,0.5,0.75,1.0"
    assert score_dst(tmp_path, gold_dir, "sys", GOOD, *args).exit_code == 0
    res = run(["score-dst-human", "--logs-dir", FIXTURES, *common(tmp_path, "sample"), *args])
    assert res.exit_code == 0, res.output
    res = run(["score-dst-human", "--logs-dir", FIXTURES, "--system", "h",
               "--out", tmp_path / "h.json", "--out-turns", tmp_path / "h.parquet", *args])
    assert json.loads((tmp_path / "h.json").read_text())["version"] == "mwz21"  # human_version
    outs = tmp_path / "out"
    res = run(["tables-dst", "--scores-dir", tmp_path / "scores", "--table", outs / "dst",
               "--fuzzy-table", outs / "dst_fuzzy", "--metrics", outs / "dst.json",
               "--plot", outs / "fga.csv", "--plot-image", outs / "fga.svg", *args])
    assert res.exit_code == 0, res.output
    assert pd.read_csv(outs / "fga.csv")["lambda"].iloc[-1] == 2.0  # plot_lambda_max


@pytest.mark.parametrize("option, value, key", [
    ("--lambdas", "0.5,-1", "dst.lambdas"),
    ("--forget", "1.5,6", "dst.forget"),
    ("--fuzzy-threshold", "1.5", "dst.fuzzy_threshold"),
    ("--plot-lambda-step", "0", "dst.plot_lambda_step"),
])
def test_bad_dst_value_is_a_config_error_naming_the_key(tmp_path, gold_dir, option, value, key):
    res = score_dst(tmp_path, gold_dir, "sys", GOOD, option, value)
    assert isinstance(res.exception, ConfigError)
    assert str(res.exception).startswith(f"{key}: ")


def test_empty_source_is_one_error_naming_the_file(tmp_path):
    paired = tmp_path / "empty.json"
    paired.write_text("{}")
    res = run(["score-dst-paired", "--input", paired, *common(tmp_path, "trade")])
    assert isinstance(res.exception, InputError)
    assert str(res.exception).startswith(f"{paired}: no turns to score")
