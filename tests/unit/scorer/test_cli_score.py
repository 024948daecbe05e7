"""``mwzrepro score`` and ``mwzrepro explain`` on the mwz21 fixture mirror: one-line errors for
bad input with nothing written, output formats, the per-dialogue file, the stored-result
cache, and agreement with the Python API."""

from __future__ import annotations

import json
import sys

import pytest

from mwzrepro import Evaluator
from mwzrepro.cli import main
from tests.unit.scorer.test_evaluator import PREDICTIONS


def run(monkeypatch, capsys, *args):
    """Run the real entry point; returns (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["mwzrepro", *map(str, args)])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def score(mini, monkeypatch, capsys, tmp_path):
    """``score(file, *options)`` with the fixture mirror and registry and a fresh cache."""
    def call(path, *extra):
        return run(monkeypatch, capsys, "score", path, "--mirror", mini["mirror"],
                   "--sources", mini["registry"], "--cache-dir", tmp_path / "cache", *extra)
    return call


def write(path, data):
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


BAD_STRUCTURE = [
    ({}, "mine.json: no dialogues (the object is empty)"),
    ([], "mine.json: top level must be an object {dialogue id: [turns]}, got a list"),
    ("just text", "mine.json: top level must be an object {dialogue id: [turns]}, got a string"),
    ({"sng9001": {}}, "the value of every dialogue must be a list of turns; not a list: sng9001"),
    ({"sng9001": []}, "mine.json: 1 dialogue(s) but no turn at all"),
    ("{not json", "mine.json: not valid JSON"),
    (b"\xff\xfe{}", "mine.json: not UTF-8 text"),
]

BAD_CONTENT = [
    ({**PREDICTIONS, "pmul9999": [{"response": "hi"}]},
     "mine.json: 1 dialogue id(s) not in the test set: pmul9999"),
    ({**PREDICTIONS, "sng9001": [{"response": "a"}, 7]},
     "mine.json: dialogue sng9001, turn 1: each turn must be an object with a 'response'"),
    ({**PREDICTIONS, "sng9001": [{"response": "a"}, "b"]},
     "mine.json: dialogue sng9001 mixes plain strings (legacy responses) and other turns; "
     "accepted shapes: "),
    ({**PREDICTIONS, "sng9002": [{"response": 7}]},
     "mine.json: dialogue sng9002, turn 0: 'response' must be a string, got int"),
    ({**PREDICTIONS, "sng9002": [{"response": "x", "state": ["taxi"]}]},
     "'state' must be an object {domain: {slot: value}}"),
]


@pytest.mark.parametrize("data, message", BAD_STRUCTURE + BAD_CONTENT)
def test_bad_input_is_one_line_and_nothing_is_written(score, tmp_path, data, message):
    pred = write(tmp_path / "mine.json", data if not isinstance(data, str) or data.startswith(
        "{") else json.dumps(data))
    code, out, err = score(pred, "--out", tmp_path / "r.json", "--per-dialogue",
                           tmp_path / "d.csv")
    assert code == 1 and out == ""
    last = err.strip().splitlines()[-1]              # before it: the first-use build log
    assert last.startswith("mwzrepro: error: ") and message in last
    assert err.count("mwzrepro: error") == 1 and "Traceback" not in err
    assert not (tmp_path / "r.json").exists() and not (tmp_path / "d.csv").exists()
    if (data, message) in BAD_STRUCTURE:            # rejected before any resource is built
        assert len(err.strip().splitlines()) == 1
        assert not (tmp_path / "cache").exists()


def test_extra_turns_have_their_own_message(score, tmp_path):
    pred = write(tmp_path / "long.json", {**PREDICTIONS, "sng9002": PREDICTIONS["sng9002"] * 2})
    code, _, err = score(pred, "--out", tmp_path / "r.json")
    assert code == 1
    assert "1 dialogue(s) with more turns than the test set has system turns: sng9002 " \
           "(2 turns, test set 1)" in err
    assert "allow-missing-turns" not in err and "no user turns" in err
    assert not (tmp_path / "r.json").exists()


def test_fewer_turns_are_scored_with_a_warning_unless_strict(score, tmp_path):
    pred = write(tmp_path / "short.json", {**PREDICTIONS, "sng9001": PREDICTIONS["sng9001"][:1]})
    code, out, err = score(pred, "--format", "json")
    assert code == 0 and json.loads(out)["coverage"]["truncated_dialogues"] == ["sng9001"]
    assert "PARTIAL COVERAGE" in err and "1 dialogue(s) truncated (e.g. sng9001)" in err
    code, out, err = score(pred, "--strict", "--out", tmp_path / "r.json")
    assert code == 1 and "(fewer turns: sng9001) and --strict" in err
    assert out == "" and not (tmp_path / "r.json").exists()
    code, _, err = score(pred, "--no-allow-missing-turns")
    assert code == 1 and "sng9001 (1 turns, expected 2)" in err


def test_strict_and_partial_coverage(score, tmp_path):
    pred = write(tmp_path / "part.json", {"SNG9001.json": PREDICTIONS["sng9001"]})
    code, out, err = score(pred, "--format", "json")
    assert code == 0
    assert "WARNING part.json: PARTIAL COVERAGE: 1 of 2 test dialogues (50.0 %)" in err
    result = json.loads(out)
    assert result["coverage"]["missing_dialogues"] == ["sng9002"]
    assert "cov:dialogues=1/2,turns=2/3" in result["signatures"]["success"]
    code, out, err = score(pred, "--strict", "--out", tmp_path / "r.json")
    assert code == 1 and "--strict" in err and out == "" and not (tmp_path / "r.json").exists()


def test_bad_metrics_option(score, tmp_path):
    code, _, err = score(write(tmp_path / "mine.json", PREDICTIONS), "--metrics", "bleu,magic")
    assert code == 1 and "--metrics: magic: expected a comma-separated subset" in err


def test_formats_and_agreement_with_the_api(score, mini, tmp_path):
    pred = write(tmp_path / "mine.json", PREDICTIONS)
    code, out, _ = score(pred, "--format", "json", "--no-result-cache")
    assert code == 0
    api = Evaluator(dst=True, mirror=mini["mirror"], registry=mini["registry"],
                    cache_dir=tmp_path / "cache").evaluate_file(pred).to_dict()
    assert json.loads(out) == api
    code, out, _ = score(pred, "--format", "json", "--units", "mwzeval")
    assert json.loads(out)["dst"]["slot_precision"] == api["dst"]["slot_precision"] / 100
    code, text, _ = score(pred)
    assert "====== SUCCESS (standard) ======" in text
    assert "signature: Inform/Success|ver:mwz21" in text
    assert "system mine on the mwz21 test set (mine.json); units: percent" in text
    code, md, _ = score(pred, "--format", "markdown", "--metrics", "bleu,success,richness")
    head, _, row = md.splitlines()[:3]
    assert head == ("| System | BLEU | Inform | Success | Combined | Av. len. | CBE | "
                    "#uniq. words | #uniq. 3-grams |")
    bleu = api["bleu"]["mwz21"]
    assert row.startswith(f"| mine | {bleu:.1f} | 100.0 | 100.0 | {100 + bleu:.1f} |")
    assert "- success: Inform/Success|ver:mwz21" in md
    code, tex, _ = score(pred, "--format", "latex")
    assert r"\begin{tabular}" in tex and "mine & " in tex and "% bleu: BLEU|" in tex
    assert "JGA & SA & AGA & FGA(0.25)" in tex


def test_stored_results_are_reused_verified_and_keyed(score, tmp_path, capsys):
    pred = write(tmp_path / "mine.json", PREDICTIONS)
    _, first, err = score(pred)
    assert "stored result" not in err
    _, second, err = score(pred)
    assert second == first and "scored before with the same settings" in err
    stored = next((tmp_path / "cache" / "results").glob("*.json"))
    doc = json.loads(stored.read_text())
    doc["result"]["success"]["inform"]["total"] = 0.0             # tampered: not used
    stored.write_text(json.dumps(doc))
    _, third, err = score(pred)
    assert third == first and "stored result" not in err
    _, other, err = score(pred, "--setting", "optimistic")          # other settings: recomputed
    assert "stored result" not in err and "SUCCESS (optimistic)" in other


def test_per_dialogue_file(score, tmp_path):
    pred = write(tmp_path / "mine.json", PREDICTIONS)
    code, _, _ = score(pred, "--per-dialogue", tmp_path / "d.csv", "--metrics", "success")
    assert code == 0
    lines = (tmp_path / "d.csv").read_text().splitlines()
    assert lines[0].startswith("dialogue_id,setting,inform_total,success_total,"
                               "inform_restaurant,success_restaurant,offered_restaurant")
    assert lines[1].startswith("sng9001,standard,True,True,True,True,1 2 3,1 2 3,ADDRESS POST,"
                               "ADDRESS POST")
    score(pred, "--per-dialogue", tmp_path / "d.jsonl", "--metrics", "success")
    rows = [json.loads(x) for x in (tmp_path / "d.jsonl").read_text().splitlines()]
    assert rows[1]["offered"] == {"taxi": None}


def test_explain(mini, monkeypatch, capsys, tmp_path):
    pred = write(tmp_path / "mine.json", PREDICTIONS)
    code, out, _ = run(monkeypatch, capsys, "explain", pred, "SNG9001", "--mirror",
                       mini["mirror"], "--sources", mini["registry"])
    assert code == 0
    assert out.startswith("dialogue sng9001 — Inform/Success trace (standard setting)")
    assert "  user:       i want a cheap chinese restaurant in the centre ." in out
    assert "offered restaurant: set: 1 2 3 (query: 1 2 3)" in out
    assert "restaurant: offered 1 2 3 (3 venue(s)); goal venues 1 2 3 (3)" in out
    code, out, _ = run(monkeypatch, capsys, "explain", pred, "sng9001", "--format", "json",
                       "--mirror", mini["mirror"], "--sources", mini["registry"])
    assert json.loads(out)["goal_venues"] == {"restaurant": ["1", "2", "3"]}
    code, _, err = run(monkeypatch, capsys, "explain", pred, "pmul1234", "--mirror",
                       mini["mirror"], "--sources", mini["registry"])
    assert code == 1 and "dialogue pmul1234 is not in the predictions" in err


def test_placeholder_dialect_line_and_the_option(score, tmp_path):
    from tests.unit.scorer.test_evaluator import DIALECT

    pred = write(tmp_path / "dialect.json", DIALECT)
    code, out, err = score(pred)
    assert code == 0
    line = next(x for x in err.splitlines() if "with placeholders=extended:" in x)
    assert "dialect.json: with placeholders=extended: Inform 100.0, Success 100.0, BLEU " in line
    code, out, err = score(pred, "--placeholders", "extended", "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["success"]["success"]["total"] == 100.0
    assert "|ph:ext|" in result["signatures"]["bleu"] and "placeholders=extended:" not in err
    assert f"BLEU {result['bleu']['mwz21']:.1f}" in line
