"""Placeholder and state dialects and lexicalized files on the real data mirror (issue 28):

* none of the 19 public delexicalized files gets a dialect warning (no unknown state name, no
  lexicalized hint);
* the corpus's own lexicalized text, and a 200-dialogue cut of it, trigger the lexicalized
  hint, with figures equal to ``lexicalized=True``;
* UBAR with a misspelled domain (``restuarant``) or an unknown slot (``colour``) on every turn:
  the issue's figures under ``reference`` (Inform 77.1, JGA 0.0 for the domain), one warning
  line with the count, and the extended line equal to a run with ``placeholders=extended``;
* UBAR with its booking references written ``[reference_number]`` (the descriptive dialect):
  the extended line, which rescores only the changed dialogues and segments, equals a full run
  with ``placeholders=extended``, and that equals UBAR itself.
"""

from __future__ import annotations

import copy
import json

import pytest

from mwzrepro import Evaluator
from mwzrepro.scorer.dialects.warning_lines import dialect_warnings
from tests.conftest import mirror_file

pytestmark = pytest.mark.mirror

EVALUATOR = "Tomiinek/MultiWOZ_Evaluation"
SYSTEMS = ("augpt", "bort", "damd", "dots", "galaxy-e2e", "galaxy-policy", "hdno", "hdsa",
           "labes", "lava", "marco", "mars", "mintl", "pptod", "rstod", "sfn", "soloist",
           "ubar", "uniconv")


@pytest.fixture(scope="module")
def scorers(mirror, scorer_cache):
    made = {}

    def get(placeholders="reference", lexicalized=False, dst=False):
        key = (placeholders, lexicalized, dst)
        if key not in made:
            made[key] = Evaluator(bleu=True, success=True, richness=False, dst=dst,
                                  mirror=mirror, cache_dir=scorer_cache,
                                  placeholders=placeholders, lexicalized=lexicalized)
        return made[key]

    return get


def _load(mirror, system):
    path = mirror_file(mirror, EVALUATOR, f"predictions/{system}.json")
    return json.loads(path.read_text(encoding="utf-8"))


def _figures(result):
    d = result.to_dict()
    return (d["success"]["inform"]["total"], d["success"]["success"]["total"],
            d["bleu"]["mwz21"])


def _extended_figures(result):
    f = result.placeholders_extended
    return (f.inform, f.success, f.bleu)


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_public_file_gets_a_dialect_warning(mirror, scorers, system):
    evaluator = scorers()
    data = _load(mirror, system)
    preds, *_ = evaluator._prepare(data, f"{system}.json")
    assert dialect_warnings(evaluator, data, preds, f"{system}.json").lines == []


def _corpus_text(evaluator):
    refs = evaluator.resources.references
    out = {}
    for did, text in zip(refs["dialogue_id"], refs["text"]):
        out.setdefault(did, []).append({"response": text})
    return out


@pytest.mark.parametrize("dialogues", [None, 200])
def test_corpus_lexicalized_text_gets_the_hint_with_the_lexicalized_figures(scorers,
                                                                            dialogues):
    plain = scorers()
    data = _corpus_text(plain)
    if dialogues:
        data = dict(list(data.items())[:dialogues])
    result = plain.evaluate(data, source="lexical.json")
    inform, success, bleu = _figures(scorers(lexicalized=True).evaluate(data))
    hint = [w for w in result.warnings if "responses look lexicalized" in w]
    assert len(hint) == 1
    assert hint[0].startswith("lexical.json: responses look lexicalized (100.0% carry no "
                              "placeholder; ")
    assert hint[0].endswith(f"with --lexicalized: Inform {inform:.1f}, Success {success:.1f}, "
                            f"BLEU {bleu:.1f} (lex:1-gold; scored here without it)")
    assert _figures(result)[1] < 20 < success         # the blind spot the hint closes


@pytest.mark.parametrize("extra, kind, line", [
    ({"restuarant": {"food": "indian"}}, "domains", "restuarant ×7372 turns"),
    ({"hotel": {"colour": "red"}}, "slots", "hotel-colour ×7372 turns"),
])
def test_state_experiments_warn_and_the_extended_line_equals_extended(mirror, scorers, extra,
                                                                      kind, line):
    data = copy.deepcopy(_load(mirror, "ubar"))
    for turns in data.values():
        for turn in turns:
            for domain, slots in copy.deepcopy(extra).items():
                turn["state"][domain] = {**turn["state"].get(domain, {}), **slots}
    ref = scorers(dst=True).evaluate(data, source="ubar.json")
    warned = [w for w in ref.warnings if "predicted states name" in w]
    assert warned == [f"ubar.json: predicted states name {kind} the ontology does not know, "
                      "scored as given (as the reference evaluator does; "
                      f"placeholders=extended resolves or ignores them): {line}"]
    if kind == "domains":                                  # the figures
        assert (ref.success["standard"].inform["total"], ref.dst.joint_accuracy) == (77.1, 0.0)
    ext = scorers("extended", dst=True).evaluate(data, source="ubar.json")
    assert _extended_figures(ref) == _figures(ext)
    assert ref.placeholders_extended.jga == ext.dst.joint_accuracy
    if kind == "slots":                                    # ignored: UBAR's own figures
        assert _figures(ext) == _figures(scorers().evaluate(_load(mirror, "ubar")))


def test_descriptive_references_rescored_incrementally_equal_a_full_extended_run(mirror,
                                                                                scorers):
    ubar = _load(mirror, "ubar")
    data = copy.deepcopy(ubar)
    changed = 0
    for turns in data.values():
        for turn in turns:
            if "[value_reference]" in turn["response"]:
                turn["response"] = turn["response"].replace("[value_reference]",
                                                            "[reference_number]")
                changed += 1
    assert changed > 900
    ref = scorers().evaluate(data, source="ubar.json")
    ext = scorers("extended").evaluate(data, source="ubar.json")
    assert ref.placeholders_extended.placeholders == {"reference_number": changed}
    assert _extended_figures(ref) == _figures(ext) == _figures(scorers().evaluate(ubar))
    assert _figures(ref)[1] < _figures(ext)[1] - 30      # Success without the references
