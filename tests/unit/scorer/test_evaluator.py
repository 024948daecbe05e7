"""The Python API (mwzrepro.Evaluator) on the two-dialogue mwz21 fixture mirror: hand-checked
numbers, no mutation of the input, id spellings, signatures and coverage, per-dialogue rows,
the cache (reuse, corruption, concurrent first calls, relative mirror), comparison."""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mwzrepro import Evaluator
from mwzrepro.core.errors import ConfigError, InputError

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


def evaluator(mini, **kw):
    return Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=mini["cache"],
                     **kw)


def test_hand_checked_numbers(mini):
    r = evaluator(mini, dst=True, setting="both").evaluate(PREDICTIONS, "mine")
    d = r.to_dict()
    # the state query (cheap chinese centre) gives venues 1-3 = the goal venues; ADDRESS and
    # POST provided; the taxi goal is matched automatically and its PHONE given
    assert d["success"] == {"inform": {"restaurant": 100.0, "taxi": 100.0, "total": 100.0},
                            "success": {"restaurant": 100.0, "taxi": 100.0, "total": 100.0}}
    assert d["sources"]["standard"] == {"setting": "standard", "states": "predicted",
                                        "domains": "estimated"}
    assert d["sources"]["optimistic"]["domains"] == "ground-truth"
    assert "success_optimistic" in d
    # gold turn 1 of sng9001 also has the restaurant name: 2 of 3 turns match jointly
    assert d["dst"]["joint_accuracy"] == pytest.approx(200 / 3)
    assert d["dst_fga"]["turns"] == 3 and d["dst_fga"]["dialogues"] == 2
    # RSA per turn 3/3, 3/4, 2/3 (sng9002's gold arriveby dontcare is missed); GCA: 5 correct
    # changes, 2 missed (the name, arriveby): 5 · (5 + 7) / (25 + 49)
    assert d["dst_fga"]["rsa"] == pytest.approx(100 * (1 + 3 / 4 + 2 / 3) / 3, rel=1e-15)
    assert d["dst_fga"]["gca"] == pytest.approx(100 * 60 / 74, rel=1e-15)
    # normalized responses (13a tokens, punctuation split off): 'NAME is at ADDRESS .', 'the
    # postcode is POST .', 'booked , the number is PHONE .' (17 tokens) against 'NAME is a nice
    # place . it is at ADDRESS .', 'it is POST . goodbye .', 'booked , a TYPE , the contact
    # number is PHONE .' (28): n-gram precisions 15/17, 11/14, 5/11, 2/8, brevity penalty
    # exp(1 - 28/17)
    bleu = math.exp(1 - 28 / 17) * (15 / 17 * 11 / 14 * 5 / 11 * 2 / 8) ** 0.25 * 100
    assert d["bleu"]["mwz21"] == pytest.approx(bleu, rel=1e-12)    # 27.739
    # richness tokens leave punctuation out: 4 + 4 + 5 words, all 10 words distinct, as are
    # the 3 + 3 + 4 bigrams and the 2 + 2 + 3 trigrams
    assert {k: d["richness"][k] for k in ("num_unigrams", "num_bigrams", "num_trigrams")} == \
        {"num_unigrams": 10, "num_bigrams": 10, "num_trigrams": 7}
    assert d["richness"]["avg_lengths"] == pytest.approx(13 / 3)
    assert d["coverage"]["complete"] and d["warnings"] == []


def test_units_percent_everywhere_or_as_the_reference_evaluator(mini):
    r = evaluator(mini, dst=True).evaluate(PREDICTIONS)
    pct, ref = r.to_dict()["dst"], r.to_dict(units="mwzeval")["dst"]
    assert dict(r) == {k: r.to_dict("mwzeval")[k] for k in ("bleu", "success", "richness",
                                                              "dst")}
    assert r["dst"] == ref and r["success"]["inform"]["total"] == 100.0
    assert pct["slot_precision"] == 100 * ref["slot_precision"]
    # 8 of the 9 gold slot values predicted (tp 8, fn 1, fp 0), as the reference computes it
    assert ref["slot_recall"] == 8 / (8 + 1 + 1e-10)
    assert pct["slot_recall"] == 100 * ref["slot_recall"]
    assert pct["joint_accuracy"] == ref["joint_accuracy"]
    with pytest.raises(ValueError):
        r.to_dict(units="fraction")


