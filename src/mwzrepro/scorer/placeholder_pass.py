"""What the placeholder vocabulary costs a file (issue 18): when a run under ``reference``
(spec-standard-evaluation §3.2) meets placeholders that ``extended``
(:mod:`mwzrepro.core.placeholders`) maps — ``[hotel_ref]``, ``[train-leaveat]`` — a second
pass over the same prepared data scores the responses normalized with ``extended`` and gives
Inform and Success (the evaluator's first setting) and BLEU, so the user sees the
difference instead of a silent loss::

    mine.json: with placeholders=extended: Inform 96.6, Success 88.3, BLEU 17.9 (it maps
    hotel_ref ×120, train_ref ×80; these figures are not leaderboard-comparable)

The figures equal a run with ``placeholders="extended"`` (same states, active domains and
coverage; only the normalized responses differ).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.scorer.inputs import Coverage
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["ExtendedFigures", "extended_pass"]


@dataclass(frozen=True)
class ExtendedFigures:
    """Scores of the same file with ``placeholders=extended`` (percent).

    Attributes:
        placeholders: ``{bracket content: count}`` that ``extended`` maps and ``reference``
            does not (:func:`mwzrepro.core.placeholders.extended_gains`).
        setting: the Inform/Success setting of ``inform`` and ``success``.
        inform, success: totals (one decimal, as the main result); None when not computed.
        bleu: corpus BLEU; None when not computed.
    """

    placeholders: dict[str, int]
    setting: str
    inform: float | None = None
    success: float | None = None
    bleu: float | None = None

    def line(self, source: str) -> str:
        """The one line shown to the user.

        >>> ExtendedFigures({"hotel_ref": 2}, "standard", 96.6, 88.3, 17.94).line("a.json")
        'a.json: with placeholders=extended: Inform 96.6, Success 88.3, BLEU 17.9 (it maps hotel_ref ×2; not leaderboard-comparable; --placeholders extended scores with it)'
        """
        parts = [f"{name} {value:.1f}" for name, value in
                 (("Inform", self.inform), ("Success", self.success), ("BLEU", self.bleu))
                 if value is not None]
        maps = ", ".join(f"{k} ×{v}" for k, v in self.placeholders.items())
        return (f"{source}: with placeholders=extended: {', '.join(parts)} (it maps {maps}; "
                "not leaderboard-comparable; --placeholders extended scores with it)")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (``placeholders_extended`` of the result)."""
        return {"inform": self.inform, "success": self.success, "bleu": self.bleu,
                "setting": self.setting, "placeholders": dict(self.placeholders)}


def extended_pass(evaluator: ScoringContext, preds: Mapping[str, list], prep: PreparedDialogues,
                  label: str, coverage: Coverage) -> ExtendedFigures | None:
    """The :class:`ExtendedFigures` of a ``predictions`` table's columns (rows of a dialogue
    in turn order) and its prepared dialogues ``prep``, both made under ``reference``; None when
    ``extended`` would normalize no response differently. States, active domains and
    coverage are ``prep``'s: only the normalized responses change.
    """
    from mwzrepro.core.normalize import normalize_response
    from mwzrepro.core.placeholders import extended_gains
    from mwzrepro.scorer.blocks import bleu_block, success_block
    from mwzrepro.standard.inputs import PreparedDialogues

    responses = preds["response"]
    gains = extended_gains(responses)
    if not gains:
        return None
    ext = {**preds, "response_norm": [normalize_response(r, None, "extended")
                                      for r in responses]}
    setting = evaluator.settings[0]
    out: dict[str, Any] = {}
    res = evaluator.resources
    if evaluator.metrics["success"]:
        by_dialogue: dict[str, list[str]] = {}
        for did, text in zip(ext["dialogue_id"], ext["response_norm"]):
            by_dialogue.setdefault(did, []).append(text)
        again = PreparedDialogues({did: {**d, "responses": by_dialogue[did]}
                                   for did, d in prep.dialogues.items()},
                                  prep.state_source, prep.domain_source)
        s = success_block(again, res.eval, evaluator._database(), (setting,),
                          evaluator.version, label, evaluator.inform.matching,
                          evaluator.inform.fuzzy_threshold, coverage)[setting]
        out.update(inform=s.inform["total"], success=s.success["total"])
    if evaluator.metrics["bleu"]:
        out["bleu"] = bleu_block(ext, res.reference_columns, evaluator.version, label,
                                 coverage).score
    return ExtendedFigures(gains, setting, **out)
