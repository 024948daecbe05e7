"""The pipeline step ``tables-grounded`` (issue 27, "The pipeline") on the real data mirror:
its ``oracle, lexicalized`` row is the corpus text's figures of
``tests/integration/test_grounded_real.py`` (standard 93.6 / 89.8, grounded 95.7 / 90.9,
attribute accuracy >= 97 %, entity F1 100.0); a system whose file gives no predicted states
(HDSA) is left out; a lexicalized system (``--lexicalized-system``: here MinTL's round trip
written to a file) is scored as given, with the round-trip row's numbers. The raw directory
holds the registry's files as links into the mirror, as ``data/raw`` holds them after the
download step. The pipeline's two steps (``grounded-inputs``, then ``tables-grounded
--inputs``) write the same bytes as the one step by hand, and so does ``--memo`` (a memo
made at threshold 90 read by a run at 85 gives that run's bytes without a memo)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mwzrepro import Evaluator
from mwzrepro.core.sources import mirror_path
from mwzrepro.scorer.resources.build import recipe
from mwzrepro.scorer.resources.fetch import registry_sources
from mwzrepro.scorer.lexicalized.round_trip import round_trip
from tests.conftest import mirror_file

pytestmark = pytest.mark.mirror


def test_oracle_row_is_the_corpus_text_figures(mirror, tmp_path):
    from mwzrepro.cli.tables_grounded import grounded_inputs, tables_grounded

    raw = tmp_path / "raw"
    for source in registry_sources(recipe("mwz21").source_ids()).values():
        (raw / source.path).parent.mkdir(parents=True, exist_ok=True)
        (raw / source.path).symlink_to(mirror_path(mirror, source.url))
    (raw / "mwzeval" / "predictions").mkdir(parents=True)
    predictions = raw / "mwzeval" / "predictions"
    for system in ("hdsa", "mintl"):
        (predictions / f"{system}.json").symlink_to(
            mirror_file(mirror, "Tomiinek/MultiWOZ_Evaluation", f"predictions/{system}.json"))
    e = Evaluator(bleu=False, success=True, richness=False, mirror=mirror, lexicalized=True,
                  cache_dir=tmp_path / "cache")
    mintl = json.loads((predictions / "mintl.json").read_text(encoding="utf-8"))
    (predictions / "mintl-lex.json").write_text(json.dumps(round_trip(mintl, e)))
    out = tmp_path / "out"
    run = CliRunner().invoke(tables_grounded, [
        "--raw-dir", str(raw), "--system", "hdsa", "--system", "mintl",
        "--lexicalized-system", "mintl-lex", "--table", str(out / "t"),
        "--metrics", str(out / "m.json"), "--record", str(out / "r.json")])
    assert run.exit_code == 0, run.output
    metrics = json.loads((out / "m.json").read_text())
    assert list(metrics["rows"]) == ["oracle", "mintl-lex", "mintl"]  # hdsa: no states
    given, filled = metrics["rows"]["mintl-lex"], metrics["rows"]["mintl"]
    assert "filled_attribute_accuracy" not in given and filled["filled_attribute_accuracy"] >= 99
    assert given == {k: v for k, v in filled.items() if k != "filled_attribute_accuracy"}
    row = metrics["rows"]["oracle"]
    assert row["standard"] == {"inform": 93.6, "success": 89.8}
    assert row["grounded"] == {"inform": 95.7, "success": 90.9}
    assert row["attribute_accuracy"] >= 97 and row["entity_f1"] == 100.0
    record = json.loads((out / "r.json").read_text())
    assert record["signatures"]["grounded"] == (
        "Inform/Success|ver:mwz21|split:test|ref:goals+booked|state:<row>|dom:estimated|"
        "set:grounded|match:reference|thr:90|norm:mwzeval-2022-06-10|cov:<row>|lex:<row>|v:0.1.0")
    md = (out / "t.md").read_text()
    assert ("| oracle, lexicalized | corpus | gold | estimated | full | 93.6 | 89.8 | 95.7 | "
            "90.9 |") in md
    assert "| mintl-lex | as given | predicted |" in md and "| mintl | filled | predicted |" in md
    # the pipeline's two steps: the same bytes
    inputs, piped = tmp_path / "inputs", tmp_path / "piped"
    run = CliRunner().invoke(grounded_inputs, [
        "--raw-dir", str(raw), "--system", "hdsa", "--system", "mintl", "--out", str(inputs)])
    assert run.exit_code == 0, run.output
    assert sorted(p.name for p in (inputs / "round_trip").iterdir()) == [
        "hdsa.json", "mintl.json"]
    run = CliRunner().invoke(tables_grounded, [
        "--raw-dir", str(raw), "--system", "hdsa", "--system", "mintl",
        "--lexicalized-system", "mintl-lex", "--inputs", str(inputs), "--table",
        str(piped / "t"), "--metrics", str(piped / "m.json"), "--record", str(piped / "r.json")])
    assert run.exit_code == 0, run.output
    for name in ("t.md", "t.csv", "t.tex", "m.json", "r.json"):
        assert (piped / name).read_bytes() == (out / name).read_bytes(), name
    # --memo: the same bytes at 90 (memo made) and at 85 (memo read and extended)
    memo, log = tmp_path / "memo", tmp_path / "log"

    def piped_run(name, threshold, *extra):
        run = CliRunner().invoke(tables_grounded, [
            "--raw-dir", str(raw), "--system", "hdsa", "--system", "mintl",
            "--lexicalized-system", "mintl-lex", "--inputs", str(inputs), "--table",
            str(tmp_path / name / "t"), "--metrics", str(tmp_path / name / "m.json"),
            "--fuzzy-threshold", str(threshold), "--record", str(tmp_path / name / "r.json"),
            *extra])
        assert run.exit_code == 0, run.output
        return {n: (tmp_path / name / n).read_bytes() for n in ("t.md", "t.csv", "t.tex",
                                                                "m.json", "r.json")}

    assert piped_run("memo90", 90, "--memo", str(memo)) == {
        n: (out / n).read_bytes() for n in ("t.md", "t.csv", "t.tex", "m.json", "r.json")}
    at85 = piped_run("memo85", 85, "--memo", str(memo), "--log", str(log))
    assert at85 == piped_run("plain85", 85)
    assert b"thr:85" in at85["r.json"] and at85["m.json"] != (out / "m.json").read_bytes()
    assert "dialogues filled anew" in log.read_text()
