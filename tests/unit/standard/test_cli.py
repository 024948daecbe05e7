"""The standard-evaluation commands end to end on a two-dialogue fixture test set
(tests/fixtures/standard/mini_test.json, ConvLab layout) and the fixture database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mwzrepro.cli import bleu as bleu_cli
from mwzrepro.cli import main
from mwzrepro.cli import standard as standard_cli
from mwzrepro.cli import tables_standard as tables_standard_cli
from mwzrepro.prepare.delex.span import build_references
from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.prepare.ingest.convlab import read_convlab
from mwzrepro.core.io import read_metadata, read_table, write_table
from mwzrepro.core.signature import SignatureMismatch
from mwzrepro.prepare.predictions import expected_turns, parse_predictions

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "standard"
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


COMMANDS = {c.name: c for m in (standard_cli, tables_standard_cli, bleu_cli) for c in m.COMMANDS}


def invoke(*args):
    return CliRunner().invoke(COMMANDS[args[0]], [str(a) for a in args[1:]])


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
    r = invoke("score-bleu", "--predictions", tmp_path / "mine.parquet", "--coverage",
               tmp_path / "mine.coverage.parquet", "--references", base / "references.parquet",
               "--version", "mini", "--system", "mine",
               "--out", scores / "bleu" / "mini" / "mine.parquet")
    assert r.exit_code == 0, r.output
    bleu = read_table(scores / "bleu" / "mini" / "mine.parquet", "scores").query(
        "metric == 'bleu'")["value"].iloc[0].item()
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
    # Combined = (Inform + Success) / 2 + BLEU (issue 32): 100 + BLEU; the oracle has none
    assert metrics["inform_success"]["mini"]["mine"]["standard"] == {
        "inform": 100.0, "success": 100.0, "combined": 100.0 + bleu}
    assert "combined" not in metrics["inform_success"]["mini"]["oracle"]["standard"]
    table = (tmp_path / "tables" / "inform_success.csv").read_text().splitlines()
    assert ",Inform,Success,Combined,Inform opt.," in table[0]
    assert f",100.0,100.0,{100.0 + float(bleu)!r}," in table[1]
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


RESOURCES = ("eval-goals", "booked-domains", "gold-states", "turn-domains")


@pytest.fixture(scope="module")
def systems(data, tmp_path_factory):
    """Two systems' predictions (one with its own states, one without) in one directory."""
    d = tmp_path_factory.mktemp("preds")
    base = data / "interim" / "mini" / "test"
    turns = expected_turns(read_table(base / "turns.parquet", "turns"))
    stateless = {did: [{"response": t["response"]} for t in v] for did, v in PREDICTIONS.items()}
    for name, payload in (("mine", PREDICTIONS), ("other", stateless)):
        preds, cov = parse_predictions(payload, turns, f"{name}.json")
        write_table(preds, d / f"{name}.parquet", "predictions",
                    {"dialogue_order": ["sng9002", "sng9001"]})
        write_table(cov, d / f"{name}.coverage.parquet", "coverage")
    return d


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_many_systems_in_one_process_write_the_same_files(data, systems, tmp_path):
    """score-success, score-bleu and score-richness with --system repeated write, byte for
    byte, what one call per system writes (issue 10 item 7)."""
    base = data / "interim" / "mini" / "test"
    res = [a for t in RESOURCES for a in (f"--{t}", base / f"{t.replace('-', '_')}.parquet")]
    refs = base / "references.parquet"
    one, many = tmp_path / "one", tmp_path / "many"
    for s in ("mine", "other"):
        p, c = systems / f"{s}.parquet", systems / f"{s}.coverage.parquet"
        for args in (
            ("score-success", "--predictions", p, "--coverage", c, "--system", s, "--version",
             "mini", *res, *DB_ARGS, "--out", one / f"success/{s}.parquet",
             "--out-dialogues", one / f"success/{s}.dialogues.parquet"),
            ("score-bleu", "--predictions", p, "--coverage", c, "--references", refs,
             "--version", "mini", "--system", s, "--out", one / f"bleu/{s}.parquet"),
            ("score-richness", "--predictions", p, "--system", s, "--out",
             one / f"richness/{s}.parquet"),
        ):
            r = invoke(*args)
            assert r.exit_code == 0, (args[0], r.output, r.exception)
    r = invoke("score-success", "--references", refs, "--system", "oracle", "--version", "mini",
               *res, *DB_ARGS, "--out", one / "success/oracle.parquet",
               "--out-dialogues", one / "success/oracle.dialogues.parquet")
    assert r.exit_code == 0, r.output
    sys_args = ["--system", "mine", "--system", "other", "--predictions-dir", systems]
    for args in (
        ("score-success", "--version", "mini", *res, *DB_ARGS, *sys_args, "--system", "oracle",
         "--references", refs, "--out-dir", many / "success"),
        ("score-bleu", "--references", refs, "--version", "mini", *sys_args,
         "--out-dir", many / "bleu"),
        ("score-richness", *sys_args, "--out-dir", many / "richness"),
    ):
        r = invoke(*args)
        assert r.exit_code == 0, (args[0], r.output, r.exception)
    files = _files(one)
    assert len(files) == 2 * 2 + 2 + 2 + 2
    assert _files(many) == files
    scores = read_table(one / "success/other.parquet", "scores")
    assert "joint_accuracy" not in set(scores["metric"])   # gold states: no §13 metrics