def test_input_is_never_modified_and_id_spellings_agree(mini):
    e = evaluator(mini)
    data = copy.deepcopy(PREDICTIONS)
    first = e.evaluate(data).to_dict()
    assert data == PREDICTIONS
    assert e.evaluate(data).to_dict() == first          # evaluating twice: same numbers
    upper = {"SNG9001.json": data["sng9001"], "SNG9002": data["sng9002"]}
    assert e.evaluate(upper).to_dict() == first


def test_references_as_predictions_give_bleu_100(mini):
    e = evaluator(mini)
    refs = e.resources.references
    data = {d: [{"response": t} for t in g.sort_values("turn")["delex"]]
            for d, g in refs.groupby("dialogue_id")}
    r = e.evaluate(data)
    assert r.bleu.score == pytest.approx(100.0)       # sacrebleu: 100.00000000000004
    assert r.success["standard"].state_source == "gold"


def test_signatures_have_no_system_and_record_partial_coverage(mini, caplog):
    e = evaluator(mini)
    full = e.evaluate(PREDICTIONS, "mine")
    assert full.system == "mine"
    assert all("system:" not in s and "cov:" not in s for s in full.signatures().values())
    partial = e.evaluate({"sng9001": PREDICTIONS["sng9001"]}, "mine", "part.json")
    assert partial.coverage.missing_dialogues == ("sng9002",)
    assert all("|cov:dialogues=1/2,turns=2/3|" in s for s in partial.signatures().values())
    assert "PARTIAL COVERAGE: 1 of 2 test dialogues (50.0 %)" in partial.warnings[0]
    assert "PARTIAL COVERAGE" in caplog.text
    assert partial.to_dict()["success"]["inform"] == {"restaurant": 100.0, "total": 100.0}
    with pytest.raises(InputError, match="strict"):
        evaluator(mini, strict=True).evaluate({"sng9001": PREDICTIONS["sng9001"]})


def test_truncated_dialogues_are_scored_on_their_prefix_unless_strict(mini, caplog):
    """Issue 18: the reference evaluator's call scores a shorter dialogue on its prefix, with
    a loud warning giving the counts and the coverage in every signature."""
    short = {**PREDICTIONS, "sng9001": PREDICTIONS["sng9001"][:1]}
    r = evaluator(mini).evaluate(short, source="short.json")
    assert r.coverage.truncated_dialogues == ("sng9001",)
    assert r.coverage.signature_value() == "dialogues=2/2,turns=2/3"
    assert all("|cov:dialogues=2/2,turns=2/3|" in s for s in r.signatures().values())
    assert "short.json: PARTIAL COVERAGE: 2 of 2 test dialogues (100.0 %); 2 of 3 turns " \
           "(66.7 %); 1 dialogue(s) truncated (e.g. sng9001)" in caplog.text
    with pytest.raises(InputError, match=r"turns=2/3 \(fewer turns: sng9001\) and --strict"):
        evaluator(mini, strict=True).evaluate(short)
    with pytest.raises(InputError, match=r"sng9001 \(1 turns, expected 2\)"):
        evaluator(mini, allow_missing_turns=False).evaluate(short)


def test_empty_responses_are_counted_and_warned(mini):
    empty = {d: [{**t, "response": ""} for t in ts] for d, ts in PREDICTIONS.items()}
    r = evaluator(mini).evaluate(empty)
    assert r.coverage.empty_responses == 3
    assert any("ALL responses are empty" in w for w in r.warnings)


