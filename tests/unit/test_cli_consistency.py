"""The ``correct``, ``tables-consistency`` and ``tables-consistency-dst`` commands on a tiny
ConvLab fixture: outputs, determinism, parameter recording, clean errors."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pandas as pd
from click.testing import CliRunner

from mwzrepro.cli import cli
from mwzrepro.ingest.convlab import read_convlab
from mwzrepro.io import read_metadata, read_table, write_table
from mwzrepro.schemas import TABLES
from tests.unit.consistency_helpers import FIXTURES, convlab_json

REPO = Path(__file__).resolve().parents[2]
RES = REPO / "workflow" / "resources"
HT = {"hotel-type": "guesthouse"}
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
            "--name-seed-aliases", str(RES / "consistency" / "seed_aliases.tsv"),
            "--price-lexicon", str(RES / "consistency" / "price_lexicon.tsv"),
            "--overrides-file", str(RES / "consistency" / "overrides.tsv"),
            "--rejection-cues", "something else|another one|anything else|different|no,|"
            "not that",
            "--out", str(d / "states_corrected.parquet"),
            "--changes", str(d / "consistency_changes.parquet"),
            "--export", str(d / "corrected" / f"{split}.json.zip"), *extra]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_correct_and_tables(tmp_path: Path) -> None:
    raw = _prepare(tmp_path)
    res = _correct(tmp_path, raw)
    assert res.exit_code == 0, res.output
    d = tmp_path / "interim" / "mwz21" / "val"
    st = read_table(d / "states_corrected.parquet", "states_corrected")
    assert set(st[st["origin"] == "added"]["slot"]) == {"area", "type"}
    meta = read_metadata(d / "states_corrected.parquet")
    assert meta["profile"] == {} and meta["signature"].startswith(
        "consistency|ver:mwz21|split:val|profile:reference")
    first = {p.name: p.read_bytes() for p in d.rglob("*") if p.is_file()}
    assert _correct(tmp_path, raw).exit_code == 0  # §12.4: byte-identical reruns
    assert {p.name: p.read_bytes() for p in d.rglob("*") if p.is_file()} == first

    out = tmp_path / "results"
    res = CliRunner().invoke(cli, [
        "tables-consistency", "--dataset", str(d),
        "--published", str(RES / "published" / "qian2021.yaml"),
        "--tables-dir", str(out / "tables"), "--metrics", str(out / "consistency.json")],
        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    for stem in ("table1", "table6", "provenance", "reference", "table3"):
        for ext in ("md", "csv", "tex"):
            assert (out / "tables" / f"consistency_{stem}.{ext}").is_file()
    metrics = json.loads((out / "consistency.json").read_text())
    assert metrics["verification_sample"]["splits_missing"] == ["train"]
    counts = {(r["domain"], r["slot"]): r for r in metrics["datasets"]["mwz21/val"]["counts"]}
    assert counts[("hotel", "area")]["dialogues"] == 1
    assert (out / "tables" / "consistency_verification_sample.csv").is_file()


def test_non_reference_profile_is_recorded(tmp_path: Path) -> None:
    raw = _prepare(tmp_path)
    res = _correct(tmp_path, raw, "val", "--dontcare-policy", "keep", "--fuzzy-name-match",
                   "false")
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
            "--export", str(d / "z.json.zip")]
    from mwzrepro.errors import InputError

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
    files = []
    for name, r in rows.items():
        path = tmp_path / "pred" / f"{name}.parquet"
        write_table(pd.DataFrame(r, columns=list(TABLES["predictions"].columns)), path,
                    "predictions")
        files += ["--predictions", str(path)]
    out = tmp_path / "results"
    res = CliRunner().invoke(cli, [
        "tables-consistency-dst", *files, "--states", str(d / "states.parquet"),
        "--corrected", str(d / "states_corrected.parquet"),
        "--dialogues", str(d / "dialogues.parquet"), "--version", "mwz21",
        "--published", str(RES / "published" / "qian2021.yaml"),
        "--table", str(out / "consistency_dst"), "--metrics", str(out / "dst.json")],
        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    rec = json.loads((out / "dst.json").read_text())["systems"]
    assert rec["fixed"]["corrected"]["jga"] == 1.0 and rec["fixed"]["original"]["jga"] < 1.0
    assert rec["orig"]["original"]["jga"] == 1.0 and rec["orig"]["corrected"]["jga"] < 1.0
    # 4 turns; the original gold differs from the corrected one at d1 turns 1-2 and d2 turn 0
    assert rec["orig"]["corrected"]["jga"] == 0.25