def test_system_forms_cannot_be_mixed(systems, tmp_path):
    r = invoke("score-richness", "--system", "mine", "--system", "other",
               "--predictions", systems / "mine.parquet", "--out", tmp_path / "x.parquet")
    assert r.exit_code == 2 and "--predictions-dir" in r.output
    r = invoke("score-richness", "--system", "nope", "--predictions-dir", systems,
               "--out-dir", tmp_path)
    assert isinstance(r.exception, InputError) and "nope.parquet" in str(r.exception)


def test_every_block_leaf_is_an_option():
    """The workflow passes every leaf of the inform, standard and richness blocks
    (``cli_args``); the commands taking them accept them all (standard.placeholders goes to
    ``predictions``, where responses are normalized, and nowhere else)."""
    from mwzrepro.cli.predictions import predictions
    from mwzrepro.core.params import cli_args, leaves
    from mwzrepro.standard.params import InformParams, RichnessParams, StandardParams

    def options(command):
        return {o for p in command.params for o in getattr(p, "opts", [])}

    for name, models in (("score-success", (InformParams, StandardParams)),
                         ("score-richness", (RichnessParams,))):
        opts = options(COMMANDS[name])
        for model in models:
            wanted = {"--" + "-".join(p).replace("_", "-") for p, _ in leaves(model)}
            wanted.discard("--placeholders")
            assert wanted <= opts, (name, wanted - opts)
    assert "--placeholders" not in options(COMMANDS["score-success"])
    assert "--placeholders" in options(predictions)
    import shlex

    assert shlex.split(cli_args(InformParams, {"matching": "reference",
                                               "fuzzy_threshold": 90})) == [
        "--fuzzy-threshold", "90", "--matching", "reference"]


def test_bad_parameter_values_name_the_key(data, systems, tmp_path):
    base = data / "interim" / "mini" / "test"
    res = [a for t in RESOURCES for a in (f"--{t}", base / f"{t.replace('-', '_')}.parquet")]
    common = ["--system", "mine", "--predictions-dir", systems, "--version", "mini", *res,
              *DB_ARGS, "--out-dir", tmp_path / "o"]
    r = invoke("score-success", *common, "--fuzzy-threshold", "101")
    assert isinstance(r.exception, ConfigError)
    assert str(r.exception).startswith("inform.fuzzy_threshold: ")
    r = invoke("score-success", *common, "--domain-sources", "mine=magic")
    assert isinstance(r.exception, ConfigError)
    assert str(r.exception).startswith("standard.domain_sources: ")
    r = invoke("score-richness", "--system", "mine", "--predictions-dir", systems,
               "--out-dir", tmp_path / "o", "--msttr-window", "0")
    assert isinstance(r.exception, ConfigError) and "richness.msttr_window" in str(r.exception)
    assert not (tmp_path / "o").exists()


def _main(monkeypatch, capsys, *args) -> tuple[int, str]:
    """Run the console entry point; (exit status, stderr)."""
    import sys

    monkeypatch.setattr(sys, "argv", ["mwzrepro", *[str(a) for a in args]])
    with pytest.raises(SystemExit) as exc:
        main()
    return exc.value.code, capsys.readouterr().err