def test_per_dialogue_rows(mini):
    rows = {r["dialogue_id"]: r for r in evaluator(mini).per_dialogue(PREDICTIONS)}
    assert rows["sng9001"]["offered"] == {"restaurant": ["1", "2", "3"]}
    assert rows["sng9001"]["goal_venues"] == {"restaurant": ["1", "2", "3"]}
    assert rows["sng9001"]["requested"] == {"restaurant": ["ADDRESS", "POST"]}
    assert rows["sng9001"]["provided"] == {"restaurant": ["ADDRESS", "POST"]}
    assert rows["sng9002"]["offered"] == {"taxi": None}        # matched automatically
    assert rows["sng9002"]["inform"] == {"taxi": True, "total": True}


def test_explain_names_unknown_dialogues(mini):
    e = evaluator(mini)
    trace = e.explain(PREDICTIONS, "SNG9001.json")
    assert [t.offers["restaurant"].change for t in trace.turns] == ["set", "-"]   # no NAME
    assert trace.turns[0].user.startswith("i want a cheap chinese restaurant")
    with pytest.raises(InputError, match="sng9002 is not in the predictions"):
        e.explain({"sng9001": PREDICTIONS["sng9001"]}, "sng9002")


def test_bad_settings_are_config_errors(mini):
    with pytest.raises(ConfigError, match="setting must be one of"):
        evaluator(mini, setting="lenient")
    with pytest.raises(ConfigError, match="inform.fuzzy_threshold"):
        evaluator(mini, fuzzy_threshold=101)
    with pytest.raises(ConfigError, match="unknown dataset version 'mwz19'"):
        evaluator(mini, version="mwz19")


def test_evaluate_file(mini, tmp_path):
    f = tmp_path / "my-system.json"
    f.write_text(json.dumps(PREDICTIONS), encoding="utf-8")
    r = evaluator(mini).evaluate_file(f)
    assert (r.system, r.source) == ("my-system", "my-system.json")
    f.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="my-system.json: not valid JSON"):
        evaluator(mini).evaluate_file(f)


def test_a_corrupted_cache_file_is_rebuilt_never_used(mini, tmp_path, caplog):
    cache = tmp_path / "own-cache"
    e = Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=cache)
    expected = e.evaluate(PREDICTIONS).to_dict()
    gold = next(cache.glob("resources/mwz21/*/eval_goals.json"))
    gold.write_text(gold.read_text().replace('"chinese"', '"italian"'))
    e2 = Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=cache)
    assert "failed verification" in caplog.text and "eval_goals.json" in caplog.text
    assert '"chinese"' in gold.read_text()
    assert e2.evaluate(PREDICTIONS).to_dict() == expected
    raw = next(cache.glob("raw/fixture/mwz21/data/test.json.zip"))
    raw.write_bytes(b"garbage")                        # a corrupted raw file is fetched again
    for f in cache.glob("resources/mwz21/*/manifest.json"):
        f.unlink()
    Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=cache)
    assert raw.read_bytes() != b"garbage"


def test_relative_mirror_resolves_against_the_working_directory(mini, tmp_path, monkeypatch):
    monkeypatch.chdir(mini["mirror"].parent)
    monkeypatch.setenv("MWZREPRO_MIRROR", mini["mirror"].name)
    r = Evaluator(registry=mini["registry"], cache_dir=tmp_path / "c").evaluate(PREDICTIONS)
    assert r.success["standard"].inform["total"] == 100.0


def test_concurrent_first_calls_build_once(mini, tmp_path):
    code = ("import json, logging; logging.basicConfig(level=logging.INFO); "
            "from mwzrepro import Evaluator; "
            f"e = Evaluator(mirror={str(mini['mirror'])!r}, registry={str(mini['registry'])!r}); "
            f"print(json.dumps(e.evaluate({PREDICTIONS!r}).to_dict()['success']))")
    env = {**os.environ, "MWZREPRO_CACHE": str(tmp_path / "shared")}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert outs[0][0] == outs[1][0]
    assert sum("building the mwz21 evaluation resources" in err for _, err in outs) == 1


