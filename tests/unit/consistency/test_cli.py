"""The ``correct``, ``tables-consistency`` and ``tables-consistency-dst`` commands on a tiny
ConvLab fixture: outputs, determinism, parameter recording, clean errors."""

from __future__ import annotations

import json
import shlex
import zipfile
from pathlib import Path

import click
import pandas as pd
import pytest
import yaml
from click.testing import CliRunner

from mwzrepro.cli import consistency, consistency_dst, consistency_tables
from mwzrepro.consistency.params import ConsistencyParams
from mwzrepro.core.errors import ConfigError
from mwzrepro.core.io import read_metadata, read_table, write_table
from mwzrepro.core.params import cli_args, leaves
from mwzrepro.core.schemas import TABLES
from mwzrepro.prepare.ingest.convlab import read_convlab
from tests.unit.consistency.helpers import FIXTURES, convlab_json

REPO = Path(__file__).resolve().parents[3]
#: The area's commands, independent of the CLI's command registry.
cli = click.Group(commands=consistency.COMMANDS + consistency_tables.COMMANDS
                  + consistency_dst.COMMANDS)
RES = REPO / "workflow" / "resources"
HT = {"hotel-type": "guesthouse"}
SEEDS = ("all saints=all saints church@attraction|marriott=huntingdon marriott hotel@hotel|"
         "alexander b & b=alexander bed and breakfast@hotel|"
         "rosa's bed and breakfast=rosa's bed and breakfast@hotel|"
         "travelers rest=travellers rest@restaurant|caffe uno=caffe uno@restaurant")
PRICES = "cheap=cheap|moderate=moderate| expensive=expensive|inexpensive=moderate"
DIALOGUES = {
    "d1": [("", "I need a guesthouse .", HT),
           ("There are 2 guesthouses in the east .", "Ok .", HT),
           ("Anything else ?", "No .", HT)],
    "d2": [("", "I need a hotel in the north .", {"hotel-area": "north"})],
}


def _prepare(tmp: Path, split: str = "val") -> Path:
    raw = tmp / "raw" / f"{split}.json.zip"
    raw.parent.mkdir(parents=True)
    with zipfile.ZipFile(raw, "w") as zf:
        zf.writestr(f"{split}.json", json.dumps(convlab_json(DIALOGUES), indent=2))
    tables, _ = read_convlab(raw, split)
    out = tmp / "interim" / "mwz21" / split
    for name in ("dialogues", "turns", "states"):
        write_table(tables[name], out / f"{name}.parquet", name)
    return raw