def test_mismatched_signatures_in_table_assembly_give_one_line(data, systems, tmp_path,
                                                               monkeypatch, capsys):
    """tables-bleu and tables-standard refuse numbers with different settings in one column:
    one error line, exit 1, nothing written (issue 10, acceptance)."""
    base = data / "interim" / "mini" / "test"
    scores = tmp_path / "scores"
    for s in ("mine", "other"):
        r = invoke("score-bleu", "--predictions", systems / f"{s}.parquet", "--coverage",
                   systems / f"{s}.coverage.parquet", "--references",
                   base / "references.parquet", "--version", "mini", "--system", s,
                   "--out", scores / "bleu" / "mini" / f"{s}.parquet")
        assert r.exit_code == 0, r.output
    f = scores / "bleu" / "mini" / "other.parquet"
    df = read_table(f, "scores")
    df["signature"] = df["signature"].str.replace("tok:13a", "tok:intl")
    write_table(df, f, "scores", read_metadata(f))
    out = tmp_path / "out"
    code, err = _main(monkeypatch, capsys, "tables-bleu", "--scores-dir", scores / "bleu",
                      "--table", out / "bleu", "--metrics", out / "bleu.json",
                      "--plot", out / "bleu.csv")
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("mwzrepro: error: BLEU column mini: ")
    assert "tok:intl" in err and "Traceback" not in err
    assert not out.exists()
    # tables-standard: the oracle's Inform/Success scored with another threshold
    res = [a for t in RESOURCES for a in (f"--{t}", base / f"{t.replace('-', '_')}.parquet")]
    for extra in (["--system", "mine", "--predictions-dir", systems],
                  ["--system", "oracle", "--references", base / "references.parquet",
                   "--fuzzy-threshold", "85"]):
        r = invoke("score-success", "--version", "mini", *res, *DB_ARGS, *extra,
                   "--out-dir", scores / "success" / "mini")
        assert r.exit_code == 0, r.output
    for name, args in (("mine", ["--predictions-dir", systems, "--system", "mine",
                                 "--out-dir", scores / "richness"]),
                       ("reference", ["--references", base / "references.parquet",
                                      "--system", "reference", "--version", "mini",
                                      "--out", scores / "richness/reference/mini.parquet"])):
        r = invoke("score-richness", *args)
        assert r.exit_code == 0, (name, r.output)
    pub = tmp_path / "pub.yaml"
    pub.write_text(yaml.safe_dump({"reference_corpus": {}, "systems": {}}))
    code, err = _main(monkeypatch, capsys, "tables-standard", "--scores-dir", scores,
                      "--published", pub, "--table-dir", out / "tables",
                      "--metrics", out / "standard.json", "--plot", out / "plot.csv")
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("mwzrepro: error: ")
    assert "thr:85" in err and "cannot put numbers with different settings" in err
    assert not out.exists()


def test_pipeline_placeholders_extended_reach_the_signatures(data, tmp_path):
    """standard.placeholders in the pipeline: the ``predictions`` phase normalizes with the
    vocabulary and records it (only when not the default); score-bleu, score-success and
    score-richness add ``ph:ext`` to their signatures; under ``reference`` nothing changes."""
    from mwzrepro.cli.predictions import predictions

    base = data / "interim" / "mini" / "test"
    dialect = {"sng9001": [{**PREDICTIONS["sng9001"][0]},
                           {**PREDICTIONS["sng9001"][1],
                            "response": "the postcode is [restaurant-postcode] ."}],
               "sng9002": PREDICTIONS["sng9002"]}
    src = write_predictions(tmp_path / "mine.json", dialect)
    out = {}
    for vocabulary in ("reference", "extended"):
        d = tmp_path / vocabulary
        r = CliRunner().invoke(predictions, ["--input", str(src), "--turns",
                                             str(base / "turns.parquet"), "--out-dir", str(d),
                                             "--placeholders", vocabulary])
        assert r.exit_code == 0, r.output
        p, c = d / "mine.parquet", d / "mine.coverage.parquet"
        res = [a for t in ("eval-goals", "booked-domains", "gold-states", "turn-domains")
               for a in (f"--{t}", base / f"{t.replace('-', '_')}.parquet")]
        for args in (("score-success", "--predictions", p, "--coverage", c, "--system", "mine",
                      "--version", "mini", *res, *DB_ARGS, "--out", d / "success.parquet",
                      "--out-dialogues", d / "dialogues.parquet"),
                     ("score-bleu", "--predictions", p, "--coverage", c, "--references",
                      base / "references.parquet", "--system", "mine", "--version", "mini",
                      "--out", d / "bleu.parquet"),
                     ("score-richness", "--predictions", p, "--system", "mine", "--out",
                      d / "richness.parquet")):
            r = invoke(*args)
            assert r.exit_code == 0, r.output
        out[vocabulary] = {n: read_table(d / f"{n}.parquet", "scores")
                           for n in ("success", "bleu", "richness")}
        out[vocabulary]["meta"] = read_metadata(p)
    assert "placeholders" not in out["reference"]["meta"]
    assert out["extended"]["meta"]["placeholders"] == "extended"
    for n in ("success", "bleu", "richness"):
        assert not any("ph:" in s for s in out["reference"][n]["signature"])
        assert all("|ph:ext|" in s for s in out["extended"][n]["signature"])
    success = {v: out[v]["success"].query("metric == 'success' and key == 'total' and "
                                          "setting == 'standard'")["value"].item()
               for v in out}
    # the restaurant POST is given only under extended (the taxi goal succeeds under both)
    assert success == {"reference": 50.0, "extended": 100.0}


