"""The standard-evaluation commands end to end on a two-dialogue fixture test set
(tests/fixtures/standard/mini_test.json, ConvLab layout) and the fixture database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mwzrepro.cli import cli
from mwzrepro.prepare.delex.span import build_references
from mwzrepro.core.errors import InputError
from mwzrepro.prepare.ingest.convlab import read_convlab
from mwzrepro.core.io import read_metadata, read_table, write_table
from mwzrepro.core.signature import SignatureMismatch
from mwzrepro.prepare.predictions import expected_turns, parse_predictions

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "standard"
DOMAINS = ("restaurant", "hotel", "attraction", "train")
DB_ARGS = [a for d in DOMAINS for a in (f"--{d}-db", str(FIX / "db" / f"{d}_db.json"))] + [
    "--no-verify-db"]

PREDICTIONS = {
    "sng9001": [
        {"response": "[restaurant_name] is at [restaurant_address] .",
         "state": {"restaurant": {"food": "chinese", "pricerange": "cheap", "area": "centre"}}},
        {"response": "the postcode is [restaurant_postcode] .",
         "state": {"restaurant": {"food": "chinese", "pricerange": "cheap", "area": "centre"}}},
    ],
    "sng9002": [
        {"response": "booked , the number is [taxi_phone] .",
         "state": {"taxi": {"leaveAt": "17:15", "destination": "ballare"}}},
    ],
}


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """data/interim/mini/test with canonical tables, references and the goals outputs."""
    root = tmp_path_factory.mktemp("std")
    base = root / "interim" / "mini" / "test"
    tables, _ = read_convlab(FIX / "mini_test.json", "test")
    for name, df in tables.items():
        write_table(df, base / f"{name}.parquet", name)
    write_table(build_references(tables["turns"], tables["spans"]),
                base / "references.parquet", "references")
    r = invoke("goals", *[a for t in ("dialogues", "goals", "booked", "states", "acts")
                          for a in (f"--{t}", base / f"{t}.parquet")], "--out-dir", base)
    assert r.exit_code == 0, r.output
    return root


def write_predictions(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def score(data_root, pred_file, *extra):
    return invoke("score", pred_file, "--version", "mini", "--data-dir",
                  data_root / "interim", *DB_ARGS, *extra)


def test_goals_outputs(data):
    base = data / "interim" / "mini" / "test"
    goals = read_table(base / "eval_goals.parquet", "eval_goals")
    assert set(goals["kind"]) == {"informable", "requestable"}
    gold = read_table(base / "gold_states.parquet", "gold_states")
    assert json.loads(gold["state_json"].iloc[2]) == {"taxi": {"leave": "17:15",
                                                               "destination": "ballare"}}
    booked = read_table(base / "booked_domains.parquet", "booked_domains")
    assert [list(x) for x in booked["domains"]] == [[], [], []]  # taxi bookings excluded
    td = read_table(base / "turn_domains.parquet", "turn_domains")
    assert [list(x) for x in td["domains"]] == [["restaurant"], ["restaurant"], ["taxi"]]
    assert read_metadata(base / "gold_states.parquet")["dontcare"] == "dropped"


def test_score_full_file_json(data, tmp_path):
    f = write_predictions(tmp_path / "mine.json", PREDICTIONS)
    r = score(data, f, "--format", "json", "--setting", "both")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["coverage"]["dialogues"] == 2 and out["coverage"]["missing_dialogues"] == []
    std = out["success"]["standard"]
    assert std["inform"] == {"restaurant": 100.0, "taxi": 100.0, "total": 100.0}
    assert std["success"] == {"restaurant": 100.0, "taxi": 100.0, "total": 100.0}
    assert (std["state_source"], std["domain_source"]) == ("predicted", "estimated")
    assert "set:standard" in std["signature"] and "match:reference" in std["signature"]
    assert "dom:ground-truth" in out["success"]["optimistic"]["signature"]
    assert out["bleu"]["signature"].startswith("BLEU|system:mine|ver:mini")
    assert out["richness"]["num_unigrams"] > 0 and "tok:lexdiv-0.1.1" in out["richness"][
        "signature"]
    # the gold state of sng9001 turn 1 also has the name: 2 of 3 turns match jointly
    assert out["state_match"]["joint_accuracy"] == pytest.approx(200 / 3)


def test_score_text_format(data, tmp_path):
    f = write_predictions(tmp_path / "mine.json", PREDICTIONS)
    r = score(data, f)
    assert r.exit_code == 0, r.output
    assert "====== SUCCESS (standard) ======" in r.output
    assert "signature: Inform/Success|system:mine|ver:mini" in r.output


def test_missing_dialogue_is_reported_and_the_rest_scored(data, tmp_path):
    f = write_predictions(tmp_path / "partial.json", {"sng9001": PREDICTIONS["sng9001"]})
    r = score(data, f, "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["coverage"]["missing_dialogues"] == ["sng9002"]
    assert (out["coverage"]["dialogues"], out["coverage"]["expected_dialogues"]) == (1, 2)
    assert out["success"]["standard"]["inform"] == {"restaurant": 100.0, "total": 100.0}


def test_unknown_dialogue_id_is_an_error_naming_it(data, tmp_path):
    f = write_predictions(tmp_path / "bad.json", {**PREDICTIONS, "pmul9999": []})
    r = score(data, f)
    assert r.exit_code != 0
    assert isinstance(r.exception, InputError) and "pmul9999" in str(r.exception)


def test_wrong_turn_count_is_an_error_naming_the_dialogue(data, tmp_path):
    too_many = {**PREDICTIONS, "sng9002": PREDICTIONS["sng9002"] * 2}
    r = score(data, write_predictions(tmp_path / "long.json", too_many))
    assert isinstance(r.exception, InputError)
    assert "sng9002 (2 turns, expected 1)" in str(r.exception)
    too_few = {**PREDICTIONS, "sng9001": PREDICTIONS["sng9001"][:1]}
    f = write_predictions(tmp_path / "short.json", too_few)
    r = score(data, f)
    assert isinstance(r.exception, InputError) and "sng9001" in str(r.exception)
    r = score(data, f, "--allow-missing-turns", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["coverage"]["truncated_dialogues"] == ["sng9001"]


def test_missing_resources_are_named(data, tmp_path):
    f = write_predictions(tmp_path / "mine.json", PREDICTIONS)
    r = invoke("score", f, "--version", "nope", "--data-dir", data / "interim", *DB_ARGS)
    assert isinstance(r.exception, InputError) and "eval_goals.parquet" in str(r.exception)


def test_pipeline_commands_and_tables(data, tmp_path):
    base = data / "interim" / "mini" / "test"
    preds, cov = parse_predictions(PREDICTIONS, expected_turns(read_table(
        base / "turns.parquet", "turns")), "mine.json")
    # the predictions phase keeps the file's dialogue order in the metadata (MSTTR needs it)
    write_table(preds, tmp_path / "mine.parquet", "predictions",
                {"dialogue_order": ["sng9002", "sng9001"]})
    write_table(cov, tmp_path / "mine.coverage.parquet", "coverage")
    res = [a for t in ("eval-goals", "booked-domains", "gold-states", "turn-domains")
           for a in (f"--{t}", base / f"{t.replace('-', '_')}.parquet")]
    scores = tmp_path / "scores"
    r = invoke("score-success", "--predictions", tmp_path / "mine.parquet", "--coverage",
               tmp_path / "mine.coverage.parquet", "--system", "mine", "--version", "mini",
               *res, *DB_ARGS, "--domain-sources", "mine=slot-names",
               "--out", scores / "success/mini/mine.parquet",
               "--out-dialogues", scores / "success/mini/mine.dialogues.parquet")
    assert r.exit_code == 0, r.output
    s = read_table(scores / "success/mini/mine.parquet", "scores")
    assert set(s["metric"]) == {"inform", "success", "dialogues", "turns", "joint_accuracy",
                                "slot_f1", "slot_precision", "slot_recall"}
    assert "dom:slot-names" in read_metadata(scores / "success/mini/mine.parquet")[
        "signatures"]["inform/standard"]
    per = read_table(scores / "success/mini/mine.dialogues.parquet", "success_dialogues")
    assert len(per) == 2 * (2 + 2)  # 2 settings x (domain + total) x 2 dialogues
    r = invoke("score-success", "--references", base / "references.parquet", "--system",
               "oracle", "--version", "mini", *res, *DB_ARGS,
               "--out", scores / "success/mini/oracle.parquet",
               "--out-dialogues", scores / "success/mini/oracle.dialogues.parquet")
    assert r.exit_code == 0, r.output
    r = invoke("score-richness", "--predictions", tmp_path / "mine.parquet",
               "--system", "mine", "--out", scores / "richness/mine.parquet")
    assert r.exit_code == 0, r.output
    assert read_metadata(scores / "richness/mine.parquet")["dialogue_order"] == "file"
    r = invoke("score-richness", "--references", base / "references.parquet", "--system",
               "reference", "--version", "mini", "--out",
               scores / "richness/reference/mini.parquet")
    assert r.exit_code == 0, r.output
    pub = tmp_path / "pub.yaml"
    pub.write_text(yaml.safe_dump({"reference_corpus": {"inform": 93.7, "success": 90.9},
                                   "systems": {"mine": {"model": "Mine", "inform": 1.0}}}))
    r = invoke("tables-standard", "--scores-dir", scores, "--published", pub,
               "--table-dir", tmp_path / "tables", "--metrics", tmp_path / "standard.json",
               "--plot", tmp_path / "inform_success.csv")
    assert r.exit_code == 0, (r.output, r.exception)
    plot = (tmp_path / "inform_success.csv").read_text().splitlines()
    assert plot[0] == ("system,version,row,inform_standard,success_standard,"
                       "inform_optimistic,success_optimistic")
    assert len(plot) == 1 + 2  # mine and oracle on version mini
    assert "system:" not in json.loads((tmp_path / "standard.json").read_text())[
        "signatures"]["inform_success/mini/standard"]
    md = (tmp_path / "tables" / "inform_success.md").read_text()
    assert "| mini | mine | Mine |" in md and "reference corpus (oracle)" in md
    assert "Inform published (2.2)" in md
    rich = (tmp_path / "tables" / "richness.md").read_text()
    assert "reference corpus (mini)" in rich and "| Av. len. |" in rich
    state = (tmp_path / "tables" / "state_match.csv").read_text()
    assert state.splitlines()[1].startswith("mini,mine,")   # oracle has no predicted states
    metrics = json.loads((tmp_path / "standard.json").read_text())
    assert metrics["inform_success"]["mini"]["mine"]["standard"] == {"inform": 100.0,
                                                                       "success": 100.0}
    assert "inform_success/mini/standard" in metrics["signatures"]


def test_tables_refuse_mixed_signatures(data, tmp_path):
    import pandas as pd

    from mwzrepro.standard.tables import inform_success_table

    def rows(system, matching):
        sig = (f"Inform/Success|system:{system}|ver:mini|state:gold|dom:estimated|"
               f"set:standard|match:{matching}|thr:90|v:0.1.0")
        return pd.DataFrame([{"system": system, "version": "mini", "metric": m,
                              "setting": "standard", "key": "total", "value": 50.0,
                              "signature": sig} for m in ("inform", "success")])

    inform_success_table({"x": {"a": rows("a", "reference"), "b": rows("b", "reference")}}, {})
    with pytest.raises(SignatureMismatch, match="match:optimal"):
        inform_success_table({"x": {"a": rows("a", "reference"), "b": rows("b", "optimal")}},
                             {})
