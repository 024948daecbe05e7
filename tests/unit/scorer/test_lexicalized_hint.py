"""The lexicalized-file hint (``scorer.lexicalized.detect.lexicalized_hint``) on the
two-dialogue mwz21 fixture: its figures are those of a ``lexicalized=True`` run, its evidence
the shares of the responses, and it stays silent for a delexicalized file and a file without
text."""

from __future__ import annotations

from mwzrepro.scorer.lexicalized.detect import lexicalized_hint
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_lexicalized_scoring import LEXICAL, evaluator


def _responses(data):
    return [t.get("response", "") for turns in data.values() for t in turns]


def test_the_hint_gives_what_the_option_gives(mini):
    hint = lexicalized_hint(evaluator(mini), LEXICAL, _responses(LEXICAL), "llm.json")
    result = evaluator(mini, lexicalized=True).evaluate(LEXICAL)
    success = result.to_dict()["success"]
    assert (hint.inform, hint.success, hint.bleu) == (
        success["inform"]["total"], success["success"]["total"], result.bleu.score)
    assert (hint.without_placeholder, hint.lex) == (1.0, "1-pred")
    assert hint.naming_values == 2 / 3          # a venue name and a postcode of 3 responses


def test_no_hint_for_placeholders_or_for_no_text(mini):
    ev = evaluator(mini)
    assert lexicalized_hint(ev, PREDICTIONS, _responses(PREDICTIONS), "sys.json") is None
    states_only = {d: [{"state": t["state"]} for t in turns] for d, turns in LEXICAL.items()}
    assert lexicalized_hint(ev, states_only, _responses(states_only), "s.json") is None