def test_success_inputs_then_score_success_gives_the_same_files(data, tmp_path):
    """Issue 19: success-inputs prepares every system once (no fuzzy threshold) and
    score-success --inputs-dir scores from it: the same bytes as scoring the predictions,
    for a system with its own states (one slot with alternatives), one scored on gold states
    and the oracle; the inputs hold the threshold-independent rows, not the Inform ones."""
    base = data / "interim" / "mini" / "test"
    turns = expected_turns(read_table(base / "turns.parquet", "turns"))
    pdir = tmp_path / "predictions"
    alts = json.loads(json.dumps(PREDICTIONS))
    alts["sng9001"][0]["state"]["restaurant"]["food"] = ["chinese", "thai"]  # a NAME turn
    no_states = {d: [{"response": t["response"]} for t in ts] for d, ts in PREDICTIONS.items()}
    for system, doc in (("mine", alts), ("gold", no_states)):
        preds, cov = parse_predictions(doc, turns, f"{system}.json")
        write_table(preds, pdir / f"{system}.parquet", "predictions")
        write_table(cov, pdir / f"{system}.coverage.parquet", "coverage")
    systems = [a for s in ("mine", "gold", "oracle") for a in ("--system", s)]
    res = [a for t in ("eval-goals", "booked-domains", "gold-states", "turn-domains")
           for a in (f"--{t}", base / f"{t.replace('-', '_')}.parquet")]
    r = invoke("score-success", "--version", "mini", *res, *DB_ARGS, *systems,
               "--references", base / "references.parquet", "--predictions-dir", pdir,
               "--out-dir", tmp_path / "direct")
    assert r.exit_code == 0, r.output
    r = invoke("success-inputs", "--version", "mini", "--gold-states",
               base / "gold_states.parquet", *systems, "--references",
               base / "references.parquet", "--predictions-dir", pdir,
               "--out-dir", tmp_path / "inputs")
    assert r.exit_code == 0, r.output
    meta = read_metadata(tmp_path / "inputs" / "mine.parquet")
    assert meta["state_source"] == "predicted" and meta["matching"] == "reference"
    assert {row["metric"] for row in meta["rows"]} == {
        "dialogues", "turns", "joint_accuracy", "slot_f1", "slot_precision", "slot_recall"}
    inputs = read_table(tmp_path / "inputs" / "mine.parquet", "success_inputs")
    assert '"food":["chinese","thai"]' in inputs["state"].iloc[0]
    assert read_metadata(tmp_path / "inputs" / "gold.parquet")["state_source"] == "gold"
    r = invoke("score-success", "--version", "mini", *res, *DB_ARGS, *systems,
               "--inputs-dir", tmp_path / "inputs", "--out-dir", tmp_path / "prepared")
    assert r.exit_code == 0, r.output
    direct = sorted(p.name for p in (tmp_path / "direct").iterdir())
    assert direct == sorted(p.name for p in (tmp_path / "prepared").iterdir())
    assert len(direct) == 6
    for name in direct:
        assert (tmp_path / "direct" / name).read_bytes() == \
            (tmp_path / "prepared" / name).read_bytes(), name
    r = invoke("score-success", "--version", "mini", *res, *DB_ARGS, *systems,
               "--matching", "optimal", "--inputs-dir", tmp_path / "inputs",
               "--out-dir", tmp_path / "other")
    assert r.exit_code != 0 and "prepared with inform.matching 'reference'" in str(
        r.exception)
