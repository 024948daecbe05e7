"""``mwzrepro score --dst-convention`` and ``Evaluator(dst_convention=...)`` on the mwz21
fixture mirror: the presets ``fga`` and ``mwzeval`` give the result's own DST figures (the FGA
paper's JGA/SA and the reference's joint accuracy), the text is one row per preset, several
files are ranked, and an unknown name or a file without states is one line, nothing written."""

from __future__ import annotations

import copy
import json

from mwzrepro import Evaluator
from tests.unit.scorer.test_cli_score import score, write  # noqa: F401 (fixture)
from tests.unit.scorer.test_evaluator import PREDICTIONS

PRESETS = ["fga", "mwzeval", "simpletod", "simpletod-original", "trade", "convlab3"]


def test_all_presets_agree_with_the_result_blocks(mini, score, tmp_path):  # noqa: F811
    pred = write(tmp_path / "mine.json", PREDICTIONS)
    result = Evaluator(dst=True, dst_convention="all", mirror=mini["mirror"],
                       registry=mini["registry"], cache_dir=tmp_path / "cache"
                       ).evaluate_file(pred).to_dict()
    block = result["dst_conventions"]
    assert list(block) == PRESETS
    assert block["fga"]["jga"] == result["dst_fga"]["jga"]
    assert block["fga"]["sa"] == result["dst_fga"]["sa"]
    # the reference divides by turns + 1e-10 (spec-standard-evaluation §13): equal to 1e-6
    assert round(block["mwzeval"]["jga"], 6) == round(result["dst"]["joint_accuracy"], 6)
    assert block["mwzeval"]["signature"].startswith(
        "JGA|ver:mwz21|dial:all|gdc:drop|pign:keep|names:ref")
    code, out, _ = score(pred, "--dst-convention", "all", "--format", "json",
                         "--no-result-cache")
    assert code == 0 and json.loads(out)["dst_conventions"] == block
    code, text, _ = score(pred, "--dst-convention", "all")
    lines = text.splitlines()
    assert code == 0 and lines[0] == ("mine on mwz21: JGA and slot accuracy by DST scoring "
                                      "preset")
    assert [line.split()[0] for line in lines[2:]] == PRESETS
    assert lines[3].split()[1] == f"{block['mwzeval']['jga']:.2f}"


def test_several_files_are_ranked(score, tmp_path):  # noqa: F811
    worse = copy.deepcopy(PREDICTIONS)
    for turn in worse["sng9001"]:
        turn["state"]["restaurant"]["food"] = "thai"
    a = write(tmp_path / "a.json", PREDICTIONS)
    b = write(tmp_path / "b.json", worse)
    code, out, _ = score(a, b, "--dst-convention", "fga")
    rows = out.splitlines()
    assert code == 0 and rows[0].split() == ["system", "fga", "JGA", "(rank)"]
    assert [r.split()[0] for r in rows[1:3]] == ["a", "b"]
    assert rows[1].endswith("(1)") and rows[2].endswith("(2)")
    assert rows[3].startswith("fga: JGA|ver:mwz21|dial:fga|")
    code, out, _ = score(a, b, "--dst-convention", "all", "--names", "good,bad")
    rows = out.splitlines()
    assert code == 0 and rows[0].split()[:4] == ["system", "fga", "JGA", "(rank)"]
    assert [r.split()[0] for r in rows[1:3]] == ["good", "bad"] and len(rows) == 3 + 6


def test_unknown_name_and_missing_states_are_one_line(score, tmp_path):  # noqa: F811
    pred = write(tmp_path / "mine.json", PREDICTIONS)
    code, out, err = score(pred, "--dst-convention", "jga")
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [
        "mwzrepro: error: unknown DST convention 'jga'; known: fga, mwzeval, simpletod, "
        "simpletod-original, trade, convlab3 (or all)"]
    stateless = {d: [{"response": t["response"]} for t in turns]
                 for d, turns in PREDICTIONS.items()}
    nostate = write(tmp_path / "nostate.json", stateless)
    out_file = tmp_path / "out.json"
    code, out, err = score(nostate, "--dst-convention", "all", "--out", out_file,
                           "--no-result-cache")
    assert code == 1 and out == "" and not out_file.exists()
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        "mwzrepro: error: nostate.json: --dst-convention: DST needs a predicted state on every "
        "turn (this file has none on some turns)")
