"""``mwzrepro compare`` is honest (issue 32), on the two-dialogue mwz21 fixture mirror: files
covering different dialogues are compared on the shared ones with a loud warning (``--strict``:
an error), ``--lexicalized`` delexicalizes only the lexicalized file, and the text and JSON
outputs state the same correction and meaning of ±."""

from __future__ import annotations

import json

import pytest

from tests.unit.scorer.test_cli_compare import WORSE, compare  # noqa: F401  (fixture)
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_lexicalized_scoring import LEXICAL
from tests.unit.scorer.test_score_many import HALF


def test_different_coverage_is_compared_on_the_shared_dialogues(compare):  # noqa: F811
    code, out, err = compare(HALF, WORSE, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["coverage"] == {"a": 1, "b": 2, "shared": 1, "test": 2, "shared_only": True}
    assert doc["dialogues"] == 1
    assert "WARNING DIFFERENT COVERAGE: a covers 1 and b 2 of the 2 test dialogues; compared " \
        "on the 1 dialogues both cover (paired)" in err
    rows = {m["metric"]: m for m in doc["metrics"]}
    # on sng9001 alone: A provides the postcode, B does not (Success 100 vs 0); the
    # 2-dialogue figure of B (50 %) is not what is compared
    assert (rows["success"]["a"]["point"], rows["success"]["b"]["point"]) == (100.0, 0.0)
    assert rows["success"]["diff"] == 100.0
    code, out, err = compare(HALF, WORSE, "--strict")
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [
        "mwzrepro: error: a covers 1 and b 2 of the 2 test dialogues and --strict "
        "(strict=True) requires both to cover every test dialogue"]


def test_full_coverage_is_unchanged(compare):  # noqa: F811
    code, out, err = compare(PREDICTIONS, WORSE, "--format", "json")
    assert code == 0 and "DIFFERENT COVERAGE" not in err
    doc = json.loads(out)
    assert doc["coverage"]["shared_only"] is False and doc["warning"] is None


def test_lexicalized_applies_only_to_the_lexicalized_file(compare):  # noqa: F811
    code, out, err = compare(LEXICAL, PREDICTIONS, "--lexicalized", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["forms"] == {"a": {"lexicalized": True, "placeholders": "reference"},
                            "b": {"lexicalized": False, "placeholders": "reference"}}
    assert "b.json: responses carry placeholders (delexicalized): compared as they are" in err
    code, plain, _ = compare(PREDICTIONS, PREDICTIONS, "--format", "json")
    b_plain = {m["metric"]: m["b"] for m in json.loads(plain)["metrics"]}
    for m in doc["metrics"]:
        assert m["b"] == b_plain[m["metric"]], m["metric"]   # B exactly as without the flag
    code, out, _ = compare(PREDICTIONS, LEXICAL, "--form", "b=lexicalized", "--format", "json")
    assert json.loads(out)["forms"]["b"]["lexicalized"] is True
    code, _, err = compare(PREDICTIONS, LEXICAL, "--form", "c=lexicalized")
    assert code == 1 and "--form 'c=lexicalized': no row named 'c'" in err


@pytest.mark.parametrize("extra", [[], ["--confidence", "0.9", "--pvalue", "empirical"]])
def test_text_and_json_state_the_same_correction_and_pm(compare, extra):  # noqa: F811
    code, text, _ = compare(PREDICTIONS, WORSE, *extra)
    code, out, _ = compare(PREDICTIONS, WORSE, "--format", "json", *extra)
    doc = json.loads(out)
    note = text.splitlines()[-1]
    assert note == doc["note"]
    assert f"correction: {doc['params']['correction']}" in note
    assert doc["params"]["correction"] == "none"
    assert f"p: {doc['params']['pvalue']}, two-sided" in note
    level = f"{100 * doc['params']['confidence']:g} %"
    assert f"{level} percentile intervals, ± = half their width" in note
    assert doc["pm"] == f"half the width of the {level} percentile interval"
