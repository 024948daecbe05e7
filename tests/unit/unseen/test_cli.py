"""The CLI of the unseen-entity area end to end on the hand-made fixture world:
sgd-pools → unseen → bias → tables-bias, byte-identical reruns, train row marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mwzrepro.cli import bias as bias_cli
from mwzrepro.cli import unseen as unseen_cli
from mwzrepro.core.errors import ConfigError

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "unseen"
COMMANDS = {c.name: c for c in (*unseen_cli.COMMANDS, *bias_cli.COMMANDS)}


def invoke(*args: str) -> None:
    res = CliRunner().invoke(COMMANDS[args[0]], [str(a) for a in args[1:]],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output


def sgd_pools(tmp: Path) -> Path:
    invoke("sgd-pools",
           *[x for s in ("train", "dev", "test")
             for x in ("--schema", FIX / f"sgd/{s}/schema.json")],
           "--dialogues", FIX / "sgd/train/dialogues_001.json",
           "--dialogues", FIX / "sgd/test/dialogues_001.json",
           "--out", tmp / "sgd_pool.parquet", "--report", tmp / "sgd_pools.json")
    return tmp / "sgd_pool.parquet"


def unseen(tmp: Path, pool: Path, out: str, seed: int = 0) -> Path:
    d = tmp / out
    invoke("unseen", "--base", FIX / "multiwoz/test.json", "--version", "mwz21",
           "--sgd-pool", pool,
           *[x for p in sorted((FIX / "multiwoz/db").glob("*_db.json")) for x in ("--database", p)],
           "--ontology", FIX / "multiwoz/ontology.json", "--schema22", FIX / "multiwoz/schema.json",
           "--seed", str(seed), "--out-dir", d, "--export", d / "test-unseen.json",
           "--report", d / "report.json")
    return d


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("unseen_cli")
    pool = sgd_pools(tmp)
    return tmp, pool, unseen(tmp, pool, "a"), unseen(tmp, pool, "b")


def test_sgd_pools_report(run):
    tmp, *_ = run
    rep = json.loads((tmp / "sgd_pools.json").read_text())
    assert rep["pool_sizes_before_unseen_filter"]["CITY"] == 11
    assert "Hotels_1" in rep["source_services_without_dialogues"]
    assert rep["missing_dialogue_files"] is None  # no registry given


def test_unseen_outputs_and_byte_identical_rerun(run):
    _, _, a, b = run
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(["acts.parquet", "booked.parquet", "dialogues.parquet",
                            "goals.parquet", "leaks.parquet", "mapping.parquet", "pool.parquet",
                            "report.json", "spans.parquet", "states.parquet",
                            "test-unseen.json", "turns.parquet"])
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    report = json.loads((a / "report.json").read_text())
    assert report["parameters"]["seed"] == 0
    assert report["signature"].startswith("UNSEEN|ver:mwz21|base:mwz21-test|seed:0|")
    assert report["training_split"].startswith("unavailable")
    # the export is readable by the canonical ingest and has the base's dialogues
    from mwzrepro.prepare.ingest.convlab import read_convlab

    tables, _ = read_convlab(a / "test-unseen.json", "test")
    assert tables["dialogues"]["dialogue_id"].tolist() == ["sng0293", "mul0001"]


def test_other_seed_other_files(run):
    tmp, pool, a, _ = run
    c = unseen(tmp, pool, "c", seed=3)
    assert (a / "test-unseen.json").read_bytes() != (c / "test-unseen.json").read_bytes()


def test_bias_and_tables_bias_mark_the_training_row(run):
    tmp, _, a, _ = run
    from mwzrepro.prepare.ingest.convlab import read_convlab
    from mwzrepro.core.io import write_table

    base_tables, _ = read_convlab(FIX / "multiwoz/test.json", "test")
    write_table(base_tables["states"], tmp / "base_states.parquet", "states")
    scores = []
    for split, states in (("test", tmp / "base_states.parquet"),
                          ("test_unseen", a / "states.parquet")):
        out = tmp / "bias" / f"{split}.parquet"
        invoke("bias", "--states", states, "--version", "mwz21", "--split", split,
               "--out", out, "--out-values", tmp / "bias" / f"{split}.values.parquet")
        scores += ["--scores", out]
    invoke("tables-bias", *scores, "--versions", "mwz21", "--table", tmp / "t" / "entity_bias",
           "--metrics", tmp / "bias.json", "--plot", tmp / "p.csv",
           "--plot-image", tmp / "p.svg", "--plot-slots", "2")
    metrics = json.loads((tmp / "bias.json").read_text())
    assert metrics["splits"]["mwz21/train"] == {
        "status": "not computed: training split unavailable"}
    assert metrics["splits"]["mwz21/test"]["comparable_with_table2"] is False
    md = (tmp / "t" / "entity_bias.md").read_text()
    assert "| mwz21/train |" in md.splitlines()[2]
    # one per slot of the paper's Table 2 (31) and one in the notes
    assert md.count("not computed: training split unavailable") == 32
    splits_md = (tmp / "t" / "entity_bias_splits.md").read_text()
    assert "| mwz21/train | not computed: training split unavailable |" in splits_md
    assert (tmp / "t" / "entity_bias_mwz21_test_unseen.md").exists()
    csv = (tmp / "p.csv").read_text().splitlines()
    assert csv[0] == "version,split,slot_rank,slot,h1_h0,value_rank,value,count,share"
    svg = (tmp / "p.svg").read_bytes()
    invoke("tables-bias", *scores, "--versions", "mwz21", "--table", tmp / "t2" / "entity_bias",
           "--metrics", tmp / "bias2.json", "--plot", tmp / "p2.csv",
           "--plot-image", tmp / "p2.svg", "--plot-slots", "2")
    assert (tmp / "p2.svg").read_bytes() == svg
    assert (tmp / "bias2.json").read_bytes() == (tmp / "bias.json").read_bytes()


def test_every_block_leaf_is_an_option():
    """The workflow passes every leaf of a block (``cli_args``); each command taking the block
    accepts them all, except the keys the workflow expands (bases, sources)."""
    from mwzrepro.core.params import leaves
    from mwzrepro.unseen.params import BiasParams, UnseenParams

    for model, names, skip in ((UnseenParams, ("sgd-pools", "unseen"), {"bases"}),
                               (BiasParams, ("bias", "tables-bias"), {"sources"})):
        wanted = {"--" + "-".join(p).replace("_", "-") for p, _ in leaves(model)
                  if p[0] not in skip}
        for name in names:
            opts = {o for p in COMMANDS[name].params for o in getattr(p, "opts", [])}
            assert wanted <= opts, (name, wanted - opts)


def test_bad_parameter_value_names_the_key(run, tmp_path):
    _, pool, _, _ = run
    res = CliRunner().invoke(COMMANDS["bias"], [
        "--states", str(pool), "--version", "v", "--split", "s", "--out", str(tmp_path / "o"),
        "--out-values", str(tmp_path / "v"), "--plot-slots", "0"])
    assert isinstance(res.exception, ConfigError)
    assert str(res.exception).startswith("bias.plot_slots: ")
    res = CliRunner().invoke(COMMANDS["sgd-pools"], [
        "--schema", str(FIX / "sgd/train/schema.json"), "--out", str(tmp_path / "p"),
        "--report", str(tmp_path / "r"), "--pool-families", "ATTR,PUB"])
    assert isinstance(res.exception, ConfigError)
    assert "unseen.pool_families" in str(res.exception) and "PUB" in str(res.exception)
    assert not (tmp_path / "p").exists()
