"""Recognizing a lexicalized prediction file scored without ``--lexicalized`` (issue 28): a
file of surface text (venue names, phone numbers, booking references written out) scored as
if it were delexicalized offers no venue and provides no requestable, so its Inform and
Success are near zero with nothing said. When the responses look lexicalized, the run says so
with the evidence and the figures the option would give::

    sys.json: responses look lexicalized (97.0% carry no placeholder; 34.8% name a database
    venue, a phone number or a booking reference); with --lexicalized: Inform 96.5,
    Success 91.5, BLEU 92.8 (lex:1-gold; scored here without it)

**Detector** (two steps, the second only when the first holds):

1. *No placeholders.* The share of responses without any ``[...]`` placeholder
   (:data:`~mwzrepro.core.slot_map.EXTENDED_PLACEHOLDER_RE`) is at least
   :data:`MIN_WITHOUT_PLACEHOLDER` (0.8). The 19 public delexicalized files have at most
   0.39 (AuGPT), the corpus text 1.0; a delexicalized file never gets to step 2, so the check
   costs one regular-expression scan per response.
2. *Values.* The responses are delexicalized as ``--lexicalized`` does
   (:mod:`mwzrepro.prepare.delex.delexicalize_responses`, against the venue database and the
   turn's state), and the share of responses in which that writes a venue name, a phone number
   or a booking reference (``[name]``, ``[phone]``, ``[ref]``) where the response had none is
   at least :data:`MIN_NAMING_VALUES` (0.15; the MultiWOZ 2.1 test corpus text: 0.35). A file
   of placeholder-free small talk stays below it.

The figures are a second scoring of the delexicalized responses with the evaluator's settings
(first Inform/Success setting), equal to a run with ``lexicalized=True`` (tested).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mwzrepro.core.slot_map import EXTENDED_PLACEHOLDER_RE

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext

__all__ = ["MIN_WITHOUT_PLACEHOLDER", "MIN_NAMING_VALUES", "LexicalizedHint",
           "without_placeholder", "lexicalized_hint"]

#: Detector step 1: least share (fraction) of responses without any placeholder.
MIN_WITHOUT_PLACEHOLDER = 0.8
#: Detector step 2: least share (fraction) of responses naming a venue, phone or reference.
MIN_NAMING_VALUES = 0.15

_NAMED = re.compile(r"\[(?:name|phone|ref)\]")


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


def without_placeholder(responses: list[str]) -> float:
    """Detector step 1: the share (fraction) of ``responses`` without any placeholder.

    >>> without_placeholder(["[hotel_name] is nice", "Nandos is nice", "bye", "ok"])
    0.75
    """
    if not responses:
        return 0.0
    return sum(1 for r in responses if not EXTENDED_PLACEHOLDER_RE.search(r)) / len(responses)


def _naming_share(given: Mapping[str, Any], delexed: Mapping[str, Any]) -> float:
    n = named = 0
    for key, turns in given.items():
        for before, after in zip(turns, delexed[key]):
            n += 1
            named += bool(_NAMED.search(after["response"])
                          and not _NAMED.search(before["response"].lower()))
    return named / n if n else 0.0


def lexicalized_hint(evaluator: ScoringContext, data: Mapping[str, Any],
                     responses: list[str], source: str) -> LexicalizedHint | None:
    """The :class:`LexicalizedHint` of a prediction mapping ``data`` whose raw responses are
    ``responses`` (file order), or None when the detector (module docstring) does not fire.
    """
    share = without_placeholder(responses)
    if share < MIN_WITHOUT_PLACEHOLDER or not any(r.strip() for r in responses):
        return None  # placeholders, or no text at all (a states-only file)
    from mwzrepro.scorer.blocks import bleu_block, success_block
    from mwzrepro.scorer.inputs import read_shape
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalize_predictions, lex_value

    shaped, _ = read_shape(data, source)
    delexed, state_source = delexicalize_predictions(shaped, evaluator.resources)
    naming = _naming_share(shaped, delexed)
    if naming < MIN_NAMING_VALUES:
        return None
    preds, prep, coverage, _ = evaluator._prepare(delexed, source)
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
    return LexicalizedHint(share, naming, lex_value(state_source), **out)