def test_compare_two_systems(mini):
    worse = copy.deepcopy(PREDICTIONS)
    worse["sng9001"][1]["response"] = "goodbye ."                 # no POST: success fails
    rows = {r.metric: r for r in evaluator(mini).compare(PREDICTIONS, worse)}
    assert set(rows) == {"inform", "success", "bleu"}
    assert rows["inform"].diff == 0.0
    assert rows["success"].diff == 50.0                            # 2/2 vs 1/2 dialogues


def test_import_is_lazy():
    out = subprocess.run([sys.executable, "-c", "import sys, mwzrepro, mwzrepro.scorer; "
                          "print('pandas' in sys.modules, 'Evaluator' in dir(mwzrepro))"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]


def test_registry_ships_inside_the_package():
    from mwzrepro.scorer.resources.fetch import default_registry

    path = default_registry()
    assert path.is_file() and Path(path).parent.name == "resources"
    from mwzrepro.core.sources import load_registry

    assert "mwz21-test" in load_registry(path) and "multiwoz-dialog-acts" in load_registry(path)


#: The same system in a newer placeholder dialect: a 2.2 slot name, a domain-prefixed form
#: the reference table lacks, upper case.
DIALECT = {
    "sng9001": [
        {**PREDICTIONS["sng9001"][0], "response": "[Restaurant_Name] is at [restaurant-address] ."},
        {**PREDICTIONS["sng9001"][1], "response": "the postcode is [restaurant_post_code] , "
                                                  "booking [restaurant_ref] ."},
    ],
    "sng9002": [{**PREDICTIONS["sng9002"][0], "response": "booked , call [TAXI-PHONE] ."}],
}


def test_placeholder_dialect_gets_the_extended_line_equal_to_extended_scoring(mini, caplog):
    """Issue 18: under the default vocabulary ADDRESS, POST and PHONE are lost (Success 0);
    the warning line gives the figures of placeholders=extended, which equal a run with it."""
    ref = evaluator(mini).evaluate(DIALECT, source="dialect.json")
    assert ref.success["standard"].success["total"] == 0.0
    assert ref.unknown_placeholders == {"restaurant_post_code": 1, "restaurant_ref": 1}
    ext = evaluator(mini, placeholders="extended", dst=True).evaluate(DIALECT,
                                                                  source="dialect.json")
    assert ext.success["standard"].success["total"] == 100.0
    assert ext.unknown_placeholders == {}
    figures = ref.to_dict()["placeholders_extended"]
    assert figures == {"inform": ext.success["standard"].inform["total"],
                       "success": 100.0, "bleu": ext.bleu.score, "setting": "standard",
                       "placeholders": {"restaurant-address": 1, "restaurant_post_code": 1,
                                        "restaurant_ref": 1, "taxi-phone": 1}}
    line = (f"dialect.json: with placeholders=extended: Inform 100.0, Success 100.0, "
            f"BLEU {ext.bleu.score:.1f} (it maps restaurant-address ×1, ")
    assert line in caplog.text and any(w.startswith(line) for w in ref.warnings)
    assert "unknown placeholders deleted by normalization (spec-standard-evaluation §3.2): {'restaurant_post_code'" \
        ": 1, 'restaurant_ref': 1}" in caplog.text
    assert ext.to_dict()["placeholders_extended"] is None          # no second pass
    # the signature field: only under extended, on the normalization-dependent blocks
    sig = ext.signatures()
    assert all("|ph:ext|" in sig[k] for k in ("bleu", "success", "richness"))
    assert "ph:" not in sig["dst"] and not any("ph:" in s for s in ref.signatures().values())
    assert ref.to_dict()["placeholders"] == "reference"
    assert ext.to_dict()["placeholders"] == "extended"


def test_no_extended_line_when_extended_changes_nothing(mini, caplog):
    r = evaluator(mini).evaluate(PREDICTIONS)
    assert r.placeholders_extended is None and "placeholders=extended" not in caplog.text
