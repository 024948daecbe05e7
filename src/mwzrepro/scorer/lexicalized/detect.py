"""Recognizing a lexicalized prediction file scored without ``--lexicalized``: a file of surface
text (venue names, phone numbers, booking references written out) scored as
if it were delexicalized offers no venue and provides no requestable, so its Inform and
Success are near zero with nothing said. When the responses look lexicalized, the run says so
with the evidence and the figures the option would give::

    sys.json: responses look lexicalized (97.0% carry no placeholder; 34.8% name a database
    venue, a phone number or a booking reference); with --lexicalized: Inform 96.5,
    Success 91.5, BLEU 92.8 (lex:1-gold; scored here without it)

**Detector**: rule 2 of :mod:`mwzrepro.scorer.lexicalized.form_measure`, in two steps, the
second only when the first holds:

1. *No placeholders* (:func:`~mwzrepro.scorer.lexicalized.form_measure.may_be_lexicalized`):
   rule 1 does not keep the file, so more than 0.9 of the responses carry no placeholder (a
   file with one response in ten with a placeholder is scored as it is by ``--lexicalized``,
   so "with --lexicalized" figures would not be what the option gives). The 19 public
   delexicalized files have at most 0.39 without (AuGPT), the corpus text 1.0; a delexicalized
   file never gets to step 2, so the check costs one regular-expression scan per response.
2. *Values* (:func:`~mwzrepro.scorer.lexicalized.form_measure.names_values`): the responses are
   delexicalized as ``--lexicalized`` does (:mod:`mwzrepro.prepare.delex.delexicalize_responses`,
   against the venue database and the turn's state), and in at least 0.15 of them that writes
   a venue name, a phone number or a booking reference where the response had none (the
   MultiWOZ 2.1 test corpus text: 0.35). A file of placeholder-free small talk stays below it.

The figures are a second scoring of the delexicalized responses with the evaluator's settings
(first Inform/Success setting), equal to a run with ``lexicalized=True`` (tested).

Step 1's figure, the share (fraction) of responses without any placeholder:

>>> measure_form(["[hotel_name] is nice", "Nandos is nice", "bye", "ok"]).without_placeholder_share
0.75
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mwzrepro.scorer.lexicalized.form_measure import (
    may_be_lexicalized,
    measure_form,
    names_values,
)

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext

__all__ = ["LexicalizedHint", "lexicalized_hint"]


@dataclass(frozen=True)
class LexicalizedHint:
    """The evidence (fractions) and the figures with ``--lexicalized`` (percent; None when the
    metric is not computed)."""

    without_placeholder: float
    naming_values: float
    lex: str
    inform: float | None = None
    success: float | None = None
    bleu: float | None = None

    def line(self, source: str) -> str:
        """The one line shown to the user.

        >>> print(LexicalizedHint(0.97, 0.348, "1-gold", 96.5, 91.5, 92.83).line("s.json"))
        s.json: responses look lexicalized (97.0% carry no placeholder; 34.8% name a database venue, a phone number or a booking reference); with --lexicalized: Inform 96.5, Success 91.5, BLEU 92.8 (lex:1-gold; scored here without it)
        """
        parts = [f"{name} {value:.1f}" for name, value in
                 (("Inform", self.inform), ("Success", self.success), ("BLEU", self.bleu))
                 if value is not None]
        return (f"{source}: responses look lexicalized ({100 * self.without_placeholder:.1f}% "
                f"carry no placeholder; {100 * self.naming_values:.1f}% name a database venue, "
                "a phone number or a booking reference); with --lexicalized: "
                f"{', '.join(parts)} (lex:{self.lex}; scored here without it)")


def lexicalized_hint(evaluator: ScoringContext, data: Mapping[str, Any],
                     responses: list[str], source: str) -> LexicalizedHint | None:
    """The :class:`LexicalizedHint` of a prediction mapping ``data`` whose raw responses are
    ``responses`` (file order), or None when the detector (module docstring) does not fire.
    """
    measure = measure_form(responses)
    if not may_be_lexicalized(measure) or not any(r.strip() for r in responses):
        return None  # placeholders (rule 1 keeps the file), or no text (a states-only file)
    from mwzrepro.scorer.blocks import bleu_block, success_block
    from mwzrepro.scorer.inputs import read_shape
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalize_predictions, lex_value

    shaped, _ = read_shape(data, source)
    delexed, state_source = delexicalize_predictions(shaped, evaluator.resources)
    given = [t["response"] for turns in shaped.values() for t in turns]
    written = [t["response"] for key in shaped for t in delexed[key]]
    naming = measure_form(given, written)
    if not names_values(naming):
        return None
    preds, prep, coverage, *_ = evaluator._prepare(delexed, source)
    out: dict[str, Any] = {}
    setting = evaluator.settings[0]
    if evaluator.metrics["success"]:
        s = success_block(prep, evaluator.resources.eval, evaluator._database(), (setting,),
                          evaluator.version, source, evaluator.inform.matching,
                          evaluator.inform.fuzzy_threshold, coverage)[setting]
        out.update(inform=s.inform["total"], success=s.success["total"])
    if evaluator.metrics["bleu"]:
        out["bleu"] = bleu_block(preds, evaluator.resources.reference_columns,
                                 evaluator.version, source, coverage).score
    return LexicalizedHint(measure.without_placeholder_share, naming.naming_share,
                           lex_value(state_source), **out)