def _correct(tmp: Path, raw: Path, split: str = "val", *extra: str):
    d = tmp / "interim" / "mwz21" / split
    args = ["correct", "--dialogues", str(d / "dialogues.parquet"),
            "--turns", str(d / "turns.parquet"), "--states", str(d / "states.parquet"),
            "--raw", str(raw), "--db-dir", str(FIXTURES / "db"),
            "--ontology", str(FIXTURES / "ontology.json"), "--version", "mwz21",
            "--split", split,
            "--name-seed-aliases", SEEDS, "--price-lexicon", PRICES, "--overrides-file", "",
            "--rejection-cues", "something else|another one|anything else|different|no,|"
            "not that", "--name-strip-leading-the-enabled", "true",
            "--out", str(d / "states_corrected.parquet"),
            "--changes", str(d / "consistency_changes.parquet"),
            "--export", str(d / "corrected" / f"{split}.json.zip"),
            "--counts", str(tmp / "scores" / "mwz21" / f"{split}.parquet"),
            "--units", str(tmp / "scores" / "mwz21" / f"{split}.units.parquet"), *extra]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_correct_and_tables(tmp_path: Path) -> None:
    raw = _prepare(tmp_path)
    res = _correct(tmp_path, raw)
    assert res.exit_code == 0, res.output
    d = tmp_path / "interim" / "mwz21" / "val"
    st = read_table(d / "states_corrected.parquet", "states_corrected")
    assert set(st[st["origin"] == "added"]["slot"]) == {"area", "type"}
    meta = read_metadata(d / "states_corrected.parquet")
    assert meta["profile"] == {}, meta["profile"]  # the option strings equal the defaults
    assert meta["signature"].startswith(
        "consistency|ver:mwz21|split:val|profile:reference")
    files = [p for p in tmp_path.rglob("*") if p.is_file() and "raw" not in p.parts]
    first = {p: p.read_bytes() for p in files}
    assert _correct(tmp_path, raw).exit_code == 0  # §12.4: byte-identical reruns
    assert {p: p.read_bytes() for p in files} == first

    out = tmp_path / "results"
    res = CliRunner().invoke(cli, [
        "tables-consistency", "--scores-dir", str(tmp_path / "scores"),
        "--published", str(RES / "published" / "qian2021.yaml"),
        "--tables-dir", str(out / "tables"), "--metrics", str(out / "consistency.json")],
        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    for stem in ("table1", "table6", "provenance", "reference", "table3"):
        for ext in ("md", "csv", "tex"):
            assert (out / "tables" / f"consistency_{stem}.{ext}").is_file()
    metrics = json.loads((out / "consistency.json").read_text())
    counts = {(r["domain"], r["slot"]): r for r in metrics["datasets"]["mwz21/val"]["counts"]}
    assert counts[("hotel", "area")]["dialogues"] == 1
    assert counts[("total", "")]["detections"] == 2  # d1 hotel-area (H2), d2 hotel-type (HT2)
    # the numbers-only metrics file (as the workflow writes it, with --record) keeps the
    # dialogues and turns the correction changed, per split and summed per version
    res = CliRunner().invoke(cli, [
        "tables-consistency", "--scores-dir", str(tmp_path / "scores"),
        "--published", str(RES / "published" / "qian2021.yaml"),
        "--tables-dir", str(out / "tables"), "--metrics", str(out / "numbers.json"),
        "--record", str(out / "record.json")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    numbers = json.loads((out / "numbers.json").read_text())
    total = counts[("total", "")]
    assert numbers["changed"]["mwz21/val"] == {"dialogues": total["dialogues"],
                                               "turns": total["turns"]} == {"dialogues": 2,
                                                                            "turns": 3}
    assert numbers["changed"]["total"] == {"mwz21": {"dialogues": 2, "turns": 3}}

    res = CliRunner().invoke(cli, [
        "consistency-sample", "--scores-dir", str(tmp_path / "scores"),
        "--verification-sample-splits", "train|val", "--verification-sample-modified", "2",
        "--verification-sample-unmodified", "1", "--out", str(out / "sample.csv")],
        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    sample = pd.read_csv(out / "sample.csv")
    assert list(sample["modified"]) == [True, True, False]
    assert sample["judgement"].isna().all()


def test_non_reference_profile_is_recorded(tmp_path: Path) -> None:
    raw = _prepare(tmp_path)
    res = _correct(tmp_path, raw, "val", "--dontcare-policy", "keep",
                   "--fuzzy-name-match-enabled", "false")
    assert res.exit_code == 0, res.output
    meta = read_metadata(tmp_path / "interim" / "mwz21" / "val" / "states_corrected.parquet")
    assert meta["profile"] == {"dontcare_policy": "keep", "fuzzy_enabled": False}
    assert "profile:custom(dontcare_policy,fuzzy_enabled)" in meta["signature"]


def test_bad_override_is_one_clean_error(tmp_path: Path) -> None:
    raw = _prepare(tmp_path)
    bad = tmp_path / "overrides.tsv"
    bad.write_text("dialogue_id\tturn\tdomain\tslot\tvalue\nnope\t0\thotel\tarea\twest\n")
    d = tmp_path / "interim" / "mwz21" / "val"
    args = ["correct", "--dialogues", str(d / "dialogues.parquet"),
            "--turns", str(d / "turns.parquet"), "--states", str(d / "states.parquet"),
            "--raw", str(raw), "--db-dir", str(FIXTURES / "db"),
            "--ontology", str(FIXTURES / "ontology.json"), "--version", "mwz21",
            "--split", "val", "--overrides-file", str(bad),
            "--out", str(d / "x.parquet"), "--changes", str(d / "y.parquet"),
            "--export", str(d / "z.json.zip"), "--counts", str(d / "c.parquet"),
            "--units", str(d / "u.parquet")]
    from mwzrepro.core.errors import InputError

    try:
        CliRunner().invoke(cli, args, catch_exceptions=False)
    except InputError as exc:
        assert "nope, turn 0" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected an InputError")


def test_dst_effect_table(tmp_path: Path) -> None:
    raw = _prepare(tmp_path, "test")
    assert _correct(tmp_path, raw, "test").exit_code == 0
    d = tmp_path / "interim" / "mwz21" / "test"
    cor = read_table(d / "states_corrected.parquet", "states_corrected")
    # a system predicting exactly the corrected states, and one predicting the original ones
    rows = {"fixed": [], "orig": []}
    orig = read_table(d / "states.parquet", "states")
    for name, states in (("fixed", cor), ("orig", orig)):
        for did, n in (("d1", 3), ("d2", 1)):
            for t in range(n):
                s = states[(states["dialogue_id"] == did) & (states["turn"] == t)]
                state: dict = {}
                for dom, slot, v in zip(s["domain"], s["slot"], s["value"]):
                    state.setdefault(dom, {})[slot] = v
                rows[name].append({"dialogue_id": did, "turn": t, "response": "ok",
                                   "response_norm": "ok", "state_json": json.dumps(state),
                                   "active_domains": None})
    for name, r in rows.items():
        path = tmp_path / "pred" / f"{name}.parquet"
        write_table(pd.DataFrame(r, columns=list(TABLES["predictions"].columns)), path,
                    "predictions")
    out = tmp_path / "results"
    res = CliRunner().invoke(cli, [
        "tables-consistency-dst", "--predictions-dir", str(tmp_path / "pred"),
        "--states", str(d / "states.parquet"),
        "--corrected", str(d / "states_corrected.parquet"),
        "--dialogues", str(d / "dialogues.parquet"), "--dst-version", "mwz21",
        "--lambdas", "0.5", "--excluded-dialogues", "",
        "--published", str(RES / "published" / "qian2021.yaml"),
        "--table", str(out / "consistency_dst"), "--metrics", str(out / "dst.json")],
        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    rec = json.loads((out / "dst.json").read_text())["systems"]
    # 4 turns; the original gold differs from the corrected one at d1 turns 1-2 and d2 turn 0:
    # each system is right on all 4 turns of its own gold and on 1 of 4 of the other
    assert rec["fixed"]["corrected"]["jga"] == 1.0 and rec["fixed"]["original"]["jga"] == 0.25
    assert rec["orig"]["original"]["jga"] == 1.0 and rec["orig"]["corrected"]["jga"] == 0.25


def _block_args(block: dict) -> list[str]:
    """Every leaf of the `consistency` block as command words (values as the workflow passes
    them: the model's option names, strings verbatim, booleans true/false)."""
    out = []
    for path, _ in sorted(leaves(ConsistencyParams), key=lambda leaf: leaf[0]):
        value = block
        for key in path:
            value = value[key]
        out += ["--" + "-".join(p.replace("_", "-") for p in path), str(value)]
    return out


def test_params_yaml_is_the_reference_profile(tmp_path: Path) -> None:
    """params.yaml's `consistency` block, passed as options, is spec §10's reference profile
    and the model's defaults (each default written once)."""
    block = yaml.safe_load((REPO / "params.yaml").read_text())["consistency"]
    assert ConsistencyParams.model_validate(block) == ConsistencyParams()
    raw = _prepare(tmp_path)
    assert _correct(tmp_path, raw, "val", *_block_args(block)).exit_code == 0
    meta = read_metadata(tmp_path / "interim" / "mwz21" / "val" / "states_corrected.parquet")
    assert meta["profile"] == {}
    assert meta["params"]["name_seed_aliases"][3] == ["rosa's bed and breakfast",
                                                       "rosa's bed and breakfast", "hotel"]


def test_workflow_rendering_of_the_block_is_one_word_per_value() -> None:
    block = yaml.safe_load((REPO / "params.yaml").read_text())["consistency"]
    assert shlex.split(cli_args(ConsistencyParams, block, "consistency")) == _block_args(block)


def test_bad_value_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    raw = _prepare(tmp_path)
    with pytest.raises(ConfigError, match=r"^consistency\.fuzzy_name_match\.threshold: "):
        _correct(tmp_path, raw, "val", "--fuzzy-name-match-threshold", "101")
    with pytest.raises(ConfigError, match=r"^consistency\.price_lexicon: .*key=value"):
        _correct(tmp_path, raw, "val", "--price-lexicon", "cheap")
