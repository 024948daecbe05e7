"""The ``inform_success_grounded`` table assembly (:mod:`mwzrepro.scorer.lexicalized.grounded_table`) on
hand-made results: row order, the ``states`` column from ``lex``, rendering, the metrics
file (numbers only) and the record (signatures without system names)."""

from __future__ import annotations

import json

import pytest

from mwzrepro.core.io import write_metrics
from mwzrepro.core.signature import SignatureMismatch
from mwzrepro.scorer.lexicalized.grounded_table import ORACLE_ROW, grounded_table, has_states

SIG = "{}|system:{}|ver:mwz21|state:{}|dom:{}|set:{}|thr:{}{}|lex:1-{}|v:0.1.0"


def result(system, state, std, grounded, acc, f1, unknown, thr="90", dom="provided", cov=""):
    def sig(key, setting):
        return SIG.format(key, system, state, dom, setting, thr, cov,
                          "gold" if state == "gold" else "pred")

    return {
        "success": {"inform": {"total": std[0]}, "success": {"total": std[1]}},
        "success_grounded": {"inform": {"total": grounded[0]},
                             "success": {"total": grounded[1]}},
        "grounding": {"attribute_accuracy": {"total": acc}, "entity_f1": {"f1": f1},
                      "unknown_venues": {"count": unknown}},
        "signatures": {"success": sig("success", "standard"),
                       "success_grounded": sig("success", "grounded"),
                       "grounding": sig("grounding", "grounded")},
    }


@pytest.fixture
def results():
    return {
        "ubar": result("ubar", "predicted", (83.4, 70.3), (85.1, 66.0), 99.8, 61.25, 3),
        "damd": result("damd", "predicted", (76.4, 60.4), (74.0, 55.5), 99.5, 55.0, 0,
                       cov="|cov:944/1000"),
        ORACLE_ROW: result("oracle", "gold", (93.6, 89.8), (95.7, 90.9), 98.4, 100.0, 12,
                           dom="estimated"),
    }


def test_rows_columns_and_rendering(results, tmp_path):
    results["mine"] = result("mine", "gold", (70.0, 60.0), (50.0, 40.0), 80.0, 30.0, 9)
    spec, record = grounded_table(results, "mwz21", kinds={"mine": "as given"},
                                  filled={"ubar": {"total": 99.96}, "damd": {"total": 99.25}})
    assert list(spec.df["input"]) == [ORACLE_ROW, "mine", "damd", "ubar"]
    assert list(spec.df["text"]) == ["corpus", "as given", "filled", "filled"]
    assert list(spec.df["states"]) == ["gold", "gold", "predicted", "predicted"]
    assert list(spec.df["domains"]) == ["estimated", "provided", "provided", "provided"]
    assert list(spec.df["coverage"]) == ["full", "full", "944/1000", "full"]
    assert list(spec.df.columns) == [
        "input", "text", "states", "domains", "coverage", "Inform", "Success",
        "Inform grounded", "Success grounded", "attribute accuracy %",
        "filled attribute accuracy %", "entity F1", "unknown venues"]
    spec.render(tmp_path / "t")
    md = (tmp_path / "t.md").read_text()
    assert ("| oracle, lexicalized | corpus | gold | estimated | full | 93.6 | 89.8 | 95.7 | 90.9 "
            "| 98.4 | – | 100.0 | 12 |") in md
    assert ("| ubar | filled | predicted | provided | full | 83.4 | 70.3 | 85.1 | 66.0 | 99.8 | "
            "100.0 | 61.2 | 3 |") in md  # 61.25: round half to even
    assert "ubar" not in "".join(spec.notes) and "oracle|" not in "".join(spec.notes)
    assert ("grounded: success|ver:mwz21|state:<row>|dom:<row>|set:grounded|thr:90|cov:<row>|"
            "lex:<row>|v:0.1.0") in spec.notes
    csv = (tmp_path / "t.csv").read_text().splitlines()
    assert csv[1] == ('"oracle, lexicalized",corpus,gold,estimated,full,93.6,89.8,95.7,90.9,'
                      '98.4,,100.0,12')
    assert (tmp_path / "t.tex").is_file()
    assert record["rows"]["damd"] == {
        "text": "filled", "states": "predicted", "domains": "provided",
        "standard": {"inform": 76.4, "success": 60.4},
        "grounded": {"inform": 74.0, "success": 55.5}, "attribute_accuracy": 99.5,
        "filled_attribute_accuracy": 99.25, "entity_f1": 55.0, "unknown_venues": 0}
    assert "filled_attribute_accuracy" not in record["rows"]["mine"]
    # which text the standard columns score, and why a filled row differs from inform_success
    said = next(n for n in spec.notes if n.startswith("Inform and Success (standard"))
    assert "'filled' rows the relexicalized text, not the system's own placeholders" in said
    assert "inform_success" in said


def test_metrics_are_numbers_and_record_has_signatures(results, tmp_path):
    _, record = grounded_table(results, "mwz21")
    write_metrics(record, tmp_path / "m.json", tmp_path / "r.json")
    metrics = json.loads((tmp_path / "m.json").read_text())
    assert metrics["rows"]["oracle"]["grounded"] == {"inform": 95.7, "success": 90.9}
    assert "signatures" not in metrics and "states" not in metrics["rows"]["ubar"]
    full = json.loads((tmp_path / "r.json").read_text())
    assert full["signatures"]["standard"] == \
        "success|ver:mwz21|state:<row>|dom:<row>|set:standard|thr:90|cov:<row>|lex:<row>|v:0.1.0"


def test_settings_that_differ_are_refused(results):
    results["damd"] = result("damd", "predicted", (1, 1), (1, 1), 1, 1, 0, thr="80")
    with pytest.raises(SignatureMismatch, match="standard columns"):
        grounded_table(results, "mwz21")


def test_has_states():
    assert not has_states({"a": [{"response": "x"}], "b": "junk"})
    assert has_states({"a": [{"response": "x"}, {"response": "y", "state": {}}]})
